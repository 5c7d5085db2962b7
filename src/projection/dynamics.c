/* The per-cycle dynamics call: q̈ and f_c, docs/math.md (P12), (P13); [D] eqs. 27 (corrected),
   29. A⁺ and P by the factorisation (P23)–(P24); M̄⁻¹P by the range-space route (P28)–(P31)
   or through M̄ (P25). */
#include "nsmech/projection.h"
#include "internal.h"
#include "../linalg/internal.h"

/* Workspace layout (doubles), all blocks disjoint (r <= min(n, m) rows of the m-row blocks
   are used):
   Yt m·n  Yᵀ, orthonormal rows spanning range(Aᵀ)
   Ut m·n  YᵀM (M̄), Xᵀ = YᵀL⁻ᵀ (range-space route)
   Gt m·n  Gᵀ (M̄), YᵀL (range-space trace)
   H  m·m  YᵀMY (M̄), the factor of XᵀX (range-space)
   S  m·m  S of A⁺ = Y S⁻ᵀ V₂ᵀ / a                       V2t m·m V₂ᵀ
   Mb n·n  M̄ (for the M̄ output or the M̄ route)
   L  n·n  Cholesky factor of M (range-space) or of M̄     V 9·n  vectors
   Z  3·m  vectors (Λq̇ and Λᵀq̇ first; then λ and 1/diag of XᵀX's factor)
   then the workspace of nsm_lq_factor(m, n) (2mn + m² + 3m). */
size_t nsm_proj_dynamics_work(size_t n, size_t m)
{
    if (!nsm_dim_ok(n) || !nsm_dim0_ok(m)) {
        return 0;
    }
    size_t w = nsm_lq_factor_work(m, n);
    size_t own = 3u * n * m + 3u * m * m + 2u * n * n + 9u * n + 3u * m;
    return w + own;
}

/* 1 if an output (q̈, f_c, P, M̄: lengths 0 when absent), the used workspace [work, work +
   need) or *info (written last) overlaps an input or another of them. Only addresses are
   compared. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM;
    requires lens: (lfc == 0 || lfc == n) && (lp == 0 || lp == n*n) && (lmb == 0 || lmb == n*n) &&
                   need <= 16 * NSM_MAX_DIM * NSM_MAX_DIM;
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int dyn_alias(size_t n, size_t m, const double *M, const double *C, const double *A,
                     const double *Adot, const double *f, const double *fg, const double *qd,
                     const double *qdd, const double *fc, size_t lfc, const double *P, size_t lp,
                     const double *Mbar, size_t lmb, const double *work, size_t need,
                     const nsm_proj_info *info)
{
    const size_t b = sizeof(double);
    const size_t nn = n * n * b;
    const size_t la = n * m * b;
    const nsm_span out[6] = {{(uintptr_t)qdd, n * b},     {(uintptr_t)fc, lfc * b},
                             {(uintptr_t)P, lp * b},      {(uintptr_t)Mbar, lmb * b},
                             {(uintptr_t)work, need * b}, {(uintptr_t)info, sizeof *info}};
    const nsm_span in[7] = {{(uintptr_t)M, nn},   {(uintptr_t)C, nn},  {(uintptr_t)A, la},
                            {(uintptr_t)Adot, la}, {(uintptr_t)f, n * b}, {(uintptr_t)fg, n * b},
                            {(uintptr_t)qd, n * b}};
    return nsm_spans_overlap(6, out, 7, in);
}

/* 1 if every input of nsm_proj_dynamics is finite. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM;
    requires valid_in: \valid_read(M + (0 .. n*n - 1)) && \valid_read(C + (0 .. n*n - 1)) &&
                       \valid_read(f + (0 .. n - 1)) && \valid_read(fg + (0 .. n - 1)) &&
                       \valid_read(qd + (0 .. n - 1));
    requires valid_a: m == 0 || (\valid_read(A + (0 .. n*m - 1)) &&
                                 \valid_read(Adot + (0 .. n*m - 1)));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int dyn_finite(size_t n, size_t m, const double *M, const double *C, const double *A,
                      const double *Adot, const double *f, const double *fg, const double *qd)
{
    size_t nn = n * n;
    size_t nm = n * m;
    int ok = nsm_all_finite(nn, M);
    ok &= nsm_all_finite(nn, C);
    ok &= nsm_all_finite(nm, A);
    ok &= nsm_all_finite(nm, Adot);
    ok &= nsm_all_finite(n, f);
    ok &= nsm_all_finite(n, fg);
    ok &= nsm_all_finite(n, qd);
    return ok != 0 ? 1 : 0;
}

/* μ from tr(PMP) = tr(M) − tr(YᵀMY), then M̄ = PMP + μQ by the rank-2r update (lowrank.c)
   into Mb: the M̄ output, and the matrix the M̄ route factors. Ut, Gt and H are scratch. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && r <= n;
    requires valid_M: \valid_read(M + (0 .. n*n - 1));
    requires valid_r: r == 0 || (\valid_read(Yt + (0 .. r*n - 1)) && \valid(Ut + (0 .. r*n - 1)) &&
                                 \valid(Gt + (0 .. r*n - 1)) && \valid(H + (0 .. r*r - 1)));
    requires valid_Mb: \valid(Mb + (0 .. n*n - 1));
    requires valid_out: \valid(mu_out);
    assigns *mu_out, Ut[0 .. r*n - 1], Gt[0 .. r*n - 1], H[0 .. r*r - 1], Mb[0 .. n*n - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_SPD;
    ensures mu_pos: \result == NSM_OK ==> *mu_out > 0;
 */
static nsm_status dyn_mbar(size_t n, size_t r, const double *M, const double *Yt,
                           nsm_mu_mode mode, double mu, double *Ut, double *Gt, double *H,
                           double *Mb, double *mu_out)
{
    nsm_proj_i_gram_m(n, r, M, Yt, Ut, H);
    double trm = nsm_proj_i_trace(n, M);
    double muv = 0.0;
    nsm_status st = nsm_proj_i_choose_mu(n, r, trm - nsm_proj_i_trace(r, H), trm, mode, mu,
                                         &muv);
    if (st != NSM_OK) {
        return st;
    }
    nsm_proj_i_mbar_update(n, r, M, Yt, Ut, H, muv, Gt, Mb);
    *mu_out = muv;
    return NSM_OK;
}

/* The range-space route (rangespace.c): L holds the Cholesky factor of M; μ from
   tr(YᵀMY) = ‖YᵀL‖²_F (T is scratch), the factors X = L⁻¹Y and chol(XᵀX) into Xt, K, kdinv,
   then q̈ and f_c into V. NSM_ERR_NOT_SPD if XᵀX is not numerically positive definite (the caller then takes
   the M̄ route). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && r <= n;
    requires valid_n: \valid_read(M + (0 .. n*n - 1)) && \valid_read(C + (0 .. n*n - 1)) &&
                      \valid_read(L + (0 .. n*n - 1));
    requires valid_v: \valid_read(f + (0 .. n - 1)) && \valid_read(fg + (0 .. n - 1)) &&
                      \valid_read(qd + (0 .. n - 1));
    requires valid_r: r == 0 || (\valid_read(Yt + (0 .. r*n - 1)) && \valid(Xt + (0 .. r*n - 1)) &&
                                 \valid(T + (0 .. r*n - 1)) && \valid(K + (0 .. r*r - 1)) &&
                                 \valid(kdinv + (0 .. r - 1)) && \valid(lam + (0 .. r - 1)));
    requires valid_V: \valid(V + (0 .. 9*n - 1));
    requires sep: r == 0 || \separated(lam + (0 .. r - 1), V + (0 .. 9*n - 1));
    requires valid_out: \valid(mu_out);
    assigns *mu_out, Xt[0 .. r*n - 1], T[0 .. r*n - 1], K[0 .. r*r - 1], kdinv[0 .. r - 1],
            lam[0 .. r - 1], V[2*n .. 9*n - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_SPD ||
                    \result == NSM_ERR_NOT_FINITE;
    ensures mu_pos: \result == NSM_OK ==> *mu_out > 0;
 */
static nsm_status dyn_range(size_t n, size_t r, const double *M, const double *C,
                            const double *f, const double *fg, const double *qd,
                            const double *Yt, const double *L, nsm_mu_mode mode, double mu,
                            int want_fc, double *Xt, double *T, double *K, double *kdinv,
                            double *lam, double *V, double *mu_out)
{
    double trm = nsm_proj_i_trace(n, M);
    double muv = 0.0;
    nsm_status st = nsm_proj_i_choose_mu(n, r, trm - nsm_proj_i_rs_trace(n, r, L, Yt, T), trm,
                                         mode, mu, &muv);
    if (st != NSM_OK) {
        return st;
    }
    if (r > 0u) {
        if (!nsm_proj_i_rs_factor(n, r, L, Yt, Xt, K, kdinv)) {
            return NSM_ERR_NOT_SPD;
        }
    }
    st = nsm_proj_i_rs_accel(n, r, M, C, f, fg, qd, Yt, L, Xt, K, kdinv, want_fc, V, lam);
    if (st != NSM_OK) {
        return st;
    }
    *mu_out = muv;
    return NSM_OK;
}

/* lq = Λq̇ = −A⁺(Ȧq̇) and lt = Λᵀq̇ = −Ȧᵀ(A⁺ᵀq̇), A⁺ applied in factored form (scaled by
   ainv = 1/a); Z = [za, zb, t] (3m) is scratch. Zero vectors for m = 0. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM && r <= m && r <= n;
    requires valid_qd: \valid_read(qd + (0 .. n - 1));
    requires valid_m: m == 0 || (\valid_read(Adot + (0 .. m*n - 1)) && \valid(Z + (0 .. 3*m - 1)));
    requires valid_f: r == 0 || (\valid_read(Yt + (0 .. r*n - 1)) &&
                                 \valid_read(S + (0 .. r*m - 1)) &&
                                 \valid_read(V2t + (0 .. r*m - 1)));
    requires valid_out: \valid(lq + (0 .. n - 1)) && \valid(lt + (0 .. n - 1));
    requires sep: \separated(lq + (0 .. n - 1), lt + (0 .. n - 1));
    assigns lq[0 .. n - 1], lt[0 .. n - 1], Z[0 .. 3*m - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_RANK;
 */
static nsm_status dyn_rates(size_t n, size_t m, size_t r, double ainv, const double *Yt,
                            const double *S, const double *V2t, const double *Adot,
                            const double *qd, double *lq, double *lt, double *Z)
{
    if (m == 0u) {
        nsm_vec_zero(n, lq);
        nsm_vec_zero(n, lt);
        return NSM_OK;
    }
    double *za = Z;
    double *zb = Z + m;
    double *t = Z + 2u * m;
    nsm_mat_vec(0, m, n, 1.0, Adot, qd, za);
    nsm_status st = nsm_lq_pinv_vec(0, m, n, r, -ainv, Yt, S, V2t, za, t, lq);
    if (st != NSM_OK) {
        return st;
    }
    st = nsm_lq_pinv_vec(1, m, n, r, ainv, Yt, S, V2t, qd, t, zb);
    if (st != NSM_OK) {
        return st;
    }
    nsm_mat_vec(1, m, n, -1.0, Adot, zb, lt);
    return NSM_OK;
}

/* q̈ into V + 7n and f_c into V + 8n (when want_fc), and μ: by the range-space route when M
   is positive definite (spd, L its Cholesky factor) and the route is usable, else by M̄ and
   its Cholesky factor (in L); M̄ into Mb also when want_mbar. Ut, Gt, H, za, zb and zc are
   scratch. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && r <= n;
    requires valid_n: \valid_read(M + (0 .. n*n - 1)) && \valid_read(C + (0 .. n*n - 1)) &&
                      \valid(L + (0 .. n*n - 1)) && \valid(Mb + (0 .. n*n - 1));
    requires valid_v: \valid_read(f + (0 .. n - 1)) && \valid_read(fg + (0 .. n - 1)) &&
                      \valid_read(qd + (0 .. n - 1));
    requires valid_r: r == 0 || (\valid_read(Yt + (0 .. r*n - 1)) && \valid(Ut + (0 .. r*n - 1)) &&
                                 \valid(Gt + (0 .. r*n - 1)) && \valid(H + (0 .. r*r - 1)) &&
                                 \valid(za + (0 .. r - 1)) && \valid(zb + (0 .. r - 1)) &&
                                 \valid(zc + (0 .. r - 1)));
    requires valid_V: \valid(V + (0 .. 9*n - 1));
    requires sep: r == 0 || \separated(za + (0 .. r - 1), V + (0 .. 9*n - 1));
    requires valid_out: \valid(mu_out);
    requires sep_mu: \separated(mu_out, L + (0 .. n*n - 1), V + (0 .. 9*n - 1)) &&
                     (r == 0 || \separated(mu_out, zc + (0 .. r - 1)));
    assigns *mu_out, Ut[0 .. r*n - 1], Gt[0 .. r*n - 1], H[0 .. r*r - 1], za[0 .. r - 1],
            zb[0 .. r - 1], zc[0 .. r - 1], Mb[0 .. n*n - 1], L[0 .. n*n - 1],
            V[2*n .. 9*n - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_SPD ||
                    \result == NSM_ERR_NOT_FINITE;
    ensures mu_pos: \result == NSM_OK ==> *mu_out > 0;
 */
static nsm_status dyn_accel(size_t n, size_t r, const double *M, const double *C,
                            const double *f, const double *fg, const double *qd,
                            const double *Yt, nsm_mu_mode mode, double mu_given, int spd,
                            int want_fc, int want_mbar, double *Ut, double *Gt, double *H,
                            double *Mb, double *L, double *V, double *za, double *zb,
                            double *zc, double *mu_out)
{
    nsm_status st = NSM_ERR_NOT_SPD;
    if (spd && nsm_proj_i_rs_usable(n, M, L)) {
        st = dyn_range(n, r, M, C, f, fg, qd, Yt, L, mode, mu_given, want_fc, Ut, Gt, H, zb,
                       za, V, mu_out);
        if (st == NSM_ERR_NOT_FINITE) {
            return st;
        }
    }
    /* M̄ when the caller asks for it or the M̄ route is taken (M only semidefinite with
       check_spd = 0, or XᵀX not numerically definite). */
    if (st != NSM_OK || want_mbar) {
        nsm_status sm = dyn_mbar(n, r, M, Yt, mode, mu_given, Ut, Gt, H, Mb, mu_out);
        if (sm != NSM_OK) {
            return sm;
        }
    }
    if (st != NSM_OK) {
        nsm_vec_copy(n * n, Mb, L);
        if (!nsm_chol_factor_lower(n, L)) {
            return NSM_ERR_NOT_SPD;
        }
        return nsm_proj_i_accel(n, r, M, C, f, fg, qd, Yt, L, want_fc, V, zc);
    }
    return NSM_OK;
}

/* The last writes of nsm_proj_dynamics: the optional P = I − YYᵀ (formed only here) and M̄
   (Mb is exactly symmetric; the mirrored copy makes that provable for the output), then info.
   A small function, so that the symmetry clauses are proved in a small context. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && r <= n;
    requires valid_Yt: r == 0 || \valid_read(Yt + (0 .. r*n - 1));
    requires valid_in: \valid_read(Mb + (0 .. n*n - 1));
    requires valid_P: P == \null || \valid(P + (0 .. n*n - 1));
    requires valid_Mbar: Mbar == \null || \valid(Mbar + (0 .. n*n - 1));
    requires valid_info: \valid(info);
    assigns P[0 .. n*n - 1], Mbar[0 .. n*n - 1], info->rank, info->mu;
    ensures info: info->rank == r && info->mu == mu;
    ensures sym_P: P != \null && \separated(&info->mu, P + (0 .. n*n - 1)) &&
                   (Mbar == \null || \separated(P + (0 .. n*n - 1), Mbar + (0 .. n*n - 1))) ==>
                   nsm_sym(P, n);
    ensures sym_Mbar: Mbar != \null && \separated(&info->mu, Mbar + (0 .. n*n - 1)) ==>
                      nsm_sym(Mbar, n);
 */
static void dyn_outputs(size_t n, const double *Yt, const double *Mb, size_t r, double mu,
                        double *P, double *Mbar, nsm_proj_info *info)
{
    if (P != NULL) {
        nsm_proj_i_eye_minus_gram(n, r, Yt, P);
    }
    if (Mbar != NULL) {
        nsm_proj_i_sym_copy(n, Mb, Mbar);
    }
    info->rank = r;
    info->mu = mu;
}

/* Options in their domain. */
int nsm_proj_i_opts_ok(const nsm_proj_opts *o)
{
    if (!nsm_proj_i_rtol_ok(o->rank_rtol) || !nsm_proj_i_mu_ok(o->mu_mode, o->mu)) {
        return 0;
    }
    if (!(o->sym_rtol >= 0.0) || !nsm_all_finite(1, &o->sym_rtol)) {
        return 0;
    }
    return 1;
}

/* The value checks of nsm_proj_dynamics on non-null arguments of valid size, in the order
   of its error list (nothing is written). NSM_OK means the preconditions of dyn_run hold. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM;
    requires valid_in: \valid_read(M + (0 .. n*n - 1)) && \valid_read(C + (0 .. n*n - 1)) &&
                       \valid_read(f + (0 .. n - 1)) && \valid_read(fg + (0 .. n - 1)) &&
                       \valid_read(qd + (0 .. n - 1));
    requires valid_a: m == 0 || (\valid_read(A + (0 .. m*n - 1)) &&
                                 \valid_read(Adot + (0 .. m*n - 1)));
    requires valid_opts: opts == \null || \valid_read(opts);
    requires valid_out: \valid_read(qdd + (0 .. n - 1)) &&
                        (fc == \null || \valid_read(fc + (0 .. n - 1))) &&
                        (P == \null || \valid_read(P + (0 .. n*n - 1))) &&
                        (Mbar == \null || \valid_read(Mbar + (0 .. n*n - 1)));
    requires valid_work: \valid_read(work + (0 .. lwork - 1));
    assigns \nothing;
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                    \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                    \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NOT_SPD;
    ensures bad_opts: opts != \null && (!(0 <= opts->rank_rtol < 1) ||
                        !(opts->sym_rtol >= 0) ||
                        (opts->mu_mode != NSM_MU_OPTIMAL && opts->mu_mode != NSM_MU_GIVEN) ||
                        (opts->mu_mode == NSM_MU_GIVEN && !(opts->mu > 0)))
                      ==> \result == NSM_ERR_ARG;
    ensures room: \result == NSM_OK ==>
                  3*n*m + 3*m*m + 2*n*n + 9*n + 3*m + 2*m*n + m*m + 3*m <= lwork;
    ensures workspace: \result == NSM_ERR_WORKSPACE ==> lwork < nsm_proj_dynamics_lwork(n, m);
    ensures opts_ok: \result == NSM_OK && opts != \null ==>
                     0 <= opts->rank_rtol < 1 &&
                     (opts->mu_mode == NSM_MU_OPTIMAL || opts->mu_mode == NSM_MU_GIVEN) &&
                     (opts->mu_mode == NSM_MU_GIVEN ==> opts->mu > 0);
 */
static nsm_status dyn_check(size_t n, size_t m, const double *M, const double *C,
                            const double *A, const double *Adot, const double *f,
                            const double *fg, const double *qd, const nsm_proj_opts *opts,
                            const double *qdd, const double *fc, const nsm_proj_info *info,
                            const double *P, const double *Mbar, const double *work,
                            size_t lwork)
{
    nsm_proj_opts o = NSM_PROJ_OPTS_DEFAULT;
    if (opts != NULL) {
        o = *opts;
    }
    if (!nsm_proj_i_opts_ok(&o)) {
        return NSM_ERR_ARG;
    }
    size_t need = nsm_proj_dynamics_work(n, m);
    if (need == 0u || lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    size_t nn = n * n;
    size_t lfc = fc != NULL ? n : 0u;
    size_t lp = P != NULL ? nn : 0u;
    size_t lmb = Mbar != NULL ? nn : 0u;
    if (dyn_alias(n, m, M, C, A, Adot, f, fg, qd, qdd, fc, lfc, P, lp, Mbar, lmb, work, need,
                  info)) {
        return NSM_ERR_ALIAS;
    }
    if (!dyn_finite(n, m, M, C, A, Adot, f, fg, qd)) {
        return NSM_ERR_NOT_FINITE;
    }
    if (!nsm_is_symmetric(n, M, o.sym_rtol)) {
        return NSM_ERR_NOT_SPD;
    }
    return NSM_OK;
}

/* The computation of nsm_proj_dynamics on checked arguments: the workspace carved in one
   place, then the pipeline Cholesky of M (SPD check) → LQ of A → Λq̇, Λᵀq̇ → q̈ and f_c by
   the range-space route, or M̄ and its factor → outputs. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM;
    requires rtol: 0 <= rtol < 1;
    requires valid_in: \valid_read(M + (0 .. n*n - 1)) && \valid_read(C + (0 .. n*n - 1)) &&
                       \valid_read(f + (0 .. n - 1)) && \valid_read(fg + (0 .. n - 1)) &&
                       \valid_read(qd + (0 .. n - 1));
    requires valid_a: m == 0 || (\valid_read(A + (0 .. m*n - 1)) &&
                                 \valid_read(Adot + (0 .. m*n - 1)));
    requires valid_out: \valid(qdd + (0 .. n - 1)) && \valid(info) &&
                        (fc == \null || \valid(fc + (0 .. n - 1))) &&
                        (P == \null || \valid(P + (0 .. n*n - 1))) &&
                        (Mbar == \null || \valid(Mbar + (0 .. n*n - 1)));
    requires valid_work: \valid(work + (0 .. 3*n*m + 3*m*m + 2*n*n + 9*n + 3*m + 2*m*n + m*m + 3*m - 1));
    assigns qdd[0 .. n - 1], fc[0 .. n - 1], *info, P[0 .. n*n - 1], Mbar[0 .. n*n - 1],
            work[0 .. 3*n*m + 3*m*m + 2*n*n + 9*n + 3*m + 2*m*n + m*m + 3*m - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                    \result == NSM_ERR_NOT_SPD || \result == NSM_ERR_RANK;
    ensures info: \result == NSM_OK ==> info->rank <= n && info->rank <= m && info->mu > 0;
    ensures sym_P: \result == NSM_OK && P != \null &&
                   \separated(&info->mu, P + (0 .. n*n - 1)) &&
                   (Mbar == \null || \separated(P + (0 .. n*n - 1), Mbar + (0 .. n*n - 1))) ==>
                   nsm_sym(P, n);
    ensures sym_Mbar: \result == NSM_OK && Mbar != \null &&
                      \separated(&info->mu, Mbar + (0 .. n*n - 1)) ==> nsm_sym(Mbar, n);
 */
static nsm_status dyn_run(size_t n, size_t m, const double *M, const double *C,
                          const double *A, const double *Adot, const double *f,
                          const double *fg, const double *qd, double rtol, nsm_mu_mode mode,
                          double mu_given, int check_spd, double *qdd, double *fc,
                          nsm_proj_info *info, double *P, double *Mbar, double *work)
{
    size_t nn = n * n;
    size_t nm = n * m;
    /*@ assert bounds: nn <= NSM_MAX_DIM * NSM_MAX_DIM && nm <= NSM_MAX_DIM * NSM_MAX_DIM; */
    double *Yt = work;
    double *Ut = work + nm;
    double *Gt = work + 2u * nm;
    double *H = work + 3u * nm;
    double *S = work + (3u * nm + m * m);
    double *V2t = work + (3u * nm + 2u * m * m);
    double *Mb = work + (3u * nm + 3u * m * m);
    double *L = work + (3u * nm + 3u * m * m + nn);
    double *V = work + (3u * nm + 3u * m * m + 2u * nn);
    double *Z = work + (3u * nm + 3u * m * m + 2u * nn + 9u * n);
    double *W = work + (3u * nm + 3u * m * m + 2u * nn + 9u * n + 3u * m);
    /* SPD check of M, and the factor of the range-space route. */
    nsm_vec_copy(nn, M, L);
    int spd = nsm_chol_factor_lower(n, L);
    if (!spd && check_spd) {
        return NSM_ERR_NOT_SPD;
    }
    /* The pivoted LQ of A: rank, Y and the factors of A⁺; then Λq̇ and Λᵀq̇. */
    size_t r = 0;
    double ainv = 0.0;
    if (m > 0u) {
        nsm_status sl = nsm_lq_factor(m, n, A, rtol, &r, &ainv, Yt, S, V2t, W);
        if (sl != NSM_OK) {
            return sl;
        }
    }
    nsm_proj_vecs vs = nsm_proj_i_vecs(n, V);
    nsm_status st = dyn_rates(n, m, r, ainv, Yt, S, V2t, Adot, qd, vs.lq, vs.lt, Z);
    if (st != NSM_OK) {
        return st;
    }
    /* q̈ and f_c by the range-space route, or M̄ and its factor. */
    double mu = 0.0;
    st = dyn_accel(n, r, M, C, f, fg, qd, Yt, mode, mu_given, spd, fc != NULL, Mbar != NULL,
                   Ut, Gt, H, Mb, L, V, Z, Z + m, Z + 2u * m, &mu);
    if (st != NSM_OK) {
        return st;
    }
    nsm_vec_copy(n, vs.acc, qdd);
    if (fc != NULL) {
        nsm_vec_copy(n, vs.fc, fc);
    }
    dyn_outputs(n, Yt, Mb, r, mu, P, Mbar, info);
    return NSM_OK;
}

/* 1 if the result structure [s, s + bytes) shares a byte with an array of nsm_proj_dynamics
   (the outputs it points to, the workspace, the inputs; an absent output counts as empty).
   Only addresses are compared. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM;
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int dyn_res_hits(uintptr_t s, size_t bytes, size_t n, size_t m, const double *M,
                        const double *C, const double *A, const double *Adot, const double *f,
                        const double *fg, const double *qd, const double *qdd,
                        const double *fc, const double *P, const double *Mbar,
                        const double *work, size_t lwork)
{
    const size_t b = sizeof(double);
    const size_t nb = n * b;
    const size_t nn = n * n * b;
    const size_t la = n * m * b;
    const nsm_span arrays[12] = {{(uintptr_t)qdd, nb},
                                 {(uintptr_t)fc, fc != NULL ? nb : 0u},
                                 {(uintptr_t)P, P != NULL ? nn : 0u},
                                 {(uintptr_t)Mbar, Mbar != NULL ? nn : 0u},
                                 {(uintptr_t)work, NSM_PROJ_WORK_BYTES(lwork)},
                                 {(uintptr_t)M, nn},
                                 {(uintptr_t)C, nn},
                                 {(uintptr_t)A, la},
                                 {(uintptr_t)Adot, la},
                                 {(uintptr_t)f, nb},
                                 {(uintptr_t)fg, nb},
                                 {(uintptr_t)qd, nb}};
    return nsm_proj_i_struct_hits(s, bytes, 12u, arrays);
}

/* Null and size checks, the option and workspace checks, the result structure apart from
   every array of the call, the value checks, then the computation (nothing is written on an
   argument error). */
nsm_status nsm_proj_dynamics(const nsm_proj_problem *prob, const nsm_proj_opts *opts,
                             nsm_proj_dynamics_result *res, double *work, size_t lwork)
{
    if (prob == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    size_t n = prob->n;
    size_t m = prob->m;
    if (prob->M == NULL || prob->C == NULL || prob->f == NULL || prob->fg == NULL ||
        prob->qd == NULL || res->qdd == NULL || work == NULL ||
        (m > 0u && (prob->A == NULL || prob->Adot == NULL))) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n) || !nsm_dim0_ok(m)) {
        return NSM_ERR_SIZE;
    }
    /* The option and workspace checks of dyn_check first, so that the result structure's
       overlap comes in the order of the error list (after them). */
    if (opts != NULL && !nsm_proj_i_opts_ok(opts)) {
        return NSM_ERR_ARG;
    }
    size_t need = nsm_proj_dynamics_work(n, m);
    if (need == 0u || lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    if (dyn_res_hits((uintptr_t)res, sizeof *res, n, m, prob->M, prob->C, prob->A, prob->Adot,
                     prob->f, prob->fg, prob->qd, res->qdd, res->fc, res->P, res->Mbar, work,
                     lwork)) {
        return NSM_ERR_ALIAS;
    }
    nsm_status st = dyn_check(n, m, prob->M, prob->C, prob->A, prob->Adot, prob->f, prob->fg,
                              prob->qd, opts, res->qdd, res->fc, &res->info, res->P, res->Mbar,
                              work, lwork);
    if (st != NSM_OK) {
        return st;
    }
    nsm_proj_opts o = NSM_PROJ_OPTS_DEFAULT;
    if (opts != NULL) {
        o = *opts;
    }
    return dyn_run(n, m, prob->M, prob->C, prob->A, prob->Adot, prob->f, prob->fg, prob->qd,
                   o.rank_rtol, o.mu_mode, o.mu, o.check_spd, res->qdd, res->fc, &res->info,
                   res->P, res->Mbar, work);
}
