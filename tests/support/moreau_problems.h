/*
 * The 20 planar problems on which Moreau's impulse (moreau_oracle.h) is compared with the
 * library, shared by tests/test_moreau.c, bench/bench_outcome.c and tests/peers/ (through
 * tests/peers/moreau_dump.c): the box in the floor–wall corner (box_corner.h) with
 * several v- and mu (7), the ball stack (ball_stack.h) with three mu, a spinning pyramid of three
 * discs (the ball stack's geometry: two discs on the floor touching each other and a third on
 * both; every disc moving and spinning) with mu = 0 and 0.3, and seven random problems with 2–5
 * contacts (own generator, fixed seed: every contact penetrating at v-).
 *
 * And the comparison itself, for one problem (moreau_compare): Moreau's solutions; for each
 * impulse found (several impulses, with different normal ratios, may give the same v+ where W
 * is singular), nsm_impact_solve with NSM_POLICY_SIMULTANEOUS and ratios = its normal impulses
 * (a normal impulse below 1e-12 of the largest gets the ratio 1e-12 of the largest); a solution
 * is reproduced when one of its impulses' runs gives max_i |v+_i - v+Moreau_i| <= 1e-9
 * max_i |v-_i|; and for the first reproduced solution its
 * distance outside the convex hull of nsm_outcome_set's accepted v+ in 2-D projections
 * (every pair of velocity components, and (J_n,0 v+, J_t,0 v+)), relative to the hull's
 * diameter in that projection (impact_oracle.h, oracle_hull_outside), or to 1e-9 max_i |v-_i|
 * where that is larger (a projection in which the set is a single point: a velocity component
 * that no impulse changes, as the discs' spins without friction).
 */
#ifndef NSM_TEST_MOREAU_PROBLEMS_H
#define NSM_TEST_MOREAU_PROBLEMS_H

#include <stddef.h>
#include "nsmech.h"
#include "moreau_oracle.h"

#define MP_MAXN 9u
#define MP_MAXM 5u
#define MOREAU_NPROBLEMS 20u
/** Tolerance of moreau_solve in the comparisons. */
#define MOREAU_TOL 1e-9
/** Moreau's answer counts as inside the set's hull when it is within this fraction of the
    hull's diameter of it (in every projection). */
#define MOREAU_INSIDE_TOL 1e-6

typedef struct moreau_problem {
    char name[24];
    size_t n, m;
    double M[MP_MAXN * MP_MAXN], Jn[MP_MAXM * MP_MAXN], Jt[MP_MAXM * MP_MAXN], mu[MP_MAXM],
        vm[MP_MAXN];
} moreau_problem;

/** Fills P[0 .. MOREAU_NPROBLEMS - 1]; returns MOREAU_NPROBLEMS. */
size_t moreau_problems(moreau_problem *P);

/** Moreau's solutions of a problem (moreau_solve with MOREAU_TOL). */
int moreau_problem_solve(const moreau_problem *P, moreau_result *res);

/** What moreau_compare found for one problem. */
typedef struct moreau_cmp {
    moreau_result oracle;     /* Moreau's solutions */
    size_t reproduced;        /* solutions a constant-ratio run reproduces */
    int first;                /* the first reproduced solution (-1: none) */
    double replay_err;        /* max |dv| / max|v-| of the first run that reproduces it (the
                                 smallest over the impulses if none does) */
    nsm_status replay_status; /* its status */
    size_t set_runs;          /* runs of the set, and those accepted (0 when not computed) */
    size_t set_accepted;
    double outside;           /* largest distance outside the hull / diameter, over the
                                 projections, of the first reproduced solution (0: inside;
                                 -1: not computed) */
    size_t outside_proj;      /* the projection where it is largest (index, see moreau_proj) */
    double seconds;           /* time of the set */
} moreau_cmp;

/**
 * The comparison of the file comment on problem P with nsm_outcome_set's options *opts
 * (d = 1; NULL: NSM_OUTCOME_OPTS_DEFAULT), the set only computed when with_set is nonzero and
 * a solution is reproduced. Returns 0, or -1 when the oracle or a library call fails (other
 * than a run's status, which is recorded).
 */
int moreau_compare(const moreau_problem *P, const nsm_outcome_opts *opts, int with_set,
                   moreau_cmp *out);

/**
 * moreau_compare with the set (options *opts, NULL: the defaults) on each of the
 * MOREAU_NPROBLEMS problems; with verbose, one line per problem on stdout: "inside" or
 * "OUTSIDE" with the distance outside the hull relative to its diameter (the largest over
 * the projections, and which), or that no constant-ratio run reproduces Moreau's answer (not
 * tested). Returns the number of tested problems whose answer is inside (to
 * MOREAU_INSIDE_TOL) and writes the number tested to *tested; (size_t)-1 when a comparison
 * fails.
 */
size_t moreau_inside(const nsm_outcome_opts *opts, int verbose, size_t *tested);

/** Number of 2-D projections of a problem of n velocities: n(n - 1)/2 + 1. */
size_t moreau_nproj(size_t n);

/** Projection q: the rows p0, p1 (n each) of (p0·v, p1·v); pairs (i, j), i < j, in
    lexicographic order, then (J_n,0, J_t,0). */
void moreau_proj(const moreau_problem *P, size_t q, double *p0, double *p1);

/** The constant-ratio replay alone: nsm_impact_solve on P with ratios from the impulses Pimp
    ((t, n) per contact) as above; v+ into vp; returns the run's status. */
nsm_status moreau_replay(const moreau_problem *P, const double *Pimp, double *vp);

#endif
