/*
 * Worst-case latency per call (issue 44): each call timed on its own with
 * clock_gettime(CLOCK_MONOTONIC), after 10^4 warm-up calls; the samples sorted (qsort) give the
 * median, p99.9 (nearest rank) and max, in µs. Nothing is asserted.
 * - empty_call: a call that does nothing: the timer's cost and the machine's own interruptions
 *   (preemption, interrupts), which bound what the tails below can show.
 * - proj_dynamics_n30: nsm_proj_dynamics at (n, m) = (30, 12), NSM_PROJ_OPTS_DEFAULT, q̈ and f_c
 *   (the data of bench_projection.c, bench/proj_data.h); proj_dynamics_n30_mbar: the same call
 *   with P and M̄ requested too (the rank-2r update of src/projection/lowrank.c).
 * - kkt_dsysv_n30: what a user would write instead, in the same run: the KKT system formed and
 *   solved with LAPACK dsysv (workspace preallocated), as in bench_projection.c.
 * - boxwall_impact: nsm_impact_solve on the box moving into the floor–wall corner
 *   (tests/support/box_corner.h), the sequential order (1, 0) of
 *   examples/problems/impact_box_wall_sequential.json, NSM_IMPACT_OPTS_DEFAULT (2000 steps);
 *   boxwall_impact_simultaneous: ratios (1, 1); boxwall_impact_moreau: NSM_POLICY_MOREAU.
 * - boxwall_moreau_oracle: Moreau's impulse for the same impact (the answer a time-stepping
 *   simulator gives) by the test oracle of tests/support/moreau_oracle.c (mode enumeration,
 *   LAPACKE_dgesvd, which allocates): a reference, not a tuned solver.
 * CPU time: the same calls timed also by CLOCK_THREAD_CPUTIME_ID (the calling thread's CPU
 *   time, read around the CLOCK_MONOTONIC pair: `_cpu_` lines): what the call costs without the
 *   time the thread was preempted or waited, so that a shared machine's scheduling (a time
 *   slice of milliseconds) can be told from the library's own tail.
 * Calls: 10^6 each, 10^5 for the two Moreau lines (LATENCY_CALLS=N sets N and N/10), cut so
 * that one loop takes about 60 s at most (a first 2000 calls give the estimate); every loop
 * prints its count (`_calls`).
 * Allocations: malloc/calloc/realloc calls during each timed loop, from any thread (`_allocs`).
 * Other threads: CPU time the process's other threads (OpenBLAS's workers) used during the
 *   loop, per call (`_worker_cpu_us`): 0 when no call hands work to them.
 * BLAS threading: the first pass runs with the environment it is given (make exports
 * OPENBLAS_NUM_THREADS=1); when that variable is set, the program then runs itself again with
 * it unset (Debian's default threaded OpenBLAS: a thread per core), lines prefixed
 * `latency_threaded_`. Each pass prints openblas_get_num_threads() (`_blas_threads`).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cblas.h>
#include <lapacke.h>
#include "nsmech.h"
#include "alloc_count.h"
#include "proj_data.h"
#include "box_corner.h"
#include "moreau_oracle.h"

#define MAX_CALLS 1000000u
#define WARMUP 10000u
#define PROBE 2000u
#define LOOP_SECONDS 60.0

static double samples[MAX_CALLS], cpu_samples[MAX_CALLS];

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double clock_us(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

static double now_us(void)
{
    return clock_us(CLOCK_MONOTONIC);
}

/* Prints the `prefix name_<tag>median_us`, _p999_us and _max_us lines of x (sorted here). */
static void print_quantiles(const char *prefix, const char *name, const char *tag, double *x,
                            size_t calls)
{
    qsort(x, calls, sizeof x[0], cmp_double);
    size_t k999 = (calls * 999u + 999u) / 1000u - 1u; /* nearest rank: ceil(0.999 N) - 1 */
    printf("%s%s_%smedian_us %.2f\n", prefix, name, tag, x[calls / 2]);
    printf("%s%s_%sp999_us %.2f\n", prefix, name, tag, x[k999]);
    printf("%s%s_%smax_us %.2f\n", prefix, name, tag, x[calls - 1]);
}

typedef int (*one_call)(void *ctx); /* one call; nonzero on an error */

/* Times `calls` calls of fn one by one (fewer when they would take over LOOP_SECONDS) and
   prints the `prefix name_*` lines; returns nonzero when a call failed. */
static int measure(const char *prefix, const char *name, one_call fn, void *ctx, size_t calls)
{
    calls = calls < 1u ? 1u : calls < MAX_CALLS ? calls : MAX_CALLS;
    int bad = 0;
    for (size_t i = 0; i < WARMUP; i++) {
        bad |= fn(ctx);
    }
    double t0 = now_us();
    for (size_t i = 0; i < PROBE; i++) {
        bad |= fn(ctx);
    }
    double per_call = (now_us() - t0) / PROBE;
    if (per_call * (double)calls > 1e6 * LOOP_SECONDS) {
        calls = (size_t)(1e6 * LOOP_SECONDS / per_call) / 1000u * 1000u;
        calls = calls > PROBE ? calls : PROBE;
    }
    double self0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
    double others0 = clock_us(CLOCK_PROCESS_CPUTIME_ID) - self0;
    alloc_calls = 0;
    counting = 1;
    for (size_t i = 0; i < calls; i++) {
        double c = clock_us(CLOCK_THREAD_CPUTIME_ID);
        double a = now_us();
        bad |= fn(ctx);
        double b = now_us();
        samples[i] = b - a;
        cpu_samples[i] = clock_us(CLOCK_THREAD_CPUTIME_ID) - c;
    }
    counting = 0;
    unsigned long allocs = alloc_calls;
    double self1 = clock_us(CLOCK_THREAD_CPUTIME_ID);
    double others = clock_us(CLOCK_PROCESS_CPUTIME_ID) - self1 - others0;
    printf("%s%s_calls %zu\n", prefix, name, calls);
    print_quantiles(prefix, name, "", samples, calls);
    print_quantiles(prefix, name, "cpu_", cpu_samples, calls);
    printf("%s%s_allocs %lu\n", prefix, name, allocs);
    printf("%s%s_worker_cpu_us %.3f\n", prefix, name, others > 0.0 ? others / (double)calls : 0.0);
    fflush(stdout);
    return bad;
}

/* An empty call: the floor of the timer and of the machine's interruptions. */
static int call_empty(void *ctx)
{
    return *(volatile int *)ctx;
}

/* ---- the projection dynamics at n = 30 and its KKT baseline ---------------------------- */
typedef struct {
    proj_data d;
    nsm_proj_problem prob;
    nsm_proj_opts opts;
    nsm_proj_dynamics_result res;
    double *work;
    size_t lwork;
    double *K, *rhs, *kwork;
    lapack_int *ipiv, lkwork;
} proj_case;

static int call_dynamics(void *ctx)
{
    proj_case *c = ctx;
    return nsm_proj_dynamics(&c->prob, &c->opts, &c->res, c->work, c->lwork) != NSM_OK;
}

static int call_kkt(void *ctx)
{
    proj_case *c = ctx;
    return proj_kkt_solve(&c->d, c->K, c->rhs, c->ipiv, c->kwork, c->lkwork);
}

/* ---- the box–wall impact and Moreau's impulse by the oracle ---------------------------- */
typedef struct {
    double M[9], Jn[6], Jt[6], mu[2], vm[3], vp[3], L[4], ratios[2];
    size_t order[2];
    nsm_impact_policy pol;
    nsm_impact_opts opts;
    double work[4096];
    moreau_result mr;
} boxwall_case;

static int call_impact(void *ctx)
{
    boxwall_case *c = ctx;
    const nsm_contact_problem prob = {3, 2, 1, c->M, c->Jn, c->Jt, c->mu, c->vm};
    nsm_impact_result res = {.v_plus = c->vp, .Lambda = c->L};
    return nsm_impact_solve(&prob, &c->pol, &c->opts, &res, c->work, nsm_impact_work(3, 2)) !=
           NSM_OK;
}

static int call_moreau(void *ctx)
{
    boxwall_case *c = ctx;
    return moreau_solve(3, 2, c->M, c->Jn, c->Jt, c->mu, c->vm, 1e-9, &c->mr) != 0;
}

/* Runs the program again with OPENBLAS_NUM_THREADS unset; returns its exit status. */
static int run_threaded(const char *self)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        unsetenv("OPENBLAS_NUM_THREADS");
        char *const args[] = {(char *)"bench_latency", (char *)"--threaded", NULL};
        execv(self, args);
        perror("bench_latency: execv");
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        return 1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
    int threaded = argc > 1 && strcmp(argv[1], "--threaded") == 0;
    const char *prefix = threaded ? "latency_threaded_" : "latency_";
    const char *env = getenv("LATENCY_CALLS");
    size_t calls = env != NULL && atol(env) > 0 ? (size_t)atol(env) : MAX_CALLS;
    const char *nt = getenv("OPENBLAS_NUM_THREADS");
    printf("latency per call (us): nsm_proj_dynamics n = 30 and the box-wall nsm_impact_solve, "
           "OPENBLAS_NUM_THREADS %s\n", nt != NULL ? nt : "unset");
    printf("%sblas_threads %d\n", prefix, openblas_get_num_threads());

    int zero = 0;
    int bad = measure(prefix, "empty_call", call_empty, &zero, calls);

    static proj_case pc;
    proj_data_setup(&pc.d, 30, 12, 0);
    pc.prob = proj_data_problem(&pc.d);
    nsm_proj_opts o = NSM_PROJ_OPTS_DEFAULT;
    pc.opts = o;
    size_t n = pc.d.n, s = pc.d.n + pc.d.m;
    double *qdd = malloc(n * sizeof(double)), *fc = malloc(n * sizeof(double));
    double *P = malloc(n * n * sizeof(double)), *Mbar = malloc(n * n * sizeof(double));
    nsm_proj_dynamics_result r0 = {qdd, fc, NULL, NULL, {0, 0.0}};
    pc.res = r0;
    pc.lwork = nsm_proj_dynamics_work(pc.d.n, pc.d.m);
    pc.work = malloc(pc.lwork * sizeof(double));
    pc.K = malloc(s * s * sizeof(double));
    pc.rhs = malloc(s * sizeof(double));
    pc.ipiv = malloc(s * sizeof(lapack_int));
    pc.lkwork = proj_kkt_lwork(s, pc.K, pc.rhs, pc.ipiv);
    pc.kwork = malloc((size_t)pc.lkwork * sizeof(double));

    bad |= measure(prefix, "proj_dynamics_n30", call_dynamics, &pc, calls);
    pc.res.P = P;
    pc.res.Mbar = Mbar;
    bad |= measure(prefix, "proj_dynamics_n30_mbar", call_dynamics, &pc, calls);
    bad |= measure(prefix, "kkt_dsysv_n30", call_kkt, &pc, calls);

    static boxwall_case bc;
    box_corner_problem(bc.M, bc.Jn, bc.Jt, bc.mu, bc.vm);
    bc.order[0] = 1;
    bc.order[1] = 0;
    bc.ratios[0] = bc.ratios[1] = 1.0;
    const nsm_impact_policy seq = {NSM_POLICY_SEQUENTIAL, bc.order, NULL, 0, 0, NULL, NULL, NULL};
    const nsm_impact_policy sim = {NSM_POLICY_SIMULTANEOUS, NULL, bc.ratios, 0, 0, NULL, NULL,
                                   NULL};
    const nsm_impact_policy mor = {NSM_POLICY_MOREAU, NULL, NULL, 0, 0, NULL, NULL, NULL};
    nsm_impact_opts io = NSM_IMPACT_OPTS_DEFAULT;
    bc.opts = io;
    if (nsm_impact_work(3, 2) > sizeof bc.work / sizeof bc.work[0]) {
        printf("bench_latency: the impact workspace is too small\n");
        return 1;
    }
    bc.pol = seq;
    bad |= measure(prefix, "boxwall_impact", call_impact, &bc, calls);
    bc.pol = sim;
    bad |= measure(prefix, "boxwall_impact_simultaneous", call_impact, &bc, calls);
    bc.pol = mor;
    bad |= measure(prefix, "boxwall_impact_moreau", call_impact, &bc, calls / 10u);
    bad |= measure(prefix, "boxwall_moreau_oracle", call_moreau, &bc, calls / 10u);

    proj_data_free(&pc.d);
    free(qdd);
    free(fc);
    free(P);
    free(Mbar);
    free(pc.work);
    free(pc.K);
    free(pc.rhs);
    free(pc.ipiv);
    free(pc.kwork);
    if (bad) {
        printf("bench_latency: a call returned an error\n");
        return 1;
    }
    if (!threaded && nt != NULL) {
        char self[4096];
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1u);
        if (len <= 0) {
            printf("bench_latency: /proc/self/exe unreadable, no threaded pass\n");
            return 1;
        }
        self[len] = '\0';
        return run_threaded(self);
    }
    return 0;
}
