// eagerpp - the CUDA backend against the device's own limits: copy bandwidth, cuBLAS, host overhead
// SPDX-License-Identifier: MIT
//
// Compiled by nvcc (LANGUAGE CUDA) and linked only against the CUDA and C++ runtimes, so that the
// binary built on a machine without a GPU runs on one that has no Debian packages. It therefore
// times with CUDA events itself instead of Google Benchmark. Every figure is the median of 7
// repetitions after a warm-up, all measured in this one run:
//   - bandwidth at 1e8 floats: element-wise ops and reductions as a fraction of a device-to-device
//     copy of the same data (target >= 0.80);
//   - matmul 4096 x 4096 (float): the facade over a direct cublasSgemm call (target <= 1.05);
//   - host overhead per op at n = 100: microseconds of wall time per op, ops queued without
//   waiting;
//   - the L2 norm and the element-wise chain at 1e7 and 1e8.
// Each result is also printed as `RESULT <name> <value> <unit>` for benchmarks/cuda_vs_torch.py,
// which runs this binary beside the same computations in PyTorch and prints the ratios.
// Without a device it says so and exits 0.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <fmt/format.h>

#include <eagerpp/cuda.hpp>
#include <eagerpp/eagerpp.hpp>

namespace {

using B = ep::cuda<float>;
using Tn = ep::Tensor<B>;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw ep::device_error(fmt::format("cuda_bench: {}: {}", what, cudaGetErrorString(e)));
}

/// Median milliseconds of one call of `f`, timed with CUDA events on eagerpp's stream: `inner`
/// calls per repetition, 7 repetitions, after one warm-up call.
template <class F>
double time_ms(F&& f, int inner = 5) {
  cudaStream_t s = ep::cuda_stream();
  cudaEvent_t start{}, stop{};
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  f();
  check(cudaStreamSynchronize(s), "warm-up");
  std::vector<double> ms;
  for (int r = 0; r < 7; ++r) {
    check(cudaEventRecord(start, s), "cudaEventRecord");
    for (int i = 0; i < inner; ++i) f();
    check(cudaEventRecord(stop, s), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float t = 0;
    check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
    ms.push_back(static_cast<double>(t) / inner);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(ms.begin(), ms.begin() + 3, ms.end());
  return ms[3];
}

/// Median host microseconds per op of `f` (one op), queued 1000 times without waiting for the
/// device; the device catches up once per repetition (outside the timed part).
template <class F>
double host_us_per_op(F&& f) {
  constexpr int ops = 1000;
  std::vector<double> us;
  for (int r = 0; r < 7; ++r) {
    check(cudaStreamSynchronize(ep::cuda_stream()), "synchronize");
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < ops; ++i) f();
    const auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / ops);
  }
  check(cudaStreamSynchronize(ep::cuda_stream()), "synchronize");
  std::nth_element(us.begin(), us.begin() + 3, us.end());
  return us[3];
}

/// sin(1e-7 i): the same values as cuda_vs_torch.py uses, in [-1, 1].
Tn input(std::int64_t n) { return (ep::arange<B>(0, static_cast<double>(n)) * 1e-7F).sin(); }

void result(const std::string& name, double value, const char* unit) {
  fmt::print("RESULT {} {:.6g} {}\n", name, value, unit);
}

bool report_ratio(const std::string& label, double r, double target, bool at_most) {
  const bool ok = at_most ? r <= target : r >= target;
  fmt::print("  {:<52} {:>8.3f}   (target {} {:.2f}) {}\n", label, r, at_most ? "<=" : ">=", target,
             ok ? "ok" : "MISSED");
  return ok;
}

Tn l2(const Tn& x) { return x.square().sum().sqrt(); }
Tn chain(const Tn& x) { return (-x * x).exp() * x.sin() + 1; }

}  // namespace

int main() try {
  if (!ep::cuda_available()) {
    fmt::print("cuda_bench: no CUDA device: nothing measured\n");
    return 0;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  fmt::print("cuda_bench on {} ({} SMs)\n\n", prop.name, prop.multiProcessorCount);
  bool all_ok = true;

  // --- bandwidth at 1e8 floats -------------------------------------------------------------------
  constexpr std::int64_t n = 100'000'000;
  const double gb = static_cast<double>(n) * sizeof(float) / 1e9;  // one pass over the data, GB
  const Tn x = input(n);
  const Tn y = x * 0.5F + 0.25F;
  Tn out = x;
  auto copy = ep::zeros<B>({n});
  const double copy_ms = time_ms([&] {
    check(cudaMemcpyAsync(copy.raw().mutable_data(), x.raw().data(),
                          static_cast<std::size_t>(n) * sizeof(float), cudaMemcpyDeviceToDevice,
                          ep::cuda_stream()),
          "cudaMemcpyAsync");
  });
  const double copy_bw = 2 * gb / (copy_ms * 1e-3);
  fmt::print("device-to-device copy: {:.3f} ms, {:.1f} GB/s (read + write)\n", copy_ms, copy_bw);
  result("copy_1e8", copy_ms, "ms");

  struct pass {
    const char* name;
    double passes;  // data volumes read + written
    std::function<void()> run;
  };
  const std::vector<pass> ops = {
      {"x + y", 3, [&] { out = x + y; }},
      {"x * 2", 2, [&] { out = x * 2.0F; }},
      {"exp(x)", 2, [&] { out = x.exp(); }},
      {"where(x > 0, x, y)", 3.25, [&] { out = ep::where(x > 0.0F, x, y); }},
      {"sum(x)", 1, [&] { out = x.sum(); }},
      {"max(x)", 1, [&] { out = x.max(); }},
      {"sum(x.reshape(1e4, 1e4), axis=1)", 1,
       [&] {
         out = x.reshape({10000, 10000}).sum(1);
       }},
      {"sum(x.reshape(1e4, 1e4), axis=0)", 1,
       [&] {
         out = x.reshape({10000, 10000}).sum(0);
       }},
  };
  fmt::print("\nbandwidth at 1e8 floats, as a fraction of the copy's:\n");
  for (const auto& op : ops) {
    const double ms = time_ms(op.run);
    const double bw = op.passes * gb / (ms * 1e-3);
    fmt::print("  {:<36} {:>8.3f} ms {:>8.1f} GB/s\n", op.name, ms, bw);
    result(fmt::format("bw_{}", op.name), ms, "ms");
    all_ok &= report_ratio(fmt::format("{} / copy bandwidth", op.name), bw / copy_bw, 0.80, false);
  }

  // --- matmul 4096 x 4096 ------------------------------------------------------------------------
  {
    constexpr int m = 4096;
    const Tn a = input(std::int64_t{m} * m).reshape({m, m});
    const Tn b = (a * 0.5F).T();
    Tn c = a;
    const double facade_ms = time_ms([&] { c = a.matmul(b); }, 3);
    cublasHandle_t h{};
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
      throw ep::device_error("cuda_bench: cublasCreate failed");
    cublasSetStream(h, ep::cuda_stream());
    auto direct = ep::zeros<B>({m, m});
    const float one = 1, zero = 0;
    const double cublas_ms = time_ms(
        [&] {
          // Row-major C = A B as column-major C^T = B^T A^T, as the backend does.
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, b.raw().data(), m, a.raw().data(),
                      m, &zero, direct.raw().mutable_data(), m);
        },
        3);
    cublasDestroy(h);
    fmt::print("\nmatmul 4096 x 4096: facade {:.3f} ms ({:.1f} TFLOP/s), cublasSgemm {:.3f} ms\n",
               facade_ms, 2.0 * m * m * m / (facade_ms * 1e-3) / 1e12, cublas_ms);
    result("matmul_4096", facade_ms, "ms");
    result("matmul_4096_cublas", cublas_ms, "ms");
    all_ok &= report_ratio("matmul facade / cublasSgemm", facade_ms / cublas_ms, 1.05, true);
  }

  // --- host overhead per op at n = 100
  // -------------------------------------------------------------
  {
    const Tn s = input(100);
    Tn r = s;
    fmt::print("\nhost overhead per op at n = 100 (ops queued, not awaited):\n");
    const std::vector<std::pair<const char*, std::function<void()>>> small = {
        {"x + 1", [&] { r = s + 1.0F; }},
        {"x * y", [&] { r = s * s; }},
        {"exp(x)", [&] { r = s.exp(); }},
        {"sum(x)", [&] { r = s.sum(); }},
    };
    for (const auto& [name, f] : small) {
      const double us = host_us_per_op(f);
      fmt::print("  {:<36} {:>8.2f} us\n", name, us);
      result(fmt::format("host_{}", name), us, "us");
    }
  }

  // --- L2 norm and element-wise chain ------------------------------------------------------------
  fmt::print("\nL2 norm and exp(-x*x) * sin(x) + 1:\n");
  for (const std::int64_t size : {std::int64_t{10'000'000}, n}) {
    const Tn v = size == n ? x : input(size);
    Tn r = v;
    const double l2_ms = time_ms([&] { r = l2(v); });
    const double chain_ms = time_ms([&] { r = chain(v); });
    fmt::print("  n = {:.0e}: l2 {:.3f} ms, chain {:.3f} ms\n", static_cast<double>(size), l2_ms,
               chain_ms);
    result(fmt::format("l2_{:.0e}", static_cast<double>(size)), l2_ms, "ms");
    result(fmt::format("chain_{:.0e}", static_cast<double>(size)), chain_ms, "ms");
  }
  fmt::print("\n{}\n", all_ok ? "every target met" : "some targets MISSED");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "cuda_bench: %s\n", e.what());
  return 1;
}
