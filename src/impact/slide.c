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

/* lh[t] := x with rate = W lh kept: rate += (x - lh[t]) · column t of W (add_col), nothing
   when x equals lh[t]; returns |x - lh[t]|, the change. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && t < 3 * m;
    requires \valid_read(W + (0 .. 9 * m * m - 1));
    requires \valid(lh + (0 .. 3 * m - 1)) && \valid(rate + (0 .. 3 * m - 1));
    assigns lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
    ensures \result >= 0;
 */
static double set_slot(size_t m, const double *W, size_t t, double x, double *lh, double *rate)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    double dx = x - lh[t];
    if (dx == 0.0) {
        return 0.0;
    }
    lh[t] = x;
    add_col(K, W, t, dx, rate);
    return fabs(dx);
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
    w[c] = x;
    (void)set_slot(m, W, n, x, lh, rate);
    if (s1 != 0.0) {
        (void)set_slot(m, W, t, s1 * x, lh, rate);
    }
    if (s2 != 0.0) {
        (void)set_slot(m, W, t + 1, s2 * x, lh, rate);
    }
    return fabs(dx);
}

/* One Gauss–Seidel update of contact c's stick rates (slot t = 3c) within the bound; returns
   the larger |change|. Planar (d = 1): the rate lh[t] := its own solve -rate_t / W_tt from
   lh[t], clamped to [-bound, bound]. Spatial (d = 2): b = rate_t - W_tt r is the tangential
   rate of the other impulses on the pair r = (lh[t], lh[t + 1]), and r := the rest rule on the
   contact's own block with W_tn = b and radius bound (nsm_coulomb_rest2_block: -W_tt^-1 b
   when within the disc, else the re-slip rate on its rim). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m && bound >= 0;
    requires \valid_read(W + (0 .. 9 * m * m - 1));
    requires \valid(lh + (0 .. 3 * m - 1)) && \valid(rate + (0 .. 3 * m - 1));
    assigns lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
    ensures \result >= 0;
 */
static double update_stick(size_t m, size_t d, const double *W, size_t c, double bound,
                           double *lh, double *rate)
{
    size_t K = 3 * m;
    size_t t = 3 * c;
    /*@ assert K * K == 9 * m * m; */
    lemma_idx(t, t, K);
    if (d == 1) {
        double g = W[t * K + t];
        double r = g > 0.0 ? lh[t] - rate[t] / g : lh[t];
        return set_slot(m, W, t, clamp(r, -bound, bound), lh, rate);
    }
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
    double a = set_slot(m, W, t, q[0], lh, rate);
    double e = set_slot(m, W, t + 1, q[1], lh, rate);
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
 * The active-set Newton step between sweeps (I10a). Projected Gauss–Seidel converges linearly
 * and slowly when the contacts at rest are strongly coupled (ball stack: 21 sweeps per call on
 * average, 21 % of the calls taking 32-255; the four corners of a rigid foot, whose rows are
 * redundant: 400 sweeps without convergence). Once a sweep leaves every unknown on the same
 * side of its bounds, the conditions of that active set are smooth, and one Newton step solves
 * their linearisation A δ = −ρ. Each free unknown j belongs to one contact c_j and has:
 *  - a row functional R_j over the contact's slots (t1, t2, n): the condition is R_j·rate = 0;
 *  - a column C_j: how the contact's slots move per unit of the unknown;
 * so that A_ij = R_i W C_j, plus λ_j on the diagonal of a rim unknown. The unknowns:
 *  - a positive held weight x_c: R = n, C = n + κ_c, κ_c its slip's friction (s1, s2), or
 *    μ_c r_c/|r_c| when its stick rate sits on the rim of its disc (planar: at an end of its
 *    interval), else 0;
 *  - a stick rate inside its disc: one unknown per tangential slot, R = C = that slot;
 *  - a spatial stick rate on the rim, r_c = μ_c w_c e: the angle θ of e, with R = e⊥ (the
 *    tangential rate along the rim must vanish), C = μ_c w_c e⊥, and λ_c = −e·rate_t ≥ 0 (the
 *    rate opposing r_c) from the turning of e⊥ with θ.
 * Redundant rows make A singular (consistent where R_j = C_j, the rates lying in the range of
 * W; slip and rim columns break that symmetry): Gaussian elimination with complete pivoting
 * stops at the first pivot not above 1e-12 times the largest entry and leaves the remaining
 * unknowns unmoved (a basic solution). The step is taken only when it is small
 * (NSM_SLIDE_NEWTON_STEP, NSM_SLIDE_NEWTON_TURN) and keeps every unknown within its bounds;
 * a rim rate moves along the rim. The sweeps go on and decide convergence as before,
 * so the step changes how soon they reach a solution, not what counts as one.
 */

/* Kinds of unknown of the step. */
enum { NEWTON_X = 0, NEWTON_R1 = 1, NEWTON_R2 = 2, NEWTON_RIM = 3 };

/* The free unknowns of the step, grouped by contact in increasing order. */
typedef struct newton_set {
    size_t k;                                 /* number of unknowns, <= NSM_SLIDE_NEWTON_MAX */
    size_t c[NSM_SLIDE_NEWTON_MAX];           /* contact of unknown j */
    unsigned char kind[NSM_SLIDE_NEWTON_MAX]; /* NEWTON_X, _R1, _R2 or _RIM */
    double row[NSM_SLIDE_NEWTON_MAX][3];      /* R_j over the contact's slots (t1, t2, n) */
    double col[NSM_SLIDE_NEWTON_MAX][3];      /* C_j over the same slots */
    double lam[NSM_SLIDE_NEWTON_MAX];         /* λ_j of a rim unknown, else 0 */
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

/* 1 when a spatial stick rate (r1, r2) is strictly inside its disc of radius b, with a
   relative margin of NSM_SLIDE_RIM (the rest rule's rim points may fall an ulp inside). */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int inside_disc(double r1, double r2, double b)
{
    return tnorm(2, r1, r2) < b * (1.0 - NSM_SLIDE_RIM) ? 1 : 0;
}

/* Appends unknown (c, kind, R, C, λ) to *s; 0 when the set is full. */
/*@ requires \valid(s) && s->k <= NSM_SLIDE_NEWTON_MAX;
    assigns *s;
    ensures \result == 0 || \result == 1;
    ensures s->k <= NSM_SLIDE_NEWTON_MAX;
    ensures \result == 1 ==> s->k == \old(s->k) + 1 && s->c[\old(s->k)] == c;
    ensures \result == 1 ==> \forall integer j; 0 <= j < \old(s->k) ==> s->c[j] == \old(s->c[j]);
    ensures \result == 0 ==> s->k == \old(s->k) &&
            \forall integer j; 0 <= j < s->k ==> s->c[j] == \old(s->c[j]);
 */
static int newton_push(newton_set *s, size_t c, unsigned char kind, double r0, double r1,
                       double r2, double c0, double c1, double c2, double lam)
{
    size_t j = s->k;
    if (j >= NSM_SLIDE_NEWTON_MAX) {
        return 0;
    }
    s->c[j] = c;
    s->kind[j] = kind;
    s->row[j][0] = r0;
    s->row[j][1] = r1;
    s->row[j][2] = r2;
    s->col[j][0] = c0;
    s->col[j][1] = c1;
    s->col[j][2] = c2;
    s->lam[j] = lam;
    s->k = j + 1;
    return 1;
}

/* The free unknowns of contact c at the current iterate, appended to *s; 0 when they do not
   fit or a rim rate does not oppose its tangential rate (λ < 0: the active set is about to
   change). */
/*@ requires rest_in(m, W, u, mu, held) && rest_out(m, w, lh, rate) && (d == 1 || d == 2);
    requires c < m && \valid(s) && s->k <= NSM_SLIDE_NEWTON_MAX;
    requires \forall integer j; 0 <= j < s->k ==> s->c[j] < m;
    assigns *s;
    ensures \result == 0 || \result == 1;
    ensures s->k <= NSM_SLIDE_NEWTON_MAX;
    ensures \forall integer j; 0 <= j < s->k ==> s->c[j] < m;
 */
static int newton_contact(size_t m, size_t d, const double *W, const double *u,
                          const double *mu, double ztol, const unsigned char *held,
                          const double *w, const double *lh, const double *rate, size_t c,
                          newton_set *s)
{
    (void)W;
    double muc = mu[c] > 0.0 ? mu[c] : 0.0;
    double s1 = 0.0;
    double s2 = 0.0;
    slip_of(m, d, u, c, muc, ztol, &s1, &s2);
    double wc = w[c] > 0.0 ? w[c] : 0.0;
    double b = muc * wc;
    double r1 = lh[3 * c];
    double r2 = d == 2 ? lh[3 * c + 1] : 0.0;
    double rn = tnorm(2, r1, r2);
    int sticks = s1 == 0.0 && s2 == 0.0 && muc > 0.0 && (held[c] || wc > 0.0);
    int inside = sticks && (d == 1 ? fabs(r1) < b : inside_disc(r1, r2, b));
    int rim = sticks && !inside && b > 0.0 && rn > 0.0;
    double e1 = rim ? r1 / rn : 0.0;
    double e2 = rim ? r2 / rn : 0.0;
    int ok = 1;
    if (held[c] && wc > 0.0) {
        double k1 = sticks ? muc * e1 : s1;
        double k2 = sticks ? muc * e2 : s2;
        ok = newton_push(s, c, NEWTON_X, 0.0, 0.0, 1.0, k1, k2, 1.0, 0.0);
    }
    if (ok && inside) {
        ok = newton_push(s, c, NEWTON_R1, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0);
        if (ok && d == 2) {
            ok = newton_push(s, c, NEWTON_R2, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
        }
    }
    if (ok && rim && d == 2) {
        double lam = -(e1 * rate[3 * c] + e2 * rate[3 * c + 1]);
        ok = lam >= 0.0 &&
             newton_push(s, c, NEWTON_RIM, -e2, e1, 0.0, -b * e2, b * e1, 0.0, lam);
    }
    return ok;
}

/* The free unknowns at the current iterate, contact by contact; 0 when there are none, more
   than NSM_SLIDE_NEWTON_MAX, or a rim rate that does not oppose its tangential rate. */
/*@ requires rest_in(m, W, u, mu, held) && rest_out(m, w, lh, rate) && (d == 1 || d == 2);
    requires \valid(s);
    assigns *s;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> set_ok(s, m);
 */
static int newton_collect(size_t m, size_t d, const double *W, const double *u,
                          const double *mu, double ztol, const unsigned char *held,
                          const double *w, const double *lh, const double *rate,
                          newton_set *s)
{
    s->k = 0;
    /*@ loop invariant 0 <= c <= m && s->k <= NSM_SLIDE_NEWTON_MAX;
        loop invariant \forall integer j; 0 <= j < s->k ==> s->c[j] < m;
        loop assigns c, *s;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (!newton_contact(m, d, W, u, mu, ztol, held, w, lh, rate, c, s)) {
            return 0;
        }
    }
    return s->k > 0 ? 1 : 0;
}

/* A (k×k, row-major: A_ij = R_i W C_j, plus λ_i on the diagonal) and b = −R·rate of the
   step. */
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
        size_t ti = 3 * s->c[i];
        double acc = 0.0;
        /*@ loop invariant 0 <= a <= 3;
            loop assigns a, acc;
            loop variant 3 - a;
         */
        for (size_t a = 0; a < 3; a++) {
            acc += s->row[i][a] * rate[ti + a];
        }
        b[i] = -acc;
        /*@ loop invariant 0 <= j <= k;
            loop assigns j, A[0 .. NSM_SLIDE_NEWTON_MAX * NSM_SLIDE_NEWTON_MAX - 1];
            loop variant k - j;
         */
        for (size_t j = 0; j < k; j++) {
            size_t tj = 3 * s->c[j];
            double aij = i == j ? s->lam[i] : 0.0;
            /*@ loop invariant 0 <= a <= 3;
                loop assigns a, aij;
                loop variant 3 - a;
             */
            for (size_t a = 0; a < 3; a++) {
                /*@ loop invariant 0 <= q <= 3;
                    loop assigns q, aij;
                    loop variant 3 - q;
                 */
                for (size_t q = 0; q < 3; q++) {
                    lemma_idx(ti + a, tj + q, K);
                    aij += s->row[i][a] * W[(ti + a) * K + tj + q] * s->col[j][q];
                }
            }
            /*@ assert i * k + j < NSM_SLIDE_NEWTON_MAX * NSM_SLIDE_NEWTON_MAX; */
            A[i * k + j] = aij;
        }
    }
}

/* Swaps a[i] and a[j]. */
/*@ requires \valid(a + i) && \valid(a + j);
    assigns a[i], a[j];
 */
static void swap_at(double *a, size_t i, size_t j)
{
    double t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* Solves A x = b in place (k×k, row-major; b receives x) by Gaussian elimination with
   complete pivoting. It stops at the first pivot not above 1e-12 times the largest |A_ij|
   and sets the unknowns left to 0 (a basic solution of a singular, consistent system; the
   rows left over are not checked: with slip or rim columns the system need not be
   consistent, the step is then a guess, and the sweeps decide); 0 when even the first pivot
   is that small or an entry is not finite. */
/*@ requires 1 <= k <= NSM_SLIDE_NEWTON_MAX;
    requires \valid(A + (0 .. k * k - 1)) && \valid(b + (0 .. k - 1));
    requires \separated(A + (0 .. k * k - 1), b + (0 .. k - 1));
    assigns A[0 .. k * k - 1], b[0 .. k - 1];
    ensures \result == 0 || \result == 1;
 */
static int gauss_solve(size_t k, double *A, double *b)
{
    size_t cp[NSM_SLIDE_NEWTON_MAX]; /* column swapped with column p at step p */
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
    size_t rank = 0;
    /*@ loop invariant 0 <= rank <= k;
        loop invariant \forall integer q; 0 <= q < rank ==> q <= cp[q] < k;
        loop assigns rank, cp[0 .. k - 1], A[0 .. k * k - 1], b[0 .. k - 1];
        loop variant k - rank;
     */
    while (rank < k) {
        size_t p = rank;
        size_t pr = p;
        size_t pc = p;
        double best = -1.0;
        /*@ loop invariant p <= i <= k && p <= pr < k && p <= pc < k;
            loop assigns i, pr, pc, best;
            loop variant k - i;
         */
        for (size_t i = p; i < k; i++) {
            /*@ loop invariant p <= j <= k && p <= pr < k && p <= pc < k;
                loop assigns j, pr, pc, best;
                loop variant k - j;
             */
            for (size_t j = p; j < k; j++) {
                double a = fabs(A[i * k + j]);
                if (a > best) {
                    best = a;
                    pr = i;
                    pc = j;
                }
            }
        }
        if (!(best > tiny)) {
            break;
        }
        /*@ loop invariant 0 <= j <= k;
            loop assigns j, A[0 .. k * k - 1];
            loop variant k - j;
         */
        for (size_t j = 0; j < k; j++) {
            swap_at(A, p * k + j, pr * k + j);
        }
        swap_at(b, p, pr);
        /*@ loop invariant 0 <= i <= k;
            loop assigns i, A[0 .. k * k - 1];
            loop variant k - i;
         */
        for (size_t i = 0; i < k; i++) {
            swap_at(A, i * k + p, i * k + pc);
        }
        cp[p] = pc;
        double piv = A[p * k + p];
        /*@ loop invariant p + 1 <= i <= k;
            loop assigns i, A[0 .. k * k - 1], b[0 .. k - 1];
            loop variant k - i;
         */
        for (size_t i = p + 1; i < k; i++) {
            double f = A[i * k + p] / piv;
            /*@ loop invariant p <= j <= k;
                loop assigns j, A[0 .. k * k - 1];
                loop variant k - j;
             */
            for (size_t j = p; j < k; j++) {
                A[i * k + j] -= f * A[p * k + j];
            }
            b[i] -= f * b[p];
        }
        rank++;
    }
    if (rank == 0) {
        return 0;
    }
    /*@ loop invariant rank <= i <= k;
        loop assigns i, b[0 .. k - 1];
        loop variant k - i;
     */
    for (size_t i = rank; i < k; i++) {
        b[i] = 0.0;
    }
    /*@ loop invariant 0 <= q <= rank;
        loop assigns q, b[0 .. k - 1];
        loop variant q;
     */
    for (size_t q = rank; q > 0; q--) {
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
    /*@ loop invariant 0 <= q <= rank;
        loop assigns q, b[0 .. k - 1];
        loop variant q;
     */
    for (size_t q = rank; q > 0; q--) {
        swap_at(b, q - 1, cp[q - 1]);
    }
    return 1;
}

/* The slots (t1, t2, n) of the contact of unknowns j .. *end - 1 (its group) after the step
   d: its weight moved by its NEWTON_X unknown, its stick rate by its R1/R2 unknowns, along the
   rim by its NEWTON_RIM unknown (r = μ x e, e turned by the angle's step and normalised), or
   by κ times the weight's step (a slip, or an end of the planar interval). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(w + (0 .. m - 1)) &&
             \valid_read(lh + (0 .. 3 * m - 1));
    requires \valid_read(s) && set_ok(s, m) && j < s->k;
    requires \valid_read(dz + (0 .. s->k - 1));
    requires \valid(end) && \valid(out + (0 .. 2));
    requires \separated(end, out + (0 .. 2));
    assigns *end, out[0 .. 2];
    ensures j < *end <= s->k;
 */
static void newton_group(size_t m, size_t d, const double *mu, const double *w,
                         const double *lh, const newton_set *s, const double *dz, size_t j,
                         size_t *end, double *out)
{
    (void)m;
    size_t c = s->c[j];
    double x = w[c] > 0.0 ? w[c] : 0.0;
    double r1 = lh[3 * c];
    double r2 = d == 2 ? lh[3 * c + 1] : 0.0;
    double dx = 0.0;
    double kap1 = 0.0;
    double kap2 = 0.0;
    double th = 0.0;
    int rim = 0;
    size_t q = j;
    /*@ loop invariant j <= q <= s->k;
        loop assigns q, dx, kap1, kap2, r1, r2, th, rim;
        loop variant s->k - q;
     */
    for (; q < s->k && s->c[q] == c; q++) {
        unsigned char kd = s->kind[q];
        if (kd == NEWTON_X) {
            dx = dz[q];
            kap1 = s->col[q][0];
            kap2 = s->col[q][1];
        } else if (kd == NEWTON_R1) {
            r1 += dz[q];
        } else if (kd == NEWTON_R2) {
            r2 += dz[q];
        } else {
            th = dz[q];
            rim = 1;
        }
    }
    *end = q; /* > j: s->c[j] == c, so the loop ran at least once */
    double xn = x + dx;
    if (rim) {
        double rn = tnorm(2, r1, r2);
        double e1 = rn > 0.0 ? r1 / rn : 0.0;
        double e2 = rn > 0.0 ? r2 / rn : 0.0;
        double f1 = e1 - th * e2;
        double f2 = e2 + th * e1;
        double fn = tnorm(2, f1, f2);
        double muc = mu[c] > 0.0 ? mu[c] : 0.0;
        double sc = fn > 0.0 ? muc * (xn > 0.0 ? xn : 0.0) / fn : 0.0;
        r1 = sc * f1;
        r2 = sc * f2;
    } else {
        r1 += kap1 * dx;
        r2 += kap2 * dx;
    }
    out[0] = r1;
    out[1] = r2;
    out[2] = xn;
}

/* 1 when unknown j opens its contact's group: the first unknown, or one of another contact
   than unknown j - 1 (newton_collect lists each contact's unknowns together). */
/*@ requires \valid_read(s) && 1 <= s->k <= NSM_SLIDE_NEWTON_MAX && j < s->k;
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int group_start(const newton_set *s, size_t j)
{
    return j == 0 || s->c[j] != s->c[j - 1];
}

/* The slots after the step dz of every group (newton_group), written at tg + 3j for the
   group that starts at unknown j (group_start; the other entries of tg are not written), while
   each is admissible: 1 when the step moves no slot of a contact by more than
   NSM_SLIDE_NEWTON_STEP·(1 + max w), keeps a held weight >= 0 and a stick rate within its
   disc (planar: interval); 0 at the first group that does not. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(w + (0 .. m - 1)) &&
             \valid_read(lh + (0 .. 3 * m - 1));
    requires \valid_read(s) && set_ok(s, m);
    requires \valid_read(dz + (0 .. s->k - 1)) && \valid(tg + (0 .. 3 * s->k - 1));
    assigns tg[0 .. 3 * s->k - 1];
    ensures \result == 0 || \result == 1;
 */
static int newton_targets(size_t m, size_t d, const double *mu, const double *w,
                          const double *lh, const newton_set *s, const double *dz, double *tg)
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
    size_t j = 0;
    /*@ loop invariant 0 <= j <= s->k;
        loop assigns j, tg[0 .. 3 * s->k - 1];
        loop variant s->k - j;
     */
    while (j < s->k) {
        size_t end = j + 1;
        double *nx = tg + 3 * j;
        newton_group(m, d, mu, w, lh, s, dz, j, &end, nx);
        size_t c = s->c[j];
        double x = w[c] > 0.0 ? w[c] : 0.0;
        double muc = mu[c] > 0.0 ? mu[c] : 0.0;
        double r2 = d == 2 ? lh[3 * c + 1] : 0.0;
        int small = fabs(nx[0] - lh[3 * c]) <= cap && fabs(nx[1] - r2) <= cap &&
                    fabs(nx[2] - x) <= cap;
        int cone = nx[2] >= 0.0 && tnorm(2, nx[0], nx[1]) <= muc * nx[2] * (1.0 + NSM_SLIDE_RIM);
        if (!small || !cone) {
            return 0;
        }
        j = end;
    }
    return 1;
}

/* 1 if no rim angle of the step dz turns by more than NSM_SLIDE_NEWTON_TURN. */
/*@ requires \valid_read(s) && 1 <= s->k <= NSM_SLIDE_NEWTON_MAX;
    requires \valid_read(dz + (0 .. s->k - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int newton_turns_ok(const newton_set *s, const double *dz)
{
    /*@ loop invariant 0 <= q <= s->k;
        loop assigns q;
        loop variant s->k - q;
     */
    for (size_t q = 0; q < s->k; q++) {
        if (s->kind[q] == NEWTON_RIM && !(fabs(dz[q]) <= NSM_SLIDE_NEWTON_TURN)) {
            return 0;
        }
    }
    return 1;
}

/* Applies the step: w, lh and rate = W lh move together (set_slot) to the targets tg of
   newton_targets, group by group. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(held + (0 .. m - 1));
    requires rest_out(m, w, lh, rate);
    requires \valid_read(s) && set_ok(s, m);
    requires \separated(s, w + (0 .. m - 1)) && \separated(s, lh + (0 .. 3 * m - 1)) &&
             \separated(s, rate + (0 .. 3 * m - 1));
    requires \valid_read(tg + (0 .. 3 * s->k - 1));
    requires \separated(tg + (0 .. 3 * s->k - 1), w + (0 .. m - 1)) &&
             \separated(tg + (0 .. 3 * s->k - 1), lh + (0 .. 3 * m - 1)) &&
             \separated(tg + (0 .. 3 * s->k - 1), rate + (0 .. 3 * m - 1));
    assigns w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
 */
static void newton_apply(size_t m, size_t d, const double *W, const unsigned char *held,
                         const newton_set *s, const double *tg, double *w, double *lh,
                         double *rate)
{
    /*@ loop invariant 0 <= j <= s->k;
        loop assigns j, w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
        loop variant s->k - j;
     */
    for (size_t j = 0; j < s->k; j++) {
        if (!group_start(s, j)) {
            continue;
        }
        size_t c = s->c[j];
        const double *nx = tg + 3 * j;
        size_t t = 3 * c;
        if (held[c]) {
            w[c] = nx[2];
            (void)set_slot(m, W, t + 2, nx[2], lh, rate);
        }
        (void)set_slot(m, W, t, nx[0], lh, rate);
        if (d == 2) {
            (void)set_slot(m, W, t + 1, nx[1], lh, rate);
        }
    }
}

/* The Newton step at the current iterate (collect, system, solve, rim turns, admissible
   targets, apply); 1 when it was taken. */
/*@ requires rest_in(m, W, u, mu, held) && rest_out(m, w, lh, rate) && (d == 1 || d == 2);
    assigns w[0 .. m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1];
    ensures \result == 0 || \result == 1;
 */
static int newton_step(size_t m, size_t d, const double *W, const double *u, const double *mu,
                       double ztol, const unsigned char *held, double *w, double *lh,
                       double *rate)
{
    newton_set s;
    double A[NSM_SLIDE_NEWTON_MAX * NSM_SLIDE_NEWTON_MAX];
    double dz[NSM_SLIDE_NEWTON_MAX];
    double tg[3 * NSM_SLIDE_NEWTON_MAX];
    if (!newton_collect(m, d, W, u, mu, ztol, held, w, lh, rate, &s)) {
        return 0;
    }
    newton_system(m, W, rate, &s, A, dz);
    if (!gauss_solve(s.k, A, dz) || !newton_turns_ok(&s, dz) ||
        !newton_targets(m, d, mu, w, lh, &s, dz, tg)) {
        return 0;
    }
    newton_apply(m, d, W, held, &s, tg, w, lh, rate);
    return 1;
}

/* The stick state of contact c's rates against the bound b, for the flip count: stick_state
   of lh[3c] (d = 1), or whether (lh[3c], lh[3c + 1]) lies inside the disc (d = 2). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m;
    requires \valid_read(lh + (0 .. 3 * m - 1));
    assigns \nothing;
 */
static unsigned stick_mode(size_t m, size_t d, const double *lh, size_t c, double b)
{
    (void)m;
    if (d == 1) {
        return stick_state(lh[3 * c], b);
    }
    return (unsigned)inside_disc(lh[3 * c], lh[3 * c + 1], b);
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
            double b0 = muc * (w[c] > 0.0 ? w[c] : 0.0);
            unsigned before = stick_mode(m, d, lh, c, b0);
            if (held[c]) {
                int was = w[c] > 0.0;
                dc = update_held(m, W, c, s1, s2, w, lh, rate);
                flips = flips || was != (w[c] > 0.0);
            }
            change = dc > change ? dc : change;
            double wc = w[c] > 0.0 ? w[c] : 0.0;
            wmax = wc > wmax ? wc : wmax;
            if (s1 == 0.0 && s2 == 0.0 && muc > 0.0 && (held[c] || wc > 0.0)) {
                dc = update_stick(m, d, W, c, muc * wc, lh, rate);
                flips = flips || before != stick_mode(m, d, lh, c, muc * wc);
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
        if (!done && !flips && it >= NSM_SLIDE_NEWTON_AFTER) {
            (void)newton_step(m, d, W, u, mu, ztol, held, w, lh, rate);
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
