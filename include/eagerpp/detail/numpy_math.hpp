// eagerpp - NumPy's scalar rules (division, remainder, integer power, minimum and maximum, clip,
// sign), written once for every backend (host code, and device code under nvcc)
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::fmod, std::floor, std::copysign, std::isnan, std::atan2,
                        // std::nextafter
#include <complex>      // std::complex, std::abs
#include <limits>       // std::numeric_limits
#include <numbers>      // std::numbers::ln2_v
#include <type_traits>  // std::is_integral_v, std::is_arithmetic_v, std::make_unsigned_t,
                        // std::is_floating_point_v, std::is_unsigned_v

#include "eagerpp/ops/binary_list.hpp"
#include "eagerpp/ops/unary_list.hpp"

#if defined(__CUDACC__)
#define EAGERPP_HOST_DEVICE __host__ __device__
#else
#define EAGERPP_HOST_DEVICE
#endif

namespace ep::detail::numpy {

/// NumPy's sort order: ascending with NaN last (NaNs equal among themselves).
template <class T>
bool less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

// std:: math on the host; CUDA's global overloads in device code (the unary table's `scalar`
// column spells the C library's functions with it).
#if defined(__CUDA_ARCH__)
#define EAGERPP_MATH(f) ::f
#else
#define EAGERPP_MATH(f) std::f
#endif

/// IEEE 754-2019's maximum (Max) or minimum of two values, NaN aside: -0.0 < +0.0, so the result
/// does not depend on the operands' order (a plain `a < b ? b : a` returns one of two equal zeros
/// by position, and a min or max reduction, combined in any order, as CUB requires of a commutative
/// reducer, gives either: found by tests/fuzz as max over [0.0, -0.0]). The sign is copysign's,
/// which device code has.
template <bool Max, class T>
EAGERPP_HOST_DEVICE T extremum(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a == b) return (EAGERPP_MATH(copysign)(T(1), a) < T(0)) == Max ? b : a;
  }
  return (Max ? a < b : b < a) ? b : a;
}

/// Integer -x computed modulo 2^bits, as NumPy does for the most negative value (no UB).
template <class T>
EAGERPP_HOST_DEVICE constexpr T wrapping_negate(T a) noexcept {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U{0} - static_cast<U>(a));
}

/// Division: IEEE for floats; for integers C++ truncation, with x / 0 == 0 and no overflow trap.
template <class T>
EAGERPP_HOST_DEVICE T divide(T a, T b) noexcept {
  if constexpr (std::is_integral_v<T>) {
    if (b == 0) return T{0};
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return wrapping_negate(a);
    }
  }
  return static_cast<T>(a / b);
}

/// NumPy floor_divide: the floor of the quotient; integer x // 0 == 0. Floats follow npy_divmod,
/// so 1 // 0.1 is 9 as in NumPy, not floor(1 / 0.1) = 10.
template <class T>
EAGERPP_HOST_DEVICE T floor_divide(T a, T b) noexcept {
  if constexpr (std::is_unsigned_v<T>) {
    return b == 0 ? T{0} : static_cast<T>(a / b);
  } else if constexpr (std::is_integral_v<T>) {
    if (b == 0) return T{0};
    if (b == -1) return wrapping_negate(a);
    const T q = static_cast<T>(a / b);
    return (a % b != 0 && ((a < 0) != (b < 0))) ? static_cast<T>(q - 1) : q;
  } else {
    if (b == 0) return a / b;
    const T mod = EAGERPP_MATH(fmod)(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= T{1};
    if (div == 0) return EAGERPP_MATH(copysign)(T{0}, a / b);
    T floordiv = EAGERPP_MATH(floor)(div);
    if (div - floordiv > T{0.5}) floordiv += T{1};
    return floordiv;
  }
}

/// NumPy remainder (mod): the remainder takes the divisor's sign; integer x % 0 == 0.
template <class T>
EAGERPP_HOST_DEVICE T mod(T a, T b) noexcept {
  if constexpr (std::is_unsigned_v<T>) {
    return b == 0 ? T{0} : static_cast<T>(a % b);
  } else if constexpr (std::is_integral_v<T>) {
    if (b == 0 || b == -1) return T{0};
    const T r = static_cast<T>(a % b);
    return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
  } else {
    T m = EAGERPP_MATH(fmod)(a, b);
    if (b == 0) return m;
    if (m != 0) {
      if ((b < 0) != (m < 0)) m += b;
    } else {
      m = EAGERPP_MATH(copysign)(T{0}, b);
    }
    return m;
  }
}

/// Integer power by repeated squaring, wrapping on overflow. A negative exponent gives 0, except
/// for the bases 1 and -1 (NumPy raises there; we must not crash).
template <class T>
EAGERPP_HOST_DEVICE T int_power(T a, T b) noexcept {
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) {
      if (a == 1) return T{1};
      if (a == -1) return (b & 1) ? T{-1} : T{1};
      return T{0};
    }
  }
  using U = std::make_unsigned_t<T>;
  // Computed in at least unsigned int: a narrower U is promoted to int, whose product overflows.
  using W = decltype(U{} * 1U);
  W result = 1;
  W base = static_cast<U>(a);
  for (W e = static_cast<U>(b); e != 0; e >>= 1) {
    if (e & 1U) result = static_cast<U>(result * base);
    base = static_cast<U>(base * base);
  }
  return static_cast<T>(result);
}

/// NumPy's shifts of integers: a count outside [0, bits) shifts every bit out (0, or -1 for a
/// negative a shifted right), where C's shift is undefined; the left shift wraps.
template <class T>
EAGERPP_HOST_DEVICE T left_shift(T a, T b) noexcept {
  using U = std::make_unsigned_t<T>;
  if (static_cast<U>(b) >= sizeof(T) * 8) return T{0};
  return static_cast<T>(static_cast<U>(a) << b);
}
template <class T>
EAGERPP_HOST_DEVICE T right_shift(T a, T b) noexcept {
  using U = std::make_unsigned_t<T>;
  if (static_cast<U>(b) >= sizeof(T) * 8) {
    if constexpr (std::is_signed_v<T>) {
      if (a < 0) return T(-1);
    }
    return T(0);
  }
  return static_cast<T>(a >> b);
}

/// NumPy's maximum (Max) or minimum: a NaN operand gives that NaN; else extremum's order, in which
/// -0.0 < +0.0.
template <bool Max, class T>
EAGERPP_HOST_DEVICE T minmax(T a, T b) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  return extremum<Max>(a, b);
}

/// NumPy's clip, minimum(maximum(x, lo), hi): NaN stays NaN, lo > hi gives hi, and -0.0 clipped at
/// lo = 0.0 gives 0.0.
template <class T>
EAGERPP_HOST_DEVICE T clip(T x, T lo, T hi) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    if (x != x) return x;
  }
  return extremum<false>(extremum<true>(x, lo), hi);
}

/// Whether T is std::complex<F> (host code only: the complex dtypes are host types).
template <class T>
inline constexpr bool is_complex = false;
template <class F>
inline constexpr bool is_complex<std::complex<F>> = true;

/// NumPy's power of complex numbers (npy_cpow): 1 for a zero exponent; of a zero base, 0 for a
/// positive real exponent, else NaN + NaN j; an integer exponent n with |n| < 100 by repeated
/// squaring (exact for small Gaussian integers: (1+2j)**2 is -3+4j), then its reciprocal for
/// n < 0; any other, the principal value exp(b log a) of the C library's cpow.
template <class C>
C complex_power(C a, C b) noexcept {
  using F = typename C::value_type;
  const auto mul = [](C x, C y) {  // the schoolbook product, as NumPy's
    return C(x.real() * y.real() - x.imag() * y.imag(), x.real() * y.imag() + x.imag() * y.real());
  };
  const F br = b.real(), bi = b.imag();
  if (br == 0 && bi == 0) return C(1, 0);
  if (a.real() == 0 && a.imag() == 0) {
    if (br > 0 && bi == 0) return C(0, 0);
    return C(std::numeric_limits<F>::quiet_NaN(), std::numeric_limits<F>::quiet_NaN());
  }
  if (bi == 0 && br > -100 && br < 100 && br == static_cast<F>(static_cast<int>(br))) {
    int n = static_cast<int>(br);
    if (n == 1) return a;
    if (n == 2) return mul(a, a);
    if (n == 3) return mul(mul(a, a), a);
    C result(1, 0), p = a;
    for (int m = n < 0 ? -n : n;;) {
      if (m & 1) result = mul(result, p);
      m >>= 1;
      if (m == 0) break;
      p = mul(p, p);
    }
    return n < 0 ? C(1, 0) / result : result;
  }
  return std::pow(a, b);
}

/// NumPy's sign: -1, 0 or 1, and NaN for NaN. Of a complex z, the array API's (and NumPy 2's)
/// z / |z|: 0 at 0, NaN + NaN j where a part is NaN, and where a part is infinite the direction it
/// goes to (1 + 0j for inf + 2j, (1 + 1j) / sqrt(2) for inf + inf j).
template <class T>
EAGERPP_HOST_DEVICE T sign(T x) noexcept {
  if constexpr (is_complex<T>) {
    using F = typename T::value_type;
    F a = x.real(), b = x.imag();
    if (std::isnan(a) || std::isnan(b))
      return T(std::numeric_limits<F>::quiet_NaN(), std::numeric_limits<F>::quiet_NaN());
    if (a == 0 && b == 0) return T(0, 0);
    if (std::isinf(a) || std::isinf(b)) {
      a = std::isinf(a) ? std::copysign(F(1), a) : std::copysign(F(0), a);
      b = std::isinf(b) ? std::copysign(F(1), b) : std::copysign(F(0), b);
    }
    const F r = std::abs(T(a, b));
    return T(a / r, b / r);
  } else if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(x != T{0});
  } else {
    if constexpr (std::is_floating_point_v<T>) {
      if (x != x) return x;
    }
    return static_cast<T>((T{0} < x) - (x < T{0}));
  }
}

/// NumPy's absolute value: fabs for floats; integers wrap at the most negative value, as NumPy's.
template <class T>
EAGERPP_HOST_DEVICE T absolute(T x) noexcept {
  if constexpr (std::is_floating_point_v<T>)
    return EAGERPP_MATH(fabs)(x);
  else if constexpr (std::is_unsigned_v<T>)
    return x;
  else
    return x < T{0} ? wrapping_negate(x) : x;
}

/// NumPy's round (half to even: rint under the default rounding mode), ceil and floor: the C
/// library's for floats, the identity on integers.
enum class rounding { rint, ceil, floor };
template <rounding R, class T>
EAGERPP_HOST_DEVICE T to_integral(T x) noexcept {
  if constexpr (!std::is_floating_point_v<T>)
    return x;
  else if constexpr (R == rounding::rint)
    return EAGERPP_MATH(rint)(x);
  else if constexpr (R == rounding::ceil)
    return EAGERPP_MATH(ceil)(x);
  else
    return EAGERPP_MATH(floor)(x);
}

/// expm1, with NumPy's complex form: (expm1(x) cos y - 2 sin^2(y / 2)) + i e^x sin y, exact near 0.
template <class T>
EAGERPP_HOST_DEVICE T expm1(T z) {
  if constexpr (is_complex<T>) {
    using F = typename T::value_type;
    const F x = z.real(), y = z.imag();
    const F half = std::sin(y / 2);
    if (y == 0) return T(std::expm1(x), y);  // keeps a real argument's -0 and inf cases
    return T(std::expm1(x) * std::cos(y) - 2 * half * half, std::exp(x) * std::sin(y));
  } else {
    return EAGERPP_MATH(expm1)(z);
  }
}

/// log1p, for a complex z log(1 + z) with its real part log|1 + z| from log1p near 0.
template <class T>
EAGERPP_HOST_DEVICE T log1p(T z) {
  if constexpr (is_complex<T>) {
    using F = typename T::value_type;
    const F x = z.real(), y = z.imag();
    if (std::abs(x) < F(0.5) && std::abs(y) < F(0.5))
      return T(std::log1p(x * (2 + x) + y * y) / 2, std::atan2(y, 1 + x));
    return std::log(T(1 + x, y));  // y kept as it is: -0.0 selects the branch below the cut
  } else {
    return EAGERPP_MATH(log1p)(z);
  }
}

/// log2, for a complex z log(z) / log(2).
template <class T>
EAGERPP_HOST_DEVICE T log2(T z) {
  if constexpr (is_complex<T>) {
    using F = typename T::value_type;
    const T l = std::log(z);
    return T(l.real() / std::numbers::ln2_v<F>, l.imag() / std::numbers::ln2_v<F>);
  } else {
    return EAGERPP_MATH(log2)(z);
  }
}

// One functor per row of the unary table (ops/unary_list.hpp), `name_fn`: the op on one element,
// the row's `scalar`, in host code and (under nvcc) device code.
#define EAGERPP_UNARY_SCALAR(name, dtypes, grad, scalar) \
  struct name##_fn {                                     \
    template <class T>                                   \
    EAGERPP_HOST_DEVICE T operator()(T x) const {        \
      return static_cast<T>(scalar);                     \
    }                                                    \
  };
EAGERPP_UNARY_OPS(EAGERPP_UNARY_SCALAR)
#undef EAGERPP_UNARY_SCALAR

// One functor per SCALAR row of the binary functions' table (ops/binary_list.hpp), `name_fn`: the
// op on two elements. The constraint keeps xtensor from taking it for a functor of xsimd batches.
#define EAGERPP_BINARY_SCALAR_SCALAR(name, dtypes, ...)                                 \
  struct name##_fn {                                                                    \
    template <class T>                                                                  \
    requires std::is_arithmetic_v<T> EAGERPP_HOST_DEVICE T operator()(T a, T b) const { \
      return static_cast<T>(__VA_ARGS__);                                               \
    }                                                                                   \
  };
#define EAGERPP_BINARY_SCALAR_COMPOSITE(name, dtypes, ...)
#define EAGERPP_BINARY_SCALAR(name, dtypes, value, grad) \
  EAGERPP_BINARY_BY_VALUE(EAGERPP_BINARY_SCALAR, name, dtypes, value)
EAGERPP_BINARY_FUNCTIONS(EAGERPP_BINARY_SCALAR)
#undef EAGERPP_BINARY_SCALAR
#undef EAGERPP_BINARY_SCALAR_COMPOSITE
#undef EAGERPP_BINARY_SCALAR_SCALAR

/// The binary rules above, by name, and the bitwise ops of integers and bools.
enum class rule {
  divide,
  floor_divide,
  mod,
  int_power,
  complex_power,
  minimum,
  maximum,
  bitwise_and,
  bitwise_or,
  bitwise_xor,
  left_shift,
  right_shift
};

/// A rule's name, for the messages of the backends' errors.
constexpr const char* name(rule r) noexcept {
  constexpr const char* names[] = {"divide",
                                   "floor_divide",
                                   "mod",
                                   "power",
                                   "power",
                                   "minimum",
                                   "maximum",
                                   "bitwise_and",
                                   "bitwise_or",
                                   "bitwise_xor",
                                   "bitwise_left_shift",
                                   "bitwise_right_shift"};
  return names[static_cast<int>(r)];
}

/// A binary rule as a function object of two arithmetic (or, for complex_power, complex) scalars,
/// for the element-wise loops of every backend (Eigen's binaryExpr, xtensor's lambda xfunctions,
/// Thrust's transforms). The constraint keeps xtensor from taking it for a functor of xsimd
/// batches.
template <rule R>
struct binary_op {
  template <class T>
  requires(std::is_arithmetic_v<T> || is_complex<T>) EAGERPP_HOST_DEVICE T operator()(
      T a, T b) const noexcept {
    if constexpr (R == rule::divide)
      return divide(a, b);
    else if constexpr (R == rule::floor_divide)
      return floor_divide(a, b);
    else if constexpr (R == rule::mod)
      return mod(a, b);
    else if constexpr (R == rule::int_power)
      return int_power(a, b);
    else if constexpr (R == rule::complex_power)
      return complex_power(a, b);
    else if constexpr (R == rule::bitwise_and)
      return static_cast<T>(a & b);
    else if constexpr (R == rule::bitwise_or)
      return static_cast<T>(a | b);
    else if constexpr (R == rule::bitwise_xor)
      return static_cast<T>(a ^ b);
    else if constexpr (R == rule::left_shift)
      return left_shift(a, b);
    else if constexpr (R == rule::right_shift)
      return right_shift(a, b);
    else
      return minmax<R == rule::maximum>(a, b);
  }
};

}  // namespace ep::detail::numpy
