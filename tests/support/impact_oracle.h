/*
 * Test oracle for planar (d = 1) multi-contact frictional impacts with zero restitution,
 * written independently of the library (no call into libnsmech, none of its code): exact
 * event-driven bang-bang histories, a REFERENCE outcome set built from them, plain explicit
 * small steps for the simultaneous and priority rules (oracle_fine), and a coverage measure
 * comparing a set of outcomes with the reference in 2-D projections.
 *
 * Data (all row-major, as in include/nsmech/impact.h with d = 1):
 *   n generalized velocities (1 .. ORACLE_MAX_N), m contacts (1 .. ORACLE_MAX_M);
 *   M (n×n, symmetric positive definite), Jn (m×n, row c = J_n,c), Jt (m×n, row c = J_t,c),
 *   mu (m, >= 0), v_minus (n). Contact velocities u_n,c = J_n,c v, u_t,c = J_t,c v.
 *
 * The inclusion. The impulse "time" s is the total normal impulse. While contact c acts
 * (weight 1, all others 0): dΛ_n,c/ds = 1, dΛ_t,c/ds = lt, dv/ds = M^-1 (J_n,c^T + J_t,c^T lt)
 * with Coulomb's law:
 *   sliding, |u_t,c| > ztol:  lt = -mu_c sign(u_t,c), until u_t,c reaches 0 (event);
 *   at rest, |u_t,c| <= ztol: a = J_t,c M^-1 J_n,c^T, b = J_t,c M^-1 J_t,c^T;
 *                             stick (lt = -a/b) if |a| <= mu_c b, else slip starts with
 *                             lt = -mu_c sign(a).
 * Only a penetrating contact (u_n,c < -ntol) acts; the impact ends when none penetrates.
 * Tolerances: ntol = 1e-12 (1 + max_c |u_n,c(v_minus)|), ztol = 1e-12 (1 + max |J v_minus|).
 * Between events lt is constant, so every contact velocity is affine in s: events (u_n,c = 0
 * of the acting contact, u_t,c = 0 of a sliding acting contact, the end of a dwell) are
 * located exactly (to rounding) and the integration is exact; `fine` only caps the step.
 *
 * Impulse scale S = max over penetrating contacts of -u_n,c(v_minus) / W_nn,c with
 * W_nn,c = J_n,c M^-1 J_n,c^T (the impulse contact c alone would need without friction).
 * `fine`: 0 = event-driven (steps end only at events; exact); > 0 = steps no longer than
 * S / fine as well (the same result up to rounding; for cross-checks).
 *
 * A history fails (is dropped from a reference set) when: its total normal impulse exceeds
 * ORACLE_IMPULSE_CAP·S; it takes more than ORACLE_EVENT_CAP segments; a phase has no event
 * ahead (cannot happen for SPD M with finite data); the final energy ½ v+^T M v+ exceeds
 * ½ v-^T M v- by more than 1e-9 relative; or the final check J_n,c v+ >= -1e-9 (1 + max_c
 * |u_n,c(v_minus)|) fails.
 */
#ifndef NSM_TEST_IMPACT_ORACLE_H
#define NSM_TEST_IMPACT_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#define ORACLE_MAX_N 32u
#define ORACLE_MAX_M 8u
/** Maximum m for which oracle_reference enumerates all m! sequential orders. */
#define ORACLE_MAX_ORDERS_M 6u
#define ORACLE_IMPULSE_CAP 1e6
#define ORACLE_EVENT_CAP 10000000u

/** Return codes of oracle_history (also the drop reasons counted in oracle_stats). */
enum {
    ORACLE_OK = 0,
    ORACLE_ERR_ARG = 1,     /* NULL, sizes out of range, mu < 0, non-finite data, M not SPD,
                               a contact index >= m, a negative or NaN dwell */
    ORACLE_ERR_CAP = 2,     /* impulse cap exceeded */
    ORACLE_ERR_EVENTS = 3,  /* segment cap exceeded */
    ORACLE_ERR_NOEVENT = 4, /* a phase with no event ahead */
    ORACLE_ERR_ENERGY = 5,  /* final energy above the initial one (1e-9 relative) */
    ORACLE_ERR_CHECK = 6    /* a contact still penetrating by more than the final tolerance */
};

/** Counters of oracle_reference. */
typedef struct oracle_stats {
    size_t runs;        /* histories run (orders + random) */
    size_t ok;          /* histories that terminated and passed the checks */
    size_t written;     /* points written to pts (<= cap) */
    size_t drop[7];     /* drop[code]: histories that failed with that code (drop[0] unused) */
    size_t segments;    /* segments integrated over all histories */
    double max_energy_ratio; /* max over terminated histories of E+/E- (<= 1 + 1e-9 if ok) */
} oracle_stats;

/**
 * One bang-bang history. Phase i (i < nphase): contact contacts[i] acts for dwell[i] of
 * normal impulse (dwell[i] = INFINITY: until it stops penetrating) or until it stops
 * penetrating, whichever comes first; a phase whose contact does not penetrate is skipped.
 * After the phases (or with nphase = 0) the history finishes sequentially: the first
 * penetrating contact of finish[0 .. m-1] (a permutation; NULL = 0, 1, .., m-1) acts until it
 * stops penetrating, repeated. Returns ORACLE_OK and v_plus (n) when no contact penetrates,
 * else an ORACLE_ERR_* code (v_plus then holds the velocity where it stopped, except for
 * ORACLE_ERR_ARG: not written). `fine` as above. contacts, dwell may be NULL when nphase = 0.
 */
int oracle_history(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                   const double *mu, const double *v_minus, const size_t *contacts,
                   const double *dwell, size_t nphase, const size_t *finish, size_t fine,
                   double *v_plus);

/**
 * Explicit small steps of the inclusion for two weight rules, nothing located (for the
 * simultaneous and priority policies): ratios != NULL and order == NULL — the penetrating
 * contacts act together with weights ratios_c / (sum over the penetrating contacts);
 * order != NULL (a permutation) — the first penetrating contact of order acts alone. Each step
 * of normal impulse h = hrel·S applies those weights, each acting contact with its Coulomb
 * rate at the step's start (sliding, |u_t,c| > ztol: -mu_c sign(u_t,c); at rest: its own
 * block's stick or slip, as above). A contact that others push back into penetration is
 * weighted again at the next step, so rest and stick are approached by chattering
 * (Filippov's sliding motion as h -> 0; first order in h). *reentry = 1 when a contact that
 * had stopped penetrating later penetrates by more than 20 h max|W| (1 + mu_c): the rule's
 * share did not hold it at rest. Returns ORACLE_OK and v_plus (n) when no contact
 * penetrates (the final checks as above), ORACLE_ERR_EVENTS after step_cap steps,
 * ORACLE_ERR_ARG (also: a ratio not positive and finite, hrel outside (0, 1]); *steps
 * counts the steps taken.
 */
int oracle_fine(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                const double *mu, const double *v_minus, const double *ratios,
                const size_t *order, double hrel, size_t step_cap, double *v_plus,
                int *reentry, size_t *steps);

/**
 * Reference outcome set: first all m! sequential orders (m <= ORACLE_MAX_ORDERS_M, orders in
 * lexicographic order; none for larger m), then nhist random bang-bang histories from seed
 * (own xoshiro256** generator, history h seeded with seed + h): per history a dwell scale log-uniform in [1e-4 S, S], then at
 * each choice a contact uniform among the penetrating ones and a dwell exponential with that
 * mean. Writes the v_plus (n each, row-major) of the first `cap` successful histories to pts
 * and returns their number; failed histories are dropped and counted in *stats (may be NULL).
 * Returns 0 on an argument error (stats->drop[ORACLE_ERR_ARG] = 1).
 */
size_t oracle_reference(size_t n, size_t m, const double *M, const double *Jn,
                        const double *Jt, const double *mu, const double *v_minus,
                        size_t nhist, uint64_t seed, size_t fine, size_t cap, double *pts,
                        oracle_stats *stats);

/**
 * Area of the convex hull of the npts points (x[i], y[i]) (Andrew's monotone chain, long
 * double arithmetic, coordinates taken relative to the first point). 0 for fewer than 3
 * points, collinear points, NULL pointers or non-finite coordinates.
 */
double oracle_hull_area(size_t npts, const double *x, const double *y);

/**
 * Distance from the point (px, py) to the convex hull of the npts points (x[i], y[i]): 0 when
 * it lies inside or on the hull, else its distance to the nearest hull edge (long double
 * arithmetic, as oracle_hull_area); *diam is the hull's diameter (largest distance between
 * two of its vertices). For one or two distinct points the hull is a point or a segment. -1
 * for npts = 0, NULL pointers, non-finite coordinates or when malloc fails.
 */
double oracle_hull_outside(size_t npts, const double *x, const double *y, double px, double py,
                           double *diam);

/**
 * Coverage of the reference set B (nb points of n coordinates, row-major) by the set A (na
 * points) in the projection (x, y) = (p0·v, p1·v), p0 and p1 of length n:
 *   coverage = area(hull(A)) / area(hull(A ∪ B)), in [0, 1].
 * Degenerate cases, exactly (D_X = max(x range, y range) of the projected set X):
 *   - na = 0 (or a NULL pointer): 0;
 *   - D_{A∪B} = 0 (all points coincide): 1;
 *   - B degenerate, i.e. nb < 3 or area(hull(B)) <= 1e-9·D_B² (B on a segment to that
 *     tolerance; decided on B alone, so that noise in A cannot make a 1-D reference look 2-D):
 *     the 1-D coverage (range of e·A) / (range of e·(A ∪ B)), e the unit direction from the
 *     lexicographically smallest point of B to the point of B farthest from it (of A ∪ B
 *     instead when D_B = 0), 1 if the range of e·(A ∪ B) is 0.
 * Not symmetric: swapping A and B asks how much of A the set B covers.
 * Needs malloc (returns -1 if it fails).
 */
double oracle_coverage(size_t n, size_t na, const double *A, size_t nb, const double *B,
                       const double *p0, const double *p1);

#endif
