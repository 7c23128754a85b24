// eagerpp - one matrix of a triangular solve through CBLAS's trsm, for the host backends that link
// OpenBLAS (xtensor, ep::omp)
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::copy_n, std::fill_n
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <type_traits>  // std::is_same_v

#include <cblas.h>  // cblas_strsm, cblas_dtrsm, blasint (OpenBLAS)

namespace ep::detail {

/// op(a) x = b for one n x n C-order matrix `a` and n x k C-order right-hand sides `b`: b copied
/// into `x` and solved there by trsm (CblasRowMajor reads the matrices as they are). Returns false,
/// with x all NaN, for an exact zero on a's diagonal: a singular matrix, as LAPACK's trtrs reports
/// it (trsm itself checks nothing). n and k must fit CBLAS's index type (the callers check).
template <class T>
bool cblas_triangular_solve(const T* a, const T* b, T* x, std::int64_t n, std::int64_t k,
                            bool upper, bool transpose, bool unit_diagonal) {
  for (std::int64_t i = 0; i < n && !unit_diagonal; ++i)
    if (a[i * n + i] == T(0)) {
      std::fill_n(x, n * k, std::numeric_limits<T>::quiet_NaN());
      return false;
    }
  std::copy_n(b, n * k, x);
  if (n == 0 || k == 0) return true;
  const auto uplo = upper ? CblasUpper : CblasLower;
  const auto trans = transpose ? CblasTrans : CblasNoTrans;
  const auto diag = unit_diagonal ? CblasUnit : CblasNonUnit;
  const auto ni = static_cast<blasint>(n), ki = static_cast<blasint>(k);
  if constexpr (std::is_same_v<T, float>)
    cblas_strsm(CblasRowMajor, CblasLeft, uplo, trans, diag, ni, ki, 1.0F, a, ni, x, ki);
  else
    cblas_dtrsm(CblasRowMajor, CblasLeft, uplo, trans, diag, ni, ki, 1.0, a, ni, x, ki);
  return true;
}

}  // namespace ep::detail
