// eagerpp - Eigen functors for NumPy's rules (detail/numpy_math.hpp) that need packets of their own
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::sqrt
#include <cstddef>      // std::size_t
#include <limits>       // std::numeric_limits
#include <type_traits>  // std::is_same_v

#include <Eigen/Core>

#include "eagerpp/detail/numpy_math.hpp"

namespace ep::detail {

/// ceil, floor and rint with the sign of zero kept, as NumPy's (ceil(-0.5) and floor(-0.0) are
/// -0.0): without SSE4.1, Eigen 3.4's packets round through 2^52 and give +0.0 there
/// (Eigen/src/Core/arch/SSE/PacketMath.h). The result takes the operand's sign bit, which is
/// always the sign of the rounded value. Found by tests/fuzz (x / x.ceil(): -inf for +inf).
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

/// IEEE's correctly rounded sqrt, as NumPy's, in Eigen's packets: with EIGEN_FAST_MATH (Eigen
/// 3.4's default) Eigen's own packet sqrt for float (SSE, AVX, AVX-512) and for double (AVX-512)
/// takes the hardware's reciprocal square root estimate and Newton steps: 1-4 ulp off, NaN for
/// +inf and 0 for denormals (Eigen/src/Core/arch/*/MathFunctions.h; found by tests/fuzz for float
/// and by tests/eigen/native_isa_test.cpp for double on AVX-512). The instructions below are IEEE's
/// square root; other packets take std::sqrt lane by lane.
template <class T>
struct eigen_sqrt_op {
  T operator()(T a) const noexcept { return std::sqrt(a); }
  template <class Packet>
  Packet packetOp(const Packet& a) const {
    namespace in = Eigen::internal;
    constexpr int n = in::unpacket_traits<Packet>::size;
    constexpr bool f = std::is_same_v<T, float>, d = std::is_same_v<T, double>;
    constexpr std::size_t bytes = n * sizeof(T);  // the packet's register, by its width
#if defined(EIGEN_VECTORIZE_AVX512)
    if constexpr (f && bytes == 64) return _mm512_sqrt_ps(a);
    if constexpr (d && bytes == 64) return _mm512_sqrt_pd(a);
#endif
#if defined(EIGEN_VECTORIZE_AVX)
    if constexpr (f && bytes == 32) return _mm256_sqrt_ps(a);
    if constexpr (d && bytes == 32) return _mm256_sqrt_pd(a);
#endif
#if defined(EIGEN_VECTORIZE_SSE2)
    if constexpr (f && bytes == 16) return _mm_sqrt_ps(a);
    if constexpr (d && bytes == 16) return _mm_sqrt_pd(a);
#endif
    alignas(64) T lane[n];
    in::pstoreu(lane, a);
    for (T& v : lane) v = std::sqrt(v);
    return in::ploadu<Packet>(lane);
  }
};

/// exp that underflows as IEEE's: Eigen 3.4's packet exp clamps its operand at -709.784 (double),
/// -88.723 (float) and gives exp of the clamp, 5.6e-309 (2.9e-39), for anything below, -inf
/// included (Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h), where NumPy gives the
/// denormal or 0; its AVX-512 float exp (Eigen/src/Core/arch/AVX512/MathFunctions.h) builds 2^m
/// from the exponent bits and gives 0 wherever the result is denormal (found by
/// tests/eigen/native_isa_test.cpp: exp(-88.5) gives 0, not 3.67e-39). Where exp(x) is below the
/// smallest normal (x < ln(FLT_MIN) = -87.34, ln(DBL_MIN) = -708.40), exp(x) = exp(x / 2)^2: x / 2
/// is exact and exp(x / 2) normal, or, where exp(x) is 0, denormal or 0 itself. Found by
/// tests/fuzz.
template <class T>
struct eigen_exp_op : Eigen::internal::scalar_exp_op<T> {
  template <class Packet>
  Packet packetOp(const Packet& a) const {
    namespace in = Eigen::internal;
    const Packet r = in::pexp(a);
    const Packet low =
        in::pcmp_lt(a, in::pset1<Packet>(std::is_same_v<T, float> ? T(-87.33654) : T(-708.39641)));
    if (!in::predux_any(low)) return r;
    const Packet half = in::pexp(in::pmul(a, in::pset1<Packet>(T(0.5))));
    return in::pselect(low, in::pmul(half, half), r);
  }
};

/// Negation that flips the sign bit, as IEEE's (and NumPy's): -(+0.0) is -0.0. Eigen 3.4's
/// AVX-512 packets negate float and double as 0 - x (Eigen/src/Core/arch/AVX512/PacketMath.h),
/// +0.0 for +0.0, so 3 / -x would be +inf at x = 0 (found by tests/fuzz in a -march=native build).
template <class T>
struct eigen_negative_op {
  T operator()(T a) const noexcept { return -a; }
  template <class Packet>
  Packet packetOp(const Packet& a) const {
    return Eigen::internal::pxor(a, Eigen::internal::pset1<Packet>(T(-0.0)));
  }
};

/// pow with the sign of C's (NumPy's) for a base of -0.0 or -inf and an odd integer exponent:
/// pow(-0.0, -1) is -inf and pow(-inf, 3) is -inf. Eigen 3.4's packet pow (generic_pow, in its
/// packets from SSE4.1 on: it needs their rounding) gives the positive result there (+inf, +0.0
/// for pow(-0.0, 3) and pow(-inf, -1); found by tests/fuzz in a -march=native build; without
/// SSE4.1 Eigen takes std::pow per element). The magnitude is Eigen's; where the base is a zero or
/// an infinity and the exponent an odd integer, the sign is the base's.
template <class T>
struct eigen_pow_op : Eigen::internal::scalar_pow_op<T, T> {
  template <class Packet>
  Packet packetOp(const Packet& a, const Packet& b) const {
    namespace in = Eigen::internal;
    const Packet r = in::generic_pow(a, b);
    const Packet magnitude = in::pabs(a);
    const Packet edge =
        in::por(in::pcmp_eq(magnitude, in::pzero(a)),
                in::pcmp_eq(magnitude, in::pset1<Packet>(std::numeric_limits<T>::infinity())));
    const Packet half = in::pmul(b, in::pset1<Packet>(T(0.5)));
    const Packet odd = in::pandnot(in::pcmp_eq(in::pfloor(b), b),
                                   in::pcmp_eq(in::pfloor(half), half));  // integer, not even
    const Packet sign = in::pset1<Packet>(T(-0.0));
    const Packet signed_r = in::por(in::pand(a, sign), in::pandnot(r, sign));
    return in::pselect(in::pand(edge, odd), signed_r, r);
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
/// second in their packets, so 1.5 // minimum(-0.0, 0.0) could be +inf on Eigen, -inf elsewhere).
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
template <class T>
struct functor_traits<ep::detail::eigen_negative_op<T>> : functor_traits<scalar_opposite_op<T>> {};
template <class T>
struct functor_traits<ep::detail::eigen_pow_op<T>> : functor_traits<scalar_pow_op<T, T>> {};
template <class T>
struct functor_traits<ep::detail::eigen_sqrt_op<T>> {
  enum {
    Cost = functor_traits<scalar_sqrt_op<T>>::Cost,
    PacketAccess = packet_traits<T>::Vectorizable
  };
};
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
