// eagerpp - the xtensor backend: ep::xtensor<T> over shared-storage xtensor adaptors
// SPDX-License-Identifier: MIT
#pragma once

// First: it configures xsimd before any xtensor header.
#include "eagerpp/xtensor/array.hpp"

#include <algorithm>         // std::copy_n, std::fill, std::fill_n, std::max, std::min
#include <array>             // std::array
#include <cmath>             // std::log
#include <cstddef>           // std::size_t
#include <cstdint>           // std::int64_t
#include <initializer_list>  // std::initializer_list
#include <limits>            // std::numeric_limits
#include <memory>            // std::shared_ptr, std::make_shared
#include <span>              // std::span
#include <string>            // std::string, std::to_string
#include <string_view>       // std::string_view
#include <tuple>             // std::tuple
#include <type_traits>       // std::remove_cvref_t, std::is_same_v
#include <utility>           // std::move, std::pair
#include <vector>            // std::vector

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>  // xt::eye
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>  // xt::view, xt::range, xt::all

// xtensor-blas bundles FLENS's own prototypes of the CBLAS functions
// (xflens/cxxblas/drivers/cblas.h), whose enums collide with OpenBLAS's <cblas.h> ("multiple
// definition of 'enum CBLAS_ORDER'"), so a translation unit could not include this backend and
// ep::omp (or any user of <cblas.h>). The library we link is OpenBLAS: its <cblas.h> declares what
// xtensor-blas calls, and FLENS's copy is skipped.
#include <cblas.h>  // cblas_[sd]gemm (OpenBLAS), before xtensor-blas; detail/cblas_trsm.hpp: trsm
#ifndef CXXBLAS_DRIVERS_CBLAS_H
#define CXXBLAS_DRIVERS_CBLAS_H 1
#endif
#include <xtensor-blas/xblas.hpp>    // xt::blas::gemm
#include <xtensor-blas/xlapack.hpp>  // xt::lapack::potr, gesv, getrf, geqrf, orgqr, gesdd, syevd

#include "eagerpp/astensor.hpp"
#include "eagerpp/backend.hpp"
#include "eagerpp/detail/blocks.hpp"
#include "eagerpp/detail/cblas_trsm.hpp"
#include "eagerpp/detail/expression_arithmetic.hpp"
#include "eagerpp/detail/fuse_host.hpp"
#include "eagerpp/detail/fusion.hpp"
#include "eagerpp/detail/host_kernels.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/ops/unary_defaults.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"
#include "eagerpp/xtensor/functors.hpp"
#include "eagerpp/xtensor/fuse_ops.hpp"
#include "eagerpp/xtensor/kernels.hpp"

namespace ep {

/// The xtensor backend, e.g. `ep::Tensor<ep::xtensor<float>>`; the contract is in
/// <eagerpp/backend.hpp>. Each op is an xtensor expression over flat views or one of the
/// backend's loops (xtensor/kernels.hpp), with NumPy's scalar rules from xtensor/functors.hpp.
template <class T>
struct xtensor : detail::expression_arithmetic<xtensor<T>, T, xtensor_array<T>>,
                 unary_defaults<xtensor<T>, xtensor_array<T>, T> {
  static constexpr std::string_view name = "xtensor";
  /// Element-wise ops of large floating tensors are lazy, computed in cache-sized blocks by these
  /// same functions (detail/blocks.hpp).
  static constexpr bool blocked_evaluation = true;
  using value_type = T;
  using raw_type = xtensor_array<T>;
  /// ep::fuse runs its functions here in one pass, xsimd's batches (detail/fuse_host.hpp).
  static constexpr bool fused_loops = true;
  template <class F, class... R>
  static raw_type fused_map(const F& f, const Shape& shape, const R&... xs) {
    return detail::fuse::host_fused_map<xtensor, detail::xsimd_fuse_ops<T>>(f, shape, xs...);
  }
  template <class F, class... R>
  static auto fused_grad(const F& f, const Shape& shape, const raw_type& g, const R&... xs) {
    return detail::fuse::host_fused_grad<xtensor, detail::xsimd_fuse_ops<T>>(f, shape, g, xs...);
  }
  template <class U>
  using rebind = xtensor<U>;
  using shape_type = xt::dynamic_shape<std::size_t>;

 private:
  friend detail::expression_arithmetic<xtensor, T, raw_type>;
  template <class F>
  static raw_type map(const raw_type& x, F&& f) {
    return detail::xt_kernels::map(x, std::forward<F>(f));
  }
  template <class Fn>
  static raw_type map_fn(const raw_type& x, Fn fn) {
    return detail::xt_kernels::map_fn(x, fn);
  }
  template <class F>
  static raw_type map_costly(const raw_type& x, F f) {
    return detail::xt_kernels::map_costly(x, f);
  }
  template <class U = void, class F>
  static auto zip(const raw_type& a, const raw_type& b, F&& f) {
    return detail::xt_kernels::zip<U>(a, b, std::forward<F>(f));
  }
  template <class U = void, class Fn>
  static auto zip_fn(const raw_type& a, const raw_type& b, Fn fn) {
    return detail::xt_kernels::zip_fn<U>(a, b, fn);
  }

 public:
  using rule = detail::numpy::rule;
  /// One of NumPy's scalar rules (detail/numpy_math.hpp), element by element: the contract's
  /// `zip_rule` (backend.hpp), through which ep::atan2, copysign and nextafter run; atan2 of
  /// floats through xsimd's batches.
  template <rule R>
  static raw_type zip_rule(const raw_type& a, const raw_type& b) {
    if constexpr (R == rule::atan2 && floating_dtype<T>)
      return detail::xt_kernels::zip_costly(a, b, detail::xt_functors::atan2_fn{});
    else
      return zip_fn(a, b, detail::numpy::binary_op<R>{});
  }

 private:
  template <class Op>
  static raw_type reduce(const raw_type& x, std::span<const int> axes) {
    return detail::xt_kernels::reduce_axes<Op>(x, axes);
  }
  static raw_type copy(const raw_type& x) { return detail::xt_kernels::copy(x); }
  template <class P>
  static auto flat(P* p, std::size_t n) {
    return detail::xt_kernels::flat(p, n);
  }

 public:
  // --- storage and conversion -------------------------------------------------------------------

  /// An uninitialized row-major array of `shape`, in a buffer from ep::allocate_storage.
  template <class U = T, class S>
  static xtensor_array<U> empty(const S& shape) {
    return detail::xt_kernels::empty<U>(shape);
  }

  static Shape shape(const raw_type& x) { return Shape(x.shape().begin(), x.shape().end()); }

  static raw_type from_data(const T* data, const Shape& shape) {
    raw_type out = empty(shape);
    std::copy_n(data, out.size(), out.data());
    return out;
  }

  static void to_data(const raw_type& x, T* out) { std::copy_n(x.data(), x.size(), out); }

  /// Zero-copy exchange with other host backends (see ep::to): the C-order elements, shared. The
  /// result owns a copy of the array (which shares the buffer) and points at its elements.
  static std::shared_ptr<T> share_host(const raw_type& x) {
    auto holder = std::make_shared<raw_type>(x);
    return std::shared_ptr<T>(holder, holder->data());
  }
  /// Adopts shared C-order host elements without copying them.
  static raw_type from_host_shared(std::shared_ptr<T> data, const Shape& shape) {
    return detail::xt_kernels::adopt<T>(std::move(data), static_cast<std::size_t>(shape.numel()),
                                        shape.begin(), shape.end());
  }

  /// Wraps a native xtensor container or expression. A row-major container of T passed as an
  /// rvalue is adopted without copying its elements (its buffer is kept alive by the result);
  /// anything else (lvalues, column-major containers, views, expressions) is evaluated into a
  /// new row-major buffer.
  template <class E>
  requires std::is_base_of_v<xt::xexpression<std::remove_cvref_t<E>>, std::remove_cvref_t<E>>
  static raw_type adopt(E&& native) {
    using N = std::remove_cvref_t<E>;
    if constexpr (std::is_same_v<N, raw_type>) {
      return native;
    } else {
      if constexpr (!std::is_lvalue_reference_v<E> && detail::xt_owning_container<N, T>) {
        if (native.layout() == xt::layout_type::row_major && native.is_contiguous()) {
          auto owner = std::make_shared<N>(std::move(native));
          shape_type xs(owner->shape().begin(), owner->shape().end());
          const std::size_t n = owner->size();
          T* p = owner->data();
          using buffer = typename raw_type::storage_type;
          return raw_type(buffer(p, n, std::shared_ptr<T>(std::move(owner), p)), xs);
        }
      }
      raw_type out = empty(native.shape());
      xt::noalias(out) = native;
      return out;
    }
  }

  // --- creation ---------------------------------------------------------------------------------

  static raw_type full(const Shape& shape, T value) {
    raw_type out = empty(shape);
    std::fill_n(out.data(), out.size(), value);
    return out;
  }

  static raw_type arange(T start, T step, std::int64_t n) requires numeric_dtype<T> {
    raw_type out = empty(Shape(n));
    T* p = out.data();
    for (std::int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(start + static_cast<T>(i) * step);
    return out;
  }

  /// O(1): the result shares x's buffer.
  static raw_type reshape(const raw_type& x, const Shape& shape) {
    raw_type out = x;
    out.reshape(shape_type(shape.begin(), shape.end()));
    return out;
  }

  template <class U>
  static xtensor_array<U> astype(const raw_type& x) {
    auto out = empty<U>(x.shape());
    auto o = flat(out.data(), out.size());
    const auto in = flat(x.data(), x.size());
    if constexpr (std::is_floating_point_v<T> && std::is_integral_v<U> &&
                  !std::is_same_v<U, bool>) {
      xt::noalias(o) = xt::make_lambda_xfunction(detail::xt_functors::float_to_int_fn<U>{}, in);
    } else {
      xt::noalias(o) = xt::cast<U>(in);
    }
    return out;
  }

  // --- unary element-wise -----------------------------------------------------------------------

  /// The ops of the unary table not declared below: `f` element by element (ep::unary_defaults).
  template <class F>
  static raw_type map_elements(const raw_type& x, F f, const char*) {
    auto out = detail::xt_kernels::empty<T>(x.shape());
    const T* in = x.data();
    T* o = out.data();
    for (std::size_t i = 0, n = x.size(); i < n; ++i) o[i] = f(in[i]);
    return out;
  }

  static raw_type abs(const raw_type& x) requires numeric_dtype<T> {
    return map(x, [](const auto& e) { return xt::abs(e); });
  }
  static raw_type sign(const raw_type& x) requires numeric_dtype<T> {
    return map_fn(x, detail::xt_functors::sign_fn{});
  }
  static raw_type sqrt(const raw_type& x) requires floating_dtype<T> {
    return map(x, [](const auto& e) { return xt::sqrt(e); });
  }
  static raw_type square(const raw_type& x) requires numeric_dtype<T> {
    return map(x, [](const auto& e) { return e * e; });
  }
  static raw_type exp(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, detail::xt_functors::exp_fn{});
  }
  static raw_type expm1(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::expm1;
      return expm1(v);
    });
  }
  static raw_type log(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::log;
      return log(v);
    });
  }
  static raw_type log2(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::log2;
      return log2(v);
    });
  }
  static raw_type log10(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::log10;
      return log10(v);
    });
  }
  static raw_type log1p(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::log1p;
      return log1p(v);
    });
  }
  static raw_type sin(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::sin;
      return sin(v);
    });
  }
  static raw_type cos(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::cos;
      return cos(v);
    });
  }
  static raw_type tan(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::tan;
      return tan(v);
    });
  }
  static raw_type arcsin(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::asin;
      return asin(v);
    });
  }
  static raw_type arccos(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::acos;
      return acos(v);
    });
  }
  static raw_type arctan(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::atan;
      return atan(v);
    });
  }
  static raw_type sinh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::sinh;
      return sinh(v);
    });
  }
  static raw_type cosh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::cosh;
      return cosh(v);
    });
  }
  static raw_type tanh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::tanh;
      return tanh(v);
    });
  }
  static raw_type arcsinh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::asinh;
      return asinh(v);
    });
  }
  static raw_type arccosh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::acosh;
      return acosh(v);
    });
  }
  static raw_type arctanh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) {
      using std::atanh;
      return atanh(v);
    });
  }

  /// Half to even, as NumPy's round; the identity on integers.
  static raw_type round(const raw_type& x) requires numeric_dtype<T> {
    if constexpr (floating_dtype<T>)
      return map(x, [](const auto& e) { return xt::nearbyint(e); });
    else
      return copy(x);
  }
  static raw_type ceil(const raw_type& x) requires numeric_dtype<T> {
    if constexpr (floating_dtype<T>)
      return map_fn(x, detail::xt_functors::ceil_fn{});
    else
      return copy(x);
  }
  static raw_type floor(const raw_type& x) requires numeric_dtype<T> {
    if constexpr (floating_dtype<T>)
      return map_fn(x, detail::xt_functors::floor_fn{});
    else
      return copy(x);
  }
  static raw_type negative(const raw_type& x) requires numeric_dtype<T> {
    if constexpr (floating_dtype<T>)
      return map_fn(x, detail::xt_functors::negative_fn{});  // the sign bit flipped
    else
      return map(x, [](const auto& e) { return -e; });
  }
  static raw_type logical_not(const raw_type& x) requires std::is_same_v<T, bool> {
    return map(x, [](const auto& e) { return !e; });
  }

  static raw_type clip(const raw_type& x, T lo, T hi) requires numeric_dtype<T> {
    return map_fn(x, detail::xt_functors::clip_fn<T>{lo, hi});
  }

  static xtensor_array<bool> isnan(const raw_type& x) {
    auto out = empty<bool>(x.shape());
    auto o = flat(out.data(), out.size());
    if constexpr (floating_dtype<T>)
      xt::noalias(o) = xt::isnan(flat(x.data(), x.size()));
    else
      std::fill_n(out.data(), out.size(), false);
    return out;
  }
  static xtensor_array<bool> isinf(const raw_type& x) {
    auto out = empty<bool>(x.shape());
    auto o = flat(out.data(), out.size());
    if constexpr (floating_dtype<T>)
      xt::noalias(o) = xt::isinf(flat(x.data(), x.size()));
    else
      std::fill_n(out.data(), out.size(), false);
    return out;
  }

  // --- binary element-wise ----------------------------------------------------------------------

  // add, subtract, multiply, divide, logical_and, logical_or: detail::expression_arithmetic.
  static raw_type floor_divide(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip_rule<rule::floor_divide>(a, b);
  }
  static raw_type mod(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip_rule<rule::mod>(a, b);
  }
  static raw_type power(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    // Element by element with std::pow, which is exact where the result is representable (3^2 is 9,
    // not 8.999999999999998 as xsimd's vectorized exp(y log x) gives) and 0^0 = 1, as NumPy.
    if constexpr (floating_dtype<T>)
      return zip_fn(a, b, detail::xt_functors::float_power_fn{});
    else
      return zip_rule<rule::int_power>(a, b);
  }
  static raw_type minimum(const raw_type& a, const raw_type& b) {
    return zip_fn(a, b, detail::xt_functors::minimum_fn{});
  }
  static raw_type maximum(const raw_type& a, const raw_type& b) {
    return zip_fn(a, b, detail::xt_functors::maximum_fn{});
  }

  // Comparisons: xt::equal, not xtensor's operator==, which compares whole arrays.
  static xtensor_array<bool> less(const raw_type& a, const raw_type& b) {
    if constexpr (std::is_same_v<T, bool>)
      return zip_fn<bool>(a, b, detail::xt_functors::less_fn{});
    else
      return zip<bool>(a, b, [](const auto& x, const auto& y) { return xt::less(x, y); });
  }
  static xtensor_array<bool> less_equal(const raw_type& a, const raw_type& b) {
    if constexpr (std::is_same_v<T, bool>)
      return zip_fn<bool>(a, b, detail::xt_functors::less_equal_fn{});
    else
      return zip<bool>(a, b, [](const auto& x, const auto& y) { return xt::less_equal(x, y); });
  }
  static xtensor_array<bool> greater(const raw_type& a, const raw_type& b) {
    if constexpr (std::is_same_v<T, bool>)
      return zip_fn<bool>(a, b, detail::xt_functors::greater_fn{});
    else
      return zip<bool>(a, b, [](const auto& x, const auto& y) { return xt::greater(x, y); });
  }
  static xtensor_array<bool> greater_equal(const raw_type& a, const raw_type& b) {
    if constexpr (std::is_same_v<T, bool>)
      return zip_fn<bool>(a, b, detail::xt_functors::greater_equal_fn{});
    else
      return zip<bool>(a, b, [](const auto& x, const auto& y) { return xt::greater_equal(x, y); });
  }
  static xtensor_array<bool> equal(const raw_type& a, const raw_type& b) {
    return zip<bool>(a, b, [](const auto& x, const auto& y) { return xt::equal(x, y); });
  }
  static xtensor_array<bool> not_equal(const raw_type& a, const raw_type& b) {
    return zip_fn<bool>(a, b, detail::xt_functors::not_equal_fn{});
  }

  static raw_type where(const xtensor_array<bool>& cond, const raw_type& x, const raw_type& y) {
    namespace k = detail::xt_kernels;
    if (!k::same_shape(cond, x) || !k::same_shape(x, y)) {
      // Materialize the operands at the broadcast shape (strided copies are fast; xtensor's
      // broadcasting assignment is not), then select over equal shapes.
      const Shape sxc = broadcast_shapes(k::shape_of(cond), shape(x), "where");
      const Shape s = broadcast_shapes(sxc, shape(y), "where");
      const auto grow = [&s](const auto& e) {
        return k::shape_of(e) == s ? e : k::broadcast_to(e, s);
      };
      return where(grow(cond), grow(x), grow(y));
    }
    // A loop GCC vectorizes into blends (detail::host_select): xt::where over a bool mask is a
    // branch per element in xtensor 0.24.
    raw_type out = empty(x.shape());
    detail::host_select<false, false>(out.data(),
                                      reinterpret_cast<const unsigned char*>(cond.data()), x.data(),
                                      y.data(), static_cast<std::int64_t>(out.size()));
    return out;
  }

  // --- reductions -------------------------------------------------------------------------------

  static raw_type sum(const raw_type& x, std::span<const int> axes) requires numeric_dtype<T> {
    return reduce<detail::xt_kernels::sum_op>(x, axes);
  }
  static raw_type prod(const raw_type& x, std::span<const int> axes) requires numeric_dtype<T> {
    return reduce<detail::xt_kernels::prod_op>(x, axes);
  }
  static raw_type min(const raw_type& x, std::span<const int> axes) {
    return reduce<detail::xt_kernels::min_op>(x, axes);
  }
  static raw_type max(const raw_type& x, std::span<const int> axes) {
    return reduce<detail::xt_kernels::max_op>(x, axes);
  }
  static raw_type all(const raw_type& x, std::span<const int> axes) {
    return reduce<detail::xt_kernels::all_op>(x, axes);
  }
  static raw_type any(const raw_type& x, std::span<const int> axes) {
    return reduce<detail::xt_kernels::any_op>(x, axes);
  }

  /// reduce(map(x)) over every element in one vectorized pass: the facade's fused
  /// `x.square().sum()`, `x.abs().max()` (detail/fusion.hpp). Shape (); x is not empty.
  template <detail::reduce_kind Reduce>
  static raw_type map_reduce(detail::map_kind m, const raw_type& x) requires numeric_dtype<T> {
    namespace k = detail::xt_kernels;
    if constexpr (Reduce == detail::reduce_kind::min)
      return k::map_reduce<k::min_op>(m, x);
    else if constexpr (Reduce == detail::reduce_kind::max)
      return k::map_reduce<k::max_op>(m, x);
    else
      return k::map_reduce<k::sum_op>(m, x);
  }
  static xtensor_array<std::int64_t> argmin(const raw_type& x, int axis) {
    return detail::xt_kernels::arg_reduce_axis<false>(x, axis);
  }
  static xtensor_array<std::int64_t> argmax(const raw_type& x, int axis) {
    return detail::xt_kernels::arg_reduce_axis<true>(x, axis);
  }
  static raw_type cumsum(const raw_type& x, int axis) requires numeric_dtype<T> {
    return detail::xt_kernels::cumsum_axis(x, axis);
  }

  // --- shape and indexing -----------------------------------------------------------------------

  // Strided copies (xt_kernels::strided_copy), one loop over merged dimensions.
  static raw_type transpose(const raw_type& x, std::span<const int> perm) {
    return detail::xt_kernels::transpose(x, perm);
  }
  static raw_type broadcast_to(const raw_type& x, const Shape& shape) {
    return detail::xt_kernels::broadcast_to(x, shape);
  }
  static raw_type flip(const raw_type& x, std::span<const int> axes) {
    return detail::xt_kernels::flip(x, axes);
  }
  static raw_type slice(const raw_type& x, std::span<const std::int64_t> start,
                        std::span<const std::int64_t> step, const Shape& out_shape) {
    return detail::xt_kernels::slice(x, start, step, out_shape);
  }
  static raw_type pad(const raw_type& x, std::span<const std::int64_t> before,
                      std::span<const std::int64_t> after, T value) {
    return detail::xt_kernels::pad(x, before, after, value);
  }

  // Gather, scatter and sort: the shared host loops (xtensor's argsort is not stable).
  static raw_type take(const raw_type& x, const xtensor_array<std::int64_t>& index) {
    raw_type out = empty(index.shape());
    detail::host_take(x.data(), index.data(), static_cast<std::int64_t>(index.size()), out.data());
    return out;
  }
  static raw_type put(const raw_type& x, const xtensor_array<std::int64_t>& index,
                      const raw_type& values) {
    raw_type out = from_data(x.data(), shape(x));
    detail::host_put<false>(out.data(), index.data(), values.data(),
                            static_cast<std::int64_t>(index.size()));
    return out;
  }
  static raw_type put_add(const raw_type& x, const xtensor_array<std::int64_t>& index,
                          const raw_type& values) requires numeric_dtype<T> {
    raw_type out = from_data(x.data(), shape(x));
    detail::host_put<true>(out.data(), index.data(), values.data(),
                           static_cast<std::int64_t>(index.size()));
    return out;
  }
  static raw_type sort(const raw_type& x, int axis) {
    raw_type out = empty(x.shape());
    if (out.size() > 0) detail::host_sort(x.data(), shape(x), axis, out.data());
    return out;
  }
  static xtensor_array<std::int64_t> argsort(const raw_type& x, int axis) {
    auto out = empty<std::int64_t>(x.shape());
    if (out.size() > 0) detail::host_argsort(x.data(), shape(x), axis, out.data());
    return out;
  }

  static raw_type concatenate(std::span<const raw_type> parts, int axis) {
    return detail::xt_kernels::concatenate<T>(parts, axis);
  }

  // --- linear algebra ---------------------------------------------------------------------------

  /// xtensor-blas's gemm (OpenBLAS's sgemm, dgemm) per batch for float and double, or its gemv
  /// where one side is a vector (OpenBLAS forwards such a gemm to gemv only from 0.3.28; Debian 12
  /// has 0.3.21), reading a transposed operand in place through BLAS's transpose flag; a plain loop
  /// for int32 and int64.
  static raw_type matmul(const raw_type& a, const raw_type& b, bool transpose_a,
                         bool transpose_b) requires numeric_dtype<T> {
    const std::size_t r = a.dimension();
    const std::size_t n = a.shape()[r - (transpose_a ? 1 : 2)],
                      k = a.shape()[r - (transpose_a ? 2 : 1)];
    const std::size_t m = b.shape()[r - (transpose_b ? 2 : 1)];
    shape_type s = a.shape();
    s[r - 2] = n;
    s[r - 1] = m;
    raw_type out = empty(s);
    const std::size_t batches = n * m == 0 ? 0 : out.size() / (n * m);
    if constexpr (std::is_floating_point_v<T>) {
      if (k == 0) {  // BLAS rejects a leading dimension of 0
        std::fill_n(out.data(), out.size(), T(0));
        return out;
      }
      using matrix = std::array<std::size_t, 2>;
      using vector = std::array<std::size_t, 1>;
      const matrix sa = transpose_a ? matrix{k, n} : matrix{n, k};
      const matrix sb = transpose_b ? matrix{m, k} : matrix{k, m};
      for (std::size_t i = 0; i < batches; ++i) {
        // Row-major adaptors of each stored block: BLAS reads them in place, no copy.
        const T* pa = a.data() + i * n * k;
        const T* pb = b.data() + i * k * m;
        T* pc = out.data() + i * n * m;
        if (m == 1) {  // op(B) is a contiguous column: C = op(A) b (X.matmul(w) and its gradient)
          auto c = xt::adapt(pc, n, xt::no_ownership(), vector{n});
          xt::blas::gemv(xt::adapt(pa, n * k, xt::no_ownership(), sa),
                         xt::adapt(pb, k, xt::no_ownership(), vector{k}), c, transpose_a);
        } else if (n == 1) {  // op(A) is a contiguous row: C^T = op(B)^T a
          auto c = xt::adapt(pc, m, xt::no_ownership(), vector{m});
          xt::blas::gemv(xt::adapt(pb, k * m, xt::no_ownership(), sb),
                         xt::adapt(pa, k, xt::no_ownership(), vector{k}), c, !transpose_b);
        } else {
          auto c = xt::adapt(pc, n * m, xt::no_ownership(), matrix{n, m});
          xt::blas::gemm(xt::adapt(pa, n * k, xt::no_ownership(), sa),
                         xt::adapt(pb, k * m, xt::no_ownership(), sb), c, transpose_a, transpose_b);
        }
      }
    } else {
      for (std::size_t i = 0; i < batches; ++i)
        detail::xt_kernels::int_gemm(a.data() + i * n * k, transpose_a, b.data() + i * k * m,
                                     transpose_b, out.data() + i * n * m, n, k, m);
    }
    return out;
  }

  // --- decompositions (ep::linalg) --------------------------------------------------------------

  // xtensor-blas's LAPACK calls (xt::lapack) on each matrix of the stack in turn, a column-major
  // copy of it in a workspace that the batch reuses, the results copied back in C order; both
  // copies are tiled transposes (transpose below), which are faster than xtensor's assignments
  // between the layouts. A matrix that fails (not positive definite,
  // singular, no convergence) has NaN results.

  /// potrf of the column-major xᵀ, which is x's C-order elements as they are: its upper triangle
  /// ('U') is x's lower one, and its factor U (xᵀ = Uᵀ U) read in C order is L = Uᵀ; the factor's
  /// upper triangle zeroed.
  static raw_type cholesky(const raw_type& x, std::int64_t& failed) requires floating_dtype<T> {
    failed = -1;
    const auto [batch, n, unused] = stack(x, "cholesky");
    raw_type out = empty(x.shape());
    for (std::size_t b = 0; b < batch && n > 0; ++b) {
      T* l = out.data() + b * n * n;
      std::copy_n(x.data() + b * n * n, n * n, l);
      auto u = column_major_at(l, n, n);
      if (xt::lapack::potr(u, 'U') != 0) {  // INFO > 0: not positive definite
        std::fill_n(l, n * n, nan);
        if (failed < 0) failed = static_cast<std::int64_t>(b);
        continue;
      }
      for (std::size_t i = 0; i + 1 < n; ++i) std::fill(l + i * n + i + 1, l + (i + 1) * n, T(0));
    }
    return out;
  }

  /// gesv (getrf, then getrs), or getrf alone for k = 0, which still reports a singular matrix.
  static raw_type solve(const raw_type& a, const raw_type& rhs,
                        std::int64_t& failed) requires floating_dtype<T> {
    failed = -1;
    const auto [batch, n, unused] = stack(a, "solve");
    const std::size_t k = rhs.shape().back();
    raw_type out = empty(rhs.shape());
    col_matrix lu, x;
    std::vector<xt::blas_index_t> pivots(n);
    for (std::size_t b = 0; b < batch && n > 0; ++b) {
      T* xb = out.data() + b * n * k;
      to_column_major(a.data() + b * n * n, n, n, lu);
      int info = 0;
      if (k == 0) {
        info = xt::lapack::getrf(lu, pivots);
      } else {
        to_column_major(rhs.data() + b * n * k, n, k, x);
        info = xt::lapack::gesv(lu, x);
      }
      if (info != 0) {  // INFO > 0: a zero pivot
        std::fill_n(xb, n * k, nan);
        if (failed < 0) failed = static_cast<std::int64_t>(b);
      } else {
        from_column_major(x, xb);
      }
    }
    return out;
  }

  /// op(a) x = b by BLAS's trsm (OpenBLAS's CBLAS, which reads the C-order matrices as they are),
  /// b copied into the output and solved in place; an exact zero on a's diagonal is a singular
  /// matrix, as LAPACK's trtrs reports it.
  static raw_type triangular_solve(const raw_type& a, const raw_type& rhs, bool upper,
                                   bool transpose, bool unit_diagonal,
                                   std::int64_t& failed) requires floating_dtype<T> {
    failed = -1;
    const auto [batch, n, unused] = stack(a, "solve_triangular");
    const std::size_t k = rhs.shape().back();
    raw_type out = empty(rhs.shape());
    for (std::size_t b = 0; b < batch; ++b)
      if (!detail::cblas_triangular_solve(a.data() + b * n * n, rhs.data() + b * n * k,
                                          out.data() + b * n * k, static_cast<std::int64_t>(n),
                                          static_cast<std::int64_t>(k), upper, transpose,
                                          unit_diagonal) &&
          failed < 0)
        failed = static_cast<std::int64_t>(b);
    return out;
  }

  /// geqrf, then orgqr forms Q's columns in place from the reflectors, in a workspace with room
  /// for Q's m columns when complete.
  static std::pair<raw_type, raw_type> qr(const raw_type& x,
                                          bool complete) requires floating_dtype<T> {
    const auto [batch, m, n] = stack(x, "qr");
    const std::size_t k = std::min(m, n), kq = complete ? m : k;
    raw_type q = empty(stack_shape(x, {m, kq})), r = empty(stack_shape(x, {kq, n}));
    if (k == 0) {  // no reflectors: Q is the identity, R is empty
      for (std::size_t b = 0; b < batch; ++b) {
        auto qb = matrix_at(q.data() + b * m * kq, m, kq);
        xt::noalias(qb) = xt::eye<T>({m, kq});
      }
      return {q, r};
    }
    std::vector<T> workspace(m * std::max(n, kq));
    auto a = column_major_at(workspace.data(), m, n);
    auto qa = column_major_at(workspace.data(), m, kq);
    xt::xtensor<T, 1> tau = xt::xtensor<T, 1>::from_shape({k});
    for (std::size_t b = 0; b < batch; ++b) {
      T* rb = r.data() + b * kq * n;
      transpose(x.data() + b * m * n, m, n, n, workspace.data(), m);
      xt::lapack::geqrf(a, tau);
      transpose(workspace.data(), n, kq, m, rb, n);  // R: the first kq rows, below the diagonal 0
      for (std::size_t i = 1; i < kq; ++i) std::fill_n(rb + i * n, std::min(i, n), T(0));
      xt::lapack::orgqr(qa, tau, static_cast<xt::blas_index_t>(kq));
      transpose(workspace.data(), kq, m, m, q.data() + b * m * kq, kq);
    }
    return {q, r};
  }

  /// gesdd ('A' full, 'S' reduced): U, S descending, Vh.
  static std::tuple<raw_type, raw_type, raw_type> svd(const raw_type& x,
                                                      bool full) requires floating_dtype<T> {
    const auto [batch, m, n] = stack(x, "svd");
    const std::size_t k = std::min(m, n), ku = full ? m : k, kv = full ? n : k;
    raw_type u = empty(stack_shape(x, {m, ku})), s = empty(stack_shape(x, {k})),
             vh = empty(stack_shape(x, {kv, n}));
    col_matrix a;
    for (std::size_t b = 0; b < batch; ++b) {
      auto ub = matrix_at(u.data() + b * m * ku, m, ku);
      auto vb = matrix_at(vh.data() + b * kv * n, kv, n);
      if (k == 0) {  // no singular values; full U and Vh are identities
        xt::noalias(ub) = xt::eye<T>({m, ku});
        xt::noalias(vb) = xt::eye<T>({kv, n});
        continue;
      }
      auto sb = flat(s.data() + b * k, k);
      to_column_major(x.data() + b * m * n, m, n, a);
      // gesdd's own column-major U, S and VT
      const auto [info, uc, sc, vtc] = xt::lapack::gesdd(a, full ? 'A' : 'S');
      if (info != 0) {  // INFO > 0: the iteration did not converge
        ub.fill(nan);
        sb.fill(nan);
        vb.fill(nan);
      } else {
        from_column_major(uc, ub.data());
        xt::noalias(sb) = sc;
        from_column_major(vtc, vb.data());
      }
    }
    return {u, s, vh};
  }

  /// gesdd without vectors ('N').
  static raw_type svdvals(const raw_type& x) requires floating_dtype<T> {
    const auto [batch, m, n] = stack(x, "svdvals");
    const std::size_t k = std::min(m, n);
    raw_type s = empty(stack_shape(x, {k}));
    col_matrix a;
    for (std::size_t b = 0; b < batch && k > 0; ++b) {
      auto sb = flat(s.data() + b * k, k);
      to_column_major(x.data() + b * m * n, m, n, a);
      const auto [info, uc, sc, vtc] = xt::lapack::gesdd(a, 'N');  // uc, vtc empty
      if (info != 0)  // INFO > 0: the iteration did not converge
        sb.fill(nan);
      else
        xt::noalias(sb) = sc;
    }
    return s;
  }

  /// syevd ('L': x's lower triangle): w ascending, the eigenvectors V's columns.
  static std::pair<raw_type, raw_type> eigh(const raw_type& x) requires floating_dtype<T> {
    const auto [batch, n, unused] = stack(x, "eigh");
    raw_type w = empty(stack_shape(x, {n})), v = empty(x.shape());
    col_matrix a;
    for (std::size_t b = 0; b < batch && n > 0; ++b) {
      auto wb = flat(w.data() + b * n, n);
      T* vb = v.data() + b * n * n;
      to_column_major(x.data() + b * n * n, n, n, a);
      if (xt::lapack::syevd(a, 'V', 'L', wb) != 0) {  // INFO > 0: the iteration did not converge
        wb.fill(nan);
        std::fill_n(vb, n * n, nan);
      } else {
        from_column_major(a, vb);
      }
    }
    return {w, v};
  }

  /// getrf, then xt::linalg::slogdet's sums on its factor: {0, -inf} for a zero pivot; {1, 0}
  /// for 0 x 0. (xt::linalg::slogdet itself would copy the column-major matrix once more.)
  static std::pair<raw_type, raw_type> slogdet(const raw_type& x) requires floating_dtype<T> {
    const auto [batch, n, unused] = stack(x, "slogdet");
    const shape_type bs(x.shape().begin(), x.shape().end() - 2);
    raw_type sign = empty(bs), logabs = empty(bs);
    col_matrix a;
    std::vector<xt::blas_index_t> pivots(n);
    for (std::size_t b = 0; b < batch; ++b) {
      T sg = 1, la = 0;
      if (n > 0) {
        to_column_major(x.data() + b * n * n, n, n, a);
        if (xt::lapack::getrf(a, pivots) != 0) {  // INFO > 0: a zero pivot
          sg = 0;
          la = -std::numeric_limits<T>::infinity();
        } else {
          int flips = 0;  // row interchanges and negative pivots: the sign's parity
          for (std::size_t i = 0; i < n; ++i) {
            flips += pivots[i] != static_cast<xt::blas_index_t>(i + 1);
            T d = a.data()[i * n + i];
            if (d < 0) {
              ++flips;
              d = -d;
            }
            la += std::log(d);
          }
          sg = flips % 2 != 0 ? T(-1) : T(1);
        }
      }
      sign.data()[b] = sg;
      logabs.data()[b] = la;
    }
    return {sign, logabs};
  }

 private:
  using col_matrix = xt::xtensor<T, 2, xt::layout_type::column_major>;
  static constexpr T nan = std::numeric_limits<T>::quiet_NaN();

  /// The C-order m x n matrix at `p`, in place.
  template <class P>
  static auto matrix_at(P* p, std::size_t m, std::size_t n) {
    return xt::adapt(p, m * n, xt::no_ownership(), std::array<std::size_t, 2>{m, n});
  }
  /// The column-major m x n matrix at `p`, in place.
  static auto column_major_at(T* p, std::size_t m, std::size_t n) {
    return xt::adapt<xt::layout_type::column_major>(p, m * n, xt::no_ownership(),
                                                    std::array<std::size_t, 2>{m, n});
  }

  /// The C-order rows x cols matrix at `in` (rows ldi apart) column-major at `out` (columns ldo
  /// apart), or back (detail::host_transpose_tiled).
  static void transpose(const T* in, std::size_t rows, std::size_t cols, std::size_t ldi, T* out,
                        std::size_t ldo) {
    detail::host_transpose_tiled(in, static_cast<std::int64_t>(rows),
                                 static_cast<std::int64_t>(cols), static_cast<std::int64_t>(ldi),
                                 out, static_cast<std::int64_t>(ldo));
  }
  /// The C-order m x n matrix at `p` into the column-major `a`, resized to (m, n).
  static void to_column_major(const T* p, std::size_t m, std::size_t n, col_matrix& a) {
    a.resize(std::array<std::size_t, 2>{m, n});
    transpose(p, m, n, n, a.data(), m);
  }
  /// The column-major matrix `a` (m, n) in C order at `p`.
  template <class A>
  static void from_column_major(const A& a, T* p) {
    const std::size_t m = a.shape()[0], n = a.shape()[1];
    transpose(a.data(), n, m, m, p, n);
  }

  /// {batch count, m, n} of a stack (..., m, n); ep::value_error for an m or n past LAPACK's int.
  static std::array<std::size_t, 3> stack(const raw_type& x, std::string_view op) {
    const shape_type& s = x.shape();
    const std::size_t m = s[s.size() - 2], n = s.back();
    if (std::max(m, n) > static_cast<std::size_t>(std::numeric_limits<xt::blas_index_t>::max()))
      throw value_error(std::string(op) + ": a matrix size past LAPACK's 32-bit int (" +
                        std::to_string(m) + " x " + std::to_string(n) + "); expected at most " +
                        std::to_string(std::numeric_limits<xt::blas_index_t>::max()));
    std::size_t batch = 1;
    for (std::size_t i = 0; i + 2 < s.size(); ++i) batch *= s[i];
    return {batch, m, n};
  }
  /// x's batch axes, then `last`.
  static shape_type stack_shape(const raw_type& x, std::initializer_list<std::size_t> last) {
    shape_type s(x.shape().begin(), x.shape().end() - 2);
    s.insert(s.end(), last.begin(), last.end());
    return s;
  }
};

/// `ep::astensor` of xtensor's natives: an ep::xtensor_array, an xt::xarray or an xt::xtensor
/// (moved in: adopted without copying; by reference: copied).
template <class T>
struct native_traits<xtensor_array<T>> {
  using backend = xtensor<T>;
  static xtensor_array<T> convert(const xtensor_array<T>& x) { return x; }
};
template <class T, xt::layout_type L, class A, class SA>
struct native_traits<xt::xarray<T, L, A, SA>> {
  using backend = xtensor<T>;
  template <class X>
  static xtensor_array<T> convert(X&& x) {
    return xtensor<T>::adopt(std::forward<X>(x));
  }
};
template <class T, std::size_t N, xt::layout_type L, class A>
struct native_traits<xt::xtensor<T, N, L, A>> {
  using backend = xtensor<T>;
  template <class X>
  static xtensor_array<T> convert(X&& x) {
    return xtensor<T>::adopt(std::forward<X>(x));
  }
};

}  // namespace ep

// Linked with eagerpp::xtensor_compiled, the float and double instantiations are in its library
// (detail/instantiate.hpp): this translation unit does not compile them again.
#ifdef EAGERPP_XTENSOR_COMPILED
#include "eagerpp/detail/instantiate.hpp"
EAGERPP_INSTANTIATE(extern, ep::xtensor<float>)
EAGERPP_INSTANTIATE(extern, ep::xtensor<double>)
#endif
