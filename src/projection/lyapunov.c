/*
 * The Lyapunov monitor of the regulation law (docs/math.md (P21), (P26); [D] eq. 24; "The
 * regulation law that converges"): at one state (q, q̇) with applied force f,
 *   V = ½ q̇ᵀ M̄ q̇ + ½ K_p ‖e‖²,   e = q − q*,
 *   V̇ = q̇ᵀ P (f + f_g) + K_p eᵀ q̇,
 * the rate along the constrained motion M̄ q̈ + C̄ q̇ = P (f + f_g) (Ṁ̄ − 2C̄ skew, q* constant).
 * For the σ = 0 law f = −R(f_g + K_p e + K_d q̇) and admissible q̇ (P q̇ = q̇), PR = P gives
 * V̇ = −K_d ‖q̇‖² ≤ 0. Plain loops over the given matrices; nothing is factorised.
 */
#include "nsmech/projection.h"
#include "internal.h"

/* 1 if the scalar output o overlaps an input of nsm_proj_lyapunov. */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid_o: \valid_read(o);
    requires valid_in: \valid_read(Mb + (0 .. n*n - 1)) && \valid_read(P + (0 .. n*n - 1)) &&
                       \valid_read(f + (0 .. n - 1)) && \valid_read(fg + (0 .. n - 1)) &&
                       \valid_read(q + (0 .. n - 1)) && \valid_read(qs + (0 .. n - 1)) &&
                       \valid_read(qd + (0 .. n - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
 */
static int lyap_hits(const double *o, size_t n, const double *Mb, const double *P,
                     const double *f, const double *fg, const double *q, const double *qs,
                     const double *qd)
{
    int bad = nsm_proj_i_overlap(o, 1u, Mb, n * n);
    bad |= nsm_proj_i_overlap(o, 1u, P, n * n);
    bad |= nsm_proj_i_overlap(o, 1u, f, n);
    bad |= nsm_proj_i_overlap(o, 1u, fg, n);
    bad |= nsm_proj_i_overlap(o, 1u, q, n);
    bad |= nsm_proj_i_overlap(o, 1u, qs, n);
    bad |= nsm_proj_i_overlap(o, 1u, qd, n);
    return bad != 0 ? 1 : 0;
}

/* The former entry point on the fields of nsm_proj_lyapunov's structures (its contract
   unchanged). */
/*@ requires valid_in: (Mbar == \null || \valid_read(Mbar + (0 .. n*n - 1))) &&
                       (P == \null || \valid_read(P + (0 .. n*n - 1))) &&
                       (f == \null || \valid_read(f + (0 .. n - 1))) &&
                       (fg == \null || \valid_read(fg + (0 .. n - 1))) &&
                       (q == \null || \valid_read(q + (0 .. n - 1))) &&
                       (qstar == \null || \valid_read(qstar + (0 .. n - 1))) &&
                       (qd == \null || \valid_read(qd + (0 .. n - 1)));
    requires valid_out: (V == \null || \valid(V)) && (Vdot == \null || \valid(Vdot));
    assigns *V, *Vdot;
    behavior null_arg:
      assumes Mbar == \null || P == \null || f == \null || fg == \null || q == \null ||
              qstar == \null || qd == \null || V == \null || Vdot == \null;
      ensures \result == NSM_ERR_NULL;
    behavior bad_size:
      assumes !(Mbar == \null || P == \null || f == \null || fg == \null || q == \null ||
                qstar == \null || qd == \null || V == \null || Vdot == \null);
      assumes n == 0 || n > NSM_MAX_DIM;
      ensures \result == NSM_ERR_SIZE;
    behavior valid_args:
      assumes !(Mbar == \null || P == \null || f == \null || fg == \null || q == \null ||
                qstar == \null || qd == \null || V == \null || Vdot == \null);
      assumes 1 <= n <= NSM_MAX_DIM;
      ensures status: \result == NSM_OK || \result == NSM_ERR_ARG ||
                      \result == NSM_ERR_ALIAS || \result == NSM_ERR_NOT_FINITE;
      ensures bad_kp: !(kp > 0) ==> \result == NSM_ERR_ARG;
    complete behaviors;
    disjoint behaviors;
 */
static nsm_status lyapunov_core(size_t n, const double *Mbar, const double *P,
                                const double *f, const double *fg, const double *q,
                                const double *qstar, const double *qd, double kp, double *V,
                                double *Vdot)
{
    if (Mbar == NULL || P == NULL || f == NULL || fg == NULL || q == NULL || qstar == NULL ||
        qd == NULL || V == NULL || Vdot == NULL) {
        return NSM_ERR_NULL;
    }
    if (!nsm_dim_ok(n)) {
        return NSM_ERR_SIZE;
    }
    double kv[1] = {kp};
    if (!nsm_all_finite(1u, kv) || !(kp > 0.0)) {
        return NSM_ERR_ARG;
    }
    const double *Vc = V;
    const double *Vdc = Vdot;
    int bad = lyap_hits(Vc, n, Mbar, P, f, fg, q, qstar, qd);
    bad |= lyap_hits(Vdc, n, Mbar, P, f, fg, q, qstar, qd);
    bad |= nsm_proj_i_overlap(Vc, 1u, Vdc, 1u);
    if (bad != 0) {
        return NSM_ERR_ALIAS;
    }
    size_t nn = n * n;
    if (!nsm_all_finite(nn, Mbar) || !nsm_all_finite(nn, P) || !nsm_all_finite(n, f) ||
        !nsm_all_finite(n, fg) || !nsm_all_finite(n, q) || !nsm_all_finite(n, qstar) ||
        !nsm_all_finite(n, qd)) {
        return NSM_ERR_NOT_FINITE;
    }
    double kin = 0.0, pw = 0.0, pot = 0.0, ew = 0.0;
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, kin, pw, pot, ew;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert row_in: i*n + n <= n*n; */
        double a = 0.0, b = 0.0;
        /*@ loop invariant 0 <= j <= n;
            loop assigns j, a, b;
            loop variant n - j;
         */
        for (size_t j = 0; j < n; j++) {
            a += Mbar[i * n + j] * qd[j];
            b += P[i * n + j] * (f[j] + fg[j]);
        }
        double e = q[i] - qstar[i];
        kin += qd[i] * a;
        pw += qd[i] * b;
        pot += e * e;
        ew += e * qd[i];
    }
    *V = 0.5 * kin + 0.5 * kp * pot;
    *Vdot = pw + kp * ew;
    return NSM_OK;
}

/* The inputs' fields for the former entry point; V and V̇ into the result (the former entry
   point rejects either overlapping an input array). */
nsm_status nsm_proj_lyapunov(const nsm_proj_control_input *in, const double *Mbar,
                             const double *f, double kp, nsm_proj_lyapunov_result *res)
{
    if (in == NULL || res == NULL) {
        return NSM_ERR_NULL;
    }
    return lyapunov_core(in->n, Mbar, in->P, f, in->fg, in->q, in->qstar, in->qd, kp, &res->V,
                         &res->Vdot);
}
