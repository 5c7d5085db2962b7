/* Plain-loop helpers of the projection module (internal.h). */
#include "internal.h"
#include "../linalg/internal.h"

void nsm_proj_i_copy(size_t len, const double *x, double *out)
{
    /* two entries per iteration: GCC vectorises it at -O2 (the per-cycle call copies n×n
       blocks several times) */
    size_t i = 0;
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, out[0 .. len - 1];
        loop variant len - i;
     */
    while (len - i >= 2u) {
        double a = x[i];
        double b = x[i + 1u];
        out[i] = a;
        out[i + 1u] = b;
        i += 2u;
    }
    if (i < len) {
        out[i] = x[i];
    }
}

void nsm_proj_i_axpy(size_t len, const double *x, double s, const double *y, double *out)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, out[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        out[i] = x[i] + s * y[i];
    }
}

void nsm_proj_i_mv(size_t rows, size_t cols, double s, const double *A, const double *x,
                   double *y)
{
    /*@ loop invariant 0 <= i <= rows;
        loop assigns i, y[0 .. rows - 1];
        loop variant rows - i;
     */
    for (size_t i = 0; i < rows; i++) {
        /*@ assert row_in: i*cols + cols <= rows*cols; */
        y[i] = s * nsm_vec_dot(cols, A + i * cols, x);
    }
}

void nsm_proj_i_mtv(size_t rows, size_t cols, double s, const double *A, const double *x,
                    double *y)
{
    /*@ loop invariant 0 <= j <= cols;
        loop assigns j, y[0 .. cols - 1];
        loop variant cols - j;
     */
    for (size_t j = 0; j < cols; j++) {
        double acc = 0.0;
        /*@ loop invariant 0 <= i <= rows;
            loop assigns i, acc;
            loop variant rows - i;
         */
        for (size_t i = 0; i < rows; i++) {
            /*@ assert in: i*cols + j < rows*cols; */
            acc += A[i * cols + j] * x[i];
        }
        y[j] = s * acc;
    }
}

/* Both helpers below compute each entry of the lower triangle once and store it at (i, j) and
   (j, i): the output is symmetric whatever the inputs hold, even if they share storage with it.
   Before row i, the leading i×i block is done; row i adds (i, j) and (j, i) for j <= i. */
void nsm_proj_i_sym_plus(size_t n, const double *T, double c, double d, const double *Q,
                         double *out)
{
    /*@ loop invariant 0 <= i <= n;
        loop invariant done: nsm_sym_block(out, n, i);
        loop assigns i, out[0 .. n*n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ loop invariant 0 <= j <= i + 1;
            loop invariant done: nsm_sym_block(out, n, i);
            loop invariant row: \forall integer b; 0 <= b < j ==>
                                    out[nsm_ix(n, i, b)] == out[nsm_ix(n, b, i)];
            loop assigns j, out[0 .. n*n - 1];
            loop variant i + 1 - j;
         */
        for (size_t j = 0; j <= i; j++) {
            /*@ assert in: nsm_ix(n, i, j) < n*n && nsm_ix(n, j, i) < n*n; */
            double v = c * (T[i * n + j] + T[j * n + i]) + d * (Q[i * n + j] + Q[j * n + i]);
            out[i * n + j] = v;
            out[j * n + i] = v;
        }
    }
}

void nsm_proj_i_eye_minus(size_t n, const double *Q, double *out)
{
    /*@ loop invariant 0 <= i <= n;
        loop invariant done: nsm_sym_block(out, n, i);
        loop assigns i, out[0 .. n*n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ loop invariant 0 <= j <= i + 1;
            loop invariant done: nsm_sym_block(out, n, i);
            loop invariant row: \forall integer b; 0 <= b < j ==>
                                    out[nsm_ix(n, i, b)] == out[nsm_ix(n, b, i)];
            loop assigns j, out[0 .. n*n - 1];
            loop variant i + 1 - j;
         */
        for (size_t j = 0; j <= i; j++) {
            /*@ assert in: nsm_ix(n, i, j) < n*n && nsm_ix(n, j, i) < n*n; */
            double v = (i == j ? 1.0 : 0.0) - (Q[i * n + j] + Q[j * n + i]) / 2;
            out[i * n + j] = v;
            out[j * n + i] = v;
        }
    }
}

void nsm_proj_i_sym_copy(size_t n, const double *X, double *out)
{
    /*@ loop invariant 0 <= i <= n;
        loop invariant done: nsm_sym_block(out, n, i);
        loop assigns i, out[0 .. n*n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ loop invariant 0 <= j <= i + 1;
            loop invariant done: nsm_sym_block(out, n, i);
            loop invariant row: \forall integer b; 0 <= b < j ==>
                                    out[nsm_ix(n, i, b)] == out[nsm_ix(n, b, i)];
            loop assigns j, out[0 .. n*n - 1];
            loop variant i + 1 - j;
         */
        for (size_t j = 0; j <= i; j++) {
            /*@ assert in: nsm_ix(n, i, j) < n*n && nsm_ix(n, j, i) < n*n; */
            double v = X[i * n + j];
            out[i * n + j] = v;
            out[j * n + i] = v;
        }
    }
}

void nsm_proj_i_skew(size_t n, const double *X, double *out)
{
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, out[0 .. n*n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ loop invariant 0 <= j <= n;
            loop assigns j, out[0 .. n*n - 1];
            loop variant n - j;
         */
        for (size_t j = 0; j < n; j++) {
            /*@ assert in: i*n + j < n*n && j*n + i < n*n; */
            out[i * n + j] = X[i * n + j] - X[j * n + i];
        }
    }
}

void nsm_proj_i_zero(size_t len, double *out)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, out[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        out[i] = 0.0;
    }
}

void nsm_proj_i_scaled(size_t len, double s, const double *x, double *out)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, out[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        out[i] = s * x[i];
    }
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
