/* Projector P = I − A⁺A, Q = A⁺A, A⁺ (issue 3, item 1) and rates Λ, Ṗ, Ω (item 2). */
#include <stdint.h>
#include "nsmech/projection.h"
#include "internal.h"

size_t nsm_proj_projector_work(size_t n, size_t m)
{
    if (!nsm_dim_ok(n) || !nsm_dim0_ok(m)) {
        return 0;
    }
    size_t w = nsm_pinv_work(m, n);
    size_t own = n * m + n * n;
    if (w > SIZE_MAX - own) {
        return 0;
    }
    return w + own;
}

/* Rank tolerance in [0, 1) and finite. */
int nsm_proj_i_rtol_ok(double rtol)
{
    return (rtol >= 0.0 && rtol < 1.0) ? 1 : 0;
}

nsm_status nsm_proj_projector(size_t n, size_t m, const double *A, double rtol, size_t *rank,
                              double *P, double *Q, double *Apinv, double *work, size_t lwork)
{
    if (rank == NULL || P == NULL || Q == NULL || work == NULL ||
        (m > 0u && (A == NULL || Apinv == NULL))) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n) || !nsm_dim0_ok(m)) {
        return NSM_ERR_SIZE;
    }
    if (!nsm_proj_i_rtol_ok(rtol)) {
        return NSM_ERR_ARG;
    }
    size_t nn = n * n;
    size_t nm = n * m;
    size_t need = nsm_proj_projector_work(n, m);
    if (need == 0u || lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    const double *Pc = P;
    const double *Qc = Q;
    const double *Xc = Apinv;
    if (nsm_proj_i_overlap(Pc, nn, Q, nn) || nsm_proj_i_overlap(Pc, nn, A, nm) ||
        nsm_proj_i_overlap(Qc, nn, A, nm) || nsm_proj_i_overlap(Pc, nn, work, need) ||
        nsm_proj_i_overlap(Qc, nn, work, need) || nsm_proj_i_overlap(Xc, nm, P, nn) ||
        nsm_proj_i_overlap(Xc, nm, Q, nn) || nsm_proj_i_overlap(Xc, nm, A, nm) ||
        nsm_proj_i_overlap(Xc, nm, work, need) || nsm_proj_i_overlap(A, nm, work, need)) {
        return NSM_ERR_ALIAS;
    }
    if (!nsm_all_finite(nm, A)) {
        return NSM_ERR_NOT_FINITE;
    }
    size_t r = 0;
    double *X = work;
    double *Qr = work + nm;
    if (m > 0u) {
        nsm_status st = nsm_pinv(m, n, A, rtol, &r, X, Qr + nn, lwork - nm - nn);
        if (st != NSM_OK) {
            return st;
        }
        if (r > n || r > m) {
            return NSM_ERR_RANK;
        }
        st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, m, 1.0, X, A, 0.0, Qr);
        if (st != NSM_OK) {
            return st;
        }
        nsm_proj_i_copy(nm, X, Apinv);
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

size_t nsm_proj_rates_work(size_t n)
{
    if (!nsm_dim_ok(n)) {
        return 0;
    }
    return n * n;
}

nsm_status nsm_proj_rates(size_t n, size_t m, const double *Apinv, const double *Adot,
                          const double *P, double *Lambda, double *Pdot, double *work,
                          size_t lwork)
{
    if (Lambda == NULL || (m > 0u && (Apinv == NULL || Adot == NULL)) ||
        (Pdot != NULL && (P == NULL || work == NULL))) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n) || !nsm_dim0_ok(m)) {
        return NSM_ERR_SIZE;
    }
    size_t nn = n * n;
    size_t nm = n * m;
    if (Pdot != NULL && lwork < nn) {
        return NSM_ERR_WORKSPACE;
    }
    const double *Lc = Lambda;
    if (nsm_proj_i_overlap(Lc, nn, Apinv, nm) || nsm_proj_i_overlap(Lc, nn, Adot, nm)) {
        return NSM_ERR_ALIAS;
    }
    if (Pdot != NULL) {
        const double *Dc = Pdot;
        if (nsm_proj_i_overlap(Lc, nn, Pdot, nn) || nsm_proj_i_overlap(Lc, nn, P, nn) ||
            nsm_proj_i_overlap(Lc, nn, work, nn) || nsm_proj_i_overlap(Dc, nn, Apinv, nm) ||
            nsm_proj_i_overlap(Dc, nn, Adot, nm) || nsm_proj_i_overlap(Dc, nn, P, nn) ||
            nsm_proj_i_overlap(Dc, nn, work, nn) || nsm_proj_i_overlap(Apinv, nm, work, nn) ||
            nsm_proj_i_overlap(Adot, nm, work, nn) || nsm_proj_i_overlap(P, nn, work, nn)) {
            return NSM_ERR_ALIAS;
        }
        if (!nsm_all_finite(nn, P)) {
            return NSM_ERR_NOT_FINITE;
        }
    }
    if (!nsm_all_finite(nm, Apinv) || !nsm_all_finite(nm, Adot)) {
        return NSM_ERR_NOT_FINITE;
    }
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
