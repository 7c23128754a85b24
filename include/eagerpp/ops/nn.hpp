// eagerpp - neural-network ops of ep::Tensor: softmax, log_softmax, crossentropy
// SPDX-License-Identifier: MIT
#pragma once

#include <fmt/format.h>

#include "eagerpp/tensor.hpp"

namespace ep {

template <backend B>
Tensor<B> Tensor<B>::softmax(int axis) const {
  static_assert(floating_dtype<value_type>, "ep::softmax: needs a floating tensor (float or double)");
  return (*this - logsumexp(axis, true)).exp();
}

template <backend B>
Tensor<B> Tensor<B>::log_softmax(int axis) const {
  static_assert(floating_dtype<value_type>, "ep::log_softmax: needs a floating tensor (float or double)");
  return *this - logsumexp(axis, true);
}

template <backend B>
template <class I>
Tensor<B> Tensor<B>::crossentropy(const Tensor<I>& labels) const {
  static_assert(floating_dtype<value_type>, "ep::crossentropy: the logits must be a floating tensor (float or double)");
  static_assert(integer_dtype<typename I::value_type>,
                "ep::crossentropy: the labels must be an integer tensor (int32 or int64) of class indices; convert "
                "with astype<std::int64_t>()");
  static_assert(std::same_as<typename I::template rebind<value_type>, B>,
                "ep::crossentropy: the logits and the labels must come from the same backend; convert with ep::to");
  if constexpr (!integer_dtype<typename I::value_type> || !std::same_as<typename I::template rebind<value_type>, B>) {
    return *this;  // not reached: the sentences above are the error
  } else {
  const Shape s = shape();
  const Shape ls = labels.shape();
  if (s.size() != 2 || ls.size() != 1 || ls[0] != s[0])
    throw value_error(fmt::format("crossentropy: got logits of shape {} and labels of shape {}; expected (N, C) and (N,)",
                                  s.str(), ls.str()));
  const Tensor picked = (onehot_like(labels) * *this).sum(1);
  return logsumexp(1) - picked;
  }
}

}  // namespace ep
