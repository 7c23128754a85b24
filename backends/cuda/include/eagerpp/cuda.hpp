// eagerpp - the CUDA backend: ep::cuda<T>, the Thrust backend on the GPU (CUB reductions, cuBLAS
// GEMM)
// SPDX-License-Identifier: MIT
#pragma once

#if !defined(__CUDACC__)
#error \
    "<eagerpp/cuda.hpp> holds device code: compile this file with nvcc (a .cu file, or set_source_files_properties(... LANGUAGE CUDA))"
#endif

#include <string_view>  // std::string_view

#include "eagerpp/cuda/runtime.hpp"
#include "eagerpp/cuda/system.hpp"
#include "eagerpp/thrust/backend.hpp"

namespace ep {

/// The CUDA backend: the raw tensor is an ep::cuda_array<T> (shared C-order device memory from
/// CUDA's stream-ordered pool) and every op runs on ep::cuda_stream(). The ops are the Thrust code
/// ep::omp<T> runs on CPU threads (eagerpp/thrust/backend.hpp): element-wise ops are one
/// broadcasting transform, reductions are CUB's DeviceReduce / DeviceSegmentedReduce after moving
/// the reduced axes last, cumsum is a Thrust scan by key, shape ops are one strided copy, float
/// matmul is cuBLAS's strided batched GEMM. Ops are asynchronous; to_data (and so item, to_vector)
/// synchronizes. Every CUDA or cuBLAS failure, and any use without a device, throws
/// ep::device_error naming the op.
template <class T>
struct cuda : detail::thrust_backend<T, detail::cuda_system> {
  static constexpr std::string_view name = "cuda";
};

}  // namespace ep
