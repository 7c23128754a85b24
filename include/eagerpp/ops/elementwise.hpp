// eagerpp - element-wise ops of ep::Tensor: unary, binary with broadcasting, comparisons, logic
// SPDX-License-Identifier: MIT
#pragma once

#include <numbers>      // std::numbers::ln2, ln10
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple
#include <type_traits>  // std::common_type_t, std::remove_cvref_t

#include <fmt/format.h>

#include "eagerpp/dtypes.hpp"
#include "eagerpp/ops/unary_list.hpp"
#include "eagerpp/tensor.hpp"

namespace ep {

namespace detail {

/// `g` summed over the axes that broadcasting added or stretched, so that it has `shape`: the
/// gradient of an operand that was broadcast.
template <class Tn>
Tn unbroadcast(const Tn& g, const Shape& shape) {
  const Shape gs = g.shape();
  if (gs == shape) return g;
  std::vector<int> axes;
  const int lead = gs.size() - shape.size();
  for (int i = 0; i < gs.size(); ++i)
    if (i < lead || (shape[i - lead] == 1 && gs[i] != 1)) axes.push_back(i);
  Tn summed = axes.empty() ? g : g.sum(Axes(axes), true);
  return summed.reshape(shape);
}

/// Checks that `a` and `b` broadcast, naming `op` otherwise.
template <class A, class C>
void check_broadcast(std::string_view op, const A& a, const C& b) {
  const auto& sa = tensor_access::shape_ref(a);
  const auto& sb = tensor_access::shape_ref(b);
  if (sa.empty() || sb.empty() || sa == sb) return;  // a 0-d operand (a scalar) fits any shape
  (void)broadcast_shapes(sa, sb, op);
}

/// The one definition of a binary op of two tensors: checks that they broadcast (the error names
/// `op`), computes `Compute(a, b)` and records the gradient rule `rule`.
template <auto Compute, class B, class Rule>
Tensor<B> binary(std::string_view op, const Tensor<B>& a, const Tensor<B>& b, const Rule& rule) {
  check_broadcast(op, a, b);
  auto call = elementwise(Compute, a, b);
  call.exact_tail = tail_exact<B, Compute>();
  return make_result<Tensor<B>>(call, rule, a, b);
}

/// A binary op with a bool result and no gradient (comparisons, logic): checks that the operands
/// broadcast, naming `op`, and wraps `Compute(a, b)`.
template <auto Compute, class B>
typename Tensor<B>::bool_tensor boolean(std::string_view op, const Tensor<B>& a,
                                        const Tensor<B>& b) {
  check_broadcast(op, a, b);
  return make_constant<typename Tensor<B>::bool_tensor>(elementwise(Compute, a, b));
}

}  // namespace detail

// The dtype each op needs, in a sentence that names the op (a static_assert message is a literal).
#define EAGERPP_REQUIRE_FLOAT(op)                                                                 \
  static_assert(floating_dtype<value_type>,                                                       \
                "ep::" op                                                                         \
                ": needs a real floating tensor (float or double); convert with astype<float>() " \
                "first")
#define EAGERPP_REQUIRE_NUMERIC(op)                                                  \
  static_assert(!complex_dtype<value_type>,                                          \
                "ep::" op                                                            \
                ": needs a real tensor; complex numbers have no order (use real(), " \
                "imag() or abs() first)");                                           \
  static_assert(numeric_dtype<value_type>,                                           \
                "ep::" op ": needs a numeric tensor, not bool; convert with astype<U>() first")
#define EAGERPP_REQUIRE_INEXACT(op)                                                             \
  static_assert(inexact_dtype<value_type>,                                                      \
                "ep::" op                                                                       \
                ": needs a floating or complex tensor (float, double, complex64, complex128); " \
                "convert with astype<float>() first")
#define EAGERPP_REQUIRE_ARITHMETIC(op)        \
  static_assert(arithmetic_dtype<value_type>, \
                "ep::" op ": needs a numeric tensor, not bool; convert with astype<U>() first")

// --- unary ---------------------------------------------------------------------------------------

template <backend B>
template <typename B::raw_type (*Compute)(const typename B::raw_type&), class Rule>
Tensor<B> Tensor<B>::unary(const Rule& rule) const {
  auto call = detail::elementwise(Compute, *this);
  call.map = detail::fused_map_of<B, Compute>();
  call.exact_tail = detail::tail_exact<B, Compute>();
  return detail::make_result<Tensor>(call, rule, *this);
}

// The gradient rules of the unary ops (ops/unary_list.hpp): `grad`, an element-wise rule.
namespace detail {
/// An op on a complex tensor: the scalar function F mapped over the elements, into F's result
/// dtype (a unary row's `numpy::name_fn`; real, imag, abs and conj in ops/complex.hpp); `Name`
/// names the op in the backend's errors.
template <class B, class F, const char* Name>
auto complex_unary(const typename B::raw_type& x) {
  return B::map_elements(x, F{}, Name);
}

/// d sign: 0 for a real x. Of a complex z, sign(z) = z / |z| is not holomorphic: with
/// d sign / dz = 1 / (2|z|) and d sign / dz̄ = -z² / (2|z|³), JAX's convention (docs/autodiff.md,
/// "Complex numbers") gives g / (2|z|) - conj(g) conj(z)² / (2|z|³) = (g - conj(g y²)) / (2|z|),
/// y = sign(z), and 0 at z = 0, as the real rule.
template <class Tn>
Tn sign_gradient(const Tn& g, const Tn& y, const Tn& x) {
  using T = typename Tn::value_type;
  if constexpr (complex_dtype<T>) {
    const auto zero = x == T(0);
    const auto modulus = where(zero, real_of_t<T>(1), x.abs());
    return where(zero, T(0), (g - (g * y.square()).conj()) / (modulus * real_of_t<T>(2)));
  } else {
    return x.zeros_like();
  }
}

#define EAGERPP_UNARY_RULE(name, dtypes, grad, scalar)                        \
  inline constexpr char name##_name[] = #name;                                \
  template <class Tn>                                                         \
  struct name##_rule : takes<Tn> {                                            \
    static constexpr bool elementwise = true;                                 \
    using value_type = typename Tn::value_type;                               \
    using real_type = real_of_t<value_type>;                                  \
    Tn operator()([[maybe_unused]] const Tn& g, [[maybe_unused]] const Tn& y, \
                  [[maybe_unused]] const Tn& x) const {                       \
      return grad;                                                            \
    }                                                                         \
  };
EAGERPP_UNARY_OPS(EAGERPP_UNARY_RULE)
#undef EAGERPP_UNARY_RULE

/// -g keeps g's shape, which may be smaller than x's: not an element-wise rule.
template <class Tn>
struct negative_rule : takes<Tn> {
  Tn operator()(const Tn& g, const Tn&, const Tn&) const { return -g; }
};

/// g where min <= x <= max, 0 elsewhere.
template <class Tn>
struct clip_rule : takes<Tn> {
  typename Tn::value_type min, max;
  Tn operator()(const Tn& g, const Tn&, const Tn& x) const {
    return ((x >= min).logical_and(x <= max)).where(g, g.zeros_like());
  }
};
}  // namespace detail

// The methods of the unary ops (ops/unary_list.hpp): `Tensor<B>::name()` needs a tensor of the
// row's DTYPES, computes `B::name` (of a complex tensor: the row's scalar, detail::complex_unary)
// and records the rule `detail::name_rule`. A macro, because the static_assert of each op must
// name it in a literal.
#define EAGERPP_UNARY(name, dtypes, grad, scalar)                                             \
  template <backend B>                                                                        \
  Tensor<B> Tensor<B>::name() const {                                                         \
    EAGERPP_REQUIRE_##dtypes(#name);                                                          \
    if constexpr (complex_dtype<value_type>)                                                  \
      return unary<&detail::complex_unary<B, detail::numpy::name##_fn, detail::name##_name>>( \
          detail::name##_rule<Tensor>{});                                                     \
    else                                                                                      \
      return unary<&B::name>(detail::name##_rule<Tensor>{});                                  \
  }
EAGERPP_UNARY_OPS(EAGERPP_UNARY)
#undef EAGERPP_UNARY

template <backend B>
Tensor<B> Tensor<B>::negative() const {
  EAGERPP_REQUIRE_ARITHMETIC("negative");
  return unary<&B::negative>(detail::negative_rule<Tensor>{});
}

template <backend B>
Tensor<B> Tensor<B>::clip(value_type min_, value_type max_) const {
  EAGERPP_REQUIRE_NUMERIC("clip");
  return detail::make_result<Tensor>(
      detail::elementwise([min_, max_](const raw_type& x) { return B::clip(x, min_, max_); },
                          *this),
      detail::clip_rule<Tensor>{{}, min_, max_}, *this);
}

// Of a complex tensor, of either part (NumPy, the array API).
template <backend B>
auto Tensor<B>::isnan() const -> bool_tensor {
  if constexpr (complex_dtype<value_type>)
    return real().isnan().logical_or(imag().isnan());
  else
    return detail::make_constant<bool_tensor>(detail::elementwise(&B::isnan, *this));
}

template <backend B>
auto Tensor<B>::isinf() const -> bool_tensor {
  if constexpr (complex_dtype<value_type>)
    return real().isinf().logical_or(imag().isinf());
  else
    return detail::make_constant<bool_tensor>(detail::elementwise(&B::isinf, *this));
}

template <backend B>
template <class V>
Tensor<B> Tensor<B>::logical_not() const {
  static_assert(std::same_as<V, bool> && std::same_as<V, value_type>,
                "ep::logical_not: needs a bool tensor; compare first, e.g. (x > 0)");
  return detail::make_constant<Tensor>(detail::elementwise(&B::logical_not, *this));
}

// --- binary --------------------------------------------------------------------------------------

namespace detail {
// The gradient rules of the binary ops: each operand's gradient summed back to its shape.
template <class Tn>
struct add_rule : takes<Tn, 2> {
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn&, const Tn& x, const Tn& y) const {
    return {unbroadcast(g, x.shape()), unbroadcast(g, y.shape())};
  }
};
template <class Tn>
struct subtract_rule : takes<Tn, 2> {
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn&, const Tn& x, const Tn& y) const {
    return {unbroadcast(g, x.shape()), unbroadcast(-g, y.shape())};
  }
};
template <class Tn>
struct multiply_rule : takes<Tn, 2> {
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn&, const Tn& x, const Tn& y) const {
    return {unbroadcast(g * y, x.shape()), unbroadcast(g * x, y.shape())};
  }
};
template <class Tn>
struct divide_rule : takes<Tn, 2> {
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn& out, const Tn& x, const Tn& y) const {
    return {unbroadcast(g / y, x.shape()), unbroadcast(-(g * out / y), y.shape())};
  }
};
template <class Tn>
struct mod_rule : takes<Tn, 2> {
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn&, const Tn& x, const Tn& y) const {
    return {unbroadcast(g, x.shape()), unbroadcast(-(g * x.floordiv(y)), y.shape())};
  }
};
template <class Tn>
struct floordiv_rule : takes<Tn, 2> {
  std::tuple<Tn, Tn> operator()(const Tn&, const Tn&, const Tn& x, const Tn& y) const {
    return {x.zeros_like(), y.zeros_like()};
  }
};
/// d/dx = e x^(e-1); d/de = x^e log x, taken as 0 where x == 0 (as JAX does); for complex numbers
/// the same holomorphic derivatives, in JAX's convention.
template <class Tn>
struct power_rule : takes<Tn, 2> {
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn& y, const Tn& x, const Tn& e) const {
    const Tn dx = g * e * x.pow(e - 1);
    const Tn de = (x == 0).where(g.zeros_like(), g * y * x.log());
    return {unbroadcast(dx, x.shape()), unbroadcast(de, e.shape())};
  }
};
/// The gradient of element-wise minimum and maximum: to the selected operand, split evenly on ties.
/// Only for the operands that need it (a ReLU `maximum(x, 0)` never needs its 0's), and with a 0-d
/// zero rather than a zero-filled tensor: five passes over g's size for a ReLU instead of the
/// twelve that computing both operands' gradients with `zeros_like` takes.
template <class Tn>
struct minmax_rule : takes<Tn, 2> {
  static constexpr bool reads_needed = true;
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn& out, const needed_grads<2>& needed,
                                const Tn& x, const Tn& y) const {
    const Tn zero = g.full_scalar(0);
    const auto tie = x == y;
    const Tn half = g * 0.5;
    const auto grad_of = [&](const Tn& operand) {
      return unbroadcast(tie.where(half, (operand == out).where(g, zero)), operand.shape());
    };
    // An operand that is not needed gets a placeholder (itself), never accumulated.
    return {needed[0] ? grad_of(x) : x, needed[1] ? grad_of(y) : y};
  }
};
/// g to the operand that `cond` selected; the condition is a constant the rule holds.
template <class Tn>
struct where_rule : takes<Tn, 2> {
  static constexpr bool reads_needed = true;
  typename Tn::bool_tensor cond;
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn&, const needed_grads<2>& needed, const Tn& a,
                                const Tn& b) const {
    const Tn zero = g.full_scalar(0);  // 0-d: broadcast, never filled
    // An operand that is not needed gets a placeholder (itself), never accumulated.
    return {needed[0] ? unbroadcast(cond.where(g, zero), a.shape()) : a,
            needed[1] ? unbroadcast(cond.where(zero, g), b.shape()) : b};
  }
};
}  // namespace detail

template <backend B>
Tensor<B> operator+(const Tensor<B>& a, const Tensor<B>& b) {
  static_assert(arithmetic_dtype<typename B::value_type>,
                "ep::add: needs numeric tensors, not bool; use logical_or");
  return detail::binary<&B::add>("add", a, b, detail::add_rule<Tensor<B>>{});
}

template <backend B>
Tensor<B> operator-(const Tensor<B>& a, const Tensor<B>& b) {
  static_assert(arithmetic_dtype<typename B::value_type>,
                "ep::subtract: needs numeric tensors, not bool");
  return detail::binary<&B::subtract>("subtract", a, b, detail::subtract_rule<Tensor<B>>{});
}

template <backend B>
Tensor<B> operator*(const Tensor<B>& a, const Tensor<B>& b) {
  static_assert(arithmetic_dtype<typename B::value_type>,
                "ep::multiply: needs numeric tensors, not bool; use logical_and");
  return detail::binary<&B::multiply>("multiply", a, b, detail::multiply_rule<Tensor<B>>{});
}

// Integer tensors are divided in float64 (NumPy's true division).
template <backend B>
auto operator/(const Tensor<B>& a, const Tensor<B>& b) {
  using T = typename B::value_type;
  static_assert(arithmetic_dtype<T>, "ep::divide: needs numeric tensors, not bool");
  if constexpr (!inexact_dtype<T>) {
    detail::check_broadcast("divide", a, b);
    return a.template astype<double>() / b.template astype<double>();
  } else {
    return detail::binary<&B::divide>("divide", a, b, detail::divide_rule<Tensor<B>>{});
  }
}

template <backend B>
Tensor<B> operator%(const Tensor<B>& a, const Tensor<B>& b) {
  return a.mod(b);
}

template <backend B>
Tensor<B> Tensor<B>::mod(const Tensor& other) const {
  EAGERPP_REQUIRE_NUMERIC("mod");
  return detail::binary<&B::mod>("mod", *this, other, detail::mod_rule<Tensor>{});
}

template <backend B>
Tensor<B> Tensor<B>::floordiv(const Tensor& other) const {
  EAGERPP_REQUIRE_NUMERIC("floordiv");
  return detail::binary<&B::floor_divide>("floordiv", *this, other,
                                          detail::floordiv_rule<Tensor>{});
}

template <backend B>
Tensor<B> Tensor<B>::pow(const Tensor& exponent) const {
  if constexpr (complex_dtype<value_type>) {  // NumPy's npy_cpow (detail/numpy_math.hpp)
    return detail::binary<&B::template zip_rule<detail::numpy::rule::complex_power>>(
        "pow", *this, exponent, detail::power_rule<Tensor>{});
  } else {
    EAGERPP_REQUIRE_NUMERIC("pow");
    return detail::binary<&B::power>("pow", *this, exponent, detail::power_rule<Tensor>{});
  }
}

template <backend B>
Tensor<B> Tensor<B>::minimum(const Tensor& other) const {
  EAGERPP_REQUIRE_NUMERIC("minimum");
  return detail::binary<&B::minimum>("minimum", *this, other, detail::minmax_rule<Tensor>{});
}

template <backend B>
Tensor<B> Tensor<B>::maximum(const Tensor& other) const {
  EAGERPP_REQUIRE_NUMERIC("maximum");
  return detail::binary<&B::maximum>("maximum", *this, other, detail::minmax_rule<Tensor>{});
}

template <backend B>
template <backend B2>
Tensor<B2> Tensor<B>::where(const Tensor<B2>& x, const Tensor<B2>& y) const {
  static_assert(std::same_as<value_type, bool>,
                "ep::where: the condition must be a bool tensor, e.g. (x > 0)");
  static_assert(std::same_as<typename B2::template rebind<bool>, B>,
                "ep::where: the condition and the values must come from the same backend; convert "
                "with ep::to");
  const Shape sc = shape();
  const Shape sx = x.shape();
  const Shape sy = y.shape();
  if (!(sc == sx && sx == sy))
    (void)broadcast_shapes(broadcast_shapes(sc, sx, "where"), sy, "where");
  return detail::make_result<Tensor<B2>>(
      detail::elementwise([](const raw_type& c, const typename B2::raw_type& a,
                             const typename B2::raw_type& b) { return B2::where(c, a, b); },
                          *this, x, y),
      detail::where_rule<Tensor<B2>>{{}, *this}, x, y);
}

template <backend B>
template <class V>
Tensor<B> Tensor<B>::logical_and(const Tensor& other) const {
  static_assert(std::same_as<V, bool> && std::same_as<V, value_type>,
                "ep::logical_and: needs bool tensors; compare first, e.g. (x > 0)");
  return detail::boolean<&B::logical_and>("logical_and", *this, other);
}

template <backend B>
template <class V>
Tensor<B> Tensor<B>::logical_or(const Tensor& other) const {
  static_assert(std::same_as<V, bool> && std::same_as<V, value_type>,
                "ep::logical_or: needs bool tensors; compare first, e.g. (x > 0)");
  return detail::boolean<&B::logical_or>("logical_or", *this, other);
}

#undef EAGERPP_REQUIRE_FLOAT
#undef EAGERPP_REQUIRE_NUMERIC
#undef EAGERPP_REQUIRE_INEXACT
#undef EAGERPP_REQUIRE_ARITHMETIC

// --- comparisons: bool tensors of the same backend ----------------------------------------------

// One operator per row of EAGERPP_COMPARISON_OPS (ops/binary_list.hpp).
// An ordering (NUMERIC row) of complex tensors is a compile-time sentence.
#define EAGERPP_COMPARISON_ORDERS_NUMERIC(name)                               \
  static_assert(!complex_dtype<typename B::value_type>,                       \
                "ep::" #name                                                  \
                ": complex numbers have no order; compare real(), imag() or " \
                "abs() instead");
#define EAGERPP_COMPARISON_ORDERS_EVERY(name)
#define EAGERPP_COMPARISON(name, op, dtypes)                                                \
  template <backend B>                                                                      \
  auto operator op(const Tensor<B>& a, const Tensor<B>& b) {                                \
    EAGERPP_COMPARISON_ORDERS_##dtypes(name) return detail::boolean<&B::name>(#name, a, b); \
  }
EAGERPP_COMPARISON_OPS(EAGERPP_COMPARISON)
#undef EAGERPP_COMPARISON
#undef EAGERPP_COMPARISON_ORDERS_EVERY
#undef EAGERPP_COMPARISON_ORDERS_NUMERIC

// --- scalars ------------------------------------------------------------------------------------
// A C++ scalar on either side of a binary op follows NumPy's rules for Python scalars, decided at
// compile time (ep::scalar_result_t, fwd.hpp): the tensor is converted first where the result's
// dtype differs (`arange` in int64 `* 0.5` is float64, `i < 1.5` compares in float64), then the
// scalar is converted to that dtype and the op of two tensors does the rest.

#define EAGERPP_WITH_SCALAR(op)                                                            \
  template <backend B, scalar S>                                                           \
  auto operator op(const Tensor<B>& a, S b) {                                              \
    return detail::with_scalar(a, b, [](const auto& x, const auto& s) { return x op s; }); \
  }                                                                                        \
  template <backend B, scalar S>                                                           \
  auto operator op(S a, const Tensor<B>& b) {                                              \
    return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s op y; }); \
  }
// The OPERATOR rows of EAGERPP_BINARY_OPS, `%` (the operator of the METHOD row mod) and the
// comparisons (ops/binary_list.hpp).
#define EAGERPP_WITH_SCALAR_OPERATOR(op) EAGERPP_WITH_SCALAR(op)
#define EAGERPP_WITH_SCALAR_METHOD(method)
#define EAGERPP_WITH_SCALAR_ROW(name, dtypes, spelling, spelled) \
  EAGERPP_WITH_SCALAR_##spelling(spelled)
EAGERPP_BINARY_OPS(EAGERPP_WITH_SCALAR_ROW)
#undef EAGERPP_WITH_SCALAR_ROW
#undef EAGERPP_WITH_SCALAR_METHOD
#undef EAGERPP_WITH_SCALAR_OPERATOR
EAGERPP_WITH_SCALAR(%)
#define EAGERPP_WITH_SCALAR_COMPARISON(name, op, dtypes) EAGERPP_WITH_SCALAR(op)
EAGERPP_COMPARISON_OPS(EAGERPP_WITH_SCALAR_COMPARISON)
#undef EAGERPP_WITH_SCALAR_COMPARISON
#undef EAGERPP_WITH_SCALAR

#define EAGERPP_WITH_SCALAR_METHOD(name)                                                \
  template <backend B>                                                                  \
  auto Tensor<B>::name(scalar auto other) const {                                       \
    return detail::with_scalar(*this, other,                                            \
                               [](const auto& x, const auto& s) { return x.name(s); }); \
  }
// The NUMERIC METHOD rows of EAGERPP_BINARY_OPS (the bool ones take a bool: tensor.hpp).
#define EAGERPP_WITH_SCALAR_SPELLED_NUMERIC_OPERATOR(spelled)
#define EAGERPP_WITH_SCALAR_SPELLED_NUMERIC_METHOD(spelled) EAGERPP_WITH_SCALAR_METHOD(spelled)
#define EAGERPP_WITH_SCALAR_SPELLED_ARITHMETIC_OPERATOR(spelled)
#define EAGERPP_WITH_SCALAR_SPELLED_ARITHMETIC_METHOD(spelled) EAGERPP_WITH_SCALAR_METHOD(spelled)
#define EAGERPP_WITH_SCALAR_SPELLED_BOOL_OPERATOR(spelled)
#define EAGERPP_WITH_SCALAR_SPELLED_BOOL_METHOD(spelled)
#define EAGERPP_WITH_SCALAR_METHOD_ROW(name, dtypes, spelling, spelled) \
  EAGERPP_WITH_SCALAR_SPELLED_##dtypes##_##spelling(spelled)
EAGERPP_BINARY_OPS(EAGERPP_WITH_SCALAR_METHOD_ROW)
#undef EAGERPP_WITH_SCALAR_METHOD_ROW
#undef EAGERPP_WITH_SCALAR_SPELLED_BOOL_METHOD
#undef EAGERPP_WITH_SCALAR_SPELLED_BOOL_OPERATOR
#undef EAGERPP_WITH_SCALAR_SPELLED_NUMERIC_METHOD
#undef EAGERPP_WITH_SCALAR_SPELLED_NUMERIC_OPERATOR
#undef EAGERPP_WITH_SCALAR_SPELLED_ARITHMETIC_METHOD
#undef EAGERPP_WITH_SCALAR_SPELLED_ARITHMETIC_OPERATOR
#undef EAGERPP_WITH_SCALAR_METHOD

template <backend B>
template <scalar S1, scalar S2>
auto Tensor<B>::clip(S1 min_, S2 max_) const {
  using R = std::common_type_t<scalar_result_t<value_type, S1>, scalar_result_t<value_type, S2>>;
  if constexpr (std::same_as<R, value_type>)
    return clip(static_cast<value_type>(min_), static_cast<value_type>(max_));
  else
    return astype<R>().clip(static_cast<R>(min_), static_cast<R>(max_));
}

// --- two backends or dtypes in one op ------------------------------------------------------------

// Tensors of two dtypes of one backend library in arithmetic or a comparison: both are converted
// to the promoted dtype (the array API's `int8 + uint8` is int16, NumPy's `int32 + float32`
// float64), then the op runs. Other mixes (two backend libraries, uint64 with a signed integer)
// are one readable sentence, the first error the user sees (the `auto` return keeps
// `auto y = a + b;` from adding a second one about a `void` variable). Under ep::vmap, a tensor
// the function captured meets a batched one: it is lifted, as a value every example shares.
#define EAGERPP_MIXED(op, name)                                                                \
  template <backend B1, backend B2>                                                            \
  requires(!std::same_as<B1, B2>) auto operator op(const Tensor<B1>& a, const Tensor<B2>& b) { \
    static_assert(detail::mixable<B1, B2>, EAGERPP_MIXED_SENTENCE(name));                      \
    if constexpr (detail::mixable<B1, B2>)                                                     \
      return detail::mix(a, b, [](const auto& x, const auto& y) { return x op y; });           \
    else                                                                                       \
      return a;                                                                                \
  }
EAGERPP_MIXED(+, "add")
EAGERPP_MIXED(-, "subtract")
EAGERPP_MIXED(*, "multiply")
EAGERPP_MIXED(/, "divide")
EAGERPP_MIXED(%, "mod")
EAGERPP_MIXED(<, "less")
EAGERPP_MIXED(<=, "less_equal")
EAGERPP_MIXED(>, "greater")
EAGERPP_MIXED(>=, "greater_equal")
EAGERPP_MIXED(==, "equal")
EAGERPP_MIXED(!=, "not_equal")
#undef EAGERPP_MIXED

}  // namespace ep
