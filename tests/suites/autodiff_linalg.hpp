// eagerpp - Autodiff suite (float64): the gradient rules of matmul and the nn ops
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>  // std::int64_t
#include <utility>  // std::pair
#include <vector>   // std::vector

#include <gtest/gtest.h>

#include "suites/autodiff_fixture.hpp"

// Against central finite differences at random points, and exactly where noted; registered with the
// rest of the suite in suites/autodiff.hpp.

TYPED_TEST_P(Autodiff, MatmulGradients) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  const auto mm = [](const T& p, const T& q) { return p.matmul(q); };
  const std::vector<std::pair<ep::Shape, ep::Shape>> shapes = {
      {{2, 3}, {3, 4}},           // 2-D
      {{2, 2, 3}, {2, 3, 4}},     // batched
      {{2, 1, 2, 3}, {3, 3, 4}},  // broadcast batch axes on both sides
      {{3, 2, 3}, {3, 4}},        // a 2-D right operand against a batch
      {{2, 3}, {2, 3, 4}},        // a 2-D left operand against a batch
      {{3}, {3, 4}},              // 1-D left operand
      {{2, 3}, {3}},              // 1-D right operand
      {{3}, {3}},                 // 1-D both: a 0-d result
      {{2, 2, 3}, {3}},           // batch times a vector
      {{3}, {2, 3, 4}},           // a vector times a batch
  };
  for (const auto& [sa, sb] : shapes) {
    check_binary<TypeParam>("matmul", mm, sa, sb, -1, 1, -1, 1);
  }
  check_binary<TypeParam>(
      "ep::matmul", [](const T& p, const T& q) { return ep::matmul(p, q); }, {4, 3}, {3, 2}, -1, 1,
      -1, 1);
  // The same operand on both sides: x^T x.
  const T x = random_tensor<TypeParam>({3, 2}, -1, 1, 61);
  EXPECT_TRUE(ep::test::check_gradient([](const T& t) { return weighted(t.T().matmul(t)); }, x))
      << "x^T x";
}

TYPED_TEST_P(Autodiff, NnGradients) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  using I64 = typename TypeParam::template rebind<std::int64_t>;
  const T x = random_tensor<TypeParam>({3, 4}, -2, 2, 71);
  for (int axis : {-1, 0, 1}) {
    EXPECT_TRUE(ep::test::check_gradient([&](const T& t) { return weighted(t.softmax(axis)); }, x))
        << "softmax " << axis;
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(ep::log_softmax(t, axis)); }, x))
        << "log_softmax " << axis;
  }
  const auto labels = ep::test::tensor<I64>(values{2, 0, 3}, {3});
  EXPECT_TRUE(
      ep::test::check_gradient([&](const T& t) { return weighted(t.crossentropy(labels)); }, x))
      << "crossentropy";
  EXPECT_TRUE(ep::test::check_gradient(
      [&](const T& t) { return ep::crossentropy(t, labels).mean(); }, x * 50))
      << "crossentropy of large logits";
  // Exactly, for equal logits: d/dx mean(crossentropy) = (softmax - onehot) / N = (1/4 - onehot)
  // / 3.
  const T zeros = ep::zeros<TypeParam>({3, 4});
  const auto [v, g] =
      ep::value_and_grad([&](const T& t) { return t.crossentropy(labels).sum(); }, zeros);
  ep::test::expect_near(v, {}, values{3 * 1.3862943611198906}, 1e-15);
  ep::test::expect_equal(
      g, {3, 4}, values{0.25, 0.25, -0.75, 0.25, -0.75, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, -0.75});
}
