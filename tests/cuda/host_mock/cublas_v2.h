// eagerpp - tests/cuda/host_mock: cuBLAS's types and trsmBatched on the host, through CBLAS's
// column-major trsm (OpenBLAS)
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdlib>  // std::abort

#include <cblas.h>  // cblas_strsm, cblas_dtrsm

#include "host_mock_runtime.h"  // cudaStream_t, as the real cublas_v2.h brings the CUDA runtime

enum cublasStatus_t { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_INVALID_VALUE = 7 };
enum cublasFillMode_t { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1 };
enum cublasOperation_t { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 };
enum cublasSideMode_t { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 };
enum cublasDiagType_t { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 };
struct cublasContext {};
using cublasHandle_t = cublasContext*;

/// B[b] = alpha op(A[b])^-1 B[b] (left) or B[b] op(A[b])^-1 (right), column-major, as cuBLAS
/// documents it; an invalid leading dimension aborts, as cuBLAS would reject it.
template <class T, class F>
cublasStatus_t mock_trsm_batched(F trsm, cublasSideMode_t side, cublasFillMode_t uplo,
                                 cublasOperation_t trans, cublasDiagType_t diag, int m, int n,
                                 const T* alpha, const T* const a[], int lda, T* const b[], int ldb,
                                 int count) {
  if (lda < (side == CUBLAS_SIDE_LEFT ? m : n) || ldb < m) std::abort();
  for (int i = 0; i < count; ++i)
    trsm(CblasColMajor, side == CUBLAS_SIDE_LEFT ? CblasLeft : CblasRight,
         uplo == CUBLAS_FILL_MODE_UPPER ? CblasUpper : CblasLower,
         trans == CUBLAS_OP_T ? CblasTrans : CblasNoTrans,
         diag == CUBLAS_DIAG_UNIT ? CblasUnit : CblasNonUnit, m, n, *alpha, a[i], lda, b[i], ldb);
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasStrsmBatched(cublasHandle_t /*h*/, cublasSideMode_t side,
                                         cublasFillMode_t uplo, cublasOperation_t trans,
                                         cublasDiagType_t diag, int m, int n, const float* alpha,
                                         const float* const a[], int lda, float* const b[], int ldb,
                                         int count) {
  return mock_trsm_batched<float>(cblas_strsm, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb,
                                  count);
}
inline cublasStatus_t cublasDtrsmBatched(cublasHandle_t /*h*/, cublasSideMode_t side,
                                         cublasFillMode_t uplo, cublasOperation_t trans,
                                         cublasDiagType_t diag, int m, int n, const double* alpha,
                                         const double* const a[], int lda, double* const b[],
                                         int ldb, int count) {
  return mock_trsm_batched<double>(cblas_dtrsm, side, uplo, trans, diag, m, n, alpha, a, lda, b,
                                   ldb, count);
}
