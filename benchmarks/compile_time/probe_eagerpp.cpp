// eagerpp - compile-time probe: six small functions through the facade (backend chosen by
// EAGERPP_PROBE_BACKEND)
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#if EAGERPP_PROBE_BACKEND == 1
#include <eagerpp/eigen.hpp>
using B = ep::eigen<float>;
#else
#include <eagerpp/xtensor.hpp>
using B = ep::xtensor<float>;
#endif

using T = ep::Tensor<B>;

T l2(const T& x) { return x.square().sum().sqrt(); }
T chain(const T& x) { return (-x * x).exp() * x.sin() + 1.0F; }
T chain_steps(const T& x) {
  const T a = -x;
  const T b = a * x;
  const T c = b.exp();
  const T d = x.sin();
  const T e = c * d;
  return e + 1.0F;
}
T row_sums(const T& a) { return a.sum(1); }
T bias_add(const T& a, const T& b) { return a + b; }
T matmul(const T& a, const T& b) { return a.matmul(b); }
