/*
 * Outcome sets (nsm_outcome_set): how much of the set they reach, and what they cost.
 *
 * Coverage: the set computed with the default budget (2048 bang-bang histories, hold 2000
 * steps, and 2048 schedules, default options; plus every sequential and priority order, the
 * simultaneous run, the extremal fan over the contact velocities and, through
 * nsm_outcome_set with projection planes, the extremal fans in the three projection planes below; the minimum
 * without the planes is printed too)
 * against a reference from the independent oracle of tests/support/impact_oracle.c (every
 * sequential order and 16 × 2048 bang-bang histories of its own design, integrated exactly
 * from event to event): area(hull(set)) / area(hull(set ∪ reference)) in 2-D projections of
 * v+ (box–wall: pairs of velocity components; others: (J_n,0 v+, J_t,0 v+), (J_t,0 v+,
 * J_t,1 v+) and (v0, v1)), for the box moving down into the floor–wall corner, the ball
 * stack, the demo's slippery block, dropped compass gait and dropped rimless wheel, and random
 * 2–5 contact problems. Problems where the library has no a priori bound
 * (NSM_ERR_NO_BOUND on every run) or the impact has a single outcome (every point of both
 * sets within 1e-9 relative of one) are counted apart and left out of the minimum.
 * Timings: the corner set with 2^14 - 1 runs and the ball-stack set with 2048 histories (and as
 * many schedules), each timed as one call. Coverage against the budget (2^6 .. 2^14
 * histories, as many schedules) for the corner and the ball stack, written to
 * build/bench/outcome_coverage.dat.
 * The same coverage at half the step (4000 steps, dwell caps up to 4000 steps): whether the
 * set's extent is converged in the step; and with hull_tol = NSM_OUTCOME_HULL_TOL (rounds:
 * what stopping the sampled families early costs), with its runs made.
 * Moreau's impulse (the enumeration oracle of tests/support/moreau_oracle.c, cross-checked
 * with Siconos by make test-peers) on the 20 planar problems of tests/support/moreau_problems.c:
 * on those where the simultaneous run with Moreau's normal impulses as ratios reproduces it,
 * whether it lies inside the hull of the set (default options) in every 2-D projection (pairs
 * of velocity components and (J_n,0 v+, J_t,0 v+)) to 1e-6 of the hull's diameter, as
 * tests/test_moreau.c checks; one line per problem.
 * Nothing is asserted. Prints a table and 'name value' lines: outcome_coverage_min,
 * outcome_coverage_min_noplanes, outcome_coverage_min_half_step,
 * outcome_coverage_min_rounds, outcome_rounds_runs_share, boxwall_set_seconds,
 * ballstack_set_seconds, and the line 'moreau_inside N of M'.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nsmech.h"
#include "ball_stack.h"
#include "impact_oracle.h"
#include "moreau_problems.h"
#include "box_corner.h"
#include "compass_gait.h"

#define MAXN 9
#define MAXM 5
#define BUDGET 2048u
#define REF_MULT 16u
#define HOLD 2000u /* dwell cap, and steps across the bound (the default step count) */
#define MAX_HIST 16384u
#define NPLANES 3u
#define MAX_RUNS (2u * 720u + 1u + 288u + 13u + 2u * MAX_HIST + (MAX_HIST + 7u) / 8u + \
                  NPLANES * NSM_OUTCOME_PLANE_DIRS)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct problem {
    const char *name;
    size_t n, m;
    double M[MAXN * MAXN], Jn[MAXM * MAXN], Jt[MAXM * MAXN], mu[MAXM], vm[MAXN];
} problem;

static double work[65536];
static double set_v[MAX_RUNS * MAXN], lib_pts[MAX_RUNS * MAXN];
static double ref_pts[(REF_MULT * BUDGET + 720u) * MAXN];
static nsm_status set_st[MAX_RUNS];
static nsm_policy_kind set_kind[MAX_RUNS];

static void projection(const problem *P, int q, double *p0, double *p1);

/* nsm_outcome_count with nsamples histories and nplanes planes. */
static size_t runs_of(size_t m, size_t nsamples, size_t nplanes)
{
    nsm_outcome_opts opts = NSM_OUTCOME_OPTS_DEFAULT;
    opts.nsamples = nsamples;
    opts.nplanes = nplanes;
    return nsm_outcome_count(m, &opts);
}

/* The set with nhist bang-bang histories and, when nplanes = NPLANES, the extremal fans in
   the problem's three projection planes (nsm_outcome_set with opts.nplanes; nplanes = 0: the base
   runs alone), at `steps` steps across the bound with dwell caps up to `steps` steps (the
   default: 2000 and HOLD): accepted points into lib_pts; returns their number (0 on a call
   error) and writes the call's seconds. */
static size_t library_set_tol(const problem *P, size_t nhist, size_t nplanes, size_t steps,
                              double tol, double *secs, size_t *runs)
{
    size_t k = 0;
    double planes[2 * NPLANES * MAXN];
    for (size_t q = 0; q < nplanes; q++) {
        projection(P, (int)q, planes + 2 * q * P->n, planes + (2 * q + 1) * P->n);
    }
    nsm_outcome_opts opts = NSM_OUTCOME_OPTS_DEFAULT;
    opts.impact.steps = steps;
    opts.nsamples = nhist;
    opts.seed = 1u;
    opts.hold = steps;
    opts.nplanes = nplanes;
    opts.planes = planes;
    opts.hull_tol = tol;
    const nsm_contact_problem prob = {P->n, P->m, 1, P->M, P->Jn, P->Jt, P->mu, P->vm};
    nsm_outcome_result res = {nsm_outcome_count(P->m, &opts), set_v, set_st, set_kind, 0, 0};
    double t0 = now();
    nsm_status st = nsm_outcome_set(&prob, &opts, &res, work, nsm_outcome_work(P->n, P->m));
    *secs = now() - t0;
    size_t nr = res.nruns;
    *runs = nr;
    if (st != NSM_OK) {
        printf("%s: nsm_outcome_set failed: %s\n", P->name, nsm_status_str(st));
        return 0;
    }
    for (size_t r = 0; r < nr; r++) {
        if (set_st[r] == NSM_OK) {
            memcpy(lib_pts + P->n * k++, set_v + P->n * r, P->n * sizeof *set_v);
        }
    }
    return k;
}

/* library_set_tol with every run (hull_tol 0). */
static size_t library_set_at(const problem *P, size_t nhist, size_t nplanes, size_t steps,
                             double *secs)
{
    size_t runs = 0;
    return library_set_tol(P, nhist, nplanes, steps, 0.0, secs, &runs);
}

static size_t library_set(const problem *P, size_t nhist, size_t nplanes, double *secs)
{
    return library_set_at(P, nhist, nplanes, HOLD, secs);
}

/* The three projections of a problem: rows p0, p1 (n each) of projection q. */
static void projection(const problem *P, int q, double *p0, double *p1)
{
    memset(p0, 0, P->n * sizeof *p0);
    memset(p1, 0, P->n * sizeof *p1);
    if (P->m == 2 && P->n == 3 && strcmp(P->name, "boxwall-corner") == 0) {
        static const int pr[3][2] = {{0, 1}, {0, 2}, {1, 2}};
        p0[pr[q][0]] = 1.0;
        p1[pr[q][1]] = 1.0;
        return;
    }
    if (q == 0) {
        memcpy(p0, P->Jn, P->n * sizeof *p0);
        memcpy(p1, P->Jt, P->n * sizeof *p1);
    } else if (q == 1) {
        memcpy(p0, P->Jt, P->n * sizeof *p0);
        memcpy(p1, P->Jt + P->n, P->n * sizeof *p1);
    } else {
        p0[0] = 1.0;
        p1[1] = 1.0;
    }
}

static const char *proj_name(const problem *P, int q)
{
    static const char *box[3] = {"(v0,v1)", "(v0,v2)", "(v1,v2)"};
    static const char *gen[3] = {"(un0,ut0)", "(ut0,ut1)", "(v0,v1)"};
    return strcmp(P->name, "boxwall-corner") == 0 ? box[q] : gen[q];
}

/* 1 if every point of both sets lies within 1e-9 (1 + |v|) of the reference's first point: a
   single outcome, where an area ratio would only measure rounding. */
static int single_outcome(const problem *P, size_t na, size_t nb)
{
    const double *p = ref_pts;
    double scale = 0.0;
    for (size_t i = 0; i < P->n; i++) {
        scale = fmax(scale, fabs(p[i]));
    }
    double tol = 1e-9 * (1.0 + scale);
    for (size_t r = 0; r < na + nb; r++) {
        const double *q = r < na ? lib_pts + P->n * r : ref_pts + P->n * (r - na);
        for (size_t i = 0; i < P->n; i++) {
            if (fabs(q[i] - p[i]) > tol) {
                return 0;
            }
        }
    }
    return 1;
}

/* Coverage of the reference in the problem's three projections; the minimum, or -1 when the
   library accepted no run. */
static double coverage(const problem *P, size_t na, size_t nb, double *each)
{
    double lo = 1.0;
    double p0[MAXN], p1[MAXN];
    for (int q = 0; q < 3; q++) {
        projection(P, q, p0, p1);
        each[q] = na == 0 ? 0.0 : oracle_coverage(P->n, na, lib_pts, nb, ref_pts, p0, p1);
        lo = fmin(lo, each[q]);
    }
    return na == 0 ? -1.0 : lo;
}

static size_t reference(const problem *P, double *secs)
{
    oracle_stats os;
    double t0 = now();
    size_t nb = oracle_reference(P->n, P->m, P->M, P->Jn, P->Jt, P->mu, P->vm,
                                 REF_MULT * BUDGET, 20261203u, 0, REF_MULT * BUDGET + 720u,
                                 ref_pts, &os);
    *secs = now() - t0;
    return nb;
}

static void corner(problem *P)
{
    P->name = "boxwall-corner";
    P->n = 3;
    P->m = 2;
    box_corner_problem(P->M, P->Jn, P->Jt, P->mu, P->vm);
}

static void ballstack(problem *P)
{
    P->name = "ball-stack";
    P->n = 9;
    P->m = 5;
    ball_stack_problem(P->M, P->Jn, P->Jt, P->mu, P->vm);
}

/* The demo's other non-trivial sets (examples/block_drop.c, compass_gait.c,
   rimless_wheel.c; the same data): a block dropped flat on two corners with mu = 0.2, a
   compass gait dropped onto both feet, a rimless wheel falling onto two spokes. */
/* A planar body with three coordinates on two contacts of equal friction mu. */
static void body_on_two(problem *P, const char *name, const double *M, const double *Jn,
                        const double *Jt, double mu, const double *vm)
{
    P->name = name;
    P->n = 3;
    P->m = 2;
    memcpy(P->M, M, 9 * sizeof *M);
    memcpy(P->Jn, Jn, 6 * sizeof *Jn);
    memcpy(P->Jt, Jt, 6 * sizeof *Jt);
    P->mu[0] = P->mu[1] = mu;
    memcpy(P->vm, vm, 3 * sizeof *vm);
}

static void block_slippery(problem *P)
{
    const double a = 1.0, b = 2.0;
    const double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, (a * a + b * b) / 12.0};
    const double Jn[6] = {0, 1, -0.5 * b, 0, 1, 0.5 * b}, Jt[6] = {1, 0, 0.5 * a, 1, 0, 0.5 * a};
    const double vm[3] = {0.0, -0.443, 0.0};
    body_on_two(P, "block-slippery", M, Jn, Jt, 0.2, vm);
}

static void gait_drop(problem *P)
{
    memset(P, 0, sizeof *P);
    P->name = "gait-drop";
    P->n = 4;
    P->m = 2;
    compass_gait_problem(P->M, P->Jn, P->Jt);
    P->mu[0] = P->mu[1] = 5.0;
    P->vm[1] = -1.0;
}

static void wheel_drop(problem *P)
{
    const double al = 3.14159265358979323846 / 8.0, sa = sin(al), ca = cos(al);
    const double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 0.1};
    const double Jn[6] = {0, 1, -sa, 0, 1, sa}, Jt[6] = {1, 0, ca, 1, 0, ca};
    const double vm[3] = {0.0, -1.0, 0.0};
    body_on_two(P, "wheel-drop", M, Jn, Jt, 1.0, vm);
}

/* xorshift in [0, 1) and a normal deviate (Box–Muller), for the random problems. */
static double rnd(unsigned long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    *s &= 0xfffffffful;
    return ((double)(*s) + 0.5) / 4294967296.0;
}

static double gauss(unsigned long *s)
{
    const double two_pi = 6.283185307179586;
    return sqrt(-2.0 * log(rnd(s))) * cos(two_pi * rnd(s));
}

/* Random planar problem: n in 3..6 (2m <= n + 1), M = B Bᵀ/n + I/2, Gaussian rows, mu in
   [0.1, 1.5], v- redrawn until a contact penetrates by 0.1. */
static void random_problem(problem *P, unsigned long *s)
{
    static char names[16][16];
    static int next;
    snprintf(names[next % 16], sizeof names[0], "random-%02d", next);
    P->name = names[next++ % 16];
    P->m = 2 + (size_t)(rnd(s) * 4.0);
    P->n = P->m + 1 + (size_t)(rnd(s) * 3.0);
    if (P->n > 6) {
        P->n = 6;
    }
    size_t n = P->n;
    double B[MAXN * MAXN];
    for (size_t i = 0; i < n * n; i++) {
        B[i] = gauss(s);
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            double a = 0.0;
            for (size_t k = 0; k < n; k++) {
                a += B[i * n + k] * B[j * n + k];
            }
            P->M[i * n + j] = a / (double)n + (i == j ? 0.5 : 0.0);
        }
    }
    for (size_t i = 0; i < P->m * n; i++) {
        P->Jn[i] = gauss(s);
        P->Jt[i] = gauss(s);
    }
    for (size_t c = 0; c < P->m; c++) {
        P->mu[c] = 0.1 + 1.4 * rnd(s);
    }
    for (int tries = 0; tries < 100; tries++) {
        for (size_t i = 0; i < n; i++) {
            P->vm[i] = gauss(s);
        }
        for (size_t c = 0; c < P->m; c++) {
            double un = 0.0;
            for (size_t i = 0; i < n; i++) {
                un += P->Jn[c * n + i] * P->vm[i];
            }
            if (un < -0.1) {
                return;
            }
        }
    }
}

/* Coverage against the budget for one problem (reference already in ref_pts). */
static void coverage_curve(const problem *P, size_t nb, FILE *dat)
{
    double each[3];
    for (size_t nh = 64; nh <= MAX_HIST; nh *= 2) {
        double secs = 0.0;
        size_t na = library_set(P, nh, NPLANES, &secs);
        double lo = coverage(P, na, nb, each);
        printf("  %-16s budget %6zu  coverage min %.4f  (%.3f s)\n", P->name, nh, lo, secs);
        if (dat != NULL) {
            fprintf(dat, "%s %zu %.6f %.6f\n", P->name, nh, lo, secs);
        }
    }
}

/* The gnuplot script of the coverage curves (make bench renders it when gnuplot is there):
   build/bench/outcome_coverage.png. */
static void write_coverage_plot(void)
{
    FILE *gp = fopen("build/bench/outcome_coverage.gp", "w");
    if (gp == NULL) {
        return;
    }
    fprintf(gp,
            "set terminal pngcairo size 800,600 noenhanced\n"
            "set output 'outcome_coverage.png'\n"
            "set title 'Coverage of the oracle reference by nsm_outcome_set against the budget'\n"
            "set logscale x 2\n"
            "set xlabel 'bang-bang histories of the set (plus every order and the fan)'\n"
            "set ylabel 'coverage, lowest of three 2-D projections'\n"
            "set yrange [0:1.02]\n"
            "set key bottom right\n"
            "set grid\n"
            "plot 'outcome_coverage.dat' using (strcol(1) eq 'boxwall-corner' ? $2 : 1/0):3 "
            "with linespoints pt 7 title 'box moving into the corner', \\\n"
            "     'outcome_coverage.dat' using (strcol(1) eq 'ball-stack' ? $2 : 1/0):3 "
            "with linespoints pt 5 title 'ball stack'\n");
    fclose(gp);
}

int main(void)
{
    enum { NRANDOM = 12, NEXAMPLES = 5 };
    static problem probs[NEXAMPLES + NRANDOM];
    corner(&probs[0]);
    ballstack(&probs[1]);
    block_slippery(&probs[2]);
    gait_drop(&probs[3]);
    wheel_drop(&probs[4]);
    unsigned long seed = 20261203ul;
    for (int k = 0; k < NRANDOM; k++) {
        random_problem(&probs[NEXAMPLES + k], &seed);
    }
    FILE *dat = fopen("build/bench/outcome_coverage.dat", "w");
    if (dat != NULL) {
        fprintf(dat, "# problem histories coverage_min seconds\n");
    }
    printf("coverage of the oracle's reference (%u x %u histories) by nsm_outcome_set (%u "
           "histories, hold %u)\n",
           REF_MULT, BUDGET, BUDGET, HOLD);
    printf("(proj columns: with the fans in the three projection planes; 'no planes': the lowest "
           "of the three without them; 'half step': the lowest of the three at %u steps, dwell "
           "caps up to %u)\n",
           2 * HOLD, 2 * HOLD);
    printf("%-16s %4s %4s %10s %10s %10s %10s %10s %10s %9s %9s %7s\n", "problem", "n", "m",
           "proj 1", "proj 2", "proj 3", "no planes", "half step", "rounds", "lib s",
           "oracle s", "accept");
    double cov_min = 1.0, cov_min0 = 1.0, cov_min2 = 1.0, cov_minr = 1.0;
    size_t runs_all = 0, runs_rounds = 0;
    int no_bound = 0, counted = 0, single = 0;
    for (int k = 0; k < NEXAMPLES + NRANDOM; k++) {
        const problem *P = &probs[k];
        double tl = 0.0, to = 0.0, each[3];
        double t0 = 0.0, each0[3];
        size_t na0 = library_set(P, BUDGET, 0, &t0);
        size_t nb = reference(P, &to);
        double lo0 = coverage(P, na0, nb, each0);
        size_t na = library_set(P, BUDGET, NPLANES, &tl);
        size_t total = runs_of(P->m, BUDGET, NPLANES);
        if (na == 0) {
            printf("%-16s %4zu %4zu  no run accepted (status %s): not counted\n", P->name, P->n,
                   P->m, nsm_status_str(set_st[0]));
            no_bound += set_st[0] == NSM_ERR_NO_BOUND;
            continue;
        }
        if (single_outcome(P, na, nb)) {
            printf("%-16s %4zu %4zu  a single outcome (every point within 1e-9 of it, library and "
                   "reference): not counted\n",
                   P->name, P->n, P->m);
            single++;
            continue;
        }
        double lo = coverage(P, na, nb, each);
        /* the same set at half the step (twice the steps, dwell caps up to as many steps) */
        double th = 0.0, each2[3];
        size_t na2 = library_set_at(P, BUDGET, NPLANES, 2 * HOLD, &th);
        double lo2 = coverage(P, na2, nb, each2);
        /* the same set in rounds (hull_tol NSM_OUTCOME_HULL_TOL) */
        double tr = 0.0, eachr[3];
        size_t nrr = 0;
        size_t nar = library_set_tol(P, BUDGET, NPLANES, HOLD, NSM_OUTCOME_HULL_TOL, &tr, &nrr);
        double lor = coverage(P, nar, nb, eachr);
        printf("%-16s %4zu %4zu", P->name, P->n, P->m);
        for (int q = 0; q < 3; q++) {
            printf(" %10.4f", each[q]);
        }
        printf(" %10.4f %10.4f %10.4f %9.3f %9.3f %4zu/%zu  %s %s %s  (rounds: %zu runs)\n", lo0,
               lo2, lor, tl, to, na, total, proj_name(P, 0), proj_name(P, 1), proj_name(P, 2),
               nrr);
        cov_min = fmin(cov_min, lo);
        cov_min0 = fmin(cov_min0, lo0);
        cov_min2 = fmin(cov_min2, lo2);
        cov_minr = fmin(cov_minr, lor);
        runs_all += total;
        runs_rounds += nrr;
        counted++;
        if (k < 2) {
            coverage_curve(P, nb, dat);
        }
    }
    if (dat != NULL) {
        fclose(dat);
        write_coverage_plot();
    }
    /* timings */
    double t_corner = 0.0, t_ball = 0.0;
    /* about 2^14 runs: 37 orders and fan directions, then as many bang-bang histories as
       schedules (16 383: the count is odd) */
    const size_t corner_hist = (MAX_HIST - runs_of(2, 0, 0)) / 2;
    (void)library_set(&probs[0], corner_hist, 0, &t_corner);
    (void)library_set(&probs[1], BUDGET, 0, &t_ball);
    printf("%-34s %10.3f  (%zu runs)\n", "boxwall corner set, seconds", t_corner,
           runs_of(2, corner_hist, 0));
    printf("%-34s %10.3f  (%u histories + %u schedules + 241 orders + 200 directions)\n",
           "ball stack set, seconds", t_ball, BUDGET, BUDGET);
    printf("problems counted %d; not counted: without a bound %d, a single outcome %d\n", counted,
           no_bound, single);
    printf("outcome_coverage_min %.4f\n", cov_min);
    printf("outcome_coverage_min_noplanes %.4f\n", cov_min0);
    printf("outcome_coverage_min_half_step %.4f\n", cov_min2);
    printf("outcome_coverage_min_rounds %.4f\n", cov_minr);
    printf("outcome_rounds_runs_share %.3f\n",
           runs_all > 0 ? (double)runs_rounds / (double)runs_all : 0.0);
    printf("boxwall_set_seconds %.3f\n", t_corner);
    printf("ballstack_set_seconds %.3f\n", t_ball);
    printf("Moreau's impulse inside the set's hull (problems a constant-ratio run reproduces):\n");
    size_t moreau_tested = 0, moreau_in = moreau_inside(NULL, 1, &moreau_tested);
    if (moreau_in == (size_t)-1) {
        printf("moreau_inside: a comparison failed\n");
    } else {
        printf("moreau_inside %zu of %zu\n", moreau_in, moreau_tested);
    }
    return 0;
}
