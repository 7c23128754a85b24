// eagerpp - element functors of the xtensor backend where NumPy's semantics differ from xtensor's
// SPDX-License-Identifier: MIT
#pragma once

// Each functor has a scalar overload and, where a vector form exists, an xsimd batch overload;
// xt::make_lambda_xfunction then takes the vectorized path for contiguous operands.

#include <cmath>        // std::floor, std::fmod, std::copysign, std::pow
#include <cstdint>      // std::int32_t, std::int64_t
#include <limits>       // std::numeric_limits
#include <type_traits>  // std::is_floating_point_v, std::make_unsigned_t

#include <xsimd/xsimd.hpp>

namespace ep::detail::xt_functors {

template <class A>
concept scalar = std::is_arithmetic_v<A>;

/// NumPy's sign: -1, 0 or 1, NaN for NaN (xt::sign gives 0 for NaN).
struct sign_fn {
  template <scalar A>
  A operator()(A x) const {
    if constexpr (std::is_same_v<A, bool>)
      return x;
    else
      return x > A(0) ? A(1) : (x < A(0) ? A(-1) : (x == A(0) ? A(0) : x));
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

/// NumPy's maximum: NaN in either operand gives NaN (std::max and vmaxps do not propagate it).
struct maximum_fn {
  template <scalar A>
  A operator()(A a, A b) const {
    if constexpr (std::is_floating_point_v<A>)
      return (a >= b || a != a) ? a : b;
    else
      return a < b ? b : a;
  }
  template <class A, class Arch>
  xsimd::batch<A, Arch> operator()(const xsimd::batch<A, Arch>& a, const xsimd::batch<A, Arch>& b) const {
    if constexpr (std::is_floating_point_v<A>)
      return xsimd::select((a >= b) | xsimd::isnan(a), a, b);
    else
      return xsimd::max(a, b);
  }
};

/// NumPy's minimum: NaN in either operand gives NaN.
struct minimum_fn {
  template <scalar A>
  A operator()(A a, A b) const {
    if constexpr (std::is_floating_point_v<A>)
      return (a <= b || a != a) ? a : b;
    else
      return b < a ? b : a;
  }
  template <class A, class Arch>
  xsimd::batch<A, Arch> operator()(const xsimd::batch<A, Arch>& a, const xsimd::batch<A, Arch>& b) const {
    if constexpr (std::is_floating_point_v<A>)
      return xsimd::select((a <= b) | xsimd::isnan(a), a, b);
    else
      return xsimd::min(a, b);
  }
};

/// NumPy's clip: max(lo, min(x, hi)), NaN stays NaN.
template <class T>
struct clip_fn {
  T lo, hi;
  template <scalar A>
  A operator()(A x) const {
    return x < lo ? lo : (hi < x ? hi : x);
  }
  template <class A, class Arch>
  xsimd::batch<A, Arch> operator()(const xsimd::batch<A, Arch>& x) const {
    using batch = xsimd::batch<A, Arch>;
    const batch l(lo), h(hi);
    return xsimd::select(x < l, l, xsimd::select(h < x, h, x));
  }
};

/// Integer division truncating toward zero, as C++ and C do; 0 for a zero divisor (never UB).
struct int_divide_fn {
  template <scalar A>
  A operator()(A a, A b) const {
    if (b == A(0)) return A(0);
    if (b == A(-1)) return static_cast<A>(std::make_unsigned_t<A>(0) - static_cast<std::make_unsigned_t<A>>(a));
    return static_cast<A>(a / b);
  }
};

/// NumPy's floor_divide: floor of the quotient; integer division by zero gives 0. For floats it
/// follows npy_divmod, so 1 // 0.1 is 9 as in NumPy, not floor(1 / 0.1) = 10.
struct floor_divide_fn {
  template <scalar A>
  A operator()(A a, A b) const {
    if constexpr (std::is_floating_point_v<A>) {
      if (b == A(0)) return a / b;
      const A mod = std::fmod(a, b);
      A div = (a - mod) / b;
      if (mod != A(0) && ((b < A(0)) != (mod < A(0)))) div -= A(1);
      if (div == A(0)) return std::copysign(A(0), a / b);
      A floordiv = std::floor(div);
      if (div - floordiv > A(0.5)) floordiv += A(1);
      return floordiv;
    } else {
      if (b == A(0)) return A(0);
      if (b == A(-1)) return static_cast<A>(std::make_unsigned_t<A>(0) - static_cast<std::make_unsigned_t<A>>(a));
      A q = static_cast<A>(a / b);
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return q;
    }
  }
};

/// NumPy's mod (remainder): the result takes the divisor's sign; integer mod by zero gives 0.
struct mod_fn {
  template <scalar A>
  A operator()(A a, A b) const {
    if constexpr (std::is_floating_point_v<A>) {
      if (b == A(0)) return std::fmod(a, b);
      A mod = std::fmod(a, b);
      if (mod != A(0)) {
        if ((b < A(0)) != (mod < A(0))) mod += b;
      } else {
        mod = std::copysign(A(0), b);
      }
      return mod;
    } else {
      if (b == A(0) || b == A(-1)) return A(0);
      A r = static_cast<A>(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<A>(r + b);
      return r;
    }
  }
};

/// Floating power with std::pow: exact where the result is representable, 0^0 = 1.
struct float_power_fn {
  template <class T>
  T operator()(T a, T b) const {
    return std::pow(a, b);
  }
};

/// Integer power by repeated squaring, wrapping on overflow; a negative exponent gives 0 except for
/// bases 1 and -1 (NumPy raises there).
struct int_power_fn {
  template <scalar A>
  A operator()(A base, A exp) const {
    using U = std::make_unsigned_t<A>;
    if (exp < A(0)) {
      if (base == A(1)) return A(1);
      if (base == A(-1)) return (exp % 2 == 0) ? A(1) : A(-1);
      return A(0);
    }
    U result = 1, b = static_cast<U>(base);
    for (U e = static_cast<U>(exp); e != 0; e >>= 1) {
      if (e & 1U) result *= b;
      b *= b;
    }
    return static_cast<A>(result);
  }
};

/// Float to integer conversion without UB: NaN and out-of-range values give the lowest integer,
/// as NumPy's casts do on x86.
template <class To>
struct float_to_int_fn {
  template <scalar A>
  To operator()(A x) const {
    constexpr A lo = static_cast<A>(std::numeric_limits<To>::min());  // -2^(bits-1), exact
    constexpr A hi = -lo;
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
struct where_fn {
  template <scalar A>
  A operator()(bool c, A x, A y) const {
    return c ? x : y;
  }
};

}  // namespace ep::detail::xt_functors
