// eagerpp - consumer test: computes with eagerpp added by add_subdirectory and checks the value
// SPDX-License-Identifier: MIT
#include <cstdlib>   // EXIT_SUCCESS, EXIT_FAILURE
#include <iostream>  // std::cout, std::cerr

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/xtensor.hpp>

int main() {
  using B = ep::xtensor<float>;
  // mean of 1, 2, ..., 8 is 4.5; the max of its squares is 64.
  const auto x = ep::arange<B>(1, 9);
  const float mean = x.mean().item();
  const float max_square = x.square().max().item();
  std::cout << "add_subdirectory consumer: mean = " << mean << ", max(x^2) = " << max_square
            << '\n';
  if (mean != 4.5f || max_square != 64.0f) {
    std::cerr << "expected 4.5 and 64\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
