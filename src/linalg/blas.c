/* Products through CBLAS (row-major, unit strides): nsm_gemm, nsm_gemv, nsm_syrk. */
#include <cblas.h>
#include "nsmech/linalg.h"

/* C[0 .. len-1] = beta * C (beta = 0 overwrites, as in BLAS: old values are not read). */
/*@ requires len: len <= NSM_MAX_DIM * NSM_MAX_DIM;
    requires valid_C: \valid(C + (0 .. len - 1));
    assigns C[0 .. len - 1];
 */
static void scale_block(size_t len, double beta, double *C)
{
    /*@ loop invariant 0 <= i <= len;
        loop assigns i, C[0 .. len - 1];
        loop variant len - i;
     */
    for (size_t i = 0; i < len; i++) {
        C[i] = (beta == 0.0) ? 0.0 : beta * C[i];
    }
}

/*@ assigns \nothing;
    ensures \result == 1 <==> (t == NSM_NO_TRANS || t == NSM_TRANS);
    ensures \result == 0 || \result == 1;
 */
static int trans_ok(nsm_trans t)
{
    return (t == NSM_NO_TRANS || t == NSM_TRANS) ? 1 : 0;
}

/*@ requires t == NSM_NO_TRANS || t == NSM_TRANS;
    assigns \nothing;
    ensures t == NSM_NO_TRANS ==> \result == CblasNoTrans;
    ensures t == NSM_TRANS ==> \result == CblasTrans;
 */
static enum CBLAS_TRANSPOSE cblas_op(nsm_trans t)
{
    return t == NSM_TRANS ? CblasTrans : CblasNoTrans;
}

nsm_status nsm_gemm(nsm_trans ta, nsm_trans tb, size_t m, size_t n, size_t k,
                    double alpha, const double *A, const double *B, double beta, double *C)
{
    if (m > NSM_MAX_DIM || n > NSM_MAX_DIM || k > NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    if (!trans_ok(ta) || !trans_ok(tb)) {
        return NSM_ERR_ARG;
    }
    size_t mk = m * k;
    size_t kn = k * n;
    size_t mn = m * n;
    if ((mk > 0u && A == NULL) || (kn > 0u && B == NULL) || (mn > 0u && C == NULL)) {
        return NSM_ERR_NULL;
    }
    if (mn == 0u) {
        return NSM_OK;
    }
    const double *Cc = C;
    if (nsm_overlap(Cc, mn, A, mk) || nsm_overlap(Cc, mn, B, kn)) {
        return NSM_ERR_ALIAS;
    }
    if (k == 0u) {
        scale_block(mn, beta, C);
        return NSM_OK;
    }
    /* Leading dimensions of the stored (not transposed) operands, all >= 1 here. */
    size_t lda = (ta == NSM_NO_TRANS) ? k : m;
    size_t ldb = (tb == NSM_NO_TRANS) ? n : k;
    cblas_dgemm(CblasRowMajor, cblas_op(ta), cblas_op(tb), (int)m, (int)n, (int)k, alpha, A,
                (int)lda, B, (int)ldb, beta, C, (int)n);
    return NSM_OK;
}

nsm_status nsm_gemv(nsm_trans ta, size_t m, size_t n, double alpha, const double *A,
                    const double *x, double beta, double *y)
{
    if (m > NSM_MAX_DIM || n > NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    if (!trans_ok(ta)) {
        return NSM_ERR_ARG;
    }
    size_t mn = m * n;
    size_t lx = (ta == NSM_NO_TRANS) ? n : m;
    size_t ly = (ta == NSM_NO_TRANS) ? m : n;
    if ((mn > 0u && A == NULL) || (lx > 0u && x == NULL) || (ly > 0u && y == NULL)) {
        return NSM_ERR_NULL;
    }
    if (ly == 0u) {
        return NSM_OK;
    }
    const double *yc = y;
    if (nsm_overlap(yc, ly, A, mn) || nsm_overlap(yc, ly, x, lx)) {
        return NSM_ERR_ALIAS;
    }
    if (lx == 0u) {
        scale_block(ly, beta, y);
        return NSM_OK;
    }
    cblas_dgemv(CblasRowMajor, cblas_op(ta), (int)m, (int)n, alpha, A, (int)n, x, 1, beta, y, 1);
    return NSM_OK;
}

/* Copy the lower triangle of the n×n matrix C onto its strict upper triangle. */
/*@ requires dim: 1 <= n <= NSM_MAX_DIM;
    requires valid_C: \valid(C + (0 .. n*n - 1));
    assigns C[0 .. n*n - 1];
 */
static void mirror_lower(size_t n, double *C)
{
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, C[0 .. n*n - 1];
        loop variant n - i;
     */
    for (size_t i = 0; i < n; i++) {
        /*@ loop invariant i + 1 <= j <= n || (j == i + 1 && j > n);
            loop assigns j, C[0 .. n*n - 1];
            loop variant n - j;
         */
        for (size_t j = i + 1; j < n; j++) {
            /*@ assert up: i*n + j < n*n; */
            /*@ assert lo: j*n + i < n*n; */
            C[i * n + j] = C[j * n + i];
        }
    }
}

nsm_status nsm_syrk(nsm_trans ta, size_t n, size_t k, double alpha, const double *A,
                    double beta, double *C)
{
    if (n > NSM_MAX_DIM || k > NSM_MAX_DIM) {
        return NSM_ERR_SIZE;
    }
    if (!trans_ok(ta)) {
        return NSM_ERR_ARG;
    }
    size_t nk = n * k;
    size_t nn = n * n;
    if ((nk > 0u && A == NULL) || (nn > 0u && C == NULL)) {
        return NSM_ERR_NULL;
    }
    if (nn == 0u) {
        return NSM_OK;
    }
    const double *Cc = C;
    if (nsm_overlap(Cc, nn, A, nk)) {
        return NSM_ERR_ALIAS;
    }
    if (k == 0u) {
        scale_block(nn, beta, C);
        mirror_lower(n, C);
        return NSM_OK;
    }
    size_t lda = (ta == NSM_NO_TRANS) ? k : n;
    cblas_dsyrk(CblasRowMajor, CblasLower, cblas_op(ta), (int)n, (int)k, alpha, A, (int)lda,
                beta, C, (int)n);
    mirror_lower(n, C);
    return NSM_OK;
}
