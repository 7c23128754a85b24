// eagerpp - the typed suite of shape ops: reshape flatten transpose squeeze expand_dims
// broadcast_to tile flip pad concatenate stack
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>  // std::reverse
#include <cstdint>    // std::int64_t
#include <vector>     // std::vector

#include <gtest/gtest.h>

#include "support/support.hpp"

// Expected values come from NumPy 1.24 (reshape, transpose, np.broadcast_to, np.tile, np.flip,
// np.pad, np.concatenate, np.stack) on the same inputs, mostly np.arange(n).reshape(shape), whose
// values make every misplaced element visible.
namespace shape_suite {

using ep::test::iota;
using ep::test::tensor;
using ep::test::values;
using ints = std::vector<std::int64_t>;

/// 0, 1, ..., n - 1.
inline values range(int n) {
  values v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return v;
}

}  // namespace shape_suite

EAGERPP_TYPED_SUITE(ShapeOps);

TYPED_TEST_P(ShapeOps, Reshape) {
  using namespace shape_suite;
  const auto a = iota<TypeParam>({2, 3, 4});
  ep::test::expect_equal(a.reshape({4, 6}), {4, 6}, range(24));
  ep::test::expect_equal(a.reshape({-1}), {24}, range(24));
  ep::test::expect_equal(a.reshape({3, -1}), {3, 8}, range(24));
  ep::test::expect_equal(a.reshape({2, -1, 2}), {2, 6, 2}, range(24));
  ep::test::expect_equal(ep::reshape(a, {-1, 4}), {6, 4}, range(24));
  ep::test::expect_equal(tensor<TypeParam>({7}, {1, 1}).reshape({}), {}, values{7});
  ep::test::expect_equal(tensor<TypeParam>({7}, {}).reshape({1, -1}), {1, 1}, values{7});
  ep::test::expect_equal(tensor<TypeParam>(values{}, {0, 3}).reshape({3, 0}), {3, 0}, values{});
  EXPECT_THROW((void)a.reshape({5, -1}), ep::value_error);
  EXPECT_THROW((void)a.reshape({-1, -1}), ep::value_error);
}

TYPED_TEST_P(ShapeOps, ReshapeRank6) {
  using namespace shape_suite;
  // A transpose first, so that the reshape must read the permuted elements in C order.
  const auto r = iota<TypeParam>({2, 3, 1, 2, 1, 2});
  const auto t = r.transpose({5, 3, 1, 0, 4, 2});
  const values expected{0, 12, 4, 16, 8, 20, 2, 14, 6, 18, 10, 22,
                        1, 13, 5, 17, 9, 21, 3, 15, 7, 19, 11, 23};
  ep::test::expect_equal(t.reshape({4, -1}), {4, 6}, expected);
  ep::test::expect_equal(t.reshape({1, 2, 1, 3, 2, 2}), {1, 2, 1, 3, 2, 2}, expected);
  ep::test::expect_equal(iota<TypeParam>({24}).reshape({2, 1, 3, 1, 2, 2}), {2, 1, 3, 1, 2, 2},
                         range(24));
}

TYPED_TEST_P(ShapeOps, Flatten) {
  using namespace shape_suite;
  const auto a = iota<TypeParam>({2, 3, 4});
  ep::test::expect_equal(a.flatten(), {24}, range(24));
  ep::test::expect_equal(a.flatten(1), {2, 12}, range(24));
  ep::test::expect_equal(a.flatten(0, 1), {6, 4}, range(24));
  ep::test::expect_equal(a.flatten(-2, -1), {2, 12}, range(24));
  ep::test::expect_equal(a.flatten(1, 1), {2, 3, 4}, range(24));
  ep::test::expect_equal(ep::flatten(a, 0, -2), {6, 4}, range(24));
  const auto t = iota<TypeParam>({2, 3}).T().flatten();
  ep::test::expect_equal(t, {6}, values{0, 3, 1, 4, 2, 5});
  EXPECT_THROW((void)a.flatten(2, 1), ep::value_error);
}

TYPED_TEST_P(ShapeOps, TransposeRank2) {
  using namespace shape_suite;
  const auto m = iota<TypeParam>({2, 3});
  ep::test::expect_equal(m.T(), {3, 2}, values{0, 3, 1, 4, 2, 5});
  ep::test::expect_equal(m.transpose(), {3, 2}, values{0, 3, 1, 4, 2, 5});
  ep::test::expect_equal(m.transpose({1, 0}), {3, 2}, values{0, 3, 1, 4, 2, 5});
  ep::test::expect_equal(m.transpose({0, 1}), {2, 3}, range(6));
  ep::test::expect_equal(m.T().T(), {2, 3}, range(6));
  ep::test::expect_equal(ep::transpose(m), {3, 2}, values{0, 3, 1, 4, 2, 5});
}

TYPED_TEST_P(ShapeOps, TransposeRank3) {
  using namespace shape_suite;
  const auto a = iota<TypeParam>({2, 3, 4});
  ep::test::expect_equal(
      a.transpose(), {4, 3, 2},
      values{0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23});
  ep::test::expect_equal(
      a.transpose({1, 0, 2}), {3, 2, 4},
      values{0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23});
  const values t201{0, 4, 8,  12, 16, 20, 1, 5, 9,  13, 17, 21,
                    2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23};
  ep::test::expect_equal(a.transpose({2, 0, 1}), {4, 2, 3}, t201);
  ep::test::expect_equal(a.transpose({-1, 0, 1}), {4, 2, 3}, t201);
  EXPECT_THROW((void)a.transpose({0, 1}), ep::value_error);
  EXPECT_THROW((void)a.transpose({0, 1, 1}), ep::value_error);
}

TYPED_TEST_P(ShapeOps, TransposeRank5) {
  using namespace shape_suite;
  const auto f = iota<TypeParam>({2, 1, 3, 2, 2});
  ep::test::expect_equal(
      f.transpose({4, 2, 0, 3, 1}), {2, 3, 2, 2, 1},
      values{0, 2, 12, 14, 4, 6, 16, 18, 8, 10, 20, 22, 1, 3, 13, 15, 5, 7, 17, 19, 9, 11, 21, 23});
  ep::test::expect_equal(f.T(), {2, 2, 3, 1, 2}, values{0, 12, 4, 16, 8, 20, 2, 14, 6, 18, 10, 22,
                                                        1, 13, 5, 17, 9, 21, 3, 15, 7, 19, 11, 23});
}

TYPED_TEST_P(ShapeOps, TransposeRank6) {
  using namespace shape_suite;
  const auto r = iota<TypeParam>({2, 3, 1, 2, 1, 2});
  const values expected{0, 12, 4, 16, 8, 20, 2, 14, 6, 18, 10, 22,
                        1, 13, 5, 17, 9, 21, 3, 15, 7, 19, 11, 23};
  ep::test::expect_equal(r.transpose({5, 3, 1, 0, 4, 2}), {2, 2, 3, 2, 1, 1}, expected);
  ep::test::expect_equal(r.T(), {2, 1, 2, 1, 3, 2}, expected);
  ep::test::expect_equal(r.T().T(), {2, 3, 1, 2, 1, 2}, range(24));
}

TYPED_TEST_P(ShapeOps, Squeeze) {
  using namespace shape_suite;
  const auto a = iota<TypeParam>({1, 3, 1, 2});
  ep::test::expect_equal(a.squeeze(), {3, 2}, range(6));
  ep::test::expect_equal(a.squeeze(0), {3, 1, 2}, range(6));
  ep::test::expect_equal(a.squeeze({0, 2}), {3, 2}, range(6));
  ep::test::expect_equal(a.squeeze(-2), {1, 3, 2}, range(6));
  ep::test::expect_equal(tensor<TypeParam>({4}, {1, 1}).squeeze(), {}, values{4});
  ep::test::expect_equal(iota<TypeParam>({2, 3}).squeeze(), {2, 3}, range(6));
  EXPECT_THROW((void)a.squeeze(1), ep::value_error);
}

TYPED_TEST_P(ShapeOps, ExpandDims) {
  using namespace shape_suite;
  const auto m = iota<TypeParam>({2, 3});
  ep::test::expect_equal(m.expand_dims(0), {1, 2, 3}, range(6));
  ep::test::expect_equal(m.expand_dims(1), {2, 1, 3}, range(6));
  ep::test::expect_equal(m.expand_dims(2), {2, 3, 1}, range(6));
  ep::test::expect_equal(m.expand_dims(-1), {2, 3, 1}, range(6));
  ep::test::expect_equal(m.expand_dims(-2), {2, 1, 3}, range(6));
  ep::test::expect_equal(m.expand_dims(-3), {1, 2, 3}, range(6));
  ep::test::expect_equal(tensor<TypeParam>({4}, {}).expand_dims(0), {1}, values{4});
  EXPECT_THROW((void)m.expand_dims(3), ep::value_error);
  EXPECT_THROW((void)m.expand_dims(-4), ep::value_error);
}

TYPED_TEST_P(ShapeOps, BroadcastTo) {
  using namespace shape_suite;
  ep::test::expect_equal(tensor<TypeParam>({1, 2, 3}, {3}).broadcast_to({2, 3}), {2, 3},
                         values{1, 2, 3, 1, 2, 3});
  const auto col = tensor<TypeParam>({1, 2}, {2, 1});
  ep::test::expect_equal(col.broadcast_to({2, 3}), {2, 3}, values{1, 1, 1, 2, 2, 2});
  ep::test::expect_equal(
      col.broadcast_to({3, 2, 4}), {3, 2, 4},
      values{1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2});
  ep::test::expect_equal(
      tensor<TypeParam>({1, 2, 3}, {1, 3}).broadcast_to({2, 4, 3}), {2, 4, 3},
      values{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3});
  ep::test::expect_equal(tensor<TypeParam>({5}, {}).broadcast_to({2, 2}), {2, 2},
                         values{5, 5, 5, 5});
  ep::test::expect_equal(tensor<TypeParam>({5}, {1}).broadcast_to({0, 3}), {0, 3}, values{});
  EXPECT_THROW((void)col.broadcast_to({3, 3}), ep::value_error);
}

TYPED_TEST_P(ShapeOps, Tile) {
  using namespace shape_suite;
  const auto m = iota<TypeParam>({2, 3});
  ep::test::expect_equal(m.tile({2, 1}), {4, 3}, values{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5});
  ep::test::expect_equal(m.tile({1, 3}), {2, 9},
                         values{0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 3, 4, 5});
  ep::test::expect_equal(m.tile({2, 2}), {4, 6}, values{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5,
                                                        0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5});
  ep::test::expect_equal(m.tile({0, 1}), {0, 3}, values{});
  ep::test::expect_equal(tensor<TypeParam>({1, 2, 3}, {3}).tile({3}), {9},
                         values{1, 2, 3, 1, 2, 3, 1, 2, 3});
  ep::test::expect_equal(iota<TypeParam>({2, 2, 2}).tile({2, 1, 2}), {4, 2, 4},
                         values{0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7,
                                0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7});
  EXPECT_THROW((void)m.tile({2}), ep::value_error);
}

TYPED_TEST_P(ShapeOps, Flip) {
  using namespace shape_suite;
  const auto a = iota<TypeParam>({2, 3, 4});
  values reversed = range(24);  // flipping every axis reverses the C order
  std::reverse(reversed.begin(), reversed.end());
  ep::test::expect_equal(a.flip(), {2, 3, 4}, reversed);
  ep::test::expect_equal(
      a.flip(1), {2, 3, 4},
      values{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23, 16, 17, 18, 19, 12, 13, 14, 15});
  ep::test::expect_equal(
      a.flip(-1), {2, 3, 4},
      values{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20});
  const values flip02{15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20,
                      3,  2,  1,  0,  7,  6,  5,  4,  11, 10, 9,  8};
  ep::test::expect_equal(a.flip({0, 2}), {2, 3, 4}, flip02);
  ep::test::expect_equal(ep::flip(a, {-1, 0}), {2, 3, 4}, flip02);
}

TYPED_TEST_P(ShapeOps, PadConstant) {
  using namespace shape_suite;
  const auto v = tensor<TypeParam>({1, 2, 3}, {3});
  ep::test::expect_equal(v.pad({{2, 1}}), {6}, values{0, 0, 1, 2, 3, 0});
  ep::test::expect_equal(v.pad({{2, 1}}, "constant", 9), {6}, values{9, 9, 1, 2, 3, 9});
  ep::test::expect_equal(iota<TypeParam>({2, 3}).pad({{1, 0}, {2, 1}}, "constant", -1), {3, 6},
                         values{-1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, -1, -1, -1, 3, 4, 5, -1});
  ep::test::expect_equal(
      ep::pad(iota<TypeParam>({2, 2, 2}), {{0, 1}, {1, 0}, {1, 1}}, "constant", 7), {3, 3, 4},
      values{7, 7, 7, 7, 7, 0, 1, 7, 7, 2, 3, 7, 7, 7, 7, 7, 7, 4,
             5, 7, 7, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7});
  EXPECT_THROW((void)v.pad({{1, 1}, {1, 1}}), ep::value_error);
  EXPECT_THROW((void)v.pad({{1, 1}}, "edge"), ep::value_error);
}

TYPED_TEST_P(ShapeOps, PadReflect) {
  using namespace shape_suite;
  ep::test::expect_equal(tensor<TypeParam>({1, 2, 3, 4}, {4}).pad({{2, 3}}, "reflect"), {9},
                         values{3, 2, 1, 2, 3, 4, 3, 2, 1});
  const auto q = iota<TypeParam>({3, 4});
  ep::test::expect_equal(q.pad({{1, 2}, {2, 1}}, "reflect"), {6, 7},
                         values{6,  5, 4, 5, 6,  7,  6,  2, 1, 0, 1, 2, 3, 2, 6, 5, 4, 5, 6, 7, 6,
                                10, 9, 8, 9, 10, 11, 10, 6, 5, 4, 5, 6, 7, 6, 2, 1, 0, 1, 2, 3, 2});
  ep::test::expect_equal(q.pad({{2, 0}, {0, 0}}, "reflect"), {5, 4},
                         values{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  EXPECT_THROW((void)q.pad({{3, 0}, {0, 0}}, "reflect"), ep::value_error);
}

TYPED_TEST_P(ShapeOps, PadReflectRank3) {
  using namespace shape_suite;
  // np.pad(np.arange(24).reshape(2, 3, 4), ((1, 1), (1, 2), (2, 1)), mode='reflect')
  const values expected{
      18, 17, 16, 17, 18, 19, 18, 14, 13, 12, 13, 14, 15, 14, 18, 17, 16, 17, 18, 19, 18,  //
      22, 21, 20, 21, 22, 23, 22, 18, 17, 16, 17, 18, 19, 18, 14, 13, 12, 13, 14, 15, 14,  //
      6,  5,  4,  5,  6,  7,  6,  2,  1,  0,  1,  2,  3,  2,  6,  5,  4,  5,  6,  7,  6,   //
      10, 9,  8,  9,  10, 11, 10, 6,  5,  4,  5,  6,  7,  6,  2,  1,  0,  1,  2,  3,  2,   //
      18, 17, 16, 17, 18, 19, 18, 14, 13, 12, 13, 14, 15, 14, 18, 17, 16, 17, 18, 19, 18,  //
      22, 21, 20, 21, 22, 23, 22, 18, 17, 16, 17, 18, 19, 18, 14, 13, 12, 13, 14, 15, 14,  //
      6,  5,  4,  5,  6,  7,  6,  2,  1,  0,  1,  2,  3,  2,  6,  5,  4,  5,  6,  7,  6,   //
      10, 9,  8,  9,  10, 11, 10, 6,  5,  4,  5,  6,  7,  6,  2,  1,  0,  1,  2,  3,  2};
  ep::test::expect_equal(iota<TypeParam>({2, 3, 4}).pad({{1, 1}, {1, 2}, {2, 1}}, "reflect"),
                         {4, 6, 7}, expected);
}

TYPED_TEST_P(ShapeOps, Concatenate) {
  using namespace shape_suite;
  const auto m = iota<TypeParam>({2, 3});
  ep::test::expect_equal(ep::concatenate<TypeParam>({m, tensor<TypeParam>({6, 7, 8}, {1, 3})}, 0),
                         {3, 3}, range(9));
  ep::test::expect_equal(
      ep::concatenate<TypeParam>({m, tensor<TypeParam>({6, 7, 8, 9}, {2, 2})}, 1), {2, 5},
      values{0, 1, 2, 6, 7, 3, 4, 5, 8, 9});
  const auto a = iota<TypeParam>({2, 2, 1});
  const auto b = tensor<TypeParam>({10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}, {2, 2, 3});
  ep::test::expect_equal(ep::concatenate<TypeParam>({a, b}, -1), {2, 2, 4},
                         values{0, 10, 11, 12, 1, 13, 14, 15, 2, 16, 17, 18, 3, 19, 20, 21});
  ep::test::expect_equal(
      ep::concatenate<TypeParam>({tensor<TypeParam>({1}, {1}), tensor<TypeParam>({2, 3}, {2}),
                                  tensor<TypeParam>({4, 5, 6}, {3})}),
      {6}, values{1, 2, 3, 4, 5, 6});
  ep::test::expect_equal(ep::concatenate<TypeParam>({m, tensor<TypeParam>(values{}, {0, 3})}, 0),
                         {2, 3}, range(6));
  EXPECT_THROW((void)ep::concatenate<TypeParam>({m, a}, 0), ep::value_error);
}

TYPED_TEST_P(ShapeOps, Stack) {
  using namespace shape_suite;
  const auto s1 = iota<TypeParam>({2, 3});
  const auto s2 = tensor<TypeParam>({10, 11, 12, 13, 14, 15}, {2, 3});
  const auto s3 = tensor<TypeParam>({20, 21, 22, 23, 24, 25}, {2, 3});
  ep::test::expect_equal(ep::stack<TypeParam>({s1, s2, s3}, 0), {3, 2, 3},
                         values{0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25});
  ep::test::expect_equal(ep::stack<TypeParam>({s1, s2, s3}), {3, 2, 3},
                         values{0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25});
  ep::test::expect_equal(ep::stack<TypeParam>({s1, s2, s3}, -1), {2, 3, 3},
                         values{0, 10, 20, 1, 11, 21, 2, 12, 22, 3, 13, 23, 4, 14, 24, 5, 15, 25});
  ep::test::expect_equal(ep::stack<TypeParam>({s1, s2, s3}, 1), {2, 3, 3},
                         values{0, 1, 2, 10, 11, 12, 20, 21, 22, 3, 4, 5, 13, 14, 15, 23, 24, 25});
  ep::test::expect_equal(
      ep::stack<TypeParam>({tensor<TypeParam>({1}, {}), tensor<TypeParam>({2}, {})}), {2},
      values{1, 2});
  EXPECT_THROW((void)ep::stack<TypeParam>({s1, s1.T()}), ep::value_error);
}

TYPED_TEST_P(ShapeOps, Int64) {
  using namespace shape_suite;
  using I64 = typename TypeParam::template rebind<std::int64_t>;
  // Values beyond float32's 24-bit and double's 53-bit mantissas would be lost by a detour through
  // float: 2^40 + 1 and -2^41 are kept exactly in int64 (and in the double comparison).
  const auto i =
      tensor<I64, std::int64_t>({1099511627777, -3, 7, 8589934592, 5, -34359738368}, {2, 3});
  ep::test::expect_equal(i.T(), {3, 2}, ints{1099511627777, 8589934592, -3, 5, 7, -34359738368});
  ep::test::expect_equal(i.reshape({3, -1}), {3, 2},
                         ints{1099511627777, -3, 7, 8589934592, 5, -34359738368});
  ep::test::expect_equal(i.flip(1), {2, 3},
                         ints{7, -3, 1099511627777, -34359738368, 5, 8589934592});
  ep::test::expect_equal(i.tile({1, 2}), {2, 6},
                         ints{1099511627777, -3, 7, 1099511627777, -3, 7, 8589934592, 5,
                              -34359738368, 8589934592, 5, -34359738368});
  ep::test::expect_equal(
      i.pad({{0, 1}, {1, 0}}, "constant", -2199023255552), {3, 4},
      ints{-2199023255552, 1099511627777, -3, 7, -2199023255552, 8589934592, 5, -34359738368,
           -2199023255552, -2199023255552, -2199023255552, -2199023255552});
  ep::test::expect_equal(
      i.pad({{0, 0}, {2, 1}}, "reflect"), {2, 6},
      ints{7, -3, 1099511627777, -3, 7, -3, -34359738368, 5, 8589934592, 5, -34359738368, 5});
  const auto first = tensor<I64, std::int64_t>({1099511627777, -3, 7}, {1, 3});
  ep::test::expect_equal(
      ep::concatenate<I64>({i, first}, 0), {3, 3},
      ints{1099511627777, -3, 7, 8589934592, 5, -34359738368, 1099511627777, -3, 7});
  const auto neg =
      tensor<I64, std::int64_t>({-1099511627777, 3, -7, -8589934592, -5, 34359738368}, {2, 3});
  ep::test::expect_equal(ep::stack<I64>({i, neg}, -1), {2, 3, 2},
                         ints{1099511627777, -1099511627777, -3, 3, 7, -7, 8589934592, -8589934592,
                              5, -5, -34359738368, 34359738368});
  ep::test::expect_equal(i.expand_dims(1).squeeze(), {2, 3},
                         ints{1099511627777, -3, 7, 8589934592, 5, -34359738368});
  ep::test::expect_equal(first.broadcast_to({2, 3}), {2, 3},
                         ints{1099511627777, -3, 7, 1099511627777, -3, 7});
}

TYPED_TEST_P(ShapeOps, Bool) {
  using namespace shape_suite;
  using Bool = typename TypeParam::template rebind<bool>;
  const auto b = tensor<Bool>({1, 0, 0, 1, 1, 0}, {2, 3});
  const auto nb = tensor<Bool>({0, 1, 1, 0, 0, 1}, {2, 3});
  ep::test::expect_equal(b.T(), {3, 2}, values{1, 1, 0, 1, 0, 0});
  ep::test::expect_equal(b.reshape({3, 2}).T(), {2, 3}, values{1, 0, 1, 0, 1, 0});
  ep::test::expect_equal(b.flip(), {2, 3}, values{0, 1, 1, 0, 0, 1});
  ep::test::expect_equal(ep::concatenate<Bool>({b, nb}, 1), {2, 6},
                         values{1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1});
  ep::test::expect_equal(ep::stack<Bool>({b, nb}), {2, 2, 3},
                         values{1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1});
  ep::test::expect_equal(tensor<Bool>({1, 0, 0}, {1, 3}).broadcast_to({3, 3}), {3, 3},
                         values{1, 0, 0, 1, 0, 0, 1, 0, 0});
  ep::test::expect_equal(b.tile({2, 1}), {4, 3}, values{1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0});
  ep::test::expect_equal(b.pad({{1, 0}, {0, 1}}, "constant", true), {3, 4},
                         values{1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 1});
  ep::test::expect_equal(b.expand_dims(-1).squeeze(), {2, 3}, values{1, 0, 0, 1, 1, 0});
}

REGISTER_TYPED_TEST_SUITE_P(ShapeOps, Reshape, ReshapeRank6, Flatten, TransposeRank2,
                            TransposeRank3, TransposeRank5, TransposeRank6, Squeeze, ExpandDims,
                            BroadcastTo, Tile, Flip, PadConstant, PadReflect, PadReflectRank3,
                            Concatenate, Stack, Int64, Bool);
