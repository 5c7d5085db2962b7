/*
 * Internal helpers shared by the files of the impact room (not part of the public API).
 */
#ifndef NSM_CONTACT_INTERNAL_H
#define NSM_CONTACT_INTERNAL_H

#include <float.h>
#include <stddef.h>
#include "nsmech/base.h"
#include "../nsm_math.h"

/* Lemma function (empty at run time): a row-major index a·K + b of a K×K matrix is in range. */
/*@ requires a < K && b < K && K <= NSM_MAX_DIM;
    assigns \nothing;
    ensures a * K + b < K * K;
    ensures a * K + b + 1 <= K * K;
 */
static inline void lemma_idx(size_t a, size_t b, size_t K)
{
    /*@ assert a * K <= (K - 1) * K; */
    (void)a;
    (void)b;
    (void)K;
}

/* B (3×3, row-major) = contact c's diagonal block of W (K×K, K = 3m): rows and columns 3c,
   3c + 1, 3c + 2 (t1, t2, n). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid(B + (0 .. 8));
    assigns B[0 .. 8];
 */
static inline void contact_block(size_t m, size_t c, const double *W, double *B)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    /*@ loop invariant 0 <= i <= 3;
        loop assigns i, B[0 .. 8];
        loop variant 3 - i;
     */
    for (size_t i = 0; i < 3; i++) {
        lemma_idx(3 * c + i, 3 * c + 2, K);
        size_t at = (3 * c + i) * K + 3 * c; /* W's entry (3c + i, 3c) */
        /*@ assert at + 2 < K * K; */
        B[3 * i] = W[at];
        B[3 * i + 1] = W[at + 1];
        B[3 * i + 2] = W[at + 2];
    }
}

/* y = A x for A r×c (row-major). */
/*@ requires 1 <= r <= NSM_MAX_DIM && 1 <= c <= NSM_MAX_DIM;
    requires \valid_read(A + (0 .. r * c - 1)) && \valid_read(x + (0 .. c - 1));
    requires \valid(y + (0 .. r - 1));
    assigns y[0 .. r - 1];
 */
static inline void matvec(size_t r, size_t c, const double *A, const double *x, double *y)
{
    /*@ loop invariant 0 <= i <= r;
        loop assigns i, y[0 .. r - 1];
        loop variant r - i;
     */
    for (size_t i = 0; i < r; i++) {
        /*@ assert i * c + c <= r * c; */
        double acc = 0.0;
        /*@ loop invariant 0 <= j <= c;
            loop assigns j, acc;
            loop variant c - j;
         */
        for (size_t j = 0; j < c; j++) {
            acc += A[i * c + j] * x[j];
        }
        y[i] = acc;
    }
}

/*@ requires len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(src + (0 .. len - 1)) && \valid(dst + (0 .. len - 1));
    assigns dst[0 .. len - 1];
 */
static inline void copy_vec(size_t len, const double *src, double *dst)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, dst[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        dst[i] = src[i];
    }
}

/*@ requires len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid(dst + (0 .. len - 1));
    assigns dst[0 .. len - 1];
 */
static inline void zero_vec(size_t len, double *dst)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, dst[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        dst[i] = 0.0;
    }
}

/* x^T y over len entries. */
/*@ requires len <= NSM_MAX_DIM;
    requires \valid_read(x + (0 .. len - 1)) && \valid_read(y + (0 .. len - 1));
    assigns \nothing;
 */
static inline double dot(size_t len, const double *x, const double *y)
{
    double acc = 0.0;
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, acc;
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        acc += x[i] * y[i];
    }
    return acc;
}

/* Euclidean norm of a tangential pair (a, b): |a| when d = 1 (b is then 0). */
/*@ assigns \nothing;
    ensures \result >= 0;
 */
static inline double tnorm(size_t d, double a, double b)
{
    if (d == 1) {
        return fabs(a);
    }
    double fa = fabs(a);
    double fb = fabs(b);
    double s = fa > fb ? fa : fb;
    if (fa <= DBL_MAX && fb <= DBL_MAX && s > 0.0 && !(s > 0x1p-450 && s < 0x1p450)) {
        /* beyond 2^±450 the squares would overflow or underflow: scaled by the larger (NaN
           and infinities go the plain way, to 0 and infinity as before) */
        double x = fa / s;
        double y = fb / s;
        return s * sqrt(x * x + y * y);
    }
    double q = a * a + b * b;
    return q > 0.0 ? sqrt(q) : 0.0;
}

/* x += a·y over len entries. */
/*@ requires len <= NSM_MAX_DIM;
    requires \valid(x + (0 .. len - 1)) && \valid_read(y + (0 .. len - 1));
    assigns x[0 .. len - 1];
 */
static inline void axpy(size_t len, double a, const double *y, double *x)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, x[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        x[i] += a * y[i];
    }
}

#endif
