/*
 * impact_demo.h — shared driver of the impact examples. demo_run computes the outcome set of one
 * impact with nsm_outcome_set (every sequential and priority order, the simultaneous run, the
 * extremal fan, DEMO_NSAMPLES bang-bang histories and as many schedules; docs/math.md,
 * "Exploring the set") twice, with the default step h and with h/2, and writes into the output
 * folder:
 *   <name>.csv       one line per run of the h set: source, status, v+, the post-impact contact
 *                    velocities u = (u_t, u_n) per contact, kinetic energy;
 *   <name>_hull.csv  the convex hull of the accepted outcomes in the plotted projection (an
 *                    inner approximation of the set: outcomes no run reached may lie outside);
 *   <name>.gp        gnuplot script -> <name>.png.
 * It prints a line starting with 'DEMO ' with the spread of the set in the plotted projection,
 * how much that spread changes when h halves, and the number of distinct outcomes at a
 * tolerance tied to the step.
 *
 * Distinctness. The integrator is first order in the step (docs/math.md), so an outcome
 * computed with step h is off by about twice its change when h halves. tau is twice the largest
 * change, between the h and h/2 sets, of a deterministic run (sequential orders and the
 * simultaneous run), and at least 1e-9·scale (scale: the largest |J v-| entry); two outcomes
 * are distinct when their contact velocities differ by more than tau in some entry. A set with
 * one distinct outcome is plotted as that point, with its value, on axes of ±5 % of scale.
 */
#ifndef NSM_IMPACT_DEMO_H
#define NSM_IMPACT_DEMO_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nsmech.h"

#define DEMO_MAXN 10
#define DEMO_MAXM 6
#define DEMO_NSAMPLES 1024u
#define DEMO_HOLD 2000u
#define DEMO_NRUNS (2u * DEMO_NSAMPLES + (DEMO_NSAMPLES + 7u) / 8u + 1742u)

typedef struct demo_problem {
    const char *name, *title, *xlabel, *ylabel;
    size_t n, m;
    double M[DEMO_MAXN * DEMO_MAXN], Jn[DEMO_MAXM * DEMO_MAXN], Jt[DEMO_MAXM * DEMO_MAXN];
    double mu[DEMO_MAXM], vm[DEMO_MAXN];
    size_t ix, iy; /* plotted components of u = (u_t0, u_n0, u_t1, u_n1, ...) */
} demo_problem;

/* One outcome set: the runs and their contact velocities. */
typedef struct demo_set {
    size_t nruns, acc;
    double vplus[DEMO_NRUNS * DEMO_MAXN];
    double u[DEMO_NRUNS * 2 * DEMO_MAXM];
    nsm_status status[DEMO_NRUNS];
    nsm_policy_kind kind[DEMO_NRUNS];
} demo_set;

static double demo_work[16384];
static demo_set demo_h, demo_h2;
static double demo_px[DEMO_NRUNS], demo_py[DEMO_NRUNS];
static size_t demo_idx[DEMO_NRUNS], demo_hull[DEMO_NRUNS + 1], demo_rep[DEMO_NRUNS];

static const char *demo_kind_name(nsm_policy_kind k)
{
    switch (k) {
    case NSM_POLICY_SEQUENTIAL: return "sequential";
    case NSM_POLICY_PRIORITY: return "priority";
    case NSM_POLICY_SIMULTANEOUS: return "simultaneous";
    case NSM_POLICY_EXTREMAL:
    case NSM_POLICY_EXTREMAL_V: return "extremal";
    case NSM_POLICY_SCHEDULE: return "schedule";
    default: return "sampled";
    }
}

static double demo_energy(const demo_problem *P, const double *v)
{
    double e = 0.0;
    for (size_t i = 0; i < P->n; i++) {
        for (size_t j = 0; j < P->n; j++) {
            e += 0.5 * v[i] * P->M[i * P->n + j] * v[j];
        }
    }
    return e;
}

/* u = (J_t,c v, J_n,c v) per contact. */
static void demo_contact_velocities(const demo_problem *P, const double *v, double *u)
{
    for (size_t c = 0; c < P->m; c++) {
        u[2 * c] = 0.0;
        u[2 * c + 1] = 0.0;
        for (size_t i = 0; i < P->n; i++) {
            u[2 * c] += P->Jt[c * P->n + i] * v[i];
            u[2 * c + 1] += P->Jn[c * P->n + i] * v[i];
        }
    }
}

/* The outcome set with `steps` steps across the bound and bang-bang dwells up to `hold` steps
   into S. */
static int demo_set_run(const demo_problem *P, size_t steps, size_t hold, demo_set *S)
{
    nsm_outcome_opts opts = NSM_OUTCOME_OPTS_DEFAULT;
    opts.impact.steps = steps;
    opts.nsamples = DEMO_NSAMPLES;
    opts.seed = 2026u;
    opts.hold = hold;
    size_t lw = nsm_outcome_work(P->n, P->m);
    if (lw == 0 || lw > sizeof demo_work / sizeof demo_work[0] ||
        nsm_outcome_count(P->m, &opts) > DEMO_NRUNS) {
        fprintf(stderr, "%s: problem too large for the demo buffers\n", P->name);
        return 1;
    }
    const nsm_contact_problem prob = {P->n, P->m, 1, P->M, P->Jn, P->Jt, P->mu, P->vm};
    nsm_outcome_result res = {DEMO_NRUNS, S->vplus, S->status, S->kind, 0, 0};
    nsm_status st = nsm_outcome_set(&prob, &opts, &res, demo_work, lw);
    S->nruns = res.nruns;
    S->acc = res.accepted;
    if (st != NSM_OK) {
        fprintf(stderr, "%s: outcome set failed: %s\n", P->name, nsm_status_str(st));
        return 1;
    }
    for (size_t r = 0; r < S->nruns; r++) {
        demo_contact_velocities(P, S->vplus + P->n * r, S->u + 2 * P->m * r);
    }
    return 0;
}

/* Largest |entry| difference of two contact-velocity vectors (2m entries). */
static double demo_dist(size_t m, const double *a, const double *b)
{
    double d = 0.0;
    for (size_t k = 0; k < 2 * m; k++) {
        d = fmax(d, fabs(a[k] - b[k]));
    }
    return d;
}

/* Extent [lo, hi] of the accepted outcomes of S in component k of u. */
static void demo_extent(const demo_problem *P, const demo_set *S, size_t k, double *lo,
                        double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t r = 0; r < S->nruns; r++) {
        if (S->status[r] == NSM_OK) {
            *lo = fmin(*lo, S->u[2 * P->m * r + k]);
            *hi = fmax(*hi, S->u[2 * P->m * r + k]);
        }
    }
}

static int demo_write_csv(const demo_problem *P, const char *dir)
{
    char path[1024];
    size_t n = P->n, m = P->m;
    snprintf(path, sizeof path, "%s/%s.csv", dir, P->name);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    fprintf(f, "run,source,status");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, ",v%zu", i);
    }
    for (size_t c = 0; c < m; c++) {
        fprintf(f, ",ut%zu,un%zu", c, c);
    }
    fprintf(f, ",energy\n");
    for (size_t r = 0; r < demo_h.nruns; r++) {
        fprintf(f, "%zu,%s,%s", r, demo_kind_name(demo_h.kind[r]),
                demo_h.status[r] == NSM_OK ? "accepted" : nsm_status_str(demo_h.status[r]));
        for (size_t i = 0; i < n; i++) {
            fprintf(f, ",%.10g", demo_h.vplus[n * r + i]);
        }
        for (size_t k = 0; k < 2 * m; k++) {
            fprintf(f, ",%.10g", demo_h.u[2 * m * r + k]);
        }
        fprintf(f, ",%.10g\n", demo_energy(P, demo_h.vplus + n * r));
    }
    return fclose(f) != 0;
}

static int demo_run(const demo_problem *P, const char *dir)
{
    size_t n = P->n, m = P->m;
    /* h and h/2; the dwell scales and the extremal choices keep their impulse spacing */
    if (demo_set_run(P, 2000u, DEMO_HOLD, &demo_h) != 0 ||
        demo_set_run(P, 4000u, 2 * DEMO_HOLD, &demo_h2) != 0) {
        return 1;
    }
    double um[2 * DEMO_MAXM], scale = 0.0;
    demo_contact_velocities(P, P->vm, um);
    for (size_t k = 0; k < 2 * m; k++) {
        scale = fmax(scale, fabs(um[k]));
    }
    /* tau: twice the largest change of a deterministic run when h halves */
    double tau = 1e-9 * scale;
    for (size_t r = 0; r < demo_h.nruns; r++) {
        nsm_policy_kind k = demo_h.kind[r];
        if ((k == NSM_POLICY_SEQUENTIAL || k == NSM_POLICY_SIMULTANEOUS) &&
            demo_h.status[r] == NSM_OK && demo_h2.status[r] == NSM_OK) {
            tau = fmax(tau, 2.0 * demo_dist(m, demo_h.u + 2 * m * r, demo_h2.u + 2 * m * r));
        }
    }
    /* distinct outcomes at tau (greedy: each accepted outcome not within tau of a kept one) */
    size_t ndist = 0, np = 0;
    double e0 = demo_energy(P, P->vm), emax = 0.0, unmin = INFINITY;
    for (size_t r = 0; r < demo_h.nruns; r++) {
        if (demo_h.status[r] != NSM_OK) {
            continue;
        }
        const double *u = demo_h.u + 2 * m * r;
        int seen = 0;
        for (size_t q = 0; q < ndist && !seen; q++) {
            seen = demo_dist(m, u, demo_h.u + 2 * m * demo_rep[q]) <= tau;
        }
        if (!seen) {
            demo_rep[ndist++] = r;
        }
        demo_px[np] = u[P->ix];
        demo_py[np] = u[P->iy];
        np++;
        emax = fmax(emax, demo_energy(P, demo_h.vplus + n * r));
        for (size_t c = 0; c < m; c++) {
            unmin = fmin(unmin, u[2 * c + 1]);
        }
    }
    if (demo_write_csv(P, dir) != 0) {
        return 1;
    }
    /* hull of the plotted projection */
    char path[1024];
    size_t nh = 0;
    snprintf(path, sizeof path, "%s/%s_hull.csv", dir, P->name);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    if (np > 0 && nsm_hull2d(np, demo_px, demo_py, demo_idx, demo_hull, &nh) == NSM_OK) {
        for (size_t i = 0; i <= nh; i++) {
            size_t k = demo_hull[i % nh];
            fprintf(f, "%.10g,%.10g\n", demo_px[k], demo_py[k]);
        }
    }
    fclose(f);
    /* spread in the plotted projection at h and h/2 */
    double xl, xh, yl, yh, xl2, xh2, yl2, yh2;
    demo_extent(P, &demo_h, P->ix, &xl, &xh);
    demo_extent(P, &demo_h, P->iy, &yl, &yh);
    demo_extent(P, &demo_h2, P->ix, &xl2, &xh2);
    demo_extent(P, &demo_h2, P->iy, &yl2, &yh2);
    /* values below 1e-9·scale are zero to the integrator's tolerances: printed as 0 */
    double *ext[8] = {&xl, &xh, &yl, &yh, &xl2, &xh2, &yl2, &yh2};
    for (int k = 0; k < 8; k++) {
        *ext[k] = fabs(*ext[k]) < 1e-9 * scale ? 0.0 : *ext[k];
    }
    double dspread = fmax(fabs((xh - xl) - (xh2 - xl2)), fabs((yh - yl) - (yh2 - yl2)));
    /* axes: the data with 8 % margins, never narrower than 10 % of scale */
    double cx = 0.5 * (xl + xh), cy = 0.5 * (yl + yh);
    double wx = fmax(1.16 * (xh - xl), 0.1 * scale), wy = fmax(1.16 * (yh - yl), 0.1 * scale);
    if (ndist == 1) {
        wx = wy = 0.1 * scale;
    }
    /* columns of the plotted components: run,source,status, v (n), then u */
    size_t cxcol = 4 + n + P->ix, cycol = 4 + n + P->iy;
    snprintf(path, sizeof path, "%s/%s.gp", dir, P->name);
    f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    fprintf(f,
            "set terminal pngcairo size 900,700\n"
            "set output '%s.png'\n"
            "set datafile separator ','\n"
            "set title \"%s\\n%zu runs, %zu distinct at tau = %.1e m/s%s\"\n"
            "set xlabel '%s [m/s]'\n"
            "set ylabel '%s [m/s]'\n"
            "set key outside bottom center horizontal\n"
            "set grid\n"
            "set xrange [%.10g:%.10g]\n"
            "set yrange [%.10g:%.10g]\n",
            P->name, P->title, demo_h.nruns, ndist, tau,
            ndist == 1 ? " (a single outcome)" : "", P->xlabel, P->ylabel, cx - 0.5 * wx,
            cx + 0.5 * wx, cy - 0.5 * wy, cy + 0.5 * wy);
    if (ndist == 1) {
        fprintf(f, "set label 1 sprintf('(%%.4f, %%.4f)', %.10g, %.10g) at %.10g, %.10g "
                   "offset 1, 1\n",
                xl, yl, xl, yl);
    }
    fprintf(f,
            "plot '%s.csv' every ::1 using ((strcol(2) eq 'sampled' && strcol(3) eq 'accepted') ? "
            "$%zu : 1/0):%zu with points pt 7 ps 0.4 lc rgb '#9f9f9f' title 'bang-bang histories', \\\n"
            "     '%s.csv' every ::1 using ((strcol(2) eq 'schedule' && strcol(3) eq 'accepted') ? "
            "$%zu : 1/0):%zu with points pt 6 ps 0.4 lc rgb '#17becf' title 'schedules', \\\n"
            "     '%s.csv' every ::1 using ((strcol(2) eq 'extremal' && strcol(3) eq 'accepted') ? "
            "$%zu : 1/0):%zu with points pt 8 ps 1.2 lc rgb '#ff7f0e' title 'extremal fan', \\\n"
            "     '%s_hull.csv' using 1:2 with lines dt 2 lw 1.5 lc rgb '#1f77b4' "
            "title 'convex hull of the outcomes', \\\n"
            "     '%s.csv' every ::1 using (strcol(2) eq 'priority' ? $%zu : 1/0):%zu "
            "with points pt 4 ps 2.5 lc rgb '#9467bd' title 'priority orders', \\\n"
            "     '%s.csv' every ::1 using (strcol(2) eq 'sequential' ? $%zu : 1/0):%zu "
            "with points pt 5 ps 1.5 lc rgb '#d62728' title 'sequential orders', \\\n"
            "     '%s.csv' every ::1 using (strcol(2) eq 'simultaneous' ? $%zu : 1/0):%zu "
            "with points pt 9 ps 2.5 lc rgb '#2ca02c' title 'simultaneous (equal ratios)'\n",
            P->name, cxcol, cycol, P->name, cxcol, cycol, P->name, cxcol, cycol, P->name,
            P->name, cxcol, cycol, P->name, cxcol, cycol, P->name, cxcol, cycol);
    fclose(f);
    printf("%s: %zu runs, %zu accepted, %zu distinct at tau %.2g m/s, x [%.4f, %.4f] "
           "y [%.4f, %.4f] m/s, spread change at h/2 %.2g m/s, E0 %.4g J, max E+ %.4g J, "
           "min J_n v+ %.2g m/s\n",
           P->name, demo_h.nruns, demo_h.acc, ndist, tau, xl, xh, yl, yh, dspread, e0, emax,
           unmin);
    printf("DEMO %s | %s | %zu runs, %zu accepted, %zu distinct (tau %.1e), x [%.4f, %.4f] "
           "y [%.4f, %.4f], h/2 change %.1e | %s.png\n",
           P->name, demo_h.acc == demo_h.nruns ? "ok" : "partial", demo_h.nruns, demo_h.acc,
           ndist, tau, xl, xh, yl, yh, dspread, P->name);
    return 0;
}

#endif
