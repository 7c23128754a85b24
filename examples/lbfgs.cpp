// eagerpp - L-BFGS written once over the backend: Rosenbrock and a least-squares problem on Eigen
// and xtensor
// SPDX-License-Identifier: MIT
//
// ep::optim::lbfgs (the two-loop recursion of Nocedal and Wright's Algorithm 7.4 with a strong-Wolfe
// line search), gradients from ep::value_and_grad. It minimizes the 2-D Rosenbrock function from
// (-1.2, 1) and ||A x - b||^2 for a fixed 6 x 3 matrix A, on both backends. As in Bulatov's note on
// porting L-BFGS to TensorFlow eager, the two runs should agree to many digits. The program exits
// with a failure unless the minima are found (Rosenbrock: (1, 1) to 1e-6; least squares: NumPy's
// solution (37/117, 73/117, 8/9) to 1e-6) and the iterates agree to 6 significant digits.
#include <algorithm>  // std::max
#include <cmath>      // std::abs, std::sqrt
#include <cstdio>     // std::printf
#include <cstdlib>    // EXIT_SUCCESS, EXIT_FAILURE
#include <limits>     // std::numeric_limits
#include <string>     // std::string
#include <vector>     // std::vector

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/optim.hpp>
#include <eagerpp/xtensor.hpp>

namespace {

template <class B>
double dot(const ep::Tensor<B>& a, const ep::Tensor<B>& b) {
  return (a * b).sum().item();
}

/// The iterates (x_0, x_1, ...) and the final value and gradient norm of one run.
struct run_log {
  std::vector<std::vector<double>> iterates;
  std::vector<double> values;
  double grad_norm = 0;
};

/// Minimizes the scalar function `f` from `x` with ep::optim::lbfgs (6 pairs (s, y) kept) and logs
/// every iterate; stops when max |grad| <= 1e-10, when f no longer decreases, or after `max_iter`
/// iterations.
template <class B, class F>
run_log minimize(F f, ep::Tensor<B> x, int max_iter = 200) {
  ep::optim::lbfgs<ep::Tensor<B>> opt(
      {.history = 6, .tolerance_grad = 1e-10, .tolerance_change = 0});
  run_log log;
  log.iterates.push_back(x.to_vector());
  log.values.push_back(f(x).item());
  while (opt.iterations() < max_iter) {
    x = opt.step(f, x);
    if (opt.converged() && x.to_vector() == log.iterates.back()) break;  // converged at x
    log.iterates.push_back(x.to_vector());
    log.values.push_back(f(x).item());
    if (opt.converged()) break;
  }
  const auto g = ep::grad(f)(x);
  log.grad_norm = std::sqrt(dot(g, g));
  return log;
}

/// The Rosenbrock function of a vector x: sum (1 - x_i)^2 + 100 (x_{i+1} - x_i^2)^2, over the
/// shifted slices x[:-1] and x[1:].
template <class B>
ep::Tensor<B> rosenbrock(const ep::Tensor<B>& x) {
  const auto head = x(ep::slice({}, -1));
  const auto tail = x(ep::slice(1, {}));
  return ((1 - head).square() + 100 * (tail - head.square()).square()).sum();
}

/// ||A x - b||^2 for a fixed, full-rank 6 x 3 A.
template <class B>
ep::Tensor<B> least_squares(const ep::Tensor<B>& x) {
  const auto a = ep::from_vector<B>({1, 2, 0, 0, 1, 1, 1, 0, 1, 2, 1, 1, 1, 1, 0, 0, 2, 1}, {6, 3});
  const auto b = ep::from_vector<B>({1, 2, 0, 3, 1, 2}, {6});
  return (a.matmul(x) - b).square().sum();
}

/// The largest difference between two runs' iterates relative to their size; infinite if the runs
/// took different numbers of steps.
double disagreement(const run_log& p, const run_log& q) {
  if (p.iterates.size() != q.iterates.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (std::size_t k = 0; k < p.iterates.size(); ++k)
    for (std::size_t i = 0; i < p.iterates[k].size(); ++i) {
      const double u = p.iterates[k][i], v = q.iterates[k][i];
      worst = std::max(worst, std::abs(u - v) / std::max({std::abs(u), std::abs(v), 1e-300}));
    }
  return worst;
}

std::string format_vector(const std::vector<double>& v) {
  std::string out = "(";
  for (std::size_t i = 0; i < v.size(); ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.15g", i ? ", " : "", v[i]);
    out += buf;
  }
  return out + ")";
}

void print_runs(const char* title, const run_log& e, const run_log& x) {
  std::printf("%s: %zu iterates on eigen<double>, %zu on xtensor<double>\n", title,
              e.iterates.size(), x.iterates.size());
  std::printf("  %4s  %-66s  %-22s  %s\n", "k", "x_k (eigen)", "f(x_k) (eigen)",
              "max rel. diff vs xtensor");
  for (std::size_t k = 0; k < e.iterates.size(); ++k) {
    const std::string xs = format_vector(e.iterates[k]);
    double diff = 0;
    if (k < x.iterates.size())
      for (std::size_t i = 0; i < e.iterates[k].size(); ++i)
        diff = std::max(
            diff, std::abs(e.iterates[k][i] - x.iterates[k][i]) /
                      std::max({std::abs(e.iterates[k][i]), std::abs(x.iterates[k][i]), 1e-300}));
    std::printf("  %4zu  %-66s  %-22.15g  %.2g\n", k, xs.c_str(), e.values[k], diff);
  }
  std::printf("  final gradient norm: eigen %.3g, xtensor %.3g\n", e.grad_norm, x.grad_norm);
}

}  // namespace

int main() {
  bool ok = true;

  const auto re =
      minimize(rosenbrock<ep::eigen<double>>, ep::from_vector<ep::eigen<double>>({-1.2, 1.0}));
  const auto rx =
      minimize(rosenbrock<ep::xtensor<double>>, ep::from_vector<ep::xtensor<double>>({-1.2, 1.0}));
  print_runs("Rosenbrock from (-1.2, 1)", re, rx);
  for (const auto* r : {&re, &rx}) {
    const auto& last = r->iterates.back();
    const double err = std::max(std::abs(last[0] - 1), std::abs(last[1] - 1));
    std::printf("  distance to (1, 1): %.3g\n", err);
    ok = ok && err <= 1e-6;
  }
  const double rdiff = disagreement(re, rx);
  std::printf("  iterates agree to %.3g relative (need <= 1e-6)\n\n", rdiff);
  ok = ok && rdiff <= 1e-6;

  const auto le = minimize(least_squares<ep::eigen<double>>, ep::zeros<ep::eigen<double>>({3}));
  const auto lx = minimize(least_squares<ep::xtensor<double>>, ep::zeros<ep::xtensor<double>>({3}));
  print_runs("Least squares ||A x - b||^2 from 0", le, lx);
  const std::vector<double> solution = {37.0 / 117, 73.0 / 117, 8.0 / 9};  // NumPy's lstsq
  for (const auto* r : {&le, &lx}) {
    double err = 0;
    for (std::size_t i = 0; i < 3; ++i)
      err = std::max(err, std::abs(r->iterates.back()[i] - solution[i]));
    std::printf(
        "  distance to NumPy's solution (37/117, 73/117, 8/9): %.3g; residual %.15g (NumPy: "
        "2.760683760683761)\n",
        err, r->values.back());
    ok = ok && err <= 1e-6;
  }
  const double ldiff = disagreement(le, lx);
  std::printf("  iterates agree to %.3g relative (need <= 1e-6)\n", ldiff);
  ok = ok && ldiff <= 1e-6;

  std::printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
