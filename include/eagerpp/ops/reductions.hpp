// eagerpp - reductions of ep::Tensor: sum, prod, mean, min, max, all, any, argmin, argmax, cumsum
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>      // std::uint32_t, std::int64_t
#include <limits>       // std::numeric_limits
#include <optional>     // std::optional
#include <span>         // std::span
#include <type_traits>  // std::remove_reference_t

#include <fmt/format.h>

#include "eagerpp/tensor.hpp"

namespace ep {

namespace detail {

/// A reduction's normalized axes, as a bit set (bit i: axis i is reduced), and the count of
/// elements reduced into each output element. It holds no shapes and no axis array: sixteen bytes
/// that stay in registers, so that a full reduction of a small tensor costs no more than the
/// backend's: a plan holding an axis array costs a store-forwarding stall on every sum.
struct reduction_plan {
  std::uint32_t mask = 0;  // the reduced axes
  bool keepdims = false;
  std::int64_t count = 1;  // elements reduced into each output element

  [[nodiscard]] bool reduces(int axis) const noexcept { return ((mask >> axis) & 1U) != 0; }
  /// True when every axis of a rank-`rank` tensor is reduced (also for rank 0).
  [[nodiscard]] bool all_of(int rank) const noexcept {
    return mask == (std::uint32_t{1} << rank) - 1;
  }
  /// The reduced axes, sorted: what a backend reduction takes.
  [[nodiscard]] axis_list axes(int rank) const noexcept {
    if (all_of(rank)) return axis_list::first(rank);
    axis_list a;
    for (int i = 0; i < rank; ++i)
      if (reduces(i)) a.push_back(i);
    return a;
  }
  /// The result's shape with each reduced axis kept as extent 1: what a gradient is reshaped to.
  [[nodiscard]] Shape kept(const Shape& in) const {
    return reduced_shape(in, axes(in.size()), true);
  }
  /// The result's shape as requested.
  [[nodiscard]] Shape out(const Shape& in) const {
    return reduced_shape(in, axes(in.size()), keepdims);
  }
};

/// `plan_reduction` over the axes the caller listed: validated and normalized.
inline reduction_plan plan_listed_reduction(std::string_view op, const Shape& shape,
                                            const Axes& axis, bool keepdims) {
  reduction_plan p{0, keepdims, 1};
  for (int a : normalize_axes(op, axis, shape)) {
    p.mask |= std::uint32_t{1} << a;
    p.count *= shape[a];
  }
  return p;
}

/// The plan of reducing `shape` over `axis`. NumPy's axis=None, the common case, has nothing to
/// validate and stays inline.
inline reduction_plan plan_reduction(std::string_view op, const Shape& shape, const Axes& axis,
                                     bool keepdims) {
  static_assert(max_rank < 32, "reduction_plan: one bit per axis");
  if (axis.all()) [[likely]]
    return {(std::uint32_t{1} << shape.size()) - 1, keepdims, shape.numel()};
  return plan_listed_reduction(op, shape, axis, keepdims);
}

/// Throws for min/max over an axis of extent 0, which has no identity (NumPy raises too).
inline void check_nonempty_reduction(std::string_view op, const Shape& in,
                                     const reduction_plan& p) {
  if (p.count != 0) return;
  for (int a = 0; a < in.size(); ++a)
    if (p.reduces(a) && in[a] == 0)
      throw value_error(fmt::format(
          "{}: zero-size reduction over axis {} of a tensor of shape {}; expected a non-empty axis",
          op, a, in.str()));
}

/// A backend reduction `f(raw, axes)` passed by reference without its type (as C++26's
/// std::function_ref): the block reduction is then compiled once per tensor type, not once per
/// reduction.
template <class Raw>
struct reduction_ref {
  const void* f;
  Raw (*call)(const void* f, const Raw& x, std::span<const int> axes);
  Raw operator()(const Raw& x, std::span<const int> axes) const { return call(f, x, axes); }
};

/// Runs the backend reduction `f(raw, axes)`, which drops the reduced axes, and gives the result
/// the requested shape. A lazy `x` is reduced from its blocks where it can be (lazy_engine::reduce).
template <class Tn, class F>
typename Tn::raw_type reduce_raw(const Tn& x, const reduction_plan& p, F&& f,
                                 map_reduce_fn<typename Tn::raw_type> map_reduce = nullptr) {
  using B = typename Tn::backend_type;
  if (p.mask == 0) return x.raw();
  if constexpr (blocked_backend<B> && lazy_dtype<typename Tn::value_type>) {
    if (tensor_access::is_lazy(x) && p.count > 0) [[unlikely]] {
      using Raw = typename Tn::raw_type;
      using Fn = std::remove_reference_t<F>;
      const reduction_ref<Raw> ref{&f, [](const void* fn, const Raw& r, std::span<const int> a) {
                                     return (*static_cast<const Fn*>(fn))(r, a);
                                   }};
      if (auto r = lazy_engine<B>::reduce(x, p, ref, map_reduce)) {
        const Shape& s = tensor_access::shape_ref(x);
        return B::reshape(*r, p.keepdims ? p.kept(s) : p.out(s));
      }
    }
  }
  // The backend's result is returned as it is (no move) unless keepdims reshapes it.
  if (!p.keepdims) return f(x.raw(), std::span<const int>(p.axes(x.ndim())));
  return B::reshape(f(x.raw(), std::span<const int>(p.axes(x.ndim()))), p.kept(x.shape()));
}

}  // namespace detail

namespace detail {
/// The gradient of a sum, unbroadcast (reshaped to the result's shape with the reduced axes kept):
/// the next rule broadcasts it, or materializes it only if it must (tape.hpp: `elementwise`).
template <class Tn>
struct sum_rule : takes<Tn> {
  reduction_plan p;
  Tn operator()(const Tn& g, const Tn&, const Tn& x) const { return g.reshape(p.kept(x.shape())); }
};
/// d prod / d x_i = prod / x_i (undefined where x_i == 0, as in the plain formula).
template <class Tn>
struct prod_rule : takes<Tn> {
  reduction_plan p;
  Tn operator()(const Tn& g, const Tn& out, const Tn& x) const {
    return (g * out).reshape(p.kept(x.shape())).broadcast_to(x.shape()) / x;
  }
};
/// The gradient of a cumulative sum: the reversed cumulative sum of g.
template <class Tn>
struct cumsum_rule : takes<Tn> {
  int axis;
  Tn operator()(const Tn& g, const Tn&, const Tn&) const {
    return g.flip(axis).cumsum(axis).flip(axis);
  }
};
}  // namespace detail

template <backend B>
auto Tensor<B>::sum(Axes axis, bool keepdims) const -> count_tensor {
  if constexpr (!std::same_as<count_tensor, Tensor>) {
    return astype<sum_dtype_t<value_type>>().sum(axis, keepdims);
  } else {
    const auto p = detail::plan_reduction("sum", shape_ref(), axis, keepdims);
    return detail::make_result<Tensor>(
        [&] {
          return detail::reduce_raw(
              *this, p, [](const auto& r, std::span<const int> a) { return B::sum(r, a); },
              detail::map_reducer<detail::reduce_kind::sum, B>());
        },
        detail::sum_rule<Tensor>{{}, p}, *this);
  }
}

template <backend B>
auto Tensor<B>::prod(Axes axis, bool keepdims) const -> count_tensor {
  if constexpr (!std::same_as<count_tensor, Tensor>) {
    return astype<sum_dtype_t<value_type>>().prod(axis, keepdims);
  } else {
    const auto p = detail::plan_reduction("prod", shape_ref(), axis, keepdims);
    return detail::make_result<Tensor>(
        [&] {
          return detail::reduce_raw(
              *this, p, [](const auto& r, std::span<const int> a) { return B::prod(r, a); });
        },
        detail::prod_rule<Tensor>{{}, p}, *this);
  }
}

template <backend B>
Tensor<B> Tensor<B>::mean(Axes axis, bool keepdims) const {
  static_assert(inexact_dtype<value_type>,
                "ep::mean: needs a floating or complex tensor (float, double, complex64, "
                "complex128); convert with astype<double>() first");
  const auto p = detail::plan_reduction("mean", shape_ref(), axis, keepdims);
  return sum(axis, keepdims) / static_cast<value_type>(p.count);
}

namespace detail {
/// The gradient of min/max: to the elements equal to the result, split evenly among ties.
template <class Tn>
struct extremum_rule : takes<Tn> {
  reduction_plan p;
  Tn operator()(const Tn& g, const Tn& out, const Tn& x) const {
    const Shape xs = x.shape();
    const Shape kept = p.kept(xs);  // the result's shape with the reduced axes kept
    const Tn mask = (x == out.reshape(kept)).template astype<typename Tn::value_type>();
    std::vector<int> axes;
    for (int i = 0; i < xs.size(); ++i)
      if (kept[i] == 1 && xs[i] != 1) axes.push_back(i);
    const Tn ties = axes.empty() ? mask : mask.sum(Axes(axes), true);
    return g.reshape(kept) * mask / ties;
  }
};
}  // namespace detail

namespace detail {
/// min and max: `Reduce` (B::min, B::max) over the planned axes (of a lazy x's blocks, taking in
/// its last map where the backend can: reduce_raw); the gradient is shared evenly among ties.
template <reduce_kind Kind, auto Reduce, class Tn>
Tn extremum_reduction(std::string_view op, const Tn& x, const Axes& axis, bool keepdims) {
  const auto p = plan_reduction(op, tensor_access::shape_ref(x), axis, keepdims);
  check_nonempty_reduction(op, x.shape(), p);
  const auto reduce = [](const auto& r, std::span<const int> a) { return Reduce(r, a); };
  return make_result<Tn>(
      [&] { return reduce_raw(x, p, reduce, map_reducer<Kind, typename Tn::backend_type>()); },
      extremum_rule<Tn>{{}, p}, x);
}
}  // namespace detail

template <backend B>
Tensor<B> Tensor<B>::min(Axes axis, bool keepdims) const {
  static_assert(!complex_dtype<value_type>,
                "ep::min: complex numbers have no order; compare real(), imag() or abs() instead");
  using detail::reduce_kind;
  return detail::extremum_reduction<reduce_kind::min, &B::min>("min", *this, axis, keepdims);
}

template <backend B>
Tensor<B> Tensor<B>::max(Axes axis, bool keepdims) const {
  static_assert(!complex_dtype<value_type>,
                "ep::max: complex numbers have no order; compare real(), imag() or abs() instead");
  using detail::reduce_kind;
  return detail::extremum_reduction<reduce_kind::max, &B::max>("max", *this, axis, keepdims);
}

template <backend B>
template <class V>
Tensor<B> Tensor<B>::all(Axes axis, bool keepdims) const {
  static_assert(std::same_as<V, bool> && std::same_as<V, value_type>,
                "ep::all: needs a bool tensor; compare first, e.g. (x > 0)");
  const auto p = detail::plan_reduction("all", shape_ref(), axis, keepdims);
  return Tensor(detail::reduce_raw(
      *this, p, [](const auto& r, std::span<const int> a) { return B::all(r, a); }));
}

template <backend B>
template <class V>
Tensor<B> Tensor<B>::any(Axes axis, bool keepdims) const {
  static_assert(std::same_as<V, bool> && std::same_as<V, value_type>,
                "ep::any: needs a bool tensor; compare first, e.g. (x > 0)");
  const auto p = detail::plan_reduction("any", shape_ref(), axis, keepdims);
  return Tensor(detail::reduce_raw(
      *this, p, [](const auto& r, std::span<const int> a) { return B::any(r, a); }));
}

namespace detail {
template <class Tn, class F>
typename Tn::index_tensor arg_reduce(std::string_view op, const Tn& x, int axis, F&& f) {
  const Shape s = x.shape();
  const int a = normalize_axis(op, axis, s);
  if (s[a] == 0)
    throw value_error(
        fmt::format("{}: attempt to get {} of an empty axis {} of a tensor of shape {}; expected a "
                    "non-empty axis",
                    op, op, a, s.str()));
  return typename Tn::index_tensor(f(x.raw(), a));
}
}  // namespace detail

template <backend B>
auto Tensor<B>::argmin(int axis) const -> index_tensor {
  static_assert(
      !complex_dtype<value_type>,
      "ep::argmin: complex numbers have no order; compare real(), imag() or abs() instead");
  return detail::arg_reduce("argmin", *this, axis,
                            [](const auto& r, int a) { return B::argmin(r, a); });
}

template <backend B>
auto Tensor<B>::argmax(int axis) const -> index_tensor {
  static_assert(
      !complex_dtype<value_type>,
      "ep::argmax: complex numbers have no order; compare real(), imag() or abs() instead");
  return detail::arg_reduce("argmax", *this, axis,
                            [](const auto& r, int a) { return B::argmax(r, a); });
}

template <backend B>
auto Tensor<B>::argmin() const -> index_tensor {
  return reshape({-1}).argmin(0);
}

template <backend B>
auto Tensor<B>::argmax() const -> index_tensor {
  return reshape({-1}).argmax(0);
}

template <backend B>
auto Tensor<B>::cumsum(int axis) const -> count_tensor {
  if constexpr (!std::same_as<count_tensor, Tensor>) {
    return astype<sum_dtype_t<value_type>>().cumsum(axis);
  } else {
    const int a = detail::normalize_axis("cumsum", axis, shape());
    return detail::make_result<Tensor>([&] { return B::cumsum(raw(), a); },
                                       detail::cumsum_rule<Tensor>{{}, a}, *this);
  }
}

template <backend B>
auto Tensor<B>::cumsum() const -> count_tensor {
  return reshape({-1}).cumsum(0);
}

template <backend B>
Tensor<B> Tensor<B>::logsumexp(Axes axis, bool keepdims) const {
  static_assert(floating_dtype<value_type>,
                "ep::logsumexp: needs a floating tensor (float or double)");
  const auto p = detail::plan_reduction("logsumexp", shape_ref(), axis, keepdims);
  if (p.count == 0) return full(p.out(shape()), -std::numeric_limits<value_type>::infinity());
  // Shift by the maximum for stability. The shift cancels exactly in the gradient, so it is taken
  // as a constant (an untracked copy): no gradient flows through the max.
  Tensor m(max(axis, true).raw());
  m = m.isinf().where(m.zeros_like(), m);
  const Tensor r = (*this - m).exp().sum(axis, true).log() + m;
  return keepdims ? r : r.reshape(p.out(shape()));
}

}  // namespace ep
