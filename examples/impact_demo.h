/*
 * impact_demo.h — shared driver of the impact examples: computes the outcome set of one impact
 * (every sequential order, simultaneous with equal ratios, sampled weight histories), writes
 * <dir>/<name>.csv (one line per run: kind, status, v+, post-impact contact velocities u =
 * (u_t, u_n) per contact, kinetic energy), <dir>/<name>_hull.csv (convex hull of the accepted
 * outcomes in the plotted projection: an outer approximation of the sampled set) and
 * <dir>/<name>.gp (gnuplot -> <name>.png: scatter of two post-impact contact velocities, the
 * sequential and simultaneous outcomes marked), and prints a line starting with 'DEMO '.
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
#define DEMO_NSAMPLES 400
#define DEMO_NRUNS (DEMO_NSAMPLES + 720 + 1)

typedef struct demo_problem {
    const char *name, *title, *xlabel, *ylabel;
    size_t n, m;
    double M[DEMO_MAXN * DEMO_MAXN], Jn[DEMO_MAXM * DEMO_MAXN], Jt[DEMO_MAXM * DEMO_MAXN];
    double mu[DEMO_MAXM], vm[DEMO_MAXN];
    size_t ix, iy; /* plotted components of u = (u_t0, u_n0, u_t1, u_n1, ...) */
} demo_problem;

static double demo_work[16384];
static double demo_vplus[DEMO_NRUNS * DEMO_MAXN];
static nsm_status demo_status[DEMO_NRUNS];
static nsm_policy_kind demo_kind[DEMO_NRUNS];
static double demo_px[DEMO_NRUNS], demo_py[DEMO_NRUNS];
static size_t demo_idx[DEMO_NRUNS], demo_hull[DEMO_NRUNS + 1];

static const char *demo_kind_name(nsm_policy_kind k)
{
    return k == NSM_POLICY_SEQUENTIAL ? "sequential"
           : k == NSM_POLICY_SIMULTANEOUS ? "simultaneous" : "sampled";
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

static int demo_run(const demo_problem *P, const char *dir)
{
    size_t n = P->n, m = P->m;
    nsm_impact_opts opts = NSM_IMPACT_OPTS_DEFAULT;
    size_t nruns = 0, acc = 0;
    size_t lw = nsm_outcome_work(n, m);
    size_t total = nsm_outcome_count(m, DEMO_NSAMPLES);
    if (lw > sizeof demo_work / sizeof demo_work[0] || total > DEMO_NRUNS) {
        fprintf(stderr, "%s: problem too large for the demo buffers\n", P->name);
        return 1;
    }
    nsm_status st = nsm_outcome_set(n, m, P->M, P->Jn, P->Jt, P->mu, P->vm, &opts,
                                    DEMO_NSAMPLES, 2026u, 20u, DEMO_NRUNS, demo_vplus,
                                    demo_status, demo_kind, &nruns, &acc, demo_work, lw);
    if (st != NSM_OK) {
        fprintf(stderr, "%s: outcome set failed: %s\n", P->name, nsm_status_str(st));
        return 1;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.csv", dir, P->name);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    fprintf(f, "run,kind,status");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, ",v%zu", i);
    }
    for (size_t c = 0; c < m; c++) {
        fprintf(f, ",ut%zu,un%zu", c, c);
    }
    fprintf(f, ",energy\n");
    size_t np = 0;
    double e0 = demo_energy(P, P->vm), emax = 0.0, unmin = 1e300;
    for (size_t r = 0; r < nruns; r++) {
        const double *v = demo_vplus + n * r;
        double u[2 * DEMO_MAXM];
        for (size_t c = 0; c < m; c++) {
            u[2 * c] = 0.0;
            u[2 * c + 1] = 0.0;
            for (size_t i = 0; i < n; i++) {
                u[2 * c] += P->Jt[c * n + i] * v[i];
                u[2 * c + 1] += P->Jn[c * n + i] * v[i];
            }
        }
        double e = demo_energy(P, v);
        fprintf(f, "%zu,%s,%s", r, demo_kind_name(demo_kind[r]),
                demo_status[r] == NSM_OK ? "accepted" : nsm_status_str(demo_status[r]));
        for (size_t i = 0; i < n; i++) {
            fprintf(f, ",%.10g", v[i]);
        }
        for (size_t k = 0; k < 2 * m; k++) {
            fprintf(f, ",%.10g", u[k]);
        }
        fprintf(f, ",%.10g\n", e);
        if (demo_status[r] == NSM_OK) {
            demo_px[np] = u[P->ix];
            demo_py[np] = u[P->iy];
            np++;
            emax = e > emax ? e : emax;
            for (size_t c = 0; c < m; c++) {
                unmin = u[2 * c + 1] < unmin ? u[2 * c + 1] : unmin;
            }
        }
    }
    fclose(f);
    size_t nh = 0;
    snprintf(path, sizeof path, "%s/%s_hull.csv", dir, P->name);
    f = fopen(path, "w");
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
    /* columns of the plotted components: run,kind,status, v (n), then u */
    size_t cx = 4 + n + P->ix, cy = 4 + n + P->iy;
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
            "set title '%s'\n"
            "set xlabel '%s'\n"
            "set ylabel '%s'\n"
            "set key outside bottom center horizontal\n"
            "set grid\n"
            "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n"
            "plot '%s.csv' every ::1 using ((strcol(2) eq 'sampled' && strcol(3) eq 'accepted') ? $%zu : 1/0):%zu "
            "with points pt 7 ps 0.5 lc rgb '#7f7f7f' title 'sampled weight histories', \\\n"
            "     '%s_hull.csv' using 1:2 with lines dt 2 lc rgb '#1f77b4' title 'convex hull (outer approx. of samples)', \\\n"
            "     '%s.csv' every ::1 using (strcol(2) eq 'sequential' ? $%zu : 1/0):%zu "
            "with points pt 5 ps 2 lc rgb '#d62728' title 'sequential (all orders)', \\\n"
            "     '%s.csv' every ::1 using (strcol(2) eq 'simultaneous' ? $%zu : 1/0):%zu "
            "with points pt 9 ps 2.5 lc rgb '#2ca02c' title 'simultaneous (equal ratios)'\n",
            P->name, P->title, P->xlabel, P->ylabel, P->name, cx, cy, P->name, P->name, cx, cy,
            P->name, cx, cy);
    fclose(f);
    printf("%s: %zu runs, %zu accepted, hull %zu vertices, E0 %.6g, max E+ %.6g, "
           "min J_n v+ %.3g\n", P->name, nruns, acc, nh, e0, emax, unmin);
    printf("DEMO %s | %s | runs %zu accepted %zu hull %zu Emax/E0 %.4f | %s.png\n", P->name,
           acc == nruns ? "ok" : "partial", nruns, acc, nh, e0 > 0 ? emax / e0 : 0.0, P->name);
    return 0;
}

#endif
