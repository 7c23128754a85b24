// eagerpp - the functors of the Thrust backends (ep::cuda, ep::omp): one struct per element-wise
// op, NumPy semantics
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>  // std::int64_t
#include <type_traits>  // std::is_floating_point_v, std::is_integral_v, std::is_unsigned_v, std::make_unsigned_t

#include "eagerpp/detail/numpy_math.hpp"
#include "eagerpp/thrust/cuda_std.hpp"
#include "eagerpp/thrust/system.hpp"  // EAGERPP_THRUST_INLINE

// Each functor is a generic lambda spelled as a struct (no --extended-lambda needed), callable on
// the host and, under nvcc, on the device: ep::omp runs them on CPU threads and ep::cuda on the
// GPU, so a rule fixed here is fixed for both. The math goes through libcu++ (::cuda::std::exp,
// ...), which is CUDA's math library in device code and the C library on the host. The semantics
// match ep::eigen's functors exactly.
namespace ep::detail::thrust_fn {

template <class T>
inline constexpr bool is_float = std::is_floating_point_v<T>;

template <class T>
EAGERPP_HOST_DEVICE inline bool is_nan(T x) {
  if constexpr (is_float<T>)
    return x != x;
  else
    return false;
}

namespace numpy = ep::detail::numpy;
using numpy::wrapping_negate;

// --- unary ---------------------------------------------------------------------------------------

// The unary table's ops are detail::numpy::name_fn (ep::unary_defaults); negative and
// logical_not are not rows of it.

struct negative_fn {
  template <class T>
  EAGERPP_HOST_DEVICE T operator()(T x) const {
    if constexpr (std::is_integral_v<T>)
      return wrapping_negate(x);
    else
      return -x;
  }
};
struct logical_not_fn {
  EAGERPP_HOST_DEVICE bool operator()(bool x) const { return !x; }
};

struct isnan_fn {
  template <class T>
  EAGERPP_HOST_DEVICE bool operator()(T x) const {
    return is_nan(x);
  }
};
struct isinf_fn {
  template <class T>
  EAGERPP_HOST_DEVICE bool operator()(T x) const {
    return ::cuda::std::isinf(x);
  }
};

/// NumPy clip (numpy::clip): NaN stays NaN, lo > hi gives hi.
template <class T>
struct clip_fn {
  T lo, hi;
  EAGERPP_HOST_DEVICE T operator()(T x) const { return numpy::clip(x, lo, hi); }
};

/// static_cast<U>: float to int truncates; to bool tests != 0 (NaN is true).
template <class U>
struct cast_fn {
  template <class T>
  EAGERPP_HOST_DEVICE U operator()(T x) const {
    return static_cast<U>(x);
  }
};

/// start + i * step, as ep::eigen's arange computes it.
template <class T>
struct arange_fn {
  T start, step;
  EAGERPP_HOST_DEVICE T operator()(std::int64_t i) const {
    return static_cast<T>(start + static_cast<T>(i) * step);
  }
};

// --- binary --------------------------------------------------------------------------------------

struct add_fn {
  template <class T>
  EAGERPP_HOST_DEVICE T operator()(T a, T b) const {
    return static_cast<T>(a + b);
  }
};
struct subtract_fn {
  template <class T>
  EAGERPP_HOST_DEVICE T operator()(T a, T b) const {
    return static_cast<T>(a - b);
  }
};
struct multiply_fn {
  template <class T>
  EAGERPP_HOST_DEVICE T operator()(T a, T b) const {
    return static_cast<T>(a * b);
  }
};
/// Complex division (ep::omp's complex dtypes; host code).
struct complex_divide_fn {
  template <class T>
  T operator()(T a, T b) const {
    return a / b;
  }
};

// Division, floor division and remainder: NumPy's scalar rules, as every
// backend computes them (detail/numpy_math.hpp).
using divide_fn = numpy::binary_op<numpy::rule::divide>;
using floor_divide_fn = numpy::binary_op<numpy::rule::floor_divide>;
using mod_fn = numpy::binary_op<numpy::rule::mod>;

/// numpy::minmax's values (a NaN operand gives that NaN, -0.0 < +0.0) as selects without branches,
/// which vectorize: numpy::minmax's early returns leave g++'s `omp simd` loop scalar.
template <bool Max>
struct minmax_fn {
  template <class T>
  EAGERPP_THRUST_INLINE EAGERPP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (is_float<T>) {
      T r = (Max ? a < b : b < a) ? b : a;
      r = a == b ? (::cuda::std::signbit(a) == Max ? b : a) : r;
      r = is_nan(b) ? b : r;
      return is_nan(a) ? a : r;
    } else {
      return numpy::minmax<Max>(a, b);
    }
  }
};
using minimum_fn = minmax_fn<false>;
using maximum_fn = minmax_fn<true>;

/// pow for floats; integer power (ep::detail::numpy::int_power) for integers.
struct power_fn {
  template <class T>
  EAGERPP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (is_float<T>) {
      return ::cuda::std::pow(a, b);
    } else {
      return numpy::int_power(a, b);
    }
  }
};

/// The reducers of min (Max = false) and max: NaN propagates; of two equal values either (a plain
/// select, cheaper than numpy::extremum's test: 4x on rows of 4), as the zero result's sign is set
/// afterwards (zero_extremum_fn).
template <bool Max>
struct extremum_reduce_fn {
  template <class T>
  EAGERPP_HOST_DEVICE T operator()(T a, T b) const {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    return (Max ? a < b : b < a) ? b : a;
  }
};

/// IEEE's sign for a zero min (Max = false) or max of result element s, the reduction of `src`
/// seen as (outer, rows, columns) over its rows (columns == 1: segments of `rows`): every element
/// is <= 0 (>= 0 for min), so the result is +0.0 (-0.0) if the column holds one, else the other
/// zero. A result that is not zero costs one comparison.
template <bool Max, class T>
struct zero_extremum_fn {
  const T* src;
  T* out;
  std::int64_t rows, columns;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t s) const {
    if constexpr (is_float<T>) {
      if (out[s] != T(0)) return;
      const std::int64_t o = s / columns;
      const T* column = src + o * rows * columns + (s - o * columns);
      T r = Max ? T(-0.0) : T(0.0);
      for (std::int64_t j = 0; j < rows; ++j) {
        const T v = column[j * columns];
        if (v == T(0) && ::cuda::std::signbit(v) != Max) r = v;
      }
      out[s] = r;
    }
  }
};

struct logical_and_fn {
  EAGERPP_HOST_DEVICE bool operator()(bool a, bool b) const { return a && b; }
};
struct logical_or_fn {
  EAGERPP_HOST_DEVICE bool operator()(bool a, bool b) const { return a || b; }
};
/// The reducers of sum and prod: add and multiply in the element type, no promotion.
using plus_fn = add_fn;
using times_fn = multiply_fn;

struct less_fn {
  template <class T>
  EAGERPP_HOST_DEVICE bool operator()(T a, T b) const {
    return a < b;
  }
};
struct less_equal_fn {
  template <class T>
  EAGERPP_HOST_DEVICE bool operator()(T a, T b) const {
    return a <= b;
  }
};
struct greater_fn {
  template <class T>
  EAGERPP_HOST_DEVICE bool operator()(T a, T b) const {
    return a > b;
  }
};
struct greater_equal_fn {
  template <class T>
  EAGERPP_HOST_DEVICE bool operator()(T a, T b) const {
    return a >= b;
  }
};
struct equal_fn {
  template <class T>
  EAGERPP_HOST_DEVICE bool operator()(T a, T b) const {
    return a == b;
  }
};
struct not_equal_fn {
  template <class T>
  EAGERPP_HOST_DEVICE bool operator()(T a, T b) const {
    return a != b;
  }
};

struct where_fn {
  template <class T>
  EAGERPP_HOST_DEVICE T operator()(bool c, T x, T y) const {
    return c ? x : y;
  }
};

// --- argmin / argmax
// -------------------------------------------------------------------------------

/// A candidate of argmin/argmax: the index within the reduced axis, its value, and whether it is a
/// real element (the reduction's identity is not).
template <class T>
struct arg_pair {
  std::int64_t idx;
  T val;
  bool valid;
};

/// Picks the better candidate: NaN first (as NumPy), then the smaller (larger) value, ties to the
/// lower index. Commutative and associative, as CUB requires.
template <class T, bool IsMax>
struct arg_op {
  EAGERPP_HOST_DEVICE arg_pair<T> operator()(const arg_pair<T>& a, const arg_pair<T>& b) const {
    if (!a.valid) return b;
    if (!b.valid) return a;
    const bool an = is_nan(a.val);
    const bool bn = is_nan(b.val);
    if (an || bn) {
      if (an && bn) return a.idx <= b.idx ? a : b;
      return an ? a : b;
    }
    if (a.val == b.val) return a.idx <= b.idx ? a : b;
    if constexpr (IsMax)
      return a.val > b.val ? a : b;
    else
      return a.val < b.val ? a : b;
  }
};

/// Flat index i of x seen as (outer, n, inner), reduced over n -> the candidate (its index along n,
/// x[i]).
template <class T>
struct arg_candidate_fn {
  const T* x;
  std::int64_t n, inner;
  EAGERPP_HOST_DEVICE arg_pair<T> operator()(std::int64_t i) const {
    return {(inner == 1 ? i : i / inner) % n, x[i], true};
  }
};

/// The index of segment i's winner (0 for an empty segment, never reached: the facade rejects it).
template <class T>
struct arg_index_fn {
  const arg_pair<T>* best;
  EAGERPP_HOST_DEVICE std::int64_t operator()(std::int64_t i) const {
    return best[i].valid ? best[i].idx : 0;
  }
};

/// Element k = (o, c, j) of an (outer, chunks, columns) result over `in` seen as (outer, rows,
/// columns): the offset of column j of outer index o in `in` (base) and the rows [first, end) of
/// chunk c.
struct column_chunk {
  std::int64_t o, c, j, base, first, end;
  EAGERPP_HOST_DEVICE column_chunk(std::int64_t k, std::int64_t rows, std::int64_t columns,
                                   std::int64_t chunks) {
    const std::int64_t oc = k / columns;
    o = oc / chunks;
    c = oc - o * chunks;
    j = k - oc * columns;
    base = o * rows * columns + j;
    first = rows * c / chunks;
    end = rows * (c + 1) / chunks;
  }
};

/// Rows [rows * c / chunks, rows * (c + 1) / chunks) of `in`, seen as (outer, rows, columns),
/// reduced where they lie: element (o, c, j) of the (outer, chunks, columns) result is init op
/// in[(o * rows + r) * columns + j] op ... for r in chunk c, rows in order (a reduction over a
/// middle block of axes, without a transpose; chunks == 1 gives the whole reduction).
template <class Out, class InIt, class Op, class Init>
struct column_reduce_fn {
  InIt in;
  Op op;
  Init init;
  std::int64_t rows, columns, chunks;
  EAGERPP_HOST_DEVICE Out operator()(std::int64_t k) const {
    const column_chunk u(k, rows, columns, chunks);
    Out acc = init;
    for (std::int64_t r = u.first; r < u.end; ++r) acc = op(acc, in[u.base + r * columns]);
    return acc;
  }
};

/// The inclusive scan along the rows of `in`, seen as (outer, rows, columns), of rows
/// [rows * c / chunks, rows * (c + 1) / chunks), for element k = (o, c, j) of (outer, chunks,
/// columns): the chunk's first row is combined with the results of the chunks before c (`partial`,
/// (outer, chunks, columns), as column_reduce_fn leaves them, their identity -0.0 for a float sum;
/// unread when chunks is 1), then each row is added in order and written. No identity is added to
/// the first element, so the scan of [-0.0] is -0.0 (NumPy's cumsum).
template <class T, class Op>
struct column_scan_fn {
  const T* in;
  T* out;
  const T* partial;
  Op op;
  std::int64_t rows, columns, chunks;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t k) const {
    const column_chunk u(k, rows, columns, chunks);
    if (u.first == u.end) return;
    T acc = in[u.base + u.first * columns];
    if (u.c > 0) {
      const T* before = partial + u.o * chunks * columns + u.j;
      T offset = before[0];
      for (std::int64_t p = 1; p < u.c; ++p) offset = op(offset, before[p * columns]);
      acc = op(offset, acc);
    }
    out[u.base + u.first * columns] = acc;
    for (std::int64_t r = u.first + 1; r < u.end; ++r) {
      acc = op(acc, in[u.base + r * columns]);
      out[u.base + r * columns] = acc;
    }
  }
};

/// i -> i * n: the segment offsets of CUB's segmented reduce; also i -> i / n keys for scans.
struct scale_fn {
  std::int64_t n;
  EAGERPP_HOST_DEVICE std::int64_t operator()(std::int64_t i) const { return i * n; }
};
struct segment_fn {
  std::int64_t n;
  EAGERPP_HOST_DEVICE std::int64_t operator()(std::int64_t i) const { return i / n; }
};

}  // namespace ep::detail::thrust_fn
