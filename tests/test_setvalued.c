/* Tests of the setvalued module: the Unit map (docs/math.md (I1); [I] eq. 3) and the Coulomb
   friction cone ((I2); [I] eqs. 6-7). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "exact.h"
#include "harness.h"
#include "prop.h"
#include "nsmech.h"

/* ---------------------------------------------------------------------------------------- */
/* Unit map                                                                                   */
/* ---------------------------------------------------------------------------------------- */

static void test_unit_direction(void)
{
    double v[3] = {3.0, 0.0, -4.0};
    double u[3] = {9, 9, 9};
    nsm_unit_case which = NSM_UNIT_BALL;
    CU_ASSERT_EQUAL_FATAL(nsm_unit(3, v, 0.0, &which, u), NSM_OK);
    CU_ASSERT_EQUAL(which, NSM_UNIT_DIRECTION);
    CU_ASSERT_DOUBLE_EQUAL(u[0], 0.6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(u[1], 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(u[2], -0.8, 1e-15);
    /* in place, and values whose squares would overflow or underflow */
    double w[2] = {3e300, 4e300};
    CU_ASSERT_EQUAL_FATAL(nsm_unit(2, w, 0.0, &which, w), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(w[0], 0.6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(w[1], 0.8, 1e-15);
    double z[2] = {-3e-310, 4e-310};
    CU_ASSERT_EQUAL_FATAL(nsm_unit(2, z, 0.0, &which, u), NSM_OK);
    CU_ASSERT_EQUAL(which, NSM_UNIT_DIRECTION);
    CU_ASSERT_DOUBLE_EQUAL(u[0], -0.6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(u[1], 0.8, 1e-12);
}

static void test_unit_ball(void)
{
    double v[2] = {3e-9, -4e-9}; /* norm 5e-9 */
    double u[2] = {7, 7};
    nsm_unit_case which = NSM_UNIT_DIRECTION;
    CU_ASSERT_EQUAL_FATAL(nsm_unit(2, v, 5e-9, &which, u), NSM_OK);
    CU_ASSERT_EQUAL(which, NSM_UNIT_BALL);
    CU_ASSERT_EQUAL(u[0], 0.0);
    CU_ASSERT_EQUAL(u[1], 0.0);
    CU_ASSERT_EQUAL_FATAL(nsm_unit(2, v, 4.9e-9, &which, u), NSM_OK);
    CU_ASSERT_EQUAL(which, NSM_UNIT_DIRECTION);
    double zero[3] = {0, -0.0, 0};
    double u3[3] = {1, 1, 1};
    CU_ASSERT_EQUAL_FATAL(nsm_unit(3, zero, 0.0, &which, u3), NSM_OK);
    CU_ASSERT_EQUAL(tm_maxabs(3, u3), 0.0);
    CU_ASSERT_EQUAL(which, NSM_UNIT_BALL);
}

static void test_unit_errors(void)
{
    double v[4] = {1, 2, 3, 4};
    double u[4] = {5, 5, 5, 5};
    nsm_unit_case which = NSM_UNIT_BALL;
    CU_ASSERT_EQUAL(nsm_unit(2, NULL, 0.0, &which, u), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_unit(2, v, 0.0, NULL, u), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_unit(2, v, 0.0, &which, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_unit(0, v, 0.0, &which, u), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_unit(NSM_MAX_DIM + 1, v, 0.0, &which, u), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_unit(2, v, -1.0, &which, u), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_unit(2, v, NAN, &which, u), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_unit(2, v, INFINITY, &which, u), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_unit(3, v, 0.0, &which, v + 1), NSM_ERR_ALIAS);
    v[1] = NAN;
    CU_ASSERT_EQUAL(nsm_unit(2, v, 0.0, &which, u), NSM_ERR_NOT_FINITE);
    v[1] = -INFINITY;
    CU_ASSERT_EQUAL(nsm_unit(2, v, 0.0, &which, u), NSM_ERR_NOT_FINITE);
    /* nothing written on error */
    CU_ASSERT_EQUAL(which, NSM_UNIT_BALL);
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(u[i], 5.0);
    }
}

static int prop_unit(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    size_t n = nsm_rng_index(rng, 1, 12);
    double v[12];
    double u[12];
    double scale = pow(10.0, nsm_rng_range(rng, -200, 200));
    prop_vector(rng, n, v);
    for (size_t i = 0; i < n; i++) {
        v[i] *= scale;
    }
    long double ss = 0;
    for (size_t i = 0; i < n; i++) {
        ss += ((long double)v[i] / scale) * ((long double)v[i] / scale);
    }
    double norm = (double)sqrtl(ss) * scale;
    double ztol = norm * nsm_rng_range(rng, 0.0, 2.0);
    nsm_unit_case which;
    if (nsm_unit(n, v, ztol, &which, u) != NSM_OK) {
        snprintf(msg, msglen, "status not OK");
        return 1;
    }
    if (norm > ztol * (1 + 1e-12)) {
        if (which != NSM_UNIT_DIRECTION) {
            snprintf(msg, msglen, "expected a direction (norm %g ztol %g)", norm, ztol);
            return 1;
        }
        for (size_t i = 0; i < n; i++) {
            if (fabs(u[i] - v[i] / norm) > 1e-14) {
                snprintf(msg, msglen, "u[%zu] = %.17g, expected %.17g", i, u[i], v[i] / norm);
                return 1;
            }
        }
    } else if (norm < ztol * (1 - 1e-12)) {
        if (which != NSM_UNIT_BALL || tm_maxabs(n, u) != 0.0) {
            snprintf(msg, msglen, "expected the ball with u = 0");
            return 1;
        }
    }
    return 0;
}

static void test_unit_property(void)
{
    prop_run("unit map equals v/|v| or the ball", prop_unit, NULL, 2000);
}

/* ---------------------------------------------------------------------------------------- */
/* Friction cone                                                                             */
/* ---------------------------------------------------------------------------------------- */

/* Independent membership predicate in long double: ln >= -tol and |lt| <= mu*ln + tol. */
static int oracle_in_cone(size_t d, double mu, double ln, const double *lt, double tol)
{
    long double a = fabsl((long double)lt[0]);
    if (d == 2) {
        a = hypotl((long double)lt[0], (long double)lt[1]);
    }
    return (long double)ln >= -(long double)tol &&
           a <= (long double)mu * (long double)ln + (long double)tol;
}

static void test_cone_contains_examples(void)
{
    int in = -1;
    double t1[1] = {0.4999};
    CU_ASSERT_EQUAL(nsm_cone_contains(1, 0.5, 1.0, t1, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    t1[0] = 0.5; /* on the boundary: certain with a tolerance */
    CU_ASSERT_EQUAL(nsm_cone_contains(1, 0.5, 1.0, t1, 1e-12, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    t1[0] = -0.5000001;
    CU_ASSERT_EQUAL(nsm_cone_contains(1, 0.5, 1.0, t1, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 0);
    CU_ASSERT_EQUAL(nsm_cone_contains(1, 0.5, 1.0, t1, 1e-6, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    double t2[2] = {3.0, 4.0};
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, 5.0 * (1.0 + 0x1p-40), t2, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, 5.0, t2, 1e-12, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, 4.999, t2, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 0);
    /* large values: squares would overflow */
    double tb[2] = {3e200, 4e200};
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, 5.0000001e200, tb, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, 4.99e200, tb, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 0);
    /* frictionless: only lt = 0 with ln >= 0 */
    double t0[2] = {0.0, 0.0};
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 0.0, 2.0, t0, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 0.0, -1e-9, t0, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 0);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 0.0, -1e-9, t0, 1e-9, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    t0[1] = 1e-12;
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 0.0, 2.0, t0, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 0);
    /* negative normal impulse is never inside without tolerance */
    t2[0] = 0.0;
    t2[1] = 0.0;
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 2.0, -1.0, t2, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 0);
}

static void test_cone_contains_errors(void)
{
    double t[2] = {1, 1};
    int in = 7;
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, 1.0, NULL, 0.0, &in), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, 1.0, t, 0.0, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_cone_contains(0, 1.0, 1.0, t, 0.0, &in), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_cone_contains(3, 1.0, 1.0, t, 0.0, &in), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, -0.1, 1.0, t, 0.0, &in), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, NAN, 1.0, t, 0.0, &in), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, INFINITY, 1.0, t, 0.0, &in), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, 1.0, t, -1e-3, &in), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, 1.0, t, NAN, &in), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, 1.0, t, INFINITY, &in), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, NAN, t, 0.0, &in), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, INFINITY, t, 0.0, &in), NSM_ERR_NOT_FINITE);
    t[1] = NAN;
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, 1.0, t, 0.0, &in), NSM_ERR_NOT_FINITE);
    /* d = 1 never reads lt[1] */
    t[0] = 0.5;
    CU_ASSERT_EQUAL(nsm_cone_contains(1, 1.0, 1.0, t, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    in = 7;
    t[0] = -INFINITY;
    CU_ASSERT_EQUAL(nsm_cone_contains(1, 1.0, 1.0, t, 0.0, &in), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(in, 7);
}

/* Random point: mixture of inside, outside, polar and near-boundary points. */
static void random_point(nsm_rng *rng, size_t *d, double *mu, double *ln, double *lt)
{
    *d = nsm_rng_index(rng, 1, 2);
    *mu = nsm_rng_index(rng, 0, 5) == 0 ? 0.0 : nsm_rng_range(rng, 0.0, 3.0);
    double scale = pow(10.0, nsm_rng_range(rng, -6, 6));
    *ln = nsm_rng_normal(rng) * scale;
    lt[0] = nsm_rng_normal(rng) * scale;
    lt[1] = *d == 2 ? nsm_rng_normal(rng) * scale : 0.0;
    if (nsm_rng_index(rng, 0, 3) == 0) {
        /* exactly on a ray of the boundary */
        double a = *d == 2 ? hypot(lt[0], lt[1]) : fabs(lt[0]);
        *ln = (*mu > 0.0 && a > 0.0) ? a / *mu : *ln;
    }
}

static int prop_cone_contains(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    size_t d;
    double mu, ln, lt[2];
    random_point(rng, &d, &mu, &ln, lt);
    double tol = nsm_rng_index(rng, 0, 1) ? 0.0 : fabs(ln) * nsm_rng_range(rng, 0.0, 0.5);
    int in = -1;
    if (nsm_cone_contains(d, mu, ln, lt, tol, &in) != NSM_OK) {
        snprintf(msg, msglen, "status not OK");
        return 1;
    }
    /* skip points within rounding distance of the boundary, where float evaluations differ */
    long double a = d == 2 ? hypotl(lt[0], lt[1]) : fabsl((long double)lt[0]);
    long double r = (long double)mu * ln + tol;
    long double gap = fabsl(a - r);
    long double sc = fabsl(a) + fabsl(r) + fabsl((long double)ln);
    if (gap <= 1e-13L * sc || fabsl((long double)ln + tol) <= 1e-13L * sc) {
        return 0;
    }
    int want = oracle_in_cone(d, mu, ln, lt, tol);
    if (in != want) {
        snprintf(msg, msglen, "d=%zu mu=%g ln=%.17g lt=(%.17g,%.17g) tol=%g: got %d want %d", d,
                 mu, ln, lt[0], lt[1], tol, in, want);
        return 1;
    }
    return 0;
}

/* Membership with tolerance: ln >= -tol is not enough, ||lt|| <= mu*ln + tol must hold too,
   and for mu > 1 a slightly negative ln makes mu*ln + tol negative: (ln, 0) with
   ln = -0.08, tol = 0.1, mu = 2 is outside (mu*ln + tol = -0.06 < 0 = ||lt||), while with
   mu = 1 it is inside (0.02 >= 0). The same point at mu = 0 is inside (0 <= tol). */
static void test_cone_contains_below_apex(void)
{
    const double zero[2] = {0, 0};
    int in = 7;
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 2.0, -0.08, zero, 0.1, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 0);
    CU_ASSERT_EQUAL(nsm_cone_contains(2, 1.0, -0.08, zero, 0.1, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    CU_ASSERT_EQUAL(nsm_cone_contains(1, 0.0, -0.08, zero, 0.1, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    CU_ASSERT_EQUAL(nsm_cone_contains(1, 2.0, -0.2, zero, 0.1, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 0); /* ln < -tol */
}

static void test_cone_contains_property(void)
{
    prop_run("cone membership equals the predicate", prop_cone_contains, NULL, 5000);
}

/* A random double of magnitude 2^e, e uniform in [lo, hi] (subnormals below -1022). */
static double rng_mag(nsm_rng *rng, int lo, int hi)
{
    return ldexp(nsm_rng_range(rng, 1.0, 2.0), (int)nsm_rng_index(rng, 0, (size_t)(hi - lo)) + lo);
}

/* Points at and around the boundary, at every scale: lt along a random direction with norm
   fl(mu*ln + tol) moved by up to 4 units of rounding, or shrunk by 2^-44. */
static int prop_cone_contains_ieee(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    size_t d = nsm_rng_index(rng, 1, 2);
    double mu = nsm_rng_index(rng, 0, 7) == 0 ? 0.0 : rng_mag(rng, -60, 60);
    double ln = rng_mag(rng, -1074, 1000);
    if (nsm_rng_index(rng, 0, 7) == 0) {
        ln = -ln;
    }
    double tol = nsm_rng_index(rng, 0, 1) ? 0.0 : fabs(ln) * rng_mag(rng, -60, 0);
    double r = mu * ln + tol;
    if (!isfinite(r)) {
        return 0;
    }
    double a = nsm_rng_range(rng, 0.0, 6.283185307179586);
    double lt[2] = {d == 2 ? r * cos(a) : r, d == 2 ? r * sin(a) : 0.0};
    int k = (int)nsm_rng_index(rng, 0, 9) - 4;
    for (size_t i = 0; i < d; i++) {
        if (k == 5) {
            lt[i] *= 1.0 - 0x1p-44;
        }
        for (int j = 0; j < (k < 0 ? -k : k) && k != 5; j++) {
            lt[i] = nextafter(lt[i], k > 0 ? INFINITY : 0.0);
        }
    }
    int in = -1;
    if (nsm_cone_contains(d, mu, ln, lt, tol, &in) != NSM_OK) {
        snprintf(msg, msglen, "status not OK");
        return 1;
    }
    int truth = exact_in_cone(d, mu, ln, lt, tol);
    int margin = exact_in_cone_margin(d, mu, ln, lt, tol);
    if ((in == 1 && !truth) || (margin && in != 1)) {
        snprintf(msg, msglen, "d=%zu mu=%a ln=%a lt=(%a,%a) tol=%a: got %d, exact %d, margin %d",
                 d, mu, ln, lt[0], lt[1], tol, in, truth, margin);
        return 1;
    }
    return 0;
}

/* setvalued.h: an answer 1 is exact membership for the IEEE computation too (clause sound),
   and points within the margin are accepted (clause near), checked in rational arithmetic.
   The first case is the counterexample to the earlier exact clause: fl(0.1*3) exceeds 0.1*3,
   and the rounded test accepted it. */
static void test_cone_contains_ieee(void)
{
    double lt[1] = {0.1 * 3.0};
    int in = -1;
    CU_ASSERT_EQUAL(nsm_cone_contains(1, 0.1, 3.0, lt, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(exact_in_cone(1, 0.1, 3.0, lt, 0.0), 0);
    CU_ASSERT_EQUAL(in, 0);
    prop_run("cone membership sound and near in exact arithmetic", prop_cone_contains_ieee, NULL,
             200000);
}

static void test_cone_project_examples(void)
{
    double pn, pt[2];
    /* d = 1: (ln, lt) = (1, 3), mu = 1 -> n = (1 + 3)/2 = 2, t = 2 */
    double t1[1] = {3.0};
    CU_ASSERT_EQUAL_FATAL(nsm_cone_project(1, 1.0, 1.0, t1, &pn, pt), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(pn, 2.0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(pt[0], 2.0, 1e-15);
    t1[0] = -3.0;
    CU_ASSERT_EQUAL_FATAL(nsm_cone_project(1, 1.0, 1.0, t1, &pn, pt), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(pt[0], -2.0, 1e-15);
    /* polar cone -> origin */
    t1[0] = 0.5;
    CU_ASSERT_EQUAL_FATAL(nsm_cone_project(1, 1.0, -1.0, t1, &pn, pt), NSM_OK);
    CU_ASSERT_EQUAL(pn, 0.0);
    CU_ASSERT_EQUAL(pt[0], 0.0);
    /* inside -> unchanged, in place */
    double t2[2] = {0.3, -0.4};
    CU_ASSERT_EQUAL_FATAL(nsm_cone_project(2, 0.5, 1.0, t2, &pn, t2), NSM_OK);
    CU_ASSERT_EQUAL(pn, 1.0);
    CU_ASSERT_EQUAL(t2[0], 0.3);
    CU_ASSERT_EQUAL(t2[1], -0.4);
    /* d = 2: (ln, lt) = (0, (3, 4)), mu = 2: a = 5, n = (0 + 10)/5 = 2, |t| = 4 along (0.6, 0.8) */
    t2[0] = 3.0;
    t2[1] = 4.0;
    CU_ASSERT_EQUAL_FATAL(nsm_cone_project(2, 2.0, 0.0, t2, &pn, pt), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(pn, 2.0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(pt[0], 2.4, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(pt[1], 3.2, 1e-15);
    /* frictionless: (max(ln, 0), 0) */
    CU_ASSERT_EQUAL_FATAL(nsm_cone_project(2, 0.0, 1.5, t2, &pn, pt), NSM_OK);
    CU_ASSERT_EQUAL(pn, 1.5);
    CU_ASSERT_EQUAL(pt[0], 0.0);
    CU_ASSERT_EQUAL(pt[1], 0.0);
    CU_ASSERT_EQUAL_FATAL(nsm_cone_project(2, 0.0, -1.5, t2, &pn, pt), NSM_OK);
    CU_ASSERT_EQUAL(pn, 0.0);
    CU_ASSERT_EQUAL(pt[0], 0.0);
    CU_ASSERT_EQUAL(pt[1], 0.0);
}

static void test_cone_project_errors(void)
{
    double t[3] = {1, 2, 3};
    double pn = 9, pt[2] = {9, 9};
    CU_ASSERT_EQUAL(nsm_cone_project(2, 1.0, 1.0, NULL, &pn, pt), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_cone_project(2, 1.0, 1.0, t, NULL, pt), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_cone_project(2, 1.0, 1.0, t, &pn, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_cone_project(0, 1.0, 1.0, t, &pn, pt), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_cone_project(3, 1.0, 1.0, t, &pn, pt), NSM_ERR_SIZE);
    CU_ASSERT_EQUAL(nsm_cone_project(2, -1.0, 1.0, t, &pn, pt), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_cone_project(2, NAN, 1.0, t, &pn, pt), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_cone_project(2, INFINITY, 1.0, t, &pn, pt), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_cone_project(2, 1.0, NAN, t, &pn, pt), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(nsm_cone_project(2, 1.0, 1.0, t, &pn, t + 1), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_cone_project(2, 1.0, 1.0, t, t + 1, pt), NSM_ERR_ALIAS);
    CU_ASSERT_EQUAL(nsm_cone_project(2, 1.0, 1.0, t, pt + 1, pt), NSM_ERR_ALIAS);
    t[1] = INFINITY;
    CU_ASSERT_EQUAL(nsm_cone_project(2, 1.0, 1.0, t, &pn, pt), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(pn, 9.0);
    CU_ASSERT_EQUAL(pt[0], 9.0);
    CU_ASSERT_EQUAL(pt[1], 9.0);
}

/*
 * Projection onto a closed convex cone K (Moreau): p = proj(x) iff p in K, x - p in the polar
 * cone K° = { (yn, yt) : mu*|yt| <= -yn } (for mu = 0: yn <= 0), and <x - p, p> = 0.
 * Checked with tolerances relative to |x|; also checked against random members of K
 * (no member may be closer to x than p).
 */
static int prop_cone_project(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    size_t d;
    double mu, ln, lt[2];
    random_point(rng, &d, &mu, &ln, lt);
    double pn, pt[2] = {0, 0};
    if (nsm_cone_project(d, mu, ln, lt, &pn, pt) != NSM_OK) {
        snprintf(msg, msglen, "status not OK");
        return 1;
    }
    double xs = fabs(ln) + fabs(lt[0]) + fabs(lt[1]);
    double tol = 1e-13 * xs;
    double pa = d == 2 ? hypot(pt[0], pt[1]) : fabs(pt[0]);
    if (pn < 0.0 || pa > mu * pn + tol) {
        snprintf(msg, msglen, "projection outside the cone: pn=%g |pt|=%g mu=%g", pn, pa, mu);
        return 1;
    }
    double yn = ln - pn, y0 = lt[0] - pt[0], y1 = d == 2 ? lt[1] - pt[1] : 0.0;
    double ya = hypot(y0, y1);
    if (mu > 0.0 ? mu * ya > -yn + tol : yn > tol) {
        snprintf(msg, msglen, "x - p not in the polar cone: yn=%g |yt|=%g mu=%g", yn, ya, mu);
        return 1;
    }
    double ip = yn * pn + y0 * pt[0] + y1 * pt[1];
    if (fabs(ip) > 1e-12 * xs * xs) {
        snprintf(msg, msglen, "<x - p, p> = %g", ip);
        return 1;
    }
    double dist = hypot(yn, ya);
    for (int k = 0; k < 20; k++) {
        double cn = fabs(nsm_rng_normal(rng)) * xs;
        double c0 = nsm_rng_normal(rng), c1 = d == 2 ? nsm_rng_normal(rng) : 0.0;
        double ca = hypot(c0, c1);
        double rad = mu * cn * nsm_rng_uniform(rng);
        if (ca > 0.0) {
            c0 *= rad / ca;
            c1 *= rad / ca;
        }
        double dc = hypot(ln - cn, hypot(lt[0] - c0, d == 2 ? lt[1] - c1 : 0.0));
        if (dc < dist - tol) {
            snprintf(msg, msglen, "a cone member is closer: %g < %g", dc, dist);
            return 1;
        }
    }
    /* idempotent */
    double qn, qt[2];
    if (nsm_cone_project(d, mu, pn, pt, &qn, qt) != NSM_OK ||
        fabs(qn - pn) > tol || fabs(qt[0] - pt[0]) > tol || (d == 2 && fabs(qt[1] - pt[1]) > tol)) {
        snprintf(msg, msglen, "projection not idempotent");
        return 1;
    }
    return 0;
}

static void test_cone_project_property(void)
{
    prop_run("cone projection satisfies Moreau's conditions", prop_cone_project, NULL, 5000);
}

/* Regression tests of fuzz findings (docs/developing.md, "Fuzzing"). */
/* Fuzz finding P2 (tests/fuzz/corpus/fuzz_api/finding_P2_unit_norm_overflow, _subnormal),
   fixed: the header promises u = v/‖v‖₂ for every finite v. The norm was unscaled before
   dividing: ‖v‖₂ = √2·DBL_MAX is above DBL_MAX and gave NSM_UNIT_DIRECTION with u = 0;
   ‖v‖₂ = √3·2^-1074 rounded to 2·2^-1074 and gave u = (0.5, 0.5, 0.5). Exact answers: 1/√2,
   1/√3 per entry. */
static void test_unit_norm_out_of_range(void)
{
    const double v[2] = {DBL_MAX, DBL_MAX};
    double u[2] = {-1.0, -1.0};
    nsm_unit_case which = NSM_UNIT_BALL;
    CU_ASSERT_EQUAL_FATAL(nsm_unit(2, v, 1e-12, &which, u), NSM_OK);
    CU_ASSERT_EQUAL(which, NSM_UNIT_DIRECTION);
    CU_ASSERT_DOUBLE_EQUAL(u[0], sqrt(0.5), 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(u[1], sqrt(0.5), 1e-15);
    const double tiny = 4.9406564584124654e-324; /* 2^-1074 */
    const double w[3] = {tiny, tiny, tiny};
    double x[3] = {-1.0, -1.0, -1.0};
    CU_ASSERT_EQUAL_FATAL(nsm_unit(3, w, 0.0, &which, x), NSM_OK);
    CU_ASSERT_EQUAL(which, NSM_UNIT_DIRECTION);
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_DOUBLE_EQUAL(x[i], sqrt(1.0 / 3.0), 1e-15);
    }
}

/* Fuzz finding P7 (finding_P7_cone_contains_subnormal), fixed: ‖lt‖ = √2·2^-1074 >
   tol = 2^-1074, so (0, lt) is outside the tolerance (the header's membership predicate);
   nsm_cone_contains unscaled the norm to a subnormal, which rounded to 2^-1074, and answered
   inside = 1. */
static void test_cone_contains_subnormal(void)
{
    const double tiny = 4.9406564584124654e-324; /* 2^-1074 */
    const double lt[2] = {tiny, tiny};
    int inside = -1;
    CU_ASSERT_EQUAL_FATAL(nsm_cone_contains(2, 0.0, 0.0, lt, tiny, &inside), NSM_OK);
    CU_ASSERT_EQUAL(inside, 0);
}

/* Fuzz finding P10 (finding_P10_cone_project_subnormal_scale), fixed: mu = 2.0e-270,
   ln = 1.8e184, |lt| = 2.7e233 (d = 1 and the same norm split over d = 2). The projection
   lies on the cone's boundary, |pt| = mu·pn ≈ 3.6e-86 (pn = ln + mu·|lt| rounds to ln, since
   mu·|lt| ≈ 5e-37). nsm_cone_project scaled lt by mu·pn/|lt| ≈ 1.3e-319, a subnormal with
   a few significant bits, and |pt| came out 1.8e-5 above mu·pn. Checked against the closed
   form in long double: |pt| = mu·pn to 4e-15 relative, pt along lt. */
static void test_cone_project_subnormal_scale(void)
{
    const double mu = 2.0038091308209684e-270, ln = 1.8029649208208189e+184;
    const double t = -2.7357994312893083e+233;
    const double lts[2][2] = {{t, 0.0}, {t * 0.6, t * 0.8}};
    for (size_t d = 1; d <= 2; d++) {
        const double *lt = lts[d - 1];
        double pn = 0.0, pt[2] = {0.0, 0.0};
        CU_ASSERT_EQUAL_FATAL(nsm_cone_project(d, mu, ln, lt, &pn, pt), NSM_OK);
        CU_ASSERT_EQUAL(pn, ln);
        /* |lt|² (7.5e466) exceeds the double range, and under Valgrind long double is
           computed as double: the norm is taken on lt scaled by |t| first. */
        long double big = fabsl((long double)t);
        long double x0 = lt[0] / big, x1 = lt[1] / big;
        long double a = big * sqrtl(x0 * x0 + x1 * x1);
        long double m = (long double)mu * pn;
        for (size_t i = 0; i < d; i++) {
            long double want = m * ((long double)lt[i] / a);
            CU_ASSERT(fabsl((long double)pt[i] - want) <= 4e-15L * m);
        }
    }
}

/* Fuzz finding P4 (finding_P4_cone_project_mu_huge, finding_P4_cone_project_lt_huge), fixed:
   mu·‖lt‖ or ‖lt‖ beyond DBL_MAX; nsm_cone_project returned NSM_OK with pn, pt NaN (or
   pn = inf). The header promises a finite projection in the cone on NSM_OK, else
   NSM_ERR_OVERFLOW with nothing written. */
static void test_cone_project_overflow(void)
{
    struct {
        size_t d;
        double mu, ln, lt[2];
    } c[2] = {{1, 1e300, -1.0, {1e150, 0.0}}, {2, 0.5, 1.0, {DBL_MAX, DBL_MAX}}};
    for (size_t i = 0; i < 2; i++) {
        double pn = -1.0, pt[2] = {0.0, 0.0};
        nsm_status s = nsm_cone_project(c[i].d, c[i].mu, c[i].ln, c[i].lt, &pn, pt);
        CU_ASSERT(s == NSM_OK || s == NSM_ERR_OVERFLOW);
        if (s == NSM_ERR_OVERFLOW) {
            CU_ASSERT(pn == -1.0 && pt[0] == 0.0 && pt[1] == 0.0);
        }
        if (s == NSM_OK) {
            int inside = 0;
            CU_ASSERT(isfinite(pn) && isfinite(pt[0]) && isfinite(pt[1]));
            CU_ASSERT_EQUAL(nsm_cone_contains(c[i].d, c[i].mu, pn, pt, 1e-12 * fabs(pn), &inside),
                            NSM_OK);
            CU_ASSERT_EQUAL(inside, 1);
        }
    }
}

/* which inside u or inside v (at each of its entries): NSM_ERR_ALIAS, nothing written. The
   scalar sits in double storage (aligned for it); on error it is never written. */
static void test_unit_which_apart(void)
{
    for (int k = 0; k < 3; k++) {
        double d[3] = {3.0, 4.0, 0.0};
        double keep[3];
        memcpy(keep, d, sizeof keep);
        nsm_unit_case *w = (nsm_unit_case *)(void *)&d[k];
        const double v[3] = {3.0, 4.0, 0.0};
        CU_ASSERT_EQUAL(nsm_unit(3, v, 0.0, w, d), NSM_ERR_ALIAS); /* inside u */
        CU_ASSERT(memcmp(keep, d, sizeof keep) == 0);
        double u[3] = {9.0, 9.0, 9.0};
        CU_ASSERT_EQUAL(nsm_unit(3, d, 0.0, w, u), NSM_ERR_ALIAS); /* inside v */
        CU_ASSERT(memcmp(keep, d, sizeof keep) == 0);
        CU_ASSERT(u[0] == 9.0 && u[1] == 9.0 && u[2] == 9.0);
        CU_ASSERT_EQUAL(nsm_unit(3, d, 0.0, w, d), NSM_ERR_ALIAS); /* in place, inside both */
        CU_ASSERT(memcmp(keep, d, sizeof keep) == 0);
    }
    double v[2] = {3.0, 4.0};
    double u[2];
    nsm_unit_case which = NSM_UNIT_BALL;
    CU_ASSERT_EQUAL(nsm_unit(2, v, 0.0, &which, u), NSM_OK);
    CU_ASSERT_EQUAL(which, NSM_UNIT_DIRECTION);
}

static CU_TestInfo unit_tests[] = {
    {"unit map: direction, in place, extreme magnitudes", test_unit_direction},
    {"unit map: ball below ztol, no invented direction", test_unit_ball},
    {"unit map: errors write nothing", test_unit_errors},
    {"unit map: property against long double", test_unit_property},
    {"unit map: norm above DBL_MAX or subnormal (fuzz finding P2)",
     test_unit_norm_out_of_range},
    {"unit map: which inside u or v gives NSM_ERR_ALIAS", test_unit_which_apart},
    CU_TEST_INFO_NULL,
};

/* inside overlapping lt (d = 1 and 2, at each entry): NSM_ERR_ALIAS, nothing written. */
static void test_cone_contains_inside_apart(void)
{
    for (size_t d = 1; d <= 2; d++) {
        for (size_t k = 0; k < d; k++) {
            double lt[2] = {0.0, 0.0};
            double keep[2];
            memcpy(keep, lt, sizeof keep);
            int *in = (int *)(void *)&lt[k];
            CU_ASSERT_EQUAL(nsm_cone_contains(d, 0.5, 1.0, lt, 0.0, in), NSM_ERR_ALIAS);
            CU_ASSERT(memcmp(keep, lt, sizeof keep) == 0);
            /* the bytes of inside just past lt[0] are apart for d = 1 */
            if (d == 1 && k == 0) {
                int *past = (int *)(void *)&lt[1];
                CU_ASSERT_EQUAL(nsm_cone_contains(1, 0.5, 1.0, lt, 0.0, past), NSM_OK);
            }
        }
    }
}

static CU_TestInfo cone_tests[] = {
    {"cone membership: examples, boundary, frictionless", test_cone_contains_examples},
    {"cone membership: errors", test_cone_contains_errors},
    {"cone membership: tolerance band below the apex", test_cone_contains_below_apex},
    {"cone membership: property against long double", test_cone_contains_property},
    {"cone membership: sound and near in exact arithmetic (IEEE)", test_cone_contains_ieee},
    {"cone membership: subnormal norm (fuzz finding P7)", test_cone_contains_subnormal},
    {"cone membership: inside overlapping lt gives NSM_ERR_ALIAS", test_cone_contains_inside_apart},
    {"cone projection: closed-form examples", test_cone_project_examples},
    {"cone projection: errors write nothing", test_cone_project_errors},
    {"cone projection: Moreau decomposition property", test_cone_project_property},
    {"cone projection: mu·|lt| beyond DBL_MAX (fuzz finding P4)", test_cone_project_overflow},
    {"cone projection: subnormal scale of lt (fuzz finding P10)", test_cone_project_subnormal_scale},
    CU_TEST_INFO_NULL,
};

static int reg(void)
{
    if (nsm_add_suite("unit", unit_tests) != 0) {
        return 1;
    }
    return nsm_add_suite("cone", cone_tests);
}

int main(void) { return nsm_test_main("test_setvalued", reg); }
