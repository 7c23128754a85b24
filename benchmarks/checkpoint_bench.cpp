// eagerpp - gradient checkpointing: peak memory and time of value_and_grad through a 50-layer chain
// SPDX-License-Identifier: MIT
//
// h_{k+1} = tanh(h_k W_k + b_k) for 50 layers, h_0 of shape (512, 64), W_k (64, 64), b_k (64,), in
// double, loss sum(h_50); value_and_grad with respect to the 100 parameters, with every layer plain
// and with every layer wrapped in ep::checkpoint. Peak memory is ep::memory_stats()'s peak of live
// tensor bytes above what was live before the call (the inputs and parameters), measured first; the
// times follow (Google Benchmark). Prints peak(plain) / peak(checkpointed) and
// time(checkpointed) / time(plain) for Eigen and xtensor.
#include <cstddef>  // std::size_t
#include <string>   // std::string
#include <vector>   // std::vector

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/random.hpp>
#include <eagerpp/xtensor.hpp>

#include "ratio_reporter.hpp"

namespace {

constexpr int layers = 50;
constexpr std::int64_t batch = 512, width = 64;

template <class B>
struct problem {
  ep::Tensor<B> x;
  std::vector<ep::Tensor<B>> params;  // W_0, b_0, W_1, b_1, ...
};

template <class B>
problem<B> make_problem() {
  ep::generator gen(3);
  problem<B> p{ep::normal<B>(gen, {batch, width}), {}};
  for (int k = 0; k < layers; ++k) {
    p.params.push_back(ep::normal<B>(gen, {width, width}, 0, 1.0 / 8));
    p.params.push_back(ep::normal<B>(gen, {width}, 0, 0.1));
  }
  return p;
}

template <class T>
T layer(const T& h, const T& w, const T& b) {
  return (h.matmul(w) + b).tanh();
}

template <class B, class Layer>
auto loss_and_grad(const problem<B>& p, const Layer& f) {
  using T = ep::Tensor<B>;
  return ep::value_and_grad(
      [&](const std::vector<T>& q) {
        T h = p.x;
        for (std::size_t k = 0; k < q.size(); k += 2) h = f(h, q[k], q[k + 1]);
        return h.sum();
      },
      p.params);
}

template <class B>
auto plain_layer() {
  return [](const ep::Tensor<B>& h, const ep::Tensor<B>& w, const ep::Tensor<B>& b) {
    return layer(h, w, b);
  };
}
template <class B>
auto checkpointed_layer() {
  return ep::checkpoint(plain_layer<B>());
}

/// The peak of live tensor bytes during one value_and_grad, above what was live before it.
template <class B, class Layer>
std::size_t peak_bytes(const problem<B>& p, const Layer& f) {
  const std::size_t before = ep::memory_stats().live_bytes;
  ep::reset_peak_memory();
  (void)loss_and_grad(p, f);
  return ep::memory_stats().peak_bytes - before;
}

template <class B>
bool report_memory(const std::string& name) {
  const problem<B> p = make_problem<B>();
  const std::size_t plain = peak_bytes(p, plain_layer<B>());
  const std::size_t saved = peak_bytes(p, checkpointed_layer<B>());
  const auto [v0, g0] = loss_and_grad(p, plain_layer<B>());
  const auto [v1, g1] = loss_and_grad(p, checkpointed_layer<B>());
  bool equal = v0.item() == v1.item();
  for (std::size_t k = 0; k < g0.size(); ++k) equal = equal && (g0[k] == g1[k]).all().item();
  fmt::print(
      "{:<8} peak live tensor bytes in value_and_grad: plain {:.2f} MiB, checkpointed {:.2f} MiB; "
      "plain / checkpointed = {:.2f}; gradients {}\n",
      name, static_cast<double>(plain) / (1 << 20), static_cast<double>(saved) / (1 << 20),
      static_cast<double>(plain) / static_cast<double>(saved), equal ? "bit-identical" : "DIFFER");
  return equal && saved < plain;
}

template <class B, bool Checkpointed>
void grad_time(benchmark::State& st) {
  const problem<B> p = make_problem<B>();
  for (auto _ : st) {
    if constexpr (Checkpointed) {
      benchmark::DoNotOptimize(loss_and_grad(p, checkpointed_layer<B>()));
    } else {
      benchmark::DoNotOptimize(loss_and_grad(p, plain_layer<B>()));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  using E = ep::eigen<double>;
  using X = ep::xtensor<double>;
  fmt::print(
      "50 layers tanh(h W + b), h (512, 64), W (64, 64), double; activations {:.2f} MiB per layer "
      "output\n",
      static_cast<double>(batch * width * 8) / (1 << 20));
  bool ok = report_memory<E>("eigen");
  ok &= report_memory<X>("xtensor");
  benchmark::RegisterBenchmark("chain50/eigen/plain", grad_time<E, false>)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("chain50/eigen/checkpointed", grad_time<E, true>)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("chain50/xtensor/plain", grad_time<X, false>)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("chain50/xtensor/checkpointed", grad_time<X, true>)
      ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  ep::bench::ratio_reporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  fmt::print("\nRatios (measured side by side in this run):\n");
  for (std::string b : {"eigen", "xtensor"}) {
    const double r =
        rep.ratio(fmt::format("chain50/{}/checkpointed", b), fmt::format("chain50/{}/plain", b));
    if (r > 0)
      fmt::print("  {:<50} {:.2f} (one extra forward pass per layer)\n",
                 fmt::format("{}: time checkpointed / plain", b), r);
  }
  benchmark::Shutdown();
  return ok ? 0 : 1;
}
