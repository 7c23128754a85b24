// eagerpp - the typed suite of reductions: sum prod mean min max all any argmin argmax cumsum
// logsumexp
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::isfinite, std::nan, std::signbit, std::sqrt
#include <cstdint>      // std::int64_t
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <thread>       // std::thread
#include <type_traits>  // std::is_same_v
#include <utility>      // std::pair
#include <vector>       // std::vector

#include <gtest/gtest.h>

#include "suites/binary_cases.hpp"
#include "support/support.hpp"

// Expected values come from NumPy 1.24 on the same inputs (np.sum, np.prod, ..., and for logsumexp
// the stable formula m + log(sum(exp(x - m)))). The inputs are small integers, so every sum,
// product, minimum and maximum is exact in float32 too and is compared exactly.
namespace reductions_suite {

using ep::test::tensor;
using ep::test::values;

/// [(i * 7) % 11 - 5 for i in range(24)] reshaped to (2, 3, 4): negatives, zeros and ties.
template <class B>
ep::Tensor<B> x24() {
  return tensor<B>(
      {-5, 2, -2, 5, 1, -3, 4, 0, -4, 3, -1, -5, 2, -2, 5, 1, -3, 4, 0, -4, 3, -1, -5, 2},
      {2, 3, 4});
}

/// Small factors whose products stay exact in float32, shape (2, 3, 4).
template <class B>
ep::Tensor<B> p24() {
  return tensor<B>({2, -1, 1, 3, -1, 1, -2, 1, 1, 2, -1, 1, -1, 1, 3, -2, 1, -1, 1, 2, 2, 1, -3, 1},
                   {2, 3, 4});
}

}  // namespace reductions_suite

EAGERPP_TYPED_SUITE(Reductions);

TYPED_TEST_P(Reductions, SumAllAxes) {
  using namespace reductions_suite;
  const auto x = x24<TypeParam>();
  ep::test::expect_equal(x.sum(), {}, values{-3});
  ep::test::expect_equal(x.sum({}, true), {1, 1, 1}, values{-3});
  ep::test::expect_equal(ep::sum(x), {}, values{-3});
}

TYPED_TEST_P(Reductions, SumOneAxis) {
  using namespace reductions_suite;
  const auto x = x24<TypeParam>();
  ep::test::expect_equal(x.sum(1), {2, 4}, values{-8, 2, 1, 0, 2, 1, 0, -1});
  ep::test::expect_equal(x.sum(1, true), {2, 1, 4}, values{-8, 2, 1, 0, 2, 1, 0, -1});
  ep::test::expect_equal(x.sum(0), {3, 4}, values{-3, 0, 3, 6, -2, 1, 4, -4, -1, 2, -6, -3});
}

TYPED_TEST_P(Reductions, SumNegativeAxis) {
  using namespace reductions_suite;
  const auto x = x24<TypeParam>();
  ep::test::expect_equal(x.sum(-1), {2, 3}, values{0, 2, -7, 6, -3, -1});
  ep::test::expect_equal(x.sum(-3), {3, 4}, values{-3, 0, 3, 6, -2, 1, 4, -4, -1, 2, -6, -3});
  ep::test::expect_equal(x.sum(-1, true), {2, 3, 1}, values{0, 2, -7, 6, -3, -1});
}

TYPED_TEST_P(Reductions, SumSeveralAxes) {
  using namespace reductions_suite;
  const auto x = x24<TypeParam>();
  ep::test::expect_equal(x.sum({0, 2}), {3}, values{6, -1, -8});
  ep::test::expect_equal(x.sum({0, 2}, true), {1, 3, 1}, values{6, -1, -8});
  ep::test::expect_equal(x.sum({-1, 0}), {3}, values{6, -1, -8});
  ep::test::expect_equal(x.sum({0, 1}, true), {1, 1, 4}, values{-6, 3, 1, -1});
  ep::test::expect_equal(x.sum({0, 1, 2}), {}, values{-3});
}

TYPED_TEST_P(Reductions, Prod) {
  using namespace reductions_suite;
  const auto p = p24<TypeParam>();
  ep::test::expect_equal(p.prod(), {}, values{1728});
  ep::test::expect_equal(p.prod(1), {2, 4}, values{-2, -2, 2, 3, -2, -1, -9, -4});
  ep::test::expect_equal(p.prod(-1), {2, 3}, values{-6, 2, -2, 6, -2, -6});
  ep::test::expect_equal(p.prod({0, 2}, true), {1, 3, 1}, values{-36, -4, 12});
  ep::test::expect_equal(p.prod({}, true), {1, 1, 1}, values{1728});
}

TYPED_TEST_P(Reductions, Mean) {
  using namespace reductions_suite;
  const auto x = x24<TypeParam>();
  ep::test::expect_equal(x.mean(), {}, values{-0.125});
  ep::test::expect_equal(x.mean(-1), {2, 3}, values{0, 0.5, -1.75, 1.5, -0.75, -0.25});
  ep::test::expect_equal(x.mean({0, 2}), {3}, values{0.75, -0.125, -1});
  ep::test::expect_equal(x.mean(0, true), {1, 3, 4},
                         values{-1.5, 0, 1.5, 3, -1, 0.5, 2, -2, -0.5, 1, -3, -1.5});
  // A count that is not a power of two: 7 / 3.
  const auto y = tensor<TypeParam>({1, 2, 4, 0, 0, 1}, {2, 3});
  ep::test::expect_near(y.mean(1), {2}, values{2.3333333333333335, 0.3333333333333333});
}

TYPED_TEST_P(Reductions, MinMax) {
  using namespace reductions_suite;
  const auto x = x24<TypeParam>();
  ep::test::expect_equal(x.min(), {}, values{-5});
  ep::test::expect_equal(x.max(), {}, values{5});
  ep::test::expect_equal(x.max({}, true), {1, 1, 1}, values{5});
  ep::test::expect_equal(x.min(1), {2, 4}, values{-5, -3, -2, -5, -3, -2, -5, -4});
  ep::test::expect_equal(x.max(-1), {2, 3}, values{5, 4, 3, 5, 4, 3});
  ep::test::expect_equal(x.min({0, 2}, true), {1, 3, 1}, values{-5, -4, -5});
  ep::test::expect_equal(x.max({0, 2}), {3}, values{5, 4, 3});
}

// min and max order -0.0 < +0.0 (IEEE 754-2019's minimum and maximum), whatever order a backend
// combines the elements in: full, over each set of axes, with keepdims; a (2, 37, 2) block takes
// the SIMD paths and their tails. Found by tests/fuzz: the libraries' own reducers give max over
// [0.0, -0.0] as +0.0 on Eigen and -0.0 on xtensor. The oracle orders by (value, sign bit clear),
// an independent formulation.
TYPED_TEST_P(Reductions, MinMaxOrderSignedZeros) {
  using B = TypeParam;
  using T = typename B::value_type;
  const auto key = [](T v) { return std::pair<T, bool>{v, !std::signbit(v)}; };
  const std::int64_t s[3] = {2, 37, 2};
  // Each of the four (i, k) columns is -0.0 or -2 with one +0.0 at j = 5, 16 or 27, but for
  // (1, 1), which has none; negating gives the mirror image for min.
  std::vector<T> lo, hi;
  for (std::int64_t i = 0; i < s[0]; ++i)
    for (std::int64_t j = 0; j < s[1]; ++j)
      for (std::int64_t k = 0; k < s[2]; ++k) {
        const std::int64_t col = i * 2 + k;
        const T v = col < 3 && j == 5 + 11 * col ? T(0.0) : (j % 5 == 3 ? T(-2) : T(-0.0));
        lo.push_back(v);
        hi.push_back(-v);
      }
  for (const bool max : {true, false}) {
    const std::vector<T>& d = max ? lo : hi;
    const auto x = ep::from_vector<B>(d, {s[0], s[1], s[2]});
    for (int mask = 1; mask < 8; ++mask) {
      std::vector<int> axes;
      std::int64_t os[3];
      for (int a = 0; a < 3; ++a) {
        if (mask >> a & 1) axes.push_back(a);
        os[a] = mask >> a & 1 ? 1 : s[a];
      }
      std::vector<T> expected(static_cast<std::size_t>(os[0] * os[1] * os[2]));
      std::vector<bool> seen(expected.size());
      for (std::int64_t i = 0; i < s[0]; ++i)
        for (std::int64_t j = 0; j < s[1]; ++j)
          for (std::int64_t k = 0; k < s[2]; ++k) {
            const auto o =
                static_cast<std::size_t>(((i % os[0]) * os[1] + j % os[1]) * os[2] + k % os[2]);
            const T v = d[static_cast<std::size_t>((i * s[1] + j) * s[2] + k)];
            if (!seen[o] || (max ? key(expected[o]) < key(v) : key(v) < key(expected[o])))
              expected[o] = v;
            seen[o] = true;
          }
      for (const bool keepdims : {false, true}) {
        const auto r = mask == 7 && !keepdims
                           ? (max ? x.max() : x.min())
                           : (max ? x.max(axes, keepdims) : x.min(axes, keepdims));
        const auto got = r.to_vector();
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t o = 0; o < got.size(); ++o)
          EXPECT_TRUE(got[o] == expected[o] && std::signbit(got[o]) == std::signbit(expected[o]))
              << (max ? "max" : "min") << " over axes mask " << mask << " keepdims " << keepdims
              << " at " << o << ": " << got[o] << ", expected " << expected[o];
      }
    }
  }
  // argmax and argmin keep NumPy's first index of equal values: -0.0 == +0.0 there.
  const auto z = ep::from_vector<B>(std::vector<T>{T(-0.0), T(0.0)}, {2});
  EXPECT_EQ(z.argmax().item(), 0);
  EXPECT_EQ(z.argmin().item(), 0);
  EXPECT_FALSE(std::signbit(z.max().item()));
  EXPECT_TRUE(std::signbit(z.min().item()));
}

TYPED_TEST_P(Reductions, AllAny) {
  using namespace reductions_suite;
  using Bool = typename TypeParam::template rebind<bool>;
  const auto x = x24<TypeParam>();
  // x > -5, x > 0 and x > 3, as bool tensors built directly (not through comparisons).
  const auto gt_m5 = tensor<Bool>(
      {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1}, {2, 3, 4});
  const auto gt_3 = tensor<Bool>(
      {0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0}, {2, 3, 4});
  static_assert(std::is_same_v<typename decltype(gt_m5.all())::value_type, bool>);
  ep::test::expect_equal(gt_m5.all(), {}, values{0});
  ep::test::expect_equal(gt_m5.all(1), {2, 4}, values{0, 1, 1, 0, 1, 1, 0, 1});
  ep::test::expect_equal(gt_m5.all(-1), {2, 3}, values{0, 1, 0, 1, 1, 0});
  ep::test::expect_equal(gt_m5.all({0, 2}, true), {1, 3, 1}, values{0, 1, 0});
  ep::test::expect_equal(gt_3.any(), {}, values{1});
  ep::test::expect_equal(gt_3.any(-1), {2, 3}, values{1, 1, 0, 1, 1, 0});
  ep::test::expect_equal(gt_3.any({0, 2}, true), {1, 3, 1}, values{1, 1, 0});
  ep::test::expect_equal(gt_3.all(), {}, values{0});
  ep::test::expect_equal((x > -6).all(), {}, values{1});
  ep::test::expect_equal((x > 5).any(), {}, values{0});
}

TYPED_TEST_P(Reductions, ZeroDimensional) {
  using namespace reductions_suite;
  using Bool = typename TypeParam::template rebind<bool>;
  const auto s = tensor<TypeParam>({5}, {});
  ep::test::expect_equal(s.sum(), {}, values{5});
  ep::test::expect_equal(s.sum({}, true), {}, values{5});
  ep::test::expect_equal(s.prod(), {}, values{5});
  ep::test::expect_equal(s.mean(), {}, values{5});
  ep::test::expect_equal(s.min(), {}, values{5});
  ep::test::expect_equal(s.max(), {}, values{5});
  ep::test::expect_equal(s.cumsum(), {1}, values{5});
  ep::test::expect_equal(s.argmax(), {}, values{0});
  ep::test::expect_near(s.logsumexp(), {}, values{5});
  const auto t = tensor<Bool>({1}, {});
  ep::test::expect_equal(t.all(), {}, values{1});
  ep::test::expect_equal(t.logical_not().any(), {}, values{0});
}

TYPED_TEST_P(Reductions, EmptyTensor) {
  using namespace reductions_suite;
  using Bool = typename TypeParam::template rebind<bool>;
  const auto e = tensor<TypeParam>(values{}, {0, 3});
  ep::test::expect_equal(e.sum(), {}, values{0});
  ep::test::expect_equal(e.sum(0), {3}, values{0, 0, 0});
  ep::test::expect_equal(e.sum(0, true), {1, 3}, values{0, 0, 0});
  ep::test::expect_equal(e.sum(1), {0}, values{});
  ep::test::expect_equal(e.prod(0), {3}, values{1, 1, 1});
  ep::test::expect_equal(e.prod(), {}, values{1});
  ep::test::expect_equal(e.max(1), {0},
                         values{});  // no empty reduction: each of 0 rows has 3 elements
  ep::test::expect_equal(e.cumsum(0), {0, 3}, values{});
  EXPECT_THROW((void)e.min(0), ep::value_error);
  EXPECT_THROW((void)e.max(), ep::value_error);
  const auto b = tensor<Bool>(values{}, {0, 3});
  ep::test::expect_equal(b.any(0), {3}, values{0, 0, 0});
  ep::test::expect_equal(b.all(0), {3}, values{1, 1, 1});
  ep::test::expect_equal(b.all(), {}, values{1});
  ep::test::expect_equal(b.any(), {}, values{0});
  ep::test::expect_equal(b.all(1), {0}, values{});
}

TYPED_TEST_P(Reductions, HighRank) {
  using namespace reductions_suite;
  const auto r6 = x24<TypeParam>().reshape({2, 1, 3, 1, 2, 2});
  ep::test::expect_equal(r6.sum(), {}, values{-3});
  ep::test::expect_equal(r6.sum({0, 2, 5}), {1, 1, 2}, values{-3, 0});
  ep::test::expect_equal(r6.max({1, 3, 4}), {2, 3, 2},
                         values{-2, 5, 4, 0, -1, 3, 5, 1, 0, 4, 3, 2});
  ep::test::expect_equal(r6.min(-1, true), {2, 1, 3, 1, 2, 1},
                         values{-5, -2, -3, 0, -4, -5, -2, 1, -3, -4, -1, -5});
  ep::test::expect_equal(p24<TypeParam>().reshape({2, 1, 3, 1, 2, 2}).prod({0, 4}), {1, 3, 1, 2},
                         values{-6, 6, 2, -2, 6, 2});
  const auto r5 = x24<TypeParam>().reshape({2, 3, 1, 2, 2});
  ep::test::expect_equal(r5.sum({1, -1}), {2, 1, 2}, values{-6, 1, 3, -1});
  ep::test::expect_equal(r5.mean({0, 3}, true), {1, 3, 1, 1, 2},
                         values{0, 1.5, 0.5, -0.75, -1.75, -0.25});
}

TYPED_TEST_P(Reductions, ArgminArgmax) {
  using namespace reductions_suite;
  // Ties everywhere: NumPy returns the first occurrence.
  const auto a = tensor<TypeParam>({3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 9}, {3, 4});
  static_assert(std::is_same_v<typename decltype(a.argmax())::value_type, std::int64_t>);
  EXPECT_EQ(a.argmax().dtype(), "int64");
  ep::test::expect_equal(a.argmax(), {}, values{5});
  ep::test::expect_equal(a.argmin(), {}, values{1});
  ep::test::expect_equal(a.argmin(0), {4}, values{0, 0, 1, 0});
  ep::test::expect_equal(a.argmax(0), {4}, values{1, 1, 2, 2});
  ep::test::expect_equal(a.argmax(1), {3}, values{2, 1, 3});
  ep::test::expect_equal(a.argmin(-1), {3}, values{1, 2, 1});
  ep::test::expect_equal(a.argmax(-2), {4}, values{1, 1, 2, 2});
  ep::test::expect_equal(ep::argmax(a, 1), {3}, values{2, 1, 3});
  const auto x = x24<TypeParam>();
  ep::test::expect_equal(x.argmax(1), {2, 4}, values{1, 2, 1, 0, 2, 1, 0, 2});
  ep::test::expect_equal(x.argmin(2), {2, 3}, values{0, 1, 3, 1, 3, 2});
  ep::test::expect_equal(x.argmax(), {}, values{3});
  ep::test::expect_equal(x.argmin(), {}, values{0});
}

TYPED_TEST_P(Reductions, Cumsum) {
  using namespace reductions_suite;
  const auto c = tensor<TypeParam>({1, -2, 3, 4, 0, -6}, {2, 3});
  ep::test::expect_equal(c.cumsum(), {6}, values{1, -1, 2, 6, 6, 0});
  ep::test::expect_equal(c.cumsum(0), {2, 3}, values{1, -2, 3, 5, -2, -3});
  ep::test::expect_equal(c.cumsum(1), {2, 3}, values{1, -1, 2, 4, 4, -2});
  ep::test::expect_equal(c.cumsum(-1), {2, 3}, values{1, -1, 2, 4, 4, -2});
  const auto x = x24<TypeParam>();
  ep::test::expect_equal(
      x.cumsum(1), {2, 3, 4},
      values{-5, 2, -2, 5, -4, -1, 2, 5, -8, 2, 1, 0, 2, -2, 5, 1, -1, 2, 5, -3, 2, 1, 0, -1});
  ep::test::expect_equal(
      x.cumsum(-3), {2, 3, 4},
      values{-5, 2, -2, 5, 1, -3, 4, 0, -4, 3, -1, -5, -3, 0, 3, 6, -2, 1, 4, -4, -1, 2, -6, -3});
}

TYPED_TEST_P(Reductions, Logsumexp) {
  using namespace reductions_suite;
  const auto g = tensor<TypeParam>({0.5, -1.0, 2.0, 3.0, 0.0, -2.5}, {2, 3});
  ep::test::expect_near(g.logsumexp(), {}, values{3.4201263834264246});
  ep::test::expect_near(g.logsumexp({}, true), {1, 1}, values{3.4201263834264246});
  ep::test::expect_near(g.logsumexp(1), {2}, values{2.241311296657157, 3.052472746376527});
  ep::test::expect_near(g.logsumexp(-1, true), {2, 1},
                        values{2.241311296657157, 3.052472746376527});
  ep::test::expect_near(g.logsumexp(0, true), {1, 3},
                        values{3.0788897342925496, 0.31326168751822286, 2.011047744848594});
  // exp(1000) overflows even in double: the result must still be finite.
  const auto h = tensor<TypeParam>({1000, 1000, 999, -1000, -1000, -999}, {2, 3});
  ep::test::expect_near(h.logsumexp(1), {2}, values{1000.8619948040582, -998.448555286068});
  ep::test::expect_near(h.logsumexp(0), {3}, values{1000, 1000, 999});
  for (auto v : h.logsumexp(1).to_vector()) EXPECT_TRUE(std::isfinite(v));
}

TYPED_TEST_P(Reductions, Int64) {
  using namespace reductions_suite;
  using I64 = typename TypeParam::template rebind<std::int64_t>;
  // Values beyond float32's 24-bit mantissa: an implementation that goes through float fails.
  const auto i = tensor<I64, std::int64_t>(
      {123456789, -987654321, 5, 7, 100000, 3, -2, 40000, 1099511627777}, {3, 3});
  static_assert(std::is_same_v<typename decltype(i.sum())::value_type, std::int64_t>);
  ep::test::expect_equal(i.sum(), {}, std::vector<std::int64_t>{1098647570258});
  ep::test::expect_equal(i.sum(0), {3},
                         std::vector<std::int64_t>{123456794, -987514321, 1099511627785});
  ep::test::expect_equal(i.sum(-1, true), {3, 1},
                         std::vector<std::int64_t>{-864197527, 100010, 1099511667775});
  ep::test::expect_equal(i.min(), {}, std::vector<std::int64_t>{-987654321});
  ep::test::expect_equal(i.max(), {}, std::vector<std::int64_t>{1099511627777});
  ep::test::expect_equal(i.min(0), {3}, std::vector<std::int64_t>{-2, -987654321, 3});
  ep::test::expect_equal(i.max(1), {3},
                         std::vector<std::int64_t>{123456789, 100000, 1099511627777});
  ep::test::expect_equal(
      i.cumsum(), {9},
      std::vector<std::int64_t>{123456789, -864197532, -864197527, -864197520, -864097520,
                                -864097517, -864097519, -864057519, 1098647570258});
  ep::test::expect_equal(i.cumsum(0), {3, 3},
                         std::vector<std::int64_t>{123456789, -987654321, 5, 123456796, -987554321,
                                                   8, 123456794, -987514321, 1099511627785});
  ep::test::expect_equal(i.cumsum(-1), {3, 3},
                         std::vector<std::int64_t>{123456789, -864197532, -864197527, 7, 100007,
                                                   100010, -2, 39998, 1099511667775});
  ep::test::expect_equal(i.argmax(1), {3}, values{0, 1, 2});
  ep::test::expect_equal(i.argmin(), {}, values{1});
  const auto j = tensor<I64, std::int64_t>({100000, -3, 7, 100000, 2, -1000}, {2, 3});
  ep::test::expect_equal(j.prod(), {}, std::vector<std::int64_t>{420000000000000});
  ep::test::expect_equal(j.prod(0), {3}, std::vector<std::int64_t>{10000000000, -6, -7000});
  ep::test::expect_equal(j.prod(1), {2}, std::vector<std::int64_t>{-2100000, -200000000});
}

namespace reductions_test {
/// x seen as (outer, n, inner): each column (o, :, j) folded with f from its first element, rows
/// in order, as plain loops (the oracle of the in-place axis reductions).
template <class T, class F>
std::vector<T> fold_columns(const std::vector<T>& x, std::int64_t outer, std::int64_t n,
                            std::int64_t inner, F f) {
  std::vector<T> out;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < inner; ++j) {
      auto acc = x[static_cast<std::size_t>(o * n * inner + j)];
      for (std::int64_t r = 1; r < n; ++r)
        acc = f(acc, x[static_cast<std::size_t>((o * n + r) * inner + j)]);
      out.push_back(acc);
    }
  return out;
}

/// Every reduction of `x` (a tensor of backend B and shape `shape`, its elements `v`) over the
/// block of axes [first, last], and cumsum, argmin and argmax along `first` where first == last,
/// against fold_columns. The values are small integers: every sum is exact.
template <class B>
void check_block(const ep::Shape& shape, int first, int last,
                 const std::vector<typename B::value_type>& v) {
  using T = typename B::value_type;
  SCOPED_TRACE(fmt::format("shape {}, axes {} to {}", shape.str(), first, last));
  std::int64_t outer = 1, n = 1, inner = 1;
  std::vector<int> axes;
  ep::Shape kept;
  for (int a = 0; a < shape.size(); ++a) {
    if (a < first || a > last) kept.push_back(shape[a]);
    (a < first ? outer : a > last ? inner : n) *= shape[a];
    if (a >= first && a <= last) axes.push_back(a);
  }
  const auto x = ep::from_vector<B>(v, shape);
  const auto check = [&](const auto& got, const auto& expected) {
    ASSERT_EQ(got.shape(), kept);
    EXPECT_TRUE(got.to_vector() == expected);
  };
  check(x.sum(axes),
        fold_columns(v, outer, n, inner, [](T a, T b) { return static_cast<T>(a + b); }));
  check(x.min(axes), fold_columns(v, outer, n, inner, [](T a, T b) { return std::min(a, b); }));
  check(x.max(axes), fold_columns(v, outer, n, inner, [](T a, T b) { return std::max(a, b); }));
  // Products of -1, 1 and 2 with few 2s: exact in every dtype.
  std::vector<T> signs(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    signs[i] = static_cast<T>(i % 997 == 5 ? 2 : v[i] < 0 ? -1 : 1);
  check(ep::from_vector<B>(signs, shape).prod(axes),
        fold_columns(signs, outer, n, inner, [](T a, T b) { return static_cast<T>(a * b); }));
  if (first != last) return;
  // cumsum: column j of (o, r) is the fold of its first r + 1 rows.
  std::vector<T> sums(v.size());
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < inner; ++j) {
      T acc = 0;
      for (std::int64_t r = 0; r < n; ++r) {
        const auto i = static_cast<std::size_t>((o * n + r) * inner + j);
        acc = static_cast<T>(acc + v[i]);
        sums[i] = acc;
      }
    }
  const auto c = x.cumsum(first);
  ASSERT_EQ(c.shape(), shape);
  EXPECT_TRUE(c.to_vector() == sums);
  // argmin, argmax: the first index of the extreme.
  std::vector<std::int64_t> lo, hi;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < inner; ++j) {
      std::int64_t a = 0, b = 0;
      for (std::int64_t r = 1; r < n; ++r) {
        const T e = v[static_cast<std::size_t>((o * n + r) * inner + j)];
        if (e < v[static_cast<std::size_t>((o * n + a) * inner + j)]) a = r;
        if (e > v[static_cast<std::size_t>((o * n + b) * inner + j)]) b = r;
      }
      lo.push_back(a);
      hi.push_back(b);
    }
  check(x.argmin(first), lo);
  check(x.argmax(first), hi);
}

/// check_block over shapes whose kept extents lie below and above the thresholds of the in-place
/// reductions (eagerpp/thrust/kernels.hpp: column_fill kept elements, column_chunk_rows; ep::omp's
/// parallel_cutoff elements and tiles of 1024 columns), in the dtype of B.
template <class B>
void check_blocks() {
  using T = typename B::value_type;
  const auto values_of = [](const ep::Shape& s) {
    std::vector<T> v(static_cast<std::size_t>(s.numel()));
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<T>(static_cast<int>((i * 7919) % 23) - 11);
    return v;
  };
  const std::pair<ep::Shape, std::pair<int, int>> cases[] = {
      {{1, 128, 3}, {1, 1}},    {{5, 1000, 3}, {1, 1}},   {{4, 3000, 3}, {1, 1}},
      {{2, 2, 32769}, {1, 1}},  {{3, 70, 1100}, {1, 1}},  {{20000, 2}, {0, 0}},
      {{300, 1100}, {0, 0}},    {{2, 1, 5}, {1, 1}},      {{3, 50, 4, 20}, {1, 2}},
      {{30, 40, 2, 3}, {0, 1}}, {{3, 50, 4, 20}, {1, 1}}, {{3, 50, 4, 20}, {2, 2}},
      {{2, 3, 1, 4}, {1, 2}},   {{1, 1, 7, 2}, {0, 2}},
  };
  for (const auto& [shape, axes] : cases)
    check_block<B>(shape, axes.first, axes.second, values_of(shape));
}
}  // namespace reductions_test

// Reductions over middle and leading blocks of axes of 3-D and 4-D tensors, in place on the Thrust
// backends, against plain loops: every op, kept extents below and above the thresholds of the
// in-place path, in the suite's dtype and in int32 and int64.
TYPED_TEST_P(Reductions, MiddleAndLeadingAxesAgainstLoops) {
  using B = TypeParam;
  reductions_test::check_blocks<B>();
  reductions_test::check_blocks<typename B::template rebind<std::int32_t>>();
  reductions_test::check_blocks<typename B::template rebind<std::int64_t>>();
  // any and all: one false (true) element per column in some columns.
  using Bool = typename B::template rebind<bool>;
  const ep::Shape s{4, 3000, 3};
  std::vector<bool> v(static_cast<std::size_t>(s.numel()), true);
  for (std::size_t i = 0; i < v.size(); i += 5003) v[i] = false;
  const auto x = ep::from_vector<Bool>(v, s);
  std::vector<bool> flipped(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) flipped[i] = !v[i];
  const auto all =
      reductions_test::fold_columns(v, 4, 3000, 3, [](bool a, bool b) { return a && b; });
  const auto any =
      reductions_test::fold_columns(flipped, 4, 3000, 3, [](bool a, bool b) { return a || b; });
  EXPECT_TRUE(x.all(1).to_vector() == all);
  EXPECT_TRUE(ep::from_vector<Bool>(flipped, s).any(1).to_vector() == any);
}

// Middle and leading axes of a (2, 3, 2, 2) tensor with NaN and signed zeros (NumPy 1.24's values;
// for min and max, IEEE 754-2019's order -0.0 < +0.0, checked by sign, as MinMaxOrderSignedZeros:
// x.min(1)[1, 0, 1], the min of (-0.0, -0.0, 0.0), is -0.0 where NumPy gives 0.0), empty and unit
// extents.
TYPED_TEST_P(Reductions, MiddleAxesNaNAndZeros) {
  using namespace reductions_suite;
  using T = typename TypeParam::value_type;
  const double nan = std::nan("");
  const auto x = tensor<TypeParam>({1, -0.0, -0.0, nan, 0.0, -2,   -0.0, 5,   2, 0.0, -0.0, 1,
                                    3, -0.0, nan,  -3,  -1,  -0.0, 2,    nan, 3, 0.0, nan,  7},
                                   {2, 3, 2, 2});
  const auto same = [](const auto& got, const ep::Shape& shape, const values& expected) {
    ep::test::expect_equal(got, shape, expected);
    const auto g = got.to_vector();
    for (std::size_t i = 0; i < g.size() && i < expected.size(); ++i)
      if (!std::isnan(expected[i])) {
        EXPECT_EQ(std::signbit(static_cast<double>(g[i])), std::signbit(expected[i]))
            << "element " << i;
      }
  };
  same(x.max(1), {2, 2, 2}, values{2, 0.0, -0.0, nan, 3, 0.0, nan, nan});
  same(x.min(1), {2, 2, 2}, values{0.0, -2, -0.0, nan, -1, -0.0, nan, nan});
  same(x.max(0), {3, 2, 2}, values{3, -0.0, nan, nan, 0.0, -0.0, 2, nan, 3, 0.0, nan, 7});
  same(x.min(0), {3, 2, 2}, values{1, -0.0, nan, nan, -1, -2, -0.0, nan, 2, 0.0, nan, 1});
  same(x.max({1, 2}), {2, 2}, values{2, nan, nan, nan});
  same(x.min({1, 2}), {2, 2}, values{-0.0, nan, nan, nan});
  same(x.max({0, 1}), {2, 2}, values{3, 0.0, nan, nan});
  same(x.min({0, 1}), {2, 2}, values{-1, -2, nan, nan});
  ep::test::expect_equal(x.argmax(0), {3, 2, 2}, values{1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1});
  ep::test::expect_equal(x.argmin(0), {3, 2, 2}, values{0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0});
  ep::test::expect_equal(x.argmax(1), {2, 2, 2}, values{2, 0, 0, 0, 0, 0, 0, 1});
  ep::test::expect_equal(x.argmin(1), {2, 2, 2}, values{1, 1, 0, 0, 1, 0, 0, 1});
  ep::test::expect_equal(x.argmax(2), {2, 3, 2}, values{0, 1, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1});
  ep::test::expect_equal(x.argmin(2), {2, 3, 2}, values{1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0});
  ep::test::expect_equal(x.sum(1), {2, 2, 2}, values{3, -2, 0, nan, 5, 0, nan, nan});
  ep::test::expect_equal(x.cumsum(1), {2, 3, 2, 2},
                         values{1, 0, 0,   nan, 1, -2, 0,   nan, 3, -2, 0,   nan,
                                3, 0, nan, -3,  2, 0,  nan, nan, 5, 0,  nan, nan});
  ep::test::expect_equal(
      x.cumsum(0), {2, 3, 2, 2},
      values{1, 0, 0, nan, 0, -2, 0, 5, 2, 0, 0, 1, 4, 0, nan, nan, -1, -2, 2, nan, 5, 0, nan, 8});
  // Empty and unit extents along and beside the reduced axes.
  const auto e = tensor<TypeParam>(values{}, {2, 0, 3});
  ep::test::expect_equal(e.sum(1), {2, 3}, values{0, 0, 0, 0, 0, 0});
  ep::test::expect_equal(e.prod(1, true), {2, 1, 3}, values{1, 1, 1, 1, 1, 1});
  ep::test::expect_equal(e.sum(0), {0, 3}, values{});
  ep::test::expect_equal(e.cumsum(1), {2, 0, 3}, values{});
  ep::test::expect_equal(e.max(2), {2, 0}, values{});
  EXPECT_THROW((void)e.min(1), ep::value_error);
  const auto u = x.reshape({2, 1, 6, 2});
  ep::test::expect_equal(u.sum(1), {2, 6, 2}, x.reshape({2, 6, 2}).to_vector());
  ep::test::expect_equal(u.argmax(1), {2, 6, 2}, values(24, 0));
  ep::test::expect_equal(u.cumsum(1), {2, 1, 6, 2}, x.to_vector());
  static_assert(std::is_floating_point_v<T>);
}

namespace reductions_test {
/// Checks `all(x)` (over every axis) and `axis1(x)` (along axis 1) of the case of `op`
/// (suites/binary_cases.hpp), x a (2, 4) tensor of backend In, against NumPy's values; records an
/// op without cases in `missing`.
template <class In, class All, class Axis1>
void check_reduction(const char* op, All all, Axis1 axis1, const ep::Shape& all_shape,
                     std::string& missing) {
  const auto* c = binary_cases::find(binary_cases::reductions, op);
  if (c == nullptr) {
    missing += std::string(" ") + op;
    return;
  }
  SCOPED_TRACE(op);
  const auto x = ep::test::tensor<In>(c->x, {2, 4});
  const double rtol = std::is_same_v<typename In::value_type, float> ? 1e-6 : 1e-12;
  ep::test::expect_near(all(x), all_shape, c->all, rtol, 1e-12);
  const ep::Shape s1 = c->axis1.size() == 2 ? ep::Shape{2} : ep::Shape{2, 4};
  ep::test::expect_near(axis1(x), s1, c->axis1, rtol, 1e-12);
}
}  // namespace reductions_test

// Every row of the reduction lists (ops/binary_list.hpp) against its NumPy values
// (suites/binary_cases.hpp), as a method over every axis and along axis 1 and as a free function;
// an op without cases fails here.
TYPED_TEST_P(Reductions, EveryReductionOfTheListsMatchesNumPy) {
  using B = TypeParam;
  using Bool = typename B::template rebind<bool>;
  using reductions_test::check_reduction;
  std::string missing;
#define EAGERPP_CHECK_REDUCTION(name, dtypes, native)                                              \
  check_reduction<EAGERPP_TEST_OPERAND_##dtypes>(                                                  \
      #name, [](const auto& x) { return x.name(); }, [](const auto& x) { return ep::name(x, 1); }, \
      ep::Shape{}, missing);
  EAGERPP_REDUCTION_OPS(EAGERPP_CHECK_REDUCTION)
#define EAGERPP_CHECK_AXIS_REDUCTION(name, dtypes)                                                 \
  check_reduction<EAGERPP_TEST_OPERAND_##dtypes>(                                                  \
      #name, [](const auto& x) { return x.name(); }, [](const auto& x) { return ep::name(x, 1); }, \
      std::string_view(#name) == "cumsum" ? ep::Shape{8} : ep::Shape{}, missing);
  EAGERPP_AXIS_REDUCTION_OPS(EAGERPP_CHECK_AXIS_REDUCTION)
#undef EAGERPP_CHECK_AXIS_REDUCTION
#undef EAGERPP_CHECK_REDUCTION
  EXPECT_EQ(missing, "")
      << "reductions of the lists without cases in tests/suites/binary_cases.hpp";
}

REGISTER_TYPED_TEST_SUITE_P(Reductions, SumAllAxes, SumOneAxis, SumNegativeAxis, SumSeveralAxes,
                            Prod, Mean, MinMax, MinMaxOrderSignedZeros, AllAny, ZeroDimensional,
                            EmptyTensor, HighRank, ArgminArgmax, Cumsum, Logsumexp, Int64,
                            MiddleAndLeadingAxesAgainstLoops, MiddleAxesNaNAndZeros,
                            EveryReductionOfTheListsMatchesNumPy);
