// eagerpp - NumPy's results for the Dtypes suite (tests/dtypes/make_expected.py writes this
// file; NumPy 1.24.2): inputs a, b, s (shift counts) and c (exponents) per dtype, and
// every op the suite checks on them
// SPDX-License-Identifier: MIT
// clang-format off
#pragma once

#include <cstdint>  // std::int8_t ... std::uint64_t
#include <limits>   // std::numeric_limits
#include <vector>   // std::vector

namespace dtypes_suite {

inline constexpr double inf = std::numeric_limits<double>::infinity();

template <class T>
struct expected;

template <>
struct expected<std::int8_t> {
  static inline const auto a = std::vector<std::int8_t>{127, -128, 7, -7, 0, 100};
  static inline const auto b = std::vector<std::int8_t>{3, -1, -2, 2, 5, 0};
  static inline const auto s = std::vector<std::int8_t>{1, 0, 3, 9, 7, 2};
  static inline const auto c = std::vector<std::int8_t>{2, 3, 0, 1, 2, 5};
  static inline const auto add = std::vector<std::int8_t>{-126, 127, 5, -5, 5, 100};
  static inline const auto subtract = std::vector<std::int8_t>{124, -127, 9, -9, -5, 100};
  static inline const auto multiply = std::vector<std::int8_t>{125, -128, -14, -14, 0, 0};
  static inline const auto true_divide = std::vector<double>{42.333333333333336, 128.0, -3.5, -3.5, 0.0, inf};
  static inline const auto floor_divide = std::vector<std::int8_t>{42, -128, -4, -4, 0, 0};
  static inline const auto mod = std::vector<std::int8_t>{1, 0, -1, 1, 0, 0};
  static inline const auto power = std::vector<std::int8_t>{1, 0, 1, -7, 0, 0};
  static inline const auto negative = std::vector<std::int8_t>{-127, -128, -7, 7, 0, -100};
  static inline const auto abs = std::vector<std::int8_t>{127, -128, 7, 7, 0, 100};
  static inline const auto sign = std::vector<std::int8_t>{1, -1, 1, -1, 0, 1};
  static inline const auto bitwise_and = std::vector<std::int8_t>{3, -128, 6, 0, 0, 0};
  static inline const auto bitwise_or = std::vector<std::int8_t>{127, -1, -1, -5, 5, 100};
  static inline const auto bitwise_xor = std::vector<std::int8_t>{124, 127, -7, -5, 5, 100};
  static inline const auto invert = std::vector<std::int8_t>{-128, 127, -8, 6, -1, -101};
  static inline const auto left_shift = std::vector<std::int8_t>{-2, -128, 56, 0, 0, -112};
  static inline const auto right_shift = std::vector<std::int8_t>{63, -128, 0, -1, 0, 25};
  static inline const auto minimum = std::vector<std::int8_t>{3, -128, -2, -7, 0, 0};
  static inline const auto maximum = std::vector<std::int8_t>{127, -1, 7, 2, 5, 100};
  static inline const auto less = std::vector<bool>{false, true, false, true, true, false};
  static inline const auto equal = std::vector<bool>{false, false, false, false, false, false};
  static inline const auto add_scalar = std::vector<std::int8_t>{-126, -125, 10, -4, 3, 103};
  static inline const auto sum = std::vector<std::int64_t>{99};
  static inline const auto prod = std::vector<std::int64_t>{0};
  static inline const auto cumsum = std::vector<std::int64_t>{127, -1, 6, -1, -1, 99};
  static inline const auto max = std::vector<std::int8_t>{127};
  static inline const auto min = std::vector<std::int8_t>{-128};
  static inline const auto argmax = std::vector<std::int64_t>{0};
  static inline const auto argmin = std::vector<std::int64_t>{1};
  static inline const auto sort = std::vector<std::int8_t>{-128, -7, 0, 7, 100, 127};
  static inline const auto argsort = std::vector<std::int64_t>{1, 3, 4, 2, 5, 0};
  static inline const auto u = std::vector<std::int8_t>{5, 3, 5, 0, 3, 9, 0, 5};
  static inline const auto unique_values = std::vector<std::int8_t>{0, 3, 5, 9};
  static inline const auto as_float64 = std::vector<double>{127.0, -128.0, 7.0, -7.0, 0.0, 100.0};
  static inline const auto as_bool = std::vector<bool>{true, true, true, true, false, true};
  static inline const auto from_float64 = std::vector<std::int8_t>{0, 2, 99, 3, 1, 126};
};

template <>
struct expected<std::int16_t> {
  static inline const auto a = std::vector<std::int16_t>{32767, -32768, 7, -7, 0, 100};
  static inline const auto b = std::vector<std::int16_t>{3, -1, -2, 2, 5, 0};
  static inline const auto s = std::vector<std::int16_t>{1, 0, 3, 9, 7, 2};
  static inline const auto c = std::vector<std::int16_t>{2, 3, 0, 1, 2, 5};
  static inline const auto add = std::vector<std::int16_t>{-32766, 32767, 5, -5, 5, 100};
  static inline const auto subtract = std::vector<std::int16_t>{32764, -32767, 9, -9, -5, 100};
  static inline const auto multiply = std::vector<std::int16_t>{32765, -32768, -14, -14, 0, 0};
  static inline const auto true_divide = std::vector<double>{10922.333333333334, 32768.0, -3.5, -3.5, 0.0, inf};
  static inline const auto floor_divide = std::vector<std::int16_t>{10922, -32768, -4, -4, 0, 0};
  static inline const auto mod = std::vector<std::int16_t>{1, 0, -1, 1, 0, 0};
  static inline const auto power = std::vector<std::int16_t>{1, 0, 1, -7, 0, -7168};
  static inline const auto negative = std::vector<std::int16_t>{-32767, -32768, -7, 7, 0, -100};
  static inline const auto abs = std::vector<std::int16_t>{32767, -32768, 7, 7, 0, 100};
  static inline const auto sign = std::vector<std::int16_t>{1, -1, 1, -1, 0, 1};
  static inline const auto bitwise_and = std::vector<std::int16_t>{3, -32768, 6, 0, 0, 0};
  static inline const auto bitwise_or = std::vector<std::int16_t>{32767, -1, -1, -5, 5, 100};
  static inline const auto bitwise_xor = std::vector<std::int16_t>{32764, 32767, -7, -5, 5, 100};
  static inline const auto invert = std::vector<std::int16_t>{-32768, 32767, -8, 6, -1, -101};
  static inline const auto left_shift = std::vector<std::int16_t>{-2, -32768, 56, -3584, 0, 400};
  static inline const auto right_shift = std::vector<std::int16_t>{16383, -32768, 0, -1, 0, 25};
  static inline const auto minimum = std::vector<std::int16_t>{3, -32768, -2, -7, 0, 0};
  static inline const auto maximum = std::vector<std::int16_t>{32767, -1, 7, 2, 5, 100};
  static inline const auto less = std::vector<bool>{false, true, false, true, true, false};
  static inline const auto equal = std::vector<bool>{false, false, false, false, false, false};
  static inline const auto add_scalar = std::vector<std::int16_t>{-32766, -32765, 10, -4, 3, 103};
  static inline const auto sum = std::vector<std::int64_t>{99};
  static inline const auto prod = std::vector<std::int64_t>{0};
  static inline const auto cumsum = std::vector<std::int64_t>{32767, -1, 6, -1, -1, 99};
  static inline const auto max = std::vector<std::int16_t>{32767};
  static inline const auto min = std::vector<std::int16_t>{-32768};
  static inline const auto argmax = std::vector<std::int64_t>{0};
  static inline const auto argmin = std::vector<std::int64_t>{1};
  static inline const auto sort = std::vector<std::int16_t>{-32768, -7, 0, 7, 100, 32767};
  static inline const auto argsort = std::vector<std::int64_t>{1, 3, 4, 2, 5, 0};
  static inline const auto u = std::vector<std::int16_t>{5, 3, 5, 0, 3, 9, 0, 5};
  static inline const auto unique_values = std::vector<std::int16_t>{0, 3, 5, 9};
  static inline const auto as_float64 = std::vector<double>{32767.0, -32768.0, 7.0, -7.0, 0.0, 100.0};
  static inline const auto as_bool = std::vector<bool>{true, true, true, true, false, true};
  static inline const auto from_float64 = std::vector<std::int16_t>{0, 2, 99, 3, 1, 126};
};

template <>
struct expected<std::uint8_t> {
  static inline const auto a = std::vector<std::uint8_t>{255, 0, 7, 200, 1, 100};
  static inline const auto b = std::vector<std::uint8_t>{3, 1, 2, 200, 5, 0};
  static inline const auto s = std::vector<std::uint8_t>{1, 0, 3, 9, 7, 2};
  static inline const auto c = std::vector<std::uint8_t>{2, 3, 0, 1, 2, 5};
  static inline const auto add = std::vector<std::uint8_t>{2, 1, 9, 144, 6, 100};
  static inline const auto subtract = std::vector<std::uint8_t>{252, 255, 5, 0, 252, 100};
  static inline const auto multiply = std::vector<std::uint8_t>{253, 0, 14, 64, 5, 0};
  static inline const auto true_divide = std::vector<double>{85.0, 0.0, 3.5, 1.0, 0.2, inf};
  static inline const auto floor_divide = std::vector<std::uint8_t>{85, 0, 3, 1, 0, 0};
  static inline const auto mod = std::vector<std::uint8_t>{0, 0, 1, 0, 1, 0};
  static inline const auto power = std::vector<std::uint8_t>{1, 0, 1, 200, 1, 0};
  static inline const auto negative = std::vector<std::uint8_t>{1, 0, 249, 56, 255, 156};
  static inline const auto abs = std::vector<std::uint8_t>{255, 0, 7, 200, 1, 100};
  static inline const auto sign = std::vector<std::uint8_t>{1, 0, 1, 1, 1, 1};
  static inline const auto bitwise_and = std::vector<std::uint8_t>{3, 0, 2, 200, 1, 0};
  static inline const auto bitwise_or = std::vector<std::uint8_t>{255, 1, 7, 200, 5, 100};
  static inline const auto bitwise_xor = std::vector<std::uint8_t>{252, 1, 5, 0, 4, 100};
  static inline const auto invert = std::vector<std::uint8_t>{0, 255, 248, 55, 254, 155};
  static inline const auto left_shift = std::vector<std::uint8_t>{254, 0, 56, 0, 128, 144};
  static inline const auto right_shift = std::vector<std::uint8_t>{127, 0, 0, 0, 0, 25};
  static inline const auto minimum = std::vector<std::uint8_t>{3, 0, 2, 200, 1, 0};
  static inline const auto maximum = std::vector<std::uint8_t>{255, 1, 7, 200, 5, 100};
  static inline const auto less = std::vector<bool>{false, true, false, false, true, false};
  static inline const auto equal = std::vector<bool>{false, false, false, true, false, false};
  static inline const auto add_scalar = std::vector<std::uint8_t>{2, 3, 10, 203, 4, 103};
  static inline const auto sum = std::vector<std::uint64_t>{563};
  static inline const auto prod = std::vector<std::uint64_t>{140000};
  static inline const auto cumsum = std::vector<std::uint64_t>{255, 255, 262, 462, 463, 563};
  static inline const auto max = std::vector<std::uint8_t>{255};
  static inline const auto min = std::vector<std::uint8_t>{0};
  static inline const auto argmax = std::vector<std::int64_t>{0};
  static inline const auto argmin = std::vector<std::int64_t>{1};
  static inline const auto sort = std::vector<std::uint8_t>{0, 1, 7, 100, 200, 255};
  static inline const auto argsort = std::vector<std::int64_t>{1, 4, 2, 5, 3, 0};
  static inline const auto u = std::vector<std::uint8_t>{5, 3, 5, 0, 3, 9, 0, 5};
  static inline const auto unique_values = std::vector<std::uint8_t>{0, 3, 5, 9};
  static inline const auto as_float64 = std::vector<double>{255.0, 0.0, 7.0, 200.0, 1.0, 100.0};
  static inline const auto as_bool = std::vector<bool>{true, false, true, true, true, true};
  static inline const auto from_float64 = std::vector<std::uint8_t>{0, 2, 99, 3, 1, 126};
};

template <>
struct expected<std::uint16_t> {
  static inline const auto a = std::vector<std::uint16_t>{65535, 0, 7, 200, 1, 100};
  static inline const auto b = std::vector<std::uint16_t>{3, 1, 2, 200, 5, 0};
  static inline const auto s = std::vector<std::uint16_t>{1, 0, 3, 9, 7, 2};
  static inline const auto c = std::vector<std::uint16_t>{2, 3, 0, 1, 2, 5};
  static inline const auto add = std::vector<std::uint16_t>{2, 1, 9, 400, 6, 100};
  static inline const auto subtract = std::vector<std::uint16_t>{65532, 65535, 5, 0, 65532, 100};
  static inline const auto multiply = std::vector<std::uint16_t>{65533, 0, 14, 40000, 5, 0};
  static inline const auto true_divide = std::vector<double>{21845.0, 0.0, 3.5, 1.0, 0.2, inf};
  static inline const auto floor_divide = std::vector<std::uint16_t>{21845, 0, 3, 1, 0, 0};
  static inline const auto mod = std::vector<std::uint16_t>{0, 0, 1, 0, 1, 0};
  static inline const auto power = std::vector<std::uint16_t>{1, 0, 1, 200, 1, 58368};
  static inline const auto negative = std::vector<std::uint16_t>{1, 0, 65529, 65336, 65535, 65436};
  static inline const auto abs = std::vector<std::uint16_t>{65535, 0, 7, 200, 1, 100};
  static inline const auto sign = std::vector<std::uint16_t>{1, 0, 1, 1, 1, 1};
  static inline const auto bitwise_and = std::vector<std::uint16_t>{3, 0, 2, 200, 1, 0};
  static inline const auto bitwise_or = std::vector<std::uint16_t>{65535, 1, 7, 200, 5, 100};
  static inline const auto bitwise_xor = std::vector<std::uint16_t>{65532, 1, 5, 0, 4, 100};
  static inline const auto invert = std::vector<std::uint16_t>{0, 65535, 65528, 65335, 65534, 65435};
  static inline const auto left_shift = std::vector<std::uint16_t>{65534, 0, 56, 36864, 128, 400};
  static inline const auto right_shift = std::vector<std::uint16_t>{32767, 0, 0, 0, 0, 25};
  static inline const auto minimum = std::vector<std::uint16_t>{3, 0, 2, 200, 1, 0};
  static inline const auto maximum = std::vector<std::uint16_t>{65535, 1, 7, 200, 5, 100};
  static inline const auto less = std::vector<bool>{false, true, false, false, true, false};
  static inline const auto equal = std::vector<bool>{false, false, false, true, false, false};
  static inline const auto add_scalar = std::vector<std::uint16_t>{2, 3, 10, 203, 4, 103};
  static inline const auto sum = std::vector<std::uint64_t>{65843};
  static inline const auto prod = std::vector<std::uint64_t>{140000};
  static inline const auto cumsum = std::vector<std::uint64_t>{65535, 65535, 65542, 65742, 65743, 65843};
  static inline const auto max = std::vector<std::uint16_t>{65535};
  static inline const auto min = std::vector<std::uint16_t>{0};
  static inline const auto argmax = std::vector<std::int64_t>{0};
  static inline const auto argmin = std::vector<std::int64_t>{1};
  static inline const auto sort = std::vector<std::uint16_t>{0, 1, 7, 100, 200, 65535};
  static inline const auto argsort = std::vector<std::int64_t>{1, 4, 2, 5, 3, 0};
  static inline const auto u = std::vector<std::uint16_t>{5, 3, 5, 0, 3, 9, 0, 5};
  static inline const auto unique_values = std::vector<std::uint16_t>{0, 3, 5, 9};
  static inline const auto as_float64 = std::vector<double>{65535.0, 0.0, 7.0, 200.0, 1.0, 100.0};
  static inline const auto as_bool = std::vector<bool>{true, false, true, true, true, true};
  static inline const auto from_float64 = std::vector<std::uint16_t>{0, 2, 99, 3, 1, 126};
};

template <>
struct expected<std::uint32_t> {
  static inline const auto a = std::vector<std::uint32_t>{4294967295, 0, 7, 200, 1, 100};
  static inline const auto b = std::vector<std::uint32_t>{3, 1, 2, 200, 5, 0};
  static inline const auto s = std::vector<std::uint32_t>{1, 0, 3, 9, 7, 2};
  static inline const auto c = std::vector<std::uint32_t>{2, 3, 0, 1, 2, 5};
  static inline const auto add = std::vector<std::uint32_t>{2, 1, 9, 400, 6, 100};
  static inline const auto subtract = std::vector<std::uint32_t>{4294967292, 4294967295, 5, 0, 4294967292, 100};
  static inline const auto multiply = std::vector<std::uint32_t>{4294967293, 0, 14, 40000, 5, 0};
  static inline const auto true_divide = std::vector<double>{1431655765.0, 0.0, 3.5, 1.0, 0.2, inf};
  static inline const auto floor_divide = std::vector<std::uint32_t>{1431655765, 0, 3, 1, 0, 0};
  static inline const auto mod = std::vector<std::uint32_t>{0, 0, 1, 0, 1, 0};
  static inline const auto power = std::vector<std::uint32_t>{1, 0, 1, 200, 1, 1410065408};
  static inline const auto negative = std::vector<std::uint32_t>{1, 0, 4294967289, 4294967096, 4294967295, 4294967196};
  static inline const auto abs = std::vector<std::uint32_t>{4294967295, 0, 7, 200, 1, 100};
  static inline const auto sign = std::vector<std::uint32_t>{1, 0, 1, 1, 1, 1};
  static inline const auto bitwise_and = std::vector<std::uint32_t>{3, 0, 2, 200, 1, 0};
  static inline const auto bitwise_or = std::vector<std::uint32_t>{4294967295, 1, 7, 200, 5, 100};
  static inline const auto bitwise_xor = std::vector<std::uint32_t>{4294967292, 1, 5, 0, 4, 100};
  static inline const auto invert = std::vector<std::uint32_t>{0, 4294967295, 4294967288, 4294967095, 4294967294, 4294967195};
  static inline const auto left_shift = std::vector<std::uint32_t>{4294967294, 0, 56, 102400, 128, 400};
  static inline const auto right_shift = std::vector<std::uint32_t>{2147483647, 0, 0, 0, 0, 25};
  static inline const auto minimum = std::vector<std::uint32_t>{3, 0, 2, 200, 1, 0};
  static inline const auto maximum = std::vector<std::uint32_t>{4294967295, 1, 7, 200, 5, 100};
  static inline const auto less = std::vector<bool>{false, true, false, false, true, false};
  static inline const auto equal = std::vector<bool>{false, false, false, true, false, false};
  static inline const auto add_scalar = std::vector<std::uint32_t>{2, 3, 10, 203, 4, 103};
  static inline const auto sum = std::vector<std::uint32_t>{307};
  static inline const auto prod = std::vector<std::uint32_t>{140000};
  static inline const auto cumsum = std::vector<std::uint32_t>{4294967295, 4294967295, 6, 206, 207, 307};
  static inline const auto max = std::vector<std::uint32_t>{4294967295};
  static inline const auto min = std::vector<std::uint32_t>{0};
  static inline const auto argmax = std::vector<std::int64_t>{0};
  static inline const auto argmin = std::vector<std::int64_t>{1};
  static inline const auto sort = std::vector<std::uint32_t>{0, 1, 7, 100, 200, 4294967295};
  static inline const auto argsort = std::vector<std::int64_t>{1, 4, 2, 5, 3, 0};
  static inline const auto u = std::vector<std::uint32_t>{5, 3, 5, 0, 3, 9, 0, 5};
  static inline const auto unique_values = std::vector<std::uint32_t>{0, 3, 5, 9};
  static inline const auto as_float64 = std::vector<double>{4294967295.0, 0.0, 7.0, 200.0, 1.0, 100.0};
  static inline const auto as_bool = std::vector<bool>{true, false, true, true, true, true};
  static inline const auto from_float64 = std::vector<std::uint32_t>{0, 2, 99, 3, 1, 126};
};

template <>
struct expected<std::uint64_t> {
  static inline const auto a = std::vector<std::uint64_t>{18446744073709551615U, 0, 7, 200, 1, 100};
  static inline const auto b = std::vector<std::uint64_t>{3, 1, 2, 200, 5, 0};
  static inline const auto s = std::vector<std::uint64_t>{1, 0, 3, 9, 7, 2};
  static inline const auto c = std::vector<std::uint64_t>{2, 3, 0, 1, 2, 5};
  static inline const auto add = std::vector<std::uint64_t>{2, 1, 9, 400, 6, 100};
  static inline const auto subtract = std::vector<std::uint64_t>{18446744073709551612U, 18446744073709551615U, 5, 0, 18446744073709551612U, 100};
  static inline const auto multiply = std::vector<std::uint64_t>{18446744073709551613U, 0, 14, 40000, 5, 0};
  static inline const auto true_divide = std::vector<double>{6.148914691236517e+18, 0.0, 3.5, 1.0, 0.2, inf};
  static inline const auto floor_divide = std::vector<std::uint64_t>{6148914691236517205, 0, 3, 1, 0, 0};
  static inline const auto mod = std::vector<std::uint64_t>{0, 0, 1, 0, 1, 0};
  static inline const auto power = std::vector<std::uint64_t>{1, 0, 1, 200, 1, 10000000000};
  static inline const auto negative = std::vector<std::uint64_t>{1, 0, 18446744073709551609U, 18446744073709551416U, 18446744073709551615U, 18446744073709551516U};
  static inline const auto abs = std::vector<std::uint64_t>{18446744073709551615U, 0, 7, 200, 1, 100};
  static inline const auto sign = std::vector<std::uint64_t>{1, 0, 1, 1, 1, 1};
  static inline const auto bitwise_and = std::vector<std::uint64_t>{3, 0, 2, 200, 1, 0};
  static inline const auto bitwise_or = std::vector<std::uint64_t>{18446744073709551615U, 1, 7, 200, 5, 100};
  static inline const auto bitwise_xor = std::vector<std::uint64_t>{18446744073709551612U, 1, 5, 0, 4, 100};
  static inline const auto invert = std::vector<std::uint64_t>{0, 18446744073709551615U, 18446744073709551608U, 18446744073709551415U, 18446744073709551614U, 18446744073709551515U};
  static inline const auto left_shift = std::vector<std::uint64_t>{18446744073709551614U, 0, 56, 102400, 128, 400};
  static inline const auto right_shift = std::vector<std::uint64_t>{9223372036854775807, 0, 0, 0, 0, 25};
  static inline const auto minimum = std::vector<std::uint64_t>{3, 0, 2, 200, 1, 0};
  static inline const auto maximum = std::vector<std::uint64_t>{18446744073709551615U, 1, 7, 200, 5, 100};
  static inline const auto less = std::vector<bool>{false, true, false, false, true, false};
  static inline const auto equal = std::vector<bool>{false, false, false, true, false, false};
  static inline const auto add_scalar = std::vector<std::uint64_t>{2, 3, 10, 203, 4, 103};
  static inline const auto sum = std::vector<std::uint64_t>{307};
  static inline const auto prod = std::vector<std::uint64_t>{140000};
  static inline const auto cumsum = std::vector<std::uint64_t>{18446744073709551615U, 18446744073709551615U, 6, 206, 207, 307};
  static inline const auto max = std::vector<std::uint64_t>{18446744073709551615U};
  static inline const auto min = std::vector<std::uint64_t>{0};
  static inline const auto argmax = std::vector<std::int64_t>{0};
  static inline const auto argmin = std::vector<std::int64_t>{1};
  static inline const auto sort = std::vector<std::uint64_t>{0, 1, 7, 100, 200, 18446744073709551615U};
  static inline const auto argsort = std::vector<std::int64_t>{1, 4, 2, 5, 3, 0};
  static inline const auto u = std::vector<std::uint64_t>{5, 3, 5, 0, 3, 9, 0, 5};
  static inline const auto unique_values = std::vector<std::uint64_t>{0, 3, 5, 9};
  static inline const auto as_float64 = std::vector<double>{1.8446744073709552e+19, 0.0, 7.0, 200.0, 1.0, 100.0};
  static inline const auto as_bool = std::vector<bool>{true, false, true, true, true, true};
  static inline const auto from_float64 = std::vector<std::uint64_t>{0, 2, 99, 3, 1, 126};
};

}  // namespace dtypes_suite
