// eagerpp - Newton's method with ep::hessian, written once over the backend: Rosenbrock on Eigen,
// xtensor and omp
// SPDX-License-Identifier: MIT
//
// Pure Newton steps x <- x - H(x)^-1 g(x) on the 2-D Rosenbrock function
// f(x, y) = (1 - x)^2 + 100 (y - x^2)^2 from (-1.2, 1), with the gradient from ep::value_and_grad
// and the Hessian from ep::hessian. It prints the distance to the minimum (1, 1) after each step:
// once close, each error is about the square of the one before (quadratic convergence). The
// program exits with a failure unless every backend reaches (1, 1) to 1e-12 within 20 steps and
// agree on the iterates to 12 digits.
#include <algorithm>  // std::max
#include <cmath>      // std::abs, std::sqrt
#include <cstdio>     // std::printf
#include <cstdlib>    // EXIT_SUCCESS, EXIT_FAILURE
#include <vector>     // std::vector

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>
#if __has_include( \
    <eagerpp/omp.hpp>)  // eagerpp::omp: built where Thrust, OpenMP and OpenBLAS are found
#include <eagerpp/omp.hpp>
#define EAGERPP_NEWTON_OMP 1
#endif

namespace {

/// The Rosenbrock function of a 2-vector.
template <class B>
ep::Tensor<B> rosenbrock(const ep::Tensor<B>& v) {
  const auto x = v[0], y = v[1];
  return (1 - x).square() + 100 * (y - x.square()).square();
}

/// Runs Newton's method from (-1.2, 1); returns the iterates, printing the error of each.
template <class B>
std::vector<std::vector<double>> newton(const char* name) {
  using T = ep::Tensor<B>;
  T x = ep::from_vector<B>({-1.2, 1.0}, {2});
  const T minimum = ep::from_vector<B>({1.0, 1.0}, {2});
  std::vector<std::vector<double>> iterates{x.to_vector()};
  std::printf("%s\n  step  error ||x - (1, 1)||  f(x)\n", name);
  for (int step = 0; step <= 20; ++step) {
    const double error = std::sqrt((x - minimum).square().sum().item());
    std::printf("  %4d  %20.3e  %.3e\n", step, error, rosenbrock(x).item());
    if (error < 1e-12) break;
    const T g = ep::grad(rosenbrock<B>)(x);
    const T h = ep::hessian(rosenbrock<B>, x);  // (2, 2)
    x = x - h.inv().matmul(g.reshape({2, 1})).reshape({2});
    iterates.push_back(x.to_vector());
  }
  return iterates;
}

}  // namespace

int main() {
  const auto e = newton<ep::eigen<double>>("Eigen");
  std::vector<std::vector<std::vector<double>>> others{newton<ep::xtensor<double>>("xtensor")};
#if defined(EAGERPP_NEWTON_OMP)
  others.push_back(newton<ep::omp<double>>("omp"));
#endif
  const std::vector<double>& last = e.back();
  const double error = std::max(std::abs(last[0] - 1), std::abs(last[1] - 1));
  bool agree = true;
  for (const auto& x : others) {
    agree = agree && e.size() == x.size();
    for (std::size_t i = 0; agree && i < e.size(); ++i)
      for (std::size_t j = 0; j < 2; ++j)
        agree = agree && std::abs(e[i][j] - x[i][j]) <= 1e-12 * std::max(1.0, std::abs(e[i][j]));
  }
  if (error > 1e-12 || e.size() > 21 || !agree) {
    std::printf("FAILED: error %.3e after %zu steps; backends %s\n", error, e.size() - 1,
                agree ? "agree" : "disagree");
    return EXIT_FAILURE;
  }
  std::printf("converged in %zu Newton steps on all %zu backends, which agree\n", e.size() - 1,
              others.size() + 1);
  return EXIT_SUCCESS;
}
