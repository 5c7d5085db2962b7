/*
 * Checks the README's real-time claim with the BLAS a default Debian install links: "no call
 * allocates or wakes a thread with Debian's default (threaded) OpenBLAS". Run it with
 * OPENBLAS_NUM_THREADS unset (make realtime does), so that OpenBLAS starts a worker per core.
 *
 * For each case, N calls of one library function at robot size; the check fails when
 *  - a call allocates (malloc, calloc or realloc from any thread, counted by interposition:
 *    tests/support/alloc_count.h), or
 *  - another thread of the process uses CPU time while the calls run: the process's CPU time
 *    (CLOCK_PROCESS_CPUTIME_ID, every thread) less the calling thread's
 *    (CLOCK_THREAD_CPUTIME_ID). OpenBLAS's workers spin for a while after each job handed to
 *    them, then sleep; a call that hands them work (threaded dsymv or dsyr2k do, even at
 *    n = 30) makes them spin, about the length of the call or more. Before each case the
 *    program waits until the workers have been idle for 0.2 s, so a quiet loop reads 0.
 * Cases: nsm_proj_projector and nsm_proj_dynamics at (n, m) = (30, 12) (tests/support/
 * proj_data.h), nsm_proj_dynamics with P and M̄ requested, and nsm_impact_solve on the box in
 * the floor–wall corner (sequential, simultaneous, Moreau). Prints one line per case and
 * "realtime: K cases, 0 allocations, no work for other threads (OpenBLAS threads T)". With one BLAS
 * thread (a serial OpenBLAS, one core) the worker test is vacuous, and the line says so.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cblas.h>
#include "nsmech.h"
#include "alloc_count.h"
#include "proj_data.h"
#include "box_corner.h"

#define CALLS 3000u
/* Worker CPU allowed over a whole case, in µs: the clocks' granularity, far below one
   hand-off per call (a spinning worker costs about a call's length each time). */
#define WORKER_US_MAX 200.0

static double cpu_us(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

/* CPU time of the process's other threads, µs. */
static double others_us(void)
{
    double self = cpu_us(CLOCK_THREAD_CPUTIME_ID);
    return cpu_us(CLOCK_PROCESS_CPUTIME_ID) - self;
}

/* Waits until the other threads have used no CPU (< 20 µs, the reads' own cost) for 0.2 s (at
   most 5 s); 0 when they have. */
static int wait_quiet(void)
{
    const struct timespec pause = {0, 200000000L};
    for (int i = 0; i < 25; i++) {
        double before = others_us();
        nanosleep(&pause, NULL);
        if (others_us() - before < 20.0) {
            return 0;
        }
    }
    return 1;
}

typedef int (*one_call)(void *ctx);

typedef struct {
    proj_data d;
    nsm_proj_problem prob;
    nsm_proj_dynamics_result res;
    nsm_proj_projector_result pres;
    double *work;
    size_t lwork;
} proj_case;

static int call_projector(void *ctx)
{
    proj_case *c = ctx;
    return nsm_proj_projector(c->d.n, c->d.m, c->d.A, NSM_RANK_RTOL_DEFAULT, &c->pres, c->work,
                              c->lwork) != NSM_OK;
}

static int call_dynamics(void *ctx)
{
    proj_case *c = ctx;
    return nsm_proj_dynamics(&c->prob, NULL, &c->res, c->work, c->lwork) != NSM_OK;
}

typedef struct {
    double M[9], Jn[6], Jt[6], mu[2], vm[3], vp[3], L[4], ratios[2];
    size_t order[2];
    nsm_impact_policy pol;
    double work[4096];
} boxwall_case;

static int call_impact(void *ctx)
{
    boxwall_case *c = ctx;
    const nsm_contact_problem prob = {3, 2, 1, c->M, c->Jn, c->Jt, c->mu, c->vm};
    nsm_impact_result res = {.v_plus = c->vp, .Lambda = c->L};
    return nsm_impact_solve(&prob, &c->pol, NULL, &res, c->work, nsm_impact_work(3, 2)) !=
           NSM_OK;
}

/* Runs one case; returns the number of failed conditions (0, 1 or 2). */
static int run_case(const char *name, one_call fn, void *ctx, int threads)
{
    if (fn(ctx) != 0) { /* the first call outside the count: a failing call is a defect */
        printf("realtime: %s: the call failed\n", name);
        return 1;
    }
    if (threads > 1 && wait_quiet() != 0) {
        printf("realtime: %s: OpenBLAS's threads never went quiet\n", name);
        return 1;
    }
    int bad = 0;
    double w0 = others_us();
    alloc_calls = 0;
    counting = 1;
    for (unsigned i = 0; i < CALLS; i++) {
        bad |= fn(ctx);
    }
    counting = 0;
    double worker = others_us() - w0;
    unsigned long allocs = alloc_calls;
    int fails = (bad != 0) + (allocs != 0) + (worker > WORKER_US_MAX);
    printf("realtime: %-28s %u calls, %lu allocations, %.0f us worker-thread CPU%s\n", name,
           CALLS, allocs, worker, fails ? "  FAILED" : "");
    return fails;
}

int main(void)
{
    int threads = openblas_get_num_threads();
    int fails = 0, cases = 0;

    static proj_case pc;
    proj_data_setup(&pc.d, 30, 12, 0);
    size_t n = pc.d.n, m = pc.d.m;
    pc.prob = proj_data_problem(&pc.d);
    double *buf = malloc((4 * n + 3 * n * n + n * m) * sizeof(double));
    pc.lwork = nsm_proj_dynamics_work(n, m) > nsm_proj_projector_work(n, m)
                   ? nsm_proj_dynamics_work(n, m)
                   : nsm_proj_projector_work(n, m);
    pc.work = malloc(pc.lwork * sizeof(double));
    if (buf == NULL || pc.work == NULL) {
        printf("realtime: out of memory\n");
        return 1;
    }
    nsm_proj_projector_result pres = {0, buf + 4 * n, buf + 4 * n + n * n,
                                      buf + 4 * n + 3 * n * n};
    pc.pres = pres;
    nsm_proj_dynamics_result r0 = {buf, buf + n, NULL, NULL, {0, 0.0}};
    pc.res = r0;
    fails += run_case("proj_projector_n30", call_projector, &pc, threads);
    fails += run_case("proj_dynamics_n30", call_dynamics, &pc, threads);
    pc.res.P = buf + 4 * n;
    pc.res.Mbar = buf + 4 * n + n * n;
    fails += run_case("proj_dynamics_n30_mbar", call_dynamics, &pc, threads);
    cases += 3;

    static boxwall_case bc;
    box_corner_problem(bc.M, bc.Jn, bc.Jt, bc.mu, bc.vm);
    bc.order[0] = 1;
    bc.order[1] = 0;
    bc.ratios[0] = bc.ratios[1] = 1.0;
    if (nsm_impact_work(3, 2) > sizeof bc.work / sizeof bc.work[0]) {
        printf("realtime: the impact workspace is too small\n");
        return 1;
    }
    const nsm_impact_policy pols[3] = {
        {NSM_POLICY_SEQUENTIAL, bc.order, NULL, 0, 0, NULL, NULL, NULL},
        {NSM_POLICY_SIMULTANEOUS, NULL, bc.ratios, 0, 0, NULL, NULL, NULL},
        {NSM_POLICY_MOREAU, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    const char *names[3] = {"boxwall_impact", "boxwall_impact_simultaneous",
                            "boxwall_impact_moreau"};
    for (int i = 0; i < 3; i++) {
        bc.pol = pols[i];
        fails += run_case(names[i], call_impact, &bc, threads);
        cases++;
    }

    proj_data_free(&pc.d);
    free(pc.work);
    free(buf);
    if (fails != 0) {
        printf("realtime: %d of %d cases failed (OpenBLAS threads %d)\n", fails, cases, threads);
        return 1;
    }
    printf("realtime: %d cases, 0 allocations, no work for other threads (OpenBLAS threads %d%s)"
           "\n", cases, threads, threads > 1 ? "" : ": one thread, the worker test is vacuous");
    return 0;
}
