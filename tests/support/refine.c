/*
 * An explicit-step oracle refined against a result: see refine.h.
 */
#include "refine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* max_i |x_i - y_i| */
static double maxdiff(size_t n, const double *x, const double *y)
{
    double d = 0.0;
    for (size_t i = 0; i < n; i++) {
        d = fmax(d, fabs(x[i] - y[i]));
    }
    return d;
}

int refine_levels(refine_oracle_fn f, const refine_problem *p, const double *vp, double scale,
                  double h0, int levels, double tol, size_t step_cap, double *d, double *vo,
                  int *level)
{
    int k;
    for (k = 0; k < levels && k < 30; k++) {
        int re = 0;
        size_t steps = 0;
        int rc = f(p->n, p->m, p->M, p->Jn, p->Jt, p->mu, p->v_minus, p->ratios, p->order,
                   h0 / (double)(1u << k), step_cap, vo, &re, &steps);
        *level = k + 1;
        if (rc == 1) {
            return REFINE_ARG;
        }
        if (rc != 0) {
            return REFINE_FAILED;
        }
        if (re) {
            return REFINE_REENTRY;
        }
        d[k] = maxdiff(p->n, vp, vo) / scale;
        if (k > 0 && d[k] <= tol && d[k - 1] <= tol) {
            *level = k;
            return REFINE_REACHED;
        }
    }
    *level = k;
    return REFINE_NOT_REACHED;
}

int refine_converges(double d4, double d64, double limit, double tol)
{
    return d4 <= limit && d64 <= fmax(d4 / 4.0, tol);
}

int refine_case(refine_oracle_fn f, const refine_problem *p, const double *vp, double scale,
                int levels, double tol, refine_library_fn lib, void *data, refine_tally *t,
                char *msg, size_t msglen)
{
    double d[REFINE_MAX_LEVELS], vo[64], vq[64];
    int k = 0;
    if (levels > REFINE_MAX_LEVELS || p->n > 64) {
        snprintf(msg, msglen, "refine_case: %d levels, n %zu", levels, p->n);
        return -1;
    }
    int rc = refine_levels(f, p, vp, scale, 2e-5, levels, tol, 400000000, d, vo, &k);
    if (rc == REFINE_ARG) {
        snprintf(msg, msglen, "oracle argument error");
        return -1;
    }
    if (rc == REFINE_FAILED || rc == REFINE_REENTRY) {
        t->failed += rc == REFINE_FAILED;
        t->reentry += rc == REFINE_REENTRY;
        return 0;
    }
    t->compared++;
    if (rc == REFINE_REACHED) {
        t->agree++;
        t->level[k]++;
        return 1;
    }
    /* not within tol at 4000 steps: the library's own step error, which must shrink at least
       fourfold at 64000 steps (first order where it is not exact); vo holds the finest level */
    if (lib(data, 64000, vq) != 0) {
        snprintf(msg, msglen, "m %zu: library status at 64000 steps", p->m);
        return -1;
    }
    double d4 = d[k - 1], d64 = maxdiff(p->n, vq, vo) / scale;
    t->worst_miss = fmax(t->worst_miss, d4);
    t->worst_miss64 = fmax(t->worst_miss64, d64);
    if (getenv("NSM_TEST_VERBOSE") != NULL) {
        printf("\n  m %zu n %zu:", p->m, p->n);
        for (int j = 0; j < k; j++) {
            printf(" %.2g", d[j]);
        }
        printf("; at 64000 steps %.2g", d64);
    }
    if (!refine_converges(d4, d64, 1e-2, tol)) {
        snprintf(msg, msglen, "m %zu: v+ differs from the finest oracle by %.3g at 4000 steps, "
                 "%.3g at 64000", p->m, d4, d64);
        return -1;
    }
    return 1;
}

void refine_report(const refine_tally *t, size_t cases, int levels)
{
    printf(" [compared %zu of %zu: within 1e-6 at two successive levels %zu; by level k "
           "(h = 2e-5 S / 2^k, k = 1..%d):",
           t->compared, cases, t->agree, levels - 1);
    for (int k = 1; k < levels && k < REFINE_MAX_LEVELS; k++) {
        printf(" %zu", t->level[k]);
    }
    printf("; not within %zu (worst %.2g, at 64000 steps %.2g); not compared: share did not "
           "hold %zu, oracle failed %zu",
           t->compared - t->agree, t->worst_miss, t->worst_miss64, t->reentry, t->failed);
}
