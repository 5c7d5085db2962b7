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

/* The exact impulse equations of the mode (the solves meet them to rounding). */
static void exact_impulses(size_t m, const double *mu, unsigned mode, double *P)
{
    for (size_t c = 0; c < m; c++) {
        unsigned md = (mode >> (2 * c)) & 3u;
        if (md == MODE_SEP) {
            P[2 * c] = P[2 * c + 1] = 0.0;
        } else if (md != MODE_STICK) {
            P[2 * c] = (md == MODE_SLIP_POS ? -mu[c] : mu[c]) * P[2 * c + 1];
        }
    }
}

/* The mode's inequalities as rows g·P + h >= -tl (G nc×k): u_n+ >= 0 when separating;
   p_n >= 0 otherwise, with mu p_n -+ p_t >= 0 when sticking, +-u_t+ >= 0 when slipping.
   Returns nc (at most 3m). */
static size_t mode_ineq(size_t m, const double *W, const double *u, const double *mu,
                        unsigned mode, double tu, double tp, double *G, double *h, double *tl)
{
    size_t k = 2 * m, nc = 0;
    for (size_t c = 0; c < m; c++) {
        unsigned md = (mode >> (2 * c)) & 3u;
        size_t t = 2 * c, nr = 2 * c + 1;
        double *g = G + nc * k;
        memset(g, 0, 3 * k * sizeof *g);
        if (md == MODE_SEP) {
            memcpy(g, W + nr * k, k * sizeof *g);
            h[nc] = u[nr];
            tl[nc++] = tu;
            continue;
        }
        g[nr] = 1.0;
        h[nc] = 0.0;
        tl[nc++] = tp;
        if (md == MODE_STICK) {
            for (int sg = -1; sg <= 1; sg += 2) {
                G[nc * k + nr] = mu[c];
                G[nc * k + t] = sg;
                h[nc] = 0.0;
                tl[nc++] = tp;
            }
        } else {
            double sg = md == MODE_SLIP_POS ? 1.0 : -1.0;
            for (size_t r = 0; r < k; r++) {
                G[nc * k + r] = sg * W[t * k + r];
            }
            h[nc] = sg * u[t];
            tl[nc++] = tu;
        }
    }
    return nc;
}

static int ineq_hold(size_t k, size_t nc, const double *G, const double *h, const double *tl,
                     const double *P)
{
    for (size_t i = 0; i < nc; i++) {
        double a = h[i];
        for (size_t r = 0; r < k; r++) {
            a += G[i * k + r] * P[r];
        }
        if (a < -tl[i]) {
            return 0;
        }
    }
    return 1;
}

/* The oracle's data for one problem. */
typedef struct mctx {
    size_t n, m, k;
    const double *mu, *vm;
    double X[NMAX * KMAX], W[KMAX * KMAX], u[KMAX];
    double us, ps, vs, tol;
} mctx;

/* Records the impulse P unless already there, and its solution (v+ from P) unless its v+ is
   already there. */
static void add_solution(const mctx *C, unsigned mode, const double *P, moreau_result *res)
{
    double vp[NMAX];
    for (size_t i = 0; i < C->n; i++) {
        vp[i] = C->vm[i];
        for (size_t s = 0; s < C->k; s++) {
            vp[i] += C->X[i * C->k + s] * P[s];
        }
    }
    size_t sol = res->nsol;
    for (size_t j = 0; j < res->nsol && sol == res->nsol; j++) {
        double d = 0.0;
        for (size_t i = 0; i < C->n; i++) {
            d = fmax(d, fabs(vp[i] - res->v[j][i]));
        }
        sol = d <= 1e-9 * C->vs ? j : sol;
    }
    if (sol == res->nsol) {
        if (res->nsol == MOREAU_MAX_SOL) {
            return;
        }
        memcpy(res->P[sol], P, C->k * sizeof *P);
        memcpy(res->v[sol], vp, C->n * sizeof *vp);
        res->mode[sol] = mode;
        res->nsol++;
    }
    for (size_t j = 0; j < res->nimp; j++) {
        double d = 0.0;
        for (size_t s = 0; s < C->k; s++) {
            d = fmax(d, fabs(P[s] - res->imp[j][s]));
        }
        if (d <= 1e-9 * C->ps) {
            return;
        }
    }
    if (res->nimp < MOREAU_MAX_IMP) {
        memcpy(res->imp[res->nimp], P, C->k * sizeof *P);
        res->imp_sol[res->nimp++] = sol;
    }
}

/* Next r-subset idx of 0 .. nc-1 in lexicographic order; 0 after the last. */
static int next_subset(size_t r, size_t nc, size_t *idx)
{
    for (size_t i = r; i-- > 0;) {
        if (idx[i] < nc - r + i) {
            idx[i]++;
            for (size_t j = i + 1; j < r; j++) {
                idx[j] = idx[j - 1] + 1;
            }
            return 1;
        }
    }
    return 0;
}

/* A rank-deficient mode, P = P0 + N z (N k×r, a basis of the null space of its equations):
   the vertices of the polyhedron of z where its inequalities hold (r of them active at a
   time); each feasible one is recorded. Returns the number found, -1 on a LAPACKE failure. */
static int mode_vertices(const mctx *C, unsigned mode, const double *P0, const double *N,
                         size_t r, size_t nc, const double *G, const double *h,
                         const double *tl, moreau_result *res)
{
    size_t k = C->k, idx[3 * MOREAU_MAX_M];
    double Gz[3 * MOREAU_MAX_M * KMAX], hz[3 * MOREAU_MAX_M];
    if (r > nc) {
        return 0;
    }
    for (size_t i = 0; i < nc; i++) {
        hz[i] = h[i];
        for (size_t s = 0; s < k; s++) {
            hz[i] += G[i * k + s] * P0[s];
        }
        for (size_t j = 0; j < r; j++) {
            double a = 0.0;
            for (size_t s = 0; s < k; s++) {
                a += G[i * k + s] * N[s * r + j];
            }
            Gz[i * r + j] = a;
        }
    }
    for (size_t i = 0; i < r; i++) {
        idx[i] = i;
    }
    int found = 0;
    do {
        double A[KMAX * KMAX], z[KMAX], P[KMAX];
        lapack_int piv[KMAX];
        for (size_t i = 0; i < r; i++) {
            memcpy(A + i * r, Gz + idx[i] * r, r * sizeof *A);
            z[i] = -hz[idx[i]];
        }
        lapack_int info = LAPACKE_dgesv(LAPACK_ROW_MAJOR, (lapack_int)r, 1, A, (lapack_int)r,
                                        piv, z, 1);
        if (info < 0) {
            return -1;
        }
        if (info > 0) {
            continue; /* these constraints do not meet in a point */
        }
        for (size_t s = 0; s < k; s++) {
            P[s] = P0[s];
            for (size_t j = 0; j < r; j++) {
                P[s] += N[s * r + j] * z[j];
            }
        }
        exact_impulses(C->m, C->mu, mode, P);
        if (ineq_hold(k, nc, G, h, tl, P)) {
            add_solution(C, mode, P, res);
            found++;
        }
    } while (next_subset(r, nc, idx));
    return found;
}

/* One mode: its equations by SVD (minimum-norm member and the null space), kept when they
   are consistent; the minimum-norm member if it meets the inequalities, else (rank-deficient)
   the feasible vertices of its family. Returns -1 on a LAPACKE failure. */
static int solve_mode(const mctx *C, unsigned mode, moreau_result *res)
{
    size_t k = C->k;
    double A[KMAX * KMAX], A0[KMAX * KMAX], b[KMAX], sv[KMAX], U[KMAX * KMAX], VT[KMAX * KMAX],
        sup[KMAX];
    mode_system(C->m, C->W, C->u, C->mu, mode, A, b);
    memcpy(A0, A, k * k * sizeof *A);
    lapack_int info = LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'A', 'A', (lapack_int)k, (lapack_int)k, A,
                                     (lapack_int)k, sv, U, (lapack_int)k, VT, (lapack_int)k, sup);
    if (info != 0) {
        return -1;
    }
    size_t rank = 0;
    while (rank < k && sv[rank] > 1e-12 * sv[0]) {
        rank++;
    }
    double P[KMAX], N[KMAX * KMAX];
    for (size_t s = 0; s < k; s++) {
        P[s] = 0.0;
    }
    for (size_t i = 0; i < rank; i++) {
        double a = 0.0;
        for (size_t r = 0; r < k; r++) {
            a += U[r * k + i] * b[r];
        }
        for (size_t s = 0; s < k; s++) {
            P[s] += VT[i * k + s] * a / sv[i];
        }
    }
    size_t nul = k - rank;
    for (size_t s = 0; s < k; s++) {
        for (size_t j = 0; j < nul; j++) {
            N[s * nul + j] = VT[(rank + j) * k + s];
        }
    }
    exact_impulses(C->m, C->mu, mode, P);
    /* the equations must hold (a rank-deficient mode may be inconsistent) */
    double resid = 0.0, bs = max_abs(k, b);
    for (size_t r = 0; r < k; r++) {
        double a = -b[r];
        for (size_t s = 0; s < k; s++) {
            a += A0[r * k + s] * P[s];
        }
        resid = fmax(resid, fabs(a));
    }
    res->singular += nul > 0;
    if (resid > C->tol * fmax(fmax(bs, C->us), C->ps)) {
        return 0;
    }
    double G[3 * MOREAU_MAX_M * KMAX], h[3 * MOREAU_MAX_M], tl[3 * MOREAU_MAX_M];
    double tp = C->tol * fmax(C->ps, max_abs(k, P)), tu = C->tol * C->us;
    size_t nc = mode_ineq(C->m, C->W, C->u, C->mu, mode, tu, tp, G, h, tl);
    if (ineq_hold(k, nc, G, h, tl, P)) {
        res->accepted++;
        add_solution(C, mode, P, res);
        return 0;
    }
    if (nul == 0) {
        return 0;
    }
    int found = mode_vertices(C, mode, P, N, nul, nc, G, h, tl, res);
    if (found < 0) {
        return -1;
    }
    res->accepted += found > 0;
    res->singular_vertex += found > 0;
    return 0;
}

int moreau_solve(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                 const double *mu, const double *v_minus, double tol, moreau_result *res)
{
    if (!res || !args_ok(n, m, M, Jn, Jt, mu, v_minus) || !(tol > 0.0)) {
        return -1;
    }
    memset(res, 0, sizeof *res);
    mctx C;
    memset(&C, 0, sizeof C);
    size_t k = 2 * m;
    C.n = n;
    C.m = m;
    C.k = k;
    C.mu = mu;
    C.vm = v_minus;
    C.tol = tol;
    double J[KMAX * NMAX];
    stack_j(n, m, Jn, Jt, J);
    if (minv_jt(n, k, M, J, C.X) != 0) {
        return -1;
    }
    for (size_t r = 0; r < k; r++) {
        C.u[r] = 0.0;
        for (size_t i = 0; i < n; i++) {
            C.u[r] += J[r * n + i] * v_minus[i];
        }
        for (size_t s = 0; s < k; s++) {
            double a = 0.0;
            for (size_t i = 0; i < n; i++) {
                a += J[r * n + i] * C.X[i * k + s];
            }
            C.W[r * k + s] = a;
        }
    }
    /* scales: velocities max|u-|, impulses the largest frictionless single-contact impulse */
    C.us = max_abs(k, C.u);
    C.vs = max_abs(n, v_minus);
    for (size_t c = 0; c < m; c++) {
        C.ps = fmax(C.ps, fabs(C.u[2 * c + 1]) / C.W[(2 * c + 1) * k + 2 * c + 1]);
    }
    C.us = C.us > 0.0 ? C.us : 1.0;
    C.ps = C.ps > 0.0 ? C.ps : 1.0;
    C.vs = C.vs > 0.0 ? C.vs : 1.0;
    unsigned nmodes = 1u << (2 * m);
    res->modes = nmodes;
    for (unsigned mode = 0; mode < nmodes; mode++) {
        if (solve_mode(&C, mode, res) != 0) {
            return -1;
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
