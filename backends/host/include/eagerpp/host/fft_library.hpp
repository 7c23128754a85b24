// eagerpp - the FFT library of ep::xtensor and ep::omp: kissfft (Debian's libkissfft-dev, BSD), or
// FFTW3 where the program is built with EAGERPP_FFTW (GPL: docs/backends.md, "FFT libraries")
// SPDX-License-Identifier: MIT
#pragma once

#include <complex>  // std::complex

#include "eagerpp/shape.hpp"
#ifdef EAGERPP_FFTW
#include "eagerpp/host/fftw.hpp"
#else
#include "eagerpp/host/kissfft.hpp"
#endif

namespace ep::detail {

/// The unnormalized DFT (inverse: of the opposite sign) of every line along `axis` of the C-order
/// complex tensor `in` of `shape`, into `out` of the same shape.
template <class F>
void cpu_fft_lines(const std::complex<F>* in, std::complex<F>* out, const Shape& shape, int axis,
                   bool inverse) {
#ifdef EAGERPP_FFTW
  fftw_lines<F>(in, out, shape, axis, inverse);
#else
  kissfft_lines<F>(in, out, shape, axis, inverse);
#endif
}

/// The first n / 2 + 1 points of the DFT of every line along `axis` of the C-order real tensor
/// `in` of `shape` (n points along `axis`), into `out`.
template <class F>
void cpu_rfft_lines(const F* in, std::complex<F>* out, const Shape& shape, int axis) {
#ifdef EAGERPP_FFTW
  fftw_rfft_lines<F>(in, out, shape, axis);
#else
  kissfft_rfft_lines<F>(in, out, shape, axis);
#endif
}

}  // namespace ep::detail
