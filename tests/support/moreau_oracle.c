/*
 * Moreau's inelastic impulse by enumeration of contact modes (moreau_oracle.h): independent
 * of the library, LAPACKE for the linear algebra, stack arrays only.
 */
#include "moreau_oracle.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

#define NMAX MOREAU_MAX_N
#define KMAX (2u * MOREAU_MAX_M)

enum { MODE_SEP = 0, MODE_STICK = 1, MODE_SLIP_POS = 2, MODE_SLIP_NEG = 3 };

/* The stacked Jacobian, rows (J_t,c, J_n,c) per contact: k = 2m rows of n. */
static void stack_j(size_t n, size_t m, const double *Jn, const double *Jt, double *J)
{
    for (size_t c = 0; c < m; c++) {
        memcpy(J + (2 * c) * n, Jt + c * n, n * sizeof *J);
        memcpy(J + (2 * c + 1) * n, Jn + c * n, n * sizeof *J);
    }
}

static double max_abs(size_t len, const double *x)
{
    double a = 0.0;
    for (size_t i = 0; i < len; i++) {
        a = fmax(a, fabs(x[i]));
    }
    return a;
}

static int args_ok(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                   const double *mu, const double *vm)
{
    if (!M || !Jn || !Jt || !mu || !vm || n == 0 || n > NMAX || m == 0 || m > MOREAU_MAX_M) {
        return 0;
    }
    for (size_t c = 0; c < m; c++) {
        if (!(mu[c] >= 0.0) || !isfinite(mu[c])) {
            return 0;
        }
    }
    return 1;
}

/* X = M^-1 J^T (n×k, row-major) by Cholesky; -1 if M is not SPD. */
static int minv_jt(size_t n, size_t k, const double *M, const double *J, double *X)
{
    double L[NMAX * NMAX];
    memcpy(L, M, n * n * sizeof *L);
    for (size_t i = 0; i < n; i++) {
        for (size_t r = 0; r < k; r++) {
            X[i * k + r] = J[r * n + i];
        }
    }
    lapack_int info = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, (lapack_int)k, L,
                                    (lapack_int)n, X, (lapack_int)k);
    return info == 0 ? 0 : -1;
}

/* One mode's equations A P = b (k×k, row-major). */
static void mode_system(size_t m, const double *W, const double *u, const double *mu,
                        unsigned mode, double *A, double *b)
{
    size_t k = 2 * m;
    memset(A, 0, k * k * sizeof *A);
    for (size_t c = 0; c < m; c++) {
        unsigned md = (mode >> (2 * c)) & 3u;
        size_t t = 2 * c, nr = 2 * c + 1;
        if (md == MODE_SEP) {
            A[t * k + t] = 1.0;
            A[nr * k + nr] = 1.0;
            b[t] = b[nr] = 0.0;
            continue;
        }
        /* the normal row: u_n+ = 0 */
        memcpy(A + nr * k, W + nr * k, k * sizeof *A);
        b[nr] = -u[nr];
        if (md == MODE_STICK) {
            memcpy(A + t * k, W + t * k, k * sizeof *A);
            b[t] = -u[t];
        } else {
            A[t * k + t] = 1.0;
            A[t * k + nr] = md == MODE_SLIP_POS ? mu[c] : -mu[c];
            b[t] = 0.0;
        }
    }
}

/* Whether the mode's inequalities hold for P with u+ = up, to the tolerances. */
static int mode_feasible(size_t m, const double *mu, unsigned mode, const double *P,
                         const double *up, double tu, double tp)
{
    for (size_t c = 0; c < m; c++) {
        unsigned md = (mode >> (2 * c)) & 3u;
        double pt = P[2 * c], pn = P[2 * c + 1], ut = up[2 * c], un = up[2 * c + 1];
        if (md == MODE_SEP) {
            if (un < -tu) {
                return 0;
            }
            continue;
        }
        if (pn < -tp || fabs(un) > tu) {
            return 0;
        }
        if (md == MODE_STICK && (fabs(ut) > tu || fabs(pt) > mu[c] * pn + tp)) {
            return 0;
        }
        if (md == MODE_SLIP_POS && ut < -tu) {
            return 0;
        }
        if (md == MODE_SLIP_NEG && ut > tu) {
            return 0;
        }
    }
    return 1;
}

int moreau_solve(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                 const double *mu, const double *v_minus, double tol, moreau_result *res)
{
    if (!res || !args_ok(n, m, M, Jn, Jt, mu, v_minus) || !(tol > 0.0)) {
        return -1;
    }
    memset(res, 0, sizeof *res);
    size_t k = 2 * m;
    double J[KMAX * NMAX], X[NMAX * KMAX], W[KMAX * KMAX], u[KMAX];
    stack_j(n, m, Jn, Jt, J);
    if (minv_jt(n, k, M, J, X) != 0) {
        return -1;
    }
    for (size_t r = 0; r < k; r++) {
        u[r] = 0.0;
        for (size_t i = 0; i < n; i++) {
            u[r] += J[r * n + i] * v_minus[i];
        }
        for (size_t s = 0; s < k; s++) {
            double a = 0.0;
            for (size_t i = 0; i < n; i++) {
                a += J[r * n + i] * X[i * k + s];
            }
            W[r * k + s] = a;
        }
    }
    /* scales: velocities max|u-|, impulses the largest frictionless single-contact impulse */
    double us = max_abs(k, u), ps = 0.0, vs = max_abs(n, v_minus);
    for (size_t c = 0; c < m; c++) {
        ps = fmax(ps, fabs(u[2 * c + 1]) / W[(2 * c + 1) * k + 2 * c + 1]);
    }
    us = us > 0.0 ? us : 1.0;
    ps = ps > 0.0 ? ps : 1.0;
    vs = vs > 0.0 ? vs : 1.0;
    unsigned nmodes = 1u << (2 * m);
    res->modes = nmodes;
    for (unsigned mode = 0; mode < nmodes; mode++) {
        double A[KMAX * KMAX], b[KMAX], A0[KMAX * KMAX], sv[KMAX];
        mode_system(m, W, u, mu, mode, A, b);
        memcpy(A0, A, k * k * sizeof *A);
        double P[KMAX];
        memcpy(P, b, k * sizeof *b);
        lapack_int rank = 0;
        lapack_int info = LAPACKE_dgelsd(LAPACK_ROW_MAJOR, (lapack_int)k, (lapack_int)k, 1, A,
                                         (lapack_int)k, P, 1, sv, 1e-12, &rank);
        if (info != 0) {
            return -1;
        }
        /* the mode's impulse equations exactly (the solve meets them to rounding) */
        for (size_t c = 0; c < m; c++) {
            unsigned md = (mode >> (2 * c)) & 3u;
            if (md == MODE_SEP) {
                P[2 * c] = P[2 * c + 1] = 0.0;
            } else if (md != MODE_STICK) {
                P[2 * c] = (md == MODE_SLIP_POS ? -mu[c] : mu[c]) * P[2 * c + 1];
            }
        }
        int singular = rank < (lapack_int)k;
        res->singular += (size_t)singular;
        /* the equations must hold (a rank-deficient mode may be inconsistent) */
        double resid = 0.0, bs = max_abs(k, b);
        for (size_t r = 0; r < k; r++) {
            double a = -b[r];
            for (size_t s = 0; s < k; s++) {
                a += A0[r * k + s] * P[s];
            }
            resid = fmax(resid, fabs(a));
        }
        double up[KMAX];
        for (size_t r = 0; r < k; r++) {
            up[r] = u[r];
            for (size_t s = 0; s < k; s++) {
                up[r] += W[r * k + s] * P[s];
            }
        }
        double tp = tol * fmax(ps, max_abs(k, P)), tu = tol * us;
        if (resid > tol * fmax(fmax(bs, us), ps)) {
            continue;
        }
        if (!mode_feasible(m, mu, mode, P, up, tu, tp)) {
            res->singular_rejected += (size_t)singular;
            continue;
        }
        res->accepted++;
        double vp[NMAX];
        for (size_t i = 0; i < n; i++) {
            vp[i] = v_minus[i];
            for (size_t s = 0; s < k; s++) {
                vp[i] += X[i * k + s] * P[s];
            }
        }
        int dup = 0;
        for (size_t j = 0; j < res->nsol && !dup; j++) {
            double d = 0.0;
            for (size_t i = 0; i < n; i++) {
                d = fmax(d, fabs(vp[i] - res->v[j][i]));
            }
            dup = d <= 1e-9 * vs;
        }
        if (!dup && res->nsol < MOREAU_MAX_SOL) {
            memcpy(res->P[res->nsol], P, k * sizeof *P);
            memcpy(res->v[res->nsol], vp, n * sizeof *vp);
            res->mode[res->nsol] = mode;
            res->nsol++;
        }
    }
    return 0;
}

double moreau_violation(size_t n, size_t m, const double *M, const double *Jn,
                        const double *Jt, const double *mu, const double *v_minus,
                        const double *P, const double *v_plus)
{
    if (!P || !v_plus || !args_ok(n, m, M, Jn, Jt, mu, v_minus)) {
        return -1.0;
    }
    size_t k = 2 * m;
    double J[KMAX * NMAX], um[KMAX], up[KMAX];
    stack_j(n, m, Jn, Jt, J);
    for (size_t r = 0; r < k; r++) {
        um[r] = up[r] = 0.0;
        for (size_t i = 0; i < n; i++) {
            um[r] += J[r * n + i] * v_minus[i];
            up[r] += J[r * n + i] * v_plus[i];
        }
    }
    double us = max_abs(k, um), ps = max_abs(k, P);
    us = us > 0.0 ? us : 1.0;
    ps = ps > 0.0 ? ps : 1.0;
    /* momentum: M (v+ - v-) - J^T P, relative to max|M| max|v-| and max|J| max|P| */
    double mom = 0.0, msc = max_abs(n * n, M) * max_abs(n, v_minus) + max_abs(k * n, J) * ps;
    for (size_t i = 0; i < n; i++) {
        double a = 0.0;
        for (size_t j = 0; j < n; j++) {
            a += M[i * n + j] * (v_plus[j] - v_minus[j]);
        }
        for (size_t r = 0; r < k; r++) {
            a -= J[r * n + i] * P[r];
        }
        mom = fmax(mom, fabs(a));
    }
    double viol = msc > 0.0 ? mom / msc : mom;
    for (size_t c = 0; c < m; c++) {
        double pt = P[2 * c], pn = P[2 * c + 1], ut = up[2 * c], un = up[2 * c + 1];
        viol = fmax(viol, -un / us);
        viol = fmax(viol, -pn / ps);
        viol = fmax(viol, fabs(un * pn) / (us * ps));
        viol = fmax(viol, (fabs(pt) - mu[c] * pn) / ps);
        if (fabs(ut) > 1e-9 * us) {
            double want = -mu[c] * pn * (ut > 0.0 ? 1.0 : -1.0);
            viol = fmax(viol, fabs(pt - want) / ps);
        }
    }
    return viol;
}
