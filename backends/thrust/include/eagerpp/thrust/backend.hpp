// eagerpp - the Thrust backend written once: ep::detail::thrust_backend<T, System>, the ops of
// ep::cuda and ep::omp
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <span>         // std::span
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_same_v

#include "eagerpp/backend.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/ops/binary_defaults.hpp"
#include "eagerpp/ops/unary_defaults.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/thrust/array.hpp"
#include "eagerpp/thrust/functors.hpp"
#include "eagerpp/thrust/indexing.hpp"
#include "eagerpp/thrust/kernels.hpp"

namespace ep {
template <class Native>
struct native_traits;
}  // namespace ep

namespace ep::detail {

/// Every op of a Thrust backend over the system S (see eagerpp/thrust/kernels.hpp): element-wise
/// ops are one broadcasting transform (S::for_n over a functor that reads each operand through its
/// strides, 0 on broadcast axes), reductions are S::segmented_reduce over innermost axes and read
/// the columns where they lie over a block of other axes (thrust_reduce), cumsum is a Thrust scan
/// by key along the innermost axis and a scan of each column along another, shape ops are one
/// strided copy, put/put_add and sort are Thrust sorts, float matmul is S::gemm. ep::cuda<T> and
/// ep::omp<T> derive from it and add their name and the optional hooks of their memory.
template <class T, class S>
struct thrust_backend : unary_defaults<thrust_backend<T, S>, thrust_array<S, T>, T>,
                        binary_defaults<thrust_backend<T, S>, thrust_array<S, T>, T> {
  // Names each member the system lacks or declares otherwise (eagerpp/thrust/system.hpp).
  static_assert(sizeof(system_members<S>) > 0);
  static_assert(dtype<T>,
                "ep::cuda<T> and ep::omp<T>: T must be one of the array API's dtypes: bool, "
                "std::int8_t ... std::uint64_t, float, double, ep::complex64 or ep::complex128");

  using value_type = T;
  using raw_type = thrust_array<S, T>;
  /// The same backend of element type U: the one that the memory of its raw tensor names.
  template <class U>
  using rebind = typename native_traits<thrust_array<S, U>>::backend;

 private:
  using bool_raw = thrust_array<S, bool>;
  using index_raw = thrust_array<S, std::int64_t>;
  static constexpr bool is_floating = floating_dtype<T>;
  static constexpr bool is_bool = std::is_same_v<T, bool>;

  template <class F>
  static raw_type map(const raw_type& x, F f, std::string_view op) {
    return thrust_map<S, T>(op, f, x);
  }
  template <class F>
  static raw_type zip(const raw_type& a, const raw_type& b, F f, std::string_view op) {
    return thrust_map<S, T>(op, f, a, b);
  }
  template <class F>
  static bool_raw compare(const raw_type& a, const raw_type& b, F f, std::string_view op) {
    return thrust_map<S, bool>(op, f, a, b);
  }

 public:
  // --- storage ------------------------------------------------------------------------------

  static Shape shape(const raw_type& x) { return x.shape(); }

  /// Copies C-order host memory in (synchronously: `data` may be reused on return).
  static raw_type from_data(const T* data, const Shape& shape) {
    raw_type out(shape, "from_data");
    if (out.size() > 0)
      S::copy(out.mutable_data(), data, out.size(), copy_kind::from_host, "from_data");
    return out;
  }

  /// Copies to host memory after every queued op finished; errors of earlier asynchronous ops
  /// surface here.
  static void to_data(const raw_type& x, T* out) {
    S::copy(out, x.data(), x.size(), copy_kind::to_host, "to_data");
  }

  // --- creation -----------------------------------------------------------------------------

  static raw_type full(const Shape& shape, T value) { return thrust_full<S>(shape, value, "full"); }

  static raw_type arange(T start, T step, std::int64_t n) requires numeric_dtype<T> {
    raw_type out(Shape(n), "arange");
    if (n > 0)
      S::guard("arange", [&] {
        S::write_n(n, out.mutable_data(), thrust_fn::arange_fn<T>{start, step});
      });
    return out;
  }

  // --- conversion ---------------------------------------------------------------------------

  /// O(1): the result shares the storage.
  static raw_type reshape(const raw_type& x, const Shape& shape) {
    return raw_type(x.storage(), shape);
  }

  /// C++ conversion of each element (float to int truncates; to bool tests != 0, NaN is true).
  template <class U>
  static thrust_array<S, U> astype(const raw_type& x) {
    if constexpr (std::is_same_v<U, T>)
      return x;
    else
      return thrust_map<S, U>("astype", thrust_fn::cast_fn<U>{}, x);
  }

  // --- element-wise: unary ------------------------------------------------------------------

  /// The ops of the unary table not declared below, and the complex ones: `f` element by element,
  /// one transform into an array of f's result type (ep::unary_defaults; f is the row's
  /// detail::numpy::name_fn, host and device code).
  template <class F>
  static auto map_elements(const raw_type& x, F f, const char* op) {
    using U = std::remove_cvref_t<std::invoke_result_t<const F&, const T&>>;
    return thrust_map<S, U>(op, f, x);
  }
  static raw_type negative(const raw_type& x) requires arithmetic_dtype<T> {
    return map(x, thrust_fn::negative_fn{}, "negative");
  }
  static raw_type logical_not(const raw_type& x) requires is_bool {
    return map(x, thrust_fn::logical_not_fn{}, "logical_not");
  }

  // round (half to even), ceil and floor: the identity on integers (O(1), shares the storage).
#define EAGERPP_THRUST_ROUNDING(name)                                 \
  static raw_type name(const raw_type& x) requires numeric_dtype<T> { \
    if constexpr (is_floating)                                        \
      return map(x, numpy::name##_fn{}, #name);                       \
    else                                                              \
      return x;                                                       \
  }
  EAGERPP_THRUST_ROUNDING(round)
  EAGERPP_THRUST_ROUNDING(ceil)
  EAGERPP_THRUST_ROUNDING(floor)
#undef EAGERPP_THRUST_ROUNDING

  /// NumPy clip: NaN stays NaN.
  static raw_type clip(const raw_type& x, T lo, T hi) requires numeric_dtype<T> {
    return map(x, thrust_fn::clip_fn<T>{lo, hi}, "clip");
  }

  static bool_raw isnan(const raw_type& x) {
    if constexpr (is_floating)
      return thrust_map<S, bool>("isnan", thrust_fn::isnan_fn{}, x);
    else
      return thrust_full<S>(x.shape(), false, "isnan");
  }
  static bool_raw isinf(const raw_type& x) {
    if constexpr (is_floating)
      return thrust_map<S, bool>("isinf", thrust_fn::isinf_fn{}, x);
    else
      return thrust_full<S>(x.shape(), false, "isinf");
  }

  // --- element-wise: binary -----------------------------------------------------------------

  // One function per op, `name`, zipping thrust_fn::name_fn (functors.hpp) over a and b with
  // broadcasting, for the dtypes that `Requires` admits. divide: IEEE division for floats,
  // truncating for integers, x / 0 == 0.
#define EAGERPP_THRUST_ZIP(name, Requires)                                       \
  static raw_type name(const raw_type& a, const raw_type& b) requires Requires { \
    return zip(a, b, thrust_fn::name##_fn{}, #name);                             \
  }
  EAGERPP_THRUST_ZIP(add, arithmetic_dtype<T>)
  EAGERPP_THRUST_ZIP(subtract, arithmetic_dtype<T>)
  EAGERPP_THRUST_ZIP(multiply, arithmetic_dtype<T>)
  EAGERPP_THRUST_ZIP(floor_divide, numeric_dtype<T>)
  EAGERPP_THRUST_ZIP(mod, numeric_dtype<T>)
  EAGERPP_THRUST_ZIP(power, numeric_dtype<T>)
  EAGERPP_THRUST_ZIP(logical_and, is_bool)
  EAGERPP_THRUST_ZIP(logical_or, is_bool)
#undef EAGERPP_THRUST_ZIP
  static raw_type divide(const raw_type& a, const raw_type& b) requires arithmetic_dtype<T> {
    if constexpr (complex_dtype<T>)
      return zip(a, b, thrust_fn::complex_divide_fn{}, "divide");
    else
      return zip(a, b, thrust_fn::divide_fn{}, "divide");
  }
  using rule = detail::numpy::rule;
  /// One of NumPy's scalar rules (detail/numpy_math.hpp), element by element: the contract's
  /// `zip_rule`.
  template <rule R>
  static raw_type zip_rule(const raw_type& a, const raw_type& b) {
    return zip(a, b, detail::numpy::binary_op<R>{}, detail::numpy::name(R));
  }
  /// The primitives of the binary functions' table: `f` element by element, one transform
  /// (ep::binary_defaults; f is the row's detail::numpy::name_fn, host and device code).
  template <class F>
  static raw_type zip_elements(const raw_type& a, const raw_type& b, F f, const char* op) {
    return zip(a, b, f, op);
  }
  /// NaN propagates; on bool, logical and.
  static raw_type minimum(const raw_type& a, const raw_type& b) {
    if constexpr (is_bool)
      return zip(a, b, thrust_fn::logical_and_fn{}, "minimum");
    else
      return zip(a, b, thrust_fn::minimum_fn{}, "minimum");
  }
  /// NaN propagates; on bool, logical or.
  static raw_type maximum(const raw_type& a, const raw_type& b) {
    if constexpr (is_bool)
      return zip(a, b, thrust_fn::logical_or_fn{}, "maximum");
    else
      return zip(a, b, thrust_fn::maximum_fn{}, "maximum");
  }

  // --- comparison ---------------------------------------------------------------------------

#define EAGERPP_THRUST_COMPARE(name)                           \
  static bool_raw name(const raw_type& a, const raw_type& b) { \
    return compare(a, b, thrust_fn::name##_fn{}, #name);       \
  }
  EAGERPP_THRUST_COMPARE(less)
  EAGERPP_THRUST_COMPARE(less_equal)
  EAGERPP_THRUST_COMPARE(greater)
  EAGERPP_THRUST_COMPARE(greater_equal)
  EAGERPP_THRUST_COMPARE(equal)
  EAGERPP_THRUST_COMPARE(not_equal)
#undef EAGERPP_THRUST_COMPARE

  /// cond ? x : y with three-way broadcasting, through the same transform as the binary ops.
  static raw_type where(const bool_raw& cond, const raw_type& x, const raw_type& y) {
    return thrust_map<S, T>("where", thrust_fn::where_fn{}, cond, x, y);
  }

  // --- reductions ---------------------------------------------------------------------------

  static raw_type sum(const raw_type& x, std::span<const int> axes) requires arithmetic_dtype<T> {
    return thrust_reduce<S, T>(x, axes, thrust_fn::plus_fn{}, T{0}, "sum");
  }
  static raw_type prod(const raw_type& x, std::span<const int> axes) requires arithmetic_dtype<T> {
    return thrust_reduce<S, T>(x, axes, thrust_fn::times_fn{}, T{1}, "prod");
  }
  static raw_type min(const raw_type& x, std::span<const int> axes) {
    if constexpr (is_bool)
      return thrust_reduce<S, T>(x, axes, thrust_fn::logical_and_fn{}, true, "min");
    else
      return thrust_extremum<false, S, T>(x, axes, highest(), "min");
  }
  static raw_type max(const raw_type& x, std::span<const int> axes) {
    if constexpr (is_bool)
      return thrust_reduce<S, T>(x, axes, thrust_fn::logical_or_fn{}, false, "max");
    else
      return thrust_extremum<true, S, T>(x, axes, lowest(), "max");
  }
  static raw_type all(const raw_type& x, std::span<const int> axes) requires is_bool {
    return thrust_reduce<S, T>(x, axes, thrust_fn::logical_and_fn{}, true, "all");
  }
  static raw_type any(const raw_type& x, std::span<const int> axes) requires is_bool {
    return thrust_reduce<S, T>(x, axes, thrust_fn::logical_or_fn{}, false, "any");
  }
  static index_raw argmin(const raw_type& x, int axis) {
    return thrust_arg_reduce<false, S, T>(x, axis, "argmin");
  }
  static index_raw argmax(const raw_type& x, int axis) {
    return thrust_arg_reduce<true, S, T>(x, axis, "argmax");
  }
  static raw_type cumsum(const raw_type& x, int axis) requires arithmetic_dtype<T> {
    return thrust_cumsum<S, T>(x, axis, "cumsum");
  }

  // --- shape and indexing: one strided copy each -----------------------------------------------

  static raw_type transpose(const raw_type& x, std::span<const int> perm) {
    return thrust_permute<S, T>(x, perm, "transpose");
  }

  static raw_type broadcast_to(const raw_type& x, const Shape& shape) {
    raw_type out(shape, "broadcast_to");
    const Shape xs = strides_of(x.shape());
    copy_layout l = contiguous_out(shape);
    const int lead = shape.size() - x.ndim();
    for (int a = 0; a < x.ndim(); ++a) l.in_strides[lead + a] = x.shape()[a] == 1 ? 0 : xs[a];
    thrust_strided_copy<S>(l, x.data(), out.mutable_data(), "broadcast_to");
    return out;
  }

  static raw_type flip(const raw_type& x, std::span<const int> axes) {
    raw_type out(x.shape(), "flip");
    if (x.size() == 0) return out;
    copy_layout l = contiguous_out(x.shape());
    const Shape xs = strides_of(x.shape());
    for (int a = 0; a < x.ndim(); ++a) l.in_strides[a] = xs[a];
    for (int a : axes) {
      l.in_offset += (x.shape()[a] - 1) * xs[a];
      l.in_strides[a] = -xs[a];
    }
    thrust_strided_copy<S>(l, x.data(), out.mutable_data(), "flip");
    return out;
  }

  static raw_type slice(const raw_type& x, std::span<const std::int64_t> start,
                        std::span<const std::int64_t> step, const Shape& shape) {
    raw_type out(shape, "slice");
    if (shape.numel() == 0) return out;
    copy_layout l = contiguous_out(shape);
    const Shape xs = strides_of(x.shape());
    for (int a = 0; a < x.ndim(); ++a) {
      l.in_offset += start[static_cast<std::size_t>(a)] * xs[a];
      l.in_strides[a] = step[static_cast<std::size_t>(a)] * xs[a];
    }
    thrust_strided_copy<S>(l, x.data(), out.mutable_data(), "slice");
    return out;
  }

  /// The result filled with `value`, then x copied into its interior.
  static raw_type pad(const raw_type& x, std::span<const std::int64_t> before,
                      std::span<const std::int64_t> after, T value) {
    Shape shape = x.shape();
    for (int a = 0; a < shape.size(); ++a)
      shape[a] += before[static_cast<std::size_t>(a)] + after[static_cast<std::size_t>(a)];
    raw_type out = thrust_full<S>(shape, value, "pad");
    const Shape os = strides_of(shape);
    copy_layout l = contiguous_in(x.shape());
    for (int a = 0; a < x.ndim(); ++a) {
      l.out_strides[a] = os[a];
      l.out_offset += before[static_cast<std::size_t>(a)] * os[a];
    }
    thrust_strided_copy<S>(l, x.data(), out.mutable_data(), "pad");
    return out;
  }

  /// Each part copied into its block of the result along `axis`.
  static raw_type concatenate(std::span<const raw_type> parts, int axis) {
    Shape shape = parts.front().shape();
    shape[axis] = 0;
    for (const auto& p : parts) shape[axis] += p.shape()[axis];
    raw_type out(shape, "concatenate");
    const Shape os = strides_of(shape);
    std::int64_t at = 0;
    for (const auto& p : parts) {
      copy_layout l = contiguous_in(p.shape());
      for (int a = 0; a < p.ndim(); ++a) l.out_strides[a] = os[a];
      l.out_offset = at * os[axis];
      thrust_strided_copy<S>(l, p.data(), out.mutable_data(), "concatenate");
      at += p.shape()[axis];
    }
    return out;
  }

  // --- indexing and sorting ------------------------------------------------------------------

  /// x[index] for a 1-D x (thrust::gather).
  static raw_type take(const raw_type& x, const index_raw& index) {
    return thrust_take<S, T>(x, index, "take");
  }
  /// A copy of x with x[index[i]] = values[i]; a repeated index: the last write wins.
  static raw_type put(const raw_type& x, const index_raw& index, const raw_type& values) {
    return thrust_put<false, S, T>(x, index, values, "put");
  }
  /// A copy of x with x[index[i]] += values[i], repeated indices accumulating (deterministically).
  static raw_type put_add(const raw_type& x, const index_raw& index,
                          const raw_type& values) requires arithmetic_dtype<T> {
    return thrust_put<true, S, T>(x, index, values, "put_add");
  }
  /// Ascending, stable, NaN last along `axis`.
  static raw_type sort(const raw_type& x, int axis) {
    return thrust_sort<false, S, T>(x, axis, "sort");
  }
  static index_raw argsort(const raw_type& x, int axis) {
    return thrust_sort<true, S, T>(x, axis, "argsort");
  }

  // --- linear algebra -----------------------------------------------------------------------

  /// S::gemm (cuBLAS, OpenBLAS) for float and double; a plain loop for integers and bool (OR of
  /// ANDs).
  static raw_type matmul(const raw_type& a, const raw_type& b, bool transpose_a, bool transpose_b) {
    return thrust_matmul<S, T>(a, b, transpose_a, transpose_b, "matmul");
  }

 private:
  static constexpr T highest() {
    if constexpr (is_floating)
      return std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::max();
  }
  static constexpr T lowest() {
    if constexpr (is_floating)
      return -std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::lowest();
  }
};

}  // namespace ep::detail

namespace ep {

/// Lets ep::astensor wrap the raw tensor of a Thrust backend (ep::cuda_array, ep::omp_array): its
/// memory names the backend.
template <class T, class Memory>
struct native_traits<thrust_array<T, Memory>> {
  using backend = typename Memory::template backend<T>;
  static thrust_array<T, Memory> convert(thrust_array<T, Memory> x) { return x; }
};

}  // namespace ep
