// eagerpp - a NumPy user's stencil: one step of the 2-D heat equation (5-point Laplacian with
// slices, then pad for the fixed boundary), on each CPU backend against the same step as a plain
// loop; the same step written with index_update against the pad spelling; and the slicing and
// index_update of a 64 x 64 grid on Eigen against xtensor. Ratios side by side.
// SPDX-License-Identifier: MIT
//
// Targets: a 62 x 62 slice and index_update of a 64 x 64 double grid on Eigen within 1.5x of
// xtensor's time; the heat step at most 3x the plain loop at 1024 x 1024 on Eigen and xtensor; the
// index_update spelling at most 2x the pad spelling at 1024 x 1024 on every CPU backend.
//
// Unless told otherwise (--benchmark_repetitions), each benchmark runs 5 times in random order
// and the ratios are of the medians: the loop is bound by memory bandwidth, which on a shared
// machine drifts by 10-30% within minutes, so one run after the other is not side by side.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>
#if __has_include(<eagerpp/omp.hpp>)  // eagerpp::omp, where it is built
#include <eagerpp/omp.hpp>
#define EAGERPP_STENCIL_OMP 1
#endif

#include "ratio_reporter.hpp"

namespace {

constexpr double alpha = 0.2;

/// The interior of u after one step: u + alpha * (5-point Laplacian), with slices.
template <class B>
ep::Tensor<B> heat_interior(const ep::Tensor<B>& u) {
  using ep::slice;
  const auto inner = u(slice(1, -1), slice(1, -1));
  const auto lap = u(slice(2, {}), slice(1, -1)) + u(slice({}, -2), slice(1, -1)) +
                   u(slice(1, -1), slice(2, {})) + u(slice(1, -1), slice({}, -2)) - 4 * inner;
  return inner + alpha * lap;
}

/// The step as docs/api.md writes it: written once, for every backend.
template <class B>
ep::Tensor<B> heat_step(const ep::Tensor<B>& u) {
  return heat_interior(u).pad({1, 1});
}

/// The same step written with index_update (JAX: `u.at[1:-1, 1:-1].set(...)`): the interior is
/// replaced and the boundary keeps u's values.
template <class B>
ep::Tensor<B> heat_step_update(const ep::Tensor<B>& u) {
  return u.index_update(ep::index(ep::slice(1, -1), ep::slice(1, -1)), heat_interior(u));
}

/// The same step as a C programmer writes it, into a kept buffer.
void heat_step_loop(const std::vector<double>& u, std::vector<double>& out, std::int64_t n) {
  for (std::int64_t j = 0; j < n; ++j) out[j] = out[(n - 1) * n + j] = 0;
  for (std::int64_t i = 1; i + 1 < n; ++i) {
    const double* r = &u[i * n];
    double* o = &out[i * n];
    o[0] = o[n - 1] = 0;
    for (std::int64_t j = 1; j + 1 < n; ++j)
      o[j] = r[j] + alpha * (r[j - n] + r[j + n] + r[j - 1] + r[j + 1] - 4 * r[j]);
  }
}

template <class B>
ep::Tensor<B> grid(std::int64_t n) {
  return ep::arange<B>(static_cast<double>(n * n)).reshape(n, n) / static_cast<double>(n * n);
}

/// One heat step on an n x n grid per iteration: `Step` is heat_step or heat_step_update.
template <class B, ep::Tensor<B> (*Step)(const ep::Tensor<B>&)>
void BM_heat(benchmark::State& state) {
  const auto n = state.range(0);
  auto u = grid<B>(n);
  for (auto _ : state) {
    auto v = Step(u);
    benchmark::DoNotOptimize(v.raw());
  }
}

void BM_heat_loop(benchmark::State& state) {
  const auto n = state.range(0);
  std::vector<double> u(static_cast<std::size_t>(n * n)), out(u.size());
  for (std::size_t i = 0; i < u.size(); ++i)
    u[i] = static_cast<double>(i) / static_cast<double>(u.size());
  for (auto _ : state) {
    heat_step_loop(u, out, n);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
}

template <class B>
void BM_slice62(benchmark::State& state) {
  auto u = grid<B>(64);
  for (auto _ : state) {
    auto v = u(ep::slice(1, -1), ep::slice(1, -1));
    benchmark::DoNotOptimize(v.raw());
  }
}

template <class B>
void BM_index_update62(benchmark::State& state) {
  auto u = grid<B>(64);
  const auto patch = ep::ones<B>({62, 62});
  for (auto _ : state) {
    auto v = u.index_update(ep::index(ep::slice(1, -1), ep::slice(1, -1)), patch);
    benchmark::DoNotOptimize(v.raw());
  }
}

using E = ep::eigen<double>;
using X = ep::xtensor<double>;
#if defined(EAGERPP_STENCIL_OMP)
using O = ep::omp<double>;
#endif
BENCHMARK(BM_heat<E, heat_step<E>>)->Name("heat/eigen")->Arg(64)->Arg(1024);
BENCHMARK(BM_heat<X, heat_step<X>>)->Name("heat/xtensor")->Arg(64)->Arg(1024);
BENCHMARK(BM_heat_loop)->Name("heat/loop")->Arg(64)->Arg(1024);
BENCHMARK(BM_heat<E, heat_step_update<E>>)->Name("heat_update/eigen")->Arg(1024);
BENCHMARK(BM_heat<X, heat_step_update<X>>)->Name("heat_update/xtensor")->Arg(1024);
#if defined(EAGERPP_STENCIL_OMP)
BENCHMARK(BM_heat<O, heat_step<O>>)->Name("heat/omp")->Arg(1024);
BENCHMARK(BM_heat<O, heat_step_update<O>>)->Name("heat_update/omp")->Arg(1024);
#endif
BENCHMARK(BM_slice62<E>)->Name("slice62/eigen");
BENCHMARK(BM_slice62<X>)->Name("slice62/xtensor");
BENCHMARK(BM_index_update62<E>)->Name("index_update62/eigen");
BENCHMARK(BM_index_update62<X>)->Name("index_update62/xtensor");

}  // namespace

int main(int argc, char** argv) {
  // The facade and the loop must agree before their times mean anything.
  {
    const std::int64_t n = 64;
    const auto u = grid<E>(n);
    std::vector<double> out(static_cast<std::size_t>(n * n));
    heat_step_loop(u.to_vector(), out, n);
    std::vector<std::vector<double>> steps{heat_step(u).to_vector(),
                                           heat_step(grid<X>(n)).to_vector()};
    std::vector<std::vector<double>> updates{heat_step_update(u).to_vector(),
                                             heat_step_update(grid<X>(n)).to_vector()};
#if defined(EAGERPP_STENCIL_OMP)
    steps.push_back(heat_step(grid<O>(n)).to_vector());
    updates.push_back(heat_step_update(grid<O>(n)).to_vector());
#endif
    const auto uv = u.to_vector();
    for (std::size_t i = 0; i < out.size(); ++i) {
      const auto k = static_cast<std::int64_t>(i);
      const bool boundary = k < n || k >= (n - 1) * n || k % n == 0 || k % n == n - 1;
      for (const auto& a : steps)
        if (std::abs(a[i] - out[i]) > 1e-12) {
          fmt::print(stderr, "stencil_bench: the facade's heat step differs from the loop at {}\n",
                     i);
          return 1;
        }
      for (const auto& a : updates)
        if (std::abs(a[i] - (boundary ? uv[i] : out[i])) > 1e-12) {
          fmt::print(stderr,
                     "stencil_bench: the index_update heat step differs from the loop at {}\n", i);
          return 1;
        }
    }
  }
  ep::bench::ratio_reporter rep;
  ep::bench::run_repeated(argc, argv, rep);
  fmt::print("\nratios (median times of this run):\n");
  ep::bench::print_ratio(rep, "slice 62x62 of 64x64: eigen / xtensor", "slice62/eigen",
                         "slice62/xtensor", 1.5);
  ep::bench::print_ratio(rep, "index_update 62x62 of 64x64: eigen / xtensor",
                         "index_update62/eigen", "index_update62/xtensor", 1.5);
  for (const char* b : {"eigen", "xtensor"})
    fmt::print("  heat step 64^2: {:<7} / loop {:>38.3f}   (no target)\n", b,
               rep.ratio(fmt::format("heat/{}/64", b), "heat/loop/64"));
  ep::bench::print_ratio(rep, "heat step 1024^2: eigen / loop", "heat/eigen/1024", "heat/loop/1024",
                         3.0);
  ep::bench::print_ratio(rep, "heat step 1024^2: xtensor / loop", "heat/xtensor/1024",
                         "heat/loop/1024", 3.0);
  std::vector<std::string> backends{"eigen", "xtensor"};
#if defined(EAGERPP_STENCIL_OMP)
  backends.emplace_back("omp");
  fmt::print("  {:<58} {:>7.3f}   (no target)\n", "heat step 1024^2: omp / loop",
             rep.ratio("heat/omp/1024", "heat/loop/1024"));
#endif
  for (const auto& b : backends)
    ep::bench::print_ratio(rep, fmt::format("heat step 1024^2 index_update / pad: {}", b),
                           fmt::format("heat_update/{}/1024", b), fmt::format("heat/{}/1024", b),
                           2.0);
  benchmark::Shutdown();
  return 0;
}
