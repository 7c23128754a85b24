// eagerpp - gradient checkpointing: a function whose intermediates are recomputed, not kept on the
// tape
// SPDX-License-Identifier: MIT
#pragma once

#include <tuple>        // std::tuple, std::apply
#include <type_traits>  // std::decay_t

#include "eagerpp/astensor.hpp"
#include "eagerpp/autodiff/jacobian.hpp"
#include "eagerpp/autodiff/tape.hpp"

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

}  // namespace detail

/// `f` with its intermediates recomputed rather than stored (JAX: `checkpoint`, PyTorch:
/// `torch.utils.checkpoint`). The callable returned computes `f(xs...)` (floating tensors in, one
/// tensor out). Outside value_and_grad it is just `f`. On a tape, it runs `f` without recording
/// anything and records one op holding only `xs` and the result; that op's gradient runs `f`
/// again on a fresh tape and pulls the incoming gradient back through it (ep::vjp). The gradients
/// are those of `f` itself, bit for bit where each input is used only inside `f` (the same ops run
/// in the same order; an input also used outside sums its two gradients in another order). It
/// nests: recorded on outer tapes, the recomputation is itself differentiated (higher-order
/// derivatives). Cost: one extra forward pass of `f` per backward pass.
template <class F>
auto checkpoint(F f) {
  return [f](const auto&... xs) {
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
  };
}

}  // namespace ep
