// eagerpp - the per-op cost of ep::AnyTensor (run-time backend and dtype) against the static
// ep::Tensor
// SPDX-License-Identifier: MIT
//
// At n = 100 floats, where an op costs a few hundred nanoseconds and the dispatch (one std::visit,
// for two operands a check of the other's alternative, and moving the result into the variant) is
// most visible: each op is one generic lambda run on ep::Tensor<B> and on ep::AnyTensor holding the
// same tensor, side by side in one run; the ratios are printed at the end (target <= 1.3).
#include <cmath>    // std::sin
#include <map>      // std::map
#include <string>   // std::string
#include <utility>  // std::pair
#include <vector>   // std::vector

#include <benchmark/benchmark.h>

#include <eagerpp/any.hpp>

#include "ratio_reporter.hpp"

namespace {

constexpr std::int64_t n = 100;

std::vector<float> input() {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(std::sin(0.1 * static_cast<double>(i)));
  return v;
}

// The ops, each written once for both kinds of tensor.
const auto exp_op = [](const auto& x) { return x.exp(); };
const auto add_op = [](const auto& x) { return x + x; };
const auto scalar_op = [](const auto& x) { return x * 2.0F; };
const auto less_op = [](const auto& x) { return x < x; };
const auto sum_op = [](const auto& x) { return x.sum(); };
const auto sum_axis_op = [](const auto& x) { return x.reshape({10, 10}).sum(1, true); };
const auto transpose_op = [](const auto& x) { return x.reshape({10, 10}).transpose(); };
const auto matmul_op = [](const auto& x) {
  const auto m = x.reshape({10, 10});
  return m.matmul(m);
};
const auto softmax_op = [](const auto& x) { return x.reshape({10, 10}).softmax(); };
const auto l2_op = [](const auto& x) { return x.square().sum().sqrt(); };
const auto grad_op = [](const auto& x) {
  return ep::value_and_grad([](const auto& w) { return w.square().sum().sqrt(); }, x).second;
};

template <class B, bool Any, class Op>
void run(benchmark::State& st, Op op) {
  const auto s = ep::from_vector<B>(input());
  if constexpr (Any) {
    const ep::AnyTensor x = s;
    for (auto _ : st) benchmark::DoNotOptimize(op(x));
  } else {
    for (auto _ : st) benchmark::DoNotOptimize(op(s));
  }
}

template <class Op>
void register_op(const std::string& name, Op op) {
  benchmark::RegisterBenchmark((name + "/eigen/static").c_str(), run<ep::eigen<float>, false, Op>,
                               op);
  benchmark::RegisterBenchmark((name + "/eigen/any").c_str(), run<ep::eigen<float>, true, Op>, op);
  benchmark::RegisterBenchmark((name + "/xtensor/static").c_str(),
                               run<ep::xtensor<float>, false, Op>, op);
  benchmark::RegisterBenchmark((name + "/xtensor/any").c_str(), run<ep::xtensor<float>, true, Op>,
                               op);
}

/// Also keeps the CPU time of each benchmark (the median with repetitions): on a shared, loaded
/// machine the real time of a 50 ns op includes time the thread was not running at all.
class cpu_ratio_reporter : public ep::bench::ratio_reporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      if (r.error_occurred) continue;
      if ((r.run_type == Run::RT_Iteration && r.repetitions <= 1) ||
          (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median"))
        cpu_[r.run_name.str()] = r.GetAdjustedCPUTime();
    }
    ratio_reporter::ReportRuns(runs);
  }
  [[nodiscard]] double cpu_ratio(const std::string& a, const std::string& b) const {
    auto ia = cpu_.find(a), ib = cpu_.find(b);
    return ia == cpu_.end() || ib == cpu_.end() || ib->second == 0 ? -1 : ia->second / ib->second;
  }

 private:
  std::map<std::string, double> cpu_;
};

const std::vector<std::string> names = {
    "exp",     "add", "mul_scalar",       "less", "sum", "sum_axis_keepdims", "transpose", "matmul",
    "softmax", "l2",  "value_and_grad_l2"};

}  // namespace

int main(int argc, char** argv) {
  register_op("exp", exp_op);
  register_op("add", add_op);
  register_op("mul_scalar", scalar_op);
  register_op("less", less_op);
  register_op("sum", sum_op);
  register_op("sum_axis_keepdims", sum_axis_op);
  register_op("transpose", transpose_op);
  register_op("matmul", matmul_op);
  register_op("softmax", softmax_op);
  register_op("l2", l2_op);
  register_op("value_and_grad_l2", grad_op);
  benchmark::Initialize(&argc, argv);
  cpu_ratio_reporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  fmt::print("\nRatios at n = {} floats (time / time, measured side by side in this run):\n", n);
  bool ok = true;
  for (const auto& op : names) {
    for (std::string b : {"eigen", "xtensor"}) {
      const auto any = fmt::format("{}/{}/any", op, b), fixed = fmt::format("{}/{}/static", op, b);
      ok &= ep::bench::print_ratio(rep, fmt::format("{} {}: AnyTensor / Tensor", op, b), any, fixed,
                                   1.3);
      fmt::print("  {:<58} {:>7.3f}   ({:.0f} ns / {:.0f} ns real)\n", "  the same in CPU time",
                 rep.cpu_ratio(any, fixed), rep.time(any), rep.time(fixed));
    }
  }
  fmt::print("{}\n", ok ? "all targets met" : "some targets missed");
  benchmark::Shutdown();
  return 0;
}
