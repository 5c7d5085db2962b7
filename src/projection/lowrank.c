/*
 * P and M̄ from an orthonormal basis of the row space (the per-cycle path of nsm_proj_dynamics;
 * docs/math.md, "The factorisation of the per-cycle call"). With Y (n×r, orthonormal columns,
 * stored as its transpose Yt) spanning range(Aᵀ), Q = YYᵀ and P = I − YYᵀ; Pv = v − Y(Yᵀv)
 * costs 2nr multiply-adds, so P is formed (dsyrk) only when the caller asks for it. For symmetric M,
 * with H = YᵀMY and G = MY − ½YH − (μ/2)Y,
 *     M̄ = PMP + μQ = M − (YGᵀ + GYᵀ),                        (docs/math.md (P25))
 * since YGᵀ + GYᵀ = YYᵀM + MYYᵀ − YHYᵀ − μYYᵀ and PMP = M − YYᵀM − MYYᵀ + YHYᵀ. This costs
 * about 2n²r + 2nr² multiply-adds (MY, H, G, the symmetric rank-2r update), against 2n³ or
 * 4n²m for PMP from explicit products, and tr(PMP) = tr(M) − tr(H) gives μ* without PMP.
 *
 * MY comes from nsm_sym_mat_vec (M read on its lower triangle: M is symmetric within sym_rtol),
 * the other products from dgemm and dsyrk, arguments checked by the caller (contracts in
 * specs/shadow/cblas.h). Only the lower triangle of each symmetric result is kept, then
 * mirrored, so P and M̄ are exactly symmetric. Debian's default OpenBLAS (the threaded build)
 * hands every dsymv and dsyr2k call to its worker threads (3 µs a call at n = 30 instead of
 * 0.2 and 1.1 µs) and allocates 512 KiB in every dsymm; dgemm, dsyrk, dtrsm and dtrmm stay on
 * the calling thread below its size thresholds. Hence no dsymv, dsyr2k or dsymm here.
 */
#include <cblas.h>
#include "internal.h"
#include "../linalg/internal.h"

void nsm_proj_i_eye_minus_gram(size_t n, size_t r, const double *Yt, double *out)
{
    if (r == 0u) {
        nsm_vec_zero(n * n, out);
    } else {
        cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, (int)n, (int)r, -1.0, Yt, (int)n,
                    0.0, out, (int)n);
    }
    nsm_proj_i_add_diag(n, 1.0, out);
    nsm_proj_i_sym_copy(n, out, out);
}

void nsm_proj_i_apply_p(size_t n, size_t r, const double *Yt, const double *v, double *t,
                        double *out)
{
    nsm_vec_copy(n, v, out);
    nsm_mat_vec(0, r, n, 1.0, Yt, v, t);
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, out[0 .. n - 1];
        loop variant r - k;
     */
    for (size_t k = 0; k < r; k++) {
        /*@ assert row: k*n + n <= r*n; */
        nsm_vec_axpy(n, -t[k], Yt + k * n, out);
    }
}

void nsm_proj_i_gram_m(size_t n, size_t r, const double *M, const double *Yt, double *Ut,
                       double *H)
{
    if (r == 0u) {
        return;
    }
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, Ut[0 .. r*n - 1];
        loop variant r - k;
     */
    for (size_t k = 0; k < r; k++) {
        /*@ assert row: k*n + n <= r*n; */
        nsm_sym_mat_vec(n, M, Yt + k * n, Ut + k * n);
    }
    /* H = ½Yt·Utᵀ, then H ← ½(H + Hᵀ) + ½(H + Hᵀ) = ½(Yt·Utᵀ + Ut·Ytᵀ), exactly symmetric
       (nsm_proj_i_sym_plus reads the pair (i, j), (j, i) before it writes either) */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)r, (int)r, (int)n, 0.5, Yt,
                (int)n, Ut, (int)n, 0.0, H, (int)r);
    nsm_proj_i_sym_plus(r, H, 0.5, 0.5, H, H);
}

void nsm_proj_i_mbar_update(size_t n, size_t r, const double *M, const double *Yt,
                            const double *Ut, const double *H, double mu, double *Gt,
                            double *out)
{
    nsm_vec_copy(n * n, M, out);
    if (r > 0u) {
        size_t rn = r * n;
        nsm_vec_copy(rn, Ut, Gt);
        /*@ loop invariant 0 <= k <= r;
            loop assigns k, Gt[0 .. r*n - 1];
            loop variant r - k;
         */
        for (size_t k = 0; k < r; k++) {
            /*@ assert row: k*n + n <= r*n; */
            nsm_vec_axpy(n, -0.5 * mu, Yt + k * n, Gt + k * n);
        }
        /* Gt −= ½H·Yt (H symmetric in full, as nsm_proj_i_gram_m leaves it), then
           out −= Ytᵀ·Gt and out −= Gtᵀ·Yt: two dgemm where one dsyr2k would do (see above) */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)r, (int)n, (int)r, -0.5, H,
                    (int)r, Yt, (int)n, 1.0, Gt, (int)n);
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)n, (int)n, (int)r, -1.0, Yt,
                    (int)n, Gt, (int)n, 1.0, out, (int)n);
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)n, (int)n, (int)r, -1.0, Gt,
                    (int)n, Yt, (int)n, 1.0, out, (int)n);
    }
    nsm_proj_i_sym_copy(n, out, out);
}
