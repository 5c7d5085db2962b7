/*
 * The projection-dynamics data of the benchmarks (bench_projection.c, bench_latency.c):
 * random A (m×n), SPD M = GGᵀ + nI, random C, Ȧ, f, f_g, admissible q̇ = Pv (P from the
 * library's projector), deterministic in (n, m); optionally redundant rows. And the LAPACK
 * KKT solve a user would write instead, [M Aᵀ; A 0][q̈; −λ] = [f + f_g − Cq̇; −Ȧq̇] by
 * dsysv.
 */
#ifndef NSM_BENCH_PROJ_DATA_H
#define NSM_BENCH_PROJ_DATA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include "nsmech.h"
#include "fill.h"

typedef struct proj_data {
    size_t n, m;
    double *M, *C, *A, *Ad, *f, *fg, *qd;
} proj_data;

/* The library's view of the data. */
static inline nsm_proj_problem proj_data_problem(const proj_data *d)
{
    nsm_proj_problem prob = {d->n, d->m, d->M, d->C, d->A, d->Ad, d->f, d->fg, d->qd};
    return prob;
}

/* Rows m0 .. m-1 of X (m×n) become sums of two of the rows before m0 (m0 = m − max(1, m/4)). */
static inline void proj_make_redundant(size_t n, size_t m, double *X)
{
    size_t m0 = m - (m / 4u > 0u ? m / 4u : 1u);
    for (size_t i = m0; i < m; i++) {
        size_t a = (i - m0) % m0, b = (i - m0 + 1u) % m0;
        for (size_t j = 0; j < n; j++) {
            X[i * n + j] = X[a * n + j] + X[b * n + j];
        }
    }
}

/* Allocates and fills *d; exits on a projector failure. */
static inline void proj_data_setup(proj_data *d, size_t n, size_t m, int redundant)
{
    d->n = n;
    d->m = m;
    d->M = malloc(n * n * sizeof(double));
    d->C = malloc(n * n * sizeof(double));
    d->A = malloc(m * n * sizeof(double));
    d->Ad = malloc(m * n * sizeof(double));
    d->f = malloc(n * sizeof(double));
    d->fg = malloc(n * sizeof(double));
    d->qd = malloc(n * sizeof(double));
    double *G = malloc(n * n * sizeof(double));
    bench_fill(n * n, G, (unsigned)(7 * n + m));
    /* M = G Gᵀ + n I (SPD, symmetric) */
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j <= i; j++) {
            double s = 0.0;
            for (size_t k = 0; k < n; k++) {
                s += G[i * n + k] * G[j * n + k];
            }
            if (i == j) {
                s += (double)n;
            }
            d->M[i * n + j] = d->M[j * n + i] = s;
        }
    }
    free(G);
    bench_fill(n * n, d->C, (unsigned)(11 * n + m));
    bench_fill(m * n, d->A, (unsigned)(13 * n + m));
    bench_fill(m * n, d->Ad, (unsigned)(17 * n + m));
    if (redundant) {
        proj_make_redundant(n, m, d->A);
        proj_make_redundant(n, m, d->Ad);
    }
    bench_fill(n, d->f, (unsigned)(19 * n + m));
    bench_fill(n, d->fg, (unsigned)(23 * n + m));
    /* admissible q̇ = P v with P from the library's projector */
    double *v = malloc(n * sizeof(double)), *P = malloc(n * n * sizeof(double));
    double *Q = malloc(n * n * sizeof(double)), *Ap = malloc(n * m * sizeof(double));
    size_t lw = nsm_proj_projector_work(n, m);
    double *w = malloc(lw * sizeof(double));
    bench_fill(n, v, (unsigned)(29 * n + m));
    nsm_proj_projector_result pr = {0, P, Q, Ap};
    if (nsm_proj_projector(n, m, d->A, NSM_RANK_RTOL_DEFAULT, &pr, w, lw) != NSM_OK) {
        fprintf(stderr, "proj_data_setup: projector failed\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        double s = 0.0;
        for (size_t j = 0; j < n; j++) {
            s += P[i * n + j] * v[j];
        }
        d->qd[i] = s;
    }
    free(v);
    free(P);
    free(Q);
    free(Ap);
    free(w);
}

static inline void proj_data_free(proj_data *d)
{
    free(d->M);
    free(d->C);
    free(d->A);
    free(d->Ad);
    free(d->f);
    free(d->fg);
    free(d->qd);
}

/* Forms [M Aᵀ; A 0] in K ((n+m)², row-major) and [f + f_g − Cq̇; −Ȧq̇] in rhs (n+m). */
static inline void proj_kkt_form(const proj_data *d, double *K, double *rhs)
{
    size_t n = d->n, m = d->m, s = n + m;
    for (size_t i = 0; i < n; i++) {
        memcpy(K + i * s, d->M + i * n, n * sizeof(double));
        for (size_t j = 0; j < m; j++) {
            K[i * s + n + j] = d->A[j * n + i];
        }
        double v = d->f[i] + d->fg[i];
        for (size_t j = 0; j < n; j++) {
            v -= d->C[i * n + j] * d->qd[j];
        }
        rhs[i] = v;
    }
    for (size_t i = 0; i < m; i++) {
        memcpy(K + (n + i) * s, d->A + i * n, n * sizeof(double));
        memset(K + (n + i) * s + n, 0, m * sizeof(double));
        double v = 0.0;
        for (size_t j = 0; j < n; j++) {
            v -= d->Ad[i * n + j] * d->qd[j];
        }
        rhs[n + i] = v;
    }
}

/* dsysv's workspace length for the KKT system of order s (at least 1). */
static inline lapack_int proj_kkt_lwork(size_t s, double *K, double *rhs, lapack_int *ipiv)
{
    double q = 0.0;
    LAPACKE_dsysv_work(LAPACK_COL_MAJOR, 'U', (lapack_int)s, 1, K, (lapack_int)s, ipiv, rhs,
                       (lapack_int)s, &q, -1);
    return (lapack_int)q > 1 ? (lapack_int)q : 1;
}

/* Forms the KKT system and solves it with dsysv (q̈ in rhs[0 .. n-1]); nonzero on failure.
   K is symmetric: its row-major lower triangle is the column-major upper one, so the
   column-major interface is used (no transposition buffers, nothing allocated). */
static inline int proj_kkt_solve(const proj_data *d, double *K, double *rhs, lapack_int *ipiv,
                                 double *work, lapack_int lwork)
{
    size_t s = d->n + d->m;
    proj_kkt_form(d, K, rhs);
    return LAPACKE_dsysv_work(LAPACK_COL_MAJOR, 'U', (lapack_int)s, 1, K, (lapack_int)s, ipiv,
                              rhs, (lapack_int)s, work, lwork) != 0;
}

#endif
