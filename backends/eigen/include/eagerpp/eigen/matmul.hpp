// eagerpp - the Eigen backend's matrix products: Eigen's GEMM and GEMV kernels called directly
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::copy_n, std::fill_n, std::transform
#include <cstdint>      // std::int64_t
#include <type_traits>  // std::is_same_v
#include <vector>       // std::vector

#include <Eigen/Core>

#include "eagerpp/eigen/array.hpp"
#include "eagerpp/eigen/kernels.hpp"
#include "eagerpp/shape.hpp"

namespace ep::detail {

/// c = op(A) op(B) of inner extent k == 1, an outer product: each row of c is a[i] times b's one
/// row, written once (the kernels would zero c, pack both operands and run on a depth of one).
/// Per-example gradients of a dense layer under ep::vmap are a batch of these.
template <class T>
[[gnu::always_inline]] inline void eigen_outer_product(const T* a, const T* b, T* c, Eigen::Index n,
                                                       Eigen::Index m) {
  for (Eigen::Index i = 0; i < n; ++i) {
    const T ai = a[i];  // op(A) is (n, 1): a's elements in order, stored transposed or not
    T* crow = c + i * m;
    for (Eigen::Index j = 0; j < m; ++j) crow[j] = ai * b[j];  // op(B) is (1, m): b's elements
  }
}

/// c = op(A) b of a tiny product whose rows of M <= 4 elements are held in registers: the row
/// length M is a template argument, and so is the inner extent K up to 4 (0: k at run time), so
/// that the loops unroll into K multiply-adds of whole rows instead of a loop the compiler
/// vectorizes across p. op(A)'s element (i, p) is a[i * ai + p * ap].
template <Eigen::Index K, Eigen::Index M, class T>
[[gnu::always_inline]] inline void eigen_tiny_rows(const T* a, Eigen::Index ai, Eigen::Index ap,
                                                   const T* b, T* c, Eigen::Index n,
                                                   Eigen::Index k) {
  const Eigen::Index kk = K == 0 ? k : K;
  for (Eigen::Index i = 0; i < n; ++i) {
    T row[M]{};
    for (Eigen::Index p = 0; p < kk; ++p) {
      const T aip = a[i * ai + p * ap];
      for (Eigen::Index j = 0; j < M; ++j) row[j] += aip * b[p * M + j];
    }
    std::copy_n(row, M, c + i * M);
  }
}

/// eigen_tiny_rows with the row length M and k's template argument picked by a switch.
template <Eigen::Index M, class T>
[[gnu::always_inline]] inline void eigen_tiny_rows_of(const T* a, Eigen::Index ai, Eigen::Index ap,
                                                      const T* b, T* c, Eigen::Index n,
                                                      Eigen::Index k) {
  switch (k) {
    case 1:
      return eigen_tiny_rows<1, M>(a, ai, ap, b, c, n, k);
    case 2:
      return eigen_tiny_rows<2, M>(a, ai, ap, b, c, n, k);
    case 3:
      return eigen_tiny_rows<3, M>(a, ai, ap, b, c, n, k);
    case 4:
      return eigen_tiny_rows<4, M>(a, ai, ap, b, c, n, k);
    default:
      return eigen_tiny_rows<0, M>(a, ai, ap, b, c, n, k);
  }
}

/// c = op(A) op(B) of a tiny product (n + k + m below Eigen's coefficient-based threshold), a loop
/// as Eigen's expression does: the kernels' packing would cost more. Each c[i][j] sums
/// a[i][p] b[p][j] over p in order; with b's rows contiguous (not tb), row i of c accumulates
/// whole rows of b, so that the inner loop vectorizes.
template <class T>
[[gnu::always_inline]] inline void eigen_tiny_gemm(const T* a, bool ta, const T* b, bool tb, T* c,
                                                   Eigen::Index n, Eigen::Index k, Eigen::Index m) {
  using Eigen::Index;
  const Index ai = ta ? 1 : k, ap = ta ? n : 1, bp = tb ? 1 : m, bj = tb ? k : 1;
  if (!tb) {
    switch (m) {
      case 1:
        return eigen_tiny_rows_of<1>(a, ai, ap, b, c, n, k);
      case 2:
        return eigen_tiny_rows_of<2>(a, ai, ap, b, c, n, k);
      case 3:
        return eigen_tiny_rows_of<3>(a, ai, ap, b, c, n, k);
      case 4:
        return eigen_tiny_rows_of<4>(a, ai, ap, b, c, n, k);
      default:
        break;
    }
    std::fill_n(c, n * m, T{0});
    for (Index i = 0; i < n; ++i)
      for (Index p = 0; p < k; ++p) {
        const T aip = a[i * ai + p * ap];
        const T* brow = b + p * m;
        T* crow = c + i * m;
        for (Index j = 0; j < m; ++j) crow[j] += aip * brow[j];
      }
    return;
  }
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < m; ++j) {
      T sum{0};
      for (Index p = 0; p < k; ++p) sum += a[i * ai + p * ap] * b[p * bp + j * bj];
      c[i * m + j] = sum;
    }
}

/// out += lhs v, a matrix times a contiguous vector into the contiguous `out` by Eigen's GEMV
/// kernel: the (rows, cols) matrix `lhs`, stored row-major with leading dimension `ld` or
/// column-major (its transpose row-major).
template <class T>
[[gnu::always_inline]] inline void eigen_gemv(const T* lhs, bool row_major, Eigen::Index ld,
                                              Eigen::Index rows, Eigen::Index cols, const T* v,
                                              T* out) {
  namespace ei = Eigen::internal;
  using Eigen::ColMajor;
  using Eigen::Index;
  using Eigen::RowMajor;
  if (row_major) {
    ei::general_matrix_vector_product<
        Index, T, ei::const_blas_data_mapper<T, Index, RowMajor>, RowMajor, false, T,
        ei::const_blas_data_mapper<T, Index, ColMajor>, false>::run(rows, cols, {lhs, ld}, {v, 1},
                                                                    out, 1, T{1});
  } else {
    ei::general_matrix_vector_product<
        Index, T, ei::const_blas_data_mapper<T, Index, ColMajor>, ColMajor, false, T,
        ei::const_blas_data_mapper<T, Index, RowMajor>, false>::run(rows, cols, {lhs, ld}, {v, 1},
                                                                    out, 1, T{1});
  }
}

/// c += op(A) op(B) by Eigen's GEMM kernel, column-major: c^T (m, n) = op(B)^T (m, k) op(A)^T
/// (k, n), op(B)^T being b as stored (row-major) when tb, else its transpose (column-major), and
/// the same for op(A)^T: LhsOrder and RhsOrder. Through Eigen's parallelize_gemm, as the
/// expression goes: with OpenMP, Eigen's threads share the product.
template <int LhsOrder, int RhsOrder, class T>
void eigen_gemm_kernel(const T* a, const T* b, T* c, Eigen::Index n, Eigen::Index k,
                       Eigen::Index m) {
  namespace ei = Eigen::internal;
  using Eigen::ColMajor;
  using Eigen::Index;
  using blocking_type =
      ei::gemm_blocking_space<ColMajor, T, T, Eigen::Dynamic, Eigen::Dynamic, Eigen::Dynamic>;
  using lhs_map = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, LhsOrder>>;
  using rhs_map = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, RhsOrder>>;
  using product =
      ei::general_matrix_matrix_product<Index, T, LhsOrder, false, T, RhsOrder, false, ColMajor, 1>;
  blocking_type blocking(m, n, k, 1, true);
  Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, ColMajor>> dest(c, m, n);
  const lhs_map lhs(b, m, k);
  const rhs_map rhs(a, k, n);
  ei::parallelize_gemm<true>(
      ei::gemm_functor<T, Index, product, lhs_map, rhs_map, decltype(dest), blocking_type>(
          lhs, rhs, dest, T{1}, blocking),
      m, n, k, false);
}

/// C = op(A) op(B) into the row-major (n, m) `c`, where op(A) is (n, k) and op(B) is (k, m), each
/// a row-major block as stored or its transpose: Eigen's own GEMM and GEMV kernels, called directly
/// with the storage order each operand has. That is what Eigen's product expression ends in after
/// it has chosen among them; the expression instantiates all of its paths (GEMM, two GEMVs, a
/// coefficient loop) once per transposition, for the same kernels, so calling them directly
/// compiles faster (the compile_time benchmark, docs/benchmarks.md).
/// With EIGEN_USE_BLAS these templates are Eigen's BLAS specializations, as the expression's are.
template <class T>
void eigen_gemm(const T* a, bool ta, const T* b, bool tb, T* c, Eigen::Index n, Eigen::Index k,
                Eigen::Index m) {
  using Eigen::ColMajor;
  using Eigen::RowMajor;
  if (k == 1) return eigen_outer_product(a, b, c, n, m);
  if (n + k + m < EIGEN_GEMM_TO_COEFFBASED_THRESHOLD)
    return eigen_tiny_gemm(a, ta, b, tb, c, n, k, m);
  std::fill_n(c, n * m, T{0});                                    // the kernels accumulate into c
  if (m == 1) return eigen_gemv(a, !ta, ta ? n : k, n, k, b, c);  // c = op(A) b
  if (n == 1) return eigen_gemv(b, tb, tb ? k : m, m, k, a, c);   // c^T = op(B)^T a^T
  if (tb) {
    if (ta) return eigen_gemm_kernel<RowMajor, RowMajor>(a, b, c, n, k, m);
    return eigen_gemm_kernel<RowMajor, ColMajor>(a, b, c, n, k, m);
  }
  if (ta) return eigen_gemm_kernel<ColMajor, RowMajor>(a, b, c, n, k, m);
  eigen_gemm_kernel<ColMajor, ColMajor>(a, b, c, n, k, m);
}

/// op(a) op(b) of one (n, k) by (k, m) product, n, k, m > 0, in a result of its own: a function of
/// its own so that the result is constructed in the caller's place, not moved there.
template <class T>
eigen_array<T> eigen_matrix_product(const T* a, bool ta, const T* b, bool tb, std::int64_t n,
                                    std::int64_t k, std::int64_t m) {
  eigen_array<T> result(Shape{n, m});
  eigen_gemm(a, ta, b, tb, result.mutable_data(), n, k, m);
  return result;
}

/// Batched matrix product op(a) op(b) with Eigen's GEMM (eigen_gemm) on each 2-D block; a
/// transposed operand is read in place.
template <class T>
eigen_array<T> eigen_matmul(const eigen_array<T>& a, const eigen_array<T>& b, bool transpose_a,
                            bool transpose_b) {
  const Shape& sa = a.shape();
  const Shape& sb = b.shape();
  const int r = sa.size();
  const std::int64_t n = sa[r - (transpose_a ? 1 : 2)], k = sa[r - (transpose_a ? 2 : 1)];
  const std::int64_t m = sb[r - (transpose_b ? 2 : 1)];
  if constexpr (!std::is_same_v<T, bool>) {
    // One matrix: no batch to walk (a small product's fixed cost).
    if (r == 2 && n * m > 0 && k > 0)
      return eigen_matrix_product(a.data(), transpose_a, b.data(), transpose_b, n, k, m);
  }
  Shape out_shape = sa;
  out_shape[r - 2] = n;
  out_shape[r - 1] = m;
  if (out_shape.numel() == 0) return eigen_array<T>(out_shape);
  if (k == 0) return eigen_full(out_shape, T{0});
  const std::int64_t batch = eigen_product(sa, 0, r - 2);
  eigen_array<T> result(out_shape);
  T* out = result.mutable_data();
  if constexpr (std::is_same_v<T, bool>) {
    // NumPy's bool matmul is the OR of ANDs: a positive count of true products.
    const std::vector<float> fa(a.data(), a.data() + a.size()), fb(b.data(), b.data() + b.size());
    std::vector<float> count(static_cast<std::size_t>(n * m));
    for (std::int64_t i = 0; i < batch; ++i) {
      eigen_gemm(fa.data() + i * n * k, transpose_a, fb.data() + i * k * m, transpose_b,
                 count.data(), n, k, m);
      std::transform(count.begin(), count.end(), out + i * n * m, [](float v) { return v > 0; });
    }
  } else {
    for (std::int64_t i = 0; i < batch; ++i)
      eigen_gemm(a.data() + i * n * k, transpose_a, b.data() + i * k * m, transpose_b,
                 out + i * n * m, n, k, m);
  }
  return result;
}

}  // namespace ep::detail
