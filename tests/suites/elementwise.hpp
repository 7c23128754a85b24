// eagerpp - typed tests of the element-wise ops: unary, binary with broadcasting, comparisons,
// logic
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::sqrt, std::signbit
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <string>       // std::string
#include <type_traits>  // std::is_same_v
#include <utility>      // std::pair
#include <vector>       // std::vector

#include <gtest/gtest.h>

#include "suites/binary_cases.hpp"
#include "suites/unary_cases.hpp"
#include "support/support.hpp"

// Expected values are NumPy's (numpy 1.24, float64) for the same inputs, written in as literals.
// The inputs are exactly representable in float32, so exact results are compared exactly and
// transcendental ones within rtol 1e-6 (float32) or 1e-12 (float64). EagerPy's fixtures:
// t1 = arange(5) = [0, 1, 2, 3, 4] and t2 = arange(7, 17, 2) = [7, 9, 11, 13, 15].

EAGERPP_TYPED_SUITE(Elementwise);

namespace elementwise_test {

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();
inline constexpr double inf = std::numeric_limits<double>::infinity();

template <class B>
constexpr bool is_float32 = std::is_same_v<typename B::value_type, float>;

/// Expects the method form and the free-function form of a unary op to be close to NumPy's values.
template <class Tn>
void expect_unary(const std::string& op, const Tn& method, const Tn& free,
                  const std::vector<double>& expected) {
  using B = typename Tn::backend_type;
  SCOPED_TRACE(op);
  const double rtol = is_float32<B> ? 1e-6 : 1e-12;
  const double atol = is_float32<B> ? 1e-7 : 1e-15;  // for results near 0, e.g. cos(11)
  const ep::Shape s{static_cast<std::int64_t>(expected.size())};
  ep::test::expect_near(method, s, expected, rtol, atol);
  ep::test::expect_near(free, s, expected, rtol, atol);
}

/// Expects the method form and the free-function form of an exact op to equal NumPy's values.
template <class Tn, class V>
void expect_exact(const std::string& op, const Tn& method, const Tn& free, const ep::Shape& shape,
                  const std::vector<V>& expected) {
  SCOPED_TRACE(op);
  ep::test::expect_equal(method, shape, expected);
  ep::test::expect_equal(free, shape, expected);
}

}  // namespace elementwise_test

// --- unary
// -----------------------------------------------------------------------------------------

// Every row of the unary table against its NumPy values (suites/unary_cases.hpp), as a method and
// as a free function; an op without cases fails here.
TYPED_TEST_P(Elementwise, EveryUnaryOpOfTheTableMatchesNumPy) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  std::string missing;
  const auto check = [&](const char* op, auto method, auto free) {
    const auto* c = unary_cases::find(op);
    if (c == nullptr) {
      missing += std::string(" ") + op;
      return;
    }
    const auto x = ep::test::tensor<B>(c->x, {static_cast<std::int64_t>(c->x.size())});
    elementwise_test::expect_unary(op, method(x), free(x), c->expected);
  };
#define EAGERPP_CHECK_UNARY(name, dtypes, grad, scalar) \
  check(                                                \
      #name, [](const T& t) { return t.name(); }, [](const T& t) { return ep::name(t); });
  EAGERPP_UNARY_OPS(EAGERPP_CHECK_UNARY)
#undef EAGERPP_CHECK_UNARY
  EXPECT_EQ(missing, "") << "ops of the unary table without cases in tests/suites/unary_cases.hpp";
}

namespace elementwise_test {
/// Checks `f(a, b)` of the case of `op` (suites/binary_cases.hpp) against NumPy's values, with the
/// operands as tensors of backend In; records an op without cases in `missing`.
template <class In, class F>
void check_binary(const char* op, F f, std::string& missing) {
  const auto* c = binary_cases::find(binary_cases::binary, op);
  if (c == nullptr) {
    missing += std::string(" ") + op;
    return;
  }
  SCOPED_TRACE(op);
  const ep::Shape s{static_cast<std::int64_t>(c->a.size())};
  const auto out = f(ep::test::tensor<In>(c->a, s), ep::test::tensor<In>(c->b, s));
  using Out = typename decltype(out)::backend_type;
  if constexpr (std::is_same_v<typename Out::value_type, float>)
    ep::test::expect_near(out, s, c->expected32, 1e-6, 1e-7);
  else
    ep::test::expect_near(out, s, c->expected, 1e-12, 1e-15);
}
}  // namespace elementwise_test

// Every row of the binary lists (ops/binary_list.hpp: the binary ops as spelled, the binary
// functions as methods and free functions, the comparisons) against its NumPy values
// (suites/binary_cases.hpp); an op without cases fails here.
TYPED_TEST_P(Elementwise, EveryBinaryOpOfTheListsMatchesNumPy) {
  using B = TypeParam;
  using Bool = typename B::template rebind<bool>;
  using elementwise_test::check_binary;
  std::string missing;
#define EAGERPP_SPELLED_OPERATOR(symbol) a symbol b
#define EAGERPP_SPELLED_METHOD(method) a.method(b)
#define EAGERPP_CHECK_BINARY(name, dtypes, spelling, spelled)                                  \
  check_binary<EAGERPP_TEST_OPERAND_##dtypes>(                                                 \
      #name, [](const auto& a, const auto& b) { return EAGERPP_SPELLED_##spelling(spelled); }, \
      missing);
  EAGERPP_BINARY_OPS(EAGERPP_CHECK_BINARY)
#define EAGERPP_CHECK_FUNCTION(name, dtypes, value, grad)                      \
  check_binary<B>(                                                             \
      #name, [](const auto& a, const auto& b) { return a.name(b); }, missing); \
  check_binary<B>(                                                             \
      #name, [](const auto& a, const auto& b) { return ep::name(a, b); }, missing);
  EAGERPP_BINARY_FUNCTIONS(EAGERPP_CHECK_FUNCTION)
#define EAGERPP_CHECK_COMPARISON(name, symbol, dtypes) \
  check_binary<B>(                                     \
      #name, [](const auto& a, const auto& b) { return a symbol b; }, missing);
  EAGERPP_COMPARISON_OPS(EAGERPP_CHECK_COMPARISON)
#undef EAGERPP_CHECK_COMPARISON
#undef EAGERPP_CHECK_FUNCTION
#undef EAGERPP_CHECK_BINARY
#undef EAGERPP_SPELLED_METHOD
#undef EAGERPP_SPELLED_OPERATOR
  EXPECT_EQ(missing, "")
      << "ops of the binary lists without cases in tests/suites/binary_cases.hpp";
}

TYPED_TEST_P(Elementwise, RoundIsHalfToEvenCeilFloorNegative) {
  using B = TypeParam;
  using elementwise_test::expect_exact;
  const auto r = ep::test::tensor<B>(
      std::vector<double>{0.5, 1.5, 2.5, -2.5, -0.5, 0.375, -1.625, 3.75}, {2, 4});
  expect_exact("round", r.round(), ep::round(r), {2, 4},
               std::vector<double>{0, 2, 2, -2, -0.0, 0, -2, 4});
  expect_exact("ceil", r.ceil(), ep::ceil(r), {2, 4},
               std::vector<double>{1, 2, 3, -2, -0.0, 1, -1, 4});
  expect_exact("floor", r.floor(), ep::floor(r), {2, 4},
               std::vector<double>{0, 1, 2, -3, -1, 0, -2, 3});
  expect_exact("negative", r.negative(), ep::negative(r), {2, 4},
               std::vector<double>{-0.5, -1.5, -2.5, 2.5, 0.5, -0.375, 1.625, -3.75});
  ep::test::expect_equal(-r, {2, 4},
                         std::vector<double>{-0.5, -1.5, -2.5, 2.5, 0.5, -0.375, 1.625, -3.75});
  // The fixtures are integers already.
  const auto t2 = ep::arange<B>(7, 17, 2);
  ep::test::expect_equal(t2.round(), {5}, std::vector<double>{7, 9, 11, 13, 15});
  ep::test::expect_equal(-t2, {5}, std::vector<double>{-7, -9, -11, -13, -15});
}

TYPED_TEST_P(Elementwise, AbsSignClip) {
  using B = TypeParam;
  using elementwise_test::expect_exact;
  const auto s = ep::test::tensor<B>(std::vector<double>{-2, -0.5, 0, 0.5, 3}, {5});
  expect_exact("abs", s.abs(), ep::abs(s), {5}, std::vector<double>{2, 0.5, 0, 0.5, 3});
  expect_exact("sign", s.sign(), ep::sign(s), {5}, std::vector<double>{-1, -1, 0, 1, 1});
  const auto t1 = ep::arange<B>(5);
  const auto t2 = ep::arange<B>(7, 17, 2);
  expect_exact("clip t1", t1.clip(1, 3), ep::clip(t1, 1, 3), {5},
               std::vector<double>{1, 1, 2, 3, 3});
  expect_exact("clip t2", t2.clip(8, 12.5), ep::clip(t2, 8, 12.5), {5},
               std::vector<double>{8, 9, 11, 12.5, 12.5});
}

TYPED_TEST_P(Elementwise, IsnanIsinfGiveBoolTensors) {
  using B = TypeParam;
  using elementwise_test::inf;
  using elementwise_test::nan;
  const auto x = ep::test::tensor<B>(std::vector<double>{0, nan, inf, -inf, 1, -0.5}, {2, 3});
  const auto n = x.isnan();
  const auto i = ep::isinf(x);
  static_assert(std::is_same_v<typename decltype(n)::value_type, bool>);
  static_assert(std::is_same_v<typename decltype(i)::value_type, bool>);
  ep::test::expect_equal(n, {2, 3}, std::vector<bool>{false, true, false, false, false, false});
  ep::test::expect_equal(ep::isnan(x), {2, 3},
                         std::vector<bool>{false, true, false, false, false, false});
  ep::test::expect_equal(i, {2, 3}, std::vector<bool>{false, false, true, true, false, false});
  ep::test::expect_equal(x.isinf(), {2, 3},
                         std::vector<bool>{false, false, true, true, false, false});
}

TYPED_TEST_P(Elementwise, PowWithScalarsTensorsAndBroadcasting) {
  using B = TypeParam;
  const auto t1 = ep::arange<B>(5);
  const auto t2 = ep::arange<B>(7, 17, 2);
  ep::test::expect_equal(t1.pow(2), {5}, std::vector<double>{0, 1, 4, 9, 16});
  ep::test::expect_equal(ep::pow(t1, 2), {5}, std::vector<double>{0, 1, 4, 9, 16});
  const double rtol = elementwise_test::is_float32<B> ? 1e-6 : 1e-12;
  ep::test::expect_near(t2.pow(0.5), {5},
                        std::vector<double>{2.6457513110645907, 3.0, 3.3166247903554,
                                            3.605551275463989, 3.872983346207417},
                        rtol);
  ep::test::expect_equal(t1.pow(t1), {5}, std::vector<double>{1, 1, 4, 27, 256});
  ep::test::expect_equal(ep::pow(t1, t1), {5}, std::vector<double>{1, 1, 4, 27, 256});
  ep::test::expect_near(ep::test::tensor<B>(std::vector<double>{1, 4}, {2}).pow(-0.5), {2},
                        std::vector<double>{1, 0.5}, rtol);
  const auto base = ep::test::tensor<B>(std::vector<double>{1, 2, 3}, {3, 1});
  const auto e = ep::test::tensor<B>(std::vector<double>{0, 1, 2, 3}, {1, 4});
  // Within 2 ulp: CUDA's pow (3^1 is 2.9999999999999996 in double there); libm's is exact.
  ep::test::expect_near(base.pow(e), {3, 4},
                        std::vector<double>{1, 1, 1, 1, 1, 2, 4, 8, 1, 3, 9, 27},
                        elementwise_test::is_float32<B> ? 1e-6 : 1e-15);
}

// --- binary
// ------------------------------------------------------------------------------------------

TYPED_TEST_P(Elementwise, ArithmeticBroadcastsRowAgainstMatrix) {
  using B = TypeParam;
  const auto a = ep::test::tensor<B>(std::vector<double>{0, 1, 2, 3, 4, 5}, {2, 3});
  const auto b = ep::test::tensor<B>(std::vector<double>{10, 20, 30}, {3});
  ep::test::expect_equal(a + b, {2, 3}, std::vector<double>{10, 21, 32, 13, 24, 35});
  ep::test::expect_equal(b + a, {2, 3}, std::vector<double>{10, 21, 32, 13, 24, 35});
  ep::test::expect_equal(a - b, {2, 3}, std::vector<double>{-10, -19, -28, -7, -16, -25});
  ep::test::expect_equal(a * b, {2, 3}, std::vector<double>{0, 20, 60, 30, 80, 150});
  const auto d = ep::test::tensor<B>(std::vector<double>{2, 4, 8}, {3});
  ep::test::expect_equal(a / d, {2, 3}, std::vector<double>{0, 0.25, 0.25, 1.5, 1, 0.625});
}

TYPED_TEST_P(Elementwise, ArithmeticBroadcastsColumnAgainstRow) {
  using B = TypeParam;
  const auto c = ep::test::tensor<B>(std::vector<double>{1, 2}, {2, 1});
  const auto d = ep::test::tensor<B>(std::vector<double>{1, 2, 4}, {1, 3});
  ep::test::expect_equal(c + d, {2, 3}, std::vector<double>{2, 3, 5, 3, 4, 6});
  ep::test::expect_equal(c - d, {2, 3}, std::vector<double>{0, -1, -3, 1, 0, -2});
  ep::test::expect_equal(c * d, {2, 3}, std::vector<double>{1, 2, 4, 2, 4, 8});
  ep::test::expect_equal(c / d, {2, 3}, std::vector<double>{1, 0.5, 0.25, 2, 1, 0.5});
}

TYPED_TEST_P(Elementwise, ScalarsOnEitherSide) {
  using B = TypeParam;
  const auto t1 = ep::arange<B>(5);
  const auto t2 = ep::arange<B>(7, 17, 2);
  ep::test::expect_equal(2 - t2, {5}, std::vector<double>{-5, -7, -9, -11, -13});
  ep::test::expect_equal(t2 - 2, {5}, std::vector<double>{5, 7, 9, 11, 13});
  ep::test::expect_equal(t2 / 2, {5}, std::vector<double>{3.5, 4.5, 5.5, 6.5, 7.5});
  ep::test::expect_equal(3 * t1, {5}, std::vector<double>{0, 3, 6, 9, 12});
  ep::test::expect_equal(t1 * 3, {5}, std::vector<double>{0, 3, 6, 9, 12});
  ep::test::expect_equal(t1 + 1.5, {5}, std::vector<double>{1.5, 2.5, 3.5, 4.5, 5.5});
  ep::test::expect_equal(1.5 + t1, {5}, std::vector<double>{1.5, 2.5, 3.5, 4.5, 5.5});
  ep::test::expect_near(
      10 / t2, {5},
      std::vector<double>{1.4285714285714286, 1.1111111111111112, 0.9090909090909091,
                          0.7692307692307693, 0.6666666666666666},
      elementwise_test::is_float32<B> ? 1e-6 : 1e-12);
}

TYPED_TEST_P(Elementwise, ZeroDimensionalAndEmptyTensorsBroadcast) {
  using B = TypeParam;
  const auto a = ep::test::tensor<B>(std::vector<double>{0, 1, 2, 3, 4, 5}, {2, 3});
  const auto s = ep::from_vector<B>({3}, ep::Shape{});
  ep::test::expect_equal(s + a, {2, 3}, std::vector<double>{3, 4, 5, 6, 7, 8});
  ep::test::expect_equal(a - s, {2, 3}, std::vector<double>{-3, -2, -1, 0, 1, 2});
  ep::test::expect_equal(s * s, {}, std::vector<double>{9});
  ep::test::expect_equal(s.square() - 1, {}, std::vector<double>{8});
  const auto e = ep::zeros<B>({0, 3});
  ep::test::expect_equal(e + ep::test::tensor<B>(std::vector<double>{1, 2, 3}, {3}), {0, 3},
                         std::vector<double>{});
  ep::test::expect_equal(e.exp(), {0, 3}, std::vector<double>{});
  ep::test::expect_equal(e * 2, {0, 3}, std::vector<double>{});
  EXPECT_EQ((e < 1).shape(), (ep::Shape{0, 3}));
}

TYPED_TEST_P(Elementwise, RankFiveBroadcast) {
  using B = TypeParam;
  const auto a = ep::test::tensor<B>(std::vector<double>{0, 1, 2, 3}, {1, 2, 1, 2, 1});
  const auto b =
      ep::test::tensor<B>(std::vector<double>{0, 10, 20, 30, 40, 50, 60, 70}, {2, 1, 2, 1, 2});
  ep::test::expect_equal(
      a + b, {2, 2, 2, 2, 2},
      std::vector<double>{0,  10, 1,  11, 20, 30, 21, 31, 2,  12, 3,  13, 22, 32, 23, 33,
                          40, 50, 41, 51, 60, 70, 61, 71, 42, 52, 43, 53, 62, 72, 63, 73});
}

TYPED_TEST_P(Elementwise, FloordivModFollowNumpyOnFloats) {
  using B = TypeParam;
  const auto a = ep::test::tensor<B>(std::vector<double>{-7, -7, 7, 7, -1.5, 5.5, -0.5}, {7});
  const auto b = ep::test::tensor<B>(std::vector<double>{2, -2, 2, -2, 1, -2, 4}, {7});
  ep::test::expect_equal(a.floordiv(b), {7}, std::vector<double>{-4, 3, 3, -4, -2, -3, -1});
  ep::test::expect_equal(ep::floordiv(a, b), {7}, std::vector<double>{-4, 3, 3, -4, -2, -3, -1});
  ep::test::expect_equal(a.mod(b), {7}, std::vector<double>{1, -1, 1, -1, 0.5, -0.5, 3.5});
  ep::test::expect_equal(a % b, {7}, std::vector<double>{1, -1, 1, -1, 0.5, -0.5, 3.5});
  ep::test::expect_equal(ep::mod(a, b), {7}, std::vector<double>{1, -1, 1, -1, 0.5, -0.5, 3.5});
  const auto t2 = ep::arange<B>(7, 17, 2);
  ep::test::expect_equal(t2.floordiv(4), {5}, std::vector<double>{1, 2, 2, 3, 3});
  ep::test::expect_equal(ep::floordiv(t2, 4), {5}, std::vector<double>{1, 2, 2, 3, 3});
  ep::test::expect_equal(t2 % 4, {5}, std::vector<double>{3, 1, 3, 1, 3});
  ep::test::expect_equal(t2 % -4, {5}, std::vector<double>{-1, -3, -1, -3, -1});
  ep::test::expect_equal(ep::mod(t2, -4), {5}, std::vector<double>{-1, -3, -1, -3, -1});
  // Broadcasting: (2, 1) against (3,).
  const auto c = ep::test::tensor<B>(std::vector<double>{-7, 7}, {2, 1});
  const auto d = ep::test::tensor<B>(std::vector<double>{2, -2, 4}, {3});
  ep::test::expect_equal(c.floordiv(d), {2, 3}, std::vector<double>{-4, 3, -2, 3, -4, 1});
  ep::test::expect_equal(c % d, {2, 3}, std::vector<double>{1, -1, 1, 1, -1, 3});
}

TYPED_TEST_P(Elementwise, FloatDivisionByZeroFollowsNumpy) {
  using B = TypeParam;
  using elementwise_test::inf;
  using elementwise_test::nan;
  const auto a = ep::test::tensor<B>(std::vector<double>{1, -1, 0}, {3});
  ep::test::expect_equal(a / 0, {3}, std::vector<double>{inf, -inf, nan});
  ep::test::expect_equal(a.floordiv(0), {3}, std::vector<double>{inf, -inf, nan});
  ep::test::expect_equal(a % 0, {3}, std::vector<double>{nan, nan, nan});
}

TYPED_TEST_P(Elementwise, FloordivModFollowNumpyOnInt64) {
  using I = typename TypeParam::template rebind<std::int64_t>;
  const auto a = ep::from_vector<I>({-7, -7, 7, 7, 5, 0, -3});
  const auto b = ep::from_vector<I>({2, -2, 2, -2, 0, 0, 5});
  // Integer division by zero gives 0, as NumPy does (with a warning).
  ep::test::expect_equal(a.floordiv(b), {7}, std::vector<std::int64_t>{-4, 3, 3, -4, 0, 0, -1});
  ep::test::expect_equal(ep::floordiv(a, b), {7},
                         std::vector<std::int64_t>{-4, 3, 3, -4, 0, 0, -1});
  ep::test::expect_equal(a % b, {7}, std::vector<std::int64_t>{1, -1, 1, -1, 0, 0, 2});
  ep::test::expect_equal(a.mod(b), {7}, std::vector<std::int64_t>{1, -1, 1, -1, 0, 0, 2});
  const auto i = ep::from_vector<I>({-3, 0, 2, -1, 5});
  ep::test::expect_equal(i.floordiv(2), {5}, std::vector<std::int64_t>{-2, 0, 1, -1, 2});
  ep::test::expect_equal(i % 2, {5}, std::vector<std::int64_t>{1, 0, 0, 1, 1});
  ep::test::expect_equal(i % -3, {5}, std::vector<std::int64_t>{0, 0, -1, -1, -1});
}

TYPED_TEST_P(Elementwise, IntegerTrueDivisionGivesFloat64) {
  // NumPy: `/` of integer arrays is true division in float64; `//` and `%` floor.
  using elementwise_test::inf;
  using elementwise_test::nan;
  using I = typename TypeParam::template rebind<std::int64_t>;
  using I32 = typename TypeParam::template rebind<std::int32_t>;
  const auto a = ep::from_vector<I>({7, -7, 6, 7, -7, 0});
  const auto b = ep::from_vector<I>({2, 2, 3, 0, 0, 0});
  const auto q = a / b;
  static_assert(std::is_same_v<typename decltype(q)::value_type, double>);
  ep::test::expect_equal(q, {6}, std::vector<double>{3.5, -3.5, 2.0, inf, -inf, nan});
  ep::test::expect_equal(a / 0, {6}, std::vector<double>{inf, -inf, inf, inf, -inf, nan});
  const auto c = ep::from_vector<I32>({-3, -1, 3, 7});
  ep::test::expect_equal(c / 2, {4}, std::vector<double>{-1.5, -0.5, 1.5, 3.5});
  ep::test::expect_equal(c.floordiv(2), {4}, std::vector<std::int32_t>{-2, -1, 1, 3});
  ep::test::expect_equal(c % 2, {4}, std::vector<std::int32_t>{1, 1, 1, 1});
  ep::test::expect_equal(6 / c, {4}, std::vector<double>{-2.0, -6.0, 2.0, 0.8571428571428571});
}

TYPED_TEST_P(Elementwise, MinimumMaximumBroadcastAndTakeScalars) {
  using B = TypeParam;
  const auto a = ep::test::tensor<B>(std::vector<double>{0, 1, 2, 3, 4, 5}, {2, 3});
  const auto b = ep::test::tensor<B>(std::vector<double>{1, 2, 3}, {3});
  ep::test::expect_equal(a.minimum(b), {2, 3}, std::vector<double>{0, 1, 2, 1, 2, 3});
  ep::test::expect_equal(ep::minimum(b, a), {2, 3}, std::vector<double>{0, 1, 2, 1, 2, 3});
  const auto c = ep::test::tensor<B>(std::vector<double>{1, 2}, {2, 1});
  const auto d = ep::test::tensor<B>(std::vector<double>{1, 2, 4}, {1, 3});
  ep::test::expect_equal(c.maximum(d), {2, 3}, std::vector<double>{1, 2, 4, 2, 2, 4});
  ep::test::expect_equal(ep::maximum(c, d), {2, 3}, std::vector<double>{1, 2, 4, 2, 2, 4});
  const auto t1 = ep::arange<B>(5);
  ep::test::expect_equal(t1.minimum(2), {5}, std::vector<double>{0, 1, 2, 2, 2});
  ep::test::expect_equal(ep::minimum(t1, 2), {5}, std::vector<double>{0, 1, 2, 2, 2});
  ep::test::expect_equal(ep::minimum(2, t1), {5}, std::vector<double>{0, 1, 2, 2, 2});
  ep::test::expect_equal(t1.maximum(2), {5}, std::vector<double>{2, 2, 2, 3, 4});
  ep::test::expect_equal(ep::maximum(2, t1), {5}, std::vector<double>{2, 2, 2, 3, 4});
  ep::test::expect_equal(ep::maximum(t1, 2.5), {5}, std::vector<double>{2.5, 2.5, 2.5, 3, 4});
}

TYPED_TEST_P(Elementwise, MinimumMaximumPropagateNan) {
  using B = TypeParam;
  using elementwise_test::nan;
  const auto x = ep::test::tensor<B>(std::vector<double>{nan, 1, 2, nan}, {4});
  const auto y = ep::test::tensor<B>(std::vector<double>{0, nan, 1, nan}, {4});
  ep::test::expect_equal(x.minimum(y), {4}, std::vector<double>{nan, nan, 1, nan});
  ep::test::expect_equal(y.minimum(x), {4}, std::vector<double>{nan, nan, 1, nan});
  ep::test::expect_equal(x.maximum(y), {4}, std::vector<double>{nan, nan, 2, nan});
  ep::test::expect_equal(y.maximum(x), {4}, std::vector<double>{nan, nan, 2, nan});
  ep::test::expect_equal(x.minimum(5), {4}, std::vector<double>{nan, 1, 2, nan});
  ep::test::expect_equal(ep::maximum(-5, x), {4}, std::vector<double>{nan, 1, 2, nan});
}

// minimum, maximum and clip order -0.0 < +0.0 (IEEE 754-2019's minimum and maximum), whatever the
// operands' order, on every backend and every path: 18 elements take the packets and the scalar
// tail. Found by tests/fuzz: Eigen's packets give the second of two equal operands, its scalar path
// the first, so 1.5 // minimum(-0.0, 0.0) could be +inf on Eigen and -inf on xtensor and ep::omp.
TYPED_TEST_P(Elementwise, MinimumMaximumClipOrderSignedZeros) {
  using B = TypeParam;
  using T = typename B::value_type;
  std::vector<T> a, b;
  for (int i = 0; i < 9; ++i) {
    a.insert(a.end(), {T(-0.0), T(0.0)});
    b.insert(b.end(), {T(0.0), T(-0.0)});
  }
  const auto x = ep::from_vector<B>(a, {2, 9}), y = ep::from_vector<B>(b, {2, 9});
  const std::vector<std::pair<const char*, std::vector<T>>> results{
      {"minimum", x.minimum(y).to_vector()},
      {"minimum'", y.minimum(x).to_vector()},
      {"maximum", x.maximum(y).to_vector()},
      {"maximum'", y.maximum(x).to_vector()},
      {"clip(x, 0, 1)", x.clip(T(0), T(1)).to_vector()},
      {"clip(x, -1, -0)", x.clip(T(-1), T(-0.0)).to_vector()}};
  const bool negative[] = {true, true, false, false, false, true};  // the sign each should give
  for (std::size_t k = 0; k < results.size(); ++k)
    for (std::size_t i = 0; i < a.size(); ++i)
      EXPECT_EQ(std::signbit(results[k].second[i]), negative[k])
          << results[k].first << " at (" << a[i] << ", " << b[i] << ") = " << results[k].second[i];
}

TYPED_TEST_P(Elementwise, WhereSelectsWithBroadcasting) {
  using B = TypeParam;
  using Bo = typename B::template rebind<bool>;
  const auto cond = ep::from_vector<Bo>({true, false, true, false, true, false}, {2, 3});
  const auto a = ep::test::tensor<B>(std::vector<double>{0, 1, 2, 3, 4, 5}, {2, 3});
  const auto b = ep::test::tensor<B>(std::vector<double>{10, 20, 30}, {3});
  ep::test::expect_equal(cond.where(a, b), {2, 3}, std::vector<double>{0, 20, 2, 10, 4, 30});
  ep::test::expect_equal(ep::where(cond, a, b), {2, 3}, std::vector<double>{0, 20, 2, 10, 4, 30});
  ep::test::expect_equal(ep::where(cond, a, 0), {2, 3}, std::vector<double>{0, 0, 2, 0, 4, 0});
  ep::test::expect_equal(ep::where(cond, 1.5, b), {2, 3},
                         std::vector<double>{1.5, 20, 1.5, 10, 1.5, 30});
  // The condition broadcasts too: (2, 1) against (1, 3) and (2, 1).
  const auto c = ep::from_vector<Bo>({true, false}, {2, 1});
  const auto x = ep::test::tensor<B>(std::vector<double>{1, 2, 4}, {1, 3});
  const auto y = ep::test::tensor<B>(std::vector<double>{1, 2}, {2, 1});
  ep::test::expect_equal(c.where(x, y), {2, 3}, std::vector<double>{1, 2, 4, 2, 2, 2});
  // A condition computed from the values.
  const auto t1 = ep::arange<B>(5);
  ep::test::expect_equal(ep::where(t1 > 2, t1, -t1), {5}, std::vector<double>{0, -1, -2, 3, 4});
}

// --- comparisons and logic
// -------------------------------------------------------------------------

TYPED_TEST_P(Elementwise, ComparisonsGiveBoolTensors) {
  using B = TypeParam;
  const auto x = ep::test::tensor<B>(std::vector<double>{1, 2, 3}, {3});
  const auto y = ep::test::tensor<B>(std::vector<double>{3, 2, 1}, {3});
  const auto lt = x < y;
  static_assert(std::is_same_v<typename decltype(lt)::value_type, bool>);
  EXPECT_EQ(lt.dtype(), "bool");
  ep::test::expect_equal(lt, {3}, std::vector<bool>{true, false, false});
  ep::test::expect_equal(x <= y, {3}, std::vector<bool>{true, true, false});
  ep::test::expect_equal(x > y, {3}, std::vector<bool>{false, false, true});
  ep::test::expect_equal(x >= y, {3}, std::vector<bool>{false, true, true});
  ep::test::expect_equal(x == y, {3}, std::vector<bool>{false, true, false});
  ep::test::expect_equal(x != y, {3}, std::vector<bool>{true, false, true});
  // A scalar on the right ...
  ep::test::expect_equal(x < 2, {3}, std::vector<bool>{true, false, false});
  ep::test::expect_equal(x <= 2, {3}, std::vector<bool>{true, true, false});
  ep::test::expect_equal(x > 2, {3}, std::vector<bool>{false, false, true});
  ep::test::expect_equal(x >= 2, {3}, std::vector<bool>{false, true, true});
  ep::test::expect_equal(x == 2, {3}, std::vector<bool>{false, true, false});
  ep::test::expect_equal(x != 2, {3}, std::vector<bool>{true, false, true});
  // ... and on the left.
  ep::test::expect_equal(2 < x, {3}, std::vector<bool>{false, false, true});
  ep::test::expect_equal(2 <= x, {3}, std::vector<bool>{false, true, true});
  ep::test::expect_equal(2 > x, {3}, std::vector<bool>{true, false, false});
  ep::test::expect_equal(2 >= x, {3}, std::vector<bool>{true, true, false});
  // Broadcasting: (2, 1) against (3,).
  const auto c = ep::test::tensor<B>(std::vector<double>{1, 2}, {2, 1});
  const auto d = ep::test::tensor<B>(std::vector<double>{0.5, 1.5, 2.5}, {3});
  ep::test::expect_equal(c < d, {2, 3}, std::vector<bool>{false, true, true, false, false, true});
  // NaN compares unequal to everything, itself included.
  const auto n = ep::test::tensor<B>(std::vector<double>{elementwise_test::nan}, {1});
  ep::test::expect_equal(n == n, {1}, std::vector<bool>{false});
  ep::test::expect_equal(n != n, {1}, std::vector<bool>{true});
}

TYPED_TEST_P(Elementwise, LogicalOpsOnBoolTensors) {
  using Bo = typename TypeParam::template rebind<bool>;
  const auto a = ep::from_vector<Bo>({true, true, false, false});
  const auto b = ep::from_vector<Bo>({true, false, true, false});
  ep::test::expect_equal(a.logical_and(b), {4}, std::vector<bool>{true, false, false, false});
  ep::test::expect_equal(ep::logical_and(a, b), {4}, std::vector<bool>{true, false, false, false});
  ep::test::expect_equal(a.logical_or(b), {4}, std::vector<bool>{true, true, true, false});
  ep::test::expect_equal(ep::logical_or(a, b), {4}, std::vector<bool>{true, true, true, false});
  ep::test::expect_equal(a.logical_not(), {4}, std::vector<bool>{false, false, true, true});
  ep::test::expect_equal(ep::logical_not(b), {4}, std::vector<bool>{false, true, false, true});
  // Bool scalars on either side.
  ep::test::expect_equal(b.logical_and(true), {4}, std::vector<bool>{true, false, true, false});
  ep::test::expect_equal(ep::logical_and(false, b), {4},
                         std::vector<bool>{false, false, false, false});
  ep::test::expect_equal(b.logical_or(false), {4}, std::vector<bool>{true, false, true, false});
  ep::test::expect_equal(ep::logical_or(true, b), {4}, std::vector<bool>{true, true, true, true});
  // Broadcasting: (2, 1) against (1, 2).
  const auto c = ep::from_vector<Bo>({true, false}, {2, 1});
  const auto d = ep::from_vector<Bo>({true, false}, {1, 2});
  ep::test::expect_equal(c.logical_and(d), {2, 2}, std::vector<bool>{true, false, false, false});
  ep::test::expect_equal(c.logical_or(d), {2, 2}, std::vector<bool>{true, true, true, false});
}

TYPED_TEST_P(Elementwise, Int64Tensors) {
  using I = typename TypeParam::template rebind<std::int64_t>;
  const auto i = ep::from_vector<I>({-3, 0, 2, -1, 5});
  ep::test::expect_equal(i.abs(), {5}, std::vector<std::int64_t>{3, 0, 2, 1, 5});
  ep::test::expect_equal(ep::sign(i), {5}, std::vector<std::int64_t>{-1, 0, 1, -1, 1});
  ep::test::expect_equal(i.square(), {5}, std::vector<std::int64_t>{9, 0, 4, 1, 25});
  ep::test::expect_equal(-i, {5}, std::vector<std::int64_t>{3, 0, -2, 1, -5});
  ep::test::expect_equal(i + 2, {5}, std::vector<std::int64_t>{-1, 2, 4, 1, 7});
  ep::test::expect_equal(2 - i, {5}, std::vector<std::int64_t>{5, 2, 0, 3, -3});
  ep::test::expect_equal(i * i, {5}, std::vector<std::int64_t>{9, 0, 4, 1, 25});
  ep::test::expect_equal(i * 3, {5}, std::vector<std::int64_t>{-9, 0, 6, -3, 15});
  ep::test::expect_equal(i.clip(-1, 3), {5}, std::vector<std::int64_t>{-1, 0, 2, -1, 3});
  ep::test::expect_equal(i.maximum(0), {5}, std::vector<std::int64_t>{0, 0, 2, 0, 5});
  ep::test::expect_equal(i > 0, {5}, std::vector<bool>{false, false, true, false, true});
  // Broadcasting of int64 tensors, (2, 1) against (3,); int pow.
  const auto c = ep::from_vector<I>({1, 2}, {2, 1});
  const auto d = ep::from_vector<I>({10, 20, 30});
  ep::test::expect_equal(c * d - c, {2, 3}, std::vector<std::int64_t>{9, 19, 29, 18, 38, 58});
  ep::test::expect_equal(d.pow(2), {3}, std::vector<std::int64_t>{100, 400, 900});
  ep::test::expect_equal(ep::arange<I>(5).pow(ep::arange<I>(5)), {5},
                         std::vector<std::int64_t>{1, 1, 4, 27, 256});
}

TYPED_TEST_P(Elementwise, ChainingComposesOps) {
  using B = TypeParam;
  const auto x = ep::test::tensor<B>(std::vector<double>{1, 2, 2, 4}, {2, 2});
  ep::test::expect_equal(x.square().sum().sqrt(), {}, std::vector<double>{5});
  ep::test::expect_equal(ep::sqrt(ep::sum(ep::square(x))), {}, std::vector<double>{5});
  const auto t1 = ep::arange<B>(5);
  ep::test::expect_equal((t1 * 2 - 3).abs().clip(0, 4).floordiv(2), {5},
                         std::vector<double>{1, 0, 0, 1, 2});
}

TYPED_TEST_P(Elementwise, LargeTemporariesGiveCorrectResults) {
  // Operators handed a temporary of at least 1024 elements give its buffer back once their result
  // is computed (ops/elementwise.hpp); the results, and the lvalue operands, must not notice. The
  // values stay below 2^24, so float32 holds every one exactly.
  using B = TypeParam;
  using T = ep::Tensor<B>;
  const std::int64_t n = 1536;  // r stays below 1.2e7
  const T x = ep::arange<B>(static_cast<double>(n));
  const T r = ((x * 2 + 1) * (x - 3) + (x + x)) - 5 * (1 - x) + (x * 3) * (2 + x);
  const T t = x * 3;
  const T u = (x + 1) * t;  // t is an lvalue: kept
  std::vector<double> expected_r, expected_x, expected_t, expected_u;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto v = static_cast<double>(i);
    expected_r.push_back(((v * 2 + 1) * (v - 3) + (v + v)) - 5 * (1 - v) + (v * 3) * (2 + v));
    expected_x.push_back(v);
    expected_t.push_back(v * 3);
    expected_u.push_back((v + 1) * v * 3);
  }
  ep::test::expect_equal(r, {n}, expected_r);
  ep::test::expect_equal(x, {n}, expected_x);
  ep::test::expect_equal(t, {n}, expected_t);
  ep::test::expect_equal(u, {n}, expected_u);
}

// sqrt is IEEE's correctly rounded root, as NumPy's: std::sqrt is the oracle, element for element,
// over enough elements to reach a backend's vectorized path (Eigen's fast float sqrt is 1 ulp off,
// NaN at +inf and 0 for denormals: found by tests/fuzz).
TYPED_TEST_P(Elementwise, SqrtIsCorrectlyRounded) {
  using B = TypeParam;
  using T = typename B::value_type;
  std::vector<T> x;
  for (int i = 0; i < 64; ++i) x.push_back(static_cast<T>(0.625 + 0.37 * i));
  x[3] = std::numeric_limits<T>::infinity();
  x[5] = std::numeric_limits<T>::denorm_min() * 1000;
  x[6] = T(0);
  const auto y = ep::from_vector<B>(x, {8, 8}).sqrt().to_vector();
  for (std::size_t i = 0; i < x.size(); ++i)
    EXPECT_EQ(y[i], std::sqrt(x[i])) << "sqrt(" << x[i] << ")";
}

// negative flips the sign bit, as IEEE's: -(+0.0) is -0.0, so 1 / -x is -inf at x = +0.0; over
// enough elements to reach a backend's vectorized path (Eigen's AVX-512 packets computed 0 - x,
// +0.0: found by tests/fuzz in a -march=native build).
TYPED_TEST_P(Elementwise, NegativeFlipsTheSignOfZero) {
  using B = TypeParam;
  using T = typename B::value_type;
  std::vector<T> x(64, T(0));
  for (std::size_t i = 0; i < x.size(); i += 2) x[i] = T(-0.0);
  x[5] = std::numeric_limits<T>::infinity();
  x[7] = T(1.5);
  const auto t = ep::from_vector<B>(x, {8, 8});
  const auto y = (-t).to_vector();
  const auto z = t.negative().to_vector();
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(y[i], -x[i]) << "-(" << x[i] << ")";
    EXPECT_NE(std::signbit(y[i]), std::signbit(x[i])) << "-(" << x[i] << ") = " << y[i];
    EXPECT_NE(std::signbit(z[i]), std::signbit(x[i])) << "negative(" << x[i] << ") = " << z[i];
  }
}

// pow of the special operands is C's (NumPy's), sign included: std::pow is the oracle, its zeros
// and infinities exactly, sign bit for sign bit, NaN for NaN, the rest within 4 ulp, over enough
// elements to reach a backend's vectorized path (Eigen's packet pow, from SSE4.1 on, gives +inf for
// pow(-0.0, -1) and +0.0 for pow(-inf, -1): found by tests/fuzz in a -march=native build).
TYPED_TEST_P(Elementwise, PowOfSpecialOperandsIsCs) {
  using B = TypeParam;
  using T = typename B::value_type;
  constexpr T inf = std::numeric_limits<T>::infinity();
  const T bases[] = {T(-0.0), T(0), T(-1), T(-3), T(2), -inf, inf, T(0.5), T(-0.5), T(1)};
  const T exponents[] = {T(-1),  T(-2), T(1), T(3), T(0.5), T(-0.5),
                         T(1.5), T(0),  inf,  -inf, T(2),   T(-3)};
  std::vector<T> x, y;
  for (T b : bases)
    for (T e : exponents) x.push_back(b), y.push_back(e);
  const auto n = static_cast<std::int64_t>(x.size());  // 120
  const auto r = ep::from_vector<B>(x, {n}).pow(ep::from_vector<B>(y, {n})).to_vector();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const T want = std::pow(x[i], y[i]);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(r[i])) << "pow(" << x[i] << ", " << y[i] << ") = " << r[i];
      continue;
    }
    if (want == 0 || std::isinf(want)) {  // exactly, sign included
      EXPECT_EQ(r[i], want) << "pow(" << x[i] << ", " << y[i] << ")";
      EXPECT_EQ(std::signbit(r[i]), std::signbit(want))
          << "pow(" << x[i] << ", " << y[i] << ") = " << r[i];
    } else {  // within 4 ulp: CUDA's and xsimd's pow are not correctly rounded
      EXPECT_NEAR(r[i], want, 4 * std::numeric_limits<T>::epsilon() * std::abs(want))
          << "pow(" << x[i] << ", " << y[i] << ")";
    }
  }
}

// ceil, floor and round keep the sign of a zero result, as NumPy's (ceil(-0.5) is -0.0, so 1 / it
// is -inf): std::ceil, std::floor and std::nearbyint are the oracles, sign bit included, over
// enough elements to reach a backend's vectorized path (Eigen's and xsimd's SSE2 packets give +0.0:
// found by tests/fuzz as -1.25 / (-0.75).ceil() = -inf on ep::omp, +inf on Eigen and xtensor).
TYPED_TEST_P(Elementwise, RoundingKeepsTheSignOfZero) {
  using B = TypeParam;
  using T = typename B::value_type;
  const std::vector<T> pattern{T(-0.0),
                               T(-0.25),
                               T(-0.5),
                               T(-0.75),
                               T(0.0),
                               T(0.25),
                               T(0.5),
                               T(-1.5),
                               T(-2.5),
                               T(2.5),
                               T(-1),
                               T(1e30),
                               -std::numeric_limits<T>::infinity()};
  std::vector<T> x;
  for (int i = 0; i < 4; ++i) x.insert(x.end(), pattern.begin(), pattern.end());
  const auto t = ep::from_vector<B>(x, {4, static_cast<std::int64_t>(pattern.size())});
  const auto c = t.ceil().to_vector(), f = t.floor().to_vector(), r = t.round().to_vector();
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(c[i], std::ceil(x[i])) << "ceil(" << x[i] << ")";
    EXPECT_EQ(std::signbit(c[i]), std::signbit(std::ceil(x[i])))
        << "ceil(" << x[i] << ") = " << c[i];
    EXPECT_EQ(f[i], std::floor(x[i])) << "floor(" << x[i] << ")";
    EXPECT_EQ(std::signbit(f[i]), std::signbit(std::floor(x[i])))
        << "floor(" << x[i] << ") = " << f[i];
    EXPECT_EQ(r[i], std::nearbyint(x[i])) << "round(" << x[i] << ")";
    EXPECT_EQ(std::signbit(r[i]), std::signbit(std::nearbyint(x[i])))
        << "round(" << x[i] << ") = " << r[i];
  }
}

// exp underflows as IEEE's and NumPy's: to denormals, then 0 (exp(-inf) is 0), so a softmax over a
// -inf mask gives exactly 0 there. std::exp is the oracle, over enough elements to reach a
// backend's vectorized path (Eigen's packet exp clamps its operand at -709.784 for double, -88.723
// for float, and gives 5.6e-309 (2.9e-39) for anything below: found by tests/fuzz as exp(-1 / 0)).
TYPED_TEST_P(Elementwise, ExpUnderflowsToDenormalsAndZero) {
  using B = TypeParam;
  using T = typename B::value_type;
  const T inf = std::numeric_limits<T>::infinity();
  const std::vector<double> pattern =
      std::is_same_v<T, float>
          ? std::vector<double>{-200, -110, -104, -103, -100, -95, -90, -88.8, -88.5, -80, 1}
          : std::vector<double>{-1500, -800, -746, -745, -740, -730, -720, -710, -709.79, -709, 1};
  std::vector<T> x;
  for (int i = 0; i < 4; ++i) {
    x.push_back(-inf);
    for (double v : pattern) x.push_back(static_cast<T>(v));
  }
  const auto y =
      ep::from_vector<B>(x, {4, static_cast<std::int64_t>(pattern.size()) + 1}).exp().to_vector();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const T e = std::exp(x[i]);  // a denormal's last place is the smallest denormal
    EXPECT_NEAR(y[i], e,
                4 * std::numeric_limits<T>::epsilon() * e + std::numeric_limits<T>::denorm_min())
        << "exp(" << x[i] << ")";
    if (e == 0) {
      EXPECT_EQ(y[i], T(0)) << "exp(" << x[i] << ")";
    }
  }
  const auto s =
      ep::from_vector<B>(std::vector<T>{0, -inf, 1, -inf, -inf, 2}, {2, 3}).softmax(-1).to_vector();
  EXPECT_EQ(s[1], T(0));
  EXPECT_EQ(s[3], T(0));
  EXPECT_EQ(s[4], T(0));
  EXPECT_NEAR(s[5], T(1), 4 * std::numeric_limits<T>::epsilon());
  EXPECT_NEAR(s[0], T(0.2689414213699951), 4 * std::numeric_limits<T>::epsilon());
  EXPECT_NEAR(s[2], T(0.7310585786300049), 4 * std::numeric_limits<T>::epsilon());
}

REGISTER_TYPED_TEST_SUITE_P(
    Elementwise, SqrtIsCorrectlyRounded, NegativeFlipsTheSignOfZero, PowOfSpecialOperandsIsCs,
    RoundingKeepsTheSignOfZero, ExpUnderflowsToDenormalsAndZero, EveryUnaryOpOfTheTableMatchesNumPy,
    EveryBinaryOpOfTheListsMatchesNumPy, RoundIsHalfToEvenCeilFloorNegative, AbsSignClip,
    IsnanIsinfGiveBoolTensors, PowWithScalarsTensorsAndBroadcasting,
    ArithmeticBroadcastsRowAgainstMatrix, ArithmeticBroadcastsColumnAgainstRow, ScalarsOnEitherSide,
    ZeroDimensionalAndEmptyTensorsBroadcast, RankFiveBroadcast, FloordivModFollowNumpyOnFloats,
    FloatDivisionByZeroFollowsNumpy, FloordivModFollowNumpyOnInt64, IntegerTrueDivisionGivesFloat64,
    MinimumMaximumBroadcastAndTakeScalars, MinimumMaximumPropagateNan,
    MinimumMaximumClipOrderSignedZeros, WhereSelectsWithBroadcasting, ComparisonsGiveBoolTensors,
    LogicalOpsOnBoolTensors, Int64Tensors, ChainingComposesOps, LargeTemporariesGiveCorrectResults);
