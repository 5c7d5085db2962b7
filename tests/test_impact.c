/* Tests of the multi-contact impact integrator (nsm_impact_*) with planar contacts (d = 1);
   spatial contacts: tests/test_impact_spatial.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "entry_args.h"
#include "exact.h"
#include "harness.h"
#include "prop.h"
#include "ball_stack.h"
#include "impact_oracle.h"
#include "box_corner.h"
#include "contact_fixtures.h"
#include "nsmech.h"
#include <lapacke.h>
#include "../src/impact/slide.h"

/* Random problem with at least one penetrating contact; 2m <= n keeps J of full row rank. */
static void random_problem(nsm_rng *rng, problem *P, int allow_wide)
{
    P->n = nsm_rng_index(rng, 2, MAXN);
    size_t mmax = allow_wide ? MAXM : P->n / 2;
    if (mmax > MAXM) {
        mmax = MAXM;
    }
    if (mmax < 1) {
        mmax = 1;
    }
    P->m = nsm_rng_index(rng, 1, mmax);
    prop_spd(rng, P->n, 10.0, 1.0, P->M);
    prop_vector(rng, P->m * P->n, P->Jn);
    prop_vector(rng, P->m * P->n, P->Jt);
    for (size_t c = 0; c < P->m; c++) {
        P->mu[c] = nsm_rng_index(rng, 0, 5) == 0 ? 0.0 : nsm_rng_range(rng, 0.05, 1.5);
    }
    (void)prop_approaching(rng, P->n, P->m, P->Jn, 0.1, P->vm);
}

/* Independent W = J M^-1 J^T with LAPACK (dposv), (t, n) per contact; and u0 = J v-. */
static void oracle_delassus(const problem *P, double *W, double *u0)
{
    size_t n = P->n, K = 2 * P->m;
    double A[MAXN * MAXN], B[MAXN * 2 * MAXM], J[2 * MAXM * MAXN] = {0};
    for (size_t c = 0; c < P->m; c++) {
        for (size_t i = 0; i < n; i++) {
            J[(2 * c) * n + i] = P->Jt[c * n + i];
            J[(2 * c + 1) * n + i] = P->Jn[c * n + i];
        }
    }
    memcpy(A, P->M, sizeof(double) * n * n);
    tm_transpose(K, n, J, B);
    int info = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, (lapack_int)K, A,
                             (lapack_int)n, B, (lapack_int)K);
    CU_ASSERT_EQUAL(info, 0);
    tm_matmul(K, K, n, J, B, W);
    for (size_t k = 0; k < K; k++) {
        u0[k] = 0;
        for (size_t i = 0; i < n; i++) {
            u0[k] += J[k * n + i] * P->vm[i];
        }
    }
}

/* Checks shared by every policy, against plain-loop recomputation. */
static int check_outcome(const problem *P, const double *vp, const double *Lam,
                         const nsm_impact_info *info, char *msg, size_t msglen)
{
    size_t n = P->n, m = P->m;
    /* energy from v (plain loops) */
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
        /* exact membership (rational arithmetic), no tolerance: the header promises it on
           Lambda as returned */
        if (!exact_in_cone(1, P->mu[c], Lam[2 * c + 1], Lam + 2 * c, 0.0)) {
            snprintf(msg, msglen, "impulse of contact %zu outside its cone: (%g, %g) mu %g", c,
                     Lam[2 * c], Lam[2 * c + 1], P->mu[c]);
            return 1;
        }
        s += Lam[2 * c + 1];
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
    /* momentum balance M (v+ - v-) = J^T Lambda */
    for (size_t i = 0; i < n; i++) {
        double lhs = 0, rhs = 0, sc = 0;
        for (size_t j = 0; j < n; j++) {
            lhs += P->M[i * n + j] * (vp[j] - P->vm[j]);
            sc += fabs(P->M[i * n + j]) * (fabs(vp[j]) + fabs(P->vm[j]));
        }
        for (size_t c = 0; c < m; c++) {
            rhs += P->Jt[c * n + i] * Lam[2 * c] + P->Jn[c * n + i] * Lam[2 * c + 1];
            sc += fabs(P->Jt[c * n + i] * Lam[2 * c]) + fabs(P->Jn[c * n + i] * Lam[2 * c + 1]);
        }
        if (fabs(lhs - rhs) > 1e-10 * (1 + sc)) {
            snprintf(msg, msglen, "momentum balance row %zu: %g vs %g", i, lhs, rhs);
            return 1;
        }
    }
    return 0;
}

typedef struct policy_ctx {
    nsm_policy_kind kind;
    size_t ok, no_bound, compared, zeno;
} policy_ctx;

/* A random order of the m contacts and ratios in [0.1, 1]. */
static void random_order_ratios(nsm_rng *rng, size_t m, size_t *order, double *ratios)
{
    for (size_t c = 0; c < m; c++) {
        order[c] = c;
        ratios[c] = nsm_rng_range(rng, 0.1, 1.0);
    }
    prop_shuffle(rng, m, order);
}

static int prop_policy(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    policy_ctx *ctx = vctx;
    problem P;
    random_problem(rng, &P, 0);
    size_t order[MAXM];
    double ratios[MAXM];
    random_order_ratios(rng, P.m, order, ratios);
    double dir[3 * MAXM];
    prop_vector(rng, 3 * P.m, dir);
    double vdir[MAXN] = {0};
    if (ctx->kind == NSM_POLICY_EXTREMAL_V) {
        prop_vector(rng, P.n, vdir);
    }
    double dwell[MAXM]; /* schedule: 0 (skip), to rest, or up to 1.3 S */
    for (size_t c = 0; c < P.m; c++) {
        double r = nsm_rng_uniform(rng);
        dwell[c] = r < 0.125 ? 0.0 : r < 0.375 ? INFINITY : 1.3 * nsm_rng_uniform(rng);
    }
    /* hold 7: sampled and extremal steps, bang-bang's longest dwell, a schedule's cycles */
    nsm_impact_policy pol = {ctx->kind, order, ratios, (unsigned long)nsm_rng_u64(rng), 7, dir,
                             vdir, dwell};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = ctx->kind == NSM_POLICY_SEQUENTIAL ? 2000 : 200;
    double vp[MAXN], Lam[2 * MAXM];
    nsm_impact_info info;
    nsm_status st = run_policy(&P, &pol, &opts, vp, Lam, &info);
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
    if (check_outcome(&P, vp, Lam, &info, msg, msglen)) {
        return 1;
    }
    if (ctx->kind == NSM_POLICY_SEQUENTIAL) {
        /* repeated single-contact resolution on an independently computed W */
        double W[4 * MAXM * MAXM], u[2 * MAXM], L2[2 * MAXM] = {0};
        oracle_delassus(&P, W, u);
        size_t K = 2 * P.m;
        int finished = 0;
        for (int rounds = 0; rounds < 10000; rounds++) {
            size_t c = P.m;
            for (size_t k = 0; k < P.m; k++) {
                if (u[2 * order[k] + 1] < -opts.ntol) {
                    c = order[k];
                    break;
                }
            }
            if (c == P.m) {
                finished = 1;
                break;
            }
            double Wc[4] = {W[(2 * c) * K + 2 * c], W[(2 * c) * K + 2 * c + 1],
                            W[(2 * c + 1) * K + 2 * c], W[(2 * c + 1) * K + 2 * c + 1]};
            Wc[1] = Wc[2] = 0.5 * (Wc[1] + Wc[2]);
            double uc[2] = {u[2 * c], u[2 * c + 1]};
            nsm_routh_result r;
            if (nsm_routh_planar(Wc, uc, P.mu[c], opts.ztol, &r) != NSM_OK) {
                snprintf(msg, msglen, "routh failed");
                return 1;
            }
            for (size_t k = 0; k < K; k++) {
                u[k] += W[k * K + 2 * c] * r.p_t + W[k * K + 2 * c + 1] * r.p_n;
            }
            u[2 * c + 1] = 0.0;
            L2[2 * c] += r.p_t;
            L2[2 * c + 1] += r.p_n;
        }
        if (!finished) {
            /* the alternation of single-contact resolutions accumulates (Zeno): no finite
               oracle; counted, and the comparison must cover most cases */
            ctx->zeno++;
            return 0;
        }
        ctx->compared++;
        /* events closer than h/NSM_IMPACT_MIN_STEP_RATIO are stepped over: agreement to a
           small multiple of that segment */
        double hmin = info.bound / ((double)opts.steps * NSM_IMPACT_MIN_STEP_RATIO);
        double tolL = 1e-8 * (1 + tm_maxabs(K, L2)) + 10.0 * (double)(info.forced + 1) * hmin;
        for (size_t k = 0; k < K; k++) {
            if (fabs(L2[k] - Lam[k]) > tolL) {
                snprintf(msg, msglen, "sequential Lambda[%zu] = %.12g, repeated Routh %.12g", k,
                         Lam[k], L2[k]);
                return 1;
            }
        }
    }
    return 0;
}

/* CLAIM: impact.h NSM_POLICY_SEQUENTIAL: one contact at a time (= repeated Routh) */
static void test_policy_sequential(void)
{
    policy_ctx ctx = {NSM_POLICY_SEQUENTIAL, 0, 0, 0, 0};
    size_t cases = prop_run("sequential policy: invariants, equals repeated Routh", prop_policy,
                            &ctx, 1000);
    printf(" [ok %zu, compared with repeated Routh %zu, Zeno %zu, no bound %zu] ", ctx.ok,
           ctx.compared, ctx.zeno, ctx.no_bound);
    CU_ASSERT(ctx.ok == cases);
    CU_ASSERT(10 * ctx.compared >= 9 * ctx.ok);
}

/* Every run of the policy on 1000 random problems passes check_outcome. */
static void policy_invariants(nsm_policy_kind kind, const char *name)
{
    policy_ctx ctx = {kind, 0, 0, 0, 0};
    size_t cases = prop_run(name, prop_policy, &ctx, 1000);
    CU_ASSERT(ctx.ok == cases);
}

/* CLAIM: impact.h nsm_impact_solve: separating, cones, s <= bound (simultaneous) */
static void test_policy_simultaneous(void)
{
    policy_invariants(NSM_POLICY_SIMULTANEOUS, "simultaneous policy: invariants");
}

/* CLAIM: impact.h nsm_impact_solve: separating, cones, s <= bound (sampled) */
static void test_policy_sampled(void)
{
    policy_invariants(NSM_POLICY_SAMPLED, "sampled policy: invariants");
}

/* CLAIM: impact.h nsm_impact_solve: separating, cones, s <= bound (priority) */
static void test_policy_priority(void)
{
    policy_invariants(NSM_POLICY_PRIORITY, "priority policy: invariants");
}

/* CLAIM: impact.h nsm_impact_solve: separating, cones, s <= bound (extremal) */
static void test_policy_extremal(void)
{
    policy_invariants(NSM_POLICY_EXTREMAL, "extremal policy: invariants");
}

/* CLAIM: impact.h nsm_impact_solve: separating, cones, s <= bound (bang-bang) */
static void test_policy_bangbang(void)
{
    policy_invariants(NSM_POLICY_BANGBANG, "bang-bang policy: invariants");
}

/* CLAIM: impact.h nsm_impact_solve: separating, cones, s <= bound (extremal in v) */
static void test_policy_extremal_v(void)
{
    policy_invariants(NSM_POLICY_EXTREMAL_V, "extremal policy in v: invariants");
}

/* CLAIM: impact.h nsm_impact_solve: separating, cones, s <= bound (schedule) */
static void test_policy_schedule(void)
{
    policy_invariants(NSM_POLICY_SCHEDULE, "schedule policy: invariants");
}

/* Header (NSM_POLICY_EXTREMAL_V): the rule raises vdirᵀv fastest. With vdir = Jᵀdir
   (J the rows (J_t,c, J_n,c) weighted by dir's (t1, n) entries, summed here), vdirᵀv = dirᵀ(J v):
   the two rules rank the contacts by the same rates (J M^-1 Jᵀ dir = W dir) and choose
   alike unless two rates tie to rounding, so the outcomes agree. Counts the runs that differ
   by more than 1e-9 (near-ties) and asks for at most 1 %. */
typedef struct ev_ctx {
    size_t compared, differ;
} ev_ctx;

static int prop_extremal_v_equiv(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    ev_ctx *ctx = vctx;
    problem P;
    random_problem(rng, &P, 0);
    double dir[3 * MAXM] = {0}, vdir[MAXN] = {0};
    for (size_t c = 0; c < P.m; c++) {
        dir[3 * c] = nsm_rng_range(rng, -1.0, 1.0);
        dir[3 * c + 2] = nsm_rng_range(rng, -1.0, 1.0);
        for (size_t i = 0; i < P.n; i++) {
            vdir[i] += dir[3 * c] * P.Jt[c * P.n + i] + dir[3 * c + 2] * P.Jn[c * P.n + i];
        }
    }
    nsm_impact_policy pe = {NSM_POLICY_EXTREMAL, NULL, NULL, 0, 3, dir, NULL, NULL};
    nsm_impact_policy pv = {NSM_POLICY_EXTREMAL_V, NULL, NULL, 0, 3, NULL, vdir, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = 300;
    double ve[MAXN], Le[2 * MAXM], vv[MAXN], Lv[2 * MAXM];
    nsm_impact_info ie, iv;
    nsm_status se = run_policy(&P, &pe, &opts, ve, Le, &ie);
    nsm_status sv = run_policy(&P, &pv, &opts, vv, Lv, &iv);
    if (se != sv) {
        snprintf(msg, msglen, "statuses differ: %s (dir) vs %s (vdir)", nsm_status_str(se),
                 nsm_status_str(sv));
        return 1;
    }
    if (se != NSM_OK) {
        return 0;
    }
    if (check_outcome(&P, vv, Lv, &iv, msg, msglen)) {
        return 1;
    }
    ctx->compared++;
    double diff = 0.0, scale = 1.0;
    for (size_t i = 0; i < P.n; i++) {
        diff = fmax(diff, fabs(ve[i] - vv[i]));
        scale = fmax(scale, fabs(ve[i]));
    }
    ctx->differ += diff > 1e-9 * scale;
    return 0;
}

/* CLAIM: impact.h NSM_POLICY_EXTREMAL_V: as EXTREMAL, with vdir of v for dir */
static void test_extremal_v_equiv(void)
{
    ev_ctx ctx = {0, 0};
    size_t cases = prop_run("extremal in v along Jᵀdir = extremal along dir",
                            prop_extremal_v_equiv, &ctx, 1000);
    printf(" [compared %zu, differ %zu] ", ctx.compared, ctx.differ);
    CU_ASSERT(10 * ctx.compared >= 9 * cases);
    CU_ASSERT(100 * ctx.differ <= ctx.compared);
}

/* Header (NSM_POLICY_BANGBANG): a drawn contact acts until its dwell ends or it stops
   penetrating, and nothing is held. With one or two contacts and a dwell longer than any run,
   the history is therefore a sequential one: the first drawn contact, then the other. The two
   runs take the same one-hot weights, so they agree exactly. */
static int prop_bangbang_long(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    size_t *compared = vctx;
    problem P;
    random_problem(rng, &P, 0);
    if (P.m > 2) {
        P.m = 2;
    }
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = 200;
    nsm_impact_policy bb = {NSM_POLICY_BANGBANG, NULL, NULL, (unsigned long)nsm_rng_u64(rng),
                            (size_t)1 << 40, NULL, NULL, NULL};
    double vb[MAXN], Lb[2 * MAXM], vs[MAXN], Ls[2 * MAXM];
    nsm_impact_info ib, is;
    nsm_status sb = run_policy(&P, &bb, &opts, vb, Lb, &ib);
    if (sb == NSM_ERR_NO_BOUND) {
        return 0;
    }
    if (sb != NSM_OK) {
        snprintf(msg, msglen, "bang-bang status %s", nsm_status_str(sb));
        return 1;
    }
    for (size_t first = 0; first < P.m; first++) {
        size_t order[2] = {first, 1 - first};
        nsm_impact_policy sq = {NSM_POLICY_SEQUENTIAL, order, NULL, 0, 1, NULL, NULL, NULL};
        if (run_policy(&P, &sq, &opts, vs, Ls, &is) == NSM_OK &&
            memcmp(vs, vb, P.n * sizeof *vs) == 0 && memcmp(Ls, Lb, 2 * P.m * sizeof *Ls) == 0 &&
            is.steps == ib.steps) {
            *compared += 1;
            return 0;
        }
    }
    snprintf(msg, msglen, "m = %zu: the long-dwell bang-bang run is no sequential run", P.m);
    return 1;
}

/* CLAIM: impact.h NSM_POLICY_BANGBANG: acts for its dwell or until it stops penetrating */
static void test_bangbang_long_is_sequential(void)
{
    size_t compared = 0;
    size_t cases = prop_run("bang-bang with a long dwell equals a sequential order",
                            prop_bangbang_long, &compared, 500);
    CU_ASSERT(10 * compared >= 9 * cases);
}

/*
 * Sequential runs against the independent event-driven oracle (tests/support/impact_oracle.c,
 * written apart from the library: its own Coulomb rules, its own events, no W). For d = 1
 * every step is an exact piece of a solution (header), so the runs agree to rounding, except
 * where events closer than hmin were stepped over (forced segments): there the header's
 * error model is a small multiple of hmin per forced segment, in impulse, mapped to v by
 * the largest column sum of |M^-1 J^T|.
 */
typedef struct oracle_ctx {
    size_t compared, within_1e6, forced_runs;
    double worst;
} oracle_ctx;

/* Largest column sum of |M^-1 J^T| (LAPACK solve, independent of the library) and the
   oracle's impulse scale S = max over contacts penetrating at v_- of -u_n,c / W_nn,c with
   W_nn,c = J_n,c M^-1 J_n,c^T from the same solve. 0 on success. */
static int oracle_gain(const problem *P, double *gain, double *S)
{
    double A[MAXN * MAXN], B[MAXN * 2 * MAXM];
    size_t K = 2 * P->m;
    memcpy(A, P->M, sizeof(double) * P->n * P->n);
    for (size_t i = 0; i < P->n; i++) {
        for (size_t c = 0; c < P->m; c++) {
            B[i * K + 2 * c] = P->Jt[c * P->n + i];
            B[i * K + 2 * c + 1] = P->Jn[c * P->n + i];
        }
    }
    if (LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', (lapack_int)P->n, (lapack_int)K, A,
                      (lapack_int)P->n, B, (lapack_int)K) != 0) {
        return 1;
    }
    *gain = 0;
    for (size_t k = 0; k < K; k++) {
        double col = 0;
        for (size_t i = 0; i < P->n; i++) {
            col += fabs(B[i * K + k]);
        }
        *gain = fmax(*gain, col);
    }
    *S = 0;
    for (size_t c = 0; c < P->m; c++) {
        double un = 0, wnn = 0;
        for (size_t i = 0; i < P->n; i++) {
            un += P->Jn[c * P->n + i] * P->vm[i];
            wnn += P->Jn[c * P->n + i] * B[i * K + 2 * c + 1];
        }
        if (un < -1e-12 && wnn > 0) {
            *S = fmax(*S, -un / wnn);
        }
    }
    return 0;
}

/* A library run with an order-based policy (sequential, schedule) against the oracle's
   history of the same schedule: v+ within 1e-8 (1 + |v+|) plus 10 hmin per forced segment
   mapped to v (header's error model); counts into ctx. dwell is NULL for sequential runs. */
/* Most cycles of the schedules compared with the oracle. */
#define MAX_TEST_CYCLES 4u

static int oracle_compare(const problem *P, const nsm_impact_policy *pol, const double *dwell,
                          oracle_ctx *ctx, char *msg, size_t msglen)
{
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    double vp[MAXN], Lam[2 * MAXM], vo[MAXN];
    nsm_impact_info info;
    nsm_status st = run_policy(P, pol, &opts, vp, Lam, &info);
    if (st == NSM_ERR_NO_BOUND) {
        return 0;
    }
    if (st != NSM_OK) {
        snprintf(msg, msglen, "library status %s", nsm_status_str(st));
        return 1;
    }
    double gain = 0, S = 0;
    if (oracle_gain(P, &gain, &S) != 0) {
        snprintf(msg, msglen, "dposv");
        return 1;
    }
    /* the schedule's phases in the oracle's terms: absolute dwells, zero dwells left out, the
       m phases written out pol->hold times (its cycles) */
    size_t contacts[MAXM * MAX_TEST_CYCLES];
    double abs_dwell[MAXM * MAX_TEST_CYCLES];
    size_t nphase = 0;
    for (size_t r = 0; dwell != NULL && r < pol->hold && r < MAX_TEST_CYCLES; r++) {
        for (size_t k = 0; k < P->m; k++) {
            if (dwell[k] > 0) {
                contacts[nphase] = pol->order[k];
                abs_dwell[nphase++] = isinf(dwell[k]) ? INFINITY : dwell[k] * S;
            }
        }
    }
    int rc = oracle_history(P->n, P->m, P->M, P->Jn, P->Jt, P->mu, P->vm, contacts, abs_dwell,
                            nphase, pol->order, 0, vo);
    if (rc != ORACLE_OK) {
        snprintf(msg, msglen, "oracle code %d", rc);
        return 1;
    }
    double hmin = info.bound / ((double)opts.steps * NSM_IMPACT_MIN_STEP_RATIO);
    double tol = 1e-8 * (1 + tm_maxabs(P->n, vo)) + 10.0 * (double)info.forced * hmin * gain;
    double diff = tm_maxabs_diff(P->n, vp, vo);
    ctx->compared++;
    ctx->within_1e6 += diff <= 1e-6;
    ctx->forced_runs += info.forced > 0;
    ctx->worst = fmax(ctx->worst, diff);
    if (diff > tol) {
        snprintf(msg, msglen, "v+ differs from the oracle by %g (tolerance %g, %zu forced)", diff,
                 tol, info.forced);
        return 1;
    }
    return 0;
}

static int prop_oracle_sequential(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    problem P;
    random_problem(rng, &P, 0);
    size_t order[MAXM];
    for (size_t c = 0; c < P.m; c++) {
        order[c] = c;
    }
    prop_shuffle(rng, P.m, order);
    nsm_impact_policy pol = {NSM_POLICY_SEQUENTIAL, order, NULL, 0, 1, NULL, NULL, NULL};
    return oracle_compare(&P, &pol, NULL, vctx, msg, msglen);
}

/* Schedules (header, NSM_POLICY_SCHEDULE): random order, each phase's dwell 0 (skipped, 1 in
   8), INFINITY (to rest, 1 in 4) or uniform in (0, 1.3) S, 1 to MAX_TEST_CYCLES cycles; the
   oracle runs the same phases, written out cycle after cycle, with dwell·S of impulse, S
   computed here from M, Jn and v_- (not from the library). */
static int prop_oracle_schedule(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    problem P;
    random_problem(rng, &P, 0);
    size_t order[MAXM];
    double dwell[MAXM];
    for (size_t c = 0; c < P.m; c++) {
        order[c] = c;
        double r = nsm_rng_uniform(rng);
        dwell[c] = r < 0.125 ? 0.0 : r < 0.375 ? INFINITY : 1.3 * nsm_rng_uniform(rng);
    }
    prop_shuffle(rng, P.m, order);
    size_t cycles = 1 + (size_t)(nsm_rng_uniform(rng) * MAX_TEST_CYCLES);
    if (cycles > MAX_TEST_CYCLES) {
        cycles = MAX_TEST_CYCLES;
    }
    nsm_impact_policy pol = {NSM_POLICY_SCHEDULE, order, NULL, 0, cycles, NULL, NULL, dwell};
    return oracle_compare(&P, &pol, dwell, vctx, msg, msglen);
}

/* CLAIM: impact.h nsm_impact_solve: for d = 1 every step is an exact piece of a solution */
static void test_oracle_sequential(void)
{
    oracle_ctx ctx = {0, 0, 0, 0.0};
    size_t cases = prop_run("sequential runs = independent event-driven oracle",
                            prop_oracle_sequential, &ctx, 500);
    printf(" [compared %zu, within 1e-6 %zu, with forced segments %zu, worst %.2g] ",
           ctx.compared, ctx.within_1e6, ctx.forced_runs, ctx.worst);
    CU_ASSERT(10 * ctx.compared >= 9 * cases);
}

/* CLAIM: impact.h NSM_POLICY_SCHEDULE: order[k] acts for dwell[k]·S, hold cycles */
static void test_oracle_schedule(void)
{
    oracle_ctx ctx = {0, 0, 0, 0.0};
    size_t cases = prop_run("schedules = independent event-driven oracle", prop_oracle_schedule,
                            &ctx, 500);
    printf(" [compared %zu, within 1e-6 %zu, with forced segments %zu, worst %.2g] ",
           ctx.compared, ctx.within_1e6, ctx.forced_runs, ctx.worst);
    CU_ASSERT(10 * ctx.compared >= 9 * cases);
}

/*
 * Simultaneous and priority runs (d = 1) against plain explicit steps of the inclusion
 * (oracle_fine, tests/support/impact_oracle.c: the rule's weights on the contacts penetrating
 * at each step, Coulomb's law by sign, nothing located, so rest and stick are approached by
 * chattering). Claim (docs/math.md, "Contacts at rest"): where the rule's share would hold a
 * contact at rest, the held motion is the h -> 0 limit of that alternation. The oracle runs
 * at h = S/12500 and S/25000 (S its impulse scale); a case is compared when its two runs
 * end, no contact re-entered penetration beyond the chattering amplitude (*reentry: the share
 * did not hold it, and the library's held weight, which is not capped by the share, differs
 * by design) and the library ends NSM_OK at 4000 steps. Compared: |v+ - oracle(h/2)| within
 * max(4 |oracle(h) - oracle(h/2)|, 1e-4) (1 + |v-|), the oracle's own step error or 1e-4, in at
 * least 97 % of the compared cases (asserted from 100 cases on), and within 1e-2 (1 + |v-|) in
 * every one. The same comparison with the oracle refined until it agrees to 1e-6, on 500
 * problems with up to 5 contacts, is the accuracy stage (tests/accuracy/accuracy_impact.c).
 */
typedef struct fine_ctx {
    nsm_policy_kind kind;
    size_t compared, agree, reentry, skipped;
    double worst;
} fine_ctx;

static int prop_fine_oracle(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    fine_ctx *ctx = vctx;
    problem P;
    do {
        random_problem(rng, &P, 0);
    } while (P.m < 2);
    size_t order[MAXM];
    double ratios[MAXM];
    random_order_ratios(rng, P.m, order, ratios);
    int prio = ctx->kind == NSM_POLICY_PRIORITY;
    double v1[MAXN], v2[MAXN];
    int re1 = 0, re2 = 0;
    size_t s1 = 0, s2 = 0;
    int rc1 = oracle_fine(P.n, P.m, P.M, P.Jn, P.Jt, P.mu, P.vm, prio ? NULL : ratios,
                          prio ? order : NULL, 8e-5, 2000000, v1, &re1, &s1);
    int rc2 = oracle_fine(P.n, P.m, P.M, P.Jn, P.Jt, P.mu, P.vm, prio ? NULL : ratios,
                          prio ? order : NULL, 4e-5, 4000000, v2, &re2, &s2);
    if (rc1 != ORACLE_OK || rc2 != ORACLE_OK) {
        ctx->skipped++;
        return 0;
    }
    if (re1 || re2) {
        ctx->reentry++;
        return 0;
    }
    nsm_impact_policy pol = {ctx->kind, order, ratios, 0, 1, NULL, NULL, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.steps = 4000;
    double vp[MAXN], Lam[2 * MAXM];
    nsm_impact_info info;
    nsm_status st = run_policy(&P, &pol, &opts, vp, Lam, &info);
    if (st == NSM_ERR_NO_BOUND || st == NSM_ERR_NOT_CERTIFIED) {
        ctx->skipped++;
        return 0;
    }
    if (st != NSM_OK) {
        snprintf(msg, msglen, "library status %s", nsm_status_str(st));
        return 1;
    }
    double scale = 1.0 + tm_maxabs(P.n, P.vm);
    double eo = tm_maxabs_diff(P.n, v1, v2) / scale;
    double diff = tm_maxabs_diff(P.n, vp, v2) / scale;
    ctx->compared++;
    if (diff <= fmax(4.0 * eo, 1e-4)) {
        ctx->agree++;
        ctx->worst = fmax(ctx->worst, diff);
        return 0;
    }
    if (getenv("NSM_TEST_VERBOSE") != NULL) {
        printf("\n  m %zu n %zu: differs by %.3g (oracle h/h2 %.3g; %zu forced)", P.m, P.n, diff,
               eo, info.forced);
    }
    if (!(diff <= 1e-2)) { /* measured: at most 3.2e-4 beyond the tolerance (500 cases) */
        snprintf(msg, msglen, "m %zu: v+ differs from the oracle by %.3g", P.m, diff);
        return 1;
    }
    return 0;
}

static void fine_oracle_run(nsm_policy_kind kind, const char *name)
{
    fine_ctx ctx = {kind, 0, 0, 0, 0, 0.0};
    size_t cases = prop_run(name, prop_fine_oracle, &ctx, 500);
    printf(" [compared %zu of %zu: agree %zu (worst %.2g); share did not hold %zu; skipped %zu] ",
           ctx.compared, cases, ctx.agree, ctx.worst, ctx.reentry, ctx.skipped);
    if (cases >= 100) { /* shares of a sample; NSM_PROP_CASES may run a few cases only */
        CU_ASSERT(ctx.compared * 10 >= cases * 7);
        CU_ASSERT(ctx.agree * 100 >= ctx.compared * 97);
    }
}

/* CLAIM: impact.h NSM_POLICY_SIMULTANEOUS: contacts at rest held (= h -> 0 explicit steps) */
static void test_fine_oracle_simultaneous(void)
{
    fine_oracle_run(NSM_POLICY_SIMULTANEOUS, "simultaneous runs = explicit-step oracle");
}

/* CLAIM: impact.h NSM_POLICY_PRIORITY: contacts at rest held (= h -> 0 explicit steps) */
static void test_fine_oracle_priority(void)
{
    fine_oracle_run(NSM_POLICY_PRIORITY, "priority runs = explicit-step oracle");
}

/* CLAIM: impact.h nsm_impact_solve, clause short_work (proved): one double short of
   nsm_impact_work gives NSM_ERR_WORKSPACE, whatever the options (the workspace is checked
   first); and more than the error list's "nothing written but work" (tested, not a contract
   clause): on NSM_ERR_WORKSPACE, NSM_ERR_ALIAS, NSM_ERR_ARG and NSM_ERR_NOT_FINITE found by the
   checks, v_plus, Lambda, info and the whole workspace keep their bytes. */
static void test_impact_errors_write_nothing(void)
{
    problem P;
    boxwall(&P);
    size_t lw = nsm_impact_work(P.n, P.m);
    double *work = malloc((lw + 8) * sizeof(double)), *keep = malloc((lw + 8) * sizeof(double));
    CU_ASSERT_FATAL(work != NULL && keep != NULL);
    for (size_t i = 0; i < lw + 8; i++) {
        work[i] = 0.125 * (double)i - 3.0;
    }
    memcpy(keep, work, (lw + 8) * sizeof(double));
    size_t order[2] = {1, 0};
    nsm_impact_policy pol = {NSM_POLICY_SEQUENTIAL, order, NULL, 1, 1, NULL, NULL, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT, bad = NSM_IMPACT_OPTS_DEFAULT;
    bad.steps = 0;
    double vp[3] = {7, 8, 9}, L[4] = {1, 2, 3, 4}, vnan[3] = {P.vm[0], NAN, P.vm[2]};
    nsm_contact_problem prob = {P.n, P.m, 1, P.M, P.Jn, P.Jt, P.mu, P.vm};
    nsm_impact_result res = {.v_plus = vp, .Lambda = L};
    memset(&res.info, 0x5a, sizeof res.info);
    nsm_impact_info info0 = res.info;
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, &res, work, lw - 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &bad, &res, work, lw - 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &bad, &res, work, lw), NSM_ERR_ARG);
    res.Lambda = work + lw - 2; /* Lambda over the end of the workspace */
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, &res, work, lw), NSM_ERR_ALIAS);
    res.Lambda = L;
    prob.v_minus = vnan;
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, &res, work, lw), NSM_ERR_NOT_FINITE);
    CU_ASSERT(vp[0] == 7 && vp[1] == 8 && vp[2] == 9);
    CU_ASSERT(L[0] == 1 && L[1] == 2 && L[2] == 3 && L[3] == 4);
    CU_ASSERT(memcmp(&res.info, &info0, sizeof info0) == 0);
    CU_ASSERT(memcmp(work, keep, (lw + 8) * sizeof(double)) == 0);
    prob.v_minus = P.vm;
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, &res, work, lw), NSM_OK);
    free(work);
    free(keep);
}

/* CLAIM: impact.h nsm_impact_solve: errors, nothing written; trivial answer */
static void test_impact_errors(void)
{
    problem P;
    boxwall(&P);
    static double work[4096];
    size_t lw = nsm_impact_work(P.n, P.m);
    CU_ASSERT_EQUAL(lw, 9 + 6 * 2 * 3 + 9 * 4 + 26 * 2 + 3);
    CU_ASSERT_EQUAL(nsm_impact_work(0, 2), 0);
    CU_ASSERT_EQUAL(nsm_impact_work(3, NSM_MAX_DIM), 0);
    size_t order[2] = {1, 0};
    double ratios[2] = {1, 1};
    nsm_impact_policy pol = {NSM_POLICY_SEQUENTIAL, order, ratios, 1, 1, NULL, NULL, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    double vp[3] = {7, 7, 7}, L[4] = {7, 7, 7, 7};
    nsm_impact_info info;
#define SOLVE(nn, mm, Mx, lwx) args_impact_solve1(nn, mm, Mx, P.Jn, P.Jt, P.mu, P.vm, &pol, &opts, \
                                               vp, L, &info, work, lwx)
    CU_ASSERT_EQUAL(args_impact_solve1(3, 2, NULL, P.Jn, P.Jt, P.mu, P.vm, &pol, &opts, vp, L,
                                     &info, work, lw), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(args_impact_solve1(3, 2, P.M, P.Jn, P.Jt, P.mu, P.vm, NULL, &opts, vp, L,
                                     &info, work, lw), NSM_ERR_NULL);
    {
        /* the structs: NULL problem, NULL result, NULL arrays in them */
        nsm_contact_problem prob = {3, 2, 1, P.M, P.Jn, P.Jt, P.mu, P.vm};
        nsm_impact_result res = {.v_plus = vp, .Lambda = L};
        CU_ASSERT_EQUAL(nsm_impact_solve(NULL, &pol, &opts, &res, work, lw), NSM_ERR_NULL);
        CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, NULL, work, lw), NSM_ERR_NULL);
        res.Lambda = NULL;
        CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, &res, work, lw), NSM_ERR_NULL);
        res.Lambda = L;
        prob.v_minus = NULL;
        CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, &res, work, lw), NSM_ERR_NULL);
        prob.v_minus = P.vm;
        prob.d = 3;
        CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, &res, work, lw), NSM_ERR_ARG);
        CU_ASSERT(vp[0] == 7 && L[0] == 7);
    }
    CU_ASSERT_EQUAL(SOLVE(0, 2, P.M, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(SOLVE(3, 0, P.M, lw), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw - 1), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(args_impact_solve1(3, 2, P.M, P.Jn, P.Jt, P.mu, P.vm, &pol, &opts, vp, L,
                                     &info, P.M, lw), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(args_impact_solve1(3, 2, P.M, P.Jn, P.Jt, P.mu, P.vm, &pol, &opts, P.M, L,
                                     &info, work, lw), NSM_ERR_ALIAS);
    order[0] = 0; /* not a permutation */
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    order[0] = 2;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    order[0] = 1;
    pol.kind = NSM_POLICY_SIMULTANEOUS;
    ratios[1] = 0.0;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    ratios[1] = NAN;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_NOT_FINITE);
    ratios[1] = 1.0;
    pol.kind = NSM_POLICY_SAMPLED;
    pol.hold = 0;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    pol.hold = 1;
    /* schedule: dwell NULL, negative or NaN; INFINITY is allowed (to rest); the dwell array
       over an output is an alias */
    double dwell[2] = {0.5, INFINITY};
    pol.kind = NSM_POLICY_SCHEDULE;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_NULL);
    CU_ASSERT(strcmp(nsm_impact_arg_fault(2, 1, P.mu, &pol, &opts), "pol.dwell") == 0);
    pol.dwell = dwell;
    /* cycles (hold): 1 .. NSM_SCHEDULE_MAX_CYCLES */
    pol.hold = NSM_SCHEDULE_MAX_CYCLES;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_OK);
    pol.hold = 1;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_OK);
    CU_ASSERT(nsm_impact_arg_fault(2, 1, P.mu, &pol, &opts) == NULL);
    for (int i = 0; i < 4; i++) {
        vp[i % 3] = 7.0;
        L[i] = 7.0;
    }
    dwell[0] = -0.1;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    CU_ASSERT(strcmp(nsm_impact_arg_fault(2, 1, P.mu, &pol, &opts), "pol.dwell") == 0);
    dwell[0] = NAN;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    dwell[0] = 0.5;
    pol.hold = 0;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    CU_ASSERT(strcmp(nsm_impact_arg_fault(2, 1, P.mu, &pol, &opts), "pol.hold") == 0);
    pol.hold = NSM_SCHEDULE_MAX_CYCLES + 1u;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    CU_ASSERT(strcmp(nsm_impact_arg_fault(2, 1, P.mu, &pol, &opts), "pol.hold") == 0);
    pol.hold = 1;
    order[0] = 0;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    CU_ASSERT(strcmp(nsm_impact_arg_fault(2, 1, P.mu, &pol, &opts), "pol.order") == 0);
    order[0] = 1;
    pol.dwell = vp;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ALIAS);
    pol.dwell = dwell;
    pol.kind = (nsm_policy_kind)9;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    pol.kind = NSM_POLICY_SEQUENTIAL;
    opts.steps = 0;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    opts.steps = 100;
    opts.ztol = -1;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    opts.ztol = 1e-12;
    P.mu[1] = -0.1;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_ARG);
    P.mu[1] = 1.0;
    P.vm[2] = INFINITY;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_NOT_FINITE);
    P.vm[2] = 0.0;
    P.M[8] = -1.0;
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_NOT_SPD);
    P.M[8] = 1.0 / 6.0;
    P.M[1] = 0.5; /* not symmetric */
    CU_ASSERT_EQUAL(SOLVE(3, 2, P.M, lw), NSM_ERR_NOT_SPD);
    P.M[1] = 0.0;
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(vp[i], 7.0);
    }
    /* already separating: trivial answer */
    P.vm[0] = -1.0;
    P.vm[1] = 0.5;
    CU_ASSERT_EQUAL_FATAL(SOLVE(3, 2, P.M, lw), NSM_OK);
    CU_ASSERT_EQUAL(vp[0], -1.0);
    CU_ASSERT_EQUAL(vp[1], 0.5);
    CU_ASSERT_EQUAL(vp[2], 0.0);
    CU_ASSERT_EQUAL(tm_maxabs(4, L), 0.0);
    CU_ASSERT_EQUAL(info.s, 0.0);
    CU_ASSERT_EQUAL(info.steps, 0);
#undef SOLVE
}

/* CLAIM: impact.h nsm_impact_solve: gamma = 0 is NSM_ERR_NO_BOUND, fallback integration */
static void test_impact_no_bound(void)
{
    /* point mass between two facing walls: an internal impulse exists (gamma = 0) */
    double M[4] = {1, 0, 0, 1}, Jn[4] = {1, 0, -1, 0}, Jt[4] = {0, 1, 0, 1}, mu[2] = {0.5, 0.5};
    double vm[2] = {-1.0, 0.3}, vp[2], L[4], work[256];
    size_t order[2] = {0, 1};
    nsm_impact_policy pol = {NSM_POLICY_SEQUENTIAL, order, NULL, 0, 1, NULL, NULL, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    nsm_impact_info info;
    nsm_status st = args_impact_solve1(2, 2, M, Jn, Jt, mu, vm, &pol, &opts, vp, L, &info, work,
                                     nsm_impact_work(2, 2));
    CU_ASSERT_EQUAL(st, NSM_ERR_NO_BOUND);
    CU_ASSERT_EQUAL(info.has_bound, 0);
    CU_ASSERT_EQUAL(info.step_cap, opts.fallback_steps);
    /* the fallback still resolves this impact: frictionless-like stop of the x velocity */
    CU_ASSERT_EQUAL(info.terminated, 1);
    CU_ASSERT(fabs(vp[0]) <= 1e-9);
}

/*
 * Claim (docs/math.md, "Contacts at rest: sliding and joint stick"): in planar simultaneous
 * and sampled runs a contact at rest that the others push back is held at u_n = 0, in
 * segments of ordinary length, and the result does not depend on the step. Two contacts
 * (M = diag(1, 1, 0.42688), both penetrating): resolving contact 0 first and then only
 * contact 1 (sequential) leaves v+ = (0.1345, 0.0699, -0.1502); holding contact 0 at rest
 * while contact 1 acts gives v+ = (0.2518, 0.1309, -0.2812) (both values computed
 * independently of nsmech, to 4 decimals). Priority (0, 1) resolves contact 0, then holds it
 * while contact 1 acts: the second value, the same at 500 and 8000 steps to 1e-9 (measured
 * 1e-11: exact segments, the step only moves the event times by rounding); so does
 * simultaneous with ratios (1, 1e-7), which resolves contact 0 nearly alone first.
 */
/* CLAIM: impact.h nsm_impact_solve: a contact at rest is held (I10), step-independent */
static void test_impact_held_contact(void)
{
    double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 0.42688};
    double Jn[6] = {0, 1, -0.80439, 0, 1, 0.46550}, Jt[6] = {1, 0, 0.29652, 1, 0, 0.89553};
    double mu[2] = {0.22740, 1.46429}, vm[3] = {0.13430, -1, -0.40292};
    double vp[3], vp2[3], L[4], work[512];
    CU_ASSERT_FATAL(nsm_impact_work(3, 2) <= 512);
    size_t order[2] = {0, 1};
    double ratios[2] = {1, 1e-7};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    nsm_impact_info info;
    nsm_impact_policy seq = {NSM_POLICY_SEQUENTIAL, order, NULL, 0, 1, NULL, NULL, NULL};
    nsm_status st = args_impact_solve1(3, 2, M, Jn, Jt, mu, vm, &seq, &opts, vp, L, &info, work,
                                     nsm_impact_work(3, 2));
    CU_ASSERT_EQUAL(st, NSM_OK);
    const double vseq[3] = {0.1345, 0.0699, -0.1502};
    const double vheld[3] = {0.2518, 0.1309, -0.2812};
    for (int i = 0; i < 3; i++) {
        CU_ASSERT(fabs(vp[i] - vseq[i]) <= 1e-4);
    }
    nsm_impact_policy held[2] = {{NSM_POLICY_PRIORITY, order, NULL, 0, 1, NULL, NULL, NULL},
                                 {NSM_POLICY_SIMULTANEOUS, NULL, ratios, 0, 1, NULL, NULL, NULL}};
    for (int k = 0; k < 2; k++) {
        opts.steps = 500;
        st = args_impact_solve1(3, 2, M, Jn, Jt, mu, vm, &held[k], &opts, vp, L, &info, work,
                              nsm_impact_work(3, 2));
        CU_ASSERT_EQUAL(st, NSM_OK);
        CU_ASSERT_EQUAL(info.forced, 0);
        opts.steps = 8000;
        st = args_impact_solve1(3, 2, M, Jn, Jt, mu, vm, &held[k], &opts, vp2, L, &info, work,
                              nsm_impact_work(3, 2));
        CU_ASSERT_EQUAL(st, NSM_OK);
        for (int i = 0; i < 3; i++) {
            CU_ASSERT(fabs(vp[i] - vheld[i]) <= 1e-4);
            CU_ASSERT(fabs(vp[i] - vp2[i]) <= 1e-9);
        }
    }
}

/*
 * Claim (docs/math.md, same section; issue measurement: ~350 000 steps per history, 85-99 %
 * of them forced h/1000 segments): on the ball stack of examples/problems (three discs in a
 * groove, 5 contacts, mu = sqrt(3)), sampled histories held 8 steps end NSM_OK in under 2000
 * steps each with at most 5 % forced segments, and satisfy momentum balance, the cones, no
 * penetration and energy non-increase (checked here from the inputs with plain loops).
 */
/* CLAIM: impact.h nsm_impact_solve: sampled runs hold contacts, few forced; (I3) */
static void test_impact_ball_stack(void)
{
    double M[81], Jn[45], Jt[45], mu[5], vm[9], md[9];
    ball_stack_problem(M, Jn, Jt, mu, vm);
    for (int i = 0; i < 9; i++) {
        md[i] = M[i * 9 + i];
    }
    static double work[4096];
    CU_ASSERT_FATAL(nsm_impact_work(9, 5) <= 4096);
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    size_t steps = 0, forced = 0;
    for (unsigned long seed = 1; seed <= 50; seed++) {
        nsm_impact_policy pol = {NSM_POLICY_SAMPLED, NULL, NULL, seed, 8, NULL, NULL, NULL};
        nsm_impact_info info;
        double vp[9], L[10];
        nsm_status st = args_impact_solve1(9, 5, M, Jn, Jt, mu, vm, &pol, &opts, vp, L, &info,
                                         work, nsm_impact_work(9, 5));
        CU_ASSERT_EQUAL(st, NSM_OK);
        CU_ASSERT(info.steps < 2000);
        steps += info.steps;
        forced += info.forced;
        double e0 = 0.0, e1 = 0.0;
        for (int i = 0; i < 9; i++) {
            /* M diagonal: M (v+ - v-) = Jn^T Lambda_n + Jt^T Lambda_t, row i */
            double rhs = 0.0;
            for (int c = 0; c < 5; c++) {
                rhs += Jn[c * 9 + i] * L[2 * c + 1] + Jt[c * 9 + i] * L[2 * c];
            }
            CU_ASSERT(fabs(md[i] * (vp[i] - vm[i]) - rhs) <= 1e-9);
            e0 += 0.5 * md[i] * vm[i] * vm[i];
            e1 += 0.5 * md[i] * vp[i] * vp[i];
        }
        CU_ASSERT(e1 <= e0 * (1.0 + 1e-12));
        for (int c = 0; c < 5; c++) {
            double un = 0.0;
            for (int i = 0; i < 9; i++) {
                un += Jn[c * 9 + i] * vp[i];
            }
            CU_ASSERT(un >= -info.check_tol);
            CU_ASSERT(L[2 * c + 1] >= 0.0);
            CU_ASSERT(fabs(L[2 * c]) <= mu[c] * L[2 * c + 1] * (1.0 + 1e-12) + 1e-15);
        }
    }
    printf(" [50 histories: %zu steps, %zu forced] ", steps, forced);
    CU_ASSERT(forced * 20 <= steps);
}

/* CLAIM: impact.h nsm_impact_solve, clause separating: J_n,c v+ >= -check_tol holds exactly
   for the IEEE computation, also with no tolerance at all (ntol = vtol = 0, check_tol = 0).
   The final check used to compare the rounded product with -check_tol, and accepted v+ whose
   exact product was a few ulps below it; now the product must clear it by a bound of its
   rounding, so with check_tol = 0 a contact ending at rest gives NSM_ERR_NO_CONVERGENCE rather
   than an unproven claim. */
static void test_impact_separating_exact(void)
{
    nsm_rng rng;
    nsm_rng_seed(&rng, 20261207u);
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    opts.ntol = 0.0;
    opts.vtol = 0.0;
    size_t ok = 0, refused = 0;
    for (int k = 0; k < 400; k++) {
        problem P;
        random_problem(&rng, &P, 0);
        double ratios[MAXM];
        for (size_t c = 0; c < P.m; c++) {
            ratios[c] = 1.0;
        }
        nsm_impact_policy pol = {NSM_POLICY_SIMULTANEOUS, NULL, ratios, 0, 1, NULL, NULL, NULL};
        double vp[MAXN], L[2 * MAXM];
        nsm_impact_info info;
        nsm_status st = run_policy(&P, &pol, &opts, vp, L, &info);
        if (st != NSM_OK) {
            refused += st == NSM_ERR_NO_CONVERGENCE;
            continue;
        }
        ok++;
        CU_ASSERT_EQUAL(info.check_tol, 0.0);
        for (size_t c = 0; c < P.m; c++) {
            CU_ASSERT(exact_rowdot_ge(P.n, P.Jn + c * P.n, vp, 0.0));
        }
    }
    printf(" [%zu ok, %zu refused at check_tol 0] ", ok, refused);
    CU_ASSERT(ok > 0);
}

/*
 * Claim (impact.h, termination bound): NSM_ERR_NO_BOUND only when gamma is 0 to the wedge
 * tolerance; an uncertified gamma > 0 is NSM_ERR_NOT_CERTIFIED; Frank–Wolfe goes on past
 * opts.fw_iters while its gap shrinks. A flat box (mass 1, 2 × 1, I = 5/12) lands on its two
 * lower corners at v- = (0, -1, 0): the normals are parallel, so J^T Lambda has y component
 * sum Lambda_n = 1 on the slice and gamma >= 1 for every mu (nothing wedges); by symmetry the
 * plastic outcome is v+ = 0 (closed form).
 */
/* CLAIM: impact.h nsm_impact_solve: gamma uncertified is NSM_ERR_NOT_CERTIFIED */
static void test_impact_not_certified(void)
{
    double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 5.0 / 12.0};
    double Jn[6] = {0, 1, -1, 0, 1, 1}, Jt[6] = {1, 0, 0.5, 1, 0, 0.5};
    double vm[3] = {0, -1, 0}, vp[3], L[4], work[512];
    double ratios[2] = {1, 1};
    nsm_impact_policy pol = {NSM_POLICY_SIMULTANEOUS, NULL, ratios, 0, 1, NULL, NULL, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    nsm_impact_info info;
    CU_ASSERT_FATAL(nsm_impact_work(3, 2) <= 512);
    /* mu = 100: the default budget (5000) did not certify gamma before the extension */
    double mu[2] = {100, 100};
    nsm_status st = args_impact_solve1(3, 2, M, Jn, Jt, mu, vm, &pol, &opts, vp, L, &info, work,
                                     nsm_impact_work(3, 2));
    CU_ASSERT_EQUAL(st, NSM_OK);
    CU_ASSERT_EQUAL(info.has_bound, 1);
    /* gamma = 1, attained at Lambda_n = (1/2, 1/2), Lambda_t = 0: a lower bound is <= 1 */
    CU_ASSERT(info.gamma_lb > 0.0 && info.gamma_lb <= 1.0 + 1e-9);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT(fabs(vp[i]) <= 1e-9);
    }
    /* mu = 1e4: not certified, and not reported as wedging */
    mu[0] = mu[1] = 1e4;
    st = args_impact_solve1(3, 2, M, Jn, Jt, mu, vm, &pol, &opts, vp, L, &info, work,
                          nsm_impact_work(3, 2));
    CU_ASSERT_EQUAL(st, NSM_ERR_NOT_CERTIFIED);
    CU_ASSERT_EQUAL(info.has_bound, 0);
    CU_ASSERT_EQUAL(info.terminated, 1);
    CU_ASSERT(vp[1] >= -info.check_tol);
    CU_ASSERT_STRING_NOT_EQUAL(nsm_status_str(NSM_ERR_NOT_CERTIFIED),
                               nsm_status_str(NSM_ERR_NO_BOUND));
    /* ten times the budget does not certify it either: the status text promises nothing of
       more fw_iters (it said "more fw_iters may certify it") and names the gap left */
    opts.fw_iters *= 10;
    st = args_impact_solve1(3, 2, M, Jn, Jt, mu, vm, &pol, &opts, vp, L, &info, work,
                          nsm_impact_work(3, 2));
    CU_ASSERT_EQUAL(st, NSM_ERR_NOT_CERTIFIED);
    CU_ASSERT(info.fw_gap > 0.0);
    CU_ASSERT_PTR_NULL(strstr(nsm_status_str(NSM_ERR_NOT_CERTIFIED), "may certify"));
    CU_ASSERT_PTR_NOT_NULL(strstr(nsm_status_str(NSM_ERR_NOT_CERTIFIED), "fw_gap"));
}

/* CLAIM: impact.h nsm_impact_solve: on NSM_OK separating, cones, s <= bound */
static void test_impact_boxwall(void)
{
    problem P;
    boxwall(&P);
    size_t order[2] = {1, 0};
    double ratios[2] = {1, 1};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    double vp[3], L[4];
    nsm_impact_info info;
    char msg[256] = "";
    for (int k = 0; k < 4; k++) {
        nsm_impact_policy pol = {(nsm_policy_kind)k, order, ratios, 42, 5, NULL, NULL, NULL};
        CU_ASSERT_EQUAL_FATAL(run_policy(&P, &pol, &opts, vp, L, &info), NSM_OK);
        CU_ASSERT(info.has_bound == 1 && info.gamma_lb > 0.0);
        int bad = check_outcome(&P, vp, L, &info, msg, sizeof msg);
        if (bad) {
            printf("\n  %s\n", msg);
        }
        CU_ASSERT_EQUAL(bad, 0);
    }
    /* sampled: reproducible from the seed */
    nsm_impact_policy pol = {NSM_POLICY_SAMPLED, order, ratios, 1234, 3, NULL, NULL, NULL};
    double vp2[3], L2[4];
    CU_ASSERT_EQUAL_FATAL(run_policy(&P, &pol, &opts, vp, L, &info), NSM_OK);
    CU_ASSERT_EQUAL_FATAL(run_policy(&P, &pol, &opts, vp2, L2, &info), NSM_OK);
    CU_ASSERT(memcmp(vp, vp2, sizeof vp) == 0);
    /* sequential wall first: wall resolves, then the floor (if it penetrates); the wall
       impulse alone is Routh on the wall block */
    double W[16], u[4];
    oracle_delassus(&P, W, u);
    CU_ASSERT(u[1] >= 0.0 && u[3] < 0.0);
}

/*
 * Fuzz findings (tests/fuzz/fuzz_api.c, header comment; minimised inputs in
 * tests/fuzz/corpus/fuzz_api/finding_P<i>_*) and the overflow and overlap cases of the impact
 * solver (docs/developing.md, "Fuzzing").
 */

/* P5 (finding_P5_impact_mu_huge): one contact, mu = 1e305; nsm_impact_solve returned NSM_OK
   with v_plus = inf and an infinite tangential impulse. The contact sticks (v_plus = 0); the
   answer is that, or NSM_ERR_OVERFLOW (the friction rates overflow on the way). */
/* CLAIM: impact.h nsm_impact_solve: NSM_ERR_OVERFLOW when a result is not finite */
static void test_impact_mu_huge(void)
{
    const double M[1] = {1.1875}, Jn[1] = {3.875}, Jt[1] = {0.1875}, mu[1] = {1e305};
    const double vm[1] = {-2.875}, ratios[1] = {1.0};
    double vp[1], lam[2], work[64];
    nsm_impact_opts o = NSM_IMPACT_OPTS_DEFAULT;
    o.steps = 3;
    o.fw_iters = 19;
    o.fallback_steps = 19;
    nsm_impact_policy pol;
    memset(&pol, 0, sizeof pol);
    pol.kind = NSM_POLICY_SIMULTANEOUS;
    pol.ratios = ratios;
    nsm_impact_info info;
    nsm_status s = args_impact_solve1(1, 1, M, Jn, Jt, mu, vm, &pol, &o, vp, lam, &info, work,
                                    nsm_impact_work(1, 1));
    CU_ASSERT(s == NSM_OK || s == NSM_ERR_OVERFLOW);
    if (s == NSM_OK) {
        CU_ASSERT(isfinite(vp[0]) && isfinite(lam[0]) && isfinite(lam[1]));
        CU_ASSERT_DOUBLE_EQUAL(vp[0], 0.0, 1e-6);
    }
}

/* Finite data whose energy or Delassus matrix overflows: v_minus = 1e200 (½ v^T M v = inf),
   and M = diag(1e300, 1e-300, 1) (W = J M^-1 J^T has entries near 1e300 times J², beyond
   DBL_MAX for these J). NSM_ERR_OVERFLOW, nothing written but work. Before: "did not
   converge" with v_plus = NaN, and "wedged contacts". */
/* CLAIM: impact.h nsm_impact_solve: NSM_ERR_OVERFLOW (energy, W), nothing written */
static void test_impact_overflow(void)
{
    problem P;
    boxwall(&P);
    static double work[4096];
    size_t order[2] = {0, 1};
    nsm_impact_policy pol = {NSM_POLICY_SEQUENTIAL, order, NULL, 1, 1, NULL, NULL, NULL};
    double vp[3] = {7, 7, 7}, L[4] = {7, 7, 7, 7};
    nsm_impact_info info;
    P.vm[0] = 1e200;
    P.vm[1] = -1e200;
    CU_ASSERT_EQUAL(args_impact_solve1(P.n, P.m, P.M, P.Jn, P.Jt, P.mu, P.vm, &pol, NULL, vp, L,
                                     &info, work, nsm_impact_work(P.n, P.m)),
                    NSM_ERR_OVERFLOW);
    boxwall(&P);
    memset(P.M, 0, sizeof P.M);
    P.M[0] = 1e300;
    P.M[4] = 1e-300;
    P.M[8] = 1.0;
    P.Jn[1] = 1e10; /* W_nn of the floor contact: 1e20/1e-300 */
    CU_ASSERT_EQUAL(args_impact_solve1(P.n, P.m, P.M, P.Jn, P.Jt, P.mu, P.vm, &pol, NULL, vp, L,
                                     &info, work, nsm_impact_work(P.n, P.m)),
                    NSM_ERR_OVERFLOW);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(vp[i], 7.0);
    }
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(L[i], 7.0);
    }
}

/* Fuzz findings K3 and K4: info overlapping any other argument is NSM_ERR_ALIAS (header:
   "info over any other argument, pol and opts included"), and so are the outputs over the
   policy; nothing written. info is now part of the result struct, and the whole struct over
   any other argument is NSM_ERR_ALIAS (header: "*res (the whole struct) overlaps ...").
   Before: only the array outputs were checked; info over v_plus returned NSM_OK with a wrong
   v_plus (K3), info over Jn overwrote an input (K4). */
/* CLAIM: impact.h nsm_impact_solve: NSM_ERR_ALIAS, *res (info included) over any other argument */
static void test_impact_info_overlap(void)
{
    problem P;
    boxwall(&P);
    size_t lw = nsm_impact_work(P.n, P.m);
    static double work[4096];
    /* every argument lives in one pool, so that the result struct can be placed over each */
    static double pool[256], saved[256], snap[256];
    double *M = pool, *Jn = pool + 16, *Jt = pool + 32, *mu = pool + 48, *vm = pool + 56;
    double *vp = pool + 64, *L = pool + 72, *ratios = pool + 80;
    memcpy(M, P.M, 9 * sizeof *M);
    memcpy(Jn, P.Jn, 6 * sizeof *Jn);
    memcpy(Jt, P.Jt, 6 * sizeof *Jt);
    memcpy(mu, P.mu, 2 * sizeof *mu);
    memcpy(vm, P.vm, 3 * sizeof *vm);
    ratios[0] = ratios[1] = 1.0;
    nsm_impact_policy pol = {NSM_POLICY_SIMULTANEOUS, NULL, ratios, 1, 1, NULL, NULL, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    const nsm_contact_problem prob = {3, 2, 1, M, Jn, Jt, mu, vm};
    nsm_impact_result good = {.v_plus = vp, .Lambda = L};
    CU_ASSERT_EQUAL_FATAL(nsm_impact_solve(&prob, &pol, &opts, &good, work, lw), NSM_OK);
    memcpy(saved, pool, sizeof pool);
    /* the struct's pointers are stored into the pool first; then the call writes nothing.
       Hosts: the struct at each argument, and its info field alone over Jt (the struct's
       pointers in unused pool) */
    char *hosts[9] = {(char *)M, (char *)Jn, (char *)Jt, (char *)mu, (char *)vm, (char *)vp,
                      (char *)L, (char *)ratios,
                      (char *)(pool + 24) - offsetof(nsm_impact_result, info)};
    for (size_t h = 0; h < 9; h++) {
        nsm_impact_result *bad = (nsm_impact_result *)(void *)hosts[h];
        bad->v_plus = vp;
        bad->Lambda = L;
        memcpy(snap, pool, sizeof pool);
        CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, bad, work, lw), NSM_ERR_ALIAS);
        CU_ASSERT(memcmp(snap, pool, sizeof pool) == 0);
        memcpy(pool, saved, sizeof pool);
    }
    nsm_impact_result *in_work = (nsm_impact_result *)(void *)(work + 5);
    in_work->v_plus = vp;
    in_work->Lambda = L;
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, in_work, work, lw), NSM_ERR_ALIAS);
    /* pol, opts and prob themselves: the result struct placed over a copy of each (members of
       one union, so that the copies are stored through their own types) */
    static union {
        nsm_impact_policy pol;
        nsm_impact_opts opts;
        nsm_contact_problem prob;
        nsm_impact_result res;
        double d[64];
    } spool;
    nsm_impact_result *over = (nsm_impact_result *)(void *)(spool.d + 2);
    spool.pol = pol;
    over->v_plus = vp;
    over->Lambda = L;
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &spool.pol, &opts, over, work, lw), NSM_ERR_ALIAS);
    spool.opts = opts;
    over->v_plus = vp;
    over->Lambda = L;
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &spool.opts, over, work, lw), NSM_ERR_ALIAS);
    spool.prob = prob;
    over = (nsm_impact_result *)(void *)(spool.d + 7);
    over->v_plus = vp;
    over->Lambda = L;
    CU_ASSERT_EQUAL(nsm_impact_solve(&spool.prob, &pol, &opts, over, work, lw), NSM_ERR_ALIAS);
    /* the ratios count only for the policy that reads them */
    pol.kind = NSM_POLICY_SAMPLED;
    nsm_impact_result *over_ratios = (nsm_impact_result *)(void *)(pool + 80);
    over_ratios->v_plus = vp;
    over_ratios->Lambda = L;
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, over_ratios, work, lw), NSM_OK);
    memcpy(pool, saved, sizeof pool);
    /* the outputs and the work over the policy (read while they are written): v_plus over
       the ratios of a simultaneous policy, Lambda over the policy itself */
    pol.kind = NSM_POLICY_SIMULTANEOUS;
    ratios[0] = ratios[1] = 1.0;
    nsm_impact_result r_ratios = {.v_plus = ratios, .Lambda = L};
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &pol, &opts, &r_ratios, work, lw), NSM_ERR_ALIAS);
    CU_ASSERT(ratios[0] == 1.0 && ratios[1] == 1.0);
    spool.pol = pol;
    nsm_impact_result r_pol = {.v_plus = vp, .Lambda = spool.d + 1};
    CU_ASSERT_EQUAL(nsm_impact_solve(&prob, &spool.pol, &opts, &r_pol, work, lw), NSM_ERR_ALIAS);
    /* nothing was written on the rejected calls: the inputs are what they were */
    CU_ASSERT(memcmp(M, P.M, 9 * sizeof *M) == 0);
    CU_ASSERT(memcmp(Jn, P.Jn, 6 * sizeof *Jn) == 0);
    CU_ASSERT(memcmp(Jt, P.Jt, 6 * sizeof *Jt) == 0);
    CU_ASSERT(memcmp(mu, P.mu, 2 * sizeof *mu) == 0);
    CU_ASSERT(memcmp(vm, P.vm, 3 * sizeof *vm) == 0);
}

/* 1 if both are NULL or both name the same string. */
static int same_name(const char *got, const char *want)
{
    if (got == NULL || want == NULL) {
        return got == want;
    }
    return strcmp(got, want) == 0;
}

/* nsm_impact_arg_fault names the argument behind each argument error of the solver (header:
   "found by the solver's own checks in the solver's order"): each case is given to both, and
   the solver's status is the one documented for that name. */
/* CLAIM: impact.h nsm_impact_arg_fault: names the argument, in the solver's order */
static void test_impact_arg_fault(void)
{
    problem P;
    boxwall(&P);
    size_t lw = nsm_impact_work(P.n, P.m);
    static double work[4096];
    size_t order[2] = {1, 0};
    double ratios[2] = {1, 1};
    nsm_impact_policy pol = {NSM_POLICY_SEQUENTIAL, order, ratios, 1, 1, NULL, NULL, NULL};
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    double vp[3], L[6];
    nsm_impact_info info;
#define CASE(dd, want_status, want_name)                                                       \
    do {                                                                                      \
        CU_ASSERT_EQUAL(args_impact_solve(3, 2, dd, P.M, P.Jn, P.Jt, P.mu, P.vm, &pol, &opts, \
                                           vp, L, &info, work, lw),                           \
                        want_status);                                                         \
        CU_ASSERT(same_name(nsm_impact_arg_fault(2, dd, P.mu, &pol, &opts), want_name));      \
    } while (0)
    CASE(1, NSM_OK, NULL);
    CASE(3, NSM_ERR_ARG, "d");
    CU_ASSERT_STRING_EQUAL(nsm_impact_arg_fault(0, 1, P.mu, &pol, &opts), "m");
    CU_ASSERT_STRING_EQUAL(nsm_impact_arg_fault(2, 1, P.mu, NULL, &opts), "pol");
    CU_ASSERT_STRING_EQUAL(nsm_impact_arg_fault(2, 1, NULL, &pol, &opts), "mu");
    CU_ASSERT_EQUAL(args_impact_solve(3, 2, 1, P.M, P.Jn, P.Jt, NULL, P.vm, &pol, &opts, vp, L,
                                       &info, work, lw),
                    NSM_ERR_NULL);
    /* the solver's order: a NULL pointer before a bad d or m */
    CU_ASSERT_STRING_EQUAL(nsm_impact_arg_fault(0, 3, NULL, &pol, &opts), "mu");
    CU_ASSERT_EQUAL(args_impact_solve(3, 2, 3, P.M, P.Jn, P.Jt, NULL, P.vm, &pol, &opts, vp, L,
                                       &info, work, lw),
                    NSM_ERR_NULL);
    CU_ASSERT_PTR_NULL(nsm_impact_arg_fault(2, 1, P.mu, &pol, NULL));
    opts.steps = 0;
    CASE(1, NSM_ERR_ARG, "opts.steps");
    opts.steps = 100;
    opts.fw_iters = 1000001;
    CASE(1, NSM_ERR_ARG, "opts.fw_iters");
    opts.fw_iters = 100;
    opts.fallback_steps = 0;
    CASE(1, NSM_ERR_ARG, "opts.fallback_steps");
    opts.fallback_steps = 100;
    opts.ztol = -1.0;
    CASE(1, NSM_ERR_ARG, "opts.ztol");
    opts.ztol = 1e-12;
    opts.ntol = INFINITY;
    CASE(1, NSM_ERR_ARG, "opts.ntol");
    opts.ntol = 1e-12;
    opts.vtol = NAN;
    CASE(1, NSM_ERR_ARG, "opts.vtol");
    opts.vtol = 1e-9;
    opts.slip_rest = -0.25;
    CASE(1, NSM_ERR_ARG, "opts.slip_rest");
    opts.slip_rest = 1.5;
    CASE(1, NSM_ERR_ARG, "opts.slip_rest");
    opts.slip_rest = NAN;
    CASE(1, NSM_ERR_ARG, "opts.slip_rest");
    opts.slip_rest = 1.0;
    CASE(1, NSM_OK, NULL);
    opts.slip_rest = 0.0;
    order[0] = 0;
    CASE(1, NSM_ERR_ARG, "pol.order");
    pol.order = NULL;
    CASE(1, NSM_ERR_NULL, "pol.order");
    pol.order = order;
    order[0] = 1;
    pol.kind = NSM_POLICY_SIMULTANEOUS;
    ratios[0] = -1.0;
    CASE(1, NSM_ERR_ARG, "pol.ratios");
    ratios[0] = NAN;
    CASE(1, NSM_ERR_NOT_FINITE, "pol.ratios");
    ratios[0] = 1.0;
    pol.kind = NSM_POLICY_SAMPLED;
    pol.hold = 0;
    CASE(1, NSM_ERR_ARG, "pol.hold");
    pol.hold = 1;
    pol.kind = NSM_POLICY_BANGBANG;
    pol.hold = 0;
    CASE(1, NSM_ERR_ARG, "pol.hold");
    pol.hold = 1;
    pol.kind = NSM_POLICY_EXTREMAL;
    double dir[6] = {1, 0, 0, 0, 0, 1};
    pol.dir = NULL;
    CASE(1, NSM_ERR_NULL, "pol.dir");
    pol.dir = dir;
    dir[4] = NAN;
    CASE(1, NSM_ERR_NOT_FINITE, "pol.dir");
    dir[4] = 0.0;
    CASE(2, NSM_OK, NULL);
    pol.kind = (nsm_policy_kind)9;
    CASE(1, NSM_ERR_ARG, "pol.kind");
    pol.kind = NSM_POLICY_SAMPLED;
    P.mu[1] = -0.5;
    CASE(2, NSM_ERR_ARG, "mu");
    P.mu[1] = NAN;
    CASE(1, NSM_ERR_ARG, "mu");
    P.mu[1] = 1.0;
    CASE(2, NSM_OK, NULL);
#undef CASE
}

/* Header (NSM_POLICY_EXTREMAL_V): vdir NULL is NSM_ERR_NULL, named "pol.vdir"; a non-finite
   entry NSM_ERR_NOT_FINITE (data); vdir over v_plus NSM_ERR_ALIAS. */
/* CLAIM: impact.h nsm_impact_arg_fault: "pol.vdir" (NULL: NSM_ERR_NULL; not finite) */
static void test_extremal_v_errors(void)
{
    double M[9], Jn[6], Jt[6], mu[2], vm[3], vp[3], L[4];
    box_corner_problem(M, Jn, Jt, mu, vm);
    static double work[4096];
    size_t lw = nsm_impact_work(3, 2);
    nsm_impact_info info;
    nsm_impact_policy pol = {NSM_POLICY_EXTREMAL_V, NULL, NULL, 0, 2, NULL, NULL, NULL};
    CU_ASSERT_EQUAL(args_impact_solve1(3, 2, M, Jn, Jt, mu, vm, &pol, NULL, vp, L, &info, work, lw),
                    NSM_ERR_NULL);
    const char *f = nsm_impact_arg_fault(2, 1, mu, &pol, NULL);
    CU_ASSERT(f != NULL && strcmp(f, "pol.vdir") == 0);
    double vdir[3] = {1.0, INFINITY, 0.0};
    pol.vdir = vdir;
    CU_ASSERT_PTR_NULL(nsm_impact_arg_fault(2, 1, mu, &pol, NULL));
    CU_ASSERT_EQUAL(args_impact_solve1(3, 2, M, Jn, Jt, mu, vm, &pol, NULL, vp, L, &info, work, lw),
                    NSM_ERR_NOT_FINITE);
    vdir[1] = 0.0;
    CU_ASSERT_EQUAL(args_impact_solve1(3, 2, M, Jn, Jt, mu, vm, &pol, NULL, vp, L, &info, work, lw),
                    NSM_OK);
    pol.vdir = vp;
    CU_ASSERT_EQUAL(args_impact_solve1(3, 2, M, Jn, Jt, mu, vm, &pol, NULL, vp, L, &info, work, lw),
                    NSM_ERR_ALIAS);
    pol.vdir = work + 5;
    CU_ASSERT_EQUAL(args_impact_solve1(3, 2, M, Jn, Jt, mu, vm, &pol, NULL, vp, L, &info, work, lw),
                    NSM_ERR_ALIAS);
    pol.hold = 0;
    pol.vdir = vdir;
    f = nsm_impact_arg_fault(2, 1, mu, &pol, NULL);
    CU_ASSERT(f != NULL && strcmp(f, "pol.hold") == 0);
}

/* Joint rest rates (nsm_slide, src/impact/slide.h), checked against the conditions its header
   states, evaluated here from W, u and the returned rates: weights >= 0 summing to 1 and in
   lh's normal slots; rate = W lh; a weighted contact at tangential rest (mu > 0) has its
   tangential rate r in the cone, |r| <= mu w (to 1e-12 relative), with tangential rate 0
   inside and opposite to r on the boundary; a slipping contact r = -mu w u_t/|u_t|; a held
   contact (no policy weight, at normal rest) has normal rate >= 0, and 0 when its weight is
   positive. Random W = J Jᵀ, J of 3m rows and n = 3 .. 3m columns (rank-deficient W, where
   the sweeps are slow and the planar Newton step acts), contacts at rest, slipping,
   penetrating or at normal rest, warm or cold starts. The cone check is the one that only the
   total impulse had before: a stick accepted at 1.01 mu w passed every test. */
static int prop_slide(nsm_rng *rng, void *vctx, char *msg, size_t msglen)
{
    size_t *calls = vctx;
    size_t m = nsm_rng_index(rng, 2, 4);
    size_t d = nsm_rng_index(rng, 1, 2);
    size_t K = 3 * m;
    size_t n = nsm_rng_index(rng, 3, K);
    double J[12 * 12], W[12 * 12], u[12], mu[4], w[4], w0[4], lh[12], rate[12];
    prop_vector(rng, K * n, J);
    for (size_t c = 0; c < m && d == 1; c++) {
        for (size_t j = 0; j < n; j++) {
            J[(3 * c + 1) * n + j] = 0.0; /* no second tangent */
        }
    }
    tm_matmul_nt(K, K, n, J, J, W);
    const double ztol = 1e-12, ntol = 1e-12;
    int pen = 0;
    for (size_t c = 0; c < m; c++) {
        mu[c] = nsm_rng_uniform(rng) < 0.1 ? 0.0 : nsm_rng_range(rng, 0.05, 1.5);
        unsigned kind = (unsigned)nsm_rng_index(rng, 0, 3);
        int slip = kind == 1 || (kind == 3 && nsm_rng_uniform(rng) < 0.5);
        u[3 * c] = slip ? nsm_rng_normal(rng) : 0.0;
        u[3 * c + 1] = slip && d == 2 ? nsm_rng_normal(rng) : 0.0;
        /* 0, 1: penetrating; 2: at normal rest; 3: either, or separating */
        u[3 * c + 2] = kind <= 1 ? -nsm_rng_range(rng, 0.1, 1.0)
                     : kind == 2 ? 0.0
                     : nsm_rng_range(rng, -1.0, 1.0);
        w[c] = u[3 * c + 2] < -ntol ? nsm_rng_range(rng, 0.1, 1.0) : 0.0;
        pen |= w[c] > 0.0;
        w0[c] = w[c];
    }
    if (!pen) {
        u[2] = -0.5;
        w[0] = 0.5;
    }
    double ws = 0.0;
    for (size_t c = 0; c < m; c++) {
        ws += w[c];
    }
    for (size_t c = 0; c < m; c++) {
        w[c] /= ws; /* the policy's weights sum to 1 */
        w0[c] = w[c];
    }
    int warm = nsm_rng_uniform(rng) < 0.5;
    for (size_t i = 0; i < K; i++) {
        lh[i] = warm ? nsm_rng_range(rng, -1.0, 1.0) : 0.0;
    }
    if (!nsm_slide(m, d, W, u, mu, ztol, ntol, w, lh, rate)) {
        return 0; /* nothing at rest, or no convergence: nothing promised */
    }
    (*calls)++;
    double wsum = 0.0, wmax = 0.0;
    for (size_t c = 0; c < m; c++) {
        if (!(w[c] >= 0.0) || lh[3 * c + 2] != w[c]) {
            snprintf(msg, msglen, "contact %zu: weight %g, normal slot %g", c, w[c],
                     lh[3 * c + 2]);
            return 1;
        }
        wsum += w[c];
        wmax = fmax(wmax, w[c]);
    }
    if (fabs(wsum - 1.0) > 1e-12) {
        snprintf(msg, msglen, "weights sum to %.17g", wsum);
        return 1;
    }
    double Wl[12], lmax = tm_maxabs(K, lh);
    tm_matmul(K, 1, K, W, lh, Wl);
    double wscale = tm_maxabs(K * K, W) * (1.0 + lmax);
    if (tm_maxabs_diff(K, Wl, rate) > 1e-12 * wscale) {
        snprintf(msg, msglen, "rate differs from W lh by %g", tm_maxabs_diff(K, Wl, rate));
        return 1;
    }
    double tol = 1e-9 * wscale; /* the sweeps' own tolerance is 1e-14 (1 + max w) */
    for (size_t c = 0; c < m; c++) {
        double r1 = lh[3 * c], r2 = d == 2 ? lh[3 * c + 1] : 0.0, r = hypot(r1, r2);
        double g1 = rate[3 * c], g2 = d == 2 ? rate[3 * c + 1] : 0.0, g = hypot(g1, g2);
        double st = hypot(u[3 * c], u[3 * c + 1]);
        if (w[c] > 0.0 && mu[c] > 0.0 && st <= ztol) {
            if (r > mu[c] * w[c] * (1.0 + 1e-12)) {
                snprintf(msg, msglen, "contact %zu sticks outside its cone: |r| = %.17g > "
                         "mu w = %.17g", c, r, mu[c] * w[c]);
                return 1;
            }
            int inside = r < mu[c] * w[c] * (1.0 - 1e-9);
            if (inside ? g > tol : r1 * g1 + r2 * g2 > tol * (1.0 + r)) {
                snprintf(msg, msglen, "contact %zu: |r| = %g (mu w = %g), tangential rate "
                         "%g (r·rate %g)", c, r, mu[c] * w[c], g, r1 * g1 + r2 * g2);
                return 1;
            }
        } else if (w[c] > 0.0 && st > ztol) {
            double e1 = r1 + mu[c] * w[c] * u[3 * c] / st;
            double e2 = r2 + mu[c] * w[c] * (d == 2 ? u[3 * c + 1] : 0.0) / st;
            if (hypot(e1, e2) > 1e-12 * (1.0 + mu[c] * w[c])) {
                snprintf(msg, msglen, "contact %zu slips with r off -mu w u_t/|u_t| by %g", c,
                         hypot(e1, e2));
                return 1;
            }
        }
        if (w0[c] == 0.0 && fabs(u[3 * c + 2]) <= ntol && W[(3 * c + 2) * K + 3 * c + 2] > 0.0) {
            double gn = rate[3 * c + 2];
            if (gn < -tol || (w[c] > 0.0 && fabs(gn) > tol)) {
                snprintf(msg, msglen, "held contact %zu: weight %g, normal rate %g", c, w[c],
                         gn);
                return 1;
            }
        }
    }
    return 0;
}

static void test_slide_conditions(void)
{
    size_t calls = 0;
    size_t cases = prop_run("joint rest rates meet their conditions (nsm_slide)", prop_slide,
                            &calls, 20000);
    fprintf(stderr, " [%zu cases, %zu converged with contacts at rest]", cases, calls);
    CU_ASSERT(calls >= cases / 4); /* the conditions were checked on many calls */
}

static CU_TestInfo impact_tests[] = {
    {"joint rest rates meet their conditions (nsm_slide)", test_slide_conditions},
    {"impact: sequential policy (1000 cases)", test_policy_sequential},
    {"impact: simultaneous policy (1000 cases)", test_policy_simultaneous},
    {"impact: sampled policy (1000 cases)", test_policy_sampled},
    {"impact: priority policy (1000 cases)", test_policy_priority},
    {"impact: bad input statuses, separating input", test_impact_errors},
    {"impact: workspace, option, aliasing and NaN errors write nothing", test_impact_errors_write_nothing},
    {"impact: wedged contacts give NSM_ERR_NO_BOUND and the fallback", test_impact_no_bound},
    {"impact: gamma > 0 not certified is NSM_ERR_NOT_CERTIFIED, not NO_BOUND (flat box)",
     test_impact_not_certified},
    {"impact: separating holds exactly, with no tolerance too (IEEE)", test_impact_separating_exact},
    {"impact: box against floor and wall, every policy", test_impact_boxwall},
    {"impact: a contact held at rest while another acts (two contacts; priority)",
     test_impact_held_contact},
    {"impact: ball stack, sampled histories: held contacts, few forced segments",
     test_impact_ball_stack},
    {"bang-bang policy: invariants", test_policy_bangbang},
    {"extremal policy: invariants", test_policy_extremal},
    {"extremal policy in v: invariants", test_policy_extremal_v},
    {"schedule policy: invariants", test_policy_schedule},
    {"extremal policy in v along Jᵀdir equals extremal along dir", test_extremal_v_equiv},
    {"sequential runs: the independent event-driven oracle", test_oracle_sequential},
    {"schedules: the independent event-driven oracle", test_oracle_schedule},
    {"simultaneous runs: plain explicit steps of the inclusion", test_fine_oracle_simultaneous},
    {"priority runs: plain explicit steps of the inclusion", test_fine_oracle_priority},
    {"bang-bang policy: a long dwell is a sequential order", test_bangbang_long_is_sequential},
    {"impact: mu = 1e305 never gives NSM_OK with v_plus = inf (fuzz finding P5)",
     test_impact_mu_huge},
    {"impact: v_minus = 1e200 and an ill-scaled M are NSM_ERR_OVERFLOW", test_impact_overflow},
    {"impact: the result struct (info) over any other argument is NSM_ERR_ALIAS (K3, K4)",
     test_impact_info_overlap},
    {"impact: extremal in v, errors of vdir", test_extremal_v_errors},
    {"impact: nsm_impact_arg_fault names the argument of each argument error",
     test_impact_arg_fault},
    CU_TEST_INFO_NULL,
};

static int reg(void) { return nsm_add_suite("impact", impact_tests); }

int main(void) { return nsm_test_main("test_impact", reg); }
