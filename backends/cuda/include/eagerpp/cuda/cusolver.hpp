// eagerpp - ep::cuda's matrix decompositions: cuSOLVER's dense routines and cuBLAS's trsm on each
// matrix of a batch, on ep::cuda_stream()
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>         // std::max, std::min
#include <cstddef>           // std::size_t
#include <cstdint>           // std::int64_t
#include <initializer_list>  // std::initializer_list
#include <limits>            // std::numeric_limits
#include <memory>            // std::shared_ptr, std::unique_ptr
#include <string_view>       // std::string_view
#include <tuple>             // std::tuple
#include <type_traits>       // std::is_same_v
#include <utility>           // std::pair
#include <vector>            // std::vector

#include <cublas_v2.h>   // cublasStrsmBatched, cublasDtrsmBatched
#include <cusolverDn.h>  // cusolverDnHandle_t, cusolverDn{S,D}{potrfBatched,getrf,...}

#include <fmt/format.h>

#include "eagerpp/cuda/runtime.hpp"
#include "eagerpp/cuda/system.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/thrust/cuda_std.hpp"  // ::cuda::std::log, abs, numeric_limits
#include "eagerpp/thrust/system.hpp"

namespace ep::detail {

/// The name of a cuSOLVER status (cuSOLVER has no function that gives it).
inline std::string_view cusolver_status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_NOT_INITIALIZED:
      return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED:
      return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE:
      return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH:
      return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED:
      return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR:
      return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_NOT_SUPPORTED:
      return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default:
      return "status";
  }
}

/// Throws ep::device_error `<op>: cuSOLVER error <name> (<code>)` when `s` is not success.
inline void cusolver_check(cusolverStatus_t s, std::string_view op) {
  if (s != CUSOLVER_STATUS_SUCCESS)
    throw device_error(fmt::format("{}: cuSOLVER error {} ({})", op, cusolver_status_name(s),
                                   static_cast<int>(s)));
}

/// The calling thread's cuSOLVER handle (created on first use, destroyed with the thread, bound to
/// ep::cuda_stream()), as detail::cublas_handle.
inline cusolverDnHandle_t cusolver_handle(std::string_view op) {
  thread_local std::unique_ptr<cusolverDnContext, cusolverStatus_t (*)(cusolverDnHandle_t)> handle(
      nullptr, cusolverDnDestroy);
  if (handle == nullptr) {
    cusolverDnHandle_t h = nullptr;
    cusolver_check(cusolverDnCreate(&h), op);
    handle.reset(h);
  }
  cusolver_check(cusolverDnSetStream(handle.get(), cuda_stream()), op);
  return handle.get();
}

namespace cusolver {

/// The float or the double routine of a pair.
template <class T, class S, class D>
constexpr auto pick(S s, D d) {
  if constexpr (std::is_same_v<T, float>)
    return s;
  else
    return d;
}

/// `v` as cuSOLVER's int; ep::value_error past its range, which its 32-bit API cannot address.
inline int size(std::int64_t v, std::string_view op) {
  if (v > std::numeric_limits<int>::max())
    throw value_error(
        fmt::format("{}: a matrix size past cuSOLVER's 32-bit int ({}); expected at most {}", op, v,
                    std::numeric_limits<int>::max()));
  return static_cast<int>(v);
}

/// The batch size and (m, n) of a C-order stack of m x n matrices.
struct stack_dims {
  std::int64_t batch, m, n;
};
inline stack_dims stack(const Shape& s) {
  return {Shape(s.begin(), s.end() - 2).numel(), s[s.size() - 2], s.back()};
}

/// The shape (..., a, b) of a stack with x's batch axes, or (..., a) with `b` < 0.
inline Shape stack_shape(const Shape& x, std::int64_t a, std::int64_t b = -1) {
  Shape s(x.begin(), x.end() - 2);
  s.push_back(a);
  if (b >= 0) s.push_back(b);
  return s;
}

inline constexpr std::int64_t below = std::numeric_limits<std::int64_t>::min() / 2;
inline constexpr std::int64_t above = std::numeric_limits<std::int64_t>::max() / 2;

/// out[b * out_stride + i * out_row + j] = in[b * in_stride + i * in_row + j * in_col] for the
/// rows x cols matrix of each batch entry b where lo <= j - i <= hi, else 0: one kernel for every
/// change of layout (in_row = 1 reads a column-major matrix, so writes its transpose in C order)
/// and for the triangles of the factors.
template <class T>
struct matrix_copy_fn {
  const T* in;
  T* out;
  std::int64_t rows, cols, in_stride, in_row, in_col, out_stride, out_row, lo, hi;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t t) const {
    const std::int64_t per = rows * cols, b = t / per, r = t % per, i = r / cols, j = r % cols;
    const std::int64_t d = j - i;
    out[b * out_stride + i * out_row + j] =
        d >= lo && d <= hi ? in[b * in_stride + i * in_row + j * in_col] : T(0);
  }
};

/// The rows x cols C-order matrices at `out` (out_stride apart) from the column-major matrices at
/// `in` (columns `ld` apart, in_stride apart): out = the transpose of the C-order view of in. Only
/// the band lo <= j - i <= hi is copied, the rest is 0.
template <class T>
void from_column_major(const T* in, std::int64_t in_stride, std::int64_t ld, T* out,
                       std::int64_t out_stride, std::int64_t batch, std::int64_t rows,
                       std::int64_t cols, std::int64_t lo = below, std::int64_t hi = above) {
  cuda_system::for_n(batch * rows * cols, matrix_copy_fn<T>{in, out, rows, cols, in_stride, 1, ld,
                                                            out_stride, cols, lo, hi});
}

/// The column-major copies (ld = rows, out_stride apart) of C-order rows x cols matrices: the
/// C-order cols x rows transposes.
template <class T>
void to_column_major(const T* in, std::int64_t batch, std::int64_t rows, std::int64_t cols, T* out,
                     std::int64_t out_stride) {
  cuda_system::for_n(batch * rows * cols, matrix_copy_fn<T>{in, out, cols, rows, rows * cols, 1,
                                                            cols, out_stride, rows, below, above});
}

/// The n x n identity in each of `batch` matrices at `out`: the full U or Vh of a matrix without
/// singular values, Q of a matrix without columns.
template <class T>
struct identity_fn {
  T* out;
  std::int64_t rows, cols;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t t) const {
    const std::int64_t r = t % (rows * cols);
    out[t] = T(r / cols == r % cols);
  }
};
template <class T>
void identity(T* out, std::int64_t batch, std::int64_t rows, std::int64_t cols) {
  cuda_system::for_n(batch * rows * cols, identity_fn<T>{out, rows, cols});
}

/// flags[b] = 1 where the n x n matrix b has an exact 0 on its diagonal: a singular triangular
/// matrix, as LAPACK's trtrs reports it (trsm checks nothing).
template <class T>
struct zero_diagonal_fn {
  const T* a;
  int* flags;
  std::int64_t n;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t b) const {
    int zero = 0;
    for (std::int64_t i = 0; i < n; ++i)
      if (a[b * n * n + i * (n + 1)] == T(0)) zero = 1;
    flags[b] = zero;
  }
};

/// {sign, log|det|} of matrix b from getrf's LU (column-major, n x n) and pivots: the product of
/// U's diagonal, its sign flipped by each row interchange; {0, -inf} where getrf met a zero pivot.
template <class T>
struct slogdet_fn {
  const T* lu;
  const int* pivots;
  const int* info;
  T* sign;
  T* logabs;
  std::int64_t n;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t b) const {
    if (info[b] != 0) {
      sign[b] = T(0);
      logabs[b] = -::cuda::std::numeric_limits<T>::infinity();
      return;
    }
    T sg = 1, la = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const T d = lu[b * n * n + i * (n + 1)];
      if ((d < 0) != (pivots[b * n + i] != i + 1)) sg = -sg;
      la += ::cuda::std::log(::cuda::std::abs(d));
    }
    sign[b] = sg;
    logabs[b] = la;
  }
};

/// A device array of `batch` pointers base + b * stride, for the batched routines.
template <class P>
std::shared_ptr<P> pointers(P base, std::int64_t stride, std::int64_t batch, std::string_view op) {
  std::vector<P> host(static_cast<std::size_t>(batch));
  for (std::int64_t b = 0; b < batch; ++b) host[static_cast<std::size_t>(b)] = base + b * stride;
  auto device = device_allocate<P>(static_cast<std::size_t>(batch), op);
  cuda_system::copy(device.get(), host.data(), batch, copy_kind::from_host, op);
  return device;
}

/// `n` ints on the device, zeroed: the `info` of each matrix of a batch.
inline std::shared_ptr<int> infos(std::int64_t n, std::string_view op) {
  auto info = device_allocate<int>(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)), op);
  cuda_check(cudaMemsetAsync(info.get(), 0,
                             static_cast<std::size_t>(std::max<std::int64_t>(n, 1)) * sizeof(int),
                             cuda_stream()),
             op);
  return info;
}

/// A device workspace of `n` elements (at least one).
template <class T>
std::shared_ptr<T> workspace(int n, std::string_view op) {
  return device_allocate<T>(static_cast<std::size_t>(std::max(n, 1)), op);
}

/// A part of an output: `size` elements per matrix of the batch, from `data`.
template <class T>
struct output_part {
  T* data;
  std::int64_t size;
};

/// Reads the `info` of each of `batch` matrices back (synchronizing the stream) and fills the
/// outputs of each matrix whose info is not 0 with NaN, as ep::omp does; returns the first such
/// matrix, or -1. All bytes 0xFF is a quiet NaN in float and in double.
template <class T>
std::int64_t failures(const int* info, std::int64_t batch,
                      std::initializer_list<output_part<T>> outs, std::string_view op) {
  std::vector<int> host(static_cast<std::size_t>(batch));
  cuda_system::copy(host.data(), info, batch, copy_kind::to_host, op);
  std::int64_t first = -1;
  for (std::int64_t b = 0; b < batch; ++b) {
    if (host[static_cast<std::size_t>(b)] == 0) continue;
    if (first < 0) first = b;
    for (const output_part<T>& o : outs)
      if (o.size > 0)
        cuda_check(cudaMemsetAsync(o.data + b * o.size, 0xFF,
                                   static_cast<std::size_t>(o.size) * sizeof(T), cuda_stream()),
                   op);
  }
  return first;
}

/// The LU factorizations (getrf) of `batch` C-order n x n matrices at `in`, into column-major
/// copies at `lu` (n * n apart) with their 1-based pivots at `pivots` (n apart) and each matrix's
/// info at `info`: one call per matrix, cuSOLVER having no batched getrf.
template <class T>
void getrf(const T* in, std::int64_t batch, std::int64_t n, T* lu, int* pivots, int* info,
           std::string_view op) {
  if (n == 0) return;
  const int ni = size(n, op);
  const cusolverDnHandle_t h = cusolver_handle(op);
  to_column_major(in, batch, n, n, lu, n * n);
  int lwork = 0;
  cusolver_check(
      pick<T>(cusolverDnSgetrf_bufferSize, cusolverDnDgetrf_bufferSize)(h, ni, ni, lu, ni, &lwork),
      op);
  const auto work = workspace<T>(lwork, op);
  for (std::int64_t b = 0; b < batch; ++b)
    cusolver_check(pick<T>(cusolverDnSgetrf, cusolverDnDgetrf)(
                       h, ni, ni, lu + b * n * n, ni, work.get(), pivots + b * n, info + b),
                   op);
}

}  // namespace cusolver

// The decompositions of ep::cuda, on C-order stacks in device memory. A C-order m x n matrix is
// the column-major n x m matrix of its transpose, which cuSOLVER reads in place where that serves
// (potrf, gesvdj, syevd, trsm); getrf and geqrf factor column-major copies of the matrices
// themselves, as ep::omp's LAPACK calls do (the same row pivoting, the same Householder signs).
// Routines without a batched form in cuSOLVER run once per matrix, in order on the stream, sharing
// one workspace of the size one query gave.

/// L with L Lᵀ = x, from x's lower triangle: potrfBatched of the column-major xᵀ (a copy), whose
/// upper triangle is x's lower one, with its factor U (xᵀ = Uᵀ U) read in C order as L = Uᵀ; the
/// other triangle, which potrf uses as workspace, is then zeroed.
template <class T>
cuda_array<T> cusolver_cholesky(const cuda_array<T>& x, std::int64_t& failed) {
  constexpr std::string_view op = "cholesky";
  const cusolver::stack_dims d = cusolver::stack(x.shape());
  const std::int64_t batch = d.batch, n = d.n;
  cuda_array<T> out(x.shape(), op);
  failed = -1;
  if (batch == 0 || n == 0) return out;
  const int ni = cusolver::size(n, op), bi = cusolver::size(batch, op);
  return cuda_system::guard(op, [&] {
    T* l = out.mutable_data();
    cuda_system::copy(l, x.data(), batch * n * n, copy_kind::within, op);
    const auto matrices = cusolver::pointers(l, n * n, batch, op);
    const auto info = cusolver::infos(batch, op);
    cusolver_check(
        cusolver::pick<T>(cusolverDnSpotrfBatched, cusolverDnDpotrfBatched)(
            cusolver_handle(op), CUBLAS_FILL_MODE_UPPER, ni, matrices.get(), ni, info.get(), bi),
        op);
    cuda_system::for_n(batch * n * n, cusolver::matrix_copy_fn<T>{l, l, n, n, n * n, n, 1, n * n, n,
                                                                  cusolver::below, 0});
    failed = cusolver::failures<T>(info.get(), batch, {{l, n * n}}, op);
    return out;
  });
}

/// x with a x = b: getrf of a (column-major copy), getrs on b's columns (a column-major copy).
template <class T>
cuda_array<T> cusolver_solve(const cuda_array<T>& a, const cuda_array<T>& rhs,
                             std::int64_t& failed) {
  constexpr std::string_view op = "solve";
  const cusolver::stack_dims d = cusolver::stack(a.shape());
  const std::int64_t batch = d.batch, n = d.n;
  const std::int64_t k = rhs.shape().back();
  cuda_array<T> out(rhs.shape(), op);
  failed = -1;
  if (batch == 0 || n == 0) return out;
  const int ni = cusolver::size(n, op), ki = cusolver::size(k, op);
  return cuda_system::guard(op, [&] {
    const cusolverDnHandle_t h = cusolver_handle(op);
    const auto lu = device_allocate<T>(static_cast<std::size_t>(batch * n * n), op);
    const auto pivots = device_allocate<int>(static_cast<std::size_t>(batch * n), op);
    const auto info = cusolver::infos(batch, op), solve_info = cusolver::infos(1, op);
    cusolver::getrf(a.data(), batch, n, lu.get(), pivots.get(), info.get(), op);
    if (k > 0) {
      const auto x = device_allocate<T>(static_cast<std::size_t>(batch * n * k), op);
      cusolver::to_column_major(rhs.data(), batch, n, k, x.get(), n * k);
      // getrs of a matrix with a zero pivot divides by it: its NaN fill below replaces the result.
      for (std::int64_t b = 0; b < batch; ++b)
        cusolver_check(cusolver::pick<T>(cusolverDnSgetrs, cusolverDnDgetrs)(
                           h, CUBLAS_OP_N, ni, ki, lu.get() + b * n * n, ni, pivots.get() + b * n,
                           x.get() + b * n * k, ni, solve_info.get()),
                       op);
      cusolver::from_column_major(x.get(), n * k, n, out.mutable_data(), n * k, batch, n, k);
    }
    failed = cusolver::failures<T>(info.get(), batch, {{out.mutable_data(), n * k}}, op);
    return out;
  });
}

/// op(a) x = b by cuBLAS's trsmBatched on the C-order matrices as they are: with x's and b's C-order
/// n x k blocks read as their column-major k x n transposes, op(a) x = b is xᵀ op(a)ᵀ = bᵀ, a trsm
/// from the right whose column-major matrix (aᵀ) has a's lower triangle as its upper one. b is
/// copied into the output and solved in place; an exact zero on a's diagonal is a singular matrix.
template <class T>
cuda_array<T> cusolver_triangular_solve(const cuda_array<T>& a, const cuda_array<T>& rhs,
                                        bool upper, bool transpose, bool unit_diagonal,
                                        std::int64_t& failed) {
  constexpr std::string_view op = "solve_triangular";
  const cusolver::stack_dims d = cusolver::stack(a.shape());
  const std::int64_t batch = d.batch, n = d.n;
  const std::int64_t k = rhs.shape().back();
  cuda_array<T> out(rhs.shape(), op);
  failed = -1;
  if (batch == 0 || n == 0) return out;
  const int ni = cusolver::size(n, op), ki = cusolver::size(k, op), bi = cusolver::size(batch, op);
  return cuda_system::guard(op, [&] {
    T* x = out.mutable_data();
    cuda_system::copy(x, rhs.data(), batch * n * k, copy_kind::within, op);
    if (k > 0) {
      const auto as = cusolver::pointers(a.data(), n * n, batch, op);
      const auto xs = cusolver::pointers(x, n * k, batch, op);
      const T one = 1;
      cublas_check(cusolver::pick<T>(cublasStrsmBatched, cublasDtrsmBatched)(
                       cublas_handle(op), CUBLAS_SIDE_RIGHT,
                       upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
                       transpose ? CUBLAS_OP_T : CUBLAS_OP_N,
                       unit_diagonal ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, ki, ni, &one,
                       as.get(), ni, xs.get(), ki, bi),
                   op);
    }
    if (!unit_diagonal) {
      const auto flags = cusolver::infos(batch, op);
      cuda_system::for_n(batch, cusolver::zero_diagonal_fn<T>{a.data(), flags.get(), n});
      failed = cusolver::failures<T>(flags.get(), batch, {{x, n * k}}, op);
    }
    return out;
  });
}

/// {Q, R}: geqrf of x (column-major copy, with room for Q's m columns when complete), R read from
/// it, then orgqr forms Q's columns in place from the reflectors.
template <class T>
std::pair<cuda_array<T>, cuda_array<T>> cusolver_qr(const cuda_array<T>& x, bool complete) {
  constexpr std::string_view op = "qr";
  const cusolver::stack_dims d = cusolver::stack(x.shape());
  const std::int64_t batch = d.batch, m = d.m, n = d.n;
  const std::int64_t k = std::min(m, n), kq = complete ? m : k;
  cuda_array<T> q(cusolver::stack_shape(x.shape(), m, kq), op),
      r(cusolver::stack_shape(x.shape(), kq, n), op);
  if (batch == 0 || m == 0) return {q, r};
  return cuda_system::guard(op, [&]() -> std::pair<cuda_array<T>, cuda_array<T>> {
    if (k == 0) {  // no reflectors: Q is the identity, R is empty
      cusolver::identity(q.mutable_data(), batch, m, kq);
      return {q, r};
    }
    const int mi = cusolver::size(m, op), ni = cusolver::size(n, op), ki = cusolver::size(k, op),
              kqi = cusolver::size(kq, op);
    const std::int64_t stride = m * std::max(n, kq);
    const cusolverDnHandle_t h = cusolver_handle(op);
    const auto a = device_allocate<T>(static_cast<std::size_t>(batch * stride), op);
    const auto tau = device_allocate<T>(static_cast<std::size_t>(batch * k), op);
    const auto info = cusolver::infos(1, op);
    cusolver::to_column_major(x.data(), batch, m, n, a.get(), stride);
    int lwork_qr = 0, lwork_q = 0;
    cusolver_check(cusolver::pick<T>(cusolverDnSgeqrf_bufferSize, cusolverDnDgeqrf_bufferSize)(
                       h, mi, ni, a.get(), mi, &lwork_qr),
                   op);
    cusolver_check(cusolver::pick<T>(cusolverDnSorgqr_bufferSize, cusolverDnDorgqr_bufferSize)(
                       h, mi, kqi, ki, a.get(), mi, tau.get(), &lwork_q),
                   op);
    const int lwork = std::max(lwork_qr, lwork_q);
    const auto work = cusolver::workspace<T>(lwork, op);
    for (std::int64_t b = 0; b < batch; ++b)
      cusolver_check(cusolver::pick<T>(cusolverDnSgeqrf, cusolverDnDgeqrf)(
                         h, mi, ni, a.get() + b * stride, mi, tau.get() + b * k, work.get(), lwork,
                         info.get()),
                     op);
    // R: the first kq rows of the column-major factor, 0 below the diagonal.
    cusolver::from_column_major(a.get(), stride, m, r.mutable_data(), kq * n, batch, kq, n, 0);
    for (std::int64_t b = 0; b < batch; ++b)
      cusolver_check(cusolver::pick<T>(cusolverDnSorgqr, cusolverDnDorgqr)(
                         h, mi, kqi, ki, a.get() + b * stride, mi, tau.get() + b * k, work.get(),
                         lwork, info.get()),
                     op);
    cusolver::from_column_major(a.get(), stride, m, q.mutable_data(), m * kq, batch, m, kq);
    return {q, r};
  });
}

/// {U, S, Vh}, or S alone (U and Vh empty) without `vectors`: gesvdj (Jacobi, sorted descending)
/// of the column-major xᵀ (n x m, a copy, as gesvdj overwrites it): xᵀ = U' S V'ᵀ, so x = V' S U'ᵀ;
/// the column-major U' it writes is, in C order, x's Vh, and its column-major V' is transposed into
/// x's U. A matrix on which the iteration does not converge gets NaN, as ep::omp's gesdd.
template <class T>
std::tuple<cuda_array<T>, cuda_array<T>, cuda_array<T>> cusolver_svd(const cuda_array<T>& x,
                                                                     bool full, bool vectors) {
  constexpr std::string_view op = "svd";
  using result = std::tuple<cuda_array<T>, cuda_array<T>, cuda_array<T>>;
  const cusolver::stack_dims d = cusolver::stack(x.shape());
  const std::int64_t batch = d.batch, m = d.m, n = d.n;
  const std::int64_t k = std::min(m, n), ku = full ? m : k, kv = full ? n : k;
  cuda_array<T> s(cusolver::stack_shape(x.shape(), k), op), u, vh;
  if (vectors) {
    u = cuda_array<T>(cusolver::stack_shape(x.shape(), m, ku), op);
    vh = cuda_array<T>(cusolver::stack_shape(x.shape(), kv, n), op);
  }
  if (batch == 0) return {u, s, vh};
  return cuda_system::guard(op, [&]() -> result {
    if (k == 0) {  // no singular values; full U and Vh are identities
      if (vectors && full) {
        cusolver::identity(u.mutable_data(), batch, m, m);
        cusolver::identity(vh.mutable_data(), batch, n, n);
      }
      return {u, s, vh};
    }
    const int mi = cusolver::size(m, op), ni = cusolver::size(n, op);
    const cusolverDnHandle_t h = cusolver_handle(op);
    const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    const int econ = full ? 0 : 1;
    gesvdjInfo_t params_raw = nullptr;
    cusolver_check(cusolverDnCreateGesvdjInfo(&params_raw), op);
    const std::unique_ptr<gesvdjInfo, cusolverStatus_t (*)(gesvdjInfo_t)> params(
        params_raw, cusolverDnDestroyGesvdjInfo);
    const auto a = device_allocate<T>(static_cast<std::size_t>(batch * m * n), op);
    cuda_system::copy(a.get(), x.data(), batch * m * n, copy_kind::within, op);
    // U' (n x kv) and V' (m x ku) of every matrix; without `vectors` gesvdj does not write them,
    // and one matrix's room serves the whole batch.
    const std::int64_t count = vectors ? batch : 1;
    const auto v_prime = device_allocate<T>(static_cast<std::size_t>(count * m * ku), op);
    const auto u_scratch =
        vectors ? std::shared_ptr<T>() : device_allocate<T>(static_cast<std::size_t>(n * kv), op);
    T* const u_prime = vectors ? vh.mutable_data() : u_scratch.get();
    const std::int64_t u_step = vectors ? kv * n : 0, v_step = vectors ? m * ku : 0;
    const auto info = cusolver::infos(batch, op);
    int lwork = 0;
    cusolver_check(cusolver::pick<T>(cusolverDnSgesvdj_bufferSize, cusolverDnDgesvdj_bufferSize)(
                       h, jobz, econ, ni, mi, a.get(), ni, s.mutable_data(), u_prime, ni,
                       v_prime.get(), mi, &lwork, params.get()),
                   op);
    const auto work = cusolver::workspace<T>(lwork, op);
    for (std::int64_t b = 0; b < batch; ++b)
      cusolver_check(cusolver::pick<T>(cusolverDnSgesvdj, cusolverDnDgesvdj)(
                         h, jobz, econ, ni, mi, a.get() + b * m * n, ni, s.mutable_data() + b * k,
                         u_prime + b * u_step, ni, v_prime.get() + b * v_step, mi, work.get(),
                         lwork, info.get() + b, params.get()),
                     op);
    if (vectors) {
      cusolver::from_column_major(v_prime.get(), m * ku, m, u.mutable_data(), m * ku, batch, m, ku);
      cusolver::failures<T>(
          info.get(), batch,
          {{s.mutable_data(), k}, {u.mutable_data(), m * ku}, {vh.mutable_data(), kv * n}}, op);
    } else {
      cusolver::failures<T>(info.get(), batch, {{s.mutable_data(), k}}, op);
    }
    return {u, s, vh};
  });
}

/// {w, V}: syevd on a copy of x, the column-major xᵀ, whose upper triangle is x's lower one; its
/// eigenvectors are the columns of a column-major array, transposed into V's C order.
template <class T>
std::pair<cuda_array<T>, cuda_array<T>> cusolver_eigh(const cuda_array<T>& x) {
  constexpr std::string_view op = "eigh";
  const cusolver::stack_dims d = cusolver::stack(x.shape());
  const std::int64_t batch = d.batch, n = d.n;
  cuda_array<T> w(cusolver::stack_shape(x.shape(), n), op), v(x.shape(), op);
  if (batch == 0 || n == 0) return {w, v};
  const int ni = cusolver::size(n, op);
  return cuda_system::guard(op, [&]() -> std::pair<cuda_array<T>, cuda_array<T>> {
    const cusolverDnHandle_t h = cusolver_handle(op);
    const auto a = device_allocate<T>(static_cast<std::size_t>(batch * n * n), op);
    cuda_system::copy(a.get(), x.data(), batch * n * n, copy_kind::within, op);
    const auto info = cusolver::infos(batch, op);
    int lwork = 0;
    cusolver_check(cusolver::pick<T>(cusolverDnSsyevd_bufferSize, cusolverDnDsyevd_bufferSize)(
                       h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, ni, a.get(), ni,
                       w.mutable_data(), &lwork),
                   op);
    const auto work = cusolver::workspace<T>(lwork, op);
    for (std::int64_t b = 0; b < batch; ++b)
      cusolver_check(
          cusolver::pick<T>(cusolverDnSsyevd, cusolverDnDsyevd)(
              h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, ni, a.get() + b * n * n, ni,
              w.mutable_data() + b * n, work.get(), lwork, info.get() + b),
          op);
    cusolver::from_column_major(a.get(), n * n, n, v.mutable_data(), n * n, batch, n, n);
    cusolver::failures<T>(info.get(), batch, {{w.mutable_data(), n}, {v.mutable_data(), n * n}},
                          op);
    return {w, v};
  });
}

/// {sign, log|det|} from getrf of x (column-major copy), on the device (cusolver::slogdet_fn).
template <class T>
std::pair<cuda_array<T>, cuda_array<T>> cusolver_slogdet(const cuda_array<T>& x) {
  constexpr std::string_view op = "slogdet";
  const cusolver::stack_dims d = cusolver::stack(x.shape());
  const std::int64_t batch = d.batch, n = d.n;
  const Shape bs(x.shape().begin(), x.shape().end() - 2);
  cuda_array<T> sign(bs, op), logabs(bs, op);
  if (batch == 0) return {sign, logabs};
  return cuda_system::guard(op, [&]() -> std::pair<cuda_array<T>, cuda_array<T>> {
    const auto lu = device_allocate<T>(static_cast<std::size_t>(batch * n * n), op);
    const auto pivots = device_allocate<int>(static_cast<std::size_t>(batch * n), op);
    const auto info = cusolver::infos(batch, op);
    cusolver::getrf(x.data(), batch, n, lu.get(), pivots.get(), info.get(), op);
    cuda_system::for_n(
        batch, cusolver::slogdet_fn<T>{lu.get(), pivots.get(), info.get(), sign.mutable_data(),
                                       logabs.mutable_data(), n});
    return {sign, logabs};
  });
}

}  // namespace ep::detail
