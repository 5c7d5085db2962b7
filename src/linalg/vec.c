/*
 * Vector kernels of the linalg module (contracts in src/linalg/internal.h), used by lq.c,
 * svd.c, chol.c and src/projection. Dot, sum of squares and axpy are written two or four
 * entries per iteration so that GCC at -O2 (whose cost model vectorises no loop that needs a
 * scalar epilogue) and clang pack them into SIMD operations. The partial sums of nsm_vec_dot
 * and nsm_vec_sumsq are added at the end in a fixed order: deterministic, though not the order
 * of a sequential sum.
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

double nsm_vec_sumsq(size_t len, const double *x)
{
    double s0 = 0.0;
    double s1 = 0.0;
    double s2 = 0.0;
    double s3 = 0.0;
    size_t i = 0;
    /*@ loop invariant 0 <= i <= len;
        loop invariant nonneg: s0 >= 0 && s1 >= 0 && s2 >= 0 && s3 >= 0;
        loop assigns i, s0, s1, s2, s3;
        loop variant len - i;
     */
    while (i + 4u <= len) {
        s0 += x[i] * x[i];
        s1 += x[i + 1u] * x[i + 1u];
        s2 += x[i + 2u] * x[i + 2u];
        s3 += x[i + 3u] * x[i + 3u];
        i += 4u;
    }
    /*@ loop invariant 0 <= i <= len;
        loop invariant nonneg: s0 >= 0;
        loop assigns i, s0;
        loop variant len - i;
     */
    while (i < len) {
        s0 += x[i] * x[i];
        i++;
    }
    return (s0 + s2) + (s1 + s3);
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
