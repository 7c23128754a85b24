// eagerpp - complex numbers: abs, real, imag, conj and angle, and their gradients
// SPDX-License-Identifier: MIT
#pragma once

#include <complex>  // std::abs, std::conj

#include "eagerpp/tensor.hpp"

namespace ep {

namespace detail {

// The scalar functions, mapped over the elements with B::map_elements (detail::complex_unary).
struct complex_abs_fn {
  template <class C>
  auto operator()(const C& z) const {
    return std::abs(z);
  }
};
struct complex_real_fn {
  template <class C>
  auto operator()(const C& z) const {
    return z.real();
  }
};
struct complex_imag_fn {
  template <class C>
  auto operator()(const C& z) const {
    return z.imag();
  }
};
struct complex_conj_fn {
  template <class C>
  C operator()(const C& z) const {
    return std::conj(z);
  }
};

// The names in the backend's errors (abs_name is the unary table's).
inline constexpr char real_name[] = "real";
inline constexpr char imag_name[] = "imag";
inline constexpr char conj_name[] = "conj";

// The gradient rules, JAX's (docs/autodiff.md, "Complex numbers"): of a linear map z -> w z the
// cotangent is multiplied by w, not by its conjugate; real(z) takes g to g + 0i, imag(z) (the real
// part of -iz) to -ig, conj to conj(g).
template <class Real, class Complex>
struct real_rule : takes<Complex> {
  Complex operator()(const Real& g, const Real&, const Complex&) const {
    return g.template astype<typename Complex::value_type>();
  }
};
template <class Real, class Complex>
struct imag_rule : takes<Complex> {
  Complex operator()(const Real& g, const Real&, const Complex&) const {
    using C = typename Complex::value_type;
    return g.template astype<C>() * C(0, -1);
  }
};
template <class Tn>
struct conj_rule : takes<Tn> {
  static constexpr bool elementwise = true;
  Tn operator()(const Tn& g, const Tn&, const Tn&) const { return g.conj(); }
};
/// |z|: g conj(z) / |z|, and 0 at z = 0 (as the real abs's g sign(x)).
template <class Real, class Complex>
struct complex_abs_rule : takes<Complex> {
  Complex operator()(const Real& g, const Real& y, const Complex& x) const {
    const Real scale = where(y == y.zeros_like(), y.zeros_like(), g / y);
    return scale.template astype<typename Complex::value_type>() * x.conj();
  }
};
}  // namespace detail

template <class Tn>
typename Tn::real_tensor detail::complex_abs(const Tn& x) {
  using B = typename Tn::backend_type;
  using Real = typename Tn::real_tensor;
  return make_result<Real>(elementwise(&complex_unary<B, complex_abs_fn, abs_name>, x),
                           complex_abs_rule<Real, Tn>{}, x);
}

template <backend B>
auto Tensor<B>::real() const -> real_tensor {
  static_assert(arithmetic_dtype<value_type>,
                "ep::real: needs a numeric or complex tensor, not bool");
  if constexpr (complex_dtype<value_type>)
    return detail::make_result<real_tensor>(
        detail::elementwise(&detail::complex_unary<B, detail::complex_real_fn, detail::real_name>,
                            *this),
        detail::real_rule<real_tensor, Tensor>{}, *this);
  else
    return *this;
}

template <backend B>
auto Tensor<B>::imag() const -> real_tensor {
  static_assert(arithmetic_dtype<value_type>,
                "ep::imag: needs a numeric or complex tensor, not bool");
  if constexpr (complex_dtype<value_type>)
    return detail::make_result<real_tensor>(
        detail::elementwise(&detail::complex_unary<B, detail::complex_imag_fn, detail::imag_name>,
                            *this),
        detail::imag_rule<real_tensor, Tensor>{}, *this);
  else
    return zeros_like();
}

template <backend B>
Tensor<B> Tensor<B>::conj() const {
  static_assert(arithmetic_dtype<value_type>,
                "ep::conj: needs a numeric or complex tensor, not bool");
  if constexpr (complex_dtype<value_type>)
    return unary<&detail::complex_unary<B, detail::complex_conj_fn, detail::conj_name>>(
        detail::conj_rule<Tensor>{});
  else
    return *this;
}

template <backend B>
auto Tensor<B>::angle() const -> real_tensor {
  static_assert(inexact_dtype<value_type>,
                "ep::angle: needs a floating or complex tensor; convert with astype<float>() "
                "first");
  return imag().atan2(real());
}

}  // namespace ep
