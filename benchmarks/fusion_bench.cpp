// eagerpp - lazy element-wise chains evaluated in blocks (host/blocks.hpp) against Eigen's fused
// expressions
// SPDX-License-Identifier: MIT
//
// The targets, float32, one thread, each the facade (Eigen and xtensor backends)
// against Eigen's fused expression written into a buffer kept across iterations (what a user who writes
// Eigen by hand gets at best):
//   chain   (-x * x).exp() * x.sin() + 1, n = 1e6 and 1e7, computed (raw())      <= 1.2x
//   chain10 a ten-op chain, n = 1e6                                                <= 1.3x
//   l2      x.square().sum().sqrt(), n = 1e6 and 1e7                               <= 1.05x
//   exp     one op at n = 100, against the backend's own expression into a new tensor <= 1.15x
//   logreg  value_and_grad of the logistic loss (1024 x 256) against a hand-written
//           Eigen gradient                                                         <= 1.2x
// and the same chains staged by ep::fuse (include/eagerpp/fuse.hpp):
//   chain and chain10 fused, against Eigen's fused expression                     <= 1.1x
//   value_and_grad of fuse(chain)(x).sum(), against the fused forward pass, n = 1e6 <= 2.5x
//   the chain fused at n = 100, against one eager exp                              <= 1.0x
//     (printed beside it: Eigen's own fused chain at n = 100 against that exp, the floor)
// The ratios are printed at the end, measured in one run (use --benchmark_repetitions=5 on a busy
// machine: the medians are used).
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <Eigen/Dense>
#include <unsupported/Eigen/CXX11/Tensor>
#include <xtensor/xarray.hpp>
#include <xtensor/xmath.hpp>

#include <eagerpp/autodiff/grad.hpp>
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/fuse.hpp>
#include <eagerpp/random.hpp>
#include <eagerpp/xtensor.hpp>

#include "ratio_reporter.hpp"
#include "workloads.hpp"

namespace {

using ep::bench::chain;
using ep::bench::input;
using ep::bench::input_as;
using ep::bench::l2;
using ep::bench::logistic_loss;

// --- the generic code, written once -------------------------------------------------------------
template <class B>
ep::Tensor<B> chain10(const ep::Tensor<B>& x) {
  return ((x * x + 1).sqrt() * x.sin() - x.cos() * 0.5 + 2).log();
}

/// The inputs of the large benchmarks: one buffer per size, read by the facade on both backends
/// (ep::to between the host backends shares it) and by Eigen's own expressions (a TensorMap), so
/// that every side reads the same pages. With a buffer of its own per benchmark, a memory-bound
/// ratio followed the process's allocation history: Eigen's l2 at 1e7 read its 40 MB in 4.38 ms
/// run alone and in 3.80 ms after the facade's chain had run (docs/benchmarks.md).
std::map<std::int64_t, ep::Tensor<ep::eigen<float>>>& inputs() {
  static std::map<std::int64_t, ep::Tensor<ep::eigen<float>>> by_size;
  return by_size;
}
const ep::Tensor<ep::eigen<float>>& shared_input(std::int64_t n) {
  auto it = inputs().find(n);
  if (it == inputs().end())
    it = inputs().emplace(n, ep::from_vector<ep::eigen<float>>(input(n))).first;
  return it->second;
}

// The same chains as generic lambdas, for ep::fuse.
constexpr auto chain_fn = [](const auto& x) { return (-x * x).exp() * x.sin() + 1; };
constexpr auto chain10_fn = [](const auto& x) {
  return ((x * x + 1).sqrt() * x.sin() - x.cos() * 0.5 + 2).log();
};

template <class B, const auto& F>
void fused(benchmark::State& st) {
  const auto x = ep::to<B>(shared_input(st.range(0)));
  const auto f = ep::fuse(F);
  for (auto _ : st) benchmark::DoNotOptimize(f(x).raw());
}
template <class B>
void fused_grad(benchmark::State& st) {
  const auto x = ep::to<B>(shared_input(st.range(0)));
  const auto loss = [](const ep::Tensor<B>& t) { return ep::fuse(chain_fn)(t).sum(); };
  for (auto _ : st) benchmark::DoNotOptimize(ep::value_and_grad(loss, x).second.raw());
}

template <class B, ep::Tensor<B> (*F)(const ep::Tensor<B>&)>
void facade(benchmark::State& st) {
  const auto x = ep::to<B>(shared_input(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(F(x).raw());
}
template <class B>
void facade_exp(benchmark::State& st) {
  const auto x = ep::from_vector<B>(input(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(x.exp());
}
template <class B>
void facade_logreg(benchmark::State& st) {
  ep::generator gen(2);
  const auto X = ep::normal<B>(gen, {1024, 256});
  const auto w = ep::normal<B>(gen, {256}, 0, 0.1);
  const auto y = ep::uniform<B>(gen, {1024}, -1, 1).sign();
  for (auto _ : st)
    benchmark::DoNotOptimize(ep::value_and_grad(
        [](const auto& v, const auto& a, const auto& b) { return logistic_loss(v, a, b); }, w, X,
        y));
}

// --- Eigen, by hand ------------------------------------------------------------------------------
using ETensor = Eigen::Tensor<float, 1, Eigen::RowMajor>;
/// shared_input(n) as Eigen's own tensor type.
Eigen::TensorMap<const ETensor> eigen_shared_input(std::int64_t n) {
  return Eigen::TensorMap<const ETensor>(shared_input(n).raw().data(), n);
}
void eigen_chain(benchmark::State& st) {
  const auto x = eigen_shared_input(st.range(0));
  ETensor r(x.size());
  for (auto _ : st) {
    r = (-x * x).exp() * x.unaryExpr(Eigen::internal::scalar_sin_op<float>()) + x.constant(1.0f);
    benchmark::DoNotOptimize(r.data());
    benchmark::ClobberMemory();
  }
}
void eigen_chain10(benchmark::State& st) {
  const auto x = eigen_shared_input(st.range(0));
  ETensor r(x.size());
  for (auto _ : st) {
    r = ((x * x + x.constant(1.0f)).sqrt() * x.unaryExpr(Eigen::internal::scalar_sin_op<float>()) -
         x.unaryExpr(Eigen::internal::scalar_cos_op<float>()) * x.constant(0.5f) + x.constant(2.0f))
            .log();
    benchmark::DoNotOptimize(r.data());
    benchmark::ClobberMemory();
  }
}
void eigen_l2(benchmark::State& st) {
  const auto x = eigen_shared_input(st.range(0));
  Eigen::Tensor<float, 0, Eigen::RowMajor> r;
  for (auto _ : st) {
    r = x.square().sum().sqrt();
    benchmark::DoNotOptimize(r.data());
    benchmark::ClobberMemory();
  }
}
void eigen_exp(benchmark::State& st) {
  const ETensor x = input_as<ETensor>(st.range(0));
  for (auto _ : st) {
    ETensor r = x.exp();
    benchmark::DoNotOptimize(r.data());
  }
}
void xtensor_exp(benchmark::State& st) {
  const auto v = input(st.range(0));
  xt::xarray<float> x = xt::zeros<float>({v.size()});
  std::copy(v.begin(), v.end(), x.begin());
  for (auto _ : st) {
    xt::xarray<float> r = xt::exp(x);
    benchmark::DoNotOptimize(r.data());
  }
}
/// The loss mean(log(1 + exp(-y * Xw))) and its gradient -X^T (y * sigmoid(-y * Xw)) / N, by hand.
void eigen_logreg(benchmark::State& st) {
  ep::generator gen(2);
  using E = ep::eigen<float>;
  const auto Xt = ep::normal<E>(gen, {1024, 256});
  const auto wt = ep::normal<E>(gen, {256}, 0, 0.1);
  const auto yt = ep::uniform<E>(gen, {1024}, -1, 1).sign();
  using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const RowMatrix> X(Xt.raw().data(), 1024, 256);
  const Eigen::Map<const Eigen::VectorXf> w(wt.raw().data(), 256);
  const Eigen::Map<const Eigen::VectorXf> y(yt.raw().data(), 1024);
  for (auto _ : st) {
    const Eigen::VectorXf m = -(y.array() * (X * w).array()).matrix();
    const float loss = (1 + m.array().exp()).log().mean();
    const Eigen::VectorXf s = (-(y.array()) / (1 + (-m.array()).exp()) / 1024.0f).matrix();
    const Eigen::VectorXf g = X.transpose() * s;
    benchmark::DoNotOptimize(loss);
    benchmark::DoNotOptimize(g.data());
  }
}

}  // namespace

int main(int argc, char** argv) {
  using E = ep::eigen<float>;
  using X = ep::xtensor<float>;
  for (std::int64_t n : {1'000'000, 10'000'000}) {
    benchmark::RegisterBenchmark("chain/eigen/facade", facade<E, chain<E>>)->Arg(n);
    benchmark::RegisterBenchmark("chain/xtensor/facade", facade<X, chain<X>>)->Arg(n);
    benchmark::RegisterBenchmark("chain/native_fused", eigen_chain)->Arg(n);
    benchmark::RegisterBenchmark("l2/eigen/facade", facade<E, l2<E>>)->Arg(n);
    benchmark::RegisterBenchmark("l2/xtensor/facade", facade<X, l2<X>>)->Arg(n);
    benchmark::RegisterBenchmark("l2/native_fused", eigen_l2)->Arg(n);
  }
  for (std::int64_t n : {1'000'000, 10'000'000}) {
    benchmark::RegisterBenchmark("chain/eigen/fused", fused<E, chain_fn>)->Arg(n);
    benchmark::RegisterBenchmark("chain/xtensor/fused", fused<X, chain_fn>)->Arg(n);
  }
  benchmark::RegisterBenchmark("chain10/eigen/fused", fused<E, chain10_fn>)->Arg(1'000'000);
  benchmark::RegisterBenchmark("chain10/xtensor/fused", fused<X, chain10_fn>)->Arg(1'000'000);
  benchmark::RegisterBenchmark("chain_grad/eigen/fused", fused_grad<E>)->Arg(1'000'000);
  benchmark::RegisterBenchmark("chain_grad/xtensor/fused", fused_grad<X>)->Arg(1'000'000);
  benchmark::RegisterBenchmark("chain/eigen/fused", fused<E, chain_fn>)->Arg(100);
  benchmark::RegisterBenchmark("chain/xtensor/fused", fused<X, chain_fn>)->Arg(100);
  benchmark::RegisterBenchmark("chain/native_fused", eigen_chain)->Arg(100);
  benchmark::RegisterBenchmark("chain10/eigen/facade", facade<E, chain10<E>>)->Arg(1'000'000);
  benchmark::RegisterBenchmark("chain10/xtensor/facade", facade<X, chain10<X>>)->Arg(1'000'000);
  benchmark::RegisterBenchmark("chain10/native_fused", eigen_chain10)->Arg(1'000'000);
  benchmark::RegisterBenchmark("exp/eigen/facade", facade_exp<E>)->Arg(100);
  benchmark::RegisterBenchmark("exp/eigen/native", eigen_exp)->Arg(100);
  benchmark::RegisterBenchmark("exp/xtensor/facade", facade_exp<X>)->Arg(100);
  benchmark::RegisterBenchmark("exp/xtensor/native", xtensor_exp)->Arg(100);
  benchmark::RegisterBenchmark("logreg/eigen/facade", facade_logreg<E>);
  benchmark::RegisterBenchmark("logreg/xtensor/facade", facade_logreg<X>);
  benchmark::RegisterBenchmark("logreg/native", eigen_logreg);

  benchmark::Initialize(&argc, argv);
  ep::bench::ratio_reporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  inputs().clear();
  fmt::print("\nRatios (time / time, measured side by side in this run):\n");
  bool ok = true;
  for (std::string b : {"eigen", "xtensor"}) {
    for (std::int64_t n : {1'000'000, 10'000'000}) {
      ok &= ep::bench::print_ratio(rep, fmt::format("chain {} n={}: facade / Eigen fused", b, n),
                                   fmt::format("chain/{}/facade/{}", b, n),
                                   fmt::format("chain/native_fused/{}", n), 1.2);
      ok &= ep::bench::print_ratio(rep, fmt::format("l2 {} n={}: facade / Eigen fused", b, n),
                                   fmt::format("l2/{}/facade/{}", b, n),
                                   fmt::format("l2/native_fused/{}", n), 1.05);
    }
    ok &= ep::bench::print_ratio(rep, fmt::format("chain10 {} n=1e6: facade / Eigen fused", b),
                                 fmt::format("chain10/{}/facade/1000000", b),
                                 "chain10/native_fused/1000000", 1.3);
    ok &= ep::bench::print_ratio(rep, fmt::format("exp {} n=100: facade / native", b),
                                 fmt::format("exp/{}/facade/100", b),
                                 fmt::format("exp/{}/native/100", b), 1.15);
    for (std::int64_t n : {1'000'000, 10'000'000})
      ok &= ep::bench::print_ratio(rep, fmt::format("chain {} n={}: ep::fuse / Eigen fused", b, n),
                                   fmt::format("chain/{}/fused/{}", b, n),
                                   fmt::format("chain/native_fused/{}", n), 1.1);
    ok &= ep::bench::print_ratio(rep, fmt::format("chain10 {} n=1e6: ep::fuse / Eigen fused", b),
                                 fmt::format("chain10/{}/fused/1000000", b),
                                 "chain10/native_fused/1000000", 1.1);
    ok &= ep::bench::print_ratio(
        rep, fmt::format("chain {} n=1e6: value_and_grad of ep::fuse / ep::fuse", b),
        fmt::format("chain_grad/{}/fused/1000000", b), fmt::format("chain/{}/fused/1000000", b),
        2.5);
    ok &= ep::bench::print_ratio(rep, fmt::format("chain {} n=100: ep::fuse / one eager exp", b),
                                 fmt::format("chain/{}/fused/100", b),
                                 fmt::format("exp/{}/facade/100", b), 1.0);
    ok &= ep::bench::print_ratio(rep,
                                 fmt::format("logreg {} value_and_grad: facade / Eigen by hand", b),
                                 fmt::format("logreg/{}/facade", b), "logreg/native", 1.2);
  }
  // What the n = 100 target asks against what the chain's own arithmetic (an exp, a sin and three
  // cheap ops of 100 floats) costs in Eigen's fused expression, into a kept buffer.
  for (std::string b : {"eigen", "xtensor"}) {
    fmt::print("  {:<58} {:>7.3f}   (no target)\n",
               fmt::format("chain {} n=100: Eigen fused / one eager exp", b),
               rep.ratio("chain/native_fused/100", fmt::format("exp/{}/facade/100", b)));
    fmt::print("  {:<58} {:>7.3f}   (no target)\n",
               fmt::format("chain {} n=100: ep::fuse / Eigen fused", b),
               rep.ratio(fmt::format("chain/{}/fused/100", b), "chain/native_fused/100"));
  }
  fmt::print("{}\n", ok ? "all targets met" : "some targets missed");
  benchmark::Shutdown();
  return 0;
}
