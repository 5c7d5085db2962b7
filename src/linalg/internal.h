/*
 * Internal kernels of the linalg module used by other modules (not part of the public API).
 * They take proved preconditions instead of validating their arguments: the public entry
 * points that call them have checked sizes, finiteness and aliasing once.
 */
#ifndef NSM_LINALG_INTERNAL_H
#define NSM_LINALG_INTERNAL_H

#include <stddef.h>
#include "nsmech/base.h"

/** a[0 .. len-1] · b[0 .. len-1], four partial sums added in a fixed order (vec.c). */
/*@ requires len: len <= NSM_MAX_DIM;
    requires valid: \valid_read(a + (0 .. len - 1)) && \valid_read(b + (0 .. len - 1));
    assigns \nothing;
 */
double nsm_vec_dot(size_t len, const double *a, const double *b);

/** Σ x_i² over x[0 .. len-1] (vec.c). */
/*@ requires len: len <= NSM_MAX_DIM;
    requires valid: \valid_read(x + (0 .. len - 1));
    assigns \nothing;
    ensures nonneg: \result >= 0;
 */
double nsm_vec_sumsq(size_t len, const double *x);

/** out[k] = x · (row k) over len entries for the four rows a, b, c, d (vec.c): four dot
    products sharing the loads of x, one sum each in index order (the columns of chol.c). */
/*@ requires len: len <= NSM_MAX_DIM;
    requires valid_x: \valid_read(x + (0 .. len - 1));
    requires valid_rows: \valid_read(a + (0 .. len - 1)) && \valid_read(b + (0 .. len - 1)) &&
                         \valid_read(c + (0 .. len - 1)) && \valid_read(d + (0 .. len - 1));
    requires valid_out: \valid(out + (0 .. 3));
    assigns out[0 .. 3];
 */
void nsm_vec_dot4(size_t len, const double *x, const double *a, const double *b,
                  const double *c, const double *d, double *out);

/** y[0 .. len-1] += w · x[0 .. len-1] (vec.c); x may equal y. */
/*@ requires len: len <= NSM_MAX_DIM;
    requires valid: \valid_read(x + (0 .. len - 1)) && \valid(y + (0 .. len - 1));
    assigns y[0 .. len - 1];
 */
void nsm_vec_axpy(size_t len, double w, const double *x, double *y);

/** sqrt(Σ (x_i/big)²) over x[0 .. len-1] for big > 0 (vec.c): ‖x‖₂/big, whose squares neither
    overflow nor underflow when big is the largest magnitude of x (nsm_vec_absmax). One sum in
    index order. */
/*@ requires len: len <= NSM_MAX_DIM;
    requires scale: big > 0;
    requires valid: \valid_read(x + (0 .. len - 1));
    assigns \nothing;
    ensures nonneg: \result >= 0;
 */
double nsm_vec_scaled_norm(size_t len, double big, const double *x);

/** Largest magnitude of x[0 .. len-1], 0 for len = 0 (vec.c; the scale of svd.c and lq.c). */
/*@ requires len: len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires valid: \valid_read(x + (0 .. len - 1));
    assigns \nothing;
    ensures nonneg: \result >= 0;
 */
double nsm_vec_absmax(size_t len, const double *x);

/** y[0 .. len-1] = x[0 .. len-1] (vec.c), entry by entry in increasing order; the copy is
    exact when x and y do not overlap (and harmless when x == y). */
/*@ requires len: len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires valid: \valid_read(x + (0 .. len - 1)) && \valid(y + (0 .. len - 1));
    assigns y[0 .. len - 1];
    ensures copy: \separated(x + (0 .. len - 1), y + (0 .. len - 1)) ==>
                  \forall integer i; 0 <= i < len ==> y[i] == x[i];
 */
void nsm_vec_copy(size_t len, const double *x, double *y);

/** y[0 .. len-1] = 0 (vec.c). */
/*@ requires len: len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires valid: \valid(y + (0 .. len - 1));
    assigns y[0 .. len - 1];
    ensures zero: \forall integer i; 0 <= i < len ==> y[i] == 0;
 */
void nsm_vec_zero(size_t len, double *y);

/** y[0 .. len-1] = alpha · x[0 .. len-1] (vec.c); x may equal y. */
/*@ requires len: len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires valid: \valid_read(x + (0 .. len - 1)) && \valid(y + (0 .. len - 1));
    assigns y[0 .. len - 1];
 */
void nsm_vec_scale(size_t len, double alpha, const double *x, double *y);

/** y[0 .. len-1] = x[0 .. len-1] / d (vec.c), entry by entry; x may equal y. */
/*@ requires len: len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires valid: \valid_read(x + (0 .. len - 1)) && \valid(y + (0 .. len - 1));
    assigns y[0 .. len - 1];
 */
void nsm_vec_div(size_t len, const double *x, double d, double *y);

/** Q (rows×cols, row-major) = [I 0] or [I; 0]: 1 at (i, i), 0 elsewhere (vec.c). */
/*@ requires dims: rows <= NSM_MAX_DIM && cols <= NSM_MAX_DIM;
    requires valid_Q: \valid(Q + (0 .. rows*cols - 1));
    assigns Q[0 .. rows*cols - 1];
 */
void nsm_mat_eye(size_t rows, size_t cols, double *Q);

/** B (cols×rows, row-major) = the transpose of the leading rows×cols block of A (row stride
    lda): B[j·rows + i] = A[i·lda + j] (vec.c). B overlaps no entry of A it reads. */
/*@ requires dims: rows <= NSM_MAX_DIM && cols <= lda <= NSM_MAX_DIM;
    requires valid_A: \valid_read(A + (0 .. rows*lda - 1));
    requires valid_B: \valid(B + (0 .. cols*rows - 1));
    assigns B[0 .. cols*rows - 1];
 */
void nsm_mat_transpose(size_t rows, size_t cols, size_t lda, const double *A, double *B);

/** y = alpha · U x (trans == 0; x has cols entries, y rows: one nsm_vec_dot per row) or
    y = alpha · Uᵀ x (trans != 0; x has rows entries, y cols: y = 0, then one nsm_vec_axpy per
    row) for U (rows×cols, row-major); no rows or columns give y = 0 (vec.c). y overlaps
    neither U nor x. */
/*@ requires dims: rows <= NSM_MAX_DIM && cols <= NSM_MAX_DIM;
    requires valid_U: \valid_read(U + (0 .. rows*cols - 1));
    requires valid_x: \valid_read(x + (0 .. (trans != 0 ? rows : cols) - 1));
    requires valid_y: \valid(y + (0 .. (trans != 0 ? cols : rows) - 1));
    assigns y[0 .. (trans != 0 ? cols : rows) - 1];
 */
void nsm_mat_vec(int trans, size_t rows, size_t cols, double alpha, const double *U,
                 const double *x, double *y);

/** Workspace (doubles) of nsm_lq_factor for an m×n matrix: 2mn + m² + 3m. */
/*@ requires dims: m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
    assigns \nothing;
    ensures size: \result == 2*m*n + m*m + 3*m;
 */
size_t nsm_lq_factor_work(size_t m, size_t n);

/** The factors of the pseudo-inverse A⁺ = Y S⁻ᵀ V₂ᵀ / a of A (m×n) by Householder LQ with row
    pivoting (src/linalg/lq.c; docs/math.md, "The factorisation of the per-cycle call"):
    *rank = r, the number of pivots whose norm exceeds rtol times the largest row norm of A;
    *ainv = 1/a with a = max|A_ij| (0 when r = 0); Yt (r×n, rows orthonormal, A⁺A = YtᵀYt);
    S (r×r lower triangle of an r×m array, row stride m); V2t (r×m, rows orthonormal). Rows r..
    of Yt, S and V2t are not written. A is finite. Apply A⁺ or A⁺ᵀ with nsm_lq_pinv_vec.
    Errors: NSM_ERR_NOT_FINITE if 1/a overflows (A of subnormal norm),
    NSM_ERR_RANK if the second, unpivoted factorisation meets a zero row (rounding only; not
    reached in the tests). */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
    requires rtol: 0 <= rtol < 1;
    requires valid_A: \valid_read(A + (0 .. m*n - 1));
    requires valid_out: \valid(rank) && \valid(ainv) && \valid(Yt + (0 .. m*n - 1)) &&
                        \valid(S + (0 .. m*m - 1)) && \valid(V2t + (0 .. m*m - 1));
    requires valid_work: \valid(work + (0 .. 2*m*n + m*m + 3*m - 1));
    assigns *rank, *ainv, Yt[0 .. m*n - 1], S[0 .. m*m - 1], V2t[0 .. m*m - 1],
            work[0 .. 2*m*n + m*m + 3*m - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_RANK || \result == NSM_ERR_NOT_FINITE;
    ensures rank: \result == NSM_OK ==> *rank <= m && *rank <= n;
 */
nsm_status nsm_lq_factor(size_t m, size_t n, const double *A, double rtol, size_t *rank,
                         double *ainv, double *Yt, double *S, double *V2t, double *work);

/** out = alpha·a·A⁺x for the factors of nsm_lq_factor (r rows; A⁺ = Ytᵀ S⁻ᵀ V2t / a):
    trans == 0: x has m entries, out (n) = alpha · Ytᵀ S⁻ᵀ V2t x;
    trans != 0: x has n entries, out (m) = alpha · V2tᵀ S⁻¹ Yt x, i.e. alpha·a·A⁺ᵀx.
    r = 0 gives out = 0; t (m) is scratch. NSM_ERR_RANK on a zero diagonal entry of S (not
    reached for factors from nsm_lq_factor). */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM && r <= m && r <= n;
    requires valid_f: r == 0 || (\valid_read(Yt + (0 .. r*n - 1)) &&
                                 \valid_read(S + (0 .. r*m - 1)) &&
                                 \valid_read(V2t + (0 .. r*m - 1)));
    requires valid_x: \valid_read(x + (0 .. (trans != 0 ? n : m) - 1));
    requires valid_t: \valid(t + (0 .. m - 1));
    requires valid_out: \valid(out + (0 .. (trans != 0 ? m : n) - 1));
    assigns t[0 .. m - 1], out[0 .. (trans != 0 ? m : n) - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_RANK;
 */
nsm_status nsm_lq_pinv_vec(int trans, size_t m, size_t n, size_t r, double alpha,
                           const double *Yt, const double *S, const double *V2t, const double *x,
                           double *t, double *out);

/** The Cholesky factor of the symmetric n×n matrix A in place, on the lower triangle only
    (the strict upper triangle is neither read nor written): 1 on success, 0 on a pivot that
    is not positive and finite (A not positive definite, or a non-finite entry reaching a
    pivot). The unchecked kernel of nsm_chol_factor (src/linalg/chol.c). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM;
    requires valid_A: \valid(A + (0 .. n*n - 1));
    assigns A[0 .. n*n - 1];
    ensures \result == 0 || \result == 1;
 */
int nsm_chol_factor_lower(size_t n, double *A);

/** dinv_i = 1/L_ii for the Cholesky factor L (n×n, positive diagonal, as left by a successful
    nsm_chol_factor): the reciprocals nsm_chol_solve_vec multiplies by (src/linalg/chol.c). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM;
    requires valid_L: \valid_read(L + (0 .. n*n - 1));
    requires valid_dinv: \valid(dinv + (0 .. n - 1));
    assigns dinv[0 .. n - 1];
 */
void nsm_chol_inv_diag(size_t n, const double *L, double *dinv);

/** b ← L⁻¹b for the Cholesky factor L (n×n, lower triangle with positive diagonal, as left by
    a successful nsm_chol_factor), dinv = its reciprocal diagonal (nsm_chol_inv_diag): forward
    substitution, unchecked (src/linalg/chol.c). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM;
    requires valid_L: \valid_read(L + (0 .. n*n - 1));
    requires valid_dinv: \valid_read(dinv + (0 .. n - 1));
    requires valid_b: \valid(b + (0 .. n - 1));
    assigns b[0 .. n - 1];
 */
void nsm_chol_fwd_vec(size_t n, const double *L, const double *dinv, double *b);

/** b ← L⁻ᵀb for the same L and dinv: back substitution, unchecked (src/linalg/chol.c). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM;
    requires valid_L: \valid_read(L + (0 .. n*n - 1));
    requires valid_dinv: \valid_read(dinv + (0 .. n - 1));
    requires valid_b: \valid(b + (0 .. n - 1));
    assigns b[0 .. n - 1];
 */
void nsm_chol_back_vec(size_t n, const double *L, const double *dinv, double *b);

/** b ← L⁻ᵀL⁻¹b for the Cholesky factor L (n×n, lower triangle with positive diagonal, as left
    by a successful nsm_chol_factor), dinv = its reciprocal diagonal (nsm_chol_inv_diag), one
    right-hand side: the unchecked kernel of nsm_chol_solve for callers that produced L
    themselves (src/linalg/chol.c). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM;
    requires valid_L: \valid_read(L + (0 .. n*n - 1));
    requires valid_dinv: \valid_read(dinv + (0 .. n - 1));
    requires valid_b: \valid(b + (0 .. n - 1));
    assigns b[0 .. n - 1];
 */
void nsm_chol_solve_vec(size_t n, const double *L, const double *dinv, double *b);

/** y = M·x for symmetric M (n×n) read on its lower triangle only (vec.c): per row one
    nsm_vec_dot and one nsm_vec_axpy, both on the contiguous row of the lower triangle. A
    dsymv without BLAS: threaded OpenBLAS hands every dsymv to its worker threads. y may not
    overlap M or x. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid_read(M + (0 .. n*n - 1)) && \valid_read(x + (0 .. n - 1)) &&
                    \valid(y + (0 .. n - 1));
    assigns y[0 .. n - 1];
 */
void nsm_sym_mat_vec(size_t n, const double *M, const double *x, double *y);

#endif
