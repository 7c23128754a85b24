// eagerpp - ep::fuse's packet policy on ep::omp: GCC's and Clang's generic vectors (no SIMD
// library: ep::omp's one dependency is Thrust), sqrt by the CPU's vector instruction where there
// is one, every other function of ops/unary_list.hpp lane by lane with the C library's
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::sqrt
#include <cstdint>      // std::int32_t, std::int64_t
#include <cstring>      // std::memcpy
#include <limits>       // std::numeric_limits
#include <type_traits>  // std::conditional_t

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "eagerpp/detail/fused_value.hpp"

namespace ep::detail {

/// The bytes of one packet: an AVX register where the compiler targets AVX, else 16 (SSE2, NEON).
#if defined(__AVX__)
inline constexpr int vector_fuse_bytes = 32;
#else
inline constexpr int vector_fuse_bytes = 16;
#endif

/// Packets of float or double as generic vectors. Element-wise arithmetic and comparisons are the
/// compiler's vector operators, so a fused function is vectorized whatever the compiler flags
/// (g++ vectorizes no `omp simd` loop that calls sqrt, which sets errno); sqrt is correctly
/// rounded either way, so packets and the scalar tail give the same values.
template <class T>
struct vector_fuse_ops : fuse::operator_ops {
  using value_type = T;
  using lane_int = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
  typedef T packet __attribute__((vector_size(vector_fuse_bytes)));
  typedef lane_int mask __attribute__((vector_size(vector_fuse_bytes)));
  static constexpr std::int64_t width = vector_fuse_bytes / static_cast<std::int64_t>(sizeof(T));

  static packet load(const T* p) {
    packet v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static void store(T* p, const packet& v) { std::memcpy(p, &v, sizeof v); }
  static packet set1(T v) { return packet{} + v; }
  static mask mask_and(const mask& a, const mask& b) { return a & b; }
  static mask mask_or(const mask& a, const mask& b) { return a | b; }
  static mask mask_not(const mask& a) { return ~a; }
  static packet select(const mask& m, const packet& a, const packet& b) {
    return (packet)((m & (mask)a) | (~m & (mask)b));
  }
  /// Bitwise and/or of two packets (detail::fuse::minmax orders equal zeros with them).
  static packet bit_and(const packet& a, const packet& b) { return (packet)((mask)a & (mask)b); }
  static packet bit_or(const packet& a, const packet& b) { return (packet)((mask)a | (mask)b); }

  template <fused_unary U>
  requires(U == fused_unary::sqrt || U == fused_unary::square ||
           U == fused_unary::abs) static packet unary(const packet& p) {
    if constexpr (U == fused_unary::square) {
      return p * p;
    } else if constexpr (U == fused_unary::abs) {
      return bit_and(p, (packet)(mask{} + std::numeric_limits<lane_int>::max()));  // sign bit off
    } else {
#if defined(__AVX__)
      if constexpr (sizeof(T) == 4)
        return (packet)_mm256_sqrt_ps((__m256)p);
      else
        return (packet)_mm256_sqrt_pd((__m256d)p);
#elif defined(__SSE2__)
      if constexpr (sizeof(T) == 4)
        return (packet)_mm_sqrt_ps((__m128)p);
      else
        return (packet)_mm_sqrt_pd((__m128d)p);
#else
      alignas(vector_fuse_bytes) T lanes[width];
      store(lanes, p);
      for (T& v : lanes) v = std::sqrt(v);
      return load(lanes);
#endif
    }
  }
};

}  // namespace ep::detail
