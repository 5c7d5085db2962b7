/*
 * nsmech/linalg.h — dense kernels on row-major double arrays.
 *
 * Storage: an m×n matrix A is an array of m*n doubles, element (i, j) at A[i*n + j]
 * (row-major, leading dimension n). Vectors are contiguous. Nothing here allocates; functions
 * that need scratch space take (work, lwork) sized by the matching *_work() query, in doubles.
 *
 * Products go through CBLAS (row-major, unit strides). Factorisations are nsmech's own code so
 * that flight software carries no unverified LAPACK; LAPACK is used only by the tests, as an
 * independent oracle.
 *
 * Rank decisions use singular values from a one-sided (Hestenes) Jacobi SVD: a singular value
 * s_i counts when s_i > rtol * s_1 (and s_1 > 0). One-sided Jacobi computes small singular
 * values to high relative accuracy, which is what a rank decision needs; its cost,
 * O(sweeps · p² · q) for a q×p input, is acceptable for the dimensions of robot models.
 */
#ifndef NSMECH_LINALG_H
#define NSMECH_LINALG_H

#include <stddef.h>
#include "nsmech/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Whether a matrix operand is used as stored or transposed. */
typedef enum nsm_trans { NSM_NO_TRANS = 0, NSM_TRANS = 1 } nsm_trans;

/** Default relative rank tolerance: s_i counts when s_i > NSM_RANK_RTOL_DEFAULT * s_1. */
#define NSM_RANK_RTOL_DEFAULT 1e-10

/** Largest number of Jacobi sweeps before NSM_ERR_NO_CONVERGENCE. */
#define NSM_SVD_MAX_SWEEPS 80

/* ------------------------------------------------------------------------------------------ */
/* Products (CBLAS). These check NULL and dimensions; they do not scan for NaN (callers at the  */
/* module boundary do), so they are cheap enough for inner loops.                               */
/* ------------------------------------------------------------------------------------------ */

/**
 * C = alpha·op(A)·op(B) + beta·C, with op(A) m×k, op(B) k×n, C m×n (row-major).
 * A is stored m×k (ta = NSM_NO_TRANS) or k×m (ta = NSM_TRANS); likewise B is k×n or n×k.
 * C may not overlap A or B (NSM_ERR_ALIAS). m, n, k may be 0 (nothing to do, or C = beta·C).
 * Errors: NSM_ERR_NULL, NSM_ERR_SIZE (> NSM_MAX_DIM), NSM_ERR_ARG (bad nsm_trans), NSM_ERR_ALIAS.
 */
nsm_status nsm_gemm(nsm_trans ta, nsm_trans tb, size_t m, size_t n, size_t k,
                    double alpha, const double *A, const double *B, double beta, double *C);

/**
 * y = alpha·op(A)·x + beta·y, A stored m×n; op(A) = A (y has m entries, x has n) or Aᵀ
 * (y has n entries, x has m). y may not overlap A or x.
 */
nsm_status nsm_gemv(nsm_trans ta, size_t m, size_t n, double alpha, const double *A,
                    const double *x, double beta, double *y);

/**
 * C = alpha·op(A)·op(A)ᵀ + beta·C for symmetric C (n×n), both triangles written (the result
 * is exactly symmetric). op(A) is n×k: A stored n×k (NSM_NO_TRANS) or k×n (NSM_TRANS).
 */
nsm_status nsm_syrk(nsm_trans ta, size_t n, size_t k, double alpha, const double *A,
                    double beta, double *C);

/* ------------------------------------------------------------------------------------------ */
/* Cholesky                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/**
 * In-place Cholesky factorisation A = L·Lᵀ of a symmetric positive definite n×n matrix.
 * Only the lower triangle of A is read. On NSM_OK the lower triangle holds L and the strict
 * upper triangle is set to zero. Returns NSM_ERR_NOT_SPD when a pivot is not positive (or not
 * finite); A is then partly overwritten. NSM_ERR_NOT_FINITE if A has NaN/Inf entries.
 */
nsm_status nsm_chol_factor(size_t n, double *A);

/**
 * Solve L·Lᵀ·X = B in place: B (n×nrhs) is overwritten by X. L from nsm_chol_factor.
 */
nsm_status nsm_chol_solve(size_t n, size_t nrhs, const double *L, double *B);

/* ------------------------------------------------------------------------------------------ */
/* Singular value decomposition, rank, bases, pseudo-inverse                                    */
/* ------------------------------------------------------------------------------------------ */

/** Workspace (doubles) for nsm_svd on an m×n input. */
size_t nsm_svd_work(size_t m, size_t n);

/**
 * Thin SVD A = U·diag(s)·Vᵀ of an m×n matrix, p = min(m, n): s (p entries, descending,
 * non-negative), U (m×p), V (n×p), all row-major. Columns of U and V belonging to s_j > 0 are
 * orthonormal; for s_j = 0 (exactly) the matching column of the longer side is zero.
 * U or V may be NULL when not wanted. m or n may be 0 (p = 0, nothing written).
 * Errors: NSM_ERR_NULL, NSM_ERR_SIZE, NSM_ERR_NOT_FINITE, NSM_ERR_WORKSPACE,
 * NSM_ERR_NO_CONVERGENCE (more than NSM_SVD_MAX_SWEEPS sweeps).
 */
nsm_status nsm_svd(size_t m, size_t n, const double *A, double *s, double *U, double *V,
                   double *work, size_t lwork);

/**
 * Numerical rank from descending singular values s[0..p-1]: the number of s_i > rtol·s_0
 * (0 when p = 0 or s_0 = 0). rtol must be in [0, 1).
 */
nsm_status nsm_rank_from_sv(size_t p, const double *s, double rtol, size_t *rank);

/** Workspace (doubles) for nsm_range_null on an m×n input. */
size_t nsm_range_null_work(size_t m, size_t n);

/**
 * Orthonormal bases of the row space and the null space of A (m×n, m may be 0).
 * basis (n×n, row-major) receives an orthogonal matrix whose columns 0..r-1 span the row space
 * R(Aᵀ) and whose columns r..n-1 span the null space N(A); *rank = r with tolerance rtol
 * (as nsm_rank_from_sv). sv (min(m,n) entries, may be NULL) receives the singular values.
 */
nsm_status nsm_range_null(size_t m, size_t n, const double *A, double rtol, size_t *rank,
                          double *sv, double *basis, double *work, size_t lwork);

/** Workspace (doubles) for nsm_pinv on an m×n input. */
size_t nsm_pinv_work(size_t m, size_t n);

/**
 * Moore–Penrose pseudo-inverse X = A⁺ (n×m) of A (m×n) with singular values s_i <= rtol·s_0
 * treated as zero; *rank receives the rank used. X may not overlap A.
 */
nsm_status nsm_pinv(size_t m, size_t n, const double *A, double rtol, size_t *rank, double *X,
                    double *work, size_t lwork);

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_LINALG_H */
