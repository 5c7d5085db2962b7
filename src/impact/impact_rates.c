/*
 * Impulse rates of one segment of the integrator: each weighted contact's Coulomb rate on its
 * own block of W (slip, stick, re-slip from rest), the Runge–Kutta rates of spatial
 * segments and the longest segment of a spatial slip (its turn bounded). Implements
 * docs/math.md (I7), (I8) and the rate (I11) of the inclusion (I4).
 */
#include "nsmech/impact.h"
#include "../nsm_math.h"
#include "internal.h"
#include "impact_internal.h"
#include "../contact/coulomb.h"
#include "slide.h"

/* 1/(largest turn of a slip direction over a segment, in radians): the Runge–Kutta segment's
   error grows as the fifth power of its turn. Measured (tests/accuracy/accuracy_spatial.c,
   500 random sequential problems at 4000 steps): 4 left one case just beyond 1e-6 of the
   oracle (1.04e-6; worst within 9.1e-7), 8 none (worst 2.8e-7) for 28 % more steps. */
#define SLIP_TURN_INV 8.0

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
    /* at rest: stick if the own block allows it, else re-slip (on the line of W_tt's range
       when W_tt is singular) */
    double w12 = W[(3 * c) * K + 3 * c + 1];
    double w22 = W[(3 * c + 1) * K + 3 * c + 1];
    double w2n = W[(3 * c + 1) * K + 3 * c + 2];
    double r[2] = {0.0, 0.0};
    nsm_coulomb_rest2_block(muc, wtt, w12, w22, wtn, w2n, r);
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
 * Longest segment of a spatial slip (d = 2), its turn bounded. A direction u_t/|u_t| turns
 * at a rate of order |r_t|/|u_t| per unit impulse, and near rest the
 * direction equation is stiff (rate of order mu·w·tr W_tt/|u_t|): an explicit step longer
 * than that amplifies the error perpendicular to the slip instead of damping it. Returns
 * min over slipping contacts of |u_t|/(8|r_t| + mu·w·tr W_tt) (h when none), never below hmin:
 * a segment turns the slip by at most about 1/8 rad.
 */
double nsm_impact_slip_cap(size_t m, const double *W, const double *mu, const double *w,
                           const double *u, const double *rate, double h, double hmin, double ztol,
                           int joint)
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
        double rt = tnorm(2, rate[3 * c], rate[3 * c + 1]);
        double stiff = mu[c] * w[c] * (W[(3 * c) * K + 3 * c] + W[(3 * c + 1) * K + 3 * c + 1]);
        if (joint && sp > 0.0) {
            /* joint rates hold a slip still where stuck contacts lock it (a rigid foot's
               corners): its stiffness applies in proportion to how far it moves in a step */
            double q = SLIP_TURN_INV * rt * (h / sp);
            stiff = q < 1.0 ? stiff * q : stiff;
        }
        double turn = SLIP_TURN_INV * rt + stiff;
        if (w[c] > 0.0 && sp > ztol && turn > 0.0) {
            double l = sp / turn;
            if (l < cap) {
                cap = l < hmin ? hmin : l;
            }
        }
    }
    return cap;
}

/* One Runge–Kutta stage: um = u + step·dir, ls its impulse rates and rs = W ls (dir may be
   rs: it is read before rs is written). With wp (the policy's weights of a segment that took
   joint rates): the held weights and joint stick rates at um (nsm_slide from wp, warm-started
   from lh), or where they do not converge or nothing is at rest there the segment's weights
   at u, held ones included (lh's normal slots: each contact's own rates with wp would drop a
   hold for the stage and start an alternation about u_n = 0), with each contact slipping at
   um on its own slip's friction and the others on their joint stick rates at u. Without: the same weights w (as nsm_impact_lamhat), except that a contact at
   tangential rest at u keeps its rates there (lh: stick or the re-slip ray, constant while
   that lasts; re-evaluated at a stage that has moved, they would mix in the sliding law). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(mu + (0 .. m - 1));
    requires \valid_read(u + (0 .. 3 * m - 1)) && \valid_read(w + (0 .. m - 1));
    requires wp == \null || \valid_read(wp + (0 .. m - 1));
    requires \valid_read(lh + (0 .. 3 * m - 1)) && \valid_read(dir + (0 .. 3 * m - 1));
    requires \valid(um + (0 .. 3 * m - 1)) && \valid(ls + (0 .. 3 * m - 1)) &&
             \valid(rs + (0 .. 3 * m - 1));
    requires \separated(um + (0 .. 3 * m - 1), ls + (0 .. 3 * m - 1), rs + (0 .. 3 * m - 1),
                        lh + (0 .. 3 * m - 1), u + (0 .. 3 * m - 1));
    requires dir_ok: dir == rs || \separated(dir + (0 .. 3 * m - 1), um + (0 .. 3 * m - 1),
                                              ls + (0 .. 3 * m - 1), rs + (0 .. 3 * m - 1));
    assigns um[0 .. 3 * m - 1], ls[0 .. 3 * m - 1], rs[0 .. 3 * m - 1];
 */
static void rk_stage(size_t m, const double *W, const double *mu, const double *u,
                     const double *w, const double *wp, const double *lh, double step,
                     const double *dir, double ztol, double ntol, double *um, double *ls,
                     double *rs)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    copy_vec(K, u, um);
    axpy(K, step, dir, um);
    if (wp != NULL) {
        double ws[NSM_MAX_DIM / 3];
        copy_vec(m, wp, ws);
        copy_vec(K, lh, ls);
        if (!nsm_slide(m, 2, W, um, mu, ztol, ntol, ws, ls, rs)) {
            /* the segment's weights at u (held ones included), each contact slipping at um
               on its own slip, the others keeping their joint stick rates at u */
            /*@ loop invariant 0 <= c <= m;
                loop assigns c, ws[0 .. m - 1];
                loop variant m - c;
             */
            for (size_t c = 0; c < m; c++) {
                ws[c] = lh[3 * c + 2];
            }
            nsm_impact_lamhat(m, 2, W, um, mu, ws, ztol, ls);
            /*@ loop invariant 0 <= c <= m;
                loop assigns c, ls[0 .. 3 * m - 1];
                loop variant m - c;
             */
            for (size_t c = 0; c < m; c++) {
                if (!(tnorm(2, um[3 * c], um[3 * c + 1]) > ztol)) {
                    ls[3 * c] = lh[3 * c];
                    ls[3 * c + 1] = lh[3 * c + 1];
                }
            }
            matvec(K, K, W, ls, rs);
        }
        return;
    }
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, ls[0 .. 3 * m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double r1 = lh[3 * c];
        double r2 = lh[3 * c + 1];
        if (w[c] > 0.0 && tnorm(2, u[3 * c], u[3 * c + 1]) > ztol) {
            nsm_impact_friction_rate(m, 2, W, um, c, mu[c], ztol, &r1, &r2);
            r1 = w[c] * r1;
            r2 = w[c] * r2;
        }
        ls[3 * c] = r1;
        ls[3 * c + 1] = r2;
        ls[3 * c + 2] = w[c];
    }
    matvec(K, K, W, ls, rs);
}

void nsm_impact_rk4(size_t m, const double *W, const double *mu, const double *u, double *w,
                    const double *wp, double len, double ztol, double ntol, double *lh,
                    double *rate, double *um, double *ls, double *rs)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    /* rate accumulates l1 + 2 l2 + 2 l3 + l4 once stage 2 has read it (r1); lh keeps l1 */
    rk_stage(m, W, mu, u, w, wp, lh, 0.5 * len, rate, ztol, ntol, um, ls, rs);
    copy_vec(K, lh, rate);
    axpy(K, 2.0, ls, rate);
    rk_stage(m, W, mu, u, w, wp, lh, 0.5 * len, rs, ztol, ntol, um, ls, rs);
    axpy(K, 2.0, ls, rate);
    rk_stage(m, W, mu, u, w, wp, lh, len, rs, ztol, ntol, um, ls, rs);
    axpy(K, 1.0, ls, rate);
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, lh[0 .. 3 * m - 1], w[0 .. m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        lh[3 * c] = rate[3 * c] / 6.0;
        lh[3 * c + 1] = rate[3 * c + 1] / 6.0;
        if (wp != NULL) {
            /* held weights change along the segment: their average */
            lh[3 * c + 2] = rate[3 * c + 2] / 6.0;
            w[c] = lh[3 * c + 2];
        } else {
            /* the weight itself: (w + 2w + 2w + w)/6 may differ by an ulp */
            lh[3 * c + 2] = w[c];
        }
    }
    matvec(K, K, W, lh, rate);
}
