// eagerpp - the arithmetic and logic ops of the host backends that compute on native expressions
// SPDX-License-Identifier: MIT
#pragma once

#include <concepts>  // std::same_as

#include "eagerpp/detail/numpy_math.hpp"
#include "eagerpp/fwd.hpp"

namespace ep::detail {

/// add, subtract, multiply, divide, logical_and and logical_or of a host backend `Backend` (value
/// type T, raw type R) whose zip(a, b, f) applies `f` to the native expressions of a and b
/// broadcast together (`x + y` is an Eigen or xtensor expression), and whose zip_rule<rule>(a, b)
/// applies one of NumPy's scalar rules: written once for ep::eigen and ep::xtensor, which derive
/// from it and make it a friend.
template <class Backend, class T, class R>
struct expression_arithmetic {
  static R add(const R& a, const R& b) requires arithmetic_dtype<T> {
    return Backend::zip(a, b, [](const auto& x, const auto& y) { return x + y; });
  }
  static R subtract(const R& a, const R& b) requires arithmetic_dtype<T> {
    return Backend::zip(a, b, [](const auto& x, const auto& y) { return x - y; });
  }
  static R multiply(const R& a, const R& b) requires arithmetic_dtype<T> {
    return Backend::zip(a, b, [](const auto& x, const auto& y) { return x * y; });
  }
  /// IEEE division for floats (and complex numbers); for integers C++ division (toward zero), 0
  /// for a zero divisor (the facade decides whether integer true division converts to float
  /// first).
  static R divide(const R& a, const R& b) requires arithmetic_dtype<T> {
    if constexpr (inexact_dtype<T>)
      return Backend::zip(a, b, [](const auto& x, const auto& y) { return x / y; });
    else
      return Backend::template zip_rule<numpy::rule::divide>(a, b);
  }
  static R logical_and(const R& a, const R& b) requires std::same_as<T, bool> {
    return Backend::zip(a, b, [](const auto& x, const auto& y) { return x && y; });
  }
  static R logical_or(const R& a, const R& b) requires std::same_as<T, bool> {
    return Backend::zip(a, b, [](const auto& x, const auto& y) { return x || y; });
  }
};

}  // namespace ep::detail
