/*
 * Timings of nsmech's own factorisations against LAPACK (single-threaded OpenBLAS):
 * Jacobi SVD vs dgesvd (values and vectors), range_null vs dgesvd (full V), Cholesky vs
 * dpotrf, for square and wide (constraint-like, m = n/2) matrices. Nothing is asserted.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lapacke.h>
#include "nsmech.h"
#include "fill.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Best of TRIALS timings: the machine may be shared, the minimum is the honest cost. */
#define TRIALS 5

static size_t reps_for(size_t n)
{
    size_t r = 200000 / (n * n * n / 8 + 1);
    return r < 5 ? 5 : r;
}

/* Microseconds per call of nsm_svd / LAPACK dgesvd on an m×n matrix. */
static void bench_svd(size_t m, size_t n)
{
    size_t p = m < n ? m : n, reps = reps_for(n > m ? n : m);
    double *A = malloc(m * n * sizeof *A), *B = malloc(m * n * sizeof *B);
    double *s = malloc(p * sizeof *s), *U = malloc(m * p * sizeof *U), *V = malloc(n * p * sizeof *V);
    double *vt = malloc(p * n * sizeof *vt), *sup = malloc(p * sizeof *sup);
    size_t lw = nsm_svd_work(m, n);
    double *work = malloc(lw * sizeof *work);
    bench_fill(m * n, A, (unsigned)(m * 31 + n));
    int bad = 0;
    double ta = 1e30, tb = 1e30;
    for (int trial = 0; trial < TRIALS; trial++) {
        double t0 = now();
        for (size_t r = 0; r < reps; r++) {
            bad |= nsm_svd(m, n, A, s, U, V, work, lw) != NSM_OK;
        }
        double t1 = now();
        for (size_t r = 0; r < reps; r++) {
            memcpy(B, A, m * n * sizeof *B);
            bad |= LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'S', 'S', (lapack_int)m, (lapack_int)n, B,
                                  (lapack_int)n, s, U, (lapack_int)p, vt, (lapack_int)n, sup) != 0;
        }
        double t2 = now();
        ta = fmin(ta, t1 - t0);
        tb = fmin(tb, t2 - t1);
    }
    printf("svd          %4zu x %-4zu %10.1f %10.1f %8.2f%s\n", m, n, 1e6 * ta / reps,
           1e6 * tb / reps, ta / tb, bad ? "  (error)" : "");
    free(A); free(B); free(s); free(U); free(V); free(vt); free(sup); free(work);
}

/* nsm_range_null vs dgesvd computing the full right factor (jobvt = 'A'). */
static void bench_range_null(size_t m, size_t n)
{
    size_t p = m < n ? m : n, reps = reps_for(n > m ? n : m);
    double *A = malloc(m * n * sizeof *A), *B = malloc(m * n * sizeof *B);
    double *basis = malloc(n * n * sizeof *basis), *s = malloc((p + 1) * sizeof *s);
    double *sup = malloc((p + 1) * sizeof *sup), *u = malloc(1 * sizeof *u);
    size_t lw = nsm_range_null_work(m, n);
    double *work = malloc((lw + 1) * sizeof *work);
    bench_fill(m * n, A, (unsigned)(m * 17 + n));
    size_t rank = 0;
    int bad = 0;
    double ta = 1e30, tb = 1e30;
    for (int trial = 0; trial < TRIALS; trial++) {
        double t0 = now();
        for (size_t r = 0; r < reps; r++) {
            bad |= nsm_range_null(m, n, A, NSM_RANK_RTOL_DEFAULT, &rank, s, basis, work, lw) !=
                   NSM_OK;
        }
        double t1 = now();
        for (size_t r = 0; r < reps; r++) {
            memcpy(B, A, m * n * sizeof *B);
            bad |= LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'A', (lapack_int)m, (lapack_int)n, B,
                                  (lapack_int)n, s, u, 1, basis, (lapack_int)n, sup) != 0;
        }
        double t2 = now();
        ta = fmin(ta, t1 - t0);
        tb = fmin(tb, t2 - t1);
    }
    printf("range_null   %4zu x %-4zu %10.1f %10.1f %8.2f%s\n", m, n, 1e6 * ta / reps,
           1e6 * tb / reps, ta / tb, bad ? "  (error)" : "");
    free(A); free(B); free(basis); free(s); free(sup); free(u); free(work);
}

static void bench_chol(size_t n)
{
    size_t reps = 20 * reps_for(n);
    double *G = malloc(n * n * sizeof *G), *M = malloc(n * n * sizeof *M);
    double *L = malloc(n * n * sizeof *L);
    bench_fill(n * n, G, (unsigned)n);
    /* M = G Gᵀ + n I: SPD */
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            double acc = (i == j) ? (double)n : 0.0;
            for (size_t k = 0; k < n; k++) {
                acc += G[i * n + k] * G[j * n + k];
            }
            M[i * n + j] = acc;
        }
    }
    int bad = 0;
    double ta = 1e30, tb = 1e30;
    for (int trial = 0; trial < TRIALS; trial++) {
        double t0 = now();
        for (size_t r = 0; r < reps; r++) {
            memcpy(L, M, n * n * sizeof *L);
            bad |= nsm_chol_factor(n, L) != NSM_OK;
        }
        double t1 = now();
        for (size_t r = 0; r < reps; r++) {
            memcpy(L, M, n * n * sizeof *L);
            bad |= LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, L, (lapack_int)n) != 0;
        }
        double t2 = now();
        ta = fmin(ta, t1 - t0);
        tb = fmin(tb, t2 - t1);
    }
    printf("chol_factor  %4zu x %-4zu %10.2f %10.2f %8.2f%s\n", n, n, 1e6 * ta / reps,
           1e6 * tb / reps, ta / tb, bad ? "  (error)" : "");
    free(G); free(M); free(L);
}

int main(void)
{
    static const size_t sizes[] = {7, 12, 30, 60};
    printf("%-12s %-11s %10s %10s %8s\n", "kernel", "size", "nsmech us", "LAPACK us", "ratio");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        bench_svd(sizes[i], sizes[i]);
    }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        bench_range_null(sizes[i] / 2 + 1, sizes[i]);
    }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        bench_chol(sizes[i]);
    }
    return 0;
}
