/*
 * Householder LQ with row pivoting and the pseudo-inverse built on it: the factorisation of
 * the per-cycle dynamics (docs/math.md, "The factorisation of the per-cycle call"). nsmech's
 * own code, row-major; internal (src/linalg/internal.h): the caller has validated the
 * arguments, so the kernels carry proved preconditions instead of re-checking them.
 *
 * A (m×n) is first divided by a = max |A_ij|, so that no sum of squares overflows: W = A/a.
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
 * triangular, V₂ m×r with orthonormal columns): X = Z V₂ᵀ / a with Zᵀ = S⁻¹ Yᵀ.
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

/* Step k of the pivoted factorisation on row p: reflector k into V (row k, entries k..n-1),
   row p of W becomes (.., β_k, 0, ..., 0) and is marked done, the other rows not done are
   reflected. Returns 0 if the row's tail is zero (nothing is changed then). */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM && k < n && k < m && p < m;
    requires valid_W: \valid(W + (0 .. m*n - 1));
    requires valid_V: \valid(V + (0 .. m*n - 1));
    requires valid_tau: \valid(tau + (0 .. m - 1));
    requires valid_done: \valid(done + (0 .. m - 1));
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
    /*@ loop invariant 0 <= i <= m;
        loop assigns i, W[0 .. m*n - 1];
        loop variant m - i;
     */
    for (size_t i = 0; i < m; i++) {
        if (done[i] == 0.0) {
            /*@ assert row: i*n + n <= m*n; */
            lq_reflect(len, vk, tau[k], W + (i * n + k));
        }
    }
    return 1;
}

/* The pivoted factorisation of W (m×n) in place; reflectors into V (rows 0..r-1) and tau;
   done (m) is scratch. Returns the rank r <= min(m, n). */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
    requires rtol: 0 <= rtol < 1;
    requires valid_W: \valid(W + (0 .. m*n - 1));
    requires valid_V: \valid(V + (0 .. m*n - 1));
    requires valid_tau: \valid(tau + (0 .. m - 1));
    requires valid_done: \valid(done + (0 .. m - 1));
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
    /*@ loop invariant 0 <= j <= r;
        loop assigns j, Yt[0 .. r*len - 1];
        loop variant r - j;
     */
    for (size_t j = 0; j < r; j++) {
        /*@ assert row: j*len + len <= r*len; */
        /*@ loop invariant 0 <= c <= len;
            loop assigns c, Yt[0 .. r*len - 1];
            loop variant len - c;
         */
        for (size_t c = 0; c < len; c++) {
            Yt[j * len + c] = j == c ? 1.0 : 0.0;
        }
    }
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, Yt[0 .. r*len - 1];
        loop variant k;
     */
    for (size_t k = r; k > 0u; k--) {
        size_t s = k - 1u;
        /*@ assert vrow: s*len + len <= r*len; */
        /*@ loop invariant s <= j <= r;
            loop assigns j, Yt[0 .. r*len - 1];
            loop variant r - j;
         */
        for (size_t j = s; j < r; j++) {
            /*@ assert row: j*len + len <= r*len; */
            lq_reflect(len - s, V + (s * len + s), tau[s], Yt + (j * len + s));
        }
    }
}

/* The unpivoted LQ of G (r×m, full row rank): on return G's lower triangle holds S, the rows
   of V2 the reflectors, tau2 their τ. Returns 0 if a row turns out zero. */
/*@ requires dims: 1 <= r <= m <= NSM_MAX_DIM;
    requires valid_G: \valid(G + (0 .. r*m - 1));
    requires valid_V2: \valid(V2 + (0 .. r*m - 1));
    requires valid_tau: \valid(tau2 + (0 .. r - 1));
    assigns G[0 .. r*m - 1], V2[0 .. r*m - 1], tau2[0 .. r - 1];
    ensures \result == 0 || \result == 1;
 */
static int lq_plain(size_t r, size_t m, double *G, double *V2, double *tau2)
{
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, G[0 .. r*m - 1], V2[0 .. r*m - 1], tau2[0 .. r - 1];
        loop variant r - k;
     */
    for (size_t k = 0; k < r; k++) {
        size_t len = m - k;
        /*@ assert row: k*m + m <= r*m; */
        double *gk = G + (k * m + k);
        double *vk = V2 + (k * m + k);
        if (!lq_householder(len, gk, vk, tau2 + k)) {
            return 0;
        }
        /*@ loop invariant k + 1 <= i <= r || (i == k + 1 && i > r);
            loop assigns i, G[0 .. r*m - 1];
            loop variant r - i;
         */
        for (size_t i = k + 1u; i < r; i++) {
            /*@ assert rowi: i*m + m <= r*m; */
            lq_reflect(len, vk, tau2[k], G + (i * m + k));
        }
    }
    return 1;
}

/* Zt ← S⁻¹ Zt in place (S = lower triangle of G, r×m storage; Zt r×n): forward substitution
   on whole rows. Returns 0 on a zero diagonal entry (not reached for a G from lq_plain). */
/*@ requires dims: 1 <= r <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
    requires valid_G: \valid_read(G + (0 .. r*m - 1));
    requires valid_Zt: \valid(Zt + (0 .. r*n - 1));
    assigns Zt[0 .. r*n - 1];
    ensures \result == 0 || \result == 1;
 */
static int lq_lower_solve(size_t r, size_t m, size_t n, const double *G, double *Zt)
{
    /*@ loop invariant 0 <= j <= r;
        loop assigns j, Zt[0 .. r*n - 1];
        loop variant r - j;
     */
    for (size_t j = 0; j < r; j++) {
        /*@ assert rows: j*m + m <= r*m && j*n + n <= r*n; */
        double *zj = Zt + j * n;
        /*@ loop invariant 0 <= i <= j;
            loop assigns i, Zt[0 .. r*n - 1];
            loop variant j - i;
         */
        for (size_t i = 0; i < j; i++) {
            /*@ assert rowi: i*n + n <= r*n; */
            nsm_vec_axpy(n, -G[j * m + i], Zt + i * n, zj);
        }
        double d = G[j * m + j];
        if (d == 0.0) {
            return 0;
        }
        double inv = 1.0 / d;
        /*@ loop invariant 0 <= c <= n;
            loop assigns c, Zt[0 .. r*n - 1];
            loop variant n - c;
         */
        for (size_t c = 0; c < n; c++) {
            zj[c] *= inv;
        }
    }
    return 1;
}

/* Out (a×b) = s · Σ_j U[j, :]ᵀ V[j, :] for U (r×a) and V (r×b): sums of outer products of
   rows, each an axpy on contiguous memory. */
/*@ requires dims: r <= NSM_MAX_DIM && 1 <= a <= NSM_MAX_DIM && 1 <= b <= NSM_MAX_DIM;
    requires valid_U: r == 0 || \valid_read(U + (0 .. r*a - 1));
    requires valid_V: r == 0 || \valid_read(V + (0 .. r*b - 1));
    requires valid_out: \valid(out + (0 .. a*b - 1));
    assigns out[0 .. a*b - 1];
 */
static void lq_outer_sum(size_t r, size_t a, size_t b, double s, const double *U,
                         const double *V, double *out)
{
    /*@ loop invariant 0 <= i <= a*b;
        loop assigns i, out[0 .. a*b - 1];
        loop variant a*b - i;
     */
    for (size_t i = 0; i < a * b; i++) {
        out[i] = 0.0;
    }
    /*@ loop invariant 0 <= j <= r;
        loop assigns j, out[0 .. a*b - 1];
        loop variant r - j;
     */
    for (size_t j = 0; j < r; j++) {
        /*@ assert rows: j*a + a <= r*a && j*b + b <= r*b; */
        /*@ loop invariant 0 <= i <= a;
            loop assigns i, out[0 .. a*b - 1];
            loop variant a - i;
         */
        for (size_t i = 0; i < a; i++) {
            /*@ assert orow: i*b + b <= a*b; */
            nsm_vec_axpy(b, s * U[j * a + i], V + j * b, out + i * b);
        }
    }
}

size_t nsm_lq_pinv_work(size_t m, size_t n)
{
    return 3u * m * n + 3u * m * m + 3u * m;
}

/* Workspace (doubles): W m·n | V m·n | Zt m·n | G m·m | V2 m·m | V2t m·m | tau m | tau2 m |
   done m (r <= min(m, n) rows of each are used). */
nsm_status nsm_lq_pinv(size_t m, size_t n, const double *A, double rtol, size_t *rank,
                       double *X, double *Yt, double *work)
{
    size_t mn = m * n;
    size_t mm = m * m;
    /*@ assert sizes: mn <= NSM_MAX_DIM * NSM_MAX_DIM && mm <= NSM_MAX_DIM * NSM_MAX_DIM; */
    double *W = work;
    double *V = work + mn;
    double *Zt = work + 2u * mn;
    double *G = work + 3u * mn;
    double *V2 = work + (3u * mn + mm);
    double *V2t = work + (3u * mn + 2u * mm);
    double *tau = work + (3u * mn + 3u * mm);
    double *tau2 = tau + m;
    double *done = tau + 2u * m;
    double a = nsm_vec_absmax(mn, A);
    size_t r = 0;
    if (a > 0.0) {
        /*@ loop invariant 0 <= i <= mn;
            loop assigns i, W[0 .. mn - 1];
            loop variant mn - i;
         */
        for (size_t i = 0; i < mn; i++) {
            W[i] = A[i] / a;
        }
        r = lq_pivoted(m, n, rtol, W, V, tau, done);
    }
    if (r == 0u) {
        lq_outer_sum(0u, n, m, 0.0, Zt, V2t, X);
        *rank = 0;
        return NSM_OK;
    }
    lq_form(n, r, V, tau, Yt);
    /* G = L_uᵀ (r×m): G[j, i] = W[i, j]; Zt = Yt. */
    /*@ loop invariant 0 <= j <= r;
        loop assigns j, G[0 .. r*m - 1], Zt[0 .. r*n - 1];
        loop variant r - j;
     */
    for (size_t j = 0; j < r; j++) {
        /*@ loop invariant 0 <= i <= m;
            loop assigns i, G[0 .. r*m - 1];
            loop variant m - i;
         */
        for (size_t i = 0; i < m; i++) {
            /*@ assert in: j*m + i < r*m && i*n + j < m*n; */
            G[j * m + i] = W[i * n + j];
        }
        /*@ loop invariant 0 <= c <= n;
            loop assigns c, Zt[0 .. r*n - 1];
            loop variant n - c;
         */
        for (size_t c = 0; c < n; c++) {
            /*@ assert in: j*n + c < r*n; */
            Zt[j * n + c] = Yt[j * n + c];
        }
    }
    if (!lq_plain(r, m, G, V2, tau2)) {
        return NSM_ERR_RANK;
    }
    lq_form(m, r, V2, tau2, V2t);
    if (!lq_lower_solve(r, m, n, G, Zt)) {
        return NSM_ERR_RANK;
    }
    lq_outer_sum(r, n, m, 1.0 / a, Zt, V2t, X);
    if (!nsm_all_finite(n * m, X)) {
        return NSM_ERR_NOT_FINITE;
    }
    *rank = r;
    return NSM_OK;
}
