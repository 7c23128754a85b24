// eagerpp - the Eigen backend: ep::eigen<T>, every op an Eigen Tensor expression on TensorMaps
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::sqrt
#include <cstdint>      // std::int64_t
#include <cstring>      // std::memcpy
#include <span>         // std::span
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_same_v

#include <unsupported/Eigen/CXX11/Tensor>

#include "eagerpp/astensor.hpp"
#include "eagerpp/backend.hpp"
#include "eagerpp/detail/fusion.hpp"
#include "eagerpp/eigen/array.hpp"
#ifdef EAGERPP_FFTW
#include "eagerpp/host/fftw.hpp"  // GPL: the CMake option EAGERPP_FFTW (docs/backends.md)
#else
#include "eagerpp/eigen/fft.hpp"
#endif
#include "eagerpp/eigen/functors.hpp"
#include "eagerpp/eigen/fuse_ops.hpp"
#include "eagerpp/eigen/kernels.hpp"
#include "eagerpp/eigen/linalg.hpp"
#include "eagerpp/eigen/matmul.hpp"
#include "eagerpp/eigen/threads.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/host/block_reductions.hpp"
#include "eagerpp/host/blocks.hpp"
#include "eagerpp/host/expression_arithmetic.hpp"
#include "eagerpp/host/fuse_host.hpp"
#include "eagerpp/host/host_kernels.hpp"
#include "eagerpp/ops/binary_defaults.hpp"
#include "eagerpp/ops/unary_defaults.hpp"
#include "eagerpp/shape.hpp"

namespace ep {

/// The Eigen backend (Eigen 3.4, unsupported Tensor module), as TensorFlow's CPU kernels use it:
/// the raw tensor is an ep::eigen_array<T> (shared C-order storage) and every op evaluates an
/// Eigen Tensor expression over TensorMaps of it, single-threaded, into a new buffer. Element-wise
/// ops run on rank-1 maps and vectorize; other ops merge dimensions, then switch on the rank.
/// Ops that make no sense for a dtype are constrained away: `ep::eigen<bool>::add` does not exist.
template <class T>
struct eigen : detail::expression_arithmetic<eigen<T>, T, eigen_array<T>>,
               unary_defaults<eigen<T>, eigen_array<T>, T>,
               binary_defaults<eigen<T>, eigen_array<T>, T> {
  static_assert(dtype<T>,
                "ep::eigen<T>: T must be one of the array API's real dtypes: bool, std::int8_t ... "
                "std::uint64_t, float or double");

  static constexpr std::string_view name = "eigen";
  /// Element-wise ops of large floating tensors are lazy, computed in cache-sized blocks by these
  /// same functions (host/blocks.hpp).
  static constexpr bool blocked_evaluation = true;
  using value_type = T;
  using raw_type = eigen_array<T>;
  /// ep::fuse runs its functions here in one pass, Eigen's packet math (host/fuse_host.hpp).
  static constexpr bool fused_loops = true;
  template <class F, class... R>
  static raw_type fused_map(const F& f, const Shape& shape, const R&... xs) {
    return detail::fuse::host_fused_map<eigen, detail::eigen_fuse_ops<T>>(f, shape, xs...);
  }
  template <class F, class... R>
  static auto fused_grad(const F& f, const Shape& shape, const raw_type& g, const R&... xs) {
    return detail::fuse::host_fused_grad<eigen, detail::eigen_fuse_ops<T>>(f, shape, g, xs...);
  }
  template <class U>
  using rebind = eigen<U>;

 private:
  friend detail::expression_arithmetic<eigen, T, raw_type>;
  using bool_raw = eigen_array<bool>;
  static constexpr bool is_floating = floating_dtype<T>;
  // NumPy's minimum, maximum, min and max propagate NaN; Eigen's default (PropagateFast) does not.
  static constexpr int nan_policy = is_floating ? Eigen::PropagateNaN : Eigen::PropagateFast;

  template <class F>
  static raw_type map(const raw_type& x, F&& f) {
    return detail::eigen_unary<T>(x, std::forward<F>(f));
  }
  template <class Functor>
  static raw_type apply(const raw_type& x) {
    return map(x, [](const auto& v) { return v.unaryExpr(Functor()); });
  }
  template <class F>
  static raw_type zip(const raw_type& a, const raw_type& b, F&& f) {
    return detail::eigen_binary<T>(a, b, std::forward<F>(f));
  }
  template <class F>
  static bool_raw compare(const raw_type& a, const raw_type& b, F&& f) {
    return detail::eigen_binary<bool>(a, b, std::forward<F>(f));
  }
  template <class Functor>
  static raw_type zip_with(const raw_type& a, const raw_type& b) {
    return zip(a, b, [](const auto& x, const auto& y) { return x.binaryExpr(y, Functor()); });
  }

 public:
  using rule = detail::numpy::rule;
  /// One of NumPy's scalar rules (detail/numpy_math.hpp), element by element: the contract's
  /// `zip_rule` (backend.hpp).
  template <rule R>
  static raw_type zip_rule(const raw_type& a, const raw_type& b) {
    return zip_with<detail::numpy::binary_op<R>>(a, b);
  }
  /// The primitives of the binary functions' table not declared below: `f` element by element
  /// (ep::binary_defaults).
  template <class F>
  static raw_type zip_elements(const raw_type& a, const raw_type& b, F f, const char*) {
    return zip(a, b, [f](const auto& x, const auto& y) { return x.binaryExpr(y, f); });
  }

  // --- storage ------------------------------------------------------------------------------

  static const Shape& shape(const raw_type& x) { return x.shape(); }

  static raw_type from_data(const T* data, const Shape& shape) {
    raw_type out(shape);
    if (out.size() > 0)
      std::memcpy(out.mutable_data(), data, static_cast<std::size_t>(out.size()) * sizeof(T));
    return out;
  }

  static void to_data(const raw_type& x, T* out) {
    if (x.size() > 0) std::memcpy(out, x.data(), static_cast<std::size_t>(x.size()) * sizeof(T));
  }

  /// Zero-copy exchange with other host backends (see ep::to): the C-order elements, shared.
  static std::shared_ptr<T> share_host(const raw_type& x) { return x.share(); }
  /// Adopts shared C-order host elements, at any address (a view into a buffer: the maps are
  /// unaligned, eigen/array.hpp).
  static raw_type from_host_shared(std::shared_ptr<T> data, const Shape& shape) {
    return raw_type(std::move(data), shape);
  }

  // --- creation -----------------------------------------------------------------------------

  static raw_type full(const Shape& shape, T value) { return detail::eigen_full(shape, value); }

  static raw_type arange(T start, T step, std::int64_t n) requires numeric_dtype<T> {
    raw_type out{Shape(n)};
    T* p = out.mutable_data();
    for (std::int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(start + static_cast<T>(i) * step);
    return out;
  }

  // --- conversion ---------------------------------------------------------------------------

  /// O(1): the result shares the storage.
  static raw_type reshape(const raw_type& x, const Shape& shape) { return x.reshaped(shape); }

  /// C++ conversion of each element (float to int truncates; to bool tests != 0, NaN is true).
  template <class U>
  static eigen_array<U> astype(const raw_type& x) {
    if constexpr (std::is_same_v<U, T>) {
      return x;
    } else {
      return detail::eigen_unary<U>(x, [](const auto& v) { return v.template cast<U>(); });
    }
  }

  // --- element-wise: unary ------------------------------------------------------------------

  /// The ops of the unary table not declared below, and the complex ones: `f` element by element
  /// (ep::unary_defaults), into an array of f's result type.
  template <class F>
  static auto map_elements(const raw_type& x, F f, const char*) {
    using U = std::remove_cvref_t<std::invoke_result_t<const F&, const T&>>;
    return detail::eigen_unary<U>(x, [f](const auto& v) { return v.unaryExpr(f); });
  }

  static raw_type abs(const raw_type& x) requires numeric_dtype<T> {
    return map(x, [](const auto& v) { return v.abs(); });
  }
  static raw_type sign(const raw_type& x) requires numeric_dtype<T> {
    return map(x, [](const auto& v) { return v.sign(); });
  }
  static raw_type sqrt(const raw_type& x) requires floating_dtype<T> {
    return apply<detail::eigen_sqrt_op<T>>(x);  // IEEE's, not Eigen's (eigen/functors.hpp)
  }
  static raw_type square(const raw_type& x) requires numeric_dtype<T> {
    return map(x, [](const auto& v) { return v.square(); });
  }
  static raw_type exp(const raw_type& x) requires floating_dtype<T> {
    return apply<detail::eigen_exp_op<T>>(x);
  }
  static raw_type expm1(const raw_type& x) requires floating_dtype<T> {
    return map(x, [](const auto& v) { return v.expm1(); });
  }
  static raw_type log(const raw_type& x) requires floating_dtype<T> {
    return map(x, [](const auto& v) { return v.log(); });
  }
  static raw_type log2(const raw_type& x) requires floating_dtype<T> {
    return map(x, [](const auto& v) { return v.log2(); });
  }
  static raw_type log10(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_log10_op<T>>(x);
  }
  static raw_type log1p(const raw_type& x) requires floating_dtype<T> {
    return map(x, [](const auto& v) { return v.log1p(); });
  }
  static raw_type sin(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_sin_op<T>>(x);
  }
  static raw_type cos(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_cos_op<T>>(x);
  }
  static raw_type tan(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_tan_op<T>>(x);
  }
  static raw_type arcsin(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_asin_op<T>>(x);
  }
  static raw_type arccos(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_acos_op<T>>(x);
  }
  static raw_type arctan(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_atan_op<T>>(x);
  }
  static raw_type sinh(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_sinh_op<T>>(x);
  }
  static raw_type cosh(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_cosh_op<T>>(x);
  }
  static raw_type tanh(const raw_type& x) requires floating_dtype<T> {
    return map(x, [](const auto& v) { return v.tanh(); });
  }
  static raw_type arcsinh(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_asinh_op<T>>(x);
  }
  static raw_type arccosh(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_acosh_op<T>>(x);
  }
  static raw_type arctanh(const raw_type& x) requires floating_dtype<T> {
    return apply<Eigen::internal::scalar_atanh_op<T>>(x);
  }

  /// Half to even (rint under the default rounding mode); the identity on integers.
  static raw_type round(const raw_type& x) requires numeric_dtype<T> {
    if constexpr (is_floating)
      return apply<detail::eigen_signed_round_op<Eigen::internal::scalar_rint_op<T>>>(x);
    else
      return x;
  }
  static raw_type ceil(const raw_type& x) requires numeric_dtype<T> {
    if constexpr (is_floating)
      return apply<detail::eigen_signed_round_op<Eigen::internal::scalar_ceil_op<T>>>(x);
    else
      return x;
  }
  static raw_type floor(const raw_type& x) requires numeric_dtype<T> {
    if constexpr (is_floating)
      return apply<detail::eigen_signed_round_op<Eigen::internal::scalar_floor_op<T>>>(x);
    else
      return x;
  }
  static raw_type negative(const raw_type& x) requires arithmetic_dtype<T> {
    if constexpr (is_floating)
      return apply<detail::eigen_negative_op<T>>(x);  // the sign bit flipped (eigen/functors.hpp)
    else
      return map(x, [](const auto& v) { return -v; });
  }
  static raw_type logical_not(const raw_type& x) requires std::is_same_v<T, bool> {
    return apply<Eigen::internal::scalar_boolean_not_op<bool>>(x);
  }

  /// NumPy clip: NaN stays NaN.
  static raw_type clip(const raw_type& x, T lo, T hi) requires numeric_dtype<T> {
    if constexpr (is_floating)
      return map(x, [lo, hi](const auto& v) {
        return v.unaryExpr(detail::eigen_clip_op<T>{lo, hi});
      });
    else
      return map(x, [lo, hi](const auto& v) { return v.cwiseMax(lo).cwiseMin(hi); });
  }

  static bool_raw isnan(const raw_type& x) {
    if constexpr (is_floating)
      return detail::eigen_unary<bool>(x, [](const auto& v) { return v.isnan(); });
    else
      return detail::eigen_full(x.shape(), false);
  }
  static bool_raw isinf(const raw_type& x) {
    if constexpr (is_floating)
      return detail::eigen_unary<bool>(x, [](const auto& v) { return v.isinf(); });
    else
      return detail::eigen_full(x.shape(), false);
  }

  // --- element-wise: binary -----------------------------------------------------------------

  // add, subtract, multiply, divide, logical_and, logical_or: detail::expression_arithmetic.
  static raw_type floor_divide(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip_rule<rule::floor_divide>(a, b);
  }
  static raw_type mod(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip_rule<rule::mod>(a, b);
  }
  static raw_type power(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    if constexpr (is_floating)
      return zip_with<detail::eigen_pow_op<T>>(a, b);  // eigen/functors.hpp
    else
      return zip_rule<rule::int_power>(a, b);
  }
  static raw_type minimum(const raw_type& a, const raw_type& b) {
    if constexpr (std::is_same_v<T, bool>)
      return zip(a, b, [](const auto& x, const auto& y) { return x && y; });
    else if constexpr (is_floating)
      return zip_with<detail::eigen_minmax_op<T, false>>(a, b);
    else
      return zip(a, b, [](const auto& x, const auto& y) { return x.cwiseMin(y); });
  }
  static raw_type maximum(const raw_type& a, const raw_type& b) {
    if constexpr (std::is_same_v<T, bool>)
      return zip(a, b, [](const auto& x, const auto& y) { return x || y; });
    else if constexpr (is_floating)
      return zip_with<detail::eigen_minmax_op<T, true>>(a, b);
    else
      return zip(a, b, [](const auto& x, const auto& y) { return x.cwiseMax(y); });
  }

  // --- comparison ---------------------------------------------------------------------------

  static bool_raw less(const raw_type& a, const raw_type& b) {
    return compare(a, b, [](const auto& x, const auto& y) { return x < y; });
  }
  static bool_raw less_equal(const raw_type& a, const raw_type& b) {
    return compare(a, b, [](const auto& x, const auto& y) { return x <= y; });
  }
  static bool_raw greater(const raw_type& a, const raw_type& b) {
    return compare(a, b, [](const auto& x, const auto& y) { return x > y; });
  }
  static bool_raw greater_equal(const raw_type& a, const raw_type& b) {
    return compare(a, b, [](const auto& x, const auto& y) { return x >= y; });
  }
  // == and != through binaryExpr, not Eigen's operators: in C++20, x == y also considers the
  // reversed y.operator==(x), which clang rejects as ambiguous between two Tensor expressions.
  static bool_raw equal(const raw_type& a, const raw_type& b) {
    return compare(a, b, [](const auto& x, const auto& y) {
      return x.binaryExpr(y, Eigen::internal::scalar_cmp_op<T, T, Eigen::internal::cmp_EQ>());
    });
  }
  static bool_raw not_equal(const raw_type& a, const raw_type& b) {
    return compare(a, b, [](const auto& x, const auto& y) {
      return x.binaryExpr(y, Eigen::internal::scalar_cmp_op<T, T, Eigen::internal::cmp_NEQ>());
    });
  }

  /// cond ? x : y with three-way broadcasting. A one-element x or y is read as one value;
  /// other shapes that differ from the result are materialized by broadcast_to.
  static raw_type where(const bool_raw& cond, const raw_type& x, const raw_type& y) {
    const Shape shape =
        broadcast_shapes(broadcast_shapes(cond.shape(), x.shape(), "where"), y.shape(), "where");
    if (shape.numel() == 0) return raw_type(shape);
    if (cond.size() == 1) return broadcast_to(cond.data()[0] ? x : y, shape);
    const auto c = detail::eigen_broadcast_to(cond, shape);
    const bool x_scalar = x.size() == 1 && x.shape() != shape;
    const bool y_scalar = y.size() == 1 && y.shape() != shape;
    const raw_type xs = x_scalar ? x : broadcast_to(x, shape);
    const raw_type ys = y_scalar ? y : broadcast_to(y, shape);
    raw_type out(shape);
    // A vectorized loop (detail::host_select): Eigen's select gathers a bool mask one element at a
    // time.
    const auto* cm = reinterpret_cast<const unsigned char*>(c.data());
    const std::int64_t n = out.size();
    if (x_scalar && y_scalar)
      detail::host_select<true, true>(out.mutable_data(), cm, xs.data(), ys.data(), n);
    else if (x_scalar)
      detail::host_select<true, false>(out.mutable_data(), cm, xs.data(), ys.data(), n);
    else if (y_scalar)
      detail::host_select<false, true>(out.mutable_data(), cm, xs.data(), ys.data(), n);
    else
      detail::host_select<false, false>(out.mutable_data(), cm, xs.data(), ys.data(), n);
    return out;
  }

  // --- reductions ---------------------------------------------------------------------------

  static raw_type sum(const raw_type& x, std::span<const int> axes) requires arithmetic_dtype<T> {
    return detail::eigen_reduce(x, axes, T{0}, Eigen::internal::SumReducer<T>());
  }
  static raw_type prod(const raw_type& x, std::span<const int> axes) requires arithmetic_dtype<T> {
    return detail::eigen_reduce(x, axes, T{1}, Eigen::internal::ProdReducer<T>());
  }
  static raw_type min(const raw_type& x, std::span<const int> axes) {
    if constexpr (std::is_same_v<T, bool>)
      return all(x, axes);
    else
      return detail::eigen_reduce(x, axes, T{0}, Eigen::internal::MinReducer<T, nan_policy>());
  }
  static raw_type max(const raw_type& x, std::span<const int> axes) {
    if constexpr (std::is_same_v<T, bool>)
      return any(x, axes);
    else
      return detail::eigen_reduce(x, axes, T{0}, Eigen::internal::MaxReducer<T, nan_policy>());
  }
  static raw_type all(const raw_type& x,
                      std::span<const int> axes) requires std::is_same_v<T, bool> {
    return detail::eigen_reduce(x, axes, true, Eigen::internal::AndReducer());
  }
  static raw_type any(const raw_type& x,
                      std::span<const int> axes) requires std::is_same_v<T, bool> {
    return detail::eigen_reduce(x, axes, false, Eigen::internal::OrReducer());
  }
  /// reduce(map(x)) over every element in one pass: the facade's fused `x.square().sum()`,
  /// `x.abs().max()` (detail/fusion.hpp). Shape ().
  template <detail::reduce_kind Reduce>
  static raw_type map_reduce(detail::map_kind m, const raw_type& x) requires numeric_dtype<T> {
    if constexpr (Reduce == detail::reduce_kind::min)
      return detail::eigen_map_reduce(x, m, Eigen::internal::MinReducer<T, nan_policy>());
    else if constexpr (Reduce == detail::reduce_kind::max)
      return detail::eigen_map_reduce(x, m, Eigen::internal::MaxReducer<T, nan_policy>());
    else
      return detail::eigen_map_reduce(x, m, Eigen::internal::SumReducer<T>());
  }
  static eigen_array<std::int64_t> argmin(const raw_type& x, int axis) {
    return detail::eigen_arg_reduce<false>(x, axis);
  }
  static eigen_array<std::int64_t> argmax(const raw_type& x, int axis) {
    return detail::eigen_arg_reduce<true>(x, axis);
  }
  static raw_type cumsum(const raw_type& x, int axis) requires arithmetic_dtype<T> {
    return detail::eigen_cumsum(x, axis);
  }

  // --- shape and indexing -------------------------------------------------------------------

  static raw_type transpose(const raw_type& x, std::span<const int> perm) {
    return detail::eigen_transpose(x, perm);
  }
  static raw_type broadcast_to(const raw_type& x, const Shape& shape) {
    return detail::eigen_broadcast_to(x, shape);
  }
  static raw_type flip(const raw_type& x, std::span<const int> axes) {
    return detail::eigen_flip(x, axes);
  }
  static raw_type slice(const raw_type& x, std::span<const std::int64_t> start,
                        std::span<const std::int64_t> step, const Shape& shape) {
    return detail::eigen_slice(x, start, step, shape);
  }
  static raw_type pad(const raw_type& x, std::span<const std::int64_t> before,
                      std::span<const std::int64_t> after, T value) {
    return detail::eigen_pad(x, before, after, value);
  }
  static raw_type concatenate(std::span<const raw_type> parts, int axis) {
    return detail::eigen_concatenate(parts, axis);
  }

  // Gather, scatter and sort: Eigen's Tensor module has none, so the shared host loops do them.
  static raw_type take(const raw_type& x, const eigen_array<std::int64_t>& index) {
    raw_type out(index.shape());
    detail::host_take(x.data(), index.data(), index.size(), out.mutable_data());
    return out;
  }
  static raw_type put(const raw_type& x, const eigen_array<std::int64_t>& index,
                      const raw_type& values) {
    raw_type out = from_data(x.data(), x.shape());
    detail::host_put<false>(out.mutable_data(), index.data(), values.data(), index.size());
    return out;
  }
  static raw_type put_add(const raw_type& x, const eigen_array<std::int64_t>& index,
                          const raw_type& values) requires arithmetic_dtype<T> {
    raw_type out = from_data(x.data(), x.shape());
    detail::host_put<true>(out.mutable_data(), index.data(), values.data(), index.size());
    return out;
  }
  static raw_type sort(const raw_type& x, int axis) {
    raw_type out(x.shape());
    if (x.size() > 0) detail::host_sort(x.data(), x.shape(), axis, out.mutable_data());
    return out;
  }
  static eigen_array<std::int64_t> argsort(const raw_type& x, int axis) {
    eigen_array<std::int64_t> out(x.shape());
    if (x.size() > 0) detail::host_argsort(x.data(), x.shape(), axis, out.mutable_data());
    return out;
  }

  // --- linear algebra -----------------------------------------------------------------------

  /// The unnormalized DFT along `axis` of a complex tensor (ep::fft): Eigen::FFT, a line at a
  /// time (eigen/fft.hpp); FFTW's where built with EAGERPP_FFTW (host/fftw.hpp).
  static raw_type fft(const raw_type& x, int axis, bool inverse) requires complex_dtype<T> {
    raw_type out(x.shape());
#ifdef EAGERPP_FFTW
    detail::fftw_lines<typename T::value_type>(x.data(), out.mutable_data(), x.shape(), axis,
                                               inverse);
#else
    detail::eigen_fft_lines<typename T::value_type>(x.data(), out.mutable_data(), x.shape(), axis,
                                                    inverse);
#endif
    return out;
  }
  /// The first n / 2 + 1 points of the DFT along `axis` of a real tensor (ep::fft::rfft):
  /// Eigen::FFT's real transform, a line at a time (eigen/fft.hpp), or FFTW's.
  static auto rfft(const raw_type& x, int axis) requires floating_dtype<T> {
    Shape half = x.shape();
    half[axis] = half[axis] / 2 + 1;
    eigen_array<std::complex<T>> out(half);
#ifdef EAGERPP_FFTW
    detail::fftw_rfft_lines<T>(x.data(), out.mutable_data(), x.shape(), axis);
#else
    detail::eigen_rfft_lines<T>(x.data(), out.mutable_data(), x.shape(), axis);
#endif
    return out;
  }
  /// Eigen's GEMM per batch; for bool, NumPy's OR of ANDs.
  static raw_type matmul(const raw_type& a, const raw_type& b, bool transpose_a, bool transpose_b) {
    return detail::eigen_matmul(a, b, transpose_a, transpose_b);
  }

  /// The inverse of each matrix: Eigen's fixed-size inverse up to 4 x 4, else PartialPivLU.
  static raw_type inv(const raw_type& x, std::int64_t& failed) requires floating_dtype<T> {
    return detail::eigen_inv(x, failed);
  }

  // Decompositions (ep::linalg), one Eigen solver per matrix: LLT, PartialPivLU, triangularView,
  // HouseholderQR, BDCSVD, SelfAdjointEigenSolver, EigenSolver and ComplexEigenSolver
  // (eagerpp/eigen/linalg.hpp).
  static raw_type cholesky(const raw_type& x, std::int64_t& failed) requires floating_dtype<T> {
    return detail::eigen_cholesky(x, failed);
  }
  static raw_type solve(const raw_type& a, const raw_type& b,
                        std::int64_t& failed) requires inexact_dtype<T> {
    return detail::eigen_solve(a, b, failed);
  }
  static raw_type triangular_solve(const raw_type& a, const raw_type& b, bool upper, bool transpose,
                                   bool unit_diagonal,
                                   std::int64_t& failed) requires floating_dtype<T> {
    return detail::eigen_triangular_solve(a, b, upper, transpose, unit_diagonal, failed);
  }
  static std::pair<raw_type, raw_type> qr(const raw_type& x,
                                          bool complete) requires floating_dtype<T> {
    return detail::eigen_qr(x, complete);
  }
  static std::tuple<raw_type, raw_type, raw_type> svd(const raw_type& x,
                                                      bool full) requires floating_dtype<T> {
    return detail::eigen_svd(x, full);
  }
  static raw_type svdvals(const raw_type& x) requires floating_dtype<T> {
    return detail::eigen_svdvals(x);
  }
  static std::pair<raw_type, raw_type> eigh(const raw_type& x) requires floating_dtype<T> {
    return detail::eigen_eigh(x);
  }
  static std::pair<raw_type, raw_type> slogdet(const raw_type& x) requires floating_dtype<T> {
    return detail::eigen_slogdet(x);
  }
  static auto eig(const raw_type& x, bool vectors) requires inexact_dtype<T> {
    return detail::eigen_eig(x, vectors);
  }
};

/// `ep::astensor` of Eigen's natives: an ep::eigen_array, or a row-major Eigen::Tensor (moved in:
/// adopted without copying; by reference: copied).
template <class T>
struct native_traits<eigen_array<T>> {
  using backend = eigen<T>;
  static eigen_array<T> convert(const eigen_array<T>& x) { return x; }
};
template <class T, int N, int Options>
struct native_traits<Eigen::Tensor<T, N, Options, Eigen::Index>> {
  using backend = eigen<T>;
  template <class X>
  static eigen_array<T> convert(X&& x) {
    return eigen_array<T>(std::forward<X>(x));
  }
};

}  // namespace ep

// Linked with eagerpp::eigen_compiled, the float and double instantiations are in its library
// (detail/instantiate.hpp): this translation unit does not compile them again.
#ifdef EAGERPP_EIGEN_COMPILED
#include "eagerpp/detail/instantiate.hpp"
EAGERPP_INSTANTIATE(extern, ep::eigen<float>)
EAGERPP_INSTANTIATE(extern, ep::eigen<double>)
#endif
