// eagerpp - ep::omp's matrix decompositions: LAPACK's Fortran routines and BLAS's trsm
// (OpenBLAS's) on each matrix of a batch, the batch spread over the OpenMP threads
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::copy_n, std::fill, std::fill_n, std::max, std::min
#include <atomic>       // std::atomic
#include <cmath>        // std::ceil, std::log, std::abs, std::nextafter
#include <complex>      // std::complex
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <memory>       // std::unique_ptr
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple
#include <type_traits>  // std::is_same_v, std::conditional_t
#include <utility>      // std::pair, std::swap

#include <fmt/format.h>

#include "eagerpp/error.hpp"
#include "eagerpp/host/cblas_trsm.hpp"
#include "eagerpp/host/host_kernels.hpp"
#include "eagerpp/shape.hpp"

// The LAPACK routines, declared here rather than taken from a LAPACK header (none is a dependency):
// column-major matrices, every argument by address, 32-bit int sizes (OpenBLAS's LP64 interface).
// The declarations are those of xtensor-blas (xflens/cxxlapack/netlib/interface/lapack.in.h),
// parameter for parameter, so that a translation unit may include both ep::omp and ep::xtensor: a
// function with C linkage declared twice must be declared alike. As there, the lengths that
// gfortran appends for character arguments are left out; the routines' character arguments are
// one character long, a length they know without reading it. A complex matrix is passed as its
// interleaved real parts (xtensor-blas's FLOAT_COMPLEX is float).
extern "C" {
void spotrf_(const char* UPLO, const int* N, float* A, const int* LDA, int* INFO);
void dpotrf_(const char* UPLO, const int* N, double* A, const int* LDA, int* INFO);
void sgetrf_(const int* M, const int* N, float* A, const int* LDA, int* IPIV, int* INFO);
void dgetrf_(const int* M, const int* N, double* A, const int* LDA, int* IPIV, int* INFO);
void sgetrs_(const char* TRANS, const int* N, const int* NRHS, const float* A, const int* LDA,
             const int* IPIV, float* B, const int* LDB, int* INFO);
void dgetrs_(const char* TRANS, const int* N, const int* NRHS, const double* A, const int* LDA,
             const int* IPIV, double* B, const int* LDB, int* INFO);
void sgeqrf_(const int* M, const int* N, float* A, const int* LDA, float* TAU, float* WORK,
             const int* LWORK, int* INFO);
void dgeqrf_(const int* M, const int* N, double* A, const int* LDA, double* TAU, double* WORK,
             const int* LWORK, int* INFO);
void sorgqr_(const int* M, const int* N, const int* K, float* A, const int* LDA, const float* TAU,
             float* WORK, const int* LWORK, int* INFO);
void dorgqr_(const int* M, const int* N, const int* K, double* A, const int* LDA, const double* TAU,
             double* WORK, const int* LWORK, int* INFO);
void sgesdd_(const char* JOBZ, const int* M, const int* N, float* A, const int* LDA, float* S,
             float* U, const int* LDU, float* VT, const int* LDVT, float* WORK, const int* LWORK,
             int* IWORK, int* INFO);
void dgesdd_(const char* JOBZ, const int* M, const int* N, double* A, const int* LDA, double* S,
             double* U, const int* LDU, double* VT, const int* LDVT, double* WORK, const int* LWORK,
             int* IWORK, int* INFO);
void cgetrf_(const int* M, const int* N, float* A, const int* LDA, int* IPIV, int* INFO);
void zgetrf_(const int* M, const int* N, double* A, const int* LDA, int* IPIV, int* INFO);
void cgetrs_(const char* TRANS, const int* N, const int* NRHS, const float* A, const int* LDA,
             const int* IPIV, float* B, const int* LDB, int* INFO);
void zgetrs_(const char* TRANS, const int* N, const int* NRHS, const double* A, const int* LDA,
             const int* IPIV, double* B, const int* LDB, int* INFO);
void sgeev_(const char* JOBVL, const char* JOBVR, const int* N, float* A, const int* LDA, float* WR,
            float* WI, float* VL, const int* LDVL, float* VR, const int* LDVR, float* WORK,
            const int* LWORK, int* INFO);
void dgeev_(const char* JOBVL, const char* JOBVR, const int* N, double* A, const int* LDA,
            double* WR, double* WI, double* VL, const int* LDVL, double* VR, const int* LDVR,
            double* WORK, const int* LWORK, int* INFO);
void cgeev_(const char* JOBVL, const char* JOBVR, const int* N, float* A, const int* LDA, float* W,
            float* VL, const int* LDVL, float* VR, const int* LDVR, float* WORK, const int* LWORK,
            float* RWORK, int* INFO);
void zgeev_(const char* JOBVL, const char* JOBVR, const int* N, double* A, const int* LDA,
            double* W, double* VL, const int* LDVL, double* VR, const int* LDVR, double* WORK,
            const int* LWORK, double* RWORK, int* INFO);
void ssyevd_(const char* JOBZ, const char* UPLO, const int* N, float* A, const int* LDA, float* W,
             float* WORK, const int* LWORK, int* IWORK, const int* LIWORK, int* INFO);
void dsyevd_(const char* JOBZ, const char* UPLO, const int* N, double* A, const int* LDA, double* W,
             double* WORK, const int* LWORK, int* IWORK, const int* LIWORK, int* INFO);
}

namespace ep::detail {

/// The routines above for float and double, by value, returning INFO.
namespace lapack {

template <class T>
int potrf(char uplo, int n, T* a, int lda) {
  int info = 0;
  if constexpr (std::is_same_v<T, float>)
    spotrf_(&uplo, &n, a, &lda, &info);
  else
    dpotrf_(&uplo, &n, a, &lda, &info);
  return info;
}

/// A complex pointer as LAPACK's interleaved parts; a real one as it is.
template <class T>
auto parts(T* p) {
  if constexpr (complex_dtype<std::remove_const_t<T>>)
    return reinterpret_cast<std::conditional_t<std::is_const_v<T>, const typename T::value_type,
                                               typename T::value_type>*>(p);
  else
    return p;
}

template <class T>
int getrf(int m, int n, T* a, int lda, int* ipiv) {
  int info = 0;
  if constexpr (std::is_same_v<T, float>)
    sgetrf_(&m, &n, a, &lda, ipiv, &info);
  else if constexpr (std::is_same_v<T, double>)
    dgetrf_(&m, &n, a, &lda, ipiv, &info);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    cgetrf_(&m, &n, parts(a), &lda, ipiv, &info);
  else
    zgetrf_(&m, &n, parts(a), &lda, ipiv, &info);
  return info;
}

template <class T>
int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {
  int info = 0;
  if constexpr (std::is_same_v<T, float>)
    sgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info);
  else if constexpr (std::is_same_v<T, double>)
    dgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    cgetrs_(&trans, &n, &nrhs, parts(a), &lda, ipiv, parts(b), &ldb, &info);
  else
    zgetrs_(&trans, &n, &nrhs, parts(a), &lda, ipiv, parts(b), &ldb, &info);
  return info;
}

/// geev of a real matrix ('N' for the left eigenvectors): eigenvalues wr + i wi, VR real.
template <class T>
int geev(char jobvr, int n, T* a, int lda, T* wr, T* wi, T* vr, int ldvr, T* work, int lwork) {
  int info = 0, one = 1;
  const char jobvl = 'N';
  T none = 0;
  if constexpr (std::is_same_v<T, float>)
    sgeev_(&jobvl, &jobvr, &n, a, &lda, wr, wi, &none, &one, vr, &ldvr, work, &lwork, &info);
  else
    dgeev_(&jobvl, &jobvr, &n, a, &lda, wr, wi, &none, &one, vr, &ldvr, work, &lwork, &info);
  return info;
}

/// geev of a complex matrix ('N' for the left eigenvectors); rwork holds 2n reals.
template <class C>
int geev(char jobvr, int n, C* a, int lda, C* w, C* vr, int ldvr, C* work, int lwork,
         typename C::value_type* rwork) {
  int info = 0, one = 1;
  const char jobvl = 'N';
  C none = 0;
  if constexpr (std::is_same_v<C, std::complex<float>>)
    cgeev_(&jobvl, &jobvr, &n, parts(a), &lda, parts(w), parts(&none), &one, parts(vr), &ldvr,
           parts(work), &lwork, rwork, &info);
  else
    zgeev_(&jobvl, &jobvr, &n, parts(a), &lda, parts(w), parts(&none), &one, parts(vr), &ldvr,
           parts(work), &lwork, rwork, &info);
  return info;
}

template <class T>
int geqrf(int m, int n, T* a, int lda, T* tau, T* work, int lwork) {
  int info = 0;
  if constexpr (std::is_same_v<T, float>)
    sgeqrf_(&m, &n, a, &lda, tau, work, &lwork, &info);
  else
    dgeqrf_(&m, &n, a, &lda, tau, work, &lwork, &info);
  return info;
}

template <class T>
int orgqr(int m, int n, int k, T* a, int lda, const T* tau, T* work, int lwork) {
  int info = 0;
  if constexpr (std::is_same_v<T, float>)
    sorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
  else
    dorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
  return info;
}

template <class T>
int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt, T* work,
          int lwork, int* iwork) {
  int info = 0;
  if constexpr (std::is_same_v<T, float>)
    sgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info);
  else
    dgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info);
  return info;
}

template <class T>
int syevd(char jobz, char uplo, int n, T* a, int lda, T* w, T* work, int lwork, int* iwork,
          int liwork) {
  int info = 0;
  if constexpr (std::is_same_v<T, float>)
    ssyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, &info);
  else
    dsyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, &info);
  return info;
}

/// `v` as LAPACK's int; ep::value_error past its range, which LAPACK cannot address.
inline int size(std::int64_t v, std::string_view op) {
  if (v > std::numeric_limits<int>::max())
    throw value_error(
        fmt::format("{}: a matrix size past LAPACK's 32-bit int ({}); expected at most {}", op, v,
                    std::numeric_limits<int>::max()));
  return static_cast<int>(v);
}

/// The workspace size that a query (LWORK = -1) returned in WORK(1), rounded up: a float holds a
/// size past 2^24 to 24 bits, which LAPACK before 3.11 may round down.
template <class T>
int workspace(T query, std::string_view op) {
  const double n =
      std::ceil(static_cast<double>(std::nextafter(query, std::numeric_limits<T>::infinity())));
  if (n > std::numeric_limits<int>::max())
    throw value_error(fmt::format(
        "{}: a LAPACK workspace past its 32-bit int ({} elements); expected at most {}", op,
        static_cast<std::int64_t>(std::min(n, 9.0e18)), std::numeric_limits<int>::max()));
  return std::max(static_cast<int>(n), 1);
}

}  // namespace lapack

/// out[j * rows + i] = in[i * cols + j]: the contiguous C-order rows x cols matrix `in` written
/// column-major (or a column-major cols x rows matrix written in C order).
template <class T>
void lapack_transpose(const T* in, std::int64_t rows, std::int64_t cols, T* out) {
  host_transpose_tiled(in, rows, cols, cols, out, rows);
}

/// A workspace of `size` elements left uninitialized: LAPACK writes before it reads them, and
/// zeroing a large one would cost a pass over it.
template <class T>
std::unique_ptr<T[]> lapack_buffer(std::int64_t size) {
  return std::unique_ptr<T[]>(new T[static_cast<std::size_t>(std::max<std::int64_t>(size, 1))]);
}

/// Lowers `first` to `b`: the first failing matrix of a batch whose parts the threads factor.
inline void lapack_report(std::atomic<std::int64_t>& first, std::int64_t b) {
  std::int64_t seen = first.load();
  while (b < seen && !first.compare_exchange_weak(seen, b)) {
  }
}

template <class T>
constexpr T lapack_nan = host_nan<T>;

// The decompositions of ep::omp (B), one LAPACK call per matrix of a C-order stack. A C-order
// m x n matrix is the column-major n x m matrix of its transpose, which LAPACK reads in place where that
// serves (potrf, gesdd, syevd); getrf and geqrf factor column-major copies of the matrices
// themselves, the matrices that Eigen's solvers factor (the same row pivoting, the same Householder
// signs). Each thread of B::parallel_blocks has its own workspace, of the size that one query before
// the loop gave.

/// L with L Lᵀ = x, from x's lower triangle: potrf of the column-major xᵀ, whose upper triangle is
/// x's lower one, with its factor U (xᵀ = Uᵀ U) read in C order as L = Uᵀ. The threads' calls run
/// side by side with OpenBLAS's OpenMP build; its pthread build takes a global lock on every call
/// (see scripts/openblas-openmp).
template <class B, class R>
R lapack_cholesky(const R& x, std::int64_t& failed) {
  using T = typename B::value_type;
  const host_stack_dims d = host_stack(x.shape());
  const std::int64_t batch = d.batch, n = d.n;
  const int ni = lapack::size(n, "cholesky");
  R out(x.shape(), "cholesky");
  std::atomic<std::int64_t> first{batch};
  if (n > 0)
    B::parallel_blocks(batch, [&](std::int64_t lo, std::int64_t hi) {
      for (std::int64_t b = lo; b < hi; ++b) {
        T* l = out.mutable_data() + b * n * n;
        std::copy_n(x.data() + b * n * n, n * n, l);
        if (lapack::potrf('U', ni, l, ni) != 0) {  // INFO > 0: not positive definite
          std::fill_n(l, n * n, lapack_nan<T>);
          lapack_report(first, b);
          continue;
        }
        for (std::int64_t i = 0; i < n; ++i) std::fill(l + i * n + i + 1, l + (i + 1) * n, T(0));
      }
    });
  failed = first < batch ? first.load() : -1;
  return out;
}

/// x with a x = b: getrf of a (column-major copy), getrs on b's columns (a column-major copy).
template <class B, class R>
R lapack_solve(const R& a, const R& rhs, std::int64_t& failed) {
  using T = typename B::value_type;
  const host_stack_dims d = host_stack(a.shape());
  const std::int64_t batch = d.batch, n = d.n;
  const std::int64_t k = rhs.shape().back();
  const int ni = lapack::size(n, "solve"), ki = lapack::size(k, "solve");
  R out(rhs.shape(), "solve");
  std::atomic<std::int64_t> first{batch};
  if (n > 0)
    B::parallel_blocks(batch, [&](std::int64_t lo, std::int64_t hi) {
      const auto lu = lapack_buffer<T>(n * n), x = lapack_buffer<T>(n * k);
      const auto pivots = lapack_buffer<int>(n);
      for (std::int64_t b = lo; b < hi; ++b) {
        T* xb = out.mutable_data() + b * n * k;
        lapack_transpose(a.data() + b * n * n, n, n, lu.get());
        if (lapack::getrf(ni, ni, lu.get(), ni, pivots.get()) != 0) {  // a zero pivot
          std::fill_n(xb, n * k, lapack_nan<T>);
          lapack_report(first, b);
          continue;
        }
        if (k == 0) continue;
        lapack_transpose(rhs.data() + b * n * k, n, k, x.get());
        lapack::getrs('N', ni, ki, lu.get(), ni, pivots.get(), x.get(), ni);
        lapack_transpose(x.get(), k, n, xb);
      }
    });
  failed = first < batch ? first.load() : -1;
  return out;
}

/// op(a) x = b by BLAS's trsm on the C-order matrices as they are (CblasRowMajor), b copied into
/// the output and solved in place; an exact zero on a's diagonal is a singular matrix, as LAPACK's
/// trtrs reports it (trsm itself checks nothing).
template <class B, class R>
R lapack_triangular_solve(const R& a, const R& rhs, bool upper, bool transpose, bool unit_diagonal,
                          std::int64_t& failed) {
  const host_stack_dims d = host_stack(a.shape());
  const std::int64_t batch = d.batch, n = d.n;
  const std::int64_t k = rhs.shape().back();
  static_cast<void>(lapack::size(n, "solve_triangular"));  // n and k fit BLAS's int, or throw
  static_cast<void>(lapack::size(k, "solve_triangular"));
  R out(rhs.shape(), "solve_triangular");
  std::atomic<std::int64_t> first{batch};
  if (n > 0)
    B::parallel_blocks(batch, [&](std::int64_t lo, std::int64_t hi) {
      for (std::int64_t b = lo; b < hi; ++b)
        if (!cblas_triangular_solve(a.data() + b * n * n, rhs.data() + b * n * k,
                                    out.mutable_data() + b * n * k, n, k, upper, transpose,
                                    unit_diagonal))
          lapack_report(first, b);
    });
  failed = first < batch ? first.load() : -1;
  return out;
}

/// {Q, R}: geqrf of x (column-major copy, with room for Q's m columns when complete), then orgqr
/// forms Q's columns in place from the reflectors.
template <class B, class R>
std::pair<R, R> lapack_qr(const R& x, bool complete) {
  using T = typename B::value_type;
  const host_stack_dims d = host_stack(x.shape());
  const std::int64_t batch = d.batch, m = d.m, n = d.n;
  const std::int64_t k = std::min(m, n), kq = complete ? m : k;
  R q(host_stack_shape(x.shape(), m, kq), "qr"), r(host_stack_shape(x.shape(), kq, n), "qr");
  if (batch == 0 || m == 0) return {q, r};
  if (k == 0) {  // no reflectors: Q is the identity, R is empty
    for (std::int64_t b = 0; b < batch; ++b)
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < kq; ++j) q.mutable_data()[(b * m + i) * kq + j] = T(i == j);
    return {q, r};
  }
  const int mi = lapack::size(m, "qr"), ni = lapack::size(n, "qr"), ki = lapack::size(k, "qr"),
            kqi = lapack::size(kq, "qr");
  T query_qr = 0, query_q = 0, unused = 0;
  lapack::geqrf(mi, ni, &unused, mi, &unused, &query_qr, -1);
  lapack::orgqr(mi, kqi, ki, &unused, mi, &unused, &query_q, -1);
  const int lwork = std::max(lapack::workspace(query_qr, "qr"), lapack::workspace(query_q, "qr"));
  B::parallel_blocks(batch, [&](std::int64_t lo, std::int64_t hi) {
    const auto a = lapack_buffer<T>(m * std::max(n, kq)), tau = lapack_buffer<T>(k),
               work = lapack_buffer<T>(lwork);
    for (std::int64_t b = lo; b < hi; ++b) {
      lapack_transpose(x.data() + b * m * n, m, n, a.get());
      lapack::geqrf(mi, ni, a.get(), mi, tau.get(), work.get(), lwork);
      T* rb = r.mutable_data() + b * kq * n;  // R: a's first kq rows, below the diagonal 0
      host_transpose_tiled(a.get(), n, kq, m, rb, n);
      for (std::int64_t i = 1; i < kq; ++i) std::fill_n(rb + i * n, std::min(i, n), T(0));
      lapack::orgqr(mi, kqi, ki, a.get(), mi, tau.get(), work.get(), lwork);
      lapack_transpose(a.get(), kq, m, q.mutable_data() + b * m * kq);
    }
  });
  return {q, r};
}

/// The n x n identity at `p`: the full U or Vh of a matrix without singular values.
template <class T>
void lapack_identity(T* p, std::int64_t n) {
  for (std::int64_t i = 0; i < n * n; ++i) p[i] = T(i % (n + 1) == 0);
}

/// {U, S, Vh}, or S alone (U and Vh empty) without `vectors`. gesdd of the column-major xᵀ (n x m,
/// a copy, as gesdd overwrites it): xᵀ = U' S V'ᵀ, so x = V' S U'ᵀ, and the column-major V'ᵀ and
/// U' it writes are, in C order, x's U and Vh.
template <class B, class R>
std::tuple<R, R, R> lapack_svd(const R& x, bool full, bool vectors) {
  using T = typename B::value_type;
  const host_stack_dims d = host_stack(x.shape());
  const std::int64_t batch = d.batch, m = d.m, n = d.n;
  const std::int64_t k = std::min(m, n), ku = full ? m : k, kv = full ? n : k;
  R s(host_stack_shape(x.shape(), k), "svd"), u, vh;
  if (vectors) {
    u = R(host_stack_shape(x.shape(), m, ku), "svd");
    vh = R(host_stack_shape(x.shape(), kv, n), "svd");
  }
  if (batch == 0) return {u, s, vh};
  if (k == 0) {  // no singular values; full U and Vh are identities
    if (vectors && full)
      for (std::int64_t b = 0; b < batch; ++b) {
        lapack_identity(u.mutable_data() + b * m * m, m);
        lapack_identity(vh.mutable_data() + b * n * n, n);
      }
    return {u, s, vh};
  }
  const char jobz = !vectors ? 'N' : full ? 'A' : 'S';
  const int mi = lapack::size(m, "svd"), ni = lapack::size(n, "svd");
  // LDU and LDVT must be at least 1 also where gesdd does not reference U and VT.
  const int ldu = vectors ? ni : 1, ldvt = vectors ? lapack::size(ku, "svd") : 1;
  T query = 0, unused = 0;
  int iunused = 0;
  lapack::gesdd(jobz, ni, mi, &unused, ni, &unused, &unused, ldu, &unused, ldvt, &query, -1,
                &iunused);
  const int lwork = lapack::workspace(query, "svd");
  B::parallel_blocks(batch, [&](std::int64_t lo, std::int64_t hi) {
    const auto a = lapack_buffer<T>(m * n), work = lapack_buffer<T>(lwork);
    const auto iwork = lapack_buffer<int>(8 * k);
    T none = 0;  // U and VT without `vectors`
    for (std::int64_t b = lo; b < hi; ++b) {
      std::copy_n(x.data() + b * m * n, m * n, a.get());
      T* sb = s.mutable_data() + b * k;
      T* ub = vectors ? u.mutable_data() + b * m * ku : &none;
      T* vb = vectors ? vh.mutable_data() + b * kv * n : &none;
      if (lapack::gesdd(jobz, ni, mi, a.get(), ni, sb, vb, ldu, ub, ldvt, work.get(), lwork,
                        iwork.get()) != 0) {  // INFO > 0: the iteration did not converge
        std::fill_n(sb, k, lapack_nan<T>);
        if (vectors) {
          std::fill_n(ub, m * ku, lapack_nan<T>);
          std::fill_n(vb, kv * n, lapack_nan<T>);
        }
      }
    }
  });
  return {u, s, vh};
}

/// {w, V}: syevd in place on a copy of x, the column-major xᵀ, whose upper triangle ('U') is x's
/// lower one; its eigenvectors are the columns of a column-major array, the rows in C order, so
/// each matrix is transposed in place after.
template <class B, class R>
std::pair<R, R> lapack_eigh(const R& x) {
  using T = typename B::value_type;
  const host_stack_dims d = host_stack(x.shape());
  const std::int64_t batch = d.batch, n = d.n;
  R w(host_stack_shape(x.shape(), n), "eigh"), v(x.shape(), "eigh");
  if (batch == 0 || n == 0) return {w, v};
  const int ni = lapack::size(n, "eigh");
  T query = 0, unused = 0;
  int iquery = 0;
  lapack::syevd('V', 'U', ni, &unused, ni, &unused, &query, -1, &iquery, -1);
  const int lwork = lapack::workspace(query, "eigh"), liwork = std::max(iquery, 1);
  B::parallel_blocks(batch, [&](std::int64_t lo, std::int64_t hi) {
    const auto work = lapack_buffer<T>(lwork);
    const auto iwork = lapack_buffer<int>(liwork);
    for (std::int64_t b = lo; b < hi; ++b) {
      T* vb = v.mutable_data() + b * n * n;
      T* wb = w.mutable_data() + b * n;
      std::copy_n(x.data() + b * n * n, n * n, vb);
      if (lapack::syevd('V', 'U', ni, vb, ni, wb, work.get(), lwork, iwork.get(), liwork) !=
          0) {  // INFO > 0: the iteration did not converge
        std::fill_n(wb, n, lapack_nan<T>);
        std::fill_n(vb, n * n, lapack_nan<T>);
        continue;
      }
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = i + 1; j < n; ++j) std::swap(vb[i * n + j], vb[j * n + i]);
    }
  });
  return {w, v};
}

/// {w, V} complex: geev ('N' for the left eigenvectors) on a column-major copy of each matrix, V's
/// columns of unit norm and largest component real, a real matrix's conjugate pairs unpacked from
/// its real VR (host_geev_unpack); NaN where the QR iteration does not converge. Without
/// `vectors`, V is empty.
template <class B, class R>
auto lapack_eig(const R& x, bool vectors) {
  using T = typename B::value_type;
  using C = std::conditional_t<complex_dtype<T>, T, std::complex<T>>;
  using CR = typename B::template rebind<C>::raw_type;
  using real = typename C::value_type;
  const host_stack_dims d = host_stack(x.shape());
  const std::int64_t batch = d.batch, n = d.n;
  std::pair<CR, CR> out{CR(host_stack_shape(x.shape(), n), "eig"),
                        CR(vectors ? x.shape() : Shape{0}, "eig")};
  CR& w = out.first;
  CR& v = out.second;
  if (batch == 0 || n == 0) return out;
  const int ni = lapack::size(n, "eig");
  const char jobvr = vectors ? 'V' : 'N';
  const int ldvr = vectors ? ni : 1;
  T query = 0, unused = 0;
  if constexpr (complex_dtype<T>) {
    real runused = 0;
    lapack::geev(jobvr, ni, &unused, ni, &unused, &unused, ldvr, &query, -1, &runused);
  } else {
    lapack::geev(jobvr, ni, &unused, ni, &unused, &unused, &unused, ldvr, &query, -1);
  }
  const int lwork = lapack::workspace(static_cast<real>(std::real(query)), "eig");
  B::parallel_blocks(batch, [&](std::int64_t lo, std::int64_t hi) {
    const auto a = lapack_buffer<T>(n * n), work = lapack_buffer<T>(lwork);
    const auto vr = lapack_buffer<T>(vectors ? n * n : 1);
    const auto wr = lapack_buffer<T>(n);
    const auto wi = lapack_buffer<real>(2 * n);
    for (std::int64_t b = lo; b < hi; ++b) {
      C* wb = w.mutable_data() + b * n;
      C* vb = vectors ? v.mutable_data() + b * n * n : nullptr;
      lapack_transpose(x.data() + b * n * n, n, n, a.get());
      int info = 0;
      if constexpr (complex_dtype<T>)
        info =
            lapack::geev(jobvr, ni, a.get(), ni, wb, vr.get(), ldvr, work.get(), lwork, wi.get());
      else
        info = lapack::geev(jobvr, ni, a.get(), ni, wr.get(), wi.get(), vr.get(), ldvr, work.get(),
                            lwork);
      if (info != 0) {  // INFO > 0: the QR iteration did not converge
        std::fill_n(wb, n, lapack_nan<C>);
        if (vectors) std::fill_n(vb, n * n, lapack_nan<C>);
      } else if constexpr (complex_dtype<T>) {
        if (vectors) lapack_transpose(vr.get(), n, n, vb);
      } else {
        host_geev_unpack<T>(n, wr.get(), wi.get(), vr.get(), wb, vb);
      }
    }
  });
  return out;
}

/// {sign, log|det|} from getrf of x (column-major copy): the product of U's diagonal, its sign
/// flipped by each row interchange; {0, -inf} for a zero pivot.
template <class B, class R>
std::pair<R, R> lapack_slogdet(const R& x) {
  using T = typename B::value_type;
  const host_stack_dims d = host_stack(x.shape());
  const std::int64_t batch = d.batch, n = d.n;
  const Shape bs(x.shape().begin(), x.shape().end() - 2);
  R sign(bs, "slogdet"), logabs(bs, "slogdet");
  const int ni = lapack::size(n, "slogdet");
  B::parallel_blocks(batch, [&](std::int64_t lo, std::int64_t hi) {
    const auto lu = lapack_buffer<T>(n * n);
    const auto pivots = lapack_buffer<int>(n);
    for (std::int64_t b = lo; b < hi; ++b) {
      T sg = 1, la = 0;
      lapack_transpose(x.data() + b * n * n, n, n, lu.get());
      if (n > 0 && lapack::getrf(ni, ni, lu.get(), ni, pivots.get()) != 0) {
        sg = 0;
        la = -std::numeric_limits<T>::infinity();
      } else {
        for (std::int64_t i = 0; i < n; ++i) {
          const T d = lu[i * n + i];
          if ((d < 0) != (pivots[i] != i + 1)) sg = -sg;
          la += std::log(std::abs(d));
        }
      }
      sign.mutable_data()[b] = sg;
      logabs.mutable_data()[b] = la;
    }
  });
  return {sign, logabs};
}

}  // namespace ep::detail
