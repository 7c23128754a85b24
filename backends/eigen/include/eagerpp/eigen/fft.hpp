// eagerpp - ep::eigen's FFT: Eigen::FFT (unsupported/Eigen/FFT, its built-in kissfft) along one
// axis
// SPDX-License-Identifier: MIT
#pragma once

#include <complex>  // std::complex
#include <cstdint>  // std::int64_t
#include <vector>   // std::vector

#include <unsupported/Eigen/FFT>

#include "eagerpp/host/fft.hpp"

namespace ep::detail {

/// The unnormalized DFT (inverse: e^{+2 pi i jk/n}) of each line along `axis` of the C-order `in`
/// of `shape` into `out`. Eigen::FFT keeps its plans (one per length and direction) in the object,
/// which is not safe to share between threads: each thread has its own, so plans are cached per
/// thread. A strided line is gathered first (Eigen::FFT reads contiguous input).
template <class F>
void eigen_fft_lines(const std::complex<F>* in, std::complex<F>* out, const Shape& shape, int axis,
                     bool inverse) {
  using C = std::complex<F>;
  const std::int64_t n = shape[axis];
  host_fft_lines<F>(in, out, shape, axis, [inverse, n](const C* src, std::int64_t stride, C* dst) {
    thread_local Eigen::FFT<F> fft = [] {
      Eigen::FFT<F> f;
      f.SetFlag(Eigen::FFT<F>::Unscaled);
      return f;
    }();
    thread_local std::vector<C> line;
    if (stride != 1) {
      line.resize(static_cast<std::size_t>(n));
      for (std::int64_t k = 0; k < n; ++k) line[static_cast<std::size_t>(k)] = src[k * stride];
      src = line.data();
    }
    if (n == 1) {   // the identity; Eigen 3.4's kissfft plans one point as a radix-1 stage it
      *dst = *src;  // cannot run
      return;
    }
    const auto points = static_cast<Eigen::Index>(n);
    if (inverse)
      fft.inv(dst, src, points);
    else
      fft.fwd(dst, src, points);
  });
}

/// The first n / 2 + 1 points of the unnormalized DFT of each real line along `axis` of `in`
/// (host_rfft_lines): Eigen::FFT's real transform with its HalfSpectrum flag (real-optimized for n a
/// multiple of 4, else a complex transform of the line); plans per thread as eigen_fft_lines.
template <class F>
void eigen_rfft_lines(const F* in, std::complex<F>* out, const Shape& shape, int axis) {
  using C = std::complex<F>;
  const std::int64_t n = shape[axis];
  host_rfft_lines<F>(in, out, shape, axis, [n](const F* src, C* dst) {
    thread_local Eigen::FFT<F> fft = [] {
      Eigen::FFT<F> f;
      f.SetFlag(Eigen::FFT<F>::Unscaled);
      f.SetFlag(Eigen::FFT<F>::HalfSpectrum);
      return f;
    }();
    if (n == 1) {  // the identity (see eigen_fft_lines)
      *dst = C(*src, 0);
      return;
    }
    fft.fwd(dst, src, static_cast<Eigen::Index>(n));
  });
}

}  // namespace ep::detail
