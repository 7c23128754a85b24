// eagerpp - the autodiff benchmark's computations in libtorch (CPU, float, one thread)
// SPDX-License-Identifier: MIT
//
// The same functions as autodiff_bench.cpp, with libtorch's autograd: the forward pass alone under
// NoGradGuard, and the value and gradient with torch::autograd::grad on a leaf that requires grad.
// Inputs have the same shapes and distributions (not the same values: torch's generator).
#include "torch_reference.hpp"

#include <benchmark/benchmark.h>
#include <torch/torch.h>

namespace {

torch::Tensor l2(const torch::Tensor& x) { return x.square().sum().sqrt(); }

torch::Tensor logistic_loss(const torch::Tensor& w, const torch::Tensor& X,
                            const torch::Tensor& y) {
  return (1 + (-y * X.matmul(w)).exp()).log().mean();
}

torch::Tensor ten_ops(const torch::Tensor& x) {
  auto t = x;
  for (int i = 0; i < 5; ++i) t = (t * x).sin();
  return t.sum();
}

/// The value and the gradient of `f` at `x` (a fresh leaf each call, as ep::value_and_grad does).
template <class F>
std::pair<torch::Tensor, torch::Tensor> value_and_grad(F f, const torch::Tensor& x) {
  auto leaf = x.detach().requires_grad_(true);
  auto value = f(leaf);
  auto grads = torch::autograd::grad({value}, {leaf});
  return {value.detach(), grads[0]};
}

void l2_f(benchmark::State& st) {
  torch::NoGradGuard no_grad;
  const auto x = torch::randn({1'000'000});
  for (auto _ : st) benchmark::DoNotOptimize(l2(x));
}
void l2_grad(benchmark::State& st) {
  const auto x = torch::randn({1'000'000});
  for (auto _ : st) benchmark::DoNotOptimize(value_and_grad(l2, x));
}

struct logistic_data {
  torch::Tensor X = torch::randn({1024, 256});
  torch::Tensor w = torch::randn({256}) * 0.1;
  torch::Tensor y = (torch::rand({1024}) * 2 - 1).sign();
};
void logistic_f(benchmark::State& st) {
  torch::NoGradGuard no_grad;
  const logistic_data d;
  for (auto _ : st) benchmark::DoNotOptimize(logistic_loss(d.w, d.X, d.y));
}
void logistic_grad(benchmark::State& st) {
  const logistic_data d;
  for (auto _ : st)
    benchmark::DoNotOptimize(
        value_and_grad([&](const torch::Tensor& w) { return logistic_loss(w, d.X, d.y); }, d.w));
}

void ops_untaped(benchmark::State& st) {
  torch::NoGradGuard no_grad;
  const auto x = torch::full({1}, 0.5);
  for (auto _ : st) benchmark::DoNotOptimize(ten_ops(x));
}
void ops_taped(benchmark::State& st) {
  const auto x = torch::full({1}, 0.5);
  for (auto _ : st) benchmark::DoNotOptimize(value_and_grad(ten_ops, x));
}

}  // namespace

void ep::bench::register_torch_benchmarks() {
  torch::set_num_threads(1);  // eagerpp's CPU backends run on one thread
  benchmark::RegisterBenchmark("l2_1e6/torch/f", l2_f);
  benchmark::RegisterBenchmark("l2_1e6/torch/value_and_grad", l2_grad);
  benchmark::RegisterBenchmark("logistic_1024x256/torch/f", logistic_f);
  benchmark::RegisterBenchmark("logistic_1024x256/torch/value_and_grad", logistic_grad);
  benchmark::RegisterBenchmark("ten_ops_n1/torch/untaped", ops_untaped);
  benchmark::RegisterBenchmark("ten_ops_n1/torch/value_and_grad", ops_taped);
}
