// eagerpp - ep::vmap against the loops it replaces and the batched code it generates, side by side
// in one run, one thread
// SPDX-License-Identifier: MIT
//
//   per_example/<backend>/vmap   per-example gradients of a logistic regression (batch 256, 784
//                                features, 10 classes): ep::vmap(ep::grad(loss)) of one example's
//                                loss (target: at least 10x faster than the loop)
//   per_example/<backend>/loop   the same, a loop of 256 ep::grad calls
//   per_example/<backend>/mean   value_and_grad of the batch's mean loss: the same arithmetic,
//                                reduced (target: vmap within 2x of it)
//   per_example/<backend>/floor  writing the 256 gradients once (ep::ones of their size, 8 MB):
//                                what any way of computing them costs at least
//   jacobian/<backend>/batched   ep::jacobian of R^256 -> R^256, x -> tanh(W x) * x + sin(x), a
//                                generic lambda: one batched backward pass under vmap (target: at
//                                least 5x faster than one pullback per row)
//   jacobian/<backend>/rows      the same function as a lambda of its own tensor type only: one
//                                pullback per row of the Jacobian
//   jacobian/<backend>/gemm      W^T times the 256 basis cotangents, one (256, 256) GEMM (and the
//                                scaling of its operand): what a reverse-mode Jacobian costs at least
//   layer/<backend>/vmap         a dense layer tanh(x W + b) summed, written for one example, run
//                                on a batch of 256 by vmap (target: within 1.10x of by hand)
//   layer/<backend>/by_hand      the same on the batch, written by hand
#include <cstdint>  // std::int64_t
#include <string>   // std::string
#include <tuple>    // std::tuple
#include <vector>   // std::vector

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/random.hpp>
#include <eagerpp/vmap.hpp>
#include <eagerpp/xtensor.hpp>

#include "cpu_backends.hpp"
#include "ratio_reporter.hpp"

namespace {

constexpr std::int64_t batch = 256, features = 784, classes = 10, jac_n = 256, hidden = 256;

/// One example's loss: softmax cross-entropy of x w + b against its label.
const auto example_loss = [](const auto& params, const auto& x, const auto& label) {
  const auto& [w, b] = params;
  return (x.matmul(w) + b).reshape({1, classes}).crossentropy(label.reshape({1})).sum();
};

template <class B>
struct problem {
  using T = ep::Tensor<B>;
  using I = ep::Tensor<typename B::template rebind<std::int64_t>>;
  ep::generator gen{3};
  T x = ep::normal<B>(gen, {batch, features});
  I labels = ep::randint<typename B::template rebind<std::int64_t>>(gen, 0, classes, {batch});
  std::tuple<T, T> params{ep::normal<B>(gen, {features, classes}, 0, 0.05),
                          ep::normal<B>(gen, {classes}, 0, 0.05)};
};

template <class B>
void per_example_vmap(benchmark::State& st) {
  const problem<B> p;
  const auto per_example = ep::vmap(ep::grad(example_loss), {ep::unmapped, 0, 0});
  for (auto _ : st) benchmark::DoNotOptimize(per_example(p.params, p.x, p.labels));
}

template <class B>
void per_example_loop(benchmark::State& st) {
  const problem<B> p;
  using T = ep::Tensor<B>;
  for (auto _ : st) {
    std::vector<T> gw, gb;
    for (std::int64_t i = 0; i < batch; ++i) {
      const auto [w, b] = ep::grad(example_loss)(p.params, p.x(i), p.labels(i));
      gw.push_back(w);
      gb.push_back(b);
    }
    benchmark::DoNotOptimize(std::tuple{ep::stack(gw), ep::stack(gb)});
  }
}

template <class B>
void per_example_mean(benchmark::State& st) {
  const problem<B> p;
  const auto mean_loss = [](const auto& params, const auto& x, const auto& labels) {
    const auto& [w, b] = params;
    return (x.matmul(w) + b).crossentropy(labels).mean();
  };
  for (auto _ : st)
    benchmark::DoNotOptimize(ep::value_and_grad(mean_loss, p.params, p.x, p.labels));
}

/// The floor of any per-example gradient: writing 256 gradients of 7,850 floats once (8 MB).
template <class B>
void per_example_floor(benchmark::State& st) {
  for (auto _ : st) benchmark::DoNotOptimize(ep::ones<B>({batch, features * classes + classes}));
}

template <class B>
struct jacobian_problem {
  ep::generator gen{5};
  ep::Tensor<B> w = ep::normal<B>(gen, {jac_n, jac_n}, 0, 1.0 / 16);
  ep::Tensor<B> x = ep::normal<B>(gen, {jac_n});
};

template <class B>
void jacobian_batched(benchmark::State& st) {
  const jacobian_problem<B> p;
  const auto f = [&](const auto& v) { return p.w.matmul(v).tanh() * v + v.sin(); };
  for (auto _ : st) benchmark::DoNotOptimize(ep::jacobian(f, p.x));
}

template <class B>
void jacobian_rows(benchmark::State& st) {
  const jacobian_problem<B> p;
  const auto f = [&](const ep::Tensor<B>& v) { return p.w.matmul(v).tanh() * v + v.sin(); };
  for (auto _ : st) benchmark::DoNotOptimize(ep::jacobian(f, p.x));
}

/// The floor of any reverse-mode Jacobian of this f: W^T times the 256 basis cotangents, one GEMM
/// of (256, 256) x (256, 256).
template <class B>
void jacobian_gemm(benchmark::State& st) {
  const jacobian_problem<B> p;
  const auto basis = ep::eye<B>(jac_n);
  for (auto _ : st) benchmark::DoNotOptimize(p.w.transpose().matmul(basis * 0.5F));
}

template <class B>
struct layer_problem {
  ep::generator gen{7};
  ep::Tensor<B> x = ep::normal<B>(gen, {batch, features});
  ep::Tensor<B> w = ep::normal<B>(gen, {features, hidden}, 0, 0.05);
  ep::Tensor<B> b = ep::normal<B>(gen, {hidden});
};

template <class B>
void layer_vmap(benchmark::State& st) {
  const layer_problem<B> p;
  const auto layer = ep::vmap([&](const auto& xi) { return (xi.matmul(p.w) + p.b).tanh().sum(); });
  for (auto _ : st) benchmark::DoNotOptimize(layer(p.x));
}

template <class B>
void layer_by_hand(benchmark::State& st) {
  const layer_problem<B> p;
  for (auto _ : st) benchmark::DoNotOptimize((p.x.matmul(p.w) + p.b).tanh().sum(1));
}

template <class B>
void register_backend(const std::string& name) {
  benchmark::RegisterBenchmark(("per_example/" + name + "/vmap").c_str(), per_example_vmap<B>);
  benchmark::RegisterBenchmark(("per_example/" + name + "/loop").c_str(), per_example_loop<B>);
  benchmark::RegisterBenchmark(("per_example/" + name + "/mean").c_str(), per_example_mean<B>);
  benchmark::RegisterBenchmark(("per_example/" + name + "/floor").c_str(), per_example_floor<B>);
  benchmark::RegisterBenchmark(("jacobian/" + name + "/batched").c_str(), jacobian_batched<B>);
  benchmark::RegisterBenchmark(("jacobian/" + name + "/rows").c_str(), jacobian_rows<B>);
  benchmark::RegisterBenchmark(("jacobian/" + name + "/gemm").c_str(), jacobian_gemm<B>);
  benchmark::RegisterBenchmark(("layer/" + name + "/vmap").c_str(), layer_vmap<B>);
  benchmark::RegisterBenchmark(("layer/" + name + "/by_hand").c_str(), layer_by_hand<B>);
}

}  // namespace

int main(int argc, char** argv) {
  ep::bench::use_one_thread();
  const std::vector<std::string> backends = ep::bench::for_each_cpu_backend<float>(
      []<class B>(const std::string& name) { register_backend<B>(name); });
  ep::bench::ratio_reporter rep;
  ep::bench::run_repeated(argc, argv, rep);
  fmt::print("\nRatios (measured side by side in this run, one thread each):\n");
  bool ok = true;
  for (const auto& b : backends) {
    const std::string pe = "per_example/" + b + "/";
    ok &= ep::bench::print_ratio(rep, fmt::format("per-example gradients {}: vmap / a loop", b),
                                 pe + "vmap", pe + "loop", 0.1);
    ok &= ep::bench::print_ratio(
        rep, fmt::format("per-example gradients {}: vmap / the batch mean's", b), pe + "vmap",
        pe + "mean", 2.0);
    ep::bench::print_info(rep,
                          fmt::format("per-example gradients {}: writing them once / a loop", b),
                          pe + "floor", pe + "loop");
    ep::bench::print_info(
        rep, fmt::format("per-example gradients {}: writing them once / the batch mean's", b),
        pe + "floor", pe + "mean");
    ep::bench::print_info(rep, fmt::format("jacobian 256 x 256 {}: its GEMM alone / by rows", b),
                          "jacobian/" + b + "/gemm", "jacobian/" + b + "/rows");
    ok &= ep::bench::print_ratio(rep, fmt::format("jacobian 256 x 256 {}: batched / by rows", b),
                                 "jacobian/" + b + "/batched", "jacobian/" + b + "/rows", 0.2);
    ok &= ep::bench::print_ratio(rep, fmt::format("dense layer {}: vmap / by hand", b),
                                 "layer/" + b + "/vmap", "layer/" + b + "/by_hand", 1.1);
  }
  fmt::print("{}\n", ok ? "all targets met" : "some targets missed");
  benchmark::Shutdown();
  return 0;
}
