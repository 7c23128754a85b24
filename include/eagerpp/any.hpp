// eagerpp - ep::AnyTensor: a tensor whose backend and dtype are chosen at run time, over a closed
// set of backends
// SPDX-License-Identifier: MIT
#pragma once

#include <array>        // std::array
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int32_t, std::int64_t
#include <optional>     // std::optional
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <type_traits>  // std::remove_cvref_t, std::type_identity, std::invoke_result_t
#include <utility>      // std::pair, std::index_sequence
#include <variant>      // std::variant, std::visit, std::get_if
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/detail/any_dispatch.hpp"
#include "eagerpp/eagerpp.hpp"
#include "eagerpp/ops/binary_list.hpp"
#include "eagerpp/ops/unary_list.hpp"

// The set ep::AnyTensor holds: EAGERPP_ANY_BACKENDS names it, e.g.
// `#define EAGERPP_ANY_BACKENDS ep::any_backends<ep::eigen>` before including this header (and the
// backends' headers); define it alike in every translation unit of a program. By default: the host
// backends this header can include, Eigen and xtensor (the CUDA backend needs nvcc: add ep::cuda
// explicitly).
#ifndef EAGERPP_ANY_BACKENDS
#if __has_include(<eagerpp/eigen.hpp>) && __has_include(<unsupported/Eigen/CXX11/Tensor>)
#include "eagerpp/eigen.hpp"
#define EAGERPP_ANY_EIGEN_ ::ep::any_backends<::ep::eigen>
#else
#define EAGERPP_ANY_EIGEN_ ::ep::any_backends<>
#endif
#if __has_include(<eagerpp/xtensor.hpp>) && __has_include(<xtensor/xarray.hpp>)
#include "eagerpp/xtensor.hpp"
#define EAGERPP_ANY_XTENSOR_ ::ep::any_backends<::ep::xtensor>
#else
#define EAGERPP_ANY_XTENSOR_ ::ep::any_backends<>
#endif
#define EAGERPP_ANY_BACKENDS \
  typename ::ep::detail::any_join<EAGERPP_ANY_EIGEN_, EAGERPP_ANY_XTENSOR_>::type
#endif

// The dispatch kind of an op list's DTYPES (ops/unary_list.hpp, ops/binary_list.hpp).
#define EAGERPP_ANY_KIND_FLOAT detail::any_kind::floating
#define EAGERPP_ANY_KIND_INEXACT detail::any_kind::inexact
#define EAGERPP_ANY_KIND_ARITHMETIC detail::any_kind::arithmetic
#define EAGERPP_ANY_KIND_NUMERIC detail::any_kind::numeric
#define EAGERPP_ANY_KIND_EVERY detail::any_kind::every
#define EAGERPP_ANY_KIND_BOOL detail::any_kind::boolean

namespace ep {

template <class Backends, class Dtypes = any_real_dtypes>
class basic_any_tensor;

/// A tensor whose backend and dtype are chosen at run time: one of `ep::Tensor<F<T>>` for each
/// family F of `Families` and each dtype T of `Dtypes` (by default the array API's eleven real
/// dtypes), held in a std::variant. Methods, free functions and operators have the static tensor's
/// names and dispatch to it once per call (one switch). An op on two any tensors needs both to
/// hold the same backend; two dtypes promote as between static tensors (`int8 + uint8` holds
/// int16: both are converted first, at run time), and uint64 with a signed integer, or two
/// backends, throw ep::value_error naming both. An op that the held dtype does not support (`sqrt`
/// of int32, `+` of bool) throws ep::value_error where the static tensor fails to compile. Members
/// are instantiated only when used: an op costs its static versions for every alternative that
/// admits it, not more. Usually named `ep::AnyTensor`.
template <template <class> class... Families, class... Dtypes>
class [[nodiscard]] basic_any_tensor<any_backends<Families...>, any_dtypes<Dtypes...>> {
 public:
  using variant_type = typename detail::any_concat<
      typename detail::any_family<Families, any_dtypes<Dtypes...>>::type...>::type;

  /// Holds `t` (any backend of the set, any dtype).
  template <ep::backend B>
  requires std::is_constructible_v<variant_type, Tensor<B>> basic_any_tensor(const Tensor<B>& t)
      : value_(std::in_place_type<Tensor<B>>, t) {}  // NOLINT(google-explicit-constructor)
  template <ep::backend B>
  requires std::is_constructible_v<variant_type, Tensor<B>> basic_any_tensor(Tensor<B>&& t)
      : value_(std::in_place_type<Tensor<B>>, std::move(t)) {}  // NOLINT

  // --- creation from a spec "backend:dtype", e.g. "eigen:float32" -----------------------------

  /// Every spec this type accepts, e.g. {"eigen:float32", ..., "xtensor:bool"}.
  static std::vector<std::string> specs() {
    std::vector<std::string> out;
    for_each_alternative([&]<class B>(std::type_identity<B>) { out.push_back(spec_of<B>()); });
    return out;
  }
  /// Zeros of `shape` (NumPy: `zeros(shape, dtype)`). Throws ep::value_error for an unknown spec.
  static basic_any_tensor zeros(std::string_view spec, const Shape& shape) {
    return create(spec, [&]<class B>(std::type_identity<B>) -> basic_any_tensor {
      return ep::zeros<B>(shape);
    });
  }
  /// Ones of `shape` (NumPy: `ones`).
  static basic_any_tensor ones(std::string_view spec, const Shape& shape) {
    return create(spec, [&]<class B>(std::type_identity<B>) -> basic_any_tensor {
      return ep::ones<B>(shape);
    });
  }
  /// `value`, converted to the spec's dtype, everywhere (NumPy: `full`).
  static basic_any_tensor full(std::string_view spec, const Shape& shape, double value) {
    return create(spec, [&]<class B>(std::type_identity<B>) -> basic_any_tensor {
      return ep::full<B>(shape, static_cast<typename B::value_type>(value));
    });
  }
  /// 0, 1, ..., n - 1 (NumPy: `arange(n)`); not for bool.
  static basic_any_tensor arange(std::string_view spec, double n) { return arange(spec, 0, n, 1); }
  /// start, start + step, ... below stop (NumPy: `arange(start, stop, step)`); not for bool.
  static basic_any_tensor arange(std::string_view spec, double start, double stop,
                                 double step = 1) {
    return create(spec, [&]<class B>(std::type_identity<B>) -> basic_any_tensor {
      if constexpr (numeric_dtype<typename B::value_type>)
        return ep::arange<B>(start, stop, step);
      else
        throw value_error(
            fmt::format("arange: not defined for spec {}; expected a numeric dtype", spec));
    });
  }
  /// The elements of `values`, converted to the spec's dtype (bool: != 0), in C order (NumPy:
  /// `array`).
  static basic_any_tensor from_vector(std::string_view spec, const std::vector<double>& values,
                                      const Shape& shape) {
    return create(spec, [&]<class B>(std::type_identity<B>) -> basic_any_tensor {
      using V = typename B::value_type;
      std::vector<V> converted;
      converted.reserve(values.size());
      for (double v : values) converted.push_back(static_cast<V>(v));
      return ep::from_vector<B>(converted, shape);
    });
  }

  // --- what it holds -------------------------------------------------------------------------

  /// The backend's name: "eigen", "xtensor", "cuda".
  [[nodiscard]] std::string_view backend() const {
    return std::visit(
        [](const auto& t) -> std::string_view { return backend_of<decltype(t)>::name; }, value_);
  }
  /// NumPy's name of the dtype: "float32", "uint8", "bool", ...
  [[nodiscard]] std::string_view dtype() const {
    return std::visit([](const auto& t) { return t.dtype(); }, value_);
  }
  /// "backend:dtype", as the creation functions take it.
  [[nodiscard]] std::string spec() const { return fmt::format("{}:{}", backend(), dtype()); }
  /// Whether it holds an ep::Tensor<B>.
  template <ep::backend B>
  [[nodiscard]] bool holds() const noexcept {
    return std::holds_alternative<Tensor<B>>(value_);
  }
  /// The static tensor it holds; throws ep::value_error naming both if it holds another backend or
  /// dtype.
  template <ep::backend B>
  [[nodiscard]] const Tensor<B>& as() const& {
    if (const auto* t = std::get_if<Tensor<B>>(&value_)) [[likely]]
      return *t;
    throw_as_error(spec_of<B>());
  }
  /// The static tensor it holds, moved out of this temporary.
  template <ep::backend B>
  [[nodiscard]] Tensor<B> as() && {
    if (auto* t = std::get_if<Tensor<B>>(&value_)) [[likely]]
      return std::move(*t);
    throw_as_error(spec_of<B>());
  }
  /// The variant itself, for std::visit.
  [[nodiscard]] const variant_type& variant() const noexcept { return value_; }

  [[nodiscard]] Shape shape() const {
    return std::visit([](const auto& t) { return t.shape(); }, value_);
  }
  [[nodiscard]] int ndim() const {
    return std::visit([](const auto& t) { return t.ndim(); }, value_);
  }
  [[nodiscard]] std::int64_t size() const {
    return std::visit([](const auto& t) { return t.size(); }, value_);
  }
  /// The one element, converted to U (NumPy: `item`); throws as the static tensor's item, and
  /// ep::value_error for a complex tensor and a real U (`item<std::complex<double>>()` reads it).
  template <class U = double>
  [[nodiscard]] U item() const {
    return std::visit(
        [&](const auto& t) -> U {
          if constexpr (drops_imaginary<decltype(t), U>)
            throw_real_read("item");
          else
            return convert<U>(t.item());
        },
        value_);
  }
  /// Every element in C order, converted to U; complex elements need a complex U, as item.
  template <class U = double>
  [[nodiscard]] std::vector<U> to_vector() const {
    return std::visit(
        [&](const auto& t) -> std::vector<U> {
          if constexpr (drops_imaginary<decltype(t), U>) {
            throw_real_read("to_vector");
          } else {
            std::vector<U> out;
            for (auto v : t.to_vector()) out.push_back(convert<U>(v));
            return out;
          }
        },
        value_);
  }

  // --- element-wise: unary -----------------------------------------------------------------------

  // The unary ops of ops/unary_list.hpp, for the dtypes each takes.
#define EAGERPP_ANY_UNARY(name, dtypes, grad, scalar)                       \
  basic_any_tensor name() const {                                           \
    return unary<detail::any_unary_kind(EAGERPP_ANY_KIND_##dtypes, #name)>( \
        #name, [](const auto& t) { return t.name(); });                     \
  }
  EAGERPP_UNARY_OPS(EAGERPP_ANY_UNARY)
#undef EAGERPP_ANY_UNARY
  basic_any_tensor negative() const {
    return unary<arithmetic>("negative", [](const auto& t) { return t.negative(); });
  }
  basic_any_tensor operator-() const { return negative(); }
  /// Clipped to [min_, max_], both converted to the dtype.
  basic_any_tensor clip(double min_, double max_) const {
    return unary<numeric>("clip", [&](const auto& t) {
      using V = typename std::remove_cvref_t<decltype(t)>::value_type;
      return t.clip(static_cast<V>(min_), static_cast<V>(max_));
    });
  }
  basic_any_tensor isnan() const {
    return unary<arithmetic>("isnan", [](const auto& t) { return t.isnan(); });
  }
  basic_any_tensor isinf() const {
    return unary<arithmetic>("isinf", [](const auto& t) { return t.isinf(); });
  }
  /// The real part (of a real tensor: itself), the imaginary part (of a real tensor: zeros), the
  /// complex conjugate and the argument, as the static tensor's.
  basic_any_tensor real() const {
    return unary<arithmetic>("real", [](const auto& t) { return t.real(); });
  }
  basic_any_tensor imag() const {
    return unary<arithmetic>("imag", [](const auto& t) { return t.imag(); });
  }
  basic_any_tensor conj() const {
    return unary<arithmetic>("conj", [](const auto& t) { return t.conj(); });
  }
  basic_any_tensor angle() const {
    return unary<inexact>("angle", [](const auto& t) { return t.angle(); });
  }
  basic_any_tensor logical_not() const {
    return unary<boolean>("logical_not", [](const auto& t) { return t.logical_not(); });
  }

  // --- element-wise: binary (the other operand must hold the same backend and dtype) ------------

  // The binary ops of ops/binary_list.hpp that the facade spells as methods (the operators are
  // below the class).
#define EAGERPP_ANY_BINARY_OPERATOR(symbol, name, dtypes)
#define EAGERPP_ANY_BINARY_METHOD(method, name, dtypes)                        \
  basic_any_tensor method(const basic_any_tensor& o) const {                   \
    return binary<EAGERPP_ANY_KIND_##dtypes>(                                  \
        #method, o, [](const auto& a, const auto& b) { return a.method(b); }); \
  }
#define EAGERPP_ANY_BINARY(name, dtypes, spelling, spelled) \
  EAGERPP_ANY_BINARY_##spelling(spelled, name, dtypes)
  EAGERPP_BINARY_OPS(EAGERPP_ANY_BINARY)
  // The array API's binary functions (ops/binary_list.hpp), `x.atan2(y)`.
#define EAGERPP_ANY_FUNCTION(name, dtypes, value, grad) \
  EAGERPP_ANY_BINARY_METHOD(name, name, dtypes)
  EAGERPP_BINARY_FUNCTIONS(EAGERPP_ANY_FUNCTION)
#undef EAGERPP_ANY_FUNCTION
#undef EAGERPP_ANY_BINARY
#undef EAGERPP_ANY_BINARY_METHOD
#undef EAGERPP_ANY_BINARY_OPERATOR
  /// `x` where this bool tensor is true, else `y` (NumPy: `where(cond, x, y)`); x and y alike, this
  /// tensor bool on their backend.
  basic_any_tensor where(const basic_any_tensor& x, const basic_any_tensor& y) const {
    return x.template binary<every>("where", y, [&](const auto& a, const auto& b) {
      using B = typename std::remove_cvref_t<decltype(a)>::backend_type;
      return as_for<typename B::template rebind<bool>>("where", *this).where(a, b);
    });
  }

  // --- reductions --------------------------------------------------------------------------------

  // The reductions of ops/binary_list.hpp, for the dtypes each takes.
#define EAGERPP_ANY_REDUCTION(name, dtypes, native)                               \
  basic_any_tensor name(Axes axis = {}, bool keepdims = false) const {            \
    return unary<EAGERPP_ANY_KIND_##dtypes>(                                      \
        #name, [&](const auto& t) { return t.name(std::move(axis), keepdims); }); \
  }
  EAGERPP_REDUCTION_OPS(EAGERPP_ANY_REDUCTION)
#undef EAGERPP_ANY_REDUCTION
#define EAGERPP_ANY_AXIS_REDUCTION(name, dtypes)                                                 \
  basic_any_tensor name() const {                                                                \
    return unary<EAGERPP_ANY_KIND_##dtypes>(#name, [](const auto& t) { return t.name(); });      \
  }                                                                                              \
  basic_any_tensor name(int axis) const {                                                        \
    return unary<EAGERPP_ANY_KIND_##dtypes>(#name, [&](const auto& t) { return t.name(axis); }); \
  }
  EAGERPP_AXIS_REDUCTION_OPS(EAGERPP_ANY_AXIS_REDUCTION)
#undef EAGERPP_ANY_AXIS_REDUCTION

  // --- shape -------------------------------------------------------------------------------------

  basic_any_tensor reshape(const Shape& shape) const {
    return unary<every>("reshape", [&](const auto& t) { return t.reshape(shape); });
  }
  basic_any_tensor flatten(int start = 0, int end = -1) const {
    return unary<every>("flatten", [&](const auto& t) { return t.flatten(start, end); });
  }
  basic_any_tensor transpose() const {
    return unary<every>("transpose", [](const auto& t) { return t.transpose(); });
  }
  basic_any_tensor transpose(const std::vector<int>& perm) const {
    return unary<every>("transpose", [&](const auto& t) { return t.transpose(perm); });
  }
  basic_any_tensor T() const { return transpose(); }
  basic_any_tensor squeeze(Axes axis = {}) const {
    return unary<every>("squeeze", [&](const auto& t) { return t.squeeze(std::move(axis)); });
  }
  basic_any_tensor expand_dims(int axis) const {
    return unary<every>("expand_dims", [&](const auto& t) { return t.expand_dims(axis); });
  }
  basic_any_tensor broadcast_to(const Shape& shape) const {
    return unary<every>("broadcast_to", [&](const auto& t) { return t.broadcast_to(shape); });
  }
  basic_any_tensor flip(Axes axis = {}) const {
    return unary<every>("flip", [&](const auto& t) { return t.flip(std::move(axis)); });
  }

  // --- linear algebra and nn -------------------------------------------------------------------

  basic_any_tensor matmul(const basic_any_tensor& o) const {
    return binary<arithmetic>("matmul", o,
                              [](const auto& a, const auto& b) { return a.matmul(b); });
  }
  basic_any_tensor inv() const {
    return unary<inexact>("inv", [](const auto& t) { return t.inv(); });
  }
  basic_any_tensor softmax(int axis = -1) const {
    return unary<floating>("softmax", [&](const auto& t) { return t.softmax(axis); });
  }
  basic_any_tensor log_softmax(int axis = -1) const {
    return unary<floating>("log_softmax", [&](const auto& t) { return t.log_softmax(axis); });
  }

  // --- dispatch (public so that the free functions and operators below use it) ----------------

  static constexpr detail::any_kind every = detail::any_kind::every,
                                    numeric = detail::any_kind::numeric,
                                    arithmetic = detail::any_kind::arithmetic,
                                    floating = detail::any_kind::floating,
                                    inexact = detail::any_kind::inexact,
                                    boolean = detail::any_kind::boolean;

  /// f(t), of type R, for the static tensor t it holds if K admits t's dtype (else throws
  /// ep::value_error): one switch on the variant's index (detail::any_switch).
  template <detail::any_kind K, class R, class F>
  R visit(std::string_view op, F&& f) const {
    auto alt = [&](const auto& t) -> R {
      if constexpr (detail::any_admits<K, typename std::remove_cvref_t<decltype(t)>::value_type>)
        return f(t);
      else
        throw_dtype_error(op, K);
    };
    return detail::any_switch<R>(value_, alt);
  }
  /// f(t) for the static tensor t it holds, if K admits t's dtype (else throws ep::value_error):
  /// one switch on the variant's index, inlined where the op is called (detail::any_switch), and
  /// f's result constructed in place in the returned tensor.
  template <detail::any_kind K, class F>
  [[gnu::always_inline]] basic_any_tensor unary(std::string_view op, F&& f) const {
    auto alt = [&](const auto& t) -> basic_any_tensor {
      if constexpr (detail::any_admits<K, typename std::remove_cvref_t<decltype(t)>::value_type>) {
        auto call = [&] { return f(t); };
        return basic_any_tensor(detail::make_any_result(call));
      } else {
        throw_dtype_error(op, K);
      }
    };
    return detail::any_switch<basic_any_tensor>(value_, alt);
  }
  /// f(a, b) for the static tensors a (this one's) and b (other's), which must be of one type: a
  /// comparison of the two variants' indices (else throws ep::value_error naming both), then as
  /// unary.
  template <detail::any_kind K, class F>
  [[gnu::always_inline]] basic_any_tensor binary(std::string_view op, const basic_any_tensor& other,
                                                 F&& f) const {
    if (value_.index() != other.value_.index()) [[unlikely]]
      return promoted_binary<K>(op, other, f);
    return same_binary<K>(op, other, f);
  }

 private:
  /// binary of two alternatives of one type.
  template <detail::any_kind K, class F>
  [[gnu::always_inline]] basic_any_tensor same_binary(std::string_view op,
                                                      const basic_any_tensor& other, F& f) const {
    auto alt = [&](const auto& a) -> basic_any_tensor {
      using A = std::remove_cvref_t<decltype(a)>;
      if constexpr (detail::any_admits<K, typename A::value_type>) {
        auto call = [&] { return f(a, *std::get_if<A>(&other.value_)); };
        return basic_any_tensor(detail::make_any_result(call));
      } else {
        throw_dtype_error(op, K);
      }
    };
    return detail::any_switch<basic_any_tensor>(value_, alt);
  }
  /// binary of two dtypes of one backend: both converted to their promoted dtype first.
  template <detail::any_kind K, class F>
  [[gnu::noinline]] basic_any_tensor promoted_binary(std::string_view op,
                                                     const basic_any_tensor& other, F& f) const {
    const auto [a, b] = promote(op, *this, other);
    return a.template same_binary<K>(op, b, f);
  }

  static constexpr std::size_t dtype_count = sizeof...(Dtypes);
  using promoted_pair = std::pair<basic_any_tensor, basic_any_tensor>;
  using promote_fn = promoted_pair (*)(std::string_view, const basic_any_tensor&,
                                       const basic_any_tensor&);
  /// a and b, holding alternatives I and J of one backend, converted to their promoted dtype
  /// (detail::promoted_t, the static tensors' rule); uint64 with a signed integer throws.
  template <std::size_t I, std::size_t J>
  static promoted_pair promote_both(std::string_view op, const basic_any_tensor& a,
                                    const basic_any_tensor& b) {
    using TA = typename std::variant_alternative_t<I, variant_type>::value_type;
    using TB = typename std::variant_alternative_t<J, variant_type>::value_type;
    if constexpr (detail::promotable_dtypes<TA, TB>) {
      using P = detail::promoted_t<TA, TB>;
      return {basic_any_tensor(std::get<I>(a.value_).template astype<P>()),
              basic_any_tensor(std::get<J>(b.value_).template astype<P>())};
    } else {
      a.throw_mismatch_error(op, b);
    }
  }
  /// promote_both for each pair of alternatives of one backend (nullptr for two backends), by
  /// I * alternatives + J: the dispatch of a promotion is one table look-up.
  template <std::size_t K>
  static constexpr promote_fn promote_entry() {
    constexpr std::size_t n = std::variant_size_v<variant_type>, i = K / n, j = K % n;
    if constexpr (i / dtype_count == j / dtype_count)
      return &promote_both<i, j>;
    else
      return nullptr;
  }
  [[gnu::cold]] static promoted_pair promote(std::string_view op, const basic_any_tensor& a,
                                             const basic_any_tensor& b) {
    constexpr std::size_t n = std::variant_size_v<variant_type>;
    static constexpr auto table = []<std::size_t... K>(std::index_sequence<K...>) {
      return std::array<promote_fn, sizeof...(K)>{promote_entry<K>()...};
    }
    (std::make_index_sequence<n * n>{});
    if (a.value_.valueless_by_exception() || b.value_.valueless_by_exception())
      detail::any_throw_valueless();
    const promote_fn f = table[a.value_.index() * n + b.value_.index()];
    if (f == nullptr) a.throw_mismatch_error(op, b);
    return f(op, a, b);
  }

  /// Whether reading the elements of a Tensor_ as U would drop imaginary parts (a complex tensor,
  /// a real U): item and to_vector throw there, as NumPy's ComplexWarning would warn.
  template <class Tensor_, class U>
  static constexpr bool drops_imaginary =
      complex_dtype<typename std::remove_cvref_t<Tensor_>::value_type> && !complex_dtype<U>;
  /// v converted to U; a complex v (to a complex U) part by part.
  template <class U, class V>
  static U convert(const V& v) {
    if constexpr (complex_dtype<V>) {
      using R = typename U::value_type;
      return U(static_cast<R>(v.real()), static_cast<R>(v.imag()));
    } else {
      return static_cast<U>(v);
    }
  }

  template <class Tensor_>
  struct backend_of {
    using type = typename std::remove_cvref_t<Tensor_>::backend_type;
    static constexpr std::string_view name = type::name;
  };

  template <class B>
  static std::string spec_of() {
    return fmt::format("{}:{}", B::name, dtype_name<typename B::value_type>());
  }

  /// f(std::type_identity<B>{}) for the backend B of each alternative, in order.
  template <class F>
  static void for_each_alternative(F&& f) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (f(std::type_identity<typename std::variant_alternative_t<I, variant_type>::backend_type>{}),
       ...);
    }
    (std::make_index_sequence<std::variant_size_v<variant_type>>{});
  }

  template <class F>
  static basic_any_tensor create(std::string_view spec, F&& f) {
    const auto colon = spec.find(':');
    const std::string_view name = spec.substr(0, colon),
                           type = colon == spec.npos ? "" : spec.substr(colon + 1);
    std::optional<basic_any_tensor> out;
    for_each_alternative([&]<class B>(std::type_identity<B> tag) {
      if (!out && name == B::name && type == dtype_name<typename B::value_type>())
        out.emplace(f(tag));
    });
    if (!out)
      throw value_error(fmt::format("AnyTensor: unknown spec \"{}\"; expected one of {}", spec,
                                    fmt::join(specs(), ", ")));
    return *std::move(out);
  }

  /// Holds what `r` returns, constructed in place (see detail::any_result).
  template <class T>
  explicit basic_any_tensor(detail::any_result<T> r) : value_(std::in_place_type<T>, r) {}

  template <class B>
  static const Tensor<B>& as_for(std::string_view op, const basic_any_tensor& x) {
    if (const auto* t = std::get_if<Tensor<B>>(&x.value_)) [[likely]]
      return *t;
    x.throw_condition_error(op, spec_of<B>());
  }

  // The errors, out of line and cold: one function each, shared by every op and alternative.
  [[noreturn, gnu::cold, gnu::noinline]] void throw_dtype_error(std::string_view op,
                                                                detail::any_kind k) const {
    throw value_error(fmt::format("{}: not defined for dtype {} (this tensor is {}); expected {}",
                                  op, dtype(), spec(), detail::any_expected(k)));
  }
  [[noreturn, gnu::cold, gnu::noinline]] void throw_mismatch_error(
      std::string_view op, const basic_any_tensor& other) const {
    throw value_error(
        fmt::format("{}: the operands hold {} and {}; expected one backend, and dtypes that "
                    "promote (not uint64 with a signed integer; convert with as<B>() and astype, "
                    "or create both from one spec)",
                    op, spec(), other.spec()));
  }
  [[noreturn, gnu::cold, gnu::noinline]] void throw_real_read(std::string_view op) const {
    throw value_error(
        fmt::format("{}: the tensor holds {}; expected a complex U, e.g. "
                    "{}<std::complex<double>>()",
                    op, spec(), op));
  }
  [[noreturn, gnu::cold, gnu::noinline]] void throw_as_error(const std::string& wanted) const {
    throw value_error(
        fmt::format("AnyTensor::as: holds {}, not {}; expected the backend and dtype it holds",
                    spec(), wanted));
  }
  [[noreturn, gnu::cold, gnu::noinline]] void throw_condition_error(
      std::string_view op, const std::string& wanted) const {
    throw value_error(fmt::format("{}: the condition holds {}; expected {}", op, spec(), wanted));
  }

  variant_type value_;
};

/// A tensor whose backend and dtype are chosen at run time, e.g. from "eigen:float32" (see
/// ep::basic_any_tensor); the set is EAGERPP_ANY_BACKENDS (by default Eigen and xtensor).
using AnyTensor = basic_any_tensor<EAGERPP_ANY_BACKENDS>;

// --- operators: the static tensor's, with its dtype rules (an int32 tensor * 0.5 holds float64) --

#define EAGERPP_ANY_OPERATOR(op, name, kind)                                                      \
  template <class L, class D>                                                                     \
  basic_any_tensor<L, D> operator op(const basic_any_tensor<L, D>& a,                             \
                                     const basic_any_tensor<L, D>& b) {                           \
    return a.template binary<kind>(name, b, [](const auto& x, const auto& y) { return x op y; }); \
  }                                                                                               \
  template <class L, class D, scalar S>                                                           \
  basic_any_tensor<L, D> operator op(const basic_any_tensor<L, D>& a, S b) {                      \
    return a.template unary<kind>(name, [&](const auto& x) { return x op b; });                   \
  }
#define EAGERPP_ANY_OPERATOR_LEFT(op, name, kind)                               \
  template <class L, class D, scalar S>                                         \
  basic_any_tensor<L, D> operator op(S a, const basic_any_tensor<L, D>& b) {    \
    return b.template unary<kind>(name, [&](const auto& y) { return a op y; }); \
  }

// The binary ops of ops/binary_list.hpp spelled as operators, and the comparisons.
#define EAGERPP_ANY_BINARY_METHOD(method, name, dtypes)
#define EAGERPP_ANY_BINARY_OPERATOR(symbol, name, dtypes)        \
  EAGERPP_ANY_OPERATOR(symbol, #name, EAGERPP_ANY_KIND_##dtypes) \
  EAGERPP_ANY_OPERATOR_LEFT(symbol, #name, EAGERPP_ANY_KIND_##dtypes)
#define EAGERPP_ANY_BINARY(name, dtypes, spelling, spelled) \
  EAGERPP_ANY_BINARY_##spelling(spelled, name, dtypes)
#define EAGERPP_ANY_COMPARISON(name, symbol, dtypes) \
  EAGERPP_ANY_BINARY_OPERATOR(symbol, name, dtypes)
EAGERPP_BINARY_OPS(EAGERPP_ANY_BINARY)
EAGERPP_COMPARISON_OPS(EAGERPP_ANY_COMPARISON)
#undef EAGERPP_ANY_COMPARISON
#undef EAGERPP_ANY_BINARY
#undef EAGERPP_ANY_BINARY_METHOD
#undef EAGERPP_ANY_BINARY_OPERATOR
#undef EAGERPP_ANY_OPERATOR
#undef EAGERPP_ANY_OPERATOR_LEFT
#undef EAGERPP_ANY_KIND_FLOAT
#undef EAGERPP_ANY_KIND_INEXACT
#undef EAGERPP_ANY_KIND_ARITHMETIC
#undef EAGERPP_ANY_KIND_NUMERIC
#undef EAGERPP_ANY_KIND_EVERY
#undef EAGERPP_ANY_KIND_BOOL

// --- free functions: ep::exp(x), ep::sum(x, axis), ... as for the static tensor ---------------

namespace detail {
/// The free functions that forward to a method, ep::exp(x) ... (functions.hpp), take any tensors.
template <class L, class D>
inline constexpr bool is_facade_tensor<basic_any_tensor<L, D>> = true;
}  // namespace detail

template <class L, class D>
basic_any_tensor<L, D> where(const basic_any_tensor<L, D>& c, const basic_any_tensor<L, D>& x,
                             const basic_any_tensor<L, D>& y) {
  return c.where(x, y);
}
template <class L, class D>
basic_any_tensor<L, D> matmul(const basic_any_tensor<L, D>& a, const basic_any_tensor<L, D>& b) {
  return a.matmul(b);
}

// --- autodiff ------------------------------------------------------------------------------------

/// `{f(x), d f / d x}` for a scalar-valued `f` taking and returning an any tensor (EagerPy and
/// JAX: `value_and_grad`): runs the static ep::value_and_grad on the tensor x holds, so `f`'s ops
/// are recorded on the tape as usual. Throws ep::value_error for a non-floating x, or when f's
/// result holds another backend or dtype than x.
template <class F, class L, class D>
std::pair<basic_any_tensor<L, D>, basic_any_tensor<L, D>> value_and_grad(
    F&& f, const basic_any_tensor<L, D>& x) {
  using Result = std::pair<basic_any_tensor<L, D>, basic_any_tensor<L, D>>;
  return x.template visit<detail::any_kind::floating, Result>(
      "value_and_grad", [&](const auto& t) -> Result {
        using Static = std::remove_cvref_t<decltype(t)>;
        auto vg = ep::value_and_grad(
            [&](const Static& s) -> Static {
              return basic_any_tensor<L, D>(f(basic_any_tensor<L, D>(s)))
                  .template as<typename Static::backend_type>();
            },
            t);
        return {std::move(vg.first), std::move(vg.second)};
      });
}

}  // namespace ep

/// Formats as the tensor it holds.
template <class L, class D>
struct fmt::formatter<ep::basic_any_tensor<L, D>> : fmt::formatter<std::string_view> {
  template <class Context>
  auto format(const ep::basic_any_tensor<L, D>& t, Context& ctx) const {
    return std::visit([&](const auto& s) { return fmt::format_to(ctx.out(), "{}", s); },
                      t.variant());
  }
};
