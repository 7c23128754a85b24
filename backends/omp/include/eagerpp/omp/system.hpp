// eagerpp - what ep::omp adds to the shared Thrust code: host memory, OpenMP loops, OpenBLAS GEMM
// SPDX-License-Identifier: MIT
#pragma once

#if defined(__CUDACC__)
#error \
    "<eagerpp/omp.hpp> is the host instance of the Thrust backend: compile it with a host compiler (g++, clang++), not nvcc"
#endif
// Thrust's default device system is CUDA; eagerpp::omp sets this definition, and so does this line
// for code that includes the header without the target.
#if !defined(THRUST_DEVICE_SYSTEM)
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_OMP
#endif

#include <algorithm>    // std::min
#include <cmath>        // std::sqrt
#include <cstdint>      // std::int64_t
#include <cstring>      // std::memcpy
#include <memory>       // std::unique_ptr
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_same_v

#include <cblas.h>  // cblas_sgemm, cblas_dgemm (OpenBLAS)
#include <omp.h>    // omp_get_max_threads, omp_get_thread_num, omp_get_num_threads
#if defined(__SSE2__)
#include <immintrin.h>  // _mm_stream_si128, _mm256_stream_si256, _mm_sfence
#endif

#include <thrust/system/omp/execution_policy.h>  // thrust::omp::par

#include "eagerpp/omp/fuse_ops.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"
#include "eagerpp/thrust/array.hpp"
#include "eagerpp/thrust/system.hpp"

// glibc's vector math library (libmvec, linked through libm) has 4-, 8- and 16-lane versions of
// the C library's math functions; math.h declares them (OpenMP `declare simd`) only under
// -ffast-math. Declared here, every `omp simd` loop of ep::omp that calls expf, sinf, ... (through
// libcu++'s ::cuda::std:: functions) calls them a vector at a time, as Eigen's and xsimd's
// vectorized functions do (glibc documents at most 4 ulp of error for them). The list is libmvec's
// functions of one argument (glibc 2.35 and later), whichever rows of the unary table call them.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#if __GLIBC_PREREQ(2, 35)
#define EAGERPP_OMP_SIMD_MATH(name)                                                  \
  extern "C" float name##f(float) noexcept __attribute__((__simd__("notinbranch"))); \
  extern "C" double name(double) noexcept __attribute__((__simd__("notinbranch")));
EAGERPP_OMP_SIMD_MATH(exp)
EAGERPP_OMP_SIMD_MATH(exp2)
EAGERPP_OMP_SIMD_MATH(expm1)
EAGERPP_OMP_SIMD_MATH(cbrt)
EAGERPP_OMP_SIMD_MATH(log)
EAGERPP_OMP_SIMD_MATH(log2)
EAGERPP_OMP_SIMD_MATH(log10)
EAGERPP_OMP_SIMD_MATH(log1p)
EAGERPP_OMP_SIMD_MATH(sin)
EAGERPP_OMP_SIMD_MATH(cos)
EAGERPP_OMP_SIMD_MATH(tan)
EAGERPP_OMP_SIMD_MATH(asin)
EAGERPP_OMP_SIMD_MATH(acos)
EAGERPP_OMP_SIMD_MATH(atan)
EAGERPP_OMP_SIMD_MATH(sinh)
EAGERPP_OMP_SIMD_MATH(cosh)
EAGERPP_OMP_SIMD_MATH(tanh)
EAGERPP_OMP_SIMD_MATH(asinh)
EAGERPP_OMP_SIMD_MATH(acosh)
EAGERPP_OMP_SIMD_MATH(atanh)
#undef EAGERPP_OMP_SIMD_MATH
#endif
#endif

// `omp simd` loops for g++, which vectorizes an OpenMP loop only when asked. clang vectorizes these
// loops on its own where it can, and for every `omp simd` loop it cannot vectorize (an op whose
// body calls a math function) it warns, -Wpass-failed, with no source location that a diagnostic
// pragma could silence (591 in the fuzzer's ep::omp interpreter at -O3, with such a pragma).
#if defined(__clang__)
#define EAGERPP_OMP_SIMD
#define EAGERPP_OMP_PARALLEL_FOR_SIMD _Pragma("omp parallel for schedule(static)")
#else
#define EAGERPP_OMP_SIMD _Pragma("omp simd")
#define EAGERPP_OMP_PARALLEL_FOR_SIMD _Pragma("omp parallel for simd schedule(static)")
#endif

namespace ep {

template <class T>
struct omp;

namespace detail {

/// Host memory from eagerpp's caching allocator (ep::buffer: 64-byte aligned, as the other CPU
/// backends use); ep::omp's.
struct omp_memory {
  template <class T>
  using backend = omp<T>;
  template <class T>
  using storage = buffer<T>;
  template <class T>
  static buffer<T> allocate(std::size_t n, std::string_view /*op*/) {
    return buffer<T>::allocate(n);
  }
};

}  // namespace detail

/// The raw tensor of `ep::omp<T>`: shared, immutable C-order host elements and their shape.
template <class T>
using omp_array = thrust_array<T, detail::omp_memory>;

namespace detail {

/// The OpenMP system of the Thrust backend (its contract: eagerpp/thrust/system.hpp).
struct omp_system {
  template <class T>
  using array = omp_array<T>;

  /// Below this many elements a loop runs on the calling thread: forking the team costs a few
  /// microseconds, more than a cheap op on a few thousand elements (benchmarks/omp_bench.cpp
  /// measures the crossover). A variable, so that the benchmark can move it; set it before any
  /// thread uses ep::omp, if at all.
  static inline std::int64_t parallel_cutoff = std::int64_t{1} << 15;

  static auto policy() { return thrust::omp::par; }

  template <class F>
  static void for_n(std::int64_t n, const F& f) {
    // `omp simd`: for_n's calls are independent (any order), so each thread's part vectorizes.
    if (n < parallel_cutoff || omp_get_max_threads() == 1) {
      EAGERPP_OMP_SIMD
      for (std::int64_t i = 0; i < n; ++i) f(i);
      return;
    }
    EAGERPP_OMP_PARALLEL_FOR_SIMD
    for (std::int64_t i = 0; i < n; ++i) f(i);
  }

  /// Outputs of at least this many bytes are written with non-temporal (streaming) stores, which
  /// go to memory without first reading each line into the cache: an output this large would not
  /// stay in the cache for the next op anyway, and a plain store's read of the line it fills is a
  /// third of a binary op's memory traffic (benchmarks/omp_bench.cpp measures both sides). A
  /// variable, as parallel_cutoff.
  static inline std::int64_t streaming_cutoff = std::int64_t{16} << 20;

  /// out[i] = g(i) for every i < n. A large output is computed 256 bytes (four cache lines) at a
  /// time into a buffer in L1 and streamed from there to memory (x86's streaming stores), so the
  /// loop over g still vectorizes as in for_n. (Larger tiles lose most of the gain: the streaming
  /// stores of a line must follow each other closely to fill the write-combining buffers.)
  template <class T, class G>
  static void write_n(std::int64_t n, T* out, const G& g) {
#if defined(__SSE2__)
    constexpr std::int64_t tile_bytes = 256;
    constexpr std::int64_t tile =
        sizeof(T) <= tile_bytes ? tile_bytes / std::int64_t{sizeof(T)} : 0;
    if (tile > 0 && n * std::int64_t{sizeof(T)} >= streaming_cutoff &&
        reinterpret_cast<std::uintptr_t>(out) % 32 == 0) {
      const std::int64_t full = n / tile;  // whole tiles; the rest is written as for_n does
#pragma omp parallel
      {
#pragma omp for schedule(static)
        for (std::int64_t t = 0; t < full; ++t) {
          alignas(32) T buffer[tile];
          EAGERPP_OMP_SIMD
          for (std::int64_t j = 0; j < tile; ++j) buffer[j] = g(t * tile + j);
          stream(reinterpret_cast<char*>(out + t * tile), reinterpret_cast<const char*>(buffer),
                 tile_bytes);
        }
        _mm_sfence();  // streaming stores are weakly ordered: each thread fences its own
      }
      for (std::int64_t i = full * tile; i < n; ++i) out[i] = g(i);
      return;
    }
#endif
    for_n(n, write_to(out, g));
  }

  /// out[r * columns + j] = g(r, j) for every row r < rows and j < columns: each row a vector
  /// loop, the rows split among the threads as for_n splits elements (an operand that repeats
  /// along the rows is then read without an index division per element).
  template <class T, class G>
  static void write_rows(std::int64_t rows, std::int64_t columns, T* out, const G& g) {
    const auto row = [&](std::int64_t r) {
      T* to = out + r * columns;
      EAGERPP_OMP_SIMD
      for (std::int64_t j = 0; j < columns; ++j) to[j] = g(r, j);
    };
    if (rows * columns < parallel_cutoff || omp_get_max_threads() == 1) {
      for (std::int64_t r = 0; r < rows; ++r) row(r);
      return;
    }
#pragma omp parallel for schedule(static)
    for (std::int64_t r = 0; r < rows; ++r) row(r);
  }

  /// x seen as (outer, rows, columns), its rows cut into `chunks`: out[(o * chunks + c) * columns +
  /// j] = init op x[(o * rows + r) * columns + j] op ... over the rows r of chunk c, in order (a
  /// reduction over a middle block of axes). Each chunk of rows is combined row after row into a
  /// tile of its results in L1, a vector loop (g++ does not vectorize a loop over columns whose
  /// body loops over rows); the (outer, chunk, tile) units split among the threads. The same order
  /// of operations as thrust_fn::column_reduce_fn.
  template <class Out, class InIt, class Op, class Init>
  static void reduce_columns(InIt x, Out* out, std::int64_t outer, std::int64_t rows,
                             std::int64_t columns, std::int64_t chunks, Op op, Init init) {
    constexpr std::int64_t tile = 1024;
    const std::int64_t tiles = (columns + tile - 1) / tile;
    const std::int64_t units = outer * chunks * tiles;
    const auto reduce_unit = [&](std::int64_t u) {
      const std::int64_t oc = u / tiles;
      const std::int64_t t = u - oc * tiles;
      const std::int64_t o = oc / chunks;
      const std::int64_t c = oc - o * chunks;
      Out* to = out + oc * columns + t * tile;
      const std::int64_t n = std::min(tile, columns - t * tile);
      for (std::int64_t j = 0; j < n; ++j) to[j] = init;
      const std::int64_t end = rows * (c + 1) / chunks;
      for (std::int64_t r = rows * c / chunks; r < end; ++r) {
        const InIt from = x + ((o * rows + r) * columns + t * tile);
        EAGERPP_OMP_SIMD
        for (std::int64_t j = 0; j < n; ++j) to[j] = op(to[j], from[j]);
      }
    };
    if (outer * rows * columns < parallel_cutoff || units == 1 || omp_get_max_threads() == 1) {
      for (std::int64_t u = 0; u < units; ++u) reduce_unit(u);
      return;
    }
#pragma omp parallel for schedule(static)
    for (std::int64_t u = 0; u < units; ++u) reduce_unit(u);
  }

#if defined(__SSE2__)
  /// Copies `bytes` (a multiple of 32) from `from` to `to`, both 32-byte aligned, past the cache.
  static void stream(char* to, const char* from, std::int64_t bytes) {
#if defined(__AVX__)
    for (std::int64_t b = 0; b < bytes; b += 32)
      _mm256_stream_si256(reinterpret_cast<__m256i*>(to + b),
                          _mm256_load_si256(reinterpret_cast<const __m256i*>(from + b)));
#else
    for (std::int64_t b = 0; b < bytes; b += 16)
      _mm_stream_si128(reinterpret_cast<__m128i*>(to + b),
                       _mm_load_si128(reinterpret_cast<const __m128i*>(from + b)));
#endif
  }
#endif

  /// out[i] = sqrt(in[i]) for every i < n, a packet of ep::fuse's policy at a time (omp/fuse_ops.hpp:
  /// the CPU's vector sqrt instruction), threaded as for_n. g++ vectorizes no `omp simd` loop that
  /// calls sqrt unless -fno-math-errno (each negative input must set errno through the C library's
  /// call), and glibc's vector library has no sqrt to declare `simd` as the other math functions
  /// above. The instruction is correctly rounded, so packets and the scalar tail give the C
  /// library's values.
  template <class T>
  static void sqrt_n(std::int64_t n, const T* in, T* out) {
    const auto range = [in, out](std::int64_t i, std::int64_t end) {
      using ops = detail::vector_fuse_ops<T>;
      for (; i + ops::width <= end; i += ops::width)
        ops::store(out + i, ops::template unary<fused_unary::sqrt>(ops::load(in + i)));
      for (; i < end; ++i) out[i] = std::sqrt(in[i]);
    };
    if (n < parallel_cutoff || omp_get_max_threads() == 1) {
      range(0, n);
      return;
    }
#pragma omp parallel
    {
      const std::int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
      // Each thread's part starts at a multiple of 64 elements (a whole number of packets).
      const std::int64_t grain = 64, parts = (n + grain - 1) / grain;
      range(std::min(n, parts * t / threads * grain),
            std::min(n, parts * (t + 1) / threads * grain));
    }
  }

  /// Host memory on both sides of every kind of copy: a memcpy.
  template <class T>
  static void copy(T* out, const T* in, std::int64_t n, copy_kind /*kind*/,
                   std::string_view /*op*/) {
    if (n > 0) std::memcpy(out, in, static_cast<std::size_t>(n) * sizeof(T));
  }

  /// Host code throws only std::bad_alloc, which is already the right error.
  template <class F>
  static decltype(auto) guard(std::string_view /*op*/, F&& f) {
    return f();
  }

  template <class InIt>
  static constexpr std::int64_t prefetch_distance = 4096 / sizeof(*InIt{});

  /// out[s] = init op in[s * length] op ... op in[s * length + length - 1] for each segment s;
  /// many segments are split among the threads, a few long ones are cut into one part per thread
  /// whose results are combined.
  template <class Out, class InIt, class Op, class Init>
  static void segmented_reduce(InIt in, Out* out, std::int64_t segments, std::int64_t length, Op op,
                               Init init, std::string_view /*op*/) {
    // Eight independent accumulators: a chain of dependent adds would wait for each add's latency
    // (about 4 cycles); eight keep the core's adders busy (the reducers are associative and
    // commutative, as CUB requires on the GPU).
    const auto reduce_range = [&](std::int64_t begin, std::int64_t end) {
      constexpr int lanes = 8;
      Out acc[lanes];
      for (auto& a : acc) a = init;
      std::int64_t i = begin;
      for (; i + lanes <= end; i += lanes) {
        // A read 4 KiB ahead, requested now: the memory fetches of a long reduction overlap more
        // than the hardware prefetcher alone overlaps them (benchmarks/omp_bench.cpp, sum).
        if constexpr (std::is_pointer_v<InIt>)
          if (i + prefetch_distance<InIt> < end)
            __builtin_prefetch(in + i + prefetch_distance<InIt>);
        for (int l = 0; l < lanes; ++l) acc[l] = op(acc[l], in[i + l]);
      }
      for (; i < end; ++i) acc[0] = op(acc[0], in[i]);
      Out r = acc[0];
      for (int l = 1; l < lanes; ++l) r = op(r, acc[l]);
      return r;
    };
    const int threads = omp_get_max_threads();
    if (segments * length < parallel_cutoff || threads == 1) {
      for (std::int64_t s = 0; s < segments; ++s)
        out[s] = reduce_range(s * length, (s + 1) * length);
      return;
    }
    if (segments >= threads) {
#pragma omp parallel for schedule(static)
      for (std::int64_t s = 0; s < segments; ++s)
        out[s] = reduce_range(s * length, (s + 1) * length);
      return;
    }
    std::unique_ptr<Out[]> partial(new Out[static_cast<std::size_t>(threads)]);
    for (std::int64_t s = 0; s < segments; ++s) {
      int used = 1;
#pragma omp parallel num_threads(threads)
      {
        const int t = omp_get_thread_num();
        const int nt = omp_get_num_threads();
        const std::int64_t begin = s * length + length * t / nt;
        const std::int64_t end = s * length + length * (t + 1) / nt;
        partial[t] = reduce_range(begin, end);
        if (t == 0) used = nt;
      }
      Out acc = partial[0];
      for (int t = 1; t < used; ++t) acc = op(acc, partial[t]);
      out[s] = acc;
    }
  }

  /// C[b] = op(A[b]) op(B[b]) for each block, through OpenBLAS (which threads the product itself).
  template <class T>
  static void gemm(const T* a, const T* b, T* c, const gemm_layout& g, std::string_view /*op*/) {
    const auto flag = [](bool transpose) { return transpose ? CblasTrans : CblasNoTrans; };
    const auto call = [&](auto blas, T one, T zero) {
      for (std::int64_t i = 0; i < g.batch; ++i)
        blas(CblasColMajor, flag(g.transpose_first), flag(g.transpose_second), g.rows, g.cols,
             g.inner, one, b + i * g.stride_first, g.ld_first, a + i * g.stride_second, g.ld_second,
             zero, c + i * g.stride_out, g.ld_out);
    };
    if constexpr (std::is_same_v<T, float>)
      call(cblas_sgemm, 1.0F, 0.0F);
    else
      call(cblas_dgemm, 1.0, 0.0);
  }
};

}  // namespace detail
}  // namespace ep
