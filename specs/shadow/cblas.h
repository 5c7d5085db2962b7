/*
 * TRUSTED contracts for the CBLAS routines nsmech calls (seen only by Frama-C: specs/shadow is
 * first on its include path, so this file replaces the system <cblas.h> in proofs).
 *
 * They are not proved. They state, for exactly the way nsmech calls these routines —
 * row-major storage, unit vector increments, packed leading dimensions (lda = number of
 * stored columns), all dimensions between 1 and NSM_MAX_DIM — which ranges the reference BLAS
 * reads and which range it writes. Every call site (src/linalg/blas.c, src/linalg/svd.c,
 * src/projection/lowrank.c, src/projection/rangespace.c) establishes these preconditions; the BLAS implementation itself (OpenBLAS/reference BLAS) is trusted, and its
 * numerical results are checked by the tests against plain loops.
 *
 * Non-overlap of the output with the inputs is not stated here: nsmech checks it at run time
 * with nsm_overlap() before every call (the check is on addresses and not visible to WP).
 * Listed in docs/proofs.md as trusted.
 */
#ifndef NSM_SHADOW_CBLAS_H
#define NSM_SHADOW_CBLAS_H

enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113,
                       CblasConjNoTrans = 114 };
enum CBLAS_UPLO { CblasUpper = 121, CblasLower = 122 };
enum CBLAS_SIDE { CblasLeft = 141, CblasRight = 142 };
typedef enum CBLAS_ORDER CBLAS_ORDER;
typedef enum CBLAS_TRANSPOSE CBLAS_TRANSPOSE;
typedef enum CBLAS_UPLO CBLAS_UPLO;
enum CBLAS_DIAG { CblasNonUnit = 131, CblasUnit = 132 };
typedef enum CBLAS_SIDE CBLAS_SIDE;
typedef enum CBLAS_DIAG CBLAS_DIAG;
typedef enum CBLAS_ORDER CBLAS_LAYOUT;

/* C (M×N) = alpha·op(A)·op(B) + beta·C; A stored M×K (NoTrans) or K×M (Trans), B stored K×N
   or N×K. */
/*@ requires row_major: Order == CblasRowMajor;
    requires trans: (TransA == CblasNoTrans || TransA == CblasTrans) &&
                    (TransB == CblasNoTrans || TransB == CblasTrans);
    requires dims: 1 <= M <= 1024 && 1 <= N <= 1024 && 1 <= K <= 1024;
    requires lda: lda == (TransA == CblasNoTrans ? K : M);
    requires ldb: ldb == (TransB == CblasNoTrans ? N : K);
    requires ldc: ldc == N;
    requires valid_A: \valid_read(A + (0 .. M*K - 1));
    requires valid_B: \valid_read(B + (0 .. K*N - 1));
    requires valid_C: \valid(C + (0 .. M*N - 1));
    assigns C[0 .. M*N - 1] \from alpha, A[0 .. M*K - 1], B[0 .. K*N - 1], beta,
                                  C[0 .. M*N - 1];
 */
void cblas_dgemm(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA,
                 const enum CBLAS_TRANSPOSE TransB, const int M, const int N, const int K,
                 const double alpha, const double *A, const int lda, const double *B,
                 const int ldb, const double beta, double *C, const int ldc);

/* y = alpha·op(A)·x + beta·y; A stored M×N; x has N (NoTrans) or M (Trans) entries, y the
   other count. */
/*@ requires row_major: order == CblasRowMajor;
    requires trans: trans == CblasNoTrans || trans == CblasTrans;
    requires dims: 1 <= m <= 1024 && 1 <= n <= 1024;
    requires lda: lda == n;
    requires unit_strides: incx == 1 && incy == 1;
    requires valid_A: \valid_read(a + (0 .. m*n - 1));
    requires valid_x: \valid_read(x + (0 .. (trans == CblasNoTrans ? n : m) - 1));
    requires valid_y: \valid(y + (0 .. (trans == CblasNoTrans ? m : n) - 1));
    assigns y[0 .. (trans == CblasNoTrans ? m : n) - 1]
        \from alpha, a[0 .. m*n - 1], x[0 .. (trans == CblasNoTrans ? n : m) - 1], beta,
              y[0 .. (trans == CblasNoTrans ? m : n) - 1];
 */
void cblas_dgemv(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE trans, const int m,
                 const int n, const double alpha, const double *a, const int lda,
                 const double *x, const int incx, const double beta, double *y, const int incy);

/* Lower triangle of C (N×N) = alpha·op(A)·op(A)ᵀ + beta·C; A stored N×K (NoTrans) or K×N. */
/*@ requires row_major: Order == CblasRowMajor;
    requires lower: Uplo == CblasLower;
    requires trans: Trans == CblasNoTrans || Trans == CblasTrans;
    requires dims: 1 <= N <= 1024 && 1 <= K <= 1024;
    requires lda: lda == (Trans == CblasNoTrans ? K : N);
    requires ldc: ldc == N;
    requires valid_A: \valid_read(A + (0 .. N*K - 1));
    requires valid_C: \valid(C + (0 .. N*N - 1));
    assigns C[0 .. N*N - 1] \from alpha, A[0 .. N*K - 1], beta, C[0 .. N*N - 1];
 */
void cblas_dsyrk(const enum CBLAS_ORDER Order, const enum CBLAS_UPLO Uplo,
                 const enum CBLAS_TRANSPOSE Trans, const int N, const int K, const double alpha,
                 const double *A, const int lda, const double beta, double *C, const int ldc);

/* B (M×N) = alpha·B·op(A)⁻¹ (Side = Right; A N×N triangular, only its Uplo triangle and, for
   CblasNonUnit, its diagonal read), in place. */
/*@ requires row_major: Order == CblasRowMajor;
    requires right: Side == CblasRight;
    requires lower: Uplo == CblasLower;
    requires trans: TransA == CblasNoTrans || TransA == CblasTrans;
    requires diag: Diag == CblasNonUnit;
    requires dims: 1 <= M <= 1024 && 1 <= N <= 1024;
    requires lda: lda == N;
    requires ldb: ldb == N;
    requires valid_A: \valid_read(A + (0 .. N*N - 1));
    requires valid_B: \valid(B + (0 .. M*N - 1));
    assigns B[0 .. M*N - 1] \from alpha, A[0 .. N*N - 1], B[0 .. M*N - 1];
 */
void cblas_dtrsm(const enum CBLAS_ORDER Order, const enum CBLAS_SIDE Side,
                 const enum CBLAS_UPLO Uplo, const enum CBLAS_TRANSPOSE TransA,
                 const enum CBLAS_DIAG Diag, const int M, const int N, const double alpha,
                 const double *A, const int lda, double *B, const int ldb);

/* B (M×N) = alpha·B·op(A) (Side = Right; A N×N triangular, only its Uplo triangle and, for
   CblasNonUnit, its diagonal read), in place. */
/*@ requires row_major: Order == CblasRowMajor;
    requires right: Side == CblasRight;
    requires lower: Uplo == CblasLower;
    requires trans: TransA == CblasNoTrans || TransA == CblasTrans;
    requires diag: Diag == CblasNonUnit;
    requires dims: 1 <= M <= 1024 && 1 <= N <= 1024;
    requires lda: lda == N;
    requires ldb: ldb == N;
    requires valid_A: \valid_read(A + (0 .. N*N - 1));
    requires valid_B: \valid(B + (0 .. M*N - 1));
    assigns B[0 .. M*N - 1] \from alpha, A[0 .. N*N - 1], B[0 .. M*N - 1];
 */
void cblas_dtrmm(const enum CBLAS_ORDER Order, const enum CBLAS_SIDE Side,
                 const enum CBLAS_UPLO Uplo, const enum CBLAS_TRANSPOSE TransA,
                 const enum CBLAS_DIAG Diag, const int M, const int N, const double alpha,
                 const double *A, const int lda, double *B, const int ldb);

#endif
