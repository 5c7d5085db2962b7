/*
 * Contacts at rest in the impact integrator: held normal weights and joint stick
 * rates (internal to the impact room; docs/math.md, "Contacts at rest: sliding and joint
 * stick"). Not part of the public API.
 */
#ifndef NSM_CONTACT_SLIDE_H
#define NSM_CONTACT_SLIDE_H

#include <stddef.h>
#include "nsmech/base.h"

/** Largest number of projected Gauss–Seidel sweeps of nsm_slide. */
#define NSM_SLIDE_SWEEPS 400u

/** nsm_slide gives up early when this many sweeps in a row have not lowered the largest
    change below its smallest value so far: the sweeps cycle (Gauss–Seidel over friction
    discs need not converge) and further sweeps would not leave the cycle. No call of the
    test and accuracy suites that converges has such a run of sweeps before it does (at 32,
    21 of 3.0 million calls did). */
#define NSM_SLIDE_STALL 64u

/** nsm_slide has converged when a sweep changes no weight or rate by more than
    NSM_SLIDE_TOL·(1 + the largest weight). */
#define NSM_SLIDE_TOL 1e-14

/** Largest number of free unknowns (positive held weights, stick rates inside their discs or
    intervals, angles of stick rates on their rims) of the active-set Newton step between
    sweeps (src/impact/slide.c): three per contact for 16 contacts. */
#define NSM_SLIDE_NEWTON_MAX 48u

/** A spatial stick rate counts as on the rim of its disc (radius b) from |r| >= (1 -
    NSM_SLIDE_RIM) b on, and the Newton step keeps |r| <= (1 + NSM_SLIDE_RIM) μ w: the rest
    rule's rim points lie within rounding of the rim. */
#define NSM_SLIDE_RIM 1e-10

/** Largest turn (radians) of a rim angle in one Newton step: the linearisation of the rim
    holds for small turns only. */
#define NSM_SLIDE_NEWTON_TURN 0.5

/** The Newton step is tried after a sweep that moved no unknown across a bound, from sweep
    NSM_SLIDE_NEWTON_AFTER + 1 on (most calls converge in one to three sweeps, warm-started;
    the step is for the slow ones). */
#define NSM_SLIDE_NEWTON_AFTER 4u

/** The Newton step is taken only when no unknown moves by more than this share of
    1 + the largest weight (near a solution the step is the sweeps' small remaining error). */
#define NSM_SLIDE_NEWTON_STEP 0.1

/**
 * One segment's impulse rates of the integrator (three slots (t1, t2, n) per contact, t2
 * unused when d = 1; W the 3m×3m Delassus matrix, u the contact velocities) when contacts
 * are at rest.
 * In: w (m), the policy's weights (>= 0, on penetrating contacts).
 * Unknowns, found by projected Gauss–Seidel:
 *  - held weights: a contact without policy weight at normal rest (|u_n| <= ntol) gets a
 *    weight x >= 0 with x = 0 if its normal rate is >= 0 (it separates or stays) and normal
 *    rate 0 if x > 0 (it is held at u_n: a sliding mode); x = 0 also when its own normal
 *    rate per unit weight is not positive (no weight holds it; its rate may then be
 *    negative, and the policy weights it once it penetrates);
 *  - stick rates: a contact with weight w_c > 0 at tangential rest (|u_t| <= ztol, mu > 0)
 *    gets its tangential impulse rate r in the cone, |r| <= mu w_c, with tangential rate 0
 *    if inside (it sticks) and, on the cone's boundary, a tangential rate opposite to r
 *    (it starts to slip; planar: >= 0 at -mu w_c and <= 0 at +mu w_c);
 *  - a slipping contact (|u_t| > ztol) has r = -mu w_c u_t/|u_t|.
 * lh on entry: the previous segment's rates (weights summing to 1), the sweeps' starting
 * point (any values are admissible; zeros start cold).
 * On convergence (return 1): w holds all weights scaled to sum 1, lh (3m) the impulse rates
 * (r_c, w_c) per contact (r_c = (r, 0) when d = 1) and rate = W lh. Returns 0 at once, nothing written, when no
 * contact is at rest (no held candidate, no weighted contact at tangential rest with mu > 0:
 * the per-contact rules give the same rates); on no convergence also 0, w restored to the
 * policy weights, lh and rate unspecified.
 */
/*@ requires m: 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires d: d == 1 || d == 2;
    requires valid: \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1)) &&
                    \valid_read(mu + (0 .. m - 1));
    requires valid_out: \valid(w + (0 .. m - 1)) && \valid(lh + (0 .. 3 * m - 1)) &&
                        \valid(rate + (0 .. 3 * m - 1));
    assigns w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
    ensures result: \result == 0 || \result == 1;
 */
int nsm_slide(size_t m, size_t d, const double *W, const double *u, const double *mu,
              double ztol, double ntol, double *w, double *lh, double *rate);

#endif
