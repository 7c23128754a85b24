// eagerpp - the OpenMP backend: ep::omp<T>, the Thrust backend of ep::cuda run on CPU threads
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>      // std::int64_t
#include <exception>    // std::exception_ptr, std::current_exception, std::rethrow_exception
#include <memory>       // std::shared_ptr
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple, std::get
#include <utility>      // std::pair

#include "eagerpp/omp/system.hpp"  // first: it selects Thrust's OpenMP device system

#include "eagerpp/astensor.hpp"
#include "eagerpp/host/block_reductions.hpp"
#include "eagerpp/host/blocks.hpp"
#include "eagerpp/host/fft_library.hpp"  // kissfft, or FFTW (GPL) with EAGERPP_FFTW
#include "eagerpp/host/fuse_host.hpp"
#include "eagerpp/omp/fuse_ops.hpp"
#include "eagerpp/omp/lapack.hpp"
#include "eagerpp/thrust/backend.hpp"

namespace ep {

/// The OpenMP backend: the same Thrust code as ep::cuda<T> (eagerpp/thrust/backend.hpp), on host
/// memory from eagerpp's caching allocator and CPU threads. Element-wise ops and reductions of at
/// least detail::omp_system::parallel_cutoff elements run on every OpenMP thread (OMP_NUM_THREADS),
/// smaller ones on the calling thread; sort, cumsum and put_add use Thrust's OpenMP algorithms;
/// float and double matmul call OpenBLAS. Every test of ep::omp also tests the code ep::cuda runs.
template <class T>
struct omp : detail::thrust_backend<T, detail::omp_system> {
  static constexpr std::string_view name = "omp";
  using typename detail::thrust_backend<T, detail::omp_system>::raw_type;
  /// Element-wise ops of large floating tensors are lazy, computed in cache-sized blocks by these
  /// same functions (host/blocks.hpp), the blocks spread over the OpenMP threads.
  static constexpr bool blocked_evaluation = true;
  /// ep::fuse runs its functions here in one pass of generic-vector packets (omp/fuse_ops.hpp) on
  /// the OpenMP threads (host/fuse_host.hpp).
  static constexpr bool fused_loops = true;
  template <class F, class... R>
  static raw_type fused_map(const F& f, const Shape& shape, const R&... xs) {
    return detail::fuse::host_fused_map<omp, detail::vector_fuse_ops<T>>(f, shape, xs...);
  }
  template <class F, class... R>
  static auto fused_grad(const F& f, const Shape& shape, const raw_type& g, const R&... xs) {
    return detail::fuse::host_fused_grad<omp, detail::vector_fuse_ops<T>>(f, shape, g, xs...);
  }

  /// The unnormalized DFT along `axis` of a complex tensor (ep::fft): kissfft, the lines spread
  /// over the OpenMP threads, or FFTW where built with EAGERPP_FFTW (host/fft_library.hpp).
  static raw_type fft(const raw_type& x, int axis, bool inverse) requires complex_dtype<T> {
    raw_type out(x.shape(), "fft");
    detail::cpu_fft_lines<typename T::value_type>(x.data(), out.mutable_data(), x.shape(), axis,
                                                  inverse);
    return out;
  }
  /// The first n / 2 + 1 points of the DFT along `axis` of a real tensor (ep::fft::rfft):
  /// kissfft's real transform (FFTW's where built with EAGERPP_FFTW: host/fft_library.hpp), the
  /// lines spread over the OpenMP threads.
  static auto rfft(const raw_type& x, int axis) requires floating_dtype<T> {
    Shape half = x.shape();
    half[axis] = half[axis] / 2 + 1;
    typename omp<std::complex<T>>::raw_type out(half, "rfft");
    detail::cpu_rfft_lines<T>(x.data(), out.mutable_data(), x.shape(), axis);
    return out;
  }

  /// sqrt a SIMD packet at a time (detail::omp_system::sqrt_n): the Thrust backend's functor, in
  /// the `omp simd` loop, would call the C library's sqrt one element at a time.
  static raw_type sqrt(const raw_type& x) requires floating_dtype<T> {
    raw_type out(x.shape(), "sqrt");
    detail::omp_system::sqrt_n(x.size(), x.data(), out.mutable_data());
    return out;
  }

  /// Runs `fn(first, last)` over contiguous ranges of [0, count) on every OpenMP thread, or on the
  /// calling thread alone (one thread, inside a parallel region, a single block). The first
  /// exception thrown is rethrown after the region (an exception may not leave it).
  template <class Fn>
  static void parallel_blocks(std::int64_t count, const Fn& fn) {
    if (count < 2 || omp_get_max_threads() == 1 || omp_in_parallel() != 0) {
      fn(std::int64_t{0}, count);
      return;
    }
    std::exception_ptr error;
#pragma omp parallel
    {
      const std::int64_t threads = omp_get_num_threads();
      const std::int64_t t = omp_get_thread_num();
      const std::int64_t lo = count * t / threads;
      const std::int64_t hi = count * (t + 1) / threads;
      try {
        if (lo < hi) fn(lo, hi);
      } catch (...) {
#pragma omp critical(eagerpp_parallel_blocks)
        if (!error) error = std::current_exception();
      }
    }
    if (error) std::rethrow_exception(error);
  }

  // Decompositions (ep::linalg): LAPACK's potrf, getrf and getrs, BLAS's trsm, geqrf and orgqr,
  // gesdd, syevd, geev (OpenBLAS's) on each matrix, the batch split among the OpenMP threads
  // (eagerpp/omp/lapack.hpp). ep::cuda's are cuSOLVER's (eagerpp/cuda/cusolver.hpp).
  static raw_type cholesky(const raw_type& x, std::int64_t& failed) requires floating_dtype<T> {
    return detail::lapack_cholesky<omp>(x, failed);
  }
  static raw_type solve(const raw_type& a, const raw_type& b,
                        std::int64_t& failed) requires inexact_dtype<T> {
    return detail::lapack_solve<omp>(a, b, failed);
  }
  static raw_type triangular_solve(const raw_type& a, const raw_type& b, bool upper, bool transpose,
                                   bool unit_diagonal,
                                   std::int64_t& failed) requires floating_dtype<T> {
    return detail::lapack_triangular_solve<omp>(a, b, upper, transpose, unit_diagonal, failed);
  }
  static std::pair<raw_type, raw_type> qr(const raw_type& x,
                                          bool complete) requires floating_dtype<T> {
    return detail::lapack_qr<omp>(x, complete);
  }
  static std::tuple<raw_type, raw_type, raw_type> svd(const raw_type& x,
                                                      bool full) requires floating_dtype<T> {
    return detail::lapack_svd<omp>(x, full, true);
  }
  static raw_type svdvals(const raw_type& x) requires floating_dtype<T> {
    return std::get<1>(detail::lapack_svd<omp>(x, false, false));
  }
  static std::pair<raw_type, raw_type> eigh(const raw_type& x) requires floating_dtype<T> {
    return detail::lapack_eigh<omp>(x);
  }
  static std::pair<raw_type, raw_type> slogdet(const raw_type& x) requires floating_dtype<T> {
    return detail::lapack_slogdet<omp>(x);
  }
  static auto eig(const raw_type& x, bool vectors) requires inexact_dtype<T> {
    return detail::lapack_eig<omp>(x, vectors);
  }

  /// Zero-copy exchange with other host backends (see ep::to): the C-order elements, shared.
  static std::shared_ptr<T> share_host(const raw_type& x) { return x.storage().share(); }
  /// Adopts shared C-order host elements.
  static raw_type from_host_shared(std::shared_ptr<T> data, const Shape& shape) {
    return raw_type(buffer<T>(std::move(data)), shape);
  }
};

}  // namespace ep

// Linked with eagerpp::omp_compiled, the float and double instantiations are in its library
// (detail/instantiate.hpp): this translation unit does not compile them again.
#ifdef EAGERPP_OMP_COMPILED
#include "eagerpp/detail/instantiate.hpp"
EAGERPP_INSTANTIATE(extern, ep::omp<float>)
EAGERPP_INSTANTIATE(extern, ep::omp<double>)
#endif
