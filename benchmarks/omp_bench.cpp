// eagerpp - the OpenMP backend on all threads against the Eigen backend on one, side by side in one
// run
// SPDX-License-Identifier: MIT
//
// Every figure is the median of 9 repetitions after a warm-up, measured in this one run:
//   - at n = 1e7 floats, ep::omp<float> on 2 threads (or the count given as argv[1]) against
//     ep::eigen<float> (single-threaded): the chain exp(-x*x) * sin(x) + 1 and a full sum
//     (target: omp at least 1.7x faster);
//   - at n = 100, one op (sin) and the chain: omp against Eigen (target: omp within 2x, a ratio of
//     at least 0.5), which shows that small ops do not pay for an OpenMP fork; the sum for
//     reference;
//   - the crossover: sin and add at sizes around detail::omp_system::parallel_cutoff, with the
//     parallel path forced off (1 thread) and on (all threads);
//   - streaming stores: the chain and `x * x` on all threads with every output written through the
//     cache and every output streamed past it, at sizes around
//     detail::omp_system::streaming_cutoff.
// Usage: omp_bench [threads] [--quick]; --quick (scripts/bench --quick) leaves out the crossover
// and the streaming sections.
// Plain std::chrono timing, no Google Benchmark: the figures are ratios of two loops of this file.
#include <algorithm>    // std::nth_element
#include <chrono>       // std::chrono::steady_clock
#include <cstdint>      // std::int64_t
#include <cstdio>       // std::printf
#include <cstdlib>      // std::atoi
#include <limits>       // std::numeric_limits
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include <omp.h>  // omp_set_num_threads, omp_get_max_threads

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/omp.hpp>
#include <eagerpp/random.hpp>

namespace {

/// Median microseconds of one call of `f` (`inner` calls per repetition, 9 repetitions, one
/// warm-up).
template <class F>
double time_us(F&& f, int inner) {
  f();
  std::vector<double> us;
  for (int r = 0; r < 9; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < inner; ++i) f();
    const auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / inner);
  }
  std::nth_element(us.begin(), us.begin() + 4, us.end());
  return us[4];
}

template <class B>
ep::Tensor<B> chain(const ep::Tensor<B>& x) {
  return (-x * x).exp() * x.sin() + 1;
}

volatile float sink = 0;

/// One line: both timings, their ratio, and the target (a minimum ratio; 0: none).
void row(const char* what, double eigen_us, double omp_us, double target) {
  const double ratio = eigen_us / omp_us;
  std::printf("%-34s eigen %10.2f us   omp %10.2f us   eigen/omp %5.2fx", what, eigen_us, omp_us,
              ratio);
  if (target > 0) std::printf("   target >= %.1fx  %s", target, ratio >= target ? "ok" : "MISSED");
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
  const bool quick = argc > 2 && std::string_view(argv[2]) == "--quick";
  omp_set_num_threads(threads);
  using E = ep::eigen<float>;
  using O = ep::omp<float>;
  std::printf("omp_bench: ep::omp on %d threads against ep::eigen on 1 (median of 9)\n",
              omp_get_max_threads());

  ep::generator g(1);
  for (const std::int64_t n : {std::int64_t{10'000'000}, std::int64_t{100}}) {
    const auto xe = ep::uniform<E>(g, {n}, -3, 3);
    const auto xo = ep::to<O>(xe);  // the same elements, shared
    const int inner = n > 1000 ? 3 : 20000;
    const bool big = n > 1000;
    std::printf("n = %lld\n", static_cast<long long>(n));
    const double ce = time_us([&] { sink = chain(xe).raw().data()[0]; }, inner);
    const double co = time_us([&] { sink = chain(xo).raw().data()[0]; }, inner);
    row("  exp(-x*x) * sin(x) + 1", ce, co, big ? 1.7 : 0.5);
    const double se = time_us([&] { sink = xe.sum().item(); }, inner);
    const double so = time_us([&] { sink = xo.sum().item(); }, inner);
    row("  sum", se, so, big ? 1.7 : 0);
    const double ie = time_us([&] { sink = xe.sin().raw().data()[0]; }, inner);
    const double io = time_us([&] { sink = xo.sin().raw().data()[0]; }, inner);
    row("  sin", ie, io, big ? 0 : 0.5);
  }

  if (quick) return 0;

  // The crossover: the same op serial and on all threads, around the cutoff.
  const std::int64_t cutoff = ep::detail::omp_system::parallel_cutoff;
  std::printf("crossover (omp serial against %d threads; the cutoff is %lld elements)\n", threads,
              static_cast<long long>(cutoff));
  for (const std::int64_t n : {std::int64_t{1} << 12, std::int64_t{1} << 14, std::int64_t{1} << 15,
                               std::int64_t{1} << 16, std::int64_t{1} << 18}) {
    const auto x = ep::uniform<O>(g, {n}, -3, 3);
    const int inner = static_cast<int>(std::max<std::int64_t>(20, (std::int64_t{1} << 24) / n));
    // The cutoff moved out of the way: 1 thread is serial, `threads` always forks.
    const auto run = [&](int t, auto op) {
      omp_set_num_threads(t);
      ep::detail::omp_system::parallel_cutoff = 0;
      const double us = time_us([&] { sink = op().raw().data()[0]; }, inner);
      ep::detail::omp_system::parallel_cutoff = cutoff;
      omp_set_num_threads(threads);
      return us;
    };
    const auto sin_op = [&] { return x.sin(); };
    const auto add_op = [&] { return x + x; };
    std::printf(
        "  n = %7lld   sin: 1 thread %8.2f us, %d threads %8.2f us   add: 1 thread %8.2f us, %d "
        "threads %8.2f us\n",
        static_cast<long long>(n), run(1, sin_op), threads, run(threads, sin_op), run(1, add_op),
        threads, run(threads, add_op));
  }

  // Streaming stores: every output through the cache (cutoff out of reach) against every output
  // streamed (cutoff 0), on all threads.
  const std::int64_t streaming = ep::detail::omp_system::streaming_cutoff;
  std::printf("streaming stores (%d threads; outputs of %lld bytes or more are streamed)\n",
              threads, static_cast<long long>(streaming));
  for (const std::int64_t n : {std::int64_t{1} << 17, std::int64_t{1} << 20, std::int64_t{1} << 22,
                               std::int64_t{1} << 23, std::int64_t{10'000'000}}) {
    const auto x = ep::uniform<O>(g, {n}, -3, 3);
    const int inner = static_cast<int>(std::max<std::int64_t>(3, (std::int64_t{1} << 24) / n));
    const auto run = [&](std::int64_t cut, auto op) {
      ep::detail::omp_system::streaming_cutoff = cut;
      const double us = time_us([&] { sink = op().raw().data()[0]; }, inner);
      ep::detail::omp_system::streaming_cutoff = streaming;
      return us;
    };
    const auto chain_op = [&] { return chain(x); };
    const auto mul_op = [&] { return x * x; };
    const std::int64_t never = std::numeric_limits<std::int64_t>::max();
    const double cc = run(never, chain_op), cs = run(0, chain_op), mc = run(never, mul_op),
                 ms = run(0, mul_op);
    std::printf(
        "  n = %8lld   chain: cached %9.2f us, streamed %9.2f us (%.2fx)   x * x: cached %9.2f us, "
        "streamed %9.2f us (%.2fx)\n",
        static_cast<long long>(n), cc, cs, cc / cs, mc, ms, mc / ms);
  }
  return 0;
}
