/*
 * The impact integrator's stages, one file each (internal to the impact room; not part of
 * the public API). nsm_impact_solve (impact.c) reads as the algorithm:
 *   validate (impact_args.c) -> prepare W, u (impact.c) -> bound (impact_bound.c) ->
 *   integrate (impact_step.c: weights from impact_policy.c, rates from impact_rates.c,
 *   held contacts from slide.c) -> finish (impact.c).
 * Every contact takes three slots (t1, t2, n) of the impulse space whatever d is (for d = 1
 * the t2 slots stay exactly 0), so that every index is linear in the contact number.
 */
#ifndef NSM_CONTACT_IMPACT_INTERNAL_H
#define NSM_CONTACT_IMPACT_INTERNAL_H

#include <stddef.h>
#include "nsmech/impact.h"

/* Internal state of the selection policy. */
typedef struct policy_state {
    size_t cur;        /* SEQUENTIAL, BANGBANG, EXTREMAL: contact being resolved (m = none) */
    unsigned long rng; /* SAMPLED, BANGBANG: Park–Miller state in 1 .. NSM_PRNG_MOD - 1 */
    size_t held;       /* SAMPLED, BANGBANG, EXTREMAL: steps the current weights have been
                          held */
    size_t dwell;      /* BANGBANG: steps the current contact acts (1 .. hold) */
    size_t phase;      /* SCHEDULE: phases started (0 .. m·cycles); one more once the
                          sequential finish has begun */
    double left;       /* SCHEDULE: normal impulse left in the current phase (>= 0; 0: none) */
    double unit;       /* SCHEDULE: the impulse scale S of the dwells (> 0) */
} policy_state;

/* The integrator's vectors: views into the workspace, carved once (impact.c, carve_vecs). */
typedef struct impact_vecs {
    double *u;    /* 3m: contact velocities (t1, t2, n) per contact */
    double *lam;  /* 3m: impulse accumulated so far */
    double *lh;   /* 3m: impulse rates of the current segment (per unit normal impulse) */
    double *rate; /* 3m: W lh, the velocity rates */
    double *um;   /* 3m: velocities at a Runge–Kutta stage of a spatial segment (d = 2) */
    double *ls;   /* 3m: a stage's impulse rates (d = 2) */
    double *rs;   /* 3m: a stage's velocity rates, W ls (d = 2) */
    double *w;    /* m: the segment's weights */
    double *wraw; /* m: the sampled policy's raw draws, kept between redraws */
    double *gain; /* 3m: the extremal rules' gain, g_k = d(objective)/d(lam_k) (impact.c,
                     extremal_gain); read only during the integration */
} impact_vecs;

/*@ // the vectors are writable and pairwise disjoint
    predicate vecs_ok(impact_vecs *v, integer m) =
      \valid(v->u + (0 .. 3 * m - 1)) && \valid(v->lam + (0 .. 3 * m - 1)) &&
      \valid(v->lh + (0 .. 3 * m - 1)) && \valid(v->rate + (0 .. 3 * m - 1)) &&
      \valid(v->um + (0 .. 3 * m - 1)) && \valid(v->ls + (0 .. 3 * m - 1)) &&
      \valid(v->rs + (0 .. 3 * m - 1)) && \valid(v->w + (0 .. m - 1)) &&
      \valid(v->wraw + (0 .. m - 1)) && \valid(v->gain + (0 .. 3 * m - 1)) &&
      \separated(v->u + (0 .. 3 * m - 1), v->lam + (0 .. 3 * m - 1), v->lh + (0 .. 3 * m - 1),
                 v->rate + (0 .. 3 * m - 1), v->um + (0 .. 3 * m - 1),
                 v->ls + (0 .. 3 * m - 1), v->rs + (0 .. 3 * m - 1), v->w + (0 .. m - 1),
                 v->wraw + (0 .. m - 1), v->gain + (0 .. 3 * m - 1));
    // the policy is valid and its array (for the kind that reads one) can be read
    predicate pol_ready(integer m, nsm_impact_policy *pol) =
      \valid_read(pol) &&
      ((pol->kind != NSM_POLICY_SEQUENTIAL && pol->kind != NSM_POLICY_PRIORITY &&
        pol->kind != NSM_POLICY_SCHEDULE) ||
       \valid_read(pol->order + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_SCHEDULE || \valid_read(pol->dwell + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_SIMULTANEOUS || \valid_read(pol->ratios + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_EXTREMAL || \valid_read(pol->dir + (0 .. 3 * m - 1))) &&
      ((pol->kind != NSM_POLICY_SAMPLED && pol->kind != NSM_POLICY_BANGBANG &&
        pol->kind != NSM_POLICY_EXTREMAL && pol->kind != NSM_POLICY_EXTREMAL_V) ||
       pol->hold >= 1);
 */

/*@ // the policy and its array (the one its kind reads, when given) can be read
    predicate pol_readable(integer m, nsm_impact_policy *pol) =
      \valid_read(pol) &&
      ((pol->kind != NSM_POLICY_SEQUENTIAL && pol->kind != NSM_POLICY_PRIORITY &&
        pol->kind != NSM_POLICY_SCHEDULE) ||
       pol->order == \null ||
       \valid_read(pol->order + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_SCHEDULE || pol->dwell == \null ||
       \valid_read(pol->dwell + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_SIMULTANEOUS || pol->ratios == \null ||
       \valid_read(pol->ratios + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_EXTREMAL || pol->dir == \null ||
       \valid_read(pol->dir + (0 .. 3 * m - 1)));
    // the options and the policy are in their domains (what the integrator relies on)
    predicate args_ok(nsm_impact_policy *pol, nsm_impact_opts *opts) =
      1 <= opts->steps <= 1000000 && 1 <= opts->fw_iters <= 1000000 &&
      1 <= opts->fallback_steps <= 100000000 &&
      opts->ztol >= 0 && opts->ntol >= 0 && opts->vtol >= 0 &&
      (pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_SIMULTANEOUS ||
       pol->kind == NSM_POLICY_SAMPLED || pol->kind == NSM_POLICY_PRIORITY ||
       pol->kind == NSM_POLICY_BANGBANG || pol->kind == NSM_POLICY_EXTREMAL ||
       pol->kind == NSM_POLICY_EXTREMAL_V || pol->kind == NSM_POLICY_SCHEDULE ||
       pol->kind == NSM_POLICY_MOREAU) &&
      ((pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY ||
        pol->kind == NSM_POLICY_SCHEDULE) ==>
       pol->order != \null) &&
      (pol->kind == NSM_POLICY_SCHEDULE ==> pol->dwell != \null) &&
      (pol->kind == NSM_POLICY_SIMULTANEOUS ==> pol->ratios != \null) &&
      (pol->kind == NSM_POLICY_EXTREMAL ==> pol->dir != \null) &&
      (pol->kind == NSM_POLICY_EXTREMAL_V ==> pol->vdir != \null) &&
      ((pol->kind == NSM_POLICY_SAMPLED || pol->kind == NSM_POLICY_BANGBANG ||
        pol->kind == NSM_POLICY_EXTREMAL || pol->kind == NSM_POLICY_EXTREMAL_V) ==>
       pol->hold >= 1);
 */

/* ---- validation (impact_args.c) ---- */

/* Validation of options and policy (pointers non-NULL, m in range). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(opts) && pol_readable(m, pol);
    assigns \nothing;
    ensures ok: \result == NSM_OK ==> args_ok(pol, opts);
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG || \result == NSM_ERR_NULL ||
                    \result == NSM_ERR_NOT_FINITE;
 */
nsm_status nsm_impact_check_policy(size_t m, const nsm_impact_policy *pol,
                                   const nsm_impact_opts *opts);

/* 1 if an output (v_plus, Lambda, the work, *info) overlaps an input, the policy or its
   arrays, or another output, or *info overlaps *opts (sizes as validated; need =
   nsm_impact_work(n, m)). Only addresses are compared: nothing is read but *pol. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires need <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(pol);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
int nsm_impact_aliased(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                       const double *Jt, const double *mu, const double *vm,
                       const nsm_impact_policy *pol, const nsm_impact_opts *opts, const double *vp,
                       const double *lam, const double *work, size_t need,
                       const nsm_impact_info *info);

/* Validation of the data: mu >= 0, finiteness, symmetry of M. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1));
    requires \valid_read(Jt + (0 .. d * m * n - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid_read(vm + (0 .. n - 1));
    assigns \nothing;
    ensures ok: \result == NSM_OK ==> \forall integer c; 0 <= c < m ==> mu[c] >= 0;
 */
nsm_status nsm_impact_check_data(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                                 const double *Jt, const double *mu, const double *vm);

/* ---- the a priori bound (impact_bound.c) ---- */

/* The a priori bound, the step and the cap (fields bound, gamma_lb, fw_gap, has_bound,
   step_cap of *inf; energy_minus is read); returns h. W (3m×3m) and u (3m) as prepared; fw
   (12m) is Frank–Wolfe's scratch. *wedge = 1 when gamma = 0 to tolerance (contacts may wedge). */
/*@ requires dims: 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires valid_mu: \valid_read(mu + (0 .. m - 1)) && \valid_read(opts) && \valid(inf);
    requires opts: 1 <= opts->steps <= 1000000 && 1 <= opts->fw_iters <= 1000000 &&
                   1 <= opts->fallback_steps <= 100000000;
    requires valid_W: \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    requires valid_fw: \valid(fw + (0 .. 12 * m - 1));
    requires sep: \separated(inf, fw + (0 .. 12 * m - 1));
    requires valid_wedge: \valid(wedge) && \separated(wedge, inf) &&
                          \separated(wedge, fw + (0 .. 12 * m - 1));
    assigns fw[0 .. 12 * m - 1], *inf, *wedge;
    ensures h: \result >= 0;
    ensures cap: inf->step_cap <= 4000000000;
    ensures wedge: *wedge == 0 || *wedge == 1;
    ensures bound: inf->has_bound == 0 || inf->bound > 0;
 */
double nsm_impact_bound(size_t m, size_t d, const double *mu, const nsm_impact_opts *opts,
                        const double *W, const double *u, double *fw, nsm_impact_info *inf,
                        int *wedge);

/* ---- the policy's weights (impact_policy.c) ---- */

/* Number of penetrating contacts. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 3 * m - 1));
    assigns \nothing;
    ensures 0 <= \result <= m;
 */
size_t nsm_impact_count_pen(size_t m, const double *u, double ntol);

/*
 * Weights w (m, sum 1 over penetrating contacts, 0 elsewhere) by the policy. Requires at least
 * one penetrating contact. For SAMPLED, w keeps its previous raw draws in wraw between redraws.
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires pol: pol_ready(m, pol);
    requires \valid(ps) && 1 <= ps->rng < NSM_PRNG_MOD;
    requires sched: ps->left >= 0 && ps->unit > 0;
    requires \valid_read(u + (0 .. 3 * m - 1));
    requires \valid(w + (0 .. m - 1)) && \valid(wraw + (0 .. m - 1));
    requires \separated(ps, w + (0 .. m - 1), wraw + (0 .. m - 1));
    assigns w[0 .. m - 1], wraw[0 .. m - 1], ps->cur, ps->rng, ps->held, ps->dwell, ps->phase,
            ps->left;
    ensures 1 <= ps->rng < NSM_PRNG_MOD;
    ensures sched: ps->left >= 0;
 */
void nsm_impact_weights(size_t m, const nsm_impact_policy *pol, policy_state *ps, const double *u,
                        double ntol, double *w, double *wraw);

/* Most steps one segment may cover (nsm_impact_span): a multiple of the step h, so that a
   segment of constant weights is integrated in one piece (the motion is linear in s between
   events) instead of h by h. */
#define NSM_IMPACT_SPAN_MAX 1000000u

/*
 * Steps the weights of the last nsm_impact_weights / nsm_impact_extremal call stay unchanged
 * while no event intervenes, that step included: the rest of the dwell (bang-bang: dwell -
 * held + 1), of the hold (sampled, extremal: hold - held + 1), NSM_IMPACT_SPAN_MAX for the
 * kinds that change weights only at events (sequential, priority, simultaneous).
 */
/*@ requires \valid_read(pol) && \valid_read(ps);
    assigns \nothing;
    ensures 1 <= \result <= NSM_IMPACT_SPAN_MAX;
 */
size_t nsm_impact_span(const nsm_impact_policy *pol, const policy_state *ps);

/* Advances the policy's step counter by taken - 1 after a segment that covered `taken` steps
   with the weights of one call (which counted the first), and takes the segment's normal
   impulse len off a schedule phase's dwell (the phase's end when len reaches what was left). */
/*@ requires \valid(ps) && taken <= NSM_IMPACT_SPAN_MAX && len >= 0 && ps->left >= 0;
    assigns ps->held, ps->left;
    ensures ps->held >= \old(ps->held);
    ensures ps->left >= 0;
 */
void nsm_impact_span_taken(policy_state *ps, size_t taken, double len);

/* The longest segment the policy allows, out of hs >= hmin: a schedule phase's remaining
   dwell when it is within hs (at least hmin: a dwell end closer than that is stepped over,
   nsm_impact_phase_short; an exact run passes hmin = 0 and reaches it however close), the
   dwell less hmin when a full segment would leave less than hmin of it (so that its end gets
   a segment of its own); hs otherwise. */
/*@ requires \valid_read(pol) && \valid_read(ps) && 0 <= hmin <= hs;
    assigns \nothing;
    ensures hmin <= \result <= hs;
 */
double nsm_impact_phase_cap(const nsm_impact_policy *pol, const policy_state *ps, double hs,
                            double hmin);

/* 1 if a schedule phase has less than hmin of its dwell left: its next segment (hmin) steps
   over the dwell's end and counts as forced. */
/*@ requires \valid_read(pol) && \valid_read(ps);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
int nsm_impact_phase_short(const nsm_impact_policy *pol, const policy_state *ps, double hmin);

/* The impulse scale of a schedule's dwells: S = max over the contacts penetrating at u of
   -u_n,c / W_nn,c (the normal impulse each would need alone without friction); 1 if that is
   not a positive finite number (no contact penetrates, or rounding). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    assigns \nothing;
    ensures \result > 0;
 */
double nsm_impact_schedule_unit(size_t m, const double *W, const double *u, double ntol);

/*
 * Weights of the extremal rules (NSM_POLICY_EXTREMAL, NSM_POLICY_EXTREMAL_V): the acting
 * contact ps->cur keeps w = 1 while it penetrates, for hold steps; then w = 1 goes to the
 * penetrating contact c whose own Coulomb rate (1, r1_c, r2_c) raises the objective fastest,
 * score_c = g_n(c) + g_t1(c) r1_c + g_t2(c) r2_c with the gain g of the objective per unit
 * impulse (g = W dir for EXTREMAL, g = J M^-1 vdir for EXTREMAL_V; impact.c) (the first of
 * equal scores), 0 elsewhere; all 0 if none penetrates.
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2) && hold >= 1;
    requires \valid(ps) && \valid_read(W + (0 .. 9 * m * m - 1));
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid_read(gain + (0 .. 3 * m - 1));
    requires \valid(w + (0 .. m - 1)) && \separated(ps, w + (0 .. m - 1));
    assigns w[0 .. m - 1], ps->cur, ps->held;
 */
void nsm_impact_extremal(size_t m, size_t d, size_t hold, policy_state *ps, const double *W,
                         const double *u, const double *gain, const double *mu, double ztol,
                         double ntol, double *w);

/* ---- impulse rates of a segment (impact_rates.c) ---- */

/* Tangential impulse rate per unit weight of contact c (Routh's rule on its own block), written
   to (*r1, *r2) (r2 = 0 when d = 1); |(r1, r2)| <= mu. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m && (d == 1 || d == 2);
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    requires \valid(r1) && \valid(r2) && \separated(r1, r2);
    assigns *r1, *r2;
 */
void nsm_impact_friction_rate(size_t m, size_t d, const double *W, const double *u, size_t c,
                              double mu_in, double ztol, double *r1, double *r2);

/* lamhat (3m) from weights: (w_c·r1_c, w_c·r2_c, w_c) per contact. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(w + (0 .. m - 1));
    requires \valid(lh + (0 .. 3 * m - 1));
    assigns lh[0 .. 3 * m - 1];
 */
void nsm_impact_lamhat(size_t m, size_t d, const double *W, const double *u, const double *mu,
                       const double *w, double ztol, double *lh);

/* Classical Runge–Kutta rates of a spatial segment of length len from u (fourth order in the
   step between events): on entry lh and rate hold the rates at u (stage 1) and w its weights;
   on return lh = (l1 + 2 l2 + 2 l3 + l4)/6 and rate = W lh, where l_i are the impulse rates at
   the stages u, u + (len/2)·r1, u + (len/2)·r2, u + len·r3 (r_i = W l_i). Without wp (NULL)
   the stages keep the weights w (lh's normal slots are w) and a contact at tangential rest at
   u keeps its rates at u in every stage. With wp, the policy's weights of a segment that took
   joint rates (nsm_slide), each stage takes the joint rates at its velocities from wp: the
   held weights follow the turning slips, and w receives the weights' average (lh's normal
   slots). um, ls and rs are scratch (a stage's velocities and rates). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid(w + (0 .. m - 1));
    requires wp == \null || \valid_read(wp + (0 .. m - 1));
    requires \valid(lh + (0 .. 3 * m - 1)) && \valid(rate + (0 .. 3 * m - 1));
    requires \valid(um + (0 .. 3 * m - 1)) && \valid(ls + (0 .. 3 * m - 1)) &&
             \valid(rs + (0 .. 3 * m - 1));
    requires \separated(lh + (0 .. 3 * m - 1), rate + (0 .. 3 * m - 1), um + (0 .. 3 * m - 1),
                        ls + (0 .. 3 * m - 1), rs + (0 .. 3 * m - 1), u + (0 .. 3 * m - 1),
                        w + (0 .. m - 1));
    assigns lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1], um[0 .. 3 * m - 1], ls[0 .. 3 * m - 1],
            rs[0 .. 3 * m - 1], w[0 .. m - 1];
 */
void nsm_impact_rk4(size_t m, const double *W, const double *mu, const double *u, double *w,
                    const double *wp, double len, double ztol, double ntol, double *lh,
                    double *rate, double *um, double *ls, double *rs);

/*
 * Longest segment of a spatial slip (d = 2), its turn bounded. A direction u_t/|u_t| turns
 * at a rate of order |r_t|/|u_t| per unit impulse, and near rest the
 * direction equation is stiff (rate of order mu·w·tr W_tt/|u_t|): an explicit step longer
 * than that amplifies the error perpendicular to the slip instead of damping it. Returns
 * min over slipping contacts of |u_t|/(8|r_t| + mu·w·tr W_tt) (h when none), never below hmin:
 * a segment turns the slip by at most about 1/8 rad. With joint (the segment's rates are joint
 * stick rates, found again at every stage) the stiffness term is scaled by
 * min(1, 8|r_t|·h/|u_t|): a slip that the stuck contacts hold still does not relax.
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(w + (0 .. m - 1));
    requires \valid_read(rate + (0 .. 3 * m - 1));
    requires 0 <= hmin <= h;
    assigns \nothing;
    ensures hmin <= \result <= h;
 */
double nsm_impact_slip_cap(size_t m, const double *W, const double *mu, const double *w,
                           const double *u, const double *rate, double h, double hmin, double ztol,
                           int joint);

/* ---- slip arcs of the one contact acting (slip_arc.c) ---- */

/* How a slip arc ended: at its allowed length, at x_n = 0, at rest, or at its substep cap. */
#define NSM_ARC_TOP 0
#define NSM_ARC_NORMAL 1
#define NSM_ARC_STOP 2
#define NSM_ARC_CAP 3

/*
 * The slip of a contact acting alone from its velocity x0 (t1, t2, n), B its 3×3 block of W
 * (row-major), along the slip (docs/math.md (I12)), for at most top of normal impulse: writes
 * its impulse dl (t1, t2, n; dl[2] the normal impulse, returned) and *ev (NSM_ARC_*). x_n = 0
 * ends it only when x0 penetrates (x0[2] < -ntol).
 */
/*@ requires \valid_read(B + (0 .. 8)) && \valid_read(x0 + (0 .. 2));
    requires \valid(dl + (0 .. 2)) && \valid(ev);
    requires \separated(dl + (0 .. 2), ev, B + (0 .. 8), x0 + (0 .. 2));
    requires top >= 0;
    assigns dl[0 .. 2], *ev;
    ensures 0 <= \result <= top && dl[2] == \result;
    ensures NSM_ARC_TOP <= *ev <= NSM_ARC_CAP;
 */
double nsm_impact_arc(const double *B, double mu, const double *x0, double top, double hp,
                      double ntol, double *dl, int *ev);

/*
 * A segment of at most top along a slip arc, when one contact carries all the weight (w = 1,
 * the others 0) and slips with a turning direction: the arc's average impulse rates into lh,
 * rate = W lh, its length into *len and its event into *ev (as seg_len: 3c + 2 normal, 3c the
 * slip stopped, 3m otherwise). Returns 1; 0 (nothing written) when no arc applies, or when it
 * ended at an event closer than hmin that the run steps over (not exact for a normal event,
 * not slips for a stop).
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires vecs: \valid_read(v) && vecs_ok(v, m);
    requires top >= 0;
    requires \valid(len) && \valid(ev) && \separated(len, ev);
    requires \separated(len, v->lh + (0 .. 3 * m - 1), v->rate + (0 .. 3 * m - 1));
    requires \separated(ev, v->lh + (0 .. 3 * m - 1), v->rate + (0 .. 3 * m - 1));
    assigns v->lh[0 .. 3 * m - 1], v->rate[0 .. 3 * m - 1], *len, *ev;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> 0 < *len <= top && *ev <= 3 * m;
 */
int nsm_impact_arc_segment(size_t m, const double *W, const double *mu, double top,
                           double hp, double hmin, double ztol, double ntol, int exact, int slips,
                           const impact_vecs *v, double *len, size_t *ev);

/* ---- Moreau's impulse (moreau.c) ---- */

/*
 * The ratios of NSM_POLICY_MOREAU (m) from W and u = J v- (docs/math.md (I13)): the normal
 * impulses of Moreau's impulse by projected Gauss–Seidel into P (3m, (t1, t2, n) per
 * contact), each ratio at least 1e-12 of the largest (all 1 when every normal impulse is 0).
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    requires \valid_read(mu + (0 .. m - 1));
    requires \valid(P + (0 .. 3 * m - 1)) && \valid(ratios + (0 .. m - 1));
    requires \separated(P + (0 .. 3 * m - 1), ratios + (0 .. m - 1));
    assigns P[0 .. 3 * m - 1], ratios[0 .. m - 1];
 */
void nsm_impact_moreau(size_t m, const double *W, const double *u, const double *mu, double *P,
                       double *ratios);

/* ---- the stepping loop (impact_step.c) ---- */

/*
 * The stepping loop: from u (= J v-), segments of at most h with the policy's weights until no
 * contact penetrates. Reads inf->step_cap, inf->has_bound and inf->bound; writes inf->s (the
 * total normal impulse), inf->steps, inf->forced and inf->terminated. Returns NSM_OK when no
 * contact penetrates, NSM_ERR_BOUND when s would exceed the bound (has_bound),
 * NSM_ERR_NO_CONVERGENCE at the step cap. lam holds the impulse (3m, (t1, t2, n) per contact).
 * steps_h: the steps of h the run was given (opts.steps), which limit a spatial run's short
 * segments (NSM_IMPACT_EXACT_SHORT_PER_STEP); slip_rest: opts.slip_rest (rest_slip).
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires h >= 0;
    requires pol: pol_ready(m, pol);
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires vecs: \valid_read(v) && vecs_ok(v, m);
    requires info: \valid(inf) && inf->step_cap <= 4000000000;
    requires has_bound: inf->has_bound == 0 || inf->bound >= 0;
    requires \separated(inf, v->u + (0 .. 3 * m - 1), v->lam + (0 .. 3 * m - 1),
                        v->lh + (0 .. 3 * m - 1), v->rate + (0 .. 3 * m - 1),
                        v->um + (0 .. 3 * m - 1), v->ls + (0 .. 3 * m - 1),
                        v->rs + (0 .. 3 * m - 1), v->w + (0 .. m - 1), v->wraw + (0 .. m - 1));
    assigns v->u[0 .. 3 * m - 1], v->lam[0 .. 3 * m - 1], v->lh[0 .. 3 * m - 1],
            v->rate[0 .. 3 * m - 1], v->um[0 .. 3 * m - 1], v->ls[0 .. 3 * m - 1],
            v->rs[0 .. 3 * m - 1], v->w[0 .. m - 1], v->wraw[0 .. m - 1], inf->s, inf->steps,
            inf->forced, inf->terminated;
    ensures \result == NSM_OK || \result == NSM_ERR_BOUND || \result == NSM_ERR_NO_CONVERGENCE;
    ensures inf->steps <= inf->step_cap && inf->forced <= inf->steps;
    ensures inf->terminated == (\result == NSM_OK);
    ensures bound: \result == NSM_OK && inf->has_bound ==> inf->s <= inf->bound;
 */
nsm_status nsm_impact_integrate(size_t m, size_t d, const nsm_impact_policy *pol,
                                const double *W, const double *mu, double h, size_t steps_h,
                                double ztol, double slip_rest, double ntol,
                                const impact_vecs *v, nsm_impact_info *inf);

#endif
