/*
 * Time per call of the per-cycle dynamics nsm_proj_dynamics (default options: μ = μ*, SPD check
 * of M on) against a LAPACK KKT solve of the same system, [M Aᵀ; A 0][q̈; −λ] = [f + f_g − Cq̇;
 * −Ȧq̇] with dsysv (Bunch–Kaufman; the KKT time includes forming the matrix and right-hand side,
 * workspace preallocated, column-major interface so LAPACKE needs no transposition buffers),
 * and against the null-space route an expert would write with LAPACK: dgeqp3 on Aᵀ, dorgqr
 * for the basis [Y Z], ZᵀMZ by two dgemm, dpotrf/dpotrs, the particular solution through R
 * (dtrsv). Sizes (n, m) in {(7,3), (12,6), (30,12), (60,24), (120,48)}, full-row-rank A,
 * admissible q̇. Then the same sizes with redundant rows (the last quarter of A's rows are
 * sums of two earlier rows, rank 3m/4 rounded up), where dsysv's KKT matrix is singular:
 * against the least-squares route, dgelsd on the KKT system (minimum-norm solution; q̈ is
 * unique). Each timing: repetitions calibrated to >= 0.2 s, best of 3, CLOCK_MONOTONIC.
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
#include <cblas.h>
#include <lapacke.h>
#include "nsmech.h"
#include "alloc_count.h"
#include "proj_data.h"

/* ---- helpers -------------------------------------------------------------------------- */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
    proj_data d;
    /* ours */
    double *qdd, *fc, *work;
    size_t lwork;
    nsm_proj_opts opts;
    /* KKT */
    double *K, *rhs, *kwork;
    lapack_int *ipiv, lkwork;
    /* null-space route (column-major): T n·m (QR of Aᵀ), F n·n ([Y Z]), MZ n·n, R n·n, y n */
    double *T, *F, *MZ, *R, *tau, *y, *y2, *nwork;
    lapack_int *jpvt, lnwork;
    /* least-squares KKT (dgelsd) */
    double *sv, *lwork_ls;
    lapack_int *iwork_ls, llwork_ls;
} problem;

static int run_ours(problem *p, size_t reps)
{
    const proj_data *d = &p->d;
    int bad = 0;
    const nsm_proj_problem prob = proj_data_problem(d);
    nsm_proj_dynamics_result res = {p->qdd, p->fc, NULL, NULL, {0, 0.0}};
    for (size_t r = 0; r < reps; r++) {
        bad |= nsm_proj_dynamics(&prob, &p->opts, &res, p->work, p->lwork) != NSM_OK;
    }
    return bad;
}

/* Form the KKT system and solve it with dsysv. */
static int run_kkt(problem *p, size_t reps)
{
    int bad = 0;
    for (size_t r = 0; r < reps; r++) {
        bad |= proj_kkt_solve(&p->d, p->K, p->rhs, p->ipiv, p->kwork, p->lkwork);
    }
    return bad;
}

/* The expert null-space route for full-row-rank A: Aᵀ P = [Y Z] [R; 0] (dgeqp3, dorgqr),
   q̈ = q_p + Z (ZᵀMZ)⁻¹ Zᵀ (f + f_g − Cq̇ − M q_p), q_p = Y R⁻ᵀ Pᵀ (−Ȧq̇). Column-major
   throughout: row-major A (m×n) is column-major Aᵀ (n×m); M is symmetric. Result in y. */
static int run_nullspace(problem *p, size_t reps)
{
    const proj_data *d = &p->d;
    lapack_int n = (lapack_int)d->n, m = (lapack_int)d->m, k = n - m;
    int bad = 0;
    for (size_t r = 0; r < reps; r++) {
        memcpy(p->T, d->A, d->n * d->m * sizeof(double));
        memset(p->jpvt, 0, d->m * sizeof(lapack_int));
        bad |= LAPACKE_dgeqp3_work(LAPACK_COL_MAJOR, n, m, p->T, n, p->jpvt, p->tau, p->nwork,
                                   p->lnwork) != 0;
        memcpy(p->F, p->T, d->n * d->m * sizeof(double));
        bad |= LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, n, n, m, p->F, n, p->tau, p->nwork,
                                   p->lnwork) != 0;
        const double *Z = p->F + d->n * d->m;
        /* z = Pᵀ(−Ȧq̇), then R⁻ᵀ z, q_p = Y z (in y2) */
        for (size_t i = 0; i < d->m; i++) {
            size_t row = (size_t)p->jpvt[i] - 1u;
            double v = 0.0;
            for (size_t j = 0; j < d->n; j++) {
                v -= d->Ad[row * d->n + j] * d->qd[j];
            }
            p->y[i] = v;
        }
        cblas_dtrsv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, m, p->T, n, p->y, 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, m, 1.0, p->F, n, p->y, 1, 0.0, p->y2, 1);
        /* g = f + f_g − Cq̇ − M q_p (C row-major: Cq̇ is a transposed column-major product) */
        for (size_t i = 0; i < d->n; i++) {
            p->rhs[i] = d->f[i] + d->fg[i];
        }
        cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, -1.0, d->C, n, d->qd, 1, 1.0, p->rhs, 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, -1.0, d->M, n, p->y2, 1, 1.0, p->rhs, 1);
        if (k > 0) {
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, k, n, 1.0, d->M, n, Z, n,
                        0.0, p->MZ, n);
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, k, k, n, 1.0, Z, n, p->MZ, n,
                        0.0, p->R, k);
            bad |= LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', k, p->R, k) != 0;
            cblas_dgemv(CblasColMajor, CblasTrans, n, k, 1.0, Z, n, p->rhs, 1, 0.0, p->y, 1);
            bad |= LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', k, 1, p->R, k, p->y, k) != 0;
            cblas_dgemv(CblasColMajor, CblasNoTrans, n, k, 1.0, Z, n, p->y, 1, 1.0, p->y2, 1);
        }
        memcpy(p->y, p->y2, d->n * sizeof(double));
    }
    return bad;
}

/* The least-squares KKT route: [M Aᵀ; A 0][q̈; −λ] = [f + f_g − Cq̇; −Ȧq̇] by dgelsd (SVD,
   minimum-norm solution), the matrix formed as in run_kkt. Result in rhs. */
static int run_lsq(problem *p, size_t reps)
{
    const proj_data *d = &p->d;
    size_t s = d->n + d->m;
    int bad = 0;
    for (size_t r = 0; r < reps; r++) {
        proj_kkt_form(d, p->K, p->rhs);
        lapack_int rank = 0;
        bad |= LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, (lapack_int)s, (lapack_int)s, 1, p->K,
                                   (lapack_int)s, p->rhs, (lapack_int)s, p->sv, 1e-10, &rank,
                                   p->lwork_ls, p->llwork_ls, p->iwork_ls) != 0;
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

static void setup(problem *p, size_t n, size_t m, int redundant)
{
    proj_data_setup(&p->d, n, m, redundant);
    p->qdd = malloc(n * sizeof(double));
    p->fc = malloc(n * sizeof(double));
    p->lwork = nsm_proj_dynamics_work(n, m);
    p->work = malloc(p->lwork * sizeof(double));
    nsm_proj_opts d = NSM_PROJ_OPTS_DEFAULT;
    p->opts = d;
    size_t s = n + m;
    p->K = malloc(s * s * sizeof(double));
    p->rhs = malloc(s * sizeof(double));
    p->ipiv = malloc(s * sizeof(lapack_int));
    p->lkwork = proj_kkt_lwork(s, p->K, p->rhs, p->ipiv);
    p->kwork = malloc((size_t)p->lkwork * sizeof(double));
    /* null-space route buffers and workspace (max of the dgeqp3 and dorgqr queries) */
    p->T = malloc(n * m * sizeof(double));
    p->F = malloc(n * n * sizeof(double));
    p->MZ = malloc(n * n * sizeof(double));
    p->R = malloc(n * n * sizeof(double));
    p->tau = malloc(n * sizeof(double));
    p->y = malloc(n * sizeof(double));
    p->y2 = malloc(n * sizeof(double));
    p->jpvt = malloc((m > 0 ? m : 1) * sizeof(lapack_int));
    double q1 = 0.0, q2 = 0.0;
    LAPACKE_dgeqp3_work(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)m, p->T, (lapack_int)n,
                        p->jpvt, p->tau, &q1, -1);
    LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)n, (lapack_int)m, p->F,
                        (lapack_int)n, p->tau, &q2, -1);
    p->lnwork = (lapack_int)fmax(fmax(q1, q2), 1.0);
    p->nwork = malloc((size_t)p->lnwork * sizeof(double));
    /* dgelsd workspace */
    p->sv = malloc(s * sizeof(double));
    double q3 = 0.0;
    lapack_int iq = 0, lrank = 0;
    LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, (lapack_int)s, (lapack_int)s, 1, p->K, (lapack_int)s,
                        p->rhs, (lapack_int)s, p->sv, 1e-10, &lrank, &q3, -1, &iq);
    p->llwork_ls = (lapack_int)fmax(q3, 1.0);
    p->lwork_ls = malloc((size_t)p->llwork_ls * sizeof(double));
    p->iwork_ls = malloc((size_t)(iq > 1 ? iq : 1) * sizeof(lapack_int));
}

static void teardown(problem *p)
{
    proj_data_free(&p->d);
    free(p->qdd);
    free(p->fc);
    free(p->work);
    free(p->K);
    free(p->rhs);
    free(p->ipiv);
    free(p->kwork);
    free(p->T);
    free(p->F);
    free(p->MZ);
    free(p->R);
    free(p->tau);
    free(p->y);
    free(p->y2);
    free(p->jpvt);
    free(p->nwork);
    free(p->sv);
    free(p->lwork_ls);
    free(p->iwork_ls);
}

/* max |x − ref| / max |ref| over n entries. */
static double rel_err(size_t n, const double *x, const double *ref)
{
    double err = 0.0, scale = 0.0;
    for (size_t i = 0; i < n; i++) {
        err = fmax(err, fabs(x[i] - ref[i]));
        scale = fmax(scale, fabs(ref[i]));
    }
    return err / (scale > 0.0 ? scale : 1.0);
}

#define NSIZES 5

int main(void)
{
    const size_t sizes[NSIZES][2] = {{7, 3}, {12, 6}, {30, 12}, {60, 24}, {120, 48}};
    double ratio[NSIZES], nratio[NSIZES], rratio[NSIZES];
    int bad_any = 0;
    printf("nsm_proj_dynamics (default options: mu*, SPD check of M) vs LAPACK KKT (dsysv) and "
           "the LAPACK null-space route (dgeqp3, dorgqr, dgemm, dpotrf)\n");
    printf("%5s %5s %12s %12s %8s %12s %8s %12s %8s %8s %8s %14s\n", "n", "m", "ours us",
           "KKT us", "ratio", "nullsp us", "ratio", "no SPD us", "allocs", "KKT", "nullsp",
           "ours calls/s");
    for (int s = 0; s < NSIZES; s++) {
        problem p;
        setup(&p, sizes[s][0], sizes[s][1], 0);
        /* agreement of the solutions (sanity: the timings compare equal work) */
        int bad = run_ours(&p, 1) | run_nullspace(&p, 1) | run_kkt(&p, 1);
        double err_k = rel_err(p.d.n, p.qdd, p.rhs), err_n = rel_err(p.d.n, p.y, p.rhs);
        unsigned long a_ours = 0, a_kkt = 0, a_null = 0;
        double t_ours = time_us(run_ours, &p, &bad, &a_ours);
        double t_kkt = time_us(run_kkt, &p, &bad, &a_kkt);
        double t_null = time_us(run_nullspace, &p, &bad, &a_null);
        double t_nospd = time_us(run_ours_nospd, &p, &bad, &a_ours);
        ratio[s] = t_ours / t_kkt;
        nratio[s] = t_ours / t_null;
        printf("%5zu %5zu %12.2f %12.2f %8.2f %12.2f %8.2f %12.2f %8lu %8lu %8lu %14.0f   "
               "(qdd vs KKT %.1e, null-space vs KKT %.1e)\n",
               p.d.n, p.d.m, t_ours, t_kkt, ratio[s], t_null, nratio[s], t_nospd, a_ours, a_kkt,
               a_null, 1e6 / t_ours, err_k, err_n);
        bad_any |= bad;
        teardown(&p);
    }
    printf("\nredundant rows (rank 3m/4): nsm_proj_dynamics vs least-squares KKT (dgelsd)\n");
    printf("%5s %5s %6s %12s %12s %8s %8s %8s\n", "n", "m", "rank", "ours us", "dgelsd us",
           "ratio", "allocs", "dgelsd");
    for (int s = 0; s < NSIZES; s++) {
        problem p;
        setup(&p, sizes[s][0], sizes[s][1], 1);
        const nsm_proj_problem prob = proj_data_problem(&p.d);
        nsm_proj_dynamics_result res = {p.qdd, p.fc, NULL, NULL, {0, 0.0}};
        int bad = nsm_proj_dynamics(&prob, &p.opts, &res, p.work, p.lwork) != NSM_OK;
        const nsm_proj_info info = res.info;
        bad |= run_lsq(&p, 1);
        double err = rel_err(p.d.n, p.qdd, p.rhs);
        unsigned long a_ours = 0, a_ls = 0;
        double t_ours = time_us(run_ours, &p, &bad, &a_ours);
        double t_ls = time_us(run_lsq, &p, &bad, &a_ls);
        rratio[s] = t_ours / t_ls;
        printf("%5zu %5zu %6zu %12.2f %12.2f %8.2f %8lu %8lu   (qdd vs dgelsd %.1e)\n", p.d.n,
               p.d.m, info.rank, t_ours, t_ls, rratio[s], a_ours, a_ls, err);
        bad_any |= bad;
        teardown(&p);
    }
    for (int s = 0; s < NSIZES; s++) {
        printf("kkt_ratio n=%zu m=%zu %.2f\n", sizes[s][0], sizes[s][1], ratio[s]);
    }
    for (int s = 0; s < NSIZES; s++) {
        printf("nullspace_ratio n=%zu m=%zu %.2f\n", sizes[s][0], sizes[s][1], nratio[s]);
    }
    for (int s = 0; s < NSIZES; s++) {
        printf("redundant_ratio n=%zu m=%zu %.2f\n", sizes[s][0], sizes[s][1], rratio[s]);
    }
    printf("allocation in the hot loops: counted through interposed malloc/calloc/realloc "
           "(columns 'allocs'; 0 = none)\n");
    if (bad_any) {
        printf("bench_projection: a call returned an error\n");
        return 1;
    }
    return 0;
}
