/*
 * nsmech/impact.h — several frictional contacts with zero restitution: the multi-contact
 * differential inclusion of [I] eqs. 15-18 (docs/math.md (I4)-(I6)), integrated along the
 * accumulated normal impulse with weights chosen by a policy, and its a priori termination
 * bound (docs/math.md (I5), (I6)). Planar (d = 1) and spatial (d = 2) contacts.
 *
 * Functional clauses are stated in the exact-real model of the proofs (doubles read as reals);
 * the IEEE behaviour is established by the tests.
 */
#ifndef NSMECH_IMPACT_H
#define NSMECH_IMPACT_H

#include <stddef.h>
#include "nsmech/base.h"
#include "nsmech/setvalued.h"
#include "nsmech/contact.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Problem data: n generalized velocities, m contacts with tangent dimension d (1 planar,
 * 2 spatial); M (n×n, SPD), Jn (m×n: row c is J_n,c), Jt (m·d×n: rows c·d .. c·d + d - 1 are
 * J_t,c, contact by contact), mu (m friction coefficients >= 0), v_minus (n).
 * Impulses are stored per contact as (t, n) (d = 1) or (t1, t2, n) (d = 2): Lambda has (d+1)m
 * entries, Lambda[(d+1)c + d] the normal impulse of contact c.
 *
 * The integrator works in impulse space with the Delassus matrix W = J M^-1 J^T (from linalg's
 * Cholesky; internally three slots per contact, the t2 slot exactly zero when d = 1). Along
 * the impulse s (accumulated normal impulse) it chooses weights w_c >= 0, sum w_c = 1, on the
 * penetrating contacts (u_n,c < -ntol) by the policy; friction per contact follows Routh's
 * rule: slipping (|u_t| > ztol), rate -mu·u_t/|u_t|; at rest, stick at rate -W_tt^-1 W_tn of
 * the contact's own block if that is within the cone, else slip along the direction s with
 * W_tn = (alpha I + mu W_tt) s, alpha > 0 (d = 1: sign(W_tn)); when W_tt is singular (its
 * tangent rows dependent, e.g. one of them zero) u_t moves on a line only, and the planar rule
 * applies along it.
 * Simultaneous, sampled, priority and Moreau runs also hold contacts at rest (docs/math.md,
 * "Contacts at rest: sliding and joint stick"): a contact without policy weight at
 * |u_n| <= ntol that the others would push back into penetration carries the weight that
 * keeps its u_n constant (a sliding mode), and the contacts with weight at tangential rest
 * get joint stick rates (within their cones: intervals for d = 1, discs for d = 2) that keep
 * u_t = 0 together, instead of their own blocks' rates; found by projected Gauss-Seidel, with
 * the per-contact rules above as the fallback for a segment where the sweeps do not converge
 * (for d = 2 they are found again at every Runge–Kutta stage, below, and with
 * opts.slip_rest > 0 a slip below that share of a step's friction counts as rest: where the
 * joint stick rates of a rigid foot's other corners hold a slip still, it would otherwise be
 * followed in segments of hmin to the end). Sequential, bang-bang,
 * extremal and schedule runs keep the per-contact rules. Each step is a straight segment
 * of length min(h, next event), events being a penetrating contact reaching u_n = 0 or a
 * slipping one reaching u_t = 0 (d = 2: the closest approach of the segment, where u_t is then
 * set to 0). For d = 1 every step is an exact piece of a solution for the chosen weights; for
 * d = 2 the slip direction rotates: a segment turns it by a bounded angle and takes the
 * classical Runge–Kutta average of the rates over its stages (fourth order in h away from
 * events; an event is located again on the segment of the stages over the shorter length),
 * and a slip stops only where the segment heads into rest. Events closer than
 * hmin = h/NSM_IMPACT_MIN_STEP_RATIO are stepped over (segment hmin), which bounds the number
 * of steps even where events accumulate (Zeno-like alternation), except for a run's first
 * NSM_IMPACT_EXACT_SHORT (sequential), NSM_IMPACT_EXACT_SHORT_EXPLORE_SPATIAL (the other
 * policies, d = 2) or NSM_IMPACT_EXACT_SHORT_EXPLORE (bang-bang and schedule runs, d = 1)
 * short segments (for d = 2 also at most NSM_IMPACT_EXACT_SHORT_PER_STEP per step of h,
 * NSM_IMPACT_EXACT_SHORT_PER_STEP_EXPLORE for bang-bang, extremal and schedule runs and for
 * sequential ones with opts.slip_rest > 0, so
 * that with a bound a spatial run takes at most opts.steps·(NSM_IMPACT_MIN_STEP_RATIO +
 * NSM_IMPACT_EXACT_SHORT_PER_STEP) + 1 steps): in sequential, bang-bang and schedule runs the events of the contact
 * acting (and a schedule phase's end) are located exactly, so that the tail of two contacts
 * pushing each other back, which converges geometrically when a bound exists, is integrated
 * exactly instead of to first order in hmin (the extremal rules may keep switching among
 * three contacts without end: they keep stepping over); for d = 2 every run follows each
 * weighted contact's slip into rest in segments however short, stopping only where it heads
 * into rest to within 1e-6 of |u_t|, and the runs that hold contacts locate a contact
 * reaching u_n = 0 exactly (from there it is held); a segment shortened by its turn bound
 * that moves no contact velocity by more than 4 ulps ends that following for the run (its
 * events are stepped over from there).
 * For d = 2, where one contact acts alone (sequential, bang-bang, extremal and schedule runs)
 * and its slip turns, the segment is a slip arc instead (docs/math.md (I12)): that contact's
 * three velocities integrated along the slip, in substeps of at most h of impulse within the
 * same turn bound, to its events located exactly (its slip stopping, u_n = 0, the segment's
 * end); an arc ending at an event closer than hmin that the run steps over is not taken.
 * It stops when no contact penetrates.
 * Where the policy's weights stay the same for k steps (sequential, priority and simultaneous
 * runs until an event; the rest of a bang-bang dwell, of a sampled hold or of an extremal
 * hold; schedule runs until an event or the end of a phase's dwell, which is an event too,
 * stepped over at hmin when closer than that), one segment covers them for d = 1, and for
 * d = 2 where one contact acts alone: length min(k·h, next event), counted as the steps it
 * covers (all k, or those up to and including the one its event falls in), so that
 * res->info.steps still counts steps of h. Such a segment is one step long while a contact
 * without weight sits at normal rest with u_n decreasing (the policy sees it penetrate after
 * one step, as before), or when joint stick or held rates were taken (their Gauss–Seidel
 * solution is refined from one step to the next). The motion is linear in s between events
 * (d = 1; for d = 2 an arc follows it),
 * so a longer segment is the same piece of the solution.
 *
 * Termination bound, computed before integrating (docs/math.md (I5), (I6)):
 *   m = 1, d = 1: [I] Lemma 2 (nsm_routh_bound);
 *   otherwise: s <= 2‖v_-‖_M / gamma, gamma = min ‖J^T Lambda‖_{M^-1} over the slice of the product
 *          of friction cones with sum Lambda_n = 1; a certified lower bound on gamma comes from
 *          Frank–Wolfe on min Lambda^T W Lambda over the slice (f(Lambda_k) - duality gap_k is a
 *          lower bound on the minimum, exactly, in real arithmetic). Frank–Wolfe runs
 *          opts.fw_iters iterations, then keeps doubling that budget while its duality gap
 *          shrinks by a quarter per doubling, up to 64 times the budget and 10^6 iterations
 *          (or the budget, if larger).
 * Both are multiplied by 1 + NSM_BOUND_RTOL. The step is h = bound/opts.steps; every segment
 * but the (at most NSM_IMPACT_EXACT_SHORT) short ones of the contact acting adds at least
 * hmin to s, so at most step_cap = opts.steps·NSM_IMPACT_MIN_STEP_RATIO + 1 +
 * NSM_IMPACT_EXACT_SHORT steps fit under the bound: that cap bounds the loop.
 * If s exceeds the bound: NSM_ERR_BOUND. If no positive lower bound on gamma is certified,
 * the documented fallback is to integrate with h = s_ref/opts.steps, s_ref = sum over
 * penetrating contacts of -u_n,c/W_nn,c (their frictionless impulses), for at most
 * opts.fallback_steps steps; the outputs are written (res->info.terminated says whether the
 * impact ended) and the status says why there was no bound: NSM_ERR_NO_BOUND when Frank–
 * Wolfe reached a point of the slice with Lambda^T W Lambda <= 1e-12·max_c W_nn,c (gamma is
 * 0 to that tolerance: the contacts may wedge), NSM_ERR_NOT_CERTIFIED otherwise (gamma > 0
 * was not certified within the iterations; a larger opts.fw_iters may certify it; for one
 * planar contact, Lemma 2 did not give a bound).
 */

/** Segments shorter than hmin that a sequential run still takes, those of the contact acting
    (its events, and for d = 2 its slip coming to rest); after them, events are stepped over. */
#define NSM_IMPACT_EXACT_SHORT 100000u

/** The same count for bang-bang and schedule runs (the outcome set's exploration runs: a bound
    on their cost where a tail accumulates), d = 1. */
#define NSM_IMPACT_EXACT_SHORT_EXPLORE 2000u

/** The same for every run but sequential ones with d = 2, where a slip coming to rest takes
    tens of short segments where a planar event takes one (docs/math.md, "Spatial slips to
    1e-6"). */
#define NSM_IMPACT_EXACT_SHORT_EXPLORE_SPATIAL 20000u

/** For d = 2 a run's short segments are also at most this many per step of h (opts.steps):
    each costs Runge–Kutta stages and, in the runs that hold contacts, joint solves, so a
    coarse run pays for them in proportion to its steps. */
#define NSM_IMPACT_EXACT_SHORT_PER_STEP 25u

/** The per-step count of bang-bang, extremal and schedule runs (d = 2): on a humanoid's two
    feet the tails of corners pushing each other back took schedule runs 3.7 times their
    steps; past this count they are stepped over (an error of order hmin: 1.6e-4 of |v-|
    there). */
#define NSM_IMPACT_EXACT_SHORT_PER_STEP_EXPLORE 1u

/** Selection policy of the multi-contact integrator. */
typedef enum nsm_policy_kind {
    NSM_POLICY_SEQUENTIAL = 0,   /**< one contact at a time: the first penetrating contact of
                                      `order` is resolved until u_n = 0, then the next */
    NSM_POLICY_SIMULTANEOUS = 1, /**< weights proportional to `ratios` on penetrating contacts
                                      (contacts at rest are held, see above) */
    NSM_POLICY_SAMPLED = 2,      /**< pseudo-random weights from `seed`, held for `hold` steps
                                      (contacts at rest are held, see above) */
    NSM_POLICY_PRIORITY = 3,     /**< the first penetrating contact of `order` acts alone; d = 1:
                                      a contact ahead in the order that is at rest is held there
                                      (sliding) while the next ones act; d = 2: it is not held,
                                      re-penetrates and acts again */
    NSM_POLICY_BANGBANG = 4,     /**< bang-bang: one penetrating contact acts alone, drawn
                                      uniformly from `seed`'s generator; it acts for a dwell
                                      drawn uniformly in 1 .. `hold` steps or until it stops
                                      penetrating, then the next one is drawn; no contact is
                                      held (docs/math.md, "Exploring the set") */
    NSM_POLICY_EXTREMAL = 5,     /**< extremal: the penetrating contact whose own Coulomb rate
                                      raises dirᵀ(J v) fastest acts alone (the first of equal
                                      rates), while it penetrates, for `hold` steps; then the
                                      rule chooses again: a switching rule that drives dirᵀ(J v+)
                                      up (docs/math.md, "Exploring the set"); no contact is
                                      held */
    NSM_POLICY_EXTREMAL_V = 6,   /**< extremal in the generalized velocities: as EXTREMAL, with
                                      the direction `vdir` of v instead of dir of J v: the rule
                                      drives vdirᵀv+ up (a user's objective, e.g. the forward
                                      speed after touchdown; the outcome set's fan over the
                                      caller's projection planes) */
    NSM_POLICY_SCHEDULE = 7,     /**< an explicit bang-bang schedule: the m phases are run
                                      `hold` times (cycles); in each cycle, phase k = 0 .. m-1,
                                      contact order[k] acts alone for dwell[k]·S of normal
                                      impulse or until it stops penetrating, whichever comes
                                      first (a phase whose contact does not penetrate when it
                                      starts, or with dwell[k] = 0, is skipped); then
                                      sequentially in `order`. S = max over the contacts penetrating at v_- of
                                      -u_n,c / W_nn,c, the impact's impulse scale (ratios
                                      beyond the double range left out; 1 if none is left);
                                      dwell[k] = INFINITY runs phase k to rest; a dwell whose
                                      dwell[k]·S underflows to 0 is skipped. A dwell end is an
                                      event (closer than hmin: stepped over, a forced
                                      segment). No contact is held
                                      (docs/math.md, "Exploring the set") */
    NSM_POLICY_MOREAU = 8        /**< simultaneous, with ratios equal to the normal impulses
                                      of Moreau's impulse (0 <= u+_n ⊥ P_n >= 0, Coulomb's law
                                      on the post-impact slip: a Moreau–Jean time-stepper's
                                      answer), found by projected Gauss–Seidel from the
                                      problem (docs/math.md (I13)); each ratio at least 1e-12
                                      of the largest. Where a constant-ratio history reaches
                                      Moreau's v+, this run does. No array is read */
} nsm_policy_kind;

/** Most cycles of a schedule (NSM_POLICY_SCHEDULE's `hold`). */
#define NSM_SCHEDULE_MAX_CYCLES 1000000u

/** Largest seed state of the in-library generator (Park–Miller, modulus 2^31 - 1). */
#define NSM_PRNG_MOD 2147483647u

/** A selection policy. Unused fields may be anything (pointers may be NULL). */
typedef struct nsm_impact_policy {
    nsm_policy_kind kind;
    const size_t *order;  /**< SEQUENTIAL, PRIORITY, SCHEDULE: a permutation of 0 .. m-1 */
    const double *ratios; /**< SIMULTANEOUS: m positive finite ratios */
    unsigned long seed;   /**< SAMPLED, BANGBANG: the weight history is a function of the
                               seed only */
    size_t hold;          /**< SAMPLED: steps a drawn weight vector is kept; BANGBANG: the
                               longest dwell in steps; EXTREMAL: steps between choices;
                               SCHEDULE: cycles through the phases, at most
                               NSM_SCHEDULE_MAX_CYCLES (>= 1 for all four) */
    const double *dir;    /**< EXTREMAL: 3m finite entries, (t1, t2, n) per contact whatever
                               d is (d = 1 ignores t2): a direction in the space of the contact
                               velocities J v */
    const double *vdir;   /**< EXTREMAL_V: n finite entries, a direction in the space of the
                               generalized velocities v (after the fields above, so that
                               initialisers written before it leave it NULL) */
    const double *dwell;  /**< SCHEDULE: m dwells, each >= 0 and not NaN (INFINITY allowed), in
                               units of the impulse scale S (last, as vdir) */
} nsm_impact_policy;

/** Options; NSM_IMPACT_OPTS_DEFAULT gives the documented defaults. */
typedef struct nsm_impact_opts {
    size_t steps;          /**< full steps across the bound (h = bound/steps), 1 .. 10^6 */
    double ztol;           /**< |u_t| <= ztol counts as rest (>= 0) */
    double ntol;           /**< a contact penetrates when u_n < -ntol (>= 0) */
    double vtol;           /**< final check: J_n,c v_+ >= -max(vtol·(1 + max_c |J_n,c v_-|), ntol) */
    size_t fw_iters;       /**< Frank–Wolfe iteration budget for gamma (m > 1), 1 .. 10^6;
                                extended while the duality gap shrinks (see above) */
    size_t fallback_steps; /**< step cap when no bound exists, 1 .. 10^8 */
    double slip_rest;      /**< d = 2, runs that hold contacts (simultaneous, sampled,
                                priority, Moreau): a slip below slip_rest·h·rho counts as rest
                                too (a penetrating contact's slip stops where it enters that
                                disc), rho = max_c mu_c·(W_t1t1 + W_t2t2)/2 (what a contact's
                                own friction at full weight moves its slip per unit of normal
                                impulse); 0 .. 1, 0: ztol only (the default; the sets use
                                NSM_OUTCOME_SLIP_REST). With d = 2 and slip_rest > 0 a
                                sequential run has the exploring runs' budget of short
                                segments, NSM_IMPACT_EXACT_SHORT_PER_STEP_EXPLORE per step of
                                h over the run: a longer Zeno tail is stepped over */
} nsm_impact_opts;

/** Defaults: 2000 steps, ztol 1e-12, ntol 1e-12, vtol 1e-9, 5000 FW iterations, 10^6 fallback,
    slip_rest 0. */
#define NSM_IMPACT_OPTS_DEFAULT NSM_IMPACT_OPTS_REST(0.0)

/** The defaults with slip_rest = x (the sets' NSM_OUTCOME_OPTS_DEFAULT). */
#define NSM_IMPACT_OPTS_REST(x) {2000u, 1e-12, 1e-12, 1e-9, 5000u, 1000000u, x}

/** What the integrator did. */
typedef struct nsm_impact_info {
    double s;            /**< total normal impulse sum_c Lambda_n,c */
    double bound;        /**< a priori bound on s (0 when none) */
    double gamma_lb;     /**< certified lower bound on gamma (m > 1; 0 when m = 1 or none) */
    double fw_gap;       /**< last Frank–Wolfe duality gap (m > 1) */
    double energy_minus; /**< ½ v_-^T M v_- */
    double energy_plus;  /**< ½ v_+^T M v_+ */
    double check_tol;    /**< tolerance of the final check J_n,c v_+ >= -check_tol */
    size_t steps;        /**< steps taken */
    size_t step_cap;     /**< cap on the steps (from the bound, or the fallback) */
    size_t forced;       /**< segments lengthened to hmin (events stepped over) */
    int has_bound;       /**< 1 if the bound was certified */
    int terminated;      /**< 1 if no contact is left penetrating */
} nsm_impact_info;

/** Workspace (doubles) for nsm_impact_solve (d = 1 or 2):
    n² + 6mn + 9m² + 26m + n. 0 if n or m is 0, n > NSM_MAX_DIM, 3m > NSM_MAX_DIM, or the
    workspace would exceed NSM_MAX_DIM² doubles (the solvers then return NSM_ERR_SIZE). */
/*@ logic integer nsm_impact_need(integer n, integer m) =
        n * n + 6 * m * n + 9 * m * m + 26 * m + n;
 */
/*@ assigns \nothing;
    ensures fits: \result <= NSM_MAX_DIM * NSM_MAX_DIM;
    ensures value: \result == 0 ||
              (1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM &&
               \result == nsm_impact_need(n, m));
    ensures exact: 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM &&
                   nsm_impact_need(n, m) <= NSM_MAX_DIM * NSM_MAX_DIM ==>
                   \result == nsm_impact_need(n, m);
    ensures sizes: !(1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM) ==> \result == 0;
 */
size_t nsm_impact_work(size_t n, size_t m);

/** Problem data of nsm_impact_solve and nsm_outcome_set (see above): n generalized
    velocities, m contacts with tangent dimension d (1 planar, 2 spatial); M n×n, Jn m×n,
    Jt (d·m)×n, mu m, v_minus n, all read only. A struct of pointers: the arrays stay the
    caller's. */
typedef struct nsm_contact_problem {
    size_t n;               /**< generalized velocities */
    size_t m;               /**< contacts */
    size_t d;               /**< tangent dimension: 1 planar, 2 spatial */
    const double *M;        /**< n×n, SPD */
    const double *Jn;       /**< m×n: row c is J_n,c */
    const double *Jt;       /**< (d·m)×n: rows c·d .. c·d + d - 1 are J_t,c */
    const double *mu;       /**< m friction coefficients >= 0 */
    const double *v_minus;  /**< n: the pre-impact velocity */
} nsm_contact_problem;

/*@ // The problem struct readable, and each non-NULL array of it readable for its extent; a
    // size beyond NSM_MAX_DIM (or a d other than 1 or 2, for Jt) excuses the arrays it sizes:
    // the entry points reject such sizes before reading them.
    predicate nsm_contact_problem_readable(nsm_contact_problem *p) =
      \valid_read(p) &&
      (p->M == \null || p->n > NSM_MAX_DIM || \valid_read(p->M + (0 .. p->n * p->n - 1))) &&
      (p->Jn == \null || p->n > NSM_MAX_DIM || p->m > NSM_MAX_DIM ||
       \valid_read(p->Jn + (0 .. p->m * p->n - 1))) &&
      (p->Jt == \null || p->n > NSM_MAX_DIM || p->m > NSM_MAX_DIM ||
       (p->d != 1 && p->d != 2) || \valid_read(p->Jt + (0 .. p->d * p->m * p->n - 1))) &&
      (p->mu == \null || p->m > NSM_MAX_DIM || \valid_read(p->mu + (0 .. p->m - 1))) &&
      (p->v_minus == \null || p->n > NSM_MAX_DIM ||
       \valid_read(p->v_minus + (0 .. p->n - 1)));

    // No pointer of the problem is NULL.
    predicate nsm_contact_problem_nonnull(nsm_contact_problem *p) =
      p->M != \null && p->Jn != \null && p->Jt != \null && p->mu != \null &&
      p->v_minus != \null;

    // The policy readable, and the array its kind reads readable for its extent when non-NULL
    // (n, m of the problem it is used with).
    predicate nsm_impact_policy_readable(nsm_impact_policy *pol, integer n, integer m) =
      \valid_read(pol) &&
      ((pol->kind != NSM_POLICY_SEQUENTIAL && pol->kind != NSM_POLICY_PRIORITY &&
        pol->kind != NSM_POLICY_SCHEDULE) ||
       pol->order == \null || m > NSM_MAX_DIM || \valid_read(pol->order + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_SIMULTANEOUS || pol->ratios == \null || m > NSM_MAX_DIM ||
       \valid_read(pol->ratios + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_EXTREMAL || pol->dir == \null || m > NSM_MAX_DIM ||
       \valid_read(pol->dir + (0 .. 3 * m - 1))) &&
      (pol->kind != NSM_POLICY_EXTREMAL_V || pol->vdir == \null || n > NSM_MAX_DIM ||
       \valid_read(pol->vdir + (0 .. n - 1))) &&
      (pol->kind != NSM_POLICY_SCHEDULE || pol->dwell == \null || m > NSM_MAX_DIM ||
       \valid_read(pol->dwell + (0 .. m - 1)));
 */

/** Result of nsm_impact_solve: the caller's output arrays (inputs: the pointers are read)
    and what the integrator did (written). */
typedef struct nsm_impact_result {
    double *v_plus;        /**< n: the post-impact velocity */
    double *Lambda;        /**< (d+1)m: the impulses, (t, n) or (t1, t2, n) per contact */
    nsm_impact_info info;  /**< what the integrator did (by value) */
} nsm_impact_result;

/*@ // The result struct writable, and its non-NULL arrays writable for their extents
    // (sizes from the problem *p; excused as in nsm_contact_problem_readable).
    predicate nsm_impact_result_writable(nsm_contact_problem *p, nsm_impact_result *r) =
      \valid(r) &&
      (r->v_plus == \null || p->n > NSM_MAX_DIM || \valid(r->v_plus + (0 .. p->n - 1))) &&
      (r->Lambda == \null || p->m > NSM_MAX_DIM || (p->d != 1 && p->d != 2) ||
       \valid(r->Lambda + (0 .. (p->d + 1) * p->m - 1)));

    // What nsm_impact_solve writes does not overlap the structs it reads: *r (of which only
    // info is written) is separated from *p, *pol, *opts, the work and the output arrays; *p
    // from the work and the output arrays. (Overlaps among the arrays, the policy's arrays
    // and the options are checked at run time: NSM_ERR_ALIAS.)
    predicate nsm_impact_separated(nsm_contact_problem *p, nsm_impact_policy *pol,
                                   nsm_impact_opts *opts, nsm_impact_result *r,
                                   double *work, integer lwork) =
      \separated(r, p) &&
      (pol == \null || \separated(r, pol)) &&
      (opts == \null || \separated(r, opts)) &&
      (work == \null || lwork == 0 ||
       (\separated(r, work + (0 .. lwork - 1)) && \separated(p, work + (0 .. lwork - 1)))) &&
      (r->v_plus == \null || p->n > NSM_MAX_DIM ||
       (\separated(r, r->v_plus + (0 .. p->n - 1)) &&
        \separated(p, r->v_plus + (0 .. p->n - 1)))) &&
      (r->Lambda == \null || p->m > NSM_MAX_DIM || (p->d != 1 && p->d != 2) ||
       (\separated(r, r->Lambda + (0 .. (p->d + 1) * p->m - 1)) &&
        \separated(p, r->Lambda + (0 .. (p->d + 1) * p->m - 1))));

    // Every pointer nsm_impact_solve needs is non-NULL.
    predicate nsm_impact_nonnull(nsm_contact_problem *p, nsm_impact_policy *pol,
                                 nsm_impact_result *r, double *work) =
      p != \null && r != \null && nsm_contact_problem_nonnull(p) && pol != \null &&
      r->v_plus != \null && r->Lambda != \null && work != \null;
 */

/**
 * Integrates the impact of the problem *prob (m contacts with tangent dimension d, 1 or 2)
 * with the given policy. On NSM_OK: res->v_plus (n) is the post-impact velocity, res->Lambda
 * ((d+1)m, see above) the impulses, res->info filled (below, v_plus, Lambda and info are
 * those fields of *res, n, m, d, M, Jn, ... those of *prob); every contact has
 * J_n,c v_plus >= -info.check_tol, checked on v_plus as returned (check_tol =
 * max(vtol·(1 + max_c |J_n,c v_-|), ntol)) by a sound test: the rounded product must clear
 * -check_tol by a bound of its rounding, so that this holds exactly for IEEE runs too (with
 * check_tol = 0 a contact ending at rest fails it: NSM_ERR_NO_CONVERGENCE); every Λ_c lies in
 * its friction cone (Λ_n >= 0, ‖Λ_t‖ <= μ_c Λ_n) exactly, checked on Lambda as returned by
 * nsm_cone_contains at tol = 0 (sound); in exact arithmetic every impulse rate is in its cone,
 * and an impulse that rounding left outside or on the boundary is moved just inside (by
 * 2^-44 of μ_cΛ_n; to 0 below 2^-1000) before v_plus is formed, so the check accepts it. Both
 * clauses hold in the real model of the proofs and for the IEEE computation. And info.s <=
 * info.bound. If v_minus does not penetrate any contact (all u_n,c >= -ntol): v_plus =
 * v_minus, Lambda = 0, s = 0 (the trivial answer), NSM_OK.
 * Errors: NSM_ERR_NULL, NSM_ERR_SIZE (n, m, or workspace beyond NSM_MAX_DIM²), NSM_ERR_ARG
 * (d not 1 or 2, options, policy, mu < 0), NSM_ERR_NOT_FINITE, NSM_ERR_NOT_SPD (M not
 * symmetric or not positive definite), NSM_ERR_ALIAS (outputs overlap inputs, each other or
 * the first nsm_impact_work(n, m) doubles of work; v_plus, Lambda or work over *pol; info
 * over any other argument, pol and opts included; pol->order, pol->ratios, pol->dir,
 * pol->vdir and pol->dwell count only for the kind that reads them), NSM_ERR_WORKSPACE,
 * NSM_ERR_OVERFLOW (finite data whose energy ½ v_-^T M v_-, Delassus matrix W, contact
 * velocities J v_- or final-check tolerance check_tol (a huge vtol) exceed the double range;
 * checked before the trivial answer, so it is returned even when nothing penetrates) —
 * nothing written but work;
 * NSM_ERR_BOUND (s exceeded the bound), NSM_ERR_NO_CONVERGENCE (step cap reached, or the final
 * check failed) — v_plus, Lambda and info written; NSM_ERR_NO_BOUND, NSM_ERR_NOT_CERTIFIED —
 * see above;
 * NSM_ERR_OVERFLOW also when a result (v_plus, Lambda, or a real field of info) is not finite
 * — v_plus, Lambda and info written as computed. It takes precedence over NSM_ERR_BOUND,
 * NSM_ERR_NO_CONVERGENCE, NSM_ERR_NO_BOUND and NSM_ERR_NOT_CERTIFIED.
 * opts = NULL means NSM_IMPACT_OPTS_DEFAULT.
 * The structs: NSM_ERR_NULL also for prob or res NULL, or a NULL array in them; NSM_ERR_ALIAS
 * also when *res (the whole struct) overlaps *prob, *pol, *opts, an array of *prob or *res,
 * the array of *pol its kind reads or the first nsm_impact_work(n, m) doubles of work
 * (checked after NSM_ERR_SIZE and NSM_ERR_WORKSPACE, before the other checks). The contract requires those separations of the structs
 * (nsm_impact_separated: *res apart from *prob, *pol, *opts, the work and the output arrays;
 * *prob apart from the work and the output arrays): the run-time check is for callers that
 * are not proved.
 */
/*@ requires valid_prob: prob == \null || nsm_contact_problem_readable(prob);
    requires valid_pol: pol == \null || prob == \null ||
                        nsm_impact_policy_readable(pol, prob->n, prob->m);
    requires valid_opts: opts == \null || \valid_read(opts);
    requires valid_res: res == \null || prob == \null || nsm_impact_result_writable(prob, res);
    requires valid_work: work == \null || lwork == 0 || \valid(work + (0 .. lwork - 1));
    requires sep: prob == \null || res == \null ||
                  nsm_impact_separated(prob, pol, opts, res, work, lwork);
    assigns res->info, res->v_plus[0 .. prob->n - 1],
            res->Lambda[0 .. (prob->d + 1) * prob->m - 1], work[0 .. lwork - 1];
    behavior null_arg:
      assumes !nsm_impact_nonnull(prob, pol, res, work);
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_dim:
      assumes nsm_impact_nonnull(prob, pol, res, work);
      assumes prob->d != 1 && prob->d != 2;
      assigns \nothing;
      ensures \result == NSM_ERR_ARG;
    behavior bad_size:
      assumes nsm_impact_nonnull(prob, pol, res, work);
      assumes prob->d == 1 || prob->d == 2;
      assumes prob->n == 0 || prob->n > NSM_MAX_DIM || prob->m == 0 ||
              3 * prob->m > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes nsm_impact_nonnull(prob, pol, res, work);
      assumes prob->d == 1 || prob->d == 2;
      assumes 1 <= prob->n <= NSM_MAX_DIM && 1 <= prob->m && 3 * prob->m <= NSM_MAX_DIM;
      ensures short_work: nsm_impact_need(\old(prob->n), \old(prob->m)) <=
                          NSM_MAX_DIM * NSM_MAX_DIM &&
                          lwork < nsm_impact_need(\old(prob->n), \old(prob->m)) ==>
                          \result == NSM_ERR_WORKSPACE;
      ensures info_steps: \result == NSM_OK ==> res->info.steps <= res->info.step_cap;
      ensures separating: \result == NSM_OK ==>
                nsm_rows_sep(prob->Jn, res->v_plus, prob->m, prob->n, res->info.check_tol);
      ensures bound: \result == NSM_OK ==> res->info.s <= res->info.bound;
      ensures cones: \result == NSM_OK ==> \forall integer c; 0 <= c < prob->m ==>
                nsm_in_cone_tol(prob->d, prob->mu[c], 0.0,
                                res->Lambda[(prob->d + 1) * c + prob->d],
                                res->Lambda + (prob->d + 1) * c);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_impact_solve(const nsm_contact_problem *prob, const nsm_impact_policy *pol,
                            const nsm_impact_opts *opts, nsm_impact_result *res,
                            double *work, size_t lwork);

/**
 * Names the argument behind an argument error of nsm_impact_solve (m, d and mu those of the
 * problem struct), found by the solver's own checks in the solver's order:
 * "pol", "mu" (NULL: NSM_ERR_NULL, checked with the other pointers before anything else),
 * "d" (not 1 or 2: NSM_ERR_ARG), "m" (0 or 3m > NSM_MAX_DIM: NSM_ERR_SIZE), "opts.steps", "opts.fw_iters", "opts.fallback_steps", "opts.ztol", "opts.ntol",
 * "opts.vtol" (out of the ranges of nsm_impact_opts), "pol.order" (NULL: NSM_ERR_NULL; not a
 * permutation), "pol.ratios" (NULL: NSM_ERR_NULL; not finite: NSM_ERR_NOT_FINITE; not
 * positive), "pol.hold" (0; a schedule's above NSM_SCHEDULE_MAX_CYCLES), "pol.dir" (NULL: NSM_ERR_NULL; not finite: NSM_ERR_NOT_FINITE),
 * "pol.vdir" (NULL: NSM_ERR_NULL; its n entries are data, checked with v_minus: not finite,
 * NSM_ERR_NOT_FINITE), "pol.dwell" (NULL: NSM_ERR_NULL; an entry negative or NaN),
 * "pol.kind" (unknown), "mu" (negative or not finite: NSM_ERR_ARG);
 * NULL when all of these are in their domains (opts = NULL stands for the defaults, which
 * are). The string is static; nothing is written. Only the arguments given are examined: M,
 * Jn, Jt and v_minus have data errors (NSM_ERR_NOT_FINITE, NSM_ERR_NOT_SPD) of their own.
 */
/*@ requires valid_mu: mu == \null || m == 0 || 3 * m > NSM_MAX_DIM ||
                       \valid_read(mu + (0 .. m - 1));
    requires valid_pol: pol == \null || \valid_read(pol);
    requires valid_pol_order: pol == \null ||
                              (pol->kind != NSM_POLICY_SEQUENTIAL &&
                               pol->kind != NSM_POLICY_PRIORITY &&
                               pol->kind != NSM_POLICY_SCHEDULE) ||
                              pol->order == \null || m == 0 || 3 * m > NSM_MAX_DIM ||
                              \valid_read(pol->order + (0 .. m - 1));
    requires valid_pol_ratios: pol == \null || pol->kind != NSM_POLICY_SIMULTANEOUS ||
                               pol->ratios == \null || m == 0 || 3 * m > NSM_MAX_DIM ||
                               \valid_read(pol->ratios + (0 .. m - 1));
    requires valid_pol_dir: pol == \null || pol->kind != NSM_POLICY_EXTREMAL ||
                            pol->dir == \null || m == 0 || 3 * m > NSM_MAX_DIM ||
                            \valid_read(pol->dir + (0 .. 3 * m - 1));
    requires valid_pol_dwell: pol == \null || pol->kind != NSM_POLICY_SCHEDULE ||
                              pol->dwell == \null || m == 0 || 3 * m > NSM_MAX_DIM ||
                              \valid_read(pol->dwell + (0 .. m - 1));
    requires valid_opts: opts == \null || \valid_read(opts);
    assigns \result \from m, d, mu, pol, opts, mu[0 .. m - 1], *pol, *opts,
                        pol->order[0 .. m - 1], pol->ratios[0 .. m - 1],
                        pol->dwell[0 .. m - 1];
 */
const char *nsm_impact_arg_fault(size_t m, size_t d, const double *mu,
                                 const nsm_impact_policy *pol, const nsm_impact_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_IMPACT_H */
