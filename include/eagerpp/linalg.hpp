// eagerpp - ep::linalg, the Python array API's linear algebra extension (2024.12) and lstsq:
// decompositions through each backend's solver library, batched over leading axes, differentiable
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>  // std::max, std::min
#include <cmath>      // std::isinf, std::isnan
#include <limits>     // std::numeric_limits
#include <optional>   // std::optional
#include <utility>    // std::move
#include <vector>     // std::vector

#include "eagerpp/linalg/rules.hpp"  // with the facade, array_api.hpp, norms.hpp and the types

namespace ep::linalg {

/// The Cholesky factor of each symmetric positive-definite (..., n, n) matrix: lower L with
/// x = L Lᵀ, read from x's lower triangle; `{.upper = true}` gives U = Lᵀ. Throws
/// ep::linalg_error naming the first matrix of the batch that is not positive definite.
template <backend B>
Tensor<B> cholesky(const Tensor<B>& x, cholesky_options options = {}) {
  detail::require_decompositions<B>();
  const auto [batch, mn] = detail::matrix_stack("cholesky", x.shape(), true);
  std::int64_t failed = -1;
  auto raw = B::cholesky(x.raw(), failed);
  if (failed >= 0)
    throw linalg_error(fmt::format("cholesky: {} of the stack of shape {} is not positive definite",
                                   detail::batch_position(batch, failed), x.shape().str()));
  const Tensor<B> l =
      detail::make_result<Tensor<B>>(std::move(raw), detail::cholesky_rule<Tensor<B>>{}, x);
  return options.upper ? detail::swap_last(l) : l;
}

/// The solution of a x = b for each square matrix of `a` (..., M, M): `b` is (..., M, K) with
/// batch axes that broadcast against a's, or (M,), a vector, with a result of shape (..., M).
/// Throws ep::linalg_error naming the first singular matrix.
template <backend B>
Tensor<B> solve(const Tensor<B>& a, const Tensor<B>& b) {
  detail::require_decompositions<B, true>();
  return detail::solve_as("solve", a, b);
}

/// The solution of a x = b (or aᵀ x = b) for each triangular (..., M, M) matrix of `a`, read from
/// its upper triangle unless `{.lower = true}` (SciPy's default and names:
/// `scipy.linalg.solve_triangular(a, b, lower, trans, unit_diagonal)`, batched); `b` as for
/// solve: (..., M, K) with batch axes that broadcast against a's, or (M,). Throws ep::linalg_error
/// naming the first matrix with a zero on its diagonal.
template <backend B>
Tensor<B> solve_triangular(const Tensor<B>& a, const Tensor<B>& b,
                           solve_triangular_options options) {
  detail::require_decompositions<B>();
  const auto [batch_a, mn] = detail::matrix_stack("solve_triangular", a.shape(), true);
  const std::int64_t n = mn.first;
  const auto [bm, vector] = detail::right_hand_side("solve_triangular", a.shape(), b);
  const Shape sbm = bm.shape();
  const Shape batch =
      broadcast_shapes(batch_a, Shape(sbm.begin(), sbm.end() - 2), "solve_triangular");
  const Tensor<B> ab = batch == batch_a ? a : a.broadcast_to(detail::with_tail(batch, {n, n}));
  const Shape bshape = detail::with_tail(batch, {n, sbm.back()});
  const Tensor<B> bb = sbm == bshape ? bm : bm.broadcast_to(bshape);
  std::int64_t failed = -1;
  auto raw = B::triangular_solve(ab.raw(), bb.raw(), !options.lower, options.trans,
                                 options.unit_diagonal, failed);
  if (failed >= 0)
    throw linalg_error(
        fmt::format("solve_triangular: {} of a (shape {}) is singular (a zero on its "
                    "diagonal)",
                    detail::batch_position(batch, failed), a.shape().str()));
  const Tensor<B> x = detail::make_result<Tensor<B>>(
      std::move(raw), detail::triangular_solve_rule<Tensor<B>>{{}, options}, ab, bb);
  return vector ? x.reshape(detail::with_tail(batch, {n})) : x;
}

/// The solution of a x = b from the Cholesky factor c of a (lower, c cᵀ = a, unless
/// `{.lower = false}`: cᵀ c = a), by two triangular solves (SciPy: `cho_solve((c, lower), b)`);
/// `b` as for solve. Throws ep::linalg_error for a zero on c's diagonal.
template <backend B>
Tensor<B> cho_solve(const Tensor<B>& c, const Tensor<B>& b, cho_solve_options options = {}) {
  detail::require_decompositions<B>();
  detail::matrix_stack("cho_solve", c.shape(), true);
  detail::right_hand_side("cho_solve", c.shape(), b);
  const bool lower = options.lower;
  const Tensor<B> y = solve_triangular(c, b, {.lower = lower, .trans = !lower});
  return solve_triangular(c, y, {.lower = lower, .trans = lower});
}

/// The inverse of each (..., n, n) matrix, as solve(x, I). Throws ep::linalg_error naming `inv`
/// and the first singular matrix.
template <backend B>
Tensor<B> inv(const Tensor<B>& x) {
  detail::require_decompositions<B, true>();
  const std::int64_t n = detail::matrix_stack("inv", x.shape(), true).second.first;
  return detail::solve_as("inv", x, eye<B>(n));
}

/// The QR factorization of each (..., M, N) matrix: mode "reduced" gives Q (..., M, K) and R
/// (..., K, N), K = min(M, N); "complete" gives Q (..., M, M) and R (..., M, N). Differentiable
/// for "reduced" with M >= N.
template <backend B>
qr_result<Tensor<B>> qr(const Tensor<B>& x, std::string_view mode = "reduced") {
  detail::require_decompositions<B>();
  const Shape batch = detail::matrix_stack("qr", x.shape(), false).first;
  if (mode != "reduced" && mode != "complete")
    throw value_error(
        fmt::format("qr: mode \"{}\" is unknown; expected \"reduced\" or \"complete\"", mode));
  auto [q, r] = B::qr(x.raw(), mode == "complete");
  auto outs = detail::decomposition_outputs<Tensor<B>>({std::move(q), std::move(r)},
                                                       detail::qr_backward<Tensor<B>>{}, x, batch);
  return {outs[0], outs[1]};
}

/// The singular value decomposition x = U diag(S) Vh of each (..., M, N) matrix, S descending
/// (K = min(M, N) values); `{.full_matrices = false}` gives U (..., M, K) and Vh (..., K, N).
/// Differentiable for distinct singular values with full_matrices = false (or square x).
template <backend B>
svd_result<Tensor<B>> svd(const Tensor<B>& x, svd_options options = {}) {
  detail::require_decompositions<B>();
  const Shape batch = detail::matrix_stack("svd", x.shape(), false).first;
  auto [u, s, vh] = B::svd(x.raw(), options.full_matrices);
  auto outs = detail::decomposition_outputs<Tensor<B>>({std::move(u), std::move(s), std::move(vh)},
                                                       detail::svd_backward<Tensor<B>>{}, x, batch);
  return {outs[0], outs[1], outs[2]};
}

/// The singular values (..., K) of each matrix, descending.
template <backend B>
Tensor<B> svdvals(const Tensor<B>& x) {
  detail::require_decompositions<B>();
  detail::matrix_stack("svdvals", x.shape(), false);
  if (detail::active_tape_count() != 0) return svd(x, {.full_matrices = false}).S;
  return detail::make_constant<Tensor<B>>(B::svdvals(x.raw()));
}

/// The eigenvalues (ascending) and eigenvectors (columns) of each symmetric (..., n, n) matrix,
/// read from its lower triangle. Differentiable for distinct eigenvalues.
template <backend B>
eigh_result<Tensor<B>> eigh(const Tensor<B>& x) {
  detail::require_decompositions<B>();
  const Shape batch = detail::matrix_stack("eigh", x.shape(), true).first;
  auto [w, v] = B::eigh(x.raw());
  auto outs = detail::decomposition_outputs<Tensor<B>>(
      {std::move(w), std::move(v)}, detail::eigh_backward<Tensor<B>>{}, x, batch);
  return {outs[0], outs[1]};
}

/// The eigenvalues of each symmetric matrix, ascending.
template <backend B>
Tensor<B> eigvalsh(const Tensor<B>& x) {
  return eigh(x).eigenvalues;
}

}  // namespace ep::linalg

namespace ep::detail {
/// Whether B has the general eigensolver of ep::linalg::eig.
template <class B>
concept eig_backend = requires(const typename B::raw_type& x) {
  {B::eig(x, true).first.shape()};
};

template <backend B>
auto eig_outputs(const Tensor<B>& x, bool vectors, std::string_view op) {
  require_decompositions<B, true>();
  static_assert(
      eig_backend<B>,
      "ep::linalg::eig: the backend has no static eig(raw, bool vectors) -> "
      "std::pair<complex raw, complex raw>; see \"Writing a backend\" in docs/backends.md");
  using C = std::conditional_t<complex_dtype<typename B::value_type>, typename B::value_type,
                               complex_of_t<typename B::value_type>>;
  using Out = typename Tensor<B>::template rebind<C>;
  const Shape batch = matrix_stack(op, x.shape(), true).first;
  // eigvals' gradient needs V: computed, and kept in the tape's node, where a tape records.
  auto [w, v] = B::eig(x.raw(), vectors || active_tape_count() != 0);
  return decomposition_outputs<Out>({std::move(w), std::move(v)}, eig_backward<Out>{vectors}, x,
                                    batch);
}
}  // namespace ep::detail

namespace ep::linalg {

/// The eigenvalues and right eigenvectors (columns, unit norm) of each square (..., n, n) real or
/// complex matrix, both complex (complex64 for float32, complex128 for float64), in the solver's
/// order (not sorted), as numpy.linalg.eig; a real matrix's complex eigenvalues come in exact
/// conjugate pairs. Differentiable for distinct eigenvalues; through the eigenvectors only for a
/// loss that ignores each column's phase (docs/autodiff.md). A matrix whose iteration does not
/// converge gives NaN.
template <backend B>
auto eig(const Tensor<B>& x) {
  auto outs = detail::eig_outputs(x, true, "eig");
  return eig_result<typename decltype(outs)::value_type>{outs[0], outs[1]};
}

/// The eigenvalues of each square real or complex matrix, complex, in the order of eig.
template <backend B>
auto eigvals(const Tensor<B>& x) {
  return detail::eig_outputs(x, false, "eigvals")[0];
}

/// The sign and the natural log of the absolute determinant of each (..., n, n) matrix, by LU;
/// a singular matrix gives {0, -inf}.
template <backend B>
slogdet_result<Tensor<B>> slogdet(const Tensor<B>& x) {
  detail::require_decompositions<B>();
  const Shape batch = detail::matrix_stack("slogdet", x.shape(), true).first;
  auto [sign, logabs] = B::slogdet(x.raw());
  return {detail::make_constant<Tensor<B>>(std::move(sign)),
          detail::make_result<Tensor<B>>(
              std::move(logabs),
              detail::slogdet_rule<Tensor<B>>{{}, detail::with_tail(batch, {1, 1})}, x)};
}

/// The determinant of each (..., n, n) matrix: sign · exp(log|det|).
template <backend B>
Tensor<B> det(const Tensor<B>& x) {
  const auto [sign, logabs] = slogdet(x);
  return sign * logabs.exp();
}

/// The Moore-Penrose pseudo-inverse (..., N, M) of each (..., M, N) matrix through its SVD,
/// singular values at most rtol · max(S) taken as zero (default rtol: max(M, N) · eps).
template <backend B>
Tensor<B> pinv(const Tensor<B>& x, std::optional<double> rtol = std::nullopt) {
  const Shape s = x.shape();
  detail::matrix_stack("pinv", s, false);
  return detail::pinv_from_svd(svd(x, {.full_matrices = false}),
                               rtol.value_or(detail::default_rtol<typename B::value_type>(s)), s);
}

/// The number of singular values of each matrix above rtol · max(S) (default rtol: max(M, N) ·
/// eps), as int64.
template <backend B>
auto matrix_rank(const Tensor<B>& x, std::optional<double> rtol = std::nullopt) {
  const Shape s = x.shape();
  detail::matrix_stack("matrix_rank", s, false);
  return detail::rank_from_svdvals(svdvals(x),
                                   rtol.value_or(detail::default_rtol<typename B::value_type>(s)));
}

/// The least-squares solution x of a x ≈ b for each (..., M, N) matrix a, b (..., M, K) or (M,),
/// through the pseudo-inverse of one SVD (NumPy: `linalg.lstsq`, batched); singular values at
/// most rcond · max(S) are taken as zero.
template <backend B>
lstsq_result<Tensor<B>> lstsq(const Tensor<B>& a, const Tensor<B>& b,
                              std::optional<double> rcond = std::nullopt) {
  const Shape sa = a.shape();
  const auto [batch, mn] = detail::matrix_stack("lstsq", sa, false);
  const auto [bm, vector] = detail::right_hand_side("lstsq", sa, b);
  const double r = rcond.value_or(detail::default_rtol<typename B::value_type>(sa));
  const auto d = svd(a, {.full_matrices = false});
  const Tensor<B> x = detail::pinv_from_svd(d, r, sa).matmul(bm);
  auto rank = detail::rank_from_svdvals(d.S, r);
  Tensor<B> residuals = zeros<B>(Shape{0});
  const bool full_rank = rank.size() > 0 && (rank == mn.second).all().item();
  if (mn.first > mn.second && full_rank) {
    residuals = (a.matmul(x) - bm).square().sum(-2);
    if (vector) residuals = residuals.squeeze(-1);
  }
  return {vector ? x.squeeze(-1) : x, residuals, std::move(rank), d.S};
}

/// The k-th diagonal of each (..., M, N) matrix (k > 0 above the main one), shape (..., L).
template <backend B>
Tensor<B> diagonal(const Tensor<B>& x, std::int64_t offset) {
  const auto [batch, mn] = detail::matrix_stack("diagonal", x.shape(), false);
  const auto [m, n] = mn;
  const std::int64_t count =
      std::max<std::int64_t>(0, offset >= 0 ? std::min(m, n - offset) : std::min(m + offset, n));
  const Tensor<B> flat = x.reshape(detail::with_tail(batch, {m * n}));
  if (count == 0) return zeros<B>(detail::with_tail(batch, {0}));
  const std::int64_t start = offset >= 0 ? offset : -offset * n;
  return flat(ellipsis, slice(start, start + (count - 1) * (n + 1) + 1, n + 1));
}

/// The sum of the k-th diagonal of each matrix.
template <backend B>
Tensor<B> trace(const Tensor<B>& x, std::int64_t offset = 0) {
  return diagonal(x, offset).sum(-1);
}

/// The outer product (N, M) of two 1-D tensors.
template <backend B>
Tensor<B> outer(const Tensor<B>& a, const Tensor<B>& b) {
  if (a.ndim() != 1 || b.ndim() != 1)
    throw value_error(fmt::format("outer: got shapes {} and {}; expected two 1-D tensors",
                                  a.shape().str(), b.shape().str()));
  return a.reshape({a.size(), 1}) * b.reshape({1, b.size()});
}

/// The cross product of 3-vectors along `axis` (default -1), the other axes broadcast.
template <backend B>
Tensor<B> cross(const Tensor<B>& a, const Tensor<B>& b, int axis = -1) {
  const Shape sa = a.shape(), sb = b.shape();
  if (sa.empty() || sb.empty() || sa.size() != sb.size() || axis < -static_cast<int>(sa.size()) ||
      axis >= static_cast<int>(sa.size()) ||
      sa[static_cast<std::size_t>(axis < 0 ? axis + static_cast<int>(sa.size()) : axis)] != 3 ||
      sb[static_cast<std::size_t>(axis < 0 ? axis + static_cast<int>(sb.size()) : axis)] != 3)
    throw value_error(
        fmt::format("cross: got shapes {} and {} with axis {}; expected equal ranks and extent 3 "
                    "along the axis",
                    sa.str(), sb.str(), axis));
  const Tensor<B> x = moveaxis(a, axis, -1), y = moveaxis(b, axis, -1);
  const auto c = [](const Tensor<B>& t, std::int64_t i) { return t(ellipsis, i); };
  const Tensor<B> r = stack(std::vector<Tensor<B>>{c(x, 1) * c(y, 2) - c(x, 2) * c(y, 1),
                                                   c(x, 2) * c(y, 0) - c(x, 0) * c(y, 2),
                                                   c(x, 0) * c(y, 1) - c(x, 1) * c(y, 0)},
                            -1);
  return moveaxis(r, -1, axis);
}

/// x raised to the integer power n, by repeated squaring; n < 0 through inv(x), n = 0 the
/// identity.
template <backend B>
Tensor<B> matrix_power(const Tensor<B>& x, std::int64_t n) {
  const auto [batch, mn] = detail::matrix_stack("matrix_power", x.shape(), true);
  Tensor<B> base = n < 0 ? inv(x) : x;
  std::uint64_t k =
      n < 0 ? static_cast<std::uint64_t>(-(n + 1)) + 1 : static_cast<std::uint64_t>(n);
  std::optional<Tensor<B>> result;
  while (k > 0) {
    if (k & 1U) result = result ? result->matmul(base) : base;
    k >>= 1U;
    if (k > 0) base = base.matmul(base);
  }
  return result ? *result : eye<B>(mn.first).broadcast_to(x.shape());
}

/// A vector norm over `axis` (all axes by default): ord 2 (default), 1, inf, -inf, 0 (the
/// number of non-zeros) or any other p, (Σ|x|^p)^(1/p).
template <backend B>
Tensor<B> vector_norm(const Tensor<B>& x, vector_norm_options options = {}) {
  using T = typename B::value_type;
  static_assert(floating_dtype<T>, "ep::linalg::vector_norm: needs a floating tensor");
  const auto& o = options;
  if (o.ord.named())
    throw value_error(
        fmt::format("vector_norm: ord \"{}\" is unknown; expected a number", o.ord.name()));
  const double p = o.ord.value();
  if (std::isinf(p))
    return p > 0 ? x.abs().max(o.axis, o.keepdims) : x.abs().min(o.axis, o.keepdims);
  if (p == 0) return (x != T(0)).template astype<T>().sum(o.axis, o.keepdims);
  if (p == 1) return x.abs().sum(o.axis, o.keepdims);
  if (p == 2) return norms::l2(x, o.axis, o.keepdims);
  return x.abs().pow(p).sum(o.axis, o.keepdims).pow(1 / p);
}

/// A matrix norm of each (..., M, N) matrix: "fro" (default), "nuc" (the sum of singular values),
/// 2 and -2 (the largest and smallest singular value), 1 and -1 (largest and smallest column
/// sum of |x|), inf and -inf (the same of rows).
template <backend B>
Tensor<B> matrix_norm(const Tensor<B>& x, matrix_norm_options options = {}) {
  const Shape batch = detail::matrix_stack("matrix_norm", x.shape(), false).first;
  const auto& ord = options.ord;
  const auto done = [&](const Tensor<B>& r) {
    return options.keepdims ? r.reshape(detail::with_tail(batch, {1, 1})) : r;
  };
  if (ord.named()) {
    if (ord.name() == "fro") return done(norms::l2(x, {-2, -1}));
    if (ord.name() == "nuc") return done(svdvals(x).sum(-1));
  } else {
    const double p = ord.value();
    if (p == 2 || p == -2) {
      const Tensor<B> s = svdvals(x);
      return done(p > 0 ? s.max(-1) : s.min(-1));
    }
    if (p == 1 || p == -1 || std::isinf(p)) {
      const Tensor<B> sums = x.abs().sum(std::abs(p) == 1 ? -2 : -1);
      return done(p > 0 ? sums.max(-1) : sums.min(-1));
    }
  }
  throw value_error(fmt::format(
      "matrix_norm: ord {} is unknown; expected \"fro\", \"nuc\", 1, -1, 2, -2, inf or -inf",
      ord.str()));
}

// The standard's names that live in both namespaces.
using ep::matmul;
using ep::matrix_transpose;
using ep::tensordot;
using ep::vecdot;

}  // namespace ep::linalg
