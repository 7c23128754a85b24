// eagerpp - test support: value_and_grad's gradient checked against central finite differences
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::max
#include <cmath>        // std::abs, std::isfinite
#include <cstddef>      // std::size_t
#include <functional>   // std::function
#include <string>       // std::string
#include <type_traits>  // std::is_floating_point_v, std::type_identity_t
#include <vector>       // std::vector

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <eagerpp/eagerpp.hpp>

namespace ep::test {

/// Checks the gradient that `ep::value_and_grad(f, x)` returns for a scalar-valued `f` against
/// central finite differences (f(x + h e_i) - f(x - h e_i)) / 2h at `x`, element by element, with
/// h = 1e-6 * max(1, |x_i|). Each element passes if |got - expected| <= atol + rtol * |expected|.
/// Also checks that the value equals f(x) and that the gradient has x's shape. Meant for double
/// tensors (float's 7 digits leave too little after a difference step of 1e-6). Use it as
/// `EXPECT_TRUE(ep::test::check_gradient(f, x)) << "what"`; the failure lists each bad element.
/// `f` is a std::function: the check (and value_and_grad under it) is compiled once per backend, not
/// once per test lambda.
template <class B>
::testing::AssertionResult check_gradient(
    const std::type_identity_t<std::function<Tensor<B>(const Tensor<B>&)>>& f, const Tensor<B>& x,
    double rtol = 1e-5, double atol = 1e-7) {
  using T = typename B::value_type;
  static_assert(std::is_floating_point_v<T>,
                "check_gradient: needs a floating tensor (double recommended)");
  const auto [value, grad] = ep::value_and_grad(f, x);
  if (!(grad.shape() == x.shape()))
    return ::testing::AssertionFailure()
           << fmt::format("gradient of shape {} for an input of shape {}", grad.shape().str(),
                          x.shape().str());
  const double f0 = static_cast<double>(f(x).item());
  const double v = static_cast<double>(value.item());
  bool ok = v == f0 || std::abs(v - f0) <= 1e-12 * std::max(1.0, std::abs(f0));
  std::string failures;
  if (!ok) failures += fmt::format("\n  value {} != f(x) = {}", v, f0);

  const Shape shape = x.shape();
  const std::vector<T> x0 = x.to_vector();
  const std::vector<T> got = grad.to_vector();
  std::vector<T> xp = x0;
  for (std::size_t i = 0; i < x0.size(); ++i) {
    const T h = static_cast<T>(1e-6) * std::max(T(1), std::abs(x0[i]));
    xp[i] = x0[i] + h;
    const double up = static_cast<double>(f(from_vector<B>(xp, shape)).item());
    xp[i] = x0[i] - h;
    const double down = static_cast<double>(f(from_vector<B>(xp, shape)).item());
    xp[i] = x0[i];
    // The step actually taken, as represented, not the one asked for.
    const double step = static_cast<double>((x0[i] + h) - (x0[i] - h));
    const double expected = (up - down) / step;
    const double g = static_cast<double>(got[i]);
    if (!std::isfinite(g) || !(std::abs(g - expected) <= atol + rtol * std::abs(expected))) {
      ok = false;
      failures += fmt::format("\n  element {} (x = {}): finite differences {}, value_and_grad {}",
                              i, static_cast<double>(x0[i]), expected, g);
    }
  }
  if (ok) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << fmt::format("gradient mismatch at an input of shape {}:{}", shape.str(), failures);
}

}  // namespace ep::test
