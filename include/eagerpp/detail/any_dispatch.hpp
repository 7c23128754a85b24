// eagerpp - what ep::AnyTensor is made of: the lists of backend families and dtypes it holds, the
// variant of their tensors, the switch on its index that dispatches an op, and the dtype kinds of
// the op lists' rows
// SPDX-License-Identifier: MIT
#pragma once

#include <array>        // std::array
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int8_t ... std::uint64_t
#include <string_view>  // std::string_view
#include <type_traits>  // std::invoke_result_t, std::is_same_v, std::remove_const_t
#include <utility>      // std::index_sequence
#include <variant>      // std::variant, std::visit, std::get_if

#include "eagerpp/backend.hpp"  // ep::Tensor declared, the dtype concepts, complex64, complex128

namespace ep {

/// A list of backend families (`ep::eigen`, `ep::xtensor`, `ep::cuda`) for ep::basic_any_tensor.
template <template <class> class... Families>
struct any_backends {};

/// A list of dtypes for ep::basic_any_tensor, each a C++ type (`float`, `std::uint8_t`, `bool`).
template <class... T>
struct any_dtypes {};

/// The array API's eleven real dtypes: what ep::AnyTensor holds by default.
using any_real_dtypes =
    any_dtypes<float, double, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
               std::uint16_t, std::uint32_t, std::uint64_t, bool>;
/// The array API's thirteen dtypes: the real ones and complex64, complex128. Opt in with
/// `ep::basic_any_tensor<EAGERPP_ANY_BACKENDS, ep::any_array_api_dtypes>`: each op then also
/// compiles its complex versions.
using any_array_api_dtypes =
    any_dtypes<float, double, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
               std::uint16_t, std::uint32_t, std::uint64_t, bool, complex64, complex128>;

namespace detail {

template <class... Variants>
struct any_concat;
template <class... A>
struct any_concat<std::variant<A...>> {
  using type = std::variant<A...>;
};
template <class... A, class... B, class... Rest>
struct any_concat<std::variant<A...>, std::variant<B...>, Rest...>
    : any_concat<std::variant<A..., B...>, Rest...> {};

template <template <class> class F, class Dtypes>
struct any_family;
template <template <class> class F, class... T>
struct any_family<F, any_dtypes<T...>> {
  using type = std::variant<Tensor<F<T>>...>;
};

template <class... Lists>
struct any_join;
template <template <class> class... A>
struct any_join<any_backends<A...>> {
  using type = any_backends<A...>;
};
template <template <class> class... A, template <class> class... B, class... Rest>
struct any_join<any_backends<A...>, any_backends<B...>, Rest...>
    : any_join<any_backends<A..., B...>, Rest...> {};

/// The T that a callable returns, on request: a variant alternative direct-initialized from it is
/// constructed in place from the callable's return value (the conversion function's prvalue
/// initializes it, as GCC and Clang do per CWG 2327), not moved into the variant from a temporary.
/// The callable is erased to a function pointer, so that the variant's constructors are
/// instantiated once per alternative, not once per op and alternative; an optimizing build inlines
/// the call.
template <class T>
struct any_result {
  void* f;
  T (*call)(void*);
  operator T() const { return call(f); }  // NOLINT(google-explicit-constructor)
};
template <class F>
any_result<std::invoke_result_t<F&>> make_any_result(F& f) {
  return {&f, [](void* p) { return (*static_cast<F*>(p))(); }};
}

[[noreturn, gnu::cold, gnu::noinline]] inline void any_throw_valueless() {
  throw std::bad_variant_access();
}

/// `f(a)` for the alternative `a` that `v` holds, as std::visit does, but as a switch on the index
/// inlined into the op (basic_any_tensor::unary and binary are inlined where the op is called):
/// libstdc++'s std::visit is a function of its own around the same switch, called once per op, with
/// a prologue saving the registers of its largest case and a valueless check (callgrind, Release,
/// n = 100: 10 to 40 fewer instructions per op). A valueless variant (left so by a throwing
/// assignment) throws std::bad_variant_access, as std::visit does. Above 36 alternatives:
/// std::visit.
template <class R, class V, class F>
[[gnu::always_inline]] inline R any_switch(V& v, F& f) {
  constexpr std::size_t n = std::variant_size_v<std::remove_const_t<V>>;
  if constexpr (n > 36) {
    return std::visit(f, v);
  } else {
#define EAGERPP_ANY_CASE(i)          \
  case i:                            \
    if constexpr (i < n) {           \
      return f(*std::get_if<i>(&v)); \
    } else {                         \
      __builtin_unreachable();       \
    }
    switch (v.index()) {
      EAGERPP_ANY_CASE(0)
      EAGERPP_ANY_CASE(1)
      EAGERPP_ANY_CASE(2)
      EAGERPP_ANY_CASE(3)
      EAGERPP_ANY_CASE(4)
      EAGERPP_ANY_CASE(5)
      EAGERPP_ANY_CASE(6)
      EAGERPP_ANY_CASE(7)
      EAGERPP_ANY_CASE(8)
      EAGERPP_ANY_CASE(9)
      EAGERPP_ANY_CASE(10)
      EAGERPP_ANY_CASE(11)
      EAGERPP_ANY_CASE(12)
      EAGERPP_ANY_CASE(13)
      EAGERPP_ANY_CASE(14)
      EAGERPP_ANY_CASE(15)
      EAGERPP_ANY_CASE(16)
      EAGERPP_ANY_CASE(17)
      EAGERPP_ANY_CASE(18)
      EAGERPP_ANY_CASE(19)
      EAGERPP_ANY_CASE(20)
      EAGERPP_ANY_CASE(21)
      EAGERPP_ANY_CASE(22)
      EAGERPP_ANY_CASE(23)
      EAGERPP_ANY_CASE(24)
      EAGERPP_ANY_CASE(25)
      EAGERPP_ANY_CASE(26)
      EAGERPP_ANY_CASE(27)
      EAGERPP_ANY_CASE(28)
      EAGERPP_ANY_CASE(29)
      EAGERPP_ANY_CASE(30)
      EAGERPP_ANY_CASE(31)
      EAGERPP_ANY_CASE(32)
      EAGERPP_ANY_CASE(33)
      EAGERPP_ANY_CASE(34)
      EAGERPP_ANY_CASE(35)
      default:
        any_throw_valueless();
    }
#undef EAGERPP_ANY_CASE
  }
}

/// Which dtypes an op accepts: the op lists' DTYPES (ops/unary_list.hpp).
enum class any_kind { every, numeric, arithmetic, floating, inexact, boolean };

template <any_kind K, class T>
inline constexpr bool any_admits =
    K == any_kind::every || (K == any_kind::numeric && numeric_dtype<T>) ||
    (K == any_kind::arithmetic && (numeric_dtype<T> || complex_dtype<T>)) ||
    (K == any_kind::floating && floating_dtype<T>) ||
    (K == any_kind::inexact && (floating_dtype<T> || complex_dtype<T>)) ||
    (K == any_kind::boolean && std::is_same_v<T, bool>);

/// The kind of a unary row of ops/unary_list.hpp: its DTYPES, but abs also takes complex tensors
/// (|z|, a real tensor: ep::Tensor's overload beside the table's real abs).
constexpr any_kind any_unary_kind(any_kind k, std::string_view name) {
  return name == "abs" ? any_kind::arithmetic : k;
}

inline std::string_view any_expected(any_kind k) {
  switch (k) {
    case any_kind::numeric:
      return "a real numeric dtype (an integer or floating one)";
    case any_kind::arithmetic:
      return "a numeric dtype (an integer, floating or complex one)";
    case any_kind::floating:
      return "float32 or float64";
    case any_kind::inexact:
      return "float32, float64, complex64 or complex128";
    case any_kind::boolean:
      return "bool";
    default:
      return "any dtype";
  }
}

}  // namespace detail

}  // namespace ep
