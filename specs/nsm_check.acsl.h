/*
 * ACSL logic of module check (seen only by Frama-C): the exact-real residual matrices whose
 * max-abs entry the check functions return. All matrices are n×n, row-major.
 */
#ifndef NSM_CHECK_ACSL_H
#define NSM_CHECK_ACSL_H

/*@
  // Index facts for n×n row-major storage (nonlinear; proved once, used everywhere).
  lemma chk_idx: \forall integer n, r, c; 0 <= r < n && 0 <= c < n ==> 0 <= r * n + c < n * n;
  lemma chk_row: \forall integer n, r; 0 <= r < n ==> 0 <= r * n && r * n + n <= n * n;
  lemma chk_sq: \forall integer n; 0 <= n <= 1024 ==> n * n <= 1048576;

  // Partial product sum_{t < k} A[i][t] * B[t][j] of two n×n matrices.
  logic real chk_dot{L}(double *A, double *B, integer n, integer i, integer j, integer k) =
      k <= 0 ? 0.0 : chk_dot{L}(A, B, n, i, j, k - 1) + A[i * n + (k - 1)] * B[(k - 1) * n + j];

  // Entry (i, j) of A·B − C (with_c != 0) or of A·B (with_c == 0).
  logic real chk_prod_res{L}(double *A, double *B, double *C, integer with_c, integer n,
                             integer i, integer j) =
      with_c != 0 ? chk_dot{L}(A, B, n, i, j, n) - C[i * n + j] : chk_dot{L}(A, B, n, i, j, n);

  // Entry (i, j) of P − Pᵀ.
  logic real chk_sym_res{L}(double *P, integer n, integer i, integer j) =
      P[i * n + j] - P[j * n + i];

  // r is the max-abs entry of the residual A·B − C (or A·B): an upper bound attained somewhere.
  predicate chk_prod_max{L}(real r, double *A, double *B, double *C, integer with_c,
                            integer n) =
      (\forall integer i, j; 0 <= i < n && 0 <= j < n ==>
          \abs(chk_prod_res{L}(A, B, C, with_c, n, i, j)) <= r) &&
      (\exists integer i, j; 0 <= i < n && 0 <= j < n &&
          \abs(chk_prod_res{L}(A, B, C, with_c, n, i, j)) == r);

  predicate chk_sym_max{L}(real r, double *P, integer n) =
      (\forall integer i, j; 0 <= i < n && 0 <= j < n ==> \abs(chk_sym_res{L}(P, n, i, j)) <= r) &&
      (\exists integer i, j; 0 <= i < n && 0 <= j < n && \abs(chk_sym_res{L}(P, n, i, j)) == r);

  // Skew-symmetry residual, given the workspace products W1 = M·P and W2 = Ṁ·P + M·Ṗ:
  //   D = Ṗ·W1 + P·W2 − μṖ − 2C̄  ( = ṖMP + PṀP + PMṖ − μṖ − 2C̄ = dM̄/dt − 2C̄ ),
  //   X = D + Dᵀ.
  logic real chk_skw_sum{L}(double *Pd, double *P, double *W1, double *W2, integer n,
                            integer i, integer j, integer k) =
      k <= 0 ? 0.0 :
      chk_skw_sum{L}(Pd, P, W1, W2, n, i, j, k - 1)
        + Pd[i * n + (k - 1)] * W1[(k - 1) * n + j]
        + P[i * n + (k - 1)] * W2[(k - 1) * n + j];

  logic real chk_skw_d{L}(double *Pd, double *P, double *W1, double *W2, double *Cb, real mu,
                          integer n, integer i, integer j) =
      chk_skw_sum{L}(Pd, P, W1, W2, n, i, j, n) - mu * Pd[i * n + j] - 2 * Cb[i * n + j];

  logic real chk_skw_res{L}(double *Pd, double *P, double *W1, double *W2, double *Cb,
                            real mu, integer n, integer i, integer j) =
      chk_skw_d{L}(Pd, P, W1, W2, Cb, mu, n, i, j) + chk_skw_d{L}(Pd, P, W1, W2, Cb, mu, n, j, i);

  predicate chk_skw_max{L}(real r, double *Pd, double *P, double *W1, double *W2, double *Cb,
                           real mu, integer n) =
      (\forall integer i, j; 0 <= i < n && 0 <= j < n ==>
          \abs(chk_skw_res{L}(Pd, P, W1, W2, Cb, mu, n, i, j)) <= r) &&
      (\exists integer i, j; 0 <= i < n && 0 <= j < n &&
          \abs(chk_skw_res{L}(Pd, P, W1, W2, Cb, mu, n, i, j)) == r);
*/

#endif
