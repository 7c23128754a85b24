// eagerpp - vector norms (ep::norms::l0, l1, l2, linf, lp) and kl_div_with_logits
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>   // std::isinf
#include <limits>  // std::numeric_limits

#include <fmt/format.h>

#include "eagerpp/autodiff/tape.hpp"
#include "eagerpp/ops/reductions.hpp"
#include "eagerpp/tensor.hpp"

namespace ep {

namespace detail {
/// The gradient of the L2 norm: x / l2(x), and 0 where the norm is 0 (`kept`: the norm's shape
/// with the reduced axes kept).
template <class Tn>
struct l2_rule : takes<Tn> {
  Shape kept;
  Tn operator()(const Tn& g, const Tn& out, const Tn& x) const {
    const Tn n = out.reshape(kept);
    const Tn safe = (n == 0).where(n.ones_like(), n);
    return (n == 0).where(x.zeros_like(), g.reshape(kept) * x / safe);
  }
};
}  // namespace detail

namespace norms {

/// The number of non-zero elements, in x's dtype (EagerPy: `norms.l0`).
template <backend B>
Tensor<B> l0(const Tensor<B>& x, Axes axis = {}, bool keepdims = false) {
  return (x != 0).template astype<typename B::value_type>().sum(axis, keepdims);
}

/// The sum of absolute values (EagerPy: `norms.l1`).
template <backend B>
Tensor<B> l1(const Tensor<B>& x, Axes axis = {}, bool keepdims = false) {
  return x.abs().sum(axis, keepdims);
}

/// The Euclidean norm sqrt(sum(x^2)). Its gradient is x / l2(x), and 0 where the norm is 0 (the
/// subgradient, as torch.norm gives; EagerPy's plain formula gives NaN there, its issue #6).
template <backend B>
Tensor<B> l2(const Tensor<B>& x, Axes axis = {}, bool keepdims = false) {
  static_assert(floating_dtype<typename B::value_type>,
                "ep::norms::l2: needs a floating tensor (float or double)");
  const auto value = [&] {
    detail::no_record_scope quiet;
    return x.square().sum(axis, keepdims).sqrt();
  }();
  const Shape kept = detail::plan_reduction("l2", x.shape(), axis, keepdims).kept(x.shape());
  return detail::make_result<Tensor<B>>(typename B::raw_type(value.raw()),
                                        detail::l2_rule<Tensor<B>>{{}, kept}, x);
}

/// The largest absolute value (EagerPy: `norms.linf`).
template <backend B>
Tensor<B> linf(const Tensor<B>& x, Axes axis = {}, bool keepdims = false) {
  return x.abs().max(axis, keepdims);
}

/// The p-norm (sum |x|^p)^(1/p); p = 0, 1, 2 and infinity dispatch to l0, l1, l2 and linf
/// (EagerPy: `norms.lp`). Throws ep::value_error for a negative p.
template <backend B>
Tensor<B> lp(const Tensor<B>& x, double p, Axes axis = {}, bool keepdims = false) {
  if (p < 0 || std::isnan(p))
    throw value_error(fmt::format("lp: p = {} is negative; expected p >= 0 (or infinity)", p));
  if (p == 0) return l0(x, axis, keepdims);
  if (p == 1) return l1(x, axis, keepdims);
  if (p == 2) return l2(x, axis, keepdims);
  if (std::isinf(p)) return linf(x, axis, keepdims);
  return x.abs().pow(p).sum(axis, keepdims).pow(1.0 / p);
}

}  // namespace norms

/// KL(p || q) for p = softmax(logits_p) and q = softmax(logits_q) along `axis`:
/// sum(p * (log_softmax(logits_p) - log_softmax(logits_q))) (EagerPy: `kl_div_with_logits`; unlike
/// EagerPy, p is taken along `axis` too, not always along the last axis).
template <backend B>
Tensor<B> kl_div_with_logits(const Tensor<B>& logits_p, const Tensor<B>& logits_q, int axis = -1,
                             bool keepdims = false) {
  const auto log_p = logits_p.log_softmax(axis);
  const auto log_q = logits_q.log_softmax(axis);
  return (log_p.exp() * (log_p - log_q)).sum(axis, keepdims);
}

// Logits of two dtypes of one backend library: both promoted, as the operators do.
EAGERPP_MIXED_FUNCTION(kl_div_with_logits)

}  // namespace ep
