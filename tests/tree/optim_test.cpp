// eagerpp - ep::optim: each optimizer's first steps against values computed by hand (NumPy
// formulas), the schedules, clipping by global norm, and L-BFGS on Rosenbrock against SciPy's
// iteration count, on each CPU backend
// SPDX-License-Identifier: MIT
#include <cstdint>  // std::int64_t
#include <map>      // std::map
#include <string>   // std::string
#include <vector>   // std::vector

#include <gtest/gtest.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/optim.hpp>
#include <eagerpp/xtensor.hpp>
#ifdef EAGERPP_TEST_OMP
#include <eagerpp/omp.hpp>
#endif

#include "support/support.hpp"

namespace optim_test {

template <class B>
struct Params {
  ep::Tensor<B> w;
  ep::Tensor<B> b;
};
template <class B>
EAGERPP_TREE(Params<B>, w, b)

}  // namespace optim_test

namespace optim_suite {

using optim_test::Params;

template <class B>
class Optim : public ::testing::Test {};

#ifdef EAGERPP_TEST_OMP
using Backends = ::testing::Types<ep::eigen<double>, ep::xtensor<double>, ep::omp<double>>;
#else
using Backends = ::testing::Types<ep::eigen<double>, ep::xtensor<double>>;
#endif
TYPED_TEST_SUITE(Optim, Backends);

template <class B>
ep::Tensor<B> vec(std::vector<double> v) {
  const auto n = static_cast<std::int64_t>(v.size());
  return ep::from_vector<B>(v, ep::Shape{n});
}

void expect_values(const auto& t, const std::vector<double>& expected, double tol = 1e-12) {
  const auto got = t.to_vector();
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], tol) << i;
}

// p = (1, 2) and the gradients g1 = (0.5, -1), g2 = (0.25, 1) in every test below; the expected
// values are the update formulas of PyTorch's optimizers evaluated by hand (with NumPy).
TYPED_TEST(Optim, SgdFirstSteps) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  const T p = vec<B>({1, 2}), g1 = vec<B>({0.5, -1});
  ep::optim::sgd plain(p, 0.1);
  expect_values(plain.step(p, g1), {0.95, 2.1});
  // Momentum 0.9 and weight decay 0.1, twice with g1: g' = g + 0.1 p, b = 0.9 b + g', p -= 0.1 b.
  ep::optim::sgd heavy(p, 0.1, {.momentum = 0.9, .weight_decay = 0.1});
  const T p1 = heavy.step(p, g1);
  expect_values(p1, {0.94, 2.08});
  expect_values(heavy.step(p1, g1), {0.8266, 2.2312});
  // Nesterov: p -= 0.1 (g' + 0.9 b).
  ep::optim::sgd nesterov(p, 0.1, {.momentum = 0.9, .nesterov = true, .weight_decay = 0.1});
  expect_values(nesterov.step(p, g1), {0.886, 2.152});
}

TYPED_TEST(Optim, AdamAdamwRmspropFirstSteps) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  const T p = vec<B>({1, 2}), g1 = vec<B>({0.5, -1}), g2 = vec<B>({0.25, 1});
  ep::optim::adam a(p, 0.1);
  const T a1 = a.step(p, g1);
  expect_values(a1, {0.900000002, 2.099999999});
  expect_values(a.step(a1, g2), {0.8067820404774624, 2.0947368411578946});
  EXPECT_EQ(a.steps(), 2);
  ep::optim::adam l2(p, 0.1, {.weight_decay = 0.1});
  expect_values(l2.step(l2.step(p, g1), g2), {0.8050097658613199, 2.074859045356938});
  ep::optim::adamw w(p, 0.1, {.weight_decay = 0.1});
  expect_values(w.step(w.step(p, g1), g2), {0.7878820404574624, 2.0539368411678947});
  ep::optim::rmsprop r(p, 0.01);
  expect_values(r.step(r.step(p, g1), g2), {0.855098702557817, 2.029111874524293});
  ep::optim::rmsprop rm(p, 0.01, {.momentum = 0.9});
  expect_values(rm.step(rm.step(p, g1), g2), {0.7650987205578135, 2.1191118655242938});
}

TYPED_TEST(Optim, StepsTreesOfParameters) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  // A struct and a map of parameters step as their leaves do one by one.
  const Params<B> p{vec<B>({1, 2}), vec<B>({3})};
  const Params<B> g{vec<B>({0.5, -1}), vec<B>({2})};
  ep::optim::adam a(p, 0.1);
  const Params<B> q = a.step(p, g);
  expect_values(q.w, {0.900000002, 2.099999999});
  expect_values(q.b, {2.9000000005});
  expect_values(a.first_moment().b, {0.2});
  using M = std::map<std::string, T>;
  ep::optim::sgd s(M{{"w", p.w}}, 0.1);
  expect_values(s.step(M{{"w", p.w}}, M{{"w", g.w}}).at("w"), {0.95, 2.1});
  ep::test::expect_throws_with<ep::value_error>(
      [&] {
        (void)s.step(M{{"w", p.w}}, M{{"v", g.w}});
      },
      {"lacks the key 'w'"});
  // A training loop: Adam on a least-squares fit through value_and_grad of the struct.
  const T x = vec<B>({0, 1, 2, 3});
  const T y = x * 2 + 1;
  auto loss = [&](const Params<B>& r) { return (x * r.w(0) + r.b - y).square().mean(); };
  Params<B> r{vec<B>({0}), vec<B>({0})};
  ep::optim::adam fit(r, 0.1);
  for (int k = 0; k < 500; ++k) r = fit.step(r, ep::value_and_grad(loss, r).second);
  EXPECT_NEAR(r.w.to_vector()[0], 2, 1e-3);
  EXPECT_NEAR(r.b.to_vector()[0], 1, 1e-3);
}

TYPED_TEST(Optim, SchedulesAndClipping) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  const auto step = ep::optim::step_decay(1, 2, 0.5);
  const auto cos = ep::optim::cosine(1, 4);
  const auto warm = ep::optim::warmup(ep::optim::constant(1), 4);
  const std::vector<double> steps{1, 1, 0.5, 0.5, 0.25},
      cosines{1, 0.8535533905932737, 0.5, 0.14644660940672627, 0}, warms{0.25, 0.5, 0.75, 1, 1};
  for (std::int64_t k = 0; k < 5; ++k) {
    EXPECT_DOUBLE_EQ(step(k), steps[k]) << k;
    EXPECT_NEAR(cos(k), cosines[k], 1e-15) << k;
    EXPECT_DOUBLE_EQ(warm(k), warms[k]) << k;
  }
  // A schedule drives the optimizer: sgd with lr 1, 1, 0.5 on a constant gradient.
  T p = vec<B>({0});
  ep::optim::sgd s(p, step);
  for (int k = 0; k < 3; ++k) p = s.step(p, vec<B>({1}));
  expect_values(p, {-2.5});
  // Clipping: the tree {3, 4} has global norm 5.
  const std::vector<T> g{vec<B>({3}), vec<B>({4})};
  EXPECT_DOUBLE_EQ(ep::optim::global_norm(g).item(), 5.0);
  const auto c = ep::optim::clip_by_global_norm(g, 1.0);
  expect_values(c[0], {0.6}, 1e-6);
  expect_values(c[1], {0.8}, 1e-6);
  expect_values(ep::optim::clip_by_global_norm(g, 10.0)[1], {4});  // below the bound: unchanged
}

TYPED_TEST(Optim, LbfgsSolvesRosenbrockInScipysIterationCount) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  auto rosenbrock = [](const T& x) {
    const auto head = x(ep::slice({}, -1));
    const auto tail = x(ep::slice(1, {}));
    return ((1 - head).square() + 100 * (tail - head.square()).square()).sum();
  };
  // SciPy 1.10.1's L-BFGS-B with its defaults (maxcor 10, pgtol 1e-5, ftol 2.2e-9), which
  // ep::optim::lbfgs_options copies, takes 36 iterations (44 evaluations) from (-1.2, 1):
  //   scipy.optimize.minimize(rosen, [-1.2, 1], jac=rosen_der, method="L-BFGS-B").nit
  constexpr int scipy_iterations = 36;
  ep::optim::lbfgs<T> opt;
  const auto r = opt.minimize(rosenbrock, vec<B>({-1.2, 1}), 200);
  EXPECT_TRUE(r.converged);
  EXPECT_GE(r.iterations, scipy_iterations * 8 / 10);
  EXPECT_LE(r.iterations, scipy_iterations * 12 / 10);
  expect_values(r.params, {1, 1}, 1e-4);
  EXPECT_LT(r.value, 1e-9);
  // A tree of parameters: the same problem split into a struct of two 1-element tensors.
  auto split = [&](const Params<B>& q) {
    return rosenbrock(ep::concatenate(std::vector<T>{q.w, q.b}, 0));
  };
  ep::optim::lbfgs<Params<B>> opt2;
  const auto r2 = opt2.minimize(split, Params<B>{vec<B>({-1.2}), vec<B>({1})}, 200);
  EXPECT_EQ(r2.iterations, r.iterations);
  expect_values(r2.params.w, {1}, 1e-4);
}

}  // namespace optim_suite
