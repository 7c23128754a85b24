// eagerpp - ep::fuse(f): an element-wise function written once in facade syntax, run in one pass
// over its inputs with every intermediate in a register, staged by the C++ compiler
// SPDX-License-Identifier: MIT
#pragma once

#include <concepts>     // std::same_as
#include <tuple>        // std::apply, std::make_tuple, std::get
#include <type_traits>  // std::is_empty_v, std::is_invocable_v, std::invoke_result_t
#include <utility>      // std::move, std::index_sequence

#include "eagerpp/autodiff/grad.hpp"
#include "eagerpp/autodiff/jacobian.hpp"
#include "eagerpp/backend_hooks.hpp"  // fused_loops_backend
#include "eagerpp/detail/fused_value.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/tensor.hpp"

namespace ep {

namespace detail {
/// B's fused loop of f over raw tensors of one shape, as an element-wise op's backend function: the
/// same call on whole tensors and on the blocks of a lazy evaluation (host/blocks.hpp).
template <class B, class F>
struct fused_loop {
  F f;
  template <class... Raw>
  typename B::raw_type operator()(const typename B::raw_type& x, const Raw&... xs) const {
    return B::fused_map(f, Shape(B::shape(x)), x, xs...);
  }
};
}  // namespace detail

/// A fused element-wise function (`ep::fuse(f)`): called with tensors of one backend and dtype,
/// it returns what `f` returns called with them, computed in one pass.
template <class F>
class fused_function {
 public:
  explicit fused_function(F f) : f_(std::move(f)) {}

  template <backend B, class... Rest>
  requires(std::same_as<Rest, Tensor<B>>&&...) Tensor<B>
  operator()(const Tensor<B>& x, const Rest&... xs) const {
    using T = typename B::value_type;
    static_assert(floating_dtype<T>,
                  "ep::fuse: the inputs must be floating tensors (float or double)");
    using S = fused<detail::fuse::scalar_ops<T>>;
    static_assert(std::is_invocable_v<const F&, S, decltype((void)xs, S{})...>,
                  "ep::fuse: f must be a generic element-wise function of its tensors (a "
                  "lambda taking `auto`), using only element-wise methods, operators, where, "
                  "maximum, minimum, clip and C++ scalars");
    if constexpr (std::is_invocable_v<const F&, S, decltype((void)xs, S{})...>) {
      static_assert(
          std::same_as<std::invoke_result_t<const F&, S, decltype((void)xs, S{})...>, S>,
          "ep::fuse: f must return one value of its inputs' dtype (a comparison gives a mask: "
          "turn it into values with ep::where)");
    }
    if constexpr (!detail::fused_loops_backend<B>) {
      return f_(x, xs...);  // no fused loop on this backend: the eager ops
    } else {
      if (detail::active_tape_count() != 0 &&
          ((detail::tensor_access::node(x) != 0) || ... || (detail::tensor_access::node(xs) != 0)))
        return differentiable(x, xs...);
      return forward(x, xs...);
    }
  }

 private:
  /// The fused pass, with no tape: broadcast inputs are materialized first (a copy of each
  /// operand whose shape is not the result's), then one loop.
  template <class B, class... Rest>
  Tensor<B> forward(const Tensor<B>& x, const Rest&... xs) const {
    if ((... && (xs.shape() == x.shape()))) return loop(x, xs...);
    Shape shape = x.shape();
    ((shape = broadcast_shapes(shape, xs.shape(), "fuse")), ...);
    const auto full = [&](const Tensor<B>& t) {
      return t.shape() == shape ? t : t.broadcast_to(shape);
    };
    return loop(full(x), full(xs)...);
  }
  /// The loop over inputs of one shape. A function without state (a lambda that captures nothing)
  /// is an element-wise op of the lazy evaluation like the others: from fusion_settings::min_size
  /// elements on, on a backend that evaluates in blocks, its result is a node that runs the loop on
  /// each block when the values are needed (a reduction takes the blocks, a later op reads them).
  /// A function with state runs now, so that nothing it captures is read after the call returns.
  template <class B, class... Rest>
  Tensor<B> loop(const Tensor<B>& x, const Rest&... xs) const {
    if constexpr (std::is_empty_v<F>) {
      return detail::make_constant<Tensor<B>>(
          detail::elementwise(detail::fused_loop<B, F>{f_}, x, xs...));
    } else {
      return Tensor<B>(B::fused_map(f_, x.shape(), x.raw(), xs.raw()...));
    }
  }
  /// Under a tape: the fused pass, recorded as one op. Its gradient is one more fused pass on dual
  /// numbers (run_range_grad: g * df/dx_k for every input k, from x and g), summed over the axes
  /// an input was broadcast along. When that gradient is itself recorded (a higher derivative), it
  /// is the eager function's vector-Jacobian product instead, which the tape can differentiate.
  template <class B, class... Rest>
  Tensor<B> differentiable(const Tensor<B>& x, const Rest&... xs) const {
    const F f = f_;
    auto forward_fn = [this](const auto&... ts) { return this->forward(ts...); };
    auto backward = [f](const Tensor<B>& g, const Tensor<B>&, const auto&... ts) {
      constexpr std::size_t n = sizeof...(ts);
      auto grads = [&] {
        if (detail::active_tape_count() != 0) {
          auto [y, pullback] = ep::vjp([&f](const auto& args) { return std::apply(f, args); },
                                       std::make_tuple(ts...));
          (void)y;
          return pullback(g);
        }
        const Shape& shape = g.shape();
        const auto full = [&](const Tensor<B>& t) {
          return t.shape() == shape ? t : t.broadcast_to(shape);
        };
        const auto raws = B::fused_grad(f, shape, g.raw(), full(ts).raw()...);
        return [&]<std::size_t... K>(std::index_sequence<K...>) {
          return std::make_tuple(
              detail::unbroadcast(Tensor<B>(raws[K]), std::get<K>(std::tie(ts...)).shape())...);
        }
        (std::make_index_sequence<n>{});
      }();
      if constexpr (n == 1)
        return std::get<0>(grads);
      else
        return grads;
    };
    return custom_gradient(forward_fn, backward)(x, xs...);
  }

  F f_;
};

/// Stages the element-wise function `f` (a generic lambda over tensors using element-wise
/// methods, operators, `where`, `maximum`, `minimum`, `clip` and C++ scalars) into one pass:
/// `ep::fuse(f)(x, y)` equals `f(x, y)` computed eagerly (within a few ulp: the packet functions
/// of a backend may differ from its scalar ones), with every intermediate in a register.
template <class F>
fused_function<F> fuse(F f) {
  return fused_function<F>(std::move(f));
}

}  // namespace ep
