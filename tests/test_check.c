/*
 * Tests of module check: residual max-abs values against independent computations (integer
 * matrices with exact products, long-double plain loops from prop.h, closed forms of known
 * perturbations), the definiteness test against LAPACK's dpotrf, and every error status.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include "harness.h"
#include "prop.h"
#include "nsmech.h"

#define NMAX 12
#define NN (NMAX * NMAX)

/* ---------------------------------------------------------------------------------------- */
/* Generators                                                                                 */
/* ---------------------------------------------------------------------------------------- */

/* nsm_check_skew with its inputs' structure built from one argument per matrix. */
static nsm_status t_skew(size_t n, const double *P, const double *Pdot, const double *M,
                         const double *Mdot, const double *Cbar, double mu, double *res,
                         double *work, size_t lwork)
{
    const nsm_check_skew_input in = {P, Pdot, M, Mdot, Cbar, mu};
    return nsm_check_skew(n, &in, res, work, lwork);
}

/* Integer-valued matrix with entries in [-lim, lim]: products of these are exact in double. */
static void int_matrix(nsm_rng *r, size_t n, int lim, double *A)
{
    for (size_t i = 0; i < n * n; i++) {
        A[i] = (double)((int)nsm_rng_index(r, 0, (size_t)(2 * lim)) - lim);
    }
}

static void gauss_matrix(nsm_rng *r, size_t n, double *A)
{
    prop_vector(r, n * n, A);
}

/* Orthogonal projector P of rank n − r onto span of n − r columns of a Haar orthogonal
   matrix (r = rank of the "constraints"), and Q = I − P computed as the complementary sum. */
static void random_projector(nsm_rng *r, size_t n, size_t rk, double *P, double *Q)
{
    double V[NN];
    prop_orthogonal(r, n, V);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            long double p = 0.0L, q = 0.0L;
            for (size_t k = 0; k < n; k++) {
                long double t = (long double)V[i * n + k] * V[j * n + k];
                if (k < rk) {
                    q += t;
                } else {
                    p += t;
                }
            }
            P[i * n + j] = (double)p;
            Q[i * n + j] = (double)q;
        }
    }
}

/* max_ij |X_ij| of a plain array. */
static double maxabs(size_t n, const double *X)
{
    return tm_maxabs(n * n, X);
}

/* C = A·B − D in long double (D may be NULL). */
static void prod_minus(size_t n, const double *A, const double *B, const double *D, double *C)
{
    tm_matmul(n, n, n, A, B, C);
    if (D != NULL) {
        for (size_t i = 0; i < n * n; i++) {
            C[i] -= D[i];
        }
    }
}

static int close_to(double got, double want, double tol)
{
    return fabs(got - want) <= tol * (1.0 + fabs(want));
}

/* ---------------------------------------------------------------------------------------- */
/* Exact semantics on integer matrices: the max-abs entry, bit for bit.                       */
/* ---------------------------------------------------------------------------------------- */

static int prop_exact_int(nsm_rng *r, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t n = nsm_rng_index(r, 1, NMAX);
    double A[NN], B[NN], C[NN], X[NN], Xt[NN], res;
    int_matrix(r, n, 9, A);
    int_matrix(r, n, 9, B);
    int_matrix(r, n, 99, C);

    /* A·B − C */
    prod_minus(n, A, B, C, X);
    if (nsm_check_product(n, A, B, C, &res) != NSM_OK || res != maxabs(n, X)) {
        snprintf(msg, len, "product n=%zu: %.17g vs %.17g", n, res, maxabs(n, X));
        return 1;
    }
    /* A² − A */
    prod_minus(n, A, A, A, X);
    if (nsm_check_idempotent(n, A, &res) != NSM_OK || res != maxabs(n, X)) {
        snprintf(msg, len, "idempotent n=%zu: %.17g vs %.17g", n, res, maxabs(n, X));
        return 1;
    }
    /* A·B − A (PR − P), A·B − B (QS − S), A·B − B with roles (SQ − Q) */
    prod_minus(n, A, B, A, X);
    if (nsm_check_pr(n, A, B, &res) != NSM_OK || res != maxabs(n, X)) {
        snprintf(msg, len, "pr n=%zu: %.17g vs %.17g", n, res, maxabs(n, X));
        return 1;
    }
    prod_minus(n, A, B, B, X);
    if (nsm_check_qs(n, A, B, &res) != NSM_OK || res != maxabs(n, X)) {
        snprintf(msg, len, "qs n=%zu: %.17g vs %.17g", n, res, maxabs(n, X));
        return 1;
    }
    if (nsm_check_sq(n, A, B, &res) != NSM_OK || res != maxabs(n, X)) {
        snprintf(msg, len, "sq n=%zu: %.17g vs %.17g", n, res, maxabs(n, X));
        return 1;
    }
    /* A·B */
    prod_minus(n, A, B, NULL, X);
    if (nsm_check_plambda(n, A, B, &res) != NSM_OK || res != maxabs(n, X)) {
        snprintf(msg, len, "plambda n=%zu: %.17g vs %.17g", n, res, maxabs(n, X));
        return 1;
    }
    /* C − Cᵀ */
    tm_transpose(n, n, C, Xt);
    for (size_t i = 0; i < n * n; i++) {
        X[i] = C[i] - Xt[i];
    }
    if (nsm_check_symmetry(n, C, &res) != NSM_OK || res != maxabs(n, X)) {
        snprintf(msg, len, "symmetry n=%zu: %.17g vs %.17g", n, res, maxabs(n, X));
        return 1;
    }
    return 0;
}

static void test_exact_integer(void)
{
    prop_run("check: exact max-abs on integer matrices", prop_exact_int, NULL, 1000);
}

/* ---------------------------------------------------------------------------------------- */
/* Projectors: exact ones give ~0, perturbed ones the closed-form residual.                   */
/* ---------------------------------------------------------------------------------------- */

/* Random K (n×n), R = P + Q K P (PR = P, R² = R), S = Q + Q K P (S² = S, QS = S, SQ = Q),
   Λ = Q K (PΛ = 0). A perturbation δ·e_a e_bᵀ gives closed-form residuals. */
static int prop_projectors(nsm_rng *r, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t n = nsm_rng_index(r, 1, NMAX);
    size_t rk = nsm_rng_index(r, 0, n);
    double P[NN], Q[NN], K[NN], QK[NN], QKP[NN], R[NN], S[NN], L[NN];
    random_projector(r, n, rk, P, Q);
    gauss_matrix(r, n, K);
    tm_matmul(n, n, n, Q, K, QK);
    tm_matmul(n, n, n, QK, P, QKP);
    for (size_t i = 0; i < n * n; i++) {
        R[i] = P[i] + QKP[i];
        S[i] = Q[i] + QKP[i];
        L[i] = QK[i];
    }
    const double tol = 1e-13 * (double)n * 10.0;

    /* exact identities: residuals at rounding level */
    double got[8];
    nsm_status st[8];
    st[0] = nsm_check_idempotent(n, P, &got[0]);
    st[1] = nsm_check_symmetry(n, P, &got[1]);
    st[2] = nsm_check_pr(n, P, R, &got[2]);
    st[3] = nsm_check_idempotent(n, R, &got[3]);
    st[4] = nsm_check_idempotent(n, S, &got[4]);
    st[5] = nsm_check_qs(n, Q, S, &got[5]);
    st[6] = nsm_check_sq(n, S, Q, &got[6]);
    st[7] = nsm_check_plambda(n, P, L, &got[7]);
    for (int k = 0; k < 8; k++) {
        double scale = 1.0 + maxabs(n, K) * maxabs(n, K);
        if (st[k] != NSM_OK || !(got[k] >= 0.0) || got[k] > tol * scale) {
            snprintf(msg, len, "identity %d n=%zu r=%zu: status %d residual %.3g", k, n, rk,
                     (int)st[k], got[k]);
            return 1;
        }
    }

    /* perturbations with known residuals */
    size_t a = nsm_rng_index(r, 0, n - 1), b = nsm_rng_index(r, 0, n - 1);
    double delta = nsm_rng_range(r, 0.1, 1.0) * (nsm_rng_uniform(r) < 0.5 ? -1.0 : 1.0);
    double want, colPa = 0.0, rowQb = 0.0;
    for (size_t i = 0; i < n; i++) {
        colPa = fmax(colPa, fabs(P[i * n + a]));
        rowQb = fmax(rowQb, fabs(Q[b * n + i]));
    }
    double X[NN];
    /* P' = P + δ e_a e_bᵀ: P'² − P' = δ(P_{:,a} e_bᵀ + e_a P_{b,:} − e_a e_bᵀ) + δ²[a=b] e_a e_bᵀ */
    double Pp[NN];
    memcpy(Pp, P, sizeof(double) * n * n);
    Pp[a * n + b] += delta;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            double x = 0.0;
            if (j == b) {
                x += delta * P[i * n + a];
            }
            if (i == a) {
                x += delta * P[b * n + j];
            }
            if (i == a && j == b) {
                x -= delta;
                if (a == b) {
                    x += delta * delta;
                }
            }
            X[i * n + j] = x;
        }
    }
    want = maxabs(n, X);
    if (nsm_check_idempotent(n, Pp, &got[0]) != NSM_OK || !close_to(got[0], want, tol)) {
        snprintf(msg, len, "perturbed P n=%zu: %.17g vs %.17g", n, got[0], want);
        return 1;
    }
    /* symmetry of P': |δ| when a ≠ b, else 0 */
    want = (a != b) ? fabs(delta) : 0.0;
    if (nsm_check_symmetry(n, Pp, &got[1]) != NSM_OK || !close_to(got[1], want, tol)) {
        snprintf(msg, len, "perturbed symmetry n=%zu: %.17g vs %.17g", n, got[1], want);
        return 1;
    }
    /* R' = R + δ e_a e_bᵀ: PR' − P = δ P_{:,a} e_bᵀ */
    double Rp[NN];
    memcpy(Rp, R, sizeof(double) * n * n);
    Rp[a * n + b] += delta;
    want = fabs(delta) * colPa;
    if (nsm_check_pr(n, P, Rp, &got[2]) != NSM_OK || !close_to(got[2], want, tol)) {
        snprintf(msg, len, "perturbed R n=%zu: %.17g vs %.17g", n, got[2], want);
        return 1;
    }
    /* S' = S + δ e_a e_bᵀ: QS' − S' = −δ P_{:,a} e_bᵀ;  S'Q − Q = δ e_a Q_{b,:} */
    double Sp[NN];
    memcpy(Sp, S, sizeof(double) * n * n);
    Sp[a * n + b] += delta;
    if (nsm_check_qs(n, Q, Sp, &got[3]) != NSM_OK || !close_to(got[3], want, tol)) {
        snprintf(msg, len, "perturbed QS n=%zu: %.17g vs %.17g", n, got[3], want);
        return 1;
    }
    want = fabs(delta) * rowQb;
    if (nsm_check_sq(n, Sp, Q, &got[4]) != NSM_OK || !close_to(got[4], want, tol)) {
        snprintf(msg, len, "perturbed SQ n=%zu: %.17g vs %.17g", n, got[4], want);
        return 1;
    }
    /* Λ' = Λ + δ e_a e_bᵀ: PΛ' = δ P_{:,a} e_bᵀ */
    double Lp[NN];
    memcpy(Lp, L, sizeof(double) * n * n);
    Lp[a * n + b] += delta;
    want = fabs(delta) * colPa;
    if (nsm_check_plambda(n, P, Lp, &got[5]) != NSM_OK || !close_to(got[5], want, tol)) {
        snprintf(msg, len, "perturbed Lambda n=%zu: %.17g vs %.17g", n, got[5], want);
        return 1;
    }
    return 0;
}

static void test_projectors(void)
{
    prop_run("check: projector identities and known perturbations", prop_projectors, NULL, 1000);
}

/* Gaussian (non-integer) matrices: the residual equals the long-double plain-loop value to
   rounding. */
static int prop_gauss(nsm_rng *r, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t n = nsm_rng_index(r, 1, NMAX);
    double A[NN], B[NN], C[NN], X[NN], res;
    gauss_matrix(r, n, A);
    gauss_matrix(r, n, B);
    gauss_matrix(r, n, C);
    prod_minus(n, A, B, C, X);
    double want = maxabs(n, X);
    double tol = 1e-14 * (double)n * (1.0 + maxabs(n, A) * maxabs(n, B));
    if (nsm_check_product(n, A, B, C, &res) != NSM_OK || fabs(res - want) > tol) {
        snprintf(msg, len, "n=%zu: %.17g vs %.17g", n, res, want);
        return 1;
    }
    return 0;
}

static void test_gauss(void)
{
    prop_run("check: product residual vs long-double plain loops", prop_gauss, NULL, 1000);
}

/* ---------------------------------------------------------------------------------------- */
/* Skew-symmetry residual                                                                     */
/* ---------------------------------------------------------------------------------------- */

/* Oracle: D = ṖMP + PṀP + PMṖ − μṖ − 2C̄ with products associated as (ṖM)P, (PṀ)P, (PM)Ṗ in
   long double, then max |D + Dᵀ|. */
static double skew_oracle(size_t n, const double *P, const double *Pd, const double *M,
                          const double *Md, const double *Cb, double mu)
{
    double T[NN], U[NN], D[NN];
    for (size_t i = 0; i < n * n; i++) {
        D[i] = -mu * Pd[i] - 2.0 * Cb[i];
    }
    tm_matmul(n, n, n, Pd, M, T);
    tm_matmul(n, n, n, T, P, U);
    for (size_t i = 0; i < n * n; i++) {
        D[i] += U[i];
    }
    tm_matmul(n, n, n, P, Md, T);
    tm_matmul(n, n, n, T, P, U);
    for (size_t i = 0; i < n * n; i++) {
        D[i] += U[i];
    }
    tm_matmul(n, n, n, P, M, T);
    tm_matmul(n, n, n, T, Pd, U);
    for (size_t i = 0; i < n * n; i++) {
        D[i] += U[i];
    }
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            m = fmax(m, fabs(D[i * n + j] + D[j * n + i]));
        }
    }
    return m;
}

static int prop_skew_random(nsm_rng *r, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t n = nsm_rng_index(r, 1, NMAX);
    double P[NN], Pd[NN], M[NN], Md[NN], Cb[NN], work[2 * NN], res;
    gauss_matrix(r, n, P);
    gauss_matrix(r, n, Pd);
    gauss_matrix(r, n, M);
    gauss_matrix(r, n, Md);
    gauss_matrix(r, n, Cb);
    double mu = nsm_rng_range(r, 0.1, 10.0);
    double want = skew_oracle(n, P, Pd, M, Md, Cb, mu);
    double s = maxabs(n, P);
    double scale = 1.0 + mu + 3.0 * s * s * maxabs(n, M) + s * s * maxabs(n, Md);
    nsm_status st = t_skew(n, P, Pd, M, Md, Cb, mu, &res, work, 2 * n * n);
    if (st != NSM_OK || fabs(res - want) > 1e-13 * (double)(n * n) * scale) {
        snprintf(msg, len, "n=%zu status %d: %.17g vs %.17g", n, (int)st, res, want);
        return 1;
    }
    return 0;
}

static void test_skew_random(void)
{
    prop_run("check: skew residual vs long-double plain loops", prop_skew_random, NULL, 1000);
}

/* Consistent data (docs/math.md (P10); [D] eq. 10): A (m×n, full row rank), Ȧ, P = I − A⁺A,
   Λ = −A⁺Ȧ, Ṗ = ΛP + PΛᵀ, M SPD, Ṁ symmetric, K skew, C = (Ṁ + K)/2,
   C̄ = PCP + PM(ΛP + PΛᵀ) − μΛP. Then dM̄/dt − 2C̄ is skew: the residual is at rounding level.
   Perturbing C̄ by δ e_a e_bᵀ gives the residual 2|δ| (a ≠ b) or 4|δ| (a = b). */
static int prop_skew_consistent(nsm_rng *r, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t n = nsm_rng_index(r, 2, NMAX);
    size_t m = nsm_rng_index(r, 1, n - 1);
    double A[NN], Ad[NN], AAt[NN], X[NN], Ap[NN], P[NN], L[NN], Pd[NN], M[NN], Md[NN];
    double K[NN], C[NN], Cb[NN], T[NN], U[NN], work[2 * NN], res;
    prop_vector(r, m * n, A);
    prop_vector(r, m * n, Ad);
    /* A⁺ = Aᵀ(AAᵀ)⁻¹ by LAPACK: solve (AAᵀ) X = A, A⁺ = Xᵀ */
    tm_matmul_nt(m, m, n, A, A, AAt);
    memcpy(X, A, sizeof(double) * m * n);
    lapack_int ipiv[NMAX];
    if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, (lapack_int)m, (lapack_int)n, AAt, (lapack_int)m, ipiv,
                      X, (lapack_int)n) != 0) {
        return 0; /* singular draw: nothing to check */
    }
    tm_transpose(m, n, X, Ap);
    /* P = I − A⁺A, Λ = −A⁺Ȧ */
    tm_matmul(n, n, m, Ap, A, T);
    tm_matmul(n, n, m, Ap, Ad, L);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            P[i * n + j] = (i == j ? 1.0 : 0.0) - 0.5 * (T[i * n + j] + T[j * n + i]);
        }
    }
    for (size_t i = 0; i < n * n; i++) {
        L[i] = -L[i];
    }
    /* Ṗ = ΛP + PΛᵀ */
    tm_matmul(n, n, n, L, P, T);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            Pd[i * n + j] = T[i * n + j] + T[j * n + i];
        }
    }
    prop_spd(r, n, 100.0, 1.0, M);
    gauss_matrix(r, n, Md);
    gauss_matrix(r, n, K);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j <= i; j++) {
            double s = 0.5 * (Md[i * n + j] + Md[j * n + i]);
            Md[i * n + j] = Md[j * n + i] = s;
            double k = (i == j) ? 0.0 : K[i * n + j];
            K[i * n + j] = k;
            K[j * n + i] = -k;
        }
    }
    for (size_t i = 0; i < n * n; i++) {
        C[i] = 0.5 * (Md[i] + K[i]);
    }
    double mu = nsm_rng_range(r, 0.5, 5.0);
    /* C̄ = PCP + PM(ΛP + PΛᵀ) − μΛP ; note ΛP + PΛᵀ = Ṗ */
    tm_matmul(n, n, n, P, C, T);
    tm_matmul(n, n, n, T, P, Cb);
    tm_matmul(n, n, n, P, M, T);
    tm_matmul(n, n, n, T, Pd, U);
    for (size_t i = 0; i < n * n; i++) {
        Cb[i] += U[i];
    }
    tm_matmul(n, n, n, L, P, T);
    for (size_t i = 0; i < n * n; i++) {
        Cb[i] -= mu * T[i];
    }
    double scale = 1.0 + mu + maxabs(n, M) + maxabs(n, Md) + maxabs(n, L) * maxabs(n, M);
    double tol = 1e-12 * (double)n * scale * (1.0 + maxabs(n, L));
    nsm_status st = t_skew(n, P, Pd, M, Md, Cb, mu, &res, work, 2 * n * n);
    if (st != NSM_OK || res > tol) {
        snprintf(msg, len, "n=%zu m=%zu status %d: residual %.3g > %.3g", n, m, (int)st, res,
                 tol);
        return 1;
    }
    size_t a = nsm_rng_index(r, 0, n - 1), b = nsm_rng_index(r, 0, n - 1);
    double delta = nsm_rng_range(r, 0.5, 2.0);
    Cb[a * n + b] += delta;
    double want = (a == b ? 4.0 : 2.0) * delta;
    st = t_skew(n, P, Pd, M, Md, Cb, mu, &res, work, 2 * n * n);
    if (st != NSM_OK || fabs(res - want) > tol + 1e-12 * want) {
        snprintf(msg, len, "perturbed n=%zu: %.17g vs %.17g", n, res, want);
        return 1;
    }
    return 0;
}

static void test_skew_consistent(void)
{
    prop_run("check: skew-symmetry of dMbar/dt - 2Cbar (eq. 10)", prop_skew_consistent, NULL,
             1000);
}

/* ---------------------------------------------------------------------------------------- */
/* Positive definiteness against LAPACK dpotrf                                                */
/* ---------------------------------------------------------------------------------------- */

/* Symmetric matrix with eigenvalues of random sign and magnitude in [0.1, 10], plus a random
   skew part (which does not change xᵀAx). */
static int prop_pd(nsm_rng *r, void *ctx, char *msg, size_t len)
{
    (void)ctx;
    size_t n = nsm_rng_index(r, 1, NMAX);
    double V[NN], A[NN], Sym[NN], work[NN];
    prop_orthogonal(r, n, V);
    double lam[NMAX];
    int want_pd = nsm_rng_uniform(r) < 0.5;
    for (size_t k = 0; k < n; k++) {
        lam[k] = nsm_rng_range(r, 0.1, 10.0);
    }
    if (!want_pd) {
        size_t neg = nsm_rng_index(r, 1, n);
        for (size_t k = 0; k < neg; k++) {
            lam[nsm_rng_index(r, 0, n - 1)] *= -1.0;
        }
        lam[0] = -fabs(lam[0]);
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            long double s = 0.0L;
            for (size_t k = 0; k < n; k++) {
                s += (long double)V[i * n + k] * lam[k] * V[j * n + k];
            }
            Sym[i * n + j] = (double)s;
        }
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            double s = 0.5 * (Sym[i * n + j] + Sym[j * n + i]);
            A[i * n + j] = s;
        }
    }
    memcpy(Sym, A, sizeof(double) * n * n);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < i; j++) {
            double k = nsm_rng_normal(r);
            A[i * n + j] += k;
            A[j * n + i] -= k;
        }
    }
    lapack_int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, Sym, (lapack_int)n);
    int lapack_pd = (info == 0);
    int is_pd = -1;
    nsm_status st = nsm_check_pd(n, A, &is_pd, work, n * n);
    if (st != NSM_OK || is_pd != lapack_pd || is_pd != want_pd) {
        snprintf(msg, len, "n=%zu status %d: is_pd %d, dpotrf %d, constructed %d", n, (int)st,
                 is_pd, lapack_pd, want_pd);
        return 1;
    }
    return 0;
}

static void test_pd(void)
{
    prop_run("check: definiteness vs LAPACK dpotrf", prop_pd, NULL, 1000);
}

static void test_pd_fixed(void)
{
    double work[9];
    int is_pd = -1;
    double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    CU_ASSERT_EQUAL(nsm_check_pd(3, I3, &is_pd, work, 9), NSM_OK);
    CU_ASSERT_EQUAL(is_pd, 1);
    double Z[9] = {0};
    CU_ASSERT_EQUAL(nsm_check_pd(3, Z, &is_pd, work, 9), NSM_OK);
    CU_ASSERT_EQUAL(is_pd, 0);
    double semi[4] = {1, 1, 1, 1}; /* PSD, singular */
    CU_ASSERT_EQUAL(nsm_check_pd(2, semi, &is_pd, work, 4), NSM_OK);
    CU_ASSERT_EQUAL(is_pd, 0);
    double skew[4] = {1, 5, -5, 1}; /* symmetric part I */
    CU_ASSERT_EQUAL(nsm_check_pd(2, skew, &is_pd, work, 4), NSM_OK);
    CU_ASSERT_EQUAL(is_pd, 1);
    double huge[4] = {1e308, 0, 0, -1e308};
    CU_ASSERT_EQUAL(nsm_check_pd(2, huge, &is_pd, work, 4), NSM_OK);
    CU_ASSERT_EQUAL(is_pd, 0);
    /* M̄ = PMP + μQ is PD for μ > 0 and singular for μ = 0 when rank > 0 */
    double P[4] = {0.5, 0.5, 0.5, 0.5}, Mb[4];
    double M[4] = {2, 0.3, 0.3, 1};
    double PM[4], PMP[4];
    tm_matmul(2, 2, 2, P, M, PM);
    tm_matmul(2, 2, 2, PM, P, PMP);
    for (int i = 0; i < 4; i++) {
        Mb[i] = PMP[i] + 0.7 * ((i == 0 || i == 3) ? 1.0 - P[i] : -P[i]);
    }
    CU_ASSERT_EQUAL(nsm_check_pd(2, Mb, &is_pd, work, 4), NSM_OK);
    CU_ASSERT_EQUAL(is_pd, 1);
    CU_ASSERT_EQUAL(nsm_check_pd(2, PMP, &is_pd, work, 4), NSM_OK);
    CU_ASSERT_EQUAL(is_pd, 0);
}

/* ---------------------------------------------------------------------------------------- */
/* Fixed small cases and n = 1                                                                */
/* ---------------------------------------------------------------------------------------- */

static void test_small(void)
{
    double res = -1.0;
    double one[1] = {1.0}, half[1] = {0.5}, two[1] = {2.0};
    CU_ASSERT_EQUAL(nsm_check_idempotent(1, one, &res), NSM_OK);
    CU_ASSERT_EQUAL(res, 0.0);
    CU_ASSERT_EQUAL(nsm_check_idempotent(1, half, &res), NSM_OK);
    CU_ASSERT_EQUAL(res, 0.25); /* 0.25 − 0.5 */
    CU_ASSERT_EQUAL(nsm_check_plambda(1, half, two, &res), NSM_OK);
    CU_ASSERT_EQUAL(res, 1.0);
    CU_ASSERT_EQUAL(nsm_check_symmetry(1, two, &res), NSM_OK);
    CU_ASSERT_EQUAL(res, 0.0);
    /* [[1, 2], [0, 0]]: idempotent (not symmetric), asymmetry 2 */
    double E[4] = {1, 2, 0, 0};
    CU_ASSERT_EQUAL(nsm_check_idempotent(2, E, &res), NSM_OK);
    CU_ASSERT_EQUAL(res, 0.0);
    CU_ASSERT_EQUAL(nsm_check_symmetry(2, E, &res), NSM_OK);
    CU_ASSERT_EQUAL(res, 2.0);
    /* negative residual entries count by magnitude: P = −I gives P² − P = 2I */
    double mI[4] = {-1, 0, 0, -1};
    CU_ASSERT_EQUAL(nsm_check_idempotent(2, mI, &res), NSM_OK);
    CU_ASSERT_EQUAL(res, 2.0);
    /* skew, n = 1: D = Ṗ M P + P Ṁ P + P M Ṗ − μṖ − 2C̄; X = 2D */
    double work[2];
    double P1[1] = {1.0}, Pd1[1] = {0.5}, M1[1] = {2.0}, Md1[1] = {3.0}, C1[1] = {1.0};
    /* D = 0.5·2·1 + 1·3·1 + 1·2·0.5 − 1.5·0.5 − 2 = 1 + 3 + 1 − 0.75 − 2 = 2.25 */
    CU_ASSERT_EQUAL(t_skew(1, P1, Pd1, M1, Md1, C1, 1.5, &res, work, 2), NSM_OK);
    CU_ASSERT_EQUAL(res, 4.5);
    CU_ASSERT_EQUAL(nsm_check_skew_work(1), 2u);
    CU_ASSERT_EQUAL(nsm_check_skew_work(7), 98u);
    CU_ASSERT_EQUAL(nsm_check_skew_work(0), 0u);
    CU_ASSERT_EQUAL(nsm_check_skew_work(NSM_MAX_DIM + 1), 0u);
    CU_ASSERT_EQUAL(nsm_check_pd_work(7), 49u);
    CU_ASSERT_EQUAL(nsm_check_pd_work(0), 0u);
    CU_ASSERT_EQUAL(nsm_check_pd_work(NSM_MAX_DIM + 1), 0u);
}

/* ---------------------------------------------------------------------------------------- */
/* Error statuses: NULL, sizes, NaN/Inf, μ, workspace, aliasing; *res untouched on error.    */
/* ---------------------------------------------------------------------------------------- */

typedef nsm_status (*two_fn)(size_t, const double *, const double *, double *);
typedef nsm_status (*one_fn)(size_t, const double *, double *);

static void check_two(two_fn f)
{
    double A[4] = {1, 0, 0, 1}, B[4] = {1, 2, 3, 4}, res = 42.0;
    CU_ASSERT_EQUAL(f(2, NULL, B, &res), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(f(2, A, NULL, &res), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(f(2, A, B, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(f(0, A, B, &res), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(f(NSM_MAX_DIM + 1, A, B, &res), NSM_ERR_SIZE);
    double bad[3] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; k++) {
        double An[4] = {1, 0, 0, 1}, Bn[4] = {1, 2, 3, 4};
        An[3] = bad[k];
        CU_ASSERT_EQUAL(f(2, An, B, &res), NSM_ERR_NOT_FINITE);
        Bn[1] = bad[k];
        CU_ASSERT_EQUAL(f(2, A, Bn, &res), NSM_ERR_NOT_FINITE);
    }
    CU_ASSERT_EQUAL(res, 42.0);
    CU_ASSERT_EQUAL(f(2, A, B, &res), NSM_OK);
    CU_ASSERT(res != 42.0);
}

static void check_one(one_fn f)
{
    double A[4] = {1, 2, 3, 4}, res = 42.0;
    CU_ASSERT_EQUAL(f(2, NULL, &res), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(f(2, A, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(f(0, A, &res), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(f(NSM_MAX_DIM + 1, A, &res), NSM_ERR_SIZE);
    A[2] = NAN;
    CU_ASSERT_EQUAL(f(2, A, &res), NSM_ERR_NOT_FINITE);
    A[2] = -INFINITY;
    CU_ASSERT_EQUAL(f(2, A, &res), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(res, 42.0);
    A[2] = 3.0;
    CU_ASSERT_EQUAL(f(2, A, &res), NSM_OK);
    CU_ASSERT(res != 42.0);
}

static void test_errors_products(void)
{
    check_two(nsm_check_pr);
    check_two(nsm_check_qs);
    check_two(nsm_check_sq);
    check_two(nsm_check_plambda);
    check_one(nsm_check_idempotent);
    check_one(nsm_check_symmetry);
    /* nsm_check_product: three inputs */
    double A[4] = {1, 0, 0, 1}, res = 42.0;
    CU_ASSERT_EQUAL(nsm_check_product(2, NULL, A, A, &res), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_check_product(2, A, NULL, A, &res), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_check_product(2, A, A, NULL, &res), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_check_product(2, A, A, A, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_check_product(0, A, A, A, &res), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_check_product(NSM_MAX_DIM + 1, A, A, A, &res), NSM_ERR_SIZE);
    double Cn[4] = {0, 0, NAN, 0};
    CU_ASSERT_EQUAL(nsm_check_product(2, A, A, Cn, &res), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(res, 42.0);
}

/* *res inside an input matrix of each residual (at each entry): NSM_ERR_ALIAS, nothing written
   (the residual used to be computed and then written over the input). */
static void test_errors_res_apart(void)
{
    for (int k = 0; k < 4; k++) {
        double A[4] = {1, 2, 3, 4}, B[4] = {5, 6, 7, 8}, C[4] = {9, 1, 2, 3};
        double kA[4], kB[4], kC[4];
        memcpy(kA, A, sizeof A);
        memcpy(kB, B, sizeof B);
        memcpy(kC, C, sizeof C);
        CU_ASSERT_EQUAL(nsm_check_product(2, A, B, C, &A[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_product(2, A, B, C, &B[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_product(2, A, B, C, &C[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_idempotent(2, A, &A[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_symmetry(2, A, &A[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_pr(2, A, B, &A[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_pr(2, A, B, &B[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_qs(2, A, B, &A[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_qs(2, A, B, &B[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_sq(2, A, B, &A[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_sq(2, A, B, &B[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_plambda(2, A, B, &A[k]), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_plambda(2, A, B, &B[k]), NSM_ERR_ALIAS);
        CU_ASSERT(memcmp(kA, A, sizeof A) == 0);
        CU_ASSERT(memcmp(kB, B, sizeof B) == 0);
        CU_ASSERT(memcmp(kC, C, sizeof C) == 0);
    }
    /* a matrix the core does not read may hold res: C of plambda, B and C of symmetry */
    double A[4] = {1, 0, 0, 1}, other[4] = {0};
    double res = 42.0;
    CU_ASSERT_EQUAL(nsm_check_symmetry(2, A, &res), NSM_OK);
    CU_ASSERT_EQUAL(res, 0.0);
    CU_ASSERT_EQUAL(nsm_check_plambda(2, A, other, &res), NSM_OK);
    /* skew: res inside each input matrix */
    for (int in = 0; in < 5; in++) {
        double P[4] = {1, 0, 0, 0}, Pd[4] = {0, 1, 1, 0}, M[4] = {2, 0, 0, 1}, Md[4] = {0};
        double Cb[4] = {0}, work[8];
        double *a[5] = {P, Pd, M, Md, Cb};
        double keep[4];
        memcpy(keep, a[in], sizeof keep);
        CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, 1.0, &a[in][3], work, 8), NSM_ERR_ALIAS);
        CU_ASSERT(memcmp(keep, a[in], sizeof keep) == 0);
    }
    /* skew: res on the inputs' structure (its mu), or the workspace over it */
    double P[4] = {1, 0, 0, 0}, Pd[4] = {0, 1, 1, 0}, M[4] = {2, 0, 0, 1}, Md[4] = {0};
    double Cb[4] = {0}, work[8];
    nsm_check_skew_input sk = {P, Pd, M, Md, Cb, 1.0};
    CU_ASSERT_EQUAL(nsm_check_skew(2, &sk, &sk.mu, work, 8), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(sk.mu, 1.0);
    union {
        nsm_check_skew_input s;
        double d[16];
    } u;
    u.s = sk;
    CU_ASSERT_EQUAL(nsm_check_skew(2, &u.s, &res, u.d, 8), NSM_ERR_ALIAS);
    CU_ASSERT(u.s.P == P && u.s.Cbar == Cb && u.s.mu == 1.0);
    CU_ASSERT_EQUAL(nsm_check_skew(2, &u.s, &res, u.d + 8, 8), NSM_OK); /* past it */
}

static void test_errors_skew(void)
{
    double P[4] = {1, 0, 0, 0}, Pd[4] = {0, 1, 1, 0}, M[4] = {2, 0, 0, 1}, Md[4] = {0};
    double Cb[4] = {0}, work[16], res = 42.0;
    const double mu = 1.0;
    CU_ASSERT_EQUAL(nsm_check_skew(2, NULL, &res, work, 8), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_skew(2, NULL, Pd, M, Md, Cb, mu, &res, work, 8), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_skew(2, P, NULL, M, Md, Cb, mu, &res, work, 8), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, NULL, Md, Cb, mu, &res, work, 8), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, NULL, Cb, mu, &res, work, 8), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, NULL, mu, &res, work, 8), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, mu, NULL, work, 8), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, mu, &res, NULL, 8), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(t_skew(0, P, Pd, M, Md, Cb, mu, &res, work, 8), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_skew(NSM_MAX_DIM + 1, P, Pd, M, Md, Cb, mu, &res, work, 8),
                    NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, mu, &res, work, 7), NSM_ERR_WORKSPACE);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, 0.0, &res, work, 8), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, -1.0, &res, work, 8), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, NAN, &res, work, 8), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, INFINITY, &res, work, 8), NSM_ERR_ARG);
    double *ins[5] = {P, Pd, M, Md, Cb};
    for (int k = 0; k < 5; k++) {
        double keep = ins[k][1];
        ins[k][1] = NAN;
        CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, mu, &res, work, 8),
                        NSM_ERR_NOT_FINITE);
        ins[k][1] = INFINITY;
        CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, mu, &res, work, 8),
                        NSM_ERR_NOT_FINITE);
        ins[k][1] = keep;
    }
    /* workspace overlapping an input or res */
    double big[12] = {1, 0, 0, 0};
    CU_ASSERT_EQUAL(t_skew(2, big, Pd, M, Md, Cb, mu, &res, big + 2, 8), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, mu, work + 3, work, 8), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(res, 42.0);
    CU_ASSERT_EQUAL(t_skew(2, P, Pd, M, Md, Cb, mu, &res, work, 16), NSM_OK);
    CU_ASSERT(res != 42.0);
}

/* The skew residual's workspace may not overlap any input or res (module comment: "a workspace
   may not overlap any input or output"), each in turn, at the start of W1 and of W2; inputs
   may alias each other (R = P style calls stay valid). */
static void test_errors_skew_each_overlap(void)
{
    double P[4] = {1, 0, 0, 0}, Pd[4] = {0, 1, 1, 0}, M[4] = {2, 0, 0, 1}, Md[4] = {0};
    double Cb[4] = {0}, res = 42.0;
    const double mu = 1.0;
    double arena[64];
    for (int in = 0; in < 6; in++) {
        for (int half = 0; half < 2; half++) {
            /* one input (or res) at the start of W1 (half 0) or of W2 (half 1) */
            double *w = arena;
            double *target = arena + 4 * half;
            double *a[5] = {P, Pd, M, Md, Cb};
            double *r = &res;
            if (in < 5) {
                memcpy(target, a[in], sizeof P);
                a[in] = target;
            } else {
                r = target;
            }
            CU_ASSERT_EQUAL(t_skew(2, a[0], a[1], a[2], a[3], a[4], mu, r, w, 8),
                            NSM_ERR_ALIAS);
        }
    }
    CU_ASSERT_EQUAL(res, 42.0);
    double work[8];
    /* aliased inputs: P passed for every matrix argument */
    CU_ASSERT_EQUAL(t_skew(2, P, P, P, P, P, mu, &res, work, 8), NSM_OK);
}

static void test_errors_pd(void)
{
    double A[4] = {2, 0, 0, 1}, work[8];
    int is_pd = 7;
    CU_ASSERT_EQUAL(nsm_check_pd(2, NULL, &is_pd, work, 4), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_check_pd(2, A, NULL, work, 4), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_check_pd(2, A, &is_pd, NULL, 4), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_check_pd(0, A, &is_pd, work, 4), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_check_pd(NSM_MAX_DIM + 1, A, &is_pd, work, 4), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_check_pd(2, A, &is_pd, work, 3), NSM_ERR_WORKSPACE);
    A[1] = NAN;
    CU_ASSERT_EQUAL(nsm_check_pd(2, A, &is_pd, work, 4), NSM_ERR_NOT_FINITE);
    A[1] = INFINITY;
    CU_ASSERT_EQUAL(nsm_check_pd(2, A, &is_pd, work, 4), NSM_ERR_NOT_FINITE);
    A[1] = 0.0;
    double big[8] = {2, 0, 0, 1};
    CU_ASSERT_EQUAL(nsm_check_pd(2, big, &is_pd, big + 3, 4), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(is_pd, 7);
    CU_ASSERT_EQUAL(nsm_check_pd(2, A, &is_pd, work, 4), NSM_OK);
    CU_ASSERT_EQUAL(is_pd, 1);
    CU_ASSERT_EQUAL(A[0], 2.0); /* input untouched */
}

/* is_pd inside A or inside the workspace (at each entry): NSM_ERR_ALIAS, nothing written. */
static void test_errors_pd_is_pd_apart(void)
{
    for (int k = 0; k < 4; k++) {
        double A[4] = {2, 0, 0, 1}, work[4] = {5, 5, 5, 5};
        double keepA[4], keepW[4];
        memcpy(keepA, A, sizeof A);
        memcpy(keepW, work, sizeof work);
        CU_ASSERT_EQUAL(nsm_check_pd(2, A, (int *)(void *)&A[k], work, 4), NSM_ERR_ALIAS);
        CU_ASSERT_EQUAL(nsm_check_pd(2, A, (int *)(void *)&work[k], work, 4), NSM_ERR_ALIAS);
        CU_ASSERT(memcmp(keepA, A, sizeof A) == 0);
        CU_ASSERT(memcmp(keepW, work, sizeof work) == 0);
    }
}

static CU_TestInfo check_tests[] = {
    {"exact max-abs on integer matrices (all residuals)", test_exact_integer},
    {"projector identities ~0, known perturbations exact", test_projectors},
    {"product residual vs long-double loops", test_gauss},
    {"skew residual vs long-double loops", test_skew_random},
    {"skew-symmetry identity (eq. 10) and perturbation", test_skew_consistent},
    {"definiteness vs LAPACK dpotrf", test_pd},
    {"definiteness fixed cases", test_pd_fixed},
    {"small fixed cases and workspace queries", test_small},
    {"errors: product residuals", test_errors_products},
    {"errors: res inside an input matrix (residuals, skew) or *in", test_errors_res_apart},
    {"errors: skew residual", test_errors_skew},
    {"errors: skew workspace over each input and res", test_errors_skew_each_overlap},
    {"errors: definiteness", test_errors_pd},
    {"errors: definiteness, is_pd inside A or work", test_errors_pd_is_pd_apart},
    CU_TEST_INFO_NULL,
};

static int reg(void) { return nsm_add_suite("check", check_tests); }

int main(void) { return nsm_test_main("test_check", reg); }
