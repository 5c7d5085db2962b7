/*
 * Validation of the impact solver's arguments: options and policy in their domains (the first
 * fault found names the argument: nsm_impact_arg_fault), mu, the data (finite, M symmetric)
 * and overlaps between outputs, inputs and the policy.
 */
#include "nsmech/contact.h"
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
#define F_ORDER_NULL 7
#define F_ORDER 8
#define F_RATIOS_NULL 9
#define F_RATIOS_NAN 10
#define F_RATIOS 11
#define F_HOLD 12
#define F_DIR_NULL 13
#define F_DIR_NAN 14
#define F_VDIR_NULL 15
#define F_KIND 16

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

/* The first fault of the options and the policy (m in range), F_NONE if there is none. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(opts) && pol_readable(m, pol);
    assigns \nothing;
    ensures range: F_NONE <= \result <= F_KIND;
    ensures ok: \result == F_NONE ==> args_ok(pol, opts);
 */
static int policy_fault(size_t m, const nsm_impact_policy *pol, const nsm_impact_opts *opts)
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
    if (pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY) {
        if (pol->order == NULL) {
            return F_ORDER_NULL;
        }
        return is_permutation(m, pol->order) ? F_NONE : F_ORDER;
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
    if (pol->kind == NSM_POLICY_EXTREMAL_V) {
        /* its n entries are data: checked for finiteness with v_minus (impact.c) */
        if (pol->vdir == NULL) {
            return F_VDIR_NULL;
        }
        return pol->hold >= 1 ? F_NONE : F_HOLD;
    }
    return F_KIND;
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
    if (f == F_ORDER_NULL || f == F_RATIOS_NULL || f == F_DIR_NULL || f == F_VDIR_NULL) {
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
    case F_ORDER_NULL:
    case F_ORDER: return "pol.order";
    case F_RATIOS_NULL:
    case F_RATIOS_NAN:
    case F_RATIOS: return "pol.ratios";
    case F_HOLD: return "pol.hold";
    case F_DIR_NULL:
    case F_DIR_NAN: return "pol.dir";
    case F_VDIR_NULL: return "pol.vdir";
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

/* 1 if any of the outputs overlaps an input or another output (sizes as validated). */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires need <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(M + (0 .. n * n - 1)) && \valid_read(Jn + (0 .. m * n - 1));
    requires \valid_read(Jt + (0 .. d * m * n - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid_read(vm + (0 .. n - 1));
    requires \valid_read(vp + (0 .. n - 1)) && \valid_read(lam + (0 .. (d + 1) * m - 1));
    requires \valid_read(work + (0 .. need - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int any_alias(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                     const double *Jt, const double *mu, const double *vm, const double *vp,
                     const double *lam, const double *work, size_t need)
{
    size_t nn = n * n;
    size_t mn = m * n;
    size_t tn = d * m * n;
    size_t K = (d + 1) * m;
    if (nsm_overlap(vp, n, M, nn) || nsm_overlap(vp, n, Jn, mn) || nsm_overlap(vp, n, Jt, tn) ||
        nsm_overlap(vp, n, mu, m) || nsm_overlap(vp, n, vm, n) || nsm_overlap(vp, n, lam, K) ||
        nsm_overlap(vp, n, work, need)) {
        return 1;
    }
    if (nsm_overlap(lam, K, M, nn) || nsm_overlap(lam, K, Jn, mn) || nsm_overlap(lam, K, Jt, tn) ||
        nsm_overlap(lam, K, mu, m) || nsm_overlap(lam, K, vm, n) ||
        nsm_overlap(lam, K, work, need)) {
        return 1;
    }
    if (nsm_overlap(work, need, M, nn) || nsm_overlap(work, need, Jn, mn) ||
        nsm_overlap(work, need, Jt, tn) || nsm_overlap(work, need, mu, m) ||
        nsm_overlap(work, need, vm, n)) {
        return 1;
    }
    return 0;
}

/* The byte ranges of the policy's arrays that its kind reads (order for sequential and
   priority; its array of doubles: ratios for simultaneous, dir for extremal, vdir for
   extremal in v), as (address, length) pairs; (0, 0) for an array the kind does not read: an
   unused field is not even read, its value may be indeterminate. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(pol);
    requires \valid(r + (0 .. 3)) && \separated(r + (0 .. 3), pol);
    assigns r[0 .. 3];
    ensures r[1] <= m * sizeof(size_t) && r[3] <= NSM_MAX_DIM * sizeof(double);
 */
static void pol_arrays(size_t n, size_t m, const nsm_impact_policy *pol, uintptr_t *r)
{
    size_t nord = pol->kind == NSM_POLICY_SEQUENTIAL || pol->kind == NSM_POLICY_PRIORITY
                      ? m * sizeof(size_t)
                      : 0;
    size_t nrat = pol->kind == NSM_POLICY_SIMULTANEOUS ? m * sizeof(double)
                  : pol->kind == NSM_POLICY_EXTREMAL   ? 3 * m * sizeof(double)
                  : pol->kind == NSM_POLICY_EXTREMAL_V ? n * sizeof(double)
                                                       : 0;
    r[0] = nord != 0 ? (uintptr_t)pol->order : 0;
    r[1] = nord;
    r[2] = nrat == 0                              ? 0
           : pol->kind == NSM_POLICY_EXTREMAL   ? (uintptr_t)pol->dir
           : pol->kind == NSM_POLICY_EXTREMAL_V ? (uintptr_t)pol->vdir
                                                : (uintptr_t)pol->ratios;
    r[3] = nrat;
}

/* 1 if the bytes of *info overlap any other argument, the policy's arrays included (info is
   written last: an overlap would overwrite an input or a result). Sizes as validated. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires need <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(pol);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int info_alias(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                      const double *Jt, const double *mu, const double *vm,
                      const nsm_impact_policy *pol, const nsm_impact_opts *opts, const double *vp,
                      const double *lam, const double *work, size_t need,
                      const nsm_impact_info *info)
{
    /*@ assert n * n <= NSM_MAX_DIM * NSM_MAX_DIM; */
    const size_t b = sizeof(double);
    const uintptr_t a = (uintptr_t)info;
    const size_t ni = sizeof(nsm_impact_info);
    uintptr_t pa[4];
    pol_arrays(n, m, pol, pa);
    int bad = nsm_overlap_bytes(a, ni, (uintptr_t)M, n * n * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)Jn, m * n * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)Jt, d * m * n * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)mu, m * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)vm, n * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)vp, n * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)lam, (d + 1) * m * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)work, need * b) |
              nsm_overlap_bytes(a, ni, (uintptr_t)pol, sizeof(nsm_impact_policy)) |
              nsm_overlap_bytes(a, ni, (uintptr_t)opts, opts != NULL ? sizeof *opts : 0) |
              nsm_overlap_bytes(a, ni, pa[0], pa[1]) | nsm_overlap_bytes(a, ni, pa[2], pa[3]);
    return bad != 0 ? 1 : 0;
}

/* 1 if v_plus, Lambda or the work overlaps *pol or the policy's order, ratios, dir or vdir (for the
   kind that reads them): the policy is read while those are written. (opts is copied before any
   write, so only info, written last, is checked against it.) Sizes as validated. */
/*@ requires 1 <= n <= NSM_MAX_DIM && 1 <= m && 3 * m <= NSM_MAX_DIM && (d == 1 || d == 2);
    requires need <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires \valid_read(pol);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int pol_alias(size_t n, size_t m, size_t d, const nsm_impact_policy *pol, const double *vp,
                     const double *lam, const double *work, size_t need)
{
    const size_t b = sizeof(double);
    const size_t np = sizeof(nsm_impact_policy);
    uintptr_t pa[4];
    pol_arrays(n, m, pol, pa);
    const uintptr_t ap = (uintptr_t)pol;
    const uintptr_t out[3] = {(uintptr_t)vp, (uintptr_t)lam, (uintptr_t)work};
    const size_t len[3] = {n * b, (d + 1) * m * b, need * b};
    int bad = 0;
    /*@ loop invariant 0 <= i <= 3;
        loop assigns i, bad;
        loop variant 3 - i;
     */
    for (size_t i = 0; i < 3; i++) {
        bad |= nsm_overlap_bytes(out[i], len[i], ap, np) |
               nsm_overlap_bytes(out[i], len[i], pa[0], pa[1]) |
               nsm_overlap_bytes(out[i], len[i], pa[2], pa[3]);
    }
    return bad != 0 ? 1 : 0;
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

int nsm_impact_aliased(size_t n, size_t m, size_t d, const double *M, const double *Jn,
                       const double *Jt, const double *mu, const double *vm,
                       const nsm_impact_policy *pol, const nsm_impact_opts *opts, const double *vp,
                       const double *lam, const double *work, size_t need,
                       const nsm_impact_info *info)
{
    return any_alias(n, m, d, M, Jn, Jt, mu, vm, vp, lam, work, need) ||
           info_alias(n, m, d, M, Jn, Jt, mu, vm, pol, opts, vp, lam, work, need, info) ||
           pol_alias(n, m, d, pol, vp, lam, work, need);
}
