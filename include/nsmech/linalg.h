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

/*
 * Validation order, common to every function below: sizes (NSM_ERR_SIZE), NULL pointers
 * (NSM_ERR_NULL; a pointer may be NULL when the dimensions make its block empty), argument
 * domains (NSM_ERR_ARG: nsm_trans values, rtol), workspace size (NSM_ERR_WORKSPACE), aliasing
 * (NSM_ERR_ALIAS), NaN/Inf in inputs (NSM_ERR_NOT_FINITE). Unless a function says otherwise,
 * nothing but the workspace is written when an error is returned.
 *
 * Contracts: memory safety, absence of integer overflow, assigns and termination are proved
 * with Frama-C/WP (doubles read as reals); the status behaviours, workspace formulas and rank
 * bounds below are proved functional properties.
 */

/*@ // Workspace formulas (doubles). For m, n <= NSM_MAX_DIM = 1024 they are at most
    // 1024·2050 + 1024, far below SIZE_MAX: the size_t computations cannot overflow.
    logic integer nsm_lmin(integer a, integer b) = a <= b ? a : b;
    logic integer nsm_svd_lwork(integer m, integer n) = nsm_lmin(m, n) * (m + n + 1);
    logic integer nsm_range_null_lwork(integer m, integer n) =
        nsm_lmin(m, n) == 0 ? 0 : nsm_lmin(m, n) * (m + n + 2) + n;
    predicate nsm_trans_ok(integer t) = t == NSM_NO_TRANS || t == NSM_TRANS;
 */

/* ------------------------------------------------------------------------------------------ */
/* Products (CBLAS). These check NULL and dimensions; they do not scan for NaN (callers at the  */
/* module boundary do), so they are cheap enough for inner loops.                               */
/* ------------------------------------------------------------------------------------------ */

/**
 * C = alpha·op(A)·op(B) + beta·C, with op(A) m×k, op(B) k×n, C m×n (row-major).
 * A is stored m×k (ta = NSM_NO_TRANS) or k×m (ta = NSM_TRANS); likewise B is k×n or n×k.
 * C may not overlap A or B (NSM_ERR_ALIAS). m, n, k may be 0 (nothing to do, or C = beta·C).
 * As in BLAS, beta = 0 overwrites C without reading it (NaN in C does not propagate).
 * A pointer may be NULL when its block is empty (A when m·k = 0, B when k·n = 0, C when
 * m·n = 0). Errors: NSM_ERR_SIZE (> NSM_MAX_DIM), NSM_ERR_ARG (bad nsm_trans), NSM_ERR_NULL,
 * NSM_ERR_ALIAS; C is not written on error.
 */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. m*k - 1));
    requires valid_B: B == \null || \valid_read(B + (0 .. k*n - 1));
    requires valid_C: C == \null || \valid(C + (0 .. m*n - 1));
    assigns C[0 .. m*n - 1];
    behavior bad_size:
      assumes m > NSM_MAX_DIM || n > NSM_MAX_DIM || k > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior bad_trans:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && k <= NSM_MAX_DIM;
      assumes !nsm_trans_ok(ta) || !nsm_trans_ok(tb);
      assigns \nothing;
      ensures \result == NSM_ERR_ARG;
    behavior null_arg:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && k <= NSM_MAX_DIM;
      assumes nsm_trans_ok(ta) && nsm_trans_ok(tb);
      assumes (m*k > 0 && A == \null) || (k*n > 0 && B == \null) || (m*n > 0 && C == \null);
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior valid_args:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && k <= NSM_MAX_DIM;
      assumes nsm_trans_ok(ta) && nsm_trans_ok(tb);
      assumes !((m*k > 0 && A == \null) || (k*n > 0 && B == \null) || (m*n > 0 && C == \null));
      ensures status: \result == NSM_OK || \result == NSM_ERR_ALIAS;
      ensures empty: m*n == 0 ==> \result == NSM_OK;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_gemm(nsm_trans ta, nsm_trans tb, size_t m, size_t n, size_t k,
                    double alpha, const double *A, const double *B, double beta, double *C);

/**
 * y = alpha·op(A)·x + beta·y, A stored m×n; op(A) = A (y has m entries, x has n) or Aᵀ
 * (y has n entries, x has m). y may not overlap A or x. Empty blocks, beta = 0 and errors as
 * for nsm_gemm.
 */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. m*n - 1));
    requires valid_x: x == \null || \valid_read(x + (0 .. (ta == NSM_TRANS ? m : n) - 1));
    requires valid_y: y == \null || \valid(y + (0 .. (ta == NSM_TRANS ? n : m) - 1));
    assigns y[0 .. (ta == NSM_TRANS ? n : m) - 1];
    behavior bad_size:
      assumes m > NSM_MAX_DIM || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior bad_trans:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && !nsm_trans_ok(ta);
      assigns \nothing;
      ensures \result == NSM_ERR_ARG;
    behavior null_arg:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && nsm_trans_ok(ta);
      assumes (m*n > 0 && A == \null) || ((ta == NSM_TRANS ? m : n) > 0 && x == \null) ||
              ((ta == NSM_TRANS ? n : m) > 0 && y == \null);
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior valid_args:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && nsm_trans_ok(ta);
      assumes !((m*n > 0 && A == \null) || ((ta == NSM_TRANS ? m : n) > 0 && x == \null) ||
                ((ta == NSM_TRANS ? n : m) > 0 && y == \null));
      ensures status: \result == NSM_OK || \result == NSM_ERR_ALIAS;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_gemv(nsm_trans ta, size_t m, size_t n, double alpha, const double *A,
                    const double *x, double beta, double *y);

/**
 * C = alpha·op(A)·op(A)ᵀ + beta·C for symmetric C (n×n), both triangles written (the result
 * is exactly symmetric). op(A) is n×k: A stored n×k (NSM_NO_TRANS) or k×n (NSM_TRANS).
 * Only the lower triangle of C is read (when beta ≠ 0). C may not overlap A. Empty blocks,
 * beta = 0 and errors as for nsm_gemm.
 */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. n*k - 1));
    requires valid_C: C == \null || \valid(C + (0 .. n*n - 1));
    assigns C[0 .. n*n - 1];
    behavior bad_size:
      assumes n > NSM_MAX_DIM || k > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior bad_trans:
      assumes n <= NSM_MAX_DIM && k <= NSM_MAX_DIM && !nsm_trans_ok(ta);
      assigns \nothing;
      ensures \result == NSM_ERR_ARG;
    behavior null_arg:
      assumes n <= NSM_MAX_DIM && k <= NSM_MAX_DIM && nsm_trans_ok(ta);
      assumes (n*k > 0 && A == \null) || (n > 0 && C == \null);
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior valid_args:
      assumes n <= NSM_MAX_DIM && k <= NSM_MAX_DIM && nsm_trans_ok(ta);
      assumes !((n*k > 0 && A == \null) || (n > 0 && C == \null));
      ensures status: \result == NSM_OK || \result == NSM_ERR_ALIAS;
    complete behaviors;
    disjoint behaviors;
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
 * finite); A is then partly overwritten. NSM_ERR_NOT_FINITE if A has NaN/Inf entries in its
 * lower triangle (nothing written). n = 0 is an empty factorisation (NSM_OK, A may be NULL);
 * n > NSM_MAX_DIM gives NSM_ERR_SIZE.
 */
/*@ requires valid_A: A == \null || \valid(A + (0 .. n*n - 1));
    assigns A[0 .. n*n - 1];
    behavior bad_size:
      assumes n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior empty:
      assumes n == 0;
      assigns \nothing;
      ensures \result == NSM_OK;
    behavior null_arg:
      assumes 1 <= n <= NSM_MAX_DIM && A == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior valid_args:
      assumes 1 <= n <= NSM_MAX_DIM && A != \null;
      ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_NOT_SPD;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_chol_factor(size_t n, double *A);

/**
 * Solve L·Lᵀ·X = B in place: B (n×nrhs) is overwritten by X. L from nsm_chol_factor (only
 * its lower triangle is read). n = 0 or nrhs = 0: nothing to do. Errors (B unchanged):
 * NSM_ERR_SIZE, NSM_ERR_NULL, NSM_ERR_ALIAS (B overlaps L), NSM_ERR_NOT_FINITE (NaN/Inf in
 * the lower triangle of L or in B), NSM_ERR_NOT_SPD (a diagonal entry of L is not positive:
 * L is not a Cholesky factor).
 */
/*@ requires valid_L: L == \null || \valid_read(L + (0 .. n*n - 1));
    requires valid_B: B == \null || \valid(B + (0 .. n*nrhs - 1));
    assigns B[0 .. n*nrhs - 1];
    behavior bad_size:
      assumes n > NSM_MAX_DIM || nrhs > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior null_arg:
      assumes n <= NSM_MAX_DIM && nrhs <= NSM_MAX_DIM;
      assumes (n > 0 && L == \null) || (n > 0 && nrhs > 0 && B == \null);
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior empty:
      assumes n <= NSM_MAX_DIM && nrhs <= NSM_MAX_DIM;
      assumes !((n > 0 && L == \null) || (n > 0 && nrhs > 0 && B == \null));
      assumes n == 0 || nrhs == 0;
      assigns \nothing;
      ensures \result == NSM_OK;
    behavior valid_args:
      assumes 1 <= n <= NSM_MAX_DIM && 1 <= nrhs <= NSM_MAX_DIM;
      assumes L != \null && B != \null;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NOT_SPD;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_chol_solve(size_t n, size_t nrhs, const double *L, double *B);

/* ------------------------------------------------------------------------------------------ */
/* Singular value decomposition, rank, bases, pseudo-inverse                                    */
/* ------------------------------------------------------------------------------------------ */

/** Workspace (doubles) for nsm_svd on an m×n input: min(m,n)·(m+n+1); 0 if m or n exceeds
    NSM_MAX_DIM. */
/*@ assigns \nothing;
    ensures formula: m <= NSM_MAX_DIM && n <= NSM_MAX_DIM ==> \result == nsm_svd_lwork(m, n);
    ensures too_big: m > NSM_MAX_DIM || n > NSM_MAX_DIM ==> \result == 0;
 */
size_t nsm_svd_work(size_t m, size_t n);

/**
 * Thin SVD A = U·diag(s)·Vᵀ of an m×n matrix, p = min(m, n): s (p entries, descending,
 * non-negative), U (m×p), V (n×p), all row-major. Columns of U and V belonging to s_j > 0 are
 * orthonormal; for s_j = 0 (exactly) the matching column of the longer side is zero (in the
 * extreme case where s_j is positive relative to max|A_ij| but underflows to 0 when scaled
 * back, that column is a unit vector instead, which is equally valid for a zero singular value).
 * U or V may be NULL when not wanted. m or n may be 0 (p = 0, nothing written).
 * Errors: NSM_ERR_NULL, NSM_ERR_SIZE, NSM_ERR_NOT_FINITE (also when s_1 exceeds DBL_MAX),
 * NSM_ERR_WORKSPACE, NSM_ERR_ALIAS (outputs and work must not overlap A or each other),
 * NSM_ERR_NO_CONVERGENCE (more than NSM_SVD_MAX_SWEEPS sweeps); only work is written on error,
 * nothing at all on NSM_ERR_WORKSPACE (A, s, work not NULL: exactly when lwork < the query) or
 * NSM_ERR_ALIAS (proved: behaviour small_work, clauses alias_untouched and only_work).
 *
 * Method: the p vectors of the shorter side (columns of A if m >= n, of Aᵀ otherwise), scaled
 * by 1/max|A_ij|, are rotated pairwise (cyclic one-sided Jacobi, Rutishauser's rotation) until
 * a whole sweep finds every pair orthogonal: |g_i·g_j| <= eps·‖g_i‖‖g_j‖ with
 * eps = sqrt(max(m, n))·DBL_EPSILON. Cost O(sweeps·p²·max(m, n)).
 */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. m*n - 1));
    requires valid_s: s == \null || \valid(s + (0 .. nsm_lmin(m, n) - 1));
    requires valid_U: U == \null || \valid(U + (0 .. m*nsm_lmin(m, n) - 1));
    requires valid_V: V == \null || \valid(V + (0 .. n*nsm_lmin(m, n) - 1));
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns s[0 .. nsm_lmin(m, n) - 1], U[0 .. m*nsm_lmin(m, n) - 1],
            V[0 .. n*nsm_lmin(m, n) - 1], work[0 .. lwork - 1];
    behavior bad_size:
      assumes m > NSM_MAX_DIM || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior empty:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM && nsm_lmin(m, n) == 0;
      assigns \nothing;
      ensures \result == NSM_OK;
    behavior null_arg:
      assumes 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
      assumes A == \null || s == \null || work == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior small_work:
      assumes 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
      assumes A != \null && s != \null && work != \null;
      assumes lwork < nsm_svd_lwork(m, n);
      assigns \nothing;
      ensures \result == NSM_ERR_WORKSPACE;
    behavior valid_args:
      assumes 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
      assumes A != \null && s != \null && work != \null;
      assumes lwork >= nsm_svd_lwork(m, n);
      ensures status: \result == NSM_OK || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NO_CONVERGENCE;
      ensures alias_untouched: \result == NSM_ERR_ALIAS ==>
                nsm_unchanged{Old, Here}(s, nsm_lmin(m, n)) &&
                (U == \null || nsm_unchanged{Old, Here}(U, m*nsm_lmin(m, n))) &&
                (V == \null || nsm_unchanged{Old, Here}(V, n*nsm_lmin(m, n))) &&
                nsm_unchanged{Old, Here}(work, lwork);
      ensures only_work: \result != NSM_OK ==>
                (\separated(work + (0 .. lwork - 1), s + (0 .. nsm_lmin(m, n) - 1)) ==>
                 nsm_unchanged{Old, Here}(s, nsm_lmin(m, n))) &&
                (U != \null && \separated(work + (0 .. lwork - 1),
                                           U + (0 .. m*nsm_lmin(m, n) - 1)) ==>
                 nsm_unchanged{Old, Here}(U, m*nsm_lmin(m, n))) &&
                (V != \null && \separated(work + (0 .. lwork - 1),
                                           V + (0 .. n*nsm_lmin(m, n) - 1)) ==>
                 nsm_unchanged{Old, Here}(V, n*nsm_lmin(m, n)));
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_svd(size_t m, size_t n, const double *A, double *s, double *U, double *V,
                   double *work, size_t lwork);

/**
 * Numerical rank from descending singular values s[0..p-1]: the number of s_i > rtol·s_0
 * (0 when p = 0 or s_0 = 0). rtol must be in [0, 1) (else NSM_ERR_ARG). *rank may not
 * overlap s (NSM_ERR_ALIAS, checked after rtol). s must be non-negative and non-increasing
 * (else NSM_ERR_ARG); NaN/Inf gives NSM_ERR_NOT_FINITE. Nothing is written on error.
 */
/*@ requires valid_s: s == \null || \valid_read(s + (0 .. p - 1));
    requires valid_rank: rank == \null || \valid(rank);
    assigns *rank;
    behavior bad_size:
      assumes p > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior null_arg:
      assumes p <= NSM_MAX_DIM && (rank == \null || (p > 0 && s == \null));
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior valid_args:
      assumes p <= NSM_MAX_DIM && rank != \null && (p == 0 || s != \null);
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_ALIAS;
      ensures bad_rtol: !(0 <= rtol < 1) ==> \result == NSM_ERR_ARG;
      ensures rank_bound: \result == NSM_OK ==> 0 <= *rank <= p;
      ensures empty: \result == NSM_OK && p == 0 ==> *rank == 0;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_rank_from_sv(size_t p, const double *s, double rtol, size_t *rank);

/** Workspace (doubles) for nsm_range_null on an m×n input: p·(m+n+2) + n with p = min(m,n),
    0 when p = 0 (m = 0 needs no workspace) or when m or n exceeds NSM_MAX_DIM. */
/*@ assigns \nothing;
    ensures formula: m <= NSM_MAX_DIM && n <= NSM_MAX_DIM ==>
                     \result == nsm_range_null_lwork(m, n);
    ensures too_big: m > NSM_MAX_DIM || n > NSM_MAX_DIM ==> \result == 0;
 */
size_t nsm_range_null_work(size_t m, size_t n);

/**
 * Orthonormal bases of the row space and the null space of A (m×n, m may be 0).
 * basis (n×n, row-major) receives an orthogonal matrix whose columns 0..r-1 span the row space
 * R(Aᵀ) and whose columns r..n-1 span the null space N(A); *rank = r with tolerance rtol
 * (as nsm_rank_from_sv). sv (min(m,n) entries, may be NULL) receives the singular values.
 * m = 0 gives the identity and r = 0. The first r columns are right singular vectors; when
 * m < n the null-space columns come from a Householder QR of those r columns.
 * Errors: NSM_ERR_SIZE, NSM_ERR_NULL, NSM_ERR_ARG (rtol not in [0, 1)), NSM_ERR_WORKSPACE,
 * NSM_ERR_ALIAS (two of A, sv, basis, work overlap, or *rank overlaps one of them),
 * NSM_ERR_NOT_FINITE, NSM_ERR_NO_CONVERGENCE; only work is written on error, nothing at all on
 * NSM_ERR_WORKSPACE (no NULL, rtol valid: exactly when lwork < nsm_range_null_work(m, n)),
 * NSM_ERR_ARG or NSM_ERR_ALIAS (proved as for nsm_svd).
 */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. m*n - 1));
    requires valid_rank: rank == \null || \valid(rank);
    requires valid_sv: sv == \null || \valid(sv + (0 .. nsm_lmin(m, n) - 1));
    requires valid_basis: basis == \null || \valid(basis + (0 .. n*n - 1));
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns *rank, sv[0 .. nsm_lmin(m, n) - 1], basis[0 .. n*n - 1], work[0 .. lwork - 1];
    behavior bad_size:
      assumes m > NSM_MAX_DIM || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior null_arg:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
      assumes rank == \null || (m*n > 0 && A == \null) || (n > 0 && basis == \null) ||
              (nsm_range_null_lwork(m, n) > 0 && work == \null);
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior small_work:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
      assumes !(rank == \null || (m*n > 0 && A == \null) || (n > 0 && basis == \null) ||
                (nsm_range_null_lwork(m, n) > 0 && work == \null));
      assumes 0 <= rtol < 1 && lwork < nsm_range_null_lwork(m, n);
      assigns \nothing;
      ensures \result == NSM_ERR_WORKSPACE;
    behavior valid_args:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
      assumes !(rank == \null || (m*n > 0 && A == \null) || (n > 0 && basis == \null) ||
                (nsm_range_null_lwork(m, n) > 0 && work == \null));
      assumes !(0 <= rtol < 1 && lwork < nsm_range_null_lwork(m, n));
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_NO_CONVERGENCE;
      ensures bad_rtol: !(0 <= rtol < 1) ==> \result == NSM_ERR_ARG;
      ensures rank_bound: \result == NSM_OK ==> 0 <= *rank <= nsm_lmin(m, n);
      ensures no_constraints: \result == NSM_OK && m == 0 ==> *rank == 0;
      ensures arg_untouched: \result == NSM_ERR_ARG || \result == NSM_ERR_ALIAS ==>
                *rank == \old(*rank) &&
                (sv == \null || nsm_unchanged{Old, Here}(sv, nsm_lmin(m, n))) &&
                nsm_unchanged{Old, Here}(basis, n*n) &&
                nsm_unchanged{Old, Here}(work, lwork);
      ensures only_work: \result != NSM_OK ==>
                (\separated(work + (0 .. lwork - 1), rank) ==> *rank == \old(*rank)) &&
                (sv != \null && \separated(work + (0 .. lwork - 1),
                                            sv + (0 .. nsm_lmin(m, n) - 1)) ==>
                 nsm_unchanged{Old, Here}(sv, nsm_lmin(m, n))) &&
                (\separated(work + (0 .. lwork - 1), basis + (0 .. n*n - 1)) ==>
                 nsm_unchanged{Old, Here}(basis, n*n));
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_range_null(size_t m, size_t n, const double *A, double rtol, size_t *rank,
                          double *sv, double *basis, double *work, size_t lwork);

/** Workspace (doubles) for nsm_pinv on an m×n input: the same as nsm_svd_work(m, n). */
/*@ assigns \nothing;
    ensures formula: m <= NSM_MAX_DIM && n <= NSM_MAX_DIM ==> \result == nsm_svd_lwork(m, n);
    ensures too_big: m > NSM_MAX_DIM || n > NSM_MAX_DIM ==> \result == 0;
 */
size_t nsm_pinv_work(size_t m, size_t n);

/**
 * Moore–Penrose pseudo-inverse X = A⁺ (n×m) of A (m×n) with singular values s_i <= rtol·s_0
 * treated as zero; *rank receives the rank used. X may not overlap A. m or n may be 0
 * (rank 0, X empty). Errors: NSM_ERR_SIZE, NSM_ERR_NULL, NSM_ERR_ARG (rtol not in [0, 1)),
 * NSM_ERR_WORKSPACE, NSM_ERR_ALIAS (two of A, X, work overlap, or *rank overlaps one of them),
 * NSM_ERR_NOT_FINITE (NaN/Inf in A, or ‖A⁺‖ = 1/s_r beyond DBL_MAX), NSM_ERR_NO_CONVERGENCE;
 * only work is written on error, nothing at all on NSM_ERR_WORKSPACE (no NULL, rtol valid:
 * exactly when lwork < nsm_pinv_work(m, n)), NSM_ERR_ARG or NSM_ERR_ALIAS (proved as for
 * nsm_svd).
 */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. m*n - 1));
    requires valid_rank: rank == \null || \valid(rank);
    requires valid_X: X == \null || \valid(X + (0 .. n*m - 1));
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns *rank, X[0 .. n*m - 1], work[0 .. lwork - 1];
    behavior bad_size:
      assumes m > NSM_MAX_DIM || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior null_arg:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
      assumes rank == \null || (nsm_lmin(m, n) > 0 && (A == \null || X == \null || work == \null));
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior small_work:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
      assumes !(rank == \null || (nsm_lmin(m, n) > 0 && (A == \null || X == \null || work == \null)));
      assumes 0 <= rtol < 1 && lwork < nsm_svd_lwork(m, n);
      assigns \nothing;
      ensures \result == NSM_ERR_WORKSPACE;
    behavior valid_args:
      assumes m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
      assumes !(rank == \null || (nsm_lmin(m, n) > 0 && (A == \null || X == \null || work == \null)));
      assumes !(0 <= rtol < 1 && lwork < nsm_svd_lwork(m, n));
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_NO_CONVERGENCE;
      ensures bad_rtol: !(0 <= rtol < 1) ==> \result == NSM_ERR_ARG;
      ensures rank_bound: \result == NSM_OK ==> 0 <= *rank <= nsm_lmin(m, n);
      ensures arg_untouched: \result == NSM_ERR_ARG || \result == NSM_ERR_ALIAS ==>
                *rank == \old(*rank) && nsm_unchanged{Old, Here}(X, n*m) &&
                nsm_unchanged{Old, Here}(work, lwork);
      ensures only_work: \result != NSM_OK ==>
                (\separated(work + (0 .. lwork - 1), rank) ==> *rank == \old(*rank)) &&
                (\separated(work + (0 .. lwork - 1), X + (0 .. n*m - 1)) ==>
                 nsm_unchanged{Old, Here}(X, n*m));
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_pinv(size_t m, size_t n, const double *A, double rtol, size_t *rank, double *X,
                    double *work, size_t lwork);

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_LINALG_H */
