/*
 * Test oracle for spatial (d = 2) multi-contact frictional impacts with zero restitution,
 * sequential rule, written independently of the library (no call into libnsmech, none of its
 * code; W from LAPACK).
 *
 * Data (row-major, as in include/nsmech/impact.h with d = 2): n generalized velocities
 * (1 .. SP_ORACLE_MAX_N), m contacts (1 .. SP_ORACLE_MAX_M); M (n×n, SPD), Jn (m×n), Jt (2m×n:
 * rows 2c, 2c + 1 are contact c's tangents), mu (m, >= 0), v_minus (n). In impulse space,
 * J stacks (t1, t2, n) per contact, W = J M^-1 J^T, u = J v.
 *
 * One contact c acting alone (Routh's method): along its normal impulse p_n its velocity
 * u = (u_t, u_n) moves by du/dp_n = W_cc q with q = (-mu u_t/|u_t|, 1) while it slips. That
 * equation is singular where the slip comes to rest; with the impulse taken along the slip,
 * dp_n = |u_t| dtau, it reads du/dtau = W_cc (-mu u_t, |u_t|), whose right side is Lipschitz.
 * So classical RK4 in tau with a fixed step dtau = SP_ORACLE_STEP / L, L = 3 (1 + mu)
 * max|W_cc,ij| (a step turns the slip by about SP_ORACLE_STEP), converges at fourth order up
 * to the slip's end: a slip coming to rest approaches it exponentially in tau (reached at a
 * finite p_n). Events: u_n reaching 0 ends the contact's phase (the step length located by
 * bisection to rounding); |u_t| below SP_ORACLE_REST (1 + |u(0)|_1) is rest. At rest the
 * motion is a straight line to u_n = 0: stick at rate -W_tt^-1 W_tn when that lies within the
 * cone, else slip along the unit s with W_tn = (alpha I + mu W_tt) s, alpha > 0 (bisection on
 * alpha), on which the slip direction stays s.
 *
 * Sequential: the first contact of `order` with u_n < -ntol, ntol = 1e-12 (1 + max_c
 * |u_n,c(v_minus)|), acts alone until its u_n = 0; its impulse p moves every contact velocity
 * by W_kc p; then again, a contact pushed back into penetration acting again, until none
 * penetrates (at most SP_ORACLE_PHASES phases). A history may start with phases of given
 * contacts and dwells (sp_oracle_history): the contact acts for that much normal impulse or
 * until its u_n = 0, whichever comes first (the dwell's end is located like u_n = 0).
 */
#ifndef NSM_TEST_SPATIAL_ORACLE_H
#define NSM_TEST_SPATIAL_ORACLE_H

#include <stddef.h>

#define SP_ORACLE_MAX_N 48u
#define SP_ORACLE_MAX_M 16u
#define SP_ORACLE_PHASES 100000u
#define SP_ORACLE_STEP 0.01
#define SP_ORACLE_REST 1e-15

/** Return codes of sp_oracle_sequential. */
enum {
    SP_ORACLE_OK = 0,
    SP_ORACLE_ERR_ARG = 1,    /* NULL, sizes out of range, mu < 0, order not a permutation,
                                 LAPACK failed (M not SPD) */
    SP_ORACLE_ERR_PHASES = 2, /* more than SP_ORACLE_PHASES phases */
    SP_ORACLE_ERR_REST = 3,   /* a contact at rest with a singular W_tt or a non-positive
                                 normal rate (no end of its phase) */
    SP_ORACLE_ERR_STEPS = 4   /* a phase took more than 10^8 steps */
};

/**
 * The impulse-space data with LAPACK (dposv): J (3m×n, rows t1, t2, n per contact),
 * X = M^-1 J^T (n×3m), W = J X (3m×3m), u = J v_minus (3m), all row-major. Returns
 * SP_ORACLE_OK, or SP_ORACLE_ERR_ARG for sizes out of range or when dposv fails (M not SPD).
 */
int sp_oracle_delassus(size_t n, size_t m, const double *M, const double *Jn,
                       const double *Jt, const double *vm, double *X, double *W, double *u);

/**
 * Phases, then the sequential finish. Phase i (i < nphase): contact contacts[i] acts for
 * dwell[i] of normal impulse (INFINITY: until it stops penetrating) or until it stops
 * penetrating, whichever comes first; a phase whose contact does not penetrate, or whose
 * dwell is 0, is skipped. Then the first penetrating contact of finish (a permutation of
 * 0 .. m-1) acts until it stops penetrating, repeated. Returns SP_ORACLE_OK and v_plus (n)
 * when no contact penetrates, else an SP_ORACLE_ERR_* code (v_plus not written; also
 * SP_ORACLE_ERR_ARG for a contact index >= m or a negative or NaN dwell). *phases (may be
 * NULL) receives the number of phases run, the skipped ones not counted. contacts and dwell
 * may be NULL when nphase = 0.
 */
int sp_oracle_history(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                      const double *mu, const double *v_minus, const size_t *contacts,
                      const double *dwell, size_t nphase, const size_t *finish,
                      double *v_plus, size_t *phases);

/**
 * The sequential history in the order `order` (a permutation of 0 .. m-1): sp_oracle_history
 * without phases. Returns
 * SP_ORACLE_OK and v_plus (n) when no contact penetrates, else an SP_ORACLE_ERR_* code
 * (v_plus not written). *phases (may be NULL) receives the number of phases.
 */
int sp_oracle_sequential(size_t n, size_t m, const double *M, const double *Jn,
                         const double *Jt, const double *mu, const double *v_minus,
                         const size_t *order, double *v_plus, size_t *phases);

/**
 * Plain explicit steps of the inclusion, simultaneous (ratios) or priority (order) rule:
 * every step of length h = hrel·S (S = max over the penetrating contacts of -u_n,c/W_nn,c)
 * gives the contacts penetrating at its start (u_n < -ntol, ntol as above) the rule's weights
 * (ratios normalised to sum 1; or 1 on the first penetrating contact of order), each with its
 * slip's friction -mu u_t/|u_t| (none where |u_t| <= 1e-12), and locates nothing: rest and
 * stick are reached by chattering, first order in h. *reentry is set when a contact that had
 * stopped penetrating penetrates again beyond the chattering amplitude (20 h max|W_ij|
 * (1 + mu_c)): then the rule's share did not hold it at rest. Returns SP_ORACLE_OK and v_plus
 * (n) when no contact penetrates within step_cap steps (*steps receives their number),
 * SP_ORACLE_ERR_STEPS beyond, SP_ORACLE_ERR_ARG for bad arguments (exactly one of ratios,
 * order; ratios > 0; order a permutation; 0 < hrel <= 1).
 */
int sp_oracle_fine(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                   const double *mu, const double *v_minus, const double *ratios,
                   const size_t *order, double hrel, size_t step_cap, double *v_plus,
                   int *reentry, size_t *steps);

#endif
