/*
 * Tests of the linalg module. Oracles: LAPACKE (dgesvd, dgeqp3 + dorgqr, dpotrf, dposv) and the
 * plain-loop products of tests/support/prop.h; never the library's own output.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include "harness.h"
#include "prop.h"
#include "sweep.h"
#include "nsmech.h"
#include "../src/linalg/internal.h"

#define EPS DBL_EPSILON
#define CASES 500u
#define ERR_WORK 64 /* workspace of test_errors_svd_write_nothing, above every query it makes */

/* ---------------------------------------------------------------------------------------- */
/* helpers                                                                                  */
/* ---------------------------------------------------------------------------------------- */

static double *dalloc(size_t n)
{
    double *p = calloc(n > 0 ? n : 1, sizeof *p);
    if (p == NULL) {
        abort();
    }
    return p;
}

/* log-uniform in [1, cmax] */
static double rand_cond(nsm_rng *r, double cmax)
{
    return pow(cmax, nsm_rng_uniform(r));
}

/* Singular values by LAPACK (descending), p = min(m, n) entries. Returns 0 on success. */
static int oracle_sv(size_t m, size_t n, const double *A, double *s)
{
    size_t p = m < n ? m : n;
    if (p == 0) {
        return 0;
    }
    double *a = dalloc(m * n);
    double *superb = dalloc(p);
    memcpy(a, A, m * n * sizeof *a);
    lapack_int info = LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'N', (lapack_int)m, (lapack_int)n, a,
                                     (lapack_int)n, s, NULL, 1, NULL, 1, superb);
    free(superb);
    free(a);
    return (int)info;
}

/* Pseudo-inverse (n×m) by LAPACK dgesvd with rank tolerance rtol; *rank receives the rank. */
static int oracle_pinv(size_t m, size_t n, const double *A, double rtol, double *X, size_t *rank)
{
    size_t p = m < n ? m : n;
    memset(X, 0, n * m * sizeof *X);
    *rank = 0;
    if (p == 0) {
        return 0;
    }
    double *a = dalloc(m * n), *s = dalloc(p), *u = dalloc(m * p), *vt = dalloc(p * n);
    double *superb = dalloc(p);
    memcpy(a, A, m * n * sizeof *a);
    lapack_int info = LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'S', 'S', (lapack_int)m, (lapack_int)n, a,
                                     (lapack_int)n, s, u, (lapack_int)p, vt, (lapack_int)n, superb);
    size_t r = 0;
    if (info == 0 && s[0] > 0.0) {
        while (r < p && s[r] > rtol * s[0]) {
            r++;
        }
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < m; j++) {
            long double acc = 0.0L;
            for (size_t k = 0; k < r; k++) {
                acc += (long double)vt[k * n + i] * u[j * p + k] / s[k];
            }
            X[i * m + j] = (double)acc;
        }
    }
    *rank = r;
    free(superb); free(vt); free(u); free(s); free(a);
    return (int)info;
}

/* max |Mᵀ M − I| for an m×k matrix M (columns), restricted to columns with keep[j] != 0. */
static double orth_defect(size_t m, size_t k, const double *M, const int *keep)
{
    double worst = 0.0;
    for (size_t a = 0; a < k; a++) {
        for (size_t b = 0; b <= a; b++) {
            if (keep != NULL && (!keep[a] || !keep[b])) {
                continue;
            }
            long double d = 0.0L;
            for (size_t i = 0; i < m; i++) {
                d += (long double)M[i * k + a] * M[i * k + b];
            }
            double e = fabs((double)d - (a == b ? 1.0 : 0.0));
            if (e > worst) {
                worst = e;
            }
        }
    }
    return worst;
}

/* C = alpha·P + beta·C0 elementwise (the BLAS update, oracle side). */
static void axpby(size_t len, double alpha, const double *P, double beta, const double *C0,
                  double *C)
{
    for (size_t i = 0; i < len; i++) {
        C[i] = alpha * P[i] + (beta == 0.0 ? 0.0 : beta * C0[i]);
    }
}

/* op(M) as a plain matrix: M is stored r×c; returns r×c (no trans) or c×r (trans). */
static void op_copy(nsm_trans t, size_t r, size_t c, const double *M, double *out)
{
    if (t == NSM_TRANS) {
        tm_transpose(r, c, M, out);
    } else if (r * c > 0) {
        memcpy(out, M, r * c * sizeof *out);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* products                                                                                 */
/* ---------------------------------------------------------------------------------------- */

static int prop_gemm(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t m = nsm_rng_index(rng, 0, 9), n = nsm_rng_index(rng, 0, 9), k = nsm_rng_index(rng, 0, 9);
    nsm_trans ta = nsm_rng_index(rng, 0, 1) ? NSM_TRANS : NSM_NO_TRANS;
    nsm_trans tb = nsm_rng_index(rng, 0, 1) ? NSM_TRANS : NSM_NO_TRANS;
    double alpha = nsm_rng_range(rng, -2, 2);
    double beta = nsm_rng_index(rng, 0, 3) == 0 ? 0.0 : nsm_rng_range(rng, -2, 2);
    double *A = dalloc(m * k), *B = dalloc(k * n), *C = dalloc(m * n), *C0 = dalloc(m * n);
    double *oA = dalloc(m * k), *oB = dalloc(k * n), *P = dalloc(m * n), *R = dalloc(m * n);
    prop_vector(rng, m * k, A);
    prop_vector(rng, k * n, B);
    prop_vector(rng, m * n, C0);
    if (beta == 0.0 && m * n > 0) {
        C0[0] = NAN; /* beta = 0: C is overwritten, never read */
    }
    memcpy(C, C0, m * n * sizeof *C);
    /* stored shapes: A is m×k or k×m, B is k×n or n×k */
    op_copy(ta, ta == NSM_TRANS ? k : m, ta == NSM_TRANS ? m : k, A, oA);
    op_copy(tb, tb == NSM_TRANS ? n : k, tb == NSM_TRANS ? k : n, B, oB);
    tm_matmul(m, n, k, oA, oB, P);
    axpby(m * n, alpha, P, beta, C0, R);
    nsm_status st = nsm_gemm(ta, tb, m, n, k, alpha, A, B, beta, C);
    int fail = 0;
    double err = tm_maxabs_diff(m * n, C, R);
    if (st != NSM_OK) {
        snprintf(msg, len, "status %d", (int)st);
        fail = 1;
    } else if (!(err <= 1e-14 * (double)(k + 4) * (1.0 + tm_maxabs(m * n, R)))) {
        snprintf(msg, len, "m=%zu n=%zu k=%zu ta=%d tb=%d err=%g", m, n, k, ta, tb, err);
        fail = 1;
    }
    free(A); free(B); free(C); free(C0); free(oA); free(oB); free(P); free(R);
    return fail;
}

static int prop_gemv(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t m = nsm_rng_index(rng, 0, 9), n = nsm_rng_index(rng, 0, 9);
    nsm_trans ta = nsm_rng_index(rng, 0, 1) ? NSM_TRANS : NSM_NO_TRANS;
    size_t lx = ta == NSM_TRANS ? m : n, ly = ta == NSM_TRANS ? n : m;
    double alpha = nsm_rng_range(rng, -2, 2);
    double beta = nsm_rng_index(rng, 0, 3) == 0 ? 0.0 : nsm_rng_range(rng, -2, 2);
    double *A = dalloc(m * n), *x = dalloc(lx), *y = dalloc(ly), *y0 = dalloc(ly);
    double *oA = dalloc(m * n), *P = dalloc(ly), *R = dalloc(ly);
    prop_vector(rng, m * n, A);
    prop_vector(rng, lx, x);
    prop_vector(rng, ly, y0);
    if (beta == 0.0 && ly > 0) {
        y0[0] = INFINITY;
    }
    memcpy(y, y0, ly * sizeof *y);
    op_copy(ta, m, n, A, oA);
    tm_matmul(ly, 1, lx, oA, x, P);
    axpby(ly, alpha, P, beta, y0, R);
    nsm_status st = nsm_gemv(ta, m, n, alpha, A, x, beta, y);
    int fail = 0;
    double err = tm_maxabs_diff(ly, y, R);
    if (st != NSM_OK) {
        snprintf(msg, len, "status %d", (int)st);
        fail = 1;
    } else if (!(err <= 1e-14 * (double)(lx + 4) * (1.0 + tm_maxabs(ly, R)))) {
        snprintf(msg, len, "m=%zu n=%zu ta=%d err=%g", m, n, ta, err);
        fail = 1;
    }
    free(A); free(x); free(y); free(y0); free(oA); free(P); free(R);
    return fail;
}

static int prop_syrk(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t n = nsm_rng_index(rng, 0, 9), k = nsm_rng_index(rng, 0, 9);
    nsm_trans ta = nsm_rng_index(rng, 0, 1) ? NSM_TRANS : NSM_NO_TRANS;
    double alpha = nsm_rng_range(rng, -2, 2);
    double beta = nsm_rng_index(rng, 0, 3) == 0 ? 0.0 : nsm_rng_range(rng, -2, 2);
    double *A = dalloc(n * k), *C = dalloc(n * n), *C0 = dalloc(n * n), *oA = dalloc(n * k);
    double *P = dalloc(n * n), *R = dalloc(n * n);
    prop_vector(rng, n * k, A);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j <= i; j++) {
            C0[i * n + j] = C0[j * n + i] = nsm_rng_normal(rng);
        }
    }
    memcpy(C, C0, n * n * sizeof *C);
    op_copy(ta, ta == NSM_TRANS ? k : n, ta == NSM_TRANS ? n : k, A, oA); /* oA is n×k */
    tm_matmul_nt(n, n, k, oA, oA, P);
    axpby(n * n, alpha, P, beta, C0, R);
    nsm_status st = nsm_syrk(ta, n, k, alpha, A, beta, C);
    int fail = 0;
    double err = tm_maxabs_diff(n * n, C, R);
    int sym = 1;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            if (C[i * n + j] != C[j * n + i]) {
                sym = 0;
            }
        }
    }
    if (st != NSM_OK) {
        snprintf(msg, len, "status %d", (int)st);
        fail = 1;
    } else if (!sym) {
        snprintf(msg, len, "result not exactly symmetric");
        fail = 1;
    } else if (!(err <= 1e-14 * (double)(k + 4) * (1.0 + tm_maxabs(n * n, R)))) {
        snprintf(msg, len, "n=%zu k=%zu ta=%d err=%g", n, k, ta, err);
        fail = 1;
    }
    free(A); free(C); free(C0); free(oA); free(P); free(R);
    return fail;
}

static void test_products(void)
{
    CU_ASSERT_EQUAL(prop_run("gemm vs plain loops", prop_gemm, NULL, CASES), prop_cases(CASES));
    CU_ASSERT_EQUAL(prop_run("gemv vs plain loops", prop_gemv, NULL, CASES), prop_cases(CASES));
    CU_ASSERT_EQUAL(prop_run("syrk vs plain loops", prop_syrk, NULL, CASES), prop_cases(CASES));
}

/* ---------------------------------------------------------------------------------------- */
/* Cholesky                                                                                 */
/* ---------------------------------------------------------------------------------------- */

static int prop_chol(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t n = nsm_rng_index(rng, 1, 16), nrhs = nsm_rng_index(rng, 1, 4);
    double cond = rand_cond(rng, 1e10);
    double scale = pow(10.0, nsm_rng_range(rng, -3, 3));
    double *A = dalloc(n * n), *L = dalloc(n * n), *Lref = dalloc(n * n);
    double *B = dalloc(n * nrhs), *X = dalloc(n * nrhs), *Xref = dalloc(n * nrhs);
    double *Aref = dalloc(n * n), *AX = dalloc(n * nrhs);
    prop_spd(rng, n, cond, scale, A);
    /* garbage in the strict upper triangle: only the lower one may be read */
    memcpy(L, A, n * n * sizeof *L);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
            L[i * n + j] = 1e300;
        }
    }
    memcpy(Lref, A, n * n * sizeof *Lref);
    prop_vector(rng, n * nrhs, B);
    memcpy(X, B, n * nrhs * sizeof *X);
    memcpy(Xref, B, n * nrhs * sizeof *X);
    memcpy(Aref, A, n * n * sizeof *A);
    lapack_int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, Lref, (lapack_int)n);
    lapack_int info2 = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, (lapack_int)nrhs, Aref,
                                     (lapack_int)n, Xref, (lapack_int)nrhs);
    nsm_status st = nsm_chol_factor(n, L);
    nsm_status st2 = (st == NSM_OK) ? nsm_chol_solve(n, nrhs, L, X) : st;
    int fail = 0;
    if (info != 0 || info2 != 0) {
        snprintf(msg, len, "oracle failed: dpotrf %d dposv %d", (int)info, (int)info2);
        fail = 1;
        goto out;
    }
    if (st != NSM_OK || st2 != NSM_OK) {
        snprintf(msg, len, "n=%zu cond=%g status %d/%d", n, cond, (int)st, (int)st2);
        fail = 1;
        goto out;
    }
    double lmax = 0.0, err = 0.0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            if (j > i) {
                if (L[i * n + j] != 0.0) {
                    snprintf(msg, len, "upper triangle not zero at (%zu,%zu)", i, j);
                    fail = 1;
                    goto out;
                }
                continue;
            }
            lmax = fmax(lmax, fabs(Lref[i * n + j]));
            err = fmax(err, fabs(L[i * n + j] - Lref[i * n + j]));
        }
    }
    /* forward error of the factor: O(n·eps·cond) relative to max|L| */
    if (!(err <= 10.0 * (double)n * EPS * cond * lmax)) {
        snprintf(msg, len, "n=%zu cond=%g factor err %g (max|L| %g)", n, cond, err, lmax);
        fail = 1;
        goto out;
    }
    /* backward-stable solve: residual small relative to ‖A‖‖X‖ */
    tm_matmul(n, nrhs, n, A, X, AX);
    double res = tm_maxabs_diff(n * nrhs, AX, B);
    double amax = tm_maxabs(n * n, A), xmax = tm_maxabs(n * nrhs, X);
    if (!(res <= 10.0 * (double)(n * n) * EPS * amax * xmax)) {
        snprintf(msg, len, "n=%zu cond=%g residual %g", n, cond, res);
        fail = 1;
        goto out;
    }
    double xerr = tm_maxabs_diff(n * nrhs, X, Xref);
    if (!(xerr <= 10.0 * (double)n * EPS * cond * tm_maxabs(n * nrhs, Xref))) {
        snprintf(msg, len, "n=%zu cond=%g solution differs from dposv by %g", n, cond, xerr);
        fail = 1;
    }
out:
    free(A); free(L); free(Lref); free(B); free(X); free(Xref); free(Aref); free(AX);
    return fail;
}

/* Indefinite (a clearly negative eigenvalue) or semidefinite (a zero row and column). */
static int prop_chol_reject(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t n = nsm_rng_index(rng, 1, 12);
    double *A = dalloc(n * n), *Q = dalloc(n * n), *Lref = dalloc(n * n);
    int semidef = (int)nsm_rng_index(rng, 0, 1);
    if (semidef) {
        prop_spd(rng, n, rand_cond(rng, 1e6), 1.0, A);
        size_t z = nsm_rng_index(rng, 0, n - 1);
        for (size_t i = 0; i < n; i++) {
            A[z * n + i] = 0.0;
            A[i * n + z] = 0.0;
        }
    } else {
        prop_orthogonal(rng, n, Q);
        /* eigenvalues 1, 2, ..., n except one in [-1, -0.05] */
        size_t neg = nsm_rng_index(rng, 0, n - 1);
        double lneg = -nsm_rng_range(rng, 0.05, 1.0);
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j <= i; j++) {
                double s = 0.0;
                for (size_t k = 0; k < n; k++) {
                    double lam = (k == neg) ? lneg : 1.0 + (double)k;
                    s += Q[i * n + k] * lam * Q[j * n + k];
                }
                A[i * n + j] = A[j * n + i] = s;
            }
        }
    }
    memcpy(Lref, A, n * n * sizeof *A);
    lapack_int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, Lref, (lapack_int)n);
    nsm_status st = nsm_chol_factor(n, A);
    int fail = 0;
    if (info <= 0) {
        snprintf(msg, len, "oracle dpotrf accepted the matrix (info %d)", (int)info);
        fail = 1;
    } else if (st != NSM_ERR_NOT_SPD) {
        snprintf(msg, len, "n=%zu %s: status %d, expected NSM_ERR_NOT_SPD", n,
                 semidef ? "semidefinite" : "indefinite", (int)st);
        fail = 1;
    }
    free(A); free(Q); free(Lref);
    return fail;
}

static void test_chol(void)
{
    CU_ASSERT_EQUAL(prop_run("chol vs dpotrf/dposv", prop_chol, NULL, CASES), prop_cases(CASES));
    CU_ASSERT_EQUAL(prop_run("chol rejects non-SPD like dpotrf", prop_chol_reject, NULL, CASES),
                    prop_cases(CASES));
    /* n = 0: nothing to do */
    CU_ASSERT_EQUAL(nsm_chol_factor(0, NULL), NSM_OK);
    CU_ASSERT_EQUAL(nsm_chol_solve(0, 3, NULL, NULL), NSM_OK);
    /* 2×2 closed form: [4 2; 2 5] = L Lᵀ with L = [2 0; 1 2] */
    double A[4] = {4, 99, 2, 5};
    CU_ASSERT_EQUAL(nsm_chol_factor(2, A), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(A[0], 2.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(A[1], 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(A[2], 1.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(A[3], 2.0, 0.0);
    double b[2] = {8, 9}; /* [4 2; 2 5] x = [8 9] → x = (1.375, 1.25) */
    CU_ASSERT_EQUAL(nsm_chol_solve(2, 1, A, b), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(b[0], 1.375, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(b[1], 1.25, 1e-15);
}

/* ---------------------------------------------------------------------------------------- */
/* SVD                                                                                      */
/* ---------------------------------------------------------------------------------------- */

/* Random shape (wide and tall, sometimes empty), rank and condition number. */
static void rand_problem(nsm_rng *rng, size_t maxdim, double cmax, size_t *m, size_t *n,
                         size_t *r, double *cond)
{
    *m = nsm_rng_index(rng, 0, maxdim);
    *n = nsm_rng_index(rng, 1, maxdim);
    if (nsm_rng_index(rng, 0, 1)) {
        size_t t = *m; /* swap: tall or wide with equal chance */
        *m = *n;
        *n = t;
    }
    size_t p = *m < *n ? *m : *n;
    *r = nsm_rng_index(rng, 0, 3) == 0 ? p : nsm_rng_index(rng, 0, p);
    *cond = rand_cond(rng, cmax);
}

static int prop_svd(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t m, n, r;
    double cond;
    /* mostly small (robot-sized) problems, one in ten up to 40 */
    rand_problem(rng, nsm_rng_index(rng, 0, 9) == 0 ? 40 : 14, 1e10, &m, &n, &r, &cond);
    size_t p = m < n ? m : n;
    double scale = pow(10.0, nsm_rng_range(rng, -100, 100));
    double *A = dalloc(m * n), *s = dalloc(p), *sref = dalloc(p), *U = dalloc(m * p);
    double *V = dalloc(n * p), *US = dalloc(m * p), *Rc = dalloc(m * n);
    size_t lw = nsm_svd_work(m, n);
    double *work = dalloc(lw);
    int *keepU = calloc(p + 1, sizeof *keepU);
    prop_rank(rng, m, n, r, cond, A);
    for (size_t i = 0; i < m * n; i++) {
        A[i] *= scale;
    }
    int fail = 0;
    nsm_status st = nsm_svd(m, n, A, s, U, V, work, lw);
    if (st != NSM_OK) {
        snprintf(msg, len, "m=%zu n=%zu r=%zu cond=%g status %d", m, n, r, cond, (int)st);
        fail = 1;
        goto out;
    }
    if (p == 0) {
        goto out;
    }
    if (oracle_sv(m, n, A, sref) != 0) {
        snprintf(msg, len, "oracle dgesvd failed");
        fail = 1;
        goto out;
    }
    /* dgesvd is accurate to O(eps)·s_1 in absolute terms: a relative error of
       O(eps)·s_1/s_i, i.e. scaled by the condition number of each value. */
    double tol = 50.0 * (double)(m + n) * EPS * sref[0];
    for (size_t i = 0; i < p; i++) {
        if (i > 0 && s[i] > s[i - 1]) {
            snprintf(msg, len, "not descending at %zu", i);
            fail = 1;
            goto out;
        }
        if (!(s[i] >= 0.0) || !(fabs(s[i] - sref[i]) <= tol)) {
            snprintf(msg, len, "m=%zu n=%zu r=%zu cond=%g s[%zu]=%.17g ref %.17g", m, n, r, cond,
                     i, s[i], sref[i]);
            fail = 1;
            goto out;
        }
    }
    /* generator's spectrum: rank r, s_1 = scale, s_r = scale/cond */
    if (r > 0 && !(fabs(s[0] - scale) <= 1e-12 * scale)) {
        snprintf(msg, len, "s_1=%g, generator chose %g", s[0], scale);
        fail = 1;
        goto out;
    }
    /* orthonormality: short side always, long side for s_j > 0 */
    for (size_t j = 0; j < p; j++) {
        keepU[j] = s[j] > 0.0;
    }
    double du = orth_defect(m, p, U, m >= n ? keepU : NULL);
    double dv = orth_defect(n, p, V, m >= n ? NULL : keepU);
    double otol = 100.0 * (double)(m + n) * EPS;
    if (!(du <= otol) || !(dv <= otol)) {
        snprintf(msg, len, "m=%zu n=%zu r=%zu cond=%g orthonormality U %g V %g", m, n, r, cond,
                 du, dv);
        fail = 1;
        goto out;
    }
    /* reconstruction A = U diag(s) Vᵀ */
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < p; j++) {
            US[i * p + j] = U[i * p + j] * s[j];
        }
    }
    tm_matmul_nt(m, n, p, US, V, Rc);
    double rerr = tm_maxabs_diff(m * n, Rc, A);
    if (!(rerr <= 50.0 * (double)(m + n) * EPS * sref[0])) {
        snprintf(msg, len, "m=%zu n=%zu r=%zu reconstruction error %g (s_1 %g)", m, n, r, rerr,
                 sref[0]);
        fail = 1;
    }
out:
    free(A); free(s); free(sref); free(U); free(V); free(US); free(Rc); free(work); free(keepU);
    return fail;
}

static void test_svd(void)
{
    CU_ASSERT_EQUAL(prop_run("svd vs dgesvd, reconstruction, orthonormality", prop_svd, NULL,
                             CASES), prop_cases(CASES));
    /* zero matrix: s = 0, long side zero, short side orthonormal */
    double Z[6] = {0}, s[2], U[6], V[4], work[16];
    CU_ASSERT_EQUAL(nsm_svd_work(3, 2), 2u * 6u);
    CU_ASSERT_EQUAL(nsm_svd(3, 2, Z, s, U, V, work, 16), NSM_OK);
    CU_ASSERT_EQUAL(s[0], 0.0);
    CU_ASSERT_EQUAL(s[1], 0.0);
    CU_ASSERT_EQUAL(tm_maxabs(6, U), 0.0);
    CU_ASSERT(orth_defect(2, 2, V, NULL) == 0.0);
    /* closed form: diag(3, -5) has s = (5, 3) */
    double D[4] = {3, 0, 0, -5};
    CU_ASSERT_EQUAL(nsm_svd(2, 2, D, s, NULL, NULL, work, 16), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(s[0], 5.0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(s[1], 3.0, 1e-15);
    /* m = 0 or n = 0: nothing to do, p = 0 */
    CU_ASSERT_EQUAL(nsm_svd_work(0, 5), 0u);
    CU_ASSERT_EQUAL(nsm_svd(0, 5, NULL, NULL, NULL, NULL, NULL, 0), NSM_OK);
    CU_ASSERT_EQUAL(nsm_svd(4, 0, NULL, NULL, NULL, NULL, NULL, 0), NSM_OK);
    /* huge and tiny entries: scaling keeps the sums of squares finite */
    double Big[4] = {1e300, 1e300, 0, 1e300};
    CU_ASSERT_EQUAL(nsm_svd(2, 2, Big, s, NULL, NULL, work, 16), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(s[0] / 1e300, (1.0 + sqrt(5.0)) / 2.0, 1e-14);
    CU_ASSERT_DOUBLE_EQUAL(s[1] / 1e300, (sqrt(5.0) - 1.0) / 2.0, 1e-14);
    /* s_1 beyond DBL_MAX is refused, not returned as Inf */
    double Huge[4] = {DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX};
    CU_ASSERT_EQUAL(nsm_svd(2, 2, Huge, s, NULL, NULL, work, 16), NSM_ERR_NOT_FINITE);
}

/* ---------------------------------------------------------------------------------------- */
/* rank, bases, pseudo-inverse                                                              */
/* ---------------------------------------------------------------------------------------- */

/* Null-space projector I − Q_r Q_rᵀ from LAPACK's pivoted QR of Aᵀ (n×m), r given. */
static int oracle_null_proj(size_t m, size_t n, const double *A, size_t r, double *P)
{
    tm_identity(n, P);
    if (m == 0 || r == 0) {
        return 0;
    }
    size_t ld = m > n ? m : n;
    double *Q = dalloc(n * ld), *tau = dalloc(n < m ? n : m);
    lapack_int *jpvt = calloc(m, sizeof *jpvt);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < m; j++) {
            Q[i * ld + j] = A[j * n + i];
        }
    }
    lapack_int info = LAPACKE_dgeqp3(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)m, Q,
                                     (lapack_int)ld, jpvt, tau);
    if (info == 0) {
        info = LAPACKE_dorgqr(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)n,
                              (lapack_int)(n < m ? n : m), Q, (lapack_int)ld, tau);
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            long double acc = 0.0L;
            for (size_t k = 0; k < r; k++) {
                acc += (long double)Q[i * ld + k] * Q[j * ld + k];
            }
            P[i * n + j] -= (double)acc;
        }
    }
    free(jpvt); free(tau); free(Q);
    return (int)info;
}

static int prop_range_null(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t m, n, r;
    double cond;
    /* cond <= 1e6 keeps the rank decision at rtol = 1e-10 unambiguous */
    rand_problem(rng, 12, 1e6, &m, &n, &r, &cond);
    size_t p = m < n ? m : n;
    double rtol = NSM_RANK_RTOL_DEFAULT;
    double *A = dalloc(m * n), *basis = dalloc(n * n), *sv = dalloc(p), *sref = dalloc(p);
    double *Pn = dalloc(n * n), *Pref = dalloc(n * n), *AN = dalloc(m * n);
    size_t lw = nsm_range_null_work(m, n);
    double *work = dalloc(lw);
    prop_rank(rng, m, n, r, cond, A);
    size_t rank = 999, rref = 0, rsv = 999;
    int fail = 0;
    nsm_status st = nsm_range_null(m, n, A, rtol, &rank, sv, basis, work, lw);
    if (st != NSM_OK) {
        snprintf(msg, len, "m=%zu n=%zu r=%zu status %d", m, n, r, (int)st);
        fail = 1;
        goto out;
    }
    if (oracle_sv(m, n, A, sref) != 0) {
        snprintf(msg, len, "oracle dgesvd failed");
        fail = 1;
        goto out;
    }
    if (p > 0 && sref[0] > 0.0) {
        while (rref < p && sref[rref] > rtol * sref[0]) {
            rref++;
        }
    }
    if (rank != r || rank != rref) {
        snprintf(msg, len, "m=%zu n=%zu rank %zu, generator %zu, dgesvd %zu", m, n, rank, r, rref);
        fail = 1;
        goto out;
    }
    if (nsm_rank_from_sv(p, sv, rtol, &rsv) != NSM_OK || rsv != rank) {
        snprintf(msg, len, "rank_from_sv(sv) = %zu, range_null %zu", rsv, rank);
        fail = 1;
        goto out;
    }
    double od = orth_defect(n, n, basis, NULL);
    if (!(od <= 100.0 * (double)(m + n) * EPS)) {
        snprintf(msg, len, "m=%zu n=%zu basis not orthogonal: %g", m, n, od);
        fail = 1;
        goto out;
    }
    /* null-space columns are annihilated by A (‖A‖₂ = 1 for the generator) */
    for (size_t i = 0; i < m; i++) {
        for (size_t c = rank; c < n; c++) {
            long double acc = 0.0L;
            for (size_t k = 0; k < n; k++) {
                acc += (long double)A[i * n + k] * basis[k * n + c];
            }
            AN[i * n + c] = (double)acc;
        }
    }
    double an = tm_maxabs(m * n, AN);
    if (!(an <= 100.0 * (double)(m + n) * EPS)) {
        snprintf(msg, len, "m=%zu n=%zu r=%zu max|A N| = %g", m, n, r, an);
        fail = 1;
        goto out;
    }
    /* projector onto N(A) vs pivoted QR (dgeqp3 + dorgqr) */
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            long double acc = 0.0L;
            for (size_t c = rank; c < n; c++) {
                acc += (long double)basis[i * n + c] * basis[j * n + c];
            }
            Pn[i * n + j] = (double)acc;
        }
    }
    if (oracle_null_proj(m, n, A, rref, Pref) != 0) {
        snprintf(msg, len, "oracle dgeqp3/dorgqr failed");
        fail = 1;
        goto out;
    }
    double perr = tm_maxabs_diff(n * n, Pn, Pref);
    if (!(perr <= 100.0 * (double)(m + n) * EPS * cond)) {
        snprintf(msg, len, "m=%zu n=%zu r=%zu cond=%g projector differs by %g", m, n, r, cond,
                 perr);
        fail = 1;
    }
out:
    free(A); free(basis); free(sv); free(sref); free(Pn); free(Pref); free(AN); free(work);
    return fail;
}

static int prop_pinv(nsm_rng *rng, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t m, n, r;
    double cond;
    rand_problem(rng, 12, 1e6, &m, &n, &r, &cond);
    double rtol = NSM_RANK_RTOL_DEFAULT;
    double scale = pow(10.0, nsm_rng_range(rng, -5, 5));
    double *A = dalloc(m * n), *X = dalloc(n * m), *Xref = dalloc(n * m);
    double *AX = dalloc(m * m), *XA = dalloc(n * n), *T1 = dalloc(m * n), *T2 = dalloc(n * m);
    size_t lw = nsm_pinv_work(m, n);
    double *work = dalloc(lw);
    prop_rank(rng, m, n, r, cond, A);
    for (size_t i = 0; i < m * n; i++) {
        A[i] *= scale;
    }
    size_t rank = 999, rref = 0;
    int fail = 0;
    nsm_status st = nsm_pinv(m, n, A, rtol, &rank, X, work, lw);
    if (st != NSM_OK) {
        snprintf(msg, len, "m=%zu n=%zu r=%zu status %d", m, n, r, (int)st);
        fail = 1;
        goto out;
    }
    if (oracle_pinv(m, n, A, rtol, Xref, &rref) != 0) {
        snprintf(msg, len, "oracle dgesvd failed");
        fail = 1;
        goto out;
    }
    if (rank != rref || rank != r) {
        snprintf(msg, len, "m=%zu n=%zu rank %zu, dgesvd %zu, generator %zu", m, n, rank, rref, r);
        fail = 1;
        goto out;
    }
    double xmax = tm_maxabs(n * m, Xref);
    double k = 100.0 * (double)(m + n) * EPS * cond; /* relative error scale */
    double xerr = tm_maxabs_diff(n * m, X, Xref);
    if (!(xerr <= k * xmax)) {
        snprintf(msg, len, "m=%zu n=%zu r=%zu cond=%g |X - Xref| %g (max %g)", m, n, r, cond,
                 xerr, xmax);
        fail = 1;
        goto out;
    }
    /* Penrose conditions: A X A = A, X A X = X, (A X)ᵀ = A X, (X A)ᵀ = X A */
    tm_matmul(m, m, n, A, X, AX);
    tm_matmul(n, n, m, X, A, XA);
    tm_matmul(m, n, m, AX, A, T1);
    tm_matmul(n, m, n, XA, X, T2);
    double amax = tm_maxabs(m * n, A);
    double e1 = tm_maxabs_diff(m * n, T1, A) / (amax > 0 ? amax : 1);
    double e2 = tm_maxabs_diff(n * m, T2, X) / (xmax > 0 ? xmax : 1);
    double e3 = 0.0, e4 = 0.0;
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < m; j++) {
            e3 = fmax(e3, fabs(AX[i * m + j] - AX[j * m + i]));
        }
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            e4 = fmax(e4, fabs(XA[i * n + j] - XA[j * n + i]));
        }
    }
    if (!(e1 <= k) || !(e2 <= k) || !(e3 <= k) || !(e4 <= k)) {
        snprintf(msg, len, "m=%zu n=%zu r=%zu cond=%g Penrose %g %g %g %g (tol %g)", m, n, r, cond,
                 e1, e2, e3, e4, k);
        fail = 1;
    }
out:
    free(A); free(X); free(Xref); free(AX); free(XA); free(T1); free(T2); free(work);
    return fail;
}

static void test_bases(void)
{
    CU_ASSERT_EQUAL(prop_run("range_null vs dgesvd rank and dgeqp3 projector", prop_range_null,
                             NULL, CASES), prop_cases(CASES));
    CU_ASSERT_EQUAL(prop_run("pinv vs dgesvd and Penrose conditions", prop_pinv, NULL, CASES),
                    prop_cases(CASES));
    /* m = 0: identity basis, rank 0 */
    double basis[9], work[64];
    size_t rank = 7;
    CU_ASSERT_EQUAL(nsm_range_null_work(0, 3), 0u);
    CU_ASSERT_EQUAL(nsm_range_null(0, 3, NULL, 1e-10, &rank, NULL, basis, NULL, 0), NSM_OK);
    CU_ASSERT_EQUAL(rank, 0u);
    double Id[9];
    tm_identity(3, Id);
    CU_ASSERT_EQUAL(tm_maxabs_diff(9, basis, Id), 0.0);
    /* zero matrix: rank 0, orthogonal basis, pinv zero */
    double Z[6] = {0}, X[6] = {1, 1, 1, 1, 1, 1}, sv[2];
    CU_ASSERT(nsm_range_null_work(2, 3) <= 64u);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, Z, 1e-10, &rank, sv, basis, work, 64), NSM_OK);
    CU_ASSERT_EQUAL(rank, 0u);
    CU_ASSERT(orth_defect(3, 3, basis, NULL) < 1e-15);
    CU_ASSERT_EQUAL(nsm_pinv(2, 3, Z, 1e-10, &rank, X, work, 64), NSM_OK);
    CU_ASSERT_EQUAL(rank, 0u);
    CU_ASSERT_EQUAL(tm_maxabs(6, X), 0.0);
    /* closed form: A = [1 1] (1×2): row space e=(1,1)/√2, pinv = (1/2, 1/2) */
    double a[2] = {1, 1}, x2[2];
    CU_ASSERT_EQUAL(nsm_pinv(1, 2, a, 1e-10, &rank, x2, work, 64), NSM_OK);
    CU_ASSERT_EQUAL(rank, 1u);
    CU_ASSERT_DOUBLE_EQUAL(x2[0], 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(x2[1], 0.5, 1e-15);
    CU_ASSERT_EQUAL(nsm_range_null(1, 2, a, 1e-10, &rank, sv, basis, work, 64), NSM_OK);
    CU_ASSERT_EQUAL(rank, 1u);
    CU_ASSERT_DOUBLE_EQUAL(fabs(basis[0]), sqrt(0.5), 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(fabs(basis[2]), sqrt(0.5), 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(basis[1] + basis[3] * (basis[0] / basis[2]), 0.0, 1e-15);
    /* rank_from_sv closed cases */
    double s3[3] = {2.0, 1.0, 1e-12};
    CU_ASSERT_EQUAL(nsm_rank_from_sv(3, s3, 1e-10, &rank), NSM_OK);
    CU_ASSERT_EQUAL(rank, 2u);
    CU_ASSERT_EQUAL(nsm_rank_from_sv(3, s3, 0.0, &rank), NSM_OK);
    CU_ASSERT_EQUAL(rank, 3u);
    CU_ASSERT_EQUAL(nsm_rank_from_sv(3, s3, 0.6, &rank), NSM_OK);
    CU_ASSERT_EQUAL(rank, 1u);
    double sh[2] = {1.0, 0.5}; /* s_i must exceed rtol·s_0 strictly */
    CU_ASSERT_EQUAL(nsm_rank_from_sv(2, sh, 0.5, &rank), NSM_OK);
    CU_ASSERT_EQUAL(rank, 1u);
    CU_ASSERT_EQUAL(nsm_rank_from_sv(0, NULL, 0.5, &rank), NSM_OK);
    CU_ASSERT_EQUAL(rank, 0u);
    double s0[2] = {0.0, 0.0};
    CU_ASSERT_EQUAL(nsm_rank_from_sv(2, s0, 0.5, &rank), NSM_OK);
    CU_ASSERT_EQUAL(rank, 0u);
}

/* ---------------------------------------------------------------------------------------- */
/* error statuses                                                                           */
/* ---------------------------------------------------------------------------------------- */

static void test_errors_products(void)
{
    double A[16] = {0}, B[16] = {0}, C[16] = {0}, x[4] = {0}, y[4] = {0};
    const size_t big = NSM_MAX_DIM + 1;
    /* gemm */
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, 2, 2, 2, 1, NULL, B, 0, C), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, 2, 2, 2, 1, A, NULL, 0, C), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, 2, 2, 2, 1, A, B, 0, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, 2, 2, 0, 1, NULL, NULL, 0, C), NSM_OK);
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, 0, 2, 2, 1, NULL, B, 0, NULL), NSM_OK);
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, big, 1, 1, 1, A, B, 0, C), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, 1, big, 1, 1, A, B, 0, C), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, 1, 1, big, 1, A, B, 0, C), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_gemm((nsm_trans)2, NSM_NO_TRANS, 2, 2, 2, 1, A, B, 0, C), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, (nsm_trans)-1, 2, 2, 2, 1, A, B, 0, C), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, 2, 2, 2, 1, A, B, 0, A + 3),
                    NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, 2, 2, 2, 1, A, B, 0, B), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, 2, 2, 2, 1, A, B, 0, A + 4), NSM_OK);
    /* gemv */
    CU_ASSERT_EQUAL(nsm_gemv(NSM_NO_TRANS, 2, 3, 1, NULL, x, 0, y), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_gemv(NSM_NO_TRANS, 2, 3, 1, A, NULL, 0, y), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_gemv(NSM_NO_TRANS, 2, 3, 1, A, x, 0, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_gemv(NSM_TRANS, 0, 3, 1, NULL, NULL, 0, y), NSM_OK);
    CU_ASSERT_EQUAL(nsm_gemv(NSM_NO_TRANS, big, 3, 1, A, x, 0, y), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_gemv(NSM_NO_TRANS, 3, big, 1, A, x, 0, y), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_gemv((nsm_trans)5, 2, 3, 1, A, x, 0, y), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_gemv(NSM_NO_TRANS, 2, 2, 1, A, x, 0, x + 1), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_gemv(NSM_NO_TRANS, 2, 2, 1, A, x, 0, A + 3), NSM_ERR_ALIAS);
    /* syrk */
    CU_ASSERT_EQUAL(nsm_syrk(NSM_NO_TRANS, 2, 2, 1, NULL, 0, C), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_syrk(NSM_NO_TRANS, 2, 2, 1, A, 0, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_syrk(NSM_NO_TRANS, 2, 0, 1, NULL, 0, C), NSM_OK);
    CU_ASSERT_EQUAL(nsm_syrk(NSM_NO_TRANS, big, 2, 1, A, 0, C), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_syrk(NSM_NO_TRANS, 2, big, 1, A, 0, C), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_syrk((nsm_trans)3, 2, 2, 1, A, 0, C), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_syrk(NSM_TRANS, 2, 2, 1, A, 0, A + 2), NSM_ERR_ALIAS);
}

static void test_errors_chol(void)
{
    double A[9] = {4, 0, 0, 2, 5, 0, 1, 1, 6}, B[6] = {1, 2, 3, 4, 5, 6};
    const size_t big = NSM_MAX_DIM + 1;
    CU_ASSERT_EQUAL(nsm_chol_factor(3, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_chol_factor(big, A), NSM_ERR_SIZE);
    double An[9];
    memcpy(An, A, sizeof An);
    An[3] = NAN;
    CU_ASSERT_EQUAL(nsm_chol_factor(3, An), NSM_ERR_NOT_FINITE);
    memcpy(An, A, sizeof An);
    An[8] = INFINITY;
    CU_ASSERT_EQUAL(nsm_chol_factor(3, An), NSM_ERR_NOT_FINITE);
    memcpy(An, A, sizeof An);
    An[1] = NAN; /* strict upper triangle is not read */
    CU_ASSERT_EQUAL(nsm_chol_factor(3, An), NSM_OK);
    memcpy(An, A, sizeof An);
    An[4] = -1.0;
    CU_ASSERT_EQUAL(nsm_chol_factor(3, An), NSM_ERR_NOT_SPD);
    memcpy(An, A, sizeof An);
    An[4] = 1.0; /* 1 − (2/2)² = 0: semidefinite pivot */
    CU_ASSERT_EQUAL(nsm_chol_factor(3, An), NSM_ERR_NOT_SPD);
    /* a finite matrix whose pivot overflows */
    double H[4] = {1e-300, 0, 1e300, 1};
    CU_ASSERT_EQUAL(nsm_chol_factor(2, H), NSM_ERR_NOT_SPD);
    double L[9];
    memcpy(L, A, sizeof L);
    CU_ASSERT_EQUAL_FATAL(nsm_chol_factor(3, L), NSM_OK);
    CU_ASSERT_EQUAL(nsm_chol_solve(3, 2, NULL, B), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_chol_solve(3, 2, L, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_chol_solve(big, 2, L, B), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_chol_solve(3, big, L, B), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_chol_solve(3, 2, L, L + 2), NSM_ERR_ALIAS);
    double Bn[6] = {1, 2, NAN, 4, 5, 6};
    CU_ASSERT_EQUAL(nsm_chol_solve(3, 2, L, Bn), NSM_ERR_NOT_FINITE);
    double Ln[9];
    memcpy(Ln, L, sizeof Ln);
    Ln[6] = INFINITY;
    CU_ASSERT_EQUAL(nsm_chol_solve(3, 2, Ln, B), NSM_ERR_NOT_FINITE);
    memcpy(Ln, L, sizeof Ln);
    Ln[4] = 0.0; /* not a Cholesky factor: zero diagonal */
    CU_ASSERT_EQUAL(nsm_chol_solve(3, 2, Ln, B), NSM_ERR_NOT_SPD);
    /* nothing written on error */
    double Bc[6] = {1, 2, 3, 4, 5, 6};
    CU_ASSERT_EQUAL(memcmp(B, Bc, sizeof Bc), 0);
}

static void test_errors_svd(void)
{
    double A[6] = {1, 2, 3, 4, 5, 6}, s[2], U[6], V[4], work[64], X[6], basis[9], sv[2];
    size_t rank = 0;
    const size_t big = NSM_MAX_DIM + 1;
    size_t lw = nsm_svd_work(3, 2);
    CU_ASSERT_EQUAL(nsm_svd_work(big, 2), 0u);
    CU_ASSERT_EQUAL(nsm_svd_work(NSM_MAX_DIM, NSM_MAX_DIM),
                    (size_t)NSM_MAX_DIM * (2u * NSM_MAX_DIM + 1u));
    /* svd */
    CU_ASSERT_EQUAL(nsm_svd(3, 2, NULL, s, U, V, work, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_svd(3, 2, A, NULL, U, V, work, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_svd(3, 2, A, s, U, V, NULL, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_svd(big, 2, A, s, U, V, work, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_svd(3, big, A, s, U, V, work, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_svd(3, 2, A, s, U, V, work, lw - 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(nsm_svd(3, 2, A, A + 1, U, V, work, lw), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_svd(3, 2, A, s, U, U + 2, work, lw), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_svd(3, 2, A, work, U, V, work + 1, lw), NSM_ERR_ALIAS);
    double An[6] = {1, 2, NAN, 4, 5, 6};
    s[0] = s[1] = -7.0;
    CU_ASSERT_EQUAL(nsm_svd(3, 2, An, s, U, V, work, lw), NSM_ERR_NOT_FINITE);
    An[2] = -INFINITY;
    CU_ASSERT_EQUAL(nsm_svd(3, 2, An, s, U, V, work, lw), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(s[0], -7.0); /* nothing written on error */
    /* rank_from_sv */
    double sd[3] = {3, 2, 1};
    CU_ASSERT_EQUAL(nsm_rank_from_sv(3, sd, 0.1, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_rank_from_sv(3, NULL, 0.1, &rank), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_rank_from_sv(big, sd, 0.1, &rank), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_rank_from_sv(3, sd, -0.1, &rank), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_rank_from_sv(3, sd, 1.0, &rank), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_rank_from_sv(3, sd, NAN, &rank), NSM_ERR_ARG);
    double su[3] = {1, 2, 3}; /* not descending */
    CU_ASSERT_EQUAL(nsm_rank_from_sv(3, su, 0.1, &rank), NSM_ERR_ARG);
    double sneg[2] = {1, -1};
    CU_ASSERT_EQUAL(nsm_rank_from_sv(2, sneg, 0.1, &rank), NSM_ERR_ARG);
    double snan[2] = {NAN, 1};
    CU_ASSERT_EQUAL(nsm_rank_from_sv(2, snan, 0.1, &rank), NSM_ERR_NOT_FINITE);
    /* range_null (2×3) */
    size_t lr = nsm_range_null_work(2, 3);
    CU_ASSERT(lr <= 64u);
    CU_ASSERT_EQUAL(nsm_range_null_work(big, 3), 0u);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 1e-10, NULL, sv, basis, work, lr), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, NULL, 1e-10, &rank, sv, basis, work, lr), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 1e-10, &rank, sv, NULL, work, lr), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 1e-10, &rank, sv, basis, NULL, lr), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_range_null(big, 3, A, 1e-10, &rank, sv, basis, work, lr), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_range_null(2, big, A, 1e-10, &rank, sv, basis, work, lr), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, -1.0, &rank, sv, basis, work, lr), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 1.0, &rank, sv, basis, work, lr), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 1e-10, &rank, sv, basis, work, lr - 1),
                    NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 1e-10, &rank, sv, A, work, lr), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 1e-10, &rank, basis + 8, basis, work, lr),
                    NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 1e-10, &rank, sv, work, work, lr), NSM_ERR_ALIAS);
    An[2] = NAN;
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, An, 1e-10, &rank, sv, basis, work, lr),
                    NSM_ERR_NOT_FINITE);
    /* pinv (3×2) */
    size_t lp = nsm_pinv_work(3, 2);
    CU_ASSERT_EQUAL(nsm_pinv_work(3, big), 0u);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, 1e-10, NULL, X, work, lp), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, NULL, 1e-10, &rank, X, work, lp), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, 1e-10, &rank, NULL, work, lp), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, 1e-10, &rank, X, NULL, lp), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_pinv(big, 2, A, 1e-10, &rank, X, work, lp), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, 2.0, &rank, X, work, lp), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, NAN, &rank, X, work, lp), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, 1e-10, &rank, X, work, lp - 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, 1e-10, &rank, A, work, lp), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, 1e-10, &rank, X, X, lp), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, An, 1e-10, &rank, X, work, lp), NSM_ERR_NOT_FINITE);
    /* a pseudo-inverse beyond DBL_MAX is refused */
    double T[2] = {1e-310, 0};
    CU_ASSERT_EQUAL(nsm_pinv(1, 2, T, 0.0, &rank, X, work, 64), NSM_ERR_NOT_FINITE);
}

/* The exact error behaviours of nsmech/linalg.h. Behaviour small_work: with the other arguments
   valid, NSM_ERR_WORKSPACE exactly when lwork is below the query (a bad rtol is NSM_ERR_ARG
   first), nothing written, work included. Clauses alias_untouched, arg_untouched: nothing
   written at all on NSM_ERR_ARG or NSM_ERR_ALIAS. Clause only_work: on a later error (s_1 beyond
   DBL_MAX, found after the sweeps have filled work) s, U and V keep their bytes. */
static void test_errors_svd_write_nothing(void)
{
    double buf[3 * 2 + 2 + 6 + 4 + ERR_WORK + 9], ref[sizeof buf / sizeof(double)];
    double *A = buf, *s = A + 6, *U = s + 2, *V = U + 6, *work = V + 4, *basis = work + ERR_WORK;
    size_t rank = 77, lw = nsm_svd_work(3, 2), lr = nsm_range_null_work(2, 3);
    CU_ASSERT_FATAL(lw <= ERR_WORK && lr <= ERR_WORK);
    for (size_t i = 0; i < sizeof buf / sizeof(double); i++) {
        buf[i] = 0.25 + (double)i;
    }
    memcpy(ref, buf, sizeof buf);
    CU_ASSERT_EQUAL(nsm_svd(3, 2, A, s, U, V, work, lw - 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(nsm_svd(3, 2, A, s, U, s, work, lw), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 1e-10, &rank, s, basis, work, lr - 1),
                    NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 2.0, &rank, s, basis, work, lr - 1), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 2.0, &rank, s, basis, work, lr), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 1e-10, &rank, s, work, work, lr), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, 1e-10, &rank, U, work, lw - 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, -1.0, &rank, U, work, lw - 1), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, 1e-10, &rank, U, U, lw), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(memcmp(buf, ref, sizeof buf), 0);
    CU_ASSERT_EQUAL(rank, 77u);
    /* the same calls with the queried workspace succeed */
    CU_ASSERT_EQUAL(nsm_svd(3, 2, A, s, U, V, work, lw), NSM_OK);
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 1e-10, &rank, s, basis, work, lr), NSM_OK);
    CU_ASSERT_EQUAL(nsm_pinv(3, 2, A, 1e-10, &rank, U, work, lw), NSM_OK);
    /* only_work: every entry DBL_MAX, so s_1 = √6·DBL_MAX, found after the sweeps */
    for (size_t i = 0; i < 6; i++) {
        A[i] = DBL_MAX;
    }
    memcpy(ref, buf, sizeof buf);
    CU_ASSERT_EQUAL(nsm_svd(3, 2, A, s, U, V, work, lw), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(memcmp(s, ref + 6, (2 + 6 + 4) * sizeof(double)), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(work, ref + 18, lw * sizeof(double)), 0); /* work was used */
}

/* ---- per-argument sweeps (tests/support/sweep.h) and rare paths ------------------------ */

static nsm_status sw_svd(void *const *a, void *c)
{
    const size_t *d = c;
    return nsm_svd(d[0], d[1], a[0], a[1], a[2], a[3], a[4], d[2]);
}

static nsm_status sw_range_null(void *const *a, void *c)
{
    const size_t *d = c;
    return nsm_range_null(d[0], d[1], a[0], 1e-10, a[1], a[2], a[3], a[4], d[2]);
}

static nsm_status sw_pinv(void *const *a, void *c)
{
    const size_t *d = c;
    return nsm_pinv(d[0], d[1], a[0], 1e-10, a[1], a[2], a[3], d[2]);
}

/* SVD, bases, pseudo-inverse: NSM_ERR_NULL for each required pointer, NSM_ERR_ALIAS for each
   output or work over A or another output, NSM_ERR_NOT_FINITE for NaN/Inf anywhere in A;
   "only work is written on error". Both shapes (m >= n and m < n). */
static void test_sweep_svd(void)
{
    const double A[12] = {1, 2, 3, 4, 5, 6, 7, 8.5, 9, 10, 11, 12.5};
    double s[3], U[12], V[12], sv[3], basis[16], X[12], work[128];
    size_t rank = 0;
    const size_t shapes[2][2] = {{4, 3}, {3, 4}};
    for (int t = 0; t < 2; t++) {
        size_t m = shapes[t][0], n = shapes[t][1], p = 3;
        size_t d[3] = {m, n, nsm_svd_work(m, n)};
        CU_ASSERT_FATAL(d[2] <= 128);
        const sweep_arg sa[5] = {{"A", A, sizeof(double) * m * n, SW_IN | SW_FINITE},
                                 {"s", s, sizeof(double) * p, SW_OUT},
                                 {"U", U, sizeof(double) * m * p, SW_OUT | SW_NULLABLE},
                                 {"V", V, sizeof(double) * n * p, SW_OUT | SW_NULLABLE},
                                 {"work", work, sizeof(double) * d[2], SW_OUT | SW_SCRATCH}};
        CU_ASSERT_EQUAL(sweep_args("nsm_svd", sw_svd, d, sa, 5, SWEEP_UNWRITTEN), 0);
        d[2] = nsm_range_null_work(m, n);
        CU_ASSERT_FATAL(d[2] <= 128);
        const sweep_arg ra[5] = {{"A", A, sizeof(double) * m * n, SW_IN | SW_FINITE},
                                 {"rank", &rank, sizeof rank, SW_NOALIAS},
                                 {"sv", sv, sizeof(double) * p, SW_OUT | SW_NULLABLE},
                                 {"basis", basis, sizeof(double) * n * n, SW_OUT},
                                 {"work", work, sizeof(double) * d[2], SW_OUT | SW_SCRATCH}};
        CU_ASSERT_EQUAL(sweep_args("nsm_range_null", sw_range_null, d, ra, 5, SWEEP_UNWRITTEN),
                        0);
        d[2] = nsm_pinv_work(m, n);
        CU_ASSERT_EQUAL(d[2], nsm_svd_work(m, n)); /* documented: the same as nsm_svd_work */
        const sweep_arg pa[4] = {{"A", A, sizeof(double) * m * n, SW_IN | SW_FINITE},
                                 {"rank", &rank, sizeof rank, SW_NOALIAS},
                                 {"X", X, sizeof(double) * m * n, SW_OUT},
                                 {"work", work, sizeof(double) * d[2], SW_OUT | SW_SCRATCH}};
        CU_ASSERT_EQUAL(sweep_args("nsm_pinv", sw_pinv, d, pa, 4, SWEEP_UNWRITTEN), 0);
    }
    /* Work sizes are 0 when either dimension exceeds NSM_MAX_DIM. */
    const size_t big = NSM_MAX_DIM + 1;
    CU_ASSERT_EQUAL(nsm_svd_work(2, big), 0u);
    CU_ASSERT_EQUAL(nsm_range_null_work(3, big), 0u);
    CU_ASSERT_EQUAL(nsm_pinv_work(big, 3), 0u);
    CU_ASSERT_EQUAL(nsm_range_null_work(0, 3), 0u); /* m = 0 needs no workspace */
    CU_ASSERT_EQUAL(nsm_range_null_work(2, 3), 2u * (2 + 3 + 2) + 3);
    CU_ASSERT_EQUAL(nsm_pinv(3, big, A, 1e-10, &rank, X, work, 128), NSM_ERR_SIZE);
    /* sv may be NULL: the same basis and rank as with it. */
    double b2[16];
    size_t r2 = 0;
    size_t lr = nsm_range_null_work(3, 4);
    CU_ASSERT_EQUAL_FATAL(nsm_range_null(3, 4, A, 1e-10, &rank, sv, basis, work, lr), NSM_OK);
    CU_ASSERT_EQUAL_FATAL(nsm_range_null(3, 4, A, 1e-10, &r2, NULL, b2, work, lr), NSM_OK);
    CU_ASSERT_EQUAL(rank, r2);
    CU_ASSERT_EQUAL(memcmp(basis, b2, sizeof b2), 0);
    /* s_1 beyond DBL_MAX: NSM_ERR_NOT_FINITE from the SVD and the bases (documented for
       nsm_svd; the bases report it the same way), pseudo-inverse included. */
    const double H[4] = {1e308, 1e308, 1e308, 1e308};
    CU_ASSERT_EQUAL(nsm_svd(2, 2, H, s, U, V, work, 128), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(nsm_range_null(2, 2, H, 1e-10, &rank, sv, basis, work, 128),
                    NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(nsm_range_null(1, 2, H, 1e-10, &rank, sv, basis, work, 128), NSM_OK);
}

/* Columns of very different lengths that are not orthogonal (|g_i·g_j| = 1e-152, far above
   eps·‖g_i‖‖g_j‖ ≈ 3e-156, yet the rotation angle below 2⁻⁵⁰⁰: the small-angle form of the
   rotation): the thin SVD A = U diag(s) Vᵀ with orthonormal U and V, entry by entry to a few
   ulps, and s against the closed form of a 2×2 matrix (s_1² + s_2² = ‖A‖_F², s_1 s_2 = |det A|).
   The tiny column (1e-140) keeps its squared norm in the normal range, and A = B·diag(1, 1e-140)
   with cond(B) ≈ 1: one-sided Jacobi keeps s_2 to a few ulps (Demmel and Veselić). */
static void test_svd_graded_columns(void)
{
    const double A[4] = {1.0, 1e-140, 1.0, -1e-140 + 1e-152};
    double s[2], U[4], V[4], work[16], G[4], Id[4];
    CU_ASSERT_EQUAL_FATAL(nsm_svd(2, 2, A, s, U, V, work, 16), NSM_OK);
    double fro = sqrt(2.0); /* the tiny column adds below rounding */
    double s2 = fabs(A[0] * A[3] - A[1] * A[2]) / fro;
    CU_ASSERT(fabs(s[0] - fro) <= 4 * EPS * fro);
    CU_ASSERT(fabs(s[1] - s2) <= 4 * EPS * s2);
    tm_identity(2, Id);
    tm_matmul_tn(2, 2, 2, U, U, G);
    CU_ASSERT(tm_maxabs_diff(4, G, Id) <= 4 * EPS);
    tm_matmul_tn(2, 2, 2, V, V, G);
    CU_ASSERT(tm_maxabs_diff(4, G, Id) <= 4 * EPS);
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
            double r = U[i * 2] * s[0] * V[j * 2] + U[i * 2 + 1] * s[1] * V[j * 2 + 1];
            CU_ASSERT(fabs(r - A[i * 2 + j]) <= 4 * EPS * fabs(A[i * 2 + j]));
        }
    }
}

/* Row space along a coordinate axis (m < n): the Householder step meets a zero tail. The
   basis is still orthogonal, column 0 spans R(Aᵀ) = span{e_1}, the others span N(A). */
static void test_range_null_axis(void)
{
    const double A[6] = {2, 0, 0, 0, 0, 0}; /* 2×3, rank 1 */
    double basis[9], sv[2], work[64], G[9];
    size_t rank = 9;
    CU_ASSERT_EQUAL_FATAL(nsm_range_null(2, 3, A, 1e-10, &rank, sv, basis, work, 64), NSM_OK);
    CU_ASSERT_EQUAL(rank, 1);
    CU_ASSERT(fabs(sv[0] - 2.0) <= 4 * EPS && sv[1] == 0.0);
    tm_matmul_tn(3, 3, 3, basis, basis, G);
    double Id[9];
    tm_identity(3, Id);
    CU_ASSERT(tm_maxabs_diff(9, G, Id) <= 8 * EPS);
    CU_ASSERT(fabs(fabs(basis[0]) - 1.0) <= 4 * EPS);
    for (int c = 1; c < 3; c++) {
        CU_ASSERT(fabs(basis[c]) <= 4 * EPS); /* A·(null column c) = 2·basis[0][c] = 0 */
    }
}

/* nsm_chol_solve with nothing to solve: n = 0 (L and B may be NULL) or no right-hand side
   (B may be NULL); NSM_OK and nothing read. */
static void test_chol_solve_empty(void)
{
    const double L[4] = {2, 0, 1, 3};
    CU_ASSERT_EQUAL(nsm_chol_solve(0, 2, NULL, NULL), NSM_OK);
    CU_ASSERT_EQUAL(nsm_chol_solve(2, 0, L, NULL), NSM_OK);
    CU_ASSERT_EQUAL(nsm_chol_solve(0, 0, NULL, NULL), NSM_OK);
}

/* The internal vector kernels of src/linalg/vec.c (contracts in src/linalg/internal.h) against
   plain loops: exact where the order of operations is the same, within rounding otherwise. */
static void test_vec_kernels(void)
{
    enum { R = 5, C = 7 };
    double x[C], y[C], z[C], U[R * C], t[R], out[C], Q[R * C];
    for (size_t i = 0; i < C; i++) {
        x[i] = 0.25 * (double)i - 0.8;
        y[i] = 1.0 / (double)(i + 2);
    }
    for (size_t i = 0; i < R * C; i++) {
        U[i] = (double)((i * 7) % 11) - 5.0;
    }
    double ref = 0.0;
    double big = 0.0;
    for (size_t i = 0; i < C; i++) {
        ref += x[i] * y[i];
        big = fabs(x[i]) > big ? fabs(x[i]) : big;
    }
    CU_ASSERT_DOUBLE_EQUAL(nsm_vec_dot(C, x, y), ref, 1e-14);
    CU_ASSERT_EQUAL(nsm_vec_sumsq(C, x), nsm_vec_dot(C, x, x));
    CU_ASSERT_EQUAL(nsm_vec_absmax(C, x), big);
    CU_ASSERT_EQUAL(nsm_vec_dot(0, x, y), 0.0);
    nsm_vec_copy(C, x, z);
    CU_ASSERT_EQUAL(memcmp(z, x, sizeof x), 0);
    nsm_vec_axpy(C, -2.0, y, z);
    for (size_t i = 0; i < C; i++) {
        CU_ASSERT_EQUAL(z[i], x[i] + -2.0 * y[i]);
    }
    nsm_vec_scale(C, 3.0, x, z);
    for (size_t i = 0; i < C; i++) {
        CU_ASSERT_EQUAL(z[i], 3.0 * x[i]);
    }
    nsm_vec_scale(C, 0.5, z, z); /* in place */
    for (size_t i = 0; i < C; i++) {
        CU_ASSERT_EQUAL(z[i], 0.5 * (3.0 * x[i]));
    }
    nsm_vec_zero(C, z);
    for (size_t i = 0; i < C; i++) {
        CU_ASSERT_EQUAL(z[i], 0.0);
    }
    nsm_mat_eye(R, C, Q);
    for (size_t i = 0; i < R; i++) {
        for (size_t j = 0; j < C; j++) {
            CU_ASSERT_EQUAL(Q[i * C + j], i == j ? 1.0 : 0.0);
        }
    }
    nsm_mat_eye(C, R, Q);
    for (size_t i = 0; i < C; i++) {
        for (size_t j = 0; j < R; j++) {
            CU_ASSERT_EQUAL(Q[i * R + j], i == j ? 1.0 : 0.0);
        }
    }
    /* t = U x (exactly a dot per row), out = -1.5 Uᵀ t (within rounding of the loop order). */
    nsm_mat_vec(0, R, C, 1.0, U, x, t);
    for (size_t i = 0; i < R; i++) {
        CU_ASSERT_EQUAL(t[i], nsm_vec_dot(C, U + i * C, x));
    }
    nsm_mat_vec(1, R, C, -1.5, U, t, out);
    for (size_t j = 0; j < C; j++) {
        double s = 0.0;
        for (size_t i = 0; i < R; i++) {
            s += U[i * C + j] * t[i];
        }
        CU_ASSERT_DOUBLE_EQUAL(out[j], -1.5 * s, 1e-12 * (1.0 + fabs(s)));
    }
    nsm_mat_vec(1, 0, C, 2.0, U, t, out); /* no rows: out = 0 */
    for (size_t j = 0; j < C; j++) {
        CU_ASSERT_EQUAL(out[j], 0.0);
    }
}

/* Snapshot of k arrays (at most 4 of at most 32 doubles each) and comparison with it. */
static void snap_take(size_t k, double *const *a, const size_t *len, double keep[4][32])
{
    for (size_t i = 0; i < k; i++) {
        memcpy(keep[i], a[i], len[i] * sizeof(double));
    }
}

static int snap_same(size_t k, double *const *a, const size_t *len, double keep[4][32])
{
    for (size_t i = 0; i < k; i++) {
        if (memcmp(keep[i], a[i], len[i] * sizeof(double)) != 0) {
            return 0;
        }
    }
    return 1;
}

/* *rank inside each array argument of nsm_rank_from_sv, nsm_range_null and nsm_pinv:
   NSM_ERR_ALIAS and nothing written. The size_t sits in double storage (aligned for it). */
static void test_rank_apart(void)
{
    for (int k = 0; k < 3; k++) {
        double s[3] = {3.0, 2.0, 1.0};
        double keep[3];
        memcpy(keep, s, sizeof keep);
        size_t *r = (size_t *)(void *)&s[k];
        CU_ASSERT_EQUAL(nsm_rank_from_sv(3, s, 0.1, r), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_rank_from_sv(3, s, 1.5, r), NSM_ERR_ARG); /* rtol first */
        CU_ASSERT(memcmp(keep, s, sizeof keep) == 0);
    }
    double A[6] = {1, 0, 0, 0, 1, 0}, sv[2] = {0, 0}, basis[9] = {0}, work[32] = {0};
    double X[6] = {0};
    size_t lwr = nsm_range_null_work(2, 3);
    size_t lwp = nsm_pinv_work(2, 3);
    CU_ASSERT_FATAL(lwr <= 32 && lwp <= 32);
    double keep[4][32];
    double *const rn[4] = {A, sv, basis, work};
    const size_t rnl[4] = {6, 2, 9, lwr};
    for (size_t i = 0; i < 4; i++) {
        snap_take(4, rn, rnl, keep);
        size_t *r = (size_t *)(void *)&rn[i][1];
        CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 0.1, r, sv, basis, work, lwr), NSM_ERR_ALIAS);
        CU_ASSERT(snap_same(4, rn, rnl, keep));
    }
    double *const pv[3] = {A, X, work};
    const size_t pvl[3] = {6, 6, lwp};
    for (size_t i = 0; i < 3; i++) {
        snap_take(3, pv, pvl, keep);
        size_t *r = (size_t *)(void *)&pv[i][1];
        CU_ASSERT_EQUAL(nsm_pinv(2, 3, A, 0.1, r, X, work, lwp), NSM_ERR_ALIAS);
        CU_ASSERT(snap_same(3, pv, pvl, keep));
    }
    /* m = 0: basis is still written, so *rank may not lie in it */
    size_t *r0 = (size_t *)(void *)&basis[4];
    CU_ASSERT_EQUAL(nsm_range_null(0, 3, NULL, 0.1, r0, NULL, basis, NULL, 0), NSM_ERR_ALIAS);
    size_t rank = 9;
    CU_ASSERT_EQUAL(nsm_range_null(2, 3, A, 0.1, &rank, sv, basis, work, lwr), NSM_OK);
    CU_ASSERT_EQUAL(rank, 2);
    rank = 9;
    CU_ASSERT_EQUAL(nsm_pinv(2, 3, A, 0.1, &rank, X, work, lwp), NSM_OK);
    CU_ASSERT_EQUAL(rank, 2);
    rank = 9;
    CU_ASSERT_EQUAL(nsm_rank_from_sv(2, sv, 0.1, &rank), NSM_OK);
    CU_ASSERT_EQUAL(rank, 2);
}

static CU_TestInfo linalg_tests[] = {
    {"gemm/gemv/syrk vs plain loops (all transposes, sizes from 0)", test_products},
    {"Cholesky vs LAPACK dpotrf/dposv, rejection of non-SPD", test_chol},
    {"Jacobi SVD vs LAPACK dgesvd", test_svd},
    {"rank, range/null bases, pseudo-inverse vs LAPACK", test_bases},
    {"error statuses: products", test_errors_products},
    {"error statuses: Cholesky", test_errors_chol},
    {"error statuses: SVD, rank, bases, pinv", test_errors_svd},
    {"error statuses: workspace, argument and aliasing errors write nothing, work included",
     test_errors_svd_write_nothing},
    {"each argument: SVD, bases, pinv (NULL, overlap, NaN/Inf)", test_sweep_svd},
    {"SVD of graded, nearly orthogonal columns vs the 2x2 closed form", test_svd_graded_columns},
    {"bases of a row space along a coordinate axis", test_range_null_axis},
    {"Cholesky solve with n = 0 or no right-hand side", test_chol_solve_empty},
    {"internal vector kernels (vec.c) vs plain loops", test_vec_kernels},
    {"rank inside an array of rank_from_sv, range_null or pinv: NSM_ERR_ALIAS", test_rank_apart},
    CU_TEST_INFO_NULL,
};

static int reg(void) { return nsm_add_suite("linalg", linalg_tests); }

int main(void) { return nsm_test_main("test_linalg", reg); }
