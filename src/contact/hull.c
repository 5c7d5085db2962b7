/* Convex hull of points in the plane (Andrew's monotone chain) on an exact orientation test. */
#include <stdint.h>
#include "nsmech/contact.h"
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
 * First a filter (Shewchuk's orient2d, stage A): the rounded determinant decides when its
 * magnitude exceeds the proven bound on its rounding error, the common case; otherwise the
 * determinant is evaluated without rounding error by error-free transformations
 * (Dekker 1971, "A floating-point technique for extending the available precision";
 * Shewchuk 1997, "Adaptive precision floating-point arithmetic and fast robust geometric
 * predicates", section 2):
 *   1. each difference b_x - a_x, ... is the exact sum hi + lo of two doubles (two_sum);
 *   2. the x differences are multiplied by one power of two and the y differences by another,
 *      which multiplies the determinant by a positive factor and keeps its sign, so that the
 *      largest of each lies in [2^-200, 2^400]: the products neither overflow nor, unless the
 *      differences along one axis span more than about 2^369, underflow;
 *   3. (hi + lo)(hi' + lo') gives four products, each the exact sum of two doubles
 *      (two_product: Veltkamp's split, no fma needed), 16 doubles in all;
 *   4. the 16 are summed into one nonoverlapping expansion of increasing magnitude
 *      (Grow-Expansion), whose sign is that of its largest nonzero component.
 * Coordinates of magnitude 2^1022 or more are halved first along their axis, so that a
 * difference cannot overflow. Where a product underflows (step 2's exception) or halving
 * drops the last bit of a subnormal, the lost part is below 2^-969 of the axis scales'
 * product: only two points that nearly coincide on both axes can then be taken as collinear
 * with a third.
 * All of this is exact in binary64 with round-to-nearest; in the real model of the proofs
 * every error term is 0, and the proofs cover termination, bounds and the range of the result.
 */

/* A rounded result s and its rounding error e: the exact value is s + e. */
typedef struct {
    double s; /**< the rounded sum or product */
    double e; /**< its rounding error */
} exact_pair;

/* The exact sum a + b = s + e of two doubles (Knuth's TwoSum: no magnitude order needed). */
/*@ assigns \nothing; */
static exact_pair two_sum(double a, double b)
{
    exact_pair r;
    r.s = a + b;
    double bv = r.s - a;
    double av = r.s - bv;
    r.e = (a - av) + (b - bv);
    return r;
}

/* Veltkamp's split of a (|a| < 2^996): a = s + e with s and e of at most 26 significant bits. */
/*@ assigns \nothing; */
static exact_pair split(double a)
{
    exact_pair r;
    double c = 134217729.0 * a; /* 2^27 + 1 */
    double big = c - a;
    r.s = c - big;
    r.e = a - r.s;
    return r;
}

/* The exact product a·b = s + e (Dekker's TwoProduct; exact when a·b does not underflow). */
/*@ assigns \nothing; */
static exact_pair two_product(double a, double b)
{
    exact_pair r;
    exact_pair as = split(a);
    exact_pair bs = split(b);
    r.s = a * b;
    double e1 = r.s - as.s * bs.s;
    double e2 = e1 - as.e * bs.s;
    double e3 = e2 - as.s * bs.e;
    r.e = as.e * bs.e - e3;
    return r;
}

#define ORIENT_TERMS 16

/* Adds t to the nonoverlapping expansion e[0 .. len - 1] (Grow-Expansion); returns the new
   length len + 1. */
/*@ requires len < ORIENT_TERMS && \valid(e + (0 .. ORIENT_TERMS - 1));
    assigns e[0 .. ORIENT_TERMS - 1];
    ensures \result == len + 1;
 */
static size_t grow(double *e, size_t len, double t)
{
    double q = t;
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, q, e[0 .. ORIENT_TERMS - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        exact_pair p = two_sum(q, e[i]);
        q = p.s;
        e[i] = p.e;
    }
    e[len] = q;
    return len + 1;
}

/* The power of two that brings m (> 0, finite) into [2^-200, 2^400] (at most 6 factors of
   2^200 up or 3 of 2^-200 down: 2^-1074 <= m < 2^1024). */
/*@ assigns \nothing; */
static double axis_scale(double m)
{
    double s = 1.0;
    /*@ loop invariant 0 <= k <= 6;
        loop assigns k, s;
        loop variant 6 - k;
     */
    for (int k = 0; k < 6 && m * s < 0x1p-200; k++) {
        s *= 0x1p200;
    }
    /*@ loop invariant 0 <= k <= 3;
        loop assigns k, s;
        loop variant 3 - k;
     */
    for (int k = 0; k < 3 && m * s > 0x1p400; k++) {
        s *= 0x1p-200;
    }
    return s;
}

/* The differences b - a and c - a along one axis, each the exact pair d[0] + d[1] and
   d[2] + d[3], scaled by a power of two (step 2 above); 0 if both are zero, else 1. */
/*@ requires \valid(d + (0 .. 3));
    assigns d[0 .. 3];
    ensures \result == 0 || \result == 1;
 */
static int axis_diffs(double a, double b, double c, double *d)
{
    double m0 = fabs(a);
    double m1 = fabs(b);
    double m2 = fabs(c);
    double top = m0 > m1 ? m0 : m1;
    top = top > m2 ? top : m2;
    double h = top >= 0x1p1022 ? 0.5 : 1.0; /* no difference beyond DBL_MAX */
    exact_pair db = two_sum(h * b, -(h * a));
    exact_pair dc = two_sum(h * c, -(h * a));
    double mb = fabs(db.s);
    double mc = fabs(dc.s);
    double mx = mb > mc ? mb : mc;
    if (!(mx > 0.0)) {
        d[0] = d[1] = d[2] = d[3] = 0.0;
        return 0;
    }
    double s = axis_scale(mx);
    d[0] = s * db.s;
    d[1] = s * db.e;
    d[2] = s * dc.s;
    d[3] = s * dc.e;
    return 1;
}

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
    double dx[4];
    double dy[4];
    if (!axis_diffs(x[a], x[b], x[c], dx) || !axis_diffs(y[a], y[b], y[c], dy)) {
        return 0; /* all three on one vertical or horizontal line */
    }
    /* (b - a) × (c - a) = bx·cy - by·cx with bx = dx[0] + dx[1], cx = dx[2] + dx[3], ... */
    double e[ORIENT_TERMS];
    size_t len = 0;
    /*@ loop invariant 0 <= i <= 2 && len == 8 * i;
        loop assigns i, len, e[0 .. ORIENT_TERMS - 1];
        loop variant 2 - i;
     */
    for (size_t i = 0; i < 2; i++) {
        /* i = 0: + bx·cy; i = 1: - by·cx (the sign carried by the first factor) */
        const double *u = i == 0 ? dx : dy;
        const double *v = i == 0 ? dy : dx;
        double sg = i == 0 ? 1.0 : -1.0;
        /*@ loop invariant 0 <= j <= 2 && len == 8 * i + 4 * j;
            loop assigns j, len, e[0 .. ORIENT_TERMS - 1];
            loop variant 2 - j;
         */
        for (size_t j = 0; j < 2; j++) {
            /*@ loop invariant 0 <= k <= 2 && len == 8 * i + 4 * j + 2 * k;
                loop assigns k, len, e[0 .. ORIENT_TERMS - 1];
                loop variant 2 - k;
             */
            for (size_t k = 0; k < 2; k++) {
                exact_pair p = two_product(sg * u[j], v[2 + k]);
                len = grow(e, len, p.s);
                len = grow(e, len, p.e);
            }
        }
    }
    /*@ loop invariant 0 <= i <= ORIENT_TERMS;
        loop assigns i;
        loop variant i;
     */
    for (size_t i = ORIENT_TERMS; i > 0; i--) {
        if (e[i - 1] > 0.0) {
            return 1;
        }
        if (e[i - 1] < 0.0) {
            return -1;
        }
    }
    return 0;
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
