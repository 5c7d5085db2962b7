/*
 * ACSL logic shared by nsmech's contracts (seen only by Frama-C: the public headers include
 * this file under __FRAMAC__). Doubles are read as reals under -wp-model real.
 */
#ifndef NSM_LOGIC_ACSL_H
#define NSM_LOGIC_ACSL_H

/*@
  // Functional clauses on doubles are written directly in the contracts: no macro wraps
  // them and no build flag removes them. Every nsmech proof reads them in the real model
  // (-wp-model real), where they are exact-real statements; what they mean for IEEE doubles
  // is in docs/proofs.md. valid_mat_r, valid_mat and small_dim below are not used by any
  // current contract.

  // An m×n row-major block starting at A is readable / writable.
  predicate valid_mat_r{L}(double *A, integer m, integer n) =
      m * n == 0 || \valid_read(A + (0 .. m * n - 1));
  predicate valid_mat{L}(double *A, integer m, integer n) =
      m * n == 0 || \valid(A + (0 .. m * n - 1));

  // Row c of the row-major A (n columns) times v, over the first k entries (real model). The
  // row is an argument, not a pointer offset c·n, so that provers match instances directly.
  logic real nsm_rowdot{L}(double *A, integer n, integer c, double *v, integer k) =
      k <= 0 ? 0.0 : nsm_rowdot(A, n, c, v, k - 1) + A[c * n + (k - 1)] * v[k - 1];

  // Every row c < m of the m×n row-major A has A_c·v >= -tol (a separating velocity).
  predicate nsm_rows_sep{L}(double *A, double *v, integer m, integer n, real tol) =
      \forall integer c; 0 <= c < m ==> nsm_rowdot(A, n, c, v, n) >= -tol;

  // The first n entries of a are the same at labels L1 and L2 (nothing written there).
  predicate nsm_unchanged{L1, L2}(double *a, integer n) =
      \forall integer i; 0 <= i < n ==> \at(a[i], L1) == \at(a[i], L2);

  // Index arithmetic facts for dimensions bounded by NSM_MAX_DIM (1024).
  predicate small_dim(integer n) = 0 <= n <= 1024;
*/

#endif
