// eagerpp - array API functions against the libraries' own spelling of them, side by side: a
// binary element-wise op added through the backends' scalar rules (atan2) against Eigen's and
// xtensor's expressions for it, the variance against the mean and one fused pass, and
// unique_values of integers against std::sort and std::unique on a copy.
// SPDX-License-Identifier: MIT
//
// Targets: atan2 at n = 1e6 within 1.1x of the library's expression (Eigen, xtensor); var over 1e7
// floats within 1.2x of mean + one fused pass (Eigen); unique_values of 1e6 int32 within 1.2x of
// std::sort + std::unique. Each benchmark runs 5 times in random order unless told otherwise
// (--benchmark_repetitions); the ratios are of the medians.
#include <algorithm>  // std::sort, std::unique
#include <cmath>      // std::atan2, std::abs
#include <cstdint>    // std::int32_t
#include <cstdio>     // stderr
#include <random>     // std::mt19937
#include <vector>     // std::vector

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <Eigen/Core>
#include <xtensor/xadapt.hpp>
#include <xtensor/xmath.hpp>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>

#include "ratio_reporter.hpp"

namespace {

constexpr std::int64_t n_elementwise = 1'000'000;
constexpr std::int64_t n_var = 10'000'000;
constexpr std::int64_t n_unique = 1'000'000;

std::vector<double> uniform(std::int64_t n, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(-2, 2);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = d(gen);
  return v;
}

/// 1e6 integers with about 1e5 distinct values.
std::vector<std::int32_t> integers() {
  std::mt19937 gen(7);
  std::uniform_int_distribution<std::int32_t> d(0, 100'000);
  std::vector<std::int32_t> v(static_cast<std::size_t>(n_unique));
  for (auto& x : v) x = d(gen);
  return v;
}

template <class B>
void BM_atan2(benchmark::State& state) {
  const auto a = ep::from_vector<B>(uniform(n_elementwise, 1), {n_elementwise});
  const auto b = ep::from_vector<B>(uniform(n_elementwise, 2), {n_elementwise});
  for (auto _ : state) benchmark::DoNotOptimize(ep::atan2(a, b).raw());
}

void BM_atan2_eigen_native(benchmark::State& state) {
  const auto va = uniform(n_elementwise, 1), vb = uniform(n_elementwise, 2);
  const Eigen::Map<const Eigen::ArrayXd> a(va.data(), n_elementwise), b(vb.data(), n_elementwise);
  for (auto _ : state) {
    Eigen::ArrayXd c = a.binaryExpr(b, [](double y, double x) { return std::atan2(y, x); });
    benchmark::DoNotOptimize(c.data());
  }
}

void BM_atan2_xtensor_native(benchmark::State& state) {
  const auto va = uniform(n_elementwise, 1), vb = uniform(n_elementwise, 2);
  const auto a = xt::adapt(va), b = xt::adapt(vb);
  for (auto _ : state) {
    xt::xtensor<double, 1> c = xt::atan2(a, b);
    benchmark::DoNotOptimize(c.data());
  }
}

void BM_var(benchmark::State& state) {
  using B = ep::eigen<float>;
  std::vector<float> v;
  for (double x : uniform(n_var, 3)) v.push_back(static_cast<float>(x));
  const auto x = ep::from_vector<B>(v, {n_var});
  for (auto _ : state) benchmark::DoNotOptimize(ep::var(x).item());
}

void BM_var_native(benchmark::State& state) {
  std::vector<float> v;
  for (double x : uniform(n_var, 3)) v.push_back(static_cast<float>(x));
  const Eigen::Map<const Eigen::ArrayXf> x(v.data(), n_var);
  for (auto _ : state) {
    const float mean = x.mean();
    benchmark::DoNotOptimize((x - mean).square().sum() / static_cast<float>(n_var));
  }
}

void BM_unique(benchmark::State& state) {
  using B = ep::eigen<std::int32_t>;
  const auto x = ep::from_vector<B>(integers(), {n_unique});
  for (auto _ : state) benchmark::DoNotOptimize(ep::unique_values(x).raw());
}

void BM_unique_native(benchmark::State& state) {
  const auto v = integers();
  for (auto _ : state) {
    std::vector<std::int32_t> c = v;
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    benchmark::DoNotOptimize(c.data());
  }
}

BENCHMARK(BM_atan2<ep::eigen<double>>)->Name("atan2/eigen");
BENCHMARK(BM_atan2_eigen_native)->Name("atan2/eigen_native");
BENCHMARK(BM_atan2<ep::xtensor<double>>)->Name("atan2/xtensor");
BENCHMARK(BM_atan2_xtensor_native)->Name("atan2/xtensor_native");
BENCHMARK(BM_var)->Name("var/eigen");
BENCHMARK(BM_var_native)->Name("var/native");
BENCHMARK(BM_unique)->Name("unique_values/eigen");
BENCHMARK(BM_unique_native)->Name("unique_values/native");

/// The facade and the libraries must agree before their times mean anything.
bool agree() {
  const auto va = uniform(1000, 1), vb = uniform(1000, 2);
  const auto t = ep::atan2(ep::from_vector<ep::xtensor<double>>(va, {1000}),
                           ep::from_vector<ep::xtensor<double>>(vb, {1000}))
                     .to_vector();
  for (std::size_t i = 0; i < va.size(); ++i)
    if (std::abs(t[i] - std::atan2(va[i], vb[i])) > 1e-15) return false;
  const auto u = ep::unique_values(ep::from_vector<ep::eigen<std::int32_t>>({3, 1, 3, 2}, {4}));
  return u.to_vector() == std::vector<std::int32_t>{1, 2, 3};
}

}  // namespace

int main(int argc, char** argv) {
  if (!agree()) {
    fmt::print(stderr, "array_api_bench: the facade's results differ from the libraries'\n");
    return 1;
  }
  ep::bench::ratio_reporter rep;
  ep::bench::run_repeated(argc, argv, rep);
  fmt::print("\nratios (median times of this run):\n");
  bool ok = true;
  ok &= ep::bench::print_ratio(rep, "atan2 1e6: eigen / Eigen's binaryExpr", "atan2/eigen",
                               "atan2/eigen_native", 1.1);
  ok &= ep::bench::print_ratio(rep, "atan2 1e6: xtensor / xt::atan2", "atan2/xtensor",
                               "atan2/xtensor_native", 1.1);
  ok &= ep::bench::print_ratio(rep, "var 1e7 float: eigen / mean + one pass", "var/eigen",
                               "var/native", 1.2);
  ok &= ep::bench::print_ratio(rep, "unique_values 1e6 int32: eigen / sort + unique",
                               "unique_values/eigen", "unique_values/native", 1.2);
  fmt::print("{}\n", ok ? "all targets met" : "some targets missed");
  benchmark::Shutdown();
  return 0;
}
