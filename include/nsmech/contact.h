/*
 * nsmech/contact.h — one frictional contact with zero restitution: Routh's method, planar
 * (resolved exactly by events) and spatial, and its a priori bound on the normal impulse
 * ([I] Lemma 2; docs/math.md (I5)). Several contacts: nsmech/impact.h.
 *
 * Impulse space of one contact: u = (u_t, u_n) = J v are the contact velocities (tangent first),
 * W = J M^-1 J^T (2×2, row-major, order (t, n)) the Delassus matrix, and an impulse
 * p = (p_t, p_n) changes them to u0 + W p. The impact compresses while u_n < 0; friction obeys
 * Coulomb's law p_t' in -mu Unit(u_t) per unit of p_n (docs/math.md (I7), (I8); [I] eq. 12).
 *
 * Functional clauses are stated in the exact-real model of the proofs (doubles read as reals);
 * the IEEE behaviour is established by the tests.
 */
#ifndef NSMECH_CONTACT_H
#define NSMECH_CONTACT_H

#include <stddef.h>
#include "nsmech/base.h"
#include "nsmech/setvalued.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A phase of a single-contact impact. */
typedef enum nsm_routh_phase {
    NSM_PHASE_SLIP_POS = 0,    /**< slipping with u_t > 0; p_t' = -mu */
    NSM_PHASE_SLIP_NEG = 1,    /**< slipping with u_t < 0; p_t' = +mu */
    NSM_PHASE_STICK = 2,       /**< sticking, u_t = 0; p_t' = -W_tn/W_tt (|p_t'| <= mu) */
    NSM_PHASE_FRICTIONLESS = 3, /**< mu = 0: p_t' = 0 */
    NSM_PHASE_SLIP = 4          /**< spatial (d = 2) slip: p_t' = -mu u_t/|u_t|, direction rotates */
} nsm_routh_phase;

/** Most phases an exact planar resolution takes (slip, then stick or reversed slip). */
#define NSM_ROUTH_MAX_PHASES 3u

/** Result of nsm_routh_planar. */
typedef struct nsm_routh_result {
    double p_t;                                /**< tangential impulse */
    double p_n;                                /**< normal impulse (>= 0) */
    double u_t;                                /**< post-impact tangential velocity */
    double u_n;                                /**< post-impact normal velocity (0 after an impact) */
    size_t nphases;                            /**< phases taken (0 when u0 is not penetrating) */
    nsm_routh_phase phase[NSM_ROUTH_MAX_PHASES]; /**< the phases, in order */
    double phase_end[NSM_ROUTH_MAX_PHASES];    /**< p_n at the end of each phase */
    int painleve;  /**< 1 if a slip phase had normal rate <= 0 (u_n cannot end it: continued) */
} nsm_routh_result;

/** Relative tolerance on the symmetry of a 2×2 Delassus matrix: |W_tn - W_nt| must be at most
    NSM_ROUTH_SYM_RTOL·(W_tt + W_nn); the mean of the two is used. */
#define NSM_ROUTH_SYM_RTOL 1e-12

/**
 * Routh's method for one planar contact (d = 1), zero restitution, resolved exactly by events.
 * W (2×2, order (t, n), symmetric positive definite), u0 = (u_t, u_n) before impact, mu >= 0,
 * ztol >= 0: |u_t| <= ztol counts as rest (stick test) at the start.
 *
 * Branches: slip throughout; slip then stick (mu·W_tt >= |W_tn|); slip then reversed slip in
 * direction sign(W_tn) (mu·W_tt < |W_tn|); stick from rest; reversal from rest; frictionless
 * (mu = 0: one phase, p_n = -u_n/W_nn). A slip phase whose normal rate W_nn - mu·s·W_tn is not
 * positive (Painlevé configuration) cannot end by u_n reaching 0: it continues until slip stops,
 * which always happens for SPD W, and res->painleve is set.
 * If u_n >= 0 (not penetrating), the documented trivial answer: p = 0, u = u0, nphases = 0.
 *
 * Errors (res not written): NSM_ERR_NULL, NSM_ERR_ARG (mu or ztol negative or not finite),
 * NSM_ERR_NOT_FINITE (W or u0), NSM_ERR_NOT_SPD (W not symmetric, see NSM_ROUTH_SYM_RTOL, or
 * not positive definite), NSM_ERR_NO_CONVERGENCE (rounding made a phase with no event, only
 * possible for W near singular), NSM_ERR_OVERFLOW (finite data whose impulse or velocity
 * exceeds the double range, e.g. -u_n/W_nn > DBL_MAX).
 */
/*@ requires valid_W: W == \null || \valid_read(W + (0 .. 3));
    requires valid_u0: u0 == \null || \valid_read(u0 + (0 .. 1));
    requires valid_res: res == \null || \valid(res);
    requires sep: res == \null || W == \null || u0 == \null ||
                  (\separated(res, W + (0 .. 3)) && \separated(res, u0 + (0 .. 1)));
    assigns *res;
    behavior null_arg:
      assumes W == \null || u0 == \null || res == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior valid_args:
      assumes W != \null && u0 != \null && res != \null;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NOT_SPD ||
                      \result == NSM_ERR_NO_CONVERGENCE ||
                      \result == NSM_ERR_OVERFLOW;
      ensures phases: \result == NSM_OK ==> res->nphases <= NSM_ROUTH_MAX_PHASES;
      ensures trivial: \result == NSM_OK && u0[1] >= 0 ==>
                         res->nphases == 0 && res->p_n == 0 && res->p_t == 0;
      ensures impulse_n: \result == NSM_OK ==> res->p_n >= 0;
      ensures in_cone: \result == NSM_OK ==> -mu * res->p_n <= res->p_t <= mu * res->p_n;
      ensures compressed: \result == NSM_OK && u0[1] < 0 ==> res->u_n == 0;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_routh_planar(const double *W, const double *u0, double mu, double ztol,
                            nsm_routh_result *res);

/**
 * A priori bound on the normal impulse of one contact ([I] Lemma 2; (I5)), in impulse space:
 *     p_n <= sqrt(u0^T W^-1 u0) / (sqrt(lambda_min(W)) · min(mu, 1))      (mu > 0),
 *     p_n  = -u_n / W_nn exactly                                          (mu = 0),
 * multiplied by (1 + NSM_BOUND_RTOL) to absorb rounding. If u_n >= 0 the bound is 0.
 * Evaluated on u0 and W scaled to entries of magnitude at most 1 (the bound is homogeneous),
 * so data far from 1 (W ~ 1e300, u0 ~ 1e-234) neither overflows nor underflows on the way; a
 * penetrating contact's bound is at least 2^-1021 (smaller ones are not resolved).
 * Errors (*bound not written): NSM_ERR_NULL, then NSM_ERR_ALIAS (bound overlaps W or u0), then
 * as nsm_routh_planar (NSM_ERR_ARG for mu, NSM_ERR_NOT_FINITE, NSM_ERR_NOT_SPD);
 * NSM_ERR_OVERFLOW when the bound exceeds the double range.
 */
/*@ requires valid_W: W == \null || \valid_read(W + (0 .. 3));
    requires valid_u0: u0 == \null || \valid_read(u0 + (0 .. 1));
    requires valid_bound: bound == \null || \valid(bound);
    requires sep: bound == \null || W == \null || u0 == \null ||
                  (\separated(bound, W + (0 .. 3)) && \separated(bound, u0 + (0 .. 1)));
    assigns *bound;
    behavior null_arg:
      assumes W == \null || u0 == \null || bound == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior valid_args:
      assumes W != \null && u0 != \null && bound != \null;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NOT_SPD ||
                      \result == NSM_ERR_OVERFLOW || \result == NSM_ERR_ALIAS;
      ensures nonneg: \result == NSM_OK ==> *bound >= 0;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_routh_bound(const double *W, const double *u0, double mu, double *bound);

/**
 * Spatial contact (d = 2): Routh's method integrated along p_n, zero restitution.
 * W (3×3, row-major, order (t1, t2, n), symmetric positive definite), u0 = (u_t1, u_t2, u_n),
 * mu >= 0, ztol >= 0 (|u_t| <= ztol counts as rest), steps in 1 .. 10^6: the step in p_n is
 * h = bound/steps where bound is the a priori bound on p_n stored in res->bound.
 *
 * While slipping (|u_t| > ztol) the tangential impulse rate is -mu·u_t/|u_t| and the slip
 * direction rotates: the phase is integrated, and ends when u_n reaches 0 or the slip stops
 * (|u_t| reaches 0, an event located within the step). At rest the contact sticks (rate
 * -W_tt^-1 W_tn) when |W_tt^-1 W_tn| <= mu, else slip resumes along the unique direction s with
 * W_tn = (alpha·I + mu·W_tt)·s, alpha > 0 (a straight ray on which the slip speed grows).
 * Painlevé continuation as in nsm_routh_planar. For motions in a plane (W_t2,t1 = W_t2,n = 0,
 * u_t2 = 0) the result is the planar one; otherwise it converges to the exact solution as
 * steps grows. If u_n >= 0: the trivial answer (p = 0, u = u0, nphases = 0).
 *
 * Errors (res not written): NSM_ERR_NULL, NSM_ERR_ARG (mu, ztol negative or not finite, steps
 * out of range), NSM_ERR_NOT_FINITE (W or u0), NSM_ERR_NOT_SPD (W not symmetric to
 * NSM_ROUTH_SYM_RTOL, or not positive definite), NSM_ERR_NO_CONVERGENCE (step cap reached,
 * or rounding left a phase from rest without normal progress: only for W near singular),
 * NSM_ERR_OVERFLOW (finite data for which an intermediate — u0^T W^-1 u0, the bound, an impulse
 * or a velocity — exceeds the double range).
 */
typedef struct nsm_routh_spatial_result {
    double p_t[2];                               /**< tangential impulse */
    double p_n;                                  /**< normal impulse (>= 0) */
    double u_t[2];                               /**< post-impact tangential velocity */
    double u_n;                                  /**< post-impact normal velocity */
    size_t nphases;                              /**< phases taken */
    nsm_routh_phase phase[NSM_ROUTH_MAX_PHASES]; /**< NSM_PHASE_SLIP, _STICK or _FRICTIONLESS */
    double phase_end[NSM_ROUTH_MAX_PHASES];      /**< p_n at the end of each phase */
    double bound;                                /**< a priori bound on p_n (step = bound/steps) */
    size_t steps;                                /**< integration steps taken */
    int painleve;                                /**< as in nsm_routh_result */
} nsm_routh_spatial_result;

/*@ requires valid_W: W == \null || \valid_read(W + (0 .. 8));
    requires valid_u0: u0 == \null || \valid_read(u0 + (0 .. 2));
    requires valid_res: res == \null || \valid(res);
    requires sep: res == \null || W == \null || u0 == \null ||
                  (\separated(res, W + (0 .. 8)) && \separated(res, u0 + (0 .. 2)));
    assigns *res;
    behavior null_arg:
      assumes W == \null || u0 == \null || res == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior valid_args:
      assumes W != \null && u0 != \null && res != \null;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NOT_SPD ||
                      \result == NSM_ERR_NO_CONVERGENCE || \result == NSM_ERR_OVERFLOW;
      ensures phases: \result == NSM_OK ==> res->nphases <= NSM_ROUTH_MAX_PHASES;
      ensures trivial: \result == NSM_OK && u0[2] >= 0 ==>
                         res->nphases == 0 && res->p_n == 0 && res->p_t[0] == 0 &&
                         res->p_t[1] == 0;
      ensures impulse_n: \result == NSM_OK ==> res->p_n >= 0;
      ensures in_cone: \result == NSM_OK ==>
                         res->p_t[0] * res->p_t[0] + res->p_t[1] * res->p_t[1] <=
                         mu * mu * res->p_n * res->p_n;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_routh_spatial(const double *W, const double *u0, double mu, double ztol,
                             size_t steps, nsm_routh_spatial_result *res);

/** Relative safety margin applied to every a priori bound (rounding of its evaluation). */
#define NSM_BOUND_RTOL 1e-9

/** Ratio h/hmin of a full step to the shortest segment, in the spatial Routh integration and
    in the multi-contact integrator (nsmech/impact.h). */
#define NSM_IMPACT_MIN_STEP_RATIO 1000u

/*
 * Float run-time safety (make eva: proofs/eva.sh, docs/proofs.md). Frama-C/Eva shows, on the C
 * code in IEEE double arithmetic, no run-time error (no NaN or infinity produced, no overflow,
 * no invalid operation, no division by zero, no invalid memory access) for these inputs, W =
 * [[W_tt, W_tn], [W_tn, W_nn]] with W_tt, W_nn in [s, 2s] and |W_tn| <= 0.4 s (positive
 * definite) for one scale s = 2^k, k in [-20, 20] (s from about 1e-6 to 1e6):
 *  - nsm_routh_bound: u_t in [-1e40, 1e40], u_n in [-1e40, -1e-40] or [0, 1e40], mu = 0 or
 *    mu in [1e-30, 1e30];
 *  - nsm_routh_planar, in three cases: mu = 0, u0 in [-1e40, 1e40]^2, ztol in [0, 1];
 *    from rest, mu in [0.5, 2], W_tn = 0 or |W_tn| >= 0.01 s, |u_t| <= 1e-3 <= ztol <= 1,
 *    u_n as for the bound; slipping, u_t*W_tn >= 0, |u_t| in [1e-2, 1e40], ztol in [0, 1e-3],
 *    u_n as for the bound, and mu in [0.5, 2] or (mu in [1e-3, 0.05] and |W_tn| >= 0.2 s);
 *  - the planar Coulomb rate nsm_coulomb_rate1 (internal, src/contact/coulomb.h): u_t and W_tn
 *    in [-1e40, 1e40], W_tt in [1e-40, 1e40], mu in [0, 1e10], ztol in [0, 1e40].
 * Not covered (Eva's intervals do not relate the entries of W, nor p_t to |p_t|): other W, mu
 * near mu*W_tt = |W_tn| (stick or slip) or W_nn = mu*|W_tn| (Painleve), slip against W_tn,
 * nsm_routh_spatial and the spatial Coulomb rates.
 */

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_CONTACT_H */
