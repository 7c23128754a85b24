// eagerpp - tests/cuda/host_mock: what eagerpp/cuda/cusolver.hpp takes from the real runtime.hpp,
// on host memory (each new buffer filled with garbage, as fresh device memory may be)
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>      // std::size_t
#include <cstring>      // std::memset
#include <memory>       // std::shared_ptr
#include <new>          // operator new, operator delete
#include <string_view>  // std::string_view

#include <cublas_v2.h>

#include "host_mock_runtime.h"

#include <fmt/format.h>

#include "eagerpp/error.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/thrust/array.hpp"

namespace ep {

inline cudaStream_t cuda_stream() noexcept { return 0; }

namespace detail {

inline void cuda_check(cudaError_t e, std::string_view op) {
  if (e != cudaSuccess) throw device_error(fmt::format("{}: CUDA error {}", op, e));
}
inline void cublas_check(cublasStatus_t s, std::string_view op) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw device_error(fmt::format("{}: cuBLAS error {}", op, static_cast<int>(s)));
}
inline cublasHandle_t cublas_handle(std::string_view /*op*/) {
  static cublasContext context;
  return &context;
}

template <class T>
std::shared_ptr<T> device_allocate(std::size_t n, std::string_view /*op*/) {
  if (n == 0) return std::shared_ptr<T>();
  void* p = ::operator new(n * sizeof(T));
  std::memset(p, 0xAB, n * sizeof(T));
  return std::shared_ptr<T>(static_cast<T*>(p), [](T* q) { ::operator delete(q); });
}

struct cuda_memory {
  template <class T>
  using storage = std::shared_ptr<T>;
  template <class T>
  static std::shared_ptr<T> allocate(std::size_t n, std::string_view op) {
    return device_allocate<T>(n, op);
  }
};

}  // namespace detail

template <class T>
using cuda_array = thrust_array<T, detail::cuda_memory>;

}  // namespace ep
