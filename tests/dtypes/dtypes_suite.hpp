// eagerpp - the Dtypes suite: the integer dtypes int8, int16, uint8, uint16, uint32 and uint64 on one
// backend (creation, casting, wrapping arithmetic, bitwise ops, comparisons, reductions, sorting,
// .npy) against NumPy's results (expected.hpp), and promotion between two dtypes
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::abs
#include <cstdint>      // std::int8_t ... std::uint64_t
#include <filesystem>   // std::filesystem::temp_directory_path
#include <limits>       // std::numeric_limits
#include <string>       // std::string
#include <type_traits>  // std::is_same_v
#include <vector>       // std::vector

#include <gtest/gtest.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/npy.hpp>

#include "dtypes/expected.hpp"
#include "support/support.hpp"

namespace dtypes_suite {

template <class B>
using T = typename B::value_type;

/// Expects `t` to have dtype U, shape (n,) and exactly `want`: integers compare as integers, so
/// uint64 values above 2^53 are exact.
template <class U, class B>
void expect_values(const ep::Tensor<B>& t, const std::vector<U>& want, const char* what) {
  static_assert(std::is_same_v<typename B::value_type, U>, "the result has another dtype");
  ASSERT_EQ(t.shape(), ep::Shape{static_cast<std::int64_t>(want.size())}) << what;
  const auto got = t.to_vector();
  for (std::size_t i = 0; i < want.size(); ++i) {
    if constexpr (std::is_floating_point_v<U>)
      EXPECT_DOUBLE_EQ(got[i], want[i]) << what << " element " << i;
    else
      EXPECT_EQ(got[i], want[i]) << what << " element " << i;
  }
}

/// Expects `t` to have dtype U, shape (n,) and `want` within a relative tolerance.
template <class U, class B>
void expect_near(const ep::Tensor<B>& t, const std::vector<U>& want, double rtol,
                 const char* what) {
  static_assert(std::is_same_v<typename B::value_type, U>, "the result has another dtype");
  ASSERT_EQ(t.shape(), ep::Shape{static_cast<std::int64_t>(want.size())}) << what;
  const auto got = t.to_vector();
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_NEAR(got[i], want[i], rtol * std::abs(want[i])) << what << " element " << i;
}

template <class B>
ep::Tensor<B> vec(const std::vector<T<B>>& v) {
  return ep::from_vector<B>(v);
}

EAGERPP_TYPED_SUITE(Dtypes);

TYPED_TEST_P(Dtypes, CreationNamesAndLimits) {
  using B = TypeParam;
  using V = T<B>;
  constexpr auto lo = std::numeric_limits<V>::min();
  constexpr auto hi = std::numeric_limits<V>::max();
  const auto x = vec<B>({lo, hi, V(0)});
  EXPECT_EQ(x.dtype(), ep::dtype_name<V>());
  EXPECT_EQ(x.to_vector(), (std::vector<V>{lo, hi, V(0)}));
  expect_values(ep::arange<B>(4), std::vector<V>{0, 1, 2, 3}, "arange");
  expect_values(ep::full<B>({3}, V(7)), std::vector<V>{7, 7, 7}, "full");
  expect_values(ep::zeros<B>({2}), std::vector<V>{0, 0}, "zeros");
  expect_values(ep::eye<B>(2).reshape({-1}), std::vector<V>{1, 0, 0, 1}, "eye");
  const std::string s = fmt::format("{}", vec<B>({V(1), V(65)}));
  EXPECT_NE(s.find("65"), std::string::npos) << s;  // numbers, not characters ('A')
  EXPECT_EQ(s.find('A'), std::string::npos) << s;
  EXPECT_NE(s.find(ep::dtype_name<V>()), std::string::npos) << s;
}

TYPED_TEST_P(Dtypes, ArithmeticWrapsAsNumPy) {
  using B = TypeParam;
  using E = expected<T<B>>;
  const auto a = vec<B>(E::a), b = vec<B>(E::b), c = vec<B>(E::c);
  expect_values(a + b, E::add, "add");
  expect_values(a - b, E::subtract, "subtract");
  expect_values(a * b, E::multiply, "multiply");
  expect_values(a / b, E::true_divide, "true_divide (float64)");
  expect_values(a.floordiv(b), E::floor_divide, "floor_divide (x // 0 is 0)");
  expect_values(a % b, E::mod, "mod (x % 0 is 0)");
  expect_values(a.pow(c), E::power, "power");
  expect_values(-a, E::negative, "negative");
  expect_values(a.abs(), E::abs, "abs");
  expect_values(a.sign(), E::sign, "sign");
  expect_values(ep::minimum(a, b), E::minimum, "minimum");
  expect_values(ep::maximum(a, b), E::maximum, "maximum");
  expect_values(a + 3, E::add_scalar, "add of a C++ int");
}

TYPED_TEST_P(Dtypes, BitwiseAndComparisons) {
  using B = TypeParam;
  using E = expected<T<B>>;
  const auto a = vec<B>(E::a), b = vec<B>(E::b), s = vec<B>(E::s);
  expect_values(a & b, E::bitwise_and, "bitwise_and");
  expect_values(a | b, E::bitwise_or, "bitwise_or");
  expect_values(a ^ b, E::bitwise_xor, "bitwise_xor");
  expect_values(~a, E::invert, "bitwise_invert");
  expect_values(a << s, E::left_shift, "left_shift");
  expect_values(a >> s, E::right_shift, "right_shift");
  expect_values(a < b, E::less, "less");
  expect_values(a == b, E::equal, "equal");
}

TYPED_TEST_P(Dtypes, ReductionsAccumulateAsNumPy) {
  using B = TypeParam;
  using E = expected<T<B>>;
  const auto a = vec<B>(E::a);
  expect_values(a.sum().reshape({1}), E::sum, "sum");
  expect_values(a[ep::slice(2, {})].prod().reshape({1}), E::prod, "prod");
  expect_values(a.cumsum(), E::cumsum, "cumsum");
  expect_values(ep::cumulative_sum(a), E::cumsum, "cumulative_sum");
  expect_values(a.max().reshape({1}), E::max, "max");
  expect_values(a.min().reshape({1}), E::min, "min");
  expect_values(a.argmax().reshape({1}), E::argmax, "argmax");
  expect_values(a.argmin().reshape({1}), E::argmin, "argmin");
}

TYPED_TEST_P(Dtypes, SortingAndSets) {
  using B = TypeParam;
  using E = expected<T<B>>;
  const auto a = vec<B>(E::a);
  expect_values(a.sort(), E::sort, "sort");
  expect_values(a.argsort(), E::argsort, "argsort");
  expect_values(ep::unique_values(vec<B>(E::u)), E::unique_values, "unique_values");
  // An index tensor of this dtype selects as int64 does.
  expect_values(a[vec<B>({T<B>(2), T<B>(0)})], std::vector<T<B>>{E::a[2], E::a[0]}, "take");
}

TYPED_TEST_P(Dtypes, Casting) {
  using B = TypeParam;
  using E = expected<T<B>>;
  const auto a = vec<B>(E::a);
  expect_values(a.template astype<double>(), E::as_float64, "astype<double>");
  expect_values(a.template astype<bool>(), E::as_bool, "astype<bool>");
  const auto f = ep::from_vector<typename B::template rebind<double>>(
      std::vector<double>{0.0, 2.7, 99.9, 3.2, 1.0, 126.5});
  expect_values(f.template astype<T<B>>(), E::from_float64, "astype from double (truncates)");
}

TYPED_TEST_P(Dtypes, NpyReadsNumPysFilesAndRoundTrips) {
  using B = TypeParam;
  using V = T<B>;
  const std::string name = std::string(ep::dtype_name<V>());
  const auto file = name == "uint8" ? "uint8_2x3.npy" : name + "_4.npy";
  const auto t = ep::load_npy<B>(ep::test::fixture(file));
  std::vector<V> want;  // tests/data/make_fixtures.py
  if constexpr (std::is_same_v<V, std::int8_t>)
    want = {-128, -1, 0, 127};
  else if constexpr (std::is_same_v<V, std::int16_t>)
    want = {-32768, -1, 0, 32767};
  else if constexpr (std::is_same_v<V, std::uint8_t>)
    want = {0, 1, 127, 128, 200, 255};
  else if constexpr (std::is_same_v<V, std::uint16_t>)
    want = {0, 1, 40000, 65535};
  else if constexpr (std::is_same_v<V, std::uint32_t>)
    want = {0, 1, 3000000000U, 4294967295U};
  else
    want = {0, 1, 9223372036854775808U, 18446744073709551615U};
  EXPECT_EQ(t.to_vector(), want);
  EXPECT_EQ(t.shape(), (name == "uint8" ? ep::Shape{2, 3} : ep::Shape{4}));
  const auto path = std::filesystem::temp_directory_path() /
                    fmt::format("eagerpp_dtypes_{}_{}.npy", B::name, name);
  ep::save_npy(path, t);
  EXPECT_EQ(ep::load_npy<B>(path).to_vector(), want);
  std::filesystem::remove(path);
  // Another dtype's file is refused, naming both.
  EXPECT_THROW((void)ep::load_npy<typename B::template rebind<float>>(ep::test::fixture(file)),
               ep::io_error);
}

REGISTER_TYPED_TEST_SUITE_P(Dtypes, CreationNamesAndLimits, ArithmeticWrapsAsNumPy,
                            BitwiseAndComparisons, ReductionsAccumulateAsNumPy, SortingAndSets,
                            Casting, NpyReadsNumPysFilesAndRoundTrips);

/// Promotion between tensors of two dtypes of backend library F (F<T> is a backend), by the array
/// API's table; NumPy 1.24 gives the same dtypes and values.
template <template <class> class F>
void check_promotion() {
  using ep::Tensor;
  const auto i8 = ep::from_vector<F<std::int8_t>>({-1, 127, -128});
  const auto u8 = ep::from_vector<F<std::uint8_t>>({255, 1, 0});
  const auto i16 = ep::from_vector<F<std::int16_t>>({-1, 300, 2});
  const auto u32 = ep::from_vector<F<std::uint32_t>>({4294967295U, 1, 2});
  const auto i32 = ep::from_vector<F<std::int32_t>>({-1, 2, 3});
  const auto f32 = ep::from_vector<F<float>>({0.5f, 0.25f, -2.0f});
  const auto b = ep::from_vector<F<bool>>({true, false, true});
  // np.int8 + np.uint8 -> int16: [254, 128, -128]
  expect_values(i8 + u8, std::vector<std::int16_t>{254, 128, -128}, "int8 + uint8");
  // uint32 - int32 -> int64: [4294967296, -1, -1]
  expect_values(u32 - i32, std::vector<std::int64_t>{4294967296, -1, -1}, "uint32 - int32");
  // int16 * float32 -> float32: [-0.5, 75.0, -4.0]
  expect_values(i16 * f32, std::vector<float>{-0.5f, 75.0f, -4.0f}, "int16 * float32");
  // int32 + float32 -> float64 (NumPy: arrays of these promote to float64)
  expect_values(i32 + f32, std::vector<double>{-0.5, 2.25, 1.0}, "int32 + float32");
  // bool + uint8 -> uint8: [0, 1, 1]
  expect_values(b + u8, std::vector<std::uint8_t>{0, 1, 1}, "bool + uint8");
  // int8 < uint8 compares after promotion: -1 < 255, 127 < 1, -128 < 0
  expect_values(i8 < u8, std::vector<bool>{true, false, true}, "int8 < uint8");
  expect_values(i8 == i16, std::vector<bool>{true, false, false}, "int8 == int16");
  // true division of two integer dtypes is float64
  expect_values(u8 / i8, std::vector<double>{-255.0, 1.0 / 127.0, -0.0}, "uint8 / int8");
  // The two-tensor functions and methods promote alike (NumPy 1.24's values and dtypes).
  expect_values(ep::maximum(i8, u8), std::vector<std::int16_t>{255, 127, 0},
                "maximum(int8, uint8)");
  expect_values(i32.minimum(f32), std::vector<double>{-1.0, 0.25, -2.0}, "int32.minimum(float32)");
  expect_values(i16.pow(u8), std::vector<std::int16_t>{-1, 300, 1}, "int16.pow(uint8)");
  expect_values(ep::floordiv(u32, i32), std::vector<std::int64_t>{-4294967295, 0, 0},
                "floordiv(uint32, int32)");
  expect_values(u8.mod(i8), std::vector<std::int16_t>{0, 1, 0}, "uint8.mod(int8)");
  expect_near(ep::atan2(i16, f32), std::vector<float>{-1.1071488f, 1.569963f, 2.3561945f}, 1e-6,
              "atan2(int16, float32)");
  expect_values(ep::bitwise_and(i8, u8), std::vector<std::int16_t>{255, 1, 0},
                "bitwise_and(int8, uint8)");
  expect_values(ep::where(b, i8, f32), std::vector<float>{-1.0f, 0.25f, -128.0f},
                "where(bool, int8, float32)");
  expect_values(ep::matmul(i32, f32).reshape({1}), std::vector<double>{-6.0},
                "matmul(int32, float32)");
  // vecdot keeps the promoted dtype: sum(int16(i8) * u8) = -255 + 127 + 0.
  expect_values(ep::vecdot(i8, u8).reshape({1}), std::vector<std::int16_t>{-128},
                "vecdot(int8, uint8)");
  // A C++ scalar on either side of the array API's two-tensor functions.
  expect_near(ep::atan2(i32, 1.0),
              std::vector<double>{-0.7853981633974483, 1.1071487177940904, 1.2490457723982544},
              1e-15, "atan2(int32, 1.0)");
  expect_values(ep::bitwise_left_shift(u8, 1), std::vector<std::uint8_t>{254, 2, 0},
                "bitwise_left_shift(uint8, 1)");
  expect_near(ep::hypot(f32, 2.0f), std::vector<float>{2.0615528f, 2.0155644f, 2.828427f}, 1e-6,
              "hypot(float32, 2.0f)");
  static_assert(std::is_same_v<decltype(ep::maximum(i8, u8)), Tensor<F<std::int16_t>>>);
  static_assert(std::is_same_v<decltype(ep::atan2(i16, f32)), Tensor<F<float>>>);
  static_assert(std::is_same_v<decltype(ep::atan2(i32, 1.0)), Tensor<F<double>>>);
  // The dtype functions agree with what the operators give.
  static_assert(std::is_same_v<ep::result_type_t<std::int8_t, std::uint8_t>, std::int16_t>);
  static_assert(std::is_same_v<decltype(i8 + u8), Tensor<F<std::int16_t>>>);
  static_assert(std::is_same_v<decltype(u8.sum()), Tensor<F<std::uint64_t>>>);
  static_assert(std::is_same_v<decltype(i16.cumsum()), Tensor<F<std::int64_t>>>);
  static_assert(std::is_same_v<decltype(u32.sum()), Tensor<F<std::uint32_t>>>);
}

}  // namespace dtypes_suite
