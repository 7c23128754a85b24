// eagerpp - the Complex suite: complex64 and complex128 tensors against NumPy's values
// (tests/complex/expected.hpp), their gradients against central differences, printing and .npy
// SPDX-License-Identifier: MIT
#pragma once

#include <gtest/gtest.h>

#include <algorithm>    // std::max, std::sort, std::count
#include <cmath>        // std::isnan, std::isinf, std::signbit, std::sin, std::cos
#include <complex>      // std::complex
#include <filesystem>   // std::filesystem::temp_directory_path
#include <limits>       // std::numeric_limits
#include <string>       // std::string
#include <tuple>        // std::tuple
#include <type_traits>  // std::is_same_v
#include <vector>       // std::vector

#include <fmt/format.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/fft.hpp>
#include <eagerpp/format.hpp>
#include <eagerpp/npy.hpp>

#include "complex/expected.hpp"

namespace complex_suite {

// Promotion with the real dtypes, as NumPy (NEP 50) and the array API promote.
static_assert(std::is_same_v<ep::result_type_t<float, ep::complex64>, ep::complex64>);
static_assert(std::is_same_v<ep::result_type_t<double, ep::complex64>, ep::complex128>);
static_assert(std::is_same_v<ep::result_type_t<float, ep::complex128>, ep::complex128>);
static_assert(std::is_same_v<ep::result_type_t<std::int32_t, ep::complex64>, ep::complex128>);
static_assert(std::is_same_v<ep::result_type_t<std::int8_t, ep::complex64>, ep::complex64>);
static_assert(std::is_same_v<ep::result_type_t<ep::complex64, ep::complex128>, ep::complex128>);
static_assert(ep::can_cast<float, ep::complex64>() && !ep::can_cast<ep::complex64, float>());
static_assert(ep::can_cast<double, ep::complex128>() && !ep::can_cast<double, ep::complex64>());
// A C++ scalar with a tensor: the tensor's precision, the scalar's kind (NumPy's Python scalars).
static_assert(std::is_same_v<ep::scalar_result_t<float, std::complex<double>>, ep::complex64>);
static_assert(std::is_same_v<ep::scalar_result_t<ep::complex64, double>, ep::complex64>);
static_assert(
    std::is_same_v<ep::scalar_result_t<std::int64_t, std::complex<float>>, std::complex<float>>);
static_assert(ep::dtype_name<ep::complex64>() == "complex64");
static_assert(ep::isdtype<ep::complex128>("complex floating") &&
              !ep::isdtype<ep::complex128>("real floating"));

/// The parts' tolerance: a few thousand ulps of the dtype, as the C library's complex functions and
/// NumPy's differ in their last bits, far below what a wrong formula or branch gives.
template <class C>
constexpr double tolerance = std::is_same_v<C, ep::complex64> ? 2e-5 : 1e-12;

/// One part of a result against NumPy's: NaN for NaN, an infinity exactly, a zero's sign where
/// `signs`, else within `rtol` of the magnitude `scale`.
inline void expect_part(double got, double want, double scale, double rtol, bool signs,
                        const std::string& where) {
  if (std::isnan(want) || std::isinf(want)) {
    EXPECT_TRUE(std::isnan(want) ? std::isnan(got) : got == want)
        << where << ": got " << got << ", NumPy " << want;
    return;
  }
  EXPECT_NEAR(got, want, rtol * scale + 1e-300) << where;
  if (signs && want == 0 && got == 0) {
    EXPECT_EQ(std::signbit(got), std::signbit(want)) << where << ": the sign of zero";
  }
}

/// `t` against NumPy's `want`, element by element, part by part (rtol of each element's magnitude).
template <class B, class C>
void expect_complex(const ep::Tensor<B>& t, const std::vector<C>& want, double rtol,
                    const std::string& op, bool signs = false) {
  const auto got = t.to_vector();
  ASSERT_EQ(got.size(), want.size()) << op;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const auto g = std::complex<double>(got[i]);
    const auto w = std::complex<double>(want[i]);
    const double scale = std::isfinite(std::abs(w)) ? std::abs(w) : 0;
    const std::string where = fmt::format("{} element {}", op, i);
    expect_part(g.real(), w.real(), scale, rtol, signs, where + " (real)");
    expect_part(g.imag(), w.imag(), scale, rtol, signs, where + " (imag)");
  }
}

/// A real tensor against NumPy's `want`, element by element.
template <class B, class R>
void expect_real(const ep::Tensor<B>& t, const std::vector<R>& want, double rtol,
                 const std::string& op) {
  const auto got = t.to_vector();
  ASSERT_EQ(got.size(), want.size()) << op;
  for (std::size_t i = 0; i < got.size(); ++i)
    expect_part(static_cast<double>(got[i]), static_cast<double>(want[i]),
                std::abs(static_cast<double>(want[i])), rtol, true,
                fmt::format("{} element {}", op, i));
}

/// JAX's gradient of a real-valued f of a complex128 tensor z by central differences: for each
/// element, df/dx - i df/dy (x, y its parts).
template <class F, class Tn>
std::vector<std::complex<double>> numeric_gradient(const F& f, const Tn& z) {
  using C = std::complex<double>;
  const auto base = z.to_vector();
  std::vector<C> out;
  const double h = 1e-6;
  const auto at = [&](std::size_t k, C step) {
    auto v = base;
    v[k] += step;
    return f(ep::from_vector<typename Tn::backend_type>(v, z.shape())).item();
  };
  for (std::size_t k = 0; k < base.size(); ++k) {
    const double dx = (at(k, C(h, 0)) - at(k, C(-h, 0))) / (2 * h);
    const double dy = (at(k, C(0, h)) - at(k, C(0, -h))) / (2 * h);
    out.emplace_back(dx, -dy);
  }
  return out;
}

template <class B>
class Complex : public ::testing::Test {};
TYPED_TEST_SUITE_P(Complex);

template <class B>
using E = expected<typename B::value_type>;

template <class B>
ep::Tensor<B> tensor(const std::vector<typename B::value_type>& v) {
  return ep::from_vector<B>(v, ep::Shape(static_cast<std::int64_t>(v.size())));
}

// Every INEXACT and ARITHMETIC row of the unary table against NumPy, at points on both sides of
// the branch cuts (the C library's complex functions: C99 Annex G, as the array API specifies).
TYPED_TEST_P(Complex, UnaryTableMatchesNumPy) {
  using B = TypeParam;
  using C = typename B::value_type;
  const auto z = tensor<B>(E<B>::z);
  constexpr double rtol = tolerance<C>;
#define EAGERPP_COMPLEX_VALUES_INEXACT(name) expect_complex(z.name(), E<B>::name, rtol, #name);
#define EAGERPP_COMPLEX_VALUES_ARITHMETIC(name) EAGERPP_COMPLEX_VALUES_INEXACT(name)
#define EAGERPP_COMPLEX_VALUES_FLOAT(name)
#define EAGERPP_COMPLEX_VALUES_NUMERIC(name)
#define EAGERPP_COMPLEX_VALUES(name, dtypes, ...) EAGERPP_COMPLEX_VALUES_##dtypes(name)
  EAGERPP_UNARY_OPS(EAGERPP_COMPLEX_VALUES)
#undef EAGERPP_COMPLEX_VALUES
#undef EAGERPP_COMPLEX_VALUES_NUMERIC
#undef EAGERPP_COMPLEX_VALUES_FLOAT
#undef EAGERPP_COMPLEX_VALUES_ARITHMETIC
#undef EAGERPP_COMPLEX_VALUES_INEXACT
  // The free functions are the methods.
  expect_complex(ep::sqrt(z), E<B>::sqrt, rtol, "ep::sqrt");
}

// The special cases of the standard (zeros, infinities, NaN in either part), NumPy's values: NaN
// where NumPy gives NaN, the infinities and the signs of zeros exactly.
TYPED_TEST_P(Complex, SpecialCases) {
  using B = TypeParam;
  using C = typename B::value_type;
  const auto s = tensor<B>(E<B>::s);
  constexpr double rtol = tolerance<C>;
  expect_complex(s.sqrt(), E<B>::special_sqrt, rtol, "sqrt", true);
  expect_complex(s.exp(), E<B>::special_exp, rtol, "exp", true);
  expect_complex(s.log(), E<B>::special_log, rtol, "log", true);
  expect_complex(s.sin(), E<B>::special_sin, rtol, "sin", true);
  expect_complex(s.cos(), E<B>::special_cos, rtol, "cos", true);
  expect_complex(s.sinh(), E<B>::special_sinh, rtol, "sinh", true);
  expect_complex(s.cosh(), E<B>::special_cosh, rtol, "cosh", true);
  expect_complex(s.tanh(), E<B>::special_tanh, rtol, "tanh", true);
  expect_complex(s.arcsinh(), E<B>::special_arcsinh, rtol, "arcsinh", true);
  expect_complex(s.arctan(), E<B>::special_arctan, rtol, "arctan", true);
  expect_real(s.abs(), E<B>::special_abs, 0, "abs");
  // isnan, isinf, isfinite: of either part.
  EXPECT_EQ(s.isnan().to_vector(), E<B>::special_isnan);
  EXPECT_EQ(s.isinf().to_vector(), E<B>::special_isinf);
  EXPECT_EQ(ep::isfinite(s).to_vector(), E<B>::special_isfinite);
}

// real, imag, conj, abs (real results), angle; of a real tensor, real and conj are the tensor and
// imag its zeros.
TYPED_TEST_P(Complex, Parts) {
  using B = TypeParam;
  using C = typename B::value_type;
  using R = typename C::value_type;
  const auto z = tensor<B>(E<B>::z);
  static_assert(std::is_same_v<typename decltype(z.abs())::value_type, R>);
  static_assert(std::is_same_v<typename decltype(ep::real(z))::value_type, R>);
  expect_real(z.real(), E<B>::real, 0, "real");
  expect_real(z.imag(), E<B>::imag, 0, "imag");
  expect_complex(z.conj(), E<B>::conj, 0, "conj", true);
  expect_real(z.abs(), E<B>::abs, tolerance<C>, "abs");
  expect_real(ep::angle(z), E<B>::angle, tolerance<C>, "angle");
  const auto r = z.real();
  expect_real(r.real(), E<B>::real, 0, "real of real");
  expect_real(r.conj(), E<B>::real, 0, "conj of real");
  expect_real(r.imag(), std::vector<R>(E<B>::real.size(), R(0)), 0, "imag of real");
  // To another backend and back (ep::to), the elements as they are.
  const auto there = ep::to<ep::eigen>(z);
  static_assert(std::is_same_v<typename decltype(there)::value_type, C>);
  expect_complex(ep::to<B>(there), E<B>::z, 0, "ep::to", true);
  // A complex tensor from its parts, and the parts' round trip.
  const auto back = r.template astype<C>() + z.imag().template astype<C>() * C(0, 1);
  expect_complex(back, E<B>::z, 0, "real + imag * 1j");
}

// + - * / of two complex tensors, broadcasting, C++ scalars and real tensors promoted, == and !=.
TYPED_TEST_P(Complex, Arithmetic) {
  using B = TypeParam;
  using C = typename B::value_type;
  using R = typename C::value_type;
  constexpr double rtol = tolerance<C>;
  const auto z = tensor<B>(E<B>::z);
  const auto w = tensor<B>(E<B>::w);
  expect_complex(z + w, E<B>::add, rtol, "add");
  expect_complex(z - w, E<B>::subtract, rtol, "subtract");
  expect_complex(z * w, E<B>::multiply, rtol, "multiply");
  expect_complex(z / w, E<B>::divide, rtol, "divide");
  std::vector<C> negated;
  for (const C& e : E<B>::z) negated.push_back(-e);
  expect_complex(-z, negated, 0, "negative", true);
  // Broadcasting: z as (2, 5) plus w[:5] as (5,).
  const auto zz = z.reshape({2, 5});
  const auto w5 = w(ep::slice(0, 5));
  std::vector<C> want;
  for (std::size_t i = 0; i < 10; ++i) want.push_back(E<B>::z[i] + E<B>::w[i % 5]);
  expect_complex(zz + w5, want, rtol, "add, broadcast");
  // A real tensor of the parts' dtype with a complex scalar and with a complex tensor.
  const auto wr = w.real();
  const auto ri = wr * C(0, 1);
  static_assert(std::is_same_v<typename decltype(ri)::value_type, C>);
  expect_complex(ri, E<B>::real_times_i, rtol, "real * 1j");
  const auto rz = wr + z;
  static_assert(std::is_same_v<typename decltype(rz)::value_type, C>);
  expect_complex(rz, E<B>::real_plus_z, rtol, "real + z");
  // A real C++ scalar keeps the complex dtype.
  const auto twice = z * 2.0;
  static_assert(std::is_same_v<typename decltype(twice)::value_type, C>);
  std::vector<C> doubled;
  for (const C& e : E<B>::z) doubled.push_back(e * R(2));
  expect_complex(twice, doubled, 0, "z * 2");
  // == and !=.
  const auto v = tensor<B>(E<B>::v);
  const auto eq = (z == v).to_vector();
  const auto ne = (z != v).to_vector();
  ASSERT_EQ(eq.size(), E<B>::equal.size());
  for (std::size_t i = 0; i < eq.size(); ++i) {
    EXPECT_EQ(eq[i], E<B>::equal[i]) << "equal element " << i;
    EXPECT_EQ(ne[i], !E<B>::equal[i]) << "not_equal element " << i;
  }
}

// sum, prod and mean along each axis, and matmul (BLAS's cgemm/zgemm where the backend has it).
TYPED_TEST_P(Complex, ReductionsAndMatmul) {
  using B = TypeParam;
  using C = typename B::value_type;
  constexpr double rtol = tolerance<C>;
  const auto m = tensor<B>(E<B>::z).reshape({2, 5});
  expect_complex(m.sum(0), E<B>::sum0, rtol, "sum(0)");
  expect_complex(m.sum(1), E<B>::sum1, rtol, "sum(1)");
  expect_complex(m.prod(1), E<B>::prod1, rtol, "prod(1)");
  expect_complex(m.mean(0), E<B>::mean0, rtol, "mean(0)");
  const auto z = tensor<B>(E<B>::z);
  const auto w = tensor<B>(E<B>::w);
  expect_complex(z(ep::slice(0, 4)).reshape({2, 2}).matmul(w(ep::slice(0, 4)).reshape({2, 2})),
                 E<B>::matmul, rtol, "matmul (2, 2)");
  const auto p = z(ep::slice(0, 6)).reshape({2, 3}).matmul(w(ep::slice(0, 6)).reshape({3, 2}));
  EXPECT_EQ(p.shape(), (ep::Shape{2, 2}));
  expect_complex(p, E<B>::matmul_23_32, rtol, "matmul (2, 3) (3, 2)");
}

// JAX's gradients (docs/autodiff.md, "Complex numbers") of real-valued functions of complex128
// tensors against central differences of the real and imaginary parts: every INEXACT and
// ARITHMETIC row of the unary table, the parts, the arithmetic, the reductions, matmul and casts.
TYPED_TEST_P(Complex, GradientsAgainstCentralDifferences) {
  using B = typename TypeParam::template rebind<ep::complex128>;
  using C = ep::complex128;
  // Points away from every branch cut.
  const auto z = tensor<B>({C(1, 2), C(-0.5, 0.25), C(3, -1), C(0.5, -0.75), C(-0.3, 0.6)});
  const auto check = [&](const auto& f, const std::string& op) {
    const auto got = ep::grad(f)(z);
    expect_complex(got, numeric_gradient(f, z), 1e-6, op);
  };
#define EAGERPP_COMPLEX_GRAD_INEXACT(name) \
  check([](const auto& t) { return (t.name().real() * 0.7 - t.name().imag() * 1.3).sum(); }, #name);
#define EAGERPP_COMPLEX_GRAD_ARITHMETIC(name) EAGERPP_COMPLEX_GRAD_INEXACT(name)
#define EAGERPP_COMPLEX_GRAD_FLOAT(name)
#define EAGERPP_COMPLEX_GRAD_NUMERIC(name)
#define EAGERPP_COMPLEX_GRAD(name, dtypes, ...) EAGERPP_COMPLEX_GRAD_##dtypes(name)
  EAGERPP_UNARY_OPS(EAGERPP_COMPLEX_GRAD)
#undef EAGERPP_COMPLEX_GRAD
#undef EAGERPP_COMPLEX_GRAD_NUMERIC
#undef EAGERPP_COMPLEX_GRAD_FLOAT
#undef EAGERPP_COMPLEX_GRAD_ARITHMETIC
#undef EAGERPP_COMPLEX_GRAD_INEXACT
  check([](const auto& t) { return (t.abs() * t.abs()).sum(); }, "abs squared");
  check([](const auto& t) { return t.abs().sum(); }, "abs");
  check([](const auto& t) { return (t.real() * t.imag()).sum(); }, "real * imag");
  check([](const auto& t) { return (t.conj() * C(0.5, 2)).imag().sum(); }, "conj");
  check([](const auto& t) { return t.angle().sum(); }, "angle");
  check([](const auto& t) { return ((t * t - t / (t + 2.0)) * C(1, -1)).real().sum(); },
        "arithmetic");
  check([](const auto& t) { return t.prod().abs() + t.mean().real(); }, "prod, mean");
  check(
      [](const auto& t) {
        const auto a = t(ep::slice(0, 4)).reshape({2, 2});
        return a.matmul(a.conj() + C(0, 1)).abs().sum();
      },
      "matmul");
  // Through complex64: the gradient of the same function without the cast, to float's precision.
  const auto narrowed = ep::grad(
      [](const auto& t) { return t.template astype<ep::complex64>().abs().sum().float64(); })(z);
  expect_complex(narrowed, numeric_gradient([](const auto& t) { return t.abs().sum(); }, z), 1e-6,
                 "astype complex64");
  // A real input cast to complex: the real part of the complex gradient.
  const auto x = ep::from_vector<typename B::template rebind<double>>(
      std::vector<double>{0.5, -1.25, 2}, ep::Shape{3});
  const auto g = ep::grad(
      [](const auto& t) { return (t.template astype<C>() * C(0, 1)).exp().real().sum(); })(x);
  expect_real(g, std::vector<double>{-std::sin(0.5), -std::sin(-1.25), -std::sin(2.0)}, 1e-14,
              "astype complex128 of float64");
}

// NumPy's printing (a+bj, the sign of the imaginary part, nan and inf), and a format spec applied
// to each part, as Python formats a complex number.
TYPED_TEST_P(Complex, Printing) {
  using B = typename TypeParam::template rebind<ep::complex128>;
  using C = ep::complex128;
  const double inf_ = std::numeric_limits<double>::infinity();
  const auto z = tensor<B>({C(1, 2), C(-0.5, -0.25), C(std::nan(""), inf_), C(0, -0.0)});
  EXPECT_EQ(fmt::format("{}", z),
            fmt::format("Tensor<{}, complex128>(shape=(4,), [1+2j, -0.5-0.25j, nan+infj, 0-0j])",
                        B::name));
  EXPECT_EQ(fmt::format("{:.2f}", z(1)), "-0.50-0.25j");
  EXPECT_THROW((void)fmt::format("{:d}", z(1)), fmt::format_error);
}

// .npy files: NumPy's own (tests/data, '<c8' and '<c16'), and a round trip.
TYPED_TEST_P(Complex, Npy) {
  using B = TypeParam;
  using C64 = typename B::template rebind<ep::complex64>;
  using C128 = typename B::template rebind<ep::complex128>;
  const std::string data = EAGERPP_TEST_DATA_DIR;
  const auto a = ep::load_npy<C64>(data + "/complex64_2x2.npy");
  EXPECT_EQ(a.shape(), (ep::Shape{2, 2}));
  expect_complex(a, std::vector<ep::complex64>{{1, 2}, {-0.5F, -0.25F}, {3, 0}, {0, 1}}, 0,
                 "complex64_2x2.npy");
  const auto b = ep::load_npy<C128>(data + "/complex128_3.npy");
  expect_complex(b, std::vector<ep::complex128>{{1e300, 1}, {0.0, -0.0}, {-2.5, 1e-300}}, 0,
                 "complex128_3.npy", true);
  EXPECT_THROW((void)ep::load_npy<C128>(data + "/complex64_2x2.npy"), ep::io_error);
  const auto path =
      std::filesystem::temp_directory_path() /
      fmt::format("eagerpp_complex_{}_{}.npy", B::name, ep::dtype_name<typename B::value_type>());
  const auto z = tensor<B>(E<B>::z);
  ep::save_npy(path, z);
  expect_complex(ep::load_npy<B>(path), E<B>::z, 0, "save_npy, load_npy", true);
  std::filesystem::remove(path);
}

/// An FFT's result against NumPy's: each element within `rtol` of the largest magnitude (an FFT's
/// rounding error is relative to the whole transform, not to each point).
template <class B, class V>
void expect_transform(const ep::Tensor<B>& t, const ep::Shape& shape, const std::vector<V>& want,
                      double rtol, const std::string& op) {
  EXPECT_EQ(t.shape(), shape) << op;
  double largest = 0;
  for (const V& w : want) largest = std::max(largest, std::abs(std::complex<double>(w)));
  const auto got = t.to_vector();
  ASSERT_EQ(got.size(), want.size()) << op;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const auto g = std::complex<double>(got[i]);
    const auto w = std::complex<double>(want[i]);
    EXPECT_NEAR(g.real(), w.real(), rtol * largest) << op << " element " << i << " (real)";
    EXPECT_NEAR(g.imag(), w.imag(), rtol * largest) << op << " element " << i << " (imag)";
  }
}

// Element-wise chains of complex tensors evaluated lazily in small blocks (host/blocks.hpp: every
// result an expression, blocks of 256 bytes) against the same chains computed op by op: values,
// reductions of chains, real results of complex inputs, and a gradient through a chain.
TYPED_TEST_P(Complex, LazyBlocksEqualEager) {
  using B = TypeParam;
  using C = typename B::value_type;
  using R = typename C::value_type;
  constexpr double rtol = std::is_same_v<C, ep::complex64> ? 1e-5 : 1e-13;
  const std::int64_t n = 5003;  // blocks end short of a packet's width
  std::vector<C> zv, wv;
  for (std::int64_t k = 0; k < n; ++k) {
    zv.emplace_back(static_cast<R>(std::sin(0.1 * k)), static_cast<R>(std::cos(0.07 * k)));
    wv.emplace_back(static_cast<R>(0.5 + 0.25 * std::cos(0.3 * k)),
                    static_cast<R>(std::sin(0.2 * k)));
  }
  const auto z = ep::from_vector<B>(zv, ep::Shape{n});
  const auto w = ep::from_vector<B>(wv, ep::Shape{n});
  const auto chain = [&] {
    const auto y = ((z * w + z).exp() - w / (z + 2.0)).sqrt() * C(0.5, -1) + z.conj();
    return std::tuple{y, y.abs() + y.real() * R(2), y.sum(), (y * y).mean()};
  };
  const auto loss = [&w](const auto& t) { return ((t * w).exp() + t.conj() * 2.0).abs().sum(); };
  const auto [eager, eager_parts, eager_sum, eager_mean] = [&] {
    const ep::fusion_scope scope({.min_size = std::numeric_limits<std::int64_t>::max()});
    return chain();
  }();
  const auto eager_grad = [&] {
    const ep::fusion_scope scope({.min_size = std::numeric_limits<std::int64_t>::max()});
    return ep::grad(loss)(z);
  }();
  const ep::fusion_scope scope({.min_size = 0, .block_bytes = 256});
  const auto [lazy, lazy_parts, lazy_sum, lazy_mean] = chain();
  // Expressions until read (y itself was read by its sum).
  EXPECT_TRUE(ep::detail::tensor_access::is_lazy(lazy_parts));
  EXPECT_TRUE(ep::detail::tensor_access::is_lazy((z * w + z).exp().conj()));
  expect_transform(lazy, {n}, eager.to_vector(), rtol, "lazy chain");
  expect_transform(lazy_parts, {n}, eager_parts.to_vector(), rtol, "abs + real of a lazy chain");
  expect_transform(lazy_sum, {}, eager_sum.to_vector(), rtol, "sum of a lazy chain");
  expect_transform(lazy_mean, {}, eager_mean.to_vector(), rtol, "mean of a lazy chain");
  expect_transform(ep::grad(loss)(z), {n}, eager_grad.to_vector(), rtol, "gradient");
}

// The 14 functions of the fft extension against NumPy: a prime length, a power of two, lengths
// cropped and zero-padded, each norm, several axes, the Hermitian pairs.
TYPED_TEST_P(Complex, FftMatchesNumPy) {
  using B = TypeParam;
  using C = typename B::value_type;
  using R = typename C::value_type;
  using Real = typename B::template rebind<R>;
  constexpr double rtol = std::is_same_v<C, ep::complex64> ? 1e-5 : 1e-13;
  const auto a = ep::from_vector<Real>(E<B>::fa, ep::Shape{7});
  const auto e = ep::from_vector<Real>(E<B>::fe, ep::Shape{8});
  const auto m = ep::from_vector<B>(E<B>::fm, ep::Shape{3, 4});
  const auto r = ep::from_vector<Real>(E<B>::fr, ep::Shape{4, 6});
  namespace fft = ep::fft;
  static_assert(std::is_same_v<typename decltype(fft::fft(a))::value_type, C>);
  expect_transform(fft::fft(a), {7}, E<B>::fft_a, rtol, "fft");
  expect_transform(fft::fft(a, 5, -1, "ortho"), {5}, E<B>::fft_a_n5_ortho, rtol, "fft n=5 ortho");
  expect_transform(fft::fft(e, 11, 0, "forward"), {11}, E<B>::fft_e_n11_forward, rtol,
                   "fft n=11 forward");
  expect_transform(fft::ifft(m, std::nullopt, 0), {3, 4}, E<B>::ifft_m_axis0, rtol, "ifft axis 0");
  expect_transform(fft::fftn(m), {3, 4}, E<B>::fftn_m, rtol, "fftn");
  expect_transform(fft::ifftn(m, {2, 5}), {2, 5}, E<B>::ifftn_m_s25, rtol, "ifftn s=(2, 5)");
  expect_transform(fft::fftn(m, {6}, {1}, "ortho"), {3, 6}, E<B>::fftn_m_axis1_s6_ortho, rtol,
                   "fftn s=(6,) axes=(1,) ortho");
  expect_transform(fft::rfft(a), {4}, E<B>::rfft_a, rtol, "rfft");
  expect_transform(fft::rfft(e, 6), {4}, E<B>::rfft_e_n6, rtol, "rfft n=6");
  static_assert(std::is_same_v<typename decltype(fft::irfft(m))::value_type, R>);
  expect_transform(fft::irfft(m), {3, 6}, E<B>::irfft_m, rtol, "irfft");
  expect_transform(fft::irfft(m, 7, 0, "ortho"), {7, 4}, E<B>::irfft_m_n7_axis0_ortho, rtol,
                   "irfft n=7 axis 0 ortho");
  expect_transform(fft::rfftn(r), {4, 4}, E<B>::rfftn_r, rtol, "rfftn");
  expect_transform(fft::irfftn(fft::rfftn(r), {4, 5}), {4, 5}, E<B>::irfftn_rfftn_r_s45, rtol,
                   "irfftn s=(4, 5)");
  expect_transform(fft::hfft(m), {3, 6}, E<B>::hfft_m, rtol, "hfft");
  expect_transform(fft::hfft(m, 5, -1, "forward"), {3, 5}, E<B>::hfft_m_n5_forward, rtol,
                   "hfft n=5 forward");
  expect_transform(fft::ihfft(a), {4}, E<B>::ihfft_a, rtol, "ihfft");
  expect_transform(fft::ihfft(e, 9, -1, "ortho"), {5}, E<B>::ihfft_e_n9_ortho, rtol,
                   "ihfft n=9 ortho");
  expect_transform(fft::fftfreq<Real>(7, 0.5), {7}, E<B>::fftfreq_7, rtol, "fftfreq(7, 0.5)");
  expect_transform(fft::fftfreq<Real>(8), {8}, E<B>::fftfreq_8, rtol, "fftfreq(8)");
  expect_transform(fft::rfftfreq<Real>(7, 2.0), {4}, E<B>::rfftfreq_7, rtol, "rfftfreq(7, 2)");
  expect_transform(fft::fftshift(m), {3, 4}, E<B>::fftshift_m, 0, "fftshift");
  expect_transform(fft::ifftshift(m, 1), {3, 4}, E<B>::ifftshift_m_axis1, 0, "ifftshift axis 1");
  // One point, and an empty batch beside the transformed axis.
  expect_transform(fft::fft(m(ep::slice(0, 1), ep::slice(0, 1))), {1, 1},
                   std::vector<C>{E<B>::fm[0]}, rtol, "fft of one point");
  EXPECT_EQ(fft::fft(ep::zeros<B>({0, 5})).shape(), (ep::Shape{0, 5}));
}

// Round trips (ifft(fft(x)) = x for every length and norm, irfft(rfft(x), n) = x), Parseval's
// identity, and the errors: bad norm, n < 1, an axis out of range, a 0-d tensor.
TYPED_TEST_P(Complex, FftRoundTripsParsevalAndErrors) {
  using B = TypeParam;
  using C = typename B::value_type;
  using R = typename C::value_type;
  using Real = typename B::template rebind<R>;
  constexpr double rtol = std::is_same_v<C, ep::complex64> ? 1e-5 : 1e-13;
  namespace fft = ep::fft;
  for (const std::int64_t n : {1, 2, 3, 7, 8, 12, 17, 30, 64}) {
    std::vector<C> v;
    for (std::int64_t k = 0; k < 2 * n; ++k)
      v.emplace_back(static_cast<R>(std::sin(0.7 * static_cast<double>(k))),
                     static_cast<R>(std::cos(1.3 * static_cast<double>(k * k))));
    const auto x = ep::from_vector<B>(v, ep::Shape{2, n});
    for (const char* norm : {"backward", "ortho", "forward"})
      expect_transform(fft::ifft(fft::fft(x, std::nullopt, -1, norm), std::nullopt, -1, norm),
                       {2, n}, v, rtol, fmt::format("ifft(fft(x)) n={} {}", n, norm));
    // Parseval: sum |x|^2 = sum |X|^2 / n.
    const double energy = static_cast<double>((x.abs() * x.abs()).sum().item());
    const double spectral =
        static_cast<double>((fft::fft(x).abs().square()).sum().item()) / static_cast<double>(n);
    EXPECT_NEAR(spectral, energy, rtol * energy) << "Parseval, n = " << n;
    const auto re = x.real();
    expect_transform(fft::irfft(fft::rfft(re), n), {2, n}, re.to_vector(), rtol,
                     fmt::format("irfft(rfft(x), n) n={}", n));
    // The real-input transform (the backend's rfft where it has one) against the complex one, along
    // the last axis and along a strided one.
    const auto half = [&](const auto& t, int axis) {
      const auto full = fft::fft(t.template astype<C>(), std::nullopt, axis);
      return ep::detail::slice_axis(full, axis, 0, t.shape()[axis] / 2 + 1);
    };
    const auto tall = re.reshape({n, 2});
    expect_transform(fft::rfft(re), {2, n / 2 + 1}, half(re, 1).to_vector(), rtol,
                     fmt::format("rfft n={}", n));
    expect_transform(fft::rfft(tall, std::nullopt, 0), {n / 2 + 1, 2}, half(tall, 0).to_vector(),
                     rtol, fmt::format("rfft n={} along axis 0", n));
  }
  // Enough lines to spread over ep::omp's threads (host/fft.hpp), along both axes, against the
  // lines transformed one at a time on ep::eigen.
  std::vector<C> big;
  for (int k = 0; k < 64 * 600; ++k)
    big.emplace_back(static_cast<R>(std::sin(0.01 * k)), static_cast<R>(std::cos(0.003 * k * k)));
  const auto large = ep::from_vector<B>(big, ep::Shape{64, 600});
  for (const int axis : {0, 1}) {
    const auto spectrum = fft::fft(large, std::nullopt, axis);
    const auto oracle = fft::fft(ep::to<ep::eigen>(large), std::nullopt, axis);
    expect_transform(spectrum, {64, 600}, oracle.to_vector(), rtol,
                     fmt::format("fft of (64, 600) along axis {}", axis));
    expect_transform(fft::ifft(spectrum, std::nullopt, axis), {64, 600}, big, rtol,
                     fmt::format("ifft(fft(x)) of (64, 600) along axis {}", axis));
  }
  const auto x = ep::from_vector<B>(E<B>::fm, ep::Shape{3, 4});
  const auto message = [](const auto& f) {
    try {
      (void)f();
    } catch (const ep::value_error& e) {
      return std::string(e.what());
    }
    return std::string("no ep::value_error");
  };
  EXPECT_EQ(message([&] { return fft::fft(x, std::nullopt, -1, "unitary"); }),
            "fft: norm \"unitary\"; expected \"backward\", \"ortho\" or \"forward\"");
  EXPECT_EQ(message([&] { return fft::ifft(x, 0); }),
            "ifft: 0 points along axis 1; expected at least 1");
  EXPECT_EQ(message([&] { return fft::fft(x, std::nullopt, 2); }),
            "fft: axis 2 is out of range for a tensor of shape (3, 4); expected -2 <= axis < 2");
  EXPECT_EQ(message([&] {
              return fft::fftn(x, {4, 4, 4});
            }),
            "fftn: s has 3 lengths for a tensor of shape (3, 4); expected at most one per axis");
  EXPECT_EQ(message([&] {
              return fft::fftn(x, {}, {0, -2});
            }),
            "fftn: axis -2 repeated in the axes; expected each once");
  EXPECT_EQ(message([&] { return fft::fft(ep::full<B>({}, C(1))); }),
            "fft: x is 0-dimensional; expected at least one axis");
  EXPECT_EQ(message([&] { return fft::irfft(x(ep::slice(0, 3), ep::slice(0, 1))); }),
            "irfft: 0 output points along axis 1 (of an input of shape (3, 1)); expected at least "
            "1");
  EXPECT_THROW((void)fft::fftfreq<Real>(0), ep::value_error);
}

// Gradients through every transform (complex128), against central differences: the primitive's
// rule is the same transform of the cotangent, the rest the facade ops' rules.
TYPED_TEST_P(Complex, FftGradientsAgainstCentralDifferences) {
  using B = typename TypeParam::template rebind<ep::complex128>;
  using C = ep::complex128;
  using Real = typename B::template rebind<double>;
  namespace fft = ep::fft;
  const auto z = ep::from_vector<B>(
      std::vector<C>{C(1, 2), C(-0.5, 0.25), C(3, -1), C(0.5, -0.75), C(-0.3, 0.6), C(2, 0.1)},
      ep::Shape{2, 3});
  std::vector<double> w;
  for (int k = 0; k < 30; ++k) w.push_back(std::sin(1.7 * k + 0.3));
  const auto weights = ep::from_vector<Real>(w, ep::Shape{30});
  // A real scalar of a transform's result: its real and imaginary parts weighted differently.
  const auto loss = [weights](const auto& t) {
    const auto flat = t.reshape({-1});
    const std::int64_t k = flat.shape()[0];
    const auto w = weights(ep::slice(0, k));
    if constexpr (ep::complex_dtype<typename std::decay_t<decltype(t)>::value_type>)
      return (flat.real() * w - flat.imag() * w.flip(0)).sum();
    else
      return (flat * w).sum();
  };
  const auto check = [&](const auto& f, const std::string& op) {
    const auto g = ep::grad(f)(z);
    expect_complex(g, numeric_gradient(f, z), 1e-6, op);
  };
  check([&](const auto& t) { return loss(fft::fft(t)); }, "fft");
  check([&](const auto& t) { return loss(fft::ifft(t, 5, 0, "ortho")); }, "ifft n=5 axis 0 ortho");
  check([&](const auto& t) { return loss(fft::fftn(t, {3, 2}, {}, "forward")); }, "fftn");
  check([&](const auto& t) { return loss(fft::ifftn(t)); }, "ifftn");
  check([&](const auto& t) { return loss(fft::irfft(t)); }, "irfft");
  check([&](const auto& t) { return loss(fft::irfft(t, 5, -1, "ortho")); }, "irfft n=5");
  check([&](const auto& t) { return loss(fft::hfft(t, 3)); }, "hfft n=3");
  check([&](const auto& t) { return loss(fft::irfftn(t, {2, 4})); }, "irfftn");
  check([&](const auto& t) { return loss(fft::rfft(t.real() * t.imag(), 4)); }, "rfft");
  check([&](const auto& t) { return loss(fft::rfftn(t.abs())); }, "rfftn");
  check([&](const auto& t) { return loss(fft::ihfft(t.real(), 5, 0)); }, "ihfft");
  check([&](const auto& t) { return loss(fft::fftshift(t) * C(0.5, -2)); }, "fftshift");
}

// pow: NumPy's npy_cpow (exact small integer exponents, a zero base), with a tensor and with C++
// scalars, and its gradient (the holomorphic derivatives) against central differences.
TYPED_TEST_P(Complex, PowerMatchesNumPy) {
  using B = TypeParam;
  using C = typename B::value_type;
  constexpr double rtol = tolerance<C>;
  const auto z = tensor<B>(E<B>::z);
  expect_complex(z.pow(tensor<B>(E<B>::w)), E<B>::power, rtol, "pow");
  expect_complex(z.pow(2), E<B>::power_2, rtol, "pow 2");
  expect_complex(ep::pow(z, C(0.5, 1)), E<B>::power_half_i, rtol, "pow (0.5 + 1j)");
  expect_complex(ep::zeros<B>(ep::Shape{4}).pow(tensor<B>({C(2), C(0), C(-1), C(0, 1)})),
                 E<B>::power_zero, 0, "pow of zero");
  using B2 = typename B::template rebind<ep::complex128>;
  using C2 = ep::complex128;
  const auto x = ep::from_vector<B2>({C2(1, 2), C2(-0.5, 0.25), C2(3, -1)}, ep::Shape{3});
  const auto e = ep::from_vector<B2>({C2(2, -1), C2(0.5, 0.5), C2(-3, 0)}, ep::Shape{3});
  const auto base = [&](const auto& t) { return (t.pow(e) * C2(0.3, -1)).real().sum(); };
  expect_complex(ep::grad(base)(x), numeric_gradient(base, x), 1e-6, "pow: d base");
  const auto exponent = [&](const auto& t) { return x.pow(t).abs().sum(); };
  expect_complex(ep::grad(exponent)(e), numeric_gradient(exponent, e), 1e-6, "pow: d exponent");
}

/// The message of the `Error` that f throws.
template <class Error, class F>
std::string error_of(const F& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no exception";
}

/// The eigenvalues of `w` sorted as np.sort_complex sorts them (real part, then imaginary).
template <class C>
std::vector<C> sort_complex(std::vector<C> w) {
  std::sort(w.begin(), w.end(), [](const C& a, const C& b) {
    return a.real() != b.real() ? a.real() < b.real() : a.imag() < b.imag();
  });
  return w;
}

// linalg with complex numbers: eig and eigvals of a real and a complex matrix against NumPy's
// eigenvalues (sorted: each solver has its own order), A V = V diag(w) with unit columns, a real
// matrix's exact conjugate pairs, a batch against its matrices; solve of complex matrices against
// NumPy; the gradients of both against central differences; the errors.
TYPED_TEST_P(Complex, EigAndSolve) {
  using B = TypeParam;
  using C = typename B::value_type;
  using R = typename C::value_type;
  using RB = typename B::template rebind<R>;
  const double rtol = std::is_same_v<C, ep::complex64> ? 1e-5 : 1e-12;
  const auto ea = ep::from_vector<RB>(E<B>::ea, ep::Shape{4, 4});
  const auto ez = tensor<B>(E<B>::z)(ep::slice(0, 9)).reshape({3, 3});
  const auto check = [&](const auto& a, const std::vector<C>& want, const std::string& op) {
    const auto [w, v] = ep::linalg::eig(a);
    static_assert(std::is_same_v<typename std::decay_t<decltype(w)>::value_type, C>);
    expect_complex(tensor<B>(sort_complex(w.to_vector())), want, rtol, op + " eigenvalues");
    expect_complex(tensor<B>(sort_complex(ep::linalg::eigvals(a).to_vector())), want, rtol,
                   op + " eigvals");
    const auto ac = a.template astype<C>();
    const double scale = ac.abs().max().item();
    EXPECT_LE((ac.matmul(v) - v * w.expand_dims(0)).abs().max().item(), 10 * rtol * scale) << op;
    const auto norms = (v.abs().square().sum(0) - R(1)).abs().max().item();
    EXPECT_LE(norms, 10 * rtol) << op << ": unit columns";
  };
  check(ea, E<B>::eigvals_ea, "eig of a real matrix");
  check(ez, E<B>::eigvals_ez, "eig of a complex matrix");
  const auto w = ep::linalg::eigvals(ea).to_vector();
  for (const C& e : w)  // a real matrix's conjugate pairs, exactly
    EXPECT_EQ(std::count(w.begin(), w.end(), std::conj(e)), 1)
        << "conjugate of " << e.real() << (e.imag() < 0 ? "" : "+") << e.imag() << "j";
  // A batch: each matrix's eigenvalues as alone.
  const auto batch = ep::stack(std::vector{ez, ez.conj() * C(0, 1)});
  const auto wb = ep::linalg::eigvals(batch);
  EXPECT_EQ(wb.shape(), (ep::Shape{2, 3}));
  EXPECT_EQ(wb(1).to_vector(), ep::linalg::eigvals(ez.conj() * C(0, 1)).to_vector());
  EXPECT_EQ(ep::linalg::eig(ep::zeros<B>(ep::Shape{2, 0, 0})).eigenvectors.shape(),
            (ep::Shape{2, 0, 0}));
  // solve with a vector and a matrix right-hand side.
  const auto wv = tensor<B>(E<B>::w);
  expect_complex(ep::linalg::solve(ez, wv(ep::slice(0, 3))), E<B>::solve_ez_w3, rtol, "solve");
  expect_complex(ep::linalg::solve(ez, wv(ep::slice(0, 6)).reshape({3, 2})), E<B>::solve_ez_w32,
                 rtol, "solve (3, 2)");
  // Errors.
  EXPECT_EQ(error_of<ep::value_error>([&] { (void)ep::linalg::eig(ez(ep::slice(0, 2))); }),
            "eig: got a tensor of shape (2, 3); expected a stack of square matrices (..., n, n)");
  EXPECT_EQ(error_of<ep::linalg_error>([&] {
              (void)ep::linalg::solve(ep::zeros<B>(ep::Shape{2, 2}), wv(ep::slice(0, 2)));
            }),
            "solve: the matrix of the stack of shape (2, 2) is singular");

  // Gradients, in complex128: of the eigenvalues and of a loss of |V| (each column's phase is
  // arbitrary; |V| is not), for a real and a complex matrix.
  using B2 = typename B::template rebind<ep::complex128>;
  using RB2 = typename B::template rebind<double>;
  using C2 = ep::complex128;
  const auto c = ep::from_vector<RB2>({0.3, -0.7, 1.1, 0.4}, ep::Shape{4});
  const auto d = ep::from_vector<RB2>(
      {0.2, 0.5, -0.4, 1.0, 0.1, 0.7, -0.3, 0.9, 0.6, -0.2, 0.8, 0.3, -0.5, 0.4, 0.2, -0.6},
      ep::Shape{4, 4});
  const auto loss = [&](const auto& a) {
    const auto [w, v] = ep::linalg::eig(a);
    const std::int64_t n = w.shape()[0];
    const auto cn = c(ep::slice(0, n));
    const auto dn = d(ep::slice(0, n), ep::slice(0, n));
    return (w.real() * cn).sum() + (w.imag().square() * cn).sum() +
           (v.abs().square().square() * dn).sum();
  };
  const auto values = [&](const auto& a) {
    const auto w = ep::linalg::eigvals(a);
    return (w.imag().square() * c(ep::slice(0, w.shape()[0]))).sum() + w.real().sum();
  };
  const auto a2 = ea.template astype<double>();
  const auto base = a2.to_vector();
  const auto real_fd = [&](const auto& f) {  // central differences of a real input
    std::vector<double> out;
    for (std::size_t k = 0; k < base.size(); ++k) {
      auto p = base, m = base;
      p[k] += 1e-6;
      m[k] -= 1e-6;
      out.push_back((f(ep::from_vector<RB2>(p, a2.shape())).item() -
                     f(ep::from_vector<RB2>(m, a2.shape())).item()) /
                    2e-6);
    }
    return out;
  };
  const auto close = [](const auto& got, const std::vector<double>& want, const std::string& op) {
    const auto g = got.to_vector();
    ASSERT_EQ(g.size(), want.size()) << op;
    for (std::size_t k = 0; k < g.size(); ++k)
      EXPECT_NEAR(g[k], want[k], 1e-6 * (1 + std::abs(want[k]))) << op << " element " << k;
  };
  close(ep::grad(loss)(a2), real_fd(loss), "eig of a real matrix: gradient");
  close(ep::grad(values)(a2), real_fd(values), "eigvals of a real matrix: gradient");
  const auto z2 = ez.template astype<C2>();
  expect_complex(ep::grad(loss)(z2), numeric_gradient(loss, z2), 1e-6,
                 "eig of a complex matrix: gradient");
  expect_complex(ep::grad(values)(z2), numeric_gradient(values, z2), 1e-6,
                 "eigvals of a complex matrix: gradient");
  const auto rhs = ep::from_vector<B2>({C2(1, -1), C2(0.5, 2), C2(-1, 0.25)}, ep::Shape{3});
  const auto solved = [&](const auto& a) { return ep::linalg::solve(a, rhs).abs().sum(); };
  expect_complex(ep::grad(solved)(z2), numeric_gradient(solved, z2), 1e-6, "solve: gradient");
}

REGISTER_TYPED_TEST_SUITE_P(Complex, UnaryTableMatchesNumPy, SpecialCases, Parts, Arithmetic,
                            ReductionsAndMatmul, GradientsAgainstCentralDifferences, Printing, Npy,
                            FftMatchesNumPy, FftRoundTripsParsevalAndErrors,
                            FftGradientsAgainstCentralDifferences, LazyBlocksEqualEager,
                            PowerMatchesNumPy, EigAndSolve);

}  // namespace complex_suite
