// eagerpp - functions of the Python array API standard (2024.12) written with the facade's ops:
// creation (eye, empty, tril, triu), element-wise (reciprocal, positive, trunc, isfinite,
// logaddexp, hypot, logical_xor, atan2, copysign, nextafter, signbit), bitwise ops, complex parts,
// statistics (var, stddev, count_nonzero), the standard's names for ops eagerpp spells as NumPy
// does (acos, concat, permute_dims, ...) and the methods of them all; manipulation is in
// ops/array_api_manipulation.hpp, sorting, searching and sets in ops/array_api_sets.hpp
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::max, std::min
#include <concepts>     // std::integral
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <optional>     // std::optional
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple
#include <type_traits>  // std::is_floating_point_v, std::is_same_v
#include <utility>      // std::move
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/axes.hpp"
#include "eagerpp/detail/numpy_math.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/functions.hpp"
#include "eagerpp/ops/array_api_manipulation.hpp"
#include "eagerpp/ops/array_api_sets.hpp"
#include "eagerpp/ops/shape.hpp"
#include "eagerpp/tensor.hpp"

/// Every function here is a composition of facade ops, so it runs on every backend and is
/// differentiated by the ops' own rules; the names and semantics are the array API's (special
/// cases included), with its keyword arguments as trailing C++ arguments.
namespace ep {

namespace detail {

/// The mask `j - i <= k` (lower: true) or `j - i >= k` (lower: false) of a (rows, cols) matrix,
/// as a bool tensor of backend B (tril, triu, eye).
template <backend B>
Tensor<typename B::template rebind<bool>> band_mask(std::int64_t rows, std::int64_t cols,
                                                    std::int64_t k, int side) {
  using I = typename B::template rebind<std::int64_t>;
  const auto i = Tensor<I>(I::arange(0, 1, rows)).reshape({rows, 1});
  const auto j = Tensor<I>(I::arange(0, 1, cols)).reshape({1, cols});
  const auto ik = i + k;  // compared with j by broadcasting: no (rows, cols) grid of indices
  if (side < 0) return j <= ik;
  if (side > 0) return j >= ik;
  return j == ik;
}

/// tril (side -1) or triu (side +1) of the last two axes of x.
template <backend B>
Tensor<B> triangle(std::string_view op, const Tensor<B>& x, std::int64_t k, int side) {
  const Shape s = x.shape();
  if (s.size() < 2)
    throw value_error(
        fmt::format("{}: x has shape {}; expected at least two axes (a matrix or a stack of them)",
                    op, s.str()));
  const auto mask = band_mask<B>(s[s.size() - 2], s[s.size() - 1], k, side);
  return where(mask, x, typename B::value_type(0));
}

template <class T>
inline constexpr bool floating = std::is_floating_point_v<T>;

}  // namespace detail

// --- creation ------------------------------------------------------------------------------------

/// The (n_rows, n_cols) matrix with ones on the k-th diagonal and zeros elsewhere (array API:
/// `eye`; n_cols defaults to n_rows; k > 0 above the main diagonal, k < 0 below).
template <backend B>
Tensor<B> eye(std::int64_t n_rows, std::optional<std::int64_t> n_cols = std::nullopt,
              std::int64_t k = 0) {
  const std::int64_t cols = n_cols.value_or(n_rows);
  if (n_rows < 0 || cols < 0)
    throw value_error(
        fmt::format("eye: got {} rows and {} columns; expected extents >= 0", n_rows, cols));
  // Zeros with ones put at the diagonal's flat positions i * (cols + 1) + k: one fill and one
  // scatter of its length, no index grid.
  using T = typename B::value_type;
  using I = typename B::template rebind<std::int64_t>;
  const std::int64_t first = std::max<std::int64_t>(0, -k);
  const std::int64_t length = std::max<std::int64_t>(0, std::min(n_rows, cols - k) - first);
  auto flat = B::full(Shape{n_rows * cols}, T(0));
  if (length > 0)
    flat = B::put(flat, I::arange(first * (cols + 1) + k, cols + 1, length),
                  B::full(Shape{length}, T(1)));
  return Tensor<B>(B::reshape(flat, Shape{n_rows, cols}));
}

/// A tensor of `shape` whose elements the caller overwrites (array API: `empty`). eagerpp gives
/// zeros: the standard leaves the values unspecified, and a buffer from the cache may hold another
/// tensor's old values.
template <backend B>
Tensor<B> empty(const Shape& shape) {
  return zeros<B>(shape);
}

/// `empty` of x's shape and dtype (array API: `empty_like`): zeros.
template <backend B>
Tensor<B> empty_like(const Tensor<B>& x) {
  return x.zeros_like();
}

/// x with the elements above the k-th diagonal of its last two axes zeroed (array API: `tril`).
template <backend B>
Tensor<B> tril(const Tensor<B>& x, std::int64_t k = 0) {
  return detail::triangle("tril", x, k, -1);
}

/// x with the elements below the k-th diagonal of its last two axes zeroed (array API: `triu`).
template <backend B>
Tensor<B> triu(const Tensor<B>& x, std::int64_t k = 0) {
  return detail::triangle("triu", x, k, 1);
}

// --- element-wise --------------------------------------------------------------------------------

/// 1 / x (array API: `reciprocal`; floating dtypes).
template <backend B>
Tensor<B> reciprocal(const Tensor<B>& x) {
  static_assert(detail::floating<typename B::value_type>,
                "ep::reciprocal: x must be of a floating dtype (convert with astype first)");
  return typename B::value_type(1) / x;
}

/// x itself (array API: `positive`, unary +).
template <backend B>
Tensor<B> positive(const Tensor<B>& x) {
  return x;
}

/// x rounded toward zero (array API: `trunc`): ceil below zero, floor elsewhere, so -0.5 gives -0
/// and infinities, zeros and NaN are returned as they are. Integers are returned as they are.
template <backend B>
Tensor<B> trunc(const Tensor<B>& x) {
  if constexpr (detail::floating<typename B::value_type>) {
    return where(x < 0, x.ceil(), x.floor());
  } else {
    return x;
  }
}

/// Whether each element is finite, neither infinite nor NaN (array API: `isfinite`; of a complex
/// element, both parts); true for every integer and bool.
template <backend B>
Tensor<typename B::template rebind<bool>> isfinite(const Tensor<B>& x) {
  if constexpr (detail::floating<typename B::value_type> || complex_dtype<typename B::value_type>) {
    return x.isnan().logical_or(x.isinf()).logical_not();
  } else {
    return ones<typename B::template rebind<bool>>(x.shape());
  }
}

namespace detail {

/// Whether x's sign bit is set, element by element: copysign(1, x) < 0.
template <backend B>
typename Tensor<B>::bool_tensor sign_bit(const Tensor<B>& x) {
  const auto unit = make_constant<Tensor<B>>(elementwise(&B::copysign, x.full_scalar(1), x));
  return unit < typename B::value_type(0);
}

/// a - b, and 0 where a == b (so that two equal infinities give 0, not NaN).
template <backend B>
Tensor<B> tied_difference(const Tensor<B>& a, const Tensor<B>& b) {
  return where(a == b, typename B::value_type(0), a - b);
}

// The gradient rules of the binary functions (ops/binary_list.hpp), `name_rule`: for a RULE row,
// its two expressions, each summed back to its operand's shape; for a CONSTANT row, a marker that
// the result is a constant of the tape.
#define EAGERPP_BINARY_GRAD_RULE(da, db)                                                    \
  std::tuple<Tn, Tn> operator()([[maybe_unused]] const Tn& g, [[maybe_unused]] const Tn& y, \
                                const Tn& a, const Tn& b) const {                           \
    return {unbroadcast(da, a.shape()), unbroadcast(db, b.shape())};                        \
  }
#define EAGERPP_BINARY_GRAD_CONSTANT static constexpr bool constant = true;
#define EAGERPP_BINARY_RULE(name, dtypes, value, grad) \
  template <class Tn>                                  \
  struct name##_rule : takes<Tn, 2> {                  \
    using value_type = typename Tn::value_type;        \
    EAGERPP_BINARY_GRAD_##grad                         \
  };
EAGERPP_BINARY_FUNCTIONS(EAGERPP_BINARY_RULE)
#undef EAGERPP_BINARY_RULE
#undef EAGERPP_BINARY_GRAD_CONSTANT
#undef EAGERPP_BINARY_GRAD_RULE

/// A binary function of the table: checks that the operands broadcast, naming `op`, computes
/// `value(a, b)` (without recording its ops) and records `Rule`, or makes a constant of the tape
/// for a CONSTANT row.
template <class Rule, backend B, class Value>
Tensor<B> binary_function(std::string_view op, const Tensor<B>& a, const Tensor<B>& b,
                          const Value& value) {
  check_broadcast(op, a, b);
  if (active_tape_count() == 0) [[likely]]
    return value(a, b);
  auto y = [&] {
    no_record_scope quiet;
    return value(a, b);
  }();
  if constexpr (requires { Rule::constant; })
    return y;
  else
    return make_result<Tensor<B>>(typename B::raw_type(y.raw()), Rule{}, a, b);
}

}  // namespace detail

// The binary functions of the table (ops/binary_list.hpp), `ep::name(a, b)` of two tensors of one
// dtype: a SCALAR row computes the backend's `B::name`, a COMPOSITE row its expression (which, as
// the rules, may call the helpers above: tied_difference, sign_bit).
#define EAGERPP_BINARY_VALUE_SCALAR(name, dtypes, ...)                            \
  [](const Tensor<B>& x, const Tensor<B>& y) {                                    \
    return detail::make_constant<Tensor<B>>(detail::elementwise(&B::name, x, y)); \
  }
#define EAGERPP_BINARY_VALUE_COMPOSITE(name, dtypes, ...)       \
  [](const Tensor<B>& a, const Tensor<B>& b) {                  \
    using value_type [[maybe_unused]] = typename B::value_type; \
    using namespace detail; /* the rows' helpers */             \
    return Tensor<B>(__VA_ARGS__);                              \
  }
#define EAGERPP_BINARY_REQUIRE_FLOAT(op)                  \
  static_assert(detail::floating<typename B::value_type>, \
                "ep::" op ": the operands must be of a floating dtype (convert with astype)")
#define EAGERPP_BINARY_FUNCTION(name, dtypes, value, grad)                                \
  template <backend B>                                                                    \
  Tensor<B> name(const Tensor<B>& a, const Tensor<B>& b) {                                \
    EAGERPP_BINARY_REQUIRE_##dtypes(#name);                                               \
    return detail::binary_function<detail::name##_rule<Tensor<B>>>(                       \
        #name, a, b, EAGERPP_BINARY_BY_VALUE(EAGERPP_BINARY_VALUE, name, dtypes, value)); \
  }
EAGERPP_BINARY_FUNCTIONS(EAGERPP_BINARY_FUNCTION)
#undef EAGERPP_BINARY_FUNCTION
#undef EAGERPP_BINARY_REQUIRE_FLOAT
#undef EAGERPP_BINARY_VALUE_COMPOSITE
#undef EAGERPP_BINARY_VALUE_SCALAR

/// Whether the sign bit of each element is set (array API: `signbit`; floating dtypes): true for
/// -0.0 and a NaN with its sign bit set, which `x < 0` misses.
template <backend B>
typename Tensor<B>::bool_tensor signbit(const Tensor<B>& x) {
  static_assert(detail::floating<typename B::value_type>,
                "ep::signbit: x must be of a floating dtype (for integers, compare: x < 0)");
  return detail::sign_bit(x);
}

/// The exclusive or of two bool tensors (array API: `logical_xor`; broadcast).
template <backend B>
Tensor<B> logical_xor(const Tensor<B>& a, const Tensor<B>& b) {
  static_assert(std::is_same_v<typename B::value_type, bool>,
                "ep::logical_xor: the operands must be bool tensors (compare with a value first)");
  return a != b;
}

// --- bitwise ---------------------------------------------------------------------------------------

namespace detail {
/// A bitwise op of two integer (Bool: or bool) tensors through the backends' `zip_rule<R>`,
/// broadcast, naming `op`; integers have no gradient, so the result is a constant of the tape.
template <numpy::rule R, bool Bool, backend B>
Tensor<B> bitwise(std::string_view op, const Tensor<B>& a, const Tensor<B>& b) {
  using T = typename B::value_type;
  static_assert(integer_dtype<T> || (Bool && std::is_same_v<T, bool>),
                "ep::bitwise_*: the operands must be integer tensors (and, or, xor, invert: also "
                "bool); convert with astype first");
  check_broadcast(op, a, b);
  return make_constant<Tensor<B>>(elementwise(&B::template zip_rule<R>, a, b));
}
}  // namespace detail

/// The bitwise and, or and exclusive or of two integer or bool tensors (array API: `bitwise_and`,
/// `bitwise_or`, `bitwise_xor`; broadcast; the operators `&`, `|`, `^`). On bool: logical.
template <backend B>
Tensor<B> bitwise_and(const Tensor<B>& a, const Tensor<B>& b) {
  return detail::bitwise<detail::numpy::rule::bitwise_and, true>("bitwise_and", a, b);
}
template <backend B>
Tensor<B> bitwise_or(const Tensor<B>& a, const Tensor<B>& b) {
  return detail::bitwise<detail::numpy::rule::bitwise_or, true>("bitwise_or", a, b);
}
template <backend B>
Tensor<B> bitwise_xor(const Tensor<B>& a, const Tensor<B>& b) {
  return detail::bitwise<detail::numpy::rule::bitwise_xor, true>("bitwise_xor", a, b);
}
/// Every bit flipped, ~x (array API: `bitwise_invert`; the operator `~`); on bool: logical not.
template <backend B>
Tensor<B> bitwise_invert(const Tensor<B>& x) {
  using T = typename B::value_type;
  if constexpr (std::is_same_v<T, bool>)
    return x.logical_not();
  else
    return detail::bitwise<detail::numpy::rule::bitwise_xor, false>("bitwise_invert", x,
                                                                    x.full_scalar(T(-1)));
}
/// a shifted left or right by b bits (array API: `bitwise_left_shift`, `bitwise_right_shift`;
/// integers, broadcast; the operators `<<`, `>>`). As NumPy: a count outside [0, bits) shifts every
/// bit out (0, or -1 for a negative a shifted right), where the standard leaves it undefined; a
/// right shift keeps the sign (arithmetic) and a left shift wraps.
template <backend B>
Tensor<B> bitwise_left_shift(const Tensor<B>& a, const Tensor<B>& b) {
  return detail::bitwise<detail::numpy::rule::left_shift, false>("bitwise_left_shift", a, b);
}
template <backend B>
Tensor<B> bitwise_right_shift(const Tensor<B>& a, const Tensor<B>& b) {
  return detail::bitwise<detail::numpy::rule::right_shift, false>("bitwise_right_shift", a, b);
}

// The bitwise operators, with a tensor or an integer of either side (`x & 0xff`, `1 << x`).
#define EAGERPP_BITWISE_OPERATOR(op, name)                                 \
  template <backend B>                                                     \
  Tensor<B> operator op(const Tensor<B>& a, const Tensor<B>& b) {          \
    return name(a, b);                                                     \
  }                                                                        \
  template <backend B, std::integral S>                                    \
  Tensor<B> operator op(const Tensor<B>& a, S b) {                         \
    return name(a, a.full_scalar(static_cast<typename B::value_type>(b))); \
  }                                                                        \
  template <backend B, std::integral S>                                    \
  Tensor<B> operator op(S a, const Tensor<B>& b) {                         \
    return name(b.full_scalar(static_cast<typename B::value_type>(a)), b); \
  }
EAGERPP_BITWISE_OPERATOR(&, bitwise_and)
EAGERPP_BITWISE_OPERATOR(|, bitwise_or)
EAGERPP_BITWISE_OPERATOR(^, bitwise_xor)
EAGERPP_BITWISE_OPERATOR(<<, bitwise_left_shift)
EAGERPP_BITWISE_OPERATOR(>>, bitwise_right_shift)
#undef EAGERPP_BITWISE_OPERATOR
template <backend B>
Tensor<B> operator~(const Tensor<B>& x) {
  return bitwise_invert(x);
}

// The two-tensor functions above with two dtypes of one backend library (both promoted, as the
// operators do: `atan2(f32, f64)` is float64, `bitwise_and(i8, u8)` int16) and with a C++ scalar
// on either side (the standard's scalar arguments: `ep::atan2(y, 1.0)`, `ep::bitwise_and(x, 0xf)`).
#define EAGERPP_ARRAY_API_BINARY(name) \
  EAGERPP_MIXED_FUNCTION(name)         \
  EAGERPP_SCALAR_FUNCTION(name)
EAGERPP_ARRAY_API_BINARY(logical_xor)
EAGERPP_ARRAY_API_BINARY(bitwise_and)
EAGERPP_ARRAY_API_BINARY(bitwise_or)
EAGERPP_ARRAY_API_BINARY(bitwise_xor)
EAGERPP_ARRAY_API_BINARY(bitwise_left_shift)
EAGERPP_ARRAY_API_BINARY(bitwise_right_shift)
#define EAGERPP_ARRAY_API_BINARY_ROW(name, dtypes, value, grad) EAGERPP_ARRAY_API_BINARY(name)
EAGERPP_BINARY_FUNCTIONS(EAGERPP_ARRAY_API_BINARY_ROW)
#undef EAGERPP_ARRAY_API_BINARY_ROW
#undef EAGERPP_ARRAY_API_BINARY

// --- statistics ----------------------------------------------------------------------------------

/// The variance over `axis` (all axes by default): sum((x - mean)^2) / (N - correction), N the
/// number of elements reduced (array API: `var`; `correction = 1` is NumPy's `ddof=1`, the sample
/// variance). Where N - correction <= 0 the result is NaN, as the standard says (NumPy gives
/// infinity for a nonzero sum). Floating dtypes.
template <backend B>
Tensor<B> var(const Tensor<B>& x, Axes axis = {}, double correction = 0, bool keepdims = false) {
  using T = typename B::value_type;
  static_assert(detail::floating<T>,
                "ep::var: x must be of a floating dtype (convert with astype first)");
  const auto axes = detail::normalize_axes("var", axis, x.shape());
  std::int64_t n = 1;
  for (int a : axes) n *= x.shape()[a];
  if (correction < 0)
    throw value_error(fmt::format("var: correction {}; expected a correction >= 0", correction));
  const Axes reduced(axes);
  const auto d = x - x.mean(reduced, true);
  const double dof = static_cast<double>(n) - correction;
  const auto ss = d.square().sum(reduced, keepdims);
  if (dof <= 0) return ss * std::numeric_limits<T>::quiet_NaN();
  return ss / static_cast<T>(dof);
}

/// The standard deviation, sqrt(var(x, axis, correction, keepdims)) (array API: `std`, which cannot
/// be a C++ name inside namespace ep: it would hide namespace std; xtensor calls it `stddev` too).
template <backend B>
Tensor<B> stddev(const Tensor<B>& x, Axes axis = {}, double correction = 0, bool keepdims = false) {
  return var(x, std::move(axis), correction, keepdims).sqrt();
}

/// The number of nonzero (true) elements over `axis`, as int64 (array API: `count_nonzero`).
template <backend B>
Tensor<typename B::template rebind<std::int64_t>> count_nonzero(const Tensor<B>& x, Axes axis = {},
                                                                bool keepdims = false) {
  (void)detail::normalize_axes("count_nonzero", axis, x.shape());
  return (x != typename B::value_type(0))
      .template astype<std::int64_t>()
      .sum(std::move(axis), keepdims);
}

// The array API's names for ops eagerpp already has under NumPy's (EagerPy's) names.
#define EAGERPP_ARRAY_API_ALIAS(name, method) \
  template <facade_tensor Tn>                 \
  auto name(const Tn& x) {                    \
    return x.method();                        \
  }
EAGERPP_ARRAY_API_ALIAS(acos, arccos)
EAGERPP_ARRAY_API_ALIAS(asin, arcsin)
EAGERPP_ARRAY_API_ALIAS(atan, arctan)
EAGERPP_ARRAY_API_ALIAS(acosh, arccosh)
EAGERPP_ARRAY_API_ALIAS(asinh, arcsinh)
EAGERPP_ARRAY_API_ALIAS(atanh, arctanh)
#undef EAGERPP_ARRAY_API_ALIAS

/// `concatenate` (array API: `concat`).
template <backend B>
Tensor<B> concat(const std::vector<Tensor<B>>& tensors, int axis = 0) {
  return concatenate(tensors, axis);
}

/// `transpose(axes)` (array API: `permute_dims`).
template <backend B>
Tensor<B> permute_dims(const Tensor<B>& x, const std::vector<int>& axes) {
  return x.transpose(axes);
}

// The methods of the functions above (tensor.hpp): `x.name(args...)` is `ep::name(x, args...)`.
#define EAGERPP_ARRAY_API_METHOD(name)              \
  template <backend B>                              \
  template <class... Args>                          \
  auto Tensor<B>::name(const Args&... args) const { \
    return ep::name(*this, args...);                \
  }
#define EAGERPP_ARRAY_API_METHOD_ROW(name, dtypes, value, grad) EAGERPP_ARRAY_API_METHOD(name)
EAGERPP_ARRAY_API_METHODS(EAGERPP_ARRAY_API_METHOD)
#undef EAGERPP_ARRAY_API_METHOD_ROW
#undef EAGERPP_ARRAY_API_METHOD
template <backend B>
template <class V>
auto Tensor<B>::var(Axes axis, double correction, bool keepdims) const {
  return ep::var(*this, std::move(axis), correction, keepdims);
}
template <backend B>
template <class V>
auto Tensor<B>::stddev(Axes axis, double correction, bool keepdims) const {
  return ep::stddev(*this, std::move(axis), correction, keepdims);
}
template <backend B>
template <class V>
auto Tensor<B>::count_nonzero(Axes axis, bool keepdims) const {
  return ep::count_nonzero(*this, std::move(axis), keepdims);
}

}  // namespace ep
