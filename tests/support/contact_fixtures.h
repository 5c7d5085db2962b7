/*
 * Planar (d = 1) multi-contact problems shared by tests/test_impact.c and tests/test_outcome.c:
 * the problem record, the box against floor and wall, and a solve with a shared workspace.
 */
#ifndef NSM_TEST_CONTACT_FIXTURES_H
#define NSM_TEST_CONTACT_FIXTURES_H

#include <stddef.h>
#include "nsmech.h"

#define MAXN 8
#define MAXM 4

/* n generalized velocities, m contacts: M (n×n), Jn and Jt (m×n), mu (m), v_minus (n). */
typedef struct problem {
    size_t n, m;
    double M[MAXN * MAXN], Jn[MAXM * MAXN], Jt[MAXM * MAXN], mu[MAXM], vm[MAXN];
} problem;

/* Box against floor and right wall (math.md): square w = 1, m = 1, I = 1/6, mu = 1, tilted 10°;
   v_minus = (1, 0, 0). */
void boxwall(problem *P);

/* nsm_impact_solve on P with a static workspace of 4096 doubles (a fatal CUnit assertion when
   nsm_impact_work(n, m) exceeds it). */
nsm_status run_policy(const problem *P, const nsm_impact_policy *pol,
                      const nsm_impact_opts *opts, double *vp, double *Lam,
                      nsm_impact_info *info);

#endif
