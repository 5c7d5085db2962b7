/*
 * The positional argument lists of the former impact and outcome entry points, as thin
 * wrappers over the struct API (nsm_impact_solve, nsm_outcome_set, nsm_outcome_count), so
 * that the tests keep their calls and checks: each wrapper builds the problem, option and
 * result structs from its arguments, calls the library once and copies the written fields of
 * the result struct back.
 *
 * info (impact) and nruns, accepted (outcome) are copied into the result struct before the
 * call and back after it, so an error that writes nothing leaves them as they were; a NULL
 * one stands for a NULL result struct (NSM_ERR_NULL). Tests of where the structs themselves
 * lie (overlaps with the arrays) call the library directly. opts = NULL stands for
 * NSM_IMPACT_OPTS_DEFAULT, as it did.
 */
#ifndef NSM_TEST_ENTRY_ARGS_H
#define NSM_TEST_ENTRY_ARGS_H

#include <stddef.h>
#include "nsmech.h"

/* nsm_impact_solve on the problem (n, m, d, M, Jn, Jt, mu, v_minus). */
nsm_status args_impact_solve(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                             const double *Jt, const double *mu, const double *v_minus,
                             const nsm_impact_policy *pol, const nsm_impact_opts *opts,
                             double *v_plus, double *Lambda, nsm_impact_info *info,
                             double *work, size_t lwork);

/* The same with d = 1. */
nsm_status args_impact_solve1(size_t n, size_t m, const double *M, const double *Jn,
                              const double *Jt, const double *mu, const double *v_minus,
                              const nsm_impact_policy *pol, const nsm_impact_opts *opts,
                              double *v_plus, double *Lambda, nsm_impact_info *info,
                              double *work, size_t lwork);

/* nsm_outcome_set with the runs' options opts, nsamples, seed, hold and nplanes planes. */
nsm_status args_outcome_set(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                            const double *Jt, const double *mu, const double *v_minus,
                            const nsm_impact_opts *opts, size_t nsamples, unsigned long seed,
                            size_t hold, size_t nplanes, const double *planes, size_t cap,
                            double *v_plus, nsm_status *status, nsm_policy_kind *kind,
                            size_t *nruns, size_t *accepted, double *work, size_t lwork);

/* The same without planes. */
nsm_status args_outcome_set_d(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                              const double *Jt, const double *mu, const double *v_minus,
                              const nsm_impact_opts *opts, size_t nsamples, unsigned long seed,
                              size_t hold, size_t cap, double *v_plus, nsm_status *status,
                              nsm_policy_kind *kind, size_t *nruns, size_t *accepted,
                              double *work, size_t lwork);

/* The same with d = 1. */
nsm_status args_outcome_set1(size_t n, size_t m, const double *M, const double *Jn,
                             const double *Jt, const double *mu, const double *v_minus,
                             const nsm_impact_opts *opts, size_t nsamples, unsigned long seed,
                             size_t hold, size_t cap, double *v_plus, nsm_status *status,
                             nsm_policy_kind *kind, size_t *nruns, size_t *accepted,
                             double *work, size_t lwork);

/* args_outcome_set1 with hull_tol = tol (0: every run). */
nsm_status args_outcome_set_tol(size_t n, size_t m, const double *M, const double *Jn,
                                const double *Jt, const double *mu, const double *v_minus,
                                const nsm_impact_opts *opts, size_t nsamples,
                                unsigned long seed, size_t hold, double tol, size_t cap,
                                double *v_plus, nsm_status *status, nsm_policy_kind *kind,
                                size_t *nruns, size_t *accepted, double *work, size_t lwork);

/* nsm_outcome_count with nsamples and nplanes. */
size_t args_outcome_count(size_t m, size_t nsamples, size_t nplanes);

/* Outcome options: opts (NULL: the defaults) for the runs, nsamples, seed, hold, no planes. */
nsm_outcome_opts args_outcome_opts(const nsm_impact_opts *opts, size_t nsamples,
                                   unsigned long seed, size_t hold);

#endif
