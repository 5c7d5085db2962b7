/* Outcome sets of an impact: every sequential and priority order (m <= 6; 4m chosen orders
   up to 16 contacts), simultaneous, the extremal fans (contact velocities; the caller's
   projection planes), bang-bang weight histories over a ladder of dwell scales, schedules
   whose phases stop short of rest at dwells from a low-discrepancy grid, and constant unequal
   ratios (docs/math.md, "Exploring the set"). */
#include <stdint.h>
#include "nsmech/outcome.h"
#include "../linalg/internal.h"

/* Number of orders of the set: m! for m <= NSM_OUTCOME_MAX_ORDERS_M (at most 720), every
   order; 4m chosen orders beyond (at most 64). */
/*@ requires 1 <= m <= NSM_OUTCOME_MAX_M;
    assigns \nothing;
    ensures value: \result == nsm_outcome_norders(m);
    ensures bound: 1 <= \result <= 720;
 */
static size_t n_orders(size_t m)
{
    if (m > NSM_OUTCOME_MAX_ORDERS_M) {
        return 4 * m;
    }
    size_t f = 1;
    /*@ loop invariant 2 <= k <= m + 1 || (m == 1 && k == 2);
        loop invariant 1 <= f <= 720;
        loop invariant k <= 7;
        loop invariant f == nsm_fact(k - 1);
        loop assigns k, f;
        loop variant m + 1 - k;
     */
    for (size_t k = 2; k <= m; k++) {
        /*@ assert nsm_fact(k) == k * nsm_fact(k - 1); */
        /*@ assert k <= 6 ==> nsm_fact(k) <= 720; */
        f *= k;
    }
    return f;
}

/* Number of directions of the extremal fan: 8m² for m <= NSM_OUTCOME_MAX_ORDERS_M (fan_dir),
   8m beyond. */
/*@ requires 1 <= m <= NSM_OUTCOME_MAX_M;
    assigns \nothing;
    ensures \result == nsm_outcome_nfan(m);
 */
static size_t n_fan(size_t m)
{
    return m <= NSM_OUTCOME_MAX_ORDERS_M ? 8 * m * m : 8 * m;
}

/* Number of constant-ratio runs: 2m (heavy and light on each contact), ceil(nsamples / 8)
   Halton points and Moreau's run (NSM_POLICY_MOREAU: its ratios from the problem). */
/*@ requires 1 <= m <= NSM_OUTCOME_MAX_M && nsamples <= 1000000;
    assigns \nothing;
    ensures \result == nsm_outcome_nratio(m, nsamples);
 */
static size_t n_ratio(size_t m, size_t nsamples)
{
    return 2 * m + (nsamples + 7) / 8 + 1;
}

/* Number of base runs of the set (the runs before the plane runs; nsamples histories and as
   many schedules, then the constant ratios). */
/*@ assigns \nothing;
    ensures value: 1 <= m <= NSM_OUTCOME_MAX_M && nsamples <= 1000000 ==>
              \result == nsm_outcome_nbase(m, nsamples);
    ensures bound: 1 <= m <= NSM_OUTCOME_MAX_M && nsamples <= 1000000 ==>
              1 <= \result <= 1743 + 2 * nsamples + nsamples / 8;
    ensures zero: !(1 <= m <= NSM_OUTCOME_MAX_M && nsamples <= 1000000) ==> \result == 0;
 */
static size_t outcome_count(size_t m, size_t nsamples)
{
    if (m == 0 || m > NSM_OUTCOME_MAX_M || nsamples > 1000000u) {
        return 0;
    }
    size_t no = n_orders(m);
    size_t nf = n_fan(m);
    /*@ assert m <= NSM_OUTCOME_MAX_ORDERS_M ==> no <= 720 && nf <= 288; */
    /*@ assert m > NSM_OUTCOME_MAX_ORDERS_M ==> no == 4 * m && nf == 8 * m; */
    return 2 * no + 1 + nf + 2 * nsamples + n_ratio(m, nsamples);
}

/* Number of runs of the set: the base runs and NSM_OUTCOME_PLANE_DIRS per plane. */
/*@ assigns \nothing;
    ensures value: 1 <= m <= NSM_OUTCOME_MAX_M && nsamples <= 1000000 &&
            nplanes <= NSM_OUTCOME_MAX_PLANES ==>
              \result == nsm_outcome_nbase(m, nsamples) + NSM_OUTCOME_PLANE_DIRS * nplanes;
    ensures bound: 1 <= m <= NSM_OUTCOME_MAX_M && nsamples <= 1000000 &&
            nplanes <= NSM_OUTCOME_MAX_PLANES ==>
              1 <= \result <= 1743 + 2 * nsamples + nsamples / 8 +
                              NSM_OUTCOME_PLANE_DIRS * nplanes;
    ensures zero: !(1 <= m <= NSM_OUTCOME_MAX_M && nsamples <= 1000000 &&
              nplanes <= NSM_OUTCOME_MAX_PLANES) ==> \result == 0;
 */
static size_t outcome_count_proj(size_t m, size_t nsamples, size_t nplanes)
{
    size_t base = outcome_count(m, nsamples);
    if (base == 0 || nplanes > NSM_OUTCOME_MAX_PLANES) {
        return 0;
    }
    return base + NSM_OUTCOME_PLANE_DIRS * nplanes;
}

size_t nsm_outcome_count(size_t m, const nsm_outcome_opts *opts)
{
    if (opts == NULL) {
        return 0;
    }
    return outcome_count_proj(m, opts->nsamples, opts->nplanes);
}

/* Coefficients (a, b) of direction j of the fan in a projection plane with axes p, q
   (direction a·p + b·q): the lattice directions (1, 0), (3, 1), (2, 1), (3, 2), (1, 1),
   (2, 3), (1, 2), (1, 3) of the first quadrant (angles 0 to 71.6 degrees, gaps of at most
   18.4 degrees), turned by (j / 8)·90 degrees. Exact small integers: the extremal rule only
   compares rates, so the directions need not be unit vectors. */
/*@ requires \valid(a) && \valid(b) && \separated(a, b);
    assigns *a, *b;
    ensures -3 <= *a <= 3 && -3 <= *b <= 3;
 */
static void plane_coef(size_t j, double *a, double *b)
{
    double x = 1.0;
    double y = 0.0;
    switch (j % 8) {
    case 1: x = 3.0; y = 1.0; break;
    case 2: x = 2.0; y = 1.0; break;
    case 3: x = 3.0; y = 2.0; break;
    case 4: x = 1.0; y = 1.0; break;
    case 5: x = 2.0; y = 3.0; break;
    case 6: x = 1.0; y = 2.0; break;
    case 7: x = 1.0; y = 3.0; break;
    default: break;
    }
    size_t turns = (j / 8) % 4;
    /*@ loop invariant 0 <= t <= turns;
        loop invariant -3 <= x <= 3 && -3 <= y <= 3;
        loop assigns t, x, y;
        loop variant turns - t;
     */
    for (size_t t = 0; t < turns; t++) {
        double x0 = x;
        x = -y;
        y = x0;
    }
    *a = x;
    *b = y;
}

/* Direction j < nsm_outcome_nfan(m) of the extremal fan, over the 2m axes (t1, n) of the
   contact velocities: j < 4m: axis j/2 with sign + (j even) or -; then for each pair of axes
   a < b (in lexicographic order) the four diagonals (+a +b, +a -b, -a +b, -a -b); for m >
   NSM_OUTCOME_MAX_ORDERS_M only the pairs (t1, n) of one contact (8m directions in all).
   dir has 3m entries (t1, t2, n) per contact; t2 stays 0. */
/*@ requires 1 <= m <= NSM_OUTCOME_MAX_M && j < 8 * m * m;
    requires m > NSM_OUTCOME_MAX_ORDERS_M ==> j < 8 * m;
    requires \valid(dir + (0 .. 3 * m - 1));
    assigns dir[0 .. 3 * m - 1];
 */
static void fan_dir(size_t m, size_t j, double *dir)
{
    size_t axes = 2 * m;
    /*@ loop invariant 0 <= k <= 3 * m;
        loop assigns k, dir[0 .. 3 * m - 1];
        loop variant 3 * m - k;
     */
    for (size_t k = 0; k < 3 * m; k++) {
        dir[k] = 0.0;
    }
    size_t a = 0;
    size_t b = axes;
    double sa = 1.0;
    double sb = 1.0;
    if (j < 2 * axes) {
        a = j / 2;
        sa = j % 2 == 0 ? 1.0 : -1.0;
    } else if (m > NSM_OUTCOME_MAX_ORDERS_M) {
        size_t c = (j - 2 * axes) / 4;
        size_t sg = (j - 2 * axes) % 4;
        sa = sg < 2 ? 1.0 : -1.0;
        sb = sg % 2 == 0 ? 1.0 : -1.0;
        a = 2 * c;
        b = 2 * c + 1;
    } else {
        size_t q = (j - 2 * axes) / 4;
        size_t sg = (j - 2 * axes) % 4;
        sa = sg < 2 ? 1.0 : -1.0;
        sb = sg % 2 == 0 ? 1.0 : -1.0;
        /* the q-th pair a < b */
        /*@ loop invariant 0 <= a <= axes - 1 && q <= 2 * m * m;
            loop assigns a, q;
            loop variant axes - a;
         */
        while (a + 1 < axes && q >= axes - 1 - a) {
            q -= axes - 1 - a;
            a++;
        }
        b = a + 1 + q;
    }
    /* axis x -> slot 3·(x/2) + (x even ? 0 : 2) */
    dir[3 * (a / 2) + (a % 2 == 0 ? 0 : 2)] = sa;
    if (b < axes) {
        dir[3 * (b / 2) + (b % 2 == 0 ? 0 : 2)] = sb;
    }
}

/* Dwell cap of bang-bang run j: 2^(j mod L), L the bit length of hold (so 1 .. hold): the
   runs cycle through the dwell scales 1, 2, 4, ... steps. */
/*@ requires hold >= 1;
    assigns \nothing;
    ensures 1 <= \result <= hold;
 */
static size_t dwell_cap(size_t j, size_t hold)
{
    size_t levels = 0;
    size_t top = 1;
    /*@ loop invariant 1 <= top <= hold && levels <= 63;
        loop assigns levels, top;
        loop variant hold - top;
     */
    while (levels < 63 && top <= hold / 2) {
        top *= 2;
        levels++;
    }
    size_t l = j % (levels + 1);
    size_t cap = 1;
    /*@ loop invariant 0 <= k <= l;
        loop invariant 1 <= cap <= hold;
        loop assigns k, cap;
        loop variant l - k;
     */
    for (size_t k = 0; k < l && cap <= hold / 2; k++) {
        cap *= 2;
    }
    return cap;
}

/* Dwell levels of the schedule runs, in units of the impulse scale S (NSM_POLICY_SCHEDULE):
   level 0 skips the phase, the last runs it to rest (1e300 S: more than any impact needs,
   the phase ends when its contact stops penetrating); between them, fractions that stop a
   contact short of rest, denser below S/2 (docs/math.md, "Exploring the set"). */
#define SCHED_LEVELS 14u

/* Cycle counts of the schedule runs: 1, 2, 4 or 8 passes through the phases, so that two
   contacts can take turns (docs/math.md, "Exploring the set"). */
#define SCHED_CYCLE_LEVELS 4u

/* Starting points of the schedules' Halton sequence: the set's seed modulo this count. */
#define SCHED_SHIFTS 1048576u

/* The dwell of level l < SCHED_LEVELS (a switch, not a table: no global object). */
/*@ assigns \nothing;
    ensures \result >= 0;
 */
static double sched_level(size_t l)
{
    switch (l) {
    case 0: return 0.0;
    case 1: return 0.03;
    case 2: return 0.06;
    case 3: return 0.1;
    case 4: return 0.15;
    case 5: return 0.2;
    case 6: return 0.3;
    case 7: return 0.4;
    case 8: return 0.5;
    case 9: return 0.6;
    case 10: return 0.8;
    case 11: return 1.0;
    case 12: return 1.3;
    default: return 1e300;
    }
}

/* Base of Halton axis `axis` <= NSM_OUTCOME_MAX_M: the primes 2, 3, 5, ..., 59 in turn (a
   switch, not a table: no global object). */
/*@ requires axis <= NSM_OUTCOME_MAX_M;
    assigns \nothing;
    ensures 2 <= \result <= 59;
 */
static size_t halton_base(size_t axis)
{
    switch (axis) {
    case 0: return 2u;
    case 1: return 3u;
    case 2: return 5u;
    case 3: return 7u;
    case 4: return 11u;
    case 5: return 13u;
    case 6: return 17u;
    case 7: return 19u;
    case 8: return 23u;
    case 9: return 29u;
    case 10: return 31u;
    case 11: return 37u;
    case 12: return 41u;
    case 13: return 43u;
    case 14: return 47u;
    case 15: return 53u;
    default: return 59u;
    }
}

/* Level of coordinate `axis` of Halton point k >= 1 (base halton_base(axis)):
   floor(levels · radical inverse of k in that base), in integers (digits reversed into
   num/den, num < den). Axes 0 .. m-1 are a schedule's dwells, axis m its cycle count; a
   constant-ratio run's axes 0 .. m-1 are its ratios' exponents. */
/*@ requires axis <= NSM_OUTCOME_MAX_M && 1 <= levels <= SCHED_LEVELS;
    assigns \nothing;
    ensures \result < levels;
 */
static size_t halton_level(size_t k, size_t axis, size_t levels)
{
    size_t b = halton_base(axis);
    size_t num = 0;
    size_t den = 1;
    /*@ loop invariant 2 <= b <= 59;
        loop invariant 0 <= num < den <= SIZE_MAX / 32;
        loop assigns k, num, den;
        loop variant k;
     */
    while (k > 0 && den <= SIZE_MAX / 32 / b) {
        num = num * b + k % b;
        den = den * b;
        k /= b;
    }
    /*@ assert levels * num < levels * den; */
    return levels * num / den;
}

/* Next permutation in lexicographic order (p has m entries); 0 after the last one. */
/*@ requires 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M;
    requires \valid(p + (0 .. m - 1));
    requires \forall integer i; 0 <= i < m ==> p[i] < m;
    assigns p[0 .. m - 1];
    ensures \forall integer i; 0 <= i < m ==> p[i] < m;
    ensures \result == 0 || \result == 1;
 */
static int next_perm(size_t m, size_t *p)
{
    if (m < 2) {
        return 0;
    }
    size_t i = m - 1;
    /*@ loop invariant 0 <= i <= m - 1;
        loop assigns i;
        loop variant i;
     */
    while (i > 0 && p[i - 1] >= p[i]) {
        i--;
    }
    if (i == 0) {
        return 0;
    }
    size_t j = m - 1;
    /*@ loop invariant i <= j <= m - 1;
        loop assigns j;
        loop variant j;
     */
    while (j > i && p[j] <= p[i - 1]) {
        j--;
    }
    size_t t = p[i - 1];
    p[i - 1] = p[j];
    p[j] = t;
    size_t a = i;
    size_t b = m - 1;
    /*@ loop invariant i <= a <= m && b <= m - 1;
        loop invariant \forall integer q; 0 <= q < m ==> p[q] < m;
        loop assigns a, b, p[0 .. m - 1];
        loop variant (integer)b - (integer)a + 1;
     */
    while (a < b) {
        size_t s = p[a];
        p[a] = p[b];
        p[b] = s;
        a++;
        b--;
    }
    return 1;
}

/* Copies v (n) into dst (n). */
/*@ requires 1 <= n <= NSM_MAX_DIM;
    requires \valid_read(v + (0 .. n - 1)) && \valid(dst + (0 .. n - 1));
    assigns dst[0 .. n - 1];
 */
static void copy_n(size_t n, const double *v, double *dst)
{
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, dst[0 .. n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        dst[i] = v[i];
    }
}

/* 1 for the statuses that mean the input itself is invalid. */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int is_input_error(nsm_status st)
{
    return st == NSM_ERR_NULL || st == NSM_ERR_SIZE || st == NSM_ERR_ARG ||
           st == NSM_ERR_NOT_FINITE || st == NSM_ERR_NOT_SPD || st == NSM_ERR_ALIAS ||
           st == NSM_ERR_WORKSPACE;
}

/* Lemma function (empty at run time): row r < cap of a cap×n block ends inside it. */
/*@ requires r < cap && n <= NSM_MAX_DIM && cap <= 1000000;
    assigns \nothing;
    ensures r * n + n <= cap * n;
 */
static void lemma_row(size_t r, size_t cap, size_t n)
{
    /*@ assert r + 1 <= cap; */
    /*@ assert (r + 1) * n <= cap * n; */
    (void)r;
    (void)cap;
    (void)n;
}

size_t nsm_outcome_work(size_t n, size_t m)
{
    if (m == 0 || m > NSM_OUTCOME_MAX_M) {
        return 0;
    }
    size_t lw = nsm_impact_work(n, m);
    if (lw == 0 || lw + 3 * m + n > NSM_MAX_DIM * NSM_MAX_DIM) {
        return 0;
    }
    return lw + 3 * m + n;
}

/* Size and argument checks of nsm_outcome_set: the run count and the impact workspace. */
/*@ requires valid_res: \valid(total_out) && \valid(lw_out) && \separated(total_out, lw_out);
    assigns *total_out, *lw_out;
    ensures ok: \result == NSM_OK ==>
      1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M &&
      1 <= nsamples <= 1000000 && hold >= 1 && cap <= 1000000 &&
      nplanes <= NSM_OUTCOME_MAX_PLANES;
    ensures res: \result == NSM_OK ==> 1 <= *total_out <= cap &&
                 *total_out == nsm_outcome_nbase(m, nsamples) +
                               NSM_OUTCOME_PLANE_DIRS * nplanes &&
                 *total_out * n <= NSM_MAX_DIM * NSM_MAX_DIM && 1 <= *lw_out &&
                 *lw_out + 3 * m + n <= NSM_MAX_DIM * NSM_MAX_DIM &&
                 *lw_out + 3 * m + n <= lwork;
 */
static nsm_status outcome_sizes(size_t n, size_t m, size_t nsamples, size_t hold,
                                size_t nplanes, double tol, size_t cap, size_t lwork,
                                size_t *total_out, size_t *lw_out)
{
    if (n == 0 || n > NSM_MAX_DIM || m == 0 || m > NSM_OUTCOME_MAX_M) {
        return NSM_ERR_SIZE;
    }
    if (nsamples == 0 || nsamples > 1000000u || hold == 0 || cap > 1000000u ||
        nplanes > NSM_OUTCOME_MAX_PLANES || !(tol >= 0.0 && tol <= 1.0)) {
        return NSM_ERR_ARG;
    }
    size_t total = outcome_count_proj(m, nsamples, nplanes);
    if (cap < total) {
        return NSM_ERR_ARG;
    }
    if (total * n > NSM_MAX_DIM * NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    size_t need = nsm_outcome_work(n, m);
    if (need == 0) {
        return NSM_ERR_SIZE;
    }
    if (lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    *total_out = total;
    *lw_out = need - 3 * m - n;
    return NSM_OK;
}

/* 1 if v_plus (nv doubles) or the work (nw doubles) of nsm_outcome_set overlaps the other
   or an input (the planes, np doubles, included). Only addresses are compared. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M &&
                   (d == 1 || d == 2);
    requires sizes: 1 <= nv <= NSM_MAX_DIM * NSM_MAX_DIM && 1 <= nw <= NSM_MAX_DIM * NSM_MAX_DIM &&
                    np <= 2 * NSM_OUTCOME_MAX_PLANES * NSM_MAX_DIM;
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int outcome_alias(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                         const double *Jt,
                         const double *mu, const double *v_minus, const double *planes,
                         size_t np, const double *v_plus, size_t nv, const double *work,
                         size_t nw)
{
    const size_t b = sizeof(double);
    const nsm_span out[2] = {{(uintptr_t)v_plus, nv * b}, {(uintptr_t)work, nw * b}};
    const nsm_span in[6] = {{(uintptr_t)M, n * n * b},      {(uintptr_t)Jn, m * n * b},
                            {(uintptr_t)Jt, m * d * n * b}, {(uintptr_t)mu, m * b},
                            {(uintptr_t)v_minus, n * b},    {(uintptr_t)planes, np * b}};
    return nsm_spans_overlap(2, out, 6, in);
}

/* 1 if v_plus (total·n doubles), the work (nw doubles), status, kind (total entries each),
   *nruns or *accepted overlap each other, an input (the planes, np doubles, included) or
   *opts: they are written during and after the runs, which read all of those. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M &&
                   (d == 1 || d == 2);
    requires sizes: 1 <= total <= 1000000 && total * n <= NSM_MAX_DIM * NSM_MAX_DIM &&
                    nw <= NSM_MAX_DIM * NSM_MAX_DIM &&
                    np <= 2 * NSM_OUTCOME_MAX_PLANES * NSM_MAX_DIM;
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int outcome_meta_alias(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                              const double *Jt, const double *mu, const double *v_minus,
                              const double *planes, size_t np, const double *v_plus,
                              size_t total, const double *work, size_t nw,
                              const nsm_impact_opts *opts, const nsm_status *status,
                              const nsm_policy_kind *kind, const size_t *nruns,
                              const size_t *accepted)
{
    /*@ assert n * n <= NSM_MAX_DIM * NSM_MAX_DIM; */
    const size_t b = sizeof(double);
    const nsm_span out[6] = {{(uintptr_t)v_plus, total * n * b},
                             {(uintptr_t)work, nw * b},
                             {(uintptr_t)status, total * sizeof(nsm_status)},
                             {(uintptr_t)kind, total * sizeof(nsm_policy_kind)},
                             {(uintptr_t)nruns, sizeof(size_t)},
                             {(uintptr_t)accepted, sizeof(size_t)}};
    const nsm_span in[7] = {{(uintptr_t)M, n * n * b},
                            {(uintptr_t)Jn, m * n * b},
                            {(uintptr_t)Jt, m * d * n * b},
                            {(uintptr_t)mu, m * b},
                            {(uintptr_t)v_minus, n * b},
                            {(uintptr_t)planes, np * b},
                            {(uintptr_t)opts, opts != NULL ? sizeof *opts : 0}};
    return nsm_spans_overlap(6, out, 7, in);
}

/* Argument validation of nsm_outcome_set (everything but the runs). */
/*@ requires valid_M: M == \null || n > NSM_MAX_DIM || \valid_read(M + (0 .. n*n - 1));
    requires valid_Jn: Jn == \null || n > NSM_MAX_DIM || m > NSM_MAX_DIM ||
                       \valid_read(Jn + (0 .. m*n - 1));
    requires valid_Jt: Jt == \null || (d != 1 && d != 2) || n > NSM_MAX_DIM || m > NSM_MAX_DIM ||
                       \valid_read(Jt + (0 .. m*d*n - 1));
    requires valid_mu: mu == \null || m > NSM_MAX_DIM || \valid_read(mu + (0 .. m - 1));
    requires valid_vm: v_minus == \null || n > NSM_MAX_DIM || \valid_read(v_minus + (0 .. n - 1));
    requires valid_vp: v_plus == \null || cap == 0 || n > NSM_MAX_DIM || cap > 1000000 ||
                       \valid(v_plus + (0 .. cap * n - 1));
    requires valid_work: work == \null || lwork == 0 || \valid(work + (0 .. lwork - 1));
    requires valid_planes: planes == \null || nplanes == 0 || nplanes > NSM_OUTCOME_MAX_PLANES ||
                           n > NSM_MAX_DIM || \valid_read(planes + (0 .. 2 * nplanes * n - 1));
    requires valid_res: \valid(total_out) && \valid(lw_out) && \separated(total_out, lw_out);
    assigns *total_out, *lw_out;
    ensures res: \result == NSM_OK ==> 1 <= *total_out <= cap && 1 <= *lw_out &&
                 *total_out == nsm_outcome_nbase(m, nsamples) +
                               NSM_OUTCOME_PLANE_DIRS * nplanes &&
                 *lw_out + 3 * m + n <= lwork &&
                 *total_out * n <= NSM_MAX_DIM * NSM_MAX_DIM &&
                 *lw_out + 3 * m + n <= NSM_MAX_DIM * NSM_MAX_DIM;
    ensures ok: \result == NSM_OK ==>
      M != \null && Jn != \null && Jt != \null && mu != \null && v_minus != \null &&
      v_plus != \null && work != \null && (d == 1 || d == 2) &&
      1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M &&
      1 <= nsamples <= 1000000 && hold >= 1 && cap <= 1000000 &&
      1 <= cap && nplanes <= NSM_OUTCOME_MAX_PLANES && (nplanes == 0 || planes != \null);
 */
static nsm_status outcome_check(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                                const double *Jt, const double *mu, const double *v_minus,
                                size_t nsamples, size_t hold, size_t nplanes,
                                const double *planes, double tol, size_t cap,
                                const double *v_plus, const double *work, size_t lwork,
                                size_t *total_out, size_t *lw_out)
{
    if (M == NULL || Jn == NULL || Jt == NULL || mu == NULL || v_minus == NULL ||
        v_plus == NULL || work == NULL || (planes == NULL && nplanes > 0)) {
        return NSM_ERR_NULL;
    }
    if (d != 1 && d != 2) {
        return NSM_ERR_ARG;
    }
    size_t total = 0;
    size_t lw = 0;
    nsm_status st = outcome_sizes(n, m, nsamples, hold, nplanes, tol, cap, lwork, &total,
                                  &lw);
    if (st != NSM_OK) {
        return st;
    }
    size_t np = 2 * nplanes * n;
    if (outcome_alias(n, m, d, M, Jn, Jt, mu, v_minus, planes, np, v_plus, total * n, work,
                      lw + 3 * m + n)) {
        return NSM_ERR_ALIAS;
    }
    if (np > 0 && !nsm_all_finite(np, planes)) {
        return NSM_ERR_NOT_FINITE;
    }
    *total_out = total;
    *lw_out = lw;
    return NSM_OK;
}

/* The order of sequential or priority run k < m!: the k-th permutation of 0 .. m-1 in
   lexicographic order (the identity, then next_perm k times; at most 719 calls). */
/*@ requires 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M && k < 720;
    requires \valid(order + (0 .. m - 1));
    assigns order[0 .. m - 1];
    ensures \forall integer i; 0 <= i < m ==> order[i] < m;
 */
static void kth_order(size_t m, size_t k, size_t *order)
{
    /*@ loop invariant 0 <= c <= m;
        loop invariant \forall integer i; 0 <= i < c ==> order[i] < m;
        loop assigns c, order[0 .. m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        order[c] = c;
    }
    /*@ loop invariant 0 <= j <= k;
        loop invariant \forall integer i; 0 <= i < m ==> order[i] < m;
        loop assigns j, order[0 .. m - 1];
        loop variant k - j;
     */
    for (size_t j = 0; j < k; j++) {
        if (!next_perm(m, order)) {
            break;
        }
    }
}

/* Next state of the orders' Park–Miller generator: state·48271 mod (2^31 - 1) (a state in
   1 .. 2^31 - 2 stays there, the modulus being prime; the bounds below need only < 2^31 - 1). */
/*@ requires s < NSM_PRNG_MOD;
    assigns \nothing;
    ensures \result < NSM_PRNG_MOD;
 */
static unsigned long order_draw(unsigned long s)
{
    return (unsigned long)((unsigned long long)s * 48271ull % (unsigned long long)NSM_PRNG_MOD);
}

/* Chosen order k < 4m of a set with m > NSM_OUTCOME_MAX_ORDERS_M contacts: k < m the
   rotation (k, k+1, ..., k-1 mod m), so that every contact comes first once; k >= m a
   Fisher–Yates shuffle of the identity (i = m-1 down to 1: swap i and draw mod (i + 1)) with
   the generator of order_draw from state 1 + (seed + 104729·k) mod (2^31 - 2). */
/*@ requires NSM_OUTCOME_MAX_ORDERS_M < m <= NSM_OUTCOME_MAX_M && k < 4 * m;
    requires \valid(order + (0 .. m - 1));
    assigns order[0 .. m - 1];
    ensures \forall integer i; 0 <= i < m ==> order[i] < m;
 */
static void chosen_order(size_t m, size_t k, unsigned long seed, size_t *order)
{
    size_t rot = k < m ? k : 0;
    /*@ loop invariant 0 <= c <= m;
        loop invariant \forall integer i; 0 <= i < c ==> order[i] < m;
        loop assigns c, order[0 .. m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        order[c] = (c + rot) % m;
    }
    if (k < m) {
        return;
    }
    const unsigned long mod1 = NSM_PRNG_MOD - 1ul;
    unsigned long s = 1ul + (seed % mod1 + 104729ul * (unsigned long)k) % mod1;
    /*@ loop invariant 0 <= i <= m - 1;
        loop invariant s < NSM_PRNG_MOD;
        loop invariant \forall integer q; 0 <= q < m ==> order[q] < m;
        loop assigns i, s, order[0 .. m - 1];
        loop variant i;
     */
    for (size_t i = m - 1; i > 0; i--) {
        s = order_draw(s);
        size_t j = (size_t)(s % (unsigned long)(i + 1));
        size_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

/* Order k < N of the set (N = nsm_outcome_norders(m)): the k-th permutation in
   lexicographic order for m <= NSM_OUTCOME_MAX_ORDERS_M, else chosen order k. */
/*@ requires 1 <= m <= NSM_OUTCOME_MAX_M && k < 720;
    requires m > NSM_OUTCOME_MAX_ORDERS_M ==> k < 4 * m;
    requires \valid(order + (0 .. m - 1));
    assigns order[0 .. m - 1];
    ensures \forall integer i; 0 <= i < m ==> order[i] < m;
 */
static void order_of(size_t m, size_t k, unsigned long seed, size_t *order)
{
    if (m <= NSM_OUTCOME_MAX_ORDERS_M) {
        kth_order(m, k, order);
    } else {
        chosen_order(m, k, seed, order);
    }
}

/* Levels of the constant-ratio runs' Halton exponents: 2^(l - 6) for l < 13, the powers of
   two in [1/64, 64]. */
#define RATIO_LEVELS 13u

/* 2^(l - 6) for l < RATIO_LEVELS (exact). */
/*@ requires l < RATIO_LEVELS;
    assigns \nothing;
    ensures \result > 0;
 */
static double ratio_level(size_t l)
{
    double r = 1.0 / 64.0;
    /*@ loop invariant 0 <= i <= l;
        loop invariant r > 0;
        loop assigns i, r;
        loop variant l - i;
     */
    for (size_t i = 0; i < l; i++) {
        r *= 2.0;
    }
    return r;
}

/* Ratios of constant-ratio run j of the set (docs of nsm_outcome_set): j < m heavy on
   contact j (1, the others 1/NSM_OUTCOME_RATIO_SKEW), j < 2m light on contact j - m, then
   ratio_level(floor(13·h_c)) for contact c of Halton point j - 2m + 1 + shift. */
/*@ requires 1 <= m <= NSM_OUTCOME_MAX_M && j <= 3000000 && shift < SCHED_SHIFTS;
    requires \valid(ratios + (0 .. m - 1));
    assigns ratios[0 .. m - 1];
    ensures \forall integer i; 0 <= i < m ==> ratios[i] > 0;
 */
static void ratio_of(size_t m, size_t j, size_t shift, double *ratios)
{
    const double skew = 1.0 / (double)NSM_OUTCOME_RATIO_SKEW;
    /*@ loop invariant 0 <= c <= m;
        loop invariant \forall integer i; 0 <= i < c ==> ratios[i] > 0;
        loop assigns c, ratios[0 .. m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (j < m) {
            ratios[c] = c == j ? 1.0 : skew;
        } else if (j < 2 * m) {
            ratios[c] = c == j - m ? skew : 1.0;
        } else {
            ratios[c] = ratio_level(halton_level(j - 2 * m + 1 + shift, c, RATIO_LEVELS));
        }
    }
}

/* Schedule run t of the set: the order of index t mod norders (order_of), for phase i the
   dwell of level halton_level(k, i, SCHED_LEVELS) and 2^halton_level(k, m, SCHED_CYCLE_LEVELS)
   cycles, k = t / norders + 1 + shift (shift = the set's seed mod SCHED_SHIFTS): every order
   gets the same low-discrepancy sequence of (dwells, cycles) tuples, so any prefix of the runs
   spreads over the grid of levels, and another seed starts further along it. Returns the
   cycles. */
/*@ requires 1 <= m <= NSM_OUTCOME_MAX_M && 1 <= norders <= 720 && t <= 3000000;
    requires norders == nsm_outcome_norders(m);
    requires shift < SCHED_SHIFTS;
    requires \valid(order + (0 .. m - 1)) && \valid(dwell + (0 .. m - 1));
    requires \separated(order + (0 .. m - 1), dwell + (0 .. m - 1));
    assigns order[0 .. m - 1], dwell[0 .. m - 1];
    ensures \forall integer i; 0 <= i < m ==> order[i] < m;
    ensures \forall integer i; 0 <= i < m ==> dwell[i] >= 0;
    ensures 1 <= \result <= 8;
 */
static size_t schedule_of(size_t m, size_t t, size_t norders, unsigned long seed, size_t shift,
                          size_t *order, double *dwell)
{
    order_of(m, t % norders, seed, order);
    size_t k = t / norders + 1 + shift;
    /*@ loop invariant 0 <= i <= m;
        loop invariant \forall integer q; 0 <= q < i ==> dwell[q] >= 0;
        loop assigns i, dwell[0 .. m - 1];
        loop variant m - i;
     */
    for (size_t i = 0; i < m; i++) {
        dwell[i] = sched_level(halton_level(k, i, SCHED_LEVELS));
    }
    size_t l = halton_level(k, m, SCHED_CYCLE_LEVELS);
    return l == 0 ? 1u : l == 1 ? 2u : l == 2 ? 4u : 8u;
}

/* Steps between the choices of the set's extremal runs: steps / NSM_OUTCOME_EXTREMAL_CHOICES,
   at least 1 (opts = NULL: the default steps). */
/*@ requires opts == \null || \valid_read(opts);
    assigns \nothing;
    ensures \result >= 1;
 */
static size_t extremal_hold(const nsm_impact_opts *opts)
{
    const nsm_impact_opts def = NSM_IMPACT_OPTS_DEFAULT;
    size_t steps = opts != NULL ? opts->steps : def.steps;
    size_t h = steps / NSM_OUTCOME_EXTREMAL_CHOICES;
    return h >= 1 ? h : 1;
}

/* The policy of run r of the outcome set (docs of nsm_outcome_policy): fills *pol, order (the
   run's permutation, the identity for runs without one), ratios (a constant-ratio run's,
   ones otherwise), dir (the fan direction of an extremal run, zeros otherwise) and dwell (a
   schedule run's dwells, zeros otherwise); extremal runs choose every ehold steps. */
/*@ requires 1 <= m <= NSM_OUTCOME_MAX_M && 1 <= norders <= 720 && hold >= 1;
    requires norders == nsm_outcome_norders(m);
    requires ehold >= 1 && r <= 3000000;
    requires \valid(pol) && \valid(order + (0 .. m - 1)) && \valid(ratios + (0 .. m - 1)) &&
             \valid(dir + (0 .. 3 * m - 1)) && \valid(dwell + (0 .. m - 1));
    requires \separated(pol, order + (0 .. m - 1), ratios + (0 .. m - 1),
                        dir + (0 .. 3 * m - 1), dwell + (0 .. m - 1));
    assigns *pol, order[0 .. m - 1], ratios[0 .. m - 1], dir[0 .. 3 * m - 1],
            dwell[0 .. m - 1];
    ensures kind: pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY ||
                  pol->kind == NSM_POLICY_SIMULTANEOUS || pol->kind == NSM_POLICY_EXTREMAL ||
                  pol->kind == NSM_POLICY_BANGBANG || pol->kind == NSM_POLICY_SCHEDULE ||
                  pol->kind == NSM_POLICY_MOREAU;
    ensures arrays: pol->order == order && pol->ratios == ratios && pol->dir == dir &&
                    pol->dwell == dwell;
    ensures hold: pol->hold >= 1;
    ensures cycles: pol->kind == NSM_POLICY_SCHEDULE ==> pol->hold <= 8;
    ensures order: \forall integer i; 0 <= i < m ==> order[i] < m;
    ensures ratios: \forall integer i; 0 <= i < m ==> ratios[i] > 0;
    ensures first: r < norders ==> pol->kind == NSM_POLICY_SEQUENTIAL;
 */
static void outcome_policy_of(size_t m, size_t r, size_t norders, size_t nsamples,
                              unsigned long seed, size_t hold, size_t ehold, size_t *order,
                              double *ratios, double *dir, double *dwell,
                              nsm_impact_policy *pol)
{
    size_t nfan = n_fan(m);
    size_t shift = (size_t)(seed % SCHED_SHIFTS);
    /*@ loop invariant 0 <= c <= m;
        loop invariant \forall integer i; 0 <= i < c ==> ratios[i] > 0;
        loop assigns c, ratios[0 .. m - 1], dir[0 .. 3 * m - 1], dwell[0 .. m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        ratios[c] = 1.0;
        dwell[c] = 0.0;
        dir[3 * c] = 0.0;
        dir[3 * c + 1] = 0.0;
        dir[3 * c + 2] = 0.0;
    }
    pol->order = order;
    pol->ratios = ratios;
    pol->dir = dir;
    pol->vdir = NULL;
    pol->dwell = dwell;
    pol->seed = 0;
    pol->hold = 1;
    pol->kind = NSM_POLICY_SIMULTANEOUS;
    if (r < norders) {
        pol->kind = NSM_POLICY_SEQUENTIAL;
        order_of(m, r, seed, order);
        return;
    }
    if (r - norders < norders) {
        pol->kind = NSM_POLICY_PRIORITY;
        order_of(m, r - norders, seed, order);
        return;
    }
    order_of(m, 0, seed, order);
    if (r - norders == norders) {
        return; /* equal ratios */
    }
    size_t q = r - norders - norders - 1;
    if (q < nfan) {
        pol->kind = NSM_POLICY_EXTREMAL;
        pol->hold = ehold;
        fan_dir(m, q, dir);
    } else if (q - nfan < nsamples) {
        size_t j = q - nfan;
        pol->kind = NSM_POLICY_BANGBANG;
        pol->seed = (seed % NSM_PRNG_MOD) + (unsigned long)(j % 1000001u);
        pol->hold = dwell_cap(j, hold);
    } else if (q - nfan - nsamples < nsamples) {
        pol->kind = NSM_POLICY_SCHEDULE;
        pol->hold = schedule_of(m, q - nfan - nsamples, norders, seed, shift, order, dwell);
    } else if (q - nfan - nsamples - nsamples < 2 * m + nsamples / 8 + (nsamples % 8 != 0)) {
        /* one of the 2m + ceil(nsamples / 8) constant ratios before Moreau's run */
        ratio_of(m, q - nfan - nsamples - nsamples, shift, ratios);
    } else {
        pol->kind = NSM_POLICY_MOREAU; /* the last base run */
    }
}

nsm_status nsm_outcome_policy(size_t m, const nsm_outcome_opts *opts, size_t r,
                              nsm_policy_store *st, nsm_impact_policy *pol)
{
    if (opts == NULL || st == NULL || pol == NULL) {
        return NSM_ERR_NULL;
    }
    if (m == 0 || m > NSM_OUTCOME_MAX_M) {
        return NSM_ERR_SIZE;
    }
    size_t nsamples = opts->nsamples;
    size_t hold = opts->hold;
    if (nsamples == 0 || nsamples > 1000000u || hold == 0 || r >= outcome_count(m, nsamples)) {
        return NSM_ERR_ARG;
    }
    const nsm_span out[2] = {{(uintptr_t)st, sizeof *st}, {(uintptr_t)pol, sizeof *pol}};
    if (nsm_spans_overlap(2, out, 0, NULL)) {
        return NSM_ERR_ALIAS;
    }
    outcome_policy_of(m, r, n_orders(m), nsamples, opts->seed, hold,
                      extremal_hold(&opts->impact), st->order, st->ratios, st->dir, st->dwell,
                      pol);
    return NSM_OK;
}

/* Solves *pol into row r (row r of v_plus, status[r], kind[r]; work: lw doubles for the
   solver, then Lambda, 3m); an input error in row 0 sets *stop and is returned with
   status[0] and kind[0] left unwritten. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M &&
                   (d == 1 || d == 2);
    requires sizes: r < cap <= 1000000;
    requires valid_in: \valid_read(M + (0 .. n*n - 1)) && \valid_read(Jn + (0 .. m*n - 1)) &&
                       \valid_read(Jt + (0 .. m*d*n - 1)) && \valid_read(mu + (0 .. m - 1)) &&
                       \valid_read(v_minus + (0 .. n - 1)) &&
                       (opts == \null || \valid_read(opts));
    requires valid_pol: \valid_read(pol) &&
      ((pol->kind != NSM_POLICY_SEQUENTIAL && pol->kind != NSM_POLICY_PRIORITY &&
        pol->kind != NSM_POLICY_SCHEDULE) ||
       pol->order == \null || \valid_read(pol->order + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_SCHEDULE || pol->dwell == \null ||
       \valid_read(pol->dwell + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_SIMULTANEOUS || pol->ratios == \null ||
       \valid_read(pol->ratios + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_EXTREMAL || pol->dir == \null ||
       \valid_read(pol->dir + (0 .. 3 * m - 1))) &&
      (pol->kind != NSM_POLICY_EXTREMAL_V || pol->vdir == \null ||
       \valid_read(pol->vdir + (0 .. n - 1)));
    requires valid_out: \valid(v_plus + (0 .. cap * n - 1)) && \valid(status + (0 .. cap - 1)) &&
                        \valid(kind + (0 .. cap - 1));
    requires valid_work: 1 <= lw && \valid(work + (0 .. lw + 3 * m - 1));
    requires valid_stop: \valid(stop) && \separated(stop, status + (0 .. cap - 1)) &&
                         \separated(stop, kind + (0 .. cap - 1));
    assigns v_plus[0 .. cap * n - 1], status[0 .. cap - 1], kind[0 .. cap - 1],
            work[0 .. lw + 3 * m - 1], *stop;
 */
static nsm_status outcome_solve(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                                const double *Jt, const double *mu, const double *v_minus,
                                const nsm_impact_opts *opts, const nsm_impact_policy *pol,
                                size_t r, size_t cap, double *v_plus, nsm_status *status,
                                nsm_policy_kind *kind, double *work, size_t lw, int *stop)
{
    double *lam = work + lw;
    nsm_policy_kind k = pol->kind;
    lemma_row(r, cap, n);
    double *vp = v_plus + r * n;
    const nsm_contact_problem prob = {n, m, d, M, Jn, Jt, mu, v_minus};
    nsm_impact_result res;
    res.v_plus = vp;
    res.Lambda = lam;
    /*@ assert fields: prob.n == n && prob.m == m && prob.d == d && res.v_plus == vp &&
                       res.Lambda == lam; */
    /*@ assert lam_in_work: (d + 1) * m <= 3 * m; */
    nsm_status st = nsm_impact_solve(&prob, pol, opts, &res, work, lw);
    *stop = 0;
    if (is_input_error(st)) {
        if (r == 0) {
            *stop = 1;
            return st;
        }
        copy_n(n, v_minus, vp);
    }
    if (st == NSM_ERR_OVERFLOW) {
        /* the row may hold values beyond the double range: report v_minus, as documented */
        copy_n(n, v_minus, vp);
    }
    status[r] = st;
    kind[r] = k;
    return st;
}

/* The policy of plane run j < NSM_OUTCOME_PLANE_DIRS·nplanes (docs of
   nsm_outcome_plane_policy): NSM_POLICY_EXTREMAL_V with hold ehold along
   vdir = a·p + b·q, p and q rows 2i and 2i + 1 of planes, i = j / NSM_OUTCOME_PLANE_DIRS,
   (a, b) = plane_coef(j mod NSM_OUTCOME_PLANE_DIRS). */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= nplanes <= NSM_OUTCOME_MAX_PLANES && ehold >= 1;
    requires j < NSM_OUTCOME_PLANE_DIRS * nplanes;
    requires \valid_read(planes + (0 .. 2 * nplanes * n - 1));
    requires \valid(vdir + (0 .. n - 1)) && \valid(pol) && \separated(pol, vdir + (0 .. n - 1));
    assigns vdir[0 .. n - 1], *pol;
    ensures pol->kind == NSM_POLICY_EXTREMAL_V && pol->vdir == vdir && pol->hold == ehold;
 */
static void plane_policy_of(size_t n, size_t nplanes, const double *planes, size_t j,
                            size_t ehold, double *vdir, nsm_impact_policy *pol)
{
    (void)nplanes; /* bounds i in the contract */
    size_t i = j / NSM_OUTCOME_PLANE_DIRS;
    double a = 0.0;
    double b = 0.0;
    plane_coef(j % NSM_OUTCOME_PLANE_DIRS, &a, &b);
    /*@ assert i < nplanes && 2 * i * n + 2 * n <= 2 * nplanes * n; */
    const double *p = planes + 2 * i * n;
    const double *q = p + n;
    /*@ loop invariant 0 <= k <= n;
        loop assigns k, vdir[0 .. n - 1];
        loop variant n - k;
     */
    for (size_t k = 0; k < n; k++) {
        vdir[k] = a * p[k] + b * q[k];
    }
    pol->kind = NSM_POLICY_EXTREMAL_V;
    pol->order = NULL;
    pol->ratios = NULL;
    pol->dir = NULL;
    pol->seed = 0;
    pol->hold = ehold;
    pol->vdir = vdir;
    pol->dwell = NULL;
}

nsm_status nsm_outcome_plane_policy(size_t n, size_t nplanes, const double *planes,
                                    const nsm_impact_opts *opts, size_t j, double *vdir,
                                    nsm_impact_policy *pol)
{
    if (planes == NULL || vdir == NULL || pol == NULL) {
        return NSM_ERR_NULL;
    }
    if (n == 0 || n > NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    if (nplanes == 0 || nplanes > NSM_OUTCOME_MAX_PLANES ||
        j >= NSM_OUTCOME_PLANE_DIRS * nplanes) {
        return NSM_ERR_ARG;
    }
    const uintptr_t a = (uintptr_t)planes;
    const uintptr_t v = (uintptr_t)vdir;
    const uintptr_t p = (uintptr_t)pol;
    const size_t na = 2 * nplanes * n * sizeof(double);
    const size_t nv = n * sizeof(double);
    const size_t np = sizeof *pol;
    if (nsm_overlap_bytes(a, na, v, nv) | nsm_overlap_bytes(a, na, p, np) |
        nsm_overlap_bytes(v, nv, p, np)) {
        return NSM_ERR_ALIAS;
    }
    plane_policy_of(n, nplanes, planes, j, extremal_hold(opts), vdir, pol);
    return NSM_OK;
}

/* Run r = base + j of the set with planes (j < NSM_OUTCOME_PLANE_DIRS·nplanes): the policy
   of plane run j with its direction in the n doubles after the solver's work and Lambda,
   solved into row `row`. row > 0: never the run that reports input errors. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M &&
                   (d == 1 || d == 2);
    requires sizes: 1 <= base <= r && 1 <= row < cap <= 1000000 &&
                    1 <= nplanes <= NSM_OUTCOME_MAX_PLANES &&
                    r - base < NSM_OUTCOME_PLANE_DIRS * nplanes;
    requires valid_in: \valid_read(M + (0 .. n*n - 1)) && \valid_read(Jn + (0 .. m*n - 1)) &&
                       \valid_read(Jt + (0 .. m*d*n - 1)) && \valid_read(mu + (0 .. m - 1)) &&
                       \valid_read(v_minus + (0 .. n - 1)) &&
                       (opts == \null || \valid_read(opts)) &&
                       \valid_read(planes + (0 .. 2 * nplanes * n - 1));
    requires valid_out: \valid(v_plus + (0 .. cap * n - 1)) && \valid(status + (0 .. cap - 1)) &&
                        \valid(kind + (0 .. cap - 1));
    requires valid_work: 1 <= lw && \valid(work + (0 .. lw + 3 * m + n - 1));
    assigns v_plus[0 .. cap * n - 1], status[0 .. cap - 1], kind[0 .. cap - 1],
            work[0 .. lw + 3 * m + n - 1];
 */
static nsm_status outcome_plane_run(size_t n, size_t m, size_t d, const double *M,
                                    const double *Jn, const double *Jt, const double *mu,
                                    const double *v_minus, const nsm_impact_opts *opts,
                                    size_t nplanes, const double *planes, size_t base, size_t r,
                                    size_t cap, double *v_plus, nsm_status *status,
                                    nsm_policy_kind *kind, double *work, size_t lw, size_t row)
{
    nsm_impact_policy pol;
    plane_policy_of(n, nplanes, planes, r - base, extremal_hold(opts), work + lw + 3 * m, &pol);
    int stop = 0;
    return outcome_solve(n, m, d, M, Jn, Jt, mu, v_minus, opts, &pol, row, cap, v_plus, status,
                         kind, work, lw, &stop);
}

/* What the hull test reads: a problem's contact axes Jn and Jt and its projection planes
   (hull_axes), and the rows of the set made so far (hull_rows). */
/*@ predicate hull_axes(integer n, integer m, integer d, double *Jn, double *Jt,
                        integer nplanes, double *planes) =
      \valid_read(Jn + (0 .. m*n - 1)) && \valid_read(Jt + (0 .. m*d*n - 1)) &&
      (nplanes == 0 || \valid_read(planes + (0 .. 2 * nplanes * n - 1)));
    predicate hull_rows(integer n, integer cap, double *v_plus, nsm_status *status) =
      \valid_read(v_plus + (0 .. cap * n - 1)) && \valid_read(status + (0 .. cap - 1));
 */

/* Probe direction k of the hull test, applied to the velocity v: the coordinate v[k]
   (k < n), the contact axis (row k - n of Jn, then of Jt), then the fan directions of the
   projection planes (a·p + b·q, plane_coef). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M && (d == 1 || d == 2) &&
                   nplanes <= NSM_OUTCOME_MAX_PLANES;
    requires axes: hull_axes(n, m, d, Jn, Jt, nplanes, planes);
    requires dir: k < n + (d + 1) * m + NSM_OUTCOME_PLANE_DIRS * nplanes;
    requires valid_v: \valid_read(v + (0 .. n - 1));
    assigns \nothing;
 */
static double probe(size_t n, size_t m, size_t d, const double *Jn, const double *Jt,
                    size_t nplanes, const double *planes, size_t k, const double *v)
{
    (void)nplanes; /* bounds k in the contract */
    if (k < n) {
        return v[k];
    }
    if (k - n < m) {
        /*@ assert (k - n) * n + n <= m * n; */
        return nsm_vec_dot(n, Jn + (k - n) * n, v);
    }
    if (k - n - m < d * m) {
        /*@ assert (k - n - m) * n + n <= m * d * n; */
        return nsm_vec_dot(n, Jt + (k - n - m) * n, v);
    }
    size_t j = k - n - m - d * m;
    size_t i = j / NSM_OUTCOME_PLANE_DIRS;
    double a = 0.0;
    double b = 0.0;
    plane_coef(j % NSM_OUTCOME_PLANE_DIRS, &a, &b);
    /*@ assert i < nplanes && 2 * i * n + 2 * n <= 2 * nplanes * n; */
    const double *p = planes + 2 * i * n;
    return a * nsm_vec_dot(n, p, v) + b * nsm_vec_dot(n, p + n, v);
}

/* 1 if an accepted row of [mid, hi) of v_plus lies beyond the accepted rows [0, mid) along
   probe direction k by more than tol times their width along it (or [0, mid) has no
   accepted row). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M && (d == 1 || d == 2) &&
                   nplanes <= NSM_OUTCOME_MAX_PLANES;
    requires axes: hull_axes(n, m, d, Jn, Jt, nplanes, planes);
    requires dir: k < n + (d + 1) * m + NSM_OUTCOME_PLANE_DIRS * nplanes;
    requires rows: mid <= hi <= cap <= 1000000;
    requires valid_rows: hull_rows(n, cap, v_plus, status);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int probe_extends(size_t n, size_t m, size_t d, const double *Jn, const double *Jt,
                         size_t nplanes, const double *planes, size_t k, const double *v_plus,
                         const nsm_status *status, size_t mid, size_t hi, size_t cap,
                         double tol)
{
    double lo = 0.0;
    double up = 0.0;
    int any = 0;
    /*@ loop invariant 0 <= i <= mid;
        loop invariant any == 0 || any == 1;
        loop assigns i, lo, up, any;
        loop variant mid - i;
     */
    for (size_t i = 0; i < mid; i++) {
        if (status[i] == NSM_OK) {
            lemma_row(i, cap, n);
            double s = probe(n, m, d, Jn, Jt, nplanes, planes, k, v_plus + i * n);
            lo = (any && lo < s) ? lo : s;
            up = (any && up > s) ? up : s;
            any = 1;
        }
    }
    if (!any) {
        return 1;
    }
    double w = tol * (up - lo);
    /*@ loop invariant mid <= i <= hi;
        loop assigns i;
        loop variant hi - i;
     */
    for (size_t i = mid; i < hi; i++) {
        if (status[i] == NSM_OK) {
            lemma_row(i, cap, n);
            double s = probe(n, m, d, Jn, Jt, nplanes, planes, k, v_plus + i * n);
            if (s > up + w || s < lo - w) {
                return 1;
            }
        }
    }
    return 0;
}

/* 1 if the round of rows [mid, hi) reaches beyond rows [0, mid) along some probe direction
   (probe_extends): n coordinates, (d + 1)m contact axes, NSM_OUTCOME_PLANE_DIRS per plane. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M && (d == 1 || d == 2) &&
                   nplanes <= NSM_OUTCOME_MAX_PLANES;
    requires axes: hull_axes(n, m, d, Jn, Jt, nplanes, planes);
    requires rows: mid <= hi <= cap <= 1000000;
    requires valid_rows: hull_rows(n, cap, v_plus, status);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int round_extends(size_t n, size_t m, size_t d, const double *Jn, const double *Jt,
                         size_t nplanes, const double *planes, const double *v_plus,
                         const nsm_status *status, size_t mid, size_t hi, size_t cap,
                         double tol)
{
    size_t ndir = n + (d + 1) * m + NSM_OUTCOME_PLANE_DIRS * nplanes;
    /*@ loop invariant 0 <= k <= ndir;
        loop assigns k;
        loop variant ndir - k;
     */
    for (size_t k = 0; k < ndir; k++) {
        if (probe_extends(n, m, d, Jn, Jt, nplanes, planes, k, v_plus, status, mid, hi, cap,
                          tol)) {
            return 1;
        }
    }
    return 0;
}

/* The run after run r of a set with nsamples samples, when rows 0 .. row - 1 of v_plus and
   status are the runs made so far (the last is run r's): r + 1, or the end of r's sampled
   family (bang-bang runs [b0, b0 + ns), schedules [b0 + ns, b0 + 2ns), Halton ratios
   [h0, h0 + ceil(ns / 8)), b0 = 2N + 1 + F, h0 = b0 + 2ns + 2m) when tol > 0, the family
   has made j = NSM_OUTCOME_ROUND·2^i runs, not all, and its last round (the last
   max(j / 2, NSM_OUTCOME_ROUND) rows) reaches no further than tol (round_extends). */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M && (d == 1 || d == 2) &&
                   nplanes <= NSM_OUTCOME_MAX_PLANES && 1 <= ns <= 1000000;
    requires axes: hull_axes(n, m, d, Jn, Jt, nplanes, planes);
    requires runs: r < total && row <= r + 1 && row <= cap <= 1000000;
    requires count: total == nsm_outcome_nbase(m, ns) + NSM_OUTCOME_PLANE_DIRS * nplanes;
    requires valid_rows: hull_rows(n, cap, v_plus, status);
    assigns \nothing;
    ensures r + 1 <= \result <= total;
 */
static size_t next_run(size_t n, size_t m, size_t d, const double *Jn, const double *Jt,
                       size_t ns, size_t nplanes, const double *planes, double tol,
                       const double *v_plus, const nsm_status *status, size_t row, size_t cap,
                       size_t r, size_t total)
{
    (void)total; /* bounds the result in the contract */
    size_t b0 = 2 * n_orders(m) + 1 + n_fan(m);
    size_t h0 = b0 + 2 * ns + 2 * m;
    size_t lo = 0;
    size_t hi = 0;
    if (r >= b0 && r - b0 < ns) {
        lo = b0;
        hi = b0 + ns;
    } else if (r >= b0 + ns && r - b0 - ns < ns) {
        lo = b0 + ns;
        hi = b0 + 2 * ns;
    } else if (r >= h0 && r - h0 < (ns + 7) / 8) {
        lo = h0;
        hi = h0 + (ns + 7) / 8;
    }
    if (!(tol > 0.0) || hi == 0) {
        return r + 1;
    }
    size_t j = r + 1 - lo; /* runs the family has made */
    if (j < NSM_OUTCOME_ROUND || (j & (j - 1)) != 0 || r + 1 == hi) {
        return r + 1;
    }
    size_t len = j == NSM_OUTCOME_ROUND ? j : j / 2;
    if (len > row) {
        return r + 1;
    }
    return round_extends(n, m, d, Jn, Jt, nplanes, planes, v_plus, status, row - len, row,
                         cap, tol)
               ? r + 1
               : hi;
}

/* The runs of nsm_outcome_set on validated arguments: the base runs of outcome_count,
   then NSM_OUTCOME_PLANE_DIRS per plane, each sampled family ended early by next_run when
   tol > 0; the runs made fill rows 0 .. *rows - 1 in order, and *acc counts the accepted
   ones. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_M &&
                   (d == 1 || d == 2);
    requires sizes: 1 <= total <= cap <= 1000000 && hold >= 1 && 1 <= nsamples <= 1000000 &&
                    nplanes <= NSM_OUTCOME_MAX_PLANES;
    requires count: total == nsm_outcome_nbase(m, nsamples) + NSM_OUTCOME_PLANE_DIRS * nplanes;
    requires valid_in: \valid_read(M + (0 .. n*n - 1)) && \valid_read(Jn + (0 .. m*n - 1)) &&
                       \valid_read(Jt + (0 .. m*d*n - 1)) && \valid_read(mu + (0 .. m - 1)) &&
                       \valid_read(v_minus + (0 .. n - 1)) && (opts == \null || \valid_read(opts));
    requires valid_planes: nplanes == 0 || \valid_read(planes + (0 .. 2 * nplanes * n - 1));
    requires valid_out: \valid(v_plus + (0 .. cap * n - 1)) && \valid(status + (0 .. cap - 1)) &&
                        \valid(kind + (0 .. cap - 1)) && \valid(acc) && \valid(rows);
    requires valid_work: 1 <= lw && \valid(work + (0 .. lw + 3 * m + n - 1));
    requires sep: \separated(acc, status + (0 .. cap - 1)) && \separated(acc, kind + (0 .. cap - 1)) &&
                  \separated(acc, v_plus + (0 .. cap * n - 1)) &&
                  \separated(acc, work + (0 .. lw + 3 * m + n - 1)) && \separated(acc, rows) &&
                  \separated(rows, status + (0 .. cap - 1)) &&
                  \separated(rows, kind + (0 .. cap - 1)) &&
                  \separated(rows, v_plus + (0 .. cap * n - 1)) &&
                  \separated(rows, work + (0 .. lw + 3 * m + n - 1));
    assigns v_plus[0 .. cap * n - 1], status[0 .. cap - 1], kind[0 .. cap - 1],
            work[0 .. lw + 3 * m + n - 1], *acc, *rows;
    ensures first_ok: \result == NSM_OK ==> *acc <= *rows <= total;
 */
static nsm_status outcome_runs(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                               const double *Jt, const double *mu, const double *v_minus,
                               const nsm_impact_opts *opts, size_t total, size_t nsamples,
                               unsigned long seed, size_t hold, size_t nplanes,
                               const double *planes, double tol, size_t cap, double *v_plus,
                               nsm_status *status, nsm_policy_kind *kind, double *work, size_t lw,
                               size_t *acc, size_t *rows)
{
    size_t norders = n_orders(m);
    size_t base = outcome_count(m, nsamples);
    *acc = 0;
    *rows = 0;
    size_t row = 0;
    size_t r = 0;
    /*@ loop invariant 0 <= row <= r <= total;
        loop invariant 0 <= *acc <= row;
        loop invariant row == 0 ==> r == 0;
        loop assigns r, row, *acc, v_plus[0 .. cap * n - 1],
                     status[0 .. cap - 1], kind[0 .. cap - 1], work[0 .. lw + 3 * m + n - 1];
        loop variant total - r;
     */
    while (r < total) {
        nsm_status st = NSM_ERR_ARG; /* every r < total is a base or a plane run */
        if (r < base || nplanes == 0) {
            /* base run r: its policy (outcome_policy_of), solved into row `row` */
            size_t order[NSM_OUTCOME_MAX_M];
            double ratios[NSM_OUTCOME_MAX_M];
            double dir[3 * NSM_OUTCOME_MAX_M];
            double dwell[NSM_OUTCOME_MAX_M];
            nsm_impact_policy pol;
            outcome_policy_of(m, r, norders, nsamples, seed, hold, extremal_hold(opts), order,
                              ratios, dir, dwell, &pol);
            int stop = 0;
            st = outcome_solve(n, m, d, M, Jn, Jt, mu, v_minus, opts, &pol, row, cap, v_plus,
                               status, kind, work, lw, &stop);
            if (stop) {
                *rows = row;
                return st;
            }
        } else if (r - base < NSM_OUTCOME_PLANE_DIRS * nplanes) {
            /*@ assert row >= 1; */
            st = outcome_plane_run(n, m, d, M, Jn, Jt, mu, v_minus, opts, nplanes, planes, base,
                                   r, cap, v_plus, status, kind, work, lw, row);
        }
        if (st == NSM_OK) {
            *acc += 1;
        }
        row++;
        r = next_run(n, m, d, Jn, Jt, nsamples, nplanes, planes, tol, v_plus, status, row, cap,
                     r, total);
    }
    *rows = row;
    return NSM_OK;
}

/* Entries of the projection planes, 2·nplanes·n. */
/*@ requires nplanes <= NSM_OUTCOME_MAX_PLANES && n <= NSM_MAX_DIM;
    assigns \nothing;
    ensures \result == 2 * nplanes * n && \result <= 2 * NSM_OUTCOME_MAX_PLANES * NSM_MAX_DIM;
 */
static size_t planes_len(size_t nplanes, size_t n)
{
    return 2 * nplanes * n;
}

nsm_status nsm_outcome_set(const nsm_contact_problem *prob, const nsm_outcome_opts *opts,
                           nsm_outcome_result *res, double *work, size_t lwork)
{
    if (prob == NULL || opts == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    /* local copies: the options stay what was validated while the outputs are written */
    nsm_impact_opts io;
    io.steps = opts->impact.steps;
    io.ztol = opts->impact.ztol;
    io.ntol = opts->impact.ntol;
    io.vtol = opts->impact.vtol;
    io.fw_iters = opts->impact.fw_iters;
    io.fallback_steps = opts->impact.fallback_steps;
    io.slip_rest = opts->impact.slip_rest;
    size_t nsamples = opts->nsamples;
    unsigned long seed = opts->seed;
    size_t hold = opts->hold;
    size_t nplanes = opts->nplanes;
    const double *planes = opts->planes;
    double tol = opts->hull_tol;
    size_t n = prob->n;
    size_t m = prob->m;
    size_t d = prob->d;
    const double *M = prob->M;
    const double *Jn = prob->Jn;
    const double *Jt = prob->Jt;
    const double *mu = prob->mu;
    const double *v_minus = prob->v_minus;
    size_t cap = res->cap;
    double *v_plus = res->v_plus;
    nsm_status *status = res->status;
    nsm_policy_kind *kind = res->kind;
    if (status == NULL || kind == NULL) {
        return NSM_ERR_NULL;
    }
    size_t total = 0;
    size_t lw = 0;
    nsm_status st = outcome_check(n, m, d, M, Jn, Jt, mu, v_minus, nsamples, hold, nplanes,
                                  planes, tol, cap, v_plus, work, lwork, &total, &lw);
    if (st != NSM_OK) {
        return st;
    }
    size_t np = planes_len(nplanes, n);
    if (outcome_meta_alias(n, m, d, M, Jn, Jt, mu, v_minus, planes, np, v_plus, total, work,
                           lw + 3 * m + n, &opts->impact, status, kind, &res->nruns,
                           &res->accepted)) {
        return NSM_ERR_ALIAS;
    }
    size_t acc = 0;
    size_t rows = 0;
    st = outcome_runs(n, m, d, M, Jn, Jt, mu, v_minus, &io, total, nsamples, seed, hold,
                      nplanes, planes, tol, cap, v_plus, status, kind, work, lw, &acc, &rows);
    if (st != NSM_OK) {
        return st;
    }
    res->nruns = rows;
    res->accepted = acc;
    return NSM_OK;
}

nsm_status nsm_outcome_next(const nsm_contact_problem *prob, const nsm_outcome_opts *opts,
                            size_t r, size_t rows, const double *v_plus,
                            const nsm_status *status, size_t *next)
{
    if (prob == NULL || opts == NULL || v_plus == NULL || status == NULL || next == NULL) {
        return NSM_ERR_NULL;
    }
    size_t n = prob->n;
    size_t m = prob->m;
    size_t d = prob->d;
    const double *Jn = prob->Jn;
    const double *Jt = prob->Jt;
    size_t nsamples = opts->nsamples;
    size_t nplanes = opts->nplanes;
    const double *planes = opts->planes;
    double tol = opts->hull_tol;
    if (Jn == NULL || Jt == NULL || (planes == NULL && nplanes > 0)) {
        return NSM_ERR_NULL;
    }
    if (n == 0 || n > NSM_MAX_DIM || m == 0 || m > NSM_OUTCOME_MAX_M) {
        return NSM_ERR_SIZE;
    }
    if ((d != 1 && d != 2) || nsamples == 0 || nsamples > 1000000u ||
        nplanes > NSM_OUTCOME_MAX_PLANES || !(tol >= 0.0 && tol <= 1.0)) {
        return NSM_ERR_ARG;
    }
    size_t total = outcome_count_proj(m, nsamples, nplanes);
    if (r >= total || rows == 0 || rows > r + 1 || rows > 1000000u) {
        return NSM_ERR_ARG;
    }
    *next = next_run(n, m, d, Jn, Jt, nsamples, nplanes, planes, tol, v_plus, status, rows, rows,
                     r, total);
    return NSM_OK;
}
