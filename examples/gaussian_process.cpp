// eagerpp - Gaussian-process regression with ep::linalg, written once over the backend: the
// kernel's hyperparameters fitted by L-BFGS on every CPU backend
// SPDX-License-Identifier: MIT
//
// The data: 40 points x evenly spaced on [-3, 3] with y = sin(x) + 0.1 u, u uniform in [-1, 1]
// from a 64-bit linear congruential generator with a fixed seed (the same numbers everywhere, and
// easy to reproduce in NumPy). The model: a zero-mean Gaussian process with the RBF kernel
// k(x, x') = exp(-(x - x')^2 / (2 l^2)) and noise variance s^2, so that K = k(X, X) + s^2 I. Its
// negative log marginal likelihood
//   NLL = 0.5 y^T K^-1 y + sum log diag(L) + n/2 log(2 pi),   L = cholesky(K),
// is computed with ep::linalg::cholesky and ep::linalg::solve_triangular (y^T K^-1 y = |L^-1 y|^2,
// and sum log diag(L) = 0.5 log det K), as scipy.linalg.solve_triangular(L, y, lower=True); log l
// and log s, a tree of two scalars (EAGERPP_TREE), are fitted by ep::optim::lbfgs with gradients
// from ep::value_and_grad, which differentiates through the Cholesky factorization and the
// triangular solves. The fitted model then predicts at a few test points:
// the mean k*^T K^-1 y and the variance k(x*, x*) - k*^T K^-1 k* of the latent function.
//
// Every backend runs the same code in float64; L-BFGS stops at max |gradient| <= 1e-5. The program
// exits with a failure unless on every backend the fit converges to a lower NLL than the start,
// the variances lie in [0, 1] and the means inside the data's range are within 0.1 of sin(x*), and
// unless the backends agree on the number of iterations and on the NLLs, the fitted
// hyperparameters and the predictions to 1e-8 (relative).
#include <algorithm>  // std::max
#include <cmath>      // std::abs, std::log, std::sin
#include <cstdint>    // std::int64_t, std::uint64_t
#include <cstdlib>    // EXIT_SUCCESS, EXIT_FAILURE
#include <numbers>    // std::numbers::pi
#include <string>     // std::string
#include <utility>    // std::pair
#include <vector>     // std::vector

#include <fmt/format.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/optim.hpp>
#include <eagerpp/tree.hpp>
#include <eagerpp/xtensor.hpp>
#if __has_include( \
    <eagerpp/omp.hpp>)  // eagerpp::omp: built where Thrust, OpenMP and OpenBLAS are found
#include <eagerpp/omp.hpp>
#define EAGERPP_GP_OMP 1
#endif

namespace gp_model {

/// The hyperparameters on a log scale, where every real value is valid: the kernel's length scale
/// l = exp(log_length) and the noise standard deviation s = exp(log_noise). A tree, so that
/// ep::value_and_grad returns its gradient as a `hyper` and ep::optim::lbfgs steps it.
template <class B>
struct hyper {
  ep::Tensor<B> log_length, log_noise;
};
template <class B>
EAGERPP_TREE(hyper<B>, log_length, log_noise)

}  // namespace gp_model

namespace {

using gp_model::hyper;

constexpr std::int64_t points = 40;
constexpr double initial_length = 0.5, initial_noise = 0.3;
const std::vector<double> test_points = {-2.5, -1.0, 0.0, 1.5, 2.5, 4.0};  // 4: outside the data

/// The training data: x on [-3, 3], y = sin(x) + 0.1 u with u in [-1, 1] from an LCG (Knuth's
/// MMIX constants; the top 53 bits of each state give a double in [0, 1)).
std::pair<std::vector<double>, std::vector<double>> make_data() {
  std::vector<double> x, y;
  std::uint64_t state = 2026;
  for (std::int64_t i = 0; i < points; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = 2 * static_cast<double>(state >> 11) * 0x1.0p-53 - 1;
    x.push_back(-3 + 6 * static_cast<double>(i) / (points - 1));
    y.push_back(std::sin(x.back()) + 0.1 * u);
  }
  return {x, y};
}

/// The squared distances (a_i - b_j)^2 of two vectors, shape (len(a), len(b)).
template <class B>
ep::Tensor<B> squared_distances(const ep::Tensor<B>& a, const ep::Tensor<B>& b) {
  return (a.expand_dims(1) - b.expand_dims(0)).square();
}

/// The RBF kernel exp(-d^2 / (2 l^2)) of squared distances d^2.
template <class B>
ep::Tensor<B> rbf(const hyper<B>& h, const ep::Tensor<B>& d2) {
  return (-0.5 * d2 * (-2 * h.log_length).exp()).exp();
}

/// The Cholesky factor L of K = k(X, X) + s^2 I, from the training points' squared distances.
template <class B>
ep::Tensor<B> cholesky_of_k(const hyper<B>& h, const ep::Tensor<B>& d2) {
  const std::int64_t n = d2.shape()[0];
  return ep::linalg::cholesky(rbf(h, d2) + (2 * h.log_noise).exp() * ep::eye<B>(n));
}

/// The negative log marginal likelihood of y under the GP with hyperparameters h.
template <class B>
ep::Tensor<B> nll(const hyper<B>& h, const ep::Tensor<B>& d2, const ep::Tensor<B>& y) {
  const ep::Tensor<B> l = cholesky_of_k(h, d2);
  // z = L^-1 y: y^T K^-1 y = |z|^2
  const ep::Tensor<B> z = ep::linalg::solve_triangular(l, y, {.lower = true});
  const double n = static_cast<double>(y.shape()[0]);
  return 0.5 * z.square().sum() + ep::linalg::diagonal(l).log().sum() +
         0.5 * n * std::log(2 * std::numbers::pi);
}

/// What one backend computes: the start and the fit, and the predictions at test_points.
struct gp_result {
  double nll_start = 0, nll_fitted = 0, length = 0, noise = 0, max_gradient = 0;
  int iterations = 0;
  bool converged = false;
  std::vector<double> mean, variance;
  /// Every number the backends must agree on.
  [[nodiscard]] std::vector<double> values() const {
    std::vector<double> v{static_cast<double>(iterations), nll_start, nll_fitted, length, noise};
    v.insert(v.end(), mean.begin(), mean.end());
    v.insert(v.end(), variance.begin(), variance.end());
    return v;
  }
};

/// The largest |component| of a hyper's leaves.
template <class B>
double max_abs(const hyper<B>& g) {
  return std::max(std::abs(g.log_length.item()), std::abs(g.log_noise.item()));
}

/// Fits the hyperparameters on backend B from (initial_length, initial_noise), then predicts.
template <class B>
gp_result fit_and_predict(const char* name, const std::vector<double>& xs,
                          const std::vector<double>& ys) {
  using T = ep::Tensor<B>;
  const T x = ep::from_vector<B>(xs), y = ep::from_vector<B>(ys);
  const T d2 = squared_distances(x, x);
  const auto objective = [&](const hyper<B>& h) { return nll(h, d2, y); };

  gp_result r;
  const hyper<B> start{ep::full<B>({}, std::log(initial_length)),
                       ep::full<B>({}, std::log(initial_noise))};
  r.nll_start = objective(start).item();
  ep::optim::lbfgs<hyper<B>> optimizer({.tolerance_grad = 1e-5, .tolerance_change = 0});
  const auto fit = optimizer.minimize(objective, start, 100);
  const auto [value, gradient] = ep::value_and_grad(objective, fit.params);
  r.nll_fitted = value.item();
  r.max_gradient = max_abs(gradient);
  r.iterations = fit.iterations;
  r.converged = fit.converged;
  r.length = fit.params.log_length.exp().item();
  r.noise = fit.params.log_noise.exp().item();

  // Predictions: with V = L^-1 k(X, x*) and z = L^-1 y, the mean is V^T z and the variance
  // k(x*, x*) - |V_j|^2, where k(x*, x*) = 1 for the RBF kernel.
  const T xt = ep::from_vector<B>(test_points);
  const T l = cholesky_of_k(fit.params, d2);
  const T v =
      ep::linalg::solve_triangular(l, rbf(fit.params, squared_distances(x, xt)), {.lower = true});
  const T z = ep::linalg::solve_triangular(l, y, {.lower = true});
  r.mean = v.T().matmul(z).to_vector();
  r.variance = (1 - v.square().sum(0)).to_vector();

  fmt::print("{}:\n", name);
  fmt::print("  start   length scale {:.6f}  noise {:.6f}  NLL {:10.6f}\n", initial_length,
             initial_noise, r.nll_start);
  fmt::print("  fitted  length scale {:.6f}  noise {:.6f}  NLL {:10.6f}  ({} L-BFGS iterations)\n",
             r.length, r.noise, r.nll_fitted, r.iterations);
  fmt::print("  {:>6}  {:>9}  {:>9}  {:>9}\n", "x*", "mean", "variance", "sin(x*)");
  for (std::size_t i = 0; i < test_points.size(); ++i)
    fmt::print("  {:6.2f}  {:9.5f}  {:9.2e}  {:9.5f}\n", test_points[i], r.mean[i], r.variance[i],
               std::sin(test_points[i]));
  return r;
}

/// Whether a backend's result passes the sanity checks; prints what fails.
bool sane(const char* name, const gp_result& r, double min_x, double max_x) {
  bool ok = true;
  const auto fail = [&](const std::string& what) {
    fmt::print("{}: FAILED: {}\n", name, what);
    ok = false;
  };
  if (!r.converged || r.max_gradient > 1e-5)
    fail(fmt::format("the fit did not converge (max |gradient| {:.2g})", r.max_gradient));
  if (!(r.nll_fitted < r.nll_start))
    fail(fmt::format("the NLL did not decrease ({} -> {})", r.nll_start, r.nll_fitted));
  for (std::size_t i = 0; i < test_points.size(); ++i) {
    const double t = test_points[i];
    if (!(r.variance[i] >= 0 && r.variance[i] <= 1))
      fail(fmt::format("the variance at {} is {}, outside [0, 1]", t, r.variance[i]));
    if (t >= min_x && t <= max_x && !(std::abs(r.mean[i] - std::sin(t)) <= 0.1))
      fail(fmt::format("the mean at {} is {}, sin is {}", t, r.mean[i], std::sin(t)));
  }
  return ok;
}

}  // namespace

int main() {
  const auto [x, y] = make_data();
  fmt::print(
      "Gaussian-process regression: {} points y = sin(x) + 0.1 u on [{}, {}], RBF kernel; log "
      "length scale and log noise fitted by L-BFGS\n",
      points, x.front(), x.back());
  std::vector<std::pair<const char*, gp_result>> runs;
  runs.emplace_back("eigen", fit_and_predict<ep::eigen<double>>("eigen<double>", x, y));
  runs.emplace_back("xtensor", fit_and_predict<ep::xtensor<double>>("xtensor<double>", x, y));
#if defined(EAGERPP_GP_OMP)
  runs.emplace_back("omp", fit_and_predict<ep::omp<double>>("omp<double>", x, y));
#endif

  bool ok = true;
  for (const auto& [name, r] : runs) ok = sane(name, r, x.front(), x.back()) && ok;
  double diff = 0;
  const std::vector<double> first = runs.front().second.values();
  for (const auto& [name, r] : runs) {
    const std::vector<double> v = r.values();
    for (std::size_t i = 0; i < v.size(); ++i)
      diff = std::max(diff, std::abs(v[i] - first[i]) / std::max(1.0, std::abs(first[i])));
  }
  const bool agree = diff <= 1e-8;
  fmt::print(
      "\nconverged to a lower NLL, variances in [0, 1], means within 0.1 of sin(x*) inside the "
      "data, on every backend: {}\n",
      ok ? "yes" : "NO");
  fmt::print("backends agree: {} (largest relative difference {:.2g}, tolerance 1e-8)\n",
             agree ? "yes" : "NO", diff);
  return ok && agree ? EXIT_SUCCESS : EXIT_FAILURE;
}
