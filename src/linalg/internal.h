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

/** y[0 .. len-1] += w · x[0 .. len-1] (vec.c); x may equal y. */
/*@ requires len: len <= NSM_MAX_DIM;
    requires valid: \valid_read(x + (0 .. len - 1)) && \valid(y + (0 .. len - 1));
    assigns y[0 .. len - 1];
 */
void nsm_vec_axpy(size_t len, double w, const double *x, double *y);

/** Largest magnitude of x[0 .. len-1], 0 for len = 0 (vec.c; the scale of svd.c and lq.c). */
/*@ requires len: len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires valid: \valid_read(x + (0 .. len - 1));
    assigns \nothing;
    ensures nonneg: \result >= 0;
 */
double nsm_vec_absmax(size_t len, const double *x);

/** Workspace (doubles) of nsm_lq_pinv for an m×n matrix: 3mn + 3m² + 3m. */
/*@ requires dims: m <= NSM_MAX_DIM && n <= NSM_MAX_DIM;
    assigns \nothing;
    ensures size: \result == 3*m*n + 3*m*m + 3*m;
 */
size_t nsm_lq_pinv_work(size_t m, size_t n);

/** Pseudo-inverse X = A⁺ (n×m) of A (m×n) and Yt (r×n, rows orthonormal) spanning the row
    space of A, so that A⁺A = YtᵀYt, by Householder LQ with row pivoting (src/linalg/lq.c).
    *rank = r, the number of pivots whose norm exceeds rtol times the largest row norm of A
    (rows r.. of Yt are not written). A is finite. Errors: NSM_ERR_NOT_FINITE if A⁺ has an entry
    beyond DBL_MAX (A of tiny norm), NSM_ERR_RANK if the second, unpivoted factorisation meets
    a zero row (rounding only; not reached in the tests). */
/*@ requires dims: 1 <= m <= NSM_MAX_DIM && 1 <= n <= NSM_MAX_DIM;
    requires rtol: 0 <= rtol < 1;
    requires valid_A: \valid_read(A + (0 .. m*n - 1));
    requires valid_out: \valid(rank) && \valid(X + (0 .. n*m - 1)) && \valid(Yt + (0 .. m*n - 1));
    requires valid_work: \valid(work + (0 .. 3*m*n + 3*m*m + 3*m - 1));
    assigns *rank, X[0 .. n*m - 1], Yt[0 .. m*n - 1], work[0 .. 3*m*n + 3*m*m + 3*m - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_RANK || \result == NSM_ERR_NOT_FINITE;
    ensures rank: \result == NSM_OK ==> *rank <= m && *rank <= n;
 */
nsm_status nsm_lq_pinv(size_t m, size_t n, const double *A, double rtol, size_t *rank,
                       double *X, double *Yt, double *work);

#endif
