// expect: ep::pow: the two tensors have different backends or dtypes
// errors: 12 ep::[a-z_]+: the (two tensors|two tensors x and y|tensors in the braces) have different backends or dtypes
// eagerpp - compile-fail: every free function of two tensors (and the brace lists of stack,
// concatenate and meshgrid) given different dtypes or backends names itself in one sentence, not
// "deduced conflicting types for parameter 'B'" or "no matching function" (matmul: matmul_mixed_dtypes.cpp)
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/norms.hpp>
#include <eagerpp/xtensor.hpp>

int main() {
  const auto f = ep::ones<ep::eigen<float>>({2, 2});
  const auto d = ep::ones<ep::eigen<double>>({2, 2});
  const auto x = ep::ones<ep::xtensor<float>>({2, 2});
  const auto c = f > 0;
  auto r1 = ep::pow(f, d);
  auto r2 = ep::floordiv(f, d);
  auto r3 = ep::mod(f, x);
  auto r4 = ep::minimum(f, d);
  auto r5 = ep::maximum(f, x);
  auto r6 = ep::logical_and(c, x > 0);
  auto r7 = ep::logical_or(c, x > 0);
  auto r8 = ep::where(c, f, d);
  auto r9 = ep::kl_div_with_logits(f, d);
  auto r10 = ep::stack({f, d});
  auto r11 = ep::concatenate({f, x}, 1);
  auto r12 = ep::meshgrid({f, d}, "ij");
  (void)r1, (void)r2, (void)r3, (void)r4, (void)r5, (void)r6, (void)r7, (void)r8, (void)r9,
      (void)r10, (void)r11, (void)r12;
  return 0;
}
