// eagerpp - the Eigen backend's inverse and decompositions: one Eigen solver per matrix of a batch
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::fill, std::fill_n, std::min
#include <cmath>        // std::log, std::abs
#include <complex>      // std::complex
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <tuple>        // std::tuple
#include <type_traits>  // std::integral_constant, std::conditional_t
#include <utility>      // std::pair

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>

#include "eagerpp/eigen/array.hpp"
#include "eagerpp/host/host_kernels.hpp"
#include "eagerpp/shape.hpp"

namespace ep::detail {

/// The C-order matrices of a stack (..., m, n) as Eigen row-major maps.
template <class T>
using eigen_rowmajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using eigen_cmatrix = Eigen::Map<const eigen_rowmajor<T>>;
template <class T>
using eigen_mmatrix = Eigen::Map<eigen_rowmajor<T>>;
template <class T>
using eigen_mvector = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;

template <class T>
using eigen_colmajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

// Cholesky and QR factor a column-major copy of each matrix in place: Eigen's LLT and
// HouseholderQR on a row-major matrix are slower (LLT's lower triangle
// and the Householder vectors are columns), and writing their factors to a C-order output by
// Eigen's assignment walks the output a row apart. The copies in and out are tiled transposes.

template <class T>
eigen_array<T> eigen_cholesky(const eigen_array<T>& x, std::int64_t& failed) {
  failed = -1;
  const auto [batch, n, unused] = host_stack(x.shape());
  eigen_array<T> out(x.shape());
  if (n == 0) return out;
  eigen_colmajor<T> a(n, n);
  for (std::int64_t b = 0; b < batch; ++b) {
    // x's lower triangle as a's (LLT reads no other element), L from it, zeros above.
    host_transpose_tiled(x.data() + b * n * n, n, n, n, a.data(), n, -1);
    const Eigen::LLT<Eigen::Ref<eigen_colmajor<T>>> llt(a);  // in place
    T* l = out.mutable_data() + b * n * n;
    if (llt.info() != Eigen::Success) {
      if (failed < 0) failed = b;
      std::fill_n(l, n * n, std::numeric_limits<T>::quiet_NaN());
      continue;
    }
    host_transpose_tiled(a.data(), n, n, n, l, n, 1);
    for (std::int64_t i = 0; i + 1 < n; ++i) std::fill(l + i * n + i + 1, l + (i + 1) * n, T(0));
  }
  return out;
}

/// The solutions x (rhs's shape) of each system b of a's stack (n x n) and rhs's (n x k):
/// `solve(a_b, rhs_b, x_b)` writes x_b and returns false where a_b is singular; x_b is then NaN and
/// `failed` the first such b (else -1).
template <class T, class Solve>
eigen_array<T> eigen_each_system(const eigen_array<T>& a, const eigen_array<T>& rhs,
                                 std::int64_t& failed, Solve solve) {
  failed = -1;
  const auto [batch, n, unused] = host_stack(a.shape());
  const std::int64_t k = rhs.shape().back();
  eigen_array<T> out(rhs.shape());
  for (std::int64_t b = 0; n > 0 && b < batch; ++b) {
    eigen_mmatrix<T> x(out.mutable_data() + b * n * k, n, k);
    if (!solve(eigen_cmatrix<T>(a.data() + b * n * n, n, n),
               eigen_cmatrix<T>(rhs.data() + b * n * k, n, k), x)) {
      if (failed < 0) failed = b;
      x.setConstant(host_nan<T>);
    }
  }
  return out;
}

template <class T>
eigen_array<T> eigen_solve(const eigen_array<T>& a, const eigen_array<T>& rhs,
                           std::int64_t& failed) {
  return eigen_each_system(a, rhs, failed, [](const auto& ab, const auto& rb, auto& x) {
    const Eigen::PartialPivLU<eigen_rowmajor<T>> lu(ab);
    // PartialPivLU does not report singularity: an exactly zero pivot of U is one.
    if ((lu.matrixLU().diagonal().array() == T(0)).any()) return false;
    x = lu.solve(rb);
    return true;
  });
}

/// op(a) x = b by Eigen's triangular solver on the row-major map of each matrix (a transposed map
/// for op(a) = aᵀ, the other triangle); a zero on the diagonal is a singular matrix, as LAPACK's
/// trtrs reports it.
template <class T>
eigen_array<T> eigen_triangular_solve(const eigen_array<T>& a, const eigen_array<T>& rhs,
                                      bool upper, bool transpose, bool unit_diagonal,
                                      std::int64_t& failed) {
  // op(a)'s triangle: a's own, or for aᵀ the other one of the transposed map.
  const bool lower = upper == transpose;
  return eigen_each_system(a, rhs, failed, [&](const auto& ab, const auto& rb, auto& x) {
    if (!unit_diagonal && (ab.diagonal().array() == T(0)).any()) return false;
    x = rb;
    if (x.cols() == 0) return true;
    const auto solve = [&](const auto& m) {
      if (lower && unit_diagonal) m.template triangularView<Eigen::UnitLower>().solveInPlace(x);
      if (lower && !unit_diagonal) m.template triangularView<Eigen::Lower>().solveInPlace(x);
      if (!lower && unit_diagonal) m.template triangularView<Eigen::UnitUpper>().solveInPlace(x);
      if (!lower && !unit_diagonal) m.template triangularView<Eigen::Upper>().solveInPlace(x);
    };
    if (transpose)
      solve(ab.transpose());
    else
      solve(ab);
    return true;
  });
}

template <class T>
std::pair<eigen_array<T>, eigen_array<T>> eigen_qr(const eigen_array<T>& x, bool complete) {
  const auto [batch, m, n] = host_stack(x.shape());
  const std::int64_t k = complete ? m : std::min(m, n);
  eigen_array<T> q(host_stack_shape(x.shape(), m, k)), r(host_stack_shape(x.shape(), k, n));
  if (m * n == 0) {  // Eigen asserts on empty matrices: Q is the identity's first k columns
    for (std::int64_t b = 0; b < batch; ++b)
      eigen_mmatrix<T>(q.mutable_data() + b * m * k, m, k) = eigen_rowmajor<T>::Identity(m, k);
    return {q, r};
  }
  eigen_colmajor<T> a(m, n), qc(m, k);
  for (std::int64_t b = 0; b < batch; ++b) {
    host_transpose_tiled(x.data() + b * m * n, m, n, n, a.data(), m);
    const Eigen::HouseholderQR<Eigen::Ref<eigen_colmajor<T>>> qr(a);  // in place
    T* rb = r.mutable_data() + b * k * n;  // R: a's upper triangle, its first k rows
    host_transpose_tiled(a.data(), n, k, m, rb, n);
    for (std::int64_t i = 1; i < k; ++i) std::fill_n(rb + i * n, std::min(i, n), T(0));
    qc = qr.householderQ() * eigen_colmajor<T>::Identity(m, k);
    host_transpose_tiled(qc.data(), k, m, m, q.mutable_data() + b * m * k, k);
  }
  return {q, r};
}

template <class T>
std::tuple<eigen_array<T>, eigen_array<T>, eigen_array<T>> eigen_svd(const eigen_array<T>& x,
                                                                     bool full) {
  const auto [batch, m, n] = host_stack(x.shape());
  const std::int64_t k = std::min(m, n), ku = full ? m : k, kv = full ? n : k;
  eigen_array<T> u(host_stack_shape(x.shape(), m, ku)), s(host_stack_shape(x.shape(), k)),
      vh(host_stack_shape(x.shape(), kv, n));
  if (m * n == 0) {  // no singular values: U and Vh are identities
    for (std::int64_t b = 0; b < batch; ++b) {
      eigen_mmatrix<T>(u.mutable_data() + b * m * ku, m, ku) = eigen_rowmajor<T>::Identity(m, ku);
      eigen_mmatrix<T>(vh.mutable_data() + b * kv * n, kv, n) = eigen_rowmajor<T>::Identity(kv, n);
    }
    return {u, s, vh};
  }
  const unsigned options =
      full ? Eigen::ComputeFullU | Eigen::ComputeFullV : Eigen::ComputeThinU | Eigen::ComputeThinV;
  for (std::int64_t b = 0; b < batch; ++b) {
    const Eigen::BDCSVD<eigen_rowmajor<T>> svd(eigen_cmatrix<T>(x.data() + b * m * n, m, n),
                                               options);
    eigen_mmatrix<T>(u.mutable_data() + b * m * ku, m, ku) = svd.matrixU();
    eigen_mvector<T>(s.mutable_data() + b * k, k) = svd.singularValues();
    eigen_mmatrix<T>(vh.mutable_data() + b * kv * n, kv, n) = svd.matrixV().transpose();
  }
  return {u, s, vh};
}

template <class T>
eigen_array<T> eigen_svdvals(const eigen_array<T>& x) {
  const auto [batch, m, n] = host_stack(x.shape());
  const std::int64_t k = std::min(m, n);
  eigen_array<T> s(host_stack_shape(x.shape(), k));
  for (std::int64_t b = 0; k > 0 && b < batch; ++b)
    eigen_mvector<T>(s.mutable_data() + b * k, k) =
        Eigen::BDCSVD<eigen_rowmajor<T>>(eigen_cmatrix<T>(x.data() + b * m * n, m, n))
            .singularValues();
  return s;
}

template <class T>
std::pair<eigen_array<T>, eigen_array<T>> eigen_eigh(const eigen_array<T>& x) {
  const auto [batch, n, unused] = host_stack(x.shape());
  eigen_array<T> w(host_stack_shape(x.shape(), n)), v(x.shape());
  for (std::int64_t b = 0; n > 0 && b < batch; ++b) {
    // SelfAdjointEigenSolver reads the lower triangle, as NumPy's eigh does by default.
    const Eigen::SelfAdjointEigenSolver<eigen_rowmajor<T>> es(
        eigen_cmatrix<T>(x.data() + b * n * n, n, n));
    eigen_mvector<T>(w.mutable_data() + b * n, n) = es.eigenvalues();
    eigen_mmatrix<T>(v.mutable_data() + b * n * n, n, n) = es.eigenvectors();
  }
  return {w, v};
}

/// {w, V} of each square matrix, complex: EigenSolver for a real one (its complex conjugate
/// pairs exact), ComplexEigenSolver for a complex one; V's columns have unit norm, as LAPACK's geev
/// normalizes them (its phase may differ). Without `vectors`, V is empty. A matrix whose iteration
/// does not converge has NaN results.
template <class T>
auto eigen_eig(const eigen_array<T>& x, bool vectors) {
  using C = std::conditional_t<complex_dtype<T>, T, std::complex<T>>;
  using solver = std::conditional_t<complex_dtype<T>, Eigen::ComplexEigenSolver<eigen_rowmajor<T>>,
                                    Eigen::EigenSolver<eigen_rowmajor<T>>>;
  const auto [batch, n, unused] = host_stack(x.shape());
  std::pair<eigen_array<C>, eigen_array<C>> out{eigen_array<C>(host_stack_shape(x.shape(), n)),
                                                eigen_array<C>(vectors ? x.shape() : Shape{0})};
  auto& [w, v] = out;
  solver es;
  for (std::int64_t b = 0; n > 0 && b < batch; ++b) {
    es.compute(eigen_cmatrix<T>(x.data() + b * n * n, n, n), vectors);
    eigen_mvector<C> wb(w.mutable_data() + b * n, n);
    C* vb = vectors ? v.mutable_data() + b * n * n : nullptr;
    if (es.info() != Eigen::Success) {
      wb.setConstant(host_nan<C>);
      if (vectors) std::fill_n(vb, n * n, host_nan<C>);
      continue;
    }
    wb = es.eigenvalues();
    if (vectors) eigen_mmatrix<C>(vb, n, n) = es.eigenvectors();
  }
  return out;
}

template <class T>
std::pair<eigen_array<T>, eigen_array<T>> eigen_slogdet(const eigen_array<T>& x) {
  const auto [batch, n, unused] = host_stack(x.shape());
  const Shape bs(x.shape().begin(), x.shape().end() - 2);
  eigen_array<T> sign(bs), logabs(bs);
  for (std::int64_t b = 0; b < batch; ++b) {
    if (n == 0) {  // the empty product: det = 1
      sign.mutable_data()[b] = 1;
      logabs.mutable_data()[b] = 0;
      continue;
    }
    const Eigen::PartialPivLU<eigen_rowmajor<T>> lu(eigen_cmatrix<T>(x.data() + b * n * n, n, n));
    T sg = lu.permutationP().determinant();
    T la = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const T d = lu.matrixLU()(i, i);
      if (d == T(0)) {
        sg = 0;
        la = -std::numeric_limits<T>::infinity();
        break;
      }
      if (d < 0) sg = -sg;
      la += std::log(std::abs(d));
    }
    sign.mutable_data()[b] = sg;
    logabs.mutable_data()[b] = la;
  }
  return {sign, logabs};
}

/// The inverse of each n x n matrix of the stack `x`. Up to 4 x 4, Eigen's fixed-size inverse
/// (cofactors; a vectorized 4 x 4), picked by a switch on the runtime n, and a matrix of
/// determinant 0 is singular; larger, Eigen's PartialPivLU, where a zero pivot is. A singular
/// matrix's inverse is NaN and `failed` the flat batch index of the first one (else -1).
template <class T>
eigen_array<T> eigen_inv(const eigen_array<T>& x, std::int64_t& failed) {
  failed = -1;
  const std::int64_t n = x.shape().back();
  eigen_array<T> out(x.shape());
  if (out.size() == 0) return out;
  const std::int64_t batch = out.size() / (n * n);
  const auto invert = [&]<int N>(std::integral_constant<int, N>) {
    using matrix = Eigen::Matrix<T, N, N, Eigen::RowMajor>;
    for (std::int64_t b = 0; b < batch; ++b) {
      const Eigen::Map<const matrix> a(x.data() + b * n * n, n, n);
      Eigen::Map<matrix> r(out.mutable_data() + b * n * n, n, n);
      bool singular = false;
      if constexpr (N == Eigen::Dynamic) {
        const Eigen::PartialPivLU<matrix> lu(a);
        singular = (lu.matrixLU().diagonal().array() == T(0)).any();
        if (!singular) r = lu.inverse();
      } else {
        const matrix m = a;
        singular = m.determinant() == T(0);
        if (!singular) r = m.inverse();
      }
      if (singular) {
        if (failed < 0) failed = b;
        r.setConstant(std::numeric_limits<T>::quiet_NaN());
      }
    }
  };
  switch (n) {
    case 1:
      invert(std::integral_constant<int, 1>{});
      break;
    case 2:
      invert(std::integral_constant<int, 2>{});
      break;
    case 3:
      invert(std::integral_constant<int, 3>{});
      break;
    case 4:
      invert(std::integral_constant<int, 4>{});
      break;
    default:
      invert(std::integral_constant<int, Eigen::Dynamic>{});
  }
  return out;
}

}  // namespace ep::detail
