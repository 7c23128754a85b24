// eagerpp - functions of the Python array API standard (2024.12) written with the facade's ops:
// creation (eye, empty, tril, triu), element-wise (reciprocal, positive, trunc, isfinite,
// logaddexp, hypot, logical_xor, atan2, copysign, nextafter, signbit), bitwise ops, statistics (var, stddev, count_nonzero) and manipulation (diff,
// roll, moveaxis, matrix_transpose, vecdot, unstack, broadcast_arrays, cumulative_sum) and the
// standard's names for ops eagerpp spells as NumPy does (acos, concat, permute_dims, ...)
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::lower_bound, std::stable_sort, std::find, std::sort, std::unique,
                        // std::reverse
#include <cmath>        // std::isnan
#include <concepts>     // std::integral
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <numeric>      // std::iota
#include <optional>     // std::optional
#include <set>          // std::set
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_floating_point_v
#include <utility>      // std::move
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/axes.hpp"
#include "eagerpp/detail/numpy_math.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/functions.hpp"
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
  const auto d = j - i;
  if (side < 0) return d <= k;
  if (side > 0) return d >= k;
  return d == k;
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

/// Whether each element is finite, neither infinite nor NaN (array API: `isfinite`); true for every
/// integer and bool.
template <backend B>
Tensor<typename B::template rebind<bool>> isfinite(const Tensor<B>& x) {
  if constexpr (detail::floating<typename B::value_type>) {
    return x.isnan().logical_or(x.isinf()).logical_not();
  } else {
    return ones<typename B::template rebind<bool>>(x.shape());
  }
}

/// log(exp(a) + exp(b)) without overflow (array API: `logaddexp`; floating dtypes, broadcast):
/// max(a, b) + log1p(exp(-|a - b|)). +infinity with anything but NaN gives +infinity, two
/// -infinities -infinity, NaN NaN. The gradient is the softmax weight of each operand (1/2 each
/// where they are equal).
template <backend B>
Tensor<B> logaddexp(const Tensor<B>& a, const Tensor<B>& b) {
  using T = typename B::value_type;
  static_assert(detail::floating<T>,
                "ep::logaddexp: the operands must be of a floating dtype (convert with astype)");
  // Equal infinities would give inf - inf = NaN: their difference is taken as 0.
  const auto same_infinity = a.isinf().logical_and(a == b);
  const auto d = where(same_infinity, T(0), a - b);
  return a.maximum(b) + (-d.abs()).exp().log1p();
}

/// sqrt(a^2 + b^2) without overflow or underflow in the squares (array API: `hypot`; floating
/// dtypes, broadcast): m sqrt(1 + (n / m)^2) with m = max(|a|, |b|), n = min(|a|, |b|); an infinite
/// operand gives +infinity even beside NaN, as the standard says. The gradient at (0, 0) is 0.
template <backend B>
Tensor<B> hypot(const Tensor<B>& a, const Tensor<B>& b) {
  using T = typename B::value_type;
  static_assert(detail::floating<T>,
                "ep::hypot: the operands must be of a floating dtype (convert with astype)");
  const auto x = a.abs(), y = b.abs();
  const auto m = x.maximum(y), n = x.minimum(y);
  // 0 / 0 where both are zero: divide by 1 there instead (the ratio is 0 either way), so that
  // neither the value nor the gradient sees a NaN.
  const auto r = n / where(m == 0, T(1), m);
  const auto h = m * (r.square() + 1).sqrt();
  return where(x.isinf().logical_or(y.isinf()), std::numeric_limits<T>::infinity(), h);
}

namespace detail {

/// Whether x's sign bit is set, element by element: copysign(1, x) < 0.
template <backend B>
typename Tensor<B>::bool_tensor sign_bit(const Tensor<B>& x) {
  const auto unit = make_constant<Tensor<B>>(
      elementwise(&B::template zip_rule<numpy::rule::copysign>, x.full_scalar(1), x));
  return unit < typename B::value_type(0);
}

/// d/da atan2(a, b) = b / (a^2 + b^2), d/db = -a / (a^2 + b^2) (NaN at the origin, as JAX's).
template <class Tn>
struct atan2_rule : takes<Tn, 2> {
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn&, const Tn& a, const Tn& b) const {
    const Tn w = g / (a.square() + b.square());
    return {unbroadcast(w * b, a.shape()), unbroadcast(-(w * a), b.shape())};
  }
};
/// copysign(a, b) is |a| with b's sign: d/da = sign(a), negated where b's sign bit is set (0 at
/// a = 0, as JAX's); b only selects a sign, d/db = 0.
template <class Tn>
struct copysign_rule : takes<Tn, 2> {
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn&, const Tn& a, const Tn& b) const {
    const Tn flip = where(sign_bit(b), typename Tn::value_type(-1), typename Tn::value_type(1));
    return {unbroadcast(g * a.sign() * flip, a.shape()), b.zeros_like()};
  }
};

/// A binary op of two floating tensors computed by the backends' `zip_rule<R>`, naming `op`.
template <numpy::rule R, class Rule, backend B>
Tensor<B> floating_rule(std::string_view op, const Tensor<B>& a, const Tensor<B>& b,
                        const Rule& rule) {
  return binary<&B::template zip_rule<R>>(op, a, b, rule);
}

}  // namespace detail

/// The angle of the point (b, a) in radians, in [-pi, pi] (array API: `atan2(x1, x2)`, x1 the y
/// coordinate; floating dtypes, broadcast). The signs of zeros and infinities pick the quadrant as
/// C's atan2 does, which the standard's special cases repeat: atan2(+0, -0) = +pi,
/// atan2(-0, -0) = -pi, atan2(+inf, -inf) = 3pi/4.
template <backend B>
Tensor<B> atan2(const Tensor<B>& a, const Tensor<B>& b) {
  static_assert(detail::floating<typename B::value_type>,
                "ep::atan2: the operands must be of a floating dtype (convert with astype)");
  return detail::floating_rule<detail::numpy::rule::atan2>("atan2", a, b,
                                                           detail::atan2_rule<Tensor<B>>{});
}

/// |a| with the sign of b, the sign bit read even from a zero or a NaN (array API: `copysign`;
/// floating dtypes, broadcast): copysign(1, -0.0) = -1. Differentiable in a.
template <backend B>
Tensor<B> copysign(const Tensor<B>& a, const Tensor<B>& b) {
  static_assert(detail::floating<typename B::value_type>,
                "ep::copysign: the operands must be of a floating dtype (convert with astype)");
  return detail::floating_rule<detail::numpy::rule::copysign>("copysign", a, b,
                                                              detail::copysign_rule<Tensor<B>>{});
}

/// The next representable value after a in the direction of b (array API: `nextafter`; floating
/// dtypes, broadcast): b itself where a == b, NaN where either is NaN. A step function: its result
/// is a constant of the tape (no gradient), as in JAX.
template <backend B>
Tensor<B> nextafter(const Tensor<B>& a, const Tensor<B>& b) {
  static_assert(detail::floating<typename B::value_type>,
                "ep::nextafter: the operands must be of a floating dtype (convert with astype)");
  detail::check_broadcast("nextafter", a, b);
  return detail::make_constant<Tensor<B>>(
      detail::elementwise(&B::template zip_rule<detail::numpy::rule::nextafter>, a, b));
}

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
EAGERPP_ARRAY_API_BINARY(atan2)
EAGERPP_ARRAY_API_BINARY(copysign)
EAGERPP_ARRAY_API_BINARY(hypot)
EAGERPP_ARRAY_API_BINARY(logaddexp)
EAGERPP_ARRAY_API_BINARY(nextafter)
EAGERPP_ARRAY_API_BINARY(logical_xor)
EAGERPP_ARRAY_API_BINARY(bitwise_and)
EAGERPP_ARRAY_API_BINARY(bitwise_or)
EAGERPP_ARRAY_API_BINARY(bitwise_xor)
EAGERPP_ARRAY_API_BINARY(bitwise_left_shift)
EAGERPP_ARRAY_API_BINARY(bitwise_right_shift)
#undef EAGERPP_ARRAY_API_BINARY

/// The real part (array API: `real`); of a real dtype, x itself, as the standard allows since
/// 2024.12.
template <backend B>
Tensor<B> real(const Tensor<B>& x) {
  return x;
}
/// The complex conjugate (array API: `conj`); of a real dtype, x itself (2024.12).
template <backend B>
Tensor<B> conj(const Tensor<B>& x) {
  return x;
}
/// The imaginary part (array API: `imag`, which specifies complex input only); of a real dtype,
/// zeros of x's shape and dtype, as NumPy's and JAX's `imag` give.
template <backend B>
Tensor<B> imag(const Tensor<B>& x) {
  return x.zeros_like();
}

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

// --- manipulation --------------------------------------------------------------------------------

/// The n-th forward difference along `axis`, x[1:] - x[:-1] applied n times (array API: `diff`;
/// NumPy: `diff`). n = 0 returns x; the axis shrinks by n (to 0 at most).
template <backend B>
Tensor<B> diff(const Tensor<B>& x, int axis = -1, int n = 1) {
  const Shape s = x.shape();
  if (s.size() == 0) throw value_error("diff: x is 0-dimensional; expected at least one axis");
  const int a = detail::normalize_axis("diff", axis, s);
  if (n < 0) throw value_error(fmt::format("diff: n = {}; expected n >= 0", n));
  Tensor<B> r = x;
  for (int i = 0; i < n && r.shape()[a] > 0; ++i) {
    const std::int64_t len = r.shape()[a];
    r = detail::slice_axis(r, a, 1, len) - detail::slice_axis(r, a, 0, len - 1);
  }
  return r;
}

/// x with its elements shifted by `shift` along `axis`, those past the end coming back at the start
/// (array API: `roll`); without an axis, over the flattened tensor, then reshaped back.
template <backend B>
Tensor<B> roll(const Tensor<B>& x, std::int64_t shift, std::optional<int> axis = std::nullopt) {
  if (!axis) {
    if (x.size() == 0) return x;
    return roll(x.reshape({-1}), shift, 0).reshape(x.shape());
  }
  const int a = detail::normalize_axis("roll", *axis, x.shape());
  const std::int64_t n = x.shape()[a];
  if (n == 0) return x;
  const std::int64_t s = ((shift % n) + n) % n;
  if (s == 0) return x;
  return concatenate(std::vector<Tensor<B>>{detail::slice_axis(x, a, n - s, n),
                                            detail::slice_axis(x, a, 0, n - s)},
                     a);
}

/// x with axis `source` moved to position `destination`, the others in order (array API:
/// `moveaxis`).
template <backend B>
Tensor<B> moveaxis(const Tensor<B>& x, int source, int destination) {
  const int from = detail::normalize_axis("moveaxis", source, x.shape());
  const int to = detail::normalize_axis("moveaxis", destination, x.shape());
  std::vector<int> perm;
  for (int i = 0; i < x.ndim(); ++i)
    if (i != from) perm.push_back(i);
  perm.insert(perm.begin() + to, from);
  return x.transpose(perm);
}

/// x with its last two axes swapped (array API: `matrix_transpose`, the `mT` attribute).
template <backend B>
Tensor<B> matrix_transpose(const Tensor<B>& x) {
  const int r = x.ndim();
  if (r < 2)
    throw value_error(fmt::format("matrix_transpose: x has shape {}; expected at least two axes",
                                  x.shape().str()));
  std::vector<int> perm;
  for (int i = 0; i < r - 2; ++i) perm.push_back(i);
  perm.push_back(r - 1);
  perm.push_back(r - 2);
  return x.transpose(perm);
}

/// The dot products of a and b along `axis` after broadcasting (array API: `vecdot`, real dtypes):
/// sum(a * b, axis). The operands must have the same extent on that axis.
template <backend B>
Tensor<B> vecdot(const Tensor<B>& a, const Tensor<B>& b, int axis = -1) {
  const Shape sa = a.shape(), sb = b.shape();
  const int ia = detail::normalize_axis("vecdot", axis, sa);
  const int ib = detail::normalize_axis("vecdot", axis, sb);
  if (sa[ia] != sb[ib])
    throw value_error(fmt::format(
        "vecdot: the operands of shapes {} and {} have extents {} and {} along axis {}; expected "
        "equal extents",
        sa.str(), sb.str(), sa[ia], sb[ib], axis));
  // x's dtype, as the standard says: sum widens 8- and 16-bit integers, and the products' sum
  // taken modulo 2^bits is NumPy's wrapping vecdot.
  return (a * b).sum(axis).template astype<typename B::value_type>();
}

EAGERPP_MIXED_FUNCTION(vecdot)

/// x clipped to [min_, max_] element by element with tensor bounds that broadcast (array API: `clip`
/// with array bounds): minimum(maximum(x, min_), max_). The gradient goes to x where it lies
/// inside, to a bound where the bound applies.
template <backend B>
Tensor<B> clip(const Tensor<B>& x, const Tensor<B>& min_, const Tensor<B>& max_) {
  return x.maximum(min_).minimum(max_);
}

/// The sum of products over the last `axes` axes of a and the first `axes` axes of b (array API:
/// `tensordot` with an integer): shape a.shape[:-axes] + b.shape[axes:]; axes = 0 is the outer
/// product. One matrix product after moving and merging the contracted axes.
template <backend B>
Tensor<B> tensordot(const Tensor<B>& a, const Tensor<B>& b, int axes = 2) {
  const Shape sa = a.shape(), sb = b.shape();
  if (axes < 0 || axes > sa.size() || axes > sb.size())
    throw value_error(fmt::format(
        "tensordot: axes = {} for operands of shapes {} and {}; expected 0 <= axes <= the rank "
        "of each",
        axes, sa.str(), sb.str()));
  std::int64_t k = 1, m = 1, n = 1;
  Shape out;
  for (int i = 0; i < axes; ++i) {
    if (sa[sa.size() - axes + i] != sb[i])
      throw value_error(fmt::format(
          "tensordot: the contracted axes of shapes {} and {} differ ({} against {} at position "
          "{}); expected equal extents",
          sa.str(), sb.str(), sa[sa.size() - axes + i], sb[i], i));
    k *= sb[i];
  }
  for (int i = 0; i < sa.size() - axes; ++i) {
    m *= sa[i];
    out.push_back(sa[i]);
  }
  for (int i = axes; i < sb.size(); ++i) {
    n *= sb[i];
    out.push_back(sb[i]);
  }
  return a.reshape({m, k}).matmul(b.reshape({k, n})).reshape(out);
}

/// x with an axis of extent 1 inserted at each of `axes`, counted in the result's axes (array API
/// 2025.12: `expand_dims` with a tuple of axes; one axis: `x.expand_dims(axis)`); throws
/// `ep::value_error` for an axis out of range or named twice.
template <backend B>
Tensor<B> expand_dims(const Tensor<B>& x, const std::vector<int>& axes) {
  const Shape s = x.shape();
  const int n = s.size() + static_cast<int>(axes.size());
  std::vector<bool> inserted(static_cast<std::size_t>(n), false);
  for (int a : axes) {
    if (a < -n || a >= n)
      throw value_error(fmt::format(
          "expand_dims: axis {} is out of range for {} axes inserted into a tensor of shape {}; "
          "expected {} <= axis < {}",
          a, axes.size(), s.str(), -n, n));
    const auto k = static_cast<std::size_t>(a < 0 ? a + n : a);
    if (inserted[k])
      throw value_error(fmt::format("expand_dims: axis {} is named twice; expected distinct axes",
                                    static_cast<int>(k)));
    inserted[k] = true;
  }
  Shape out;
  int next = 0;
  for (int i = 0; i < n; ++i) out.push_back(inserted[static_cast<std::size_t>(i)] ? 1 : s[next++]);
  return x.reshape(out);
}

/// The slices of x along `axis`, each without that axis (array API: `unstack`).
template <backend B>
std::vector<Tensor<B>> unstack(const Tensor<B>& x, int axis = 0) {
  const int a = detail::normalize_axis("unstack", axis, x.shape());
  const Tensor<B> moved = moveaxis(x, a, 0);
  std::vector<Tensor<B>> out;
  for (std::int64_t i = 0; i < moved.shape()[0]; ++i) out.push_back(moved(i));
  return out;
}

/// The tensors broadcast to their common shape (array API: `broadcast_arrays`); throws
/// ep::value_error naming the shapes that do not broadcast.
template <backend B>
std::vector<Tensor<B>> broadcast_arrays(const std::vector<Tensor<B>>& xs) {
  if (xs.empty()) return {};
  Shape common = xs.front().shape();
  for (const auto& x : xs) common = broadcast_shapes(common, x.shape(), "broadcast_arrays");
  std::vector<Tensor<B>> out;
  for (const auto& x : xs) out.push_back(x.broadcast_to(common));
  return out;
}

/// The cumulative sum along `axis` (array API: `cumulative_sum`; NumPy: `cumsum`); with
/// `include_initial` the result starts with a 0, one element longer along the axis. A 1-D x needs
/// no axis.
template <backend B>
auto cumulative_sum(const Tensor<B>& x, std::optional<int> axis = std::nullopt,
                    bool include_initial = false) {
  if (!axis && x.ndim() != 1)
    throw value_error(fmt::format(
        "cumulative_sum: x has shape {}; expected an axis for a tensor of more than one axis",
        x.shape().str()));
  const int a = detail::normalize_axis("cumulative_sum", axis.value_or(0), x.shape());
  auto s = x.cumsum(a);
  if (!include_initial) return s;
  Paddings p(static_cast<std::size_t>(x.ndim()), {0, 0});
  p[static_cast<std::size_t>(a)] = {1, 0};
  return s.pad(p);
}

// --- sorting, searching and sets ----------------------------------------------------------------

/// The keyword arguments of sort and argsort (array API: `axis=-1, descending=False,
/// stable=True`): `ep::sort(x, {.axis = 0, .descending = true})`. Sorts are always stable.
struct sort_options {
  int axis = -1;
  bool descending = false;
  bool stable = true;
};

/// The indices that sort x along an axis (array API: `argsort`); descending keeps equal elements
/// in their order (stable) and puts NaN first, the ascending order's NaN-last reversed.
template <backend B>
auto argsort(const Tensor<B>& x, sort_options options) {
  const int a = x.ndim() == 0 ? 0 : detail::normalize_axis("argsort", options.axis, x.shape());
  if (!options.descending || x.ndim() == 0) return x.argsort(a);
  // The stable ascending order of x reversed along the axis, read back to front: equal elements
  // keep their order.
  const std::int64_t n = x.shape()[static_cast<std::size_t>(a)];
  return (n - 1) - x.flip(a).argsort(a).flip(a);
}

/// x sorted along an axis (array API: `sort`), descending as argsort's.
template <backend B>
Tensor<B> sort(const Tensor<B>& x, sort_options options) {
  const int a = x.ndim() == 0 ? 0 : detail::normalize_axis("sort", options.axis, x.shape());
  if (!options.descending || x.ndim() == 0) return x.sort(a);
  return x.sort(a).flip(a);
}

namespace detail {

template <class B>
using index_of = Tensor<typename B::template rebind<std::int64_t>>;
}  // namespace detail

/// For each element of x2, the index where it would be inserted into the sorted 1-D x1 to keep
/// it sorted (array API: `searchsorted`): side "left" before equal elements, "right" after;
/// `sorter`: int64 indices that sort x1. NaN sorts last. The search runs on the host.
template <backend B>
detail::index_of<B> searchsorted(const Tensor<B>& x1, const Tensor<B>& x2,
                                 std::string_view side = "left",
                                 const std::optional<detail::index_of<B>>& sorter = std::nullopt) {
  if (x1.ndim() != 1)
    throw value_error(
        fmt::format("searchsorted: x1 has shape {}; expected a 1-D tensor", x1.shape().str()));
  if (side != "left" && side != "right")
    throw value_error(
        fmt::format("searchsorted: side \"{}\" is unknown; expected \"left\" or \"right\"", side));
  if (sorter && sorter->shape() != x1.shape())
    throw value_error(fmt::format("searchsorted: sorter has shape {}; expected x1's shape {}",
                                  sorter->shape().str(), x1.shape().str()));
  const auto sorted = (sorter ? x1[*sorter] : x1).to_vector();
  const auto v = x2.to_vector();
  std::vector<std::int64_t> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto it = side == "left" ? std::lower_bound(sorted.begin(), sorted.end(), v[i],
                                                      detail::numpy::less<typename B::value_type>)
                                   : std::upper_bound(sorted.begin(), sorted.end(), v[i],
                                                      detail::numpy::less<typename B::value_type>);
    out[i] = it - sorted.begin();
  }
  return from_vector<typename B::template rebind<std::int64_t>>(out, x2.shape());
}

namespace detail {

/// Whether B keeps its elements in host memory (the optional `share_host` hook: Eigen, xtensor,
/// omp). There the functions whose result's shape depends on the data (nonzero, unique_*) read
/// the elements once and compute on the host; elsewhere (ep::cuda) they run as the backend's own
/// sorts, scans and gathers (the *_by_ops functions below), and read back one count.
template <class B>
concept host_memory = backend_hooks<B>::share_host;

/// The flat positions of x's non-zero elements, ascending, as the backend's ops compute them: a
/// stable argsort of `x == 0` puts them first, in order; their count is read back.
template <backend B>
index_of<B> nonzero_flat_by_ops(const Tensor<B>& x) {
  using I = typename B::template rebind<std::int64_t>;
  const auto zero = (x.flatten() == typename B::value_type(0)).template astype<std::int64_t>();
  const std::int64_t n = zero.size(), k = n - zero.sum().item();
  if (k == 0) return zeros<I>(Shape{0});
  return zero.argsort(0)(slice(0, k));
}

/// unique_all as the backend's ops compute it: one stable argsort of flattened x, the heads of its
/// runs of equal values (a NaN differs from everything, so each is its own run) from one
/// comparison of neighbours, their ranks by a cumulative sum, and gathers.
template <backend B>
auto unique_all_by_ops(const Tensor<B>& x) {
  using T = typename B::value_type;
  using I = typename B::template rebind<std::int64_t>;
  struct result {
    Tensor<B> values;
    index_of<B> indices, inverse_indices, counts;
  };
  if constexpr (std::is_same_v<T, bool>) {  // as 0 and 1
    auto r = unique_all_by_ops(x.template astype<std::uint8_t>());
    return result{r.values.template astype<bool>(), r.indices, r.inverse_indices, r.counts};
  } else {
    const auto flat = x.flatten();
    const std::int64_t n = flat.size();
    if (n == 0) return result{flat, zeros<I>(Shape{0}), zeros<I>(x.shape()), zeros<I>(Shape{0})};
    const auto perm = flat.argsort(0);
    const auto sorted = flat[perm];
    const auto heads = concatenate(
        {ones<I>(Shape{1}),
         (sorted(slice(1, {})) != sorted(slice({}, -1))).template astype<std::int64_t>()},
        0);
    const auto rank = heads.cumsum() - 1;
    const std::int64_t k = rank(slice(-1, {})).item() + 1;
    const auto starts = (1 - heads).argsort(0)(slice(0, k));
    return result{sorted[starts], perm[starts], rank[perm.argsort(0)].reshape(x.shape()),
                  diff(concatenate({starts, full<I>(Shape{1}, n)}, 0))};
  }
}

}  // namespace detail

/// The indices of x's non-zero (true) elements, one int64 tensor per axis, in C order (array API:
/// `nonzero`); x must have at least one axis. On a host backend computed on the host; on a device
/// backend by its own ops (detail::nonzero_flat_by_ops), the count read back.
template <backend B>
std::vector<detail::index_of<B>> nonzero(const Tensor<B>& x) {
  const Shape s = x.shape();
  if (s.empty()) throw value_error("nonzero: x is 0-d; expected a tensor of at least one axis");
  if constexpr (!detail::host_memory<B>) {
    // C order: the last axis varies fastest, so each axis's index is peeled off from the back.
    auto rest = detail::nonzero_flat_by_ops(x);
    std::vector<detail::index_of<B>> out;
    for (std::size_t d = s.size(); d-- > 0;) {
      out.push_back(rest.mod(s[d]));
      rest = rest.floordiv(s[d]);
    }
    std::reverse(out.begin(), out.end());
    return out;
  }
  const auto v = x.to_vector();
  std::vector<std::vector<std::int64_t>> idx(s.size());
  for (std::size_t flat = 0; flat < v.size(); ++flat) {
    if (v[flat] == typename B::value_type(0)) continue;
    std::size_t rest = flat;
    for (std::size_t d = s.size(); d-- > 0;) {
      idx[d].push_back(static_cast<std::int64_t>(rest % static_cast<std::size_t>(s[d])));
      rest /= static_cast<std::size_t>(s[d]);
    }
  }
  std::vector<detail::index_of<B>> out;
  for (const auto& i : idx)
    out.push_back(from_vector<typename B::template rebind<std::int64_t>>(
        i, Shape{static_cast<std::int64_t>(i.size())}));
  return out;
}

/// What the unique_* functions return, with the array API's field names.
template <class B>
struct unique_all_result {
  Tensor<B> values;
  detail::index_of<B> indices, inverse_indices, counts;
};
template <class B>
struct unique_counts_result {
  Tensor<B> values;
  detail::index_of<B> counts;
};
template <class B>
struct unique_inverse_result {
  Tensor<B> values;
  detail::index_of<B> inverse_indices;
};

/// The distinct elements of x, sorted (array API: `unique_all`), with the index of each one's
/// first occurrence in flattened x, the index into `values` of every element of x (x's shape),
/// and each one's count. As the standard says, every NaN is distinct and +0 equals -0.
/// On a host backend computed on the host by one stable sort; on a device backend by its own ops
/// (detail::unique_all_by_ops).
template <backend B>
unique_all_result<B> unique_all(const Tensor<B>& x) {
  using T = typename B::value_type;
  using I = typename B::template rebind<std::int64_t>;
  if constexpr (!detail::host_memory<B>) {
    auto r = detail::unique_all_by_ops(x);
    return {r.values, r.indices, r.inverse_indices, r.counts};
  }
  const auto v = x.to_vector();
  std::vector<std::int64_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return detail::numpy::less<typename B::value_type>(v[static_cast<std::size_t>(a)],
                                                       v[static_cast<std::size_t>(b)]);
  });
  std::vector<T> values;
  std::vector<std::int64_t> first, counts, inverse(v.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto i = static_cast<std::size_t>(order[k]);
    if (k == 0 || !(v[i] == values.back())) {  // NaN == NaN is false: each NaN its own group
      values.push_back(v[i]);
      first.push_back(order[k]);
      counts.push_back(0);
    }
    ++counts.back();
    inverse[i] = static_cast<std::int64_t>(values.size()) - 1;
  }
  const Shape n{static_cast<std::int64_t>(values.size())};
  return {from_vector<B>(values, n), from_vector<I>(first, n), from_vector<I>(inverse, x.shape()),
          from_vector<I>(counts, n)};
}

/// The distinct elements of x and their counts (array API: `unique_counts`).
template <backend B>
unique_counts_result<B> unique_counts(const Tensor<B>& x) {
  auto r = unique_all(x);
  return {r.values, r.counts};
}

/// The distinct elements of x and the index into them of every element (array API:
/// `unique_inverse`).
template <backend B>
unique_inverse_result<B> unique_inverse(const Tensor<B>& x) {
  auto r = unique_all(x);
  return {r.values, r.inverse_indices};
}

/// The distinct elements of x, sorted (array API: `unique_values`): x's values sorted and their
/// runs of equal ones kept once, with no index bookkeeping (NaNs stay distinct, as in unique_all).
template <backend B>
Tensor<B> unique_values(const Tensor<B>& x) {
  using T = typename B::value_type;
  if constexpr (std::is_same_v<T, bool> || !detail::host_memory<B>) {
    return unique_all(x).values;
  } else {
    auto v = x.to_vector();
    std::sort(v.begin(), v.end(), detail::numpy::less<T>);
    v.erase(std::unique(v.begin(), v.end(), [](T a, T b) { return a == b; }), v.end());
    const Shape n{static_cast<std::int64_t>(v.size())};
    return from_vector<B>(v, n);
  }
}

/// Whether each element of x1 is in x2 (array API 2025.12: `isin`), or is not with `invert`;
/// NaN is in nothing. Computed on the host: x2 sorted once, then a binary search per element.
template <backend B>
Tensor<typename B::template rebind<bool>> isin(const Tensor<B>& x1, const Tensor<B>& x2,
                                               bool invert = false) {
  auto set = x2.to_vector();
  std::sort(set.begin(), set.end(), detail::numpy::less<typename B::value_type>);
  const auto v = x1.to_vector();
  std::vector<bool> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    bool found = false;
    if constexpr (std::is_floating_point_v<typename B::value_type>)
      found = !std::isnan(v[i]) && std::binary_search(set.begin(), set.end(), v[i],
                                                      detail::numpy::less<typename B::value_type>);
    else
      found = std::binary_search(set.begin(), set.end(), v[i]);
    out[i] = found != invert;
  }
  return from_vector<typename B::template rebind<bool>>(out, x1.shape());
}

/// Each element of x repeated along `axis` (flattened x when there is none) `repeats` times, or
/// repeats[i] times for the i-th (array API: `repeat`). Differentiable: a gather whose gradient
/// sums the copies.
template <backend B>
Tensor<B> repeat(const Tensor<B>& x, const std::vector<std::int64_t>& repeats,
                 std::optional<int> axis = std::nullopt) {
  const Tensor<B> src = axis ? moveaxis(x, detail::normalize_axis("repeat", *axis, x.shape()), 0)
                             : x.reshape({x.size()});
  const std::int64_t n = src.ndim() == 0 ? 1 : src.shape()[0];
  if (repeats.size() != 1 && static_cast<std::int64_t>(repeats.size()) != n)
    throw value_error(fmt::format(
        "repeat: {} repeats for {} elements along the axis of x of shape {}; expected 1 or {}",
        repeats.size(), n, x.shape().str(), n));
  std::vector<std::int64_t> index;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t r = repeats.size() == 1 ? repeats[0] : repeats[static_cast<std::size_t>(i)];
    if (r < 0)
      throw value_error(fmt::format("repeat: repeats[{}] = {}; expected counts >= 0", i, r));
    index.insert(index.end(), static_cast<std::size_t>(r), i);
  }
  const auto idx = from_vector<typename B::template rebind<std::int64_t>>(
      index, Shape{static_cast<std::int64_t>(index.size())});
  const Tensor<B> out = src[idx];
  return axis ? moveaxis(out, 0, detail::normalize_axis("repeat", *axis, x.shape())) : out;
}
template <backend B>
Tensor<B> repeat(const Tensor<B>& x, std::int64_t repeats, std::optional<int> axis = std::nullopt) {
  return repeat(x, std::vector<std::int64_t>{repeats}, axis);
}

namespace detail {
template <class Tn>
Tn cumulative_prod_of(const Tn& x, int axis);

/// x's sum from each position to the end along `axis`.
template <class Tn>
Tn reverse_cumsum(const Tn& x, int axis) {
  return x.flip(axis).cumsum(axis).flip(axis);
}

/// d cumprod, zeros included: before the first zero along the axis, reverse_cumsum(g y) / x; at
/// the first zero, reverse_cumsum(g y') with y' the product of x with that zero taken as 1; after
/// it, 0 (every product there holds the zero). Its own derivative is exact away from zeros; at an
/// exact zero the masks are constants, so a second derivative there misses the terms through it.
template <class Tn>
struct cumprod_rule : takes<Tn> {
  int axis;
  Tn operator()(const Tn& g, const Tn& y, const Tn& x) const {
    using T = typename Tn::value_type;
    const auto zero = x == T(0);
    const Tn zeros_so_far = zero.template astype<T>().cumsum(axis);
    const auto before = zeros_so_far == T(0);
    const auto first_zero = zero.logical_and(zeros_so_far == T(1));
    const Tn t1 = reverse_cumsum(g * y, axis) / where(before, x, T(1));
    const Tn t2 = reverse_cumsum(g * cumulative_prod_of(where(first_zero, T(1), x), axis), axis);
    return where(before, t1, where(first_zero, t2, T(0)));
  }
};

/// The cumulative product along `axis` (computed on the host), with its gradient rule.
template <class Tn>
Tn cumulative_prod_of(const Tn& x, int axis) {
  using B = typename Tn::backend_type;
  const Shape s = x.shape();
  auto v = x.to_vector();
  const std::int64_t n = s[static_cast<std::size_t>(axis)];
  std::int64_t inner = 1;
  for (int d = axis + 1; d < s.size(); ++d) inner *= s[d];
  const std::int64_t outer = n * inner == 0 ? 0 : x.size() / (n * inner);
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t k = 1; k < n; ++k)
      for (std::int64_t i = 0; i < inner; ++i) {
        const auto at = static_cast<std::size_t>((o * n + k) * inner + i);
        v[at] = v[at] * v[at - static_cast<std::size_t>(inner)];
      }
  const Tn r = from_vector<B>(v, s);
  if constexpr (std::is_floating_point_v<typename Tn::value_type>)
    return make_result<Tn>(typename B::raw_type(r.raw()), cumprod_rule<Tn>{{}, axis}, x);
  else
    return r;
}
}  // namespace detail

/// The cumulative product along `axis` (array API: `cumulative_prod`); with `include_initial` the
/// result starts with a 1. A 1-D x needs no axis. Differentiable, zeros included. An 8- or 16-bit
/// integer x accumulates in the 64-bit integer of its signedness (sum_dtype_t), as NumPy's does.
template <backend B>
auto cumulative_prod(const Tensor<B>& x, std::optional<int> axis = std::nullopt,
                     bool include_initial = false) {
  using T = typename B::value_type;
  static_assert(numeric_dtype<T>, "ep::cumulative_prod: needs a numeric tensor, not bool");
  if constexpr (!std::same_as<sum_dtype_t<T>, T>) {
    return cumulative_prod(x.template astype<sum_dtype_t<T>>(), axis, include_initial);
  } else {
    if (!axis && x.ndim() != 1)
      throw value_error(fmt::format(
          "cumulative_prod: x has shape {}; expected an axis for a tensor of more than one axis",
          x.shape().str()));
    const int a = detail::normalize_axis("cumulative_prod", axis.value_or(0), x.shape());
    const Tensor<B> p = detail::cumulative_prod_of(x, a);
    if (!include_initial) return p;
    Paddings pad(static_cast<std::size_t>(x.ndim()), {0, 0});
    pad[static_cast<std::size_t>(a)] = {1, 0};
    return p.pad(pad, "constant", T(1));
  }
}

/// tensordot over the listed axes: axes_a[i] of a against axes_b[i] of b (array API: `tensordot`
/// with two sequences); the result has a's other axes, then b's.
template <backend B>
Tensor<B> tensordot(const Tensor<B>& a, const Tensor<B>& b, const std::vector<int>& axes_a,
                    const std::vector<int>& axes_b) {
  if (axes_a.size() != axes_b.size())
    throw value_error(
        fmt::format("tensordot: {} axes of a and {} of b; expected as many contracted axes of each",
                    axes_a.size(), axes_b.size()));
  const auto order = [](const Tensor<B>& t, const std::vector<int>& axes, bool contracted_last) {
    std::vector<int> named, rest;
    for (const int ax : axes) named.push_back(detail::normalize_axis("tensordot", ax, t.shape()));
    for (int d = 0; d < t.ndim(); ++d)
      if (std::find(named.begin(), named.end(), d) == named.end()) rest.push_back(d);
    if (named.size() != std::set<int>(named.begin(), named.end()).size())
      throw value_error(
          fmt::format("tensordot: an axis is named twice for shape {}", t.shape().str()));
    std::vector<int> perm = contracted_last ? rest : named;
    const auto& tail = contracted_last ? named : rest;
    perm.insert(perm.end(), tail.begin(), tail.end());
    return t.transpose(perm);
  };
  return tensordot(order(a, axes_a, true), order(b, axes_b, false),
                   static_cast<int>(axes_a.size()));
}
EAGERPP_MIXED_FUNCTION(tensordot)

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
EAGERPP_ARRAY_API_METHODS(EAGERPP_ARRAY_API_METHOD)
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
