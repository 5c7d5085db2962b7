/*
 * Contacts at rest in the impact integrator: held normal weights (sliding modes) and joint
 * stick rates, planar and spatial (docs/math.md, "Contacts at rest: sliding and joint stick").
 * Implements docs/math.md (I10) and its active-set Newton step (I10a).
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
 * within the cone. Both are complementarity conditions, one unknown per contact and direction
 * (planar: a box each), solved by projected Gauss–Seidel: each unknown in turn is set to
 * the value that zeroes its own rate, clamped to its box. Spatially (d = 2) a contact's two
 * stick rates form one block r_c in the disc |r_c| <= mu_c w_c, updated together by the
 * rest rule on the contact's own block with the other impulses' rate as W_tn
 * (nsm_coulomb_rest2_block): stick when that keeps u_t,c = 0 within the disc, else the
 * re-slip rate on its rim, whose tangential rate opposes it (maximal dissipation). For frictionless held contacts the
 * problem is a convex quadratic program (W positive definite) and the sweeps converge; with
 * friction convergence is not guaranteed, and the caller falls back to the policy's weights
 * and per-contact rules for that segment.
 */
#include "slide.h"
#include "internal.h"
#include "../contact/coulomb.h"
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
   t = 3c, 3c + 1): w[c] := max(0, w[c] - rate_n/g), g the normal rate per unit weight
   (friction (s1, s2) of a slipping contact included); w[c] := 0 when g <= 0 (the slip's friction pulls the contact in
   at least as fast as its weight lifts it: no weight holds it stably, and a weight kept from
   the warm start would push a separating contact for a whole step); returns |change|. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid(w + (0 .. m - 1));
    requires \valid(lh + (0 .. 3 * m - 1)) && \valid(rate + (0 .. 3 * m - 1));
    assigns w[c], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
    ensures \result >= 0;
 */
static double update_held(size_t m, const double *W, size_t c, double s1, double s2,
                          double *w, double *lh, double *rate)
{
    size_t K = 3 * m;
    size_t n = 3 * c + 2;
    size_t t = 3 * c;
    /*@ assert K * K == 9 * m * m; */
    lemma_idx(n, n, K);
    lemma_idx(n, t, K);
    lemma_idx(n, t + 1, K);
    double g = W[n * K + n] + s1 * W[n * K + t] + s2 * W[n * K + t + 1];
    double x = g > 0.0 ? w[c] - rate[n] / g : 0.0;
    x = x > 0.0 ? x : 0.0;
    double dx = x - w[c];
    if (dx == 0.0) {
        return 0.0;
    }
    /* the slots set from x, not moved by dx: with a tiny mu, s·dx summed over the sweeps
       drifted from s·x (1.0072 mu x for mu = 4.8e-246); rate moves by what each slot moved */
    double dn = x - lh[n];
    double d1 = s1 * x - lh[t];
    double d2 = s2 * x - lh[t + 1];
    w[c] = x;
    lh[n] = x;
    add_col(K, W, n, dn, rate);
    if (s1 != 0.0) {
        lh[t] = s1 * x;
        add_col(K, W, t, d1, rate);
    }
    if (s2 != 0.0) {
        lh[t + 1] = s2 * x;
        add_col(K, W, t + 1, d2, rate);
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

/* One block Gauss–Seidel update of the spatial stick rates r = (lh[t], lh[t + 1]) of contact
   c (t = 3c) within the disc |r| <= bound: b = rate_t - W_tt r is the tangential rate of the
   other impulses, and r := the rest rule on the contact's own block with W_tn = b and radius
   bound (nsm_coulomb_rest2_block: -W_tt^-1 b when within the disc, else the re-slip rate on
   its rim); returns the larger |change|. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m && bound >= 0;
    requires \valid_read(W + (0 .. 9 * m * m - 1));
    requires \valid(lh + (0 .. 3 * m - 1)) && \valid(rate + (0 .. 3 * m - 1));
    assigns lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
    ensures \result >= 0;
 */
static double update_stick2(size_t m, const double *W, size_t c, double bound, double *lh,
                            double *rate)
{
    size_t K = 3 * m;
    size_t t = 3 * c;
    /*@ assert K * K == 9 * m * m; */
    lemma_idx(t, t, K);
    lemma_idx(t, t + 1, K);
    lemma_idx(t + 1, t + 1, K);
    double a11 = W[t * K + t];
    double a12 = W[t * K + t + 1];
    double a22 = W[(t + 1) * K + t + 1];
    double r1 = lh[t];
    double r2 = lh[t + 1];
    double b1 = rate[t] - (a11 * r1 + a12 * r2);
    double b2 = rate[t + 1] - (a12 * r1 + a22 * r2);
    double q[2] = {0.0, 0.0};
    nsm_coulomb_rest2_block(bound, a11, a12, a22, b1, b2, q);
    double d1 = q[0] - r1;
    double d2 = q[1] - r2;
    if (d1 != 0.0) {
        lh[t] = q[0];
        add_col(K, W, t, d1, rate);
    }
    if (d2 != 0.0) {
        lh[t + 1] = q[1];
        add_col(K, W, t + 1, d2, rate);
    }
    double a = fabs(d1);
    double e = fabs(d2);
    return a > e ? a : e;
}

/* Slip friction per unit weight of contact c, (s1, s2) = -mu u_t/|u_t| when it slips
   (|u_t| > ztol; planar: (nsm_coulomb_slip1, 0)), (0, 0) at tangential rest; |(s1, s2)| <= mu
   and (0, 0) only at rest or without friction. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m && (d == 1 || d == 2) && mu >= 0;
    requires \valid_read(u + (0 .. 3 * m - 1));
    requires \valid(s1) && \valid(s2) && \separated(s1, s2);
    assigns *s1, *s2;
 */
static void slip_of(size_t m, size_t d, const double *u, size_t c, double mu, double ztol,
                    double *s1, double *s2)
{
    (void)m;
    *s2 = 0.0;
    if (d == 1) {
        *s1 = nsm_coulomb_slip1(u[3 * c], mu, ztol);
        return;
    }
    double sp = tnorm(2, u[3 * c], u[3 * c + 1]);
    if (sp > ztol && sp > 0.0) {
        *s1 = -mu * u[3 * c] / sp;
        *s2 = -mu * u[3 * c + 1] / sp;
    } else {
        *s1 = 0.0;
    }
}

/* 1 if a contact is at rest: a weighted contact with friction whose slip is below ztol
   (|u_t| for d = 2), or a contact without weight at normal rest (|u_n| <= ntol). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(mu + (0 .. m - 1)) &&
             \valid_read(w + (0 .. m - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int any_rest(size_t m, size_t d, const double *u, const double *mu, const double *w,
                    double ztol, double ntol)
{
    int rest = 0;
    /*@ loop invariant 0 <= c <= m && (rest == 0 || rest == 1);
        loop assigns c, rest;
        loop variant m - c;
     */
    for (size_t c = 0; c < m && !rest; c++) {
        if (w[c] > 0.0) {
            double sp = d == 1 ? fabs(u[3 * c]) : tnorm(2, u[3 * c], u[3 * c + 1]);
            rest = mu[c] > 0.0 && sp <= ztol;
        } else {
            rest = fabs(u[3 * c + 2]) <= ntol;
        }
    }
    return rest;
}

/* Who is held (no weight, at normal rest), the starting weights and the impulse rates, warm
   started from the previous segment's rates (lh on entry, weights summing to 1): on the scale
   where the policy's weights sum to 1, divided by their previous total, and put in the cone. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid(w + (0 .. m - 1)) && \valid(lh + (0 .. 3 * m - 1)) &&
             \valid(held + (0 .. m - 1));
    assigns held[0 .. m - 1], w[0 .. m - 1], lh[0 .. 3 * m - 1];
 */
static void slide_start(size_t m, size_t d, const double *u, const double *mu, double ztol,
                        double ntol, double *w, double *lh, unsigned char *held)
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
        double s1 = 0.0;
        double s2 = 0.0;
        slip_of(m, d, u, c, muc, ztol, &s1, &s2);
        double bound = muc * wc;
        double r1 = sc * lh[3 * c];
        double r2 = d == 2 ? sc * lh[3 * c + 1] : 0.0;
        double rn = tnorm(2, r1, r2);
        if (rn > bound) { /* rn > 0 */
            r1 = d == 1 ? clamp(r1, -bound, bound) : r1 * (bound / rn);
            r2 = r2 * (bound / rn);
        }
        int slips = s1 != 0.0 || s2 != 0.0;
        w[c] = wc;
        lh[3 * c] = slips ? s1 * wc : r1;
        lh[3 * c + 1] = slips ? s2 * wc : r2;
        lh[3 * c + 2] = wc;
    }
}

/*
 * The active-set Newton step between sweeps. Projected Gauss–Seidel converges linearly and
 * slowly when the contacts at rest are strongly coupled (ball stack: 21 sweeps per call on
 * average, 21 % of the calls taking 32-255). Once a sweep leaves every unknown on the same side
 * of its bounds, the conditions restricted to that active set are linear: each free unknown
 * (a positive held weight x_c, a stick rate r_c inside its interval) zeroes its own rate.
 * One Newton step solves them: A δ = −ρ with A_ij = rate row of unknown i per unit of
 * unknown j, ρ the current rates of those rows. Row and column of x_c are its normal slot,
 * plus κ_c times its tangential slot in the column (κ_c its slip's friction −μ_c sign u_t,c,
 * or ±μ_c when its stick rate sits at that end of its interval, else 0); those of r_c are
 * its tangential slot. The step is taken only when it is small (NSM_SLIDE_NEWTON_STEP) and
 * keeps every unknown within its bounds; the sweeps go on and decide convergence as before,
 * so the step changes how soon they reach a solution, not what counts as one.
 */

/* The free unknowns of the step. */
typedef struct newton_set {
    size_t k;                               /* number of unknowns, <= NSM_SLIDE_NEWTON_MAX */
    size_t c[NSM_SLIDE_NEWTON_MAX];         /* contact of unknown j */
    unsigned char normal[NSM_SLIDE_NEWTON_MAX]; /* 1: held weight x_c; 0: stick rate r_c */
    double kap[NSM_SLIDE_NEWTON_MAX];       /* κ_c of a held weight's column */
} newton_set;

/*@ predicate rest_in{L}(integer m, double *W, double *u, double *mu, unsigned char *held) =
      1 <= m && 3 * m <= NSM_MAX_DIM &&
      \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1)) &&
      \valid_read(mu + (0 .. m - 1)) && \valid_read(held + (0 .. m - 1));
    predicate rest_out{L}(integer m, double *w, double *lh, double *rate) =
      \valid(w + (0 .. m - 1)) && \valid(lh + (0 .. 3 * m - 1)) &&
      \valid(rate + (0 .. 3 * m - 1));
 */

/*@ predicate set_ok(newton_set *s, integer m) =
      1 <= s->k <= NSM_SLIDE_NEWTON_MAX &&
      \forall integer j; 0 <= j < s->k ==> s->c[j] < m;
 */

/* Stick state of a rate r in [-b, b]: 0 inside, 1 at +b, 2 at -b (for the flip count). */
/*@ assigns \nothing;
    ensures \result <= 2;
 */
static unsigned stick_state(double r, double b)
{
    return fabs(r) < b ? 0u : (r > 0.0 ? 1u : 2u);
}

/* The free unknowns at the current iterate, contact by contact (a contact's held weight
   before its stick rate); 0 when there are none or more than NSM_SLIDE_NEWTON_MAX. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(mu + (0 .. m - 1)) &&
             \valid_read(held + (0 .. m - 1)) && \valid_read(w + (0 .. m - 1)) &&
             \valid_read(lh + (0 .. 3 * m - 1));
    requires \valid(s);
    assigns *s;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> set_ok(s, m);
 */
static int newton_collect(size_t m, const double *u, const double *mu, double ztol,
                          const unsigned char *held, const double *w, const double *lh,
                          newton_set *s)
{
    s->k = 0;
    /*@ loop invariant 0 <= c <= m && s->k <= NSM_SLIDE_NEWTON_MAX;
        loop invariant \forall integer j; 0 <= j < s->k ==> s->c[j] < m;
        loop assigns c, *s;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double muc = mu[c] > 0.0 ? mu[c] : 0.0;
        double sig = nsm_coulomb_slip1(u[3 * c], muc, ztol);
        double wc = w[c] > 0.0 ? w[c] : 0.0;
        int sticks = sig == 0.0 && muc > 0.0 && (held[c] || wc > 0.0);
        unsigned st = sticks ? stick_state(lh[3 * c], muc * wc) : 0u;
        int free_x = held[c] && wc > 0.0;
        int free_r = sticks && st == 0u;
        if (s->k + (size_t)free_x + (size_t)free_r > NSM_SLIDE_NEWTON_MAX) {
            return 0;
        }
        if (free_x) {
            s->c[s->k] = c;
            s->normal[s->k] = 1;
            s->kap[s->k] = sig != 0.0 ? sig : (st == 1u ? muc : (st == 2u ? -muc : 0.0));
            s->k++;
        }
        if (free_r) {
            s->c[s->k] = c;
            s->normal[s->k] = 0;
            s->kap[s->k] = 0.0;
            s->k++;
        }
    }
    return s->k > 0 ? 1 : 0;
}

/* Slot (row) of unknown j: the normal slot of a held weight, the tangential one of a stick
   rate. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(s) && set_ok(s, m) && j < s->k;
    assigns \nothing;
    ensures \result < 3 * m;
 */
static size_t newton_slot(size_t m, const newton_set *s, size_t j)
{
    (void)m;
    return s->normal[j] ? 3 * s->c[j] + 2 : 3 * s->c[j];
}

/* A (k×k, row-major) and b = −ρ of the step. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(rate + (0 .. 3 * m - 1));
    requires \valid_read(s) && set_ok(s, m);
    requires \valid(A + (0 .. NSM_SLIDE_NEWTON_MAX * NSM_SLIDE_NEWTON_MAX - 1)) &&
             \valid(b + (0 .. NSM_SLIDE_NEWTON_MAX - 1));
    requires \separated(A + (0 .. NSM_SLIDE_NEWTON_MAX * NSM_SLIDE_NEWTON_MAX - 1),
                        b + (0 .. NSM_SLIDE_NEWTON_MAX - 1), s);
    assigns A[0 .. NSM_SLIDE_NEWTON_MAX * NSM_SLIDE_NEWTON_MAX - 1],
            b[0 .. NSM_SLIDE_NEWTON_MAX - 1];
 */
static void newton_system(size_t m, const double *W, const double *rate, const newton_set *s,
                          double *A, double *b)
{
    size_t K = 3 * m;
    size_t k = s->k;
    /*@ assert K * K == 9 * m * m; */
    /*@ loop invariant 0 <= i <= k;
        loop assigns i, A[0 .. NSM_SLIDE_NEWTON_MAX * NSM_SLIDE_NEWTON_MAX - 1],
                     b[0 .. NSM_SLIDE_NEWTON_MAX - 1];
        loop variant k - i;
     */
    for (size_t i = 0; i < k; i++) {
        size_t ri = newton_slot(m, s, i);
        b[i] = -rate[ri];
        /*@ loop invariant 0 <= j <= k;
            loop assigns j, A[0 .. NSM_SLIDE_NEWTON_MAX * NSM_SLIDE_NEWTON_MAX - 1];
            loop variant k - j;
         */
        for (size_t j = 0; j < k; j++) {
            size_t t = 3 * s->c[j];
            size_t cj = newton_slot(m, s, j);
            lemma_idx(ri, cj, K);
            lemma_idx(ri, t, K);
            /*@ assert i * k + j < NSM_SLIDE_NEWTON_MAX * NSM_SLIDE_NEWTON_MAX; */
            A[i * k + j] = W[ri * K + cj] + (s->normal[j] ? s->kap[j] * W[ri * K + t] : 0.0);
        }
    }
}

/* Solves A x = b in place (k×k, row-major; b receives x) by Gaussian elimination with
   partial pivoting; 0 when a pivot is not above 1e-12 times the largest |A_ij| (the active
   set's conditions are degenerate: no step). */
/*@ requires 1 <= k <= NSM_SLIDE_NEWTON_MAX;
    requires \valid(A + (0 .. k * k - 1)) && \valid(b + (0 .. k - 1));
    requires \separated(A + (0 .. k * k - 1), b + (0 .. k - 1));
    assigns A[0 .. k * k - 1], b[0 .. k - 1];
    ensures \result == 0 || \result == 1;
 */
static int gauss_solve(size_t k, double *A, double *b)
{
    double amax = 0.0;
    /*@ loop invariant 0 <= i <= k * k && amax >= 0;
        loop assigns i, amax;
        loop variant k * k - i;
     */
    for (size_t i = 0; i < k * k; i++) {
        double a = fabs(A[i]);
        amax = a > amax ? a : amax;
    }
    double tiny = 1e-12 * amax;
    /*@ loop invariant 0 <= p <= k;
        loop assigns p, A[0 .. k * k - 1], b[0 .. k - 1];
        loop variant k - p;
     */
    for (size_t p = 0; p < k; p++) {
        size_t piv = p;
        double best = fabs(A[p * k + p]);
        /*@ loop invariant p + 1 <= i <= k && p <= piv < k;
            loop assigns i, piv, best;
            loop variant k - i;
         */
        for (size_t i = p + 1; i < k; i++) {
            double a = fabs(A[i * k + p]);
            if (a > best) {
                best = a;
                piv = i;
            }
        }
        if (!(best > tiny)) {
            return 0;
        }
        if (piv != p) {
            /*@ loop invariant 0 <= j <= k;
                loop assigns j, A[0 .. k * k - 1];
                loop variant k - j;
             */
            for (size_t j = 0; j < k; j++) {
                double t = A[p * k + j];
                A[p * k + j] = A[piv * k + j];
                A[piv * k + j] = t;
            }
            double t = b[p];
            b[p] = b[piv];
            b[piv] = t;
        }
        double d = A[p * k + p];
        /*@ loop invariant p + 1 <= i <= k;
            loop assigns i, A[0 .. k * k - 1], b[0 .. k - 1];
            loop variant k - i;
         */
        for (size_t i = p + 1; i < k; i++) {
            double f = A[i * k + p] / d;
            /*@ loop invariant p <= j <= k;
                loop assigns j, A[0 .. k * k - 1];
                loop variant k - j;
             */
            for (size_t j = p; j < k; j++) {
                A[i * k + j] -= f * A[p * k + j];
            }
            b[i] -= f * b[p];
        }
    }
    /*@ loop invariant 0 <= q <= k;
        loop assigns q, b[0 .. k - 1];
        loop variant q;
     */
    for (size_t q = k; q > 0; q--) {
        size_t p = q - 1;
        double t = b[p];
        /*@ loop invariant p + 1 <= j <= k;
            loop assigns j, t;
            loop variant k - j;
         */
        for (size_t j = p + 1; j < k; j++) {
            t -= A[p * k + j] * b[j];
        }
        b[p] = t / A[p * k + p];
    }
    return 1;
}

/* 1 if the step d keeps the unknowns within their bounds and is small: |d_j| <=
   NSM_SLIDE_NEWTON_STEP·(1 + max w), x_c + d >= 0, |r_c + d| <= mu_c (w_c + the step of
   its held weight, the unknown before it when the contact has one). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(w + (0 .. m - 1)) &&
             \valid_read(lh + (0 .. 3 * m - 1));
    requires \valid_read(s) && set_ok(s, m);
    requires \valid_read(d + (0 .. s->k - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int newton_admissible(size_t m, const double *mu, const double *w, const double *lh,
                             const newton_set *s, const double *d)
{
    double wmax = 0.0;
    /*@ loop invariant 0 <= c <= m && wmax >= 0;
        loop assigns c, wmax;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        wmax = w[c] > wmax ? w[c] : wmax;
    }
    double cap = NSM_SLIDE_NEWTON_STEP * (1.0 + wmax);
    /*@ loop invariant 0 <= j <= s->k;
        loop assigns j;
        loop variant s->k - j;
     */
    for (size_t j = 0; j < s->k; j++) {
        size_t c = s->c[j];
        if (!(fabs(d[j]) <= cap)) {
            return 0;
        }
        if (s->normal[j]) {
            if (!(w[c] + d[j] >= 0.0)) {
                return 0;
            }
        } else {
            double wn = w[c];
            if (j > 0 && s->c[j - 1] == c && s->normal[j - 1]) {
                wn += d[j - 1];
            }
            double muc = mu[c] > 0.0 ? mu[c] : 0.0;
            if (!(fabs(lh[3 * c] + d[j]) <= muc * wn)) {
                return 0;
            }
        }
    }
    return 1;
}

/* Applies the step: w, lh and rate = W lh move together (add_col). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1));
    requires \valid_read(s) && set_ok(s, m);
    requires \valid_read(d + (0 .. s->k - 1));
    requires \valid(w + (0 .. m - 1)) && \valid(lh + (0 .. 3 * m - 1)) &&
             \valid(rate + (0 .. 3 * m - 1));
    requires \separated(s, w + (0 .. m - 1)) && \separated(s, lh + (0 .. 3 * m - 1)) &&
             \separated(s, rate + (0 .. 3 * m - 1));
    requires \separated(d + (0 .. s->k - 1), w + (0 .. m - 1)) &&
             \separated(d + (0 .. s->k - 1), lh + (0 .. 3 * m - 1)) &&
             \separated(d + (0 .. s->k - 1), rate + (0 .. 3 * m - 1));
    assigns w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
 */
static void newton_apply(size_t m, const double *W, const newton_set *s, const double *d,
                         double *w, double *lh, double *rate)
{
    size_t K = 3 * m;
    /*@ loop invariant 0 <= j <= s->k;
        loop assigns j, w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
        loop variant s->k - j;
     */
    for (size_t j = 0; j < s->k; j++) {
        size_t c = s->c[j];
        size_t t = 3 * c;
        if (s->normal[j]) {
            w[c] += d[j];
            lh[t + 2] += d[j];
            add_col(K, W, t + 2, d[j], rate);
            if (s->kap[j] != 0.0) {
                lh[t] += s->kap[j] * d[j];
                add_col(K, W, t, s->kap[j] * d[j], rate);
            }
        } else {
            lh[t] += d[j];
            add_col(K, W, t, d[j], rate);
        }
    }
}

/* The Newton step at the current iterate (collect, system, solve, admissible, apply); 1 when
   it was taken. */
/*@ requires rest_in(m, W, u, mu, held) && rest_out(m, w, lh, rate);
    assigns w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
    ensures \result == 0 || \result == 1;
 */
static int newton_step(size_t m, const double *W, const double *u, const double *mu,
                       double ztol, const unsigned char *held, double *w, double *lh,
                       double *rate)
{
    newton_set s;
    double A[NSM_SLIDE_NEWTON_MAX * NSM_SLIDE_NEWTON_MAX];
    double d[NSM_SLIDE_NEWTON_MAX];
    if (!newton_collect(m, u, mu, ztol, held, w, lh, &s)) {
        return 0;
    }
    newton_system(m, W, rate, &s, A, d);
    if (!gauss_solve(s.k, A, d) || !newton_admissible(m, mu, w, lh, &s, d)) {
        return 0;
    }
    newton_apply(m, W, &s, d, w, lh, rate);
    return 1;
}

/* Gauss–Seidel sweeps over the held weights (update_held) and the stick rates
   (update_stick) until the largest change is at most NSM_SLIDE_TOL·(1 + the largest weight),
   at most NSM_SLIDE_SWEEPS of them, and no more once NSM_SLIDE_STALL sweeps in a row have
   not lowered the change below its smallest value so far (a cycle); 1 when they converged.
   After a sweep that moved no
   unknown across a bound, from sweep NSM_SLIDE_NEWTON_AFTER + 1 on, the Newton step of its
   active set (newton_step). */
/*@ requires rest_in(m, W, u, mu, held) && rest_out(m, w, lh, rate) && (d == 1 || d == 2);
    assigns w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
    ensures \result == 0 || \result == 1;
 */
static int slide_sweeps(size_t m, size_t d, const double *W, const double *u, const double *mu,
                        double ztol, const unsigned char *held, double *w, double *lh,
                        double *rate)
{
    int done = 0;
    double least = -1.0; /* the smallest change so far; < 0 before the first sweep */
    unsigned stalled = 0; /* sweeps since the change last went below it */
    /*@ loop invariant 0 <= it <= NSM_SLIDE_SWEEPS && (done == 0 || done == 1);
        loop invariant 0 <= stalled <= NSM_SLIDE_STALL;
        loop assigns it, done, least, stalled, w[0 .. m - 1], lh[0 .. 3 * m - 1],
                     rate[0 .. 3 * m - 1];
        loop variant NSM_SLIDE_SWEEPS - it;
     */
    for (unsigned it = 0; it < NSM_SLIDE_SWEEPS && !done && stalled < NSM_SLIDE_STALL; it++) {
        double change = 0.0;
        double wmax = 0.0;
        int flips = 0;
        /*@ loop invariant 0 <= c <= m && change >= 0 && wmax >= 0;
            loop invariant flips == 0 || flips == 1;
            loop assigns c, change, wmax, flips, w[0 .. m - 1], lh[0 .. 3 * m - 1],
                         rate[0 .. 3 * m - 1];
            loop variant m - c;
         */
        for (size_t c = 0; c < m; c++) {
            double muc = mu[c] > 0.0 ? mu[c] : 0.0;
            double s1 = 0.0;
            double s2 = 0.0;
            slip_of(m, d, u, c, muc, ztol, &s1, &s2);
            double dc = 0.0;
            /* the stick state before this contact's updates, with its bound before them */
            unsigned before = stick_state(lh[3 * c], muc * (w[c] > 0.0 ? w[c] : 0.0));
            if (held[c]) {
                int was = w[c] > 0.0;
                dc = update_held(m, W, c, s1, s2, w, lh, rate);
                flips = flips || was != (w[c] > 0.0);
            }
            change = dc > change ? dc : change;
            double wc = w[c] > 0.0 ? w[c] : 0.0;
            wmax = wc > wmax ? wc : wmax;
            if (s1 == 0.0 && s2 == 0.0 && muc > 0.0 && (held[c] || wc > 0.0)) {
                if (d == 1) {
                    dc = update_stick(m, W, c, muc * wc, lh, rate);
                    flips = flips || before != stick_state(lh[3 * c], muc * wc);
                } else {
                    dc = update_stick2(m, W, c, muc * wc, lh, rate);
                }
                change = dc > change ? dc : change;
            }
        }
        done = change <= NSM_SLIDE_TOL * (1.0 + wmax);
        if (least < 0.0 || change < least) {
            least = change;
            stalled = 0;
        } else {
            stalled++;
        }
        if (d == 1 && !done && !flips && it >= NSM_SLIDE_NEWTON_AFTER) {
            (void)newton_step(m, W, u, mu, ztol, held, w, lh, rate);
        }
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
            lh[3 * c + 1] *= inv;
            lh[3 * c + 2] *= inv;
            rate[3 * c] *= inv;
            rate[3 * c + 1] *= inv;
            rate[3 * c + 2] *= inv;
        }
    }
}


int nsm_slide(size_t m, size_t d, const double *W, const double *u, const double *mu,
              double ztol, double ntol, double *w, double *lh, double *rate)
{
    /* nothing at rest: the per-contact rules apply unchanged (the caller's path) */
    if (!any_rest(m, d, u, mu, w, ztol, ntol)) {
        return 0;
    }
    unsigned char held[NSM_MAX_DIM / 3];
    slide_start(m, d, u, mu, ztol, ntol, w, lh, held);
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    matvec(K, K, W, lh, rate);
    if (!slide_sweeps(m, d, W, u, mu, ztol, held, w, lh, rate)) {
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
