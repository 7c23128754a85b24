// eagerpp - scalar functors with NumPy semantics for the Eigen backend (floor_divide, mod, integer power)
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::fmod, std::floor, std::copysign
#include <type_traits>  // std::is_integral_v, std::make_unsigned_t

namespace ep::detail {

// Integer -x computed modulo 2^bits, as NumPy does for the most negative value (no UB).
template <class T>
constexpr T eigen_wrapping_negate(T a) noexcept {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U{0} - static_cast<U>(a));
}

/// Division: IEEE for floats; for integers C++ truncation, with x / 0 == 0 and no overflow trap.
template <class T>
struct eigen_divide_op {
  T operator()(T a, T b) const noexcept {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return T{0};
      if (b == -1) return eigen_wrapping_negate(a);
    }
    return a / b;
  }
};

/// NumPy floor_divide: floor of the quotient; integer x // 0 == 0; floats follow npy_divmod.
template <class T>
struct eigen_floor_divide_op {
  T operator()(T a, T b) const noexcept {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return T{0};
      if (b == -1) return eigen_wrapping_negate(a);
      const T q = a / b;
      return (a % b != 0 && ((a < 0) != (b < 0))) ? static_cast<T>(q - 1) : q;
    } else {
      if (b == 0) return a / b;
      const T mod = std::fmod(a, b);
      T div = (a - mod) / b;
      if (mod != 0 && ((b < 0) != (mod < 0))) div -= T{1};
      if (div == 0) return std::copysign(T{0}, a / b);
      T floordiv = std::floor(div);
      if (div - floordiv > T{0.5}) floordiv += T{1};
      return floordiv;
    }
  }
};

/// NumPy remainder (mod): the remainder takes the divisor's sign; integer x % 0 == 0.
template <class T>
struct eigen_mod_op {
  T operator()(T a, T b) const noexcept {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0 || b == -1) return T{0};
      const T r = a % b;
      return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
    } else {
      T mod = std::fmod(a, b);
      if (b == 0) return mod;
      if (mod != 0) {
        if ((b < 0) != (mod < 0)) mod += b;
      } else {
        mod = std::copysign(T{0}, b);
      }
      return mod;
    }
  }
};

/// Integer power by repeated squaring, wrapping on overflow. A negative exponent gives 0, except
/// for the bases 1 and -1 (NumPy raises there; we must not crash).
template <class T>
struct eigen_int_power_op {
  T operator()(T a, T b) const noexcept {
    if (b < 0) {
      if (a == 1) return T{1};
      if (a == -1) return (b & 1) ? T{-1} : T{1};
      return T{0};
    }
    using U = std::make_unsigned_t<T>;
    U result = 1;
    U base = static_cast<U>(a);
    for (U e = static_cast<U>(b); e != 0; e >>= 1) {
      if (e & 1U) result *= base;
      base *= base;
    }
    return static_cast<T>(result);
  }
};

}  // namespace ep::detail
