/*
 * Validation of the impact solver's arguments: options and policy in their domains (the first
 * fault found names the argument: nsm_impact_arg_fault), mu, the data (finite, M symmetric)
 * and overlaps between outputs, inputs and the policy: the domains of docs/math.md (I4)'s
 * data and policies, before anything is computed.
 */
#include "nsmech/impact.h"
#include "../nsm_math.h"
#include "internal.h"
#include "impact_internal.h"

/* Faults of the options and the policy, in the order the checks find them (policy_fault);
   each names one argument (fault_name) and maps to one status (fault_status). */
#define F_NONE 0
#define F_STEPS 1
#define F_FW_ITERS 2
#define F_FALLBACK 3
#define F_ZTOL 4
#define F_NTOL 5
#define F_VTOL 6
#define F_SLIP_REST 7
#define F_ORDER_NULL 8
#define F_ORDER 9
#define F_RATIOS_NULL 10
#define F_RATIOS_NAN 11
#define F_RATIOS 12
#define F_HOLD 13
#define F_DIR_NULL 14
#define F_DIR_NAN 15
#define F_VDIR_NULL 16
#define F_DWELL_NULL 17
#define F_DWELL 18
#define F_KIND 19

/* 1 if x >= 0 and finite. */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> x >= 0;
 */
static int nonneg_finite(double x)
{
    const double a[1] = {x};
    return x >= 0.0 && nsm_all_finite(1, a) ? 1 : 0;
}

/* 1 if order[0 .. m-1] is a permutation of 0 .. m-1 (every entry < m, all distinct). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(order + (0 .. m - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int is_permutation(size_t m, const size_t *order)
{
    /*@ loop invariant 0 <= i <= m;
        loop assigns i;
        loop variant m - i;
     */
    for (size_t i = 0; i < m; i++) {
        if (order[i] >= m) {
            return 0;
        }
        /*@ loop invariant 0 <= j <= i;
            loop assigns j;
            loop variant i - j;
         */
        for (size_t j = 0; j < i; j++) {
            if (order[j] == order[i]) {
                return 0;
            }
        }
    }
    return 1;
}

/*@ // the options' part of args_ok (impact_internal.h)
    predicate opts_ok(nsm_impact_opts *opts) =
      1 <= opts->steps <= 1000000 && 1 <= opts->fw_iters <= 1000000 &&
      1 <= opts->fallback_steps <= 100000000 &&
      opts->ztol >= 0 && opts->ntol >= 0 && opts->vtol >= 0 &&
      0 <= opts->slip_rest <= 1;
 */

/* The first fault of the options, F_NONE if there is none. */
/*@ requires \valid_read(opts);
    assigns \nothing;
    ensures range: \result == F_NONE || (F_STEPS <= \result <= F_SLIP_REST);
    ensures ok: \result == F_NONE ==> opts_ok(opts);
 */
static int opts_fault(const nsm_impact_opts *opts)
{
    if (opts->steps < 1 || opts->steps > 1000000u) {
        return F_STEPS;
    }
    if (opts->fw_iters < 1 || opts->fw_iters > 1000000u) {
        return F_FW_ITERS;
    }
    if (opts->fallback_steps < 1 || opts->fallback_steps > 100000000u) {
        return F_FALLBACK;
    }
    if (!nonneg_finite(opts->ztol)) {
        return F_ZTOL;
    }
    if (!nonneg_finite(opts->ntol)) {
        return F_NTOL;
    }
    if (!nonneg_finite(opts->vtol)) {
        return F_VTOL;
    }
    if (!(opts->slip_rest >= 0.0 && opts->slip_rest <= 1.0)) {
        return F_SLIP_REST;
    }
    return F_NONE;
}

/* F_DWELL if a schedule's dwell is negative or NaN (INFINITY is allowed: to rest), else
   F_NONE. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(dwell + (0 .. m - 1));
    assigns \nothing;
    ensures \result == F_NONE || \result == F_DWELL;
 */
static int dwell_fault(size_t m, const double *dwell)
{
    /*@ loop invariant 0 <= k <= m;
        loop assigns k;
        loop variant m - k;
     */
    for (size_t k = 0; k < m; k++) {
        if (!(dwell[k] >= 0.0)) {
            return F_DWELL;
        }
    }
    return F_NONE;
}

/* The first fault of the policy (m in range), F_NONE if there is none; opts, already checked,
   appears in the contract only (the result completes args_ok). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires pol_readable(m, pol) && \valid_read(opts) && opts_ok(opts);
    assigns \nothing;
    ensures range: \result == F_NONE || (F_ORDER_NULL <= \result <= F_KIND);
    ensures ok: \result == F_NONE ==> args_ok(pol, opts);
 */
static int kind_fault(size_t m, const nsm_impact_policy *pol, const nsm_impact_opts *opts)
{
    (void)opts;
    if (pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY) {
        if (pol->order == NULL) {
            return F_ORDER_NULL;
        }
        return is_permutation(m, pol->order) ? F_NONE : F_ORDER;
    }
    if (pol->kind == NSM_POLICY_SCHEDULE) {
        if (pol->order == NULL) {
            return F_ORDER_NULL;
        }
        if (!is_permutation(m, pol->order)) {
            return F_ORDER;
        }
        if (pol->dwell == NULL) {
            return F_DWELL_NULL;
        }
        int f = dwell_fault(m, pol->dwell);
        if (f != F_NONE) {
            return f;
        }
        return pol->hold >= 1 && pol->hold <= NSM_SCHEDULE_MAX_CYCLES ? F_NONE : F_HOLD;
    }
    if (pol->kind == NSM_POLICY_SIMULTANEOUS) {
        if (pol->ratios == NULL) {
            return F_RATIOS_NULL;
        }
        if (!nsm_all_finite(m, pol->ratios)) {
            return F_RATIOS_NAN;
        }
        /*@ loop invariant 0 <= i <= m;
            loop assigns i;
            loop variant m - i;
         */
        for (size_t i = 0; i < m; i++) {
            if (!(pol->ratios[i] > 0.0)) {
                return F_RATIOS;
            }
        }
        return F_NONE;
    }
    if (pol->kind == NSM_POLICY_SAMPLED || pol->kind == NSM_POLICY_BANGBANG) {
        return pol->hold >= 1 ? F_NONE : F_HOLD;
    }
    if (pol->kind == NSM_POLICY_EXTREMAL) {
        if (pol->dir == NULL) {
            return F_DIR_NULL;
        }
        if (!nsm_all_finite(3 * m, pol->dir)) {
            return F_DIR_NAN;
        }
        return pol->hold >= 1 ? F_NONE : F_HOLD;
    }
    if (pol->kind == NSM_POLICY_MOREAU) {
        return F_NONE; /* its ratios come from the problem (moreau.c) */
    }
    if (pol->kind == NSM_POLICY_EXTREMAL_V) {
        /* its n entries are data: checked for finiteness with v_minus (impact.c) */
        if (pol->vdir == NULL) {
            return F_VDIR_NULL;
        }
        return pol->hold >= 1 ? F_NONE : F_HOLD;
    }
    return F_KIND;
}

/* The first fault of the options and the policy (m in range), F_NONE if there is none. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(opts) && pol_readable(m, pol);
    assigns \nothing;
    ensures range: F_NONE <= \result <= F_KIND;
    ensures ok: \result == F_NONE ==> args_ok(pol, opts);
 */
static int policy_fault(size_t m, const nsm_impact_policy *pol, const nsm_impact_opts *opts)
{
    int f = opts_fault(opts);
    return f != F_NONE ? f : kind_fault(m, pol, opts);
}

/* The status of a fault: a missing array NSM_ERR_NULL, non-finite ratios or direction
   NSM_ERR_NOT_FINITE, any other NSM_ERR_ARG. */
/*@ assigns \nothing;
    ensures ok: \result == NSM_OK <==> f == F_NONE;
    ensures status: \result == NSM_OK || \result == NSM_ERR_ARG || \result == NSM_ERR_NULL ||
                    \result == NSM_ERR_NOT_FINITE;
 */
static nsm_status fault_status(int f)
{
    if (f == F_NONE) {
        return NSM_OK;
    }
    if (f == F_ORDER_NULL || f == F_RATIOS_NULL || f == F_DIR_NULL || f == F_VDIR_NULL ||
        f == F_DWELL_NULL) {
        return NSM_ERR_NULL;
    }
    return f == F_RATIOS_NAN || f == F_DIR_NAN ? NSM_ERR_NOT_FINITE : NSM_ERR_ARG;
}

/* The argument a fault is about, as nsm_impact_arg_fault names it. */
/*@ assigns \result \from f; */
static const char *fault_name(int f)
{
    switch (f) {
    case F_STEPS: return "opts.steps";
    case F_FW_ITERS: return "opts.fw_iters";
    case F_FALLBACK: return "opts.fallback_steps";
    case F_ZTOL: return "opts.ztol";
    case F_NTOL: return "opts.ntol";
    case F_VTOL: return "opts.vtol";
    case F_SLIP_REST: return "opts.slip_rest";
    case F_ORDER_NULL:
    case F_ORDER: return "pol.order";
    case F_RATIOS_NULL:
    case F_RATIOS_NAN:
    case F_RATIOS: return "pol.ratios";
    case F_HOLD: return "pol.hold";
    case F_DIR_NULL:
    case F_DIR_NAN: return "pol.dir";
    case F_VDIR_NULL: return "pol.vdir";
    case F_DWELL_NULL:
    case F_DWELL: return "pol.dwell";
    case F_KIND: return "pol.kind";
    default: return NULL;
    }
}

/* Validation of options and policy (pointers non-NULL, m in range). */
nsm_status nsm_impact_check_policy(size_t m, const nsm_impact_policy *pol,
                                   const nsm_impact_opts *opts)
{
    return fault_status(policy_fault(m, pol, opts));
}

/* 1 if some mu[c] is negative or not finite (NSM_ERR_ARG: mu is a parameter, not data). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(mu + (0 .. m - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures ok: \result == 0 ==> \forall integer c; 0 <= c < m ==> mu[c] >= 0;
 */
static int mu_fault(size_t m, const double *mu)
{
    if (!nsm_all_finite(m, mu)) {
        return 1;
    }
    /*@ loop invariant 0 <= c <= m;
        loop invariant \forall integer k; 0 <= k < c ==> mu[k] >= 0;
        loop assigns c;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        if (!(mu[c] >= 0.0)) {
            return 1;
        }
    }
    return 0;
}

const char *nsm_impact_arg_fault(size_t m, size_t d, const double *mu, const nsm_impact_policy *pol,
                                 const nsm_impact_opts *opts)
{
    if (pol == NULL) {
        return "pol";
    }
    if (mu == NULL) {
        return "mu";
    }
    if (d != 1 && d != 2) {
        return "d";
    }
    if (m == 0 || m > NSM_MAX_DIM / 3) {
        return "m";
    }
    nsm_impact_opts o = NSM_IMPACT_OPTS_DEFAULT;
    if (opts != NULL) {
        o = *opts;
    }
    int f = policy_fault(m, pol, &o);
    if (f != F_NONE) {
        return fault_name(f);
    }
    if (mu_fault(m, mu)) {
        return "mu";
    }
    return NULL;
}

/* The byte spans of the policy's arrays that its kind reads, *ord for order (sequential,
   priority and schedule) and *rat for its array of doubles (ratios for simultaneous, dir for
   extremal, vdir for extremal in v, dwell for schedule); {0, 0} for an array the kind does not read: an unused field is not even
   read, its value may be indeterminate. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(pol);
    requires \valid(ord) && \valid(rat) && \separated(ord, rat, pol);
    assigns *ord, *rat;
 */
static void pol_spans(size_t n, size_t m, const nsm_impact_policy *pol, nsm_span *ord,
                      nsm_span *rat)
{
    size_t nord = pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY ||
                          pol->kind == NSM_POLICY_SCHEDULE
                      ? m * sizeof(size_t)
                      : 0;
    size_t nrat = pol->kind == NSM_POLICY_SIMULTANEOUS || pol->kind == NSM_POLICY_SCHEDULE
                      ? m * sizeof(double)
                  : pol->kind == NSM_POLICY_EXTREMAL   ? 3 * m * sizeof(double)
                  : pol->kind == NSM_POLICY_EXTREMAL_V ? n * sizeof(double)
                                                       : 0;
    ord->addr = nord != 0 ? (uintptr_t)pol->order : 0;
    ord->len = nord;
    rat->addr = nrat == 0                              ? 0
                : pol->kind == NSM_POLICY_EXTREMAL   ? (uintptr_t)pol->dir
                : pol->kind == NSM_POLICY_EXTREMAL_V ? (uintptr_t)pol->vdir
                : pol->kind == NSM_POLICY_SCHEDULE   ? (uintptr_t)pol->dwell
                                                     : (uintptr_t)pol->ratios;
    rat->len = nrat;
}

/* Validation of the data: mu >= 0, finiteness, symmetry of M. */
nsm_status nsm_impact_check_data(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                                 const double *Jt, const double *mu, const double *vm)
{
    if (mu_fault(m, mu)) {
        return NSM_ERR_ARG;
    }
    if (!nsm_all_finite(n * n, M) || !nsm_all_finite(m * n, Jn) || !nsm_all_finite(d * m * n, Jt) ||
        !nsm_all_finite(n, vm)) {
        return NSM_ERR_NOT_FINITE;
    }
    if (!nsm_is_symmetric(n, M, 1e-12)) {
        return NSM_ERR_NOT_SPD;
    }
    return NSM_OK;
}

/* The aliasing rule as one table: v_plus, Lambda, the work and *info (info is written last)
   overlap neither each other nor an input, the policy and the arrays its kind reads included;
   *opts, copied before any write, is checked against info alone. */
int nsm_impact_aliased(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                       const double *Jt, const double *mu, const double *vm,
                       const nsm_impact_policy *pol, const nsm_impact_opts *opts, const double *vp,
                       const double *lam, const double *work, size_t need,
                       const nsm_impact_info *info)
{
    /*@ assert n * n <= NSM_MAX_DIM * NSM_MAX_DIM; */
    const size_t b = sizeof(double);
    const uintptr_t ai = (uintptr_t)info;
    const size_t ni = sizeof(nsm_impact_info);
    const nsm_span out[4] = {{(uintptr_t)vp, n * b},
                             {(uintptr_t)lam, (d + 1) * m * b},
                             {(uintptr_t)work, need * b},
                             {ai, ni}};
    nsm_span in[8] = {{(uintptr_t)M, n * n * b},
                      {(uintptr_t)Jn, m * n * b},
                      {(uintptr_t)Jt, d * m * n * b},
                      {(uintptr_t)mu, m * b},
                      {(uintptr_t)vm, n * b},
                      {(uintptr_t)pol, sizeof(nsm_impact_policy)},
                      {0, 0},
                      {0, 0}};
    pol_spans(n, m, pol, &in[6], &in[7]);
    return nsm_spans_overlap(4, out, 8, in) ||
           nsm_overlap_bytes(ai, ni, (uintptr_t)opts, opts != NULL ? sizeof *opts : 0);
}
