/*
 * The stepping loop of the impact integrator: segment length to the next event, the step, and
 * the loop that stops when no contact penetrates, at the bound or at the step cap.
 * Implements docs/math.md (I4), the inclusion integrated in s, stopped at the bound of (I5)-(I6).
 */
#include <float.h>
#include "nsmech/impact.h"
#include "../nsm_math.h"
#include "internal.h"
#include "impact_internal.h"
#include "slide.h"
#include "../contact/coulomb.h"

/* y = A x for A r×c (row-major), visiting only the columns where x is nonzero: every row sums
   the same products in the same order as matvec (a skipped term is ±0 and leaves the sum
   unchanged, up to the sign of a zero sum). For rates of one or a few acting contacts. */
/*@ requires 1 <= r <= NSM_MAX_DIM && 1 <= c <= NSM_MAX_DIM;
    requires \valid_read(A + (0 .. r * c - 1)) && \valid_read(x + (0 .. c - 1));
    requires \valid(y + (0 .. r - 1));
    requires \separated(y + (0 .. r - 1), x + (0 .. c - 1));
    assigns y[0 .. r - 1];
 */
static void matvec_cols(size_t r, size_t c, const double *A, const double *x, double *y)
{
    /*@ loop invariant 0 <= i <= r;
        loop assigns i, y[0 .. r - 1];
        loop variant r - i;
     */
    for (size_t i = 0; i < r; i++) {
        y[i] = 0.0;
    }
    /*@ loop invariant 0 <= j <= c;
        loop assigns j, y[0 .. r - 1];
        loop variant c - j;
     */
    for (size_t j = 0; j < c; j++) {
        double xj = x[j];
        if (xj != 0.0) {
            /*@ loop invariant 0 <= i <= r;
                loop assigns i, y[0 .. r - 1];
                loop variant r - i;
             */
            for (size_t i = 0; i < r; i++) {
                /*@ assert i * c + j < r * c; */
                y[i] += A[i * c + j] * xj;
            }
        }
    }
}

/*
 * Segment length: min(h, first event) where an event is a penetrating contact (w_c > 0)
 * reaching u_n = 0, or a slipping one (|u_t| > ztol, w_c > 0) reaching u_t = 0, but at least
 * hmin. For d = 2 a slip only stops where the segment heads into the origin (its closest
 * approach within sqrt(NSM_SLIP_STOP2)·|u_t| of it); otherwise the slip swings round and,
 * unless an event comes first, the segment is limited to cap (see nsm_impact_slip_cap).
 * With exact, the contact with weight 1 (the one contact acting) is followed exactly: its
 * events are located however close. With slips (d = 2), every weighted contact's slip is
 * followed exactly into rest: a segment limited by cap may be shorter than hmin, and a slip
 * stops only within sqrt(NSM_SLIP_STOP2_EXACT)·|u_t| of the origin, however close. A
 * penetrating contact's slip that the segment carries into the rest disc |u_t| <= ztol, the
 * slips the rules take as rest, stops where it enters it, on the rates of the segment's start
 * as a slip heading into rest (with slip_rest, ztol is a step's share of friction: a slip
 * circling just outside the disc would be followed in segments of its own length to the end);
 * a held contact's slip is left to the joint solve, which decides its rest at every stage.
 * *ev is 3c + 2 for a normal event, 3c for a tangential one, 3m when h or cap was taken and
 * 3m + 1 when hmin was. With watch, a contact without weight reaching u_n = 0 from above is
 * an event too (it may then be held at rest). A contact with weight at normal rest
 * (u_n >= -ntol: held) has no normal event: its rate is 0 or it separates.
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(rate + (0 .. 3 * m - 1));
    requires \valid_read(w + (0 .. m - 1));
    requires 0 <= hmin <= h;
    requires \valid(ev);
    requires \separated(ev, u + (0 .. 3 * m - 1), rate + (0 .. 3 * m - 1), w + (0 .. m - 1));
    assigns *ev;
    ensures 0 <= \result <= h;
    ensures short: \result < hmin ==> (exact || slips) && *ev <= 3 * m;
    ensures *ev <= 3 * m + 1;
 */
static double seg_len(size_t m, size_t d, const double *u, const double *rate, const double *w,
                      double h, double hmin, double cap, double ztol, double ntol, int watch,
                      int exact, int slips, size_t *ev)
{
    double len = h;
    *ev = 3 * m;
    /*@ loop invariant 0 <= c <= m;
        loop invariant 0 <= len <= h;
        loop invariant *ev <= 3 * m;
        loop assigns c, len, *ev;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double un = u[3 * c + 2];
        double rn = rate[3 * c + 2];
        if (!(w[c] > 0.0)) {
            if (watch && un > 0.0 && rn < 0.0 && -un / rn < len) {
                /* a separating contact driven back to rest: from there it may be held */
                len = -un / rn;
                *ev = 3 * c + 2;
            }
            continue;
        }
        if (rn > 0.0 && un < -ntol) {
            double l = -un / rn;
            if (l < len) {
                len = l < 0.0 ? 0.0 : l;
                *ev = 3 * c + 2;
            }
        }
        double ut = u[3 * c];
        double rt = rate[3 * c];
        double l = len;
        int hit = 0;
        if (d == 1) {
            if ((ut > ztol && rt < 0.0) || (ut < -ztol && rt > 0.0)) {
                l = -ut / rt;
                hit = 1;
            }
        } else {
            double ut2 = u[3 * c + 1];
            double rt2 = rate[3 * c + 1];
            double ur = ut * rt + ut2 * rt2;
            double rr = rt * rt + rt2 * rt2;
            double uu = ut * ut + ut2 * ut2;
            if (tnorm(2, ut, ut2) > ztol && ur < 0.0 && rr > 0.0) {
                /* squared distance of the closest approach: |u|² - (u·r)²/|r|² */
                double dist2 = uu - (ur / rr) * ur;
                double stop2 = slips ? NSM_SLIP_STOP2_EXACT : NSM_SLIP_STOP2;
                if (dist2 <= stop2 * uu) {
                    l = -ur / rr;
                    hit = 1;
                } else if (un < -ntol && dist2 < ztol * ztol) {
                    /* the first crossing of |u_t| = ztol: rr·l² + 2·ur·l + uu − ztol² = 0 */
                    l = (-ur - sqrt(rr * (ztol * ztol - dist2))) / rr;
                    hit = 1;
                }
            }
        }
        if (hit && l < len) {
            len = l < 0.0 ? 0.0 : l;
            *ev = 3 * c;
        }
    }
    if ((*ev == 3 * m || *ev % 3 == 2) && cap < len) {
        /* the slip directions turn within this segment: shorten it */
        len = cap < 0.0 ? 0.0 : cap;
        *ev = 3 * m;
    }
    if (len < hmin && slips && (*ev == 3 * m || (*ev < 3 * m && (*ev % 3 == 0 || watch)))) {
        /* a spatial slip coming to rest turns ever faster as |u_t| shrinks (cap below hmin
           only with slips, step_len): followed to its stop however short its segments; in
           runs that hold contacts at rest (watch), a contact reaching u_n = 0 is located
           exactly too, and is held there from the next segment on (stepped over, it would
           alternate about u_n = 0 in segments of hmin) */
        return len;
    }
    if (len < hmin && exact && *ev < 3 * m && w[*ev / 3] >= 1.0) {
        /* the one contact that carries all the weight (a contact resolved alone) is followed
           exactly however close its events: where two such contacts push each other back,
           the alternation converges geometrically when a bound exists, and stepping over its
           tail cost the first-order error in hmin */
        return len;
    }
    if (len < hmin) {
        /* other events closer than hmin (Zeno-like alternation) are stepped over */
        len = hmin;
        *ev = 3 * m + 1;
    }
    return len;
}

/* After a segment with joint stick rates: a contact that sticks strictly inside its cone
   (|r_c| < mu_c w_c) is put back at u_t = 0, dropping the Gauss–Seidel residual of its rate,
   which would otherwise accumulate past ztol and restart the stick/slip alternation. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(w + (0 .. m - 1));
    requires \valid_read(lh + (0 .. 3 * m - 1)) && \valid(u + (0 .. 3 * m - 1));
    assigns u[0 .. 3 * m - 1];
 */
static void snap_stuck(size_t m, size_t d, const double *mu, const double *w, const double *lh,
                       double ztol, double *u)
{
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, u[0 .. 3 * m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double r = d == 1 ? fabs(lh[3 * c]) : tnorm(2, lh[3 * c], lh[3 * c + 1]);
        double sp = d == 1 ? fabs(u[3 * c]) : tnorm(2, u[3 * c], u[3 * c + 1]);
        if (w[c] > 0.0 && mu[c] > 0.0 && r < mu[c] * w[c] && sp <= ztol) {
            u[3 * c] = 0.0;
            u[3 * c + 1] = 0.0;
        }
    }
}

/* Each weighted contact's own Coulomb rate at u (nsm_impact_lamhat) and rate = W lh. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires vecs: \valid_read(v) && vecs_ok(v, m);
    assigns v->lh[0 .. 3 * m - 1], v->rate[0 .. 3 * m - 1];
 */
static void own_rates(size_t m, size_t d, const double *W, const double *mu, double ztol,
                      const impact_vecs *v)
{
    size_t K = 3 * m;
    nsm_impact_lamhat(m, d, W, v->u, mu, v->w, ztol, v->lh);
    matvec_cols(K, K, W, v->lh, v->rate);
}

/*
 * One segment's weights and impulse rates: the policy's weights (copied to wp with slide),
 * then with slide the held weights and joint stick rates of contacts at rest (nsm_slide),
 * else each weighted contact's own Coulomb rate; rate = W lh. Returns 1 when the joint rates
 * were taken.
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires pol: pol_ready(m, pol);
    requires \valid(ps) && 1 <= ps->rng < NSM_PRNG_MOD;
    requires sched: ps->left >= 0 && ps->unit > 0;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires vecs: \valid_read(v) && vecs_ok(v, m);
    requires \separated(ps, v->w + (0 .. m - 1), v->wraw + (0 .. m - 1));
    requires ps_apart: \separated(ps, v->u + (0 .. 3 * m - 1), v->lam + (0 .. 3 * m - 1),
                                  v->lh + (0 .. 3 * m - 1), v->rate + (0 .. 3 * m - 1),
                                  v->um + (0 .. 3 * m - 1));
    requires wp: \valid(wp + (0 .. m - 1)) &&
                 \separated(wp + (0 .. m - 1), ps, v->w + (0 .. m - 1), v->wraw + (0 .. m - 1),
                            v->lh + (0 .. 3 * m - 1), v->rate + (0 .. 3 * m - 1));
    assigns *ps, v->w[0 .. m - 1], v->wraw[0 .. m - 1], v->lh[0 .. 3 * m - 1],
            v->rate[0 .. 3 * m - 1], wp[0 .. m - 1];
    ensures 1 <= ps->rng < NSM_PRNG_MOD;
    ensures sched: ps->left >= 0 && ps->unit > 0;
    ensures \result == 0 || \result == 1;
 */
static int step_rates(size_t m, size_t d, const nsm_impact_policy *pol, policy_state *ps,
                      const double *W, const double *mu, double ztol, double ntol, int slide,
                      const impact_vecs *v, double *wp)
{
    if (pol->kind == NSM_POLICY_EXTREMAL || pol->kind == NSM_POLICY_EXTREMAL_V) {
        nsm_impact_extremal(m, d, pol->hold, ps, W, v->u, v->gain, mu, ztol, ntol, v->w);
    } else {
        nsm_impact_weights(m, pol, ps, v->u, ntol, v->w, v->wraw);
    }
    int joint = 0;
    if (slide) {
        copy_vec(m, v->w, wp);
        joint = nsm_slide(m, d, W, v->u, mu, ztol, ntol, v->w, v->lh, v->rate);
    }
    if (!joint) {
        own_rates(m, d, W, mu, ztol, v);
    }
    return joint;
}

/* The rates at u again, for a later pass of step_len: the joint rates from the policy's
   weights wp when the segment took them (nsm_slide, warm-started from lh), else, or should
   they no longer converge, each weighted contact's own rate. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires vecs: \valid_read(v) && vecs_ok(v, m);
    requires wp: \valid_read(wp + (0 .. m - 1));
    assigns v->w[0 .. m - 1], v->lh[0 .. 3 * m - 1], v->rate[0 .. 3 * m - 1];
 */
static void rates_again(size_t m, size_t d, const double *W, const double *mu, double ztol,
                        double ntol, int joint, const double *wp, const impact_vecs *v)
{
    if (joint) {
        copy_vec(m, wp, v->w);
        if (nsm_slide(m, d, W, v->u, mu, ztol, ntol, v->w, v->lh, v->rate)) {
            return;
        }
    }
    own_rates(m, d, W, mu, ztol, v);
}

/* Passes of a spatial segment's stages that locate a normal event (step_len), and the
   relative agreement of the event with the stages' length that ends them. */
#define STAGE_PASSES 3
#define STAGE_TOL 1e-12

/*
 * The segment's length and event (as seg_len) from the current rates. For d = 2 the slip
 * directions turn: the segment is at most nsm_impact_slip_cap long (below hmin only with
 * exact), and its rates are the Runge–Kutta average over the segment (nsm_impact_rk4). The
 * events are then located again on the segment of the stages, up to the longest length
 * allowed (the averaged rates may put an event slightly beyond the stages' length); while a
 * normal event found that way does not agree with the length the stages were taken over, the
 * stages are taken again over the event's length (at most STAGE_PASSES passes), so that the
 * event sets the velocity it reaches and its error is of the method's order. Without an event
 * within reach the segment is the stages' length. A slip stopping keeps its rates at the
 * segment's start: it heads straight into rest (stages at or past the origin would reverse
 * its friction). With joint the segment's rates are the joint rates from the policy's
 * weights wp, and so are every stage's, at the stage's velocities (nsm_impact_rk4).
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires 0 <= hmin <= h;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires vecs: \valid_read(v) && vecs_ok(v, m);
    requires \valid(ev) && \separated(ev, v->u + (0 .. 3 * m - 1), v->lh + (0 .. 3 * m - 1),
                                      v->rate + (0 .. 3 * m - 1), v->um + (0 .. 3 * m - 1),
                                      v->ls + (0 .. 3 * m - 1), v->rs + (0 .. 3 * m - 1),
                                      v->w + (0 .. m - 1));
    requires wp: \valid_read(wp + (0 .. m - 1)) &&
                 \separated(wp + (0 .. m - 1), ev, v->w + (0 .. m - 1),
                            v->lh + (0 .. 3 * m - 1), v->rate + (0 .. 3 * m - 1),
                            v->um + (0 .. 3 * m - 1), v->ls + (0 .. 3 * m - 1),
                            v->rs + (0 .. 3 * m - 1));
    assigns *ev, v->lh[0 .. 3 * m - 1], v->rate[0 .. 3 * m - 1], v->um[0 .. 3 * m - 1],
            v->ls[0 .. 3 * m - 1], v->rs[0 .. 3 * m - 1], v->w[0 .. m - 1];
    ensures 0 <= \result <= h;
    ensures *ev <= 3 * m + 1;
 */
static double step_len(size_t m, size_t d, const double *W, const double *mu, double h,
                       double hmin, double ztol, double ntol, int slide, int exact, int slips,
                       int joint, const double *wp, const impact_vecs *v, size_t *ev)
{
    if (d == 1) {
        return seg_len(m, d, v->u, v->rate, v->w, h, hmin, h, ztol, ntol, slide, exact, 0, ev);
    }
    size_t K = 3 * m;
    double lcap = nsm_impact_slip_cap(m, W, mu, v->w, v->u, v->rate, h, slips ? 0.0 : hmin,
                                      ztol, joint);
    double len = seg_len(m, d, v->u, v->rate, v->w, h, hmin, lcap, ztol, ntol, slide, exact,
                         slips, ev);
    if (*ev < K && *ev % 3 == 0) {
        return len; /* a slip stopping: straight into rest */
    }
    /* the longest the segment may be: h, within the turn bound */
    double top = lcap < h ? lcap : h;
    top = top > len ? top : len;
    double stage = len; /* the length the stages are taken over */
    double l = len;
    size_t e = *ev;
    size_t es = K; /* the event of the chord that set the stages' length again, if any */
    /*@ loop invariant 0 <= pass <= STAGE_PASSES;
        loop invariant 0 <= stage <= top && 0 <= l <= top && top <= h;
        loop invariant e <= 3 * m + 1;
        loop assigns pass, stage, l, e, es, v->lh[0 .. 3 * m - 1], v->rate[0 .. 3 * m - 1],
                     v->um[0 .. 3 * m - 1], v->ls[0 .. 3 * m - 1], v->rs[0 .. 3 * m - 1],
                     v->w[0 .. m - 1];
        loop variant STAGE_PASSES - pass;
     */
    for (int pass = 0; pass < STAGE_PASSES; pass++) {
        if (pass > 0) {
            rates_again(m, d, W, mu, ztol, ntol, joint, wp, v);
        }
        nsm_impact_rk4(m, W, mu, v->u, v->w, joint ? wp : NULL, stage, ztol, ntol, v->lh,
                       v->rate, v->um, v->ls, v->rs);
        double hm = hmin < stage ? hmin : stage;
        l = seg_len(m, d, v->u, v->rate, v->w, top, hm, top, ztol, ntol, slide, exact, slips,
                    &e);
        if (!(e < K) || e % 3 == 0 || !(fabs(l - stage) > STAGE_TOL * stage)) {
            break;
        }
        stage = l; /* a normal event elsewhere on the chord: the stages again over its length */
        es = e;
    }
    if (e == K && es < K && stage < hmin) {
        /* the normal event that the averaged rates of a longer chord put closer than hmin is
           not reached by the rates over its own length: it is taken as reached (its u_n set to
           0, an error below hmin times its normal rates, the order of an event stepped over).
           Left unreached, its contact stays just above rest, where the next segment finds the
           same event on the same chord again (seen: a foot's corner at u_n = 3e-12 while a
           slip of another turned, twenty thousand segments of 1e-8) */
        *ev = es;
        return stage;
    }
    if (e == K) {
        *ev = K; /* no event within reach: the segment the stages were taken over */
        return stage;
    }
    *ev = e;
    return l;
}

/*
 * Advances u and lam by len along the segment's rates. After joint stick rates, contacts that
 * stick are put back at rest (snap_stuck); the event's velocity is set to exactly 0 (a
 * tangential event, slot t1: the slip has stopped, both tangential slots).
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(mu + (0 .. m - 1));
    requires vecs: \valid_read(v) && vecs_ok(v, m);
    assigns v->u[0 .. 3 * m - 1], v->lam[0 .. 3 * m - 1];
 */
static void step_advance(size_t m, size_t d, const double *mu, double len, size_t ev, int joint,
                         double ztol, const impact_vecs *v)
{
    size_t K = 3 * m;
    axpy(K, len, v->rate, v->u);
    axpy(K, len, v->lh, v->lam);
    if (joint) {
        snap_stuck(m, d, mu, v->w, v->lh, ztol, v->u);
    }
    if (ev < K) {
        v->u[ev] = 0.0;
        if (ev % 3 != 2) {
            v->u[ev + 1] = 0.0;
        }
    }
}

/* 1 if a segment may cover several steps: no contact without weight sits at normal rest
   (-ntol <= u_n <= 0) with a negative normal rate, about to penetrate between two choices of
   the policy (a step of h would let the policy see it after one step; a longer segment would
   not). For the runs that hold contacts, separating contacts driven back to rest are events
   of seg_len (watch); the other runs change their weights only at their own choices. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(rate + (0 .. 3 * m - 1));
    requires \valid_read(w + (0 .. m - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int span_ok(size_t m, const double *u, const double *rate, const double *w, double ntol)
{
    /*@ loop invariant 0 <= c <= m;
        loop assigns c;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double un = u[3 * c + 2];
        if (!(w[c] > 0.0) && un >= -ntol && un <= 0.0 && rate[3 * c + 2] < 0.0) {
            return 0;
        }
    }
    return 1;
}

/* The longest segment of a span of steps of h: span·h. */
/*@ requires h >= 0 && 1 <= span <= NSM_IMPACT_SPAN_MAX;
    assigns \nothing;
    ensures \result >= h;
 */
static double span_len(double h, size_t span)
{
    double k = (double)span;
    /*@ assert k >= 1; */
    return span > 1 ? h * k : h;
}

/* Steps a segment of length len covered, out of the span it was allowed (len <= span·h): all
   of them when it ran to the end, else the whole steps before its event and the step the event
   fell in. */
/*@ requires span >= 1 && span <= NSM_IMPACT_SPAN_MAX;
    assigns \nothing;
    ensures 1 <= \result <= span;
 */
static size_t steps_taken(double len, double h, size_t span)
{
    if (span == 1 || !(h > 0.0) || !(len > 0.0)) {
        return 1;
    }
    double q = len / h;
    if (!(q < (double)span)) {
        return span;
    }
    if (!(q >= 1.0)) {
        return 1;
    }
    /* 1 <= q < span, so 1 <= floor(q) + 1 <= span */
    return (size_t)q + 1;
}

/*
 * One segment of the loop: the policy's rates (step_rates); the span of steps the segment may
 * cover (the weights' span, at most room, a single step while a contact at rest is about to
 * penetrate, span_ok); its length and event (step_len); the advance (step_advance). Returns
 * the steps covered, 1 .. room; *len receives the segment's normal impulse and *ev its event
 * (as seg_len: > 3m for a forced minimum-length segment).
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires 0 <= hmin <= h;
    requires room: 1 <= room;
    requires pol: pol_ready(m, pol);
    requires \valid(ps) && 1 <= ps->rng < NSM_PRNG_MOD;
    requires sched: ps->left >= 0 && ps->unit > 0;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires vecs: \valid_read(v) && vecs_ok(v, m);
    requires \separated(ps, v->w + (0 .. m - 1), v->wraw + (0 .. m - 1));
    requires ps_apart: \separated(ps, v->u + (0 .. 3 * m - 1), v->lam + (0 .. 3 * m - 1),
                                  v->lh + (0 .. 3 * m - 1), v->rate + (0 .. 3 * m - 1),
                                  v->um + (0 .. 3 * m - 1), v->ls + (0 .. 3 * m - 1),
                                  v->rs + (0 .. 3 * m - 1));
    requires \valid(len) && \separated(len, ps) &&
             \separated(len, v->u + (0 .. 3 * m - 1), v->lam + (0 .. 3 * m - 1),
                        v->lh + (0 .. 3 * m - 1), v->rate + (0 .. 3 * m - 1),
                        v->um + (0 .. 3 * m - 1), v->ls + (0 .. 3 * m - 1),
                        v->rs + (0 .. 3 * m - 1), v->w + (0 .. m - 1), v->wraw + (0 .. m - 1));
    requires \valid(ev) && \separated(ev, ps, v->u + (0 .. 3 * m - 1), v->lh + (0 .. 3 * m - 1),
                                      v->rate + (0 .. 3 * m - 1), v->um + (0 .. 3 * m - 1),
                                      v->ls + (0 .. 3 * m - 1), v->rs + (0 .. 3 * m - 1),
                                      v->w + (0 .. m - 1));
    assigns *ps, *len, *ev, v->u[0 .. 3 * m - 1], v->lam[0 .. 3 * m - 1],
            v->lh[0 .. 3 * m - 1], v->rate[0 .. 3 * m - 1], v->um[0 .. 3 * m - 1],
            v->ls[0 .. 3 * m - 1], v->rs[0 .. 3 * m - 1], v->w[0 .. m - 1],
            v->wraw[0 .. m - 1];
    ensures 1 <= \result <= room;
    ensures 1 <= ps->rng < NSM_PRNG_MOD;
    ensures sched: ps->left >= 0 && ps->unit > 0;
 */
static size_t segment(size_t m, size_t d, const nsm_impact_policy *pol, policy_state *ps,
                      const double *W, const double *mu, double h, double hmin, double ztol,
                      double ntol, int slide, int exact, int slips, size_t room,
                      const impact_vecs *v,
                      double *len, size_t *ev)
{
    double wp[NSM_MAX_DIM / 3]; /* the policy's weights, when joint rates are taken */
    int joint = step_rates(m, d, pol, ps, W, mu, ztol, ntol, slide, v, wp);
    /* planar motion is linear in s between events, and a spatial contact acting alone follows
       its slip along an arc: the weights' whole span in one segment; one step at a time for
       spatial runs that weight several contacts (their slips rotate together) and for joint
       stick and held rates (iterated from one step to the next, nsm_slide) */
    size_t span = (d == 1 || !slide) && !joint ? nsm_impact_span(pol, ps) : 1;
    if (span > room) {
        span = room;
    }
    if (span > 1 && !span_ok(m, v->u, v->rate, v->w, ntol)) {
        span = 1;
    }
    /*@ assert 1 <= span <= room && span <= NSM_IMPACT_SPAN_MAX; */
    /* a schedule phase ends at its dwell: an event like the others */
    int over = nsm_impact_phase_short(pol, ps, hmin);
    double hs = nsm_impact_phase_cap(pol, ps, span_len(h, span), hmin);
    double l = 0.0;
    if (d == 1 || slide ||
        !nsm_impact_arc_segment(m, W, mu, hs, h, hmin, ztol, ntol, exact, slips, v, &l, ev)) {
        l = step_len(m, d, W, mu, hs, hmin, ztol, ntol, slide, exact, slips, joint, wp, v, ev);
    }
    step_advance(m, d, mu, l, *ev, joint, ztol, v);
    if (over && l > ps->left) {
        *ev = 3 * m + 1; /* the dwell's end, closer than hmin, was stepped over: forced */
    }
    size_t taken = steps_taken(l, h, span);
    nsm_impact_span_taken(ps, taken, l);
    *len = l;
    return taken;
}

/* 1 if a segment of length len along rate moves some contact velocity by more than its
   rounding (4 ulps of |u_i|, or from 0). */
/*@ requires 1 <= K <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. K - 1)) && \valid_read(rate + (0 .. K - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int seg_moves(size_t K, double len, const double *rate, const double *u)
{
    /*@ loop invariant 0 <= i <= K;
        loop assigns i;
        loop variant K - i;
     */
    for (size_t i = 0; i < K; i++) {
        if (!(fabs(len * rate[i]) <= 4.0 * DBL_EPSILON * fabs(u[i]))) {
            return 1;
        }
    }
    return 0;
}

/* The slip below which a run that holds contacts takes a spatial contact as at rest with
   opts.slip_rest > 0: ztol, or rho·hs if that is more, hs = slip_rest·h and rho =
   max_c mu_c·(W_t1t1 + W_t2t2)/2 (invariant under a rotation of the tangent frame): what the
   strongest friction of one contact at full weight moves its slip in hs of normal impulse.
   A smaller slip is followed in segments of its own length (the turn bound scales with
   |u_t|), and where the joint stick rates of other contacts hold it still (a rigid foot's
   corners) in segments of hmin to the end; taken as rest, the joint solve sticks it or
   re-slips it. The error this makes is of the order of hs. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    assigns \nothing;
    ensures \result >= ztol;
 */
static double rest_slip(size_t m, const double *W, const double *mu, double hs, double ztol)
{
    size_t K = 3 * m;
    double rho = 0.0;
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, rho;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        /*@ assert K * K == 9 * m * m; */
        lemma_idx(3 * c, 3 * c, K);
        lemma_idx(3 * c + 1, 3 * c + 1, K);
        double f = mu[c] * (0.5 * (W[(3 * c) * K + 3 * c] + W[(3 * c + 1) * K + 3 * c + 1]));
        rho = f > rho ? f : rho;
    }
    double z = rho * hs;
    return z > ztol ? z : ztol;
}

/* The state at the start of the integration: Λ, the held rates lh and the raw draws wraw
   zero; no acting contact (cur = m), nothing held, the PRNG seeded from pol->seed, no
   schedule phase started, the dwells' impulse scale from the contact velocities at v_-. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(pol) && \valid_read(v) && vecs_ok(v, m) && \valid(ps);
    requires \valid_read(W + (0 .. 9 * m * m - 1));
    requires \separated(ps, v->lam + (0 .. 3 * m - 1)) &&
             \separated(ps, v->lh + (0 .. 3 * m - 1)) && \separated(ps, v->wraw + (0 .. m - 1));
    assigns *ps, v->lam[0 .. 3 * m - 1], v->lh[0 .. 3 * m - 1], v->wraw[0 .. m - 1];
    ensures 1 <= ps->rng < NSM_PRNG_MOD;
    ensures ps->left >= 0 && ps->unit > 0;
 */
static void integrate_start(size_t m, const nsm_impact_policy *pol, const double *W,
                            double ntol, const impact_vecs *v, policy_state *ps)
{
    ps->cur = m;
    ps->rng = 1ul + (unsigned long)(pol->seed % (NSM_PRNG_MOD - 1ul));
    ps->held = 0;
    ps->dwell = 1;
    ps->phase = 0;
    ps->left = 0.0;
    ps->unit = nsm_impact_schedule_unit(m, W, v->u, ntol);
    zero_vec(3 * m, v->lam);
    zero_vec(3 * m, v->lh);
    zero_vec(m, v->wraw);
}

nsm_status nsm_impact_integrate(size_t m, size_t d, const nsm_impact_policy *pol,
                                const double *W, const double *mu, double h, size_t steps_h,
                                double ztol, double slip_rest, double ntol,
                                const impact_vecs *v, nsm_impact_info *inf)
{
    size_t K = 3 * m;
    policy_state ps;
    integrate_start(m, pol, W, ntol, v, &ps);
    double hmin = h / (double)NSM_IMPACT_MIN_STEP_RATIO;
    /* runs but sequential, bang-bang, extremal and schedule ones hold contacts at rest
       (nsm_slide) */
    int slide = pol->kind != NSM_POLICY_SEQUENTIAL &&
                pol->kind != NSM_POLICY_BANGBANG && pol->kind != NSM_POLICY_EXTREMAL &&
                pol->kind != NSM_POLICY_EXTREMAL_V && pol->kind != NSM_POLICY_SCHEDULE;
    /* sequential, bang-bang and schedule runs resolve the contact they chose to rest (or to
       the end of its dwell): their events closer than hmin are located exactly (seg_len), so
       that the tail of contacts pushing each other back, which converges geometrically, is
       exact; up to a count, since a tail can accumulate (Zeno) before the impact ends: ample
       for sequential runs with slip_rest = 0, which the oracle checks to 1e-6, and a cost
       bound for the sets' runs. The extremal rules and the held ones keep stepping over normal
       events (an extremal rule may keep switching among three contacts without end). Every
       spatial run follows its slips into rest however short the segments (slips), within
       the same count (NSM_IMPACT_EXACT_SHORT_EXPLORE_SPATIAL for the runs but sequential). */
    int kept = pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_BANGBANG ||
               pol->kind == NSM_POLICY_SCHEDULE;
    size_t shorts = pol->kind == NSM_POLICY_SEQUENTIAL ? (size_t)NSM_IMPACT_EXACT_SHORT
                  : d == 2 ? (size_t)NSM_IMPACT_EXACT_SHORT_EXPLORE_SPATIAL
                  : kept ? (size_t)NSM_IMPACT_EXACT_SHORT_EXPLORE
                  : 0u;
    /* a sequential run at a step's resolution (slip_rest > 0, the sets' runs) pays for its
       short segments as the exploration runs do: the tail beyond them is stepped over */
    int exact_seq = pol->kind == NSM_POLICY_SEQUENTIAL && !(slip_rest > 0.0);
    size_t per = exact_seq || slide ? (size_t)NSM_IMPACT_EXACT_SHORT_PER_STEP
                                    : (size_t)NSM_IMPACT_EXACT_SHORT_PER_STEP_EXPLORE;
    if (d == 2 && steps_h < shorts / per) {
        /* a spatial short segment costs Runge–Kutta stages and joint solves: a coarse run
           pays for at most per of them per step of h over the run (fewer for the bang-bang,
           extremal and schedule runs, which explore, and sequential runs with slip_rest) */
        shorts = steps_h * per;
    }
    if (slide && d == 2 && slip_rest > 0.0) {
        ztol = rest_slip(m, W, mu, slip_rest * h, ztol);
    }
    size_t cap = inf->step_cap;
    int has_bound = inf->has_bound;
    double bound = inf->bound;
    double s = 0.0;
    size_t steps = 0;
    size_t forced = 0;
    nsm_status res = NSM_ERR_NO_CONVERGENCE;
    int stop = 0;
    size_t k = 0;
    /*@ loop invariant 0 <= k <= cap;
        loop invariant steps <= k;
        loop invariant forced <= steps;
        loop invariant shorts <= NSM_IMPACT_EXACT_SHORT;
        loop invariant 1 <= ps.rng < NSM_PRNG_MOD;
        loop invariant sched: ps.left >= 0 && ps.unit > 0;
        loop invariant res == NSM_OK || res == NSM_ERR_BOUND || res == NSM_ERR_NO_CONVERGENCE;
        loop invariant bound: res != NSM_ERR_BOUND ==> has_bound == 0 || s <= bound;
        loop invariant running: stop == 0 ==> res == NSM_ERR_NO_CONVERGENCE;
        loop assigns k, ps, stop, res, s, steps, forced, shorts, v->u[0 .. K - 1],
                     v->lam[0 .. K - 1],
                     v->lh[0 .. K - 1], v->rate[0 .. K - 1], v->um[0 .. K - 1],
                     v->ls[0 .. K - 1], v->rs[0 .. K - 1],
                     v->w[0 .. m - 1], v->wraw[0 .. m - 1];
        loop variant cap - k + (stop == 0 ? 1 : 0);
     */
    while (k < cap && !stop) {
        if (nsm_impact_count_pen(m, v->u, ntol) == 0) {
            res = NSM_OK;
            stop = 1;
        } else {
            double len = 0.0;
            size_t ev = 0;
            size_t taken = segment(m, d, pol, &ps, W, mu, h, hmin, ztol, ntol, slide,
                                   kept && shorts > 0, d == 2 && shorts > 0, cap - k, v, &len,
                                   &ev);
            s += len;
            forced += ev > K ? 1u : 0u;
            shorts -= len < hmin && shorts > 0 ? 1u : 0u;
            if (len < hmin && ev == K && !seg_moves(K, len, v->rate, v->u)) {
                /* a spatial segment shortened by its turn bound that moved no velocity beyond
                   rounding: the slips are followed no further (events are stepped over) */
                shorts = 0;
            }
            k += taken;
            steps = k;
            if (has_bound && s > bound) {
                res = NSM_ERR_BOUND;
                stop = 1;
            }
        }
    }
    if (!stop && nsm_impact_count_pen(m, v->u, ntol) == 0) {
        res = NSM_OK;
    }
    inf->s = s;
    inf->steps = steps;
    inf->forced = forced;
    inf->terminated = res == NSM_OK;
    return res;
}
