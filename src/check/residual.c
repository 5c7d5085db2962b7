/* Product and symmetry residuals: max-abs entries computed on the fly, no workspace. */
#include "nsmech/check.h"

/*
 * max_ij |(A·B − C)_ij| (with_c != 0) or max_ij |(A·B)_ij| (with_c == 0; C is not read).
 * Each entry of A·B is summed over k in increasing order; nothing is stored.
 */
/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires valid_A: \valid_read(A + (0 .. n*n - 1));
    requires valid_B: \valid_read(B + (0 .. n*n - 1));
    requires valid_C: with_c != 0 ==> \valid_read(C + (0 .. n*n - 1));
    assigns \nothing;
    ensures max_abs: chk_prod_max{Pre}(\result, A, B, C, with_c, n);
 */
static double chk_prod_core(size_t n, const double *A, const double *B, const double *C,
                            int with_c)
{
    double best = 0.0;
    /*@ loop invariant i_range: 0 <= i <= n;
        loop invariant nonneg: best >= 0;
        loop invariant upper: \forall integer a, b; 0 <= a < i && 0 <= b < n ==>
            \abs(chk_prod_res(A, B, C, with_c, n, a, b)) <= best;
        loop invariant witness: best == 0 || \exists integer a, b; 0 <= a < i && 0 <= b < n &&
            \abs(chk_prod_res(A, B, C, with_c, n, a, b)) == best;
        loop assigns i, best;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row_i: i * n + n <= n * n; */
        /*@ loop invariant j_range: 0 <= j <= n;
            loop invariant nonneg: best >= 0;
            loop invariant upper: \forall integer a, b;
                ((0 <= a < i && 0 <= b < n) || (a == i && 0 <= b < j)) ==>
                \abs(chk_prod_res(A, B, C, with_c, n, a, b)) <= best;
            loop invariant witness: best == 0 || \exists integer a, b;
                ((0 <= a < i && 0 <= b < n) || (a == i && 0 <= b < j)) &&
                \abs(chk_prod_res(A, B, C, with_c, n, a, b)) == best;
            loop assigns j, best;
            loop variant n - j;
         */
        for (size_t j = 0; j < n; j++) {
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
            double x = acc;
            if (with_c != 0) {
                x = acc - C[i * n + j];
            }
            /*@ assert entry: x == chk_prod_res(A, B, C, with_c, n, i, j); */
            double ax = x < 0.0 ? -x : x;
            /*@ assert entry_abs: ax == \abs(chk_prod_res(A, B, C, with_c, n, i, j)); */
            if (ax > best) {
                best = ax;
            }
        }
    }
    /*@ assert zero_witness: best == 0 ==>
            \abs(chk_prod_res(A, B, C, with_c, n, 0, 0)) == best; */
    return best;
}

/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires valid_P: \valid_read(P + (0 .. n*n - 1));
    assigns \nothing;
    ensures max_abs: chk_sym_max{Pre}(\result, P, n);
 */
static double chk_sym_core(size_t n, const double *P)
{
    double best = 0.0;
    /*@ loop invariant i_range: 0 <= i <= n;
        loop invariant nonneg: best >= 0;
        loop invariant upper: \forall integer a, b; 0 <= a < i && 0 <= b < n ==>
            \abs(chk_sym_res(P, n, a, b)) <= best;
        loop invariant witness: best == 0 || \exists integer a, b; 0 <= a < i && 0 <= b < n &&
            \abs(chk_sym_res(P, n, a, b)) == best;
        loop assigns i, best;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row_i: i * n + n <= n * n; */
        /*@ loop invariant j_range: 0 <= j <= n;
            loop invariant nonneg: best >= 0;
            loop invariant upper: \forall integer a, b;
                ((0 <= a < i && 0 <= b < n) || (a == i && 0 <= b < j)) ==>
                \abs(chk_sym_res(P, n, a, b)) <= best;
            loop invariant witness: best == 0 || \exists integer a, b;
                ((0 <= a < i && 0 <= b < n) || (a == i && 0 <= b < j)) &&
                \abs(chk_sym_res(P, n, a, b)) == best;
            loop assigns j, best;
            loop variant n - j;
         */
        for (size_t j = 0; j < n; j++) {
            /*@ assert idx_ij: i * n + j < n * n; */
            /*@ assert idx_ji: j * n + i < n * n; */
            double x = P[i * n + j] - P[j * n + i];
            double ax = x < 0.0 ? -x : x;
            /*@ assert entry_abs: ax == \abs(chk_sym_res(P, n, i, j)); */
            if (ax > best) {
                best = ax;
            }
        }
    }
    /*@ assert zero_witness: best == 0 ==> \abs(chk_sym_res(P, n, 0, 0)) == best; */
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

nsm_status nsm_check_product(size_t n, const double *A, const double *B, const double *C,
                             double *res)
{
    if (A == NULL || B == NULL || C == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    nsm_status st = chk_finite3(n, A, B, C);
    if (st != NSM_OK) {
        return st;
    }
    *res = chk_prod_core(n, A, B, C, 1);
    return NSM_OK;
}

nsm_status nsm_check_idempotent(size_t n, const double *P, double *res)
{
    if (P == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    nsm_status st = chk_finite3(n, P, NULL, NULL);
    if (st != NSM_OK) {
        return st;
    }
    *res = chk_prod_core(n, P, P, P, 1);
    return NSM_OK;
}

nsm_status nsm_check_symmetry(size_t n, const double *P, double *res)
{
    if (P == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    nsm_status st = chk_finite3(n, P, NULL, NULL);
    if (st != NSM_OK) {
        return st;
    }
    *res = chk_sym_core(n, P);
    return NSM_OK;
}

nsm_status nsm_check_pr(size_t n, const double *P, const double *R, double *res)
{
    if (P == NULL || R == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    nsm_status st = chk_finite3(n, P, R, NULL);
    if (st != NSM_OK) {
        return st;
    }
    *res = chk_prod_core(n, P, R, P, 1);
    return NSM_OK;
}

nsm_status nsm_check_qs(size_t n, const double *Q, const double *S, double *res)
{
    if (Q == NULL || S == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    nsm_status st = chk_finite3(n, Q, S, NULL);
    if (st != NSM_OK) {
        return st;
    }
    *res = chk_prod_core(n, Q, S, S, 1);
    return NSM_OK;
}

nsm_status nsm_check_sq(size_t n, const double *S, const double *Q, double *res)
{
    if (S == NULL || Q == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    nsm_status st = chk_finite3(n, S, Q, NULL);
    if (st != NSM_OK) {
        return st;
    }
    *res = chk_prod_core(n, S, Q, Q, 1);
    return NSM_OK;
}

nsm_status nsm_check_plambda(size_t n, const double *P, const double *Lambda, double *res)
{
    if (P == NULL || Lambda == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    nsm_status st = chk_finite3(n, P, Lambda, NULL);
    if (st != NSM_OK) {
        return st;
    }
    *res = chk_prod_core(n, P, Lambda, NULL, 0);
    return NSM_OK;
}
