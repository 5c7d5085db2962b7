/* Tests of nsm_routh_spatial (Routh's method for one spatial contact, d = 2). Oracles: planar
   closed forms derived here, rotations of the data, an RK4 integration written here, LAPACK. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "prop.h"
#include "nsmech.h"
#include <lapacke.h>

#define SP_PI 3.14159265358979323846
#define REL(x, y) (fabs((x) - (y)) <= 1e-12 * (1.0 + fabs(y)))

static void check_close(double got, double want, const char *what)
{
    if (!REL(got, want)) {
        printf("\n  %s: got %.17g want %.17g\n", what, got, want);
    }
    CU_ASSERT(REL(got, want));
}

/* ---------------------------------------------------------------------------------------- */
/* 1. planar data embedded in 3-D                                                            */
/* ---------------------------------------------------------------------------------------- */

/* W = [[a, 0, b], [0, a2, 0], [b, 0, c]], u0 = (ut, 0, un): the motion stays in the (t1, n)
   plane. Checks p and u against the planar closed form (p_t, p_n), and that t2 stays 0. */
static void check_planar(double a, double b, double c, double ut, double un, double mu,
                         size_t steps, double pt_want, double pn_want, size_t nph,
                         nsm_routh_phase ph1, int painleve)
{
    const double a2 = 1.7;
    double W[9] = {a, 0.0, b, 0.0, a2, 0.0, b, 0.0, c};
    double u0[3] = {ut, 0.0, un};
    nsm_routh_spatial_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(W, u0, mu, 0.0, steps, &r), NSM_OK);
    check_close(r.p_n, pn_want, "p_n");
    check_close(r.p_t[0], pt_want, "p_t1");
    check_close(r.u_t[0], ut + a * pt_want + b * pn_want, "u_t1");
    CU_ASSERT_EQUAL(r.u_n, 0.0);
    CU_ASSERT_EQUAL(r.p_t[1], 0.0);
    CU_ASSERT_EQUAL(r.u_t[1], 0.0);
    CU_ASSERT_EQUAL(r.nphases, nph);
    if (nph >= 2) {
        CU_ASSERT_EQUAL(r.phase[1], ph1);
    }
    CU_ASSERT_EQUAL(r.painleve, painleve);
    CU_ASSERT(r.p_n <= r.bound);
}

static void test_planar_slip_throughout(void)
{
    /* slip with u_t > 0: p_n = -un/(c - mu b), p_t = -mu p_n; u_t stays positive */
    const double a = 2.0, b = 0.5, c = 1.0, mu = 0.3;
    double pn = 1.0 / (c - mu * b);
    CU_ASSERT(1.0 + (b - mu * a) * pn > 0.0);
    check_planar(a, b, c, 1.0, -1.0, mu, 100, -mu * pn, pn, 1, NSM_PHASE_SLIP, 0);
    check_planar(a, b, c, 1.0, -1.0, mu, 1, -mu * pn, pn, 1, NSM_PHASE_SLIP, 0);
    /* mirror: u_t < 0, W_tn < 0 */
    check_planar(a, -b, c, -1.0, -1.0, mu, 1000, mu * pn, pn, 1, NSM_PHASE_SLIP, 0);
}

static void test_planar_slip_stick(void)
{
    /* slip stops at p1 = ut/(mu a - b); stick at rate -b/a with normal rate c - b²/a */
    const double a = 2.0, b = 0.5, c = 1.0, mu = 0.5, ut = 0.2, un = -1.0;
    double p1 = ut / (mu * a - b);
    double un1 = un + (c - mu * b) * p1;
    CU_ASSERT(un1 < 0.0 && mu * a >= fabs(b));
    double pn = p1 - un1 / (c - b * b / a);
    double pt = -mu * p1 - b / a * (pn - p1);
    check_planar(a, b, c, ut, un, mu, 100, pt, pn, 2, NSM_PHASE_STICK, 0);
    check_planar(a, b, c, ut, un, mu, 7, pt, pn, 2, NSM_PHASE_STICK, 0);
}

static void test_planar_slip_reversal(void)
{
    /* u_t > 0, b < -mu a: slip stops at p1 = ut/(mu a - b), then slip in direction sign(b)
       = -1: p_t' = +mu, u_t' = mu a + b < 0, u_n' = mu b + c */
    const double a = 2.0, b = -1.5, c = 2.0, mu = 0.5, ut = 0.5, un = -1.0;
    double p1 = ut / (mu * a - b);
    double un1 = un + (c - mu * b) * p1;
    CU_ASSERT(un1 < 0.0 && mu * a < fabs(b));
    double pn = p1 - un1 / (mu * b + c);
    double pt = -mu * p1 + mu * (pn - p1);
    check_planar(a, b, c, ut, un, mu, 100, pt, pn, 2, NSM_PHASE_SLIP, 0);
    check_planar(a, b, c, ut, un, mu, 3, pt, pn, 2, NSM_PHASE_SLIP, 0);
}

static void test_planar_from_rest(void)
{
    /* stick from rest: p_t' = -b/a, normal rate c - b²/a */
    double pn = 1.0 / (1.0 - 0.25 / 2.0);
    check_planar(2.0, 0.5, 1.0, 0.0, -1.0, 0.5, 10, -0.25 * pn, pn, 1, NSM_PHASE_STICK, 0);
    /* reversal from rest: slip in direction sign(b) = -1, p_t' = +mu, rate mu b + c */
    pn = 1.0 / (0.5 * -1.5 + 2.0);
    check_planar(2.0, -1.5, 2.0, 0.0, -1.0, 0.5, 10, 0.5 * pn, pn, 1, NSM_PHASE_SLIP, 0);
    /* frictionless: p_n = -un/c exactly */
    double W[9] = {2.0, 0.3, 0.5, 0.3, 1.5, -0.2, 0.5, -0.2, 1.25};
    double u0[3] = {0.7, -0.4, -2.0};
    nsm_routh_spatial_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(W, u0, 0.0, 0.0, 10, &r), NSM_OK);
    check_close(r.p_n, 2.0 / 1.25, "frictionless p_n");
    CU_ASSERT_EQUAL(r.p_t[0], 0.0);
    CU_ASSERT_EQUAL(r.p_t[1], 0.0);
    check_close(r.u_t[0], 0.7 + 0.5 * r.p_n, "frictionless u_t1");
    check_close(r.u_t[1], -0.4 - 0.2 * r.p_n, "frictionless u_t2");
    CU_ASSERT_EQUAL(r.nphases, 1);
    CU_ASSERT_EQUAL(r.phase[0], NSM_PHASE_FRICTIONLESS);
}

static void test_planar_painleve(void)
{
    /* u_t > 0 slip with normal rate c - mu b < 0 (Painlevé): continues until slip stops at
       p1 = ut/(mu a - b), then sticks (mu a >= b) with normal rate c - b²/a */
    const double a = 1.0, b = 0.9, c = 1.0, mu = 1.5, ut = 0.6, un = -1.0;
    CU_ASSERT(c - mu * b < 0.0);
    double p1 = ut / (mu * a - b);
    double un1 = un + (c - mu * b) * p1;
    double pn = p1 - un1 / (c - b * b / a);
    double pt = -mu * p1 - b / a * (pn - p1);
    check_planar(a, b, c, ut, un, mu, 50, pt, pn, 2, NSM_PHASE_STICK, 1);
}

/* ---------------------------------------------------------------------------------------- */
/* Random data                                                                               */
/* ---------------------------------------------------------------------------------------- */

/* Random SPD W (condition 1 .. 100, scale 0.1 .. 10), u0 with u_n < 0, mu in [0, 2]. */
static void random_case(nsm_rng *rng, double *W, double *u0, double *mu)
{
    double cond = pow(10.0, nsm_rng_range(rng, 0.0, 2.0));
    double scale = pow(10.0, nsm_rng_range(rng, -1.0, 1.0));
    prop_spd(rng, 3, cond, scale, W);
    prop_vector(rng, 3, u0);
    u0[2] = -fabs(u0[2]) - 0.05;
    *mu = nsm_rng_uniform(rng) < 0.1 ? 0.0 : nsm_rng_range(rng, 0.0, 2.0);
}

/* u^T W^-1 u by LAPACK (dposv on a copy). */
static double energy(const double *W, const double *u)
{
    double A[9], x[3];
    memcpy(A, W, sizeof A);
    memcpy(x, u, sizeof x);
    if (LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', 3, 1, A, 3, x, 1) != 0) {
        return NAN;
    }
    return u[0] * x[0] + u[1] * x[1] + u[2] * x[2];
}

/* 2. rotation of the tangent plane rotates the result. */
static int prop_rotation(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    double W[9], u0[3], mu;
    random_case(rng, W, u0, &mu);
    double th = nsm_rng_range(rng, -SP_PI, SP_PI);
    double R[9] = {cos(th), -sin(th), 0.0, sin(th), cos(th), 0.0, 0.0, 0.0, 1.0};
    double RW[9], Wr[9], ur[3];
    tm_matmul(3, 3, 3, R, W, RW);
    tm_matmul_nt(3, 3, 3, RW, R, Wr);
    for (int i = 0; i < 3; i++) { /* exact symmetry of the rotated copy */
        for (int j = 0; j < i; j++) {
            double m = 0.5 * (Wr[3 * i + j] + Wr[3 * j + i]);
            Wr[3 * i + j] = m;
            Wr[3 * j + i] = m;
        }
    }
    tm_matmul(3, 1, 3, R, u0, ur);
    nsm_routh_spatial_result a, b;
    const size_t steps = 400;
    if (nsm_routh_spatial(W, u0, mu, 0.0, steps, &a) != NSM_OK ||
        nsm_routh_spatial(Wr, ur, mu, 0.0, steps, &b) != NSM_OK) {
        snprintf(msg, msglen, "status not OK");
        return 1;
    }
    double pa[3] = {a.p_t[0], a.p_t[1], a.p_n}, pr[3], pb[3] = {b.p_t[0], b.p_t[1], b.p_n};
    tm_matmul(3, 1, 3, R, pa, pr);
    /* Exact arithmetic commutes with the rotation; rounding can flip an event decision (where
       the slip stops), which moves the result by a fraction of a step: tolerance one step. */
    double tol = a.bound / (double)steps + 1e-9 * (1.0 + a.bound);
    double err = tm_maxabs_diff(3, pr, pb);
    if (!(err <= tol)) {
        snprintf(msg, msglen, "rotated result differs by %g (tol %g, mu=%g, p_n=%g)", err, tol,
                 mu, a.p_n);
        return 1;
    }
    return 0;
}

static void test_rotation(void)
{
    prop_run("spatial routh: rotating the tangent plane rotates the result", prop_rotation,
             NULL, 1000);
}

/* 4. invariants on random data. */
static int prop_invariants(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    double W[9], u0[3], mu;
    random_case(rng, W, u0, &mu);
    nsm_routh_spatial_result r;
    size_t steps = nsm_rng_index(rng, 1, 300);
    nsm_status st = nsm_routh_spatial(W, u0, mu, 0.0, steps, &r);
    if (st != NSM_OK) {
        snprintf(msg, msglen, "status %s", nsm_status_str(st));
        return 1;
    }
    double p[3] = {r.p_t[0], r.p_t[1], r.p_n}, Wp[3];
    double u[3] = {r.u_t[0], r.u_t[1], r.u_n};
    tm_matmul(3, 1, 3, W, p, Wp);
    double scale = tm_maxabs(3, u0) + tm_maxabs(9, W) * tm_maxabs(3, p);
    double cons = 0.0;
    for (int i = 0; i < 3; i++) {
        cons = fmax(cons, fabs(u0[i] + Wp[i] - u[i]));
    }
    double tn = sqrt(p[0] * p[0] + p[1] * p[1]);
    double e0 = energy(W, u0), e1 = energy(W, u);
    if (!(r.p_n >= 0.0)) {
        snprintf(msg, msglen, "p_n = %g < 0", r.p_n);
        return 1;
    }
    if (!(tn <= mu * r.p_n * (1.0 + 1e-12))) {
        snprintf(msg, msglen, "|p_t| = %.17g > mu p_n = %.17g", tn, mu * r.p_n);
        return 1;
    }
    if (!(r.u_n == 0.0) || !(cons <= 1e-12 * scale)) {
        snprintf(msg, msglen, "u_n = %g, |u0 + W p - u| = %g (scale %g)", r.u_n, cons, scale);
        return 1;
    }
    if (!(e1 <= e0 * (1.0 + 1e-9))) {
        snprintf(msg, msglen, "energy grew: %.17g -> %.17g", e0, e1);
        return 1;
    }
    if (!(r.p_n <= r.bound) || !(r.nphases >= 1 && r.nphases <= NSM_ROUTH_MAX_PHASES)) {
        snprintf(msg, msglen, "p_n = %g, bound = %g, nphases = %zu", r.p_n, r.bound, r.nphases);
        return 1;
    }
    if (!isfinite(r.u_t[0]) || !isfinite(r.u_t[1])) {
        snprintf(msg, msglen, "non-finite u_t");
        return 1;
    }
    return 0;
}

static void test_invariants(void)
{
    prop_run("spatial routh: cone, u_n = 0, u = u0 + W p, energy, bound", prop_invariants,
             NULL, 1000);
}

/* ---------------------------------------------------------------------------------------- */
/* 3. convergence against an RK4 integration of the slip ODE                                 */
/* ---------------------------------------------------------------------------------------- */

/* y = (p_t1, p_t2, p_n, u_t1, u_t2, u_n); dy/dp_n with p_t' = -mu u_t/|u_t|. */
static void slip_rhs(const double *W, double mu, const double *y, double *f)
{
    double n = sqrt(y[3] * y[3] + y[4] * y[4]);
    double d[3] = {-mu * y[3] / n, -mu * y[4] / n, 1.0};
    f[0] = d[0];
    f[1] = d[1];
    f[2] = 1.0;
    for (int i = 0; i < 3; i++) {
        f[3 + i] = W[3 * i] * d[0] + W[3 * i + 1] * d[1] + W[3 * i + 2] * d[2];
    }
}

static void rk4(const double *W, double mu, const double *y, double h, double *out)
{
    double k1[6], k2[6], k3[6], k4[6], t[6];
    slip_rhs(W, mu, y, k1);
    for (int i = 0; i < 6; i++) t[i] = y[i] + 0.5 * h * k1[i];
    slip_rhs(W, mu, t, k2);
    for (int i = 0; i < 6; i++) t[i] = y[i] + 0.5 * h * k2[i];
    slip_rhs(W, mu, t, k3);
    for (int i = 0; i < 6; i++) t[i] = y[i] + h * k3[i];
    slip_rhs(W, mu, t, k4);
    for (int i = 0; i < 6; i++) out[i] = y[i] + h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

/* Slip throughout to u_n = 0 by RK4 with step h (the last step by Newton on its length).
   Returns 0 on success; *umin = smallest |u_t| met. */
static int rk4_reference(const double *W, const double *u0, double mu, double h, double *p,
                         double *umin)
{
    double y[6] = {0, 0, 0, u0[0], u0[1], u0[2]}, z[6], f[6];
    *umin = hypot(u0[0], u0[1]);
    for (long k = 0; k < 10000000L; k++) {
        rk4(W, mu, y, h, z);
        *umin = fmin(*umin, hypot(z[3], z[4]));
        if (*umin < 1e-3) {
            return 1;
        }
        if (z[5] >= 0.0) {
            slip_rhs(W, mu, y, f);
            if (!(f[5] > 0.0)) {
                return 1;
            }
            double tau = -y[5] / f[5];
            for (int it = 0; it < 8; it++) {
                rk4(W, mu, y, tau, z);
                slip_rhs(W, mu, z, f);
                tau -= z[5] / f[5];
            }
            rk4(W, mu, y, tau, z);
            p[0] = z[0];
            p[1] = z[1];
            p[2] = z[2];
            return 0;
        }
        memcpy(y, z, sizeof y);
    }
    return 1;
}

static void test_convergence(void)
{
    nsm_rng rng;
    int used = 0, tried = 0, fails = 0;
    double sum500 = 0.0, sum4000 = 0.0;
    uint64_t base = prop_base_seed();
    for (uint64_t s = 0; used < 40 && tried < 400; s++) {
        tried++;
        nsm_rng_seed(&rng, base + 7000u + s);
        double W[9], u0[3], p[3], umin;
        prop_spd(&rng, 3, 5.0, 1.0, W);
        double ang = nsm_rng_range(&rng, -SP_PI, SP_PI), sp = nsm_rng_range(&rng, 0.5, 1.5);
        u0[0] = sp * cos(ang);
        u0[1] = sp * sin(ang);
        u0[2] = -1.0;
        double mu = nsm_rng_range(&rng, 0.2, 1.0);
        if (rk4_reference(W, u0, mu, 1e-5, p, &umin) != 0 || umin < 0.05 * sp) {
            continue; /* slip stops or nearly stops: not a slip-throughout case */
        }
        nsm_routh_spatial_result a, b;
        if (nsm_routh_spatial(W, u0, mu, 0.0, 500, &a) != NSM_OK ||
            nsm_routh_spatial(W, u0, mu, 0.0, 4000, &b) != NSM_OK || a.nphases != 1 ||
            b.nphases != 1) {
            fails++;
            continue;
        }
        double pa[3] = {a.p_t[0], a.p_t[1], a.p_n}, pb[3] = {b.p_t[0], b.p_t[1], b.p_n};
        double e500 = tm_maxabs_diff(3, pa, p), e4000 = tm_maxabs_diff(3, pb, p);
        /* the direction must actually rotate for the case to test anything */
        double rot = fabs(u0[0] * a.u_t[1] - u0[1] * a.u_t[0]) /
                     (hypot(u0[0], u0[1]) * hypot(a.u_t[0], a.u_t[1]));
        if (rot < 1e-3) {
            continue;
        }
        used++;
        sum500 += e500;
        sum4000 += e4000;
        if (!(e4000 < e500 / 4.0) && e500 > 1e-12) {
            printf("\n  case %llu: error %g at 500 steps, %g at 4000\n",
                   (unsigned long long)s, e500, e4000);
            fails++;
        }
    }
    printf("\n  convergence: %d cases, mean error %.3g (500 steps) %.3g (4000 steps), ratio %.1f\n",
           used, sum500 / used, sum4000 / used, sum500 / sum4000);
    CU_ASSERT(used >= 20);
    CU_ASSERT_EQUAL(fails, 0);
    CU_ASSERT(sum4000 < sum500 / 16.0);
    CU_ASSERT(sum500 / used < 1e-3);
}

/* ---------------------------------------------------------------------------------------- */
/* 5. bad input and the trivial answer                                                       */
/* ---------------------------------------------------------------------------------------- */

static void test_errors(void)
{
    double W[9] = {2.0, 0.3, 0.5, 0.3, 1.5, -0.2, 0.5, -0.2, 1.25};
    double u0[3] = {0.7, -0.4, -2.0};
    nsm_routh_spatial_result r, keep;
    memset(&r, 0x5a, sizeof r);
    keep = r;
    CU_ASSERT_EQUAL(nsm_routh_spatial(NULL, u0, 0.5, 0.0, 10, &r), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, NULL, 0.5, 0.0, 10, &r), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, 0.5, 0.0, 10, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, -0.5, 0.0, 10, &r), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, NAN, 0.0, 10, &r), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, INFINITY, 0.0, 10, &r), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, 0.5, -1.0, 10, &r), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, 0.5, NAN, 10, &r), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, 0.5, 0.0, 0, &r), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, 0.5, 0.0, 1000001, &r), NSM_ERR_ARG);
    W[5] = NAN;
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, 0.5, 0.0, 10, &r), NSM_ERR_NOT_FINITE);
    W[5] = -0.2;
    u0[1] = INFINITY;
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, 0.5, 0.0, 10, &r), NSM_ERR_NOT_FINITE);
    u0[1] = -0.4;
    W[7] = -0.2 + 1e-6; /* not symmetric */
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, 0.5, 0.0, 10, &r), NSM_ERR_NOT_SPD);
    W[7] = -0.2;
    W[3] = 0.3 - 1e-6;
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, 0.5, 0.0, 10, &r), NSM_ERR_NOT_SPD);
    W[3] = 0.3;
    double Ind[9] = {1.0, 0.0, 2.0, 0.0, 1.0, 0.0, 2.0, 0.0, 1.0}; /* eigenvalue -1 */
    CU_ASSERT_EQUAL(nsm_routh_spatial(Ind, u0, 0.5, 0.0, 10, &r), NSM_ERR_NOT_SPD);
    double Sing[9] = {1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0}; /* singular W_tt */
    CU_ASSERT_EQUAL(nsm_routh_spatial(Sing, u0, 0.5, 0.0, 10, &r), NSM_ERR_NOT_SPD);
    double Neg[9] = {-1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
    CU_ASSERT_EQUAL(nsm_routh_spatial(Neg, u0, 0.5, 0.0, 10, &r), NSM_ERR_NOT_SPD);
    CU_ASSERT(memcmp(&r, &keep, sizeof r) == 0); /* res not written on error */
    /* symmetric within NSM_ROUTH_SYM_RTOL·trace is accepted */
    W[7] = -0.2 + 1e-13;
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, 0.5, 0.0, 10, &r), NSM_OK);
    W[7] = -0.2;
    /* the trivial answer for u_n >= 0 */
    double sep[3] = {0.7, -0.4, 0.0};
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(W, sep, 0.5, 0.0, 10, &r), NSM_OK);
    CU_ASSERT_EQUAL(r.nphases, 0);
    CU_ASSERT_EQUAL(r.p_n, 0.0);
    CU_ASSERT_EQUAL(r.p_t[0], 0.0);
    CU_ASSERT_EQUAL(r.p_t[1], 0.0);
    CU_ASSERT_EQUAL(r.u_t[0], 0.7);
    CU_ASSERT_EQUAL(r.u_t[1], -0.4);
    CU_ASSERT_EQUAL(r.u_n, 0.0);
    CU_ASSERT_EQUAL(r.steps, 0);
    sep[2] = 3.0;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(W, sep, 0.0, 0.0, 1, &r), NSM_OK);
    CU_ASSERT_EQUAL(r.nphases, 0);
    CU_ASSERT_EQUAL(r.u_n, 3.0);
    CU_ASSERT_EQUAL(r.p_n, 0.0);
    /* ztol: |u_t| <= ztol counts as rest (stick from the start) */
    double small[3] = {1e-10, -1e-10, -1.0};
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(W, small, 2.0, 1e-9, 10, &r), NSM_OK);
    CU_ASSERT_EQUAL(r.nphases, 1);
    CU_ASSERT_EQUAL(r.phase[0], NSM_PHASE_STICK);
    CU_ASSERT_EQUAL(r.steps, 0);
}

/* P1 (tests/fuzz/corpus/fuzz_api/finding_P1_routh_spatial_nan): finite SPD W with a large
   entry and a large normal velocity; nsm_routh_spatial returned NSM_OK with p_t = NaN,
   p_n = inf (and bound = inf). The a priori bound 2 sqrt(u0^T W^-1 u0 · trace W^-1) is about
   2e257·sqrt(1e0 + ...) here only in exact arithmetic: u0^T W^-1 u0 = 1e514 overflows, so the
   answer is NSM_ERR_OVERFLOW with nothing written. */
static void test_overflow(void)
{
    const double W[9] = {1e102, 0, 0, 0, 1, 0, 0, 0, 1};
    const double u0[3] = {-1.0, -1.0, -1e257};
    nsm_routh_spatial_result r, before;
    memset(&r, 0x5a, sizeof r);
    before = r;
    CU_ASSERT_EQUAL(nsm_routh_spatial(W, u0, 0.75, 1e-12, 34, &r), NSM_ERR_OVERFLOW);
    CU_ASSERT(memcmp(&r, &before, sizeof r) == 0);
    /* frictionless: p_n = -u_n/W_nn = 1e310 overflows as well */
    const double W2[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1e-300};
    const double u2[3] = {0.0, 0.0, -1e10};
    CU_ASSERT_EQUAL(nsm_routh_spatial(W2, u2, 0.0, 1e-12, 10, &r), NSM_ERR_OVERFLOW);
    CU_ASSERT(memcmp(&r, &before, sizeof r) == 0);
    /* the same W with u_n = -1e100 (u0^T W^-1 u0 = 1e200) is in range */
    const double u3[3] = {-1.0, -1.0, -1e100};
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(W, u3, 0.75, 1e-12, 34, &r), NSM_OK);
    CU_ASSERT(isfinite(r.p_n) && isfinite(r.p_t[0]) && isfinite(r.p_t[1]) && isfinite(r.bound));
}

/* P9 (finding_P9_routh_spatial_tiny_mu, _subnormal_mu): from rest with W_tn ~ 3.3e-265 and
   mu = 5.7e-299 (or the subnormal 4.9e-324), |W_tt^-1 W_tn|^2 and mu^2 both underflowed to 0
   and the contact stuck, with |p_t| = 2.3e-265 far outside the cone (mu p_n = 4e-299). */
static int in_cone(const nsm_routh_spatial_result *r, double mu)
{
    return hypot(r->p_t[0], r->p_t[1]) <=
           mu * r->p_n * (1.0 + 1e-12) + 4.0 * 4.9406564584124654e-324 * r->p_n;
}

/* The rule at rest (header: stick when |W_tt^-1 W_tn| <= mu) does not change when W_tn and mu
   are multiplied by one factor k: with W_tt = [[2, 0.5], [0.5, 1]] and W_tn = (k, 0),
   |W_tt^-1 W_tn| = k sqrt(1.25)/1.75 = 0.6389 k, so mu = 0.5 k slips and mu = 0.8 k sticks at
   every k from 1 down to 1e-300 (k^2 underflows below 1e-162). */
static void test_tiny_mu(void)
{
    const double e1 = 2.7066892341766851e-319, e2 = 3.3015747748812549e-265;
    const double Wa[9] = {1, e1, e2, e1, 4.875, 0, e2, 0, 4.875};
    const double ua[3] = {0, 0, -3.4375};
    const double mua = 5.7270805436282183e-299;
    const double Wb[9] = {5, -4, e2, -4, 8.875, 0, e2, 0, 5};
    const double ub[3] = {3.3011888264899712e-265, 9.2045528308649126e-92, -3.6875};
    const double mub = 4.9406564584124654e-324;
    nsm_routh_spatial_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(Wa, ua, mua, 1e-12, 4, &r), NSM_OK);
    CU_ASSERT(in_cone(&r, mua));
    CU_ASSERT(r.nphases >= 1 && r.phase[0] == NSM_PHASE_SLIP);
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(Wb, ub, mub, 1e-12, 2, &r), NSM_OK);
    CU_ASSERT(in_cone(&r, mub));
    CU_ASSERT(r.nphases >= 1 && r.phase[0] == NSM_PHASE_SLIP);
    /* finding_P9_routh_spatial_huge_W_tn, _huge_W_tt: a first fix divided W_tn and mu by
       max |W_tn,i| before the rule, and with W_tn ~ 1.7e289 the squares underflowed again */
    const double big = 1.7042403384699903e+289, big2 = 1.0988079879485102e+282;
    const double Wc[9] = {8.9375, -3.9375, -4, -3.9375, big, -big, -4, -big, big};
    const double uc[3] = {3.9375, 0, -4};
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(Wc, uc, 0.5, 1e-12, 7, &r), NSM_OK);
    CU_ASSERT(in_cone(&r, 0.5));
    const double Wd[9] = {big2, -4, -big2, -4, 13, -4, -big2, -4, big2};
    const double ud[3] = {0, -3.5, -4};
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(Wd, ud, 0.5, 1e-12, 7, &r), NSM_OK);
    CU_ASSERT(in_cone(&r, 0.5));
    const double ks[6] = {1.0, 1e-100, 1e-170, 1e-200, 1e-260, 1e-300};
    for (size_t i = 0; i < 6; i++) {
        const double k = ks[i];
        const double W[9] = {2, 0.5, k, 0.5, 1, 0, k, 0, 3};
        const double u0[3] = {0, 0, -1};
        for (int stick = 0; stick < 2; stick++) {
            const double mu = (stick ? 0.8 : 0.5) * k;
            CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(W, u0, mu, 1e-12, 100, &r), NSM_OK);
            CU_ASSERT(in_cone(&r, mu));
            CU_ASSERT(r.nphases >= 1 &&
                      r.phase[0] == (stick ? NSM_PHASE_STICK : NSM_PHASE_SLIP));
            if (stick) { /* p_t = -W_tt^-1 W_tn p_n = -(k/1.75)(1, -0.5) p_n */
                CU_ASSERT(fabs(r.p_t[0] + k / 1.75 * r.p_n) <= 1e-12 * k * r.p_n);
                CU_ASSERT(fabs(r.p_t[1] - 0.5 * k / 1.75 * r.p_n) <= 1e-12 * k * r.p_n);
            } else { /* on the cone's boundary */
                CU_ASSERT(hypot(r.p_t[0], r.p_t[1]) >= mu * r.p_n * (1.0 - 1e-9));
            }
        }
    }
}

static CU_TestInfo spatial_tests[] = {
    {"planar embedding: slip throughout (closed form)", test_planar_slip_throughout},
    {"planar embedding: slip then stick (closed form)", test_planar_slip_stick},
    {"planar embedding: slip then reversal (closed form)", test_planar_slip_reversal},
    {"planar embedding: from rest, frictionless", test_planar_from_rest},
    {"planar embedding: Painleve continuation", test_planar_painleve},
    {"rotation of the tangent plane (1000 cases)", test_rotation},
    {"convergence against RK4 as steps grows", test_convergence},
    {"invariants (1000 cases)", test_invariants},
    {"bad input, trivial answer, ztol", test_errors},
    {"overflow: NSM_ERR_OVERFLOW, not NaN impulses on NSM_OK (fuzz finding P1)",
     test_overflow},
    {"tiny mu and W_tn: the rule at rest does not underflow (fuzz finding P9)", test_tiny_mu},
    CU_TEST_INFO_NULL,
};

static int reg(void)
{
    return nsm_add_suite("routh_spatial", spatial_tests);
}

int main(void) { return nsm_test_main("test_routh_spatial", reg); }
