/* Actuation Γ = (PB)⁺, R = BΓ (docs/math.md (P17)) and the regulation law (P19) = [D] eq. 21. */
#include "nsmech/projection.h"
#include "internal.h"
#include "../linalg/internal.h"
#include "../nsm_math.h"

size_t nsm_proj_actuation_work(size_t n, size_t k)
{
    if (!nsm_dim_ok(n) || !nsm_dim_ok(k)) {
        return 0;
    }
    size_t w = nsm_pinv_work(n, k);
    size_t own = 2u * n * k;
    return w + own;
}

/* 1 if Γ, R (lr entries, 0 when absent) and the workspace (need entries) overlap each other
   or the inputs P and B. Only addresses are compared. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && 1 <= k <= NSM_MAX_DIM;
    requires lens: (lr == 0 || lr == n*n) && need <= 16 * NSM_MAX_DIM * NSM_MAX_DIM;
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int act_alias(size_t n, size_t k, const double *P, const double *B, const double *Gamma,
                     const double *R, size_t lr, const double *work, size_t need)
{
    const size_t b = sizeof(double);
    const nsm_span out[3] = {{(uintptr_t)Gamma, n * k * b},
                             {(uintptr_t)R, lr * b},
                             {(uintptr_t)work, need * b}};
    const nsm_span in[2] = {{(uintptr_t)P, n * n * b}, {(uintptr_t)B, n * k * b}};
    return nsm_spans_overlap(3, out, 2, in);
}

/* The former entry point on the fields of nsm_proj_actuation's structures (its contract
   unchanged). */
/*@ requires valid_P: P == \null || \valid_read(P + (0 .. n*n - 1));
    requires valid_B: B == \null || \valid_read(B + (0 .. n*k - 1));
    requires valid_rank: rank_pb == \null || \valid(rank_pb);
    requires valid_G: Gamma == \null || \valid(Gamma + (0 .. k*n - 1));
    requires valid_R: R == \null || \valid(R + (0 .. n*n - 1));
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns *rank_pb, Gamma[0 .. k*n - 1], R[0 .. n*n - 1], work[0 .. lwork - 1];
    behavior null_arg:
      assumes P == \null || B == \null || rank_pb == \null || Gamma == \null || work == \null;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes P != \null && B != \null && rank_pb != \null && Gamma != \null && work != \null;
      assumes n == 0 || n > NSM_MAX_DIM || k == 0 || k > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes P != \null && B != \null && rank_pb != \null && Gamma != \null && work != \null;
      assumes 1 <= n <= NSM_MAX_DIM && 1 <= k <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_RANK ||
                      \result == NSM_ERR_NO_CONVERGENCE;
      ensures bad_args: (r > n || !(0 <= rtol < 1)) ==> \result == NSM_ERR_ARG;
      ensures solvable: \result == NSM_OK ==> *rank_pb == n - r;
      ensures unsolvable: \result == NSM_ERR_RANK ==> *rank_pb != n - r;
    complete behaviors;
    disjoint behaviors;
 */
static nsm_status actuation_core(size_t n, size_t k, size_t r, const double *P,
                                 const double *B, double rtol, size_t *rank_pb,
                                 double *Gamma, double *R, double *work, size_t lwork)
{
    if (P == NULL || B == NULL || rank_pb == NULL || Gamma == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n) || !nsm_dim_ok(k)) {
        return NSM_ERR_SIZE;
    }
    if (r > n || !nsm_proj_i_rtol_ok(rtol)) {
        return NSM_ERR_ARG;
    }
    size_t need = nsm_proj_actuation_work(n, k);
    if (need == 0u || lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    size_t nn = n * n;
    size_t nk = n * k;
    /*@ assert nk <= NSM_MAX_DIM * NSM_MAX_DIM; */
    size_t lr = R != NULL ? nn : 0u;
    if (act_alias(n, k, P, B, Gamma, R, lr, work, need)) {
        return NSM_ERR_ALIAS;
    }
    if (!nsm_all_finite(nn, P) || !nsm_all_finite(nk, B)) {
        return NSM_ERR_NOT_FINITE;
    }
    double *PB = work;
    double *G = work + nk;
    nsm_status st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, k, n, 1.0, P, B, 0.0, PB);
    if (st != NSM_OK) {
        return st;
    }
    size_t rk = 0;
    st = nsm_pinv(n, k, PB, rtol, &rk, G, G + nk, lwork - 2u * nk);
    if (st != NSM_OK) {
        return st;
    }
    *rank_pb = rk;
    if (rk != n - r) {
        return NSM_ERR_RANK;
    }
    if (R != NULL) {
        st = nsm_gemm(NSM_NO_TRANS, NSM_NO_TRANS, n, n, k, 1.0, B, G, 0.0, R);
        if (st != NSM_OK) {
            return st;
        }
    }
    nsm_vec_copy(nk, G, Gamma);
    return NSM_OK;
}

/* Null and size checks, the argument checks, the result structure apart from every array of
   the call, then the former entry point (nothing is written on an argument error). */
nsm_status nsm_proj_actuation(const nsm_proj_actuation_input *in,
                              nsm_proj_actuation_result *res, double *work, size_t lwork)
{
    if (in == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    size_t n = in->n;
    size_t k = in->k;
    if (in->P == NULL || in->B == NULL || res->Gamma == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n) || !nsm_dim_ok(k)) {
        return NSM_ERR_SIZE;
    }
    if (in->r > n || !nsm_proj_i_rtol_ok(in->rtol)) {
        return NSM_ERR_ARG;
    }
    const size_t b = sizeof(double);
    const nsm_span arrays[5] = {{(uintptr_t)res->Gamma, n * k * b},
                                {(uintptr_t)res->R, res->R != NULL ? n * n * b : 0u},
                                {(uintptr_t)in->P, n * n * b},
                                {(uintptr_t)in->B, n * k * b},
                                {(uintptr_t)work, NSM_PROJ_WORK_BYTES(lwork)}};
    if (nsm_proj_i_struct_hits((uintptr_t)res, sizeof *res, 5u, arrays)) {
        return NSM_ERR_ALIAS;
    }
    return actuation_core(n, k, in->r, in->P, in->B, in->rtol, &res->rank_pb, res->Gamma,
                          res->R, work, lwork);
}

size_t nsm_proj_control_work(size_t n)
{
    if (!nsm_dim_ok(n)) {
        return 0;
    }
    return 2u * n;
}

/* Gains and tolerances in their domain. */
/*@ requires valid: \valid_read(g);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures domain: \result == 1 ==> g->kp > 0 && g->kd > 0 &&
                                       (g->sigma > 1 || g->sigma == 0) &&
                                       g->vel_ztol >= 0 && g->xi_tol >= 0;
 */
static int nsm_proj_i_gains_ok(const nsm_proj_gains *g)
{
    double v[5] = {g->kp, g->kd, g->sigma, g->vel_ztol, g->xi_tol};
    if (!nsm_all_finite(5, v)) {
        return 0;
    }
    if (!(g->kp > 0.0) || !(g->kd > 0.0) || !(g->sigma > 1.0 || g->sigma == 0.0) ||
        !(g->vel_ztol >= 0.0) || !(g->xi_tol >= 0.0)) {
        return 0;
    }
    return 1;
}

/* Euclidean norm, scaled against overflow. */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid_read(x + (0 .. n - 1));
    assigns \nothing;
    ensures nonneg: \result >= 0;
 */
static double nsm_proj_i_norm2(size_t n, const double *x)
{
    double big = nsm_vec_absmax(n, x);
    if (!(big > 0.0)) {
        return 0.0;
    }
    double ss = 0.0;
    /*@ loop invariant 0 <= i <= n;
        loop invariant ss >= 0;
        loop assigns i, ss;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        double t = x[i] / big;
        ss += t * t;
    }
    return big * sqrt(ss);
}

/* 1 if ξ is a unit vector of N(A) within tol: |‖ξ‖ − 1| <= tol and ‖Pξ − ξ‖∞ <= tol. */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid_read(P + (0 .. n*n - 1)) && \valid_read(xi + (0 .. n - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int nsm_proj_i_xi_ok(size_t n, const double *P, const double *xi, double tol)
{
    double nr = nsm_proj_i_norm2(n, xi);
    if (!(fabs(nr - 1.0) <= tol)) {
        return 0;
    }
    /*@ loop invariant 0 <= i <= n;
        loop assigns i;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row_in: i*n + n <= n*n; */
        double acc = nsm_vec_dot(n, P + i * n, xi);
        if (!(fabs(acc - xi[i]) <= tol)) {
            return 0;
        }
    }
    return 1;
}

/* eta = the normalised column of P of largest norm (first one on ties); 0 if P = 0. */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid_read(P + (0 .. n*n - 1)) && \valid(eta + (0 .. n - 1));
    assigns eta[0 .. n - 1];
 */
static void nsm_proj_i_xi_from_p(size_t n, const double *P, double *eta)
{
    size_t best = 0;
    double bestn = 0.0;
    /*@ loop invariant 0 <= j <= n;
        loop invariant best < n;
        loop invariant bestn >= 0;
        loop assigns j, best, bestn;
        loop variant n - j;
     */
    for (size_t j = 0; j < n; j++) {
        double s = 0.0;
        /*@ loop invariant 0 <= i <= n;
            loop invariant s >= 0;
            loop assigns i, s;
            loop variant n - i;
         */
        for (size_t i = 0; i < n; i++) {
            /*@ assert in: i*n + j < n*n; */
            s += P[i * n + j] * P[i * n + j];
        }
        if (s > bestn) {
            bestn = s;
            best = j;
        }
    }
    if (!(bestn > 0.0)) {
        nsm_vec_zero(n, eta);
        return;
    }
    double nr = sqrt(bestn);
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, eta[0 .. n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert in: i*n + best < n*n; */
        eta[i] = P[i * n + best] / nr;
    }
}

/* nsm_unit for nsm_proj_control, with a contract that restates only what the caller uses (the
   status set and the case). In nsm_unit's ball_zero clause (u[i] == 0) the array read is the
   havoc of the call, and WP 25 prints the 0 as an integer in the Why3 task ("Type mismatch
   between real and int"; the same with 0.0, not on an array that no call assigned), so every
   goal that reaches a prover with the clause in its context fails. Each goal here is closed by
   Qed, and the caller's goals no longer see the clause. Under these preconditions nsm_unit
   returns NSM_OK, NSM_ERR_ARG, NSM_ERR_NOT_FINITE or NSM_ERR_ALIAS (its valid_args behaviour);
   each comes back unchanged (NSM_ERR_ARG through the last return, which nothing else reaches). */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid_read(v + (0 .. n - 1)) && \valid(u + (0 .. n - 1)) && \valid(which);
    requires sep: \separated(which, u + (0 .. n - 1));
    assigns *which, u[0 .. n - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                    \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_ALIAS;
    ensures cases: \result == NSM_OK ==>
                     (*which == NSM_UNIT_DIRECTION || *which == NSM_UNIT_BALL);
 */
static nsm_status nsm_proj_i_unit(size_t n, const double *v, double ztol, nsm_unit_case *which,
                                  double *u)
{
    nsm_status st = nsm_unit(n, v, ztol, which, u);
    if (st == NSM_OK || st == NSM_ERR_NOT_FINITE || st == NSM_ERR_ALIAS) {
        return st;
    }
    return NSM_ERR_ARG;
}

/* 1 if an output (f, u) or the workspace (its first 2n entries) overlaps an input or
   another of them; lr, lg, lx, lf and lu are the lengths of R, Γ, ξ, f and u (0 when absent).
   Only addresses are compared. */
/*@ requires dims: 1 <= n <= NSM_MAX_DIM && k <= NSM_MAX_DIM;
    requires lens: lr <= NSM_MAX_DIM * NSM_MAX_DIM && lg <= NSM_MAX_DIM * NSM_MAX_DIM &&
                   lx <= n && lf <= n && lu <= k;
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int control_alias(size_t n, size_t k, const double *P, const double *R,
                         const double *Gamma, const double *fg, const double *q,
                         const double *qstar, const double *qd, const double *xi,
                         const double *f, const double *u, const double *work, size_t lr,
                         size_t lg, size_t lx, size_t lf, size_t lu)
{
    (void)k; /* bounds lu in the contract only */
    const size_t b = sizeof(double);
    const nsm_span out[3] = {{(uintptr_t)f, lf * b},
                             {(uintptr_t)u, lu * b},
                             {(uintptr_t)work, 2u * n * b}};
    const nsm_span in[8] = {{(uintptr_t)P, n * n * b}, {(uintptr_t)R, lr * b},
                            {(uintptr_t)Gamma, lg * b}, {(uintptr_t)fg, n * b},
                            {(uintptr_t)q, n * b},      {(uintptr_t)qstar, n * b},
                            {(uintptr_t)qd, n * b},     {(uintptr_t)xi, lx * b}};
    return nsm_spans_overlap(3, out, 8, in);
}

/*@ // What control_check and control_run read: P, the vectors and the gains, R with f, Γ with u.
    predicate control_in{L}(integer n, integer k, double *P, double *R, double *Gamma,
                            double *fg, double *q, double *qstar, double *qd, double *xi,
                            nsm_proj_gains *gains, double *f, double *u) =
        1 <= n <= NSM_MAX_DIM && k <= NSM_MAX_DIM && (u == \null || k > 0) &&
        \valid_read{L}(P + (0 .. n*n - 1)) &&
        (f == \null || \valid_read{L}(R + (0 .. n*n - 1))) &&
        (u == \null || \valid_read{L}(Gamma + (0 .. k*n - 1))) &&
        \valid_read{L}(fg + (0 .. n - 1)) && \valid_read{L}(q + (0 .. n - 1)) &&
        \valid_read{L}(qstar + (0 .. n - 1)) && \valid_read{L}(qd + (0 .. n - 1)) &&
        (xi == \null || \valid_read{L}(xi + (0 .. n - 1))) && \valid_read{L}(gains);
 */

/* The value checks of nsm_proj_control on non-null arguments of valid size, in the order of
   its error list (nothing is written). NSM_OK means the preconditions of control_run hold. */
/*@ requires in: control_in(n, k, P, R, Gamma, fg, q, qstar, qd, xi, gains, f, u);
    requires valid_out: (f == \null || \valid_read(f + (0 .. n - 1))) &&
                        (u == \null || \valid_read(u + (0 .. k - 1)));
    requires valid_work: \valid_read(work + (0 .. lwork - 1));
    assigns \nothing;
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                    \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                    \result == NSM_ERR_NOT_FINITE;
    ensures bad_gains: !(gains->kp > 0) || !(gains->kd > 0) ||
                       !(gains->sigma > 1 || gains->sigma == 0) ||
                       !(gains->vel_ztol >= 0) || !(gains->xi_tol >= 0) ==> \result == NSM_ERR_ARG;
    ensures room: \result == NSM_OK ==> 2*n <= lwork;
 */
static nsm_status control_check(size_t n, size_t k, const double *P, const double *R,
                                const double *Gamma, const double *fg, const double *q,
                                const double *qstar, const double *qd, const double *xi,
                                const nsm_proj_gains *gains, const double *f, const double *u,
                                const double *work, size_t lwork)
{
    if (!nsm_proj_i_gains_ok(gains)) {
        return NSM_ERR_ARG;
    }
    if (lwork < 2u * n) {
        return NSM_ERR_WORKSPACE;
    }
    size_t nn = n * n;
    size_t kn = k * n;
    size_t lr = f != NULL ? nn : 0u;
    size_t lg = u != NULL ? kn : 0u;
    size_t lx = xi != NULL ? n : 0u;
    size_t lf = f != NULL ? n : 0u;
    size_t lu = u != NULL ? k : 0u;
    if (control_alias(n, k, P, R, Gamma, fg, q, qstar, qd, xi, f, u, work, lr, lg, lx, lf, lu)) {
        return NSM_ERR_ALIAS;
    }
    if (!nsm_all_finite(nn, P) || (f != NULL && !nsm_all_finite(nn, R)) ||
        (u != NULL && !nsm_all_finite(kn, Gamma)) || !nsm_all_finite(n, fg) ||
        !nsm_all_finite(n, q) || !nsm_all_finite(n, qstar) || !nsm_all_finite(n, qd) ||
        (xi != NULL && !nsm_all_finite(n, xi))) {
        return NSM_ERR_NOT_FINITE;
    }
    if (xi != NULL && !nsm_proj_i_xi_ok(n, P, xi, gains->xi_tol)) {
        return NSM_ERR_ARG;
    }
    return NSM_OK;
}

/* The law on checked arguments: η (Unit(q̇), else ξ), v, then f = −Rv and u = −Γv. */
/*@ requires in: control_in(n, k, P, R, Gamma, fg, q, qstar, qd, xi, gains, f, u);
    requires room: 2*n <= lwork;
    requires valid_out: (f == \null || \valid(f + (0 .. n - 1))) &&
                        (u == \null || \valid(u + (0 .. k - 1))) &&
                        (eta_case == \null || \valid(eta_case));
    requires valid_work: \valid(work + (0 .. lwork - 1));
    assigns f[0 .. n - 1], u[0 .. k - 1], *eta_case, work[0 .. lwork - 1];
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                    \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                    \result == NSM_ERR_NOT_FINITE;
 */
static nsm_status control_run(size_t n, size_t k, const double *P, const double *R,
                              const double *Gamma, const double *fg, const double *q,
                              const double *qstar, const double *qd, const double *xi,
                              const nsm_proj_gains *gains, double *f, double *u,
                              nsm_unit_case *eta_case, double *work, size_t lwork)
{
    (void)lwork; /* bounds the written workspace in the contract only */
    double *eta = work;
    double *v = work + n;
    nsm_unit_case which = NSM_UNIT_BALL;
    nsm_status st = nsm_proj_i_unit(n, qd, gains->vel_ztol, &which, eta);
    if (st != NSM_OK) {
        return st;
    }
    if (which == NSM_UNIT_BALL) {
        if (xi != NULL) {
            nsm_vec_copy(n, xi, eta);
        } else {
            nsm_proj_i_xi_from_p(n, P, eta);
        }
    }
    /* e = q − q* into v, then v = f_g + K_p(e + σ‖e‖η) + K_d q̇. */
    nsm_vec_copy(n, q, v);
    nsm_vec_axpy(n, -1.0, qstar, v);
    double ne = nsm_proj_i_norm2(n, v);
    double kp = gains->kp;
    double kd = gains->kd;
    double se = gains->sigma > 0.0 ? gains->sigma * ne : 0.0; /* σ = 0: no η term */
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, v[0 .. n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        v[i] = fg[i] + kp * (v[i] + se * eta[i]) + kd * qd[i];
    }
    if (f != NULL) {
        nsm_mat_vec(0, n, n, -1.0, R, v, f);
    }
    if (u != NULL) {
        nsm_mat_vec(0, k, n, -1.0, Gamma, v, u);
    }
    if (eta_case != NULL) {
        *eta_case = which;
    }
    return NSM_OK;
}

/* Null and size checks, the gain and workspace checks, the result structure apart from every
   array of the call, the value checks, then the law (nothing is written on an argument
   error). */
nsm_status nsm_proj_control(const nsm_proj_control_input *in, const nsm_proj_gains *gains,
                            nsm_proj_control_result *res, double *work, size_t lwork)
{
    if (in == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    size_t n = in->n;
    size_t k = in->k;
    if (in->P == NULL || in->fg == NULL || in->q == NULL || in->qstar == NULL ||
        in->qd == NULL || gains == NULL || work == NULL || (res->f == NULL && res->u == NULL) ||
        (res->f != NULL && in->R == NULL) || (res->u != NULL && in->Gamma == NULL)) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n) || !nsm_dim0_ok(k) || (res->u != NULL && k == 0u)) {
        return NSM_ERR_SIZE;
    }
    /* The gain and workspace checks of control_check first, so that the result structure's
       overlap comes in the order of the error list (after them). */
    if (!nsm_proj_i_gains_ok(gains)) {
        return NSM_ERR_ARG;
    }
    if (lwork < 2u * n) {
        return NSM_ERR_WORKSPACE;
    }
    const size_t b = sizeof(double);
    const size_t nb = n * b;
    const nsm_span arrays[10] = {{(uintptr_t)res->f, res->f != NULL ? nb : 0u},
                                 {(uintptr_t)res->u, res->u != NULL ? k * b : 0u},
                                 {(uintptr_t)in->P, n * nb},
                                 {(uintptr_t)in->R, res->f != NULL ? n * nb : 0u},
                                 {(uintptr_t)in->Gamma, res->u != NULL ? k * nb : 0u},
                                 {(uintptr_t)in->fg, nb},
                                 {(uintptr_t)in->q, nb},
                                 {(uintptr_t)in->qstar, nb},
                                 {(uintptr_t)in->qd, nb},
                                 {(uintptr_t)in->xi, in->xi != NULL ? nb : 0u}};
    const nsm_span ws[1] = {{(uintptr_t)work, 2u * nb}};
    if (nsm_proj_i_struct_hits((uintptr_t)res, sizeof *res, 10u, arrays) ||
        nsm_proj_i_struct_hits((uintptr_t)res, sizeof *res, 1u, ws)) {
        return NSM_ERR_ALIAS;
    }
    nsm_status st = control_check(n, k, in->P, in->R, in->Gamma, in->fg, in->q, in->qstar,
                                  in->qd, in->xi, gains, res->f, res->u, work, lwork);
    if (st != NSM_OK) {
        return st;
    }
    return control_run(n, k, in->P, in->R, in->Gamma, in->fg, in->q, in->qstar, in->qd, in->xi,
                       gains, res->f, res->u, &res->eta_case, work, lwork);
}
