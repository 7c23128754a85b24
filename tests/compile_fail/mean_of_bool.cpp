// expect: ep::mean: needs a floating or complex tensor
// eagerpp - compile-fail: the mean of a bool tensor
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  const auto x = ep::arange<ep::eigen<float>>(4);
  const auto m = (x > 1.0f).mean();
  return static_cast<int>(m.item());
}
