/*
 * Coulomb's law at one contact (coulomb.h; docs/math.md, "Coulomb's law at one contact").
 * Implements docs/math.md (I2) (the cone of one contact), (I7) (the slip rate) and (I8)
 * (stick and re-slip at rest).
 */
#include <float.h>
#include "coulomb.h"
#include "nsmech/setvalued.h"
#include "../nsm_math.h"

/* Planar rate: the slip rate when |u_t| > ztol; at rest -W_tn/W_tt (stick) when W_tt > 0 and
   friction holds, else -mu·sign(W_tn) (slip resumes against W_tn). Clamped to the cone. */
double nsm_coulomb_rate1(double ut, double mu, double ztol, double wtt, double wtn)
{
    if (fabs(ut) > ztol) {
        return nsm_coulomb_slip1(ut, mu, ztol);
    }
    double r = wtn > 0.0 ? -mu : mu;
    if (wtt > 0.0 && nsm_coulomb_sticks1(mu, wtt, wtn)) {
        r = -wtn / wtt;
    }
    return r > mu ? mu : (r < -mu ? -mu : r);
}

/* v = (alpha·I + mu·W_tt)^-1 W_tn; 1 if |v| > 1. */
/*@ requires \valid(v + (0 .. 1));
    assigns v[0 .. 1];
    ensures \result == 0 || \result == 1;
 */
static int ray_long(double mu, double a11, double a12, double a22, double b1, double b2,
                    double alpha, double *v)
{
    double m11 = alpha + mu * a11;
    double m12 = mu * a12;
    double m22 = alpha + mu * a22;
    double det = m11 * m22 - m12 * m12;
    v[0] = (m22 * b1 - m12 * b2) / det;
    v[1] = (m11 * b2 - m12 * b1) / det;
    return v[0] * v[0] + v[1] * v[1] > 1.0 ? 1 : 0;
}

/*
 * Spatial re-slip direction from rest (|W_tt^-1 W_tn| > mu > 0, W_tt positive definite): the
 * unit s with W_tn = (alpha·I + mu·W_tt)·s, alpha > 0. With B = alpha·I + mu·W_tt and
 * v = B^-1 W_tn, |v| decreases in alpha, exceeds 1 at alpha = 0 and is at most 1 at
 * alpha = |W_tn|; 1 - 1/|v| is concave and increasing in alpha (the secular equation of a
 * trust-region step, More and Sorensen 1983), so Newton's step on it,
 * alpha + (|v| - 1)·|v|²/(v^T B^-1 v), from the left of the root climbs to it quadratically
 * without passing it. Safeguarded: the root stays bracketed in [lo, hi] and a step that
 * leaves the bracket (or is not a number) bisects it; it stops when the step no longer moves
 * alpha, when |v| is 1 to rounding, or after NSM_RESLIP_ITERS steps; then normalisation.
 * Returns 1, or 0 if no direction could be formed (rounding only).
 */
int nsm_coulomb_reslip2(double mu, double a11, double a12, double a22, double b1, double b2,
                        double *s)
{
    double q = b1 * b1 + b2 * b2;
    double lo = 0.0;
    double hi = q > 0.0 ? sqrt(q) : 0.0;
    double al = 0.0;
    int more = 1;
    /*@ loop invariant 0 <= k <= NSM_RESLIP_ITERS;
        loop assigns k, lo, hi, al, more, s[0 .. 1];
        loop variant NSM_RESLIP_ITERS - k;
     */
    for (unsigned k = 0; k < NSM_RESLIP_ITERS && more; k++) {
        if (ray_long(mu, a11, a12, a22, b1, b2, al, s)) {
            lo = al;
        } else {
            hi = al;
        }
        double m11 = al + mu * a11;
        double m12 = mu * a12;
        double m22 = al + mu * a22;
        double det = m11 * m22 - m12 * m12;
        /* v^T B^-1 v, B symmetric: (m22 v1² - 2 m12 v1 v2 + m11 v2²)/det */
        double vbv = (m22 * s[0] * s[0] - 2.0 * m12 * s[0] * s[1] + m11 * s[1] * s[1]) / det;
        double vv = s[0] * s[0] + s[1] * s[1];
        double nv = sqrt(vv);
        double next = al + (nv - 1.0) * (vv / vbv);
        if (fabs(nv - 1.0) <= 4.0 * DBL_EPSILON || next == al) {
            more = 0; /* at the root to rounding: alpha stays */
        } else {
            al = next > lo && next < hi ? next : 0.5 * (lo + hi);
        }
    }
    (void)ray_long(mu, a11, a12, a22, b1, b2, al, s);
    double n2 = s[0] * s[0] + s[1] * s[1];
    if (!(n2 > 0.0)) {
        return 0;
    }
    double n = sqrt(n2);
    s[0] = s[0] / n;
    s[1] = s[1] / n;
    return 1;
}

/* 1 if |(q1, q2)| <= m (m >= 0), decided without squaring q or m where that could underflow
   or overflow: with s = max |q_i|, |q| lies in [s, sqrt(2) s], so m < s or m >= 2 s decides,
   and otherwise q/s and m/s are of order 1 (fuzz finding P9: |q| ~ 3e-265 and m ~ 6e-299
   both squared to 0 and compared equal). */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int norm2_within(double q1, double q2, double m)
{
    double a1 = fabs(q1);
    double a2 = fabs(q2);
    double s = a1 > a2 ? a1 : a2;
    if (!(s > 0.0)) {
        return 1;
    }
    if (m < s) {
        return 0;
    }
    if (0.5 * m >= s) {
        return 1;
    }
    double u = q1 / s;
    double v = q2 / s;
    double t = m / s;
    return u * u + v * v <= t * t ? 1 : 0;
}

/*
 * Spatial rate at rest (W_tt positive definite): d = -W_tt^-1 W_tn when |d| <= mu (returns 1:
 * stick), else d = -mu·s with s the re-slip direction (returns 0: slip); -1 if no re-slip
 * direction could be formed (rounding only; d is then 0).
 */
int nsm_coulomb_rest2(double mu, double a11, double a12, double a22, double b1, double b2,
                      double *d)
{
    /* q = W_tt^-1 W_tn on W_tt divided by its largest diagonal entry w (so that the
       determinant neither overflows nor underflows for well-conditioned W_tt at any scale) */
    double w = a11 > a22 ? a11 : a22;
    if (!(w > 0.0)) {
        w = 1.0; /* not taken: W_tt positive definite */
    }
    double e11 = a11 / w;
    double e12 = a12 / w;
    double e22 = a22 / w;
    double det = e11 * e22 - e12 * e12;
    double q1 = (e22 * b1 - e12 * b2) / det / w;
    double q2 = (e11 * b2 - e12 * b1) / det / w;
    if (norm2_within(q1, q2, mu)) {
        d[0] = -q1;
        d[1] = -q2;
        return 1;
    }
    /* the re-slip direction is unchanged when W_tn and mu are divided by c = max |W_tn,i|:
       W_tn of order 1, and |W_tn|^2 no longer underflows in the bisection (fuzz finding P9) */
    double m1 = fabs(b1);
    double m2 = fabs(b2);
    double c = m1 > m2 ? m1 : m2;
    if (!(c > 0.0)) {
        c = 1.0; /* not taken: W_tn = 0 sticks */
    }
    double s1 = b1 / c;
    double s2 = b2 / c;
    double mus = mu / c;
    if (!nsm_coulomb_reslip2(mus, a11, a12, a22, s1, s2, d)) {
        d[0] = 0.0;
        d[1] = 0.0;
        return -1;
    }
    d[0] = -mu * d[0];
    d[1] = -mu * d[1];
    return 0;
}

/*
 * Spatial rate at rest when W_tt is singular (positive semidefinite): W_tt = tr·e·e^T with e
 * the unit direction of its row with the larger diagonal entry, and W_tn lies on e (it is
 * J_t M^-1 J_n^T, and a direction z with z^T W_tt z = 0 has z^T J_t = 0), so u_t moves on that
 * line only: the planar rule at rest (nsm_coulomb_rate1) along e, d = rate·e. d = 0 when
 * W_tt = 0 (u_t cannot change).
 */
void nsm_coulomb_rest2_line(double mu, double a11, double a12, double a22, double b1,
                            double b2, double *d)
{
    double x = a11 >= a22 ? a11 : a12;
    double y = a11 >= a22 ? a12 : a22;
    d[0] = 0.0;
    d[1] = 0.0;
    /* the row divided by its largest entry: its squared norm neither overflows nor underflows
       (as in nsm_coulomb_rest2) */
    double s = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
    if (!(s > 0.0)) {
        return;
    }
    x = x / s;
    y = y / s;
    double n = sqrt(x * x + y * y); /* in [1, sqrt 2] */
    double e1 = x / n;
    double e2 = y / n;
    double r = nsm_coulomb_rate1(0.0, mu, 0.0, a11 + a22, e1 * b1 + e2 * b2);
    d[0] = r * e1;
    d[1] = r * e2;
}

/* Spatial rate at rest on any positive semidefinite W_tt (rest2 or rest2_line). */
void nsm_coulomb_rest2_block(double mu, double a11, double a12, double a22, double b1,
                             double b2, double *d)
{
    if (a11 > 0.0 && a11 * a22 - a12 * a12 > NSM_WTT_SINGULAR * a11 * a22) {
        (void)nsm_coulomb_rest2(mu, a11, a12, a22, b1, b2, d);
    } else {
        nsm_coulomb_rest2_line(mu, a11, a12, a22, b1, b2, d);
    }
}

/* Radius below mu·pn: for normal p = fl(mu·pn), p·(1 - 2^-52) rounds to p less one or two
   units of rounding, below the exact product, which lies within half a unit of p; for
   subnormal p it rounds to p, and p - 2^-1074 lies below the product (within 2^-1075 of p).
   When p overflows, the exact product is at least DBL_MAX: DBL_MAX (an infinite radius made
   the clamps keep or produce points the sound test rejects, and 0·inf a NaN). */
double nsm_coulomb_radius(double mu, double pn)
{
    double p = mu * pn;
    if (!(p <= DBL_MAX)) {
        return DBL_MAX;
    }
    double c = p * (1.0 - 0x1p-52) - 0x1p-1074;
    return c > 0.0 ? c : 0.0;
}

/* Final planar clamp: kept when nsm_cone_contains accepts it, else pt = ±rho. */
double nsm_coulomb_inward1(double mu, double pn, double pt)
{
    const double t[1] = {pt};
    int in = 0;
    if (nsm_cone_contains(1, mu, pn, t, 0.0, &in) == NSM_OK && in == 1) {
        return pt;
    }
    double c = nsm_coulomb_radius(mu, pn);
    double rho = c >= 0x1p-1000 ? c * (1.0 - 0x1p-44) : 0.0;
    /*@ assert rho: 0 <= rho <= mu * pn; */
    if (pt > rho) {
        return rho;
    }
    if (pt < -rho) {
        return -rho;
    }
    return pt;
}

/* Final spatial clamp: (p1, p2) = g·(a, b), (a, b) = p/max|p_i| of norm nr in [1, sqrt 2] and
   g = rho/nr. In IEEE arithmetic the norm of the result exceeds rho by at most about 6 units
   of rounding (plus 2^-1074), well within rho·2^-44 for rho >= 2^-1000. */
void nsm_coulomb_inward2(double mu, double pn, double *p1, double *p2)
{
    double x = *p1;
    double y = *p2;
    double ax = fabs(x);
    double ay = fabs(y);
    double m = ax > ay ? ax : ay;
    if (!(m > 0.0)) {
        /*@ assert x == 0 && y == 0; */
        return;
    }
    const double t[2] = {x, y};
    int in = 0;
    if (nsm_cone_contains(2, mu, pn, t, 0.0, &in) == NSM_OK && in == 1) {
        /*@ assert x * x + y * y <= (mu * pn) * (mu * pn); */
        return;
    }
    double c = nsm_coulomb_radius(mu, pn);
    double rho = c >= 0x1p-1000 ? c * (1.0 - 0x1p-44) : 0.0;
    /*@ assert rho: 0 <= rho <= mu * pn; */
    double a = x / m;
    double b = y / m;
    /*@ assert am: a * m == x && b * m == y; */
    /*@ assert one: a * a + b * b >= 1; */
    double nr = sqrt(a * a + b * b);
    /*@ assert nr: nr >= 1; */
    double g = rho / nr;
    /*@ assert g: g * nr == rho && g >= 0; */
    double u = a * g;
    double v = b * g;
    /*@ assert uv: u * u + v * v == (a * a + b * b) * (g * g); */
    /*@ assert uv2: u * u + v * v == rho * rho; */
    /*@ assert sq: rho * rho <= (mu * pn) * (mu * pn); */
    *p1 = u;
    *p2 = v;
}
