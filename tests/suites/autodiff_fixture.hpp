// eagerpp - the Autodiff typed suite's fixture and the helpers its tests share
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>     // std::uint64_t
#include <functional>  // std::function
#include <string>      // std::string
#include <utility>     // std::pair
#include <vector>      // std::vector

#include <gtest/gtest.h>

#include "support/gradcheck.hpp"
#include "support/support.hpp"

// Gradients are checked two ways: against central finite differences (ep::test::check_gradient) at
// random points, for every differentiable op; and exactly, against values computed by hand or with
// NumPy 1.24, on small integer inputs (EagerPy's own fixture, custom gradients, ties and kinks).
// Instantiated for double backends only: finite differences need double precision. The suite's
// tests are in suites/autodiff.hpp (value_and_grad and its family, kinks, the tape) and, for each
// family's gradient rules, in suites/autodiff_<family>.hpp; suites/autodiff.hpp registers them all.
namespace autodiff_suite {

using ep::test::random_tensor;
using ep::test::values;

/// sum(y * w) for fixed random weights w of y's shape: a scalar whose gradient tells every element
/// of y apart (a plain sum would hide transposed or misplaced gradients).
template <class Tn>
Tn weighted(const Tn& y, std::uint64_t seed = 7) {
  return (y * random_tensor<typename Tn::backend_type>(y.shape(), -1, 1, seed)).sum();
}

/// A named function of one tensor, for the tables of cases.
template <class B>
struct unary_case {
  std::string name;
  std::function<ep::Tensor<B>(const ep::Tensor<B>&)> f;
  double lo, hi;  // where the input is drawn from
};

/// Checks the gradient of weighted(op(x, y)) with respect to x and to y at random points.
template <class B, class Op>
void check_binary(const std::string& name, Op op, const ep::Shape& sx, const ep::Shape& sy,
                  double xlo, double xhi, double ylo, double yhi) {
  using T = ep::Tensor<B>;
  const T x = random_tensor<B>(sx, xlo, xhi, 11);
  const T y = random_tensor<B>(sy, ylo, yhi, 12);
  EXPECT_TRUE(ep::test::check_gradient([&](const T& a) { return weighted(op(a, y)); }, x))
      << name << " with respect to its first operand, shapes " << sx << " and " << sy;
  EXPECT_TRUE(ep::test::check_gradient([&](const T& b) { return weighted(op(x, b)); }, y))
      << name << " with respect to its second operand, shapes " << sx << " and " << sy;
}

/// The broadcasting shape pairs every binary op is checked on.
inline std::vector<std::pair<ep::Shape, ep::Shape>> broadcast_pairs() {
  return {{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 3}, {2, 1}}, {{2, 1}, {1, 3}},
          {{3}, {2, 3}},    {{}, {2, 3}},  {{2, 3}, {}},     {{2, 1, 3}, {4, 1}}};
}

/// f applied `N` times through ep::grad: the N-th derivative.
template <int N, class F>
auto nth_grad(F f) {
  if constexpr (N == 0) {
    return f;
  } else {
    return nth_grad<N - 1>(ep::grad(f));
  }
}

}  // namespace autodiff_suite

EAGERPP_TYPED_SUITE(Autodiff);
