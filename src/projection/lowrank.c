/*
 * P and M̄ from an orthonormal basis of the row space (the per-cycle path of nsm_proj_dynamics;
 * docs/math.md, "The factorisation of the per-cycle call"). With Y (n×r, orthonormal columns,
 * stored as its transpose Yt) spanning range(Aᵀ), Q = YYᵀ and P = I − YYᵀ. For symmetric M,
 * with H = YᵀMY and G = MY − ½YH − (μ/2)Y,
 *     M̄ = PMP + μQ = M − (YGᵀ + GYᵀ),
 * since YGᵀ + GYᵀ = YYᵀM + MYYᵀ − YHYᵀ − μYYᵀ and PMP = M − YYᵀM − MYYᵀ + YHYᵀ. This costs
 * about 2n²r + 2nr² multiply-adds (MY, H, G, the symmetric rank-2r update), against 2n³ or
 * 4n²m for PMP from explicit products, and tr(PMP) = tr(M) − tr(H) gives μ* without PMP.
 * Every n×n result is computed on its lower triangle and mirrored (exactly symmetric).
 */
#include "internal.h"
#include "../linalg/internal.h"

void nsm_proj_i_eye_minus_gram(size_t n, size_t r, const double *Yt, double *out)
{
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, out[0 .. n*n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row: i*n + n <= n*n; */
        double *row = out + i * n;
        /*@ loop invariant 0 <= j <= i + 1;
            loop assigns j, out[0 .. n*n - 1];
            loop variant i + 1 - j;
         */
        for (size_t j = 0; j <= i; j++) {
            row[j] = i == j ? 1.0 : 0.0;
        }
        /*@ loop invariant 0 <= k <= r;
            loop assigns k, out[0 .. n*n - 1];
            loop variant r - k;
         */
        for (size_t k = 0; k < r; k++) {
            /*@ assert yrow: k*n + n <= r*n; */
            nsm_vec_axpy(i + 1u, -Yt[k * n + i], Yt + k * n, row);
        }
    }
    nsm_proj_i_sym_copy(n, out, out);
}

void nsm_proj_i_gram_m(size_t n, size_t r, const double *M, const double *Yt, double *Ut,
                       double *H)
{
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, Ut[0 .. r*n - 1];
        loop variant r - k;
     */
    for (size_t k = 0; k < r; k++) {
        /*@ assert row: k*n + n <= r*n; */
        double *u = Ut + k * n;
        nsm_proj_i_zero(n, u);
        /*@ loop invariant 0 <= j <= n;
            loop assigns j, Ut[0 .. r*n - 1];
            loop variant n - j;
         */
        for (size_t j = 0; j < n; j++) {
            /*@ assert mrow: j*n + n <= n*n; */
            nsm_vec_axpy(n, Yt[k * n + j], M + j * n, u);
        }
    }
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, H[0 .. r*r - 1];
        loop variant r - k;
     */
    for (size_t k = 0; k < r; k++) {
        /*@ loop invariant 0 <= l <= r;
            loop assigns l, H[0 .. r*r - 1];
            loop variant r - l;
         */
        for (size_t l = 0; l < r; l++) {
            /*@ assert in: k*r + l < r*r && k*n + n <= r*n && l*n + n <= r*n; */
            H[k * r + l] = nsm_vec_dot(n, Yt + k * n, Ut + l * n);
        }
    }
}

void nsm_proj_i_mbar_update(size_t n, size_t r, const double *M, const double *Yt,
                            const double *Ut, const double *H, double mu, double *Gt,
                            double *out)
{
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, Gt[0 .. r*n - 1];
        loop variant r - k;
     */
    for (size_t k = 0; k < r; k++) {
        /*@ assert row: k*n + n <= r*n; */
        double *g = Gt + k * n;
        nsm_proj_i_copy(n, Ut + k * n, g);
        nsm_vec_axpy(n, -0.5 * mu, Yt + k * n, g);
        /*@ loop invariant 0 <= l <= r;
            loop assigns l, Gt[0 .. r*n - 1];
            loop variant r - l;
         */
        for (size_t l = 0; l < r; l++) {
            /*@ assert in: l*r + k < r*r && l*n + n <= r*n; */
            nsm_vec_axpy(n, -0.5 * H[l * r + k], Yt + l * n, g);
        }
    }
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, out[0 .. n*n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row: i*n + n <= n*n; */
        double *row = out + i * n;
        /*@ loop invariant 0 <= j <= i + 1;
            loop assigns j, out[0 .. n*n - 1];
            loop variant i + 1 - j;
         */
        for (size_t j = 0; j <= i; j++) {
            /*@ assert in: i*n + j < n*n && j*n + i < n*n; */
            row[j] = 0.5 * (M[i * n + j] + M[j * n + i]);
        }
        /*@ loop invariant 0 <= k <= r;
            loop assigns k, out[0 .. n*n - 1];
            loop variant r - k;
         */
        for (size_t k = 0; k < r; k++) {
            /*@ assert krow: k*n + n <= r*n; */
            nsm_vec_axpy(i + 1u, -Yt[k * n + i], Gt + k * n, row);
            nsm_vec_axpy(i + 1u, -Gt[k * n + i], Yt + k * n, row);
        }
    }
    nsm_proj_i_sym_copy(n, out, out);
}
