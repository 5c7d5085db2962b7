/* Projector P = I − A⁺A, Q = A⁺A, A⁺ (docs/math.md (P2)) and rates Λ, Ṗ ((P3); [D] eq. 4), Ω. */
#include "nsmech/projection.h"
#include "internal.h"
#include "../linalg/internal.h"

size_t nsm_proj_projector_work(size_t n, size_t m)
{
    if (!nsm_dim_ok(n) || !nsm_dim0_ok(m)) {
        return 0;
    }
    size_t w = nsm_pinv_work(m, n);
    size_t own = n * m + n * n;
    return w + own;
}

/* Rank tolerance in [0, 1) and finite. */
int nsm_proj_i_rtol_ok(double rtol)
{
    return (rtol >= 0.0 && rtol < 1.0) ? 1 : 0;
}

/* The value checks of nsm_proj_projector on non-null arguments of valid size, in the order
   of its error list (nothing is written). NSM_OK means the preconditions of projector_run
   hold. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM;
    requires valid_A: m == 0 || \valid_read(A + (0 .. m*n - 1));
    requires valid_out: \valid_read(P + (0 .. n*n - 1)) && \valid_read(Q + (0 .. n*n - 1));
    requires valid_X: m == 0 || \valid_read(Apinv + (0 .. n*m - 1));
    requires valid_work: \valid_read(work + (0 .. lwork - 1));
    assigns \nothing;
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                    \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                    \result == NSM_ERR_NOT_FINITE;
    ensures bad_rtol: !(0 <= rtol < 1) ==> \result == NSM_ERR_ARG;
    ensures ok: \result == NSM_OK ==> 0 <= rtol < 1 && n*m + n*n <= lwork;
 */
static nsm_status projector_check(size_t n, size_t m, const double *A, double rtol,
                                  const double *P, const double *Q, const double *Apinv,
                                  const double *work, size_t lwork)
{
    if (!nsm_proj_i_rtol_ok(rtol)) {
        return NSM_ERR_ARG;
    }
    size_t nn = n * n;
    size_t nm = n * m;
    size_t need = nsm_proj_projector_work(n, m);
    if (need == 0u || lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    /* P, Q, A⁺ and the workspace are written, A only read. */
    const size_t b = sizeof(double);
    const nsm_span w[4] = {{(uintptr_t)P, nn * b},
                           {(uintptr_t)Q, nn * b},
                           {(uintptr_t)Apinv, nm * b},
                           {(uintptr_t)work, NSM_PROJ_WORK_BYTES(need)}};
    const nsm_span r[1] = {{(uintptr_t)A, nm * b}};
    if (nsm_spans_overlap(4, w, 1, r)) {
        return NSM_ERR_ALIAS;
    }
    if (!nsm_all_finite(nm, A)) {
        return NSM_ERR_NOT_FINITE;
    }
    return NSM_OK;
}

/* P, Q, A⁺ and the rank on checked arguments: A⁺ by nsm_pinv into work, Q₀ = A⁺A, then the
   symmetric Q and P. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM;
    requires rtol: 0 <= rtol < 1;
    requires room: n*m + n*n <= lwork;
    requires valid_A: m == 0 || \valid_read(A + (0 .. m*n - 1));
    requires valid_out: \valid(rank) && \valid(P + (0 .. n*n - 1)) && \valid(Q + (0 .. n*n - 1));
    requires valid_X: m == 0 || \valid(Apinv + (0 .. n*m - 1));
    requires valid_work: \valid(work + (0 .. lwork - 1));
    assigns *rank, P[0 .. n*n - 1], Q[0 .. n*n - 1], Apinv[0 .. n*m - 1], work[0 .. lwork - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                    \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                    \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NO_CONVERGENCE;
    ensures rank_bound: \result == NSM_OK ==> *rank <= n && *rank <= m;
    ensures sym_P: \result == NSM_OK ==> nsm_sym(P, n);
    ensures sym_Q: \result == NSM_OK && \separated(P + (0 .. n*n - 1), Q + (0 .. n*n - 1)) ==>
                   nsm_sym(Q, n);
 */
static nsm_status projector_run(size_t n, size_t m, const double *A, double rtol, size_t *rank,
                                double *P, double *Q, double *Apinv, double *work, size_t lwork)
{
    size_t nn = n * n;
    size_t nm = n * m;
    size_t r = 0;
    double *X = work;
    double *Qr = work + nm;
    if (m > 0u) {
        nsm_status st = nsm_pinv(m, n, A, rtol, &r, X, Qr + nn, lwork - nm - nn);
        if (st != NSM_OK) {
            return st;
        }
        st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, m, 1.0, X, A, 0.0, Qr);
        if (st != NSM_OK) {
            return st;
        }
        nsm_vec_copy(nm, X, Apinv);
    } else {
        nsm_proj_i_zero(nn, Qr);
    }
    *rank = r;
    /* Q = (Qr + Qrᵀ)/2 and P = I − (Qr + Qrᵀ)/2, each written symmetrically; P last, so that
       nothing written after it can break its symmetry. */
    nsm_proj_i_sym_plus(n, Qr, 0.5, 0.0, Qr, Q);
    /*@ assert sym_Q: nsm_sym(Q, n); */
    nsm_proj_i_eye_minus(n, Qr, P);
    return NSM_OK;
}

/* Null and size checks, the argument and workspace checks, the result structure apart from
   every array of the call, the value checks, then the computation (nothing is written on an
   argument error). */
nsm_status nsm_proj_projector(size_t n, size_t m, const double *A, double rtol,
                              nsm_proj_projector_result *res, double *work, size_t lwork)
{
    if (res == NULL) {
        return NSM_ERR_NULL;
    }
    double *P = res->P;
    double *Q = res->Q;
    double *Apinv = res->Apinv;
    if (P == NULL || Q == NULL || work == NULL || (m > 0u && (A == NULL || Apinv == NULL))) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n) || !nsm_dim0_ok(m)) {
        return NSM_ERR_SIZE;
    }
    /* The argument and workspace checks of projector_check first, so that the result
       structure's overlap comes in the order of the error list (after them). */
    size_t need = nsm_proj_projector_work(n, m);
    if (!nsm_proj_i_rtol_ok(rtol)) {
        return NSM_ERR_ARG;
    }
    if (need == 0u || lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    const size_t b = sizeof(double);
    const nsm_span arrays[5] = {{(uintptr_t)P, n * n * b},     {(uintptr_t)Q, n * n * b},
                                {(uintptr_t)Apinv, n * m * b}, {(uintptr_t)A, n * m * b},
                                {(uintptr_t)work, NSM_PROJ_WORK_BYTES(lwork)}};
    if (nsm_proj_i_struct_hits((uintptr_t)res, sizeof *res, 5u, arrays)) {
        return NSM_ERR_ALIAS;
    }
    nsm_status st = projector_check(n, m, A, rtol, P, Q, Apinv, work, lwork);
    if (st != NSM_OK) {
        return st;
    }
    return projector_run(n, m, A, rtol, &res->rank, P, Q, Apinv, work, lwork);
}

size_t nsm_proj_rates_work(size_t n)
{
    if (!nsm_dim_ok(n)) {
        return 0;
    }
    return n * n;
}

/* The value checks of nsm_proj_rates on non-null arguments of valid size, in the order of
   its error list (nothing is written). NSM_OK means the preconditions of rates_run hold. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM;
    requires valid_in: m == 0 || (\valid_read(Apinv + (0 .. n*m - 1)) &&
                                  \valid_read(Adot + (0 .. m*n - 1)));
    requires valid_L: \valid_read(Lambda + (0 .. n*n - 1));
    requires valid_Pd: Pdot == \null || (\valid_read(Pdot + (0 .. n*n - 1)) &&
                       \valid_read(P + (0 .. n*n - 1)) && work != \null &&
                       \valid_read(work + (0 .. lwork - 1)));
    assigns \nothing;
    ensures status: \result == NSM_OK || \result == NSM_ERR_WORKSPACE ||
                    \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE;
    ensures room: \result == NSM_OK && Pdot != \null ==> n*n <= lwork;
 */
static nsm_status rates_check(size_t n, size_t m, const double *Apinv, const double *Adot,
                              const double *P, const double *Lambda, const double *Pdot,
                              const double *work, size_t lwork)
{
    size_t nn = n * n;
    size_t nm = n * m;
    if (Pdot != NULL && lwork < nn) {
        return NSM_ERR_WORKSPACE;
    }
    /* Λ, Ṗ and the workspace are written, A⁺, Ȧ and P only read; Ṗ, the workspace and P
       take part only when Ṗ is asked for (length 0 otherwise). */
    const size_t b = sizeof(double);
    size_t lp = Pdot != NULL ? nn * b : 0u;
    const nsm_span w[3] = {{(uintptr_t)Lambda, nn * b}, {(uintptr_t)Pdot, lp},
                           {(uintptr_t)work, lp}};
    const nsm_span r[3] = {{(uintptr_t)Apinv, nm * b}, {(uintptr_t)Adot, nm * b},
                           {(uintptr_t)P, lp}};
    if (nsm_spans_overlap(3, w, 3, r)) {
        return NSM_ERR_ALIAS;
    }
    if (Pdot != NULL && !nsm_all_finite(nn, P)) {
        return NSM_ERR_NOT_FINITE;
    }
    if (!nsm_all_finite(nm, Apinv) || !nsm_all_finite(nm, Adot)) {
        return NSM_ERR_NOT_FINITE;
    }
    return NSM_OK;
}

/* Λ and, when wanted, Ṗ on checked arguments. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM;
    requires valid_in: m == 0 || (\valid_read(Apinv + (0 .. n*m - 1)) &&
                                  \valid_read(Adot + (0 .. m*n - 1)));
    requires valid_L: \valid(Lambda + (0 .. n*n - 1));
    requires valid_Pd: Pdot == \null || (\valid(Pdot + (0 .. n*n - 1)) &&
                       \valid_read(P + (0 .. n*n - 1)) && n*n <= lwork &&
                       \valid(work + (0 .. lwork - 1)));
    assigns Lambda[0 .. n*n - 1], Pdot[0 .. n*n - 1], work[0 .. lwork - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_WORKSPACE ||
                    \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE;
    ensures sym_Pdot: \result == NSM_OK && Pdot != \null ==> nsm_sym(Pdot, n);
 */
static nsm_status rates_run(size_t n, size_t m, const double *Apinv, const double *Adot,
                            const double *P, double *Lambda, double *Pdot, double *work,
                            size_t lwork)
{
    (void)lwork; /* bounds the written workspace in the contract only */
    /* Λ = −A⁺Ȧ; m = 0 gives Λ = 0 (gemm with k = 0 and beta = 0). */
    nsm_status st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, m, -1.0, Apinv, Adot, 0.0,
                             Lambda);
    if (st != NSM_OK || Pdot == NULL) {
        return st;
    }
    /* T = ΛP, then Ṗ = T + Tᵀ (PΛᵀ = (ΛP)ᵀ for symmetric P), written symmetrically. */
    st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, n, 1.0, Lambda, P, 0.0, work);
    if (st != NSM_OK) {
        return st;
    }
    nsm_proj_i_sym_plus(n, work, 1.0, 0.0, work, Pdot);
    return NSM_OK;
}

/* Null and size checks, the argument and workspace checks, the result structure apart from
   every array of the call, the value checks, then the computation (nothing is written on an
   argument error). */
nsm_status nsm_proj_rates(size_t n, size_t m, const double *Apinv, const double *Adot,
                          const double *P, nsm_proj_rates_result *res, double *work,
                          size_t lwork)
{
    if (res == NULL) {
        return NSM_ERR_NULL;
    }
    double *Lambda = res->Lambda;
    double *Pdot = res->Pdot;
    if (Lambda == NULL || (m > 0u && (Apinv == NULL || Adot == NULL)) ||
        (Pdot != NULL && (P == NULL || work == NULL))) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n) || !nsm_dim0_ok(m)) {
        return NSM_ERR_SIZE;
    }
    if (Pdot != NULL && lwork < n * n) {
        return NSM_ERR_WORKSPACE; /* rates_check's first check, before the structure's */
    }
    const size_t b = sizeof(double);
    const size_t lpd = Pdot != NULL ? n * n * b : 0u;
    const nsm_span arrays[6] = {{(uintptr_t)Lambda, n * n * b}, {(uintptr_t)Pdot, lpd},
                                {(uintptr_t)Apinv, n * m * b},  {(uintptr_t)Adot, n * m * b},
                                {(uintptr_t)P, lpd},
                                {(uintptr_t)work, Pdot != NULL ? NSM_PROJ_WORK_BYTES(lwork) : 0u}};
    if (nsm_proj_i_struct_hits((uintptr_t)res, sizeof *res, 6u, arrays)) {
        return NSM_ERR_ALIAS;
    }
    nsm_status st = rates_check(n, m, Apinv, Adot, P, Lambda, Pdot, work, lwork);
    if (st != NSM_OK) {
        return st;
    }
    return rates_run(n, m, Apinv, Adot, P, Lambda, Pdot, work, lwork);
}

nsm_status nsm_proj_omega(size_t n, const double *Lambda, double *Omega)
{
    if (Lambda == NULL || Omega == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    size_t nn = n * n;
    const double *Oc = Omega;
    if (nsm_proj_i_overlap(Oc, nn, Lambda, nn)) {
        return NSM_ERR_ALIAS;
    }
    if (!nsm_all_finite(nn, Lambda)) {
        return NSM_ERR_NOT_FINITE;
    }
    nsm_proj_i_skew(n, Lambda, Omega);
    return NSM_OK;
}
