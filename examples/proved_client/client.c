/*
 * examples/proved_client/client.c — one control cycle of a planar 3-dof arm whose tip slides
 * along a vertical wall (n = 3 joints, m = 1 contact constraint: the tip's x-velocity is 0),
 * written the way a user writes it against the INSTALLED nsmech headers, and proved with
 * Frama-C/WP free of run-time errors and to meet every nsmech precondition
 * (docs/proving-clients.md; `make proved-client` proves, builds and runs it):
 *
 *   frama-c -wp -wp-rte -wp-model=real -wp-prover=cvc4,z3 -wp-timeout=60 -pp-annot \
 *       -cpp-extra-args="$(pkg-config --cflags nsmech)" \
 *       -kernel-warn-key=parser:decimal-float=inactive -wp-no-let client.c
 *
 *   cc -std=c11 $(pkg-config --cflags nsmech) client.c $(pkg-config --libs --static nsmech)
 *
 * The model data below (M, C, A, Ȧ, f_g at q = (0.5, 0.7, −0.6) rad, q̇ = (0.193, −0.344,
 * 0.263) rad/s; links 0.40/0.35/0.20 m, point masses 2.0/1.5/0.8 kg at the link ends) would
 * come from the robot's model code in a real controller; nsmech validates it at run time
 * (finite, M symmetric and positive definite) and reports a status instead of failing.
 */
#include <stdio.h>
#include <nsmech.h>

#define N 3        /* generalized coordinates (joint angles) */
#define MC 1       /* constraint rows: the tip's x-velocity is zero */
#define LWORK 128  /* workspace (doubles); checked against nsm_proj_dynamics_work(N, MC) */

/* Control period (s). */
#define DT 0.001

/* Model of this cycle, row-major. */
static double M[N * N] = {
    1.71410649, 0.716147040, 0.141899061,
    0.716147040, 0.406187589, 0.0782187944,
    0.141899061, 0.0782187944, 0.032
};
static double C[N * N] = {
    0.0503346787, -0.0351962948, 0.0126153199,
    0.0950169671, 0.00948599355, 0.0158099893,
    -0.00376826024, -0.00632399570, 0.0
};
static double A[MC * N] = { -0.630912390, -0.439142175, -0.112928495 };
static double Adot[MC * N] = { -0.248311814, -0.107898604, -0.0825335615 };
static double fg[N] = { -18.9646302, -4.15700409, -1.29544678 };

/* State and actuation. */
static double q[N] = { 0.5, 0.7, -0.6 };
static double qd[N] = { 0.192623699, -0.344342830, 0.262881227 };
static double f[N] = { 18.5, 4.0, 1.2 };

/* Results of the cycle and the workspace: static, nothing allocates. */
static double qdd[N];
static double fc[N];
static double P[N * N];
static nsm_proj_info info;
static double sym_res = -1.0;
static double work[LWORK];

/*@ // Glue between the two contracts used in control_cycle: nsm_sym (projection.h) indexes
    // entries through nsm_ix(n, a, b), chk_sym_res (check.h) through a*n + b, and provers
    // instantiate a quantifier only on terms already present. So: nsm_sym gives the three
    // off-diagonal pairs of a 3×3 matrix spelled with nsm_ix; those give every entry of
    // X − Xᵀ as chk_sym_res; and a max-abs entry of X − Xᵀ is then 0.
    predicate sym_null{L}(double *X, integer n) =
        \forall integer i, j; 0 <= i < n && 0 <= j < n ==> chk_sym_res{L}(X, n, i, j) == 0.0;
    lemma sym3_pairs{L}: \forall double *X; nsm_sym{L}(X, 3) ==>
        X[nsm_ix(3, 0, 1)] == X[nsm_ix(3, 1, 0)] && X[nsm_ix(3, 0, 2)] == X[nsm_ix(3, 2, 0)] &&
        X[nsm_ix(3, 1, 2)] == X[nsm_ix(3, 2, 1)];
    lemma sym3_null{L}: \forall double *X; nsm_sym{L}(X, 3) ==> sym_null{L}(X, 3);
    lemma sym_max_zero{L}: \forall double *X, integer n, real r;
        sym_null{L}(X, n) && chk_sym_max{L}(r, X, n) ==> r == 0.0;
 */

/*
 * One cycle: q̈ and the contact force f_c from nsmech, then a semi-implicit Euler step of
 * (q, q̇). On any error (q, q̇) are left as they were and the status is returned (the caller
 * decides: hold, brake, ...). On success sym_res = max |P_ij − P_ji| of the projector, a
 * run-time monitor that the contracts prove to be 0 (in the real model of the proof; at run
 * time it is exactly 0 as well: P is written symmetrically, entry by entry, and
 * nsm_check_symmetry rejects non-finite entries).
 */
/*@ assigns qdd[0 .. N - 1], fc[0 .. N - 1], P[0 .. N*N - 1], info, work[0 .. LWORK - 1],
            sym_res, q[0 .. N - 1], qd[0 .. N - 1];
    ensures info: \result == NSM_OK ==> info.rank <= MC && info.mu > 0;
    ensures symmetric: \result == NSM_OK ==> sym_res == 0.0;
 */
static nsm_status control_cycle(void)
{
    /* The workspace is sized by a compile-time constant; the query says whether it suffices. */
    size_t need = nsm_proj_dynamics_work(N, MC);
    if (need == 0u || need > LWORK) {
        return NSM_ERR_WORKSPACE;
    }
    nsm_proj_opts opts = NSM_PROJ_OPTS_DEFAULT;
    /* The model data and the outputs of the cycle, field by field (the prover then reads each
       field as the value stored). */
    nsm_proj_problem prob;
    prob.n = N;
    prob.m = MC;
    prob.M = M;
    prob.C = C;
    prob.A = A;
    prob.Adot = Adot;
    prob.f = f;
    prob.fg = fg;
    prob.qd = qd;
    nsm_proj_dynamics_result res;
    res.qdd = qdd;
    res.fc = fc;
    res.P = P;
    res.Mbar = NULL;
    /* The size of the n×n arrays as a number: the provers then check nsm_proj_problem_valid
       (a product of two fields) entry by entry. */
    /*@ assert nn: prob.n * prob.n == 9; */
    nsm_status st = nsm_proj_dynamics(&prob, &opts, &res, work, LWORK);
    if (st != NSM_OK) {
        return st;
    }
    info = res.info;
    /* sym_P of nsm_proj_dynamics (it holds here: no M̄ is requested) gives nsm_sym(P, N);
       max_abs of nsm_check_symmetry then gives 0. */
    /*@ assert P_sym: sym_null(&P[0], N); */
    st = nsm_check_symmetry(N, P, &sym_res);
    if (st != NSM_OK) {
        return st;
    }
    /*@ assert res_zero: sym_res == 0.0; */
    /* Semi-implicit Euler step with the computed acceleration. */
    /*@ loop invariant 0 <= i <= N;
        loop assigns i, q[0 .. N - 1], qd[0 .. N - 1];
        loop variant N - i;
     */
    for (size_t i = 0; i < N; i++) {
        qd[i] = qd[i] + DT * qdd[i];
        q[i] = q[i] + DT * qd[i];
    }
    return NSM_OK;
}

/* Output is not part of the proof: Frama-C's libc specifies printf with
   valid_read_string(format), which WP does not discharge for string literals. */
#ifndef __FRAMAC__
static void report(nsm_status st)
{
    if (st != NSM_OK) {
        printf("control cycle failed: %s\n", nsm_status_str(st));
        return;
    }
    printf("rank(A) %u  mu %.6g  max|P - P^T| %g\n", (unsigned)info.rank, info.mu, sym_res);
    for (size_t i = 0; i < N; i++) {
        printf("joint %u: qdd %+9.5f rad/s^2  f_c %+8.5f N m  ->  q %+.6f  qd %+.6f\n",
               (unsigned)i, qdd[i], fc[i], q[i], qd[i]);
    }
}
#endif

/*@ assigns qdd[0 .. N - 1], fc[0 .. N - 1], P[0 .. N*N - 1], info, work[0 .. LWORK - 1],
            sym_res, q[0 .. N - 1], qd[0 .. N - 1];
 */
int main(void)
{
    nsm_status st = control_cycle();
#ifndef __FRAMAC__
    report(st);
#endif
    return st == NSM_OK ? 0 : 1;
}
