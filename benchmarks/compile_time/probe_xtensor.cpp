// eagerpp - compile-time probe: the six functions written with xtensor (and xtensor-blas) directly
// SPDX-License-Identifier: MIT
#include <xtensor-blas/xlinalg.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmath.hpp>

using A = xt::xarray<float>;

A l2(const A& x) { return xt::sqrt(xt::sum(xt::square(x))); }
A chain(const A& x) { return xt::exp(-x * x) * xt::sin(x) + 1.0F; }
A chain_steps(const A& x) {
  const A a = -x;
  const A b = a * x;
  const A c = xt::exp(b);
  const A d = xt::sin(x);
  const A e = c * d;
  return e + 1.0F;
}
A row_sums(const A& a) { return xt::sum(a, {1}); }
A bias_add(const A& a, const A& b) { return a + b; }
A matmul(const A& a, const A& b) { return xt::linalg::dot(a, b); }
