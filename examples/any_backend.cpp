// eagerpp - any_backend: the backend and dtype chosen on the command line, e.g. `any_backend
// xtensor:float64`
// SPDX-License-Identifier: MIT
#include <cmath>     // std::sqrt, std::abs
#include <cstdlib>   // EXIT_SUCCESS, EXIT_FAILURE
#include <iostream>  // std::cout, std::cerr
#include <string>    // std::string

#include <eagerpp/any.hpp>  // ep::AnyTensor over the host backends (Eigen and xtensor)

/// The Euclidean norm of all elements, written once: it runs on whatever x holds.
ep::AnyTensor l2norm(const ep::AnyTensor& x) { return x.square().sum().sqrt(); }

int main(int argc, char** argv) {
  const std::string spec = argc > 1 ? argv[1] : "eigen:float32";
  try {
    const auto x = ep::AnyTensor::arange(spec, 10);  // 0, 1, ..., 9
    const auto [norm, grad] = ep::value_and_grad(l2norm, x);
    const auto step = x - 0.5 * grad;          // one gradient step of length 0.5 along -x / |x|
    const double expected = std::sqrt(285.0);  // 0^2 + 1^2 + ... + 9^2 = 285

    std::cout << "spec            = " << x.spec() << "\n";
    std::cout << "x               = " << fmt::format("{}", x) << "\n";
    std::cout << "|x|             = " << norm.item() << " (expected sqrt(285) = " << expected
              << ")\n";
    std::cout << "d|x|/dx         = " << fmt::format("{}", grad) << "\n";
    std::cout << "|x - 0.5 grad|  = " << l2norm(step).item() << " (expected " << expected - 0.5
              << ")\n";
    const double tolerance = x.dtype() == "float32" ? 1e-5 : 1e-12;
    const bool ok =
        std::abs(norm.item() - expected) <= tolerance * expected &&
        std::abs(grad.to_vector()[3] - 3 / expected) <= tolerance &&  // d|x|/dx = x / |x|
        std::abs(l2norm(step).item() - (expected - 0.5)) <= tolerance * expected;
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
  } catch (const ep::error& e) {
    std::cerr << "any_backend: " << e.what() << "\n"
              << "usage: any_backend [spec], spec one of: "
              << fmt::format("{}", fmt::join(ep::AnyTensor::specs(), " ")) << "\n";
    return EXIT_FAILURE;
  }
}
