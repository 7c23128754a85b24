// eagerpp - FFTs through FFTW3 (Debian's libfftw3-dev), the CPU backends' `fft` and `rfft` where
// the program is built with EAGERPP_FFTW (the CMake option EAGERPP_FFTW). FFTW is GPL: a program
// that links it is bound by the GPL (docs/backends.md, "FFT libraries").
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>  // std::copy_n
#include <complex>    // std::complex
#include <cstddef>    // std::size_t
#include <cstdint>    // std::int64_t
#include <map>        // std::map
#include <mutex>      // std::mutex, std::lock_guard
#include <utility>    // std::pair
#include <vector>     // std::vector

#include <fftw3.h>

#include "eagerpp/host/fft.hpp"

namespace ep::detail {

/// FFTW's API for float (fftwf_) and double (fftw_): the plans of one line and their execution on
/// other arrays (FFTW's new-array execute functions, which are thread-safe; its planner is not).
template <class F>
struct fftw_api;

template <>
struct fftw_api<double> {
  using plan = fftw_plan;
  static plan dft(int n, std::complex<double>* in, std::complex<double>* out, bool inverse,
                  unsigned flags) {
    return fftw_plan_dft_1d(n, reinterpret_cast<fftw_complex*>(in),
                            reinterpret_cast<fftw_complex*>(out),
                            inverse ? FFTW_BACKWARD : FFTW_FORWARD, flags);
  }
  static plan r2c(int n, double* in, std::complex<double>* out, unsigned flags) {
    return fftw_plan_dft_r2c_1d(n, in, reinterpret_cast<fftw_complex*>(out), flags);
  }
  static void execute(plan p, const std::complex<double>* in, std::complex<double>* out) {
    // An out-of-place complex transform leaves its input as it was (FFTW_PRESERVE_INPUT).
    fftw_execute_dft(p, reinterpret_cast<fftw_complex*>(const_cast<std::complex<double>*>(in)),
                     reinterpret_cast<fftw_complex*>(out));
  }
  static void execute(plan p, const double* in, std::complex<double>* out) {
    fftw_execute_dft_r2c(p, const_cast<double*>(in), reinterpret_cast<fftw_complex*>(out));
  }
  static int alignment(const void* p) {
    return fftw_alignment_of(static_cast<double*>(const_cast<void*>(p)));
  }
  static void* allocate(std::size_t bytes) { return fftw_malloc(bytes); }
  static void release(void* p) { fftw_free(p); }
};

template <>
struct fftw_api<float> {
  using plan = fftwf_plan;
  static plan dft(int n, std::complex<float>* in, std::complex<float>* out, bool inverse,
                  unsigned flags) {
    return fftwf_plan_dft_1d(n, reinterpret_cast<fftwf_complex*>(in),
                             reinterpret_cast<fftwf_complex*>(out),
                             inverse ? FFTW_BACKWARD : FFTW_FORWARD, flags);
  }
  static plan r2c(int n, float* in, std::complex<float>* out, unsigned flags) {
    return fftwf_plan_dft_r2c_1d(n, in, reinterpret_cast<fftwf_complex*>(out), flags);
  }
  static void execute(plan p, const std::complex<float>* in, std::complex<float>* out) {
    fftwf_execute_dft(p, reinterpret_cast<fftwf_complex*>(const_cast<std::complex<float>*>(in)),
                      reinterpret_cast<fftwf_complex*>(out));
  }
  static void execute(plan p, const float* in, std::complex<float>* out) {
    fftwf_execute_dft_r2c(p, const_cast<float*>(in), reinterpret_cast<fftwf_complex*>(out));
  }
  static int alignment(const void* p) {
    return fftwf_alignment_of(static_cast<float*>(const_cast<void*>(p)));
  }
  static void* allocate(std::size_t bytes) { return fftwf_malloc(bytes); }
  static void release(void* p) { fftwf_free(p); }
};

/// The two plans of a line of n points: for arrays at FFTW's SIMD alignment (those of fftw_malloc
/// and of eagerpp's storage), and for any others (FFTW_UNALIGNED). A new-array execution must
/// use arrays of the plan's alignment.
template <class F>
struct fftw_plans {
  typename fftw_api<F>::plan aligned, unaligned;
};

/// The plans of one line of n points, of the complex transform (`real` false; `inverse` its
/// direction) or of the real-input one, made once per (dtype, n, kind) under a lock (FFTW's planner
/// is not thread-safe) with FFTW_ESTIMATE (no trial runs) and kept for the program's life.
template <class F>
fftw_plans<F> fftw_plan_of(std::int64_t n, bool inverse, bool real) {
  using api = fftw_api<F>;
  using C = std::complex<F>;
  static std::mutex mutex;
  static std::map<std::pair<std::int64_t, int>, fftw_plans<F>> plans;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::pair<std::int64_t, int>{n, real ? 2 : inverse ? 1 : 0};
  if (const auto found = plans.find(key); found != plans.end()) return found->second;
  const int points = static_cast<int>(n);
  auto* in = static_cast<C*>(api::allocate(sizeof(C) * static_cast<std::size_t>(n)));
  auto* out = static_cast<C*>(api::allocate(sizeof(C) * static_cast<std::size_t>(n)));
  const unsigned flags = FFTW_ESTIMATE | FFTW_PRESERVE_INPUT;
  fftw_plans<F> made{};
  for (const bool unaligned : {false, true}) {
    const unsigned f = unaligned ? flags | FFTW_UNALIGNED : flags;
    (unaligned ? made.unaligned : made.aligned) =
        real ? api::r2c(points, reinterpret_cast<F*>(in), out, f)
             : api::dft(points, in, out, inverse, f);
  }
  api::release(in);
  api::release(out);
  return plans[key] = made;
}

/// One line through the plan of `plans` that fits the arrays' alignment.
template <class F, class In>
void fftw_run(const fftw_plans<F>& plans, const In* in, std::complex<F>* out) {
  using api = fftw_api<F>;
  const bool aligned = api::alignment(in) == 0 && api::alignment(out) == 0;
  api::execute(aligned ? plans.aligned : plans.unaligned, in, out);
}

/// The unnormalized DFT (inverse: e^{+2 pi i jk/n}) of each line along `axis` of the C-order `in`
/// of `shape` into `out` (host_fft_lines); a strided line is gathered first.
template <class F>
void fftw_lines(const std::complex<F>* in, std::complex<F>* out, const Shape& shape, int axis,
                bool inverse) {
  using C = std::complex<F>;
  const std::int64_t n = shape[axis];
  if (n == 0 || shape.numel() == 0) return;
  const fftw_plans<F> plans = fftw_plan_of<F>(n, inverse, false);
  host_fft_lines<F>(in, out, shape, axis, [&plans, n](const C* src, std::int64_t stride, C* dst) {
    thread_local std::vector<C> line;
    if (stride != 1) {
      line.resize(static_cast<std::size_t>(n));
      for (std::int64_t k = 0; k < n; ++k) line[static_cast<std::size_t>(k)] = src[k * stride];
      src = line.data();
    }
    fftw_run<F>(plans, src, dst);
  });
}

/// The first n / 2 + 1 points of the unnormalized DFT of each real line along `axis` of `in`
/// (host_rfft_lines): FFTW's real-input transform.
template <class F>
void fftw_rfft_lines(const F* in, std::complex<F>* out, const Shape& shape, int axis) {
  const std::int64_t n = shape[axis];
  if (n == 0 || shape.numel() == 0) return;
  const fftw_plans<F> plans = fftw_plan_of<F>(n, false, true);
  host_rfft_lines<F>(in, out, shape, axis, [&plans](const F* src, std::complex<F>* dst) {
    fftw_run<F>(plans, src, dst);
  });
}

}  // namespace ep::detail
