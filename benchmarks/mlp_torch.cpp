// eagerpp - the MLP benchmark's step and forward pass in libtorch (CPU, float, one thread)
// SPDX-License-Identifier: MIT
//
// The same 784-256-10 ReLU MLP as mlp_bench.cpp, written as a libtorch user would: F::cross_entropy
// (mean), torch::autograd::grad over the four parameters, then p - lr * g without a tape. Same
// shapes and distributions as the eagerpp side (not the same values: torch's generator).
#include <cstdint>  // std::int64_t
#include <memory>   // std::unique_ptr, std::make_unique
#include <vector>   // std::vector

#include <torch/torch.h>

#include <benchmark/benchmark.h>

#include "torch_reference.hpp"

namespace {

constexpr std::int64_t batch = 128, inputs = 784, hidden = 256, classes = 10;
constexpr double learning_rate = 0.1;

struct mlp_problem {
  torch::Tensor x = torch::randn({batch, inputs});
  torch::Tensor labels = torch::randint(classes, {batch}, torch::kLong);
  std::vector<torch::Tensor> params{torch::randn({inputs, hidden}) * 0.05, torch::zeros({hidden}),
                                    torch::randn({hidden, classes}) * 0.05,
                                    torch::zeros({classes})};
};

torch::Tensor mlp_loss(const std::vector<torch::Tensor>& p, const torch::Tensor& x,
                       const torch::Tensor& labels) {
  const auto h = (x.matmul(p[0]) + p[1]).relu();
  return torch::nn::functional::cross_entropy(h.matmul(p[2]) + p[3], labels);
}

void mlp_forward(benchmark::State& st) {
  torch::NoGradGuard no_grad;
  const mlp_problem d;
  for (auto _ : st) benchmark::DoNotOptimize(mlp_loss(d.params, d.x, d.labels));
}

void mlp_step(benchmark::State& st) {
  mlp_problem d;
  for (auto _ : st) {
    std::vector<torch::Tensor> leaves;
    for (const auto& p : d.params) leaves.push_back(p.detach().requires_grad_(true));
    const auto loss = mlp_loss(leaves, d.x, d.labels);
    const auto g = torch::autograd::grad({loss}, leaves);
    torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < d.params.size(); ++i)
      d.params[i] = d.params[i] - learning_rate * g[i];
    benchmark::DoNotOptimize(loss);
  }
}

/// One torch::optim::Adam step over the four parameters, their gradients fixed.
void adam_step(benchmark::State& st) {
  mlp_problem d;
  std::vector<torch::Tensor> params;
  for (const auto& p : d.params) {
    params.push_back(p.clone().requires_grad_(true));
    params.back().mutable_grad() = torch::randn_like(p) * 0.01;
  }
  torch::optim::Adam opt(params, torch::optim::AdamOptions(1e-3));
  for (auto _ : st) {
    opt.step();
    benchmark::DoNotOptimize(params[0].data_ptr());
  }
}

}  // namespace

std::vector<float> ep::bench::torch_optimizer_steps(const std::vector<float>& p0,
                                                    const std::vector<float>& g, int steps,
                                                    bool adam) {
  const auto n = static_cast<std::int64_t>(p0.size());
  auto p = torch::from_blob(const_cast<float*>(p0.data()), {n}).clone().requires_grad_(true);
  const auto grad = torch::from_blob(const_cast<float*>(g.data()), {n}).clone();
  std::unique_ptr<torch::optim::Optimizer> opt;
  if (adam)
    opt = std::make_unique<torch::optim::Adam>(std::vector<torch::Tensor>{p},
                                               torch::optim::AdamOptions(1e-3));
  else
    opt = std::make_unique<torch::optim::SGD>(std::vector<torch::Tensor>{p},
                                              torch::optim::SGDOptions(0.1).momentum(0.9));
  for (int i = 0; i < steps; ++i) {
    p.mutable_grad() = grad.clone();
    opt->step();
  }
  const auto out = p.detach().contiguous();
  return {out.data_ptr<float>(), out.data_ptr<float>() + n};
}

void ep::bench::register_mlp_torch_benchmarks() {
  torch::set_num_threads(1);
  benchmark::RegisterBenchmark("mlp_forward/torch", mlp_forward);
  benchmark::RegisterBenchmark("mlp_step/torch", mlp_step);
  benchmark::RegisterBenchmark("adam_step/torch", adam_step);
}
