// eagerpp - typed tests of the array API functions written with facade ops (ops/array_api.hpp):
// values against NumPy, the standard's special cases, errors, and gradients by finite differences
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::signbit, std::isnan, std::isinf, std::nextafter
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <string>       // std::string
#include <tuple>        // std::tuple, std::tuple_element_t
#include <type_traits>  // std::is_same_v
#include <utility>      // std::index_sequence
#include <vector>       // std::vector

#include <gtest/gtest.h>

#include <eagerpp/dtypes.hpp>
#include <eagerpp/ops/array_api.hpp>

#include "support/gradcheck.hpp"
#include "support/support.hpp"

// Expected values are NumPy 1.24's for the same inputs (np.eye, np.tril, np.trunc, np.logaddexp,
// np.hypot, np.var, np.std, np.count_nonzero, np.diff, np.roll, np.moveaxis), as literals.

EAGERPP_TYPED_SUITE(ArrayApi);

namespace array_api_test {
using values = std::vector<double>;
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double qnan = std::numeric_limits<double>::quiet_NaN();

template <class B>
ep::Tensor<B> tensor(const values& v, const ep::Shape& shape) {
  return ep::test::tensor<B>(v, shape);
}

template <class B>
double rtol() {
  return sizeof(typename B::value_type) == 4 ? 1e-6 : 1e-14;
}

/// Expects `t`'s elements to be `expected`'s, NaN where it has NaN, infinities with their sign,
/// the rest within rtol.
template <class B>
void expect_special(const ep::Tensor<B>& t, const values& expected) {
  const auto got = t.to_vector();
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = static_cast<double>(got[i]), e = expected[i];
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(g)) << "element " << i << ": " << g;
    } else if (std::isinf(e)) {
      EXPECT_EQ(g, e) << "element " << i;
    } else {
      EXPECT_NEAR(g, e, rtol<B>() * std::abs(e) + 1e-300) << "element " << i;
    }
  }
}
}  // namespace array_api_test

namespace array_api_test {
// The dtype functions, checked at compile time over every pair of the eleven real dtypes against
// NumPy's np.result_type and np.can_cast(..., "safe") (index into `dtypes`; -1: uint64 with a
// signed integer, undefined by the standard and a compile-time error here).
using dtypes = std::tuple<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                          std::uint16_t, std::uint32_t, std::uint64_t, float, double>;
inline constexpr int promotion[11][11] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},          {1, 1, 2, 3, 4, 2, 3, 4, -1, 9, 10},
    {2, 2, 2, 3, 4, 2, 3, 4, -1, 9, 10},         {3, 3, 3, 3, 4, 3, 3, 4, -1, 10, 10},
    {4, 4, 4, 4, 4, 4, 4, 4, -1, 10, 10},        {5, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10},
    {6, 3, 3, 3, 4, 6, 6, 7, 8, 9, 10},          {7, 4, 4, 4, 4, 7, 7, 7, 8, 10, 10},
    {8, -1, -1, -1, -1, 8, 8, 8, 8, 10, 10},     {9, 9, 9, 10, 10, 9, 9, 10, 10, 9, 10},
    {10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10}};
inline constexpr bool castable[11][11] = {
    {true, true, true, true, true, true, true, true, true, true, true},
    {false, true, true, true, true, false, false, false, false, true, true},
    {false, false, true, true, true, false, false, false, false, true, true},
    {false, false, false, true, true, false, false, false, false, false, true},
    {false, false, false, false, true, false, false, false, false, false, true},
    {false, false, true, true, true, true, true, true, true, true, true},
    {false, false, false, true, true, false, true, true, true, true, true},
    {false, false, false, false, true, false, false, true, true, false, true},
    {false, false, false, false, false, false, false, false, true, false, true},
    {false, false, false, false, false, false, false, false, false, true, true},
    {false, false, false, false, false, false, false, false, false, false, true}};
template <std::size_t I, std::size_t J>
constexpr bool check_pair() {
  using A = std::tuple_element_t<I, dtypes>;
  using B = std::tuple_element_t<J, dtypes>;
  if constexpr (promotion[I][J] >= 0) {
    using Expected = std::tuple_element_t<static_cast<std::size_t>(promotion[I][J]), dtypes>;
    static_assert(std::is_same_v<ep::result_type_t<A, B>, Expected>, "result_type");
  }
  static_assert(ep::can_cast<A, B>() == castable[I][J], "can_cast");
  return true;
}
template <std::size_t... K>
constexpr bool check_all(std::index_sequence<K...>) {
  return (check_pair<K / 11, K % 11>() && ...);
}
static_assert(check_all(std::make_index_sequence<121>{}));
static_assert(std::is_same_v<ep::result_type_t<std::int8_t, std::uint8_t, float>, float>);
static_assert(ep::isdtype<std::uint16_t>("unsigned integer") &&
              ep::isdtype<std::uint16_t>("integral") &&
              !ep::isdtype<std::uint16_t>("signed integer") && ep::isdtype<bool>("bool") &&
              !ep::isdtype<bool>("numeric") && ep::isdtype<float>("real floating") &&
              !ep::isdtype<double>("complex floating") && !ep::isdtype<double>("no such kind"));
static_assert(ep::finfo<float>::bits == 32 && ep::finfo<float>::eps == 1.1920929e-07F &&
              ep::finfo<double>::smallest_normal == 2.2250738585072014e-308 &&
              ep::finfo<double>::min == -ep::finfo<double>::max);
static_assert(ep::iinfo<std::int8_t>::min == -128 && ep::iinfo<std::uint16_t>::max == 65535 &&
              ep::iinfo<std::int64_t>::bits == 64);
}  // namespace array_api_test

TYPED_TEST_P(ArrayApi, EyeEmptyTrilTriu) {
  using namespace array_api_test;
  using B = TypeParam;
  ep::test::expect_equal(ep::eye<B>(3, 4, 1), {3, 4}, values{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  ep::test::expect_equal(ep::eye<B>(2, std::nullopt, -1), {2, 2}, values{0, 0, 1, 0});
  ep::test::expect_equal(ep::eye<B>(0), {0, 0}, values{});
  EXPECT_EQ(ep::empty<B>({2, 3}).shape(), (ep::Shape{2, 3}));
  EXPECT_EQ(ep::empty_like(ep::eye<B>(3)).shape(), (ep::Shape{3, 3}));
  const auto x = ep::arange<B>(12).reshape(3, 4);
  ep::test::expect_equal(ep::tril(x), {3, 4}, values{0, 0, 0, 0, 4, 5, 0, 0, 8, 9, 10, 0});
  ep::test::expect_equal(ep::triu(x, 1), {3, 4}, values{0, 1, 2, 3, 0, 0, 6, 7, 0, 0, 0, 11});
  ep::test::expect_equal(ep::tril(x, -1), {3, 4}, values{0, 0, 0, 0, 4, 0, 0, 0, 8, 9, 0, 0});
  ep::test::expect_equal(ep::triu(ep::arange<B>(18).reshape(2, 3, 3)), {2, 3, 3},
                         values{0, 1, 2, 0, 4, 5, 0, 0, 8, 9, 10, 11, 0, 13, 14, 0, 0, 17});
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::tril(ep::arange<B>(3)); },
                                                {"tril", "shape (3,)", "at least two axes"});
  ep::test::expect_throws_with<ep::value_error>([] { (void)ep::eye<B>(-1); }, {"eye", "-1 rows"});
}

TYPED_TEST_P(ArrayApi, ElementwiseSpecialCases) {
  using namespace array_api_test;
  using B = TypeParam;
  using T = typename B::value_type;
  // trunc: toward zero, the sign of zero kept (NumPy: -2, -0, -0, 0, 0, 2, inf, -inf, nan).
  const auto tr = ep::trunc(tensor<B>({-2.5, -0.5, -0.0, 0.0, 0.5, 2.5, inf, -inf, qnan}, {9}));
  expect_special(tr, {-2, -0.0, -0.0, 0, 0, 2, inf, -inf, qnan});
  const std::vector<bool> negative{true, true, true, false, false, false, false, true};
  const auto trv = tr.to_vector();
  for (std::size_t i = 0; i < negative.size(); ++i)
    EXPECT_EQ(std::signbit(trv[i]), negative[i]) << "element " << i;
  EXPECT_EQ(ep::isfinite(tensor<B>({1, inf, -inf, qnan, 0}, {5})).to_vector(),
            (std::vector<bool>{true, false, false, false, true}));
  ep::test::expect_near(ep::reciprocal(tensor<B>({2, -4, 0.5}, {3})), {3}, values{0.5, -0.25, 2});
  ep::test::expect_equal(ep::positive(tensor<B>({-1, 2}, {2})), {2}, values{-1, 2});
  // real and conj of a real dtype: x itself (array API 2024.12).
  ep::test::expect_equal(ep::real(tensor<B>({-1.5, 2}, {2})), {2}, values{-1.5, 2});
  ep::test::expect_equal(ep::conj(tensor<B>({-1.5, 2}, {2})), {2}, values{-1.5, 2});
  ep::test::expect_equal(ep::imag(tensor<B>({-1.5, 2}, {2})), {2}, values{0, 0});
  // logaddexp: equal infinities, NaN, and no overflow at 1000.
  expect_special(
      ep::logaddexp(tensor<B>({0, 1, -inf, inf, inf, -inf, 1000, qnan}, {8}),
                    tensor<B>({0, 2, -inf, inf, 1, 3, 1000, 1}, {8})),
      {0.6931471805599453, 2.313261687518223, -inf, inf, inf, 3.0, 1000.6931471805599, qnan});
  // hypot: an infinity beside NaN is +inf; no overflow or underflow in the squares (3e30, 3e-30
  // squared are out of float's range).
  expect_special(ep::hypot(tensor<B>({3, 0, inf, qnan, 3e30, 3e-30, -5}, {7}),
                           tensor<B>({4, 0, qnan, inf, 4e30, 4e-30, 12}, {7})),
                 {5, 0, inf, inf, 5e30, 5e-30, 13});
  // Broadcasting: a column against a row.
  ep::test::expect_near(ep::hypot(tensor<B>({3, 6}, {2, 1}), tensor<B>({4, 8}, {1, 2})), {2, 2},
                        values{5, 8.54400374531753, 7.211102550927978, 10}, rtol<B>());
  using Bool = typename B::template rebind<bool>;
  const auto p = ep::from_vector<Bool>({true, true, false, false}, {4});
  const auto q = ep::from_vector<Bool>({true, false, true, false}, {4});
  EXPECT_EQ(ep::logical_xor(p, q).to_vector(), (std::vector<bool>{false, true, true, false}));
  static_assert(std::is_same_v<typename decltype(ep::isfinite(p))::value_type, bool>);
  static_cast<void>(T{});
}

TYPED_TEST_P(ArrayApi, Atan2CopysignNextafterSignbit) {
  using namespace array_api_test;
  using B = TypeParam;
  using T = typename B::value_type;
  // atan2: the quadrant from the signs of zeros and infinities (NumPy's np.arctan2).
  const auto angle =
      ep::atan2(tensor<B>({1, -1, 0.0, -0.0, 0.0, -0.0, inf, -inf, inf, 1, qnan, 2.5, -3}, {13}),
                tensor<B>({1, 1, -0.0, -0.0, 0.0, 0.0, -inf, inf, 3, 0.0, 1, -4, -0.5}, {13}));
  expect_special(
      angle, {0.7853981633974483, -0.7853981633974483, 3.141592653589793, -3.141592653589793, 0.0,
              -0.0, 2.356194490192345, -0.7853981633974483, 1.5707963267948966, 1.5707963267948966,
              qnan, 2.5829933382462307, -1.7359450042095235});
  EXPECT_EQ(ep::signbit(angle).to_vector(),
            (std::vector<bool>{false, true, false, true, false, true, false, true, false, false,
                               false, false, true}));
  // copysign: the sign bit of b, read from -0.0 and NaN too; signbit of -0.0 and -NaN.
  const auto c = ep::copysign(tensor<B>({2, -3, 0, inf, qnan, 1.5}, {6}),
                              tensor<B>({-0.0, 1, -1, -2, -1, qnan}, {6}));
  expect_special(c, {-2, 3, -0.0, -inf, qnan, 1.5});
  EXPECT_EQ(ep::signbit(c).to_vector(), (std::vector<bool>{true, false, true, true, true, false}));
  EXPECT_EQ(ep::signbit(tensor<B>({-0.0, 0.0, -1, 2, -inf, inf, -qnan, qnan}, {8})).to_vector(),
            (std::vector<bool>{true, false, true, false, true, false, true, false}));
  // Broadcasting: a row of signs against a column.
  ep::test::expect_equal(ep::copysign(tensor<B>({1, 2}, {2, 1}), tensor<B>({-1, 1, -0.0}, {1, 3})),
                         {2, 3}, values{-1, 1, -1, -2, 2, -2});
  // nextafter: one ulp toward b (denormals from zero), b itself where equal.
  const T tiny = std::numeric_limits<T>::denorm_min();
  const auto next =
      ep::nextafter(tensor<B>({1, 1, 0, 0, -0.0, 2}, {6}), tensor<B>({2, 0, 1, -1, 1, 2}, {6}))
          .to_vector();
  const std::vector<T> expected{
      std::nextafter(T(1), T(2)), std::nextafter(T(1), T(0)), tiny, -tiny, tiny, T(2)};
  EXPECT_EQ(next, expected);
  EXPECT_EQ(static_cast<double>(expected[0]),
            sizeof(T) == 4 ? 1.0000001192092896 : 1.0000000000000002);  // NumPy's np.nextafter
  // A C++ scalar on either side (2024.12): np.arctan2(1.0, [1, -1]), np.copysign([2, 3], -1.0).
  ep::test::expect_near(ep::atan2(1.0, tensor<B>({1, -1}, {2})), {2},
                        values{0.7853981633974483, 2.356194490192345}, rtol<B>());
  ep::test::expect_equal(ep::copysign(tensor<B>({2, -3}, {2}), T(-1)), {2}, values{-2, -3});
  EXPECT_THROW((void)ep::atan2(tensor<B>({1, 2}, {2}), tensor<B>({1, 2, 3}, {3})), ep::value_error);
  EXPECT_THROW((void)ep::nextafter(tensor<B>({1, 2}, {2}), tensor<B>({1, 2, 3}, {3})),
               ep::value_error);
}

TYPED_TEST_P(ArrayApi, BitwiseOfIntegersAndBools) {
  using B = TypeParam;
  using I64 = typename B::template rebind<std::int64_t>;
  using I32 = typename B::template rebind<std::int32_t>;
  using Bool = typename B::template rebind<bool>;
  // NumPy's np.left_shift / np.right_shift: counts outside [0, 64) shift every bit out.
  const auto a = ep::from_vector<I64>({1, -8, 5, -1, 7, 12}, {6});
  const auto b = ep::from_vector<I64>({3, 1, 64, 2, -1, 100}, {6});
  EXPECT_EQ(ep::bitwise_left_shift(a, b).to_vector(),
            (std::vector<std::int64_t>{8, -16, 0, -4, 0, 0}));
  EXPECT_EQ((a >> b).to_vector(), (std::vector<std::int64_t>{0, -4, 0, -1, 0, 0}));
  // np.bitwise_and, _or, _xor, np.invert on int32.
  const auto c = ep::from_vector<I32>({12, -12, 5, 0, -1}, {5});
  const auto d = ep::from_vector<I32>({10, 10, -3, 7, 0}, {5});
  EXPECT_EQ((c & d).to_vector(), (std::vector<std::int32_t>{8, 0, 5, 0, 0}));
  EXPECT_EQ(ep::bitwise_or(c, d).to_vector(), (std::vector<std::int32_t>{14, -2, -3, 7, -1}));
  EXPECT_EQ((c ^ d).to_vector(), (std::vector<std::int32_t>{6, -2, -8, 7, -1}));
  EXPECT_EQ((~c).to_vector(), (std::vector<std::int32_t>{-13, 11, -6, -1, 0}));
  // Integers on either side, and broadcasting a column against a row.
  EXPECT_EQ((c & 4).to_vector(), (std::vector<std::int32_t>{4, 4, 4, 0, 4}));
  EXPECT_EQ((1 << c.clip(0, 3)).to_vector(), (std::vector<std::int32_t>{8, 1, 8, 1, 1}));
  const auto col = ep::from_vector<I32>({1, 2}, {2, 1});
  const auto row = ep::from_vector<I32>({3, 4, 6}, {1, 3});
  EXPECT_EQ((col | row).shape(), (ep::Shape{2, 3}));
  EXPECT_EQ((col | row).to_vector(), (std::vector<std::int32_t>{3, 5, 7, 3, 6, 6}));
  // 2^31 wraps to int32's minimum; shifting it right by 31 gives -1 (np.int32).
  const auto one = ep::from_vector<I32>({1}, {1});
  EXPECT_EQ(((one << 31) >> 31).to_vector(), (std::vector<std::int32_t>{-1}));
  // On bool: logical.
  const auto p = ep::from_vector<Bool>({true, true, false}, {3});
  const auto q = ep::from_vector<Bool>({true, false, false}, {3});
  EXPECT_EQ((p ^ q).to_vector(), (std::vector<bool>{false, true, false}));
  EXPECT_EQ((~p).to_vector(), (std::vector<bool>{false, false, true}));
  EXPECT_EQ((p & q).to_vector(), (std::vector<bool>{true, false, false}));
  EXPECT_THROW((void)ep::bitwise_and(c, ep::from_vector<I32>({1, 2}, {2})), ep::value_error);
}

TYPED_TEST_P(ArrayApi, ExpandDimsOfSeveralAxesBroadcastShapes) {
  using namespace array_api_test;
  using B = TypeParam;
  const auto x = tensor<B>({1, 2, 3, 4, 5, 6}, {2, 3});
  // NumPy: np.expand_dims(x, (0, 3)).shape == np.expand_dims(x, (-1, 0)).shape == (1, 2, 3, 1).
  EXPECT_EQ(ep::expand_dims(x, {0, 3}).shape(), (ep::Shape{1, 2, 3, 1}));
  EXPECT_EQ(ep::expand_dims(x, {-1, 0}).shape(), (ep::Shape{1, 2, 3, 1}));
  EXPECT_EQ(ep::expand_dims(x, {1}).to_vector(), x.to_vector());
  EXPECT_THROW((void)ep::expand_dims(x, {0, -4}), ep::value_error);  // -4 is 0 again
  EXPECT_THROW((void)ep::expand_dims(x, {4}), ep::value_error);
  // np.broadcast_shapes((2, 1, 3), (4, 1), (1,)) == (2, 4, 3); of none, ().
  EXPECT_EQ(ep::broadcast_shapes(ep::Shape{2, 1, 3}, ep::Shape{4, 1}, ep::Shape{1}),
            (ep::Shape{2, 4, 3}));
  EXPECT_EQ(ep::broadcast_shapes(), ep::Shape{});
  try {
    (void)ep::broadcast_shapes(ep::Shape{2, 3}, ep::Shape{3}, ep::Shape{4});
    ADD_FAILURE() << "expected ep::value_error";
  } catch (const ep::value_error& e) {
    EXPECT_NE(std::string(e.what()).find("broadcast_shapes"), std::string::npos) << e.what();
  }
}

TYPED_TEST_P(ArrayApi, VarStddevCountNonzero) {
  using namespace array_api_test;
  using B = TypeParam;
  const auto v = tensor<B>({1, 2, 3, 4, 2, 4, 6, 9, 0, -1, 5, 1}, {3, 4});
  ep::test::expect_near(ep::var(v), {}, values{7.166666666666667}, rtol<B>());
  ep::test::expect_near(ep::stddev(v), {}, values{2.6770630673681683}, rtol<B>());
  ep::test::expect_near(
      ep::var(v, 0), {4},
      values{0.6666666666666666, 4.222222222222222, 1.5555555555555554, 10.888888888888891},
      rtol<B>());
  ep::test::expect_near(ep::var(v, 1, 1), {3},
                        values{1.6666666666666667, 8.916666666666666, 6.916666666666667},
                        rtol<B>());
  ep::test::expect_near(ep::stddev(v, -1, 1, true), {3, 1},
                        values{1.2909944487358056, 2.9860788111948193, 2.6299556396765835},
                        rtol<B>());
  // N - correction <= 0: NaN (the standard; NumPy gives inf for a nonzero sum).
  expect_special(ep::var(v, 0, 3), {qnan, qnan, qnan, qnan});
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::var(v, 2); },
                                                {"var", "axis 2", "shape (3, 4)"});
  const auto c = tensor<B>({0, 1, 2, 0, 0, 3}, {2, 3});
  const auto all = ep::count_nonzero(c);
  static_assert(std::is_same_v<typename decltype(all)::value_type, std::int64_t>);
  EXPECT_EQ(all.item(), 3);
  EXPECT_EQ(ep::count_nonzero(c, 0).to_vector(), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(ep::count_nonzero(c, 1, true).shape(), (ep::Shape{2, 1}));
  EXPECT_EQ(ep::count_nonzero(c > 0, 1).to_vector(), (std::vector<std::int64_t>{2, 1}));
}

TYPED_TEST_P(ArrayApi, DiffRollMoveaxisMatrixTransposeVecdot) {
  using namespace array_api_test;
  using B = TypeParam;
  const auto d = tensor<B>({1, 3, 6, 10, 0, 5, 4, 9}, {2, 4});
  ep::test::expect_equal(ep::diff(d), {2, 3}, values{2, 3, 4, 5, -1, 5});
  ep::test::expect_equal(ep::diff(d, -1, 2), {2, 2}, values{1, 1, -6, 6});
  ep::test::expect_equal(ep::diff(d, 0), {1, 4}, values{-1, 2, -2, -1});
  EXPECT_EQ(ep::diff(d, -1, 7).shape(), (ep::Shape{2, 0}));
  EXPECT_EQ(ep::diff(d, -1, 0).to_vector(), d.to_vector());
  const auto r = ep::arange<B>(10).reshape(2, 5);
  ep::test::expect_equal(ep::roll(r, 2), {2, 5}, values{8, 9, 0, 1, 2, 3, 4, 5, 6, 7});
  ep::test::expect_equal(ep::roll(r, -1, 1), {2, 5}, values{1, 2, 3, 4, 0, 6, 7, 8, 9, 5});
  ep::test::expect_equal(ep::roll(r, 11, 0), {2, 5}, values{5, 6, 7, 8, 9, 0, 1, 2, 3, 4});
  const auto m = ep::arange<B>(24).reshape(2, 3, 4);
  ep::test::expect_equal(
      ep::moveaxis(m, 0, -1), {3, 4, 2},
      values{0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18, 7, 19, 8, 20, 9, 21, 10, 22, 11, 23});
  ep::test::expect_equal(
      ep::matrix_transpose(m), {2, 4, 3},
      values{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, 12, 16, 20, 13, 17, 21, 14, 18, 22, 15, 19, 23});
  ep::test::expect_equal(
      ep::vecdot(tensor<B>({1, 2, 3, 4, 5, 6}, {2, 3}), tensor<B>({1, -1, 2}, {3})), {2},
      values{5, 11});
  ep::test::expect_equal(ep::clip(tensor<B>({-2, 0.5, 3, 7}, {4}), tensor<B>({-1, 1, -1, 1}, {4}),
                                  tensor<B>({5}, {1})),
                         {4}, values{-1, 1, 3, 5});
  // np.tensordot(np.arange(24.).reshape(2, 3, 4), np.arange(12.).reshape(3, 4), 2), and axes 0.
  ep::test::expect_equal(ep::tensordot(m, ep::arange<B>(12).reshape(3, 4)), {2}, values{506, 1298});
  ep::test::expect_equal(ep::tensordot(tensor<B>({1, 2}, {2}), tensor<B>({3, 4, 5}, {3}), 0),
                         {2, 3}, values{3, 4, 5, 6, 8, 10});
  ep::test::expect_throws_with<ep::value_error>(
      [&] { (void)ep::tensordot(m, ep::arange<B>(12).reshape(4, 3)); },
      {"tensordot", "(2, 3, 4)", "(4, 3)", "3 against 4"});
  const auto parts = ep::unstack(ep::arange<B>(6).reshape(2, 3), 1);
  ASSERT_EQ(parts.size(), 3U);
  ep::test::expect_equal(parts[2], {2}, values{2, 5});
  const auto both = ep::broadcast_arrays(
      std::vector<ep::Tensor<B>>{tensor<B>({1, 2}, {2, 1}), tensor<B>({10, 20, 30}, {1, 3})});
  ep::test::expect_equal(both[0], {2, 3}, values{1, 1, 1, 2, 2, 2});
  ep::test::expect_equal(both[1], {2, 3}, values{10, 20, 30, 10, 20, 30});
  ep::test::expect_equal(ep::cumulative_sum(tensor<B>({1, 2, 3, 4}, {4}), std::nullopt, true), {5},
                         values{0, 1, 3, 6, 10});
  ep::test::expect_equal(ep::cumulative_sum(d, 1), {2, 4}, values{1, 4, 10, 20, 0, 5, 9, 18});
  ep::test::expect_equal(ep::cumulative_sum(d, 0, true), {3, 4},
                         values{0, 0, 0, 0, 1, 3, 6, 10, 1, 8, 10, 19});
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::cumulative_sum(d); },
                                                {"cumulative_sum", "(2, 4)", "expected an axis"});
  const auto u = tensor<B>({-0.5, 0, 0.5}, {3});
  ep::test::expect_close(ep::acos(u), u.arccos());
  ep::test::expect_close(ep::atanh(u), u.arctanh());
  ep::test::expect_close(ep::concat(std::vector<ep::Tensor<B>>{u, u}),
                         ep::concatenate(std::vector<ep::Tensor<B>>{u, u}));
  ep::test::expect_equal(ep::permute_dims(ep::arange<B>(6).reshape(2, 3), {1, 0}), {3, 2},
                         values{0, 3, 1, 4, 2, 5});
  ep::test::expect_throws_with<ep::value_error>(
      [&] { (void)ep::matrix_transpose(ep::arange<B>(3)); }, {"matrix_transpose", "(3,)"});
  ep::test::expect_throws_with<ep::value_error>(
      [&] {
        (void)ep::vecdot(d, tensor<B>({1, 2, 3}, {3}));
      },
      {"vecdot", "(2, 4)", "(3,)", "extents 4 and 3"});
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::diff(d.sum()); },
                                                {"diff", "0-dimensional"});
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::moveaxis(m, 3, 0); },
                                                {"moveaxis", "axis 3", "(2, 3, 4)"});
}

TYPED_TEST_P(ArrayApi, GradientsByFiniteDifferences) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  if constexpr (!std::is_same_v<typename B::value_type, double>) {
    GTEST_SKIP() << "the gradient checks run in double";
  } else {
    const T x = ep::test::random_tensor<B>({3, 4}, -1, 1, 21);
    const T y = ep::test::random_tensor<B>({3, 4}, -1, 1, 22);
    const T w = ep::test::random_tensor<B>({3, 4}, -1, 1, 23);
    const auto weighted = [](const T& t, std::uint64_t seed) {
      return (t * ep::test::random_tensor<B>(t.shape(), -1, 1, seed)).sum();
    };
    EXPECT_TRUE(ep::test::check_gradient([&](const T& t) { return ep::var(t, 1, 1).sum(); }, x));
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::stddev(t, 0), 31); }, x));
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::hypot(t, y), 32); }, x));
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::logaddexp(y, t), 33); }, x));
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::atan2(t, y), 40); }, x));
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::atan2(y, t), 41); }, x));
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) { return weighted(ep::copysign(t, y) + ep::copysign(y, t), 42); }, x));
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::diff(t, 0), 34); }, x));
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::roll(t, 3), 35); }, x));
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) { return weighted(ep::moveaxis(t.reshape(3, 2, 2), 2, 0), 36); }, x));
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::tril(t, 1), 37); }, x));
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::vecdot(t, w), 38); }, x));
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) { return weighted(ep::tensordot(t, w.reshape(4, 3), 1), 39); }, x));
    // logaddexp at a tie: each operand's weight is 1/2; hypot at the origin: 0, not NaN.
    const auto [v1, g1] =
        ep::value_and_grad([&](const T& t) { return ep::logaddexp(t, x).sum(); }, x);
    ep::test::expect_close(g1, x.full_like(0.5), 1e-15);
    const auto [v2, g2] = ep::value_and_grad(
        [&](const T& t) { return ep::hypot(t, t.zeros_like()).sum(); }, x.zeros_like());
    EXPECT_EQ(g2.to_vector(), std::vector<double>(12, 0.0));
  }
}

TYPED_TEST_P(ArrayApi, SortSearchSets) {
  using B = TypeParam;
  using array_api_test::values;
  using ep::test::tensor;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto x = tensor<B>(values{3, 1, 2, 1, 0, -1, 5, 5}, {2, 4});
  // NumPy oracles: argsort(flip(x), kind="stable") read back to front, -sort(-x).
  ep::test::expect_equal(ep::argsort(x, {.descending = true}), {2, 4},
                         values{0, 2, 1, 3, 2, 3, 0, 1});
  ep::test::expect_equal(ep::argsort(x, {.axis = 0, .descending = true}), {2, 4},
                         values{0, 0, 1, 1, 1, 1, 0, 0});
  ep::test::expect_equal(ep::sort(x, {.descending = true}), {2, 4},
                         values{3, 2, 1, 1, 5, 5, 0, -1});
  ep::test::expect_equal(ep::sort(x, {.axis = 0}), {2, 4}, values{0, -1, 2, 1, 3, 1, 5, 5});
  ep::test::expect_equal(ep::nonzero(x)[1], {7}, values{0, 1, 2, 3, 1, 2, 3});
  ep::test::expect_equal(ep::nonzero(x)[0], {7}, values{0, 0, 0, 0, 1, 1, 1});
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::nonzero(x.sum()); },
                                                {"nonzero", "0-d"});
  ep::test::expect_equal(ep::repeat(x, {1, 0, 2, 1}, 1), {2, 4}, values{3, 2, 2, 1, 0, 5, 5, 5});
  ep::test::expect_equal(ep::repeat(x, 2), {16},
                         values{3, 3, 1, 1, 2, 2, 1, 1, 0, 0, -1, -1, 5, 5, 5, 5});
  ep::test::expect_throws_with<ep::value_error>(
      [&] {
        (void)ep::repeat(x, {1, 2}, 1);
      },
      {"repeat", "2 repeats", "(2, 4)"});
  ep::test::expect_equal(
      ep::tensordot(ep::test::iota<B>({2, 3, 4}), ep::test::iota<B>({4, 3}), {1, 2}, {1, 0}), {2},
      values{440, 1232});
  if constexpr (std::is_floating_point_v<typename B::value_type>) {
    const auto sorted = tensor<B>(values{1, 2, 2, 3, 5, nan}, {6});
    const auto v = tensor<B>(values{2, 0, 6, nan}, {2, 2});
    ep::test::expect_equal(ep::searchsorted(sorted, v), {2, 2}, values{1, 0, 5, 5});
    ep::test::expect_equal(ep::searchsorted(sorted, v, "right"), {2, 2}, values{3, 0, 5, 6});
    ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::searchsorted(x, v); },
                                                  {"searchsorted", "(2, 4)", "1-D"});
    // Every NaN is its own value; -0.0 and 0 are one (NumPy: unique(equal_nan=False)).
    const auto u = tensor<B>(values{3, 1, nan, 1, -0.0, 0, nan, 3, 3}, {9});
    const auto [vals, first, inverse, counts] = ep::unique_all(u);
    ep::test::expect_equal(vals, {5}, values{-0.0, 1, 3, nan, nan});
    ep::test::expect_equal(first, {5}, values{4, 1, 0, 2, 6});
    ep::test::expect_equal(inverse, {9}, values{2, 1, 3, 1, 0, 0, 4, 2, 2});
    ep::test::expect_equal(counts, {5}, values{2, 2, 3, 1, 1});
    ep::test::expect_equal(ep::unique_values(x), {6}, values{-1, 0, 1, 2, 3, 5});
    ep::test::expect_equal(ep::unique_counts(x).counts, {6}, values{1, 1, 2, 1, 1, 2});
    EXPECT_EQ(ep::unique_inverse(x).inverse_indices.shape(), x.shape());
    ep::test::expect_equal(
        ep::isin(tensor<B>(values{1, 4, nan, 0}, {4}), tensor<B>(values{0, 1, nan}, {3})), {4},
        values{1, 0, 0, 1});
    ep::test::expect_equal(ep::isin(tensor<B>(values{1, 4}, {2}), tensor<B>(values{1}, {1}), true),
                           {2}, values{0, 1});
    const auto c = tensor<B>(values{1, 2, 0, 3, 2, -1, 4, 0.5}, {2, 4});
    ep::test::expect_equal(ep::cumulative_prod(c, 1), {2, 4}, values{1, 2, 0, 0, 2, -2, -8, -4});
    ep::test::expect_equal(ep::cumulative_prod(c, 0, true), {3, 4},
                           values{1, 1, 1, 1, 1, 2, 0, 3, 2, -2, 0, 1.5});
  }
  if constexpr (std::is_same_v<typename B::value_type, double>) {
    using T = ep::Tensor<B>;
    const auto weighted = [](const T& t) {
      return (t * ep::test::random_tensor<B>(t.shape(), -1, 1, 41)).sum();
    };
    // Zeros: none, one, two in a row, and a zero first.
    const auto z =
        tensor<B>(values{0.5, -1.5, 2, 0.7, 1.5, 0, 2, -1, 0.5, 0, 0, 3, 0, 2, 1, -1}, {4, 4});
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) { return weighted(ep::cumulative_prod(t, 1)); }, z))
        << "cumulative_prod with zeros";
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) {
          return weighted(ep::repeat(t, {2, 0, 1, 3}, 0));
        },
        z))
        << "repeat";
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) { return weighted(ep::sort(t, {.descending = true})); },
        z + 0.01 * ep::test::iota<B>({4, 4})))
        << "sort descending";
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) {
          return weighted(ep::tensordot(t, z, {0, 1}, {1, 0}));
        },
        z))
        << "tensordot over two axis lists";
    // The second derivative of the product through the rule's own cumulative_prod.
    const auto hess = ep::value_and_grad(
        [&](const T& t) {
          return ep::value_and_grad([&](const T& s) { return ep::cumulative_prod(s).sum(); }, t)
              .second.sum();
        },
        tensor<B>(values{2, 0.5, 3}, {3}));
    // f = x0 + x0 x1 + x0 x1 x2 has the gradient (1 + x1 + x1 x2, x0 + x0 x2, x0 x1), whose sum has
    // the gradient (1 + x1 + x2, 1 + x0 + x2, x0 + x1) = (4.5, 6, 2.5) at (2, 0.5, 3).
    ep::test::expect_near(hess.second, {3}, values{4.5, 6, 2.5}, 1e-14, 1e-14);
  }
}

// What ep::cuda runs for nonzero and unique_* (the backend's sorts, scans and gathers), checked on
// each host backend against the host computation, value for value.
TYPED_TEST_P(ArrayApi, NonzeroAndUniqueByTheBackendsOps) {
  using namespace array_api_test;
  using B = TypeParam;
  const auto check = [](const auto& x) {
    const auto ops = ep::detail::unique_all_by_ops(x);
    const auto host = ep::unique_all(x);
    const auto vo = ops.values.to_vector(), vh = host.values.to_vector();
    ASSERT_EQ(vo.size(), vh.size());
    for (std::size_t i = 0; i < vo.size(); ++i) {
      if constexpr (std::is_floating_point_v<typename decltype(vo)::value_type>)
        if (std::isnan(vh[i])) {
          EXPECT_TRUE(std::isnan(vo[i])) << "values " << i;
          continue;
        }
      EXPECT_EQ(vo[i], vh[i]) << "values " << i;
    }
    EXPECT_EQ(ops.indices.to_vector(), host.indices.to_vector());
    EXPECT_EQ(ops.inverse_indices.shape(), x.shape());
    EXPECT_EQ(ops.inverse_indices.to_vector(), host.inverse_indices.to_vector());
    EXPECT_EQ(ops.counts.to_vector(), host.counts.to_vector());
  };
  // np.unique(..., return_index, return_inverse, return_counts) of these: each NaN on its own, +0
  // with -0, the first occurrence's index.
  check(tensor<B>({3, qnan, 1, -0.0, 3, 0.0, qnan, 1}, {2, 4}));
  check(tensor<B>({2, 2, 2}, {3}));
  check(tensor<B>({5}, {1}));
  check(tensor<B>({}, {0}));
  check(tensor<B>({1, 0, 0, 1, 1}, {5}) > 0.5);
  const auto distinct = ep::detail::unique_all_by_ops(tensor<B>({3, 1, 3, 0.5}, {4})).values;
  ep::test::expect_equal(distinct, {3}, values{0.5, 1, 3});
  // Flat positions of the non-zero elements: np.flatnonzero([[0, 1, 0], [2, 0, 3]]) is [1, 3, 5].
  EXPECT_EQ(ep::detail::nonzero_flat_by_ops(tensor<B>({0, 1, 0, 2, 0, 3}, {2, 3})).to_vector(),
            (std::vector<std::int64_t>{1, 3, 5}));
  EXPECT_EQ(ep::detail::nonzero_flat_by_ops(tensor<B>({0, 0}, {2})).shape(), ep::Shape{0});
}

// The element-wise functions and statistics chain as methods, giving the free functions' values.
TYPED_TEST_P(ArrayApi, MethodsAreTheFreeFunctions) {
  using B = TypeParam;
  using ep::test::tensor;
  const auto x = tensor<B>({0.5, -0.25, 0.75, 1}, {2, 2});
  const auto y = tensor<B>({1, 2, -1, 0.5}, {2, 2});
  EXPECT_EQ(x.atan2(y).to_vector(), ep::atan2(x, y).to_vector());
  EXPECT_EQ(x.hypot(2.0).to_vector(), ep::hypot(x, 2.0).to_vector());
  EXPECT_EQ(x.copysign(y).logaddexp(y).to_vector(),
            ep::logaddexp(ep::copysign(x, y), y).to_vector());
  EXPECT_EQ(x.acos().to_vector(), ep::acos(x).to_vector());
  EXPECT_EQ(x.reciprocal().trunc().to_vector(), ep::trunc(ep::reciprocal(x)).to_vector());
  EXPECT_EQ(x.isfinite().to_vector(), ep::isfinite(x).to_vector());
  EXPECT_EQ(x.var(0, 1).to_vector(), ep::var(x, 0, 1).to_vector());
  EXPECT_EQ(x.stddev({0, 1}).to_vector(), ep::stddev(x, {0, 1}).to_vector());
  EXPECT_EQ(x.count_nonzero(1).to_vector(), ep::count_nonzero(x, 1).to_vector());
  EXPECT_EQ(x.cumulative_sum(1, true).to_vector(), ep::cumulative_sum(x, 1, true).to_vector());
  // np.var([[0.5, -0.25], [0.75, 1]], axis=0, ddof=1) is [0.03125, 0.78125].
  ep::test::expect_near(x.var(0, 1), {2}, array_api_test::values{0.03125, 0.78125},
                        array_api_test::rtol<B>());
}

REGISTER_TYPED_TEST_SUITE_P(ArrayApi, EyeEmptyTrilTriu, ElementwiseSpecialCases,
                            Atan2CopysignNextafterSignbit, BitwiseOfIntegersAndBools,
                            ExpandDimsOfSeveralAxesBroadcastShapes, VarStddevCountNonzero,
                            DiffRollMoveaxisMatrixTransposeVecdot, GradientsByFiniteDifferences,
                            SortSearchSets, NonzeroAndUniqueByTheBackendsOps,
                            MethodsAreTheFreeFunctions);
