// expect: ep::logical_and: needs bool tensors
// eagerpp - compile-fail: logical_and of two float tensors
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  const auto x = ep::arange<ep::eigen<float>>(4);
  const auto y = x.logical_and(x);
  return static_cast<int>(y.item());
}
