// eagerpp - the xtensor backend's linear algebra: BLAS matrix products and LAPACK decompositions
// SPDX-License-Identifier: MIT
#pragma once

// First: it configures xsimd before any xtensor header.
#include "eagerpp/xtensor/array.hpp"

#include <algorithm>         // std::copy_n, std::fill, std::fill_n, std::max, std::min
#include <array>             // std::array
#include <cmath>             // std::log
#include <cstddef>           // std::size_t
#include <cstdint>           // std::int64_t
#include <initializer_list>  // std::initializer_list
#include <limits>            // std::numeric_limits
#include <string>            // std::string, std::to_string
#include <string_view>       // std::string_view
#include <tuple>             // std::tuple
#include <type_traits>       // std::is_floating_point_v
#include <utility>           // std::pair
#include <vector>            // std::vector

#include <xtensor/xadapt.hpp>
#include <xtensor/xbuilder.hpp>  // xt::eye
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>

// xtensor-blas bundles FLENS's own prototypes of the CBLAS functions
// (xflens/cxxblas/drivers/cblas.h), whose enums collide with OpenBLAS's <cblas.h> ("multiple
// definition of 'enum CBLAS_ORDER'"), so a translation unit could not include this backend and
// ep::omp (or any user of <cblas.h>). The library we link is OpenBLAS: its <cblas.h> declares what
// xtensor-blas calls, and FLENS's copy is skipped.
#include <cblas.h>  // cblas_[sd]gemm (OpenBLAS), before xtensor-blas; host/cblas_trsm.hpp: trsm
#ifndef CXXBLAS_DRIVERS_CBLAS_H
#define CXXBLAS_DRIVERS_CBLAS_H 1
#endif
#include <xtensor-blas/xblas.hpp>    // xt::blas::gemm
#include <xtensor-blas/xlapack.hpp>  // xt::lapack::potr, gesv, getrf, geqrf, orgqr, gesdd, syevd

#include "eagerpp/error.hpp"
#include "eagerpp/host/cblas_trsm.hpp"
#include "eagerpp/host/host_kernels.hpp"
#include "eagerpp/xtensor/kernels.hpp"

namespace ep::detail {

/// ep::xtensor<T>'s matmul and its ep::linalg functions (the backend's members forward here), on
/// C-order stacks of matrices.
template <class T>
struct xt_linalg {
  using raw_type = xtensor_array<T>;
  using shape_type = xt::dynamic_shape<std::size_t>;

  /// xtensor-blas's gemm (OpenBLAS's sgemm, dgemm, cgemm, zgemm) per batch for the floating and
  /// complex dtypes, or its gemv where one side is a vector (OpenBLAS forwards such a gemm to gemv
  /// only from 0.3.28; Debian 12 has 0.3.21), reading a transposed operand in place through BLAS's
  /// transpose flag (not conjugated); a plain loop for int32 and int64.
  static raw_type matmul(const raw_type& a, const raw_type& b, bool transpose_a, bool transpose_b) {
    const std::size_t r = a.dimension();
    const std::size_t n = a.shape()[r - (transpose_a ? 1 : 2)],
                      k = a.shape()[r - (transpose_a ? 2 : 1)];
    const std::size_t m = b.shape()[r - (transpose_b ? 2 : 1)];
    shape_type s = a.shape();
    s[r - 2] = n;
    s[r - 1] = m;
    raw_type out = empty(s);
    const std::size_t batches = n * m == 0 ? 0 : out.size() / (n * m);
    if constexpr (inexact_dtype<T>) {
      if (k == 0) {  // BLAS rejects a leading dimension of 0
        std::fill_n(out.data(), out.size(), T(0));
        return out;
      }
      using matrix = std::array<std::size_t, 2>;
      using vector = std::array<std::size_t, 1>;
      const matrix sa = transpose_a ? matrix{k, n} : matrix{n, k};
      const matrix sb = transpose_b ? matrix{m, k} : matrix{k, m};
      for (std::size_t i = 0; i < batches; ++i) {
        // Row-major adaptors of each stored block: BLAS reads them in place, no copy.
        const T* pa = a.data() + i * n * k;
        const T* pb = b.data() + i * k * m;
        T* pc = out.data() + i * n * m;
        if (m == 1) {  // op(B) is a contiguous column: C = op(A) b (X.matmul(w) and its gradient)
          auto c = xt::adapt(pc, n, xt::no_ownership(), vector{n});
          xt::blas::gemv(xt::adapt(pa, n * k, xt::no_ownership(), sa),
                         xt::adapt(pb, k, xt::no_ownership(), vector{k}), c, transpose_a);
        } else if (n == 1) {  // op(A) is a contiguous row: C^T = op(B)^T a
          auto c = xt::adapt(pc, m, xt::no_ownership(), vector{m});
          xt::blas::gemv(xt::adapt(pb, k * m, xt::no_ownership(), sb),
                         xt::adapt(pa, k, xt::no_ownership(), vector{k}), c, !transpose_b);
        } else {
          auto c = xt::adapt(pc, n * m, xt::no_ownership(), matrix{n, m});
          xt::blas::gemm(xt::adapt(pa, n * k, xt::no_ownership(), sa),
                         xt::adapt(pb, k * m, xt::no_ownership(), sb), c, transpose_a, transpose_b);
        }
      }
    } else {
      for (std::size_t i = 0; i < batches; ++i)
        xt_kernels::int_gemm(a.data() + i * n * k, transpose_a, b.data() + i * k * m, transpose_b,
                             out.data() + i * n * m, n, k, m);
    }
    return out;
  }

  // xtensor-blas's LAPACK calls (xt::lapack) on each matrix of the stack in turn, a column-major
  // copy of it in a workspace that the batch reuses, the results copied back in C order; both
  // copies are tiled transposes (transpose below), which are faster than xtensor's assignments
  // between the layouts. A matrix that fails (not positive definite,
  // singular, no convergence) has NaN results.

  /// potrf of the column-major xᵀ, which is x's C-order elements as they are: its upper triangle
  /// ('U') is x's lower one, and its factor U (xᵀ = Uᵀ U) read in C order is L = Uᵀ; the factor's
  /// upper triangle zeroed.
  static raw_type cholesky(const raw_type& x, std::int64_t& failed) {
    failed = -1;
    const auto [batch, n, unused] = stack(x, "cholesky");
    raw_type out = empty(x.shape());
    for (std::size_t b = 0; b < batch && n > 0; ++b) {
      T* l = out.data() + b * n * n;
      std::copy_n(x.data() + b * n * n, n * n, l);
      auto u = column_major_at(l, n, n);
      if (xt::lapack::potr(u, 'U') != 0) {  // INFO > 0: not positive definite
        std::fill_n(l, n * n, nan);
        if (failed < 0) failed = static_cast<std::int64_t>(b);
        continue;
      }
      for (std::size_t i = 0; i + 1 < n; ++i) std::fill(l + i * n + i + 1, l + (i + 1) * n, T(0));
    }
    return out;
  }

  /// gesv (getrf, then getrs), or getrf alone for k = 0, which still reports a singular matrix.
  static raw_type solve(const raw_type& a, const raw_type& rhs, std::int64_t& failed) {
    failed = -1;
    const auto [batch, n, unused] = stack(a, "solve");
    const std::size_t k = rhs.shape().back();
    raw_type out = empty(rhs.shape());
    col_matrix lu, x;
    std::vector<xt::blas_index_t> pivots(n);
    for (std::size_t b = 0; b < batch && n > 0; ++b) {
      T* xb = out.data() + b * n * k;
      to_column_major(a.data() + b * n * n, n, n, lu);
      int info = 0;
      if (k == 0) {
        info = xt::lapack::getrf(lu, pivots);
      } else {
        to_column_major(rhs.data() + b * n * k, n, k, x);
        info = xt::lapack::gesv(lu, x);
      }
      if (info != 0) {  // INFO > 0: a zero pivot
        std::fill_n(xb, n * k, nan);
        if (failed < 0) failed = static_cast<std::int64_t>(b);
      } else {
        from_column_major(x, xb);
      }
    }
    return out;
  }

  /// op(a) x = b by BLAS's trsm (OpenBLAS's CBLAS, which reads the C-order matrices as they are),
  /// b copied into the output and solved in place; an exact zero on a's diagonal is a singular
  /// matrix, as LAPACK's trtrs reports it.
  static raw_type triangular_solve(const raw_type& a, const raw_type& rhs, bool upper,
                                   bool transpose, bool unit_diagonal, std::int64_t& failed) {
    failed = -1;
    const auto [batch, n, unused] = stack(a, "solve_triangular");
    const std::size_t k = rhs.shape().back();
    raw_type out = empty(rhs.shape());
    for (std::size_t b = 0; b < batch; ++b)
      if (!cblas_triangular_solve(a.data() + b * n * n, rhs.data() + b * n * k,
                                  out.data() + b * n * k, static_cast<std::int64_t>(n),
                                  static_cast<std::int64_t>(k), upper, transpose, unit_diagonal) &&
          failed < 0)
        failed = static_cast<std::int64_t>(b);
    return out;
  }

  /// geqrf, then orgqr forms Q's columns in place from the reflectors, in a workspace with room
  /// for Q's m columns when complete.
  static std::pair<raw_type, raw_type> qr(const raw_type& x, bool complete) {
    const auto [batch, m, n] = stack(x, "qr");
    const std::size_t k = std::min(m, n), kq = complete ? m : k;
    raw_type q = empty(stack_shape(x, {m, kq})), r = empty(stack_shape(x, {kq, n}));
    if (k == 0) {  // no reflectors: Q is the identity, R is empty
      for (std::size_t b = 0; b < batch; ++b) {
        auto qb = matrix_at(q.data() + b * m * kq, m, kq);
        xt::noalias(qb) = xt::eye<T>({m, kq});
      }
      return {q, r};
    }
    std::vector<T> workspace(m * std::max(n, kq));
    auto a = column_major_at(workspace.data(), m, n);
    auto qa = column_major_at(workspace.data(), m, kq);
    xt::xtensor<T, 1> tau = xt::xtensor<T, 1>::from_shape({k});
    for (std::size_t b = 0; b < batch; ++b) {
      T* rb = r.data() + b * kq * n;
      transpose(x.data() + b * m * n, m, n, n, workspace.data(), m);
      xt::lapack::geqrf(a, tau);
      transpose(workspace.data(), n, kq, m, rb, n);  // R: the first kq rows, below the diagonal 0
      for (std::size_t i = 1; i < kq; ++i) std::fill_n(rb + i * n, std::min(i, n), T(0));
      xt::lapack::orgqr(qa, tau, static_cast<xt::blas_index_t>(kq));
      transpose(workspace.data(), kq, m, m, q.data() + b * m * kq, kq);
    }
    return {q, r};
  }

  /// gesdd ('A' full, 'S' reduced): U, S descending, Vh.
  static std::tuple<raw_type, raw_type, raw_type> svd(const raw_type& x, bool full) {
    const auto [batch, m, n] = stack(x, "svd");
    const std::size_t k = std::min(m, n), ku = full ? m : k, kv = full ? n : k;
    raw_type u = empty(stack_shape(x, {m, ku})), s = empty(stack_shape(x, {k})),
             vh = empty(stack_shape(x, {kv, n}));
    col_matrix a;
    for (std::size_t b = 0; b < batch; ++b) {
      auto ub = matrix_at(u.data() + b * m * ku, m, ku);
      auto vb = matrix_at(vh.data() + b * kv * n, kv, n);
      if (k == 0) {  // no singular values; full U and Vh are identities
        xt::noalias(ub) = xt::eye<T>({m, ku});
        xt::noalias(vb) = xt::eye<T>({kv, n});
        continue;
      }
      auto sb = flat(s.data() + b * k, k);
      to_column_major(x.data() + b * m * n, m, n, a);
      // gesdd's own column-major U, S and VT
      const auto [info, uc, sc, vtc] = xt::lapack::gesdd(a, full ? 'A' : 'S');
      if (info != 0) {  // INFO > 0: the iteration did not converge
        ub.fill(nan);
        sb.fill(nan);
        vb.fill(nan);
      } else {
        from_column_major(uc, ub.data());
        xt::noalias(sb) = sc;
        from_column_major(vtc, vb.data());
      }
    }
    return {u, s, vh};
  }

  /// gesdd without vectors ('N').
  static raw_type svdvals(const raw_type& x) {
    const auto [batch, m, n] = stack(x, "svdvals");
    const std::size_t k = std::min(m, n);
    raw_type s = empty(stack_shape(x, {k}));
    col_matrix a;
    for (std::size_t b = 0; b < batch && k > 0; ++b) {
      auto sb = flat(s.data() + b * k, k);
      to_column_major(x.data() + b * m * n, m, n, a);
      const auto [info, uc, sc, vtc] = xt::lapack::gesdd(a, 'N');  // uc, vtc empty
      if (info != 0)  // INFO > 0: the iteration did not converge
        sb.fill(nan);
      else
        xt::noalias(sb) = sc;
    }
    return s;
  }

  /// syevd ('L': x's lower triangle): w ascending, the eigenvectors V's columns.
  static std::pair<raw_type, raw_type> eigh(const raw_type& x) {
    const auto [batch, n, unused] = stack(x, "eigh");
    raw_type w = empty(stack_shape(x, {n})), v = empty(x.shape());
    col_matrix a;
    for (std::size_t b = 0; b < batch && n > 0; ++b) {
      auto wb = flat(w.data() + b * n, n);
      T* vb = v.data() + b * n * n;
      to_column_major(x.data() + b * n * n, n, n, a);
      if (xt::lapack::syevd(a, 'V', 'L', wb) != 0) {  // INFO > 0: the iteration did not converge
        wb.fill(nan);
        std::fill_n(vb, n * n, nan);
      } else {
        from_column_major(a, vb);
      }
    }
    return {w, v};
  }

  /// geev ('N' for the left eigenvectors) on a column-major copy: {w, V} complex, V's columns of
  /// unit norm and largest component real; a real matrix's conjugate pairs unpacked from its real
  /// VR (host_geev_unpack). Without `vectors`, V is empty.
  static auto eig(const raw_type& x, bool vectors) {
    using C = std::conditional_t<complex_dtype<T>, T, std::complex<T>>;
    using complex_raw = xtensor_array<C>;
    const auto [batch, n, unused] = stack(x, "eig");
    std::pair<complex_raw, complex_raw> out{
        xt_kernels::empty<C>(stack_shape(x, {n})),
        xt_kernels::empty<C>(vectors ? x.shape() : shape_type{0})};
    auto& [w, v] = out;
    const char jobvr = vectors ? 'V' : 'N';
    col_matrix a, none = col_matrix::from_shape({1, 1});
    col_matrix vr = col_matrix::from_shape({vectors ? n : 1, vectors ? n : 1});
    auto wr = xt::xtensor<T, 1>::from_shape({n});
    // The imaginary parts of a real matrix's eigenvalues; complex geev returns them in wr.
    auto wi = xt::xtensor<T, 1>::from_shape({complex_dtype<T> ? std::size_t{0} : n});
    for (std::size_t b = 0; b < batch && n > 0; ++b) {
      C* wb = w.data() + b * n;
      C* vb = vectors ? v.data() + b * n * n : nullptr;
      to_column_major(x.data() + b * n * n, n, n, a);
      int info = 0;
      if constexpr (complex_dtype<T>)
        info = xt::lapack::geev(a, 'N', jobvr, wr, none, vr);
      else
        info = xt::lapack::geev(a, 'N', jobvr, wr, wi, none, vr);
      if (info != 0) {  // INFO > 0: the QR iteration did not converge
        std::fill_n(wb, n, host_nan<C>);
        if (vectors) std::fill_n(vb, n * n, host_nan<C>);
      } else if constexpr (complex_dtype<T>) {
        std::copy_n(wr.data(), n, wb);
        if (vectors) transpose(vr.data(), n, n, n, vb, n);
      } else {
        host_geev_unpack<T>(static_cast<std::int64_t>(n), wr.data(), wi.data(), vr.data(), wb, vb);
      }
    }
    return out;
  }

  /// getrf, then xt::linalg::slogdet's sums on its factor: {0, -inf} for a zero pivot; {1, 0}
  /// for 0 x 0. (xt::linalg::slogdet itself would copy the column-major matrix once more.)
  static std::pair<raw_type, raw_type> slogdet(const raw_type& x) {
    const auto [batch, n, unused] = stack(x, "slogdet");
    const shape_type bs(x.shape().begin(), x.shape().end() - 2);
    raw_type sign = empty(bs), logabs = empty(bs);
    col_matrix a;
    std::vector<xt::blas_index_t> pivots(n);
    for (std::size_t b = 0; b < batch; ++b) {
      T sg = 1, la = 0;
      if (n > 0) {
        to_column_major(x.data() + b * n * n, n, n, a);
        if (xt::lapack::getrf(a, pivots) != 0) {  // INFO > 0: a zero pivot
          sg = 0;
          la = -std::numeric_limits<T>::infinity();
        } else {
          int flips = 0;  // row interchanges and negative pivots: the sign's parity
          for (std::size_t i = 0; i < n; ++i) {
            flips += pivots[i] != static_cast<xt::blas_index_t>(i + 1);
            T d = a.data()[i * n + i];
            if (d < 0) {
              ++flips;
              d = -d;
            }
            la += std::log(d);
          }
          sg = flips % 2 != 0 ? T(-1) : T(1);
        }
      }
      sign.data()[b] = sg;
      logabs.data()[b] = la;
    }
    return {sign, logabs};
  }

 private:
  using col_matrix = xt::xtensor<T, 2, xt::layout_type::column_major>;
  static constexpr T nan = host_nan<T>;

  /// The C-order m x n matrix at `p`, in place.
  template <class P>
  static auto matrix_at(P* p, std::size_t m, std::size_t n) {
    return xt::adapt(p, m * n, xt::no_ownership(), std::array<std::size_t, 2>{m, n});
  }
  /// The column-major m x n matrix at `p`, in place.
  static auto column_major_at(T* p, std::size_t m, std::size_t n) {
    return xt::adapt<xt::layout_type::column_major>(p, m * n, xt::no_ownership(),
                                                    std::array<std::size_t, 2>{m, n});
  }

  /// The C-order rows x cols matrix at `in` (rows ldi apart) column-major at `out` (columns ldo
  /// apart), or back (host_transpose_tiled).
  static void transpose(const T* in, std::size_t rows, std::size_t cols, std::size_t ldi, T* out,
                        std::size_t ldo) {
    host_transpose_tiled(in, static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols),
                         static_cast<std::int64_t>(ldi), out, static_cast<std::int64_t>(ldo));
  }
  /// The C-order m x n matrix at `p` into the column-major `a`, resized to (m, n).
  static void to_column_major(const T* p, std::size_t m, std::size_t n, col_matrix& a) {
    a.resize(std::array<std::size_t, 2>{m, n});
    transpose(p, m, n, n, a.data(), m);
  }
  /// The column-major matrix `a` (m, n) in C order at `p`.
  template <class A>
  static void from_column_major(const A& a, T* p) {
    const std::size_t m = a.shape()[0], n = a.shape()[1];
    transpose(a.data(), n, m, m, p, n);
  }

  /// {batch count, m, n} of a stack (..., m, n); ep::value_error for an m or n past LAPACK's int.
  static std::array<std::size_t, 3> stack(const raw_type& x, std::string_view op) {
    const shape_type& s = x.shape();
    const std::size_t m = s[s.size() - 2], n = s.back();
    if (std::max(m, n) > static_cast<std::size_t>(std::numeric_limits<xt::blas_index_t>::max()))
      throw value_error(std::string(op) + ": a matrix size past LAPACK's 32-bit int (" +
                        std::to_string(m) + " x " + std::to_string(n) + "); expected at most " +
                        std::to_string(std::numeric_limits<xt::blas_index_t>::max()));
    std::size_t batch = 1;
    for (std::size_t i = 0; i + 2 < s.size(); ++i) batch *= s[i];
    return {batch, m, n};
  }
  /// x's batch axes, then `last`.
  static shape_type stack_shape(const raw_type& x, std::initializer_list<std::size_t> last) {
    shape_type s(x.shape().begin(), x.shape().end() - 2);
    s.insert(s.end(), last.begin(), last.end());
    return s;
  }

  static raw_type empty(const shape_type& shape) { return xt_kernels::empty<T>(shape); }
  template <class P>
  static auto flat(P* p, std::size_t n) {
    return xt_kernels::flat(p, n);
  }
};

}  // namespace ep::detail
