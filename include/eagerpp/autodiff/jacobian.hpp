// eagerpp - autodiff beyond gradients: vjp (a reusable pullback), jvp, jacobian and hessian
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>      // std::size_t
#include <functional>   // std::invoke
#include <memory>       // std::shared_ptr, std::make_shared
#include <tuple>        // std::tuple, std::get, std::apply
#include <type_traits>  // std::decay_t, std::invoke_result_t, std::is_same_v
#include <utility>      // std::pair, std::index_sequence, std::as_const
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/astensor.hpp"
#include "eagerpp/autodiff/grad.hpp"
#include "eagerpp/autodiff/tape.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/functions.hpp"
#include "eagerpp/tensor.hpp"

namespace ep {

/// The pullback of `ep::vjp`: `pb(g)` is the vector-Jacobian product g^T (d f / d x) at the point
/// `vjp` recorded, in x's structure (a tensor, a std::tuple or a std::vector of tensors). It keeps
/// the recorded tape alive (shared by its copies) and reads it without consuming it, so it can be
/// called any number of times; each call is one backward pass, itself recorded on any active tape
/// (so it can be differentiated: jvp, hessian). Throws ep::value_error if `g` does not have f(x)'s
/// shape.
template <class X, class Y>
class pullback {
 public:
  struct recording {
    detail::tape tape;
    X inputs;  // x as watched on `tape`
    Y output;  // f(x)
  };

  explicit pullback(std::shared_ptr<const recording> r) : r_(std::move(r)) {}

  X operator()(const Y& g) const {
    const Y& y = r_->output;
    if (!(g.shape() == y.shape()))
      throw value_error(fmt::format(
          "vjp: the cotangent g has shape {}, but f(x) has shape {}; expected g of f(x)'s shape",
          g.shape().str(), y.shape().str()));
    detail::grad_map grads;
    if (y.node() != 0 && r_->tape.watched.contains(y.node())) {
      grads.emplace(y.node(), g);
      detail::walk_backwards(r_->tape, grads);
    }
    return detail::gradients(r_->inputs, grads);
  }

 private:
  std::shared_ptr<const recording> r_;
};

/// `{f(x, args...), pullback}` (JAX: `vjp`): runs `f` once on a new tape and returns its value and
/// a callable `pullback(g)` giving g^T (d f / d x) for any cotangent g of f(x)'s shape, as often as
/// asked. `x` may be a tensor, a std::tuple or a std::vector of tensors, as in value_and_grad; f
/// must return one tensor. Cost: one forward pass; one backward pass per pullback call.
template <class F, class X, class... Args>
auto vjp(F&& f, const X& x, Args&&... args) {
  using Y = std::decay_t<std::invoke_result_t<F, const X&, Args...>>;
  static_assert(istensor<Y>, "ep::vjp: f must return an ep::Tensor");
  using recording = typename pullback<X, Y>::recording;
  detail::tape t;
  X w = detail::watch(x, t);
  detail::tape_scope scope(t);
  Y y = std::invoke(std::forward<F>(f), std::as_const(w), std::forward<Args>(args)...);
  scope.release();  // from here on, ops are recorded only on outer tapes (higher order)
  Y value = y;
  auto r = std::make_shared<const recording>(recording{std::move(t), std::move(w), std::move(y)});
  return std::pair{std::move(value), pullback<X, Y>(std::move(r))};
}

namespace detail {

/// Throws unless the tangent `v` has the structure and the shapes of `x` (jvp).
template <class B>
void check_tangent(const Tensor<B>& x, const Tensor<B>& v, std::size_t k = 0,
                   bool in_list = false) {
  if (!(x.shape() == v.shape()))
    throw value_error(fmt::format(
        "jvp: the tangent v{} has shape {}, but x{} has shape {}; expected the same shape",
        in_list ? fmt::format("[{}]", k) : "", v.shape().str(),
        in_list ? fmt::format("[{}]", k) : "", x.shape().str()));
}
template <class... Bs>
void check_tangent(const std::tuple<Tensor<Bs>...>& x, const std::tuple<Tensor<Bs>...>& v) {
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (check_tangent(std::get<K>(x), std::get<K>(v), K, true), ...);
  }
  (std::index_sequence_for<Bs...>{});
}
template <class B>
void check_tangent(const std::vector<Tensor<B>>& x, const std::vector<Tensor<B>>& v) {
  if (x.size() != v.size())
    throw value_error(
        fmt::format("jvp: the tangent v holds {} tensors, but x holds {}; expected as many",
                    v.size(), x.size()));
  for (std::size_t k = 0; k < x.size(); ++k) check_tangent(x[k], v[k], k, true);
}

/// sum(a * v) over every tensor of the structures (jvp's scalar u^T J v).
template <class B>
Tensor<B> inner(const Tensor<B>& a, const Tensor<B>& v) {
  return (a * v).sum();
}
template <class B0, class... Bs>
Tensor<B0> inner(const std::tuple<Tensor<B0>, Tensor<Bs>...>& a,
                 const std::tuple<Tensor<B0>, Tensor<Bs>...>& v) {
  static_assert((std::is_same_v<B0, Bs> && ...),
                "ep::jvp: a tuple of parameters must hold tensors of one backend and dtype (use a "
                "std::vector, or "
                "one jvp per parameter)");
  return std::apply(
      [&](const auto&... as) {
        return std::apply([&](const auto&... vs) { return ((as * vs).sum() + ...); }, v);
      },
      a);
}
template <class B>
Tensor<B> inner(const std::vector<Tensor<B>>& a, const std::vector<Tensor<B>>& v) {
  Tensor<B> s = (a[0] * v[0]).sum();
  for (std::size_t k = 1; k < a.size(); ++k) s = s + (a[k] * v[k]).sum();
  return s;
}

/// The rows pullback(e_i) of a Jacobian joined into one tensor of shape y.shape + x.shape.
template <class B>
Tensor<B> join_rows(const std::vector<Tensor<B>>& rows, const Shape& y_shape, const Tensor<B>& x) {
  Shape s = y_shape;
  if (y_shape.size() + x.ndim() > max_rank)
    throw value_error(fmt::format(
        "jacobian: f(x) of shape {} and x of shape {} give a Jacobian of rank {}; expected at "
        "most {}",
        y_shape.str(), x.shape().str(), y_shape.size() + x.ndim(), max_rank));
  for (auto d : x.shape()) s.push_back(d);
  if (rows.empty()) return x.zeros(s);
  return stack(rows, 0).reshape(s);
}
template <class... Bs>
std::tuple<Tensor<Bs>...> join_rows(const std::vector<std::tuple<Tensor<Bs>...>>& rows,
                                    const Shape& y_shape, const std::tuple<Tensor<Bs>...>& x) {
  return [&]<std::size_t... K>(std::index_sequence<K...>) {
    auto column = [&]<std::size_t J>(std::integral_constant<std::size_t, J>) {
      std::vector<std::tuple_element_t<J, std::tuple<Tensor<Bs>...>>> c;
      c.reserve(rows.size());
      for (const auto& r : rows) c.push_back(std::get<J>(r));
      return join_rows(c, y_shape, std::get<J>(x));
    };
    return std::tuple{column(std::integral_constant<std::size_t, K>{})...};
  }
  (std::index_sequence_for<Bs...>{});
}
template <class B>
std::vector<Tensor<B>> join_rows(const std::vector<std::vector<Tensor<B>>>& rows,
                                 const Shape& y_shape, const std::vector<Tensor<B>>& x) {
  std::vector<Tensor<B>> out;
  out.reserve(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    std::vector<Tensor<B>> c;
    c.reserve(rows.size());
    for (const auto& r : rows) c.push_back(r[k]);
    out.push_back(join_rows(c, y_shape, x[k]));
  }
  return out;
}

}  // namespace detail

/// `{f(x), J v}`, the Jacobian-vector product (JAX: `jvp`, with one tangent), where J = d f / d x
/// at x and `v` has x's structure and shapes. Computed in reverse mode by the double-vjp
/// construction: u -> pullback(u) = J^T u is linear, so the gradient of u -> <J^T u, v> is J v;
/// that gradient is one backward pass over the recorded backward pass. Cost: one forward pass and
/// about two backward passes (three vjp calls' worth), with no forward-mode rule per op. Throws
/// ep::value_error if `v`'s shapes differ from x's.
template <class F, class X>
auto jvp(F&& f, const X& x, const X& v) {
  detail::check_tangent(x, v);
  auto recorded = vjp(std::forward<F>(f), x);
  const auto& y = recorded.first;
  const auto& pb = recorded.second;
  if constexpr (requires { x.empty(); }) {  // no parameters: J v is 0
    if (x.empty()) return std::pair{y, y.zeros_like()};
  }
  auto u_to_inner = [&](const auto& u) { return detail::inner(pb(u), v); };
  return std::pair{y, value_and_grad(u_to_inner, y.zeros_like()).second};
}

/// The Jacobian d f / d x (JAX: `jacobian`, i.e. `jacrev`) of a tensor-valued `f`, of shape
/// f(x).shape + x.shape: element [i..., j...] is d f(x)[i...] / d x[j...]. `x` may be a tensor, a
/// std::tuple or a std::vector of tensors: the result then has that structure, one Jacobian per
/// parameter. Cost: one forward pass (recorded once) and one vjp per element of f(x). Throws
/// ep::value_error if the Jacobian's rank exceeds ep::max_rank.
template <class F, class X, class... Args>
auto jacobian(F&& f, const X& x, Args&&... args) {
  auto [y, pb] = vjp(std::forward<F>(f), x, std::forward<Args>(args)...);
  using Y = std::decay_t<decltype(y)>;
  using T = typename Y::value_type;
  const Shape y_shape = y.shape();
  const auto n = static_cast<std::size_t>(y_shape.numel());
  std::vector<X> rows;
  rows.reserve(n);
  std::vector<T> e(n, T(0));
  for (std::size_t i = 0; i < n; ++i) {
    e[i] = T(1);
    rows.push_back(pb(from_vector<typename Y::backend_type>(e, y_shape)));
    e[i] = T(0);
  }
  return detail::join_rows(rows, y_shape, x);
}

/// The Hessian d^2 f / d x^2 (JAX: `hessian`) of a scalar-valued `f` of one tensor, of shape
/// x.shape + x.shape: the Jacobian of the gradient. Cost: one gradient recorded once, then one vjp
/// of the gradient (about two backward passes) per element of x. Throws ep::value_error if f does
/// not return exactly one element.
template <class F, backend B, class... Args>
Tensor<B> hessian(F&& f, const Tensor<B>& x, Args&&... args) {
  auto scalar_f = [&](const Tensor<B>& w) {
    auto y = std::invoke(f, w, args...);
    static_assert(istensor<decltype(y)>, "ep::hessian: f must return an ep::Tensor");
    if (y.size() != 1)
      throw value_error(fmt::format(
          "hessian: f must return a scalar (one element), got a tensor of shape {} for x of "
          "shape {}",
          y.shape().str(), w.shape().str()));
    return y;
  };
  return jacobian([&](const Tensor<B>& w) { return value_and_grad(scalar_f, w).second; }, x);
}

/// Tuples and vectors of parameters have a Hessian made of blocks, which `hessian` does not build.
template <class F, class X, class... Args>
requires(!istensor<X>) void hessian(F&&, const X&, Args&&...) {
  static_assert(detail::always_false<X>,
                "ep::hessian: x must be one tensor; for several parameters, concatenate them into "
                "one, or call "
                "ep::jacobian of a gradient");
}

}  // namespace ep
