/*
 * One-sided (Hestenes) Jacobi SVD and what is built on it: numerical rank, orthonormal bases
 * of the row space and the null space, pseudo-inverse.
 *
 * The p = min(m, n) vectors to orthogonalise are the columns of A (m >= n) or of Aᵀ (m < n).
 * They are stored as the rows of H (p×q, q = max(m, n)) so that every rotation works on
 * contiguous memory; R (p×p) accumulates the rotations, row i holding column i of the
 * orthogonal factor. The input is first divided by its largest magnitude, so that no sum of
 * squares overflows; singular values are scaled back at the end.
 */
#include <float.h>
#include <cblas.h>
#include "nsmech/linalg.h"
#include "internal.h"
#include "../nsm_math.h"

/* Rotate the pair (x, y) of length len: x ← c·x − s·y, y ← s·x + c·y. */
/*@ requires len: len <= NSM_MAX_DIM;
    requires valid_x: \valid(x + (0 .. len - 1));
    requires valid_y: \valid(y + (0 .. len - 1));
    assigns x[0 .. len - 1], y[0 .. len - 1];
 */
static void rot(size_t len, double *x, double *y, double c, double s)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, x[0 .. len - 1], y[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        double a = x[i];
        double b = y[i];
        x[i] = c * a - s * b;
        y[i] = s * a + c * b;
    }
}

/* Swap x[0 .. len-1] and y[0 .. len-1]. */
/*@ requires len: len <= NSM_MAX_DIM;
    requires valid_x: \valid(x + (0 .. len - 1));
    requires valid_y: \valid(y + (0 .. len - 1));
    assigns x[0 .. len - 1], y[0 .. len - 1];
 */
static void swap_rows(size_t len, double *x, double *y)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, x[0 .. len - 1], y[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        double t = x[i];
        x[i] = y[i];
        y[i] = t;
    }
}

/*
 * One Jacobi step on the rows hi, hj (length q) and ri, rj (length p): if
 * |hi·hj| > tol·‖hi‖‖hj‖ (both norms non-zero), rotate both pairs so that hi·hj = 0 in exact
 * arithmetic and return 1; otherwise leave them and return 0.
 */
/*@ requires dims: 1 <= p <= NSM_MAX_DIM && 1 <= q <= NSM_MAX_DIM;
    requires valid_h: \valid(hi + (0 .. q - 1)) && \valid(hj + (0 .. q - 1));
    requires valid_r: \valid(ri + (0 .. p - 1)) && \valid(rj + (0 .. p - 1));
    assigns hi[0 .. q - 1], hj[0 .. q - 1], ri[0 .. p - 1], rj[0 .. p - 1];
    ensures \result == 0 || \result == 1;
 */
static int jacobi_pair(size_t q, size_t p, double *hi, double *hj, double *ri, double *rj,
                       double tol)
{
    double a = nsm_vec_dot(q, hi, hi);
    double b = nsm_vec_dot(q, hj, hj);
    double g = nsm_vec_dot(q, hi, hj);
    if (!(a > 0.0) || !(b > 0.0)) {
        return 0;
    }
    if (fabs(g) <= tol * sqrt(a) * sqrt(b)) {
        return 0;
    }
    /* Rutishauser's rotation: t is the smaller root of t² + 2ζt − 1 = 0. */
    double zeta = (b - a) / (2.0 * g);
    double az = fabs(zeta);
    double t;
    if (az > 0x1.0p500) { /* ≈ 3.3e150: 1 + ζ² would lose 1 and risk overflow */
        t = 0.5 / zeta;
    } else {
        t = (zeta >= 0.0 ? 1.0 : -1.0) / (az + sqrt(1.0 + zeta * zeta));
    }
    double c = 1.0 / sqrt(1.0 + t * t);
    double s = c * t;
    rot(q, hi, hj, c, s);
    rot(p, ri, rj, c, s);
    return 1;
}

/* One cyclic sweep over all pairs (i < j) of rows of H (p×q), rotating R (p×p) alike.
   Returns 1 if any pair was rotated. */
/*@ requires dims: 1 <= p <= NSM_MAX_DIM && 1 <= q <= NSM_MAX_DIM;
    requires valid_H: \valid(H + (0 .. p*q - 1));
    requires valid_R: \valid(R + (0 .. p*p - 1));
    assigns H[0 .. p*q - 1], R[0 .. p*p - 1];
    ensures \result == 0 || \result == 1;
 */
static int jacobi_sweep(size_t p, size_t q, double *H, double *R, double tol)
{
    int rotated = 0;
    /*@ loop invariant 0 <= i <= p;
        loop invariant rotated == 0 || rotated == 1;
        loop assigns i, rotated, H[0 .. p*q - 1], R[0 .. p*p - 1];
        loop variant p - i;
     */
    for (size_t i = 0; i < p; i++) {
        /*@ assert hi: i*q + q <= p*q; */
        /*@ assert ri: i*p + p <= p*p; */
        /*@ loop invariant i + 1 <= j <= p || (j == i + 1 && j > p);
            loop invariant rotated == 0 || rotated == 1;
            loop assigns j, rotated, H[0 .. p*q - 1], R[0 .. p*p - 1];
            loop variant p - j;
         */
        for (size_t j = i + 1u; j < p; j++) {
            /*@ assert hj: j*q + q <= p*q && i*q + q <= j*q; */
            /*@ assert rj: j*p + p <= p*p && i*p + p <= j*p; */
            if (jacobi_pair(q, p, H + i * q, H + j * q, R + i * p, R + j * p, tol)) {
                rotated = 1;
            }
        }
    }
    return rotated;
}

/* s[i] = ‖row i of H‖, then sort the rows of H and R (and s) by decreasing s. */
/*@ requires dims: 1 <= p <= NSM_MAX_DIM && 1 <= q <= NSM_MAX_DIM;
    requires valid_H: \valid(H + (0 .. p*q - 1));
    requires valid_R: \valid(R + (0 .. p*p - 1));
    requires valid_s: \valid(s + (0 .. p - 1));
    assigns H[0 .. p*q - 1], R[0 .. p*p - 1], s[0 .. p - 1];
 */
static void sort_rows(size_t p, size_t q, double *H, double *R, double *s)
{
    /*@ loop invariant 0 <= i <= p;
        loop assigns i, s[0 .. p - 1];
        loop variant p - i;
     */
    for (size_t i = 0; i < p; i++) {
        /*@ assert hi: i*q + q <= p*q; */
        double ss = nsm_vec_dot(q, H + i * q, H + i * q);
        s[i] = ss > 0.0 ? sqrt(ss) : 0.0;
    }
    /*@ loop invariant 0 <= i <= p;
        loop assigns i, H[0 .. p*q - 1], R[0 .. p*p - 1], s[0 .. p - 1];
        loop variant p - i;
     */
    for (size_t i = 0; i < p; i++) {
        size_t k = i;
        /*@ loop invariant i + 1 <= j <= p || (j == i + 1 && j > p);
            loop invariant i <= k < p;
            loop assigns j, k;
            loop variant p - j;
         */
        for (size_t j = i + 1u; j < p; j++) {
            if (s[j] > s[k]) {
                k = j;
            }
        }
        if (k != i) {
            double t = s[i];
            s[i] = s[k];
            s[k] = t;
            /*@ assert hk: k*q + q <= p*q && i*q + q <= k*q; */
            /*@ assert rk: k*p + p <= p*p && i*p + p <= k*p; */
            swap_rows(q, H + i * q, H + k * q);
            swap_rows(p, R + i * p, R + k * p);
        }
    }
}

/* H (p×q) = the p vectors to orthogonalise, divided by big > 0: the columns of A if m >= n,
   its rows otherwise. R (p×p) = identity. */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
    requires big: big > 0;
    requires valid_A: \valid_read(A + (0 .. m*n - 1));
    requires valid_H: \valid(H + (0 .. m*n - 1));
    requires valid_R: m >= n ==> \valid(R + (0 .. n*n - 1));
    requires valid_R2: m < n ==> \valid(R + (0 .. m*m - 1));
    assigns H[0 .. m*n - 1], R[0 .. (m >= n ? n*n : m*m) - 1];
 */
static void load_scaled(size_t m, size_t n, const double *A, double big, double *H, double *R)
{
    size_t p = m >= n ? n : m;
    if (m >= n) {
        nsm_mat_transpose(m, n, n, A, H);
        nsm_vec_div(m * n, H, big, H);
    } else {
        nsm_vec_div(m * n, A, big, H);
    }
    nsm_mat_eye(p, p, R);
}

/*
 * Jacobi SVD of the finite m×n matrix A (m, n >= 1) into work (nsm_svd_work(m, n) doubles):
 * H = work[0 .. p*q), R = work[p*q .. p*(m+n)), sw = work[p*(m+n) .. p*(m+n+1)).
 * On NSM_OK the rows of H are orthogonal with norms sw (descending) and
 * A/big = Hᵀ·R (m >= n) or R ᵀ·H (m < n), with *big = max|A_ij| (H = 0 when big = 0).
 */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
    requires valid_A: \valid_read(A + (0 .. m*n - 1));
    requires valid_work: \valid(work + (0 .. (m <= n ? m : n) * (m + n + 1) - 1));
    requires valid_big: \valid(big);
    assigns work[0 .. (m <= n ? m : n) * (m + n + 1) - 1], *big;
    ensures status: \result == NSM_OK || \result == NSM_ERR_NO_CONVERGENCE;
 */
static nsm_status svd_core(size_t m, size_t n, const double *A, double *work, double *big)
{
    size_t p = m <= n ? m : n;
    size_t q = m <= n ? n : m;
    /*@ assert pq: p * q == m * n && p + q == m + n; */
    /*@ assert sz: p*q + p*p + p == p * (m + n + 1); */
    double *H = work;
    double *R = work + p * q;
    double *sw = work + p * q + p * p;
    double b = nsm_vec_absmax(m * n, A);
    *big = b;
    if (b == 0.0) {
        /*@ loop invariant 0 <= i <= p * (m + n + 1);
            loop assigns i, work[0 .. p * (m + n + 1) - 1];
            loop variant p * (m + n + 1) - i;
         */
        for (size_t i = 0; i < p * (m + n + 1u); i++) {
            work[i] = 0.0;
        }
        nsm_mat_eye(p, p, R);
        return NSM_OK;
    }
    load_scaled(m, n, A, b, H, R);
    /* Convergence test |h_i·h_j| <= tol·‖h_i‖‖h_j‖ with tol = sqrt(q)·DBL_EPSILON. */
    double tol = sqrt((double)q) * DBL_EPSILON;
    int converged = 0;
    /*@ loop invariant 0 <= sweep <= NSM_SVD_MAX_SWEEPS;
        loop invariant converged == 0 || converged == 1;
        loop assigns sweep, converged, H[0 .. p*q - 1], R[0 .. p*p - 1];
        loop variant NSM_SVD_MAX_SWEEPS - sweep;
     */
    for (int sweep = 0; sweep < NSM_SVD_MAX_SWEEPS && !converged; sweep++) {
        if (!jacobi_sweep(p, q, H, R, tol)) {
            converged = 1;
        }
    }
    if (!converged) {
        return NSM_ERR_NO_CONVERGENCE;
    }
    sort_rows(p, q, H, R, sw);
    return NSM_OK;
}

/* Number of s[i] > rtol·s[0] (0 when s[0] is not positive). */
/*@ requires dim: p <= NSM_MAX_DIM;
    requires valid_s: \valid_read(s + (0 .. p - 1));
    assigns \nothing;
    ensures range: 0 <= \result <= p;
 */
static size_t count_rank(size_t p, const double *s, double rtol)
{
    if (p == 0u || !(s[0] > 0.0)) {
        return 0u;
    }
    double thr = rtol * s[0];
    size_t r = 0;
    /*@ loop invariant 0 <= i <= p;
        loop invariant 0 <= r <= i;
        loop assigns i, r;
        loop variant p - i;
     */
    for (size_t i = 0; i < p; i++) {
        if (s[i] > thr) {
            r++;
        }
    }
    return r;
}

/* 1 if x is finite (not NaN, not an infinity). */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int finite1(double x)
{
    return nsm_all_finite(1u, &x);
}

size_t nsm_svd_work(size_t m, size_t n)
{
    if (m > NSM_MAX_DIM || n > NSM_MAX_DIM) {
        return 0u;
    }
    size_t p = m <= n ? m : n;
    return p * (m + n + 1u);
}

/* L (q×p) = Hᵀ with column j divided by sw[j] (0 where sw[j] is not positive). */
/*@ requires dims: 1 <= p <= NSM_MAX_DIM && 1 <= q <= NSM_MAX_DIM;
    requires valid_H: \valid_read(H + (0 .. p*q - 1));
    requires valid_sw: \valid_read(sw + (0 .. p - 1));
    requires valid_L: \valid(L + (0 .. q*p - 1));
    assigns L[0 .. q*p - 1];
 */
static void long_side(size_t p, size_t q, const double *H, const double *sw, double *L)
{
    /*@ loop invariant 0 <= j <= p;
        loop assigns j, L[0 .. q*p - 1];
        loop variant p - j;
     */
    for (size_t j = 0; j < p; j++) {
        double sj = sw[j];
        /*@ loop invariant 0 <= i <= q;
            loop assigns i, L[0 .. q*p - 1];
            loop variant q - i;
         */
        for (size_t i = 0; i < q; i++) {
            /*@ assert li: i*p + j < q*p; */
            /*@ assert hi: j*q + i < p*q; */
            L[i * p + j] = (sj > 0.0) ? H[j * q + i] / sj : 0.0;
        }
    }
}

/* The common end of the checkers of nsm_svd, nsm_range_null and nsm_pinv, in their order:
   NSM_ERR_WORKSPACE if lwork < need, NSM_ERR_ALIAS if one of the nw spans w (what the
   function writes, workspace included) shares a byte with another or with A (m·n entries),
   NSM_ERR_NOT_FINITE if A is not finite, else NSM_OK. */
/*@ requires dims: mn <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires counts: 1 <= nw <= NSM_MAX_SPANS;
    requires valid_w: \valid_read(w + (0 .. nw - 1));
    requires valid_A: mn == 0 || \valid_read(A + (0 .. mn - 1));
    assigns \nothing;
    ensures status: \result == NSM_OK || \result == NSM_ERR_WORKSPACE ||
                    \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE;
    ensures workspace: \result == NSM_ERR_WORKSPACE <==> lwork < need;
 */
static nsm_status svd_args_tail(size_t lwork, size_t need, size_t nw, const nsm_span *w,
                                size_t mn, const double *A)
{
    if (lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    const nsm_span in[1] = {{(uintptr_t)A, mn * sizeof(double)}};
    if (nsm_spans_overlap(nw, w, 1u, in)) {
        return NSM_ERR_ALIAS;
    }
    if (!nsm_all_finite(mn, A)) {
        return NSM_ERR_NOT_FINITE;
    }
    return NSM_OK;
}

/* Validation of the arguments of nsm_svd, in its order; NSM_OK also for p = 0. */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. m*n - 1));
    requires valid_s: s == \null || \valid_read(s + (0 .. nsm_lmin(m, n) - 1));
    requires valid_U: U == \null || \valid_read(U + (0 .. m*nsm_lmin(m, n) - 1));
    requires valid_V: V == \null || \valid_read(V + (0 .. n*nsm_lmin(m, n) - 1));
    requires valid_work: work == \null || \valid_read(work + (0 .. lwork - 1));
    assigns \nothing;
    ensures ok: \result == NSM_OK ==> m <= NSM_MAX_DIM && n <= NSM_MAX_DIM &&
                (nsm_lmin(m, n) == 0 || (A != \null && s != \null && work != \null &&
                                          nsm_svd_lwork(m, n) <= lwork));
    behavior bad_size:
      assumes m > NSM_MAX_DIM || n > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior empty:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && nsm_lmin(m, n) == 0;
      ensures \result == NSM_OK;
    behavior null_arg:
      assumes 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
      assumes A == \null || s == \null || work == \null;
      ensures \result == NSM_ERR_NULL;
    behavior valid_args:
      assumes 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
      assumes A != \null && s != \null && work != \null;
      ensures status: \result == NSM_OK || \result == NSM_ERR_WORKSPACE ||
                      \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE;
      ensures workspace: \result == NSM_ERR_WORKSPACE <==> lwork < nsm_svd_lwork(m, n);
    complete behaviors;
    disjoint behaviors;
 */
static nsm_status svd_check(size_t m, size_t n, const double *A, const double *s,
                            const double *U, const double *V, const double *work, size_t lwork)
{
    if (m > NSM_MAX_DIM || n > NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    size_t p = m <= n ? m : n;
    size_t need = p * (m + n + 1u);
    if (p > 0u && (A == NULL || s == NULL || work == NULL)) {
        return NSM_ERR_NULL;
    }
    if (p == 0u) {
        return NSM_OK;
    }
    size_t b = sizeof(double);
    size_t lu = (U == NULL) ? 0u : m * p;
    size_t lv = (V == NULL) ? 0u : n * p;
    const nsm_span out[4] = {{(uintptr_t)s, p * b}, {(uintptr_t)U, lu * b},
                             {(uintptr_t)V, lv * b}, {(uintptr_t)work, need * b}};
    return svd_args_tail(lwork, need, 4u, out, m * n, A);
}

/* nsm_svd on validated arguments (m, n >= 1, work of nsm_svd_work(m, n) doubles). */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
    requires valid_A: \valid_read(A + (0 .. m*n - 1));
    requires valid_s: \valid(s + (0 .. nsm_lmin(m, n) - 1));
    requires valid_U: U == \null || \valid(U + (0 .. m*nsm_lmin(m, n) - 1));
    requires valid_V: V == \null || \valid(V + (0 .. n*nsm_lmin(m, n) - 1));
    requires valid_work: \valid(work + (0 .. nsm_svd_lwork(m, n) - 1));
    assigns s[0 .. nsm_lmin(m, n) - 1], U[0 .. m*nsm_lmin(m, n) - 1],
            V[0 .. n*nsm_lmin(m, n) - 1], work[0 .. nsm_svd_lwork(m, n) - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                    \result == NSM_ERR_NO_CONVERGENCE;
    ensures only_work: \result != NSM_OK ==>
              (\separated(work + (0 .. nsm_svd_lwork(m, n) - 1), s + (0 .. nsm_lmin(m, n) - 1)) ==>
               nsm_unchanged{Old, Here}(s, nsm_lmin(m, n))) &&
              (U != \null && \separated(work + (0 .. nsm_svd_lwork(m, n) - 1),
                                         U + (0 .. m*nsm_lmin(m, n) - 1)) ==>
               nsm_unchanged{Old, Here}(U, m*nsm_lmin(m, n))) &&
              (V != \null && \separated(work + (0 .. nsm_svd_lwork(m, n) - 1),
                                         V + (0 .. n*nsm_lmin(m, n) - 1)) ==>
               nsm_unchanged{Old, Here}(V, n*nsm_lmin(m, n)));
 */
static nsm_status svd_run(size_t m, size_t n, const double *A, double *s, double *U, double *V,
                          double *work)
{
    size_t p = m <= n ? m : n;
    size_t q = m <= n ? n : m;
    /*@ assert sz: p*q + p*p + p == p * (m + n + 1); */
    double big = 0.0;
    nsm_status st = svd_core(m, n, A, work, &big);
    if (st != NSM_OK) {
        return st;
    }
    const double *H = work;
    const double *R = work + p * q;
    const double *sw = work + p * q + p * p;
    if (!finite1(sw[0] * big)) {
        return NSM_ERR_NOT_FINITE;
    }
    nsm_vec_scale(p, big, sw, s);
    /* Longer side: normalised rows of H; shorter side: rows of R. */
    double *Long = (m >= n) ? U : V;
    double *Short = (m >= n) ? V : U;
    if (Long != NULL) {
        long_side(p, q, H, sw, Long);
    }
    if (Short != NULL) {
        nsm_mat_transpose(p, p, p, R, Short);
    }
    return NSM_OK;
}

nsm_status nsm_svd(size_t m, size_t n, const double *A, double *s, double *U, double *V,
                   double *work, size_t lwork)
{
    nsm_status st = svd_check(m, n, A, s, U, V, work, lwork);
    if (st != NSM_OK || m == 0u || n == 0u) {
        return st;
    }
    return svd_run(m, n, A, s, U, V, work);
}

nsm_status nsm_rank_from_sv(size_t p, const double *s, double rtol, size_t *rank)
{
    if (p > NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    if (rank == NULL || (p > 0u && s == NULL)) {
        return NSM_ERR_NULL;
    }
    if (!(rtol >= 0.0 && rtol < 1.0)) {
        return NSM_ERR_ARG;
    }
    const nsm_span out[1] = {{(uintptr_t)rank, sizeof *rank}};
    const nsm_span in[1] = {{(uintptr_t)s, p * sizeof(double)}};
    if (nsm_spans_overlap(1u, out, 1u, in)) {
        return NSM_ERR_ALIAS;
    }
    if (!nsm_all_finite(p, s)) {
        return NSM_ERR_NOT_FINITE;
    }
    /*@ loop invariant 0 <= i <= p;
        loop assigns i;
        loop variant p - i;
     */
    for (size_t i = 0; i < p; i++) {
        if (!(s[i] >= 0.0) || (i > 0u && s[i] > s[i - 1u])) {
            return NSM_ERR_ARG;
        }
    }
    *rank = count_rank(p, s, rtol);
    return NSM_OK;
}

size_t nsm_range_null_work(size_t m, size_t n)
{
    if (m > NSM_MAX_DIM || n > NSM_MAX_DIM) {
        return 0u;
    }
    size_t p = m <= n ? m : n;
    return p == 0u ? 0u : p * (m + n + 2u) + n;
}

/*
 * Householder QR of the n×r matrix whose columns are the rows of X (r×n, r < n): on return
 * row k holds β_k at position k and the reflector's tail v_k[k+1 .. n-1] (v_k[k] = 1 implied);
 * Q = H_0·…·H_{r-1} with H_k = I − τ_k v_k v_kᵀ.
 */
/*@ requires dims: 1 <= r < n <= NSM_MAX_DIM;
    requires valid_X: \valid(X + (0 .. r*n - 1));
    requires valid_tau: \valid(tau + (0 .. r - 1));
    assigns X[0 .. r*n - 1], tau[0 .. r - 1];
 */
static void householder_qr(size_t r, size_t n, double *X, double *tau)
{
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, X[0 .. r*n - 1], tau[0 .. r - 1];
        loop variant r - k;
     */
    for (size_t k = 0; k < r; k++) {
        /*@ assert xk: k*n + n <= r*n; */
        double *xk = X + k * n;
        size_t tl = n - k - 1u;
        double alpha = xk[k];
        double xn2 = nsm_vec_dot(tl, xk + k + 1u, xk + k + 1u);
        if (!(xn2 > 0.0)) {
            tau[k] = 0.0;
            continue;
        }
        double nrm = sqrt(alpha * alpha + xn2);
        double beta = (alpha >= 0.0) ? -nrm : nrm;
        tau[k] = (beta - alpha) / beta;
        double scal = 1.0 / (alpha - beta);
        /*@ loop invariant k + 1 <= i <= n;
            loop assigns i, X[0 .. r*n - 1];
            loop variant n - i;
         */
        for (size_t i = k + 1u; i < n; i++) {
            xk[i] *= scal;
        }
        xk[k] = beta;
        /*@ loop invariant k + 1 <= j <= r || (j == k + 1 && j > r);
            loop assigns j, X[0 .. r*n - 1];
            loop variant r - j;
         */
        for (size_t j = k + 1u; j < r; j++) {
            /*@ assert xj: j*n + n <= r*n && k*n + n <= j*n; */
            double *xj = X + j * n;
            double w = tau[k] * (xj[k] + nsm_vec_dot(tl, xk + k + 1u, xj + k + 1u));
            xj[k] -= w;
            nsm_vec_axpy(tl, -w, xk + k + 1u, xj + k + 1u);
        }
    }
}

/* y ← Q·y with Q = H_0·…·H_{r-1} from householder_qr. */
/*@ requires dims: 1 <= r < n <= NSM_MAX_DIM;
    requires valid_X: \valid_read(X + (0 .. r*n - 1));
    requires valid_tau: \valid_read(tau + (0 .. r - 1));
    requires valid_y: \valid(y + (0 .. n - 1));
    assigns y[0 .. n - 1];
 */
static void apply_q(size_t r, size_t n, const double *X, const double *tau, double *y)
{
    /*@ loop invariant 0 <= t <= r;
        loop assigns t, y[0 .. n - 1];
        loop variant r - t;
     */
    for (size_t t = 0; t < r; t++) {
        size_t k = r - 1u - t;
        /*@ assert xk: k*n + n <= r*n; */
        const double *xk = X + k * n;
        size_t tl = n - k - 1u;
        double w = tau[k] * (y[k] + nsm_vec_dot(tl, xk + k + 1u, y + k + 1u));
        y[k] -= w;
        nsm_vec_axpy(tl, -w, xk + k + 1u, y + k + 1u);
    }
}

/* Basis from the Jacobi result when m < n: H (m×n) holds s_j·v_j in its rows. */
/*@ requires dims: 1 <= m < n <= NSM_MAX_DIM;
    requires rank: 1 <= r <= m;
    requires valid_H: \valid(H + (0 .. m*n - 1));
    requires valid_sw: \valid_read(sw + (0 .. m - 1));
    requires valid_tau: \valid(tau + (0 .. m - 1));
    requires valid_y: \valid(y + (0 .. n - 1));
    requires valid_basis: \valid(basis + (0 .. n*n - 1));
    assigns H[0 .. m*n - 1], tau[0 .. m - 1], y[0 .. n - 1], basis[0 .. n*n - 1];
 */
static void basis_wide(size_t m, size_t n, size_t r, double *H, const double *sw, double *tau,
                       double *y, double *basis)
{
    (void)m; /* bounds r (see the contract) */
    /*@ loop invariant 0 <= j <= r;
        loop assigns j, H[0 .. m*n - 1], basis[0 .. n*n - 1];
        loop variant r - j;
     */
    for (size_t j = 0; j < r; j++) {
        double sj = sw[j];
        /*@ loop invariant 0 <= i <= n;
            loop assigns i, H[0 .. m*n - 1], basis[0 .. n*n - 1];
            loop variant n - i;
         */
        for (size_t i = 0; i < n; i++) {
            /*@ assert hj: j*n + i < m*n; */
            /*@ assert bij: i*n + j < n*n; */
            double v = (sj > 0.0) ? H[j * n + i] / sj : 0.0;
            H[j * n + i] = v;
            basis[i * n + j] = v;
        }
    }
    householder_qr(r, n, H, tau);
    /*@ loop invariant r <= c <= n;
        loop assigns c, y[0 .. n - 1], basis[0 .. n*n - 1];
        loop variant n - c;
     */
    for (size_t c = r; c < n; c++) {
        /*@ loop invariant 0 <= i <= n;
            loop assigns i, y[0 .. n - 1];
            loop variant n - i;
         */
        for (size_t i = 0; i < n; i++) {
            y[i] = (i == c) ? 1.0 : 0.0;
        }
        apply_q(r, n, H, tau, y);
        /*@ loop invariant 0 <= i <= n;
            loop assigns i, basis[0 .. n*n - 1];
            loop variant n - i;
         */
        for (size_t i = 0; i < n; i++) {
            /*@ assert bic: i*n + c < n*n; */
            basis[i * n + c] = y[i];
        }
    }
}

/*@ // The outcome of the checkers of nsm_range_null and nsm_pinv once their NULL checks have
    // passed: NSM_ERR_ARG for rtol outside [0, 1), NSM_ERR_WORKSPACE exactly when rtol is in
    // range and lwork < need, else NSM_OK, NSM_ERR_ALIAS or NSM_ERR_NOT_FINITE.
    predicate svd_rtol_checked(nsm_status res, double rtol, size_t lwork, integer need) =
        (res == NSM_OK || res == NSM_ERR_ARG || res == NSM_ERR_WORKSPACE ||
         res == NSM_ERR_ALIAS || res == NSM_ERR_NOT_FINITE) &&
        (!(0 <= rtol < 1) ==> res == NSM_ERR_ARG) &&
        (res == NSM_ERR_WORKSPACE <==> (0 <= rtol < 1 && lwork < need));
 */

/* Validation of the arguments of nsm_range_null, in its order; NSM_OK also for p = 0. */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. m*n - 1));
    requires valid_sv: sv == \null || \valid_read(sv + (0 .. nsm_lmin(m, n) - 1));
    requires valid_basis: basis == \null || \valid_read(basis + (0 .. n*n - 1));
    requires valid_work: work == \null || \valid_read(work + (0 .. lwork - 1));
    assigns \nothing;
    ensures ok: \result == NSM_OK ==> m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && rank != \null &&
                (n > 0 ==> basis != \null) && nsm_range_null_lwork(m, n) <= lwork &&
                (1 <= m && 1 <= n ==> A != \null && work != \null);
    behavior bad_size:
      assumes m > NSM_MAX_DIM || n > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior null_arg:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
      assumes rank == \null || (m*n > 0 && A == \null) || (n > 0 && basis == \null) ||
              (nsm_range_null_lwork(m, n) > 0 && work == \null);
      ensures \result == NSM_ERR_NULL;
    behavior valid_args:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
      assumes !(rank == \null || (m*n > 0 && A == \null) || (n > 0 && basis == \null) ||
                (nsm_range_null_lwork(m, n) > 0 && work == \null));
      ensures checked: svd_rtol_checked(\result, rtol, lwork, nsm_range_null_lwork(m, n));
    complete behaviors;
    disjoint behaviors;
 */
static nsm_status range_null_check(size_t m, size_t n, const double *A, double rtol,
                                   const size_t *rank, const double *sv, const double *basis,
                                   const double *work, size_t lwork)
{
    if (m > NSM_MAX_DIM || n > NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    size_t p = m <= n ? m : n;
    size_t need = (p == 0u) ? 0u : p * (m + n + 2u) + n;
    if (rank == NULL || (m * n > 0u && A == NULL) || (n > 0u && basis == NULL) ||
        (need > 0u && work == NULL)) {
        return NSM_ERR_NULL;
    }
    if (!(rtol >= 0.0 && rtol < 1.0)) {
        return NSM_ERR_ARG;
    }
    size_t b = sizeof(double);
    size_t lsv = (sv == NULL) ? 0u : p;
    const nsm_span out[4] = {{(uintptr_t)rank, sizeof *rank}, {(uintptr_t)sv, lsv * b},
                             {(uintptr_t)basis, n * n * b}, {(uintptr_t)work, need * b}};
    return svd_args_tail(lwork, need, 4u, out, m * n, A);
}

/* nsm_range_null on validated arguments (m, n >= 1, work of nsm_range_null_work(m, n)). */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
    requires valid_A: \valid_read(A + (0 .. m*n - 1));
    requires valid_rank: \valid(rank);
    requires valid_sv: sv == \null || \valid(sv + (0 .. nsm_lmin(m, n) - 1));
    requires valid_basis: \valid(basis + (0 .. n*n - 1));
    requires valid_work: \valid(work + (0 .. nsm_range_null_lwork(m, n) - 1));
    assigns *rank, sv[0 .. nsm_lmin(m, n) - 1], basis[0 .. n*n - 1],
            work[0 .. nsm_range_null_lwork(m, n) - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                    \result == NSM_ERR_NO_CONVERGENCE;
    ensures rank_bound: \result == NSM_OK ==> 0 <= *rank <= nsm_lmin(m, n);
    ensures only_work: \result != NSM_OK ==>
              (\separated(work + (0 .. nsm_range_null_lwork(m, n) - 1), rank) ==>
               *rank == \old(*rank)) &&
              (sv != \null && \separated(work + (0 .. nsm_range_null_lwork(m, n) - 1),
                                          sv + (0 .. nsm_lmin(m, n) - 1)) ==>
               nsm_unchanged{Old, Here}(sv, nsm_lmin(m, n))) &&
              (\separated(work + (0 .. nsm_range_null_lwork(m, n) - 1), basis + (0 .. n*n - 1)) ==>
               nsm_unchanged{Old, Here}(basis, n*n));
 */
static nsm_status range_null_run(size_t m, size_t n, const double *A, double rtol,
                                 size_t *rank, double *sv, double *basis, double *work)
{
    size_t p = m <= n ? m : n;
    size_t q = m <= n ? n : m;
    /*@ assert sz: p*q + p*p + p == p * (m + n + 1) && p * (m + n + 1) + p + n ==
                   p * (m + n + 2) + n; */
    double big = 0.0;
    nsm_status st = svd_core(m, n, A, work, &big);
    if (st != NSM_OK) {
        return st;
    }
    double *H = work;
    const double *R = work + p * q;
    const double *sw = work + p * q + p * p;
    if (!finite1(sw[0] * big)) {
        return NSM_ERR_NOT_FINITE;
    }
    size_t r = count_rank(p, sw, rtol);
    if (sv != NULL) {
        nsm_vec_scale(p, big, sw, sv);
    }
    if (m >= n) {
        /* R (n×n) is orthogonal; its rows are the right singular vectors. */
        nsm_mat_transpose(n, n, n, R, basis);
    } else if (r == 0u) {
        nsm_mat_eye(n, n, basis);
    } else {
        double *tau = work + p * (m + n + 1u);
        double *y = tau + p;
        basis_wide(m, n, r, H, sw, tau, y, basis);
    }
    *rank = r;
    return NSM_OK;
}

nsm_status nsm_range_null(size_t m, size_t n, const double *A, double rtol, size_t *rank,
                          double *sv, double *basis, double *work, size_t lwork)
{
    nsm_status st = range_null_check(m, n, A, rtol, rank, sv, basis, work, lwork);
    if (st != NSM_OK) {
        return st;
    }
    if (m == 0u || n == 0u) {
        nsm_mat_eye(n, n, basis);
        *rank = 0u;
        return NSM_OK;
    }
    return range_null_run(m, n, A, rtol, rank, sv, basis, work);
}

size_t nsm_pinv_work(size_t m, size_t n)
{
    return nsm_svd_work(m, n);
}

/* Validation of the arguments of nsm_pinv, in its order; NSM_OK also for p = 0. */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. m*n - 1));
    requires valid_X: X == \null || \valid_read(X + (0 .. n*m - 1));
    requires valid_work: work == \null || \valid_read(work + (0 .. lwork - 1));
    assigns \nothing;
    ensures ok: \result == NSM_OK ==> m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && rank != \null &&
                nsm_svd_lwork(m, n) <= lwork &&
                (nsm_lmin(m, n) > 0 ==> A != \null && X != \null && work != \null);
    behavior bad_size:
      assumes m > NSM_MAX_DIM || n > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior null_arg:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
      assumes rank == \null || (nsm_lmin(m, n) > 0 && (A == \null || X == \null || work == \null));
      ensures \result == NSM_ERR_NULL;
    behavior valid_args:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
      assumes !(rank == \null || (nsm_lmin(m, n) > 0 && (A == \null || X == \null || work == \null)));
      ensures checked: svd_rtol_checked(\result, rtol, lwork, nsm_svd_lwork(m, n));
    complete behaviors;
    disjoint behaviors;
 */
static nsm_status pinv_check(size_t m, size_t n, const double *A, double rtol,
                             const size_t *rank, const double *X, const double *work,
                             size_t lwork)
{
    if (m > NSM_MAX_DIM || n > NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    size_t p = m <= n ? m : n;
    size_t need = p * (m + n + 1u);
    if (rank == NULL || (p > 0u && (A == NULL || X == NULL || work == NULL))) {
        return NSM_ERR_NULL;
    }
    if (!(rtol >= 0.0 && rtol < 1.0)) {
        return NSM_ERR_ARG;
    }
    size_t b = sizeof(double);
    const nsm_span out[3] = {{(uintptr_t)rank, sizeof *rank}, {(uintptr_t)X, m * n * b},
                             {(uintptr_t)work, need * b}};
    return svd_args_tail(lwork, need, 3u, out, m * n, A);
}

/* Row j < r of H (p×q) divided by sw[j] and then by sw[j]·big. */
/*@ requires dims: 1 <= r <= p <= NSM_MAX_DIM && 1 <= q <= NSM_MAX_DIM;
    requires valid_H: \valid(H + (0 .. p*q - 1));
    requires valid_sw: \valid_read(sw + (0 .. p - 1));
    assigns H[0 .. p*q - 1];
 */
static void pinv_scale_rows(size_t r, size_t p, size_t q, double *H, const double *sw,
                            double big)
{
    (void)p; /* bounds r (see the contract) */
    /*@ loop invariant 0 <= j <= r;
        loop assigns j, H[0 .. p*q - 1];
        loop variant r - j;
     */
    for (size_t j = 0; j < r; j++) {
        double d1 = sw[j];
        double d2 = sw[j] * big;
        /*@ loop invariant 0 <= i <= q;
            loop assigns i, H[0 .. p*q - 1];
            loop variant q - i;
         */
        for (size_t i = 0; i < q; i++) {
            /*@ assert ji: j*q + i < p*q; */
            H[j * q + i] = H[j * q + i] / d1 / d2;
        }
    }
}

/* nsm_pinv on validated arguments (m, n >= 1, work of nsm_pinv_work(m, n) doubles). */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
    requires valid_A: \valid_read(A + (0 .. m*n - 1));
    requires valid_rank: \valid(rank);
    requires valid_X: \valid(X + (0 .. n*m - 1));
    requires valid_work: \valid(work + (0 .. nsm_svd_lwork(m, n) - 1));
    assigns *rank, X[0 .. n*m - 1], work[0 .. nsm_svd_lwork(m, n) - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                    \result == NSM_ERR_NO_CONVERGENCE;
    ensures rank_bound: \result == NSM_OK ==> 0 <= *rank <= nsm_lmin(m, n);
    ensures only_work: \result != NSM_OK ==>
              (\separated(work + (0 .. nsm_svd_lwork(m, n) - 1), rank) ==>
               *rank == \old(*rank)) &&
              (\separated(work + (0 .. nsm_svd_lwork(m, n) - 1), X + (0 .. n*m - 1)) ==>
               nsm_unchanged{Old, Here}(X, n*m));
 */
static nsm_status pinv_run(size_t m, size_t n, const double *A, double rtol, size_t *rank,
                           double *X, double *work)
{
    size_t p = m <= n ? m : n;
    size_t q = m <= n ? n : m;
    /*@ assert sz: p*q + p*p + p == p * (m + n + 1); */
    double big = 0.0;
    nsm_status st = svd_core(m, n, A, work, &big);
    if (st != NSM_OK) {
        return st;
    }
    double *H = work;
    double *R = work + p * q;
    const double *sw = work + p * q + p * p;
    size_t r = count_rank(p, sw, rtol);
    if (r == 0u) {
        /*@ loop invariant 0 <= i <= m*n;
            loop assigns i, X[0 .. m*n - 1];
            loop variant m*n - i;
         */
        for (size_t i = 0; i < m * n; i++) {
            X[i] = 0.0;
        }
        *rank = 0u;
        return NSM_OK;
    }
    /* |X_ij| <= ‖A⁺‖₂ = 1/s_r: refuse a pseudo-inverse that is not representable. */
    double sr = sw[r - 1u] * big;
    if (!(sr > 0.0) || !finite1(1.0 / sr)) {
        return NSM_ERR_NOT_FINITE;
    }
    /* Row j of H is s̃_j times a singular vector of the longer side (s̃_j = s_j / big):
       divide it by s̃_j · s_j, so that X = Σ_j (row j of R or H) ⊗ (row j of H or R). */
    pinv_scale_rows(r, p, q, H, sw, big);
    if (m >= n) {
        /* X (n×m) = R[0..r)ᵀ · H[0..r): R rows are v_j (length n), H rows u_j/s_j (length m). */
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)n, (int)m, (int)r, 1.0, R,
                    (int)n, H, (int)m, 0.0, X, (int)m);
    } else {
        /* X (n×m) = H[0..r)ᵀ · R[0..r): H rows v_j/s_j (length n), R rows u_j (length m). */
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)n, (int)m, (int)r, 1.0, H,
                    (int)n, R, (int)m, 0.0, X, (int)m);
    }
    *rank = r;
    return NSM_OK;
}

nsm_status nsm_pinv(size_t m, size_t n, const double *A, double rtol, size_t *rank, double *X,
                    double *work, size_t lwork)
{
    nsm_status st = pinv_check(m, n, A, rtol, rank, X, work, lwork);
    if (st != NSM_OK) {
        return st;
    }
    if (m == 0u || n == 0u) {
        *rank = 0u;
        return NSM_OK;
    }
    return pinv_run(m, n, A, rtol, rank, X, work);
}
