/*
 * nsmech/geometry.h — plane geometry for pictures of outcome sets: the convex hull of a point
 * set with an exact orientation test.
 */
#ifndef NSMECH_GEOMETRY_H
#define NSMECH_GEOMETRY_H

#include <stddef.h>
#include "nsmech/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Convex hull of npts points (x[i], y[i]) (Andrew's monotone chain): hull[0 .. *nh - 1] are
 * point indices in counter-clockwise order, collinear points dropped. As a picture of an
 * outcome set, the hull of the sampled outcomes is an outer approximation of the sampled set
 * (which need not be convex): every sampled outcome lies in it, it may contain points that are
 * no outcome, and outcomes that were not sampled may lie outside it.
 * idx (npts entries) is scratch; hull needs npts + 1 entries.
 * Repeated points count once (n identical points give nh = 1).
 * The orientation test is exact for all finite coordinates (a rounded filter, then integer
 * arithmetic: src/geometry/hull.c): 1e300 next to 1, subnormal offsets, points a few ulps apart
 * next to points at DBL_MAX all give the hull of the points as given.
 * Errors (nothing written): NSM_ERR_NULL, NSM_ERR_SIZE (npts = 0 or > NSM_MAX_DIM²),
 * NSM_ERR_ALIAS (any two of x, y, idx, hull, nh overlap), NSM_ERR_NOT_FINITE.
 */
/*@ requires valid_in: (x == \null || npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM ||
                        \valid_read(x + (0 .. npts - 1))) &&
                       (y == \null || npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM ||
                        \valid_read(y + (0 .. npts - 1)));
    requires valid_out: (idx == \null || npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM ||
                         \valid(idx + (0 .. npts - 1))) &&
                        (hull == \null || npts == 0 || npts > NSM_MAX_DIM * NSM_MAX_DIM ||
                         \valid(hull + (0 .. npts))) &&
                        (nh == \null || \valid(nh));
    requires sep: idx == \null || hull == \null || nh == \null || npts == 0 ||
                  npts > NSM_MAX_DIM * NSM_MAX_DIM ||
                  \separated(idx + (0 .. npts - 1), hull + (0 .. npts), nh);
    assigns idx[0 .. npts - 1], hull[0 .. npts], *nh;
    ensures ok: \result == NSM_OK ==> 1 <= *nh <= npts &&
                  \forall integer i; 0 <= i < *nh ==> hull[i] < npts;
 */
nsm_status nsm_hull2d(size_t npts, const double *x, const double *y, size_t *idx, size_t *hull,
                      size_t *nh);

#ifdef __cplusplus
}
#endif

#endif /* NSMECH_GEOMETRY_H */
