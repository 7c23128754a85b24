// expect: ep::matmul: the two tensors have different backends, or uint64 and a signed integer
// errors: 8 ep::[a-z_]+: the two tensors have different backends, or uint64 and a signed integer
// eagerpp - compile-fail: every method of two tensors given another backend, or uint64 and a
// signed integer (the one pair the array API does not promote), names itself in one sentence, as
// its free function does (mixed_free_functions.cpp), not "cannot convert
// 'ep::Tensor<ep::eigen<double> >' to 'const ep::Tensor<ep::eigen<float> >&'"
// SPDX-License-Identifier: MIT
#include <cstdint>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>

int main() {
  const auto u = ep::ones<ep::eigen<std::uint64_t>>({2, 2});
  const auto i = ep::ones<ep::eigen<std::int64_t>>({2, 2});
  const auto f = ep::ones<ep::eigen<float>>({2, 2});
  const auto x = ep::ones<ep::xtensor<float>>({2, 2});
  const auto c = f > 0;
  auto r1 = u.matmul(i);
  auto r2 = u.pow(i);
  auto r3 = f.floordiv(x);
  auto r4 = i.mod(u);
  auto r5 = f.minimum(x);
  auto r6 = u.maximum(i);
  auto r7 = c.logical_and(x > 0);
  auto r8 = c.logical_or(x > 0);
  (void)r1, (void)r2, (void)r3, (void)r4, (void)r5, (void)r6, (void)r7, (void)r8;
  return 0;
}
