// eagerpp - the CPU backends' FFT along one axis: each line of a C-order tensor transformed by a
// library's plan (kissfft on ep::xtensor and ep::omp, Eigen::FFT on ep::eigen)
// SPDX-License-Identifier: MIT
#pragma once

#include <complex>  // std::complex
#include <cstdint>  // std::int64_t
#include <vector>   // std::vector

#include "eagerpp/shape.hpp"

namespace ep::detail {

/// The unnormalized DFT of every line along `axis` of the C-order `in` of `shape` into `out` (the
/// same layout), `in` seen as (outer, n, inner) with n = shape[axis]: `line(src, stride, dst)` transforms the n elements src[0], src[stride],
/// ... into the contiguous dst[0 .. n). A line along the last axis (inner 1) is transformed in
/// place of its result; another goes through a buffer and is scattered back. The lines split among
/// OpenMP's threads where the translation unit is compiled with OpenMP (ep::omp); `line` must then
/// be callable from several threads at once.
template <class F, class Line>
void host_fft_lines(const std::complex<F>* in, std::complex<F>* out, const Shape& shape, int axis,
                    const Line& line) {
  using C = std::complex<F>;
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= shape[i];
  for (int i = axis + 1; i < shape.size(); ++i) inner *= shape[i];
  const std::int64_t n = shape[axis];
  const std::int64_t lines = outer * inner;
  if (n == 0 || lines == 0) return;
  const auto one = [&](std::int64_t l, std::vector<C>& buffer) {
    const std::int64_t o = l / inner;
    const std::int64_t j = l - o * inner;
    const C* src = in + o * n * inner + j;
    if (inner == 1) {
      line(src, std::int64_t{1}, out + o * n);
      return;
    }
    buffer.resize(static_cast<std::size_t>(n));
    line(src, inner, buffer.data());
    C* dst = out + o * n * inner + j;
    for (std::int64_t k = 0; k < n; ++k) dst[k * inner] = buffer[static_cast<std::size_t>(k)];
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

}  // namespace ep::detail
