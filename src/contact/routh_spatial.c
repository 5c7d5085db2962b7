/*
 * Routh's method for one spatial contact (d = 2), zero restitution. Implements docs/math.md
 * (I4) for one contact with the rates (I7) and (I8), and the energy bound (I9).
 *
 * Order of the unknowns: (t1, t2, n). The state along the impact is the accumulated impulse
 * p = (p_t1, p_t2, p_n) and the contact velocity u = u0 + W p, both advanced together.
 *
 * - Slip (|u_t| > ztol): the tangential rate is -mu·u_t/|u_t|, whose direction rotates. The
 *   phase is integrated with the midpoint rule (direction at the half step) in steps of length
 *   h = bound/steps in p_n, shortened so that u_t changes by at most SP_ROT_FRAC·|u_t| over a
 *   step (the direction then turns by a bounded angle; without this, a coarse h can step over
 *   a fast rotation and even raise the energy), and shortened to an event: u_n reaching 0
 *   (compression over) or the slip stopping. The slip stop is located on the linearised path
 *   u_t + s·r_t: at s* = -u_t·r_t/|r_t|^2 when u_t·r_t < 0 and the path passes close to the
 *   origin (squared distance at most NSM_SLIP_STOP2·|u_t|^2, or SP_STOP_LOOSE2·|u_t|^2 once a
 *   step of hmin no longer resolves u_t). u is advanced to s* and not snapped to 0, so that
 *   u = u0 + W p holds to rounding; the contact is then at rest. Every step that does not end
 *   the phase has length h or at least hmin = h/NSM_IMPACT_MIN_STEP_RATIO, so the step cap
 *   steps·NSM_IMPACT_MIN_STEP_RATIO + 1 is only reached if p_n would exceed the bound.
 * - Rest: stick when |W_tt^-1 W_tn| <= mu (rate -W_tt^-1 W_tn, normal rate the Schur complement
 *   W_nn - W_tn·W_tt^-1 W_tn > 0); otherwise slip resumes along the unit s with
 *   W_tn = (alpha·I + mu·W_tt)·s, alpha > 0 (bisection on alpha; coulomb.h). On that ray
 *   u_t' = alpha·s, so the direction is constant and the phase is exact-linear. Its normal rate
 *   W_nn - mu·W_tn·s is positive for SPD W (otherwise the impact would dissipate energy at a
 *   rate >= |u_n| forever); if rounding makes it non-positive: NSM_ERR_NO_CONVERGENCE.
 * - Bound: energy u^T W^-1 u does not increase while u_n < 0 (its rate is
 *   2(u_n - mu|u_t|) <= 0), so |W p|_{W^-1} <= 2 sqrt(E0) and
 *   p_n <= |p| <= 2 sqrt(E0/lambda_min) <= 2 sqrt(E0·trace(W^-1)), for any mu.
 *   For mu = 0 the exact -u_n/W_nn is used (one phase, no integration).
 * - The final p_t is scaled onto the cone |p_t| <= mu p_n if rounding put it outside (in
 *   exact arithmetic every rate has |p_t'| <= mu, so the scaling is inactive).
 */
#include "nsmech/contact.h"
#include "../nsm_math.h"
#include "coulomb.h"

/* Largest squared distance from the origin, relative to |u_t|^2, at which the closest point
   of the linearised slip path counts as the slip stopping within the step: NSM_SLIP_STOP2
   (5 %) normally, loose (50 %) once |u_t| is below what a step of hmin resolves. */
#define SP_STOP_LOOSE2 0.25
/* Largest change of the slip velocity over a step, relative to |u_t| (rotation control). */
#define SP_ROT_FRAC 0.125
/* Largest admissible number of steps. */
#define SP_MAX_STEPS 1000000u

/* Symmetrised W: W_tt = [[a11, a12], [a12, a22]], W_tn = (b1, b2), W_nn = c. */
typedef struct sp_w {
    double a11;
    double a12;
    double a22;
    double b1;
    double b2;
    double c;
} sp_w;

/* Impulse p = (p_t1, p_t2, p_n) and velocity u = (u_t1, u_t2, u_n). */
typedef struct sp_state {
    double p1;
    double p2;
    double pn;
    double u1;
    double u2;
    double un;
} sp_state;

/* max(x, 0). */
/*@ assigns \nothing;
    ensures \result >= 0;
    ensures x >= 0 ==> \result == x;
 */
static double sp_pos(double x)
{
    return x > 0.0 ? x : 0.0;
}

/* max(0, -x/q) for q > 0: the length at which x + q·len reaches 0. */
/*@ requires q > 0;
    assigns \nothing;
    ensures \result >= 0;
 */
static double sp_event_len(double x, double q)
{
    return sp_pos(-x / q);
}

/* Validation of the scalar arguments and of W, u0 (pointers non-NULL). */
/*@ requires \valid_read(W + (0 .. 8)) && \valid_read(u0 + (0 .. 2));
    assigns \nothing;
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                    \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NOT_SPD;
    ensures ok: \result == NSM_OK ==> mu >= 0 && ztol >= 0 && 1 <= steps <= SP_MAX_STEPS;
 */
static nsm_status sp_check(const double *W, const double *u0, double mu, double ztol,
                           size_t steps)
{
    if (!(mu >= 0.0) || !(ztol >= 0.0) || !nsm_all_finite(1, &mu) ||
        !nsm_all_finite(1, &ztol) || steps < 1 || steps > SP_MAX_STEPS) {
        return NSM_ERR_ARG;
    }
    if (!nsm_all_finite(9, W) || !nsm_all_finite(3, u0)) {
        return NSM_ERR_NOT_FINITE;
    }
    double tol = NSM_ROUTH_SYM_RTOL * (fabs(W[0]) + fabs(W[4]) + fabs(W[8]));
    if (fabs(W[1] - W[3]) > tol || fabs(W[2] - W[6]) > tol || fabs(W[5] - W[7]) > tol) {
        return NSM_ERR_NOT_SPD;
    }
    return NSM_OK;
}

/* The symmetrised entries (means of W_ij and W_ji). */
/*@ requires \valid_read(W + (0 .. 8)) && \valid(w);
    requires \separated(w, W + (0 .. 8));
    assigns *w;
 */
static void sp_sym(const double *W, sp_w *w)
{
    w->a11 = W[0];
    w->a12 = 0.5 * (W[1] + W[3]);
    w->a22 = W[4];
    w->b1 = 0.5 * (W[2] + W[6]);
    w->b2 = 0.5 * (W[5] + W[7]);
    w->c = W[8];
}

/*
 * Cholesky W = L L^T (positive pivots, else NSM_ERR_NOT_SPD); *e0 = u0^T W^-1 u0 = |L^-1 u0|^2
 * and *tr = trace(W^-1) = |L^-1|_F^2.
 */
/*@ requires \valid_read(w) && \valid_read(u0 + (0 .. 2)) && \valid(e0) && \valid(tr);
    requires \separated(e0, tr, w, u0 + (0 .. 2));
    assigns *e0, *tr;
    ensures \result == NSM_OK || \result == NSM_ERR_NOT_SPD;
    ensures \result == NSM_OK ==> *e0 >= 0 && *tr >= 0;
 */
static nsm_status sp_factor(const sp_w *w, const double *u0, double *e0, double *tr)
{
    if (!(w->a11 > 0.0)) {
        return NSM_ERR_NOT_SPD;
    }
    double l11 = sqrt(w->a11);
    double l21 = w->a12 / l11;
    double l31 = w->b1 / l11;
    double d2 = w->a22 - l21 * l21;
    if (!(d2 > 0.0)) {
        return NSM_ERR_NOT_SPD;
    }
    double l22 = sqrt(d2);
    double l32 = (w->b2 - l31 * l21) / l22;
    double d3 = w->c - l31 * l31 - l32 * l32;
    if (!(d3 > 0.0)) {
        return NSM_ERR_NOT_SPD;
    }
    double l33 = sqrt(d3);
    /* y = L^-1 u0 */
    double y1 = u0[0] / l11;
    double y2 = (u0[1] - l21 * y1) / l22;
    double y3 = (u0[2] - l31 * y1 - l32 * y2) / l33;
    /* X = L^-1 (lower triangular) */
    double x11 = 1.0 / l11;
    double x22 = 1.0 / l22;
    double x33 = 1.0 / l33;
    double x21 = -l21 * x11 / l22;
    double x32 = -l32 * x22 / l33;
    double x31 = -(l31 * x11 + l32 * x21) / l33;
    *e0 = y1 * y1 + y2 * y2 + y3 * y3;
    *tr = x11 * x11 + x22 * x22 + x33 * x33 + x21 * x21 + x32 * x32 + x31 * x31;
    return NSM_OK;
}

/* Rate of u for the tangential impulse rate (d1, d2) per unit p_n: r = W (d1, d2, 1). */
/*@ requires \valid_read(w) && \valid(r + (0 .. 2));
    requires \separated(w, r + (0 .. 2));
    assigns r[0 .. 2];
 */
static void sp_rate(const sp_w *w, double d1, double d2, double *r)
{
    r[0] = w->a11 * d1 + w->a12 * d2 + w->b1;
    r[1] = w->a12 * d1 + w->a22 * d2 + w->b2;
    r[2] = w->b1 * d1 + w->b2 * d2 + w->c;
}

/* Slip direction d = -mu·(x, y)/|(x, y)|; returns 0 (d = 0) when (x, y) = 0. */
/*@ requires \valid(d + (0 .. 1));
    assigns d[0 .. 1];
    ensures \result == 0 || \result == 1;
 */
static int sp_slip_dir(double x, double y, double mu, double *d)
{
    double n2 = x * x + y * y;
    if (!(n2 > 0.0)) {
        d[0] = 0.0;
        d[1] = 0.0;
        return 0;
    }
    double n = sqrt(n2);
    d[0] = -mu * x / n;
    d[1] = -mu * y / n;
    return 1;
}

/* Where the linearised slip path (ut1, ut2) + s·(rt1, rt2) stops: s* = -u_t·r_t/|r_t|^2 when
   u_t·r_t < 0 and the path's closest point is within sqrt(miss2)·|u_t| of the origin;
   else -1. */
/*@ assigns \nothing;
    ensures \result == -1 || \result >= 0;
 */
static double sp_stop_len(double ut1, double ut2, double rt1, double rt2, double miss2)
{
    double dot = ut1 * rt1 + ut2 * rt2;
    double rr = rt1 * rt1 + rt2 * rt2;
    double uu = ut1 * ut1 + ut2 * ut2;
    if (!(dot < 0.0) || !(rr > 0.0)) {
        return -1.0;
    }
    /* distance^2 at s* is uu - dot^2/rr */
    if (uu * rr - dot * dot > miss2 * uu * rr) {
        return -1.0;
    }
    return sp_pos(-dot / rr);
}

/* Advance the state by a length len >= 0 of p_n at tangential rate (d1, d2), u-rate r. */
/*@ requires \valid(st) && \valid_read(r + (0 .. 2));
    requires \separated(st, r + (0 .. 2));
    requires len >= 0 && st->pn >= 0;
    assigns *st;
    ensures st->pn >= 0;
    ensures st->p1 == \old(st->p1) + d1 * len && st->p2 == \old(st->p2) + d2 * len;
 */
static void sp_advance(sp_state *st, double d1, double d2, const double *r, double len)
{
    st->p1 += d1 * len;
    st->p2 += d2 * len;
    st->pn += len;
    st->u1 += r[0] * len;
    st->u2 += r[1] * len;
    st->un += r[2] * len;
}

/* Step kinds of a slip step. */
#define SP_PLAIN 0
#define SP_STOP 1
#define SP_DONE 2

/*
 * Event-limited step length and kind from the rate r1 at the start of a step: the trial
 * length h, shortened to the slip stop or to u_n = 0 predicted by r1.
 */
/*@ requires \valid_read(st) && \valid_read(r + (0 .. 2)) && \valid(kind);
    requires \separated(kind, st, r + (0 .. 2));
    requires 0 <= hmin <= h;
    assigns *kind;
    ensures 0 <= \result <= h;
    ensures *kind == SP_PLAIN || *kind == SP_STOP || *kind == SP_DONE;
 */
static double sp_trial(const sp_state *st, const double *r, double h, double hmin, int *kind)
{
    double len = h;
    double uu = st->u1 * st->u1 + st->u2 * st->u2;
    double rr = r[0] * r[0] + r[1] * r[1];
    *kind = SP_PLAIN;
    double e = sp_stop_len(st->u1, st->u2, r[0], r[1], NSM_SLIP_STOP2);
    if (e < 0.0 && SP_ROT_FRAC * SP_ROT_FRAC * uu < hmin * hmin * rr) {
        e = sp_stop_len(st->u1, st->u2, r[0], r[1], SP_STOP_LOOSE2);
    }
    if (e >= 0.0 && e < len) {
        len = e;
        *kind = SP_STOP;
    }
    if (r[2] > 0.0) {
        e = sp_event_len(st->un, r[2]);
        if (e < len) {
            len = e;
            *kind = SP_DONE;
        }
    }
    if (*kind != SP_STOP) {
        /* the slip velocity may change by at most SP_ROT_FRAC·|u_t| over the step (its
           direction then turns by at most about SP_ROT_FRAC), but the step is >= hmin */
        if (rr > 0.0) {
            double lim = SP_ROT_FRAC * sqrt(sp_pos(uu / rr));
            if (lim < hmin) {
                lim = hmin;
            }
            if (lim < len) {
                len = lim;
                *kind = SP_PLAIN;
            }
        }
    }
    return len;
}

/*
 * Final length and kind of a step from the midpoint rate r2 (trial length len, kind from the
 * start rate). Events predicted at the start are confirmed (their location refined by r2); a
 * plain step is shortened to an event that r2 finds within it; a predicted end of
 * compression that r2 does not confirm becomes a plain step of length at least hmin.
 */
/*@ requires \valid_read(st) && \valid_read(r2 + (0 .. 2)) && \valid(kind);
    requires \separated(kind, st, r2 + (0 .. 2));
    requires 0 <= len <= h && hmin >= 0;
    requires *kind == SP_PLAIN || *kind == SP_STOP || *kind == SP_DONE;
    assigns *kind;
    ensures \result >= 0;
    ensures *kind == SP_PLAIN || *kind == SP_STOP || *kind == SP_DONE;
 */
static double sp_final(const sp_state *st, const double *r2, double len, double h, double hmin,
                       int *kind)
{
    double e = sp_stop_len(st->u1, st->u2, r2[0], r2[1], NSM_SLIP_STOP2);
    if (*kind == SP_PLAIN && e >= 0.0 && e <= len) {
        len = e;
        *kind = SP_STOP;
    } else if (*kind == SP_STOP) {
        e = sp_stop_len(st->u1, st->u2, r2[0], r2[1], SP_STOP_LOOSE2);
        if (e >= 0.0 && e <= h) {
            len = e;
        }
    }
    if (r2[2] > 0.0) {
        double en = sp_event_len(st->un, r2[2]);
        if (en <= len || *kind == SP_DONE) {
            len = en;
            *kind = SP_DONE;
        }
    } else if (*kind == SP_DONE) {
        *kind = SP_PLAIN;
        if (len < hmin) {
            len = hmin;
        }
    }
    return len;
}

/*
 * One midpoint step of a slip phase (u_t != 0 expected). Returns SP_DONE when compression
 * ended (u_n set to 0), SP_STOP when the slip stopped (or |u_t| <= ztol), else SP_PLAIN.
 * *painleve is set when the normal rate of the step is not positive.
 */
/*@ requires \valid(st) && \valid_read(w) && \valid(painleve);
    requires \separated(st, w, painleve);
    requires 0 <= hmin <= h && st->pn >= 0;
    assigns *st, *painleve;
    ensures st->pn >= 0;
    ensures \result == SP_PLAIN || \result == SP_STOP || \result == SP_DONE;
 */
static int sp_slip_step(sp_state *st, const sp_w *w, double mu, double ztol, double h,
                        double hmin, int *painleve)
{
    double d1[2];
    double d2[2];
    double r1[3];
    double r2[3];
    int kind;
    (void)sp_slip_dir(st->u1, st->u2, mu, d1);
    sp_rate(w, d1[0], d1[1], r1);
    double len = sp_trial(st, r1, h, hmin, &kind);
    double half = 0.5 * len;
    if (sp_slip_dir(st->u1 + half * r1[0], st->u2 + half * r1[1], mu, d2) == 0) {
        d2[0] = d1[0];
        d2[1] = d1[1];
    }
    sp_rate(w, d2[0], d2[1], r2);
    if (!(r2[2] > 0.0)) {
        *painleve = 1;
    }
    len = sp_final(st, r2, len, h, hmin, &kind);
    sp_advance(st, d2[0], d2[1], r2, len);
    if (kind == SP_DONE || st->un >= 0.0) {
        st->un = 0.0;
        return SP_DONE;
    }
    if (kind == SP_STOP || st->u1 * st->u1 + st->u2 * st->u2 <= ztol * ztol) {
        return SP_STOP;
    }
    return SP_PLAIN;
}

/* The slip phase: steps until an event, at most cap steps. Returns SP_STOP, SP_DONE, or -1 at
   the cap; *nsteps = steps taken. */
/*@ requires \valid(st) && \valid_read(w) && \valid(painleve) && \valid(nsteps);
    requires \separated(st, w, painleve, nsteps);
    requires 0 <= hmin <= h && st->pn >= 0;
    assigns *st, *painleve, *nsteps;
    ensures st->pn >= 0;
    ensures \result == -1 || \result == SP_STOP || \result == SP_DONE;
    ensures *nsteps <= cap;
 */
static int sp_slip_phase(sp_state *st, const sp_w *w, double mu, double ztol, double h,
                         double hmin, size_t cap, int *painleve, size_t *nsteps)
{
    int ev = SP_PLAIN;
    *nsteps = 0;
    /*@ loop invariant 0 <= k <= cap;
        loop invariant *nsteps == k;
        loop invariant st->pn >= 0;
        loop invariant ev == SP_PLAIN || ev == SP_STOP || ev == SP_DONE;
        loop assigns k, ev, *st, *painleve, *nsteps;
        loop variant cap - k;
     */
    for (size_t k = 0; k < cap && ev == SP_PLAIN; k++) {
        ev = sp_slip_step(st, w, mu, ztol, h, hmin, painleve);
        *nsteps = k + 1;
    }
    return ev == SP_PLAIN ? -1 : ev;
}

/*
 * The phase from rest, exact-linear to u_n = 0: stick when |W_tt^-1 W_tn| <= mu, else slip
 * along the ray. *ph is the phase taken; returns 0, or -1 if its normal rate is not positive
 * (rounding only, W nearly singular).
 */
/*@ requires \valid(st) && \valid_read(w) && \valid(ph);
    requires \separated(st, w, ph);
    requires mu > 0 && st->pn >= 0;
    assigns *st, *ph;
    ensures st->pn >= 0;
    ensures \result == 0 || \result == -1;
    ensures *ph == NSM_PHASE_STICK || *ph == NSM_PHASE_SLIP;
 */
static int sp_rest_phase(sp_state *st, const sp_w *w, double mu, nsm_routh_phase *ph)
{
    double d[2];
    double r[3];
    int stick = nsm_coulomb_rest2(mu, w->a11, w->a12, w->a22, w->b1, w->b2, d);
    *ph = stick > 0 ? NSM_PHASE_STICK : NSM_PHASE_SLIP;
    if (stick < 0) {
        return -1;
    }
    sp_rate(w, d[0], d[1], r);
    if (!(r[2] > 0.0)) {
        return -1;
    }
    sp_advance(st, d[0], d[1], r, sp_event_len(st->un, r[2]));
    st->un = 0.0;
    return 0;
}

/* Puts p_t in the cone |p_t| <= mu p_n exactly, in IEEE arithmetic too (nsm_coulomb_inward2:
   a few units of rounding inside when it is not certainly in it). */
/*@ requires \valid(st);
    requires mu >= 0 && st->pn >= 0;
    assigns st->p1, st->p2;
    ensures cone: st->p1 * st->p1 + st->p2 * st->p2 <= mu * mu * st->pn * st->pn;
    ensures zero: \old(st->p1) == 0.0 && \old(st->p2) == 0.0 ==>
                  st->p1 == 0.0 && st->p2 == 0.0;
 */
static void sp_cone(sp_state *st, double mu)
{
    nsm_coulomb_inward2(mu, st->pn, &st->p1, &st->p2);
}

/* Writes the final state, phases and counters to *res. */
/*@ requires \valid(res) && \valid_read(st) && \valid_read(ph + (0 .. 2)) &&
             \valid_read(pend + (0 .. 2));
    requires \separated(res, st, ph + (0 .. 2), pend + (0 .. 2));
    requires nph <= NSM_ROUTH_MAX_PHASES;
    assigns *res;
    ensures res->p_t[0] == st->p1 && res->p_t[1] == st->p2 && res->p_n == st->pn;
    ensures res->nphases == nph;
    ensures cone: st->p1 * st->p1 + st->p2 * st->p2 <= mu * mu * st->pn * st->pn ==>
                  res->p_t[0] * res->p_t[0] + res->p_t[1] * res->p_t[1] <=
                  mu * mu * res->p_n * res->p_n;
 */
static void sp_store(const sp_state *st, double mu, size_t nph, const nsm_routh_phase *ph,
                     const double *pend, double bound, size_t nsteps, int painleve,
                     nsm_routh_spatial_result *res)
{
    (void)mu;
    res->p_t[0] = st->p1;
    res->p_t[1] = st->p2;
    res->p_n = st->pn;
    res->u_t[0] = st->u1;
    res->u_t[1] = st->u2;
    res->u_n = st->un;
    res->nphases = nph;
    /*@ loop invariant 0 <= k <= NSM_ROUTH_MAX_PHASES;
        loop assigns k, res->phase[0 .. NSM_ROUTH_MAX_PHASES - 1],
                     res->phase_end[0 .. NSM_ROUTH_MAX_PHASES - 1];
        loop variant NSM_ROUTH_MAX_PHASES - k;
     */
    for (size_t k = 0; k < NSM_ROUTH_MAX_PHASES; k++) {
        res->phase[k] = ph[k];
        res->phase_end[k] = pend[k];
    }
    res->bound = bound;
    res->steps = nsteps;
    res->painleve = painleve;
}

/* Initial state (p = 0, u = u0) and phase records (unused entries: stick at p_n = 0).
   (Array initialisers of doubles are avoided: WP 25 types their zeros as integers.) */
/*@ requires \valid_read(u0 + (0 .. 2)) && \valid(st) && \valid(ph + (0 .. 2)) &&
             \valid(pend + (0 .. 2));
    requires \separated(st, ph + (0 .. 2), pend + (0 .. 2), u0 + (0 .. 2));
    assigns *st, ph[0 .. 2], pend[0 .. 2];
    ensures st->p1 == 0.0 && st->p2 == 0.0 && st->pn == 0.0;
    ensures st->u1 == u0[0] && st->u2 == u0[1] && st->un == u0[2];
 */
static void sp_init(const double *u0, sp_state *st, nsm_routh_phase *ph, double *pend)
{
    st->p1 = 0.0;
    st->p2 = 0.0;
    st->pn = 0.0;
    st->u1 = u0[0];
    st->u2 = u0[1];
    st->un = u0[2];
    ph[0] = NSM_PHASE_STICK;
    ph[1] = NSM_PHASE_STICK;
    ph[2] = NSM_PHASE_STICK;
    pend[0] = 0.0;
    pend[1] = 0.0;
    pend[2] = 0.0;
}

/* Frictionless impact (mu = 0): one exact phase, p_n = -u_n/W_nn; *bound = that value times
   (1 + NSM_BOUND_RTOL). Returns -1 if W_nn is not positive (rounding only). */
/*@ requires \valid(st) && \valid_read(w) && \valid(ph + (0 .. 2)) && \valid(pend + (0 .. 2)) &&
             \valid(bound);
    requires \separated(st, w, ph + (0 .. 2), pend + (0 .. 2), bound);
    requires st->pn >= 0;
    assigns *st, ph[0], pend[0], *bound;
    ensures \result == 0 || \result == -1;
    ensures st->pn >= 0;
    ensures st->p1 == \old(st->p1) && st->p2 == \old(st->p2);
 */
static int sp_frictionless(sp_state *st, const sp_w *w, nsm_routh_phase *ph, double *pend,
                           double *bound)
{
    double r[3];
    sp_rate(w, 0.0, 0.0, r);
    if (!(r[2] > 0.0)) {
        return -1;
    }
    double len = sp_event_len(st->un, r[2]);
    sp_advance(st, 0.0, 0.0, r, len);
    st->un = 0.0;
    ph[0] = NSM_PHASE_FRICTIONLESS;
    pend[0] = st->pn;
    *bound = sp_pos(len * (1.0 + NSM_BOUND_RTOL));
    return 0;
}

/* Impact with friction (mu > 0): slip phase (integrated) if u_t is not at rest, then the
   phase from rest unless compression ended. Returns 0, -1 (step cap, or a rest phase with
   no normal progress) or -2 (the bound, hence the step, exceeds the double range). */
/*@ requires \valid(st) && \valid_read(w) && \valid(ph + (0 .. 2)) && \valid(pend + (0 .. 2));
    requires \valid(nph) && \valid(bound) && \valid(nsteps) && \valid(painleve);
    requires \separated(st, w, ph + (0 .. 2), pend + (0 .. 2), nph, bound, nsteps, painleve);
    requires mu > 0 && ztol >= 0 && 1 <= steps <= SP_MAX_STEPS && e0 >= 0 && tr >= 0;
    requires st->pn >= 0;
    assigns *st, ph[0 .. 2], pend[0 .. 2], *nph, *bound, *nsteps, *painleve;
    ensures \result == 0 || \result == -1 || \result == -2;
    ensures st->pn >= 0;
    ensures *nph <= 2;
 */
static int sp_friction(sp_state *st, const sp_w *w, double mu, double ztol, size_t steps,
                       double e0, double tr, nsm_routh_phase *ph, double *pend, size_t *nph,
                       double *bound, size_t *nsteps, int *painleve)
{
    *nsteps = 0;
    *nph = 0;
    /* sqrt(e0)·sqrt(tr), not sqrt(e0·tr): W = 1e-200·I made e0·tr ~ 1e400 overflow although
       the bound (~1e200) and the answer are finite */
    *bound = sp_pos(2.0 * sqrt(e0) * sqrt(tr) * (1.0 + NSM_BOUND_RTOL));
    if (!nsm_all_finite(1, bound)) {
        return -2;
    }
    double h = *bound / (double)steps;
    double hmin = h / (double)NSM_IMPACT_MIN_STEP_RATIO;
    size_t cap = steps * NSM_IMPACT_MIN_STEP_RATIO + 1u;
    int ev = SP_STOP;
    size_t k = 0;
    if (st->u1 * st->u1 + st->u2 * st->u2 > ztol * ztol) {
        ev = sp_slip_phase(st, w, mu, ztol, h, hmin, cap, painleve, nsteps);
        if (ev < 0) {
            return -1;
        }
        ph[0] = NSM_PHASE_SLIP;
        pend[0] = st->pn;
        k = 1;
    }
    if (ev != SP_DONE) {
        nsm_routh_phase rp;
        if (sp_rest_phase(st, w, mu, &rp) != 0) {
            return -1;
        }
        ph[k] = rp;
        pend[k] = st->pn;
        k++;
    }
    *nph = k;
    return 0;
}

/* Scales p_t onto the cone (sp_cone) and writes the result. */
/*@ requires \valid(res) && \valid(st) && \valid_read(ph + (0 .. 2)) &&
             \valid_read(pend + (0 .. 2));
    requires \separated(res, st, ph + (0 .. 2), pend + (0 .. 2));
    requires nph <= NSM_ROUTH_MAX_PHASES && mu >= 0 && st->pn >= 0;
    assigns *res, st->p1, st->p2;
    ensures res->nphases == nph;
    ensures res->p_n == st->pn && res->p_n >= 0;
    ensures zero: \old(st->p1) == 0.0 && \old(st->p2) == 0.0 ==>
                  res->p_t[0] == 0.0 && res->p_t[1] == 0.0;
    ensures cone: res->p_t[0] * res->p_t[0] + res->p_t[1] * res->p_t[1] <=
                  mu * mu * res->p_n * res->p_n;
 */
static void sp_finish(sp_state *st, double mu, size_t nph, const nsm_routh_phase *ph,
                      const double *pend, double bound, size_t nsteps, int painleve,
                      nsm_routh_spatial_result *res)
{
    sp_cone(st, mu);
    sp_store(st, mu, nph, ph, pend, bound, nsteps, painleve, res);
}

/* 1 if the final impulse, velocity and bound are finite (finite data can overflow on the way:
   a large u0 against a small eigenvalue of W). */
/*@ requires \valid_read(st);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int sp_finite(const sp_state *st, double bound)
{
    const double x[7] = {st->p1, st->p2, st->pn, st->u1, st->u2, st->un, bound};
    return nsm_all_finite(7, x);
}

/*
 * The impact on validated data (w SPD, e0 = u0^T W^-1 u0, tr = trace W^-1).
 */
/*@ requires \valid_read(w) && \valid_read(u0 + (0 .. 2)) && \valid(res);
    requires \separated(res, w, u0 + (0 .. 2));
    requires mu >= 0 && ztol >= 0 && 1 <= steps <= SP_MAX_STEPS && e0 >= 0 && tr >= 0;
    assigns *res;
    ensures status: \result == NSM_OK || \result == NSM_ERR_NO_CONVERGENCE ||
                    \result == NSM_ERR_OVERFLOW;
    ensures phases: \result == NSM_OK ==> res->nphases <= NSM_ROUTH_MAX_PHASES;
    ensures trivial: \result == NSM_OK && u0[2] >= 0 ==>
                       res->nphases == 0 && res->p_n == 0 && res->p_t[0] == 0 &&
                       res->p_t[1] == 0;
    ensures impulse_n: \result == NSM_OK ==> res->p_n >= 0;
    ensures in_cone: \result == NSM_OK ==>
                       res->p_t[0] * res->p_t[0] + res->p_t[1] * res->p_t[1] <=
                       mu * mu * res->p_n * res->p_n;
 */
static nsm_status sp_run(const sp_w *w, const double *u0, double mu, double ztol, size_t steps,
                         double e0, double tr, nsm_routh_spatial_result *res)
{
    sp_state st;
    nsm_routh_phase ph[3];
    double pend[3];
    size_t nph = 0;
    size_t nsteps = 0;
    int painleve = 0;
    double bound = 0.0;
    int r = 0;
    sp_init(u0, &st, ph, pend);
    if (u0[2] < 0.0) {
        if (mu == 0.0) {
            nph = 1;
            r = sp_frictionless(&st, w, ph, pend, &bound);
        } else {
            r = sp_friction(&st, w, mu, ztol, steps, e0, tr, ph, pend, &nph, &bound, &nsteps,
                            &painleve);
        }
    }
    if (r == -2 || !sp_finite(&st, bound)) {
        return NSM_ERR_OVERFLOW;
    }
    if (r != 0) {
        return NSM_ERR_NO_CONVERGENCE;
    }
    sp_finish(&st, mu, nph, ph, pend, bound, nsteps, painleve, res);
    return NSM_OK;
}

nsm_status nsm_routh_spatial(const double *W, const double *u0, double mu, double ztol,
                             size_t steps, nsm_routh_spatial_result *res)
{
    if (W == NULL || u0 == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    nsm_status st = sp_check(W, u0, mu, ztol, steps);
    if (st != NSM_OK) {
        return st;
    }
    sp_w w;
    double e0;
    double tr;
    sp_sym(W, &w);
    st = sp_factor(&w, u0, &e0, &tr);
    if (st != NSM_OK) {
        return st;
    }
    return sp_run(&w, u0, mu, ztol, steps, e0, tr, res);
}
