// expect: ep::add: the two tensors have different backends, or uint64 and a signed integer
// errors: 11 ep::[a-z_]+: the two tensors have different backends, or uint64 and a signed integer
// eagerpp - compile-fail: every binary operator of two tensors of two backend libraries, or of
// uint64 and int64, gives the op's sentence, once per use and nothing else (no complaint about the
// `auto` variables); two dtypes of one library promote (tests/dtypes)
// SPDX-License-Identifier: MIT
#include <cstdint>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>

int main() {
  const auto f = ep::ones<ep::eigen<float>>({2, 2});
  const auto x = ep::ones<ep::xtensor<float>>({2, 2});
  const auto u = ep::ones<ep::eigen<std::uint64_t>>({2, 2});
  const auto i = ep::ones<ep::eigen<std::int64_t>>({2, 2});
  auto add = f + x;
  auto subtract = u - i;
  auto multiply = f * x;
  auto divide = i / u;
  auto mod = f % x;
  auto less = u < i;
  auto less_equal = f <= x;
  auto greater = f > x;
  auto greater_equal = f >= x;
  auto equal = f == x;
  auto not_equal = f != x;
  (void)add, (void)subtract, (void)multiply, (void)divide, (void)mod;
  (void)less, (void)less_equal, (void)greater, (void)greater_equal, (void)equal, (void)not_equal;
  return 0;
}
