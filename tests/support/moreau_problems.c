/* The Moreau comparison problems and the comparison (moreau_problems.h). */
#define _POSIX_C_SOURCE 199309L
#include "moreau_problems.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "ball_stack.h"
#include "box_corner.h"
#include "impact_oracle.h"

/* Runs of the largest set compared (nsm_outcome_count at most this). */
#define MP_MAX_RUNS 8192u

static void set_name(moreau_problem *P, const char *name)
{
    snprintf(P->name, sizeof P->name, "%s", name);
}

static void box(moreau_problem *P, const char *name, double mu, double vx, double vy, double w)
{
    memset(P, 0, sizeof *P);
    set_name(P, name);
    P->n = 3;
    P->m = 2;
    box_corner_problem(P->M, P->Jn, P->Jt, P->mu, P->vm);
    P->mu[0] = P->mu[1] = mu;
    P->vm[0] = vx;
    P->vm[1] = vy;
    P->vm[2] = w;
}

/* The ball stack's discs with velocities vm (x, y, theta per disc; NULL: the fixture's). */
static void discs(moreau_problem *P, const char *name, double mu, const double *vm)
{
    memset(P, 0, sizeof *P);
    set_name(P, name);
    P->n = BALL_STACK_N;
    P->m = BALL_STACK_M;
    ball_stack_problem(P->M, P->Jn, P->Jt, P->mu, P->vm);
    for (size_t c = 0; c < P->m; c++) {
        P->mu[c] = mu;
    }
    if (vm) {
        memcpy(P->vm, vm, P->n * sizeof *vm);
    }
}

/* splitmix64: the random problems' own generator */
static uint64_t mix_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double mix_unit(uint64_t *s) /* uniform in [-1, 1) */
{
    return (double)(mix_next(s) >> 11) * 0x1.0p-52 - 1.0;
}

/* A random problem: m contacts, n = m + 1 velocities, M = A A^T + I, J entries in [-1, 1),
   v- = -sum_c a_c J_n,c^T + noise, drawn again until every contact penetrates. */
static void random_problem(moreau_problem *P, size_t idx, size_t m, double mu)
{
    char name[24];
    snprintf(name, sizeof name, "random-%02zu-m%zu", idx, m);
    memset(P, 0, sizeof *P);
    set_name(P, name);
    size_t n = m + 1;
    P->n = n;
    P->m = m;
    uint64_t s = 0x5EED0000ull + idx;
    for (int tries = 0; tries < 1000; tries++) {
        double A[MP_MAXN * MP_MAXN];
        for (size_t i = 0; i < n * n; i++) {
            A[i] = mix_unit(&s);
        }
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < n; j++) {
                double a = i == j ? 1.0 : 0.0;
                for (size_t k = 0; k < n; k++) {
                    a += A[i * n + k] * A[j * n + k];
                }
                P->M[i * n + j] = a;
            }
        }
        for (size_t i = 0; i < m * n; i++) {
            P->Jn[i] = mix_unit(&s);
            P->Jt[i] = mix_unit(&s);
        }
        for (size_t i = 0; i < n; i++) {
            P->vm[i] = 0.3 * mix_unit(&s);
        }
        for (size_t c = 0; c < m; c++) {
            double a = 0.75 + 0.5 * mix_unit(&s);
            for (size_t i = 0; i < n; i++) {
                P->vm[i] -= a * P->Jn[c * n + i];
            }
            P->mu[c] = mu;
        }
        int all = 1;
        for (size_t c = 0; c < m; c++) {
            double u = 0.0;
            for (size_t i = 0; i < n; i++) {
                u += P->Jn[c * n + i] * P->vm[i];
            }
            all = all && u < -1e-3;
        }
        if (all) {
            return;
        }
    }
}

size_t moreau_problems(moreau_problem *P)
{
    /* the pyramid: every disc moving into its neighbours and spinning */
    static const double spin_a[9] = {0.3, -0.5, 2.0, -0.2, -0.4, -1.0, 0.1, -1.0, 1.5};
    static const double spin_b[9] = {-0.1, -0.8, -1.0, 0.4, -0.2, 2.5, 0.3, -0.6, -2.0};
    size_t k = 0;
    box(&P[k++], "box-mu0-a", 0.0, 0.5, -1.0, 0.3);
    box(&P[k++], "box-mu0-b", 0.0, 1.0, -1.0, 0.0);
    box(&P[k++], "box-mu0-c", 0.0, 0.2, -1.0, -0.6);
    box(&P[k++], "box-mu0.3-a", 0.3, 0.5, -1.0, 0.3);
    box(&P[k++], "box-mu0.3-b", 0.3, 1.0, -1.0, 0.0);
    box(&P[k++], "box-mu0.3-d", 0.3, -0.3, -1.0, 1.0);
    box(&P[k++], "box-mu1-b", 1.0, 1.0, -1.0, 0.0);
    discs(&P[k++], "ballstack-mu1.73", 1.7320508075688772, NULL);
    discs(&P[k++], "ballstack-mu0", 0.0, NULL);
    discs(&P[k++], "ballstack-mu0.3", 0.3, NULL);
    discs(&P[k++], "pyramid-spin-mu0", 0.0, spin_a);
    discs(&P[k++], "pyramid-spin-mu0.3", 0.3, spin_a);
    discs(&P[k++], "pyramid-spin2-mu0.3", 0.3, spin_b);
    static const size_t rm[7] = {2, 3, 4, 5, 2, 3, 5};
    static const double rmu[7] = {0.0, 0.3, 0.0, 0.3, 0.5, 0.0, 0.5};
    for (size_t i = 0; i < 7; i++) {
        random_problem(&P[k++], i, rm[i], rmu[i]);
    }
    return k;
}

int moreau_problem_solve(const moreau_problem *P, moreau_result *res)
{
    return moreau_solve(P->n, P->m, P->M, P->Jn, P->Jt, P->mu, P->vm, MOREAU_TOL, res);
}

size_t moreau_nproj(size_t n)
{
    return n * (n - 1) / 2 + 1;
}

void moreau_proj(const moreau_problem *P, size_t q, double *p0, double *p1)
{
    size_t n = P->n;
    memset(p0, 0, n * sizeof *p0);
    memset(p1, 0, n * sizeof *p1);
    for (size_t i = 0, r = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++, r++) {
            if (r == q) {
                p0[i] = 1.0;
                p1[j] = 1.0;
                return;
            }
        }
    }
    memcpy(p0, P->Jn, n * sizeof *p0);
    memcpy(p1, P->Jt, n * sizeof *p1);
}

nsm_status moreau_replay(const moreau_problem *P, const double *Pimp, double *vp)
{
    static double work[8192];
    double ratios[MP_MAXM], Lam[2 * MP_MAXM], pmax = 0.0;
    for (size_t c = 0; c < P->m; c++) {
        pmax = fmax(pmax, Pimp[2 * c + 1]);
    }
    for (size_t c = 0; c < P->m; c++) {
        ratios[c] = fmax(Pimp[2 * c + 1], 1e-12 * pmax);
    }
    size_t lw = nsm_impact_work(P->n, P->m);
    if (!(pmax > 0.0) || lw == 0 || lw > sizeof work / sizeof work[0]) {
        return NSM_ERR_ARG;
    }
    const nsm_contact_problem prob = {P->n, P->m, 1, P->M, P->Jn, P->Jt, P->mu, P->vm};
    nsm_impact_policy pol = {NSM_POLICY_SIMULTANEOUS, NULL, ratios, 0, 1, NULL, NULL, NULL};
    nsm_impact_opts io = NSM_IMPACT_OPTS_DEFAULT;
    nsm_impact_result r;
    memset(&r, 0, sizeof r);
    r.v_plus = vp;
    r.Lambda = Lam;
    return nsm_impact_solve(&prob, &pol, &io, &r, work, lw);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Accepted points of the set into pts; returns their number, or (size_t)-1 on a call error. */
static size_t set_points(const moreau_problem *P, const nsm_outcome_opts *opts, double *pts,
                         size_t *runs)
{
    static double v[MP_MAX_RUNS * MP_MAXN], work[16384];
    static nsm_status st[MP_MAX_RUNS];
    static nsm_policy_kind kd[MP_MAX_RUNS];
    size_t cap = nsm_outcome_count(P->m, opts), lw = nsm_outcome_work(P->n, P->m);
    if (cap == 0 || cap > MP_MAX_RUNS || lw == 0 || lw > sizeof work / sizeof work[0]) {
        return (size_t)-1;
    }
    const nsm_contact_problem prob = {P->n, P->m, 1, P->M, P->Jn, P->Jt, P->mu, P->vm};
    nsm_outcome_result res = {cap, v, st, kd, 0, 0};
    if (nsm_outcome_set(&prob, opts, &res, work, lw) != NSM_OK) {
        return (size_t)-1;
    }
    size_t k = 0;
    for (size_t r = 0; r < res.nruns; r++) {
        if (st[r] == NSM_OK) {
            memcpy(pts + P->n * k++, v + P->n * r, P->n * sizeof *v);
        }
    }
    *runs = res.nruns;
    return k;
}

/* Largest distance outside the hull / diameter of the point vp over the projections. */
static double outside_hull(const moreau_problem *P, const double *vp, size_t npts,
                           const double *pts, size_t *worst)
{
    static double x[MP_MAX_RUNS], y[MP_MAX_RUNS];
    double p0[MP_MAXN], p1[MP_MAXN], out = 0.0, vscale = 0.0;
    size_t n = P->n;
    for (size_t i = 0; i < n; i++) {
        vscale = fmax(vscale, fabs(P->vm[i]));
    }
    *worst = 0;
    for (size_t q = 0; q < moreau_nproj(n); q++) {
        moreau_proj(P, q, p0, p1);
        double px = 0.0, py = 0.0;
        for (size_t i = 0; i < n; i++) {
            px += p0[i] * vp[i];
            py += p1[i] * vp[i];
        }
        for (size_t r = 0; r < npts; r++) {
            x[r] = y[r] = 0.0;
            for (size_t i = 0; i < n; i++) {
                x[r] += p0[i] * pts[r * n + i];
                y[r] += p1[i] * pts[r * n + i];
            }
        }
        /* a projection where the set is a point (a velocity component no impulse changes)
           is measured against 1e-9 of the velocity scale instead of its zero diameter */
        double diam = 0.0, d = oracle_hull_outside(npts, x, y, px, py, &diam);
        double rel = d / fmax(diam, 1e-9 * vscale);
        if (d < 0.0) {
            return -1.0;
        }
        if (rel > out) {
            out = rel;
            *worst = q;
        }
    }
    return out;
}

int moreau_compare(const moreau_problem *P, const nsm_outcome_opts *opts, int with_set,
                   moreau_cmp *out)
{
    static double pts[MP_MAX_RUNS * MP_MAXN];
    const nsm_outcome_opts dflt = NSM_OUTCOME_OPTS_DEFAULT;
    memset(out, 0, sizeof *out);
    out->first = -1;
    out->outside = -1.0;
    if (moreau_problem_solve(P, &out->oracle) != 0 || out->oracle.nsol == 0) {
        return -1;
    }
    double vs = 0.0;
    for (size_t i = 0; i < P->n; i++) {
        vs = fmax(vs, fabs(P->vm[i]));
    }
    /* every impulse found: where several give the same v+, their normal ratios differ */
    const moreau_result *R = &out->oracle;
    int rep[MOREAU_MAX_SOL] = {0};
    for (size_t j = 0; j < R->nimp; j++) {
        double vp[MP_MAXN], err = 0.0;
        size_t sol = R->imp_sol[j];
        nsm_status st = moreau_replay(P, R->imp[j], vp);
        for (size_t i = 0; i < P->n; i++) {
            err = fmax(err, fabs(vp[i] - R->v[sol][i]));
        }
        err = st == NSM_OK ? err / vs : INFINITY;
        if (j == 0 || (out->first < 0 && err < out->replay_err)) {
            out->replay_err = err;
            out->replay_status = st;
        }
        if (err <= 1e-9 && !rep[sol]) {
            rep[sol] = 1;
            out->reproduced++;
            if (out->first < 0) {
                out->first = (int)sol;
            }
        }
    }
    if (!with_set || out->first < 0) {
        return 0;
    }
    double t0 = seconds_now();
    size_t runs = 0, k = set_points(P, opts ? opts : &dflt, pts, &runs);
    out->seconds = seconds_now() - t0;
    if (k == (size_t)-1) {
        return -1;
    }
    out->set_runs = runs;
    out->set_accepted = k;
    out->outside = outside_hull(P, out->oracle.v[out->first], k, pts, &out->outside_proj);
    return out->outside < 0.0 ? -1 : 0;
}

size_t moreau_inside(const nsm_outcome_opts *opts, int verbose, size_t *tested)
{
    static moreau_problem probs[MOREAU_NPROBLEMS];
    size_t np = moreau_problems(probs), inside = 0;
    *tested = 0;
    for (size_t k = 0; k < np; k++) {
        const moreau_problem *P = &probs[k];
        moreau_cmp C;
        if (moreau_compare(P, opts, 1, &C) != 0) {
            return (size_t)-1;
        }
        if (C.first < 0) {
            if (verbose) {
                printf("  %-20s not reproduced by a constant-ratio run: not tested\n", P->name);
            }
            continue;
        }
        int in = C.outside <= MOREAU_INSIDE_TOL;
        ++*tested;
        inside += (size_t)in;
        if (verbose) {
            printf("  %-20s %s outside/diameter %.2e (projection %zu)  runs %zu accepted %zu  "
                   "%.2f s\n",
                   P->name, in ? "inside " : "OUTSIDE", C.outside, C.outside_proj, C.set_runs,
                   C.set_accepted, C.seconds);
        }
    }
    return inside;
}
