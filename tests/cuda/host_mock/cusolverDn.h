// eagerpp - tests/cuda/host_mock: the cuSOLVER dense routines of eagerpp/cuda/cusolver.hpp on the
// host, through LAPACK (OpenBLAS's), with the semantics cuSOLVER documents for each: column-major
// matrices, LAPACK's INFO; potrfBatched leaves the other triangle as workspace (here: garbage),
// gesvdj returns V (not Vᵀ) and overwrites A, every workspace must have the queried size. They let
// tests/cuda/cusolver_host_test.cpp check eagerpp's calls and layouts without a GPU; cuSOLVER itself
// is checked only by the CUDA suite on a GPU.
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::max, std::min, std::fill
#include <cstdlib>      // std::abort
#include <type_traits>  // std::is_same_v
#include <vector>       // std::vector

#include "cublas_v2.h"
#include "host_mock_runtime.h"

extern "C" {
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda,
             const int* ipiv, float* b, const int* ldb, int* info);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda,
             const int* ipiv, double* b, const int* ldb, int* info);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work,
             const int* lwork, int* info);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work,
             const int* lwork, int* info);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau,
             float* work, const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau,
             double* work, const int* lwork, int* info);
void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s,
             float* u, const int* ldu, float* vt, const int* ldvt, float* work, const int* lwork,
             int* iwork, int* info);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s,
             double* u, const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork,
             int* iwork, int* info);
void ssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* lda, float* w,
             float* work, const int* lwork, int* iwork, const int* liwork, int* info);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
             double* work, const int* lwork, int* iwork, const int* liwork, int* info);
}

enum cusolverStatus_t {
  CUSOLVER_STATUS_SUCCESS = 0,
  CUSOLVER_STATUS_NOT_INITIALIZED = 1,
  CUSOLVER_STATUS_ALLOC_FAILED = 2,
  CUSOLVER_STATUS_INVALID_VALUE = 3,
  CUSOLVER_STATUS_ARCH_MISMATCH = 4,
  CUSOLVER_STATUS_EXECUTION_FAILED = 6,
  CUSOLVER_STATUS_INTERNAL_ERROR = 7,
  CUSOLVER_STATUS_NOT_SUPPORTED = 9
};
enum cusolverEigMode_t { CUSOLVER_EIG_MODE_NOVECTOR = 0, CUSOLVER_EIG_MODE_VECTOR = 1 };
struct cusolverDnContext {};
using cusolverDnHandle_t = cusolverDnContext*;
struct gesvdjInfo {};
using gesvdjInfo_t = gesvdjInfo*;

inline cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t* h) {
  *h = new cusolverDnContext;
  return CUSOLVER_STATUS_SUCCESS;
}
inline cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t h) {
  delete h;
  return CUSOLVER_STATUS_SUCCESS;
}
inline cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t /*h*/, cudaStream_t /*s*/) {
  return CUSOLVER_STATUS_SUCCESS;
}
inline cusolverStatus_t cusolverDnCreateGesvdjInfo(gesvdjInfo_t* p) {
  *p = new gesvdjInfo;
  return CUSOLVER_STATUS_SUCCESS;
}
inline cusolverStatus_t cusolverDnDestroyGesvdjInfo(gesvdjInfo_t p) {
  delete p;
  return CUSOLVER_STATUS_SUCCESS;
}

namespace host_mock {

/// Aborts where cuSOLVER would return CUSOLVER_STATUS_INVALID_VALUE (or read out of bounds).
inline void require(bool ok) {
  if (!ok) std::abort();
}
/// The workspace size every query returns; the routines check that they got it.
constexpr int lwork = 7;

template <class T>
cusolverStatus_t potrf_batched(cublasFillMode_t uplo, int n, T* a[], int lda, int* info,
                               int batch) {
  require(lda >= n);
  const char u = uplo == CUBLAS_FILL_MODE_UPPER ? 'U' : 'L';
  for (int b = 0; b < batch; ++b) {
    if constexpr (std::is_same_v<T, float>)
      spotrf_(&u, &n, a[b], &lda, info + b);
    else
      dpotrf_(&u, &n, a[b], &lda, info + b);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (uplo == CUBLAS_FILL_MODE_UPPER ? i > j : i < j) a[b][j * lda + i] = T(777);
  }
  return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t getrf(int m, int n, T* a, int lda, const T* work, int* ipiv, int* info) {
  require(work != nullptr && lda >= m);
  if constexpr (std::is_same_v<T, float>)
    sgetrf_(&m, &n, a, &lda, ipiv, info);
  else
    dgetrf_(&m, &n, a, &lda, ipiv, info);
  return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t getrs(cublasOperation_t op, int n, int nrhs, const T* a, int lda, const int* ipiv,
                       T* b, int ldb, int* info) {
  require(lda >= n && ldb >= n);
  const char t = op == CUBLAS_OP_T ? 'T' : 'N';
  if constexpr (std::is_same_v<T, float>)
    sgetrs_(&t, &n, &nrhs, a, &lda, ipiv, b, &ldb, info);
  else
    dgetrs_(&t, &n, &nrhs, a, &lda, ipiv, b, &ldb, info);
  return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t geqrf(int m, int n, T* a, int lda, T* tau, const T* work, int lw, int* info) {
  require(work != nullptr && lw >= lwork && lda >= m);
  std::vector<T> w(static_cast<std::size_t>(std::max(64 * n, 1)));
  const int size = static_cast<int>(w.size());
  if constexpr (std::is_same_v<T, float>)
    sgeqrf_(&m, &n, a, &lda, tau, w.data(), &size, info);
  else
    dgeqrf_(&m, &n, a, &lda, tau, w.data(), &size, info);
  return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t orgqr(int m, int n, int k, T* a, int lda, const T* tau, const T* work, int lw,
                       int* info) {
  require(work != nullptr && lw >= lwork && lda >= m && n <= m && k <= n);
  std::vector<T> w(static_cast<std::size_t>(std::max(64 * n, 1)));
  const int size = static_cast<int>(w.size());
  if constexpr (std::is_same_v<T, float>)
    sorgqr_(&m, &n, &k, a, &lda, tau, w.data(), &size, info);
  else
    dorgqr_(&m, &n, &k, a, &lda, tau, w.data(), &size, info);
  return CUSOLVER_STATUS_SUCCESS;
}

/// A = U S Vᵀ: U (m x min(m, n), or m x m without econ) and V (n x min(m, n), or n x n), V itself.
template <class T>
cusolverStatus_t gesvdj(cusolverEigMode_t jobz, int econ, int m, int n, T* a, int lda, T* s, T* u,
                        int ldu, T* v, int ldv, const T* work, int lw, int* info) {
  require(work != nullptr && lw >= lwork && lda >= m && ldu >= m && ldv >= n);
  const int k = std::min(m, n), ku = econ != 0 ? k : m, kv = econ != 0 ? k : n;
  const char job = jobz == CUSOLVER_EIG_MODE_NOVECTOR ? 'N' : econ != 0 ? 'S' : 'A';
  std::vector<T> copy(a, a + static_cast<std::ptrdiff_t>(lda) * n);
  std::vector<T> uu(static_cast<std::size_t>(m) * m), vt(static_cast<std::size_t>(n) * n), w(1);
  std::vector<int> iwork(static_cast<std::size_t>(8 * k));
  const int ldvt = job == 'S' ? k : n;
  const auto call = [&](int size) {
    if constexpr (std::is_same_v<T, float>)
      sgesdd_(&job, &m, &n, copy.data(), &lda, s, uu.data(), &m, vt.data(), &ldvt, w.data(), &size,
              iwork.data(), info);
    else
      dgesdd_(&job, &m, &n, copy.data(), &lda, s, uu.data(), &m, vt.data(), &ldvt, w.data(), &size,
              iwork.data(), info);
  };
  call(-1);
  w.assign(static_cast<std::size_t>(w[0]) + 1, T(0));
  call(static_cast<int>(w.size()));
  std::fill(a, a + static_cast<std::ptrdiff_t>(lda) * n, T(555));  // gesvdj overwrites A
  if (job == 'N') return CUSOLVER_STATUS_SUCCESS;
  for (int j = 0; j < ku; ++j)
    for (int i = 0; i < m; ++i) u[j * ldu + i] = uu[static_cast<std::size_t>(j * m + i)];
  for (int j = 0; j < kv; ++j)
    for (int i = 0; i < n; ++i) v[j * ldv + i] = vt[static_cast<std::size_t>(i * ldvt + j)];
  return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t syevd(cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, T* a, int lda, T* w,
                       const T* work, int lw, int* info) {
  require(work != nullptr && lw >= lwork && lda >= n);
  const char job = jobz == CUSOLVER_EIG_MODE_VECTOR ? 'V' : 'N';
  const char u = uplo == CUBLAS_FILL_MODE_UPPER ? 'U' : 'L';
  int size = 1 + 6 * n + 2 * n * n, isize = 3 + 5 * n;
  std::vector<T> ws(static_cast<std::size_t>(size));
  std::vector<int> iws(static_cast<std::size_t>(isize));
  if constexpr (std::is_same_v<T, float>)
    ssyevd_(&job, &u, &n, a, &lda, w, ws.data(), &size, iws.data(), &isize, info);
  else
    dsyevd_(&job, &u, &n, a, &lda, w, ws.data(), &size, iws.data(), &isize, info);
  return CUSOLVER_STATUS_SUCCESS;
}

inline cusolverStatus_t query(int* lw) {
  *lw = lwork;
  return CUSOLVER_STATUS_SUCCESS;
}

}  // namespace host_mock

// The float and double entry points, as cusolverDn.h declares them.
inline cusolverStatus_t cusolverDnSpotrfBatched(cusolverDnHandle_t /*h*/, cublasFillMode_t uplo,
                                                int n, float* a[], int lda, int* info, int batch) {
  return host_mock::potrf_batched(uplo, n, a, lda, info, batch);
}
inline cusolverStatus_t cusolverDnDpotrfBatched(cusolverDnHandle_t /*h*/, cublasFillMode_t uplo,
                                                int n, double* a[], int lda, int* info, int batch) {
  return host_mock::potrf_batched(uplo, n, a, lda, info, batch);
}
inline cusolverStatus_t cusolverDnSgetrf_bufferSize(cusolverDnHandle_t /*h*/, int m, int /*n*/,
                                                    float* /*a*/, int lda, int* lw) {
  host_mock::require(lda >= m);
  return host_mock::query(lw);
}
inline cusolverStatus_t cusolverDnDgetrf_bufferSize(cusolverDnHandle_t /*h*/, int m, int /*n*/,
                                                    double* /*a*/, int lda, int* lw) {
  host_mock::require(lda >= m);
  return host_mock::query(lw);
}
inline cusolverStatus_t cusolverDnSgetrf(cusolverDnHandle_t /*h*/, int m, int n, float* a, int lda,
                                         float* work, int* ipiv, int* info) {
  return host_mock::getrf(m, n, a, lda, work, ipiv, info);
}
inline cusolverStatus_t cusolverDnDgetrf(cusolverDnHandle_t /*h*/, int m, int n, double* a, int lda,
                                         double* work, int* ipiv, int* info) {
  return host_mock::getrf(m, n, a, lda, work, ipiv, info);
}
inline cusolverStatus_t cusolverDnSgetrs(cusolverDnHandle_t /*h*/, cublasOperation_t op, int n,
                                         int nrhs, const float* a, int lda, const int* ipiv,
                                         float* b, int ldb, int* info) {
  return host_mock::getrs(op, n, nrhs, a, lda, ipiv, b, ldb, info);
}
inline cusolverStatus_t cusolverDnDgetrs(cusolverDnHandle_t /*h*/, cublasOperation_t op, int n,
                                         int nrhs, const double* a, int lda, const int* ipiv,
                                         double* b, int ldb, int* info) {
  return host_mock::getrs(op, n, nrhs, a, lda, ipiv, b, ldb, info);
}
inline cusolverStatus_t cusolverDnSgeqrf_bufferSize(cusolverDnHandle_t /*h*/, int m, int /*n*/,
                                                    float* /*a*/, int lda, int* lw) {
  host_mock::require(lda >= m);
  return host_mock::query(lw);
}
inline cusolverStatus_t cusolverDnDgeqrf_bufferSize(cusolverDnHandle_t /*h*/, int m, int /*n*/,
                                                    double* /*a*/, int lda, int* lw) {
  host_mock::require(lda >= m);
  return host_mock::query(lw);
}
inline cusolverStatus_t cusolverDnSgeqrf(cusolverDnHandle_t /*h*/, int m, int n, float* a, int lda,
                                         float* tau, float* work, int lw, int* info) {
  return host_mock::geqrf(m, n, a, lda, tau, work, lw, info);
}
inline cusolverStatus_t cusolverDnDgeqrf(cusolverDnHandle_t /*h*/, int m, int n, double* a, int lda,
                                         double* tau, double* work, int lw, int* info) {
  return host_mock::geqrf(m, n, a, lda, tau, work, lw, info);
}
inline cusolverStatus_t cusolverDnSorgqr_bufferSize(cusolverDnHandle_t /*h*/, int m, int n, int k,
                                                    const float* /*a*/, int lda,
                                                    const float* /*tau*/, int* lw) {
  host_mock::require(lda >= m && n <= m && k <= n);
  return host_mock::query(lw);
}
inline cusolverStatus_t cusolverDnDorgqr_bufferSize(cusolverDnHandle_t /*h*/, int m, int n, int k,
                                                    const double* /*a*/, int lda,
                                                    const double* /*tau*/, int* lw) {
  host_mock::require(lda >= m && n <= m && k <= n);
  return host_mock::query(lw);
}
inline cusolverStatus_t cusolverDnSorgqr(cusolverDnHandle_t /*h*/, int m, int n, int k, float* a,
                                         int lda, const float* tau, float* work, int lw,
                                         int* info) {
  return host_mock::orgqr(m, n, k, a, lda, tau, work, lw, info);
}
inline cusolverStatus_t cusolverDnDorgqr(cusolverDnHandle_t /*h*/, int m, int n, int k, double* a,
                                         int lda, const double* tau, double* work, int lw,
                                         int* info) {
  return host_mock::orgqr(m, n, k, a, lda, tau, work, lw, info);
}
inline cusolverStatus_t cusolverDnSgesvdj_bufferSize(cusolverDnHandle_t /*h*/,
                                                     cusolverEigMode_t /*jobz*/, int /*econ*/,
                                                     int m, int n, const float* /*a*/, int lda,
                                                     const float* /*s*/, const float* /*u*/,
                                                     int ldu, const float* /*v*/, int ldv, int* lw,
                                                     gesvdjInfo_t /*params*/) {
  host_mock::require(lda >= m && ldu >= m && ldv >= n);
  return host_mock::query(lw);
}
inline cusolverStatus_t cusolverDnDgesvdj_bufferSize(cusolverDnHandle_t /*h*/,
                                                     cusolverEigMode_t /*jobz*/, int /*econ*/,
                                                     int m, int n, const double* /*a*/, int lda,
                                                     const double* /*s*/, const double* /*u*/,
                                                     int ldu, const double* /*v*/, int ldv, int* lw,
                                                     gesvdjInfo_t /*params*/) {
  host_mock::require(lda >= m && ldu >= m && ldv >= n);
  return host_mock::query(lw);
}
inline cusolverStatus_t cusolverDnSgesvdj(cusolverDnHandle_t /*h*/, cusolverEigMode_t jobz,
                                          int econ, int m, int n, float* a, int lda, float* s,
                                          float* u, int ldu, float* v, int ldv, float* work, int lw,
                                          int* info, gesvdjInfo_t /*params*/) {
  return host_mock::gesvdj(jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, work, lw, info);
}
inline cusolverStatus_t cusolverDnDgesvdj(cusolverDnHandle_t /*h*/, cusolverEigMode_t jobz,
                                          int econ, int m, int n, double* a, int lda, double* s,
                                          double* u, int ldu, double* v, int ldv, double* work,
                                          int lw, int* info, gesvdjInfo_t /*params*/) {
  return host_mock::gesvdj(jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, work, lw, info);
}
inline cusolverStatus_t cusolverDnSsyevd_bufferSize(cusolverDnHandle_t /*h*/,
                                                    cusolverEigMode_t /*jobz*/,
                                                    cublasFillMode_t /*uplo*/, int n,
                                                    const float* /*a*/, int lda, const float* /*w*/,
                                                    int* lw) {
  host_mock::require(lda >= n);
  return host_mock::query(lw);
}
inline cusolverStatus_t cusolverDnDsyevd_bufferSize(cusolverDnHandle_t /*h*/,
                                                    cusolverEigMode_t /*jobz*/,
                                                    cublasFillMode_t /*uplo*/, int n,
                                                    const double* /*a*/, int lda,
                                                    const double* /*w*/, int* lw) {
  host_mock::require(lda >= n);
  return host_mock::query(lw);
}
inline cusolverStatus_t cusolverDnSsyevd(cusolverDnHandle_t /*h*/, cusolverEigMode_t jobz,
                                         cublasFillMode_t uplo, int n, float* a, int lda, float* w,
                                         float* work, int lw, int* info) {
  return host_mock::syevd(jobz, uplo, n, a, lda, w, work, lw, info);
}
inline cusolverStatus_t cusolverDnDsyevd(cusolverDnHandle_t /*h*/, cusolverEigMode_t jobz,
                                         cublasFillMode_t uplo, int n, double* a, int lda,
                                         double* w, double* work, int lw, int* info) {
  return host_mock::syevd(jobz, uplo, n, a, lda, w, work, lw, info);
}
