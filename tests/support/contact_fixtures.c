/* Planar multi-contact fixtures shared by tests/test_impact.c and tests/test_outcome.c. */
#include <math.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "entry_args.h"
#include "contact_fixtures.h"

nsm_status run_policy(const problem *P, const nsm_impact_policy *pol,
                      const nsm_impact_opts *opts, double *vp, double *Lam,
                      nsm_impact_info *info)
{
    static double work[4096];
    size_t lw = nsm_impact_work(P->n, P->m);
    CU_ASSERT_FATAL(lw <= 4096);
    return args_impact_solve1(P->n, P->m, P->M, P->Jn, P->Jt, P->mu, P->vm, pol, opts, vp, Lam,
                            info, work, lw);
}

void boxwall(problem *P)
{
    double th = 10.0 * 3.14159265358979323846 / 180.0, c = cos(th), s = sin(th);
    memset(P, 0, sizeof *P);
    P->n = 3;
    P->m = 2;
    P->M[0] = 1.0;
    P->M[4] = 1.0;
    P->M[8] = 1.0 / 6.0;
    /* floor: lowest corner r = R(th)(-1/2, -1/2); normal (0, 1), tangent (1, 0) */
    double fx = -0.5 * c + 0.5 * s, fy = -0.5 * s - 0.5 * c;
    double Jnf[3] = {0, 1, fx}, Jtf[3] = {1, 0, -fy};
    /* wall: rightmost corner r = R(th)(1/2, -1/2); normal (-1, 0), tangent (0, 1) */
    double wx = 0.5 * c + 0.5 * s, wy = 0.5 * s - 0.5 * c;
    double Jnw[3] = {-1, 0, wy}, Jtw[3] = {0, 1, wx};
    memcpy(P->Jn, Jnf, sizeof Jnf);
    memcpy(P->Jn + 3, Jnw, sizeof Jnw);
    memcpy(P->Jt, Jtf, sizeof Jtf);
    memcpy(P->Jt + 3, Jtw, sizeof Jtw);
    P->mu[0] = P->mu[1] = 1.0;
    P->vm[0] = 1.0;
}
