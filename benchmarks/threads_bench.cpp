// eagerpp - one backend leaves another's threads alone: multinomial logistic regression on ep::eigen
// in a program that also links ep::omp (which compiles it with OpenMP)
// SPDX-License-Identifier: MIT
//
//   logreg/eigen/as_linked    value_and_grad of the softmax cross-entropy of a (1437, 64) batch and
//                             (64, 10) weights (the digits' shapes), Eigen's threads as eagerpp leaves
//                             them after linking ep::omp
//   logreg/eigen/one_thread   the same with Eigen::setNbThreads(1): Eigen's GEMM as in a program
//                             compiled without OpenMP, the reference
//   logreg/eigen/omp_default  the same with Eigen::setNbThreads(0): Eigen's own OpenMP default
//                             (omp_get_max_threads()), what linking ep::omp would give otherwise
// Target: as_linked / one_thread <= 1.1. The three share the machine in turn: run them with
// --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true.
#include <cstdint>  // std::int64_t
#include <string>   // std::string

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/omp.hpp>
#include <eagerpp/random.hpp>

#include "ratio_reporter.hpp"

namespace {

using E = ep::eigen<float>;

template <int Threads>  // -1: as eagerpp left them
void logreg(benchmark::State& st) {
  const int before = Eigen::nbThreads();
  if constexpr (Threads >= 0) Eigen::setNbThreads(Threads);
  ep::generator gen(3);
  const auto x = ep::normal<E>(gen, {1437, 64});
  const auto w = ep::normal<E>(gen, {64, 10}, 0, 0.1);
  const auto labels = ep::uniform<E>(gen, {1437}, 0, 10).floor().astype<std::int64_t>();
  const auto loss = [&](const auto& v) { return x.matmul(v).crossentropy(labels).mean(); };
  for (auto _ : st) benchmark::DoNotOptimize(ep::value_and_grad(loss, w));
  st.counters["eigen_threads"] = Eigen::nbThreads();
  Eigen::setNbThreads(before);
}

}  // namespace

int main(int argc, char** argv) {
  // The program really uses ep::omp (its OpenMP threads start), as a user's would.
  const auto t = ep::arange<ep::omp<float>>(1 << 16);
  fmt::print("ep::omp sum: {}; Eigen's threads as linked: {}\n", t.sum().item(),
             Eigen::nbThreads());
  benchmark::RegisterBenchmark("logreg/eigen/as_linked", logreg<-1>);
  benchmark::RegisterBenchmark("logreg/eigen/one_thread", logreg<1>);
  benchmark::RegisterBenchmark("logreg/eigen/omp_default", logreg<0>);
  benchmark::Initialize(&argc, argv);
  ep::bench::ratio_reporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  fmt::print("\nRatios (time / time, measured side by side in this run):\n");
  bool ok = ep::bench::print_ratio(rep, "logreg eigen: linked with ep::omp / one thread",
                                   "logreg/eigen/as_linked", "logreg/eigen/one_thread", 1.1);
  fmt::print("  {:<58} {:>7.3f}   (for comparison)\n",
             "logreg eigen: Eigen's OpenMP default / one thread",
             rep.ratio("logreg/eigen/omp_default", "logreg/eigen/one_thread"));
  fmt::print("{}\n", ok ? "all targets met" : "some targets missed");
  benchmark::Shutdown();
  return 0;
}
