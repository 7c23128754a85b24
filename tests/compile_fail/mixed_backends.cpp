// expect: same backend and dtype
// eagerpp - compile-fail: adding a tensor of ep::eigen<float> to one of ep::xtensor<float>
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>

int main() {
  const auto a = ep::arange<ep::eigen<float>>(4);
  const auto b = ep::arange<ep::xtensor<float>>(4);
  a + b;
  return 0;
}
