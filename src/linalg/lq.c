/*
 * Householder LQ with row pivoting and the pseudo-inverse built on it: the factorisation of
 * the per-cycle dynamics (docs/math.md (P23), (P24), "The factorisation of the per-cycle
 * call"). nsmech's own code, row-major; internal (src/linalg/internal.h): the caller has
 * validated the arguments, so the kernels carry proved preconditions instead of re-checking
 * them.
 *
 * A (m×n) is first scaled by 1/a, a = max |A_ij|, so that no sum of squares overflows: W = A/a
 * (NSM_ERR_NOT_FINITE when 1/a overflows, i.e. A of subnormal size).
 * Step k = 0, 1, ... chooses, among the rows not chosen yet, the row p whose entries k..n-1
 * have the largest Euclidean norm ν_k, and stops when ν_k <= rtol·ν_0 (rank r = k) or when
 * k = min(m, n). The reflector H_k = I − τ_k v_k v_kᵀ (v_k zero before k, 1 at k) maps that
 * tail to (β_k, 0, ..., 0), |β_k| = ν_k, and is applied to the tails of the rows not chosen
 * yet (a chosen row's tail is zero, so the others are left as they are). Rows are not moved:
 * after r steps W = L_u Yᵀ + E with
 *   L_u = W[:, 0 .. r-1] (m×r: the rows of a lower-trapezoidal factor with nonzero diagonal,
 *         in A's row order, so of full column rank r),
 *   Y   = H_0 ··· H_{r-1} [I_r; 0] (n×r, orthonormal columns spanning range(Aᵀ)),
 *   E   = what the rank decision drops (the rows not chosen, entries r..n-1, each of norm
 *         <= rtol·ν_0).
 * Hence YYᵀ is the orthogonal projector onto the row space used, and
 * A⁺ = Y L_u⁺ / a, where L_u⁺ = S⁻ᵀ V₂ᵀ comes from the unpivoted LQ L_uᵀ = S V₂ᵀ (S r×r lower
 * triangular, V₂ m×r with orthonormal columns). A⁺ is never formed: A⁺z = Y S⁻ᵀ (V₂ᵀz) / a and
 * A⁺ᵀq = V₂ S⁻¹ (Yᵀq) / a cost 2r(m + n) + r² multiply-adds per vector.
 * (Golub & Van Loan, Matrix Computations, 4th ed., §5.1 Householder reflections, §5.4.2 QR
 * with column pivoting, §5.5.5 the complete orthogonal decomposition; here applied to Aᵀ.)
 *
 * Rank semantics: a pivot counts when its norm exceeds rtol times the largest row norm of A.
 * The SVD rule (nsm_rank_from_sv) compares singular values instead; the two agree whenever the
 * spectrum of A has a gap around rtol·σ_1 wider than the pivoting's bounds (exactly redundant
 * rows: both see rounding-level remainders).
 */
#include "nsmech/linalg.h"
#include "internal.h"
#include "../nsm_math.h"

/* y ← H y with H = I − τ v vᵀ (len entries). */
/*@ requires len: 1 <= len <= NSM_MAX_DIM;
    requires valid_v: \valid_read(v + (0 .. len - 1));
    requires valid_y: \valid(y + (0 .. len - 1));
    assigns y[0 .. len - 1];
 */
static void lq_reflect(size_t len, const double *v, double tau, double *y)
{
    nsm_vec_axpy(len, -tau * nsm_vec_dot(len, y, v), v, y);
}

/* y_q ← H y_q, q = 0..3, with H = I − τ v vᵀ (len entries each): the four products v·y_q in
   one pass over v (nsm_vec_dot4), then four axpys. */
/*@ requires len: 1 <= len <= NSM_MAX_DIM;
    requires valid_v: \valid_read(v + (0 .. len - 1));
    requires valid_y: \valid(y0 + (0 .. len - 1)) && \valid(y1 + (0 .. len - 1)) &&
                      \valid(y2 + (0 .. len - 1)) && \valid(y3 + (0 .. len - 1));
    assigns y0[0 .. len - 1], y1[0 .. len - 1], y2[0 .. len - 1], y3[0 .. len - 1];
 */
static void lq_reflect4(size_t len, const double *v, double tau, double *y0, double *y1,
                        double *y2, double *y3)
{
    double d[4];
    nsm_vec_dot4(len, v, y0, y1, y2, y3, d);
    nsm_vec_axpy(len, -tau * d[0], v, y0);
    nsm_vec_axpy(len, -tau * d[1], v, y1);
    nsm_vec_axpy(len, -tau * d[2], v, y2);
    nsm_vec_axpy(len, -tau * d[3], v, y3);
}

/* The reflector of the row tail x[0 .. len-1]: v (v_0 = 1) and *tau such that
   (I − τ v vᵀ) x = (β, 0, ..., 0), |β| = ‖x‖, β of the sign opposite to x_0 (no cancellation
   in x_0 − β); x_0 becomes β, the rest of x is left as it is. Returns 0, writing nothing, if
   x = 0. */
/*@ requires len: 1 <= len <= NSM_MAX_DIM;
    requires valid_x: \valid(x + (0 .. len - 1));
    requires valid_v: \valid(v + (0 .. len - 1));
    requires valid_tau: \valid(tau);
    assigns x[0], v[0 .. len - 1], *tau;
    ensures \result == 0 || \result == 1;
 */
static int lq_householder(size_t len, double *x, double *v, double *tau)
{
    double ss = nsm_vec_sumsq(len, x);
    if (!(ss > 0.0)) {
        return 0;
    }
    double nu = sqrt(ss);
    /*@ assert pos: nu > 0; */
    double alpha = x[0];
    double b = alpha >= 0.0 ? -nu : nu;
    double d = alpha - b;
    /*@ assert nonzero: d != 0 && b != 0; */
    double inv = 1.0 / d;
    v[0] = 1.0;
    /*@ loop invariant 1 <= i <= len;
        loop assigns i, v[1 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 1; i < len; i++) {
        v[i] = x[i] * inv;
    }
    *tau = (b - alpha) / b;
    x[0] = b;
    return 1;
}

/* The row to pivot on at step k: among rows i with done[i] == 0, the one whose entries
   k..n-1 have the largest sum of squares (*best). Returns m if no row is left. */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM && k < n;
    requires valid_W: \valid_read(W + (0 .. m*n - 1));
    requires valid_done: \valid_read(done + (0 .. m - 1));
    requires valid_best: \valid(best);
    assigns *best;
    ensures range: \result <= m;
    ensures nonneg: *best >= 0;
 */
static size_t lq_pivot(size_t m, size_t n, size_t k, const double *W, const double *done,
                       double *best)
{
    size_t p = m;
    double bs = 0.0;
    /*@ loop invariant 0 <= i <= m;
        loop invariant p <= m;
        loop invariant nonneg: bs >= 0;
        loop assigns i, p, bs;
        loop variant m - i;
     */
    for (size_t i = 0; i < m; i++) {
        if (done[i] == 0.0) {
            /*@ assert row: i*n + n <= m*n; */
            double ss = nsm_vec_sumsq(n - k, W + (i * n + k));
            if (p == m || ss > bs) {
                bs = ss;
                p = i;
            }
        }
    }
    *best = bs;
    return p;
}

/*@ // The arrays of the factorisation steps on a rows×cols matrix W: W and the reflectors V
    // (rows×cols each), one τ and one done mark per row.
    predicate lq_arrays(double *W, double *V, double *tau, double *done, integer rows,
                        integer cols) =
        \valid(W + (0 .. rows*cols - 1)) && \valid(V + (0 .. rows*cols - 1)) &&
        \valid(tau + (0 .. rows - 1)) && \valid(done + (0 .. rows - 1));
 */

/* Step k on row p (pivoted factorisation; p = k in the unpivoted one): reflector k into V
   (row k, entries k..n-1), row p of W becomes (.., β_k, 0, ..., 0) and is marked done, the
   other rows not done are reflected. Returns 0 if the row's tail is zero (nothing changed). */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM && k < n && k < m && p < m;
    requires valid: lq_arrays(W, V, tau, done, m, n);
    assigns W[0 .. m*n - 1], V[0 .. m*n - 1], tau[0 .. m - 1], done[0 .. m - 1];
    ensures \result == 0 || \result == 1;
 */
static int lq_step(size_t m, size_t n, size_t k, size_t p, double *W, double *V, double *tau,
                   double *done)
{
    size_t len = n - k;
    /*@ assert rows: p*n + n <= m*n && k*n + n <= m*n; */
    double *wp = W + (p * n + k);
    double *vk = V + (k * n + k);
    if (!lq_householder(len, wp, vk, tau + k)) {
        return 0;
    }
    /*@ loop invariant 1 <= j <= len;
        loop assigns j, W[0 .. m*n - 1];
        loop variant len - j;
     */
    for (size_t j = 1; j < len; j++) {
        wp[j] = 0.0;
    }
    done[p] = 1.0;
    /* The rows not done, four at a time (their indices gathered in idx), then the rest. */
    size_t idx[4];
    size_t c = 0;
    /*@ loop invariant 0 <= i <= m && c <= 3;
        loop invariant gathered: \forall integer q; 0 <= q < c ==> idx[q] < i;
        loop assigns i, c, idx[0 .. 3], W[0 .. m*n - 1];
        loop variant m - i;
     */
    for (size_t i = 0; i < m; i++) {
        /*@ assert rowi: i*n + n <= m*n; */
        if (done[i] == 0.0) {
            idx[c] = i;
            c++;
            if (c == 4u) {
                size_t i0 = idx[0];
                size_t i1 = idx[1];
                size_t i2 = idx[2];
                /*@ assert in_m: i0 < m && i1 < m && i2 < m; */
                /*@ assert row0: i0*n + n <= m*n; */
                /*@ assert row1: i1*n + n <= m*n; */
                /*@ assert row2: i2*n + n <= m*n; */
                lq_reflect4(len, vk, tau[k], W + (i0 * n + k), W + (i1 * n + k),
                            W + (i2 * n + k), W + (i * n + k));
                c = 0;
            }
        }
    }
    /*@ loop invariant 0 <= q <= c;
        loop assigns q, W[0 .. m*n - 1];
        loop variant c - q;
     */
    for (size_t q = 0; q < c; q++) {
        /*@ assert row: idx[q]*n + n <= m*n; */
        lq_reflect(len, vk, tau[k], W + (idx[q] * n + k));
    }
    return 1;
}

/* The pivoted factorisation of W (m×n) in place; reflectors into V (rows 0..r-1) and tau;
   done (m) is scratch. Returns the rank r <= min(m, n). */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
    requires rtol: 0 <= rtol < 1;
    requires valid: lq_arrays(W, V, tau, done, m, n);
    assigns W[0 .. m*n - 1], V[0 .. m*n - 1], tau[0 .. m - 1], done[0 .. m - 1];
    ensures rank: \result <= m && \result <= n;
 */
static size_t lq_pivoted(size_t m, size_t n, double rtol, double *W, double *V, double *tau,
                         double *done)
{
    /*@ loop invariant 0 <= i <= m;
        loop assigns i, done[0 .. m - 1];
        loop variant m - i;
     */
    for (size_t i = 0; i < m; i++) {
        done[i] = 0.0;
    }
    size_t steps = m < n ? m : n;
    double floor2 = 0.0;
    size_t r = 0;
    /*@ loop invariant 0 <= r <= steps;
        loop assigns r, floor2, W[0 .. m*n - 1], V[0 .. m*n - 1], tau[0 .. m - 1],
                     done[0 .. m - 1];
        loop variant steps - r;
     */
    while (r < steps) {
        double best = 0.0;
        size_t p = lq_pivot(m, n, r, W, done, &best);
        if (r == 0u) {
            floor2 = rtol * rtol * best;
        }
        if (p >= m || !(best > floor2) || !(best > 0.0)) {
            break;
        }
        if (!lq_step(m, n, r, p, W, V, tau, done)) {
            break;
        }
        r++;
    }
    return r;
}

/* Yt (r×len) = [I_r 0] H_{r-1} ··· H_0, the transpose of H_0 ··· H_{r-1} [I_r; 0], for the
   reflectors stored in the rows of V (row k: entries k..len-1, v_k = 1 at k). */
/*@ requires dims: 1 <= len <= NSM_MAX_DIM && r <= len;
    requires valid_V: r == 0 || \valid_read(V + (0 .. r*len - 1));
    requires valid_tau: r == 0 || \valid_read(tau + (0 .. r - 1));
    requires valid_Yt: r == 0 || \valid(Yt + (0 .. r*len - 1));
    assigns Yt[0 .. r*len - 1];
 */
static void lq_form(size_t len, size_t r, const double *V, const double *tau,
                    double *Yt)
{
    nsm_mat_eye(r, len, Yt);
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, Yt[0 .. r*len - 1];
        loop variant k;
     */
    for (size_t k = r; k > 0u; k--) {
        size_t s = k - 1u;
        /*@ assert vrow: s*len + len <= r*len; */
        size_t j = s;
        /*@ loop invariant s <= j <= r;
            loop assigns j, Yt[0 .. r*len - 1];
            loop variant r - j;
         */
        while (r - j >= 4u) {
            /*@ assert rows: j*len + 4*len <= r*len; */
            lq_reflect4(len - s, V + (s * len + s), tau[s], Yt + (j * len + s),
                        Yt + ((j + 1u) * len + s), Yt + ((j + 2u) * len + s),
                        Yt + ((j + 3u) * len + s));
            j += 4u;
        }
        /*@ loop invariant s <= j <= r;
            loop assigns j, Yt[0 .. r*len - 1];
            loop variant r - j;
         */
        while (j < r) {
            /*@ assert row: j*len + len <= r*len; */
            lq_reflect(len - s, V + (s * len + s), tau[s], Yt + (j * len + s));
            j++;
        }
    }
}

/* The unpivoted LQ of G (r×m, full row rank): lq_step on row k at step k, rows 0..k-1 done
   (done, r entries, is scratch). On return G's lower triangle holds S (its strict upper
   triangle is zero), the rows of V2 the reflectors, tau2 their τ. Returns 0 if a row turns
   out zero. */
/*@ requires dims: 1 <= r <= m <= NSM_MAX_DIM;
    requires valid: lq_arrays(G, V2, tau2, done, r, m);
    assigns G[0 .. r*m - 1], V2[0 .. r*m - 1], tau2[0 .. r - 1], done[0 .. r - 1];
    ensures \result == 0 || \result == 1;
 */
static int lq_plain(size_t r, size_t m, double *G, double *V2, double *tau2, double *done)
{
    nsm_vec_zero(r, done);
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, G[0 .. r*m - 1], V2[0 .. r*m - 1], tau2[0 .. r - 1], done[0 .. r - 1];
        loop variant r - k;
     */
    for (size_t k = 0; k < r; k++) {
        if (!lq_step(r, m, k, k, G, V2, tau2, done)) {
            return 0;
        }
    }
    return 1;
}

/* t ← S⁻¹t (upper == 0: forward substitution, one dot product per row) or t ← S⁻ᵀt
   (upper != 0: back substitution by the columns of Sᵀ, i.e. the rows of S, one axpy per row),
   r entries; S = lower triangle of the leading r×r block, row stride m. Returns 0 on a zero
   diagonal entry (not reached for a G from lq_plain). */
/*@ requires dims: 1 <= r <= m <= NSM_MAX_DIM;
    requires valid_S: \valid_read(S + (0 .. r*m - 1));
    requires valid_t: \valid(t + (0 .. r - 1));
    assigns t[0 .. r - 1];
    ensures \result == 0 || \result == 1;
 */
static int lq_solve(int upper, size_t r, size_t m, const double *S, double *t)
{
    /*@ loop invariant 0 <= i <= r;
        loop assigns i, t[0 .. r - 1];
        loop variant r - i;
     */
    for (size_t i = 0; i < r; i++) {
        size_t j = upper ? r - 1u - i : i;
        /*@ assert row: j*m + m <= r*m; */
        double d = S[j * m + j];
        if (d == 0.0) {
            return 0;
        }
        if (upper) {
            t[j] = t[j] / d;
            nsm_vec_axpy(j, -t[j], S + j * m, t);
        } else {
            t[j] = (t[j] - nsm_vec_dot(j, S + j * m, t)) / d;
        }
    }
    return 1;
}

size_t nsm_lq_factor_work(size_t m, size_t n)
{
    return 2u * m * n + m * m + 3u * m;
}

/* Workspace (doubles): W m·n | V m·n | V2 m·m | tau m | tau2 m | done m (r <= min(m, n) rows
   of each are used). */
nsm_status nsm_lq_factor(size_t m, size_t n, const double *A, double rtol, size_t *rank,
                         double *ainv, double *Yt, double *S, double *V2t, double *work)
{
    size_t mn = m * n;
    size_t mm = m * m;
    /*@ assert sizes: mn <= NSM_MAX_DIM * NSM_MAX_DIM && mm <= NSM_MAX_DIM * NSM_MAX_DIM; */
    double *W = work;
    double *V = work + mn;
    double *V2 = work + 2u * mn;
    double *tau = work + (2u * mn + mm);
    double *tau2 = tau + m;
    double *done = tau + 2u * m;
    double a = nsm_vec_absmax(mn, A);
    if (!(a > 0.0)) {
        *rank = 0;
        *ainv = 0.0;
        return NSM_OK;
    }
    double inv = 1.0 / a;
    if (!nsm_all_finite(1, &inv)) {
        return NSM_ERR_NOT_FINITE;
    }
    /*@ loop invariant 0 <= i <= mn;
        loop assigns i, W[0 .. mn - 1];
        loop variant mn - i;
     */
    for (size_t i = 0; i < mn; i++) {
        W[i] = A[i] * inv;
    }
    size_t r = lq_pivoted(m, n, rtol, W, V, tau, done);
    if (r == 0u) {
        *rank = 0;
        *ainv = 0.0;
        return NSM_OK;
    }
    lq_form(n, r, V, tau, Yt);
    /* S starts as L_uᵀ (r×m): S[j, i] = W[i, j]. */
    nsm_mat_transpose(m, r, n, W, S);
    if (!lq_plain(r, m, S, V2, tau2, done)) {
        return NSM_ERR_RANK;
    }
    lq_form(m, r, V2, tau2, V2t);
    *rank = r;
    *ainv = inv;
    return NSM_OK;
}

/* t = Uin·x (r rows of length bin: Uin = V2t for trans == 0, Yt otherwise), then t ← S⁻ᵀt
   (back substitution, trans == 0) or t ← S⁻¹t (forward), then out = alpha·Uoutᵀt (Uout the
   other factor, length bout); r = 0 gives out = 0. */
nsm_status nsm_lq_pinv_vec(int trans, size_t m, size_t n, size_t r, double alpha,
                           const double *Yt, const double *S, const double *V2t, const double *x,
                           double *t, double *out)
{
    size_t bin = (trans != 0) ? n : m;
    size_t bout = (trans != 0) ? m : n;
    const double *Uin = (trans != 0) ? Yt : V2t;
    const double *Uout = (trans != 0) ? V2t : Yt;
    if (r > 0u) {
        nsm_mat_vec(0, r, bin, 1.0, Uin, x, t);
        if (!lq_solve(trans == 0, r, m, S, t)) {
            return NSM_ERR_RANK;
        }
    }
    nsm_mat_vec(1, r, bout, alpha, Uout, t, out);
    return NSM_OK;
}
