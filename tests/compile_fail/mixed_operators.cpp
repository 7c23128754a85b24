// expect: ep::add: the two tensors have different backends or dtypes
// errors: 11 ep::[a-z_]+: the two tensors have different backends
// eagerpp - compile-fail: every binary operator of two tensors of different dtypes or backends
// gives the op's sentence, once per use and nothing else (no complaint about the `auto` variables)
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>

int main() {
  const auto f = ep::ones<ep::eigen<float>>({2, 2});
  const auto d = ep::ones<ep::eigen<double>>({2, 2});
  const auto x = ep::ones<ep::xtensor<float>>({2, 2});
  auto add = f + d;
  auto subtract = f - d;
  auto multiply = f * d;
  auto divide = f / d;
  auto mod = f % d;
  // Comparisons of two numeric dtypes promote (NumPy); of two backends they are the sentence.
  auto less = f < x;
  auto less_equal = f <= x;
  auto greater = f > x;
  auto greater_equal = f >= x;
  auto equal = f == x;
  auto not_equal = f != x;
  (void)add, (void)subtract, (void)multiply, (void)divide, (void)mod;
  (void)less, (void)less_equal, (void)greater, (void)greater_equal, (void)equal, (void)not_equal;
  return 0;
}
