// eagerpp - typed tests of ep::fuse on the backends with a fused loop (Eigen, xtensor, omp), float
// and double: every element-wise op and operator inside a fused function against the same function
// run eagerly, broadcasting, scalars, 0-size and 0-d inputs, sizes around the packet width and the
// threads' split, errors, and gradients (first and second order) against the eager ones
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>    // std::signbit, std::isnan
#include <cstdint>  // std::int64_t
#include <limits>   // std::numeric_limits
#include <string>   // std::string
#include <tuple>    // std::tuple
#include <utility>  // std::pair
#include <vector>   // std::vector

#include <gtest/gtest.h>

#include <eagerpp/fuse.hpp>

#include "suites/unary_cases.hpp"
#include "support/support.hpp"

EAGERPP_TYPED_SUITE(Fuse);

namespace fuse_test {

/// Relative tolerance of fused against eager: the packet functions of a backend (pexp, xsimd::exp)
/// and the C library's, which eager tails use, differ by a few ulp.
template <class B>
constexpr double tol() {
  return std::is_same_v<typename B::value_type, float> ? 4e-6 : 1e-14;
}

/// Expects a and b of one shape, equal within tol<B>() (NaN where the other has NaN).
template <class B>
void expect_same(const ep::Tensor<B>& fused, const ep::Tensor<B>& eager, const std::string& what) {
  ASSERT_EQ(fused.shape(), eager.shape()) << what;
  const auto f = fused.to_vector();
  const auto e = eager.to_vector();
  for (std::size_t i = 0; i < f.size(); ++i) {
    const double x = f[i], y = e[i];
    if (std::isnan(y)) {
      EXPECT_TRUE(std::isnan(x)) << what << " element " << i;
    } else if (std::isinf(y)) {
      EXPECT_EQ(x, y) << what << " element " << i;
    } else {
      EXPECT_NEAR(x, y, tol<B>() * (1 + std::abs(y))) << what << " element " << i;
    }
  }
}

template <class B>
ep::Tensor<B> inputs(std::int64_t n, double lo, double hi, std::uint64_t seed = 7) {
  return ep::test::tensor<B>(ep::test::random_values(static_cast<std::size_t>(n), lo, hi, seed),
                             {n});
}

}  // namespace fuse_test

TYPED_TEST_P(Fuse, ChainEqualsEagerAtEverySize) {
  using B = TypeParam;
  const auto chain = [](const auto& x) { return (-x * x).exp() * x.sin() + 1; };
  // Around the packet widths (1 to 8), past omp's split among threads (32768).
  for (std::int64_t n : {0, 1, 3, 4, 7, 8, 9, 15, 17, 100, 1000, 40000}) {
    const auto x = fuse_test::inputs<B>(n, -3, 3);
    fuse_test::expect_same(ep::fuse(chain)(x), chain(x), "chain n=" + std::to_string(n));
  }
  const auto x0 = ep::full<B>(ep::Shape{}, 0.5);  // 0-d
  fuse_test::expect_same(ep::fuse(chain)(x0), chain(x0), "chain 0-d");
}

TYPED_TEST_P(Fuse, EveryUnaryOpEqualsEager) {
  using B = TypeParam;
  const auto p = fuse_test::inputs<B>(37, 1.1, 20, 3);  // positive, > 1
  // Every row of the unary table, on inputs from its cases' interval (suites/unary_cases.hpp).
#define EAGERPP_CHECK_UNARY(name, dtypes, grad, scalar)                             \
  {                                                                                 \
    const auto* c = unary_cases::find(#name);                                       \
    ASSERT_NE(c, nullptr) << #name << ": no cases in tests/suites/unary_cases.hpp"; \
    const auto u = fuse_test::inputs<B>(37, c->lo, c->hi);                          \
    const auto f = [](const auto& t) { return t.name(); };                          \
    fuse_test::expect_same(ep::fuse(f)(u), f(u), #name);                            \
    const auto g = [](const auto& t) { return ep::name(t * 2) - 1; };               \
    fuse_test::expect_same(ep::fuse(g)(u * 0.5), g(u * 0.5), "ep::" #name);         \
  }
  EAGERPP_UNARY_OPS(EAGERPP_CHECK_UNARY)
#undef EAGERPP_CHECK_UNARY
  const auto r = [](const auto& t) { return ep::reciprocal(t) + ep::positive(t) + t.pow(3); };
  fuse_test::expect_same(ep::fuse(r)(p), r(p), "reciprocal positive pow");
}

TYPED_TEST_P(Fuse, OperatorsScalarsAndSelections) {
  using B = TypeParam;
  const auto x = fuse_test::inputs<B>(23, -2, 2, 1);
  const auto y = fuse_test::inputs<B>(23, -2, 2, 2);
  const auto f = [](const auto& a, const auto& b) {
    auto c = 2 - a * b / 3 + (a - b) * 0.5;
    c += 1;
    return ep::where(a > b, c, -c) + ep::maximum(a, b) - ep::minimum(a, 0.25) + a.clip(-1, 1) +
           ep::where((a < 0) | (b >= 1), 1.5, b) + ep::where(a != b, a, 0);
  };
  fuse_test::expect_same(ep::fuse(f)(x, y), f(x, y), "operators");
  // NumPy's maximum and minimum: NaN propagates from either side, -0.0 < +0.0.
  using T = typename B::value_type;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const auto a = ep::from_vector<B>({nan, 1, 0.0, -0.0, 0.0, -0.0, 2, nan, 3});
  const auto b = ep::from_vector<B>({1, nan, -0.0, 0.0, 0.0, -0.0, 2, nan, -3});
  const auto mx = [](const auto& u, const auto& v) { return ep::maximum(u, v); };
  const auto mn = [](const auto& u, const auto& v) { return ep::minimum(u, v); };
  for (const auto& [fused, eager] :
       {std::pair{ep::fuse(mx)(a, b), mx(a, b)}, std::pair{ep::fuse(mn)(a, b), mn(a, b)}}) {
    const auto u = fused.to_vector(), v = eager.to_vector();
    for (std::size_t i = 0; i < u.size(); ++i) {
      EXPECT_EQ(std::isnan(u[i]), std::isnan(v[i])) << i;
      if (!std::isnan(v[i])) {
        EXPECT_EQ(u[i], v[i]) << i;
        EXPECT_EQ(std::signbit(u[i]), std::signbit(v[i])) << i;
      }
    }
  }
}

TYPED_TEST_P(Fuse, BroadcastsAndChecksShapes) {
  using B = TypeParam;
  const auto col = ep::test::tensor<B>(std::vector<double>{1, -2, 3}, {3, 1});
  const auto row = ep::test::tensor<B>(std::vector<double>{0.5, 1, 2, -1}, {4});
  const auto s = ep::full<B>(ep::Shape{}, 2.0);
  const auto f = [](const auto& a, const auto& b, const auto& c) { return a * b + c.exp(); };
  fuse_test::expect_same(ep::fuse(f)(col, row, s), f(col, row, s), "broadcast (3, 1), (4,), ()");
  fuse_test::expect_same(ep::fuse(f)(ep::zeros<B>({0, 4}), row, s), f(ep::zeros<B>({0, 4}), row, s),
                         "0-size");
  try {
    (void)ep::fuse(f)(col, ep::zeros<B>({2, 4}), s);
    ADD_FAILURE() << "no error";
  } catch (const ep::value_error& e) {
    EXPECT_NE(std::string(e.what()).find("fuse: cannot broadcast shapes (3, 1) and (2, 4)"),
              std::string::npos)
        << e.what();
  }
}

TYPED_TEST_P(Fuse, GradientsEqualTheEagerOnes) {
  using B = TypeParam;
  const auto f = [](const auto& a, const auto& b) { return (-a * a).exp() * b.sin() + a * b; };
  const auto x = fuse_test::inputs<B>(19, -1.5, 1.5, 4);
  const auto y = fuse_test::inputs<B>(19, -1.5, 1.5, 5);
  const auto loss_fused = [&](const std::tuple<ep::Tensor<B>, ep::Tensor<B>>& p) {
    return ep::fuse(f)(std::get<0>(p), std::get<1>(p)).sum();
  };
  const auto loss_eager = [&](const std::tuple<ep::Tensor<B>, ep::Tensor<B>>& p) {
    return f(std::get<0>(p), std::get<1>(p)).sum();
  };
  const auto [vf, gf] = ep::value_and_grad(loss_fused, std::tuple{x, y});
  const auto [ve, ge] = ep::value_and_grad(loss_eager, std::tuple{x, y});
  fuse_test::expect_same(vf, ve, "value");
  fuse_test::expect_same(std::get<0>(gf), std::get<0>(ge), "d/da");
  fuse_test::expect_same(std::get<1>(gf), std::get<1>(ge), "d/db");
  // Every binary rule and a few rows, with broadcasting: (3, 1) against (4,).
  const auto k = [](const auto& a, const auto& b) {
    return ep::where(a > b, a / (b * b + 1), ep::maximum(a, b * 0.5)) +
           (a * a + 1).pow(b) * (b - a).tanh() + ep::minimum(a, 0.1).clip(-0.5, 0.5) +
           (a * a + b * b + 1).log() - 2 / (a.exp() + 1);
  };
  const auto col = fuse_test::inputs<B>(3, -1, 1, 6).reshape({3, 1});
  const auto row = fuse_test::inputs<B>(4, -1, 1, 8);
  const auto kf = [&](const std::tuple<ep::Tensor<B>, ep::Tensor<B>>& p) {
    return ep::fuse(k)(std::get<0>(p), std::get<1>(p)).sum();
  };
  const auto ke = [&](const std::tuple<ep::Tensor<B>, ep::Tensor<B>>& p) {
    return k(std::get<0>(p), std::get<1>(p)).sum();
  };
  const auto [kvf, kgf] = ep::value_and_grad(kf, std::tuple{col, row});
  const auto [kve, kge] = ep::value_and_grad(ke, std::tuple{col, row});
  fuse_test::expect_same(kvf, kve, "broadcast value");
  fuse_test::expect_same(std::get<0>(kgf), std::get<0>(kge), "broadcast d/da (3, 1)");
  fuse_test::expect_same(std::get<1>(kgf), std::get<1>(kge), "broadcast d/db (4,)");
  // Second order: the gradient of the summed gradient (the backward pass is taped too).
  const auto h = [](const auto& loss) {
    return [loss](const ep::Tensor<B>& a) {
      return ep::grad([&](const ep::Tensor<B>& z) { return loss(z); })(a).sum();
    };
  };
  const auto one_fused = [&](const ep::Tensor<B>& a) { return ep::fuse(f)(a, y).sum(); };
  const auto one_eager = [&](const ep::Tensor<B>& a) { return f(a, y).sum(); };
  fuse_test::expect_same(ep::grad(h(one_fused))(x), ep::grad(h(one_eager))(x), "second derivative");
}

REGISTER_TYPED_TEST_SUITE_P(Fuse, ChainEqualsEagerAtEverySize, EveryUnaryOpEqualsEager,
                            OperatorsScalarsAndSelections, BroadcastsAndChecksShapes,
                            GradientsEqualTheEagerOnes);
