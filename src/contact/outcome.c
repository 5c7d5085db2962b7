/* Outcome sets of an impact (every sequential order, simultaneous, sampled) and a 2-D hull. */
#include <stdint.h>
#include "nsmech/contact.h"

/*@ logic integer fact(integer m) = m <= 1 ? 1 : m * fact(m - 1); */

/* m! for m <= NSM_OUTCOME_MAX_ORDERS_M (at most 720). */
/*@ requires 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M;
    assigns \nothing;
    ensures 1 <= \result <= 720;
 */
static size_t n_orders(size_t m)
{
    size_t f = 1;
    /*@ loop invariant 2 <= k <= m + 1 || (m == 1 && k == 2);
        loop invariant 1 <= f <= 720;
        loop invariant k <= 7;
        loop invariant f == fact(k - 1);
        loop assigns k, f;
        loop variant m + 1 - k;
     */
    for (size_t k = 2; k <= m; k++) {
        /*@ assert fact(k) == k * fact(k - 1); */
        /*@ assert k <= 6 ==> fact(k) <= 720; */
        f *= k;
    }
    return f;
}

size_t nsm_outcome_count(size_t m, size_t nsamples)
{
    if (m == 0 || m > NSM_OUTCOME_MAX_ORDERS_M || nsamples > 1000000u) {
        return 0;
    }
    return n_orders(m) + 1 + nsamples;
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

/* Size and argument checks of nsm_outcome_set: the run count and the impact workspace. */
/*@ requires valid_res: \valid(total_out) && \valid(lw_out) && \separated(total_out, lw_out);
    assigns *total_out, *lw_out;
    ensures ok: \result == NSM_OK ==>
      1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M &&
      1 <= nsamples <= 1000000 && hold >= 1 && cap <= 1000000;
    ensures res: \result == NSM_OK ==> 1 <= *total_out <= cap &&
                 *total_out * n <= NSM_MAX_DIM * NSM_MAX_DIM && 1 <= *lw_out &&
                 *lw_out + 2 * m <= NSM_MAX_DIM * NSM_MAX_DIM && *lw_out + 2 * m <= lwork;
 */
static nsm_status outcome_sizes(size_t n, size_t m, size_t nsamples, size_t hold, size_t cap,
                                size_t lwork, size_t *total_out, size_t *lw_out)
{
    if (n == 0 || n > NSM_MAX_DIM || m == 0 || m > NSM_OUTCOME_MAX_ORDERS_M) {
        return NSM_ERR_SIZE;
    }
    if (nsamples == 0 || nsamples > 1000000u || hold == 0 || cap > 1000000u) {
        return NSM_ERR_ARG;
    }
    size_t total = nsm_outcome_count(m, nsamples);
    if (cap < total) {
        return NSM_ERR_ARG;
    }
    if (total * n > NSM_MAX_DIM * NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    size_t lw = nsm_impact_work(n, m);
    if (lw == 0 || lw + 2 * m > NSM_MAX_DIM * NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    if (lwork < lw + 2 * m) {
        return NSM_ERR_WORKSPACE;
    }
    *total_out = total;
    *lw_out = lw;
    return NSM_OK;
}

/* 1 if v_plus (nv doubles) overlaps an input or the work (nw doubles) of nsm_outcome_set. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M;
    requires sizes: 1 <= nv <= NSM_MAX_DIM * NSM_MAX_DIM && 1 <= nw <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires valid_in: \valid_read(M + (0 .. n*n - 1)) && \valid_read(Jn + (0 .. m*n - 1)) &&
                       \valid_read(Jt + (0 .. m*n - 1)) && \valid_read(mu + (0 .. m - 1)) &&
                       \valid_read(v_minus + (0 .. n - 1));
    requires valid_out: \valid_read(v_plus + (0 .. nv - 1)) && \valid_read(work + (0 .. nw - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int outcome_alias(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                         const double *mu, const double *v_minus, const double *v_plus,
                         size_t nv, const double *work, size_t nw)
{
    return nsm_overlap(v_plus, nv, M, n * n) || nsm_overlap(v_plus, nv, Jn, m * n) ||
           nsm_overlap(v_plus, nv, Jt, m * n) || nsm_overlap(v_plus, nv, mu, m) ||
           nsm_overlap(v_plus, nv, v_minus, n) || nsm_overlap(v_plus, nv, work, nw);
}

/* Argument validation of nsm_outcome_set (everything but the runs). */
/*@ requires valid_M: M == \null || n > NSM_MAX_DIM || \valid_read(M + (0 .. n*n - 1));
    requires valid_Jn: Jn == \null || n > NSM_MAX_DIM || m > NSM_MAX_DIM ||
                       \valid_read(Jn + (0 .. m*n - 1));
    requires valid_Jt: Jt == \null || n > NSM_MAX_DIM || m > NSM_MAX_DIM ||
                       \valid_read(Jt + (0 .. m*n - 1));
    requires valid_mu: mu == \null || m > NSM_MAX_DIM || \valid_read(mu + (0 .. m - 1));
    requires valid_vm: v_minus == \null || n > NSM_MAX_DIM || \valid_read(v_minus + (0 .. n - 1));
    requires valid_vp: v_plus == \null || cap == 0 || n > NSM_MAX_DIM || cap > 1000000 ||
                       \valid(v_plus + (0 .. cap * n - 1));
    requires valid_work: work == \null || lwork == 0 || \valid(work + (0 .. lwork - 1));
    requires valid_res: \valid(total_out) && \valid(lw_out) && \separated(total_out, lw_out);
    assigns *total_out, *lw_out;
    ensures res: \result == NSM_OK ==> 1 <= *total_out <= cap && 1 <= *lw_out &&
                 *lw_out + 2 * m <= lwork;
    ensures ok: \result == NSM_OK ==>
      M != \null && Jn != \null && Jt != \null && mu != \null && v_minus != \null &&
      v_plus != \null && work != \null &&
      1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M &&
      1 <= nsamples <= 1000000 && hold >= 1 && cap <= 1000000 &&
      1 <= cap;
 */
static nsm_status outcome_check(size_t n, size_t m, const double *M, const double *Jn,
                                const double *Jt, const double *mu, const double *v_minus,
                                size_t nsamples, size_t hold, size_t cap, const double *v_plus,
                                const double *work, size_t lwork, size_t *total_out,
                                size_t *lw_out)
{
    if (M == NULL || Jn == NULL || Jt == NULL || mu == NULL || v_minus == NULL ||
        v_plus == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    size_t total = 0;
    size_t lw = 0;
    nsm_status st = outcome_sizes(n, m, nsamples, hold, cap, lwork, &total, &lw);
    if (st != NSM_OK) {
        return st;
    }
    if (outcome_alias(n, m, M, Jn, Jt, mu, v_minus, v_plus, total * n, work, lw + 2 * m)) {
        return NSM_ERR_ALIAS;
    }
    *total_out = total;
    *lw_out = lw;
    return NSM_OK;
}

/* One run r of the outcome set: its policy. */
/*@ requires \valid(pol);
    assigns pol->kind, pol->seed;
    ensures pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_SIMULTANEOUS ||
            pol->kind == NSM_POLICY_SAMPLED;
    ensures r < norders ==> pol->kind == NSM_POLICY_SEQUENTIAL;
 */
static void run_policy_of(size_t r, size_t norders, unsigned long seed, nsm_impact_policy *pol)
{
    pol->seed = 0;
    if (r < norders) {
        pol->kind = NSM_POLICY_SEQUENTIAL;
    } else if (r == norders) {
        pol->kind = NSM_POLICY_SIMULTANEOUS;
    } else {
        pol->kind = NSM_POLICY_SAMPLED;
        pol->seed = (seed % NSM_PRNG_MOD) + (unsigned long)((r - norders) % 1000001u);
    }
}

/* Run r of nsm_outcome_set: row r of v_plus, status[r], kind[r]; an input error of run 0 sets
   *stop and is returned with status[0] and kind[0] left unwritten. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M;
    requires sizes: r < cap <= 1000000 && hold >= 1;
    requires valid_in: \valid_read(M + (0 .. n*n - 1)) && \valid_read(Jn + (0 .. m*n - 1)) &&
                       \valid_read(Jt + (0 .. m*n - 1)) && \valid_read(mu + (0 .. m - 1)) &&
                       \valid_read(v_minus + (0 .. n - 1)) && \valid_read(opts) &&
                       \valid_read(perm + (0 .. m - 1)) && \valid_read(ones + (0 .. m - 1));
    requires valid_out: \valid(v_plus + (0 .. cap * n - 1)) && \valid(status + (0 .. cap - 1)) &&
                        \valid(kind + (0 .. cap - 1));
    requires valid_work: 1 <= lw && \valid(work + (0 .. lw + 2 * m - 1));
    requires valid_stop: \valid(stop) && \separated(stop, status + (0 .. cap - 1)) &&
                         \separated(stop, kind + (0 .. cap - 1));
    assigns v_plus[0 .. cap * n - 1], status[0 .. cap - 1], kind[0 .. cap - 1],
            work[0 .. lw + 2 * m - 1], *stop;
 */
static nsm_status outcome_run(size_t n, size_t m, const double *M, const double *Jn,
                              const double *Jt, const double *mu, const double *v_minus,
                              const nsm_impact_opts *opts, const size_t *perm, const double *ones,
                              size_t r, size_t norders, unsigned long seed, size_t hold,
                              size_t cap, double *v_plus, nsm_status *status,
                              nsm_policy_kind *kind, double *work, size_t lw, int *stop)
{
    double *lam = work + lw;
    nsm_impact_policy pol;
    pol.order = perm;
    pol.ratios = ones;
    pol.hold = hold;
    run_policy_of(r, norders, seed, &pol);
    lemma_row(r, cap, n);
    double *vp = v_plus + r * n;
    nsm_impact_info info;
    nsm_status st = nsm_impact_solve(n, m, M, Jn, Jt, mu, v_minus, &pol, opts, vp, lam, &info,
                                     work, lw);
    *stop = 0;
    if (is_input_error(st)) {
        if (r == 0) {
            *stop = 1;
            return st;
        }
        copy_n(n, v_minus, vp);
    }
    status[r] = st;
    kind[r] = pol.kind;
    return st;
}

/* The runs of nsm_outcome_set on validated arguments; *acc counts the accepted ones. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_OUTCOME_MAX_ORDERS_M;
    requires sizes: 1 <= total <= cap <= 1000000 && hold >= 1;
    requires valid_in: \valid_read(M + (0 .. n*n - 1)) && \valid_read(Jn + (0 .. m*n - 1)) &&
                       \valid_read(Jt + (0 .. m*n - 1)) && \valid_read(mu + (0 .. m - 1)) &&
                       \valid_read(v_minus + (0 .. n - 1)) && \valid_read(opts);
    requires valid_out: \valid(v_plus + (0 .. cap * n - 1)) && \valid(status + (0 .. cap - 1)) &&
                        \valid(kind + (0 .. cap - 1)) && \valid(acc);
    requires valid_work: 1 <= lw && \valid(work + (0 .. lw + 2 * m - 1));
    requires sep: \separated(acc, status + (0 .. cap - 1)) && \separated(acc, kind + (0 .. cap - 1)) &&
                  \separated(acc, v_plus + (0 .. cap * n - 1)) &&
                  \separated(acc, work + (0 .. lw + 2 * m - 1));
    assigns v_plus[0 .. cap * n - 1], status[0 .. cap - 1], kind[0 .. cap - 1],
            work[0 .. lw + 2 * m - 1], *acc;
    ensures first_ok: \result == NSM_OK ==> *acc <= total;
 */
static nsm_status outcome_runs(size_t n, size_t m, const double *M, const double *Jn,
                               const double *Jt, const double *mu, const double *v_minus,
                               const nsm_impact_opts *opts, size_t total, unsigned long seed,
                               size_t hold, size_t cap, double *v_plus, nsm_status *status,
                               nsm_policy_kind *kind, double *work, size_t lw, size_t *acc)
{
    size_t perm[NSM_OUTCOME_MAX_ORDERS_M];
    double ones[NSM_OUTCOME_MAX_ORDERS_M];
    /*@ loop invariant 0 <= c <= m;
        loop invariant \forall integer i; 0 <= i < c ==> perm[i] < m;
        loop assigns c, perm[0 .. NSM_OUTCOME_MAX_ORDERS_M - 1],
                     ones[0 .. NSM_OUTCOME_MAX_ORDERS_M - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        perm[c] = c;
        ones[c] = 1.0;
    }
    size_t norders = n_orders(m);
    *acc = 0;
    /*@ loop invariant 0 <= r <= total;
        loop invariant 0 <= *acc <= r;
        loop invariant \forall integer i; 0 <= i < m ==> perm[i] < m;
        loop assigns r, *acc, perm[0 .. NSM_OUTCOME_MAX_ORDERS_M - 1], v_plus[0 .. cap * n - 1],
                     status[0 .. cap - 1], kind[0 .. cap - 1], work[0 .. lw + 2 * m - 1];
        loop variant total - r;
     */
    for (size_t r = 0; r < total; r++) {
        int stop = 0;
        nsm_status st = outcome_run(n, m, M, Jn, Jt, mu, v_minus, opts, perm, ones, r, norders,
                                    seed, hold, cap, v_plus, status, kind, work, lw, &stop);
        if (stop) {
            return st;
        }
        if (st == NSM_OK) {
            *acc += 1;
        }
        if (r < norders) {
            (void)next_perm(m, perm);
        }
    }
    return NSM_OK;
}

nsm_status nsm_outcome_set(size_t n, size_t m, const double *M, const double *Jn,
                           const double *Jt, const double *mu, const double *v_minus,
                           const nsm_impact_opts *opts, size_t nsamples, unsigned long seed,
                           size_t hold, size_t cap, double *v_plus, nsm_status *status,
                           nsm_policy_kind *kind, size_t *nruns, size_t *accepted,
                           double *work, size_t lwork)
{
    if (opts == NULL || status == NULL || kind == NULL || nruns == NULL || accepted == NULL) {
        return NSM_ERR_NULL;
    }
    size_t total = 0;
    size_t lw = 0;
    nsm_status st = outcome_check(n, m, M, Jn, Jt, mu, v_minus, nsamples, hold, cap, v_plus,
                                  work, lwork, &total, &lw);
    if (st != NSM_OK) {
        return st;
    }
    size_t acc = 0;
    st = outcome_runs(n, m, M, Jn, Jt, mu, v_minus, opts, total, seed, hold, cap, v_plus,
                      status, kind, work, lw, &acc);
    if (st != NSM_OK) {
        return st;
    }
    *nruns = total;
    *accepted = acc;
    return NSM_OK;
}

/* ---------------------------------------------------------------------------------------- */
/* Convex hull                                                                                */
/* ---------------------------------------------------------------------------------------- */

/* 1 if point a precedes point b in (x, y) lexicographic order. */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int before(double xa, double ya, double xb, double yb)
{
    return xa < xb || (xa == xb && ya < yb);
}

/* 1 if the byte ranges [a0, a0 + na) and [b0, b0 + nb) overlap: addresses compared as
   integers, as in nsm_overlap (the callers convert each typed pointer directly). */
/*@ requires na <= 16 * NSM_MAX_DIM * NSM_MAX_DIM && nb <= 16 * NSM_MAX_DIM * NSM_MAX_DIM;
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int bytes_overlap(uintptr_t a0, size_t na, uintptr_t b0, size_t nb)
{
    if (a0 <= b0) {
        return b0 - a0 < na ? 1 : 0;
    }
    return a0 - b0 < nb ? 1 : 0;
}

/* 1 if points a and b coincide. */
/*@ requires npts <= NSM_MAX_DIM * NSM_MAX_DIM && a < npts && b < npts;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    assigns \nothing;
 */
static int same_point(size_t npts, const double *x, const double *y, size_t a, size_t b)
{
    (void)npts; /* the bound of a and b, for the contract */
    return x[a] == x[b] && y[a] == y[b];
}

/* Cross product (b - a) × (c - a) of three of the points. */
/*@ requires npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires a < npts && b < npts && c < npts;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    assigns \nothing;
 */
static double cross3(size_t npts, const double *x, const double *y, size_t a, size_t b,
                     size_t c)
{
    (void)npts;
    return (x[b] - x[a]) * (y[c] - y[a]) - (y[b] - y[a]) * (x[c] - x[a]);
}

/* Insertion sort of idx (a permutation of 0 .. npts-1) by (x, y). */
/*@ requires 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    requires \valid(idx + (0 .. npts - 1));
    requires \forall integer i; 0 <= i < npts ==> idx[i] < npts;
    assigns idx[0 .. npts - 1];
    ensures \forall integer i; 0 <= i < npts ==> idx[i] < npts;
 */
static void sort_points(size_t npts, const double *x, const double *y, size_t *idx)
{
    /*@ loop invariant 1 <= i <= npts;
        loop invariant \forall integer q; 0 <= q < npts ==> idx[q] < npts;
        loop assigns i, idx[0 .. npts - 1];
        loop variant npts - i;
     */
    for (size_t i = 1; i < npts; i++) {
        size_t key = idx[i];
        size_t j = i;
        /*@ loop invariant 0 <= j <= i;
            loop invariant \forall integer q; 0 <= q < npts ==> idx[q] < npts;
            loop assigns j, idx[0 .. npts - 1];
            loop variant j;
         */
        while (j > 0 && before(x[key], y[key], x[idx[j - 1]], y[idx[j - 1]])) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = key;
    }
}

/* Argument checks of nsm_hull2d, in its order: null, size, overlap, finiteness. */
/*@ requires valid_in: (x == \null || npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM ||
                        \valid_read(x + (0 .. npts - 1))) &&
                       (y == \null || npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM ||
                        \valid_read(y + (0 .. npts - 1)));
    assigns \nothing;
    ensures ok: \result == NSM_OK ==>
                  x != \null && y != \null && idx != \null && hull != \null && nh != \null &&
                  1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    behavior null:
      assumes x == \null || y == \null || idx == \null || hull == \null || nh == \null;
      ensures \result == NSM_ERR_NULL;
    behavior size:
      assumes x != \null && y != \null && idx != \null && hull != \null && nh != \null;
      assumes npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior checked:
      assumes x != \null && y != \null && idx != \null && hull != \null && nh != \null;
      assumes 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
      ensures \result == NSM_OK || \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE;
    complete behaviors;
    disjoint behaviors;
 */
static nsm_status hull_check(size_t npts, const double *x, const double *y, const size_t *idx,
                             const size_t *hull, const size_t *nh)
{
    if (x == NULL || y == NULL || idx == NULL || hull == NULL || nh == NULL) {
        return NSM_ERR_NULL;
    }
    if (npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    size_t ni = npts * sizeof(size_t);
    size_t nd = npts * sizeof(double);
    size_t nhb = (npts + 1) * sizeof(size_t);
    uintptr_t ai = (uintptr_t)idx;
    uintptr_t ah = (uintptr_t)hull;
    uintptr_t an = (uintptr_t)nh;
    uintptr_t ax = (uintptr_t)x;
    uintptr_t ay = (uintptr_t)y;
    if (bytes_overlap(ai, ni, ah, nhb) || bytes_overlap(ai, ni, ax, nd) ||
        bytes_overlap(ai, ni, ay, nd) || bytes_overlap(ah, nhb, ax, nd) ||
        bytes_overlap(ah, nhb, ay, nd) || bytes_overlap(an, sizeof(size_t), ai, ni) ||
        bytes_overlap(an, sizeof(size_t), ah, nhb) || bytes_overlap(an, sizeof(size_t), ax, nd) ||
        bytes_overlap(an, sizeof(size_t), ay, nd)) {
        return NSM_ERR_ALIAS;
    }
    if (!nsm_all_finite(npts, x) || !nsm_all_finite(npts, y)) {
        return NSM_ERR_NOT_FINITE;
    }
    return NSM_OK;
}

/* idx[i] = i for the npts points (the permutation the sort starts from). */
/*@ requires 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid(idx + (0 .. npts - 1));
    assigns idx[0 .. npts - 1];
    ensures \forall integer q; 0 <= q < npts ==> idx[q] < npts;
 */
static void hull_fill_idx(size_t npts, size_t *idx)
{
    /*@ loop invariant 0 <= i <= npts;
        loop invariant \forall integer q; 0 <= q < i ==> idx[q] < npts;
        loop assigns i, idx[0 .. npts - 1];
        loop variant npts - i;
     */
    for (size_t i = 0; i < npts; i++) {
        idx[i] = i;
    }
}

/* Pushes point p on the chain hull[0 .. k - 1] after popping the top while k >= base, k >= 2
   and p makes no left turn with the top two; returns the new chain length. */
/*@ requires 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    requires \valid(hull + (0 .. npts));
    requires p < npts && k <= npts + 1;
    requires \forall integer q; 0 <= q < k ==> hull[q] < npts;
    assigns hull[0 .. npts];
    ensures \result <= npts + 1;
    ensures \forall integer q; 0 <= q < \result ==> hull[q] < npts;
 */
static size_t hull_push(size_t npts, const double *x, const double *y, size_t *hull, size_t k,
                        size_t base, size_t p)
{
    /*@ loop invariant 0 <= k <= npts + 1;
        loop invariant \forall integer q; 0 <= q < k ==> hull[q] < npts;
        loop assigns k;
        loop variant k;
     */
    while (k >= base && k >= 2 && cross3(npts, x, y, hull[k - 2], hull[k - 1], p) <= 0.0) {
        k--;
    }
    if (k <= npts) {
        hull[k] = p;
        k++;
    }
    return k;
}

/* Lower chain of the sorted points; returns its length k (hull[0 .. k - 1]). The stack never
   holds more than npts + 1 entries (guarded anyway). */
/*@ requires 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    requires \valid_read(idx + (0 .. npts - 1)) && \valid(hull + (0 .. npts));
    requires \separated(idx + (0 .. npts - 1), hull + (0 .. npts));
    requires \forall integer q; 0 <= q < npts ==> idx[q] < npts;
    assigns hull[0 .. npts];
    ensures \result <= npts + 1;
    ensures \forall integer q; 0 <= q < \result ==> hull[q] < npts;
 */
static size_t hull_lower_chain(size_t npts, const double *x, const double *y, const size_t *idx,
                               size_t *hull)
{
    size_t k = 0;
    /*@ loop invariant 0 <= i <= npts;
        loop invariant 0 <= k <= npts + 1;
        loop invariant \forall integer q; 0 <= q < npts ==> idx[q] < npts;
        loop invariant \forall integer q; 0 <= q < k ==> hull[q] < npts;
        loop assigns i, k, hull[0 .. npts];
        loop variant npts - i;
     */
    for (size_t i = 0; i < npts; i++) {
        size_t p = idx[i];
        if (i > 0 && same_point(npts, x, y, p, idx[i - 1])) {
            continue; /* a repeated point adds nothing (and would enter the chain twice) */
        }
        k = hull_push(npts, x, y, hull, k, 0, p);
    }
    return k;
}

/* Upper chain of the sorted points on top of the lower chain hull[0 .. k - 1] (kept); returns
   the length of both. */
/*@ requires 1 <= npts <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(x + (0 .. npts - 1)) && \valid_read(y + (0 .. npts - 1));
    requires \valid_read(idx + (0 .. npts - 1)) && \valid(hull + (0 .. npts));
    requires \separated(idx + (0 .. npts - 1), hull + (0 .. npts));
    requires \forall integer q; 0 <= q < npts ==> idx[q] < npts;
    requires k <= npts + 1;
    requires \forall integer q; 0 <= q < k ==> hull[q] < npts;
    assigns hull[0 .. npts];
    ensures \result <= npts + 1;
    ensures \forall integer q; 0 <= q < \result ==> hull[q] < npts;
 */
static size_t hull_upper_chain(size_t npts, const double *x, const double *y, const size_t *idx,
                               size_t *hull, size_t k)
{
    size_t lower = k + 1;
    /*@ loop invariant 0 <= i < npts;
        loop invariant \forall integer q; 0 <= q < npts ==> idx[q] < npts;
        loop invariant 0 <= k <= npts + 1;
        loop invariant \forall integer q; 0 <= q < k ==> hull[q] < npts;
        loop assigns i, k, hull[0 .. npts];
        loop variant i;
     */
    for (size_t i = npts - 1; i > 0; i--) {
        size_t p = idx[i - 1];
        if (same_point(npts, x, y, p, idx[i])) {
            continue;
        }
        k = hull_push(npts, x, y, hull, k, lower, p);
    }
    return k;
}

nsm_status nsm_hull2d(size_t npts, const double *x, const double *y, size_t *idx, size_t *hull,
                      size_t *nh)
{
    nsm_status st = hull_check(npts, x, y, idx, hull, nh);
    if (st != NSM_OK) {
        return st;
    }
    hull_fill_idx(npts, idx);
    sort_points(npts, x, y, idx);
    size_t k = hull_lower_chain(npts, x, y, idx, hull);
    k = hull_upper_chain(npts, x, y, idx, hull, k);
    /* the last point repeats the first one */
    if (k > 1) {
        k--;
    }
    if (k == 0) {
        hull[0] = idx[0];
        k = 1;
    }
    *nh = k;
    return NSM_OK;
}
