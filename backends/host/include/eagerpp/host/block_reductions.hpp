// eagerpp - the host layer's lazy_engine, and reductions of lazy expressions from their blocks
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>  // std::min
#include <array>      // std::array
#include <cstddef>    // std::size_t
#include <cstdint>    // std::int64_t
#include <memory>     // std::shared_ptr
#include <optional>   // std::optional
#include <span>       // std::span

#include "eagerpp/detail/fusion.hpp"
#include "eagerpp/host/blocks.hpp"
#include "eagerpp/ops/reductions.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"

namespace ep::detail {

/// The extents (outer, reduced, inner) of a reduction whose reduced axes are one contiguous range
/// of `s`, or std::nullopt where they are not.
inline std::optional<std::array<std::int64_t, 3>> contiguous_reduction(const Shape& s,
                                                                       const reduction_plan& p) {
  const int rank = s.size();
  int k0 = 0;
  while (!p.reduces(k0)) ++k0;
  int k1 = k0;
  while (k1 < rank && p.reduces(k1)) ++k1;
  for (int i = k1; i < rank; ++i)
    if (p.reduces(i)) return std::nullopt;  // not one range
  std::array<std::int64_t, 3> extents{1, 1, 1};
  for (int i = 0; i < k0; ++i) extents[0] *= s[i];
  for (int i = k0; i < k1; ++i) extents[1] *= s[i];
  for (int i = k1; i < rank; ++i) extents[2] *= s[i];
  return extents;
}

/// What reduce_blocks reduces the blocks of an expression with: the backend reduction `f`, or the
/// map the backend's reduction takes in (`map_reduce` of `map`, applied as the input is loaded).
template <class B>
struct block_reducer {
  using T = typename B::value_type;
  using raw_type = typename B::raw_type;
  const lazy_expr<B>& e;
  const reduction_ref<raw_type>& f;
  map_reduce_fn<raw_type> map_reduce;
  std::optional<map_kind> map;
  std::int64_t inner;
  std::int64_t bytes;
  static constexpr int middle[] = {1};
  static constexpr int first[] = {0};

  /// A block of (r, n) elements (inner == 1) or (r, n, inner) from `begin`, reduced over its
  /// middle axis into `to`. (A rank-1 block, r == 1 and inner == 1, is reduced as it is: the
  /// backends' full reduction.)
  void reduce_middle(block_context& ctx, std::int64_t begin, std::int64_t r, std::int64_t n,
                     T* to) const {
    if (r == 1 && inner == 1) {
      if (map) return B::to_data(map_reduce(*map, e.map_input_block(ctx, begin, n)), to);
      return B::to_data(f(e.block(ctx, begin, n), std::span<const int>(first)), to);
    }
    const raw_type b = e.block(ctx, begin, r * n * inner);
    B::to_data(f(B::reshape(b, inner == 1 ? Shape{r, n} : Shape{r, n, inner}),
                 std::span<const int>(middle)),
               to);
  }

  /// `body(ctx, i)` for the work items [0, count), over the threads for_blocks gives.
  template <class Body>
  void in_ranges(std::int64_t count, const Body& body) const {
    for_blocks<B>(count, [&](std::int64_t lo, std::int64_t hi) {
      block_context ctx = e.context(bytes);
      for (std::int64_t i = lo; i < hi; ++i) body(ctx, i);
    });
  }

  /// out (outer, inner) = the (outer, red, inner) expression reduced over red, each block whole
  /// (red, inner) slices: red * inner <= step.
  void slices(std::int64_t outer, std::int64_t red, std::int64_t step, T* out) const {
    const std::int64_t slices = step / (red * inner);
    in_ranges((outer + slices - 1) / slices, [&](block_context& ctx, std::int64_t i) {
      const std::int64_t o = i * slices;
      reduce_middle(ctx, o * red * inner, std::min(slices, outer - o), red, out + o * inner);
    });
  }

  /// out as `slices` gives it where a slice is longer than a block: each block rows of `inner`
  /// elements of one slice, reduced to one partial row; then the partial rows, (outer, parts,
  /// inner), reduced over their middle axis.
  void partial_rows(std::int64_t outer, std::int64_t red, std::int64_t step, T* out) const {
    const std::int64_t rows = step / inner;
    const std::int64_t parts = (red + rows - 1) / rows;
    std::shared_ptr<T> partial =
        allocate_storage<T>(static_cast<std::size_t>(outer * parts * inner));
    in_ranges(outer * parts, [&](block_context& ctx, std::int64_t i) {
      const std::int64_t o = i / parts;
      const std::int64_t j = i % parts * rows;
      reduce_middle(ctx, (o * red + j) * inner, 1, std::min(rows, red - j),
                    partial.get() + i * inner);
    });
    const raw_type all = B::from_host_shared(partial, Shape{outer, parts, inner});
    B::to_data(f(all, std::span<const int>(middle)), out);
  }
};

/// reduce_raw's block reduction (ops/reductions.hpp), for an expression held by `x` alone. A
/// reduced range longer than a block is reduced block by block into partial results, which `f`
/// then reduces (a sum of sums, a min of mins). The reduced axes must be one contiguous range and
/// the kept inner extent at most a block.
template <class Tn>
std::optional<typename Tn::raw_type> reduce_blocks(
    const Tn& x, const reduction_plan& p, const reduction_ref<typename Tn::raw_type>& f,
    map_reduce_fn<typename Tn::raw_type> map_reduce) {
  using B = typename Tn::backend_type;
  using T = typename B::value_type;
  // An expression that something else holds too (the tape, another expression, a copy of the
  // tensor) will be read again: computed once here and reduced, rather than computed once per use.
  // Only a sole reference (`x.square().sum()`, a temporary) is reduced from its blocks.
  // An empty expression has no blocks (and the eager reduction gives the empty result or error).
  if (lazy_access::expr(x).use_count() > 1 || x.size() == 0) return std::nullopt;
  const lazy_expr<B>& e = *lazy_access::expr(x);
  const auto extents = contiguous_reduction(e.shape(), p);
  if (!extents) return std::nullopt;
  const auto [outer, red, inner] = *extents;
  const std::int64_t bytes = thread_fusion().block_bytes;
  const std::int64_t step = block_elements<T>(bytes);
  if (inner > step) return std::nullopt;
  std::shared_ptr<T> out = allocate_storage<T>(static_cast<std::size_t>(outer * inner));
  // A rank-1 block whose last op is a map the backend's reduction takes in (square, abs under a
  // sum, min or max) is reduced from that op's input: the map is applied as the input is loaded.
  std::optional<map_kind> map;
  if (map_reduce != nullptr && inner == 1) map = e.map();
  // Over every element of a map of a computed tensor: one pass, nothing to keep in cache.
  if (map && outer == 1 && e.map_input_computed()) {
    block_context ctx = e.context(bytes);
    B::to_data(map_reduce(*map, e.map_input_block(ctx, 0, red)), out.get());
    return B::from_host_shared(std::move(out), Shape{1});
  }
  const block_reducer<B> reducer{e, f, map_reduce, map, inner, bytes};
  if (red * inner <= step)
    reducer.slices(outer, red, step, out.get());
  else
    reducer.partial_rows(outer, red, step, out.get());
  return B::from_host_shared(std::move(out), Shape{outer * inner});
}

/// The host layer's lazy engine (detail/fusion.hpp: lazy_engine): element-wise results, strided
/// slices and constant pads kept as expressions evaluated in blocks (host/blocks.hpp), reductions
/// taken from the blocks.
template <class B>
requires blocked_backend<B>
struct lazy_engine<B> {
  template <class F, class... In>
  static std::shared_ptr<const lazy_expr<B>> result(const elementwise_call<F, In...>& call) {
    return lazy_elementwise<B>(call);
  }
  static std::shared_ptr<const lazy_expr<B>> slice(const typename B::raw_type& x, const Shape& in,
                                                   const Shape& start, const Shape& step,
                                                   const Shape& out) {
    return lazy_slice<B>(x, in, start, step, out);
  }
  template <class Tn>
  static std::optional<typename Tn::raw_type> pad(const Tn& x, std::span<const std::int64_t> before,
                                                  std::span<const std::int64_t> after,
                                                  typename Tn::value_type value) {
    return lazy_pad(x, before, after, value);
  }
  template <class Tn>
  static std::optional<typename Tn::raw_type> reduce(
      const Tn& x, const reduction_plan& p, const reduction_ref<typename Tn::raw_type>& f,
      map_reduce_fn<typename Tn::raw_type> map_reduce) {
    return reduce_blocks(x, p, f, map_reduce);
  }
  template <class Tn>
  static typename Tn::raw_type update(const Tn& x, const Shape& start, const Shape& step,
                                      const Shape& out, const Tn& v) {
    return host_strided_update(x, start, step, out, v);
  }
};

}  // namespace ep::detail
