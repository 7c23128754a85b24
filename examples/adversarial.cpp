// eagerpp - adversarial examples: FGSM and L-inf PGD (Foolbox's core) against a small MLP, written
// once over the backend, run on Eigen and xtensor
// SPDX-License-Identifier: MIT
//
// Data: 10-D points uniform in the box [-1, 1]^10, labelled with one of 3 classes by a fixed linear
// rule (argmax of x R + c). Model: an MLP 10 -> 32 (ReLU) -> 3, its weights drawn from ep::normal
// with a fixed seed and then trained by full-batch gradient descent on the mean cross-entropy, so
// every run and every backend sees the same numbers. Attacks, on held-out points, within eps = 0.1
// in L-inf:
//   FGSM  x' = clip(x + eps sign(grad_x loss), box)                        (Goodfellow et al. 2015)
//   PGD   from a random start in the eps-ball, steps x' <- proj(x' + alpha sign(grad_x loss))
//         with proj = the intersection of the eps-ball around x and the box    (Madry et al. 2018)
// The gradients come from ep::value_and_grad; the perturbation sizes are measured with
// ep::norms::linf. The program exits with a failure unless both attacks lower the accuracy, stay
// within eps, and both backends report the same accuracies.
#include <cmath>    // std::abs
#include <cstdint>  // std::int64_t
#include <cstdio>   // std::printf
#include <cstdlib>  // EXIT_SUCCESS, EXIT_FAILURE
#include <tuple>    // std::tuple, std::get
#include <utility>  // std::pair

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/norms.hpp>
#include <eagerpp/random.hpp>
#include <eagerpp/xtensor.hpp>

namespace {

constexpr std::int64_t dims = 10;
constexpr std::int64_t hidden = 32;
constexpr std::int64_t classes = 3;
constexpr std::int64_t train_points = 256;
constexpr std::int64_t test_points = 256;
constexpr int train_steps = 150;
constexpr double learning_rate = 1.0;
constexpr double box_low = -1, box_high = 1;  // the input domain (Foolbox: the model's bounds)
constexpr double epsilon = 0.1;
constexpr int pgd_steps = 20;
constexpr double pgd_step_size = 0.025;  // 2.5 eps / steps, Madry et al.'s choice

/// The MLP's parameters: W1 (10, 32), b1 (32,), W2 (32, 3), b2 (3,).
template <class B>
using params = std::tuple<ep::Tensor<B>, ep::Tensor<B>, ep::Tensor<B>, ep::Tensor<B>>;

/// The logits (N, 3) of the MLP for inputs (N, 10).
template <class B>
ep::Tensor<B> logits(const params<B>& p, const ep::Tensor<B>& x) {
  const auto& [w1, b1, w2, b2] = p;
  return (x.matmul(w1) + b1).maximum(0).matmul(w2) + b2;
}

/// The mean cross-entropy of the MLP on (x, y).
template <class B, class I>
ep::Tensor<B> mean_loss(const params<B>& p, const ep::Tensor<B>& x, const ep::Tensor<I>& y) {
  return logits(p, x).crossentropy(y).mean();
}

/// The fraction of points whose predicted class is the label.
template <class B, class I>
double accuracy(const params<B>& p, const ep::Tensor<B>& x, const ep::Tensor<I>& y) {
  return static_cast<double>((logits(p, x).argmax(1) == y).template astype<double>().mean().item());
}

/// Fast gradient sign method: one step of size eps along the sign of the loss gradient, clipped to
/// the box.
template <class B, class I>
ep::Tensor<B> fgsm(const params<B>& p, const ep::Tensor<B>& x, const ep::Tensor<I>& y, double eps) {
  const auto loss = [&](const ep::Tensor<B>& xx) { return logits(p, xx).crossentropy(y).sum(); };
  const auto [value, gradient] = ep::value_and_grad(loss, x);
  return (x + eps * gradient.sign()).clip(box_low, box_high);
}

/// Projected gradient descent in L-inf: a random start in the eps-ball, then `steps` signed
/// gradient steps of size `alpha`, each projected back onto the eps-ball around x and the box.
template <class B, class I>
ep::Tensor<B> pgd_linf(const params<B>& p, const ep::Tensor<B>& x, const ep::Tensor<I>& y,
                       double eps, double alpha, int steps, ep::generator& gen) {
  const auto loss = [&](const ep::Tensor<B>& xx) { return logits(p, xx).crossentropy(y).sum(); };
  auto project = [&](const ep::Tensor<B>& xa) {
    return (x + (xa - x).clip(-eps, eps)).clip(box_low, box_high);
  };
  ep::Tensor<B> xa = project(x + ep::uniform<B>(gen, x.shape(), -eps, eps));
  for (int i = 0; i < steps; ++i) {
    const auto [value, gradient] = ep::value_and_grad(loss, xa);
    xa = project(xa + alpha * gradient.sign());
  }
  return xa;
}

struct report {
  double train_accuracy = 0, clean = 0, fgsm = 0, pgd = 0;
  double fgsm_size = 0, pgd_size = 0;  // the largest L-inf perturbation
};

template <class B>
report run(const char* name) {
  using T = ep::Tensor<B>;
  ep::generator gen(1234);
  // The labelling rule and the data.
  const T rule = ep::normal<B>(gen, {dims, classes});
  const T offset = ep::normal<B>(gen, {classes}, 0, 0.5);
  const T x_train = ep::uniform<B>(gen, {train_points, dims}, box_low, box_high);
  const T x_test = ep::uniform<B>(gen, {test_points, dims}, box_low, box_high);
  const auto y_train = (x_train.matmul(rule) + offset).argmax(1);
  const auto y_test = (x_test.matmul(rule) + offset).argmax(1);

  // The MLP: weights from N(0, 1 / fan_in), biases 0; then gradient descent.
  params<B> p{ep::normal<B>(gen, {dims, hidden}, 0, 1 / std::sqrt(double(dims))),
              ep::zeros<B>({hidden}),
              ep::normal<B>(gen, {hidden, classes}, 0, 1 / std::sqrt(double(hidden))),
              ep::zeros<B>({classes})};
  const auto loss_and_grad =
      ep::value_and_grad_fn(mean_loss<B, typename B::template rebind<std::int64_t>>);
  std::printf("%s:\n", name);
  for (int step = 0; step <= train_steps; ++step) {
    const auto [loss, g] = loss_and_grad(p, x_train, y_train);
    if (step % 50 == 0)
      std::printf("  training step %3d  loss %.6f\n", step, static_cast<double>(loss.item()));
    if (step == train_steps) break;
    p = {std::get<0>(p) - learning_rate * std::get<0>(g),
         std::get<1>(p) - learning_rate * std::get<1>(g),
         std::get<2>(p) - learning_rate * std::get<2>(g),
         std::get<3>(p) - learning_rate * std::get<3>(g)};
  }

  report r;
  r.train_accuracy = accuracy(p, x_train, y_train);
  r.clean = accuracy(p, x_test, y_test);
  const T x_fgsm = fgsm(p, x_test, y_test, epsilon);
  r.fgsm = accuracy(p, x_fgsm, y_test);
  r.fgsm_size = static_cast<double>(ep::norms::linf(x_fgsm - x_test, -1).max().item());
  ep::generator attack_gen(99);
  const T x_pgd = pgd_linf(p, x_test, y_test, epsilon, pgd_step_size, pgd_steps, attack_gen);
  r.pgd = accuracy(p, x_pgd, y_test);
  r.pgd_size = static_cast<double>(ep::norms::linf(x_pgd - x_test, -1).max().item());
  std::printf(
      "  accuracy: training %.4f, test %.4f; under attack (eps = %.2f): FGSM %.4f, PGD-%d %.4f\n",
      r.train_accuracy, r.clean, epsilon, r.fgsm, pgd_steps, r.pgd);
  std::printf("  largest L-inf perturbation: FGSM %.6f, PGD %.6f\n", r.fgsm_size, r.pgd_size);
  return r;
}

}  // namespace

int main() {
  const report e = run<ep::eigen<float>>("eigen<float>");
  const report x = run<ep::xtensor<float>>("xtensor<float>");
  bool ok = true;
  auto check = [&](bool cond, const char* what, const char* backend = "") {
    std::printf("%-16s%-58s %s\n", backend, what, cond ? "yes" : "NO");
    ok = ok && cond;
  };
  // One test point is 1/256 of accuracy: the backends may round float sums differently, so a point
  // that lies exactly on a decision boundary could flip; allow one point.
  const double one_point = 1.0 / test_points + 1e-9;
  check(std::abs(e.clean - x.clean) <= one_point && std::abs(e.fgsm - x.fgsm) <= one_point &&
            std::abs(e.pgd - x.pgd) <= one_point,
        "both backends agree (to one test point):");
  for (const auto& [r, backend] :
       {std::pair{&e, "eigen<float>"}, std::pair{&x, "xtensor<float>"}}) {
    check(r->clean >= 0.85, "the trained MLP is accurate on clean data (>= 85%):", backend);
    check(r->fgsm < r->clean - 0.1 && r->pgd < r->clean - 0.1,
          "both attacks lower the accuracy by more than 10 points:", backend);
    check(r->pgd <= r->fgsm + one_point, "PGD is at least as strong as FGSM:", backend);
    check(r->fgsm_size <= epsilon * (1 + 1e-6) && r->pgd_size <= epsilon * (1 + 1e-6),
          "perturbations stay within eps:", backend);
  }
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
