// expect: ep::less: complex numbers have no order; compare real\(\), imag\(\) or abs\(\) instead
// eagerpp - compile-fail: an ordering comparison of complex tensors
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  using C = ep::complex64;
  const auto x = ep::full<ep::eigen<C>>(ep::Shape{3}, C(1, 2));
  return static_cast<int>((x < x).all().item());
}
