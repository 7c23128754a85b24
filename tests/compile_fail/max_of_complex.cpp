// expect: ep::max: complex numbers have no order
// eagerpp - compile-fail: the largest element of a complex tensor
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  using C = ep::complex128;
  const auto x = ep::full<ep::eigen<C>>(ep::Shape{3}, C(1, 2));
  return static_cast<int>(x.max().real().item());
}
