// eagerpp - quickstart: one generic function, run unchanged on the Eigen, xtensor and OpenMP
// backends
// SPDX-License-Identifier: MIT
#include <cmath>     // std::sqrt
#include <cstdlib>   // EXIT_SUCCESS, EXIT_FAILURE
#include <iostream>  // std::cout

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>
#if __has_include( \
    <eagerpp/omp.hpp>)  // eagerpp::omp: built where Thrust, OpenMP and OpenBLAS are found
#include <eagerpp/omp.hpp>
#define EAGERPP_QUICKSTART_OMP 1
#endif

/// The Euclidean norm of all elements, written once for every backend (NumPy: `np.linalg.norm`).
template <class B>
ep::Tensor<B> l2norm(const ep::Tensor<B>& x) {
  return x.square().sum().sqrt();
}

int main() {
  // The same data on every backend: 0, 1, ..., 9 as float32.
  const auto xe = ep::arange<ep::eigen<float>>(10);
  const auto xx = ep::arange<ep::xtensor<float>>(10);

  const float ne = l2norm(xe).item();
  const float nx = l2norm(xx).item();
  const double expected = std::sqrt(285.0);  // 0^2 + 1^2 + ... + 9^2 = 285

  std::cout << "x                   = " << xe << '\n';
  std::cout << "l2norm on eigen     = " << ne << '\n';
  std::cout << "l2norm on xtensor   = " << nx << '\n';
  bool equal = ne == nx;
#if defined(EAGERPP_QUICKSTART_OMP)
  const float no = l2norm(ep::arange<ep::omp<float>>(10)).item();
  std::cout << "l2norm on omp       = " << no << '\n';
  equal = equal && no == ne;
#endif
  std::cout << "expected (sqrt 285) = " << expected << '\n';
  std::cout << "backends agree: " << (equal ? "yes" : "NO") << '\n';
  if (!equal || std::abs(ne - expected) > 1e-5 * expected) return EXIT_FAILURE;
  return EXIT_SUCCESS;
}
