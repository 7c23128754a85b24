// eagerpp - consumer test: ep::omp built with Debian's Thrust computes and differentiates
// SPDX-License-Identifier: MIT
#include <cstdlib>   // EXIT_SUCCESS, EXIT_FAILURE
#include <iostream>  // std::cout, std::cerr

#include <thrust/version.h>  // THRUST_VERSION

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/omp.hpp>

int main() {
  const auto x = ep::arange<ep::omp<double>>(10);
  // sum of squares of 0..9 is 285; its gradient 2 x.
  auto [value, grad] = ep::value_and_grad([](const auto& t) { return (t * t).sum(); }, x);
  const double g3 = grad.to_vector()[3];
  std::cout << "Thrust " << THRUST_VERSION << ": sum(x * x) = " << value.item()
            << ", grad[3] = " << g3 << '\n';
  if (value.item() != 285.0 || g3 != 6.0) {
    std::cerr << "expected 285 and 6\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
