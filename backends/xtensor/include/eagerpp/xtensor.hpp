// eagerpp - the xtensor backend: ep::xtensor<T> over shared-storage xtensor adaptors
// SPDX-License-Identifier: MIT
#pragma once

// First: it configures xsimd before any xtensor header.
#include "eagerpp/xtensor/array.hpp"

#include <algorithm>    // std::copy_n, std::fill_n
#include <cmath>        // std::log
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t
#include <memory>       // std::shared_ptr, std::make_shared
#include <span>         // std::span
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple
#include <type_traits>  // std::remove_cvref_t, std::is_same_v
#include <utility>      // std::move, std::pair

#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>  // xt::eye
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>  // xt::view, xt::range, xt::all

#include "eagerpp/astensor.hpp"
#include "eagerpp/backend.hpp"
#include "eagerpp/detail/fusion.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/host/block_reductions.hpp"
#include "eagerpp/host/blocks.hpp"
#include "eagerpp/host/expression_arithmetic.hpp"
#include "eagerpp/host/fft_library.hpp"  // kissfft, or FFTW (GPL) with EAGERPP_FFTW
#include "eagerpp/host/fuse_host.hpp"
#include "eagerpp/host/host_kernels.hpp"
#include "eagerpp/ops/binary_defaults.hpp"
#include "eagerpp/ops/unary_defaults.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"
#include "eagerpp/xtensor/functors.hpp"
#include "eagerpp/xtensor/fuse_ops.hpp"
#include "eagerpp/xtensor/kernels.hpp"
#include "eagerpp/xtensor/linalg.hpp"

namespace ep {

/// The xtensor backend, e.g. `ep::Tensor<ep::xtensor<float>>`; the contract is in
/// <eagerpp/backend.hpp>. Each op is an xtensor expression over flat views or one of the
/// backend's loops (xtensor/kernels.hpp), with NumPy's scalar rules from xtensor/functors.hpp.
template <class T>
struct xtensor : detail::expression_arithmetic<xtensor<T>, T, xtensor_array<T>>,
                 unary_defaults<xtensor<T>, xtensor_array<T>, T>,
                 binary_defaults<xtensor<T>, xtensor_array<T>, T> {
  static constexpr std::string_view name = "xtensor";
  /// Element-wise ops of large floating tensors are lazy, computed in cache-sized blocks by these
  /// same functions (host/blocks.hpp).
  static constexpr bool blocked_evaluation = true;
  using value_type = T;
  using raw_type = xtensor_array<T>;
  /// ep::fuse runs its functions here in one pass, xsimd's batches (host/fuse_host.hpp).
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
  /// `zip_rule` (backend.hpp).
  template <rule R>
  static raw_type zip_rule(const raw_type& a, const raw_type& b) {
    return zip_fn(a, b, detail::numpy::binary_op<R>{});
  }
  /// The primitives of the binary functions' table not declared below: `f` element by element
  /// (ep::binary_defaults).
  template <class F>
  static raw_type zip_elements(const raw_type& a, const raw_type& b, F f, const char*) {
    return zip_fn(a, b, f);
  }
  /// atan2 through xsimd's batches.
  static raw_type atan2(const raw_type& a, const raw_type& b) requires floating_dtype<T> {
    return detail::xt_kernels::zip_costly(a, b, detail::xt_functors::atan2_fn{});
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

  /// The ops of the unary table not declared below, and the complex ones: `f` element by element
  /// (ep::unary_defaults), into an array of f's result type.
  template <class F>
  static auto map_elements(const raw_type& x, F f, const char*) {
    using U = std::remove_cvref_t<std::invoke_result_t<const F&, const T&>>;
    auto out = detail::xt_kernels::empty<U>(x.shape());
    const T* in = x.data();
    U* o = out.data();
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
  static raw_type negative(const raw_type& x) requires arithmetic_dtype<T> {
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

  static raw_type sum(const raw_type& x, std::span<const int> axes) requires arithmetic_dtype<T> {
    return reduce<detail::xt_kernels::sum_op>(x, axes);
  }
  static raw_type prod(const raw_type& x, std::span<const int> axes) requires arithmetic_dtype<T> {
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
  static raw_type cumsum(const raw_type& x, int axis) requires arithmetic_dtype<T> {
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
                          const raw_type& values) requires arithmetic_dtype<T> {
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
  // BLAS's products and LAPACK's decompositions, a matrix of the stack at a time
  // (xtensor/linalg.hpp).

  /// The unnormalized DFT along `axis` of a complex tensor (ep::fft): kissfft, a line at a time,
  /// or FFTW where built with EAGERPP_FFTW (host/fft_library.hpp).
  static raw_type fft(const raw_type& x, int axis, bool inverse) requires complex_dtype<T> {
    auto out = detail::xt_kernels::empty<T>(x.shape());
    detail::cpu_fft_lines<typename T::value_type>(x.data(), out.data(), shape(x), axis, inverse);
    return out;
  }
  /// The first n / 2 + 1 points of the DFT along `axis` of a real tensor (ep::fft::rfft):
  /// kissfft's real transform, or FFTW's where built with EAGERPP_FFTW (host/fft_library.hpp).
  static auto rfft(const raw_type& x, int axis) requires floating_dtype<T> {
    Shape half = shape(x);
    half[axis] = half[axis] / 2 + 1;
    auto out = detail::xt_kernels::empty<std::complex<T>>(
        xt::dynamic_shape<std::size_t>(half.begin(), half.end()));
    detail::cpu_rfft_lines<T>(x.data(), out.data(), shape(x), axis);
    return out;
  }
  static raw_type matmul(const raw_type& a, const raw_type& b, bool transpose_a,
                         bool transpose_b) requires arithmetic_dtype<T> {
    return detail::xt_linalg<T>::matmul(a, b, transpose_a, transpose_b);
  }
  static raw_type cholesky(const raw_type& x, std::int64_t& failed) requires floating_dtype<T> {
    return detail::xt_linalg<T>::cholesky(x, failed);
  }
  static raw_type solve(const raw_type& a, const raw_type& rhs,
                        std::int64_t& failed) requires inexact_dtype<T> {
    return detail::xt_linalg<T>::solve(a, rhs, failed);
  }
  static raw_type triangular_solve(const raw_type& a, const raw_type& rhs, bool upper,
                                   bool transpose, bool unit_diagonal,
                                   std::int64_t& failed) requires floating_dtype<T> {
    return detail::xt_linalg<T>::triangular_solve(a, rhs, upper, transpose, unit_diagonal, failed);
  }
  static std::pair<raw_type, raw_type> qr(const raw_type& x,
                                          bool complete) requires floating_dtype<T> {
    return detail::xt_linalg<T>::qr(x, complete);
  }
  static std::tuple<raw_type, raw_type, raw_type> svd(const raw_type& x,
                                                      bool full) requires floating_dtype<T> {
    return detail::xt_linalg<T>::svd(x, full);
  }
  static raw_type svdvals(const raw_type& x) requires floating_dtype<T> {
    return detail::xt_linalg<T>::svdvals(x);
  }
  static std::pair<raw_type, raw_type> eigh(const raw_type& x) requires floating_dtype<T> {
    return detail::xt_linalg<T>::eigh(x);
  }
  static std::pair<raw_type, raw_type> slogdet(const raw_type& x) requires floating_dtype<T> {
    return detail::xt_linalg<T>::slogdet(x);
  }
  static auto eig(const raw_type& x, bool vectors) requires inexact_dtype<T> {
    return detail::xt_linalg<T>::eig(x, vectors);
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
