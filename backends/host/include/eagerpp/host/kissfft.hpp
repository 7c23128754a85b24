// eagerpp - FFTs through kissfft (Debian's libkissfft-dev, its header-only C++ class):
// ep::xtensor's and ep::omp's `fft`, with a cache of plans
// SPDX-License-Identifier: MIT
#pragma once

#include <complex>  // std::complex
#include <cstdint>  // std::int64_t
#include <map>      // std::map
#include <memory>   // std::shared_ptr
#include <mutex>    // std::mutex
#include <utility>  // std::pair

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

}  // namespace ep::detail
