/*
 * Internal helpers of the projection module (not part of the public API): the symmetric
 * writers behind the "written symmetrically" guarantees, the argument checks and the steps of
 * the per-cycle call. The vector kernels are those of src/linalg/internal.h.
 */
#ifndef NSM_PROJECTION_INTERNAL_H
#define NSM_PROJECTION_INTERNAL_H

#include <stddef.h>
#include "nsmech/base.h"
#include "nsmech/projection.h"

/** out = c·(T + Tᵀ) + d·(Q + Qᵀ) (n×n). Entry (i, j), i >= j, is computed once and stored at
    (i, j) and (j, i), so out is exactly symmetric (proved unconditionally, even if out shares
    storage with T or Q); IEEE addition is commutative, so this equals the entrywise formula. */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid_read(T + (0 .. n*n - 1)) && \valid_read(Q + (0 .. n*n - 1));
    requires valid_out: \valid(out + (0 .. n*n - 1));
    assigns out[0 .. n*n - 1];
    ensures sym: nsm_sym(out, n);
 */
void nsm_proj_i_sym_plus(size_t n, const double *T, double c, double d, const double *Q,
                         double *out);

/** out = I − (Q + Qᵀ)/2 (n×n), written symmetrically in the same way. */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid_read(Q + (0 .. n*n - 1)) && \valid(out + (0 .. n*n - 1));
    assigns out[0 .. n*n - 1];
    ensures sym: nsm_sym(out, n);
 */
void nsm_proj_i_eye_minus(size_t n, const double *Q, double *out);

/** out = the lower triangle of X mirrored (n×n): a copy of X when X is exactly symmetric (as
    the writers above make it), and symmetric by construction in any case. */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid_read(X + (0 .. n*n - 1)) && \valid(out + (0 .. n*n - 1));
    assigns out[0 .. n*n - 1];
    ensures sym: nsm_sym(out, n);
 */
void nsm_proj_i_sym_copy(size_t n, const double *X, double *out);

/** out = X − Xᵀ (n×n), antisymmetric. */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid_read(X + (0 .. n*n - 1)) && \valid(out + (0 .. n*n - 1));
    assigns out[0 .. n*n - 1];
 */
void nsm_proj_i_skew(size_t n, const double *X, double *out);

/** out[0 .. len-1] = 0 by nsm_vec_zero, with a contract that leaves out its zero clause: in
    that clause (y[i] == 0 on the array the call assigns) WP 25 prints the 0 as an integer in
    the Why3 task ("Type mismatch between real and int"), so a caller goal that reaches a
    prover with the clause in its context fails (as with nsm_unit in actuation.c). For the
    callers that do not use the zeros in their own proofs. */
/*@ requires len: len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires valid: \valid(out + (0 .. len - 1));
    assigns out[0 .. len - 1];
 */
void nsm_proj_i_zero(size_t len, double *out);

/** X_ii += s (n×n). */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid(X + (0 .. n*n - 1));
    assigns X[0 .. n*n - 1];
 */
void nsm_proj_i_add_diag(size_t n, double s, double *X);

/** Sum of the diagonal of X (n×n). */
/*@ requires n: n <= NSM_MAX_DIM;
    requires valid: n == 0 || \valid_read(X + (0 .. n*n - 1));
    assigns \nothing;
 */
double nsm_proj_i_trace(size_t n, const double *X);

/** 1 if [a, a + na) and [b, b + nb) overlap (in doubles), else 0; nb may exceed
    NSM_MAX_DIM² (checked in chunks), na may not. */
/*@ requires na: na <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires valid_a: na == 0 || \valid_read(a + (0 .. na - 1));
    requires valid_b: nb == 0 || \valid_read(b + (0 .. nb - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
int nsm_proj_i_overlap(const double *a, size_t na, const double *b, size_t nb);

/** Workspace doubles compared against a result structure: lwork, capped (a workspace beyond
    16·NSM_MAX_DIM² doubles is never used past that point). */
#define NSM_PROJ_WORK_CAP ((size_t)16u * NSM_MAX_DIM * NSM_MAX_DIM)
#define NSM_PROJ_WORK_BYTES(lwork) \
    (((lwork) < NSM_PROJ_WORK_CAP ? (lwork) : NSM_PROJ_WORK_CAP) * sizeof(double))

/** 1 if the structure [s, s + bytes) shares a byte with one of the k spans of arrays (the
    arrays of the call: what the structure points to, the other inputs and the workspace),
    else 0. */
/*@ requires count: k <= NSM_MAX_SPANS;
    requires valid: k == 0 || \valid_read(arrays + (0 .. k - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
int nsm_proj_i_struct_hits(uintptr_t s, size_t bytes, size_t k, const nsm_span *arrays);

/** Rank tolerance in [0, 1). */
/*@ assigns \nothing;
    ensures \result == 1 <==> (0 <= rtol < 1);
    ensures \result == 0 || \result == 1;
 */
int nsm_proj_i_rtol_ok(double rtol);

/** μ domain: NSM_MU_OPTIMAL, or NSM_MU_GIVEN with μ > 0 finite. */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures given: \result == 1 && mode == NSM_MU_GIVEN ==> mu > 0;
    ensures mode: \result == 1 ==> (mode == NSM_MU_GIVEN || mode == NSM_MU_OPTIMAL);
 */
int nsm_proj_i_mu_ok(nsm_mu_mode mode, double mu);

/** μ by mode (given, μ* = trace_pmp/(n − r), or trace_m/n when r >= n); NSM_ERR_NOT_SPD if the
    value is not positive and finite. */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid(mu_used);
    assigns *mu_used;
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_SPD;
    ensures positive: \result == NSM_OK ==> *mu_used > 0;
 */
nsm_status nsm_proj_i_choose_mu(size_t n, size_t r, double trace_pmp, double trace_m,
                                nsm_mu_mode mode, double mu, double *mu_used);

/** Options of nsm_proj_dynamics in their domain. */
/*@ requires valid: \valid_read(o);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures domain: \result == 1 ==> 0 <= o->rank_rtol < 1 && o->sym_rtol >= 0 &&
                      (o->mu_mode == NSM_MU_OPTIMAL || o->mu_mode == NSM_MU_GIVEN) &&
                      (o->mu_mode == NSM_MU_GIVEN ==> o->mu > 0);
 */
int nsm_proj_i_opts_ok(const nsm_proj_opts *o);

/** out = I − YtᵀYt (n×n) for Yt (r×n): P from an orthonormal basis of the row space
    (lowrank.c). Lower triangle computed, then mirrored: exactly symmetric. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && r <= n;
    requires valid_Yt: r == 0 || \valid_read(Yt + (0 .. r*n - 1));
    requires valid_out: \valid(out + (0 .. n*n - 1));
    assigns out[0 .. n*n - 1];
    ensures sym: nsm_sym(out, n);
 */
void nsm_proj_i_eye_minus_gram(size_t n, size_t r, const double *Yt, double *out);

/** out = v − Ytᵀ(Yt v) (n): P applied in factored form (lowrank.c); t (r) is scratch. out may
    not overlap v. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && r <= n;
    requires valid_Yt: r == 0 || (\valid_read(Yt + (0 .. r*n - 1)) && \valid(t + (0 .. r - 1)));
    requires valid_v: \valid_read(v + (0 .. n - 1));
    requires valid_out: \valid(out + (0 .. n - 1));
    assigns t[0 .. r - 1], out[0 .. n - 1];
 */
void nsm_proj_i_apply_p(size_t n, size_t r, const double *Yt, const double *v, double *t,
                        double *out);

/** Ut = Yt·M (r×n, M read on its lower triangle as symmetric) and H = ½(Yt·Utᵀ + Ut·Ytᵀ)
    (r×r, its lower triangle mirrored): MY and YᵀMY for symmetric M (lowrank.c). Nothing for
    r = 0. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && r <= n;
    requires valid_M: \valid_read(M + (0 .. n*n - 1));
    requires valid_Yt: r == 0 || \valid_read(Yt + (0 .. r*n - 1));
    requires valid_out: r == 0 || (\valid(Ut + (0 .. r*n - 1)) && \valid(H + (0 .. r*r - 1)));
    assigns Ut[0 .. r*n - 1], H[0 .. r*r - 1];
 */
void nsm_proj_i_gram_m(size_t n, size_t r, const double *M, const double *Yt, double *Ut,
                       double *H);

/** Gt = Ut − ½H·Yt − (μ/2)Yt (r×n, H symmetric in full, as nsm_proj_i_gram_m leaves it) and
    out = M − (YtᵀGt + GtᵀYt) (n×n): M̄ = PMP + μQ from the basis (lowrank.c). Lower triangle
    computed (from M's lower triangle), then mirrored: exactly symmetric. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && r <= n;
    requires valid_M: \valid_read(M + (0 .. n*n - 1));
    requires valid_r: r == 0 || (\valid_read(Yt + (0 .. r*n - 1)) &&
                                 \valid_read(Ut + (0 .. r*n - 1)) &&
                                 \valid_read(H + (0 .. r*r - 1)) && \valid(Gt + (0 .. r*n - 1)));
    requires valid_out: \valid(out + (0 .. n*n - 1));
    assigns Gt[0 .. r*n - 1], out[0 .. n*n - 1];
    ensures sym: nsm_sym(out, n);
 */
void nsm_proj_i_mbar_update(size_t n, size_t r, const double *M, const double *Yt,
                            const double *Ut, const double *H, double mu, double *Gt,
                            double *out);

/** The nine n-vectors of the per-cycle call, slots of one block V (9n doubles) in this order:
    lq = Λq̇ and lt = Λᵀq̇ (written by the caller), the scratch v1 and v2, g0 = f + f_g − Cq̇,
    the scratch v5, dinv (a reciprocal diagonal), acc (q̈) and fc (f_c). */
typedef struct nsm_proj_vecs {
    double *lq, *lt, *v1, *v2, *g0, *v5, *dinv, *acc, *fc;
} nsm_proj_vecs;

/** The slots of V (9n doubles), V + k·n for the k-th (accel.c). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM;
    requires valid_V: \valid(V + (0 .. 9*n - 1));
    assigns \nothing;
    ensures slots: \result.lq == V && \result.lt == V + n && \result.v1 == V + 2*n &&
                   \result.v2 == V + 3*n && \result.g0 == V + 4*n && \result.v5 == V + 5*n &&
                   \result.dinv == V + 6*n && \result.acc == V + 7*n && \result.fc == V + 8*n;
 */
nsm_proj_vecs nsm_proj_i_vecs(size_t n, double *V);

/** The right-hand sides of both routes of nsm_proj_dynamics (accel.c): in the slots of V
    (nsm_proj_vecs, lq = Λq̇ on entry), g0 = f + f_g − Cq̇ and v2 = g0 − M lq; v1 is scratch. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM;
    requires valid_n: \valid_read(M + (0 .. n*n - 1)) && \valid_read(C + (0 .. n*n - 1));
    requires valid_v: \valid_read(f + (0 .. n - 1)) && \valid_read(fg + (0 .. n - 1)) &&
                      \valid_read(qd + (0 .. n - 1));
    requires valid_V: \valid(V + (0 .. 9*n - 1));
    assigns V[2*n .. 5*n - 1];
 */
void nsm_proj_i_accel_rhs(size_t n, const double *M, const double *C, const double *f,
                          const double *fg, const double *qd, double *V);

/** The last step of q̈ in both routes (accel.c): acc = z + lq in the slots of V
    (nsm_proj_vecs), z being the v1 or the v2 slot. NSM_ERR_NOT_FINITE if acc overflows. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM;
    requires valid_V: \valid(V + (0 .. 9*n - 1));
    requires slot: z == V + 2*n || z == V + 3*n;
    assigns V[7*n .. 8*n - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE;
 */
nsm_status nsm_proj_i_accel_out(size_t n, const double *z, double *V);

/** The right-hand side of f_c in both routes (accel.c, (P13)): v2 = g = g0 − M(lq − lt) in
    the slots of V (nsm_proj_vecs, g0 from nsm_proj_i_accel_rhs); v1 and v5 are scratch. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM;
    requires valid_M: \valid_read(M + (0 .. n*n - 1));
    requires valid_V: \valid(V + (0 .. 9*n - 1));
    assigns V[2*n .. 4*n - 1], V[5*n .. 6*n - 1];
 */
void nsm_proj_i_fc_rhs(size_t n, const double *M, double *V);

/** Vector part of nsm_proj_dynamics through M̄ (accel.c): with V = [lq, lt, ...] (9n) holding
    lq = Λq̇ and lt = Λᵀq̇ on entry, V + 7n receives q̈ and V + 8n f_c (when want_fc); P is
    applied through the basis Yt (r×n) and M̄⁻¹ through its Cholesky factor L; t (r) is
    scratch. NSM_ERR_NOT_FINITE if a result overflows. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && r <= n;
    requires valid_n: \valid_read(M + (0 .. n*n - 1)) && \valid_read(C + (0 .. n*n - 1)) &&
                      \valid_read(L + (0 .. n*n - 1));
    requires valid_v: \valid_read(f + (0 .. n - 1)) && \valid_read(fg + (0 .. n - 1)) &&
                      \valid_read(qd + (0 .. n - 1));
    requires valid_r: r == 0 || (\valid_read(Yt + (0 .. r*n - 1)) && \valid(t + (0 .. r - 1)));
    requires valid_V: \valid(V + (0 .. 9*n - 1));
    assigns V[2*n .. 9*n - 1], t[0 .. r - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE;
 */
nsm_status nsm_proj_i_accel(size_t n, size_t r, const double *M, const double *C,
                            const double *f, const double *fg, const double *qd,
                            const double *Yt, const double *L, int want_fc, double *V,
                            double *t);

/** 1 if the Cholesky factor L of M (n×n) is fit for the range-space route: every pivot keeps
    a share of at least 1e-8 of its diagonal entry, L_jj² ≥ 1e-8·M_jj (rangespace.c), else 0. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid_read(M + (0 .. n*n - 1)) && \valid_read(L + (0 .. n*n - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
int nsm_proj_i_rs_usable(size_t n, const double *M, const double *L);

/** The range-space factors (rangespace.c, docs/math.md (P29)): with L the Cholesky factor of
    M, Xt (r×n) = Yt·L⁻ᵀ, the rows (L⁻¹y_k)ᵀ for the rows y_kᵀ of Yt (dtrsm); K (r×r, lower
    triangle) = the Cholesky factor of XᵀX = YᵀM⁻¹Y (dsyrk, then nsm_chol_factor_lower) and
    kdinv (r) its reciprocal diagonal. 1 on success, 0 if XᵀX is not numerically positive
    definite. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= r <= n;
    requires valid_L: \valid_read(L + (0 .. n*n - 1));
    requires valid_Yt: \valid_read(Yt + (0 .. r*n - 1));
    requires valid_out: \valid(Xt + (0 .. r*n - 1)) && \valid(K + (0 .. r*r - 1)) &&
                        \valid(kdinv + (0 .. r - 1));
    assigns Xt[0 .. r*n - 1], K[0 .. r*r - 1], kdinv[0 .. r - 1];
    ensures \result == 0 || \result == 1;
 */
int nsm_proj_i_rs_factor(size_t n, size_t r, const double *L, const double *Yt, double *Xt,
                         double *K, double *kdinv);

/** tr(YᵀMY) = ‖YᵀL‖²_F = Σ_k ‖Lᵀy_k‖² for M = LLᵀ (rangespace.c): the trace that μ* needs
    (tr(PMP) = tr(M) − tr(YᵀMY)), from T = Yt·L (dtrmm, r×n scratch); 0 for r = 0. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && r <= n;
    requires valid_L: \valid_read(L + (0 .. n*n - 1));
    requires valid_Yt: r == 0 || (\valid_read(Yt + (0 .. r*n - 1)) && \valid(T + (0 .. r*n - 1)));
    assigns T[0 .. r*n - 1];
 */
double nsm_proj_i_rs_trace(size_t n, size_t r, const double *L, const double *Yt, double *T);

/** Vector part of nsm_proj_dynamics by the range-space route (rangespace.c, (P28)–(P30)): the
    layout of V as for nsm_proj_i_accel (V + 7n receives q̈, V + 8n f_c when want_fc), L the
    Cholesky factor of M, Xt, K, kdinv from nsm_proj_i_rs_factor (unused for r = 0); lam (r)
    is scratch. NSM_ERR_NOT_FINITE if a result overflows. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && r <= n;
    requires valid_n: \valid_read(M + (0 .. n*n - 1)) && \valid_read(C + (0 .. n*n - 1)) &&
                      \valid_read(L + (0 .. n*n - 1));
    requires valid_v: \valid_read(f + (0 .. n - 1)) && \valid_read(fg + (0 .. n - 1)) &&
                      \valid_read(qd + (0 .. n - 1));
    requires valid_r: r == 0 || (\valid_read(Yt + (0 .. r*n - 1)) &&
                                 \valid_read(Xt + (0 .. r*n - 1)) &&
                                 \valid_read(K + (0 .. r*r - 1)) &&
                                 \valid_read(kdinv + (0 .. r - 1)) && \valid(lam + (0 .. r - 1)));
    requires valid_V: \valid(V + (0 .. 9*n - 1));
    requires sep: r == 0 || \separated(lam + (0 .. r - 1), V + (0 .. 9*n - 1));
    assigns V[2*n .. 9*n - 1], lam[0 .. r - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE;
 */
nsm_status nsm_proj_i_rs_accel(size_t n, size_t r, const double *M, const double *C,
                               const double *f, const double *fg, const double *qd,
                               const double *Yt, const double *L, const double *Xt,
                               const double *K, const double *kdinv, int want_fc, double *V,
                               double *lam);

#endif
