// eagerpp - how many threads Eigen's matrix products get in a program that also links ep::omp
// SPDX-License-Identifier: MIT
#pragma once

#if defined(_OPENMP) && defined(EAGERPP_OMP_LINKED)
#include <cstdlib>  // std::getenv

#include <Eigen/Core>

namespace ep::detail {

/// eagerpp::omp compiles the program with OpenMP, and Eigen compiled with OpenMP gives its matrix
/// products omp_get_max_threads() threads. So that linking ep::omp leaves ep::eigen as it is in a
/// program without OpenMP, Eigen's default becomes one thread at start-up, unless the user chose:
/// OMP_NUM_THREADS in the environment is kept, and `Eigen::setNbThreads(n)` called later wins
/// (n = 0 gives back Eigen's OpenMP default, omp_get_max_threads()). docs/backends.md, "Which
/// BLAS, how many threads".
inline const bool eigen_threads_chosen = [] {
  if (std::getenv("OMP_NUM_THREADS") == nullptr) Eigen::setNbThreads(1);
  return true;
}();

}  // namespace ep::detail
#endif
