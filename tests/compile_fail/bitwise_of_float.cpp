// expect: ep::bitwise_.*: the operands must be integer tensors
// eagerpp - compile-fail: a bitwise op (the operator &) of two float tensors
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  const auto x = ep::arange<ep::eigen<float>>(4);
  const auto y = x & x;
  return static_cast<int>(y.sum().item());
}
