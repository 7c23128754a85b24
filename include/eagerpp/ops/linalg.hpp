// eagerpp - linear algebra ops of ep::Tensor: matmul, inv, slogdet (ep::linalg's on a backend with
// decompositions, eagerpp/linalg.hpp; a host LU on one without)
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>  // std::equal
#include <cmath>      // std::abs, std::log
#include <concepts>   // std::same_as
#include <cstdint>    // std::int64_t
#include <limits>     // std::numeric_limits
#include <numeric>    // std::iota

#include <fmt/format.h>

#include "eagerpp/backend_hooks.hpp"  // inverse_backend
#include "eagerpp/tensor.hpp"

namespace ep {

namespace detail {
/// The last two axes swapped.
template <class Tn>
Tn swap_last(const Tn& x) {
  std::vector<int> perm(static_cast<std::size_t>(x.ndim()));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return x.transpose(perm);
}

template <class Tn>
struct matmul_rule;

/// op(a) op(b) for operands of rank >= 2 with equal batch axes, where op transposes the last two
/// axes when its flag is set: one backend call, which reads a transposed operand in place. Its
/// gradient is four such products again, transposes included, so the backward pass of `x.matmul(w)`
/// copies no matrix, and computes nothing for an operand that is not differentiated.
template <class Tn>
Tn matmul_batched(const Tn& a, const Tn& b, bool ta, bool tb) {
  using B = typename Tn::backend_type;
  return make_result<Tn>([&] { return B::matmul(a.raw(), b.raw(), ta, tb); },
                         matmul_rule<Tn>{{}, ta, tb}, a, b);
}

template <class Tn>
struct matmul_rule : takes<Tn, 2> {
  static constexpr bool reads_needed = true;
  bool ta, tb;
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn&, const needed_grads<2>& needed, const Tn& x,
                                const Tn& y) const {
    // C = op(A) op(B), so dop(A) = g op(B)^T and dop(B) = op(A)^T g; an operand stored transposed
    // takes the transpose of its gradient, written as the product in the other order. An operand
    // that is not needed gets a placeholder (x or y itself), never accumulated.
    Tn ga = x, gb = y;
    if (needed[0]) ga = ta ? matmul_batched(y, g, tb, true) : matmul_batched(g, y, false, !tb);
    if (needed[1]) gb = tb ? matmul_batched(g, x, true, ta) : matmul_batched(x, g, !ta, false);
    return {ga, gb};
  }
};

/// d inv(x) = -inv(x)^T g inv(x)^T.
template <class Tn>
struct inv_rule : takes<Tn> {
  Tn operator()(const Tn& g, const Tn& y, const Tn&) const {
    const Tn yt = swap_last(y);
    return -(yt.matmul(g).matmul(yt));
  }
};

/// d log|det x| = inv(x)^T, per matrix of the batch (`kept`: the batch shape, then (1, 1)).
template <class Tn>
struct slogdet_rule : takes<Tn> {
  Shape kept;
  Tn operator()(const Tn& g, const Tn&, const Tn& x) const {
    return g.reshape(kept) * swap_last(x.inv());
  }
};
}  // namespace detail

template <backend B>
Tensor<B> Tensor<B>::matmul(const Tensor& other) const {
  static_assert(numeric_dtype<value_type>, "ep::matmul: needs numeric tensors, not bool");
  const auto& sa = shape_ref();
  const auto& sb = other.shape_ref();
  if (sa.size() == 0 || sb.size() == 0)
    throw value_error(
        fmt::format("matmul: operands of shapes {} and {} include a 0-d tensor; expected rank >= 1",
                    sa.str(), sb.str()));
  const std::int64_t inner_b = sb[sb.size() - (sb.size() == 1 ? 1 : 2)];
  if (sa.back() != inner_b)
    throw value_error(
        fmt::format("matmul: inner dimensions differ for shapes {} and {}; expected {} == {}",
                    sa.str(), sb.str(), sa.back(), inner_b));
  // Matrices, or stacks of them with the same batch axes: one product of the operands as they are,
  // with no copy of either tensor or of its shape (the fixed cost of a small product).
  if (sa.size() >= 2 && sa.size() == sb.size() && std::equal(sa.begin(), sa.end() - 2, sb.begin()))
    return detail::matmul_batched(*this, other, false, false);
  // NumPy: a 1-D left operand is a row vector, a 1-D right operand a column vector, removed after.
  const Tensor a = sa.size() == 1 ? reshape({1, sa[0]}) : *this;
  const Tensor b = sb.size() == 1 ? other.reshape({sb[0], 1}) : other;
  const Shape pa = a.shape();
  const Shape pb = b.shape();
  const Shape batch_a(pa.begin(), pa.end() - 2);
  const Shape batch_b(pb.begin(), pb.end() - 2);
  Shape batch = broadcast_shapes(batch_a, batch_b, "matmul");
  Shape fa = batch, fb = batch;
  fa.push_back(pa[pa.size() - 2]);
  fa.push_back(pa.back());
  fb.push_back(pb[pb.size() - 2]);
  fb.push_back(pb.back());
  Tensor r = detail::matmul_batched(pa == fa ? a : a.broadcast_to(fa),
                                    pb == fb ? b : b.broadcast_to(fb), false, false);
  if (sa.size() == 1 || sb.size() == 1) {
    Shape out = batch;
    if (sa.size() > 1) out.push_back(pa[pa.size() - 2]);
    if (sb.size() > 1) out.push_back(pb.back());
    r = r.reshape(out);
  }
  return r;
}

/// The matrix product `a @ b` (NumPy: `matmul`); batch axes broadcast.
template <backend B>
Tensor<B> matmul(const Tensor<B>& a, const Tensor<B>& b) {
  return a.matmul(b);
}

}  // namespace ep

namespace ep {

namespace linalg {
template <class Tn>
struct slogdet_result;
template <backend B>
Tensor<B> inv(const Tensor<B>& x);
template <backend B>
slogdet_result<Tensor<B>> slogdet(const Tensor<B>& x);
}  // namespace linalg

namespace detail {

/// LU factorization with partial pivoting of the n x n row-major matrix `a`, in place, in double.
/// Returns the sign of the permutation, or 0 if a pivot is exactly 0 (singular).
inline int lu_factor(std::vector<double>& a, std::vector<std::int64_t>& piv, std::int64_t n) {
  int sign = 1;
  piv.resize(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t p = k;
    for (std::int64_t i = k + 1; i < n; ++i)
      if (std::abs(a[static_cast<std::size_t>(i * n + k)]) >
          std::abs(a[static_cast<std::size_t>(p * n + k)]))
        p = i;
    piv[static_cast<std::size_t>(k)] = p;
    if (a[static_cast<std::size_t>(p * n + k)] == 0) return 0;
    if (p != k) {
      sign = -sign;
      for (std::int64_t j = 0; j < n; ++j)
        std::swap(a[static_cast<std::size_t>(k * n + j)], a[static_cast<std::size_t>(p * n + j)]);
    }
    const double pivot = a[static_cast<std::size_t>(k * n + k)];
    for (std::int64_t i = k + 1; i < n; ++i) {
      const double f = a[static_cast<std::size_t>(i * n + k)] /= pivot;
      for (std::int64_t j = k + 1; j < n; ++j)
        a[static_cast<std::size_t>(i * n + j)] -= f * a[static_cast<std::size_t>(k * n + j)];
    }
  }
  return sign;
}

/// Checks for a stack of square matrices; returns n.
inline std::int64_t square_extent(std::string_view op, const Shape& s) {
  if (s.size() < 2 || s[s.size() - 1] != s[s.size() - 2])
    throw value_error(
        fmt::format("{}: got a tensor of shape {}; expected a stack of square matrices (..., n, n)",
                    op, s.str()));
  return s.back();
}

}  // namespace detail

template <backend B>
Tensor<B> Tensor<B>::inv() const {
  static_assert(floating_dtype<value_type>, "ep::inv: needs a floating tensor (float or double)");
  if constexpr (detail::inverse_backend<B>) {
    (void)detail::square_extent("inv", shape_ref());
    std::int64_t failed = -1;
    auto out = B::inv(raw(), failed);
    if (failed >= 0)
      throw linalg_error(fmt::format(
          "inv: matrix {} (in C order) of the stack of shape {} is singular; expected invertible "
          "matrices",
          failed, shape_ref().str()));
    return detail::make_result<Tensor>(std::move(out), detail::inv_rule<Tensor>{}, *this);
  }
  if constexpr (decomposition_backend<B>) return linalg::inv(*this);
  const Shape s = shape();
  const std::int64_t n = detail::square_extent("inv", s);
  const auto values = to_vector();
  std::vector<value_type> out(values.size());
  const std::int64_t nn = n * n;
  std::vector<double> a;
  std::vector<std::int64_t> piv;
  for (std::size_t b = 0; nn > 0 && b < values.size() / static_cast<std::size_t>(nn); ++b) {
    a.assign(values.begin() + static_cast<std::ptrdiff_t>(b * nn),
             values.begin() + static_cast<std::ptrdiff_t>((b + 1) * nn));
    const bool singular = detail::lu_factor(a, piv, n) == 0;
    for (std::int64_t col = 0; col < n; ++col) {  // solve A x = e_col
      std::vector<double> x(static_cast<std::size_t>(n), 0.0);
      x[static_cast<std::size_t>(col)] = 1;
      if (singular) {
        for (auto& v : x) v = std::numeric_limits<double>::infinity();
      } else {
        for (std::int64_t k = 0; k < n; ++k)
          std::swap(x[static_cast<std::size_t>(k)],
                    x[static_cast<std::size_t>(piv[static_cast<std::size_t>(k)])]);
        for (std::int64_t i = 0; i < n; ++i)
          for (std::int64_t j = 0; j < i; ++j)
            x[static_cast<std::size_t>(i)] -=
                a[static_cast<std::size_t>(i * n + j)] * x[static_cast<std::size_t>(j)];
        for (std::int64_t i = n - 1; i >= 0; --i) {
          for (std::int64_t j = i + 1; j < n; ++j)
            x[static_cast<std::size_t>(i)] -=
                a[static_cast<std::size_t>(i * n + j)] * x[static_cast<std::size_t>(j)];
          x[static_cast<std::size_t>(i)] /= a[static_cast<std::size_t>(i * n + i)];
        }
      }
      for (std::int64_t i = 0; i < n; ++i)
        out[static_cast<std::size_t>(static_cast<std::int64_t>(b) * nn + i * n + col)] =
            static_cast<value_type>(x[static_cast<std::size_t>(i)]);
    }
  }
  const Tensor r = from_vector<B>(out, s);
  return detail::make_result<Tensor>(typename B::raw_type(r.raw()), detail::inv_rule<Tensor>{},
                                     *this);
}

template <backend B>
auto Tensor<B>::slogdet() const -> std::pair<Tensor, Tensor> {
  static_assert(floating_dtype<value_type>,
                "ep::slogdet: needs a floating tensor (float or double)");
  if constexpr (decomposition_backend<B>) {
    auto [sign, logabs] = linalg::slogdet(*this);
    return {sign, logabs};
  }
  const Shape s = shape();
  const std::int64_t n = detail::square_extent("slogdet", s);
  const Shape batch(s.begin(), s.end() - 2);
  const auto values = to_vector();
  std::vector<value_type> signs(static_cast<std::size_t>(batch.numel())), logs(signs.size());
  std::vector<double> a;
  std::vector<std::int64_t> piv;
  const std::int64_t nn = n * n;
  for (std::size_t b = 0; b < signs.size(); ++b) {
    a.assign(values.begin() + static_cast<std::ptrdiff_t>(b * nn),
             values.begin() + static_cast<std::ptrdiff_t>((b + 1) * nn));
    int sign = detail::lu_factor(a, piv, n);
    double logdet = 0;
    for (std::int64_t k = 0; sign != 0 && k < n; ++k) {
      const double d = a[static_cast<std::size_t>(k * n + k)];
      if (d < 0) sign = -sign;
      logdet += std::log(std::abs(d));
    }
    signs[b] = static_cast<value_type>(sign);
    logs[b] =
        sign == 0 ? -std::numeric_limits<value_type>::infinity() : static_cast<value_type>(logdet);
  }
  const Tensor logabs = from_vector<B>(logs, batch);
  Shape kept = batch;
  kept.push_back(1);
  kept.push_back(1);
  return {from_vector<B>(signs, batch),
          detail::make_result<Tensor>(typename B::raw_type(logabs.raw()),
                                      detail::slogdet_rule<Tensor>{{}, kept}, *this)};
}

}  // namespace ep
