/*
 * Facts of real arithmetic for the proofs of the set-valued maps, as functions whose contracts
 * state them: each is proved once in a small context and instantiated where it is called,
 * which keeps the callers' goals linear. ratio is the only one with run-time work (a
 * division); the others are empty at run time. Included by the module's source files only.
 */
#ifndef NSM_SETVALUED_REAL_FACTS_H
#define NSM_SETVALUED_REAL_FACTS_H

/* p / q for q > 0, with a contract free of division. */
/*@ requires pos: q > 0;
    assigns \nothing;
    ensures prod: \result * q == p;
    ensures pos: p > 0 ==> \result > 0;
 */
static inline double ratio(double p, double q)
{
    return p / q;
}

/* 0 <= x <= y  ==>  x² <= y². */
/*@ requires 0 <= x <= y;
    assigns \nothing;
    ensures x * x <= y * y;
 */
static inline void lemma_sq_le(double x, double y)
{
    (void)x;
    (void)y;
}

/* 0 <= y < x  ==>  y² < x². */
/*@ requires 0 <= y < x;
    assigns \nothing;
    ensures y * y < x * x;
 */
static inline void lemma_sq_lt(double x, double y)
{
    (void)x;
    (void)y;
}

/* a·b = c  ==>  a²·b² = c². */
/*@ requires a * b == c;
    assigns \nothing;
    ensures (a * a) * (b * b) == c * c;
 */
static inline void lemma_sq_prod(double a, double b, double c)
{
    (void)a;
    (void)b;
    (void)c;
}

/* x·y >= 0 and y > 0  ==>  x >= 0. */
/*@ requires x * y >= 0 && y > 0;
    assigns \nothing;
    ensures x >= 0;
 */
static inline void lemma_sign(double x, double y)
{
    (void)x;
    (void)y;
}

/* x >= 0 and y >= 0  ==>  x·y >= 0. */
/*@ requires x >= 0 && y >= 0;
    assigns \nothing;
    ensures x * y >= 0;
 */
static inline void lemma_mul_nonneg(double x, double y)
{
    (void)x;
    (void)y;
}

/* s > 0  ==>  (x <= y  <==>  x·s <= y·s). */
/*@ requires s > 0;
    assigns \nothing;
    ensures x <= y <==> x * s <= y * s;
 */
static inline void lemma_scale_le(double x, double y, double s)
{
    (void)x;
    (void)y;
    (void)s;
}

#endif
