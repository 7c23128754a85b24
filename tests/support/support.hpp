// eagerpp - test support: comparing tensors with expected values, random inputs, finite differences
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>       // std::abs, std::isnan
#include <cstdint>     // std::int64_t
#include <cstdlib>     // std::getenv
#include <filesystem>  // std::filesystem::path
#include <functional>  // std::function
#include <random>      // std::mt19937_64
#include <string>      // std::string
#include <vector>      // std::vector

#include <gtest/gtest.h>

#include <eagerpp/eagerpp.hpp>

/// Declares the type-parameterized suite `Name` (GoogleTest's TYPED_TEST_SUITE_P) over the backend
/// types that each backend's translation unit instantiates it with.
#define EAGERPP_TYPED_SUITE(Name)         \
  template <class B>                      \
  class Name : public ::testing::Test {}; \
  TYPED_TEST_SUITE_P(Name)

/// The tensor type a test of an op list's row uses for the row's DTYPES (ops/unary_list.hpp):
/// `EAGERPP_TEST_OPERAND_##dtypes`, with `B` (the suite's backend) and `Bool` (its bool rebind) in
/// scope where it expands.
#define EAGERPP_TEST_OPERAND_EVERY B
#define EAGERPP_TEST_OPERAND_FLOAT B
#define EAGERPP_TEST_OPERAND_INEXACT B
#define EAGERPP_TEST_OPERAND_NUMERIC B
#define EAGERPP_TEST_OPERAND_ARITHMETIC B
#define EAGERPP_TEST_OPERAND_BOOL Bool

namespace ep::test {

/// tests/data/<name>: the folder compiled in (EAGERPP_TEST_DATA_DIR, tests/CMakeLists.txt), or
/// $EAGERPP_TEST_DATA_DIR where the binary runs on another machine (a GPU machine that got the
/// binary and a copy of the repository elsewhere, scripts/gpu-check).
inline std::filesystem::path fixture(const std::string& name) {
  const char* dir =
      std::getenv("EAGERPP_TEST_DATA_DIR");  // NOLINT(concurrency-mt-unsafe): read once per test
#ifdef EAGERPP_TEST_DATA_DIR
  const char* built_in = EAGERPP_TEST_DATA_DIR;
#else
  const char* built_in = "tests/data";
#endif
  return std::filesystem::path(dir != nullptr && *dir != '\0' ? dir : built_in) / name;
}

/// Expects `t` to have `shape` and elements within `rtol` (relative) or `atol` of `expected`.
template <class B, class V>
void expect_near(const Tensor<B>& t, const Shape& shape, const std::vector<V>& expected,
                 double rtol = 1e-6, double atol = 1e-12) {
  ASSERT_EQ(t.shape(), shape) << fmt::format("shape {} != {}", t.shape().str(), shape.str());
  const auto got = t.to_vector();
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const auto g = static_cast<double>(got[i]);
    const auto e = static_cast<double>(expected[i]);
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(g)) << "element " << i;
    } else if (std::isinf(e)) {
      EXPECT_EQ(g, e) << "element " << i;
    } else {
      EXPECT_NEAR(g, e, atol + rtol * std::abs(e)) << "element " << i;
    }
  }
}

/// Expects `t` to have `shape` and exactly the elements `expected` (C order); NaN matches NaN.
template <class B, class V>
void expect_equal(const Tensor<B>& t, const Shape& shape, const std::vector<V>& expected) {
  expect_near(t, shape, expected, 0, 0);
}

/// Expects two tensors (possibly of different backends) to have the same shape and elements within
/// `rtol`.
template <class B1, class B2>
void expect_close(const Tensor<B1>& a, const Tensor<B2>& b, double rtol = 0, double atol = 0) {
  ASSERT_EQ(a.shape(), b.shape());
  const auto x = a.to_vector();
  const auto y = b.to_vector();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto u = static_cast<double>(x[i]);
    const auto v = static_cast<double>(y[i]);
    if (std::isnan(u) || std::isnan(v)) {
      EXPECT_EQ(std::isnan(u), std::isnan(v)) << "element " << i;
    } else if (rtol == 0 && atol == 0) {
      EXPECT_EQ(u, v) << "element " << i;
    } else {
      EXPECT_NEAR(u, v, atol + rtol * std::abs(v)) << "element " << i;
    }
  }
}

/// `n` uniform doubles in [lo, hi) from a fixed seed.
inline std::vector<double> random_values(std::size_t n, double lo, double hi,
                                         std::uint64_t seed = 42) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

/// NumPy's literal values of a test, converted to each tensor's element type by `tensor`.
using values = std::vector<double>;

/// A tensor of backend B with `elements` (a brace list of numbers, or a vector) converted to its
/// element type, in C order.
template <class B, class V = double>
Tensor<B> tensor(const std::vector<V>& elements, const Shape& shape) {
  std::vector<typename B::value_type> data;
  data.reserve(elements.size());
  for (auto v : elements) data.push_back(static_cast<typename B::value_type>(v));
  return from_vector<B>(data, shape);
}

/// np.arange(shape.numel()).reshape(shape) in B's element type, built from literals (not with
/// arange, which is tested on its own).
template <class B>
Tensor<B> iota(const Shape& shape) {
  values v(static_cast<std::size_t>(shape.numel()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return tensor<B>(v, shape);
}

/// A tensor of backend B with uniform random values in [lo, hi) from `seed`.
template <class B>
Tensor<B> random_tensor(const Shape& shape, double lo, double hi, std::uint64_t seed) {
  return tensor<B>(random_values(static_cast<std::size_t>(shape.numel()), lo, hi, seed), shape);
}

/// Expects `f` to throw an exception of type E whose message contains every string in `parts`.
/// `f` is a std::function: the check is compiled once per E, not once per test lambda (the Errors
/// suite passes over a hundred).
template <class E>
void expect_throws_with(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "expected an exception";
  } catch (const E& e) {
    const std::string msg = e.what();
    for (const auto& p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "message '" << msg << "' lacks '" << p << "'";
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

}  // namespace ep::test
