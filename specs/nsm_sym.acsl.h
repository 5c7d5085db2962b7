/*
 * ACSL logic for the symmetry guarantees of the projection module (seen only by Frama-C:
 * nsmech/projection.h includes it under __FRAMAC__).
 */
#ifndef NSM_SYM_ACSL_H
#define NSM_SYM_ACSL_H

/*@
  // Index of entry (a, b) of a row-major block with n columns. Annotations index through
  // nsm_ix rather than a*n + b: provers then see one term per entry, whatever order the
  // simplifier writes the product in.
  logic integer nsm_ix(integer n, integer a, integer b) = a * n + b;

  // The leading k×k block of the n×n row-major X is symmetric.
  predicate nsm_sym_block{L}(double *X, integer n, integer k) =
      \forall integer a, b; 0 <= a < k && 0 <= b < k ==>
          X[nsm_ix(n, a, b)] == X[nsm_ix(n, b, a)];

  // The n×n row-major X is symmetric: entries (a, b) and (b, a) are equal.
  predicate nsm_sym{L}(double *X, integer n) = nsm_sym_block(X, n, n);

  // Index facts the symmetric writers need (proved, not assumed): an entry lies before the
  // next row, rows are ordered, and entries in different columns have different indices.
  lemma nsm_ix_row_end: \forall integer n, a, b;
      0 <= a && 0 <= b < n ==> nsm_ix(n, a, b) < (a + 1) * n;
  lemma nsm_mul_mono: \forall integer a, i, n; 0 <= a <= i && 0 <= n ==> a * n <= i * n;
  lemma nsm_ix_col_ne: \forall integer n, a, b, i, j;
      0 <= a && 0 <= i && 0 <= b < n && 0 <= j < n && b != j ==>
          nsm_ix(n, a, b) != nsm_ix(n, i, j);
*/

#endif
