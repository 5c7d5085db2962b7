/*
 * nsmech/projection.h — projection-based non-minimal dynamics and control (docs/math.md, [D]).
 *
 * Notation (docs/math.md, Part 1): n generalized coordinates q, m Pfaffian constraint rows
 * A q̇ = 0 (A is m×n, possibly with redundant rows, possibly m = 0), rank r = rank(A) <= min(m, n)
 * decided with an explicit relative tolerance on the singular values.
 *
 *   P = I − A⁺A (orthogonal projector onto N(A)),  Q = I − P = A⁺A,                  (P2)
 *   Λ = −A⁺Ȧ,  Ṗ = ΛP + PΛᵀ,  Ω = Λ − Λᵀ,                                       (P3), (P11)
 *   M̄ = PMP + μQ (μ > 0 given, or μ* = tr(MP)/(n − r)),                         (P5), (P7)
 *   C̄ = PCP + PM(ΛP + PΛᵀ) − μΛP,                                               (P8)
 *   h = f_g − Cq̇,  S = I − M M̄⁻¹P,                                              (P11)
 *   q̈ = M̄⁻¹P(f + h − MΛq̇) + Λq̇,      f_c = −S(f + h − MΩq̇),                  (P12), (P13)
 *   Γ = (PB)⁺,  R = BΓ,  solvable iff rank(PB) = n − r,                         (P17), (P16)
 *   control law: f = −R(f_g + K_p(e + σ‖e‖η) + K_d q̇),  u = −Γ(…),  e = q − q*,  (P19)
 *   η = q̇/‖q̇‖ when q̇ ≠ 0, else a fixed unit ξ ∈ N(A) (a selection of the Unit map). (P20)
 *
 * Storage: row-major, leading dimension = number of columns (base.h). Argument order: sizes,
 * inputs, outputs, workspace. Every function validates its arguments before writing any
 * output; on any error status nothing is written (outputs keep their previous contents)
 * unless the function says otherwise. Workspaces are sized by the matching *_work() query
 * (in doubles; 0 means the sizes are out of range).
 *
 * Admissibility: several identities (Λᵀq̇ = 0, Qq̈ = Λq̇, V̇ <= 0 of the control law) hold only
 * for admissible velocities q̇ = Pq̇ (A q̇ = 0). The functions here do not reject inadmissible q̇:
 * they evaluate the formulas above as written. For nsm_proj_dynamics this means the returned
 * f_c differs from the KKT force M q̈ − f − f_g + C q̇ by −SMΛᵀq̇, which vanishes only for
 * admissible q̇: project q̇ ← P q̇ every cycle (docs/c-api.md measures the drift otherwise).
 *
 * Symmetry: P, Q, M̄ and Ṗ are written symmetrically (entry (i, j), i >= j, computed once and
 * stored at (i, j) and (j, i)), Ω antisymmetrically. The contracts state it for P, Q, Ṗ and M̄
 * (nsm_sym, proved; docs/proofs.md says under which separation hypotheses).
 */
#ifndef NSMECH_PROJECTION_H
#define NSMECH_PROJECTION_H

#include <stddef.h>
#include "nsmech/base.h"
#include "nsmech/linalg.h"
#include "nsmech/setvalued.h"

#ifdef __FRAMAC__
#include "nsm_sym.acsl.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* 0. The model data                                                                            */
/* ------------------------------------------------------------------------------------------ */

/**
 * The model data of one control cycle: n coordinates, m constraint rows; M and C (n×n), A and
 * Ȧ (m×n; NULL allowed when m = 0), the forces f and f_g and the velocity q̇ (n). Read only.
 * nsm_proj_dynamics reads every field; nsm_proj_inertia reads n and M, nsm_proj_cbar n, M and
 * C (the other fields are then ignored and may be NULL).
 */
typedef struct nsm_proj_problem {
    size_t n, m;
    const double *M, *C, *A, *Adot, *f, *fg, *qd;
} nsm_proj_problem;

/*@ // Each array of p is NULL or readable for its size.
    predicate nsm_proj_problem_valid(nsm_proj_problem *p) =
      \valid_read(p) &&
      (p->M == \null || \valid_read(p->M + (0 .. p->n*p->n - 1))) &&
      (p->C == \null || \valid_read(p->C + (0 .. p->n*p->n - 1))) &&
      (p->A == \null || \valid_read(p->A + (0 .. p->m*p->n - 1))) &&
      (p->Adot == \null || \valid_read(p->Adot + (0 .. p->m*p->n - 1))) &&
      (p->f == \null || \valid_read(p->f + (0 .. p->n - 1))) &&
      (p->fg == \null || \valid_read(p->fg + (0 .. p->n - 1))) &&
      (p->qd == \null || \valid_read(p->qd + (0 .. p->n - 1)));
    // The structure shares no byte with the block [w, w + len) that a call writes (an output
    // array, a result structure as doubles, or the workspace).
    predicate nsm_proj_problem_sep(nsm_proj_problem *p, double *w, integer len) =
      w == \null || len <= 0 || \separated(p, w + (0 .. len - 1));
 */

/* ------------------------------------------------------------------------------------------ */
/* 1. Projector                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/** Workspace (doubles) for nsm_proj_projector; 0 if n or m is out of range. */
/*@ assigns \nothing;
    ensures range: \result == 0 ||
                   (1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM && \result >= n*m + n*n);
 */
size_t nsm_proj_projector_work(size_t n, size_t m);

/** What nsm_proj_projector writes: the rank by value, the arrays through the pointers. */
typedef struct nsm_proj_projector_result {
    size_t rank;   /**< r = rank(A) (written) */
    double *P;     /**< n×n, I − A⁺A (required) */
    double *Q;     /**< n×n, A⁺A (required) */
    double *Apinv; /**< n×m, A⁺ (required when m > 0; may be NULL when m = 0) */
} nsm_proj_projector_result;

/*@ // Each array of r is NULL or valid for its size (n×n, n×n, n×m).
    predicate nsm_proj_projector_result_valid(nsm_proj_projector_result *r, integer n,
                                              integer m) =
      \valid(r) &&
      (r->P == \null || \valid(r->P + (0 .. n*n - 1))) &&
      (r->Q == \null || \valid(r->Q + (0 .. n*n - 1))) &&
      (r->Apinv == \null || \valid(r->Apinv + (0 .. n*m - 1)));
    // The structure shares no byte with the arrays it points to.
    predicate nsm_proj_projector_result_sep(nsm_proj_projector_result *r, integer n,
                                            integer m) =
      (r->P == \null || \separated(r, r->P + (0 .. n*n - 1))) &&
      (r->Q == \null || \separated(r, r->Q + (0 .. n*n - 1))) &&
      (r->Apinv == \null || m == 0 || \separated(r, r->Apinv + (0 .. n*m - 1)));
 */

/**
 * P = I − A⁺A (n×n), Q = A⁺A (n×n) and A⁺ (n×m) of the m×n constraint matrix A into res->P,
 * res->Q, res->Apinv; res->rank = r, the number of singular values s_i > rtol·s_1
 * (nsm_rank_from_sv). m = 0 is allowed (A and res->Apinv may then be NULL): P = I, Q = 0, r = 0.
 * A zero A gives the same.
 * With Q₀ = A⁺A as computed, Q = (Q₀ + Q₀ᵀ)/2 and P = I − (Q₀ + Q₀ᵀ)/2: both exactly symmetric
 * (entry (i, j) is computed once and stored at (i, j) and (j, i)) and P + Q = I up to rounding.
 * Proved (sym_P, sym_Q): on NSM_OK, P is symmetric, and Q is whenever P and Q do not overlap
 * (overlap is rejected at run time with NSM_ERR_ALIAS; the prover cannot see that check).
 * Errors (nothing written): NSM_ERR_NULL (res, res->P, res->Q, work NULL, or A/res->Apinv NULL
 * with m > 0), NSM_ERR_SIZE (n = 0, n or m > NSM_MAX_DIM), NSM_ERR_ARG (rtol not in [0, 1)),
 * NSM_ERR_NOT_FINITE (A), NSM_ERR_WORKSPACE, NSM_ERR_ALIAS (outputs overlap each other, A or
 * work; or *res overlaps an array of the call, checked after the value checks),
 * NSM_ERR_NO_CONVERGENCE (SVD).
 */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. m*n - 1));
    requires valid_res: res == \null || nsm_proj_projector_result_valid(res, n, m);
    requires sep_res: res == \null || nsm_proj_projector_result_sep(res, n, m);
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns res->rank, res->P[0 .. n*n - 1], res->Q[0 .. n*n - 1], res->Apinv[0 .. n*m - 1],
            work[0 .. lwork - 1];
    behavior null_arg:
      assumes res == \null || res->P == \null || res->Q == \null || work == \null ||
              (m > 0 && (A == \null || res->Apinv == \null));
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes res != \null && res->P != \null && res->Q != \null && work != \null &&
              (m == 0 || (A != \null && res->Apinv != \null));
      assumes n == 0 || n > NSM_MAX_DIM || m > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes res != \null && res->P != \null && res->Q != \null && work != \null &&
              (m == 0 || (A != \null && res->Apinv != \null));
      assumes 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NO_CONVERGENCE;
      ensures bad_rtol: !(0 <= rtol < 1) ==> \result == NSM_ERR_ARG;
      ensures rank_bound: \result == NSM_OK ==> res->rank <= n && res->rank <= m;
      ensures sym_P: \result == NSM_OK ==> nsm_sym(\old(res->P), n);
      ensures sym_Q: \result == NSM_OK &&
                     \separated(\old(res->P) + (0 .. n*n - 1), \old(res->Q) + (0 .. n*n - 1)) ==>
                     nsm_sym(\old(res->Q), n);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_proj_projector(size_t n, size_t m, const double *A, double rtol,
                              nsm_proj_projector_result *res, double *work, size_t lwork);

/* ------------------------------------------------------------------------------------------ */
/* 2. Rates                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** Workspace (doubles) for nsm_proj_rates: n·n; 0 if n is out of range. */
/*@ assigns \nothing;
    ensures range: \result == 0 || (1 <= n <= NSM_MAX_DIM && \result == n*n);
 */
size_t nsm_proj_rates_work(size_t n);

/** What nsm_proj_rates writes. */
typedef struct nsm_proj_rates_result {
    double *Lambda; /**< n×n, Λ = −A⁺Ȧ (required) */
    double *Pdot;   /**< n×n, Ṗ = ΛP + PΛᵀ (optional: NULL skips it) */
} nsm_proj_rates_result;

/*@ predicate nsm_proj_rates_result_valid(nsm_proj_rates_result *r, integer n) =
      \valid(r) &&
      (r->Lambda == \null || \valid(r->Lambda + (0 .. n*n - 1))) &&
      (r->Pdot == \null || \valid(r->Pdot + (0 .. n*n - 1)));
    predicate nsm_proj_rates_result_sep(nsm_proj_rates_result *r, integer n) =
      (r->Lambda == \null || \separated(r, r->Lambda + (0 .. n*n - 1))) &&
      (r->Pdot == \null || \separated(r, r->Pdot + (0 .. n*n - 1)));
 */

/**
 * Λ = −A⁺Ȧ (n×n, into res->Lambda) from A⁺ (n×m) and Ȧ (m×n); if res->Pdot is not NULL, also
 * Ṗ = ΛP + PΛᵀ (n×n, written symmetrically, proved as sym_Pdot; P, the symmetric projector, is
 * then required). m = 0 gives Λ = 0, Ṗ = 0. Valid where rank A is locally constant
 * (docs/math.md).
 * Errors: NSM_ERR_NULL, NSM_ERR_SIZE (n = 0, n or m > NSM_MAX_DIM), NSM_ERR_NOT_FINITE,
 * NSM_ERR_WORKSPACE (only when Pdot is wanted), NSM_ERR_ALIAS (also: *res overlaps an array of
 * the call, checked after the value checks).
 */
/*@ requires valid_X: Apinv == \null || \valid_read(Apinv + (0 .. n*m - 1));
    requires valid_Ad: Adot == \null || \valid_read(Adot + (0 .. m*n - 1));
    requires valid_P: P == \null || \valid_read(P + (0 .. n*n - 1));
    requires valid_res: res == \null || nsm_proj_rates_result_valid(res, n);
    requires sep_res: res == \null || nsm_proj_rates_result_sep(res, n);
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns res->Lambda[0 .. n*n - 1], res->Pdot[0 .. n*n - 1], work[0 .. lwork - 1];
    behavior null_arg:
      assumes res == \null || res->Lambda == \null ||
              (m > 0 && (Apinv == \null || Adot == \null)) ||
              (res->Pdot != \null && (P == \null || work == \null));
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes !(res == \null || res->Lambda == \null ||
                (m > 0 && (Apinv == \null || Adot == \null)) ||
                (res->Pdot != \null && (P == \null || work == \null)));
      assumes n == 0 || n > NSM_MAX_DIM || m > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes !(res == \null || res->Lambda == \null ||
                (m > 0 && (Apinv == \null || Adot == \null)) ||
                (res->Pdot != \null && (P == \null || work == \null)));
      assumes 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_WORKSPACE ||
                      \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE;
      ensures sym_Pdot: \result == NSM_OK && \old(res->Pdot) != \null ==>
                        nsm_sym(\old(res->Pdot), n);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_proj_rates(size_t n, size_t m, const double *Apinv, const double *Adot,
                          const double *P, nsm_proj_rates_result *res, double *work,
                          size_t lwork);

/* ------------------------------------------------------------------------------------------ */
/* 3. Constraint inertia                                                                        */
/* ------------------------------------------------------------------------------------------ */

/** How the virtual mass μ of M̄ = PMP + μQ is chosen. */
typedef enum nsm_mu_mode {
    /** μ* = tr(MP)/(n − r): the mean of the nonzero eigenvalues of PMP, which minimises
        cond(M̄). When r = n (no freedom left, PMP = 0) μ = tr(M)/n, the mean diagonal of M. */
    NSM_MU_OPTIMAL = 0,
    /** μ given by the caller, μ > 0 and finite. */
    NSM_MU_GIVEN = 1
} nsm_mu_mode;

/** Workspace (doubles) for nsm_proj_inertia: 2·n·n; 0 if n is out of range. */
/*@ assigns \nothing;
    ensures range: \result == 0 || (1 <= n <= NSM_MAX_DIM && \result == 2*n*n);
 */
size_t nsm_proj_inertia_work(size_t n);

/** What nsm_proj_inertia writes. */
typedef struct nsm_proj_inertia_result {
    double *Mbar;   /**< n×n, M̄ = PMP + μQ (required) */
    double mu_used; /**< the μ applied (written) */
} nsm_proj_inertia_result;

/*@ predicate nsm_proj_inertia_result_valid(nsm_proj_inertia_result *r, integer n) =
      \valid(r) && (r->Mbar == \null || \valid(r->Mbar + (0 .. n*n - 1)));
    predicate nsm_proj_inertia_result_sep(nsm_proj_inertia_result *r, integer n) =
      r->Mbar == \null || \separated(r, r->Mbar + (0 .. n*n - 1));
 */

/**
 * M̄ = PMP + μQ with Q = I − P (n×n, into res->Mbar, written symmetrically: proved as sym_Mbar),
 * from M = prob->M (n×n with n = prob->n, symmetric; the other fields of prob are not read) and
 * the projector P of rank-r constraints. mode chooses μ (mu is read only for NSM_MU_GIVEN);
 * res->mu_used receives the μ applied. The symmetric part of M is used, (M + Mᵀ)/2 implicitly,
 * as PMP is formed by two products and symmetrised.
 * Errors: NSM_ERR_NULL (prob, prob->M, P, res, res->Mbar, work), NSM_ERR_SIZE (n = 0 or
 * > NSM_MAX_DIM), NSM_ERR_ARG (r > n, bad mode, μ <= 0 or not finite for NSM_MU_GIVEN),
 * NSM_ERR_NOT_FINITE (M, P), NSM_ERR_NOT_SPD (μ* <= 0: M is not positive definite on N(A)),
 * NSM_ERR_WORKSPACE, NSM_ERR_ALIAS (M̄, work and the inputs overlap; or *res overlaps one of
 * them, checked after the argument checks).
 */
/*@ requires valid_prob: prob == \null || nsm_proj_problem_valid(prob);
    requires valid_P: prob == \null || P == \null || \valid_read(P + (0 .. prob->n*prob->n - 1));
    requires valid_res: prob == \null || res == \null || nsm_proj_inertia_result_valid(res, prob->n);
    requires sep_res: prob == \null || res == \null || nsm_proj_inertia_result_sep(res, prob->n);
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns res->Mbar[0 .. prob->n*prob->n - 1], res->mu_used, work[0 .. lwork - 1];
    behavior null_arg:
      assumes prob == \null || prob->M == \null || P == \null || res == \null ||
              res->Mbar == \null || work == \null;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes prob != \null && prob->M != \null && P != \null && res != \null &&
              res->Mbar != \null && work != \null;
      assumes prob->n == 0 || prob->n > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes prob != \null && prob->M != \null && P != \null && res != \null &&
              res->Mbar != \null && work != \null;
      assumes 1 <= prob->n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NOT_SPD;
      ensures bad_r: r > \old(prob->n) ==> \result == NSM_ERR_ARG;
      ensures bad_mode: mode != NSM_MU_OPTIMAL && mode != NSM_MU_GIVEN ==> \result == NSM_ERR_ARG;
      ensures bad_mu: mode == NSM_MU_GIVEN && !(mu > 0) ==> \result == NSM_ERR_ARG;
      ensures mu_pos: \result == NSM_OK ==> res->mu_used > 0;
      ensures sym_Mbar: \result == NSM_OK ==> nsm_sym(\old(res->Mbar), \old(prob->n));
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_proj_inertia(const nsm_proj_problem *prob, size_t r, const double *P,
                            nsm_mu_mode mode, double mu, nsm_proj_inertia_result *res,
                            double *work, size_t lwork);

/* ------------------------------------------------------------------------------------------ */
/* 4. Dynamics: pieces                                                                          */
/* ------------------------------------------------------------------------------------------ */

/** Workspace (doubles) for nsm_proj_cbar: 2·n·n; 0 if n is out of range. */
/*@ assigns \nothing;
    ensures range: \result == 0 || (1 <= n <= NSM_MAX_DIM && \result == 2*n*n);
 */
size_t nsm_proj_cbar_work(size_t n);

/**
 * C̄ = PCP + PM(ΛP + PΛᵀ) − μΛP ((P8); [D] eq. 8c), all n×n, from M = prob->M, C = prob->C and
 * n = prob->n (the other fields of prob are not read); μ > 0 the virtual mass used in M̄.
 * Errors: NSM_ERR_NULL (prob, prob->M, prob->C, P, Lambda, Cbar, work), NSM_ERR_SIZE,
 * NSM_ERR_ARG (μ <= 0 or not finite), NSM_ERR_NOT_FINITE, NSM_ERR_WORKSPACE, NSM_ERR_ALIAS.
 */
/*@ requires valid_prob: prob == \null || nsm_proj_problem_valid(prob);
    requires valid_in: prob == \null ||
                       ((P == \null || \valid_read(P + (0 .. prob->n*prob->n - 1))) &&
                        (Lambda == \null || \valid_read(Lambda + (0 .. prob->n*prob->n - 1))));
    requires valid_Cbar: prob == \null || Cbar == \null ||
                         \valid(Cbar + (0 .. prob->n*prob->n - 1));
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns Cbar[0 .. prob->n*prob->n - 1], work[0 .. lwork - 1];
    behavior null_arg:
      assumes prob == \null || prob->M == \null || prob->C == \null || P == \null ||
              Lambda == \null || Cbar == \null || work == \null;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes prob != \null && prob->M != \null && prob->C != \null && P != \null &&
              Lambda != \null && Cbar != \null && work != \null;
      assumes prob->n == 0 || prob->n > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes prob != \null && prob->M != \null && prob->C != \null && P != \null &&
              Lambda != \null && Cbar != \null && work != \null;
      assumes 1 <= prob->n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE;
      ensures bad_mu: !(mu > 0) ==> \result == NSM_ERR_ARG;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_proj_cbar(const nsm_proj_problem *prob, const double *P, const double *Lambda,
                         double mu, double *Cbar, double *work, size_t lwork);

/** Workspace (doubles) for nsm_proj_oblique: 2·n·n; 0 if n is out of range. */
/*@ assigns \nothing;
    ensures range: \result == 0 || (1 <= n <= NSM_MAX_DIM && \result == 2*n*n);
 */
size_t nsm_proj_oblique_work(size_t n);

/**
 * S = I − M M̄⁻¹P ((P11); [D] eq. 28), the oblique projector of the constraint force (n×n),
 * from M, M̄ (symmetric positive definite; its lower triangle is used) and P.
 * Errors: NSM_ERR_NULL, NSM_ERR_SIZE, NSM_ERR_NOT_FINITE, NSM_ERR_NOT_SPD (Cholesky of M̄
 * fails), NSM_ERR_WORKSPACE, NSM_ERR_ALIAS.
 */
/*@ requires valid_in: (M == \null || \valid_read(M + (0 .. n*n - 1))) &&
                       (Mbar == \null || \valid_read(Mbar + (0 .. n*n - 1))) &&
                       (P == \null || \valid_read(P + (0 .. n*n - 1)));
    requires valid_S: S == \null || \valid(S + (0 .. n*n - 1));
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns S[0 .. n*n - 1], work[0 .. lwork - 1];
    behavior null_arg:
      assumes M == \null || Mbar == \null || P == \null || S == \null || work == \null;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes M != \null && Mbar != \null && P != \null && S != \null && work != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes M != \null && Mbar != \null && P != \null && S != \null && work != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_WORKSPACE ||
                      \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_NOT_SPD;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_proj_oblique(size_t n, const double *M, const double *Mbar, const double *P,
                            double *S, double *work, size_t lwork);

/**
 * Ω = Λ − Λᵀ (n×n), written antisymmetrically (Ω_ij = −Ω_ji, zero diagonal).
 * Errors: NSM_ERR_NULL, NSM_ERR_SIZE, NSM_ERR_NOT_FINITE, NSM_ERR_ALIAS.
 */
/*@ requires valid_L: Lambda == \null || \valid_read(Lambda + (0 .. n*n - 1));
    requires valid_O: Omega == \null || \valid(Omega + (0 .. n*n - 1));
    assigns Omega[0 .. n*n - 1];
    behavior null_arg:
      assumes Lambda == \null || Omega == \null;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes Lambda != \null && Omega != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes Lambda != \null && Omega != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_proj_omega(size_t n, const double *Lambda, double *Omega);

/* ------------------------------------------------------------------------------------------ */
/* 4. Dynamics: the per-cycle call                                                              */
/* ------------------------------------------------------------------------------------------ */

/** Options of nsm_proj_dynamics. Initialise with NSM_PROJ_OPTS_DEFAULT and change fields. */
typedef struct nsm_proj_opts {
    double rank_rtol;    /**< relative rank tolerance of A, in [0, 1) (LQ pivots, see below) */
    nsm_mu_mode mu_mode; /**< NSM_MU_OPTIMAL (μ*) or NSM_MU_GIVEN (mu) */
    double mu;           /**< virtual mass for NSM_MU_GIVEN, > 0 */
    int check_spd;       /**< nonzero: refuse an M that is not positive definite (its
                              Cholesky factor, computed in any case: see nsm_proj_dynamics);
                              0: accept an M positive definite on N(A) only */
    double sym_rtol;     /**< M must satisfy |M_ij − M_ji| <= sym_rtol·max(1, max|M|), >= 0 */
} nsm_proj_opts;

/** Default options: rtol 1e-10, μ = μ*, SPD check on, symmetry tolerance 1e-12. */
#define NSM_PROJ_OPTS_DEFAULT { NSM_RANK_RTOL_DEFAULT, NSM_MU_OPTIMAL, 1.0, 1, 1e-12 }

/** What nsm_proj_dynamics decided. */
typedef struct nsm_proj_info {
    size_t rank;  /**< r, the numerical rank of A */
    double mu;    /**< the virtual mass μ used in M̄ */
} nsm_proj_info;

/*@ // The workspace nsm_proj_dynamics_work returns for 1 <= n <= NSM_MAX_DIM, m <= NSM_MAX_DIM.
    logic integer nsm_proj_dynamics_lwork(integer n, integer m) =
      3*n*m + 3*m*m + 2*n*n + 9*n + 3*m + 2*m*n + m*m + 3*m;
 */

/** Workspace (doubles) for nsm_proj_dynamics; 0 if n or m is out of range. */
/*@ assigns \nothing;
    ensures range: \result == 0 || (1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM &&
                   \result == 3*n*m + 3*m*m + 2*n*n + 9*n + 3*m + 2*m*n + m*m + 3*m);
    ensures exact: 1 <= n <= NSM_MAX_DIM && m <= NSM_MAX_DIM ==>
                   \result == nsm_proj_dynamics_lwork(n, m) && \result >= 1;
 */
size_t nsm_proj_dynamics_work(size_t n, size_t m);

/** What nsm_proj_dynamics writes. */
typedef struct nsm_proj_dynamics_result {
    double *qdd;        /**< n, q̈ (required) */
    double *fc;         /**< n, f_c (optional: NULL skips it) */
    double *P;          /**< n×n, the projector (optional) */
    double *Mbar;       /**< n×n, M̄ (optional) */
    nsm_proj_info info; /**< rank r and μ used (written) */
} nsm_proj_dynamics_result;

/*@ predicate nsm_proj_dynamics_result_valid(nsm_proj_dynamics_result *r, integer n) =
      \valid(r) &&
      (r->qdd == \null || \valid(r->qdd + (0 .. n - 1))) &&
      (r->fc == \null || \valid(r->fc + (0 .. n - 1))) &&
      (r->P == \null || \valid(r->P + (0 .. n*n - 1))) &&
      (r->Mbar == \null || \valid(r->Mbar + (0 .. n*n - 1)));
    predicate nsm_proj_dynamics_result_sep(nsm_proj_dynamics_result *r, integer n) =
      (r->qdd == \null || \separated(r, r->qdd + (0 .. n - 1))) &&
      (r->fc == \null || \separated(r, r->fc + (0 .. n - 1))) &&
      (r->P == \null || \separated(r, r->P + (0 .. n*n - 1))) &&
      (r->Mbar == \null || \separated(r, r->Mbar + (0 .. n*n - 1)));
 */

/**
 * One control cycle of the constrained dynamics, on the model data *prob: M (n×n, symmetric
 * positive definite), C (n×n), A and Ȧ (m×n, m may be 0: then A and Adot may be NULL), f, f_g,
 * q̇ (n). Outputs (*res): q̈ = M̄⁻¹P(f + h − MΛq̇) + Λq̇ (n, res->qdd), computed so that it does
 * not depend on μ; f_c = −S(f + h − MΩq̇) (n, res->fc, optional: NULL skips it); res->info (rank
 * r and μ used); P (n×n) and M̄ (n×n) into res->P and res->Mbar, each optional (NULL skips).
 * opts may be NULL (NSM_PROJ_OPTS_DEFAULT). q̇ is not required to be admissible (see top).
 * Method (docs/math.md, "The factorisation of the per-cycle call"): A is factored by
 * Householder LQ with row pivoting (nsmech's own code), giving the rank r, an orthonormal
 * basis Y (n×r) of range(Aᵀ) and the factors of A⁺ = Y S⁻ᵀ V₂ᵀ / a, applied to vectors
 * without forming A⁺; P = I − YYᵀ applied as v − Y(Yᵀv) (formed, by dsyrk, only for the P
 * output). M̄⁻¹P is applied by one of two routes (docs/math.md (P28)–(P31)):
 *  - range-space (the usual one): with M = LLᵀ (one Cholesky of M, which is also the SPD
 *    check), X = L⁻¹Y and the r×r factor of XᵀX = YᵀM⁻¹Y; f_c = −Yλ. Taken when the factor
 *    exists and every pivot satisfies L_jj² ≥ 1e-8·M_jj (a cheap test that rejects M with
 *    cond₂(M) > 1e8 in its leading blocks, and M singular but factored through rounding);
 *  - M̄ (otherwise, e.g. M positive definite on N(A) only, with check_spd = 0): M̄ =
 *    M − (YGᵀ + GYᵀ) with G = MY − ½Y(YᵀMY) − (μ/2)Y (a symmetric rank-2r update: MY by
 *    symmetric matrix-vector products, the rest by dgemm) and one Cholesky of M̄.
 * M̄ is formed (by that update) only for the M̄ output or the M̄ route; otherwise no n×n
 * product; O(n² + nm) vector work. M is read as symmetric from its lower triangle in the
 * factorisations (the q̈ formula uses all of M).
 * Rank: pivot k counts when the norm of the chosen row's remaining part exceeds
 * opts->rank_rtol times the largest row norm of A. The SVD-based functions (nsm_pinv,
 * nsm_proj_projector) compare singular values with the same tolerance; the two decisions agree
 * whenever A's singular values have a gap around rtol·σ₁ (exactly redundant rows, as in the
 * tests); results agree to rounding then (the tests compare P to 1e-12).
 * Errors (outputs and info never written; work only once the computation has begun, by its
 * NSM_ERR_NOT_SPD, NSM_ERR_NOT_FINITE or NSM_ERR_RANK): NSM_ERR_NULL (prob, res, a required
 * field of either, or work), NSM_ERR_SIZE (n = 0, n or m > NSM_MAX_DIM), NSM_ERR_ARG (options
 * out of domain), NSM_ERR_NOT_FINITE (any input), NSM_ERR_NOT_SPD (M not symmetric within
 * sym_rtol, M not positive definite with check_spd, μ* <= 0 or M̄ not factorisable),
 * NSM_ERR_WORKSPACE, NSM_ERR_ALIAS (an output, res->info included, overlaps an input, another
 * output or work; or *res overlaps an array of the call, checked after the value checks),
 * NSM_ERR_NOT_FINITE also when 1/max|A_ij| is beyond DBL_MAX (A of subnormal size)
 * and when q̈ or f_c overflows (finite inputs of extreme size),
 * NSM_ERR_RANK (the unpivoted second factorisation of the pseudo-inverse met a zero pivot: a
 * defensive check, rounding only, not expected to occur).
 */
/*@ requires valid_prob: prob == \null || nsm_proj_problem_valid(prob);
    requires valid_opts: opts == \null || \valid_read(opts);
    requires valid_res: prob == \null || res == \null ||
                        nsm_proj_dynamics_result_valid(res, prob->n);
    requires sep_res: prob == \null || res == \null || nsm_proj_dynamics_result_sep(res, prob->n);
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns res->qdd[0 .. prob->n - 1], res->fc[0 .. prob->n - 1], res->info,
            res->P[0 .. prob->n*prob->n - 1], res->Mbar[0 .. prob->n*prob->n - 1],
            work[0 .. lwork - 1];
    behavior null_arg:
      assumes prob == \null || res == \null ||
              prob->M == \null || prob->C == \null || prob->f == \null || prob->fg == \null ||
              prob->qd == \null || res->qdd == \null || work == \null ||
              (prob->m > 0 && (prob->A == \null || prob->Adot == \null));
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes !(prob == \null || res == \null ||
                prob->M == \null || prob->C == \null || prob->f == \null || prob->fg == \null ||
                prob->qd == \null || res->qdd == \null || work == \null ||
                (prob->m > 0 && (prob->A == \null || prob->Adot == \null)));
      assumes prob->n == 0 || prob->n > NSM_MAX_DIM || prob->m > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes !(prob == \null || res == \null ||
                prob->M == \null || prob->C == \null || prob->f == \null || prob->fg == \null ||
                prob->qd == \null || res->qdd == \null || work == \null ||
                (prob->m > 0 && (prob->A == \null || prob->Adot == \null)));
      assumes 1 <= prob->n <= NSM_MAX_DIM && prob->m <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_NOT_SPD ||
                      \result == NSM_ERR_RANK;
      ensures bad_opts: \old(opts != \null && (!(0 <= opts->rank_rtol < 1) ||
                          !(opts->sym_rtol >= 0) ||
                          (opts->mu_mode != NSM_MU_OPTIMAL && opts->mu_mode != NSM_MU_GIVEN) ||
                          (opts->mu_mode == NSM_MU_GIVEN && !(opts->mu > 0))))
                        ==> \result == NSM_ERR_ARG;
      ensures workspace: \result == NSM_ERR_WORKSPACE ==>
                         lwork < nsm_proj_dynamics_lwork(\old(prob->n), \old(prob->m));
      ensures short_work: lwork < nsm_proj_dynamics_lwork(\old(prob->n), \old(prob->m)) ==>
                          \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ARG;
      ensures untouched: \result == NSM_ERR_ARG || \result == NSM_ERR_WORKSPACE ||
                         \result == NSM_ERR_ALIAS ==>
                nsm_unchanged{Old, Here}(\old(res->qdd), \old(prob->n)) &&
                (\old(res->fc) == \null || nsm_unchanged{Old, Here}(\old(res->fc), \old(prob->n))) &&
                (\old(res->P) == \null ||
                 nsm_unchanged{Old, Here}(\old(res->P), \old(prob->n)*\old(prob->n))) &&
                (\old(res->Mbar) == \null ||
                 nsm_unchanged{Old, Here}(\old(res->Mbar), \old(prob->n)*\old(prob->n))) &&
                res->info.rank == \old(res->info.rank) && res->info.mu == \old(res->info.mu) &&
                nsm_unchanged{Old, Here}(work, lwork);
      ensures info: \result == NSM_OK ==> res->info.rank <= \old(prob->n) &&
                    res->info.rank <= \old(prob->m) && res->info.mu > 0;
      ensures sym_P: \result == NSM_OK && \old(res->P) != \null &&
                     (\old(res->Mbar) == \null ||
                      \separated(\old(res->P) + (0 .. \old(prob->n)*\old(prob->n) - 1),
                                 \old(res->Mbar) + (0 .. \old(prob->n)*\old(prob->n) - 1))) ==>
                     nsm_sym(\old(res->P), \old(prob->n));
      ensures sym_Mbar: \result == NSM_OK && \old(res->Mbar) != \null ==>
                        nsm_sym(\old(res->Mbar), \old(prob->n));
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_proj_dynamics(const nsm_proj_problem *prob, const nsm_proj_opts *opts,
                             nsm_proj_dynamics_result *res, double *work, size_t lwork);

/* ------------------------------------------------------------------------------------------ */
/* 5. Actuation                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/** Workspace (doubles) for nsm_proj_actuation; 0 if n or k is out of range. */
/*@ assigns \nothing;
    ensures range: \result == 0 ||
                   (1 <= n <= NSM_MAX_DIM && 1 <= k <= NSM_MAX_DIM && \result >= 2*n*k &&
                    \result <= 8 * NSM_MAX_DIM * NSM_MAX_DIM);
 */
size_t nsm_proj_actuation_work(size_t n, size_t k);

/** The inputs of nsm_proj_actuation. */
typedef struct nsm_proj_actuation_input {
    size_t n;        /**< coordinates, 1 .. NSM_MAX_DIM */
    size_t k;        /**< actuators, 1 .. NSM_MAX_DIM */
    size_t r;        /**< rank of the constraints, <= n */
    const double *P; /**< n×n projector */
    const double *B; /**< n×k input matrix */
    double rtol;     /**< relative rank tolerance for rank(PB), in [0, 1) */
} nsm_proj_actuation_input;

/*@ predicate nsm_proj_actuation_input_valid(nsm_proj_actuation_input *a) =
      \valid_read(a) &&
      (a->P == \null || \valid_read(a->P + (0 .. a->n*a->n - 1))) &&
      (a->B == \null || \valid_read(a->B + (0 .. a->n*a->k - 1)));
    // The inputs' structure shares no byte with the block [w, w + len) a call writes.
    predicate nsm_proj_actuation_input_sep(nsm_proj_actuation_input *a, double *w, integer len) =
      w == \null || len <= 0 || \separated(a, w + (0 .. len - 1));
 */

/** What nsm_proj_actuation writes. */
typedef struct nsm_proj_actuation_result {
    size_t rank_pb; /**< rank(PB) (written on NSM_OK and NSM_ERR_RANK) */
    double *Gamma;  /**< k×n, Γ = (PB)⁺ (required) */
    double *R;      /**< n×n, R = BΓ (optional: NULL skips it) */
} nsm_proj_actuation_result;

/*@ predicate nsm_proj_actuation_result_valid(nsm_proj_actuation_result *r, integer n,
                                              integer k) =
      \valid(r) &&
      (r->Gamma == \null || \valid(r->Gamma + (0 .. k*n - 1))) &&
      (r->R == \null || \valid(r->R + (0 .. n*n - 1)));
    predicate nsm_proj_actuation_result_sep(nsm_proj_actuation_result *r, integer n,
                                            integer k) =
      (r->Gamma == \null || \separated(r, r->Gamma + (0 .. k*n - 1))) &&
      (r->R == \null || \separated(r, r->R + (0 .. n*n - 1)));
 */

/**
 * Γ = (PB)⁺ (k×n, into res->Gamma) and, if res->R is not NULL, R = BΓ (n×n), for the input
 * matrix B (n×k) and the projector P of rank-r constraints (all in *in). Solvability ((P16);
 * [D] eq. 17): rank(PB) = n − r, checked with the relative tolerance in->rtol; res->rank_pb
 * receives rank(PB) (also on NSM_ERR_RANK).
 * Over-actuated B (k > n − r) is supported (Γ is the minimum-norm pseudo-inverse).
 * Errors: NSM_ERR_NULL (in, in->P, in->B, res, res->Gamma, work), NSM_ERR_SIZE (n, k = 0 or
 * > NSM_MAX_DIM), NSM_ERR_ARG (r > n, rtol not in [0, 1)), NSM_ERR_NOT_FINITE, NSM_ERR_RANK
 * (rank(PB) ≠ n − r; Γ and R not written), NSM_ERR_WORKSPACE, NSM_ERR_ALIAS (Γ, R, work and
 * the inputs overlap; or *res overlaps one of them, checked after the argument checks),
 * NSM_ERR_NO_CONVERGENCE.
 */
/*@ requires valid_in: in == \null || nsm_proj_actuation_input_valid(in);
    requires valid_res: in == \null || res == \null ||
                        nsm_proj_actuation_result_valid(res, in->n, in->k);
    requires sep_res: in == \null || res == \null ||
                      nsm_proj_actuation_result_sep(res, in->n, in->k);
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns res->rank_pb, res->Gamma[0 .. in->k*in->n - 1], res->R[0 .. in->n*in->n - 1],
            work[0 .. lwork - 1];
    behavior null_arg:
      assumes in == \null || in->P == \null || in->B == \null || res == \null ||
              res->Gamma == \null || work == \null;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes in != \null && in->P != \null && in->B != \null && res != \null &&
              res->Gamma != \null && work != \null;
      assumes in->n == 0 || in->n > NSM_MAX_DIM || in->k == 0 || in->k > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes in != \null && in->P != \null && in->B != \null && res != \null &&
              res->Gamma != \null && work != \null;
      assumes 1 <= in->n <= NSM_MAX_DIM && 1 <= in->k <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_RANK ||
                      \result == NSM_ERR_NO_CONVERGENCE;
      ensures bad_args: (\old(in->r) > \old(in->n) || !(0 <= \old(in->rtol) < 1)) ==>
                        \result == NSM_ERR_ARG;
      ensures solvable: \result == NSM_OK ==> res->rank_pb == \old(in->n) - \old(in->r);
      ensures unsolvable: \result == NSM_ERR_RANK ==> res->rank_pb != \old(in->n) - \old(in->r);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_proj_actuation(const nsm_proj_actuation_input *in,
                              nsm_proj_actuation_result *res, double *work, size_t lwork);

/* ------------------------------------------------------------------------------------------ */
/* 6. Control law (21): (P19), [D] eq. 21                                                      */
/* ------------------------------------------------------------------------------------------ */

/** Gains and tolerances of the regulation law. */
typedef struct nsm_proj_gains {
    double kp;        /**< K_p > 0 */
    double kd;        /**< K_d > 0 */
    double sigma;     /**< σ > 1 (law (21)), or σ = 0 (the single-valued law, see below) */
    double vel_ztol;  /**< q̇ counts as zero when ‖q̇‖₂ <= vel_ztol (>= 0) */
    double xi_tol;    /**< a supplied ξ must satisfy |‖ξ‖ − 1| <= xi_tol and ‖Pξ − ξ‖∞ <= xi_tol */
} nsm_proj_gains;

/** Default tolerances for nsm_proj_gains (gains have no default). */
#define NSM_PROJ_VEL_ZTOL_DEFAULT 1e-12
#define NSM_PROJ_XI_TOL_DEFAULT 1e-9

/** Workspace (doubles) for nsm_proj_control: 2·n; 0 if n is out of range. */
/*@ assigns \nothing;
    ensures range: \result == 0 || (1 <= n <= NSM_MAX_DIM && \result == 2*n);
 */
size_t nsm_proj_control_work(size_t n);

/** The inputs of the regulation law (nsm_proj_control); nsm_proj_lyapunov reads n, P, fg, q,
    qstar and qd of the same structure. */
typedef struct nsm_proj_control_input {
    size_t n;            /**< coordinates, 1 .. NSM_MAX_DIM */
    size_t k;            /**< actuators, <= NSM_MAX_DIM (0 only when no u is wanted) */
    const double *P;     /**< n×n projector (required) */
    const double *R;     /**< n×n, R = BΓ (required for f) */
    const double *Gamma; /**< k×n, Γ (required for u) */
    const double *fg;    /**< n, gravity force f_g (required) */
    const double *q;     /**< n, configuration (required) */
    const double *qstar; /**< n, set point q* (required) */
    const double *qd;    /**< n, velocity q̇ (required) */
    const double *xi;    /**< n, the fixed unit ξ ∈ N(A) (optional: NULL derives it from P) */
} nsm_proj_control_input;

/*@ predicate nsm_proj_control_input_valid(nsm_proj_control_input *c) =
      \valid_read(c) &&
      (c->P == \null || \valid_read(c->P + (0 .. c->n*c->n - 1))) &&
      (c->R == \null || \valid_read(c->R + (0 .. c->n*c->n - 1))) &&
      (c->Gamma == \null || \valid_read(c->Gamma + (0 .. c->k*c->n - 1))) &&
      (c->fg == \null || \valid_read(c->fg + (0 .. c->n - 1))) &&
      (c->q == \null || \valid_read(c->q + (0 .. c->n - 1))) &&
      (c->qstar == \null || \valid_read(c->qstar + (0 .. c->n - 1))) &&
      (c->qd == \null || \valid_read(c->qd + (0 .. c->n - 1))) &&
      (c->xi == \null || \valid_read(c->xi + (0 .. c->n - 1)));
    // The inputs' structure shares no byte with the block [w, w + len) a call writes.
    predicate nsm_proj_control_input_sep(nsm_proj_control_input *c, double *w, integer len) =
      w == \null || len <= 0 || \separated(c, w + (0 .. len - 1));
 */

/** What nsm_proj_control writes. */
typedef struct nsm_proj_control_result {
    double *f;              /**< n, f = −Rv (optional) */
    double *u;              /**< k, u = −Γv (optional; f and u not both NULL) */
    nsm_unit_case eta_case; /**< which case of the Unit map held (written) */
} nsm_proj_control_result;

/*@ predicate nsm_proj_control_result_valid(nsm_proj_control_result *r, integer n, integer k) =
      \valid(r) &&
      (r->f == \null || \valid(r->f + (0 .. n - 1))) &&
      (r->u == \null || \valid(r->u + (0 .. k - 1)));
    predicate nsm_proj_control_result_sep(nsm_proj_control_result *r, integer n, integer k) =
      (r->f == \null || \separated(r, r->f + (0 .. n - 1))) &&
      (r->u == \null || k <= 0 || \separated(r, r->u + (0 .. k - 1)));
 */

/**
 * Regulation law (P19) = [D] eq. 21: v = f_g + K_p(e + σ‖e‖η) + K_d q̇, e = q − q*, then f = −Rv (n)
 * into res->f and/or u = −Γv (k) into res->u. With σ = 0 it is the single-valued law
 * f = −R(f_g + K_p e + K_d q̇), which converges (LaSalle: along admissible motion V̇ = −K_d‖q̇‖²
 * for the V of nsm_proj_lyapunov; docs/math.md, "The regulation law that converges"); law (21)
 * (σ > 1) does not (docs/math.md, "Measured caveat"). η = Unit(q̇) (nsm_unit with vel_ztol) when
 * q̇ ≠ 0; otherwise η = ξ, the fixed unit vector of N(A): supplied by the caller (in->xi,
 * validated against P with xi_tol) or, when in->xi is NULL, computed as the normalised column of
 * P of largest norm (the first such column; deterministic). When N(A) = {0} (P = 0) and xi is
 * NULL, η = 0 (then R = 0 and Γ = 0). res->eta_case says which case of the Unit map held.
 * res->f (with in->R) and res->u (with in->Gamma) are each optional, but not both NULL; in->k
 * may be 0 only when res->u is NULL.
 * Errors: NSM_ERR_NULL, NSM_ERR_SIZE, NSM_ERR_ARG (K_p <= 0, K_d <= 0, σ neither 0 nor > 1,
 * tolerances < 0 or not finite, supplied ξ not unit or not in N(A)), NSM_ERR_NOT_FINITE,
 * NSM_ERR_WORKSPACE, NSM_ERR_ALIAS (f, u, work and the inputs overlap; or *res overlaps one of
 * them, checked after the value checks).
 */
/*@ requires valid_in: in == \null || nsm_proj_control_input_valid(in);
    requires valid_gains: gains == \null || \valid_read(gains);
    requires valid_res: in == \null || res == \null ||
                        nsm_proj_control_result_valid(res, in->n, in->k);
    requires sep_res: in == \null || res == \null ||
                      nsm_proj_control_result_sep(res, in->n, in->k);
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns res->f[0 .. in->n - 1], res->u[0 .. in->k - 1], res->eta_case, work[0 .. lwork - 1];
    behavior null_arg:
      assumes in == \null || res == \null ||
              in->P == \null || in->fg == \null || in->q == \null || in->qstar == \null ||
              in->qd == \null || gains == \null || work == \null ||
              (res->f == \null && res->u == \null) || (res->f != \null && in->R == \null) ||
              (res->u != \null && in->Gamma == \null);
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes !(in == \null || res == \null ||
                in->P == \null || in->fg == \null || in->q == \null || in->qstar == \null ||
                in->qd == \null || gains == \null || work == \null ||
                (res->f == \null && res->u == \null) || (res->f != \null && in->R == \null) ||
                (res->u != \null && in->Gamma == \null));
      assumes in->n == 0 || in->n > NSM_MAX_DIM || in->k > NSM_MAX_DIM ||
              (res->u != \null && in->k == 0);
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes !(in == \null || res == \null ||
                in->P == \null || in->fg == \null || in->q == \null || in->qstar == \null ||
                in->qd == \null || gains == \null || work == \null ||
                (res->f == \null && res->u == \null) || (res->f != \null && in->R == \null) ||
                (res->u != \null && in->Gamma == \null));
      assumes 1 <= in->n <= NSM_MAX_DIM && in->k <= NSM_MAX_DIM &&
              (res->u == \null || in->k > 0);
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_WORKSPACE || \result == NSM_ERR_ALIAS ||
                      \result == NSM_ERR_NOT_FINITE;
      ensures bad_gains: \old(!(gains->kp > 0) || !(gains->kd > 0) ||
                               !(gains->sigma > 1 || gains->sigma == 0) ||
                               !(gains->vel_ztol >= 0) || !(gains->xi_tol >= 0))
                         ==> \result == NSM_ERR_ARG;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_proj_control(const nsm_proj_control_input *in, const nsm_proj_gains *gains,
                            nsm_proj_control_result *res, double *work, size_t lwork);

/* ------------------------------------------------------------------------------------------ */
/* 7. Lyapunov monitor                                                                          */
/* ------------------------------------------------------------------------------------------ */

/** What nsm_proj_lyapunov writes. */
typedef struct nsm_proj_lyapunov_result {
    double V;    /**< V = ½q̇ᵀM̄q̇ + ½K_p‖e‖² */
    double Vdot; /**< V̇ = q̇ᵀP(f + f_g) + K_p eᵀq̇ */
} nsm_proj_lyapunov_result;

/*@ predicate nsm_proj_lyapunov_result_valid(nsm_proj_lyapunov_result *r) = \valid(r);
    // The result shares no byte with the inputs' structure (its arrays are checked at run time).
    predicate nsm_proj_lyapunov_result_sep(nsm_proj_lyapunov_result *r,
                                           nsm_proj_control_input *c) =
      \separated(r, c);
 */

/**
 * Lyapunov function ((P21); [D] eq. 24) of the regulation law at one state, from n, P, fg, q,
 * qstar and qd of *in (the other fields are not read): res->V = ½q̇ᵀM̄q̇ + ½K_p‖e‖², e = q − q*,
 * and its rate along the constrained motion M̄q̈ + C̄q̇ = P(f + f_g) under the applied force f:
 * res->Vdot = q̇ᵀP(f + f_g) + K_p eᵀq̇ (uses q̇ᵀ(½dM̄/dt − C̄)q̇ = 0 and a constant q*). With f
 * from nsm_proj_control and admissible q̇: V̇ = −K_d‖q̇‖² (σ = 0, (P26)) and
 * V̇ = −K_d‖q̇‖² − σK_p‖e‖‖q̇‖ (law (21), q̇ ≠ 0, (P22)). Mbar may be M (same V when Pq̇ = q̇).
 * At a switch of the active constraints q (so the potential term) is continuous; a released
 * constraint leaves q̇ and V unchanged; an added one needs q̇ mapped into the new N(A): the
 * M-orthogonal map q̇⁺ = (I − Sᵀ)q̇⁻ = P M̄⁻¹ M q̇⁻ (S from nsm_proj_oblique, at the new rank)
 * gives V⁺ = V⁻ − ½(q̇⁻ − q̇⁺)ᵀM(q̇⁻ − q̇⁺) <= V⁻ (P27), while the Euclidean q̇⁺ = P q̇⁻ may raise V
 * when M is not a multiple of I (docs/math.md).
 * Errors (nothing written): NSM_ERR_NULL, NSM_ERR_SIZE (n = 0 or > NSM_MAX_DIM), NSM_ERR_ARG
 * (K_p <= 0 or not finite), NSM_ERR_NOT_FINITE, NSM_ERR_ALIAS (*res overlaps an input array).
 * Finite inputs whose V or V̇ overflows give ±inf with NSM_OK (not checked).
 */
/*@ requires valid_in: in == \null || nsm_proj_control_input_valid(in);
    requires valid_vec: in == \null ||
                        ((Mbar == \null || \valid_read(Mbar + (0 .. in->n*in->n - 1))) &&
                         (f == \null || \valid_read(f + (0 .. in->n - 1))));
    requires valid_res: res == \null || nsm_proj_lyapunov_result_valid(res);
    requires sep_res: in == \null || res == \null || nsm_proj_lyapunov_result_sep(res, in);
    assigns res->V, res->Vdot;
    behavior null_arg:
      assumes in == \null || res == \null || Mbar == \null || in->P == \null ||
              f == \null || in->fg == \null || in->q == \null || in->qstar == \null ||
              in->qd == \null;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes !(in == \null || res == \null || Mbar == \null || in->P == \null ||
                f == \null || in->fg == \null || in->q == \null || in->qstar == \null ||
                in->qd == \null);
      assumes in->n == 0 || in->n > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes !(in == \null || res == \null || Mbar == \null || in->P == \null ||
                f == \null || in->fg == \null || in->q == \null || in->qstar == \null ||
                in->qd == \null);
      assumes 1 <= in->n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE;
      ensures bad_kp: !(kp > 0) ==> \result == NSM_ERR_ARG;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_proj_lyapunov(const nsm_proj_control_input *in, const double *Mbar,
                             const double *f, double kp, nsm_proj_lyapunov_result *res);

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_PROJECTION_H */
