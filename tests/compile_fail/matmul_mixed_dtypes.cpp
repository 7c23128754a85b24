// expect: ep::matmul: the two tensors have different backends or dtypes
// eagerpp - compile-fail: ep::matmul of a float and a double tensor names matmul, not "deduced
// conflicting types for parameter 'B'"
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  const auto a = ep::ones<ep::eigen<float>>({2, 2});
  const auto b = ep::ones<ep::eigen<double>>({2, 2});
  auto c = ep::matmul(a, b);
  (void)c;
  return 0;
}
