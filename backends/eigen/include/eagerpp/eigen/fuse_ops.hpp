// eagerpp - ep::fuse's packet policy on ep::eigen: Eigen's packet math, the functions Eigen's own
// vectorized expressions call (pexp, psin, ...), so a fused function's packets give the eager
// ops' values
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>  // std::int64_t

#include <Eigen/Core>

#include "eagerpp/detail/fused_value.hpp"

namespace ep::detail {

template <class T>
struct eigen_fuse_ops {
  using value_type = T;
  using packet = typename Eigen::internal::packet_traits<T>::type;
  using mask = packet;  // all bits set in the true lanes, as Eigen's pcmp_* give
  static constexpr std::int64_t width = Eigen::internal::unpacket_traits<packet>::size;

  static packet load(const T* p) { return Eigen::internal::ploadu<packet>(p); }
  static void store(T* p, const packet& v) { Eigen::internal::pstoreu(p, v); }
  static packet set1(T v) { return Eigen::internal::pset1<packet>(v); }
  static packet add(const packet& a, const packet& b) { return Eigen::internal::padd(a, b); }
  static packet sub(const packet& a, const packet& b) { return Eigen::internal::psub(a, b); }
  static packet mul(const packet& a, const packet& b) { return Eigen::internal::pmul(a, b); }
  static packet div(const packet& a, const packet& b) { return Eigen::internal::pdiv(a, b); }
  static packet neg(const packet& a) { return Eigen::internal::pnegate(a); }
  static mask lt(const packet& a, const packet& b) { return Eigen::internal::pcmp_lt(a, b); }
  static mask le(const packet& a, const packet& b) { return Eigen::internal::pcmp_le(a, b); }
  static mask eq(const packet& a, const packet& b) { return Eigen::internal::pcmp_eq(a, b); }
  static mask ne(const packet& a, const packet& b) { return mask_not(eq(a, b)); }
  static mask mask_and(const mask& a, const mask& b) { return Eigen::internal::pand(a, b); }
  static mask mask_or(const mask& a, const mask& b) { return Eigen::internal::por(a, b); }
  static mask mask_not(const mask& a) {
    return Eigen::internal::pandnot(Eigen::internal::ptrue(a), a);
  }
  static packet select(const mask& m, const packet& a, const packet& b) {
    return Eigen::internal::pselect(m, a, b);
  }
  /// Bitwise and/or of two packets (detail::fuse::minmax orders equal zeros with them).
  static packet bit_and(const packet& a, const packet& b) { return Eigen::internal::pand(a, b); }
  static packet bit_or(const packet& a, const packet& b) { return Eigen::internal::por(a, b); }

  /// Whether Eigen vectorizes U for T on this instruction set (packet_traits); the others run
  /// lane by lane through the C library, as Eigen's own expressions then do.
  template <fused_unary U>
  static constexpr bool vectorized() {
    using traits = Eigen::internal::packet_traits<T>;
    using enum fused_unary;
    switch (U) {
      case exp:
        return traits::HasExp;
      case log:
        return traits::HasLog;
      case sin:
        return traits::HasSin;
      case cos:
        return traits::HasCos;
      case tanh:
        return traits::HasTanh;
      case sqrt:
        return traits::HasSqrt;
      case abs:
        return traits::HasAbs;
      case square:
        return true;
      case expm1:
        return traits::HasExpm1;
      case log1p:
        return traits::HasLog1p;
      case floor:
        return traits::HasFloor;
      case ceil:
        return traits::HasCeil;
      case round:
        return traits::HasRint;
      default:
        return false;
    }
  }

  template <fused_unary U>
  requires(vectorized<U>()) static packet unary(const packet& p) {
    namespace in = Eigen::internal;
    using enum fused_unary;
    if constexpr (U == exp)
      return in::pexp(p);
    else if constexpr (U == log)
      return in::plog(p);
    else if constexpr (U == sin)
      return in::psin(p);
    else if constexpr (U == cos)
      return in::pcos(p);
    else if constexpr (U == tanh)
      return in::ptanh(p);
    else if constexpr (U == sqrt)
      return in::psqrt(p);
    else if constexpr (U == abs)
      return in::pabs(p);
    else if constexpr (U == square)
      return in::pmul(p, p);
    else if constexpr (U == expm1)
      return in::pexpm1(p);
    else if constexpr (U == log1p)
      return in::plog1p(p);
    else if constexpr (U == floor)
      return in::pfloor(p);
    else if constexpr (U == ceil)
      return in::pceil(p);
    else
      return in::print(p);
  }
};

}  // namespace ep::detail
