// eagerpp - what ep::cuda adds to the shared Thrust code: the stream, device copies, CUB
// reductions, cuBLAS
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>      // std::int64_t
#include <new>          // std::bad_alloc
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_same_v

#include <thrust/execution_policy.h>               // thrust::cuda::par_nosync
#include <thrust/for_each.h>                       // thrust::for_each_n
#include <thrust/iterator/counting_iterator.h>     // thrust::counting_iterator
#include <thrust/iterator/transform_iterator.h>    // thrust::make_transform_iterator
#include <thrust/system_error.h>                   // thrust::system_error
#include <cub/device/device_reduce.cuh>            // cub::DeviceReduce::Reduce
#include <cub/device/device_segmented_reduce.cuh>  // cub::DeviceSegmentedReduce::Reduce

#include "eagerpp/cuda/runtime.hpp"
#include "eagerpp/thrust/functors.hpp"
#include "eagerpp/thrust/system.hpp"

namespace ep::detail {

/// The CUDA system of the Thrust backend (its contract: eagerpp/thrust/system.hpp):
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

  template <class T, class G>
  static void write_n(std::int64_t n, T* out, const G& g) {
    for_n(n, write_to(out, g));
  }

  /// Asynchronous within device memory; from or to the host it synchronizes the stream (errors of
  /// earlier asynchronous ops surface there).
  template <class T>
  static void copy(T* out, const T* in, std::int64_t n, copy_kind kind, std::string_view op) {
    const cudaMemcpyKind how = kind == copy_kind::within      ? cudaMemcpyDeviceToDevice
                               : kind == copy_kind::from_host ? cudaMemcpyHostToDevice
                                                              : cudaMemcpyDeviceToHost;
    if (n > 0)
      cuda_check(
          cudaMemcpyAsync(out, in, static_cast<std::size_t>(n) * sizeof(T), how, cuda_stream()),
          op);
    if (kind != copy_kind::within) cuda_check(cudaStreamSynchronize(cuda_stream()), op);
  }

  /// Runs `f`, turning Thrust's exceptions (system_error, bad_alloc) into ep::device_error naming
  /// `op`.
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
  static void segmented_reduce(InIt in, Out* out, std::int64_t segments, std::int64_t length, Op op,
                               Init init, std::string_view name) {
    const cudaStream_t s = cuda_stream();
    const auto begin = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                       thrust_fn::scale_fn{length});
    // CUB's two calls: the scratch size (scratch == nullptr), then the work.
    const auto reduce = [&](void* scratch, std::size_t& bytes) {
      return segments == 1 ? cub::DeviceReduce::Reduce(scratch, bytes, in, out, length, op, init, s)
                           : cub::DeviceSegmentedReduce::Reduce(scratch, bytes, in, out, segments,
                                                                begin, begin + 1, op, init, s);
    };
    std::size_t bytes = 0;
    cuda_check(reduce(nullptr, bytes), name);
    const auto scratch = device_allocate<unsigned char>(bytes == 0 ? 1 : bytes, name);
    cuda_check(reduce(scratch.get(), bytes), name);
  }

  /// C[b] = op(A[b]) op(B[b]) for every block: cuBLAS's strided batched GEMM.
  template <class T>
  static void gemm(const T* a, const T* b, T* c, const gemm_layout& g, std::string_view name) {
    const T one = 1, zero = 0;
    const auto flag = [](bool transpose) { return transpose ? CUBLAS_OP_T : CUBLAS_OP_N; };
    const auto call = [&](auto blas) {
      cublas_check(
          blas(cublas_handle(name), flag(g.transpose_first), flag(g.transpose_second), g.rows,
               g.cols, g.inner, &one, b, g.ld_first, g.stride_first, a, g.ld_second,
               g.stride_second, &zero, c, g.ld_out, g.stride_out, static_cast<int>(g.batch)),
          name);
    };
    if constexpr (std::is_same_v<T, float>)
      call(cublasSgemmStridedBatched);
    else
      call(cublasDgemmStridedBatched);
  }
};

}  // namespace ep::detail
