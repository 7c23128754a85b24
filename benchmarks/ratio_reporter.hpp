// eagerpp - a Google Benchmark reporter that also prints ratios of benchmarks measured in the same
// run
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::none_of
#include <map>          // std::map
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include <benchmark/benchmark.h>
#include <fmt/format.h>

namespace ep::bench {

/// Collects the real time per iteration of every benchmark, by name, while printing as usual. With
/// --benchmark_repetitions=N the median of the N runs is used (this machine's timings are noisy).
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      if (r.error_occurred) continue;
      if ((r.run_type == Run::RT_Iteration && r.repetitions <= 1) ||
          (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median")) {
        times_[r.run_name.str()] = r.GetAdjustedRealTime();
        for (const auto& [counter, value] : r.counters)
          counters_[r.run_name.str() + ":" + counter] = value.value;
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
  /// time(a) / time(b), or a negative number if either was not run.
  [[nodiscard]] double ratio(const std::string& a, const std::string& b) const {
    auto ia = times_.find(a), ib = times_.find(b);
    if (ia == times_.end() || ib == times_.end() || ib->second == 0) return -1;
    return ia->second / ib->second;
  }
  /// Counter `counter` of benchmark `name` (the median over repetitions), or a negative number if
  /// it was not run. A paired benchmark times two variants alternately in each iteration and
  /// reports their ratio as a counter: drift between two separately run benchmarks cancels out.
  [[nodiscard]] double counter(const std::string& name, const std::string& counter) const {
    auto it = counters_.find(name + ":" + counter);
    return it == counters_.end() ? -1 : it->second;
  }
  /// The real time per iteration of `name` in its time unit (Unit(), ns by default), or a negative
  /// number if it was not run.
  [[nodiscard]] double time(const std::string& name) const {
    auto it = times_.find(name);
    return it == times_.end() ? -1 : it->second;
  }

 private:
  std::map<std::string, double> times_;
  std::map<std::string, double> counters_;
};

/// Prints one line of a ratio table, ratio `r` (negative: not measured, nothing printed), and
/// whether it meets `target` (r <= target).
inline bool print_ratio_line(const std::string& label, double r, double target) {
  if (r < 0) return true;
  const bool ok = r <= target;
  fmt::print("  {:<58} {:>7.3f}   (target <= {:.2f}) {}\n", label, r, target, ok ? "ok" : "MISSED");
  return ok;
}

/// Prints one line of a ratio table without a target, time(a) / time(b), where both ran.
inline void print_info(const ratio_reporter& rep, const std::string& label, const std::string& a,
                       const std::string& b) {
  const double r = rep.ratio(a, b);
  if (r > 0) fmt::print("  {:<58} {:>7.3f}\n", label, r);
}

/// Prints one line of a ratio table, time(a) / time(b), and whether it meets `target`.
inline bool print_ratio(const ratio_reporter& rep, const std::string& label, const std::string& a,
                        const std::string& b, double target) {
  return print_ratio_line(label, rep.ratio(a, b), target);
}

/// Prints one line of a ratio table, time(a) / `reference` (a time measured outside Google
/// Benchmark, in a's time unit), and whether it meets `target`.
inline bool print_ratio_to(const ratio_reporter& rep, const std::string& label,
                           const std::string& a, double reference, double target) {
  const double t = rep.time(a);
  return print_ratio_line(label, t < 0 || reference <= 0 ? -1 : t / reference, target);
}

/// Prints one line of a ratio table from a paired benchmark's ratio counter
/// (ratio_reporter::counter), and whether it meets `target`.
inline bool print_paired_ratio(const ratio_reporter& rep, const std::string& label,
                               const std::string& name, const std::string& counter, double target) {
  return print_ratio_line(label, rep.counter(name, counter), target);
}

/// Runs the registered benchmarks into `rep`, 5 times each in random order with only the
/// aggregates reported, unless the command line chooses the repetitions: the ratios are then of
/// medians of benchmarks that shared the machine in turn.
inline void run_repeated(int argc, char** argv, ratio_reporter& rep) {
  std::vector<char*> args(argv, argv + argc);
  std::string repetitions = "--benchmark_repetitions=5";
  std::string interleaving = "--benchmark_enable_random_interleaving=true";
  std::string aggregates = "--benchmark_report_aggregates_only=true";
  if (std::none_of(args.begin(), args.end(), [](const char* a) {
        return std::string_view(a).starts_with("--benchmark_repetitions");
      }))
    args.insert(args.begin() + 1, {repetitions.data(), interleaving.data(), aggregates.data()});
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  benchmark::RunSpecifiedBenchmarks(&rep);
}

}  // namespace ep::bench
