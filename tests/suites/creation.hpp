// eagerpp - typed tests of conversion, introspection, creation, astensor and printing, for every
// backend
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // NAN
#include <cstdint>      // std::int32_t, std::int64_t
#include <limits>       // std::numeric_limits
#include <sstream>      // std::ostringstream
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <tuple>        // std::get
#include <type_traits>  // std::is_same_v
#include <vector>       // std::vector

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/support.hpp"

// Expected values are NumPy's for the same inputs (numpy 1.24), written in as literals.

EAGERPP_TYPED_SUITE(Creation);

namespace creation_test {
/// NumPy's name of the floating dtype of backend B.
template <class B>
constexpr std::string_view float_name() {
  return std::is_same_v<typename B::value_type, float> ? "float32" : "float64";
}
}  // namespace creation_test

TYPED_TEST_P(Creation, FromVectorKeepsShapeAndValues) {
  using B = TypeParam;
  using T = typename B::value_type;
  const auto t = ep::from_vector<B>({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(t.shape(), (ep::Shape{2, 3}));
  EXPECT_EQ(t.ndim(), 2);
  EXPECT_EQ(t.size(), 6);
  EXPECT_EQ(t.to_vector(), (std::vector<T>{1, 2, 3, 4, 5, 6}));
  // The 1-D form.
  const auto v = ep::from_vector<B>({0.5, -1.25, 3});
  EXPECT_EQ(v.shape(), (ep::Shape{3}));
  EXPECT_EQ(v.ndim(), 1);
  EXPECT_EQ(v.to_vector(), (std::vector<T>{0.5, -1.25, 3}));
}

TYPED_TEST_P(Creation, ZeroDimensionalTensorHasOneElement) {
  using B = TypeParam;
  const auto t = ep::from_vector<B>({7.5}, ep::Shape{});
  EXPECT_EQ(t.shape(), ep::Shape{});
  EXPECT_EQ(t.ndim(), 0);
  EXPECT_EQ(t.size(), 1);
  EXPECT_EQ(t.item(), 7.5);
  ep::test::expect_equal(t, {}, std::vector<double>{7.5});
}

TYPED_TEST_P(Creation, EmptyTensorHasNoElements) {
  using B = TypeParam;
  const auto t = ep::from_vector<B>({}, {0, 3});
  EXPECT_EQ(t.shape(), (ep::Shape{0, 3}));
  EXPECT_EQ(t.ndim(), 2);
  EXPECT_EQ(t.size(), 0);
  EXPECT_TRUE(t.to_vector().empty());
}

TYPED_TEST_P(Creation, RankFiveTensorKeepsCOrder) {
  using B = TypeParam;
  std::vector<double> values;
  for (int i = 0; i < 12; ++i) values.push_back(i - 5);
  const auto t = ep::test::tensor<B>(values, {1, 2, 1, 3, 2});
  EXPECT_EQ(t.ndim(), 5);
  EXPECT_EQ(t.size(), 12);
  ep::test::expect_equal(t, {1, 2, 1, 3, 2}, values);
}

TYPED_TEST_P(Creation, ItemOfOneElementTensors) {
  using B = TypeParam;
  EXPECT_EQ(ep::from_vector<B>({-3.25}, {1, 1}).item(), -3.25);
  EXPECT_EQ(ep::from_vector<B>({4}, {1}).item(), 4);
  using I = typename B::template rebind<std::int64_t>;
  EXPECT_EQ(ep::from_vector<I>({-9}, ep::Shape{}).item(), -9);
  using Bo = typename B::template rebind<bool>;
  EXPECT_TRUE(ep::from_vector<Bo>({true}, {1, 1, 1}).item());
}

TYPED_TEST_P(Creation, DtypeNamesFollowNumpy) {
  using B = TypeParam;
  EXPECT_EQ(ep::Tensor<B>::dtype(), creation_test::float_name<B>());
  EXPECT_EQ(ep::Tensor<typename B::template rebind<float>>::dtype(), "float32");
  EXPECT_EQ(ep::Tensor<typename B::template rebind<double>>::dtype(), "float64");
  EXPECT_EQ(ep::Tensor<typename B::template rebind<std::int32_t>>::dtype(), "int32");
  EXPECT_EQ(ep::Tensor<typename B::template rebind<std::int64_t>>::dtype(), "int64");
  EXPECT_EQ(ep::Tensor<typename B::template rebind<bool>>::dtype(), "bool");
  const auto t = ep::zeros<B>({2});
  EXPECT_EQ(t.dtype(), creation_test::float_name<B>());
}

TYPED_TEST_P(Creation, AstypeFloatToIntTruncates) {
  using B = TypeParam;
  const auto t =
      ep::test::tensor<B>(std::vector<double>{-2.75, -0.5, 0.375, 1.875, 3.0, -3.0}, {2, 3});
  const auto i64 = t.template astype<std::int64_t>();
  static_assert(std::is_same_v<typename decltype(i64)::value_type, std::int64_t>);
  EXPECT_EQ(i64.dtype(), "int64");
  ep::test::expect_equal(i64, {2, 3}, std::vector<std::int64_t>{-2, 0, 0, 1, 3, -3});
  const auto i32 = ep::astype<std::int32_t>(t);
  EXPECT_EQ(i32.dtype(), "int32");
  ep::test::expect_equal(i32, {2, 3}, std::vector<std::int32_t>{-2, 0, 0, 1, 3, -3});
}

TYPED_TEST_P(Creation, AstypeToBoolIsNonZero) {
  using B = TypeParam;
  using I = typename B::template rebind<std::int64_t>;
  const auto ints = ep::from_vector<I>({0, 1, -2, 0, 5});
  const auto b1 = ints.template astype<bool>();
  EXPECT_EQ(b1.dtype(), "bool");
  ep::test::expect_equal(b1, {5}, std::vector<bool>{false, true, true, false, true});
  const auto floats = ep::test::tensor<B>(std::vector<double>{0, 0.5, -1, 0, NAN}, {5});
  ep::test::expect_equal(floats.template astype<bool>(), {5},
                         std::vector<bool>{false, true, true, false, true});
  // And back: true is 1, false is 0.
  ep::test::expect_equal(b1.template astype<typename B::value_type>(), {5},
                         std::vector<double>{0, 1, 1, 0, 1});
}

TYPED_TEST_P(Creation, Float32AndFloat64Convert) {
  using B = TypeParam;
  const auto t = ep::test::tensor<B>(std::vector<double>{0.5, -1.25, 1024, 0}, {2, 2});
  const auto f = t.float32();
  const auto d = t.float64();
  static_assert(std::is_same_v<typename decltype(f)::value_type, float>);
  static_assert(std::is_same_v<typename decltype(d)::value_type, double>);
  EXPECT_EQ(f.dtype(), "float32");
  EXPECT_EQ(d.dtype(), "float64");
  ep::test::expect_equal(f, {2, 2}, std::vector<double>{0.5, -1.25, 1024, 0});
  ep::test::expect_equal(d, {2, 2}, std::vector<double>{0.5, -1.25, 1024, 0});
  using I = typename B::template rebind<std::int64_t>;
  ep::test::expect_equal(ep::from_vector<I>({-3, 7}).float32(), {2}, std::vector<double>{-3, 7});
}

TYPED_TEST_P(Creation, ZerosOnesFullFromATensor) {
  using B = TypeParam;
  const auto t = ep::test::tensor<B>(std::vector<double>{1, 2, 3}, {3});
  ep::test::expect_equal(t.zeros({2, 3}), {2, 3}, std::vector<double>(6, 0));
  ep::test::expect_equal(t.ones({3, 1}), {3, 1}, std::vector<double>(3, 1));
  ep::test::expect_equal(t.full({2, 2}, 3.5), {2, 2}, std::vector<double>(4, 3.5));
  // EagerPy's free-function forms: the tensor supplies backend and dtype.
  ep::test::expect_equal(ep::zeros(t, {2, 3}), {2, 3}, std::vector<double>(6, 0));
  ep::test::expect_equal(ep::ones(t, {1, 4}), {1, 4}, std::vector<double>(4, 1));
  ep::test::expect_equal(ep::full(t, {3}, -2.25), {3}, std::vector<double>(3, -2.25));
  // The shape is the argument, not the tensor's.
  EXPECT_EQ(t.zeros({4, 1, 2}).shape(), (ep::Shape{4, 1, 2}));
}

TYPED_TEST_P(Creation, ZerosOnesFullFromABackend) {
  using B = TypeParam;
  ep::test::expect_equal(ep::zeros<B>({2, 3}), {2, 3}, std::vector<double>(6, 0));
  ep::test::expect_equal(ep::ones<B>({3}), {3}, std::vector<double>(3, 1));
  ep::test::expect_equal(ep::full<B>({2, 1}, -7.5), {2, 1}, std::vector<double>(2, -7.5));
  // 0-d, empty and rank 6 shapes.
  ep::test::expect_equal(ep::ones<B>({}), {}, std::vector<double>{1});
  ep::test::expect_equal(ep::full<B>({}, 2.5), {}, std::vector<double>{2.5});
  ep::test::expect_equal(ep::zeros<B>({0, 3}), {0, 3}, std::vector<double>{});
  ep::test::expect_equal(ep::ones<B>({1, 2, 1, 2, 1, 2}), {1, 2, 1, 2, 1, 2},
                         std::vector<double>(8, 1));
  using I = typename B::template rebind<std::int64_t>;
  ep::test::expect_equal(ep::full<I>({2}, 9), {2}, std::vector<std::int64_t>{9, 9});
  using Bo = typename B::template rebind<bool>;
  ep::test::expect_equal(ep::ones<Bo>({2}), {2}, std::vector<bool>{true, true});
}

TYPED_TEST_P(Creation, LikeFunctionsKeepShapeAndDtype) {
  using B = TypeParam;
  const auto t = ep::test::tensor<B>(std::vector<double>{1, 2, 3, 4, 5, 6}, {3, 2});
  ep::test::expect_equal(t.zeros_like(), {3, 2}, std::vector<double>(6, 0));
  ep::test::expect_equal(t.ones_like(), {3, 2}, std::vector<double>(6, 1));
  ep::test::expect_equal(t.full_like(-0.5), {3, 2}, std::vector<double>(6, -0.5));
  ep::test::expect_equal(ep::zeros_like(t), {3, 2}, std::vector<double>(6, 0));
  ep::test::expect_equal(ep::ones_like(t), {3, 2}, std::vector<double>(6, 1));
  ep::test::expect_equal(ep::full_like(t, 4), {3, 2}, std::vector<double>(6, 4));
  const auto e = ep::zeros<B>({0, 3});
  ep::test::expect_equal(e.ones_like(), {0, 3}, std::vector<double>{});
  const auto s = ep::from_vector<B>({3}, ep::Shape{});
  ep::test::expect_equal(s.full_like(8), {}, std::vector<double>{8});
}

TYPED_TEST_P(Creation, ArangeFollowsNumpy) {
  using B = TypeParam;
  ep::test::expect_equal(ep::arange<B>(5), {5}, std::vector<double>{0, 1, 2, 3, 4});
  ep::test::expect_equal(ep::arange<B>(7, 17, 2), {5}, std::vector<double>{7, 9, 11, 13, 15});
  ep::test::expect_equal(ep::arange<B>(-2, 2), {4}, std::vector<double>{-2, -1, 0, 1});
  ep::test::expect_equal(ep::arange<B>(0, 1, 0.25), {4}, std::vector<double>{0, 0.25, 0.5, 0.75});
  // Negative steps.
  ep::test::expect_equal(ep::arange<B>(5, 0, -1.5), {4}, std::vector<double>{5, 3.5, 2, 0.5});
  ep::test::expect_equal(ep::arange<B>(10, 2, -3), {3}, std::vector<double>{10, 7, 4});
  // Empty ranges.
  ep::test::expect_equal(ep::arange<B>(3, 1), {0}, std::vector<double>{});
  ep::test::expect_equal(ep::arange<B>(1, 3, -1), {0}, std::vector<double>{});
}

TYPED_TEST_P(Creation, ArangeFromATensorUsesItsBackendAndDtype) {
  using B = TypeParam;
  const auto t = ep::zeros<B>({2, 2});
  ep::test::expect_equal(t.arange(5), {5}, std::vector<double>{0, 1, 2, 3, 4});
  ep::test::expect_equal(t.arange(7, 17, 2), {5}, std::vector<double>{7, 9, 11, 13, 15});
  ep::test::expect_equal(ep::arange(t, 3), {3}, std::vector<double>{0, 1, 2});
  ep::test::expect_equal(ep::arange(t, 4, -4, -2.5), {4}, std::vector<double>{4, 1.5, -1, -3.5});
  using I = typename B::template rebind<std::int64_t>;
  const auto i = ep::arange<I>(7, 17, 2);
  EXPECT_EQ(i.dtype(), "int64");
  ep::test::expect_equal(i, {5}, std::vector<std::int64_t>{7, 9, 11, 13, 15});
}

TYPED_TEST_P(Creation, OnehotLikePlacesValueAtIndices) {
  using B = TypeParam;
  using I = typename B::template rebind<std::int64_t>;
  const auto t = ep::zeros<B>({3, 4});
  const auto idx = ep::from_vector<I>({2, 0, 3});
  ep::test::expect_equal(t.onehot_like(idx), {3, 4},
                         std::vector<double>{0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1});
  ep::test::expect_equal(ep::onehot_like(t, idx, 5), {3, 4},
                         std::vector<double>{0, 0, 5, 0, 5, 0, 0, 0, 0, 0, 0, 5});
  // The values of `t` do not matter, only its shape; int32 indices work too.
  using I32 = typename B::template rebind<std::int32_t>;
  const auto u = ep::test::tensor<B>(std::vector<double>{9, 9, 9, 9}, {2, 2});
  ep::test::expect_equal(u.onehot_like(ep::from_vector<I32>({1, 1})), {2, 2},
                         std::vector<double>{0, 1, 0, 1});
}

TYPED_TEST_P(Creation, AstensorWrapsNativeTensors) {
  using B = TypeParam;
  using Raw = typename B::raw_type;
  if constexpr (!ep::native_tensor<Raw>) {
    ADD_FAILURE() << "ep::native_traits is not specialized for " << B::name << "'s raw_type";
  } else {
    const auto t = ep::test::tensor<B>(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3});
    // Native in: a tensor of the backend comes out, sharing the elements.
    Raw raw = t.raw();
    auto u = ep::astensor(raw);
    static_assert(std::is_same_v<decltype(u), ep::Tensor<B>>);
    ep::test::expect_equal(u, {2, 3}, std::vector<double>{1, 2, 3, 4, 5, 6});
    EXPECT_EQ(u.raw().data(), t.raw().data());
    // ep::Tensor in: the same tensor comes back.
    auto w = ep::astensor(t);
    static_assert(std::is_same_v<decltype(w), ep::Tensor<B>>);
    ep::test::expect_equal(w, {2, 3}, std::vector<double>{1, 2, 3, 4, 5, 6});
    // astensors wraps each argument.
    auto [a, b] = ep::astensors(t.raw(), t);
    static_assert(std::is_same_v<decltype(a), ep::Tensor<B>>);
    static_assert(std::is_same_v<decltype(b), ep::Tensor<B>>);
    ep::test::expect_equal(a + b, {2, 3}, std::vector<double>{2, 4, 6, 8, 10, 12});
  }
}

TYPED_TEST_P(Creation, AstensorRestoreGivesBackTheInputKind) {
  using B = TypeParam;
  using Raw = typename B::raw_type;
  if constexpr (!ep::native_tensor<Raw>) {
    ADD_FAILURE() << "ep::native_traits is not specialized for " << B::name << "'s raw_type";
  } else {
    const auto t = ep::test::tensor<B>(std::vector<double>{1, -2, 3}, {3});
    {
      // Native in, native out.
      auto [x, restore] = ep::astensor_(t.raw());
      static_assert(std::is_same_v<decltype(x), ep::Tensor<B>>);
      auto y = restore(x.square());
      static_assert(std::is_same_v<std::remove_cvref_t<decltype(y)>, Raw>);
      ep::test::expect_equal(ep::astensor(y), {3}, std::vector<double>{1, 4, 9});
    }
    {
      // ep::Tensor in, ep::Tensor out.
      auto [x, restore] = ep::astensor_(t);
      auto y = restore(x * 2);
      static_assert(std::is_same_v<std::remove_cvref_t<decltype(y)>, ep::Tensor<B>>);
      ep::test::expect_equal(y, {3}, std::vector<double>{2, -4, 6});
    }
  }
}

TYPED_TEST_P(Creation, CopiesShareDataInConstantTime) {
  using B = TypeParam;
  const auto t = ep::test::tensor<B>(std::vector<double>{1, 2, 3, 4}, {2, 2});
  const ep::Tensor<B> c =
      t;  // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
  const ep::Tensor<B> d = c;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(c.raw().data(), t.raw().data());
  EXPECT_EQ(d.raw().data(), t.raw().data());
  EXPECT_EQ(c.to_vector(), t.to_vector());
  EXPECT_EQ(d.to_vector(), t.to_vector());
  ep::test::expect_equal(d, {2, 2}, std::vector<double>{1, 2, 3, 4});
}

TYPED_TEST_P(Creation, OpsNeverChangeTheirInputs) {
  using B = TypeParam;
  const auto t = ep::test::tensor<B>(std::vector<double>{1, -2, 3, 4}, {2, 2});
  const auto copy = t;
  const auto a = t + 1;
  const auto b = -t;
  const auto c = t.square().sqrt();
  const auto d = t.reshape({4}).flip();
  const auto e = t.clip(0, 2);
  const auto f = t.zeros_like();
  const auto g = (t > 0).where(t, t * 10);
  const auto h = t.template astype<std::int64_t>();
  for (const auto* x : {&t, &copy})
    ep::test::expect_equal(*x, {2, 2}, std::vector<double>{1, -2, 3, 4});
  ep::test::expect_equal(a, {2, 2}, std::vector<double>{2, -1, 4, 5});
  ep::test::expect_equal(b, {2, 2}, std::vector<double>{-1, 2, -3, -4});
  ep::test::expect_equal(c, {2, 2}, std::vector<double>{1, 2, 3, 4});
  ep::test::expect_equal(d, {4}, std::vector<double>{4, 3, -2, 1});
  ep::test::expect_equal(e, {2, 2}, std::vector<double>{1, 0, 2, 2});
  ep::test::expect_equal(f, {2, 2}, std::vector<double>{0, 0, 0, 0});
  ep::test::expect_equal(g, {2, 2}, std::vector<double>{1, -20, 3, 4});
  ep::test::expect_equal(h, {2, 2}, std::vector<std::int64_t>{1, -2, 3, 4});
}

TYPED_TEST_P(Creation, PrintingNamesBackendDtypeShapeAndValues) {
  using B = TypeParam;
  const auto t = ep::test::tensor<B>(std::vector<double>{0, 1.5, -2.5, 3, 4, 5}, {2, 3});
  const std::string s = fmt::format("{}", t);
  for (std::string_view part :
       {std::string_view(B::name), creation_test::float_name<B>(), std::string_view("(2, 3)"),
        std::string_view("1.5"), std::string_view("-2.5"), std::string_view("5")})
    EXPECT_NE(s.find(part), std::string::npos) << "'" << s << "' lacks '" << part << "'";
  EXPECT_EQ(s.find("..."), std::string::npos) << s;
  std::ostringstream os;
  os << t;
  EXPECT_EQ(os.str(), s);
  // Other dtypes, 0-d and empty tensors.
  using Bo = typename B::template rebind<bool>;
  const std::string sb = fmt::format("{}", ep::from_vector<Bo>({true, false}));
  EXPECT_NE(sb.find("bool"), std::string::npos) << sb;
  EXPECT_NE(sb.find("(2,)"), std::string::npos) << sb;
  using I = typename B::template rebind<std::int64_t>;
  const std::string si = fmt::format("{}", ep::from_vector<I>({-42}, ep::Shape{}));
  EXPECT_NE(si.find("int64"), std::string::npos) << si;
  EXPECT_NE(si.find("()"), std::string::npos) << si;
  EXPECT_NE(si.find("-42"), std::string::npos) << si;
  const std::string se = fmt::format("{}", ep::zeros<B>({0, 3}));
  EXPECT_NE(se.find("(0, 3)"), std::string::npos) << se;
}

TYPED_TEST_P(Creation, PrintingElidesLargeTensors) {
  using B = TypeParam;
  const auto t = ep::arange<B>(2000);
  const std::string s = fmt::format("{}", t);
  EXPECT_NE(s.find("..."), std::string::npos) << s;
  EXPECT_NE(s.find("(2000,)"), std::string::npos) << s;
  EXPECT_NE(s.find("1999"), std::string::npos) << s;
  EXPECT_EQ(s.find("1000"), std::string::npos) << "the middle should be elided: " << s;
  EXPECT_LT(s.size(), 300u) << s;
  std::ostringstream os;
  os << t.reshape({40, 50});
  EXPECT_NE(os.str().find("..."), std::string::npos);
  EXPECT_NE(os.str().find("(40, 50)"), std::string::npos);
  EXPECT_NE(os.str().find("1999"), std::string::npos);
}

REGISTER_TYPED_TEST_SUITE_P(Creation, FromVectorKeepsShapeAndValues,
                            ZeroDimensionalTensorHasOneElement, EmptyTensorHasNoElements,
                            RankFiveTensorKeepsCOrder, ItemOfOneElementTensors,
                            DtypeNamesFollowNumpy, AstypeFloatToIntTruncates, AstypeToBoolIsNonZero,
                            Float32AndFloat64Convert, ZerosOnesFullFromATensor,
                            ZerosOnesFullFromABackend, LikeFunctionsKeepShapeAndDtype,
                            ArangeFollowsNumpy, ArangeFromATensorUsesItsBackendAndDtype,
                            OnehotLikePlacesValueAtIndices, AstensorWrapsNativeTensors,
                            AstensorRestoreGivesBackTheInputKind, CopiesShareDataInConstantTime,
                            OpsNeverChangeTheirInputs, PrintingNamesBackendDtypeShapeAndValues,
                            PrintingElidesLargeTensors);
