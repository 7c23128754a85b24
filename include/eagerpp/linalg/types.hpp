// eagerpp - ep::linalg's result structs (with the array API's field names) and options, and the
// functions the gradient rules call (linalg/rules.hpp) declared ahead of linalg.hpp
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>      // std::int64_t
#include <string>       // std::string
#include <string_view>  // std::string_view

#include <fmt/format.h>

#include "eagerpp/axes.hpp"
#include "eagerpp/backend.hpp"
#include "eagerpp/tensor.hpp"

namespace ep::linalg {

/// What a decomposition returns, with the array API's field names: `auto [q, r] = qr(a);`.
template <class Tn>
struct qr_result {
  Tn Q, R;
};
template <class Tn>
struct svd_result {
  Tn U, S, Vh;
};
template <class Tn>
struct eigh_result {
  Tn eigenvalues, eigenvectors;
};
template <class Tn>
struct eig_result {
  Tn eigenvalues, eigenvectors;
};
template <class Tn>
struct slogdet_result {
  Tn sign, logabsdet;
};
template <class Tn>
struct lstsq_result {
  Tn solution;   ///< (..., N, K), or (..., N) for a 1-D b
  Tn residuals;  ///< squared 2-norms of b - a x per column where rank == N < M, else shape (0,)
  Tensor<typename Tn::backend_type::template rebind<std::int64_t>> rank;  ///< per matrix
  Tn singular_values;                                                     ///< (..., min(M, N))
};

/// The `ord` of matrix_norm and vector_norm: a number (1, 2, -inf, ...) or "fro" / "nuc".
class norm_order {
 public:
  norm_order(double p) : p_(p) {}                // NOLINT(google-explicit-constructor): {.ord = 2}
  norm_order(int p) : p_(p) {}                   // NOLINT(google-explicit-constructor)
  norm_order(const char* name) : name_(name) {}  // NOLINT(google-explicit-constructor): "fro"
  [[nodiscard]] bool named() const { return !name_.empty(); }
  [[nodiscard]] std::string_view name() const { return name_; }
  [[nodiscard]] double value() const { return p_; }
  [[nodiscard]] std::string str() const { return named() ? name_ : fmt::format("{}", p_); }

 private:
  double p_ = 0;
  std::string name_;
};

struct cholesky_options {
  bool upper = false;  ///< return U = Lᵀ (x = Uᵀ U) instead of L
};
/// The options of solve_triangular, SciPy's (`scipy.linalg.solve_triangular`) with its defaults.
struct solve_triangular_options {
  bool lower = false;          ///< read a's lower triangle (SciPy's default: the upper one)
  bool trans = false;          ///< solve aᵀ x = b (SciPy's trans = 1 or "T"; "C" is the same)
  bool unit_diagonal = false;  ///< take a's diagonal as ones, without reading it
};
/// The options of cho_solve: which triangle the Cholesky factor is (SciPy: `(c, lower)`).
struct cho_solve_options {
  bool lower = true;  ///< c lower with c cᵀ = a, as cholesky returns it; false: cᵀ c = a
};
struct svd_options {
  bool full_matrices = true;  ///< U (..., M, M) and Vh (..., N, N), as the standard's default
};
struct matrix_norm_options {
  bool keepdims = false;
  norm_order ord = "fro";
};
struct vector_norm_options {
  Axes axis = {};  ///< all axes by default (the flattened tensor)
  bool keepdims = false;
  norm_order ord = 2;
};

template <backend B>
Tensor<B> solve(const Tensor<B>& a, const Tensor<B>& b);
template <backend B>
Tensor<B> diagonal(const Tensor<B>& x, std::int64_t offset = 0);
template <backend B>
Tensor<B> solve_triangular(const Tensor<B>& a, const Tensor<B>& b,
                           solve_triangular_options options = {});

}  // namespace ep::linalg
