// eagerpp - the loops of the xtensor backend: element-wise maps, reductions, strided copies, ...
// SPDX-License-Identifier: MIT
#pragma once

// xtensor 0.24's reducers (xt::sum, xt::amax, ...) walk the data with steppers and are not
// vectorized (several times slower than Eigen's sum), and its argmin/argmax ignore NaN, copy
// through a transpose and, for 1-D input, always return the argmin. These kernels replace them,
// working on contiguous row-major data normalized to (outer, reduced, inner).

// First: it configures xsimd before any xtensor header.
#include "eagerpp/xtensor/array.hpp"

#include <algorithm>    // std::fill_n, std::copy_n
#include <array>        // std::array
#include <cmath>        // std::abs
#include <cstddef>      // std::size_t, std::ptrdiff_t
#include <cstdint>      // std::int32_t, std::int64_t
#include <span>         // std::span
#include <tuple>        // std::tuple, std::apply
#include <type_traits>  // std::is_floating_point_v, std::conditional_t, std::remove_cvref_t

#include <xsimd/xsimd.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xoperation.hpp>

#include "eagerpp/detail/fusion.hpp"
#include "eagerpp/host/host_kernels.hpp"
#include "eagerpp/shape.hpp"

namespace ep::detail::xt_kernels {

/// Element types with xsimd batch kernels here: float, double, int32 and int64 (the 8- and 16-bit
/// and the unsigned integers take the scalar loops).
template <class T>
inline constexpr bool has_batch =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, std::int32_t> ||
    std::is_same_v<T, std::int64_t>;

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

/// min (Max = false) and max (Max = true): `a` (the accumulator) when it wins against `b` or is
/// NaN.
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
    if constexpr (std::is_unsigned_v<V>) {
      return v;  // std::abs has no unsigned overload
    } else if constexpr (is_scalar<V>) {
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
      Op::apply(batch::load_unaligned(acc + j), batch::load_unaligned(src + j))
          .store_unaligned(acc + j);
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
void arg_reduce(const T* in, std::int64_t* out, std::size_t outer, std::size_t red,
                std::size_t inner) {
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
        if (better(base[r * inner + j], best))
          best = base[r * inner + j], k = static_cast<std::int64_t>(r);
      idx[j] = k;
    }
  }
}

/// C = op(A) op(B) for the element types BLAS does not serve (int32, int64): a plain i-p-j loop
/// over row-major C (n, m), with A, B stored row-major as (n, k) and (k, m), or as (k, n) and (m,
/// k) when transposed (read in place through strides). Float and double go to BLAS (xtensor.hpp).
template <class T>
void int_gemm(const T* a, bool transpose_a, const T* b, bool transpose_b, T* c, std::size_t n,
              std::size_t k, std::size_t m) {
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
        for (std::size_t k = 0; k < Operands; ++k)
          off[k] -= strides[k][d] * static_cast<std::ptrdiff_t>(shape[d]);
        idx[d] = 0;
      }
    }
  }
};

/// out (contiguous, row-major, `rank` extents) = the elements of `in` at the given element strides
/// (any sign, 0 for broadcasting): transpose, broadcast_to, flip and slice in one loop, the host
/// backends' detail::host_gather over the merged dimensions.
template <class T>
void strided_copy(const T* in, T* out, const std::size_t* shape, const std::ptrdiff_t* strides,
                  std::size_t rank) {
  std::size_t n = 1;
  for (std::size_t d = 0; d < rank; ++d) n *= shape[d];
  if (n == 0) return;
  strided_loop<1> loop;
  for (std::size_t d = 0; d < rank; ++d) loop.push(shape[d], {strides[d]});
  if (loop.rank == 0) {
    *out = *in;
    return;
  }
  std::int64_t extent[max_rank], step[max_rank];
  for (std::size_t d = 0; d < loop.rank; ++d) {
    extent[d] = static_cast<std::int64_t>(loop.shape[d]);
    step[d] = loop.strides[0][d];
  }
  detail::host_gather(in, 0, step, extent, static_cast<int>(loop.rank), out);
}

// --- the loops of ep::xtensor's ops, over xtensor_array ------------------------------------------

template <class T>
xtensor_array<T> copy(const xtensor_array<T>& x) {
  auto out = xt_kernels::empty<T>(x.shape());
  std::copy_n(x.data(), x.size(), out.data());
  return out;
}

/// An operand of assign_flat: `n` elements at `p` as a flat adaptor (its construction inlined, as
/// it runs for every operand of every block), or a scalar as it is.
template <class P>
[[gnu::flatten]] auto flat_operand(const P* p, std::size_t n) {
  return flat(p, n);
}
template <class T>
xt::xscalar<T> flat_operand(const xt::xscalar<T>& s, std::size_t /*n*/) {
  return s;
}

/// out[i] = f(operands...)[i] for i < n, `f` building an xtensor expression over the operands (flat
/// adaptors of pointers, or xt::xscalar). xtensor's own linear assignment steps one batch at a
/// time and reloads its operands' data pointers after every store; this loop takes four batches
/// per step through the expression's own SIMD interface (its xsimd functors), and keeps xtensor's
/// assignment for expressions without one (bool results, casts). The operands' adaptors are made
/// here, as locals nothing else can reach, so that the loop keeps their data pointers in registers
/// (an expression holds its operands by reference, and a vector store may write any memory whose
/// address escaped: an adaptor made by the caller is reloaded after every store).
template <class U, class F, class... P>
void assign_flat(U* out, std::size_t n, F&& f, const P&... operands) {
  std::tuple<decltype(flat_operand(operands, n))...> leaves{flat_operand(operands, n)...};
  const auto e = std::apply(f, leaves);
  using E = std::remove_cvref_t<decltype(e)>;
  if constexpr (has_batch<U> && std::is_same_v<typename E::value_type, U> &&
                xt::has_simd_interface<E, U>::value) {
    using batch = xsimd::batch<U>;
    constexpr std::size_t w = batch::size;
    std::size_t i = 0;
    for (; i + 4 * w <= n; i += 4 * w) {
      const batch b0 = e.template load_simd<xsimd::unaligned_mode, U>(i);
      const batch b1 = e.template load_simd<xsimd::unaligned_mode, U>(i + w);
      const batch b2 = e.template load_simd<xsimd::unaligned_mode, U>(i + 2 * w);
      const batch b3 = e.template load_simd<xsimd::unaligned_mode, U>(i + 3 * w);
      b0.store_unaligned(out + i);
      b1.store_unaligned(out + i + w);
      b2.store_unaligned(out + i + 2 * w);
      b3.store_unaligned(out + i + 3 * w);
    }
    for (; i + w <= n; i += w)
      e.template load_simd<xsimd::unaligned_mode, U>(i).store_unaligned(out + i);
    for (; i < n; ++i) out[i] = e.data_element(i);
  } else {
    auto o = xt_kernels::flat(out, n);
    xt::noalias(o) = e;
  }
}

/// f(x) for an xtensor expression builder `f` over a flat view of x.
template <class T, class F>
xtensor_array<T> map(const xtensor_array<T>& x, F&& f) {
  auto out = xt_kernels::empty<T>(x.shape());
  xt_kernels::assign_flat(out.data(), out.size(), f, x.data());
  return out;
}

/// The element-wise functor `fn` (detail::xt_functors) over x.
template <class T, class Fn>
xtensor_array<T> map_fn(const xtensor_array<T>& x, Fn fn) {
  return xt_kernels::map(x, [fn](const auto& e) { return xt::make_lambda_xfunction(Fn(fn), e); });
}

/// The loop of map_costly, with everything it calls inlined (gnu::flatten): GCC otherwise keeps
/// xsimd's argument reduction out of line, called once per batch with its operands spilled
/// (docs/benchmarks.md has the measurement).
template <class T, class F>
[[gnu::flatten]] void apply_costly(const T* in, T* out, std::size_t n, F f) {
  std::size_t i = 0;
  if constexpr (has_batch<T>) {
    using batch = xsimd::batch<T>;
    for (; i + batch::size <= n; i += batch::size)
      f(batch::load_unaligned(in + i)).store_unaligned(out + i);
  }
  for (; i < n; ++i) out[i] = f(in[i]);
}

/// A transcendental function `f`, applied with xsimd batch by batch and to the scalar tail (`f` is
/// generic: `using std::sin; return sin(v);` finds xsimd's sin for a batch).
template <class T, class F>
xtensor_array<T> map_costly(const xtensor_array<T>& x, F f) {
  auto out = xt_kernels::empty<T>(x.shape());
  xt_kernels::apply_costly(x.data(), out.data(), x.size(), f);
  return out;
}

/// zip's broadcast path: xtensor's broadcasting assignment steps through dynamic-rank indices (20
/// ms for (1000, 1000) + (1000, 1)); instead walk the rows of the broadcast result with merged
/// dimensions, each row a vectorized 1-D expression (the last stride of an operand is 1 or 0).
template <class R, class T, class F>
void broadcast_rows(xtensor_array<R>& out, const xtensor_array<T>& a, const xtensor_array<T>& b,
                    F&& f) {
  const std::size_t r = out.dimension();
  const auto sa = xt_kernels::broadcast_strides(a, r), sb = xt_kernels::broadcast_strides(b, r);
  const auto so = xt_kernels::contiguous_strides(out.shape());
  strided_loop<3> loop;
  for (std::size_t i = 0; i < r; ++i) loop.push(out.shape()[i], {sa[i], sb[i], so[i]});
  // Each row runs one of the three expressions of zip's flat paths (below), through the same
  // assign_flat: nothing more is compiled per op for broadcasting (a row of two broadcast operands
  // is its first element, computed as a one-element flat row, then copied).
  loop.for_each_row([&](const auto& off, const auto& inner, std::size_t len) {
    R* o = out.data() + off[2];
    const T* pa = a.data() + off[0];
    const T* pb = b.data() + off[1];
    if (inner[0] != 0 && inner[1] != 0) {
      xt_kernels::assign_flat(o, len, f, pa, pb);
    } else if (inner[1] != 0) {
      xt_kernels::assign_flat(o, len, f, xt::xscalar<T>(*pa), pb);
    } else if (inner[0] != 0) {
      xt_kernels::assign_flat(o, len, f, pa, xt::xscalar<T>(*pb));
    } else {
      xt_kernels::assign_flat(o, 1, f, pa, xt::xscalar<T>(*pb));
      std::fill_n(o + 1, len - 1, o[0]);
    }
  });
}

/// a op b with NumPy broadcasting, `f` building the xtensor expression, U the result's element
/// type (void: T). Equal shapes and one-element operands (which do not raise the rank) take a
/// flat, vectorized path; other shapes walk the rows of the broadcast result.
template <class U = void, class T, class F>
auto zip(const xtensor_array<T>& a, const xtensor_array<T>& b, F&& f) {
  using R = std::conditional_t<std::is_void_v<U>, T, U>;
  const bool same = xt_kernels::same_shape(a, b);
  const bool b_one = !same && b.size() == 1 && b.dimension() <= a.dimension();
  const bool a_one = !same && !b_one && a.size() == 1 && a.dimension() <= b.dimension();
  // One result, returned by every path (NRVO: moving a dynamic-rank container swaps its three
  // small vectors, a cost every block of an element-wise op would pay).
  const auto broadcast = [&] {
    return broadcast_shapes(xt_kernels::shape_of(a), xt_kernels::shape_of(b), "binary op");
  };
  auto out = same || b_one ? xt_kernels::empty<R>(a.shape())
             : a_one       ? xt_kernels::empty<R>(b.shape())
                           : xt_kernels::empty<R>(broadcast());
  if (same) {
    xt_kernels::assign_flat(out.data(), out.size(), f, a.data(), b.data());
  } else if (b_one) {
    xt_kernels::assign_flat(out.data(), out.size(), f, a.data(), xt::xscalar<T>(b.data()[0]));
  } else if (a_one) {
    xt_kernels::assign_flat(out.data(), out.size(), f, xt::xscalar<T>(a.data()[0]), b.data());
  } else if (out.size() != 0) {
    xt_kernels::broadcast_rows(out, a, b, f);
  }
  return out;
}

/// The element-wise functor `fn` (detail::xt_functors) over a and b, broadcast.
template <class U = void, class T, class Fn>
auto zip_fn(const xtensor_array<T>& a, const xtensor_array<T>& b, Fn fn) {
  return xt_kernels::zip<U>(
      a, b, [fn](const auto& x, const auto& y) { return xt::make_lambda_xfunction(Fn(fn), x, y); });
}

/// A transcendental function `f` of two operands of one shape, batch by batch and on the scalar
/// tail, as map_costly (other shapes: zip_fn's broadcasting).
template <class T, class F>
[[gnu::flatten]] void apply_costly(const T* a, const T* b, T* out, std::size_t n, F f) {
  std::size_t i = 0;
  if constexpr (has_batch<T>) {
    using batch = xsimd::batch<T>;
    for (; i + batch::size <= n; i += batch::size)
      f(batch::load_unaligned(a + i), batch::load_unaligned(b + i)).store_unaligned(out + i);
  }
  for (; i < n; ++i) out[i] = f(a[i], b[i]);
}
template <class T, class F>
xtensor_array<T> zip_costly(const xtensor_array<T>& a, const xtensor_array<T>& b, F f) {
  if (!xt_kernels::same_shape(a, b)) return zip_fn<void>(a, b, f);
  auto out = xt_kernels::empty<T>(a.shape());
  xt_kernels::apply_costly(a.data(), b.data(), out.data(), a.size(), f);
  return out;
}

/// Op over `axes` (sorted, unique): each run of consecutive axes in one (outer, reduced, inner)
/// pass, last run first so that the indices of the earlier runs stay valid.
template <class Op, class T>
xtensor_array<T> reduce_axes(const xtensor_array<T>& x, std::span<const int> axes) {
  xtensor_array<T> cur = x;
  std::size_t end = axes.size();
  while (end > 0) {
    std::size_t begin = end - 1;
    while (begin > 0 && axes[begin - 1] + 1 == axes[begin]) --begin;
    const int first = axes[begin], last = axes[end - 1] + 1;
    const auto [outer, red, inner] = xt_kernels::split(cur.shape(), first, last);
    shape_type s;
    for (int i = 0; i < static_cast<int>(cur.dimension()); ++i)
      if (i < first || i >= last) s.push_back(cur.shape()[static_cast<std::size_t>(i)]);
    auto out = xt_kernels::empty<T>(s);
    reduce<Op>(cur.data(), out.data(), outer, red, inner);
    cur = std::move(out);
    end = begin;
  }
  return cur;
}

/// Op over the square or absolute value of every element of non-empty x, shape ().
template <class Op, class T>
xtensor_array<T> map_reduce(map_kind m, const xtensor_array<T>& x) {
  auto out = xt_kernels::empty<T>(Shape{});
  const auto n = static_cast<std::size_t>(x.size());
  out.data()[0] = m == map_kind::square ? reduce_contiguous<Op, square_map>(x.data(), n)
                                        : reduce_contiguous<Op, abs_map>(x.data(), n);
  return out;
}

/// argmax (Max) or argmin along `axis`.
template <bool Max, class T>
xtensor_array<std::int64_t> arg_reduce_axis(const xtensor_array<T>& x, int axis) {
  shape_type s;
  for (int i = 0; i < static_cast<int>(x.dimension()); ++i)
    if (i != axis) s.push_back(x.shape()[static_cast<std::size_t>(i)]);
  auto out = xt_kernels::empty<std::int64_t>(s);
  const auto [outer, red, inner] = xt_kernels::split(x.shape(), axis, axis + 1);
  arg_reduce<Max>(x.data(), out.data(), outer, red, inner);
  return out;
}

template <class T>
xtensor_array<T> cumsum_axis(const xtensor_array<T>& x, int axis) {
  auto out = xt_kernels::empty<T>(x.shape());
  const auto [outer, len, inner] = xt_kernels::split(x.shape(), axis, axis + 1);
  cumsum(x.data(), out.data(), outer, len, inner);
  return out;
}

// transpose, broadcast_to, flip and slice are strided copies. xtensor's views do the same job
// through steppers over dynamic-rank indices, many times slower per element, and a strided_view
// over xt::range(_, _, -1) reads out of bounds in 0.24, so one loop over merged dimensions does
// them all.

template <class T>
xtensor_array<T> transpose(const xtensor_array<T>& x, std::span<const int> perm) {
  const std::size_t r = perm.size();
  shape_type s(r);
  strides st{};
  const auto in = xt_kernels::contiguous_strides(x.shape());
  for (std::size_t i = 0; i < r; ++i) {
    const auto p = static_cast<std::size_t>(perm[i]);
    s[i] = x.shape()[p];
    st[i] = in[p];
  }
  auto out = xt_kernels::empty<T>(s);
  strided_copy(x.data(), out.data(), s.data(), st.data(), r);
  return out;
}

template <class T>
xtensor_array<T> broadcast_to(const xtensor_array<T>& x, const Shape& shape) {
  auto out = xt_kernels::empty<T>(shape);
  const auto r = static_cast<std::size_t>(shape.size());
  const std::size_t lead = r - x.dimension();
  const auto in = xt_kernels::contiguous_strides(x.shape());
  strides st{};
  for (std::size_t i = lead; i < r; ++i) st[i] = x.shape()[i - lead] == 1 ? 0 : in[i - lead];
  strided_copy(x.data(), out.data(), out.shape().data(), st.data(), r);
  return out;
}

template <class T>
xtensor_array<T> flip(const xtensor_array<T>& x, std::span<const int> axes) {
  auto out = xt_kernels::empty<T>(x.shape());
  if (out.size() == 0) return out;
  auto st = xt_kernels::contiguous_strides(x.shape());
  std::ptrdiff_t offset = 0;
  for (int a : axes) {
    const auto i = static_cast<std::size_t>(a);
    offset += st[i] * (static_cast<std::ptrdiff_t>(x.shape()[i]) - 1);
    st[i] = -st[i];
  }
  strided_copy(x.data() + offset, out.data(), out.shape().data(), st.data(), x.dimension());
  return out;
}

template <class T>
xtensor_array<T> slice(const xtensor_array<T>& x, std::span<const std::int64_t> start,
                       std::span<const std::int64_t> step, const Shape& out_shape) {
  auto out = xt_kernels::empty<T>(out_shape);
  if (out.size() == 0) return out;
  auto st = xt_kernels::contiguous_strides(x.shape());
  std::ptrdiff_t offset = 0;
  for (std::size_t i = 0; i < x.dimension(); ++i) {
    offset += st[i] * static_cast<std::ptrdiff_t>(start[i]);
    st[i] *= static_cast<std::ptrdiff_t>(step[i]);
  }
  strided_copy(x.data() + offset, out.data(), out.shape().data(), st.data(), x.dimension());
  return out;
}

template <class T>
xtensor_array<T> pad(const xtensor_array<T>& x, std::span<const std::int64_t> before,
                     std::span<const std::int64_t> after, T value) {
  shape_type s = x.shape();
  for (std::size_t i = 0; i < s.size(); ++i) s[i] += static_cast<std::size_t>(before[i] + after[i]);
  auto out = xt_kernels::empty<T>(s);
  std::fill_n(out.data(), out.size(), value);
  if (x.size() == 0) return out;
  const auto in = xt_kernels::contiguous_strides(x.shape()), os = xt_kernels::contiguous_strides(s);
  std::ptrdiff_t offset = 0;
  strided_loop<2> loop;
  for (std::size_t i = 0; i < s.size(); ++i) {
    offset += os[i] * static_cast<std::ptrdiff_t>(before[i]);
    loop.push(x.shape()[i], {in[i], os[i]});
  }
  T* dst = out.data() + offset;
  const T* src = x.data();
  // Axes of extent 1 are dropped from the loop, so the innermost one need not be contiguous.
  loop.for_each_row([&](const auto& off, const auto& inner, std::size_t len) {
    if (inner[0] == 1 && inner[1] == 1) {
      std::copy_n(src + off[0], len, dst + off[1]);
    } else {
      for (std::size_t k = 0; k < len; ++k)
        dst[off[1] + static_cast<std::ptrdiff_t>(k) * inner[1]] =
            src[off[0] + static_cast<std::ptrdiff_t>(k) * inner[0]];
    }
  });
  return out;
}

template <class T>
xtensor_array<T> concatenate(std::span<const xtensor_array<T>> parts, int axis) {
  const auto ax = static_cast<std::size_t>(axis);
  shape_type s = parts[0].shape();
  s[ax] = 0;
  for (const auto& p : parts) s[ax] += p.shape()[ax];
  auto out = xt_kernels::empty<T>(s);
  if (out.size() == 0) return out;
  // Row-major: each part is `outer` contiguous blocks of (its extent along axis) * inner elements.
  const auto [outer, unused, inner] = xt_kernels::split(s, axis, axis + 1);
  (void)unused;
  std::size_t offset = 0;
  const std::size_t row = s[ax] * inner;
  for (const auto& p : parts) {
    const std::size_t block = p.shape()[ax] * inner;
    for (std::size_t o = 0; o < outer; ++o)
      std::copy_n(p.data() + o * block, block, out.data() + o * row + offset);
    offset += block;
  }
  return out;
}

}  // namespace ep::detail::xt_kernels
