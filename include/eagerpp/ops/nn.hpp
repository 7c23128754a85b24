// eagerpp - neural-network ops of ep::Tensor: softmax, log_softmax, crossentropy
// SPDX-License-Identifier: MIT
#pragma once

#include <fmt/format.h>

#include "eagerpp/tensor.hpp"

namespace ep {

namespace detail {
/// The gradient of the cross-entropy of logits x: (softmax(x) - onehot) * g, per row; the one-hot
/// matrix of the labels is a constant the rule holds.
template <class Tn>
struct crossentropy_rule : takes<Tn> {
  Tn onehot;
  Tn operator()(const Tn& g, const Tn&, const Tn& x) const {
    return (x.softmax(1) - onehot) * g.reshape({-1, 1});
  }
};
}  // namespace detail

template <backend B>
Tensor<B> Tensor<B>::softmax(int axis) const {
  static_assert(floating_dtype<value_type>,
                "ep::softmax: needs a floating tensor (float or double)");
  detail::normalize_axis("softmax", axis, shape());  // the error names the op called, not logsumexp
  return (*this - logsumexp(axis, true)).exp();
}

template <backend B>
Tensor<B> Tensor<B>::log_softmax(int axis) const {
  static_assert(floating_dtype<value_type>,
                "ep::log_softmax: needs a floating tensor (float or double)");
  detail::normalize_axis("log_softmax", axis, shape());
  return *this - logsumexp(axis, true);
}

template <backend B>
template <class I>
Tensor<B> Tensor<B>::crossentropy(const Tensor<I>& labels) const {
  static_assert(floating_dtype<value_type>,
                "ep::crossentropy: the logits must be a floating tensor (float or double)");
  static_assert(integer_dtype<typename I::value_type>,
                "ep::crossentropy: the labels must be an integer tensor (int32 or int64) of class "
                "indices; convert "
                "with astype<std::int64_t>()");
  static_assert(std::same_as<typename I::template rebind<value_type>, B>,
                "ep::crossentropy: the logits and the labels must come from the same backend; "
                "convert with ep::to");
  if constexpr (!integer_dtype<typename I::value_type> ||
                !std::same_as<typename I::template rebind<value_type>, B>) {
    return *this;  // not reached: the sentences above are the error
  } else {
    const Shape s = shape();
    const Shape ls = labels.shape();
    if (s.size() != 2 || ls.size() != 1 || ls[0] != s[0])
      throw value_error(fmt::format(
          "crossentropy: got logits of shape {} and labels of shape {}; expected (N, C) and (N,)",
          s.str(), ls.str()));
    // One recorded op with the textbook gradient (softmax(x) - onehot) * g, instead of the nine
    // that compute it (logsumexp's subtract, exp, sum, log, add and reshape, the product with the
    // one-hot matrix, its sum, the difference) and their vjps. The one-hot matrix is a constant the
    // rule captures, as `where` captures its condition.
    detail::check_labels("crossentropy", labels, s[1]);
    const Tensor onehot = onehot_like(labels);
    const Tensor loss = [&] {
      detail::no_record_scope quiet;
      return logsumexp(1) - (onehot * *this).sum(1);
    }();
    return detail::make_result<Tensor>(typename B::raw_type(loss.raw()),
                                       detail::crossentropy_rule<Tensor>{{}, onehot}, *this);
  }
}

}  // namespace ep
