/*
 * Test oracle: Moreau's inelastic impulse for planar (d = 1) multi-contact impacts, written
 * independently of the library (no call into libnsmech, none of its code; LAPACKE for the
 * small linear systems).
 *
 * Data as in include/nsmech/impact.h with d = 1 (row-major): n generalized velocities, m
 * contacts, M (n×n, SPD), Jn (m×n), Jt (m×n), mu (m, >= 0), v_minus (n). Impulses P are stored
 * in the library's ordering, (t, n) per contact: P[2c] = p_t,c, P[2c + 1] = p_n,c, and the
 * stacked Jacobian J has rows J_t,c, J_n,c in the same order.
 *
 * Moreau's problem: u+ = u- + W P with W = J M^-1 J^T, u- = J v-, v+ = v- + M^-1 J^T P, and
 * per contact
 *   0 <= u_n+ ⊥ p_n >= 0,  |p_t| <= mu p_n,  u_t+ != 0 ==> p_t = -mu p_n sign(u_t+).
 * moreau_solve enumerates the 4^m contact modes:
 *   separating  p = 0                          (u_n+ >= 0),
 *   sticking    u_t+ = u_n+ = 0                (p_n >= 0, |p_t| <= mu p_n),
 *   slip +      u_n+ = 0, p_t = -mu p_n        (p_n >= 0, u_t+ >= 0),
 *   slip -      u_n+ = 0, p_t = +mu p_n        (p_n >= 0, u_t+ <= 0);
 * each mode's 2m linear equations are solved by SVD (LAPACKE_dgesvd): when they are
 * consistent, their minimum-norm solution is kept if it meets the mode's inequalities to the
 * tolerance; a rank-deficient mode (e.g. more contact rows than velocities: sticking on the box
 * in the corner) has a family P0 + N z of solutions, and when its minimum-norm member fails an
 * inequality, every vertex of the polyhedron of z where the inequalities hold (null-space
 * dimension r: r inequalities active at a time) is tried instead. A family whose feasible set
 * has no vertex (it contains a line) and whose minimum-norm member is infeasible is missed.
 * The distinct post-impact velocities are returned (two solutions are the same when their v+
 * agree to 1e-9 of the velocity scale).
 * With mu = 0 the problem is the LCP 0 <= u_n- + W_nn p_n ⊥ p_n >= 0.
 */
#ifndef NSM_TEST_MOREAU_ORACLE_H
#define NSM_TEST_MOREAU_ORACLE_H

#include <stddef.h>

#define MOREAU_MAX_N 16u
#define MOREAU_MAX_M 5u
/** Most distinct solutions kept. */
#define MOREAU_MAX_SOL 16u
/** Most impulses kept (every distinct impulse found, of all solutions). */
#define MOREAU_MAX_IMP 64u

/** Solutions of moreau_solve. */
typedef struct moreau_result {
    size_t nsol;                            /* distinct solutions found (<= MOREAU_MAX_SOL) */
    size_t modes;                           /* modes tried (4^m) */
    size_t accepted;                        /* modes with a solution (before merging) */
    size_t singular;                        /* modes whose system was rank deficient */
    size_t singular_vertex;                 /* of those, modes solved by a vertex of the
                                               family (the minimum-norm member infeasible) */
    double P[MOREAU_MAX_SOL][2 * MOREAU_MAX_M]; /* impulses, (t, n) per contact */
    double v[MOREAU_MAX_SOL][MOREAU_MAX_N];     /* post-impact velocities */
    unsigned mode[MOREAU_MAX_SOL];          /* mode of each: 2 bits per contact (0 separating,
                                               1 sticking, 2 slip +, 3 slip -) */
    /* Every distinct impulse found (impulses within 1e-9 of the impulse scale are the same),
       with the solution it gives: where W is singular (more contact rows than velocities)
       several impulses, with different normal ratios, give the same v+. P[j] is imp[i] for
       the first i with imp_sol[i] = j. */
    size_t nimp;
    double imp[MOREAU_MAX_IMP][2 * MOREAU_MAX_M];
    size_t imp_sol[MOREAU_MAX_IMP];
} moreau_result;

/**
 * All solutions of Moreau's problem found by enumerating the contact modes, inequalities
 * checked to tol relative (tol·max|u-| for velocities, tol·(impulse scale) for impulses; 1e-9
 * is a good value). Returns 0, or -1 on an argument error (sizes out of range, NULL, mu < 0,
 * M not SPD) or a LAPACKE failure.
 */
int moreau_solve(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                 const double *mu, const double *v_minus, double tol, moreau_result *res);

/**
 * An independent check of a claimed solution (P, v_plus), from the data only: the largest of
 * the relative violations of M (v+ - v-) = J^T P, u_n+ >= 0, p_n >= 0, u_n+ p_n = 0,
 * |p_t| <= mu p_n and p_t = -mu p_n sign(u_t+) where |u_t+| > 1e-9·max|u-|, with u+ = J v+
 * computed from v+ (velocities relative to max|J v-|, impulses to max|P| or the impulse scale).
 * Returns a negative number on an argument error.
 */
double moreau_violation(size_t n, size_t m, const double *M, const double *Jn,
                        const double *Jt, const double *mu, const double *v_minus,
                        const double *P, const double *v_plus);

#endif
