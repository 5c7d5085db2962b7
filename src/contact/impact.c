/* The multi-contact impact integrator (planar contacts) with its a priori termination bound. */
#include "nsmech/contact.h"
#include "nsmech/linalg.h"
#include "../nsm_math.h"

/*@ predicate dims_ok(integer n, integer m) = 1 <= n <= NSM_MAX_DIM && 1 <= m && 2 * m <= NSM_MAX_DIM;
 */

size_t nsm_impact_work(size_t n, size_t m)
{
    if (n == 0 || n > NSM_MAX_DIM || m == 0 || m > NSM_MAX_DIM / 2) {
        return 0;
    }
    size_t need = n * n + 4 * m * n + 4 * m * m + 18 * m + n;
    return need <= NSM_MAX_DIM * NSM_MAX_DIM ? need : 0;
}

/* Lemma function (empty at run time): a row-major index a·K + b of a K×K matrix is in range. */
/*@ requires a < K && b < K && K <= NSM_MAX_DIM;
    assigns \nothing;
    ensures a * K + b < K * K;
    ensures a * K + b + 1 <= K * K;
 */
static void lemma_idx(size_t a, size_t b, size_t K)
{
    /*@ assert a * K <= (K - 1) * K; */
    (void)a;
    (void)b;
    (void)K;
}

/* ---------------------------------------------------------------------------------------- */
/* Small dense kernels (plain loops)                                                          */
/* ---------------------------------------------------------------------------------------- */

/*@ requires len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(src + (0 .. len - 1)) && \valid(dst + (0 .. len - 1));
    assigns dst[0 .. len - 1];
 */
static void copy_vec(size_t len, const double *src, double *dst)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, dst[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        dst[i] = src[i];
    }
}

/*@ requires len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid(dst + (0 .. len - 1));
    assigns dst[0 .. len - 1];
 */
static void zero_vec(size_t len, double *dst)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, dst[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        dst[i] = 0.0;
    }
}

/* y = A x for A r×c (row-major). */
/*@ requires 1 <= r <= NSM_MAX_DIM && 1 <= c <= NSM_MAX_DIM;
    requires \valid_read(A + (0 .. r * c - 1)) && \valid_read(x + (0 .. c - 1));
    requires \valid(y + (0 .. r - 1));
    assigns y[0 .. r - 1];
 */
static void matvec(size_t r, size_t c, const double *A, const double *x, double *y)
{
    /*@ loop invariant 0 <= i <= r;
        loop assigns i, y[0 .. r - 1];
        loop variant r - i;
     */
    for (size_t i = 0; i < r; i++) {
        /*@ assert i * c + c <= r * c; */
        double acc = 0.0;
        /*@ loop invariant 0 <= j <= c;
            loop assigns j, acc;
            loop variant c - j;
         */
        for (size_t j = 0; j < c; j++) {
            acc += A[i * c + j] * x[j];
        }
        y[i] = acc;
    }
}

/* x^T y over len entries. */
/*@ requires len <= NSM_MAX_DIM;
    requires \valid_read(x + (0 .. len - 1)) && \valid_read(y + (0 .. len - 1));
    assigns \nothing;
 */
static double dot(size_t len, const double *x, const double *y)
{
    double acc = 0.0;
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, acc;
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        acc += x[i] * y[i];
    }
    return acc;
}

/* ½ v^T M v, using tmp (n) as scratch. */
/*@ requires 1 <= n <= NSM_MAX_DIM;
    requires \valid_read(M + (0 .. n * n - 1)) && \valid_read(v + (0 .. n - 1));
    requires \valid(tmp + (0 .. n - 1));
    assigns tmp[0 .. n - 1];
 */
static double energy(size_t n, const double *M, const double *v, double *tmp)
{
    matvec(n, n, M, v, tmp);
    return 0.5 * dot(n, v, tmp);
}

/* J (2m×n): row 2c = Jt row c, row 2c + 1 = Jn row c; X (n×2m) = J^T. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires \valid_read(Jn + (0 .. m * n - 1)) && \valid_read(Jt + (0 .. m * n - 1));
    requires \valid(J + (0 .. 2 * m * n - 1)) && \valid(X + (0 .. 2 * m * n - 1));
    assigns J[0 .. 2 * m * n - 1], X[0 .. 2 * m * n - 1];
 */
static void build_J(size_t n, size_t m, const double *Jn, const double *Jt, double *J, double *X)
{
    size_t K = 2 * m;
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, J[0 .. 2 * m * n - 1], X[0 .. 2 * m * n - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        /*@ assert c * n + n <= m * n; */
        /*@ assert (2 * c + 1) * n + n <= 2 * m * n; */
        /*@ loop invariant 0 <= i <= n;
            loop assigns i, J[0 .. 2 * m * n - 1], X[0 .. 2 * m * n - 1];
            loop variant n - i;
         */
        for (size_t i = 0; i < n; i++) {
            /*@ assert i * K + 2 * c + 1 < 2 * m * n; */
            J[(2 * c) * n + i] = Jt[c * n + i];
            J[(2 * c + 1) * n + i] = Jn[c * n + i];
            X[i * K + 2 * c] = Jt[c * n + i];
            X[i * K + 2 * c + 1] = Jn[c * n + i];
        }
    }
}

/* W (K×K) = J (K×n) · X (n×K). */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= K <= NSM_MAX_DIM;
    requires \valid_read(J + (0 .. K * n - 1)) && \valid_read(X + (0 .. n * K - 1));
    requires \valid(W + (0 .. K * K - 1));
    assigns W[0 .. K * K - 1];
 */
static void gram(size_t n, size_t K, const double *J, const double *X, double *W)
{
    /*@ loop invariant 0 <= k <= K;
        loop assigns k, W[0 .. K * K - 1];
        loop variant K - k;
     */
    for (size_t k = 0; k < K; k++) {
        /*@ assert k * K + K <= K * K; */
        /*@ assert k * n + n <= K * n; */
        /*@ loop invariant 0 <= l <= K;
            loop assigns l, W[0 .. K * K - 1];
            loop variant K - l;
         */
        for (size_t l = 0; l < K; l++) {
            double acc = 0.0;
            /*@ loop invariant 0 <= i <= n;
                loop assigns i, acc;
                loop variant n - i;
             */
            for (size_t i = 0; i < n; i++) {
                /*@ assert i * K + l < n * K; */
                acc += J[k * n + i] * X[i * K + l];
            }
            W[k * K + l] = acc;
        }
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Frank–Wolfe lower bound on gamma² = min Λ^T W Λ over the cone slice (sum Λ_n = 1)           */
/* ---------------------------------------------------------------------------------------- */

/* Vertex of the slice minimising g·Λ: (t, n) = (±mu_c, 1) at one contact c. Writes it to sv. */
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(g + (0 .. 2 * m - 1));
    requires \valid(sv + (0 .. 2 * m - 1));
    assigns sv[0 .. 2 * m - 1];
 */
static void fw_vertex(size_t m, const double *mu, const double *g, double *sv)
{
    size_t best = 0;
    double bsign = 0.0;
    double bval = g[1];
    /*@ loop invariant 0 <= c <= m;
        loop invariant 0 <= best < m;
        loop assigns c, best, bsign, bval;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double vp = g[2 * c + 1] + mu[c] * g[2 * c];
        double vn = g[2 * c + 1] - mu[c] * g[2 * c];
        if (vp < bval) {
            bval = vp;
            best = c;
            bsign = 1.0;
        }
        if (vn < bval) {
            bval = vn;
            best = c;
            bsign = -1.0;
        }
    }
    zero_vec(2 * m, sv);
    sv[2 * best] = bsign * mu[best];
    sv[2 * best + 1] = 1.0;
}

/*
 * Frank–Wolfe on f(Λ) = Λ^T W Λ over the slice, from the vertex (0, 1) of contact 0, with exact
 * line search. Returns the best certified lower bound max_k (f(Λ_k) - gap_k) (may be <= 0);
 * *gap receives the last gap. lam, g, sv, d (2m each) are scratch.
 */
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires 1 <= iters <= 1000000;
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(W + (0 .. 4 * m * m - 1));
    requires \valid(lam + (0 .. 2 * m - 1)) && \valid(g + (0 .. 2 * m - 1));
    requires \valid(sv + (0 .. 2 * m - 1)) && \valid(d + (0 .. 2 * m - 1));
    requires \valid(gap);
    requires \separated(gap, lam + (0 .. 2 * m - 1), g + (0 .. 2 * m - 1), sv + (0 .. 2 * m - 1),
                        d + (0 .. 2 * m - 1));
    assigns lam[0 .. 2 * m - 1], g[0 .. 2 * m - 1], sv[0 .. 2 * m - 1], d[0 .. 2 * m - 1], *gap;
 */
static double fw_lower(size_t m, const double *mu, const double *W, size_t iters, double *lam,
                       double *g, double *sv, double *d, double *gap)
{
    size_t K = 2 * m;
    /*@ assert K * K == 4 * m * m; */
    zero_vec(K, lam);
    lam[1] = 1.0;
    double lb = -1.0;
    *gap = 0.0;
    /*@ loop invariant 0 <= k <= iters;
        loop assigns k, lb, lam[0 .. K - 1], g[0 .. K - 1], sv[0 .. K - 1], d[0 .. K - 1], *gap;
        loop variant iters - k;
     */
    for (size_t k = 0; k < iters; k++) {
        matvec(K, K, W, lam, g); /* g = W Λ: gradient / 2 */
        double f = dot(K, lam, g);
        fw_vertex(m, mu, g, sv);
        double gp = 2.0 * (f - dot(K, sv, g));
        *gap = gp;
        if (f - gp > lb) {
            lb = f - gp;
        }
        if (lb > 0.0 && lb >= 0.25 * f) {
            break; /* gamma certified within a factor 2 */
        }
        /*@ loop invariant 0 <= i <= K;
            loop assigns i, d[0 .. K - 1];
            loop variant K - i;
         */
        for (size_t i = 0; i < K; i++) {
            d[i] = sv[i] - lam[i];
        }
        matvec(K, K, W, d, sv); /* sv = W d */
        double dd = dot(K, d, sv);
        double gd = dot(K, g, d);
        if (!(dd > 0.0)) {
            break;
        }
        double t = -gd / dd;
        t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
        /*@ loop invariant 0 <= i <= K;
            loop assigns i, lam[0 .. K - 1];
            loop variant K - i;
         */
        for (size_t i = 0; i < K; i++) {
            lam[i] += t * d[i];
        }
    }
    return lb;
}

/* ---------------------------------------------------------------------------------------- */
/* The integrator                                                                             */
/* ---------------------------------------------------------------------------------------- */

/* Internal state of the selection policy. */
typedef struct policy_state {
    size_t cur;          /* SEQUENTIAL: contact being resolved (m = none) */
    unsigned long rng;   /* SAMPLED: Park–Miller state in 1 .. NSM_PRNG_MOD - 1 */
    size_t held;         /* SAMPLED: steps the current weights have been held */
} policy_state;

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
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM && c < m;
    requires \valid_read(u + (0 .. 2 * m - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int penetrating(size_t m, const double *u, size_t c, double ntol)
{
    (void)m;
    return u[2 * c + 1] < -ntol;
}

/* Number of penetrating contacts. */
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 2 * m - 1));
    assigns \nothing;
    ensures 0 <= \result <= m;
 */
static size_t count_pen(size_t m, const double *u, double ntol)
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

/*
 * Weights w (m, sum 1 over penetrating contacts, 0 elsewhere) by the policy. Requires at least
 * one penetrating contact. For SAMPLED, w keeps its previous raw draws in wraw between redraws.
 */
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires \valid_read(pol);
    requires pol->kind != NSM_POLICY_SEQUENTIAL || \valid_read(pol->order + (0 .. m - 1));
    requires pol->kind != NSM_POLICY_SIMULTANEOUS || \valid_read(pol->ratios + (0 .. m - 1));
    requires pol->kind != NSM_POLICY_SAMPLED || pol->hold >= 1;
    requires \valid(ps) && 1 <= ps->rng < NSM_PRNG_MOD;
    requires \valid_read(u + (0 .. 2 * m - 1));
    requires \valid(w + (0 .. m - 1)) && \valid(wraw + (0 .. m - 1));
    requires \separated(ps, w + (0 .. m - 1), wraw + (0 .. m - 1));
    assigns w[0 .. m - 1], wraw[0 .. m - 1], *ps;
    ensures 1 <= ps->rng < NSM_PRNG_MOD;
 */
static void choose_weights(size_t m, const nsm_impact_policy *pol, policy_state *ps,
                           const double *u, double ntol, double *w, double *wraw)
{
    zero_vec(m, w);
    if (pol->kind == NSM_POLICY_SEQUENTIAL) {
        if (ps->cur >= m || !penetrating(m, u, ps->cur, ntol)) {
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
                    break;
                }
            }
        }
        if (ps->cur < m) {
            w[ps->cur] = 1.0;
        }
        return;
    }
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

/* Tangential impulse rate per unit weight of contact c (Routh's rule on its own block). */
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM && c < m;
    requires \valid_read(W + (0 .. 4 * m * m - 1)) && \valid_read(u + (0 .. 2 * m - 1));
    assigns \nothing;
 */
static double friction_rate(size_t m, const double *W, const double *u, size_t c, double mu_in,
                            double ztol)
{
    double muc = mu_in > 0.0 ? mu_in : 0.0;
    size_t K = 2 * m;
    /*@ assert K * K == 4 * m * m; */
    lemma_idx(2 * c, 2 * c + 1, K);
    lemma_idx(2 * c, 2 * c, K);
    double ut = u[2 * c];
    double r;
    if (ut > ztol) {
        r = -muc;
    } else if (ut < -ztol) {
        r = muc;
    } else {
        double wtt = W[(2 * c) * K + 2 * c];
        double wtn = W[(2 * c) * K + 2 * c + 1];
        if (muc == 0.0) {
            r = 0.0;
        } else if (wtt > 0.0 && muc * wtt >= fabs(wtn)) {
            r = -wtn / wtt;
        } else {
            r = wtn > 0.0 ? -muc : muc;
        }
    }
    if (r > muc) {
        r = muc;
    }
    if (r < -muc) {
        r = -muc;
    }
    return r;
}

/* lamhat (2m) from weights: (w_c·rate_c, w_c) per contact. */
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 4 * m * m - 1)) && \valid_read(u + (0 .. 2 * m - 1));
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(w + (0 .. m - 1));
    requires \valid(lh + (0 .. 2 * m - 1));
    assigns lh[0 .. 2 * m - 1];
 */
static void build_lamhat(size_t m, const double *W, const double *u, const double *mu,
                         const double *w, double ztol, double *lh)
{
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, lh[0 .. 2 * m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double r = w[c] > 0.0 ? friction_rate(m, W, u, c, mu[c], ztol) : 0.0;
        lh[2 * c] = w[c] * r;
        lh[2 * c + 1] = w[c];
    }
}

/*
 * Segment length: min(h, first event) where an event is a penetrating contact (w_c > 0)
 * reaching u_n = 0, or a slipping one (|u_t| > ztol, w_c > 0) reaching u_t = 0, but at least
 * hmin. *ev is 2c (+1 for a normal event) of the event taken, or 2m when h or hmin was taken.
 */
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 2 * m - 1)) && \valid_read(rate + (0 .. 2 * m - 1));
    requires \valid_read(w + (0 .. m - 1));
    requires 0 <= hmin <= h;
    requires \valid(ev);
    requires \separated(ev, u + (0 .. 2 * m - 1), rate + (0 .. 2 * m - 1), w + (0 .. m - 1));
    assigns *ev;
    ensures hmin <= \result <= h;
    ensures *ev <= 2 * m + 1;
 */
static double seg_len(size_t m, const double *u, const double *rate, const double *w,
                      double h, double hmin, double ztol, size_t *ev)
{
    double len = h;
    *ev = 2 * m;
    /*@ loop invariant 0 <= c <= m;
        loop invariant 0 <= len <= h;
        loop invariant *ev <= 2 * m;
        loop assigns c, len, *ev;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (!(w[c] > 0.0)) {
            continue;
        }
        double un = u[2 * c + 1];
        double rn = rate[2 * c + 1];
        if (rn > 0.0 && un < 0.0) {
            double l = -un / rn;
            if (l < len) {
                len = l < 0.0 ? 0.0 : l;
                *ev = 2 * c + 1;
            }
        }
        double ut = u[2 * c];
        double rt = rate[2 * c];
        if ((ut > ztol && rt < 0.0) || (ut < -ztol && rt > 0.0)) {
            double l = -ut / rt;
            if (l < len) {
                len = l < 0.0 ? 0.0 : l;
                *ev = 2 * c;
            }
        }
    }
    if (len < hmin) {
        /* events closer than hmin (Zeno-like alternation) are stepped over */
        len = hmin;
        *ev = 2 * m + 1;
    }
    return len;
}

/* x += a·y over len entries. */
/*@ requires len <= NSM_MAX_DIM;
    requires \valid(x + (0 .. len - 1)) && \valid_read(y + (0 .. len - 1));
    assigns x[0 .. len - 1];
 */
static void axpy(size_t len, double a, const double *y, double *x)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, x[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        x[i] += a * y[i];
    }
}

/* Validation of options and policy (pointers non-NULL, m in range). */
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires \valid_read(pol) && \valid_read(opts);
    requires pol->kind != NSM_POLICY_SEQUENTIAL || pol->order == \null ||
             \valid_read(pol->order + (0 .. m - 1));
    requires pol->kind != NSM_POLICY_SIMULTANEOUS || pol->ratios == \null ||
             \valid_read(pol->ratios + (0 .. m - 1));
    assigns \nothing;
    ensures ok: \result == NSM_OK ==>
      1 <= opts->steps <= 1000000 && 1 <= opts->fw_iters <= 1000000 &&
      1 <= opts->fallback_steps <= 100000000 &&
      opts->ztol >= 0 && opts->ntol >= 0 && opts->vtol >= 0 &&
      (pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_SIMULTANEOUS ||
       pol->kind == NSM_POLICY_SAMPLED) &&
      (pol->kind == NSM_POLICY_SEQUENTIAL ==> pol->order != \null) &&
      (pol->kind == NSM_POLICY_SIMULTANEOUS ==> pol->ratios != \null) &&
      (pol->kind == NSM_POLICY_SAMPLED ==> pol->hold >= 1);
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG || \result == NSM_ERR_NULL ||
                    \result == NSM_ERR_NOT_FINITE;
 */
static nsm_status check_policy(size_t m, const nsm_impact_policy *pol,
                               const nsm_impact_opts *opts)
{
    if (opts->steps < 1 || opts->steps > 1000000u || opts->fw_iters < 1 ||
        opts->fw_iters > 1000000u || opts->fallback_steps < 1 ||
        opts->fallback_steps > 100000000u) {
        return NSM_ERR_ARG;
    }
    if (!(opts->ztol >= 0.0) || !(opts->ntol >= 0.0) || !(opts->vtol >= 0.0) ||
        !nsm_all_finite(1, &opts->ztol) || !nsm_all_finite(1, &opts->ntol) ||
        !nsm_all_finite(1, &opts->vtol)) {
        return NSM_ERR_ARG;
    }
    if (pol->kind == NSM_POLICY_SEQUENTIAL) {
        if (pol->order == NULL) {
            return NSM_ERR_NULL;
        }
        /* a permutation: every entry < m and distinct */
        /*@ loop invariant 0 <= i <= m;
            loop assigns i;
            loop variant m - i;
         */
        for (size_t i = 0; i < m; i++) {
            if (pol->order[i] >= m) {
                return NSM_ERR_ARG;
            }
            /*@ loop invariant 0 <= j <= i;
                loop assigns j;
                loop variant i - j;
             */
            for (size_t j = 0; j < i; j++) {
                if (pol->order[j] == pol->order[i]) {
                    return NSM_ERR_ARG;
                }
            }
        }
        return NSM_OK;
    }
    if (pol->kind == NSM_POLICY_SIMULTANEOUS) {
        if (pol->ratios == NULL) {
            return NSM_ERR_NULL;
        }
        if (!nsm_all_finite(m, pol->ratios)) {
            return NSM_ERR_NOT_FINITE;
        }
        /*@ loop invariant 0 <= i <= m;
            loop assigns i;
            loop variant m - i;
         */
        for (size_t i = 0; i < m; i++) {
            if (!(pol->ratios[i] > 0.0)) {
                return NSM_ERR_ARG;
            }
        }
        return NSM_OK;
    }
    if (pol->kind == NSM_POLICY_SAMPLED) {
        return pol->hold >= 1 ? NSM_OK : NSM_ERR_ARG;
    }
    return NSM_ERR_ARG;
}

/* 1 if any of the outputs overlaps an input or another output (sizes as validated). */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires need <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1));
    requires \valid_read(Jt + (0 .. m * n - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid_read(vm + (0 .. n - 1));
    requires \valid_read(vp + (0 .. n - 1)) && \valid_read(lam + (0 .. 2 * m - 1));
    requires \valid_read(work + (0 .. need - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int any_alias(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                     const double *mu, const double *vm, const double *vp, const double *lam,
                     const double *work, size_t need)
{
    size_t nn = n * n;
    size_t mn = m * n;
    size_t K = 2 * m;
    if (nsm_overlap(vp, n, M, nn) || nsm_overlap(vp, n, Jn, mn) || nsm_overlap(vp, n, Jt, mn) ||
        nsm_overlap(vp, n, mu, m) || nsm_overlap(vp, n, vm, n) || nsm_overlap(vp, n, lam, K) ||
        nsm_overlap(vp, n, work, need)) {
        return 1;
    }
    if (nsm_overlap(lam, K, M, nn) || nsm_overlap(lam, K, Jn, mn) ||
        nsm_overlap(lam, K, Jt, mn) || nsm_overlap(lam, K, mu, m) ||
        nsm_overlap(lam, K, vm, n) || nsm_overlap(lam, K, work, need)) {
        return 1;
    }
    if (nsm_overlap(work, need, M, nn) || nsm_overlap(work, need, Jn, mn) ||
        nsm_overlap(work, need, Jt, mn) || nsm_overlap(work, need, mu, m) ||
        nsm_overlap(work, need, vm, n)) {
        return 1;
    }
    return 0;
}

/* Validation of the data: mu >= 0, finiteness, symmetry of M. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1));
    requires \valid_read(Jt + (0 .. m * n - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid_read(vm + (0 .. n - 1));
    assigns \nothing;
    ensures ok: \result == NSM_OK ==> \forall integer c; 0 <= c < m ==> mu[c] >= 0;
 */
static nsm_status check_data(size_t n, size_t m, const double *M, const double *Jn,
                             const double *Jt, const double *mu, const double *vm)
{
    if (!nsm_all_finite(m, mu)) {
        return NSM_ERR_ARG;
    }
    /*@ loop invariant 0 <= c <= m;
        loop invariant \forall integer k; 0 <= k < c ==> mu[k] >= 0;
        loop assigns c;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (!(mu[c] >= 0.0)) {
            return NSM_ERR_ARG;
        }
    }
    if (!nsm_all_finite(n * n, M) || !nsm_all_finite(m * n, Jn) ||
        !nsm_all_finite(m * n, Jt) || !nsm_all_finite(n, vm)) {
        return NSM_ERR_NOT_FINITE;
    }
    if (!nsm_is_symmetric(n, M, 1e-12)) {
        return NSM_ERR_NOT_SPD;
    }
    return NSM_OK;
}

/* Fallback scale: sum over penetrating contacts of -u_n,c / W_nn,c (frictionless impulses). */
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 4 * m * m - 1)) && \valid_read(u + (0 .. 2 * m - 1));
    assigns \nothing;
    ensures \result >= 0;
 */
static double fallback_scale(size_t m, const double *W, const double *u, double ntol)
{
    size_t K = 2 * m;
    double sref = 0.0;
    /*@ loop invariant 0 <= c <= m;
        loop invariant sref >= 0;
        loop assigns c, sref;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        /*@ assert K * K == 4 * m * m; */
        lemma_idx(2 * c + 1, 2 * c + 1, K);
        double wnn = W[(2 * c + 1) * K + 2 * c + 1];
        double un = u[2 * c + 1];
        if (un < -ntol && wnn > 0.0) {
            double r = -un / wnn;
            if (r > 0.0) {
                sref += r;
            }
        }
    }
    return sref;
}

/* Minimum over contacts of J_n,c v computed from v (tmp: m scratch). */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires \valid_read(Jn + (0 .. m * n - 1)) && \valid_read(v + (0 .. n - 1));
    requires \valid(tmp + (0 .. m - 1));
    assigns tmp[0 .. m - 1];
 */
static double min_normal(size_t n, size_t m, const double *Jn, const double *v, double *tmp)
{
    matvec(m, n, Jn, v, tmp);
    double lo = tmp[0];
    /*@ loop invariant 1 <= c <= m;
        loop assigns c, lo;
        loop variant m - c;
     */
    for (size_t c = 1; c < m; c++) {
        if (tmp[c] < lo) {
            lo = tmp[c];
        }
    }
    return lo;
}

/* Largest |u_n,c| over contacts. */
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 2 * m - 1));
    assigns \nothing;
    ensures \result >= 0;
 */
static double max_abs_normal(size_t m, const double *u)
{
    double a = 0.0;
    /*@ loop invariant 0 <= c <= m;
        loop invariant a >= 0;
        loop assigns c, a;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double x = fabs(u[2 * c + 1]);
        if (x > a) {
            a = x;
        }
    }
    return a;
}

/* The stepping loop. Returns NSM_OK when no contact penetrates, NSM_ERR_BOUND when s would
   exceed the bound (has_bound), NSM_ERR_NO_CONVERGENCE at the step cap. */
/*@ requires 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires cap <= 4000000000;
    requires h >= 0;
    requires \valid_read(pol);
    requires pol->kind != NSM_POLICY_SEQUENTIAL || \valid_read(pol->order + (0 .. m - 1));
    requires pol->kind != NSM_POLICY_SIMULTANEOUS || \valid_read(pol->ratios + (0 .. m - 1));
    requires pol->kind != NSM_POLICY_SAMPLED || pol->hold >= 1;
    requires \valid_read(W + (0 .. 4 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid(u + (0 .. 2 * m - 1)) && \valid(lam + (0 .. 2 * m - 1));
    requires \valid(lh + (0 .. 2 * m - 1)) && \valid(rate + (0 .. 2 * m - 1));
    requires \valid(w + (0 .. m - 1)) && \valid(wraw + (0 .. m - 1));
    requires \valid(s) && \valid(steps) && \valid(forced);
    requires \separated(s, steps, forced, pol);
    requires \separated(s, u + (0 .. 2 * m - 1), lam + (0 .. 2 * m - 1), lh + (0 .. 2 * m - 1),
                        rate + (0 .. 2 * m - 1), w + (0 .. m - 1), wraw + (0 .. m - 1));
    requires \separated(steps, u + (0 .. 2 * m - 1), lam + (0 .. 2 * m - 1),
                        lh + (0 .. 2 * m - 1), rate + (0 .. 2 * m - 1), w + (0 .. m - 1),
                        wraw + (0 .. m - 1));
    requires \separated(forced, u + (0 .. 2 * m - 1), lam + (0 .. 2 * m - 1),
                        lh + (0 .. 2 * m - 1), rate + (0 .. 2 * m - 1), w + (0 .. m - 1),
                        wraw + (0 .. m - 1));
    assigns u[0 .. 2 * m - 1], lam[0 .. 2 * m - 1], lh[0 .. 2 * m - 1], rate[0 .. 2 * m - 1],
            w[0 .. m - 1], wraw[0 .. m - 1], *s, *steps, *forced;
    ensures \result == NSM_OK || \result == NSM_ERR_BOUND || \result == NSM_ERR_NO_CONVERGENCE;
    ensures *steps <= cap && *forced <= *steps;
 */
static nsm_status integrate(size_t m, const nsm_impact_policy *pol, const double *W,
                            const double *mu, double h, int has_bound, double bound, size_t cap,
                            double ztol, double ntol, double *u, double *lam, double *lh,
                            double *rate, double *w, double *wraw, double *s, size_t *steps,
                            size_t *forced)
{
    size_t K = 2 * m;
    policy_state ps;
    ps.cur = m;
    ps.rng = 1ul + (unsigned long)(pol->seed % (NSM_PRNG_MOD - 1ul));
    ps.held = 0;
    *s = 0.0;
    *steps = 0;
    *forced = 0;
    zero_vec(K, lam);
    zero_vec(m, wraw);
    double hmin = h / (double)NSM_IMPACT_MIN_STEP_RATIO;
    nsm_status res = NSM_ERR_NO_CONVERGENCE;
    int stop = 0;
    /*@ loop invariant 0 <= k <= cap;
        loop invariant *steps <= k;
        loop invariant *forced <= *steps;
        loop invariant 1 <= ps.rng < NSM_PRNG_MOD;
        loop invariant res == NSM_OK || res == NSM_ERR_BOUND || res == NSM_ERR_NO_CONVERGENCE;
        loop assigns k, ps, stop, res, u[0 .. K - 1], lam[0 .. K - 1], lh[0 .. K - 1],
                     rate[0 .. K - 1], w[0 .. m - 1], wraw[0 .. m - 1], *s, *steps, *forced;
        loop variant cap - k;
     */
    for (size_t k = 0; k < cap && !stop; k++) {
        if (count_pen(m, u, ntol) == 0) {
            res = NSM_OK;
            stop = 1;
        } else {
            choose_weights(m, pol, &ps, u, ntol, w, wraw);
            build_lamhat(m, W, u, mu, w, ztol, lh);
            matvec(K, K, W, lh, rate);
            size_t ev;
            double len = seg_len(m, u, rate, w, h, hmin, ztol, &ev);
            axpy(K, len, rate, u);
            axpy(K, len, lh, lam);
            *s += len;
            if (ev < K) {
                u[ev] = 0.0;
            } else if (ev > K) {
                *forced += 1;
            }
            *steps = k + 1;
            if (has_bound && *s > bound) {
                res = NSM_ERR_BOUND;
                stop = 1;
            }
        }
    }
    if (!stop && count_pen(m, u, ntol) == 0) {
        res = NSM_OK;
    }
    return res;
}


/*
 * Factorises M, forms J, X = M^-1 J^T, W = J X and u = J v- in the workspace, laid out as
 * L (n²), J (2mn), X (2mn), W (4m²), u, lam, lh, rate, f1 .. f4 (2m each), w, wraw (m each),
 * tmp (n).
 */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires valid_in: \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1)) &&
                       \valid_read(Jt + (0 .. m * n - 1)) && \valid_read(vm + (0 .. n - 1));
    requires valid_work: \valid(work + (0 .. nsm_impact_need(n, m) - 1));
    assigns work[0 .. nsm_impact_need(n, m) - 1];
 */
static nsm_status impact_prepare(size_t n, size_t m, const double *M, const double *Jn,
                                 const double *Jt, const double *vm, double *work)
{
    size_t K = 2 * m;
    /*@ assert K * n == 2 * m * n && K * K == 4 * m * m; */
    double *L = work;
    double *J = L + n * n;
    double *X = J + K * n;
    double *W = X + K * n;
    double *u = W + K * K;
    copy_vec(n * n, M, L);
    nsm_status st = nsm_chol_factor(n, L);
    if (st != NSM_OK) {
        return NSM_ERR_NOT_SPD;
    }
    build_J(n, m, Jn, Jt, J, X);
    st = nsm_chol_solve(n, K, L, X);
    if (st != NSM_OK) {
        return NSM_ERR_NOT_SPD;
    }
    gram(n, K, J, X, W);
    matvec(K, n, J, vm, u);
    return NSM_OK;
}

/* The a priori bound, the step and the cap (fields bound, gamma_lb, fw_gap, has_bound,
   step_cap of *inf); returns h. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires valid_mu: \valid_read(mu + (0 .. m - 1)) && \valid_read(opts) && \valid(inf);
    requires opts: 1 <= opts->steps <= 1000000 && 1 <= opts->fw_iters <= 1000000 &&
                   1 <= opts->fallback_steps <= 100000000;
    requires valid_work: \valid(work + (0 .. nsm_impact_need(n, m) - 1));
    requires sep: \separated(inf, work + (0 .. nsm_impact_need(n, m) - 1));
    assigns work[0 .. nsm_impact_need(n, m) - 1], *inf;
    ensures h: \result >= 0;
    ensures cap: inf->step_cap <= 4000000000;
 */
static double impact_bound(size_t n, size_t m, const double *mu, const nsm_impact_opts *opts,
                           double *work, nsm_impact_info *inf)
{
    size_t K = 2 * m;
    /*@ assert K * n == 2 * m * n && K * K == 4 * m * m; */
    double *W = work + n * n + 2 * K * n;
    double *u = W + K * K;
    double *f1 = u + 4 * K;
    double *f2 = f1 + K;
    double *f3 = f2 + K;
    double *f4 = f3 + K;
    inf->bound = 0.0;
    inf->gamma_lb = 0.0;
    inf->fw_gap = 0.0;
    inf->has_bound = 0;
    if (m == 1) {
        double b1 = 0.0;
        if (nsm_routh_bound(W, u, mu[0], &b1) == NSM_OK && b1 > 0.0) {
            inf->bound = b1;
            inf->has_bound = 1;
        }
    } else {
        double gap = 0.0;
        double lb = fw_lower(m, mu, W, opts->fw_iters, f1, f2, f3, f4, &gap);
        inf->fw_gap = gap;
        if (lb > 0.0 && inf->energy_minus >= 0.0) {
            double g = sqrt(lb) * (1.0 - NSM_BOUND_RTOL);
            double b = 2.0 * sqrt(2.0 * inf->energy_minus) / g * (1.0 + NSM_BOUND_RTOL);
            if (b > 0.0) {
                inf->gamma_lb = g;
                inf->bound = b;
                inf->has_bound = 1;
            }
        }
    }
    double h;
    if (inf->has_bound && inf->bound > 0.0) {
        h = inf->bound / (double)opts->steps;
        inf->step_cap = opts->steps * NSM_IMPACT_MIN_STEP_RATIO + 1;
    } else {
        inf->has_bound = 0;
        h = fallback_scale(m, W, u, opts->ntol) / (double)opts->steps;
        inf->step_cap = opts->fallback_steps;
    }
    return h > 0.0 ? h : 0.0;
}

/* Everything after impact_prepare: the bound, the integration, v+ and the final check. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m && 2 * m <= NSM_MAX_DIM;
    requires valid_in: \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1)) &&
                       \valid_read(mu + (0 .. m - 1)) && \valid_read(vm + (0 .. n - 1));
    requires valid_pol: \valid_read(pol) && \valid_read(opts);
    requires pol: (pol->kind == NSM_POLICY_SEQUENTIAL ==> \valid_read(pol->order + (0 .. m - 1))) &&
                  (pol->kind == NSM_POLICY_SIMULTANEOUS ==> \valid_read(pol->ratios + (0 .. m - 1))) &&
                  (pol->kind == NSM_POLICY_SAMPLED ==> pol->hold >= 1);
    requires opts: 1 <= opts->steps <= 1000000 && 1 <= opts->fw_iters <= 1000000 &&
                   1 <= opts->fallback_steps <= 100000000;
    requires valid_out: \valid(vp + (0 .. n - 1)) && \valid(Lam + (0 .. 2 * m - 1)) &&
                        \valid(info);
    requires valid_work: \valid(work + (0 .. nsm_impact_need(n, m) - 1));
    requires sep: \separated(info, work + (0 .. nsm_impact_need(n, m) - 1)) &&
                  \separated(info, vp + (0 .. n - 1)) && \separated(info, Lam + (0 .. 2 * m - 1));
    assigns work[0 .. nsm_impact_need(n, m) - 1], vp[0 .. n - 1], Lam[0 .. 2 * m - 1], *info;
    ensures info_steps: \result == NSM_OK ==> info->steps <= info->step_cap;
 */
static nsm_status impact_core(size_t n, size_t m, const double *M, const double *Jn,
                              const double *mu, const double *vm, const nsm_impact_policy *pol,
                              const nsm_impact_opts *opts, double *vp, double *Lam,
                              nsm_impact_info *info, double *work)
{
    size_t K = 2 * m;
    /*@ assert K * n == 2 * m * n && K * K == 4 * m * m; */
    double *X = work + n * n + K * n;
    double *W = X + K * n;
    double *u = W + K * K;
    double *lam = u + K;
    double *lh = lam + K;
    double *rate = lh + K;
    double *w = rate + 5 * K;
    double *wraw = w + m;
    double *tmp = wraw + m;
    nsm_impact_info inf;
    inf.s = 0.0;
    inf.steps = 0;
    inf.forced = 0;
    inf.step_cap = 0;
    inf.terminated = 1;
    inf.energy_minus = energy(n, M, vm, tmp);
    inf.energy_plus = inf.energy_minus;
    inf.check_tol = opts->vtol * (1.0 + max_abs_normal(m, u));
    if (count_pen(m, u, opts->ntol) == 0) {
        inf.bound = 0.0;
        inf.gamma_lb = 0.0;
        inf.fw_gap = 0.0;
        inf.has_bound = 0;
        copy_vec(n, vm, vp);
        zero_vec(K, Lam);
        *info = inf;
        return NSM_OK;
    }
    double h = impact_bound(n, m, mu, opts, work, &inf);
    double s = 0.0;
    size_t steps = 0;
    size_t forced = 0;
    nsm_status rs = integrate(m, pol, W, mu, h, inf.has_bound, inf.bound, inf.step_cap,
                              opts->ztol, opts->ntol, u, lam, lh, rate, w, wraw, &s, &steps,
                              &forced);
    inf.s = s;
    inf.steps = steps;
    inf.forced = forced;
    inf.terminated = rs == NSM_OK;
    /* v+ = v- + M^-1 J^T Lambda */
    matvec(n, K, X, lam, vp);
    axpy(n, 1.0, vm, vp);
    copy_vec(K, lam, Lam);
    inf.energy_plus = energy(n, M, vp, tmp);
    if (rs == NSM_OK && !(min_normal(n, m, Jn, vp, rate) >= -inf.check_tol)) {
        inf.terminated = 0;
        rs = NSM_ERR_NO_CONVERGENCE;
    }
    *info = inf;
    if (!inf.has_bound) {
        return NSM_ERR_NO_BOUND;
    }
    return rs;
}

nsm_status nsm_impact_solve(size_t n, size_t m, const double *M, const double *Jn,
                            const double *Jt, const double *mu, const double *v_minus,
                            const nsm_impact_policy *pol, const nsm_impact_opts *opts,
                            double *v_plus, double *Lambda, nsm_impact_info *info, double *work,
                            size_t lwork)
{
    if (M == NULL || Jn == NULL || Jt == NULL || mu == NULL || v_minus == NULL || pol == NULL ||
        opts == NULL || v_plus == NULL || Lambda == NULL || info == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (n == 0 || n > NSM_MAX_DIM || m == 0 || m > NSM_MAX_DIM / 2) {
        return NSM_ERR_SIZE;
    }
    size_t need = nsm_impact_work(n, m);
    if (need == 0) {
        return NSM_ERR_SIZE;
    }
    if (lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    if (any_alias(n, m, M, Jn, Jt, mu, v_minus, v_plus, Lambda, work, need)) {
        return NSM_ERR_ALIAS;
    }
    nsm_status st = check_policy(m, pol, opts);
    if (st != NSM_OK) {
        return st;
    }
    st = check_data(n, m, M, Jn, Jt, mu, v_minus);
    if (st != NSM_OK) {
        return st;
    }
    st = impact_prepare(n, m, M, Jn, Jt, v_minus, work);
    if (st != NSM_OK) {
        return st;
    }
    return impact_core(n, m, M, Jn, mu, v_minus, pol, opts, v_plus, Lambda, info, work);
}
