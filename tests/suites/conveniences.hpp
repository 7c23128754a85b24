// eagerpp - typed tests of what a NumPy user reaches for first: NumPy's dtype rules for scalars,
// compound assignment, linspace, randint, permutation, integer and variadic shapes, pad for every
// axis, and brace lists of tensors
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::sort, std::count
#include <cstdint>      // std::int64_t, std::int32_t
#include <type_traits>  // std::is_same_v
#include <vector>       // std::vector

#include <gtest/gtest.h>

#include <eagerpp/random.hpp>

#include "support/support.hpp"

// Expected values are NumPy's (numpy 1.24 / 2.x agree here) for the same inputs, as literals.

EAGERPP_TYPED_SUITE(Conveniences);

namespace conveniences_test {
template <class Tn, class V>
constexpr bool has_dtype = std::is_same_v<typename Tn::value_type, V>;
}  // namespace conveniences_test

TYPED_TEST_P(Conveniences, IntegerTensorWithFloatingScalarPromotesAsNumpy) {
  using conveniences_test::has_dtype;
  using I = typename TypeParam::template rebind<std::int64_t>;
  const auto i = ep::arange<I>(4);  // [0, 1, 2, 3]
  // np.arange(4) * 0.5, + 0.7, 1.5 - i: float64, not integers (the scalar truncated to the
  // tensor's dtype would give all zeros and i unchanged).
  const auto half = i * 0.5;
  static_assert(has_dtype<decltype(half), double>);
  ep::test::expect_equal(half, {4}, std::vector<double>{0, 0.5, 1, 1.5});
  ep::test::expect_near(i + 0.7, {4}, std::vector<double>{0.7, 1.7, 2.7, 3.7}, 1e-15);
  ep::test::expect_equal(1.5 - i, {4}, std::vector<double>{1.5, 0.5, -0.5, -1.5});
  ep::test::expect_equal(i / 2.0, {4}, std::vector<double>{0, 0.5, 1, 1.5});
  ep::test::expect_near(i.pow(0.5), {4},
                        std::vector<double>{0, 1, 1.4142135623730951, 1.7320508075688772}, 1e-15);
  ep::test::expect_equal(i.maximum(0.5), {4}, std::vector<double>{0.5, 1, 2, 3});
  ep::test::expect_equal(ep::minimum(i, 2.5), {4}, std::vector<double>{0, 1, 2, 2.5});
  ep::test::expect_equal(i % 2.5, {4}, std::vector<double>{0, 1, 2, 0.5});
  // np.clip(np.arange(4), 0.5, 2.5) is float64 [0.5, 1., 2., 2.5]; np.clip(np.arange(4), 1, 2)
  // stays int64.
  const auto c = i.clip(0.5, 2.5);
  static_assert(has_dtype<decltype(c), double>);
  ep::test::expect_equal(c, {4}, std::vector<double>{0.5, 1, 2, 2.5});
  ep::test::expect_equal(ep::clip(i, 1, 2.5), {4}, std::vector<double>{1, 1, 2, 2.5});
  const auto ci = ep::clip(i, 1, 2);
  static_assert(has_dtype<decltype(ci), std::int64_t>);
  ep::test::expect_equal(ci, {4}, std::vector<std::int64_t>{1, 1, 2, 2});
  // A C++ float asks for float32 (NumPy has no float32 Python scalar; PyTorch's default dtype is
  // float32).
  const auto f = i * 1.5f;
  static_assert(has_dtype<decltype(f), float>);
  ep::test::expect_equal(f, {4}, std::vector<float>{0, 1.5f, 3, 4.5f});
  // Integer scalars keep the integer dtype: np.arange(4) * 3 is int64.
  const auto k = i * 3;
  static_assert(has_dtype<decltype(k), std::int64_t>);
  ep::test::expect_equal(k, {4}, std::vector<std::int64_t>{0, 3, 6, 9});
  // np.arange(4) // 2.5 is float64 [0., 0., 0., 1.]; 2.5 - np.arange(4) // 1 ... as float64.
  const auto fd = i.floordiv(2.5);
  static_assert(has_dtype<decltype(fd), double>);
  ep::test::expect_equal(fd, {4}, std::vector<double>{0, 0, 0, 1});
  ep::test::expect_equal(ep::floordiv(2.5, i + 1), {4}, std::vector<double>{2, 1, 0, 0});
  // int32 too (NEP 50: the Python scalar is weak): np.arange(4, dtype=np.int32) * 0.5 is float64,
  // np.arange(4, dtype=np.int32) + 2 stays int32, and / of two int32 arrays is float64.
  using I32 = typename TypeParam::template rebind<std::int32_t>;
  const auto j = ep::arange<I32>(4);
  const auto jh = j * 0.5;
  static_assert(has_dtype<decltype(jh), double>);
  ep::test::expect_equal(jh, {4}, std::vector<double>{0, 0.5, 1, 1.5});
  const auto j2 = j + std::int64_t{2};
  static_assert(has_dtype<decltype(j2), std::int32_t>);
  ep::test::expect_equal(j2, {4}, std::vector<std::int32_t>{2, 3, 4, 5});
  const auto jq = (j - 1) / (j + 1);  // [-1/1, 0/2, 1/3, 2/4]
  static_assert(has_dtype<decltype(jq), double>);
  ep::test::expect_equal(jq, {4}, std::vector<double>{-1, 0, 1.0 / 3, 0.5});
  // where with an integer tensor and a floating scalar: np.where([T, F, T, F], np.arange(4), 0.5)
  // is float64 [0., 0.5, 2., 0.5] (0.5 is not truncated to 0).
  const auto even = (i % 2) == 0;
  const auto w = ep::where(even, i, 0.5);
  static_assert(has_dtype<decltype(w), double>);
  ep::test::expect_equal(w, {4}, std::vector<double>{0, 0.5, 2, 0.5});
  ep::test::expect_equal(ep::where(even, -0.5, i), {4}, std::vector<double>{-0.5, 1, -0.5, 3});
  ep::test::expect_equal(ep::where(even, i, 7), {4}, std::vector<std::int64_t>{0, 7, 2, 7});
}

TYPED_TEST_P(Conveniences, FloatingAndBoolTensorsWithScalars) {
  using conveniences_test::has_dtype;
  using B = TypeParam;
  using T = typename B::value_type;
  // A floating tensor keeps its dtype with any scalar (np.float32 array * 2.5 stays float32).
  const auto x = ep::arange<B>(3);
  const auto y = x * 2.5;
  static_assert(has_dtype<decltype(y), T>);
  ep::test::expect_equal(y, {3}, std::vector<double>{0, 2.5, 5});
  // A bool tensor with an integer counts as int64: np.array([True, False, True]) + 1 == [2, 1, 2].
  const auto b = x != 1;
  const auto n = b + 1;
  static_assert(has_dtype<decltype(n), std::int64_t>);
  ep::test::expect_equal(n, {3}, std::vector<std::int64_t>{2, 1, 2});
  ep::test::expect_equal(1 - b, {3}, std::vector<std::int64_t>{0, 1, 0});
  ep::test::expect_equal(b * 0.5, {3}, std::vector<double>{0.5, 0, 0.5});
}

TYPED_TEST_P(Conveniences, ComparisonsWithScalarsPromoteFirst) {
  using I = typename TypeParam::template rebind<std::int64_t>;
  const auto i = ep::arange<I>(4);
  // np.arange(4) < 1.5 compares in float64: [True, True, False, False] (1.5 is not truncated to 1).
  ep::test::expect_equal(i < 1.5, {4}, std::vector<bool>{true, true, false, false});
  ep::test::expect_equal(i < 0.5, {4}, std::vector<bool>{true, false, false, false});
  ep::test::expect_equal(i > -0.5, {4}, std::vector<bool>{true, true, true, true});
  ep::test::expect_equal(i <= 2.9f, {4}, std::vector<bool>{true, true, true, false});
  ep::test::expect_equal(i >= 0.5, {4}, std::vector<bool>{false, true, true, true});
  ep::test::expect_equal(i == 1.0, {4}, std::vector<bool>{false, true, false, false});
  ep::test::expect_equal(i == 1.5, {4}, std::vector<bool>{false, false, false, false});
  // The scalar on the left, for every comparison.
  ep::test::expect_equal(2 == i, {4}, std::vector<bool>{false, false, true, false});
  ep::test::expect_equal(2 != i, {4}, std::vector<bool>{true, true, false, true});
  ep::test::expect_equal(1.5 < i, {4}, std::vector<bool>{false, false, true, true});
  ep::test::expect_equal(2 <= i, {4}, std::vector<bool>{false, false, true, true});
  ep::test::expect_equal(2 > i, {4}, std::vector<bool>{true, true, false, false});
  ep::test::expect_equal(2 >= i, {4}, std::vector<bool>{true, true, true, false});
  const auto x = ep::arange<TypeParam>(4);
  ep::test::expect_equal(x > 1, {4}, std::vector<bool>{false, false, true, true});
  ep::test::expect_equal(7 % (x + 2), {4}, std::vector<double>{1, 1, 3, 2});
  ep::test::expect_equal(ep::floordiv(7, x + 2), {4}, std::vector<double>{3, 2, 1, 1});
  ep::test::expect_equal(ep::pow(2, x), {4}, std::vector<double>{1, 2, 4, 8});
}

TYPED_TEST_P(Conveniences, CompoundAssignmentRebindsAndSharesNothing) {
  using B = TypeParam;
  auto p = ep::arange<B>(3);
  const auto before = p;  // shares p's data until p is rebound
  p -= 0.5 * p.ones_like();
  ep::test::expect_equal(p, {3}, std::vector<double>{-0.5, 0.5, 1.5});
  ep::test::expect_equal(before, {3}, std::vector<double>{0, 1, 2});
  p *= 2;
  p += p;
  p /= 4;
  ep::test::expect_equal(p, {3}, std::vector<double>{-0.5, 0.5, 1.5});
  using I = typename B::template rebind<std::int64_t>;
  auto i = ep::arange<I>(3);
  i += 2;
  i *= i;
  ep::test::expect_equal(i, {3}, std::vector<std::int64_t>{4, 9, 16});
  // Recorded on the tape like `y = y * x`: d/dx sum(x * x + 1) = 2x.
  const auto x = ep::from_vector<B>({1, -2, 3});
  const auto [v, g] = ep::value_and_grad(
      [](const ep::Tensor<B>& t) {
        auto y = t;
        y *= t;
        y += 1;
        return y.sum();
      },
      x);
  ep::test::expect_equal(v, {}, std::vector<double>{17});
  ep::test::expect_equal(g, {3}, std::vector<double>{2, -4, 6});
}

TYPED_TEST_P(Conveniences, LinspaceMatchesNumpy) {
  using B = TypeParam;
  ep::test::expect_equal(ep::linspace<B>(0, 1, 5), {5}, std::vector<double>{0, 0.25, 0.5, 0.75, 1});
  ep::test::expect_equal(ep::linspace<B>(0, 1, 4, false), {4},
                         std::vector<double>{0, 0.25, 0.5, 0.75});
  ep::test::expect_equal(ep::linspace<B>(-1, 1, 3), {3}, std::vector<double>{-1, 0, 1});
  ep::test::expect_equal(ep::linspace<B>(2, 3, 1), {1}, std::vector<double>{2});
  EXPECT_EQ(ep::linspace<B>(0, 1, 0).shape(), (ep::Shape{0}));
  EXPECT_EQ(ep::linspace<B>(0, 1).size(), 50);
  // np.linspace(0, 1, 7)[3] and the last value are exact.
  const auto l = ep::linspace<B>(0, 1, 7).to_vector();
  EXPECT_EQ(l[3], 0.5);
  EXPECT_EQ(l[6], 1);
  ep::test::expect_throws_with<ep::value_error>([] { (void)ep::linspace<B>(0, 1, -1); },
                                                {"linspace", "-1"});
}

TYPED_TEST_P(Conveniences, RandintAndPermutationAreUniformAndSeeded) {
  using I = typename TypeParam::template rebind<std::int64_t>;
  ep::generator gen(7);
  const auto r = ep::randint<I>(gen, -3, 4, {2000});
  EXPECT_EQ(r.shape(), (ep::Shape{2000}));
  const auto v = r.to_vector();
  for (int k = -3; k < 4; ++k) {
    const auto hits = std::count(v.begin(), v.end(), k);
    EXPECT_GT(hits, 200)
        << k;  // 2000 / 7 = 286 expected; 200 is more than 5 standard deviations below
    EXPECT_LT(hits, 372) << k;
  }
  EXPECT_EQ(std::count_if(v.begin(), v.end(), [](std::int64_t x) { return x < -3 || x >= 4; }), 0);
  ep::generator again(7);
  EXPECT_EQ(ep::randint<I>(again, -3, 4, {2000}).to_vector(), v);
  ep::generator other(8);
  EXPECT_NE(ep::randint<I>(other, -3, 4, {2000}).to_vector(), v);
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::randint<I>(gen, 4, 4, {2}); },
                                                {"randint", "4"});
  // The same values on every backend: literals from an independent Philox-4x32-10 in Python
  // (checked against Random123's known answers), with randint's mapping (two words a draw, 2^64 mod
  // range rejected, then mod range) and permutation's Fisher-Yates (one draw in [0, i] a step, i =
  // n-1..1).
  ep::generator k7(7);
  ep::test::expect_equal(ep::randint<I>(k7, -3, 4, {2, 5}), {2, 5},
                         std::vector<std::int64_t>{0, -1, 0, -2, 2, 2, 0, 0, 0, 2});
  ep::generator k11(11);
  ep::test::expect_equal(ep::randint<I>(k11, 0, std::int64_t{1} << 40, {3}), {3},
                         std::vector<std::int64_t>{442204621756, 903380877541, 303625861059});
  ep::generator k3(3);
  ep::test::expect_equal(ep::permutation<TypeParam>(k3, 10), {10},
                         std::vector<std::int64_t>{0, 6, 3, 9, 5, 8, 2, 7, 1, 4});

  ep::generator g1(3);
  const auto p = ep::permutation<TypeParam>(g1, 10);
  static_assert(std::is_same_v<typename decltype(p)::value_type, std::int64_t>);
  auto sorted = p.to_vector();
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, ep::arange<I>(10).to_vector());
  EXPECT_NE(p.to_vector(), ep::arange<I>(10).to_vector());
  // Permuting a tensor's rows is indexing with a permutation drawn from the same stream.
  const auto x = ep::arange<TypeParam>(12).reshape(4, 3);
  ep::generator g2(5);
  ep::generator g3(5);
  ep::test::expect_close(ep::permutation(g2, x), x[ep::permutation<TypeParam>(g3, 4)]);
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::permutation<TypeParam>(g1, -1); },
                                                {"permutation", "-1"});
}

TYPED_TEST_P(Conveniences, IntegerAndVariadicShapesAndPadForEveryAxis) {
  using B = TypeParam;
  EXPECT_EQ(ep::zeros<B>(3).shape(), (ep::Shape{3}));
  ep::test::expect_equal(ep::ones<B>(2), {2}, std::vector<double>{1, 1});
  const auto x = ep::arange<B>(6).reshape(2, 3);
  EXPECT_EQ(x.shape(), (ep::Shape{2, 3}));
  EXPECT_EQ(x.reshape(3, -1).shape(), (ep::Shape{3, 2}));
  // np.pad(np.arange(4).reshape(2, 2), 1)
  const auto y = ep::arange<B>(4).reshape(2, 2).pad({1, 1});
  ep::test::expect_equal(y, {4, 4},
                         std::vector<double>{0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 3, 0, 0, 0, 0, 0});
  // np.pad([1, 2], (1, 2), constant_values=9)
  ep::test::expect_equal(ep::pad(ep::from_vector<B>({1, 2}), {1, 2}, "constant", 9), {5},
                         std::vector<double>{9, 1, 2, 9, 9});
  // np.pad([[1, 2, 3], [4, 5, 6]], 1, mode="reflect")
  ep::test::expect_equal(
      ep::from_vector<B>({1, 2, 3, 4, 5, 6}, {2, 3}).pad({1, 1}, "reflect"), {4, 5},
      std::vector<double>{5, 4, 5, 6, 5, 2, 1, 2, 3, 2, 5, 4, 5, 6, 5, 2, 1, 2, 3, 2});
}

TYPED_TEST_P(Conveniences, BraceListsOfTensors) {
  using B = TypeParam;
  const auto x = ep::arange<B>(3);
  const auto y = ep::from_vector<B>({10, 20});
  ep::test::expect_equal(ep::stack({x, x}, 0), {2, 3}, std::vector<double>{0, 1, 2, 0, 1, 2});
  ep::test::expect_equal(ep::stack({x, x}, 1), {3, 2}, std::vector<double>{0, 0, 1, 1, 2, 2});
  ep::test::expect_equal(ep::concatenate({x, y}), {5}, std::vector<double>{0, 1, 2, 10, 20});
  // np.meshgrid([0, 1, 2], [10, 20]) and indexing="ij"
  const auto xy = ep::meshgrid({x, y}, "xy");
  ep::test::expect_equal(xy[0], {2, 3}, std::vector<double>{0, 1, 2, 0, 1, 2});
  ep::test::expect_equal(xy[1], {2, 3}, std::vector<double>{10, 10, 10, 20, 20, 20});
  const auto ij = ep::meshgrid({x, y}, "ij");
  ep::test::expect_equal(ij[0], {3, 2}, std::vector<double>{0, 0, 1, 1, 2, 2});
  ep::test::expect_equal(ij[1], {3, 2}, std::vector<double>{10, 20, 10, 20, 10, 20});
  // Open-ended and negative-step slices: u[2:], u[:-1], u[::-2]
  const auto u = ep::arange<B>(6);
  ep::test::expect_equal(u(ep::slice(2, {})), {4}, std::vector<double>{2, 3, 4, 5});
  ep::test::expect_equal(u(ep::slice({}, -1)), {5}, std::vector<double>{0, 1, 2, 3, 4});
  ep::test::expect_equal(u(ep::slice({}, {}, -2)), {3}, std::vector<double>{5, 3, 1});
}

TYPED_TEST_P(Conveniences, EagerPySpellings) {
  using conveniences_test::has_dtype;
  using B = TypeParam;
  using I = typename B::template rebind<std::int64_t>;
  const auto x = ep::from_vector<B>({3, 1, 2});
  // Free functions where EagerPy has them.
  ep::test::expect_equal(ep::sort(x), {3}, std::vector<double>{1, 2, 3});
  ep::test::expect_equal(ep::argsort(x), {3}, std::vector<std::int64_t>{1, 2, 0});
  const auto [values, indices] = ep::topk(x, 2);
  ep::test::expect_equal(values, {2}, std::vector<double>{3, 2});
  ep::test::expect_equal(indices, {2}, std::vector<std::int64_t>{0, 2});
  ep::test::expect_equal(ep::take_along_axis(x, ep::argsort(x), 0), {3},
                         std::vector<double>{1, 2, 3});
  ep::test::expect_equal(ep::index_update(x, ep::index(0), 9), {3}, std::vector<double>{9, 1, 2});
  const auto m = ep::from_vector<B>({2, 0, 0, 4}, {2, 2});
  ep::test::expect_equal(ep::inv(m), {2, 2}, std::vector<double>{0.5, 0, 0, 0.25});
  const auto [sign, logdet] = ep::slogdet(m);
  ep::test::expect_equal(sign, {}, std::vector<double>{1});
  ep::test::expect_near(logdet, {}, std::vector<double>{2.0794415416798357}, 1e-6);  // np.log(8)
  // where with two scalars: NumPy's dtype for them.
  const auto c = x > 1.5;
  const auto w = ep::where(c, 2, 5);
  static_assert(has_dtype<decltype(w), std::int64_t>);
  ep::test::expect_equal(w, {3}, std::vector<std::int64_t>{2, 5, 2});
  const auto wf = ep::where(c, 1.0, 0);
  static_assert(has_dtype<decltype(wf), double>);
  ep::test::expect_equal(wf, {3}, std::vector<double>{1, 0, 1});
  static_assert(has_dtype<decltype(ep::where(c, 1.5f, 0.5f)), float>);
  // Comparisons between numeric dtypes compare after promotion: [3, 1, 2] < [2, 2, 2] and == [1, 1,
  // 2].
  const auto i = ep::from_vector<I>({2, 2, 2});
  ep::test::expect_equal(x < i, {3}, std::vector<bool>{false, true, false});
  ep::test::expect_equal(ep::from_vector<I>({1, 1, 2}) == x, {3},
                         std::vector<bool>{false, true, true});
  // sum, prod and cumsum of a bool tensor count in int64.
  const auto n = (x > 1).sum();
  static_assert(has_dtype<decltype(n), std::int64_t>);
  ep::test::expect_equal(n, {}, std::vector<std::int64_t>{2});
  ep::test::expect_equal(ep::sum(x > 1, 0, true), {1}, std::vector<std::int64_t>{2});
  ep::test::expect_equal((x > 1).cumsum(), {3}, std::vector<std::int64_t>{1, 1, 2});
  ep::test::expect_equal((x > 1).prod(), {}, std::vector<std::int64_t>{0});
  // A format spec formats the number of a 0-d tensor (EagerPy: f"{ep.arange(t, 5).sum():.1f}" ==
  // "10.0").
  EXPECT_EQ(fmt::format("{:.1f}", ep::arange<I>(5).sum()), "10.0");
  EXPECT_EQ(fmt::format("{:.2f}", x.sum()), "6.00");
  EXPECT_EQ(fmt::format("{:>4}", ep::arange<I>(5).sum()), "  10");
  EXPECT_THROW((void)fmt::format("{:.1f}", x), fmt::format_error);
  // astensors_: the tensors and one restore.
  const auto [ts, restore] = ep::astensors_(x.raw(), (x * 2).raw());
  const auto [a, b] = ts;
  const auto back = restore(a + b);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(back)>, typename B::raw_type>);
  ep::test::expect_equal(ep::astensor(back), {3}, std::vector<double>{9, 3, 6});
}

REGISTER_TYPED_TEST_SUITE_P(Conveniences, IntegerTensorWithFloatingScalarPromotesAsNumpy,
                            FloatingAndBoolTensorsWithScalars, ComparisonsWithScalarsPromoteFirst,
                            CompoundAssignmentRebindsAndSharesNothing, LinspaceMatchesNumpy,
                            RandintAndPermutationAreUniformAndSeeded,
                            IntegerAndVariadicShapesAndPadForEveryAxis, BraceListsOfTensors,
                            EagerPySpellings);
