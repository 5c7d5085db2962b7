/*
 * The policy's weights along the impact: which penetrating contacts act and with what share
 * (sequential, priority, simultaneous ratios, sampled draws held for a few steps, one drawn
 * contact at a time for a drawn dwell: bang-bang, the contact that raises an objective
 * (a direction of J v or of v) fastest: extremal, or an explicit schedule of contacts and
 * dwells in impulse). Implements the weights w_c of docs/math.md (I4) and (I11).
 */
#include <float.h>
#include <stdint.h>
#include "nsmech/impact.h"
#include "../nsm_math.h"
#include "internal.h"
#include "impact_internal.h"

/* Next Park–Miller value: state·48271 mod (2^31 - 1); the product stays below 2^47. */
/*@ requires 1 <= s < NSM_PRNG_MOD;
    assigns \nothing;
    ensures 0 <= \result < NSM_PRNG_MOD;
 */
static unsigned long prng_next(unsigned long s)
{
    unsigned long long p = (unsigned long long)s * 48271ull;
    return (unsigned long)(p % (unsigned long long)NSM_PRNG_MOD);
}

/* 1 if contact c penetrates: u_n,c < -ntol. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m;
    requires \valid_read(u + (0 .. 3 * m - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int penetrating(size_t m, const double *u, size_t c, double ntol)
{
    (void)m;
    return u[3 * c + 2] < -ntol;
}

/* The k-th penetrating contact (k < the number of them); m if there is none. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 3 * m - 1));
    assigns \nothing;
    ensures \result <= m;
 */
static size_t kth_penetrating(size_t m, const double *u, size_t k, double ntol)
{
    size_t seen = 0;
    /*@ loop invariant 0 <= c <= m && seen <= c;
        loop assigns c, seen;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (penetrating(m, u, c, ntol)) {
            if (seen == k) {
                return c;
            }
            seen++;
        }
    }
    return m;
}

/* Bang-bang: keeps the acting contact while it penetrates and its dwell lasts; otherwise
   draws the next one uniformly among the penetrating contacts and its dwell in 1 .. hold. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && hold >= 1;
    requires \valid(ps) && 1 <= ps->rng < NSM_PRNG_MOD;
    requires \valid_read(u + (0 .. 3 * m - 1));
    assigns ps->cur, ps->rng, ps->held, ps->dwell;
    ensures 1 <= ps->rng < NSM_PRNG_MOD;
    ensures ps->cur <= m;
 */
static void bangbang_pick(size_t m, size_t hold, policy_state *ps, const double *u, double ntol)
{
    if (ps->cur < m && ps->held < ps->dwell && penetrating(m, u, ps->cur, ntol)) {
        ps->held += 1;
        return;
    }
    size_t k = nsm_impact_count_pen(m, u, ntol);
    unsigned long r = prng_next(ps->rng);
    ps->rng = r == 0 ? 1ul : r;
    unsigned long q = prng_next(ps->rng);
    ps->rng = q == 0 ? 1ul : q;
    ps->cur = k == 0 ? m : kth_penetrating(m, u, (size_t)(r % (unsigned long)k), ntol);
    ps->dwell = 1u + (size_t)((unsigned long long)q % (unsigned long long)hold);
    ps->held = 1;
}

void nsm_impact_extremal(size_t m, size_t d, size_t hold, policy_state *ps, const double *W,
                         const double *u, const double *gain, const double *mu, double ztol,
                         double ntol, double *w)
{
    zero_vec(m, w);
    if (ps->cur < m && ps->held < hold && penetrating(m, u, ps->cur, ntol)) {
        ps->held += 1;
        w[ps->cur] = 1.0;
        return;
    }
    size_t best = m;
    double top = 0.0;
    /*@ loop invariant 0 <= c <= m && best <= m;
        loop assigns c, best, top;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (penetrating(m, u, c, ntol)) {
            double r1 = 0.0;
            double r2 = 0.0;
            nsm_impact_friction_rate(m, d, W, u, c, mu[c], ztol, &r1, &r2);
            /* the objective's rate per unit normal impulse when c alone acts */
            double sc = gain[3 * c + 2] + gain[3 * c] * r1 + gain[3 * c + 1] * r2;
            if (best == m || sc > top) {
                best = c;
                top = sc;
            }
        }
    }
    ps->cur = best;
    ps->held = 1;
    if (best < m) {
        w[best] = 1.0;
    }
}

double nsm_impact_phase_cap(const nsm_impact_policy *pol, const policy_state *ps, double hs,
                            double hmin)
{
    if (pol->kind != NSM_POLICY_SCHEDULE || !(ps->left > 0.0)) {
        return hs;
    }
    double left = ps->left;
    if (left <= hs) {
        return left > hmin ? left : hmin;
    }
    if (left - hs >= hmin) {
        return hs;
    }
    /* a full segment would leave less than hmin of the dwell: stop hmin short of its end, so
       that the end is reached exactly by a segment of its own */
    double cut = left - hmin;
    return cut > hmin ? cut : hs;
}

int nsm_impact_phase_short(const nsm_impact_policy *pol, const policy_state *ps, double hmin)
{
    return pol->kind == NSM_POLICY_SCHEDULE && ps->left > 0.0 && ps->left < hmin;
}

double nsm_impact_schedule_unit(size_t m, const double *W, const double *u, double ntol)
{
    double S = 0.0;
    const size_t K = 3 * m;
    /*@ loop invariant 0 <= c <= m && S >= 0;
        loop assigns c, S;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double wnn = W[(3 * c + 2) * K + 3 * c + 2];
        if (penetrating(m, u, c, ntol) && wnn > 0.0) {
            double q = -u[3 * c + 2] / wnn;
            if (q > S && q <= DBL_MAX) {
                S = q;
            }
        }
    }
    return S > 0.0 ? S : 1.0;
}

/* Steps the weights just computed stay as they are while no event intervenes, this step
   included: the rest of the drawn dwell (bang-bang), of the hold (sampled, extremal), or
   NSM_IMPACT_SPAN_MAX for the kinds whose weights change only at events. */
size_t nsm_impact_span(const nsm_impact_policy *pol, const policy_state *ps)
{
    size_t last = 0; /* the step count at which the weights are chosen again */
    if (pol->kind == NSM_POLICY_BANGBANG) {
        last = ps->dwell;
    } else if (pol->kind == NSM_POLICY_SAMPLED || pol->kind == NSM_POLICY_EXTREMAL ||
               pol->kind == NSM_POLICY_EXTREMAL_V) {
        last = pol->hold;
    } else {
        return NSM_IMPACT_SPAN_MAX;
    }
    if (last <= ps->held) {
        return 1;
    }
    size_t rest = last - ps->held;
    return rest < NSM_IMPACT_SPAN_MAX ? rest + 1 : NSM_IMPACT_SPAN_MAX;
}

/* The policy's step counter after a segment of `taken` steps with the same weights (the first
   of them counted by the weights' call). */
void nsm_impact_span_taken(policy_state *ps, size_t taken, double len)
{
    if (taken > 1 && ps->held <= SIZE_MAX - taken) {
        ps->held += taken - 1;
    }
    ps->left = len < ps->left ? ps->left - len : 0.0;
}

/* Number of penetrating contacts. */
size_t nsm_impact_count_pen(size_t m, const double *u, double ntol)
{
    size_t k = 0;
    /*@ loop invariant 0 <= c <= m && 0 <= k <= c;
        loop assigns c, k;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        k += (size_t)penetrating(m, u, c, ntol);
    }
    return k;
}

/* Sequential: keeps the acting contact while it penetrates, otherwise the first penetrating
   contact of the order acts (ps->cur = m when none does). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(pol) && \valid_read(pol->order + (0 .. m - 1));
    requires \valid(ps) && \valid_read(u + (0 .. 3 * m - 1));
    assigns ps->cur;
    ensures ps->cur <= m;
 */
static void sequential_pick(size_t m, const nsm_impact_policy *pol, policy_state *ps,
                            const double *u, double ntol)
{
    if (ps->cur < m && penetrating(m, u, ps->cur, ntol)) {
        return;
    }
    ps->cur = m;
    /*@ loop invariant 0 <= k <= m;
        loop invariant ps->cur <= m;
        loop assigns k, ps->cur;
        loop variant m - k;
     */
    for (size_t k = 0; k < m; k++) {
        size_t c = pol->order[k];
        if (c < m && penetrating(m, u, c, ntol)) {
            ps->cur = c;
            return;
        }
    }
}

/* Schedule: the current phase's contact keeps acting while it penetrates and its dwell lasts;
   otherwise the next phase whose contact penetrates (and whose dwell is not 0) starts, phase
   k being order[k mod m] with dwell[k mod m], for pol->hold cycles of m phases; after them,
   sequential in the schedule's order, from its first contact. The cycle count is clamped to
   NSM_SCHEDULE_MAX_CYCLES (validation rejects more), so the phase count fits a size_t. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(pol) && \valid_read(pol->order + (0 .. m - 1)) &&
             \valid_read(pol->dwell + (0 .. m - 1));
    requires \valid(ps) && \valid_read(u + (0 .. 3 * m - 1));
    requires ps->left >= 0 && ps->unit > 0;
    assigns ps->cur, ps->phase, ps->left;
    ensures ps->cur <= m;
    ensures ps->left >= 0;
 */
static void schedule_pick(size_t m, const nsm_impact_policy *pol, policy_state *ps,
                          const double *u, double ntol)
{
    size_t cycles = pol->hold < NSM_SCHEDULE_MAX_CYCLES ? pol->hold : NSM_SCHEDULE_MAX_CYCLES;
    size_t last = m * (cycles > 0 ? cycles : 1); /* phases in all cycles */
    /* left > 0 only inside a phase: the sequential finish leaves it 0 */
    if (ps->cur < m && ps->left > 0.0 && penetrating(m, u, ps->cur, ntol)) {
        return;
    }
    ps->left = 0.0;
    size_t skipped = 0;
    /*@ loop invariant ps->left == 0 && skipped <= m && (skipped < m || ps->phase >= last);
        loop assigns ps->phase, ps->cur, skipped;
        loop variant last + 1 - ps->phase;
     */
    while (ps->phase < last) {
        size_t k = ps->phase % m;
        ps->phase = ps->phase + 1;
        size_t c = pol->order[k];
        double x = pol->dwell[k];
        if (c < m && x > 0.0 && penetrating(m, u, c, ntol)) {
            double left = x * ps->unit;
            if (left > 0.0) {
                ps->cur = c;
                ps->left = left;
                return;
            }
        }
        skipped++;
        if (skipped == m) {
            /* a whole cycle skipped: u does not change here, so every later cycle would be */
            ps->phase = last;
        }
    }
    if (ps->phase == last) {
        /* the sequential finish starts from the first contact of the order */
        ps->phase = last + 1;
        ps->cur = m;
    }
    sequential_pick(m, pol, ps, u, ntol);
}

/* Priority: weight 1 on the first penetrating contact of the order (those ahead of it are at
   rest); w is zero on entry. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(pol) && \valid_read(pol->order + (0 .. m - 1));
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid(w + (0 .. m - 1));
    assigns w[0 .. m - 1];
 */
static void priority_pick(size_t m, const nsm_impact_policy *pol, const double *u, double ntol,
                          double *w)
{
    /*@ loop invariant 0 <= k <= m;
        loop assigns k;
        loop variant m - k;
     */
    for (size_t k = 0; k < m; k++) {
        size_t c = pol->order[k];
        if (c < m && penetrating(m, u, c, ntol)) {
            w[c] = 1.0;
            return;
        }
    }
}

/* Shared weights: the policy's ratios (simultaneous) or the raw draws in wraw (sampled:
   redrawn every hold steps; extremal: as set by nsm_impact_extremal) on the penetrating
   contacts, normalised to sum 1; w is zero on entry. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires pol: pol_ready(m, pol);
    requires \valid(ps) && 1 <= ps->rng < NSM_PRNG_MOD;
    requires \valid_read(u + (0 .. 3 * m - 1));
    requires \valid(w + (0 .. m - 1)) && \valid(wraw + (0 .. m - 1));
    requires \separated(ps, w + (0 .. m - 1), wraw + (0 .. m - 1));
    assigns w[0 .. m - 1], wraw[0 .. m - 1], ps->rng, ps->held;
    ensures 1 <= ps->rng < NSM_PRNG_MOD;
 */
static void shared_weights(size_t m, const nsm_impact_policy *pol, policy_state *ps,
                           const double *u, double ntol, double *w, double *wraw)
{
    if (pol->kind == NSM_POLICY_SAMPLED && (ps->held == 0 || ps->held >= pol->hold)) {
        /*@ loop invariant 0 <= c <= m;
            loop invariant 1 <= ps->rng < NSM_PRNG_MOD;
            loop assigns c, ps->rng, wraw[0 .. m - 1];
            loop variant m - c;
         */
        for (size_t c = 0; c < m; c++) {
            unsigned long r = prng_next(ps->rng);
            ps->rng = r == 0 ? 1ul : r;
            wraw[c] = (double)ps->rng / (double)NSM_PRNG_MOD;
        }
        ps->held = 0;
    }
    if (pol->kind == NSM_POLICY_SAMPLED) {
        ps->held += 1;
    }
    double sum = 0.0;
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, sum, w[0 .. m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (penetrating(m, u, c, ntol)) {
            double r = pol->kind == NSM_POLICY_SIMULTANEOUS ? pol->ratios[c] : wraw[c];
            w[c] = r;
            sum += r;
        }
    }
    if (sum > 0.0) {
        /*@ loop invariant 0 <= c <= m;
            loop assigns c, w[0 .. m - 1];
            loop variant m - c;
         */
        for (size_t c = 0; c < m; c++) {
            w[c] = w[c] / sum;
        }
    }
}

/*
 * Weights w (m, sum 1 over penetrating contacts, 0 elsewhere) by the policy. Requires at least
 * one penetrating contact. For SAMPLED, w keeps its previous raw draws in wraw between redraws.
 */
void nsm_impact_weights(size_t m, const nsm_impact_policy *pol, policy_state *ps, const double *u,
                        double ntol, double *w, double *wraw)
{
    zero_vec(m, w);
    if (pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_BANGBANG) {
        if (pol->kind == NSM_POLICY_SEQUENTIAL) {
            sequential_pick(m, pol, ps, u, ntol);
        } else {
            bangbang_pick(m, pol->hold, ps, u, ntol);
        }
        if (ps->cur < m) {
            w[ps->cur] = 1.0;
        }
        return;
    }
    if (pol->kind == NSM_POLICY_PRIORITY) {
        priority_pick(m, pol, u, ntol, w);
        return;
    }
    if (pol->kind == NSM_POLICY_SCHEDULE) {
        schedule_pick(m, pol, ps, u, ntol);
        if (ps->cur < m) {
            w[ps->cur] = 1.0;
        }
        return;
    }
    shared_weights(m, pol, ps, u, ntol, w, wraw);
}
