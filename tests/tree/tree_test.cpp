// eagerpp - parameter trees: tree_map, tree_leaves, tree_flatten/unflatten, tree_structure, the
// mismatch errors, and trees through every transform, on each CPU backend
// SPDX-License-Identifier: MIT
#include <array>        // std::array
#include <map>          // std::map
#include <optional>     // std::optional
#include <string>       // std::string
#include <tuple>        // std::tuple
#include <type_traits>  // std::is_same_v, std::decay_t
#include <utility>      // std::pair
#include <vector>       // std::vector

#include <gtest/gtest.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/tree.hpp>
#include <eagerpp/xtensor.hpp>
#ifdef EAGERPP_TEST_OMP
#include <eagerpp/omp.hpp>
#endif

#include "support/support.hpp"

namespace tree_test {

template <class B>
struct Params {
  ep::Tensor<B> w;
  ep::Tensor<B> b;
  int tag = 7;  // not listed: copied by tree_map, not a leaf
};
template <class B>
EAGERPP_TREE(Params<B>, w, b)

}  // namespace tree_test

namespace tree_suite {

using tree_test::Params;

template <class B>
class Tree : public ::testing::Test {};

#ifdef EAGERPP_TEST_OMP
using Backends = ::testing::Types<ep::eigen<double>, ep::xtensor<double>, ep::omp<double>>;
#else
using Backends = ::testing::Types<ep::eigen<double>, ep::xtensor<double>>;
#endif
TYPED_TEST_SUITE(Tree, Backends);

template <class B>
ep::Tensor<B> vec(std::vector<double> v) {
  const auto n = static_cast<std::int64_t>(v.size());
  return ep::from_vector<B>(v, ep::Shape{n});
}

TYPED_TEST(Tree, MapChangingTheBackendRebuildsAStruct) {
  using B = TypeParam;
  const Params<B> p{vec<B>({1.5, -2}), vec<B>({3})};
  // f returns float tensors: Params<B> becomes Params<B::rebind<float>>, the tag its default
  Params<B> q = p;
  q.tag = 1;
  const auto f = ep::tree_map([](const auto& t) { return t.template astype<float>(); }, q);
  static_assert(
      std::is_same_v<std::decay_t<decltype(f)>, Params<typename B::template rebind<float>>>);
  EXPECT_EQ(f.w.to_vector(), (std::vector<float>{1.5F, -2}));
  EXPECT_EQ(f.b.to_vector(), (std::vector<float>{3}));
  EXPECT_EQ(f.tag, 7);
}

TYPED_TEST(Tree, MapLeavesAndStructureOfNestedTrees) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  using Nested = std::tuple<Params<B>, std::vector<T>, std::map<std::string, T>, std::optional<T>,
                            std::pair<T, std::array<T, 2>>>;
  const Nested t{Params<B>{vec<B>({1, 2}), vec<B>({3}), 9},
                 {vec<B>({4})},
                 {{"b", vec<B>({6})}, {"a", vec<B>({5})}},
                 std::nullopt,
                 {vec<B>({7}), {vec<B>({8}), vec<B>({9})}}};
  const auto doubled = ep::tree_map([](const T& x) { return x * 2; }, t);
  static_assert(std::is_same_v<std::decay_t<decltype(doubled)>, Nested>);
  EXPECT_EQ(std::get<0>(doubled).tag, 9);  // members not listed are copied
  const auto leaves = ep::tree_leaves(doubled);
  ASSERT_EQ(leaves.size(), 8U);  // map keys sorted: a before b
  const std::vector<double> expected_first{2, 6, 8, 10, 12, 14, 16, 18};
  for (std::size_t k = 0; k < leaves.size(); ++k)
    EXPECT_EQ(leaves[k].to_vector()[0], expected_first[k]) << k;
  // Two trees at once.
  const auto sum = ep::tree_map([](const T& x, const T& y) { return x + y; }, t, doubled);
  EXPECT_EQ(ep::tree_leaves(sum)[3].to_vector(), std::vector<double>{15});
  // Flatten, unflatten, structure.
  auto flattened = ep::tree_flatten(t);  // not a structured binding: a lambda captures def
  auto& flat = flattened.first;
  const auto& def = flattened.second;
  EXPECT_EQ(def.num_leaves(), 8U);
  EXPECT_EQ(def.str(), "(Params<B>{w: *, b: *}, [*], {'a': *, 'b': *}, None, (*, (*, *)))");
  for (auto& leaf : flat) leaf = leaf + 1;
  const Nested back = ep::tree_unflatten(def, flat);
  EXPECT_EQ(std::get<2>(back).at("b").to_vector(), std::vector<double>{7});
  EXPECT_TRUE(ep::tree_structure(back) == def);
  EXPECT_FALSE(ep::tree_structure(std::vector<T>{}) ==
               ep::tree_structure(std::vector<T>{leaves[0]}));
  ep::test::expect_throws_with<ep::value_error>(
      [&] { (void)ep::tree_unflatten(def, std::vector<T>{}); },
      {"tree_unflatten", "0 leaves", "expected 8"});
  // Paths.
  std::vector<std::string> paths;
  ep::tree_for_each_with_path(
      [&](const ep::tree_path& p, const auto&) { paths.push_back(p.str()); }, t);
  EXPECT_EQ(paths[0], "[0].w");
  EXPECT_EQ(paths[3], "[2]['a']");
  EXPECT_EQ(paths[7], "[4][1][1]");
  // Empty containers.
  EXPECT_TRUE(ep::tree_leaves(std::vector<T>{}).empty());
  EXPECT_TRUE(ep::tree_map([](const T& x) { return x; }, std::map<std::string, T>{}).empty());
}

TYPED_TEST(Tree, MismatchErrorsNameThePath) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  using M = std::map<std::string, std::vector<T>>;
  const auto f = [](const T& x, const T& y) { return x + y; };
  const M a{{"layers", {vec<B>({1}), vec<B>({2})}}};
  const M b{{"layers", {vec<B>({1})}}};
  using ep::test::expect_throws_with;
  expect_throws_with<ep::value_error>([&] { (void)ep::tree_map(f, a, b); },
                                      {"tree_map: trees[1]['layers'] holds 1 tensors, but "
                                       "trees[0]['layers'] holds 2; expected trees of one "
                                       "structure"});
  const M c{{"layer", {vec<B>({1})}}};
  expect_throws_with<ep::value_error>([&] { (void)ep::tree_map(f, a, c); },
                                      {"trees[1] lacks the key 'layers'"});
  const std::optional<T> none, some = vec<B>({1});
  expect_throws_with<ep::value_error>([&] { (void)ep::tree_map(f, some, none); },
                                      {"trees[1] is empty (std::nullopt), but trees[0] holds a "
                                       "value"});
  // The transforms name their own trees.
  expect_throws_with<ep::value_error>(
      [&] { (void)ep::jvp([](const M& m) { return m.at("layers")[0]; }, a, b); },
      {"jvp: the tangent v['layers'] holds 1 tensors, but x['layers'] holds 2"});
  const M wrong_shape{{"layers", {vec<B>({1, 2}), vec<B>({2})}}};
  expect_throws_with<ep::value_error>(
      [&] { (void)ep::jvp([](const M& m) { return m.at("layers")[0]; }, a, wrong_shape); },
      {"jvp: the tangent v['layers'][0] has shape (2,), but x['layers'][0] has shape (1,)"});
}

TYPED_TEST(Tree, StructGradientsEqualTupleGradients) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  const T x = ep::test::random_tensor<B>({4, 3}, -1, 1, 5);
  const Params<B> p{ep::test::random_tensor<B>({3, 2}, -1, 1, 6), vec<B>({0.5, -0.25}), 3};
  auto loss_s = [&](const Params<B>& q) { return (x.matmul(q.w) + q.b).tanh().sum(); };
  auto loss_t = [&](const std::tuple<T, T>& q) {
    return (x.matmul(std::get<0>(q)) + std::get<1>(q)).tanh().sum();
  };
  const auto [vs, gs] = ep::value_and_grad(loss_s, p);
  const auto [vt, gt] = ep::value_and_grad(loss_t, std::tuple{p.w, p.b});
  ep::test::expect_close(vs, vt);
  ep::test::expect_close(gs.w, std::get<0>(gt));
  ep::test::expect_close(gs.b, std::get<1>(gt));
  EXPECT_EQ(gs.tag, 3);
  // A map of parameters, a leaf f does not read, a constant leaf, an empty vector.
  using Mixed = std::tuple<std::map<std::string, T>, double, std::vector<T>>;
  const Mixed m{{{"w", p.w}, {"unused", p.b}}, 2.5, {}};
  auto loss_m = [&](const Mixed& q) {
    return (x.matmul(std::get<0>(q).at("w")) * std::get<1>(q)).sum();
  };
  const auto [vm, gm] = ep::value_and_grad(loss_m, m);
  ep::test::expect_close(
      std::get<0>(gm).at("w"),
      ep::value_and_grad([&](const T& w) { return (x.matmul(w) * 2.5).sum(); }, p.w).second);
  EXPECT_EQ(std::get<0>(gm).at("unused").to_vector(), (std::vector<double>{0, 0}));
  EXPECT_EQ(std::get<1>(gm), 0.0);
  EXPECT_TRUE(std::get<2>(gm).empty());
  // Higher order through a struct: d/dw of sum(d/dw sum(w^3)) = 6 w.
  auto inner = [](const Params<B>& q) { return (q.w * q.w * q.w).sum() + q.b.sum(); };
  auto outer = [&](const Params<B>& q) { return ep::grad(inner)(q).w.sum(); };
  ep::test::expect_close(ep::grad(outer)(p).w, p.w * 6, 1e-12);
}

TYPED_TEST(Tree, TreesThroughVjpJvpJacobian) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  const Params<B> p{vec<B>({1, 2}), vec<B>({3, -1}), 0};
  // f: Params -> a pair of tensors.
  auto f = [](const Params<B>& q) { return std::pair{q.w * q.b, (q.w + q.b).sum()}; };
  const auto result = ep::vjp(f, p);  // not a structured binding: a lambda captures pb
  const auto& pb = result.second;
  const auto g = pb(std::pair{vec<B>({1, 1}), vec<B>({1}).sum()});
  // d/dw (w b).sum() + (w + b).sum() = b + 1; d/db = w + 1
  EXPECT_EQ(g.w.to_vector(), (std::vector<double>{4, 0}));
  EXPECT_EQ(g.b.to_vector(), (std::vector<double>{2, 3}));
  ep::test::expect_throws_with<ep::value_error>(
      [&] {
        (void)pb(std::pair{vec<B>({1}), vec<B>({1})});
      },
      {"vjp: the cotangent g[0] has shape (1,), but f(x)[0] has shape (2,)"});
  // jvp of the tree-valued f with a struct tangent: J v.
  const Params<B> v{vec<B>({1, 0}), vec<B>({0, 1}), 0};
  const auto [y2, jv] = ep::jvp(f, p, v);
  EXPECT_EQ(jv.first.to_vector(), (std::vector<double>{3, 2}));  // b dw + w db
  EXPECT_EQ(jv.second.to_vector(), (std::vector<double>{2}));
  // jacobian with respect to a struct: one Jacobian per member.
  const auto J = ep::jacobian([](const Params<B>& q) { return q.w * q.b; }, p);
  EXPECT_EQ(J.w.shape(), (ep::Shape{2, 2}));
  EXPECT_EQ(J.w.to_vector(), (std::vector<double>{3, 0, 0, -1}));
  EXPECT_EQ(J.b.to_vector(), (std::vector<double>{1, 0, 0, 2}));
  // An empty vector of parameters: J v is 0.
  const T z = vec<B>({1, 2});
  const auto [y3, jv3] =
      ep::jvp([&](const std::vector<T>&) { return z * 2; }, std::vector<T>{}, std::vector<T>{});
  EXPECT_EQ(jv3.to_vector(), (std::vector<double>{0, 0}));
}

TYPED_TEST(Tree, HessianOfATreeIsTheBlocksOfTheFlatHessian) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  const T x = ep::test::random_tensor<B>({4, 3}, -1, 1, 8);
  const Params<B> p{ep::test::random_tensor<B>({3, 2}, -1, 1, 9), vec<B>({0.5, -0.25}), 0};
  auto loss = [&](const Params<B>& q) { return (x.matmul(q.w) + q.b).tanh().square().sum(); };
  const auto H = ep::hessian(loss, p);
  // The oracle: the Hessian of the same loss of one vector holding w (6) then b (2).
  auto flat_loss = [&](const T& v) {
    return loss(Params<B>{v(ep::slice(0, 6)).reshape(3, 2), v(ep::slice(6, 8)), 0});
  };
  const T full = ep::hessian(flat_loss, ep::concatenate(std::vector<T>{p.w.reshape({6}), p.b}));
  ASSERT_EQ(H.size(), 2U);
  ASSERT_EQ(H[0].size(), 2U);
  EXPECT_EQ(H[0][0].shape(), (ep::Shape{3, 2, 3, 2}));
  EXPECT_EQ(H[0][1].shape(), (ep::Shape{3, 2, 2}));
  EXPECT_EQ(H[1][0].shape(), (ep::Shape{2, 3, 2}));
  EXPECT_EQ(H[1][1].shape(), (ep::Shape{2, 2}));
  using ep::slice;
  ep::test::expect_close(H[0][0].reshape(6, 6), full(slice(0, 6), slice(0, 6)), 1e-12);
  ep::test::expect_close(H[0][1].reshape(6, 2), full(slice(0, 6), slice(6, 8)), 1e-12);
  ep::test::expect_close(H[1][0].reshape(2, 6), full(slice(6, 8), slice(0, 6)), 1e-12);
  ep::test::expect_close(H[1][1], full(slice(6, 8), slice(6, 8)), 1e-12);
  // Symmetric, as a Hessian is.
  ep::test::expect_close(H[0][1].reshape(6, 2), H[1][0].reshape(2, 6).T(), 1e-12);
  ep::test::expect_throws_with<ep::value_error>(
      [&] { (void)ep::hessian([](const Params<B>& q) { return q.w; }, p); },
      {"hessian: f must return a scalar", "shape (3, 2)", "Params<B>{w: *, b: *}"});
}

TYPED_TEST(Tree, CheckpointTakesTrees) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  const T x = ep::test::random_tensor<B>({4, 3}, -1, 1, 10);
  const Params<B> p{ep::test::random_tensor<B>({3, 2}, -1, 1, 11), vec<B>({0.5, -0.25}), 0};
  auto layer = [](const T& h, const Params<B>& q) { return (h.matmul(q.w) + q.b).tanh(); };
  auto plain = [&](const std::pair<T, Params<B>>& a) {
    return layer(a.first, a.second).square().sum();
  };
  auto kept = [&](const std::pair<T, Params<B>>& a) {
    return ep::checkpoint(layer)(a.first, a.second).square().sum();
  };
  const auto [v1, g1] = ep::value_and_grad(plain, std::pair{x, p});
  const auto [v2, g2] = ep::value_and_grad(kept, std::pair{x, p});
  EXPECT_EQ(v1.item(), v2.item());
  // The same ops in the same order: the gradients bit for bit.
  EXPECT_EQ(g1.first.to_vector(), g2.first.to_vector());
  EXPECT_EQ(g1.second.w.to_vector(), g2.second.w.to_vector());
  EXPECT_EQ(g1.second.b.to_vector(), g2.second.b.to_vector());
  // Outside value_and_grad it is f itself.
  EXPECT_EQ(ep::checkpoint(layer)(x, p).to_vector(), layer(x, p).to_vector());
}

}  // namespace tree_suite
