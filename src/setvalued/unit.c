/* The set-valued Unit map (docs/math.md (I1); [I] eq. 3). */
#include "nsmech/setvalued.h"
#include "../linalg/internal.h"

nsm_status nsm_unit(size_t n, const double *v, double ztol, nsm_unit_case *which, double *u)
{
    if (which == NULL || v == NULL || u == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    const double *uc = u;
    uintptr_t aw = (uintptr_t)which;
    size_t nw = sizeof *which;
    size_t nb = n * sizeof(double);
    if ((uc != v && nsm_overlap(uc, n, v, n)) || nsm_overlap_bytes(aw, nw, (uintptr_t)u, nb) ||
        nsm_overlap_bytes(aw, nw, (uintptr_t)v, nb)) {
        return NSM_ERR_ALIAS;
    }
    if (!(ztol >= 0.0) || !nsm_all_finite(1, &ztol)) {
        return NSM_ERR_ARG;
    }
    if (!nsm_all_finite(n, v)) {
        return NSM_ERR_NOT_FINITE;
    }
    /* Scale by the largest magnitude first so that the sum of squares neither overflows nor
       underflows for finite input. */
    double big = nsm_vec_absmax(n, v);
    double norm = 0.0;
    double r = 0.0;
    if (big > 0.0) {
        r = nsm_vec_scaled_norm(n, big, v);
        norm = big * r;
    }
    if (!(norm > ztol)) {
        /*@ loop invariant 0 <= i <= n;
            loop invariant \forall integer k; 0 <= k < i ==> u[k] == 0;
            loop assigns i, u[0 .. n - 1];
            loop variant n - i;
         */
        for (size_t i = 0; i < n; i++) {
            u[i] = 0.0;
        }
        *which = NSM_UNIT_BALL;
        return NSM_OK;
    }
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, u[0 .. n - 1];
        loop variant n - i;
     */
    /* (v/big)/r, not v/norm: norm = big·r may overflow or round to a subnormal (a norm above
       DBL_MAX gave u = 0, a subnormal one a u that was not a unit vector) */
    for (size_t i = 0; i < n; i++) {
        u[i] = (v[i] / big) / r;
    }
    *which = NSM_UNIT_DIRECTION;
    return NSM_OK;
}
