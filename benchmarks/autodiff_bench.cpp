// eagerpp - the cost of value_and_grad against the function alone, and of the tape per op
// SPDX-License-Identifier: MIT
//
// value_and_grad(f) / f for the L2 norm at n = 1e6 and for the logistic-regression loss
// mean(log(1 + exp(-y * (X w)))) with X of shape (1024, 256), on Eigen and xtensor; and the time
// per op on tiny tensors (n = 1) with and without a tape recording it. Built with libtorch
// (EAGERPP_BENCHMARK_TORCH), it runs the same computations with libtorch's autograd in the same run
// and prints eagerpp / libtorch (target: at most 1, eagerpp at least as fast).
#include <cmath>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/random.hpp>
#include <eagerpp/xtensor.hpp>

#include "ratio_reporter.hpp"
#include "workloads.hpp"
#if EAGERPP_BENCHMARK_TORCH
#include "torch_reference.hpp"
#endif

namespace {

using ep::bench::l2;
using ep::bench::logistic_loss;

template <class B>
void l2_f(benchmark::State& st) {
  ep::generator gen(1);
  const auto x = ep::normal<B>(gen, {1'000'000});
  for (auto _ : st) benchmark::DoNotOptimize(l2(x));
}
template <class B>
void l2_grad(benchmark::State& st) {
  ep::generator gen(1);
  const auto x = ep::normal<B>(gen, {1'000'000});
  // The gradient's values computed (x / |x| is a lazy expression on the host backends).
  for (auto _ : st)
    benchmark::DoNotOptimize(
        ep::value_and_grad([](const auto& t) { return l2(t); }, x).second.raw());
}

/// The logistic regression's data X (1024, 256), labels y in {-1, 1} and weights w, from seed 2.
template <class B>
struct logistic_data {
  ep::generator gen{2};
  ep::Tensor<B> X = ep::normal<B>(gen, {1024, 256});
  ep::Tensor<B> w = ep::normal<B>(gen, {256}, 0, 0.1);
  ep::Tensor<B> y = ep::uniform<B>(gen, {1024}, -1, 1).sign();
};

/// The logistic loss of the data, with its gradient (value_and_grad) when `Grad`.
template <class B, bool Grad>
void logistic(benchmark::State& st) {
  const logistic_data<B> d;
  const auto loss = [](const auto& v, const auto& a, const auto& b) {
    return logistic_loss(v, a, b);
  };
  for (auto _ : st) {
    if constexpr (Grad)
      benchmark::DoNotOptimize(ep::value_and_grad(loss, d.w, d.X, d.y));
    else
      benchmark::DoNotOptimize(loss(d.w, d.X, d.y));
  }
}

// Ten ops on a one-element tensor, outside any tape and recorded on one.
template <class B>
ep::Tensor<B> ten_ops(const ep::Tensor<B>& x) {
  auto t = x;
  for (int i = 0; i < 5; ++i) t = (t * x).sin();
  return t.sum();
}
template <class B>
void ops_untaped(benchmark::State& st) {
  const auto x = ep::full<B>({1}, 0.5);
  for (auto _ : st) benchmark::DoNotOptimize(ten_ops(x));
}
template <class B>
void ops_taped(benchmark::State& st) {
  const auto x = ep::full<B>({1}, 0.5);
  for (auto _ : st)
    benchmark::DoNotOptimize(ep::value_and_grad([](const auto& t) { return ten_ops(t); }, x));
}

}  // namespace

int main(int argc, char** argv) {
  using E = ep::eigen<float>;
  using X = ep::xtensor<float>;
  benchmark::RegisterBenchmark("l2_1e6/eigen/f", l2_f<E>);
  benchmark::RegisterBenchmark("l2_1e6/eigen/value_and_grad", l2_grad<E>);
  benchmark::RegisterBenchmark("l2_1e6/xtensor/f", l2_f<X>);
  benchmark::RegisterBenchmark("l2_1e6/xtensor/value_and_grad", l2_grad<X>);
  benchmark::RegisterBenchmark("logistic_1024x256/eigen/f", logistic<E, false>);
  benchmark::RegisterBenchmark("logistic_1024x256/eigen/value_and_grad", logistic<E, true>);
  benchmark::RegisterBenchmark("logistic_1024x256/xtensor/f", logistic<X, false>);
  benchmark::RegisterBenchmark("logistic_1024x256/xtensor/value_and_grad", logistic<X, true>);
  benchmark::RegisterBenchmark("ten_ops_n1/eigen/untaped", ops_untaped<E>);
  benchmark::RegisterBenchmark("ten_ops_n1/eigen/value_and_grad", ops_taped<E>);
  benchmark::RegisterBenchmark("ten_ops_n1/xtensor/untaped", ops_untaped<X>);
  benchmark::RegisterBenchmark("ten_ops_n1/xtensor/value_and_grad", ops_taped<X>);
#if EAGERPP_BENCHMARK_TORCH
  ep::bench::register_torch_benchmarks();
#endif
  benchmark::Initialize(&argc, argv);
  ep::bench::ratio_reporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  fmt::print("\nRatios (measured side by side in this run):\n");
  bool ok = true;
  for (std::string b : {"eigen", "xtensor"}) {
    ok &= ep::bench::print_ratio(rep, fmt::format("l2 n=1e6 {}: value_and_grad / f", b),
                                 fmt::format("l2_1e6/{}/value_and_grad", b),
                                 fmt::format("l2_1e6/{}/f", b), 3.0);
    ok &= ep::bench::print_ratio(rep, fmt::format("logistic (1024, 256) {}: value_and_grad / f", b),
                                 fmt::format("logistic_1024x256/{}/value_and_grad", b),
                                 fmt::format("logistic_1024x256/{}/f", b), 3.0);
    const double taped = rep.time(fmt::format("ten_ops_n1/{}/value_and_grad", b));
    const double plain = rep.time(fmt::format("ten_ops_n1/{}/untaped", b));
    if (taped > 0 && plain > 0)
      fmt::print(
          "  {:<58} {:>7.1f} ns per op untaped, {:.1f} ns per op with the tape (forward + "
          "backward)\n",
          fmt::format("tiny tensors (n = 1) {}:", b), plain / 11, taped / 11);
  }
  if (rep.time("l2_1e6/torch/f") > 0) {
    fmt::print(
        "\nAgainst libtorch's autograd (CPU, one thread), value_and_grad time / libtorch's:\n");
    for (std::string b : {"eigen", "xtensor"})
      for (std::string c : {"l2_1e6", "logistic_1024x256", "ten_ops_n1"})
        ok &= ep::bench::print_ratio(rep, fmt::format("{} {}: eagerpp / libtorch", c, b),
                                     fmt::format("{}/{}/value_and_grad", c, b),
                                     fmt::format("{}/torch/value_and_grad", c), 1.0);
  }
  fmt::print("{}\n", ok ? "all targets met" : "some targets missed");
  benchmark::Shutdown();
  return 0;
}
