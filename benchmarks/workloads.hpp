// eagerpp - the generic workloads several benchmarks time: an input vector, the L2 norm, the
// element-wise chain, the logistic loss; each written once, for every backend
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>  // std::copy
#include <cmath>      // std::sin
#include <cstddef>    // std::size_t
#include <cstdint>    // std::int64_t
#include <vector>     // std::vector

#include <eagerpp/eagerpp.hpp>

namespace ep::bench {

/// n floats sin(0.001 i): smooth, in [-1, 1].
inline std::vector<float> input(std::int64_t n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(std::sin(0.001 * static_cast<double>(i)));
  return v;
}

/// input(n) in a library's own 1-D array type A (made as A(n), written through data()).
template <class A>
A input_as(std::int64_t n) {
  const auto v = input(n);
  A x(n);
  std::copy(v.begin(), v.end(), x.data());
  return x;
}

/// The L2 norm.
template <class B>
Tensor<B> l2(const Tensor<B>& x) {
  return x.square().sum().sqrt();
}

/// The element-wise chain exp(-x*x) * sin(x) + 1.
template <class B>
Tensor<B> chain(const Tensor<B>& x) {
  return (-x * x).exp() * x.sin() + 1;
}

/// The logistic loss mean(log(1 + exp(-y * Xw))).
template <class B>
Tensor<B> logistic_loss(const Tensor<B>& w, const Tensor<B>& X, const Tensor<B>& y) {
  return (1 + (-y * X.matmul(w)).exp()).log().mean();
}

}  // namespace ep::bench
