// eagerpp - a 64-128-10 MLP trained with mini-batch SGD on handwritten digits, written once, run on
// every CPU backend
// SPDX-License-Identifier: MIT
//
// The data: 1,797 8x8 images of handwritten digits (16 grey levels) with their labels, the test set
// of the UCI "Optical Recognition of Handwritten Digits" data (examples/data/README.md: source and
// license). A fixed seed splits it into 1,437 training and 360 held-out images and orders every
// epoch's mini-batches; the model, a ReLU MLP with softmax cross-entropy whose parameters are one
// struct (a tree: EAGERPP_TREE), is trained by ep::optim::sgd with gradients from
// ep::value_and_grad, the same code on every backend. Each epoch prints the mean training loss, the
// held-out accuracy and the time; then each backend saves its weights with ep::save_npz (NumPy's
// .npz, one member a field: w1.npy, b1.npy, ...), loads them back and checks that the reloaded
// model predicts the same held-out accuracy, and the program compares the backends' final weights.
// It exits with a failure unless every backend reaches the accuracy target (95% after the full
// run), the reloaded weights give the same accuracy and the backends' weights agree to 1e-4.
//
// Every backend runs on one thread unless --threads says otherwise: the products here are small
// (32 x 64 x 128), and Eigen's OpenMP-parallel GEMM and OpenBLAS's threads cost more than they
// save at that size (docs/backends.md: which BLAS each backend uses, and its threads).
//
// Usage: mlp_digits [--data <digits.csv>] [--epochs <n>] [--min-accuracy <fraction>] [--threads
// <n>] [--save-dir <directory>]
#include <algorithm>   // std::max, std::min
#include <chrono>      // std::chrono::steady_clock
#include <cmath>       // std::abs, std::sqrt
#include <cstdint>     // std::int64_t
#include <cstdlib>     // EXIT_SUCCESS, EXIT_FAILURE, std::strtod, std::strtol
#include <filesystem>  // std::filesystem::path
#include <fstream>     // std::ifstream
#include <sstream>     // std::istringstream
#include <stdexcept>   // std::runtime_error
#include <string>      // std::string, std::getline
#include <utility>     // std::swap
#include <vector>      // std::vector

#include <cblas.h>  // openblas_set_num_threads (OpenBLAS, which ep::xtensor and ep::omp call)
#include <fmt/format.h>

#include "digits_csv.hpp"

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/npz.hpp>
#include <eagerpp/optim.hpp>
#include <eagerpp/random.hpp>
#include <eagerpp/tree.hpp>
#include <eagerpp/xtensor.hpp>
#if __has_include( \
    <eagerpp/omp.hpp>)  // eagerpp::omp: built where Thrust, OpenMP and OpenBLAS are found
#include <omp.h>        // omp_set_num_threads

#include <eagerpp/omp.hpp>
#define EAGERPP_DIGITS_OMP 1
#endif

#ifndef EAGERPP_DIGITS_CSV  // CMake passes the copy in examples/data
#define EAGERPP_DIGITS_CSV "examples/data/digits.csv"
#endif

namespace {

constexpr std::int64_t pixels = 64, hidden = 128, classes = 10;
constexpr std::int64_t held_out = 360, batch_size = 32;
constexpr double learning_rate = 0.1;
constexpr std::uint64_t seed = 2026;

/// The images (row-major, n x 64, scaled to [0, 1]) and their labels.
struct digits {
  std::vector<float> x;
  std::vector<std::int64_t> y;
  [[nodiscard]] std::int64_t size() const { return static_cast<std::int64_t>(y.size()); }
};

/// The digits of the CSV file at `path` (examples/digits_csv.hpp).
digits read_digits(const std::string& path) {
  const digits_csv::table t = digits_csv::read(path, "mlp_digits", held_out);
  digits d;
  for (const int v : t.grey) d.x.push_back(static_cast<float>(v) / 16.0F);
  d.y = t.labels;
  return d;
}

/// The rows `rows` of `d`.
digits gather(const digits& d, const std::vector<std::int64_t>& rows) {
  digits out;
  for (const auto r : rows) {
    out.x.insert(out.x.end(), d.x.begin() + r * pixels, d.x.begin() + (r + 1) * pixels);
    out.y.push_back(d.y[static_cast<std::size_t>(r)]);
  }
  return out;
}

/// A permutation of 0..n-1 from `gen` (Fisher-Yates): the same on every machine and backend.
std::vector<std::int64_t> permutation(ep::generator& gen, std::int64_t n) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i;
  for (std::int64_t i = n - 1; i > 0; --i)
    std::swap(p[static_cast<std::size_t>(i)],
              p[static_cast<std::size_t>(gen.below(static_cast<std::uint64_t>(i + 1), 1)[0])]);
  return p;
}

}  // namespace

namespace digits_model {

/// The MLP's parameters: a tree of four tensors, so that ep::value_and_grad returns its gradient
/// as an mlp, ep::optim steps it and ep::save_npz names its members after the fields.
template <class B>
struct mlp {
  ep::Tensor<B> w1, b1, w2, b2;
};
template <class B>
EAGERPP_TREE(mlp<B>, w1, b1, w2, b2)

}  // namespace digits_model

namespace {

using digits_model::mlp;

/// The logits of the MLP p for the images x.
template <class B>
ep::Tensor<B> logits(const mlp<B>& p, const ep::Tensor<B>& x) {
  return (x.matmul(p.w1) + p.b1).maximum(0).matmul(p.w2) + p.b2;
}

/// The mean softmax cross-entropy on (x, labels).
template <class B, class I>
ep::Tensor<B> loss(const mlp<B>& p, const ep::Tensor<B>& x, const ep::Tensor<I>& labels) {
  return logits(p, x).crossentropy(labels).mean();
}

/// The fraction of `labels` that p predicts for the images x.
template <class B, class I>
double accuracy(const mlp<B>& p, const ep::Tensor<B>& x, const ep::Tensor<I>& labels) {
  return (logits(p, x).argmax(1) == labels).template astype<double>().mean().item();
}

struct training_result {
  std::vector<float> weights;  // W1, b1, W2, b2, flattened
  double accuracy = 0;
  double reloaded_accuracy = -1;  // of the weights saved and loaded back
  double seconds_per_epoch = 0;
};

/// Trains on backend B: the same initial weights (He-normal from a fixed seed) and the same
/// mini-batches in the same order as on every other backend.
/// The trained weights are saved to `save_dir`/mlp_digits_<name>.npz.
template <class B>
training_result train(const char* name, const digits& train_set, const digits& test_set,
                      const std::vector<std::vector<std::int64_t>>& epochs,
                      const std::filesystem::path& save_dir) {
  using T = ep::Tensor<B>;
  using I = typename B::template rebind<std::int64_t>;
  ep::generator gen(seed);
  mlp<B> params{
      ep::normal<B>(gen, {pixels, hidden}, 0, std::sqrt(2.0 / pixels)), ep::zeros<B>({hidden}),
      ep::normal<B>(gen, {hidden, classes}, 0, std::sqrt(2.0 / hidden)), ep::zeros<B>({classes})};
  ep::optim::sgd optimizer(params, learning_rate);
  const T x_test = ep::from_vector<B>(test_set.x, {test_set.size(), pixels});
  const auto y_test = ep::from_vector<I>(test_set.y, {test_set.size()});
  const auto step = ep::value_and_grad_fn(loss<B, I>);

  fmt::print("{}:\n", name);
  training_result r;
  double seconds = 0;
  for (std::size_t e = 0; e < epochs.size(); ++e) {
    const auto start = std::chrono::steady_clock::now();
    const auto& order = epochs[e];
    double loss_sum = 0;
    for (std::size_t b = 0; b < order.size(); b += batch_size) {
      const std::vector<std::int64_t> rows(
          order.begin() + static_cast<std::ptrdiff_t>(b),
          order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), b + batch_size)));
      const digits mb = gather(train_set, rows);
      const T x = ep::from_vector<B>(mb.x, {mb.size(), pixels});
      const auto y = ep::from_vector<I>(mb.y, {mb.size()});
      const auto [value, g] = step(params, x, y);
      params = optimizer.step(params, g);
      loss_sum += value.item() * static_cast<double>(mb.size());
    }
    r.accuracy = accuracy(params, x_test, y_test);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    seconds += took;
    fmt::print("  epoch {:2}  loss {:.4f}  held-out accuracy {:5.1f}%  {:6.1f} ms\n", e + 1,
               loss_sum / static_cast<double>(order.size()), 100 * r.accuracy, 1e3 * took);
  }
  r.seconds_per_epoch = epochs.empty() ? 0 : seconds / static_cast<double>(epochs.size());
  for (const auto& leaf : ep::tree_leaves(params)) {
    const auto v = leaf.to_vector();
    r.weights.insert(r.weights.end(), v.begin(), v.end());
  }
  if (!save_dir.empty()) {
    const auto path = save_dir / fmt::format("mlp_digits_{}.npz", B::name);
    ep::save_npz(path, params);
    const mlp<B> reloaded = ep::load_npz(path, params);
    r.reloaded_accuracy = accuracy(reloaded, x_test, y_test);
    fmt::print("  saved to {}; reloaded, held-out accuracy {:.1f}%\n", path.string(),
               100 * r.reloaded_accuracy);
  }
  return r;
}

struct options : digits_csv::training_options {
  int threads = 1;
  std::filesystem::path save_dir = ".";  // empty: nothing saved
};

options parse(int argc, char** argv) {
  options o;
  o.data = EAGERPP_DIGITS_CSV;
  o.epochs = 20;
  o.min_accuracy = 0.95;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (digits_csv::read_training_option(argc, argv, i, o)) continue;
    if (i + 1 < argc && a == "--threads") {
      o.threads = std::max(1, static_cast<int>(std::strtol(argv[++i], nullptr, 10)));
    } else if (i + 1 < argc && a == "--save-dir") {
      o.save_dir = argv[++i];
    } else {
      throw std::runtime_error(
          fmt::format("mlp_digits: unknown argument '{}'; usage: mlp_digits [--data <digits.csv>] "
                      "[--epochs <n>] [--min-accuracy <fraction>] [--threads <n>] "
                      "[--save-dir <directory>]",
                      a));
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) try {
  const options opt = parse(argc, argv);
  Eigen::setNbThreads(opt.threads);  // Eigen's GEMM, where it is compiled with OpenMP
  openblas_set_num_threads(opt.threads);
#if defined(EAGERPP_DIGITS_OMP)
  omp_set_num_threads(opt.threads);
#endif
  const digits all = read_digits(opt.data);
  // The split and every epoch's order come from one generator, before any backend runs.
  ep::generator gen(seed);
  const auto shuffled = permutation(gen, all.size());
  const digits test_set = gather(all, {shuffled.begin(), shuffled.begin() + held_out});
  const digits train_set = gather(all, {shuffled.begin() + held_out, shuffled.end()});
  std::vector<std::vector<std::int64_t>> epochs;
  for (int e = 0; e < opt.epochs; ++e) epochs.push_back(permutation(gen, train_set.size()));
  fmt::print(
      "{} images from {}: {} for training, {} held out; a {}-{}-{} MLP, {} epochs of SGD (batch "
      "{}, lr {}), {} "
      "thread(s) per backend\n",
      all.size(), std::filesystem::path(opt.data).filename().string(), train_set.size(),
      test_set.size(), pixels, hidden, classes, opt.epochs, batch_size, learning_rate, opt.threads);

  std::vector<std::pair<const char*, training_result>> runs;
  const auto& dir = opt.save_dir;
  runs.emplace_back("eigen",
                    train<ep::eigen<float>>("eigen<float>", train_set, test_set, epochs, dir));
  runs.emplace_back("xtensor",
                    train<ep::xtensor<float>>("xtensor<float>", train_set, test_set, epochs, dir));
#if defined(EAGERPP_DIGITS_OMP)
  runs.emplace_back("omp", train<ep::omp<float>>("omp<float>", train_set, test_set, epochs, dir));
#endif

  bool ok = true, reloads = true;
  fmt::print("\nbackend   held-out accuracy   time per epoch\n");
  for (const auto& [name, r] : runs) {
    const bool reached = r.accuracy >= opt.min_accuracy;
    ok = ok && reached;
    reloads = reloads && (opt.save_dir.empty() || r.reloaded_accuracy == r.accuracy);
    fmt::print("{:<9} {:>8.1f}% {:<9}  {:8.1f} ms\n", name, 100 * r.accuracy,
               reached ? "" : "(MISSED)", 1e3 * r.seconds_per_epoch);
  }
  double diff = 0;
  for (const auto& [name, r] : runs)
    for (std::size_t i = 0; i < r.weights.size(); ++i)
      diff = std::max(diff,
                      static_cast<double>(std::abs(r.weights[i] - runs.front().second.weights[i])));
  const bool agree = diff <= 1e-4;
  fmt::print("accuracy target {:.0f}% on every backend: {}\n", 100 * opt.min_accuracy,
             ok ? "yes" : "NO");
  if (!opt.save_dir.empty())
    fmt::print("the saved weights, loaded back, give the same accuracy: {}\n",
               reloads ? "yes" : "NO");
  fmt::print(
      "backends agree on the final weights: {} (largest difference {:.2g}, tolerance 1e-4)\n",
      agree ? "yes" : "NO", diff);
  return ok && agree && reloads ? EXIT_SUCCESS : EXIT_FAILURE;
} catch (const std::exception& e) {
  fmt::print(stderr, "{}\n", e.what());
  return EXIT_FAILURE;
}
