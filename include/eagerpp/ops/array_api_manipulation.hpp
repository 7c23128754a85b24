// eagerpp - the array API's manipulation functions written with the facade's ops: diff, roll,
// moveaxis, matrix_transpose, vecdot, clip, tensordot, expand_dims, unstack, broadcast_arrays,
// cumulative_sum, repeat and cumulative_prod (included by ops/array_api.hpp)
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::find
#include <concepts>     // std::same_as
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t
#include <optional>     // std::optional, std::nullopt
#include <set>          // std::set
#include <type_traits>  // std::is_floating_point_v
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/axes.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/functions.hpp"
#include "eagerpp/ops/shape.hpp"
#include "eagerpp/tensor.hpp"

// Compositions of facade ops, as everything in ops/array_api.hpp: they run on every backend and
// are differentiated by the ops' own rules.
namespace ep {

/// The n-th forward difference along `axis`, x[1:] - x[:-1] applied n times (array API: `diff`;
/// NumPy: `diff`). n = 0 returns x; the axis shrinks by n (to 0 at most).
template <backend B>
Tensor<B> diff(const Tensor<B>& x, int axis = -1, int n = 1) {
  const Shape s = x.shape();
  if (s.size() == 0) throw value_error("diff: x is 0-dimensional; expected at least one axis");
  const int a = detail::normalize_axis("diff", axis, s);
  if (n < 0) throw value_error(fmt::format("diff: n = {}; expected n >= 0", n));
  Tensor<B> r = x;
  for (int i = 0; i < n && r.shape()[a] > 0; ++i) {
    const std::int64_t len = r.shape()[a];
    r = detail::slice_axis(r, a, 1, len) - detail::slice_axis(r, a, 0, len - 1);
  }
  return r;
}

/// x with its elements shifted by `shift` along `axis`, those past the end coming back at the start
/// (array API: `roll`); without an axis, over the flattened tensor, then reshaped back.
template <backend B>
Tensor<B> roll(const Tensor<B>& x, std::int64_t shift, std::optional<int> axis = std::nullopt) {
  if (!axis) {
    if (x.size() == 0) return x;
    return roll(x.reshape({-1}), shift, 0).reshape(x.shape());
  }
  const int a = detail::normalize_axis("roll", *axis, x.shape());
  const std::int64_t n = x.shape()[a];
  if (n == 0) return x;
  const std::int64_t s = ((shift % n) + n) % n;
  if (s == 0) return x;
  return concatenate(std::vector<Tensor<B>>{detail::slice_axis(x, a, n - s, n),
                                            detail::slice_axis(x, a, 0, n - s)},
                     a);
}

/// x with axis `source` moved to position `destination`, the others in order (array API:
/// `moveaxis`).
template <backend B>
Tensor<B> moveaxis(const Tensor<B>& x, int source, int destination) {
  const int from = detail::normalize_axis("moveaxis", source, x.shape());
  const int to = detail::normalize_axis("moveaxis", destination, x.shape());
  std::vector<int> perm;
  for (int i = 0; i < x.ndim(); ++i)
    if (i != from) perm.push_back(i);
  perm.insert(perm.begin() + to, from);
  return x.transpose(perm);
}

/// x with its last two axes swapped (array API: `matrix_transpose`, the `mT` attribute).
template <backend B>
Tensor<B> matrix_transpose(const Tensor<B>& x) {
  const int r = x.ndim();
  if (r < 2)
    throw value_error(fmt::format("matrix_transpose: x has shape {}; expected at least two axes",
                                  x.shape().str()));
  std::vector<int> perm;
  for (int i = 0; i < r - 2; ++i) perm.push_back(i);
  perm.push_back(r - 1);
  perm.push_back(r - 2);
  return x.transpose(perm);
}

/// The dot products of a and b along `axis` after broadcasting (array API: `vecdot`, real dtypes):
/// sum(a * b, axis). The operands must have the same extent on that axis.
template <backend B>
Tensor<B> vecdot(const Tensor<B>& a, const Tensor<B>& b, int axis = -1) {
  const Shape sa = a.shape(), sb = b.shape();
  const int ia = detail::normalize_axis("vecdot", axis, sa);
  const int ib = detail::normalize_axis("vecdot", axis, sb);
  if (sa[ia] != sb[ib])
    throw value_error(fmt::format(
        "vecdot: the operands of shapes {} and {} have extents {} and {} along axis {}; expected "
        "equal extents",
        sa.str(), sb.str(), sa[ia], sb[ib], axis));
  // x's dtype, as the standard says: sum widens 8- and 16-bit integers, and the products' sum
  // taken modulo 2^bits is NumPy's wrapping vecdot.
  return (a * b).sum(axis).template astype<typename B::value_type>();
}

EAGERPP_MIXED_FUNCTION(vecdot)

/// x clipped to [min_, max_] element by element with tensor bounds that broadcast (array API: `clip`
/// with array bounds): minimum(maximum(x, min_), max_). The gradient goes to x where it lies
/// inside, to a bound where the bound applies.
template <backend B>
Tensor<B> clip(const Tensor<B>& x, const Tensor<B>& min_, const Tensor<B>& max_) {
  return x.maximum(min_).minimum(max_);
}

/// The sum of products over the last `axes` axes of a and the first `axes` axes of b (array API:
/// `tensordot` with an integer): shape a.shape[:-axes] + b.shape[axes:]; axes = 0 is the outer
/// product. One matrix product after moving and merging the contracted axes.
template <backend B>
Tensor<B> tensordot(const Tensor<B>& a, const Tensor<B>& b, int axes = 2) {
  const Shape sa = a.shape(), sb = b.shape();
  if (axes < 0 || axes > sa.size() || axes > sb.size())
    throw value_error(fmt::format(
        "tensordot: axes = {} for operands of shapes {} and {}; expected 0 <= axes <= the rank "
        "of each",
        axes, sa.str(), sb.str()));
  std::int64_t k = 1, m = 1, n = 1;
  Shape out;
  for (int i = 0; i < axes; ++i) {
    if (sa[sa.size() - axes + i] != sb[i])
      throw value_error(fmt::format(
          "tensordot: the contracted axes of shapes {} and {} differ ({} against {} at position "
          "{}); expected equal extents",
          sa.str(), sb.str(), sa[sa.size() - axes + i], sb[i], i));
    k *= sb[i];
  }
  for (int i = 0; i < sa.size() - axes; ++i) {
    m *= sa[i];
    out.push_back(sa[i]);
  }
  for (int i = axes; i < sb.size(); ++i) {
    n *= sb[i];
    out.push_back(sb[i]);
  }
  return a.reshape({m, k}).matmul(b.reshape({k, n})).reshape(out);
}

/// x with an axis of extent 1 inserted at each of `axes`, counted in the result's axes (array API
/// 2025.12: `expand_dims` with a tuple of axes; one axis: `x.expand_dims(axis)`); throws
/// `ep::value_error` for an axis out of range or named twice.
template <backend B>
Tensor<B> expand_dims(const Tensor<B>& x, const std::vector<int>& axes) {
  const Shape s = x.shape();
  const int n = s.size() + static_cast<int>(axes.size());
  std::vector<bool> inserted(static_cast<std::size_t>(n), false);
  for (int a : axes) {
    if (a < -n || a >= n)
      throw value_error(fmt::format(
          "expand_dims: axis {} is out of range for {} axes inserted into a tensor of shape {}; "
          "expected {} <= axis < {}",
          a, axes.size(), s.str(), -n, n));
    const auto k = static_cast<std::size_t>(a < 0 ? a + n : a);
    if (inserted[k])
      throw value_error(fmt::format("expand_dims: axis {} is named twice; expected distinct axes",
                                    static_cast<int>(k)));
    inserted[k] = true;
  }
  Shape out;
  int next = 0;
  for (int i = 0; i < n; ++i) out.push_back(inserted[static_cast<std::size_t>(i)] ? 1 : s[next++]);
  return x.reshape(out);
}

/// The slices of x along `axis`, each without that axis (array API: `unstack`).
template <backend B>
std::vector<Tensor<B>> unstack(const Tensor<B>& x, int axis = 0) {
  const int a = detail::normalize_axis("unstack", axis, x.shape());
  const Tensor<B> moved = moveaxis(x, a, 0);
  std::vector<Tensor<B>> out;
  for (std::int64_t i = 0; i < moved.shape()[0]; ++i) out.push_back(moved(i));
  return out;
}

/// The tensors broadcast to their common shape (array API: `broadcast_arrays`); throws
/// ep::value_error naming the shapes that do not broadcast.
template <backend B>
std::vector<Tensor<B>> broadcast_arrays(const std::vector<Tensor<B>>& xs) {
  if (xs.empty()) return {};
  Shape common = xs.front().shape();
  for (const auto& x : xs) common = broadcast_shapes(common, x.shape(), "broadcast_arrays");
  std::vector<Tensor<B>> out;
  for (const auto& x : xs) out.push_back(x.broadcast_to(common));
  return out;
}

/// The cumulative sum along `axis` (array API: `cumulative_sum`; NumPy: `cumsum`); with
/// `include_initial` the result starts with a 0, one element longer along the axis. A 1-D x needs
/// no axis.
template <backend B>
auto cumulative_sum(const Tensor<B>& x, std::optional<int> axis = std::nullopt,
                    bool include_initial = false) {
  if (!axis && x.ndim() != 1)
    throw value_error(fmt::format(
        "cumulative_sum: x has shape {}; expected an axis for a tensor of more than one axis",
        x.shape().str()));
  const int a = detail::normalize_axis("cumulative_sum", axis.value_or(0), x.shape());
  auto s = x.cumsum(a);
  if (!include_initial) return s;
  Paddings p(static_cast<std::size_t>(x.ndim()), {0, 0});
  p[static_cast<std::size_t>(a)] = {1, 0};
  return s.pad(p);
}

/// Each element of x repeated along `axis` (flattened x when there is none) `repeats` times, or
/// repeats[i] times for the i-th (array API: `repeat`). Differentiable: a gather whose gradient
/// sums the copies.
template <backend B>
Tensor<B> repeat(const Tensor<B>& x, const std::vector<std::int64_t>& repeats,
                 std::optional<int> axis = std::nullopt) {
  const Tensor<B> src = axis ? moveaxis(x, detail::normalize_axis("repeat", *axis, x.shape()), 0)
                             : x.reshape({x.size()});
  const std::int64_t n = src.ndim() == 0 ? 1 : src.shape()[0];
  if (repeats.size() != 1 && static_cast<std::int64_t>(repeats.size()) != n)
    throw value_error(fmt::format(
        "repeat: {} repeats for {} elements along the axis of x of shape {}; expected 1 or {}",
        repeats.size(), n, x.shape().str(), n));
  std::vector<std::int64_t> index;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t r = repeats.size() == 1 ? repeats[0] : repeats[static_cast<std::size_t>(i)];
    if (r < 0)
      throw value_error(fmt::format("repeat: repeats[{}] = {}; expected counts >= 0", i, r));
    index.insert(index.end(), static_cast<std::size_t>(r), i);
  }
  const auto idx = from_vector<typename B::template rebind<std::int64_t>>(
      index, Shape{static_cast<std::int64_t>(index.size())});
  const Tensor<B> out = src[idx];
  return axis ? moveaxis(out, 0, detail::normalize_axis("repeat", *axis, x.shape())) : out;
}
template <backend B>
Tensor<B> repeat(const Tensor<B>& x, std::int64_t repeats, std::optional<int> axis = std::nullopt) {
  return repeat(x, std::vector<std::int64_t>{repeats}, axis);
}

namespace detail {
template <class Tn>
Tn cumulative_prod_of(const Tn& x, int axis);

/// x's sum from each position to the end along `axis`.
template <class Tn>
Tn reverse_cumsum(const Tn& x, int axis) {
  return x.flip(axis).cumsum(axis).flip(axis);
}

/// d cumprod, zeros included: before the first zero along the axis, reverse_cumsum(g y) / x; at
/// the first zero, reverse_cumsum(g y') with y' the product of x with that zero taken as 1; after
/// it, 0 (every product there holds the zero). Its own derivative is exact away from zeros; at an
/// exact zero the masks are constants, so a second derivative there misses the terms through it.
template <class Tn>
struct cumprod_rule : takes<Tn> {
  int axis;
  Tn operator()(const Tn& g, const Tn& y, const Tn& x) const {
    using T = typename Tn::value_type;
    const auto zero = x == T(0);
    const Tn zeros_so_far = zero.template astype<T>().cumsum(axis);
    const auto before = zeros_so_far == T(0);
    const auto first_zero = zero.logical_and(zeros_so_far == T(1));
    const Tn t1 = reverse_cumsum(g * y, axis) / where(before, x, T(1));
    const Tn t2 = reverse_cumsum(g * cumulative_prod_of(where(first_zero, T(1), x), axis), axis);
    return where(before, t1, where(first_zero, t2, T(0)));
  }
};

/// The cumulative product along `axis` (computed on the host), with its gradient rule.
template <class Tn>
Tn cumulative_prod_of(const Tn& x, int axis) {
  using B = typename Tn::backend_type;
  const Shape s = x.shape();
  auto v = x.to_vector();
  const std::int64_t n = s[static_cast<std::size_t>(axis)];
  std::int64_t inner = 1;
  for (int d = axis + 1; d < s.size(); ++d) inner *= s[d];
  const std::int64_t outer = n * inner == 0 ? 0 : x.size() / (n * inner);
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t k = 1; k < n; ++k)
      for (std::int64_t i = 0; i < inner; ++i) {
        const auto at = static_cast<std::size_t>((o * n + k) * inner + i);
        v[at] = v[at] * v[at - static_cast<std::size_t>(inner)];
      }
  const Tn r = from_vector<B>(v, s);
  if constexpr (std::is_floating_point_v<typename Tn::value_type>)
    return make_result<Tn>(typename B::raw_type(r.raw()), cumprod_rule<Tn>{{}, axis}, x);
  else
    return r;
}
}  // namespace detail

/// The cumulative product along `axis` (array API: `cumulative_prod`); with `include_initial` the
/// result starts with a 1. A 1-D x needs no axis. Differentiable, zeros included. An 8- or 16-bit
/// integer x accumulates in the 64-bit integer of its signedness (sum_dtype_t), as NumPy's does.
template <backend B>
auto cumulative_prod(const Tensor<B>& x, std::optional<int> axis = std::nullopt,
                     bool include_initial = false) {
  using T = typename B::value_type;
  static_assert(numeric_dtype<T>, "ep::cumulative_prod: needs a numeric tensor, not bool");
  if constexpr (!std::same_as<sum_dtype_t<T>, T>) {
    return cumulative_prod(x.template astype<sum_dtype_t<T>>(), axis, include_initial);
  } else {
    if (!axis && x.ndim() != 1)
      throw value_error(fmt::format(
          "cumulative_prod: x has shape {}; expected an axis for a tensor of more than one axis",
          x.shape().str()));
    const int a = detail::normalize_axis("cumulative_prod", axis.value_or(0), x.shape());
    const Tensor<B> p = detail::cumulative_prod_of(x, a);
    if (!include_initial) return p;
    Paddings pad(static_cast<std::size_t>(x.ndim()), {0, 0});
    pad[static_cast<std::size_t>(a)] = {1, 0};
    return p.pad(pad, "constant", T(1));
  }
}

/// tensordot over the listed axes: axes_a[i] of a against axes_b[i] of b (array API: `tensordot`
/// with two sequences); the result has a's other axes, then b's.
template <backend B>
Tensor<B> tensordot(const Tensor<B>& a, const Tensor<B>& b, const std::vector<int>& axes_a,
                    const std::vector<int>& axes_b) {
  if (axes_a.size() != axes_b.size())
    throw value_error(
        fmt::format("tensordot: {} axes of a and {} of b; expected as many contracted axes of each",
                    axes_a.size(), axes_b.size()));
  const auto order = [](const Tensor<B>& t, const std::vector<int>& axes, bool contracted_last) {
    std::vector<int> named, rest;
    for (const int ax : axes) named.push_back(detail::normalize_axis("tensordot", ax, t.shape()));
    for (int d = 0; d < t.ndim(); ++d)
      if (std::find(named.begin(), named.end(), d) == named.end()) rest.push_back(d);
    if (named.size() != std::set<int>(named.begin(), named.end()).size())
      throw value_error(
          fmt::format("tensordot: an axis is named twice for shape {}", t.shape().str()));
    std::vector<int> perm = contracted_last ? rest : named;
    const auto& tail = contracted_last ? named : rest;
    perm.insert(perm.end(), tail.begin(), tail.end());
    return t.transpose(perm);
  };
  return tensordot(order(a, axes_a, true), order(b, axes_b, false),
                   static_cast<int>(axes_a.size()));
}
EAGERPP_MIXED_FUNCTION(tensordot)

}  // namespace ep
