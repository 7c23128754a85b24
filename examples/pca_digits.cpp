// eagerpp - principal component analysis of the handwritten digits with ep::linalg::svd, written
// once over the backend, run on every CPU backend
// SPDX-License-Identifier: MIT
//
// The data: the 1,797 8x8 images of examples/data/digits.csv (the file examples/mlp_digits.cpp
// trains on; examples/data/README.md: source and license), 64 grey levels 0..16 each. The images
// are centered (the mean image subtracted) and decomposed by ep::linalg::svd(x, {.full_matrices =
// false}): x = U diag(S) Vh, the rows of Vh the principal axes, S^2 / (n - 1) the variance along
// each. The program prints the explained variance ratio S_i^2 / sum S^2 of the first 10 components
// and its cumulative sum, then projects the images onto the first two components and prints the
// mean of each digit's projections.
//
// The same decomposition, checked another way: ep::linalg::eigh of the covariance x^T x / (n - 1)
// gives the variances as its eigenvalues (ascending) and the axes as its eigenvectors. An axis is
// defined up to its sign, which each library chooses its own way, so every axis is turned to make
// its largest loading positive before the projection.
//
// Every backend runs the same code in float64. The program exits with a failure unless on every
// backend the ratios are descending, in [0, 1] and sum to 1 over all components, U diag(S) Vh
// reconstructs the centered images, eigh agrees with svd (the variances to 1e-9 relative, the
// first 10 axes to 1e-9 up to their sign), and unless the backends agree on the ratios and the
// projected means to 1e-9.
//
// Usage: pca_digits [--data <digits.csv>]
#include <algorithm>  // std::max
#include <cmath>      // std::abs
#include <cstdint>    // std::int64_t
#include <cstdlib>    // EXIT_SUCCESS, EXIT_FAILURE, std::strtol
#include <fstream>    // std::ifstream
#include <sstream>    // std::istringstream
#include <stdexcept>  // std::runtime_error
#include <string>     // std::string, std::getline
#include <utility>    // std::pair
#include <vector>     // std::vector

#include <fmt/format.h>

#include "digits_csv.hpp"

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>
#if __has_include( \
    <eagerpp/omp.hpp>)  // eagerpp::omp: built where Thrust, OpenMP and OpenBLAS are found
#include <eagerpp/omp.hpp>
#define EAGERPP_PCA_OMP 1
#endif

#ifndef EAGERPP_DIGITS_CSV  // CMake passes the copy in examples/data
#define EAGERPP_DIGITS_CSV "examples/data/digits.csv"
#endif

namespace {

constexpr std::int64_t pixels = 64, classes = 10;
constexpr std::int64_t shown = 10;  // components printed (and checked against eigh)

/// The images (row-major, n x 64, grey levels 0..16) and their labels.
struct digits {
  std::vector<double> x;
  std::vector<std::int64_t> y;
  [[nodiscard]] std::int64_t size() const { return static_cast<std::int64_t>(y.size()); }
};

/// The digits of the CSV file at `path` (examples/digits_csv.hpp).
digits read_digits(const std::string& path) {
  const digits_csv::table t = digits_csv::read(path, "pca_digits", pixels);
  digits d;
  for (const int v : t.grey) d.x.push_back(static_cast<double>(v));
  d.y = t.labels;
  return d;
}

/// What one backend computes, and how far its checks are from exact.
struct pca_result {
  std::vector<double> ratio;        // explained variance ratio of every component, descending
  std::vector<double> class_means;  // (10, 2): the mean projection of each digit, row-major
  double reconstruction = 0;        // max |U diag(S) Vh - x| / max |x|
  double eigh_values = 0;           // max |eigenvalue - S^2 / (n - 1)| / the largest
  double eigh_axes = 0;             // max (1 - |<eigenvector, axis>|) over the first `shown`
  /// Every number the backends must agree on.
  [[nodiscard]] std::vector<double> values() const {
    std::vector<double> v = ratio;
    v.insert(v.end(), class_means.begin(), class_means.end());
    return v;
  }
};

/// Centers the images, decomposes them on backend B, checks the decomposition with eigh and
/// projects onto the first two axes; prints the ratios and the projected class means.
template <class B>
pca_result pca(const char* name, const digits& d) {
  using T = ep::Tensor<B>;
  using I = typename B::template rebind<std::int64_t>;
  const std::int64_t n = d.size();
  const T images = ep::from_vector<B>(d.x, {n, pixels});
  const T x = images - images.mean(0);                                   // centered
  const auto [u, s, vh] = ep::linalg::svd(x, {.full_matrices = false});  // s: (64,), descending
  const T variance = s.square() / static_cast<double>(n - 1);
  const T ratio = variance / variance.sum();

  pca_result r;
  r.ratio = ratio.to_vector();
  r.reconstruction =
      ((u * s).matmul(vh) - x).abs().max().item() / x.abs().max().item();  // u * s: U diag(S)

  // The covariance's eigenvalues, descending, are the variances; its eigenvectors (columns) the
  // axes, up to their signs.
  const auto [w, v] = ep::linalg::eigh(x.T().matmul(x) / static_cast<double>(n - 1));
  r.eigh_values = (w.flip() - variance).abs().max().item() / variance[0].item();
  const T top = vh(ep::slice(0, shown));                                         // (10, 64)
  const T eig_top = v(ep::ellipsis, ep::slice(pixels - shown, {})).flip(1).T();  // (10, 64)
  r.eigh_axes = (1 - (top * eig_top).sum(1).abs()).abs().max().item();

  // Each axis with its largest loading positive, then the projection onto the first two.
  const auto largest = top.abs().argmax(1).reshape({shown, 1});
  const T axes = top * top.take_along_axis(largest, 1).sign();
  const T projected = x.matmul(axes(ep::slice(0, 2)).T());  // (n, 2)
  // The class means: a one-hot (n, 10) matrix of the labels, transposed, times the projections,
  // divided by each class's count.
  const auto labels = ep::from_vector<I>(d.y, {n, 1});
  const T onehot = (labels == ep::arange<I>(classes)).template astype<typename B::value_type>();
  const T means = onehot.T().matmul(projected) / onehot.sum(0).reshape({classes, 1});
  r.class_means = means.to_vector();

  fmt::print("{}:\n", name);
  fmt::print("  component  explained variance  ratio     cumulative\n");
  double cumulative = 0;
  for (std::int64_t i = 0; i < shown; ++i) {
    const double ri = r.ratio[static_cast<std::size_t>(i)];
    cumulative += ri;
    fmt::print("  {:9}  {:18.4f}  {:8.6f}  {:8.6f}\n", i + 1, variance[i].item(), ri, cumulative);
  }
  fmt::print("  mean projection onto components 1 and 2, by digit:\n");
  for (std::int64_t c = 0; c < classes; ++c)
    fmt::print("    {}  {:8.4f}  {:8.4f}\n", c, r.class_means[static_cast<std::size_t>(2 * c)],
               r.class_means[static_cast<std::size_t>(2 * c + 1)]);
  return r;
}

/// Whether the ratios are in [0, 1], descending and sum to 1; prints what fails.
bool ratios_sane(const char* name, const std::vector<double>& ratio) {
  bool ok = true;
  double sum = 0;
  for (std::size_t i = 0; i < ratio.size(); ++i) {
    sum += ratio[i];
    if (!(ratio[i] >= 0 && ratio[i] <= 1 && (i == 0 || ratio[i] <= ratio[i - 1]))) {
      fmt::print("{}: FAILED: ratio {} is {} (the one before: {})\n", name, i + 1, ratio[i],
                 i == 0 ? 1.0 : ratio[i - 1]);
      ok = false;
    }
  }
  if (!(std::abs(sum - 1) <= 1e-12)) {
    fmt::print("{}: FAILED: the ratios sum to {}\n", name, sum);
    ok = false;
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) try {
  std::string path = EAGERPP_DIGITS_CSV;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--data" && i + 1 < argc)
      path = argv[++i];
    else
      throw std::runtime_error(fmt::format(
          "pca_digits: unknown argument '{}'; usage: pca_digits [--data <digits.csv>]", a));
  }
  const digits d = read_digits(path);
  fmt::print("PCA of {} images of {} pixels, centered, by ep::linalg::svd\n", d.size(), pixels);
  std::vector<std::pair<const char*, pca_result>> runs;
  runs.emplace_back("eigen", pca<ep::eigen<double>>("eigen<double>", d));
  runs.emplace_back("xtensor", pca<ep::xtensor<double>>("xtensor<double>", d));
#if defined(EAGERPP_PCA_OMP)
  runs.emplace_back("omp", pca<ep::omp<double>>("omp<double>", d));
#endif

  bool ratios_ok = true;
  double reconstruction = 0, eigh_values = 0, eigh_axes = 0, diff = 0;
  const std::vector<double> first = runs.front().second.values();
  for (const auto& [name, r] : runs) {
    ratios_ok = ratios_sane(name, r.ratio) && ratios_ok;
    reconstruction = std::max(reconstruction, r.reconstruction);
    eigh_values = std::max(eigh_values, r.eigh_values);
    eigh_axes = std::max(eigh_axes, r.eigh_axes);
    const std::vector<double> v = r.values();
    for (std::size_t i = 0; i < v.size(); ++i)
      diff = std::max(diff, std::abs(v[i] - first[i]) / std::max(1.0, std::abs(first[i])));
  }
  const bool reconstructs = reconstruction <= 1e-12;
  const bool eigh_agrees = eigh_values <= 1e-9 && eigh_axes <= 1e-9;
  const bool agree = diff <= 1e-9;
  fmt::print("\nratios in [0, 1], descending, summing to 1 on every backend: {}\n",
             ratios_ok ? "yes" : "NO");
  fmt::print(
      "U diag(S) Vh reconstructs the centered images on every backend: {} (largest error {:.2g} "
      "of max |x|, tolerance 1e-12)\n",
      reconstructs ? "yes" : "NO", reconstruction);
  fmt::print(
      "eigh of the covariance agrees with svd on every backend: {} (variances {:.2g}, first {} "
      "axes {:.2g}, tolerance 1e-9)\n",
      eigh_agrees ? "yes" : "NO", eigh_values, shown, eigh_axes);
  fmt::print(
      "backends agree on the ratios and the projected means: {} (largest difference {:.2g}, "
      "tolerance 1e-9)\n",
      agree ? "yes" : "NO", diff);
  return ratios_ok && reconstructs && eigh_agrees && agree ? EXIT_SUCCESS : EXIT_FAILURE;
} catch (const std::exception& e) {
  fmt::print(stderr, "{}\n", e.what());
  return EXIT_FAILURE;
}
