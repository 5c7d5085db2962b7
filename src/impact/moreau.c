/*
 * The ratios of NSM_POLICY_MOREAU: the normal impulses of Moreau's impulse (docs/math.md
 * (I13)). Moreau's inelastic impulse P (three slots per contact) makes the contact velocity
 * u+ = u + W P satisfy, at each contact, 0 <= u+_n ⊥ P_n >= 0, P in its friction cone and
 * P_t = -μ P_n u+_t/‖u+_t‖ where u+_t ≠ 0: the answer of a Moreau–Jean time-stepper with zero
 * restitution. It solves the cone complementarity problem of De Saxcé's form,
 *     P_c = proj_K(P_c − ρ_c (u+_c + μ_c ‖u+_t,c‖ e_n)),
 * by projected Gauss–Seidel over the contacts (a frictionless contact: the exact local solve
 * P_n = max(0, P_n − u+_n/W_nn)). When it converges, the simultaneous run with ratios P_n
 * ends at Moreau's v+ wherever a constant-ratio history reaches it (tests/test_moreau.c).
 */
#include "nsmech/impact.h"
#include "../nsm_math.h"
#include "internal.h"
#include "impact_internal.h"

/* Sweeps over the contacts, at most. */
#define MOREAU_SWEEPS 2000u

/* Local fixed-point iterations of a frictional contact per visit, at most. */
#define MOREAU_LOCAL 64u

/* Relative change of P that ends the sweeps (and a contact's local iterations). */
#define MOREAU_TOL 1e-15

/* Smallest ratio, relative to the largest normal impulse: every ratio of the simultaneous
   policy is positive. */
#define MOREAU_RATIO_MIN 1e-12

/* (t1, t2, n) projected onto the cone ‖t‖ <= μ n (Euclidean projection, closed form). */
/*@ requires \valid(p + (0 .. 2));
    assigns p[0 .. 2];
 */
static void cone_project3(double mu, double *p)
{
    double a = tnorm(2, p[0], p[1]);
    double n = p[2];
    if (a <= mu * n) {
        return;
    }
    if (mu * a <= -n || !(a > 0.0)) {
        /* in the polar cone (a = 0 here only with n < 0) */
        p[0] = 0.0;
        p[1] = 0.0;
        p[2] = 0.0;
        return;
    }
    double nn = (n + mu * a) / (1.0 + mu * mu);
    double f = mu * nn / a;
    p[0] *= f;
    p[1] *= f;
    p[2] = nn;
}

/* w = u_c + (W P)_c, contact c's velocity (three slots). */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    requires \valid_read(P + (0 .. 3 * m - 1)) && \valid(w + (0 .. 2));
    requires \separated(w + (0 .. 2), P + (0 .. 3 * m - 1));
    assigns w[0 .. 2];
 */
static void contact_velocity(size_t m, size_t c, const double *W, const double *u,
                             const double *P, double *w)
{
    size_t K = 3 * m;
    /*@ assert K * K == 9 * m * m; */
    /*@ loop invariant 0 <= i <= 3;
        loop assigns i, w[0 .. 2];
        loop variant 3 - i;
     */
    for (size_t i = 0; i < 3; i++) {
        size_t row = 3 * c + i;
        lemma_idx(row, K - 1, K);
        double acc = u[row];
        /*@ loop invariant 0 <= j <= K;
            loop assigns j, acc;
            loop variant K - j;
         */
        for (size_t j = 0; j < K; j++) {
            acc += W[row * K + j] * P[j];
        }
        w[i] = acc;
    }
}

/* One visit of contact c: its impulse P_c updated to the local solution (frictionless: exact;
   else at most MOREAU_LOCAL fixed-point iterations of De Saxcé's map with ρ = 1/tr W_cc, the
   contact's velocity kept current). Returns the largest change of an entry of P_c. */
/*@ requires 1 <= m && 3 * m <= NSM_MAX_DIM && c < m;
    requires \valid_read(W + (0 .. 9 * m * m - 1)) && \valid_read(u + (0 .. 3 * m - 1));
    requires \valid(P + (0 .. 3 * m - 1));
    assigns P[3 * c .. 3 * c + 2];
    ensures \result >= 0;
 */
static double visit(size_t m, size_t c, const double *W, const double *u, double mu, double *P)
{
    size_t b = 3 * c;
    double B[9];
    contact_block(m, c, W, B);
    double w[3];
    contact_velocity(m, c, W, u, P, w);
    double p0[3] = {P[b], P[b + 1], P[b + 2]};
    double wnn = B[8];
    if (mu == 0.0) {
        double pn = P[b + 2];
        if (wnn > 0.0) {
            pn -= w[2] / wnn;
        }
        P[b] = 0.0;
        P[b + 1] = 0.0;
        P[b + 2] = pn > 0.0 ? pn : 0.0;
    } else {
        double tr = B[0] + B[4] + wnn;
        double rho = tr > 0.0 ? 1.0 / tr : 0.0;
        /*@ loop invariant 0 <= it <= MOREAU_LOCAL;
            loop assigns it, w[0 .. 2], P[3 * c .. 3 * c + 2];
            loop variant MOREAU_LOCAL - it;
         */
        for (size_t it = 0; it < MOREAU_LOCAL; it++) {
            double q[3];
            double s = tnorm(2, w[0], w[1]);
            q[0] = P[b] - rho * w[0];
            q[1] = P[b + 1] - rho * w[1];
            q[2] = P[b + 2] - rho * (w[2] + mu * s);
            cone_project3(mu, q);
            double dq[3] = {q[0] - P[b], q[1] - P[b + 1], q[2] - P[b + 2]};
            double ch = 0.0;
            /*@ loop invariant 0 <= i <= 3 && ch >= 0;
                loop assigns i, ch, w[0 .. 2];
                loop variant 3 - i;
             */
            for (size_t i = 0; i < 3; i++) {
                w[i] += B[3 * i] * dq[0] + B[3 * i + 1] * dq[1] + B[3 * i + 2] * dq[2];
                double a = fabs(dq[i]);
                ch = a > ch ? a : ch;
            }
            P[b] = q[0];
            P[b + 1] = q[1];
            P[b + 2] = q[2];
            double sz = fabs(q[0]) + fabs(q[1]) + fabs(q[2]);
            if (!(ch > MOREAU_TOL * sz)) {
                break;
            }
        }
    }
    double ch = 0.0;
    /*@ loop invariant 0 <= i <= 3 && ch >= 0;
        loop assigns i, ch;
        loop variant 3 - i;
     */
    for (size_t i = 0; i < 3; i++) {
        double a = fabs(P[b + i] - p0[i]);
        ch = a > ch ? a : ch;
    }
    return ch;
}

void nsm_impact_moreau(size_t m, const double *W, const double *u, const double *mu, double *P,
                       double *ratios)
{
    size_t K = 3 * m;
    zero_vec(K, P);
    /*@ loop invariant 0 <= k <= MOREAU_SWEEPS;
        loop assigns k, P[0 .. 3 * m - 1];
        loop variant MOREAU_SWEEPS - k;
     */
    for (size_t k = 0; k < MOREAU_SWEEPS; k++) {
        double ch = 0.0;
        double big = 0.0;
        /*@ loop invariant 0 <= c <= m && ch >= 0 && big >= 0;
            loop assigns c, ch, big, P[0 .. 3 * m - 1];
            loop variant m - c;
         */
        for (size_t c = 0; c < m; c++) {
            double a = visit(m, c, W, u, mu[c], P);
            ch = a > ch ? a : ch;
            double pn = fabs(P[3 * c + 2]);
            big = pn > big ? pn : big;
        }
        if (!(ch > MOREAU_TOL * big)) {
            break;
        }
    }
    double top = 0.0;
    /*@ loop invariant 0 <= c <= m && top >= 0;
        loop assigns c, top;
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double pn = P[3 * c + 2];
        top = pn > top ? pn : top;
    }
    double floor = top > 0.0 ? MOREAU_RATIO_MIN * top : 1.0;
    /*@ loop invariant 0 <= c <= m;
        loop assigns c, ratios[0 .. m - 1];
        loop variant m - c;
     */
    for (size_t c = 0; c < m; c++) {
        double pn = P[3 * c + 2];
        ratios[c] = pn > floor ? pn : floor;
    }
}
