/*
 * The multi-contact impact integrator's entry points (planar d = 1 or spatial d = 2 contacts)
 * with its a priori termination bound: validate (impact_args.c) -> prepare (Cholesky of M,
 * W = J M^-1 J^T, u = J v-) -> bound (impact_bound.c) -> integrate (impact_step.c) ->
 * finish (v+, Λ, the final check on v+ as returned).
 *
 * Internally every contact takes three slots (t1, t2, n) of the impulse space, whatever d is:
 * for d = 1 the t2 row of J is zero, so its slots stay exactly 0 and the planar arithmetic is
 * unchanged (adding exact zeros), while every index is linear in the contact number (3c + j),
 * which keeps the proof obligations linear.
 */
#include "nsmech/impact.h"
#include "nsmech/linalg.h"
#include "../nsm_math.h"
#include "internal.h"
#include "../linalg/internal.h"
#include "impact_internal.h"
#include "../contact/coulomb.h"

size_t nsm_impact_work(size_t n, size_t m)
{
    if (n == 0 || n > NSM_MAX_DIM || m == 0 || m > NSM_MAX_DIM / 3) {
        return 0;
    }
    size_t need = n * n + 6 * m * n + 9 * m * m + 26 * m + n;
    return need <= NSM_MAX_DIM * NSM_MAX_DIM ? need : 0;
}

/* ½ v^T M v, using tmp (n) as scratch. */
/*@ requires 1 <= n <= NSM_MAX_DIM;
    requires \valid_read(M + (0 .. n * n - 1)) && \valid_read(v + (0 .. n - 1));
    requires \valid(tmp + (0 .. n - 1));
    assigns tmp[0 .. n - 1];
 */
static double energy(size_t n, const double *M, const double *v, double *tmp)
{
    matvec(n, n, M, v, tmp);
    return 0.5 * dot(n, v, tmp);
}

/* J (3m×n): row 3c = t1 row of contact c, row 3c + 1 = its t2 row (zero when d = 1), row
   3c + 2 = J_n,c; X (n×3m) = J^T. Jt holds m·d rows, contact by contact. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(Jn + (0 .. m * n - 1)) && \valid_read(Jt + (0 .. d * m * n - 1));
    requires \valid(J + (0 .. 3 * m * n - 1)) && \valid(X + (0 .. 3 * m * n - 1));
    assigns J[0 .. 3 * m * n - 1], X[0 .. 3 * m * n - 1];
 */
static void build_J(size_t n, size_t m, size_t d, const double *Jn, const double *Jt, double *J,
                    double *X)
{
    size_t K = 3 * m;
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, J[0 .. 3 * m * n - 1], X[0 .. 3 * m * n - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        /*@ assert c * n + n <= m * n; */
        /*@ assert (3 * c + 2) * n + n <= 3 * m * n; */
        /*@ assert d == 2 ==> (2 * c + 1) * n + n <= d * m * n; */
        /*@ assert d == 1 ==> c * n + n <= d * m * n; */
        /*@ loop invariant 0 <= i <= n;
            loop assigns i, J[0 .. 3 * m * n - 1], X[0 .. 3 * m * n - 1];
            loop variant n - i;
         */
        for (size_t i = 0; i < n; i++) {
            /*@ assert i * K + 3 * c + 2 < 3 * m * n; */
            double t1 = d == 2 ? Jt[(2 * c) * n + i] : Jt[c * n + i];
            double t2 = d == 2 ? Jt[(2 * c + 1) * n + i] : 0.0;
            J[(3 * c) * n + i] = t1;
            J[(3 * c + 1) * n + i] = t2;
            J[(3 * c + 2) * n + i] = Jn[c * n + i];
            X[i * K + 3 * c] = t1;
            X[i * K + 3 * c + 1] = t2;
            X[i * K + 3 * c + 2] = Jn[c * n + i];
        }
    }
}

/* W (K×K) = J (K×n) · X (n×K), row by row: row k of W is Xᵀ times row k of J (nsm_mat_vec,
   each entry's terms summed in index order). */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= K <= NSM_MAX_DIM;
    requires \valid_read(J + (0 .. K * n - 1)) && \valid_read(X + (0 .. n * K - 1));
    requires \valid(W + (0 .. K * K - 1));
    assigns W[0 .. K * K - 1];
 */
static void gram(size_t n, size_t K, const double *J, const double *X, double *W)
{
    /*@ loop invariant 0 <= k <= K;
        loop assigns k, W[0 .. K * K - 1];
        loop variant K - k;
     */
    for (size_t k = 0; k < K; k++) {
        /*@ assert k * K + K <= K * K && k * n + n <= K * n; */
        nsm_mat_vec(1, n, K, 1.0, X, J + k * n, W + k * K);
    }
}

/* J_n,c v for one contact c. */
/*@ requires 1 <= n <= NSM_MAX_DIM && c < m && m <= NSM_MAX_DIM;
    requires \valid_read(Jn + (0 .. m * n - 1)) && \valid_read(v + (0 .. n - 1));
    assigns \nothing;
    ensures \result == nsm_rowdot(Jn, n, c, v, n);
 */
static double normal_vel(size_t n, size_t m, const double *Jn, size_t c, const double *v)
{
    /*@ assert c * n + n <= m * n; */
    (void)m;
    double acc = 0.0;
    /*@ loop invariant 0 <= i <= n;
        loop invariant acc == nsm_rowdot(Jn, n, c, v, i);
        loop assigns i, acc;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        acc += Jn[c * n + i] * v[i];
    }
    return acc;
}

/* A bound of the rounding error of normal_vel(n, m, Jn, c, v) and of the final check's
   subtraction: (4n + 4)·2^-53·Σ|J_n,ci v_i| (Higham's γ_n = n·2^-53/(1 - n·2^-53) of a
   recursive dot product, doubled to cover the rounding of this sum), 2^-52·|tol| and
   (n + 1)·2^-1072 (products that underflow). */
/*@ requires 1 <= n <= NSM_MAX_DIM && c < m && m <= NSM_MAX_DIM;
    requires \valid_read(Jn + (0 .. m * n - 1)) && \valid_read(v + (0 .. n - 1));
    assigns \nothing;
    ensures \result >= 0;
 */
static double normal_vel_err(size_t n, size_t m, const double *Jn, size_t c, const double *v,
                             double tol)
{
    /*@ assert c * n + n <= m * n; */
    (void)m;
    double s = 0.0;
    /*@ loop invariant 0 <= i <= n && s >= 0;
        loop assigns i, s;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        s += fabs(Jn[c * n + i] * v[i]);
    }
    double k = (double)n;
    return (4.0 * k + 4.0) * 0x1p-53 * s + 0x1p-52 * fabs(tol) + (k + 1.0) * 0x1p-1072;
}

/* The final check: 1 only if every contact has J_n,c v >= -tol exactly, for the IEEE
   computation too: the rounded product must clear -tol by the bound of its rounding
   (normal_vel_err). A contact at rest (J_n,c v = 0) passes when tol > 0. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_MAX_DIM;
    requires \valid_read(Jn + (0 .. m * n - 1)) && \valid_read(v + (0 .. n - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> nsm_rows_sep(Jn, v, m, n, tol);
 */
static int normals_ok(size_t n, size_t m, const double *Jn, const double *v, double tol)
{
    /*@ loop invariant 0 <= c <= m;
        loop invariant \forall integer k; 0 <= k < c ==> nsm_rowdot(Jn, n, k, v, n) >= -tol;
        loop assigns c;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double e = normal_vel_err(n, m, Jn, c, v, tol);
        if (!(normal_vel(n, m, Jn, c, v) >= e - tol)) {
            return 0;
        }
    }
    return 1;
}

/* Largest |u_n,c| over contacts. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 3 * m - 1));
    assigns \nothing;
    ensures \result >= 0;
 */
static double max_abs_normal(size_t m, const double *u)
{
    double a = 0.0;
    /*@ loop invariant 0 <= c <= m;
        loop invariant a >= 0;
        loop assigns c, a;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double x = fabs(u[3 * c + 2]);
        if (x > a) {
            a = x;
        }
    }
    return a;
}

/*
 * Factorises M, forms J, X = M^-1 J^T, W = J X and u = J v- in the workspace, laid out as
 * L (n²), J (3mn), X (3mn), W (9m²), u, lam, lh, rate, um, gain, ls, rs (3m each; the last
 * four are Frank–Wolfe's scratch before the integration, carve_vecs), w, wraw (m each),
 * tmp (n).
 */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires valid_in: \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1)) &&
                       \valid_read(Jt + (0 .. d * m * n - 1)) && \valid_read(vm + (0 .. n - 1));
    requires valid_work: \valid(work + (0 .. nsm_impact_need(n, m) - 1));
    assigns work[0 .. nsm_impact_need(n, m) - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_SPD || \result == NSM_ERR_OVERFLOW;
 */
static nsm_status impact_prepare(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                                 const double *Jt, const double *vm, double *work)
{
    size_t K = 3 * m;
    /*@ assert K * n == 3 * m * n && K * K == 9 * m * m; */
    double *L = work;
    double *J = L + n * n;
    double *X = J + K * n;
    double *W = X + K * n;
    double *u = W + K * K;
    copy_vec(n * n, M, L);
    nsm_status st = nsm_chol_factor(n, L);
    if (st != NSM_OK) {
        return NSM_ERR_NOT_SPD;
    }
    build_J(n, m, d, Jn, Jt, J, X);
    st = nsm_chol_solve(n, K, L, X);
    if (st != NSM_OK) {
        return NSM_ERR_NOT_SPD;
    }
    gram(n, K, J, X, W);
    matvec(K, n, J, vm, u);
    if (!nsm_all_finite(K * K, W) || !nsm_all_finite(K, u)) {
        return NSM_ERR_OVERFLOW;
    }
    return NSM_OK;
}

/* Lambda ((d + 1)m, contact by contact) from the internal (t1, t2, n) layout. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(lam + (0 .. 3 * m - 1)) && \valid(Lam + (0 .. (d + 1) * m - 1));
    assigns Lam[0 .. (d + 1) * m - 1];
 */
static void pack_lambda(size_t m, size_t d, const double *lam, double *Lam)
{
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, Lam[0 .. (d + 1) * m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (d == 1) {
            Lam[2 * c] = lam[3 * c];
            Lam[2 * c + 1] = lam[3 * c + 2];
        } else {
            Lam[3 * c] = lam[3 * c];
            Lam[3 * c + 1] = lam[3 * c + 1];
            Lam[3 * c + 2] = lam[3 * c + 2];
        }
    }
}

/* 1 if v+, Lambda and the real fields of *inf are finite (finite data can overflow on the
   way: a huge mu, v- or an ill-scaled M). */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(vp + (0 .. n - 1)) && \valid_read(Lam + (0 .. (d + 1) * m - 1));
    requires \valid_read(inf);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int results_finite(size_t n, size_t m, size_t d, const double *vp, const double *Lam,
                          const nsm_impact_info *inf)
{
    const double x[7] = {inf->s,        inf->bound,        inf->gamma_lb,
                         inf->fw_gap,   inf->energy_minus, inf->energy_plus,
                         inf->check_tol};
    return nsm_all_finite(n, vp) && nsm_all_finite((d + 1) * m, Lam) && nsm_all_finite(7, x);
}

/* Each contact's impulse put in its friction cone: Λ_n >= 0, then Λ_t kept when the sound test
   nsm_cone_contains accepts it and otherwise moved just inside (nsm_coulomb_inward1/2). In
   exact arithmetic every impulse rate lies in its cone and only the boundary moves; in IEEE
   arithmetic this removes the rounding that leaves Λ_t a few ulps outside, so that Λ as
   returned lies in the exact cones and the final check (cones_ok) accepts it. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(mu + (0 .. m - 1)) && \valid(lam + (0 .. 3 * m - 1));
    assigns lam[0 .. 3 * m - 1];
 */
static void cone_lam(size_t m, size_t d, const double *mu, double *lam)
{
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, lam[0 .. 3 * m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double muc = mu[c] > 0.0 ? mu[c] : 0.0;
        double t1 = lam[3 * c];
        double t2 = lam[3 * c + 1];
        double ln = lam[3 * c + 2] > 0.0 ? lam[3 * c + 2] : 0.0;
        if (d == 1) {
            t1 = nsm_coulomb_inward1(muc, ln, t1);
        } else {
            nsm_coulomb_inward2(muc, ln, &t1, &t2);
        }
        lam[3 * c] = t1;
        lam[3 * c + 1] = t2;
        lam[3 * c + 2] = ln;
    }
}

/* 1 iff the impulse t = (Λ_t, Λ_n) of one contact (d + 1 entries) is accepted by the sound
   test nsm_cone_contains at tol = 0: then it lies in its friction cone exactly. */
/*@ requires d == 1 || d == 2;
    requires \valid_read(t + (0 .. d));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> nsm_in_cone_tol(d, mu, 0.0, t[d], t);
 */
static int cone_ok_at(size_t d, double mu, const double *t)
{
    int in = 0;
    if (nsm_cone_contains(d, mu, t[d], t, 0.0, &in) != NSM_OK) {
        return 0;
    }
    return in == 1 ? 1 : 0;
}

/* The final check on Λ as returned: 1 iff every Λ_c lies in its friction cone. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(Lam + (0 .. (d + 1) * m - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> \forall integer c; 0 <= c < m ==>
              nsm_in_cone_tol(d, mu[c], 0.0, Lam[(d + 1) * c + d], Lam + (d + 1) * c);
 */
static int cones_ok(size_t m, size_t d, const double *mu, const double *Lam)
{
    /*@ loop invariant 0 <= c <= m;
        loop invariant \forall integer k; 0 <= k < c ==>
              nsm_in_cone_tol(d, mu[k], 0.0, Lam[(d + 1) * k + d], Lam + (d + 1) * k);
        loop assigns c;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        size_t b = (d + 1) * c;
        /*@ assert b + d < (d + 1) * m; */
        if (!cone_ok_at(d, mu[c], Lam + b)) {
            return 0;
        }
        /*@ assert nsm_in_cone_tol(d, mu[c], 0.0, Lam[(d + 1) * c + d], Lam + (d + 1) * c); */
    }
    return 1;
}

/* Writes *info and runs the final checks on v+ and Lambda as returned: NSM_ERR_OVERFLOW if a
   result is not finite; on NSM_OK every contact has J_n,c v+ >= -check_tol and its Λ_c in its
   friction cone. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(Jn + (0 .. m * n - 1)) && \valid_read(vp + (0 .. n - 1));
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(Lam + (0 .. (d + 1) * m - 1));
    requires \valid_read(inf) && \valid(info) && \separated(info, inf);
    requires \valid(&info->terminated);
    assigns *info;
    ensures steps: info->steps == \old(inf->steps) && info->step_cap == \old(inf->step_cap);
    ensures s: info->s == \old(inf->s) && info->bound == \old(inf->bound);
    ensures ok: \result == NSM_OK ==> rs == NSM_OK;
    ensures status: \result == rs || \result == NSM_ERR_OVERFLOW ||
                    \result == NSM_ERR_NO_CONVERGENCE;
    ensures \result == NSM_OK ==> nsm_rows_sep(Jn, vp, m, n, info->check_tol);
    ensures cones: \result == NSM_OK ==> \forall integer c; 0 <= c < m ==>
              nsm_in_cone_tol(d, mu[c], 0.0, Lam[(d + 1) * c + d], Lam + (d + 1) * c);
 */
static nsm_status impact_finish(size_t n, size_t m, size_t d, const double *Jn, const double *mu,
                                const double *vp, const double *Lam, nsm_status rs,
                                const nsm_impact_info *inf, nsm_impact_info *info)
{
    *info = *inf;
    if (!results_finite(n, m, d, vp, Lam, inf)) {
        return NSM_ERR_OVERFLOW;
    }
    if (rs != NSM_OK) {
        return rs;
    }
    if (!normals_ok(n, m, Jn, vp, info->check_tol) || !cones_ok(m, d, mu, Lam)) {
        info->terminated = 0;
        return NSM_ERR_NO_CONVERGENCE;
    }
    return NSM_OK;
}

/* The extremal rules' gain g (3m), the rate of their objective per unit impulse:
   EXTREMAL, objective dirᵀu with u = u- + W lam: g = Wᵀ dir; EXTREMAL_V, objective vdirᵀv
   with v = v- + X lam, X = M^-1 Jᵀ: g = Xᵀ vdir = J M^-1 vdir; 0 for the other kinds. Finite
   data can give a gain beyond the double range only with W or X near it; the rule then
   compares infinities or NaNs and takes the first penetrating contact it cannot rank. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires pol_ready(m, pol);
    requires pol->kind != NSM_POLICY_EXTREMAL_V || \valid_read(pol->vdir + (0 .. n - 1));
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(X + (0 .. 3 * m * n - 1));
    requires \valid(g + (0 .. 3 * m - 1));
    assigns g[0 .. 3 * m - 1];
 */
static void extremal_gain(size_t n, size_t m, const nsm_impact_policy *pol, const double *W,
                          const double *X, double *g)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m && n * K == 3 * m * n; */
    if (pol->kind == NSM_POLICY_EXTREMAL) {
        nsm_mat_vec(1, K, K, 1.0, W, pol->dir, g);
    } else if (pol->kind == NSM_POLICY_EXTREMAL_V) {
        nsm_mat_vec(1, n, K, 1.0, X, pol->vdir, g);
    } else {
        zero_vec(K, g);
    }
}

/* The integrator's vectors, carved from the workspace after u: u, lam, lh, rate (3m each); um,
   gain, ls and rs (3m each: Frank–Wolfe's four scratch vectors, which are spent before the
   integration starts); w and wraw (m each); tmp (n) follows at u + 26m. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid(u + (0 .. 26 * m - 1)) && \valid(v);
    assigns *v;
    ensures vecs_ok(v, m);
    ensures v->u == u && v->lam == u + 3 * m && v->lh == u + 6 * m && v->rate == u + 9 * m &&
            v->um == u + 12 * m && v->gain == u + 15 * m && v->ls == u + 18 * m &&
            v->rs == u + 21 * m && v->w == u + 24 * m && v->wraw == u + 25 * m;
 */
static void carve_vecs(size_t m, double *u, impact_vecs *v)
{
    size_t K = 3 * m;
    v->u = u;
    v->lam = u + K;
    v->lh = u + 2 * K;
    v->rate = u + 3 * K;
    v->um = u + 4 * K;
    v->gain = u + 5 * K;
    v->ls = u + 6 * K;
    v->rs = u + 7 * K;
    v->w = u + 8 * K;
    v->wraw = u + 8 * K + m;
}

/* Lemma function (empty at run time): the products that size the workspace stay below
   NSM_MAX_DIM², proved here in a small context rather than among impact_core's hypotheses. */
/*@ requires n <= NSM_MAX_DIM && 3 * m <= NSM_MAX_DIM;
    assigns \nothing;
    ensures n * n <= NSM_MAX_DIM * NSM_MAX_DIM;
    ensures 3 * m * n <= NSM_MAX_DIM * NSM_MAX_DIM;
    ensures 9 * m * m <= NSM_MAX_DIM * NSM_MAX_DIM;
    ensures nonneg: 0 <= n * n && 0 <= 3 * m * n && 0 <= 9 * m * m;
 */
static void lemma_dims(size_t n, size_t m)
{
    /*@ assert n * n <= NSM_MAX_DIM * n; */
    /*@ assert 3 * m * n <= NSM_MAX_DIM * n; */
    /*@ assert 3 * m * (3 * m) <= NSM_MAX_DIM * (3 * m); */
    (void)n;
    (void)m;
}

/* After the integration: Λ into the cones (cone_lam), v+ = v- + X Λ with X = M^-1 J^T (n×3m),
   and the kinetic energy of v+ (the result); tmp (n) is scratch. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(M + (0 .. n * n - 1)) && \valid_read(mu + (0 .. m - 1)) &&
             \valid_read(vm + (0 .. n - 1)) && \valid_read(X + (0 .. 3 * m * n - 1));
    requires \valid(lam + (0 .. 3 * m - 1)) && \valid(vp + (0 .. n - 1)) &&
             \valid(tmp + (0 .. n - 1));
    assigns lam[0 .. 3 * m - 1], vp[0 .. n - 1], tmp[0 .. n - 1];
 */
static double impact_vplus(size_t n, size_t m, size_t d, const double *M, const double *mu,
                           const double *vm, const double *X, double *lam, double *vp,
                           double *tmp)
{
    size_t K = 3 * m;
    /*@ assert n * K == 3 * m * n; */
    cone_lam(m, d, mu, lam);
    matvec(n, K, X, lam, vp);
    axpy(n, 1.0, vm, vp);
    return energy(n, M, vp, tmp);
}

/* The case where a contact penetrates: the a priori bound, step and cap (nsm_impact_bound,
   Frank–Wolfe's scratch the 12m from um, spent before the integration starts), the extremal
   gain, the integration, then Λ, v+ and its energy (impact_vplus). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires valid_in: \valid_read(M + (0 .. n * n - 1)) && \valid_read(mu + (0 .. m - 1)) &&
                       \valid_read(vm + (0 .. n - 1));
    requires pol: pol_ready(m, pol);
    requires pol_vdir: pol->kind != NSM_POLICY_EXTREMAL_V ||
                       \valid_read(pol->vdir + (0 .. n - 1));
    requires opts: \valid_read(opts) && 1 <= opts->steps <= 1000000 &&
                   1 <= opts->fw_iters <= 1000000 && 1 <= opts->fallback_steps <= 100000000;
    requires valid_W: \valid_read(W + (0 .. 9 * m * m - 1)) &&
                      \valid_read(X + (0 .. 3 * m * n - 1));
    requires vecs: \valid_read(v) && vecs_ok(v, m) && \valid(v->um + (0 .. 12 * m - 1));
    requires valid_out: \valid(vp + (0 .. n - 1)) && \valid(tmp + (0 .. n - 1)) &&
                        \valid(inf) && \valid(wedge);
    requires sep_inf: \separated(inf, pol) && \separated(inf, opts) &&
                      \separated(inf, v->u + (0 .. 3 * m - 1)) &&
                      \separated(inf, v->lam + (0 .. 3 * m - 1)) &&
                      \separated(inf, v->lh + (0 .. 3 * m - 1)) &&
                      \separated(inf, v->rate + (0 .. 3 * m - 1)) &&
                      \separated(inf, v->um + (0 .. 12 * m - 1)) &&
                      \separated(inf, v->w + (0 .. m - 1)) &&
                      \separated(inf, v->wraw + (0 .. m - 1)) &&
                      \separated(inf, v->gain + (0 .. 3 * m - 1)) &&
                      \separated(inf, v->ls + (0 .. 3 * m - 1)) &&
                      \separated(inf, v->rs + (0 .. 3 * m - 1)) &&
                      \separated(inf, vp + (0 .. n - 1)) && \separated(inf, tmp + (0 .. n - 1));
    requires sep_wedge: \separated(wedge, inf) && \separated(wedge, pol) &&
                        \separated(wedge, opts) && \separated(wedge, v->um + (0 .. 12 * m - 1));
    assigns *inf, *wedge, v->u[0 .. 3 * m - 1], v->lam[0 .. 3 * m - 1],
            v->lh[0 .. 3 * m - 1], v->rate[0 .. 3 * m - 1], v->um[0 .. 12 * m - 1],
            v->ls[0 .. 3 * m - 1], v->rs[0 .. 3 * m - 1], v->w[0 .. m - 1],
            v->wraw[0 .. m - 1], v->gain[0 .. 3 * m - 1], vp[0 .. n - 1], tmp[0 .. n - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_BOUND ||
                    \result == NSM_ERR_NO_CONVERGENCE;
    ensures steps: inf->steps <= inf->step_cap;
    ensures bound: \result == NSM_OK && inf->has_bound ==> inf->s <= inf->bound;
    ensures wedge: *wedge == 0 || *wedge == 1;
 */
static nsm_status impact_run(size_t n, size_t m, size_t d, const double *M, const double *mu,
                             const double *vm, const nsm_impact_policy *pol,
                             const nsm_impact_opts *opts, const double *W, const double *X,
                             const impact_vecs *v, double *vp, double *tmp,
                             nsm_impact_info *inf, int *wedge)
{
    double h = nsm_impact_bound(m, d, mu, opts, W, v->u, v->um, inf, wedge);
    extremal_gain(n, m, pol, W, X, v->gain);
    nsm_status rs = nsm_impact_integrate(m, d, pol, W, mu, h, opts->steps, opts->ztol,
                                         opts->slip_rest, opts->ntol, v, inf);
    inf->energy_plus = impact_vplus(n, m, d, M, mu, vm, X, v->lam, vp, tmp);
    return rs;
}

/* The fields of *inf known before the run: no steps yet (s, steps, forced, step_cap 0),
   terminated, both energies that of v-, and check_tol = max(ntol, vtol (1 + max_c |u_n,c|)).
   Returns 0 when the energy or the tolerance is not finite. tmp (n) is scratch. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(M + (0 .. n * n - 1)) && \valid_read(vm + (0 .. n - 1)) &&
             \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(opts);
    requires \valid(tmp + (0 .. n - 1)) && \valid(inf) && \separated(inf, tmp + (0 .. n - 1));
    assigns tmp[0 .. n - 1], *inf;
    ensures \result == 0 || \result == 1;
    ensures start: inf->s == 0 && inf->steps == 0 && inf->step_cap == 0;
 */
static int impact_start(size_t n, size_t m, const double *M, const double *vm, const double *u,
                        const nsm_impact_opts *opts, double *tmp, nsm_impact_info *inf)
{
    inf->s = 0.0;
    inf->steps = 0;
    inf->forced = 0;
    inf->step_cap = 0;
    inf->terminated = 1;
    inf->energy_minus = energy(n, M, vm, tmp);
    inf->energy_plus = inf->energy_minus;
    double ct = opts->vtol * (1.0 + max_abs_normal(m, u));
    inf->check_tol = ct > opts->ntol ? ct : opts->ntol;
    const double e[2] = {inf->energy_minus, inf->check_tol};
    return nsm_all_finite(2, e);
}

/* Nothing penetrates: v+ = v-, Λ = 0 (lam, 3m), no bound (bound 0). */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(vm + (0 .. n - 1)) && \valid(vp + (0 .. n - 1)) &&
             \valid(lam + (0 .. 3 * m - 1)) && \valid(inf);
    requires \separated(inf, vp + (0 .. n - 1)) && \separated(inf, lam + (0 .. 3 * m - 1));
    assigns vp[0 .. n - 1], lam[0 .. 3 * m - 1], inf->bound, inf->gamma_lb, inf->fw_gap,
            inf->has_bound;
    ensures inf->bound == 0 && inf->has_bound == 0;
 */
static void impact_at_rest(size_t n, size_t m, const double *vm, double *vp, double *lam,
                           nsm_impact_info *inf)
{
    inf->bound = 0.0;
    inf->gamma_lb = 0.0;
    inf->fw_gap = 0.0;
    inf->has_bound = 0;
    zero_vec(3 * m, lam);
    copy_vec(n, vm, vp);
}

/* What NSM_OK promises of a solved impact (the valid_args clauses of nsm_impact_solve):
   info->steps within info->step_cap, every row of Jn separating at v+ to within check_tol
   (nsm_rows_sep), the impulse s within its bound, and each contact's impulse in its cone. */
/*@ predicate impact_solved(integer n, integer m, integer d, double *Jn, double *mu,
                            double *vp, double *Lam, nsm_impact_info *info) =
      info->steps <= info->step_cap && nsm_rows_sep(Jn, vp, m, n, info->check_tol) &&
      info->s <= info->bound &&
      \forall integer c; 0 <= c < m ==>
        nsm_in_cone_tol(d, mu[c], 0.0, Lam[(d + 1) * c + d], Lam + (d + 1) * c);
 */

/* Everything after impact_prepare: the bound, the integration, v+ and the final check. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires valid_in: \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1)) &&
                       \valid_read(mu + (0 .. m - 1)) && \valid_read(vm + (0 .. n - 1));
    requires valid_pol: \valid_read(pol) && \valid_read(opts);
    requires pol: pol_ready(m, pol);
    requires pol_vdir: pol->kind != NSM_POLICY_EXTREMAL_V ||
                       \valid_read(pol->vdir + (0 .. n - 1));
    requires opts: 1 <= opts->steps <= 1000000 && 1 <= opts->fw_iters <= 1000000 &&
                   1 <= opts->fallback_steps <= 100000000 && opts->ntol >= 0 && opts->vtol >= 0;
    requires valid_out: \valid(vp + (0 .. n - 1)) && \valid(Lam + (0 .. (d + 1) * m - 1)) &&
                        \valid(info);
    requires valid_work: \valid(work + (0 .. nsm_impact_need(n, m) - 1));
    requires sep: \separated(info, work + (0 .. nsm_impact_need(n, m) - 1)) &&
                  \separated(info, vp + (0 .. n - 1)) &&
                  \separated(info, Lam + (0 .. (d + 1) * m - 1));
    assigns work[0 .. nsm_impact_need(n, m) - 1], vp[0 .. n - 1],
            Lam[0 .. (d + 1) * m - 1], *info;
    ensures status: \result == NSM_OK || \result == NSM_ERR_OVERFLOW ||
                    \result == NSM_ERR_BOUND || \result == NSM_ERR_NO_CONVERGENCE ||
                    \result == NSM_ERR_NO_BOUND || \result == NSM_ERR_NOT_CERTIFIED;
    ensures solved: \result == NSM_OK ==> impact_solved(n, m, d, Jn, mu, vp, Lam, info);
 */
static nsm_status impact_core(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                              const double *mu, const double *vm, const nsm_impact_policy *pol,
                              const nsm_impact_opts *opts, double *vp, double *Lam,
                              nsm_impact_info *info, double *work)
{
    lemma_dims(n, m);
    size_t K = 3 * m;
    /*@ assert K * n == 3 * m * n && K * K == 9 * m * m; */
    double *X = work + n * n + K * n;
    double *W = X + K * n;
    double *u = W + K * K;
    impact_vecs v;
    carve_vecs(m, u, &v);
    double *tmp = v.wraw + m;
    nsm_impact_info inf;
    if (!impact_start(n, m, M, vm, u, opts, tmp, &inf)) {
        return NSM_ERR_OVERFLOW; /* the bound (energy) or the final check has no meaning */
    }
    /* Moreau's run: the simultaneous policy with ratios from Moreau's impulse (m <=
       NSM_MAX_DIM / 3 of them); Gauss–Seidel's impulse in ls (scratch until the run) */
    double ratios[NSM_MAX_DIM / 3];
    nsm_impact_policy moreau = {NSM_POLICY_SIMULTANEOUS, NULL, ratios, 0, 1, NULL, NULL, NULL};
    if (pol->kind == NSM_POLICY_MOREAU) {
        nsm_impact_moreau(m, W, u, mu, v.ls, ratios);
        pol = &moreau;
    }
    nsm_status rs = NSM_OK;
    int wedge = 0;
    int trivial = nsm_impact_count_pen(m, u, opts->ntol) == 0;
    if (trivial) {
        impact_at_rest(n, m, vm, vp, v.lam, &inf);
    } else {
        rs = impact_run(n, m, d, M, mu, vm, pol, opts, W, X, &v, vp, tmp, &inf, &wedge);
    }
    pack_lambda(m, d, v.lam, Lam);
    rs = impact_finish(n, m, d, Jn, mu, vp, Lam, rs, &inf, info);
    if (rs != NSM_ERR_OVERFLOW && !trivial && !inf.has_bound) {
        return wedge ? NSM_ERR_NO_BOUND : NSM_ERR_NOT_CERTIFIED;
    }
    return rs;
}

/* nsm_impact_solve once the pointers are non-NULL and d, n and m in range: the workspace
   size, overlaps, options and policy, data; then prepare and the rest (impact_core). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires valid_in: \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1)) &&
                       \valid_read(Jt + (0 .. d * m * n - 1)) && \valid_read(mu + (0 .. m - 1)) &&
                       \valid_read(v_minus + (0 .. n - 1));
    requires valid_pol: pol_readable(m, pol);
    requires valid_vdir: pol->kind != NSM_POLICY_EXTREMAL_V || pol->vdir == \null ||
                         \valid_read(pol->vdir + (0 .. n - 1));
    requires valid_opts: opts == \null || \valid_read(opts);
    requires valid_out: \valid(v_plus + (0 .. n - 1)) && \valid(Lambda + (0 .. (d + 1) * m - 1)) &&
                        \valid(info);
    requires valid_work: lwork == 0 || \valid(work + (0 .. lwork - 1));
    requires sep_info: \separated(info, v_plus + (0 .. n - 1)) &&
                       \separated(info, Lambda + (0 .. (d + 1) * m - 1)) &&
                       (lwork == 0 || \separated(info, work + (0 .. lwork - 1))) &&
                       \separated(info, pol) && (opts == \null || \separated(info, opts));
    assigns *info, v_plus[0 .. n - 1], Lambda[0 .. (d + 1) * m - 1], work[0 .. lwork - 1];
    ensures short_work: nsm_impact_need(n, m) <= NSM_MAX_DIM * NSM_MAX_DIM &&
                        lwork < nsm_impact_need(n, m) ==> \result == NSM_ERR_WORKSPACE;
    ensures solved: \result == NSM_OK ==>
                    impact_solved(n, m, d, Jn, mu, v_plus, Lambda, info);
 */
static nsm_status impact_checked(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                                 const double *Jt, const double *mu, const double *v_minus,
                                 const nsm_impact_policy *pol, const nsm_impact_opts *opts,
                                 double *v_plus, double *Lambda, nsm_impact_info *info,
                                 double *work, size_t lwork)
{
    size_t need = nsm_impact_work(n, m);
    if (need == 0) {
        return NSM_ERR_SIZE;
    }
    if (lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    if (nsm_impact_aliased(n, m, d, M, Jn, Jt, mu, v_minus, pol, opts, v_plus, Lambda, work, need,
                           info)) {
        return NSM_ERR_ALIAS;
    }
    /* a local copy (the defaults for opts = NULL): the options stay what was validated while
       the workspace is written */
    nsm_impact_opts o = NSM_IMPACT_OPTS_DEFAULT;
    if (opts != NULL) {
        o = *opts;
    }
    nsm_status st = nsm_impact_check_policy(m, pol, &o);
    if (st != NSM_OK) {
        return st;
    }
    st = nsm_impact_check_data(n, m, d, M, Jn, Jt, mu, v_minus);
    if (st != NSM_OK) {
        return st;
    }
    if (pol->kind == NSM_POLICY_EXTREMAL_V && !nsm_all_finite(n, pol->vdir)) {
        return NSM_ERR_NOT_FINITE; /* the direction is data, like v_minus */
    }
    st = impact_prepare(n, m, d, M, Jn, Jt, v_minus, work);
    if (st != NSM_OK) {
        return st;
    }
    return impact_core(n, m, d, M, Jn, mu, v_minus, pol, &o, v_plus, Lambda, info, work);
}

/* 1 if the result struct *res overlaps *prob, *pol, *opts, an array of the problem, the
   outputs, the first need doubles of the work, or the array of the policy that its kind
   reads (impact_checked checks res->info again, with the other overlaps). Only addresses
   are compared: nothing is read but *prob's pointers (given), *res's and *pol. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires need <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(prob) && \valid_read(res) && \valid_read(pol);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int result_aliased(const nsm_contact_problem *prob, const nsm_impact_policy *pol,
                          const nsm_impact_opts *opts, const nsm_impact_result *res, size_t n,
                          size_t m, size_t d, size_t need, const double *work)
{
    /*@ assert n * n <= NSM_MAX_DIM * NSM_MAX_DIM; */
    /*@ assert m * n <= NSM_MAX_DIM * NSM_MAX_DIM; */
    const size_t b = sizeof(double);
    const size_t nn = n * n;
    const size_t mn = m * n;
    const size_t nt = d == 1 ? mn : 2 * mn;    /* Jt: d·m·n */
    const size_t nl = d == 1 ? 2 * m : 3 * m; /* Lambda: (d+1)·m */
    const nsm_policy_kind k = pol->kind;
    const int ord = k == NSM_POLICY_SEQUENTIAL || k == NSM_POLICY_PRIORITY ||
                    k == NSM_POLICY_SCHEDULE;
    const nsm_span out[1] = {{(uintptr_t)res, sizeof *res}};
    const nsm_span in[16] = {
        {(uintptr_t)prob->M, nn * b},
        {(uintptr_t)prob->Jn, mn * b},
        {(uintptr_t)prob->Jt, nt * b},
        {(uintptr_t)prob->mu, m * b},
        {(uintptr_t)prob->v_minus, n * b},
        {(uintptr_t)res->v_plus, n * b},
        {(uintptr_t)res->Lambda, nl * b},
        {(uintptr_t)work, need * b},
        {(uintptr_t)prob, sizeof *prob},
        {(uintptr_t)pol, sizeof *pol},
        {(uintptr_t)opts, opts != NULL ? sizeof *opts : 0},
        {(uintptr_t)pol->order, ord ? m * sizeof(size_t) : 0},
        {(uintptr_t)pol->ratios, k == NSM_POLICY_SIMULTANEOUS ? m * b : 0},
        {(uintptr_t)pol->dir, k == NSM_POLICY_EXTREMAL ? 3 * m * b : 0},
        {(uintptr_t)pol->vdir, k == NSM_POLICY_EXTREMAL_V ? n * b : 0},
        {(uintptr_t)pol->dwell, k == NSM_POLICY_SCHEDULE ? m * b : 0}};
    return nsm_spans_overlap(1, out, 16, in);
}

nsm_status nsm_impact_solve(const nsm_contact_problem *prob, const nsm_impact_policy *pol,
                            const nsm_impact_opts *opts, nsm_impact_result *res, double *work,
                            size_t lwork)
{
    if (prob == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    size_t n = prob->n;
    size_t m = prob->m;
    size_t d = prob->d;
    if (prob->M == NULL || prob->Jn == NULL || prob->Jt == NULL || prob->mu == NULL ||
        prob->v_minus == NULL || pol == NULL || res->v_plus == NULL || res->Lambda == NULL ||
        work == NULL) {
        return NSM_ERR_NULL;
    }
    if (d != 1 && d != 2) {
        return NSM_ERR_ARG;
    }
    if (n == 0 || n > NSM_MAX_DIM || m == 0 || m > NSM_MAX_DIM / 3) {
        return NSM_ERR_SIZE;
    }
    size_t need = nsm_impact_work(n, m);
    if (need != 0 && lwork >= need &&
        result_aliased(prob, pol, opts, res, n, m, d, need, work)) {
        return NSM_ERR_ALIAS;
    }
    nsm_status st = impact_checked(n, m, d, prob->M, prob->Jn, prob->Jt, prob->mu,
                                   prob->v_minus, pol, opts, res->v_plus, res->Lambda,
                                   &res->info, work, lwork);
    /*@ assert kept: prob->n == n && prob->m == m && prob->d == d &&
                     prob->Jn == \at(prob->Jn, Pre) && prob->mu == \at(prob->mu, Pre) &&
                     res->v_plus == \at(res->v_plus, Pre) &&
                     res->Lambda == \at(res->Lambda, Pre); */
    /*@ assert cones: st == NSM_OK ==> \forall integer c; 0 <= c < prob->m ==>
                nsm_in_cone_tol(prob->d, prob->mu[c], 0.0,
                                res->Lambda[(prob->d + 1) * c + prob->d],
                                res->Lambda + (prob->d + 1) * c); */
    return st;
}
