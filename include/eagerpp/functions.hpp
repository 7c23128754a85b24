// eagerpp - free functions: ep::zeros<B>(shape), ep::from_vector, and ep::name(x, ...) for each
// method
// SPDX-License-Identifier: MIT

// tensor.hpp includes this header after the class and before the op definitions, which call these
// functions; included first, this header must therefore let tensor.hpp's nested inclusion define
// them, so it has an include guard (set below the include) instead of `#pragma once`.
#include "eagerpp/tensor.hpp"

#ifndef EAGERPP_FUNCTIONS_HPP
#define EAGERPP_FUNCTIONS_HPP

#include <initializer_list>  // std::initializer_list
#include <memory>            // std::unique_ptr
#include <tuple>             // std::tuple
#include <type_traits>       // std::common_type_t, std::conditional_t
#include <utility>           // std::move
#include <vector>            // std::vector

#include <fmt/format.h>

#include "eagerpp/ops/binary_list.hpp"
#include "eagerpp/ops/unary_list.hpp"

namespace ep {

namespace detail {
/// Whether T is an ep::Tensor.
template <class T>
inline constexpr bool is_tensor = false;
template <class B>
inline constexpr bool is_tensor<Tensor<B>> = true;

/// Whether the free functions that forward to a method of the same name (ep::exp(x) is x.exp())
/// take T: an ep::Tensor, and an ep::basic_any_tensor, which any.hpp adds.
template <class T>
inline constexpr bool is_facade_tensor = is_tensor<T>;
}  // namespace detail

/// A tensor of the facade, static (ep::Tensor<B>) or chosen at run time (ep::AnyTensor).
template <class T>
concept facade_tensor = detail::is_facade_tensor<T>;

// --- creation from a backend tag ---------------------------------------------------------------

/// A tensor of backend B with `shape` and the elements of `data` in C order (NumPy:
/// `array(data).reshape(shape)`).
template <backend B>
Tensor<B> from_vector(const std::vector<typename B::value_type>& data, const Shape& shape) {
  if (static_cast<std::int64_t>(data.size()) != shape.numel())
    throw value_error(fmt::format("from_vector: got {} elements for shape {}; expected {}",
                                  data.size(), shape.str(), shape.numel()));
  for (auto d : shape)
    if (d < 0)
      throw value_error(fmt::format("from_vector: negative extent in shape {}", shape.str()));
  if constexpr (std::same_as<typename B::value_type, bool>) {  // std::vector<bool> has no data()
    std::unique_ptr<bool[]> tmp(new bool[data.size() + 1]);
    std::copy(data.begin(), data.end(), tmp.get());
    return Tensor<B>(B::from_data(tmp.get(), shape));
  } else {
    return Tensor<B>(B::from_data(data.data(), shape));
  }
}

/// A 1-D tensor of backend B (NumPy: `array(data)`).
template <backend B>
Tensor<B> from_vector(const std::vector<typename B::value_type>& data) {
  return from_vector<B>(data, Shape{static_cast<std::int64_t>(data.size())});
}

/// `value` everywhere (NumPy: `full`).
template <backend B>
Tensor<B> full(const Shape& shape, typename B::value_type value) {
  return Tensor<B>(B::full(Shape{}, value)).full(shape, value);
}

/// Zeros of backend B (NumPy: `zeros`).
template <backend B>
Tensor<B> zeros(const Shape& shape) {
  return full<B>(shape, 0);
}

/// Ones of backend B (NumPy: `ones`).
template <backend B>
Tensor<B> ones(const Shape& shape) {
  return full<B>(shape, 1);
}

/// NumPy's `arange(start, stop, step)` of backend B.
template <backend B>
Tensor<B> arange(double start, double stop, double step = 1) {
  return Tensor<B>(B::full(Shape{}, 0)).arange(start, stop, step);
}

/// NumPy's `arange(stop)` of backend B.
template <backend B>
Tensor<B> arange(double stop) {
  return arange<B>(0, stop, 1);
}

/// `num` evenly spaced numbers from `start` to `stop` of a floating backend B (NumPy: `linspace`);
/// `stop` is the last one unless `endpoint` is false. Throws ep::value_error for a negative `num`.
template <backend B>
Tensor<B> linspace(double start, double stop, std::int64_t num = 50, bool endpoint = true) {
  static_assert(floating_dtype<typename B::value_type>,
                "ep::linspace: needs a floating backend, e.g. ep::eigen<double>");
  if (num < 0) throw value_error(fmt::format("linspace: got num = {}; expected num >= 0", num));
  const std::int64_t div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  std::vector<typename B::value_type> data(static_cast<std::size_t>(num));
  for (std::int64_t i = 0; i < num; ++i)
    data[static_cast<std::size_t>(i)] =
        static_cast<typename B::value_type>(start + static_cast<double>(i) * step);
  if (endpoint && num > 1) data.back() = static_cast<typename B::value_type>(stop);
  return from_vector<B>(data, Shape(num));
}

// --- EagerPy's forms: the first tensor supplies the backend -------------------------------------

template <backend B>
Tensor<B> zeros(const Tensor<B>& t, const Shape& shape) {
  return t.zeros(shape);
}
template <backend B>
Tensor<B> ones(const Tensor<B>& t, const Shape& shape) {
  return t.ones(shape);
}
template <backend B>
Tensor<B> full(const Tensor<B>& t, const Shape& shape, typename B::value_type value) {
  return t.full(shape, value);
}
template <backend B>
Tensor<B> zeros_like(const Tensor<B>& t) {
  return t.zeros_like();
}
template <backend B>
Tensor<B> ones_like(const Tensor<B>& t) {
  return t.ones_like();
}
template <backend B>
Tensor<B> full_like(const Tensor<B>& t, typename B::value_type value) {
  return t.full_like(value);
}
template <backend B>
Tensor<B> arange(const Tensor<B>& t, double start, double stop, double step = 1) {
  return t.arange(start, stop, step);
}
template <backend B>
Tensor<B> arange(const Tensor<B>& t, double stop) {
  return t.arange(stop);
}
template <backend B, class I>
Tensor<B> onehot_like(const Tensor<B>& t, const Tensor<I>& indices,
                      typename B::value_type value = 1) {
  return t.onehot_like(indices, value);
}

// --- element-wise -------------------------------------------------------------------------------

// ep::name(x), x.name() of a static or any tensor, for each unary op of ops/unary_list.hpp and
// those of another gradient or result dtype (a macro argument each, so that the one line names it).
#define EAGERPP_FREE_UNARY(name, ...) \
  template <facade_tensor Tn>         \
  auto name(const Tn& x) {            \
    return x.name();                  \
  }
EAGERPP_UNARY_OPS(EAGERPP_FREE_UNARY)
EAGERPP_FREE_UNARY(negative)
EAGERPP_FREE_UNARY(isnan)
EAGERPP_FREE_UNARY(isinf)
EAGERPP_FREE_UNARY(logical_not)
EAGERPP_FREE_UNARY(inv)
EAGERPP_FREE_UNARY(real)
EAGERPP_FREE_UNARY(imag)
EAGERPP_FREE_UNARY(conj)
EAGERPP_FREE_UNARY(angle)
#undef EAGERPP_FREE_UNARY
template <facade_tensor Tn, scalar S1, scalar S2>
auto clip(const Tn& x, S1 min_, S2 max_) {
  return x.clip(min_, max_);
}

// ep::name(x, y) of two static or two any tensors of one backend and dtype (x.name(y)), and of a
// static tensor and a scalar on either side (the dtype of the result: scalar_result_t), for the
// binary ops the facade spells as methods (ops/binary_list.hpp: `METHOD, name`); the operators
// (`OPERATOR, +`) are the free functions of the others.
#define EAGERPP_FREE_BINARY_OPERATOR(symbol)
#define EAGERPP_FREE_BINARY_METHOD(name)                                                      \
  template <facade_tensor Tn>                                                                 \
  auto name(const Tn& x, const Tn& y) {                                                       \
    return x.name(y);                                                                         \
  }                                                                                           \
  template <backend B, scalar S>                                                              \
  auto name(const Tensor<B>& x, S y) {                                                        \
    return x.name(y);                                                                         \
  }                                                                                           \
  template <backend B, scalar S>                                                              \
  auto name(S x, const Tensor<B>& y) {                                                        \
    return detail::with_scalar(y, x, [](const auto& t, const auto& s) { return s.name(t); }); \
  }
#define EAGERPP_FREE_BINARY(name, dtypes, spelling, spelled) EAGERPP_FREE_BINARY_##spelling(spelled)
EAGERPP_BINARY_OPS(EAGERPP_FREE_BINARY)
#undef EAGERPP_FREE_BINARY
#undef EAGERPP_FREE_BINARY_METHOD

// Two tensors of different dtypes of one backend library in a free function: both are promoted,
// as the operators do (ops/elementwise.hpp); under ep::vmap, a tensor the function captured meets
// a batched one and is lifted, shared by every example. Other mixes are one sentence naming the
// function, instead of "deduced conflicting types for 'B'". Trailing arguments (an axis) pass
// through. The array API's two-tensor functions (ops/array_api.hpp) use it too.
#define EAGERPP_MIXED_FUNCTION(name)                                                               \
  template <backend B1, backend B2, class... Args>                                                 \
  requires(!std::same_as<B1, B2>) auto name(const Tensor<B1>& a, const Tensor<B2>& b,              \
                                            const Args&... args) {                                 \
    static_assert(detail::mixable<B1, B2>, EAGERPP_MIXED_SENTENCE(#name));                         \
    if constexpr (detail::mixable<B1, B2>)                                                         \
      return detail::mix(a, b, [&](const auto& x, const auto& y) { return name(x, y, args...); }); \
    else                                                                                           \
      return a;                                                                                    \
  }
// ep::name(x, s) and ep::name(s, x) of a two-tensor function with a C++ scalar on one side (the
// array API's scalar arguments): the scalar is a 0-d tensor of the dtype of `x op s`
// (detail::with_scalar, NumPy's rules: `atan2(i, 1.0)` of an int32 `i` is float64).
#define EAGERPP_SCALAR_FUNCTION(name)                                                          \
  template <backend B, scalar S>                                                               \
  auto name(const Tensor<B>& x, S y) {                                                         \
    return detail::with_scalar(x, y, [](const auto& t, const auto& s) { return name(t, s); }); \
  }                                                                                            \
  template <backend B, scalar S>                                                               \
  auto name(S x, const Tensor<B>& y) {                                                         \
    return detail::with_scalar(y, x, [](const auto& t, const auto& s) { return name(s, t); }); \
  }
#define EAGERPP_FREE_BINARY_METHOD(name) EAGERPP_MIXED_FUNCTION(name)
#define EAGERPP_FREE_BINARY(name, dtypes, spelling, spelled) EAGERPP_FREE_BINARY_##spelling(spelled)
EAGERPP_BINARY_OPS(EAGERPP_FREE_BINARY)
#undef EAGERPP_FREE_BINARY
#undef EAGERPP_FREE_BINARY_METHOD
#undef EAGERPP_FREE_BINARY_OPERATOR
EAGERPP_MIXED_FUNCTION(matmul)

/// `x` where `condition` is true, `y` elsewhere, with broadcasting (NumPy: `where`); `x` or `y` may
/// be a scalar, with NumPy's dtype for a tensor and a scalar (ep::scalar_result_t: `where(c, i,
/// 0.5)` of an int64 `i` is float64).
template <backend C, backend B>
Tensor<B> where(const Tensor<C>& condition, const Tensor<B>& x, const Tensor<B>& y) {
  return condition.where(x, y);
}
template <backend C, backend B, scalar S>
auto where(const Tensor<C>& condition, const Tensor<B>& x, S y) {
  return detail::with_scalar(x, y,
                             [&](const auto& t, const auto& s) { return condition.where(t, s); });
}
template <backend C, backend B, scalar S>
auto where(const Tensor<C>& condition, S x, const Tensor<B>& y) {
  return detail::with_scalar(y, x,
                             [&](const auto& t, const auto& s) { return condition.where(s, t); });
}
// x and y of different dtypes of one backend library: both promoted, as the operators do; a tensor
// captured under ep::vmap is lifted; other mixes: the operators' sentence, naming where.
template <backend C, backend B1, backend B2>
requires(!std::same_as<B1, B2>) auto where(const Tensor<C>& condition, const Tensor<B1>& x,
                                           const Tensor<B2>& y) {
  static_assert(detail::mixable<B1, B2>, EAGERPP_MIXED_SENTENCE("where"));
  if constexpr (detail::mixable<B1, B2>)
    return detail::mix(x, y, [&](const auto& a, const auto& b) { return where(condition, a, b); });
  else
    return x;
}

namespace detail {
/// NumPy's dtype of an array made from a C++ scalar: float32 for float, float64 for double, int64
/// for integers, bool for bool.
template <class S>
using scalar_dtype_t = std::conditional_t<
    std::same_as<S, bool>, bool,
    std::conditional_t<std::same_as<S, float>, float,
                       std::conditional_t<std::is_floating_point_v<S>, double, std::int64_t>>>;
}  // namespace detail

/// `where(condition, x, y)` with two scalars: a tensor of the condition's backend whose dtype is
/// NumPy's for the two scalars together (`where(c, 2, 5)` is int64, `where(c, 1.0, 0)` float64).
template <backend C, scalar S1, scalar S2>
auto where(const Tensor<C>& condition, S1 x, S2 y) {
  using T = detail::scalar_dtype_t<std::common_type_t<S1, S2>>;
  using Tn = typename Tensor<C>::template rebind<T>;
  const Tn base(Tn::backend_type::full(Shape{}, T{}));
  return condition.where(base.full_scalar(x), base.full_scalar(y));
}

// --- reductions ---------------------------------------------------------------------------------

// ep::name(x, axis, keepdims) of a static or any tensor, for the reductions over axes.
#define EAGERPP_FREE_REDUCTION(name)                              \
  template <facade_tensor Tn>                                     \
  auto name(const Tn& x, Axes axis = {}, bool keepdims = false) { \
    return x.name(std::move(axis), keepdims);                     \
  }
#define EAGERPP_FREE_REDUCTION_ROW(name, ...) EAGERPP_FREE_REDUCTION(name)
EAGERPP_REDUCTION_OPS(EAGERPP_FREE_REDUCTION_ROW)
#undef EAGERPP_FREE_REDUCTION_ROW
#undef EAGERPP_FREE_REDUCTION
// ep::name(x, ...) of a static or any tensor, for the ops whose arguments are numbers
// (x.name(...)).
#define EAGERPP_FREE_FORWARD(name)                               \
  template <facade_tensor Tn, scalar... A>                       \
  auto name(const Tn& x, A... args)->decltype(x.name(args...)) { \
    return x.name(args...);                                      \
  }
#define EAGERPP_FREE_FORWARD_ROW(name, ...) EAGERPP_FREE_FORWARD(name)
EAGERPP_AXIS_REDUCTION_OPS(EAGERPP_FREE_FORWARD_ROW)
#undef EAGERPP_FREE_FORWARD_ROW
EAGERPP_FREE_FORWARD(flatten)
EAGERPP_FREE_FORWARD(expand_dims)
EAGERPP_FREE_FORWARD(softmax)
EAGERPP_FREE_FORWARD(log_softmax)
EAGERPP_FREE_FORWARD(sort)
EAGERPP_FREE_FORWARD(argsort)
EAGERPP_FREE_FORWARD(topk)
EAGERPP_FREE_FORWARD(slogdet)
#undef EAGERPP_FREE_FORWARD

// --- shape ---------------------------------------------------------------------------------------

template <facade_tensor Tn>
Tn reshape(const Tn& x, const Shape& shape) {
  return x.reshape(shape);
}
template <facade_tensor Tn>
Tn transpose(const Tn& x) {
  return x.transpose();
}
template <backend B>
Tensor<B> transpose(const Tensor<B>& x, const std::vector<int>& perm) {
  return x.transpose(perm);
}
template <backend B>
Tensor<B> squeeze(const Tensor<B>& x, Axes axis = {}) {
  return x.squeeze(axis);
}
template <backend B>
Tensor<B> broadcast_to(const Tensor<B>& x, const Shape& shape) {
  return x.broadcast_to(shape);
}
template <backend B>
Tensor<B> tile(const Tensor<B>& x, const std::vector<std::int64_t>& multiples) {
  return x.tile(multiples);
}
template <backend B>
Tensor<B> flip(const Tensor<B>& x, Axes axis = {}) {
  return x.flip(axis);
}
template <backend B>
Tensor<B> pad(const Tensor<B>& x, const Paddings& paddings, std::string_view mode = "constant",
              typename B::value_type value = 0) {
  return x.pad(paddings, mode, value);
}
template <backend B>
Tensor<B> pad(const Tensor<B>& x, std::pair<std::int64_t, std::int64_t> every_axis,
              std::string_view mode = "constant", typename B::value_type value = 0) {
  return x.pad(every_axis, mode, value);
}

// --- nn ------------------------------------------------------------------------------------------

template <backend B, class I>
Tensor<B> crossentropy(const Tensor<B>& logits, const Tensor<I>& labels) {
  return logits.crossentropy(labels);
}

/// Coordinate matrices from 1-D coordinate vectors (NumPy: `meshgrid`): with `indexing` "xy" (the
/// default) the first two output axes are swapped, with "ij" they follow the inputs.
template <backend B>
std::vector<Tensor<B>> meshgrid(const std::vector<Tensor<B>>& xs,
                                std::string_view indexing = "xy") {
  if (indexing != "xy" && indexing != "ij")
    throw value_error(
        fmt::format("meshgrid: unknown indexing '{}'; expected \"xy\" or \"ij\"", indexing));
  Shape shape;
  for (const auto& x : xs) {
    if (x.ndim() != 1)
      throw value_error(
          fmt::format("meshgrid: got an input of shape {}; expected 1-D inputs", x.shape().str()));
    shape.push_back(x.size());
  }
  const bool xy = indexing == "xy" && xs.size() >= 2;
  if (xy) std::swap(shape[0], shape[1]);
  std::vector<Tensor<B>> out;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    Shape s;
    for (int j = 0; j < shape.size(); ++j) s.push_back(1);
    const int axis = xy && i < 2 ? static_cast<int>(1 - i) : static_cast<int>(i);
    s[axis] = xs[i].size();
    out.push_back(xs[i].reshape(s).broadcast_to(shape));
  }
  return out;
}

// --- indexing, sorting and linear algebra: EagerPy's free functions ------------------------------

template <backend B, class I>
Tensor<B> take_along_axis(const Tensor<B>& x, const Tensor<I>& index, int axis) {
  return x.take_along_axis(index, axis);
}
template <backend B, class... I, class V>
Tensor<B> index_update(const Tensor<B>& x, const std::tuple<I...>& indices, const V& values) {
  return x.index_update(indices, values);
}

/// `meshgrid({x, y}, indexing)`: a brace list of tensors of one backend.
template <backend B>
std::vector<Tensor<B>> meshgrid(std::initializer_list<Tensor<B>> xs,
                                std::string_view indexing = "xy") {
  return meshgrid(std::vector<Tensor<B>>(xs), indexing);
}

namespace detail {
/// An element of a brace list whose tensors have different backends or dtypes (`ep::stack({x, d})`
/// with x float and d double): the list overloads taking it exist only to say so in one sentence
/// (else the user reads "no matching function for call to 'stack(<brace-enclosed initializer
/// list>)'"). A list of one backend and dtype binds to `std::initializer_list<Tensor<B>>` instead,
/// an exact match where this is a user-defined conversion.
struct mixed_list_element {
  template <backend B>
  mixed_list_element(const Tensor<B>&) {
  }  // NOLINT(google-explicit-constructor): implicit on purpose
};
}  // namespace detail

// `Mixed` is never deduced (std::type_identity_t): it stays mixed_list_element, and it makes the
// static_assert depend on a template parameter, so that it fires only when the overload is chosen.
#define EAGERPP_MIXED_LIST(name, Extra, ...)                                                   \
  template <class Mixed = detail::mixed_list_element>                                          \
  requires std::same_as<Mixed, detail::mixed_list_element> /* not name<B>({}) */               \
  auto name(std::initializer_list<std::type_identity_t<Mixed>>, Extra = __VA_ARGS__) {         \
    static_assert(                                                                             \
        detail::always_false<Mixed>,                                                           \
        "ep::" #name                                                                           \
        ": the tensors in the braces have different backends or dtypes (or there "             \
        "are none to deduce them from); convert one with ep::to<Backend>(t) or t.astype<U>() " \
        "first");                                                                              \
    return 0;                                                                                  \
  }
EAGERPP_MIXED_LIST(stack, int, 0)
EAGERPP_MIXED_LIST(concatenate, int, 0)
EAGERPP_MIXED_LIST(meshgrid, std::string_view, "xy")
#undef EAGERPP_MIXED_LIST

/// The casts as free functions.
template <dtype U, backend B>
auto astype(const Tensor<B>& x) {
  return x.template astype<U>();
}

}  // namespace ep

#endif  // EAGERPP_FUNCTIONS_HPP
