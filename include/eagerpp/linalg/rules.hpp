// eagerpp - ep::linalg's building blocks: the checks of a stack of matrices, several outputs of
// one decomposition as one tape node, and the decompositions' gradient rules, in facade ops
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::max, std::min, std::reverse
#include <cmath>        // std::isinf, std::isnan
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <optional>     // std::optional
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <utility>      // std::move
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/axes.hpp"
#include "eagerpp/backend.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/functions.hpp"
#include "eagerpp/linalg/types.hpp"
#include "eagerpp/norms.hpp"
#include "eagerpp/ops/array_api.hpp"
#include "eagerpp/tensor.hpp"

namespace ep::detail {

/// The array API's default rtol of pinv and matrix_rank: max(M, N) · eps.
template <class T>
double default_rtol(const Shape& s) {
  return static_cast<double>(std::max(s[s.size() - 2], s.back())) *
         std::numeric_limits<T>::epsilon();
}

/// The facade's check that B has the decompositions, naming each missing function; `complex`:
/// for a function that also takes complex tensors (solve, inv, eig).
template <backend B, bool complex>
constexpr void require_decompositions() {
  if constexpr (complex)
    static_assert(inexact_dtype<typename B::value_type>,
                  "ep::linalg: needs a floating or complex tensor (float, double, complex64, "
                  "complex128)");
  else
    static_assert(floating_dtype<typename B::value_type>,
                  "ep::linalg: needs a floating tensor (float or double)");
  static_assert(decomposition_contract<B>::value);
}

/// The batch shape and (m, n) of a stack of matrices; throws for fewer than two axes, or for
/// non-square matrices when `square`.
inline std::pair<Shape, std::pair<std::int64_t, std::int64_t>> matrix_stack(std::string_view op,
                                                                            const Shape& s,
                                                                            bool square) {
  if (s.size() < 2 || (square && s[s.size() - 1] != s[s.size() - 2]))
    throw value_error(
        fmt::format("{}: got a tensor of shape {}; expected a stack of {}matrices "
                    "(..., {})",
                    op, s.str(), square ? "square " : "", square ? "n, n" : "m, n"));
  return {Shape(s.begin(), s.end() - 2), {s[s.size() - 2], s.back()}};
}

inline Shape with_tail(Shape s, std::initializer_list<std::int64_t> tail) {
  for (const std::int64_t e : tail) s.push_back(e);
  return s;
}

/// The flat batch index `b` of a batch shape as a multi-index "(i, j)".
inline std::string batch_position(const Shape& batch, std::int64_t b) {
  if (batch.empty()) return "the matrix";
  std::vector<std::int64_t> idx(batch.size());
  for (std::size_t i = batch.size(); i-- > 0;) {
    idx[i] = b % batch[i];
    b /= batch[i];
  }
  return fmt::format("the matrix at batch index ({})", fmt::join(idx, ", "));
}

/// The parts of a packed tensor (decomposition_outputs) in their own shapes.
template <class Tn>
std::vector<Tn> unpack_outputs(const Tn& packed, const std::vector<Shape>& shapes,
                               const Shape& batch) {
  std::vector<Tn> outs;
  std::int64_t offset = 0;
  for (const Shape& s : shapes) {
    const std::int64_t n =
        Shape(s.begin() + static_cast<std::ptrdiff_t>(batch.size()), s.end()).numel();
    outs.push_back(packed(ellipsis, slice(offset, offset + n)).reshape(s));
    offset += n;
  }
  return outs;
}

/// The base of a packed rule: the rule's own data, the parts' shapes and the batch shape. The
/// outputs' type Out may differ from the input's In (eig: complex outputs of a real matrix).
template <class Out, class Derived, class In = Out>
struct packed_rule : takes<In> {
  Derived self;
  std::vector<Shape> shapes;
  Shape batch;
  In operator()(const Out& g, const Out& out, const In& x) const {
    const auto gs = unpack_outputs(g, shapes, batch);
    const auto os = unpack_outputs(out, shapes, batch);
    return self.backward(gs, os, x);
  }
};

/// Several outputs of one decomposition as one node of the tape: where a tape records, they are
/// packed into a (..., total) tensor whose rule (packed_rule, which hands `Backward` the parts'
/// gradients and values) differentiates them all at once, and each output is a slice of it, so
/// that a gradient reaching any subset of them reaches x. Without a tape they are returned as they
/// are.
template <class Tn, class Backward, class In = Tn>
std::vector<Tn> decomposition_outputs(std::vector<typename Tn::raw_type> raws,
                                      const Backward& backward, const In& x, const Shape& batch) {
  using B = typename Tn::backend_type;
  std::vector<Tn> outs;
  if (active_tape_count() == 0) {
    for (auto& r : raws) outs.push_back(make_constant<Tn>(std::move(r)));
    return outs;
  }
  std::vector<Shape> shapes;
  std::vector<typename Tn::raw_type> flat;
  for (const auto& r : raws) {
    shapes.push_back(B::shape(r));
    const Shape tail(shapes.back().begin() + static_cast<std::ptrdiff_t>(batch.size()),
                     shapes.back().end());
    flat.push_back(B::reshape(r, with_tail(batch, {tail.numel()})));
  }
  const Tn packed = make_result<Tn>(B::concatenate(flat, static_cast<int>(batch.size())),
                                    packed_rule<Tn, Backward, In>{{}, backward, shapes, batch}, x);
  return unpack_outputs(packed, shapes, batch);
}

/// The matrix with the vector v (..., n) on its diagonal (..., n, n).
template <class Tn>
Tn diag_embed(const Tn& v) {
  const std::int64_t n = v.shape().back();
  return v.expand_dims(-2) * eye<typename Tn::backend_type>(n);
}

/// F_ij = 1 / (d_j - d_i) off the diagonal, 0 on it, for d (..., n): the eigenvalue (eigh) and
/// squared singular value (svd) gaps of their gradients.
template <class Tn>
Tn gap_reciprocals(const Tn& d) {
  using T = typename Tn::value_type;
  const std::int64_t n = d.shape().back();
  const Tn diff = d.expand_dims(-2) - d.expand_dims(-1);
  const auto off = eye<typename Tn::backend_type>(n) == T(0);
  return where(off, T(1) / where(off, diff, T(1)), T(0));
}

/// The gradient of one Cholesky factorization in closed form (Murray 2016; JAX): with L Lᵀ = A and
/// P = Φ(Lᵀ L̄) (the lower triangle, diagonal halved), Ā = sym(L⁻ᵀ P L⁻¹), symmetric as x's
/// perturbations are; L⁻ᵀ and L⁻¹ are two triangular solves against L. Its cost is a GEMM and two
/// triangular solves of n right-hand sides, about twelve times the factorization's.
template <class Tn>
Tn cholesky_closed_form_backward(const Tn& l, const Tn& g) {
  using T = typename Tn::value_type;
  const std::int64_t n = l.shape().back();
  const linalg::solve_triangular_options lt{.lower = true, .trans = true};
  const Tn p =
      tril(matmul_batched(l, g, true, false)) * (T(1) - T(0.5) * eye<typename Tn::backend_type>(n));
  const Tn y = linalg::solve_triangular(l, p, lt);                        // L⁻ᵀ P
  const Tn s = swap_last(linalg::solve_triangular(l, swap_last(y), lt));  // (L⁻ᵀ Yᵀ)ᵀ = Y L⁻¹
  return (s + swap_last(s)) * T(0.5);
}

/// d cholesky: Murray's (2016) blocked reverse mode, which runs the factorization's block steps
/// backwards and costs about two factorizations, in matrix products, instead of the closed form's
/// twelve. L is cut into block columns of `block`; for each, last first, with R = L[j:k, :j],
/// D = L[j:k, j:k], B = L[k:, :j], C = L[k:, j:k] (the factorization computed D = chol(A_D - R Rᵀ)
/// and C = (A_C - B Rᵀ) D⁻ᵀ) and W the gradient so far (Ā's lower-triangle form, started at
/// tril(L̄)): M = W_C D⁻¹ is Ā_C, D̄ = tril(W_D - Mᵀ C) gives Ā_D = S by the closed form, and
/// W_R -= Mᵀ B + 2 S R, W_B -= M R. Only rows from j down change, so the running W is kept as
/// its rows [j, n) and the finished block columns are put together at the end.
template <class Tn>
struct cholesky_rule : takes<Tn> {
  static constexpr std::int64_t block = 64;
  Tn operator()(const Tn& g, const Tn& l, const Tn&) const {
    using T = typename Tn::value_type;
    const Shape s = l.shape();
    const std::int64_t n = s.back();
    if (n <= block) return cholesky_closed_form_backward(l, g);
    const Shape batch(s.begin(), s.end() - 2);
    const auto part = [](const Tn& m, std::int64_t i0, std::int64_t i1, std::int64_t j0,
                         std::int64_t j1) { return m(ellipsis, slice(i0, i1), slice(j0, j1)); };
    const linalg::solve_triangular_options lt{.lower = true, .trans = true};
    const Tn gl = tril(g);
    std::vector<Tn> columns;  // Ā's lower-triangle form, block column by block column, last first
    std::optional<Tn> below;  // W's rows [k, n), columns [0, k)
    for (std::int64_t k = n; k > 0;) {
      const std::int64_t j = std::max<std::int64_t>(0, k - block);
      const Tn d = part(l, j, k, j, k);
      Tn d_bar = part(gl, j, k, j, k);
      std::optional<Tn> m, mt;  // Ā_C = M = W_C D⁻¹, from Dᵀ Mᵀ = W_Cᵀ, and Mᵀ
      if (k < n) {
        mt = linalg::solve_triangular(d, swap_last(part(*below, 0, n - k, j, k)), lt);
        m = swap_last(*mt);
        d_bar = tril(d_bar - mt->matmul(part(l, k, n, j, k)));
      }
      const Tn a_d = cholesky_closed_form_backward(d, d_bar);
      std::vector<Tn> column;
      if (j > 0) column.push_back(l.zeros(with_tail(batch, {j, k - j})));
      column.push_back(tril(a_d) + tril(a_d, -1));  // the lower-triangle form of symmetric Ā_D
      if (m) column.push_back(*m);
      columns.push_back(concatenate(column, -2));
      if (j > 0) {
        const Tn r = part(l, j, k, 0, j);
        Tn r_bar = part(gl, j, k, 0, j) - (a_d * T(2)).matmul(r);
        if (m) {
          r_bar = r_bar - mt->matmul(part(l, k, n, 0, j));
          below = concatenate(
              {r_bar, part(*below, 0, n - k, 0, j) - matmul_batched(*mt, r, true, false)}, -2);
        } else {
          below = r_bar;
        }
      }
      k = j;
    }
    std::reverse(columns.begin(), columns.end());
    const Tn a = concatenate(columns, -1);
    return (a + swap_last(a)) * T(0.5);
  }
};

/// d solve: with A X = B, B̄ = A⁻ᵀ X̄ and Ā = -B̄ Xᵀ.
template <class Tn>
struct solve_rule : takes<Tn, 2> {
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn& x, const Tn& a, const Tn&) const {
    const Tn gb = linalg::solve(swap_last(a), g);
    return {-matmul_batched(gb, x, false, true), gb};
  }
};

/// d solve_triangular: with op(A) X = B, B̄ = op(A)⁻ᵀ X̄ (the solve with the other transpose) and
/// d op(A) = -B̄ Xᵀ, of which A's gradient keeps the triangle that was read (without the diagonal
/// for unit_diagonal), as JAX's.
template <class Tn>
struct triangular_solve_rule : takes<Tn, 2> {
  linalg::solve_triangular_options options;
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn& x, const Tn& a, const Tn&) const {
    linalg::solve_triangular_options back = options;
    back.trans = !options.trans;
    const Tn gb = linalg::solve_triangular(a, g, back);
    // d A: d op(A), or for op(A) = Aᵀ its transpose -X B̄ᵀ, computed as that product
    const Tn ga =
        options.trans ? -matmul_batched(x, gb, false, true) : -matmul_batched(gb, x, false, true);
    const std::int64_t skip = options.unit_diagonal ? 1 : 0;
    return {options.lower ? tril(ga, -skip) : triu(ga, skip), gb};
  }
};

/// d qr (reduced, M >= N): with M = R R̄ᵀ - Q̄ᵀ Q, Ā = (Q̄ + Q copyltu(M)) R⁻ᵀ, copyltu copying the
/// lower triangle to the upper (Liao et al. 2019; PyTorch).
template <class Tn>
struct qr_backward {
  Tn backward(const std::vector<Tn>& g, const std::vector<Tn>& o, const Tn& x) const {
    const Shape s = x.shape();
    if (s[s.size() - 2] < s.back() || o[0].shape().back() != s.back())
      throw value_error(fmt::format(
          "qr: the gradient is defined for mode \"reduced\" with M >= N (or square input); got "
          "shape {} and Q of shape {}",
          s.str(), o[0].shape().str()));
    const Tn &q = o[0], &r = o[1], &gq = g[0], &gr = g[1];
    const Tn m = matmul_batched(r, gr, false, true) - matmul_batched(gq, q, true, false);
    const Tn copyltu = tril(m) + swap_last(tril(m, -1));
    const Tn lhs = gq + q.matmul(copyltu);
    return swap_last(linalg::solve(r, swap_last(lhs)));
  }
};

/// d eigh (distinct eigenvalues): Ā = V (diag(w̄) + F ∘ (Vᵀ V̄)) Vᵀ, symmetrized; F as in
/// gap_reciprocals. Repeated eigenvalues give inf or NaN, as in JAX.
template <class Tn>
struct eigh_backward {
  Tn backward(const std::vector<Tn>& g, const std::vector<Tn>& o, const Tn&) const {
    using T = typename Tn::value_type;
    const Tn &w = o[0], &v = o[1];
    const Tn inner = diag_embed(g[0]) + gap_reciprocals(w) * matmul_batched(v, g[1], true, false);
    const Tn a = matmul_batched(v.matmul(inner), v, false, true);
    return (a + swap_last(a)) * T(0.5);
  }
};

/// d eig (distinct eigenvalues), in JAX's convention for complex numbers (docs/autodiff.md): with
/// E_ij = 1 / (w_j - w_i) off the diagonal (gap_reciprocals),
///   Ā = V⁻ᵀ (diag(w̄) + E ∘ (Vᵀ V̄ - (Vᵀ conj(V)) diag(Re diag(Vᵀ V̄)))) Vᵀ,
/// PyTorch's linalg_eig_backward with the conjugations of its convention undone; the diag term
/// accounts for V's columns having unit norm. Each column's phase is arbitrary, so only a loss that
/// is invariant under it (|V|, w) has a gradient, as in PyTorch. For a real x, Re Ā. Without
/// eigenvectors (eigvals), the first term alone: the eigenvalues' rule, as JAX's.
template <class Tn>
struct eig_backward {
  bool vectors;  ///< whether V is an output (eig), else only the rule's input (eigvals)
  template <class In>
  In backward(const std::vector<Tn>& g, const std::vector<Tn>& o, const In&) const {
    const Tn &w = o[0], vt = swap_last(o[1]);
    Tn inner = diag_embed(g[0]);
    if (vectors) {
      const Tn vtg = vt.matmul(g[1]);
      const Tn re = linalg::diagonal(vtg).real().template astype<typename Tn::value_type>();
      inner = inner + gap_reciprocals(w) * (vtg - vt.matmul(o[1].conj()) * re.expand_dims(-2));
    }
    const Tn a = linalg::solve(vt, inner.matmul(vt));
    if constexpr (complex_dtype<typename In::value_type>)
      return a;
    else
      return a.real();
  }
};

/// d svd (reduced, distinct non-zero singular values; Townsend 2016), F as in gap_reciprocals of
/// S²: Ā = U [(F ∘ (UᵀŪ - ŪᵀU)) S + diag(S̄) + S (F ∘ (VᵀV̄ - V̄ᵀV))] Vᵀ
///        + (I - UUᵀ) Ū S⁻¹ Vᵀ + U S⁻¹ V̄ᵀ (I - VVᵀ), the last two terms only for non-square x.
template <class Tn>
struct svd_backward {
  Tn backward(const std::vector<Tn>& g, const std::vector<Tn>& o, const Tn& x) const {
    using T = typename Tn::value_type;
    const Shape s = x.shape();
    const std::int64_t m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
    if (o[0].shape().back() != k || o[2].shape()[o[2].shape().size() - 2] != k)
      throw value_error(fmt::format(
          "svd: the gradient is defined for full_matrices = false (or square input); got shape {}",
          s.str()));
    const Tn &u = o[0], &sv = o[1], v = swap_last(o[2]);
    const Tn &gu = g[0], &gs = g[1], gv = swap_last(g[2]);
    const Tn f = gap_reciprocals(sv.square());
    const Tn ut_gu = matmul_batched(u, gu, true, false);
    const Tn vt_gv = matmul_batched(v, gv, true, false);
    const Tn j = f * (ut_gu - swap_last(ut_gu));
    const Tn kk = f * (vt_gv - swap_last(vt_gv));
    const Tn inner = j * sv.expand_dims(-2) + diag_embed(gs) + sv.expand_dims(-1) * kk;
    Tn a = matmul_batched(u.matmul(inner), v, false, true);
    const Tn sinv = T(1) / sv;
    if (m > k) a = a + (gu - u.matmul(ut_gu)).matmul(swap_last(v * sinv.expand_dims(-2)));
    if (n > k) a = a + (u * sinv.expand_dims(-2)).matmul(swap_last(gv - v.matmul(vt_gv)));
    return a;
  }
};

/// The pseudo-inverse Vᵀ diag(1/S) Uᵀ from a reduced SVD, singular values at most rtol · max(S)
/// taken as zero; `s`: the (..., M, N) shape decomposed.
template <backend B>
Tensor<B> pinv_from_svd(const linalg::svd_result<Tensor<B>>& d, double rtol, const Shape& s) {
  using T = typename B::value_type;
  if (d.S.shape().back() == 0)
    return zeros<B>(with_tail(Shape(s.begin(), s.end() - 2), {s.back(), s[s.size() - 2]}));
  const Tensor<B> cutoff = d.S.max(-1, true) * T(rtol);
  const Tensor<B> sinv = where(d.S > cutoff, T(1) / where(d.S > cutoff, d.S, T(1)), T(0));
  return swap_last(d.Vh).matmul(swap_last(d.U) * sinv.expand_dims(-1));
}

/// The number of singular values S (..., K) above rtol · max(S), as int64 of the batch shape.
template <backend B>
auto rank_from_svdvals(const Tensor<B>& sv, double rtol) {
  using T = typename B::value_type;
  const Shape s = sv.shape();
  if (s.back() == 0)
    return zeros<typename B::template rebind<std::int64_t>>(Shape(s.begin(), s.end() - 1));
  return count_nonzero(sv > sv.max(-1, true) * T(rtol), -1);
}

/// b of solve and lstsq as a stack of columns (..., M, K) for a of shape (..., M, N), and whether
/// it was a vector (M,); throws naming both shapes when b fits neither.
template <backend B>
std::pair<Tensor<B>, bool> right_hand_side(std::string_view op, const Shape& sa,
                                           const Tensor<B>& b) {
  const std::int64_t m = sa[sa.size() - 2];
  const Shape sb = b.shape();
  const bool vector = sb.size() == 1;
  if (sb.empty() || (vector ? sb[0] : sb[sb.size() - 2]) != m)
    throw value_error(fmt::format(
        "{}: b of shape {} does not match a of shape {}; expected (..., {}, K) or ({},)", op,
        sb.str(), sa.str(), m, m));
  return {vector ? b.reshape({m, 1}) : b, vector};
}

/// solve(a, b) as the op `op` (solve, inv): its name in the messages of bad shapes and singular
/// matrices.
template <backend B>
Tensor<B> solve_as(std::string_view op, const Tensor<B>& a, const Tensor<B>& b) {
  const auto [batch_a, mn] = matrix_stack(op, a.shape(), true);
  const std::int64_t n = mn.first;
  const auto [bm, vector] = right_hand_side(op, a.shape(), b);
  const Shape sbm = bm.shape();
  const Shape batch = broadcast_shapes(batch_a, Shape(sbm.begin(), sbm.end() - 2), op);
  const Tensor<B> ab = batch == batch_a ? a : a.broadcast_to(with_tail(batch, {n, n}));
  const Shape bshape = with_tail(batch, {n, sbm.back()});
  const Tensor<B> bb = sbm == bshape ? bm : bm.broadcast_to(bshape);
  std::int64_t failed = -1;
  auto raw = B::solve(ab.raw(), bb.raw(), failed);
  if (failed >= 0)
    throw linalg_error(fmt::format("{}: {} of the stack of shape {} is singular", op,
                                   batch_position(batch, failed), a.shape().str()));
  const Tensor<B> x = make_result<Tensor<B>>(std::move(raw), solve_rule<Tensor<B>>{}, ab, bb);
  return vector ? x.reshape(with_tail(batch, {n})) : x;
}

}  // namespace ep::detail
