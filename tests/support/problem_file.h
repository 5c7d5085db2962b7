/* An impact problem read from an nsm JSON problem file (the shipped JSON problems of examples/problems:
   M, Jn, Jt, mu, v and tangent_dim, row-major), for tests on the robot problems exported from
   MuJoCo's sample models. */
#ifndef NSM_TEST_PROBLEM_FILE_H
#define NSM_TEST_PROBLEM_FILE_H

#include <stddef.h>

#define PF_MAXN 40u
#define PF_MAXM 16u

typedef struct pf_problem {
    size_t n, m, d;
    double M[PF_MAXN * PF_MAXN], Jn[PF_MAXM * PF_MAXN], Jt[2 * PF_MAXM * PF_MAXN];
    double mu[PF_MAXM], v[PF_MAXN];
} pf_problem;

/** Reads the problem of the file at path (relative to the repository's root, where the tests
    run); 0 on success, 1 when the file is missing, is not JSON, or a field has the wrong shape
    or exceeds the sizes above. */
int pf_load(const char *path, pf_problem *p);

#endif
