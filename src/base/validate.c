/* Argument validation helpers shared by every module. */
#include <stdint.h>
#include "nsmech/base.h"

int nsm_all_finite(size_t len, const double *x)
{
    /* x - x is 0 exactly for finite x and NaN for NaN and +-Inf (this needs no <math.h> and is
       immune to the sign of zero); a NaN term makes the sum NaN. Two partial sums and no early
       exit, so that compilers turn the scan into SIMD operations (inputs are scanned on every
       call of a public function). */
    double a0 = 0.0;
    double a1 = 0.0;
    size_t i = 0;
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, a0, a1;
        loop variant len - i;
     */
    while (len - i >= 2u) {
        a0 += x[i] - x[i];
        a1 += x[i + 1u] - x[i + 1u];
        i += 2u;
    }
    if (i < len) {
        a0 += x[i] - x[i];
    }
    return (a0 + a1 == 0.0) ? 1 : 0;
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

int nsm_is_symmetric(size_t n, const double *A, double tol)
{
    double scale = 1.0;
    /*@ loop invariant 0 <= k <= n*n;
        loop assigns k, scale;
        loop variant n*n - k;
     */
    for (size_t k = 0; k < n * n; k++) {
        double a = A[k] < 0.0 ? -A[k] : A[k];
        if (a > scale) {
            scale = a;
        }
    }
    /*@ loop invariant 0 <= i <= n;
        loop assigns i;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row_in: i*n + n <= n*n; */
        /*@ loop invariant i + 1 <= j <= n || (j == i + 1 && j > n);
            loop assigns j;
            loop variant n - j;
         */
        for (size_t j = i + 1; j < n; j++) {
            /*@ assert col_in: j*n + i < n*n; */
            double d = A[i * n + j] - A[j * n + i];
            if (d < 0.0) {
                d = -d;
            }
            if (!(d <= tol * scale)) {
                return 0;
            }
        }
    }
    return 1;
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
