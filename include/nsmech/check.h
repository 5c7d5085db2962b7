/*
 * nsmech/check.h — residual norms of the identities of the projection-based dynamics, for
 * run-time monitoring in a controller and for tests.
 *
 * Every residual function returns, through *res, the max-abs entry of an n×n residual matrix X:
 *
 *     *res = max_{0 <= i, j < n} |X_ij|          (exactly this value, not a bound)
 *
 * The contracts state it in the real model of the proofs (doubles read as reals): *res is an
 * upper bound of every |X_ij| and equals one of them (specs/nsm_check.acsl.h). In floating
 * point, X_ij is evaluated as written below (products as plain sums over k in increasing
 * order), so *res is the max-abs entry of the rounded residual.
 *
 * Identities checked (docs/math.md (P4), (P10), (P14), (P18)): P² = P, P = Pᵀ, PR = P, R² = R,
 * S² = S, QS = S, SQ = Q, PΛ = 0, skew-symmetry of dM̄/dt − 2C̄, positive definiteness of M̄.
 *
 * Cost: the product residuals compute each entry of the product on the fly (n³ multiply-adds,
 * no workspace); the skew residual uses a 2n² workspace (nsm_check_skew_work); the definiteness
 * test a Cholesky factorisation of a copy (n² workspace, nsm_check_pd_work). Nothing allocates.
 *
 * Matrices are n×n, row-major (base.h). Input matrices may alias each other (e.g. R = P);
 * a workspace may not overlap any input or output, nor *res (or *is_pd) an input matrix
 * (NSM_ERR_ALIAS, checked after finiteness).
 * Errors: NSM_ERR_NULL (a required pointer is NULL), NSM_ERR_SIZE (n = 0 or n > NSM_MAX_DIM),
 * NSM_ERR_NOT_FINITE (an input entry is NaN or infinite), NSM_ERR_ARG (μ <= 0 or not finite),
 * NSM_ERR_WORKSPACE (lwork below the query), NSM_ERR_ALIAS. On any error, *res (or *is_pd) is
 * not written.
 */
#ifndef NSMECH_CHECK_H
#define NSMECH_CHECK_H

#include <stddef.h>
#include "nsmech/base.h"

#ifdef __FRAMAC__
#include "nsm_check.acsl.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/**
 * General product residual: *res = max_ij |(A·B − C)_ij|.
 */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. n*n - 1));
    requires valid_B: B == \null || \valid_read(B + (0 .. n*n - 1));
    requires valid_C: C == \null || \valid_read(C + (0 .. n*n - 1));
    requires valid_res: res == \null || \valid(res);
    assigns *res;
    behavior null_arg:
      assumes A == \null || B == \null || C == \null || res == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes A != \null && B != \null && C != \null && res != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes A != \null && B != \null && C != \null && res != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_ALIAS;
      ensures untouched: \result != NSM_OK ==> *res == \old(*res);
      ensures max_abs: \result == NSM_OK ==> chk_prod_max{Pre}(*res, A, B, C, 1, n);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_check_product(size_t n, const double *A, const double *B, const double *C,
                             double *res);

/**
 * Idempotence residual: *res = max_ij |(P·P − P)_ij|. Use it for P, R and S (P² = P, R² = R,
 * S² = S).
 */
/*@ requires valid_P: P == \null || \valid_read(P + (0 .. n*n - 1));
    requires valid_res: res == \null || \valid(res);
    assigns *res;
    behavior null_arg:
      assumes P == \null || res == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes P != \null && res != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes P != \null && res != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_ALIAS;
      ensures untouched: \result != NSM_OK ==> *res == \old(*res);
      ensures max_abs: \result == NSM_OK ==> chk_prod_max{Pre}(*res, P, P, P, 1, n);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_check_idempotent(size_t n, const double *P, double *res);

/**
 * Symmetry residual: *res = max_ij |(P − Pᵀ)_ij|.
 */
/*@ requires valid_P: P == \null || \valid_read(P + (0 .. n*n - 1));
    requires valid_res: res == \null || \valid(res);
    assigns *res;
    behavior null_arg:
      assumes P == \null || res == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes P != \null && res != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes P != \null && res != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_ALIAS;
      ensures untouched: \result != NSM_OK ==> *res == \old(*res);
      ensures max_abs: \result == NSM_OK ==> chk_sym_max{Pre}(*res, P, n);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_check_symmetry(size_t n, const double *P, double *res);

/**
 * Actuation residual PR = P (docs/math.md (P18); [D] eq. 20): *res = max_ij |(P·R − P)_ij|.
 */
/*@ requires valid_P: P == \null || \valid_read(P + (0 .. n*n - 1));
    requires valid_R: R == \null || \valid_read(R + (0 .. n*n - 1));
    requires valid_res: res == \null || \valid(res);
    assigns *res;
    behavior null_arg:
      assumes P == \null || R == \null || res == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes P != \null && R != \null && res != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes P != \null && R != \null && res != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_ALIAS;
      ensures untouched: \result != NSM_OK ==> *res == \old(*res);
      ensures max_abs: \result == NSM_OK ==> chk_prod_max{Pre}(*res, P, R, P, 1, n);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_check_pr(size_t n, const double *P, const double *R, double *res);

/**
 * Oblique-projector residual QS = S (docs/math.md (P14); [D] eq. 30): *res = max_ij |(Q·S − S)_ij|.
 */
/*@ requires valid_Q: Q == \null || \valid_read(Q + (0 .. n*n - 1));
    requires valid_S: S == \null || \valid_read(S + (0 .. n*n - 1));
    requires valid_res: res == \null || \valid(res);
    assigns *res;
    behavior null_arg:
      assumes Q == \null || S == \null || res == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes Q != \null && S != \null && res != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes Q != \null && S != \null && res != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_ALIAS;
      ensures untouched: \result != NSM_OK ==> *res == \old(*res);
      ensures max_abs: \result == NSM_OK ==> chk_prod_max{Pre}(*res, Q, S, S, 1, n);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_check_qs(size_t n, const double *Q, const double *S, double *res);

/**
 * Oblique-projector residual SQ = Q (docs/math.md (P14); [D] eq. 30): *res = max_ij |(S·Q − Q)_ij|.
 */
/*@ requires valid_S: S == \null || \valid_read(S + (0 .. n*n - 1));
    requires valid_Q: Q == \null || \valid_read(Q + (0 .. n*n - 1));
    requires valid_res: res == \null || \valid(res);
    assigns *res;
    behavior null_arg:
      assumes S == \null || Q == \null || res == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes S != \null && Q != \null && res != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes S != \null && Q != \null && res != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_ALIAS;
      ensures untouched: \result != NSM_OK ==> *res == \old(*res);
      ensures max_abs: \result == NSM_OK ==> chk_prod_max{Pre}(*res, S, Q, Q, 1, n);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_check_sq(size_t n, const double *S, const double *Q, double *res);

/**
 * Rate residual PΛ = 0 (docs/math.md (P4); [D] eq. 5): *res = max_ij |(P·Λ)_ij|.
 */
/*@ requires valid_P: P == \null || \valid_read(P + (0 .. n*n - 1));
    requires valid_L: Lambda == \null || \valid_read(Lambda + (0 .. n*n - 1));
    requires valid_res: res == \null || \valid(res);
    assigns *res;
    behavior null_arg:
      assumes P == \null || Lambda == \null || res == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes P != \null && Lambda != \null && res != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes P != \null && Lambda != \null && res != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_ALIAS;
      ensures untouched: \result != NSM_OK ==> *res == \old(*res);
      ensures max_abs: \result == NSM_OK ==> chk_prod_max{Pre}(*res, P, Lambda, \null, 0, n);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_check_plambda(size_t n, const double *P, const double *Lambda, double *res);

/** Workspace (doubles) for nsm_check_skew: 2·n·n; 0 if n = 0 or n > NSM_MAX_DIM. */
/*@ assigns \nothing;
    ensures \result == ((1 <= n <= NSM_MAX_DIM) ? 2 * n * n : 0);
 */
size_t nsm_check_skew_work(size_t n);

/** The inputs of nsm_check_skew: n×n matrices (n given to the call) and the virtual mass. */
typedef struct nsm_check_skew_input {
    const double *P;    /**< the projector */
    const double *Pdot; /**< Ṗ */
    const double *M;    /**< the inertia matrix */
    const double *Mdot; /**< Ṁ */
    const double *Cbar; /**< C̄ */
    double mu;          /**< μ > 0, the virtual mass of M̄ */
} nsm_check_skew_input;

/*@ predicate nsm_check_skew_input_valid(nsm_check_skew_input *s, integer n) =
      \valid_read(s) &&
      (s->P == \null || \valid_read(s->P + (0 .. n*n - 1))) &&
      (s->Pdot == \null || \valid_read(s->Pdot + (0 .. n*n - 1))) &&
      (s->M == \null || \valid_read(s->M + (0 .. n*n - 1))) &&
      (s->Mdot == \null || \valid_read(s->Mdot + (0 .. n*n - 1))) &&
      (s->Cbar == \null || \valid_read(s->Cbar + (0 .. n*n - 1)));
    // The inputs' structure shares no byte with the block [w, w + len) a call writes.
    predicate nsm_check_skew_input_sep(nsm_check_skew_input *s, double *w, integer len) =
      w == \null || len <= 0 || \separated(s, w + (0 .. len - 1));
 */

/**
 * Skew-symmetry residual ((P10); [D] eq. 10): with dM̄/dt = ṖMP + PṀP + PMṖ − μṖ and D = dM̄/dt − 2C̄,
 * *res = max_ij |(D + Dᵀ)_ij|. Evaluated as D = Ṗ·(MP) + P·(ṀP + MṖ) − μṖ − 2C̄ with
 * W1 = MP and W2 = ṀP + MṖ formed in the workspace (2n² doubles, nsm_check_skew_work); on
 * NSM_OK the workspace holds W1 (first n² entries) and W2 (next n²).
 * Inputs (*in): P (projector), Pdot (Ṗ), M, Mdot (Ṁ), Cbar (C̄), all n×n; mu > 0 the virtual
 * mass of M̄.
 * Errors: NSM_ERR_NULL (in, a matrix of *in, res or work), NSM_ERR_SIZE, NSM_ERR_WORKSPACE
 * (lwork < 2n²), NSM_ERR_ARG (mu <= 0 or not finite), NSM_ERR_NOT_FINITE, NSM_ERR_ALIAS (res
 * or work overlaps an input matrix, *in or the other).
 * Proof status: the max-abs semantics over D + Dᵀ given W1, W2 is proved for the internal
 * reduction (predicate chk_skw_max); that the workspace holds exactly MP and ṀP + MṖ is
 * established by the tests, so the public contract states *res >= 0.
 */
/*@ requires valid_in: in == \null || nsm_check_skew_input_valid(in, n);
    requires valid_res: res == \null || \valid(res);
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns *res, work[0 .. lwork - 1];
    behavior null_arg:
      assumes in == \null || in->P == \null || in->Pdot == \null || in->M == \null ||
              in->Mdot == \null || in->Cbar == \null || res == \null || work == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes in != \null && in->P != \null && in->Pdot != \null && in->M != \null &&
              in->Mdot != \null && in->Cbar != \null && res != \null && work != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior small_work:
      assumes in != \null && in->P != \null && in->Pdot != \null && in->M != \null &&
              in->Mdot != \null && in->Cbar != \null && res != \null && work != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      assumes lwork < 2 * n * n;
      assigns \nothing;
      ensures \result == NSM_ERR_WORKSPACE;
    behavior valid_args:
      assumes in != \null && in->P != \null && in->Pdot != \null && in->M != \null &&
              in->Mdot != \null && in->Cbar != \null && res != \null && work != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      assumes lwork >= 2 * n * n;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_ALIAS;
      ensures bad_mu: !(\old(in->mu) > 0) ==> \result == NSM_ERR_ARG;
      ensures untouched: \result != NSM_OK ==> *res == \old(*res);
      ensures nonneg: \result == NSM_OK ==> *res >= 0;
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_check_skew(size_t n, const nsm_check_skew_input *in, double *res, double *work,
                          size_t lwork);

/** Workspace (doubles) for nsm_check_pd: n·n; 0 if n = 0 or n > NSM_MAX_DIM. */
/*@ assigns \nothing;
    ensures \result == ((1 <= n <= NSM_MAX_DIM) ? n * n : 0);
 */
size_t nsm_check_pd_work(size_t n);

/**
 * Positive definiteness of an n×n matrix A (e.g. M̄): *is_pd = 1 if the Cholesky factorisation
 * of the symmetric part (A + Aᵀ)/2, computed in the workspace (n² doubles), finds every pivot
 * positive, else 0. This is the double-precision Cholesky test: a matrix whose smallest
 * eigenvalue is within about n·ε·‖A‖ of zero may be reported either way. A is not modified.
 * Errors: NSM_ERR_NULL, NSM_ERR_SIZE, NSM_ERR_NOT_FINITE, NSM_ERR_WORKSPACE (lwork < n²),
 * NSM_ERR_ALIAS (work overlaps A, or is_pd overlaps A or work).
 */
/*@ requires valid_A: A == \null || \valid_read(A + (0 .. n*n - 1));
    requires valid_is_pd: is_pd == \null || \valid(is_pd);
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns *is_pd, work[0 .. lwork - 1];
    behavior null_arg:
      assumes A == \null || is_pd == \null || work == \null;
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes A != \null && is_pd != \null && work != \null;
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior small_work:
      assumes A != \null && is_pd != \null && work != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      assumes lwork < n * n;
      assigns \nothing;
      ensures \result == NSM_ERR_WORKSPACE;
    behavior valid_args:
      assumes A != \null && is_pd != \null && work != \null;
      assumes 1 <= n <= NSM_MAX_DIM;
      assumes lwork >= n * n;
      ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_ALIAS;
      ensures boolean: \result == NSM_OK ==> (*is_pd == 0 || *is_pd == 1);
      ensures untouched: \result != NSM_OK ==> *is_pd == \old(*is_pd);
    complete behaviors;
    disjoint behaviors;
 */
nsm_status nsm_check_pd(size_t n, const double *A, int *is_pd, double *work, size_t lwork);

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_CHECK_H */
