/*
 * nsmech/outcome.h — the set of possible post-impact velocities of a multi-contact impact
 * (docs/math.md, "Exploring the set"): runs of the integrator of nsmech/impact.h under
 * sequential orders, priorities, equal ratios, extremal switching rules, bang-bang histories
 * and schedules, and the policies that generate them.
 *
 * Functional clauses are stated in the exact-real model of the proofs (doubles read as reals);
 * the IEEE behaviour is established by the tests.
 */
#ifndef NSMECH_OUTCOME_H
#define NSMECH_OUTCOME_H

#include <stddef.h>
#include "nsmech/base.h"
#include "nsmech/impact.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest m for which the outcome set enumerates every sequential order (m! of them) and
    runs the full extremal fan (8m²); beyond it, up to NSM_OUTCOME_MAX_M, it runs 4m chosen
    orders and a fan of 8m directions (nsm_outcome_set). */
#define NSM_OUTCOME_MAX_ORDERS_M 6u

/** Largest m of an outcome set. */
#define NSM_OUTCOME_MAX_M 16u

/** Denominator of the constant-ratio runs' off ratios: a run heavy on contact c gives it
    ratio 1 and the others 1/NSM_OUTCOME_RATIO_SKEW; a run light on c the reverse. */
#define NSM_OUTCOME_RATIO_SKEW 16u

/*@ // The orders of a set (m! for m <= NSM_OUTCOME_MAX_ORDERS_M, else 4m), its fan (8m², else
    // 8m) and its base runs: 2 orders + 1 + fan + 2 nsamples + 2m + ceil(nsamples / 8) + 1
    // (nsm_outcome_count).
    logic integer nsm_fact(integer m) = m <= 1 ? 1 : m * nsm_fact(m - 1);
    logic integer nsm_outcome_norders(integer m) =
      m <= NSM_OUTCOME_MAX_ORDERS_M ? nsm_fact(m) : 4 * m;
    logic integer nsm_outcome_nfan(integer m) =
      m <= NSM_OUTCOME_MAX_ORDERS_M ? 8 * m * m : 8 * m;
    logic integer nsm_outcome_nratio(integer m, integer ns) = 2 * m + (ns + 7) / 8 + 1;
    logic integer nsm_outcome_nbase(integer m, integer ns) =
      2 * nsm_outcome_norders(m) + 1 + nsm_outcome_nfan(m) + 2 * ns + nsm_outcome_nratio(m, ns);
 */

/** Choices of the outcome set's extremal runs across the bound: they choose every
    steps / NSM_OUTCOME_EXTREMAL_CHOICES steps (NSM_POLICY_EXTREMAL's hold, at least 1; 4 at
    the default 2000 steps), so that the rule's impulse spacing, not its step count, is fixed
    and the runs converge as the step shrinks. Choosing at every step made the rule alternate
    between contacts on every segment (ball stack: about 140 000 steps per run, 97 % forced;
    every 4 steps: 749 steps, 5 % forced). */
#define NSM_OUTCOME_EXTREMAL_CHOICES 500u

/** Directions of the extremal fan in each of the caller's projection planes
    (nsm_outcome_set, opts->nplanes > 0): a·p + b·q for the 8 lattice directions (a, b) = (1, 0), (3, 1),
    (2, 1), (3, 2), (1, 1), (2, 3), (1, 2), (1, 3) turned by 0, 90, 180 and 270 degrees (gaps
    of at most 18.4 degrees). */
#define NSM_OUTCOME_PLANE_DIRS 32u

/** Options of nsm_outcome_set: the runs' integrator options and the set's sampling.
    NSM_OUTCOME_OPTS_DEFAULT gives the defaults of the command line tool's "set" policy. */
typedef struct nsm_outcome_opts {
    nsm_impact_opts impact; /**< the options of every run (by value) */
    size_t nsamples;        /**< bang-bang histories, and schedules: 1 .. 10^6 each */
    unsigned long seed;     /**< first seed of the histories and shift of the schedules */
    size_t hold;            /**< longest dwell of the histories in steps (>= 1); their dwell
                                 scales cycle through 1, 2, 4, ... up to hold */
    size_t nplanes;         /**< projection planes, 0 .. NSM_OUTCOME_MAX_PLANES (0: none) */
    const double *planes;   /**< 2·nplanes rows of n entries (may be NULL when nplanes = 0) */
    double hull_tol;        /**< 0 .. 1: 0 makes every run (the default); > 0: a sampled
                                 family stops after a round of its runs that reaches no further
                                 than hull_tol times the earlier rows' width along any probe */
} nsm_outcome_opts;

/** The sets' opts.impact.slip_rest (nsmech/impact.h): in the runs that hold contacts, a slip
    below what a contact's friction moves it in 1/256 of a step counts as rest. On robot feet
    (a rigid foot's corners hold each other's slips still) this takes their ratio runs from
    tens of times their steps to about their steps; the outcomes move by about
    slip_rest·h·rho, first order in h (docs/math.md (I10)). */
#define NSM_OUTCOME_SLIP_REST (1.0 / 256.0)

/** Runs in the first round of a sampled family (bang-bang histories, schedules, Halton
    ratios); each later round doubles the family's runs (nsm_outcome_set, hull_tol > 0). */
#define NSM_OUTCOME_ROUND 32u

/** A hull_tol for robot-scale sets, where the sampled families cost most of the set: a
    family stops after a round that moves no probe's extent by 1/1000 of the set's width
    (docs/math.md, "Rounds": what it saves, and the coverage it costs on small problems). */
#define NSM_OUTCOME_HULL_TOL 1e-3

/** Defaults: the impact defaults but slip_rest NSM_OUTCOME_SLIP_REST, 2048 samples, seed 0,
    hold 2000 (the default step count), no projection planes, hull_tol 0 (every run). */
#define NSM_OUTCOME_OPTS_DEFAULT \
    {NSM_IMPACT_OPTS_REST(NSM_OUTCOME_SLIP_REST), 2048u, 0ul, 2000u, 0u, NULL, 0.0}

/** Most projection planes nsm_outcome_set takes. */
#define NSM_OUTCOME_MAX_PLANES 64u

/*@ // The options readable, and the planes readable for their extent when non-NULL (n of the
    // problem; sizes beyond the library's range excuse them, as they are rejected first).
    predicate nsm_outcome_opts_readable(nsm_outcome_opts *o, integer n) =
      \valid_read(o) &&
      (o->planes == \null || o->nplanes == 0 || o->nplanes > NSM_OUTCOME_MAX_PLANES ||
       n > NSM_MAX_DIM || \valid_read(o->planes + (0 .. 2 * o->nplanes * n - 1)));
 */

/** Number of runs of nsm_outcome_set: N sequential orders + N priority orders +
    1 simultaneous (equal ratios) + F extremal directions + nsamples bang-bang histories +
    nsamples schedules + 2m + ceil(nsamples / 8) + 1 constant ratios (Moreau's last; the base
    runs, numbered first), + NSM_OUTCOME_PLANE_DIRS·nplanes plane runs, where N = m! and F = 8m² for m <=
    NSM_OUTCOME_MAX_ORDERS_M (every order), N = 4m (chosen orders) and F = 8m beyond: for
    m > 6, 18m + 2 + 2·nsamples + ceil(nsamples / 8) + 32·nplanes, linear in m. 0 when
    opts is NULL, m = 0, m > NSM_OUTCOME_MAX_M, nsamples > 10^6 or nplanes >
    NSM_OUTCOME_MAX_PLANES. (nsamples and nplanes are those of *opts.) */
/*@ requires valid_opts: opts == \null || \valid_read(opts);
    assigns \nothing;
    ensures value: opts != \null && 1 <= m <= NSM_OUTCOME_MAX_M && opts->nsamples <= 1000000 &&
            opts->nplanes <= NSM_OUTCOME_MAX_PLANES ==>
              \result == nsm_outcome_nbase(m, opts->nsamples) +
                         NSM_OUTCOME_PLANE_DIRS * opts->nplanes;
    ensures bound: opts != \null && 1 <= m <= NSM_OUTCOME_MAX_M && opts->nsamples <= 1000000 &&
            opts->nplanes <= NSM_OUTCOME_MAX_PLANES ==>
              1 <= \result <= 1743 + 2 * opts->nsamples + opts->nsamples / 8 +
                              NSM_OUTCOME_PLANE_DIRS * opts->nplanes;
    ensures zero: !(opts != \null && 1 <= m <= NSM_OUTCOME_MAX_M &&
              opts->nsamples <= 1000000 && opts->nplanes <= NSM_OUTCOME_MAX_PLANES) ==>
              \result == 0;
 */
size_t nsm_outcome_count(size_t m, const nsm_outcome_opts *opts);





/** Workspace (doubles) for nsm_outcome_set:
    that of nsm_impact_solve plus 3m for Lambda (d = 1 or 2) and n for a plane direction,
    nsm_impact_work(n, m) + 3m + n; 0 if n or m is out of range (m >
    NSM_OUTCOME_MAX_M included) or the total would exceed NSM_MAX_DIM² (the outcome
    sets then return NSM_ERR_SIZE). */
/*@ assigns \nothing;
    ensures fits: \result <= NSM_MAX_DIM * NSM_MAX_DIM;
    ensures value: \result == 0 ||
              (1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M &&
               \result == nsm_impact_need(n, m) + 3 * m + n);
    ensures pos: \result == 0 || \result >= 3 * m + n + 1;
 */
size_t nsm_outcome_work(size_t n, size_t m);

/** Results of nsm_outcome_set: the caller's arrays for cap runs (cap and the pointers are
    read) and the counts (written). */
typedef struct nsm_outcome_result {
    size_t cap;              /**< runs the arrays hold (>= nsm_outcome_count(m, opts)) */
    double *v_plus;          /**< cap·n: row i is the i-th run made's post-impact velocity */
    nsm_status *status;      /**< cap: row i's status */
    nsm_policy_kind *kind;   /**< cap: row i's policy (row i is run i when hull_tol = 0) */
    size_t nruns;            /**< written: the runs made (all of them with hull_tol = 0) */
    size_t accepted;         /**< written: the runs with status NSM_OK */
} nsm_outcome_result;

/*@ // The result struct writable, and its non-NULL arrays writable for cap runs of n
    // velocities (n of the problem *p; a cap beyond 10^6 or an n beyond NSM_MAX_DIM excuses
    // them, as they are rejected first).
    predicate nsm_outcome_result_writable(nsm_contact_problem *p, nsm_outcome_result *r) =
      \valid(r) &&
      (r->v_plus == \null || r->cap == 0 || p->n > NSM_MAX_DIM || r->cap > 1000000 ||
       \valid(r->v_plus + (0 .. r->cap * p->n - 1))) &&
      (r->status == \null || r->cap == 0 || r->cap > 1000000 ||
       \valid(r->status + (0 .. r->cap - 1))) &&
      (r->kind == \null || r->cap == 0 || r->cap > 1000000 ||
       \valid(r->kind + (0 .. r->cap - 1)));

    // What nsm_outcome_set writes: *r apart from *p, *o, the work and its own arrays; its
    // arrays and the work apart from each other and from *o (as the pointers are read; other
    // overlaps are checked at run time, NSM_ERR_ALIAS).
    predicate nsm_outcome_separated(nsm_contact_problem *p, nsm_outcome_opts *o,
                                    nsm_outcome_result *r, double *work, integer lwork) =
      \separated(r, p) && \separated(r, o) &&
      (work == \null || lwork == 0 ||
       (\separated(r, work + (0 .. lwork - 1)) && \separated(o, work + (0 .. lwork - 1)))) &&
      (r->cap == 0 || r->cap > 1000000 ||
       ((r->status == \null || \separated(r, r->status + (0 .. r->cap - 1))) &&
        (r->kind == \null || \separated(r, r->kind + (0 .. r->cap - 1))) &&
        (r->status == \null || r->kind == \null ||
         \separated(r->kind + (0 .. r->cap - 1), r->status + (0 .. r->cap - 1))) &&
        (work == \null || lwork == 0 ||
         ((r->status == \null || \separated(work + (0 .. lwork - 1), r->status + (0 .. r->cap - 1))) &&
          (r->kind == \null || \separated(work + (0 .. lwork - 1), r->kind + (0 .. r->cap - 1))))))) &&
      (r->v_plus == \null || r->cap == 0 || p->n > NSM_MAX_DIM || r->cap > 1000000 ||
       (\separated(r, r->v_plus + (0 .. r->cap * p->n - 1)) &&
        \separated(o, r->v_plus + (0 .. r->cap * p->n - 1)) &&
        (r->status == \null || \separated(r->v_plus + (0 .. r->cap * p->n - 1), r->status + (0 .. r->cap - 1))) &&
        (r->kind == \null || \separated(r->v_plus + (0 .. r->cap * p->n - 1), r->kind + (0 .. r->cap - 1)))));
 */

/**
 * The outcome set of the impact *prob (n, m, d, M, Jn, Jt, mu, v_minus below are its fields;
 * d = 1 planar or 2 spatial): runs nsm_impact_solve with every sequential order (in
 * lexicographic order of the permutations; for m > NSM_OUTCOME_MAX_ORDERS_M with 4m chosen
 * orders instead: order k < m is the rotation (k, k+1, ..., k-1 mod m), order k >= m a
 * Fisher–Yates shuffle of the identity (i = m-1 down to 1 swaps i with draw mod (i + 1))
 * driven by the Park–Miller generator (state·48271 mod 2^31 - 1) from state
 * 1 + (seed + 104729·k) mod (2^31 - 2): a sample of the orders, not all of them), then with
 * every priority order (same orders), then
 * simultaneously with equal ratios, then with the extremal rule (NSM_POLICY_EXTREMAL, hold
 * opts->impact.steps / NSM_OUTCOME_EXTREMAL_CHOICES, at least 1) for a fan of 8m² directions over the
 * 2m axes (t, n) of the contact velocities (each axis with both signs, then for each pair of axes a < b the four
 * diagonals ±a ±b; for m > NSM_OUTCOME_MAX_ORDERS_M only the pairs (t, n) of one contact, 8m
 * directions; dir has the entry of axis t of contact c at 3c, of n at 3c + 2; the fan
 * spans the first tangent and the normal of each contact), then
 * with nsamples
 * bang-bang weight histories
 * (NSM_POLICY_BANGBANG; history j has seed seed + j and longest dwell 2^(j mod L) steps, L
 * the bit length of `hold`: the histories cycle through the dwell scales 1, 2, 4, ... up to
 * `hold` steps, so that long dwells reach the extremes of the set and short ones its
 * inside; docs/math.md, "Exploring the set"), then with nsamples schedules
 * (NSM_POLICY_SCHEDULE; schedule t takes the order of index t mod N (N the orders above) and
 * Halton point k = t / N + 1 + (seed mod 2^20) in m + 1 dimensions (another seed starts
 * further along the sequence), bases the primes 2, 3, 5, ..., 59 in turn: for phase i
 * the dwell level floor(14·h_i) among 0 (skipped), 0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5,
 * 0.6, 0.8, 1, 1.3 and 1e300 (to rest) times S, and 2^floor(4·h_m) cycles (1, 2, 4 or 8):
 * phases that stop a contact short of rest, and contacts that take turns, which is where the
 * extremes of the set lie that every order and the fans miss) (nsamples, seed, hold those of
 * *opts), then with 2m + ceil(nsamples / 8) + 1 constant unequal ratios (NSM_POLICY_SIMULTANEOUS):
 * run j < m heavy on contact j (ratio 1, the others 1/NSM_OUTCOME_RATIO_SKEW), m <= j < 2m
 * light on contact j - m (ratio 1/NSM_OUTCOME_RATIO_SKEW, the others 1), then for
 * j >= 2m ratio 2^(floor(13·h_c) - 6) for contact c (log-uniform on the powers of two in
 * [1/64, 64]) with h the Halton point j - 2m + 1 + (seed mod 2^20), bases as the schedules';
 * the last of these runs is Moreau's (NSM_POLICY_MOREAU: its ratios from the problem,
 * kind[r] = NSM_POLICY_MOREAU), so that the set holds a Moreau–Jean time-stepper's answer
 * wherever a constant-ratio history reaches it.
 * Contacts at rest are held only for d = 1 (nsm_impact_solve), so the priority runs
 * of a spatial set are not held.
 * Then, with projection planes (opts->nplanes > 0), an extremal fan in each of them: for each
 * plane i < nplanes and j < NSM_OUTCOME_PLANE_DIRS, run base + NSM_OUTCOME_PLANE_DIRS·i + j
 * (base = the number of runs above) solves with NSM_POLICY_EXTREMAL_V (hold as the other
 * extremal runs) along vdir = a_j·p + b_j·q, where p and q are rows 2i and 2i + 1 of
 * opts->planes (2·nplanes rows of n entries: the axes of the 2-D projection (pᵀv+, qᵀv+) the
 * caller will look at) and (a_j, b_j) the lattice directions of NSM_OUTCOME_PLANE_DIRS;
 * kind[r] = NSM_POLICY_EXTREMAL_V. The fan above targets the contact velocities J v+; a
 * projection that mixes generalized velocities, such as (v0, v1), is reached at its extremes
 * by these runs (docs/math.md, "Exploring the set"). A plane whose rows reach about 1e307 can
 * make a direction overflow: that run's status is NSM_ERR_NOT_FINITE.
 * The runs made fill rows i < res->nruns in order: row i is res->v_plus[i·n .. i·n + n - 1],
 * res->status[i] and res->kind[i] (its policy). With opts->hull_tol = 0 every run is made
 * and row r is run r, res->nruns = nsm_outcome_count(m, opts). With hull_tol > 0 each
 * sampled family (the bang-bang histories, the schedules, the Halton ratios) is made in
 * rounds: NSM_OUTCOME_ROUND runs, then doublings; after each round its rows are compared
 * with the rows made before it along n + (d + 1)m + NSM_OUTCOME_PLANE_DIRS·nplanes probe
 * directions (each coordinate of v, each contact axis Jn v and Jt v, each plane's fan
 * direction), and the family stops when no accepted row of the round lies beyond the
 * earlier accepted rows' extent by more than hull_tol times its width along any of them.
 * The rows of a family are then its first runs, consecutive; the family's later runs are
 * not made (a row's run number follows from the blocks of equal kind). Every other run is
 * made. A run is accepted when its status is NSM_OK; res->accepted counts them.
 * Rejected runs keep the velocity where the integrator stopped (NSM_ERR_BOUND,
 * NSM_ERR_NO_CONVERGENCE, NSM_ERR_NO_BOUND, NSM_ERR_NOT_CERTIFIED) or v_minus (other
 * statuses, among them
 * NSM_ERR_OVERFLOW when an impulse or velocity of that run left the double range).
 * Workspace: nsm_outcome_work(n, m) doubles. *opts is read once, before any run.
 * Errors (nothing written but work): NSM_ERR_NULL (prob, opts, res, work, an array of *prob
 * or of *res, or planes with nplanes > 0); NSM_ERR_SIZE (n, m as nsm_impact_solve,
 * m > NSM_OUTCOME_MAX_M); NSM_ERR_ARG (d not 1 or 2, nsamples = 0 or > 10^6, hold = 0,
 * nplanes > NSM_OUTCOME_MAX_PLANES, hull_tol not in [0, 1], or cap <
 * nsm_outcome_count(m, opts)); NSM_ERR_WORKSPACE;
 * NSM_ERR_ALIAS (res->v_plus or the work over an input (the planes included), each other or
 * opts->impact; status, kind, res->nruns or res->accepted over each other, an input,
 * v_plus, the work or opts->impact); NSM_ERR_NOT_FINITE (an entry of the planes, found
 * before any run); and the validation statuses of nsm_impact_solve, found on the first
 * run, which is then returned. The structs themselves must not overlap what the call writes
 * (nsm_outcome_separated).
 */
/*@ requires valid_prob: prob == \null || nsm_contact_problem_readable(prob);
    requires valid_opts: opts == \null || prob == \null ||
                         nsm_outcome_opts_readable(opts, prob->n);
    requires valid_res: res == \null || prob == \null || nsm_outcome_result_writable(prob, res);
    requires valid_work: work == \null || lwork == 0 || \valid(work + (0 .. lwork - 1));
    requires sep: prob == \null || opts == \null || res == \null ||
                  nsm_outcome_separated(prob, opts, res, work, lwork);
    assigns res->v_plus[0 .. res->cap * prob->n - 1], res->status[0 .. res->cap - 1],
            res->kind[0 .. res->cap - 1], res->nruns, res->accepted, work[0 .. lwork - 1];
    ensures null: (prob == \null || opts == \null || res == \null) ==> \result == NSM_ERR_NULL;
    ensures counts: \result == NSM_OK ==> res->accepted <= res->nruns <= res->cap;
 */
nsm_status nsm_outcome_set(const nsm_contact_problem *prob, const nsm_outcome_opts *opts,
                           nsm_outcome_result *res, double *work, size_t lwork);

/** Caller storage for the arrays of a policy of nsm_outcome_policy (m <=
    NSM_OUTCOME_MAX_M entries used: order m, ratios m, dir 3m, dwell m). */
typedef struct nsm_policy_store {
    size_t order[NSM_OUTCOME_MAX_M];
    double ratios[NSM_OUTCOME_MAX_M];
    double dir[3 * NSM_OUTCOME_MAX_M];
    double dwell[NSM_OUTCOME_MAX_M];
} nsm_policy_store;

/**
 * The policy of base run r of nsm_outcome_set(prob, opts, ...) with prob->m = m (r <
 * nsm_outcome_count(m, opts) - NSM_OUTCOME_PLANE_DIRS·opts->nplanes; the plane runs' policies
 * come from nsm_outcome_plane_policy; of *opts, nsamples, seed, hold and impact.steps, for
 * the extremal hold, are read): fills *pol and the arrays of *st it points to. st->order
 * (m entries) is the run's permutation (sequential, priority
 * and schedule runs; the identity otherwise), st->ratios (m) are a constant-ratio run's
 * ratios and ones otherwise, st->dir (3m) is the run's fan
 * direction (extremal runs; zeros otherwise), st->dwell (m) the run's dwells (schedule runs, in
 * units of the impulse scale S; 1e300 runs a phase to rest; zeros otherwise); pol->hold is
 * a schedule run's cycles (1, 2, 4 or 8), a bang-bang run's dwell cap, an extremal run's
 * hold, and 1 otherwise. Solving with
 * this policy (nsm_impact_solve, same problem and opts->impact) repeats run r of the
 * set, with its impulses and nsm_impact_info; with d = 2, or with
 * other options (a finer step), it runs the same weight history on that model. pol->kind says
 * which source produced the run.
 * Errors (nothing written): NSM_ERR_NULL; NSM_ERR_SIZE (m = 0 or m > NSM_OUTCOME_MAX_M);
 * NSM_ERR_ARG (nsamples = 0 or > 10^6, hold = 0, r >= the number of base runs);
 * NSM_ERR_ALIAS (*st and *pol overlap).
 */
/*@ requires valid: st == \null || \valid(st);
    requires valid_pol: pol == \null || \valid(pol);
    requires valid_opts: opts == \null || \valid_read(opts);
    requires sep: st == \null || pol == \null || opts == \null ||
                  (\separated(opts, st) && \separated(opts, pol));
    requires sep_st: st == \null || pol == \null || \separated(pol, st);
    assigns *pol, *st;
    ensures null: (opts == \null || st == \null || pol == \null) ==> \result == NSM_ERR_NULL;
    ensures size: opts != \null && st != \null && pol != \null &&
                  (m == 0 || m > NSM_OUTCOME_MAX_M) ==> \result == NSM_ERR_SIZE;
    ensures arg: opts != \null && st != \null && pol != \null &&
                 1 <= m <= NSM_OUTCOME_MAX_M &&
                 (opts->nsamples == 0 || opts->hold == 0) ==> \result == NSM_ERR_ARG;
    ensures ok: \result == NSM_OK ==>
                (pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY ||
                 pol->kind == NSM_POLICY_SIMULTANEOUS || pol->kind == NSM_POLICY_EXTREMAL ||
                 pol->kind == NSM_POLICY_BANGBANG || pol->kind == NSM_POLICY_SCHEDULE ||
                 pol->kind == NSM_POLICY_MOREAU) &&
                pol->order == &st->order[0] && pol->ratios == &st->ratios[0] &&
                pol->dir == &st->dir[0] && pol->dwell == &st->dwell[0] && pol->hold >= 1 &&
                (pol->kind == NSM_POLICY_SCHEDULE ==> pol->hold <= 8) &&
                \forall integer i; 0 <= i < m ==> st->order[i] < m && st->ratios[i] > 0;
    ensures status: \result == NSM_OK || \result == NSM_ERR_NULL || \result == NSM_ERR_SIZE ||
                    \result == NSM_ERR_ARG || \result == NSM_ERR_ALIAS;
 */
nsm_status nsm_outcome_policy(size_t m, const nsm_outcome_opts *opts, size_t r,
                              nsm_policy_store *st, nsm_impact_policy *pol);

/**
 * The policy of plane run j of nsm_outcome_set (run base + j of the set, base the number of
 * its base runs, j < NSM_OUTCOME_PLANE_DIRS·nplanes; nplanes and planes those of the set's
 * options, opts its impact options; opts = NULL: NSM_IMPACT_OPTS_DEFAULT, only
 * opts->steps is read, for the hold): pol->kind = NSM_POLICY_EXTREMAL_V, pol->hold the
 * extremal runs' hold, pol->vdir = vdir = a·p + b·q (n entries) with p, q rows 2i and 2i + 1
 * of planes, i = j / NSM_OUTCOME_PLANE_DIRS, and (a, b) the lattice direction
 * j mod NSM_OUTCOME_PLANE_DIRS of NSM_OUTCOME_PLANE_DIRS. Solving with it repeats that run.
 * Errors (nothing written): NSM_ERR_NULL; NSM_ERR_SIZE (n = 0 or n > NSM_MAX_DIM); NSM_ERR_ARG
 * (nplanes = 0 or > NSM_OUTCOME_MAX_PLANES, j >= NSM_OUTCOME_PLANE_DIRS·nplanes);
 * NSM_ERR_ALIAS (any two of planes, vdir, pol overlap).
 */
/*@ requires valid: planes == \null || n == 0 || n > NSM_MAX_DIM || nplanes == 0 ||
                    nplanes > NSM_OUTCOME_MAX_PLANES ||
                    \valid_read(planes + (0 .. 2 * nplanes * n - 1));
    requires valid_vdir: vdir == \null || n == 0 || n > NSM_MAX_DIM ||
                         \valid(vdir + (0 .. n - 1));
    requires valid_pol: pol == \null || \valid(pol);
    requires valid_opts: opts == \null || \valid_read(opts);
    requires sep: vdir == \null || pol == \null || n == 0 || n > NSM_MAX_DIM ||
                  \separated(pol, vdir + (0 .. n - 1));
    assigns *pol, vdir[0 .. n - 1];
    ensures null: (planes == \null || vdir == \null || pol == \null) ==> \result == NSM_ERR_NULL;
    ensures ok: \result == NSM_OK ==> pol->kind == NSM_POLICY_EXTREMAL_V && pol->vdir == vdir &&
                pol->hold >= 1;
    ensures status: \result == NSM_OK || \result == NSM_ERR_NULL || \result == NSM_ERR_SIZE ||
                    \result == NSM_ERR_ARG || \result == NSM_ERR_ALIAS;
 */
nsm_status nsm_outcome_plane_policy(size_t n, size_t nplanes, const double *planes,
                                    const nsm_impact_opts *opts, size_t j, double *vdir,
                                    nsm_impact_policy *pol);

/**
 * The run nsm_outcome_set(prob, opts, ...) makes after run r (r < nsm_outcome_count(prob->m,
 * opts)), for a caller that makes the set's runs itself (nsm_outcome_policy,
 * nsm_outcome_plane_policy, nsm_impact_solve): given the rows made so far, in order,
 * v_plus[0 .. rows·n - 1] and status[0 .. rows - 1] (the last is run r's), *next is r + 1,
 * or the first run after r's sampled family when run r ends a round that reaches no further
 * than opts->hull_tol (nsm_outcome_set); the set is complete when *next =
 * nsm_outcome_count(prob->m, opts). Of *prob, n, m, d, Jn and Jt are read; of *opts,
 * nsamples, nplanes, planes and hull_tol.
 * Errors (nothing written): NSM_ERR_NULL (prob, opts, v_plus, status, next, Jn, Jt, or planes
 * with nplanes > 0); NSM_ERR_SIZE (n = 0 or > NSM_MAX_DIM, m = 0 or > NSM_OUTCOME_MAX_M);
 * NSM_ERR_ARG (d not 1 or 2, nsamples = 0 or > 10^6, nplanes > NSM_OUTCOME_MAX_PLANES,
 * hull_tol not in [0, 1], r beyond the last run, rows = 0, rows > r + 1 or rows > 10^6).
 */
/*@ requires valid_prob: prob == \null || nsm_contact_problem_readable(prob);
    requires valid_opts: opts == \null || prob == \null ||
                         nsm_outcome_opts_readable(opts, prob->n);
    requires valid_rows: v_plus == \null || prob == \null || rows == 0 || rows > 1000000 ||
                         prob->n > NSM_MAX_DIM || \valid_read(v_plus + (0 .. rows * prob->n - 1));
    requires valid_status: status == \null || rows == 0 || rows > 1000000 ||
                           \valid_read(status + (0 .. rows - 1));
    requires valid_next: next == \null || \valid(next);
    assigns *next;
    ensures null: (prob == \null || opts == \null || v_plus == \null || status == \null ||
                   next == \null) ==> \result == NSM_ERR_NULL;
    ensures ok: \result == NSM_OK ==>
                r + 1 <= *next <= nsm_outcome_nbase(prob->m, opts->nsamples) +
                                  NSM_OUTCOME_PLANE_DIRS * opts->nplanes;
    ensures status: \result == NSM_OK || \result == NSM_ERR_NULL || \result == NSM_ERR_SIZE ||
                    \result == NSM_ERR_ARG;
 */
nsm_status nsm_outcome_next(const nsm_contact_problem *prob, const nsm_outcome_opts *opts,
                            size_t r, size_t rows, const double *v_plus,
                            const nsm_status *status, size_t *next);

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_OUTCOME_H */
