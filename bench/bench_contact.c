/*
 * Timings of the contact module: single-contact planar Routh resolutions per second, outcome-
 * set runs per second on the box-wall example, and the slack s/bound of the a priori bound on
 * random multi-contact problems (each policy), sampled histories of the ball stack. Nothing is
 * asserted. Prints a table and 'name value' lines (routh_planar_per_s, boxwall_samples_per_s,
 * ballstack_histories_per_s, ...) for scripts.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nsmech.h"
#include "ball_stack.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Deterministic pseudo-random numbers in [0, 1). */
static double rnd(unsigned long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    *s &= 0xfffffffful;
    return (double)(*s) / 4294967296.0;
}

/* Runs batch(ctx), which solves `size` problems and returns a checksum, for at least 0.5 s and
   returns problems per second; the checksum keeps the calls from being optimised away. */
static double per_second(double (*batch)(const void *), const void *ctx, long size)
{
    double sink = 0.0;
    long count = 0;
    double t0 = now(), t1 = t0;
    while (t1 - t0 < 0.5) {
        sink += batch(ctx);
        count += size;
        t1 = now();
    }
    if (sink < 0) {
        printf("impossible\n");
    }
    return (double)count / (t1 - t0);
}

#define NPROB 1024
typedef struct {
    double W[NPROB][4], u[NPROB][2], mu[NPROB];
} planar_set;

static double routh_planar_batch(const void *ctx)
{
    const planar_set *ps = ctx;
    nsm_routh_result r;
    double sink = 0.0;
    for (int k = 0; k < NPROB; k++) {
        if (nsm_routh_planar(ps->W[k], ps->u[k], ps->mu[k], 0.0, &r) == NSM_OK) {
            sink += r.p_n;
        }
    }
    return sink;
}

static double bench_routh(void)
{
    static planar_set ps;
    unsigned long s = 12345;
    for (int k = 0; k < NPROB; k++) {
        double a = exp(3 * rnd(&s) - 1.5), c = exp(3 * rnd(&s) - 1.5);
        double rho = 1.9 * rnd(&s) - 0.95;
        ps.W[k][0] = a;
        ps.W[k][3] = c;
        ps.W[k][1] = ps.W[k][2] = rho * sqrt(a * c);
        ps.u[k][0] = 2 * rnd(&s) - 1;
        ps.u[k][1] = -rnd(&s) - 0.05;
        ps.mu[k] = 1.5 * rnd(&s);
    }
    return per_second(routh_planar_batch, &ps, NPROB);
}

/* nsm_routh_spatial on 256 random SPD 3×3 problems (W = B Bᵀ + I/4, B Gaussian-like from the
   same generator, tangential speed up to 1, mu in [0, 1.5)), steps = 500, for 0.5 s. */
#define NSPAT 256
typedef struct {
    double W[NSPAT][9], u[NSPAT][3], mu[NSPAT];
} spatial_set;

static double routh_spatial_batch(const void *ctx)
{
    const spatial_set *ss = ctx;
    nsm_routh_spatial_result r;
    double sink = 0.0;
    for (int k = 0; k < NSPAT; k++) {
        if (nsm_routh_spatial(ss->W[k], ss->u[k], ss->mu[k], 1e-12, 500, &r) == NSM_OK) {
            sink += r.p_n;
        }
    }
    return sink;
}

static double bench_routh_spatial(void)
{
    static spatial_set ss;
    unsigned long s = 777;
    for (int k = 0; k < NSPAT; k++) {
        double B[9];
        for (int i = 0; i < 9; i++) {
            B[i] = 2 * rnd(&s) - 1;
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double acc = i == j ? 0.25 : 0.0;
                for (int l = 0; l < 3; l++) {
                    acc += B[3 * i + l] * B[3 * j + l];
                }
                ss.W[k][3 * i + j] = acc;
            }
        }
        ss.u[k][0] = 2 * rnd(&s) - 1;
        ss.u[k][1] = 2 * rnd(&s) - 1;
        ss.u[k][2] = -rnd(&s) - 0.05;
        ss.mu[k] = 1.5 * rnd(&s);
    }
    return per_second(routh_spatial_batch, &ss, NSPAT);
}

static double work[8192];

static double bench_boxwall(size_t nsamples, size_t steps, double *acc_frac)
{
    const double pi = 3.14159265358979323846;
    double th = 10.0 * pi / 180.0, c = cos(th), s = sin(th);
    double fx = -0.5 * c + 0.5 * s, fy = -0.5 * s - 0.5 * c;
    double wx = 0.5 * c + 0.5 * s, wy = 0.5 * s - 0.5 * c;
    double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1.0 / 6.0};
    double Jn[6] = {0, 1, fx, -1, 0, wy}, Jt[6] = {1, 0, -fy, 0, 1, wx};
    double mu[2] = {1, 1}, vm[3] = {1, 0, 0};
    enum { CAP = 2 * 2000 + 37 + 5 + 250 }; /* nsm_outcome_count(2, nsamples), nsamples <= 2000 */
    static double vplus[3 * CAP];
    static nsm_status status[CAP];
    static nsm_policy_kind kind[CAP];
    nsm_outcome_opts opts = NSM_OUTCOME_OPTS_DEFAULT;
    opts.impact.steps = steps;
    opts.nsamples = nsamples;
    opts.seed = 7u;
    opts.hold = 20u;
    const nsm_contact_problem prob = {3, 2, 1, M, Jn, Jt, mu, vm};
    nsm_outcome_result res = {CAP, vplus, status, kind, 0, 0};
    double t0 = now();
    nsm_status st = nsm_outcome_set(&prob, &opts, &res, work, nsm_outcome_work(3, 2));
    size_t nruns = res.nruns, acc = res.accepted;
    double t1 = now();
    if (st != NSM_OK) {
        printf("boxwall outcome set failed: %s\n", nsm_status_str(st));
        return 0.0;
    }
    *acc_frac = (double)acc / (double)nruns;
    return (double)nruns / (t1 - t0);
}

/* The ball stack of examples/problems/impact_ball_stack.json (tests/support/ball_stack.h),
   sampled weight histories held 8 steps, default options: histories per second; writes the mean steps and the fraction of
   forced (h/1000) segments, and counts the histories that did not end with NSM_OK. */
static double bench_ballstack(size_t nhist, double *mean_steps, double *forced_frac,
                              size_t *failed)
{
    double M[81], Jn[45], Jt[45], mu[5], vm[9];
    ball_stack_problem(M, Jn, Jt, mu, vm);
    double vp[9], L[10];
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    size_t steps = 0, forced = 0;
    *failed = 0;
    double t0 = now();
    for (size_t k = 0; k < nhist; k++) {
        nsm_impact_policy pol = {NSM_POLICY_SAMPLED, NULL, NULL, (unsigned long)(k + 1), 8, NULL, NULL, NULL};
        const nsm_contact_problem prob = {9, 5, 1, M, Jn, Jt, mu, vm};
        nsm_impact_result res = {.v_plus = vp, .Lambda = L};
        nsm_status st = nsm_impact_solve(&prob, &pol, &opts, &res, work, nsm_impact_work(9, 5));
        steps += res.info.steps;
        forced += res.info.forced;
        *failed += st != NSM_OK;
    }
    double t1 = now();
    *mean_steps = (double)steps / (double)nhist;
    *forced_frac = steps > 0 ? (double)forced / (double)steps : 0.0;
    return (double)nhist / (t1 - t0);
}

/* Spatial contacts (d = 2): the spinning block of examples/problems (a 1 × 0.6 × 0.4 m block
   of 2 kg landing on one bottom edge while sliding and spinning, mu = 0.5), sampled weight
   histories; returns solves per second and writes the mean step count. */
static double bench_spatial_block(size_t nsolves, double *mean_steps)
{
    const double a = 1.0, b = 0.6, c = 0.4, mass = 2.0;
    double M[36] = {0};
    double I[3] = {mass * (b * b + c * c) / 12, mass * (a * a + c * c) / 12,
                   mass * (a * a + b * b) / 12};
    for (int i = 0; i < 3; i++) {
        M[7 * i] = mass;
        M[7 * (i + 3)] = I[i];
    }
    /* row d·(v + w × r) = (d, r × d) for corners r = (±0.5, 0.3, -0.2) */
    double Jn[12], Jt[24];
    for (int k = 0; k < 2; k++) {
        double r[3] = {k == 0 ? 0.5 : -0.5, 0.3, -0.2};
        double dirs[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        for (int j = 0; j < 3; j++) {
            const double *d = dirs[j];
            double row[6] = {d[0], d[1], d[2], r[1] * d[2] - r[2] * d[1],
                             r[2] * d[0] - r[0] * d[2], r[0] * d[1] - r[1] * d[0]};
            double *dst = j == 2 ? Jn + 6 * k : Jt + 6 * (2 * k + j);
            memcpy(dst, row, sizeof row);
        }
    }
    double mu[2] = {0.5, 0.5}, vm[6] = {0.8, 0.3, -1.0, 0.0, 0.0, 2.5}, vp[6], lam[6];
    double ratios[2] = {1, 1};
    nsm_impact_policy pol = {NSM_POLICY_SAMPLED, NULL, ratios, 1, 8, NULL, NULL, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    const nsm_contact_problem prob = {6, 2, 2, M, Jn, Jt, mu, vm};
    nsm_impact_result res = {.v_plus = vp, .Lambda = lam};
    size_t lw = nsm_impact_work(6, 2), steps = 0;
    double t0 = now();
    for (size_t i = 0; i < nsolves; i++) {
        pol.seed = 1000 + i;
        nsm_status st = nsm_impact_solve(&prob, &pol, &opts, &res, work, lw);
        if (st != NSM_OK) {
            printf("spatial block solve failed: %s\n", nsm_status_str(st));
            return 0.0;
        }
        steps += res.info.steps;
    }
    double t1 = now();
    *mean_steps = (double)steps / (double)nsolves;
    return (double)nsolves / (t1 - t0);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Slack s/bound over random problems: n in [2, 8], m in [1, n/2], M = D + B B^T. */
static void bench_slack(nsm_policy_kind kind, const char *name)
{
    enum { NCASE = 400 };
    static double slack[NCASE];
    size_t ns = 0, nb = 0;
    unsigned long s = 777 + (unsigned long)kind;
    double tsum = 0.0;
    for (int k = 0; k < NCASE; k++) {
        size_t n = 2 + (size_t)(7 * rnd(&s));
        size_t m = 1 + (size_t)((double)(n / 2) * rnd(&s));
        double M[64], B[64], Jn[32], Jt[32], mu[4], vm[8], vp[8], L[8];
        for (size_t i = 0; i < n * n; i++) {
            B[i] = 2 * rnd(&s) - 1;
        }
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < n; j++) {
                double acc = i == j ? 0.5 : 0.0;
                for (size_t q = 0; q < n; q++) {
                    acc += B[i * n + q] * B[j * n + q];
                }
                M[i * n + j] = acc;
            }
        }
        for (size_t i = 0; i < m * n; i++) {
            Jn[i] = 2 * rnd(&s) - 1;
            Jt[i] = 2 * rnd(&s) - 1;
        }
        for (size_t c = 0; c < m; c++) {
            mu[c] = 1.2 * rnd(&s);
        }
        for (size_t i = 0; i < n; i++) {
            vm[i] = 2 * rnd(&s) - 1;
        }
        size_t order[4] = {0, 1, 2, 3};
        double ratios[4] = {1, 2, 3, 4};
        nsm_impact_policy pol = {kind, order, ratios, (unsigned long)k, 5, NULL, NULL, NULL};
        nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
        opts.steps = 500;
        const nsm_contact_problem prob = {n, m, 1, M, Jn, Jt, mu, vm};
        nsm_impact_result res = {.v_plus = vp, .Lambda = L};
        double t0 = now();
        nsm_status st = nsm_impact_solve(&prob, &pol, &opts, &res, work, nsm_impact_work(n, m));
        const nsm_impact_info info = res.info;
        tsum += now() - t0;
        if (st == NSM_OK && info.s > 0.0) {
            slack[ns++] = info.s / info.bound;
        } else if (st == NSM_ERR_NO_BOUND || st == NSM_ERR_NOT_CERTIFIED) {
            nb++;
        }
    }
    qsort(slack, ns, sizeof slack[0], cmp);
    if (ns == 0) {
        printf("%-13s no impacts\n", name);
        return;
    }
    printf("%-13s %6zu %9.2e %9.2e %9.2e %9.2e %9.2e %7zu %9.1f\n", name, ns, slack[0],
           slack[ns / 10], slack[ns / 2], slack[(9 * ns) / 10], slack[ns - 1], nb,
           1e6 * tsum / NCASE);
}

/* Hull of the outcome picture: HULL_N points in the unit disk (a cloud of sampled outcomes),
   with nsm_hull2d (exact orientation) and with the monotone chain a user would write on the
   rounded cross product (qsort, then double orientation tests), for comparison. */
#define HULL_N 1000
typedef struct {
    double x[HULL_N], y[HULL_N];
} hull_set;

static size_t hull_idx[HULL_N], hull_out[HULL_N + 1];

static double hull_exact_batch(const void *ctx)
{
    const hull_set *h = ctx;
    size_t nh = 0;
    if (nsm_hull2d(HULL_N, h->x, h->y, hull_idx, hull_out, &nh) != NSM_OK) {
        return 0.0;
    }
    return (double)nh;
}

static const hull_set *hull_cur;

static int hull_cmp(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const hull_set *h = hull_cur;
    if (h->x[i] != h->x[j]) {
        return h->x[i] < h->x[j] ? -1 : 1;
    }
    return h->y[i] < h->y[j] ? -1 : (h->y[i] > h->y[j] ? 1 : 0);
}

static double hull_cross(const hull_set *h, size_t a, size_t b, size_t c)
{
    return (h->x[b] - h->x[a]) * (h->y[c] - h->y[a]) - (h->y[b] - h->y[a]) * (h->x[c] - h->x[a]);
}

static double hull_rounded_batch(const void *ctx)
{
    const hull_set *h = ctx;
    for (size_t i = 0; i < HULL_N; i++) {
        hull_idx[i] = i;
    }
    hull_cur = h;
    qsort(hull_idx, HULL_N, sizeof hull_idx[0], hull_cmp);
    size_t k = 0;
    for (size_t i = 0; i < HULL_N; i++) {
        while (k >= 2 && hull_cross(h, hull_out[k - 2], hull_out[k - 1], hull_idx[i]) <= 0.0) {
            k--;
        }
        hull_out[k++] = hull_idx[i];
    }
    for (size_t i = HULL_N - 1, lower = k + 1; i-- > 0;) {
        while (k >= lower && hull_cross(h, hull_out[k - 2], hull_out[k - 1], hull_idx[i]) <= 0.0) {
            k--;
        }
        hull_out[k++] = hull_idx[i];
    }
    return (double)(k - 1);
}

/* The cloud of the benchmark (the filter decides nearly every orientation) and, for the
   exact evaluation's cost, HULL_N points (0.1 k, 0.3 k) rounded: nearly collinear, so that
   every orientation of the chain goes past the filter. */
static void bench_hull(double *exact, double *rounded, double *collinear)
{
    static hull_set h, line;
    unsigned long seed = 20261203ul;
    for (size_t i = 0; i < HULL_N; i++) {
        double r = sqrt(rnd(&seed)), t = 6.283185307179586 * rnd(&seed);
        h.x[i] = r * cos(t);
        h.y[i] = r * sin(t);
    }
    if (hull_exact_batch(&h) != hull_rounded_batch(&h)) {
        printf("hull: the exact and rounded hulls differ in size on the benchmark cloud\n");
    }
    *exact = per_second(hull_exact_batch, &h, 1);
    *rounded = per_second(hull_rounded_batch, &h, 1);
    for (size_t i = 0; i < HULL_N; i++) {
        line.x[i] = 0.1 * (double)i;
        line.y[i] = 0.3 * (double)i;
    }
    *collinear = per_second(hull_exact_batch, &line, 1);
}

int main(void)
{
    double rps = bench_routh();
    double acc = 0.0;
    double bps = bench_boxwall(2000, 2000, &acc);
    double acc500 = 0.0;
    double bps500 = bench_boxwall(2000, 500, &acc500);
    double rsp = bench_routh_spatial();
    double sp_steps = 0.0;
    double sps = bench_spatial_block(2000, &sp_steps);
    double hex = 0.0, hro = 0.0, hcol = 0.0;
    bench_hull(&hex, &hro, &hcol);
    double bs_steps = 0.0, bs_forced = 0.0;
    size_t bs_failed = 0;
    double bsh = bench_ballstack(2000, &bs_steps, &bs_forced, &bs_failed);
    printf("%-34s %14s\n", "benchmark", "value");
    printf("%-34s %14.0f\n", "routh planar resolutions / s", rps);
    printf("%-34s %14.0f  (steps 500)\n", "routh spatial resolutions / s", rsp);
    printf("%-34s %14.0f  (accepted %.3f)\n", "boxwall outcome runs / s (steps 2000)", bps, acc);
    printf("%-34s %14.0f  (accepted %.3f)\n", "boxwall outcome runs / s (steps 500)", bps500,
           acc500);
    printf("%-34s %14.0f  (mean steps %.0f)\n", "spatial block solves / s (d = 2)", sps,
           sp_steps);
    printf("%-34s %14.0f  (mean steps %.0f, forced %.4f, not ok %zu of 2000)\n",
           "ball stack histories / s (sampled)", bsh, bs_steps, bs_forced, bs_failed);
    printf("%-34s %14.0f  (%d points)\n", "hull2d exact / s", hex, HULL_N);
    printf("%-34s %14.0f  (same chain, rounded cross product)\n", "hull rounded (baseline) / s",
           hro);
    printf("%-34s %14.0f  (%d nearly collinear points: every test exact)\n",
           "hull2d exact, collinear / s", hcol, HULL_N);
    printf("\nslack s/bound on 400 random problems per policy (n 2..8, m 1..n/2, steps 500)\n");
    printf("%-13s %6s %9s %9s %9s %9s %9s %7s %9s\n", "policy", "impacts", "min", "p10",
           "median", "p90", "max", "nobound", "us/solve");
    bench_slack(NSM_POLICY_SEQUENTIAL, "sequential");
    bench_slack(NSM_POLICY_SIMULTANEOUS, "simultaneous");
    bench_slack(NSM_POLICY_SAMPLED, "sampled");
    printf("routh_planar_per_s %.0f\n", rps);
    printf("boxwall_samples_per_s %.0f\n", bps);
    printf("ballstack_histories_per_s %.0f\n", bsh);
    printf("ballstack_steps_per_history %.0f\n", bs_steps);
    printf("ballstack_forced_fraction %.4f\n", bs_forced);
    printf("routh_spatial_per_s %.0f\n", rsp);
    printf("spatial_block_solves_per_s %.0f\n", sps);
    printf("hull2d_exact_per_s %.0f\n", hex);
    printf("hull2d_rounded_per_s %.0f\n", hro);
    printf("hull2d_collinear_per_s %.0f\n", hcol);
    return 0;
}
