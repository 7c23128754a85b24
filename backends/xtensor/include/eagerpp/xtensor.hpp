// eagerpp - the xtensor backend: ep::xtensor<T> over shared-storage xtensor adaptors
// SPDX-License-Identifier: MIT
#pragma once

// xsimd vectorization of xtensor expressions must be switched on before the first xtensor include.
// Defining XTENSOR_USE_XSIMD on the command line (as the eagerpp::xtensor target should) makes the
// order of includes irrelevant; failing that it is defined here, unless xtensor was included
// already without it, where defining it now would mix scalar and xsimd configurations.
#if !defined(XTENSOR_USE_XSIMD) && !defined(XTENSOR_CONFIG_HPP)
#define XTENSOR_USE_XSIMD
#endif

#include <algorithm>    // std::copy_n, std::fill_n, std::equal
#include <array>        // std::array
#include <cstddef>      // std::size_t, std::ptrdiff_t
#include <cstdint>      // std::int64_t
#include <memory>       // std::shared_ptr, std::make_shared
#include <span>         // std::span
#include <string_view>  // std::string_view
#include <type_traits>  // std::remove_cvref_t, std::is_same_v
#include <utility>      // std::move
#include <vector>       // std::vector

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xtensor.hpp>

// xtensor-blas bundles FLENS's own prototypes of the CBLAS functions (xflens/cxxblas/drivers/cblas.h),
// whose enums collide with OpenBLAS's <cblas.h> ("multiple definition of 'enum CBLAS_ORDER'"), so a
// translation unit could not include this backend and ep::omp (or any user of <cblas.h>). The library
// we link is OpenBLAS: its <cblas.h> declares what xtensor-blas calls, and FLENS's copy is skipped.
#include <cblas.h>  // cblas_sgemm, cblas_dgemm (OpenBLAS), before xtensor-blas
#ifndef CXXBLAS_DRIVERS_CBLAS_H
#define CXXBLAS_DRIVERS_CBLAS_H 1
#endif
#include <xtensor-blas/xblas.hpp>  // xt::blas::gemm

#include "eagerpp/astensor.hpp"
#include "eagerpp/backend.hpp"
#include "eagerpp/detail/fusion.hpp"
#include "eagerpp/detail/host_kernels.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"
#include "eagerpp/xtensor/functors.hpp"
#include "eagerpp/xtensor/kernels.hpp"

namespace ep {

namespace detail {
/// An xtensor container (xarray, xtensor) that owns a contiguous uvector of T.
template <class N, class T>
concept xt_owning_container = requires {
  typename N::storage_type::allocator_type;
}
&&std::is_same_v<typename N::value_type, T>&&
    std::is_same_v<typename N::storage_type, xt::uvector<T, typename N::storage_type::allocator_type>>;
}  // namespace detail

/// The native tensor of the xtensor backend: a row-major xtensor adaptor over a shared,
/// 64-byte aligned buffer from ep::allocate_storage, so copies share their elements (O(1)).
/// It takes part in any xtensor expression, e.g. `xt::exp(t.raw()) + 1`.
template <class T>
using xtensor_array = xt::xarray_adaptor<xt::xbuffer_adaptor<T*, xt::smart_ownership, std::shared_ptr<T>>,
                                         xt::layout_type::row_major, xt::dynamic_shape<std::size_t>>;

/// The xtensor backend, e.g. `ep::Tensor<ep::xtensor<float>>`; the contract is in <eagerpp/backend.hpp>.
template <class T>
struct xtensor {
  static constexpr std::string_view name = "xtensor";
  using value_type = T;
  using raw_type = xtensor_array<T>;
  template <class U>
  using rebind = xtensor<U>;
  using shape_type = xt::dynamic_shape<std::size_t>;

  // --- storage and conversion -------------------------------------------------------------------

  /// An uninitialized row-major array of `shape`, in a buffer from ep::allocate_storage.
  template <class U = T, class S>
  static xtensor_array<U> empty(const S& shape) {
    const std::size_t n = detail::storage_elements(shape, sizeof(U));  // ep::memory_error past 2^62 bytes
    shape_type xs(shape.begin(), shape.end());
    std::shared_ptr<U> buf = allocate_storage<U>(n);
    U* p = buf.get();
    using buffer = typename xtensor_array<U>::storage_type;
    return xtensor_array<U>(buffer(p, n, std::move(buf)), xs);
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
    const auto n = static_cast<std::size_t>(shape.numel());
    T* p = data.get();
    using buffer = typename raw_type::storage_type;
    return raw_type(buffer(p, n, std::move(data)), shape_type(shape.begin(), shape.end()));
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
    raw_type out = empty(Shape{n});
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
    if constexpr (std::is_floating_point_v<T> && std::is_integral_v<U> && !std::is_same_v<U, bool>) {
      xt::noalias(o) = xt::make_lambda_xfunction(detail::xt_functors::float_to_int_fn<U>{}, in);
    } else {
      xt::noalias(o) = xt::cast<U>(in);
    }
    return out;
  }

  // --- unary element-wise -----------------------------------------------------------------------

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
  static raw_type log(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::log; return log(v); });
  }
  static raw_type log2(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::log2; return log2(v); });
  }
  static raw_type log10(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::log10; return log10(v); });
  }
  static raw_type log1p(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::log1p; return log1p(v); });
  }
  static raw_type sin(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::sin; return sin(v); });
  }
  static raw_type cos(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::cos; return cos(v); });
  }
  static raw_type tan(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::tan; return tan(v); });
  }
  static raw_type arcsin(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::asin; return asin(v); });
  }
  static raw_type arccos(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::acos; return acos(v); });
  }
  static raw_type arctan(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::atan; return atan(v); });
  }
  static raw_type sinh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::sinh; return sinh(v); });
  }
  static raw_type cosh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::cosh; return cosh(v); });
  }
  static raw_type tanh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::tanh; return tanh(v); });
  }
  static raw_type arcsinh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::asinh; return asinh(v); });
  }
  static raw_type arccosh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::acosh; return acosh(v); });
  }
  static raw_type arctanh(const raw_type& x) requires floating_dtype<T> {
    return map_costly(x, [](const auto& v) { using std::atanh; return atanh(v); });
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

  static raw_type add(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip(a, b, [](const auto& x, const auto& y) { return x + y; });
  }
  static raw_type subtract(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip(a, b, [](const auto& x, const auto& y) { return x - y; });
  }
  static raw_type multiply(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip(a, b, [](const auto& x, const auto& y) { return x * y; });
  }
  /// True division for floats; for integers C++ division (toward zero), 0 for a zero divisor.
  static raw_type divide(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    if constexpr (floating_dtype<T>)
      return zip(a, b, [](const auto& x, const auto& y) { return x / y; });
    else
      return zip_fn(a, b, detail::xt_functors::int_divide_fn{});
  }
  static raw_type floor_divide(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip_fn(a, b, detail::xt_functors::floor_divide_fn{});
  }
  static raw_type mod(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip_fn(a, b, detail::xt_functors::mod_fn{});
  }
  static raw_type power(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    // Element by element with std::pow, which is exact where the result is representable (3^2 is 9,
    // not 8.999999999999998 as xsimd's vectorized exp(y log x) gives) and 0^0 = 1, as NumPy.
    if constexpr (floating_dtype<T>)
      return zip_fn(a, b, detail::xt_functors::float_power_fn{});
    else
      return zip_fn(a, b, detail::xt_functors::int_power_fn{});
  }
  static raw_type minimum(const raw_type& a, const raw_type& b) {
    return zip_fn(a, b, detail::xt_functors::minimum_fn{});
  }
  static raw_type maximum(const raw_type& a, const raw_type& b) {
    return zip_fn(a, b, detail::xt_functors::maximum_fn{});
  }
  static raw_type logical_and(const raw_type& a, const raw_type& b) requires std::is_same_v<T, bool> {
    return zip(a, b, [](const auto& x, const auto& y) { return x && y; });
  }
  static raw_type logical_or(const raw_type& a, const raw_type& b) requires std::is_same_v<T, bool> {
    return zip(a, b, [](const auto& x, const auto& y) { return x || y; });
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
    if (!same_shape(cond, x) || !same_shape(x, y)) {
      // Materialize the operands at the broadcast shape (strided copies are fast; xtensor's
      // broadcasting assignment is not), then select over equal shapes.
      const Shape s = broadcast_shapes(broadcast_shapes(shape_of(cond), shape(x), "where"), shape(y), "where");
      const auto grow = [&s](const auto& e) {
        using E = std::remove_cvref_t<decltype(e)>;
        return shape_of(e) == s ? e : xtensor<typename E::value_type>::broadcast_to(e, s);
      };
      return where(grow(cond), grow(x), grow(y));
    }
    // A loop GCC vectorizes into blends (detail::host_select): xt::where over a bool mask is a
    // branch per element in xtensor 0.24.
    raw_type out = empty(x.shape());
    detail::host_select<false, false>(out.data(), reinterpret_cast<const unsigned char*>(cond.data()), x.data(),
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
  static raw_type map_reduce(detail::reduce_kind reduce, detail::map_kind m, const raw_type& x) requires numeric_dtype<T> {
    namespace k = detail::xt_kernels;
    switch (reduce) {
      case detail::reduce_kind::min: return map_reduce_with<k::min_op>(m, x);
      case detail::reduce_kind::max: return map_reduce_with<k::max_op>(m, x);
      case detail::reduce_kind::sum: break;
    }
    return map_reduce_with<k::sum_op>(m, x);
  }
  static xtensor_array<std::int64_t> argmin(const raw_type& x, int axis) { return arg_reduce<false>(x, axis); }
  static xtensor_array<std::int64_t> argmax(const raw_type& x, int axis) { return arg_reduce<true>(x, axis); }

  static raw_type cumsum(const raw_type& x, int axis) requires numeric_dtype<T> {
    raw_type out = empty(x.shape());
    const auto [outer, len, inner] = split(x.shape(), axis, axis + 1);
    detail::xt_kernels::cumsum(x.data(), out.data(), outer, len, inner);
    return out;
  }

  // --- shape and indexing -----------------------------------------------------------------------

  // transpose, broadcast_to, flip and slice are strided copies. xtensor's views do the same job
  // through steppers over dynamic-rank indices at 20-50 ns per element (a rank-5 transpose of 1e6
  // floats took 47 ms) and a strided_view over xt::range(_, _, -1) reads out of bounds in 0.24,
  // so one loop over merged dimensions does them all (about 1 ns per element).

  static raw_type transpose(const raw_type& x, std::span<const int> perm) {
    const std::size_t r = perm.size();
    shape_type s(r);
    std::array<std::ptrdiff_t, max_rank> st{};
    const auto in = contiguous_strides(x.shape());
    for (std::size_t i = 0; i < r; ++i) {
      const auto p = static_cast<std::size_t>(perm[i]);
      s[i] = x.shape()[p];
      st[i] = in[p];
    }
    raw_type out = empty(s);
    detail::xt_kernels::strided_copy(x.data(), out.data(), s.data(), st.data(), r);
    return out;
  }

  static raw_type broadcast_to(const raw_type& x, const Shape& shape) {
    raw_type out = empty(shape);
    const auto r = static_cast<std::size_t>(shape.size());
    const std::size_t lead = r - x.dimension();
    const auto in = contiguous_strides(x.shape());
    std::array<std::ptrdiff_t, max_rank> st{};
    for (std::size_t i = lead; i < r; ++i) st[i] = x.shape()[i - lead] == 1 ? 0 : in[i - lead];
    detail::xt_kernels::strided_copy(x.data(), out.data(), out.shape().data(), st.data(), r);
    return out;
  }

  static raw_type flip(const raw_type& x, std::span<const int> axes) {
    raw_type out = empty(x.shape());
    if (out.size() == 0) return out;
    auto st = contiguous_strides(x.shape());
    std::ptrdiff_t offset = 0;
    for (int a : axes) {
      const auto i = static_cast<std::size_t>(a);
      offset += st[i] * (static_cast<std::ptrdiff_t>(x.shape()[i]) - 1);
      st[i] = -st[i];
    }
    detail::xt_kernels::strided_copy(x.data() + offset, out.data(), out.shape().data(), st.data(), x.dimension());
    return out;
  }

  static raw_type slice(const raw_type& x, std::span<const std::int64_t> start, std::span<const std::int64_t> step,
                        const Shape& out_shape) {
    raw_type out = empty(out_shape);
    if (out.size() == 0) return out;
    auto st = contiguous_strides(x.shape());
    std::ptrdiff_t offset = 0;
    for (std::size_t i = 0; i < x.dimension(); ++i) {
      offset += st[i] * static_cast<std::ptrdiff_t>(start[i]);
      st[i] *= static_cast<std::ptrdiff_t>(step[i]);
    }
    detail::xt_kernels::strided_copy(x.data() + offset, out.data(), out.shape().data(), st.data(), x.dimension());
    return out;
  }

  static raw_type pad(const raw_type& x, std::span<const std::int64_t> before, std::span<const std::int64_t> after,
                      T value) {
    shape_type s = x.shape();
    for (std::size_t i = 0; i < s.size(); ++i) s[i] += static_cast<std::size_t>(before[i] + after[i]);
    raw_type out = empty(s);
    std::fill_n(out.data(), out.size(), value);
    if (x.size() == 0) return out;
    const auto in = contiguous_strides(x.shape()), os = contiguous_strides(s);
    std::ptrdiff_t offset = 0;
    detail::xt_kernels::strided_loop<2> loop;
    for (std::size_t i = 0; i < s.size(); ++i) {
      offset += os[i] * static_cast<std::ptrdiff_t>(before[i]);
      loop.push(x.shape()[i], {in[i], os[i]});
    }
    T* dst = out.data() + offset;
    const T* src = x.data();
    // Axes of extent 1 are dropped from the loop, so the innermost one need not be contiguous.
    loop.for_each_row([&](const auto& off, const auto& inner, std::size_t len) {
      if (inner[0] == 1 && inner[1] == 1) {
        std::copy_n(src + off[0], len, dst + off[1]);
      } else {
        for (std::size_t k = 0; k < len; ++k)
          dst[off[1] + static_cast<std::ptrdiff_t>(k) * inner[1]] = src[off[0] + static_cast<std::ptrdiff_t>(k) * inner[0]];
      }
    });
    return out;
  }

  // Gather, scatter and sort: the shared host loops (xtensor's argsort is not stable).
  static raw_type take(const raw_type& x, const xtensor_array<std::int64_t>& index) {
    raw_type out = empty(index.shape());
    detail::host_take(x.data(), index.data(), static_cast<std::int64_t>(index.size()), out.data());
    return out;
  }
  static raw_type put(const raw_type& x, const xtensor_array<std::int64_t>& index, const raw_type& values) {
    raw_type out = from_data(x.data(), shape(x));
    detail::host_put<false>(out.data(), index.data(), values.data(), static_cast<std::int64_t>(index.size()));
    return out;
  }
  static raw_type put_add(const raw_type& x, const xtensor_array<std::int64_t>& index, const raw_type& values)
    requires numeric_dtype<T>
  {
    raw_type out = from_data(x.data(), shape(x));
    detail::host_put<true>(out.data(), index.data(), values.data(), static_cast<std::int64_t>(index.size()));
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
    const auto ax = static_cast<std::size_t>(axis);
    shape_type s = parts[0].shape();
    s[ax] = 0;
    for (const raw_type& p : parts) s[ax] += p.shape()[ax];
    raw_type out = empty(s);
    if (out.size() == 0) return out;
    // Row-major: each part is `outer` contiguous blocks of (its extent along axis) * inner elements.
    const auto [outer, unused, inner] = split(s, axis, axis + 1);
    (void)unused;
    std::size_t offset = 0;
    const std::size_t row = s[ax] * inner;
    for (const raw_type& p : parts) {
      const std::size_t block = p.shape()[ax] * inner;
      for (std::size_t o = 0; o < outer; ++o) std::copy_n(p.data() + o * block, block, out.data() + o * row + offset);
      offset += block;
    }
    return out;
  }

  // --- linear algebra ---------------------------------------------------------------------------

  /// xtensor-blas's gemm (OpenBLAS's sgemm, dgemm) per batch for float and double, or its gemv where
  /// one side is a vector (OpenBLAS forwards such a gemm to gemv only from 0.3.28; Debian 12 has 0.3.21),
  /// reading a transposed operand in place through BLAS's transpose flag; a plain loop for int32
  /// and int64.
  static raw_type matmul(const raw_type& a, const raw_type& b, bool transpose_a, bool transpose_b)
    requires numeric_dtype<T>
  {
    const std::size_t r = a.dimension();
    const std::size_t n = a.shape()[r - (transpose_a ? 1 : 2)], k = a.shape()[r - (transpose_a ? 2 : 1)];
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
          xt::blas::gemv(xt::adapt(pa, n * k, xt::no_ownership(), sa), xt::adapt(pb, k, xt::no_ownership(), vector{k}),
                         c, transpose_a);
        } else if (n == 1) {  // op(A) is a contiguous row: C^T = op(B)^T a
          auto c = xt::adapt(pc, m, xt::no_ownership(), vector{m});
          xt::blas::gemv(xt::adapt(pb, k * m, xt::no_ownership(), sb), xt::adapt(pa, k, xt::no_ownership(), vector{k}),
                         c, !transpose_b);
        } else {
          auto c = xt::adapt(pc, n * m, xt::no_ownership(), matrix{n, m});
          xt::blas::gemm(xt::adapt(pa, n * k, xt::no_ownership(), sa), xt::adapt(pb, k * m, xt::no_ownership(), sb), c,
                         transpose_a, transpose_b);
        }
      }
    } else {
      for (std::size_t i = 0; i < batches; ++i)
        detail::xt_kernels::int_gemm(a.data() + i * n * k, transpose_a, b.data() + i * k * m, transpose_b,
                                     out.data() + i * n * m, n, k, m);
    }
    return out;
  }

  /// Row-major element strides of `shape` (extent-1 dimensions included, unlike xtensor's 0).
  static std::array<std::ptrdiff_t, max_rank> contiguous_strides(const shape_type& shape) {
    std::array<std::ptrdiff_t, max_rank> st{};
    std::ptrdiff_t acc = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
      st[i] = acc;
      acc *= static_cast<std::ptrdiff_t>(shape[i]);
    }
    return st;
  }

 private:
  static raw_type copy(const raw_type& x) {
    raw_type out = empty(x.shape());
    std::copy_n(x.data(), x.size(), out.data());
    return out;
  }

  template <class F>
  static raw_type map(const raw_type& x, F&& f) {
    raw_type out = empty(x.shape());
    assign_flat(out.data(), out.size(), f(flat(x.data(), x.size())));
    return out;
  }

  /// out[i] = e[i] for i < n, e an expression over flat operands. xtensor's own linear assignment
  /// steps one batch at a time and reloads its operands' data pointers after every store; this
  /// loop takes four batches per step through the expression's own SIMD interface (its xsimd
  /// functors), and keeps xtensor's assignment for expressions without one (bool results, casts).
  template <class U, class E>
  static void assign_flat(U* out, std::size_t n, const E& e) {
    if constexpr (detail::xt_kernels::has_batch<U> && std::is_same_v<typename E::value_type, U> &&
                  xt::has_simd_interface<E, U>::value) {
      using batch = xsimd::batch<U>;
      constexpr std::size_t w = batch::size;
      std::size_t i = 0;
      for (; i + 4 * w <= n; i += 4 * w) {
        const batch b0 = e.template load_simd<xsimd::unaligned_mode, U>(i);
        const batch b1 = e.template load_simd<xsimd::unaligned_mode, U>(i + w);
        const batch b2 = e.template load_simd<xsimd::unaligned_mode, U>(i + 2 * w);
        const batch b3 = e.template load_simd<xsimd::unaligned_mode, U>(i + 3 * w);
        b0.store_unaligned(out + i);
        b1.store_unaligned(out + i + w);
        b2.store_unaligned(out + i + 2 * w);
        b3.store_unaligned(out + i + 3 * w);
      }
      for (; i + w <= n; i += w) e.template load_simd<xsimd::unaligned_mode, U>(i).store_unaligned(out + i);
      for (; i < n; ++i) out[i] = e.data_element(i);
    } else {
      auto o = flat(out, n);
      xt::noalias(o) = e;
    }
  }

  /// A transcendental function `f`, applied with xsimd batch by batch and to the scalar tail (`f` is
  /// generic: `using std::sin; return sin(v);` finds xsimd's sin for a batch).
  template <class F>
  static raw_type map_costly(const raw_type& x, F f) {
    raw_type out = empty(x.shape());
    apply_costly(x.data(), out.data(), x.size(), f);
    return out;
  }
  /// The loop of map_costly, with everything it calls inlined (gnu::flatten): GCC otherwise keeps
  /// xsimd's argument reduction out of line, called once per batch with its operands spilled (sin
  /// of 1e6 floats, AVX-512: 805 us through an xtensor expression, 336 us here, 395 us with Eigen).
  template <class F>
  [[gnu::flatten]] static void apply_costly(const T* in, T* out, std::size_t n, F f) {
    std::size_t i = 0;
    if constexpr (detail::xt_kernels::has_batch<T>) {
      using batch = xsimd::batch<T>;
      for (; i + batch::size <= n; i += batch::size) f(batch::load_unaligned(in + i)).store_unaligned(out + i);
    }
    for (; i < n; ++i) out[i] = f(in[i]);
  }

  template <class F>
  static raw_type map_fn(const raw_type& x, F f) {
    return map(x, [f](const auto& e) { return xt::make_lambda_xfunction(F(f), e); });
  }

  /// `n` contiguous elements as a rank-1 adaptor of fixed rank: element-wise ops evaluate over
  /// these, since assigning to a dynamic-rank array recomputes and compares its shape and strides,
  /// which costs more than the arithmetic on small tensors.
  template <class P>
  static auto flat(P* p, std::size_t n) {
    return xt::adapt(p, n, xt::no_ownership(), std::array<std::size_t, 1>{n});
  }

  template <class A, class B>
  static bool same_shape(const A& a, const B& b) {
    return a.dimension() == b.dimension() && std::equal(a.shape().begin(), a.shape().end(), b.shape().begin());
  }

  template <class A>
  static Shape shape_of(const A& a) {
    return Shape(a.shape().begin(), a.shape().end());
  }

  /// a op b with NumPy broadcasting: equal shapes and one-element operands (which do not raise the
  /// rank) take a flat, vectorized path; other shapes go through xtensor's broadcasting.
  template <class U = T, class F>
  static xtensor_array<U> zip(const raw_type& a, const raw_type& b, F&& f) {
    if (same_shape(a, b)) {
      auto out = empty<U>(a.shape());
      assign_flat(out.data(), out.size(), f(flat(a.data(), a.size()), flat(b.data(), b.size())));
      return out;
    }
    if (b.size() == 1 && b.dimension() <= a.dimension()) {
      auto out = empty<U>(a.shape());
      assign_flat(out.data(), out.size(), f(flat(a.data(), a.size()), xt::xscalar<T>(b.data()[0])));
      return out;
    }
    if (a.size() == 1 && a.dimension() <= b.dimension()) {
      auto out = empty<U>(b.shape());
      assign_flat(out.data(), out.size(), f(xt::xscalar<T>(a.data()[0]), flat(b.data(), b.size())));
      return out;
    }
    // xtensor's broadcasting assignment steps through dynamic-rank indices (20 ms for
    // (1000, 1000) + (1000, 1)); instead walk the rows of the broadcast result with merged
    // dimensions, each row a vectorized 1-D expression (the last stride of an operand is 1 or 0).
    auto out = empty<U>(broadcast_shapes(shape(a), shape(b), "binary op"));
    if (out.size() == 0) return out;
    const std::size_t r = out.dimension();
    const auto sa = broadcast_strides(a, r), sb = broadcast_strides(b, r);
    const auto so = xtensor<U>::contiguous_strides(out.shape());
    detail::xt_kernels::strided_loop<3> loop;
    for (std::size_t i = 0; i < r; ++i) loop.push(out.shape()[i], {sa[i], sb[i], so[i]});
    const auto row = [](auto* p, std::size_t len) { return flat(p, len); };
    loop.for_each_row([&](const auto& off, const auto& inner, std::size_t len) {
      auto o = row(out.data() + off[2], len);
      const T* pa = a.data() + off[0];
      const T* pb = b.data() + off[1];
      if (inner[0] != 0 && inner[1] != 0)
        xt::noalias(o) = f(row(pa, len), row(pb, len));
      else if (inner[1] != 0)
        xt::noalias(o) = f(xt::xscalar<T>(*pa), row(pb, len));
      else if (inner[0] != 0)
        xt::noalias(o) = f(row(pa, len), xt::xscalar<T>(*pb));
      else
        xt::noalias(o) = f(xt::xscalar<T>(*pa), xt::xscalar<T>(*pb));
    });
    return out;
  }

  /// Element strides of `x` seen through NumPy broadcasting to rank `r`: 0 along the leading
  /// dimensions it lacks and along its extent-1 dimensions.
  template <class A>
  static std::array<std::ptrdiff_t, max_rank> broadcast_strides(const A& x, std::size_t r) {
    std::array<std::ptrdiff_t, max_rank> st{};
    const std::size_t lead = r - x.dimension();
    std::ptrdiff_t acc = 1;
    for (std::size_t i = x.dimension(); i-- > 0;) {
      st[lead + i] = x.shape()[i] == 1 ? 0 : acc;
      acc *= static_cast<std::ptrdiff_t>(x.shape()[i]);
    }
    return st;
  }

  template <class U = T, class Fn>
  static xtensor_array<U> zip_fn(const raw_type& a, const raw_type& b, Fn fn) {
    return zip<U>(a, b, [fn](const auto& x, const auto& y) { return xt::make_lambda_xfunction(Fn(fn), x, y); });
  }

  struct extents {
    std::size_t outer, mid, inner;
  };

  /// The (outer, middle, inner) element counts of axes [0, first), [first, last), [last, rank).
  static extents split(const shape_type& s, int first, int last) {
    extents e{1, 1, 1};
    for (int i = 0; i < static_cast<int>(s.size()); ++i) {
      const std::size_t d = s[static_cast<std::size_t>(i)];
      (i < first ? e.outer : i < last ? e.mid : e.inner) *= d;
    }
    return e;
  }

  /// Reduces each run of consecutive axes in one (outer, reduced, inner) pass, last run first so
  /// that the indices of the earlier runs stay valid.
  template <class Op>
  static raw_type reduce(const raw_type& x, std::span<const int> axes) {
    raw_type cur = x;
    std::size_t end = axes.size();
    while (end > 0) {
      std::size_t begin = end - 1;
      while (begin > 0 && axes[begin - 1] + 1 == axes[begin]) --begin;
      const int first = axes[begin], last = axes[end - 1] + 1;
      const auto [outer, red, inner] = split(cur.shape(), first, last);
      shape_type s;
      for (int i = 0; i < static_cast<int>(cur.dimension()); ++i)
        if (i < first || i >= last) s.push_back(cur.shape()[static_cast<std::size_t>(i)]);
      raw_type out = empty(s);
      detail::xt_kernels::reduce<Op>(cur.data(), out.data(), outer, red, inner);
      cur = std::move(out);
      end = begin;
    }
    return cur;
  }

  template <class Op>
  static raw_type map_reduce_with(detail::map_kind m, const raw_type& x) {
    namespace k = detail::xt_kernels;
    raw_type out = empty(Shape{});
    const auto n = static_cast<std::size_t>(x.size());
    out.data()[0] = m == detail::map_kind::square ? k::reduce_contiguous<Op, k::square_map>(x.data(), n)
                                                  : k::reduce_contiguous<Op, k::abs_map>(x.data(), n);
    return out;
  }

  template <bool Max>
  static xtensor_array<std::int64_t> arg_reduce(const raw_type& x, int axis) {
    shape_type s;
    for (int i = 0; i < static_cast<int>(x.dimension()); ++i)
      if (i != axis) s.push_back(x.shape()[static_cast<std::size_t>(i)]);
    auto out = empty<std::int64_t>(s);
    const auto [outer, red, inner] = split(x.shape(), axis, axis + 1);
    detail::xt_kernels::arg_reduce<Max>(x.data(), out.data(), outer, red, inner);
    return out;
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
