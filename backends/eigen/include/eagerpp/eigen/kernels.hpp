// eagerpp - the Eigen backend's kernels over merged dimensions: Eigen expressions and reducers
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::copy_n, std::fill_n
#include <array>        // Eigen::array (std::array)
#include <cmath>        // std::isnan
#include <cstdint>      // std::int64_t
#include <cstring>      // std::memcpy
#include <span>         // std::span
#include <type_traits>  // std::is_floating_point_v
#include <utility>      // std::pair

#include <Eigen/Core>
#include <unsupported/Eigen/CXX11/Tensor>

#include "eagerpp/detail/fusion.hpp"
#include "eagerpp/eigen/array.hpp"
#include "eagerpp/host/host_kernels.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"

// Every kernel first merges dimensions that can be merged without changing the result (extent-1
// axes vanish; neighbouring axes treated alike fuse into one), as TensorFlow's kernels do, so the
// runtime rank stays low and each kernel is instantiated once per dtype and rank, not once per op.
// Element-wise ops, cumsum and concatenation are then Eigen Tensor expressions over flat or
// low-rank maps (a repeated row combined row by row); reductions run Eigen's reducers over plain
// memory (below); large transpositions of two or three merged axes are Eigen's tiled shuffle;
// contiguous slices and pads copy rows (eigen_copy_box); matrix products call Eigen's GEMM and
// GEMV kernels (eigen/matmul.hpp: eigen_gemm). Broadcasting, flips, strided slices and the other
// transpositions are one general strided loop (detail::host_gather): Eigen's expressions of those
// ops would be instantiated for every rank up to 8, a large share of each translation unit's code,
// for ranks that merging makes rare.
namespace ep::detail {

using eigen_extents = std::int64_t[max_rank];

/// Product of shape[first, last).
inline std::int64_t eigen_product(const Shape& shape, int first, int last) {
  std::int64_t n = 1;
  for (int i = first; i < last; ++i) n *= shape[i];
  return n;
}

inline Shape eigen_remove_axes(const Shape& shape, std::span<const int> axes) {
  Shape out;
  std::size_t k = 0;
  for (int d = 0; d < shape.size(); ++d) {
    if (k < axes.size() && axes[k] == d) {
      ++k;
      continue;
    }
    out.push_back(shape[d]);
  }
  return out;
}

// --- element-wise ---------------------------------------------------------------------------

template <class T>
eigen_array<T> eigen_full(const Shape& shape, T value) {
  eigen_array<T> out(shape);
  if (out.size() == 1) {
    out.mutable_data()[0] =
        value;  // a 0-d tensor (a scalar operand): no Eigen expression to set up
  } else if (out.size() > 1) {
    out.mutable_flat().setConstant(value);
  }
  return out;
}

/// out.flat() = f(x.flat()), with out's element type U.
template <class U, class T, class F>
eigen_array<U> eigen_unary(const eigen_array<T>& x, F&& f) {
  eigen_array<U> out(x.shape());
  if (out.size() > 0) out.mutable_flat() = f(x.flat());
  return out;
}

/// NumPy broadcast_to, materialized: broadcast and kept axes fuse into runs before Eigen
/// broadcasts.
template <class T>
eigen_array<T> eigen_broadcast_to(const eigen_array<T>& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  if (shape.numel() == 0) return eigen_array<T>(shape);
  if (x.size() == 1) return eigen_full(shape, x.data()[0]);
  eigen_extents in{}, out{};
  int r = 0;
  bool previous_broadcast = false, any_broadcast = false;
  const int lead = shape.size() - x.ndim();
  for (int i = 0; i < shape.size(); ++i) {
    const std::int64_t d = shape[i];
    if (d == 1) continue;
    const std::int64_t di = i >= lead ? x.shape()[i - lead] : 1;
    const bool broadcast = di == 1;
    any_broadcast |= broadcast;
    if (r > 0 && previous_broadcast == broadcast) {
      in[r - 1] *= di;
      out[r - 1] *= d;
    } else {
      in[r] = di;
      out[r] = d;
      previous_broadcast = broadcast;
      ++r;
    }
  }
  if (!any_broadcast) return x.reshaped(shape);
  eigen_array<T> result(shape);
  eigen_extents stride{};  // 0 along the broadcast runs (their input extent is 1)
  std::int64_t s = 1;
  for (int d = r - 1; d >= 0; --d) {
    stride[d] = in[d] == 1 ? 0 : s;
    s *= in[d];
  }
  host_gather(x.data(), 0, stride, out, r, result.mutable_data());
  return result;
}

/// f(a, b) of result `shape` over flat elements: each operand has as many elements as the result
/// (broadcasting added only extents of 1, so the C order is the same) or one (a constant
/// expression). One result object, constructed in place (NRVO).
template <class U, class T, class F>
eigen_array<U> eigen_binary_flat(const Shape& shape, const eigen_array<T>& a,
                                 const eigen_array<T>& b, F&& f) {
  eigen_array<U> out(shape);
  const std::int64_t n = out.size();
  if (n == 0) return out;
  if (a.size() == n && b.size() == n) {
    out.mutable_flat() = f(a.flat(), b.flat());
  } else if (b.size() == 1) {
    const auto xa = a.flat();
    out.mutable_flat() = f(xa, xa.constant(b.data()[0]));
  } else {
    const auto xb = b.flat();
    out.mutable_flat() = f(xb.constant(a.data()[0]), xb);
  }
  return out;
}

/// Whether `small`, its leading extents of 1 dropped, is the trailing part of `shape`: it then
/// repeats whole along the leading axes (a bias (C,) or (1, C) against (N, C)).
inline bool eigen_trailing(const Shape& small, const Shape& shape) {
  int lead = 0;
  while (lead < small.size() && small[lead] == 1) ++lead;
  const int k = small.size() - lead;
  if (k > shape.size()) return false;
  for (int i = 0; i < k; ++i)
    if (small[lead + i] != shape[shape.size() - k + i]) return false;
  return true;
}

/// Rows of a repeated operand at least this long are combined row by row, in place; shorter ones
/// are materialized first (an Eigen expression per row of 2 costs more than the copy).
inline constexpr std::int64_t eigen_row_min = 64;

/// f(a, b) of result `shape` where one operand has the result's elements and the other (`a` when
/// RowA) is one row of them repeated (eigen_trailing): one pass per row, no broadcast copy.
template <class U, bool RowA, class T, class F>
eigen_array<U> eigen_binary_rows(const Shape& shape, const eigen_array<T>& a,
                                 const eigen_array<T>& b, F&& f) {
  eigen_array<U> out(shape);
  const eigen_array<T>& row = RowA ? a : b;
  const eigen_array<T>& full = RowA ? b : a;
  const Eigen::Index m = row.size();
  // Rows start at multiples of m elements: unaligned maps.
  using in_map = Eigen::TensorMap<Eigen::Tensor<const T, 1, Eigen::RowMajor, Eigen::Index>>;
  using out_map = Eigen::TensorMap<Eigen::Tensor<U, 1, Eigen::RowMajor, Eigen::Index>>;
  const in_map r(row.data(), m);
  for (std::int64_t i = 0, rows = out.size() / m; i < rows; ++i) {
    const in_map x(full.data() + i * m, m);
    out_map o(out.mutable_data() + i * m, m);
    if constexpr (RowA)
      o = f(r, x);
    else
      o = f(x, r);
  }
  return out;
}

/// f(x, y) over operands of broadcast-compatible shapes, result element type U. Equal shapes and
/// one-element operands take the flat path (a constant expression for the scalar), a repeated row
/// against a full operand goes row by row; other shapes are materialized with eigen_broadcast_to
/// first, so no op instantiates a rank switch of its own.
template <class U, class T, class F>
eigen_array<U> eigen_binary(const eigen_array<T>& a, const eigen_array<T>& b, F&& f) {
  // A 0-d operand (the facade's form of a scalar, `x + 1`) takes the shape of the other as it is.
  if (b.ndim() == 0 || a.shape() == b.shape()) return eigen_binary_flat<U>(a.shape(), a, b, f);
  if (a.ndim() == 0) return eigen_binary_flat<U>(b.shape(), a, b, f);
  const Shape shape = broadcast_shapes(a.shape(), b.shape(), "eigen");
  const std::int64_t n = shape.numel();
  if ((a.size() == n || a.size() == 1) && (b.size() == n || b.size() == 1))
    return eigen_binary_flat<U>(shape, a, b, f);
  if (a.size() == n && b.size() >= eigen_row_min && eigen_trailing(b.shape(), shape))
    return eigen_binary_rows<U, false>(shape, a, b, f);
  if (b.size() == n && a.size() >= eigen_row_min && eigen_trailing(a.shape(), shape))
    return eigen_binary_rows<U, true>(shape, a, b, f);
  return eigen_binary<U>(eigen_broadcast_to(a, shape), eigen_broadcast_to(b, shape),
                         std::forward<F>(f));
}

// --- reductions -----------------------------------------------------------------------------

struct eigen_reduction_step {
  std::int64_t outer, reduced, inner;
};

/// Splits a reduction over `axes` into steps over (outer, reduced, inner) views, innermost reduced
/// run first: extent-1 axes vanish, neighbouring reduced (or kept) axes fuse. Returns the count.
inline int eigen_reduction_plan(const Shape& shape, std::span<const int> axes,
                                eigen_reduction_step (&steps)[max_rank]) {
  eigen_extents extent{};
  bool reduced[max_rank]{};
  int groups = 0;
  std::size_t k = 0;
  for (int d = 0; d < shape.size(); ++d) {
    const bool r = k < axes.size() && axes[k] == d;
    if (r) ++k;
    if (shape[d] == 1) continue;
    if (groups > 0 && reduced[groups - 1] == r) {
      extent[groups - 1] *= shape[d];
    } else {
      extent[groups] = shape[d];
      reduced[groups] = r;
      ++groups;
    }
  }
  int n = 0;
  for (int g = groups - 1; g >= 0; --g) {
    if (!reduced[g]) continue;
    std::int64_t outer = 1, inner = 1;
    for (int j = 0; j < g; ++j) outer *= extent[j];
    for (int j = g + 1; j < groups; ++j)
      inner *= reduced[j] ? 1 : extent[j];  // reduced ones are gone
    steps[n++] = {outer, extent[g], inner};
  }
  return n;
}

// Reductions run Eigen's reducers (SumReducer, MinReducer, ...) over plain memory with Eigen's
// packet functions, in the order Eigen's own evaluator takes (InnerMostDimReducer), rather than
// through a TensorExecutor of a reduction expression, which instantiates one executor per reducer
// and view: these loops compile in a fraction of the time and run as fast.

/// The packet type of T and whether Reducer reduces whole packets of it.
template <class T, class Reducer>
struct eigen_packets {
  using packet = typename Eigen::PacketType<T, Eigen::DefaultDevice>::type;
  static constexpr Eigen::Index size = Eigen::internal::unpacket_traits<packet>::size;
  using traits = Eigen::internal::reducer_traits<Reducer, Eigen::DefaultDevice>;
  static constexpr bool vectorized = size > 1 && traits::PacketAccess;
  /// Pairwise halves above a leaf size, for the accuracy of long floating sums (Eigen's tree).
  static constexpr bool tree = !traits::IsStateful && !traits::IsExactlyAssociative;
  /// The longest run reduced in one pass, below the tree: Eigen's kLeafSize packets (or scalars).
  static constexpr Eigen::Index leaf = vectorized ? size * 1024 : 1024;
};

/// The map applied to each element as it is loaded: none, square (x * x) or abs.
template <int Map>
struct eigen_load_map {
  template <class T>
  T operator()(T v) const {
    if constexpr (Map == 1)
      return v * v;
    else if constexpr (Map == 2)
      return Eigen::numext::abs(v);
    else
      return v;
  }
  template <class Packet>
  Packet packet(const Packet& p) const {
    if constexpr (Map == 1)
      return Eigen::internal::pmul(p, p);
    else if constexpr (Map == 2)
      return Eigen::internal::pabs(p);
    else
      return p;
  }
};

/// reducer over map(in[0, n)) in one run, n at most Eigen's leaf size: two packet accumulators,
/// then the scalar tail (Eigen's InnerMostDimReducer below its tree, which keeps one accumulator
/// for the reducers whose order does not matter, min and max and integer sums: two run faster).
template <int Map, class T, class Reducer>
inline T eigen_reduce_leaf(const T* in, Eigen::Index n, const Reducer& reducer) {
  using P = eigen_packets<T, Reducer>;
  const eigen_load_map<Map> map;
  T accum = reducer.initialize();
  if constexpr (P::vectorized) {
    using Packet = typename P::packet;
    const Eigen::Index unrolled = n / (2 * P::size) * 2 * P::size;
    const Eigen::Index vectorized = n / P::size * P::size;
    Packet p1 = reducer.template initializePacket<Packet>();
    Packet p2 = reducer.template initializePacket<Packet>();
    for (Eigen::Index j = 0; j < unrolled; j += 2 * P::size) {
      reducer.reducePacket(map.packet(Eigen::internal::ploadu<Packet>(in + j)), &p1);
      reducer.reducePacket(map.packet(Eigen::internal::ploadu<Packet>(in + j + P::size)), &p2);
    }
    for (Eigen::Index j = unrolled; j < vectorized; j += P::size)
      reducer.reducePacket(map.packet(Eigen::internal::ploadu<Packet>(in + j)), &p1);
    reducer.reducePacket(p2, &p1);
    for (Eigen::Index j = vectorized; j < n; ++j) reducer.reduce(map(in[j]), &accum);
    return reducer.finalizeBoth(accum, p1);
  } else {
    for (Eigen::Index j = 0; j < n; ++j) reducer.reduce(map(in[j]), &accum);
    return reducer.finalize(accum);
  }
}

/// reducer over map(base[first, first + n)), n >= 0: Eigen's InnerMostDimReducer on plain memory,
/// pairwise halves above its leaf size (the same association of operations, so the same result as
/// Eigen's reduction expressions).
template <int Map, class T, class Reducer>
T eigen_reduce_run(const T* base, Eigen::Index first, Eigen::Index n, const Reducer& reducer) {
  using P = eigen_packets<T, Reducer>;
  constexpr Eigen::Index leaf = P::leaf;
  if (!P::tree || n <= leaf) [[likely]]
    return eigen_reduce_leaf<Map>(base + first, n, reducer);
  // Split on a packet boundary of the whole array, as Eigen does.
  const Eigen::Index split =
      P::vectorized ? P::size * ((first + (n + 1) / 2 + P::size - 1) / P::size) : first + n / 2;
  const Eigen::Index left = std::min(split - first, n);
  T accum = reducer.initialize();
  reducer.reduce(eigen_reduce_run<Map>(base, first, left, reducer), &accum);
  if (left < n) reducer.reduce(eigen_reduce_run<Map>(base, split, n - left, reducer), &accum);
  return reducer.finalize(accum);
}

/// out[o, :] = reduce over j of in[o, j, :] (inner > 1), from the first row j = 0. Short rows
/// accumulate down each column in registers, a packet at a time (as Eigen's evaluator does); long
/// rows are combined row by row, as NumPy does: walking each column down (stride inner) would miss
/// the cache on every load of a large matrix.
template <class T, class Reducer>
void eigen_reduce_rows(const T* in, T* out, std::int64_t outer, std::int64_t reduced,
                       std::int64_t inner, const Reducer& reducer) {
  using P = eigen_packets<T, Reducer>;
  using Packet = typename P::packet;
  using Eigen::internal::ploadu;
  using Eigen::internal::pstoreu;
  for (std::int64_t o = 0; o < outer; ++o) {
    const T* src = in + o * reduced * inner;
    T* accum = out + o * inner;
    std::int64_t i = 0;
    if (inner < 64) {
      if constexpr (P::vectorized) {
        for (; i + P::size <= inner; i += P::size) {
          Packet a = ploadu<Packet>(src + i);
          for (std::int64_t j = 1; j < reduced; ++j)
            reducer.reducePacket(ploadu<Packet>(src + j * inner + i), &a);
          pstoreu(accum + i, a);
        }
      }
      for (; i < inner; ++i) {
        T a = src[i];
        for (std::int64_t j = 1; j < reduced; ++j) reducer.reduce(src[j * inner + i], &a);
        accum[i] = a;
      }
      continue;
    }
    std::copy_n(src, inner, accum);
    for (std::int64_t j = 1; j < reduced; ++j) {
      const T* row = src + j * inner;
      i = 0;
      if constexpr (P::vectorized) {
        constexpr std::int64_t k = P::size;
        for (; i + 4 * k <= inner; i += 4 * k) {
          Packet a0 = ploadu<Packet>(accum + i), a1 = ploadu<Packet>(accum + i + k);
          Packet a2 = ploadu<Packet>(accum + i + 2 * k), a3 = ploadu<Packet>(accum + i + 3 * k);
          reducer.reducePacket(ploadu<Packet>(row + i), &a0);
          reducer.reducePacket(ploadu<Packet>(row + i + k), &a1);
          reducer.reducePacket(ploadu<Packet>(row + i + 2 * k), &a2);
          reducer.reducePacket(ploadu<Packet>(row + i + 3 * k), &a3);
          pstoreu(accum + i, a0);
          pstoreu(accum + i + k, a1);
          pstoreu(accum + i + 2 * k, a2);
          pstoreu(accum + i + 3 * k, a3);
        }
        for (; i + k <= inner; i += k) {
          Packet a = ploadu<Packet>(accum + i);
          reducer.reducePacket(ploadu<Packet>(row + i), &a);
          pstoreu(accum + i, a);
        }
      }
      for (; i < inner; ++i) reducer.reduce(row[i], accum + i);
    }
  }
}

/// reducer(map(x)) over every element of x, one vectorized pass; the result has shape ().
template <class T, class Reducer>
[[gnu::noinline]] eigen_array<T> eigen_map_reduce(const eigen_array<T>& x, map_kind map,
                                                  Reducer reducer) {
  eigen_array<T> out(Shape{});
  out.mutable_data()[0] = map == map_kind::square
                              ? eigen_reduce_run<1>(x.data(), 0, x.size(), reducer)
                              : eigen_reduce_run<2>(x.data(), 0, x.size(), reducer);
  return out;
}

/// 1 for Eigen's MinReducer, 2 for its MaxReducer, else 0: their zero results get IEEE's sign
/// (host_fix_zero_extremum).
template <class Reducer>
inline constexpr int eigen_extremum = 0;
template <class T, int NaNPropagation>
inline constexpr int eigen_extremum<Eigen::internal::MinReducer<T, NaNPropagation>> = 1;
template <class T, int NaNPropagation>
inline constexpr int eigen_extremum<Eigen::internal::MaxReducer<T, NaNPropagation>> = 2;

/// out[o, i] of a row-major (outer, red, inner) reduction of `in` with IEEE's sign of zero where
/// Reducer is a min or max.
template <class Reducer, class T>
void eigen_fix_zero_extremum(const T* in, T* out, std::int64_t outer, std::int64_t red,
                             std::int64_t inner) {
  if constexpr (eigen_extremum<Reducer> != 0)
    host_fix_zero_extremum<eigen_extremum<Reducer> == 2>(in, out, outer, red, inner);
}

/// Every element reduced with an Eigen reducer, shape (); `identity` for an empty input.
template <class T, class Reducer>
eigen_array<T> eigen_full_reduce(const eigen_array<T>& x, T identity, Reducer reducer) {
  eigen_array<T> out(Shape{});
  const std::int64_t n = x.size();
  out.mutable_data()[0] = n == 0 ? identity : eigen_reduce_run<0>(x.data(), 0, n, reducer);
  if (n != 0) eigen_fix_zero_extremum<Reducer>(x.data(), out.mutable_data(), 1, n, 1);
  return out;
}

/// Reduces `axes` (sorted, unique) with an Eigen reducer; `identity` fills results of empty inputs.
/// Out of line: inlined into the facade's reductions, its loops change g++'s inlining decisions
/// elsewhere in the translation unit and slow down the small ops around it (autodiff_bench).
template <class T, class Reducer>
[[gnu::noinline]] eigen_array<T> eigen_reduce(const eigen_array<T>& x, std::span<const int> axes,
                                              T identity, Reducer reducer) {
  if (axes.size() == static_cast<std::size_t>(x.ndim()))
    return eigen_full_reduce(x, identity, reducer);
  const Shape out_shape = eigen_remove_axes(x.shape(), axes);
  if (x.size() == 0) return eigen_full(out_shape, identity);
  eigen_reduction_step steps[max_rank];
  const int n = eigen_reduction_plan(x.shape(), axes, steps);
  eigen_array<T> current = x;
  for (int i = 0; i < n; ++i) {
    const auto [outer, reduced, inner] = steps[i];
    eigen_array<T> next(Shape{outer * inner});
    T* to = next.mutable_data();
    // Innermost runs: each result is one pass over its run, or Eigen's tree over a long run.
    if (inner == 1 && reduced <= eigen_packets<T, Reducer>::leaf) {
      for (std::int64_t o = 0; o < outer; ++o)
        to[o] = eigen_reduce_leaf<0>(current.data() + o * reduced, reduced, reducer);
    } else if (inner == 1) {
      for (std::int64_t o = 0; o < outer; ++o)
        to[o] = eigen_reduce_run<0>(current.data(), o * reduced, reduced, reducer);
    } else {  // kept rows: combined row by row, as NumPy does
      eigen_reduce_rows(current.data(), to, outer, reduced, inner, reducer);
    }
    eigen_fix_zero_extremum<Reducer>(current.data(), to, outer, reduced, inner);
    current = next;
  }
  return current.reshaped(out_shape);
}

/// argmin (Max = false) or argmax along `axis`, the first occurrence; NaN counts as the extreme,
/// as in NumPy. A plain loop: Eigen's tuple reducers do not promise the first NaN.
template <bool Max, class T>
eigen_array<std::int64_t> eigen_arg_reduce(const eigen_array<T>& x, int axis) {
  const Shape& s = x.shape();
  const int axes[1] = {axis};
  eigen_array<std::int64_t> out(eigen_remove_axes(s, axes));
  const std::int64_t outer = eigen_product(s, 0, axis), len = s[axis],
                     inner = eigen_product(s, axis + 1, s.size());
  if (out.size() == 0) return out;
  std::int64_t* idx = out.mutable_data();
  if (len == 0) {
    out.mutable_flat().setZero();
    return out;
  }
  const auto best_storage = allocate_storage<T>(static_cast<std::size_t>(inner));
  T* best = best_storage.get();
  for (std::int64_t o = 0; o < outer; ++o) {
    const T* base = x.data() + o * len * inner;
    std::int64_t* oi = idx + o * inner;
    for (std::int64_t i = 0; i < inner; ++i) {
      best[i] = base[i];
      oi[i] = 0;
    }
    for (std::int64_t j = 1; j < len; ++j) {
      const T* row = base + j * inner;
      for (std::int64_t i = 0; i < inner; ++i) {
        const T v = row[i];
        bool better = Max ? (v > best[i]) : (v < best[i]);
        if constexpr (std::is_floating_point_v<T>)
          better = !std::isnan(best[i]) && (better || std::isnan(v));
        if (better) {
          best[i] = v;
          oi[i] = j;
        }
      }
    }
  }
  return out;
}

template <class T>
eigen_array<T> eigen_cumsum(const eigen_array<T>& x, int axis) {
  const Shape& s = x.shape();
  eigen_array<T> out(s);
  if (out.size() == 0) return out;
  const std::int64_t dims[3] = {eigen_product(s, 0, axis), s[axis],
                                eigen_product(s, axis + 1, s.size())};
  eigen_mutable_map<3>(out.mutable_data(), dims) = eigen_map<3>(x.data(), dims).cumsum(1);
  return out;
}

// --- shape and indexing ---------------------------------------------------------------------

/// The transpose of a row-major (rows, cols) matrix, in a result of its own (constructed in the
/// caller's place, not moved there).
template <class T>
eigen_array<T> eigen_small_matrix_transpose(const T* from, std::int64_t rows, std::int64_t cols) {
  eigen_array<T> result(Shape{cols, rows});
  T* to = result.mutable_data();
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) to[j * rows + i] = from[i * cols + j];
  return result;
}

template <class T>
eigen_array<T> eigen_transpose(const eigen_array<T>& x, std::span<const int> perm) {
  const Shape& in = x.shape();
  // A small matrix (perm is (1, 0)): a plain loop, which fits in L1 whatever its order.
  if (in.size() == 2 && x.size() <= 256 && in[0] > 1 && in[1] > 1)
    return eigen_small_matrix_transpose(x.data(), in[0], in[1]);
  Shape out_shape;
  for (int p : perm) out_shape.push_back(in[p]);
  if (x.size() == 0) return eigen_array<T>(out_shape);
  // Drop extent-1 axes and renumber the rest.
  int renumbered[max_rank]{};
  eigen_extents squeezed{};
  int m = 0;
  for (int d = 0; d < in.size(); ++d) {
    renumbered[d] = in[d] != 1 ? m : -1;
    if (in[d] != 1) squeezed[m++] = in[d];
  }
  // Runs of output axes that are consecutive input axes move together: one group each.
  int first[max_rank]{}, count[max_rank]{};
  int groups = 0;
  for (int p : perm) {
    const int q = renumbered[p];
    if (q < 0) continue;
    if (groups > 0 && q == first[groups - 1] + count[groups - 1]) {
      ++count[groups - 1];
    } else {
      first[groups] = q;
      count[groups] = 1;
      ++groups;
    }
  }
  if (groups <= 1) return x.reshaped(out_shape);  // the layout does not change
  eigen_extents in_dims{}, out_dims{}, shuffle{};
  for (int g = 0; g < groups; ++g) {
    std::int64_t e = 1;
    for (int j = first[g]; j < first[g] + count[g]; ++j) e *= squeezed[j];
    int position = 0;  // where the group sits in the input
    for (int h = 0; h < groups; ++h) position += first[h] < first[g];
    in_dims[position] = e;
    out_dims[g] = e;
    shuffle[g] = position;
  }
  eigen_array<T> result(out_shape);
  // The general loop where Eigen's ranks run out (rare after merging), and for small tensors, which
  // fit in L1 whatever the order: there Eigen's tiled executor costs more than the copy.
  if (groups > 3 || x.size() <= 256) {
    eigen_extents in_stride{}, stride{};
    std::int64_t s = 1;
    for (int g = groups - 1; g >= 0; --g) {
      in_stride[g] = s;
      s *= in_dims[g];
    }
    for (int g = 0; g < groups; ++g) stride[g] = in_stride[shuffle[g]];
    host_gather(x.data(), 0, stride, out_dims, groups, result.mutable_data());
    return result;
  }
  // Eigen's shuffle is evaluated in cache-sized tiles (TiledEvaluation): a large 2-D transposition
  // reads each source line once, where a loop over the result would stride through the source.
  with_rank<2, 3>(groups, [&](auto rank) {
    constexpr int N = decltype(rank)::value;
    eigen_mutable_map<N>(result.mutable_data(), out_dims) =
        eigen_map<N>(x.data(), in_dims).shuffle(eigen_dims<N>(shuffle));
  });
  return result;
}

template <class T>
eigen_array<T> eigen_flip(const eigen_array<T>& x, std::span<const int> axes) {
  if (x.size() <= 1) return x;
  eigen_extents dims{};
  bool flipped[max_rank]{};
  int r = 0;
  bool any = false;
  std::size_t k = 0;
  for (int d = 0; d < x.ndim(); ++d) {
    bool f = k < axes.size() && axes[k] == d;
    if (f) ++k;
    const std::int64_t e = x.shape()[d];
    if (e == 1) continue;
    any |= f;
    if (r > 0 && flipped[r - 1] == f) {
      dims[r - 1] *= e;  // reversing two neighbouring axes reverses their fused axis
    } else {
      dims[r] = e;
      flipped[r] = f;
      ++r;
    }
  }
  if (!any) return x;
  eigen_array<T> result(x.shape());
  eigen_extents stride{};  // negative along the flipped runs, which start at their last element
  std::int64_t offset = 0;
  std::int64_t s = 1;
  for (int d = r - 1; d >= 0; --d) {
    stride[d] = flipped[d] ? -s : s;
    if (flipped[d]) offset += (dims[d] - 1) * s;
    s *= dims[d];
  }
  host_gather(x.data(), offset, stride, dims, r, result.mutable_data());
  return result;
}

/// Copies a box of `extent` (rank r >= 1, whose last axis is contiguous in both arrays) row by row:
/// from `src` (row-major extents `src_ext`), starting at `src_off` with steps `step` on the outer
/// axes, to `dst` (row-major extents `dst_ext`) starting at `dst_off`. Slices and pads of a grid
/// are such boxes; a row copy costs what memcpy costs, where Eigen's slicing and padding evaluators
/// compute an index per element.
template <class T>
void eigen_copy_box(const T* src, const eigen_extents& src_ext, const eigen_extents& src_off,
                    const eigen_extents& step, T* dst, const eigen_extents& dst_ext,
                    const eigen_extents& dst_off, const eigen_extents& extent, int r) {
  eigen_extents src_stride{}, dst_stride{}, idx{};
  std::int64_t ss = 1, ds = 1;
  for (int i = r - 1; i >= 0; --i) {
    src_stride[i] = ss;
    dst_stride[i] = ds;
    ss *= src_ext[i];
    ds *= dst_ext[i];
  }
  const std::int64_t row = extent[r - 1];
  std::int64_t rows = 1;
  for (int i = 0; i + 1 < r; ++i) rows *= extent[i];
  for (std::int64_t k = 0; k < rows; ++k) {
    std::int64_t so = src_off[r - 1], dof = dst_off[r - 1];
    for (int i = 0; i + 1 < r; ++i) {
      so += (src_off[i] + idx[i] * step[i]) * src_stride[i];
      dof += (dst_off[i] + idx[i]) * dst_stride[i];
    }
    std::copy_n(src + so, row, dst + dof);
    for (int i = r - 2; i >= 0; --i) {  // the next row: an odometer over the outer axes
      if (++idx[i] < extent[i]) break;
      idx[i] = 0;
    }
  }
}

template <class T>
eigen_array<T> eigen_slice(const eigen_array<T>& x, std::span<const std::int64_t> start,
                           std::span<const std::int64_t> step, const Shape& out_shape) {
  if (out_shape.numel() == 0) return eigen_array<T>(out_shape);
  eigen_extents in{}, offset{}, extent{}, stride{};
  int r = 0;
  for (int d = 0; d < x.ndim(); ++d) {
    const std::int64_t n = x.shape()[d], o = out_shape[d];
    const std::int64_t b = start[static_cast<std::size_t>(d)];
    const std::int64_t s = o == 1 ? 1 : step[static_cast<std::size_t>(d)];
    if (n == 1) continue;
    const bool whole = b == 0 && s == 1 && o == n;
    if (r > 0 && whole && stride[r - 1] == 1) {  // a contiguous run continues through a whole axis
      in[r - 1] *= n;
      offset[r - 1] *= n;
      extent[r - 1] *= n;
    } else {
      in[r] = n;
      offset[r] = b;
      extent[r] = o;
      stride[r] = s;
      ++r;
    }
  }
  if (r == 0 || (r == 1 && offset[0] == 0 && stride[0] == 1 && extent[0] == in[0]))
    return x.reshaped(out_shape);
  eigen_array<T> result(out_shape);
  if (stride[r - 1] == 1) {  // contiguous rows
    eigen_extents zero{};
    eigen_copy_box(x.data(), in, offset, stride, result.mutable_data(), extent, zero, extent, r);
    return result;
  }
  eigen_extents jump{};  // the step of each run in the source's elements
  std::int64_t first = 0;
  std::int64_t s = 1;
  for (int d = r - 1; d >= 0; --d) {
    jump[d] = stride[d] * s;
    first += offset[d] * s;
    s *= in[d];
  }
  host_gather(x.data(), first, jump, extent, r, result.mutable_data());
  return result;
}

template <class T>
eigen_array<T> eigen_pad(const eigen_array<T>& x, std::span<const std::int64_t> before,
                         std::span<const std::int64_t> after, T value) {
  Shape out_shape = x.shape();
  for (int d = 0; d < x.ndim(); ++d)
    out_shape[d] += before[static_cast<std::size_t>(d)] + after[static_cast<std::size_t>(d)];
  if (out_shape == x.shape()) return x.reshaped(out_shape);
  if (x.size() == 0 || out_shape.numel() == 0) return eigen_full(out_shape, value);
  eigen_extents in{}, lo{}, hi{};
  int r = 0;
  for (int d = 0; d < x.ndim(); ++d) {
    const std::int64_t n = x.shape()[d], b = before[static_cast<std::size_t>(d)],
                       a = after[static_cast<std::size_t>(d)];
    if (r > 0 && b == 0 && a == 0) {  // an unpadded axis fuses into the axis before it
      in[r - 1] *= n;
      lo[r - 1] *= n;
      hi[r - 1] *= n;
    } else {
      in[r] = n;
      lo[r] = b;
      hi[r] = a;
      ++r;
    }
  }
  eigen_array<T> result(out_shape);
  {  // the value everywhere, then the rows of x in place (eigen_copy_box)
    eigen_extents out_ext{}, zero{}, one{};
    for (int i = 0; i < r; ++i) {
      out_ext[i] = in[i] + lo[i] + hi[i];
      one[i] = 1;
    }
    T* out = result.mutable_data();
    std::fill_n(out, out_shape.numel(), value);
    eigen_copy_box(x.data(), in, zero, one, out, out_ext, lo, in, r);
  }
  return result;
}

/// Each part is an (outer, extent * inner) block of the (outer, total * inner) result.
template <class T>
eigen_array<T> eigen_concatenate(std::span<const eigen_array<T>> parts, int axis) {
  if (parts.size() == 1) return parts[0];
  Shape out_shape = parts[0].shape();
  out_shape[axis] = 0;
  for (const auto& p : parts) out_shape[axis] += p.shape()[axis];
  eigen_array<T> result(out_shape);
  if (result.size() == 0) return result;
  const std::int64_t outer = eigen_product(out_shape, 0, axis),
                     inner = eigen_product(out_shape, axis + 1, out_shape.size());
  const std::int64_t out_dims[2] = {outer, out_shape[axis] * inner};
  auto out = eigen_mutable_map<2>(result.mutable_data(), out_dims);
  std::int64_t offset = 0;
  for (const auto& p : parts) {
    const std::int64_t dims[2] = {outer, p.shape()[axis] * inner};
    if (dims[1] == 0) continue;
    const Eigen::array<Eigen::Index, 2> at{0, offset}, size{dims[0], dims[1]};
    out.slice(at, size) = eigen_map<2>(p.data(), dims);
    offset += dims[1];
  }
  return result;
}

}  // namespace ep::detail
