// eagerpp - the typed suite of vjp, jvp, jacobian, hessian, checkpoint and memory_stats
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>   // std::max
#include <cmath>       // std::abs
#include <cstddef>     // std::size_t
#include <cstdint>     // std::int64_t, std::uint64_t
#include <functional>  // std::function
#include <string>      // std::string
#include <tuple>       // std::tuple, std::get
#include <vector>      // std::vector

#include <gtest/gtest.h>

#include "support/support.hpp"

// Jacobians are checked against central finite differences, every other result against an
// independent oracle: A + A^T, the softmax's p p^T, jacobian(f, x) @ v, value_and_grad of <f, g>,
// and un-checkpointed gradients. Instantiated for double backends only (finite differences).
namespace jacobian_suite {

using ep::test::random_tensor;

template <class B>
using unary = std::function<ep::Tensor<B>(const ep::Tensor<B>&)>;

/// Expects `jac` (shape f(x).shape + x.shape) to match central finite differences of f at x.
template <class B>
void expect_fd_jacobian(const unary<B>& f, const ep::Tensor<B>& x, const ep::Tensor<B>& jac,
                        const std::string& name) {
  const ep::Tensor<B> y = f(x);
  ep::Shape s = y.shape();
  for (auto d : x.shape()) s.push_back(d);
  ASSERT_EQ(jac.shape(), s) << name;
  const auto x0 = x.to_vector();
  const auto got = jac.to_vector();
  const std::size_t nx = x0.size(), ny = static_cast<std::size_t>(y.size());
  for (std::size_t j = 0; j < nx; ++j) {
    auto xp = x0, xm = x0;
    const double h = 1e-6 * std::max(1.0, std::abs(x0[j]));
    xp[j] += h;
    xm[j] -= h;
    const auto up = f(ep::from_vector<B>(xp, x.shape())).to_vector();
    const auto down = f(ep::from_vector<B>(xm, x.shape())).to_vector();
    for (std::size_t i = 0; i < ny; ++i) {
      const double expected = (up[i] - down[i]) / (xp[j] - xm[j]);
      EXPECT_NEAR(got[i * nx + j], expected, 1e-7 + 1e-5 * std::abs(expected))
          << name << ": d f[" << i << "] / d x[" << j << "]";
    }
  }
}

/// A chain of tanh(h W + b) layers, each wrapped by `layer_fn` (identity or ep::checkpoint).
template <class T, class L>
T chain(const T& x, const std::vector<T>& p, const L& layer) {
  T h = x;
  for (std::size_t k = 0; k + 1 < p.size(); k += 2) h = layer(h, p[k], p[k + 1]);
  return h;
}

}  // namespace jacobian_suite

EAGERPP_TYPED_SUITE(Jacobian);

TYPED_TEST_P(Jacobian, JacobiansMatchFiniteDifferences) {
  using namespace jacobian_suite;
  using T = ep::Tensor<TypeParam>;
  const T a = random_tensor<TypeParam>({4, 3}, -1, 1, 3);
  const T row = random_tensor<TypeParam>({3}, -1, 1, 4);
  const T three_i = ep::test::tensor<TypeParam>(std::vector<double>{3, 0, 0, 3}, {2, 2});
  const auto idx =
      ep::from_vector<typename TypeParam::template rebind<std::int64_t>>({2, 0, 2}, {3});
  struct named {
    std::string name;
    unary<TypeParam> f;
    ep::Shape shape;
  };
  const std::vector<named> cases = {
      {"sin(x) * exp(x)", [](const T& x) { return x.sin() * x.exp(); }, {2, 3}},
      {"x / (1 + x^2)", [](const T& x) { return x / (x.square() + 1); }, {5}},
      {"broadcast x * row + row-sums",
       [&](const T& x) { return x * row + x.sum(1, true); },
       {2, 3}},
      {"sum over axis 1", [](const T& x) { return x.sum(1); }, {2, 3}},
      {"prod over axis 0", [](const T& x) { return x.prod(0); }, {3, 2}},
      {"max over axis 0", [](const T& x) { return x.max(0); }, {3, 2}},
      {"logsumexp over axis -1, scalar mean",
       [](const T& x) { return x.logsumexp(-1).mean(); },
       {2, 3}},
      {"a @ x", [&](const T& x) { return a.matmul(x); }, {3, 2}},
      {"x @ x.T", [](const T& x) { return x.matmul(x.T()); }, {2, 3}},
      {"softmax", [](const T& x) { return x.softmax(); }, {2, 3}},
      {"log_softmax over axis 0", [](const T& x) { return x.log_softmax(0); }, {3, 2}},
      {"x[1, ::2]",
       [](const T& x) { return x(1, ep::slice(std::nullopt, std::nullopt, 2)); },
       {2, 3}},
      {"x[[2, 0, 2]] (repeated index)", [&](const T& x) { return x[idx]; }, {3, 2}},
      {"cumsum, transpose, reshape",
       [](const T& x) { return x.cumsum(0).T().reshape({6}); },
       {2, 3}},
      {"inv(x + 3 I)", [&](const T& x) { return (x + three_i).inv(); }, {2, 2}},
      // The array API's differentiable functions.
      {"hypot(x, row) + logaddexp(x, row)",
       [&](const T& x) { return ep::hypot(x, row) + ep::logaddexp(x, row); },
       {2, 3}},
      {"atan2(x, row) * copysign(x, row)",
       [&](const T& x) { return ep::atan2(x, row) * ep::copysign(x, row); },
       {2, 3}},
      {"reciprocal(x + 3), clip(x, row - 0.5, row + 0.5)",
       [&](const T& x) { return ep::reciprocal(x + 3) + ep::clip(x, row - 0.5, row + 0.5); },
       {2, 3}},
      {"var(x, 1, correction 1) + stddev(x, 1)",
       [](const T& x) { return ep::var(x, 1, 1) + ep::stddev(x, 1); },
       {2, 3}},
      {"tril(x, -1) + 2 triu(x, 1), moveaxis",
       [](const T& x) { return ep::moveaxis(ep::tril(x, -1) + 2 * ep::triu(x, 1), 0, 1); },
       {3, 3}},
      {"roll(diff(x), 1), repeat(x, 2, 0)",
       [](const T& x) {
         return ep::concatenate(
             {ep::roll(ep::diff(x), 1).reshape({4}), ep::repeat(x, 2, 0).reshape({12})}, 0);
       },
       {2, 3}},
      {"vecdot(x, row), tensordot(x, row, 1), cumulative_prod(x, 1)",
       [&](const T& x) {
         return ep::concatenate(
             {ep::vecdot(x, row), ep::tensordot(x, row, 1), ep::cumulative_prod(x, 1).reshape({6})},
             0);
       },
       {2, 3}},
  };
  for (const auto& c : cases) {
    const T x = random_tensor<TypeParam>(c.shape, -1, 1, 9);
    expect_fd_jacobian(c.f, x, ep::jacobian(c.f, x), c.name);
  }
}

// The decompositions of ep::linalg, where the backend has them: whole Jacobians of their outputs
// (sign-free ones for qr and svd, whose signs the libraries choose), not one weighted sum.
TYPED_TEST_P(Jacobian, LinalgDecompositions) {
  using namespace jacobian_suite;
  using T = ep::Tensor<TypeParam>;
  if constexpr (ep::decomposition_backend<TypeParam>) {
    const T spd_shift = ep::test::tensor<TypeParam>(std::vector<double>{3, 0, 0, 3}, {2, 2});
    const auto sym = [&](const T& x) { return (x + ep::matrix_transpose(x)) * 0.5 + spd_shift; };
    struct named {
      std::string name;
      unary<TypeParam> f;
      ep::Shape shape;
    };
    const std::vector<named> cases = {
        {"cholesky(sym(x) + 3 I)",
         [&](const T& x) { return ep::linalg::cholesky(sym(x)); },
         {2, 2}},
        {"solve(x + 3 I, x[0])",
         [&](const T& x) { return ep::linalg::solve(x + spd_shift, x(0)); },
         {2, 2}},
        {"qr(x).R squared", [](const T& x) { return ep::linalg::qr(x).R.square(); }, {3, 2}},
        {"svdvals(x)", [](const T& x) { return ep::linalg::svdvals(x); }, {2, 3}},
        {"eigh(sym(x)) values and squared vectors",
         [&](const T& x) {
           const auto [w, v] = ep::linalg::eigh(sym(x));
           return ep::concat(std::vector<T>{w, v.square().reshape({4})});
         },
         {2, 2}},
        {"det(x)", [](const T& x) { return ep::linalg::det(x); }, {3, 3}},
        {"pinv(x)", [](const T& x) { return ep::linalg::pinv(x); }, {3, 2}},
    };
    for (const auto& c : cases) {
      const T x = random_tensor<TypeParam>(c.shape, -1, 1, 31);
      expect_fd_jacobian(c.f, x, ep::jacobian(c.f, x), c.name);
    }
  } else {
    GTEST_SKIP() << TypeParam::name << " has no decompositions (ep::decomposition_backend)";
  }
}

TYPED_TEST_P(Jacobian, TupleAndVectorParameters) {
  using namespace jacobian_suite;
  using T = ep::Tensor<TypeParam>;
  const T a = random_tensor<TypeParam>({2, 3}, -1, 1, 21);
  const T b = random_tensor<TypeParam>({3}, -1, 1, 22);
  auto f = [](const T& u, const T& v) { return (u * v).tanh(); };  // (2, 3): broadcasts v
  const auto [ja, jb] =
      ep::jacobian([&](const std::tuple<T, T>& p) { return f(std::get<0>(p), std::get<1>(p)); },
                   std::tuple{a, b});
  expect_fd_jacobian<TypeParam>([&](const T& u) { return f(u, b); }, a, ja, "tuple, first");
  expect_fd_jacobian<TypeParam>([&](const T& v) { return f(a, v); }, b, jb, "tuple, second");
  const auto jv =
      ep::jacobian([&](const std::vector<T>& p) { return f(p[0], p[1]); }, std::vector<T>{a, b});
  ASSERT_EQ(jv.size(), 2u);
  ep::test::expect_close(jv[0], ja);
  ep::test::expect_close(jv[1], jb);
}

TYPED_TEST_P(Jacobian, HessianOfQuadraticFormIsASymmetrized) {
  using namespace jacobian_suite;
  using T = ep::Tensor<TypeParam>;
  const T a = random_tensor<TypeParam>({3, 3}, -2, 2, 31);
  const T x = random_tensor<TypeParam>({3}, -1, 1, 32);
  const T h = ep::hessian([&](const T& v) { return (v * a.matmul(v)).sum(); }, x);
  ep::test::expect_close(h, a + a.T(), 1e-14, 1e-14);
  // log(sum(exp(x))): the Hessian is diag(p) - p p^T with p = softmax(x).
  const auto p = x.softmax().to_vector();
  std::vector<double> expected;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) expected.push_back((i == j ? p[i] : 0.0) - p[i] * p[j]);
  ep::test::expect_near(ep::hessian([](const T& v) { return v.logsumexp(); }, x), {3, 3}, expected,
                        1e-12, 1e-15);
}

TYPED_TEST_P(Jacobian, JvpEqualsJacobianTimesTangent) {
  using namespace jacobian_suite;
  using T = ep::Tensor<TypeParam>;
  const T x = random_tensor<TypeParam>({2, 3}, -1, 1, 41);
  const T v = random_tensor<TypeParam>({2, 3}, -1, 1, 42);
  const std::vector<unary<TypeParam>> fs = {[](const T& u) { return u.softmax(); },
                                            [](const T& u) { return u.matmul(u.T()).sum(0); },
                                            [](const T& u) { return (u.exp() * u).sum(); }};
  for (const auto& f : fs) {
    const auto [y, jv] = ep::jvp(f, x, v);
    ep::test::expect_close(y, f(x));
    const T j = ep::jacobian(f, x).reshape({y.size(), 6});
    ep::test::expect_close(jv, j.matmul(v.reshape({6})).reshape(y.shape()), 1e-13, 1e-15);
  }
  // A vector of parameters: the tangents add up.
  const T w = random_tensor<TypeParam>({3}, -1, 1, 43);
  auto g = [](const std::vector<T>& p) { return (p[0] * p[1]).sin(); };
  const auto [y2, jv2] = ep::jvp(g, std::vector<T>{x, w}, std::vector<T>{v, w.ones_like()});
  ep::test::expect_close(jv2, (x * w).cos() * (v * w + x), 1e-14, 1e-15);
  ep::test::expect_close(y2, (x * w).sin());
}

TYPED_TEST_P(Jacobian, VjpPullbackCanBeCalledAgain) {
  using namespace jacobian_suite;
  using T = ep::Tensor<TypeParam>;
  const T x = random_tensor<TypeParam>({2, 3}, -1, 1, 51);
  auto f = [](const T& u) { return u.matmul(u.T()).tanh(); };  // (2, 2)
  const auto [y, pb] = ep::vjp(f, x);
  ep::test::expect_close(y, f(x));
  const T g1 = random_tensor<TypeParam>({2, 2}, -1, 1, 52);
  const T g2 = random_tensor<TypeParam>({2, 2}, -1, 1, 53);
  const T first = pb(g1);
  const T second = pb(g2);
  ep::test::expect_close(pb(g1), first);  // the tape is not consumed
  for (const auto& [g, got] : {std::pair{g1, first}, std::pair{g2, second}}) {
    const T& cotangent = g;  // a structured binding is not captured (clang 14)
    ep::test::expect_close(
        got, ep::value_and_grad([&](const T& u) { return (f(u) * cotangent).sum(); }, x).second,
        1e-14);
  }
}

TYPED_TEST_P(Jacobian, CheckpointedGradientsEqualPlainOnes) {
  using namespace jacobian_suite;
  using T = ep::Tensor<TypeParam>;
  const T x = random_tensor<TypeParam>({5, 4}, -1, 1, 61);
  std::vector<T> p;
  for (std::uint64_t k = 0; k < 4; ++k) {
    p.push_back(random_tensor<TypeParam>({4, 4}, -0.8, 0.8, 70 + k));
    p.push_back(random_tensor<TypeParam>({4}, -0.5, 0.5, 80 + k));
  }
  const T r = random_tensor<TypeParam>({5, 4}, -1, 1, 62);
  auto plain = [](const T& h, const T& w, const T& b) { return (h.matmul(w) + b).tanh(); };
  const auto saved = ep::checkpoint(plain);
  auto loss = [&](const auto& layer) {
    return [&x, &r, layer](const std::vector<T>& q) { return (chain(x, q, layer) * r).sum(); };
  };
  const auto [v0, g0] = ep::value_and_grad(loss(plain), p);
  const auto [v1, g1] = ep::value_and_grad(loss(saved), p);
  ep::test::expect_close(v1, v0);
  ASSERT_EQ(g1.size(), g0.size());
  for (std::size_t k = 0; k < g0.size(); ++k) ep::test::expect_close(g1[k], g0[k]);  // exactly
  ep::test::expect_close(saved(x, p[0], p[1]), plain(x, p[0], p[1]));  // off the tape: f itself
  // Higher order: the Hessian through a checkpointed function (its recomputation is recorded).
  auto q = [](const T& u) { return (u.sin() * u).exp(); };
  const auto qs = ep::checkpoint(q);
  const T u = random_tensor<TypeParam>({3}, -1, 1, 63);
  ep::test::expect_close(ep::hessian([&](const T& z) { return qs(z).sum(); }, u),
                         ep::hessian([&](const T& z) { return q(z).sum(); }, u), 1e-14, 1e-15);
}

TYPED_TEST_P(Jacobian, BadInputNamesTheShapes) {
  using T = ep::Tensor<TypeParam>;
  const T x = jacobian_suite::random_tensor<TypeParam>({2, 3}, -1, 1, 91);
  using ep::test::expect_throws_with;
  expect_throws_with<ep::value_error>(
      [&] { (void)ep::hessian([](const T& u) { return u.sum(0); }, x); },
      {"hessian", "scalar", "(3,)", "(2, 3)"});
  expect_throws_with<ep::value_error>(
      [&] { (void)ep::jvp([](const T& u) { return u.exp(); }, x, x.reshape({6})); },
      {"jvp", "(6,)", "(2, 3)"});
  expect_throws_with<ep::value_error>(
      [&] {
        (void)ep::jvp([](const std::vector<T>& u) { return u[0]; }, std::vector<T>{x},
                      std::vector<T>{});
      },
      {"jvp", "0 tensors", "holds 1"});
  const auto pullback = ep::vjp([](const T& u) { return u.sum(1); }, x).second;
  expect_throws_with<ep::value_error>([&] { (void)pullback(x); }, {"vjp", "(2, 3)", "(2,)"});
}

TYPED_TEST_P(Jacobian, MemoryStatsCountLiveAndPeakBytes) {
  using namespace jacobian_suite;
  using T = ep::Tensor<TypeParam>;
  if constexpr (TypeParam::name == "cuda") {  // every CPU backend takes its storage from ep::buffer
    GTEST_SKIP()
        << "memory_stats counts host storage from eagerpp's allocator, not CUDA's device memory";
  } else {
    const T x = random_tensor<TypeParam>({1000}, -1, 1, 95);
    const ep::memory_statistics before = ep::memory_stats();
    {
      const T y = x.exp();  // one buffer of 8000 bytes, rounded up by at most 1/8, plus a header
      const ep::memory_statistics during = ep::memory_stats();
      EXPECT_GE(during.live_bytes - before.live_bytes, 8000u);
      EXPECT_LE(during.live_bytes - before.live_bytes, 9000u + 256u);
      EXPECT_GE(during.peak_bytes, during.live_bytes);
      ep::reset_peak_memory();
      EXPECT_EQ(ep::memory_stats().peak_bytes, during.live_bytes);
    }
    EXPECT_EQ(ep::memory_stats().live_bytes, before.live_bytes);
    // Checkpointing keeps one tensor per layer on the tape instead of three: the peak, gradients of
    // the backward pass included, stays well below two thirds of the plain one.
    std::vector<T> p;
    for (std::uint64_t k = 0; k < 8; ++k) {
      p.push_back(random_tensor<TypeParam>({16, 16}, -0.3, 0.3, 100 + k));
      p.push_back(random_tensor<TypeParam>({16}, -0.3, 0.3, 200 + k));
    }
    const T batch = random_tensor<TypeParam>({256, 16}, -1, 1, 96);
    auto layer = [](const T& h, const T& w, const T& b) { return (h.matmul(w) + b).tanh(); };
    auto peak_of = [&](const auto& l) {
      ep::reset_peak_memory();
      const std::size_t base = ep::memory_stats().live_bytes;
      (void)ep::value_and_grad([&](const std::vector<T>& q) { return chain(batch, q, l).sum(); },
                               p);
      return ep::memory_stats().peak_bytes - base;
    };
    const std::size_t plain = peak_of(layer), saved = peak_of(ep::checkpoint(layer));
    EXPECT_LT(saved * 3, plain * 2)
        << "peak bytes: " << saved << " checkpointed, " << plain << " plain";
  }
}

REGISTER_TYPED_TEST_SUITE_P(Jacobian, JacobiansMatchFiniteDifferences, TupleAndVectorParameters,
                            HessianOfQuadraticFormIsASymmetrized, JvpEqualsJacobianTimesTangent,
                            VjpPullbackCanBeCalledAgain, CheckpointedGradientsEqualPlainOnes,
                            BadInputNamesTheShapes, MemoryStatsCountLiveAndPeakBytes,
                            LinalgDecompositions);
