// eagerpp - consumer test: computes with an installed eagerpp (find_package) and checks the value
// SPDX-License-Identifier: MIT
#include <cstdlib>   // EXIT_SUCCESS, EXIT_FAILURE
#include <iostream>  // std::cout, std::cerr

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  using B = ep::eigen<double>;
  // [[1, 2], [3, 4]] @ [[1, 3], [2, 4]] = [[5, 11], [11, 25]], whose sum is 52.
  const auto x = ep::from_vector<B>({1, 2, 3, 4}, ep::Shape{2, 2});
  const double got = x.matmul(x.T()).sum().item();
  std::cout << "find_package consumer: sum(x @ x.T) = " << got << '\n';
  if (got != 52.0) {
    std::cerr << "expected 52\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
