// eagerpp - linear algebra ops of ep::Tensor: matmul, inv, slogdet (a backend's `inv` hook, else
// ep::linalg's, through the backend's decompositions: eagerpp/linalg.hpp)
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>  // std::equal
#include <concepts>   // std::same_as
#include <cstdint>    // std::int64_t
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
  static_assert(arithmetic_dtype<value_type>, "ep::matmul: needs numeric tensors, not bool");
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

/// The check that B has the decompositions (eagerpp/linalg.hpp), naming each missing function;
/// `complex`: for a function that also takes complex tensors.
template <backend B, bool complex = false>
constexpr void require_decompositions();

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
  static_assert(inexact_dtype<value_type>,
                "ep::inv: needs a floating or complex tensor (float, double, complex64, "
                "complex128)");
  // The backend's own inverse takes real matrices; a complex one is solve(x, I) (linalg::inv).
  if constexpr (detail::inverse_backend<B> && floating_dtype<value_type>) {
    (void)detail::square_extent("inv", shape_ref());
    std::int64_t failed = -1;
    auto out = B::inv(raw(), failed);
    if (failed >= 0)
      throw linalg_error(fmt::format(
          "inv: matrix {} (in C order) of the stack of shape {} is singular; expected invertible "
          "matrices",
          failed, shape_ref().str()));
    return detail::make_result<Tensor>(std::move(out), detail::inv_rule<Tensor>{}, *this);
  } else {
    detail::require_decompositions<B, complex_dtype<value_type>>();
    return linalg::inv(*this);
  }
}

template <backend B>
auto Tensor<B>::slogdet() const -> std::pair<Tensor, Tensor> {
  static_assert(floating_dtype<value_type>,
                "ep::slogdet: needs a floating tensor (float or double)");
  detail::require_decompositions<B>();
  auto [sign, logabs] = linalg::slogdet(*this);
  return {sign, logabs};
}

}  // namespace ep
