/* Tests of the contact module: Routh's method for one planar contact. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "exact.h"
#include "../src/contact/coulomb.h"
#include "harness.h"
#include "prop.h"
#include "nsmech.h"

#define REL(x, y) (fabs((x) - (y)) <= 1e-12 * (1.0 + fabs(y)))

static void check_close(double got, double want, const char *what)
{
    if (!REL(got, want)) {
        printf("\n  %s: got %.17g want %.17g\n", what, got, want);
    }
    CU_ASSERT(REL(got, want));
}

/* Common end conditions of a compressive impact: u = u0 + W p, u_n = 0, p in the cone. */
static void check_consistent(const double *W, const double *u0, double mu,
                             const nsm_routh_result *r)
{
    CU_ASSERT(REL(r->u_t, u0[0] + W[0] * r->p_t + W[1] * r->p_n));
    CU_ASSERT(fabs(u0[1] + W[2] * r->p_t + W[3] * r->p_n) <= 1e-12 * (1 + fabs(u0[1])));
    CU_ASSERT_EQUAL(r->u_n, 0.0);
    CU_ASSERT(r->p_n >= 0.0);
    CU_ASSERT(fabs(r->p_t) <= mu * r->p_n * (1 + 1e-12));
}

/* CLAIM: contact.h nsm_routh_planar: slip throughout (closed form; mirror image) */
static void test_routh_slip_throughout(void)
{
    /* W = [[a, b], [b, c]], slip with u_t > 0: p_n = -u_n0/(c - mu b), p_t = -mu p_n */
    const double a = 2.0, b = 0.5, c = 1.0, mu = 0.3;
    double W[4] = {a, b, b, c}, u0[2] = {1.0, -1.0};
    nsm_routh_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, mu, 0.0, &r), NSM_OK);
    double pn = 1.0 / (c - mu * b);
    check_close(r.p_n, pn, "p_n");
    check_close(r.p_t, -mu * pn, "p_t");
    check_close(r.u_t, 1.0 + (b - mu * a) * pn, "u_t");
    CU_ASSERT(r.u_t > 0.0);
    CU_ASSERT_EQUAL(r.nphases, 1);
    CU_ASSERT_EQUAL(r.phase[0], NSM_PHASE_SLIP_POS);
    CU_ASSERT_EQUAL(r.painleve, 0);
    check_consistent(W, u0, mu, &r);
    /* mirror image: u_t < 0 and W_tn < 0 give the mirrored result */
    double Wm[4] = {a, -b, -b, c}, um[2] = {-1.0, -1.0};
    nsm_routh_result rm;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(Wm, um, mu, 0.0, &rm), NSM_OK);
    check_close(rm.p_n, r.p_n, "mirror p_n");
    check_close(rm.p_t, -r.p_t, "mirror p_t");
    check_close(rm.u_t, -r.u_t, "mirror u_t");
    CU_ASSERT_EQUAL(rm.phase[0], NSM_PHASE_SLIP_NEG);
}

/* CLAIM: contact.h nsm_routh_planar: slip then stick (mu·W_tt >= |W_tn|) */
static void test_routh_slip_stick(void)
{
    /* slip stops at p1 = u_t0/(mu a - b); then stick at rate -b/a with normal rate c - b²/a */
    const double a = 2.0, b = 0.5, c = 1.0, mu = 0.5;
    double W[4] = {a, b, b, c}, u0[2] = {0.2, -1.0};
    nsm_routh_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, mu, 0.0, &r), NSM_OK);
    double p1 = 0.2 / (mu * a - b);
    double un1 = -1.0 + (c - mu * b) * p1;
    double p2 = -un1 / (c - b * b / a);
    check_close(p1, 0.4, "hand value p1");
    check_close(p2, 0.8, "hand value p2");
    check_close(r.p_n, p1 + p2, "p_n");
    check_close(r.p_t, -mu * p1 - (b / a) * p2, "p_t");
    CU_ASSERT(fabs(r.u_t) <= 1e-15);
    CU_ASSERT_EQUAL_FATAL(r.nphases, 2);
    CU_ASSERT_EQUAL(r.phase[0], NSM_PHASE_SLIP_POS);
    CU_ASSERT_EQUAL(r.phase[1], NSM_PHASE_STICK);
    check_close(r.phase_end[0], p1, "phase end");
    check_consistent(W, u0, mu, &r);
}

/* CLAIM: contact.h nsm_routh_planar: slip then reversed slip (mu·W_tt < |W_tn|) */
static void test_routh_slip_reversal(void)
{
    /* |b| > mu a: slip with u_t < 0 stops, then slip resumes in direction sign(b) = + */
    const double a = 1.0, b = 0.8, c = 1.0, mu = 0.2;
    double W[4] = {a, b, b, c}, u0[2] = {-0.1, -1.0};
    nsm_routh_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, mu, 0.0, &r), NSM_OK);
    double p1 = 0.1 / (mu * a + b);          /* u_t rate a·mu + b */
    double un1 = -1.0 + (c + mu * b) * p1;   /* normal rate b·mu + c */
    double p2 = -un1 / (c - mu * b);         /* reversed slip: rate -mu */
    check_close(r.p_n, p1 + p2, "p_n");
    check_close(r.p_t, mu * p1 - mu * p2, "p_t");
    check_close(r.u_t, (b - mu * a) * p2, "u_t");
    CU_ASSERT(r.u_t > 0.0);
    CU_ASSERT_EQUAL_FATAL(r.nphases, 2);
    CU_ASSERT_EQUAL(r.phase[0], NSM_PHASE_SLIP_NEG);
    CU_ASSERT_EQUAL(r.phase[1], NSM_PHASE_SLIP_POS);
    check_consistent(W, u0, mu, &r);
}

/* CLAIM: contact.h nsm_routh_planar: stick and reversal from rest; |u_t| <= ztol is rest */
static void test_routh_from_rest(void)
{
    /* stick from rest */
    double W[4] = {2.0, 0.5, 0.5, 1.0}, u0[2] = {0.0, -1.0};
    nsm_routh_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, 0.5, 0.0, &r), NSM_OK);
    check_close(r.p_n, 1.0 / 0.875, "stick p_n");
    check_close(r.p_t, -0.25 / 0.875, "stick p_t");
    CU_ASSERT(fabs(r.u_t) <= 1e-15);
    CU_ASSERT_EQUAL(r.nphases, 1);
    CU_ASSERT_EQUAL(r.phase[0], NSM_PHASE_STICK);
    check_consistent(W, u0, 0.5, &r);
    /* within ztol counts as rest */
    u0[0] = 1e-10;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, 0.5, 1e-9, &r), NSM_OK);
    CU_ASSERT_EQUAL(r.phase[0], NSM_PHASE_STICK);
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, 0.5, 0.0, &r), NSM_OK);
    CU_ASSERT_EQUAL(r.phase[0], NSM_PHASE_SLIP_POS);
    /* reversal from rest: slip in direction sign(W_tn) */
    double V[4] = {1.0, -0.8, -0.8, 1.0}, v0[2] = {0.0, -1.0};
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(V, v0, 0.2, 0.0, &r), NSM_OK);
    double pn = 1.0 / (1.0 - 0.2 * 0.8);
    check_close(r.p_n, pn, "reversal p_n");
    check_close(r.p_t, 0.2 * pn, "reversal p_t");
    check_close(r.u_t, (-0.8 + 0.2) * pn, "reversal u_t");
    CU_ASSERT_EQUAL(r.nphases, 1);
    CU_ASSERT_EQUAL(r.phase[0], NSM_PHASE_SLIP_NEG);
    check_consistent(V, v0, 0.2, &r);
}

/* CLAIM: contact.h nsm_routh_planar: mu = 0: one phase, p_n = -u_n/W_nn */
static void test_routh_frictionless(void)
{
    double W[4] = {1.3, -0.7, -0.7, 2.9}, u0[2] = {0.37, -1.7};
    nsm_routh_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, 0.0, 0.0, &r), NSM_OK);
    CU_ASSERT_EQUAL(r.p_n, 1.7 / 2.9); /* exact: one division */
    CU_ASSERT_EQUAL(r.p_t, 0.0);
    CU_ASSERT_EQUAL(r.u_n, 0.0);
    CU_ASSERT_EQUAL(r.u_t, 0.37 + (-0.7) * (1.7 / 2.9));
    CU_ASSERT_EQUAL(r.nphases, 1);
    CU_ASSERT_EQUAL(r.phase[0], NSM_PHASE_FRICTIONLESS);
}

/* CLAIM: contact.h nsm_routh_planar: a Painlevé slip continues until slip stops */
static void test_routh_painleve(void)
{
    /* mu·W_tn > W_nn: while slipping forward, u_n decreases (Painlevé); slip stops, then stick */
    const double a = 1.0, b = 0.9, c = 1.0, mu = 2.0;
    double W[4] = {a, b, b, c}, u0[2] = {0.5, -0.1};
    nsm_routh_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, mu, 0.0, &r), NSM_OK);
    double p1 = 0.5 / (mu * a - b);
    double un1 = -0.1 + (c - mu * b) * p1;
    CU_ASSERT(un1 < -0.1);
    double p2 = -un1 / (c - b * b / a);
    check_close(r.p_n, p1 + p2, "p_n");
    check_close(r.p_t, -mu * p1 - (b / a) * p2, "p_t");
    CU_ASSERT_EQUAL(r.painleve, 1);
    CU_ASSERT_EQUAL_FATAL(r.nphases, 2);
    CU_ASSERT_EQUAL(r.phase[0], NSM_PHASE_SLIP_POS);
    CU_ASSERT_EQUAL(r.phase[1], NSM_PHASE_STICK);
    check_consistent(W, u0, mu, &r);
    /* Painlevé start with u_n = 0 exactly: not penetrating, trivial answer */
    u0[1] = 0.0;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, mu, 0.0, &r), NSM_OK);
    CU_ASSERT_EQUAL(r.nphases, 0);
    CU_ASSERT_EQUAL(r.p_n, 0.0);
}

/* CLAIM: contact.h nsm_routh_planar: errors, res not written; u_n >= 0: trivial answer */
static void test_routh_errors(void)
{
    double W[4] = {2.0, 0.5, 0.5, 1.0}, u0[2] = {0.3, -1.0};
    nsm_routh_result r;
    memset(&r, 0x5a, sizeof r);
    nsm_routh_result keep = r;
    CU_ASSERT_EQUAL(nsm_routh_planar(NULL, u0, 0.5, 0.0, &r), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_routh_planar(W, NULL, 0.5, 0.0, &r), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_routh_planar(W, u0, 0.5, 0.0, NULL), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_routh_planar(W, u0, -0.5, 0.0, &r), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_routh_planar(W, u0, NAN, 0.0, &r), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_routh_planar(W, u0, 0.5, -1.0, &r), NSM_ERR_ARG);
    CU_ASSERT_EQUAL(nsm_routh_planar(W, u0, 0.5, INFINITY, &r), NSM_ERR_ARG);
    u0[1] = NAN;
    CU_ASSERT_EQUAL(nsm_routh_planar(W, u0, 0.5, 0.0, &r), NSM_ERR_NOT_FINITE);
    u0[1] = -1.0;
    W[3] = INFINITY;
    CU_ASSERT_EQUAL(nsm_routh_planar(W, u0, 0.5, 0.0, &r), NSM_ERR_NOT_FINITE);
    W[3] = 0.125; /* det = 0.25 - 0.25 = 0 */
    CU_ASSERT_EQUAL(nsm_routh_planar(W, u0, 0.5, 0.0, &r), NSM_ERR_NOT_SPD);
    W[3] = 1.0;
    W[0] = -2.0;
    CU_ASSERT_EQUAL(nsm_routh_planar(W, u0, 0.5, 0.0, &r), NSM_ERR_NOT_SPD);
    W[0] = 2.0;
    W[2] = 0.6; /* not symmetric */
    CU_ASSERT_EQUAL(nsm_routh_planar(W, u0, 0.5, 0.0, &r), NSM_ERR_NOT_SPD);
    CU_ASSERT(memcmp(&r, &keep, sizeof r) == 0);
    /* separating: trivial answer */
    W[2] = 0.5;
    u0[1] = 0.25;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, 0.5, 0.0, &r), NSM_OK);
    CU_ASSERT_EQUAL(r.nphases, 0);
    CU_ASSERT_EQUAL(r.p_n, 0.0);
    CU_ASSERT_EQUAL(r.p_t, 0.0);
    CU_ASSERT_EQUAL(r.u_t, 0.3);
    CU_ASSERT_EQUAL(r.u_n, 0.25);
}

/*
 * Independent oracle: explicit fine-step integration of the inclusion in impulse space,
 * du/dp_n = W (lambda_t, 1), lambda_t = -mu sign(u_t) while slipping; at rest the Coulomb
 * selection that keeps u_t = 0 (|lambda_t| <= mu), else slip in the direction u_t takes.
 */
static void integrate_fine(const double *W, const double *u0, double mu, double dp, double *p,
                           double *u)
{
    double ut = u0[0], un = u0[1], pt = 0.0, pn = 0.0;
    for (long k = 0; k < 100000000L && un < 0.0; k++) {
        double lam;
        double stick = -W[1] / W[0];
        if (fabs(ut) <= fabs(W[0] * (-mu) + W[1]) * dp + fabs(W[0] * mu + W[1]) * dp &&
            fabs(stick) <= mu) {
            lam = stick;
            ut = 0.0;
        } else if (ut > 0.0 || (ut == 0.0 && W[1] > 0.0)) {
            lam = -mu;
        } else {
            lam = mu;
        }
        double dun = (W[2] * lam + W[3]) * dp;
        double h = dp;
        if (dun > 0.0 && un + dun > 0.0) {
            h = -un / (W[2] * lam + W[3]);
        }
        ut += (W[0] * lam + W[1]) * h;
        un += (W[2] * lam + W[3]) * h;
        pt += lam * h;
        pn += h;
    }
    p[0] = pt;
    p[1] = pn;
    u[0] = ut;
    u[1] = un;
}

static void random_w(nsm_rng *rng, double *W)
{
    double a = exp(nsm_rng_range(rng, -1.5, 1.5));
    double c = exp(nsm_rng_range(rng, -1.5, 1.5));
    double rho = nsm_rng_range(rng, -0.95, 0.95);
    W[0] = a;
    W[3] = c;
    W[1] = W[2] = rho * sqrt(a * c);
}

static int prop_routh_vs_fine(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    double W[4], u0[2];
    random_w(rng, W);
    double mu = nsm_rng_index(rng, 0, 4) == 0 ? 0.0 : exp(nsm_rng_range(rng, -2.5, 1.0));
    u0[0] = nsm_rng_index(rng, 0, 4) == 0 ? 0.0 : nsm_rng_normal(rng);
    u0[1] = -fabs(nsm_rng_normal(rng)) - 0.05;
    nsm_routh_result r;
    if (nsm_routh_planar(W, u0, mu, 0.0, &r) != NSM_OK) {
        snprintf(msg, msglen, "status not OK");
        return 1;
    }
    double p[2], u[2];
    double dp = r.p_n * 2e-5 + 1e-12;
    integrate_fine(W, u0, mu, dp, p, u);
    double sc = 1.0 + fabs(r.p_n) + fabs(r.p_t);
    double tol = 2e-3 * sc;
    if (fabs(p[1] - r.p_n) > tol || fabs(p[0] - r.p_t) > tol ||
        fabs(u[0] - r.u_t) > 2e-3 * (1.0 + fabs(r.u_t) + sc * (W[0] + fabs(W[1])))) {
        snprintf(msg, msglen,
                 "routh p=(%g,%g) u_t=%g vs fine p=(%g,%g) u_t=%g (mu=%g W=%g,%g,%g u0=%g,%g)",
                 r.p_t, r.p_n, r.u_t, p[0], p[1], u[0], mu, W[0], W[1], W[3], u0[0], u0[1]);
        return 1;
    }
    /* energy: change = p·u0 + p^T W p / 2 <= 0 */
    double dE = r.p_t * u0[0] + r.p_n * u0[1] +
                0.5 * (W[0] * r.p_t * r.p_t + 2 * W[1] * r.p_t * r.p_n + W[3] * r.p_n * r.p_n);
    if (dE > 1e-12 * sc * sc) {
        snprintf(msg, msglen, "energy increased by %g", dE);
        return 1;
    }
    double bound;
    if (nsm_routh_bound(W, u0, mu, &bound) != NSM_OK || !(r.p_n <= bound)) {
        snprintf(msg, msglen, "p_n %.17g exceeds the Lemma 2 bound %.17g", r.p_n, bound);
        return 1;
    }
    if (fabs(r.p_t) > mu * r.p_n * (1 + 1e-12) || r.u_n != 0.0) {
        snprintf(msg, msglen, "impulse outside the cone or u_n != 0");
        return 1;
    }
    return 0;
}

/* CLAIM: contact.h nsm_routh_planar: resolved exactly (fine steps); p_n <= bound (I5) */
static void test_routh_property(void)
{
    prop_run("routh planar equals fine-step integration", prop_routh_vs_fine, NULL, 300);
}

/* CLAIM: contact.h nsm_routh_planar, nsm_routh_bound, nsm_routh_spatial: an SPD W is
   accepted at any scale. W = 2^-664·I (about 1e-200) was refused as NOT_SPD (planar: det W
   underflowed to 0) and as OVERFLOW (spatial: e0·tr of the bound overflowed), although the
   answer, 2^664 times that of W = I, is finite. */
static void test_routh_tiny_w(void)
{
    const double s = 0x1p-664;
    const double W1[4] = {1.0, 0.0, 0.0, 1.0}, Ws[4] = {s, 0.0, 0.0, s}, u0[2] = {1.0, -1.0};
    nsm_routh_result a, b;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W1, u0, 0.5, 0.0, &a), NSM_OK);
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(Ws, u0, 0.5, 0.0, &b), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(b.p_n * s, a.p_n, 1e-12 * a.p_n);
    CU_ASSERT_DOUBLE_EQUAL(b.p_t * s, a.p_t, 1e-12 * a.p_n);
    double bound = -1.0;
    CU_ASSERT_EQUAL(nsm_routh_bound(Ws, u0, 0.5, &bound), NSM_OK);
    CU_ASSERT(bound >= b.p_n);
    const double V1[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, Vs[9] = {s, 0, 0, 0, s, 0, 0, 0, s};
    const double v0[3] = {1.0, 0.0, -1.0};
    nsm_routh_spatial_result c, d;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(V1, v0, 0.5, 0.0, 100, &c), NSM_OK);
    CU_ASSERT_EQUAL_FATAL(nsm_routh_spatial(Vs, v0, 0.5, 0.0, 100, &d), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(d.p_n * s, c.p_n, 1e-12 * c.p_n);
    CU_ASSERT_DOUBLE_EQUAL(d.p_t[0] * s, c.p_t[0], 1e-12 * c.p_n);
}

/* The clamps at the top of the double range (review finding): mu·pn overflowed, the radius was
   infinite, inward1 kept a point the sound test rejects and inward2 returned inf or NaN. Now
   the radius is DBL_MAX and each result lies in the exact cone and is accepted at tol = 0. */
static void test_inward_huge(void)
{
    const double big = DBL_MAX;
    CU_ASSERT_EQUAL(nsm_coulomb_radius(2.0, big), big);
    double pt = nsm_coulomb_inward1(2.0, big, big);
    int in = -1;
    CU_ASSERT(exact_in_cone(1, 2.0, big, &pt, 0.0));
    CU_ASSERT_EQUAL(nsm_cone_contains(1, 2.0, big, &pt, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
    const double starts[2][2] = {{big, 0.0}, {0.75 * big, 0.75 * big}};
    for (int k = 0; k < 2; k++) {
        double p[2] = {starts[k][0], starts[k][1]};
        nsm_coulomb_inward2(2.0, big, &p[0], &p[1]);
        CU_ASSERT(isfinite(p[0]) && isfinite(p[1]));
        CU_ASSERT(exact_in_cone(2, 2.0, big, p, 0.0));
        CU_ASSERT_EQUAL(nsm_cone_contains(2, 2.0, big, p, 0.0, &in), NSM_OK);
        CU_ASSERT_EQUAL(in, 1);
    }
    /* through Routh planar: p_t = DBL_MAX with p_n = DBL_MAX/2, mu = 4 */
    const double W[4] = {0x1p-100, 0.0, 0.0, 0x1p-100};
    const double u0[2] = {-0x1.fffffffffffffp923, -0x1.fffffffffffffp922};
    nsm_routh_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, 4.0, 0.0, &r), NSM_OK);
    CU_ASSERT_EQUAL(nsm_cone_contains(1, 4.0, r.p_n, &r.p_t, 0.0, &in), NSM_OK);
    CU_ASSERT_EQUAL(in, 1);
}

/* CLAIM: contact.h nsm_routh_planar: NSM_ERR_NOT_SPD only for a W that is not SPD, at any
   scale. W scaled by its largest entry lost W_nn of diag(2^600, 2^-500) (refused), and
   W_tt + W_nn overflowed in the symmetry test, which then let any asymmetry pass. */
static void test_routh_spd_scales(void)
{
    /* W_tt, W_nn, u_n (p_n = -u_n/W_nn stays finite) */
    const double d[3][3] = {{0x1p600, 0x1p-500, -1.0}, {0x1p1000, 0x1p-100, -1.0},
                            {2.0, 0x1p-1074, -0x1p-200}};
    const double u0[2] = {0.0, -1.0};
    nsm_routh_result r;
    for (int k = 0; k < 3; k++) {
        const double W[4] = {d[k][0], 0.0, 0.0, d[k][1]};
        const double uk[2] = {0.0, d[k][2]};
        CU_ASSERT_EQUAL(nsm_routh_planar(W, uk, 0.5, 0.0, &r), NSM_OK);
        CU_ASSERT_EQUAL(r.p_n, -d[k][2] / d[k][1]);
    }
    const double A[4] = {DBL_MAX, DBL_MAX, -DBL_MAX, DBL_MAX};
    CU_ASSERT_EQUAL(nsm_routh_planar(A, u0, 0.5, 0.0, &r), NSM_ERR_NOT_SPD);
    const double S[4] = {1.0, 1.0, 1.0, 1.0}; /* singular */
    CU_ASSERT_EQUAL(nsm_routh_planar(S, u0, 0.5, 0.0, &r), NSM_ERR_NOT_SPD);
}

/* A random Routh problem, planar (W 2×2) or spatial (W 3×3), SPD, approaching. */
static int prop_routh_cone_ieee(nsm_rng *rng, void *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    double a = nsm_rng_range(rng, 0.2, 1.2), b = nsm_rng_range(rng, 0.2, 1.2);
    double c = nsm_rng_range(rng, -0.45, 0.45) * sqrt(a * b);
    double mu = nsm_rng_index(rng, 0, 2) == 0 ? 0.1 * (double)nsm_rng_index(rng, 1, 9)
                                              : nsm_rng_range(rng, 0.0, 1.5);
    double scale = ldexp(1.0, (int)nsm_rng_index(rng, 0, 80) - 40);
    double W2[4] = {a, c, c, b};
    double u2[2] = {scale * nsm_rng_range(rng, -2, 2), -scale * nsm_rng_range(rng, 0.01, 1)};
    nsm_routh_result r;
    if (nsm_routh_planar(W2, u2, mu, 0.0, &r) == NSM_OK &&
        !exact_in_cone(1, mu, r.p_n, &r.p_t, 0.0)) {
        snprintf(msg, msglen, "planar: mu=%a p_n=%a p_t=%a outside its cone", mu, r.p_n, r.p_t);
        return 1;
    }
    double e = nsm_rng_range(rng, -0.2, 0.2), f = nsm_rng_range(rng, -0.2, 0.2);
    double W3[9] = {a, 0.5 * c, e, 0.5 * c, b, f, e, f, 1.5};
    double u3[3] = {scale * nsm_rng_range(rng, -2, 2), scale * nsm_rng_range(rng, -2, 2),
                    -scale * nsm_rng_range(rng, 0.01, 1)};
    nsm_routh_spatial_result q;
    if (nsm_routh_spatial(W3, u3, mu, 0.0, 50, &q) == NSM_OK &&
        !exact_in_cone(2, mu, q.p_n, q.p_t, 0.0)) {
        snprintf(msg, msglen, "spatial: mu=%a p_n=%a p_t=(%a,%a) outside its cone", mu, q.p_n,
                 q.p_t[0], q.p_t[1]);
        return 1;
    }
    return 0;
}

/* CLAIM: contact.h nsm_routh_planar and nsm_routh_spatial, clause in_cone: it holds for the
   IEEE computation, checked in rational arithmetic. The first case is the counterexample to
   the earlier code: W = I, u0 = (100, -3), mu = 0.1 slid throughout and returned
   p_t = -fl(0.1*3), beyond mu*p_n = 0.3 exactly. */
static void test_routh_cone_ieee(void)
{
    const double W[4] = {1.0, 0.0, 0.0, 1.0}, u0[2] = {100.0, -3.0};
    nsm_routh_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u0, 0.1, 0.0, &r), NSM_OK);
    CU_ASSERT_EQUAL(r.p_n, 3.0);
    CU_ASSERT(exact_in_cone(1, 0.1, r.p_n, &r.p_t, 0.0));
    CU_ASSERT_DOUBLE_EQUAL(r.p_t, -0.3, 1e-13); /* moved inside by at most 2^-44 of 0.3 */
    prop_run("routh impulses in their cones in exact arithmetic", prop_routh_cone_ieee, NULL,
             20000);
}

/* bound inside W (each entry) or inside u0: NSM_ERR_ALIAS, nothing written. */
static void test_routh_bound_apart(void)
{
    for (int k = 0; k < 6; k++) {
        double a[6] = {2.0, 0.5, 0.5, 1.0, 0.0, -1.0}; /* W, then u0 */
        double keep[6];
        memcpy(keep, a, sizeof keep);
        CU_ASSERT_EQUAL(nsm_routh_bound(a, a + 4, 0.5, &a[k]), NSM_ERR_ALIAS);
        CU_ASSERT(memcmp(keep, a, sizeof keep) == 0);
    }
    double W[4] = {2.0, 0.5, 0.5, 1.0}, u0[2] = {0.0, -1.0}, bound = -1.0;
    CU_ASSERT_EQUAL(nsm_routh_bound(W, u0, 0.5, &bound), NSM_OK);
    CU_ASSERT(bound > 0.0);
}

/* The a priori bound of [I] Lemma 2 (docs/math.md (I5)). */
/* CLAIM: contact.h nsm_routh_bound: Lemma 2 (I5); mu = 0: -u_n/W_nn; errors */
static void test_routh_bound(void)
{
    double W[4] = {2.0, 0.5, 0.5, 1.0}, u0[2] = {0.0, -1.0}, bound = -1;
    /* stick from rest: u0^T W^-1 u0 = a/det = 2/1.75; lambda_min = (3 - sqrt 2)/2; mu = 0.5 */
    CU_ASSERT_EQUAL_FATAL(nsm_routh_bound(W, u0, 0.5, &bound), NSM_OK);
    double want = sqrt(2.0 / 1.75) / (sqrt((3.0 - sqrt(2.0)) / 2.0) * 0.5);
    CU_ASSERT(fabs(bound - want * (1 + NSM_BOUND_RTOL)) <= 1e-14 * want);
    /* mu >= 1 uses min(mu, 1) = 1 */
    CU_ASSERT_EQUAL_FATAL(nsm_routh_bound(W, u0, 3.0, &bound), NSM_OK);
    CU_ASSERT(fabs(bound - 0.5 * want * (1 + NSM_BOUND_RTOL)) <= 1e-14 * want);
    /* frictionless: exactly -u_n/W_nn (with the rounding margin) */
    CU_ASSERT_EQUAL_FATAL(nsm_routh_bound(W, u0, 0.0, &bound), NSM_OK);
    CU_ASSERT_DOUBLE_EQUAL(bound, 1.0 * (1 + NSM_BOUND_RTOL), 1e-15);
    u0[1] = 0.5;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_bound(W, u0, 0.5, &bound), NSM_OK);
    CU_ASSERT_EQUAL(bound, 0.0);
    bound = 7.0;
    CU_ASSERT_EQUAL(nsm_routh_bound(NULL, u0, 0.5, &bound), NSM_ERR_NULL);
    CU_ASSERT_EQUAL(nsm_routh_bound(W, u0, -0.5, &bound), NSM_ERR_ARG);
    W[3] = 0.1;
    CU_ASSERT_EQUAL(nsm_routh_bound(W, u0, 0.5, &bound), NSM_ERR_NOT_SPD);
    W[3] = NAN;
    CU_ASSERT_EQUAL(nsm_routh_bound(W, u0, 0.5, &bound), NSM_ERR_NOT_FINITE);
    CU_ASSERT_EQUAL(bound, 7.0);
}

/* P6 (finding_P6_routh_planar_overflow): W_nn = 1e-300, u_n = -1e10, so p_n = -u_n/W_nn =
   1e310 is beyond DBL_MAX; nsm_routh_planar returned NSM_OK with p_n = inf, p_t = u_t = NaN
   and nsm_routh_bound NSM_OK with bound = inf. Now NSM_ERR_OVERFLOW, nothing written. */
/* CLAIM: contact.h nsm_routh_planar, nsm_routh_bound: NSM_ERR_OVERFLOW (P6) */
static void test_routh_overflow(void)
{
    const double W[4] = {1.0, 0.0, 0.0, 1e-300}, u0[2] = {0.0, -1e10};
    const double mus[2] = {0.0, 0.5};
    for (size_t i = 0; i < 2; i++) {
        nsm_routh_result r, before;
        memset(&r, 0x5a, sizeof r);
        before = r;
        CU_ASSERT_EQUAL(nsm_routh_planar(W, u0, mus[i], 1e-12, &r), NSM_ERR_OVERFLOW);
        CU_ASSERT(memcmp(&r, &before, sizeof r) == 0);
        double b = -1.0;
        CU_ASSERT_EQUAL(nsm_routh_bound(W, u0, mus[i], &b), NSM_ERR_OVERFLOW);
        CU_ASSERT_EQUAL(b, -1.0);
    }
    /* Data far from 1 whose bound is in range (header: "evaluated on u0 and W scaled"):
       W = diag(1e300, 1e300) made det W overflow, and the overflowed quotient read as a bound
       of 0 with NSM_OK; u0 ~ 1e-234 (a fuzz input) underflowed the quadratic form to 0, the
       same wrong 0. Closed form for diagonal W: sqrt(u_t^2/W_tt + u_n^2/W_nn) /
       (sqrt(min(W_tt, W_nn)) min(mu, 1)), on values of order 1 scaled by hand. */
    const double Wbig[4] = {1e300, 0.0, 0.0, 1e300}, um[2] = {0.0, -1.0};
    double bb = -1.0;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_bound(Wbig, um, 0.5, &bb), NSM_OK);
    CU_ASSERT(fabs(bb / (2e-300 * (1.0 + NSM_BOUND_RTOL)) - 1.0) <= 1e-12);
    const double Wt[4] = {1.5, 0.0, 0.0, 4.9375};
    const double ut[2] = {-5.0714152018870421e-257, -9.9261575707946013e-234};
    CU_ASSERT_EQUAL_FATAL(nsm_routh_bound(Wt, ut, 1.75, &bb), NSM_OK);
    const double st = ut[0] / 1e-233, sn = ut[1] / 1e-233;
    const double want = 1e-233 * sqrt(st * st / 1.5 + sn * sn / 4.9375) / sqrt(1.5);
    CU_ASSERT(fabs(bb / (want * (1.0 + NSM_BOUND_RTOL)) - 1.0) <= 1e-12);
    nsm_routh_result rt;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(Wt, ut, 1.75, 0.0, &rt), NSM_OK);
    CU_ASSERT(rt.p_n > 0.0 && rt.p_n <= bb);
    /* the same contact at u_n = -1e-10 is in range: p_n = 1e290 exactly as the closed form */
    const double u1[2] = {0.0, -1e-10};
    nsm_routh_result r;
    CU_ASSERT_EQUAL_FATAL(nsm_routh_planar(W, u1, 0.0, 1e-12, &r), NSM_OK);
    CU_ASSERT(REL(r.p_n, 1e290));
}

static CU_TestInfo routh_tests[] = {
    {"routh: Lemma 2 bound (closed form, frictionless, errors)", test_routh_bound},
    {"routh: Lemma 2 bound inside W or u0 gives NSM_ERR_ALIAS", test_routh_bound_apart},
    {"routh: slip throughout (closed form, mirror)", test_routh_slip_throughout},
    {"routh: slip then stick (closed form)", test_routh_slip_stick},
    {"routh: slip then reversal (closed form)", test_routh_slip_reversal},
    {"routh: stick and reversal from rest", test_routh_from_rest},
    {"routh: frictionless is exact", test_routh_frictionless},
    {"routh: Painleve continuation", test_routh_painleve},
    {"routh: errors and separating input", test_routh_errors},
    {"routh: property against fine-step integration", test_routh_property},
    {"routh: p_n beyond DBL_MAX is NSM_ERR_OVERFLOW (fuzz finding P6)", test_routh_overflow},
    {"routh: impulses in their cones in exact arithmetic (IEEE)", test_routh_cone_ieee},
    {"routh: W = 2^-664 I accepted, the answer scaled (planar, bound, spatial)", test_routh_tiny_w},
    {"routh: SPD at any scale, asymmetry near DBL_MAX refused", test_routh_spd_scales},
    {"coulomb: the final clamps at the top of the double range", test_inward_huge},
    CU_TEST_INFO_NULL,
};

static int reg(void) { return nsm_add_suite("routh", routh_tests); }

int main(void) { return nsm_test_main("test_contact", reg); }
