// eagerpp - what ep::cuda adds to the shared Thrust code: the stream, device copies, CUB reductions, cuBLAS
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>      // std::int64_t
#include <new>          // std::bad_alloc
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_same_v

#include <cub/device/device_reduce.cuh>            // cub::DeviceReduce::Reduce
#include <cub/device/device_segmented_reduce.cuh>  // cub::DeviceSegmentedReduce::Reduce
#include <thrust/execution_policy.h>               // thrust::cuda::par_nosync
#include <thrust/for_each.h>                       // thrust::for_each_n
#include <thrust/iterator/counting_iterator.h>     // thrust::counting_iterator
#include <thrust/iterator/transform_iterator.h>    // thrust::make_transform_iterator
#include <thrust/system_error.h>                   // thrust::system_error

#include "eagerpp/cuda/runtime.hpp"
#include "eagerpp/thrust/functors.hpp"

namespace ep::detail {

/// The CUDA system of the Thrust backend (the interface is described in eagerpp/thrust/kernels.hpp):
/// every algorithm runs on ep::cuda_stream() and none synchronizes, except the copy to the host.
/// This file and runtime.hpp are the only code of ep::cuda that ep::omp's tests do not run.
struct cuda_system {
  template <class T>
  using array = cuda_array<T>;

  /// Thrust's policy for our stream; par_nosync: Thrust does not synchronize after each algorithm
  /// (errors of asynchronous work surface at the next synchronizing call, to_data).
  static auto policy() { return thrust::cuda::par_nosync.on(cuda_stream()); }

  template <class F>
  static void for_n(std::int64_t n, const F& f) {
    if (n > 0) thrust::for_each_n(policy(), thrust::counting_iterator<std::int64_t>(0), n, f);
  }

  template <class T>
  static void copy(T* out, const T* in, std::int64_t n, std::string_view op) {
    if (n > 0)
      cuda_check(cudaMemcpyAsync(out, in, static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyDeviceToDevice,
                                 cuda_stream()),
                 op);
  }
  /// Synchronous: `in` may be reused on return.
  template <class T>
  static void from_host(T* out, const T* in, std::int64_t n, std::string_view op) {
    cuda_check(cudaMemcpyAsync(out, in, static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyHostToDevice,
                               cuda_stream()),
               op);
    cuda_check(cudaStreamSynchronize(cuda_stream()), op);
  }
  /// After every queued op finished; errors of earlier asynchronous ops surface here.
  template <class T>
  static void to_host(T* out, const T* in, std::int64_t n, std::string_view op) {
    if (n > 0)
      cuda_check(cudaMemcpyAsync(out, in, static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyDeviceToHost,
                                 cuda_stream()),
                 op);
    cuda_check(cudaStreamSynchronize(cuda_stream()), op);
  }

  /// Runs `f`, turning Thrust's exceptions (system_error, bad_alloc) into ep::device_error naming `op`.
  template <class F>
  static decltype(auto) guard(std::string_view op, F&& f) {
    try {
      return f();
    } catch (const thrust::system_error& e) {
      throw device_error(fmt::format("{}: CUDA error: {}", op, e.what()));
    } catch (const std::bad_alloc& e) {
      throw device_error(fmt::format("{}: out of device memory ({})", op, e.what()));
    }
  }

  /// Reduces each of `segments` consecutive runs of `length` elements of `in` into out[segment]:
  /// CUB's DeviceReduce (one segment) or DeviceSegmentedReduce.
  template <class Out, class InIt, class Op, class Init>
  static void segmented_reduce(InIt in, Out* out, std::int64_t segments, std::int64_t length, Op op, Init init,
                               std::string_view name) {
    std::size_t bytes = 0;
    const cudaStream_t s = cuda_stream();
    if (segments == 1) {
      cuda_check(cub::DeviceReduce::Reduce(nullptr, bytes, in, out, length, op, init, s), name);
      const auto scratch = device_scratch(bytes, name);
      cuda_check(cub::DeviceReduce::Reduce(scratch.get(), bytes, in, out, length, op, init, s), name);
    } else {
      const auto begin = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                         thrust_fn::scale_fn{length});
      cuda_check(cub::DeviceSegmentedReduce::Reduce(nullptr, bytes, in, out, segments, begin, begin + 1, op, init, s),
                 name);
      const auto scratch = device_scratch(bytes, name);
      cuda_check(
          cub::DeviceSegmentedReduce::Reduce(scratch.get(), bytes, in, out, segments, begin, begin + 1, op, init, s),
          name);
    }
  }

  /// C[b] = op(A[b]) op(B[b]) for `batch` row-major blocks: cuBLAS's strided batched GEMM.
  template <class T>
  static void gemm(const T* a, const T* b, T* c, std::int64_t batch, std::int64_t n, std::int64_t k, std::int64_t m,
                   bool transpose_a, bool transpose_b, std::string_view name) {
    // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: cuBLAS computes
    // (m x n) = (m x k)(k x n). A row-major block read column-major is its transpose, so an operand
    // stored untransposed is passed as is (OP_N) and a transposed one as OP_T.
    const T one = 1;
    const T zero = 0;
    cublasHandle_t h = cublas_handle(name);
    const auto mi = static_cast<int>(m);
    const auto ni = static_cast<int>(n);
    const auto ki = static_cast<int>(k);
    const auto bi = static_cast<int>(batch);
    const cublasOperation_t op_a = transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t op_b = transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N;
    const int lda = transpose_a ? ni : ki;
    const int ldb = transpose_b ? ki : mi;
    if constexpr (std::is_same_v<T, float>) {
      cublas_check(cublasSgemmStridedBatched(h, op_b, op_a, mi, ni, ki, &one, b, ldb, k * m, a, lda, n * k, &zero, c,
                                             mi, n * m, bi),
                   name);
    } else {
      cublas_check(cublasDgemmStridedBatched(h, op_b, op_a, mi, ni, ki, &one, b, ldb, k * m, a, lda, n * k, &zero, c,
                                             mi, n * m, bi),
                   name);
    }
  }
};

}  // namespace ep::detail
