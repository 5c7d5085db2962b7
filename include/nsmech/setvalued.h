/*
 * nsmech/setvalued.h — set-valued maps shared by both sources ([D], [I]): the Unit map and the
 * Coulomb friction cone (docs/math.md (I1), (I2)).
 *
 * Unit(v) = { v/‖v‖ } if v ≠ 0, the closed unit ball if v = 0 ((I1); [I] eq. 3). A value is
 * treated as zero when ‖v‖₂ <= ztol (explicit tolerance). For the ball case nothing is
 * invented: the caller gets NSM_UNIT_BALL and must make its own selection (e.g. the fixed unit
 * ξ of the control law, or a friction direction from the contact rules).
 */
#ifndef NSMECH_SETVALUED_H
#define NSMECH_SETVALUED_H

#include <stddef.h>
#include "nsmech/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Which case of the Unit map holds. */
typedef enum nsm_unit_case {
    NSM_UNIT_DIRECTION = 0, /**< v ≠ 0: Unit(v) is the single direction v/‖v‖ */
    NSM_UNIT_BALL = 1       /**< v = 0 (‖v‖ <= ztol): Unit(v) is the whole closed unit ball */
} nsm_unit_case;

/**
 * The Unit map of v (n entries). On NSM_OK: *which says the case; for NSM_UNIT_DIRECTION,
 * u = v/‖v‖₂; for NSM_UNIT_BALL, u is set to zero (no direction is invented) — a caller that
 * needs a member of the ball must choose one. u may equal v (in-place) but not partly overlap.
 * Errors, in this order: NSM_ERR_NULL, NSM_ERR_SIZE (n = 0 or n > NSM_MAX_DIM), NSM_ERR_ALIAS
 * (u partly overlaps v, or which overlaps u or v), NSM_ERR_ARG (ztol < 0 or not finite),
 * NSM_ERR_NOT_FINITE (v has NaN/Inf); on error nothing is written.
 */
/*@ requires valid_which: which == \null || \valid(which);
    requires valid_v: v == \null || \valid_read(v + (0 .. n - 1));
    requires valid_u: u == \null || \valid(u + (0 .. n - 1));
    requires sep: which == \null || u == \null || \separated(which, u + (0 .. n - 1));
    assigns *which, u[0 .. n - 1];
    behavior null_arg:
      assumes which == \null || v == \null || u == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes which != \null && v != \null && u != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes which != \null && v != \null && u != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_ALIAS;
      ensures cases: \result == NSM_OK ==>
                       (*which == NSM_UNIT_DIRECTION || *which == NSM_UNIT_BALL);
      ensures ball_zero: \result == NSM_OK && *which == NSM_UNIT_BALL ==>
                           \forall integer i; 0 <= i < n ==> u[i] == 0;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_unit(size_t n, const double *v, double ztol, nsm_unit_case *which, double *u);

/* ------------------------------------------------------------------------------------------ */
/* Coulomb friction cone                                                                        */
/* ------------------------------------------------------------------------------------------ */
/*
 * For a contact with tangent dimension d (1 = planar, 2 = spatial) and friction coefficient
 * mu >= 0, the cone ((I2); [I] eqs. 6-7) is
 *     K_mu = { (lambda_n, lambda_t) in R x R^d : lambda_n >= 0, ||lambda_t||_2 <= mu*lambda_n }.
 * For mu > 0 the condition lambda_n >= 0 is implied; for mu = 0 (frictionless) K_0 is the ray
 * { lambda_t = 0, lambda_n >= 0 }. Tangent vectors are passed as arrays of d doubles.
 *
 * Functional clauses below are stated in the exact-real model of the proofs (doubles read as
 * reals); the IEEE behaviour is established by the tests.
 */

/*@ // Squared Euclidean norm of a tangent vector of dimension d (1 or 2).
    logic real nsm_tsq{L}(integer d, double *t) = d == 1 ? t[0] * t[0] : t[0] * t[0] + t[1] * t[1];

    // Membership with tolerance tol >= 0, written without a square root:
    //   lambda_n >= -tol  and  ||lambda_t|| <= mu*lambda_n + tol.
    predicate nsm_in_cone_tol{L}(integer d, real mu, real tol, real ln, double *t) =
        ln >= -tol && mu * ln + tol >= 0 &&
        nsm_tsq{L}(d, t) <= (mu * ln + tol) * (mu * ln + tol);

    // Membership with a margin, the points nsm_cone_contains is sure to accept: lambda_n >= 0,
    // no overflow of mu*lambda_n + tol, and ||lambda_t|| <= (mu*lambda_n + tol)(1 - 2^-45)
    // - 2^-1068.
    predicate nsm_in_cone_margin{L}(integer d, real mu, real tol, real ln, double *t) =
        ln >= 0 && mu * ln + tol <= 0x1.fffffffffffffp1023 &&
        (mu * ln + tol) * (1 - 0x1p-45) - 0x1p-1068 >= 0 &&
        nsm_tsq{L}(d, t) <= ((mu * ln + tol) * (1 - 0x1p-45) - 0x1p-1068) *
                            ((mu * ln + tol) * (1 - 0x1p-45) - 0x1p-1068);
 */

/**
 * Membership of (ln, lt) in the friction cone with tolerance, decided soundly:
 *     *inside = 1  only if  ln >= -tol  and  ||lt||_2 <= mu*ln + tol  (exactly, for the IEEE
 *     computation too: the radius and the norm carry margins that cover their rounding);
 *     *inside = 1  whenever ln >= 0 and ||lt||_2 <= (mu*ln + tol)(1 - 2^-45) - 2^-1068.
 * Points within a relative 2^-45 of the boundary may get 0: with tol = 0, a point on the
 * boundary (e.g. what nsm_cone_project returns) is not certain to be accepted; pass a tol for
 * those. Norms are compared on scaled values, so nothing over- or underflows for finite input.
 * Errors (nothing written), in this order: NSM_ERR_NULL (lt or inside NULL), NSM_ERR_SIZE (d
 * not 1 or 2), NSM_ERR_ALIAS (inside overlaps lt), NSM_ERR_ARG (mu < 0, tol < 0, or either not
 * finite), NSM_ERR_NOT_FINITE (ln or lt has NaN/Inf).
 */
/*@ requires valid_lt: lt == \null || (d != 1 && d != 2) || \valid_read(lt + (0 .. d - 1));
    requires valid_inside: inside == \null || \valid(inside);
    requires sep: inside == \null || lt == \null || (d != 1 && d != 2) ||
                  \separated(inside, lt + (0 .. d - 1));
    assigns *inside;
    behavior null_arg:
      assumes lt == \null || inside == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes lt != \null && inside != \null && d != 1 && d != 2;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes lt != \null && inside != \null && (d == 1 || d == 2);
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_ALIAS;
      ensures boolean: \result == NSM_OK ==> (*inside == 0 || *inside == 1);
      ensures sound: \result == NSM_OK && *inside == 1 ==> nsm_in_cone_tol(d, mu, tol, ln, lt);
      ensures near: \result == NSM_OK && nsm_in_cone_margin(d, mu, tol, ln, lt) ==> *inside == 1;
      ensures unchanged: \result != NSM_OK ==> *inside == \old(*inside);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_cone_contains(size_t d, double mu, double ln, const double *lt, double tol,
                             int *inside);

/*@ // Moreau's characterisation of the Euclidean projection p = (pn, p0, p1) of
    // x = (xn, x0, x1) onto K_mu (a closed convex cone): with p in K_mu, the point p is the
    // nearest point of K_mu to x exactly when x - p is orthogonal to p and lies in the polar
    // cone K_mu° = { (yn, yt) : mu·||yt|| <= -yn } (written here without a square root).
    predicate nsm_cone_moreau(real mu, real xn, real x0, real x1, real pn, real p0, real p1) =
        (xn - pn) * pn + (x0 - p0) * p0 + (x1 - p1) * p1 == 0 &&
        xn - pn <= 0 &&
        (mu * mu) * ((x0 - p0) * (x0 - p0) + (x1 - p1) * (x1 - p1)) <= (xn - pn) * (xn - pn);
 */

/**
 * Euclidean projection of (ln, lt) onto K_mu, in closed form. With a = ||lt||_2:
 *  - a <= mu*ln (inside):              (pn, pt) = (ln, lt);
 *  - mu*a <= -ln (in the polar cone):  (pn, pt) = (0, 0);
 *  - otherwise:  pn = (ln + mu*a)/(1 + mu^2),  pt = mu*pn * lt/a.
 * For mu = 0 this is (max(ln, 0), 0). pt may be lt itself (in place) but may not partly
 * overlap it; pn may not overlap lt or pt. The contract proves, in the real model, that the
 * result lies in K_mu (in_cone), that points of K_mu are kept (fixed), and Moreau's
 * characterisation of the nearest point (nearest: x - p orthogonal to p and in the polar cone).
 * In IEEE arithmetic each holds up to the rounding of the closed form.
 * Errors (nothing written): NSM_ERR_NULL, NSM_ERR_SIZE (d not 1 or 2), NSM_ERR_ARG (mu < 0 or
 * not finite), NSM_ERR_NOT_FINITE (ln or lt has NaN/Inf), NSM_ERR_ALIAS, NSM_ERR_OVERFLOW
 * (finite input for which the closed form overflows, e.g. mu·‖lt‖ or mu² beyond DBL_MAX).
 */
/*@ requires valid_lt: lt == \null || (d != 1 && d != 2) || \valid_read(lt + (0 .. d - 1));
    requires valid_pt: pt == \null || (d != 1 && d != 2) || \valid(pt + (0 .. d - 1));
    requires valid_pn: pn == \null || \valid(pn);
    requires sep_pn: pn == \null || pt == \null || (d != 1 && d != 2) ||
                     \separated(pn, pt + (0 .. d - 1));
    requires sep_pn_lt: pn == \null || lt == \null || (d != 1 && d != 2) ||
                        \separated(pn, lt + (0 .. d - 1));
    assigns *pn, pt[0 .. d - 1];
    behavior null_arg:
      assumes lt == \null || pn == \null || pt == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes lt != \null && pn != \null && pt != \null && d != 1 && d != 2;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes lt != \null && pn != \null && pt != \null && (d == 1 || d == 2);
      assigns *pn, pt[0 .. d - 1];
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_OVERFLOW;
      ensures in_cone: \result == NSM_OK ==> nsm_in_cone_tol(d, mu, 0.0, *pn, pt);
      ensures fixed: \result == NSM_OK && nsm_in_cone_tol{Pre}(d, mu, 0.0, ln, lt) ==>
                       *pn == ln && \forall integer i; 0 <= i < d ==> pt[i] == \old(lt[i]);
      ensures nearest: \result == NSM_OK ==>
                         nsm_cone_moreau(mu, ln, \old(lt[0]), (d == 2 ? \old(lt[1]) : 0.0),
                                         *pn, pt[0], (d == 2 ? pt[1] : 0.0));
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_cone_project(size_t d, double mu, double ln, const double *lt, double *pn,
                            double *pt);

/*
 * Float run-time safety (make eva: proofs/eva.sh, docs/proofs.md). Frama-C/Eva shows, on the C
 * code in IEEE double arithmetic, no run-time error (no NaN or infinity produced, no overflow,
 * no invalid operation, no division by zero, no invalid memory access) for these inputs:
 *  - nsm_cone_contains: d in {1, 2}, mu in [0, 1e10], tol in [0, 1e40], ln in [-1e40, 1e40],
 *    each lt[i] = 0 or |lt[i]| in [1e-40, 1e40];
 *  - nsm_cone_project: d, mu, ln and lt as for nsm_cone_contains;
 *  - nsm_unit: n in {1, 2, 3}, ztol in [0, 1e40], each v[i] = 0 or |v[i]| in [1e-40, 1e40].
 * Outside them nsm_cone_contains can overflow to +inf, harmlessly: for ||lt|| below
 * (mu*ln + tol)/DBL_MAX (e.g. lt = 5e-324, mu*ln = 10) the scaled radius is +inf and the
 * answer 1, which is right.
 */

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_SETVALUED_H */
