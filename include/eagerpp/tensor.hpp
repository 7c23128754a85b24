// eagerpp - ep::Tensor<Backend>, the facade: every op declared once, each with its NumPy/EagerPy
// name
// SPDX-License-Identifier: MIT
#pragma once

#include <concepts>     // std::integral
#include <cstddef>      // std::ptrdiff_t
#include <cstdint>      // std::int64_t
#include <memory>       // std::shared_ptr
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple
#include <type_traits>  // std::is_arithmetic_v, std::is_default_constructible_v, std::conditional_t
#include <utility>      // std::pair, std::declval
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/autodiff/tape.hpp"
#include "eagerpp/axes.hpp"
#include "eagerpp/backend.hpp"
#include "eagerpp/backend_hooks.hpp"
#include "eagerpp/detail/fusion.hpp"
#include "eagerpp/dtypes.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/shape.hpp"

namespace ep {

/// A C++ number that may stand for a tensor in an op (`x * 2`, `1 - x`, `z * std::complex(0., 1.)`):
/// it is converted to the tensor's element type, or the tensor to the dtype NumPy gives both
/// (ep::scalar_result_t).
template <class S>
concept scalar = std::is_arithmetic_v<S> || complex_dtype<S>;

namespace detail {
/// |z| of each element of a complex tensor (ops/complex.hpp).
template <class Tn>
typename Tn::real_tensor complex_abs(const Tn& x);

/// A backend that batches another one (ep::batched<B>, ep::vmap): its native tensor holds B's with
/// the batch axis in front, as `.data`.
template <class B>
concept batching_backend = requires {
  typename B::unbatched_backend;
};

/// How many ep::batched layers backend B has: 0 for a backend of its own, 1 inside one vmap.
template <class B>
constexpr int batch_depth() {
  if constexpr (batching_backend<B>) {
    return 1 + batch_depth<typename B::unbatched_backend>();
  } else {
    return 0;
  }
}

/// The batch size of each vmap running on this thread, by depth (index 0: the outermost): what a
/// tensor captured by the function under vmap is lifted with.
inline std::vector<std::int64_t>& vmap_batch_sizes() {
  thread_local std::vector<std::int64_t> sizes;
  return sizes;
}

/// The batch size of the ep::vmap running on this thread whose batched tensors are of backend B
/// (a batching_backend); throws ep::value_error naming `op` and the tensor's shape outside it.
template <class B>
std::int64_t vmap_batch_size(std::string_view op, const Shape& shape) {
  const auto depth = static_cast<std::size_t>(batch_depth<B>() - 1);
  const auto& sizes = vmap_batch_sizes();
  if (depth >= sizes.size() || sizes[depth] < 0)
    throw value_error(fmt::format(
        "{}: a batched tensor of shape {} was made outside ep::vmap; expected it inside the "
        "function that vmap runs",
        op, shape.str()));
  return sizes[depth];
}

/// lifts_to's recursion: To batches From, or batches a backend that batches From.
template <class From, class To>
constexpr bool lifts() {
  if constexpr (batching_backend<To>) {
    using U = typename To::unbatched_backend;
    return std::same_as<U, From> || lifts<From, U>();
  } else {
    return false;
  }
}
/// Whether a tensor of backend `From` enters the batched backend `To` of ep::vmap (once or through
/// nested vmaps) as a value every example shares: a tensor that the function under vmap captured.
template <class From, class To>
inline constexpr bool lifts_to = lifts<From, To>();

/// Whether two tensors of backends B1 and B2 meet in a two-tensor op: their dtypes promote
/// (`promotable_backends`: one backend library) or one of them is lifted into ep::vmap's batching.
template <class B1, class B2>
inline constexpr bool mixable = promotable_backends<B1, B2> || lifts_to<B1, B2> || lifts_to<B2, B1>;

/// `f(a, b)` of two mixable tensors brought to one backend: a tensor the function under ep::vmap
/// captured is lifted (every example shares it), and two dtypes of one backend library are both
/// converted to their promoted dtype (`int8` with `uint8`: int16, `int32` with `float32`: float64).
template <backend B1, backend B2, class F>
auto mix(const Tensor<B1>& a, const Tensor<B2>& b, F&& f) {
  if constexpr (lifts_to<B1, B2>) {
    return f(Tensor<B2>(a), b);
  } else if constexpr (lifts_to<B2, B1>) {
    return f(a, Tensor<B1>(b));
  } else {
    using P = promoted_t<typename B1::value_type, typename B2::value_type>;
    return f(a.template astype<P>(), b.template astype<P>());
  }
}
}  // namespace detail

/// The sentence a two-tensor op `name` gives for operands that do not mix (detail::mixable).
#define EAGERPP_MIXED_SENTENCE(name)                                                        \
  "ep::" name                                                                               \
  ": the two tensors have different backends, or uint64 and a signed integer; convert one " \
  "with ep::to<Backend>(t) or t.astype<U>() first"

/// In the class: `x.name(y)` with `y` of another dtype of the backend library promotes both (as
/// the operators do), a tensor captured under ep::vmap is lifted, and other mixes name the method
/// in one sentence, as the free function `ep::name(x, y)` does, instead of "cannot convert
/// 'ep::Tensor<...>'".
#define EAGERPP_MIXED_METHOD(name)                                                              \
  template <backend B2>                                                                         \
  requires(!std::same_as<B2, Backend>) auto name(const Tensor<B2>& other) const {               \
    static_assert(detail::mixable<Backend, B2>, EAGERPP_MIXED_SENTENCE(#name));                 \
    if constexpr (detail::mixable<Backend, B2>) {                                               \
      return detail::mix(*this, other, [](const auto& a, const auto& b) { return a.name(b); }); \
    } else {                                                                                    \
      return *this;                                                                             \
    }                                                                                           \
  }

/// The array API's functions that are also methods, `x.name(args...)` for `ep::name(x, args...)`
/// (declared in Tensor, defined in ops/array_api.hpp): X(name) for each, and X_ROW(row) for each row
/// of the binary functions' table (ops/binary_list.hpp).
// clang-format off
#define EAGERPP_ARRAY_API_METHODS(X) \
  X(acos) \
  X(asin) \
  X(atan) \
  X(acosh) \
  X(asinh) \
  X(atanh) \
  X(reciprocal) \
  X(positive) \
  X(trunc) \
  X(isfinite) \
  X(signbit) \
  X(real) \
  X(imag) \
  X(conj) \
  EAGERPP_BINARY_FUNCTIONS(X##_ROW) \
  X(logical_xor) \
  X(bitwise_and) \
  X(bitwise_or) \
  X(bitwise_xor) \
  X(bitwise_invert) \
  X(bitwise_left_shift) \
  X(bitwise_right_shift) \
  X(cumulative_sum) \
  X(cumulative_prod)
// clang-format on

/// The paddings of `pad`: one (before, after) pair per axis.
using Paddings = std::vector<std::pair<std::int64_t, std::int64_t>>;

/// An immutable n-dimensional tensor of the backend `Backend` (e.g. `ep::eigen<float>`), holding
/// the backend's native tensor. Copies are O(1) and share the data; every op returns a new tensor.
/// Every method is also a free function `ep::name(x, ...)` where EagerPy has one.
template <backend Backend>
class [[nodiscard]] Tensor {
 public:
  using backend_type = Backend;
  using value_type = typename Backend::value_type;
  using raw_type = typename Backend::raw_type;
  template <class U>
  using rebind = Tensor<typename Backend::template rebind<U>>;
  using bool_tensor = rebind<bool>;
  using index_tensor = rebind<std::int64_t>;

  /// Wraps a native tensor; no data is copied.
  explicit Tensor(const raw_type& raw) : raw_(raw) {}
  /// Under ep::vmap, a tensor of the backend underneath (one the function captured), as a value
  /// every example shares; implicit, as JAX treats a closed-over array (defined in vmap.hpp).
  template <backend B2>
  requires detail::lifts_to<B2, Backend> Tensor(const Tensor<B2>& x);  // NOLINT: implicit
  /// Wraps a native tensor, moved in; no data is copied.
  explicit Tensor(raw_type&& raw) : raw_(std::move(raw)) {}

  // --- conversion and introspection ---------------------------------------------------------
  /// The native tensor, by reference (EagerPy: `t.raw`). The value of a lazy element-wise
  /// expression (detail/fusion.hpp) is computed here, once.
  [[nodiscard]] const raw_type& raw() const {
    if constexpr (detail::blocked_backend<Backend>) {
      if (lazy_) [[unlikely]]
        return lazy_->value();
    }
    return raw_;
  }
  /// The extents (EagerPy: `t.shape`).
  [[nodiscard]] Shape shape() const { return shape_ref(); }
  /// The number of axes (EagerPy: `t.ndim`).
  [[nodiscard]] int ndim() const { return shape_ref().size(); }
  /// The number of elements.
  [[nodiscard]] std::int64_t size() const { return shape_ref().numel(); }
  /// NumPy's name of the element type: "float32", "int64", ...
  [[nodiscard]] static constexpr std::string_view dtype() noexcept {
    return dtype_name<value_type>();
  }
  /// The only element of a one-element tensor (EagerPy: `t.item()`); throws ep::value_error
  /// otherwise.
  [[nodiscard]] value_type item() const;
  /// Every element in C order (NumPy: `t.ravel().tolist()`).
  [[nodiscard]] std::vector<value_type> to_vector() const;
  /// The elements converted to `U` (NumPy: `astype`). Differentiable between floating and complex
  /// types; a complex tensor converts only to a complex dtype (a compile-time error otherwise).
  template <ep::dtype U>
  rebind<U> astype() const;
  /// `astype<float>()`.
  rebind<float> float32() const { return astype<float>(); }
  /// `astype<double>()`.
  rebind<double> float64() const { return astype<double>(); }
  /// The same elements on backend B2 of the same dtype, copied through host memory (ep::to,
  /// <eagerpp/to.hpp>); a constant for autodiff. Throws ep::device_error when B2's device is
  /// missing.
  template <backend B2>
  Tensor<B2> to() const;

  // --- creation (the tensor supplies the backend and the dtype) ---------------------------------
  static_assert(detail::creation_contract<Backend>::value);  // names each missing backend function
  /// A tensor of zeros of this backend and dtype (EagerPy: `ep.zeros(t, shape)`).
  Tensor zeros(const Shape& shape) const;
  /// A tensor of ones of this backend and dtype.
  Tensor ones(const Shape& shape) const;
  /// A tensor filled with `value`, of this backend and dtype.
  Tensor full(const Shape& shape, value_type value) const;
  /// Zeros of this shape and dtype.
  Tensor zeros_like() const;
  /// Ones of this shape and dtype.
  Tensor ones_like() const;
  /// `value` everywhere, with this shape and dtype.
  Tensor full_like(value_type value) const;
  /// NumPy's `arange(start, stop, step)` with this backend and dtype.
  Tensor arange(double start, double stop, double step = 1) const;
  /// `arange(0, stop)`.
  Tensor arange(double stop) const;
  /// For this (N, C) tensor and N integer `indices`: zeros of this shape with `value` at
  /// (i, indices[i]) (EagerPy: `onehot_like`); throws ep::value_error on other shapes.
  template <class I>
  Tensor onehot_like(const Tensor<I>& indices, value_type value = 1) const;

  // --- element-wise, unary ------------------------------------------------------------------
  static_assert(
      detail::elementwise_contract<Backend>::value);  // names each missing backend function
  // One method per row of the unary table (ops/unary_list.hpp; docs/api.md describes each):
  // `abs() sign() sqrt() cbrt() square() exp() exp2() expm1() log() ... round() ceil() floor()`,
  // each of x's shape and dtype, differentiable by the row's rule.
#define EAGERPP_DECLARE_UNARY(name, dtypes, grad, scalar) Tensor name() const;
  EAGERPP_UNARY_OPS(EAGERPP_DECLARE_UNARY)
#undef EAGERPP_DECLARE_UNARY

  // --- complex numbers (ops/complex.hpp) ----------------------------------------------------
  /// The dtype of the parts: float for complex64, double for complex128, value_type otherwise.
  using real_tensor = rebind<real_of_t<value_type>>;
  /// |z| of each element of a complex tensor, a real tensor (the table's abs() is for real ones);
  /// std::abs, which does not overflow where |z| fits.
  real_tensor abs() const requires complex_dtype<value_type> { return detail::complex_abs(*this); }
  /// The real part of each element; of a real tensor, the tensor itself (the array API's `real`).
  real_tensor real() const;
  /// The imaginary part of each element; of a real tensor, its zeros (NumPy's `imag`).
  real_tensor imag() const;
  /// The complex conjugate of each element; of a real tensor, the tensor itself.
  Tensor conj() const;
  /// The argument of each element in radians, in [-pi, pi] (NumPy's `angle`): atan2(imag, real).
  real_tensor angle() const;
  Tensor negative() const;  ///< -x (also `operator-`).
  /// Each element limited to [min_, max_] (NumPy: `clip`); the gradient is 1 inside, 0 outside.
  Tensor clip(value_type min_, value_type max_) const;
  /// With bounds of other C++ types, NumPy's dtype (ep::scalar_result_t of either bound): an int64
  /// tensor clipped to [0.5, 2.5] is float64, to [0, 2] int64.
  template <scalar S1, scalar S2>
  auto clip(S1 min_, S2 max_) const;
  bool_tensor isnan() const;  ///< true where NaN.
  bool_tensor isinf() const;  ///< true where +inf or -inf.
  // The bool-only ops are member templates (of a defaulted parameter), so that an explicit
  // instantiation of Tensor for another dtype (the compiled libraries, docs/backends.md) skips
  // them.
  template <class V = value_type>
  Tensor logical_not() const;  ///< not x, for bool tensors.

  // --- element-wise, binary (NumPy broadcasting; a scalar may stand on either side) ------------
  // With a scalar, the result's dtype follows NumPy (ep::scalar_result_t): `i.pow(0.5)` of an int64
  // tensor is float64, `x.maximum(0)` of a float tensor stays float.
  // The arithmetic operators + - * / % are declared below the class.
  Tensor pow(const Tensor& exponent) const;   ///< x ** exponent (NumPy: `power`).
  Tensor minimum(const Tensor& other) const;  ///< Element-wise minimum; NaN propagates.
  Tensor maximum(const Tensor& other) const;  ///< Element-wise maximum; NaN propagates.
  /// Floor division, NumPy's `//` (`floor_divide`); integer division by zero gives 0.
  Tensor floordiv(const Tensor& other) const;
  Tensor mod(const Tensor& other) const;  ///< Remainder with the divisor's sign, NumPy's `%`.
  // Each METHOD row of EAGERPP_BINARY_OPS (ops/binary_list.hpp) with a tensor of another dtype.
#define EAGERPP_MIXED_METHOD_OPERATOR(symbol)
#define EAGERPP_MIXED_METHOD_METHOD(method) EAGERPP_MIXED_METHOD(method)
#define EAGERPP_MIXED_METHOD_ROW(name, dtypes, spelling, spelled) \
  EAGERPP_MIXED_METHOD_##spelling(spelled)
  EAGERPP_BINARY_OPS(EAGERPP_MIXED_METHOD_ROW)
#undef EAGERPP_MIXED_METHOD_ROW
#undef EAGERPP_MIXED_METHOD_METHOD
#undef EAGERPP_MIXED_METHOD_OPERATOR
  // Each NUMERIC METHOD row with a C++ scalar (`x.pow(2)`); the bool rows take a bool, below.
#define EAGERPP_SCALAR_METHOD_NUMERIC_METHOD(method) auto method(scalar auto other) const;
#define EAGERPP_SCALAR_METHOD_NUMERIC_OPERATOR(symbol)
#define EAGERPP_SCALAR_METHOD_ARITHMETIC_METHOD(method) auto method(scalar auto other) const;
#define EAGERPP_SCALAR_METHOD_ARITHMETIC_OPERATOR(symbol)
#define EAGERPP_SCALAR_METHOD_BOOL_METHOD(method)
#define EAGERPP_SCALAR_METHOD_BOOL_OPERATOR(symbol)
#define EAGERPP_SCALAR_METHOD_ROW(name, dtypes, spelling, spelled) \
  EAGERPP_SCALAR_METHOD_##dtypes##_##spelling(spelled)
  EAGERPP_BINARY_OPS(EAGERPP_SCALAR_METHOD_ROW)
#undef EAGERPP_SCALAR_METHOD_ROW
#undef EAGERPP_SCALAR_METHOD_BOOL_OPERATOR
#undef EAGERPP_SCALAR_METHOD_BOOL_METHOD
#undef EAGERPP_SCALAR_METHOD_NUMERIC_OPERATOR
#undef EAGERPP_SCALAR_METHOD_NUMERIC_METHOD
#undef EAGERPP_SCALAR_METHOD_ARITHMETIC_OPERATOR
#undef EAGERPP_SCALAR_METHOD_ARITHMETIC_METHOD
  /// For this bool condition: `x` where true, `y` where false (EagerPy: `cond.where(x, y)`).
  template <backend B2>
  Tensor<B2> where(const Tensor<B2>& x, const Tensor<B2>& y) const;
  /// Element-wise and of two bool tensors.
  template <class V = value_type>
  Tensor logical_and(const Tensor& other) const;
  template <class V = value_type>
  Tensor logical_and(bool other) const {
    return logical_and<V>(full_scalar(other));
  }
  /// Element-wise or of two bool tensors.
  template <class V = value_type>
  Tensor logical_or(const Tensor& other) const;
  template <class V = value_type>
  Tensor logical_or(bool other) const {
    return logical_or<V>(full_scalar(other));
  }

  // --- reductions (axis: all by default, one axis, or {several}; negative axes allowed) -------
  static_assert(detail::reduction_contract<Backend>::value);  // names each missing backend function
  /// What sum, prod and cumsum give: the tensor of dtype sum_dtype_t (this tensor's type, int64
  /// for bool, the 64-bit integer of its signedness for an 8- or 16-bit integer).
  using count_tensor = rebind<sum_dtype_t<value_type>>;
  /// Sum; of a bool tensor, the number of true elements as int64 (NumPy: `(x > 0).sum()`).
  count_tensor sum(Axes axis = {}, bool keepdims = false) const;
  /// Product (of count_tensor's dtype).
  count_tensor prod(Axes axis = {}, bool keepdims = false) const;
  /// Arithmetic mean; floating tensors only.
  Tensor mean(Axes axis = {}, bool keepdims = false) const;
  /// Minimum; throws on an empty reduction. The gradient is shared evenly among ties.
  Tensor min(Axes axis = {}, bool keepdims = false) const;
  /// Maximum; throws on an empty reduction. The gradient is shared evenly among ties.
  Tensor max(Axes axis = {}, bool keepdims = false) const;
  /// True if every element is true; bool tensors only.
  template <class V = value_type>
  Tensor all(Axes axis = {}, bool keepdims = false) const;
  /// True if any element is true; bool tensors only.
  template <class V = value_type>
  Tensor any(Axes axis = {}, bool keepdims = false) const;
  /// Index of the first minimum in the flattened tensor.
  index_tensor argmin() const;
  /// Index of the first minimum along `axis`.
  index_tensor argmin(int axis) const;
  /// Index of the first maximum in the flattened tensor.
  index_tensor argmax() const;
  /// Index of the first maximum along `axis`.
  index_tensor argmax(int axis) const;
  /// Cumulative sum of the flattened tensor (1-D result; int64 for a bool tensor).
  count_tensor cumsum() const;
  /// Cumulative sum along `axis` (int64 for a bool tensor).
  count_tensor cumsum(int axis) const;
  /// log(sum(exp(x))), computed stably (not in EagerPy; NumPy: scipy.special.logsumexp).
  Tensor logsumexp(Axes axis = {}, bool keepdims = false) const;

  // --- the array API's element-wise functions and statistics, chainable (ops/array_api.hpp) -----
  // `x.name(args...)` is `ep::name(x, args...)`, with the free function's dtype promotion, scalar
  // operands and errors: `x.atan2(y)`, `x.hypot(2.0)`, `i.bitwise_and(0xff)`, `x.acos()`,
  // `x.var(0, 1)`, `x.stddev({0, 1})`. Member templates, instantiated only where called.
#define EAGERPP_ARRAY_API_METHOD(name) \
  template <class... Args>             \
  auto name(const Args&... args) const;
#define EAGERPP_ARRAY_API_METHOD_ROW(name, dtypes, value, grad) EAGERPP_ARRAY_API_METHOD(name)
  EAGERPP_ARRAY_API_METHODS(EAGERPP_ARRAY_API_METHOD)
#undef EAGERPP_ARRAY_API_METHOD_ROW
#undef EAGERPP_ARRAY_API_METHOD
  /// `ep::var(x, axis, correction, keepdims)`, `ep::stddev(...)` and `ep::count_nonzero(x, axis,
  /// keepdims)` (the reductions take an axis list in braces, which a forwarding template cannot).
  template <class V = value_type>
  auto var(Axes axis = {}, double correction = 0, bool keepdims = false) const;
  template <class V = value_type>
  auto stddev(Axes axis = {}, double correction = 0, bool keepdims = false) const;
  template <class V = value_type>
  auto count_nonzero(Axes axis = {}, bool keepdims = false) const;

  // --- shape --------------------------------------------------------------------------------
  static_assert(detail::shape_contract<Backend>::value);  // names each missing backend function
  /// The same elements in `shape`; one extent may be -1. O(1) where the backend allows.
  Tensor reshape(const Shape& shape) const;
  /// `reshape({extents...})` without braces (NumPy: `x.reshape(2, 3)`).
  template <std::integral... I>
  requires(sizeof...(I) >= 2) Tensor reshape(I... extents)
  const { return reshape(Shape{static_cast<std::int64_t>(extents)...}); }
  /// Axes `start..end` (inclusive, negative allowed) merged into one.
  Tensor flatten(int start = 0, int end = -1) const;
  /// Axes reversed.
  Tensor transpose() const;
  /// Axes permuted: axis i of the result is axis perm[i] of this tensor.
  Tensor transpose(const std::vector<int>& perm) const;
  /// `transpose()` (EagerPy: the `T` property).
  Tensor T() const { return transpose(); }
  /// The axes of extent 1 removed (all of them by default); throws if a named axis is not 1.
  Tensor squeeze(Axes axis = {}) const;
  /// A new axis of extent 1 at `axis` (negative counts from the end of the result).
  Tensor expand_dims(int axis) const;
  /// NumPy's `broadcast_to`, materialized.
  Tensor broadcast_to(const Shape& shape) const;
  /// The tensor repeated `multiples[i]` times along axis i (one multiple per axis).
  Tensor tile(const std::vector<std::int64_t>& multiples) const;
  /// The elements reversed along `axis` (all axes by default).
  Tensor flip(Axes axis = {}) const;
  /// Padded with one (before, after) pair per axis; `mode` is "constant" (with `value`) or
  /// "reflect" (NumPy's reflect, any rank).
  Tensor pad(const Paddings& paddings, std::string_view mode = "constant",
             value_type value = 0) const;
  /// Padded with the same (before, after) pair on every axis (NumPy: `pad(x, (1, 1))`).
  Tensor pad(std::pair<std::int64_t, std::int64_t> every_axis, std::string_view mode = "constant",
             value_type value = 0) const {
    return pad(Paddings(static_cast<std::size_t>(ndim()), every_axis), mode, value);
  }

  // --- indexing and selection (ops/indexing.hpp) ---------------------------------------------
  static_assert(detail::indexing_contract<Backend>::value);  // names each missing backend function
  /// NumPy indexing: integers (negative too), `ep::slice(start, stop, step)`, `ep::newaxis`,
  /// `ep::ellipsis`, integer index tensors (broadcast together: advanced indexing) and bool
  /// masks, e.g. `t(1, ep::slice(0, 4, 2), ep::newaxis)`. Throws ep::index_error when out of range.
  template <class... I>
  Tensor operator()(const I&... items) const;
  /// `t(i)`: an integer, a slice, an index tensor or a bool mask (`t[mask]`).
  template <class I>
  Tensor operator[](const I& item) const {
    return (*this)(item);
  }
  /// A copy with the elements selected by `indices` (made with `ep::index(...)`) set to `values`,
  /// broadcast (EagerPy: `index_update`).
  template <class... I>
  Tensor index_update(const std::tuple<I...>& indices, const Tensor& values) const;
  template <class... I>
  Tensor index_update(const std::tuple<I...>& indices, value_type value) const;
  /// Sorted ascending along `axis` (NumPy: `sort`).
  Tensor sort(int axis = -1) const;
  /// The indices that sort along `axis`, stable (NumPy: `argsort(kind="stable")`).
  index_tensor argsort(int axis = -1) const;
  /// The `k` largest elements along `axis`, largest first, and their indices (PyTorch: `topk`).
  std::pair<Tensor, index_tensor> topk(std::int64_t k, bool sorted = true, int axis = -1) const;
  /// Elements gathered along `axis` at `index` (int64, same rank, broadcast on the other axes)
  /// (NumPy: `take_along_axis`).
  template <class I>
  Tensor take_along_axis(const Tensor<I>& index, int axis) const;

  /// Iteration over the first axis: `for (auto row : t)` (EagerPy: `__iter__`).
  class iterator {
   public:
    using value_type = Tensor;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const Tensor* t, std::int64_t i) : t_(t), i_(i) {}
    Tensor operator*() const { return (*t_)(i_); }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      auto old = *this;
      ++i_;
      return old;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.i_ == b.i_; }

   private:
    const Tensor* t_ = nullptr;
    std::int64_t i_ = 0;
  };
  [[nodiscard]] iterator begin() const { return iterator(this, 0); }
  [[nodiscard]] iterator end() const { return iterator(this, ndim() == 0 ? 0 : shape()[0]); }

  // --- linear algebra and nn ----------------------------------------------------------------
  static_assert(detail::linalg_contract<Backend>::value);  // names each missing backend function
  /// Matrix product; operands of rank > 2 are stacks of matrices whose batch axes broadcast.
  Tensor matmul(const Tensor& other) const;
  EAGERPP_MIXED_METHOD(matmul)
  /// The inverse of each (..., n, n) matrix (NumPy: `linalg.inv`; ep::linalg::inv). Throws
  /// ep::value_error for non-square input and ep::linalg_error for a singular matrix.
  Tensor inv() const;
  /// {sign, log|det|} of each (..., n, n) matrix (NumPy: `linalg.slogdet`); singular: {0, -inf}.
  std::pair<Tensor, Tensor> slogdet() const;
  /// exp(x) / sum(exp(x)) along `axis`, computed stably.
  Tensor softmax(int axis = -1) const;
  /// log(softmax(x)) along `axis`, computed stably.
  Tensor log_softmax(int axis = -1) const;
  /// For (N, C) logits and N integer labels: the per-sample loss logsumexp(x_i) - x_i[label_i],
  /// shape (N,) (EagerPy: `crossentropy`).
  template <class I>
  Tensor crossentropy(const Tensor<I>& labels) const;

  // --- operators ------------------------------------------------------------------------------
  Tensor operator-() const { return negative(); }
  /// `x += y` is `x = x + y`: `x` is rebound to a new tensor and nothing it shared is changed
  /// (other copies of the old `x` keep their values; on a tape the old value stays recorded). A `y`
  /// that would change x's dtype (`i += 0.5` for an integer `i`) is a compile-time error.
  template <class Other>
  Tensor& operator+=(const Other& other) {
    return assign_result(*this + other);
  }
  template <class Other>
  Tensor& operator-=(const Other& other) {
    return assign_result(*this - other);
  }
  template <class Other>
  Tensor& operator*=(const Other& other) {
    return assign_result(*this * other);
  }
  template <class Other>
  Tensor& operator/=(const Other& other) {
    return assign_result(*this / other);
  }

  /// A 0-d tensor of this backend and dtype holding `value` (converted to the dtype): a scalar
  /// operand that broadcasts against any shape, as in gradient rules (`g.full_scalar(0)`).
  template <scalar S>
  Tensor full_scalar(S value) const {
    return detail::make_constant<Tensor>(
        [&] { return Backend::full(Shape{}, static_cast<value_type>(value)); });
  }

 private:
  // Internals: the tape and the facade reach them through detail::tensor_access
  // (autodiff/tape.hpp), the lazy engine through detail::lazy_access (detail/fusion.hpp).
  friend struct detail::tensor_access;
  friend struct detail::lazy_access;
  // Names each optional hook the backend declares wrongly, whether or not anything calls it.
  static_assert(detail::backend_hooks<Backend>::value);

  /// Holds the native tensor that `compute()` returns, constructed in place (detail::make_output).
  template <detail::computes<raw_type> F>
  Tensor(detail::computed_t, F& compute) : raw_(compute()) {}
  /// Holds the result of an element-wise op: computed now or, on a backend that evaluates in
  /// blocks and for a large result, kept as an expression over the op's inputs (detail/fusion.hpp).
  template <class F, class... In>
  Tensor(detail::computed_t, detail::elementwise_call<F, In...>& call)
      : Tensor(call, lazy_result(call)) {}
  /// Holds a computation that a blocked backend may keep as an expression (a strided slice).
  template <class Now, class Lazy>
  Tensor(detail::computed_t, detail::deferrable<Now, Lazy>& call)
      : Tensor(call, lazy_result(call)) {}

  /// What shape_ref() returns: a reference where the native tensor holds an ep::Shape (Eigen).
  using shape_ref_type = std::conditional_t<
      std::is_reference_v<decltype(Backend::shape(std::declval<const raw_type&>()))>, const Shape&,
      Shape>;
  /// The shape as the backend gives it: a reference where the native tensor holds an ep::Shape
  /// (Eigen), else a value. For the facade's own checks on every op, which need no copy. A lazy
  /// tensor's shape is its expression's: asking for it computes nothing.
  [[nodiscard]] shape_ref_type shape_ref() const {
    if constexpr (detail::blocked_backend<Backend>) {
      if (lazy_) [[unlikely]]
        return lazy_->shape();
    }
    return Backend::shape(raw_);
  }
  /// Whether this tensor is an element-wise expression whose value is not computed yet.
  [[nodiscard]] bool is_lazy() const noexcept {
    if constexpr (detail::blocked_backend<Backend>) return lazy_ && !lazy_->computed();
    return false;
  }

  template <class R>
  Tensor& assign_result(R&& result) {
    static_assert(
        std::same_as<std::remove_cvref_t<R>, Tensor>,
        "ep: a compound assignment (x += y, x -= y, x *= y, x /= y) would change x's dtype "
        "(NumPy's "
        "casting rules: an integer tensor with a floating scalar, or integer true division); write "
        "x = x + y with a new variable, or convert with astype<U>() first");
    *this = std::forward<R>(result);
    return *this;
  }

  /// `Compute(raw())` with the gradient rule `rule`: every unary op (ops/elementwise.hpp).
  template <raw_type (*Compute)(const raw_type&), class Rule>
  Tensor unary(const Rule& rule) const;

  using lazy_ptr = std::shared_ptr<const detail::lazy_expr<Backend>>;

  template <class Call>
  Tensor(Call& call, lazy_ptr&& lazy)
      : raw_(lazy ? placeholder() : call()), lazy_(std::move(lazy)) {}
  template <class F, class... In>
  static lazy_ptr lazy_result(const detail::elementwise_call<F, In...>& call) {
    if constexpr (detail::blocked_backend<Backend>) {
      return detail::lazy_result<Backend>(call);
    } else {
      return nullptr;
    }
  }
  template <class Now, class Lazy>
  static lazy_ptr lazy_result(const detail::deferrable<Now, Lazy>& call) {
    if constexpr (detail::blocked_backend<Backend>) {
      return call.lazy();
    } else {
      return nullptr;
    }
  }
  /// What a lazy tensor holds in raw_, which it never reads: an empty native tensor.
  static raw_type placeholder() {
    if constexpr (std::is_default_constructible_v<raw_type>) {
      return raw_type();
    } else {
      return Backend::full(Shape{0}, value_type{});
    }
  }

  raw_type raw_;  // the values, unless lazy_ is set
  detail::node_id node_ = 0;
  lazy_ptr lazy_;  // the expression this tensor's values are (blocked backends, large results)
};

// --- operators: element-wise with NumPy broadcasting (ops/elementwise.hpp) -------------------
// Each takes two tensors of one backend, or a tensor and a C++ scalar on either side (the result's
// dtype then follows NumPy, ep::scalar_result_t). ops/elementwise.hpp adds one readable error for
// mixed backends or dtypes.

/// a + b (NumPy: `add`).
template <backend B>
Tensor<B> operator+(const Tensor<B>& a, const Tensor<B>& b);
/// a - b (NumPy: `subtract`).
template <backend B>
Tensor<B> operator-(const Tensor<B>& a, const Tensor<B>& b);
/// a * b (NumPy: `multiply`).
template <backend B>
Tensor<B> operator*(const Tensor<B>& a, const Tensor<B>& b);
/// a / b (NumPy: `true_divide`): floating tensors keep their dtype; integer tensors give float64
/// (`[-3, -1, 3, 7] / 2` is `[-1.5, -0.5, 1.5, 3.5]`; `floordiv` and `%` floor).
template <backend B>
auto operator/(const Tensor<B>& a, const Tensor<B>& b);
/// a % b: the remainder has the divisor's sign (NumPy: `mod`).
template <backend B>
Tensor<B> operator%(const Tensor<B>& a, const Tensor<B>& b);
/// Comparisons (NumPy: `less`, `less_equal`, `greater`, `greater_equal`, `equal`, `not_equal`):
/// bool tensors. Two numeric dtypes compare after NumPy's promotion (float32 < int64 in float64).
template <backend B>
auto operator<(const Tensor<B>& a, const Tensor<B>& b);
template <backend B>
auto operator<=(const Tensor<B>& a, const Tensor<B>& b);
template <backend B>
auto operator>(const Tensor<B>& a, const Tensor<B>& b);
template <backend B>
auto operator>=(const Tensor<B>& a, const Tensor<B>& b);
template <backend B>
auto operator==(const Tensor<B>& a, const Tensor<B>& b);
template <backend B>
auto operator!=(const Tensor<B>& a, const Tensor<B>& b);
// With a scalar on either side, for each of the operators above.
template <backend B, scalar S>
auto operator+(const Tensor<B>& a, S b);
template <backend B, scalar S>
auto operator+(S a, const Tensor<B>& b);
template <backend B, scalar S>
auto operator-(const Tensor<B>& a, S b);
template <backend B, scalar S>
auto operator-(S a, const Tensor<B>& b);
template <backend B, scalar S>
auto operator*(const Tensor<B>& a, S b);
template <backend B, scalar S>
auto operator*(S a, const Tensor<B>& b);
template <backend B, scalar S>
auto operator/(const Tensor<B>& a, S b);
template <backend B, scalar S>
auto operator/(S a, const Tensor<B>& b);
template <backend B, scalar S>
auto operator%(const Tensor<B>& a, S b);
template <backend B, scalar S>
auto operator%(S a, const Tensor<B>& b);
template <backend B, scalar S>
auto operator<(const Tensor<B>& a, S b);
template <backend B, scalar S>
auto operator<(S a, const Tensor<B>& b);
template <backend B, scalar S>
auto operator<=(const Tensor<B>& a, S b);
template <backend B, scalar S>
auto operator<=(S a, const Tensor<B>& b);
template <backend B, scalar S>
auto operator>(const Tensor<B>& a, S b);
template <backend B, scalar S>
auto operator>(S a, const Tensor<B>& b);
template <backend B, scalar S>
auto operator>=(const Tensor<B>& a, S b);
template <backend B, scalar S>
auto operator>=(S a, const Tensor<B>& b);
template <backend B, scalar S>
auto operator==(const Tensor<B>& a, S b);
template <backend B, scalar S>
auto operator==(S a, const Tensor<B>& b);
template <backend B, scalar S>
auto operator!=(const Tensor<B>& a, S b);
template <backend B, scalar S>
auto operator!=(S a, const Tensor<B>& b);

namespace detail {
/// `f(x, s)`: `x` is `a` converted to the dtype of `a op scalar` and `s` the scalar as a 0-d tensor
/// of that dtype.
template <backend B, scalar S, class F>
auto with_scalar(const Tensor<B>& a, S value, F&& f) {
  using R = scalar_result_t<typename B::value_type, S>;
  if constexpr (std::same_as<R, typename B::value_type>) {
    const Tensor<B> s = a.full_scalar(value);
    return f(a, s);
  } else {
    const auto x = a.template astype<R>();
    const auto s = x.full_scalar(value);
    return f(x, s);
  }
}

/// Every value `t` holds in any example, as a tensor of the backend underneath ep::vmap's batching
/// (`t` itself outside vmap): what a check of all of an index's values reads, since under vmap
/// `t.min().item()` would be one minimum per example.
template <backend B>
auto all_examples(const Tensor<B>& t) {
  if constexpr (batching_backend<B>) {
    return all_examples(Tensor<typename B::unbatched_backend>(t.raw().data));
  } else {
    return t;
  }
}
}  // namespace detail

}  // namespace ep

#undef EAGERPP_MIXED_METHOD

// The free functions first: the op definitions below use some of them (from_vector); then the
// families in the order they build on each other (not sorted).
// clang-format off
#include "eagerpp/functions.hpp"
#include "eagerpp/ops/creation.hpp"
#include "eagerpp/ops/elementwise.hpp"
#include "eagerpp/ops/complex.hpp"
#include "eagerpp/ops/reductions.hpp"
#include "eagerpp/ops/shape.hpp"
#include "eagerpp/ops/indexing.hpp"
#include "eagerpp/ops/linalg.hpp"
#include "eagerpp/ops/nn.hpp"
// clang-format on
