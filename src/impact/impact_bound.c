/*
 * The integrator's a priori termination bound: [I] Lemma 2 for one planar contact (docs/math.md
 * (I5)), otherwise the Frank–Wolfe certificate of gamma² = min Λ^T W Λ over the cone slice
 * (I6); the fallback step scale when no bound is certified.
 */
#include "nsmech/impact.h"
#include "../nsm_math.h"
#include "internal.h"
#include "impact_internal.h"

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

/* One Frank–Wolfe linearisation at Λ = lam: g = W Λ (half the gradient), *fval = Λ^T W Λ, sv
   the slice vertex minimising g·Λ; returns the duality gap 2 (f - sv·g). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(W + (0 .. 9 * m * m - 1));
    requires \valid_read(lam + (0 .. 3 * m - 1));
    requires \valid(g + (0 .. 3 * m - 1)) && \valid(sv + (0 .. 3 * m - 1)) && \valid(fval);
    requires \separated(g + (0 .. 3 * m - 1), sv + (0 .. 3 * m - 1), fval);
    assigns g[0 .. 3 * m - 1], sv[0 .. 3 * m - 1], *fval;
 */
static double fw_gap(size_t m, size_t d, const double *mu, const double *W, const double *lam,
                     double *g, double *sv, double *fval)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    matvec(K, K, W, lam, g);
    double f = dot(K, lam, g);
    *fval = f;
    fw_vertex(m, d, mu, g, sv);
    return 2.0 * (f - dot(K, sv, g));
}

/* The exact line search from Λ = lam towards the vertex sv (g = W Λ): Λ += t (sv - Λ), t in
   [0, 1]; dv and sv are scratch. Returns 0, Λ unchanged, when W is not positive along the
   direction (no progress possible). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(g + (0 .. 3 * m - 1));
    requires \valid(lam + (0 .. 3 * m - 1)) && \valid(sv + (0 .. 3 * m - 1)) &&
             \valid(dv + (0 .. 3 * m - 1));
    requires \separated(lam + (0 .. 3 * m - 1), sv + (0 .. 3 * m - 1), dv + (0 .. 3 * m - 1));
    assigns lam[0 .. 3 * m - 1], sv[0 .. 3 * m - 1], dv[0 .. 3 * m - 1];
    ensures \result == 0 || \result == 1;
 */
static int fw_move(size_t m, const double *W, const double *g, double *lam, double *sv,
                   double *dv)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
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
        return 0;
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
    return 1;
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
    requires \valid(gap) && \valid(fval) && \separated(gap, fval);
    requires \separated(lam + (0 .. 3 * m - 1), g + (0 .. 3 * m - 1), sv + (0 .. 3 * m - 1),
                        dv + (0 .. 3 * m - 1), gap, fval);
    assigns lam[0 .. 3 * m - 1], g[0 .. 3 * m - 1], sv[0 .. 3 * m - 1], dv[0 .. 3 * m - 1], *gap,
            *fval;
 */
static double fw_lower(size_t m, size_t d, const double *mu, const double *W, size_t iters,
                       double wedge_tol, double *lam, double *g, double *sv, double *dv,
                       double *gap, double *fval)
{
    zero_vec(3 * m, lam);
    lam[2] = 1.0;
    double lb = -1.0;
    *gap = 0.0;
    *fval = 0.0;
    size_t total = iters * NSM_FW_EXTEND;
    if (total > NSM_FW_MAX_ITERS) {
        total = NSM_FW_MAX_ITERS; /* >= iters: iters <= NSM_FW_MAX_ITERS is a precondition */
    }
    size_t next = iters; /* the next checkpoint: iters, 2·iters, 4·iters, ... */
    double gap_mark = -1.0;
    /*@ loop invariant 0 <= k <= total;
        loop invariant 1 <= next;
        loop assigns k, lb, next, gap_mark, lam[0 .. 3 * m - 1], g[0 .. 3 * m - 1],
                     sv[0 .. 3 * m - 1], dv[0 .. 3 * m - 1], *gap, *fval;
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
        double gp = fw_gap(m, d, mu, W, lam, g, sv, fval);
        double f = *fval;
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
        if (!fw_move(m, W, g, lam, sv, dv)) {
            break;
        }
    }
    return lb;
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

/* [I] Lemma 2, docs/math.md (I5), for one planar contact, on the (t, n) block of W: sets
   inf->bound and inf->has_bound when the bound exists and is positive. */
/*@ requires \valid_read(W + (0 .. 8)) && \valid_read(u + (0 .. 2)) && \valid(inf);
    assigns inf->bound, inf->has_bound;
 */
static void routh_bound1(const double *W, const double *u, double mu0, nsm_impact_info *inf)
{
    double W2[4] = {W[0], W[2], W[6], W[8]};
    double u2[2] = {u[0], u[2]};
    double b1 = 0.0;
    if (nsm_routh_bound(W2, u2, mu0, &b1) == NSM_OK && b1 > 0.0) {
        inf->bound = b1;
        inf->has_bound = 1;
    }
}

/* The Frank–Wolfe certificate (I6): inf->fw_gap, and inf->gamma_lb, inf->bound,
   inf->has_bound when gamma > 0 is certified (inf->energy_minus is read); *wedge = 1 when
   gamma = 0 to tolerance. fw (12m) is scratch. */
/*@ requires dims: 1 <= m && 3 * m <= NSM_MAX_DIM && 1 <= iters <= 1000000;
    requires \valid_read(mu + (0 .. m - 1)) && \valid_read(W + (0 .. 9 * m * m - 1));
    requires \valid(fw + (0 .. 12 * m - 1)) && \valid(inf) && \valid(wedge);
    requires \separated(inf, wedge, fw + (0 .. 12 * m - 1));
    assigns fw[0 .. 12 * m - 1], inf->fw_gap, inf->gamma_lb, inf->bound, inf->has_bound, *wedge;
    ensures wedge: *wedge == 0 || *wedge == 1;
 */
static void fw_bound(size_t m, size_t d, const double *mu, size_t iters, const double *W,
                     double *fw, nsm_impact_info *inf, int *wedge)
{
    size_t K = 3 * m;
    double gap = 0.0;
    double fval = 0.0;
    double wtol = NSM_WEDGE_RTOL * max_normal_diag(m, W);
    double lb = fw_lower(m, d, mu, W, iters, wtol, fw, fw + K, fw + 2 * K, fw + 3 * K, &gap,
                         &fval);
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

/* The a priori bound, the step and the cap (fields bound, gamma_lb, fw_gap, has_bound,
   step_cap of *inf); returns h. */
double nsm_impact_bound(size_t m, size_t d, const double *mu, const nsm_impact_opts *opts,
                        const double *W, const double *u, double *fw, nsm_impact_info *inf,
                        int *wedge)
{
    inf->bound = 0.0;
    inf->gamma_lb = 0.0;
    inf->fw_gap = 0.0;
    inf->has_bound = 0;
    *wedge = 0;
    if (m == 1 && d == 1) {
        routh_bound1(W, u, mu[0], inf);
    } else {
        fw_bound(m, d, mu, opts->fw_iters, W, fw, inf, wedge);
    }
    double h;
    if (inf->has_bound && inf->bound > 0.0) {
        h = inf->bound / (double)opts->steps;
        inf->step_cap = opts->steps * NSM_IMPACT_MIN_STEP_RATIO + 1 + NSM_IMPACT_EXACT_SHORT;
    } else {
        inf->has_bound = 0;
        h = fallback_scale(m, W, u, opts->ntol) / (double)opts->steps;
        inf->step_cap = opts->fallback_steps;
    }
    return h > 0.0 ? h : 0.0;
}
