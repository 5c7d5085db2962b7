/* make eva: drivers of the set-valued maps (nsmech/setvalued.h). */
#include "eva.h"
#include "nsmech/setvalued.h"

double nsm_eva_in[NSM_EVA_SLOTS];

/* The ranges (stated in nsmech/setvalued.h). A tangent or vector entry is 0 or of magnitude in
   [MAG_LO, MAG_HI]: Eva's intervals do not relate x to max(|x|, |y|), so a quotient x/max is
   bounded by MAG_HI/MAG_LO (and its square must stay finite), not by 1. */
#define MU_HI 1e10
#define BIG 1e40
#define MAG_LO 1e-40
#define MAG_HI 1e40

/* A cone point: d in {1, 2}, mu in [0, 1e10], ln in [-1e40, 1e40], lt[i] = 0 or |lt[i]| in
   [1e-40, 1e40] (slots 0, 2, 3, 4). */
typedef struct cone_point {
    size_t d;
    double mu, ln, lt[2];
} cone_point;

static cone_point cone_inputs(void)
{
    cone_point c;
    c.d = (size_t)Frama_C_interval_split(1, 2);
    c.mu = in_range(0, 0.0, MU_HI);
    c.ln = in_range(2, -BIG, BIG);
    c.lt[0] = in_mag(3, MAG_LO, MAG_HI);
    c.lt[1] = in_mag(4, MAG_LO, MAG_HI);
    return c;
}

/* eva-ranges: d in {1, 2}, mu in [0, 1e10], tol in [0, 1e40], ln in [-1e40, 1e40], lt[i] = 0 or
   |lt[i]| in [1e-40, 1e40] */
void eva_main_cone_contains(void)
{
    cone_point c = cone_inputs();
    double tol = in_range(1, 0.0, BIG);
    int inside = 0;
    nsm_status st = nsm_cone_contains(c.d, c.mu, c.ln, c.lt, tol, &inside);
    Frama_C_show_each_reached(st);
}

/* eva-ranges: d in {1, 2}, mu in [0, 1e10], ln in [-1e40, 1e40], lt[i] = 0 or |lt[i]| in [1e-40,
   1e40] */
void eva_main_cone_project(void)
{
    cone_point c = cone_inputs();
    double pn = 0.0;
    double pt[2] = {0.0, 0.0};
    nsm_status st = nsm_cone_project(c.d, c.mu, c.ln, c.lt, &pn, pt);
    Frama_C_show_each_reached(st);
}

/* eva-ranges: n in {1, 2, 3}, ztol in [0, 1e40], v[i] = 0 or |v[i]| in [1e-40, 1e40] */
void eva_main_unit(void)
{
    size_t n = (size_t)Frama_C_interval_split(1, 3);
    double ztol = in_range(0, 0.0, BIG);
    double v[3];
    v[0] = in_mag(1, MAG_LO, MAG_HI);
    v[1] = in_mag(2, MAG_LO, MAG_HI);
    v[2] = in_mag(3, MAG_LO, MAG_HI);
    nsm_unit_case which = NSM_UNIT_BALL;
    double u[3] = {0.0, 0.0, 0.0};
    nsm_status st = nsm_unit(n, v, ztol, &which, u);
    Frama_C_show_each_reached(st);
}
