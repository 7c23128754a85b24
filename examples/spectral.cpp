// eagerpp - spectral methods with ep::fft, written once over the backend: a periodic Poisson
// equation and a convolution on Eigen, xtensor and omp
// SPDX-License-Identifier: MIT
//
// 1. -(u_xx + u_yy) = f on the periodic square [0, 2 pi)^2, an N x N grid, solved spectrally:
//    u^ = f^ / (kx^2 + ky^2) with rfftn and irfftn (the mean of u set to 0). f comes from a known
//    u, so the error is measured. The finite-difference solution (the five-point Laplacian, whose
//    periodic system the FFT diagonalizes too: its symbol is (2 - 2 cos(k h)) / h^2 per axis) is
//    checked against its own equation (the Laplacian by ep::roll) and against the spectral one:
//    their difference is O(h^2), a quarter for each doubling of N.
// 2. The circular convolution of a signal with a 9-tap filter, by rfft and irfft, against the
//    direct sum of shifted copies.
// The program exits with a failure unless every check holds on every backend and the backends
// agree to 12 digits.
#include <cmath>    // std::abs, std::sin, std::cos, std::numbers
#include <cstdio>   // std::printf
#include <cstdlib>  // EXIT_SUCCESS, EXIT_FAILURE
#include <numbers>  // std::numbers::pi
#include <vector>   // std::vector

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/fft.hpp>
#include <eagerpp/xtensor.hpp>
#if __has_include( \
    <eagerpp/omp.hpp>)  // eagerpp::omp: built where Thrust, OpenMP and OpenBLAS are found
#include <eagerpp/omp.hpp>
#define EAGERPP_SPECTRAL_OMP 1
#endif

namespace {

struct poisson_result {
  double error;        // max |u - u_exact| of the spectral solution
  double fd_residual;  // max |-laplacian_h(u_fd) - f| of the finite-difference solution
  double difference;   // max |u - u_fd|
  std::vector<double> u;
};

/// The spectral and the finite-difference solutions of -laplacian(u) = f on an n x n periodic grid
/// of [0, 2 pi)^2, for u = sin(x) cos(2y) + 0.5 cos(3x) sin(y) + 0.25 sin(4x + y).
template <class B>
poisson_result poisson(std::int64_t n) {
  using T = ep::Tensor<B>;
  const double h = 2 * std::numbers::pi / static_cast<double>(n);
  const T x = ep::arange<B>(n).reshape({n, 1}) * h;  // (n, 1) and (1, n): broadcast to (n, n)
  const T y = ep::arange<B>(n).reshape({1, n}) * h;
  const T exact =
      x.sin() * (2.0 * y).cos() + 0.5 * (3.0 * x).cos() * y.sin() + 0.25 * (4.0 * x + y).sin();
  const T f = x.sin() * (2.0 * y).cos() * 5.0 + 0.5 * (3.0 * x).cos() * y.sin() * 10.0 +
              0.25 * (4.0 * x + y).sin() * 17.0;
  // Integer wavenumbers: fftfreq(n, 1/n) along x, rfftfreq(n, 1/n) along y (rfftn halves the last
  // axis).
  const double d = 1.0 / static_cast<double>(n);
  const T kx = ep::fft::fftfreq<B>(n, d).reshape({n, 1});
  const T ky = ep::fft::rfftfreq<B>(n, d).reshape({1, n / 2 + 1});
  // 1 / symbol, 0 for the zero wavenumber (the mean of u).
  const auto solve = [&](const T& symbol) {
    const T safe = ep::where(symbol == 0.0, symbol.ones_like(), symbol);
    const T inverse = ep::where(symbol == 0.0, symbol.zeros_like(), 1.0 / safe);
    return ep::fft::irfftn(ep::fft::rfftn(f) * inverse, {n, n});
  };
  const T u = solve(kx.square() + ky.square());
  const T u_fd = solve(((2.0 - 2.0 * (kx * h).cos()) + (2.0 - 2.0 * (ky * h).cos())) / (h * h));
  // The five-point Laplacian of u_fd, periodic: neighbours by ep::roll.
  const T laplacian = (ep::roll(u_fd, 1, 0) + ep::roll(u_fd, -1, 0) + ep::roll(u_fd, 1, 1) +
                       ep::roll(u_fd, -1, 1) - 4.0 * u_fd) /
                      (h * h);
  return {(u - exact).abs().max().item(), (-laplacian - f).abs().max().item(),
          (u - u_fd).abs().max().item(), u.to_vector()};
}

/// The circular convolution of a 256-point signal with a 9-tap filter: by FFT and directly.
template <class B>
std::pair<double, std::vector<double>> convolution() {
  using T = ep::Tensor<B>;
  const std::int64_t n = 256;
  const T t = ep::arange<B>(n) * (2 * std::numbers::pi / static_cast<double>(n));
  const T signal = (3.0 * t).sin() + 0.3 * (17.0 * t).cos() + 0.1 * (t * t).sin();
  const std::vector<double> taps{0.05, 0.1, 0.15, 0.2, 0.3, 0.2, 0.15, 0.1, 0.05};
  std::vector<double> padded(static_cast<std::size_t>(n), 0.0);
  for (std::size_t k = 0; k < taps.size(); ++k) padded[k] = taps[k];
  const T filter = ep::from_vector<B>(padded, {n});
  const T by_fft = ep::fft::irfft(ep::fft::rfft(signal) * ep::fft::rfft(filter), n);
  T direct = signal.zeros_like();
  for (std::size_t k = 0; k < taps.size(); ++k)
    direct = direct + taps[k] * ep::roll(signal, static_cast<std::int64_t>(k), 0);
  return {(by_fft - direct).abs().max().item(), by_fft.to_vector()};
}

struct backend_result {
  std::vector<double> u, convolved;
};

template <class B>
bool run(const char* name, backend_result& out) {
  std::printf("%s\n", name);
  bool ok = true;
  double previous = 0;
  for (const std::int64_t n : {16, 32, 64}) {
    const auto r = poisson<B>(n);
    std::printf(
        "  Poisson n = %2ld: spectral error %.1e; finite differences: residual %.1e, "
        "difference %.2e",
        n, r.error, r.fd_residual, r.difference);
    if (previous > 0) std::printf(" (%.2fx smaller)", previous / r.difference);
    std::printf("\n");
    ok = ok && r.error < 1e-12 && r.fd_residual < 1e-10 &&
         (previous == 0 || previous / r.difference > 3.5);
    previous = r.difference;
    out.u = r.u;
  }
  const auto [difference, convolved] = convolution<B>();
  std::printf("  convolution of 256 points by FFT: max difference to the direct sum %.1e\n",
              difference);
  out.convolved = convolved;
  return ok && difference < 1e-12;
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

}  // namespace

int main() {
  std::vector<backend_result> results(3);
  bool ok = run<ep::eigen<double>>("Eigen", results[0]);
  ok = run<ep::xtensor<double>>("xtensor", results[1]) && ok;
#if defined(EAGERPP_SPECTRAL_OMP)
  ok = run<ep::omp<double>>("omp", results[2]) && ok;
#else
  results.pop_back();
#endif
  for (std::size_t b = 1; b < results.size(); ++b) {
    const double du = max_difference(results[0].u, results[b].u);
    const double dc = max_difference(results[0].convolved, results[b].convolved);
    ok = ok && du < 1e-12 && dc < 1e-12;
  }
  std::printf("%s\n", ok ? "every check holds on every backend, and the backends agree" : "FAILED");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
