// eagerpp - thread stress: value_and_grad of random programs on 8 threads at once gives, call for
// call, what the same call gives on one thread (tapes are thread-local; the caching allocator's
// stashes and shared lists, the node counter and the fusion of maps are shared)
// SPDX-License-Identifier: MIT
//
// Usage: eagerpp_thread_stress [--threads T] [--calls N] [--programs P] [--seed S]
//   Generates P random gradient programs (the differential fuzzer's generator), computes each one's
//   loss and gradient on one thread, then runs T threads that each make N value_and_grad calls,
//   cycling through the programs from a different start, on every backend linked in, and checks
//   every result bit for bit against the single-thread one, and that ep::memory_stats()'s live
//   bytes are back where they were once the threads have ended (each thread counts its own
//   buffers). Exits with 1 on any difference.
#include <atomic>   // std::atomic
#include <cstdio>   // std::printf
#include <cstdlib>  // std::strtoull
#include <cstring>  // std::memcmp
#include <string>   // std::string
#include <thread>   // std::thread
#include <vector>   // std::vector

#include <eagerpp/memory.hpp>

#include "fuzz/generate.hpp"

using namespace ep::fuzz;

namespace {

bool same(const outcome& a, const outcome& b) {
  return a.failed_at == b.failed_at && a.error_type == b.error_type &&
         std::memcmp(&a.loss, &b.loss, sizeof(double)) == 0 && a.grad.size() == b.grad.size() &&
         (a.grad.empty() ||
          std::memcmp(a.grad.data(), b.grad.data(), a.grad.size() * sizeof(double)) == 0);
}

}  // namespace

int main(int argc, char** argv) {
  unsigned long long threads = 8, calls = 10000, count = 64, seed = 7;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    const auto v = std::strtoull(argv[i + 1], nullptr, 10);
    if (a == "--threads")
      threads = v;
    else if (a == "--calls")
      calls = v;
    else if (a == "--programs")
      count = v;
    else if (a == "--seed")
      seed = v;
  }
  const auto& backends = interpreters();
  if (backends.empty() || count == 0) return 2;
  generator gen(backends[0], seed);
  std::vector<program> programs;
  for (unsigned long long i = 0; i < count; ++i) programs.push_back(gen.next(true));
  int failed = 0;
  for (const auto& b : backends) {
    std::vector<outcome> expected;
    for (const auto& p : programs) expected.push_back(b.run(p));
    std::atomic<unsigned long long> differing{0}, total{0};
    const std::size_t live_before = ep::memory_stats().live_bytes;
    std::vector<std::thread> pool;
    for (unsigned long long t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        for (unsigned long long c = 0; c < calls; ++c) {
          const std::size_t k = (t * 7 + c) % programs.size();
          if (!same(b.run(programs[k]), expected[k])) {
            if (differing.fetch_add(1) == 0)
              std::printf(
                  "eagerpp_thread_stress: %s: thread %llu call %llu (program %zu) differs from one "
                  "thread:\n%s",
                  b.label().c_str(), t, c, k, to_cpp(programs[k], "ep::" + b.name).c_str());
          }
          total.fetch_add(1, std::memory_order_relaxed);
        }
      });
    for (auto& th : pool) th.join();
    std::printf(
        "eagerpp_thread_stress: %s: %llu threads x %llu value_and_grad calls of %zu random "
        "programs: %llu of %llu "
        "differ from one thread\n",
        b.label().c_str(), threads, calls, programs.size(), differing.load(), total.load());
    failed |= differing.load() != 0;
    // Every thread counted its buffers in counters of its own, folded into the totals when it
    // ended: with every result released, the live bytes are what they were before.
    const std::size_t live_after = ep::memory_stats().live_bytes;
    if (live_after != live_before) {
      std::printf(
          "eagerpp_thread_stress: %s: memory_stats().live_bytes is %zu after the threads ended, "
          "%zu before them\n",
          b.label().c_str(), live_after, live_before);
      failed = 1;
    }
  }
  return failed;
}
