// eagerpp - functions of the Python array API standard (2024.12) written with the facade's ops:
// creation (eye, empty, tril, triu), element-wise (reciprocal, positive, trunc, isfinite,
// logaddexp, hypot, logical_xor), statistics (var, stddev, count_nonzero) and manipulation (diff,
// roll, moveaxis, matrix_transpose, vecdot, unstack, broadcast_arrays, cumulative_sum) and the
// standard's names for ops eagerpp spells as NumPy does (acos, concat, permute_dims, ...)
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <optional>     // std::optional
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_floating_point_v
#include <utility>      // std::move
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/axes.hpp"
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
  return detail::band_mask<B>(n_rows, cols, k, 0).template astype<typename B::value_type>();
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

/// The exclusive or of two bool tensors (array API: `logical_xor`; broadcast).
template <backend B>
Tensor<B> logical_xor(const Tensor<B>& a, const Tensor<B>& b) {
  static_assert(std::is_same_v<typename B::value_type, bool>,
                "ep::logical_xor: the operands must be bool tensors (compare with a value first)");
  return a != b;
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
  return (a * b).sum(axis);
}

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

}  // namespace ep
