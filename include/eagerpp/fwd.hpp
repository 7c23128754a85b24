// eagerpp - forward declarations and the scalar types a tensor may hold
// SPDX-License-Identifier: MIT
#pragma once

#include <complex>      // std::complex
#include <concepts>     // std::same_as
#include <cstdint>      // std::int8_t ... std::uint64_t
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_floating_point_v, std::conditional_t

namespace ep {

namespace detail {
template <class...>
inline constexpr bool always_false = false;
}  // namespace detail

/// The array API standard's eleven real dtypes: bool, the signed and unsigned integers of 8, 16, 32
/// and 64 bits, float (float32) and double (float64).
template <class T>
concept real_dtype = std::same_as<T, bool> || std::same_as<T, float> || std::same_as<T, double> ||
    std::same_as<T, std::int8_t> || std::same_as<T, std::int16_t> ||
    std::same_as<T, std::int32_t> || std::same_as<T, std::int64_t> ||
    std::same_as<T, std::uint8_t> || std::same_as<T, std::uint16_t> ||
    std::same_as<T, std::uint32_t> || std::same_as<T, std::uint64_t>;

/// The standard's complex dtypes, complex64 and complex128: std::complex<float> and
/// std::complex<double>, stored as NumPy and DLPack store them (real and imaginary parts
/// interleaved).
template <class T>
concept complex_dtype =
    std::same_as<T, std::complex<float>> || std::same_as<T, std::complex<double>>;

/// complex64: two float32, the real and the imaginary part.
using complex64 = std::complex<float>;
/// complex128: two float64.
using complex128 = std::complex<double>;

/// The element types a tensor may hold: the standard's thirteen dtypes, real and complex.
template <class T>
concept dtype = real_dtype<T> || complex_dtype<T>;

/// float or double: the real floating dtypes.
template <class T>
concept floating_dtype = real_dtype<T> && std::is_floating_point_v<T>;

/// A real arithmetic element type: every real dtype but bool (ops that order their elements, such
/// as clip, max or sort, take these).
template <class T>
concept numeric_dtype = real_dtype<T> && !std::same_as<T, bool>;

/// A real floating or complex dtype: the dtypes of exp, log, sqrt, the trigonometric functions and
/// true division.
template <class T>
concept inexact_dtype = floating_dtype<T> || complex_dtype<T>;

/// A dtype with arithmetic (+, -, *, /, sum, prod, matmul): every dtype but bool, complex
/// included (the array API's "numeric").
template <class T>
concept arithmetic_dtype = numeric_dtype<T> || complex_dtype<T>;

/// A signed or unsigned integer dtype.
template <class T>
concept integer_dtype = real_dtype<T> && std::is_integral_v<T> && !std::same_as<T, bool>;

/// An unsigned integer dtype: uint8, uint16, uint32 or uint64.
template <class T>
concept unsigned_dtype = integer_dtype<T> && std::is_unsigned_v<T>;

namespace detail {
template <class T>
struct real_of {
  using type = T;
};
template <class F>
struct real_of<std::complex<F>> {
  using type = F;
};
}  // namespace detail

/// The dtype of a complex dtype's parts (float for complex64, double for complex128), and T itself
/// for a real dtype: the dtype of `abs`, `real` and `imag`.
template <class T>
using real_of_t = typename detail::real_of<T>::type;

/// The complex dtype whose parts are the floating dtype F.
template <class F>
using complex_of_t = std::complex<F>;

namespace detail {
template <class S>
inline constexpr bool complex_scalar = complex_dtype<S>;

template <class T, class S>
constexpr auto scalar_result_tag() {
  if constexpr (complex_dtype<T>)
    return T{};  // complex64 stays complex64
  else if constexpr (complex_scalar<S>) {
    if constexpr (std::is_floating_point_v<T>)
      return std::complex<T>{};  // float32 with a complex number: complex64
    else
      return S{};  // an integer or bool tensor takes the scalar's complex dtype
  } else if constexpr (std::is_floating_point_v<T>)
    return T{};  // float32 stays float32
  else if constexpr (std::is_floating_point_v<S>) {
    if constexpr (std::same_as<S, float>)
      return float{};  // an explicit float: float32
    else
      return double{};  // double (NumPy's Python float)
  } else if constexpr (std::same_as<T, bool> && !std::same_as<S, bool>)
    return std::int64_t{};  // NumPy's int
  else
    return T{};  // integers keep the tensor's
}
}  // namespace detail

/// The dtype of `tensor op scalar` for a tensor of dtype T and a C++ scalar of type S, decided at
/// compile time as NumPy decides it for Python scalars: a floating or complex tensor keeps its
/// dtype; an integer or bool tensor with a `double` gives float64, with a `float` float32; a bool
/// tensor with an integer gives int64; a real tensor with a `std::complex<F>` gives the complex
/// dtype of its own floating dtype (float32: complex64), or of F for an integer or bool tensor;
/// otherwise the tensor's dtype is kept (the scalar is converted to it).
template <class T, class S>
using scalar_result_t = decltype(detail::scalar_result_tag<T, S>());

/// The dtype of sum, prod and cumsum of a tensor of dtype T: int64 for bool (NumPy counts), the
/// 64-bit integer of T's signedness for the 8- and 16-bit integers (as NumPy accumulates them, so
/// a uint8 image sums without wrapping), T otherwise.
template <class T>
using sum_dtype_t = std::conditional_t<
    std::same_as<T, bool> || (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) < 4),
    std::int64_t,
    std::conditional_t<std::is_unsigned_v<T> && !std::same_as<T, bool> && (sizeof(T) < 4),
                       std::uint64_t, T>>;

/// The dtype of `a / b` (NumPy: `true_divide`): floating and complex tensors keep theirs, integer
/// ones give float64.
template <class T>
using true_divide_t =
    std::conditional_t<std::is_floating_point_v<T> || complex_dtype<T>, T, double>;

/// NumPy's name of a dtype: "bool", "int8" ... "uint64", "float32", "float64", "complex64",
/// "complex128".
template <dtype T>
constexpr std::string_view dtype_name() noexcept {
  if constexpr (complex_dtype<T>)
    return std::same_as<T, complex64> ? "complex64" : "complex128";
  else if constexpr (std::same_as<T, bool>)
    return "bool";
  else if constexpr (std::same_as<T, float>)
    return "float32";
  else if constexpr (std::same_as<T, double>)
    return "float64";
  else if constexpr (std::is_signed_v<T>)
    return sizeof(T) == 1 ? "int8" : sizeof(T) == 2 ? "int16" : sizeof(T) == 4 ? "int32" : "int64";
  else
    return sizeof(T) == 1   ? "uint8"
           : sizeof(T) == 2 ? "uint16"
           : sizeof(T) == 4 ? "uint32"
                            : "uint64";
}

}  // namespace ep
