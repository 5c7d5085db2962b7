/* Positive-definiteness test: Cholesky factorisation of the symmetric part, on a copy. */
#include "nsmech/check.h"
#include "../nsm_math.h"
#include "../linalg/internal.h"

/* W (lower triangle, diagonal included) = (A + Aᵀ)/2: W = Aᵀ (nsm_mat_transpose), then row by
   row W_ij = 0.5·(A_ji + A_ij) for j <= i (nsm_vec_axpy with weight 1, nsm_vec_scale by 0.5).
   The strict upper triangle keeps Aᵀ's entries; it is not read later. */
/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires valid_A: \valid_read(A + (0 .. n*n - 1));
    requires valid_W: \valid(W + (0 .. n*n - 1));
    assigns W[0 .. n*n - 1];
 */
static void chk_sym_lower(size_t n, const double *A, double *W)
{
    nsm_mat_transpose(n, n, n, A, W);
    /*@ loop invariant i_range: 0 <= i <= n;
        loop assigns i, W[0 .. n*n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row_i: i * n + n <= n * n; */
        nsm_vec_axpy(i + 1u, 1.0, A + i * n, W + i * n);
        nsm_vec_scale(i + 1u, 0.5, W + i * n, W + i * n);
    }
}

/* Σ_{k<len} W[r1*n + k]·W[r2*n + k] (two rows of the partial factor). */
/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires rows: r1 < n && r2 < n && len <= n;
    requires valid_W: \valid_read(W + (0 .. n*n - 1));
    assigns \nothing;
 */
static double chk_row_dot(size_t n, const double *W, size_t r1, size_t r2, size_t len)
{
    double s = 0.0;
    /*@ assert rows_in: r1 * n + n <= n * n && r2 * n + n <= n * n; */
    /*@ loop invariant k_range: 0 <= k <= len;
        loop assigns k, s;
        loop variant len - k;
     */
    for (size_t k = 0; k < len; k++) {
        s += W[r1 * n + k] * W[r2 * n + k];
    }
    return s;
}

/* In-place Cholesky of the lower triangle of W: 1 if every pivot is positive, else 0
   (a NaN pivot, from overflow, also gives 0). */
/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires valid_W: \valid(W + (0 .. n*n - 1));
    assigns W[0 .. n*n - 1];
    ensures boolean: \result == 0 || \result == 1;
 */
static int chk_chol_lower(size_t n, double *W)
{
    /*@ loop invariant j_range: 0 <= j <= n;
        loop assigns j, W[0 .. n*n - 1];
        loop variant n - j;
     */
    for (size_t j = 0; j < n; j++) {
        /*@ assert idx_jj: j * n + j < n * n; */
        double d = W[j * n + j] - chk_row_dot(n, W, j, j, j);
        if (!(d > 0.0)) {
            return 0;
        }
        /* d > 0 (a NaN fails the test above), so sqrt(d) > 0 in IEEE arithmetic as in the
           real model: no second test (the smoke test of -wp-smoke-tests found it dead). */
        double l = sqrt(d);
        W[j * n + j] = l;
        /*@ loop invariant i_range: j + 1 <= i <= n;
            loop assigns i, W[0 .. n*n - 1];
            loop variant n - i;
         */
        for (size_t i = j + 1; i < n; i++) {
            /*@ assert idx_ij: i * n + j < n * n; */
            double s = W[i * n + j] - chk_row_dot(n, W, i, j, j);
            W[i * n + j] = s / l;
        }
    }
    return 1;
}

size_t nsm_check_pd_work(size_t n)
{
    if (!nsm_dim_ok(n)) {
        return 0;
    }
    return n * n;
}

nsm_status nsm_check_pd(size_t n, const double *A, int *is_pd, double *work, size_t lwork)
{
    if (A == NULL || is_pd == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    size_t nn = n * n;
    if (lwork < nn) {
        return NSM_ERR_WORKSPACE;
    }
    if (!nsm_all_finite(nn, A)) {
        return NSM_ERR_NOT_FINITE;
    }
    size_t b = sizeof(double);
    const nsm_span out[2] = {{(uintptr_t)is_pd, sizeof *is_pd}, {(uintptr_t)work, nn * b}};
    const nsm_span in[1] = {{(uintptr_t)A, nn * b}};
    if (nsm_spans_overlap(2u, out, 1u, in)) {
        return NSM_ERR_ALIAS;
    }
    chk_sym_lower(n, A, work);
    int ok = chk_chol_lower(n, work);
    *is_pd = ok;
    return NSM_OK;
}
