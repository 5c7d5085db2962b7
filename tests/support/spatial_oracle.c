/*
 * Test oracle for spatial multi-contact frictional impacts, sequential rule: see
 * spatial_oracle.h. Independent of the library: W from LAPACK, plain loops.
 */
#include "spatial_oracle.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

#define SN SP_ORACLE_MAX_N
#define SK (3u * SP_ORACLE_MAX_M)

/* One contact's state along its phase: velocity (t1, t2, n) and impulse (t1, t2, n). */
typedef struct {
    double u[3];
    double p[3];
} sp_state;

/* d(state)/dtau = (W q, q) with q = (-mu u_t, |u_t|, scaled below): the slip with the impulse
   taken along it (dp_n = |u_t| dtau). W is the contact's 3×3 block, row-major. */
static void sp_rhs(const double *W, double mu, const sp_state *y, sp_state *dy)
{
    double q[3] = {-mu * y->u[0], -mu * y->u[1], hypot(y->u[0], y->u[1])};
    for (int i = 0; i < 3; i++) {
        dy->u[i] = W[3 * i] * q[0] + W[3 * i + 1] * q[1] + W[3 * i + 2] * q[2];
        dy->p[i] = q[i];
    }
}

/* y + a·k */
static void sp_axpy(const sp_state *y, double a, const sp_state *k, sp_state *out)
{
    for (int i = 0; i < 3; i++) {
        out->u[i] = y->u[i] + a * k->u[i];
        out->p[i] = y->p[i] + a * k->p[i];
    }
}

/* One classical RK4 step of length dt in tau. */
static void sp_rk4(const double *W, double mu, const sp_state *y, double dt, sp_state *out)
{
    sp_state k1, k2, k3, k4, t;
    sp_rhs(W, mu, y, &k1);
    sp_axpy(y, 0.5 * dt, &k1, &t);
    sp_rhs(W, mu, &t, &k2);
    sp_axpy(y, 0.5 * dt, &k2, &t);
    sp_rhs(W, mu, &t, &k3);
    sp_axpy(y, dt, &k3, &t);
    sp_rhs(W, mu, &t, &k4);
    for (int i = 0; i < 3; i++) {
        out->u[i] = y->u[i] + dt / 6.0 * (k1.u[i] + 2.0 * k2.u[i] + 2.0 * k3.u[i] + k4.u[i]);
        out->p[i] = y->p[i] + dt / 6.0 * (k1.p[i] + 2.0 * k2.p[i] + 2.0 * k3.p[i] + k4.p[i]);
    }
}

/* At rest: the tangential impulse rate per unit normal impulse (stick, or the re-slip ray),
   then the straight line to u_n = 0, or to p_n = pmax if that comes first. Returns 0, or
   SP_ORACLE_ERR_REST. */
static int sp_rest(const double *W, double mu, double pmax, sp_state *y)
{
    double q[3] = {0.0, 0.0, 1.0};
    if (mu > 0.0) {
        double a11 = W[0], a12 = 0.5 * (W[1] + W[3]), a22 = W[4], b1 = W[2], b2 = W[5];
        double det = a11 * a22 - a12 * a12;
        if (!(det > 0.0)) {
            return SP_ORACLE_ERR_REST;
        }
        double x1 = -(a22 * b1 - a12 * b2) / det, x2 = -(a11 * b2 - a12 * b1) / det;
        if (hypot(x1, x2) <= mu) {
            q[0] = x1;
            q[1] = x2;
        } else {
            /* |(alpha I + mu W_tt)^-1 W_tn| decreases in alpha from above 1 at alpha = 0 */
            double lo = 0.0, hi = hypot(b1, b2), s1 = 0.0, s2 = 0.0;
            for (int k = 0; k < 200; k++) {
                double al = 0.5 * (lo + hi);
                double e11 = al + mu * a11, e12 = mu * a12, e22 = al + mu * a22;
                double dt = e11 * e22 - e12 * e12;
                s1 = (e22 * b1 - e12 * b2) / dt;
                s2 = (e11 * b2 - e12 * b1) / dt;
                if (hypot(s1, s2) > 1.0) {
                    lo = al;
                } else {
                    hi = al;
                }
            }
            double ns = hypot(s1, s2);
            q[0] = -mu * s1 / ns;
            q[1] = -mu * s2 / ns;
        }
    }
    double rn = W[6] * q[0] + W[7] * q[1] + W[8] * q[2];
    if (!(rn > 0.0)) {
        return SP_ORACLE_ERR_REST;
    }
    double l = -y->u[2] / rn;
    int end = y->p[2] + l <= pmax;
    l = end ? l : pmax - y->p[2];
    for (int i = 0; i < 3; i++) {
        y->u[i] += l * (W[3 * i] * q[0] + W[3 * i + 1] * q[1] + W[3 * i + 2] * q[2]);
        y->p[i] += l * q[i];
    }
    if (end) {
        y->u[2] = 0.0;
    }
    return SP_ORACLE_OK;
}

/* One contact acting alone from u (its 3×3 block W) until u_n = 0 or until its normal
   impulse reaches pmax (INFINITY: no limit), whichever comes first: y receives the end
   velocity and the impulse. Returns SP_ORACLE_OK or an error code. */
static int sp_phase(const double *W, double mu, const double *u, double pmax, sp_state *y)
{
    memcpy(y->u, u, sizeof y->u);
    memset(y->p, 0, sizeof y->p);
    if (mu == 0.0) {
        /* frictionless: one straight line */
        if (!(W[8] > 0.0)) {
            return SP_ORACLE_ERR_REST;
        }
        double l = -y->u[2] / W[8];
        int end = l <= pmax;
        l = end ? l : pmax;
        for (int i = 0; i < 3; i++) {
            y->u[i] += l * W[3 * i + 2];
        }
        y->p[2] = l;
        if (end) {
            y->u[2] = 0.0;
        }
        return SP_ORACLE_OK;
    }
    double L = 0.0;
    for (int i = 0; i < 9; i++) {
        L = fmax(L, fabs(W[i]));
    }
    double dt = SP_ORACLE_STEP / (3.0 * (1.0 + mu) * L);
    double rest = SP_ORACLE_REST * (1.0 + fabs(u[0]) + fabs(u[1]) + fabs(u[2]));
    for (long it = 0; it < 100000000L; it++) {
        if (hypot(y->u[0], y->u[1]) < rest) {
            y->u[0] = 0.0;
            y->u[1] = 0.0;
            return sp_rest(W, mu, pmax, y);
        }
        sp_state z;
        sp_rk4(W, mu, y, dt, &z);
        int dwell_end = z.p[2] >= pmax;
        if (z.u[2] >= 0.0 || dwell_end) {
            /* compression or the dwell ends within this step: its length by bisection (the
               first of the two; u_n and p_n both increase along it) */
            double lo = 0.0, hi = dt;
            for (int k = 0; k < 200 && lo < hi; k++) {
                double mid = 0.5 * (lo + hi);
                if (mid <= lo || mid >= hi) {
                    break;
                }
                sp_rk4(W, mu, y, mid, &z);
                if (z.u[2] >= 0.0 || z.p[2] >= pmax) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            sp_rk4(W, mu, y, hi, &z);
            *y = z;
            if (y->p[2] >= pmax) {
                y->p[2] = pmax; /* the dwell's end: the contact may still penetrate */
            } else {
                y->u[2] = 0.0;
            }
            return SP_ORACLE_OK;
        }
        *y = z;
    }
    return SP_ORACLE_ERR_STEPS;
}

int sp_oracle_delassus(size_t n, size_t m, const double *M, const double *Jn,
                       const double *Jt, const double *vm, double *X, double *W, double *u)
{
    if (n == 0 || n > SN || m == 0 || m > SP_ORACLE_MAX_M) {
        return SP_ORACLE_ERR_ARG;
    }
    size_t k3 = 3 * m;
    double J[SK * SN], Mf[SN * SN];
    for (size_t c = 0; c < m; c++) {
        memcpy(J + (3 * c) * n, Jt + (2 * c) * n, 2 * n * sizeof *J);
        memcpy(J + (3 * c + 2) * n, Jn + c * n, n * sizeof *J);
    }
    memcpy(Mf, M, n * n * sizeof *Mf);
    for (size_t i = 0; i < k3; i++) {
        for (size_t j = 0; j < n; j++) {
            X[j * k3 + i] = J[i * n + j];
        }
    }
    if (LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, (lapack_int)k3, Mf, (lapack_int)n,
                      X, (lapack_int)k3) != 0) {
        return SP_ORACLE_ERR_ARG;
    }
    for (size_t i = 0; i < k3; i++) {
        double s = 0.0;
        for (size_t k = 0; k < n; k++) {
            s += J[i * n + k] * vm[k];
        }
        u[i] = s;
        for (size_t j = 0; j < k3; j++) {
            double w = 0.0;
            for (size_t k = 0; k < n; k++) {
                w += J[i * n + k] * X[k * k3 + j];
            }
            W[i * k3 + j] = w;
        }
    }
    return SP_ORACLE_OK;
}

/* The phase's contact acts (dwell pmax) and its impulse moves every contact velocity by
   W_kc p; Lam accumulates it. */
static int sp_act(size_t m, const double *W, const double *mu, size_t c, double pmax,
                  double *u, double *Lam)
{
    size_t k3 = 3 * m;
    double Wcc[9];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            Wcc[3 * i + j] = W[(3 * c + i) * k3 + 3 * c + j];
        }
    }
    sp_state y;
    int rc = sp_phase(Wcc, mu[c], u + 3 * c, pmax, &y);
    if (rc != SP_ORACLE_OK) {
        return rc;
    }
    for (size_t r = 0; r < k3; r++) {
        u[r] += W[r * k3 + 3 * c] * y.p[0] + W[r * k3 + 3 * c + 1] * y.p[1] +
                W[r * k3 + 3 * c + 2] * y.p[2];
    }
    memcpy(u + 3 * c, y.u, sizeof y.u);
    for (int i = 0; i < 3; i++) {
        Lam[3 * c + i] += y.p[i];
    }
    return SP_ORACLE_OK;
}

/* 1 if order is a permutation of 0 .. m-1. */
static int sp_perm(size_t m, const size_t *order)
{
    int seen[SP_ORACLE_MAX_M] = {0};
    for (size_t i = 0; i < m; i++) {
        if (order[i] >= m || seen[order[i]]) {
            return 0;
        }
        seen[order[i]] = 1;
    }
    return 1;
}

/* The start of a history: X, W, u (sp_oracle_delassus), Lam = 0, and the penetration
   tolerance ntol = 1e-12 (1 + max_c |u_n,c|). */
static int sp_start(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                    const double *v_minus, double *X, double *W, double *u, double *Lam,
                    double *ntol)
{
    int rc = sp_oracle_delassus(n, m, M, Jn, Jt, v_minus, X, W, u);
    if (rc != SP_ORACLE_OK) {
        return rc;
    }
    memset(Lam, 0, 3 * m * sizeof *Lam);
    double scale = 0.0;
    for (size_t c = 0; c < m; c++) {
        scale = fmax(scale, fabs(u[3 * c + 2]));
    }
    *ntol = 1e-12 * (1.0 + scale);
    return SP_ORACLE_OK;
}

/* v_plus = v_minus + X Lam. */
static void sp_velocity(size_t n, size_t m, const double *X, const double *v_minus,
                        const double *Lam, double *v_plus)
{
    size_t k3 = 3 * m;
    for (size_t i = 0; i < n; i++) {
        double s = 0.0;
        for (size_t k = 0; k < k3; k++) {
            s += X[i * k3 + k] * Lam[k];
        }
        v_plus[i] = v_minus[i] + s;
    }
}

int sp_oracle_history(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                      const double *mu, const double *v_minus, const size_t *contacts,
                      const double *dwell, size_t nphase, const size_t *finish,
                      double *v_plus, size_t *phases)
{
    if (M == NULL || Jn == NULL || Jt == NULL || mu == NULL || v_minus == NULL ||
        finish == NULL || v_plus == NULL || n == 0 || n > SN || m == 0 ||
        m > SP_ORACLE_MAX_M || (nphase > 0 && (contacts == NULL || dwell == NULL))) {
        return SP_ORACLE_ERR_ARG;
    }
    if (!sp_perm(m, finish)) {
        return SP_ORACLE_ERR_ARG;
    }
    for (size_t c = 0; c < m; c++) {
        if (!(mu[c] >= 0.0)) {
            return SP_ORACLE_ERR_ARG;
        }
    }
    for (size_t i = 0; i < nphase; i++) {
        if (contacts[i] >= m || !(dwell[i] >= 0.0)) {
            return SP_ORACLE_ERR_ARG;
        }
    }
    double X[SN * SK], W[SK * SK], u[SK], Lam[SK], ntol = 0.0;
    int rc = sp_start(n, m, M, Jn, Jt, v_minus, X, W, u, Lam, &ntol);
    if (rc != SP_ORACLE_OK) {
        return rc;
    }
    size_t ph = 0;
    for (size_t i = 0; i < nphase; i++) {
        if (u[3 * contacts[i] + 2] < -ntol && dwell[i] > 0.0) {
            rc = sp_act(m, W, mu, contacts[i], dwell[i], u, Lam);
            if (rc != SP_ORACLE_OK) {
                return rc;
            }
            ph++;
        }
    }
    for (;; ph++) {
        size_t c = m;
        for (size_t i = 0; i < m && c == m; i++) {
            if (u[3 * finish[i] + 2] < -ntol) {
                c = finish[i];
            }
        }
        if (c == m) {
            break;
        }
        if (ph >= SP_ORACLE_PHASES) {
            return SP_ORACLE_ERR_PHASES;
        }
        rc = sp_act(m, W, mu, c, INFINITY, u, Lam);
        if (rc != SP_ORACLE_OK) {
            return rc;
        }
    }
    sp_velocity(n, m, X, v_minus, Lam, v_plus);
    if (phases != NULL) {
        *phases = ph;
    }
    return SP_ORACLE_OK;
}

int sp_oracle_sequential(size_t n, size_t m, const double *M, const double *Jn,
                         const double *Jt, const double *mu, const double *v_minus,
                         const size_t *order, double *v_plus, size_t *phases)
{
    return sp_oracle_history(n, m, M, Jn, Jt, mu, v_minus, NULL, NULL, 0, order, v_plus,
                             phases);
}

int sp_oracle_fine(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                   const double *mu, const double *v_minus, const double *ratios,
                   const size_t *order, double hrel, size_t step_cap, double *v_plus,
                   int *reentry, size_t *steps)
{
    if (!M || !Jn || !Jt || !mu || !v_minus || !v_plus || !reentry || !steps ||
        (ratios == NULL) == (order == NULL) || !(hrel > 0.0) || !(hrel <= 1.0) ||
        m == 0 || m > SP_ORACLE_MAX_M) {
        return SP_ORACLE_ERR_ARG;
    }
    if (order != NULL && !sp_perm(m, order)) {
        return SP_ORACLE_ERR_ARG;
    }
    for (size_t c = 0; c < m; c++) {
        if (!(mu[c] >= 0.0) || (ratios != NULL && !(ratios[c] > 0.0 && isfinite(ratios[c])))) {
            return SP_ORACLE_ERR_ARG;
        }
    }
    size_t k3 = 3 * m;
    double X[SN * SK], W[SK * SK], u[SK], Lam[SK], ntol = 0.0;
    int rc = sp_start(n, m, M, Jn, Jt, v_minus, X, W, u, Lam, &ntol);
    if (rc != SP_ORACLE_OK) {
        return rc;
    }
    double wmax = 0.0, S = 0.0;
    for (size_t k = 0; k < k3 * k3; k++) {
        wmax = fmax(wmax, fabs(W[k]));
    }
    int rested[SP_ORACLE_MAX_M];
    for (size_t c = 0; c < m; c++) {
        rested[c] = !(u[3 * c + 2] < -ntol);
        if (!rested[c]) {
            S = fmax(S, -u[3 * c + 2] / W[(3 * c + 2) * k3 + 3 * c + 2]);
        }
    }
    double h = hrel * S;
    *reentry = 0;
    size_t k;
    for (k = 0; k < step_cap; k++) {
        double q[SK], wsum = 0.0;
        size_t first = m; /* priority: the first penetrating contact of the order */
        for (size_t c = 0; c < m; c++) {
            double un = u[3 * c + 2];
            if (!(un < -ntol)) {
                rested[c] = 1;
            } else {
                wsum += ratios != NULL ? ratios[c] : 0.0;
                if (rested[c] && un < -20.0 * h * wmax * (1.0 + mu[c])) {
                    *reentry = 1;
                }
            }
        }
        for (size_t i = 0; order != NULL && i < m && first == m; i++) {
            if (u[3 * order[i] + 2] < -ntol) {
                first = order[i];
            }
        }
        if (ratios != NULL ? wsum == 0.0 : first == m) {
            break;
        }
        for (size_t c = 0; c < m; c++) {
            double w = order != NULL ? (c == first ? 1.0 : 0.0)
                                     : (u[3 * c + 2] < -ntol ? ratios[c] / wsum : 0.0);
            double sp = hypot(u[3 * c], u[3 * c + 1]);
            q[3 * c] = sp > 1e-12 ? -w * mu[c] * u[3 * c] / sp : 0.0;
            q[3 * c + 1] = sp > 1e-12 ? -w * mu[c] * u[3 * c + 1] / sp : 0.0;
            q[3 * c + 2] = w;
        }
        for (size_t r = 0; r < k3; r++) {
            double du = 0.0;
            for (size_t j = 0; j < k3; j++) {
                du += W[r * k3 + j] * q[j];
            }
            u[r] += h * du;
            Lam[r] += h * q[r];
        }
    }
    *steps = k;
    if (k == step_cap) {
        return SP_ORACLE_ERR_STEPS;
    }
    sp_velocity(n, m, X, v_minus, Lam, v_plus);
    return SP_ORACLE_OK;
}
