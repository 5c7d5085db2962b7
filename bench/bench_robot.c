/*
 * Outcome sets at robot scale (issue lines of docs/benchmarks.md, "Robot-scale sets"): what
 * nsm_outcome_set costs on the shipped robot problems, what its spatial runs cost against the
 * steps they ask for, and how the cost grows with the number of contacts.
 *
 * - humanoid_one_foot_set_seconds, humanoid_two_feet_set_seconds, box_flat_set_seconds: one
 *   call of nsm_outcome_set with NSM_OUTCOME_OPTS_DEFAULT on
 *   examples/problems/humanoid_land_one_foot.json (n = 27, k = 4, spatial),
 *   humanoid_land_two_feet.json (k = 8) and box_land_flat.json (n = 6, k = 4); NaN when the
 *   call is refused (its status is printed). *_set_rounds_seconds: the same with hull_tol =
 *   NSM_OUTCOME_HULL_TOL; *_set_rounds_support_gap: the largest shortfall of its extent along
 *   a coordinate of v+ or a contact axis, over the full set's width there.
 * - disc_column_set_seconds: three discs stacked on the floor (planar, k = 3, mu = 0.3), the
 *   top one hit downwards while the stack spins, with four projection planes.
 * - spatial_steps_ratio_max: for each run family of the one-foot set, the mean of
 *   info.steps over every 8th run (repeated through nsm_outcome_policy and
 *   nsm_impact_solve) divided by opts.steps; the largest family's. spatial_steps_run_max: the
 *   largest single run's info.steps / opts.steps among them. two_feet_spatial_steps_*: the
 *   same for the two-feet set.
 * - set_seconds_k<k>: the cost curve, random spatial problems with n = 30 and k = 2, 4, 8, 12,
 *   16 (k beyond the set's limit: NaN), nsamples = 64 (a fixed budget, so that the curve shows
 *   the growth in k of the per-contact families).
 * Nothing is asserted. Prints 'name value' lines.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cblas.h>
#include "nsmech.h"
#include "problem_file.h"

#define MAXN PF_MAXN
#define MAXK PF_MAXM
#define SAMPLE_STRIDE 8u
#define MOREAU_REPS 20
#define CURVE_N 30u
#define CURVE_SAMPLES 64u

typedef pf_problem problem;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double work[1 << 20];
static double set_v[1 << 21], full_v[1 << 21];
static nsm_status set_st[1 << 16], full_st[1 << 16];
static nsm_policy_kind set_kind[1 << 16];
static size_t set_rows, full_rows;

/* One call of the set with opts; its seconds, or NaN when refused. Its rows stay in set_v,
   set_st (set_rows of them). */
static double set_seconds(const problem *P, const nsm_outcome_opts *opts, const char *name)
{
    set_rows = 0;
    const nsm_contact_problem prob = {P->n, P->m, P->d, P->M, P->Jn, P->Jt, P->mu, P->v};
    size_t cap = nsm_outcome_count(P->m, opts);
    size_t lw = nsm_outcome_work(P->n, P->m);
    if (cap == 0 || cap > sizeof set_st / sizeof set_st[0] || cap * P->n > sizeof set_v /
        sizeof set_v[0] || lw == 0 || lw > sizeof work / sizeof work[0]) {
        printf("# %s: n = %zu, k = %zu: not run (count %zu, workspace %zu)\n", name, P->n,
               P->m, cap, lw);
        return NAN;
    }
    nsm_outcome_result res = {cap, set_v, set_st, set_kind, 0, 0};
    double t0 = now();
    nsm_status st = nsm_outcome_set(&prob, opts, &res, work, lw);
    double t = now() - t0;
    if (st != NSM_OK) {
        printf("# %s: %s\n", name, nsm_status_str(st));
        return NAN;
    }
    printf("# %s: n = %zu, k = %zu, d = %zu: %zu runs, %zu accepted, %.3f s\n", name, P->n,
           P->m, P->d, res.nruns, res.accepted, t);
    set_rows = res.nruns;
    return t;
}

static const char *kind_name(nsm_policy_kind k)
{
    static const char *names[] = {"sequential", "simultaneous", "sampled", "priority",
                                  "bang-bang", "extremal", "extremal_v", "schedule", "moreau"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* Mean steps per run of each family over every SAMPLE_STRIDE-th base run of the set, divided
   by opts->impact.steps; the largest of those ratios. *run_max: the largest single run's. */
static double steps_ratio(const problem *P, const nsm_outcome_opts *opts, double *run_max)
{
    enum { KINDS = 9 };
    double sum[KINDS] = {0}, top[KINDS] = {0};
    size_t cnt[KINDS] = {0};
    const nsm_contact_problem prob = {P->n, P->m, P->d, P->M, P->Jn, P->Jt, P->mu, P->v};
    size_t base = nsm_outcome_count(P->m, opts) - NSM_OUTCOME_PLANE_DIRS * opts->nplanes;
    double vp[MAXN], lam[3 * MAXK];
    for (size_t r = 0; r < base; r += SAMPLE_STRIDE) {
        nsm_policy_store st;
        nsm_impact_policy pol;
        if (nsm_outcome_policy(P->m, opts, r, &st, &pol) != NSM_OK) {
            continue;
        }
        nsm_impact_result res = {vp, lam, {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0}};
        (void)nsm_impact_solve(&prob, &pol, &opts->impact, &res, work,
                               nsm_impact_work(P->n, P->m));
        unsigned k = (unsigned)pol.kind;
        if (k >= KINDS) {
            continue;
        }
        sum[k] += (double)res.info.steps;
        top[k] = fmax(top[k], (double)res.info.steps);
        cnt[k]++;
    }
    double worst = 0.0;
    *run_max = 0.0;
    for (unsigned k = 0; k < KINDS; k++) {
        if (cnt[k] == 0) {
            continue;
        }
        double mean = sum[k] / (double)cnt[k] / (double)opts->impact.steps;
        printf("# %-12s %4zu runs sampled: mean steps %.1f x steps, max %.1f x\n",
               kind_name((nsm_policy_kind)k), cnt[k], mean, top[k] / (double)opts->impact.steps);
        worst = fmax(worst, mean);
        *run_max = fmax(*run_max, top[k] / (double)opts->impact.steps);
    }
    return worst;
}

/* The method a user would pick instead of a set: one answer, Moreau's impulse (what a
   time-stepping simulator's contact solve gives), as NSM_POLICY_MOREAU computes it: seconds
   per run, the mean of MOREAU_REPS runs. */
static double moreau_seconds(const problem *P, const nsm_outcome_opts *opts)
{
    const nsm_contact_problem prob = {P->n, P->m, P->d, P->M, P->Jn, P->Jt, P->mu, P->v};
    const nsm_impact_policy pol = {NSM_POLICY_MOREAU, NULL, NULL, 0, 0, NULL, NULL, NULL};
    double vp[MAXN], lam[3 * MAXK];
    nsm_impact_result res = {vp, lam, {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0}};
    double t0 = now();
    for (int i = 0; i < MOREAU_REPS; i++) {
        if (nsm_impact_solve(&prob, &pol, &opts->impact, &res, work,
                             nsm_impact_work(P->n, P->m)) != NSM_OK) {
            return NAN;
        }
    }
    return (now() - t0) / MOREAU_REPS;
}

/* Three unit discs (mass 1, I = 1/2) in a column on the floor: contacts floor-0, 0-1, 1-2
   with vertical normals, tangents along x (the contact point's velocity includes the spin);
   mu = 0.3. The top disc comes down at 1 m/s and drifts at 0.2 m/s; the stack spins. */
static void disc_column(problem *P)
{
    memset(P, 0, sizeof *P);
    P->n = 9;
    P->m = 3;
    P->d = 1;
    for (size_t i = 0; i < 9; i++) {
        P->M[i * 9 + i] = i % 3 == 2 ? 0.5 : 1.0;
    }
    /* floor-0: normal y0, tangent x0 - theta0 (contact point below the centre) */
    P->Jn[0 * 9 + 1] = 1.0;
    P->Jt[0 * 9 + 0] = 1.0;
    P->Jt[0 * 9 + 2] = 1.0;
    /* c (disc c above disc c - 1): normal y_c - y_{c-1}; tangent x_c + th_c - x_{c-1} + th_{c-1} */
    for (size_t c = 1; c < 3; c++) {
        size_t lo = 3 * (c - 1), hi = 3 * c;
        P->Jn[c * 9 + hi + 1] = 1.0;
        P->Jn[c * 9 + lo + 1] = -1.0;
        P->Jt[c * 9 + hi] = 1.0;
        P->Jt[c * 9 + hi + 2] = 1.0;
        P->Jt[c * 9 + lo] = -1.0;
        P->Jt[c * 9 + lo + 2] = 1.0;
        P->mu[c] = 0.3;
    }
    P->mu[0] = 0.3;
    const double v[9] = {0.0, 0.0, 1.0, -0.1, 0.0, -2.0, 0.2, -1.0, 1.5};
    memcpy(P->v, v, sizeof v);
}

/* A random spatial problem with n generalised velocities and k contacts (M = I + AᵀA/n, rows
   of J uniform in [-1, 1], mu in [0.2, 1], v_minus making every contact approach). */
static void random_problem(size_t n, size_t k, unsigned long seed, problem *P)
{
    memset(P, 0, sizeof *P);
    P->n = n;
    P->m = k;
    P->d = 2;
    unsigned long s = seed;
#define RND() ((s = s * 6364136223846793005ul + 1442695040888963407ul), \
               (double)(s >> 11) / 9007199254740992.0)
    double A[MAXN * MAXN];
    for (size_t i = 0; i < n * n; i++) {
        A[i] = 2.0 * RND() - 1.0;
    }
    /* M = AᵀA/n + I (lower triangle by dsyrk, then mirrored) */
    cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, (int)n, (int)n, 1.0 / (double)n, A,
                (int)n, 0.0, P->M, (int)n);
    for (size_t i = 0; i < n; i++) {
        P->M[i * n + i] += 1.0;
        for (size_t j = 0; j < i; j++) {
            P->M[j * n + i] = P->M[i * n + j];
        }
    }
    for (size_t i = 0; i < k * n; i++) {
        P->Jn[i] = 2.0 * RND() - 1.0;
    }
    for (size_t i = 0; i < 2 * k * n; i++) {
        P->Jt[i] = 2.0 * RND() - 1.0;
    }
    for (size_t c = 0; c < k; c++) {
        P->mu[c] = 0.2 + 0.8 * RND();
    }
    /* v = -sum_c Jn_c / k plus noise: the contacts approach on average */
    for (size_t i = 0; i < n; i++) {
        double a = 0.0;
        for (size_t c = 0; c < k; c++) {
            a -= P->Jn[c * n + i];
        }
        P->v[i] = a / (double)k + 0.3 * (2.0 * RND() - 1.0);
    }
#undef RND
}

/* Extent [lo, up] of the accepted rows of v (nrows × n) along probe k: coordinate k of v
   (k < n), then contact axis k - n (rows of Jn, then of Jt). 0 when no row is accepted. */
static int probe_extent(const problem *P, const double *v, const nsm_status *st, size_t nrows,
                        size_t k, double *lo, double *up)
{
    int any = 0;
    for (size_t i = 0; i < nrows; i++) {
        if (st[i] != NSM_OK) {
            continue;
        }
        const double *x = v + i * P->n;
        double s = 0.0;
        if (k < P->n) {
            s = x[k];
        } else {
            const double *row = k - P->n < P->m ? P->Jn + (k - P->n) * P->n
                                                : P->Jt + (k - P->n - P->m) * P->n;
            for (size_t j = 0; j < P->n; j++) {
                s += row[j] * x[j];
            }
        }
        *lo = any ? fmin(*lo, s) : s;
        *up = any ? fmax(*up, s) : s;
        any = 1;
    }
    return any;
}

/* How far the set in rounds (set_v) falls short of the full set (full_v) along the probes
   of the library's rounds test (coordinates of v+, contact axes): the largest shortfall of
   an extent, over the full set's width along that probe. */
static double rounds_gap(const problem *P)
{
    double gap = 0.0;
    for (size_t k = 0; k < P->n + (P->d + 1) * P->m; k++) {
        double flo = 0.0, fup = 0.0, rlo = 0.0, rup = 0.0;
        if (!probe_extent(P, full_v, full_st, full_rows, k, &flo, &fup)) {
            continue;
        }
        if (!probe_extent(P, set_v, set_st, set_rows, k, &rlo, &rup)) {
            return 1.0;
        }
        double w = fup - flo;
        if (w > 0.0) {
            gap = fmax(gap, fmax(fup - rup, rlo - flo) / w);
        }
    }
    return gap;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* each line as it is measured */
    static problem P;
    nsm_outcome_opts opts = NSM_OUTCOME_OPTS_DEFAULT;
    static const struct {
        const char *file, *line, *moreau, *stem;
    } shipped[] = {
        {"examples/problems/humanoid_land_one_foot.json", "humanoid_one_foot_set_seconds",
         "humanoid_one_foot_moreau_run_seconds", "humanoid_one_foot_set"},
        {"examples/problems/humanoid_land_two_feet.json", "humanoid_two_feet_set_seconds",
         "humanoid_two_feet_moreau_run_seconds", "humanoid_two_feet_set"},
        {"examples/problems/box_land_flat.json", "box_flat_set_seconds",
         "box_flat_moreau_run_seconds", "box_flat_set"},
    };
    for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++) {
        if (pf_load(shipped[i].file, &P) != 0) {
            printf("# %s: cannot read\n", shipped[i].file);
            printf("%s nan\n", shipped[i].line);
            continue;
        }
        printf("%s %.3f\n", shipped[i].line, set_seconds(&P, &opts, shipped[i].line));
        full_rows = set_rows;
        memcpy(full_v, set_v, full_rows * P.n * sizeof *set_v);
        memcpy(full_st, set_st, full_rows * sizeof *set_st);
        /* the same set in rounds, and how much of the full set's extent it keeps */
        char name[64];
        snprintf(name, sizeof name, "%s_rounds_seconds", shipped[i].stem);
        nsm_outcome_opts ro = opts;
        ro.hull_tol = NSM_OUTCOME_HULL_TOL;
        double tr = set_seconds(&P, &ro, name);
        printf("%s %.3f\n", name, tr);
        printf("%s_rounds_support_gap %.2e\n", shipped[i].stem,
               full_rows > 0 && !isnan(tr) ? rounds_gap(&P) : NAN);
        printf("%s %.5f\n", shipped[i].moreau, moreau_seconds(&P, &opts));
        if (i < 2) {
            /* the one-foot set's lines keep their names; the two-feet set's are prefixed */
            double run_max = 0.0;
            double mean_max = steps_ratio(&P, &opts, &run_max);
            const char *pre = i == 0 ? "" : "two_feet_";
            printf("%sspatial_steps_ratio_max %.2f\n", pre, mean_max);
            printf("%sspatial_steps_run_max %.2f\n", pre, run_max);
        }
    }

    disc_column(&P);
    double planes[2 * 4 * 9] = {0};
    /* (v_x, omega) of each disc, and (v_y of the top disc, omega of the middle one) */
    for (size_t q = 0; q < 3; q++) {
        planes[(2 * q) * 9 + 3 * q] = 1.0;
        planes[(2 * q + 1) * 9 + 3 * q + 2] = 1.0;
    }
    planes[6 * 9 + 7] = 1.0;
    planes[7 * 9 + 5] = 1.0;
    nsm_outcome_opts po = NSM_OUTCOME_OPTS_DEFAULT;
    po.nplanes = 4;
    po.planes = planes;
    printf("disc_column_set_seconds %.3f\n", set_seconds(&P, &po, "disc_column"));

    nsm_outcome_opts co = NSM_OUTCOME_OPTS_DEFAULT;
    co.nsamples = CURVE_SAMPLES;
    static const size_t ks[] = {2, 4, 8, 12, 16};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        random_problem(CURVE_N, ks[i], 20261206u + ks[i], &P);
        char name[32];
        snprintf(name, sizeof name, "set_seconds_k%zu", ks[i]);
        printf("%s %.3f\n", name, set_seconds(&P, &co, name));
    }
    return 0;
}
