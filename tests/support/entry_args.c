/*
 * The former positional entry points over the struct API: see entry_args.h.
 */
#include "entry_args.h"

#include <string.h>

nsm_status args_impact_solve(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                             const double *Jt, const double *mu, const double *v_minus,
                             const nsm_impact_policy *pol, const nsm_impact_opts *opts,
                             double *v_plus, double *Lambda, nsm_impact_info *info,
                             double *work, size_t lwork)
{
    const nsm_contact_problem prob = {n, m, d, M, Jn, Jt, mu, v_minus};
    nsm_impact_result res;
    memset(&res, 0, sizeof res);
    res.v_plus = v_plus;
    res.Lambda = Lambda;
    if (info != NULL) {
        memcpy(&res.info, info, sizeof res.info);
    }
    nsm_status s = nsm_impact_solve(&prob, pol, opts, info != NULL ? &res : NULL, work, lwork);
    if (info != NULL) {
        memcpy(info, &res.info, sizeof res.info);
    }
    return s;
}

nsm_status args_impact_solve1(size_t n, size_t m, const double *M, const double *Jn,
                              const double *Jt, const double *mu, const double *v_minus,
                              const nsm_impact_policy *pol, const nsm_impact_opts *opts,
                              double *v_plus, double *Lambda, nsm_impact_info *info,
                              double *work, size_t lwork)
{
    return args_impact_solve(n, m, 1, M, Jn, Jt, mu, v_minus, pol, opts, v_plus, Lambda, info,
                             work, lwork);
}

nsm_outcome_opts args_outcome_opts(const nsm_impact_opts *opts, size_t nsamples,
                                   unsigned long seed, size_t hold)
{
    nsm_outcome_opts o = NSM_OUTCOME_OPTS_DEFAULT;
    if (opts != NULL) {
        o.impact = *opts;
    }
    o.nsamples = nsamples;
    o.seed = seed;
    o.hold = hold;
    return o;
}

/* args_outcome_set with the options' hull_tol set to tol. */
static nsm_status outcome_set_tol(size_t n, size_t m, size_t d, const double *M,
                                  const double *Jn, const double *Jt, const double *mu,
                                  const double *v_minus, const nsm_impact_opts *opts,
                                  size_t nsamples, unsigned long seed, size_t hold,
                                  size_t nplanes, const double *planes, double tol, size_t cap,
                                  double *v_plus, nsm_status *status, nsm_policy_kind *kind,
                                  size_t *nruns, size_t *accepted, double *work, size_t lwork)
{
    const nsm_contact_problem prob = {n, m, d, M, Jn, Jt, mu, v_minus};
    nsm_outcome_opts o = args_outcome_opts(opts, nsamples, seed, hold);
    o.nplanes = nplanes;
    o.planes = planes;
    o.hull_tol = tol;
    nsm_outcome_result res = {cap, v_plus, status, kind, 0, 0};
    if (nruns != NULL) {
        res.nruns = *nruns;
    }
    if (accepted != NULL) {
        res.accepted = *accepted;
    }
    nsm_status s = nsm_outcome_set(&prob, &o, nruns != NULL && accepted != NULL ? &res : NULL,
                                   work, lwork);
    if (nruns != NULL) {
        *nruns = res.nruns;
    }
    if (accepted != NULL) {
        *accepted = res.accepted;
    }
    return s;
}

nsm_status args_outcome_set(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                            const double *Jt, const double *mu, const double *v_minus,
                            const nsm_impact_opts *opts, size_t nsamples, unsigned long seed,
                            size_t hold, size_t nplanes, const double *planes, size_t cap,
                            double *v_plus, nsm_status *status, nsm_policy_kind *kind,
                            size_t *nruns, size_t *accepted, double *work, size_t lwork)
{
    return outcome_set_tol(n, m, d, M, Jn, Jt, mu, v_minus, opts, nsamples, seed, hold, nplanes,
                           planes, 0.0, cap, v_plus, status, kind, nruns,
                           accepted, work, lwork);
}

nsm_status args_outcome_set_tol(size_t n, size_t m, const double *M, const double *Jn,
                                const double *Jt, const double *mu, const double *v_minus,
                                const nsm_impact_opts *opts, size_t nsamples,
                                unsigned long seed, size_t hold, double tol, size_t cap,
                                double *v_plus, nsm_status *status, nsm_policy_kind *kind,
                                size_t *nruns, size_t *accepted, double *work, size_t lwork)
{
    return outcome_set_tol(n, m, 1, M, Jn, Jt, mu, v_minus, opts, nsamples, seed, hold, 0, NULL,
                           tol, cap, v_plus, status, kind, nruns, accepted, work, lwork);
}

nsm_status args_outcome_set_d(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                              const double *Jt, const double *mu, const double *v_minus,
                              const nsm_impact_opts *opts, size_t nsamples, unsigned long seed,
                              size_t hold, size_t cap, double *v_plus, nsm_status *status,
                              nsm_policy_kind *kind, size_t *nruns, size_t *accepted,
                              double *work, size_t lwork)
{
    return args_outcome_set(n, m, d, M, Jn, Jt, mu, v_minus, opts, nsamples, seed, hold, 0, NULL,
                            cap, v_plus, status, kind, nruns, accepted, work, lwork);
}

nsm_status args_outcome_set1(size_t n, size_t m, const double *M, const double *Jn,
                             const double *Jt, const double *mu, const double *v_minus,
                             const nsm_impact_opts *opts, size_t nsamples, unsigned long seed,
                             size_t hold, size_t cap, double *v_plus, nsm_status *status,
                             nsm_policy_kind *kind, size_t *nruns, size_t *accepted,
                             double *work, size_t lwork)
{
    return args_outcome_set(n, m, 1, M, Jn, Jt, mu, v_minus, opts, nsamples, seed, hold, 0, NULL,
                            cap, v_plus, status, kind, nruns, accepted, work, lwork);
}

size_t args_outcome_count(size_t m, size_t nsamples, size_t nplanes)
{
    nsm_outcome_opts o = args_outcome_opts(NULL, nsamples, 0, 1);
    o.nplanes = nplanes;
    return nsm_outcome_count(m, &o);
}
