/*
 * The multi-contact impact integrator (planar d = 1 or spatial d = 2 contacts) with its a
 * priori termination bound.
 *
 * Internally every contact takes three slots (t1, t2, n) of the impulse space, whatever d is:
 * for d = 1 the t2 row of J is zero, so its slots stay exactly 0 and the planar arithmetic is
 * unchanged (adding exact zeros), while every index is linear in the contact number (3c + j),
 * which keeps the proof obligations linear.
 */
#include "nsmech/contact.h"
#include "nsmech/linalg.h"
#include "../nsm_math.h"
#include "internal.h"
#include "slide.h"

/* A spatial slip stops where its segment passes within NSM_HEADON·|u_t| of rest. */
#define NSM_HEADON 0.05

size_t nsm_impact_work(size_t n, size_t m)
{
    if (n == 0 || n > NSM_MAX_DIM || m == 0 || m > NSM_MAX_DIM / 3) {
        return 0;
    }
    size_t need = n * n + 6 * m * n + 9 * m * m + 26 * m + n;
    return need <= NSM_MAX_DIM * NSM_MAX_DIM ? need : 0;
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

/* J (3m×n): row 3c = t1 row of contact c, row 3c + 1 = its t2 row (zero when d = 1), row
   3c + 2 = J_n,c; X (n×3m) = J^T. Jt holds m·d rows, contact by contact. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(Jn + (0 .. m * n - 1)) && \valid_read(Jt + (0 .. d * m * n - 1));
    requires \valid(J + (0 .. 3 * m * n - 1)) && \valid(X + (0 .. 3 * m * n - 1));
    assigns J[0 .. 3 * m * n - 1], X[0 .. 3 * m * n - 1];
 */
static void build_J(size_t n, size_t m, size_t d, const double *Jn, const double *Jt, double *J,
                    double *X)
{
    size_t K = 3 * m;
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, J[0 .. 3 * m * n - 1], X[0 .. 3 * m * n - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        /*@ assert c * n + n <= m * n; */
        /*@ assert (3 * c + 2) * n + n <= 3 * m * n; */
        /*@ assert d == 2 ==> (2 * c + 1) * n + n <= d * m * n; */
        /*@ assert d == 1 ==> c * n + n <= d * m * n; */
        /*@ loop invariant 0 <= i <= n;
            loop assigns i, J[0 .. 3 * m * n - 1], X[0 .. 3 * m * n - 1];
            loop variant n - i;
         */
        for (size_t i = 0; i < n; i++) {
            /*@ assert i * K + 3 * c + 2 < 3 * m * n; */
            double t1 = d == 2 ? Jt[(2 * c) * n + i] : Jt[c * n + i];
            double t2 = d == 2 ? Jt[(2 * c + 1) * n + i] : 0.0;
            J[(3 * c) * n + i] = t1;
            J[(3 * c + 1) * n + i] = t2;
            J[(3 * c + 2) * n + i] = Jn[c * n + i];
            X[i * K + 3 * c] = t1;
            X[i * K + 3 * c + 1] = t2;
            X[i * K + 3 * c + 2] = Jn[c * n + i];
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

/* Euclidean norm of a tangential pair (a, b): |a| when d = 1 (b is then 0). */
/*@ assigns \nothing;
    ensures \result >= 0;
 */
static double tnorm(size_t d, double a, double b)
{
    if (d == 1) {
        return fabs(a);
    }
    double q = a * a + b * b;
    return q > 0.0 ? sqrt(q) : 0.0;
}

/* ---------------------------------------------------------------------------------------- */
/* Frank–Wolfe lower bound on gamma² = min Λ^T W Λ over the cone slice (sum Λ_n = 1)           */
/* ---------------------------------------------------------------------------------------- */

/* Frank–Wolfe runs opts.fw_iters iterations, then keeps doubling the budget while the duality
   gap shrinks by NSM_FW_SHRINK per doubling, up to NSM_FW_EXTEND times the budget and at most
   NSM_FW_MAX_ITERS iterations in all (or the budget, if larger). */
#define NSM_FW_EXTEND 64u
#define NSM_FW_MAX_ITERS 1000000u
#define NSM_FW_SHRINK 0.75
/* gamma² is taken as 0 (the contacts may wedge) when FW reaches a point of the slice with
   Λ^T W Λ <= NSM_WEDGE_RTOL · max_c W_nn,c. */
#define NSM_WEDGE_RTOL 1e-12

/* Largest normal diagonal entry W_nn,c of W (the scale of Λ^T W Λ on the slice). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1));
    assigns \nothing;
    ensures \result >= 0;
 */
static double max_normal_diag(size_t m, const double *W)
{
    size_t K = 3 * m;
    double a = 0.0;
    /*@ loop invariant 0 <= c <= m && a >= 0;
        loop assigns c, a;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        /*@ assert K * K == 9 * m * m; */
        lemma_idx(3 * c + 2, 3 * c + 2, K);
        double x = W[(3 * c + 2) * K + 3 * c + 2];
        a = x > a ? x : a;
    }
    return a;
}

/* Minimiser of g·Λ over the slice: at one contact c, Λ_n,c = 1 and Λ_t,c = -mu_c g_t,c/|g_t,c|
   (the value g_n,c - mu_c |g_t,c|); every other entry 0. Writes it to sv. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(g + (0 .. 3 * m - 1));
    requires \valid(sv + (0 .. 3 * m - 1));
    assigns sv[0 .. 3 * m - 1];
 */
static void fw_vertex(size_t m, size_t d, const double *mu, const double *g, double *sv)
{
    size_t best = 0;
    double bval = g[2] - mu[0] * tnorm(d, g[0], g[1]);
    /*@ loop invariant 1 <= c <= m;
        loop invariant 0 <= best < m;
        loop assigns c, best, bval;
        loop variant m - c;
     */
    for (size_t c = 1; c < m; c++) {
        double v = g[3 * c + 2] - mu[c] * tnorm(d, g[3 * c], g[3 * c + 1]);
        if (v < bval) {
            bval = v;
            best = c;
        }
    }
    zero_vec(3 * m, sv);
    double gn = tnorm(d, g[3 * best], g[3 * best + 1]);
    if (gn > 0.0) {
        sv[3 * best] = -mu[best] * g[3 * best] / gn;
        sv[3 * best + 1] = d == 2 ? -mu[best] * g[3 * best + 1] / gn : 0.0;
    }
    sv[3 * best + 2] = 1.0;
}

/*
 * Frank–Wolfe on f(Λ) = Λ^T W Λ over the slice, from the vertex (0, 0, 1) of contact 0, with
 * exact line search. Returns the best certified lower bound max_k (f(Λ_k) - gap_k) (may be
 * <= 0); *gap receives the last gap. lam, g, sv, dv (3m each) are scratch.
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires 1 <= iters <= 1000000;
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(W + (0 .. 9 * m * m - 1));
    requires \valid(lam + (0 .. 3 * m - 1)) && \valid(g + (0 .. 3 * m - 1));
    requires \valid(sv + (0 .. 3 * m - 1)) && \valid(dv + (0 .. 3 * m - 1));
    requires 1 <= iters <= 1000000;
    requires \valid(gap) && \valid(fval) && \separated(gap, fval);
    requires \separated(gap, lam + (0 .. 3 * m - 1), g + (0 .. 3 * m - 1), sv + (0 .. 3 * m - 1),
                        dv + (0 .. 3 * m - 1));
    requires \separated(fval, lam + (0 .. 3 * m - 1), g + (0 .. 3 * m - 1),
                        sv + (0 .. 3 * m - 1), dv + (0 .. 3 * m - 1));
    assigns lam[0 .. 3 * m - 1], g[0 .. 3 * m - 1], sv[0 .. 3 * m - 1], dv[0 .. 3 * m - 1], *gap,
            *fval;
 */
static double fw_lower(size_t m, size_t d, const double *mu, const double *W, size_t iters,
                       double wedge_tol, double *lam, double *g, double *sv, double *dv,
                       double *gap, double *fval)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    zero_vec(K, lam);
    lam[2] = 1.0;
    double lb = -1.0;
    *gap = 0.0;
    *fval = 0.0;
    size_t total = iters * NSM_FW_EXTEND;
    if (total > NSM_FW_MAX_ITERS) {
        total = iters > NSM_FW_MAX_ITERS ? iters : NSM_FW_MAX_ITERS;
    }
    size_t next = iters; /* the next checkpoint: iters, 2·iters, 4·iters, ... */
    double gap_mark = -1.0;
    /*@ loop invariant 0 <= k <= total;
        loop invariant 1 <= next;
        loop assigns k, lb, next, gap_mark, lam[0 .. K - 1], g[0 .. K - 1], sv[0 .. K - 1],
                     dv[0 .. K - 1], *gap, *fval;
        loop variant total - k;
     */
    for (size_t k = 0; k < total; k++) {
        if (k == next) {
            /* the budget is spent: go on, doubling it, only while the gap still shrinks by a
               quarter per doubling (FW's gap decreases like 1/k while it converges) */
            if (!(gap_mark < 0.0 || *gap <= NSM_FW_SHRINK * gap_mark)) {
                break;
            }
            gap_mark = *gap;
            next = next <= total / 2 ? 2 * next : total;
        }
        matvec(K, K, W, lam, g); /* g = W Λ: gradient / 2 */
        double f = dot(K, lam, g);
        *fval = f;
        fw_vertex(m, d, mu, g, sv);
        double gp = 2.0 * (f - dot(K, sv, g));
        *gap = gp;
        if (f - gp > lb) {
            lb = f - gp;
        }
        if (lb > 0.0 && lb >= 0.25 * f) {
            break; /* gamma certified within a factor 2 */
        }
        if (f <= wedge_tol) {
            break; /* a point of the slice with |J^T Λ| ~ 0: the contacts may wedge */
        }
        /*@ loop invariant 0 <= i <= K;
            loop assigns i, dv[0 .. K - 1];
            loop variant K - i;
         */
        for (size_t i = 0; i < K; i++) {
            dv[i] = sv[i] - lam[i];
        }
        matvec(K, K, W, dv, sv); /* sv = W dv */
        double dd = dot(K, dv, sv);
        double gd = dot(K, g, dv);
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
            lam[i] += t * dv[i];
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

/* Number of penetrating contacts. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 3 * m - 1));
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
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(pol);
    requires (pol->kind != NSM_POLICY_SEQUENTIAL && pol->kind != NSM_POLICY_PRIORITY) ||
             \valid_read(pol->order + (0 .. m - 1));
    requires pol->kind != NSM_POLICY_SIMULTANEOUS || \valid_read(pol->ratios + (0 .. m - 1));
    requires pol->kind != NSM_POLICY_SAMPLED || pol->hold >= 1;
    requires \valid(ps) && 1 <= ps->rng < NSM_PRNG_MOD;
    requires \valid_read(u + (0 .. 3 * m - 1));
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
    if (pol->kind == NSM_POLICY_PRIORITY) {
        /* the first penetrating contact of the order acts; those ahead of it are at rest */
        /*@ loop invariant 0 <= k <= m;
            loop assigns k, w[0 .. m - 1];
            loop variant m - k;
         */
        for (size_t k = 0; k < m; k++) {
            size_t c = pol->order[k];
            if (c < m && penetrating(m, u, c, ntol)) {
                w[c] = 1.0;
                break;
            }
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

/*
 * Spatial re-slip direction from rest (d = 2): the unit s with W_tn = (alpha·I + mu·W_tt)·s,
 * alpha > 0, when stick is impossible (|W_tt^-1 W_tn| > mu). |(alpha I + mu W_tt)^-1 W_tn| is
 * decreasing in alpha and at most 1 at alpha = |W_tn|: bisection on (0, |W_tn|].
 * (a, b, b, e) is W_tt, (p, q) is W_tn; writes s to (*s1, *s2).
 */
/*@ requires \valid(s1) && \valid(s2) && \separated(s1, s2);
    assigns *s1, *s2;
 */
static void reslip_dir(double mu, double a, double b, double e, double p, double q, double *s1,
                       double *s2)
{
    double lo = 0.0;
    double hi = sqrt(p * p + q * q);
    double x1 = 0.0;
    double x2 = 0.0;
    /*@ loop invariant 0 <= it <= 200;
        loop assigns it, lo, hi, x1, x2;
        loop variant 200 - it;
     */
    for (int it = 0; it < 200; it++) {
        double al = 0.5 * (lo + hi);
        double m11 = al + mu * a;
        double m12 = mu * b;
        double m22 = al + mu * e;
        double det = m11 * m22 - m12 * m12;
        if (!(det > 0.0)) {
            lo = al;
            continue;
        }
        x1 = (m22 * p - m12 * q) / det;
        x2 = (m11 * q - m12 * p) / det;
        if (x1 * x1 + x2 * x2 > 1.0) {
            lo = al;
        } else {
            hi = al;
        }
    }
    double nx = tnorm(2, x1, x2);
    if (nx > 0.0) {
        *s1 = x1 / nx;
        *s2 = x2 / nx;
    } else {
        *s1 = 0.0;
        *s2 = 0.0;
    }
}

/* Tangential impulse rate per unit weight of contact c (Routh's rule on its own block), written
   to (*r1, *r2) (r2 = 0 when d = 1); |(r1, r2)| <= mu. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m && (d == 1 || d == 2);
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    requires \valid(r1) && \valid(r2) && \separated(r1, r2);
    assigns *r1, *r2;
 */
static void friction_rate(size_t m, size_t d, const double *W, const double *u, size_t c,
                          double mu_in, double ztol, double *r1, double *r2)
{
    double muc = mu_in > 0.0 ? mu_in : 0.0;
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    lemma_idx(3 * c, 3 * c, K);
    lemma_idx(3 * c, 3 * c + 1, K);
    lemma_idx(3 * c, 3 * c + 2, K);
    lemma_idx(3 * c + 1, 3 * c + 1, K);
    lemma_idx(3 * c + 1, 3 * c + 2, K);
    double ut1 = u[3 * c];
    double ut2 = d == 2 ? u[3 * c + 1] : 0.0;
    double wtt = W[(3 * c) * K + 3 * c];
    double wtn = W[(3 * c) * K + 3 * c + 2];
    *r2 = 0.0;
    if (muc == 0.0) {
        *r1 = 0.0;
        return;
    }
    if (d == 1) {
        double r;
        if (ut1 > ztol) {
            r = -muc;
        } else if (ut1 < -ztol) {
            r = muc;
        } else if (wtt > 0.0 && muc * wtt >= fabs(wtn)) {
            r = -wtn / wtt;
        } else {
            r = wtn > 0.0 ? -muc : muc;
        }
        *r1 = r > muc ? muc : (r < -muc ? -muc : r);
        return;
    }
    double sp = tnorm(2, ut1, ut2);
    if (sp > ztol && sp > 0.0) {
        *r1 = -muc * ut1 / sp;
        *r2 = -muc * ut2 / sp;
        return;
    }
    /* at rest: stick if the own block allows it, else re-slip */
    double w12 = W[(3 * c) * K + 3 * c + 1];
    double w22 = W[(3 * c + 1) * K + 3 * c + 1];
    double w2n = W[(3 * c + 1) * K + 3 * c + 2];
    double det = wtt * w22 - w12 * w12;
    double x1 = 0.0;
    double x2 = 0.0;
    if (det > 0.0 && wtt > 0.0) {
        x1 = -(w22 * wtn - w12 * w2n) / det;
        x2 = -(wtt * w2n - w12 * wtn) / det;
        if (x1 * x1 + x2 * x2 <= muc * muc) {
            *r1 = x1;
            *r2 = x2;
            return;
        }
        double s1 = 0.0;
        double s2 = 0.0;
        reslip_dir(muc, wtt, w12, w22, wtn, w2n, &s1, &s2);
        *r1 = -muc * s1;
        *r2 = -muc * s2;
        return;
    }
    *r1 = 0.0;
}

/* lamhat (3m) from weights: (w_c·r1_c, w_c·r2_c, w_c) per contact. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(w + (0 .. m - 1));
    requires \valid(lh + (0 .. 3 * m - 1));
    assigns lh[0 .. 3 * m - 1];
 */
static void build_lamhat(size_t m, size_t d, const double *W, const double *u, const double *mu,
                         const double *w, double ztol, double *lh)
{
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, lh[0 .. 3 * m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double r1 = 0.0;
        double r2 = 0.0;
        if (w[c] > 0.0) {
            friction_rate(m, d, W, u, c, mu[c], ztol, &r1, &r2);
        }
        lh[3 * c] = w[c] * r1;
        lh[3 * c + 1] = w[c] * r2;
        lh[3 * c + 2] = w[c];
    }
}

/*
 * Segment length: min(h, first event) where an event is a penetrating contact (w_c > 0)
 * reaching u_n = 0, or a slipping one (|u_t| > ztol, w_c > 0) reaching u_t = 0, but at least
 * hmin. For d = 2 a slip only stops where the segment heads into the origin (its closest
 * approach within NSM_HEADON·|u_t| of it); otherwise the slip swings round and, unless an
 * event comes first, the segment is limited to cap (see slip_cap). *ev is 3c + 2 for a
 * normal event, 3c for a tangential one, 3m when h or cap was taken and 3m + 1 when hmin was.
 * With watch, a contact without weight reaching u_n = 0 from above is an event too (it may
 * then be held at rest). A contact with weight at normal rest (u_n >= -ntol: held) has no
 * normal event: its rate is 0 or it separates.
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(rate + (0 .. 3 * m - 1));
    requires \valid_read(w + (0 .. m - 1));
    requires 0 <= hmin <= h;
    requires \valid(ev);
    requires \separated(ev, u + (0 .. 3 * m - 1), rate + (0 .. 3 * m - 1), w + (0 .. m - 1));
    assigns *ev;
    ensures hmin <= \result <= h;
    ensures *ev <= 3 * m + 1;
 */
static double seg_len(size_t m, size_t d, const double *u, const double *rate, const double *w,
                      double h, double hmin, double cap, double ztol, double ntol, int watch,
                      size_t *ev)
{
    double len = h;
    *ev = 3 * m;
    /*@ loop invariant 0 <= c <= m;
        loop invariant 0 <= len <= h;
        loop invariant *ev <= 3 * m;
        loop assigns c, len, *ev;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double un = u[3 * c + 2];
        double rn = rate[3 * c + 2];
        if (!(w[c] > 0.0)) {
            if (watch && un > 0.0 && rn < 0.0 && -un / rn < len) {
                /* a separating contact driven back to rest: from there it may be held */
                len = -un / rn;
                *ev = 3 * c + 2;
            }
            continue;
        }
        if (rn > 0.0 && un < -ntol) {
            double l = -un / rn;
            if (l < len) {
                len = l < 0.0 ? 0.0 : l;
                *ev = 3 * c + 2;
            }
        }
        double ut = u[3 * c];
        double rt = rate[3 * c];
        double l = len;
        int hit = 0;
        if (d == 1) {
            if ((ut > ztol && rt < 0.0) || (ut < -ztol && rt > 0.0)) {
                l = -ut / rt;
                hit = 1;
            }
        } else {
            double ut2 = u[3 * c + 1];
            double rt2 = rate[3 * c + 1];
            double ur = ut * rt + ut2 * rt2;
            double rr = rt * rt + rt2 * rt2;
            double uu = ut * ut + ut2 * ut2;
            if (tnorm(2, ut, ut2) > ztol && ur < 0.0 && rr > 0.0) {
                /* squared distance of the closest approach: |u|² - (u·r)²/|r|² */
                double dist2 = uu - (ur / rr) * ur;
                if (dist2 <= NSM_HEADON * NSM_HEADON * uu) {
                    l = -ur / rr;
                    hit = 1;
                }
            }
        }
        if (hit && l < len) {
            len = l < 0.0 ? 0.0 : l;
            *ev = 3 * c;
        }
    }
    if ((*ev == 3 * m || *ev % 3 == 2) && cap < len) {
        /* the slip directions turn within this segment: shorten it */
        len = cap < 0.0 ? 0.0 : cap;
        *ev = 3 * m;
    }
    if (len < hmin) {
        /* events closer than hmin (Zeno-like alternation) are stepped over */
        len = hmin;
        *ev = 3 * m + 1;
    }
    return len;
}

/*
 * Longest segment over which the spatial slip directions may be frozen (d = 2). A direction
 * u_t/|u_t| turns at a rate of order |r_t|/|u_t| per unit impulse, and near rest the
 * direction equation is stiff (rate of order mu·w·tr W_tt/|u_t|): an explicit step longer
 * than that amplifies the error perpendicular to the slip instead of damping it. Returns
 * min over slipping contacts of |u_t|/(4|r_t| + mu·w·tr W_tt) (h when none), never below hmin.
 */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(w + (0 .. m - 1));
    requires \valid_read(rate + (0 .. 3 * m - 1));
    requires 0 <= hmin <= h;
    assigns \nothing;
    ensures hmin <= \result <= h;
 */
static double slip_cap(size_t m, const double *W, const double *mu, const double *w,
                       const double *u, const double *rate, double h, double hmin, double ztol)
{
    size_t K = 3 * m;
    double cap = h;
    /*@ loop invariant 0 <= c <= m;
        loop invariant hmin <= cap <= h;
        loop assigns c, cap;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        /*@ assert K * K == 9 * m * m; */
        lemma_idx(3 * c, 3 * c, K);
        lemma_idx(3 * c + 1, 3 * c + 1, K);
        double sp = tnorm(2, u[3 * c], u[3 * c + 1]);
        double turn = 4.0 * tnorm(2, rate[3 * c], rate[3 * c + 1]) +
                      mu[c] * w[c] * (W[(3 * c) * K + 3 * c] + W[(3 * c + 1) * K + 3 * c + 1]);
        if (w[c] > 0.0 && sp > ztol && turn > 0.0) {
            double l = sp / turn;
            if (l < cap) {
                cap = l < hmin ? hmin : l;
            }
        }
    }
    return cap;
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
/* After a segment with joint stick rates: a contact that sticks strictly inside its cone
   (|r_c| < mu_c w_c) is put back at u_t = 0, dropping the Gauss–Seidel residual of its rate,
   which would otherwise accumulate past ztol and restart the stick/slip alternation. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(w + (0 .. m - 1));
    requires \valid_read(lh + (0 .. 3 * m - 1)) && \valid(u + (0 .. 3 * m - 1));
    assigns u[0 .. 3 * m - 1];
 */
static void snap_stuck(size_t m, const double *mu, const double *w, const double *lh,
                       double ztol, double *u)
{
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, u[0 .. 3 * m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (w[c] > 0.0 && mu[c] > 0.0 && fabs(lh[3 * c]) < mu[c] * w[c] &&
            fabs(u[3 * c]) <= ztol) {
            u[3 * c] = 0.0;
        }
    }
}

/*@ // the policy and its array (the one its kind reads, when given) can be read
    predicate pol_readable(integer m, nsm_impact_policy *pol) =
      \valid_read(pol) &&
      ((pol->kind != NSM_POLICY_SEQUENTIAL && pol->kind != NSM_POLICY_PRIORITY) ||
       pol->order == \null ||
       \valid_read(pol->order + (0 .. m - 1))) &&
      (pol->kind != NSM_POLICY_SIMULTANEOUS || pol->ratios == \null ||
       \valid_read(pol->ratios + (0 .. m - 1)));
    // the options and the policy are in their domains (what the integrator relies on)
    predicate args_ok(nsm_impact_policy *pol, nsm_impact_opts *opts) =
      1 <= opts->steps <= 1000000 && 1 <= opts->fw_iters <= 1000000 &&
      1 <= opts->fallback_steps <= 100000000 &&
      opts->ztol >= 0 && opts->ntol >= 0 && opts->vtol >= 0 &&
      (pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_SIMULTANEOUS ||
       pol->kind == NSM_POLICY_SAMPLED || pol->kind == NSM_POLICY_PRIORITY) &&
      ((pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY) ==>
       pol->order != \null) &&
      (pol->kind == NSM_POLICY_SIMULTANEOUS ==> pol->ratios != \null) &&
      (pol->kind == NSM_POLICY_SAMPLED ==> pol->hold >= 1);
 */

/* Faults of the options and the policy, in the order the checks find them (policy_fault);
   each names one argument (fault_name) and maps to one status (fault_status). */
#define F_NONE 0
#define F_STEPS 1
#define F_FW_ITERS 2
#define F_FALLBACK 3
#define F_ZTOL 4
#define F_NTOL 5
#define F_VTOL 6
#define F_ORDER_NULL 7
#define F_ORDER 8
#define F_RATIOS_NULL 9
#define F_RATIOS_NAN 10
#define F_RATIOS 11
#define F_HOLD 12
#define F_KIND 13

/* 1 if x >= 0 and finite. */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> x >= 0;
 */
static int nonneg_finite(double x)
{
    const double a[1] = {x};
    return x >= 0.0 && nsm_all_finite(1, a) ? 1 : 0;
}

/* 1 if order[0 .. m-1] is a permutation of 0 .. m-1 (every entry < m, all distinct). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(order + (0 .. m - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int is_permutation(size_t m, const size_t *order)
{
    /*@ loop invariant 0 <= i <= m;
        loop assigns i;
        loop variant m - i;
     */
    for (size_t i = 0; i < m; i++) {
        if (order[i] >= m) {
            return 0;
        }
        /*@ loop invariant 0 <= j <= i;
            loop assigns j;
            loop variant i - j;
         */
        for (size_t j = 0; j < i; j++) {
            if (order[j] == order[i]) {
                return 0;
            }
        }
    }
    return 1;
}

/* The first fault of the options and the policy (m in range), F_NONE if there is none. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(opts) && pol_readable(m, pol);
    assigns \nothing;
    ensures range: F_NONE <= \result <= F_KIND;
    ensures ok: \result == F_NONE ==> args_ok(pol, opts);
 */
static int policy_fault(size_t m, const nsm_impact_policy *pol, const nsm_impact_opts *opts)
{
    if (opts->steps < 1 || opts->steps > 1000000u) {
        return F_STEPS;
    }
    if (opts->fw_iters < 1 || opts->fw_iters > 1000000u) {
        return F_FW_ITERS;
    }
    if (opts->fallback_steps < 1 || opts->fallback_steps > 100000000u) {
        return F_FALLBACK;
    }
    if (!nonneg_finite(opts->ztol)) {
        return F_ZTOL;
    }
    if (!nonneg_finite(opts->ntol)) {
        return F_NTOL;
    }
    if (!nonneg_finite(opts->vtol)) {
        return F_VTOL;
    }
    if (pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY) {
        if (pol->order == NULL) {
            return F_ORDER_NULL;
        }
        return is_permutation(m, pol->order) ? F_NONE : F_ORDER;
    }
    if (pol->kind == NSM_POLICY_SIMULTANEOUS) {
        if (pol->ratios == NULL) {
            return F_RATIOS_NULL;
        }
        if (!nsm_all_finite(m, pol->ratios)) {
            return F_RATIOS_NAN;
        }
        /*@ loop invariant 0 <= i <= m;
            loop assigns i;
            loop variant m - i;
         */
        for (size_t i = 0; i < m; i++) {
            if (!(pol->ratios[i] > 0.0)) {
                return F_RATIOS;
            }
        }
        return F_NONE;
    }
    if (pol->kind == NSM_POLICY_SAMPLED) {
        return pol->hold >= 1 ? F_NONE : F_HOLD;
    }
    return F_KIND;
}

/* The status of a fault: a missing array NSM_ERR_NULL, non-finite ratios
   NSM_ERR_NOT_FINITE, any other NSM_ERR_ARG. */
/*@ assigns \nothing;
    ensures ok: \result == NSM_OK <==> f == F_NONE;
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG || \result == NSM_ERR_NULL ||
                    \result == NSM_ERR_NOT_FINITE;
 */
static nsm_status fault_status(int f)
{
    if (f == F_NONE) {
        return NSM_OK;
    }
    if (f == F_ORDER_NULL || f == F_RATIOS_NULL) {
        return NSM_ERR_NULL;
    }
    return f == F_RATIOS_NAN ? NSM_ERR_NOT_FINITE : NSM_ERR_ARG;
}

/* The argument a fault is about, as nsm_impact_arg_fault names it. */
/*@ assigns \result \from f; */
static const char *fault_name(int f)
{
    switch (f) {
    case F_STEPS: return "opts.steps";
    case F_FW_ITERS: return "opts.fw_iters";
    case F_FALLBACK: return "opts.fallback_steps";
    case F_ZTOL: return "opts.ztol";
    case F_NTOL: return "opts.ntol";
    case F_VTOL: return "opts.vtol";
    case F_ORDER_NULL:
    case F_ORDER: return "pol.order";
    case F_RATIOS_NULL:
    case F_RATIOS_NAN:
    case F_RATIOS: return "pol.ratios";
    case F_HOLD: return "pol.hold";
    case F_KIND: return "pol.kind";
    default: return NULL;
    }
}

/* Validation of options and policy (pointers non-NULL, m in range). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(opts) && pol_readable(m, pol);
    assigns \nothing;
    ensures ok: \result == NSM_OK ==> args_ok(pol, opts);
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG || \result == NSM_ERR_NULL ||
                    \result == NSM_ERR_NOT_FINITE;
 */
static nsm_status check_policy(size_t m, const nsm_impact_policy *pol,
                               const nsm_impact_opts *opts)
{
    return fault_status(policy_fault(m, pol, opts));
}

/* 1 if some mu[c] is negative or not finite (NSM_ERR_ARG: mu is a parameter, not data). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(mu + (0 .. m - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures ok: \result == 0 ==> \forall integer c; 0 <= c < m ==> mu[c] >= 0;
 */
static int mu_fault(size_t m, const double *mu)
{
    if (!nsm_all_finite(m, mu)) {
        return 1;
    }
    /*@ loop invariant 0 <= c <= m;
        loop invariant \forall integer k; 0 <= k < c ==> mu[k] >= 0;
        loop assigns c;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (!(mu[c] >= 0.0)) {
            return 1;
        }
    }
    return 0;
}

const char *nsm_impact_arg_fault(size_t m, size_t d, const double *mu,
                                 const nsm_impact_policy *pol, const nsm_impact_opts *opts)
{
    if (pol == NULL) {
        return "pol";
    }
    if (mu == NULL) {
        return "mu";
    }
    if (d != 1 && d != 2) {
        return "d";
    }
    if (m == 0 || m > NSM_MAX_DIM / 3) {
        return "m";
    }
    nsm_impact_opts o = NSM_IMPACT_OPTS_DEFAULT;
    if (opts != NULL) {
        o = *opts;
    }
    int f = policy_fault(m, pol, &o);
    if (f != F_NONE) {
        return fault_name(f);
    }
    if (mu_fault(m, mu)) {
        return "mu";
    }
    return NULL;
}

/* 1 if any of the outputs overlaps an input or another output (sizes as validated). */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires need <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1));
    requires \valid_read(Jt + (0 .. d * m * n - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid_read(vm + (0 .. n - 1));
    requires \valid_read(vp + (0 .. n - 1)) && \valid_read(lam + (0 .. (d + 1) * m - 1));
    requires \valid_read(work + (0 .. need - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int any_alias(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                     const double *Jt, const double *mu, const double *vm, const double *vp,
                     const double *lam, const double *work, size_t need)
{
    size_t nn = n * n;
    size_t mn = m * n;
    size_t tn = d * m * n;
    size_t K = (d + 1) * m;
    if (nsm_overlap(vp, n, M, nn) || nsm_overlap(vp, n, Jn, mn) || nsm_overlap(vp, n, Jt, tn) ||
        nsm_overlap(vp, n, mu, m) || nsm_overlap(vp, n, vm, n) || nsm_overlap(vp, n, lam, K) ||
        nsm_overlap(vp, n, work, need)) {
        return 1;
    }
    if (nsm_overlap(lam, K, M, nn) || nsm_overlap(lam, K, Jn, mn) ||
        nsm_overlap(lam, K, Jt, tn) || nsm_overlap(lam, K, mu, m) ||
        nsm_overlap(lam, K, vm, n) || nsm_overlap(lam, K, work, need)) {
        return 1;
    }
    if (nsm_overlap(work, need, M, nn) || nsm_overlap(work, need, Jn, mn) ||
        nsm_overlap(work, need, Jt, tn) || nsm_overlap(work, need, mu, m) ||
        nsm_overlap(work, need, vm, n)) {
        return 1;
    }
    return 0;
}

/* 1 if the bytes of *info overlap any other argument, the policy's arrays included (info is
   written last: an overlap would overwrite an input or a result). Sizes as validated. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires need <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(pol);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int info_alias(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                      const double *Jt, const double *mu, const double *vm,
                      const nsm_impact_policy *pol, const nsm_impact_opts *opts,
                      const double *vp, const double *lam, const double *work, size_t need,
                      const nsm_impact_info *info)
{
    /*@ assert n * n <= NSM_MAX_DIM * NSM_MAX_DIM; */
    const size_t b = sizeof(double);
    const uintptr_t a = (uintptr_t)info;
    const size_t ni = sizeof(nsm_impact_info);
    /* the policy's arrays only where its kind uses them (unused fields may be anything) */
    size_t nord = pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY
                      ? m * sizeof(size_t)
                      : 0;
    size_t nrat = pol->kind == NSM_POLICY_SIMULTANEOUS ? m * b : 0;
    /* an unused field is not even read: its value may be indeterminate */
    const uintptr_t ord = nord != 0 ? (uintptr_t)pol->order : 0;
    const uintptr_t rat = nrat != 0 ? (uintptr_t)pol->ratios : 0;
    int bad = nsm_overlap_bytes(a, ni, (uintptr_t)M, n * n * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)Jn, m * n * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)Jt, d * m * n * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)mu, m * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)vm, n * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)vp, n * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)lam, (d + 1) * m * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)work, need * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)pol, sizeof(nsm_impact_policy)) |
              nsm_overlap_bytes(a, ni, (uintptr_t)opts, opts != NULL ? sizeof *opts : 0) |
              nsm_overlap_bytes(a, ni, ord, nord) | nsm_overlap_bytes(a, ni, rat, nrat);
    return bad != 0 ? 1 : 0;
}

/* 1 if v_plus, Lambda or the work overlaps *pol or the policy's order or ratios (for the kind
   that reads them): the policy is read while those are written. (opts is copied before any
   write, so only info, written last, is checked against it.) Sizes as validated. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires need <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(pol);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int pol_alias(size_t n, size_t m, size_t d, const nsm_impact_policy *pol,
                     const double *vp, const double *lam, const double *work, size_t need)
{
    const size_t b = sizeof(double);
    const size_t np = sizeof(nsm_impact_policy);
    size_t nord = pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY
                      ? m * sizeof(size_t)
                      : 0;
    size_t nrat = pol->kind == NSM_POLICY_SIMULTANEOUS ? m * b : 0;
    const uintptr_t ord = nord != 0 ? (uintptr_t)pol->order : 0;
    const uintptr_t rat = nrat != 0 ? (uintptr_t)pol->ratios : 0;
    const uintptr_t ap = (uintptr_t)pol;
    const uintptr_t out[3] = {(uintptr_t)vp, (uintptr_t)lam, (uintptr_t)work};
    const size_t len[3] = {n * b, (d + 1) * m * b, need * b};
    int bad = 0;
    /*@ loop invariant 0 <= i <= 3;
        loop assigns i, bad;
        loop variant 3 - i;
     */
    for (size_t i = 0; i < 3; i++) {
        bad |= nsm_overlap_bytes(out[i], len[i], ap, np) |
               nsm_overlap_bytes(out[i], len[i], ord, nord) |
               nsm_overlap_bytes(out[i], len[i], rat, nrat);
    }
    return bad != 0 ? 1 : 0;
}

/* Validation of the data: mu >= 0, finiteness, symmetry of M. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1));
    requires \valid_read(Jt + (0 .. d * m * n - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid_read(vm + (0 .. n - 1));
    assigns \nothing;
    ensures ok: \result == NSM_OK ==> \forall integer c; 0 <= c < m ==> mu[c] >= 0;
 */
static nsm_status check_data(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                             const double *Jt, const double *mu, const double *vm)
{
    if (mu_fault(m, mu)) {
        return NSM_ERR_ARG;
    }
    if (!nsm_all_finite(n * n, M) || !nsm_all_finite(m * n, Jn) ||
        !nsm_all_finite(d * m * n, Jt) || !nsm_all_finite(n, vm)) {
        return NSM_ERR_NOT_FINITE;
    }
    if (!nsm_is_symmetric(n, M, 1e-12)) {
        return NSM_ERR_NOT_SPD;
    }
    return NSM_OK;
}

/* Fallback scale: sum over penetrating contacts of -u_n,c / W_nn,c (frictionless impulses). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    assigns \nothing;
    ensures \result >= 0;
 */
static double fallback_scale(size_t m, const double *W, const double *u, double ntol)
{
    size_t K = 3 * m;
    double sref = 0.0;
    /*@ loop invariant 0 <= c <= m;
        loop invariant sref >= 0;
        loop assigns c, sref;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        /*@ assert K * K == 9 * m * m; */
        lemma_idx(3 * c + 2, 3 * c + 2, K);
        double wnn = W[(3 * c + 2) * K + 3 * c + 2];
        double un = u[3 * c + 2];
        if (un < -ntol && wnn > 0.0) {
            double r = -un / wnn;
            if (r > 0.0) {
                sref += r;
            }
        }
    }
    return sref;
}

/* J_n,c v for one contact c. */
/*@ requires 1 <= n <= NSM_MAX_DIM && c < m && m <= NSM_MAX_DIM;
    requires \valid_read(Jn + (0 .. m * n - 1)) && \valid_read(v + (0 .. n - 1));
    assigns \nothing;
    ensures \result == nsm_rowdot(Jn, n, c, v, n);
 */
static double normal_vel(size_t n, size_t m, const double *Jn, size_t c, const double *v)
{
    /*@ assert c * n + n <= m * n; */
    (void)m;
    double acc = 0.0;
    /*@ loop invariant 0 <= i <= n;
        loop invariant acc == nsm_rowdot(Jn, n, c, v, i);
        loop assigns i, acc;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        acc += Jn[c * n + i] * v[i];
    }
    return acc;
}

/* The final check: 1 iff every contact has J_n,c v >= -tol. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m <= NSM_MAX_DIM;
    requires \valid_read(Jn + (0 .. m * n - 1)) && \valid_read(v + (0 .. n - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> nsm_rows_sep(Jn, v, m, n, tol);
 */
static int normals_ok(size_t n, size_t m, const double *Jn, const double *v, double tol)
{
    /*@ loop invariant 0 <= c <= m;
        loop invariant \forall integer k; 0 <= k < c ==> nsm_rowdot(Jn, n, k, v, n) >= -tol;
        loop assigns c;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (!(normal_vel(n, m, Jn, c, v) >= -tol)) {
            return 0;
        }
    }
    return 1;
}

/* Largest |u_n,c| over contacts. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(u + (0 .. 3 * m - 1));
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
        double x = fabs(u[3 * c + 2]);
        if (x > a) {
            a = x;
        }
    }
    return a;
}

/* Midpoint correction of a spatial segment: the friction directions at u + (len/2)·rate with
   the same weights give lh and rate for the whole segment (second order in the step). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(w + (0 .. m - 1));
    requires \valid(lh + (0 .. 3 * m - 1)) && \valid(rate + (0 .. 3 * m - 1));
    requires \valid(um + (0 .. 3 * m - 1));
    assigns lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1], um[0 .. 3 * m - 1];
 */
static void midpoint(size_t m, const double *W, const double *mu, const double *u,
                     const double *w, double len, double ztol, double *lh, double *rate,
                     double *um)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    copy_vec(K, u, um);
    axpy(K, 0.5 * len, rate, um);
    build_lamhat(m, 2, W, um, mu, w, ztol, lh);
    matvec(K, K, W, lh, rate);
}

/* The stepping loop. Returns NSM_OK when no contact penetrates, NSM_ERR_BOUND when s would
   exceed the bound (has_bound), NSM_ERR_NO_CONVERGENCE at the step cap. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires cap <= 4000000000;
    requires h >= 0;
    requires \valid_read(pol);
    requires (pol->kind != NSM_POLICY_SEQUENTIAL && pol->kind != NSM_POLICY_PRIORITY) ||
             \valid_read(pol->order + (0 .. m - 1));
    requires pol->kind != NSM_POLICY_SIMULTANEOUS || \valid_read(pol->ratios + (0 .. m - 1));
    requires pol->kind != NSM_POLICY_SAMPLED || pol->hold >= 1;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid(u + (0 .. 3 * m - 1)) && \valid(lam + (0 .. 3 * m - 1));
    requires \valid(lh + (0 .. 3 * m - 1)) && \valid(rate + (0 .. 3 * m - 1));
    requires \valid(um + (0 .. 3 * m - 1));
    requires \valid(w + (0 .. m - 1)) && \valid(wraw + (0 .. m - 1));
    requires \valid(s) && \valid(steps) && \valid(forced);
    requires \separated(s, steps, forced, pol);
    requires \separated(s, u + (0 .. 3 * m - 1), lam + (0 .. 3 * m - 1), lh + (0 .. 3 * m - 1),
                        rate + (0 .. 3 * m - 1), um + (0 .. 3 * m - 1), w + (0 .. m - 1),
                        wraw + (0 .. m - 1));
    requires \separated(steps, u + (0 .. 3 * m - 1), lam + (0 .. 3 * m - 1),
                        lh + (0 .. 3 * m - 1), rate + (0 .. 3 * m - 1), um + (0 .. 3 * m - 1),
                        w + (0 .. m - 1), wraw + (0 .. m - 1));
    requires \separated(forced, u + (0 .. 3 * m - 1), lam + (0 .. 3 * m - 1),
                        lh + (0 .. 3 * m - 1), rate + (0 .. 3 * m - 1), um + (0 .. 3 * m - 1),
                        w + (0 .. m - 1), wraw + (0 .. m - 1));
    assigns u[0 .. 3 * m - 1], lam[0 .. 3 * m - 1], lh[0 .. 3 * m - 1], rate[0 .. 3 * m - 1],
            um[0 .. 3 * m - 1], w[0 .. m - 1], wraw[0 .. m - 1], *s, *steps, *forced;
    ensures \result == NSM_OK || \result == NSM_ERR_BOUND || \result == NSM_ERR_NO_CONVERGENCE;
    ensures *steps <= cap && *forced <= *steps;
 */
static nsm_status integrate(size_t m, size_t d, const nsm_impact_policy *pol, const double *W,
                            const double *mu, double h, int has_bound, double bound, size_t cap,
                            double ztol, double ntol, double *u, double *lam, double *lh,
                            double *rate, double *um, double *w, double *wraw, double *s,
                            size_t *steps, size_t *forced)
{
    size_t K = 3 * m;
    policy_state ps;
    ps.cur = m;
    ps.rng = 1ul + (unsigned long)(pol->seed % (NSM_PRNG_MOD - 1ul));
    ps.held = 0;
    *s = 0.0;
    *steps = 0;
    *forced = 0;
    zero_vec(K, lam);
    zero_vec(K, lh);
    zero_vec(m, wraw);
    double hmin = h / (double)NSM_IMPACT_MIN_STEP_RATIO;
    /* planar simultaneous and sampled runs hold contacts at rest (nsm_slide_planar) */
    int slide = d == 1 && pol->kind != NSM_POLICY_SEQUENTIAL;
    nsm_status res = NSM_ERR_NO_CONVERGENCE;
    int stop = 0;
    /*@ loop invariant 0 <= k <= cap;
        loop invariant *steps <= k;
        loop invariant *forced <= *steps;
        loop invariant 1 <= ps.rng < NSM_PRNG_MOD;
        loop invariant res == NSM_OK || res == NSM_ERR_BOUND || res == NSM_ERR_NO_CONVERGENCE;
        loop assigns k, ps, stop, res, u[0 .. K - 1], lam[0 .. K - 1], lh[0 .. K - 1],
                     rate[0 .. K - 1], um[0 .. K - 1], w[0 .. m - 1], wraw[0 .. m - 1], *s,
                     *steps, *forced;
        loop variant cap - k;
     */
    for (size_t k = 0; k < cap && !stop; k++) {
        if (count_pen(m, u, ntol) == 0) {
            res = NSM_OK;
            stop = 1;
        } else {
            choose_weights(m, pol, &ps, u, ntol, w, wraw);
            int joint = 0;
            if (slide) {
                joint = nsm_slide_planar(m, W, u, mu, ztol, ntol, w, lh, rate);
            }
            if (!joint) {
                build_lamhat(m, d, W, u, mu, w, ztol, lh);
                matvec(K, K, W, lh, rate);
            }
            size_t ev;
            double lcap = d == 2 ? slip_cap(m, W, mu, w, u, rate, h, hmin, ztol) : h;
            double len = seg_len(m, d, u, rate, w, h, hmin, lcap, ztol, ntol, slide, &ev);
            if (d == 2) {
                /* directions at the midpoint; the events are then located on the segment
                   actually taken, so that an event sets exactly the velocity it reaches */
                midpoint(m, W, mu, u, w, len, ztol, lh, rate, um);
                double hm = hmin < len ? hmin : len;
                len = seg_len(m, d, u, rate, w, len, hm, len, ztol, ntol, slide, &ev);
            }
            axpy(K, len, rate, u);
            axpy(K, len, lh, lam);
            if (joint) {
                snap_stuck(m, mu, w, lh, ztol, u);
            }
            *s += len;
            if (ev < K) {
                u[ev] = 0.0;
                if (ev % 3 != 2) {
                    u[ev + 1] = 0.0; /* tangential event (slot t1): the slip has stopped */
                }
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
 * L (n²), J (3mn), X (3mn), W (9m²), u, lam, lh, rate, f1 .. f4 (3m each), w, wraw (m each),
 * tmp (n).
 */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires valid_in: \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1)) &&
                       \valid_read(Jt + (0 .. d * m * n - 1)) && \valid_read(vm + (0 .. n - 1));
    requires valid_work: \valid(work + (0 .. nsm_impact_need(n, m) - 1));
    assigns work[0 .. nsm_impact_need(n, m) - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_SPD || \result == NSM_ERR_OVERFLOW;
 */
static nsm_status impact_prepare(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                                 const double *Jt, const double *vm, double *work)
{
    size_t K = 3 * m;
    /*@ assert K * n == 3 * m * n && K * K == 9 * m * m; */
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
    build_J(n, m, d, Jn, Jt, J, X);
    st = nsm_chol_solve(n, K, L, X);
    if (st != NSM_OK) {
        return NSM_ERR_NOT_SPD;
    }
    gram(n, K, J, X, W);
    matvec(K, n, J, vm, u);
    if (!nsm_all_finite(K * K, W) || !nsm_all_finite(K, u)) {
        return NSM_ERR_OVERFLOW;
    }
    return NSM_OK;
}

/* The a priori bound, the step and the cap (fields bound, gamma_lb, fw_gap, has_bound,
   step_cap of *inf); returns h. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires valid_mu: \valid_read(mu + (0 .. m - 1)) && \valid_read(opts) && \valid(inf);
    requires opts: 1 <= opts->steps <= 1000000 && 1 <= opts->fw_iters <= 1000000 &&
                   1 <= opts->fallback_steps <= 100000000;
    requires valid_work: \valid(work + (0 .. nsm_impact_need(n, m) - 1));
    requires sep: \separated(inf, work + (0 .. nsm_impact_need(n, m) - 1));
    requires valid_wedge: \valid(wedge) && \separated(wedge, inf) &&
                          \separated(wedge, work + (0 .. nsm_impact_need(n, m) - 1));
    assigns work[0 .. nsm_impact_need(n, m) - 1], *inf, *wedge;
    ensures h: \result >= 0;
    ensures cap: inf->step_cap <= 4000000000;
    ensures wedge: *wedge == 0 || *wedge == 1;
 */
static double impact_bound(size_t n, size_t m, size_t d, const double *mu,
                           const nsm_impact_opts *opts, double *work, nsm_impact_info *inf,
                           int *wedge)
{
    size_t K = 3 * m;
    /*@ assert K * n == 3 * m * n && K * K == 9 * m * m; */
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
    *wedge = 0;
    if (m == 1 && d == 1) {
        /* Lemma 2 on the (t, n) block of W */
        double W2[4];
        double u2[2];
        W2[0] = W[0];
        W2[1] = W[2];
        W2[2] = W[6];
        W2[3] = W[8];
        u2[0] = u[0];
        u2[1] = u[2];
        double b1 = 0.0;
        if (nsm_routh_bound(W2, u2, mu[0], &b1) == NSM_OK && b1 > 0.0) {
            inf->bound = b1;
            inf->has_bound = 1;
        }
    } else {
        double gap = 0.0;
        double fval = 0.0;
        double wtol = NSM_WEDGE_RTOL * max_normal_diag(m, W);
        double lb = fw_lower(m, d, mu, W, opts->fw_iters, wtol, f1, f2, f3, f4, &gap, &fval);
        inf->fw_gap = gap;
        *wedge = !(lb > 0.0) && fval <= wtol;
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

/* Lambda ((d + 1)m, contact by contact) from the internal (t1, t2, n) layout. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(lam + (0 .. 3 * m - 1)) && \valid(Lam + (0 .. (d + 1) * m - 1));
    assigns Lam[0 .. (d + 1) * m - 1];
 */
static void pack_lambda(size_t m, size_t d, const double *lam, double *Lam)
{
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, Lam[0 .. (d + 1) * m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (d == 1) {
            Lam[2 * c] = lam[3 * c];
            Lam[2 * c + 1] = lam[3 * c + 2];
        } else {
            Lam[3 * c] = lam[3 * c];
            Lam[3 * c + 1] = lam[3 * c + 1];
            Lam[3 * c + 2] = lam[3 * c + 2];
        }
    }
}

/* 1 if v+, Lambda and the real fields of *inf are finite (finite data can overflow on the
   way: a huge mu, v- or an ill-scaled M). */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(vp + (0 .. n - 1)) && \valid_read(Lam + (0 .. (d + 1) * m - 1));
    requires \valid_read(inf);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int results_finite(size_t n, size_t m, size_t d, const double *vp, const double *Lam,
                          const nsm_impact_info *inf)
{
    const double x[7] = {inf->s,           inf->bound,       inf->gamma_lb, inf->fw_gap,
                         inf->energy_minus, inf->energy_plus, inf->check_tol};
    return nsm_all_finite(n, vp) && nsm_all_finite((d + 1) * m, Lam) && nsm_all_finite(7, x);
}

/* Writes *info and runs the final checks on v+ and Lambda as returned: NSM_ERR_OVERFLOW if a
   result is not finite; on NSM_OK every contact has J_n,c v+ >= -check_tol. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires \valid_read(Jn + (0 .. m * n - 1)) && \valid_read(vp + (0 .. n - 1));
    requires \valid_read(Lam + (0 .. (d + 1) * m - 1));
    requires \valid_read(inf) && \valid(info) && \separated(info, inf);
    requires \valid(&info->terminated);
    assigns *info;
    ensures steps: info->steps == \old(inf->steps) && info->step_cap == \old(inf->step_cap);
    ensures \result == NSM_OK ==> nsm_rows_sep(Jn, vp, m, n, info->check_tol);
 */
static nsm_status impact_finish(size_t n, size_t m, size_t d, const double *Jn,
                                const double *vp, const double *Lam, nsm_status rs,
                                const nsm_impact_info *inf, nsm_impact_info *info)
{
    *info = *inf;
    if (!results_finite(n, m, d, vp, Lam, inf)) {
        return NSM_ERR_OVERFLOW;
    }
    if (rs != NSM_OK) {
        return rs;
    }
    if (!normals_ok(n, m, Jn, vp, info->check_tol)) {
        info->terminated = 0;
        return NSM_ERR_NO_CONVERGENCE;
    }
    return NSM_OK;
}

/* Everything after impact_prepare: the bound, the integration, v+ and the final check. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires valid_in: \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1)) &&
                       \valid_read(mu + (0 .. m - 1)) && \valid_read(vm + (0 .. n - 1));
    requires valid_pol: \valid_read(pol) && \valid_read(opts);
    requires pol: ((pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY) ==>
                   \valid_read(pol->order + (0 .. m - 1))) &&
                  (pol->kind == NSM_POLICY_SIMULTANEOUS ==> \valid_read(pol->ratios + (0 .. m - 1))) &&
                  (pol->kind == NSM_POLICY_SAMPLED ==> pol->hold >= 1);
    requires opts: 1 <= opts->steps <= 1000000 && 1 <= opts->fw_iters <= 1000000 &&
                   1 <= opts->fallback_steps <= 100000000 && opts->ntol >= 0 && opts->vtol >= 0;
    requires valid_out: \valid(vp + (0 .. n - 1)) && \valid(Lam + (0 .. (d + 1) * m - 1)) &&
                        \valid(info);
    requires valid_work: \valid(work + (0 .. nsm_impact_need(n, m) - 1));
    requires sep: \separated(info, work + (0 .. nsm_impact_need(n, m) - 1)) &&
                  \separated(info, vp + (0 .. n - 1)) &&
                  \separated(info, Lam + (0 .. (d + 1) * m - 1));
    assigns work[0 .. nsm_impact_need(n, m) - 1], vp[0 .. n - 1],
            Lam[0 .. (d + 1) * m - 1], *info;
    ensures info_steps: \result == NSM_OK ==> info->steps <= info->step_cap;
    ensures separating: \result == NSM_OK ==> nsm_rows_sep(Jn, vp, m, n, info->check_tol);
 */
static nsm_status impact_core(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                              const double *mu, const double *vm, const nsm_impact_policy *pol,
                              const nsm_impact_opts *opts, double *vp, double *Lam,
                              nsm_impact_info *info, double *work)
{
    size_t K = 3 * m;
    /*@ assert K * n == 3 * m * n && K * K == 9 * m * m; */
    double *X = work + n * n + K * n;
    double *W = X + K * n;
    double *u = W + K * K;
    double *lam = u + K;
    double *lh = lam + K;
    double *rate = lh + K;
    double *um = rate + K;
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
    double ct = opts->vtol * (1.0 + max_abs_normal(m, u));
    inf.check_tol = ct > opts->ntol ? ct : opts->ntol;
    const double e[2] = {inf.energy_minus, inf.check_tol};
    if (!nsm_all_finite(2, e)) {
        return NSM_ERR_OVERFLOW; /* the bound (energy) or the final check has no meaning */
    }
    nsm_status rs = NSM_OK;
    int wedge = 0;
    int trivial = count_pen(m, u, opts->ntol) == 0;
    if (trivial) {
        inf.bound = 0.0;
        inf.gamma_lb = 0.0;
        inf.fw_gap = 0.0;
        inf.has_bound = 0;
        copy_vec(n, vm, vp);
        zero_vec((d + 1) * m, Lam);
    } else {
        double h = impact_bound(n, m, d, mu, opts, work, &inf, &wedge);
        double s = 0.0;
        size_t steps = 0;
        size_t forced = 0;
        rs = integrate(m, d, pol, W, mu, h, inf.has_bound, inf.bound, inf.step_cap, opts->ztol,
                       opts->ntol, u, lam, lh, rate, um, w, wraw, &s, &steps, &forced);
        inf.s = s;
        inf.steps = steps;
        inf.forced = forced;
        inf.terminated = rs == NSM_OK;
        /* v+ = v- + M^-1 J^T Lambda */
        matvec(n, K, X, lam, vp);
        axpy(n, 1.0, vm, vp);
        pack_lambda(m, d, lam, Lam);
        inf.energy_plus = energy(n, M, vp, tmp);
    }
    rs = impact_finish(n, m, d, Jn, vp, Lam, rs, &inf, info);
    if (rs != NSM_ERR_OVERFLOW && !trivial && !inf.has_bound) {
        return wedge ? NSM_ERR_NO_BOUND : NSM_ERR_NOT_CERTIFIED;
    }
    return rs;
}

nsm_status nsm_impact_solve_d(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                              const double *Jt, const double *mu, const double *v_minus,
                              const nsm_impact_policy *pol, const nsm_impact_opts *opts,
                              double *v_plus, double *Lambda, nsm_impact_info *info,
                              double *work, size_t lwork)
{
    if (M == NULL || Jn == NULL || Jt == NULL || mu == NULL || v_minus == NULL || pol == NULL ||
        v_plus == NULL || Lambda == NULL || info == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (d != 1 && d != 2) {
        return NSM_ERR_ARG;
    }
    if (n == 0 || n > NSM_MAX_DIM || m == 0 || m > NSM_MAX_DIM / 3) {
        return NSM_ERR_SIZE;
    }
    size_t need = nsm_impact_work(n, m);
    if (need == 0) {
        return NSM_ERR_SIZE;
    }
    if (lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    if (any_alias(n, m, d, M, Jn, Jt, mu, v_minus, v_plus, Lambda, work, need) ||
        info_alias(n, m, d, M, Jn, Jt, mu, v_minus, pol, opts, v_plus, Lambda, work, need,
                   info) ||
        pol_alias(n, m, d, pol, v_plus, Lambda, work, need)) {
        return NSM_ERR_ALIAS;
    }
    /* a local copy (the defaults for opts = NULL): the options stay what was validated while
       the workspace is written */
    nsm_impact_opts o = NSM_IMPACT_OPTS_DEFAULT;
    if (opts != NULL) {
        o = *opts;
    }
    nsm_status st = check_policy(m, pol, &o);
    if (st != NSM_OK) {
        return st;
    }
    st = check_data(n, m, d, M, Jn, Jt, mu, v_minus);
    if (st != NSM_OK) {
        return st;
    }
    st = impact_prepare(n, m, d, M, Jn, Jt, v_minus, work);
    if (st != NSM_OK) {
        return st;
    }
    nsm_status r = impact_core(n, m, d, M, Jn, mu, v_minus, pol, &o, v_plus, Lambda, info, work);
    /*@ assert separating: r == NSM_OK ==> nsm_rows_sep(Jn, v_plus, m, n, info->check_tol); */
    return r;
}

nsm_status nsm_impact_solve(size_t n, size_t m, const double *M, const double *Jn,
                            const double *Jt, const double *mu, const double *v_minus,
                            const nsm_impact_policy *pol, const nsm_impact_opts *opts,
                            double *v_plus, double *Lambda, nsm_impact_info *info, double *work,
                            size_t lwork)
{
    if (M == NULL || Jn == NULL || Jt == NULL || mu == NULL || v_minus == NULL || pol == NULL ||
        v_plus == NULL || Lambda == NULL || info == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (n == 0 || n > NSM_MAX_DIM || m == 0 || m > NSM_MAX_DIM / 3) {
        return NSM_ERR_SIZE;
    }
    nsm_status r = nsm_impact_solve_d(n, m, 1, M, Jn, Jt, mu, v_minus, pol, opts, v_plus, Lambda,
                                      info, work, lwork);
    /*@ assert separating: r == NSM_OK ==> nsm_rows_sep(Jn, v_plus, m, n, info->check_tol); */
    return r;
}
