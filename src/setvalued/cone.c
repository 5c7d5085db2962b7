/* The Coulomb friction cone: membership with tolerance and Euclidean projection (closed form). */
#include <float.h>
#include "nsmech/setvalued.h"
#include "../nsm_math.h"
#include "real_facts.h"

/* big = max(|x|, |y|) and rn = ||(x/big, y/big)|| (rn = 0 when big = 0): the scaled norm,
   whose sum of squares neither overflows nor underflows. */
/*@ requires valid: \valid(big) && \valid(rn) && \separated(big, rn);
    assigns *big, *rn;
    ensures big_nonneg: *big >= 0;
    ensures zero: *big == 0 ==> x == 0 && y == 0;
    ensures scaled: *big > 0 ==> *rn >= 0 && (*rn * *rn) * (*big * *big) == x * x + y * y;
 */
static void scaled_norm(double x, double y, double *big, double *rn)
{
    double ax = fabs(x);
    double ay = fabs(y);
    double m = ax > ay ? ax : ay;
    *big = m;
    *rn = 0.0;
    if (!(m > 0.0)) {
        /*@ assert x == 0 && y == 0; */
        return;
    }
    double a = ratio(x, m);
    double b = ratio(y, m);
    double r = sqrt(a * a + b * b);
    /*@ assert rr: r * r == a * a + b * b && r >= 0; */
    /*@ assert xy: x * x + y * y == (a * a + b * b) * (m * m); */
    /*@ assert rm: (r * r) * (m * m) == x * x + y * y; */
    *rn = r;
}

/* Euclidean norm of (x, y): big·rn from scaled_norm. */
/*@ assigns \nothing;
    ensures nonneg: \result >= 0;
    ensures root: \result * \result == x * x + y * y;
 */
static double norm2d(double x, double y)
{
    double big;
    double rn;
    scaled_norm(x, y, &big, &rn);
    if (!(big > 0.0)) {
        return 0.0;
    }
    double res = big * rn;
    /*@ assert s1: res * res == (rn * rn) * (big * big); */
    return res;
}

/* Reads the d tangent entries of lt into (*t0, *t1), with *t1 = 0 when d = 1. */
/*@ requires dim: d == 1 || d == 2;
    requires valid_lt: \valid_read(lt + (0 .. d - 1));
    requires valid_out: \valid(t0) && \valid(t1) && \separated(t0, t1);
    requires sep: \separated(t0, lt + (0 .. d - 1)) && \separated(t1, lt + (0 .. d - 1));
    assigns *t0, *t1;
    ensures first: *t0 == lt[0];
    ensures second: *t1 == (d == 2 ? lt[1] : 0.0);
    ensures tsq: *t0 * *t0 + *t1 * *t1 == nsm_tsq(d, lt);
 */
static void load_tangent(size_t d, const double *lt, double *t0, double *t1)
{
    *t0 = lt[0];
    *t1 = d == 2 ? lt[1] : 0.0;
}

/* The value checks of both entry points, after NULL, size (and aliasing): NSM_ERR_ARG unless
   mu and tol are finite and >= 0 (nsm_cone_project passes tol = 0), then NSM_ERR_NOT_FINITE
   unless ln and lt are finite; on NSM_OK the tangent is read into (*t0, *t1) (load_tangent). */
/*@ requires dim: d == 1 || d == 2;
    requires valid_lt: \valid_read(lt + (0 .. d - 1));
    requires valid_out: \valid(t0) && \valid(t1) && \separated(t0, t1);
    requires sep: \separated(t0, lt + (0 .. d - 1)) && \separated(t1, lt + (0 .. d - 1));
    assigns *t0, *t1;
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG || \result == NSM_ERR_NOT_FINITE;
    ensures args: \result == NSM_OK ==> mu >= 0 && tol >= 0;
    ensures first: \result == NSM_OK ==> *t0 == lt[0];
    ensures second: \result == NSM_OK ==> *t1 == (d == 2 ? lt[1] : 0.0);
    ensures tsq: \result == NSM_OK ==> *t0 * *t0 + *t1 * *t1 == nsm_tsq(d, lt);
 */
static nsm_status cone_inputs(size_t d, double mu, double tol, double ln, const double *lt,
                              double *t0, double *t1)
{
    if (!(mu >= 0.0) || !(tol >= 0.0) || !nsm_all_finite(1, &mu) || !nsm_all_finite(1, &tol)) {
        return NSM_ERR_ARG;
    }
    if (!nsm_all_finite(1, &ln) || !nsm_all_finite(d, lt)) {
        return NSM_ERR_NOT_FINITE;
    }
    load_tangent(d, lt, t0, t1);
    return NSM_OK;
}

/* The margins of the membership test, chosen so that its answer 1 is true in exact arithmetic
   for the IEEE computation too. CONE_REL = 2^-48 = 32 units of rounding: the radius mu·ln + tol
   takes three rounded operations (error at most 4.1·2^-53·(|mu·ln| + tol)) and the scaled norm
   four (relative error at most 2.5·2^-53); CONE_ABS = 2^-1070 covers what the subnormal range
   adds (at most 2^-1075 per operation). */
#define CONE_REL 0x1p-48
#define CONE_ABS 0x1p-1070

/* A radius r <= mu·ln + tol that holds in exact arithmetic for the rounded computation too:
   mu·ln + tol less CONE_REL·(|mu·ln| + tol) + CONE_ABS, which bound its rounding errors;
   DBL_MAX when mu·ln + tol overflows (its exact value is then at least DBL_MAX). */
/*@ requires mu >= 0 && tol >= 0;
    assigns \nothing;
    ensures below: \result <= mu * ln + tol;
    ensures near: ln >= 0 && mu * ln + tol <= DBL_MAX ==>
                    \result == (mu * ln + tol) * (1 - CONE_REL) - CONE_ABS;
 */
static double radius_low(double mu, double ln, double tol)
{
    double p = mu * ln;
    double s = p + tol;
    if (!(s <= DBL_MAX)) {
        return DBL_MAX;
    }
    double e = CONE_REL * (fabs(p) + tol);
    return (s - e) - CONE_ABS;
}

/* 1 only if ||(x, y)|| <= r, for r >= 0, and 1 whenever ||(x, y)|| <= (1 - 4·CONE_REL)·r:
   decided on values scaled by max(|x|, |y|), so that no square over- or underflows, with a
   margin of CONE_REL on each side that covers the rounding of the scaled norm and ratio (an
   answer 1 holds in exact arithmetic; points within 2^-46 of the radius may get 0). */
/*@ requires r: r >= 0;
    assigns \nothing;
    ensures boolean: \result == 0 || \result == 1;
    ensures sound: \result == 1 ==> x * x + y * y <= r * r;
    ensures near: x * x + y * y <= (r * (1 - 4 * CONE_REL)) * (r * (1 - 4 * CONE_REL)) ==>
                    \result == 1;
 */
static int norm_le(double x, double y, double r)
{
    double big;
    double rr;
    scaled_norm(x, y, &big, &rr);
    if (!(big > 0.0)) {
        return 1;
    }
    double q = ratio(r, big);
    /*@ assert q_nonneg: q >= 0 && rr >= 0; */
    /*@ assert rq: r * r == (q * q) * (big * big); */
    /*@ assert rqm: (r * (1 - 4 * CONE_REL)) * (r * (1 - 4 * CONE_REL)) ==
                    ((q * (1 - 4 * CONE_REL)) * (q * (1 - 4 * CONE_REL))) * (big * big); */
    double lhs = rr * (1.0 + CONE_REL);
    double rhs = q * (1.0 - CONE_REL);
    if (lhs <= rhs) {
        /*@ assert rr <= q; */
        lemma_scale_le(rr * rr, q * q, big * big);
        lemma_sq_le(rr, q);
        return 1;
    }
    /*@ assert far: q * (1 - 4 * CONE_REL) < rr; */
    lemma_sq_lt(rr, q * (1.0 - 4.0 * CONE_REL));
    lemma_scale_le(rr * rr, (q * (1 - 4 * CONE_REL)) * (q * (1 - 4 * CONE_REL)), big * big);
    return 0;
}

nsm_status nsm_cone_contains(size_t d, double mu, double ln, const double *lt, double tol,
                             int *inside)
{
    if (lt == NULL || inside == NULL) {
        return NSM_ERR_NULL;
    }
    if (d != 1 && d != 2) {
        return NSM_ERR_SIZE;
    }
    if (nsm_overlap_bytes((uintptr_t)inside, sizeof *inside, (uintptr_t)lt, d * sizeof(double))) {
        return NSM_ERR_ALIAS;
    }
    double t0;
    double t1;
    nsm_status st = cone_inputs(d, mu, tol, ln, lt, &t0, &t1);
    if (st != NSM_OK) {
        return st;
    }
    if (!(ln >= -tol)) {
        *inside = 0;
        return NSM_OK;
    }
    double r = radius_low(mu, ln, tol);
    if (r >= 0.0) {
        int in = norm_le(t0, t1, r);
        lemma_sq_le(r, mu * ln + tol);
        *inside = in;
    } else {
        *inside = t0 == 0.0 && t1 == 0.0 && ln >= 0.0;
    }
    return NSM_OK;
}

/* (*u0, *u1) = m·(t0/a, t1/a), the vector of norm m along (t0, t1), whose norm is a > 0. The
   unit direction is formed first (entries in [-1, 1]): the factor m/a of an earlier version
   was subnormal for m ≈ 3.6e-86, a ≈ 2.7e233 and lost five digits (fuzz finding P10). */
/*@ requires norm: a > 0 && a * a == t0 * t0 + t1 * t1;
    requires valid: \valid(u0) && \valid(u1) && \separated(u0, u1);
    assigns *u0, *u1;
    ensures norm: *u0 * *u0 + *u1 * *u1 == m * m;
    ensures dot: t0 * *u0 + t1 * *u1 == m * a;
    ensures rest: (t0 - *u0) * (t0 - *u0) + (t1 - *u1) * (t1 - *u1) == (a - m) * (a - m);
    ensures zero_t1: t1 == 0 ==> *u1 == 0;
 */
static void scale_tangent(double t0, double t1, double a, double m, double *u0, double *u1)
{
    double s0 = ratio(t0, a);
    double s1 = ratio(t1, a);
    /*@ assert sa: s0 * a == t0 && s1 * a == t1; */
    /*@ assert unit_a: (s0 * s0 + s1 * s1) * (a * a) == 1 * (a * a); */
    /*@ assert unit: s0 * s0 + s1 * s1 == 1; */
    /*@ assert sdot: t0 * s0 + t1 * s1 == a * (s0 * s0 + s1 * s1); */
    double v0 = m * s0;
    double v1 = m * s1;
    /*@ assert e1: v0 * v0 + v1 * v1 == (m * m) * (s0 * s0 + s1 * s1); */
    /*@ assert d1: t0 * v0 + t1 * v1 == m * (t0 * s0 + t1 * s1); */
    /*@ assert r1: (t0 - v0) * (t0 - v0) + (t1 - v1) * (t1 - v1) ==
                   (t0 * t0 + t1 * t1) - 2 * (t0 * v0 + t1 * v1) + (v0 * v0 + v1 * v1); */
    *u0 = v0;
    *u1 = v1;
}

/* (n, (q0, q1)) lies in K_mu, and q1 = 0 when the tangent input's t1 is 0: what the two
   projection steps below guarantee besides nearness. */
/*@ predicate cone_out(real mu, real t1, real n, real q0, real q1) =
      n >= 0 && q0 * q0 + q1 * q1 <= (mu * n) * (mu * n) && (t1 == 0 ==> q1 == 0);
 */

/* The projection of (ln, (t0, t1)) with norm a > 0 onto the boundary of K_mu, for a point
   neither in K_mu nor in its polar cone: pn = (ln + mu·a)/(1 + mu²), q = mu·pn·t/a. */
/*@ requires mu: mu >= 0;
    requires norm: a > 0 && a * a == t0 * t0 + t1 * t1;
    requires outside: ln < 0 || a > mu * ln;
    requires not_polar: mu * a > -ln;
    requires valid: \valid(pn) && \valid(q0) && \valid(q1);
    requires sep: \separated(pn, q0, q1);
    assigns *pn, *q0, *q1;
    ensures in_cone: cone_out(mu, t1, *pn, *q0, *q1);
    ensures nearest: nsm_cone_moreau(mu, ln, t0, t1, *pn, *q0, *q1);
 */
static void project_boundary(double mu, double ln, double t0, double t1, double a, double *pn,
                             double *q0, double *q1)
{
    double n = ratio(ln + mu * a, 1.0 + mu * mu);
    /*@ assert n_pos: n > 0; */
    /*@ assert ml: ln < 0 ==> mu * ln <= 0; */
    /*@ assert gap: (a - mu * n) * (1.0 + mu * mu) == a - mu * ln; */
    lemma_sign(a - mu * n, 1.0 + mu * mu);
    lemma_mul_nonneg(mu, a - mu * n);
    /*@ assert normal: ln - n == -(mu * (a - mu * n)) && ln - n <= 0; */
    *pn = n;
    scale_tangent(t0, t1, a, mu * n, q0, q1);
    /*@ assert tq: t0 * *q0 + t1 * *q1 == (mu * n) * a; */
    /*@ assert dot0: (ln - n) * n + (t0 - *q0) * *q0 + (t1 - *q1) * *q1 == 0; */
    /*@ assert pol: (mu * mu) * ((t0 - *q0) * (t0 - *q0) + (t1 - *q1) * (t1 - *q1)) ==
                    (ln - n) * (ln - n); */
    /*@ assert moreau: nsm_cone_moreau(mu, ln, t0, t1, n, *q0, *q1); */
}

/* Closed-form projection of (ln, (t0, t1)) with norm a onto K_mu; writes (*pn, *q0, *q1). */
/*@ requires mu: mu >= 0;
    requires norm: a >= 0 && a * a == t0 * t0 + t1 * t1;
    requires valid: \valid(pn) && \valid(q0) && \valid(q1);
    requires sep: \separated(pn, q0, q1);
    assigns *pn, *q0, *q1;
    ensures in_cone: cone_out(mu, t1, *pn, *q0, *q1);
    ensures fixed: (ln >= 0 && a * a <= (mu * ln) * (mu * ln)) ==>
                     (*pn == ln && *q0 == t0 && *q1 == t1);
    ensures nearest: nsm_cone_moreau(mu, ln, t0, t1, *pn, *q0, *q1);
 */
static void project_closed(double mu, double ln, double t0, double t1, double a, double *pn,
                           double *q0, double *q1)
{
    /*@ assert ml: ln >= 0 ==> mu * ln >= 0; */
    if (ln >= 0.0 && !(a <= mu * ln)) {
        lemma_sq_lt(a, mu * ln);
    }
    if (ln >= 0.0 && a <= mu * ln) {
        lemma_sq_le(a, mu * ln);
        *pn = ln;
        *q0 = t0;
        *q1 = t1;
        /*@ assert kept: nsm_cone_moreau(mu, ln, t0, t1, *pn, *q0, *q1); */
        return;
    }
    if (mu * a <= -ln) {
        /*@ assert ma: 0 <= mu * a; */
        lemma_sq_le(mu * a, -ln);
        /*@ assert polar: (mu * mu) * (a * a) <= ln * ln; */
        *pn = 0.0;
        *q0 = 0.0;
        *q1 = 0.0;
        /*@ assert zero: nsm_cone_moreau(mu, ln, t0, t1, *pn, *q0, *q1); */
        return;
    }
    /*@ assert pos_a: a > 0; */
    project_boundary(mu, ln, t0, t1, a, pn, q0, q1);
}

/* 1 when a, b and c are all finite (the closed form can overflow for finite input). */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int finite3(double a, double b, double c)
{
    const double x[3] = {a, b, c};
    return nsm_all_finite(3, x);
}

/* Writes the projection (n, (q0, q1)) to (*pn, pt[0 .. d-1]). */
/*@ requires dim: d == 1 || d == 2;
    requires valid: \valid(pn) && \valid(pt + (0 .. d - 1));
    requires sep: \separated(pn, pt + (0 .. d - 1));
    requires cone: n >= 0 && mu >= 0 && q0 * q0 + q1 * q1 <= (mu * n) * (mu * n);
    assigns *pn, pt[0 .. d - 1];
    ensures vals: *pn == n && pt[0] == q0 && (d == 2 ==> pt[1] == q1);
    ensures in_cone: nsm_in_cone_tol(d, mu, 0.0, *pn, pt);
 */
static void store_projection(size_t d, double mu, double n, double q0, double q1, double *pn,
                             double *pt)
{
    (void)mu; /* appears only in the contract */
    /*@ assert sq: q1 * q1 >= 0; */
    *pn = n;
    pt[0] = q0;
    if (d == 2) {
        pt[1] = q1;
    }
}

nsm_status nsm_cone_project(size_t d, double mu, double ln, const double *lt, double *pn,
                            double *pt)
{
    if (lt == NULL || pn == NULL || pt == NULL) {
        return NSM_ERR_NULL;
    }
    if (d != 1 && d != 2) {
        return NSM_ERR_SIZE;
    }
    const double *ptc = pt;
    const double *pnc = pn;
    if ((ptc != lt && nsm_overlap(ptc, d, lt, d)) || nsm_overlap(pnc, 1, ptc, d) ||
        nsm_overlap(pnc, 1, lt, d)) {
        return NSM_ERR_ALIAS;
    }
    double t0;
    double t1;
    nsm_status st = cone_inputs(d, mu, 0.0, ln, lt, &t0, &t1);
    if (st != NSM_OK) {
        return st;
    }
    double a = norm2d(t0, t1);
    /*@ assert was_in: nsm_in_cone_tol{Pre}(d, mu, 0.0, ln, lt) ==>
                         (ln >= 0 && a * a <= (mu * ln) * (mu * ln)); */
    double n;
    double q0;
    double q1;
    project_closed(mu, ln, t0, t1, a, &n, &q0, &q1);
    /*@ assert kept: nsm_in_cone_tol{Pre}(d, mu, 0.0, ln, lt) ==>
                       (n == ln && q0 == lt[0] && (d == 2 ==> q1 == lt[1])); */
    /*@ assert tang: t0 == lt[0] && t1 == (d == 2 ? lt[1] : 0.0); */
    if (!finite3(n, q0, q1)) {
        return NSM_ERR_OVERFLOW;
    }
    store_projection(d, mu, n, q0, q1, pn, pt);
    return NSM_OK;
}
