// eagerpp - the CPU backends' FFTs along one axis, complex and of real input: each line of a
// C-order tensor transformed by a library's plan (kissfft on ep::xtensor and ep::omp, Eigen::FFT on
// ep::eigen)
// SPDX-License-Identifier: MIT
#pragma once

#include <complex>  // std::complex
#include <cstdint>  // std::int64_t
#include <vector>   // std::vector

#include "eagerpp/host/host_kernels.hpp"
#include "eagerpp/shape.hpp"

namespace ep::detail {

/// The unnormalized DFT of every line along `axis` of the C-order `in` of `shape` into `out` (the
/// same layout; host_kernels.hpp's lines_along): `line(src, stride, dst)` transforms the n elements
/// src[0], src[stride], ... into the contiguous dst[0 .. n). A line along the last axis (stride 1)
/// is transformed in place of its result; another goes through a buffer and is scattered back. The
/// lines split among OpenMP's threads where the translation unit is compiled with OpenMP (ep::omp);
/// `line` must then be callable from several threads at once.
template <class F, class Line>
void host_fft_lines(const std::complex<F>* in, std::complex<F>* out, const Shape& shape, int axis,
                    const Line& line) {
  using C = std::complex<F>;
  const axis_lines a = lines_along(shape, axis);
  const std::int64_t n = a.n, lines = a.count;
  if (n == 0 || lines == 0) return;
  const auto one = [&](std::int64_t l, std::vector<C>& buffer) {
    const std::int64_t first = a.first(l);
    if (a.stride == 1) {
      line(in + first, std::int64_t{1}, out + first);
      return;
    }
    buffer.resize(static_cast<std::size_t>(n));
    line(in + first, a.stride, buffer.data());
    for (std::int64_t k = 0; k < n; ++k)
      out[first + k * a.stride] = buffer[static_cast<std::size_t>(k)];
  };
#if defined(_OPENMP)
  if (lines > 1 && lines * n >= (std::int64_t{1} << 15)) {
#pragma omp parallel
    {
      std::vector<C> buffer;
#pragma omp for schedule(static)
      for (std::int64_t l = 0; l < lines; ++l) one(l, buffer);
    }
    return;
  }
#endif
  std::vector<C> buffer;
  for (std::int64_t l = 0; l < lines; ++l) one(l, buffer);
}

/// The first n / 2 + 1 points of the unnormalized DFT of every real line along `axis` of the
/// C-order `in` of `shape` into `out` (`shape` with n / 2 + 1 points along `axis`): `line(src,
/// dst)` transforms the n contiguous reals src into the n / 2 + 1 contiguous points dst. Strided
/// lines go through buffers; the lines split among OpenMP's threads as in host_fft_lines.
template <class F, class Line>
void host_rfft_lines(const F* in, std::complex<F>* out, const Shape& shape, int axis,
                     const Line& line) {
  using C = std::complex<F>;
  Shape half = shape;
  half[axis] = shape[axis] / 2 + 1;
  const axis_lines a = lines_along(shape, axis), b = lines_along(half, axis);
  const std::int64_t n = a.n, m = b.n, lines = a.count;
  if (n == 0 || lines == 0) return;
  const auto one = [&](std::int64_t l, std::vector<F>& real, std::vector<C>& points) {
    const F* src = in + a.first(l);
    if (a.stride != 1) {
      real.resize(static_cast<std::size_t>(n));
      for (std::int64_t k = 0; k < n; ++k) real[static_cast<std::size_t>(k)] = src[k * a.stride];
      src = real.data();
    }
    C* dst = out + b.first(l);
    if (b.stride == 1) {
      line(src, dst);
      return;
    }
    points.resize(static_cast<std::size_t>(m));
    line(src, points.data());
    for (std::int64_t k = 0; k < m; ++k) dst[k * b.stride] = points[static_cast<std::size_t>(k)];
  };
#if defined(_OPENMP)
  if (lines > 1 && lines * n >= (std::int64_t{1} << 15)) {
#pragma omp parallel
    {
      std::vector<F> real;
      std::vector<C> points;
#pragma omp for schedule(static)
      for (std::int64_t l = 0; l < lines; ++l) one(l, real, points);
    }
    return;
  }
#endif
  std::vector<F> real;
  std::vector<C> points;
  for (std::int64_t l = 0; l < lines; ++l) one(l, real, points);
}

}  // namespace ep::detail
