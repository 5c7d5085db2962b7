/*
 * nsmech/setvalued.h — set-valued maps shared by both seeds: the Unit map and the Coulomb
 * friction cone.
 *
 * Unit(v) = { v/‖v‖ } if v ≠ 0, the closed unit ball if v = 0 (seed 002, eq. 3). A value is
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
 * Errors: NSM_ERR_NULL, NSM_ERR_SIZE (n = 0 or n > NSM_MAX_DIM), NSM_ERR_ARG (ztol < 0 or not
 * finite), NSM_ERR_NOT_FINITE (v has NaN/Inf), NSM_ERR_ALIAS; on error nothing is written.
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

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_SETVALUED_H */
