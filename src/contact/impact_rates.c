/*
 * Impulse rates of one segment of the integrator: each weighted contact's Coulomb rate on its
 * own block of W (slip, stick, re-slip from rest), the midpoint correction of spatial
 * segments and the longest segment over which spatial slip directions may be frozen.
 */
#include "nsmech/contact.h"
#include "../nsm_math.h"
#include "internal.h"
#include "impact_internal.h"
#include "coulomb.h"

/* Tangential impulse rate per unit weight of contact c (Routh's rule on its own block), written
   to (*r1, *r2) (r2 = 0 when d = 1); |(r1, r2)| <= mu. */
void nsm_impact_friction_rate(size_t m, size_t d, const double *W, const double *u, size_t c,
                              double mu_in, double ztol, double *r1, double *r2)
{
    double muc = mu_in > 0.0 ? mu_in : 0.0;
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    lemma_idx(3 * c, 3 * c, K);
    lemma_idx(3 * c, 3 * c + 1, K);
    lemma_idx(3 * c, 3 * c + 2, K);
    lemma_idx(3 * c + 1, 3 * c + 1, K);
    lemma_idx(3 * c + 1, 3 * c + 2, K);
    double ut1 = u[3 * c];
    double ut2 = d == 2 ? u[3 * c + 1] : 0.0;
    double wtt = W[(3 * c) * K + 3 * c];
    double wtn = W[(3 * c) * K + 3 * c + 2];
    *r2 = 0.0;
    if (muc == 0.0) {
        *r1 = 0.0;
        return;
    }
    if (d == 1) {
        *r1 = nsm_coulomb_rate1(ut1, muc, ztol, wtt, wtn);
        return;
    }
    double sp = tnorm(2, ut1, ut2);
    if (sp > ztol && sp > 0.0) {
        *r1 = -muc * ut1 / sp;
        *r2 = -muc * ut2 / sp;
        return;
    }
    /* at rest: stick if the own block allows it, else re-slip */
    double w12 = W[(3 * c) * K + 3 * c + 1];
    double w22 = W[(3 * c + 1) * K + 3 * c + 1];
    double w2n = W[(3 * c + 1) * K + 3 * c + 2];
    double r[2] = {0.0, 0.0};
    if (wtt > 0.0 && wtt * w22 - w12 * w12 > 0.0) {
        (void)nsm_coulomb_rest2(muc, wtt, w12, w22, wtn, w2n, r);
    }
    *r1 = r[0];
    *r2 = r[1];
}

/* lamhat (3m) from weights: (w_c·r1_c, w_c·r2_c, w_c) per contact. */
void nsm_impact_lamhat(size_t m, size_t d, const double *W, const double *u, const double *mu,
                       const double *w, double ztol, double *lh)
{
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, lh[0 .. 3 * m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double r1 = 0.0;
        double r2 = 0.0;
        if (w[c] > 0.0) {
            nsm_impact_friction_rate(m, d, W, u, c, mu[c], ztol, &r1, &r2);
        }
        lh[3 * c] = w[c] * r1;
        lh[3 * c + 1] = w[c] * r2;
        lh[3 * c + 2] = w[c];
    }
}

/*
 * Longest segment over which the spatial slip directions may be frozen (d = 2). A direction
 * u_t/|u_t| turns at a rate of order |r_t|/|u_t| per unit impulse, and near rest the
 * direction equation is stiff (rate of order mu·w·tr W_tt/|u_t|): an explicit step longer
 * than that amplifies the error perpendicular to the slip instead of damping it. Returns
 * min over slipping contacts of |u_t|/(4|r_t| + mu·w·tr W_tt) (h when none), never below hmin.
 */
double nsm_impact_slip_cap(size_t m, const double *W, const double *mu, const double *w,
                           const double *u, const double *rate, double h, double hmin, double ztol)
{
    size_t K = 3 * m;
    double cap = h;
    /*@ loop invariant 0 <= c <= m;
        loop invariant hmin <= cap <= h;
        loop assigns c, cap;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        /*@ assert K * K == 9 * m * m; */
        lemma_idx(3 * c, 3 * c, K);
        lemma_idx(3 * c + 1, 3 * c + 1, K);
        double sp = tnorm(2, u[3 * c], u[3 * c + 1]);
        double turn = 4.0 * tnorm(2, rate[3 * c], rate[3 * c + 1]) +
                      mu[c] * w[c] * (W[(3 * c) * K + 3 * c] + W[(3 * c + 1) * K + 3 * c + 1]);
        if (w[c] > 0.0 && sp > ztol && turn > 0.0) {
            double l = sp / turn;
            if (l < cap) {
                cap = l < hmin ? hmin : l;
            }
        }
    }
    return cap;
}

/* Midpoint correction of a spatial segment: the friction directions at u + (len/2)·rate with
   the same weights give lh and rate for the whole segment (second order in the step). */
void nsm_impact_midpoint(size_t m, const double *W, const double *mu, const double *u,
                         const double *w, double len, double ztol, double *lh, double *rate,
                         double *um)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    copy_vec(K, u, um);
    axpy(K, 0.5 * len, rate, um);
    nsm_impact_lamhat(m, 2, W, um, mu, w, ztol, lh);
    matvec(K, K, W, lh, rate);
}
