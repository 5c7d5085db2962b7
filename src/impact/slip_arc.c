/*
 * A spatial slip of the one contact acting alone, followed along the slip in that contact's
 * own three velocities (d = 2; the sequential, bang-bang, extremal and schedule runs):
 * docs/math.md (I12), "Slip arcs".
 *
 * Contact c acting alone (weight 1) moves its velocity x = (x_t1, x_t2, x_n) by
 * dx/dp = B (−μ x_t/‖x_t‖, 1), B = W_cc its 3×3 block of the Delassus matrix and p its normal
 * impulse ([I] eqs. 15–17 with one weight, (I4), (I7)); every other contact velocity moves by
 * W_kc Δλ_c. With the impulse taken along the slip, dp = ‖x_t‖ dτ, the equation reads
 *     dx/dτ = B λ̇,   dλ/dτ = λ̇ = (−μ x_t, ‖x_t‖),
 * whose right side is Lipschitz through the slip's end, approached exponentially in τ.
 * Classical Runge–Kutta in τ, each substep at most h of normal impulse (the run's step, so
 * that an arc converges as the steps grow) and within the turn and stiffness bounds of the
 * integrator's spatial segments (nsm_impact_slip_cap; here Δp ≤ ‖x_t‖/(8‖g_t‖ + 2μ tr B_tt),
 * g = dx/dp), in three dimensions instead of the 3m of a segment of the whole impact. The arc
 * ends at the first of: p = top (the segment's allowed length); x_n = 0 from penetration; the
 * slip heading into rest to within 1e-6 of ‖x_t‖ (NSM_SLIP_STOP2_EXACT: then straight into
 * rest, as the integrator's segments stop a slip); ‖x_t‖ below ARC_SPIRAL of its start (a slip
 * spiralling into rest: what is left of its impulse is of that order); or ARC_SUBSTEPS
 * substeps. The two events are located on the substep by regula falsi in τ.
 */
#include "nsmech/impact.h"
#include "../nsm_math.h"
#include "internal.h"
#include "impact_internal.h"
#include "../contact/coulomb.h"

/* Most substeps of one arc: a bound on its cost; an arc that reaches it ends there, and the
   integrator's next segment goes on from its end. */
#define ARC_SUBSTEPS 4096u

/* Regula falsi passes that locate p = top or x_n = 0 on a substep (arc_locate). */
#define ARC_PASSES 12

/* Relative accuracy of a located event (p = top, x_n = 0). */
#define ARC_EVENT_TOL 1e-14

/* A slip below this fraction of its speed at the arc's start is at rest. */
#define ARC_SPIRAL 1e-12

/* The turn bound of a substep, as nsm_impact_slip_cap's: about 1/8 rad. */
#define ARC_TURN_INV 8.0

/* The weight of the stiffness term in a substep's bound: Δp ≤ ‖x_t‖/(8‖g_t‖ + 2μ tr B_tt).
   Twice the segments' weight: with 1, one of 500 sequential problems of
   tests/test_impact_spatial.c ended 3e-6 from the oracle at 4000 steps; with 2, none beyond
   1e-6. */
#define ARC_STIFF_MUL 2.0

/* The impulse rate lam = (−μ x_t, ‖x_t‖) per unit τ and the velocity rate dx = B lam. */
/*@ requires \valid_read(B + (0 .. 8)) && \valid_read(x + (0 .. 2));
    requires \valid(dx + (0 .. 2)) && \valid(lam + (0 .. 2));
    requires \separated(dx + (0 .. 2), lam + (0 .. 2), x + (0 .. 2), B + (0 .. 8));
    assigns dx[0 .. 2], lam[0 .. 2];
 */
static inline void arc_rate(const double *B, double mu, const double *x, double *dx,
                            double *lam)
{
    /* in locals, so that the stages of a substep stay in registers (the same operations, in
       the same order, as a product of B's rows with lam) */
    double l0 = -mu * x[0];
    double l1 = -mu * x[1];
    double l2 = tnorm(2, x[0], x[1]);
    lam[0] = l0;
    lam[1] = l1;
    lam[2] = l2;
    dx[0] = B[0] * l0 + B[1] * l1 + B[2] * l2;
    dx[1] = B[3] * l0 + B[4] * l1 + B[5] * l2;
    dx[2] = B[6] * l0 + B[7] * l1 + B[8] * l2;
}

/* One classical Runge–Kutta substep of τ-length dt from (x, l) into (xo, lo); (gx, gl) are the
   rates at x (arc_rate), its first stage, which the caller has at hand. */
/*@ requires \valid_read(B + (0 .. 8)) && \valid_read(x + (0 .. 2)) && \valid_read(l + (0 .. 2));
    requires \valid_read(gx + (0 .. 2)) && \valid_read(gl + (0 .. 2));
    requires \valid(xo + (0 .. 2)) && \valid(lo + (0 .. 2));
    requires \separated(xo + (0 .. 2), lo + (0 .. 2), x + (0 .. 2), l + (0 .. 2), B + (0 .. 8));
    requires \separated(xo + (0 .. 2), lo + (0 .. 2), gx + (0 .. 2), gl + (0 .. 2));
    assigns xo[0 .. 2], lo[0 .. 2];
 */
static void arc_rk4(const double *B, double mu, const double *x, const double *l,
                    const double *gx, const double *gl, double dt, double *xo, double *lo)
{
    double kx[3], kl[3], xs[3];
    const double at[3] = {0.5, 0.5, 1.0}; /* where stages 2..4 are taken */
    const double wt[3] = {2.0, 2.0, 1.0}; /* their weights (stage 1: 1) */
    double sx0 = gx[0], sx1 = gx[1], sx2 = gx[2];
    double sl0 = gl[0], sl1 = gl[1], sl2 = gl[2];
    kx[0] = gx[0];
    kx[1] = gx[1];
    kx[2] = gx[2];
    /*@ loop invariant 0 <= s <= 3;
        loop assigns s, xs[0 .. 2], kx[0 .. 2], kl[0 .. 2], sx0, sx1, sx2, sl0, sl1, sl2;
        loop variant 3 - s;
     */
    for (size_t s = 0; s < 3; s++) {
        double a = at[s] * dt;
        xs[0] = x[0] + a * kx[0];
        xs[1] = x[1] + a * kx[1];
        xs[2] = x[2] + a * kx[2];
        arc_rate(B, mu, xs, kx, kl);
        sx0 += wt[s] * kx[0];
        sx1 += wt[s] * kx[1];
        sx2 += wt[s] * kx[2];
        sl0 += wt[s] * kl[0];
        sl1 += wt[s] * kl[1];
        sl2 += wt[s] * kl[2];
    }
    double f = dt / 6.0;
    xo[0] = x[0] + f * sx0;
    xo[1] = x[1] + f * sx1;
    xo[2] = x[2] + f * sx2;
    lo[0] = l[0] + f * sl0;
    lo[1] = l[1] + f * sl1;
    lo[2] = l[2] + f * sl2;
}

/* τ-length of the straight piece along g (rates per unit τ, frozen) from x: into rest (into),
   shortened to rem and to x_n = 0 (pen); *ev says which ended it. */
/*@ requires \valid_read(x + (0 .. 2)) && \valid_read(g + (0 .. 2)) && \valid(ev);
    requires \separated(ev, x + (0 .. 2), g + (0 .. 2));
    requires rem >= 0 && into >= 0;
    assigns *ev;
    ensures 0 <= \result <= rem;
    ensures *ev == NSM_ARC_TOP || *ev == NSM_ARC_NORMAL || *ev == NSM_ARC_STOP;
 */
static double arc_straight(const double *x, const double *g, double into, double rem, int pen,
                           int *ev)
{
    double len = into;
    *ev = NSM_ARC_STOP;
    if (!(len < rem)) {
        len = rem;
        *ev = NSM_ARC_TOP;
    }
    if (pen && g[2] > 0.0 && -x[2] / g[2] < len) {
        double l = -x[2] / g[2];
        len = l < 0.0 ? 0.0 : l;
        *ev = NSM_ARC_NORMAL;
    }
    return len;
}

/* Which event a substep from (x, l) to (xn, ln) crosses first, by linear interpolation: p
   reaching top, or x_n reaching 0 from below (pen); NSM_ARC_CAP when neither. */
/*@ requires \valid_read(x + (0 .. 2)) && \valid_read(l + (0 .. 2));
    requires \valid_read(xn + (0 .. 2)) && \valid_read(ln + (0 .. 2));
    assigns \nothing;
    ensures \result == NSM_ARC_CAP || \result == NSM_ARC_TOP || \result == NSM_ARC_NORMAL;
 */
static int arc_crossed(const double *x, const double *l, const double *xn, const double *ln,
                       double top, int pen)
{
    int top_hit = ln[2] >= top && ln[2] > l[2];
    int n_hit = pen && xn[2] >= 0.0 && x[2] < 0.0;
    if (top_hit && n_hit) {
        /* the first along the substep */
        return (top - l[2]) / (ln[2] - l[2]) <= -x[2] / (xn[2] - x[2]) ? NSM_ARC_TOP
                                                                       : NSM_ARC_NORMAL;
    }
    return top_hit ? NSM_ARC_TOP : n_hit ? NSM_ARC_NORMAL : NSM_ARC_CAP;
}

/* The event function of a substep's end: p - top (NSM_ARC_TOP) or x_n (NSM_ARC_NORMAL); it
   is negative before the event and >= 0 from it on. */
/*@ requires \valid_read(xn + (0 .. 2)) && \valid_read(ln + (0 .. 2));
    assigns \nothing;
 */
static double arc_event_value(int e, const double *xn, const double *ln, double top)
{
    return e == NSM_ARC_TOP ? ln[2] - top : xn[2];
}

/*
 * Locates event e (crossed by the substep of τ-length dt from (x, l), whose end is (xn, ln))
 * by the Illinois variant of regula falsi in τ, at most ARC_PASSES passes or until the event
 * function is within tol of 0; leaves in (xn, ln) the end of the shortest substep found that
 * reaches the event (the function >= 0 there: p >= top, or x_n >= 0). (gx, gl) are the rates
 * at x, the first stage of every substep tried.
 */
/*@ requires \valid_read(B + (0 .. 8)) && \valid_read(x + (0 .. 2)) && \valid_read(l + (0 .. 2));
    requires \valid_read(gx + (0 .. 2)) && \valid_read(gl + (0 .. 2));
    requires \valid(xn + (0 .. 2)) && \valid(ln + (0 .. 2));
    requires \separated(xn + (0 .. 2), ln + (0 .. 2), x + (0 .. 2), l + (0 .. 2), B + (0 .. 8));
    requires \separated(xn + (0 .. 2), ln + (0 .. 2), gx + (0 .. 2), gl + (0 .. 2));
    requires dt >= 0;
    assigns xn[0 .. 2], ln[0 .. 2];
 */
static void arc_locate(const double *B, double mu, const double *x, const double *l,
                       const double *gx, const double *gl, double dt, int e, double top,
                       double tol, double *xn, double *ln)
{
    double a = 0.0;
    double fa = arc_event_value(e, x, l, top);
    double b = dt;
    double fb = arc_event_value(e, xn, ln, top);
    double xt[3], lt[3];
    int side = 0;
    /*@ loop invariant 0 <= pass <= ARC_PASSES;
        loop assigns pass, a, fa, b, fb, side, xt[0 .. 2], lt[0 .. 2], xn[0 .. 2], ln[0 .. 2];
        loop variant ARC_PASSES - pass;
     */
    for (int pass = 0; pass < ARC_PASSES; pass++) {
        if (!(fb > tol) || !(fa < 0.0) || !(fb > fa)) {
            break;
        }
        double t = a + (b - a) * (-fa / (fb - fa));
        if (!(t > a && t < b)) {
            break;
        }
        arc_rk4(B, mu, x, l, gx, gl, t, xt, lt);
        double ft = arc_event_value(e, xt, lt, top);
        if (ft >= 0.0) {
            b = t;
            fb = ft;
            /*@ loop invariant 0 <= i <= 3;
                loop assigns i, xn[0 .. 2], ln[0 .. 2];
                loop variant 3 - i;
             */
            for (size_t i = 0; i < 3; i++) {
                xn[i] = xt[i];
                ln[i] = lt[i];
            }
            if (side == 1) {
                fa *= 0.5;
            }
            side = 1;
        } else {
            a = t;
            fa = ft;
            if (side == -1) {
                fb *= 0.5;
            }
            side = -1;
        }
    }
}

double nsm_impact_arc(const double *B, double mu, const double *x0, double top, double hp,
                      double ntol, double *dl, int *ev)
{
    double x[3] = {x0[0], x0[1], x0[2]};
    double l[3] = {0.0, 0.0, 0.0};
    double xn[3], ln[3], g[3], lam[3];
    double r0 = tnorm(2, x[0], x[1]);
    double stiff = mu * (B[0] + B[4]);
    int pen = x[2] < -ntol;
    int e = NSM_ARC_CAP;
    /*@ loop invariant 0 <= k <= ARC_SUBSTEPS;
        loop invariant e == NSM_ARC_CAP;
        loop assigns k, e, x[0 .. 2], l[0 .. 2], xn[0 .. 2], ln[0 .. 2], g[0 .. 2], lam[0 .. 2];
        loop variant ARC_SUBSTEPS - k;
     */
    for (size_t k = 0; k < ARC_SUBSTEPS; k++) {
        /* g = dx/dτ at x (= ‖x_t‖ dx/dp), and lam[2] = ‖x_t‖ */
        arc_rate(B, mu, x, g, lam);
        double r = lam[2];
        double rem = top - l[2];
        if (!(rem > 0.0)) {
            e = NSM_ARC_TOP;
            break;
        }
        if (!(r > ARC_SPIRAL * r0)) {
            x[0] = 0.0; /* spiralled into rest */
            x[1] = 0.0;
            e = NSM_ARC_STOP;
            break;
        }
        /* the angle between x_t and g_t on both scaled to a largest entry of 1: W near the
           smallest normal numbers must not square g_t to 0 (a slip decaying slowly on a stiff
           block would then never be seen heading into rest, and cost ARC_SUBSTEPS) */
        double xs = fabs(x[0]) > fabs(x[1]) ? fabs(x[0]) : fabs(x[1]);
        double gs = fabs(g[0]) > fabs(g[1]) ? fabs(g[0]) : fabs(g[1]);
        double ur = 0.0;
        double rr = 0.0;
        double uu = 0.0;
        double gt = 0.0;
        if (xs > 0.0 && gs > 0.0) {
            double a0 = x[0] / xs;
            double a1 = x[1] / xs;
            double b0 = g[0] / gs;
            double b1 = g[1] / gs;
            ur = a0 * b0 + a1 * b1;
            rr = b0 * b0 + b1 * b1;
            uu = a0 * a0 + a1 * a1;
            gt = gs * sqrt(rr);
        }
        if (ur < 0.0 && rr > 0.0 && uu - (ur / rr) * ur <= NSM_SLIP_STOP2_EXACT * uu) {
            /* heading into rest: straight there (rates per unit p) */
            int se = NSM_ARC_STOP;
            double into = (-ur / rr) * (xs / gs); /* in τ, unscaled */
            double len = arc_straight(x, g, into, rem / r, pen, &se); /* in τ */
            /*@ loop invariant 0 <= i <= 3;
                loop assigns i, x[0 .. 2], l[0 .. 2];
                loop variant 3 - i;
             */
            for (size_t i = 0; i < 3; i++) {
                x[i] += len * g[i];
                l[i] += len * lam[i];
            }
            e = se;
            break;
        }
        double den = ARC_TURN_INV * gt / r + ARC_STIFF_MUL * stiff;
        if (!(den > 0.0)) {
            break; /* no turn and no friction: not an arc (the caller checks first) */
        }
        double dt = 1.0 / den; /* τ-length of the turn and stiffness bounds: Δp = r·dt */
        if (hp > 0.0 && r * dt > hp) {
            dt = hp / r; /* and at most hp of normal impulse */
        }
        arc_rk4(B, mu, x, l, g, lam, dt, xn, ln);
        int fe = arc_crossed(x, l, xn, ln, top, pen);
        if (fe != NSM_ARC_CAP) {
            double scale = fe == NSM_ARC_TOP ? top : fabs(x[2]) + fabs(xn[2]);
            arc_locate(B, mu, x, l, g, lam, dt, fe, top, ARC_EVENT_TOL * scale, xn, ln);
        }
        /*@ loop invariant 0 <= i <= 3;
            loop assigns i, x[0 .. 2], l[0 .. 2];
            loop variant 3 - i;
         */
        for (size_t i = 0; i < 3; i++) {
            x[i] = xn[i];
            l[i] = ln[i];
        }
        if (fe != NSM_ARC_CAP) {
            e = fe;
            break;
        }
    }
    if (l[2] > top && l[2] > 0.0) {
        /* at p = top: the substep's end scaled back, its impulse in the cone as before */
        double f = top / l[2];
        l[0] *= f;
        l[1] *= f;
        l[2] = top;
    }
    double len = l[2]; /* <= top (above) */
    if (!(len >= 0.0)) {
        len = 0.0;
    }
    dl[0] = l[0];
    dl[1] = l[1];
    dl[2] = len;
    *ev = e;
    return len;
}

int nsm_impact_arc_segment(size_t m, const double *W, const double *mu, double top,
                           double hp, double hmin, double ztol, double ntol, int exact, int slips,
                           const impact_vecs *v, double *len, size_t *ev)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    size_t c = m;
    /*@ loop invariant 0 <= i <= m && c <= m;
        loop assigns i, c;
        loop variant m - i;
     */
    for (size_t i = 0; i < m; i++) {
        if (v->w[i] > 0.0) {
            if (c < m) {
                return 0; /* several weighted contacts */
            }
            c = i;
        }
    }
    if (c == m || !(v->w[c] >= 1.0)) {
        return 0;
    }
    const double *x = v->u + 3 * c;
    double r = tnorm(2, x[0], x[1]);
    if (!(r > ztol)) {
        return 0; /* at rest: stick or the re-slip ray, straight */
    }
    double B[9];
    contact_block(m, c, W, B);
    /* a slip whose rate is along x_t (into rest or away from it) does not turn: the
       integrator's straight segments are exact there */
    double g[3], lam[3];
    arc_rate(B, mu[c], x, g, lam);
    double cross = x[0] * g[1] - x[1] * g[0];
    if (!(fabs(cross) > 1e-9 * r * tnorm(2, g[0], g[1]))) {
        return 0;
    }
    double dl[3];
    int e = NSM_ARC_CAP;
    double l = nsm_impact_arc(B, mu[c], x, top, hp, ntol, dl, &e);
    if (!(l > 0.0)) {
        return 0;
    }
    if (l < hmin && !((e == NSM_ARC_NORMAL && exact) || (e == NSM_ARC_STOP && slips))) {
        return 0; /* an event closer than hmin that the run steps over (seg_len) */
    }
    /*@ loop invariant 0 <= i <= K;
        loop assigns i, v->lh[0 .. K - 1];
        loop variant K - i;
     */
    for (size_t i = 0; i < K; i++) {
        v->lh[i] = 0.0;
    }
    v->lh[3 * c] = dl[0] / l;
    v->lh[3 * c + 1] = dl[1] / l;
    v->lh[3 * c + 2] = dl[2] / l;
    matvec(K, K, W, v->lh, v->rate); /* W lh: only contact c's columns are nonzero */
    *ev = e == NSM_ARC_NORMAL ? 3 * c + 2 : e == NSM_ARC_STOP ? 3 * c : K;
    *len = l;
    return 1;
}
