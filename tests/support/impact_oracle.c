/*
 * Test oracle for planar multi-contact frictional impacts: see impact_oracle.h. Independent
 * of the library: own Cholesky, own generator, own hull; plain loops.
 */
#include "impact_oracle.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ON ORACLE_MAX_N
#define OM ORACLE_MAX_M

/* Precomputed problem: M^-1 J^T columns and the blocks of W = J M^-1 J^T. */
typedef struct {
    size_t n, m;
    double Gn[OM][ON], Gt[OM][ON];     /* M^-1 J_n,c^T, M^-1 J_t,c^T */
    double Wnn[OM][OM], Wnt[OM][OM];   /* Wnn[k][c] = J_n,k M^-1 J_n,c^T, Wnt = J_n,k M^-1 J_t,c^T */
    double Wtn[OM][OM], Wtt[OM][OM];
    double mu[OM];
    double un0[OM], ut0[OM];           /* contact velocities at v_minus */
    double ntol, ztol, ctol, S;
    double E0;
} oproblem;

typedef struct {
    double un[OM], ut[OM], Ln[OM], Lt[OM];
    double s;
    size_t segs;
} ostate;

/* ---- generator: xoshiro256** seeded by splitmix64 ---- */
typedef struct { uint64_t s[4]; } orng;

static uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static void orng_seed(orng *r, uint64_t seed)
{
    uint64_t z = seed;
    for (int i = 0; i < 4; i++) {
        z += 0x9e3779b97f4a7c15ull;
        uint64_t t = z;
        t = (t ^ (t >> 30)) * 0xbf58476d1ce4e5b9ull;
        t = (t ^ (t >> 27)) * 0x94d049bb133111ebull;
        r->s[i] = t ^ (t >> 31);
    }
}

static uint64_t orng_next(orng *r)
{
    uint64_t *s = r->s;
    uint64_t res = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return res;
}

/* uniform in (0, 1) */
static double orng_open(orng *r)
{
    return ((double)(orng_next(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* ---- setup ---- */
static int all_finite(size_t len, const double *x)
{
    for (size_t i = 0; i < len; i++) {
        if (!isfinite(x[i])) {
            return 0;
        }
    }
    return 1;
}

/* Solves M x = b with the Cholesky factor L (lower, row-major n×n). */
static void chol_solve(size_t n, const double *L, const double *b, double *x)
{
    for (size_t i = 0; i < n; i++) {
        double t = b[i];
        for (size_t j = 0; j < i; j++) {
            t -= L[i * n + j] * x[j];
        }
        x[i] = t / L[i * n + i];
    }
    for (size_t i = n; i-- > 0;) {
        double t = x[i];
        for (size_t j = i + 1; j < n; j++) {
            t -= L[j * n + i] * x[j];
        }
        x[i] = t / L[i * n + i];
    }
}

static double dot(size_t n, const double *a, const double *b)
{
    double t = 0.0;
    for (size_t i = 0; i < n; i++) {
        t += a[i] * b[i];
    }
    return t;
}

static double energy(size_t n, const double *M, const double *v)
{
    double e = 0.0;
    for (size_t i = 0; i < n; i++) {
        e += v[i] * dot(n, M + i * n, v);
    }
    return 0.5 * e;
}

static int setup(oproblem *P, size_t n, size_t m, const double *M, const double *Jn,
                 const double *Jt, const double *mu, const double *vm)
{
    if (!M || !Jn || !Jt || !mu || !vm || n == 0 || n > ON || m == 0 || m > OM) {
        return ORACLE_ERR_ARG;
    }
    if (!all_finite(n * n, M) || !all_finite(m * n, Jn) || !all_finite(m * n, Jt) ||
        !all_finite(m, mu) || !all_finite(n, vm)) {
        return ORACLE_ERR_ARG;
    }
    double L[ON * ON];
    memset(L, 0, sizeof L);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j <= i; j++) {
            double sym = M[i * n + j] - M[j * n + i];
            if (fabs(sym) > 1e-12 * (fabs(M[i * n + i]) + fabs(M[j * n + j]))) {
                return ORACLE_ERR_ARG;
            }
            double t = M[i * n + j];
            for (size_t k = 0; k < j; k++) {
                t -= L[i * n + k] * L[j * n + k];
            }
            if (i == j) {
                if (!(t > 0.0)) {
                    return ORACLE_ERR_ARG;
                }
                L[i * n + i] = sqrt(t);
            } else {
                L[i * n + j] = t / L[j * n + j];
            }
        }
    }
    P->n = n;
    P->m = m;
    for (size_t c = 0; c < m; c++) {
        if (!(mu[c] >= 0.0)) {
            return ORACLE_ERR_ARG;
        }
        P->mu[c] = mu[c];
        chol_solve(n, L, Jn + c * n, P->Gn[c]);
        chol_solve(n, L, Jt + c * n, P->Gt[c]);
    }
    double umax = 0.0, unmax = 0.0;
    for (size_t k = 0; k < m; k++) {
        for (size_t c = 0; c < m; c++) {
            P->Wnn[k][c] = dot(n, Jn + k * n, P->Gn[c]);
            P->Wnt[k][c] = dot(n, Jn + k * n, P->Gt[c]);
            P->Wtn[k][c] = dot(n, Jt + k * n, P->Gn[c]);
            P->Wtt[k][c] = dot(n, Jt + k * n, P->Gt[c]);
        }
        P->un0[k] = dot(n, Jn + k * n, vm);
        P->ut0[k] = dot(n, Jt + k * n, vm);
        unmax = fmax(unmax, fabs(P->un0[k]));
        umax = fmax(umax, fmax(fabs(P->un0[k]), fabs(P->ut0[k])));
    }
    P->ntol = 1e-12 * (1.0 + unmax);
    P->ztol = 1e-12 * (1.0 + umax);
    P->ctol = 1e-9 * (1.0 + unmax);
    P->S = 0.0;
    for (size_t c = 0; c < m; c++) {
        if (P->un0[c] < -P->ntol) {
            P->S = fmax(P->S, -P->un0[c] / P->Wnn[c][c]);
        }
    }
    P->E0 = energy(n, M, vm);
    return ORACLE_OK;
}

static void state_init(const oproblem *P, ostate *st)
{
    memset(st, 0, sizeof *st);
    for (size_t c = 0; c < P->m; c++) {
        st->un[c] = P->un0[c];
        st->ut[c] = P->ut0[c];
    }
}

static int penetrates(const oproblem *P, const ostate *st, size_t c)
{
    return st->un[c] < -P->ntol;
}

/* Tangential impulse per unit normal impulse of contact c acting alone (Coulomb, header):
   sliding: -mu_c sign(u_t,c); at rest: stick (-a/b) if |a| <= mu_c b, else slip -mu_c sign(a),
   with a = W_tn,cc, b = W_tt,cc. */
static double own_rate(const oproblem *P, const ostate *st, size_t c)
{
    if (fabs(st->ut[c]) > P->ztol) {
        return st->ut[c] > 0.0 ? -P->mu[c] : P->mu[c];
    }
    double a = P->Wtn[c][c], b = P->Wtt[c][c];
    if (fabs(a) <= P->mu[c] * b) {
        return -a / b;
    }
    return a > 0.0 ? -P->mu[c] : P->mu[c];
}

/*
 * Contact c acts for at most `dwell` of normal impulse (INFINITY: until it stops penetrating).
 * hmax > 0 caps each segment.
 */
static int act(const oproblem *P, ostate *st, size_t c, double dwell, double hmax)
{
    const size_t m = P->m;
    const double cap = ORACLE_IMPULSE_CAP * P->S;
    double left = dwell;
    while (penetrates(P, st, c) && left > 0.0) {
        int sliding = fabs(st->ut[c]) > P->ztol;
        double lt = own_rate(P, st, c);
        double dun_c = P->Wnn[c][c] + lt * P->Wnt[c][c];
        double dut_c = P->Wtn[c][c] + lt * P->Wtt[c][c];
        double h = left;
        int stop_n = 0, stop_t = 0;
        if (dun_c > 0.0) {
            double hn = -st->un[c] / dun_c;
            if (hn <= h) {
                h = hn;
                stop_n = 1;
            }
        }
        if (sliding && st->ut[c] * dut_c < 0.0) {
            double ht = -st->ut[c] / dut_c;
            if (ht < h) {
                h = ht;
                stop_t = 1;
                stop_n = 0;
            }
        }
        if (hmax > 0.0 && hmax < h) {
            h = hmax;
            stop_n = 0;
            stop_t = 0;
        }
        if (!isfinite(h)) {
            return ORACLE_ERR_NOEVENT;
        }
        for (size_t k = 0; k < m; k++) {
            st->un[k] += h * (P->Wnn[k][c] + lt * P->Wnt[k][c]);
            st->ut[k] += h * (P->Wtn[k][c] + lt * P->Wtt[k][c]);
        }
        if (stop_n) {
            st->un[c] = 0.0;
        }
        if (stop_t) {
            st->ut[c] = 0.0;
        }
        st->Ln[c] += h;
        st->Lt[c] += h * lt;
        st->s += h;
        left -= h;
        if (++st->segs > ORACLE_EVENT_CAP) {
            return ORACLE_ERR_EVENTS;
        }
        if (st->s > cap) {
            return ORACLE_ERR_CAP;
        }
    }
    return ORACLE_OK;
}

static size_t first_penetrating(const oproblem *P, const ostate *st, const size_t *order)
{
    for (size_t i = 0; i < P->m; i++) {
        size_t c = order ? order[i] : i;
        if (penetrates(P, st, c)) {
            return c;
        }
    }
    return P->m;
}

static int finish_seq(const oproblem *P, ostate *st, const size_t *order, double hmax)
{
    size_t c;
    while ((c = first_penetrating(P, st, order)) < P->m) {
        int rc = act(P, st, c, INFINITY, hmax);
        if (rc != ORACLE_OK) {
            return rc;
        }
    }
    return ORACLE_OK;
}

/* v_plus from the impulses; the final checks. */
static int conclude(const oproblem *P, const double *M, const double *Jn, const double *vm,
                    const ostate *st, int rc, double *vp, double *eratio)
{
    const size_t n = P->n;
    for (size_t i = 0; i < n; i++) {
        double t = vm[i];
        for (size_t c = 0; c < P->m; c++) {
            t += P->Gn[c][i] * st->Ln[c] + P->Gt[c][i] * st->Lt[c];
        }
        vp[i] = t;
    }
    if (rc != ORACLE_OK) {
        return rc;
    }
    double E1 = energy(n, M, vp);
    if (eratio) {
        *eratio = P->E0 > 0.0 ? E1 / P->E0 : 1.0;
    }
    if (E1 > P->E0 * (1.0 + 1e-9) + DBL_MIN) {
        return ORACLE_ERR_ENERGY;
    }
    for (size_t c = 0; c < P->m; c++) {
        if (dot(n, Jn + c * n, vp) < -P->ctol) {
            return ORACLE_ERR_CHECK;
        }
    }
    return ORACLE_OK;
}

static int valid_perm(size_t m, const size_t *p)
{
    unsigned seen = 0;
    for (size_t i = 0; i < m; i++) {
        if (p[i] >= m || (seen >> p[i]) & 1u) {
            return 0;
        }
        seen |= 1u << p[i];
    }
    return 1;
}

int oracle_history(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                   const double *mu, const double *v_minus, const size_t *contacts,
                   const double *dwell, size_t nphase, const size_t *finish, size_t fine,
                   double *v_plus)
{
    oproblem P;
    ostate st;
    if (!v_plus || (nphase > 0 && (!contacts || !dwell))) {
        return ORACLE_ERR_ARG;
    }
    int rc = setup(&P, n, m, M, Jn, Jt, mu, v_minus);
    if (rc != ORACLE_OK) {
        return rc;
    }
    if (finish && !valid_perm(m, finish)) {
        return ORACLE_ERR_ARG;
    }
    for (size_t i = 0; i < nphase; i++) {
        if (contacts[i] >= m || !(dwell[i] >= 0.0)) {
            return ORACLE_ERR_ARG;
        }
    }
    double hmax = fine > 0 ? P.S / (double)fine : 0.0;
    state_init(&P, &st);
    for (size_t i = 0; i < nphase && rc == ORACLE_OK; i++) {
        if (first_penetrating(&P, &st, NULL) == m) {
            break;
        }
        if (penetrates(&P, &st, contacts[i])) {
            rc = act(&P, &st, contacts[i], dwell[i], hmax);
        }
    }
    if (rc == ORACLE_OK) {
        rc = finish_seq(&P, &st, finish, hmax);
    }
    return conclude(&P, M, Jn, v_minus, &st, rc, v_plus, NULL);
}

/*
 * Explicit steps of the inclusion (oracle_fine): every step of length h applies the rule's
 * weights on the contacts penetrating at its start, each with its own Coulomb rate at that
 * point, and locates nothing.
 */
int oracle_fine(size_t n, size_t m, const double *M, const double *Jn, const double *Jt,
                const double *mu, const double *v_minus, const double *ratios,
                const size_t *order, double hrel, size_t step_cap, double *v_plus,
                int *reentry, size_t *steps)
{
    oproblem P;
    ostate st;
    if (!v_plus || !reentry || !steps || (!ratios && !order) || !(hrel > 0.0) ||
        !(hrel <= 1.0)) {
        return ORACLE_ERR_ARG;
    }
    int rc = setup(&P, n, m, M, Jn, Jt, mu, v_minus);
    if (rc != ORACLE_OK) {
        return rc;
    }
    if (order && !valid_perm(m, order)) {
        return ORACLE_ERR_ARG;
    }
    if (!order) {
        for (size_t c = 0; c < m; c++) {
            if (!(ratios[c] > 0.0) || !isfinite(ratios[c])) {
                return ORACLE_ERR_ARG;
            }
        }
    }
    double h = hrel * P.S;
    double wmax = 0.0;
    for (size_t k = 0; k < m; k++) {
        for (size_t c = 0; c < m; c++) {
            wmax = fmax(wmax, fmax(fmax(fabs(P.Wnn[k][c]), fabs(P.Wnt[k][c])),
                                   fmax(fabs(P.Wtn[k][c]), fabs(P.Wtt[k][c]))));
        }
    }
    state_init(&P, &st);
    int rested[OM];
    for (size_t c = 0; c < m; c++) {
        rested[c] = !penetrates(&P, &st, c);
    }
    *reentry = 0;
    size_t k;
    for (k = 0; k < step_cap; k++) {
        double w[OM], lt[OM], wsum = 0.0;
        for (size_t c = 0; c < m; c++) {
            w[c] = 0.0;
            lt[c] = 0.0;
            if (!penetrates(&P, &st, c)) {
                rested[c] = 1;
            } else if (rested[c] && st.un[c] < -20.0 * h * wmax * (1.0 + P.mu[c])) {
                *reentry = 1;
            }
        }
        size_t first = order ? first_penetrating(&P, &st, order) : m;
        for (size_t c = 0; c < m; c++) {
            if (penetrates(&P, &st, c) && (!order || c == first)) {
                w[c] = order ? 1.0 : ratios[c];
                wsum += w[c];
            }
        }
        if (wsum == 0.0) {
            break;
        }
        for (size_t c = 0; c < m; c++) {
            if (w[c] == 0.0) {
                continue;
            }
            w[c] /= wsum;
            lt[c] = own_rate(&P, &st, c);
        }
        for (size_t j = 0; j < m; j++) {
            double dn = 0.0, dt = 0.0;
            for (size_t c = 0; c < m; c++) {
                dn += w[c] * (P.Wnn[j][c] + lt[c] * P.Wnt[j][c]);
                dt += w[c] * (P.Wtn[j][c] + lt[c] * P.Wtt[j][c]);
            }
            st.un[j] += h * dn;
            st.ut[j] += h * dt;
        }
        for (size_t c = 0; c < m; c++) {
            st.Ln[c] += h * w[c];
            st.Lt[c] += h * w[c] * lt[c];
        }
        st.s += h;
    }
    *steps = k;
    rc = k < step_cap ? ORACLE_OK : ORACLE_ERR_EVENTS;
    return conclude(&P, M, Jn, v_minus, &st, rc, v_plus, NULL);
}

/* Next permutation in lexicographic order; 0 after the last. */
static int next_perm(size_t m, size_t *p)
{
    if (m < 2) {
        return 0;
    }
    size_t i = m - 1;
    while (i > 0 && p[i - 1] >= p[i]) {
        i--;
    }
    if (i == 0) {
        return 0;
    }
    size_t j = m - 1;
    while (p[j] <= p[i - 1]) {
        j--;
    }
    size_t t = p[i - 1];
    p[i - 1] = p[j];
    p[j] = t;
    for (size_t a = i, b = m - 1; a < b; a++, b--) {
        t = p[a];
        p[a] = p[b];
        p[b] = t;
    }
    return 1;
}

static void record(oracle_stats *stats, int rc, double eratio, size_t segs)
{
    stats->runs++;
    stats->segments += segs;
    if (rc == ORACLE_OK) {
        stats->ok++;
    } else {
        stats->drop[rc]++;
    }
    if ((rc == ORACLE_OK || rc == ORACLE_ERR_ENERGY) && eratio > stats->max_energy_ratio) {
        stats->max_energy_ratio = eratio;
    }
}

size_t oracle_reference(size_t n, size_t m, const double *M, const double *Jn,
                        const double *Jt, const double *mu, const double *v_minus,
                        size_t nhist, uint64_t seed, size_t fine, size_t cap, double *pts,
                        oracle_stats *stats)
{
    oracle_stats local;
    oproblem P;
    ostate st;
    double vp[ON];
    size_t written = 0;
    if (!stats) {
        stats = &local;
    }
    memset(stats, 0, sizeof *stats);
    if ((cap > 0 && !pts) || setup(&P, n, m, M, Jn, Jt, mu, v_minus) != ORACLE_OK) {
        stats->drop[ORACLE_ERR_ARG] = 1;
        return 0;
    }
    double hmax = fine > 0 ? P.S / (double)fine : 0.0;
    if (m <= ORACLE_MAX_ORDERS_M) {
        size_t order[OM];
        for (size_t i = 0; i < m; i++) {
            order[i] = i;
        }
        do {
            double er = 0.0;
            state_init(&P, &st);
            int rc = finish_seq(&P, &st, order, hmax);
            rc = conclude(&P, M, Jn, v_minus, &st, rc, vp, &er);
            record(stats, rc, er, st.segs);
            if (rc == ORACLE_OK && written < cap) {
                memcpy(pts + written * n, vp, n * sizeof *vp);
                written++;
            }
        } while (next_perm(m, order));
    }
    orng rng;
    for (size_t h = 0; h < nhist; h++) {
        orng_seed(&rng, seed + (uint64_t)h); /* each history reproducible on its own */
        double mean = P.S * pow(10.0, -4.0 * orng_open(&rng));
        double er = 0.0;
        int rc = ORACLE_OK;
        state_init(&P, &st);
        for (;;) {
            size_t cand[OM], k = 0;
            for (size_t c = 0; c < m; c++) {
                if (penetrates(&P, &st, c)) {
                    cand[k++] = c;
                }
            }
            if (k == 0) {
                break;
            }
            size_t pick = (size_t)(orng_open(&rng) * (double)k);
            if (pick >= k) {
                pick = k - 1;
            }
            double dw = -mean * log(orng_open(&rng));
            rc = act(&P, &st, cand[pick], dw, hmax);
            if (rc != ORACLE_OK) {
                break;
            }
            if (++st.segs > ORACLE_EVENT_CAP) { /* also counts choices with no segment */
                rc = ORACLE_ERR_EVENTS;
                break;
            }
        }
        rc = conclude(&P, M, Jn, v_minus, &st, rc, vp, &er);
        record(stats, rc, er, st.segs);
        if (rc == ORACLE_OK && written < cap) {
            memcpy(pts + written * n, vp, n * sizeof *vp);
            written++;
        }
    }
    stats->written = written;
    return written;
}

/* ---- convex hull ---- */
typedef struct {
    long double x, y;
} opt2;

static int cmp_pt(const void *a, const void *b)
{
    const opt2 *p = a, *q = b;
    if (p->x != q->x) {
        return p->x < q->x ? -1 : 1;
    }
    if (p->y != q->y) {
        return p->y < q->y ? -1 : 1;
    }
    return 0;
}

static long double cross(opt2 o, opt2 a, opt2 b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/* Convex hull of k >= 1 points (sorted in place) into hull (scratch of k + 1 entries),
   counter-clockwise, closed (hull[t - 1] == hull[0] for k >= 2); returns t. */
static size_t hull_build(size_t k, opt2 *p, opt2 *hull)
{
    qsort(p, k, sizeof *p, cmp_pt);
    size_t t = 0;
    for (size_t i = 0; i < k; i++) {
        while (t >= 2 && cross(hull[t - 2], hull[t - 1], p[i]) <= 0.0L) {
            t--;
        }
        hull[t++] = p[i];
    }
    for (size_t i = k - 1, lo = t + 1; i-- > 0;) {
        while (t >= lo && cross(hull[t - 2], hull[t - 1], p[i]) <= 0.0L) {
            t--;
        }
        hull[t++] = p[i];
    }
    return t;
}

/* Hull area of k points (sorted in place); hull scratch of k + 1 entries. */
static long double hull_area_pts(size_t k, opt2 *p, opt2 *hull)
{
    if (k < 3) {
        return 0.0L;
    }
    size_t t = hull_build(k, p, hull);
    long double a = 0.0L;
    for (size_t i = 1; i + 1 < t; i++) {
        a += cross(hull[0], hull[i], hull[i + 1]);
    }
    return a > 0.0L ? 0.5L * a : 0.0L;
}

/* Distance from q to the segment a b. */
static long double seg_dist(opt2 q, opt2 a, opt2 b)
{
    long double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy, s = 0.0L;
    if (l2 > 0.0L) {
        s = ((q.x - a.x) * dx + (q.y - a.y) * dy) / l2;
        s = s < 0.0L ? 0.0L : (s > 1.0L ? 1.0L : s);
    }
    long double ex = a.x + s * dx - q.x, ey = a.y + s * dy - q.y;
    return sqrtl(ex * ex + ey * ey);
}

double oracle_hull_outside(size_t npts, const double *x, const double *y, double px, double py,
                           double *diam)
{
    if (!x || !y || !diam || npts == 0 || !isfinite(px) || !isfinite(py)) {
        return -1.0;
    }
    opt2 *p = malloc(2 * (npts + 1) * sizeof *p);
    if (!p) {
        return -1.0;
    }
    for (size_t i = 0; i < npts; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i])) {
            free(p);
            return -1.0;
        }
        p[i].x = (long double)x[i] - (long double)x[0];
        p[i].y = (long double)y[i] - (long double)y[0];
    }
    opt2 q = {(long double)px - (long double)x[0], (long double)py - (long double)y[0]};
    opt2 *h = p + npts + 1;
    size_t t = 1;
    if (npts == 1) {
        h[0] = p[0];
    } else {
        t = hull_build(npts, p, h);
    }
    long double dmax = 0.0L, dist = npts == 1 ? seg_dist(q, h[0], h[0]) : INFINITY;
    int inside = t >= 4; /* at least three vertices and the closing one */
    for (size_t i = 0; i + 1 < t; i++) {
        inside = inside && cross(h[i], h[i + 1], q) >= 0.0L;
        long double d = seg_dist(q, h[i], h[i + 1]);
        dist = d < dist ? d : dist;
        for (size_t j = i + 1; j < t; j++) {
            long double e = seg_dist(h[j], h[i], h[i]);
            dmax = e > dmax ? e : dmax;
        }
    }
    free(p);
    *diam = (double)dmax;
    return inside ? 0.0 : (double)dist;
}

double oracle_hull_area(size_t npts, const double *x, const double *y)
{
    if (!x || !y || npts < 3) {
        return 0.0;
    }
    opt2 *p = malloc(2 * (npts + 1) * sizeof *p);
    if (!p) {
        return 0.0;
    }
    for (size_t i = 0; i < npts; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i])) {
            free(p);
            return 0.0;
        }
        p[i].x = (long double)x[i] - (long double)x[0];
        p[i].y = (long double)y[i] - (long double)y[0];
    }
    long double a = hull_area_pts(npts, p, p + npts + 1);
    free(p);
    return (double)a;
}

/* 1-D coverage: along the unit direction from point i0 to point i1 of p (k points, the first
   na of them A), range of A over range of all. */
static double coverage_1d(size_t na, size_t k, const opt2 *p, size_t i0, size_t i1)
{
    long double dx = p[i1].x - p[i0].x, dy = p[i1].y - p[i0].y;
    long double len = sqrtl(dx * dx + dy * dy);
    long double ex = dx / len, ey = dy / len;
    long double amin = INFINITY, amax = -INFINITY, umin = INFINITY, umax = -INFINITY;
    for (size_t i = 0; i < k; i++) {
        long double t = ex * p[i].x + ey * p[i].y;
        if (i < na) {
            amin = fminl(amin, t);
            amax = fmaxl(amax, t);
        }
        umin = fminl(umin, t);
        umax = fmaxl(umax, t);
    }
    return umax > umin ? (double)((amax - amin) / (umax - umin)) : 1.0;
}

/* Index (in lo .. hi-1) of the lexicographically smallest point, and of the farthest one from
   it; returns the max coordinate range of those points. */
static long double extent(const opt2 *p, size_t lo, size_t hi, size_t *i0, size_t *i1)
{
    long double xmin = p[lo].x, xmax = p[lo].x, ymin = p[lo].y, ymax = p[lo].y;
    size_t a = lo;
    for (size_t i = lo; i < hi; i++) {
        xmin = fminl(xmin, p[i].x);
        xmax = fmaxl(xmax, p[i].x);
        ymin = fminl(ymin, p[i].y);
        ymax = fmaxl(ymax, p[i].y);
        if (cmp_pt(&p[i], &p[a]) < 0) {
            a = i;
        }
    }
    size_t b = a;
    long double dmax = 0.0L;
    for (size_t i = lo; i < hi; i++) {
        long double dx = p[i].x - p[a].x, dy = p[i].y - p[a].y;
        long double d2 = dx * dx + dy * dy;
        if (d2 > dmax) {
            dmax = d2;
            b = i;
        }
    }
    *i0 = a;
    *i1 = b;
    return fmaxl(xmax - xmin, ymax - ymin);
}

double oracle_coverage(size_t n, size_t na, const double *A, size_t nb, const double *B,
                       const double *p0, const double *p1)
{
    if (na == 0 || !A || !p0 || !p1 || (nb > 0 && !B)) {
        return 0.0;
    }
    size_t k = na + nb;
    opt2 *p = malloc((2 * k + 1) * sizeof *p);
    opt2 *q = malloc((k + 1) * sizeof *q);
    if (!p || !q) {
        free(p);
        free(q);
        return -1.0;
    }
    const long double x0 = (long double)dot(n, p0, A), y0 = (long double)dot(n, p1, A);
    for (size_t i = 0; i < k; i++) {
        const double *v = i < na ? A + i * n : B + (i - na) * n;
        p[i].x = (long double)dot(n, p0, v) - x0;
        p[i].y = (long double)dot(n, p1, v) - y0;
    }
    size_t u0, u1, b0 = 0, b1 = 0;
    long double DU = extent(p, 0, k, &u0, &u1);
    long double DB = nb > 0 ? extent(p, na, k, &b0, &b1) : 0.0L;
    double res;
    if (DU == 0.0L) {
        res = 1.0;
    } else {
        long double aB = 0.0L;
        if (nb >= 3) {
            memcpy(q, p + na, nb * sizeof *p);
            aB = hull_area_pts(nb, q, p + k); /* p[k .. 2k] as scratch */
        }
        if (aB <= 1e-9L * DB * DB) {
            /* B on a segment (or a point, or empty): 1-D, along B's segment if it has one */
            res = DB > 0.0L ? coverage_1d(na, k, p, b0, b1) : coverage_1d(na, k, p, u0, u1);
        } else {
            memcpy(q, p, k * sizeof *p);
            long double aU = hull_area_pts(k, q, p + k);
            memcpy(q, p, na * sizeof *p);
            long double aA = hull_area_pts(na, q, p + k);
            res = (double)(aA / aU);
        }
    }
    free(p);
    free(q);
    return res;
}
