// eagerpp - the CUDA backend: ep::cuda<T>, every op a Thrust transform, a CUB reduction or a cuBLAS GEMM
// SPDX-License-Identifier: MIT
#pragma once

#if !defined(__CUDACC__)
#error "<eagerpp/cuda.hpp> holds device code: compile this file with nvcc (a .cu file, or set_source_files_properties(... LANGUAGE CUDA))"
#endif

#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <span>         // std::span
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_same_v

#include "eagerpp/backend.hpp"
#include "eagerpp/cuda/functors.cuh"
#include "eagerpp/cuda/kernels.cuh"
#include "eagerpp/cuda/runtime.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/shape.hpp"

namespace ep {

/// The CUDA backend: the raw tensor is an ep::cuda_array<T> (shared C-order device memory from
/// CUDA's stream-ordered pool) and every op runs on ep::cuda_stream(): element-wise ops are one
/// thrust::transform (broadcast operands through stride-0 indexing), reductions are CUB's
/// DeviceReduce / DeviceSegmentedReduce after moving the reduced axes last, cumsum is a Thrust scan
/// by key, shape ops are one strided copy, float matmul is cuBLAS's strided batched GEMM. Ops are
/// asynchronous; to_data (and so item, to_vector) synchronizes. Every CUDA or cuBLAS failure, and
/// any use without a device, throws ep::device_error naming the op.
template <class T>
struct cuda {
  static_assert(dtype<T>, "ep::cuda<T>: T must be float, double, std::int32_t, std::int64_t or bool");

  static constexpr std::string_view name = "cuda";
  using value_type = T;
  using raw_type = cuda_array<T>;
  template <class U>
  using rebind = cuda<U>;

 private:
  using bool_raw = cuda_array<bool>;
  static constexpr bool is_floating = floating_dtype<T>;
  static constexpr bool is_bool = std::is_same_v<T, bool>;

  template <class F>
  static raw_type map(const raw_type& x, F f, std::string_view op) {
    return detail::cuda_map<T>(op, f, x);
  }
  template <class F>
  static raw_type zip(const raw_type& a, const raw_type& b, F f, std::string_view op) {
    return detail::cuda_map<T>(op, f, a, b);
  }
  template <class F>
  static bool_raw compare(const raw_type& a, const raw_type& b, F f, std::string_view op) {
    return detail::cuda_map<bool>(op, f, a, b);
  }

 public:
  // --- storage ------------------------------------------------------------------------------

  static Shape shape(const raw_type& x) { return x.shape(); }

  /// Copies host memory to the device (synchronously: `data` may be reused on return).
  static raw_type from_data(const T* data, const Shape& shape) {
    raw_type out(shape, "from_data");
    if (out.size() > 0) {
      detail::cuda_check(cudaMemcpyAsync(out.mutable_data(), data, static_cast<std::size_t>(out.size()) * sizeof(T),
                                         cudaMemcpyHostToDevice, cuda_stream()),
                         "from_data");
      detail::cuda_check(cudaStreamSynchronize(cuda_stream()), "from_data");
    }
    return out;
  }

  /// Copies to host memory after every queued op finished; errors of earlier asynchronous ops surface here.
  static void to_data(const raw_type& x, T* out) {
    if (x.size() > 0)
      detail::cuda_check(cudaMemcpyAsync(out, x.data(), static_cast<std::size_t>(x.size()) * sizeof(T),
                                         cudaMemcpyDeviceToHost, cuda_stream()),
                         "to_data");
    detail::cuda_check(cudaStreamSynchronize(cuda_stream()), "to_data");
  }

  // --- creation -----------------------------------------------------------------------------

  static raw_type full(const Shape& shape, T value) { return detail::cuda_full(shape, value, "full"); }

  static raw_type arange(T start, T step, std::int64_t n)
    requires numeric_dtype<T>
  {
    raw_type out(Shape{n}, "arange");
    if (n > 0)
      detail::cuda_guard("arange", [&] {
        thrust::transform(detail::cuda_policy(), detail::cuda_count(), detail::cuda_count(n), out.mutable_data(),
                          detail::cu::arange_fn<T>{start, step});
      });
    return out;
  }

  // --- conversion ---------------------------------------------------------------------------

  /// O(1): the result shares the storage.
  static raw_type reshape(const raw_type& x, const Shape& shape) { return raw_type(x.storage(), shape); }

  /// C++ conversion of each element (float to int truncates; to bool tests != 0, NaN is true).
  template <class U>
  static cuda_array<U> astype(const raw_type& x) {
    if constexpr (std::is_same_v<U, T>) return x;
    else return detail::cuda_map<U>("astype", detail::cu::cast_fn<U>{}, x);
  }

  // --- element-wise: unary ------------------------------------------------------------------

  static raw_type abs(const raw_type& x) requires numeric_dtype<T> { return map(x, detail::cu::abs_fn{}, "abs"); }
  static raw_type sign(const raw_type& x) requires numeric_dtype<T> { return map(x, detail::cu::sign_fn{}, "sign"); }
  static raw_type sqrt(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::sqrt_fn{}, "sqrt"); }
  static raw_type square(const raw_type& x) requires numeric_dtype<T> { return map(x, detail::cu::square_fn{}, "square"); }
  static raw_type exp(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::exp_fn{}, "exp"); }
  static raw_type log(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::log_fn{}, "log"); }
  static raw_type log2(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::log2_fn{}, "log2"); }
  static raw_type log10(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::log10_fn{}, "log10"); }
  static raw_type log1p(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::log1p_fn{}, "log1p"); }
  static raw_type sin(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::sin_fn{}, "sin"); }
  static raw_type cos(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::cos_fn{}, "cos"); }
  static raw_type tan(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::tan_fn{}, "tan"); }
  static raw_type arcsin(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::arcsin_fn{}, "arcsin"); }
  static raw_type arccos(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::arccos_fn{}, "arccos"); }
  static raw_type arctan(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::arctan_fn{}, "arctan"); }
  static raw_type sinh(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::sinh_fn{}, "sinh"); }
  static raw_type cosh(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::cosh_fn{}, "cosh"); }
  static raw_type tanh(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::tanh_fn{}, "tanh"); }
  static raw_type arcsinh(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::arcsinh_fn{}, "arcsinh"); }
  static raw_type arccosh(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::arccosh_fn{}, "arccosh"); }
  static raw_type arctanh(const raw_type& x) requires floating_dtype<T> { return map(x, detail::cu::arctanh_fn{}, "arctanh"); }

  /// Half to even; the identity on integers (O(1), shares the storage).
  static raw_type round(const raw_type& x) requires numeric_dtype<T> {
    if constexpr (is_floating) return map(x, detail::cu::round_fn{}, "round");
    else return x;
  }
  static raw_type ceil(const raw_type& x) requires numeric_dtype<T> {
    if constexpr (is_floating) return map(x, detail::cu::ceil_fn{}, "ceil");
    else return x;
  }
  static raw_type floor(const raw_type& x) requires numeric_dtype<T> {
    if constexpr (is_floating) return map(x, detail::cu::floor_fn{}, "floor");
    else return x;
  }
  static raw_type negative(const raw_type& x) requires numeric_dtype<T> {
    return map(x, detail::cu::negative_fn{}, "negative");
  }
  static raw_type logical_not(const raw_type& x) requires is_bool { return map(x, detail::cu::logical_not_fn{}, "logical_not"); }

  /// NumPy clip: NaN stays NaN.
  static raw_type clip(const raw_type& x, T lo, T hi) requires numeric_dtype<T> {
    return map(x, detail::cu::clip_fn<T>{lo, hi}, "clip");
  }

  static bool_raw isnan(const raw_type& x) {
    if constexpr (is_floating) return detail::cuda_map<bool>("isnan", detail::cu::isnan_fn{}, x);
    else return detail::cuda_full(x.shape(), false, "isnan");
  }
  static bool_raw isinf(const raw_type& x) {
    if constexpr (is_floating) return detail::cuda_map<bool>("isinf", detail::cu::isinf_fn{}, x);
    else return detail::cuda_full(x.shape(), false, "isinf");
  }

  // --- element-wise: binary -----------------------------------------------------------------

  static raw_type add(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip(a, b, detail::cu::add_fn{}, "add");
  }
  static raw_type subtract(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip(a, b, detail::cu::subtract_fn{}, "subtract");
  }
  static raw_type multiply(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip(a, b, detail::cu::multiply_fn{}, "multiply");
  }
  /// IEEE division for floats; truncating for integers, x / 0 == 0.
  static raw_type divide(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip(a, b, detail::cu::divide_fn{}, "divide");
  }
  static raw_type floor_divide(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip(a, b, detail::cu::floor_divide_fn{}, "floor_divide");
  }
  static raw_type mod(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip(a, b, detail::cu::mod_fn{}, "mod");
  }
  static raw_type power(const raw_type& a, const raw_type& b) requires numeric_dtype<T> {
    return zip(a, b, detail::cu::power_fn{}, "power");
  }
  /// NaN propagates; on bool, logical and.
  static raw_type minimum(const raw_type& a, const raw_type& b) {
    if constexpr (is_bool) return zip(a, b, detail::cu::logical_and_fn{}, "minimum");
    else return zip(a, b, detail::cu::minimum_fn{}, "minimum");
  }
  /// NaN propagates; on bool, logical or.
  static raw_type maximum(const raw_type& a, const raw_type& b) {
    if constexpr (is_bool) return zip(a, b, detail::cu::logical_or_fn{}, "maximum");
    else return zip(a, b, detail::cu::maximum_fn{}, "maximum");
  }
  static raw_type logical_and(const raw_type& a, const raw_type& b) requires is_bool {
    return zip(a, b, detail::cu::logical_and_fn{}, "logical_and");
  }
  static raw_type logical_or(const raw_type& a, const raw_type& b) requires is_bool {
    return zip(a, b, detail::cu::logical_or_fn{}, "logical_or");
  }

  // --- comparison ---------------------------------------------------------------------------

  static bool_raw less(const raw_type& a, const raw_type& b) { return compare(a, b, detail::cu::less_fn{}, "less"); }
  static bool_raw less_equal(const raw_type& a, const raw_type& b) {
    return compare(a, b, detail::cu::less_equal_fn{}, "less_equal");
  }
  static bool_raw greater(const raw_type& a, const raw_type& b) {
    return compare(a, b, detail::cu::greater_fn{}, "greater");
  }
  static bool_raw greater_equal(const raw_type& a, const raw_type& b) {
    return compare(a, b, detail::cu::greater_equal_fn{}, "greater_equal");
  }
  static bool_raw equal(const raw_type& a, const raw_type& b) { return compare(a, b, detail::cu::equal_fn{}, "equal"); }
  static bool_raw not_equal(const raw_type& a, const raw_type& b) {
    return compare(a, b, detail::cu::not_equal_fn{}, "not_equal");
  }

  /// cond ? x : y with three-way broadcasting, through the same transform as the binary ops.
  static raw_type where(const bool_raw& cond, const raw_type& x, const raw_type& y) {
    return detail::cuda_map<T>("where", detail::cu::where_fn{}, cond, x, y);
  }

  // --- reductions ---------------------------------------------------------------------------

  static raw_type sum(const raw_type& x, std::span<const int> axes) requires numeric_dtype<T> {
    return detail::cuda_reduce(x, axes, detail::cu::plus_fn{}, T{0}, "sum");
  }
  static raw_type prod(const raw_type& x, std::span<const int> axes) requires numeric_dtype<T> {
    return detail::cuda_reduce(x, axes, detail::cu::times_fn{}, T{1}, "prod");
  }
  static raw_type min(const raw_type& x, std::span<const int> axes) {
    if constexpr (is_bool) return detail::cuda_reduce(x, axes, detail::cu::logical_and_fn{}, true, "min");
    else return detail::cuda_reduce(x, axes, detail::cu::minimum_fn{}, highest(), "min");
  }
  static raw_type max(const raw_type& x, std::span<const int> axes) {
    if constexpr (is_bool) return detail::cuda_reduce(x, axes, detail::cu::logical_or_fn{}, false, "max");
    else return detail::cuda_reduce(x, axes, detail::cu::maximum_fn{}, lowest(), "max");
  }
  static raw_type all(const raw_type& x, std::span<const int> axes) requires is_bool {
    return detail::cuda_reduce(x, axes, detail::cu::logical_and_fn{}, true, "all");
  }
  static raw_type any(const raw_type& x, std::span<const int> axes) requires is_bool {
    return detail::cuda_reduce(x, axes, detail::cu::logical_or_fn{}, false, "any");
  }
  static cuda_array<std::int64_t> argmin(const raw_type& x, int axis) {
    return detail::cuda_arg_reduce<false>(x, axis, "argmin");
  }
  static cuda_array<std::int64_t> argmax(const raw_type& x, int axis) {
    return detail::cuda_arg_reduce<true>(x, axis, "argmax");
  }
  static raw_type cumsum(const raw_type& x, int axis) requires numeric_dtype<T> {
    return detail::cuda_cumsum(x, axis, "cumsum");
  }

  // --- shape and indexing: one strided copy each -----------------------------------------------

  static raw_type transpose(const raw_type& x, std::span<const int> perm) {
    return detail::cuda_permute(x, perm, "transpose");
  }

  static raw_type broadcast_to(const raw_type& x, const Shape& shape) {
    raw_type out(shape, "broadcast_to");
    const Shape xs = strides_of(x.shape());
    detail::cuda_layout l = contiguous_out(shape);
    const int lead = shape.size() - x.ndim();
    for (int a = 0; a < x.ndim(); ++a) l.in_strides[lead + a] = x.shape()[a] == 1 ? 0 : xs[a];
    detail::cuda_strided_copy(l, x.data(), out.mutable_data(), "broadcast_to");
    return out;
  }

  static raw_type flip(const raw_type& x, std::span<const int> axes) {
    raw_type out(x.shape(), "flip");
    if (x.size() == 0) return out;
    detail::cuda_layout l = contiguous_out(x.shape());
    const Shape xs = strides_of(x.shape());
    for (int a = 0; a < x.ndim(); ++a) l.in_strides[a] = xs[a];
    for (int a : axes) {
      l.in_offset += (x.shape()[a] - 1) * xs[a];
      l.in_strides[a] = -xs[a];
    }
    detail::cuda_strided_copy(l, x.data(), out.mutable_data(), "flip");
    return out;
  }

  static raw_type slice(const raw_type& x, std::span<const std::int64_t> start, std::span<const std::int64_t> step,
                        const Shape& shape) {
    raw_type out(shape, "slice");
    if (shape.numel() == 0) return out;
    detail::cuda_layout l = contiguous_out(shape);
    const Shape xs = strides_of(x.shape());
    for (int a = 0; a < x.ndim(); ++a) {
      l.in_offset += start[static_cast<std::size_t>(a)] * xs[a];
      l.in_strides[a] = step[static_cast<std::size_t>(a)] * xs[a];
    }
    detail::cuda_strided_copy(l, x.data(), out.mutable_data(), "slice");
    return out;
  }

  /// The result filled with `value`, then x copied into its interior.
  static raw_type pad(const raw_type& x, std::span<const std::int64_t> before, std::span<const std::int64_t> after,
                      T value) {
    Shape shape = x.shape();
    for (int a = 0; a < shape.size(); ++a)
      shape[a] += before[static_cast<std::size_t>(a)] + after[static_cast<std::size_t>(a)];
    raw_type out = detail::cuda_full(shape, value, "pad");
    const Shape os = strides_of(shape);
    detail::cuda_layout l = contiguous_in(x.shape());
    for (int a = 0; a < x.ndim(); ++a) {
      l.out_strides[a] = os[a];
      l.out_offset += before[static_cast<std::size_t>(a)] * os[a];
    }
    detail::cuda_strided_copy(l, x.data(), out.mutable_data(), "pad");
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
      detail::cuda_layout l = contiguous_in(p.shape());
      for (int a = 0; a < p.ndim(); ++a) l.out_strides[a] = os[a];
      l.out_offset = at * os[axis];
      detail::cuda_strided_copy(l, p.data(), out.mutable_data(), "concatenate");
      at += p.shape()[axis];
    }
    return out;
  }

  // --- indexing and sorting ------------------------------------------------------------------

  /// x[index] for a 1-D x (thrust::gather).
  static raw_type take(const raw_type& x, const cuda_array<std::int64_t>& index) {
    return detail::cuda_take(x, index, "take");
  }
  /// A copy of x with x[index[i]] = values[i]; a repeated index: the last write wins.
  static raw_type put(const raw_type& x, const cuda_array<std::int64_t>& index, const raw_type& values) {
    return detail::cuda_put<false>(x, index, values, "put");
  }
  /// A copy of x with x[index[i]] += values[i], repeated indices accumulating (deterministically).
  static raw_type put_add(const raw_type& x, const cuda_array<std::int64_t>& index, const raw_type& values)
    requires numeric_dtype<T>
  {
    return detail::cuda_put<true>(x, index, values, "put_add");
  }
  /// Ascending, stable, NaN last along `axis`.
  static raw_type sort(const raw_type& x, int axis) { return detail::cuda_sort<false>(x, axis, "sort"); }
  static cuda_array<std::int64_t> argsort(const raw_type& x, int axis) {
    return detail::cuda_sort<true>(x, axis, "argsort");
  }

  // --- linear algebra -----------------------------------------------------------------------

  /// cuBLAS strided batched GEMM for float and double; a plain kernel for integers and bool (OR of ANDs).
  static raw_type matmul(const raw_type& a, const raw_type& b, bool transpose_a, bool transpose_b) {
    return detail::cuda_matmul(a, b, transpose_a, transpose_b, "matmul");
  }

 private:
  static constexpr T highest() {
    if constexpr (is_floating) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  static constexpr T lowest() {
    if constexpr (is_floating) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  // A copy layout over `shape` whose destination is a fresh C-order buffer (in_strides left to fill).
  static detail::cuda_layout contiguous_out(const Shape& shape) {
    detail::cuda_layout l;
    const Shape s = strides_of(shape);
    l.rank = shape.size();
    for (int a = 0; a < l.rank; ++a) {
      l.dims[a] = shape[a];
      l.out_strides[a] = s[a];
    }
    return l;
  }
  // A copy layout over `shape` whose source is a C-order buffer (out_strides left to fill).
  static detail::cuda_layout contiguous_in(const Shape& shape) {
    detail::cuda_layout l;
    const Shape s = strides_of(shape);
    l.rank = shape.size();
    for (int a = 0; a < l.rank; ++a) {
      l.dims[a] = shape[a];
      l.in_strides[a] = s[a];
    }
    return l;
  }
};

/// Lets ep::astensor wrap a cuda_array (declared in <eagerpp/astensor.hpp>).
template <class Native>
struct native_traits;

template <class T>
struct native_traits<cuda_array<T>> {
  using backend = cuda<T>;
  static cuda_array<T> convert(cuda_array<T> x) { return x; }
};

}  // namespace ep
