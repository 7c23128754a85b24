// expect: ep::add: the two tensors have different backends
// eagerpp - compile-fail: adding a tensor of ep::eigen<float> to one of ep::xtensor<float>; the
// sentence must be the first error, with no complaint about `y` (the operator returns auto)
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>

int main() {
  const auto a = ep::arange<ep::eigen<float>>(4);
  const auto b = ep::arange<ep::xtensor<float>>(4);
  auto y = a + b;
  (void)y;
  return 0;
}
