// eagerpp - the facade against the same computation written directly with Eigen and xtensor
// SPDX-License-Identifier: MIT
//
// For n = 1e2, 1e4, 1e6, 1e7 floats: the L2 norm and the element-wise chain exp(-x*x) * sin(x) + 1,
// each three ways: through ep::Tensor, natively one op at a time (materialized, as the facade
// does), and as the backend's fused expression. The ratios are printed at the end, measured in one
// run.
#include <cmath>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <unsupported/Eigen/CXX11/Tensor>
#include <xtensor/xarray.hpp>
#include <xtensor/xmath.hpp>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>

#include "ratio_reporter.hpp"
#include "workloads.hpp"

namespace {

using ep::bench::chain;
using ep::bench::input;
using ep::bench::input_as;
using ep::bench::l2;

// --- the facade (the generic code: workloads.hpp) ----------------------------------------------
template <class B>
void facade_l2(benchmark::State& st) {
  const auto x = ep::from_vector<B>(input(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(l2(x));
}
template <class B>
void facade_chain(benchmark::State& st) {
  const auto x = ep::from_vector<B>(input(st.range(0)));
  // raw(): the values computed (the host backends' element-wise ops are lazy from 16384 elements).
  for (auto _ : st) benchmark::DoNotOptimize(chain(x).raw());
}

// --- Eigen, directly
// ------------------------------------------------------------------------------
using ETensor = Eigen::Tensor<float, 1, Eigen::RowMajor>;
void eigen_eager_l2(benchmark::State& st) {
  const ETensor x = input_as<ETensor>(st.range(0));
  for (auto _ : st) {
    ETensor sq = x.square();
    Eigen::Tensor<float, 0, Eigen::RowMajor> s = sq.sum();
    Eigen::Tensor<float, 0, Eigen::RowMajor> r = s.sqrt();
    benchmark::DoNotOptimize(r.data());
  }
}
void eigen_fused_l2(benchmark::State& st) {
  const ETensor x = input_as<ETensor>(st.range(0));
  for (auto _ : st) {
    Eigen::Tensor<float, 0, Eigen::RowMajor> r = x.square().sum().sqrt();
    benchmark::DoNotOptimize(r.data());
  }
}
void eigen_eager_chain(benchmark::State& st) {
  const ETensor x = input_as<ETensor>(st.range(0));
  for (auto _ : st) {
    ETensor t1 = -x;
    ETensor t2 = t1 * x;
    ETensor t3 = t2.exp();
    ETensor t4 = x.unaryExpr(Eigen::internal::scalar_sin_op<float>());
    ETensor t5 = t3 * t4;
    ETensor r = t5 + t5.constant(1.0f);
    benchmark::DoNotOptimize(r.data());
  }
}
void eigen_fused_chain(benchmark::State& st) {
  const ETensor x = input_as<ETensor>(st.range(0));
  for (auto _ : st) {
    ETensor r =
        (-x * x).exp() * x.unaryExpr(Eigen::internal::scalar_sin_op<float>()) + x.constant(1.0f);
    benchmark::DoNotOptimize(r.data());
  }
}

// --- xtensor, directly
// ----------------------------------------------------------------------------
xt::xarray<float> xt_input(std::int64_t n) {
  const auto v = input(n);
  xt::xarray<float> x = xt::zeros<float>({static_cast<std::size_t>(n)});
  std::copy(v.begin(), v.end(), x.begin());
  return x;
}
void xtensor_eager_l2(benchmark::State& st) {
  const auto x = xt_input(st.range(0));
  for (auto _ : st) {
    xt::xarray<float> sq = xt::square(x);
    xt::xarray<float> s = xt::sum(sq);
    xt::xarray<float> r = xt::sqrt(s);
    benchmark::DoNotOptimize(r.data());
  }
}
void xtensor_fused_l2(benchmark::State& st) {
  const auto x = xt_input(st.range(0));
  for (auto _ : st) {
    xt::xarray<float> r = xt::sqrt(xt::sum(xt::square(x)));
    benchmark::DoNotOptimize(r.data());
  }
}
void xtensor_eager_chain(benchmark::State& st) {
  const auto x = xt_input(st.range(0));
  for (auto _ : st) {
    xt::xarray<float> t1 = -x;
    xt::xarray<float> t2 = t1 * x;
    xt::xarray<float> t3 = xt::exp(t2);
    xt::xarray<float> t4 = xt::sin(x);
    xt::xarray<float> t5 = t3 * t4;
    xt::xarray<float> r = t5 + 1.0f;
    benchmark::DoNotOptimize(r.data());
  }
}
void xtensor_fused_chain(benchmark::State& st) {
  const auto x = xt_input(st.range(0));
  for (auto _ : st) {
    xt::xarray<float> r = xt::exp(-x * x) * xt::sin(x) + 1.0f;
    benchmark::DoNotOptimize(r.data());
  }
}

const std::vector<std::int64_t> sizes = {100, 10'000, 1'000'000, 10'000'000};

void register_all() {
  for (auto n : sizes) {
    benchmark::RegisterBenchmark("l2/eigen/facade", facade_l2<ep::eigen<float>>)->Arg(n);
    benchmark::RegisterBenchmark("l2/eigen/native_eager", eigen_eager_l2)->Arg(n);
    benchmark::RegisterBenchmark("l2/eigen/native_fused", eigen_fused_l2)->Arg(n);
    benchmark::RegisterBenchmark("l2/xtensor/facade", facade_l2<ep::xtensor<float>>)->Arg(n);
    benchmark::RegisterBenchmark("l2/xtensor/native_eager", xtensor_eager_l2)->Arg(n);
    benchmark::RegisterBenchmark("l2/xtensor/native_fused", xtensor_fused_l2)->Arg(n);
    benchmark::RegisterBenchmark("chain/eigen/facade", facade_chain<ep::eigen<float>>)->Arg(n);
    benchmark::RegisterBenchmark("chain/eigen/native_eager", eigen_eager_chain)->Arg(n);
    benchmark::RegisterBenchmark("chain/eigen/native_fused", eigen_fused_chain)->Arg(n);
    benchmark::RegisterBenchmark("chain/xtensor/facade", facade_chain<ep::xtensor<float>>)->Arg(n);
    benchmark::RegisterBenchmark("chain/xtensor/native_eager", xtensor_eager_chain)->Arg(n);
    benchmark::RegisterBenchmark("chain/xtensor/native_fused", xtensor_fused_chain)->Arg(n);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  ep::bench::ratio_reporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  fmt::print("\nRatios (time / time, measured side by side in this run):\n");
  bool ok = true;
  for (auto n : sizes) {
    const double eager_target = n >= 10'000 ? 1.05 : 1.5;
    for (std::string op : {"l2", "chain"}) {
      for (std::string b : {"eigen", "xtensor"}) {
        const auto name = [&](const std::string& kind) {
          return fmt::format("{}/{}/{}/{}", op, b, kind, n);
        };
        ok &= ep::bench::print_ratio(
            rep, fmt::format("{} {} n={}: facade / native one-op-at-a-time", op, b, n),
            name("facade"), name("native_eager"), eager_target);
        if (n >= 1'000'000)
          ok &= ep::bench::print_ratio(
              rep, fmt::format("{} {} n={}: facade / Eigen fused", op, b, n), name("facade"),
              fmt::format("{}/eigen/native_fused/{}", op, n), op == "l2" ? 1.5 : 2.5);
      }
    }
  }
  fmt::print("{}\n", ok ? "all targets met" : "some targets missed");
  benchmark::Shutdown();
  return 0;
}
