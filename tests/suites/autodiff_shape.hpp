// eagerpp - Autodiff suite (float64): the gradient rules of the shape ops, concatenate and stack
// SPDX-License-Identifier: MIT
#pragma once

#include <functional>  // std::function
#include <string>      // std::string
#include <tuple>       // std::tuple
#include <vector>      // std::vector

#include <gtest/gtest.h>

#include "suites/autodiff_fixture.hpp"

// Against central finite differences at random points, and exactly where noted; registered with the
// rest of the suite in suites/autodiff.hpp.

TYPED_TEST_P(Autodiff, ShapeOpGradients) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  const T x = random_tensor<TypeParam>({2, 3, 4}, -1, 1, 41);
  const T m = random_tensor<TypeParam>({3, 4}, -1, 1, 42);
  const T u = random_tensor<TypeParam>({2, 1, 3, 1}, -1, 1, 43);
  const T row = random_tensor<TypeParam>({3}, -1, 1, 44);
  const T col = random_tensor<TypeParam>({2, 1}, -1, 1, 45);
  const T s = random_tensor<TypeParam>({}, -1, 1, 46);
  const std::vector<std::tuple<std::string, std::function<T(const T&)>, T>> cases = {
      {"reshape (4, 6)",
       [](const T& t) {
         return t.reshape({4, 6});
       },
       x},
      {"reshape (-1,)", [](const T& t) { return t.reshape({-1}); }, x},
      {"reshape (3, -1, 2)",
       [](const T& t) {
         return ep::reshape(t, {3, -1, 2});
       },
       x},
      {"flatten()", [](const T& t) { return t.flatten(); }, x},
      {"flatten(1)", [](const T& t) { return t.flatten(1); }, x},
      {"flatten(0, 1)", [](const T& t) { return t.flatten(0, 1); }, x},
      {"flatten(-2, -1)", [](const T& t) { return ep::flatten(t, -2, -1); }, x},
      {"transpose()", [](const T& t) { return t.transpose(); }, x},
      {"T()", [](const T& t) { return t.T(); }, m},
      {"transpose (1, 0, 2)",
       [](const T& t) {
         return t.transpose({1, 0, 2});
       },
       x},
      {"transpose (-1, 0, 1)",
       [](const T& t) {
         return t.transpose({-1, 0, 1});
       },
       x},
      {"squeeze()", [](const T& t) { return t.squeeze(); }, u},
      {"squeeze(1)", [](const T& t) { return t.squeeze(1); }, u},
      {"squeeze(-1)", [](const T& t) { return t.squeeze(-1); }, u},
      {"squeeze({1, 3})",
       [](const T& t) {
         return t.squeeze({1, 3});
       },
       u},
      {"expand_dims(0)", [](const T& t) { return t.expand_dims(0); }, m},
      {"expand_dims(-1)", [](const T& t) { return t.expand_dims(-1); }, m},
      {"expand_dims(1)", [](const T& t) { return ep::expand_dims(t, 1); }, m},
      {"broadcast_to (3,) -> (2, 3)",
       [](const T& t) {
         return t.broadcast_to({2, 3});
       },
       row},
      {"broadcast_to (2, 1) -> (2, 3)",
       [](const T& t) {
         return t.broadcast_to({2, 3});
       },
       col},
      {"broadcast_to (2, 1) -> (4, 2, 3)",
       [](const T& t) {
         return t.broadcast_to({4, 2, 3});
       },
       col},
      {"broadcast_to () -> (2, 2)",
       [](const T& t) {
         return t.broadcast_to({2, 2});
       },
       s},
      {"tile (2, 1)",
       [](const T& t) {
         return t.tile({2, 1});
       },
       m},
      {"tile (1, 3)",
       [](const T& t) {
         return t.tile({1, 3});
       },
       m},
      {"tile (2, 2)",
       [](const T& t) {
         return t.tile({2, 2});
       },
       m},
      {"tile (2, 1, 3)",
       [](const T& t) {
         return ep::tile(t, {2, 1, 3});
       },
       x},
      {"tile (3,)", [](const T& t) { return t.tile({3}); }, row},
      {"flip()", [](const T& t) { return t.flip(); }, x},
      {"flip(0)", [](const T& t) { return t.flip(0); }, x},
      {"flip(-1)", [](const T& t) { return t.flip(-1); }, x},
      {"flip({0, 2})",
       [](const T& t) {
         return ep::flip(t, {0, 2});
       },
       x},
      {"pad constant",
       [](const T& t) {
         return t.pad({{1, 2}, {0, 1}});
       },
       m},
      {"pad constant 1.5",
       [](const T& t) {
         return t.pad({{0, 0}, {3, 1}}, "constant", 1.5);
       },
       m},
      {"pad constant rank 3",
       [](const T& t) {
         return ep::pad(t, {{1, 0}, {0, 2}, {1, 1}});
       },
       x},
      {"pad reflect",
       [](const T& t) {
         return t.pad({{1, 1}, {2, 1}}, "reflect");
       },
       m},
      {"pad reflect one side",
       [](const T& t) {
         return t.pad({{2, 0}, {0, 3}}, "reflect");
       },
       m},
      {"pad reflect rank 3",
       [](const T& t) {
         return t.pad({{1, 0}, {2, 2}, {0, 3}}, "reflect");
       },
       x},
      {"pad reflect 1-D",
       [](const T& t) {
         return t.pad({{2, 2}}, "reflect");
       },
       row},
  };
  for (const auto& [name, f, input] : cases) {
    const auto& op = f;  // a structured binding is not captured (clang 14)
    EXPECT_TRUE(ep::test::check_gradient([&](const T& t) { return weighted(op(t)); }, input))
        << name;
  }
}

TYPED_TEST_P(Autodiff, ConcatenateStackGradients) {
  using namespace autodiff_suite;
  using T = ep::Tensor<TypeParam>;
  const T x = random_tensor<TypeParam>({2, 3}, -1, 1, 51);
  const T a = random_tensor<TypeParam>({1, 3}, -1, 1, 52);
  const T b = random_tensor<TypeParam>({2, 4}, -1, 1, 53);
  const T c = random_tensor<TypeParam>({2, 3}, -1, 1, 54);
  // x appears twice: its two gradients must add up.
  EXPECT_TRUE(ep::test::check_gradient(
      [&](const T& t) {
        return weighted(ep::concatenate(std::vector<T>{t, a, t}, 0));
      },
      x))
      << "concatenate axis 0";
  EXPECT_TRUE(ep::test::check_gradient(
      [&](const T& t) {
        return weighted(ep::concatenate(std::vector<T>{b, t}, -1));
      },
      x))
      << "concatenate axis -1";
  EXPECT_TRUE(ep::test::check_gradient(
      [&](const T& t) {
        return weighted(ep::concatenate(std::vector<T>{t.square(), t}, 1));
      },
      x))
      << "concatenate of two functions of x";
  for (int axis : {0, 1, 2, -1}) {
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) {
          return weighted(ep::stack(std::vector<T>{t, c, t * 2}, axis));
        },
        x))
        << "stack axis " << axis;
  }
  // Exactly: each input gets its slice.
  const T y = ep::test::tensor<TypeParam>(values{1, 2}, {2});
  const T z = ep::test::tensor<TypeParam>(values{3, 4, 5}, {3});
  const T w = ep::test::tensor<TypeParam>(values{1, 2, 3, 4, 5}, {5});
  const auto [v, g] =
      ep::value_and_grad([&](const std::vector<T>& p) { return (ep::concatenate(p) * w).sum(); },
                         std::vector<T>{y, z});
  ep::test::expect_equal(v, {}, values{1 + 4 + 9 + 16 + 25});
  ASSERT_EQ(g.size(), 2u);
  ep::test::expect_equal(g[0], {2}, values{1, 2});
  ep::test::expect_equal(g[1], {3}, values{3, 4, 5});
}
