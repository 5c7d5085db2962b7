/* Product and symmetry residuals: max-abs entries computed on the fly, no workspace. */
#include "nsmech/check.h"

/* What a checker computes from the matrices it is given (chk_run). */
typedef enum chk_core {
    CHK_PROD = 0,      /* max_ij |(A·B − C)_ij| */
    CHK_PROD_NO_C = 1, /* max_ij |(A·B)_ij|; C is not read (pass NULL) */
    CHK_SYM = 2        /* max_ij |(A − Aᵀ)_ij|; B and C are not read (pass NULL) */
} chk_core;

/* Entry (i, j) of the residual a core measures: A − Aᵀ (CHK_SYM), A·B − C (CHK_PROD) or A·B
   (CHK_PROD_NO_C). */
/*@ logic real chk_res{L}(integer core, double *A, double *B, double *C, integer n, integer i,
                          integer j) =
      core == CHK_SYM ? chk_sym_res{L}(A, n, i, j) :
      core == CHK_PROD ? chk_prod_res{L}(A, B, C, 1, n, i, j) :
      chk_prod_res{L}(A, B, C, 0, n, i, j);
 */

/*
 * |chk_res(core, .., i, j)|: for the products, entry (i, j) of A·B summed over k in increasing
 * order (minus C_ij for CHK_PROD); nothing is stored.
 */
/*@ requires core: core == CHK_PROD || core == CHK_PROD_NO_C || core == CHK_SYM;
    requires dim: 1 <= n <= NSM_MAX_DIM;
    requires idx: i < n && j < n;
    requires valid_A: \valid_read(A + (0 .. n*n - 1));
    requires valid_B: core != CHK_SYM ==> \valid_read(B + (0 .. n*n - 1));
    requires valid_C: core == CHK_PROD ==> \valid_read(C + (0 .. n*n - 1));
    assigns \nothing;
    ensures entry_abs: \result == \abs(chk_res(core, A, B, C, n, i, j));
 */
static double chk_entry(chk_core core, size_t n, const double *A, const double *B,
                        const double *C, size_t i, size_t j)
{
    /*@ assert idx_ij: i * n + j < n * n; */
    /*@ assert idx_ji: j * n + i < n * n; */
    double x;
    if (core == CHK_SYM) {
        x = A[i * n + j] - A[j * n + i];
        /*@ assert entry: x == chk_res(core, A, B, C, n, i, j); */
    } else {
        double acc = 0.0;
        /*@ loop invariant k_range: 0 <= k <= n;
            loop invariant partial: acc == chk_dot(A, B, n, i, j, k);
            loop assigns k, acc;
            loop variant n - k;
         */
        for (size_t k = 0; k < n; k++) {
            /*@ assert idx_ik: i * n + k < n * n; */
            /*@ assert idx_kj: k * n + j < n * n; */
            acc += A[i * n + k] * B[k * n + j];
        }
        x = acc;
        if (core == CHK_PROD) {
            x = acc - C[i * n + j];
        }
        /*@ assert entry: x == chk_res(core, A, B, C, n, i, j); */
    }
    return x < 0.0 ? -x : x;
}

/*
 * max_ij |chk_res(core, .., i, j)|, entries visited row by row; C is read for CHK_PROD only,
 * B for the products only.
 */
/*@ requires core: core == CHK_PROD || core == CHK_PROD_NO_C || core == CHK_SYM;
    requires dim: 1 <= n <= NSM_MAX_DIM;
    requires valid_A: \valid_read(A + (0 .. n*n - 1));
    requires valid_B: core != CHK_SYM ==> \valid_read(B + (0 .. n*n - 1));
    requires valid_C: core == CHK_PROD ==> \valid_read(C + (0 .. n*n - 1));
    assigns \nothing;
    ensures prod: core == CHK_PROD ==> chk_prod_max{Pre}(\result, A, B, C, 1, n);
    ensures prod_no_c: core == CHK_PROD_NO_C ==> chk_prod_max{Pre}(\result, A, B, C, 0, n);
    ensures sym: core == CHK_SYM ==> chk_sym_max{Pre}(\result, A, n);
 */
static double chk_max_core(chk_core core, size_t n, const double *A, const double *B,
                           const double *C)
{
    double best = 0.0;
    /*@ loop invariant i_range: 0 <= i <= n;
        loop invariant nonneg: best >= 0;
        loop invariant upper: \forall integer a, b; 0 <= a < i && 0 <= b < n ==>
            \abs(chk_res(core, A, B, C, n, a, b)) <= best;
        loop invariant witness: best == 0 || \exists integer a, b; 0 <= a < i && 0 <= b < n &&
            \abs(chk_res(core, A, B, C, n, a, b)) == best;
        loop assigns i, best;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ loop invariant j_range: 0 <= j <= n;
            loop invariant nonneg: best >= 0;
            loop invariant upper: \forall integer a, b;
                ((0 <= a < i && 0 <= b < n) || (a == i && 0 <= b < j)) ==>
                \abs(chk_res(core, A, B, C, n, a, b)) <= best;
            loop invariant witness: best == 0 || \exists integer a, b;
                ((0 <= a < i && 0 <= b < n) || (a == i && 0 <= b < j)) &&
                \abs(chk_res(core, A, B, C, n, a, b)) == best;
            loop assigns j, best;
            loop variant n - j;
         */
        for (size_t j = 0; j < n; j++) {
            double ax = chk_entry(core, n, A, B, C, i, j);
            if (ax > best) {
                best = ax;
            }
        }
    }
    /*@ assert zero_witness: best == 0 ==> \abs(chk_res(core, A, B, C, n, 0, 0)) == best; */
    /*@ assert all: \forall integer a, b; 0 <= a < n && 0 <= b < n ==>
            \abs(chk_res(core, A, B, C, n, a, b)) <= best; */
    /*@ assert some: \exists integer a, b; 0 <= a < n && 0 <= b < n &&
            \abs(chk_res(core, A, B, C, n, a, b)) == best; */
    /*@ assert prod_eq: core == CHK_PROD ==> \forall integer a, b; 0 <= a < n && 0 <= b < n ==>
            \abs(chk_prod_res(A, B, C, 1, n, a, b)) == \abs(chk_res(core, A, B, C, n, a, b)); */
    /*@ assert no_c_eq: core == CHK_PROD_NO_C ==> \forall integer a, b;
            0 <= a < n && 0 <= b < n ==>
            \abs(chk_prod_res(A, B, C, 0, n, a, b)) == \abs(chk_res(core, A, B, C, n, a, b)); */
    /*@ assert prod_all: core == CHK_PROD ==> \forall integer a, b; 0 <= a < n && 0 <= b < n ==>
            \abs(chk_prod_res(A, B, C, 1, n, a, b)) <= best; */
    /*@ assert prod_some: core == CHK_PROD ==> \exists integer a, b; 0 <= a < n && 0 <= b < n &&
            \abs(chk_prod_res(A, B, C, 1, n, a, b)) == best; */
    /*@ assert no_c_all: core == CHK_PROD_NO_C ==> \forall integer a, b;
            0 <= a < n && 0 <= b < n ==> \abs(chk_prod_res(A, B, C, 0, n, a, b)) <= best; */
    /*@ assert no_c_some: core == CHK_PROD_NO_C ==> \exists integer a, b;
            0 <= a < n && 0 <= b < n && \abs(chk_prod_res(A, B, C, 0, n, a, b)) == best; */
    return best;
}

/* NSM_ERR_NOT_FINITE if any of the (up to three) n×n blocks has a NaN/Inf entry. */
/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires valid_A: \valid_read(A + (0 .. n*n - 1));
    requires valid_B: B == \null || \valid_read(B + (0 .. n*n - 1));
    requires valid_C: C == \null || \valid_read(C + (0 .. n*n - 1));
    assigns \nothing;
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE;
 */
static nsm_status chk_finite3(size_t n, const double *A, const double *B, const double *C)
{
    size_t len = n * n;
    if (!nsm_all_finite(len, A)) {
        return NSM_ERR_NOT_FINITE;
    }
    if (B != NULL && !nsm_all_finite(len, B)) {
        return NSM_ERR_NOT_FINITE;
    }
    if (C != NULL && !nsm_all_finite(len, C)) {
        return NSM_ERR_NOT_FINITE;
    }
    return NSM_OK;
}

/*
 * The one driver of the residual checkers: NULL arguments, then the size, then finiteness of
 * the matrices the core reads (each distinct one scanned once), then *res apart from them,
 * then the core. The NULL test covers exactly the matrices the core reads. *res is written only
 * for valid arguments (the assigns clause says so, for the callers' "assigns \nothing" on errors).
 */
/*@ requires core: core == CHK_PROD || core == CHK_PROD_NO_C || core == CHK_SYM;
    requires valid_A: A == \null || \valid_read(A + (0 .. n*n - 1));
    requires valid_B: B == \null || \valid_read(B + (0 .. n*n - 1));
    requires valid_C: C == \null || \valid_read(C + (0 .. n*n - 1));
    requires valid_res: res == \null || \valid(res);
    assigns res[0 .. ((A != \null && res != \null && (core == CHK_SYM || B != \null) &&
                       (core != CHK_PROD || C != \null) && 1 <= n && n <= NSM_MAX_DIM) ?
                      0 : -1)];
    behavior null_arg:
      assumes A == \null || res == \null || (core != CHK_SYM && B == \null) ||
              (core == CHK_PROD && C == \null);
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes A != \null && res != \null && (core == CHK_SYM || B != \null) &&
              (core != CHK_PROD || C != \null);
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes A != \null && res != \null && (core == CHK_SYM || B != \null) &&
              (core != CHK_PROD || C != \null);
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE ||
                      \result == NSM_ERR_ALIAS;
      ensures untouched: \result != NSM_OK ==> *res == \old(*res);
      ensures prod: \result == NSM_OK && core == CHK_PROD ==>
                    chk_prod_max{Pre}(*res, A, B, C, 1, n);
      ensures prod_no_c: \result == NSM_OK && core == CHK_PROD_NO_C ==>
                         chk_prod_max{Pre}(*res, A, B, \null, 0, n);
      ensures sym: \result == NSM_OK && core == CHK_SYM ==> chk_sym_max{Pre}(*res, A, n);
    complete behaviors;
    disjoint behaviors;
 */
static nsm_status chk_run(chk_core core, size_t n, const double *A, const double *B,
                          const double *C, double *res)
{
    if (A == NULL || res == NULL || (core != CHK_SYM && B == NULL) ||
        (core == CHK_PROD && C == NULL)) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    const double *Bs = (core == CHK_SYM || B == A) ? NULL : B;
    const double *Cs = (core != CHK_PROD || C == A || C == B) ? NULL : C;
    nsm_status st = chk_finite3(n, A, Bs, Cs);
    if (st != NSM_OK) {
        return st;
    }
    size_t nb = n * n * sizeof(double);
    const nsm_span out[1] = {{(uintptr_t)res, sizeof *res}};
    const nsm_span mats[3] = {{(uintptr_t)A, nb},
                              {(uintptr_t)B, core == CHK_SYM ? 0u : nb},
                              {(uintptr_t)C, core == CHK_PROD ? nb : 0u}};
    if (nsm_spans_overlap(1u, out, 3u, mats)) {
        return NSM_ERR_ALIAS;
    }
    *res = chk_max_core(core, n, A, B, core == CHK_PROD ? C : NULL);
    return NSM_OK;
}

nsm_status nsm_check_product(size_t n, const double *A, const double *B, const double *C,
                             double *res)
{
    return chk_run(CHK_PROD, n, A, B, C, res);
}

nsm_status nsm_check_idempotent(size_t n, const double *P, double *res)
{
    return chk_run(CHK_PROD, n, P, P, P, res);
}

nsm_status nsm_check_symmetry(size_t n, const double *P, double *res)
{
    return chk_run(CHK_SYM, n, P, NULL, NULL, res);
}

nsm_status nsm_check_pr(size_t n, const double *P, const double *R, double *res)
{
    return chk_run(CHK_PROD, n, P, R, P, res);
}

nsm_status nsm_check_qs(size_t n, const double *Q, const double *S, double *res)
{
    return chk_run(CHK_PROD, n, Q, S, S, res);
}

nsm_status nsm_check_sq(size_t n, const double *S, const double *Q, double *res)
{
    return chk_run(CHK_PROD, n, S, Q, Q, res);
}

nsm_status nsm_check_plambda(size_t n, const double *P, const double *Lambda, double *res)
{
    return chk_run(CHK_PROD_NO_C, n, P, Lambda, NULL, res);
}
