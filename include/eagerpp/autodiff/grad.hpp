// eagerpp - functional autodiff: value_and_grad and its family, stop_gradient, custom_gradient
// SPDX-License-Identifier: MIT
#pragma once

#include <functional>   // std::invoke
#include <tuple>        // std::tuple, std::apply
#include <type_traits>  // std::decay_t
#include <utility>      // std::pair, std::forward
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/astensor.hpp"
#include "eagerpp/autodiff/tape.hpp"
#include "eagerpp/tensor.hpp"

namespace ep {

/// Tag for `value_and_grad_fn(f, ep::has_aux)`: `f` returns `{loss, aux}`.
inline constexpr struct has_aux_t {
} has_aux;

/// The same values, recorded on no tape: no gradient flows through the result (JAX:
/// `stop_gradient`).
template <backend B>
Tensor<B> stop_gradient(const Tensor<B>& x) {
  return Tensor<B>(x.raw());
}

namespace detail {

/// The gradient of a watched input's copy (watch_one): g itself.
template <class Tn>
struct identity_rule : takes<Tn> {
  Tn operator()(const Tn& g, const Tn&, const Tn&) const { return g; }
};

/// A fresh node for `x` on tape `t`. Where `x` is already recorded on an outer tape, the new node
/// is linked to it by an identity op, so that the outer tape differentiates through this call
/// (nesting) while this tape sees only its own input (TensorFlow does the same with tf.identity).
template <class B>
Tensor<B> watch_one(const Tensor<B>& x, tape& t) {
  static_assert(floating_dtype<typename B::value_type>,
                "ep::value_and_grad: can only differentiate with respect to floating tensors "
                "(float or double)");
  Tensor<B> w =
      make_result<Tensor<B>>(typename B::raw_type(x.raw()), identity_rule<Tensor<B>>{}, x);
  if (w.node() == 0) w.set_node(new_node_id());
  t.watched.insert(w.node());
  return w;
}

template <class B>
Tensor<B> gradient_of(const Tensor<B>& w, const grad_map& grads) {
  auto it = grads.find(w.node());
  if (it == grads.end()) return w.zeros_like();
  return incoming_gradient<void>(it->second, w);  // at w's full shape
}

// The parameter structures: one tensor, a tuple of tensors, a vector of tensors.
template <class B>
Tensor<B> watch(const Tensor<B>& x, tape& t) {
  return watch_one(x, t);
}
template <class... Bs>
std::tuple<Tensor<Bs>...> watch(const std::tuple<Tensor<Bs>...>& x, tape& t) {
  return std::apply([&](const auto&... xs) { return std::tuple{watch_one(xs, t)...}; }, x);
}
template <class B>
std::vector<Tensor<B>> watch(const std::vector<Tensor<B>>& x, tape& t) {
  std::vector<Tensor<B>> out;
  out.reserve(x.size());
  for (const auto& xi : x) out.push_back(watch_one(xi, t));
  return out;
}

template <class B>
Tensor<B> gradients(const Tensor<B>& w, const grad_map& g) {
  return gradient_of(w, g);
}
template <class... Bs>
std::tuple<Tensor<Bs>...> gradients(const std::tuple<Tensor<Bs>...>& w, const grad_map& g) {
  return std::apply([&](const auto&... ws) { return std::tuple{gradient_of(ws, g)...}; }, w);
}
template <class B>
std::vector<Tensor<B>> gradients(const std::vector<Tensor<B>>& w, const grad_map& g) {
  std::vector<Tensor<B>> out;
  out.reserve(w.size());
  for (const auto& wi : w) out.push_back(gradient_of(wi, g));
  return out;
}

/// Runs `f(x, args...)` on a new tape and walks the tape backwards from its scalar result.
/// Returns the result, what `f` returned beside it (or nothing), and the gradient.
template <bool Aux, class F, class X, class... Args>
auto run_and_differentiate(F&& f, const X& x, Args&&... args) {
  tape t;
  const X w = watch(x, t);
  tape_scope scope(t);
  auto result = std::invoke(std::forward<F>(f), w, std::forward<Args>(args)...);
  scope.release();  // from here on, ops are recorded only on outer tapes (higher order)
  const auto& loss = [&]() -> const auto& {
    if constexpr (Aux) {
      return std::get<0>(result);
    } else {
      return result;
    }
  }
  ();
  using L = std::decay_t<decltype(loss)>;
  static_assert(
      istensor<L>,
      "ep::value_and_grad: f must return an ep::Tensor (with has_aux: a pair {loss, aux})");
  if (loss.size() != 1)
    throw value_error(fmt::format(
        "value_and_grad: f must return a scalar (one element), got a tensor of shape {}",
        loss.shape().str()));
  grad_map grads;
  if (loss.node() != 0) {
    grads.emplace(loss.node(), loss.ones_like());
    walk_backwards(t, grads);
  }
  return std::pair{std::move(result), gradients(w, grads)};
}

}  // namespace detail

/// `{f(x, args...), d f / d x}` for a scalar-valued `f` (EagerPy and JAX: `value_and_grad`).
/// `x` may be a tensor, a std::tuple of tensors or a std::vector of tensors; the gradient has the
/// same structure. `args` pass through undifferentiated. Calls nest (higher-order derivatives).
/// Throws ep::value_error if `f` returns more than one element.
template <class F, class X, class... Args>
auto value_and_grad(F&& f, const X& x, Args&&... args) {
  auto [value, grad] =
      detail::run_and_differentiate<false>(std::forward<F>(f), x, std::forward<Args>(args)...);
  return std::pair{std::move(value), std::move(grad)};
}

/// `{loss, aux, grad}` for an `f` returning a pair `{loss, aux}` (EagerPy: `value_aux_and_grad`).
template <class F, class X, class... Args>
auto value_aux_and_grad(F&& f, const X& x, Args&&... args) {
  auto [result, grad] =
      detail::run_and_differentiate<true>(std::forward<F>(f), x, std::forward<Args>(args)...);
  return std::tuple{std::move(std::get<0>(result)), std::move(std::get<1>(result)),
                    std::move(grad)};
}

/// A callable `g(x, args...)` returning `value_and_grad(f, x, args...)`.
template <class F>
auto value_and_grad_fn(F f) {
  return [f](const auto& x, auto&&... args) {
    return value_and_grad(f, x, std::forward<decltype(args)>(args)...);
  };
}

/// A callable `g(x, args...)` returning `value_aux_and_grad(f, x, args...)`.
template <class F>
auto value_and_grad_fn(F f, has_aux_t) {
  return [f](const auto& x, auto&&... args) {
    return value_aux_and_grad(f, x, std::forward<decltype(args)>(args)...);
  };
}

/// A callable returning only the gradient of `f` (JAX: `grad`); `grad(grad(f))` is the second
/// derivative.
template <class F>
auto grad(F f) {
  return [f](const auto& x, auto&&... args) {
    return value_and_grad(f, x, std::forward<decltype(args)>(args)...).second;
  };
}

/// An op with its own vector-Jacobian product (TensorFlow: `custom_gradient`). The callable
/// returned computes `forward(xs...)` without recording it, then records one op whose gradient is
/// `backward(g, out, xs...)`: the gradient of each input, a tuple for several inputs. Write
/// `backward` with ep ops and it can itself be differentiated.
template <class Forward, class Backward>
auto custom_gradient(Forward forward, Backward backward) {
  return [forward, backward](const auto&... xs) {
    using Out = std::decay_t<decltype(forward(xs...))>;
    auto y = [&] {
      detail::no_record_scope quiet;
      return forward(xs...);
    }();
    return detail::make_result<Out>(typename Out::raw_type(y.raw()), backward, xs...);
  };
}

}  // namespace ep
