// eagerpp - functional autodiff: value_and_grad and its family, stop_gradient, custom_gradient
// SPDX-License-Identifier: MIT
#pragma once

#include <functional>   // std::invoke
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple, std::apply
#include <type_traits>  // std::decay_t
#include <utility>      // std::pair, std::forward

#include <fmt/format.h>

#include "eagerpp/astensor.hpp"
#include "eagerpp/autodiff/tape.hpp"
#include "eagerpp/tensor.hpp"
#include "eagerpp/tree.hpp"

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
  static_assert(inexact_dtype<typename B::value_type>,
                "ep::value_and_grad: can only differentiate with respect to floating or complex "
                "tensors (float, double, complex64, complex128)");
  Tensor<B> w =
      make_result<Tensor<B>>(typename B::raw_type(x.raw()), identity_rule<Tensor<B>>{}, x);
  if (tensor_access::node(w) == 0) tensor_access::set_node(w, new_node_id());
  t.watched.insert(tensor_access::node(w));
  return w;
}

template <class B>
Tensor<B> gradient_of(const Tensor<B>& w, const grad_map& grads) {
  auto it = grads.find(tensor_access::node(w));
  if (it == grads.end()) return w.zeros_like();
  return incoming_gradient<void>(it->second, w);  // at w's full shape
}

/// `x` with each tensor leaf watched on `t` (watch_one); other leaves (numbers) pass through as
/// constants. One walk for every structure a tree can have (tree.hpp).
template <class X>
X watch(const X& x, tape& t) {
  static constexpr std::string_view names[] = {"x"};
  auto one = [&t](const tree_path&, const auto& leaf) {
    if constexpr (istensor<decltype(leaf)>) {
      return watch_one(leaf, t);
    } else {
      return leaf;
    }
  };
  return X(map_tree(one, tree_names{"value_and_grad", names}, tree_path{}, x));
}

/// The gradient of each tensor leaf of the watched `w`, in w's structure; a leaf that is not a
/// tensor (a constant) gets its type's zero, `L{}`.
template <class X>
X gradients(const X& w, const grad_map& g) {
  static constexpr std::string_view names[] = {"x"};
  auto one = [&g](const tree_path&, const auto& leaf) {
    using L = std::decay_t<decltype(leaf)>;
    if constexpr (istensor<L>) {
      return gradient_of(leaf, g);
    } else {
      return L{};
    }
  };
  return X(map_tree(one, tree_names{"value_and_grad", names}, tree_path{}, w));
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
  static_assert(!complex_dtype<typename L::value_type>,
                "ep::value_and_grad: f must return a real scalar; of a complex result, "
                "differentiate its real(), imag() or abs()");
  if (loss.size() != 1)
    throw value_error(fmt::format(
        "value_and_grad: f must return a scalar (one element), got a tensor of shape {}",
        loss.shape().str()));
  grad_map grads;
  if (detail::tensor_access::node(loss) != 0) {
    grads.emplace(detail::tensor_access::node(loss), loss.ones_like());
    walk_backwards(t, grads);
  }
  return std::pair{std::move(result), gradients(w, grads)};
}

}  // namespace detail

/// `{f(x, args...), d f / d x}` for a scalar-valued `f` (EagerPy and JAX: `value_and_grad`).
/// `x` may be a tensor or any tree of tensors (tree.hpp: tuples, pairs, arrays, vectors, maps,
/// optionals, EAGERPP_TREE structs, nested); the gradient has the same structure. `args` pass through undifferentiated. Calls nest (higher-order derivatives).
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
