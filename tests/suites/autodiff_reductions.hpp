// eagerpp - Autodiff suite (float64): the gradient rules of the reductions (every axis form, 0-d
// and rank 5, cumsum) and the ties of max
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>     // std::size_t
#include <functional>  // std::function
#include <string>      // std::string, std::to_string
#include <utility>     // std::pair
#include <vector>      // std::vector

#include <gtest/gtest.h>

#include "suites/autodiff_fixture.hpp"

// Against central finite differences at random points, and exactly where noted; registered with the
// rest of the suite in suites/autodiff.hpp.

TYPED_TEST_P(Autodiff, ReductionGradientsEveryAxisForm) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  const std::vector<std::pair<ep::Axes, bool>> forms = {
      {ep::Axes{}, false},     {ep::Axes{}, true},      {ep::Axes(1), false},
      {ep::Axes(0), true},     {ep::Axes(-1), false},   {ep::Axes(-2), true},
      {ep::Axes{0, 2}, false}, {ep::Axes{-1, 0}, true}, {ep::Axes{0, 1, 2}, false}};
  for (std::size_t k = 0; k < forms.size(); ++k) {
    const ep::Axes axis = forms[k].first;
    const bool keep = forms[k].second;
    const auto label = [&](const char* op) {
      return std::string(op) + " in axis form #" + std::to_string(k);
    };
    const T x = random_tensor<TypeParam>({2, 3, 4}, -1, 1, 21);
    const T p = random_tensor<TypeParam>({2, 3, 4}, 0.5, 1.5, 22);
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(t.sum(axis, keep)); }, x))
        << label("sum");
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::sum(t, axis, keep)); }, x))
        << label("ep::sum");
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(t.prod(axis, keep)); }, p))
        << label("prod");
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(t.mean(axis, keep)); }, x))
        << label("mean");
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(t.min(axis, keep)); }, x))
        << label("min");
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(t.max(axis, keep)); }, x))
        << label("max");
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(t.logsumexp(axis, keep)); }, x))
        << label("logsumexp");
    // logsumexp of large values: the shift by the maximum must not break the gradient.
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) { return weighted(t.logsumexp(axis, keep)); }, x * 300, 1e-5, 1e-6))
        << label("logsumexp of large values");
  }
  // 0-d and rank-5 inputs.
  const T s = random_tensor<TypeParam>({}, 0.5, 1.5, 23);
  for (const auto& [name, f] : std::vector<std::pair<std::string, std::function<T(const T&)>>>{
           {"sum", [](const T& t) { return t.sum(); }},
           {"prod", [](const T& t) { return t.prod(); }},
           {"mean", [](const T& t) { return t.mean({}, true); }},
           {"max", [](const T& t) { return t.max(); }},
           {"logsumexp", [](const T& t) { return t.logsumexp(); }}}) {
    const auto& op = f;  // a structured binding is not captured (clang 14)
    EXPECT_TRUE(ep::test::check_gradient([&](const T& t) { return weighted(op(t)); }, s))
        << name << " of a 0-d tensor";
  }
  const T r5 = random_tensor<TypeParam>({2, 1, 3, 2, 2}, 0.5, 1.5, 24);
  EXPECT_TRUE(ep::test::check_gradient(
      [&](const T& t) {
        return weighted(t.sum({1, 3}, true));
      },
      r5))
      << "rank-5 sum";
  EXPECT_TRUE(ep::test::check_gradient(
      [&](const T& t) {
        return weighted(t.prod({-1, 0}));
      },
      r5))
      << "rank-5 prod";
  EXPECT_TRUE(ep::test::check_gradient(
      [&](const T& t) {
        return weighted(t.max({2, 4}));
      },
      r5))
      << "rank-5 max";
  EXPECT_TRUE(ep::test::check_gradient(
      [&](const T& t) {
        return weighted(t.logsumexp({0, 2}, true));
      },
      r5))
      << "rank-5 logsumexp";
}

TYPED_TEST_P(Autodiff, CumsumGradients) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  const T x = random_tensor<TypeParam>({2, 3, 4}, -1, 1, 31);
  EXPECT_TRUE(ep::test::check_gradient([](const T& t) { return weighted(t.cumsum()); }, x))
      << "cumsum()";
  for (int axis : {0, 1, 2, -1, -3}) {
    EXPECT_TRUE(ep::test::check_gradient([&](const T& t) { return weighted(t.cumsum(axis)); }, x))
        << "cumsum " << axis;
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::cumsum(t, axis)); }, x))
        << "ep::cumsum " << axis;
  }
  // Exactly: d/dx_j sum_i w_i cumsum(x)_i = sum_{i >= j} w_i.
  const T v = ep::test::tensor<TypeParam>(values{1, 2, 3, 4}, {4});
  const T w = ep::test::tensor<TypeParam>(values{1, 10, 100, 1000}, {4});
  const auto [value, g] = ep::value_and_grad([&](const T& t) { return (t.cumsum() * w).sum(); }, v);
  ep::test::expect_equal(value, {}, values{1 + 30 + 600 + 10000});
  ep::test::expect_equal(g, {4}, values{1111, 1110, 1100, 1000});
}

// --- kinks and ties (docs/autodiff.md): exact values ---------------------------------------------

TYPED_TEST_P(Autodiff, MaxTiesShareGradientEvenly) {
  using T = ep::Tensor<TypeParam>;
  const T x = ep::test::tensor<TypeParam>(std::vector<double>{1, 3, 3}, {3});
  ep::test::expect_equal(ep::grad([](const T& t) { return t.max(); })(x), {3},
                         std::vector<double>{0, 0.5, 0.5});
  const T y = ep::test::tensor<TypeParam>(std::vector<double>{2, 1, 1, 5, 1}, {5});
  ep::test::expect_equal(ep::grad([](const T& t) { return t.min(); })(y), {5},
                         std::vector<double>{0, 1.0 / 3, 1.0 / 3, 0, 1.0 / 3});
  // Along an axis, with and without keepdims: ties share within their own row only.
  const T m = ep::test::tensor<TypeParam>(std::vector<double>{1, 3, 3, 2, 2, 0}, {2, 3});
  const T w = ep::test::tensor<TypeParam>(std::vector<double>{1, 4}, {2});
  ep::test::expect_equal(ep::grad([&](const T& t) { return (t.max(1) * w).sum(); })(m), {2, 3},
                         std::vector<double>{0, 0.5, 0.5, 2, 2, 0});
  ep::test::expect_equal(ep::grad([&](const T& t) {
                           return (t.max(-1, true) * w.reshape({2, 1})).sum();
                         })(m),
                         {2, 3}, std::vector<double>{0, 0.5, 0.5, 2, 2, 0});
  // All equal: 1/n each.
  const T e = ep::full<TypeParam>({2, 2}, 7.0);
  ep::test::expect_equal(ep::grad([](const T& t) { return t.max(); })(e), {2, 2},
                         std::vector<double>{0.25, 0.25, 0.25, 0.25});
  ep::test::expect_equal(ep::grad([](const T& t) { return t.min(0).sum(); })(e), {2, 2},
                         std::vector<double>{0.5, 0.5, 0.5, 0.5});
}
