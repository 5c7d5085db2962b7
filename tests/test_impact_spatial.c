/* Tests of the multi-contact impact integrator with spatial contacts (tangent dimension 2). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "entry_args.h"
#include "exact.h"
#include "harness.h"
#include "prop.h"
#include "refine.h"
#include "spatial_oracle.h"
#include "nsmech.h"
#include <lapacke.h>
#include "../src/impact/impact_internal.h"

#define MAXN 9
#define MAXM 3

/* A spatial problem: Jt holds 2m rows, contact by contact. */
typedef struct sproblem {
    size_t n, m;
    double M[MAXN * MAXN], Jn[MAXM * MAXN], Jt[2 * MAXM * MAXN], mu[MAXM], vm[MAXN];
} sproblem;

static double work_buf[1 << 14];

static nsm_status solve_d(const sproblem *P, size_t d, const nsm_impact_policy *pol,
                          const nsm_impact_opts *opts, double *vp, double *Lam,
                          nsm_impact_info *info)
{
    size_t lw = nsm_impact_work(P->n, P->m);
    if (!(lw > 0 && lw <= sizeof work_buf / sizeof work_buf[0])) { CU_FAIL("workspace"); return NSM_ERR_WORKSPACE; }
    return args_impact_solve(P->n, P->m, d, P->M, P->Jn, P->Jt, P->mu, P->vm, pol, opts, vp,
                              Lam, info, work_buf, lw);
}

/* Random spatial problem with at least one contact penetrating by 0.1; 3m <= n. */
static void random_sproblem(nsm_rng *rng, sproblem *P)
{
    P->n = nsm_rng_index(rng, 3, MAXN);
    size_t mmax = P->n / 3 < MAXM ? P->n / 3 : MAXM;
    P->m = nsm_rng_index(rng, 1, mmax);
    prop_spd(rng, P->n, 10.0, 1.0, P->M);
    prop_vector(rng, P->m * P->n, P->Jn);
    prop_vector(rng, 2 * P->m * P->n, P->Jt);
    for (size_t c = 0; c < P->m; c++) {
        P->mu[c] = nsm_rng_index(rng, 0, 5) == 0 ? 0.0 : nsm_rng_range(rng, 0.05, 1.5);
    }
    (void)prop_approaching(rng, P->n, P->m, P->Jn, 0.1, P->vm);
}

/* Energy, cones, no penetration, s within the bound and momentum balance, by plain loops. */
static int check_spatial(const sproblem *P, const double *vp, const double *Lam,
                         const nsm_impact_info *info, char *msg, size_t msglen)
{
    size_t n = P->n, m = P->m;
    double e0 = 0, e1 = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            e0 += 0.5 * P->vm[i] * P->M[i * n + j] * P->vm[j];
            e1 += 0.5 * vp[i] * P->M[i * n + j] * vp[j];
        }
    }
    if (e1 > e0 * (1 + 1e-9) + 1e-14) {
        snprintf(msg, msglen, "energy increased: %.17g -> %.17g", e0, e1);
        return 1;
    }
    double s = 0;
    for (size_t c = 0; c < m; c++) {
        double lt = hypot(Lam[3 * c], Lam[3 * c + 1]), ln = Lam[3 * c + 2];
        /* exact membership (rational arithmetic), no tolerance: the header promises it on
           Lambda as returned */
        if (!exact_in_cone(2, P->mu[c], ln, Lam + 3 * c, 0.0)) {
            snprintf(msg, msglen, "impulse of contact %zu outside its cone: |t| %g n %g mu %g",
                     c, lt, ln, P->mu[c]);
            return 1;
        }
        s += ln;
        double un = 0;
        for (size_t i = 0; i < n; i++) {
            un += P->Jn[c * n + i] * vp[i];
        }
        /* separating: J_n,c v+ >= -check_tol exactly (rational arithmetic) */
        if (!exact_rowdot_ge(n, P->Jn + c * n, vp, info->check_tol) ||
            !(info->check_tol < 1e-6)) {
            snprintf(msg, msglen, "contact %zu left penetrating: %g", c, un);
            return 1;
        }
    }
    if (fabs(s - info->s) > 1e-9 * (1 + s) || !(info->s <= info->bound)) {
        snprintf(msg, msglen, "s = %g (sum %g) vs bound %g", info->s, s, info->bound);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        double lhs = 0, rhs = 0, sc = 0;
        for (size_t j = 0; j < n; j++) {
            lhs += P->M[i * n + j] * (vp[j] - P->vm[j]);
            sc += fabs(P->M[i * n + j]) * (fabs(vp[j]) + fabs(P->vm[j]));
        }
        for (size_t c = 0; c < m; c++) {
            for (size_t k = 0; k < 2; k++) {
                rhs += P->Jt[(2 * c + k) * n + i] * Lam[3 * c + k];
                sc += fabs(P->Jt[(2 * c + k) * n + i] * Lam[3 * c + k]);
            }
            rhs += P->Jn[c * n + i] * Lam[3 * c + 2];
            sc += fabs(P->Jn[c * n + i] * Lam[3 * c + 2]);
        }
        if (fabs(lhs - rhs) > 1e-10 * (1 + sc)) {
            snprintf(msg, msglen, "momentum balance row %zu: %g vs %g", i, lhs, rhs);
            return 1;
        }
    }
    return 0;
}

typedef struct sctx {
    nsm_policy_kind kind;
    size_t ok, no_bound;
} sctx;

static void random_policy(nsm_rng *rng, size_t m, nsm_policy_kind kind, size_t *order,
                          double *ratios, nsm_impact_policy *pol)
{
    for (size_t c = 0; c < m; c++) {
        order[c] = c;
        ratios[c] = nsm_rng_range(rng, 0.1, 1.0);
    }
    prop_shuffle(rng, m, order);
    pol->kind = kind;
    pol->order = order;
    pol->ratios = ratios;
    pol->dwell = ratios; /* a schedule's dwells: the same draws, 0.1 .. 1 of the scale S */
    pol->seed = (unsigned long)nsm_rng_u64(rng);
    pol->hold = 7; /* sampled and extremal steps, bang-bang's longest dwell, a schedule's cycles */
}

static int prop_spatial_policy(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    sctx *ctx = vctx;
    sproblem P;
    random_sproblem(rng, &P);
    size_t order[MAXM];
    double ratios[MAXM];
    nsm_impact_policy pol;
    random_policy(rng, P.m, ctx->kind, order, ratios, &pol);
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = 200;
    double vp[MAXN], Lam[3 * MAXM];
    nsm_impact_info info;
    nsm_status st = solve_d(&P, 2, &pol, &opts, vp, Lam, &info);
    if (st == NSM_ERR_NO_BOUND) {
        ctx->no_bound++;
        return 0;
    }
    if (st != NSM_OK) {
        snprintf(msg, msglen, "status %s (n=%zu m=%zu steps %zu cap %zu s %g bound %g)",
                 nsm_status_str(st), P.n, P.m, info.steps, info.step_cap, info.s, info.bound);
        return 1;
    }
    ctx->ok++;
    return check_spatial(&P, vp, Lam, &info, msg, msglen);
}

static void run_policy_prop(nsm_policy_kind kind, const char *name)
{
    sctx ctx = {kind, 0, 0};
    size_t cases = prop_run(name, prop_spatial_policy, &ctx, 1000);
    printf(" [ok %zu, no bound %zu of %zu] ", ctx.ok, ctx.no_bound, cases);
    CU_ASSERT(ctx.ok >= cases * 9 / 10);
}

static void test_spatial_sequential(void)
{
    run_policy_prop(NSM_POLICY_SEQUENTIAL, "spatial sequential");
}

static void test_spatial_simultaneous(void)
{
    run_policy_prop(NSM_POLICY_SIMULTANEOUS, "spatial simultaneous");
}

static void test_spatial_sampled(void)
{
    run_policy_prop(NSM_POLICY_SAMPLED, "spatial sampled");
}

static void test_spatial_priority(void)
{
    run_policy_prop(NSM_POLICY_PRIORITY, "spatial priority");
}

/*
 * Motion in a plane: a planar problem (n dofs, Jt m×n) embedded with one extra, decoupled
 * coordinate z (M_zz = 1, v_z = 0) that each contact's second tangent row measures. No impulse
 * acts along t2, so the spatial result must equal the planar one (a different code path: the
 * planar solver resolves d = 1 events exactly; the spatial one uses norms, closest approaches
 * and Runge–Kutta rates; the held contacts of simultaneous and priority runs are found with
 * intervals in one, discs in the other). Equal means within 1e-9 (1 + |v-|) at 400 steps;
 * otherwise the difference must halve by 102 400 steps (converging); a case where either run
 * stepped over events (forced segments) is skipped.
 */
typedef struct planar_ctx {
    nsm_policy_kind kind;
    size_t exact, converging, skipped;
} planar_ctx;

typedef struct embed {
    size_t n, m;
    double Mp[MAXN * MAXN], Jn[MAXM * MAXN], Jt[MAXM * MAXN], mu[MAXM], vm[MAXN];
    sproblem P; /* the same problem with the extra coordinate z */
} embed;

/* Largest difference between the planar and the embedded spatial outcome at `steps` steps
   (velocities and impulses, and the out-of-plane ones, which must vanish); -1 if a status
   differs or is not NSM_OK, -2 if either run stepped over events (forced segments). */
static double embed_diff(const embed *E, const nsm_impact_policy *pol, size_t steps,
                         char *msg, size_t msglen)
{
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = steps;
    size_t n = E->n, m = E->m;
    double vp1[MAXN], L1[2 * MAXM];
    nsm_impact_info i1;
    nsm_status s1 = args_impact_solve1(n, m, E->Mp, E->Jn, E->Jt, E->mu, E->vm, pol, &opts, vp1,
                                     L1, &i1, work_buf, nsm_impact_work(n, m));
    double vp2[MAXN], L2[3 * MAXM];
    nsm_impact_info i2;
    nsm_status s2 = solve_d(&E->P, 2, pol, &opts, vp2, L2, &i2);
    if (s1 != s2 || s1 != NSM_OK) {
        snprintf(msg, msglen, "statuses: planar %s, spatial %s", nsm_status_str(s1),
                 nsm_status_str(s2));
        return -1.0;
    }
    if (i1.forced > 0 || i2.forced > 0) {
        return -2.0;
    }
    double d = fabs(vp2[n]);
    for (size_t i = 0; i < n; i++) {
        d = fmax(d, fabs(vp1[i] - vp2[i]));
    }
    for (size_t c = 0; c < m; c++) {
        d = fmax(d, fabs(L1[2 * c] - L2[3 * c]));
        d = fmax(d, fabs(L1[2 * c + 1] - L2[3 * c + 2]));
        d = fmax(d, fabs(L2[3 * c + 1]));
    }
    return d;
}

/* The planar part of an embedding: n in 2 .. MAXN - 1, m <= n/2 contacts, one in six
   frictionless, contact 0 penetrating (J_n,0 v- = -0.5 unless it already approaches). */
static void random_planar(nsm_rng *rng, embed *E)
{
    memset(E, 0, sizeof *E);
    size_t n = E->n = nsm_rng_index(rng, 2, MAXN - 1);
    size_t m = E->m = nsm_rng_index(rng, 1, n / 2 < MAXM ? n / 2 : MAXM);
    prop_spd(rng, n, 10.0, 1.0, E->Mp);
    prop_vector(rng, m * n, E->Jn);
    prop_vector(rng, m * n, E->Jt);
    for (size_t c = 0; c < m; c++) {
        E->mu[c] = nsm_rng_index(rng, 0, 5) == 0 ? 0.0 : nsm_rng_range(rng, 0.05, 1.5);
    }
    prop_vector(rng, n, E->vm);
    double u0 = 0, nn = 0;
    for (size_t i = 0; i < n; i++) {
        u0 += E->Jn[i] * E->vm[i];
        nn += E->Jn[i] * E->Jn[i];
    }
    if (u0 > -0.1) { /* make contact 0 penetrate: J_n,0 v- = -0.5 */
        for (size_t i = 0; i < n; i++) {
            E->vm[i] -= (u0 + 0.5) * E->Jn[i] / nn;
        }
    }
}

/*
 * Sequential resolution: one contact at a time, whose friction rule is exact for both
 * solvers, so the results agree to rounding. Simultaneous resolution: the planar solver
 * holds contacts at rest exactly (held weights and joint stick rates, docs/math.md), the
 * spatial one lets them alternate between penetrating and resolved, or between stick and
 * slip, within a step; that alternation converges to the held motion as the step shrinks,
 * at first order and in a staircase (seen: the same spatial result at 400 and 6400 steps,
 * then closer at 25600 and 10^6). Where the two differ, the difference at 102400 steps must
 * be at most half the difference at 400.
 */
static int prop_planar_embedding(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    planar_ctx *ctx = vctx;
    static embed E;
    random_planar(rng, &E);
    size_t n = E.n, m = E.m;
    sproblem *P = &E.P;
    P->n = n + 1;
    P->m = m;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            P->M[i * (n + 1) + j] = E.Mp[i * n + j];
        }
    }
    P->M[n * (n + 1) + n] = 1.0;
    for (size_t c = 0; c < m; c++) {
        for (size_t i = 0; i < n; i++) {
            P->Jn[c * (n + 1) + i] = E.Jn[c * n + i];
            P->Jt[(2 * c) * (n + 1) + i] = E.Jt[c * n + i];
        }
        P->Jt[(2 * c + 1) * (n + 1) + n] = 1.0;
        P->mu[c] = E.mu[c];
    }
    memcpy(P->vm, E.vm, sizeof(double) * n);
    size_t order[MAXM];
    double ratios[MAXM];
    nsm_impact_policy pol;
    random_policy(rng, m, ctx->kind, order, ratios, &pol);
    double sc = 1.0 + tm_maxabs(n, E.vm);
    double d1 = embed_diff(&E, &pol, 400, msg, msglen);
    if (d1 == -1.0) {
        return 1;
    }
    if (d1 == -2.0) {
        ctx->skipped++;
        return 0;
    }
    if (d1 <= 1e-9 * sc) {
        ctx->exact++;
        return 0;
    }
    if (ctx->kind == NSM_POLICY_SEQUENTIAL) {
        snprintf(msg, msglen, "sequential: planar and spatial differ by %g", d1);
        return 1;
    }
    double d2 = embed_diff(&E, &pol, 102400, msg, msglen);
    if (d2 == -1.0) {
        return 1;
    }
    if (d2 == -2.0) {
        ctx->skipped++;
        return 0;
    }
    if (!(d2 <= 0.5 * d1) && !(d2 <= 1e-9 * sc)) {
        snprintf(msg, msglen, "difference %g at 400 steps, %g at 102400 steps", d1, d2);
        return 1;
    }
    ctx->converging++;
    return 0;
}

static void test_planar_embedding(void)
{
    nsm_policy_kind kinds[4] = {NSM_POLICY_SEQUENTIAL, NSM_POLICY_SIMULTANEOUS,
                                NSM_POLICY_PRIORITY, NSM_POLICY_SCHEDULE};
    const char *names[4] = {"planar embedding, sequential", "planar embedding, simultaneous",
                            "planar embedding, priority", "planar embedding, schedule"};
    for (int k = 0; k < 4; k++) {
        planar_ctx ctx = {kinds[k], 0, 0, 0};
        size_t cases = prop_run(names[k], prop_planar_embedding, &ctx, 1000);
        printf(" [%s: equal %zu, converging %zu, skipped %zu] ", names[k], ctx.exact,
               ctx.converging, ctx.skipped);
        CU_ASSERT(ctx.exact + ctx.converging >= cases * 3 / 4);
        if (cases >= 100) {
            /* events and slip stops located exactly, contacts at rest held as in the planar
               solver (measured: sequential 1000 of 1000 equal, schedule 999, simultaneous
               and priority 993 each, with 5 and 6 converging; before spatial contacts were
               held, simultaneous 822 equal and 146 skipped) */
            CU_ASSERT(ctx.skipped * 100 <= cases);
            CU_ASSERT(ctx.exact * 100 >= cases * 98);
        }
    }
}

/*
 * A planar contact written with two dependent tangent rows, (cos a_c·J_t,c, sin a_c·J_t,c)
 * with a_c random: W_tt is singular (rank one, its range the direction (cos a, sin a)), u_t
 * stays on that line, and the tangential impulse acts through cos a·Λ_t1 + sin a·Λ_t2 only;
 * Coulomb's law makes it the planar problem (docs/math.md, "at rest ... singular W_tt").
 * Sequential runs equal the planar solver to 1e-9 (1 + |v-|) in v+ and in that combined
 * impulse, and the impulse across the line vanishes, in every case where neither run steps
 * over events (at least 99 %). This exercises the rest rule on a line not along t1.
 */
static int prop_dependent_rows(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    planar_ctx *ctx = vctx;
    static embed E;
    random_planar(rng, &E);
    size_t n = E.n, m = E.m;
    sproblem *P = &E.P;
    P->n = n;
    P->m = m;
    memcpy(P->M, E.Mp, n * n * sizeof(double));
    memcpy(P->Jn, E.Jn, m * n * sizeof(double));
    memcpy(P->vm, E.vm, n * sizeof(double));
    double ca[MAXM], sa[MAXM];
    for (size_t c = 0; c < m; c++) {
        double a = nsm_rng_range(rng, 0.0, 6.283185307179586);
        ca[c] = cos(a);
        sa[c] = sin(a);
        for (size_t i = 0; i < n; i++) {
            P->Jt[(2 * c) * n + i] = ca[c] * E.Jt[c * n + i];
            P->Jt[(2 * c + 1) * n + i] = sa[c] * E.Jt[c * n + i];
        }
        P->mu[c] = E.mu[c];
    }
    size_t order[MAXM];
    double ratios[MAXM];
    nsm_impact_policy pol;
    random_policy(rng, m, NSM_POLICY_SEQUENTIAL, order, ratios, &pol);
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    double vp1[MAXN], L1[2 * MAXM], vp2[MAXN], L2[3 * MAXM];
    nsm_impact_info i1, i2;
    nsm_status s1 = args_impact_solve1(n, m, E.Mp, E.Jn, E.Jt, E.mu, E.vm, &pol, &opts, vp1, L1,
                                     &i1, work_buf, nsm_impact_work(n, m));
    nsm_status s2 = solve_d(P, 2, &pol, &opts, vp2, L2, &i2);
    if (s1 != s2 || s1 != NSM_OK) {
        snprintf(msg, msglen, "statuses: planar %s, spatial %s", nsm_status_str(s1),
                 nsm_status_str(s2));
        return 1;
    }
    if (i1.forced > 0 || i2.forced > 0) {
        ctx->skipped++;
        return 0;
    }
    double d = tm_maxabs_diff(n, vp1, vp2);
    for (size_t c = 0; c < m; c++) {
        d = fmax(d, fabs(L1[2 * c] - (ca[c] * L2[3 * c] + sa[c] * L2[3 * c + 1])));
        d = fmax(d, fabs(-sa[c] * L2[3 * c] + ca[c] * L2[3 * c + 1]));
        d = fmax(d, fabs(L1[2 * c + 1] - L2[3 * c + 2]));
    }
    if (!(d <= 1e-9 * (1.0 + tm_maxabs(n, E.vm)))) {
        snprintf(msg, msglen, "m %zu: planar and dependent-row spatial differ by %g", m, d);
        return 1;
    }
    ctx->exact++;
    return 0;
}

static void test_dependent_rows(void)
{
    planar_ctx ctx = {NSM_POLICY_SEQUENTIAL, 0, 0, 0};
    size_t cases = prop_run("dependent tangent rows", prop_dependent_rows, &ctx, 500);
    printf(" [equal %zu, skipped %zu of %zu] ", ctx.exact, ctx.skipped, cases);
    CU_ASSERT(ctx.exact * 100 >= cases * 99);
}

/*
 * Rotating every contact's tangent frame about its normal (Jt_c -> R(theta_c) Jt_c) describes
 * the same physical problem: v+ must not change (the integrator is rotation-equivariant in
 * exact arithmetic), and the tangential impulses rotate with the frame.
 */
typedef struct rot_ctx {
    size_t exact, converging, skipped;
} rot_ctx;

/* Largest difference of v+ and of the impulses (rotated into the second frame). */
static double rotation_diff(const sproblem *P, const double *vp1, const double *vp2,
                            const double *L1, const double *L2, const double *th)
{
    double d = tm_maxabs_diff(P->n, vp1, vp2);
    for (size_t c = 0; c < P->m; c++) {
        double cs = cos(th[c]), sn = sin(th[c]);
        double a = cs * L1[3 * c] - sn * L1[3 * c + 1], b = sn * L1[3 * c] + cs * L1[3 * c + 1];
        d = fmax(d, fabs(a - L2[3 * c]));
        d = fmax(d, fabs(b - L2[3 * c + 1]));
        d = fmax(d, fabs(L1[3 * c + 2] - L2[3 * c + 2]));
    }
    return d;
}

static int prop_frame_rotation(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    rot_ctx *ctx = vctx;
    sproblem P, Q;
    random_sproblem(rng, &P);
    Q = P;
    double th[MAXM];
    for (size_t c = 0; c < P.m; c++) {
        th[c] = nsm_rng_range(rng, -3.1, 3.1);
        double cs = cos(th[c]), sn = sin(th[c]);
        for (size_t i = 0; i < P.n; i++) {
            double a = P.Jt[(2 * c) * P.n + i], b = P.Jt[(2 * c + 1) * P.n + i];
            Q.Jt[(2 * c) * P.n + i] = cs * a - sn * b;
            Q.Jt[(2 * c + 1) * P.n + i] = sn * a + cs * b;
        }
    }
    size_t order[MAXM];
    double ratios[MAXM];
    nsm_impact_policy pol;
    random_policy(rng, P.m, NSM_POLICY_SIMULTANEOUS, order, ratios, &pol);
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = 300;
    double vp1[MAXN], vp2[MAXN], L1[3 * MAXM], L2[3 * MAXM];
    nsm_impact_info i1, i2;
    nsm_status s1 = solve_d(&P, 2, &pol, &opts, vp1, L1, &i1);
    nsm_status s2 = solve_d(&Q, 2, &pol, &opts, vp2, L2, &i2);
    if (s1 != NSM_OK || s2 != NSM_OK) {
        return s1 == s2 ? 0 : (snprintf(msg, msglen, "statuses %s / %s", nsm_status_str(s1),
                                        nsm_status_str(s2)), 1);
    }
    double sc = 1.0 + tm_maxabs(P.n, P.vm);
    double d1 = rotation_diff(&P, vp1, vp2, L1, L2, th);
    if (d1 <= 1e-9 * sc) {
        ctx->exact++;
        return 0;
    }
    if (i1.forced > 0 || i2.forced > 0) {
        /* events closer than the shortest segment were stepped over, at places that rounding
           decides: not compared, counted */
        ctx->skipped++;
        return 0;
    }
    /* where rounding takes a different discrete decision in the two frames (rest or slip,
       an event stepped over), the frames may differ, but by no more than the discretisation
       error, estimated against a 16 times finer step in the first frame */
    double vpf[MAXN], Lf[3 * MAXM];
    nsm_impact_info inf;
    opts.steps = 4800;
    nsm_status sf = solve_d(&P, 2, &pol, &opts, vpf, Lf, &inf);
    if (sf != NSM_OK) {
        snprintf(msg, msglen, "status at 4800 steps %s", nsm_status_str(sf));
        return 1;
    }
    double disc = tm_maxabs_diff(P.n, vp1, vpf);
    for (size_t k = 0; k < 3 * P.m; k++) {
        disc = fmax(disc, fabs(L1[k] - Lf[k]));
    }
    if (!(d1 <= 2.0 * disc + 1e-9 * sc)) {
        snprintf(msg, msglen, "frames differ by %g, discretisation error %g", d1, disc);
        return 1;
    }
    ctx->converging++;
    return 0;
}

static void test_frame_rotation(void)
{
    rot_ctx ctx = {0, 0, 0};
    size_t cases = prop_run("tangent frame rotation", prop_frame_rotation, &ctx, 1000);
    printf(" [equal %zu, within the discretisation error %zu, skipped %zu of %zu] ", ctx.exact,
           ctx.converging, ctx.skipped, cases);
    /* measured: 994 of 1000 equal, 6 skipped (951 and 49 before the exact slip stops) */
    CU_ASSERT(ctx.exact + ctx.converging >= cases * 98 / 100);
}

/* One spatial contact on a random 3-dof body; in half of the cases mu is below the stick ratio
   and the contact slips against the re-slip direction (every fourth case: starts at rest and
   re-slips along the ray at once), against the oracle of tests/support/spatial_oracle.c
   (accurate to about 1e-13 here). Sequential and simultaneous runs (the slip is followed
   into rest exactly in both; Runge–Kutta segments, fourth order) are within 1e-7 at 250,
   1000 and 4000 steps and within 1e-9 at 4000 (measured, both: worst 1.6e-8 at 250 steps,
   2.6e-10 at 4000; simultaneous runs, whose slips stopped within 5 % of |u_t| until
   2026-12-06, were first order then: worst 2.7e-6 at 4000 steps). NSM_TEST_VERBOSE=1 prints
   the errors. */
static void test_step_convergence(void)
{
    nsm_rng rng;
    size_t compared = 0, exact = 0, exact_sim = 0;
    double worst_seq = 0.0, worst_sim = 0.0;
    /* 40 problems, or NSM_PROP_CASES (make valgrind runs a few) */
    size_t ncases = prop_cases(40);
    for (size_t k = 0; k < ncases; k++) {
        nsm_rng_seed(&rng, prop_base_seed() + 7000 + k);
        sproblem P;
        memset(&P, 0, sizeof P);
        P.n = 3;
        P.m = 1;
        prop_spd(&rng, 3, 5.0, 1.0, P.M);
        prop_orthogonal(&rng, 3, P.Jt); /* rows t1, t2 and (below) n: an orthonormal frame */
        memcpy(P.Jn, P.Jt + 6, sizeof(double) * 3);
        /* W = J M^-1 J^T (LAPACK dposv), to choose mu and u0 */
        double J[9], X[9], Mf[9], W[9];
        memcpy(J, P.Jt, sizeof(double) * 6);
        memcpy(J + 6, P.Jn, sizeof(double) * 3);
        memcpy(Mf, P.M, sizeof Mf);
        tm_transpose(3, 3, J, X);
        CU_ASSERT_EQUAL_FATAL(LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', 3, 3, Mf, 3, X, 3), 0);
        tm_matmul(3, 3, 3, J, X, W);
        /* J has orthonormal rows, so v- = J^T u0 gives J v- = u0 */
        double u0[3] = {1.5, 0.7, -1.0};
        P.mu[0] = nsm_rng_range(&rng, 0.2, 1.0);
        if (k % 2 == 1) {
            /* slip against the re-slip direction with mu below the stick ratio: the slip
               slows to rest, then re-slips along the ray (W_tn = (alpha I + mu W_tt) s) */
            double det = W[0] * W[4] - W[1] * W[3];
            double x1 = -(W[4] * W[2] - W[1] * W[5]) / det, x2 = -(W[0] * W[5] - W[3] * W[2]) / det;
            P.mu[0] = 0.6 * hypot(x1, x2);
            double g1 = W[2], g2 = W[5], ng = hypot(g1, g2);
            u0[0] = -0.3 * g1 / ng + 0.05 * g2 / ng;
            u0[1] = -0.3 * g2 / ng - 0.05 * g1 / ng;
            if (k % 4 == 3) {
                /* from rest: re-slip at once, along a straight ray */
                u0[0] = 0.0;
                u0[1] = 0.0;
            }
        }
        for (int i = 0; i < 3; i++) {
            P.vm[i] = u0[0] * P.Jt[i] + u0[1] * P.Jt[3 + i] + u0[2] * P.Jn[i];
        }
        const size_t order[1] = {0};
        double vref[3];
        if (sp_oracle_sequential(3, 1, P.M, P.Jn, P.Jt, P.mu, P.vm, order, vref, NULL) !=
            SP_ORACLE_OK) {
            continue;
        }
        size_t steps[3] = {250, 1000, 4000};
        double eseq[3], esim[3];
        nsm_impact_policy seq = {NSM_POLICY_SEQUENTIAL, order, NULL, 0, 1, NULL, NULL, NULL};
        nsm_impact_policy sim = {NSM_POLICY_SIMULTANEOUS, NULL, (const double[]){1.0}, 0, 1,
                                 NULL, NULL, NULL};
        int ok = 1;
        for (int s = 0; s < 3 && ok; s++) {
            nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
            opts.steps = steps[s];
            double vp[3], L[3];
            nsm_impact_info info;
            ok = solve_d(&P, 2, &seq, &opts, vp, L, &info) == NSM_OK;
            eseq[s] = tm_maxabs_diff(3, vp, vref);
            ok = ok && solve_d(&P, 2, &sim, &opts, vp, L, &info) == NSM_OK;
            esim[s] = tm_maxabs_diff(3, vp, vref);
        }
        CU_ASSERT(ok);
        if (!ok) {
            continue;
        }
        compared++;
        if (getenv("NSM_TEST_VERBOSE") != NULL) {
            printf("\n  case %zu (mu %.3f%s): sequential %.3g %.3g %.3g, simultaneous %.3g %.3g "
                   "%.3g", k, P.mu[0], k % 2 ? ", re-slip" : "", eseq[0], eseq[1], eseq[2],
                   esim[0], esim[1], esim[2]);
        }
        double ws = fmax(eseq[0], fmax(eseq[1], eseq[2]));
        exact += ws <= 1e-7 && eseq[2] <= 1e-9;
        worst_seq = fmax(worst_seq, ws);
        double wm = fmax(esim[0], fmax(esim[1], esim[2]));
        exact_sim += wm <= 1e-7 && esim[2] <= 1e-9;
        worst_sim = fmax(worst_sim, wm);
    }
    printf(" [compared %zu; within 1e-7, and 1e-9 at 4000 steps: sequential %zu (worst %.2g), "
           "simultaneous %zu (worst %.2g)] ", compared, exact, worst_seq, exact_sim, worst_sim);
    CU_ASSERT(compared >= ncases * 3 / 4);
    CU_ASSERT(exact == compared);
    CU_ASSERT(exact_sim == compared);
}

/*
 * Robot-sized contact counts: sequential runs with m = 8, 12 and 16 contacts (n = 2m + 6,
 * random SPD M and rows, one contact in five frictionless) against the oracle of
 * tests/support/spatial_oracle.c, at 4000 steps, to 1e-6 of 1 + max|v-|; a case beyond it
 * must converge (64 000 steps: within 1e-6, or a quarter of the error at 4000).
 * NSM_TEST_VERBOSE=1 prints each case.
 */
#define BIG_M 16u
#define BIG_N (2u * BIG_M + 6u)
typedef struct big_problem {
    size_t n, m;
    double M[BIG_N * BIG_N], Jn[BIG_M * BIG_N], Jt[2 * BIG_M * BIG_N], mu[BIG_M], vm[BIG_N];
} big_problem;

static double big_work[1 << 16];

static nsm_status big_solve(const big_problem *P, size_t steps, double *vp)
{
    size_t order[BIG_M];
    for (size_t c = 0; c < P->m; c++) {
        order[c] = c;
    }
    const nsm_contact_problem prob = {P->n, P->m, 2, P->M, P->Jn, P->Jt, P->mu, P->vm};
    const nsm_impact_policy pol = {NSM_POLICY_SEQUENTIAL, order, NULL, 0, 1, NULL, NULL, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = steps;
    double lam[3 * BIG_M];
    nsm_impact_result res = {vp, lam, {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0}};
    size_t lw = nsm_impact_work(P->n, P->m);
    CU_ASSERT_FATAL(lw > 0 && lw <= sizeof big_work / sizeof big_work[0]);
    return nsm_impact_solve(&prob, &pol, &opts, &res, big_work, lw);
}

/* CLAIM: impact.h NSM_POLICY_SEQUENTIAL, d = 2, with up to 16 contacts (docs/math.md (I12)) */
static void test_spatial_sequential_many(void)
{
    static const size_t ms[3] = {8, 12, 16};
    size_t cases = prop_cases(12), compared = 0, within = 0;
    double worst = 0.0;
    for (size_t k = 0; k < cases; k++) {
        nsm_rng rng;
        nsm_rng_seed(&rng, prop_base_seed() + 9000 + k);
        static big_problem P;
        P.m = ms[k % 3];
        P.n = 2 * P.m + 6;
        prop_spd(&rng, P.n, 10.0, 1.0, P.M);
        prop_vector(&rng, P.m * P.n, P.Jn);
        prop_vector(&rng, 2 * P.m * P.n, P.Jt);
        for (size_t c = 0; c < P.m; c++) {
            P.mu[c] = nsm_rng_index(&rng, 0, 5) == 0 ? 0.0 : nsm_rng_range(&rng, 0.05, 1.5);
        }
        (void)prop_approaching(&rng, P.n, P.m, P.Jn, 0.1, P.vm);
        size_t order[BIG_M];
        for (size_t c = 0; c < P.m; c++) {
            order[c] = c;
        }
        double vref[BIG_N], vp[BIG_N];
        if (sp_oracle_sequential(P.n, P.m, P.M, P.Jn, P.Jt, P.mu, P.vm, order, vref, NULL) !=
            SP_ORACLE_OK) {
            continue;
        }
        nsm_status st = big_solve(&P, 4000, vp);
        if (st == NSM_ERR_NOT_CERTIFIED || st == NSM_ERR_NO_BOUND) {
            continue; /* no a priori bound: not compared */
        }
        CU_ASSERT_EQUAL(st, NSM_OK);
        double scale = 1.0 + tm_maxabs(P.n, P.vm);
        double e4 = tm_maxabs_diff(P.n, vp, vref) / scale;
        compared++;
        double e64 = e4;
        if (e4 > 1e-6) {
            CU_ASSERT_EQUAL(big_solve(&P, 64000, vp), NSM_OK);
            e64 = tm_maxabs_diff(P.n, vp, vref) / scale;
            CU_ASSERT(refine_converges(e4, e64, INFINITY, 1e-6));
        } else {
            within++;
        }
        worst = fmax(worst, e4);
        if (getenv("NSM_TEST_VERBOSE") != NULL) {
            printf("\n  m %zu n %zu: error %.3g at 4000 steps, %.3g at 64000", P.m, P.n, e4, e64);
        }
    }
    printf(" [compared %zu of %zu: within 1e-6 at 4000 steps %zu (worst %.2g)] ", compared,
           cases, within, worst);
    CU_ASSERT(compared * 4 >= cases * 3);
}

/*
 * Several spatial contacts, sequential policy (docs/math.md: the first penetrating contact of
 * the order acts alone until u_n,c = 0, then the next; a contact pushed back into penetration
 * acts again), against the oracle of tests/support/spatial_oracle.c (the same rule, each
 * contact's phase integrated by RK4 with the impulse taken along the slip). On 500 random
 * problems with 2 or 3 contacts (the accuracy stage checks 2 to 5): the library at 4000 steps
 * agrees with it to 1e-6 (1 + |v-|), except in at most 1 % of the cases, where the error at
 * 64000 steps is at most a quarter of that at 4000 or within 1e-6 (it converges); a case that
 * does neither fails. NSM_TEST_VERBOSE=1 prints the cases beyond 1e-6.
 */
typedef struct seq_ctx {
    size_t compared, within, slow, skipped;
    double worst, worst_slow;
} seq_ctx;

/* The library (d = 2, default options but `steps`) into vp: 0 on NSM_OK; 1 without an a
   priori bound (NSM_ERR_NO_BOUND, NSM_ERR_NOT_CERTIFIED: the case is not compared); -1 on any
   other status, with msg written. */
static int solve_at(const sproblem *P, const nsm_impact_policy *pol, size_t steps, double *vp,
                    char *msg, size_t msglen)
{
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = steps;
    double L[3 * MAXM];
    nsm_impact_info info;
    nsm_status st = solve_d(P, 2, pol, &opts, vp, L, &info);
    if (st == NSM_ERR_NO_BOUND || st == NSM_ERR_NOT_CERTIFIED) {
        return 1;
    }
    if (st != NSM_OK) {
        snprintf(msg, msglen, "status %s at %zu steps", nsm_status_str(st), steps);
        return -1;
    }
    return 0;
}

static int prop_spatial_sequential_oracle(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    seq_ctx *ctx = vctx;
    sproblem P;
    do {
        random_sproblem(rng, &P);
    } while (P.m < 2);
    size_t order[MAXM];
    double ratios[MAXM];
    nsm_impact_policy pol;
    random_policy(rng, P.m, NSM_POLICY_SEQUENTIAL, order, ratios, &pol);
    double vref[MAXN], vp[MAXN];
    int rc = sp_oracle_sequential(P.n, P.m, P.M, P.Jn, P.Jt, P.mu, P.vm, order, vref, NULL);
    if (rc == SP_ORACLE_ERR_ARG) {
        snprintf(msg, msglen, "oracle argument error");
        return 1;
    }
    if (rc != SP_ORACLE_OK) {
        ctx->skipped++;
        return 0;
    }
    double vmax = tm_maxabs(P.n, P.vm);
    int cls = solve_at(&P, &pol, 4000, vp, msg, msglen);
    if (cls != 0) {
        ctx->skipped += cls > 0;
        return cls < 0;
    }
    double e4 = tm_maxabs_diff(P.n, vp, vref) / (1.0 + vmax);
    ctx->compared++;
    if (e4 <= 1e-6) {
        ctx->within++;
        ctx->worst = fmax(ctx->worst, e4);
        return 0;
    }
    cls = solve_at(&P, &pol, 64000, vp, msg, msglen);
    if (cls != 0) {
        snprintf(msg, msglen, "m %zu: no result at 64000 steps", P.m);
        return 1;
    }
    double e64 = tm_maxabs_diff(P.n, vp, vref) / (1.0 + vmax);
    ctx->slow++;
    ctx->worst_slow = fmax(ctx->worst_slow, e4);
    if (getenv("NSM_TEST_VERBOSE") != NULL) {
        printf("\n  m %zu n %zu: errors %.3g at 4000 steps, %.3g at 64000", P.m, P.n, e4, e64);
    }
    if (!refine_converges(e4, e64, INFINITY, 1e-6)) {
        snprintf(msg, msglen, "m %zu: error %.3g at 4000 steps, %.3g at 64000", P.m, e4, e64);
        return 1;
    }
    return 0;
}

static void test_spatial_sequential_oracle(void)
{
    seq_ctx ctx = {0, 0, 0, 0, 0.0, 0.0};
    size_t cases = prop_run("spatial sequential, several contacts, against the oracle",
                            prop_spatial_sequential_oracle, &ctx, 500);
    printf(" [compared %zu of %zu (skipped %zu): within 1e-6 at 4000 steps %zu (worst %.2g), "
           "beyond %zu (worst %.2g)] ",
           ctx.compared, cases, ctx.skipped, ctx.within, ctx.worst, ctx.slow, ctx.worst_slow);
    CU_ASSERT(ctx.compared >= cases * 3 / 4);
    if (cases >= 100) { /* a share of a sample: NSM_PROP_CASES may run a few cases only (at 50
                           cases, one of the three slow cases of 500 is among them) */
        CU_ASSERT(ctx.slow * 100 <= ctx.compared);
    }
}

/*
 * Several spatial contacts, simultaneous and priority policies, against plain explicit steps
 * of the inclusion in impulse space (sp_oracle_fine, tests/support/spatial_oracle.c, written
 * apart from the library): every step of normal impulse h applies the weights ratios_c / (sum
 * over the penetrating contacts), or weight 1 on the first penetrating contact of the order,
 * to the contacts penetrating at its start, each with the sliding rate -mu u_t/|u_t| at that
 * point (nothing is located), so rest and stick are reached by chattering. As for d = 1
 * (tests/test_impact.c), a case where a contact that had stopped penetrating re-enters beyond
 * 20 h max|W| (1 + mu) is not compared (the share did not hold it). The oracle at h = S/12500
 * and S/25000 (S = max over penetrating contacts of -u_n/W_nn); the library (which holds
 * contacts at rest, docs/math.md) at 4000 steps: within the tolerance
 * max(4 |oracle(h) - oracle(h/2)|, 1e-4) (1 + |v-|) in at least 95 % of the compared cases
 * (asserted from 100 cases on), and within 3e-2 (1 + |v-|) in every one. Measured on 500
 * cases: simultaneous 484 of 485 within it (worst 1.8e-4); the other, 1.1e-2 off at every
 * step count, is a held weight beyond the share that this coarse oracle does not flag (at
 * the accuracy stage's finer steps it re-enters and is not compared); priority 475 of 475.
 * Before contacts were held for d = 2 (they alternated at rest, first order): 438 of 485
 * and 433 of 475, the rest at most 3.7e-3 and 2.0e-3 (the accuracy stage now checks these
 * runs to 1e-6 with the oracle refined, tests/accuracy/accuracy_spatial.c).
 */
typedef struct fine_sctx {
    nsm_policy_kind kind;
    size_t compared, agree, slower, reentry, skipped;
    double worst, worst_slow;
} fine_sctx;

static int prop_spatial_fine(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    fine_sctx *ctx = vctx;
    sproblem P;
    do {
        random_sproblem(rng, &P);
    } while (P.m < 2);
    size_t order[MAXM];
    double ratios[MAXM];
    nsm_impact_policy pol;
    random_policy(rng, P.m, ctx->kind, order, ratios, &pol);
    const size_t *ord = ctx->kind == NSM_POLICY_PRIORITY ? order : NULL;
    const double *rat = ord == NULL ? ratios : NULL;
    double v1[MAXN], v2[MAXN];
    int re1 = 0, re2 = 0;
    size_t n1 = 0, n2 = 0;
    int rc1 = sp_oracle_fine(P.n, P.m, P.M, P.Jn, P.Jt, P.mu, P.vm, rat, ord, 8e-5, 4000000,
                             v1, &re1, &n1);
    int rc2 = rc1 == SP_ORACLE_OK
                  ? sp_oracle_fine(P.n, P.m, P.M, P.Jn, P.Jt, P.mu, P.vm, rat, ord, 4e-5,
                                   4000000, v2, &re2, &n2)
                  : rc1;
    if (rc2 == SP_ORACLE_ERR_ARG) {
        snprintf(msg, msglen, "oracle argument error (LAPACK dposv on an SPD M?)");
        return 1;
    }
    if (rc2 != SP_ORACLE_OK) {
        ctx->skipped++;
        return 0;
    }
    if (re1 || re2) {
        ctx->reentry++;
        return 0;
    }
    double vp[MAXN];
    int cls = solve_at(&P, &pol, 4000, vp, msg, msglen);
    if (cls != 0) {
        ctx->skipped += cls > 0;
        return cls < 0;
    }
    double scale = 1.0 + tm_maxabs(P.n, P.vm);
    double eo = tm_maxabs_diff(P.n, v1, v2) / scale;
    double diff = tm_maxabs_diff(P.n, vp, v2) / scale;
    double tol = fmax(4.0 * eo, 1e-4);
    ctx->compared++;
    if (diff <= tol) {
        ctx->agree++;
        ctx->worst = fmax(ctx->worst, diff);
        return 0;
    }
    /* beyond tol: the alternation's first-order error (forced segments); never gross */
    if (getenv("NSM_TEST_VERBOSE") != NULL) {
        printf("\n  m %zu n %zu: differs by %.3g (oracle h/h2 %.3g)", P.m, P.n, diff, eo);
    }
    if (!(diff <= 3e-2)) {
        snprintf(msg, msglen, "m %zu: differs by %.3g at 4000 steps", P.m, diff);
        return 1;
    }
    ctx->slower++;
    ctx->worst_slow = fmax(ctx->worst_slow, diff);
    return 0;
}

static void spatial_fine_run(nsm_policy_kind kind, const char *name)
{
    fine_sctx ctx = {kind, 0, 0, 0, 0, 0, 0.0, 0.0};
    size_t cases = prop_run(name, prop_spatial_fine, &ctx, 500);
    printf(" [compared %zu of %zu: within tolerance %zu (worst %.2g), beyond it %zu "
           "(worst %.2g); share did not hold %zu; skipped %zu] ",
           ctx.compared, cases, ctx.agree, ctx.worst, ctx.slower, ctx.worst_slow, ctx.reentry,
           ctx.skipped);
    if (cases >= 100) { /* shares of a sample; NSM_PROP_CASES may run a few cases only */
        CU_ASSERT(ctx.compared * 10 >= cases * 7);
        CU_ASSERT(ctx.agree * 100 >= ctx.compared * 95);
    }
}

static void test_spatial_simultaneous_fine(void)
{
    spatial_fine_run(NSM_POLICY_SIMULTANEOUS, "spatial simultaneous = explicit-step oracle");
}

static void test_spatial_priority_fine(void)
{
    spatial_fine_run(NSM_POLICY_PRIORITY, "spatial priority = explicit-step oracle");
}

/* A unit point mass (3 translational dofs) on a floor z = 0: one contact, tangents x and y,
   normal z, friction mu, v- = (vx, vy, vz). */
static void point_mass_on_floor(double mu, double vx, double vy, double vz, sproblem *S)
{
    memset(S, 0, sizeof *S);
    S->n = 3;
    S->m = 1;
    S->M[0] = S->M[4] = S->M[8] = 1.0;
    S->Jt[0] = 1.0;
    S->Jt[4] = 1.0;
    S->Jn[2] = 1.0;
    S->mu[0] = mu;
    S->vm[0] = vx;
    S->vm[1] = vy;
    S->vm[2] = vz;
}

/* Input validation specific to d; the planar data are rejected the same way as by d = 1. */
static void test_spatial_errors(void)
{
    sproblem P;
    nsm_rng rng;
    nsm_rng_seed(&rng, prop_base_seed());
    random_sproblem(&rng, &P);
    nsm_impact_policy pol = {NSM_POLICY_SIMULTANEOUS, NULL, (const double[]){1, 1, 1}, 0, 1, NULL, NULL, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    double vp[MAXN], L[3 * MAXM];
    for (size_t i = 0; i < MAXN; i++) {
        vp[i] = 7.0;
    }
    nsm_impact_info info;
    CU_ASSERT_EQUAL(solve_d(&P, 0, &pol, &opts, vp, L, &info), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(solve_d(&P, 3, &pol, &opts, vp, L, &info), NSM_ERR_ARG);
    size_t lw = nsm_impact_work(P.n, P.m);
    CU_ASSERT_EQUAL(args_impact_solve(P.n, P.m, 2, P.M, P.Jn, NULL, P.mu, P.vm, &pol, &opts,
                                       vp, L, &info, work_buf, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(args_impact_solve(P.n, P.m, 2, P.M, P.Jn, P.Jt, P.mu, P.vm, &pol, &opts,
                                       vp, L, &info, work_buf, lw - 1), NSM_ERR_WORKSPACE);
    /* Lambda overlapping the second tangent rows of Jt */
    CU_ASSERT_EQUAL(args_impact_solve(P.n, P.m, 2, P.M, P.Jn, P.Jt, P.mu, P.vm, &pol, &opts,
                                       vp, P.Jt + (2 * P.m - 1) * P.n, &info, work_buf, lw),
                    NSM_ERR_ALIAS);
    double keep = P.Jt[(2 * P.m - 1) * P.n];
    P.Jt[(2 * P.m - 1) * P.n] = NAN; /* last entry read only when d = 2 */
    CU_ASSERT_EQUAL(solve_d(&P, 2, &pol, &opts, vp, L, &info), NSM_ERR_NOT_FINITE);
    P.Jt[(2 * P.m - 1) * P.n] = keep;
    P.mu[0] = -0.5;
    CU_ASSERT_EQUAL(solve_d(&P, 2, &pol, &opts, vp, L, &info), NSM_ERR_ARG);
    for (size_t i = 0; i < MAXN; i++) {
        CU_ASSERT_EQUAL(vp[i], 7.0);
    }
    P.mu[0] = 0.5;
    /* separating velocity: the trivial answer */
    for (size_t i = 0; i < P.n; i++) {
        P.vm[i] = 0.0;
        for (size_t c = 0; c < P.m; c++) {
            P.vm[i] += P.Jn[c * P.n + i];
        }
    }
    /* v- = Jn^T 1 makes J_n v- = Jn Jn^T 1, not necessarily positive: scale to positive */
    int separating = 1;
    for (size_t c = 0; c < P.m; c++) {
        double un = 0;
        for (size_t i = 0; i < P.n; i++) {
            un += P.Jn[c * P.n + i] * P.vm[i];
        }
        separating &= un >= 0.0;
    }
    if (separating) {
        CU_ASSERT_EQUAL(solve_d(&P, 2, &pol, &opts, vp, L, &info), NSM_OK);
        CU_ASSERT_EQUAL(tm_maxabs_diff(P.n, vp, P.vm), 0.0);
        CU_ASSERT_EQUAL(tm_maxabs(3 * P.m, L), 0.0);
        CU_ASSERT_EQUAL(info.s, 0.0);
    }
    /* a single contact with zero velocity everywhere but the normal: the trivial answer */
    sproblem S;
    point_mass_on_floor(0.5, 0.0, 0.0, 0.25, &S);
    CU_ASSERT_EQUAL(solve_d(&S, 2, &pol, &opts, vp, L, &info), NSM_OK);
    CU_ASSERT_EQUAL(vp[2], 0.25);
    CU_ASSERT_EQUAL(L[2], 0.0);
    /* frictionless normal impact on a unit mass: exact */
    S.vm[0] = 0.3;
    S.vm[1] = -0.2;
    S.vm[2] = -0.25;
    S.mu[0] = 0.0;
    CU_ASSERT_EQUAL(solve_d(&S, 2, &pol, &opts, vp, L, &info), NSM_OK);
    CU_ASSERT(fabs(vp[2]) <= 1e-15);
    CU_ASSERT_EQUAL(vp[0], 0.3);
    CU_ASSERT_EQUAL(vp[1], -0.2);
    CU_ASSERT(fabs(L[2] - 0.25) <= 1e-15);
}

/* A unit point mass sliding diagonally onto a floor with mu large enough to stop the slip:
   closed form. u_t0 = (a, b), u_n0 = -c, W = I: slip is straight (no rotation), |u_t| falls at
   rate mu per unit p_n; if mu·c >= |u_t0| the mass stops sliding: v+ = 0; else
   v+_t = u_t0 (1 - mu c/|u_t0|). */
static void test_point_mass_closed_form(void)
{
    double cases[4][4] = {{0.3, 0.4, 1.0, 0.2}, {0.3, 0.4, 1.0, 0.8}, {-1.0, 2.0, 0.5, 1.5},
                          {0.0, 0.0, 1.0, 0.3}};
    for (int k = 0; k < 4; k++) {
        double a = cases[k][0], b = cases[k][1], c = cases[k][2], mu = cases[k][3];
        sproblem S;
        point_mass_on_floor(mu, a, b, -c, &S);
        nsm_impact_policy pol = {NSM_POLICY_SIMULTANEOUS, NULL, (const double[]){1.0}, 0, 1, NULL, NULL, NULL};
        nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
        double vp[3], L[3];
        nsm_impact_info info;
        CU_ASSERT_EQUAL_FATAL(solve_d(&S, 2, &pol, &opts, vp, L, &info), NSM_OK);
        double sp = hypot(a, b);
        double f = sp > 0.0 && mu * c < sp ? 1.0 - mu * c / sp : 0.0;
        CU_ASSERT(fabs(vp[0] - a * f) <= 1e-12);
        CU_ASSERT(fabs(vp[1] - b * f) <= 1e-12);
        CU_ASSERT(fabs(vp[2]) <= 1e-12);
        CU_ASSERT(fabs(L[2] - c) <= 1e-12);
    }
}

/* The post-impact velocity does not depend on the unit of mass (docs/math.md, units). M is
   scaled by 2^k (W by 2^-k exactly, the impulses by 2^k); the velocity must be the unscaled
   run's to 1e-9. Tangential norms of impulse rates were squared unscaled: with W ~ 1e199 they
   overflowed, every slip's turn bound fell to hmin, and a point mass took 448 554 steps
   instead of 389 and ended with u_n = 1.7e-6 instead of 0. Checked on that point mass
   (inertia diag(1, 4, 1), a tilted tangent row) for k = ±330 and ±660 (about 1e±99 and
   1e±199), and on 30 random problems, sequential and simultaneous, for k = ±330: at ±660 some
   of them still take other paths (squares of rates elsewhere in the integrator). */
static void scaled_runs(const sproblem *P, const char *what, int kmax)
{
    static const int ks[4] = {-660, -330, 330, 660};
    size_t order[MAXM];
    double ratios[MAXM];
    for (size_t c = 0; c < P->m; c++) {
        order[c] = c;
        ratios[c] = 1.0;
    }
    for (int pk = 0; pk < 2; pk++) {
        nsm_impact_policy pol = {pk == 0 ? NSM_POLICY_SEQUENTIAL : NSM_POLICY_SIMULTANEOUS,
                                 order, ratios, 0, 1, NULL, NULL, NULL};
        nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
        double v0[MAXN], vp[MAXN], L[3 * MAXM];
        nsm_impact_info info;
        if (solve_d(P, 2, &pol, &opts, v0, L, &info) != NSM_OK) {
            continue; /* the claim is about answers: a problem without one is skipped */
        }
        double vmax = 1.0;
        for (size_t i = 0; i < P->n; i++) {
            vmax = fmax(vmax, fabs(v0[i]));
        }
        for (size_t j = 0; j < 4; j++) {
            if (abs(ks[j]) > kmax) {
                continue;
            }
            sproblem S = *P;
            for (size_t i = 0; i < P->n * P->n; i++) {
                S.M[i] = ldexp(P->M[i], ks[j]);
            }
            nsm_status st = solve_d(&S, 2, &pol, &opts, vp, L, &info);
            double err = 0.0;
            for (size_t i = 0; i < P->n; i++) {
                err = fmax(err, fabs(vp[i] - v0[i]));
            }
            if (st != NSM_OK || !(err <= 1e-9 * vmax)) {
                fprintf(stderr, "\n  %s, policy %d, M scaled by 2^%d: status %d, |dv| %.3g\n",
                        what, pk, ks[j], (int)st, err);
                CU_FAIL("the outcome depends on the unit of mass");
            }
        }
    }
}

static void test_mass_unit(void)
{
    sproblem P;
    memset(&P, 0, sizeof P);
    P.n = 3;
    P.m = 1;
    const double M[9] = {1, 0, 0, 0, 4, 0, 0, 0, 1};
    const double Jt[6] = {1, 0, 0, 0, 1, 0.25};
    memcpy(P.M, M, sizeof M);
    memcpy(P.Jt, Jt, sizeof Jt);
    P.Jn[2] = 1.0;
    P.mu[0] = 0.5;
    P.vm[0] = 1.0;
    P.vm[1] = 1.0;
    P.vm[2] = -1.0;
    scaled_runs(&P, "point mass", 660);
    nsm_rng rng;
    nsm_rng_seed(&rng, prop_base_seed() + 43);
    for (int t = 0; t < 30; t++) {
        random_sproblem(&rng, &P);
        scaled_runs(&P, "random problem", 330);
    }
}

/* The options of a fuzzed input: the defaults (vtol 1e-9 among them) with the input's steps,
   Frank–Wolfe budget and fallback steps. */
static nsm_impact_opts fuzzed_opts(size_t steps, size_t fw_iters, size_t fallback_steps)
{
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = steps;
    opts.fw_iters = fw_iters;
    opts.fallback_steps = fallback_steps;
    return opts;
}

/* Fuzz finding T1 (finding_T1_impact_spatial_stalled_turn, a libFuzzer timeout of a CI run):
   one degree of freedom, four spatial contacts at scales 1e242 (M) and 1e245 (J), steps = 1.
   Contacts 1-3 slip with u_t ~ 1e-12 while their normal velocities are ~1e233: their turn
   bound shrank each segment below hmin, and from about 200 segments on the segments moved no
   velocity beyond rounding; the run spent its NSM_IMPACT_EXACT_SHORT_EXPLORE_SPATIAL short
   segments (20 033 steps, 23 s under the sanitizers) where 235 do. Header claim: a segment
   that moves no contact velocity beyond rounding ends the exact following of slips. Checked
   at 100 steps (the fuzzed steps = 1 now allows 25 short segments, too few to tell), with
   mu_0 = 0.9: NSM_OK without using up the short segments, and the closed form: every J row
   is a multiple of the one velocity, so the impact ends at v = 0 (plastic), here within the
   hmin overshoot. The fuzzed mu_0 = 4.5625 has no bound (closed form: mu_0 |Jt_0| > |Jn_0|,
   so contact 0's cone holds an impulse with J^T Λ = 0 and gamma = 0): NSM_ERR_NO_BOUND. It
   was certified while |g_t|² overflowed to infinity and Frank–Wolfe's vertex lost its
   friction (an unsound bound, found by the mass-unit test below). */
static void test_stalled_turn(void)
{
    const double M[1] = {1.1301630975297797e+242};
    const double Jn[4] = {-5.1753916921455154e+245, -5.1753916921455154e+245,
                          -5.1753916921455154e+245, -4.985486626598317e+245};
    const double Jt[8] = {-5.3842495936277951e+245, -1.3686350260599896e-48, 4.5625, 4.5625,
                          4.5625, 4.5625, 4.5625, 4.5625};
    const double ratios[4] = {3, 4, 3, 3};
    nsm_impact_policy pol = {NSM_POLICY_SIMULTANEOUS, NULL, ratios, 769, 2, NULL, NULL, NULL};
    nsm_impact_opts opts = fuzzed_opts(100, 4, 9);
    double vp[1], L[12];
    nsm_impact_info info;
    size_t lw = nsm_impact_work(1, 4);
    CU_ASSERT_FATAL(lw > 0 && lw <= sizeof work_buf / sizeof work_buf[0]);
    const double vm[1] = {4.5625};
    const double mu_fuzzed[4] = {4.5625, 1.4375, 1.4375, 1.4375};
    CU_ASSERT(4.5625 * fabs(Jt[0]) > fabs(Jn[0])); /* the closed form's premise */
    CU_ASSERT_EQUAL(args_impact_solve(1, 4, 2, M, Jn, Jt, mu_fuzzed, vm, &pol, &opts, vp, L,
                                      &info, work_buf, lw),
                    NSM_ERR_NO_BOUND);
    const double mu[4] = {0.9, 1.4375, 1.4375, 1.4375};
    CU_ASSERT(0.9 * fabs(Jt[0]) < fabs(Jn[0])); /* gamma > 0 */
    CU_ASSERT_EQUAL_FATAL(args_impact_solve(1, 4, 2, M, Jn, Jt, mu, vm, &pol, &opts, vp, L,
                                             &info, work_buf, lw),
                          NSM_OK);
    /* fewer steps than the short segments the run may take: they were not used up */
    CU_ASSERT(info.steps < opts.steps * NSM_IMPACT_EXACT_SHORT_PER_STEP);
    CU_ASSERT(fabs(vp[0]) <= 1e-3 * vm[0]);
}

/* Fuzz finding T3 (finding_T3_impact_arc_underflow, a libFuzzer timeout of a CI run): n = 5,
   four spatial contacts, sequential, steps = 5, M ~ 1e200, so that each contact's block of W
   was ~1e-199. A slip arc's test for a slip heading straight into rest squared g_t ~ 1e-203
   to 0, never fired, and a slip decaying slowly on a stiff block ran its substeps out (0.75 s
   at -O1, 4.8 s under the sanitizers; 18 ms with the fix). The angle between x_t and g_t is
   now measured on both scaled to a largest entry of 1. Checked on the arc itself
   (nsm_impact_arc, src/impact/impact_internal.h): a block with tangential stiffnesses 1 and
   0.01 (a slow mode: about 5 000 substeps to decay to 1e-12 of the slip without the test) at
   scales 1, 1e-200 and 1e200: the slip stops (NSM_ARC_STOP, not the substep cap) at every
   scale, with the same impulse relative to the scale to 1e-12. */
static void test_arc_scale(void)
{
    const double x0[3] = {1.0, 1.0, 0.5};
    const double scales[3] = {1.0, 1e-200, 1e200};
    double ref[3] = {0.0, 0.0, 0.0};
    for (size_t k = 0; k < 3; k++) {
        double s = scales[k];
        const double B[9] = {s, 0.0, 0.0, 0.0, 0.01 * s, 0.0, 0.0, 0.0, s};
        double dl[3];
        int ev = -1;
        double len = nsm_impact_arc(B, 1.0, x0, 1e6 / s, 0.0, 1e-12, dl, &ev);
        CU_ASSERT_EQUAL(ev, NSM_ARC_STOP);
        CU_ASSERT(len > 0.0 && len < 1e6 / s);
        for (size_t i = 0; i < 3; i++) {
            if (k == 0) {
                ref[i] = dl[i];
            } else {
                CU_ASSERT(fabs(dl[i] * s - ref[i]) <= 1e-12 * fabs(ref[2]));
            }
        }
    }
}

/* Fuzz finding P11 (finding_P11_impact_held_slip_drift, a 15-minute local run): n = 2, three
   spatial contacts, simultaneous, mu_1 = 4.79e-246. Contact 1, held at normal rest while it
   slipped, ended with |Λ_t| = 1.0009 mu Λ_n: each Gauss–Seidel update of its held weight moved
   the tangential slot by s·dx, and these sums drifted from s·x (a slip rate 1.0072 mu x in
   some segments). The slots are now set from x. Header claim (impact.h): every contact's
   impulse lies in its cone, here to 1e-12 relative (the fuzz harness allows 1e-9). */
static void test_held_slip_drift(void)
{
    const double M[4] = {6.125, 1.5625, 1.5625, 6.125};
    const double Jn[6] = {0, -3.375, -4, 4.75, 0, -3.9375};
    const double Jt[12] = {-4, 1, -2.5, 3.5625, -2.4375, -0.9375, 4.9406564584124654e-324,
                           4.9406564584124654e-324, 4.9406564584124654e-324,
                           2.1999999999999834e-310, 4.9406564584124654e-324,
                           4.9406564584124654e-324};
    const double mu[3] = {4.9406564584124654e-324, 4.7898426333644449e-246, 5.8125};
    const double vm[2] = {5.8125, 0.25};
    const double ratios[3] = {4.9406564584124654e-324, 2.1999999999999834e-310,
                              4.9406564584124654e-324};
    nsm_impact_policy pol = {NSM_POLICY_SIMULTANEOUS, NULL, ratios, 42919, 2, NULL, NULL, NULL};
    nsm_impact_opts opts = fuzzed_opts(1, 9, 17);
    double vp[2], L[9];
    nsm_impact_info info;
    size_t lw = nsm_impact_work(2, 3);
    CU_ASSERT_FATAL(lw > 0 && lw <= sizeof work_buf / sizeof work_buf[0]);
    CU_ASSERT_EQUAL_FATAL(args_impact_solve(2, 3, 2, M, Jn, Jt, mu, vm, &pol, &opts, vp, L,
                                             &info, work_buf, lw),
                          NSM_OK);
    /* contacts 1 and 2 (contact 0's mu is the smallest subnormal: its cone is rounding) */
    for (size_t c = 1; c < 3; c++) {
        double t = hypot(L[3 * c], L[3 * c + 1]);
        CU_ASSERT(L[3 * c + 2] > 0.0);
        CU_ASSERT(t <= mu[c] * L[3 * c + 2] * (1.0 + 1e-12));
    }
}

/* Fuzz finding T2 (finding_T2_impact_spatial_short_budget, a libFuzzer timeout of a longer
   local fuzzing run): n = 5, four spatial contacts, simultaneous, steps = 13. One contact's
   u_n approaches 0 geometrically while another alternates between stick and slip, a Zeno
   accumulation of events: the run took NSM_IMPACT_EXACT_SHORT_EXPLORE_SPATIAL (20 000) short
   segments whatever its steps, each with four Runge–Kutta stages of joint solves (17 s under
   the sanitizers, 0.97 s at -O2). Header claim: for d = 2 the short segments are at most
   NSM_IMPACT_EXACT_SHORT_PER_STEP per step of h, so that with the a priori bound a run takes
   at most steps·(NSM_IMPACT_MIN_STEP_RATIO + NSM_IMPACT_EXACT_SHORT_PER_STEP) + 1 steps.
   Checked: that count, and the outcome's energy and normal velocities. */
static void test_short_budget(void)
{
    const double M[25] = {19.25, -4, -4, -4, 3.75, -4, 20, 3.75, 3.75, 3.75, -4, 3.75, 18.1875,
                          -3.9375, -1.9375, -4, 3.75, -3.9375, 20.4375, -3.8125, 3.75, 3.75,
                          -1.9375, -3.8125, 15.75};
    const double Jn[20] = {-4, -3.875, -4, -4, 1, 0, 0, 0, 1, 0,
                           -0.375, -0.4375, -4, -4, -4, -4, 1, 0.5, -3.375, -3.375};
    const double Jt[40] = {-3.375, -3.375, 0, 1, -3.375, -3.375, -3.375, -3.375, -3.375,
                           -3.5625, -4, -4, -4, -4, -4, -4, -4, -3.375, -3.375, -3.375,
                           -3.375, -3.5, -3.375, -3.375, -3.375, -3.375, -3.375, -3.375,
                           -3.375, -3.375, -3.375, -3.375, -3.375, -3.375, -3.375, -3.375,
                           -3.375, -3.375, -0.0625, -3.1875};
    const double mu[4] = {0.5, 0.25, 3.875, 3.8125};
    const double vm[5] = {1.5, -4, -3.875, -4, -1};
    const double ratios[4] = {1, 1, 1, 1};
    nsm_impact_policy pol = {NSM_POLICY_SIMULTANEOUS, NULL, ratios, 0, 0, NULL, NULL, NULL};
    nsm_impact_opts opts = fuzzed_opts(13, 29, 61);
    double vp[5], L[12];
    nsm_impact_info info;
    size_t lw = nsm_impact_work(5, 4);
    CU_ASSERT_FATAL(lw > 0 && lw <= sizeof work_buf / sizeof work_buf[0]);
    CU_ASSERT_EQUAL_FATAL(args_impact_solve(5, 4, 2, M, Jn, Jt, mu, vm, &pol, &opts, vp, L,
                                             &info, work_buf, lw),
                          NSM_OK);
    CU_ASSERT(info.has_bound);
    CU_ASSERT(info.steps <= opts.steps * (NSM_IMPACT_MIN_STEP_RATIO +
                                          NSM_IMPACT_EXACT_SHORT_PER_STEP) + 1);
    double e0 = 0.0, e1 = 0.0;
    for (size_t i = 0; i < 5; i++) {
        for (size_t j = 0; j < 5; j++) {
            e0 += 0.5 * vm[i] * M[i * 5 + j] * vm[j];
            e1 += 0.5 * vp[i] * M[i * 5 + j] * vp[j];
        }
    }
    CU_ASSERT(e1 <= e0 * (1.0 + 1e-12));
    for (size_t c = 0; c < 4; c++) {
        double un = 0.0;
        for (size_t i = 0; i < 5; i++) {
            un += Jn[c * 5 + i] * vp[i];
        }
        CU_ASSERT(un >= -info.check_tol);
    }
}

/* A rigid box landing flat on its four corners (examples/problems/box_land_flat.json: n = 6,
   k = 4 spatial contacts whose 12 rows have rank 6, mu = 0.8), run with constant ratios under
   the sets' slip_rest (NSM_OUTCOME_SLIP_REST) at 2000 and 8000 steps. Asserts that each run
   takes at most 3 x its steps and agrees with the independent explicit-step oracle
   (sp_oracle_fine, chattering into rest, h = 8e-5 S and 4e-5 S) within
   max(4 |oracle(h) - oracle(h/2)|, 1e-4) (1 + |v-|). */
static void box_flat_against_oracle(const double ratios[4])
{
    double M[36] = {0};
    M[0] = 2.0;
    M[7] = 2.0;
    M[14] = 2.0;
    M[21] = 0.021666666666666667;
    M[28] = 0.03333333333333334;
    M[35] = 0.041666666666666664;
    const double Jn[24] = {0, 0, 1, -0.15, 0.2, 0, 0, 0, 1, -0.15, -0.2, 0,
                           0, 0, 1, 0.15,  0.2, 0, 0, 0, 1, 0.15,  -0.2, 0};
    const double Jt[48] = {0,  1, 0, 0.0995, 0,      -0.2,  -1, 0, 0, 0,      0.0995, -0.15,
                           0,  1, 0, 0.0995, 0,      0.2,   -1, 0, 0, 0,      0.0995, -0.15,
                           0,  1, 0, 0.0995, 0,      -0.2,  -1, 0, 0, 0,      0.0995, 0.15,
                           0,  1, 0, 0.0995, 0,      0.2,   -1, 0, 0, 0,      0.0995, 0.15};
    const double mu[4] = {0.8, 0.8, 0.8, 0.8};
    const double vm[6] = {0.3, 0, -1, -0.1, 0.2, 0};
    double o1[6], o2[6];
    int re1 = 0, re2 = 0;
    size_t n1 = 0, n2 = 0;
    CU_ASSERT_EQUAL_FATAL(sp_oracle_fine(6, 4, M, Jn, Jt, mu, vm, ratios, NULL, 8e-5, 4000000,
                                         o1, &re1, &n1),
                          SP_ORACLE_OK);
    CU_ASSERT_EQUAL_FATAL(sp_oracle_fine(6, 4, M, Jn, Jt, mu, vm, ratios, NULL, 4e-5, 4000000,
                                         o2, &re2, &n2),
                          SP_ORACLE_OK);
    CU_ASSERT_FATAL(!re1 && !re2);
    double scale = 1.0 + tm_maxabs(6, vm);
    double tol = fmax(4.0 * tm_maxabs_diff(6, o1, o2) / scale, 1e-4);
    nsm_impact_policy pol = {NSM_POLICY_SIMULTANEOUS, NULL, ratios, 0, 1, NULL, NULL, NULL};
    size_t lw = nsm_impact_work(6, 4);
    CU_ASSERT_FATAL(lw > 0 && lw <= sizeof work_buf / sizeof work_buf[0]);
    const size_t steps[2] = {2000, 8000};
    for (size_t i = 0; i < 2; i++) {
        nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
        opts.steps = steps[i];
        opts.slip_rest = NSM_OUTCOME_SLIP_REST;
        double vp[6], L[12];
        nsm_impact_info info;
        CU_ASSERT_EQUAL_FATAL(args_impact_solve(6, 4, 2, M, Jn, Jt, mu, vm, &pol, &opts, vp, L,
                                                 &info, work_buf, lw),
                              NSM_OK);
        CU_ASSERT(info.steps <= 3 * opts.steps);
        CU_ASSERT(tm_maxabs_diff(6, vp, o2) / scale <= tol);
    }
}

/* opts.slip_rest (impact.h; docs/math.md, "Contacts at rest", sets): the box landing flat
   (box_flat_against_oracle) with ratios (1, 1/4, 1/16, 1/32). Its corners' slips, held nearly
   still by the joint stick rates, were followed in segments of their own length: 306 147
   steps at 2000 steps asked, 1.16 million at 8000. With slip_rest the run takes at most 3 x
   its steps (measured 917 and 2 976) and agrees with the oracle (measured 1.4e-5 and 5e-6
   from the oracle at h = 1e-5 S; its own error there 4.4e-5). */
/* CLAIM: impact.h nsm_impact_opts.slip_rest: a step's share of friction as rest, runs that cost their steps */
static void test_slip_rest_box(void)
{
    const double ratios[4] = {1.0, 0.25, 0.0625, 0.03125};
    box_flat_against_oracle(ratios);
}

/* The held corners' joint stick rates (docs/math.md (I10), (I10a)): the box landing flat
   (box_flat_against_oracle) with ratios (64, 1/8, 1/32, 1/16), one of the sets' constant-ratio
   runs. Its four corners' stick rates on the rims of their discs, coupled through 12 rows of
   rank 6, took the Gauss–Seidel sweeps 400 sweeps without converging, and each failed call
   fell back to per-contact rules that chattered: 35 606 steps at 2000 asked. The Newton step
   on the disc constraints (rim angles) makes the sweeps converge: at most 3 x the steps, and
   the oracle's answer. */
/* CLAIM: docs/math.md (I10a): the Newton step on the spatial stick rates, runs that cost their steps */
static void test_held_corners_box(void)
{
    const double ratios[4] = {64.0, 0.125, 0.03125, 0.0625};
    box_flat_against_oracle(ratios);
}

/* A penetrating contact's slip entering its rest disc (docs/math.md, "Rest at a step's
   resolution"): the box landing flat (box_flat_against_oracle) with ratios (1/32, 1/64, 1/8,
   1/8), one of the sets' constant-ratio runs. A corner's slip circled just outside the disc
   |u_t| <= ztol (1.6e-5 against 1.57e-5), in segments of its own length: 55 106 steps at 2000
   asked (27.6 x). Stopped where it enters the disc: at most 3 x the steps, and the oracle's
   answer. */
/* CLAIM: docs/math.md Rest at a step's resolution: a penetrating slip stops where it enters the rest disc */
static void test_slip_enters_rest_disc(void)
{
    const double ratios[4] = {0.03125, 0.015625, 0.125, 0.125};
    box_flat_against_oracle(ratios);
}

static CU_TestInfo spatial_tests[] = {
    {"spatial impact: sequential policy (1000 cases)", test_spatial_sequential},
    {"spatial impact: simultaneous policy (1000 cases)", test_spatial_simultaneous},
    {"spatial impact: sampled policy (1000 cases)", test_spatial_sampled},
    {"spatial impact: priority policy, contacts held at rest (1000 cases)",
     test_spatial_priority},
    {"spatial impact: motion in a plane equals the planar solver", test_planar_embedding},
    {"spatial impact: dependent tangent rows give the planar problem", test_dependent_rows},
    {"spatial impact: rotating the tangent frames rotates only the impulses", test_frame_rotation},
    {"spatial impact: one contact against the oracle as the step shrinks", test_step_convergence},
    {"spatial impact: 8 to 16 contacts, sequential, against the oracle",
     test_spatial_sequential_many},
    {"spatial impact: several contacts, sequential, against the oracle",
     test_spatial_sequential_oracle},
    {"spatial impact: several contacts, simultaneous, against plain explicit steps",
     test_spatial_simultaneous_fine},
    {"spatial impact: several contacts, priority, against plain explicit steps",
     test_spatial_priority_fine},
    {"spatial impact: point mass on a floor (closed form)", test_point_mass_closed_form},
    {"spatial impact: bad input and trivial answers", test_spatial_errors},
    {"spatial impact: segments that move nothing end the exact slips (fuzz finding T1)",
     test_stalled_turn},
    {"spatial impact: the outcome does not depend on the unit of mass", test_mass_unit},
    {"spatial impact: a slip arc stops at rest whatever the scale of W (fuzz finding T3)",
     test_arc_scale},
    {"spatial impact: a held slipping contact keeps its cone at mu ~ 1e-246 (fuzz finding P11)",
     test_held_slip_drift},
    {"spatial impact: short segments in proportion to the steps (fuzz finding T2)",
     test_short_budget},
    {"spatial impact: slip_rest on a box landing flat (runs that cost their steps)",
     test_slip_rest_box},
    {"spatial impact: held corners' stick rates converge on a box landing flat (I10a)",
     test_held_corners_box},
    {"spatial impact: a penetrating slip stops where it enters the rest disc (box landing flat)",
     test_slip_enters_rest_disc},
    CU_TEST_INFO_NULL,
};

static int reg(void) { return nsm_add_suite("impact_spatial", spatial_tests); }

int main(void) { return nsm_test_main("test_impact_spatial", reg); }
