/*
 * Coulomb's law at one contact, per unit normal impulse: the one home of the rules that
 * Routh's method (routh.c planar, routh_spatial.c spatial), the impact integrator's rates
 * (src/impact/impact_rates.c) and its held contacts (src/impact/slide.c) share. Internal: it
 * belongs to the contact room and is shared with the impact room.
 *
 * A contact's block of the Delassus matrix W: planar W_tt, W_tn; spatial
 * W_tt = [[a11, a12], [a12, a22]] (positive definite where a rule says so), W_tn = (b1, b2).
 * Rates are tangential impulse rates per unit normal impulse, in the friction cone:
 *  - slip (|u_t| > ztol): -mu·u_t/|u_t|, opposing the slip;
 *  - rest: stick, the rate -W_tt^-1 W_tn that keeps u_t = 0, when it lies in the cone
 *    (|W_tt^-1 W_tn| <= mu); otherwise slip resumes. Planar: against W_tn. Spatial: along the
 *    unit s with W_tn = (alpha·I + mu·W_tt)·s, alpha > 0, on which u_t stays parallel to s
 *    (docs/math.md, "Routh's method").
 * Defined in coulomb.c (proved there once), but for the two one-line planar tests, static inline
 * here for the hot loops (proved with each file that includes this header).
 */
#ifndef NSM_CONTACT_COULOMB_H
#define NSM_CONTACT_COULOMB_H

#include "nsmech/base.h"
#include "../nsm_math.h"

/** At most this many safeguarded Newton steps for alpha in nsm_coulomb_reslip2 (each at
    worst a bisection of [0, |W_tn|]: 128 of them reach |W_tn|·2^-128, below the double
    resolution of any alpha there; Newton's steps take about five). */
#define NSM_RESLIP_ITERS 128u

/** A spatial slip stops within a step when the step's linearised path u_t + s·r_t passes
    within 5 % of |u_t| of rest: squared distance <= NSM_SLIP_STOP2·|u_t|² (once a run has
    spent its short segments, impact_step.c). */
#define NSM_SLIP_STOP2 0.0025

/** A spatial slip followed exactly (every spatial run within its count of short segments,
    impact_step.c) stops only where its path heads into rest to within 1e-6 of |u_t| (squared
    distance <= NSM_SLIP_STOP2_EXACT·|u_t|²): its direction has then converged and the stop
    on that line is exact to that order. Until then the slip is followed in segments that
    turn it by a bounded angle, however short. */
#define NSM_SLIP_STOP2_EXACT 1e-12

/* Planar: 1 if friction holds a contact at rest, mu·W_tt >= |W_tn|. */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static inline int nsm_coulomb_sticks1(double mu, double wtt, double wtn)
{
    return mu * wtt >= fabs(wtn) ? 1 : 0;
}

/* Planar slip rate: -mu·sign(u_t) when |u_t| > ztol, 0 at rest. */
/*@ requires mu >= 0;
    assigns \nothing;
    ensures -mu <= \result <= mu;
 */
static inline double nsm_coulomb_slip1(double ut, double mu, double ztol)
{
    if (!(fabs(ut) > ztol)) {
        return 0.0;
    }
    return ut > 0.0 ? -mu : mu;
}

/* Planar rate: the slip rate when |u_t| > ztol; at rest -W_tn/W_tt (stick) when W_tt > 0 and
   friction holds, else -mu·sign(W_tn) (slip resumes against W_tn). Clamped to the cone. */
/*@ requires mu >= 0;
    assigns \nothing;
    ensures -mu <= \result <= mu;
 */
double nsm_coulomb_rate1(double ut, double mu, double ztol, double wtt, double wtn);

/*
 * Spatial re-slip direction from rest (|W_tt^-1 W_tn| > mu > 0, W_tt positive definite): the
 * unit s with W_tn = (alpha·I + mu·W_tt)·s, alpha > 0. |(alpha·I + mu·W_tt)^-1 W_tn|
 * decreases in alpha, exceeds 1 at alpha = 0 and is at most 1 at alpha = |W_tn|: safeguarded
 * Newton steps on 1 - 1/|(alpha·I + mu·W_tt)^-1 W_tn| (coulomb.c), then normalisation. Returns 1, or 0 if no direction could be formed (rounding only).
 */
/*@ requires \valid(s + (0 .. 1));
    assigns s[0 .. 1];
    ensures \result == 0 || \result == 1;
 */
int nsm_coulomb_reslip2(double mu, double a11, double a12, double a22, double b1, double b2,
                        double *s);

/*
 * Spatial rate at rest (W_tt positive definite): d = -W_tt^-1 W_tn when |d| <= mu (returns 1:
 * stick), else d = -mu·s with s the re-slip direction (returns 0: slip); -1 if no re-slip
 * direction could be formed (rounding only; d is then 0).
 */
/*@ requires \valid(d + (0 .. 1));
    assigns d[0 .. 1];
    ensures \result == -1 || \result == 0 || \result == 1;
 */
int nsm_coulomb_rest2(double mu, double a11, double a12, double a22, double b1, double b2,
                      double *d);

/** W_tt counts as singular when its determinant is at most NSM_WTT_SINGULAR·W_t1t1·W_t2t2:
    its rows dependent to rounding (the determinant of exactly dependent rows computed in
    floating point is noise of order 1e-16 of that product, and a solve with it garbage). */
#define NSM_WTT_SINGULAR 1e-10

/*
 * Spatial rate at rest when W_tt is singular, positive semidefinite (the tangent rows are
 * dependent, e.g. one of them zero): u_t moves on the line of W_tt's range only, and the rule
 * is the planar one at rest along it (d = 0 when W_tt = 0).
 */
/*@ requires mu >= 0 && \valid(d + (0 .. 1));
    assigns d[0 .. 1];
 */
void nsm_coulomb_rest2_line(double mu, double a11, double a12, double a22, double b1,
                            double b2, double *d);

/*
 * Spatial rate at rest on any positive semidefinite W_tt: nsm_coulomb_rest2 when W_tt is
 * regular (its determinant above NSM_WTT_SINGULAR·W_t1t1·W_t2t2), else
 * nsm_coulomb_rest2_line. Used with mu the cone's radius per unit normal impulse (the
 * integrator's own rates) and with mu·w and the rate of the other impulses as W_tn (the
 * joint stick of slide.c: the rule is homogeneous of degree one in (mu, W_tn)).
 */
/*@ requires mu >= 0 && \valid(d + (0 .. 1));
    assigns d[0 .. 1];
 */
void nsm_coulomb_rest2_block(double mu, double a11, double a12, double a22, double b1,
                             double b2, double *d);

/* A radius 0 <= c <= mu·pn that holds in exact arithmetic for the rounded computation too: the
   rounded product less two units of rounding and the smallest subnormal (0 below that). */
/*@ requires mu >= 0 && pn >= 0;
    assigns \nothing;
    ensures nonneg: \result >= 0;
    ensures below: \result <= mu * pn;
 */
double nsm_coulomb_radius(double mu, double pn);

/* A final planar impulse put in its cone exactly: kept when nsm_cone_contains accepts it at
   tol = 0 (a sound test), else clamped to [-rho, rho], rho = (1 - 2^-44)·c with
   c = nsm_coulomb_radius(mu, pn) (0 when c < 2^-1000): |pt| <= mu·pn then holds exactly, not
   only in the real model, and the sound test accepts the result. */
/*@ requires mu >= 0 && pn >= 0;
    assigns \nothing;
    ensures cone: -(mu * pn) <= \result <= mu * pn;
    ensures zero: pt == 0 ==> \result == 0;
 */
double nsm_coulomb_inward1(double mu, double pn, double pt);

/* The same for a spatial impulse: kept when the sound test accepts it, else scaled to the norm
   rho, which the rounded scaling cannot push beyond mu·pn (nor out of the test's margin). */
/*@ requires mu >= 0 && pn >= 0 && \valid(p1) && \valid(p2) && \separated(p1, p2);
    assigns *p1, *p2;
    ensures cone: *p1 * *p1 + *p2 * *p2 <= mu * mu * pn * pn;
    ensures zero: \old(*p1) == 0.0 && \old(*p2) == 0.0 ==> *p1 == 0.0 && *p2 == 0.0;
 */
void nsm_coulomb_inward2(double mu, double pn, double *p1, double *p2);

#endif
