// eagerpp - logistic regression by gradient descent, written once over the backend, run on Eigen
// and xtensor
// SPDX-License-Identifier: MIT
//
// Two Gaussian blobs of 100 points each in the plane (a fixed seed, so every run sees the same
// data), labels 0 and 1, a linear model z = X w + b and the mean logistic loss
//   mean(log(1 + exp(z)) - y z),
// minimized by plain gradient descent (ep::optim::sgd) with gradients from ep::value_and_grad. The
// program exits with a failure unless the loss decreased at every report and both backends end at the same
// weights (to 1e-5).
#include <algorithm>  // std::max
#include <cmath>      // std::abs
#include <cstdio>     // std::printf
#include <cstdlib>    // EXIT_SUCCESS, EXIT_FAILURE
#include <random>     // std::mt19937, std::normal_distribution
#include <tuple>      // std::tuple, std::get
#include <vector>     // std::vector

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/optim.hpp>
#include <eagerpp/xtensor.hpp>

namespace {

constexpr int points_per_class = 100;
constexpr int steps = 200;
constexpr int report_every = 20;
constexpr double learning_rate = 0.5;

/// 200 x 2 points: class 0 around (-1, -0.5), class 1 around (1, 1), unit variance; and their
/// labels.
struct dataset {
  std::vector<double> x;  // row-major, 200 x 2
  std::vector<double> y;  // 0 or 1
};

dataset make_blobs() {
  std::mt19937 gen(20240611);
  std::normal_distribution<double> noise(0.0, 1.0);
  dataset d;
  for (int label = 0; label < 2; ++label) {
    const double cx = label == 0 ? -1.0 : 1.0;
    const double cy = label == 0 ? -0.5 : 1.0;
    for (int i = 0; i < points_per_class; ++i) {
      d.x.push_back(cx + noise(gen));
      d.x.push_back(cy + noise(gen));
      d.y.push_back(label);
    }
  }
  return d;
}

/// The mean logistic loss of the parameters {w, b} on (x, y); softplus(z) = max(z, 0) +
/// log1p(exp(-|z|)) keeps it finite for any z.
template <class B>
ep::Tensor<B> logistic_loss(const std::tuple<ep::Tensor<B>, ep::Tensor<B>>& params,
                            const ep::Tensor<B>& x, const ep::Tensor<B>& y) {
  const auto& [w, b] = params;
  const ep::Tensor<B> z = x.matmul(w) + b;
  const ep::Tensor<B> softplus = z.maximum(0) + (-z.abs()).exp().log1p();
  return (softplus - y * z).mean();
}

struct training_result {
  std::vector<double> losses;   // at steps 0, report_every, ..., steps
  std::vector<double> weights;  // w0, w1, b
  double accuracy = 0;
  bool decreased = true;
};

/// Gradient descent from w = 0, b = 0 on backend B.
template <class B>
training_result train(const dataset& d, const char* name) {
  using T = ep::Tensor<B>;
  const auto n = static_cast<std::int64_t>(d.y.size());
  const T x = ep::from_vector<B>(d.x, {n, 2});
  const T y = ep::from_vector<B>(d.y, {n});
  std::tuple<T, T> params{ep::zeros<B>({2}), ep::zeros<B>({})};
  const auto loss_and_grad = ep::value_and_grad_fn(logistic_loss<B>);
  ep::optim::sgd optimizer(params, learning_rate);  // p <- p - learning_rate * grad

  training_result r;
  std::printf("%s:\n", name);
  for (int step = 0; step <= steps; ++step) {
    const auto [loss, grad] = loss_and_grad(params, x, y);
    if (step % report_every == 0) {
      const double l = loss.item();
      std::printf("  step %3d  loss %.10f\n", step, l);
      if (!r.losses.empty() && !(l < r.losses.back())) r.decreased = false;
      r.losses.push_back(l);
    }
    if (step == steps) break;
    params = optimizer.step(params, grad);
  }
  const auto& [w, b] = params;
  r.weights = w.to_vector();
  r.weights.push_back(b.item());
  // Training accuracy: the sign of z against the label.
  const auto predicted = (x.matmul(w) + b > 0).template astype<double>();
  r.accuracy = (predicted == y).template astype<double>().mean().item();
  std::printf("  weights w = (%.10f, %.10f), b = %.10f; training accuracy %.3f\n", r.weights[0],
              r.weights[1], r.weights[2], r.accuracy);
  return r;
}

}  // namespace

int main() {
  const dataset d = make_blobs();
  const training_result e = train<ep::eigen<double>>(d, "eigen<double>");
  const training_result x = train<ep::xtensor<double>>(d, "xtensor<double>");

  double diff = 0;
  for (std::size_t i = 0; i < e.weights.size(); ++i)
    diff = std::max(diff, std::abs(e.weights[i] - x.weights[i]));
  const bool agree = diff <= 1e-5;
  const bool decreased = e.decreased && x.decreased && e.losses.back() < e.losses.front();
  std::printf("loss decreased at every report on both backends: %s\n", decreased ? "yes" : "NO");
  std::printf("largest weight difference between backends: %.3g (%s 1e-5)\n", diff,
              agree ? "<=" : "EXCEEDS");
  return decreased && agree ? EXIT_SUCCESS : EXIT_FAILURE;
}
