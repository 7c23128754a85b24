// eagerpp - the ep::backend concept and the documented contract every backend fulfils
// SPDX-License-Identifier: MIT
#pragma once

#include <concepts>     // std::same_as, std::convertible_to, std::copyable
#include <cstdint>      // std::int64_t
#include <span>         // std::span
#include <string_view>  // std::string_view

#include "eagerpp/fwd.hpp"
#include "eagerpp/shape.hpp"

namespace ep {

/// A backend is one stateless struct per element type, e.g. `ep::eigen<float>`, with the nested
/// types below and one static function per op. The facade validates and normalizes every argument
/// before it calls a backend, so backends never see bad input: shapes broadcast, axes are sorted,
/// unique and non-negative, sizes match. `R` is `raw_type`, `T` is `value_type`, `Rb<U>` is
/// `rebind<U>::raw_type`.
///
/// Required members (the concept ep::backend checks the first group; one concept per family checks
/// the rest, ep::creation_backend ... ep::linalg_backend below, and ep::Tensor<B> asserts each
/// family's contract, naming every missing function in a sentence; the consistency suite, which
/// instantiates every op family for every backend, checks what they compute):
///
///   static constexpr std::string_view name;          // "eigen", "xtensor", "cuda", "omp"
///   using value_type = T;                             // one of ep::dtype
///   using raw_type = R;                               // the native tensor; copying it is O(1)
///   template <class U> using rebind = Backend<U>;     // same backend, other element type
///   static Shape shape(const R&);                    // or const Shape&, where R holds one
///   static R from_data(const T* data, const Shape&); // copies n = shape.numel() elements, C order
///   static void to_data(const R&, T* out);           // copies every element out, C order
///
///   creation      full(shape, T value), arange(T start, T step, int64 n)
///   conversion    reshape(x, shape) (same numel, O(1) where the layout allows),
///                 template <class U> Rb<U> astype(x)
///   unary         abs sign sqrt square exp log log2 log10 log1p sin cos tan arcsin arccos arctan
///                 sinh cosh tanh arcsinh arccosh arctanh round ceil floor negative -> R
///                 (round is half to even; the transcendental ones are only called for float T)
///                 clip(x, T lo, T hi) -> R; isnan isinf -> Rb<bool>; logical_not (bool T) -> R
///   binary        add subtract multiply divide floor_divide mod power minimum maximum -> R
///                 less less_equal greater greater_equal equal not_equal -> Rb<bool>
///                 logical_and logical_or (bool T) -> R
///                 where(const Rb<bool>& cond, x, y) -> R
///                 Operands have shapes that broadcast together (NumPy rules, checked by the
///                 facade); the result has the broadcast shape. floor_divide and mod follow NumPy
///                 (floor; the remainder takes the divisor's sign); integer division by zero gives
///                 0.
///   reductions    sum prod min max all any (x, std::span<const int> axes) -> R, the reduced axes
///                 removed; axes are sorted, unique, non-empty, and never name an axis of extent 0
///                 for min and max. argmin argmax (x, int axis) -> Rb<int64_t>, first occurrence;
///                 cumsum(x, int axis) -> R
///   shape         transpose(x, std::span<const int> perm), broadcast_to(x, shape),
///                 flip(x, std::span<const int> axes),
///                 slice(x, std::span<const int64_t> start, std::span<const int64_t> step, shape)
///                   -> the elements start[i] + k * step[i], k < shape[i], along each axis (step >
///                   0),
///                 pad(x, std::span<const std::int64_t> before, std::span<const std::int64_t>
///                 after, T value), concatenate(std::span<const R> parts, int axis) (same rank,
///                 equal off-axis extents)
///   indexing      take(x, const Rb<int64_t>& index) -> R: x is 1-D, the result has index's shape
///   and
///                   element i is x[index[i]]; indices are in range (checked by the facade)
///                 put(x, const Rb<int64_t>& index, values) -> R: x, index, values 1-D, index and
///                 values
///                   of one length; a copy of x with x[index[i]] = values[i] (a repeated index:
///                   last wins)
///                 put_add(x, const Rb<int64_t>& index, values) -> R: as put, but x[index[i]] +=
///                 values[i]
///   sorting       sort(x, int axis) -> R, argsort(x, int axis) -> Rb<int64_t>: ascending, stable,
///                   NaN last (NumPy's order)
///   linalg        matmul(a, b, bool transpose_a, bool transpose_b) -> R (numeric T): op(a) op(b)
///   per batch, where
///                   op(a) is a or, when transpose_a, a with its last two axes swapped (read in
///                   place, never materialized); op(a) (..., n, k), op(b) (..., k, m) with equal
///                   batch extents -> (..., n, m)
///
/// Anything else (keepdims, negative axes, scalars, mean, squeeze, stack, softmax, ...) the facade
/// builds from these, once for every backend.
///
/// Optional: a host backend that keeps C-order elements in shared memory may define
///   share_host(x) -> std::shared_ptr<T> and from_host_shared(std::shared_ptr<T>, const Shape&) ->
///   R,
/// so that ep::to between two such backends shares the elements instead of copying them.
/// Optional: map_reduce(detail::reduce_kind, detail::map_kind, x) -> R of shape (), the sum, min or
/// max of x's squares or absolute values in one pass over non-empty x; with it, `x.square().sum()`
/// and `x.abs().max()` read x once (include/eagerpp/detail/fusion.hpp).
template <class B>
concept backend = requires {
  typename B::value_type;
  typename B::raw_type;
  typename B::template rebind<bool>;
  { B::name } -> std::convertible_to<std::string_view>;
}
&&dtype<typename B::value_type>&& std::copyable<typename B::raw_type>&& requires(
    const typename B::raw_type& r, const typename B::value_type* p, typename B::value_type* out,
    const Shape& s) {
  { B::shape(r) } -> std::convertible_to<Shape>;
  { B::from_data(p, s) } -> std::same_as<typename B::raw_type>;
  B::to_data(r, out);
};

namespace detail {

/// `rebind<U>::raw_type` of backend B.
template <class B, class U>
using Rb = typename B::template rebind<U>::raw_type;

// One struct of checks per op family: `has_<op>` says whether B has the static function the facade
// calls (ops a dtype does not have, e.g. exp of int, are not required), `value` whether it has all
// of them. The *_contract structs turn each missing function into a sentence that names it; the
// facade instantiates them where it uses the family (contract_check below).

template <class B>
struct creation_checks {
  using T = typename B::value_type;
  using R = typename B::raw_type;
  static constexpr bool has_full = requires(const Shape& s, T v) {
    { B::full(s, v) } -> std::same_as<R>;
  };
  static constexpr bool has_arange = !numeric_dtype<T> || requires(T v, std::int64_t n) {
    { B::arange(v, v, n) } -> std::same_as<R>;
  };
  static constexpr bool has_reshape = requires(const R& x, const Shape& s) {
    { B::reshape(x, s) } -> std::same_as<R>;
  };
  static constexpr bool has_astype = requires(const R& x) {
    { B::template astype<float>(x) } -> std::same_as<Rb<B, float>>;
    { B::template astype<double>(x) } -> std::same_as<Rb<B, double>>;
    { B::template astype<std::int32_t>(x) } -> std::same_as<Rb<B, std::int32_t>>;
    { B::template astype<std::int64_t>(x) } -> std::same_as<Rb<B, std::int64_t>>;
    { B::template astype<bool>(x) } -> std::same_as<Rb<B, bool>>;
  };
  static constexpr bool value = has_full && has_arange && has_reshape && has_astype;
};

template <class B>
struct creation_contract {
  using C = creation_checks<B>;
  static_assert(C::has_full,
                "ep::full: the backend has no static full(shape, T value); see \"Writing a "
                "backend\" in docs/backends.md");
  static_assert(C::has_arange,
                "ep::arange: the backend has no static arange(T start, T step, std::int64_t n); "
                "see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_reshape,
                "ep::reshape: the backend has no static reshape(raw, shape); see \"Writing a "
                "backend\" in docs/backends.md");
  static_assert(C::has_astype,
                "ep::astype: the backend has no static template <class U> astype(raw) for every "
                "dtype U; see \"Writing a backend\" in docs/backends.md");
  static constexpr bool value = true;
};

template <class B>
struct elementwise_checks {
  using T = typename B::value_type;
  using R = typename B::raw_type;
  static constexpr bool has_abs = !numeric_dtype<T> || requires(const R& x) {
    { B::abs(x) } -> std::same_as<R>;
  };
  static constexpr bool has_sign = !numeric_dtype<T> || requires(const R& x) {
    { B::sign(x) } -> std::same_as<R>;
  };
  static constexpr bool has_square = !numeric_dtype<T> || requires(const R& x) {
    { B::square(x) } -> std::same_as<R>;
  };
  static constexpr bool has_round = !numeric_dtype<T> || requires(const R& x) {
    { B::round(x) } -> std::same_as<R>;
  };
  static constexpr bool has_ceil = !numeric_dtype<T> || requires(const R& x) {
    { B::ceil(x) } -> std::same_as<R>;
  };
  static constexpr bool has_floor = !numeric_dtype<T> || requires(const R& x) {
    { B::floor(x) } -> std::same_as<R>;
  };
  static constexpr bool has_negative = !numeric_dtype<T> || requires(const R& x) {
    { B::negative(x) } -> std::same_as<R>;
  };
  static constexpr bool has_sqrt = !floating_dtype<T> || requires(const R& x) {
    { B::sqrt(x) } -> std::same_as<R>;
  };
  static constexpr bool has_exp = !floating_dtype<T> || requires(const R& x) {
    { B::exp(x) } -> std::same_as<R>;
  };
  static constexpr bool has_log = !floating_dtype<T> || requires(const R& x) {
    { B::log(x) } -> std::same_as<R>;
  };
  static constexpr bool has_log2 = !floating_dtype<T> || requires(const R& x) {
    { B::log2(x) } -> std::same_as<R>;
  };
  static constexpr bool has_log10 = !floating_dtype<T> || requires(const R& x) {
    { B::log10(x) } -> std::same_as<R>;
  };
  static constexpr bool has_log1p = !floating_dtype<T> || requires(const R& x) {
    { B::log1p(x) } -> std::same_as<R>;
  };
  static constexpr bool has_sin = !floating_dtype<T> || requires(const R& x) {
    { B::sin(x) } -> std::same_as<R>;
  };
  static constexpr bool has_cos = !floating_dtype<T> || requires(const R& x) {
    { B::cos(x) } -> std::same_as<R>;
  };
  static constexpr bool has_tan = !floating_dtype<T> || requires(const R& x) {
    { B::tan(x) } -> std::same_as<R>;
  };
  static constexpr bool has_arcsin = !floating_dtype<T> || requires(const R& x) {
    { B::arcsin(x) } -> std::same_as<R>;
  };
  static constexpr bool has_arccos = !floating_dtype<T> || requires(const R& x) {
    { B::arccos(x) } -> std::same_as<R>;
  };
  static constexpr bool has_arctan = !floating_dtype<T> || requires(const R& x) {
    { B::arctan(x) } -> std::same_as<R>;
  };
  static constexpr bool has_sinh = !floating_dtype<T> || requires(const R& x) {
    { B::sinh(x) } -> std::same_as<R>;
  };
  static constexpr bool has_cosh = !floating_dtype<T> || requires(const R& x) {
    { B::cosh(x) } -> std::same_as<R>;
  };
  static constexpr bool has_tanh = !floating_dtype<T> || requires(const R& x) {
    { B::tanh(x) } -> std::same_as<R>;
  };
  static constexpr bool has_arcsinh = !floating_dtype<T> || requires(const R& x) {
    { B::arcsinh(x) } -> std::same_as<R>;
  };
  static constexpr bool has_arccosh = !floating_dtype<T> || requires(const R& x) {
    { B::arccosh(x) } -> std::same_as<R>;
  };
  static constexpr bool has_arctanh = !floating_dtype<T> || requires(const R& x) {
    { B::arctanh(x) } -> std::same_as<R>;
  };
  static constexpr bool has_logical_not = !std::same_as<T, bool> || requires(const R& x) {
    { B::logical_not(x) } -> std::same_as<R>;
  };
  static constexpr bool has_clip = !numeric_dtype<T> || requires(const R& x, T v) {
    { B::clip(x, v, v) } -> std::same_as<R>;
  };
  static constexpr bool has_isnan = requires(const R& x) {
    { B::isnan(x) } -> std::same_as<Rb<B, bool>>;
  };
  static constexpr bool has_isinf = requires(const R& x) {
    { B::isinf(x) } -> std::same_as<Rb<B, bool>>;
  };
  static constexpr bool has_add = !numeric_dtype<T> || requires(const R& x) {
    { B::add(x, x) } -> std::same_as<R>;
  };
  static constexpr bool has_subtract = !numeric_dtype<T> || requires(const R& x) {
    { B::subtract(x, x) } -> std::same_as<R>;
  };
  static constexpr bool has_multiply = !numeric_dtype<T> || requires(const R& x) {
    { B::multiply(x, x) } -> std::same_as<R>;
  };
  static constexpr bool has_divide = !numeric_dtype<T> || requires(const R& x) {
    { B::divide(x, x) } -> std::same_as<R>;
  };
  static constexpr bool has_floor_divide = !numeric_dtype<T> || requires(const R& x) {
    { B::floor_divide(x, x) } -> std::same_as<R>;
  };
  static constexpr bool has_mod = !numeric_dtype<T> || requires(const R& x) {
    { B::mod(x, x) } -> std::same_as<R>;
  };
  static constexpr bool has_power = !numeric_dtype<T> || requires(const R& x) {
    { B::power(x, x) } -> std::same_as<R>;
  };
  static constexpr bool has_minimum = requires(const R& x) {
    { B::minimum(x, x) } -> std::same_as<R>;
  };
  static constexpr bool has_maximum = requires(const R& x) {
    { B::maximum(x, x) } -> std::same_as<R>;
  };
  static constexpr bool has_logical_and = !std::same_as<T, bool> || requires(const R& x) {
    { B::logical_and(x, x) } -> std::same_as<R>;
  };
  static constexpr bool has_logical_or = !std::same_as<T, bool> || requires(const R& x) {
    { B::logical_or(x, x) } -> std::same_as<R>;
  };
  static constexpr bool has_less = requires(const R& x) {
    { B::less(x, x) } -> std::same_as<Rb<B, bool>>;
  };
  static constexpr bool has_less_equal = requires(const R& x) {
    { B::less_equal(x, x) } -> std::same_as<Rb<B, bool>>;
  };
  static constexpr bool has_greater = requires(const R& x) {
    { B::greater(x, x) } -> std::same_as<Rb<B, bool>>;
  };
  static constexpr bool has_greater_equal = requires(const R& x) {
    { B::greater_equal(x, x) } -> std::same_as<Rb<B, bool>>;
  };
  static constexpr bool has_equal = requires(const R& x) {
    { B::equal(x, x) } -> std::same_as<Rb<B, bool>>;
  };
  static constexpr bool has_not_equal = requires(const R& x) {
    { B::not_equal(x, x) } -> std::same_as<Rb<B, bool>>;
  };
  static constexpr bool has_where = requires(const R& x, const Rb<B, bool>& c) {
    { B::where(c, x, x) } -> std::same_as<R>;
  };
  static constexpr bool value =
      has_abs && has_sign && has_square && has_round && has_ceil && has_floor && has_negative &&
      has_sqrt && has_exp && has_log && has_log2 && has_log10 && has_log1p && has_sin && has_cos &&
      has_tan && has_arcsin && has_arccos && has_arctan && has_sinh && has_cosh && has_tanh &&
      has_arcsinh && has_arccosh && has_arctanh && has_logical_not && has_clip && has_isnan &&
      has_isinf && has_add && has_subtract && has_multiply && has_divide && has_floor_divide &&
      has_mod && has_power && has_minimum && has_maximum && has_logical_and && has_logical_or &&
      has_less && has_less_equal && has_greater && has_greater_equal && has_equal &&
      has_not_equal && has_where;
};

template <class B>
struct elementwise_contract {
  using C = elementwise_checks<B>;
  static_assert(
      C::has_abs,
      "ep::abs: the backend has no static abs(raw); see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_sign,
                "ep::sign: the backend has no static sign(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_square,
                "ep::square: the backend has no static square(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_round,
                "ep::round: the backend has no static round(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_ceil,
                "ep::ceil: the backend has no static ceil(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_floor,
                "ep::floor: the backend has no static floor(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_negative,
                "ep::negative: the backend has no static negative(raw); see \"Writing a backend\" "
                "in docs/backends.md");
  static_assert(C::has_sqrt,
                "ep::sqrt: the backend has no static sqrt(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(
      C::has_exp,
      "ep::exp: the backend has no static exp(raw); see \"Writing a backend\" in docs/backends.md");
  static_assert(
      C::has_log,
      "ep::log: the backend has no static log(raw); see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_log2,
                "ep::log2: the backend has no static log2(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_log10,
                "ep::log10: the backend has no static log10(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_log1p,
                "ep::log1p: the backend has no static log1p(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(
      C::has_sin,
      "ep::sin: the backend has no static sin(raw); see \"Writing a backend\" in docs/backends.md");
  static_assert(
      C::has_cos,
      "ep::cos: the backend has no static cos(raw); see \"Writing a backend\" in docs/backends.md");
  static_assert(
      C::has_tan,
      "ep::tan: the backend has no static tan(raw); see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_arcsin,
                "ep::arcsin: the backend has no static arcsin(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_arccos,
                "ep::arccos: the backend has no static arccos(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_arctan,
                "ep::arctan: the backend has no static arctan(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_sinh,
                "ep::sinh: the backend has no static sinh(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_cosh,
                "ep::cosh: the backend has no static cosh(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_tanh,
                "ep::tanh: the backend has no static tanh(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_arcsinh,
                "ep::arcsinh: the backend has no static arcsinh(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_arccosh,
                "ep::arccosh: the backend has no static arccosh(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_arctanh,
                "ep::arctanh: the backend has no static arctanh(raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_logical_not,
                "ep::logical_not: the backend has no static logical_not(raw); see \"Writing a "
                "backend\" in docs/backends.md");
  static_assert(C::has_clip,
                "ep::clip: the backend has no static clip(raw, T lo, T hi); see \"Writing a "
                "backend\" in docs/backends.md");
  static_assert(C::has_isnan,
                "ep::isnan: the backend has no static isnan(raw) -> rebind<bool>::raw_type; see "
                "\"Writing a backend\" in docs/backends.md");
  static_assert(C::has_isinf,
                "ep::isinf: the backend has no static isinf(raw) -> rebind<bool>::raw_type; see "
                "\"Writing a backend\" in docs/backends.md");
  static_assert(C::has_add,
                "ep::add: the backend has no static add(raw, raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_subtract,
                "ep::subtract: the backend has no static subtract(raw, raw); see \"Writing a "
                "backend\" in docs/backends.md");
  static_assert(C::has_multiply,
                "ep::multiply: the backend has no static multiply(raw, raw); see \"Writing a "
                "backend\" in docs/backends.md");
  static_assert(C::has_divide,
                "ep::divide: the backend has no static divide(raw, raw); see \"Writing a backend\" "
                "in docs/backends.md");
  static_assert(C::has_floor_divide,
                "ep::floor_divide: the backend has no static floor_divide(raw, raw); see \"Writing "
                "a backend\" in docs/backends.md");
  static_assert(C::has_mod,
                "ep::mod: the backend has no static mod(raw, raw); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_power,
                "ep::power: the backend has no static power(raw, raw); see \"Writing a backend\" "
                "in docs/backends.md");
  static_assert(C::has_minimum,
                "ep::minimum: the backend has no static minimum(raw, raw); see \"Writing a "
                "backend\" in docs/backends.md");
  static_assert(C::has_maximum,
                "ep::maximum: the backend has no static maximum(raw, raw); see \"Writing a "
                "backend\" in docs/backends.md");
  static_assert(C::has_logical_and,
                "ep::logical_and: the backend has no static logical_and(raw, raw); see \"Writing a "
                "backend\" in docs/backends.md");
  static_assert(C::has_logical_or,
                "ep::logical_or: the backend has no static logical_or(raw, raw); see \"Writing a "
                "backend\" in docs/backends.md");
  static_assert(C::has_less,
                "ep::less: the backend has no static less(raw, raw) -> rebind<bool>::raw_type; see "
                "\"Writing a backend\" in docs/backends.md");
  static_assert(C::has_less_equal,
                "ep::less_equal: the backend has no static less_equal(raw, raw) -> "
                "rebind<bool>::raw_type; see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_greater,
                "ep::greater: the backend has no static greater(raw, raw) -> "
                "rebind<bool>::raw_type; see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_greater_equal,
                "ep::greater_equal: the backend has no static greater_equal(raw, raw) -> "
                "rebind<bool>::raw_type; see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_equal,
                "ep::equal: the backend has no static equal(raw, raw) -> rebind<bool>::raw_type; "
                "see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_not_equal,
                "ep::not_equal: the backend has no static not_equal(raw, raw) -> "
                "rebind<bool>::raw_type; see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_where,
                "ep::where: the backend has no static where(rebind<bool>::raw_type cond, raw, "
                "raw); see \"Writing a backend\" in docs/backends.md");
  static constexpr bool value = true;
};

template <class B>
struct reduction_checks {
  using T = typename B::value_type;
  using R = typename B::raw_type;
  static constexpr bool has_sum =
      !numeric_dtype<T> || requires(const R& x, std::span<const int> a) {
    { B::sum(x, a) } -> std::same_as<R>;
  };
  static constexpr bool has_prod =
      !numeric_dtype<T> || requires(const R& x, std::span<const int> a) {
    { B::prod(x, a) } -> std::same_as<R>;
  };
  static constexpr bool has_min = requires(const R& x, std::span<const int> a) {
    { B::min(x, a) } -> std::same_as<R>;
  };
  static constexpr bool has_max = requires(const R& x, std::span<const int> a) {
    { B::max(x, a) } -> std::same_as<R>;
  };
  static constexpr bool has_all =
      !std::same_as<T, bool> || requires(const R& x, std::span<const int> a) {
    { B::all(x, a) } -> std::same_as<R>;
  };
  static constexpr bool has_any =
      !std::same_as<T, bool> || requires(const R& x, std::span<const int> a) {
    { B::any(x, a) } -> std::same_as<R>;
  };
  static constexpr bool has_argmin = requires(const R& x) {
    { B::argmin(x, 0) } -> std::same_as<Rb<B, std::int64_t>>;
  };
  static constexpr bool has_argmax = requires(const R& x) {
    { B::argmax(x, 0) } -> std::same_as<Rb<B, std::int64_t>>;
  };
  static constexpr bool has_cumsum = !numeric_dtype<T> || requires(const R& x) {
    { B::cumsum(x, 0) } -> std::same_as<R>;
  };
  static constexpr bool value = has_sum && has_prod && has_min && has_max && has_all && has_any &&
                                has_argmin && has_argmax && has_cumsum;
};

template <class B>
struct reduction_contract {
  using C = reduction_checks<B>;
  static_assert(C::has_sum,
                "ep::sum: the backend has no static sum(raw, std::span<const int> axes); see "
                "\"Writing a backend\" in docs/backends.md");
  static_assert(C::has_prod,
                "ep::prod: the backend has no static prod(raw, std::span<const int> axes); see "
                "\"Writing a backend\" in docs/backends.md");
  static_assert(C::has_min,
                "ep::min: the backend has no static min(raw, std::span<const int> axes); see "
                "\"Writing a backend\" in docs/backends.md");
  static_assert(C::has_max,
                "ep::max: the backend has no static max(raw, std::span<const int> axes); see "
                "\"Writing a backend\" in docs/backends.md");
  static_assert(C::has_all,
                "ep::all: the backend has no static all(raw, std::span<const int> axes); see "
                "\"Writing a backend\" in docs/backends.md");
  static_assert(C::has_any,
                "ep::any: the backend has no static any(raw, std::span<const int> axes); see "
                "\"Writing a backend\" in docs/backends.md");
  static_assert(C::has_argmin,
                "ep::argmin: the backend has no static argmin(raw, int axis) -> "
                "rebind<std::int64_t>::raw_type; see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_argmax,
                "ep::argmax: the backend has no static argmax(raw, int axis) -> "
                "rebind<std::int64_t>::raw_type; see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_cumsum,
                "ep::cumsum: the backend has no static cumsum(raw, int axis); see \"Writing a "
                "backend\" in docs/backends.md");
  static constexpr bool value = true;
};

template <class B>
struct shape_checks {
  using T = typename B::value_type;
  using R = typename B::raw_type;
  static constexpr bool has_transpose = requires(const R& x, std::span<const int> a) {
    { B::transpose(x, a) } -> std::same_as<R>;
  };
  static constexpr bool has_broadcast_to = requires(const R& x, const Shape& s) {
    { B::broadcast_to(x, s) } -> std::same_as<R>;
  };
  static constexpr bool has_flip = requires(const R& x, std::span<const int> a) {
    { B::flip(x, a) } -> std::same_as<R>;
  };
  static constexpr bool has_slice =
      requires(const R& x, std::span<const std::int64_t> i, const Shape& s) {
    { B::slice(x, i, i, s) } -> std::same_as<R>;
  };
  static constexpr bool has_pad = requires(const R& x, std::span<const std::int64_t> i, T v) {
    { B::pad(x, i, i, v) } -> std::same_as<R>;
  };
  static constexpr bool has_concatenate = requires(std::span<const R> p) {
    { B::concatenate(p, 0) } -> std::same_as<R>;
  };
  static constexpr bool value =
      has_transpose && has_broadcast_to && has_flip && has_slice && has_pad && has_concatenate;
};

template <class B>
struct shape_contract {
  using C = shape_checks<B>;
  static_assert(C::has_transpose,
                "ep::transpose: the backend has no static transpose(raw, std::span<const int> "
                "perm); see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_broadcast_to,
                "ep::broadcast_to: the backend has no static broadcast_to(raw, shape); see "
                "\"Writing a backend\" in docs/backends.md");
  static_assert(C::has_flip,
                "ep::flip: the backend has no static flip(raw, std::span<const int> axes); see "
                "\"Writing a backend\" in docs/backends.md");
  static_assert(
      C::has_slice,
      "ep::slice: the backend has no static slice(raw, std::span<const std::int64_t> start, "
      "std::span<const std::int64_t> step, shape); see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_pad,
                "ep::pad: the backend has no static pad(raw, std::span<const std::int64_t> before, "
                "std::span<const std::int64_t> after, T value); see \"Writing a backend\" in "
                "docs/backends.md");
  static_assert(C::has_concatenate,
                "ep::concatenate: the backend has no static concatenate(std::span<const raw> "
                "parts, int axis); see \"Writing a backend\" in docs/backends.md");
  static constexpr bool value = true;
};

template <class B>
struct indexing_checks {
  using T = typename B::value_type;
  using R = typename B::raw_type;
  static constexpr bool has_take = requires(const R& x, const Rb<B, std::int64_t>& i) {
    { B::take(x, i) } -> std::same_as<R>;
  };
  static constexpr bool has_put = requires(const R& x, const Rb<B, std::int64_t>& i) {
    { B::put(x, i, x) } -> std::same_as<R>;
  };
  static constexpr bool has_put_add =
      !numeric_dtype<T> || requires(const R& x, const Rb<B, std::int64_t>& i) {
    { B::put_add(x, i, x) } -> std::same_as<R>;
  };
  static constexpr bool has_sort = requires(const R& x) {
    { B::sort(x, 0) } -> std::same_as<R>;
  };
  static constexpr bool has_argsort = requires(const R& x) {
    { B::argsort(x, 0) } -> std::same_as<Rb<B, std::int64_t>>;
  };
  static constexpr bool value = has_take && has_put && has_put_add && has_sort && has_argsort;
};

template <class B>
struct indexing_contract {
  using C = indexing_checks<B>;
  static_assert(C::has_take,
                "ep::take: the backend has no static take(raw, rebind<std::int64_t>::raw_type "
                "index); see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_put,
                "ep::put: the backend has no static put(raw, rebind<std::int64_t>::raw_type index, "
                "raw values); see \"Writing a backend\" in docs/backends.md");
  static_assert(
      C::has_put_add,
      "ep::put_add: the backend has no static put_add(raw, rebind<std::int64_t>::raw_type index, "
      "raw values); see \"Writing a backend\" in docs/backends.md");
  static_assert(C::has_sort,
                "ep::sort: the backend has no static sort(raw, int axis); see \"Writing a "
                "backend\" in docs/backends.md");
  static_assert(C::has_argsort,
                "ep::argsort: the backend has no static argsort(raw, int axis) -> "
                "rebind<std::int64_t>::raw_type; see \"Writing a backend\" in docs/backends.md");
  static constexpr bool value = true;
};

template <class B>
struct linalg_checks {
  using T = typename B::value_type;
  using R = typename B::raw_type;
  static constexpr bool has_matmul = !numeric_dtype<T> || requires(const R& x, bool t) {
    { B::matmul(x, x, t, t) } -> std::same_as<R>;
  };
  static constexpr bool value = has_matmul;
};

template <class B>
struct linalg_contract {
  using C = linalg_checks<B>;
  static_assert(C::has_matmul,
                "ep::matmul: the backend has no static matmul(raw a, raw b, bool transpose_a, bool "
                "transpose_b); see \"Writing a backend\" in docs/backends.md");
  static constexpr bool value = true;
};

}  // namespace detail

/// A backend with every creation and conversion op the facade calls (those its dtype has).
template <class B>
concept creation_backend = backend<B> && detail::creation_checks<B>::value;

/// A backend with every element-wise op the facade calls (those its dtype has).
template <class B>
concept elementwise_backend = backend<B> && detail::elementwise_checks<B>::value;

/// A backend with every reduction op the facade calls (those its dtype has).
template <class B>
concept reduction_backend = backend<B> && detail::reduction_checks<B>::value;

/// A backend with every shape op the facade calls (those its dtype has).
template <class B>
concept shape_backend = backend<B> && detail::shape_checks<B>::value;

/// A backend with every indexing and sorting op the facade calls (those its dtype has).
template <class B>
concept indexing_backend = backend<B> && detail::indexing_checks<B>::value;

/// A backend with every linear algebra op the facade calls (those its dtype has).
template <class B>
concept linalg_backend = backend<B> && detail::linalg_checks<B>::value;

/// A backend with every op of every family: what ep::Tensor<B> needs to be complete.
template <class B>
concept complete_backend = creation_backend<B> && elementwise_backend<B> && reduction_backend<B> &&
    shape_backend<B> && indexing_backend<B> && linalg_backend<B>;

template <backend Backend>
class Tensor;

}  // namespace ep
