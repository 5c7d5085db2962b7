/*
 * q̈ and f_c by the range-space route (the default path of nsm_proj_dynamics; docs/math.md,
 * "The range-space route for q̈ and f_c", (P28)–(P31)). With M = LLᵀ (the Cholesky factor
 * that is also the SPD check of M) and Y (n×r, orthonormal columns spanning range(Aᵀ), stored as Yt), the
 * vector z = M̄⁻¹Pg of (P12) and (P13) is the solution of
 *     Mz = g − Yλ,   Yᵀz = 0,                                   (P28)
 * because M̄ = PMP + μQ maps range(P) = null(Yᵀ) onto itself with PMPz = Pg there. Eliminating
 * z gives the r×r system Kλ = XᵀL⁻¹g with X = L⁻¹Y and K = XᵀX = YᵀM⁻¹Y (P29), and then
 * z = L⁻ᵀ(L⁻¹g − Xλ) and Mz − g = −Yλ (P30). So f_c = −Yλ needs no solve with Lᵀ, μ does not
 * enter (M̄⁻¹P does not depend on it), and no n×n matrix besides L is formed: X by one
 * triangular solve with r right-hand sides (dtrsm, n²r/2 multiply-adds), K by dsyrk (nr²/2),
 * K's factor r³/6, against 2n²r + 2nr² for M̄ by (P25) and n³/6 for its factor. μ comes from
 * tr(YᵀMY) = ‖YᵀL‖²_F (dtrmm, n²r/2).
 *
 * Level-3 BLAS for the two triangular products (contracts in specs/shadow/cblas.h; the blocks
 * are carved disjoint by nsm_proj_dynamics, which validated the arguments), in blocks of rows
 * small enough that OpenBLAS runs them on the calling thread (RS_BLAS_ENTRIES); own loops on
 * rows for the vectors (nsm_vec_dot, nsm_vec_axpy, the substitutions of src/linalg/chol.c).
 */
#include <cblas.h>
#include "internal.h"
#include "../linalg/internal.h"

/* The range-space route is taken only if every pivot of M's factor keeps this share of its
   diagonal entry: L_jj² ≥ RS_PIVOT_SHARE · M_jj for all j (docs/math.md (P31)). M_jj / L_jj²
   is a lower bound on cond₂(M) (that of the leading (j+1)×(j+1) block), so a factor that fails
   the test belongs to an M with cond₂(M) > 1e8, or to an M that is singular and factored
   through rounding (check_spd = 0); the M̄ route, whose conditioning is that of M on N(A),
   takes those. */
#define RS_PIVOT_SHARE 1e-8

/* Debian's default OpenBLAS (0.3.21, the threaded build) hands a dtrsm or dtrmm to its worker
   threads when the two dimensions of B multiply to 1 024 or more (measured on n from 4 to
   1 000; below that the call runs on the calling thread). Each r×n product below is made in
   blocks of at most RS_BLAS_ENTRIES / n rows (at least one): a single call whenever r·n < 1 024,
   as blocked as OpenBLAS allows, and no work for its threads for any n < 1 024. */
#define RS_BLAS_ENTRIES 1023u

/* B ← B·L⁻ᵀ (solve) or B ← B·L (B r×n, L the n×n lower factor): dtrsm or dtrmm on blocks
   of at most RS_BLAS_ENTRIES / n rows (at least one). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= r <= n;
    requires valid_L: \valid_read(L + (0 .. n*n - 1));
    requires valid_B: \valid(B + (0 .. r*n - 1));
    assigns B[0 .. r*n - 1];
 */
static void rs_tri_rows(int solve, size_t n, size_t r, const double *L, double *B)
{
    size_t b = RS_BLAS_ENTRIES / n > 0u ? RS_BLAS_ENTRIES / n : 1u;
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, B[0 .. r*n - 1];
        loop variant r - k;
     */
    for (size_t k = 0; k < r;) {
        size_t rows = r - k < b ? r - k : b;
        /*@ assert block: (k + rows) * n <= r * n; */
        if (solve) {
            cblas_dtrsm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit,
                        (int)rows, (int)n, 1.0, L, (int)n, B + k * n, (int)n);
        } else {
            cblas_dtrmm(CblasRowMajor, CblasRight, CblasLower, CblasNoTrans, CblasNonUnit,
                        (int)rows, (int)n, 1.0, L, (int)n, B + k * n, (int)n);
        }
        k += rows;
    }
}

int nsm_proj_i_rs_usable(size_t n, const double *M, const double *L)
{
    int ok = 1;
    /*@ loop invariant 0 <= j <= n;
        loop invariant ok == 0 || ok == 1;
        loop assigns j, ok;
        loop variant n - j;
     */
    for (size_t j = 0; j < n; j++) {
        /*@ assert d: j*n + j < n*n; */
        double l = L[j * n + j];
        if (!(l * l >= RS_PIVOT_SHARE * M[j * n + j])) {
            ok = 0;
        }
    }
    return ok;
}

int nsm_proj_i_rs_factor(size_t n, size_t r, const double *L, const double *Yt, double *Xt,
                         double *K, double *kdinv)
{
    nsm_vec_copy(r * n, Yt, Xt);
    rs_tri_rows(1, n, r, L, Xt);
    cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, (int)r, (int)n, 1.0, Xt, (int)n, 0.0,
                K, (int)r);
    if (!nsm_chol_factor_lower(r, K)) {
        return 0;
    }
    nsm_chol_inv_diag(r, K, kdinv);
    return 1;
}

double nsm_proj_i_rs_trace(size_t n, size_t r, const double *L, const double *Yt, double *T)
{
    if (r == 0u) {
        return 0.0;
    }
    nsm_vec_copy(r * n, Yt, T);
    rs_tri_rows(0, n, r, L, T);
    double s = 0.0;
    /*@ loop invariant 0 <= k <= r;
        loop assigns k, s;
        loop variant r - k;
     */
    for (size_t k = 0; k < r; k++) {
        /*@ assert row: k*n + n <= r*n; */
        s += nsm_vec_sumsq(n, T + k * n);
    }
    return s;
}

/* g ← L⁻¹g and lam = K⁻¹(Xᵀ L⁻¹g) (P29): the multiplier of (P28) for right-hand side g. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= r <= n;
    requires valid_L: \valid_read(L + (0 .. n*n - 1)) && \valid_read(dinv + (0 .. n - 1));
    requires valid_X: \valid_read(Xt + (0 .. r*n - 1)) && \valid_read(K + (0 .. r*r - 1)) &&
                      \valid_read(kdinv + (0 .. r - 1));
    requires valid_g: \valid(g + (0 .. n - 1));
    requires valid_lam: \valid(lam + (0 .. r - 1));
    requires sep: \separated(lam + (0 .. r - 1), g + (0 .. n - 1));
    assigns g[0 .. n - 1], lam[0 .. r - 1];
 */
static void rs_multiplier(size_t n, size_t r, const double *L, const double *dinv,
                          const double *Xt, const double *K, const double *kdinv, double *g,
                          double *lam)
{
    nsm_chol_fwd_vec(n, L, dinv, g);
    nsm_mat_vec(0, r, n, 1.0, Xt, g, lam);
    nsm_chol_solve_vec(r, K, kdinv, lam);
}

/* Vectors: the slots of V (nsm_proj_vecs) as in nsm_proj_i_accel;
   g0 = f + f_g − Cq̇ (nsm_proj_i_accel_rhs),
   qdd = lq + z₁, z₁ = M̄⁻¹P(g0 − M lq) by (P28)–(P30): z₁ = L⁻ᵀ(w − Xλ₁), w = L⁻¹(g0 − M lq);
   fc = −Yλ₂, λ₂ the multiplier for g = g0 − M(lq − lt) ((P13) with (P30)). */
nsm_status nsm_proj_i_rs_accel(size_t n, size_t r, const double *M, const double *C,
                               const double *f, const double *fg, const double *qd,
                               const double *Yt, const double *L, const double *Xt,
                               const double *K, const double *kdinv, int want_fc, double *V,
                               double *lam)
{
    nsm_proj_vecs s = nsm_proj_i_vecs(n, V);
    nsm_proj_i_accel_rhs(n, M, C, f, fg, qd, V);
    nsm_chol_inv_diag(n, L, s.dinv);
    if (r > 0u) {
        rs_multiplier(n, r, L, s.dinv, Xt, K, kdinv, s.v2, lam);
        /*@ loop invariant 0 <= k <= r;
            loop assigns k, V[3*n .. 4*n - 1];
            loop variant r - k;
         */
        for (size_t k = 0; k < r; k++) {
            /*@ assert row: k*n + n <= r*n; */
            nsm_vec_axpy(n, -lam[k], Xt + k * n, s.v2);
        }
    } else {
        nsm_chol_fwd_vec(n, L, s.dinv, s.v2);
    }
    nsm_chol_back_vec(n, L, s.dinv, s.v2);
    nsm_status st = nsm_proj_i_accel_out(n, s.v2, V);
    if (st != NSM_OK || !want_fc) {
        return st;
    }
    if (r > 0u) {
        nsm_proj_i_fc_rhs(n, M, V);
        rs_multiplier(n, r, L, s.dinv, Xt, K, kdinv, s.v2, lam);
    }
    /* fc = 0, then fc += (−λ_k)·y_k for k = 0, ..., r − 1 (no rows for r = 0: fc = 0). */
    nsm_mat_vec(1, r, n, -1.0, Yt, lam, s.fc);
    if (!nsm_all_finite(n, s.fc)) {
        return NSM_ERR_NOT_FINITE;
    }
    return NSM_OK;
}
