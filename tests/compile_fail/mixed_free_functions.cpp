// expect: ep::pow: the two tensors have different backends, or uint64 and a signed integer
// errors: 14 ep::[a-z0-9_]+: the (two tensors have different backends, or uint64 and a signed integer|tensors in the braces have different backends or dtypes)
// eagerpp - compile-fail: every free function of two tensors given different backends, or uint64
// and a signed integer (the one pair the array API does not promote), and the brace lists of
// stack, concatenate and meshgrid given different dtypes or backends, name themselves in one
// sentence, not "deduced conflicting types for parameter 'B'" or "no matching function" (matmul:
// matmul_mixed_dtypes.cpp)
// SPDX-License-Identifier: MIT
#include <cstdint>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/norms.hpp>
#include <eagerpp/xtensor.hpp>

int main() {
  const auto u = ep::ones<ep::eigen<std::uint64_t>>({2, 2});
  const auto i = ep::ones<ep::eigen<std::int32_t>>({2, 2});
  const auto f = ep::ones<ep::eigen<float>>({2, 2});
  const auto d = ep::ones<ep::eigen<double>>({2, 2});
  const auto x = ep::ones<ep::xtensor<float>>({2, 2});
  const auto c = f > 0;
  auto r1 = ep::pow(u, i);
  auto r2 = ep::floordiv(f, x);
  auto r3 = ep::mod(f, x);
  auto r4 = ep::minimum(u, i);
  auto r5 = ep::maximum(f, x);
  auto r6 = ep::logical_and(c, x > 0);
  auto r7 = ep::logical_or(c, x > 0);
  auto r8 = ep::where(c, f, x);
  auto r9 = ep::kl_div_with_logits(f, x);
  auto r10 = ep::stack({f, d});
  auto r11 = ep::concatenate({f, x}, 1);
  auto r12 = ep::meshgrid({f, d}, "ij");
  auto r13 = ep::atan2(f, x);
  auto r14 = ep::bitwise_and(u, i);
  (void)r1, (void)r2, (void)r3, (void)r4, (void)r5, (void)r6, (void)r7, (void)r8, (void)r9,
      (void)r10, (void)r11, (void)r12, (void)r13, (void)r14;
  return 0;
}
