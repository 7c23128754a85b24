// expect: ep::matmul: the two tensors have different backends, or uint64 and a signed integer
// eagerpp - compile-fail: ep::matmul of a uint64 and an int64 tensor (a pair the array API does
// not promote) names matmul, not "deduced conflicting types for parameter 'B'"
// SPDX-License-Identifier: MIT
#include <cstdint>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  const auto a = ep::ones<ep::eigen<std::uint64_t>>({2, 2});
  const auto b = ep::ones<ep::eigen<std::int64_t>>({2, 2});
  auto c = ep::matmul(a, b);
  (void)c;
  return 0;
}
