// eagerpp - compile-time probe: the six functions written with Eigen's Tensor module directly
// SPDX-License-Identifier: MIT
#include <cmath>  // std::sin

#include <unsupported/Eigen/CXX11/Tensor>

using V = Eigen::Tensor<float, 1, Eigen::RowMajor>;
using M = Eigen::Tensor<float, 2, Eigen::RowMajor>;
using S = Eigen::Tensor<float, 0, Eigen::RowMajor>;
// The Tensor module has no sin(): a functor, as a user of the module writes it.
struct sine {
  float operator()(float v) const { return std::sin(v); }
};

S l2(const V& x) { return x.square().sum().sqrt(); }
V chain(const V& x) { return (-x * x).exp() * x.unaryExpr(sine()) + 1.0F; }
V chain_steps(const V& x) {
  const V a = -x;
  const V b = a * x;
  const V c = b.exp();
  const V d = x.unaryExpr(sine());
  const V e = c * d;
  return e + 1.0F;
}
V row_sums(const M& a) { return a.sum(Eigen::array<Eigen::Index, 1>{1}); }
M bias_add(const M& a, const V& b) {
  const Eigen::array<Eigen::Index, 2> shape{1, b.dimension(0)};
  const Eigen::array<Eigen::Index, 2> times{a.dimension(0), 1};
  return a + b.reshape(shape).broadcast(times);
}
M matmul(const M& a, const M& b) {
  const Eigen::array<Eigen::IndexPair<Eigen::Index>, 1> dims{Eigen::IndexPair<Eigen::Index>(1, 0)};
  return a.contract(b, dims);
}
