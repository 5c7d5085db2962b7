/* Argument validation helpers shared by every module. */
#include <stdint.h>
#include "nsmech/base.h"

int nsm_all_finite(size_t len, const double *x)
{
    /* x - x is 0 exactly for finite x and NaN for NaN and +-Inf (this needs no <math.h> and is
       immune to the sign of zero); a NaN term makes the sum NaN. Four partial sums and no
       early exit: four independent addition chains per pass (inputs are scanned on every
       call of a public function, so the scan runs at the adder's throughput, not its
       latency). */
    double a0 = 0.0;
    double a1 = 0.0;
    double a2 = 0.0;
    double a3 = 0.0;
    size_t i = 0;
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, a0, a1, a2, a3;
        loop variant len - i;
     */
    while (len - i >= 4u) {
        a0 += x[i] - x[i];
        a1 += x[i + 1u] - x[i + 1u];
        a2 += x[i + 2u] - x[i + 2u];
        a3 += x[i + 3u] - x[i + 3u];
        i += 4u;
    }
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, a0;
        loop variant len - i;
     */
    while (i < len) {
        a0 += x[i] - x[i];
        i++;
    }
    return ((a0 + a1) + (a2 + a3) == 0.0) ? 1 : 0;
}

int nsm_dim_ok(size_t n)
{
    return (n >= 1u && n <= NSM_MAX_DIM) ? 1 : 0;
}

int nsm_dim0_ok(size_t n)
{
    return (n <= NSM_MAX_DIM) ? 1 : 0;
}

nsm_status nsm_check_input(size_t len, const double *x)
{
    if (len == 0u) {
        return NSM_OK;
    }
    if (x == NULL) {
        return NSM_ERR_NULL;
    }
    return nsm_all_finite(len, x) ? NSM_OK : NSM_ERR_NOT_FINITE;
}

/* One pass over the pairs (i, j), j < i, and the diagonal: the largest magnitude (scale,
   at least 1) and
   the largest |A_ij − A_ji| (NaN-propagating: a NaN difference makes the
   comparison fail), compared once at the end. */
int nsm_is_symmetric(size_t n, const double *A, double tol)
{
    double scale = 1.0;
    double diff = 0.0;
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, scale, diff;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row_in: i*n + n <= n*n; */
        double c = A[i * n + i] < 0.0 ? -A[i * n + i] : A[i * n + i];
        scale = c > scale ? c : scale;
        /*@ loop invariant 0 <= j <= i;
            loop assigns j, scale, diff;
            loop variant i - j;
         */
        for (size_t j = 0; j < i; j++) {
            /*@ assert col_in: j*n + i < n*n; */
            double a = A[i * n + j];
            double b = A[j * n + i];
            double aa = a < 0.0 ? -a : a;
            double bb = b < 0.0 ? -b : b;
            double d = a - b < 0.0 ? b - a : a - b;
            scale = aa > scale ? aa : scale;
            scale = bb > scale ? bb : scale;
            diff = d <= diff ? diff : d;
        }
    }
    return diff <= tol * scale ? 1 : 0;
}

int nsm_overlap(const double *a, size_t na, const double *b, size_t nb)
{
    if (na == 0u || nb == 0u) {
        return 0;
    }
    /* Compare addresses as integers: relational comparison of pointers into different objects
       is undefined in C, the integer comparison is well defined. */
    uintptr_t a0 = (uintptr_t)a;
    uintptr_t b0 = (uintptr_t)b;
    /* Differences of ordered addresses cannot wrap; na, nb <= NSM_MAX_DIM² keep the byte
       counts far from overflow. */
    if (a0 <= b0) {
        return (b0 - a0) / sizeof(double) < na ? 1 : 0;
    }
    return (a0 - b0) / sizeof(double) < nb ? 1 : 0;
}

int nsm_overlap_bytes(uintptr_t a, size_t na, uintptr_t b, size_t nb)
{
    if (na == 0u || nb == 0u) {
        return 0;
    }
    if (a <= b) {
        return b - a < na ? 1 : 0;
    }
    return a - b < nb ? 1 : 0;
}

/* 1 if the spans a and b share a byte: the test of nsm_overlap_bytes. */
/*@ assigns \nothing;
    ensures \result == 1 <==> nsm_spans_meet(a, b);
    ensures \result == 0 || \result == 1;
 */
static int span_hit(nsm_span a, nsm_span b)
{
    if (a.len == 0u || b.len == 0u) {
        return 0;
    }
    if (a.addr <= b.addr) {
        return b.addr - a.addr < a.len ? 1 : 0;
    }
    return a.addr - b.addr < b.len ? 1 : 0;
}

int nsm_spans_overlap(size_t nw, const nsm_span *w, size_t nr, const nsm_span *r)
{
    /*@ loop invariant 0 <= i <= nw;
        loop invariant \forall integer a, b; 0 <= a < i && a < b < nw ==>
                           !nsm_spans_meet(w[a], w[b]);
        loop invariant \forall integer a, b; 0 <= a < i && 0 <= b < nr ==>
                           !nsm_spans_meet(w[a], r[b]);
        loop assigns i;
        loop variant nw - i;
     */
    for (size_t i = 0; i < nw; i++) {
        /*@ loop invariant i + 1 <= j <= nw;
            loop invariant \forall integer b; i < b < j ==> !nsm_spans_meet(w[i], w[b]);
            loop assigns j;
            loop variant nw - j;
         */
        for (size_t j = i + 1; j < nw; j++) {
            if (span_hit(w[i], w[j])) {
                return 1;
            }
        }
        /*@ loop invariant 0 <= j <= nr;
            loop invariant \forall integer b; 0 <= b < j ==> !nsm_spans_meet(w[i], r[b]);
            loop assigns j;
            loop variant nr - j;
         */
        for (size_t j = 0; j < nr; j++) {
            if (span_hit(w[i], r[j])) {
                return 1;
            }
        }
    }
    return 0;
}
