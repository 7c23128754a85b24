// eagerpp - typed tests of bad input: each throws ep::value_error naming the op and the shapes or
// axes
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>     // std::int64_t, std::uint64_t
#include <functional>  // std::function
#include <new>         // std::bad_alloc
#include <stdexcept>   // std::invalid_argument
#include <string>      // std::string
#include <vector>      // std::vector

#include <gtest/gtest.h>

#include "support/support.hpp"

// The facade validates every argument before it calls a backend, so each case below must throw the
// same ep::value_error on every backend, and must never reach a backend (in a Debug build an Eigen
// or xtensor assertion would abort the binary: a test that completes shows that it did not).

EAGERPP_TYPED_SUITE(Errors);

namespace errors_test {

/// Expects `f` to throw an ep::value_error, which is also an ep::error and a std::invalid_argument,
/// whose message contains every string in `parts`.
inline void expect_value_error(const std::function<void()>& f,
                               const std::vector<std::string>& parts) {
  ep::test::expect_throws_with<ep::value_error>(f, parts);
  ep::test::expect_throws_with<ep::error>(f, parts);
  ep::test::expect_throws_with<std::invalid_argument>(f, parts);
}

/// A (2, 3) tensor of backend B: [[0, 1, 2], [3, 4, 5]].
template <class B>
ep::Tensor<B> matrix() {
  return ep::test::tensor<B>(std::vector<double>{0, 1, 2, 3, 4, 5}, {2, 3});
}

}  // namespace errors_test

TYPED_TEST_P(Errors, BroadcastingMismatchNamesOpAndShapes) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto a = errors_test::matrix<B>();
  const auto b = ep::test::tensor<B>(std::vector<double>{1, 2, 3, 4}, {4});
  expect_value_error([&] { (void)(a + b); }, {"add", "(2, 3)", "(4,)"});
  expect_value_error([&] { (void)(a - b); }, {"subtract", "(2, 3)", "(4,)"});
  expect_value_error([&] { (void)(b * a); }, {"multiply", "(4,)", "(2, 3)"});
  expect_value_error([&] { (void)(a / b); }, {"divide", "(2, 3)", "(4,)"});
  expect_value_error([&] { (void)a.floordiv(b); }, {"floordiv", "(2, 3)", "(4,)"});
  expect_value_error([&] { (void)(a % b); }, {"mod", "(2, 3)", "(4,)"});
  expect_value_error([&] { (void)a.pow(b); }, {"pow", "(2, 3)", "(4,)"});
  expect_value_error([&] { (void)a.minimum(b); }, {"minimum", "(2, 3)", "(4,)"});
  expect_value_error([&] { (void)ep::maximum(a, b); }, {"maximum", "(2, 3)", "(4,)"});
  expect_value_error([&] { (void)(a < b); }, {"less", "(2, 3)", "(4,)"});
  expect_value_error([&] { (void)(a == b); }, {"equal", "(2, 3)", "(4,)"});
  // (2, 3) against (3, 2): trailing axes 3 and 2 differ.
  const auto c = ep::test::tensor<B>(std::vector<double>{0, 1, 2, 3, 4, 5}, {3, 2});
  expect_value_error([&] { (void)(a + c); }, {"add", "(2, 3)", "(3, 2)"});
  // Bool tensors.
  using Bo = typename B::template rebind<bool>;
  const auto p = ep::from_vector<Bo>({true, false, true});
  const auto q = ep::from_vector<Bo>({true, false});
  expect_value_error([&] { (void)p.logical_and(q); }, {"logical_and", "(3,)", "(2,)"});
  expect_value_error([&] { (void)ep::logical_or(p, q); }, {"logical_or", "(3,)", "(2,)"});
}

TYPED_TEST_P(Errors, AxisOutOfRangeNamesOpAxisAndShape) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto a = errors_test::matrix<B>();
  expect_value_error([&] { (void)a.sum(3); }, {"sum", "axis 3", "(2, 3)"});
  expect_value_error([&] { (void)a.sum(-3); }, {"sum", "axis -3", "(2, 3)"});
  expect_value_error([&] { (void)a.sum({0, 3}, true); }, {"sum", "axis 3", "(2, 3)"});
  expect_value_error([&] { (void)a.mean(3); }, {"mean", "axis 3", "(2, 3)"});
  expect_value_error([&] { (void)a.prod(2); }, {"prod", "axis 2", "(2, 3)"});
  expect_value_error([&] { (void)a.min(3); }, {"min", "axis 3", "(2, 3)"});
  expect_value_error([&] { (void)a.max(-3); }, {"max", "axis -3", "(2, 3)"});
  expect_value_error([&] { (void)a.argmax(3); }, {"argmax", "axis 3", "(2, 3)"});
  expect_value_error([&] { (void)a.argmin(-3); }, {"argmin", "axis -3", "(2, 3)"});
  expect_value_error([&] { (void)a.cumsum(3); }, {"cumsum", "axis 3", "(2, 3)"});
  expect_value_error([&] { (void)a.logsumexp(3); }, {"logsumexp", "axis 3", "(2, 3)"});
  expect_value_error([&] { (void)a.squeeze(3); }, {"squeeze", "axis 3", "(2, 3)"});
  expect_value_error([&] { (void)a.flip(3); }, {"flip", "axis 3", "(2, 3)"});
  // expand_dims counts the axes of the result: -3 <= axis < 3 for a (2, 3) tensor.
  expect_value_error([&] { (void)a.expand_dims(4); }, {"expand_dims", "axis 4", "(2, 3)"});
  expect_value_error([&] { (void)a.expand_dims(-4); }, {"expand_dims", "axis -4", "(2, 3)"});
  // A 0-d tensor has no axis at all.
  const auto s = ep::from_vector<B>({1}, ep::Shape{});
  expect_value_error([&] { (void)s.sum(0); }, {"sum", "axis 0", "()"});
  expect_value_error([&] { (void)s.softmax(0); }, {"softmax", "axis 0", "()"});
  expect_value_error([&] { (void)a.log_softmax(2); }, {"log_softmax", "axis 2", "(2, 3)"});
  // Errors name the op called, not the op it is written with (expand_dims, logsumexp,
  // broadcast_to).
  expect_value_error(
      [&] {
        (void)ep::stack({a, a}, 3);
      },
      {"stack", "axis 3", "(2, 3)", "-3 <= axis < 3"});
  expect_value_error([&] { (void)a.index_update(ep::index(0), a.zeros_like()); },
                     {"index_update", "(2, 3)", "(3,)"});
}

TYPED_TEST_P(Errors, RepeatedAxisIsRejected) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto a = errors_test::matrix<B>();
  expect_value_error([&] { (void)a.sum({0, 0}); }, {"sum", "repeated axis", "(2, 3)"});
  // 1 and -1 name the same axis of a (2, 3) tensor.
  expect_value_error([&] { (void)a.max({1, -1}); }, {"max", "repeated axis", "(2, 3)"});
  expect_value_error([&] { (void)a.flip({0, -2}); }, {"flip", "repeated axis", "(2, 3)"});
}

TYPED_TEST_P(Errors, ReshapeToWrongSize) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto a = errors_test::matrix<B>();
  expect_value_error([&] { (void)a.reshape({4, 2}); }, {"reshape", "(2, 3)", "(4, 2)"});
  expect_value_error([&] { (void)a.reshape({7}); }, {"reshape", "(2, 3)", "(7,)"});
  expect_value_error([&] { (void)a.reshape({4, -1}); }, {"reshape", "(2, 3)", "(4, -1)"});
  expect_value_error([&] { (void)a.reshape({-1, -1}); }, {"reshape", "(-1, -1)", "(2, 3)"});
  expect_value_error([&] { (void)a.reshape({-2, -3}); }, {"reshape", "(-2, -3)"});
  expect_value_error(
      [&] {
        (void)ep::zeros<B>({0, 3}).reshape({-1, 0});
      },
      {"reshape", "(0, 3)", "(-1, 0)"});
}

TYPED_TEST_P(Errors, ItemNeedsExactlyOneElement) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  expect_value_error([&] { (void)errors_test::matrix<B>().item(); }, {"item", "(2, 3)"});
  expect_value_error([&] { (void)ep::zeros<B>({0}).item(); }, {"item", "(0,)"});
}

TYPED_TEST_P(Errors, MatmulInnerDimensionMismatch) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto a = errors_test::matrix<B>();
  const auto b = ep::zeros<B>({4, 5});
  expect_value_error([&] { (void)a.matmul(b); }, {"matmul", "(2, 3)", "(4, 5)"});
  expect_value_error([&] { (void)ep::matmul(a, a); }, {"matmul", "(2, 3)"});
  expect_value_error([&] { (void)a.matmul(ep::zeros<B>({2})); }, {"matmul", "(2, 3)", "(2,)"});
  // Batch axes that do not broadcast, and 0-d operands.
  expect_value_error(
      [&] {
        (void)ep::zeros<B>({2, 2, 3}).matmul(ep::zeros<B>({3, 3, 4}));
      },
      {"matmul"});
  expect_value_error([&] { (void)a.matmul(ep::zeros<B>({})); }, {"matmul", "(2, 3)", "()"});
}

TYPED_TEST_P(Errors, ConcatenateAndStackMismatch) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto a = errors_test::matrix<B>();
  const auto b = ep::zeros<B>({2, 4});
  expect_value_error(
      [&] {
        (void)ep::concatenate<B>({a, b}, 0);
      },
      {"concatenate", "(2, 3)", "(2, 4)"});
  expect_value_error(
      [&] {
        (void)ep::concatenate<B>({a, ep::zeros<B>({3})}, 0);
      },
      {"concatenate", "(2, 3)", "(3,)"});
  expect_value_error(
      [&] {
        (void)ep::concatenate<B>({a, a}, 2);
      },
      {"concatenate", "axis 2", "(2, 3)"});
  expect_value_error([&] { (void)ep::concatenate<B>({}, 0); }, {"concatenate", "empty"});
  expect_value_error(
      [&] {
        (void)ep::stack<B>({a, ep::zeros<B>({3, 2})});
      },
      {"stack", "(2, 3)", "(3, 2)"});
  expect_value_error([&] { (void)ep::stack<B>({}); }, {"stack", "empty"});
  expect_value_error([&] { (void)ep::stack<B>({a, a}, 3); }, {"axis 3", "(2, 3)"});
}

TYPED_TEST_P(Errors, TileNeedsOneMultiplePerAxis) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto a = errors_test::matrix<B>();
  expect_value_error([&] { (void)a.tile({2}); }, {"tile", "(2, 3)"});
  expect_value_error([&] { (void)ep::tile(a, {1, 2, 3}); }, {"tile", "(2, 3)"});
  expect_value_error([&] { (void)a.tile({1, -1}); }, {"tile", "-1"});
}

TYPED_TEST_P(Errors, PadArgumentsAreChecked) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto a = errors_test::matrix<B>();
  expect_value_error([&] { (void)a.pad({{1, 1}}); }, {"pad", "(2, 3)"});
  expect_value_error([&] { (void)a.pad({{0, 0}, {1, 1}, {1, 1}}); }, {"pad", "(2, 3)"});
  expect_value_error([&] { (void)a.pad({{-1, 0}, {0, 0}}); }, {"pad", "negative", "-1"});
  expect_value_error([&] { (void)a.pad({{1, 1}, {1, 1}}, "edge"); }, {"pad", "edge"});
  // NumPy's reflect needs padding < extent: 3 elements along axis 1 allow at most 2.
  expect_value_error(
      [&] {
        (void)a.pad({{0, 0}, {3, 0}}, "reflect");
      },
      {"pad", "reflect", "(2, 3)"});
  expect_value_error(
      [&] {
        (void)a.pad({{2, 0}, {0, 0}}, "reflect");
      },
      {"pad", "reflect", "(2, 3)"});
}

TYPED_TEST_P(Errors, SqueezeOfAxisNotOfExtentOne) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto a = ep::zeros<B>({2, 1, 3});
  expect_value_error([&] { (void)a.squeeze(0); }, {"squeeze", "axis 0", "(2, 1, 3)"});
  expect_value_error([&] { (void)ep::squeeze(a, {1, 2}); }, {"squeeze", "axis 2", "(2, 1, 3)"});
}

TYPED_TEST_P(Errors, TransposeNeedsAPermutation) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto a = ep::zeros<B>({2, 3, 4});
  expect_value_error(
      [&] {
        (void)a.transpose({0, 0, 1});
      },
      {"transpose", "(0, 0, 1)", "(2, 3, 4)"});
  expect_value_error([&] { (void)a.transpose({1, 0}); }, {"transpose", "(1, 0)", "(2, 3, 4)"});
  expect_value_error(
      [&] {
        (void)ep::transpose(a, {0, 1, 3});
      },
      {"transpose", "(0, 1, 3)", "(2, 3, 4)"});
}

TYPED_TEST_P(Errors, MinMaxOfEmptyAxis) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto e = ep::zeros<B>({0, 3});
  expect_value_error([&] { (void)e.min(0); }, {"min", "axis 0", "(0, 3)"});
  expect_value_error([&] { (void)e.max(); }, {"max", "(0, 3)"});
  expect_value_error([&] { (void)ep::max(e, {0, 1}, true); }, {"max", "(0, 3)"});
  expect_value_error([&] { (void)e.argmax(0); }, {"argmax", "(0, 3)"});
  expect_value_error([&] { (void)e.argmin(); }, {"argmin"});
}

TYPED_TEST_P(Errors, OnehotAndCrossentropyShapes) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  using I = typename B::template rebind<std::int64_t>;
  const auto logits = ep::zeros<B>({3, 4});
  expect_value_error(
      [&] {
        (void)logits.onehot_like(ep::from_vector<I>({0, 1}));
      },
      {"onehot_like", "(3, 4)", "(2,)"});
  expect_value_error([&] { (void)ep::zeros<B>({4}).onehot_like(ep::from_vector<I>({0})); },
                     {"onehot_like", "(4,)", "(1,)"});
  expect_value_error(
      [&] {
        (void)logits.onehot_like(ep::from_vector<I>({0, 1, 2}, {3, 1}));
      },
      {"onehot_like", "(3, 4)", "(3, 1)"});
  expect_value_error(
      [&] {
        (void)logits.crossentropy(ep::from_vector<I>({0, 1}));
      },
      {"crossentropy", "(3, 4)", "(2,)"});
  expect_value_error(
      [&] {
        (void)ep::zeros<B>({3}).crossentropy(ep::from_vector<I>({0, 1, 2}));
      },
      {"crossentropy", "(3,)"});
}

TYPED_TEST_P(Errors, ClassLabelsOutOfRange) {
  using B = TypeParam;
  using I = typename B::template rebind<std::int64_t>;
  using I32 = typename B::template rebind<std::int32_t>;
  const auto logits = ep::arange<B>(12).reshape({3, 4});
  const auto expect_index_error = [](const std::function<void()>& f,
                                     const std::vector<std::string>& parts) {
    ep::test::expect_throws_with<ep::index_error>(f, parts);
    ep::test::expect_throws_with<ep::error>(f, parts);
  };
  for (const std::int64_t bad : {4, 5, 1000, -1, -10}) {
    const auto label = std::to_string(bad);
    expect_index_error(
        [&] {
          (void)logits.crossentropy(ep::from_vector<I>({0, bad, 1}));
        },
        {"crossentropy", "label " + label, "position 1", "4 classes"});
    expect_index_error(
        [&] {
          (void)logits.onehot_like(ep::from_vector<I>({bad, 0, 1}));
        },
        {"onehot_like", "label " + label, "position 0", "4 classes"});
    expect_index_error(
        [&] {
          (void)ep::value_and_grad(
              [&](const auto& x) {
                return x.crossentropy(ep::from_vector<I>({0, 1, bad})).sum();
              },
              logits);
        },
        {"crossentropy", "label " + label, "position 2"});
  }
  expect_index_error(
      [&] {
        (void)ep::crossentropy(logits, ep::from_vector<I32>({3, 0, 4}));
      },
      {"crossentropy", "label 4", "position 2", "4 classes"});
  // The last class and the first are in range.
  EXPECT_NO_THROW((void)logits.crossentropy(ep::from_vector<I>({3, 0, 3})));
}

TYPED_TEST_P(Errors, BroadcastToIncompatibleShape) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  const auto a = errors_test::matrix<B>();
  expect_value_error([&] { (void)a.broadcast_to({3, 3}); }, {"broadcast_to", "(2, 3)", "(3, 3)"});
  expect_value_error([&] { (void)a.broadcast_to({3}); }, {"broadcast_to", "(2, 3)", "(3,)"});
  expect_value_error(
      [&] {
        (void)ep::broadcast_to(a, {2, 3, 2});
      },
      {"broadcast_to", "(2, 3)", "(2, 3, 2)"});
}

TYPED_TEST_P(Errors, WhereWithMismatchedShapes) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  using Bo = typename B::template rebind<bool>;
  const auto cond = ep::from_vector<Bo>({true, false, true, false, true, false}, {2, 3});
  const auto a = errors_test::matrix<B>();
  const auto b = ep::zeros<B>({4});
  expect_value_error([&] { (void)cond.where(b, a); }, {"where", "(2, 3)", "(4,)"});
  expect_value_error([&] { (void)ep::where(cond, a, b); }, {"where", "(4,)"});
  expect_value_error([&] { (void)ep::where(cond, b, 0); }, {"where", "(2, 3)", "(4,)"});
  const auto c2 = ep::from_vector<Bo>({true, false});
  expect_value_error([&] { (void)c2.where(a, a); }, {"where", "(2,)", "(2, 3)"});
}

TYPED_TEST_P(Errors, CreationArgumentsAreChecked) {
  using B = TypeParam;
  using errors_test::expect_value_error;
  expect_value_error([&] { (void)ep::arange<B>(0, 5, 0); }, {"arange", "step"});
  expect_value_error([&] { (void)ep::zeros<B>({2}).arange(1, 2, 0); }, {"arange", "step"});
  expect_value_error(
      [&] {
        (void)ep::from_vector<B>({1, 2, 3, 4, 5}, {2, 3});
      },
      {"from_vector", "5", "(2, 3)"});
  expect_value_error([&] { (void)ep::zeros<B>({2, -1}); }, {"(2, -1)"});
}

TYPED_TEST_P(Errors, FailedOpsLeaveInputsUsable) {
  // After an error the inputs are unchanged and further ops work (nothing was half-done).
  using B = TypeParam;
  const auto a = errors_test::matrix<B>();
  const auto b = ep::zeros<B>({4});
  EXPECT_THROW((void)(a + b), ep::value_error);
  EXPECT_THROW((void)a.sum(5), ep::value_error);
  EXPECT_THROW((void)a.reshape({5}), ep::value_error);
  ep::test::expect_equal(a, {2, 3}, std::vector<double>{0, 1, 2, 3, 4, 5});
  ep::test::expect_equal(a.sum(1), {2}, std::vector<double>{3, 12});
  ep::test::expect_equal(b + 1, {4}, std::vector<double>{1, 1, 1, 1});
}

// An allocation no machine can satisfy is an ep::memory_error (also a std::bad_alloc) naming the op
// and the bytes, from the facade's creation ops and from each backend's own allocation path (a
// broadcast result); the byte count of (2^40, 2^40) does not even fit in 64 bits. LeakSanitizer
// (the CI build) checks that nothing leaks on the way out.
TYPED_TEST_P(Errors, UnsatisfiableAllocationNamesOpAndBytes) {
  using B = TypeParam;
  using T = typename B::value_type;
  constexpr std::int64_t big = std::int64_t{1} << 40, mid = std::int64_t{1} << 20;
  const std::string bytes = std::to_string((std::uint64_t{1} << 60) * sizeof(T));
  ep::test::expect_throws_with<ep::memory_error>(
      [&] {
        (void)ep::zeros<B>({big, mid});
      },
      {"full", "(1099511627776, 1048576)", bytes});
  ep::test::expect_throws_with<ep::error>(
      [&] {
        (void)ep::ones<B>({big, big});
      },
      {"full", "over 2^64"});
  ep::test::expect_throws_with<std::bad_alloc>(
      [&] {
        (void)ep::full<B>({mid, mid, mid}, T(1));
      },
      {"full"});
  const auto one = ep::ones<B>({1, 1});
  ep::test::expect_throws_with<ep::memory_error>(
      [&] {
        (void)one.broadcast_to({big, mid});
      },
      {"bytes"});
  ep::test::expect_throws_with<ep::memory_error>([&] { (void)one.tile({big, mid}); }, {"bytes"});
  EXPECT_EQ(one.sum().item(), T(1));  // and the tensors stay usable
}

REGISTER_TYPED_TEST_SUITE_P(Errors, BroadcastingMismatchNamesOpAndShapes,
                            AxisOutOfRangeNamesOpAxisAndShape, RepeatedAxisIsRejected,
                            ReshapeToWrongSize, ItemNeedsExactlyOneElement,
                            MatmulInnerDimensionMismatch, ConcatenateAndStackMismatch,
                            TileNeedsOneMultiplePerAxis, PadArgumentsAreChecked,
                            SqueezeOfAxisNotOfExtentOne, TransposeNeedsAPermutation,
                            MinMaxOfEmptyAxis, OnehotAndCrossentropyShapes, ClassLabelsOutOfRange,
                            BroadcastToIncompatibleShape, WhereWithMismatchedShapes,
                            CreationArgumentsAreChecked, FailedOpsLeaveInputsUsable,
                            UnsatisfiableAllocationNamesOpAndBytes);
