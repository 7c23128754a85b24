// eagerpp - gradient checkpointing: a function whose intermediates are recomputed, not kept on the
// tape
// SPDX-License-Identifier: MIT
#pragma once

#include <array>        // std::array
#include <cstddef>      // std::size_t
#include <tuple>        // std::tuple, std::apply
#include <type_traits>  // std::decay_t
#include <utility>      // std::index_sequence
#include <vector>       // std::vector

#include "eagerpp/astensor.hpp"
#include "eagerpp/autodiff/jacobian.hpp"
#include "eagerpp/autodiff/tape.hpp"
#include "eagerpp/tree.hpp"

namespace ep {

namespace detail {

/// g^T (d f / d xs) at xs, by running f again on a fresh tape (checkpoint's backward step): one
/// tensor for one input, a tuple for several.
template <class F, class Out, class... Xs>
auto recomputed_vjp(const F& f, const Out& g, const Xs&... xs) {
  if constexpr (sizeof...(Xs) == 1) {
    return vjp(f, xs...).second(g);
  } else {
    auto f_of_tuple = [&f](const std::tuple<Xs...>& t) { return std::apply(f, t); };
    return vjp(f_of_tuple, std::tuple<Xs...>{xs...}).second(g);
  }
}

/// checkpoint's gradient over the leaves of its arguments (trees): `pull(g, leaves)` runs f again on
/// a fresh tape and returns the leaves' gradients.
template <class Tn, class Pull>
struct checkpoint_rule : takes_list<Tn> {
  Pull pull;
  std::vector<Tn> operator()(const Tn& g, const Tn&, const std::vector<Tn>& ins) const {
    return pull(g, ins);
  }
};

/// checkpoint(f)(xs...) where some argument is a tree (ep::tree.hpp) of tensors of one type: one
/// recorded op over all the leaves, whose gradient rebuilds the arguments from the leaves and pulls
/// g back through f again.
template <class F, class... Xs>
auto checkpoint_trees(const F& f, const Xs&... xs) {
  using Out = std::decay_t<decltype(f(xs...))>;
  static_assert(istensor<Out>, "ep::checkpoint: f must return one ep::Tensor");
  if (active_tape_count() == 0) return f(xs...);
  static_assert((std::is_same_v<tree_leaf_t<Xs>, Out> && ...),
                "ep::checkpoint: every argument must be a tensor or a tree of tensors of f's "
                "result type");
  std::vector<Out> leaves;
  const std::array<std::size_t, sizeof...(Xs)> counts{tree_size(xs)...};
  (
      [&] {
        for (auto& leaf : tree_leaves(xs)) leaves.push_back(std::move(leaf));
      }(),
      ...);
  auto pull = [f, defs = std::tuple{tree_structure(xs)...}, counts](const Out& g,
                                                                    const std::vector<Out>& ins) {
    auto f_of_leaves = [&](const std::vector<Out>& ls) {
      return [&]<std::size_t... I>(std::index_sequence<I...>) {
        std::array<std::size_t, sizeof...(Xs) + 1> start{};
        for (std::size_t k = 0; k < sizeof...(Xs); ++k) start[k + 1] = start[k] + counts[k];
        return f(tree_unflatten(
            std::get<I>(defs),
            std::vector<Out>(ls.begin() + static_cast<std::ptrdiff_t>(start[I]),
                             ls.begin() + static_cast<std::ptrdiff_t>(start[I + 1])))...);
      }
      (std::index_sequence_for<Xs...>{});
    };
    return vjp(f_of_leaves, ins).second(g);
  };
  Out y = [&] {
    no_record_scope quiet;
    return f(xs...);
  }();
  return make_result_n<Out>(typename Out::raw_type(y.raw()),
                            checkpoint_rule<Out, decltype(pull)>{{}, std::move(pull)}, leaves);
}

}  // namespace detail

/// `f` with its intermediates recomputed rather than stored (JAX: `checkpoint`, PyTorch:
/// `torch.utils.checkpoint`). The callable returned computes `f(xs...)` (floating tensors, or trees
/// of them such as a struct of parameters, in; one tensor out). Outside value_and_grad it is just `f`. On a tape, it runs `f` without recording
/// anything and records one op holding only `xs` and the result; that op's gradient runs `f`
/// again on a fresh tape and pulls the incoming gradient back through it (ep::vjp). The gradients
/// are those of `f` itself, bit for bit where each input is used only inside `f` (the same ops run
/// in the same order; an input also used outside sums its two gradients in another order). It
/// nests: recorded on outer tapes, the recomputation is itself differentiated (higher-order
/// derivatives). Cost: one extra forward pass of `f` per backward pass.
template <class F>
auto checkpoint(F f) {
  return [f](const auto&... xs) {
    if constexpr (!(istensor<decltype(xs)> && ...)) {
      return detail::checkpoint_trees(f, xs...);
    } else {
      using Out = std::decay_t<decltype(f(xs...))>;
      static_assert(istensor<Out>, "ep::checkpoint: f must return one ep::Tensor");
      if (detail::active_tape_count() == 0) return f(xs...);
      Out y = [&] {
        detail::no_record_scope quiet;
        return f(xs...);
      }();
      return detail::make_result<Out>(
          typename Out::raw_type(y.raw()),
          [f](const auto& g, const auto&, const auto&... ins) {
            return detail::recomputed_vjp(f, g, ins...);
          },
          xs...);
    }
  };
}

}  // namespace ep
