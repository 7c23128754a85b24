// eagerpp - the contract of a Thrust system (ep::cuda's, ep::omp's) and the plain types both
// systems use
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>  // std::int64_t

#include "eagerpp/detail/numpy_math.hpp"  // EAGERPP_HOST_DEVICE

// The Thrust backend (eagerpp/thrust/backend.hpp, kernels.hpp) is written once over a *system* S,
// the small part that differs between the GPU and CPU threads
// (backends/cuda/include/eagerpp/cuda/system.hpp, backends/omp/include/eagerpp/omp/system.hpp):
//
//   template <class T> using array = ...;  // the raw tensor: an ep::thrust_array<T, Memory>
//   static auto policy();  // Thrust's execution policy (sort, scan, gather, reduce_by_key)
//   static void for_n(std::int64_t n, F f);  // f(i) for every i < n, in any order, maybe in
//                                            // parallel
//   static void write_n(std::int64_t n, T* out, G g);  // out[i] = g(i) for every i < n, as for_n
//   static void copy(T* out, const T* in, std::int64_t n, copy_kind kind, op);
//   static void segmented_reduce(in, out, segments, length, op, init, name);
//   static void gemm(const T* a, const T* b, T* c, const gemm_layout& g, name);  // float, double
//   static decltype(auto) guard(op, f);  // runs f, turning the system's exceptions into ep errors
// and optionally
//   static void write_rows(std::int64_t rows, std::int64_t columns, T* out, G g);
//     // out[r * columns + j] = g(r, j): a binary op with a row operand (a bias) reads it by column
//     // (ep::omp); without it, through the broadcasting transform's strides
//   static void reduce_columns(const T* x, T* out, std::int64_t rows, std::int64_t columns, op,
//                              T init);  // out[j] = init op x[j] op x[columns + j] op ...
//     // (ep::omp: row after row into a tile of results); without it, a loop over rows per column
// g++ may leave a functor's call out of line in a kernel (a call per element, no vector loop):
// each transform instantiates several loops over its functor (ep::omp's write_n). The kernels'
// functors, and the larger element-wise ones, are inlined by force on the host.
#if defined(__GNUC__) && !defined(__CUDACC__)
#define EAGERPP_THRUST_INLINE [[gnu::always_inline]] inline
#else
#define EAGERPP_THRUST_INLINE
#endif

namespace ep::detail {

/// out[i] = g(i): for_n's body for functors that compute one element from its index.
template <class Out, class G>
struct write_fn {
  Out* out;
  G g;
  EAGERPP_THRUST_INLINE EAGERPP_HOST_DEVICE void operator()(std::int64_t i) const { out[i] = g(i); }
};
template <class Out, class G>
write_fn<Out, G> write_to(Out* out, G g) {
  return {out, g};
}

/// Where S::copy moves elements: within the system's memory, or between it and the host's (a copy
/// from or to the host is synchronous: the source may be reused, and the result read, on return).
enum class copy_kind { within, from_host, to_host };

/// Row-major C[b] = op(A[b]) op(B[b]) for `batch` blocks (A: n x k, B: k x m, C: n x m after op)
/// as the column-major BLAS call both systems make (cuBLAS has no other; OpenBLAS takes it too):
/// C^T = op(B)^T op(A)^T. A row-major block read column-major is its transpose, so the first
/// operand is B, passed as stored (no transpose flag) unless it is stored transposed, and likewise
/// A second.
struct gemm_layout {
  std::int64_t batch;
  int rows, cols, inner;                   // m, n, k: the column-major product is (m x k)(k x n)
  bool transpose_first, transpose_second;  // B's and A's transpose flags
  int ld_first, ld_second, ld_out;         // the leading dimensions of B, A and C
  std::int64_t stride_first, stride_second, stride_out;  // elements between blocks of B, A and C

  static gemm_layout of(std::int64_t batch, std::int64_t n, std::int64_t k, std::int64_t m,
                        bool transpose_a, bool transpose_b) {
    const auto ni = static_cast<int>(n), ki = static_cast<int>(k), mi = static_cast<int>(m);
    return {batch,
            mi,
            ni,
            ki,
            transpose_b,
            transpose_a,
            transpose_b ? ki : mi,
            transpose_a ? ni : ki,
            mi,
            k * m,
            n * k,
            n * m};
  }
};

}  // namespace ep::detail
