/*
 * Moreau's inelastic impulse against the library (docs/math.md, "Exploring the set"; issue 43,
 * item 4): the independent enumeration oracle of tests/support/moreau_oracle.c on the 20
 * planar problems of tests/support/moreau_problems.c (cross-checked with Siconos by
 * `make test-peers`), the constant-ratio run that reproduces Moreau's answer, and whether that
 * answer lies inside the hull of nsm_outcome_set (default options).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "impact_oracle.h"
#include "moreau_oracle.h"
#include "moreau_problems.h"
#include "nsmech.h"

static moreau_problem probs[MOREAU_NPROBLEMS];

static size_t load(void)
{
    size_t np = moreau_problems(probs);
    CU_ASSERT_EQUAL_FATAL(np, MOREAU_NPROBLEMS);
    return np;
}

static int frictionless(const moreau_problem *P)
{
    for (size_t c = 0; c < P->m; c++) {
        if (P->mu[c] != 0.0) {
            return 0;
        }
    }
    return 1;
}

/* Oracle sanity: every solution passes the independent check moreau_violation; without
   friction the solution is unique (an LCP with W_nn positive semidefinite); one frictionless
   contact gives the closed form p_n = max(0, -u_n- / W_nn). */
/* CLAIM: docs/math.md (I2), (I3): Moreau's impulse lies in the cones, M(v+ - v-) = J^T P */
static void test_oracle_sanity(void)
{
    size_t np = load(), multi = 0;
    for (size_t k = 0; k < np; k++) {
        const moreau_problem *P = &probs[k];
        moreau_result R;
        CU_ASSERT_EQUAL_FATAL(moreau_problem_solve(P, &R), 0);
        CU_ASSERT(R.nsol >= 1);
        multi += R.nsol > 1;
        double worst = 0.0;
        for (size_t j = 0; j < R.nimp; j++) {
            double viol = moreau_violation(P->n, P->m, P->M, P->Jn, P->Jt, P->mu, P->vm,
                                           R.imp[j], R.v[R.imp_sol[j]]);
            CU_ASSERT(viol >= 0.0 && viol <= 1e-9);
            worst = fmax(worst, viol);
        }
        /* frictionless: an LCP with W_nn positive semidefinite, v+ unique */
        if (frictionless(P)) {
            CU_ASSERT_EQUAL(R.nsol, 1);
        }
        printf("\n  %-20s n %zu m %zu  solutions %zu (impulses %zu)  modes solved %zu  "
               "singular %zu (by a vertex %zu)  violation %.1e",
               P->name, P->n, P->m, R.nsol, R.nimp, R.accepted, R.singular, R.singular_vertex,
               worst);
    }
    printf("\n  moreau_multiple_solutions %zu of %zu\n", multi, np);

    /* one frictionless contact: p_n = max(0, -u_n- / W_nn), the closed form */
    for (size_t k = 0; k < np; k++) {
        const moreau_problem *P = &probs[k];
        size_t n = P->n;
        double mu0 = 0.0, un = 0.0, wnn = 0.0, x[MP_MAXN];
        /* x = M^-1 J_n,0^T by the oracle's own check: solve through moreau_solve's result */
        moreau_result R;
        CU_ASSERT_EQUAL_FATAL(moreau_solve(n, 1, P->M, P->Jn, P->Jt, &mu0, P->vm, 1e-9, &R), 0);
        CU_ASSERT_EQUAL_FATAL(R.nsol, 1);
        for (size_t i = 0; i < n; i++) {
            un += P->Jn[i] * P->vm[i];
        }
        /* W_nn from the impulse response: v+ - v- = x p_n, J_n,0 x = W_nn */
        double pn = R.P[0][1];
        CU_ASSERT(fabs(R.P[0][0]) <= 1e-12 * fabs(R.P[0][1]));
        if (un >= 0.0) {
            CU_ASSERT(fabs(pn) <= 1e-12);
            continue;
        }
        CU_ASSERT_FATAL(pn > 0.0);
        for (size_t i = 0; i < n; i++) {
            x[i] = (R.v[0][i] - P->vm[i]) / pn;
            wnn += P->Jn[i] * x[i];
        }
        /* M x = J_n,0^T (x is M^-1 J_n,0^T), and then p_n = -u_n / W_nn */
        for (size_t i = 0; i < n; i++) {
            double a = 0.0;
            for (size_t j = 0; j < n; j++) {
                a += P->M[i * n + j] * x[j];
            }
            CU_ASSERT(fabs(a - P->Jn[i]) <= 1e-10 * (1.0 + fabs(P->Jn[i])));
        }
        CU_ASSERT(fabs(pn - (-un / wnn)) <= 1e-12 * fabs(pn));
    }
}

/* With Moreau's normal impulses as ratios the simultaneous run reproduces Moreau's answer:
   asserted without friction (8 of 8 do), counted with friction (6 of 12 do: Moreau's law
   takes friction from the final slip, the run from the slip along the way). */
/* CLAIM: impact.h NSM_POLICY_SIMULTANEOUS: weights proportional to ratios on penetrating ones */
static void test_replay(void)
{
    size_t np = load(), reproduced = 0, fl = 0, fl_rep = 0;
    for (size_t k = 0; k < np; k++) {
        const moreau_problem *P = &probs[k];
        moreau_cmp C;
        CU_ASSERT_EQUAL_FATAL(moreau_compare(P, NULL, 0, &C), 0);
        reproduced += C.reproduced > 0;
        if (frictionless(P)) {
            fl++;
            fl_rep += C.reproduced > 0;
            CU_ASSERT(C.reproduced > 0);
        }
        printf("\n  %-20s mu %-5.3g solutions %zu reproduced %zu  |dv|/|v-| %.1e  (%s)", P->name,
               P->mu[0], C.oracle.nsol, C.reproduced, C.replay_err,
               nsm_status_str(C.replay_status));
    }
    printf("\n  moreau_reproduced %zu of %zu (frictionless %zu of %zu)\n", reproduced, np, fl_rep,
           fl);
}

/* NSM_POLICY_MOREAU finds Moreau's impulse itself (projected Gauss–Seidel) and runs the
   simultaneous policy with its normal impulses: on every problem where a constant-ratio
   history reproduces one of the oracle's solutions, the run ends there, to 1e-9 of max|v-|. */
/* CLAIM: impact.h NSM_POLICY_MOREAU: where a constant-ratio history reaches Moreau's v+, this run does */
static void test_moreau_policy(void)
{
    size_t np = load(), checked = 0, equal = 0;
    double worst = 0.0;
    for (size_t k = 0; k < np; k++) {
        const moreau_problem *P = &probs[k];
        moreau_cmp C;
        CU_ASSERT_EQUAL_FATAL(moreau_compare(P, NULL, 0, &C), 0);
        const nsm_contact_problem prob = {P->n, P->m, 1, P->M, P->Jn, P->Jt, P->mu, P->vm};
        const nsm_impact_policy pol = {NSM_POLICY_MOREAU, NULL, NULL, 0, 1, NULL, NULL, NULL};
        double vp[MP_MAXN], lam[2 * MP_MAXM], work[4096];
        nsm_impact_result res = {vp, lam, {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0}};
        CU_ASSERT_FATAL(nsm_impact_work(P->n, P->m) <= sizeof work / sizeof work[0]);
        nsm_status st = nsm_impact_solve(&prob, &pol, NULL, &res, work, 4096);
        double scale = 0.0, err = INFINITY;
        for (size_t i = 0; i < P->n; i++) {
            scale = fmax(scale, fabs(P->vm[i]));
        }
        for (size_t j = 0; j < C.oracle.nsol; j++) {
            double e = 0.0;
            for (size_t i = 0; i < P->n; i++) {
                e = fmax(e, fabs(vp[i] - C.oracle.v[j][i]));
            }
            err = fmin(err, e / scale);
        }
        equal += st == NSM_OK && err <= MOREAU_TOL;
        if (C.reproduced > 0) {
            checked++;
            CU_ASSERT_EQUAL(st, NSM_OK);
            CU_ASSERT(err <= MOREAU_TOL);
            worst = fmax(worst, err);
        }
        printf("\n  %-20s %s  |v+ - Moreau|/|v-| %.1e%s", P->name, nsm_status_str(st), err,
               C.reproduced > 0 ? "" : "  (no constant-ratio history reaches it)");
    }
    printf("\n  moreau_policy %zu of %zu reproduced (worst %.1e), equal on %zu of %zu\n",
           checked, checked, worst, equal, np);
}

/*
 * Moreau's answer lies inside the hull of the set (issue 43 item 4, to 1e-6 of the hull's
 * diameter) whenever a constant-ratio history reproduces it.
 * EXPECTED TO FAIL on today's set (no constant-ratio family with unequal weights): the lines
 * "OUTSIDE" name the problems and the distance outside the hull relative to its diameter.
 */
/* CLAIM: outcome.h nsm_outcome_set: the set of possible post-impact velocities (Moreau's is one) */
static void test_inside_set(void)
{
    size_t tested = 0;
    printf("\n");
    size_t inside = moreau_inside(NULL, 1, &tested);
    CU_ASSERT_FATAL(inside != (size_t)-1);
    printf("  moreau_inside %zu of %zu\n", inside, tested);
    CU_ASSERT_EQUAL(inside, tested);
}

/* CLAIM: impact_oracle.h oracle_hull_outside: 0 inside the hull, else the distance to it */
static void test_hull_outside(void)
{
    /* the unit square with an inner point, and a segment */
    const double x[5] = {0, 1, 1, 0, 0.5}, y[5] = {0, 0, 1, 1, 0.5};
    double diam = 0.0;
    CU_ASSERT_EQUAL(oracle_hull_outside(5, x, y, 0.25, 0.75, &diam), 0.0);
    CU_ASSERT(fabs(diam - sqrt(2.0)) <= 1e-15);
    CU_ASSERT_EQUAL(oracle_hull_outside(5, x, y, 1.0, 0.5, &diam), 0.0); /* on an edge */
    CU_ASSERT(fabs(oracle_hull_outside(5, x, y, 1.5, 0.5, &diam) - 0.5) <= 1e-15);
    CU_ASSERT(fabs(oracle_hull_outside(5, x, y, -3.0, -4.0, &diam) - 5.0) <= 1e-15);
    CU_ASSERT(fabs(oracle_hull_outside(2, x, y, 0.5, 1.0, &diam) - 1.0) <= 1e-15);
    CU_ASSERT(fabs(diam - 1.0) <= 1e-15);
    CU_ASSERT(fabs(oracle_hull_outside(1, x, y, 3.0, 4.0, &diam) - 5.0) <= 1e-15);
    CU_ASSERT_EQUAL(diam, 0.0);
    CU_ASSERT(oracle_hull_outside(0, x, y, 0.0, 0.0, &diam) < 0.0);
}

static CU_TestInfo moreau_tests[] = {
    {"oracle_hull_outside on a square and a segment", test_hull_outside},
    {"oracle: admissible impulses, frictionless closed form", test_oracle_sanity},
    {"simultaneous with Moreau's ratios reproduces it", test_replay},
    {"NSM_POLICY_MOREAU reaches Moreau's answer", test_moreau_policy},
    {"Moreau's answer inside the set's hull (fails today)", test_inside_set},
    CU_TEST_INFO_NULL,
};

static int reg(void) { return nsm_add_suite("moreau", moreau_tests); }

int main(void) { return nsm_test_main("test_moreau", reg); }
