/*
 * Time per call of the per-cycle dynamics nsm_proj_dynamics (default options: μ = μ*, SPD check
 * of M on) against a LAPACK KKT solve of the same system, [M Aᵀ; A 0][q̈; −λ] = [f + f_g − Cq̇;
 * −Ȧq̇] with dsysv (Bunch–Kaufman; the KKT time includes forming the matrix and right-hand side,
 * workspace preallocated, column-major interface so LAPACKE needs no transposition buffers). Sizes (n, m) in {(7,3), (12,6), (30,12), (60,24)}, full-row-rank A,
 * admissible q̇. Each timing: repetitions calibrated to >= 0.2 s, best of 3, CLOCK_MONOTONIC.
 *
 * Allocation check: this program interposes malloc/calloc/realloc/free (forwarding to glibc's
 * __libc_* entry points) and counts calls made while a hot loop runs. Nothing is asserted.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lapacke.h>
#include "nsmech.h"

/* ---- allocation counter (glibc) ------------------------------------------------------- */
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t nmemb, size_t size);
void *__libc_realloc(void *ptr, size_t size);
void __libc_free(void *ptr);
void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);

static volatile int counting = 0;
static volatile unsigned long alloc_calls = 0;

void *malloc(size_t size)
{
    if (counting) {
        alloc_calls++;
    }
    return __libc_malloc(size);
}

void *calloc(size_t nmemb, size_t size)
{
    if (counting) {
        alloc_calls++;
    }
    return __libc_calloc(nmemb, size);
}

void *realloc(void *ptr, size_t size)
{
    if (counting) {
        alloc_calls++;
    }
    return __libc_realloc(ptr, size);
}

void free(void *ptr)
{
    __libc_free(ptr);
}

/* ---- helpers -------------------------------------------------------------------------- */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void fill(size_t len, double *x, unsigned seed)
{
    unsigned long s = 2463534242ul + seed;
    for (size_t i = 0; i < len; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s &= 0xfffffffful;
        x[i] = (double)s / 2147483647.5 - 1.0;
    }
}

typedef struct {
    size_t n, m;
    double *M, *C, *A, *Ad, *f, *fg, *qd;
    /* ours */
    double *qdd, *fc, *work;
    size_t lwork;
    nsm_proj_opts opts;
    /* KKT */
    double *K, *rhs, *kwork;
    lapack_int *ipiv, lkwork;
} problem;

static int run_ours(problem *p, size_t reps)
{
    int bad = 0;
    nsm_proj_info info;
    for (size_t r = 0; r < reps; r++) {
        bad |= nsm_proj_dynamics(p->n, p->m, p->M, p->C, p->A, p->Ad, p->f, p->fg, p->qd,
                                 &p->opts, p->qdd, p->fc, &info, NULL, NULL, p->work,
                                 p->lwork) != NSM_OK;
    }
    return bad;
}

/* Form [M Aᵀ; A 0] and [f + f_g − Cq̇; −Ȧq̇], solve with dsysv. */
static int run_kkt(problem *p, size_t reps)
{
    size_t n = p->n, m = p->m, s = n + m;
    int bad = 0;
    for (size_t r = 0; r < reps; r++) {
        for (size_t i = 0; i < n; i++) {
            memcpy(p->K + i * s, p->M + i * n, n * sizeof(double));
            for (size_t j = 0; j < m; j++) {
                p->K[i * s + n + j] = p->A[j * n + i];
            }
            double v = p->f[i] + p->fg[i];
            for (size_t j = 0; j < n; j++) {
                v -= p->C[i * n + j] * p->qd[j];
            }
            p->rhs[i] = v;
        }
        for (size_t i = 0; i < m; i++) {
            memcpy(p->K + (n + i) * s, p->A + i * n, n * sizeof(double));
            memset(p->K + (n + i) * s + n, 0, m * sizeof(double));
            double v = 0.0;
            for (size_t j = 0; j < n; j++) {
                v -= p->Ad[i * n + j] * p->qd[j];
            }
            p->rhs[n + i] = v;
        }
        /* K is symmetric: its row-major lower triangle is the column-major upper one, so the
           column-major interface is used (no transposition buffers). */
        bad |= LAPACKE_dsysv_work(LAPACK_COL_MAJOR, 'U', (lapack_int)s, 1, p->K, (lapack_int)s,
                                  p->ipiv, p->rhs, (lapack_int)s, p->kwork, p->lkwork) != 0;
    }
    return bad;
}

/* The same call with opts.check_spd = 0 (M trusted to be SPD). */
static int run_ours_nospd(problem *p, size_t reps)
{
    p->opts.check_spd = 0;
    int bad = run_ours(p, reps);
    p->opts.check_spd = 1;
    return bad;
}

typedef int (*runner)(problem *, size_t);

/* Microseconds per call: repetitions calibrated to >= 0.2 s, best of 3. */
static double time_us(runner fn, problem *p, int *bad, unsigned long *allocs)
{
    size_t reps = 1;
    for (;;) {
        double t0 = now();
        *bad |= fn(p, reps);
        double dt = now() - t0;
        if (dt >= 0.2) {
            break;
        }
        reps *= (dt < 0.02) ? 10 : 2;
    }
    double best = 1e300;
    for (int k = 0; k < 3; k++) {
        alloc_calls = 0;
        counting = 1;
        double t0 = now();
        *bad |= fn(p, reps);
        double dt = now() - t0;
        counting = 0;
        *allocs += alloc_calls;
        if (dt < best) {
            best = dt;
        }
    }
    return 1e6 * best / (double)reps;
}

static void setup(problem *p, size_t n, size_t m)
{
    p->n = n;
    p->m = m;
    p->M = malloc(n * n * sizeof(double));
    p->C = malloc(n * n * sizeof(double));
    p->A = malloc(m * n * sizeof(double));
    p->Ad = malloc(m * n * sizeof(double));
    p->f = malloc(n * sizeof(double));
    p->fg = malloc(n * sizeof(double));
    p->qd = malloc(n * sizeof(double));
    p->qdd = malloc(n * sizeof(double));
    p->fc = malloc(n * sizeof(double));
    double *G = malloc(n * n * sizeof(double));
    fill(n * n, G, (unsigned)(7 * n + m));
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
            p->M[i * n + j] = p->M[j * n + i] = s;
        }
    }
    free(G);
    fill(n * n, p->C, (unsigned)(11 * n + m));
    fill(m * n, p->A, (unsigned)(13 * n + m));
    fill(m * n, p->Ad, (unsigned)(17 * n + m));
    fill(n, p->f, (unsigned)(19 * n + m));
    fill(n, p->fg, (unsigned)(23 * n + m));
    /* admissible q̇ = P v with P from the library's projector */
    double *v = malloc(n * sizeof(double)), *P = malloc(n * n * sizeof(double));
    double *Q = malloc(n * n * sizeof(double)), *Ap = malloc(n * m * sizeof(double));
    size_t lw = nsm_proj_projector_work(n, m), rank = 0;
    double *w = malloc(lw * sizeof(double));
    fill(n, v, (unsigned)(29 * n + m));
    if (nsm_proj_projector(n, m, p->A, NSM_RANK_RTOL_DEFAULT, &rank, P, Q, Ap, w, lw) != NSM_OK) {
        fprintf(stderr, "bench_projection: projector failed\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        double s = 0.0;
        for (size_t j = 0; j < n; j++) {
            s += P[i * n + j] * v[j];
        }
        p->qd[i] = s;
    }
    free(v);
    free(P);
    free(Q);
    free(Ap);
    free(w);
    p->lwork = nsm_proj_dynamics_work(n, m);
    p->work = malloc(p->lwork * sizeof(double));
    nsm_proj_opts d = NSM_PROJ_OPTS_DEFAULT;
    p->opts = d;
    size_t s = n + m;
    p->K = malloc(s * s * sizeof(double));
    p->rhs = malloc(s * sizeof(double));
    p->ipiv = malloc(s * sizeof(lapack_int));
    double q = 0.0;
    LAPACKE_dsysv_work(LAPACK_COL_MAJOR, 'U', (lapack_int)s, 1, p->K, (lapack_int)s, p->ipiv,
                       p->rhs, (lapack_int)s, &q, -1);
    p->lkwork = (lapack_int)q > 1 ? (lapack_int)q : 1;
    p->kwork = malloc((size_t)p->lkwork * sizeof(double));
}

static void teardown(problem *p)
{
    free(p->M);
    free(p->C);
    free(p->A);
    free(p->Ad);
    free(p->f);
    free(p->fg);
    free(p->qd);
    free(p->qdd);
    free(p->fc);
    free(p->work);
    free(p->K);
    free(p->rhs);
    free(p->ipiv);
    free(p->kwork);
}

int main(void)
{
    const size_t sizes[4][2] = {{7, 3}, {12, 6}, {30, 12}, {60, 24}};
    double ratio[4];
    printf("nsm_proj_dynamics (default options: mu*, SPD check of M) vs LAPACK KKT (dsysv)\n");
    printf("%5s %5s %14s %14s %8s %14s %12s %12s %16s\n", "n", "m", "ours us/call",
           "KKT us/call", "ratio", "ours calls/s", "allocs ours", "allocs KKT",
           "ours, no SPD chk");
    int bad_any = 0;
    for (int s = 0; s < 4; s++) {
        problem p;
        setup(&p, sizes[s][0], sizes[s][1]);
        /* agreement of the two solutions (sanity: the timings compare equal work) */
        int bad = run_ours(&p, 1) | run_kkt(&p, 1);
        double err = 0.0, scale = 0.0;
        for (size_t i = 0; i < p.n; i++) {
            err = fmax(err, fabs(p.qdd[i] - p.rhs[i]));
            scale = fmax(scale, fabs(p.rhs[i]));
        }
        unsigned long a_ours = 0, a_kkt = 0;
        double t_ours = time_us(run_ours, &p, &bad, &a_ours);
        double t_kkt = time_us(run_kkt, &p, &bad, &a_kkt);
        double t_nospd = time_us(run_ours_nospd, &p, &bad, &a_ours);
        ratio[s] = t_ours / t_kkt;
        printf("%5zu %5zu %14.2f %14.2f %8.2f %14.0f %12lu %12lu %16.2f   (max |qdd - "
               "qdd_KKT| / max |qdd_KKT| = %.1e)\n",
               p.n, p.m, t_ours, t_kkt, ratio[s], 1e6 / t_ours, a_ours, a_kkt, t_nospd,
               err / (scale > 0.0 ? scale : 1.0));
        bad_any |= bad;
        teardown(&p);
    }
    for (int s = 0; s < 4; s++) {
        printf("kkt_ratio n=%zu m=%zu %.2f\n", sizes[s][0], sizes[s][1], ratio[s]);
    }
    printf("allocation in the hot loops: counted through interposed malloc/calloc/realloc "
           "(columns 'allocs'; 0 = none)\n");
    if (bad_any) {
        printf("bench_projection: a call returned an error\n");
        return 1;
    }
    return 0;
}
