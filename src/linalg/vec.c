/*
 * Vector kernels of linalg (contracts in src/linalg/internal.h), used by lq.c, svd.c, chol.c
 * and the setvalued, projection, impact, outcome and check rooms: dot, sum of squares, axpy
 * (y += alpha·x), zero fill, copy, scale, division, largest magnitude, the scaled 2-norm, and
 * on row-major matrices the identity fill, the transpose and y = alpha·U·x or alpha·Uᵀ·x.
 * Dot, sum of squares and axpy are written two or four entries per iteration so that GCC at
 * -O2 (whose cost model vectorises no loop that needs a scalar epilogue) and clang pack them
 * into SIMD operations. The partial sums of nsm_vec_dot (and so of nsm_vec_sumsq) are added at
 * the end in a fixed order: deterministic, though not the order of a sequential sum.
 */
#include "internal.h"
#include "../nsm_math.h"

double nsm_vec_dot(size_t len, const double *a, const double *b)
{
    double s0 = 0.0;
    double s1 = 0.0;
    double s2 = 0.0;
    double s3 = 0.0;
    size_t i = 0;
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, s0, s1, s2, s3;
        loop variant len - i;
     */
    while (i + 4u <= len) {
        s0 += a[i] * b[i];
        s1 += a[i + 1u] * b[i + 1u];
        s2 += a[i + 2u] * b[i + 2u];
        s3 += a[i + 3u] * b[i + 3u];
        i += 4u;
    }
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, s0;
        loop variant len - i;
     */
    while (i < len) {
        s0 += a[i] * b[i];
        i++;
    }
    return (s0 + s2) + (s1 + s3);
}

/* x · x: nsm_vec_dot's loop with both operands x, whose products x_i·x_i are >= 0 (so the sum
   is; fabs changes nothing but states it). */
double nsm_vec_sumsq(size_t len, const double *x)
{
    return fabs(nsm_vec_dot(len, x, x));
}

void nsm_vec_dot4(size_t len, const double *x, const double *a, const double *b,
                  const double *c, const double *d, double *out)
{
    double s0 = 0.0;
    double s1 = 0.0;
    double s2 = 0.0;
    double s3 = 0.0;
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, s0, s1, s2, s3;
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        double xi = x[i];
        s0 += xi * a[i];
        s1 += xi * b[i];
        s2 += xi * c[i];
        s3 += xi * d[i];
    }
    out[0] = s0;
    out[1] = s1;
    out[2] = s2;
    out[3] = s3;
}

void nsm_vec_axpy(size_t len, double w, const double *x, double *y)
{
    size_t i = 0;
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, y[0 .. len - 1];
        loop variant len - i;
     */
    while (i + 2u <= len) {
        double y0 = y[i] + w * x[i];
        double y1 = y[i + 1u] + w * x[i + 1u];
        y[i] = y0;
        y[i + 1u] = y1;
        i += 2u;
    }
    if (i < len) {
        y[i] += w * x[i];
    }
}

double nsm_vec_scaled_norm(size_t len, double big, const double *x)
{
    double ss = 0.0;
    /*@ loop invariant 0 <= i <= len;
        loop invariant nonneg: ss >= 0;
        loop assigns i, ss;
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        double t = x[i] / big;
        ss += t * t;
    }
    return sqrt(ss);
}

double nsm_vec_absmax(size_t len, const double *x)
{
    double big = 0.0;
    /*@ loop invariant 0 <= i <= len;
        loop invariant nonneg: big >= 0;
        loop assigns i, big;
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        double a = fabs(x[i]);
        if (a > big) {
            big = a;
        }
    }
    return big;
}

void nsm_vec_copy(size_t len, const double *x, double *y)
{
    /*@ loop invariant 0 <= i <= len;
        loop invariant copied: \separated(x + (0 .. len - 1), y + (0 .. len - 1)) ==>
                               \forall integer k; 0 <= k < i ==> y[k] == x[k];
        loop assigns i, y[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        y[i] = x[i];
    }
}

void nsm_vec_zero(size_t len, double *y)
{
    /*@ loop invariant 0 <= i <= len;
        loop invariant zero: \forall integer k; 0 <= k < i ==> y[k] == 0;
        loop assigns i, y[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        y[i] = 0.0;
    }
}

void nsm_vec_scale(size_t len, double alpha, const double *x, double *y)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, y[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        y[i] = alpha * x[i];
    }
}

void nsm_vec_div(size_t len, const double *x, double d, double *y)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, y[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        y[i] = x[i] / d;
    }
}

/* Zeros everywhere, then the diagonal: no test in the loops. */
void nsm_mat_eye(size_t rows, size_t cols, double *Q)
{
    size_t d = rows < cols ? rows : cols;
    nsm_vec_zero(rows * cols, Q);
    /*@ loop invariant 0 <= i <= d;
        loop assigns i, Q[0 .. rows*cols - 1];
        loop variant d - i;
     */
    for (size_t i = 0; i < d; i++) {
        /*@ assert diag: i*cols + i < rows*cols; */
        Q[i * cols + i] = 1.0;
    }
}

/* Row by row of B, i.e. column by column of A. */
void nsm_mat_transpose(size_t rows, size_t cols, size_t lda, const double *A, double *B)
{
    /*@ loop invariant 0 <= j <= cols;
        loop assigns j, B[0 .. cols*rows - 1];
        loop variant cols - j;
     */
    for (size_t j = 0; j < cols; j++) {
        /*@ loop invariant 0 <= i <= rows;
            loop assigns i, B[0 .. cols*rows - 1];
            loop variant rows - i;
         */
        for (size_t i = 0; i < rows; i++) {
            /*@ assert in: j*rows + i < cols*rows && i*lda + j < rows*lda; */
            B[j * rows + i] = A[i * lda + j];
        }
    }
}

void nsm_mat_vec(int trans, size_t rows, size_t cols, double alpha, const double *U,
                 const double *x, double *y)
{
    if (trans == 0) {
        /*@ loop invariant 0 <= j <= rows;
            loop assigns j, y[0 .. rows - 1];
            loop variant rows - j;
         */
        for (size_t j = 0; j < rows; j++) {
            /*@ assert row: j*cols + cols <= rows*cols; */
            y[j] = alpha * nsm_vec_dot(cols, U + j * cols, x);
        }
        return;
    }
    nsm_vec_zero(cols, y);
    /*@ loop invariant 0 <= j <= rows;
        loop assigns j, y[0 .. cols - 1];
        loop variant rows - j;
     */
    for (size_t j = 0; j < rows; j++) {
        /*@ assert row: j*cols + cols <= rows*cols; */
        nsm_vec_axpy(cols, alpha * x[j], U + j * cols, y);
    }
}

void nsm_sym_mat_vec(size_t n, const double *M, const double *x, double *y)
{
    /* Row i of the lower triangle, M[i][0 .. i], is contiguous: its dot with x[0 .. i] gives
       y_i's part from columns j <= i, and the same row times x_i gives, for every j < i, the
       part of y_j from the mirrored entry M[j][i] = M[i][j]. */
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, y[0 .. n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row: i*n + n <= n*n; */
        y[i] = nsm_vec_dot(i + 1u, M + i * n, x);
        nsm_vec_axpy(i, x[i], M + i * n, y);
    }
}
