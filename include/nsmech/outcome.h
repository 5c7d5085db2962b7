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

/** Largest m for which the outcome set enumerates every sequential order (m! of them). */
#define NSM_OUTCOME_MAX_ORDERS_M 6u

/** Choices of the outcome set's extremal runs across the bound: they choose every
    steps / NSM_OUTCOME_EXTREMAL_CHOICES steps (NSM_POLICY_EXTREMAL's hold, at least 1; 4 at
    the default 2000 steps), so that the rule's impulse spacing, not its step count, is fixed
    and the runs converge as the step shrinks. Choosing at every step made the rule alternate
    between contacts on every segment (ball stack: about 140 000 steps per run, 97 % forced;
    every 4 steps: 749 steps, 5 % forced). */
#define NSM_OUTCOME_EXTREMAL_CHOICES 500u

/** Number of runs of nsm_outcome_set: m! sequential orders + m! priority orders +
    1 simultaneous (equal ratios) + 8m² extremal directions + nsamples bang-bang histories +
    nsamples schedules; 0 when m = 0, m > NSM_OUTCOME_MAX_ORDERS_M or nsamples > 10^6. */
/*@ assigns \nothing;
    ensures 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M && nsamples <= 1000000 ==>
              1 <= \result <= 1729 + 2 * nsamples;
    ensures !(1 <= m <= NSM_OUTCOME_MAX_ORDERS_M && nsamples <= 1000000) ==> \result == 0;
 */
size_t nsm_outcome_count(size_t m, size_t nsamples);

/** Directions of the extremal fan in each of the caller's projection planes
    (nsm_outcome_set_proj): a·p + b·q for the 8 lattice directions (a, b) = (1, 0), (3, 1),
    (2, 1), (3, 2), (1, 1), (2, 3), (1, 2), (1, 3) turned by 0, 90, 180 and 270 degrees (gaps
    of at most 18.4 degrees). */
#define NSM_OUTCOME_PLANE_DIRS 32u

/** Most projection planes nsm_outcome_set_proj takes. */
#define NSM_OUTCOME_MAX_PLANES 64u

/** Number of runs of nsm_outcome_set_proj: nsm_outcome_count(m, nsamples) +
    NSM_OUTCOME_PLANE_DIRS·nplanes; 0 when nsm_outcome_count is 0 or nplanes >
    NSM_OUTCOME_MAX_PLANES. */
/*@ assigns \nothing;
    ensures 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M && nsamples <= 1000000 &&
            nplanes <= NSM_OUTCOME_MAX_PLANES ==>
              1 <= \result <= 1729 + 2 * nsamples + NSM_OUTCOME_PLANE_DIRS * nplanes;
    ensures !(1 <= m <= NSM_OUTCOME_MAX_ORDERS_M && nsamples <= 1000000 &&
              nplanes <= NSM_OUTCOME_MAX_PLANES) ==> \result == 0;
 */
size_t nsm_outcome_count_proj(size_t m, size_t nsamples, size_t nplanes);

/** Workspace (doubles) for nsm_outcome_set, nsm_outcome_set_d and nsm_outcome_set_proj:
    that of nsm_impact_solve plus 3m for Lambda (d = 1 or 2) and n for a plane direction,
    nsm_impact_work(n, m) + 3m + n; 0 if n or m is out of range (m >
    NSM_OUTCOME_MAX_ORDERS_M included) or the total would exceed NSM_MAX_DIM² (the outcome
    sets then return NSM_ERR_SIZE). */
/*@ assigns \nothing;
    ensures fits: \result <= NSM_MAX_DIM * NSM_MAX_DIM;
    ensures value: \result == 0 ||
              (1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M &&
               \result == nsm_impact_need(n, m) + 3 * m + n);
    ensures pos: \result == 0 || \result >= 3 * m + n + 1;
 */
size_t nsm_outcome_work(size_t n, size_t m);

/**
 * The outcome set of an impact: runs nsm_impact_solve with every sequential order (in
 * lexicographic order of the permutations), then with every priority order (same order), then
 * simultaneously with equal ratios, then with the extremal rule (NSM_POLICY_EXTREMAL, hold
 * opts->steps / NSM_OUTCOME_EXTREMAL_CHOICES, at least 1) for a fan of 8m² directions over the
 * 2m axes (t, n) of the contact velocities (each axis with both signs, then for each pair of axes a < b the four
 * diagonals ±a ±b; dir has the entry of axis t of contact c at 3c, of n at 3c + 2), then
 * with nsamples
 * bang-bang weight histories
 * (NSM_POLICY_BANGBANG; history j has seed seed + j and longest dwell 2^(j mod L) steps, L
 * the bit length of `hold`: the histories cycle through the dwell scales 1, 2, 4, ... up to
 * `hold` steps, so that long dwells reach the extremes of the set and short ones its
 * inside; docs/math.md, "Exploring the set"), then with nsamples schedules
 * (NSM_POLICY_SCHEDULE; schedule t takes the order of index t mod m! (lexicographic) and
 * Halton point k = t / m! + 1 + (seed mod 2^20) in m + 1 dimensions (another seed starts
 * further along the sequence), bases 2, 3, 5, 7, 11, 13, 17: for phase i
 * the dwell level floor(14·h_i) among 0 (skipped), 0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5,
 * 0.6, 0.8, 1, 1.3 and 1e300 (to rest) times S, and 2^floor(4·h_m) cycles (1, 2, 4 or 8):
 * phases that stop a contact short of rest, and contacts that take turns, which is where the
 * extremes of the set lie that every order and the fans miss).
 * kind[r] is the policy of run r. Run r writes v_plus[r·n .. r·n + n - 1], status[r] and kind[r], r < nsm_outcome_count(m,
 * nsamples) = *nruns; a run is accepted when its status is NSM_OK; *accepted counts them.
 * Rejected runs keep the velocity where the integrator stopped (NSM_ERR_BOUND,
 * NSM_ERR_NO_CONVERGENCE, NSM_ERR_NO_BOUND, NSM_ERR_NOT_CERTIFIED) or v_minus (other
 * statuses, among them
 * NSM_ERR_OVERFLOW when an impulse or velocity of that run left the double range).
 * Workspace: nsm_outcome_work(n, m) doubles. opts = NULL means NSM_IMPACT_OPTS_DEFAULT.
 * Errors (nothing written but work): NSM_ERR_NULL; NSM_ERR_SIZE (n, m as nsm_impact_solve,
 * m > NSM_OUTCOME_MAX_ORDERS_M); NSM_ERR_ARG (nsamples = 0 or > 10^6, hold = 0, or cap <
 * nsm_outcome_count(m, nsamples)); NSM_ERR_WORKSPACE; NSM_ERR_ALIAS (v_plus or the work over
 * an input, each other or opts; status, kind, nruns or accepted over each other, an input,
 * v_plus, the work or opts); and the validation
 * statuses of nsm_impact_solve, found on the first run, which is then returned.
 */
/*@ requires valid_vp: v_plus == \null || cap == 0 || n > NSM_MAX_DIM || cap > 1000000 ||
                       \valid(v_plus + (0 .. cap * n - 1));
    requires valid_st: status == \null || cap == 0 || cap > 1000000 ||
                       \valid(status + (0 .. cap - 1));
    requires valid_kind: kind == \null || cap == 0 || cap > 1000000 ||
                         \valid(kind + (0 .. cap - 1));
    requires valid_counts: (nruns == \null || \valid(nruns)) &&
                           (accepted == \null || \valid(accepted));
    requires valid_work: work == \null || lwork == 0 || \valid(work + (0 .. lwork - 1));
    requires valid_M: M == \null || n > NSM_MAX_DIM || \valid_read(M + (0 .. n*n - 1));
    requires valid_Jn: Jn == \null || n > NSM_MAX_DIM || m > NSM_MAX_DIM ||
                       \valid_read(Jn + (0 .. m*n - 1));
    requires valid_Jt: Jt == \null || n > NSM_MAX_DIM || m > NSM_MAX_DIM ||
                       \valid_read(Jt + (0 .. m*n - 1));
    requires valid_mu: mu == \null || m > NSM_MAX_DIM || \valid_read(mu + (0 .. m - 1));
    requires valid_vm: v_minus == \null || n > NSM_MAX_DIM || \valid_read(v_minus + (0 .. n - 1));
    requires valid_opts: opts == \null || \valid_read(opts);
    requires sep: \separated(nruns, accepted) &&
                  (status == \null || cap == 0 || cap > 1000000 ||
                   \separated(status + (0 .. cap - 1), nruns, accepted)) &&
                  (kind == \null || cap == 0 || cap > 1000000 ||
                   \separated(kind + (0 .. cap - 1), nruns, accepted, status + (0 .. cap - 1)));
    requires sep_work: work == \null || lwork == 0 ||
                  (\separated(work + (0 .. lwork - 1), nruns, accepted) &&
                   (status == \null || cap == 0 || cap > 1000000 ||
                    \separated(work + (0 .. lwork - 1), status + (0 .. cap - 1))) &&
                   (kind == \null || cap == 0 || cap > 1000000 ||
                    \separated(work + (0 .. lwork - 1), kind + (0 .. cap - 1))) &&
                   (opts == \null || \separated(work + (0 .. lwork - 1), opts)));
    requires sep_vp: v_plus == \null || cap == 0 || n > NSM_MAX_DIM || cap > 1000000 ||
                  (\separated(v_plus + (0 .. cap * n - 1), nruns, accepted) &&
                   (status == \null || \separated(v_plus + (0 .. cap * n - 1), status + (0 .. cap - 1))) &&
                   (kind == \null || \separated(v_plus + (0 .. cap * n - 1), kind + (0 .. cap - 1))) &&
                   (opts == \null || \separated(v_plus + (0 .. cap * n - 1), opts)));
    assigns v_plus[0 .. cap * n - 1], status[0 .. cap - 1], kind[0 .. cap - 1], *nruns,
            *accepted, work[0 .. lwork - 1];
    ensures counts: \result == NSM_OK ==> *accepted <= *nruns <= cap;
 */
nsm_status nsm_outcome_set(size_t n, size_t m, const double *M, const double *Jn,
                           const double *Jt, const double *mu, const double *v_minus,
                           const nsm_impact_opts *opts, size_t nsamples, unsigned long seed,
                           size_t hold, size_t cap, double *v_plus, nsm_status *status,
                           nsm_policy_kind *kind, size_t *nruns, size_t *accepted,
                           double *work, size_t lwork);

/**
 * nsm_outcome_set for planar (d = 1) or spatial (d = 2) contacts: the same runs, each solved
 * with nsm_impact_solve_d; Jt has d rows per contact (m·d rows), as in nsm_impact_solve_d. The
 * extremal fan spans the first tangent and the normal of each contact. Contacts at rest are
 * held only for d = 1 (nsm_impact_solve_d), so the priority runs of a spatial set are not held.
 * Errors: those of nsm_outcome_set, and NSM_ERR_ARG for d other than 1 or 2 (after
 * NSM_ERR_NULL). Workspace: nsm_outcome_work(n, m).
 */
/*@ requires valid_vp: v_plus == \null || cap == 0 || n > NSM_MAX_DIM || cap > 1000000 ||
                       \valid(v_plus + (0 .. cap * n - 1));
    requires valid_st: status == \null || cap == 0 || cap > 1000000 ||
                       \valid(status + (0 .. cap - 1));
    requires valid_kind: kind == \null || cap == 0 || cap > 1000000 ||
                         \valid(kind + (0 .. cap - 1));
    requires valid_counts: (nruns == \null || \valid(nruns)) &&
                           (accepted == \null || \valid(accepted));
    requires valid_work: work == \null || lwork == 0 || \valid(work + (0 .. lwork - 1));
    requires valid_M: M == \null || n > NSM_MAX_DIM || \valid_read(M + (0 .. n*n - 1));
    requires valid_Jn: Jn == \null || n > NSM_MAX_DIM || m > NSM_MAX_DIM ||
                       \valid_read(Jn + (0 .. m*n - 1));
    requires valid_Jt: Jt == \null || (d != 1 && d != 2) || n > NSM_MAX_DIM ||
                       m > NSM_MAX_DIM || \valid_read(Jt + (0 .. m*d*n - 1));
    requires valid_mu: mu == \null || m > NSM_MAX_DIM || \valid_read(mu + (0 .. m - 1));
    requires valid_vm: v_minus == \null || n > NSM_MAX_DIM || \valid_read(v_minus + (0 .. n - 1));
    requires valid_opts: opts == \null || \valid_read(opts);
    requires sep: \separated(nruns, accepted) &&
                  (status == \null || cap == 0 || cap > 1000000 ||
                   \separated(status + (0 .. cap - 1), nruns, accepted)) &&
                  (kind == \null || cap == 0 || cap > 1000000 ||
                   \separated(kind + (0 .. cap - 1), nruns, accepted, status + (0 .. cap - 1)));
    requires sep_work: work == \null || lwork == 0 ||
                  (\separated(work + (0 .. lwork - 1), nruns, accepted) &&
                   (status == \null || cap == 0 || cap > 1000000 ||
                    \separated(work + (0 .. lwork - 1), status + (0 .. cap - 1))) &&
                   (kind == \null || cap == 0 || cap > 1000000 ||
                    \separated(work + (0 .. lwork - 1), kind + (0 .. cap - 1))) &&
                   (opts == \null || \separated(work + (0 .. lwork - 1), opts)));
    requires sep_vp: v_plus == \null || cap == 0 || n > NSM_MAX_DIM || cap > 1000000 ||
                  (\separated(v_plus + (0 .. cap * n - 1), nruns, accepted) &&
                   (status == \null || \separated(v_plus + (0 .. cap * n - 1), status + (0 .. cap - 1))) &&
                   (kind == \null || \separated(v_plus + (0 .. cap * n - 1), kind + (0 .. cap - 1))) &&
                   (opts == \null || \separated(v_plus + (0 .. cap * n - 1), opts)));
    assigns v_plus[0 .. cap * n - 1], status[0 .. cap - 1], kind[0 .. cap - 1], *nruns,
            *accepted, work[0 .. lwork - 1];
    ensures counts: \result == NSM_OK ==> *accepted <= *nruns <= cap;
 */
nsm_status nsm_outcome_set_d(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                             const double *Jt, const double *mu, const double *v_minus,
                             const nsm_impact_opts *opts, size_t nsamples, unsigned long seed,
                             size_t hold, size_t cap, double *v_plus, nsm_status *status,
                             nsm_policy_kind *kind, size_t *nruns, size_t *accepted,
                             double *work, size_t lwork);

/**
 * nsm_outcome_set_d with an extremal fan in each of the caller's projection planes: runs
 * 0 .. nsm_outcome_count(m, nsamples) - 1 are those of nsm_outcome_set_d (same policies, same
 * results), then for each plane i < nplanes and j < NSM_OUTCOME_PLANE_DIRS run
 * nsm_outcome_count(m, nsamples) + NSM_OUTCOME_PLANE_DIRS·i + j solves with
 * NSM_POLICY_EXTREMAL_V (hold as the other extremal runs) along vdir = a_j·p + b_j·q, where
 * p and q are rows 2i and 2i + 1 of planes (2·nplanes rows of n entries: the axes of the 2-D
 * projection (pᵀv+, qᵀv+) the caller will look at) and (a_j, b_j) the lattice directions of
 * NSM_OUTCOME_PLANE_DIRS; kind[r] = NSM_POLICY_EXTREMAL_V. The fan of nsm_outcome_set_d
 * targets the contact velocities J v+; a projection that mixes generalized velocities, such as
 * (v0, v1), is reached at its extremes by these runs (docs/math.md, "Exploring the set").
 * cap >= nsm_outcome_count_proj(m, nsamples, nplanes); nplanes = 0 (planes may then be NULL)
 * gives nsm_outcome_set_d. A plane whose rows reach about 1e307 can make a direction overflow:
 * that run's status is NSM_ERR_NOT_FINITE.
 * Errors: those of nsm_outcome_set_d; NSM_ERR_NULL (planes NULL with nplanes > 0); NSM_ERR_ARG
 * (nplanes > NSM_OUTCOME_MAX_PLANES); NSM_ERR_ALIAS (planes overlap v_plus, the work, status,
 * kind, nruns or accepted); NSM_ERR_NOT_FINITE (an entry of planes, found before any run).
 * Workspace: nsm_outcome_work(n, m).
 */
/*@ requires valid_vp: v_plus == \null || cap == 0 || n > NSM_MAX_DIM || cap > 1000000 ||
                       \valid(v_plus + (0 .. cap * n - 1));
    requires valid_st: status == \null || cap == 0 || cap > 1000000 ||
                       \valid(status + (0 .. cap - 1));
    requires valid_kind: kind == \null || cap == 0 || cap > 1000000 ||
                         \valid(kind + (0 .. cap - 1));
    requires valid_counts: (nruns == \null || \valid(nruns)) &&
                           (accepted == \null || \valid(accepted));
    requires valid_work: work == \null || lwork == 0 || \valid(work + (0 .. lwork - 1));
    requires valid_M: M == \null || n > NSM_MAX_DIM || \valid_read(M + (0 .. n*n - 1));
    requires valid_Jn: Jn == \null || n > NSM_MAX_DIM || m > NSM_MAX_DIM ||
                       \valid_read(Jn + (0 .. m*n - 1));
    requires valid_Jt: Jt == \null || (d != 1 && d != 2) || n > NSM_MAX_DIM ||
                       m > NSM_MAX_DIM || \valid_read(Jt + (0 .. m*d*n - 1));
    requires valid_mu: mu == \null || m > NSM_MAX_DIM || \valid_read(mu + (0 .. m - 1));
    requires valid_vm: v_minus == \null || n > NSM_MAX_DIM || \valid_read(v_minus + (0 .. n - 1));
    requires valid_opts: opts == \null || \valid_read(opts);
    requires valid_planes: planes == \null || nplanes == 0 || nplanes > NSM_OUTCOME_MAX_PLANES ||
                           n > NSM_MAX_DIM || \valid_read(planes + (0 .. 2 * nplanes * n - 1));
    requires sep: \separated(nruns, accepted) &&
                  (status == \null || cap == 0 || cap > 1000000 ||
                   \separated(status + (0 .. cap - 1), nruns, accepted)) &&
                  (kind == \null || cap == 0 || cap > 1000000 ||
                   \separated(kind + (0 .. cap - 1), nruns, accepted, status + (0 .. cap - 1)));
    requires sep_work: work == \null || lwork == 0 ||
                  (\separated(work + (0 .. lwork - 1), nruns, accepted) &&
                   (status == \null || cap == 0 || cap > 1000000 ||
                    \separated(work + (0 .. lwork - 1), status + (0 .. cap - 1))) &&
                   (kind == \null || cap == 0 || cap > 1000000 ||
                    \separated(work + (0 .. lwork - 1), kind + (0 .. cap - 1))) &&
                   (opts == \null || \separated(work + (0 .. lwork - 1), opts)));
    requires sep_vp: v_plus == \null || cap == 0 || n > NSM_MAX_DIM || cap > 1000000 ||
                  (\separated(v_plus + (0 .. cap * n - 1), nruns, accepted) &&
                   (status == \null || \separated(v_plus + (0 .. cap * n - 1), status + (0 .. cap - 1))) &&
                   (kind == \null || \separated(v_plus + (0 .. cap * n - 1), kind + (0 .. cap - 1))) &&
                   (opts == \null || \separated(v_plus + (0 .. cap * n - 1), opts)));
    assigns v_plus[0 .. cap * n - 1], status[0 .. cap - 1], kind[0 .. cap - 1], *nruns,
            *accepted, work[0 .. lwork - 1];
    ensures counts: \result == NSM_OK ==> *accepted <= *nruns <= cap;
 */
nsm_status nsm_outcome_set_proj(size_t n, size_t m, size_t d, const double *M,
                                const double *Jn, const double *Jt, const double *mu,
                                const double *v_minus, const nsm_impact_opts *opts,
                                size_t nsamples, unsigned long seed, size_t hold,
                                size_t nplanes, const double *planes, size_t cap,
                                double *v_plus, nsm_status *status, nsm_policy_kind *kind,
                                size_t *nruns, size_t *accepted, double *work, size_t lwork);

/**
 * The policy of run r of nsm_outcome_set(n, m, ..., opts, nsamples, seed, hold, ...) (opts =
 * NULL: NSM_IMPACT_OPTS_DEFAULT; only opts->steps is read, for the extremal hold): fills *pol and
 * the arrays it points to. order (m entries) is the run's permutation (sequential, priority
 * and schedule runs; the identity otherwise), ratios (m) are ones, dir (3m) is the run's fan
 * direction (extremal runs; zeros otherwise), dwell (m) the run's dwells (schedule runs, in
 * units of the impulse scale S; 1e300 runs a phase to rest; zeros otherwise); pol->hold is
 * a schedule run's cycles (1, 2, 4 or 8), a bang-bang run's dwell cap, an extremal run's
 * hold, and 1 otherwise. Solving with
 * this policy (nsm_impact_solve, same M, Jn, Jt, mu, v_minus and opts) repeats run r of the
 * set, with its impulses and nsm_impact_info; with nsm_impact_solve_d and d = 2, or with
 * other opts (a finer step), it runs the same weight history on that model. pol->kind says
 * which source produced the run.
 * Errors (nothing written): NSM_ERR_NULL; NSM_ERR_SIZE (m = 0 or m > NSM_OUTCOME_MAX_ORDERS_M);
 * NSM_ERR_ARG (nsamples = 0 or > 10^6, hold = 0, r >= nsm_outcome_count(m, nsamples));
 * NSM_ERR_ALIAS (any two of order, ratios, dir, dwell, pol overlap).
 */
/*@ requires valid: m == 0 || m > NSM_OUTCOME_MAX_ORDERS_M ||
                    ((order == \null || \valid(order + (0 .. m - 1))) &&
                     (ratios == \null || \valid(ratios + (0 .. m - 1))) &&
                     (dir == \null || \valid(dir + (0 .. 3 * m - 1))) &&
                     (dwell == \null || \valid(dwell + (0 .. m - 1))));
    requires valid_pol: pol == \null || \valid(pol);
    requires valid_opts: opts == \null || \valid_read(opts);
    requires sep: order == \null || ratios == \null || dir == \null || dwell == \null ||
                  pol == \null || m == 0 || m > NSM_OUTCOME_MAX_ORDERS_M ||
                  \separated(pol, order + (0 .. m - 1), ratios + (0 .. m - 1),
                             dir + (0 .. 3 * m - 1), dwell + (0 .. m - 1));
    assigns *pol, order[0 .. m - 1], ratios[0 .. m - 1], dir[0 .. 3 * m - 1],
            dwell[0 .. m - 1];
    ensures null: (order == \null || ratios == \null || dir == \null || dwell == \null ||
                   pol == \null) ==> \result == NSM_ERR_NULL;
    ensures size: order != \null && ratios != \null && dir != \null && dwell != \null &&
                  pol != \null && (m == 0 || m > NSM_OUTCOME_MAX_ORDERS_M) ==>
                  \result == NSM_ERR_SIZE;
    ensures arg: order != \null && ratios != \null && dir != \null && dwell != \null &&
                 pol != \null && 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M &&
                 (nsamples == 0 || hold == 0) ==> \result == NSM_ERR_ARG;
    ensures ok: \result == NSM_OK ==>
                (pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY ||
                 pol->kind == NSM_POLICY_SIMULTANEOUS || pol->kind == NSM_POLICY_EXTREMAL ||
                 pol->kind == NSM_POLICY_BANGBANG || pol->kind == NSM_POLICY_SCHEDULE) &&
                pol->order == order && pol->ratios == ratios && pol->dir == dir &&
                pol->dwell == dwell && pol->hold >= 1 &&
                (pol->kind == NSM_POLICY_SCHEDULE ==> pol->hold <= 8) &&
                \forall integer i; 0 <= i < m ==> order[i] < m;
    ensures status: \result == NSM_OK || \result == NSM_ERR_NULL || \result == NSM_ERR_SIZE ||
                    \result == NSM_ERR_ARG || \result == NSM_ERR_ALIAS;
 */
nsm_status nsm_outcome_policy(size_t m, const nsm_impact_opts *opts, size_t nsamples,
                              unsigned long seed, size_t hold, size_t r, size_t *order,
                              double *ratios, double *dir, double *dwell,
                              nsm_impact_policy *pol);

/**
 * The policy of plane run j of nsm_outcome_set_proj (run nsm_outcome_count(m, nsamples) + j
 * of the set, j < NSM_OUTCOME_PLANE_DIRS·nplanes; opts = NULL: NSM_IMPACT_OPTS_DEFAULT, only
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

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_OUTCOME_H */
