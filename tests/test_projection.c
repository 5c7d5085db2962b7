/*
 * Tests of the projection module. Oracles: LAPACK (KKT solves with dgesv, pseudo-inverses of
 * full-row-rank matrices through dposv, eigenvalues with dsyev), central finite differences,
 * closed forms and the plain-loop products of tests/support/prop.h. Admissible states
 * q̇ = Pq̇ are generated from an oracle projector.
 * Each test's comment names the equations it checks by their labels in docs/math.md, (P1) to
 * (P27), and by their numbers in the dynamics source paper [D] (docs/math.md, Sources).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <lapacke.h>
#include "harness.h"
#include "prop.h"
#include "sweep.h"
#include "nsmech.h"

#define NMAX 32 /* array capacity; most properties draw n <= NPROP */
#define NPROP 12
#define MMAX 16
#define CASES 1000

/* ---------------------------------------------------------------------------------------- */
/* The entry points through their structures, with every argument in the order of the       */
/* equations (one per parameter): each builds the structures of the call and copies the       */
/* scalars of the result where the library writes them. A NULL scalar output stands for a     */
/* NULL result structure.                                                                     */
/* ---------------------------------------------------------------------------------------- */

static nsm_status t_projector(size_t n, size_t m, const double *A, double rtol, size_t *rank,
                              double *P, double *Q, double *Apinv, double *work, size_t lwork)
{
    nsm_proj_projector_result res = {0, P, Q, Apinv};
    nsm_status s = nsm_proj_projector(n, m, A, rtol, rank != NULL ? &res : NULL, work, lwork);
    if (s == NSM_OK) {
        *rank = res.rank;
    }
    return s;
}

static nsm_status t_rates(size_t n, size_t m, const double *Apinv, const double *Adot,
                          const double *P, double *Lambda, double *Pdot, double *work,
                          size_t lwork)
{
    nsm_proj_rates_result res = {Lambda, Pdot};
    return nsm_proj_rates(n, m, Apinv, Adot, P, &res, work, lwork);
}

static nsm_status t_inertia(size_t n, size_t r, const double *M, const double *P,
                            nsm_mu_mode mode, double mu, double *Mbar, double *mu_used,
                            double *work, size_t lwork)
{
    const nsm_proj_problem prob = {n, 0, M, NULL, NULL, NULL, NULL, NULL, NULL};
    nsm_proj_inertia_result res = {Mbar, 0.0};
    nsm_status s = nsm_proj_inertia(&prob, r, P, mode, mu, mu_used != NULL ? &res : NULL, work,
                                    lwork);
    if (s == NSM_OK) {
        *mu_used = res.mu_used;
    }
    return s;
}

static nsm_status t_cbar(size_t n, const double *M, const double *C, const double *P,
                         const double *Lambda, double mu, double *Cbar, double *work,
                         size_t lwork)
{
    const nsm_proj_problem prob = {n, 0, M, C, NULL, NULL, NULL, NULL, NULL};
    return nsm_proj_cbar(&prob, P, Lambda, mu, Cbar, work, lwork);
}

static nsm_status t_dynamics(size_t n, size_t m, const double *M, const double *C,
                             const double *A, const double *Adot, const double *f,
                             const double *fg, const double *qd, const nsm_proj_opts *opts,
                             double *qdd, double *fc, nsm_proj_info *info, double *P,
                             double *Mbar, double *work, size_t lwork)
{
    const nsm_proj_problem prob = {n, m, M, C, A, Adot, f, fg, qd};
    nsm_proj_dynamics_result res = {qdd, fc, P, Mbar, {0, 0.0}};
    nsm_status s = nsm_proj_dynamics(&prob, opts, info != NULL ? &res : NULL, work, lwork);
    if (s == NSM_OK) {
        *info = res.info;
    }
    return s;
}

static nsm_status t_actuation(size_t n, size_t k, size_t r, const double *P, const double *B,
                              double rtol, size_t *rank_pb, double *Gamma, double *R,
                              double *work, size_t lwork)
{
    const nsm_proj_actuation_input in = {n, k, r, P, B, rtol};
    nsm_proj_actuation_result res = {0, Gamma, R};
    nsm_status s = nsm_proj_actuation(&in, rank_pb != NULL ? &res : NULL, work, lwork);
    if (s == NSM_OK || s == NSM_ERR_RANK) {
        *rank_pb = res.rank_pb;
    }
    return s;
}

static nsm_status t_control(size_t n, size_t k, const double *P, const double *R,
                            const double *Gamma, const double *fg, const double *q,
                            const double *qstar, const double *qd, const double *xi,
                            const nsm_proj_gains *gains, double *f, double *u,
                            nsm_unit_case *eta_case, double *work, size_t lwork)
{
    const nsm_proj_control_input in = {n, k, P, R, Gamma, fg, q, qstar, qd, xi};
    nsm_proj_control_result res = {f, u, NSM_UNIT_BALL};
    nsm_status s = nsm_proj_control(&in, gains, &res, work, lwork);
    if (s == NSM_OK && eta_case != NULL) {
        *eta_case = res.eta_case;
    }
    return s;
}

static nsm_status t_lyapunov(size_t n, const double *Mbar, const double *P, const double *f,
                             const double *fg, const double *q, const double *qstar,
                             const double *qd, double kp, double *V, double *Vdot)
{
    const nsm_proj_control_input in = {n, 0, P, NULL, NULL, fg, q, qstar, qd, NULL};
    nsm_proj_lyapunov_result res = {0.0, 0.0};
    nsm_status s = nsm_proj_lyapunov(&in, Mbar, f, kp, V != NULL && Vdot != NULL ? &res : NULL);
    if (s == NSM_OK) {
        *V = res.V;
        *Vdot = res.Vdot;
    }
    return s;
}

/* ---------------------------------------------------------------------------------------- */
/* Oracles                                                                                    */
/* ---------------------------------------------------------------------------------------- */

/* X = Aᵀ(AAᵀ)⁻¹ (n×m) for a full-row-rank A (m×n), LAPACK dposv. Returns 0 on success. */
static int oracle_pinv_rows(size_t m, size_t n, const double *A, double *X)
{
    double G[MMAX * MMAX];
    double Y[MMAX * NMAX];
    tm_matmul_nt(m, m, n, A, A, G);
    memcpy(Y, A, m * n * sizeof(double));
    if (LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', (lapack_int)m, (lapack_int)n, G, (lapack_int)m, Y,
                      (lapack_int)n) != 0) {
        return 1;
    }
    tm_transpose(m, n, Y, X);
    return 0;
}

/* P = I − A⁺A from the oracle pseudo-inverse (full row rank A; m = 0 gives I). */
static int oracle_projector(size_t m, size_t n, const double *A, double *P)
{
    double X[NMAX * MMAX];
    double Q[NMAX * NMAX];
    tm_identity(n, P);
    if (m == 0) {
        return 0;
    }
    if (oracle_pinv_rows(m, n, A, X)) {
        return 1;
    }
    tm_matmul(n, n, m, X, A, Q);
    for (size_t i = 0; i < n * n; i++) {
        P[i] -= Q[i];
    }
    return 0;
}

/* KKT solve [M Aᵀ; A 0][q̈; −λ] = [f + h; −Ȧq̇] (dgesv): q̈ and f_c = Aᵀλ. */
static int oracle_kkt(size_t n, size_t m, const double *M, const double *A, const double *rhs_top,
                      const double *Adq, double *qdd, double *fc)
{
    size_t d = n + m;
    double K[(NMAX + MMAX) * (NMAX + MMAX)];
    double b[NMAX + MMAX];
    lapack_int ipiv[NMAX + MMAX];
    memset(K, 0, sizeof K);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            K[i * d + j] = M[i * n + j];
        }
        b[i] = rhs_top[i];
    }
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < n; j++) {
            K[(n + i) * d + j] = A[i * n + j];
            K[j * d + n + i] = A[i * n + j];
        }
        b[n + i] = -Adq[i];
    }
    if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, (lapack_int)d, 1, K, (lapack_int)d, ipiv, b, 1) != 0) {
        return 1;
    }
    memcpy(qdd, b, n * sizeof(double));
    /* b[n..] = −λ; f_c = Aᵀλ. */
    for (size_t j = 0; j < n; j++) {
        double s = 0.0;
        for (size_t i = 0; i < m; i++) {
            s += A[i * n + j] * (-b[n + i]);
        }
        fc[j] = s;
    }
    return 0;
}

/* Eigenvalues (ascending) of a symmetric matrix, dsyev. */
static int oracle_eig(size_t n, const double *S, double *w)
{
    double T[NMAX * NMAX];
    memcpy(T, S, n * n * sizeof(double));
    return LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)n, T, (lapack_int)n, w) != 0;
}

static double rel_err(size_t len, const double *x, const double *ref)
{
    double s = tm_maxabs(len, ref);
    return tm_maxabs_diff(len, x, ref) / (s > 1.0 ? s : 1.0);
}

/* ---------------------------------------------------------------------------------------- */
/* Random constrained systems                                                                 */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    size_t n, m;
    double M[NMAX * NMAX], C[NMAX * NMAX], Md[NMAX * NMAX];
    double A[MMAX * NMAX], Ad[MMAX * NMAX];
    double f[NMAX], fg[NMAX], qd[NMAX];
    double P[NMAX * NMAX]; /* oracle projector */
} sys_t;

/* Full-row-rank A (m×n, 1 <= m < n), C = (Ṁ + K)/2 with Ṁ symmetric and K skew, admissible q̇. */
static int gen_system_nm(nsm_rng *rng, sys_t *s, size_t n, size_t m)
{
    s->n = n;
    s->m = m;
    prop_spd(rng, n, pow(10.0, nsm_rng_range(rng, 0.0, 2.0)), nsm_rng_range(rng, 0.5, 2.0), s->M);
    double K[NMAX * NMAX];
    prop_vector(rng, n * n, K);
    prop_vector(rng, n * n, s->Md);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < i; j++) {
            s->Md[j * n + i] = s->Md[i * n + j];
            K[j * n + i] = -K[i * n + j];
        }
        K[i * n + i] = 0.0;
    }
    for (size_t i = 0; i < n * n; i++) {
        s->C[i] = 0.5 * (s->Md[i] + K[i]);
    }
    prop_rank(rng, m, n, m, pow(10.0, nsm_rng_range(rng, 0.0, 2.0)), s->A);
    prop_vector(rng, m * n, s->Ad);
    prop_vector(rng, n, s->f);
    prop_vector(rng, n, s->fg);
    if (oracle_projector(m, n, s->A, s->P)) {
        return 1;
    }
    double x[NMAX];
    prop_vector(rng, n, x);
    tm_matmul(n, 1, n, s->P, x, s->qd);
    return 0;
}

static int gen_system(nsm_rng *rng, sys_t *s, size_t nmin)
{
    size_t n = nsm_rng_index(rng, nmin, NPROP);
    return gen_system_nm(rng, s, n, nsm_rng_index(rng, 1, n - 1));
}

/* f + h = f + f_g − Cq̇ and Ȧq̇ for the oracle. */
static void kkt_rhs(const sys_t *s, double *top, double *adq)
{
    double cq[NMAX];
    tm_matmul(s->n, 1, s->n, s->C, s->qd, cq);
    for (size_t i = 0; i < s->n; i++) {
        top[i] = s->f[i] + s->fg[i] - cq[i];
    }
    tm_matmul(s->m, 1, s->n, s->Ad, s->qd, adq);
}

static double *g_work;
static size_t g_lwork;

static nsm_status run_dyn(const sys_t *s, size_t m, const double *A, const double *Ad,
                          const nsm_proj_opts *o, double *qdd, double *fc, nsm_proj_info *info,
                          double *P, double *Mbar)
{
    return t_dynamics(s->n, m, s->M, s->C, A, Ad, s->f, s->fg, s->qd, o, qdd, fc, info, P,
                      Mbar, g_work, g_lwork);
}

/* ---------------------------------------------------------------------------------------- */
/* Properties                                                                                 */
/* ---------------------------------------------------------------------------------------- */

/* q̈ (P12) and f_c (P13) of nsm_proj_dynamics equal the KKT solve for full-rank A (P15). */
static int p_kkt(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    sys_t s;
    if (gen_system(rng, &s, 2)) {
        snprintf(msg, len, "oracle projector failed");
        return 1;
    }
    double top[NMAX], adq[MMAX], q_ref[NMAX], fc_ref[NMAX], qdd[NMAX], fc[NMAX];
    kkt_rhs(&s, top, adq);
    if (oracle_kkt(s.n, s.m, s.M, s.A, top, adq, q_ref, fc_ref)) {
        snprintf(msg, len, "KKT oracle failed");
        return 1;
    }
    nsm_proj_info info = {0, 0.0};
    nsm_status st = run_dyn(&s, s.m, s.A, s.Ad, NULL, qdd, fc, &info, NULL, NULL);
    if (st != NSM_OK) {
        snprintf(msg, len, "status %s (n=%zu m=%zu)", nsm_status_str(st), s.n, s.m);
        return 1;
    }
    double eq = rel_err(s.n, qdd, q_ref), ef = rel_err(s.n, fc, fc_ref);
    if (info.rank != s.m || eq > 1e-9 || ef > 1e-9) {
        snprintf(msg, len, "n=%zu m=%zu rank %zu: qdd err %.3g fc err %.3g", s.n, s.m, info.rank,
                 eq, ef);
        return 1;
    }
    return 0;
}

/* M singular along a constrained direction (M ← P_a M P_a, a the first row of A: positive
   definite on N(A) only). With check_spd = 0 the factor of M fails or keeps a pivot share
   below 1e-8, so nsm_proj_dynamics takes the M̄ route (docs/math.md (P29)); q̈ and f_c still
   equal the KKT solve (P15), which is nonsingular for such M. With the check on, the call
   either refuses M (NSM_ERR_NOT_SPD) or, when rounding leaves every pivot positive, gives the
   same KKT answer. */
static int p_semidefinite_m(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    sys_t s;
    if (gen_system(rng, &s, 2)) {
        snprintf(msg, len, "oracle projector failed");
        return 1;
    }
    size_t n = s.n;
    double Pa[NMAX * NMAX], T[NMAX * NMAX], aa = 0.0;
    for (size_t k = 0; k < n; k++) {
        aa += s.A[k] * s.A[k];
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            Pa[i * n + j] = (i == j) - s.A[i] * s.A[j] / aa;
        }
    }
    tm_matmul(n, n, n, s.M, Pa, T);
    tm_matmul(n, n, n, Pa, T, s.M);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < i; j++) {
            double v = 0.5 * (s.M[i * n + j] + s.M[j * n + i]);
            s.M[i * n + j] = v;
            s.M[j * n + i] = v;
        }
    }
    double top[NMAX], adq[MMAX], q_ref[NMAX], fc_ref[NMAX], qdd[NMAX], fc[NMAX];
    kkt_rhs(&s, top, adq);
    if (oracle_kkt(s.n, s.m, s.M, s.A, top, adq, q_ref, fc_ref)) {
        snprintf(msg, len, "KKT oracle failed");
        return 1;
    }
    nsm_proj_opts o = NSM_PROJ_OPTS_DEFAULT;
    for (int check = 0; check < 2; check++) {
        o.check_spd = check;
        nsm_proj_info info = {0, 0.0};
        nsm_status st = run_dyn(&s, s.m, s.A, s.Ad, &o, qdd, fc, &info, NULL, NULL);
        if (check == 1 && st == NSM_ERR_NOT_SPD) {
            continue;
        }
        double eq = rel_err(n, qdd, q_ref), ef = rel_err(n, fc, fc_ref);
        if (st != NSM_OK || info.rank != s.m || eq > 1e-9 || ef > 1e-9) {
            snprintf(msg, len, "check_spd %d, n=%zu m=%zu: %s, qdd err %.3g fc err %.3g", check,
                     n, s.m, nsm_status_str(st), eq, ef);
            return 1;
        }
    }
    return 0;
}

/* Larger systems (24 <= n <= 32, 2m < n): PMP through the factored form P = I − A⁺A. Checks
   (P12), (P13) against the KKT solve (P15) and M̄ = PMP + μQ (P5), evaluated as (P25). */
static int p_kkt_large(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    sys_t s;
    size_t n = nsm_rng_index(rng, 24, NMAX);
    if (gen_system_nm(rng, &s, n, nsm_rng_index(rng, 1, (n - 1) / 2))) {
        snprintf(msg, len, "oracle projector failed");
        return 1;
    }
    double top[NMAX], adq[MMAX], q_ref[NMAX], fc_ref[NMAX], qdd[NMAX], fc[NMAX];
    double Mb[NMAX * NMAX], T[NMAX * NMAX], ref[NMAX * NMAX];
    kkt_rhs(&s, top, adq);
    nsm_proj_info info = {0, 0.0};
    nsm_status st = run_dyn(&s, s.m, s.A, s.Ad, NULL, qdd, fc, &info, NULL, Mb);
    if (st != NSM_OK || oracle_kkt(s.n, s.m, s.M, s.A, top, adq, q_ref, fc_ref)) {
        snprintf(msg, len, "status %s (n=%zu m=%zu)", nsm_status_str(st), s.n, s.m);
        return 1;
    }
    /* M̄ against PMP + μQ from the oracle projector. */
    tm_matmul(n, n, n, s.M, s.P, T);
    tm_matmul(n, n, n, s.P, T, ref);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) ref[i * n + j] += info.mu * ((i == j) - s.P[i * n + j]);
    double eq = rel_err(n, qdd, q_ref), ef = rel_err(n, fc, fc_ref), em = rel_err(n * n, Mb, ref);
    if (info.rank != s.m || eq > 1e-9 || ef > 1e-9 || em > 1e-10) {
        snprintf(msg, len, "n=%zu m=%zu: qdd %.3g fc %.3g Mbar %.3g", n, s.m, eq, ef, em);
        return 1;
    }
    return 0;
}

/* Redundant rows: A = [A0; W·A0], Ȧ = [Ȧ0; W·Ȧ0]; q̈ equals the one of A0 and the KKT oracle.
   Checks the rank of (P1) as decided by the LQ (P23), and (P12) with (P24). */
static int p_redundant(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    sys_t s;
    if (gen_system(rng, &s, 3)) {
        snprintf(msg, len, "oracle projector failed");
        return 1;
    }
    size_t n = s.n, m0 = s.m;
    size_t extra = nsm_rng_index(rng, 1, MMAX - m0 < 4 ? MMAX - m0 : 4);
    size_t m = m0 + extra;
    double W[4 * MMAX], A[MMAX * NMAX], Ad[MMAX * NMAX];
    prop_vector(rng, extra * m0, W);
    memcpy(A, s.A, m0 * n * sizeof(double));
    memcpy(Ad, s.Ad, m0 * n * sizeof(double));
    tm_matmul(extra, n, m0, W, s.A, A + m0 * n);
    tm_matmul(extra, n, m0, W, s.Ad, Ad + m0 * n);
    /* Shuffle: move the first row to the end so that redundancy is not only trailing. */
    double tmp[NMAX], tmpd[NMAX];
    memcpy(tmp, A, n * sizeof(double));
    memcpy(tmpd, Ad, n * sizeof(double));
    memmove(A, A + n, (m - 1) * n * sizeof(double));
    memmove(Ad, Ad + n, (m - 1) * n * sizeof(double));
    memcpy(A + (m - 1) * n, tmp, n * sizeof(double));
    memcpy(Ad + (m - 1) * n, tmpd, n * sizeof(double));
    double q_red[NMAX], q_full[NMAX], q_ref[NMAX], fc_ref[NMAX], top[NMAX], adq[MMAX];
    nsm_proj_info i1, i2;
    nsm_proj_opts o = NSM_PROJ_OPTS_DEFAULT;
    o.rank_rtol = 1e-9;
    nsm_status st1 = run_dyn(&s, m, A, Ad, &o, q_red, NULL, &i1, NULL, NULL);
    nsm_status st2 = run_dyn(&s, m0, s.A, s.Ad, &o, q_full, NULL, &i2, NULL, NULL);
    kkt_rhs(&s, top, adq);
    if (st1 != NSM_OK || st2 != NSM_OK || oracle_kkt(n, m0, s.M, s.A, top, adq, q_ref, fc_ref)) {
        snprintf(msg, len, "status %d %d", st1, st2);
        return 1;
    }
    double e1 = rel_err(n, q_red, q_full), e2 = rel_err(n, q_red, q_ref);
    /* the LQ rank decision of the dynamics equals the SVD decision of the projector */
    size_t r_svd = 0;
    double Pp[NMAX * NMAX], Qp[NMAX * NMAX], Xp[NMAX * MMAX];
    if (t_projector(n, m, A, o.rank_rtol, &r_svd, Pp, Qp, Xp, g_work, g_lwork) != NSM_OK ||
        r_svd != i1.rank) {
        snprintf(msg, len, "n=%zu m=%zu: LQ rank %zu, SVD rank %zu", n, m, i1.rank, r_svd);
        return 1;
    }
    if (i1.rank != m0 || e1 > 1e-9 || e2 > 1e-9) {
        snprintf(msg, len, "n=%zu m=%zu r0=%zu: rank %zu, vs subset %.3g, vs KKT %.3g", n, m, m0,
                 i1.rank, e1, e2);
        return 1;
    }
    return 0;
}

/* Ṗ = ΛP + PΛᵀ equals the central difference of the oracle P along A(t) = A + tȦ: (P3),
   [D] eq. 4. */
static int p_pdot_fd(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    sys_t s;
    if (gen_system(rng, &s, 2)) {
        snprintf(msg, len, "oracle failed");
        return 1;
    }
    size_t n = s.n, m = s.m, r = 0;
    double P[NMAX * NMAX], Q[NMAX * NMAX], X[NMAX * MMAX], L[NMAX * NMAX], Pd[NMAX * NMAX];
    nsm_status st = t_projector(n, m, s.A, NSM_RANK_RTOL_DEFAULT, &r, P, Q, X, g_work,
                                g_lwork);
    if (st == NSM_OK) {
        st = t_rates(n, m, X, s.Ad, P, L, Pd, g_work, g_lwork);
    }
    if (st != NSM_OK) {
        snprintf(msg, len, "status %s", nsm_status_str(st));
        return 1;
    }
    /* Richardson-extrapolated central differences (error O(h⁴)). */
    const double h = 1e-4;
    double Ap[MMAX * NMAX], Am[MMAX * NMAX], Pp[NMAX * NMAX], Pm[NMAX * NMAX], fd[NMAX * NMAX];
    double d1[NMAX * NMAX];
    for (int level = 0; level < 2; level++) {
        double hh = level == 0 ? h : h / 2;
        for (size_t i = 0; i < m * n; i++) {
            Ap[i] = s.A[i] + hh * s.Ad[i];
            Am[i] = s.A[i] - hh * s.Ad[i];
        }
        if (oracle_projector(m, n, Ap, Pp) || oracle_projector(m, n, Am, Pm)) {
            snprintf(msg, len, "oracle failed");
            return 1;
        }
        for (size_t i = 0; i < n * n; i++) {
            double c = (Pp[i] - Pm[i]) / (2.0 * hh);
            if (level == 0) {
                d1[i] = c;
            } else {
                fd[i] = (4.0 * c - d1[i]) / 3.0;
            }
        }
    }
    double e = rel_err(n * n, Pd, fd);
    if (e > 1e-6) {
        snprintf(msg, len, "n=%zu m=%zu: Pdot vs central difference %.3g", n, m, e);
        return 1;
    }
    return 0;
}

/* q̈ does not depend on μ: μ*, and two given values spanning 1e4: (P15) for (P12). */
static int p_mu_independent(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    sys_t s;
    if (gen_system(rng, &s, 2)) {
        snprintf(msg, len, "oracle failed");
        return 1;
    }
    double q0[NMAX], q1[NMAX], q2[NMAX], f0[NMAX], f1[NMAX];
    nsm_proj_info i0, i1, i2;
    nsm_proj_opts o = NSM_PROJ_OPTS_DEFAULT;
    nsm_status st0 = run_dyn(&s, s.m, s.A, s.Ad, &o, q0, f0, &i0, NULL, NULL);
    o.mu_mode = NSM_MU_GIVEN;
    o.mu = nsm_rng_range(rng, 0.01, 0.1);
    nsm_status st1 = run_dyn(&s, s.m, s.A, s.Ad, &o, q1, f1, &i1, NULL, NULL);
    o.mu = nsm_rng_range(rng, 10.0, 100.0);
    nsm_status st2 = run_dyn(&s, s.m, s.A, s.Ad, &o, q2, NULL, &i2, NULL, NULL);
    if (st0 || st1 || st2 || i2.mu != o.mu) {
        snprintf(msg, len, "status %d %d %d", st0, st1, st2);
        return 1;
    }
    double e1 = rel_err(s.n, q1, q0), e2 = rel_err(s.n, q2, q0), e3 = rel_err(s.n, f1, f0);
    if (e1 > 1e-9 || e2 > 1e-9 || e3 > 1e-9) {
        snprintf(msg, len, "n=%zu m=%zu: mu changes qdd by %.3g / %.3g, fc by %.3g", s.n, s.m, e1,
                 e2, e3);
        return 1;
    }
    return 0;
}

/* cond(M̄) at μ* equals λmax/λ⁺min of PMP, and μ* lies in [λ⁺min, λmax] (dsyev oracle): (P6),
   [D] eqs. 13–14, and (P7). */
static int p_cond(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    sys_t s;
    if (gen_system(rng, &s, 2)) {
        snprintf(msg, len, "oracle failed");
        return 1;
    }
    size_t n = s.n, m = s.m;
    double qdd[NMAX], Mbar[NMAX * NMAX], T[NMAX * NMAX], PMP[NMAX * NMAX], wb[NMAX], wp[NMAX];
    nsm_proj_info info = {0, 0.0};
    nsm_status st = run_dyn(&s, m, s.A, s.Ad, NULL, qdd, NULL, &info, NULL, Mbar);
    tm_matmul(n, n, n, s.M, s.P, T);
    tm_matmul(n, n, n, s.P, T, PMP);
    if (st != NSM_OK || oracle_eig(n, Mbar, wb) || oracle_eig(n, PMP, wp)) {
        snprintf(msg, len, "status %s", nsm_status_str(st));
        return 1;
    }
    /* PMP has m zero eigenvalues (rank n − m): the nonzero ones are wp[m .. n-1]. */
    double lmin = wp[m], lmax = wp[n - 1];
    double cb = wb[n - 1] / wb[0], cp = lmax / lmin;
    if (fabs(cb - cp) > 1e-8 * cp || info.mu < lmin * (1 - 1e-12) || info.mu > lmax * (1 + 1e-12)) {
        snprintf(msg, len, "n=%zu m=%zu: cond(Mbar) %.12g vs %.12g, mu %.6g in [%.6g, %.6g]?", n,
                 m, cb, cp, info.mu, lmin, lmax);
        return 1;
    }
    return 0;
}

/* PΛ = 0, Pf_c = 0, S² = S, QS = S, SQ = Q, P² = P; P, Q, Ṗ, M̄ and the P, M̄ returned by
   nsm_proj_dynamics bitwise symmetric, the latter equal to the separate calls' P (bitwise) and
   M̄ (to rounding: dynamics may form PMP in factored form). Checks (P4) ([D] eq. 5), Pf_c = 0
   of (P13) ([D] eq. 2), (P14) ([D] eq. 30), (P2), and (P5) as evaluated by (P25). */
static int p_identities(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    sys_t s;
    if (gen_system(rng, &s, 2)) {
        snprintf(msg, len, "oracle failed");
        return 1;
    }
    size_t n = s.n, m = s.m, r = 0;
    double P[NMAX * NMAX], Q[NMAX * NMAX], X[NMAX * MMAX], L[NMAX * NMAX], Mb[NMAX * NMAX];
    double S[NMAX * NMAX], T1[NMAX * NMAX], T2[NMAX * NMAX], qdd[NMAX], fc[NMAX], v[NMAX];
    double Pd[NMAX * NMAX], Pdyn[NMAX * NMAX], Mdyn[NMAX * NMAX];
    double mu = 0.0;
    nsm_proj_info info = {0, 0.0};
    nsm_status st = t_projector(n, m, s.A, NSM_RANK_RTOL_DEFAULT, &r, P, Q, X, g_work,
                                g_lwork);
    if (!st) st = t_rates(n, m, X, s.Ad, P, L, Pd, g_work, g_lwork);
    if (!st) st = t_inertia(n, r, s.M, P, NSM_MU_OPTIMAL, 0.0, Mb, &mu, g_work, g_lwork);
    if (!st) st = nsm_proj_oblique(n, s.M, Mb, P, S, g_work, g_lwork);
    if (!st) st = run_dyn(&s, m, s.A, s.Ad, NULL, qdd, fc, &info, Pdyn, Mdyn);
    if (st != NSM_OK) {
        snprintf(msg, len, "status %s", nsm_status_str(st));
        return 1;
    }
    double tol = 1e-9 * (1.0 + tm_maxabs(n * n, s.M)) * 100.0;
    char what[64] = "";
    for (size_t i = 0; i < n && !what[0]; i++) {
        for (size_t j = 0; j < n; j++) {
            if (P[i * n + j] != P[j * n + i] || Q[i * n + j] != Q[j * n + i] ||
                Mb[i * n + j] != Mb[j * n + i] || Pd[i * n + j] != Pd[j * n + i] ||
                Pdyn[i * n + j] != Pdyn[j * n + i] || Mdyn[i * n + j] != Mdyn[j * n + i]) {
                snprintf(what, sizeof what, "not bitwise symmetric");
                break;
            }
            /* the dynamics factor A by pivoted LQ, the projector by the SVD: the same P to
               rounding (1e-12 on entries of magnitude <= 1) */
            if (fabs(Pdyn[i * n + j] - P[i * n + j]) > 1e-12) {
                snprintf(what, sizeof what, "dynamics P differs from the projector's by %.3g",
                         fabs(Pdyn[i * n + j] - P[i * n + j]));
                break;
            }
        }
    }
    double e;
    if (!what[0] && (e = tm_maxabs_diff(n * n, Mdyn, Mb)) > tol)
        snprintf(what, sizeof what, "Mbar dynamics vs inertia %.3g", e);
    tm_matmul(n, n, n, P, P, T1);
    if (!what[0] && (e = tm_maxabs_diff(n * n, T1, P)) > 1e-12) snprintf(what, sizeof what, "P^2-P %.3g", e);
    if (!what[0] && (e = tm_maxabs_diff(n * n, P, s.P)) > 1e-9) snprintf(what, sizeof what, "P vs oracle %.3g", e);
    tm_matmul(n, n, n, P, L, T1);
    if (!what[0] && (e = tm_maxabs(n * n, T1)) > 1e-9 * (1 + tm_maxabs(n * n, L))) snprintf(what, sizeof what, "P*Lambda %.3g", e);
    tm_matmul(n, 1, n, P, fc, v);
    if (!what[0] && (e = tm_maxabs(n, v)) > 1e-9 * (1 + tm_maxabs(n, fc))) snprintf(what, sizeof what, "P*fc %.3g", e);
    tm_matmul(n, n, n, S, S, T1);
    double sc = 1.0 + tm_maxabs(n * n, S);
    if (!what[0] && (e = tm_maxabs_diff(n * n, T1, S)) > tol * sc) snprintf(what, sizeof what, "S^2-S %.3g", e);
    tm_matmul(n, n, n, Q, S, T1);
    if (!what[0] && (e = tm_maxabs_diff(n * n, T1, S)) > tol * sc) snprintf(what, sizeof what, "QS-S %.3g", e);
    tm_matmul(n, n, n, S, Q, T2);
    if (!what[0] && (e = tm_maxabs_diff(n * n, T2, Q)) > tol * sc) snprintf(what, sizeof what, "SQ-Q %.3g", e);
    /* f_c = −S(f + h − MΩq̇) from the S matrix and an explicit Ω: agrees with the vector path. */
    double Om[NMAX * NMAX], g[NMAX], w[NMAX], fc2[NMAX];
    if (!what[0] && nsm_proj_omega(n, L, Om) != NSM_OK) snprintf(what, sizeof what, "omega");
    tm_matmul(n, 1, n, Om, s.qd, v);
    tm_matmul(n, 1, n, s.M, v, w);
    tm_matmul(n, 1, n, s.C, s.qd, v);
    for (size_t i = 0; i < n; i++) g[i] = s.f[i] + s.fg[i] - v[i] - w[i];
    tm_matmul(n, 1, n, S, g, fc2);
    for (size_t i = 0; i < n; i++) fc2[i] = -fc2[i];
    if (!what[0] && (e = rel_err(n, fc, fc2)) > 1e-9) snprintf(what, sizeof what, "fc vs -S(..) %.3g", e);
    if (what[0]) {
        snprintf(msg, len, "n=%zu m=%zu: %s", n, m, what);
        return 1;
    }
    return 0;
}

/* Inadmissible q̇ (A q̇ ≠ 0): q̈ and f_c still evaluate the documented formulas
   q̈ = M̄⁻¹P(f + h − MΛq̇) + Λq̇ and f_c = −S(f + h − MΩq̇), here from oracle matrices
   (pseudo-inverse via dposv, M̄⁻¹ via dgesv): (P12), (P13) with (P11) as written. */
static int p_inadmissible(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    sys_t s;
    if (gen_system(rng, &s, 2)) {
        snprintf(msg, len, "oracle failed");
        return 1;
    }
    size_t n = s.n, m = s.m;
    prop_vector(rng, n, s.qd);
    double qdd[NMAX], fc[NMAX];
    nsm_proj_info info = {0, 0.0};
    nsm_status st = run_dyn(&s, m, s.A, s.Ad, NULL, qdd, fc, &info, NULL, NULL);
    if (st != NSM_OK) {
        snprintf(msg, len, "status %s", nsm_status_str(st));
        return 1;
    }
    double X[NMAX * MMAX], Lm[NMAX * NMAX], Mb[NMAX * NMAX], T[NMAX * NMAX], Y[NMAX * NMAX];
    lapack_int ipiv[NMAX];
    oracle_pinv_rows(m, n, s.A, X);
    tm_matmul(n, n, m, X, s.Ad, Lm);
    for (size_t i = 0; i < n * n; i++) Lm[i] = -Lm[i];
    tm_matmul(n, n, n, s.M, s.P, T);
    tm_matmul(n, n, n, s.P, T, Mb);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) Mb[i * n + j] += info.mu * ((i == j) - s.P[i * n + j]);
    memcpy(Y, s.P, n * n * sizeof(double));
    if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)n, Mb, (lapack_int)n, ipiv, Y,
                      (lapack_int)n) != 0) {
        snprintf(msg, len, "dgesv failed");
        return 1;
    }
    /* Y = M̄⁻¹P. */
    double lq[NMAX], lt[NMAX], cq[NMAX], w[NMAX], g[NMAX], q_ref[NMAX], fc_ref[NMAX], z[NMAX];
    tm_matmul(n, 1, n, Lm, s.qd, lq);
    tm_matmul_tn(n, 1, n, Lm, s.qd, lt);
    tm_matmul(n, 1, n, s.C, s.qd, cq);
    tm_matmul(n, 1, n, s.M, lq, w);
    for (size_t i = 0; i < n; i++) g[i] = s.f[i] + s.fg[i] - cq[i] - w[i];
    tm_matmul(n, 1, n, Y, g, q_ref);
    for (size_t i = 0; i < n; i++) q_ref[i] += lq[i];
    for (size_t i = 0; i < n; i++) z[i] = lq[i] - lt[i];
    tm_matmul(n, 1, n, s.M, z, w);
    for (size_t i = 0; i < n; i++) g[i] = s.f[i] + s.fg[i] - cq[i] - w[i];
    tm_matmul(n, 1, n, Y, g, z);
    tm_matmul(n, 1, n, s.M, z, fc_ref);
    for (size_t i = 0; i < n; i++) fc_ref[i] -= g[i];
    double e1 = rel_err(n, qdd, q_ref), e2 = rel_err(n, fc, fc_ref);
    if (e1 > 1e-8 || e2 > 1e-8) {
        snprintf(msg, len, "n=%zu m=%zu: qdd %.3g fc %.3g", n, m, e1, e2);
        return 1;
    }
    return 0;
}

/* C̄ (P8) = [D] eq. 8c against a plain-loop evaluation, and M̄q̈ + C̄q̇ = P(f + f_g) (P9) =
   [D] eq. 8a. */
static int p_cbar(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    sys_t s;
    if (gen_system(rng, &s, 2)) {
        snprintf(msg, len, "oracle failed");
        return 1;
    }
    size_t n = s.n, m = s.m, r = 0;
    double P[NMAX * NMAX], Q[NMAX * NMAX], X[NMAX * MMAX], L[NMAX * NMAX], Mb[NMAX * NMAX];
    double Cb[NMAX * NMAX], qdd[NMAX], a[NMAX], b[NMAX], rhs[NMAX], pr[NMAX];
    double mu = 0.0;
    nsm_proj_info info = {0, 0.0};
    nsm_status st = t_projector(n, m, s.A, NSM_RANK_RTOL_DEFAULT, &r, P, Q, X, g_work,
                                g_lwork);
    if (!st) st = t_rates(n, m, X, s.Ad, P, L, NULL, NULL, 0);
    if (!st) st = t_inertia(n, r, s.M, P, NSM_MU_OPTIMAL, 0.0, Mb, &mu, g_work, g_lwork);
    if (!st) st = t_cbar(n, s.M, s.C, P, L, mu, Cb, g_work, g_lwork);
    if (!st) st = run_dyn(&s, m, s.A, s.Ad, NULL, qdd, NULL, &info, NULL, NULL);
    if (st != NSM_OK) {
        snprintf(msg, len, "status %s", nsm_status_str(st));
        return 1;
    }
    /* Plain-loop C̄ = PCP + PM(ΛP + PΛᵀ) − μΛP. */
    double T1[NMAX * NMAX], T2[NMAX * NMAX], D[NMAX * NMAX], ref[NMAX * NMAX];
    tm_matmul(n, n, n, L, P, T1);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) D[i * n + j] = T1[i * n + j] + T1[j * n + i];
    tm_matmul(n, n, n, s.M, D, T2);
    tm_matmul(n, n, n, P, T2, ref);
    tm_matmul(n, n, n, s.C, P, T2);
    tm_matmul(n, n, n, P, T2, D);
    for (size_t i = 0; i < n * n; i++) ref[i] += D[i] - mu * T1[i];
    double e1 = rel_err(n * n, Cb, ref);
    tm_matmul(n, 1, n, Mb, qdd, a);
    tm_matmul(n, 1, n, Cb, s.qd, b);
    for (size_t i = 0; i < n; i++) rhs[i] = s.f[i] + s.fg[i];
    tm_matmul(n, 1, n, P, rhs, pr);
    for (size_t i = 0; i < n; i++) a[i] += b[i];
    double e2 = rel_err(n, a, pr);
    if (e1 > 1e-12 || e2 > 1e-8) {
        snprintf(msg, len, "n=%zu m=%zu: Cbar %.3g, eq 8a %.3g", n, m, e1, e2);
        return 1;
    }
    return 0;
}

/* Actuation: R² = R, PR = P, and for k = n − r also RB = B; Γ = (PB)⁺ against the oracle:
   (P16)–(P18), [D] eqs. 17–20. */
static int p_actuation(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    sys_t s;
    if (gen_system(rng, &s, 2)) {
        snprintf(msg, len, "oracle failed");
        return 1;
    }
    size_t n = s.n, m = s.m, dof = n - m;
    size_t k = nsm_rng_uniform(rng) < 0.5 ? dof : nsm_rng_index(rng, dof, n + 2);
    double B[NMAX * (NMAX + 2)], G[(NMAX + 2) * NMAX], R[NMAX * NMAX], T[NMAX * NMAX];
    prop_vector(rng, n * k, B);
    size_t rk = 0;
    nsm_status st = t_actuation(n, k, m, s.P, B, 1e-10, &rk, G, R, g_work, g_lwork);
    if (st != NSM_OK || rk != dof) {
        snprintf(msg, len, "n=%zu r=%zu k=%zu: status %s rank %zu", n, m, k, nsm_status_str(st),
                 rk);
        return 1;
    }
    double sc = 1.0 + tm_maxabs(n * n, R);
    double tol = 1e-9 * sc * sc;
    char what[64] = "";
    double e;
    tm_matmul(n, n, n, R, R, T);
    if ((e = tm_maxabs_diff(n * n, T, R)) > tol) snprintf(what, sizeof what, "R^2-R %.3g", e);
    tm_matmul(n, n, n, s.P, R, T);
    if (!what[0] && (e = tm_maxabs_diff(n * n, T, s.P)) > tol) snprintf(what, sizeof what, "PR-P %.3g", e);
    if (!what[0] && k == dof) {
        double RB[NMAX * (NMAX + 2)];
        tm_matmul(n, k, n, R, B, RB);
        if ((e = tm_maxabs_diff(n * k, RB, B)) > tol * (1 + tm_maxabs(n * k, B))) snprintf(what, sizeof what, "RB-B %.3g", e);
    }
    /* Γ: minimum-norm solution: Γ(PB)Γ = Γ and (PB)Γ = P (oracle P). */
    double PB[NMAX * (NMAX + 2)], GPB[(NMAX + 2) * (NMAX + 2)], GPBG[(NMAX + 2) * NMAX];
    tm_matmul(n, k, n, s.P, B, PB);
    tm_matmul(n, n, k, PB, G, T);
    if (!what[0] && (e = tm_maxabs_diff(n * n, T, s.P)) > tol) snprintf(what, sizeof what, "PB*Gamma-P %.3g", e);
    tm_matmul(k, k, n, G, PB, GPB);
    tm_matmul(k, n, k, GPB, G, GPBG);
    if (!what[0] && (e = tm_maxabs_diff(k * n, GPBG, G)) > tol * (1 + tm_maxabs(k * n, G))) snprintf(what, sizeof what, "G PB G - G %.3g", e);
    if (what[0]) {
        snprintf(msg, len, "n=%zu r=%zu k=%zu: %s", n, m, k, what);
        return 1;
    }
    return 0;
}

/* Closed loop of law (21) (ctx NULL): V̇ = −K_d‖q̇‖² − σK_p‖e‖‖q̇‖ <= 0 at random admissible
   states; of the σ = 0 law (ctx not NULL): V̇ = −K_d‖q̇‖². V̇ = q̇ᵀM̄q̈ + ½q̇ᵀ(dM̄/dt)q̇ + eᵀK_pq̇
   with every matrix from oracles; the monitor nsm_proj_lyapunov (V, V̇ from P, f, f_g) must
   give the same V = ½q̇ᵀM̄q̇ + ½K_p‖e‖² and V̇ (projection.h). Checks (P19)–(P22) ([D] eqs.
   21–24) and, for σ = 0, (P26). */
static int p_lyapunov(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    int sigma0 = ctx != NULL;
    sys_t s;
    if (gen_system(rng, &s, 2)) {
        snprintf(msg, len, "oracle failed");
        return 1;
    }
    size_t n = s.n, m = s.m, dof = n - m;
    size_t k = nsm_rng_index(rng, dof, n);
    double B[NMAX * NMAX], G[NMAX * NMAX], R[NMAX * NMAX], q[NMAX], qs[NMAX], f[NMAX];
    prop_vector(rng, n * k, B);
    prop_vector(rng, n, q);
    prop_vector(rng, n, qs);
    int at_rest = nsm_rng_uniform(rng) < 0.1;
    if (at_rest) memset(s.qd, 0, sizeof s.qd);
    size_t rk = 0;
    nsm_proj_gains g = {nsm_rng_range(rng, 0.1, 10.0), nsm_rng_range(rng, 0.1, 10.0),
                        nsm_rng_range(rng, 1.01, 4.0), NSM_PROJ_VEL_ZTOL_DEFAULT,
                        NSM_PROJ_XI_TOL_DEFAULT};
    if (sigma0) {
        g.sigma = 0.0;
    }
    nsm_unit_case which;
    nsm_status st = t_actuation(n, k, m, s.P, B, 1e-10, &rk, G, R, g_work, g_lwork);
    if (!st) st = t_control(n, k, s.P, R, G, s.fg, q, qs, s.qd, NULL, &g, f, NULL, &which,
                            g_work, g_lwork);
    if (st != NSM_OK) {
        snprintf(msg, len, "status %s", nsm_status_str(st));
        return 1;
    }
    memcpy(s.f, f, sizeof f);
    double qdd[NMAX];
    nsm_proj_info info = {0, 0.0};
    st = run_dyn(&s, m, s.A, s.Ad, NULL, qdd, NULL, &info, NULL, NULL);
    if (st != NSM_OK) {
        snprintf(msg, len, "dyn status %s", nsm_status_str(st));
        return 1;
    }
    /* Oracle M̄, Λ = −A⁺Ȧ, Ṗ, dM̄/dt = ṖMP + PṀP + PMṖ − μṖ. */
    double X[NMAX * MMAX], Lm[NMAX * NMAX], Pd[NMAX * NMAX], T1[NMAX * NMAX], T2[NMAX * NMAX];
    double Mb[NMAX * NMAX], dMb[NMAX * NMAX];
    oracle_pinv_rows(m, n, s.A, X);
    tm_matmul(n, n, m, X, s.Ad, Lm);
    for (size_t i = 0; i < n * n; i++) Lm[i] = -Lm[i];
    tm_matmul(n, n, n, Lm, s.P, T1);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) Pd[i * n + j] = T1[i * n + j] + T1[j * n + i];
    double mu = info.mu;
    tm_matmul(n, n, n, s.M, s.P, T1);
    tm_matmul(n, n, n, s.P, T1, Mb);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) Mb[i * n + j] += mu * ((i == j) - s.P[i * n + j]);
    tm_matmul(n, n, n, Pd, T1, dMb);               /* ṖMP */
    tm_matmul(n, n, n, s.Md, s.P, T1);
    tm_matmul(n, n, n, s.P, T1, T2);                /* PṀP */
    for (size_t i = 0; i < n * n; i++) dMb[i] += T2[i] - mu * Pd[i];
    tm_matmul(n, n, n, s.M, Pd, T1);
    tm_matmul(n, n, n, s.P, T1, T2);                /* PMṖ */
    for (size_t i = 0; i < n * n; i++) dMb[i] += T2[i];
    double a[NMAX], b[NMAX], e[NMAX];
    tm_matmul(n, 1, n, Mb, qdd, a);
    tm_matmul(n, 1, n, dMb, s.qd, b);
    double vdot = 0.0, ne = 0.0, nq = 0.0, scale = 0.0;
    for (size_t i = 0; i < n; i++) {
        e[i] = q[i] - qs[i];
        vdot += s.qd[i] * a[i] + 0.5 * s.qd[i] * b[i] + g.kp * e[i] * s.qd[i];
        scale += fabs(s.qd[i] * a[i]) + fabs(s.qd[i] * b[i]) + fabs(g.kp * e[i] * s.qd[i]);
        ne += e[i] * e[i];
        nq += s.qd[i] * s.qd[i];
    }
    ne = sqrt(ne);
    nq = sqrt(nq);
    double expect = -g.kd * nq * nq - g.sigma * g.kp * ne * nq;
    double tol = 1e-9 * (1.0 + scale);
    if (vdot > tol || fabs(vdot - expect) > tol || (at_rest && which != NSM_UNIT_BALL)) {
        snprintf(msg, len, "n=%zu m=%zu k=%zu: Vdot %.6g expected %.6g (tol %.2g)", n, m, k, vdot,
                 expect, tol);
        return 1;
    }
    /* the monitor against the same oracles: V from M̄ (oracle), V̇ from its closed form */
    double V = 0.0, Vd = 0.0, kin = 0.0;
    st = t_lyapunov(n, Mb, s.P, f, s.fg, q, qs, s.qd, g.kp, &V, &Vd);
    tm_matmul(n, 1, n, Mb, s.qd, a);
    for (size_t i = 0; i < n; i++) {
        kin += s.qd[i] * a[i];
    }
    double Vo = 0.5 * kin + 0.5 * g.kp * ne * ne;
    if (st != NSM_OK || fabs(V - Vo) > 1e-12 * (1.0 + Vo) || fabs(Vd - vdot) > tol) {
        snprintf(msg, len, "monitor %s: V %.17g vs %.17g, Vdot %.9g vs %.9g",
                 nsm_status_str(st), V, Vo, Vd, vdot);
        return 1;
    }
    return 0;
}

static void test_properties(void)
{
    static const struct { const char *name; prop_fn fn; } props[] = {
        {"qdd and f_c equal the KKT solve (full-rank A)", p_kkt},
        {"large n (factored PMP): qdd, f_c = KKT, Mbar = PMP + mu Q", p_kkt_large},
        {"M singular on R(A^T), PD on N(A): qdd, f_c = KKT (the Mbar route)", p_semidefinite_m},
        {"redundant rows give the full-rank subset's qdd; LQ rank = SVD rank", p_redundant},
        {"Pdot equals a central difference of P", p_pdot_fd},
        {"qdd and f_c independent of mu", p_mu_independent},
        {"cond(Mbar) at mu* = lmax/lmin+ of PMP", p_cond},
        {"identities P^2=P, PLambda=0, Pfc=0, S^2=S, QS=S, SQ=Q", p_identities},
        {"Cbar (eq. 8c) and Mbar qdd + Cbar qd = P(f + fg)", p_cbar},
        {"inadmissible qd: qdd and f_c follow the documented formulas", p_inadmissible},
        {"actuation: R^2=R, PR=P, RB=B, Gamma=(PB)+", p_actuation},
        {"control law: Vdot = -Kd|qd|^2 - sigma Kp|e||qd| <= 0", p_lyapunov},
        {"sigma = 0 law: Vdot = -Kd|qd|^2 <= 0 (monitor equal)", p_lyapunov},
    };
    static int sigma0 = 1;
    for (size_t i = 0; i < sizeof props / sizeof props[0]; i++) {
        void *ctx = props[i].fn == p_lyapunov && strstr(props[i].name, "sigma = 0") ? &sigma0 : NULL;
        size_t ran = prop_run(props[i].name, props[i].fn, ctx, CASES);
        printf("\n    property: %s: %zu cases", props[i].name, ran);
    }
    printf("\n");
}

/* ---------------------------------------------------------------------------------------- */
/* Closed-form and edge cases                                                                 */
/* ---------------------------------------------------------------------------------------- */

/* m = 0: P = I, Q = 0, r = 0; q̈ = M⁻¹(f + f_g − Cq̇) (plain unconstrained dynamics): (P2),
   (P12) at r = 0. */
static void test_no_constraints(void)
{
    const size_t n = 3;
    double M[9] = {2, 0.5, 0, 0.5, 3, 0.2, 0, 0.2, 1.5};
    double C[9] = {0.1, 0.2, 0, -0.3, 0, 0.1, 0, 0.4, 0.2};
    double f[3] = {1, -2, 0.5}, fg[3] = {0, 0, -9.81}, qd[3] = {0.3, -0.1, 0.2};
    double qdd[3], fc[3], P[9], Mb[9];
    nsm_proj_info info = {0, 0.0};
    CU_ASSERT_EQUAL_FATAL(t_dynamics(n, 0, M, C, NULL, NULL, f, fg, qd, NULL, qdd, fc,
                                     &info, P, Mb, g_work, g_lwork), NSM_OK);
    CU_ASSERT_EQUAL(info.rank, 0);
    double rhs[3], ref[3], Mc[9];
    lapack_int ipiv[3];
    tm_matmul(n, 1, n, C, qd, ref);
    for (size_t i = 0; i < n; i++) rhs[i] = f[i] + fg[i] - ref[i];
    memcpy(Mc, M, sizeof Mc);
    CU_ASSERT_EQUAL_FATAL(LAPACKE_dgesv(LAPACK_ROW_MAJOR, 3, 1, Mc, 3, ipiv, rhs, 1), 0);
    CU_ASSERT(rel_err(n, qdd, rhs) < 1e-13);
    CU_ASSERT(tm_maxabs(n, fc) < 1e-13);
    double Id[9];
    tm_identity(n, Id);
    CU_ASSERT(tm_maxabs_diff(9, P, Id) == 0.0);
    /* μ* = tr(M)/n. */
    CU_ASSERT(fabs(info.mu - (2.0 + 3.0 + 1.5) / 3.0) < 1e-14);
    /* Projector with m = 0. */
    size_t r = 7;
    double Q[9], X[1];
    CU_ASSERT_EQUAL(t_projector(n, 0, NULL, 1e-10, &r, P, Q, NULL, g_work, g_lwork),
                    NSM_OK);
    CU_ASSERT_EQUAL(r, 0);
    CU_ASSERT(tm_maxabs_diff(9, P, Id) == 0.0 && tm_maxabs(9, Q) == 0.0);
    (void)X;
}

/* n = r: no freedom left: P = 0, q̈ = Λq̇ (= A⁻¹(−Ȧq̇)), μ = tr(M)/n, f_c from the KKT solve:
   (P12), (P13), and (P7) at n = r. */
static void test_fully_constrained(void)
{
    const size_t n = 2;
    double M[4] = {2, 0.5, 0.5, 1};
    double C[4] = {0.1, 0.3, -0.2, 0};
    double A[4] = {1, 2, 0, 1}, Ad[4] = {0.5, 0, -1, 0.25};
    double f[2] = {1, 2}, fg[2] = {0, -1}, qd[2] = {0, 0};
    double qdd[2], fc[2], P[4], Mb[4];
    nsm_proj_info info = {0, 0.0};
    CU_ASSERT_EQUAL_FATAL(t_dynamics(n, 2, M, C, A, Ad, f, fg, qd, NULL, qdd, fc, &info, P,
                                     Mb, g_work, g_lwork), NSM_OK);
    CU_ASSERT_EQUAL(info.rank, 2);
    CU_ASSERT(fabs(info.mu - 1.5) < 1e-14);
    CU_ASSERT(tm_maxabs(4, P) < 1e-14);
    CU_ASSERT(tm_maxabs(2, qdd) < 1e-14);
    double top[2] = {1, 1}, adq[2] = {0, 0}, qr[2], fr[2];
    CU_ASSERT_EQUAL_FATAL(oracle_kkt(2, 2, M, A, top, adq, qr, fr), 0);
    CU_ASSERT(rel_err(2, fc, fr) < 1e-12);
}

/* A supplied ξ is validated; at q̇ = 0 the law uses it; the computed ξ is a unit of N(A): η of
   (P20) ([D] eq. 22) in the law (P19). */
static void test_control_xi(void)
{
    const size_t n = 3;
    /* A = [0 0 1]: N(A) = span(e1, e2), P = diag(1, 1, 0). */
    double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 0};
    double R[9], G[9], B[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    size_t rk;
    CU_ASSERT_EQUAL_FATAL(t_actuation(n, 3, 1, P, B, 1e-10, &rk, G, R, g_work, g_lwork),
                          NSM_OK);
    CU_ASSERT_EQUAL(rk, 2);
    nsm_proj_gains g = {2.0, 1.0, 1.5, 1e-12, 1e-9};
    double fg[3] = {0, 0, 0}, q[3] = {1, 0, 0}, qs[3] = {0, 0, 0}, qd[3] = {0, 0, 0};
    double xi[3] = {0, 1, 0}, f[3], u[3];
    nsm_unit_case which;
    CU_ASSERT_EQUAL_FATAL(t_control(n, 3, P, R, G, fg, q, qs, qd, xi, &g, f, u, &which,
                                    g_work, g_lwork), NSM_OK);
    CU_ASSERT_EQUAL(which, NSM_UNIT_BALL);
    /* v = K_p(e + σ‖e‖ξ) = 2·(1, 1.5, 0); f = −Rv = −v on N(A). */
    CU_ASSERT(fabs(f[0] + 2.0) < 1e-14 && fabs(f[1] + 3.0) < 1e-14 && fabs(f[2]) < 1e-14);
    CU_ASSERT(tm_maxabs_diff(3, f, u) < 1e-14);
    /* Computed ξ: first column of P of largest norm: e1. */
    CU_ASSERT_EQUAL_FATAL(t_control(n, 3, P, R, G, fg, q, qs, qd, NULL, &g, f, NULL,
                                    &which, g_work, g_lwork), NSM_OK);
    CU_ASSERT(fabs(f[0] + 2.0 * 2.5) < 1e-14 && fabs(f[1]) < 1e-14);
    /* ξ not in N(A), or not unit: rejected. */
    double bad1[3] = {0, 0, 1}, bad2[3] = {0, 2, 0};
    CU_ASSERT_EQUAL(t_control(n, 3, P, R, G, fg, q, qs, qd, bad1, &g, f, NULL, NULL,
                              g_work, g_lwork), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_control(n, 3, P, R, G, fg, q, qs, qd, bad2, &g, f, NULL, NULL,
                              g_work, g_lwork), NSM_ERR_ARG);
    /* Moving: η = q̇/‖q̇‖. */
    qd[1] = 2.0;
    CU_ASSERT_EQUAL_FATAL(t_control(n, 3, P, R, G, fg, q, qs, qd, xi, &g, f, NULL, &which,
                                    g_work, g_lwork), NSM_OK);
    CU_ASSERT_EQUAL(which, NSM_UNIT_DIRECTION);
    CU_ASSERT(fabs(f[1] + (2.0 * 1.5 + 1.0 * 2.0)) < 1e-14);
}

/* Under-actuated B (rank(PB) < n − r) is NSM_ERR_RANK and writes nothing: (P16), [D] eq. 17. */
static void test_unsolvable(void)
{
    const size_t n = 3;
    double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 0};
    double B[3] = {1, 0, 0}; /* k = 1 < n − r = 2 */
    double G[6] = {7, 7, 7, 7, 7, 7}, R[9];
    size_t rk = 99;
    CU_ASSERT_EQUAL(t_actuation(n, 1, 1, P, B, 1e-10, &rk, G, R, g_work, g_lwork),
                    NSM_ERR_RANK);
    CU_ASSERT_EQUAL(rk, 1);
    CU_ASSERT(G[0] == 7 && G[1] == 7 && G[2] == 7);
    /* B acting only on the constrained direction. */
    double B2[6] = {0, 0, 0, 0, 1, 1};
    CU_ASSERT_EQUAL(t_actuation(n, 2, 1, P, B2, 1e-10, &rk, G, R, g_work, g_lwork),
                    NSM_ERR_RANK);
    CU_ASSERT_EQUAL(rk, 0);
}

/* ---------------------------------------------------------------------------------------- */
/* Bad input, per public function                                                            */
/* ---------------------------------------------------------------------------------------- */

static void test_bad_projector_rates(void)
{
    const size_t n = 3, m = 1;
    double A[3] = {1, 1, 0}, Ad[3] = {0, 1, 0}, P[9], Q[9], X[3], L[9], Pd[9], Om[9];
    size_t r;
    double *w = g_work;
    size_t lw = g_lwork;
    CU_ASSERT_EQUAL(t_projector(n, m, NULL, 1e-10, &r, P, Q, X, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_projector(n, m, A, 1e-10, NULL, P, Q, X, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_projector(n, m, A, 1e-10, &r, NULL, Q, X, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_projector(n, m, A, 1e-10, &r, P, Q, NULL, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_projector(0, m, A, 1e-10, &r, P, Q, X, w, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_projector(n, NSM_MAX_DIM + 1, A, 1e-10, &r, P, Q, X, w, lw),
                    NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_projector(n, m, A, -1e-3, &r, P, Q, X, w, lw), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_projector(n, m, A, 1.0, &r, P, Q, X, w, lw), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_projector(n, m, A, NAN, &r, P, Q, X, w, lw), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_projector(n, m, A, 1e-10, &r, P, Q, X, w, 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(t_projector(n, m, A, 1e-10, &r, P, P, X, w, lw), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(t_projector(n, m, A, 1e-10, &r, P, Q, X, P, lw), NSM_ERR_ALIAS);
    A[1] = INFINITY;
    P[0] = 42.0;
    CU_ASSERT_EQUAL(t_projector(n, m, A, 1e-10, &r, P, Q, X, w, lw), NSM_ERR_NOT_FINITE);
    CU_ASSERT(P[0] == 42.0);
    A[1] = 1;
    CU_ASSERT_EQUAL_FATAL(t_projector(n, m, A, 1e-10, &r, P, Q, X, w, lw), NSM_OK);
    CU_ASSERT_EQUAL(t_rates(n, m, NULL, Ad, P, L, Pd, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_rates(n, m, X, Ad, NULL, L, Pd, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_rates(n, m, X, Ad, P, NULL, Pd, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_rates(0, m, X, Ad, P, L, Pd, w, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_rates(n, m, X, Ad, P, L, Pd, w, 2), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(t_rates(n, m, X, Ad, P, P, Pd, w, lw), NSM_ERR_ALIAS);
    Ad[0] = NAN;
    CU_ASSERT_EQUAL(t_rates(n, m, X, Ad, P, L, Pd, w, lw), NSM_ERR_NOT_FINITE);
    Ad[0] = 0;
    CU_ASSERT_EQUAL(t_rates(n, m, X, Ad, P, L, NULL, NULL, 0), NSM_OK);
    CU_ASSERT_EQUAL(nsm_proj_omega(n, NULL, Om), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_proj_omega(n, L, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_proj_omega(0, L, Om), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_proj_omega(n, L, L), NSM_ERR_ALIAS);
    L[4] = NAN;
    CU_ASSERT_EQUAL(nsm_proj_omega(n, L, Om), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(nsm_proj_projector_work(0, 1), 0);
    CU_ASSERT_EQUAL(nsm_proj_rates_work(NSM_MAX_DIM + 1), 0);
}

static void test_bad_inertia_cbar_oblique(void)
{
    const size_t n = 2;
    double M[4] = {2, 0, 0, 1}, P[4] = {1, 0, 0, 0}, Mb[4], C[4] = {0}, L[4] = {0}, S[4], mu;
    double *w = g_work;
    size_t lw = g_lwork;
    CU_ASSERT_EQUAL(t_inertia(n, 1, NULL, P, NSM_MU_OPTIMAL, 0, Mb, &mu, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_inertia(n, 1, M, P, NSM_MU_OPTIMAL, 0, Mb, NULL, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_inertia(0, 0, M, P, NSM_MU_OPTIMAL, 0, Mb, &mu, w, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_inertia(n, 3, M, P, NSM_MU_OPTIMAL, 0, Mb, &mu, w, lw), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_inertia(n, 1, M, P, NSM_MU_GIVEN, 0.0, Mb, &mu, w, lw), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_inertia(n, 1, M, P, NSM_MU_GIVEN, -1.0, Mb, &mu, w, lw), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_inertia(n, 1, M, P, NSM_MU_GIVEN, INFINITY, Mb, &mu, w, lw), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_inertia(n, 1, M, P, (nsm_mu_mode)7, 1.0, Mb, &mu, w, lw), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_inertia(n, 1, M, P, NSM_MU_OPTIMAL, 0, Mb, &mu, w, 3), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(t_inertia(n, 1, M, P, NSM_MU_OPTIMAL, 0, M, &mu, w, lw), NSM_ERR_ALIAS);
    double Mneg[4] = {-2, 0, 0, 1};
    CU_ASSERT_EQUAL(t_inertia(n, 1, Mneg, P, NSM_MU_OPTIMAL, 0, Mb, &mu, w, lw), NSM_ERR_NOT_SPD);
    M[1] = NAN;
    CU_ASSERT_EQUAL(t_inertia(n, 1, M, P, NSM_MU_OPTIMAL, 0, Mb, &mu, w, lw), NSM_ERR_NOT_FINITE);
    M[1] = 0;
    CU_ASSERT_EQUAL_FATAL(t_inertia(n, 1, M, P, NSM_MU_OPTIMAL, 0, Mb, &mu, w, lw), NSM_OK);
    CU_ASSERT(mu == 2.0 && Mb[0] == 2.0 && Mb[3] == 2.0 && Mb[1] == 0.0);
    CU_ASSERT_EQUAL(t_cbar(n, M, NULL, P, L, 1.0, S, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_cbar(0, M, C, P, L, 1.0, S, w, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_cbar(n, M, C, P, L, 0.0, S, w, lw), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_cbar(n, M, C, P, L, 1.0, S, w, 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(t_cbar(n, M, C, P, L, 1.0, C, w, lw), NSM_ERR_ALIAS);
    C[2] = NAN;
    CU_ASSERT_EQUAL(t_cbar(n, M, C, P, L, 1.0, S, w, lw), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(nsm_proj_oblique(n, M, NULL, P, S, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_proj_oblique(0, M, Mb, P, S, w, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_proj_oblique(n, M, Mb, P, S, w, 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(nsm_proj_oblique(n, M, Mb, P, Mb, w, lw), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_proj_oblique(n, M, Mneg, P, S, w, lw), NSM_ERR_NOT_SPD);
    Mb[0] = INFINITY;
    CU_ASSERT_EQUAL(nsm_proj_oblique(n, M, Mb, P, S, w, lw), NSM_ERR_NOT_FINITE);
}

/* The exact error behaviours of nsm_proj_dynamics (nsmech/projection.h, clauses workspace,
   short_work, untouched): one double short of nsm_proj_dynamics_work gives
   NSM_ERR_WORKSPACE, the query's size works; on NSM_ERR_WORKSPACE, NSM_ERR_ARG and
   NSM_ERR_ALIAS every output (q̈, f_c, P, M̄, info) and the whole workspace keep their bytes. */
static void test_dynamics_errors_write_nothing(void)
{
    const size_t n = 3, m = 1;
    const double M[9] = {2, 0, 0, 0, 2, 0, 0, 0, 2}, C[9] = {0}, A[3] = {1, 0, 0},
                 Ad[3] = {0}, f[3] = {1, 1, 1}, fg[3] = {0}, qd[3] = {0};
    size_t need = nsm_proj_dynamics_work(n, m);
    CU_ASSERT_FATAL(need > 0 && need + 4 <= g_lwork);
    double out[3 + 3 + 9 + 9], keep_out[sizeof out / sizeof(double)];
    double *w = g_work, *keep_w = malloc((need + 4) * sizeof(double));
    CU_ASSERT_FATAL(keep_w != NULL);
    for (size_t i = 0; i < sizeof out / sizeof(double); i++) {
        out[i] = 0.5 + (double)i;
    }
    for (size_t i = 0; i < need + 4; i++) {
        w[i] = -0.5 - (double)i;
    }
    memcpy(keep_out, out, sizeof out);
    memcpy(keep_w, w, (need + 4) * sizeof(double));
    const nsm_proj_problem prob = {n, m, M, C, A, Ad, f, fg, qd};
    nsm_proj_dynamics_result res = {out, out + 3, out + 6, out + 15, {42, 4.5}};
    nsm_proj_opts good = NSM_PROJ_OPTS_DEFAULT, bad = NSM_PROJ_OPTS_DEFAULT;
    bad.rank_rtol = 1.5;
    CU_ASSERT_EQUAL(nsm_proj_dynamics(&prob, &good, &res, w, need - 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(nsm_proj_dynamics(&prob, NULL, &res, w, need - 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(nsm_proj_dynamics(&prob, &bad, &res, w, need - 1), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_proj_dynamics(&prob, &bad, &res, w, need), NSM_ERR_ARG);
    res.Mbar = out + 7; /* M̄ over P */
    CU_ASSERT_EQUAL(nsm_proj_dynamics(&prob, &good, &res, w, need), NSM_ERR_ALIAS);
    res.Mbar = out + 15;
    res.fc = w + need - 1; /* f_c over the end of the workspace */
    CU_ASSERT_EQUAL(nsm_proj_dynamics(&prob, &good, &res, w, need), NSM_ERR_ALIAS);
    CU_ASSERT(memcmp(out, keep_out, sizeof out) == 0);
    CU_ASSERT(memcmp(w, keep_w, (need + 4) * sizeof(double)) == 0);
    CU_ASSERT(res.info.rank == 42 && res.info.mu == 4.5);
    res.fc = out + 3;
    CU_ASSERT_EQUAL(nsm_proj_dynamics(&prob, &good, &res, w, need), NSM_OK);
    CU_ASSERT_EQUAL(res.info.rank, 1u);
    free(keep_w);
}

static void test_bad_dynamics(void)
{
    const size_t n = 3, m = 1;
    double M[9] = {2, 0, 0, 0, 2, 0, 0, 0, 2}, C[9] = {0}, A[3] = {1, 0, 0}, Ad[3] = {0};
    double f[3] = {1, 1, 1}, fg[3] = {0}, qd[3] = {0}, qdd[3] = {5, 5, 5}, fc[3];
    nsm_proj_info info = {0, 0.0};
    double *w = g_work;
    size_t lw = g_lwork;
    nsm_proj_opts o = NSM_PROJ_OPTS_DEFAULT;
#define DYN(nn, mm, MM, AA, OO, QDD, WW, LW) \
    t_dynamics(nn, mm, MM, C, AA, Ad, f, fg, qd, OO, QDD, fc, &info, NULL, NULL, WW, LW)
    CU_ASSERT_EQUAL(DYN(n, m, NULL, A, &o, qdd, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(DYN(n, m, M, NULL, &o, qdd, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, NULL, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, qdd, NULL, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(DYN(0, m, M, A, &o, qdd, w, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(DYN(NSM_MAX_DIM + 1, m, M, A, &o, qdd, w, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, qdd, w, 10), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, f, w, lw), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, w + 1, w, lw), NSM_ERR_ALIAS);
    /* The result structure (info inside it) over an output, the workspace or an input is
       rejected, the output left as it was; info over q̈ was once accepted with q̈
       overwritten. */
    {
        union {
            double d[8];
            nsm_proj_dynamics_result r;
        } u;
        const nsm_proj_problem prob = {n, m, M, C, A, Ad, f, fg, qd};
        for (int i = 0; i < 8; i++) {
            u.d[i] = 7.0;
        }
        u.r.qdd = u.d; /* q̈ under the structure */
        u.r.fc = fc;
        u.r.P = NULL;
        u.r.Mbar = NULL;
        double keep[8];
        memcpy(keep, u.d, sizeof keep);
        CU_ASSERT_EQUAL(nsm_proj_dynamics(&prob, &o, &u.r, w, lw), NSM_ERR_ALIAS);
        CU_ASSERT(memcmp(keep, u.d, sizeof keep) == 0);
        nsm_proj_dynamics_result *inw = (nsm_proj_dynamics_result *)(void *)(w + 2);
        inw->qdd = qdd; /* the structure inside the workspace */
        inw->fc = fc;
        inw->P = NULL;
        inw->Mbar = NULL;
        CU_ASSERT_EQUAL(nsm_proj_dynamics(&prob, &o, inw, w, lw), NSM_ERR_ALIAS);
        /* over the input f: f is the last three doubles of the buffer, the structure the
           first six (its info over f[0]) */
        u.r.qdd = qdd;
        u.d[5] = f[0];
        u.d[6] = f[1];
        u.d[7] = f[2];
        const nsm_proj_problem pf = {n, m, M, C, A, Ad, u.d + 5, fg, qd};
        CU_ASSERT_EQUAL(nsm_proj_dynamics(&pf, &o, &u.r, w, lw), NSM_ERR_ALIAS);
        /* NULL structures */
        CU_ASSERT_EQUAL(nsm_proj_dynamics(NULL, &o, &u.r, w, lw), NSM_ERR_NULL);
        CU_ASSERT_EQUAL(nsm_proj_dynamics(&prob, &o, NULL, w, lw), NSM_ERR_NULL);
    }
    o.mu_mode = NSM_MU_GIVEN;
    o.mu = 0.0;
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, qdd, w, lw), NSM_ERR_ARG);
    o.mu = -2.0;
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, qdd, w, lw), NSM_ERR_ARG);
    o = (nsm_proj_opts)NSM_PROJ_OPTS_DEFAULT;
    o.rank_rtol = 2.0;
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, qdd, w, lw), NSM_ERR_ARG);
    o = (nsm_proj_opts)NSM_PROJ_OPTS_DEFAULT;
    o.sym_rtol = -1.0;
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, qdd, w, lw), NSM_ERR_ARG);
    o = (nsm_proj_opts)NSM_PROJ_OPTS_DEFAULT;
    /* Non-SPD M: indefinite, and non-symmetric. */
    double Mi[9] = {2, 0, 0, 0, -1, 0, 0, 0, 2}, Mn[9] = {2, 1, 0, 0, 2, 0, 0, 0, 2};
    CU_ASSERT_EQUAL(DYN(n, m, Mi, A, &o, qdd, w, lw), NSM_ERR_NOT_SPD);
    CU_ASSERT_EQUAL(DYN(n, m, Mn, A, &o, qdd, w, lw), NSM_ERR_NOT_SPD);
    /* Indefinite only on the constrained direction: the SPD check still catches it. */
    double Mc[9] = {-1, 0, 0, 0, 2, 0, 0, 0, 2};
    CU_ASSERT_EQUAL(DYN(n, m, Mc, A, &o, qdd, w, lw), NSM_ERR_NOT_SPD);
    /* NaN / Inf in every input. */
    const double *ins[7] = {M, C, A, Ad, f, fg, qd};
    for (int t = 0; t < 7; t++) {
        double *x = (double *)(uintptr_t)ins[t];
        double keep = x[0];
        x[0] = (t % 2) ? INFINITY : NAN;
        CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, qdd, w, lw), NSM_ERR_NOT_FINITE);
        x[0] = keep;
    }
    /* A of subnormal norm: A⁺ = 1/A_00 is beyond DBL_MAX (projection.h: NSM_ERR_NOT_FINITE),
       as for nsm_pinv; the rank decision alone (scale-free) would accept it. */
    double At[3] = {1e-310, 0, 0};
    CU_ASSERT_EQUAL(DYN(n, m, M, At, &o, qdd, w, lw), NSM_ERR_NOT_FINITE);
    size_t rk_svd = 0;
    double Xs[3];
    CU_ASSERT_EQUAL(nsm_pinv(m, n, At, NSM_RANK_RTOL_DEFAULT, &rk_svd, Xs, w, lw),
                    NSM_ERR_NOT_FINITE);
    CU_ASSERT(qdd[0] == 5 && qdd[1] == 5 && qdd[2] == 5);
    /* small but representable: A⁺ = 1e300 */
    At[0] = 1e-300;
    CU_ASSERT_EQUAL(DYN(n, m, M, At, &o, qdd, w, lw), NSM_OK);
    CU_ASSERT_EQUAL(info.rank, 1);
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, qdd, w, lw), NSM_OK);
    /* Finite inputs whose q̈ overflows (f + f_g beyond DBL_MAX): NSM_ERR_NOT_FINITE, never an
       infinite q̈ with NSM_OK (projection.h), q̈ and f_c left as they were. */
    double qkeep[3] = {qdd[0], qdd[1], qdd[2]};
    fc[0] = fc[1] = fc[2] = 3.0;
    f[1] = 1e308;
    fg[1] = 1e308;
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, qdd, w, lw), NSM_ERR_NOT_FINITE);
    CU_ASSERT(qdd[0] == qkeep[0] && qdd[1] == qkeep[1] && qdd[2] == qkeep[2]);
    CU_ASSERT(fc[0] == 3.0 && fc[1] == 3.0 && fc[2] == 3.0);
    f[1] = 1.0;
    fg[1] = 0.0;
    CU_ASSERT_EQUAL(DYN(n, m, M, A, &o, qdd, w, lw), NSM_OK);
#undef DYN
    CU_ASSERT_EQUAL(nsm_proj_dynamics_work(0, 1), 0);
    CU_ASSERT_EQUAL(nsm_proj_dynamics_work(3, NSM_MAX_DIM + 1), 0);
}

static void test_bad_actuation_control(void)
{
    const size_t n = 2;
    double P[4] = {1, 0, 0, 0}, B[4] = {1, 0, 0, 1}, G[4], R[4];
    size_t rk;
    double *w = g_work;
    size_t lw = g_lwork;
    CU_ASSERT_EQUAL(t_actuation(n, 2, 1, NULL, B, 1e-10, &rk, G, R, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_actuation(n, 2, 1, P, B, 1e-10, NULL, G, R, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_actuation(n, 2, 1, P, B, 1e-10, &rk, NULL, R, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_actuation(n, 0, 1, P, B, 1e-10, &rk, G, R, w, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_actuation(n, 2, 3, P, B, 1e-10, &rk, G, R, w, lw), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_actuation(n, 2, 1, P, B, 1.5, &rk, G, R, w, lw), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_actuation(n, 2, 1, P, B, 1e-10, &rk, G, R, w, 2), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(t_actuation(n, 2, 1, P, B, 1e-10, &rk, G, G, w, lw), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(t_actuation(n, 2, 1, P, B, 1e-10, &rk, B, R, w, lw), NSM_ERR_ALIAS);
    B[3] = NAN;
    CU_ASSERT_EQUAL(t_actuation(n, 2, 1, P, B, 1e-10, &rk, G, R, w, lw), NSM_ERR_NOT_FINITE);
    B[3] = 1;
    CU_ASSERT_EQUAL_FATAL(t_actuation(n, 2, 1, P, B, 1e-10, &rk, G, R, w, lw), NSM_OK);
    nsm_proj_gains g = {1.0, 1.0, 2.0, 1e-12, 1e-9};
    double fg[2] = {0}, q[2] = {1, 0}, qs[2] = {0}, qd[2] = {0.5, 0}, f[2], u[2];
#define CTL(GG, FF, UU) t_control(n, 2, P, R, G, fg, q, qs, qd, NULL, GG, FF, UU, NULL, w, lw)
    CU_ASSERT_EQUAL(CTL(NULL, f, u), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(CTL(&g, NULL, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_control(n, 2, P, NULL, G, fg, q, qs, qd, NULL, &g, f, NULL, NULL, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_control(n, 2, P, R, NULL, fg, q, qs, qd, NULL, &g, NULL, u, NULL, w, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_control(0, 2, P, R, G, fg, q, qs, qd, NULL, &g, f, u, NULL, w, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_control(n, 0, P, R, G, fg, q, qs, qd, NULL, &g, f, u, NULL, w, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_control(n, 2, P, R, G, fg, q, qs, qd, NULL, &g, f, u, NULL, w, 3), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(CTL(&g, q, u), NSM_ERR_ALIAS);
    /* σ must be 0 or > 1 (projection.h): σ = 1, 0.5 and -1 are rejected, σ = 0 is accepted */
    nsm_proj_gains bad[8] = {{0, 1, 2, 0, 0}, {1, -1, 2, 0, 0}, {1, 1, 1.0, 0, 0},
                             {1, 1, 2, -1, 0}, {1, 1, 2, 0, -1}, {NAN, 1, 2, 0, 0},
                             {1, 1, 0.5, 0, 0}, {1, 1, -1.0, 0, 0}};
    for (int t = 0; t < 8; t++) {
        CU_ASSERT_EQUAL(CTL(&bad[t], f, u), NSM_ERR_ARG);
    }
    qd[0] = INFINITY;
    CU_ASSERT_EQUAL(CTL(&g, f, u), NSM_ERR_NOT_FINITE);
    qd[0] = 0.5;
    CU_ASSERT_EQUAL(CTL(&g, f, u), NSM_OK);
    /* σ = 0: f = −R(f_g + K_p e + K_d q̇), recomputed here by plain loops */
    nsm_proj_gains g0 = {1.5, 0.7, 0.0, 1e-12, 1e-9};
    CU_ASSERT_EQUAL(CTL(&g0, f, NULL), NSM_OK);
    for (size_t i = 0; i < n; i++) {
        double r = 0.0;
        for (size_t j = 0; j < n; j++) {
            r -= R[i * n + j] * (fg[j] + g0.kp * (q[j] - qs[j]) + g0.kd * qd[j]);
        }
        CU_ASSERT_DOUBLE_EQUAL(f[i], r, 1e-15);
    }
#undef CTL
}

/* nsm_proj_lyapunov: V = ½q̇ᵀM̄q̇ + ½K_p‖e‖², V̇ = q̇ᵀP(f + f_g) + K_p eᵀq̇ on a closed form, and
   every documented error: NULL, size, K_p, non-finite input, an output over an input. V is
   (P21), [D] eq. 24. */
static void test_lyapunov_monitor(void)
{
    const double Mb[4] = {2, 0, 0, 3}, P[4] = {1, 0, 0, 0}, f[2] = {-1, 5}, fg[2] = {0.5, -2};
    double q[2] = {1, 2}, qs[2] = {0.5, 0}, qd[2] = {0.25, 0};
    double V = -1, Vd = -1;
    /* kin = 2·0.25² = 0.125, e = (0.5, 2): ‖e‖² = 4.25; q̇ᵀP(f + f_g) = 0.25·(−0.5),
       K_p eᵀq̇ = 2·0.125 */
    CU_ASSERT_EQUAL(t_lyapunov(2, Mb, P, f, fg, q, qs, qd, 2.0, &V, &Vd), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(V, 0.5 * 0.125 + 0.5 * 2.0 * 4.25, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(Vd, -0.125 + 0.25, 1e-15);
    CU_ASSERT_EQUAL(t_lyapunov(2, NULL, P, f, fg, q, qs, qd, 2.0, &V, &Vd), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_lyapunov(2, Mb, P, f, fg, q, qs, qd, 2.0, &V, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_lyapunov(0, Mb, P, f, fg, q, qs, qd, 2.0, &V, &Vd), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_lyapunov(NSM_MAX_DIM + 1, Mb, P, f, fg, q, qs, qd, 2.0, &V, &Vd),
                    NSM_ERR_SIZE);
    V = Vd = -1;
    CU_ASSERT_EQUAL(t_lyapunov(2, Mb, P, f, fg, q, qs, qd, 0.0, &V, &Vd), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_lyapunov(2, Mb, P, f, fg, q, qs, qd, NAN, &V, &Vd), NSM_ERR_ARG);
    /* The result over an input (its Vdot over q̇[0]): NSM_ERR_ALIAS. V and V̇ can no longer
       share storage: they are two fields of the result. */
    {
        union {
            double d[3];
            nsm_proj_lyapunov_result r;
        } u = {{-1.0, qd[0], qd[1]}};
        const nsm_proj_control_input x = {2, 0, P, NULL, NULL, fg, q, qs, u.d + 1, NULL};
        CU_ASSERT_EQUAL(nsm_proj_lyapunov(&x, Mb, f, 2.0, &u.r), NSM_ERR_ALIAS);
        CU_ASSERT(u.d[0] == -1.0 && u.d[1] == qd[0]);
        CU_ASSERT_EQUAL(nsm_proj_lyapunov(NULL, Mb, f, 2.0, &u.r), NSM_ERR_NULL);
        CU_ASSERT_EQUAL(nsm_proj_lyapunov(&x, Mb, f, 2.0, NULL), NSM_ERR_NULL);
    }
    q[1] = INFINITY;
    CU_ASSERT_EQUAL(t_lyapunov(2, Mb, P, f, fg, q, qs, qd, 2.0, &V, &Vd), NSM_ERR_NOT_FINITE);
    CU_ASSERT(V == -1 && Vd == -1); /* nothing written on error */
}

/* At the goal (q = q*, e = 0) the law is v = f_g + K_d q̇ (the K_p term vanishes whatever η);
   with P = 0 (N(A) = {0}) and xi NULL, η = 0: v = f_g + K_p e exactly, even with an R that is
   not zero (the function does not re-derive R from P). The law is (P19), [D] eq. 21. */
static void test_control_goal_and_no_freedom(void)
{
    const size_t n = 3;
    double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 0}, Id[9], Z[9] = {0};
    tm_identity(n, Id);
    nsm_proj_gains g = {2.0, 0.5, 1.5, 1e-12, 1e-9};
    const double fg[3] = {0.25, -1, 2}, q[3] = {1, -2, 0.5}, qd[3] = {0.5, -0.25, 0};
    const double zero[3] = {0, 0, 0};
    double f[3];
    nsm_unit_case which;
    CU_ASSERT_EQUAL_FATAL(t_control(n, 0, P, Id, NULL, fg, q, q, qd, NULL, &g, f, NULL,
                                    &which, g_work, g_lwork), NSM_OK);
    CU_ASSERT_EQUAL(which, NSM_UNIT_DIRECTION);
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_DOUBLE_EQUAL(f[i], -(fg[i] + g.kd * qd[i]), 1e-15);
    }
    CU_ASSERT_EQUAL_FATAL(t_control(n, 0, Z, Id, NULL, fg, q, zero, zero, NULL, &g, f,
                                    NULL, &which, g_work, g_lwork), NSM_OK);
    CU_ASSERT_EQUAL(which, NSM_UNIT_BALL);
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_DOUBLE_EQUAL(f[i], -(fg[i] + g.kp * q[i]), 1e-15);
    }
}

/* n >= 24 with 2m >= n: PMP as P(MP) (the factored form is only for 2m < n); q̈ and f_c equal
   the KKT solve as for every other size: (P12), (P13), (P15). */
static void test_dynamics_large_plain_form(void)
{
    nsm_rng rng;
    nsm_rng_seed(&rng, prop_base_seed() + 424242u);
    static sys_t s;
    CU_ASSERT_EQUAL_FATAL(gen_system_nm(&rng, &s, 24, 12), 0);
    double top[NMAX], adq[MMAX], q_ref[NMAX], fc_ref[NMAX], qdd[NMAX], fc[NMAX];
    kkt_rhs(&s, top, adq);
    CU_ASSERT_EQUAL_FATAL(oracle_kkt(s.n, s.m, s.M, s.A, top, adq, q_ref, fc_ref), 0);
    nsm_proj_info info = {0, 0.0};
    CU_ASSERT_EQUAL_FATAL(run_dyn(&s, s.m, s.A, s.Ad, NULL, qdd, fc, &info, NULL, NULL), NSM_OK);
    CU_ASSERT_EQUAL(info.rank, 12);
    CU_ASSERT(rel_err(s.n, qdd, q_ref) <= 1e-9);
    CU_ASSERT(rel_err(s.n, fc, fc_ref) <= 1e-9);
}

/* With the SPD check of M off, an M that is indefinite on N(A) still gives NSM_ERR_NOT_SPD
   ("M̄ not factorisable") when μ is given, and writes nothing. */
static void test_dynamics_mbar_not_factorisable(void)
{
    const double M[9] = {1, 0, 0, 0, -1, 0, 0, 0, 1}, C[9] = {0}, A[3] = {1, 0, 0};
    const double Ad[3] = {0}, f[3] = {1, 1, 1}, fg[3] = {0}, qd[3] = {0};
    double qdd[3] = {5, 5, 5}, fc[3] = {5, 5, 5};
    nsm_proj_info info = {0, 0.0};
    nsm_proj_opts o = NSM_PROJ_OPTS_DEFAULT;
    o.check_spd = 0;
    o.mu_mode = NSM_MU_GIVEN;
    o.mu = 1.0;
    CU_ASSERT_EQUAL(t_dynamics(3, 1, M, C, A, Ad, f, fg, qd, &o, qdd, fc, &info, NULL,
                               NULL, g_work, g_lwork), NSM_ERR_NOT_SPD);
    CU_ASSERT(qdd[0] == 5 && qdd[1] == 5 && qdd[2] == 5 && fc[0] == 5);
    /* μ* = tr(PMP)/(n − r) = 0 here: also NSM_ERR_NOT_SPD (μ* <= 0) */
    o.mu_mode = NSM_MU_OPTIMAL;
    CU_ASSERT_EQUAL(t_dynamics(3, 1, M, C, A, Ad, f, fg, qd, &o, qdd, fc, &info, NULL,
                               NULL, g_work, g_lwork), NSM_ERR_NOT_SPD);
    CU_ASSERT_EQUAL(nsm_proj_projector_work(3, NSM_MAX_DIM + 1), 0);
    CU_ASSERT_EQUAL(nsm_proj_projector_work(NSM_MAX_DIM + 1, 3), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* Per-argument sweeps (tests/support/sweep.h): each documented NULL, overlap and non-finite */
/* error, one argument at a time, from one valid call                                        */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    size_t n, m, k, r;
    double rtol, mu;
    nsm_mu_mode mode;
    size_t lwork;
} sw_ctx;

/* A 3×3 problem with two independent constraints (m = 2) and two inputs (k = 2). */
static const double SW_M[9] = {3, 1, 0, 1, 2, 0.5, 0, 0.5, 1.5};
static const double SW_A[6] = {1, 1, 0, 0, 1, 2};
static const double SW_Ad[6] = {0.5, -1, 0, 0.25, 0, 1};
static const double SW_B[6] = {1, 0, 0, 1, 1, 1};

static void sw_projector_parts(double *P, double *Q, double *X)
{
    size_t r;
    CU_ASSERT_EQUAL_FATAL(t_projector(3, 2, SW_A, 1e-10, &r, P, Q, X, g_work, g_lwork),
                          NSM_OK);
    CU_ASSERT_EQUAL(r, 2);
}

static nsm_status sw_projector(void *const *a, void *c)
{
    const sw_ctx *x = c;
    return nsm_proj_projector(x->n, x->m, a[0], x->rtol, a[1], a[5], x->lwork);
}

/* The result structure a[1] points to P, Q, A⁺ (a[2], a[3], a[4]). */
static void sw_projector_fill(void *const *a, void *c)
{
    (void)c;
    nsm_proj_projector_result *r = a[1];
    if (r != NULL) {
        r->rank = 0;
        r->P = a[2];
        r->Q = a[3];
        r->Apinv = a[4];
    }
}

static nsm_status sw_rates(void *const *a, void *c)
{
    const sw_ctx *x = c;
    return nsm_proj_rates(x->n, x->m, a[0], a[1], a[2], a[3], a[6], x->lwork);
}

static void sw_rates_fill(void *const *a, void *c)
{
    (void)c;
    nsm_proj_rates_result *r = a[3];
    if (r != NULL) {
        r->Lambda = a[4];
        r->Pdot = a[5];
    }
}

static nsm_status sw_omega(void *const *a, void *c)
{
    return nsm_proj_omega(((const sw_ctx *)c)->n, a[0], a[1]);
}

static nsm_status sw_inertia(void *const *a, void *c)
{
    const sw_ctx *x = c;
    const nsm_proj_problem prob = {x->n, 0, a[0], NULL, NULL, NULL, NULL, NULL, NULL};
    return nsm_proj_inertia(&prob, x->r, a[1], x->mode, x->mu, a[2], a[4], x->lwork);
}

static void sw_inertia_fill(void *const *a, void *c)
{
    (void)c;
    nsm_proj_inertia_result *r = a[2];
    if (r != NULL) {
        r->Mbar = a[3];
        r->mu_used = 0.0;
    }
}

static nsm_status sw_cbar(void *const *a, void *c)
{
    const sw_ctx *x = c;
    const nsm_proj_problem prob = {x->n, 0, a[0], a[1], NULL, NULL, NULL, NULL, NULL};
    return nsm_proj_cbar(&prob, a[2], a[3], x->mu, a[4], a[5], x->lwork);
}

static nsm_status sw_oblique(void *const *a, void *c)
{
    const sw_ctx *x = c;
    return nsm_proj_oblique(x->n, a[0], a[1], a[2], a[3], a[4], x->lwork);
}

static nsm_status sw_dynamics(void *const *a, void *c)
{
    const sw_ctx *x = c;
    const nsm_proj_problem prob = {x->n, x->m, a[0], a[1], a[2], a[3], a[4], a[5], a[6]};
    return nsm_proj_dynamics(&prob, a[7], a[8], a[13], x->lwork);
}

/* The result structure a[8] points to q̈, f_c, P, M̄ (a[9] .. a[12]). */
static void sw_dynamics_fill(void *const *a, void *c)
{
    (void)c;
    nsm_proj_dynamics_result *r = a[8];
    if (r != NULL) {
        r->qdd = a[9];
        r->fc = a[10];
        r->P = a[11];
        r->Mbar = a[12];
        r->info.rank = 0;
        r->info.mu = 0.0;
    }
}

static nsm_status sw_actuation(void *const *a, void *c)
{
    const sw_ctx *x = c;
    const nsm_proj_actuation_input in = {x->n, x->k, x->r, a[0], a[1], x->rtol};
    return nsm_proj_actuation(&in, a[2], a[5], x->lwork);
}

static void sw_actuation_fill(void *const *a, void *c)
{
    (void)c;
    nsm_proj_actuation_result *r = a[2];
    if (r != NULL) {
        r->rank_pb = 0;
        r->Gamma = a[3];
        r->R = a[4];
    }
}

static nsm_status sw_control(void *const *a, void *c)
{
    const sw_ctx *x = c;
    const nsm_proj_control_input in = {x->n, x->k, a[0], a[1], a[2], a[3], a[4], a[5], a[6],
                                       a[7]};
    return nsm_proj_control(&in, a[8], a[11], a[12], x->lwork);
}

static void sw_control_fill(void *const *a, void *c)
{
    (void)c;
    nsm_proj_control_result *r = a[11];
    if (r != NULL) {
        r->f = a[9];
        r->u = a[10];
        r->eta_case = NSM_UNIT_BALL;
    }
}

#define D(k) ((k) * sizeof(double))

/* Projector, rates, Ω: "Errors (nothing written)" for the projector; NSM_ERR_NULL for each
   required pointer, NSM_ERR_ALIAS for outputs over each other, A or work, NSM_ERR_NOT_FINITE
   for A (projector), A⁺, Ȧ and, with Ṗ wanted, P (rates), Λ (Ω). */
static void test_sweep_projector_rates(void)
{
    double P[9], Q[9], X[6], L[9], Pd[9], Om[9], w[64];
    nsm_proj_projector_result pres;
    nsm_proj_rates_result rres;
    memset(&pres, 0, sizeof pres);
    memset(&rres, 0, sizeof rres);
    sw_projector_parts(P, Q, X);
    sw_ctx c = {3, 2, 2, 2, 1e-10, 1.0, NSM_MU_OPTIMAL, nsm_proj_projector_work(3, 2)};
    CU_ASSERT_FATAL(c.lwork <= 64);
    /* res, the result structure, over P, Q, A⁺, A or work: NSM_ERR_ALIAS (its rank can no
       longer land inside P unnoticed) */
    const sweep_arg pa[6] = {{"A", SW_A, D(6), SW_IN | SW_FINITE},
                             {"res", &pres, sizeof pres, SW_OUT},
                             {"P", P, D(9), SW_OUT},
                             {"Q", Q, D(9), SW_OUT},
                             {"Apinv", X, D(6), SW_OUT},
                             {"work", w, D(c.lwork), SW_OUT}};
    CU_ASSERT_EQUAL(sweep_args_fill("nsm_proj_projector", sw_projector, sw_projector_fill, &c, pa,
                                    6, SWEEP_UNWRITTEN), 0);
    c.lwork = nsm_proj_rates_work(3);
    CU_ASSERT_EQUAL(c.lwork, 9); /* documented: n·n */
    const sweep_arg ra[7] = {{"Apinv", X, D(6), SW_IN | SW_FINITE},
                             {"Adot", SW_Ad, D(6), SW_IN | SW_FINITE},
                             {"P", P, D(9), SW_IN | SW_FINITE},
                             {"res", &rres, sizeof rres, SW_OUT},
                             {"Lambda", L, D(9), SW_OUT},
                             {"Pdot", Pd, D(9), SW_OUT | SW_NULLABLE},
                             {"work", w, D(9), SW_OUT}};
    CU_ASSERT_EQUAL(sweep_args_fill("nsm_proj_rates", sw_rates, sw_rates_fill, &c, ra, 7, 0), 0);
    /* Without Ṗ, P and work are not needed, and P is not read (a NaN in it is no error). */
    double Pnan[9];
    memcpy(Pnan, P, sizeof Pnan);
    Pnan[4] = NAN;
    CU_ASSERT_EQUAL(t_rates(3, 2, X, SW_Ad, NULL, L, NULL, NULL, 0), NSM_OK);
    CU_ASSERT_EQUAL(t_rates(3, 2, X, SW_Ad, Pnan, L, NULL, NULL, 0), NSM_OK);
    CU_ASSERT_EQUAL(t_rates(3, 2, X, SW_Ad, Pnan, L, Pd, w, 9), NSM_ERR_NOT_FINITE);
    /* Ṗ wanted: P and work are then required. */
    CU_ASSERT_EQUAL(t_rates(3, 2, X, SW_Ad, NULL, L, Pd, w, 9), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_rates(3, 2, X, SW_Ad, P, L, Pd, NULL, 9), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_rates(3, NSM_MAX_DIM + 1, X, SW_Ad, P, L, Pd, w, 9), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_rates(NSM_MAX_DIM + 1, 2, X, SW_Ad, P, L, Pd, w, 9), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_rates(3, 2, NULL, SW_Ad, P, L, Pd, w, 9), NSM_ERR_NULL);
    const sweep_arg oa[2] = {{"Lambda", L, D(9), SW_IN | SW_FINITE}, {"Omega", Om, D(9), SW_OUT}};
    CU_ASSERT_EQUAL(sweep_args("nsm_proj_omega", sw_omega, &c, oa, 2, 0), 0);
    CU_ASSERT_EQUAL(nsm_proj_omega(NSM_MAX_DIM + 1, L, Om), NSM_ERR_SIZE);
}

/* Inertia, C̄, S: documented workspace sizes (2·n·n, 0 out of range) and each NULL, overlap
   and non-finite input. */
static void test_sweep_inertia_cbar_oblique(void)
{
    double P[9], Q[9], X[6], Mb[9], Cb[9], S[9], L[9], mu = 0.0, w[64];
    nsm_proj_inertia_result ires;
    memset(&ires, 0, sizeof ires);
    const double C[9] = {0, 1, 0, -1, 0, 0.5, 0, -0.5, 0.25};
    sw_projector_parts(P, Q, X);
    CU_ASSERT_EQUAL_FATAL(t_rates(3, 2, X, SW_Ad, NULL, L, NULL, NULL, 0), NSM_OK);
    size_t (*const works[3])(size_t) = {nsm_proj_inertia_work, nsm_proj_cbar_work,
                                        nsm_proj_oblique_work};
    for (int t = 0; t < 3; t++) {
        CU_ASSERT_EQUAL(works[t](0), 0);
        CU_ASSERT_EQUAL(works[t](NSM_MAX_DIM + 1), 0);
        CU_ASSERT_EQUAL(works[t](3), 18);
        CU_ASSERT_EQUAL(works[t](NSM_MAX_DIM), 2u * NSM_MAX_DIM * NSM_MAX_DIM);
    }
    sw_ctx c = {3, 2, 2, 2, 1e-10, 1.0, NSM_MU_OPTIMAL, 18};
    /* res (the result structure, holding mu_used) over M, P, M̄ or work: NSM_ERR_ALIAS */
    const sweep_arg ia[5] = {{"M", SW_M, D(9), SW_IN | SW_FINITE},
                             {"P", P, D(9), SW_IN | SW_FINITE},
                             {"res", &ires, sizeof ires, SW_OUT},
                             {"Mbar", Mb, D(9), SW_OUT},
                             {"work", w, D(18), SW_OUT}};
    CU_ASSERT_EQUAL(sweep_args_fill("nsm_proj_inertia", sw_inertia, sw_inertia_fill, &c, ia, 5, 0),
                    0);
    CU_ASSERT_EQUAL(t_inertia(3, 2, SW_M, P, NSM_MU_OPTIMAL, 0, Mb, &mu, w, 18), NSM_OK);
    const sweep_arg ca[6] = {{"M", SW_M, D(9), SW_IN | SW_FINITE},
                             {"C", C, D(9), SW_IN | SW_FINITE},
                             {"P", P, D(9), SW_IN | SW_FINITE},
                             {"Lambda", L, D(9), SW_IN | SW_FINITE},
                             {"Cbar", Cb, D(9), SW_OUT},
                             {"work", w, D(18), SW_OUT}};
    c.mu = mu;
    CU_ASSERT_EQUAL(sweep_args("nsm_proj_cbar", sw_cbar, &c, ca, 6, 0), 0);
    CU_ASSERT_EQUAL(t_cbar(3, SW_M, C, P, L, INFINITY, Cb, w, 18), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_cbar(3, SW_M, C, P, L, NAN, Cb, w, 18), NSM_ERR_ARG);
    const sweep_arg sa[5] = {{"M", SW_M, D(9), SW_IN | SW_FINITE},
                             {"Mbar", Mb, D(9), SW_IN | SW_FINITE},
                             {"P", P, D(9), SW_IN | SW_FINITE},
                             {"S", S, D(9), SW_OUT},
                             {"work", w, D(18), SW_OUT}};
    CU_ASSERT_EQUAL(sweep_args("nsm_proj_oblique", sw_oblique, &c, sa, 5, 0), 0);
}

/* Dynamics: "Errors (nothing written)"; NSM_ERR_NULL for each required pointer (fc, P, M̄ are
   optional), NSM_ERR_ALIAS for an output (info included) over an input, another output or
   work, NSM_ERR_NOT_FINITE for any input. */
static void test_sweep_dynamics(void)
{
    const double C[9] = {0, 1, 0, -1, 0, 0.5, 0, -0.5, 0.25};
    const double f[3] = {1, -2, 0.5}, fg[3] = {0, 0, -9.81}, qd[3] = {0.1, -0.1, 0.2};
    double qdd[3], fc[3], P[9], Mb[9];
    nsm_proj_info info = {0, 0.0};
    nsm_proj_opts o;
    nsm_proj_dynamics_result dres;
    memset(&dres, 0, sizeof dres);
    /* the sweep compares the struct's bytes: padding zeroed, then the documented defaults */
    memset(&o, 0, sizeof o);
    {
        const nsm_proj_opts def = NSM_PROJ_OPTS_DEFAULT;
        o.rank_rtol = def.rank_rtol;
        o.mu_mode = def.mu_mode;
        o.mu = def.mu;
        o.check_spd = def.check_spd;
        o.sym_rtol = def.sym_rtol;
    }
    sw_ctx c = {3, 2, 2, 2, 1e-10, 1.0, NSM_MU_OPTIMAL, nsm_proj_dynamics_work(3, 2)};
    CU_ASSERT_FATAL(c.lwork > 0 && c.lwork <= g_lwork);
    const sweep_arg da[14] = {{"M", SW_M, D(9), SW_IN | SW_FINITE},
                              {"C", C, D(9), SW_IN | SW_FINITE},
                              {"A", SW_A, D(6), SW_IN | SW_FINITE},
                              {"Adot", SW_Ad, D(6), SW_IN | SW_FINITE},
                              {"f", f, D(3), SW_IN | SW_FINITE},
                              {"fg", fg, D(3), SW_IN | SW_FINITE},
                              {"qd", qd, D(3), SW_IN | SW_FINITE},
                              {"opts", &o, sizeof o, SW_NULLABLE | SW_NOALIAS},
                              {"res", &dres, sizeof dres, SW_OUT},
                              {"qdd", qdd, D(3), SW_OUT},
                              {"fc", fc, D(3), SW_OUT | SW_NULLABLE},
                              {"P", P, D(9), SW_OUT | SW_NULLABLE},
                              {"Mbar", Mb, D(9), SW_OUT | SW_NULLABLE},
                              {"work", g_work, D(c.lwork), SW_OUT}};
    CU_ASSERT_EQUAL(sweep_args_fill("nsm_proj_dynamics", sw_dynamics, sw_dynamics_fill, &c, da,
                                    14, SWEEP_UNWRITTEN), 0);
    /* The same without the SPD check of M (options in their domain). */
    o.check_spd = 0;
    CU_ASSERT_EQUAL(sweep_args_fill("nsm_proj_dynamics (no SPD check)", sw_dynamics,
                                    sw_dynamics_fill, &c, da, 14, SWEEP_UNWRITTEN), 0);
    /* Options out of domain: sym_rtol infinite or NaN, rank_rtol NaN, unknown μ mode. */
    double bad_sym[2] = {INFINITY, NAN};
    for (int t = 0; t < 2; t++) {
        o = (nsm_proj_opts)NSM_PROJ_OPTS_DEFAULT;
        o.sym_rtol = bad_sym[t];
        CU_ASSERT_EQUAL(t_dynamics(3, 2, SW_M, C, SW_A, SW_Ad, f, fg, qd, &o, qdd, fc,
                                   &info, NULL, NULL, g_work, c.lwork), NSM_ERR_ARG);
    }
    o = (nsm_proj_opts)NSM_PROJ_OPTS_DEFAULT;
    o.rank_rtol = NAN;
    CU_ASSERT_EQUAL(t_dynamics(3, 2, SW_M, C, SW_A, SW_Ad, f, fg, qd, &o, qdd, fc, &info,
                               NULL, NULL, g_work, c.lwork), NSM_ERR_ARG);
    o = (nsm_proj_opts)NSM_PROJ_OPTS_DEFAULT;
    o.mu_mode = (nsm_mu_mode)5;
    CU_ASSERT_EQUAL(t_dynamics(3, 2, SW_M, C, SW_A, SW_Ad, f, fg, qd, &o, qdd, fc, &info,
                               NULL, NULL, g_work, c.lwork), NSM_ERR_ARG);
    /* m = 0: A and Adot may be NULL; m > 0: both required. */
    o = (nsm_proj_opts)NSM_PROJ_OPTS_DEFAULT;
    CU_ASSERT_EQUAL(t_dynamics(3, 0, SW_M, C, NULL, NULL, f, fg, qd, &o, qdd, fc, &info,
                               NULL, NULL, g_work, g_lwork), NSM_OK);
    CU_ASSERT_EQUAL(t_dynamics(3, NSM_MAX_DIM + 1, SW_M, C, SW_A, SW_Ad, f, fg, qd, &o,
                               qdd, fc, &info, NULL, NULL, g_work, g_lwork), NSM_ERR_SIZE);
}

/* Actuation and control: each NULL, overlap and non-finite input. */
static void test_sweep_actuation_control(void)
{
    double P[9], Q[9], G[6], R[9], w[256];
    size_t rk = 0;
    nsm_proj_actuation_result ares;
    nsm_proj_control_result cres;
    memset(&ares, 0, sizeof ares);
    memset(&cres, 0, sizeof cres);
    /* r = 1 (one constraint row), so that rank(PB) = n − r = 2 with k = 2 inputs. */
    const double A1[3] = {1, 1, 0};
    size_t r1;
    double X1[3];
    CU_ASSERT_EQUAL_FATAL(t_projector(3, 1, A1, 1e-10, &r1, P, Q, X1, g_work, g_lwork),
                          NSM_OK);
    sw_ctx c = {3, 1, 2, 1, 1e-10, 1.0, NSM_MU_OPTIMAL, nsm_proj_actuation_work(3, 2)};
    CU_ASSERT_FATAL(c.lwork > 0 && c.lwork <= 256);
    const sweep_arg aa[6] = {{"P", P, D(9), SW_IN | SW_FINITE},
                             {"B", SW_B, D(6), SW_IN | SW_FINITE},
                             {"res", &ares, sizeof ares, SW_OUT},
                             {"Gamma", G, D(6), SW_OUT},
                             {"R", R, D(9), SW_OUT | SW_NULLABLE},
                             {"work", w, D(c.lwork), SW_OUT}};
    CU_ASSERT_EQUAL(sweep_args_fill("nsm_proj_actuation", sw_actuation, sw_actuation_fill, &c, aa,
                                    6, 0), 0);
    CU_ASSERT_EQUAL(t_actuation(3, 2, 1, P, SW_B, 1e-10, &rk, G, R, w, c.lwork), NSM_OK);
    CU_ASSERT_EQUAL(t_actuation(3, 2, 1, P, SW_B, 1e-10, &rk, G, NULL, w, c.lwork), NSM_OK);
    CU_ASSERT_EQUAL(t_actuation(NSM_MAX_DIM + 1, 2, 1, P, SW_B, 1e-10, &rk, G, R, w,
                                c.lwork), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_actuation(3, NSM_MAX_DIM + 1, 1, P, SW_B, 1e-10, &rk, G, R, w,
                                c.lwork), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_actuation(3, 2, 1, P, SW_B, NAN, &rk, G, R, w, c.lwork), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_proj_actuation_work(0, 2), 0);
    CU_ASSERT_EQUAL(nsm_proj_actuation_work(3, NSM_MAX_DIM + 1), 0);
    nsm_proj_gains g = {2.0, 1.0, 2.0, NSM_PROJ_VEL_ZTOL_DEFAULT, NSM_PROJ_XI_TOL_DEFAULT};
    const double fg[3] = {0, 0, -1}, q[3] = {1, -1, 0.5}, qs[3] = {0, 0, 0}, qd[3] = {0.1, 0, 0};
    /* ξ: a unit vector of N(A) = span{(1, −1, 0), (0, 0, 1)}. */
    const double xi[3] = {0, 0, 1};
    double f[3], u[2];
    CU_ASSERT_EQUAL(nsm_proj_control_work(3), 6); /* documented: 2·n */
    CU_ASSERT_EQUAL(nsm_proj_control_work(0), 0);
    CU_ASSERT_EQUAL(nsm_proj_control_work(NSM_MAX_DIM + 1), 0);
    c.lwork = 6;
    const sweep_arg ta[13] = {{"P", P, D(9), SW_IN | SW_FINITE},
                              {"R", R, D(9), SW_IN | SW_FINITE},
                              {"Gamma", G, D(6), SW_IN | SW_FINITE},
                              {"fg", fg, D(3), SW_IN | SW_FINITE},
                              {"q", q, D(3), SW_IN | SW_FINITE},
                              {"qstar", qs, D(3), SW_IN | SW_FINITE},
                              {"qd", qd, D(3), SW_IN | SW_FINITE},
                              {"xi", xi, D(3), SW_IN | SW_FINITE | SW_NULLABLE},
                              {"gains", &g, sizeof g, SW_NOALIAS},
                              {"f", f, D(3), SW_OUT | SW_NULLABLE},
                              {"u", u, D(2), SW_OUT | SW_NULLABLE},
                              {"res", &cres, sizeof cres, SW_OUT},
                              {"work", w, D(6), SW_OUT}};
    CU_ASSERT_EQUAL(sweep_args_fill("nsm_proj_control", sw_control, sw_control_fill, &c, ta, 13,
                                    SWEEP_UNWRITTEN), 0);
    /* Either output alone: the other's matrix may then be NULL and is not read. */
    double Rnan[9];
    memcpy(Rnan, R, sizeof Rnan);
    Rnan[0] = NAN;
    CU_ASSERT_EQUAL(t_control(3, 2, P, NULL, G, fg, q, qs, qd, xi, &g, NULL, u, NULL, w, 6),
                    NSM_OK);
    CU_ASSERT_EQUAL(t_control(3, 2, P, Rnan, G, fg, q, qs, qd, xi, &g, NULL, u, NULL, w, 6),
                    NSM_OK);
    CU_ASSERT_EQUAL(t_control(3, 0, P, R, NULL, fg, q, qs, qd, xi, &g, f, NULL, NULL, w, 6),
                    NSM_OK);
    CU_ASSERT_EQUAL(t_control(3, 0, P, R, G, fg, q, qs, qd, xi, &g, f, u, NULL, w, 6),
                    NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_control(3, NSM_MAX_DIM + 1, P, R, G, fg, q, qs, qd, xi, &g, f, u,
                              NULL, w, 6), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_control(3, 2, P, R, G, fg, q, qs, qd, xi, &g, f, u, NULL, w, 5),
                    NSM_ERR_WORKSPACE);
}
#undef D

/* Regression: a scalar output stored inside an output array. With the old argument lists the
   rank could point inside P: NSM_OK with a wrong rank (P written over it). The rank is now a
   field of the result structure, and the structure over P (or any array of the call) is
   NSM_ERR_ALIAS with nothing written; the same for μ (inertia), rank(PB) (actuation), the
   Unit case (control). */
static void test_result_struct_apart(void)
{
    double Q[9], X[6], w[64];
    union {
        double d[9];
        nsm_proj_projector_result r;
    } u;
    for (int i = 0; i < 9; i++) {
        u.d[i] = 3.0;
    }
    u.r.rank = 99;
    u.r.P = u.d; /* P starts where the structure (its rank) is */
    u.r.Q = Q;
    u.r.Apinv = X;
    double keep[9];
    memcpy(keep, u.d, sizeof keep);
    size_t lw = nsm_proj_projector_work(3, 2);
    CU_ASSERT_FATAL(lw <= 64);
    CU_ASSERT_EQUAL(nsm_proj_projector(3, 2, SW_A, 1e-10, &u.r, w, lw), NSM_ERR_ALIAS);
    CU_ASSERT(memcmp(keep, u.d, sizeof keep) == 0);
    /* P's last entries under the structure */
    double big[12];
    nsm_proj_projector_result *tail = (nsm_proj_projector_result *)(void *)(big + 8);
    tail->rank = 0;
    tail->P = big;
    tail->Q = Q;
    tail->Apinv = X;
    CU_ASSERT_EQUAL(nsm_proj_projector(3, 2, SW_A, 1e-10, tail, w, lw), NSM_ERR_ALIAS);
    /* apart: NSM_OK and the rank */
    double P[9];
    nsm_proj_projector_result ok = {99, P, Q, X};
    CU_ASSERT_EQUAL(nsm_proj_projector(3, 2, SW_A, 1e-10, &ok, w, lw), NSM_OK);
    CU_ASSERT_EQUAL(ok.rank, 2);
    CU_ASSERT_EQUAL(nsm_proj_projector(3, 2, SW_A, 1e-10, NULL, w, lw), NSM_ERR_NULL);

    /* μ of nsm_proj_inertia inside M̄ */
    union {
        double d[9];
        nsm_proj_inertia_result r;
    } v;
    v.r.Mbar = v.d;
    v.r.mu_used = 0.0;
    const nsm_proj_problem prob = {3, 0, SW_M, NULL, NULL, NULL, NULL, NULL, NULL};
    CU_ASSERT_EQUAL(nsm_proj_inertia(&prob, 2, P, NSM_MU_OPTIMAL, 0.0, &v.r, w, 18),
                    NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_proj_inertia(NULL, 2, P, NSM_MU_OPTIMAL, 0.0, &v.r, w, 18), NSM_ERR_NULL);

    /* rank(PB) of nsm_proj_actuation inside Γ */
    double Pa[9], Qa[9], Xa[3], R[9], wa[256];
    const double A1[3] = {1, 1, 0};
    nsm_proj_projector_result pr = {0, Pa, Qa, Xa};
    CU_ASSERT_EQUAL_FATAL(nsm_proj_projector(3, 1, A1, 1e-10, &pr, w, 64), NSM_OK);
    union {
        double d[6];
        nsm_proj_actuation_result r;
    } g;
    g.r.rank_pb = 0;
    g.r.Gamma = g.d;
    g.r.R = R;
    const nsm_proj_actuation_input ain = {3, 2, 1, Pa, SW_B, 1e-10};
    size_t lwa = nsm_proj_actuation_work(3, 2);
    CU_ASSERT_FATAL(lwa <= 256);
    CU_ASSERT_EQUAL(nsm_proj_actuation(&ain, &g.r, wa, lwa), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_proj_actuation(NULL, &g.r, wa, lwa), NSM_ERR_NULL);

    /* the Unit case of nsm_proj_control inside f */
    double G[6];
    nsm_proj_actuation_result ar = {0, G, R};
    CU_ASSERT_EQUAL_FATAL(nsm_proj_actuation(&ain, &ar, wa, lwa), NSM_OK);
    CU_ASSERT_EQUAL(ar.rank_pb, 2);
    const nsm_proj_gains gains = {2.0, 1.0, 2.0, NSM_PROJ_VEL_ZTOL_DEFAULT,
                                  NSM_PROJ_XI_TOL_DEFAULT};
    const double fg[3] = {0, 0, -1}, q[3] = {1, -1, 0.5}, qs[3] = {0, 0, 0}, qd[3] = {0, 0, 0};
    union {
        double d[3];
        nsm_proj_control_result r;
    } c;
    c.r.f = c.d;
    c.r.u = NULL;
    c.r.eta_case = NSM_UNIT_DIRECTION;
    const nsm_proj_control_input cin = {3, 2, Pa, R, G, fg, q, qs, qd, NULL};
    CU_ASSERT_EQUAL(nsm_proj_control(&cin, &gains, &c.r, wa, 6), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_proj_control(NULL, &gains, &c.r, wa, 6), NSM_ERR_NULL);
    double fo[3];
    nsm_proj_control_result cok = {fo, NULL, NSM_UNIT_DIRECTION};
    CU_ASSERT_EQUAL(nsm_proj_control(&cin, &gains, &cok, wa, 6), NSM_OK);
    CU_ASSERT_EQUAL(cok.eta_case, NSM_UNIT_BALL); /* q̇ = 0 */
}

static CU_TestInfo proj_tests[] = {
    {"no constraints: P = I, plain dynamics", test_no_constraints},
    {"fully constrained: n = r", test_fully_constrained},
    {"control law: xi supplied, computed, validated", test_control_xi},
    {"unsolvable actuation is NSM_ERR_RANK", test_unsolvable},
    {"bad input: projector, rates, omega", test_bad_projector_rates},
    {"bad input: inertia, cbar, oblique", test_bad_inertia_cbar_oblique},
    {"bad input: dynamics", test_bad_dynamics},
    {"dynamics: workspace, option and aliasing errors write nothing", test_dynamics_errors_write_nothing},
    {"bad input: actuation, control", test_bad_actuation_control},
    {"Lyapunov monitor: closed form and every error", test_lyapunov_monitor},
    {"control law at the goal, and with no freedom left", test_control_goal_and_no_freedom},
    {"dynamics n >= 24, 2m >= n: plain PMP, KKT", test_dynamics_large_plain_form},
    {"dynamics: Mbar not factorisable without the SPD check", test_dynamics_mbar_not_factorisable},
    {"each argument: projector, rates, omega", test_sweep_projector_rates},
    {"each argument: inertia, cbar, oblique", test_sweep_inertia_cbar_oblique},
    {"each argument: dynamics", test_sweep_dynamics},
    {"each argument: actuation, control", test_sweep_actuation_control},
    {"result structures apart from their arrays (rank inside P)", test_result_struct_apart},
    {"properties (seeded)", test_properties},
    CU_TEST_INFO_NULL,
};

static int reg(void)
{
    g_lwork = nsm_proj_dynamics_work(NMAX, MMAX);
    size_t w2 = nsm_proj_projector_work(NMAX, MMAX);
    size_t w3 = nsm_proj_actuation_work(NMAX, NMAX + 2);
    if (w2 > g_lwork) g_lwork = w2;
    if (w3 > g_lwork) g_lwork = w3;
    g_lwork += 4 * NMAX * NMAX;
    g_work = malloc(g_lwork * sizeof(double));
    if (g_work == NULL) return 1;
    return nsm_add_suite("projection", proj_tests);
}

int main(void)
{
    int rc = nsm_test_main("test_projection", reg);
    free(g_work);
    return rc;
}
