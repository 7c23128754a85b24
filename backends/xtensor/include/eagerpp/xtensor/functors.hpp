// eagerpp - element functors of the xtensor backend where NumPy's semantics differ from xtensor's
// SPDX-License-Identifier: MIT
#pragma once

// Each functor has a scalar overload and, where a vector form exists, an xsimd batch overload;
// xt::make_lambda_xfunction then takes the vectorized path for contiguous operands.

#include <cmath>        // std::pow, std::ceil, std::floor, std::atan2
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int32_t, std::int64_t
#include <limits>       // std::numeric_limits
#include <type_traits>  // std::is_floating_point_v, std::make_unsigned_t

#include <xsimd/xsimd.hpp>

#include "eagerpp/detail/numpy_math.hpp"

namespace ep::detail::xt_functors {

namespace numpy = ep::detail::numpy;

/// One element (not an xsimd batch): the functors below are scalar-only.
template <class A>
concept scalar = std::is_arithmetic_v<A> || complex_dtype<A>;

/// NumPy's sign: -1, 0 or 1, NaN for NaN (xt::sign gives 0 for NaN).
struct sign_fn {
  template <scalar A>
  A operator()(A x) const {
    return numpy::sign(x);
  }
  template <class A, class Arch>
  xsimd::batch<A, Arch> operator()(const xsimd::batch<A, Arch>& x) const {
    using batch = xsimd::batch<A, Arch>;
    const batch zero(A(0));
    batch r = xsimd::select(x > zero, batch(A(1)), xsimd::select(x < zero, batch(A(-1)), zero));
    if constexpr (std::is_floating_point_v<A>) r = xsimd::select(xsimd::isnan(x), x, r);
    return r;
  }
};

/// Negation that flips the sign bit, as IEEE's (and NumPy's): -(+0.0) is -0.0. xsimd 8.1's
/// AVX-512 batches negate as 0 - x (xsimd/arch/xsimd_avx512f.hpp), +0.0 for +0.0, so 3 / -x would
/// be +inf at x = 0 (found by tests/fuzz in a -march=native build).
struct negative_fn {
  template <scalar A>
  A operator()(A x) const {
    return -x;
  }
  template <class A, class Arch>
  xsimd::batch<A, Arch> operator()(const xsimd::batch<A, Arch>& x) const {
    if constexpr (std::is_floating_point_v<A>)
      return x ^ xsimd::batch<A, Arch>(A(-0.0));
    else
      return -x;
  }
};

/// numpy::extremum of two batches of floats: a NaN `a` is kept (every comparison with it is false),
/// and -0.0 < +0.0 whatever the operands' order: of two equal lanes the bitwise and (or) is the
/// larger (smaller) zero and any other value itself.
template <bool Max, class A, class Arch>
xsimd::batch<A, Arch> ieee_extremum(const xsimd::batch<A, Arch>& a,
                                    const xsimd::batch<A, Arch>& b) {
  const auto m = xsimd::select(Max ? a < b : b < a, b, a);
  return xsimd::select(a == b, Max ? (a & b) : (a | b), m);
}

/// NumPy's maximum (Max) and minimum (numpy::minmax): NaN in either operand gives NaN (std::max
/// and vmaxps do not propagate it), and -0.0 < +0.0.
template <bool Max>
struct extremum_fn {
  template <scalar A>
  A operator()(A a, A b) const {
    return numpy::minmax<Max>(a, b);
  }
  template <class A, class Arch>
  xsimd::batch<A, Arch> operator()(const xsimd::batch<A, Arch>& a,
                                   const xsimd::batch<A, Arch>& b) const {
    if constexpr (std::is_floating_point_v<A>)
      return xsimd::select(xsimd::isnan(a), a,
                           xsimd::select(xsimd::isnan(b), b, ieee_extremum<Max>(a, b)));
    else if constexpr (Max)
      return xsimd::max(a, b);
    else
      return xsimd::min(a, b);
  }
};
using maximum_fn = extremum_fn<true>;
using minimum_fn = extremum_fn<false>;

/// NumPy's clip (numpy::clip): NaN stays NaN, lo > hi gives hi, -0.0 clipped at 0.0 gives 0.0.
template <class T>
struct clip_fn {
  T lo, hi;
  template <scalar A>
  A operator()(A x) const {
    return numpy::clip(x, A(lo), A(hi));
  }
  template <class A, class Arch>
  xsimd::batch<A, Arch> operator()(const xsimd::batch<A, Arch>& x) const {
    using batch = xsimd::batch<A, Arch>;
    const batch l(lo), h(hi);
    if constexpr (std::is_floating_point_v<A>)
      return ieee_extremum<false>(ieee_extremum<true>(x, l), h);
    else
      return xsimd::min(xsimd::max(x, l), h);
  }
};

/// NumPy's ceil and floor keep the sign of zero (ceil(-0.5) and floor(-0.0) are -0.0): without
/// SSE4.1, xsimd's batches round through 2^52 and give +0.0 there. The result takes the operand's
/// sign bit, which is always the sign of the rounded value. Found by tests/fuzz.
struct ceil_fn {
  template <scalar A>
  A operator()(A x) const {
    return std::ceil(x);
  }
  template <class A, class Arch>
  xsimd::batch<A, Arch> operator()(const xsimd::batch<A, Arch>& x) const {
    return xsimd::copysign(xsimd::ceil(x), x);
  }
};
struct floor_fn {
  template <scalar A>
  A operator()(A x) const {
    return std::floor(x);
  }
  template <class A, class Arch>
  xsimd::batch<A, Arch> operator()(const xsimd::batch<A, Arch>& x) const {
    return xsimd::copysign(xsimd::floor(x), x);
  }
};

/// NumPy's exp gives denormals down to exp(-745) (float: exp(-103)); xsimd's batch exp returns 0
/// below its range (about -708.4, float -88.4). There, exp(x) = exp(x / 2)^2: x / 2 is exact and
/// exp(x / 2) normal, as ep::eigen computes it. Found by the Elementwise suite's underflow test.
struct exp_fn {
  template <scalar A>
  A operator()(A x) const {
    return std::exp(x);
  }
  template <class A, class Arch>
  xsimd::batch<A, Arch> operator()(const xsimd::batch<A, Arch>& x) const {
    const xsimd::batch<A, Arch> r = xsimd::exp(x);
    const auto low = x < xsimd::batch<A, Arch>(std::is_same_v<A, float> ? A(-87) : A(-708));
    if (!xsimd::any(low)) return r;
    const xsimd::batch<A, Arch> half = xsimd::exp(x * A(0.5));
    return xsimd::select(low, half * half, r);
  }
};

/// Floating power with std::pow: exact where the result is representable, 0^0 = 1.
struct float_power_fn {
  template <class T>
  T operator()(T a, T b) const {
    return std::pow(a, b);
  }
};

/// atan2 with xsimd's batch atan2, which gives NaN where both operands are zeros or both are
/// infinities (C: the angle the signs select, e.g. atan2(+0, -0) = pi) and a NaN of either sign for
/// a NaN operand: a batch with a NaN lane is computed again by C's atan2, as the scalar overload.
struct atan2_fn {
  template <scalar A>
  A operator()(A y, A x) const {
    return std::atan2(y, x);
  }
  template <class A, class Arch>
  xsimd::batch<A, Arch> operator()(const xsimd::batch<A, Arch>& y,
                                   const xsimd::batch<A, Arch>& x) const {
    using batch = xsimd::batch<A, Arch>;
    const batch r = xsimd::atan2(y, x);
    if (!xsimd::any(xsimd::isnan(r))) return r;  // NaN: one of the cases above
    A ys[batch::size], xs[batch::size];
    y.store_unaligned(ys);
    x.store_unaligned(xs);
    for (std::size_t i = 0; i < batch::size; ++i) ys[i] = std::atan2(ys[i], xs[i]);
    return batch::load_unaligned(ys);
  }
};

/// Float to integer conversion without UB: NaN and out-of-range values give the lowest integer,
/// as NumPy's casts do on x86.
template <class To>
struct float_to_int_fn {
  template <scalar A>
  To operator()(A x) const {
    // [lo, hi): [-2^(bits-1), 2^(bits-1)) or [0, 2^bits), both ends exact in A.
    constexpr A lo = static_cast<A>(std::numeric_limits<To>::min());
    constexpr A hi = static_cast<A>(std::numeric_limits<To>::max() / 2 + 1) * A(2);
    return (x >= lo && x < hi) ? static_cast<To>(x) : std::numeric_limits<To>::min();
  }
};

// Scalar-only comparisons and selection, for bool operands: xtensor 0.24 tries to vectorize bool
// containers as xsimd::batch_bool, which has no ordering and no ternary select.
struct less_fn {
  template <scalar A>
  bool operator()(A a, A b) const {
    return a < b;
  }
};
struct less_equal_fn {
  template <scalar A>
  bool operator()(A a, A b) const {
    return a <= b;
  }
};
struct greater_fn {
  template <scalar A>
  bool operator()(A a, A b) const {
    return a > b;
  }
};
struct greater_equal_fn {
  template <scalar A>
  bool operator()(A a, A b) const {
    return a >= b;
  }
};
/// Scalar !=: xsimd 8.1's AVX operator!= is an ordered compare (false for NaN), and xt::not_equal
/// takes that path for float operands.
struct not_equal_fn {
  template <scalar A>
  bool operator()(A a, A b) const {
    return a != b;
  }
};

}  // namespace ep::detail::xt_functors
