/*
 * Friction-cone membership and row products decided in exact rational arithmetic (GMP): the
 * oracle of the tests that check a contract on doubles holds for the IEEE computation, not
 * only in the real model of the proofs (long double is not exact). Header-only: only the
 * tests that link -lgmp include it.
 */
#ifndef NSM_TEST_EXACT_H
#define NSM_TEST_EXACT_H

#include <gmp.h>
#include <stddef.h>

/* Sign of ||t||^2 - r^2 with r = mu*ln + tol*(1 - shrink) - abs, all exact; *rneg = (r < 0). */
static inline int exact_cone_cmp(size_t d, double mu, double ln, const double *t, double tol,
                                 double shrink, double abs, int *rneg)
{
    mpq_t r, x, y, q;
    mpq_inits(r, x, y, q, NULL);
    mpq_set_d(r, mu);
    mpq_set_d(x, ln);
    mpq_mul(r, r, x);   /* mu*ln */
    mpq_set_d(x, tol);
    mpq_add(r, r, x);   /* mu*ln + tol */
    mpq_set_d(x, shrink);
    mpq_mul(x, x, r);
    mpq_sub(r, r, x);   /* (mu*ln + tol)(1 - shrink) */
    mpq_set_d(x, abs);
    mpq_sub(r, r, x);
    *rneg = mpq_sgn(r) < 0;
    mpq_mul(q, r, r);
    mpq_set_d(x, t[0]);
    mpq_mul(x, x, x);
    if (d == 2) {
        mpq_set_d(y, t[1]);
        mpq_mul(y, y, y);
        mpq_add(x, x, y);
    }
    int c = mpq_cmp(x, q);
    mpq_clears(r, x, y, q, NULL);
    return c;
}

/* 1 iff (ln, t) lies in the cone with tolerance exactly: ln >= -tol, mu*ln + tol >= 0 and
   ||t|| <= mu*ln + tol (nsm_in_cone_tol of setvalued.h). */
static inline int exact_in_cone(size_t d, double mu, double ln, const double *t, double tol)
{
    int rneg;
    int c = exact_cone_cmp(d, mu, ln, t, tol, 0.0, 0.0, &rneg);
    return -ln <= tol && !rneg && c <= 0;
}

/* 1 iff (ln, t) satisfies nsm_in_cone_margin of setvalued.h exactly: ln >= 0, mu*ln + tol
   <= DBL_MAX, and ||t|| <= (mu*ln + tol)(1 - 2^-45) - 2^-1068 >= 0. */
static inline int exact_in_cone_margin(size_t d, double mu, double ln, const double *t,
                                       double tol)
{
    int rneg;
    int c = exact_cone_cmp(d, mu, ln, t, tol, 0x1p-45, 0x1p-1068, &rneg);
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    mpq_set_d(a, mu);
    mpq_set_d(b, ln);
    mpq_mul(a, a, b);
    mpq_set_d(b, tol);
    mpq_add(a, a, b);
    mpq_set_d(b, 0x1.fffffffffffffp1023);
    int fits = mpq_cmp(a, b) <= 0;
    mpq_clears(a, b, NULL);
    return ln >= 0.0 && fits && !rneg && c <= 0;
}

/* 1 iff row·v >= -tol exactly (row and v of n entries): the clause nsm_rows_sep of a contact. */
static inline int exact_rowdot_ge(size_t n, const double *row, const double *v, double tol)
{
    mpq_t acc, a, b;
    mpq_inits(acc, a, b, NULL);
    mpq_set_d(acc, tol);
    for (size_t i = 0; i < n; i++) {
        mpq_set_d(a, row[i]);
        mpq_set_d(b, v[i]);
        mpq_mul(a, a, b);
        mpq_add(acc, acc, a);
    }
    int ok = mpq_sgn(acc) >= 0;
    mpq_clears(acc, a, b, NULL);
    return ok;
}

#endif
