// eagerpp - the CUDA runtime beneath ep::cuda: error checks, the stream, device memory, ep::cuda_array
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t, std::uint64_t
#include <memory>       // std::shared_ptr
#include <string>       // std::string
#include <string_view>  // std::string_view

#include <cublas_v2.h>         // cublasHandle_t, cublasStatus_t
#include <cuda_runtime_api.h>  // cudaMallocAsync, cudaMemcpyAsync, cudaStreamPerThread

#include <fmt/format.h>

#include "eagerpp/error.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/thrust/array.hpp"

namespace ep {

/// Whether a CUDA device can be used: the runtime loads and reports at least one device. Never
/// throws; the answer is computed once per process.
inline bool cuda_available() noexcept {
  static const bool available = [] {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();  // clear the sticky-free error so later calls start clean
      return false;
    }
    return n > 0;
  }();
  return available;
}

/// The stream every ep::cuda op runs on: CUDA's per-thread default stream, so that ops issued by
/// different host threads do not serialize, while each thread's ops stay in order. Kernels of your
/// own that read or write `cuda_array` data should run on it too (or synchronize with it).
inline cudaStream_t cuda_stream() noexcept { return cudaStreamPerThread; }

namespace detail {

/// Throws ep::device_error `<op>: CUDA error <name>: <description>` when `e` is not cudaSuccess.
inline void cuda_check(cudaError_t e, std::string_view op) {
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clear non-sticky errors
    throw device_error(fmt::format("{}: CUDA error {}: {}", op, cudaGetErrorName(e), cudaGetErrorString(e)));
  }
}

/// Throws ep::device_error `<op>: cuBLAS error <name>: <description>` when `s` is not success.
inline void cublas_check(cublasStatus_t s, std::string_view op) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw device_error(fmt::format("{}: cuBLAS error {}: {}", op, cublasGetStatusName(s), cublasGetStatusString(s)));
}

/// Throws ep::device_error `<op>: no CUDA device ...` unless ep::cuda_available().
inline void require_device(std::string_view op) {
  if (!cuda_available()) {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    (void)cudaGetLastError();
    throw device_error(fmt::format("{}: no CUDA device is available ({}); expected a machine with an NVIDIA GPU",
                                   op, e == cudaSuccess ? "the runtime reports 0 devices" : cudaGetErrorString(e)));
  }
}

/// Configures the current device's default memory pool once: freed blocks stay in the pool
/// (release threshold = unlimited), so that cudaMallocAsync after cudaFreeAsync is a cheap reuse,
/// as PyTorch's caching allocator does; the pool also orders reuse across streams with events.
inline void configure_pool_once() {
  static const bool done = [] {
    int device = 0;
    cudaMemPool_t pool{};
    if (cudaGetDevice(&device) == cudaSuccess && cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess) {
      std::uint64_t threshold = ~std::uint64_t{0};
      (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
    }
    (void)cudaGetLastError();
    return true;
  }();
  (void)done;
}

/// Uninitialized device memory for `n` elements of T, stream-ordered on ep::cuda_stream(), owned by
/// a shared_ptr whose deleter gives it back to the pool (cudaFreeAsync). Throws ep::device_error
/// without a device or when the allocation fails. `n == 0` gives a null pointer (after the device check).
template <class T>
std::shared_ptr<T> device_allocate(std::size_t n, std::string_view op) {
  require_device(op);
  if (n == 0) return std::shared_ptr<T>();
  configure_pool_once();
  void* p = nullptr;
  cuda_check(cudaMallocAsync(&p, n * sizeof(T), cuda_stream()), op);
  try {
    // The deleter may run during static destruction, after the runtime shut down: ignore its errors.
    return std::shared_ptr<T>(static_cast<T*>(p), [](T* q) {
      if (cudaFreeAsync(q, cuda_stream()) != cudaSuccess) (void)cudaGetLastError();
    });
  } catch (...) {
    (void)cudaFreeAsync(p, cuda_stream());
    throw;
  }
}

/// Temporary device bytes (CUB's temp storage), freed when the owner goes out of scope.
inline std::shared_ptr<unsigned char> device_scratch(std::size_t bytes, std::string_view op) {
  return device_allocate<unsigned char>(bytes == 0 ? 1 : bytes, op);
}

/// The calling thread's cuBLAS handle (created on first use, bound to ep::cuda_stream()).
inline cublasHandle_t cublas_handle(std::string_view op) {
  struct holder {
    cublasHandle_t h = nullptr;
    ~holder() {
      if (h != nullptr) (void)cublasDestroy(h);
    }
  };
  thread_local holder handle;
  if (handle.h == nullptr) cublas_check(cublasCreate(&handle.h), op);
  cublas_check(cublasSetStream(handle.h, cuda_stream()), op);
  return handle.h;
}

}  // namespace detail

namespace detail {

/// Device memory from CUDA's stream-ordered pool, owned by a std::shared_ptr.
struct cuda_memory {
  template <class T>
  using storage = std::shared_ptr<T>;
  template <class T>
  static std::shared_ptr<T> allocate(std::size_t n, std::string_view op) {
    return device_allocate<T>(n, op);
  }
};

}  // namespace detail

/// The raw tensor of `ep::cuda<T>`: shared, immutable C-order device elements and their shape.
/// For your own kernels: `data()` is a device pointer; run them on ep::cuda_stream().
template <class T>
using cuda_array = thrust_array<T, detail::cuda_memory>;

}  // namespace ep
