/* M̄ = PMP + μQ, C̄ and S = I − M M̄⁻¹P: docs/math.md (P5), (P8), (P11); [D] eqs. 8b, 8c, 28. */
#include "nsmech/projection.h"
#include "internal.h"
#include "../linalg/internal.h"

size_t nsm_proj_inertia_work(size_t n)
{
    if (!nsm_dim_ok(n)) {
        return 0;
    }
    return 2u * n * n;
}

/* μ from the mode: given (> 0), or μ* = tr(PMP)/(n − r), or tr(M)/n when r = n. */
nsm_status nsm_proj_i_choose_mu(size_t n, size_t r, double trace_pmp, double trace_m,
                                nsm_mu_mode mode, double mu, double *mu_used)
{
    double v;
    if (mode == NSM_MU_GIVEN) {
        v = mu;
    } else if (r < n) {
        v = trace_pmp / (double)(n - r);
    } else {
        v = trace_m / (double)n;
    }
    if (!(v > 0.0) || !nsm_all_finite(1, &v)) {
        return NSM_ERR_NOT_SPD;
    }
    *mu_used = v;
    return NSM_OK;
}

/* μ argument check: mode known, and for NSM_MU_GIVEN μ finite and > 0. */
int nsm_proj_i_mu_ok(nsm_mu_mode mode, double mu)
{
    if (mode == NSM_MU_OPTIMAL) {
        return 1;
    }
    if (mode == NSM_MU_GIVEN && mu > 0.0 && nsm_all_finite(1, &mu)) {
        return 1;
    }
    return 0;
}

/* The checks the three entry points below share, after their argument checks and in the order
   of their error lists: a workspace of 2n² doubles; the n×n result out, the scalar result x
   (absent: null) and the workspace apart from each other and from the n×n inputs a, b, c, d
   (absent: null; only addresses are compared); the inputs finite. Nothing is written. */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid_in: (a == \null || \valid_read(a + (0 .. n*n - 1))) &&
                       (b == \null || \valid_read(b + (0 .. n*n - 1))) &&
                       (c == \null || \valid_read(c + (0 .. n*n - 1))) &&
                       (d == \null || \valid_read(d + (0 .. n*n - 1)));
    assigns \nothing;
    ensures status: \result == NSM_OK || \result == NSM_ERR_WORKSPACE ||
                    \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE;
    ensures room: \result == NSM_OK ==> 2*n*n <= lwork;
 */
static nsm_status inertia_check(size_t n, size_t lwork, const double *out, const double *x,
                                const double *work, const double *a, const double *b,
                                const double *c, const double *d)
{
    size_t nn = n * n;
    if (lwork < 2u * nn) {
        return NSM_ERR_WORKSPACE;
    }
    const size_t by = nn * sizeof(double);
    const nsm_span w[3] = {{(uintptr_t)out, by},
                           {(uintptr_t)x, x != NULL ? sizeof(double) : 0u},
                           {(uintptr_t)work, 2u * by}};
    const nsm_span r[4] = {{(uintptr_t)a, a != NULL ? by : 0u},
                           {(uintptr_t)b, b != NULL ? by : 0u},
                           {(uintptr_t)c, c != NULL ? by : 0u},
                           {(uintptr_t)d, d != NULL ? by : 0u}};
    if (nsm_spans_overlap(3, w, 4, r)) {
        return NSM_ERR_ALIAS;
    }
    if ((a != NULL && !nsm_all_finite(nn, a)) || (b != NULL && !nsm_all_finite(nn, b)) ||
        (c != NULL && !nsm_all_finite(nn, c)) || (d != NULL && !nsm_all_finite(nn, d))) {
        return NSM_ERR_NOT_FINITE;
    }
    return NSM_OK;
}

/* The former entry point on the fields of nsm_proj_inertia's structures (its contract
   unchanged). */
/*@ requires valid_M: M == \null || \valid_read(M + (0 .. n*n - 1));
    requires valid_P: P == \null || \valid_read(P + (0 .. n*n - 1));
    requires valid_Mbar: Mbar == \null || \valid(Mbar + (0 .. n*n - 1));
    requires valid_mu: mu_used == \null || \valid(mu_used);
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns Mbar[0 .. n*n - 1], *mu_used, work[0 .. lwork - 1];
    behavior null_arg:
      assumes M == \null || P == \null || Mbar == \null || mu_used == \null || work == \null;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes M != \null && P != \null && Mbar != \null && mu_used != \null && work != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes M != \null && P != \null && Mbar != \null && mu_used != \null && work != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NOT_SPD;
      ensures bad_r: r > n ==> \result == NSM_ERR_ARG;
      ensures bad_mode: mode != NSM_MU_OPTIMAL && mode != NSM_MU_GIVEN ==> \result == NSM_ERR_ARG;
      ensures bad_mu: mode == NSM_MU_GIVEN && !(mu > 0) ==> \result == NSM_ERR_ARG;
      ensures mu_pos: \result == NSM_OK ==> *mu_used > 0;
      ensures sym_Mbar: \result == NSM_OK && \separated(mu_used, Mbar + (0 .. n*n - 1)) ==>
                        nsm_sym(Mbar, n);
    complete behaviors;
    disjoint behaviors;
 */
static nsm_status inertia_core(size_t n, size_t r, const double *M, const double *P,
                               nsm_mu_mode mode, double mu, double *Mbar, double *mu_used,
                               double *work, size_t lwork)
{
    if (M == NULL || P == NULL || Mbar == NULL || mu_used == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    if (r > n || !nsm_proj_i_mu_ok(mode, mu)) {
        return NSM_ERR_ARG;
    }
    size_t nn = n * n;
    nsm_status st = inertia_check(n, lwork, Mbar, mu_used, work, M, P, NULL, NULL);
    if (st != NSM_OK) {
        return st;
    }
    double *T = work;
    double *U = work + nn;
    /* T = MP, U = PT = PMP. */
    st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, n, 1.0, M, P, 0.0, T);
    if (st != NSM_OK) {
        return st;
    }
    st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, n, 1.0, P, T, 0.0, U);
    if (st != NSM_OK) {
        return st;
    }
    double muv = 0.0;
    st = nsm_proj_i_choose_mu(n, r, nsm_proj_i_trace(n, U), nsm_proj_i_trace(n, M), mode, mu,
                              &muv);
    if (st != NSM_OK) {
        return st;
    }
    /* Q = I − P into T, then M̄ = (U + Uᵀ)/2 + μQ. */
    nsm_proj_i_eye_minus(n, P, T);
    nsm_proj_i_sym_plus(n, U, 0.5, 0.5 * muv, T, Mbar);
    *mu_used = muv;
    return NSM_OK;
}

/* Null and size checks, the argument checks, the result structure apart from every array of
   the call, then the former entry point (nothing is written on an argument error). */
nsm_status nsm_proj_inertia(const nsm_proj_problem *prob, size_t r, const double *P,
                            nsm_mu_mode mode, double mu, nsm_proj_inertia_result *res,
                            double *work, size_t lwork)
{
    if (prob == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    size_t n = prob->n;
    const double *M = prob->M;
    double *Mbar = res->Mbar;
    if (M == NULL || P == NULL || Mbar == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    if (r > n || !nsm_proj_i_mu_ok(mode, mu)) {
        return NSM_ERR_ARG;
    }
    const size_t nn = n * n * sizeof(double);
    const nsm_span arrays[4] = {{(uintptr_t)Mbar, nn}, {(uintptr_t)M, nn}, {(uintptr_t)P, nn},
                                {(uintptr_t)work, NSM_PROJ_WORK_BYTES(lwork)}};
    if (nsm_proj_i_struct_hits((uintptr_t)res, sizeof *res, 4u, arrays)) {
        return NSM_ERR_ALIAS;
    }
    return inertia_core(n, r, M, P, mode, mu, Mbar, &res->mu_used, work, lwork);
}

size_t nsm_proj_cbar_work(size_t n)
{
    if (!nsm_dim_ok(n)) {
        return 0;
    }
    return 2u * n * n;
}

/* The former entry point on n, M and C of the problem (its contract unchanged). */
/*@ requires valid_in: (M == \null || \valid_read(M + (0 .. n*n - 1))) &&
                       (C == \null || \valid_read(C + (0 .. n*n - 1))) &&
                       (P == \null || \valid_read(P + (0 .. n*n - 1))) &&
                       (Lambda == \null || \valid_read(Lambda + (0 .. n*n - 1)));
    requires valid_Cbar: Cbar == \null || \valid(Cbar + (0 .. n*n - 1));
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns Cbar[0 .. n*n - 1], work[0 .. lwork - 1];
    behavior null_arg:
      assumes M == \null || C == \null || P == \null || Lambda == \null || Cbar == \null ||
              work == \null;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes M != \null && C != \null && P != \null && Lambda != \null && Cbar != \null &&
              work != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes M != \null && C != \null && P != \null && Lambda != \null && Cbar != \null &&
              work != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE;
      ensures bad_mu: !(mu > 0) ==> \result == NSM_ERR_ARG;
    complete behaviors;
    disjoint behaviors;
 */
static nsm_status cbar_core(size_t n, const double *M, const double *C, const double *P,
                            const double *Lambda, double mu, double *Cbar, double *work,
                            size_t lwork)
{
    if (M == NULL || C == NULL || P == NULL || Lambda == NULL || Cbar == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    if (!(mu > 0.0) || !nsm_all_finite(1, &mu)) {
        return NSM_ERR_ARG;
    }
    size_t nn = n * n;
    nsm_status st = inertia_check(n, lwork, Cbar, NULL, work, M, C, P, Lambda);
    if (st != NSM_OK) {
        return st;
    }
    double *T = work;
    double *D = work + nn;
    /* T = ΛP; D = T + Tᵀ = ΛP + PΛᵀ. */
    st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, n, 1.0, Lambda, P, 0.0, T);
    if (st != NSM_OK) {
        return st;
    }
    nsm_proj_i_sym_plus(n, T, 1.0, 0.0, T, D);
    /* Cbar = −μΛP, then T = MD, and T += CP; Cbar += P·T = PM(ΛP + PΛᵀ) + PCP. */
    nsm_vec_scale(nn, -mu, T, Cbar);
    st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, n, 1.0, M, D, 0.0, T);
    if (st != NSM_OK) {
        return st;
    }
    st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, n, 1.0, C, P, 1.0, T);
    if (st != NSM_OK) {
        return st;
    }
    return nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, n, 1.0, P, T, 1.0, Cbar);
}

/* The problem's n, M and C for the former entry point. */
nsm_status nsm_proj_cbar(const nsm_proj_problem *prob, const double *P, const double *Lambda,
                         double mu, double *Cbar, double *work, size_t lwork)
{
    if (prob == NULL) {
        return NSM_ERR_NULL;
    }
    return cbar_core(prob->n, prob->M, prob->C, P, Lambda, mu, Cbar, work, lwork);
}

size_t nsm_proj_oblique_work(size_t n)
{
    if (!nsm_dim_ok(n)) {
        return 0;
    }
    return 2u * n * n;
}

nsm_status nsm_proj_oblique(size_t n, const double *M, const double *Mbar, const double *P,
                            double *S, double *work, size_t lwork)
{
    if (M == NULL || Mbar == NULL || P == NULL || S == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    size_t nn = n * n;
    nsm_status st = inertia_check(n, lwork, S, NULL, work, M, Mbar, P, NULL);
    if (st != NSM_OK) {
        return st;
    }
    double *L = work;
    double *X = work + nn;
    nsm_vec_copy(nn, Mbar, L);
    st = nsm_chol_factor(n, L);
    if (st != NSM_OK) {
        return NSM_ERR_NOT_SPD;
    }
    /* X = M̄⁻¹P, then S = I − MX. */
    nsm_vec_copy(nn, P, X);
    st = nsm_chol_solve(n, n, L, X);
    if (st != NSM_OK) {
        return st;
    }
    st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, n, -1.0, M, X, 0.0, S);
    if (st != NSM_OK) {
        return st;
    }
    nsm_proj_i_add_diag(n, 1.0, S);
    return NSM_OK;
}
