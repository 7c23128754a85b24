// eagerpp - the values a function staged by ep::fuse sees in place of tensors (include/eagerpp/
// fuse.hpp): ep::fused<Ops>, a packet of elements with the tensor's element-wise methods and
// operators, over a packet policy Ops; the scalar policy; the loop over a range of elements
// SPDX-License-Identifier: MIT
#pragma once

#include <array>        // std::array
#include <cmath>        // std::exp, std::sqrt, ...
#include <concepts>     // std::same_as
#include <cstdint>      // std::int64_t
#include <numbers>      // std::numbers::ln2_v, ln10_v (the gradient rows)
#include <type_traits>  // std::decay_t, std::is_arithmetic_v
#include <utility>      // std::index_sequence

#include "eagerpp/detail/numpy_math.hpp"
#include "eagerpp/ops/unary_list.hpp"

namespace ep {

// How it works. `ep::fuse(f)(x, y)` calls the generic function f once per packet of elements with
// proxies, `ep::fused<Ops>`, in place of tensors: their operators and element-wise methods are
// the operations of a packet policy Ops (Eigen's packet math on ep::eigen, xsimd batches on
// ep::xtensor, generic vectors on ep::omp: backends/omp's omp/fuse_ops.hpp), so the compiler
// inlines the whole body of f into one loop that reads each input once and writes the result
// once. A backend offers this with the optional hook `fused_map` (backends/host's
// host/fuse_host.hpp); elsewhere (ep::cuda) the fused function runs f eagerly, with the same
// result.

/// The unary element-wise ops a fused function may call, one per row of ops/unary_list.hpp.
enum class fused_unary {
#define EAGERPP_FUSED_UNARY_ID(name, dtypes, grad, scalar) name,
  EAGERPP_UNARY_OPS(EAGERPP_FUSED_UNARY_ID)
#undef EAGERPP_FUSED_UNARY_ID
};

namespace detail::fuse {

/// The arithmetic and comparisons of a packet policy whose packets have C++'s operators (scalars,
/// generic vectors, xsimd batches): a policy inherits them and declares only what its packets
/// spell otherwise.
struct operator_ops {
  static constexpr auto add = [](const auto& a, const auto& b) { return a + b; };
  static constexpr auto sub = [](const auto& a, const auto& b) { return a - b; };
  static constexpr auto mul = [](const auto& a, const auto& b) { return a * b; };
  static constexpr auto div = [](const auto& a, const auto& b) { return a / b; };
  static constexpr auto neg = [](const auto& a) { return -a; };
  static constexpr auto lt = [](const auto& a, const auto& b) { return a < b; };
  static constexpr auto le = [](const auto& a, const auto& b) { return a <= b; };
  static constexpr auto eq = [](const auto& a, const auto& b) { return a == b; };
  static constexpr auto ne = [](const auto& a, const auto& b) { return a != b; };
};

/// One element of dtype T at a time: the policy of the elements after the last whole packet (in
/// an `omp simd` loop). Its functions are the C library's, as the scalar paths of the eager ops
/// use them.
template <class T>
struct scalar_ops : operator_ops {
  using value_type = T;
  using packet = T;
  using mask = bool;
  static constexpr std::int64_t width = 1;
  static T load(const T* p) { return *p; }
  static void store(T* p, T v) { *p = v; }
  static T set1(T v) { return v; }
  static bool mask_and(bool a, bool b) { return a && b; }
  static bool mask_or(bool a, bool b) { return a || b; }
  static bool mask_not(bool a) { return !a; }
  static T select(bool m, T a, T b) { return m ? a : b; }
  template <bool Max>
  static T minmax(T a, T b) {
    return numpy::minmax<Max>(a, b);
  }
  static T pow(T a, T b) { return std::pow(a, b); }
  /// The unary table's scalar function of the op (detail::numpy::name_fn).
  template <fused_unary U>
  static T unary(T x) {
#define EAGERPP_SCALAR_UNARY(name, dtypes, grad, scalar) \
  if constexpr (U == fused_unary::name)                  \
    return numpy::name##_fn{}(x);                        \
  else
    EAGERPP_UNARY_OPS(EAGERPP_SCALAR_UNARY)
#undef EAGERPP_SCALAR_UNARY
    return x;  // not reached: every fused_unary is a row of the table
  }
};

/// A packet policy's unary op, or the scalar one lane by lane where the policy has none.
template <class Ops, fused_unary U>
typename Ops::packet unary(const typename Ops::packet& p) {
  if constexpr (requires { Ops::template unary<U>(p); }) {
    return Ops::template unary<U>(p);
  } else {
    using T = typename Ops::value_type;
    alignas(64) T lanes[Ops::width];
    Ops::store(lanes, p);
    for (T& v : lanes) v = scalar_ops<T>::template unary<U>(v);
    return Ops::load(lanes);
  }
}

/// x^y of two packets: the policy's, or the C library's lane by lane.
template <class Ops>
typename Ops::packet pow(const typename Ops::packet& a, const typename Ops::packet& b) {
  if constexpr (requires { Ops::pow(a, b); }) {
    return Ops::pow(a, b);
  } else {
    using T = typename Ops::value_type;
    alignas(64) T x[Ops::width], y[Ops::width];
    Ops::store(x, a);
    Ops::store(y, b);
    for (std::int64_t i = 0; i < Ops::width; ++i) x[i] = std::pow(x[i], y[i]);
    return Ops::load(x);
  }
}

/// NumPy's maximum (Max) or minimum of two packets (numpy::minmax): a NaN operand gives that NaN
/// (a's first); of two equal values the one with the sign bit clear (maximum) or set (minimum),
/// which the bitwise and (or) of equal values is. The scalar policy has its own.
template <class Ops, bool Max>
typename Ops::packet minmax(const typename Ops::packet& a, const typename Ops::packet& b) {
  if constexpr (requires { Ops::template minmax<Max>(a, b); }) {
    return Ops::template minmax<Max>(a, b);
  } else {
    const auto ordered = Max ? Ops::select(Ops::lt(a, b), b, a) : Ops::select(Ops::lt(b, a), b, a);
    const auto tie = Max ? Ops::bit_and(a, b) : Ops::bit_or(a, b);
    const auto r = Ops::select(Ops::eq(a, b), tie, ordered);
    return Ops::select(Ops::mask_not(Ops::eq(a, a)), a,
                       Ops::select(Ops::mask_not(Ops::eq(b, b)), b, r));
  }
}

template <class...>
inline constexpr bool always_false = false;

/// A C++ number beside a fused value (converted to its dtype).
template <class S>
concept number = std::is_arithmetic_v<S>;

}  // namespace detail::fuse

/// What a fused function's comparisons give: a packet of truth values, for `ep::where`, `&`, `|`
/// and `!`.
template <class Ops>
struct fused_mask {
  typename Ops::mask m;
  friend fused_mask operator&(fused_mask a, fused_mask b) { return {Ops::mask_and(a.m, b.m)}; }
  friend fused_mask operator|(fused_mask a, fused_mask b) { return {Ops::mask_or(a.m, b.m)}; }
  friend fused_mask operator!(fused_mask a) { return {Ops::mask_not(a.m)}; }
  fused_mask logical_and(fused_mask b) const { return *this & b; }
  fused_mask logical_or(fused_mask b) const { return *this | b; }
  fused_mask logical_not() const { return !*this; }
};

/// What a fused function sees in place of a tensor of dtype `Ops::value_type`: a packet of its
/// elements, with the tensor's element-wise methods and operators (C++ scalars on either side are
/// converted to the dtype, as for a floating tensor). Ops that are not element-wise (sum, matmul,
/// reshape, ...) are not members: calling one inside ep::fuse does not compile. With D > 0 it is
/// also a forward-mode dual number: `d[k]` holds the derivative of the value with respect to the
/// k-th input of the fused function, carried through every op by the gradient rule of its row in
/// ops/unary_list.hpp (evaluated on fused values) or the rules of the binary ops below, so one pass
/// gives `g * df/dx_k` for every input (ep::fuse's backward pass).
template <class Ops, std::size_t D = 0>
struct fused {
  using value_type = typename Ops::value_type;
  using real_type = value_type;  // the unary table's rules name it; ep::fuse is real
  using packet = typename Ops::packet;
  packet v;
  packet d[D > 0 ? D : 1]{};  // a plain array: std::array<__m128> drops the type's attributes

  static fused splat(value_type s) {
    fused r{Ops::set1(s)};
    for (auto& t : r.d) t = Ops::set1(value_type(0));
    return r;
  }
  fused zeros_like() const { return splat(0); }

#define EAGERPP_FUSED_METHOD(name, dtypes, grad, scalar)     \
  fused name() const {                                       \
    fused r{detail::fuse::unary<Ops, fused_unary::name>(v)}; \
    if constexpr (D > 0) {                                   \
      /* a row's rule reads some of x, y and g */            \
      [[maybe_unused]] const fused<Ops> x{v}, y{r.v};        \
      for (std::size_t k = 0; k != D; ++k) {                 \
        [[maybe_unused]] const fused<Ops> g{d[k]};           \
        r.d[k] = (grad).v;                                   \
      }                                                      \
    }                                                        \
    return r;                                                \
  }
  // clang-format off
  EAGERPP_UNARY_OPS(EAGERPP_FUSED_METHOD)
  // clang-format on
#undef EAGERPP_FUSED_METHOD
  fused negative() const {
    fused r{Ops::neg(v)};
    for (std::size_t k = 0; k != D; ++k) r.d[k] = Ops::neg(d[k]);
    return r;
  }
  /// x^e; d/dx = e x^(e-1), d/de = x^e log x, taken as 0 where x == 0 (the eager rule's).
  fused pow(const fused& e) const {
    fused r{detail::fuse::pow<Ops>(v, e.v)};
    if constexpr (D > 0) {
      const packet zero = Ops::set1(value_type(0));
      const packet dx =
          Ops::mul(e.v, detail::fuse::pow<Ops>(v, Ops::sub(e.v, Ops::set1(value_type(1)))));
      const packet de = Ops::select(Ops::eq(v, zero), zero,
                                    Ops::mul(r.v, detail::fuse::unary<Ops, fused_unary::log>(v)));
      for (std::size_t k = 0; k != D; ++k)
        r.d[k] = Ops::add(Ops::mul(dx, d[k]), Ops::mul(de, e.d[k]));
    }
    return r;
  }
  template <detail::fuse::number S>
  fused pow(S e) const {
    return pow(splat(static_cast<value_type>(e)));
  }
  /// NumPy's maximum and minimum; the derivative is the selected operand's, the mean of both on a
  /// tie (the eager rule's).
  fused maximum(const fused& b) const {
    return extremum(b, detail::fuse::minmax<Ops, true>(v, b.v));
  }
  fused minimum(const fused& b) const {
    return extremum(b, detail::fuse::minmax<Ops, false>(v, b.v));
  }
  template <detail::fuse::number S>
  fused maximum(S b) const {
    return maximum(splat(static_cast<value_type>(b)));
  }
  template <detail::fuse::number S>
  fused minimum(S b) const {
    return minimum(splat(static_cast<value_type>(b)));
  }
  /// NumPy's clip: minimum(maximum(x, lo), hi).
  template <class L, class H>
  fused clip(L lo, H hi) const {
    return maximum(lo).minimum(hi);
  }

  fused operator-() const { return negative(); }
  fused operator+() const { return *this; }

  // The tensor methods that are not element-wise: a sentence naming the op, not "no member".
#define EAGERPP_FUSED_NOT_ELEMENTWISE(name)                                               \
  template <class... A>                                                                   \
  fused name(const A&...) const {                                                         \
    static_assert(detail::fuse::always_false<A...>,                                       \
                  "ep::fuse: " #name                                                      \
                  " is not element-wise; a fused function may use element-wise ops only " \
                  "(compute " #name " on the tensor ep::fuse(f) returns)");               \
    return *this;                                                                         \
  }
  EAGERPP_FUSED_NOT_ELEMENTWISE(sum)
  EAGERPP_FUSED_NOT_ELEMENTWISE(prod)
  EAGERPP_FUSED_NOT_ELEMENTWISE(mean)
  EAGERPP_FUSED_NOT_ELEMENTWISE(max)
  EAGERPP_FUSED_NOT_ELEMENTWISE(min)
  EAGERPP_FUSED_NOT_ELEMENTWISE(cumsum)
  EAGERPP_FUSED_NOT_ELEMENTWISE(logsumexp)
  EAGERPP_FUSED_NOT_ELEMENTWISE(softmax)
  EAGERPP_FUSED_NOT_ELEMENTWISE(matmul)
  EAGERPP_FUSED_NOT_ELEMENTWISE(reshape)
  EAGERPP_FUSED_NOT_ELEMENTWISE(transpose)
  EAGERPP_FUSED_NOT_ELEMENTWISE(flip)
  EAGERPP_FUSED_NOT_ELEMENTWISE(sort)
  EAGERPP_FUSED_NOT_ELEMENTWISE(pad)
#undef EAGERPP_FUSED_NOT_ELEMENTWISE

  friend fused operator+(const fused& a, const fused& b) {
    fused r{Ops::add(a.v, b.v)};
    for (std::size_t k = 0; k != D; ++k) r.d[k] = Ops::add(a.d[k], b.d[k]);
    return r;
  }
  friend fused operator-(const fused& a, const fused& b) {
    fused r{Ops::sub(a.v, b.v)};
    for (std::size_t k = 0; k != D; ++k) r.d[k] = Ops::sub(a.d[k], b.d[k]);
    return r;
  }
  friend fused operator*(const fused& a, const fused& b) {
    fused r{Ops::mul(a.v, b.v)};
    for (std::size_t k = 0; k != D; ++k)
      r.d[k] = Ops::add(Ops::mul(a.d[k], b.v), Ops::mul(a.v, b.d[k]));
    return r;
  }
  friend fused operator/(const fused& a, const fused& b) {
    fused r{Ops::div(a.v, b.v)};
    for (std::size_t k = 0; k != D; ++k)
      r.d[k] = Ops::div(Ops::sub(a.d[k], Ops::mul(r.v, b.d[k])), b.v);
    return r;
  }

#define EAGERPP_FUSED_WITH_SCALARS(op)             \
  template <detail::fuse::number S>                \
  friend fused operator op(const fused& a, S b) {  \
    return a op splat(static_cast<value_type>(b)); \
  }                                                \
  template <detail::fuse::number S>                \
  friend fused operator op(S a, const fused& b) {  \
    return splat(static_cast<value_type>(a)) op b; \
  }                                                \
  template <class R>                               \
  fused& operator op##=(const R& b) {              \
    return *this = *this op b;                     \
  }
  EAGERPP_FUSED_WITH_SCALARS(+)
  EAGERPP_FUSED_WITH_SCALARS(-)
  EAGERPP_FUSED_WITH_SCALARS(*)
  EAGERPP_FUSED_WITH_SCALARS(/)
#undef EAGERPP_FUSED_WITH_SCALARS

#define EAGERPP_FUSED_COMPARISON(op, expr)                                              \
  friend fused_mask<Ops> operator op(const fused& a, const fused& b) { return {expr}; } \
  template <detail::fuse::number S>                                                     \
  friend fused_mask<Ops> operator op(const fused& a, S b) {                             \
    return a op splat(static_cast<value_type>(b));                                      \
  }                                                                                     \
  template <detail::fuse::number S>                                                     \
  friend fused_mask<Ops> operator op(S a, const fused& b) {                             \
    return splat(static_cast<value_type>(a)) op b;                                      \
  }
  EAGERPP_FUSED_COMPARISON(<, Ops::lt(a.v, b.v))
  EAGERPP_FUSED_COMPARISON(<=, Ops::le(a.v, b.v))
  EAGERPP_FUSED_COMPARISON(>, Ops::lt(b.v, a.v))
  EAGERPP_FUSED_COMPARISON(>=, Ops::le(b.v, a.v))
  EAGERPP_FUSED_COMPARISON(==, Ops::eq(a.v, b.v))
  EAGERPP_FUSED_COMPARISON(!=, Ops::ne(a.v, b.v))
#undef EAGERPP_FUSED_COMPARISON

  /// `c ? a : b` for value and derivatives.
  static fused select(const typename Ops::mask& c, const fused& a, const fused& b) {
    fused r{Ops::select(c, a.v, b.v)};
    for (std::size_t k = 0; k != D; ++k) r.d[k] = Ops::select(c, a.d[k], b.d[k]);
    return r;
  }

 private:
  fused extremum(const fused& b, const packet& out) const {
    fused r{out};
    if constexpr (D > 0) {
      const auto tie = Ops::eq(v, b.v);
      const auto from_a = Ops::eq(v, out), from_b = Ops::eq(b.v, out);
      const packet zero = Ops::set1(value_type(0)), half = Ops::set1(value_type(0.5));
      for (std::size_t k = 0; k != D; ++k)
        r.d[k] = Ops::select(tie, Ops::mul(half, Ops::add(d[k], b.d[k])),
                             Ops::select(from_a, d[k], Ops::select(from_b, b.d[k], zero)));
    }
    return r;
  }
};

/// The sign row's rule (ops/unary_list.hpp) on fused values, found by argument-dependent lookup: 0,
/// as of every real value (ep::fuse is real; ops/elementwise.hpp has the tensors' rule).
template <class Ops, std::size_t D>
fused<Ops, D> sign_gradient(const fused<Ops, D>&, const fused<Ops, D>&, const fused<Ops, D>& x) {
  return x.zeros_like();
}

namespace detail::fuse {
/// x as a fused value of F's policy and derivatives (a C++ scalar: a constant).
template <class F, class X>
F as_fused(const X& x) {
  if constexpr (std::same_as<X, F>)
    return x;
  else
    return F::splat(static_cast<typename F::value_type>(x));
}
}  // namespace detail::fuse

/// `where`, `maximum`, `minimum` and `clip` of fused values, spelled as for tensors; either value
/// of `where` may be a C++ scalar.
template <class Ops, std::size_t D, class A>
fused<Ops, D> where(fused_mask<Ops> c, const fused<Ops, D>& a, const A& b) {
  using F = fused<Ops, D>;
  return F::select(c.m, a, detail::fuse::as_fused<F>(b));
}
template <class Ops, std::size_t D, detail::fuse::number A>
fused<Ops, D> where(fused_mask<Ops> c, A a, const fused<Ops, D>& b) {
  using F = fused<Ops, D>;
  return F::select(c.m, detail::fuse::as_fused<F>(a), b);
}
template <class Ops, detail::fuse::number A, detail::fuse::number B>
fused<Ops> where(fused_mask<Ops> c, A a, B b) {
  using F = fused<Ops>;
  return F::select(c.m, detail::fuse::as_fused<F>(a), detail::fuse::as_fused<F>(b));
}
template <class Ops, std::size_t D, class B>
fused<Ops, D> maximum(const fused<Ops, D>& a, const B& b) {
  return a.maximum(b);
}
template <class Ops, std::size_t D, class B>
fused<Ops, D> minimum(const fused<Ops, D>& a, const B& b) {
  return a.minimum(b);
}
template <class Ops, std::size_t D, class L, class H>
fused<Ops, D> clip(const fused<Ops, D>& x, const L& lo, const H& hi) {
  return x.clip(lo, hi);
}
/// The array API's reciprocal and positive, as for tensors.
template <class Ops, std::size_t D>
fused<Ops, D> reciprocal(const fused<Ops, D>& x) {
  return 1 / x;
}
template <class Ops, std::size_t D>
fused<Ops, D> positive(const fused<Ops, D>& x) {
  return x;
}
#define EAGERPP_FUSED_FREE(name, dtypes, grad, scalar) \
  template <class Ops, std::size_t D>                  \
  fused<Ops, D> name(const fused<Ops, D>& x) {         \
    return x.name();                                   \
  }
EAGERPP_UNARY_OPS(EAGERPP_FUSED_FREE)
#undef EAGERPP_FUSED_FREE

namespace detail::fuse {

/// Elements [lo, hi) of the fused function `f` of N inputs of dtype T, into `out`: whole packets
/// of Ops, then the rest one element at a time with the scalar policy (as the eager ops' tails
/// run); with the scalar policy, all of it in one `omp simd` loop. Every pointer addresses n
/// elements in C order.
template <class Ops, class F, class T, std::size_t N>
void run_range(const F& f, T* out, const std::array<const T*, N>& in, std::int64_t lo,
               std::int64_t hi) {
  constexpr std::int64_t w = Ops::width;
  std::int64_t i = lo;
  if constexpr (w > 1) {
    for (; i + w <= hi; i += w) {
      const auto r = [&]<std::size_t... K>(std::index_sequence<K...>) {
        return f(fused<Ops>{Ops::load(in[K] + i)}...);
      }
      (std::make_index_sequence<N>{});
      Ops::store(out + i, r.v);
    }
  }
  using S = scalar_ops<T>;
#if defined(_OPENMP)
#pragma omp simd
#endif
  for (std::int64_t j = i; j < hi; ++j) {
    out[j] = [&]<std::size_t... K>(std::index_sequence<K...>) { return f(fused<S>{in[K][j]}...); }
    (std::make_index_sequence<N>{}).v;
  }
}

/// The backward pass of ep::fuse over elements [lo, hi): for each input k, `grads[k] = g * df/dx_k`,
/// from one evaluation of f on dual numbers (fused<Ops, N>, the k-th input's derivative seeded
/// with 1), packets then scalars as run_range.
template <class Ops, class F, class T, std::size_t N>
void run_range_grad(const F& f, const T* g, const std::array<const T*, N>& in,
                    const std::array<T*, N>& grads, std::int64_t lo, std::int64_t hi) {
  const auto step = [&]<class P>(P, std::int64_t at) {
    using Dual = fused<P, N>;
    const auto r = [&]<std::size_t... K>(std::index_sequence<K...>) {
      const auto input = [&](std::size_t k) {
        Dual x{P::load(in[k] + at)};
        for (std::size_t j = 0; j < N; ++j) x.d[j] = P::set1(T(j == k ? 1 : 0));
        return x;
      };
      return f(input(K)...);
    }
    (std::make_index_sequence<N>{});
    const auto gp = P::load(g + at);
    for (std::size_t k = 0; k < N; ++k) P::store(grads[k] + at, P::mul(gp, r.d[k]));
  };
  constexpr std::int64_t w = Ops::width;
  std::int64_t i = lo;
  if constexpr (w > 1)
    for (; i + w <= hi; i += w) step(Ops{}, i);
  for (; i < hi; ++i) step(scalar_ops<T>{}, i);
}

}  // namespace detail::fuse

}  // namespace ep
