/*
 * arm_cycle — the per-cycle C API of nsmech: a planar two-link arm in non-minimal (Cartesian)
 * coordinates whose tip runs into a wall and leaves it. docs/c-api.md walks through this file.
 *
 * Model (SI units). q = (x1, y1, x2, y2) m: elbow point mass m1 at p1 = (x1, y1), tip point
 * mass m2 at p2 = (x2, y2), base joint at the origin, gravity along −y. M = diag(m1, m1, m2, m2)
 * is constant, so C = 0; f_g = (0, −m1·g, 0, −m2·g) N. Constraints A q̇ = 0 (A m×4, row-major):
 *   link 1:  |p1|² = L1²          row (x1, y1, 0, 0)
 *   link 2:  |p2 − p1|² = L2²     row (−dx, −dy, dx, dy), (dx, dy) = p2 − p1
 *   wall:    x2 fixed in contact, seen by two coincident contact points of the tip pad: two
 *            identical rows (0, 0, 1, 0). So m = 4 rows of rank r = 3 in contact, m = r = 2 free.
 * The link rows are linear in q: evaluated at q̇ they give Ȧ (the wall rows of Ȧ are zero).
 * Control, blind to the wall: joint PD with gravity compensation, θ1 = atan2(y1, x1),
 * θ1 + θ2 = atan2(dy, dx), τ = ∂U/∂θ − K_p(θ − θ*) − K_d θ̇ (N·m), U = g(m1·y1 + m2·y2);
 * f = Bτ with B = (∂θ/∂q)ᵀ (4×2), and θ̇ = Bᵀq̇.
 *
 * One cycle (h = 1 ms): A, Ȧ → P (nsm_proj_projector) → q̇ ← P q̇ → f → q̈, f_c, rank r, μ, P,
 * M̄ (nsm_proj_dynamics) → residuals (check module) → semi-implicit Euler step. The contact
 * switches on when the tip reaches the wall moving into it, off when the free arm under the
 * same f would accelerate the tip away from it (the wall would have to pull); a switch takes
 * effect at the next cycle, whose P has the new rank.
 *
 * Scenario: from rest, target behind the wall; at t = 1.5 s the target moves away; 3 s. Run 1
 * applies q̇ ← P q̇ every cycle, run 2 only at the switches; both measure A q̇ and the gap
 * between f_c and the KKT force M q̈ − f − f_g + C q̇ at every call.
 * Usage: arm_cycle [dir]: writes <dir>/arm_cycle.csv, arm_cycle_noproj.csv, arm_cycle.gp
 * (gnuplot → arm_cycle.png), prints a summary and a 'DEMO ' line; exit 0 when every check holds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nsmech.h"

#define N 4        /* coordinates */
#define K 2        /* joint torques */
#define M_FREE 2   /* constraint rows, free */
#define M_MAX 4    /* constraint rows, in contact */
#define H 1e-3     /* control period (s) */
#define STEPS 3000 /* cycles (3 s) */
#define NRES 7

static const char *const res_name[NRES] = {"P^2 - P", "P - P^T", "S^2 - S", "QS - S",
                                           "SQ - Q", "P Lambda", "dMbar/dt - 2 Cbar (skew)"};

typedef struct {
    double L1, L2, m1, m2, g, wall, kp, kd; /* m, m, kg, kg, m/s², m, N·m/rad, N·m·s/rad */
} arm_model;

/* The buffers of one cycle; work is sized by the queries and allocated once, before the loop. */
typedef struct {
    double A[M_MAX * N], Ad[M_MAX * N], P[N * N], Q[N * N], Apinv[N * M_MAX];
    double M[N * N], C[N * N], Mdot[N * N], fg[N], B[N * K], f[N];
    double qdd[N], fc[N], Pd[N * N], Mbar[N * N], qdd_free[N];
    double S[N * N], Qd[N * N], Lambda[N * N], Pdot[N * N], Cbar[N * N];
    nsm_proj_info info;
    double Aqd, gap, *work; /* max_i |(A q̇)_i|, max_i |f_c − (M q̈ − f − f_g + C q̇)|_i */
    size_t lwork;
} cycle_buf;

typedef struct { /* largest values over a run, and counts */
    double max_Aqd, max_gap, max_len, max_pen, max_Pdiff, res[NRES];
    int switches, pd_fail;
} run_stats;

/* The pattern for every nsmech call: NSM_OK is 0, any other status is an error whose text
   nsm_status_str gives. Say which call failed and stop (a controller would switch to its safe
   fallback here; on error nsmech leaves the outputs unwritten). Returns 1 on NSM_OK, else 0. */
static int ok(nsm_status st, const char *call)
{
    if (st != NSM_OK) {
        fprintf(stderr, "arm_cycle: %s failed, status %d: %s\n", call, (int)st,
                nsm_status_str(st));
    }
    return st == NSM_OK;
}

/* A and Ȧ (m×N) at (q, q̇) for the contact state; returns m. */
static size_t constraints(int contact, const double *q, const double *qd, double *A, double *Ad)
{
    size_t m = contact ? M_MAX : M_FREE;
    const double *v[2] = {q, qd};
    double *rows[2] = {A, Ad};
    for (int k = 0; k < 2; k++) { /* link rows at q (A) and at q̇ (Ȧ) */
        double dx = v[k][2] - v[k][0], dy = v[k][3] - v[k][1];
        const double r[M_MAX * N] = {v[k][0], v[k][1], 0, 0, -dx, -dy, dx, dy};
        memcpy(rows[k], r, sizeof(double) * m * N);
    }
    if (contact) {
        A[2 * N + 2] = 1.0; /* contact point 1 of the tip pad */
        A[3 * N + 2] = 1.0; /* contact point 2, coincident: a redundant row */
    }
    return m;
}

/* The largest workspace of any call in the cycle, over both row counts; 0 if a query rejects
   the sizes. */
static size_t workspace_size(void)
{
    const size_t rows[2] = {M_FREE, M_MAX};
    size_t lwork = 0;
    for (int i = 0; i < 2; i++) {
        const size_t w[] = {nsm_proj_projector_work(N, rows[i]),
                            nsm_proj_dynamics_work(N, rows[i]), nsm_proj_rates_work(N),
                            nsm_proj_cbar_work(N), nsm_proj_oblique_work(N),
                            nsm_check_skew_work(N), nsm_check_pd_work(N)};
        for (size_t j = 0; j < sizeof w / sizeof w[0]; j++) {
            if (w[j] == 0) {
                return 0;
            }
            lwork = w[j] > lwork ? w[j] : lwork;
        }
    }
    return lwork;
}

/* One control cycle at (q, q̇); q̇ ← P q̇ when project. Fills b, updates rs; 0, or -1 on error. */
static int cycle(const arm_model *a, int contact, int project, const double *q, double *qd,
                 const double *thstar, cycle_buf *b, run_stats *rs)
{
    double *w = b->work, v[N];
    size_t lw = b->lwork;
    size_t m = constraints(contact, q, qd, b->A, b->Ad);
    /* 1. P = I − A⁺A of the current rows; q̇ ← P q̇, then Ȧ again (Ȧ depends on q̇) */
    nsm_proj_projector_result pr = {0, b->P, b->Q, b->Apinv};
    if (!ok(nsm_proj_projector(N, m, b->A, NSM_RANK_RTOL_DEFAULT, &pr, w, lw),
            "nsm_proj_projector") ||
        (project &&
         !ok(nsm_gemv(NSM_NO_TRANS, N, N, 1.0, b->P, qd, 0.0, v), "nsm_gemv(P q')"))) {
        return -1;
    }
    if (project) {
        memcpy(qd, v, sizeof v);
        constraints(contact, q, qd, b->A, b->Ad);
    }
    /* 2. M, C, f_g (constant here), B(q) and the joint PD law: f = Bτ */
    const double M[N * N] = {a->m1, 0, 0, 0, 0, a->m1, 0, 0, 0, 0, a->m2, 0, 0, 0, 0, a->m2};
    const double fg[N] = {0.0, -a->m1 * a->g, 0.0, -a->m2 * a->g};
    memcpy(b->M, M, sizeof M);
    memcpy(b->fg, fg, sizeof fg);
    double dx = q[2] - q[0], dy = q[3] - q[1], r1 = q[0] * q[0] + q[1] * q[1];
    double r2 = dx * dx + dy * dy, thd[K], tau[K];
    const double B[N * K] = {-q[1] / r1, q[1] / r1 + dy / r2, q[0] / r1, -q[0] / r1 - dx / r2,
                             0.0, -dy / r2, 0.0, dx / r2}; /* (∂θ1/∂q, ∂θ2/∂q) as columns */
    memcpy(b->B, B, sizeof B);
    const double th[K] = {atan2(q[1], q[0]), atan2(dy, dx) - atan2(q[1], q[0])};
    if (!ok(nsm_gemv(NSM_TRANS, N, K, 1.0, b->B, qd, 0.0, thd), "nsm_gemv(B^T q')")) {
        return -1;
    }
    tau[0] = a->g * (a->m1 * q[0] + a->m2 * q[2]) - a->kp * (th[0] - thstar[0]) -
             a->kd * thd[0];
    tau[1] = a->g * a->m2 * dx - a->kp * (th[1] - thstar[1]) - a->kd * thd[1];
    if (!ok(nsm_gemv(NSM_NO_TRANS, N, K, 1.0, b->B, tau, 0.0, b->f), "nsm_gemv(B tau)")) {
        return -1;
    }
    /* 3. the per-cycle call: q̈ = M̄⁻¹P(f + h − MΛq̇) + Λq̇ (docs/math.md (P12); [D] eq. 27,
          corrected), f_c = −S(f + h − MΩq̇) ((P13); [D] eq. 29), info (rank r, μ), P and M̄ */
    const nsm_proj_opts opts = NSM_PROJ_OPTS_DEFAULT;
    const nsm_proj_problem prob = {N, m, b->M, b->C, b->A, b->Ad, b->f, b->fg, qd};
    const nsm_proj_problem prob_free = {N, M_FREE, b->M, b->C, b->A, b->Ad, b->f, b->fg, qd};
    nsm_proj_dynamics_result dyn = {b->qdd, b->fc, b->Pd, b->Mbar, {0, 0.0}};
    nsm_proj_dynamics_result dyn_free = {b->qdd_free, NULL, NULL, NULL, {0, 0.0}};
    if (!ok(nsm_proj_dynamics(&prob, &opts, &dyn, w, lw), "nsm_proj_dynamics") ||
        /* in contact: the free arm (link rows only) under the same f; would the wall pull? */
        (contact && !ok(nsm_proj_dynamics(&prob_free, &opts, &dyn_free, w, lw),
                        "nsm_proj_dynamics(free)"))) {
        return -1;
    }
    b->info = dyn.info;
    /* 4. drift: A q̇, and f_c against the KKT force M q̈ − f − f_g + C q̇ */
    double Aq[M_MAX], kkt[N];
    if (!ok(nsm_gemv(NSM_NO_TRANS, m, N, 1.0, b->A, qd, 0.0, Aq), "nsm_gemv(A q')") ||
        !ok(nsm_gemv(NSM_NO_TRANS, N, N, 1.0, b->M, b->qdd, 0.0, kkt), "nsm_gemv(M qdd)") ||
        !ok(nsm_gemv(NSM_NO_TRANS, N, N, 1.0, b->C, qd, 1.0, kkt), "nsm_gemv(C q')")) {
        return -1;
    }
    b->Aqd = b->gap = 0.0;
    for (size_t i = 0; i < m; i++) {
        b->Aqd = fmax(b->Aqd, fabs(Aq[i]));
    }
    for (int i = 0; i < N; i++) {
        b->gap = fmax(b->gap, fabs(b->fc[i] - (kkt[i] - b->f[i] - b->fg[i])));
        for (int j = 0; j < N; j++) {
            rs->max_Pdiff = fmax(rs->max_Pdiff, fabs(b->P[i * N + j] - b->Pd[i * N + j]));
            b->Qd[i * N + j] = (i == j) - b->Pd[i * N + j]; /* Q = I − P */
        }
    }
    rs->max_Aqd = fmax(rs->max_Aqd, b->Aqd);
    rs->max_gap = fmax(rs->max_gap, b->gap);
    /* 5. residuals of the identities at this cycle's P and M̄ (check module): S ((P11), (P14);
          [D] eqs. 28, 30), Λ and Ṗ ((P3), (P4)), C̄ ((P8); [D] eq. 8c) for the skew-symmetry of
          dM̄/dt − 2C̄ ((P10); [D] eq. 10) */
    double r[NRES];
    int is_pd = 0;
    nsm_proj_rates_result rates = {b->Lambda, b->Pdot};
    const nsm_check_skew_input skew = {b->Pd, b->Pdot, b->M, b->Mdot, b->Cbar, b->info.mu};
    if (!ok(nsm_proj_oblique(N, b->M, b->Mbar, b->Pd, b->S, w, lw), "nsm_proj_oblique") ||
        !ok(nsm_proj_rates(N, m, b->Apinv, b->Ad, b->Pd, &rates, w, lw), "nsm_proj_rates") ||
        !ok(nsm_proj_cbar(&prob, b->Pd, b->Lambda, b->info.mu, b->Cbar, w, lw),
            "nsm_proj_cbar") ||
        !ok(nsm_check_idempotent(N, b->Pd, &r[0]), "nsm_check_idempotent(P)") ||
        !ok(nsm_check_symmetry(N, b->Pd, &r[1]), "nsm_check_symmetry(P)") ||
        !ok(nsm_check_idempotent(N, b->S, &r[2]), "nsm_check_idempotent(S)") ||
        !ok(nsm_check_qs(N, b->Qd, b->S, &r[3]), "nsm_check_qs") ||
        !ok(nsm_check_sq(N, b->S, b->Qd, &r[4]), "nsm_check_sq") ||
        !ok(nsm_check_plambda(N, b->Pd, b->Lambda, &r[5]), "nsm_check_plambda") ||
        !ok(nsm_check_skew(N, &skew, &r[6], w, lw), "nsm_check_skew") ||
        !ok(nsm_check_pd(N, b->Mbar, &is_pd, w, lw), "nsm_check_pd")) {
        return -1;
    }
    for (int i = 0; i < NRES; i++) {
        rs->res[i] = fmax(rs->res[i], r[i]);
    }
    rs->pd_fail += !is_pd;
    return 0;
}

/* The scenario; project_always: q̇ ← P q̇ every cycle, else only at the switches. */
static int run(const arm_model *a, int project_always, const char *csv_path, cycle_buf *b,
               run_stats *rs)
{
    double thstar[K] = {0.2, -0.3};     /* target θ* (rad): tip behind the wall */
    const double away[K] = {-1.2, 0.5}; /* from t = 1.5 s: away from the wall */
    double q[N] = {a->L1 * cos(-1.0), a->L1 * sin(-1.0), 0.0, 0.0}, qd[N] = {0.0};
    q[2] = q[0] + a->L2 * cos(-0.5); /* from rest at θ = (−1, 0.5) */
    q[3] = q[1] + a->L2 * sin(-0.5);
    int contact = 0, switched = 0;
    memset(rs, 0, sizeof *rs);
    FILE *csv = fopen(csv_path, "w");
    if (csv == NULL) {
        perror(csv_path);
        return -1;
    }
    fprintf(csv, "t,x_tip,y_tip,rows,rank,mu,Aqd,fc_gap\n");
    for (int k = 0; k < STEPS; k++) {
        if (k == STEPS / 2) {
            memcpy(thstar, away, sizeof away);
        }
        if (cycle(a, contact, project_always || switched, q, qd, thstar, b, rs) != 0) {
            fclose(csv);
            return -1;
        }
        if (switched || k == STEPS / 3) {
            printf("  t = %.3f s: %-12s m = %d, rank r = %zu, mu = %.4f kg, qdd = (%.3f, %.3f, "
                   "%.3f, %.3f) m/s^2, f_c = (%.3f, %.3f, %.3f, %.3f) N\n", k * H,
                   switched ? (contact ? "contact on," : "contact off,") :
                              (contact ? "in contact," : "free,"),
                   contact ? M_MAX : M_FREE, b->info.rank, b->info.mu, b->qdd[0], b->qdd[1],
                   b->qdd[2], b->qdd[3], b->fc[0], b->fc[1], b->fc[2], b->fc[3]);
        }
        if (k % 10 == 0) {
            fprintf(csv, "%.3f,%.9f,%.9f,%d,%zu,%.6f,%.3e,%.3e\n", k * H, q[2], q[3],
                    contact ? M_MAX : M_FREE, b->info.rank, b->info.mu, b->Aqd, b->gap);
        }
        for (int i = 0; i < N; i++) { /* semi-implicit Euler, fixed step */
            qd[i] += H * b->qdd[i];
            q[i] += H * qd[i];
        }
        rs->max_len = fmax(rs->max_len, fmax(fabs(hypot(q[0], q[1]) - a->L1),
                                             fabs(hypot(q[2] - q[0], q[3] - q[1]) - a->L2)));
        switched = 0; /* switches take effect at the next cycle */
        if (!contact && q[2] >= a->wall && qd[2] > 0.0) {
            contact = switched = 1;
            rs->max_pen = fmax(rs->max_pen, q[2] - a->wall);
        } else if (contact && b->qdd_free[2] < 0.0) {
            contact = 0;
            switched = 1;
        }
        rs->switches += switched;
    }
    fclose(csv);
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[1024];
    const arm_model arm = {1.0, 0.8, 1.0, 0.5, 9.81, 1.4, 30.0, 6.0};
    cycle_buf buf = {0};
    run_stats proj = {0}, noproj = {0};

    buf.lwork = workspace_size(); /* queried once, allocated once */
    buf.work = buf.lwork > 0 ? malloc(buf.lwork * sizeof *buf.work) : NULL;
    if (buf.work == NULL) {
        fprintf(stderr, "arm_cycle: no workspace (query %zu doubles)\n", buf.lwork);
        return 1;
    }
    printf("arm_cycle: n = %d, k = %d, m = %d (free) / %d (wall) rows, h = %g s, %d cycles, "
           "workspace %zu doubles (allocated once)\n", N, K, M_FREE, M_MAX, H, STEPS, buf.lwork);
    printf(" run 1 (arm_cycle.csv), q' <- P q' every cycle:\n");
    snprintf(path, sizeof path, "%s/arm_cycle.csv", dir);
    int rc = run(&arm, 1, path, &buf, &proj);
    if (rc == 0) {
        printf(" run 2 (arm_cycle_noproj.csv), q' <- P q' only at the switches:\n");
        snprintf(path, sizeof path, "%s/arm_cycle_noproj.csv", dir);
        rc = run(&arm, 0, path, &buf, &noproj);
    }
    /* the error path, once: the last state with one double less than the query */
    const double rest[N] = {0.0};
    const nsm_proj_problem probe = {N, M_FREE, buf.M, buf.C, buf.A, buf.Ad, buf.f, buf.fg, rest};
    nsm_proj_dynamics_result probe_res = {buf.qdd, NULL, NULL, NULL, {0, 0.0}};
    nsm_status st = rc != 0 ? NSM_OK :
        nsm_proj_dynamics(&probe, NULL, &probe_res, buf.work,
                          nsm_proj_dynamics_work(N, M_FREE) - 1);
    free(buf.work);
    if (rc != 0) {
        return 1;
    }
    snprintf(path, sizeof path, "%s/arm_cycle.gp", dir);
    FILE *gp = fopen(path, "w");
    if (gp == NULL) {
        perror(path);
        return 1;
    }
    fprintf(gp, "set terminal pngcairo noenhanced size 900,700\nset output 'arm_cycle.png'\n"
                "set datafile separator ','\nset multiplot layout 2,1\nset ylabel 'tip x (m)'\n"
                "plot 'arm_cycle.csv' every ::1 u 1:2 w l lw 2 t 'tip x', %.2f dt 2 t 'wall'\n"
                "set logscale y\nset format y '%%.0e'\nset xlabel 't (s)'\nset ylabel 'drift'\n"
                "set key center right\nplot for [f in 'arm_cycle.csv arm_cycle_noproj.csv'] f "
                "every ::1 u 1:7 w l lw 2 t '|A qdot| (m/s), '.f, for [f in 'arm_cycle.csv "
                "arm_cycle_noproj.csv'] f every ::1 u 1:8 w l t 'f_c gap (N), '.f\n"
                "unset multiplot\n", arm.wall);
    fclose(gp);

    printf(" error path: nsm_proj_dynamics with lwork = nsm_proj_dynamics_work(4, 2) - 1 "
           "returns %d: %s\n residuals of run 1, largest over all cycles:\n", (int)st,
           nsm_status_str(st));
    double worst = 0.0;
    for (int i = 0; i < NRES; i++) {
        printf("   %-26s %.3e\n", res_name[i], proj.res[i]);
        worst = fmax(worst, proj.res[i]);
    }
    printf("   Mbar positive definite at every cycle: %s; max |P(projector) - P(dynamics)| = "
           "%.1e\n drift at the call (largest over the run):\n"
           "   every cycle:   |A q'| = %.3e m/s, |f_c - (M qdd - f - f_g + C q')| = %.3e N\n"
           "   switches only: |A q'| = %.3e m/s, |f_c - (M qdd - f - f_g + C q')| = %.3e N\n"
           "   not corrected by P (positions): link-length error %.2e m (every cycle), %.2e m "
           "(switches only); wall penetration at contact %.2e m\n",
           proj.pd_fail == 0 ? "yes" : "NO", proj.max_Pdiff, proj.max_Aqd, proj.max_gap,
           noproj.max_Aqd, noproj.max_gap, proj.max_len, noproj.max_len, proj.max_pen);
    int good = st == NSM_ERR_WORKSPACE && proj.switches == 2 && noproj.switches == 2 &&
               proj.pd_fail == 0 && worst < 1e-10 && proj.max_gap < 1e-9 &&
               noproj.max_gap > 1e3 * proj.max_gap;
    printf("DEMO arm_cycle | %s | switches=%d max_residual=%.1e |Aq'|=%.1e/%.1e "
           "f_c_gap=%.1e/%.1e N (every cycle/switches only) | arm_cycle.png\n",
           good ? "ok" : "FAILED", proj.switches, worst, proj.max_Aqd, noproj.max_Aqd,
           proj.max_gap, noproj.max_gap);
    return good ? 0 : 1;
}
