// eagerpp - autodiff beyond gradients: vjp (a reusable pullback), jvp, jacobian (jacrev, jacfwd)
// and hessian
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>      // std::size_t
#include <functional>   // std::invoke
#include <memory>       // std::shared_ptr, std::make_shared
#include <optional>     // std::optional
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <type_traits>  // std::decay_t, std::invoke_result_t, std::is_same_v
#include <utility>      // std::pair, std::as_const
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/astensor.hpp"
#include "eagerpp/autodiff/grad.hpp"
#include "eagerpp/autodiff/tape.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/functions.hpp"
#include "eagerpp/tensor.hpp"
#include "eagerpp/tree.hpp"
#include "eagerpp/vmap.hpp"

namespace ep {

/// The pullback of `ep::vjp`: `pb(g)` is the vector-Jacobian product g^T (d f / d x) at the point
/// `vjp` recorded, in x's structure (a tensor or a tree of tensors, tree.hpp); `g` has the
/// structure of f(x), a tensor or a tree. It keeps
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
    static constexpr std::string_view names[] = {"f(x)", "the cotangent g"};
    detail::grad_map grads;
    auto seed = [&](const tree_path& p, const auto& y, const auto& gi) {
      if constexpr (istensor<decltype(y)>) {
        if (!(gi.shape() == y.shape()))
          throw value_error(fmt::format(
              "vjp: the cotangent g{} has shape {}, but f(x){} has shape {}; expected g of "
              "f(x)'s shape",
              p.str(), gi.shape().str(), p.str(), y.shape().str()));
        if (detail::tensor_access::node(y) != 0 &&
            r_->tape.watched.contains(detail::tensor_access::node(y)))
          detail::accumulate(grads, detail::tensor_access::node(y), gi);
      }
    };
    detail::visit_tree(seed, detail::tree_names{"vjp", names}, tree_path{}, r_->output, g);
    if (!grads.empty()) detail::walk_backwards(r_->tape, grads);
    return detail::gradients(r_->inputs, grads);
  }

 private:
  std::shared_ptr<const recording> r_;
};

/// `{f(x, args...), pullback}` (JAX: `vjp`): runs `f` once on a new tape and returns its value and
/// a callable `pullback(g)` giving g^T (d f / d x) for any cotangent g of f(x)'s shape, as often as
/// asked. `x` may be a tensor or a tree of tensors, as in value_and_grad; f returns a tensor or a
/// tree of tensors. Cost: one forward pass; one backward pass per pullback call.
template <class F, class X, class... Args>
auto vjp(F&& f, const X& x, Args&&... args) {
  using Y = std::decay_t<std::invoke_result_t<F, const X&, Args...>>;
  static_assert(istensor<Y> || is_tree_node<Y>,
                "ep::vjp: f must return an ep::Tensor or a tree of tensors");
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

/// Throws unless the tangent `v` has the structure and the shapes of `x` (jvp), naming the path.
template <class X>
void check_tangent(const X& x, const X& v) {
  static constexpr std::string_view names[] = {"x", "the tangent v"};
  auto one = [](const tree_path& p, const auto& xi, const auto& vi) {
    if constexpr (istensor<decltype(xi)>) {
      if (!(xi.shape() == vi.shape()))
        throw value_error(fmt::format(
            "jvp: the tangent v{} has shape {}, but x{} has shape {}; expected the same shape",
            p.str(), vi.shape().str(), p.str(), xi.shape().str()));
    }
  };
  visit_tree(one, tree_names{"jvp", names}, tree_path{}, x, v);
}

/// sum(a * v) over every tensor leaf of the trees (jvp's scalar u^T J v).
template <class X>
auto inner(const X& a, const X& v) {
  using L = tree_leaf_t<X>;
  static_assert(istensor<L>,
                "ep::jvp: the parameters must be tensors of one backend and dtype (use a "
                "std::vector, or one jvp per parameter)");
  std::optional<L> s;
  auto one = [&s](const tree_path&, const L& ai, const L& vi) {
    L term = (ai * vi).sum();
    s = s.has_value() ? *s + term : term;
  };
  static constexpr std::string_view names[] = {"J^T u", "the tangent v"};
  visit_tree(one, tree_names{"jvp", names}, tree_path{}, a, v);
  return *s;
}

/// The zeros of y's structure and shapes.
template <class Y>
Y zeros_like_tree(const Y& y) {
  return Y(tree_map([](const auto& leaf) { return leaf.zeros_like(); }, y));
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
/// The rows of a tree-valued Jacobian (one tree of x's structure per element of f(x)) joined
/// leaf by leaf: the tree of x's structure whose leaves are each of shape y.shape + leaf.shape.
template <class X>
requires(!istensor<X>) X join_rows(const std::vector<X>& rows, const Shape& y_shape, const X& x) {
  std::vector<std::vector<const void*>> leaves(rows.size());  // leaf k of row r, by address
  for (std::size_t r = 0; r < rows.size(); ++r)
    tree_for_each_with_path([&](const tree_path&, const auto& leaf) { leaves[r].push_back(&leaf); },
                            rows[r]);
  std::size_t k = 0;
  return X(tree_map(
      [&](const auto& leaf) {
        using L = std::decay_t<decltype(leaf)>;
        const std::size_t j = k++;
        if constexpr (istensor<L>) {
          std::vector<L> column;
          column.reserve(rows.size());
          for (const auto& row : leaves) column.push_back(*static_cast<const L*>(row[j]));
          return join_rows(column, y_shape, leaf);
        } else {
          return leaf;
        }
      },
      x));
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
  if constexpr (std::is_same_v<tree_leaf_t<X>, detail::no_leaves>) {
    return std::pair{y, detail::zeros_like_tree(y)};
  } else {
    if (tree_size(x) == 0) return std::pair{y, detail::zeros_like_tree(y)};  // J v is 0
    auto u_to_inner = [&](const auto& u) { return detail::inner(pb(u), v); };
    return std::pair{y, value_and_grad(u_to_inner, detail::zeros_like_tree(y)).second};
  }
}

namespace detail {

/// Whether `f` can run under ep::vmap with the tensor x and args (tensors or values that are not
/// trees): it is generic (a generic lambda or a template), callable with the batched tensors that
/// ep::vmap passes.
template <class F, class X, class... Args>
concept vmappable =
    istensor<X> &&((istensor<Args> || !is_tree_node<std::decay_t<Args>>)&&...) &&
    std::is_invocable_v<
        F&, decltype(batch_argument(std::declval<const X&>(), vmap_axis{}, std::int64_t{})),
        decltype(batch_argument(std::declval<const std::decay_t<Args>&>(), vmap_axis{},
                                std::int64_t{}))...>;

/// The Jacobian as one batched backward pass: f recorded once under vmap with x shared, and its
/// pullback run on the n basis cotangents of f(x) at once (JAX's jacrev: vmap of a vjp).
template <class F, class X, class... Args>
auto batched_jacobian(F& f, const X& x, const Shape& y_shape, const Args&... args) {
  using Y = std::decay_t<std::invoke_result_t<F&, const X&, const Args&...>>;
  using YB = typename Y::backend_type;
  const std::int64_t n = y_shape.numel();
  Shape basis_shape = y_shape;
  basis_shape.insert(0, n);
  const auto basis = eye<YB>(n).reshape(basis_shape);
  std::vector<vmap_axis> axes{unmapped, 0};
  axes.resize(2 + sizeof...(Args), unmapped);
  const auto rows = vmap(
      [&f](const auto& xb, const auto& e, const auto&... a) { return vjp(f, xb, a...).second(e); },
      std::move(axes))(x, basis, args...);
  return X(tree_map(
      [&](const auto& leaf) {
        using L = std::decay_t<decltype(leaf)>;
        if constexpr (istensor<L>) {
          Shape s = y_shape;
          for (int i = 1; i < leaf.ndim(); ++i) s.push_back(leaf.shape()[i]);
          return leaf.reshape(s);
        } else {
          return leaf;
        }
      },
      rows));
}

}  // namespace detail

/// The Jacobian d f / d x (JAX: `jacobian`, i.e. `jacrev`) of a tensor-valued `f`, of shape
/// f(x).shape + x.shape: element [i..., j...] is d f(x)[i...] / d x[j...]. `x` may be a tensor, a
/// std::tuple or a std::vector of tensors: the result then has that structure, one Jacobian per
/// parameter. Cost, for a tensor x and a generic `f` (a generic lambda or a template): one forward
/// pass for f(x)'s shape, then f recorded once under ep::vmap and one batched backward pass for
/// every element of f(x) at once; otherwise (a tree x, or an `f` that takes only its own tensor
/// type): one forward pass and one vjp per element of f(x). Throws ep::value_error if the Jacobian's rank exceeds ep::max_rank.
template <class F, class X, class... Args>
auto jacobian(F&& f, const X& x, Args&&... args) {
  if constexpr (detail::vmappable<F, X, Args...>) {
    const auto y = [&] {
      detail::no_record_scope quiet;
      return std::invoke(f, x, std::as_const(args)...);
    }();
    static_assert(istensor<decltype(y)>, "ep::jacobian: f must return one ep::Tensor");
    const Shape y_shape = y.shape();
    if (y_shape.numel() == 0 || y_shape.size() + x.ndim() > max_rank)
      return detail::join_rows(std::vector<X>{}, y_shape, x);  // zeros, or the rank's error
    return detail::batched_jacobian(f, x, y_shape, std::as_const(args)...);
  } else {
    auto [y, pb] = vjp(std::forward<F>(f), x, std::forward<Args>(args)...);
    using Y = std::decay_t<decltype(y)>;
    static_assert(istensor<Y>, "ep::jacobian: f must return one ep::Tensor");
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
}

/// JAX's `jacrev`: the Jacobian by reverse mode, ep::jacobian.
template <class F, class X, class... Args>
auto jacrev(F&& f, const X& x, Args&&... args) {
  return jacobian(std::forward<F>(f), x, std::forward<Args>(args)...);
}

/// JAX's `jacfwd`: the Jacobian column by column, J e_j for each element j of x, as one batched
/// jvp under ep::vmap (f generic); of the same shape as ep::jacobian's. Cheaper than jacrev where
/// x has fewer elements than f(x).
template <backend B, class F, class... Args>
Tensor<B> jacfwd(F&& f, const Tensor<B>& x, const Args&... args) {
  static_assert(detail::vmappable<F, Tensor<B>, Args...>,
                "ep::jacfwd: f must be generic (a generic lambda or a template), so that ep::vmap "
                "can run it on every tangent at once");
  const std::int64_t n = x.size();
  Shape basis_shape = x.shape();
  basis_shape.insert(0, n);
  const auto tangents = eye<B>(n).reshape(basis_shape);
  std::vector<vmap_axis> axes{unmapped, 0};
  axes.resize(2 + sizeof...(Args), unmapped);
  const auto columns = vmap(
      [&f](const auto& xb, const auto& t, const auto&... a) {
        return jvp([&](const auto& v) { return f(v, a...); }, xb, t).second;
      },
      std::move(axes))(x, tangents, args...);  // (n, f(x).shape...)
  const int out_rank = columns.ndim() - 1;
  if (out_rank + x.ndim() > max_rank)
    throw value_error(fmt::format(
        "jacfwd: f(x) of rank {} and x of shape {} give a Jacobian of rank {}; expected at most {}",
        out_rank, x.shape().str(), out_rank + x.ndim(), max_rank));
  std::vector<int> perm;
  for (int i = 1; i <= out_rank; ++i) perm.push_back(i);
  perm.push_back(0);
  Shape s = columns.shape();
  s.erase(0);
  for (const auto d : x.shape()) s.push_back(d);
  return columns.transpose(perm).reshape(s);
}

namespace detail {

/// `f(w, args...)`, checked to be a one-element tensor (hessian's `f`).
template <class F, class X, class... Args>
auto scalar_value(F& f, const X& w, Args&... args) {
  auto y = std::invoke(f, w, args...);
  static_assert(istensor<decltype(y)>, "ep::hessian: f must return an ep::Tensor");
  if (y.size() != 1) {
    std::string of;
    if constexpr (istensor<X>)
      of = fmt::format("x of shape {}", w.shape().str());
    else
      of = fmt::format("the tree x = {}", tree_structure(w).str());
    throw value_error(fmt::format(
        "hessian: f must return a scalar (one element), got a tensor of shape {} for {}",
        y.shape().str(), of));
  }
  return y;
}

}  // namespace detail

/// The Hessian d^2 f / d x^2 (JAX: `hessian`) of a scalar-valued `f` of one tensor, of shape
/// x.shape + x.shape. Throws ep::value_error when f returns more than one element, or as jacobian.
template <class F, backend B, class... Args>
Tensor<B> hessian(F&& f, const Tensor<B>& x, Args&&... args) {
  if constexpr (detail::vmappable<F, Tensor<B>, Args...>) {
    auto gradient = [&f](const auto& w, const auto&... a) {
      return value_and_grad([&](const auto& v) { return detail::scalar_value(f, v, a...); }, w)
          .second;
    };
    return jacobian(gradient, x, std::as_const(args)...);
  } else {
    auto scalar_f = [&](const Tensor<B>& w) { return detail::scalar_value(f, w, args...); };
    return jacobian([&](const Tensor<B>& w) { return value_and_grad(scalar_f, w).second; }, x);
  }
}

/// The Hessian of a scalar-valued `f` of a tree of parameters (tensors of one type, ep::tree.hpp),
/// as blocks in the order of `tree_leaves(x)`: `H[i][j]` = d^2 f / d x_i d x_j, of shape
/// x_i.shape + x_j.shape (JAX returns the same blocks nested in the tree's structure). Cost: one
/// jacobian of the gradient's leaf i per leaf.
template <class F, class X, class... Args>
requires(!istensor<X>) auto hessian(F&& f, const X& x, Args&&... args) {
  using L = tree_leaf_t<X>;
  static_assert(istensor<L>,
                "ep::hessian: the parameters must be a tree of tensors of one type (ep::tree.hpp)");
  auto scalar_f = [&](const X& w) { return detail::scalar_value(f, w, args...); };
  const std::size_t n = tree_size(x);
  std::vector<std::vector<L>> blocks;
  blocks.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto grad_leaf = [&](const X& w) { return tree_leaves(value_and_grad(scalar_f, w).second)[i]; };
    blocks.push_back(tree_leaves(jacobian(grad_leaf, x)));
  }
  return blocks;
}

}  // namespace ep
