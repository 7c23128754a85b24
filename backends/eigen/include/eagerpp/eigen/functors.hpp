// eagerpp - Eigen functors for NumPy's rules (detail/numpy_math.hpp) that need packets of their own
// SPDX-License-Identifier: MIT
#pragma once

#include <type_traits>  // std::is_same_v

#include <Eigen/Core>

#include "eagerpp/detail/numpy_math.hpp"

namespace ep::detail {

/// ceil, floor and rint with the sign of zero kept, as NumPy's (ceil(-0.5) and floor(-0.0) are
/// -0.0): without SSE4.1, Eigen 3.4's packets round through 2^52 and give +0.0 there
/// (Eigen/src/Core/arch/SSE/PacketMath.h). The result takes the operand's sign bit, which is
/// always the sign of the rounded value. Found by tests/fuzz (x / x.ceil() gave -inf for +inf).
template <class Round>
struct eigen_signed_round_op : Round {
  template <class Packet>
  Packet packetOp(const Packet& a) const {
    using Scalar = typename Eigen::internal::unpacket_traits<Packet>::type;
    const Packet sign = Eigen::internal::pset1<Packet>(Scalar(-0.0));
    return Eigen::internal::por(Eigen::internal::pand(a, sign),
                                Eigen::internal::pandnot(Round::packetOp(a), sign));
  }
};

/// exp that underflows as IEEE's: Eigen 3.4's packet exp clamps its operand at -709.784 (double),
/// -88.723 (float) and gives exp of the clamp, 5.6e-309 (2.9e-39), for anything below, -inf
/// included (Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h), where NumPy gives the
/// denormal or 0. Below the clamp, exp(x) = exp(x / 2)^2 (x / 2 is exact; exp(x / 2) is normal or,
/// below twice the clamp, where exp(x) is 0, clamped itself). Found by tests/fuzz.
template <class T>
struct eigen_exp_op : Eigen::internal::scalar_exp_op<T> {
  template <class Packet>
  Packet packetOp(const Packet& a) const {
    namespace in = Eigen::internal;
    const Packet r = in::pexp(a);
    const Packet low =
        in::pcmp_lt(a, in::pset1<Packet>(std::is_same_v<T, float> ? T(-88.723) : T(-709.784)));
    if (!in::predux_any(low)) return r;
    const Packet half = in::pexp(in::pmul(a, in::pset1<Packet>(T(0.5))));
    return in::pselect(low, in::pmul(half, half), r);
  }
};

/// IEEE 754-2019's maximum (Max) or minimum of two packets that are not NaN where it matters: a
/// NaN `a` is kept (every comparison with it is false). Of two equal operands the bitwise and (or)
/// is the larger (smaller) zero, +0.0 (-0.0), and any other equal value itself, so the result does
/// not depend on the operands' order, as cwiseMax's (the second operand in packets) does.
template <bool Max, class Packet>
Packet eigen_ieee_extremum(const Packet& a, const Packet& b) {
  namespace in = Eigen::internal;
  const Packet m = in::pselect(Max ? in::pcmp_lt(a, b) : in::pcmp_lt(b, a), b, a);
  return in::pselect(in::pcmp_eq(a, b), Max ? in::pand(a, b) : in::por(a, b), m);
}

/// NumPy's minimum (Max = false) and maximum with IEEE 754-2019's order of zeros, as every
/// backend computes them: a NaN operand gives that NaN, and -0.0 < +0.0 (found by tests/fuzz:
/// Eigen's cwiseMin/cwiseMax give the first of two equal operands in their scalar path and the
/// second in their packets, so 1.5 // minimum(-0.0, 0.0) gave +inf on Eigen, -inf elsewhere).
template <class T, bool Max>
struct eigen_minmax_op {
  T operator()(T a, T b) const noexcept { return numpy::minmax<Max>(a, b); }
  template <class Packet>
  Packet packetOp(const Packet& a, const Packet& b) const {
    namespace in = Eigen::internal;
    const Packet m = eigen_ieee_extremum<Max>(a, b);
    return in::pselect(in::pcmp_eq(a, a), in::pselect(in::pcmp_eq(b, b), m, b), a);
  }
};

/// NumPy's clip, minimum(maximum(x, lo), hi), with eigen_minmax_op's order of zeros: NaN stays
/// NaN, -0.0 clipped at lo = 0.0 gives 0.0.
template <class T>
struct eigen_clip_op {
  T lo, hi;
  T operator()(T x) const noexcept { return numpy::clip(x, lo, hi); }
  template <class Packet>
  Packet packetOp(const Packet& x) const {
    namespace in = Eigen::internal;
    return eigen_ieee_extremum<false>(eigen_ieee_extremum<true>(x, in::pset1<Packet>(lo)),
                                      in::pset1<Packet>(hi));
  }
};

}  // namespace ep::detail

namespace Eigen::internal {
template <class Round>
struct functor_traits<ep::detail::eigen_signed_round_op<Round>> : functor_traits<Round> {};
template <class T>
struct functor_traits<ep::detail::eigen_exp_op<T>> : functor_traits<scalar_exp_op<T>> {};
template <class T, bool Max>
struct functor_traits<ep::detail::eigen_minmax_op<T, Max>> {
  enum {
    Cost = 6 * NumTraits<T>::AddCost,
    PacketAccess = packet_traits<T>::HasMin && packet_traits<T>::HasCmp
  };
};
template <class T>
struct functor_traits<ep::detail::eigen_clip_op<T>> {
  enum {
    Cost = 4 * NumTraits<T>::AddCost,
    PacketAccess = packet_traits<T>::HasMin && packet_traits<T>::HasCmp
  };
};
}  // namespace Eigen::internal
