/*
 * Convex hull of points in the plane (Andrew's monotone chain) on an exact orientation test:
 * the picture of an outcome set (docs/math.md, "The picture of a set").
 */
#include <stdint.h>
#include "nsmech/geometry.h"
#include "../nsm_math.h"

/* 1 if point a precedes point b in (x, y) lexicographic order. */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int before(double xa, double ya, double xb, double yb)
{
    return xa < xb || (xa == xb && ya < yb);
}

/* 1 if points a and b coincide. */
/*@ requires npts <= NSM_MAX_DIM * NSM_MAX_DIM && a < npts && b < npts;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    assigns \nothing;
 */
static int same_point(size_t npts, const double *x, const double *y, size_t a, size_t b)
{
    (void)npts; /* the bound of a and b, for the contract */
    return x[a] == x[b] && y[a] == y[b];
}

/*
 * Exact orientation of three points: the sign of (b - a) × (c - a).
 *
 * First a filter (Shewchuk 1997, "Adaptive precision floating-point arithmetic and fast
 * robust geometric predicates", orient2d stage A): the rounded determinant decides when its
 * magnitude exceeds the proven bound on its rounding error, the common case. Otherwise the
 * determinant is evaluated exactly in integers:
 *   1. expanded, it is a sum of six products of coordinates,
 *        D = bx·cy + ax·by + cx·ay - bx·ay - ax·cy - by·cx
 *      (the ax·ay terms cancel), so no difference is formed and nothing overflows;
 *   2. every nonzero coordinate is |v| = V·2^(32 j) with V an integer below 2^84 and
 *      -34 <= j <= 30 (split_double: scaling by 2^±32 is exact, and every double of
 *      magnitude 2^52 or more is an integer), that is three 32-bit limbs;
 *   3. each product |p|·|q| is nine limb products (each below 2^64) added at limb
 *      j_p + j_q + (their limb offsets) into one of two accumulators of 32-bit limbs, the
 *      products of positive sign into one, those of negative sign into the other;
 *   4. the sign of D is that of the difference of the two accumulators, read from the top
 *      limb down; only the limbs from the lowest product's base to six above the highest
 *      one's are cleared and read (the six products' sum fits there).
 * The accumulators (134 limbs, 2^(32·(-68)) up to 2^(32·66)) hold every product of two
 * doubles and the carries of six of them: the result is exact for all finite coordinates,
 * with no exception for mixed scales, subnormals or magnitudes near DBL_MAX. Its only
 * floating-point operations are exact (scalings by powers of two, truncation of an integer
 * below 2^84 to its limbs and the subtraction of a limb's value), so it holds in IEEE
 * binary64 as in the real model of the proofs; the proofs cover termination, the bounds of
 * every index and limb, unsigned arithmetic without wrap-around, and the range of the result.
 */

/* Shewchuk's error bound of the rounded determinant: |computed - exact| <= ORIENT_ERR_A times
   (|detleft| + |detright|) when no product overflows or underflows (ccwerrboundA, (3 + 16 eps)
   eps with eps = 2^-53); ORIENT_ERR_ABS covers the absolute error of products that underflow
   (at most 2^-1075 each, and the subtraction). */
#define ORIENT_ERR_A (3.0 * 0x1p-53 + 16.0 * 0x1p-106)
#define ORIENT_ERR_ABS 0x1p-1070

/* The sign of the rounded determinant when it is certain (its magnitude beyond the error
   bound, everything finite), else 0 (the exact evaluation decides). */
/*@ assigns \nothing;
    ensures \result == -1 || \result == 0 || \result == 1;
 */
static int orient_filtered(double ax, double ay, double bx, double by, double cx, double cy)
{
    double detl = (bx - ax) * (cy - ay);
    double detr = (by - ay) * (cx - ax);
    double det = detl - detr;
    double sum = fabs(detl) + fabs(detr);
    const double v[2] = {det, sum};
    if (!nsm_all_finite(2, v)) {
        return 0;
    }
    double err = ORIENT_ERR_A * sum + ORIENT_ERR_ABS;
    if (det > err) {
        return 1;
    }
    if (-det > err) {
        return -1;
    }
    return 0;
}

/* Limbs of the exact evaluation: 32 bits each, ORIENT_LIMB = 2^32. A coordinate's limb scale
   j lies in [-ORIENT_JMIN, ORIENT_JMAX]; limb i of an accumulator weighs
   2^(32 (i - 2 ORIENT_JMIN)). A product is below 2^168 times 2^(32 (j_p + j_q)), and six of
   them below 2^192: six limbs from the base j_p + j_q + 2 ORIENT_JMIN, whose largest is
   2 (ORIENT_JMIN + ORIENT_JMAX); 2 (ORIENT_JMIN + ORIENT_JMAX) + 6 limbs in all. */
#define ORIENT_LIMB 4294967296.0
#define ORIENT_JMIN 34
#define ORIENT_JMAX 30
#define ORIENT_LIMBS (2 * (ORIENT_JMIN + ORIENT_JMAX) + 6)

/* A nonzero coordinate's magnitude as limbs[0] + limbs[1]·2^32 + limbs[2]·2^64 times
   2^(32 j) (step 2 above), j returned. */
/*@ requires \valid(limbs + (0 .. 2));
    assigns limbs[0 .. 2];
    ensures -ORIENT_JMIN <= \result <= ORIENT_JMAX;
 */
static int split_double(double v, uint32_t *limbs)
{
    double m = fabs(v);
    int j = 0;
    /* |v| < 2^1024: at most 30 steps down to below 2^84 (each result >= 2^52, exact) */
    /*@ loop invariant 0 <= j <= ORIENT_JMAX;
        loop assigns j, m;
        loop variant ORIENT_JMAX - j;
     */
    while (m >= 0x1p84 && j < ORIENT_JMAX) {
        m *= 0x1p-32;
        j++;
    }
    /* up until m >= 2^52 (an integer), or j = -34: then |v| >= 2^-1074 gave m >= 2^14 times
       an integer (a subnormal's bits all lie at or above 2^-1074) */
    /*@ loop invariant -ORIENT_JMIN <= j <= ORIENT_JMAX;
        loop assigns j, m;
        loop variant j + ORIENT_JMIN;
     */
    while (m < 0x1p52 && j > -ORIENT_JMIN) {
        m *= 0x1p32;
        j--;
    }
    /* m < 2^84: three limbs, each split off exactly (the differences are integers the size of
       the remaining limbs); the range tests only restate that for the conversions */
    /*@ loop invariant -1 <= i <= 2;
        loop assigns i, m, limbs[0 .. 2];
        loop variant i + 1;
     */
    for (int i = 2; i >= 0; i--) {
        double w = i == 2 ? 0x1p64 : (i == 1 ? ORIENT_LIMB : 1.0);
        double q = m / w;
        uint32_t limb = q >= 0.0 && q < ORIENT_LIMB ? (uint32_t)q : 0u;
        limbs[i] = limb;
        m -= (double)limb * w;
    }
    return j;
}

/* Adds v (below 2^64) to acc at limb at, carrying upward through limb end - 1 at most (the
   caller's range holds the sum: a carry never reaches end). */
/*@ requires at < end <= ORIENT_LIMBS && \valid(acc + (0 .. ORIENT_LIMBS - 1));
    assigns acc[0 .. ORIENT_LIMBS - 1];
 */
static void acc_add(uint32_t *acc, size_t at, size_t end, uint64_t v)
{
    uint64_t carry = v;
    /*@ loop invariant at <= k <= end;
        loop assigns k, carry, acc[0 .. ORIENT_LIMBS - 1];
        loop variant end - k;
     */
    for (size_t k = at; k < end && carry != 0u; k++) {
        uint64_t cur = (uint64_t)acc[k] + carry % 4294967296u;
        acc[k] = (uint32_t)(cur % 4294967296u);
        carry = carry / 4294967296u + cur / 4294967296u;
    }
}

/* A product |p|·|q| (both nonzero) as the limbs of its factors (steps 2 and 3 above). */
typedef struct {
    uint32_t lp[3]; /**< |p| = (lp[0] + lp[1] 2^32 + lp[2] 2^64) 2^(32 j_p) */
    uint32_t lq[3]; /**< |q| likewise */
} orient_product;

/* Splits p and q (both nonzero) into t; returns the accumulator limb of the product's base,
   j_p + j_q + 2 ORIENT_JMIN. */
/*@ requires \valid(t);
    assigns *t;
    ensures \result <= 2 * (ORIENT_JMIN + ORIENT_JMAX);
 */
static size_t product_split(double p, double q, orient_product *t)
{
    int jp = split_double(p, t->lp);
    int jq = split_double(q, t->lq);
    return (size_t)(jp + jq + 2 * ORIENT_JMIN);
}

/* Adds the product t of base limb base to acc, whose limbs below end hold the sum. */
/*@ requires \valid(acc + (0 .. ORIENT_LIMBS - 1)) && \valid_read(t);
    requires base + 6 <= end <= ORIENT_LIMBS;
    assigns acc[0 .. ORIENT_LIMBS - 1];
 */
static void acc_add_product(uint32_t *acc, size_t base, size_t end, const orient_product *t)
{
    /*@ loop invariant 0 <= i <= 3;
        loop assigns i, acc[0 .. ORIENT_LIMBS - 1];
        loop variant 3 - i;
     */
    for (size_t i = 0; i < 3; i++) {
        /*@ loop invariant 0 <= k <= 3;
            loop assigns k, acc[0 .. ORIENT_LIMBS - 1];
            loop variant 3 - k;
         */
        for (size_t k = 0; k < 3; k++) {
            acc_add(acc, base + i + k, end, (uint64_t)t->lp[i] * t->lq[k]);
        }
    }
}

/* The sign of (b - a) × (c - a) evaluated exactly (steps 1 to 4 above), on the limbs from the
   lowest product's base to six above the highest one's. */
/*@ assigns \nothing;
    ensures \result == -1 || \result == 0 || \result == 1;
 */
static int orient_exact(double ax, double ay, double bx, double by, double cx, double cy)
{
    /* D = sum of s[t]·p[t]·q[t] */
    const double p[6] = {bx, ax, cx, bx, ax, by};
    const double q[6] = {cy, by, ay, ay, cy, cx};
    const int s[6] = {1, 1, 1, -1, -1, -1};
    orient_product prod[6];
    size_t base[6];
    int sg[6];
    size_t nt = 0;
    size_t lo = ORIENT_LIMBS - 6;
    size_t end = 6;
    /*@ loop invariant 0 <= t <= 6 && 0 <= nt <= t;
        loop invariant lo <= ORIENT_LIMBS - 6 && 6 <= end <= ORIENT_LIMBS;
        loop invariant nt > 0 ==> lo + 6 <= end;
        loop invariant \forall integer u; 0 <= u < nt ==> lo <= base[u] && base[u] + 6 <= end;
        loop assigns t, nt, lo, end, prod[0 .. 5], base[0 .. 5], sg[0 .. 5];
        loop variant 6 - t;
     */
    for (size_t t = 0; t < 6; t++) {
        if (p[t] != 0.0 && q[t] != 0.0) {
            sg[nt] = (p[t] < 0.0) == (q[t] < 0.0) ? s[t] : -s[t];
            size_t b = product_split(p[t], q[t], &prod[nt]);
            base[nt] = b;
            lo = b < lo ? b : lo;
            end = b + 6 > end ? b + 6 : end;
            nt++;
        }
    }
    if (nt == 0) {
        return 0; /* every product is zero */
    }
    /*@ assert lo + 6 <= end; */
    uint32_t pos[ORIENT_LIMBS];
    uint32_t neg[ORIENT_LIMBS];
    /*@ loop invariant lo <= i <= end;
        loop assigns i, pos[0 .. ORIENT_LIMBS - 1], neg[0 .. ORIENT_LIMBS - 1];
        loop variant end - i;
     */
    for (size_t i = lo; i < end; i++) {
        pos[i] = 0u;
        neg[i] = 0u;
    }
    /*@ loop invariant 0 <= u <= nt;
        loop assigns u, pos[0 .. ORIENT_LIMBS - 1], neg[0 .. ORIENT_LIMBS - 1];
        loop variant nt - u;
     */
    for (size_t u = 0; u < nt; u++) {
        acc_add_product(sg[u] > 0 ? pos : neg, base[u], end, &prod[u]);
    }
    /*@ loop invariant lo <= i <= end;
        loop assigns i;
        loop variant i;
     */
    for (size_t i = end; i > lo; i--) {
        if (pos[i - 1] != neg[i - 1]) {
            return pos[i - 1] > neg[i - 1] ? 1 : -1;
        }
    }
    return 0;
}

/* The sign (-1, 0, 1) of the orientation of points a, b, c: 1 for a left turn a -> b -> c:
   the rounded determinant where its sign is certain, else the exact evaluation. */
/*@ requires npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires a < npts && b < npts && c < npts;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    assigns \nothing;
    ensures \result == -1 || \result == 0 || \result == 1;
 */
static int orient(size_t npts, const double *x, const double *y, size_t a, size_t b, size_t c)
{
    (void)npts; /* the bound of a, b and c, for the contract */
    int fast = orient_filtered(x[a], y[a], x[b], y[b], x[c], y[c]);
    if (fast != 0) {
        return fast;
    }
    return orient_exact(x[a], y[a], x[b], y[b], x[c], y[c]);
}

/* Insertion sort of idx (a permutation of 0 .. npts-1) by (x, y). */
/*@ requires 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    requires \valid(idx + (0 .. npts - 1));
    requires \forall integer i; 0 <= i < npts ==> idx[i] < npts;
    assigns idx[0 .. npts - 1];
    ensures \forall integer i; 0 <= i < npts ==> idx[i] < npts;
 */
static void sort_points(size_t npts, const double *x, const double *y, size_t *idx)
{
    /*@ loop invariant 1 <= i <= npts;
        loop invariant \forall integer q; 0 <= q < npts ==> idx[q] < npts;
        loop assigns i, idx[0 .. npts - 1];
        loop variant npts - i;
     */
    for (size_t i = 1; i < npts; i++) {
        size_t key = idx[i];
        size_t j = i;
        /*@ loop invariant 0 <= j <= i;
            loop invariant \forall integer q; 0 <= q < npts ==> idx[q] < npts;
            loop assigns j, idx[0 .. npts - 1];
            loop variant j;
         */
        while (j > 0 && before(x[key], y[key], x[idx[j - 1]], y[idx[j - 1]])) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = key;
    }
}

/* Argument checks of nsm_hull2d, in its order: null, size, overlap, finiteness. */
/*@ requires valid_in: (x == \null || npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM ||
                        \valid_read(x + (0 .. npts - 1))) &&
                       (y == \null || npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM ||
                        \valid_read(y + (0 .. npts - 1)));
    assigns \nothing;
    ensures ok: \result == NSM_OK ==>
                  x != \null && y != \null && idx != \null && hull != \null && nh != \null &&
                  1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    behavior null:
      assumes x == \null || y == \null || idx == \null || hull == \null || nh == \null;
      ensures \result == NSM_ERR_NULL;
    behavior size:
      assumes x != \null && y != \null && idx != \null && hull != \null && nh != \null;
      assumes npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior checked:
      assumes x != \null && y != \null && idx != \null && hull != \null && nh != \null;
      assumes 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
      ensures \result == NSM_OK || \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE;
    complete behaviors;
    disjoint behaviors;
 */
static nsm_status hull_check(size_t npts, const double *x, const double *y, const size_t *idx,
                             const size_t *hull, const size_t *nh)
{
    if (x == NULL || y == NULL || idx == NULL || hull == NULL || nh == NULL) {
        return NSM_ERR_NULL;
    }
    if (npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    size_t ni = npts * sizeof(size_t);
    size_t nd = npts * sizeof(double);
    size_t nhb = (npts + 1) * sizeof(size_t);
    uintptr_t ai = (uintptr_t)idx;
    uintptr_t ah = (uintptr_t)hull;
    uintptr_t an = (uintptr_t)nh;
    uintptr_t ax = (uintptr_t)x;
    uintptr_t ay = (uintptr_t)y;
    size_t ns = sizeof(size_t);
    if (nsm_overlap_bytes(ai, ni, ah, nhb) || nsm_overlap_bytes(ai, ni, ax, nd) ||
        nsm_overlap_bytes(ai, ni, ay, nd) || nsm_overlap_bytes(ah, nhb, ax, nd) ||
        nsm_overlap_bytes(ah, nhb, ay, nd) || nsm_overlap_bytes(an, ns, ai, ni) ||
        nsm_overlap_bytes(an, ns, ah, nhb) || nsm_overlap_bytes(an, ns, ax, nd) ||
        nsm_overlap_bytes(an, ns, ay, nd)) {
        return NSM_ERR_ALIAS;
    }
    if (!nsm_all_finite(npts, x) || !nsm_all_finite(npts, y)) {
        return NSM_ERR_NOT_FINITE;
    }
    return NSM_OK;
}

/* idx[i] = i for the npts points (the permutation the sort starts from). */
/*@ requires 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid(idx + (0 .. npts - 1));
    assigns idx[0 .. npts - 1];
    ensures \forall integer q; 0 <= q < npts ==> idx[q] < npts;
 */
static void hull_fill_idx(size_t npts, size_t *idx)
{
    /*@ loop invariant 0 <= i <= npts;
        loop invariant \forall integer q; 0 <= q < i ==> idx[q] < npts;
        loop assigns i, idx[0 .. npts - 1];
        loop variant npts - i;
     */
    for (size_t i = 0; i < npts; i++) {
        idx[i] = i;
    }
}

/* Pushes point p on the chain hull[0 .. k - 1] after popping the top while k >= base, k >= 2
   and p makes no left turn with the top two; returns the new chain length. */
/*@ requires 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    requires \valid(hull + (0 .. npts));
    requires p < npts && k <= npts + 1;
    requires \forall integer q; 0 <= q < k ==> hull[q] < npts;
    assigns hull[0 .. npts];
    ensures \result <= npts + 1;
    ensures \forall integer q; 0 <= q < \result ==> hull[q] < npts;
 */
static size_t hull_push(size_t npts, const double *x, const double *y, size_t *hull, size_t k,
                        size_t base, size_t p)
{
    /*@ loop invariant 0 <= k <= npts + 1;
        loop invariant \forall integer q; 0 <= q < k ==> hull[q] < npts;
        loop assigns k;
        loop variant k;
     */
    while (k >= base && k >= 2 && orient(npts, x, y, hull[k - 2], hull[k - 1], p) <= 0) {
        k--;
    }
    if (k <= npts) {
        hull[k] = p;
        k++;
    }
    return k;
}

/* Lower chain of the sorted points; returns its length k (hull[0 .. k - 1]). The stack never
   holds more than npts + 1 entries (guarded anyway). */
/*@ requires 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    requires \valid_read(idx + (0 .. npts - 1)) && \valid(hull + (0 .. npts));
    requires \separated(idx + (0 .. npts - 1), hull + (0 .. npts));
    requires \forall integer q; 0 <= q < npts ==> idx[q] < npts;
    assigns hull[0 .. npts];
    ensures \result <= npts + 1;
    ensures \forall integer q; 0 <= q < \result ==> hull[q] < npts;
 */
static size_t hull_lower_chain(size_t npts, const double *x, const double *y, const size_t *idx,
                               size_t *hull)
{
    size_t k = 0;
    /*@ loop invariant 0 <= i <= npts;
        loop invariant 0 <= k <= npts + 1;
        loop invariant \forall integer q; 0 <= q < npts ==> idx[q] < npts;
        loop invariant \forall integer q; 0 <= q < k ==> hull[q] < npts;
        loop assigns i, k, hull[0 .. npts];
        loop variant npts - i;
     */
    for (size_t i = 0; i < npts; i++) {
        size_t p = idx[i];
        if (i > 0 && same_point(npts, x, y, p, idx[i - 1])) {
            continue; /* a repeated point adds nothing (and would enter the chain twice) */
        }
        k = hull_push(npts, x, y, hull, k, 0, p);
    }
    return k;
}

/* Upper chain of the sorted points on top of the lower chain hull[0 .. k - 1] (kept); returns
   the length of both. */
/*@ requires 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    requires \valid_read(idx + (0 .. npts - 1)) && \valid(hull + (0 .. npts));
    requires \separated(idx + (0 .. npts - 1), hull + (0 .. npts));
    requires \forall integer q; 0 <= q < npts ==> idx[q] < npts;
    requires k <= npts + 1;
    requires \forall integer q; 0 <= q < k ==> hull[q] < npts;
    assigns hull[0 .. npts];
    ensures \result <= npts + 1;
    ensures \forall integer q; 0 <= q < \result ==> hull[q] < npts;
 */
static size_t hull_upper_chain(size_t npts, const double *x, const double *y, const size_t *idx,
                               size_t *hull, size_t k)
{
    size_t lower = k + 1;
    /*@ loop invariant 0 <= i < npts;
        loop invariant \forall integer q; 0 <= q < npts ==> idx[q] < npts;
        loop invariant 0 <= k <= npts + 1;
        loop invariant \forall integer q; 0 <= q < k ==> hull[q] < npts;
        loop assigns i, k, hull[0 .. npts];
        loop variant i;
     */
    for (size_t i = npts - 1; i > 0; i--) {
        size_t p = idx[i - 1];
        if (same_point(npts, x, y, p, idx[i])) {
            continue;
        }
        k = hull_push(npts, x, y, hull, k, lower, p);
    }
    return k;
}

nsm_status nsm_hull2d(size_t npts, const double *x, const double *y, size_t *idx, size_t *hull,
                      size_t *nh)
{
    nsm_status st = hull_check(npts, x, y, idx, hull, nh);
    if (st != NSM_OK) {
        return st;
    }
    hull_fill_idx(npts, idx);
    sort_points(npts, x, y, idx);
    size_t k = hull_lower_chain(npts, x, y, idx, hull);
    k = hull_upper_chain(npts, x, y, idx, hull, k);
    /* the last point repeats the first one */
    if (k > 1) {
        k--;
    }
    if (k == 0) {
        hull[0] = idx[0];
        k = 1;
    }
    *nh = k;
    return NSM_OK;
}
