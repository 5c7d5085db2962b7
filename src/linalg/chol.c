/* Cholesky factorisation and solves (nsmech's own code, row-major, lower triangle). */
#include "nsmech/linalg.h"
#include "internal.h"
#include "../nsm_math.h"

/* One pass over the lower triangle (diagonal included) of the n×n matrix L, row by row:
   NSM_ERR_NOT_FINITE if an entry is not finite, else NSM_ERR_NOT_SPD if a diagonal entry is
   not positive, else NSM_OK. */
/*@ requires dim: n <= NSM_MAX_DIM;
    requires valid_L: \valid_read(L + (0 .. n*n - 1));
    assigns \nothing;
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                    \result == NSM_ERR_NOT_SPD;
 */
static nsm_status lower_scan(size_t n, const double *L)
{
    int pos = 1;
    /*@ loop invariant 0 <= i <= n;
        loop invariant pos == 0 || pos == 1;
        loop assigns i, pos;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row: i*n + n <= n*n; */
        if (!nsm_all_finite(i + 1u, L + i * n)) {
            return NSM_ERR_NOT_FINITE;
        }
        if (!(L[i * n + i] > 0.0)) {
            pos = 0;
        }
    }
    return pos ? NSM_OK : NSM_ERR_NOT_SPD;
}

/* Column j of the factor: pivot, then the entries below it (times 1/L_jj: one division per
   column). Returns 0 on a bad pivot. */
/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires col: j < n;
    requires valid_A: \valid(A + (0 .. n*n - 1));
    assigns A[0 .. n*n - 1];
    ensures \result == 0 || \result == 1;
 */
static int chol_column(size_t n, size_t j, double *A)
{
    /*@ assert rowj: j*n + n <= n*n; */
    double *Lj = A + j * n;
    double d = Lj[j] - nsm_vec_dot(j, Lj, Lj);
    /* A pivot that is not positive, or not finite (x - x != 0 for NaN and infinities). */
    if (!(d > 0.0) || !(d - d == 0.0)) {
        return 0;
    }
    double ljj = sqrt(d);
    Lj[j] = ljj;
    double inv = 1.0 / ljj;
    double s[4];
    size_t i = j + 1u;
    /* Four rows at a time (nsm_vec_dot4 reads Lj once for them), then the rest one by one. */
    /*@ loop invariant j + 1 <= i <= n;
        loop assigns i, s[0 .. 3], A[0 .. n*n - 1];
        loop variant n - i;
     */
    while (n - i >= 4u) {
        /*@ assert rows: i*n + 4*n <= n*n; */
        nsm_vec_dot4(j, Lj, A + i * n, A + (i + 1u) * n, A + (i + 2u) * n, A + (i + 3u) * n,
                     s);
        A[i * n + j] = (A[i * n + j] - s[0]) * inv;
        A[(i + 1u) * n + j] = (A[(i + 1u) * n + j] - s[1]) * inv;
        A[(i + 2u) * n + j] = (A[(i + 2u) * n + j] - s[2]) * inv;
        A[(i + 3u) * n + j] = (A[(i + 3u) * n + j] - s[3]) * inv;
        i += 4u;
    }
    /*@ loop invariant j + 1 <= i <= n;
        loop assigns i, A[0 .. n*n - 1];
        loop variant n - i;
     */
    while (i < n) {
        /*@ assert rowi: i*n + n <= n*n; */
        double *Li = A + i * n;
        Li[j] = (Li[j] - nsm_vec_dot(j, Li, Lj)) * inv;
        i++;
    }
    return 1;
}

/* The columns in order; the first bad pivot stops the factorisation. */
int nsm_chol_factor_lower(size_t n, double *A)
{
    /*@ loop invariant 0 <= j <= n;
        loop assigns j, A[0 .. n*n - 1];
        loop variant n - j;
     */
    for (size_t j = 0; j < n; j++) {
        if (!chol_column(n, j, A)) {
            return 0;
        }
    }
    return 1;
}

nsm_status nsm_chol_factor(size_t n, double *A)
{
    if (n > NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    if (n == 0u) {
        return NSM_OK;
    }
    if (A == NULL) {
        return NSM_ERR_NULL;
    }
    /* A diagonal entry that is not positive is left to the factorisation's pivots. */
    if (lower_scan(n, A) == NSM_ERR_NOT_FINITE) {
        return NSM_ERR_NOT_FINITE;
    }
    if (!nsm_chol_factor_lower(n, A)) {
        return NSM_ERR_NOT_SPD;
    }
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, A[0 .. n*n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ loop invariant i + 1 <= j <= n || (j == i + 1 && j > n);
            loop assigns j, A[0 .. n*n - 1];
            loop variant n - j;
         */
        for (size_t j = i + 1u; j < n; j++) {
            /*@ assert up: i*n + j < n*n; */
            A[i * n + j] = 0.0;
        }
    }
    return NSM_OK;
}

/* Substitution on the rows of B (n×nrhs), in place: L·Y = B (back == 0: rows i = 0, …, n−1,
   each less the rows k < i times L_ik) or Lᵀ·X = Y (back != 0: rows i = n−1, …, 0, each less
   the rows k > i times L_ki, the columns of Lᵀ being the rows of L); then row i divided by
   L_ii. The rows k are taken in increasing order (nsm_vec_axpy with weight −L). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= nrhs <= NSM_MAX_DIM;
    requires valid_L: \valid_read(L + (0 .. n*n - 1));
    requires valid_B: \valid(B + (0 .. n*nrhs - 1));
    assigns B[0 .. n*nrhs - 1];
 */
static void chol_subst(int back, size_t n, size_t nrhs, const double *L, double *B)
{
    /*@ loop invariant 0 <= t <= n;
        loop assigns t, B[0 .. n*nrhs - 1];
        loop variant n - t;
     */
    for (size_t t = 0; t < n; t++) {
        size_t i = back ? n - 1u - t : t;
        size_t k0 = back ? i + 1u : 0u;
        size_t k1 = back ? n : i;
        /*@ assert rowB: i*nrhs + nrhs <= n*nrhs; */
        double *Bi = B + i * nrhs;
        /*@ loop invariant k0 <= k <= k1;
            loop assigns k, B[0 .. n*nrhs - 1];
            loop variant k1 - k;
         */
        for (size_t k = k0; k < k1; k++) {
            /*@ assert kL: i*n + k < n*n && k*n + i < n*n; */
            /*@ assert kB: k*nrhs + nrhs <= n*nrhs; */
            double l = back ? L[k * n + i] : L[i * n + k];
            nsm_vec_axpy(nrhs, -l, B + k * nrhs, Bi);
        }
        /*@ assert dL: i*n + i < n*n; */
        nsm_vec_div(nrhs, Bi, L[i * n + i], Bi);
    }
}

nsm_status nsm_chol_solve(size_t n, size_t nrhs, const double *L, double *B)
{
    if (n > NSM_MAX_DIM || nrhs > NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    if ((n > 0u && L == NULL) || (n > 0u && nrhs > 0u && B == NULL)) {
        return NSM_ERR_NULL;
    }
    if (n == 0u || nrhs == 0u) {
        return NSM_OK;
    }
    const double *Bc = B;
    if (nsm_overlap(Bc, n * nrhs, L, n * n)) {
        return NSM_ERR_ALIAS;
    }
    nsm_status st = lower_scan(n, L);
    if (st == NSM_ERR_NOT_FINITE || !nsm_all_finite(n * nrhs, B)) {
        return NSM_ERR_NOT_FINITE;
    }
    if (st != NSM_OK) {
        return st;
    }
    chol_subst(0, n, nrhs, L, B);
    chol_subst(1, n, nrhs, L, B);
    return NSM_OK;
}

/* dinv_i = 1 / L_ii: the reciprocals of nsm_chol_solve_vec, n independent divisions. */
void nsm_chol_inv_diag(size_t n, const double *L, double *dinv)
{
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, dinv[0 .. n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert d: i*n + i < n*n; */
        dinv[i] = 1.0 / L[i * n + i];
    }
}

/* Forward substitution on rows of L: y_i = (b_i − L[i, 0..i) · y[0..i)) · dinv_i, in place;
   contiguous dot products, the divisions replaced by products with dinv (off the dependency
   chain), no validation (internal.h). */
void nsm_chol_fwd_vec(size_t n, const double *L, const double *dinv, double *b)
{
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, b[0 .. n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row: i*n + n <= n*n; */
        b[i] = (b[i] - nsm_vec_dot(i, L + i * n, b)) * dinv[i];
    }
}

/* Back substitution Lᵀx = y on rows of L: for i = n−1, …, 0: x_i = y_i · dinv_i and
   y[0..i) −= x_i L[i, 0..i) (the columns of Lᵀ are the rows of L), in place. */
void nsm_chol_back_vec(size_t n, const double *L, const double *dinv, double *b)
{
    /*@ loop invariant 0 <= k <= n;
        loop assigns k, b[0 .. n - 1];
        loop variant k;
     */
    for (size_t k = n; k > 0u; k--) {
        size_t i = k - 1u;
        /*@ assert row: i*n + n <= n*n; */
        b[i] = b[i] * dinv[i];
        nsm_vec_axpy(i, -b[i], L + i * n, b);
    }
}

/* b ← L⁻ᵀL⁻¹b: the forward then the back substitution. */
void nsm_chol_solve_vec(size_t n, const double *L, const double *dinv, double *b)
{
    nsm_chol_fwd_vec(n, L, dinv, b);
    nsm_chol_back_vec(n, L, dinv, b);
}
