// eagerpp - the Thrust backends' building blocks, written once over the system: broadcasting
// transform, strided copy, reductions, cumsum, integer matmul (gather/scatter and sort:
// thrust/indexing.hpp)
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::find, std::max, std::min
#include <cstdint>      // std::int64_t
#include <span>         // std::span
#include <string_view>  // std::string_view
#include <tuple>        // std::forward_as_tuple
#include <type_traits>  // std::conditional_t, std::is_floating_point_v, std::is_same_v, std::remove_cvref_t
#include <utility>  // std::index_sequence, std::integer_sequence, std::pair

#include <thrust/iterator/counting_iterator.h>   // thrust::counting_iterator
#include <thrust/iterator/transform_iterator.h>  // thrust::make_transform_iterator
#include <thrust/scan.h>                         // thrust::inclusive_scan_by_key

#include "eagerpp/shape.hpp"
#include "eagerpp/thrust/cuda_std.hpp"
#include "eagerpp/thrust/functors.hpp"
#include "eagerpp/thrust/system.hpp"

// Every function here is a template over a Thrust system S: its contract is in
// eagerpp/thrust/system.hpp.
namespace ep::detail {

template <class S, class T>
using thrust_array = typename S::template array<T>;

inline thrust::counting_iterator<std::int64_t> thrust_count(std::int64_t start = 0) {
  return thrust::counting_iterator<std::int64_t>(start);
}

// --- the strided copy: transpose, broadcast_to, flip, slice, pad, concatenate
// ---------------------

/// out[out_offset + k . out_strides] = in[in_offset + k . in_strides] for every multi-index k <
/// dims. Strides may be 0 (broadcast) or negative (flip).
struct copy_layout {
  int rank = 0;
  std::int64_t dims[max_rank] = {};
  std::int64_t in_strides[max_rank] = {};
  std::int64_t out_strides[max_rank] = {};
  std::int64_t in_offset = 0;
  std::int64_t out_offset = 0;
};

template <class T>
struct strided_copy_fn {
  copy_layout l;
  const T* in;
  T* out;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t i) const {
    std::int64_t src = l.in_offset;
    std::int64_t dst = l.out_offset;
    for (int a = l.rank - 1; a >= 0; --a) {
      const std::int64_t q = i / l.dims[a];
      const std::int64_t k = i - q * l.dims[a];
      i = q;
      src += k * l.in_strides[a];
      dst += k * l.out_strides[a];
    }
    out[dst] = in[src];
  }
};

/// Merges adjacent axes that are contiguous in both views and drops extents of 1, so that most
/// copies run at rank 1 or 2 (fewer divisions per element).
inline copy_layout simplify_layout(const copy_layout& l) {
  copy_layout s;
  s.in_offset = l.in_offset;
  s.out_offset = l.out_offset;
  for (int a = 0; a < l.rank; ++a) {
    if (l.dims[a] == 1) continue;
    if (s.rank > 0) {
      const int b = s.rank - 1;
      if (s.in_strides[b] == l.in_strides[a] * l.dims[a] &&
          s.out_strides[b] == l.out_strides[a] * l.dims[a]) {
        s.dims[b] *= l.dims[a];
        s.in_strides[b] = l.in_strides[a];
        s.out_strides[b] = l.out_strides[a];
        continue;
      }
    }
    s.dims[s.rank] = l.dims[a];
    s.in_strides[s.rank] = l.in_strides[a];
    s.out_strides[s.rank] = l.out_strides[a];
    ++s.rank;
  }
  return s;
}

template <class S, class T>
void thrust_strided_copy(const copy_layout& layout, const T* in, T* out, std::string_view op) {
  std::int64_t n = 1;
  for (int a = 0; a < layout.rank; ++a) n *= layout.dims[a];
  if (n == 0) return;
  const copy_layout l = simplify_layout(layout);
  if (l.rank == 0 || (l.rank == 1 && l.in_strides[0] == 1 && l.out_strides[0] == 1)) {
    S::copy(out + l.out_offset, in + l.in_offset, n, copy_kind::within, op);
    return;
  }
  S::guard(op, [&] { S::for_n(n, strided_copy_fn<T>{l, in, out}); });
}

/// A copy layout over `shape` with a C-order buffer on the side `Strides`
/// (&copy_layout::in_strides or &copy_layout::out_strides); the other side's are left to fill.
template <auto Strides>
copy_layout contiguous_layout(const Shape& shape) {
  copy_layout l;
  const Shape s = strides_of(shape);
  l.rank = shape.size();
  for (int a = 0; a < l.rank; ++a) {
    l.dims[a] = shape[a];
    (l.*Strides)[a] = s[a];
  }
  return l;
}
/// A copy layout whose destination is a fresh C-order buffer of `shape`.
inline copy_layout contiguous_out(const Shape& shape) {
  return contiguous_layout<&copy_layout::out_strides>(shape);
}
/// A copy layout whose source is a C-order buffer of `shape`.
inline copy_layout contiguous_in(const Shape& shape) {
  return contiguous_layout<&copy_layout::in_strides>(shape);
}

/// The elements of `x` permuted: axis a of the result is axis perm[a] of x.
template <class S, class T>
thrust_array<S, T> thrust_permute(const thrust_array<S, T>& x, std::span<const int> perm,
                                  std::string_view op) {
  const Shape xs = strides_of(x.shape());
  Shape shape;
  for (int p : perm) shape.push_back(x.shape()[p]);
  thrust_array<S, T> out(shape, op);
  const Shape os = strides_of(shape);
  copy_layout l;
  l.rank = shape.size();
  for (int a = 0; a < l.rank; ++a) {
    l.dims[a] = shape[a];
    l.in_strides[a] = xs[perm[static_cast<std::size_t>(a)]];
    l.out_strides[a] = os[a];
  }
  thrust_strided_copy<S>(l, x.data(), out.mutable_data(), op);
  return out;
}

/// A (d0, d1, d2) tensor transposed to (d0, d2, d1).
template <class S, class T>
thrust_array<S, T> thrust_swap_last(const thrust_array<S, T>& x, std::int64_t d0, std::int64_t d1,
                                    std::int64_t d2, std::string_view op) {
  const int perm[3] = {0, 2, 1};
  return thrust_permute<S, T>(thrust_array<S, T>(x.storage(), Shape{d0, d1, d2}), perm, op);
}

/// in[i]; a bool read as its byte, which is 0 or 1 (g++ 12 vectorizes no loop that loads bool
/// elements: a `where` or a cast from bool would run an element at a time).
template <class T>
EAGERPP_HOST_DEVICE inline T thrust_load(const T* in, std::int64_t i) {
  if constexpr (std::is_same_v<T, bool>)
    return reinterpret_cast<const unsigned char*>(in)[i] != 0;
  else
    return in[i];
}

// --- the broadcasting transform: every element-wise op of one, two or three operands
// --------------

template <int N>
struct broadcast_layout {
  int rank = 0;
  std::int64_t dims[max_rank] = {};
  std::int64_t strides[N][max_rank] = {};
};

/// g(i) = f(in_k[offset_k(i)]...), where offset_k follows operand k's strides (0 on broadcast
/// axes).
template <class F, class... In>
struct broadcast_fn {
  F f;
  broadcast_layout<sizeof...(In)> l;
  ::cuda::std::tuple<const In*...> in;

  EAGERPP_THRUST_INLINE EAGERPP_HOST_DEVICE auto operator()(std::int64_t i) const {
    return call(i, std::index_sequence_for<In...>{});
  }

  template <std::size_t... K>
  EAGERPP_THRUST_INLINE EAGERPP_HOST_DEVICE auto call(std::int64_t i,
                                                      std::index_sequence<K...>) const {
    std::int64_t off[sizeof...(In)] = {};
    for (int a = l.rank - 1; a >= 0; --a) {
      const std::int64_t q = i / l.dims[a];
      const std::int64_t k = i - q * l.dims[a];
      i = q;
      ((off[K] += k * l.strides[K][a]), ...);
    }
    return f(thrust_load(::cuda::std::get<K>(in), off[K])...);
  }
};

/// Each operand is either the full result shape or one element: bit K of Mask set for operand K
/// when it is one element, read at 0 for every i.
template <class F, unsigned Mask, class... In>
struct scalar_mask_fn {
  F f;
  ::cuda::std::tuple<const In*...> in;

  EAGERPP_THRUST_INLINE EAGERPP_HOST_DEVICE auto operator()(std::int64_t i) const {
    return call(i, std::index_sequence_for<In...>{});
  }

  template <std::size_t... K>
  EAGERPP_THRUST_INLINE EAGERPP_HOST_DEVICE auto call(std::int64_t i,
                                                      std::index_sequence<K...>) const {
    return f(thrust_load(::cuda::std::get<K>(in), ((Mask >> K) & 1U) != 0 ? 0 : i)...);
  }
};

/// The fast path: every operand has the result's shape, so element i reads element i of each.
template <class F, class... In>
using same_shape_fn = scalar_mask_fn<F, 0U, In...>;

/// Two operands, one of them a single element (a scalar operand: `x + 1`, `2 * x`): element i reads
/// element i of the other and the same element of this one, so the loop stays a plain vector loop.
template <class F, class A, class B, bool ScalarLeft>
struct scalar_operand_fn {
  F f;
  const A* a;
  const B* b;
  EAGERPP_THRUST_INLINE EAGERPP_HOST_DEVICE auto operator()(std::int64_t i) const {
    if constexpr (ScalarLeft)
      return f(thrust_load(a, 0), thrust_load(b, i));
    else
      return f(thrust_load(a, i), thrust_load(b, 0));
  }
};

/// Two operands, one of them the result's trailing extents (a row that repeats along the leading
/// axes: a bias): element (r, j) of the result, rows of `columns`, reads element (r, j) of the
/// other and element j of this one.
template <class F, class A, class B, bool RowLeft>
struct row_operand_fn {
  F f;
  const A* a;
  const B* b;
  std::int64_t columns;
  EAGERPP_THRUST_INLINE EAGERPP_HOST_DEVICE auto operator()(std::int64_t r, std::int64_t j) const {
    if constexpr (RowLeft)
      return f(thrust_load(a, j), thrust_load(b, r * columns + j));
    else
      return f(thrust_load(a, r * columns + j), thrust_load(b, j));
  }
};

/// thrust_map of two operands, one of the result's shape and the other one element or the
/// result's trailing extents (a row repeated along the leading axes: a bias, (C,) or (1, C)
/// against (N, C)), into `o`; false where the operands are not so (nothing written).
template <class S, class Out, class F, class ArrayA, class ArrayB>
bool thrust_map_scalar_or_row(std::string_view op, F& f, const Shape& shape, Out* o,
                              const ArrayA& a, const ArrayB& b) {
  using A = typename ArrayA::value_type;
  using B = typename ArrayB::value_type;
  const std::int64_t n = shape.numel();
  if (a.shape() == shape && b.size() == 1) {
    S::guard(op, [&] {
      S::write_n(n, o, scalar_operand_fn<F, A, B, false>{f, a.data(), b.data()});
    });
    return true;
  }
  if (b.shape() == shape && a.size() == 1) {
    S::guard(op, [&] {
      S::write_n(n, o, scalar_operand_fn<F, A, B, true>{f, a.data(), b.data()});
    });
    return true;
  }
  // Row r of the result reads row r of the one and the whole other, on a system that loops over
  // rows.
  if constexpr (system_members<S>::write_rows) {
    const auto trailing = [&shape](const Shape& s) {
      int first = 0;  // leading extents of 1 repeat the rest whole
      while (first < s.size() && s[first] == 1) ++first;
      const int lead = shape.size() - s.size();
      for (int d = first; d < s.size(); ++d)
        if (s[d] != shape[lead + d]) return false;
      return true;
    };
    if (a.shape() == shape && b.size() > 1 && trailing(b.shape())) {
      S::guard(op, [&] {
        S::write_rows(n / b.size(), b.size(), o,
                      row_operand_fn<F, A, B, false>{f, a.data(), b.data(), b.size()});
      });
      return true;
    }
    if (b.shape() == shape && a.size() > 1 && trailing(a.shape())) {
      S::guard(op, [&] {
        S::write_rows(n / a.size(), a.size(), o,
                      row_operand_fn<F, A, B, true>{f, a.data(), b.data(), a.size()});
      });
      return true;
    }
  }
  return false;
}

/// thrust_map where every operand has the result's shape or one element: the one-element operands
/// as a bit mask, a template argument of the functor (one kernel per mask), so that element i
/// reads element i or element 0 of each operand, a plain vector loop.
template <class S, class Out, class F, class... Arrays>
void thrust_map_scalars(std::string_view op, F& f, const Shape& shape, Out* o,
                        const Arrays&... xs) {
  constexpr int n_in = sizeof...(Arrays);
  const std::int64_t n = shape.numel();
  unsigned mask = 0;
  unsigned bit = 1;
  ((mask |= xs.shape() != shape ? bit : 0U, bit <<= 1), ...);
  S::guard(op, [&] {
    [&]<unsigned... M>(std::integer_sequence<unsigned, M...>) {
      (void)((mask == M + 1 && (S::write_n(n, o,
                                           scalar_mask_fn<F, M + 1, typename Arrays::value_type...>{
                                               f, {xs.data()...}}),
                                true)) ||
             ...);
    }
    (std::make_integer_sequence<unsigned, (1U << n_in) - 1>{});
  });
}

/// thrust_map of operands of any shapes: each read through its broadcast strides.
template <class S, class Out, class F, class... Arrays>
void thrust_map_strided(std::string_view op, F& f, const Shape& shape, Out* o,
                        const Arrays&... xs) {
  broadcast_layout<sizeof...(Arrays)> l;
  l.rank = shape.size();
  for (int a = 0; a < l.rank; ++a) l.dims[a] = shape[a];
  int k = 0;
  (
      [&](const Shape& s) {
        const Shape st = strides_of(s);
        const int lead = l.rank - s.size();
        for (int a = 0; a < s.size(); ++a) l.strides[k][lead + a] = s[a] == 1 ? 0 : st[a];
        ++k;
      }(xs.shape()),
      ...);
  broadcast_fn<F, typename Arrays::value_type...> fn{f, l, {xs.data()...}};
  S::guard(op, [&] { S::write_n(shape.numel(), o, fn); });
}

/// f applied element-wise with NumPy broadcasting; Out is the result's element type. Operands of
/// the result's shape are read at the result's index; a one-element operand through stride 0;
/// other shapes through broadcast strides.
/// (Arrays are S's arrays; their element types are not deduced through S::array, which nvcc's front
/// end cannot do, but read from value_type.)
template <class S, class Out, class F, class... Arrays>
thrust_array<S, Out> thrust_map(std::string_view op, F f, const Arrays&... xs) {
  // Operands of one shape (every block of a lazy expression's ops) need no broadcasting.
  const Shape& first = std::get<0>(std::forward_as_tuple(xs...)).shape();
  Shape shape = first;
  if (!((xs.shape() == first) && ...)) {
    shape = Shape();
    ((shape = broadcast_shapes(shape, xs.shape(), op)), ...);
  }
  thrust_array<S, Out> out(shape, op);
  const std::int64_t n = shape.numel();
  if (n == 0) return out;
  Out* o = out.mutable_data();
  if (((xs.shape() == shape) && ...)) {
    S::guard(op, [&] {
      S::write_n(n, o, same_shape_fn<F, typename Arrays::value_type...>{f, {xs.data()...}});
    });
    return out;
  }
  if constexpr (sizeof...(Arrays) == 2) {
    if (thrust_map_scalar_or_row<S>(op, f, shape, o, xs...)) return out;
  }
  if (((xs.shape() == shape || xs.size() == 1) && ...))
    thrust_map_scalars<S>(op, f, shape, o, xs...);
  else
    thrust_map_strided<S>(op, f, shape, o, xs...);
  return out;
}

template <class T>
struct fill_fn {
  T* out;
  T value;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t i) const { out[i] = value; }
};

template <class S, class T>
thrust_array<S, T> thrust_full(const Shape& shape, T value, std::string_view op) {
  thrust_array<S, T> out(shape, op);
  const std::int64_t n = shape.numel();
  if (n > 0) S::guard(op, [&] { S::for_n(n, fill_fn<T>{out.mutable_data(), value}); });
  return out;
}

// --- reductions
// ---------------------------------------------------------------------------------------

/// `x` seen as (outer, reduced, inner) for one block of consecutive axes [first, last].
struct axis_split {
  std::int64_t outer = 1, reduced = 1, inner = 1;
};
inline axis_split split_at(const Shape& s, int first, int last) {
  axis_split r;
  for (int a = 0; a < s.size(); ++a) (a < first ? r.outer : a > last ? r.inner : r.reduced) *= s[a];
  return r;
}

/// `x` seen as (outer, reduced, inner), reduced over the middle: as it lies where the axes are one
/// block of consecutive axes, else with the kept axes moved first and the reduced last (outer the
/// kept elements, inner 1). Axes are sorted and unique.
template <class S, class T>
std::pair<thrust_array<S, T>, axis_split> thrust_blocks(const thrust_array<S, T>& x,
                                                        std::span<const int> axes,
                                                        std::string_view op) {
  const Shape& s = x.shape();
  const int first = axes.front();
  const int last = axes.back();
  if (last - first + 1 == static_cast<int>(axes.size())) return {x, split_at(s, first, last)};
  int perm[max_rank];  // kept axes first, reduced axes last
  int k = 0;
  axis_split sp;
  for (int a = 0; a < s.size(); ++a)
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) {
      perm[k++] = a;
      sp.outer *= s[a];
    }
  for (int a : axes) {
    perm[k++] = a;
    sp.reduced *= s[a];
  }
  return {thrust_permute<S, T>(x, std::span<const int>(perm, static_cast<std::size_t>(k)), op), sp};
}

inline Shape kept_shape(const Shape& s, std::span<const int> axes) {
  Shape out;
  for (int a = 0; a < s.size(); ++a)
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) out.push_back(s[a]);
  return out;
}

/// Kept elements, times the chunks each column is cut into, that fill a GPU's threads (and a CPU's
/// many times over): a reduction over a middle axis with fewer kept elements cuts its reduced axis
/// into chunks (thrust_reduce_columns), each chunk at least column_chunk_rows long.
inline constexpr std::int64_t column_fill = std::int64_t{1} << 16;
inline constexpr std::int64_t column_chunk_rows = 64;

/// The chunks each column of (outer, reduced, inner) is cut into: enough for column_fill threads,
/// none shorter than column_chunk_rows; 1 where the kept elements fill the threads alone.
inline std::int64_t column_chunks(const axis_split& sp) {
  const std::int64_t kept = sp.outer * sp.inner;
  if (kept >= column_fill) return 1;
  const std::int64_t wanted = (column_fill + kept - 1) / kept;
  const std::int64_t most = sp.reduced / column_chunk_rows;
  return std::max<std::int64_t>(1, std::min(wanted, most));
}

/// S::reduce_columns where the system has it, else one thread per result element
/// (thrust_fn::column_reduce_fn): `in` seen as (outer, rows, columns), the (outer, chunks, columns)
/// results of its rows cut into `chunks` into `out`.
template <class S, class Out, class InIt, class Op, class Init>
void thrust_reduce_chunks(InIt in, Out* out, std::int64_t outer, std::int64_t rows,
                          std::int64_t columns, std::int64_t chunks, Op op, Init init,
                          std::string_view name) {
  S::guard(name, [&] {
    if constexpr (system_members<S>::reduce_columns)
      S::reduce_columns(in, out, outer, rows, columns, chunks, op, init);
    else
      S::write_n(
          outer * chunks * columns, out,
          thrust_fn::column_reduce_fn<Out, InIt, Op, Init>{in, op, init, rows, columns, chunks});
  });
}

/// `in` seen as (sp.outer, sp.reduced, sp.inner) reduced over the middle where it lies, into the
/// (outer, inner) results: each result element reads its column with stride inner; a reduced axis
/// too long for the few kept elements to fill the threads is cut into chunks (column_chunks),
/// whose results are then reduced in turn.
template <class S, class Out, class InIt, class Op, class Init>
void thrust_reduce_columns(InIt in, Out* out, const axis_split& sp, Op op, Init init,
                           std::string_view name) {
  const std::int64_t chunks = column_chunks(sp);
  if (chunks == 1) {
    thrust_reduce_chunks<S>(in, out, sp.outer, sp.reduced, sp.inner, 1, op, init, name);
    return;
  }
  thrust_array<S, Out> partial(Shape{sp.outer, chunks, sp.inner}, name);
  thrust_reduce_chunks<S>(in, partial.mutable_data(), sp.outer, sp.reduced, sp.inner, chunks, op,
                          init, name);
  thrust_reduce_chunks<S>(partial.data(), out, sp.outer, chunks, sp.inner, 1, op, init, name);
}

/// `in` seen as (sp.outer, sp.reduced, sp.inner) reduced over the middle into the (outer, inner)
/// results: S::segmented_reduce where the reduced elements are consecutive (inner 1), else in place
/// (thrust_reduce_columns).
template <class S, class Out, class InIt, class Op, class Init>
void thrust_reduce_blocks(InIt in, Out* out, const axis_split& sp, Op op, Init init,
                          std::string_view name) {
  if (sp.inner == 1)
    S::segmented_reduce(in, out, sp.outer, sp.reduced, op, init, name);
  else
    thrust_reduce_columns<S>(in, out, sp, op, init, name);
}

/// What a reduction does after its results are computed (thrust_reduce's `then`): nothing.
struct no_step {
  template <class T>
  void operator()(const T*, T*, const axis_split&) const {}
};

/// The reduction of `x` over `axes` with `op`, whose identity is `init`; then `then(the data seen
/// as (outer, reduced, inner), results, its split)`. A block of consecutive axes is reduced where
/// it lies (thrust_reduce_blocks); other axes are first permuted into one.
template <class S, class T, class Op, class Then = no_step>
thrust_array<S, T> thrust_reduce(const thrust_array<S, T>& x, std::span<const int> axes, Op op,
                                 T init, std::string_view name, Then then = {}) {
  const Shape shape = kept_shape(x.shape(), axes);
  if (shape.numel() == 0) return thrust_array<S, T>(shape, name);
  if (x.size() == 0) return thrust_full<S>(shape, init, name);
  const auto [src, sp] = thrust_blocks<S, T>(x, axes, name);
  thrust_array<S, T> out(shape, name);
  thrust_reduce_blocks<S>(src.data(), out.mutable_data(), sp, op, init, name);
  then(src.data(), out.mutable_data(), sp);
  return out;
}

/// min (Max = false) or max over `axes` with IEEE 754-2019's order of zeros (-0.0 < +0.0): the
/// cheap reducer, then zero_extremum_fn on each result.
template <bool Max, class S, class T>
thrust_array<S, T> thrust_extremum(const thrust_array<S, T>& x, std::span<const int> axes, T init,
                                   std::string_view name) {
  constexpr thrust_fn::extremum_reduce_fn<Max> op{};
  if constexpr (!std::is_floating_point_v<T>) {
    return thrust_reduce<S, T>(x, axes, op, init, name);
  } else {
    return thrust_reduce<S, T>(
        x, axes, op, init, name, [name](const T* src, T* out, const axis_split& sp) {
          const thrust_fn::zero_extremum_fn<Max, T> fix{src, out, sp.reduced, sp.inner};
          S::guard(name, [&] { S::for_n(sp.outer * sp.inner, fix); });
        });
  }
}

/// argmin (IsMax = false) or argmax along `axis`: the first index of the extreme, NaN first. The
/// candidates (index along the axis, value) are reduced where they lie, as thrust_reduce's values.
template <bool IsMax, class S, class T>
thrust_array<S, std::int64_t> thrust_arg_reduce(const thrust_array<S, T>& x, int axis,
                                                std::string_view name) {
  const int axes[1] = {axis};
  const Shape shape = kept_shape(x.shape(), axes);
  const std::int64_t segments = shape.numel();
  if (segments == 0) return thrust_array<S, std::int64_t>(shape, name);
  if (x.size() == 0) return thrust_full<S, std::int64_t>(shape, 0, name);
  const axis_split sp = split_at(x.shape(), axis, axis);
  using pair = thrust_fn::arg_pair<T>;
  thrust_array<S, pair> best(Shape(segments), name);
  const auto in = thrust::make_transform_iterator(
      thrust_count(), thrust_fn::arg_candidate_fn<T>{x.data(), sp.reduced, sp.inner});
  thrust_reduce_blocks<S>(in, best.mutable_data(), sp, thrust_fn::arg_op<T, IsMax>{},
                          pair{0, T{}, false}, name);
  thrust_array<S, std::int64_t> out(shape, name);
  const pair* b = best.data();
  S::guard(name, [&] { S::write_n(segments, out.mutable_data(), thrust_fn::arg_index_fn<T>{b}); });
  return out;
}

/// Cumulative sum along `axis`, x seen as (outer, n, inner): a segmented inclusive scan
/// (thrust::inclusive_scan_by_key with key i / n) where the axis is last, else a scan of each
/// column where it lies (thrust_fn::column_scan_fn); a long axis with few columns is cut into
/// chunks as thrust_reduce_columns cuts it, each chunk's scan starting from the sums of the chunks
/// before it.
template <class S, class T>
thrust_array<S, T> thrust_cumsum(const thrust_array<S, T>& x, int axis, std::string_view name) {
  const axis_split sp = split_at(x.shape(), axis, axis);
  thrust_array<S, T> out(x.shape(), name);
  if (x.size() == 0) return out;
  const thrust_fn::plus_fn plus;
  if (sp.inner == 1) {
    const std::int64_t n = x.size();
    const auto keys =
        thrust::make_transform_iterator(thrust_count(), thrust_fn::segment_fn{sp.reduced});
    S::guard(name, [&] {
      thrust::inclusive_scan_by_key(S::policy(), keys, keys + n, x.data(), out.mutable_data());
    });
    return out;
  }
  const std::int64_t chunks = column_chunks(sp);
  const std::int64_t units = sp.outer * chunks * sp.inner;
  thrust_array<S, T> partial(Shape(chunks == 1 ? 0 : units), name);
  if (chunks > 1)  // -0.0: the identity of a float sum that keeps a sum of -0.0 as it is
    thrust_reduce_chunks<S>(x.data(), partial.mutable_data(), sp.outer, sp.reduced, sp.inner,
                            chunks, plus, std::is_floating_point_v<T> ? T(-0.0) : T(0), name);
  const thrust_fn::column_scan_fn<T, thrust_fn::plus_fn> scan{
      x.data(), out.mutable_data(), partial.data(), plus, sp.reduced, sp.inner, chunks};
  S::guard(name, [&] { S::for_n(units, scan); });
  return out;
}

// --- matmul
// ---------------------------------------------------------------------------------------------

/// The sizes of op(a) op(b) for a stored as (..., n, k) or, transposed, (..., k, n), and b as
/// (..., k, m) or (..., m, k).
struct gemm_dims {
  std::int64_t batch, n, k, m;
  Shape shape;
};
inline gemm_dims gemm_dims_of(const Shape& as, const Shape& bs, bool transpose_a,
                              bool transpose_b) {
  const int r = as.size();
  gemm_dims d{};
  d.n = as[r - (transpose_a ? 1 : 2)];
  d.k = as[r - (transpose_a ? 2 : 1)];
  d.m = bs[r - (transpose_b ? 2 : 1)];
  d.shape = as;
  d.shape[r - 2] = d.n;
  d.shape[r - 1] = d.m;
  d.batch = d.shape.numel() / (d.n * d.m == 0 ? 1 : d.n * d.m);
  return d;
}

/// C[b] = op(A[b]) op(B[b]) for integer and bool types, one call per output element (NumPy's bool
/// matmul is the OR of ANDs); a transposed operand is read in place. BLAS serves float and double.
template <class T>
struct int_matmul_fn {
  const T* a;
  const T* b;
  T* c;
  std::int64_t n, k, m;
  bool transpose_a, transpose_b;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t idx) const {
    const std::int64_t batch = idx / (n * m);
    const std::int64_t r = idx - batch * n * m;
    const std::int64_t i = r / m;
    const std::int64_t j = r - i * m;
    // Element (i, t) of op(A) and (t, j) of op(B): pa[t * sa], pb[t * sb].
    const T* pa = a + batch * n * k + (transpose_a ? i : i * k);
    const T* pb = b + batch * k * m + (transpose_b ? j * k : j);
    const std::int64_t sa = transpose_a ? n : 1;
    const std::int64_t sb = transpose_b ? 1 : m;
    if constexpr (std::is_same_v<T, bool>) {
      bool acc = false;
      for (std::int64_t t = 0; t < k && !acc; ++t) acc = pa[t * sa] && pb[t * sb];
      c[idx] = acc;
    } else {
      T acc = 0;
      for (std::int64_t t = 0; t < k; ++t) acc = static_cast<T>(acc + pa[t * sa] * pb[t * sb]);
      c[idx] = acc;
    }
  }
};

/// op(a) op(b): S::gemm (cuBLAS, OpenBLAS) for float and double, int_matmul_fn for the others.
template <class S, class T>
thrust_array<S, T> thrust_matmul(const thrust_array<S, T>& a, const thrust_array<S, T>& b,
                                 bool transpose_a, bool transpose_b, std::string_view name) {
  const gemm_dims d = gemm_dims_of(a.shape(), b.shape(), transpose_a, transpose_b);
  if (d.shape.numel() == 0) return thrust_array<S, T>(d.shape, name);
  if (d.k == 0) return thrust_full<S>(d.shape, T{0}, name);
  thrust_array<S, T> out(d.shape, name);
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    S::gemm(a.data(), b.data(), out.mutable_data(),
            gemm_layout::of(d.batch, d.n, d.k, d.m, transpose_a, transpose_b), name);
  } else {
    S::guard(name, [&] {
      S::for_n(d.shape.numel(), int_matmul_fn<T>{a.data(), b.data(), out.mutable_data(), d.n, d.k,
                                                 d.m, transpose_a, transpose_b});
    });
  }
  return out;
}

}  // namespace ep::detail
