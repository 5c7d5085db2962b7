/*
 * An explicit-step oracle refined against a result: the comparison the accuracy stage makes
 * for the rules that hold contacts at rest (simultaneous, priority), planar
 * (tests/support/impact_oracle.c, oracle_fine) and spatial (tests/support/spatial_oracle.c,
 * sp_oracle_fine). Such an oracle reaches rest and stick by chattering, first order in its
 * step, so one level is not enough: it is run at ever finer steps until two successive
 * levels agree with the result.
 */
#ifndef NSM_TEST_REFINE_H
#define NSM_TEST_REFINE_H

#include <stddef.h>

/** An explicit-step oracle with the arguments of oracle_fine and sp_oracle_fine; returns 0
    (its OK), 1 (its argument error) or another failure code. */
typedef int (*refine_oracle_fn)(size_t n, size_t m, const double *M, const double *Jn,
                                const double *Jt, const double *mu, const double *v_minus,
                                const double *ratios, const size_t *order, double hrel,
                                size_t step_cap, double *v_plus, int *reentry, size_t *steps);

/** The problem and rule handed to the oracle (ratios or order NULL as the oracle wants). */
typedef struct refine_problem {
    size_t n, m;
    const double *M, *Jn, *Jt, *mu, *v_minus, *ratios;
    const size_t *order;
} refine_problem;

/** Outcomes of refine_levels. */
enum {
    REFINE_ARG = -1,        /* the oracle reported an argument error */
    REFINE_REACHED = 0,     /* two successive levels within tol of the result */
    REFINE_NOT_REACHED = 1, /* every level run, not two successive ones within tol */
    REFINE_REENTRY = 2,     /* a level saw a contact re-enter: the rule's share did not hold */
    REFINE_FAILED = 3       /* a level failed (its step cap) */
};

/**
 * The oracle f at hrel = h0/2^k, k = 0, 1, ..., levels - 1 (levels <= 30, step_cap steps
 * each), until levels k - 1 and k are both within tol of vp (n entries; max-abs difference
 * divided by scale). d[k] receives level k's difference, vo (n) the last level's v+, and
 * *level the level reached (REFINE_REACHED) or the number of levels run (otherwise).
 */
int refine_levels(refine_oracle_fn f, const refine_problem *p, const double *vp, double scale,
                  double h0, int levels, double tol, size_t step_cap, double *d, double *vo,
                  int *level);

/** 1 when a case beyond tol at the base step count converges: its difference there, d4, is
    at most limit, and at 16 times the steps, d64, at most max(d4/4, tol). */
int refine_converges(double d4, double d64, double limit, double tol);

/** Most oracle levels a case may run. */
#define REFINE_MAX_LEVELS 12

/** The tally of a property over its cases. */
typedef struct refine_tally {
    size_t compared, agree, reentry, failed;
    size_t level[REFINE_MAX_LEVELS]; /* cases that reached level k */
    double worst_miss, worst_miss64; /* cases not within tol: at 4000 and 64000 steps */
} refine_tally;

/** The library's v+ (n) at `steps` steps; returns 0 on NSM_OK. */
typedef int (*refine_library_fn)(void *data, size_t steps, double *v);

/**
 * One case: the library's vp at 4000 steps against the oracle f refined (refine_levels: h0 =
 * 2e-5, `levels` levels, at most 4·10^8 steps each, tolerance tol); a case not within tol
 * is run again at 64000 steps (lib) and must converge (refine_converges, limit 1e-2).
 * Tallies it in t. Returns -1 (msg written) when the property fails: an oracle argument
 * error, the library failing at 64000 steps, or a case that does not converge; 0 when the
 * case is not compared (a level failed, or a contact re-entered); 1 when it is compared.
 * NSM_TEST_VERBOSE=1 prints every compared case not within tol.
 */
int refine_case(refine_oracle_fn f, const refine_problem *p, const double *vp, double scale,
                int levels, double tol, refine_library_fn lib, void *data, refine_tally *t,
                char *msg, size_t msglen);

/** Prints the tally's summary (compared, within tol by level, misses, not compared). */
void refine_report(const refine_tally *t, size_t cases, int levels);

#endif
