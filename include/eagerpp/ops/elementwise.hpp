// eagerpp - element-wise ops of ep::Tensor: unary, binary with broadcasting, comparisons, logic
// SPDX-License-Identifier: MIT
#pragma once

#include <numbers>      // std::numbers::ln2, ln10
#include <tuple>        // std::tuple
#include <type_traits>  // std::common_type_t
#include <utility>      // std::as_const

#include <fmt/format.h>

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
  const auto& sa = a.shape_ref();
  const auto& sb = b.shape_ref();
  if (sa.empty() || sb.empty() || sa == sb) return;  // a 0-d operand (a scalar) fits any shape
  (void)broadcast_shapes(sa, sb, op);
}

}  // namespace detail

// --- unary ---------------------------------------------------------------------------------------

#define EAGERPP_REQUIRE_FLOAT(op)           \
  static_assert(floating_dtype<value_type>, \
                "ep::" op ": needs a floating tensor (float or double); convert with astype<float>() first")
#define EAGERPP_REQUIRE_NUMERIC(op)        \
  static_assert(numeric_dtype<value_type>, \
                "ep::" op ": needs a numeric tensor, not bool; convert with astype<U>() first")

template <backend B>
template <typename B::raw_type (*Compute)(const typename B::raw_type&), class Vjp>
Tensor<B> Tensor<B>::map(detail::map_kind kind, const Vjp& vjp) const {
  if constexpr (detail::map_reducible<B>) {
    if (size() >= detail::fusion_min_size) {
      Tensor out(raw());
      out.deferred_ = std::make_shared<const detail::deferred_map<raw_type>>(kind, Compute);
      return detail::make_result<Tensor>(std::move(out), vjp, *this);
    }
  }
  return detail::make_result<Tensor>([&] { return Compute(raw()); }, vjp, *this);
}

template <backend B>
Tensor<B> Tensor<B>::abs() const {
  EAGERPP_REQUIRE_NUMERIC("abs");
  return map<&B::abs>(detail::map_kind::abs,
                     detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return g * x.sign(); }});
}

template <backend B>
Tensor<B> Tensor<B>::sign() const {
  EAGERPP_REQUIRE_NUMERIC("sign");
  return detail::make_result<Tensor>(
      [&] { return B::sign(raw()); }, [](const auto& g, const auto&, const auto&) { return g.zeros_like(); }, *this);
}

template <backend B>
Tensor<B> Tensor<B>::sqrt() const {
  EAGERPP_REQUIRE_FLOAT("sqrt");
  return detail::make_result<Tensor>(
      [&] { return B::sqrt(raw()); }, detail::elementwise_vjp{[](const auto& g, const auto& y, const auto&) { return g / (y * 2); }},
      *this);
}

template <backend B>
Tensor<B> Tensor<B>::square() const {
  EAGERPP_REQUIRE_NUMERIC("square");
  return map<&B::square>(detail::map_kind::square,
                        detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return (g * 2) * x; }});
}

template <backend B>
Tensor<B> Tensor<B>::exp() const {
  EAGERPP_REQUIRE_FLOAT("exp");
  return detail::make_result<Tensor>(
      [&] { return B::exp(raw()); }, detail::elementwise_vjp{[](const auto& g, const auto& y, const auto&) { return g * y; }}, *this);
}

template <backend B>
Tensor<B> Tensor<B>::log() const {
  EAGERPP_REQUIRE_FLOAT("log");
  return detail::make_result<Tensor>(
      [&] { return B::log(raw()); }, detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return g / x; }}, *this);
}

template <backend B>
Tensor<B> Tensor<B>::log2() const {
  EAGERPP_REQUIRE_FLOAT("log2");
  return detail::make_result<Tensor>([&] { return B::log2(raw()); },
                                     detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) {
                                       return g / (x * std::numbers::ln2_v<value_type>);
                                     }},
                                     *this);
}

template <backend B>
Tensor<B> Tensor<B>::log10() const {
  EAGERPP_REQUIRE_FLOAT("log10");
  return detail::make_result<Tensor>([&] { return B::log10(raw()); },
                                     detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) {
                                       return g / (x * std::numbers::ln10_v<value_type>);
                                     }},
                                     *this);
}

template <backend B>
Tensor<B> Tensor<B>::log1p() const {
  EAGERPP_REQUIRE_FLOAT("log1p");
  return detail::make_result<Tensor>(
      [&] { return B::log1p(raw()); }, detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return g / (x + 1); }},
      *this);
}

template <backend B>
Tensor<B> Tensor<B>::sin() const {
  EAGERPP_REQUIRE_FLOAT("sin");
  return detail::make_result<Tensor>(
      [&] { return B::sin(raw()); }, detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return g * x.cos(); }},
      *this);
}

template <backend B>
Tensor<B> Tensor<B>::cos() const {
  EAGERPP_REQUIRE_FLOAT("cos");
  return detail::make_result<Tensor>(
      [&] { return B::cos(raw()); }, detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return -(g * x.sin()); }},
      *this);
}

template <backend B>
Tensor<B> Tensor<B>::tan() const {
  EAGERPP_REQUIRE_FLOAT("tan");
  return detail::make_result<Tensor>(
      [&] { return B::tan(raw()); },
      detail::elementwise_vjp{[](const auto& g, const auto& y, const auto&) { return g * (y.square() + 1); }}, *this);
}

template <backend B>
Tensor<B> Tensor<B>::arcsin() const {
  EAGERPP_REQUIRE_FLOAT("arcsin");
  return detail::make_result<Tensor>(
      [&] { return B::arcsin(raw()); },
      detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return g / (1 - x.square()).sqrt(); }},
      *this);
}

template <backend B>
Tensor<B> Tensor<B>::arccos() const {
  EAGERPP_REQUIRE_FLOAT("arccos");
  return detail::make_result<Tensor>(
      [&] { return B::arccos(raw()); },
      detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return -(g / (1 - x.square()).sqrt()); }},
      *this);
}

template <backend B>
Tensor<B> Tensor<B>::arctan() const {
  EAGERPP_REQUIRE_FLOAT("arctan");
  return detail::make_result<Tensor>(
      [&] { return B::arctan(raw()); },
      detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return g / (x.square() + 1); }}, *this);
}

template <backend B>
Tensor<B> Tensor<B>::sinh() const {
  EAGERPP_REQUIRE_FLOAT("sinh");
  return detail::make_result<Tensor>(
      [&] { return B::sinh(raw()); }, detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return g * x.cosh(); }},
      *this);
}

template <backend B>
Tensor<B> Tensor<B>::cosh() const {
  EAGERPP_REQUIRE_FLOAT("cosh");
  return detail::make_result<Tensor>(
      [&] { return B::cosh(raw()); }, detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return g * x.sinh(); }},
      *this);
}

template <backend B>
Tensor<B> Tensor<B>::tanh() const {
  EAGERPP_REQUIRE_FLOAT("tanh");
  return detail::make_result<Tensor>(
      [&] { return B::tanh(raw()); },
      detail::elementwise_vjp{[](const auto& g, const auto& y, const auto&) { return g * (1 - y.square()); }}, *this);
}

template <backend B>
Tensor<B> Tensor<B>::arcsinh() const {
  EAGERPP_REQUIRE_FLOAT("arcsinh");
  return detail::make_result<Tensor>(
      [&] { return B::arcsinh(raw()); },
      detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return g / (x.square() + 1).sqrt(); }},
      *this);
}

template <backend B>
Tensor<B> Tensor<B>::arccosh() const {
  EAGERPP_REQUIRE_FLOAT("arccosh");
  return detail::make_result<Tensor>(
      [&] { return B::arccosh(raw()); },
      detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return g / (x.square() - 1).sqrt(); }},
      *this);
}

template <backend B>
Tensor<B> Tensor<B>::arctanh() const {
  EAGERPP_REQUIRE_FLOAT("arctanh");
  return detail::make_result<Tensor>(
      [&] { return B::arctanh(raw()); },
      detail::elementwise_vjp{[](const auto& g, const auto&, const auto& x) { return g / (1 - x.square()); }}, *this);
}

template <backend B>
Tensor<B> Tensor<B>::round() const {
  EAGERPP_REQUIRE_NUMERIC("round");
  return detail::make_result<Tensor>(
      [&] { return B::round(raw()); }, [](const auto& g, const auto&, const auto&) { return g.zeros_like(); }, *this);
}

template <backend B>
Tensor<B> Tensor<B>::ceil() const {
  EAGERPP_REQUIRE_NUMERIC("ceil");
  return detail::make_result<Tensor>(
      [&] { return B::ceil(raw()); }, [](const auto& g, const auto&, const auto&) { return g.zeros_like(); }, *this);
}

template <backend B>
Tensor<B> Tensor<B>::floor() const {
  EAGERPP_REQUIRE_NUMERIC("floor");
  return detail::make_result<Tensor>(
      [&] { return B::floor(raw()); }, [](const auto& g, const auto&, const auto&) { return g.zeros_like(); }, *this);
}

template <backend B>
Tensor<B> Tensor<B>::negative() const {
  EAGERPP_REQUIRE_NUMERIC("negative");
  return detail::make_result<Tensor>(
      [&] { return B::negative(raw()); }, [](const auto& g, const auto&, const auto&) { return -g; }, *this);
}

template <backend B>
Tensor<B> Tensor<B>::clip(value_type min_, value_type max_) const {
  EAGERPP_REQUIRE_NUMERIC("clip");
  return detail::make_result<Tensor>(
      [&] { return B::clip(raw(), min_, max_); },
      [min_, max_](const auto& g, const auto&, const auto& x) {
        return ((x >= min_).logical_and(x <= max_)).where(g, g.zeros_like());
      },
      *this);
}

template <backend B>
auto Tensor<B>::isnan() const -> bool_tensor {
  return bool_tensor(B::isnan(raw()));
}

template <backend B>
auto Tensor<B>::isinf() const -> bool_tensor {
  return bool_tensor(B::isinf(raw()));
}

template <backend B>
Tensor<B> Tensor<B>::logical_not() const {
  static_assert(std::same_as<value_type, bool>, "ep::logical_not: needs a bool tensor; compare first, e.g. (x > 0)");
  return Tensor(B::logical_not(raw()));
}

// --- binary ----------------------------------------------------------------------------------------

/// a + b with broadcasting (NumPy: `add`).
template <backend B>
Tensor<B> operator+(const Tensor<B>& a, const Tensor<B>& b) {
  static_assert(numeric_dtype<typename B::value_type>, "ep::add: needs numeric tensors, not bool; use logical_or");
  detail::check_broadcast("add", a, b);
  return detail::make_result<Tensor<B>>(
      [&] { return B::add(a.raw(), b.raw()); },
      [](const auto& g, const auto&, const auto& x, const auto& y) {
        return std::tuple{detail::unbroadcast(g, x.shape()), detail::unbroadcast(g, y.shape())};
      },
      a, b);
}

/// a - b with broadcasting (NumPy: `subtract`).
template <backend B>
Tensor<B> operator-(const Tensor<B>& a, const Tensor<B>& b) {
  static_assert(numeric_dtype<typename B::value_type>, "ep::subtract: needs numeric tensors, not bool");
  detail::check_broadcast("subtract", a, b);
  return detail::make_result<Tensor<B>>(
      [&] { return B::subtract(a.raw(), b.raw()); },
      [](const auto& g, const auto&, const auto& x, const auto& y) {
        return std::tuple{detail::unbroadcast(g, x.shape()), detail::unbroadcast(-g, y.shape())};
      },
      a, b);
}

/// a * b with broadcasting (NumPy: `multiply`).
template <backend B>
Tensor<B> operator*(const Tensor<B>& a, const Tensor<B>& b) {
  static_assert(numeric_dtype<typename B::value_type>,
                "ep::multiply: needs numeric tensors, not bool; use logical_and");
  detail::check_broadcast("multiply", a, b);
  return detail::make_result<Tensor<B>>(
      [&] { return B::multiply(a.raw(), b.raw()); },
      [](const auto& g, const auto&, const auto& x, const auto& y) {
        return std::tuple{detail::unbroadcast(g * y, x.shape()), detail::unbroadcast(g * x, y.shape())};
      },
      a, b);
}

/// a / b with broadcasting (NumPy: `true_divide`): floating tensors keep their dtype; integer tensors
/// give float64 (`[-3, -1, 3, 7] / 2` is `[-1.5, -0.5, 1.5, 3.5]`; `floordiv` and `%` floor).
template <backend B>
auto operator/(const Tensor<B>& a, const Tensor<B>& b) {
  using T = typename B::value_type;
  static_assert(numeric_dtype<T>, "ep::divide: needs numeric tensors, not bool");
  if constexpr (!floating_dtype<T>) {
    detail::check_broadcast("divide", a, b);
    return a.template astype<double>() / b.template astype<double>();
  } else {
    detail::check_broadcast("divide", a, b);
    return detail::make_result<Tensor<B>>(
        [&] { return B::divide(a.raw(), b.raw()); },
        [](const auto& g, const auto& out, const auto& x, const auto& y) {
          return std::tuple{detail::unbroadcast(g / y, x.shape()), detail::unbroadcast(-(g * out / y), y.shape())};
        },
        a, b);
  }
}

/// a % b with broadcasting: the remainder has the divisor's sign (NumPy: `mod`).
template <backend B>
Tensor<B> operator%(const Tensor<B>& a, const Tensor<B>& b) {
  return a.mod(b);
}

template <backend B>
Tensor<B> Tensor<B>::mod(const Tensor& other) const {
  EAGERPP_REQUIRE_NUMERIC("mod");
  detail::check_broadcast("mod", *this, other);
  return detail::make_result<Tensor>(
      [&] { return B::mod(raw(), other.raw()); },
      [](const auto& g, const auto&, const auto& x, const auto& y) {
        return std::tuple{detail::unbroadcast(g, x.shape()), detail::unbroadcast(-(g * x.floordiv(y)), y.shape())};
      },
      *this, other);
}

template <backend B>
Tensor<B> Tensor<B>::floordiv(const Tensor& other) const {
  EAGERPP_REQUIRE_NUMERIC("floordiv");
  detail::check_broadcast("floordiv", *this, other);
  return detail::make_result<Tensor>(
      [&] { return B::floor_divide(raw(), other.raw()); },
      [](const auto&, const auto&, const auto& x, const auto& y) {
        return std::tuple{x.zeros_like(), y.zeros_like()};
      },
      *this, other);
}

template <backend B>
Tensor<B> Tensor<B>::pow(const Tensor& exponent) const {
  EAGERPP_REQUIRE_NUMERIC("pow");
  detail::check_broadcast("pow", *this, exponent);
  return detail::make_result<Tensor>(
      [&] { return B::power(raw(), exponent.raw()); },
      [](const auto& g, const auto& y, const auto& x, const auto& e) {
        // d/dx = e x^(e-1); d/de = x^e log x, taken as 0 where x == 0 (as JAX does).
        const Tensor dx = g * e * x.pow(e - 1);
        const Tensor de = (x == 0).where(g.zeros_like(), g * y * x.log());
        return std::tuple{detail::unbroadcast(dx, x.shape()), detail::unbroadcast(de, e.shape())};
      },
      *this, exponent);
}

namespace detail {
/// The gradient of element-wise minimum/maximum: to the selected operand, split evenly on ties.
/// Only for the operands that need it (a ReLU `maximum(x, 0)` never needs its 0's), and with a 0-d
/// zero rather than a zero-filled tensor: five passes over g's size for a ReLU, where computing
/// both operands' gradients with `zeros_like` took twelve (mlp_bench, issue 15).
template <class Tn, class Needed>
auto minmax_vjp(const Tn& g, const Tn& out, const Needed& needed, const Tn& x, const Tn& y) {
  const Tn zero = g.full_scalar(0);
  const auto tie = x == y;
  const Tn half = g * 0.5;
  const auto grad_of = [&](const Tn& operand) { return unbroadcast(tie.where(half, (operand == out).where(g, zero)), operand.shape()); };
  // An operand that is not needed gets a placeholder (itself), never accumulated.
  return std::tuple{needed[0] ? grad_of(x) : x, needed[1] ? grad_of(y) : y};
}
}  // namespace detail

template <backend B>
Tensor<B> Tensor<B>::minimum(const Tensor& other) const {
  EAGERPP_REQUIRE_NUMERIC("minimum");
  detail::check_broadcast("minimum", *this, other);
  return detail::make_result<Tensor>(
      [&] { return B::minimum(raw(), other.raw()); },
      detail::vjp_with_needed{[](const auto& g, const auto& out, const auto& needed, const auto& x, const auto& y) {
        return detail::minmax_vjp(g, out, needed, x, y);
      }},
      *this, other);
}

template <backend B>
Tensor<B> Tensor<B>::maximum(const Tensor& other) const {
  EAGERPP_REQUIRE_NUMERIC("maximum");
  detail::check_broadcast("maximum", *this, other);
  return detail::make_result<Tensor>(
      [&] { return B::maximum(raw(), other.raw()); },
      detail::vjp_with_needed{[](const auto& g, const auto& out, const auto& needed, const auto& x, const auto& y) {
        return detail::minmax_vjp(g, out, needed, x, y);
      }},
      *this, other);
}

template <backend B>
template <backend B2>
Tensor<B2> Tensor<B>::where(const Tensor<B2>& x, const Tensor<B2>& y) const {
  static_assert(std::same_as<value_type, bool>, "ep::where: the condition must be a bool tensor, e.g. (x > 0)");
  static_assert(std::same_as<typename B2::template rebind<bool>, B>,
                "ep::where: the condition and the values must come from the same backend; convert with ep::to");
  const Shape sc = shape();
  const Shape sx = x.shape();
  const Shape sy = y.shape();
  if (!(sc == sx && sx == sy)) (void)broadcast_shapes(broadcast_shapes(sc, sx, "where"), sy, "where");
  const Tensor cond = *this;
  return detail::make_result<Tensor<B2>>(
      B2::where(raw(), x.raw(), y.raw()),
      detail::vjp_with_needed{[cond](const auto& g, const auto&, const auto& needed, const auto& a, const auto& b) {
        const Tensor<B2> zero = g.full_scalar(0);  // 0-d: broadcast, never filled
        // An operand that is not needed gets a placeholder (itself), never accumulated.
        return std::tuple{needed[0] ? detail::unbroadcast(cond.where(g, zero), a.shape()) : a,
                          needed[1] ? detail::unbroadcast(cond.where(zero, g), b.shape()) : b};
      }},
      x, y);
}

template <backend B>
Tensor<B> Tensor<B>::logical_and(const Tensor& other) const {
  static_assert(std::same_as<value_type, bool>, "ep::logical_and: needs bool tensors; compare first, e.g. (x > 0)");
  detail::check_broadcast("logical_and", *this, other);
  return Tensor(B::logical_and(raw(), other.raw()));
}

template <backend B>
Tensor<B> Tensor<B>::logical_or(const Tensor& other) const {
  static_assert(std::same_as<value_type, bool>, "ep::logical_or: needs bool tensors; compare first, e.g. (x > 0)");
  detail::check_broadcast("logical_or", *this, other);
  return Tensor(B::logical_or(raw(), other.raw()));
}

#undef EAGERPP_REQUIRE_FLOAT
#undef EAGERPP_REQUIRE_NUMERIC

// --- scalars ------------------------------------------------------------------------------------
// A C++ scalar on either side of a binary op follows NumPy's rules for Python scalars, decided at
// compile time (ep::scalar_result_t, fwd.hpp): the tensor is converted first where the result's
// dtype differs (`arange` in int64 `* 0.5` is float64), then the scalar is converted to that dtype.


template <backend B, scalar S>
auto operator+(const Tensor<B>& a, S b) {
  return detail::with_scalar(a, b, [](const auto& x, const auto& s) { return x + s; });
}
template <backend B, scalar S>
auto operator+(S a, const Tensor<B>& b) {
  return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s + y; });
}
template <backend B, scalar S>
auto operator-(const Tensor<B>& a, S b) {
  return detail::with_scalar(a, b, [](const auto& x, const auto& s) { return x - s; });
}
template <backend B, scalar S>
auto operator-(S a, const Tensor<B>& b) {
  return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s - y; });
}
template <backend B, scalar S>
auto operator*(const Tensor<B>& a, S b) {
  return detail::with_scalar(a, b, [](const auto& x, const auto& s) { return x * s; });
}
template <backend B, scalar S>
auto operator*(S a, const Tensor<B>& b) {
  return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s * y; });
}
template <backend B, scalar S>
auto operator/(const Tensor<B>& a, S b) {
  return detail::with_scalar(a, b, [](const auto& x, const auto& s) { return x / s; });
}
template <backend B, scalar S>
auto operator/(S a, const Tensor<B>& b) {
  return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s / y; });
}
template <backend B, scalar S>
auto operator%(const Tensor<B>& a, S b) {
  return a.mod(b);
}
template <backend B, scalar S>
auto operator%(S a, const Tensor<B>& b) {
  return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s.mod(y); });
}

template <backend B>
template <scalar S1, scalar S2>
auto Tensor<B>::clip(S1 min_, S2 max_) const {
  using R = std::common_type_t<scalar_result_t<value_type, S1>, scalar_result_t<value_type, S2>>;
  if constexpr (std::same_as<R, value_type>)
    return clip(static_cast<value_type>(min_), static_cast<value_type>(max_));
  else
    return astype<R>().clip(static_cast<R>(min_), static_cast<R>(max_));
}
template <backend B>
template <scalar S>
auto Tensor<B>::pow(S exponent) const {
  return detail::with_scalar(*this, exponent, [](const auto& x, const auto& s) { return x.pow(s); });
}
template <backend B>
template <scalar S>
auto Tensor<B>::minimum(S other) const {
  return detail::with_scalar(*this, other, [](const auto& x, const auto& s) { return x.minimum(s); });
}
template <backend B>
template <scalar S>
auto Tensor<B>::maximum(S other) const {
  return detail::with_scalar(*this, other, [](const auto& x, const auto& s) { return x.maximum(s); });
}
template <backend B>
template <scalar S>
auto Tensor<B>::floordiv(S other) const {
  return detail::with_scalar(*this, other, [](const auto& x, const auto& s) { return x.floordiv(s); });
}
template <backend B>
template <scalar S>
auto Tensor<B>::mod(S other) const {
  return detail::with_scalar(*this, other, [](const auto& x, const auto& s) { return x.mod(s); });
}

// --- operands handed over ----------------------------------------------------------------------
// C++ keeps the temporaries of an expression until its end: in `(-x * x).exp() * x.sin() + 1` six
// results of x's size would be alive at once. An arithmetic operator handed a temporary (an rvalue)
// gives its buffer back once the result is computed, so that the next op of the expression reuses
// it while it is still in cache. Measured (Eigen, the chain at n = 1e6): 886 -> 764 us. A recorded
// operand stays alive on the tape, which holds its own copy. Small operands are kept: their buffers
// are few and cached per thread anyway, and on xtensor an empty tensor costs an allocation (the
// xtensor chain at n = 100 went from 0.71 to 1.13 times native code with every operand released).

namespace detail {
/// True when `tensor op scalar` keeps the tensor's dtype, so that the result may reuse its operand.
template <class B, class S>
concept keeps_dtype = std::same_as<scalar_result_t<typename B::value_type, S>, typename B::value_type>;

/// Operands with fewer elements are not released early.
inline constexpr std::int64_t release_min_size = 1024;

/// `op()`, after which each of `operands` with at least release_min_size elements lets go of them.
template <class Tn, class F, class... Operands>
Tn consume(F&& op, Operands&... operands) {
  Tn result = op();
  ((operands.size() >= release_min_size ? operands.release() : void()), ...);
  return result;
}
}  // namespace detail

template <backend B>
Tensor<B> operator+(Tensor<B>&& a, const Tensor<B>& b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) + b; }, a);
}
template <backend B>
Tensor<B> operator+(const Tensor<B>& a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return a + std::as_const(b); }, b);
}
template <backend B>
Tensor<B> operator+(Tensor<B>&& a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) + std::as_const(b); }, a, b);
}
template <backend B>
Tensor<B> operator-(Tensor<B>&& a, const Tensor<B>& b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) - b; }, a);
}
template <backend B>
Tensor<B> operator-(const Tensor<B>& a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return a - std::as_const(b); }, b);
}
template <backend B>
Tensor<B> operator-(Tensor<B>&& a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) - std::as_const(b); }, a, b);
}
template <backend B>
Tensor<B> operator*(Tensor<B>&& a, const Tensor<B>& b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) * b; }, a);
}
template <backend B>
Tensor<B> operator*(const Tensor<B>& a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return a * std::as_const(b); }, b);
}
template <backend B>
Tensor<B> operator*(Tensor<B>&& a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) * std::as_const(b); }, a, b);
}
template <backend B>
  requires floating_dtype<typename B::value_type>
Tensor<B> operator/(Tensor<B>&& a, const Tensor<B>& b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) / b; }, a);
}
template <backend B>
  requires floating_dtype<typename B::value_type>
Tensor<B> operator/(const Tensor<B>& a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return a / std::as_const(b); }, b);
}
template <backend B>
  requires floating_dtype<typename B::value_type>
Tensor<B> operator/(Tensor<B>&& a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) / std::as_const(b); }, a, b);
}
template <backend B, scalar S>
  requires detail::keeps_dtype<B, S>
Tensor<B> operator+(Tensor<B>&& a, S b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) + b; }, a);
}
template <backend B, scalar S>
  requires detail::keeps_dtype<B, S>
Tensor<B> operator+(S a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return a + std::as_const(b); }, b);
}
template <backend B, scalar S>
  requires detail::keeps_dtype<B, S>
Tensor<B> operator-(Tensor<B>&& a, S b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) - b; }, a);
}
template <backend B, scalar S>
  requires detail::keeps_dtype<B, S>
Tensor<B> operator-(S a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return a - std::as_const(b); }, b);
}
template <backend B, scalar S>
  requires detail::keeps_dtype<B, S>
Tensor<B> operator*(Tensor<B>&& a, S b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) * b; }, a);
}
template <backend B, scalar S>
  requires detail::keeps_dtype<B, S>
Tensor<B> operator*(S a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return a * std::as_const(b); }, b);
}
template <backend B, scalar S>
  requires detail::keeps_dtype<B, S> && floating_dtype<typename B::value_type>
Tensor<B> operator/(Tensor<B>&& a, S b) {
  return detail::consume<Tensor<B>>([&] { return std::as_const(a) / b; }, a);
}
template <backend B, scalar S>
  requires detail::keeps_dtype<B, S> && floating_dtype<typename B::value_type>
Tensor<B> operator/(S a, Tensor<B>&& b) {
  return detail::consume<Tensor<B>>([&] { return a / std::as_const(b); }, b);
}

// --- comparisons: bool tensors of the same backend ----------------------------------------------

template <backend B>
auto operator<(const Tensor<B>& a, const Tensor<B>& b) {
  detail::check_broadcast("less", a, b);
  return typename Tensor<B>::bool_tensor(B::less(a.raw(), b.raw()));
}
template <backend B>
auto operator<=(const Tensor<B>& a, const Tensor<B>& b) {
  detail::check_broadcast("less_equal", a, b);
  return typename Tensor<B>::bool_tensor(B::less_equal(a.raw(), b.raw()));
}
template <backend B>
auto operator>(const Tensor<B>& a, const Tensor<B>& b) {
  detail::check_broadcast("greater", a, b);
  return typename Tensor<B>::bool_tensor(B::greater(a.raw(), b.raw()));
}
template <backend B>
auto operator>=(const Tensor<B>& a, const Tensor<B>& b) {
  detail::check_broadcast("greater_equal", a, b);
  return typename Tensor<B>::bool_tensor(B::greater_equal(a.raw(), b.raw()));
}
template <backend B>
auto operator==(const Tensor<B>& a, const Tensor<B>& b) {
  detail::check_broadcast("equal", a, b);
  return typename Tensor<B>::bool_tensor(B::equal(a.raw(), b.raw()));
}
template <backend B>
auto operator!=(const Tensor<B>& a, const Tensor<B>& b) {
  detail::check_broadcast("not_equal", a, b);
  return typename Tensor<B>::bool_tensor(B::not_equal(a.raw(), b.raw()));
}
// A scalar is compared after NumPy's promotion: `i < 1.5` of an integer tensor compares in float64.
template <backend B, scalar S>
auto operator<(const Tensor<B>& a, S b) {
  return detail::with_scalar(a, b, [](const auto& x, const auto& s) { return x < s; });
}
template <backend B, scalar S>
auto operator<(S a, const Tensor<B>& b) {
  return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s < y; });
}
template <backend B, scalar S>
auto operator<=(const Tensor<B>& a, S b) {
  return detail::with_scalar(a, b, [](const auto& x, const auto& s) { return x <= s; });
}
template <backend B, scalar S>
auto operator<=(S a, const Tensor<B>& b) {
  return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s <= y; });
}
template <backend B, scalar S>
auto operator>(const Tensor<B>& a, S b) {
  return detail::with_scalar(a, b, [](const auto& x, const auto& s) { return x > s; });
}
template <backend B, scalar S>
auto operator>(S a, const Tensor<B>& b) {
  return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s > y; });
}
template <backend B, scalar S>
auto operator>=(const Tensor<B>& a, S b) {
  return detail::with_scalar(a, b, [](const auto& x, const auto& s) { return x >= s; });
}
template <backend B, scalar S>
auto operator>=(S a, const Tensor<B>& b) {
  return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s >= y; });
}
template <backend B, scalar S>
auto operator==(const Tensor<B>& a, S b) {
  return detail::with_scalar(a, b, [](const auto& x, const auto& s) { return x == s; });
}
template <backend B, scalar S>
auto operator==(S a, const Tensor<B>& b) {
  return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s == y; });
}
template <backend B, scalar S>
auto operator!=(const Tensor<B>& a, S b) {
  return detail::with_scalar(a, b, [](const auto& x, const auto& s) { return x != s; });
}
template <backend B, scalar S>
auto operator!=(S a, const Tensor<B>& b) {
  return detail::with_scalar(b, a, [](const auto& y, const auto& s) { return s != y; });
}

// Mixing backends or dtypes in one op: one readable sentence, the first error the user sees (the
// `auto` return keeps `auto y = a + b;` from adding a second one about a `void` variable).
#define EAGERPP_MIXED(op, name)                                                                          \
  template <backend B1, backend B2>                                                                     \
    requires(!std::same_as<B1, B2>)                                                                     \
  auto operator op(const Tensor<B1>& a, const Tensor<B2>&) {                                            \
    static_assert(detail::always_false<B1, B2>,                                                         \
                  "ep::" name ": the two tensors have different backends or dtypes; convert one with "  \
                  "ep::to<Backend>(t) or t.astype<U>() first");                                         \
    return a;                                                                                           \
  }
EAGERPP_MIXED(+, "add")
EAGERPP_MIXED(-, "subtract")
EAGERPP_MIXED(*, "multiply")
EAGERPP_MIXED(/, "divide")
EAGERPP_MIXED(%, "mod")

namespace detail {
/// NumPy's promotion of two numeric dtypes: the wider float, float64 for an integer with a float,
/// the wider integer.
template <class T1, class T2>
using promoted_t = std::conditional_t<
    std::is_floating_point_v<T1> && std::is_floating_point_v<T2>, std::conditional_t<(sizeof(T1) > sizeof(T2)), T1, T2>,
    std::conditional_t<std::is_floating_point_v<T1> || std::is_floating_point_v<T2>, double,
                       std::conditional_t<(sizeof(T1) > sizeof(T2)), T1, T2>>>;

/// Two numeric dtypes of one backend library: a comparison promotes them (the result is bool, so
/// nothing is ambiguous); arithmetic between them stays a compile-time sentence.
template <class B1, class B2>
concept comparable_dtypes = numeric_dtype<typename B1::value_type> && numeric_dtype<typename B2::value_type> &&
                            std::same_as<typename B1::template rebind<typename B2::value_type>, B2>;
}  // namespace detail

// Comparisons of tensors of two numeric dtypes compare after NumPy's promotion (`x_float32 < y_int64`
// in float64); other mixes (backends, bool with numbers) are the same sentence as above.
#define EAGERPP_MIXED_COMPARISON(op, name)                                                                 \
  template <backend B1, backend B2>                                                                     \
    requires(!std::same_as<B1, B2>)                                                                     \
  auto operator op(const Tensor<B1>& a, const Tensor<B2>& b) {                                          \
    static_assert(detail::comparable_dtypes<B1, B2>,                                                    \
                  "ep::" name ": the two tensors have different backends, or bool and numeric dtypes; " \
                  "convert one with ep::to<Backend>(t) or t.astype<U>() first");                        \
    if constexpr (detail::comparable_dtypes<B1, B2>) {                                                  \
      using P = detail::promoted_t<typename B1::value_type, typename B2::value_type>;                   \
      return a.template astype<P>() op b.template astype<P>();                                          \
    } else {                                                                                            \
      return a;                                                                                         \
    }                                                                                                   \
  }
EAGERPP_MIXED_COMPARISON(<, "less")
EAGERPP_MIXED_COMPARISON(<=, "less_equal")
EAGERPP_MIXED_COMPARISON(>, "greater")
EAGERPP_MIXED_COMPARISON(>=, "greater_equal")
EAGERPP_MIXED_COMPARISON(==, "equal")
EAGERPP_MIXED_COMPARISON(!=, "not_equal")
#undef EAGERPP_MIXED_COMPARISON
#undef EAGERPP_MIXED

}  // namespace ep
