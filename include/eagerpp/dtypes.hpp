// eagerpp - the array API's data type functions at compile time: result_type, can_cast, isdtype,
// finfo, iinfo, over the standard's thirteen dtypes as C++ types
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>      // std::int8_t ... std::uint64_t
#include <limits>       // std::numeric_limits
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_same_v, std::is_integral_v, std::is_signed_v

#include "eagerpp/fwd.hpp"

namespace ep {

namespace detail {

template <class T>
inline constexpr bool signed_int = std::is_integral_v<T>&& std::is_signed_v<T>;
template <class T>
inline constexpr bool unsigned_int =
    std::is_integral_v<T> && !std::is_signed_v<T> && !std::is_same_v<T, bool>;

/// The signed integer of `bytes` bytes.
template <int Bytes>
using signed_of = std::conditional_t<
    Bytes == 1, std::int8_t,
    std::conditional_t<Bytes == 2, std::int16_t,
                       std::conditional_t<Bytes == 4, std::int32_t, std::int64_t>>>;

template <class A, class B>
constexpr auto promote_tag();

/// A complex dtype with another dtype: the complex dtype of their parts' promotion, always floating
/// as one part is (complex64 with float64: complex128; with int32, as NumPy: complex128).
template <class A, class B>
constexpr auto promote_complex() {
  return complex_of_t<decltype(promote_tag<real_of_t<A>, real_of_t<B>>())>{};
}

template <class A, class B>
constexpr auto promote_tag() {
  if constexpr (std::is_same_v<A, B>) {
    return A{};
  } else if constexpr (complex_dtype<A> || complex_dtype<B>) {
    return promote_complex<A, B>();
  } else if constexpr (std::is_same_v<A, bool>) {
    return B{};
  } else if constexpr (std::is_same_v<B, bool>) {
    return A{};
  } else if constexpr (std::is_floating_point_v<A> && std::is_floating_point_v<B>) {
    return std::conditional_t<(sizeof(A) > sizeof(B)), A, B>{};
  } else if constexpr (std::is_floating_point_v<A> || std::is_floating_point_v<B>) {
    // Mixed kinds, which the standard leaves undefined, as NumPy 2 promotes arrays: an integer of
    // up to 16 bits fits float32's 24-bit significand, wider ones go to float64.
    using F = std::conditional_t<std::is_floating_point_v<A>, A, B>;
    using I = std::conditional_t<std::is_floating_point_v<A>, B, A>;
    if constexpr (std::is_same_v<F, double> || sizeof(I) <= 2)
      return F{};
    else
      return double{};
  } else if constexpr (signed_int<A> == signed_int<B>) {
    return std::conditional_t<(sizeof(A) > sizeof(B)), A, B>{};
  } else {
    using S = std::conditional_t<signed_int<A>, A, B>;
    using U = std::conditional_t<signed_int<A>, B, A>;
    static_assert(sizeof(U) < 8,
                  "ep::result_type: the array API leaves uint64 with a signed integer undefined "
                  "(NumPy gives float64); convert one operand with astype first");
    if constexpr (sizeof(S) > sizeof(U))
      return S{};
    else
      return signed_of<2 * sizeof(U)>{};
  }
}

/// Two dtypes whose promotion the array API defines or NumPy does for arrays: every pair but
/// uint64 with a signed integer (the standard leaves it undefined; NumPy gives float64).
template <class T1, class T2>
concept promotable_dtypes = !((std::is_same_v<T1, std::uint64_t> && signed_int<T2>) ||
                              (std::is_same_v<T2, std::uint64_t> && signed_int<T1>));

/// Backends of one library (`B1::rebind<T2>` is B2) whose dtypes promote: a two-tensor op between
/// them converts both to `promoted_t` first.
template <class B1, class B2>
concept promotable_backends =
    std::is_same_v<typename B1::template rebind<typename B2::value_type>, B2> &&
    promotable_dtypes<typename B1::value_type, typename B2::value_type>;

/// The dtype two promotable dtypes give, by the array API's table (`ep::result_type_t`).
template <class T1, class T2>
using promoted_t = decltype(promote_tag<T1, T2>());

}  // namespace detail

/// The dtype the array API's type promotion gives two dtypes (`result_type`): within a kind the
/// wider one, a signed with an unsigned integer the smallest signed integer holding both, bool with
/// anything the other, a real floating with a complex dtype the complex dtype of the wider parts
/// (float64 with complex64: complex128). Mixed integer and floating dtypes, which the standard
/// leaves undefined, as NumPy 2 promotes arrays (int8/int16/uint8/uint16 with float32: float32,
/// wider: float64; int8 with complex64: complex64, int32: complex128). uint64 with a signed integer
/// is a compile-time error.
template <dtype A, dtype... Rest>
struct result_type {
  using type = A;
};
template <dtype A, dtype B, dtype... Rest>
struct result_type<A, B, Rest...> {
  using type = typename result_type<decltype(detail::promote_tag<A, B>()), Rest...>::type;
};
template <dtype... T>
using result_type_t = typename result_type<T...>::type;

/// Whether From converts to To by the promotion rules (`can_cast`): their result_type is To.
/// Across kinds only bool and integers to floating dtypes wide enough, and real dtypes to complex
/// dtypes whose parts they cast to (NumPy's "safe" casting); complex to real never.
template <dtype From, dtype To>
constexpr bool can_cast() {
  if constexpr (std::is_same_v<From, To> || std::is_same_v<From, bool>) {
    return true;
  } else if constexpr (complex_dtype<From>) {
    return complex_dtype<To> && sizeof(To) >= sizeof(From);
  } else if constexpr (complex_dtype<To>) {
    return can_cast<From, real_of_t<To>>();
  } else if constexpr (std::is_same_v<To, bool>) {
    return false;
  } else if constexpr (std::is_floating_point_v<From> && !std::is_floating_point_v<To>) {
    return false;
  } else if constexpr (detail::unsigned_int<From> && detail::signed_int<To>) {
    return sizeof(To) > sizeof(From);
  } else if constexpr (detail::signed_int<From> && detail::unsigned_int<To>) {
    return false;
  } else if constexpr (std::is_floating_point_v<To> && !std::is_floating_point_v<From>) {
    return std::is_same_v<To, double> || sizeof(From) <= 2;
  } else {
    return sizeof(To) >= sizeof(From);
  }
}

/// Whether T is of `kind` (`isdtype`): "bool", "signed integer", "unsigned integer", "integral",
/// "real floating", "complex floating", "numeric". Throws nothing: an unknown kind is false.
template <dtype T>
constexpr bool isdtype(std::string_view kind) {
  if (kind == "bool") return std::is_same_v<T, bool>;
  if (kind == "signed integer") return detail::signed_int<T>;
  if (kind == "unsigned integer") return detail::unsigned_int<T>;
  if (kind == "integral") return detail::signed_int<T> || detail::unsigned_int<T>;
  if (kind == "real floating") return std::is_floating_point_v<T>;
  if (kind == "complex floating") return complex_dtype<T>;
  if (kind == "numeric") return !std::is_same_v<T, bool>;
  return false;
}

/// Machine limits of a floating dtype (`finfo`): its bits, eps (the distance from 1 to the next
/// value), max, min (the most negative finite value) and smallest_normal. For a complex dtype, as
/// the standard says, those of its parts (finfo<complex64> is float32's, `bits` 32).
template <class T>
struct finfo : finfo<real_of_t<T>> {};
template <class T>
requires std::is_floating_point_v<T> ||(!complex_dtype<T>)struct finfo<T> {
  static_assert(std::is_floating_point_v<T>,
                "ep::finfo: T must be a floating or complex dtype (float, double, complex64, "
                "complex128); iinfo is for integers");
  static constexpr int bits = static_cast<int>(sizeof(T) * 8);
  static constexpr T eps = std::numeric_limits<T>::epsilon();
  static constexpr T max = std::numeric_limits<T>::max();
  static constexpr T min = std::numeric_limits<T>::lowest();
  static constexpr T smallest_normal = std::numeric_limits<T>::min();
};

/// Machine limits of an integer dtype (`iinfo`): its bits, max and min.
template <class T>
struct iinfo {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>,
                "ep::iinfo: T must be an integer dtype; finfo is for floating dtypes");
  static constexpr int bits = static_cast<int>(sizeof(T) * 8);
  static constexpr T max = std::numeric_limits<T>::max();
  static constexpr T min = std::numeric_limits<T>::min();
};

}  // namespace ep
