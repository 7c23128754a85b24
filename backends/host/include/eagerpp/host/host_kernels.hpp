// eagerpp - loops over host memory shared by the CPU backends where their libraries offer nothing:
// gather, scatter, select and sorting along an axis
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::stable_sort, std::copy_n, std::min
#include <cmath>        // std::isnan, std::signbit
#include <complex>      // std::complex
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <numeric>      // std::iota
#include <type_traits>  // std::is_floating_point_v
#include <vector>       // std::vector

#include "eagerpp/detail/numpy_math.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/shape.hpp"

namespace ep::detail {

/// The batch count and matrix extents of a C-order stack (..., m, n); any may be 0: what the
/// decompositions of the host backends loop over. (A struct, not a tuple: clang before 16 does not
/// let lambdas capture structured bindings.)
struct host_stack_dims {
  std::int64_t batch, m, n;
};
inline host_stack_dims host_stack(const Shape& s) {
  return {Shape(s.begin(), s.end() - 2).numel(), s[s.size() - 2], s.back()};
}

/// The shape (..., a, b) of a stack with x's batch axes, or (..., a) with `b` < 0.
inline Shape host_stack_shape(const Shape& x, std::int64_t a, std::int64_t b = -1) {
  Shape s(x.begin(), x.end() - 2);
  s.push_back(a);
  if (b >= 0) s.push_back(b);
  return s;
}

/// A quiet NaN of T, for a complex T NaN in both parts: the value of a failed decomposition
/// (std::numeric_limits has no complex specialization; its primary template would give 0).
template <class T>
constexpr T host_nan = [] {
  if constexpr (complex_dtype<T>) {
    constexpr auto nan = std::numeric_limits<typename T::value_type>::quiet_NaN();
    return T(nan, nan);
  } else {
    return std::numeric_limits<T>::quiet_NaN();
  }
}();

/// out[j * ldo + i] = in[i * ldi + j] for i < rows, j < cols: the C-order rows x cols matrix at
/// `in` (rows ldi apart) written column-major at `out` (columns ldo apart), or a column-major matrix
/// written in C order: the copies into and out of LAPACK's and Eigen's column-major solvers. In
/// 16 x 16 tiles: a plain loop writes one element per ldo, and at a power-of-two stride every write
/// of a column falls in the same cache set and on a new page. With `part` < 0 only the tiles that
/// meet in's lower triangle (j <= i) are written, with `part` > 0 those that meet its upper one
/// (j >= i): the rest of `out` is left as it was.
template <class T>
void host_transpose_tiled(const T* in, std::int64_t rows, std::int64_t cols, std::int64_t ldi,
                          T* out, std::int64_t ldo, int part = 0) {
  constexpr std::int64_t tile = 16;
  for (std::int64_t i0 = 0; i0 < rows; i0 += tile)
    for (std::int64_t j0 = 0; j0 < cols; j0 += tile) {
      const std::int64_t i1 = std::min(i0 + tile, rows), j1 = std::min(j0 + tile, cols);
      if ((part < 0 && j0 >= i1) || (part > 0 && j1 <= i0)) continue;
      for (std::int64_t j = j0; j < j1; ++j)
        for (std::int64_t i = i0; i < i1; ++i) out[j * ldo + i] = in[i * ldi + j];
    }
}

/// LAPACK geev's results for one real n x n matrix, as complex C-order arrays: w = wr + i wi, and
/// (v non-null) the columns of V from the column-major VR, where a complex conjugate pair
/// j, j + 1 (wi[j] > 0) is stored as VR[:, j] +- i VR[:, j + 1].
template <class T>
void host_geev_unpack(std::int64_t n, const T* wr, const T* wi, const T* vr, std::complex<T>* w,
                      std::complex<T>* v) {
  for (std::int64_t j = 0; j < n; ++j) w[j] = {wr[j], wi[j]};
  if (v == nullptr) return;
  for (std::int64_t j = 0; j < n; ++j) {
    const T* re = vr + j * n;
    if (wi[j] > 0 && j + 1 < n) {
      const T* im = re + n;
      for (std::int64_t i = 0; i < n; ++i) {
        v[i * n + j] = {re[i], im[i]};
        v[i * n + j + 1] = {re[i], -im[i]};
      }
      ++j;
    } else {
      for (std::int64_t i = 0; i < n; ++i) v[i * n + j] = re[i];
    }
  }
}

/// out[i] = x[index[i]] for i < n (NumPy: `take` on a 1-D array); indices are in range.
template <class T>
void host_take(const T* x, const std::int64_t* index, std::int64_t n, T* out) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = x[index[i]];
}

/// Writes to `out`, in C order, the elements `x[offset + i_0 stride[0] + ... + i_{r-1} stride[r-1]]`
/// for every index i of the box `extent` (rank r >= 1, at least one element). A stride may be 0
/// (broadcasting), negative (a flip) or a multiple of the source's (a slice's step, a
/// transposition): one loop, compiled once per dtype for every rank, where a library's expression
/// would be instantiated once per rank. The last axis runs as a copy (stride 1), a fill (0), a
/// reversed copy (-1) or a strided loop.
template <class T>
void host_gather(const T* x, std::int64_t offset, const std::int64_t* stride,
                 const std::int64_t* extent, int r, T* out) {
  std::int64_t index[max_rank] = {};
  const int last = r - 1;
  const std::int64_t run = extent[last];
  const std::int64_t step = stride[last];
  std::int64_t rows = 1;
  for (int d = 0; d < last; ++d) rows *= extent[d];
  for (std::int64_t k = 0; k < rows; ++k, out += run) {
    const T* from = x + offset;
    if (step == 1) {
      std::copy_n(from, run, out);
    } else if (step == 0) {  // a fill in groups of 16, which GCC vectorizes at -O2 too
      const T v = *from;
      std::int64_t j = 0;
      for (; j + 16 <= run; j += 16)
        for (int u = 0; u < 16; ++u) out[j + u] = v;
      for (; j < run; ++j) out[j] = v;
    } else if (step == -1) {  // a constant step, so that the compiler vectorizes it (a permute)
      for (std::int64_t j = 0; j < run; ++j) out[j] = from[-j];
    } else {
      for (std::int64_t j = 0; j < run; ++j) out[j] = from[j * step];
    }
    for (int d = last - 1; d >= 0; --d) {  // the next row: an odometer over the outer axes
      offset += stride[d];
      if (++index[d] < extent[d]) break;
      offset -= extent[d] * stride[d];
      index[d] = 0;
    }
  }
}

/// x[index[i]] = values[i] (Add: +=) for i < n, in order, so a repeated index keeps the last write.
template <bool Add, class T>
void host_put(T* x, const std::int64_t* index, const T* values, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    if constexpr (Add) {
      x[index[i]] += values[i];
    } else {
      x[index[i]] = values[i];
    }
  }
}

/// o[i] = c[i] ? a[i] : b[i] for a mask of bytes 0 or 1 (a bool array read as bytes), o not
/// overlapping the inputs; a ScalarA (ScalarB) operand is the one value a[0] (b[0]) for every i.
/// GCC 12 vectorizes this into blends (-O3) only with the mask read as bytes and restrict pointers:
/// with bool loads or possible aliasing GCC 12 keeps a branch per element, mispredicted half the
/// time on a ReLU's mask (as xtensor 0.24's xt::where does, a large share of mlp_bench's training
/// step; Eigen's TensorSelectOp gathers the mask one element at a time).
template <bool ScalarA, bool ScalarB, class T>
void host_select(T* __restrict o, const unsigned char* __restrict c, const T* __restrict a,
                 const T* __restrict b, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    // Both values loaded unconditionally (they are valid): plain loads and a blend, where reading
    // only the selected one gives masked loads, or with a scalar operand, a branch per element.
    const T x = a[ScalarA ? 0 : i];
    const T y = b[ScalarB ? 0 : i];
    o[i] = c[i] ? x : y;
  }
}

/// The sign of a zero min (Max = false) or max reduction as IEEE 754-2019's minimum/maximum give it
/// (-0.0 < +0.0), whatever order the reduction combined the elements in: a SIMD min/max returns one
/// of two equal operands by position, so over [0.0, -0.0] Eigen gives +0.0 and xtensor -0.0 (found
/// by tests/fuzz). For each out[o, i] (of a row-major (outer, red, inner) block `in`) that is a
/// zero, every element of its slice is <= 0 (>= 0 for min) or it would not be: the result is +0.0
/// (-0.0) if the slice holds one, else the other zero. Results that are not zero cost one
/// comparison each.
template <bool Max, class T>
void host_fix_zero_extremum(const T* in, T* out, std::int64_t outer, std::int64_t red,
                            std::int64_t inner) {
  if constexpr (std::is_floating_point_v<T>) {
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        T& r = out[o * inner + i];
        if (r != T(0)) continue;
        const T* p = in + o * red * inner + i;
        r = Max ? T(-0.0) : T(0.0);
        for (std::int64_t j = 0; j < red; ++j)
          if (p[j * inner] == T(0) && std::signbit(p[j * inner]) != Max) {
            r = p[j * inner];
            break;
          }
      }
  }
}

/// The lines along an axis of a C-order tensor: `count` lines of `n` elements `stride` apart, line
/// l (in C order of the other axes) starting at element first(l).
struct axis_lines {
  std::int64_t count, n, stride;
  [[nodiscard]] std::int64_t first(std::int64_t l) const {
    const std::int64_t o = l / stride;
    return o * n * stride + (l - o * stride);
  }
};

/// The lines along `axis` of a C-order tensor of `shape`.
inline axis_lines lines_along(const Shape& shape, int axis) {
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= shape[i];
  for (int i = axis + 1; i < shape.size(); ++i) inner *= shape[i];
  return {outer * inner, shape[axis], inner};
}

/// For each line along `axis` of the C-order tensor x of `shape`, calls f(first, stride, count).
template <class F>
void for_each_line(const Shape& shape, int axis, F&& f) {
  const axis_lines lines = lines_along(shape, axis);
  for (std::int64_t l = 0; l < lines.count; ++l) f(lines.first(l), lines.stride, lines.n);
}

/// Stable ascending argsort along `axis` (NaN last); `out` gets int64 positions along the axis.
template <class T>
void host_argsort(const T* x, const Shape& shape, int axis, std::int64_t* out) {
  std::vector<std::int64_t> order;
  for_each_line(shape, axis, [&](std::int64_t first, std::int64_t stride, std::int64_t n) {
    order.resize(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
      return numpy::less(x[first + a * stride], x[first + b * stride]);
    });
    for (std::int64_t k = 0; k < n; ++k)
      out[first + k * stride] = order[static_cast<std::size_t>(k)];
  });
}

/// Ascending sort along `axis` (NaN last).
template <class T>
void host_sort(const T* x, const Shape& shape, int axis, T* out) {
  std::vector<T> line;
  for_each_line(shape, axis, [&](std::int64_t first, std::int64_t stride, std::int64_t n) {
    line.resize(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) line[static_cast<std::size_t>(k)] = x[first + k * stride];
    std::stable_sort(line.begin(), line.end(), [](T a, T b) { return numpy::less(a, b); });
    for (std::int64_t k = 0; k < n; ++k)
      out[first + k * stride] = line[static_cast<std::size_t>(k)];
  });
}

}  // namespace ep::detail
