// eagerpp - ep::fuse's packet policy on ep::xtensor: xsimd batches and xsimd's functions, the ones
// xtensor's own vectorized expressions call, so a fused function's packets give the eager ops'
// values
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>  // std::int64_t

#include <xsimd/xsimd.hpp>

#include "eagerpp/detail/fused_value.hpp"

namespace ep::detail {

template <class T>
struct xsimd_fuse_ops : fuse::operator_ops {
  using value_type = T;
  using packet = xsimd::batch<T>;
  using mask = xsimd::batch_bool<T>;
  static constexpr std::int64_t width = static_cast<std::int64_t>(packet::size);

  static packet load(const T* p) { return packet::load_unaligned(p); }
  static void store(T* p, const packet& v) { v.store_unaligned(p); }
  static packet set1(T v) { return packet(v); }
  // Not `a != b`: xsimd 8's AVX operator!= is an ordered comparison, false for NaN.
  static mask ne(const packet& a, const packet& b) { return !(a == b); }
  static mask mask_and(const mask& a, const mask& b) { return a && b; }
  static mask mask_or(const mask& a, const mask& b) { return a || b; }
  static mask mask_not(const mask& a) { return !a; }
  static packet select(const mask& m, const packet& a, const packet& b) {
    return xsimd::select(m, a, b);
  }
  /// Bitwise and/or of two packets (detail::fuse::minmax orders equal zeros with them).
  static packet bit_and(const packet& a, const packet& b) { return a & b; }
  static packet bit_or(const packet& a, const packet& b) { return a | b; }

  /// The ops whose eager xtensor versions are xsimd's (xtensor.hpp); the others (sign, round, and
  /// rows of the unary table xtensor computes element by element) run lane by lane with the scalar
  /// function, as eagerly.
  template <fused_unary U>
  static constexpr bool vectorized() {
    using enum fused_unary;
    return U == abs || U == sqrt || U == square || U == exp || U == expm1 || U == log ||
           U == log2 || U == log10 || U == log1p || U == sin || U == cos || U == tan ||
           U == arcsin || U == arccos || U == arctan || U == sinh || U == cosh || U == tanh ||
           U == arcsinh || U == arccosh || U == arctanh || U == ceil || U == floor;
  }

  template <fused_unary U>
  requires(vectorized<U>()) static packet unary(const packet& p) {
    using enum fused_unary;
    if constexpr (U == abs)
      return xsimd::abs(p);
    else if constexpr (U == sqrt)
      return xsimd::sqrt(p);
    else if constexpr (U == square)
      return p * p;
    else if constexpr (U == exp)
      return xsimd::exp(p);
    else if constexpr (U == expm1)
      return xsimd::expm1(p);
    else if constexpr (U == log)
      return xsimd::log(p);
    else if constexpr (U == log2)
      return xsimd::log2(p);
    else if constexpr (U == log10)
      return xsimd::log10(p);
    else if constexpr (U == log1p)
      return xsimd::log1p(p);
    else if constexpr (U == sin)
      return xsimd::sin(p);
    else if constexpr (U == cos)
      return xsimd::cos(p);
    else if constexpr (U == tan)
      return xsimd::tan(p);
    else if constexpr (U == arcsin)
      return xsimd::asin(p);
    else if constexpr (U == arccos)
      return xsimd::acos(p);
    else if constexpr (U == arctan)
      return xsimd::atan(p);
    else if constexpr (U == sinh)
      return xsimd::sinh(p);
    else if constexpr (U == cosh)
      return xsimd::cosh(p);
    else if constexpr (U == tanh)
      return xsimd::tanh(p);
    else if constexpr (U == arcsinh)
      return xsimd::asinh(p);
    else if constexpr (U == arccosh)
      return xsimd::acosh(p);
    else if constexpr (U == arctanh)
      return xsimd::atanh(p);
    else if constexpr (U == ceil)
      return xsimd::ceil(p);
    else
      return xsimd::floor(p);  // vectorized() names no other op
  }
};

}  // namespace ep::detail
