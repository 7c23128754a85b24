// expect: ep::matmul: the two tensors have different backends or dtypes
// errors: 8 ep::[a-z_]+: the two tensors have different backends or dtypes
// eagerpp - compile-fail: every method of two tensors given another dtype or backend names itself
// in one sentence, as its free function does (mixed_free_functions.cpp), not "cannot convert
// 'ep::Tensor<ep::eigen<double> >' to 'const ep::Tensor<ep::eigen<float> >&'"
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>

int main() {
  const auto f = ep::ones<ep::eigen<float>>({2, 2});
  const auto d = ep::ones<ep::eigen<double>>({2, 2});
  const auto x = ep::ones<ep::xtensor<float>>({2, 2});
  const auto c = f > 0;
  auto r1 = f.matmul(d);
  auto r2 = f.pow(d);
  auto r3 = f.floordiv(x);
  auto r4 = f.mod(d);
  auto r5 = f.minimum(x);
  auto r6 = f.maximum(d);
  auto r7 = c.logical_and(x > 0);
  auto r8 = c.logical_or(x > 0);
  (void)r1, (void)r2, (void)r3, (void)r4, (void)r5, (void)r6, (void)r7, (void)r8;
  return 0;
}
