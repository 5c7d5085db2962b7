/*
 * Property-test layer on CUnit: a seeded generator, random matrices with chosen spectra, and
 * a runner that prints the failing seed.
 *
 * Seeds: case i of a property uses seed = base + i, base = NSM_PROP_SEED (environment) or
 * NSM_PROP_SEED_DEFAULT. The number of cases is the property's CI default, or NSM_PROP_CASES.
 * A failure prints 'rerun: NSM_PROP_SEED=<seed> NSM_PROP_CASES=1' to reproduce that one case.
 */
#ifndef NSM_TEST_PROP_H
#define NSM_TEST_PROP_H

#include <stddef.h>
#include <stdint.h>

#define NSM_PROP_SEED_DEFAULT 20261201u

/** xoshiro256** generator state. */
typedef struct { uint64_t s[4]; } nsm_rng;

void     nsm_rng_seed(nsm_rng *r, uint64_t seed);
uint64_t nsm_rng_u64(nsm_rng *r);
double   nsm_rng_uniform(nsm_rng *r);                 /* [0, 1) */
double   nsm_rng_range(nsm_rng *r, double lo, double hi);
double   nsm_rng_normal(nsm_rng *r);                  /* standard normal */
size_t   nsm_rng_index(nsm_rng *r, size_t lo, size_t hi); /* uniform in [lo, hi] */

/** x[0..n-1] standard normal. */
void prop_vector(nsm_rng *r, size_t n, double *x);
/** Haar-random orthogonal n×n matrix (LAPACK dgeqrf/dorgqr on a Gaussian matrix). */
void prop_orthogonal(nsm_rng *r, size_t n, double *Q);
/** Random SPD n×n matrix with eigenvalues log-spaced in [scale, scale·cond] (cond >= 1). */
void prop_spd(nsm_rng *r, size_t n, double cond, double scale, double *M);
/** Random m×n matrix of rank r with non-zero singular values log-spaced in [1/cond, 1]. */
void prop_rank(nsm_rng *r, size_t m, size_t n, size_t rank, double cond, double *A);
/** Shuffles order[0 .. m-1] uniformly (Fisher–Yates, from the last entry down). */
void prop_shuffle(nsm_rng *r, size_t m, size_t *order);
/** v (n) standard normal, drawn again (at most 100 draws) until some contact approaches at
    speed or faster: J_n,c v < -speed for a row c of Jn (m×n, row-major). Returns 1 when one
    does, 0 when none did in 100 draws (v then holds the last draw). */
int prop_approaching(nsm_rng *r, size_t n, size_t m, const double *Jn, double speed,
                     double *v);

/** Number of cases: NSM_PROP_CASES if set (> 0), else the given CI default. */
size_t prop_cases(size_t ci_default);
/** Base seed: NSM_PROP_SEED if set, else NSM_PROP_SEED_DEFAULT. */
uint64_t prop_base_seed(void);

/**
 * A property: returns 0 when it holds for the case drawn from rng, else non-zero with a
 * message in msg (msglen bytes).
 */
typedef int (*prop_fn)(nsm_rng *rng, void *ctx, char *msg, size_t msglen);

/**
 * Runs fn over the cases; on the first failure prints the property name, seed and message and
 * records a CUnit failure. Returns the number of cases run.
 */
size_t prop_run(const char *name, prop_fn fn, void *ctx, size_t ci_default_cases);

/* Small dense helpers for oracles: plain loops, independent of the library's CBLAS calls. */
void   tm_matmul(size_t m, size_t n, size_t k, const double *A, const double *B, double *C);
void   tm_matmul_tn(size_t m, size_t n, size_t k, const double *A, const double *B, double *C); /* C = Aᵀ B, A k×m */
void   tm_matmul_nt(size_t m, size_t n, size_t k, const double *A, const double *B, double *C); /* C = A Bᵀ, B n×k */
void   tm_transpose(size_t m, size_t n, const double *A, double *At);
void   tm_identity(size_t n, double *Id);
double tm_maxabs(size_t len, const double *x);
double tm_maxabs_diff(size_t len, const double *x, const double *y);
double tm_norm2(size_t n, const double *x);

#endif
