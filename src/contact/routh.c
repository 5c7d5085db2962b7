/*
 * Routh's method for one planar contact, resolved exactly by events (zero restitution).
 * Implements docs/math.md (I4) for one contact with the rates (I7) and (I8), and the
 * termination bound (I5) ([I] Lemma 2).
 */
#include "nsmech/contact.h"
#include "../nsm_math.h"
#include "coulomb.h"

/* The state along the impact: accumulated impulse and current contact velocities. */
typedef struct routh_state {
    double pt;
    double pn;
    double ut;
    double un;
} routh_state;

/*@ predicate st_ok(real mu, routh_state *st) =
        st->pn >= 0 && -mu * st->pn <= st->pt <= mu * st->pn;
 */

/* Lemma function (empty at run time): a rate within [-mu, mu] times a length len >= 0. */
/*@ requires -mu <= r <= mu && len >= 0;
    assigns \nothing;
    ensures -mu * len <= r * len <= mu * len;
 */
static void lemma_rate_len(double r, double mu, double len)
{
    (void)r;
    (void)mu;
    (void)len;
}

/* max(0, -x / q) for q != 0: the length at which x + q·len reaches 0, clamped at 0. */
/*@ requires nz: q != 0;
    assigns \nothing;
    ensures nonneg: \result >= 0;
 */
static double event_len(double x, double q)
{
    double len = -x / q;
    return len > 0.0 ? len : 0.0;
}

/* Tangential impulse rate of a phase, clamped to [-mu, mu] (the clamp is inactive in exact
   arithmetic: a stick phase is entered only when mu·W_tt >= |W_tn|). */
/*@ requires mu >= 0 && wtt > 0;
    assigns \nothing;
    ensures cone: -mu <= \result <= mu;
 */
static double phase_rate(nsm_routh_phase ph, double mu, double wtt, double wtn)
{
    double r = 0.0;
    if (ph == NSM_PHASE_SLIP_POS) {
        r = -mu;
    } else if (ph == NSM_PHASE_SLIP_NEG) {
        r = mu;
    } else if (ph == NSM_PHASE_STICK) {
        r = -wtn / wtt;
    }
    if (r > mu) {
        r = mu;
    }
    if (r < -mu) {
        r = -mu;
    }
    return r;
}

/* Phase entered when u_t is at rest: stick if friction can hold it, else slip in the
   direction sign(W_tn) (frictionless when mu = 0). */
/*@ assigns \nothing;
    ensures \result == NSM_PHASE_SLIP_POS || \result == NSM_PHASE_SLIP_NEG ||
            \result == NSM_PHASE_STICK || \result == NSM_PHASE_FRICTIONLESS;
 */
static nsm_routh_phase phase_at_rest(double mu, double wtt, double wtn)
{
    if (mu == 0.0) {
        return NSM_PHASE_FRICTIONLESS;
    }
    if (nsm_coulomb_sticks1(mu, wtt, wtn)) {
        return NSM_PHASE_STICK;
    }
    return wtn > 0.0 ? NSM_PHASE_SLIP_POS : NSM_PHASE_SLIP_NEG;
}

/* First phase from the pre-impact tangential velocity. */
/*@ requires ztol >= 0;
    assigns \nothing;
    ensures \result == NSM_PHASE_SLIP_POS || \result == NSM_PHASE_SLIP_NEG ||
            \result == NSM_PHASE_STICK || \result == NSM_PHASE_FRICTIONLESS;
 */
static nsm_routh_phase phase_first(double mu, double ztol, double wtt, double wtn, double ut)
{
    if (mu == 0.0) {
        return NSM_PHASE_FRICTIONLESS;
    }
    if (ut > ztol) {
        return NSM_PHASE_SLIP_POS;
    }
    if (ut < -ztol) {
        return NSM_PHASE_SLIP_NEG;
    }
    return phase_at_rest(mu, wtt, wtn);
}

/* Advance the state by a normal-impulse length len >= 0 at tangential rate r. */
/*@ requires valid: \valid(st);
    requires mu: mu >= 0;
    requires rate: -mu <= r <= mu;
    requires len: len >= 0;
    requires inv: st_ok(mu, st);
    assigns *st;
    ensures inv: st_ok(mu, st);
 */
static void advance(routh_state *st, double mu, double r, double len, double at, double an)
{
    lemma_rate_len(r, mu, len);
    st->pn += len;
    st->pt += r * len;
    st->ut += at * len;
    st->un += an * len;
}

/* End of compression: u_n = 0 exactly. */
/*@ requires \valid(st);
    assigns st->un;
    ensures st->un == 0;
 */
static void set_un_zero(routh_state *st)
{
    st->un = 0.0;
}

/* End of slip: u_t = 0 exactly. */
/*@ requires \valid(st);
    assigns st->ut;
 */
static void set_ut_zero(routh_state *st)
{
    st->ut = 0.0;
}

/* One phase: advances *st to the first event. Returns 1 when the impact is over (u_n = 0),
   0 when slip stopped (u_t = 0, next phase *next), -1 when no event exists (rounding). */
/*@ requires valid: \valid(st) && \valid(next) && \valid(painleve);
    requires sep: \separated(st, next, painleve);
    requires mu: mu >= 0;
    requires w: wtt > 0;
    requires inv: st_ok(mu, st);
    assigns *st, *next, *painleve;
    ensures inv: st_ok(mu, st);
    ensures res: \result == -1 || \result == 0 || \result == 1;
    ensures done: \result == 1 ==> st->un == 0;
    ensures next: *next == NSM_PHASE_SLIP_POS || *next == NSM_PHASE_SLIP_NEG ||
                  *next == NSM_PHASE_STICK || *next == NSM_PHASE_FRICTIONLESS;
 */
static int run_phase(routh_state *st, nsm_routh_phase ph, double mu, double wtt, double wtn,
                     double wnn, nsm_routh_phase *next, int *painleve)
{
    double r = phase_rate(ph, mu, wtt, wtn);
    double at = wtt * r + wtn;
    double an = wtn * r + wnn;
    int slip = ph == NSM_PHASE_SLIP_POS || ph == NSM_PHASE_SLIP_NEG;
    double s = ph == NSM_PHASE_SLIP_POS ? 1.0 : -1.0;
    int has_n = an > 0.0;
    int has_t = slip && s * at < 0.0;
    *next = phase_at_rest(mu, wtt, wtn);
    if (slip && !has_n) {
        *painleve = 1;
    }
    if (!has_n && !has_t) {
        return -1;
    }
    double ln = has_n ? event_len(st->un, an) : 0.0;
    double lt = has_t ? event_len(st->ut, at) : 0.0;
    if (has_n && (!has_t || ln <= lt)) {
        advance(st, mu, r, ln, at, an);
        /*@ assert a1: st_ok(mu, st); */
        set_un_zero(st);
        /*@ assert a2: st_ok(mu, st); */
        return 1;
    }
    advance(st, mu, r, lt, at, an);
    /*@ assert a3: st_ok(mu, st); */
    set_ut_zero(st);
    /*@ assert a4: st_ok(mu, st); */
    if (st->un >= 0.0) {
        /* rounding only: slip stopped exactly when compression ended */
        set_un_zero(st);
        /*@ assert a5: st_ok(mu, st); */
        return 1;
    }
    return 0;
}

/* Validation of the arguments of nsm_routh_planar (pointers are non-NULL). */
/*@ requires valid: \valid_read(W + (0 .. 3)) && \valid_read(u0 + (0 .. 1));
    assigns \nothing;
    ensures ok: \result == NSM_OK ==>
                  W[0] > 0 && W[3] > 0 && mu >= 0 && ztol >= 0;
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                    \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NOT_SPD;
 */
static nsm_status routh_check(const double *W, const double *u0, double mu, double ztol)
{
    if (!(mu >= 0.0) || !(ztol >= 0.0) || !nsm_all_finite(1, &mu) ||
        !nsm_all_finite(1, &ztol)) {
        return NSM_ERR_ARG;
    }
    if (!nsm_all_finite(4, W) || !nsm_all_finite(2, u0)) {
        return NSM_ERR_NOT_FINITE;
    }
    if (!(W[0] > 0.0) || !(W[3] > 0.0)) {
        return NSM_ERR_NOT_SPD;
    }
    /* the tolerance as a sum of products: W_tt + W_nn overflowed for entries near DBL_MAX,
       and any asymmetry passed */
    if (fabs(W[1] - W[2]) > NSM_ROUTH_SYM_RTOL * W[0] + NSM_ROUTH_SYM_RTOL * W[3]) {
        return NSM_ERR_NOT_SPD;
    }
    /* det W > 0: W_tt·W_nn - W_tn² while both diagonal entries lie in [2^-500, 2^500] (no
       over- or underflow; a det of exactly 0 is refused), else |W_tn| < sqrt(W_tt)·sqrt(W_nn):
       the product underflowed to 0 for W = 1e-200·I, and W scaled by its largest entry lost
       W_nn of diag(2^600, 2^-500) */
    double wtn = 0.5 * W[1] + 0.5 * W[2];
    int mid = W[0] >= 0x1p-500 && W[0] <= 0x1p500 && W[3] >= 0x1p-500 && W[3] <= 0x1p500;
    if (mid ? !(W[0] * W[3] - wtn * wtn > 0.0) : !(fabs(wtn) < sqrt(W[0]) * sqrt(W[3]))) {
        return NSM_ERR_NOT_SPD;
    }
    return NSM_OK;
}

/* *res = out with the impulse and velocities of the final state st. */
/*@ requires \valid(res) && \valid_read(out) && \valid_read(st);
    requires \separated(res, out, st);
    assigns *res;
    ensures res->p_t == st->pt && res->p_n == st->pn;
    ensures res->u_t == st->ut && res->u_n == st->un;
    ensures res->nphases == out->nphases;
 */
static void store_result(const nsm_routh_result *out, const routh_state *st,
                         nsm_routh_result *res)
{
    *res = *out;
    res->p_t = st->pt;
    res->p_n = st->pn;
    res->u_t = st->ut;
    res->u_n = st->un;
}

/* 1 if every entry of the state is finite (an overflow along the phases makes one infinite or
   NaN: e.g. p_n = -u_n/W_nn beyond DBL_MAX). */
/*@ requires \valid_read(st);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int state_finite(const routh_state *st)
{
    const double x[4] = {st->pt, st->pn, st->ut, st->un};
    return nsm_all_finite(4, x);
}

/* The event loop of nsm_routh_planar on validated data (W = [[wtt, wtn], [wtn, wnn]]). */
/*@ requires valid: \valid_read(u0 + (0 .. 1)) && \valid(res);
    requires sep: \separated(res, u0 + (0 .. 1));
    requires pos: mu >= 0 && ztol >= 0 && wtt > 0;
    assigns *res;
    ensures status: \result == NSM_OK || \result == NSM_ERR_NO_CONVERGENCE ||
                    \result == NSM_ERR_OVERFLOW;
    ensures phases: \result == NSM_OK ==> res->nphases <= NSM_ROUTH_MAX_PHASES;
    ensures trivial: \result == NSM_OK && u0[1] >= 0 ==>
                       res->nphases == 0 && res->p_n == 0 && res->p_t == 0;
    ensures impulse_n: \result == NSM_OK ==> res->p_n >= 0;
    ensures in_cone: \result == NSM_OK ==> -mu * res->p_n <= res->p_t <= mu * res->p_n;
    ensures compressed: \result == NSM_OK && u0[1] < 0 ==> res->u_n == 0;
 */
static nsm_status routh_run(double wtt, double wtn, double wnn, const double *u0, double mu,
                            double ztol, nsm_routh_result *res)
{
    nsm_routh_result out;
    routh_state s = {0.0, 0.0, u0[0], u0[1]};
    out.p_t = 0.0;
    out.p_n = 0.0;
    out.u_t = 0.0;
    out.u_n = 0.0;
    out.nphases = 0;
    out.painleve = 0;
    /*@ loop invariant 0 <= k <= NSM_ROUTH_MAX_PHASES;
        loop assigns k, out.phase[0 .. NSM_ROUTH_MAX_PHASES - 1],
                     out.phase_end[0 .. NSM_ROUTH_MAX_PHASES - 1];
        loop variant NSM_ROUTH_MAX_PHASES - k;
     */
    for (size_t k = 0; k < NSM_ROUTH_MAX_PHASES; k++) {
        out.phase[k] = NSM_PHASE_STICK;
        out.phase_end[k] = 0.0;
    }
    int done = !(s.un < 0.0);
    int fail = 0;
    nsm_routh_phase ph = phase_first(mu, ztol, wtt, wtn, s.ut);
    /*@ loop invariant 0 <= k <= NSM_ROUTH_MAX_PHASES;
        loop invariant nph: out.nphases <= k;
        loop invariant inv: st_ok(mu, &s);
        loop invariant done_un: done == 1 && u0[1] < 0 ==> s.un == 0;
        loop invariant trivial: u0[1] >= 0 ==> done == 1 && k == 0 && s.pn == 0 && s.pt == 0;
        loop invariant done_bool: done == 0 || done == 1;
        loop assigns k, s, ph, done, fail, out.nphases, out.painleve,
                     out.phase[0 .. NSM_ROUTH_MAX_PHASES - 1],
                     out.phase_end[0 .. NSM_ROUTH_MAX_PHASES - 1];
        loop variant NSM_ROUTH_MAX_PHASES - k;
     */
    for (size_t k = 0; k < NSM_ROUTH_MAX_PHASES && !done && !fail; k++) {
        nsm_routh_phase next;
        int r = run_phase(&s, ph, mu, wtt, wtn, wnn, &next, &out.painleve);
        if (r < 0) {
            fail = 1;
        } else {
            out.phase[k] = ph;
            out.phase_end[k] = s.pn;
            out.nphases = k + 1;
            done = r == 1;
            ph = next;
        }
    }
    if (!state_finite(&s)) {
        return NSM_ERR_OVERFLOW;
    }
    if (fail || !done) {
        return NSM_ERR_NO_CONVERGENCE;
    }
    s.pt = nsm_coulomb_inward1(mu, s.pn, s.pt);
    /*@ assert fin: st_ok(mu, &s); */
    store_result(&out, &s, res);
    return NSM_OK;
}

nsm_status nsm_routh_planar(const double *W, const double *u0, double mu, double ztol,
                            nsm_routh_result *res)
{
    if (W == NULL || u0 == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    nsm_status st = routh_check(W, u0, mu, ztol);
    if (st != NSM_OK) {
        return st;
    }
    return routh_run(W[0], 0.5 * (W[1] + W[2]), W[3], u0, mu, ztol, res);
}

/* max(x, 0). */
/*@ assigns \nothing;
    ensures \result >= 0;
    ensures x >= 0 ==> \result == x;
 */
static double pos_part(double x)
{
    return x > 0.0 ? x : 0.0;
}

/* 1 if x > 0, else 0: the underflow tests of lemma2_bound. A quotient or product of positive
   doubles can round to 0 in IEEE arithmetic, never in the real model of the proofs; the
   contract leaves the result open, so that WP's smoke tests do not report these IEEE-only
   branches as dead code (docs/proofs.md, "Smoke tests"). */
/*@ assigns \nothing;
    ensures boolean: \result == 0 || \result == 1;
    ensures pos: \result == 1 ==> x > 0;
 */
static int ieee_positive(double x)
{
    return x > 0.0 ? 1 : 0;
}

/* The smallest bound returned for a penetrating contact: below 2^-1021 (twice the smallest
   normal double) the rounding of the subnormal range is not resolved, and the true bound is
   below this one. */
#define BOUND_FLOOR 0x1p-1021

/* r·ku/kw (r >= 0; ku, kw > 0), in the order that has no intermediate overflow or underflow
   where the result is in range; at least BOUND_FLOOR. */
/*@ requires r >= 0 && ku > 0 && kw > 0;
    assigns \nothing;
    ensures \result >= BOUND_FLOOR;
 */
static double rescale_bound(double r, double ku, double kw)
{
    double res = 0.0;
    if (ku >= kw) {
        res = r * (ku / kw); /* a ratio >= 1: an overflow here is the bound's own */
    } else {
        const double t[1] = {kw / ku};
        res = nsm_all_finite(1, t) ? r / t[0] : (r * ku) / kw; /* ku < 1 in the second */
    }
    return res >= BOUND_FLOOR ? res : BOUND_FLOOR;
}

/* [I] Lemma 2 (I5) for mu > 0 on a validated SPD W (order (t, n)) and u0 with u_n < 0; -1 when
   rounding makes the smallest eigenvalue non-positive, -2 when an intermediate is not finite
   (checked first: an overflow must not read as a zero bound or as a matrix that is not SPD).
   The bound is homogeneous, b(u0, W) = (ku/kw)·b(u0/ku, W/kw): it is evaluated on u0 and W
   scaled to entries of magnitude at most 1 (ku = max |u0_i|, kw = max(W_tt, W_nn)), so that
   neither det W nor the quadratic form u0^T adj(W) u0 overflows or underflows for data far
   from 1 (W = diag(1e300, 1e300) overflowed det W; u0 ~ 1e-234 underflowed the form to 0 and
   gave a bound of 0 for a penetrating contact). */
/*@ requires valid: \valid_read(W + (0 .. 3)) && \valid_read(u0 + (0 .. 1));
    requires pos: W[0] > 0 && W[3] > 0 && mu > 0 && u0[1] < 0;
    assigns \nothing;
    ensures \result == -2 || \result == -1 || \result >= 0;
 */
static double lemma2_bound(const double *W, const double *u0, double mu)
{
    double kw = W[0] > W[3] ? W[0] : W[3];
    double at = fabs(u0[0]);
    double ku = at > -u0[1] ? at : -u0[1];
    double a = W[0] / kw;
    double b = 0.5 * (W[1] / kw) + 0.5 * (W[2] / kw);
    double c = W[3] / kw;
    double det = a * c - b * b;
    double h = 0.5 * (a - c);
    /* lambda_min = det/lambda_max: no cancellation when lambda_min << lambda_max */
    double lmax = 0.5 * (a + c) + sqrt(pos_part(h * h + b * b));
    double ut = u0[0] / ku;
    double un = u0[1] / ku;
    double num = c * ut * ut - 2.0 * b * ut * un + a * un * un;
    const double x[3] = {det, lmax, num};
    if (!nsm_all_finite(3, x)) {
        return -2.0;
    }
    if (!(det > 0.0) || !(lmax > 0.0)) {
        return -1.0;
    }
    double lmin = det / lmax;
    if (!ieee_positive(lmin)) {
        return -1.0;
    }
    double q = pos_part(num / det);
    double m1 = mu < 1.0 ? mu : 1.0;
    double den = sqrt(lmin) * m1;
    if (!ieee_positive(den)) {
        return -1.0;
    }
    return rescale_bound(pos_part(sqrt(q) / den * (1.0 + NSM_BOUND_RTOL)), ku, kw);
}

nsm_status nsm_routh_bound(const double *W, const double *u0, double mu, double *bound)
{
    if (W == NULL || u0 == NULL || bound == NULL) {
        return NSM_ERR_NULL;
    }
    const nsm_span out[1] = {{(uintptr_t)bound, sizeof *bound}};
    const nsm_span in[2] = {{(uintptr_t)W, 4u * sizeof(double)},
                            {(uintptr_t)u0, 2u * sizeof(double)}};
    if (nsm_spans_overlap(1u, out, 2u, in)) {
        return NSM_ERR_ALIAS;
    }
    nsm_status st = routh_check(W, u0, mu, 0.0);
    if (st != NSM_OK) {
        return st;
    }
    if (!(u0[1] < 0.0)) {
        *bound = 0.0;
        return NSM_OK;
    }
    double b = 0.0;
    if (mu == 0.0) {
        b = rescale_bound(1.0 + NSM_BOUND_RTOL, -u0[1], W[3]);
    } else {
        b = lemma2_bound(W, u0, mu);
        if (b == -2.0) {
            return NSM_ERR_OVERFLOW;
        }
        if (b < 0.0) {
            return NSM_ERR_NOT_SPD;
        }
    }
    const double bx[1] = {b};
    if (!nsm_all_finite(1, bx)) {
        return NSM_ERR_OVERFLOW;
    }
    *bound = b;
    return NSM_OK;
}
