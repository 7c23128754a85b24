// eagerpp - the CPU backends a benchmark compares side by side, each on one thread
// SPDX-License-Identifier: MIT
#pragma once

#include <string>  // std::string
#include <vector>  // std::vector

#include <cblas.h>  // openblas_set_num_threads (OpenBLAS: ep::xtensor's and ep::omp's BLAS)

#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>
#if EAGERPP_BENCHMARK_OMP  // set by benchmarks/CMakeLists.txt where the target links eagerpp::omp
#include <omp.h>           // omp_set_num_threads

#include <eagerpp/omp.hpp>
#endif

namespace ep::bench {

/// One thread for every library the CPU backends call: Eigen's GEMM, OpenBLAS and OpenMP (ep::omp).
inline void use_one_thread() {
  Eigen::setNbThreads(1);
  openblas_set_num_threads(1);
#if EAGERPP_BENCHMARK_OMP
  omp_set_num_threads(1);
#endif
}

/// Calls `add.template operator()<B>(name)` for ep::eigen<T>, ep::xtensor<T> and, where the
/// benchmark links it, ep::omp<T>, in that order; returns their names.
template <class T, class Add>
std::vector<std::string> for_each_cpu_backend(Add&& add) {
  add.template operator()<ep::eigen<T>>("eigen");
  add.template operator()<ep::xtensor<T>>("xtensor");
#if EAGERPP_BENCHMARK_OMP
  add.template operator()<ep::omp<T>>("omp");
  return {"eigen", "xtensor", "omp"};
#else
  return {"eigen", "xtensor"};
#endif
}

}  // namespace ep::bench
