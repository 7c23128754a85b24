// expect: a compound assignment .* would change x's dtype
// eagerpp - compile-fail: `i += 0.5` on an int64 tensor: NumPy's rules make `i + 0.5` float64, which
// cannot be stored back in i (NumPy raises a casting error at run time; here it is compile time)
// SPDX-License-Identifier: MIT
#include <cstdint>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  auto i = ep::arange<ep::eigen<std::int64_t>>(4);
  i += 0.5;
  return 0;
}
