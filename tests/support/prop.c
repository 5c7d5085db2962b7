#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include <lapacke.h>
#include "prop.h"

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void nsm_rng_seed(nsm_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) {
        r->s[i] = splitmix64(&x);
    }
}

uint64_t nsm_rng_u64(nsm_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double nsm_rng_uniform(nsm_rng *r) { return (double)(nsm_rng_u64(r) >> 11) * 0x1.0p-53; }

double nsm_rng_range(nsm_rng *r, double lo, double hi) { return lo + (hi - lo) * nsm_rng_uniform(r); }

double nsm_rng_normal(nsm_rng *r)
{
    /* Box–Muller; u1 in (0, 1]. */
    double u1 = 1.0 - nsm_rng_uniform(r);
    double u2 = nsm_rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586476925 * u2);
}

size_t nsm_rng_index(nsm_rng *r, size_t lo, size_t hi)
{
    return lo + (size_t)(nsm_rng_u64(r) % (uint64_t)(hi - lo + 1));
}

void prop_vector(nsm_rng *r, size_t n, double *x)
{
    for (size_t i = 0; i < n; i++) {
        x[i] = nsm_rng_normal(r);
    }
}

void prop_shuffle(nsm_rng *r, size_t m, size_t *order)
{
    for (size_t c = m; c > 1; c--) {
        size_t j = nsm_rng_index(r, 0, c - 1);
        size_t t = order[c - 1];
        order[c - 1] = order[j];
        order[j] = t;
    }
}

int prop_approaching(nsm_rng *r, size_t n, size_t m, const double *Jn, double speed,
                     double *v)
{
    for (int tries = 0; tries < 100; tries++) {
        prop_vector(r, n, v);
        for (size_t c = 0; c < m; c++) {
            double un = 0.0;
            for (size_t i = 0; i < n; i++) {
                un += Jn[c * n + i] * v[i];
            }
            if (un < -speed) {
                return 1;
            }
        }
    }
    return 0;
}

void prop_orthogonal(nsm_rng *r, size_t n, double *Q)
{
    if (n == 0) {
        return;
    }
    double *tau = malloc(n * sizeof *tau);
    prop_vector(r, n * n, Q);
    LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)n, Q, (lapack_int)n, tau);
    /* Haar measure: multiply column j by sign(R_jj). */
    double *sgn = malloc(n * sizeof *sgn);
    for (size_t j = 0; j < n; j++) {
        sgn[j] = Q[j * n + j] < 0.0 ? -1.0 : 1.0;
    }
    LAPACKE_dorgqr(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)n, (lapack_int)n, Q, (lapack_int)n,
                   tau);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            Q[i * n + j] *= sgn[j];
        }
    }
    free(sgn);
    free(tau);
}

void prop_spd(nsm_rng *r, size_t n, double cond, double scale, double *M)
{
    double *Q = malloc(n * n * sizeof *Q);
    double *lam = malloc(n * sizeof *lam);
    prop_orthogonal(r, n, Q);
    for (size_t i = 0; i < n; i++) {
        double t = n > 1 ? (double)i / (double)(n - 1) : 0.0;
        lam[i] = scale * pow(cond, t);
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j <= i; j++) {
            double s = 0.0;
            for (size_t k = 0; k < n; k++) {
                s += Q[i * n + k] * lam[k] * Q[j * n + k];
            }
            M[i * n + j] = s;
            M[j * n + i] = s;
        }
    }
    free(lam);
    free(Q);
}

void prop_rank(nsm_rng *r, size_t m, size_t n, size_t rank, double cond, double *A)
{
    double *U = malloc((m ? m * m : 1) * sizeof *U);
    double *V = malloc((n ? n * n : 1) * sizeof *V);
    prop_orthogonal(r, m, U);
    prop_orthogonal(r, n, V);
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < n; j++) {
            double s = 0.0;
            for (size_t k = 0; k < rank; k++) {
                double t = rank > 1 ? (double)k / (double)(rank - 1) : 0.0;
                s += U[i * m + k] * pow(cond, -t) * V[j * n + k];
            }
            A[i * n + j] = s;
        }
    }
    free(V);
    free(U);
}

size_t prop_cases(size_t ci_default)
{
    const char *e = getenv("NSM_PROP_CASES");
    if (e != NULL && *e != '\0') {
        long v = strtol(e, NULL, 10);
        if (v > 0) {
            return (size_t)v;
        }
    }
    return ci_default;
}

uint64_t prop_base_seed(void)
{
    const char *e = getenv("NSM_PROP_SEED");
    if (e != NULL && *e != '\0') {
        return (uint64_t)strtoull(e, NULL, 10);
    }
    return NSM_PROP_SEED_DEFAULT;
}

size_t prop_run(const char *name, prop_fn fn, void *ctx, size_t ci_default_cases)
{
    size_t cases = prop_cases(ci_default_cases);
    uint64_t base = prop_base_seed();
    char msg[512];
    for (size_t i = 0; i < cases; i++) {
        nsm_rng rng;
        uint64_t seed = base + (uint64_t)i;
        nsm_rng_seed(&rng, seed);
        msg[0] = '\0';
        if (fn(&rng, ctx, msg, sizeof msg) != 0) {
            printf("\nPROPERTY FAILED %s: case %zu of %zu, seed %llu: %s\n"
                   "  rerun: NSM_PROP_SEED=%llu NSM_PROP_CASES=1\n",
                   name, i, cases, (unsigned long long)seed, msg, (unsigned long long)seed);
            CU_FAIL(name);
            return i + 1;
        }
    }
    CU_PASS(name);
    return cases;
}

void tm_matmul(size_t m, size_t n, size_t k, const double *A, const double *B, double *C)
{
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < n; j++) {
            long double s = 0.0L;
            for (size_t l = 0; l < k; l++) {
                s += (long double)A[i * k + l] * B[l * n + j];
            }
            C[i * n + j] = (double)s;
        }
    }
}

void tm_matmul_tn(size_t m, size_t n, size_t k, const double *A, const double *B, double *C)
{
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < n; j++) {
            long double s = 0.0L;
            for (size_t l = 0; l < k; l++) {
                s += (long double)A[l * m + i] * B[l * n + j];
            }
            C[i * n + j] = (double)s;
        }
    }
}

void tm_matmul_nt(size_t m, size_t n, size_t k, const double *A, const double *B, double *C)
{
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < n; j++) {
            long double s = 0.0L;
            for (size_t l = 0; l < k; l++) {
                s += (long double)A[i * k + l] * B[j * k + l];
            }
            C[i * n + j] = (double)s;
        }
    }
}

void tm_transpose(size_t m, size_t n, const double *A, double *At)
{
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < n; j++) {
            At[j * m + i] = A[i * n + j];
        }
    }
}

void tm_identity(size_t n, double *Id)
{
    memset(Id, 0, n * n * sizeof *Id);
    for (size_t i = 0; i < n; i++) {
        Id[i * n + i] = 1.0;
    }
}

double tm_maxabs(size_t len, const double *x)
{
    double m = 0.0;
    for (size_t i = 0; i < len; i++) {
        double a = fabs(x[i]);
        if (a > m || a != a) {
            m = a;
        }
    }
    return m;
}

double tm_maxabs_diff(size_t len, const double *x, const double *y)
{
    double m = 0.0;
    for (size_t i = 0; i < len; i++) {
        double a = fabs(x[i] - y[i]);
        if (!(a <= m)) {
            m = a;
        }
    }
    return m;
}

double tm_norm2(size_t n, const double *x)
{
    long double s = 0.0L;
    for (size_t i = 0; i < n; i++) {
        s += (long double)x[i] * x[i];
    }
    return (double)sqrtl(s);
}
