// eagerpp - training an MLP: the SGD step and the forward pass on every CPU backend against
// libtorch, and matmul against the GEMM each backend calls
// SPDX-License-Identifier: MIT
//
// A 784-256-10 ReLU MLP with softmax cross-entropy on a batch of 128 (float):
//   mlp_forward/<backend>  the mean loss alone, no tape;
//   mlp_step/<backend>     value_and_grad over the four parameters, then p - lr * g for each.
// Built with libtorch (EAGERPP_BENCHMARK_TORCH) the same step runs in libtorch in the same run
// (mlp_torch.cpp). Targets: eigen at least 1.4x faster than libtorch, xtensor and omp at least as
// fast.
//   mlp_grad/<backend>/tuple, mlp_grad/<backend>/struct  value_and_grad alone, the parameters a
//                          std::tuple or a struct made a tree by EAGERPP_TREE.
//   mlp_grad_paired/<backend>  both in each iteration, in turn first, each timed: their ratio
//                          (target: the struct within 1.02x of the tuple), which two benchmarks
//                          run apart measure only to the machine's drift between them.
//   adam_step/<backend>    one ep::optim::adam step over the four parameters with a fixed gradient
//                          tree, against torch::optim::Adam's step (target: within 1.2x).
//   matmul_1024/<backend>  a (1024, 1024) float product through the facade, against the GEMM that
//                          backend calls, called directly: Eigen's product for eigen (its own GEMM,
//                          or BLAS with -DEAGERPP_EIGEN_USE_BLAS=ON), OpenBLAS's
//                          cblas_sgemm for xtensor and omp (target: at least 90% of its
//                          throughput).
//   gemm_mlp/eigen_gemm, gemm_mlp/openblas_sgemm  the first layer's product, (128, 784) x (784,
//                          256), called directly: most of each step is two products of that cost.
// Everything runs on one thread: Eigen, OpenBLAS, OpenMP and libtorch are all set to 1.
#include <algorithm>  // std::max
#include <chrono>     // std::chrono::steady_clock
#include <cmath>      // std::abs
#include <cstdint>    // std::int64_t
#include <string>     // std::string
#include <tuple>      // std::tuple, std::get
#include <vector>     // std::vector

#include <benchmark/benchmark.h>
#include <cblas.h>  // cblas_sgemm, openblas_set_num_threads (OpenBLAS)

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/optim.hpp>
#include <eagerpp/random.hpp>
#include <eagerpp/tree.hpp>
#include <eagerpp/xtensor.hpp>
#if EAGERPP_BENCHMARK_OMP
#include <omp.h>  // omp_set_num_threads

#include <eagerpp/omp.hpp>
#endif

#include "cpu_backends.hpp"
#include "ratio_reporter.hpp"
#if EAGERPP_BENCHMARK_TORCH
#include "torch_reference.hpp"
#endif

namespace mlp_params {

/// The MLP's parameters as a struct, a tree by EAGERPP_TREE.
template <class B>
struct mlp {
  ep::Tensor<B> w1, b1, w2, b2;
};
template <class B>
EAGERPP_TREE(mlp<B>, w1, b1, w2, b2)

}  // namespace mlp_params

namespace {

constexpr std::int64_t batch = 128, inputs = 784, hidden = 256, classes = 10;
constexpr double learning_rate = 0.1;

template <class B>
using params_of = std::tuple<ep::Tensor<B>, ep::Tensor<B>, ep::Tensor<B>, ep::Tensor<B>>;

/// The mean softmax cross-entropy of the MLP {W1, b1, W2, b2} on (x, labels).
template <class B, class I>
ep::Tensor<B> mlp_loss(const params_of<B>& p, const ep::Tensor<B>& x, const ep::Tensor<I>& labels) {
  const auto& [w1, b1, w2, b2] = p;
  const auto h = (x.matmul(w1) + b1).maximum(0);
  return (h.matmul(w2) + b2).crossentropy(labels).mean();
}

/// The same loss of the struct's parameters.
template <class B, class I>
ep::Tensor<B> mlp_loss_struct(const mlp_params::mlp<B>& p, const ep::Tensor<B>& x,
                              const ep::Tensor<I>& labels) {
  const auto h = (x.matmul(p.w1) + p.b1).maximum(0);
  return (h.matmul(p.w2) + p.b2).crossentropy(labels).mean();
}

template <class B>
struct mlp_problem {
  using I = typename B::template rebind<std::int64_t>;
  ep::generator gen{15};
  ep::Tensor<B> x = ep::normal<B>(gen, {batch, inputs});
  ep::Tensor<I> labels = ep::from_vector<I>(
      [&] {
        const auto u = gen.below(classes, batch);
        return std::vector<std::int64_t>(u.begin(), u.end());
      }(),
      {batch});
  params_of<B> params{ep::normal<B>(gen, {inputs, hidden}, 0, 0.05), ep::zeros<B>({hidden}),
                      ep::normal<B>(gen, {hidden, classes}, 0, 0.05), ep::zeros<B>({classes})};
};

template <class B>
void mlp_forward(benchmark::State& st) {
  const mlp_problem<B> d;
  for (auto _ : st) benchmark::DoNotOptimize(mlp_loss(d.params, d.x, d.labels));
}

template <class B>
void mlp_step(benchmark::State& st) {
  mlp_problem<B> d;
  for (auto _ : st) {
    const auto [loss, g] =
        ep::value_and_grad(mlp_loss<B, typename mlp_problem<B>::I>, d.params, d.x, d.labels);
    auto& [w1, b1, w2, b2] = d.params;
    d.params = {w1 - learning_rate * std::get<0>(g), b1 - learning_rate * std::get<1>(g),
                w2 - learning_rate * std::get<2>(g), b2 - learning_rate * std::get<3>(g)};
    benchmark::DoNotOptimize(loss);
  }
}

template <class B>
void mlp_grad_tuple(benchmark::State& st) {
  const mlp_problem<B> d;
  for (auto _ : st)
    benchmark::DoNotOptimize(
        ep::value_and_grad(mlp_loss<B, typename mlp_problem<B>::I>, d.params, d.x, d.labels));
}

template <class B>
void mlp_grad_struct(benchmark::State& st) {
  const mlp_problem<B> d;
  const auto& [w1, b1, w2, b2] = d.params;
  const mlp_params::mlp<B> p{w1, b1, w2, b2};
  for (auto _ : st)
    benchmark::DoNotOptimize(
        ep::value_and_grad(mlp_loss_struct<B, typename mlp_problem<B>::I>, p, d.x, d.labels));
}

/// The struct and the tuple versions paired: each iteration runs both, in turn first, timing each;
/// counter "struct_over_tuple" is their ratio, free of the drift between two benchmarks run apart.
template <class B>
void mlp_grad_paired(benchmark::State& st) {
  using clock = std::chrono::steady_clock;
  using I = typename mlp_problem<B>::I;
  const mlp_problem<B> d;
  const auto& [w1, b1, w2, b2] = d.params;
  const mlp_params::mlp<B> p{w1, b1, w2, b2};
  clock::duration as_struct{}, as_tuple{};
  const auto timed = [](clock::duration& total, auto&& run) {
    const auto start = clock::now();
    benchmark::DoNotOptimize(run());
    total += clock::now() - start;
  };
  bool struct_first = false;
  for (auto _ : st) {
    const auto run_struct = [&] {
      return ep::value_and_grad(mlp_loss_struct<B, I>, p, d.x, d.labels);
    };
    const auto run_tuple = [&] {
      return ep::value_and_grad(mlp_loss<B, I>, d.params, d.x, d.labels);
    };
    if (struct_first) {
      timed(as_struct, run_struct);
      timed(as_tuple, run_tuple);
    } else {
      timed(as_tuple, run_tuple);
      timed(as_struct, run_struct);
    }
    struct_first = !struct_first;
  }
  st.counters["struct_over_tuple"] =
      std::chrono::duration<double>(as_struct) / std::chrono::duration<double>(as_tuple);
}

template <class B>
void adam_step(benchmark::State& st) {
  mlp_problem<B> d;
  ep::generator gen(5);
  const auto g =
      ep::tree_map([&](const auto& p) { return ep::normal<B>(gen, p.shape(), 0, 0.01); }, d.params);
  ep::optim::adam opt(d.params, 1e-3);
  for (auto _ : st) {
    d.params = opt.step(d.params, g);
    for (const auto& p : ep::tree_leaves(d.params)) benchmark::DoNotOptimize(p.raw());
  }
}

constexpr std::int64_t mm = 1024;

template <class B>
void matmul_facade(benchmark::State& st) {
  ep::generator gen(3);
  const auto a = ep::normal<B>(gen, {mm, mm});
  const auto b = ep::normal<B>(gen, {mm, mm});
  for (auto _ : st) benchmark::DoNotOptimize(a.matmul(b));
}

std::vector<float> random_matrix(std::uint64_t seed, std::int64_t size) {
  ep::generator gen(seed);
  const auto u = gen.uniform01(size);
  return {u.begin(), u.end()};
}

/// Eigen's product on row-major maps, (n, k) x (k, m): Eigen's own GEMM, or BLAS where
/// EIGEN_USE_BLAS is defined (EAGERPP_EIGEN_USE_BLAS).
void matmul_eigen_native(benchmark::State& st, std::int64_t n, std::int64_t k, std::int64_t m) {
  using matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const auto va = random_matrix(3, n * k), vb = random_matrix(4, k * m);
  const Eigen::Map<const matrix> a(va.data(), n, k), b(vb.data(), k, m);
  matrix c(n, m);
  for (auto _ : st) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
}

/// OpenBLAS's sgemm, as the xtensor and omp backends (and libtorch) call it, (n, k) x (k, m).
void matmul_openblas(benchmark::State& st, std::int64_t n, std::int64_t k, std::int64_t m) {
  const auto a = random_matrix(3, n * k), b = random_matrix(4, k * m);
  std::vector<float> c(static_cast<std::size_t>(n * m));
  const auto bn = static_cast<blasint>(n), bk = static_cast<blasint>(k),
             bm = static_cast<blasint>(m);
  for (auto _ : st) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, bn, bm, bk, 1.0F, a.data(), bk, b.data(),
                bm, 0.0F, c.data(), bm);
    benchmark::DoNotOptimize(c.data());
  }
}

template <class B>
void register_backend(const std::string& name) {
  benchmark::RegisterBenchmark(("mlp_forward/" + name).c_str(), mlp_forward<B>);
  benchmark::RegisterBenchmark(("mlp_step/" + name).c_str(), mlp_step<B>);
  benchmark::RegisterBenchmark(("mlp_grad/" + name + "/tuple").c_str(), mlp_grad_tuple<B>);
  benchmark::RegisterBenchmark(("mlp_grad/" + name + "/struct").c_str(), mlp_grad_struct<B>);
  benchmark::RegisterBenchmark(("mlp_grad_paired/" + name).c_str(), mlp_grad_paired<B>);
  benchmark::RegisterBenchmark(("adam_step/" + name).c_str(), adam_step<B>);
  benchmark::RegisterBenchmark(("matmul_1024/" + name).c_str(), matmul_facade<B>)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  ep::bench::use_one_thread();
  const std::vector<std::string> backends = ep::bench::for_each_cpu_backend<float>(
      []<class B>(const std::string& name) { register_backend<B>(name); });
  benchmark::RegisterBenchmark("matmul_1024/eigen_gemm", matmul_eigen_native, mm, mm, mm)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("matmul_1024/openblas_sgemm", matmul_openblas, mm, mm, mm)
      ->Unit(benchmark::kMillisecond);
  // The product of the MLP's first layer (its gradient's has the same cost): what bounds each
  // step, read beside the ratios to libtorch (which calls OpenBLAS).
  benchmark::RegisterBenchmark("gemm_mlp/eigen_gemm", matmul_eigen_native, batch, inputs, hidden);
  benchmark::RegisterBenchmark("gemm_mlp/openblas_sgemm", matmul_openblas, batch, inputs, hidden);
#if EAGERPP_BENCHMARK_TORCH
  ep::bench::register_mlp_torch_benchmarks();
#endif
#if EAGERPP_BENCHMARK_TORCH
  // ep::optim's steps against torch::optim's on the same data, before their times mean anything.
  {
    ep::generator gen(9);
    const auto p0 = ep::normal<ep::eigen<float>>(gen, {1000});
    const auto g = ep::normal<ep::eigen<float>>(gen, {1000}, 0, 0.1);
    for (const bool adam : {true, false}) {
      ep::Tensor<ep::eigen<float>> p = p0;
      const auto expected =
          ep::bench::torch_optimizer_steps(p0.to_vector(), g.to_vector(), 20, adam);
      if (adam) {
        ep::optim::adam opt(p, 1e-3);
        for (int i = 0; i < 20; ++i) p = opt.step(p, g);
      } else {
        ep::optim::sgd opt(p, 0.1, {.momentum = 0.9});
        for (int i = 0; i < 20; ++i) p = opt.step(p, g);
      }
      const auto got = p.to_vector();
      float worst = 0;
      for (std::size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, std::abs(got[i] - expected[i]));
      fmt::print("20 steps of ep::optim::{} against torch::optim's: largest difference {:.2g}\n",
                 adam ? "adam" : "sgd (momentum 0.9)", worst);
      if (!(worst <= 1e-5F)) {
        fmt::print(stderr, "mlp_bench: ep::optim and torch::optim disagree\n");
        return 1;
      }
    }
  }
#endif
  benchmark::Initialize(&argc, argv);
  ep::bench::ratio_reporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);

  fmt::print(
      "\nRatios (measured side by side in this run, one thread each; the eigen backend's products: "
      "{}):\n",
#ifdef EIGEN_USE_BLAS
      "BLAS, EAGERPP_EIGEN_USE_BLAS=ON");
#else
      "Eigen's own GEMM");
#endif
  bool ok = true;
  // A facade matmul at >= 90% of the GEMM's throughput takes at most 1 / 0.9 of its time.
  ok &= ep::bench::print_ratio(rep, "matmul 1024^2 eigen / Eigen's GEMM", "matmul_1024/eigen",
                               "matmul_1024/eigen_gemm", 1 / 0.9);
  ok &= ep::bench::print_ratio(rep, "matmul 1024^2 xtensor / cblas_sgemm", "matmul_1024/xtensor",
                               "matmul_1024/openblas_sgemm", 1 / 0.9);
  ok &= ep::bench::print_ratio(rep, "matmul 1024^2 omp / cblas_sgemm", "matmul_1024/omp",
                               "matmul_1024/openblas_sgemm", 1 / 0.9);
  for (const auto& b : backends)
    ep::bench::print_info(rep, fmt::format("MLP {}: step / forward", b), "mlp_step/" + b,
                          "mlp_forward/" + b);
  for (const auto& b : backends)
    ok &= ep::bench::print_paired_ratio(
        rep, fmt::format("MLP value_and_grad {}: struct / tuple, paired", b),
        "mlp_grad_paired/" + b, "struct_over_tuple", 1.02);
  for (const auto& b : backends)
    ep::bench::print_info(rep, fmt::format("MLP value_and_grad {}: struct / tuple, apart", b),
                          "mlp_grad/" + b + "/struct", "mlp_grad/" + b + "/tuple");
  ep::bench::print_info(rep, "GEMM (128, 784) x (784, 256): Eigen's / OpenBLAS's",
                        "gemm_mlp/eigen_gemm", "gemm_mlp/openblas_sgemm");
  if (rep.time("mlp_step/torch") > 0) {
    fmt::print("\nAgainst libtorch (time / libtorch's time; 0.714 = 1.4x faster):\n");
    ok &= ep::bench::print_ratio(rep, "MLP step eigen / libtorch", "mlp_step/eigen",
                                 "mlp_step/torch", 1 / 1.4);
    ok &= ep::bench::print_ratio(rep, "MLP step xtensor / libtorch", "mlp_step/xtensor",
                                 "mlp_step/torch", 1.0);
    if (rep.time("mlp_step/omp") > 0)
      ok &= ep::bench::print_ratio(rep, "MLP step omp / libtorch", "mlp_step/omp", "mlp_step/torch",
                                   1.0);
    for (const auto& b : backends)
      ep::bench::print_info(rep, fmt::format("MLP forward {} / libtorch", b), "mlp_forward/" + b,
                            "mlp_forward/torch");
    for (const auto& b : backends)
      ok &= ep::bench::print_ratio(rep, fmt::format("Adam step {} / torch::optim::Adam", b),
                                   "adam_step/" + b, "adam_step/torch", 1.2);
  }
  fmt::print("{}\n", ok ? "all targets met" : "some targets missed");
  benchmark::Shutdown();
  return 0;
}
