/* Skew-symmetry residual of dM̄/dt − 2C̄ (docs/math.md (P10); [D] eq. 10). */
#include <float.h>
#include "nsmech/check.h"

/*
 * W1 = M·P and W2 = Ṁ·P + M·Ṗ (n×n each), entries summed over k in increasing order.
 */
/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires valid_in: \valid_read(M + (0 .. n*n - 1)) && \valid_read(Md + (0 .. n*n - 1)) &&
                       \valid_read(P + (0 .. n*n - 1)) && \valid_read(Pd + (0 .. n*n - 1));
    requires valid_W: \valid(W1 + (0 .. n*n - 1)) && \valid(W2 + (0 .. n*n - 1));
    assigns W1[0 .. n*n - 1], W2[0 .. n*n - 1];
 */
static void chk_skew_products(size_t n, const double *M, const double *Md, const double *P,
                              const double *Pd, double *W1, double *W2)
{
    /*@ loop invariant a_range: 0 <= a <= n;
        loop assigns a, W1[0 .. n*n - 1], W2[0 .. n*n - 1];
        loop variant n - a;
     */
    for (size_t a = 0; a < n; a++) {
        /*@ assert row_a: a * n + n <= n * n; */
        /*@ loop invariant b_range: 0 <= b <= n;
            loop assigns b, W1[0 .. n*n - 1], W2[0 .. n*n - 1];
            loop variant n - b;
         */
        for (size_t b = 0; b < n; b++) {
            double s1 = 0.0;
            double s2 = 0.0;
            /*@ loop invariant k_range: 0 <= k <= n;
                loop assigns k, s1, s2;
                loop variant n - k;
             */
            for (size_t k = 0; k < n; k++) {
                /*@ assert idx_ak: a * n + k < n * n; */
                /*@ assert idx_kb: k * n + b < n * n; */
                double mak = M[a * n + k];
                s1 += mak * P[k * n + b];
                s2 += Md[a * n + k] * P[k * n + b] + mak * Pd[k * n + b];
            }
            /*@ assert idx_ab: a * n + b < n * n; */
            W1[a * n + b] = s1;
            W2[a * n + b] = s2;
        }
    }
}

/* (Ṗ·W1 + P·W2)_ij, summed over t in increasing order. */
/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires idx: i < n && j < n;
    requires valid_in: \valid_read(P + (0 .. n*n - 1)) && \valid_read(Pd + (0 .. n*n - 1)) &&
                       \valid_read(W1 + (0 .. n*n - 1)) && \valid_read(W2 + (0 .. n*n - 1));
    assigns \nothing;
    ensures sum: \result == chk_skw_sum(Pd, P, W1, W2, n, i, j, n);
 */
static double chk_skew_entry(size_t n, const double *P, const double *Pd, const double *W1,
                             const double *W2, size_t i, size_t j)
{
    double d = 0.0;
    /*@ assert row_i: i * n + n <= n * n; */
    /*@ loop invariant t_range: 0 <= t <= n;
        loop invariant partial: d == chk_skw_sum(Pd, P, W1, W2, n, i, j, t);
        loop assigns t, d;
        loop variant n - t;
     */
    for (size_t t = 0; t < n; t++) {
        /*@ assert idx_tj: t * n + j < n * n; */
        d += Pd[i * n + t] * W1[t * n + j] + P[i * n + t] * W2[t * n + j];
    }
    return d;
}

/*
 * max_ij |(D + Dᵀ)_ij| with D = Ṗ·W1 + P·W2 − μṖ − 2C̄ (W1, W2 as left by chk_skew_products).
 * Only pairs i <= j are evaluated: the residual matrix is symmetric.
 */
/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires valid_in: \valid_read(P + (0 .. n*n - 1)) && \valid_read(Pd + (0 .. n*n - 1)) &&
                       \valid_read(W1 + (0 .. n*n - 1)) && \valid_read(W2 + (0 .. n*n - 1)) &&
                       \valid_read(Cb + (0 .. n*n - 1));
    assigns \nothing;
    ensures max_abs: chk_skw_max{Pre}(\result, Pd, P, W1, W2, Cb, mu, n);
 */
static double chk_skew_maxabs(size_t n, const double *P, const double *Pd, const double *W1,
                              const double *W2, const double *Cb, double mu)
{
    double best = 0.0;
    /*@ loop invariant i_range: 0 <= i <= n;
        loop invariant nonneg: best >= 0;
        loop invariant upper: \forall integer a, b; 0 <= a < i && a <= b < n ==>
            \abs(chk_skw_res(Pd, P, W1, W2, Cb, mu, n, a, b)) <= best &&
            \abs(chk_skw_res(Pd, P, W1, W2, Cb, mu, n, b, a)) <= best;
        loop invariant witness: best == 0 || \exists integer a, b; 0 <= a < i && a <= b < n &&
            \abs(chk_skw_res(Pd, P, W1, W2, Cb, mu, n, a, b)) == best;
        loop assigns i, best;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row_i: i * n + n <= n * n; */
        /*@ loop invariant j_range: i <= j <= n;
            loop invariant nonneg: best >= 0;
            loop invariant upper: \forall integer a, b;
                ((0 <= a < i && a <= b < n) || (a == i && i <= b < j)) ==>
                \abs(chk_skw_res(Pd, P, W1, W2, Cb, mu, n, a, b)) <= best &&
                \abs(chk_skw_res(Pd, P, W1, W2, Cb, mu, n, b, a)) <= best;
            loop invariant witness: best == 0 || \exists integer a, b;
                ((0 <= a < i && a <= b < n) || (a == i && i <= b < j)) &&
                \abs(chk_skw_res(Pd, P, W1, W2, Cb, mu, n, a, b)) == best;
            loop assigns j, best;
            loop variant n - j;
         */
        for (size_t j = i; j < n; j++) {
            double dij = chk_skew_entry(n, P, Pd, W1, W2, i, j);
            double dji = chk_skew_entry(n, P, Pd, W1, W2, j, i);
            /*@ assert idx_ij: i * n + j < n * n; */
            /*@ assert idx_ji: j * n + i < n * n; */
            double x = (dij - mu * Pd[i * n + j] - 2.0 * Cb[i * n + j])
                     + (dji - mu * Pd[j * n + i] - 2.0 * Cb[j * n + i]);
            /*@ assert entry: x == chk_skw_res(Pd, P, W1, W2, Cb, mu, n, i, j); */
            /*@ assert entry_sym: x == chk_skw_res(Pd, P, W1, W2, Cb, mu, n, j, i); */
            double ax = x < 0.0 ? -x : x;
            /*@ assert entry_abs: ax == \abs(chk_skw_res(Pd, P, W1, W2, Cb, mu, n, i, j)); */
            if (ax > best) {
                best = ax;
            }
        }
    }
    /*@ assert zero_witness: best == 0 ==>
            \abs(chk_skw_res(Pd, P, W1, W2, Cb, mu, n, 0, 0)) == best; */
    return best;
}

size_t nsm_check_skew_work(size_t n)
{
    if (!nsm_dim_ok(n)) {
        return 0;
    }
    return 2u * n * n;
}

/* NSM_ERR_NOT_FINITE if any of the five n×n inputs has a NaN/Inf entry. */
/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires valid_in: \valid_read(A + (0 .. n*n - 1)) && \valid_read(B + (0 .. n*n - 1)) &&
                       \valid_read(C + (0 .. n*n - 1)) && \valid_read(D + (0 .. n*n - 1)) &&
                       \valid_read(E + (0 .. n*n - 1));
    assigns \nothing;
    ensures status: \result == NSM_OK || \result == NSM_ERR_NOT_FINITE;
 */
static nsm_status chk_finite5(size_t n, const double *A, const double *B, const double *C,
                              const double *D, const double *E)
{
    size_t len = n * n;
    if (!nsm_all_finite(len, A) || !nsm_all_finite(len, B) || !nsm_all_finite(len, C) ||
        !nsm_all_finite(len, D) || !nsm_all_finite(len, E)) {
        return NSM_ERR_NOT_FINITE;
    }
    return NSM_OK;
}

/* None of skew_core's seven pointer arguments is null. */
/*@ predicate skew_args_set(double *P, double *Pdot, double *M, double *Mdot, double *Cbar,
                            double *res, double *work) =
      P != \null && Pdot != \null && M != \null && Mdot != \null && Cbar != \null &&
      res != \null && work != \null;
 */

/* The former entry point on the fields of the inputs' structure (its contract unchanged); in_at
   is the structure's address, whose bytes res and work may not overlap either. */
/*@ requires valid_P: P == \null || \valid_read(P + (0 .. n*n - 1));
    requires valid_Pd: Pdot == \null || \valid_read(Pdot + (0 .. n*n - 1));
    requires valid_M: M == \null || \valid_read(M + (0 .. n*n - 1));
    requires valid_Md: Mdot == \null || \valid_read(Mdot + (0 .. n*n - 1));
    requires valid_Cb: Cbar == \null || \valid_read(Cbar + (0 .. n*n - 1));
    requires valid_res: res == \null || \valid(res);
    requires valid_work: work == \null || \valid(work + (0 .. lwork - 1));
    assigns *res, work[0 .. lwork - 1];
    behavior null_arg:
      assumes !skew_args_set(P, Pdot, M, Mdot, Cbar, res, work);
      assigns \nothing;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes skew_args_set(P, Pdot, M, Mdot, Cbar, res, work);
      assumes n == 0 || n > NSM_MAX_DIM;
      assigns \nothing;
      ensures \result == NSM_ERR_SIZE;
    behavior small_work:
      assumes skew_args_set(P, Pdot, M, Mdot, Cbar, res, work);
      assumes 1 <= n <= NSM_MAX_DIM;
      assumes lwork < 2 * n * n;
      assigns \nothing;
      ensures \result == NSM_ERR_WORKSPACE;
    behavior valid_args:
      assumes skew_args_set(P, Pdot, M, Mdot, Cbar, res, work);
      assumes 1 <= n <= NSM_MAX_DIM;
      assumes lwork >= 2 * n * n;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_NOT_FINITE || \result == NSM_ERR_ALIAS;
      ensures bad_mu: !(mu > 0) ==> \result == NSM_ERR_ARG;
      ensures untouched: \result != NSM_OK ==> *res == \old(*res);
      ensures nonneg: \result == NSM_OK ==> *res >= 0;
    complete behaviors;
    disjoint behaviors;
 */
static nsm_status skew_core(size_t n, const double *P, const double *Pdot, const double *M,
                            const double *Mdot, const double *Cbar, double mu, double *res,
                            double *work, size_t lwork, uintptr_t in_at)
{
    if (P == NULL || Pdot == NULL || M == NULL || Mdot == NULL || Cbar == NULL ||
        res == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    size_t nn = n * n;
    size_t need = 2u * nn;
    if (lwork < need) {
        return NSM_ERR_WORKSPACE;
    }
    /* Rejects mu <= 0, NaN and +Inf. */
    if (!(mu > 0.0 && mu <= DBL_MAX)) {
        return NSM_ERR_ARG;
    }
    nsm_status st = chk_finite5(n, P, Pdot, M, Mdot, Cbar);
    if (st != NSM_OK) {
        return st;
    }
    size_t nb = nn * sizeof(double);
    const nsm_span out[2] = {{(uintptr_t)res, sizeof *res}, {(uintptr_t)work, 2u * nb}};
    const nsm_span args[6] = {{(uintptr_t)P, nb},    {(uintptr_t)Pdot, nb},
                              {(uintptr_t)M, nb},    {(uintptr_t)Mdot, nb},
                              {(uintptr_t)Cbar, nb}, {in_at, sizeof(nsm_check_skew_input)}};
    if (nsm_spans_overlap(2u, out, 6u, args)) {
        return NSM_ERR_ALIAS;
    }
    chk_skew_products(n, M, Mdot, P, Pdot, work, work + nn);
    double r = chk_skew_maxabs(n, P, Pdot, work, work + nn, Cbar, mu);
    /*@ assert nonneg: r >= 0; */
    *res = r;
    return NSM_OK;
}

/* The null, size and workspace checks (the error behaviours write nothing), then the inputs'
   fields for the former entry point. */
nsm_status nsm_check_skew(size_t n, const nsm_check_skew_input *in, double *res, double *work,
                          size_t lwork)
{
    if (in == NULL || in->P == NULL || in->Pdot == NULL || in->M == NULL || in->Mdot == NULL ||
        in->Cbar == NULL || res == NULL || work == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    if (lwork < 2u * n * n) {
        return NSM_ERR_WORKSPACE;
    }
    return skew_core(n, in->P, in->Pdot, in->M, in->Mdot, in->Cbar, in->mu, res, work, lwork,
                     (uintptr_t)in);
}
