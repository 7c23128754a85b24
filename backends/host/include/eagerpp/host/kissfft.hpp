// eagerpp - FFTs through kissfft (Debian's libkissfft-dev, its header-only C++ class):
// ep::xtensor's and ep::omp's `fft` and `rfft`, with a cache of plans
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>  // std::copy_n
#include <complex>    // std::complex
#include <cstdint>    // std::int64_t
#include <map>        // std::map
#include <memory>     // std::shared_ptr
#include <mutex>      // std::mutex
#include <utility>    // std::pair
#include <vector>     // std::vector

#include <kissfft/kissfft.hh>

#include "eagerpp/host/fft.hpp"

namespace ep::detail {

/// kissfft's plan (the length's factorization and its twiddle factors) of length n and direction,
/// made once per (dtype, length, direction) and shared: its transform is const, so threads use one
/// plan at once.
template <class F>
std::shared_ptr<const kissfft<F>> kissfft_plan(std::int64_t n, bool inverse) {
  static std::mutex mutex;
  static std::map<std::pair<std::int64_t, bool>, std::shared_ptr<const kissfft<F>>> plans;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& plan = plans[{n, inverse}];
  if (!plan) plan = std::make_shared<const kissfft<F>>(static_cast<std::size_t>(n), inverse);
  return plan;
}

/// The unnormalized DFT (inverse: with e^{+2 pi i jk/n}) of each line along `axis` of the C-order
/// `in` of `shape` into `out`: kissfft reads a strided line in place.
template <class F>
void kissfft_lines(const std::complex<F>* in, std::complex<F>* out, const Shape& shape, int axis,
                   bool inverse) {
  const std::int64_t n = shape[axis];
  if (n == 0 || shape.numel() == 0) return;
  const auto plan = kissfft_plan<F>(n, inverse);
  host_fft_lines<F>(in, out, shape, axis,
                    [&plan](const std::complex<F>* src, std::int64_t stride, std::complex<F>* dst) {
                      plan->transform(src, dst, 0, 1, static_cast<std::size_t>(stride));
                    });
}

/// The first n / 2 + 1 points of the unnormalized DFT of each real line along `axis` of `in`
/// (host_rfft_lines): for an even n, kissfft's real transform, a complex one of n / 2 points and a
/// pass that separates the halves; for an odd n, the complex transform of the line.
template <class F>
void kissfft_rfft_lines(const F* in, std::complex<F>* out, const Shape& shape, int axis) {
  using C = std::complex<F>;
  const std::int64_t n = shape[axis];
  if (n == 0 || shape.numel() == 0) return;
  const bool even = n % 2 == 0;
  const auto plan = kissfft_plan<F>(even ? n / 2 : n, false);
  host_rfft_lines<F>(in, out, shape, axis, [&plan, n, even](const F* src, C* dst) {
    if (even) {  // dst[0] holds the real points 0 and n / 2 as its parts
      plan->transform_real(src, dst);
      const F nyquist = dst[0].imag();
      dst[0] = C(dst[0].real(), 0);
      dst[n / 2] = C(nyquist, 0);
      return;
    }
    thread_local std::vector<C> line, full;
    line.assign(src, src + n);
    full.resize(static_cast<std::size_t>(n));
    plan->transform(line.data(), full.data());
    std::copy_n(full.begin(), n / 2 + 1, dst);
  });
}

}  // namespace ep::detail
