// eagerpp - FFTs through FFTW3 (Debian's libfftw3-dev), the CPU backends' `fft` and `rfft` where
// the program is built with EAGERPP_FFTW (the CMake option EAGERPP_FFTW). FFTW is GPL: a program
// that links it is bound by the GPL (docs/backends.md, "FFT libraries").
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>  // std::max
#include <complex>    // std::complex
#include <cstdint>    // std::int64_t
#include <limits>     // std::numeric_limits
#include <map>        // std::map
#include <mutex>      // std::mutex, std::lock_guard
#include <tuple>      // std::tuple

#include <fmt/format.h>

#include <fftw3.h>
#if defined(_OPENMP)
#include <omp.h>  // omp_get_num_threads, omp_get_thread_num
#endif

#include "eagerpp/error.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/host/host_kernels.hpp"
#include "eagerpp/shape.hpp"

namespace ep::detail {

/// FFTW's API for float (fftwf_) and double (fftw_): plans of many lines (FFTW's advanced
/// interface) and their execution on other arrays (FFTW's new-array execute functions).
template <class F>
struct fftw_api;

template <>
struct fftw_api<double> {
  using plan = fftw_plan;
  static plan dft(int n, int howmany, int stride, int dist, std::complex<double>* in,
                  std::complex<double>* out, bool inverse, unsigned flags) {
    return fftw_plan_many_dft(1, &n, howmany, reinterpret_cast<fftw_complex*>(in), nullptr, stride,
                              dist, reinterpret_cast<fftw_complex*>(out), nullptr, stride, dist,
                              inverse ? FFTW_BACKWARD : FFTW_FORWARD, flags);
  }
  static plan r2c(int n, int howmany, int stride, int dist, int out_dist, double* in,
                  std::complex<double>* out, unsigned flags) {
    return fftw_plan_many_dft_r2c(1, &n, howmany, in, nullptr, stride, dist,
                                  reinterpret_cast<fftw_complex*>(out), nullptr, stride, out_dist,
                                  flags);
  }
  static void execute(plan p, std::complex<double>* in, std::complex<double>* out) {
    fftw_execute_dft(p, reinterpret_cast<fftw_complex*>(in), reinterpret_cast<fftw_complex*>(out));
  }
  static void execute(plan p, double* in, std::complex<double>* out) {
    fftw_execute_dft_r2c(p, in, reinterpret_cast<fftw_complex*>(out));
  }
  static int alignment(const void* p) {
    return fftw_alignment_of(static_cast<double*>(const_cast<void*>(p)));
  }
  static void destroy(plan p) { fftw_destroy_plan(p); }
};

template <>
struct fftw_api<float> {
  using plan = fftwf_plan;
  static plan dft(int n, int howmany, int stride, int dist, std::complex<float>* in,
                  std::complex<float>* out, bool inverse, unsigned flags) {
    return fftwf_plan_many_dft(1, &n, howmany, reinterpret_cast<fftwf_complex*>(in), nullptr,
                               stride, dist, reinterpret_cast<fftwf_complex*>(out), nullptr, stride,
                               dist, inverse ? FFTW_BACKWARD : FFTW_FORWARD, flags);
  }
  static plan r2c(int n, int howmany, int stride, int dist, int out_dist, float* in,
                  std::complex<float>* out, unsigned flags) {
    return fftwf_plan_many_dft_r2c(1, &n, howmany, in, nullptr, stride, dist,
                                   reinterpret_cast<fftwf_complex*>(out), nullptr, stride, out_dist,
                                   flags);
  }
  static void execute(plan p, std::complex<float>* in, std::complex<float>* out) {
    fftwf_execute_dft(p, reinterpret_cast<fftwf_complex*>(in),
                      reinterpret_cast<fftwf_complex*>(out));
  }
  static void execute(plan p, float* in, std::complex<float>* out) {
    fftwf_execute_dft_r2c(p, in, reinterpret_cast<fftwf_complex*>(out));
  }
  static int alignment(const void* p) {
    return fftwf_alignment_of(static_cast<float*>(const_cast<void*>(p)));
  }
  static void destroy(plan p) { fftwf_destroy_plan(p); }
};

/// The plans of one dtype, by (n, lines, interleaved, kind, aligned), destroyed with the program's
/// statics (FFTW's own caches stay reachable from its globals).
template <class F>
struct fftw_plan_cache {
  using key_type = std::tuple<std::int64_t, std::int64_t, bool, int, bool>;
  std::mutex mutex;
  std::map<key_type, typename fftw_api<F>::plan> plans;
  fftw_plan_cache() = default;
  fftw_plan_cache(const fftw_plan_cache&) = delete;
  fftw_plan_cache& operator=(const fftw_plan_cache&) = delete;
  ~fftw_plan_cache() {
    for (auto& entry : plans)
      if (entry.second != nullptr) fftw_api<F>::destroy(entry.second);
  }
};

/// Runs FFTW's transform of `lines` lines of n points at `in` into `out` (the first n / 2 + 1
/// points of each line for a real `In`; inverse: the exponent's sign +), unnormalized: consecutive
/// lines (`interleaved` false: line j at in[j * n], its points at out[j * m], m its output length)
/// or interleaved ones (point k of line j at in[k * lines + j], and alike in out). The plan is
/// made once per (dtype, n, lines, layout, kind, whether the arrays are at FFTW's SIMD alignment),
/// under a lock (FFTW's planner is not thread-safe) with FFTW_ESTIMATE, which plans from the
/// arrays' addresses without touching them, and kept until the program ends (fftw_plan_cache);
/// each call runs it on its own arrays by FFTW's thread-safe new-array functions, which need arrays
/// of the plan's alignment. An out-of-place transform leaves its input as it was
/// (FFTW_PRESERVE_INPUT).
template <class F, class In>
void fftw_transform(std::int64_t n, std::int64_t lines, bool interleaved, bool inverse,
                    const In* in, std::complex<F>* out) {
  using api = fftw_api<F>;
  constexpr bool real = !complex_dtype<In>;
  auto* src = const_cast<In*>(in);
  const bool aligned = api::alignment(src) == 0 && api::alignment(out) == 0;
  static fftw_plan_cache<F> cache;
  typename api::plan plan{};
  {
    const std::lock_guard<std::mutex> lock(cache.mutex);
    auto& p = cache.plans[{n, lines, interleaved, real ? 2 : inverse ? 1 : 0, aligned}];
    if (p == nullptr) {
      const unsigned flags =
          FFTW_ESTIMATE | FFTW_PRESERVE_INPUT | (aligned ? 0U : unsigned{FFTW_UNALIGNED});
      const int points = static_cast<int>(n), count = static_cast<int>(lines);
      const int stride = interleaved ? count : 1;
      const int dist = interleaved ? 1 : points;
      const int out_dist = interleaved ? 1 : real ? points / 2 + 1 : points;
      if constexpr (real)
        p = api::r2c(points, count, stride, dist, out_dist, src, out, flags);
      else
        p = api::dft(points, count, stride, dist, src, out, inverse, flags);
    }
    plan = p;
  }
  api::execute(plan, src, out);
}

/// The lines along `axis` of the C-order `in` of `shape` through fftw_transform, into `out` of
/// `out_shape`: along the last axis, the rows together (split among OpenMP's threads where the
/// translation unit is compiled with OpenMP: ep::omp); along another, the interleaved lines of each
/// outer index together (FFTW vectorizes across them), the outer indices split among the threads.
template <class F, class In>
void fftw_lines_of(const In* in, std::complex<F>* out, const Shape& shape, const Shape& out_shape,
                   int axis, bool inverse) {
  const axis_lines a = lines_along(shape, axis), b = lines_along(out_shape, axis);
  const std::int64_t n = a.n;
  if (n == 0 || a.count == 0) return;
  constexpr std::int64_t most = std::numeric_limits<int>::max();
  if (a.stride == 1) {
    if (std::max(n, a.count) > most)
      throw value_error(fmt::format(
          "fft: {} lines of {} points along axis {} of shape {}; FFTW's int counts at most {}",
          a.count, n, axis, shape.str(), most));
    const auto rows = [&](std::int64_t lo, std::int64_t hi) {
      if (hi > lo) fftw_transform<F>(n, hi - lo, false, inverse, in + lo * a.n, out + lo * b.n);
    };
#if defined(_OPENMP)
    if (a.count > 1 && a.count * n >= (std::int64_t{1} << 15)) {
#pragma omp parallel
      {
        const std::int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
        rows(a.count * t / threads, a.count * (t + 1) / threads);
      }
      return;
    }
#endif
    rows(0, a.count);
    return;
  }
  if (std::max(n, a.stride) > most)
    throw value_error(fmt::format(
        "fft: {} points of {} interleaved lines along axis {} of shape {}; FFTW's int counts at "
        "most {}",
        n, a.stride, axis, shape.str(), most));
  const std::int64_t blocks = a.count / a.stride;  // outer indices, `a.stride` lines each
  const auto block = [&](std::int64_t o) {
    fftw_transform<F>(n, a.stride, true, inverse, in + o * a.n * a.stride,
                      out + o * b.n * b.stride);
  };
#if defined(_OPENMP)
  if (blocks > 1 && a.count * n >= (std::int64_t{1} << 15)) {
#pragma omp parallel for schedule(static)
    for (std::int64_t o = 0; o < blocks; ++o) block(o);
    return;
  }
#endif
  for (std::int64_t o = 0; o < blocks; ++o) block(o);
}

/// The unnormalized DFT (inverse: e^{+2 pi i jk/n}) of each line along `axis` of the C-order `in`
/// of `shape` into `out`.
template <class F>
void fftw_lines(const std::complex<F>* in, std::complex<F>* out, const Shape& shape, int axis,
                bool inverse) {
  fftw_lines_of<F>(in, out, shape, shape, axis, inverse);
}

/// The first n / 2 + 1 points of the unnormalized DFT of each real line along `axis` of `in`
/// into `out` (`shape` with n / 2 + 1 points along `axis`): FFTW's real-input transform.
template <class F>
void fftw_rfft_lines(const F* in, std::complex<F>* out, const Shape& shape, int axis) {
  Shape half = shape;
  half[axis] = shape[axis] / 2 + 1;
  fftw_lines_of<F>(in, out, shape, half, axis, false);
}

}  // namespace ep::detail
