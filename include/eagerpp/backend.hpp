// eagerpp - the ep::backend concept and the documented contract every backend fulfils
// SPDX-License-Identifier: MIT
#pragma once

#include <concepts>  // std::same_as, std::convertible_to, std::copyable
#include <cstdint>   // std::int64_t
#include <span>      // std::span

#include "eagerpp/fwd.hpp"
#include "eagerpp/shape.hpp"

namespace ep {

/// A backend is one stateless struct per element type, e.g. `ep::eigen<float>`, with the nested
/// types below and one static function per op. The facade validates and normalizes every argument
/// before it calls a backend, so backends never see bad input: shapes broadcast, axes are sorted,
/// unique and non-negative, sizes match. `R` is `raw_type`, `T` is `value_type`, `Rb<U>` is
/// `rebind<U>::raw_type`.
///
/// Required members (the concept checks the first group; the consistency suite, which instantiates
/// every op family for every backend, checks the rest):
///
///   static constexpr std::string_view name;          // "eigen", "xtensor", "cuda"
///   using value_type = T;                             // one of ep::dtype
///   using raw_type = R;                               // the native tensor; copying it is O(1)
///   template <class U> using rebind = Backend<U>;     // same backend, other element type
///   static Shape shape(const R&);                    // or const Shape&, where R holds one
///   static R from_data(const T* data, const Shape&); // copies n = shape.numel() elements, C order
///   static void to_data(const R&, T* out);           // copies every element out, C order
///
///   creation      full(shape, T value), arange(T start, T step, int64 n)
///   conversion    reshape(x, shape) (same numel, O(1) where the layout allows),
///                 template <class U> Rb<U> astype(x)
///   unary         abs sign sqrt square exp log log2 log10 log1p sin cos tan arcsin arccos arctan
///                 sinh cosh tanh arcsinh arccosh arctanh round ceil floor negative -> R
///                 (round is half to even; the transcendental ones are only called for float T)
///                 clip(x, T lo, T hi) -> R; isnan isinf -> Rb<bool>; logical_not (bool T) -> R
///   binary        add subtract multiply divide floor_divide mod power minimum maximum -> R
///                 less less_equal greater greater_equal equal not_equal -> Rb<bool>
///                 logical_and logical_or (bool T) -> R
///                 where(const Rb<bool>& cond, x, y) -> R
///                 Operands have shapes that broadcast together (NumPy rules, checked by the
///                 facade); the result has the broadcast shape. floor_divide and mod follow NumPy
///                 (floor; the remainder takes the divisor's sign); integer division by zero gives 0.
///   reductions    sum prod min max all any (x, std::span<const int> axes) -> R, the reduced axes
///                 removed; axes are sorted, unique, non-empty, and never name an axis of extent 0
///                 for min and max. argmin argmax (x, int axis) -> Rb<int64_t>, first occurrence;
///                 cumsum(x, int axis) -> R
///   shape         transpose(x, std::span<const int> perm), broadcast_to(x, shape),
///                 flip(x, std::span<const int> axes),
///                 slice(x, std::span<const int64_t> start, std::span<const int64_t> step, shape)
///                   -> the elements start[i] + k * step[i], k < shape[i], along each axis (step > 0),
///                 pad(x, std::span<const std::int64_t> before, std::span<const std::int64_t> after, T value),
///                 concatenate(std::span<const R> parts, int axis) (same rank, equal off-axis extents)
///   indexing      take(x, const Rb<int64_t>& index) -> R: x is 1-D, the result has index's shape and
///                   element i is x[index[i]]; indices are in range (checked by the facade)
///                 put(x, const Rb<int64_t>& index, values) -> R: x, index, values 1-D, index and values
///                   of one length; a copy of x with x[index[i]] = values[i] (a repeated index: last wins)
///                 put_add(x, const Rb<int64_t>& index, values) -> R: as put, but x[index[i]] += values[i]
///   sorting       sort(x, int axis) -> R, argsort(x, int axis) -> Rb<int64_t>: ascending, stable,
///                   NaN last (NumPy's order)
///   linalg        matmul(a, b, bool transpose_a, bool transpose_b) -> R: op(a) op(b) per batch, where
///                   op(a) is a or, when transpose_a, a with its last two axes swapped (read in
///                   place, never materialized); op(a) (..., n, k), op(b) (..., k, m) with equal batch
///                   extents -> (..., n, m)
///
/// Anything else (keepdims, negative axes, scalars, mean, squeeze, stack, softmax, ...) the facade
/// builds from these, once for every backend.
///
/// Optional: a host backend that keeps C-order elements in shared memory may define
///   share_host(x) -> std::shared_ptr<T> and from_host_shared(std::shared_ptr<T>, const Shape&) -> R,
/// so that ep::to between two such backends shares the elements instead of copying them.
/// Optional: map_reduce(detail::reduce_kind, detail::map_kind, x) -> R of shape (), the sum, min or
/// max of x's squares or absolute values in one pass over non-empty x; with it, `x.square().sum()`
/// and `x.abs().max()` read x once (include/eagerpp/detail/fusion.hpp).
template <class B>
concept backend = requires {
  typename B::value_type;
  typename B::raw_type;
  typename B::template rebind<bool>;
  { B::name } -> std::convertible_to<std::string_view>;
} && dtype<typename B::value_type> && std::copyable<typename B::raw_type> &&
requires(const typename B::raw_type& r, const typename B::value_type* p, typename B::value_type* out,
         const Shape& s) {
  { B::shape(r) } -> std::convertible_to<Shape>;
  { B::from_data(p, s) } -> std::same_as<typename B::raw_type>;
  B::to_data(r, out);
};

template <backend Backend>
class Tensor;

}  // namespace ep
