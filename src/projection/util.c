/* Matrix writers and checks of the projection module (internal.h). */
#include "internal.h"
#include "../linalg/internal.h"

/* The four n×n writers below share this loop over the lower triangle: for i >= j, v is
   stored at (i, j) and w at (j, i). For kinds 0 to 2, w = v is computed once, so the output is
   symmetric whatever the inputs hold, even if they share storage with it (before row i the
   leading i×i block is done; row i adds (i, j) and (j, i) for j <= i): 0, c·(T_ij + T_ji) +
   d·(Q_ij + Q_ji); 1, δ_ij − (Q_ij + Q_ji)/2; 2, T_ij (the lower triangle of T mirrored).
   Kind 3: v = T_ij − T_ji and w = T_ji − T_ij, so T − Tᵀ (T and out apart). */
/*@ requires n: 1 <= n <= NSM_MAX_DIM;
    requires valid: \valid_read(T + (0 .. n*n - 1)) && \valid_read(Q + (0 .. n*n - 1));
    requires valid_out: \valid(out + (0 .. n*n - 1));
    assigns out[0 .. n*n - 1];
    ensures sym: kind != 3 ==> nsm_sym(out, n);
 */
static void tri_write(size_t n, int kind, const double *T, double c, double d, const double *Q,
                      double *out)
{
    /*@ loop invariant 0 <= i <= n;
        loop invariant done: kind != 3 ==> nsm_sym_block(out, n, i);
        loop assigns i, out[0 .. n*n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ loop invariant 0 <= j <= i + 1;
            loop invariant done: kind != 3 ==> nsm_sym_block(out, n, i);
            loop invariant row: kind != 3 ==> \forall integer b; 0 <= b < j ==>
                                    out[nsm_ix(n, i, b)] == out[nsm_ix(n, b, i)];
            loop assigns j, out[0 .. n*n - 1];
            loop variant i + 1 - j;
         */
        for (size_t j = 0; j <= i; j++) {
            /*@ assert in: nsm_ix(n, i, j) < n*n && nsm_ix(n, j, i) < n*n; */
            double v;
            double w;
            if (kind == 0) {
                v = c * (T[i * n + j] + T[j * n + i]) + d * (Q[i * n + j] + Q[j * n + i]);
            } else if (kind == 1) {
                v = (i == j ? 1.0 : 0.0) - (Q[i * n + j] + Q[j * n + i]) / 2;
            } else if (kind == 2) {
                v = T[i * n + j];
            } else {
                v = T[i * n + j] - T[j * n + i];
            }
            w = kind == 3 ? T[j * n + i] - T[i * n + j] : v;
            out[i * n + j] = v;
            out[j * n + i] = w;
        }
    }
}

void nsm_proj_i_sym_plus(size_t n, const double *T, double c, double d, const double *Q,
                         double *out)
{
    tri_write(n, 0, T, c, d, Q, out);
}

void nsm_proj_i_eye_minus(size_t n, const double *Q, double *out)
{
    tri_write(n, 1, Q, 0.0, 0.0, Q, out);
}

void nsm_proj_i_sym_copy(size_t n, const double *X, double *out)
{
    tri_write(n, 2, X, 0.0, 0.0, X, out);
}

void nsm_proj_i_skew(size_t n, const double *X, double *out)
{
    tri_write(n, 3, X, 0.0, 0.0, X, out);
}

/* Goals of this call see nsm_vec_zero's clause; Qed closes them (no prover task prints it). */
void nsm_proj_i_zero(size_t len, double *out)
{
    nsm_vec_zero(len, out);
}

void nsm_proj_i_add_diag(size_t n, double s, double *X)
{
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, X[0 .. n*n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert in: i*n + i < n*n; */
        X[i * n + i] += s;
    }
}

double nsm_proj_i_trace(size_t n, const double *X)
{
    double t = 0.0;
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, t;
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ assert in: i*n + i < n*n; */
        t += X[i * n + i];
    }
    return t;
}

int nsm_proj_i_overlap(const double *a, size_t na, const double *b, size_t nb)
{
    const size_t chunk = (size_t)NSM_MAX_DIM * NSM_MAX_DIM;
    size_t off = 0;
    /*@ loop invariant 0 <= off <= nb;
        loop assigns off;
        loop variant nb - off;
     */
    while (off < nb) {
        size_t len = nb - off;
        if (len > chunk) {
            len = chunk;
        }
        if (nsm_overlap(a, na, b + off, len)) {
            return 1;
        }
        off += len;
    }
    return 0;
}

/* The structure as the one written span against the arrays as read spans. */
int nsm_proj_i_struct_hits(uintptr_t s, size_t bytes, size_t k, const nsm_span *arrays)
{
    const nsm_span self[1] = {{s, bytes}};
    return nsm_spans_overlap(1u, self, k, arrays);
}
