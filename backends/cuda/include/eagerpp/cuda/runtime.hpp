// eagerpp - the CUDA runtime beneath ep::cuda: error checks, the stream, device memory,
// ep::cuda_array
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t, std::uint64_t
#include <memory>       // std::shared_ptr, std::unique_ptr
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

template <class T>
struct cuda;

namespace detail {
/// Why no CUDA device can be used (the runtime's error, or that it reports no device), or empty
/// where one can; asked once per process.
inline const std::string& cuda_unavailable_reason() {
  static const std::string reason = [] {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    (void)cudaGetLastError();  // clear the error so that later calls start clean
    return e != cudaSuccess ? std::string(cudaGetErrorString(e))
           : n > 0          ? std::string()
                            : "the runtime reports 0 devices";
  }();
  return reason;
}
}  // namespace detail

/// Whether a CUDA device can be used: the runtime loads and reports at least one device. Never
/// throws; the answer is computed once per process.
inline bool cuda_available() noexcept { return detail::cuda_unavailable_reason().empty(); }

/// The stream every ep::cuda op runs on: CUDA's per-thread default stream, so that ops issued by
/// different host threads do not serialize, while each thread's ops stay in order. Kernels of your
/// own that read or write `cuda_array` data should run on it too (or synchronize with it).
inline cudaStream_t cuda_stream() noexcept { return cudaStreamPerThread; }

namespace detail {

/// Throws ep::device_error `<op>: CUDA error <name>: <description>` when `e` is not cudaSuccess.
inline void cuda_check(cudaError_t e, std::string_view op) {
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clear non-sticky errors
    throw device_error(
        fmt::format("{}: CUDA error {}: {}", op, cudaGetErrorName(e), cudaGetErrorString(e)));
  }
}

/// Throws ep::device_error `<op>: cuBLAS error <name>: <description>` when `s` is not success.
inline void cublas_check(cublasStatus_t s, std::string_view op) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw device_error(fmt::format("{}: cuBLAS error {}: {}", op, cublasGetStatusName(s),
                                   cublasGetStatusString(s)));
}

/// Keeps freed blocks in the current device's default memory pool (release threshold = unlimited),
/// so that cudaMallocAsync after cudaFreeAsync is a cheap reuse, as PyTorch's caching allocator
/// does; the pool also orders reuse across streams with events. Returns true (for a static's
/// initializer: it runs once).
inline bool configure_pool() {
  int device = 0;
  cudaMemPool_t pool{};
  if (cudaGetDevice(&device) == cudaSuccess &&
      cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess) {
    std::uint64_t threshold = ~std::uint64_t{0};
    (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  }
  (void)cudaGetLastError();
  return true;
}

/// Uninitialized device memory for `n` elements of T, stream-ordered on ep::cuda_stream(), owned by
/// a shared_ptr whose deleter gives it back to the pool (cudaFreeAsync; also when the shared_ptr's
/// own allocation throws, as std::shared_ptr guarantees). Throws ep::device_error `<op>: no CUDA
/// device ...` without a device, ep::memory_error when the device has no memory for it, and
/// ep::device_error on another failure. `n == 0` gives a null pointer.
template <class T>
std::shared_ptr<T> device_allocate(std::size_t n, std::string_view op) {
  if (!cuda_available())
    throw device_error(
        fmt::format("{}: no CUDA device is available ({}); expected a machine with an NVIDIA GPU",
                    op, cuda_unavailable_reason()));
  if (n == 0) return std::shared_ptr<T>();
  [[maybe_unused]] static const bool pool_configured = configure_pool();
  std::size_t bytes = 0;
  void* p = nullptr;
  const bool overflow = __builtin_mul_overflow(n, sizeof(T), &bytes);
  const cudaError_t e =
      overflow ? cudaErrorMemoryAllocation : cudaMallocAsync(&p, bytes, cuda_stream());
  if (e == cudaErrorMemoryAllocation) {  // the CPU backends' ep::memory_error, naming the bytes
    (void)cudaGetLastError();
    throw memory_error(fmt::format(
        "{}: cannot allocate {} elements of {} bytes ({} bytes) on the CUDA device: it has no more "
        "memory for this tensor; expected a smaller tensor or less live data",
        op, n, sizeof(T), overflow ? std::string("over 2^64") : std::to_string(bytes)));
  }
  cuda_check(e, op);
  // The deleter may run during static destruction, after the runtime shut down: ignore its errors.
  return std::shared_ptr<T>(static_cast<T*>(p), [](T* q) {
    if (cudaFreeAsync(q, cuda_stream()) != cudaSuccess) (void)cudaGetLastError();
  });
}

/// The calling thread's cuBLAS handle (created on first use, destroyed with the thread, bound to
/// ep::cuda_stream()).
inline cublasHandle_t cublas_handle(std::string_view op) {
  thread_local std::unique_ptr<cublasContext, cublasStatus_t (*)(cublasHandle_t)> handle(
      nullptr, cublasDestroy);
  if (handle == nullptr) {
    cublasHandle_t h = nullptr;
    cublas_check(cublasCreate(&h), op);
    handle.reset(h);
  }
  cublas_check(cublasSetStream(handle.get(), cuda_stream()), op);
  return handle.get();
}

/// Device memory from CUDA's stream-ordered pool, owned by a std::shared_ptr; ep::cuda's.
struct cuda_memory {
  template <class T>
  using backend = cuda<T>;
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
