// eagerpp - Autodiff suite (float64): the gradient rules of the element-wise ops (unary, with
// scalars, binary with broadcasting, where, astype) and their kinks and ties
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>  // std::int64_t
#include <string>   // std::string
#include <tuple>    // std::tuple, std::get
#include <vector>   // std::vector

#include <gtest/gtest.h>

#include "suites/autodiff_fixture.hpp"
#include "suites/binary_cases.hpp"
#include "suites/unary_cases.hpp"

// Against central finite differences at random points, and exactly where noted; registered with the
// rest of the suite in suites/autodiff.hpp.

TYPED_TEST_P(Autodiff, UnaryOpGradients) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  // Every row of the unary table, on the interval of its cases (suites/unary_cases.hpp); an op
  // without cases fails here.
  std::vector<unary_case<TypeParam>> cases;
  std::string missing;
#define EAGERPP_UNARY_GRADIENT_CASE(name, dtypes, grad, scalar)                  \
  if (const auto* c = unary_cases::find(#name))                                  \
    cases.push_back({#name, [](const T& x) { return x.name(); }, c->lo, c->hi}); \
  else                                                                           \
    missing += " " #name;
  EAGERPP_UNARY_OPS(EAGERPP_UNARY_GRADIENT_CASE)
#undef EAGERPP_UNARY_GRADIENT_CASE
  EXPECT_EQ(missing, "") << "ops of the unary table without cases in tests/suites/unary_cases.hpp";
  cases.insert(cases.end(), {
                                {"negative", [](const T& x) { return x.negative(); }, -2, 2},
                                {"operator-", [](const T& x) { return -x; }, -2, 2},
                                {"clip", [](const T& x) { return x.clip(-0.5, 0.7); }, -1.5, 1.5},
                                {"free sqrt", [](const T& x) { return ep::sqrt(x); }, 0.5, 3},
                            });
  for (const auto& c : cases) {
    for (const ep::Shape& s : {ep::Shape{2, 3}, ep::Shape{}, ep::Shape{1, 2, 1, 2, 2}}) {
      const T x = random_tensor<TypeParam>(s, c.lo, c.hi, 5);
      EXPECT_TRUE(ep::test::check_gradient([&](const T& t) { return weighted(c.f(t)); }, x))
          << c.name << " at an input of shape " << s;
    }
  }
}

TYPED_TEST_P(Autodiff, BinaryFunctionGradients) {
  using namespace autodiff_suite;
  // Every differentiable row of the binary functions' table (a RULE row), on the interval of its
  // cases (suites/binary_cases.hpp), with respect to each operand, on every broadcasting pair; a
  // RULE row without an interval fails here.
  std::string missing;
  const auto check = [&](const char* op, bool differentiable, auto f) {
    const auto* c = binary_cases::find(binary_cases::binary, op);
    if (!differentiable) return;
    if (c == nullptr || c->lo == c->hi) {
      missing += std::string(" ") + op;
      return;
    }
    for (const auto& [sx, sy] : broadcast_pairs())
      check_binary<TypeParam>(op, f, sx, sy, c->lo, c->hi, c->lo, c->hi);
  };
#define EAGERPP_DIFFERENTIABLE_RULE(...) true
#define EAGERPP_DIFFERENTIABLE_CONSTANT false
#define EAGERPP_BINARY_GRADIENT_CASE(name, dtypes, value, grad) \
  check(#name, EAGERPP_DIFFERENTIABLE_##grad,                   \
        [](const auto& a, const auto& b) { return ep::name(a, b); });
  EAGERPP_BINARY_FUNCTIONS(EAGERPP_BINARY_GRADIENT_CASE)
#undef EAGERPP_BINARY_GRADIENT_CASE
#undef EAGERPP_DIFFERENTIABLE_CONSTANT
#undef EAGERPP_DIFFERENTIABLE_RULE
  EXPECT_EQ(missing, "") << "differentiable binary functions without a gradient interval in "
                            "tests/suites/binary_cases.py";
}

TYPED_TEST_P(Autodiff, ScalarOperandGradients) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  const std::vector<unary_case<TypeParam>> cases = {
      {"x + 2", [](const T& x) { return x + 2; }, -2, 2},
      {"2 + x", [](const T& x) { return 2 + x; }, -2, 2},
      {"x - 2", [](const T& x) { return x - 2; }, -2, 2},
      {"2 - x", [](const T& x) { return 2 - x; }, -2, 2},
      {"x * 3", [](const T& x) { return x * 3; }, -2, 2},
      {"3 * x", [](const T& x) { return 3 * x; }, -2, 2},
      {"x / 4", [](const T& x) { return x / 4; }, -2, 2},
      {"2 / x", [](const T& x) { return 2 / x; }, 0.5, 2},
      {"x.pow(3)", [](const T& x) { return x.pow(3); }, -2, 2},
      {"x.pow(2.5)", [](const T& x) { return x.pow(2.5); }, 0.5, 2},
      {"x.pow(-1.5)", [](const T& x) { return x.pow(-1.5); }, 0.5, 2},
      {"x.pow(0.5)", [](const T& x) { return x.pow(0.5); }, 0.5, 2},
      {"ep::pow(x, 2)", [](const T& x) { return ep::pow(x, 2); }, -2, 2},
      {"x % 1.5", [](const T& x) { return x % 1.5; }, -3, 3},
      {"x.mod(-1.25)", [](const T& x) { return x.mod(-1.25); }, -3, 3},
      {"x.minimum(0.2)", [](const T& x) { return x.minimum(0.2); }, -1, 1},
      {"x.maximum(0.2)", [](const T& x) { return x.maximum(0.2); }, -1, 1},
      {"ep::minimum(0.2, x)", [](const T& x) { return ep::minimum(0.2, x); }, -1, 1},
      {"ep::maximum(0.2, x)", [](const T& x) { return ep::maximum(0.2, x); }, -1, 1},
      {"where(x > 0, x, 0.5)", [](const T& x) { return ep::where(x > 0, x * 2, 0.5); }, -1, 1},
      {"where(x > 0, 0.5, x)", [](const T& x) { return ep::where(x > 0, 0.5, x.square()); }, -1, 1},
  };
  for (const auto& c : cases) {
    const T x = random_tensor<TypeParam>({2, 3}, c.lo, c.hi, 5);
    EXPECT_TRUE(ep::test::check_gradient([&](const T& t) { return weighted(c.f(t)); }, x))
        << c.name;
  }
}

TYPED_TEST_P(Autodiff, IntegerOperandsPromotedByNumpyRulesAreConstants) {
  // NumPy's dtype rules give float64 where an integer tensor meets a floating scalar or is divided
  // (ep::scalar_result_t, ep::true_divide_t): the result is a constant of x's dtype (the suite runs
  // on double backends), and x's gradient flows through the ops that mix it in. Integer results are
  // never recorded.
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  using I = typename TypeParam::template rebind<std::int64_t>;
  const ep::Tensor<I> i = ep::arange<I>(1, 7).reshape(2, 3);  // [[1, 2, 3], [4, 5, 6]]
  const std::vector<unary_case<TypeParam>> cases = {
      {"x * (i / 2)", [i](const T& x) { return x * (i / 2); }, -2, 2},
      {"x + i * 0.5", [i](const T& x) { return x + i * 0.5; }, -2, 2},
      {"x / (1.5 - i)", [i](const T& x) { return x / (1.5 - i); }, -2, 2},
      {"where(i < 3.5, x, x * x)", [i](const T& x) { return ep::where(i < 3.5, x, x * x); }, -2, 2},
      {"x * where(i > 2, i, 0.5)", [i](const T& x) { return x * ep::where(i > 2, i, 0.5); }, -2, 2},
      {"x * (i.floordiv(2) + 1).float64()",
       [i](const T& x) { return x * (i.floordiv(2) + 1).float64(); }, -2, 2},
  };
  for (const auto& c : cases) {
    const T x = random_tensor<TypeParam>({2, 3}, c.lo, c.hi, 5);
    EXPECT_TRUE(ep::test::check_gradient([&](const T& t) { return weighted(c.f(t)); }, x))
        << c.name;
  }
  // Exactly: d/dx sum(x * (i / 2)) is i / 2 = [[0.5, 1, 1.5], [2, 2.5, 3]].
  const auto [v, g] = ep::value_and_grad([&](const T& x) { return (x * (i / 2)).sum(); },
                                         ep::ones<TypeParam>({2, 3}));
  ep::test::expect_equal(v, {}, values{10.5});
  ep::test::expect_equal(g, {2, 3}, values{0.5, 1, 1.5, 2, 2.5, 3});
}

TYPED_TEST_P(Autodiff, ArithmeticGradientsBroadcast) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  for (const auto& [sx, sy] : broadcast_pairs()) {
    check_binary<TypeParam>(
        "add", [](const T& a, const T& b) { return a + b; }, sx, sy, -2, 2, -2, 2);
    check_binary<TypeParam>(
        "subtract", [](const T& a, const T& b) { return a - b; }, sx, sy, -2, 2, -2, 2);
    check_binary<TypeParam>(
        "multiply", [](const T& a, const T& b) { return a * b; }, sx, sy, -2, 2, -2, 2);
    check_binary<TypeParam>(
        "divide", [](const T& a, const T& b) { return a / b; }, sx, sy, -2, 2, 0.5, 2);
  }
}

TYPED_TEST_P(Autodiff, PowMinimumMaximumModGradientsBroadcast) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  for (const auto& [sx, sy] : broadcast_pairs()) {
    check_binary<TypeParam>(
        "pow", [](const T& a, const T& b) { return a.pow(b); }, sx, sy, 0.5, 2, -1.5, 2.5);
    check_binary<TypeParam>(
        "ep::pow", [](const T& a, const T& b) { return ep::pow(a, b); }, sx, sy, 0.5, 2, -1.5, 2.5);
    check_binary<TypeParam>(
        "minimum", [](const T& a, const T& b) { return a.minimum(b); }, sx, sy, -1, 1, -1, 1);
    check_binary<TypeParam>(
        "maximum", [](const T& a, const T& b) { return ep::maximum(a, b); }, sx, sy, -1, 1, -1, 1);
    check_binary<TypeParam>(
        "mod", [](const T& a, const T& b) { return a % b; }, sx, sy, -3, 3, 0.7, 1.6);
    check_binary<TypeParam>(
        "mod (negative divisor)", [](const T& a, const T& b) { return a.mod(b); }, sx, sy, -3, 3,
        -1.6, -0.7);
  }
}

TYPED_TEST_P(Autodiff, WhereGradients) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  const auto cond = random_tensor<TypeParam>({2, 3}, -1, 1, 3) > 0;
  const auto row_cond = random_tensor<TypeParam>({3}, -1, 1, 4) > 0;
  for (const auto& [sx, sy] : broadcast_pairs()) {
    if (sx.size() > 2)
      continue;  // (2, 1, 3) with (4, 1) does not broadcast with a (2, 3) condition
    check_binary<TypeParam>(
        "where", [&](const T& a, const T& b) { return ep::where(cond, a, b); }, sx, sy, -2, 2, -2,
        2);
    check_binary<TypeParam>(
        "where (broadcast condition)", [&](const T& a, const T& b) { return row_cond.where(a, b); },
        sx, sy, -2, 2, -2, 2);
  }
  // Exactly: the gradient goes to the selected side.
  const T x = ep::test::tensor<TypeParam>(values{1, 2, 3, 4, 5, 6}, {2, 3});
  const T y = ep::test::tensor<TypeParam>(values{10, 20, 30}, {3});
  const auto c = ep::test::tensor<typename TypeParam::template rebind<bool>>(
      std::vector<int>{1, 0, 1, 0, 0, 1}, {2, 3});
  const auto [v, g] = ep::value_and_grad(
      [&](const std::tuple<T, T>& p) {
        return (ep::where(c, std::get<0>(p), std::get<1>(p)) * 2).sum();
      },
      std::tuple{x, y});
  ep::test::expect_equal(v, {}, values{2 * (1 + 20 + 3 + 10 + 20 + 6)});
  ep::test::expect_equal(std::get<0>(g), {2, 3}, values{2, 0, 2, 0, 0, 2});
  ep::test::expect_equal(std::get<1>(g), {3}, values{2, 4, 0});
}

TYPED_TEST_P(Autodiff, AstypeRoundTripPassesGradient) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  // float32 has too few digits for finite differences: check the rule exactly. The gradient of
  // x.astype<float>().astype<double>() is the incoming gradient rounded to float and back.
  const T x = ep::test::tensor<TypeParam>(values{0.1, -2.5, 3.25, 1e-3}, {2, 2});
  const T w = ep::test::tensor<TypeParam>(values{1.5, -2, 0.1, 4}, {2, 2});
  const auto [v, g] = ep::value_and_grad(
      [&](const T& t) { return (t.template astype<float>().template astype<double>() * w).sum(); },
      x);
  ep::test::expect_equal(g, {2, 2}, values{1.5, -2, static_cast<double>(0.1f), 4});
  EXPECT_NEAR(v.item(),
              1.5 * static_cast<double>(0.1f) + 5.0 + 0.1 * 3.25 + 4 * static_cast<double>(1e-3f),
              1e-14);
  // Through float arithmetic: d/dx sum((float(x))^2) = 2 float(x), computed in float.
  const auto [v2, g2] = ep::value_and_grad(
      [](const T& t) { return ep::astype<double>(t.float32().square().sum()); }, x);
  ep::test::expect_equal(
      g2, {2, 2}, values{static_cast<double>(2 * 0.1f), -5, 6.5, static_cast<double>(2 * 1e-3f)});
  (void)v2;
}

// --- kinks and ties (docs/autodiff.md): exact values ---------------------------------------------

TYPED_TEST_P(Autodiff, AbsGradientAtZeroIsZero) {
  using T = ep::Tensor<TypeParam>;
  const T x = ep::test::tensor<TypeParam>(std::vector<double>{-1.5, 0, 2, -0.0}, {4});
  ep::test::expect_equal(ep::grad([](const T& t) { return t.abs().sum(); })(x), {4},
                         std::vector<double>{-1, 0, 1, 0});
}

TYPED_TEST_P(Autodiff, MinimumMaximumTiesShareGradient) {
  using T = ep::Tensor<TypeParam>;
  const T x = ep::test::tensor<TypeParam>(std::vector<double>{1, 2, 3}, {3});
  const T y = ep::test::tensor<TypeParam>(std::vector<double>{1, 0, 3}, {3});
  const auto gmin = ep::grad([](const std::tuple<T, T>& p) {
    return std::get<0>(p).minimum(std::get<1>(p)).sum();
  })(std::tuple{x, y});
  ep::test::expect_equal(std::get<0>(gmin), {3}, std::vector<double>{0.5, 0, 0.5});
  ep::test::expect_equal(std::get<1>(gmin), {3}, std::vector<double>{0.5, 1, 0.5});
  const auto gmax = ep::grad([](const std::tuple<T, T>& p) {
    return std::get<0>(p).maximum(std::get<1>(p)).sum();
  })(std::tuple{x, y});
  ep::test::expect_equal(std::get<0>(gmax), {3}, std::vector<double>{0.5, 1, 0.5});
  ep::test::expect_equal(std::get<1>(gmax), {3}, std::vector<double>{0.5, 0, 0.5});
  // relu at 0 (maximum with a scalar): 0.5.
  const T z = ep::test::tensor<TypeParam>(std::vector<double>{-1, 0, 2}, {3});
  ep::test::expect_equal(ep::grad([](const T& t) { return t.maximum(0).sum(); })(z), {3},
                         std::vector<double>{0, 0.5, 1});
  // Broadcast ties: a (3,) operand tied against two rows gets the halves of both.
  const T r = ep::test::tensor<TypeParam>(std::vector<double>{1, 5, 3, 1, 0, 3}, {2, 3});
  const auto gb = ep::grad([&](const T& t) { return r.minimum(t).sum(); })(y);
  ep::test::expect_equal(gb, {3}, std::vector<double>{1, 1.5, 1});
}
