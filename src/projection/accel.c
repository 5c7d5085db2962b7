/*
 * The vector part of q̈ and f_c shared by the two routes of nsm_proj_dynamics (docs/math.md
 * (P12), (P13)): the carving of the vector block V, the right-hand sides g0 and g, the last
 * step of q̈, and the route through M̄'s Cholesky factor (nsm_proj_i_accel). The range-space
 * route (rangespace.c) and the entry point (dynamics.c) both build on it.
 */
#include "nsmech/projection.h"
#include "internal.h"
#include "../linalg/internal.h"

/* The slots of V, V + k·n for k = 0, ..., 8: one carving of the vector block for both routes
   and nsm_proj_dynamics. */
nsm_proj_vecs nsm_proj_i_vecs(size_t n, double *V)
{
    nsm_proj_vecs s;
    s.lq = V;
    s.lt = V + n;
    s.v1 = V + 2u * n;
    s.v2 = V + 3u * n;
    s.g0 = V + 4u * n;
    s.v5 = V + 5u * n;
    s.dinv = V + 6u * n;
    s.acc = V + 7u * n;
    s.fc = V + 8u * n;
    return s;
}

/* The right-hand sides both routes start from, in the slots of V:
   g0 = f + f_g − Cq̇ and v2 = g0 − M lq (v1 is scratch). */
void nsm_proj_i_accel_rhs(size_t n, const double *M, const double *C, const double *f,
                          const double *fg, const double *qd, double *V)
{
    nsm_proj_vecs s = nsm_proj_i_vecs(n, V);
    nsm_mat_vec(0, n, n, 1.0, C, qd, s.v1);
    nsm_vec_copy(n, f, s.v2);
    nsm_vec_axpy(n, 1.0, fg, s.v2);
    nsm_vec_copy(n, s.v2, s.g0);
    nsm_vec_axpy(n, -1.0, s.v1, s.g0);
    nsm_mat_vec(0, n, n, 1.0, M, s.lq, s.v1);
    nsm_vec_copy(n, s.g0, s.v2);
    nsm_vec_axpy(n, -1.0, s.v1, s.v2);
}

/* acc = z + lq, then its finiteness. */
nsm_status nsm_proj_i_accel_out(size_t n, const double *z, double *V)
{
    nsm_proj_vecs s = nsm_proj_i_vecs(n, V);
    nsm_vec_copy(n, z, s.acc);
    nsm_vec_axpy(n, 1.0, s.lq, s.acc);
    if (!nsm_all_finite(n, s.acc)) {
        return NSM_ERR_NOT_FINITE;
    }
    return NSM_OK;
}

/* v5 = lq − lt, v1 = M v5, v2 = g0 − v1. */
void nsm_proj_i_fc_rhs(size_t n, const double *M, double *V)
{
    nsm_proj_vecs s = nsm_proj_i_vecs(n, V);
    nsm_vec_copy(n, s.lq, s.v5);
    nsm_vec_axpy(n, -1.0, s.lt, s.v5);
    nsm_mat_vec(0, n, n, 1.0, M, s.v5, s.v1);
    nsm_vec_copy(n, s.g0, s.v2);
    nsm_vec_axpy(n, -1.0, s.v1, s.v2);
}

/* Vectors: the slots of V (nsm_proj_vecs), lq = Λq̇ and lt = Λᵀq̇ on entry, dinv = 1/diag(L);
   g0 = f + f_g − Cq̇ (nsm_proj_i_accel_rhs),
   qdd = M̄⁻¹P(g0 − M lq) + lq (P12),  fc = Mz − g (P13) with g = g0 − M(lq − lt), z = M̄⁻¹Pg,
   P applied as v − Y(Yᵀv), M̄⁻¹ by the two triangular solves with L. */
nsm_status nsm_proj_i_accel(size_t n, size_t r, const double *M, const double *C,
                            const double *f, const double *fg, const double *qd,
                            const double *Yt, const double *L, int want_fc, double *V,
                            double *t)
{
    nsm_proj_vecs s = nsm_proj_i_vecs(n, V);
    nsm_proj_i_accel_rhs(n, M, C, f, fg, qd, V);
    nsm_proj_i_apply_p(n, r, Yt, s.v2, t, s.v1);
    nsm_chol_inv_diag(n, L, s.dinv);
    nsm_chol_solve_vec(n, L, s.dinv, s.v1);
    nsm_status st = nsm_proj_i_accel_out(n, s.v1, V);
    if (st != NSM_OK || !want_fc) {
        return st;
    }
    nsm_proj_i_fc_rhs(n, M, V);
    nsm_proj_i_apply_p(n, r, Yt, s.v2, t, s.v1);
    nsm_chol_solve_vec(n, L, s.dinv, s.v1);
    nsm_mat_vec(0, n, n, 1.0, M, s.v1, s.v5);
    nsm_vec_copy(n, s.v5, s.fc);
    nsm_vec_axpy(n, -1.0, s.v2, s.fc);
    if (!nsm_all_finite(n, s.fc)) {
        return NSM_ERR_NOT_FINITE;
    }
    return NSM_OK;
}
