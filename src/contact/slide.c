/*
 * Contacts at rest in the planar impact integrator: held normal weights (sliding modes) and
 * joint stick rates (docs/math.md, "Contacts at rest: sliding and joint stick").
 *
 * Along the impact the policy gives weights to the penetrating contacts. A contact already
 * at rest (u_n = 0) that those impulses drive back into penetration may carry impulse too
 * ([I] eqs. 15-17, (I4): weights on every non-separating contact); the motion that keeps it at
 * rest is the Filippov sliding motion. With only the policy's weights it alternates between
 * penetrating (weighted) and resolved (not), each alternation a segment; here it carries the
 * weight x that holds it at u_n = 0 (any x >= 0 is admissible in the inclusion, whatever
 * weights the policy draws for the penetrating contacts). Where x does not exceed the share
 * the policy would give the contact when it penetrates, this is also the h -> 0 limit of the
 * alternation. Likewise a contact at tangential rest whose own block
 * would stick is made to drift by the other contacts' impulses; the limit of its stick/slip
 * alternation is the tangential rate that keeps u_t = 0, jointly over all contacts at rest,
 * within the cone. Both are box-constrained complementarity conditions, one unknown per
 * contact and direction, solved by projected Gauss–Seidel: each unknown in turn is set to
 * the value that zeroes its own rate, clamped to its box. For frictionless held contacts the
 * problem is a convex quadratic program (W positive definite) and the sweeps converge; with
 * friction convergence is not guaranteed, and the caller falls back to the policy's weights
 * and per-contact rules for that segment.
 */
#include "slide.h"
#include "internal.h"
#include "coulomb.h"
#include "../nsm_math.h"

/* x clamped to [lo, hi] (lo <= hi). */
/*@ requires lo <= hi;
    assigns \nothing;
    ensures lo <= \result <= hi;
 */
static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* rate += a · column j of the K×K matrix W. */
/*@ requires 1 <= K <= NSM_MAX_DIM && j < K;
    requires \valid_read(W + (0 .. K * K - 1)) && \valid(rate + (0 .. K - 1));
    assigns rate[0 .. K - 1];
 */
static void add_col(size_t K, const double *W, size_t j, double a, double *rate)
{
    /*@ loop invariant 0 <= i <= K;
        loop assigns i, rate[0 .. K - 1];
        loop variant K - i;
     */
    for (size_t i = 0; i < K; i++) {
        lemma_idx(i, j, K);
        rate[i] += a * W[i * K + j];
    }
}

/* One Gauss–Seidel update of the held weight of contact c (rows and columns n = 3c + 2 and
   t = 3c): w[c] := max(0, w[c] - rate_n/g), g the normal rate per unit weight (friction of a
   slipping contact included); w[c] := 0 when g <= 0 (the slip's friction pulls the contact in
   at least as fast as its weight lifts it: no weight holds it stably, and a weight kept from
   the warm start would push a separating contact for a whole step); returns |change|. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid(w + (0 .. m - 1));
    requires \valid(lh + (0 .. 3 * m - 1)) && \valid(rate + (0 .. 3 * m - 1));
    assigns w[c], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
    ensures \result >= 0;
 */
static double update_held(size_t m, const double *W, size_t c, double sig, double *w,
                          double *lh, double *rate)
{
    size_t K = 3 * m;
    size_t n = 3 * c + 2;
    size_t t = 3 * c;
    /*@ assert K * K == 9 * m * m; */
    lemma_idx(n, n, K);
    lemma_idx(n, t, K);
    double g = W[n * K + n] + sig * W[n * K + t];
    double x = g > 0.0 ? w[c] - rate[n] / g : 0.0;
    x = x > 0.0 ? x : 0.0;
    double dx = x - w[c];
    if (dx == 0.0) {
        return 0.0;
    }
    w[c] = x;
    lh[n] += dx;
    add_col(K, W, n, dx, rate);
    if (sig != 0.0) {
        lh[t] += sig * dx;
        add_col(K, W, t, sig * dx, rate);
    }
    return fabs(dx);
}

/* One Gauss–Seidel update of the stick rate of contact c (slot t = 3c) within
   [-bound, bound]; returns |change|. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m && bound >= 0;
    requires \valid_read(W + (0 .. 9 * m * m - 1));
    requires \valid(lh + (0 .. 3 * m - 1)) && \valid(rate + (0 .. 3 * m - 1));
    assigns lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
    ensures \result >= 0;
 */
static double update_stick(size_t m, const double *W, size_t c, double bound, double *lh,
                           double *rate)
{
    size_t K = 3 * m;
    size_t t = 3 * c;
    /*@ assert K * K == 9 * m * m; */
    lemma_idx(t, t, K);
    double g = W[t * K + t];
    double r = g > 0.0 ? lh[t] - rate[t] / g : lh[t];
    r = clamp(r, -bound, bound);
    double dr = r - lh[t];
    if (dr == 0.0) {
        return 0.0;
    }
    lh[t] = r;
    add_col(K, W, t, dr, rate);
    return fabs(dr);
}

/* 1 if a contact is at rest: a weighted contact with friction whose slip is below ztol, or a
   contact without weight at normal rest (|u_n| <= ntol). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(mu + (0 .. m - 1)) &&
             \valid_read(w + (0 .. m - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int any_rest(size_t m, const double *u, const double *mu, const double *w, double ztol,
                    double ntol)
{
    int rest = 0;
    /*@ loop invariant 0 <= c <= m && (rest == 0 || rest == 1);
        loop assigns c, rest;
        loop variant m - c;
     */
    for (size_t c = 0; c < m && !rest; c++) {
        if (w[c] > 0.0) {
            rest = mu[c] > 0.0 && fabs(u[3 * c]) <= ztol;
        } else {
            rest = fabs(u[3 * c + 2]) <= ntol;
        }
    }
    return rest;
}

/* Who is held (no weight, at normal rest), the starting weights and the impulse rates, warm
   started from the previous segment's rates (lh on entry, weights summing to 1): on the scale
   where the policy's weights sum to 1, divided by their previous total. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid(w + (0 .. m - 1)) && \valid(lh + (0 .. 3 * m - 1)) &&
             \valid(held + (0 .. m - 1));
    assigns held[0 .. m - 1], w[0 .. m - 1], lh[0 .. 3 * m - 1];
 */
static void slide_start(size_t m, const double *u, const double *mu, double ztol, double ntol,
                        double *w, double *lh, unsigned char *held)
{
    double prev = 0.0;
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, prev;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (w[c] > 0.0 && lh[3 * c + 2] > 0.0) {
            prev += lh[3 * c + 2];
        }
    }
    double sc = prev > 0.0 ? 1.0 / prev : 0.0;
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, held[0 .. m - 1], w[0 .. m - 1], lh[0 .. 3 * m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double muc = mu[c] > 0.0 ? mu[c] : 0.0;
        held[c] = !(w[c] > 0.0) && fabs(u[3 * c + 2]) <= ntol;
        double x = sc * lh[3 * c + 2];
        double wc = w[c] > 0.0 ? w[c] : (held[c] && x > 0.0 ? x : 0.0);
        double sig = nsm_coulomb_slip1(u[3 * c], muc, ztol);
        double bound = muc * wc;
        w[c] = wc;
        lh[3 * c] = sig != 0.0 ? sig * wc : clamp(sc * lh[3 * c], -bound, bound);
        lh[3 * c + 1] = 0.0;
        lh[3 * c + 2] = wc;
    }
}

/* Gauss–Seidel sweeps over the held weights (update_held) and the stick rates
   (update_stick) until the largest change is at most NSM_SLIDE_TOL·(1 + the largest weight),
   at most NSM_SLIDE_SWEEPS of them; 1 when they converged. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1)) &&
             \valid_read(mu + (0 .. m - 1)) && \valid_read(held + (0 .. m - 1));
    requires \valid(w + (0 .. m - 1)) && \valid(lh + (0 .. 3 * m - 1)) &&
             \valid(rate + (0 .. 3 * m - 1));
    assigns w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
    ensures \result == 0 || \result == 1;
 */
static int slide_sweeps(size_t m, const double *W, const double *u, const double *mu,
                        double ztol, const unsigned char *held, double *w, double *lh,
                        double *rate)
{
    int done = 0;
    /*@ loop invariant 0 <= it <= NSM_SLIDE_SWEEPS && (done == 0 || done == 1);
        loop assigns it, done, w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
        loop variant NSM_SLIDE_SWEEPS - it;
     */
    for (unsigned it = 0; it < NSM_SLIDE_SWEEPS && !done; it++) {
        double change = 0.0;
        double wmax = 0.0;
        /*@ loop invariant 0 <= c <= m && change >= 0 && wmax >= 0;
            loop assigns c, change, wmax, w[0 .. m - 1], lh[0 .. 3 * m - 1],
                         rate[0 .. 3 * m - 1];
            loop variant m - c;
         */
        for (size_t c = 0; c < m; c++) {
            double muc = mu[c] > 0.0 ? mu[c] : 0.0;
            double sig = nsm_coulomb_slip1(u[3 * c], muc, ztol);
            double d = 0.0;
            if (held[c]) {
                d = update_held(m, W, c, sig, w, lh, rate);
            }
            change = d > change ? d : change;
            double wc = w[c] > 0.0 ? w[c] : 0.0;
            wmax = wc > wmax ? wc : wmax;
            if (sig == 0.0 && muc > 0.0 && (held[c] || wc > 0.0)) {
                d = update_stick(m, W, c, muc * wc, lh, rate);
                change = d > change ? d : change;
            }
        }
        done = change <= NSM_SLIDE_TOL * (1.0 + wmax);
    }
    return done;
}

/* After converged sweeps: the weights, rates and velocity rates scaled to sum 1 when held
   weights were added (the policy's weights already sum to 1). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(held + (0 .. m - 1));
    requires \valid(w + (0 .. m - 1)) && \valid(lh + (0 .. 3 * m - 1)) &&
             \valid(rate + (0 .. 3 * m - 1));
    assigns w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
 */
static void slide_scale(size_t m, const unsigned char *held, double *w, double *lh,
                        double *rate)
{
    double sum = 0.0;
    int added = 0;
    /*@ loop invariant 0 <= c <= m && (added == 0 || added == 1);
        loop assigns c, sum, added;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        sum += w[c];
        added = added || (held[c] && w[c] > 0.0);
    }
    if (added && sum > 0.0) {
        double inv = 1.0 / sum;
        /*@ loop invariant 0 <= c <= m;
            loop assigns c, w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
            loop variant m - c;
         */
        for (size_t c = 0; c < m; c++) {
            w[c] *= inv;
            lh[3 * c] *= inv;
            lh[3 * c + 2] *= inv;
            rate[3 * c] *= inv;
            rate[3 * c + 1] *= inv;
            rate[3 * c + 2] *= inv;
        }
    }
}


int nsm_slide_planar(size_t m, const double *W, const double *u, const double *mu,
                     double ztol, double ntol, double *w, double *lh, double *rate)
{
    /* nothing at rest: the per-contact rules apply unchanged (the caller's path) */
    if (!any_rest(m, u, mu, w, ztol, ntol)) {
        return 0;
    }
    unsigned char held[NSM_MAX_DIM / 3];
    slide_start(m, u, mu, ztol, ntol, w, lh, held);
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    matvec(K, K, W, lh, rate);
    if (!slide_sweeps(m, W, u, mu, ztol, held, w, lh, rate)) {
        /*@ loop invariant 0 <= c <= m;
            loop assigns c, w[0 .. m - 1];
            loop variant m - c;
         */
        for (size_t c = 0; c < m; c++) {
            if (held[c]) {
                w[c] = 0.0;
            }
        }
        return 0;
    }
    slide_scale(m, held, w, lh, rate);
    return 1;
}
