// expect: ep::astensor: no backend wraps this native type
// eagerpp - compile-fail: ep::astensor of a type that no included backend wraps
// SPDX-License-Identifier: MIT
#include <vector>  // std::vector

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  const std::vector<float> v{1, 2, 3};
  const auto t = ep::astensor(v);
  return static_cast<int>(t.size());
}
