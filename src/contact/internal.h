/*
 * Internal helpers shared by the files of the contact module (not part of the public API).
 */
#ifndef NSM_CONTACT_INTERNAL_H
#define NSM_CONTACT_INTERNAL_H

#include <stddef.h>
#include "nsmech/base.h"

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

#endif
