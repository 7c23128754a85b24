// eagerpp - the typed suite of indexing and selection: t(...) with integers, slices, newaxis,
// ellipsis, index tensors and masks; index_update; iteration and len; sort, argsort, topk,
// take_along_axis
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::nan
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <optional>     // std::nullopt
#include <type_traits>  // std::is_same_v
#include <vector>       // std::vector

#include <gtest/gtest.h>

#include "support/gradcheck.hpp"
#include "support/support.hpp"

// Expected values come from NumPy 1.24 on the same inputs, mostly x = np.arange(24).reshape(2, 3,
// 4): x[...] with the same index for indexing, `y = x.copy(); y[...] = v` for index_update, np.sort
// / np.argsort(kind="stable") for sort, np.take_along_axis, and for topk (PyTorch's op) idx =
// np.argsort(-a, axis, kind="stable")[:k] along the axis, values = np.take_along_axis(a, idx,
// axis). All inputs are small integers, so every comparison is exact.
namespace indexing_suite {

using ep::test::iota;
using ep::test::tensor;
using ep::test::values;

/// An int64 tensor of B's family.
template <class B>
auto indices(const std::vector<std::int64_t>& v, const ep::Shape& shape) {
  return ep::from_vector<typename B::template rebind<std::int64_t>>(v, shape);
}

/// A bool tensor of B's family.
template <class B>
auto mask(const std::vector<bool>& v, const ep::Shape& shape) {
  return ep::from_vector<typename B::template rebind<bool>>(v, shape);
}

/// sum(y * w) for fixed weights w = 1, 2, 3, ... (a scalar whose gradient depends on every
/// element).
template <class B>
ep::Tensor<B> weighted(const ep::Tensor<B>& y) {
  values w;
  for (std::int64_t i = 0; i < y.size(); ++i) w.push_back(static_cast<double>(i % 7) + 1);
  return (y * tensor<B>(w, y.shape())).sum();
}

}  // namespace indexing_suite

EAGERPP_TYPED_SUITE(Indexing);

TYPED_TEST_P(Indexing, IntegersAndNegativeIntegers) {
  using namespace indexing_suite;
  const auto x = iota<TypeParam>({2, 3, 4});
  ep::test::expect_equal(x(-1), {3, 4}, values{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23});
  ep::test::expect_equal(x[1], {3, 4}, values{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23});
  ep::test::expect_equal(x(0, -1, 1), {}, values{9});
  ep::test::expect_equal(x(1, 2, -4), {}, values{20});
  ep::test::expect_equal(x(0, -3), {4}, values{0, 1, 2, 3});
  // Rank 5: x5 = np.arange(32).reshape(2, 2, 2, 2, 2); x5[1, :, -1, 0] -> [[20, 21], [28, 29]].
  ep::test::expect_equal(iota<TypeParam>({2, 2, 2, 2, 2})(1, ep::slice(), -1, 0), {2, 2},
                         values{20, 21, 28, 29});
}

TYPED_TEST_P(Indexing, SlicesWithSteps) {
  using namespace indexing_suite;
  const auto x = iota<TypeParam>({2, 3, 4});
  ep::test::expect_equal(x(1, ep::slice(), ep::slice(std::nullopt, std::nullopt, 2)), {3, 2},
                         values{12, 14, 16, 18, 20, 22});
  ep::test::expect_equal(
      x(ep::slice(), ep::slice(std::nullopt, std::nullopt, -1), ep::slice(1, std::nullopt, 2)),
      {2, 3, 2}, values{9, 11, 5, 7, 1, 3, 21, 23, 17, 19, 13, 15});
  const ep::slice rev(std::nullopt, std::nullopt, -1);
  ep::test::expect_equal(
      x(rev, rev, rev), {2, 3, 4},
      values{23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  // x[:, 2:0:-1, -1:0:-2]
  ep::test::expect_equal(x(ep::slice(), ep::slice(2, 0, -1), ep::slice(-1, 0, -2)), {2, 2, 2},
                         values{11, 9, 7, 5, 23, 21, 19, 17});
  ep::test::expect_equal(x(0, rev), {3, 4}, values{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3});
  // Out-of-range slice ends clamp, as in Python: x[:, 5:] is empty, x[0, -10:10, 3] the whole
  // column.
  ep::test::expect_equal(x(ep::slice(), ep::slice(5, std::nullopt)), {2, 0, 4}, values{});
  ep::test::expect_equal(x(0, ep::slice(-10, 10), 3), {3}, values{3, 7, 11});
  // A slice of a (0, 3) tensor stays empty.
  ep::test::expect_equal(iota<TypeParam>({0, 3})(ep::slice(), ep::slice(1, std::nullopt)), {0, 2},
                         values{});
  EXPECT_THROW((void)x(ep::slice(0, 2, 0)), ep::value_error);
}

TYPED_TEST_P(Indexing, NewaxisAndEllipsis) {
  using namespace indexing_suite;
  const auto x = iota<TypeParam>({2, 3, 4});
  ep::test::expect_equal(x(ep::ellipsis, 1), {2, 3}, values{1, 5, 9, 13, 17, 21});
  ep::test::expect_equal(x(1, ep::ellipsis), {3, 4},
                         values{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23});
  ep::test::expect_equal(x(ep::newaxis, ep::slice(), 1), {1, 2, 4},
                         values{4, 5, 6, 7, 16, 17, 18, 19});
  EXPECT_EQ(x(ep::slice(), ep::newaxis, ep::ellipsis, ep::newaxis).shape(),
            (ep::Shape{2, 1, 3, 4, 1}));
  EXPECT_EQ(x(ep::ellipsis).shape(), (ep::Shape{2, 3, 4}));
  // A 0-d tensor: x0[None] has shape (1,), x0[...] shape ().
  const auto x0 = tensor<TypeParam>(values{7}, {});
  ep::test::expect_equal(x0(ep::newaxis), {1}, values{7});
  ep::test::expect_equal(x0(ep::ellipsis), {}, values{7});
  EXPECT_THROW((void)x(ep::ellipsis, 0, ep::ellipsis), ep::index_error);
}

TYPED_TEST_P(Indexing, IndexTensors) {
  using namespace indexing_suite;
  const auto x = iota<TypeParam>({2, 3, 4});
  const auto i = indices<TypeParam>({2, 0, -1}, {3});
  ep::test::expect_equal(x(ep::slice(), i), {2, 3, 4},
                         values{8,  9,  10, 11, 0,  1,  2,  3,  8,  9,  10, 11,
                                20, 21, 22, 23, 12, 13, 14, 15, 20, 21, 22, 23});
  ep::test::expect_equal(x(1, i), {3, 4}, values{20, 21, 22, 23, 12, 13, 14, 15, 20, 21, 22, 23});
  ep::test::expect_equal(x(ep::ellipsis, i), {2, 3, 3},
                         values{2, 0, 3, 6, 4, 7, 10, 8, 11, 14, 12, 15, 18, 16, 19, 22, 20, 23});
  // Gather from 1-D, with a 2-D index: the result takes the index's shape.
  const auto v = tensor<TypeParam>(values{10, 11, 12, 13, 14}, {5});
  ep::test::expect_equal(v[indices<TypeParam>({4, 0, -2, 1}, {2, 2})], {2, 2},
                         values{14, 10, 13, 11});
  // int32 indices work too.
  const auto i32 = ep::from_vector<typename TypeParam::template rebind<std::int32_t>>({3, -5}, {2});
  ep::test::expect_equal(v[i32], {2}, values{13, 10});
  // An empty index gives an empty result.
  ep::test::expect_equal(v[indices<TypeParam>({}, {0})], {0}, values{});
}

TYPED_TEST_P(Indexing, BroadcastIndexTensors) {
  using namespace indexing_suite;
  const auto x = iota<TypeParam>({2, 3, 4});
  const auto a = indices<TypeParam>({0, 1}, {2, 1});
  const auto b = indices<TypeParam>({1, 3, 0}, {3});
  // Non-adjacent advanced indices: the broadcast axes go first (x[a, :, b] has shape (2, 3, 3)).
  ep::test::expect_equal(x(a, ep::slice(), b), {2, 3, 3},
                         values{1, 5, 9, 3, 7, 11, 0, 4, 8, 13, 17, 21, 15, 19, 23, 12, 16, 20});
  // An integer counts as an advanced index: x[0, :, b] has shape (3, 3), not (3, 3) transposed.
  ep::test::expect_equal(x(0, ep::slice(), b), {3, 3}, values{1, 5, 9, 3, 7, 11, 0, 4, 8});
  ep::test::expect_equal(x(0, ep::slice(), indices<TypeParam>({2, 0, -1}, {3})), {3, 3},
                         values{2, 6, 10, 0, 4, 8, 3, 7, 11});
  // Adjacent advanced indices keep their place: x[:, a, b] has shape (2, 2, 3).
  ep::test::expect_equal(x(ep::slice(), a, b), {2, 2, 3},
                         values{1, 3, 0, 5, 7, 4, 13, 15, 12, 17, 19, 16});
  // All three axes advanced (the integer broadcasts): x[a, 1, b] has shape (2, 3).
  ep::test::expect_equal(x(a, 1, b), {2, 3}, values{5, 7, 4, 17, 19, 16});
  // Shapes that do not broadcast.
  EXPECT_THROW((void)x(indices<TypeParam>({0, 1}, {2}), ep::slice(), b), ep::value_error);
}

TYPED_TEST_P(Indexing, BoolMasks) {
  using namespace indexing_suite;
  const auto x = iota<TypeParam>({2, 3, 4});
  // Full-shape mask: x[x % 3 == 0].
  const auto m = (x.mod(3) == 0);
  ep::test::expect_equal(x[m], {8}, values{0, 3, 6, 9, 12, 15, 18, 21});
  // A mask over the leading two axes.
  const auto m2 = mask<TypeParam>({true, false, true, false, true, false}, {2, 3});
  ep::test::expect_equal(x[m2], {3, 4}, values{0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19});
  ep::test::expect_equal(x[mask<TypeParam>({true, false}, {2})], {1, 3, 4},
                         values{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  // A mask on a later axis: x[:, [False, True, True]].
  ep::test::expect_equal(x(ep::slice(), mask<TypeParam>({false, true, true}, {3})), {2, 2, 4},
                         values{4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23});
  // All false: empty.
  ep::test::expect_equal(x[x > 100], {0}, values{});
}

TYPED_TEST_P(Indexing, IndexUpdate) {
  using namespace indexing_suite;
  const auto x = iota<TypeParam>({3, 4});
  ep::test::expect_equal(x.index_update(ep::index(1), -1), {3, 4},
                         values{0, 1, 2, 3, -1, -1, -1, -1, 8, 9, 10, 11});
  ep::test::expect_equal(
      x.index_update(ep::index(ep::slice(), 2), tensor<TypeParam>(values{7, 8, 9}, {3})), {3, 4},
      values{0, 1, 7, 3, 4, 5, 8, 7, 8, 9, 9, 11});
  ep::test::expect_equal(x.index_update(ep::index(ep::slice(), 2), 5), {3, 4},
                         values{0, 1, 5, 3, 4, 5, 5, 7, 8, 9, 5, 11});
  ep::test::expect_equal(
      x.index_update(ep::index(indices<TypeParam>({0, 2}, {2}), indices<TypeParam>({3, -4}, {2})),
                     tensor<TypeParam>(values{-5, -6}, {2})),
      {3, 4}, values{0, 1, 2, -5, 4, 5, 6, 7, -6, 9, 10, 11});
  ep::test::expect_equal(x.index_update(ep::index(1, ep::slice(std::nullopt, std::nullopt, 2)),
                                        tensor<TypeParam>(values{10, 20}, {2})),
                         {3, 4}, values{0, 1, 2, 3, 10, 5, 20, 7, 8, 9, 10, 11});
  ep::test::expect_equal(x.index_update(ep::index(x > 6), 0), {3, 4},
                         values{0, 1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0});
  ep::test::expect_equal(
      x.index_update(ep::index(ep::ellipsis, -1), tensor<TypeParam>(values{1, 2, 3}, {3})), {3, 4},
      values{0, 1, 2, 1, 4, 5, 6, 2, 8, 9, 10, 3});
  // The input is unchanged.
  ep::test::expect_equal(x, {3, 4}, values{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  EXPECT_THROW((void)x.index_update(ep::index(5), 0), ep::index_error);
  // Boxes of a 3-D tensor (only the elements outside the box are copied from x): rows inside and
  // outside the box, a box reaching the end of its rows.
  const auto z = iota<TypeParam>({2, 3, 4});
  ep::test::expect_equal(
      z.index_update(ep::index(ep::slice(), ep::slice(1, 3), ep::slice(1, 3)),
                     tensor<TypeParam>(values{-1, -2, -3, -4, -5, -6, -7, -8}, {2, 2, 2})),
      {2, 3, 4}, values{0,  1,  2,  3,  4,  -1, -2, 7,  8,  -3, -4, 11,
                        12, 13, 14, 15, 16, -5, -6, 19, 20, -7, -8, 23});
  ep::test::expect_equal(
      z.index_update(ep::index(1, ep::slice(0, 2), ep::slice(1, 4)), 0), {2, 3, 4},
      values{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 16, 0, 0, 0, 20, 21, 22, 23});
}

TYPED_TEST_P(Indexing, IterationAndLen) {
  using namespace indexing_suite;
  const auto x = iota<TypeParam>({3, 2});
  EXPECT_EQ(ep::len(x), 3);
  EXPECT_EQ(ep::len(iota<TypeParam>({0, 3})), 0);
  std::vector<values> rows;
  for (auto row : x) {
    EXPECT_EQ(row.shape(), (ep::Shape{2}));
    values r;
    for (auto e : row.to_vector()) r.push_back(static_cast<double>(e));
    rows.push_back(r);
  }
  EXPECT_EQ(rows, (std::vector<values>{{0, 1}, {2, 3}, {4, 5}}));
  int n = 0;
  for (auto row : iota<TypeParam>({0, 3})) {
    (void)row;
    ++n;
  }
  EXPECT_EQ(n, 0);
  EXPECT_THROW((void)ep::len(tensor<TypeParam>(values{1}, {})), ep::value_error);
}

TYPED_TEST_P(Indexing, SortAndArgsort) {
  using namespace indexing_suite;
  const auto s = tensor<TypeParam>(values{3, 1, 2, 1, 0, -2, 5, -2, 4, 4, -1, 0}, {3, 4});
  ep::test::expect_equal(s.sort(0), {3, 4}, values{0, -2, -1, -2, 3, 1, 2, 0, 4, 4, 5, 1});
  ep::test::expect_equal(s.sort(1), {3, 4}, values{1, 1, 2, 3, -2, -2, 0, 5, -1, 0, 4, 4});
  ep::test::expect_equal(s.sort(), {3, 4}, values{1, 1, 2, 3, -2, -2, 0, 5, -1, 0, 4, 4});
  ep::test::expect_equal(s.argsort(0), {3, 4}, values{1, 1, 2, 1, 0, 0, 0, 2, 2, 2, 1, 0});
  ep::test::expect_equal(s.argsort(1), {3, 4},
                         values{1, 3, 2, 0, 1, 3, 0, 2, 2, 3, 0, 1});  // stable
  ep::test::expect_equal(s.argsort(-1), {3, 4}, values{1, 3, 2, 0, 1, 3, 0, 2, 2, 3, 0, 1});
  // Rank 3, the middle axis and the first.
  const auto r = tensor<TypeParam>(values{5, 3, 5, 1, 3, 5, 0, 2}, {2, 2, 2});
  ep::test::expect_equal(r.sort(-1), {2, 2, 2}, values{3, 5, 1, 5, 3, 5, 0, 2});
  ep::test::expect_equal(r.sort(1), {2, 2, 2}, values{5, 1, 5, 3, 0, 2, 3, 5});
  ep::test::expect_equal(r.argsort(0), {2, 2, 2}, values{1, 0, 1, 0, 0, 1, 0, 1});
  // NaN sorts last (after inf), in order of appearance.
  const double nan = std::numeric_limits<double>::quiet_NaN(),
               inf = std::numeric_limits<double>::infinity();
  const auto n = tensor<TypeParam>(values{3, nan, 1, -inf, nan, 2}, {6});
  ep::test::expect_equal(n.sort(), {6}, values{-inf, 1, 2, 3, nan, nan});
  ep::test::expect_equal(n.argsort(), {6}, values{3, 2, 5, 0, 1, 4});
  ep::test::expect_equal(tensor<TypeParam>(values{1, nan, inf}, {3}).argsort(), {3},
                         values{0, 2, 1});
  // Empty and 0-d.
  ep::test::expect_equal(iota<TypeParam>({0, 3}).sort(0), {0, 3}, values{});
  EXPECT_THROW((void)s.sort(2), ep::value_error);
}

TYPED_TEST_P(Indexing, Topk) {
  using namespace indexing_suite;
  const auto t = tensor<TypeParam>(values{1, 5, 3, 5, 2, 9, 0, 9, 4, 7}, {2, 5});
  {
    const auto [v, i] = t.topk(3);
    ep::test::expect_equal(v, {2, 3}, values{5, 5, 3, 9, 9, 7});
    ep::test::expect_equal(i, {2, 3}, values{1, 3, 2, 0, 2, 4});
  }
  {
    const auto [v, i] = t.topk(1, true, 0);
    ep::test::expect_equal(v, {1, 5}, values{9, 5, 9, 5, 7});
    ep::test::expect_equal(i, {1, 5}, values{1, 0, 1, 0, 1});
  }
  {
    const auto [v, i] = t.topk(2, true, 0);
    ep::test::expect_equal(v, {2, 5}, values{9, 5, 9, 5, 7, 1, 0, 3, 4, 2});
    ep::test::expect_equal(i, {2, 5}, values{1, 0, 1, 0, 1, 0, 1, 0, 1, 0});
  }
  {
    const auto [v, i] = t.topk(0);
    ep::test::expect_equal(v, {2, 0}, values{});
    ep::test::expect_equal(i, {2, 0}, values{});
  }
}

TYPED_TEST_P(Indexing, TakeAlongAxis) {
  using namespace indexing_suite;
  const auto a = iota<TypeParam>({3, 4}) * 10;
  ep::test::expect_equal(a.take_along_axis(indices<TypeParam>({2, 0, 1, -1}, {1, 4}), 0), {1, 4},
                         values{80, 10, 60, 110});
  ep::test::expect_equal(a.take_along_axis(indices<TypeParam>({3, 0, 1, 1, 0, 2}, {3, 2}), 1),
                         {3, 2}, values{30, 0, 50, 50, 80, 100});
  ep::test::expect_equal(a.take_along_axis(indices<TypeParam>({3, 0, 1, 1, 0, 2}, {3, 2}), -1),
                         {3, 2}, values{30, 0, 50, 50, 80, 100});
  // The index broadcasts on the other axes: (1, 2) against (3, 4) along axis 1.
  ep::test::expect_equal(a.take_along_axis(indices<TypeParam>({3, -1}, {1, 2}), 1), {3, 2},
                         values{30, 30, 70, 70, 110, 110});
  const auto b = iota<TypeParam>({2, 3, 4});
  ep::test::expect_equal(b.take_along_axis(indices<TypeParam>({1, 0, 3}, {1, 3, 1}), 2), {2, 3, 1},
                         values{1, 4, 11, 13, 16, 23});
  ep::test::expect_equal(b.take_along_axis(indices<TypeParam>({2, 1, 0, 2}, {1, 1, 4}), 1),
                         {2, 1, 4}, values{8, 5, 2, 11, 20, 17, 14, 23});
  // take_along_axis(argsort) is sort.
  const auto s = tensor<TypeParam>(values{3, 1, 2, 1, 0, -2, 5, -2, 4, 4, -1, 0}, {3, 4});
  ep::test::expect_equal(s.take_along_axis(s.argsort(0), 0), {3, 4},
                         values{0, -2, -1, -2, 3, 1, 2, 0, 4, 4, 5, 1});
}

TYPED_TEST_P(Indexing, BadInput) {
  using namespace indexing_suite;
  const auto x = iota<TypeParam>({2, 3, 4});
  // Out of range: the message names the index, the axis and the size.
  ep::test::expect_throws_with<ep::index_error>([&] { (void)x(0, 3); },
                                                {"index 3", "axis 1", "size 3"});
  ep::test::expect_throws_with<ep::index_error>([&] { (void)x(-3); },
                                                {"index -3", "axis 0", "size 2"});
  ep::test::expect_throws_with<ep::index_error>(
      [&] {
        (void)x(ep::slice(), ep::slice(), indices<TypeParam>({0, 4}, {2}));
      },
      {"index 4", "axis 2", "size 4"});
  ep::test::expect_throws_with<ep::index_error>([&] { (void)x(indices<TypeParam>({-3}, {1})); },
                                                {"index -3", "axis 0", "size 2"});
  // Too many indices.
  ep::test::expect_throws_with<ep::index_error>([&] { (void)x(0, 0, 0, 0); }, {"too many indices"});
  EXPECT_THROW((void)tensor<TypeParam>(values{1}, {})(0), ep::index_error);
  // A mask of the wrong shape.
  EXPECT_THROW((void)x[mask<TypeParam>({true, false, true}, {3})], ep::index_error);
  EXPECT_THROW((void)x[mask<TypeParam>({true, false, true, false, true, false}, {3, 2})],
               ep::index_error);
  // topk: k larger than the axis.
  const auto t = iota<TypeParam>({2, 5});
  ep::test::expect_throws_with<ep::value_error>([&] { (void)t.topk(6); }, {"k = 6"});
  EXPECT_THROW((void)t.topk(3, true, 0), ep::value_error);
  // take_along_axis: another rank, or an index out of range.
  EXPECT_THROW((void)t.take_along_axis(indices<TypeParam>({0, 1}, {2}), 1), ep::value_error);
  EXPECT_THROW((void)t.take_along_axis(indices<TypeParam>({0, 1}, {2, 1}), 2), ep::value_error);
  EXPECT_THROW((void)t.take_along_axis(indices<TypeParam>({0, 5}, {2, 1}), 1), ep::index_error);
}

TYPED_TEST_P(Indexing, Gradients) {
  using namespace indexing_suite;
  // Finite differences need double's digits: a float backend checks its double sibling (rebind).
  using D = typename TypeParam::template rebind<double>;
  {
    using T = ep::Tensor<D>;
    const T x = tensor<D>(ep::test::random_values(24, -2, 2, 11), {2, 3, 4});
    const ep::slice rev(std::nullopt, std::nullopt, -1);
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) { return weighted(t(ep::slice(), rev, ep::slice(1, std::nullopt, 2))); },
        x))
        << "slices with steps";
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(t(1, ep::slice(), -1)); }, x))
        << "integers";
    const auto a = indices<D>({0, 1, 1}, {3, 1});
    const auto b = indices<D>({1, 3, 1}, {3});  // repeated: the gradient adds up
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(t(a, ep::slice(), b)); }, x))
        << "gather with index tensors";
    EXPECT_TRUE(
        ep::test::check_gradient([&](const T& t) { return weighted(t(ep::slice(), a, b)); }, x))
        << "gather with adjacent index tensors";
    EXPECT_TRUE(ep::test::check_gradient([&](const T& t) { return weighted(t[x > 0]); }, x))
        << "mask";
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) {
          return weighted(t[mask<D>({true, false, true, false, true, true}, {2, 3})]);
        },
        x))
        << "leading-axes mask";
    // index_update: with respect to x (the overwritten elements get 0) and to the values.
    const T m = tensor<D>(ep::test::random_values(12, -2, 2, 12), {3, 4});
    const T v = tensor<D>(values{0.5, -1.5, 2.5}, {3});
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) { return weighted(t.index_update(ep::index(ep::slice(), 2), v)); }, m))
        << "index_update, d/dx";
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& u) { return weighted(m.index_update(ep::index(ep::slice(), 2), u)); }, v))
        << "index_update, d/dvalues";
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& u) {
          return weighted(
              m.index_update(ep::index(indices<D>({0, 2}, {2}), indices<D>({3, -4}, {2})), u));
        },
        tensor<D>(values{0.25, -0.75}, {2})))
        << "index_update with index tensors, d/dvalues";
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) { return weighted(t.index_update(ep::index(1), 3.0)); }, m))
        << "index_update with a scalar, d/dx";
    // sort, topk and take_along_axis (distinct random values: no ties).
    for (int axis : {0, 1, -1}) {
      EXPECT_TRUE(ep::test::check_gradient([&](const T& t) { return weighted(t.sort(axis)); }, x))
          << "sort, axis " << axis;
      EXPECT_TRUE(ep::test::check_gradient(
          [&](const T& t) { return weighted(t.topk(2, true, axis).first); }, x))
          << "topk values, axis " << axis;
    }
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) {
          return weighted(t.take_along_axis(indices<D>({3, 0, 3, 1, 2, 2}, {1, 3, 2}), 2));
        },
        x))
        << "take_along_axis, axis 2";
    EXPECT_TRUE(ep::test::check_gradient(
        [&](const T& t) {
          return weighted(t.take_along_axis(indices<D>({1, 1, 0, 1}, {1, 1, 4}), 0));
        },
        x))
        << "take_along_axis, axis 0";
  }
}

REGISTER_TYPED_TEST_SUITE_P(Indexing, IntegersAndNegativeIntegers, SlicesWithSteps,
                            NewaxisAndEllipsis, IndexTensors, BroadcastIndexTensors, BoolMasks,
                            IndexUpdate, IterationAndLen, SortAndArgsort, Topk, TakeAlongAxis,
                            BadInput, Gradients);
