// expect: ep::astype: a complex tensor converts only to a complex dtype; take its real\(\), imag\(\) or abs\(\) first
// eagerpp - compile-fail: a complex tensor cast to a real dtype (NumPy drops the imaginary part)
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  using C = ep::complex64;
  const auto x = ep::full<ep::eigen<C>>(ep::Shape{3}, C(1, 2));
  return static_cast<int>(x.astype<float>().sum().item());
}
