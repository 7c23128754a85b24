// eagerpp - the CUDA backend: ep::cuda<T>, the Thrust backend on the GPU (CUB reductions, cuBLAS
// GEMM, cuSOLVER decompositions)
// SPDX-License-Identifier: MIT
#pragma once

#if !defined(__CUDACC__)
#error \
    "<eagerpp/cuda.hpp> holds device code: compile this file with nvcc (a .cu file, or set_source_files_properties(... LANGUAGE CUDA))"
#endif

#include <cstdint>      // std::int64_t
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple, std::get
#include <utility>      // std::pair

#include "eagerpp/cuda/cusolver.hpp"
#include "eagerpp/cuda/runtime.hpp"
#include "eagerpp/cuda/system.hpp"
#include "eagerpp/thrust/backend.hpp"

namespace ep {

/// The CUDA backend: the raw tensor is an ep::cuda_array<T> (shared C-order device memory from
/// CUDA's stream-ordered pool) and every op runs on ep::cuda_stream(). The ops are the Thrust code
/// ep::omp<T> runs on CPU threads (eagerpp/thrust/backend.hpp): element-wise ops are one
/// broadcasting transform, reductions are CUB's DeviceReduce / DeviceSegmentedReduce after moving
/// the reduced axes last, cumsum is a Thrust scan by key, shape ops are one strided copy, float
/// matmul is cuBLAS's strided batched GEMM, and ep::linalg's decompositions are cuSOLVER's
/// (eagerpp/cuda/cusolver.hpp). Ops are asynchronous; to_data (and so item, to_vector)
/// synchronizes, as do the decompositions that report a failing matrix. Every CUDA, cuBLAS or
/// cuSOLVER failure, and any use without a device, throws ep::device_error naming the op.
template <class T>
struct cuda : detail::thrust_backend<T, detail::cuda_system> {
  static_assert(real_dtype<T>,
                "ep::cuda<T>: the complex dtypes are not supported on the GPU yet; use ep::omp, "
                "ep::eigen or ep::xtensor for complex tensors");
  static constexpr std::string_view name = "cuda";
  using typename detail::thrust_backend<T, detail::cuda_system>::raw_type;

  // Decompositions (ep::linalg): cuSOLVER's potrfBatched, getrf and getrs, geqrf and orgqr,
  // gesvdj, syevd, and cuBLAS's trsmBatched, on ep::cuda_stream() (eagerpp/cuda/cusolver.hpp).
  static raw_type cholesky(const raw_type& x, std::int64_t& failed) requires floating_dtype<T> {
    return detail::cusolver_cholesky(x, failed);
  }
  static raw_type solve(const raw_type& a, const raw_type& b,
                        std::int64_t& failed) requires floating_dtype<T> {
    return detail::cusolver_solve(a, b, failed);
  }
  static raw_type triangular_solve(const raw_type& a, const raw_type& b, bool upper, bool transpose,
                                   bool unit_diagonal,
                                   std::int64_t& failed) requires floating_dtype<T> {
    return detail::cusolver_triangular_solve(a, b, upper, transpose, unit_diagonal, failed);
  }
  static std::pair<raw_type, raw_type> qr(const raw_type& x,
                                          bool complete) requires floating_dtype<T> {
    return detail::cusolver_qr(x, complete);
  }
  static std::tuple<raw_type, raw_type, raw_type> svd(const raw_type& x,
                                                      bool full) requires floating_dtype<T> {
    return detail::cusolver_svd(x, full, true);
  }
  static raw_type svdvals(const raw_type& x) requires floating_dtype<T> {
    return std::get<1>(detail::cusolver_svd(x, false, false));
  }
  static std::pair<raw_type, raw_type> eigh(const raw_type& x) requires floating_dtype<T> {
    return detail::cusolver_eigh(x);
  }
  static std::pair<raw_type, raw_type> slogdet(const raw_type& x) requires floating_dtype<T> {
    return detail::cusolver_slogdet(x);
  }
};

}  // namespace ep
