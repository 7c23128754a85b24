// eagerpp - xsimd kernels of the xtensor backend: reductions, cumsum, argmin/argmax, integer matmul
// SPDX-License-Identifier: MIT
#pragma once

// xtensor 0.24's reducers (xt::sum, xt::amax, ...) walk the data with steppers and are not
// vectorized (6-17x slower than Eigen's full sum), and its argmin/argmax ignore NaN, copy through a
// transpose and, for 1-D input, always return the argmin. These kernels replace them, working on
// contiguous row-major data normalized to (outer, reduced, inner).

#include <algorithm>    // std::fill_n, std::copy_n
#include <array>        // std::array
#include <cmath>        // std::abs
#include <cstddef>      // std::size_t, std::ptrdiff_t
#include <cstdint>      // std::int32_t, std::int64_t
#include <type_traits>  // std::is_floating_point_v, std::is_same_v

#include <xsimd/xsimd.hpp>

#include "eagerpp/detail/host_kernels.hpp"

namespace ep::detail::xt_kernels {

/// Element types with an xsimd batch: every dtype but bool.
template <class T>
inline constexpr bool has_batch = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                  std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>;

template <class V>
inline constexpr bool is_scalar = std::is_arithmetic_v<V>;

// Reduction policies: `apply` combines two scalars or two batches; min and max propagate NaN as
// NumPy does (the first operand is the accumulator). NaN tests use xsimd::isnan: xsimd 8.1's AVX
// operator!= compares with _CMP_NEQ_OQ, so `a != a` is false for NaN there (SSE2 gets it right).
struct sum_op {
  static constexpr bool simd = true;
  template <class T>
  static constexpr T identity() {
    return T(0);
  }
  template <class V>
  static V apply(const V& a, const V& b) {
    return a + b;
  }
};

struct prod_op {
  static constexpr bool simd = true;
  template <class T>
  static constexpr T identity() {
    return T(1);
  }
  template <class V>
  static V apply(const V& a, const V& b) {
    return a * b;
  }
};

/// min (Max = false) and max (Max = true): `a` (the accumulator) when it wins against `b` or is NaN.
template <bool Max>
struct extremum_op {
  static constexpr bool simd = true;
  template <class T>
  static constexpr T identity() {
    return T(0);
  }  // never used: min and max over extent 0 are rejected
  template <class V>
  static auto wins(const V& a, const V& b) {
    if constexpr (Max) {
      return a >= b;
    } else {
      return a <= b;
    }
  }
  template <class V>
  static V apply(const V& a, const V& b) {
    if constexpr (is_scalar<V>) {
      if constexpr (std::is_floating_point_v<V>)
        return (wins(a, b) || a != a) ? a : b;
      else
        return wins(a, b) ? a : b;
    } else if constexpr (std::is_floating_point_v<typename V::value_type>) {
      return xsimd::select(wins(a, b) | xsimd::isnan(a), a, b);
    } else if constexpr (Max) {
      return xsimd::max(a, b);
    } else {
      return xsimd::min(a, b);
    }
  }
};
using min_op = extremum_op<false>;
using max_op = extremum_op<true>;

struct all_op {
  static constexpr bool simd = false;
  template <class T>
  static constexpr T identity() {
    return T(1);
  }
  template <class V>
  static V apply(const V& a, const V& b) {
    return static_cast<V>(a != V(0) && b != V(0));
  }
};

struct any_op {
  static constexpr bool simd = false;
  template <class T>
  static constexpr T identity() {
    return T(0);
  }
  template <class V>
  static V apply(const V& a, const V& b) {
    return static_cast<V>(a != V(0) || b != V(0));
  }
};

// Element-wise maps a reduction takes in (detail/fusion.hpp): applied to each scalar or batch as
// it is loaded.
struct identity_map {
  template <class V>
  static V apply(const V& v) {
    return v;
  }
};

struct square_map {
  template <class V>
  static V apply(const V& v) {
    return v * v;
  }
};

struct abs_map {
  template <class V>
  static V apply(const V& v) {
    if constexpr (is_scalar<V>) {
      return static_cast<V>(std::abs(v));
    } else {
      return xsimd::abs(v);
    }
  }
};

/// Op over Map of `n` contiguous elements, n >= 1; vectorized with four independent accumulators.
template <class Op, class Map = identity_map, class T>
T reduce_contiguous(const T* p, std::size_t n) {
  std::size_t i = 0;
  T acc;
  if constexpr (Op::simd && has_batch<T>) {
    using batch = xsimd::batch<T>;
    constexpr std::size_t w = batch::size;
    if (n >= 4 * w) {
      const auto load = [p](std::size_t at) { return Map::apply(batch::load_unaligned(p + at)); };
      batch a0 = load(0), a1 = load(w), a2 = load(2 * w), a3 = load(3 * w);
      for (i = 4 * w; i + 4 * w <= n; i += 4 * w) {
        a0 = Op::apply(a0, load(i));
        a1 = Op::apply(a1, load(i + w));
        a2 = Op::apply(a2, load(i + 2 * w));
        a3 = Op::apply(a3, load(i + 3 * w));
      }
      a0 = Op::apply(Op::apply(a0, a1), Op::apply(a2, a3));
      alignas(64) T lanes[w];
      a0.store_aligned(lanes);
      acc = lanes[0];
      for (std::size_t l = 1; l < w; ++l) acc = Op::apply(acc, lanes[l]);
    } else {
      acc = Map::apply(p[0]);
      i = 1;
    }
  } else {
    acc = Map::apply(p[0]);
    i = 1;
  }
  for (; i < n; ++i) acc = Op::apply(acc, Map::apply(p[i]));
  return acc;
}

/// acc[j] = Op(acc[j], src[j]) for j < n, vectorized.
template <class Op, class T>
void combine_rows(T* acc, const T* src, std::size_t n) {
  std::size_t j = 0;
  if constexpr (Op::simd && has_batch<T>) {
    using batch = xsimd::batch<T>;
    constexpr std::size_t w = batch::size;
    for (; j + w <= n; j += w)
      Op::apply(batch::load_unaligned(acc + j), batch::load_unaligned(src + j)).store_unaligned(acc + j);
  }
  for (; j < n; ++j) acc[j] = Op::apply(acc[j], src[j]);
}

template <class Op>
inline constexpr bool is_extremum = false;
template <bool Max>
inline constexpr bool is_extremum<extremum_op<Max>> = true;

/// out[o, i] = Op over r of in[o, r, i], for a row-major (outer, red, inner) block. A zero min or
/// max gets IEEE's sign (-0.0 < +0.0) afterwards, whatever order the lanes combined in.
template <class Op, class T>
void reduce(const T* in, T* out, std::size_t outer, std::size_t red, std::size_t inner) {
  if (outer * inner == 0) return;
  if (red == 0) {
    std::fill_n(out, outer * inner, Op::template identity<T>());
    return;
  }
  if (inner == 1) {
    for (std::size_t o = 0; o < outer; ++o) out[o] = reduce_contiguous<Op>(in + o * red, red);
  } else {
    for (std::size_t o = 0; o < outer; ++o) {
      T* acc = out + o * inner;
      const T* base = in + o * red * inner;
      std::copy_n(base, inner, acc);
      for (std::size_t r = 1; r < red; ++r) combine_rows<Op>(acc, base + r * inner, inner);
    }
  }
  if constexpr (is_extremum<Op>) {
    const auto s = [](std::size_t v) { return static_cast<std::int64_t>(v); };
    host_fix_zero_extremum<std::is_same_v<Op, max_op>>(in, out, s(outer), s(red), s(inner));
  }
}

/// Running sums along the middle axis of a row-major (outer, len, inner) block.
template <class T>
void cumsum(const T* in, T* out, std::size_t outer, std::size_t len, std::size_t inner) {
  if (outer * len * inner == 0) return;
  for (std::size_t o = 0; o < outer; ++o) {
    const T* src = in + o * len * inner;
    T* dst = out + o * len * inner;
    std::copy_n(src, inner, dst);
    for (std::size_t r = 1; r < len; ++r) {
      std::copy_n(src + r * inner, inner, dst + r * inner);
      combine_rows<sum_op>(dst + r * inner, dst + (r - 1) * inner, inner);
    }
  }
}

/// Index of the first maximum (Max) or minimum along the middle axis; the first NaN wins, as in
/// NumPy.
template <bool Max, class T>
void arg_reduce(const T* in, std::int64_t* out, std::size_t outer, std::size_t red, std::size_t inner) {
  const auto better = [](const T& x, const T& best) {
    bool b;
    if constexpr (Max)
      b = best < x;
    else
      b = x < best;
    if constexpr (std::is_floating_point_v<T>) b = b || (x != x && best == best);
    return b;
  };
  if (outer * inner == 0) return;
  if (red == 0) {
    std::fill_n(out, outer * inner, std::int64_t{0});
    return;
  }
  for (std::size_t o = 0; o < outer; ++o) {
    const T* base = in + o * red * inner;
    std::int64_t* idx = out + o * inner;
    if (inner == 1) {
      T best = base[0];
      std::int64_t k = 0;
      for (std::size_t r = 1; r < red; ++r)
        if (better(base[r], best)) best = base[r], k = static_cast<std::int64_t>(r);
      idx[0] = k;
      continue;
    }
    for (std::size_t j = 0; j < inner; ++j) {
      T best = base[j];
      std::int64_t k = 0;
      for (std::size_t r = 1; r < red; ++r)
        if (better(base[r * inner + j], best)) best = base[r * inner + j], k = static_cast<std::int64_t>(r);
      idx[j] = k;
    }
  }
}

/// C = op(A) op(B) for the element types BLAS does not serve (int32, int64): a plain i-p-j loop over
/// row-major C (n, m), with A, B stored row-major as (n, k) and (k, m), or as (k, n) and (m, k) when
/// transposed (read in place through strides). Float and double go to BLAS (xtensor.hpp).
template <class T>
void int_gemm(const T* a, bool transpose_a, const T* b, bool transpose_b, T* c, std::size_t n, std::size_t k,
              std::size_t m) {
  std::fill_n(c, n * m, T(0));
  const std::size_t a_row = transpose_a ? 1 : k, a_col = transpose_a ? n : 1;
  const std::size_t b_row = transpose_b ? 1 : m, b_col = transpose_b ? k : 1;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t p = 0; p < k; ++p) {
      const T s = a[i * a_row + p * a_col];
      for (std::size_t j = 0; j < m; ++j) c[i * m + j] += s * b[p * b_row + j * b_col];
    }
}

/// Up to `max_dims` extents with one stride per operand, extent-1 dimensions dropped and adjacent
/// dimensions merged where every operand allows it; the last dimension varies fastest.
template <std::size_t Operands, std::size_t MaxDims = 16>
struct strided_loop {
  std::array<std::size_t, MaxDims> shape{};
  std::array<std::array<std::ptrdiff_t, MaxDims>, Operands> strides{};
  std::size_t rank = 0;

  void push(std::size_t extent, const std::array<std::ptrdiff_t, Operands>& s) {
    if (extent == 1) return;
    if (rank > 0) {
      bool merge = true;
      for (std::size_t k = 0; k < Operands; ++k)
        merge = merge && strides[k][rank - 1] == s[k] * static_cast<std::ptrdiff_t>(extent);
      if (merge) {
        shape[rank - 1] *= extent;
        for (std::size_t k = 0; k < Operands; ++k) strides[k][rank - 1] = s[k];
        return;
      }
    }
    shape[rank] = extent;
    for (std::size_t k = 0; k < Operands; ++k) strides[k][rank] = s[k];
    ++rank;
  }

  /// Calls row(offsets, inner_strides, inner_extent) for every row of the last dimension, the
  /// rows in row-major order; offsets are in elements from each operand's base.
  template <class Row>
  void for_each_row(Row&& row) const {
    std::array<std::ptrdiff_t, Operands> off{}, inner{};
    if (rank == 0) {
      row(off, inner, std::size_t{1});
      return;
    }
    for (std::size_t k = 0; k < Operands; ++k) inner[k] = strides[k][rank - 1];
    std::size_t rows = 1;
    for (std::size_t d = 0; d + 1 < rank; ++d) rows *= shape[d];
    std::array<std::size_t, MaxDims> idx{};
    for (std::size_t r = 0; r < rows; ++r) {
      row(off, inner, shape[rank - 1]);
      for (std::size_t d = rank - 1; d-- > 0;) {
        for (std::size_t k = 0; k < Operands; ++k) off[k] += strides[k][d];
        if (++idx[d] < shape[d]) break;
        for (std::size_t k = 0; k < Operands; ++k) off[k] -= strides[k][d] * static_cast<std::ptrdiff_t>(shape[d]);
        idx[d] = 0;
      }
    }
  }
};

/// out (contiguous, row-major, `rank` extents) = the elements of `in` at the given element strides
/// (any sign, 0 for broadcasting): transpose, broadcast_to, flip and slice in one loop.
template <class T>
void strided_copy(const T* in, T* out, const std::size_t* shape, const std::ptrdiff_t* strides, std::size_t rank) {
  std::size_t n = 1;
  for (std::size_t d = 0; d < rank; ++d) n *= shape[d];
  if (n == 0) return;
  strided_loop<1> loop;
  for (std::size_t d = 0; d < rank; ++d) loop.push(shape[d], {strides[d]});
  loop.for_each_row(
      [&](const std::array<std::ptrdiff_t, 1>& off, const std::array<std::ptrdiff_t, 1>& s, std::size_t len) {
        const T* p = in + off[0];
        if (s[0] == 1)
          std::copy_n(p, len, out);
        else if (s[0] == 0)
          std::fill_n(out, len, *p);
        else
          for (std::size_t j = 0; j < len; ++j) out[j] = p[static_cast<std::ptrdiff_t>(j) * s[0]];
        out += len;
      });
}

}  // namespace ep::detail::xt_kernels
