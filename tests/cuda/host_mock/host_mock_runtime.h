// eagerpp - tests/cuda/host_mock: the CUDA runtime calls of eagerpp/cuda/cusolver.hpp on the host
// (not named cuda_runtime_api.h: libcu++ takes that header's presence for a CUDA toolkit)
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>  // std::size_t
#include <cstring>  // std::memset

using cudaError_t = int;
using cudaStream_t = int;
constexpr cudaError_t cudaSuccess = 0;

inline cudaError_t cudaMemsetAsync(void* p, int value, std::size_t bytes, cudaStream_t /*s*/) {
  std::memset(p, value, bytes);
  return cudaSuccess;
}
