/* make eva: drivers of the contact kernels (nsmech/contact.h) and of the planar Coulomb rate
   at one contact (src/contact/coulomb.h, internal). */
#include "eva.h"
#include "nsmech/contact.h"
#include "../../src/contact/coulomb.h"

double nsm_eva_in[NSM_EVA_SLOTS];

/* The ranges (stated in nsmech/contact.h). Eva's intervals do not relate the entries of W (det
   W > 0 is lost once W is scaled by its largest entry), so W is a family with W_tt, W_nn in [s,
   2s] and |W_tn| <= 0.4 s, positive definite by diagonal dominance, for each scale s = 2^k (k
   in [-20, 20]: about 1e-6 to 1e6) analysed apart, and the friction regimes with mu > 0 are
   kept away from their boundaries (mu W_tt = |W_tn| between stick and slip, W_nn = mu |W_tn|
   for Painleve), where a quotient -u/rate of the event loop has no bound in Eva's view. A slip
   against W_tn can end with p_t of either sign, arbitrarily near 0: the final cone test
   (nsm_coulomb_inward1, nsm_cone_contains) divides p_t by |p_t|, which Eva's intervals do not
   bound (4 alarms); such slips are not among the ranges. */
#define VEL_HI 1e40
#define VEL_LO 1e-40
#define ZTOL_HI 1.0
#define BIG 1e40
#define MAG_LO 1e-40
#define SCALE_K 20

/* s = 2^k for one k in [-SCALE_K, SCALE_K], each k a state: W's scale, exact in every state,
   so that Eva keeps the ratios of W's entries. */
static double scale2k(void)
{
    int k = Frama_C_interval_split(-SCALE_K, SCALE_K);
    double s = 1.0;
    for (int i = 0; i < k; i++) {
        s = s * 2.0;
    }
    for (int i = 0; i > k; i--) {
        s = s * 0.5;
    }
    return s;
}

/* W = [[W_tt, W_tn], [W_tn, W_nn]] (row-major): W_tt, W_nn in [s, 2s], |W_tn| in
   [tn_lo s, tn_hi s] (tn_hi <= 0.4: positive definite, diagonally dominant), s = scale2k();
   each sign of W_tn a state. */
static void delassus2(double *W, double tn_lo, double tn_hi, int sign)
{
    double s = scale2k();
    W[0] = s * in_range(0, 1.0, 2.0);
    W[3] = s * in_range(1, 1.0, 2.0);
    double t = s * in_range(2, tn_lo, tn_hi);
    W[1] = sign > 0 ? t : -t;
    W[2] = W[1];
}

/* eva-ranges: mu = 0, W_tt and W_nn in [s, 2s] and |W_tn| <= 0.4 s for s = 2^k, k in [-20, 20],
   u0 in [-1e40, 1e40]^2, ztol in [0, 1] */
void eva_main_routh_planar(void)
{
    double W[4];
    delassus2(W, 0.0, 0.4, Frama_C_interval_split(0, 1) ? 1 : -1);
    double u0[2];
    u0[0] = in_range(3, -VEL_HI, VEL_HI);
    u0[1] = in_range(4, -VEL_HI, VEL_HI);
    double ztol = in_range(6, 0.0, ZTOL_HI);
    nsm_routh_result res;
    nsm_status st = nsm_routh_planar(W, u0, 0.0, ztol, &res);
    Frama_C_show_each_reached(st);
}

/* From tangential rest (|u_t| <= ztol: a stick phase), with friction. eva-ranges: mu in [0.5,
   2], W_tt and W_nn in [s, 2s] and W_tn = 0 or |W_tn| in [0.01 s, 0.4 s] for s = 2^k, k in
   [-20, 20], ztol in [1e-3, 1], u_t in [-1e-3, 1e-3], u_n in [-1e40, -1e-40] or [0, 1e40] */
void eva_main_routh_planar_rest(void)
{
    double W[4];
    if (Frama_C_interval_split(0, 1)) {
        delassus2(W, 0.01, 0.4, Frama_C_interval_split(0, 1) ? 1 : -1);
    } else {
        delassus2(W, 0.0, 0.0, 1);
    }
    double mu = in_range(5, 0.5, 2.0);
    double u0[2];
    u0[0] = in_range(3, -1e-3, 1e-3);
    u0[1] = Frama_C_interval_split(0, 1) ? in_range(4, -VEL_HI, -VEL_LO)
                                         : in_range(4, 0.0, VEL_HI);
    double ztol = in_range(6, 1e-3, ZTOL_HI);
    nsm_routh_result res;
    nsm_status st = nsm_routh_planar(W, u0, mu, ztol, &res);
    Frama_C_show_each_reached(st);
}

/* eva-ranges: mu = 0 or mu in [1e-30, 1e30], W_tt and W_nn in [s, 2s] and |W_tn| <= 0.4 s for s
   = 2^k, k in [-20, 20], u_t in [-1e40, 1e40], u_n in [-1e40, -1e-40] or [0, 1e40] */
void eva_main_routh_bound(void)
{
    double W[4];
    delassus2(W, 0.0, 0.4, Frama_C_interval_split(0, 1) ? 1 : -1);
    double u0[2];
    u0[0] = in_range(3, -VEL_HI, VEL_HI);
    u0[1] = Frama_C_interval_split(0, 1) ? in_range(4, -VEL_HI, -VEL_LO)
                                         : in_range(4, 0.0, VEL_HI);
    double mu = Frama_C_interval_split(0, 1) ? in_range(5, 1e-30, 1e30) : 0.0;
    double bound = 0.0;
    nsm_status st = nsm_routh_bound(W, u0, mu, &bound);
    Frama_C_show_each_reached(st);
}

/* nsm_coulomb_rate1 (planar rate per unit normal impulse).
   eva-ranges: u_t in [-1e40, 1e40], mu in [0, 1e10], ztol in [0, 1e40], W_tt in [1e-40, 1e40],
   W_tn in [-1e40, 1e40] */
void eva_main_coulomb_rate1(void)
{
    double ut = in_range(0, -BIG, BIG);
    double mu = in_range(1, 0.0, 1e10);
    double ztol = in_range(2, 0.0, BIG);
    double wtt = in_range(3, MAG_LO, BIG);
    double wtn = in_range(4, -BIG, BIG);
    double r = nsm_coulomb_rate1(ut, mu, ztol, wtt, wtn);
    Frama_C_show_each_reached(r == r ? 0 : 1); /* 0: returned, with a number */
}

/* Slipping at first (|u_t| > ztol), u_t and W_tn of one sign (u_t W_tn >= 0: the tangential
   impulse does not change sign), in either regime: mu W_tt > |W_tn| (0.5 <= mu <= 2, |W_tn| <=
   0.4 s) or mu W_tt < |W_tn| (1e-3 <= mu <= 0.05, |W_tn| >= 0.2 s). eva-ranges: mu in [0.5, 2]
   with |W_tn| <= 0.4 s, or mu in [1e-3, 0.05] with |W_tn| in [0.2 s, 0.4 s]; W_tt and W_nn in
   [s, 2s] for s = 2^k, k in [-20, 20]; |u_t| in [1e-2, 1e40] with u_t W_tn >= 0, ztol in [0,
   1e-3], u_n in [-1e40, -1e-40] or [0, 1e40] */
void eva_main_routh_planar_slip(void)
{
    double W[4];
    int sign = Frama_C_interval_split(0, 1) ? 1 : -1;
    double mu;
    if (Frama_C_interval_split(0, 1)) {
        mu = in_range(5, 0.5, 2.0);
        delassus2(W, 0.0, 0.4, sign);
    } else {
        mu = in_range(5, 1e-3, 0.05);
        delassus2(W, 0.2, 0.4, sign);
    }
    double u0[2];
    double ut = in_range(3, 1e-2, VEL_HI);
    u0[0] = sign > 0 ? ut : -ut;
    u0[1] = Frama_C_interval_split(0, 1) ? in_range(4, -VEL_HI, -VEL_LO)
                                         : in_range(4, 0.0, VEL_HI);
    double ztol = in_range(6, 0.0, 1e-3);
    nsm_routh_result res;
    nsm_status st = nsm_routh_planar(W, u0, mu, ztol, &res);
    Frama_C_show_each_reached(st);
}
