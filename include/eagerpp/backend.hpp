// eagerpp - the ep::backend concept and the documented contract every backend fulfils
// SPDX-License-Identifier: MIT
#pragma once

#include <concepts>     // std::same_as, std::convertible_to, std::copyable
#include <cstdint>      // std::int64_t
#include <span>         // std::span
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple
#include <utility>      // std::pair

#include "eagerpp/detail/numpy_math.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/ops/binary_list.hpp"
#include "eagerpp/ops/unary_list.hpp"
#include "eagerpp/shape.hpp"

namespace ep {

// clang-format off
/// A backend is one stateless struct per element type, e.g. `ep::eigen<float>`: the nested types
/// and storage functions below, and one static function per op. Notation: `R` is `raw_type`, `T`
/// is `value_type`, `Rb<U>` is `rebind<U>::raw_type`, `x` and `y` are `const R&`.
///
/// Checked where: the concept ep::backend checks the types and storage functions; one concept per
/// family checks that family's functions (ep::creation_backend ... ep::linalg_backend, from the
/// tables EAGERPP_<FAMILY>_FUNCTIONS below, one row per function with its exact signature), and
/// ep::Tensor<B> asserts each family's contract beside that family's methods, naming every missing
/// function in a sentence. A function is required only for the dtypes that have its op (a row's
/// second column: exp for floating T, add for numeric T, logical_and for bool). What the functions
/// compute is checked by the consistency suite (tests/suites/), which runs every op on every
/// backend. The optional hooks are in eagerpp/backend_hooks.hpp.
///
/// Types and storage (ep::backend):
///   static constexpr std::string_view name;            "eigen", "xtensor", "omp", "cuda"
///   using value_type = T;                               one of the dtypes (ep::dtype)
///   using raw_type = R;                                 the native tensor; copyable, O(1) copies
///   template <class U> using rebind = Backend<U>;       the same backend of another dtype
///   static Shape shape(const R&);                      or const Shape&, where R holds one
///   static R from_data(const T* data, const Shape&);    copies shape.numel() elements in, C order
///   static void to_data(const R&, T* out);              copies every element out, C order
///
/// What every function may rely on: the facade validated and normalized the arguments first, and
/// threw ep::error naming the op otherwise. Shapes agree as the op needs (they broadcast, or match,
/// or the count of elements is right); an axis is in [0, ndim); a list of axes is sorted, unique
/// and non-empty; the tensors of one call are of dtype T but where the row names another (a
/// condition, an index): the facade converts mixed dtypes first.
///
/// The families: each function with what it receives (beyond the rules above) -> what it returns.
///
/// creation
///   full(shape, T value) -> R of that shape, every element `value`
///   arange(T start, T step, int64 n), numeric T, n >= 0 -> R (n): element i is start + i * step
///   reshape(x, shape), the same element count, every extent given (the facade resolves -1)
///     -> R of that shape, the C order kept; O(1) where the layout allows
///   astype<U>(x), for every dtype U the program converts to (the contract checks float, double,
///     int32, int64 and bool) -> Rb<U>, each element converted as static_cast converts a value
///     that U holds
///
/// element-wise, unary: every result has x's shape
///   name(x) for each row of EAGERPP_UNARY_OPS (ops/unary_list.hpp), for the dtypes its row names
///     -> R (round is half to even, as NumPy's)
///   negative(x), numeric T -> R;  logical_not(x), bool T -> R
///   clip(x, T lo, T hi), numeric T -> R: each element clamped to [lo, hi]
///   isnan(x), isinf(x) -> Rb<bool>
///
/// element-wise, binary: (x, y) of shapes that broadcast together (NumPy's rules, checked by the
/// facade; the backend broadcasts, reading a stretched axis again); every result has the broadcast
/// shape
///   add subtract multiply divide floor_divide mod power, numeric T -> R. The facade calls divide
///     for floating T only (it divides integers in float64). floor_divide and mod floor, as
///     NumPy's: the remainder takes the divisor's sign; an integer division by 0 gives 0
///   minimum maximum -> R: NaN propagates
///   zip_rule<rule>(x, y) -> R: element by element the scalar rule `rule` of
///     detail/numpy_math.hpp (NumPy's division, remainder, power, minimum, maximum and the bitwise
///     ops), for the dtypes the rule takes; complex_power is the power of complex tensors
///   name(x, y) for each SCALAR row of EAGERPP_BINARY_FUNCTIONS (ops/binary_list.hpp: atan2,
///     copysign, hypot, nextafter, ...), for the dtypes its row names -> R; ep::binary_defaults
///     gives them from one zip_elements
///   logical_and logical_or, bool T -> R
///   less less_equal greater greater_equal equal not_equal -> Rb<bool>
///   where(const Rb<bool>& cond, x, y), the three shapes broadcasting together -> R: x where cond,
///     else y
///
/// reductions
///   sum prod (numeric T), min max, all any (bool T): (x, std::span<const int> axes) -> R with the
///     reduced axes removed (the facade restores them for keepdims). The facade sums and multiplies
///     narrow integers and bool in int64 or uint64 (NumPy's sum dtype), so sum and prod see int32,
///     int64, uint32, uint64, float and double. An axis of extent 0 gives sum 0, prod 1, all true
///     and any false; min and max are never called over one (the facade throws)
///   argmin argmax (x, int axis), the axis's extent > 0 -> Rb<int64_t> with the axis removed: the
///     index along it of the first minimum (maximum)
///   cumsum(x, int axis), numeric T -> R of x's shape: the inclusive running sums along the axis
///
/// shape: every result holds x's elements, rearranged
///   transpose(x, std::span<const int> perm), perm a permutation of [0, ndim) -> R: axis i of the
///     result is axis perm[i] of x
///   broadcast_to(x, shape), x's extents aligned with shape's last ones, each equal or 1 -> R of
///     that shape (a leading axis or an extent 1 repeated)
///   flip(x, std::span<const int> axes) -> R of x's shape, reversed along each of the axes
///   slice(x, std::span<const int64_t> start, std::span<const int64_t> step, shape), every step
///     >= 1, every element in range -> R of that shape: along each axis i, the elements
///     start[i] + k * step[i] for k < shape[i]
///   pad(x, std::span<const int64_t> before, std::span<const int64_t> after, T value), paddings
///     >= 0 and not all 0 -> R: x with before[i] elements `value` ahead of axis i and after[i]
///     behind it (NumPy's constant mode; the facade builds the other modes)
///   concatenate(std::span<const R> parts, int axis), two or more parts of one rank and equal
///     extents off the axis -> R: the parts one after another along the axis
///
/// indexing: x is 1-D (the facade flattens it), every index in [0, x's extent)
///   take(x, const Rb<int64_t>& index), index of any shape -> R of index's shape: element i is
///     x[index[i]]
///   put(x, const Rb<int64_t>& index, values), index and values 1-D of one length -> R: a copy of x
///     with x[index[i]] = values[i] (a repeated index: the last write wins)
///   put_add(x, index, values), numeric T, as put -> R: a copy of x with x[index[i]] += values[i]
///     (a repeated index adds each value)
///
/// sorting
///   sort(x, int axis) -> R of x's shape: ascending along the axis, stable, NaN last (NumPy's)
///   argsort(x, int axis) -> Rb<int64_t> of x's shape: the positions along the axis that sort
///     takes its elements from
///
/// linear algebra
///   matmul(a, b, bool transpose_a, bool transpose_b), numeric T: a and b of rank >= 2 with equal
///     batch axes, op(a) (..., n, k) and op(b) (..., k, m), where op(a) is a with its last two
///     axes swapped when transpose_a (read in place, never copied), and likewise op(b)
///     -> R (..., n, m): op(a) op(b) for each batch entry
///
/// Decompositions (optional, floating T: ep::decomposition_backend, asserted by ep::linalg where
/// one is called): batched over equal leading axes, every matrix through the backend's solver
/// library, C order in and out. `failed` (std::int64_t&) is set to the flat batch index of the
/// first matrix the decomposition fails on, else -1.
///   cholesky(x, failed) -> L (..., n, n) lower, zeros above, from x's lower triangle; failed: the
///     first matrix that is not positive definite
///   solve(a, b, failed) -> x with a x = b, a (..., n, n), b (..., n, k), by LU with partial
///     pivoting, also for the complex dtypes; failed: the first exactly singular matrix
///   triangular_solve(a, b, upper, transpose, unit_diagonal, failed) -> x with op(a) x = b, a
///     (..., n, n) read from its lower (upper) triangle only, op(a) = a^T when transpose, a's
///     diagonal taken as ones when unit_diagonal; failed: the first with an exact 0 on its diagonal
///   qr(x, complete) -> {Q (..., m, k), R (..., k, n)}, x (..., m, n), k = min(m, n), or m when
///     complete
///   svd(x, full_matrices) -> {U (..., m, k), S (..., k) descending, Vh (..., k, n)},
///     k = min(m, n), or m for U and n for Vh when full_matrices; svdvals(x) -> S
///   eigh(x) -> {w (..., n) ascending, V (..., n, n) whose columns are the eigenvectors}, from x's
///     lower triangle
///   slogdet(x) -> {sign, log|det|} (...), {0, -inf} for a singular matrix
///   eig(x, bool vectors), real or complex T (optional: ep::linalg::eig names it where it is
///     missing) -> {w (..., n), V (..., n, n) or empty without vectors}, both of the complex dtype
///     of T's precision: the eigenvalues and unit-norm right eigenvectors (columns) of each matrix;
///     NaN for a matrix whose iteration does not converge
///
/// Everything else (keepdims, negative axes, C++ scalars, mean, squeeze, stack, softmax, the
/// gradients, ...) the facade builds from these, once for every backend.
template <class B>
concept backend =
    requires {
      typename B::value_type;
      typename B::raw_type;
      typename B::template rebind<bool>;
      { B::name } -> std::convertible_to<std::string_view>;
    } &&
    dtype<typename B::value_type> && std::copyable<typename B::raw_type> &&
    requires(const typename B::raw_type& r, const typename B::value_type* p,
             typename B::value_type* out, const Shape& s) {
      { B::shape(r) } -> std::convertible_to<Shape>;
      { B::from_data(p, s) } -> std::same_as<typename B::raw_type>;
      B::to_data(r, out);
    };
// clang-format on

namespace detail {

/// `rebind<U>::raw_type` of backend B.
template <class B, class U>
using Rb = typename B::template rebind<U>::raw_type;

/// Whether B converts to dtype U: astype<U>(raw) -> rebind<U>::raw_type.
template <class B, class U>
concept converts_to_dtype = requires(const typename B::raw_type& x) {
  { B::template astype<U>(x) } -> std::same_as<Rb<B, U>>;
};

/// Whether B converts to each of the dtypes U.
template <class B, class... U>
concept converts_to = (converts_to_dtype<B, U> && ...);

/// The scalar functor of the map_elements row: each element by value.
struct copy_element_fn {
  template <class V>
  EAGERPP_HOST_DEVICE V operator()(const V& v) const {
    return v;
  }
};

// One table per op family, a row per static function the facade calls:
// X(name, needed, signature, requirement): B must have `name` where its dtype needs it (`needed`,
// e.g. exp only for floating dtypes), shaped as `requirement` says of the arguments below. Each
// table gives `<family>_checks<B>` (has_<name> for each row, `value` for all) and
// `<family>_contract<B>`, which turns each missing function into a sentence naming it and its
// `signature`; the facade instantiates the contracts where it uses the family (ep::Tensor).
#define EAGERPP_BACKEND_HAS(name, needed, signature, ...)                                   \
  static constexpr bool has_##name =                                                        \
      !(needed) ||                                                                          \
      requires(const R& x, T v, std::int64_t n, const Shape& s, std::span<const int> a,     \
               std::span<const std::int64_t> i, std::span<const R> p, const Rb<B, bool>& c, \
               const Rb<B, std::int64_t>& k, bool t, std::int64_t& f) {                     \
    __VA_ARGS__;                                                                            \
  };
#define EAGERPP_BACKEND_AND(name, ...) &&has_##name
#define EAGERPP_BACKEND_ASSERT(name, needed, signature, ...)                         \
  static_assert(C::has_##name, "ep::" #name ": the backend has no static " signature \
                               "; see \"Writing a backend\" in docs/backends.md");
#define EAGERPP_BACKEND_FAMILY(family, FUNCTIONS)                      \
  template <class B>                                                   \
  struct family##_checks {                                             \
    using T = typename B::value_type;                                  \
    using R = typename B::raw_type;                                    \
    FUNCTIONS(EAGERPP_BACKEND_HAS)                                     \
    static constexpr bool value = true FUNCTIONS(EAGERPP_BACKEND_AND); \
  };                                                                   \
  template <class B>                                                   \
  struct family##_contract {                                           \
    using C = family##_checks<B>;                                      \
    FUNCTIONS(EAGERPP_BACKEND_ASSERT)                                  \
    static constexpr bool value = true;                                \
  };
// The rows of the unary list (ops/unary_list.hpp) as rows of the element-wise table, which expands
// the list with `X##_UNARY`: one adapter per expansion of a table (has, and, assert).
#define EAGERPP_BACKEND_NEEDS_FLOAT floating_dtype<T>
#define EAGERPP_BACKEND_NEEDS_NUMERIC numeric_dtype<T>
// The complex dtypes of INEXACT and ARITHMETIC unary rows go through map_elements (its own row).
#define EAGERPP_BACKEND_NEEDS_INEXACT floating_dtype<T>
#define EAGERPP_BACKEND_NEEDS_ARITHMETIC numeric_dtype<T>
#define EAGERPP_BACKEND_UNARY(X, name, dtypes) \
  X(name, EAGERPP_BACKEND_NEEDS_##dtypes, #name "(raw)", { B::name(x) } -> std::same_as<R>)
#define EAGERPP_BACKEND_HAS_UNARY(name, dtypes, grad, scalar) \
  EAGERPP_BACKEND_UNARY(EAGERPP_BACKEND_HAS, name, dtypes)
#define EAGERPP_BACKEND_AND_UNARY(name, dtypes, grad, scalar) \
  EAGERPP_BACKEND_UNARY(EAGERPP_BACKEND_AND, name, dtypes)
#define EAGERPP_BACKEND_ASSERT_UNARY(name, dtypes, grad, scalar) \
  EAGERPP_BACKEND_UNARY(EAGERPP_BACKEND_ASSERT, name, dtypes)
#define EAGERPP_BACKEND_NEEDS_BOOL (std::same_as<T, bool>)
#define EAGERPP_BACKEND_NEEDS_EVERY true
// The rows of the binary, comparison and reduction lists (ops/binary_list.hpp) alike; a reduction
// the facade computes with other ops (NATIVE is NONE) is no row of the contract.
#define EAGERPP_BACKEND_BINARY(X, name, dtypes) \
  X(name, EAGERPP_BACKEND_NEEDS_##dtypes, #name "(raw, raw)", { B::name(x, x) } -> std::same_as<R>)
#define EAGERPP_BACKEND_HAS_BINARY(name, dtypes, ...) \
  EAGERPP_BACKEND_BINARY(EAGERPP_BACKEND_HAS, name, dtypes)
#define EAGERPP_BACKEND_AND_BINARY(name, dtypes, ...) \
  EAGERPP_BACKEND_BINARY(EAGERPP_BACKEND_AND, name, dtypes)
#define EAGERPP_BACKEND_ASSERT_BINARY(name, dtypes, ...) \
  EAGERPP_BACKEND_BINARY(EAGERPP_BACKEND_ASSERT, name, dtypes)
// The SCALAR rows of the binary functions' table (ops/binary_list.hpp); a COMPOSITE row is no row of
// the contract.
#define EAGERPP_BACKEND_HAS_FUNCTION_SCALAR(name, dtypes, ...) \
  EAGERPP_BACKEND_BINARY(EAGERPP_BACKEND_HAS, name, dtypes)
#define EAGERPP_BACKEND_AND_FUNCTION_SCALAR(name, dtypes, ...) \
  EAGERPP_BACKEND_BINARY(EAGERPP_BACKEND_AND, name, dtypes)
#define EAGERPP_BACKEND_ASSERT_FUNCTION_SCALAR(name, dtypes, ...) \
  EAGERPP_BACKEND_BINARY(EAGERPP_BACKEND_ASSERT, name, dtypes)
#define EAGERPP_BACKEND_HAS_FUNCTION_COMPOSITE(...)
#define EAGERPP_BACKEND_AND_FUNCTION_COMPOSITE(...)
#define EAGERPP_BACKEND_ASSERT_FUNCTION_COMPOSITE(...)
#define EAGERPP_BACKEND_HAS_FUNCTION(name, dtypes, value, grad) \
  EAGERPP_BINARY_BY_VALUE(EAGERPP_BACKEND_HAS_FUNCTION, name, dtypes, value)
#define EAGERPP_BACKEND_AND_FUNCTION(name, dtypes, value, grad) \
  EAGERPP_BINARY_BY_VALUE(EAGERPP_BACKEND_AND_FUNCTION, name, dtypes, value)
#define EAGERPP_BACKEND_ASSERT_FUNCTION(name, dtypes, value, grad) \
  EAGERPP_BINARY_BY_VALUE(EAGERPP_BACKEND_ASSERT_FUNCTION, name, dtypes, value)
#define EAGERPP_BACKEND_COMPARISON(X, name)                   \
  X(name, true, #name "(raw, raw) -> rebind<bool>::raw_type", \
    { B::name(x, x) } -> std::same_as<Rb<B, bool>>)
#define EAGERPP_BACKEND_HAS_COMPARISON(name, symbol, dtypes) \
  EAGERPP_BACKEND_COMPARISON(EAGERPP_BACKEND_HAS, name)
#define EAGERPP_BACKEND_AND_COMPARISON(name, symbol, dtypes) \
  EAGERPP_BACKEND_COMPARISON(EAGERPP_BACKEND_AND, name)
#define EAGERPP_BACKEND_ASSERT_COMPARISON(name, symbol, dtypes) \
  EAGERPP_BACKEND_COMPARISON(EAGERPP_BACKEND_ASSERT, name)
#define EAGERPP_BACKEND_REDUCE(X, name, native)                       \
  EAGERPP_NATIVE_##native(X(name, EAGERPP_BACKEND_NEEDS_##native,     \
                            #name "(raw, std::span<const int> axes)", \
                            { B::name(x, a) } -> std::same_as<R>))
#define EAGERPP_BACKEND_HAS_REDUCTION(name, dtypes, native) \
  EAGERPP_BACKEND_REDUCE(EAGERPP_BACKEND_HAS, name, native)
#define EAGERPP_BACKEND_AND_REDUCTION(name, dtypes, native) \
  EAGERPP_BACKEND_REDUCE(EAGERPP_BACKEND_AND, name, native)
#define EAGERPP_BACKEND_ASSERT_REDUCTION(name, dtypes, native) \
  EAGERPP_BACKEND_REDUCE(EAGERPP_BACKEND_ASSERT, name, native)

// clang-format off
#define EAGERPP_CREATION_FUNCTIONS(X)                                                              \
  X(full, true, "full(shape, T value)", { B::full(s, v) } -> std::same_as<R>)                      \
  X(arange, numeric_dtype<T>, "arange(T start, T step, std::int64_t n)",                           \
    { B::arange(v, v, n) } -> std::same_as<R>)                                                     \
  X(reshape, true, "reshape(raw, shape)", { B::reshape(x, s) } -> std::same_as<R>)                 \
  X(astype, true, "template <class U> astype(raw) for every dtype U",                              \
    requires converts_to<B, float, double, std::int32_t, std::int64_t, bool>)

#define EAGERPP_ELEMENTWISE_FUNCTIONS(X)                                                           \
  EAGERPP_UNARY_OPS(X##_UNARY)                                                                     \
  X(map_elements, true,                                                                            \
    "template <class F> map_elements(raw, F f, const char* op) -> the raw type of f's result",     \
    { B::map_elements(x, copy_element_fn{}, "op") } -> std::same_as<R>)                            \
  X(negative, numeric_dtype<T>, "negative(raw)", { B::negative(x) } -> std::same_as<R>)            \
  X(logical_not, (std::same_as<T, bool>), "logical_not(raw)",                                      \
    { B::logical_not(x) } -> std::same_as<R>)                                                      \
  X(clip, numeric_dtype<T>, "clip(raw, T lo, T hi)", { B::clip(x, v, v) } -> std::same_as<R>)      \
  X(isnan, true, "isnan(raw) -> rebind<bool>::raw_type",                                           \
    { B::isnan(x) } -> std::same_as<Rb<B, bool>>)                                                  \
  X(isinf, true, "isinf(raw) -> rebind<bool>::raw_type",                                           \
    { B::isinf(x) } -> std::same_as<Rb<B, bool>>)                                                  \
  EAGERPP_BINARY_OPS(X##_BINARY)                                                                   \
  EAGERPP_BINARY_FUNCTIONS(X##_FUNCTION)                                                           \
  X(zip_rule, true,                                                                               \
    "template <detail::numpy::rule R> zip_rule(raw, raw): the scalar rule R of "                   \
    "detail/numpy_math.hpp element by element",                                                    \
    { B::template zip_rule<detail::numpy::rule::maximum>(x, x) } -> std::same_as<R>)               \
  EAGERPP_COMPARISON_OPS(X##_COMPARISON)                                                           \
  X(where, true, "where(rebind<bool>::raw_type cond, raw, raw)",                                   \
    { B::where(c, x, x) } -> std::same_as<R>)

#define EAGERPP_REDUCTION_FUNCTIONS(X)                                                             \
  EAGERPP_REDUCTION_OPS(X##_REDUCTION)                                                             \
  X(argmin, true, "argmin(raw, int axis) -> rebind<std::int64_t>::raw_type",                       \
    { B::argmin(x, 0) } -> std::same_as<Rb<B, std::int64_t>>)                                      \
  X(argmax, true, "argmax(raw, int axis) -> rebind<std::int64_t>::raw_type",                       \
    { B::argmax(x, 0) } -> std::same_as<Rb<B, std::int64_t>>)                                      \
  X(cumsum, numeric_dtype<T>, "cumsum(raw, int axis)", { B::cumsum(x, 0) } -> std::same_as<R>)

#define EAGERPP_SHAPE_FUNCTIONS(X)                                                                 \
  X(transpose, true, "transpose(raw, std::span<const int> perm)",                                  \
    { B::transpose(x, a) } -> std::same_as<R>)                                                     \
  X(broadcast_to, true, "broadcast_to(raw, shape)", { B::broadcast_to(x, s) } -> std::same_as<R>)  \
  X(flip, true, "flip(raw, std::span<const int> axes)", { B::flip(x, a) } -> std::same_as<R>)      \
  X(slice, true,                                                                                   \
    "slice(raw, std::span<const std::int64_t> start, std::span<const std::int64_t> step, shape)",  \
    { B::slice(x, i, i, s) } -> std::same_as<R>)                                                   \
  X(pad, true,                                                                                     \
    "pad(raw, std::span<const std::int64_t> before, std::span<const std::int64_t> after, T value)",\
    { B::pad(x, i, i, v) } -> std::same_as<R>)                                                     \
  X(concatenate, true, "concatenate(std::span<const raw> parts, int axis)",                        \
    { B::concatenate(p, 0) } -> std::same_as<R>)

#define EAGERPP_INDEXING_FUNCTIONS(X)                                                              \
  X(take, true, "take(raw, rebind<std::int64_t>::raw_type index)",                                 \
    { B::take(x, k) } -> std::same_as<R>)                                                          \
  X(put, true, "put(raw, rebind<std::int64_t>::raw_type index, raw values)",                       \
    { B::put(x, k, x) } -> std::same_as<R>)                                                        \
  X(put_add, numeric_dtype<T>, "put_add(raw, rebind<std::int64_t>::raw_type index, raw values)",   \
    { B::put_add(x, k, x) } -> std::same_as<R>)                                                    \
  X(sort, true, "sort(raw, int axis)", { B::sort(x, 0) } -> std::same_as<R>)                       \
  X(argsort, true, "argsort(raw, int axis) -> rebind<std::int64_t>::raw_type",                     \
    { B::argsort(x, 0) } -> std::same_as<Rb<B, std::int64_t>>)

#define EAGERPP_LINALG_FUNCTIONS(X)                                                                \
  X(matmul, numeric_dtype<T>, "matmul(raw a, raw b, bool transpose_a, bool transpose_b)",          \
    { B::matmul(x, x, t, t) } -> std::same_as<R>)

#define EAGERPP_DECOMPOSITION_FUNCTIONS(X)                                                         \
  X(cholesky, floating_dtype<T>, "cholesky(raw, std::int64_t& failed)",                            \
    { B::cholesky(x, f) } -> std::same_as<R>)                                                      \
  X(solve, inexact_dtype<T>, "solve(raw a, raw b, std::int64_t& failed)",                          \
    { B::solve(x, x, f) } -> std::same_as<R>)                                                      \
  X(triangular_solve, floating_dtype<T>,                                                           \
    "triangular_solve(raw a, raw b, bool upper, bool transpose, bool unit_diagonal, "              \
    "std::int64_t& failed)",                                                                       \
    { B::triangular_solve(x, x, t, t, t, f) } -> std::same_as<R>)                                  \
  X(qr, floating_dtype<T>, "qr(raw, bool complete) -> std::pair<raw, raw>",                        \
    { B::qr(x, t) } -> std::same_as<std::pair<R, R>>)                                              \
  X(svd, floating_dtype<T>, "svd(raw, bool full_matrices) -> std::tuple<raw, raw, raw>",           \
    { B::svd(x, t) } -> std::same_as<std::tuple<R, R, R>>)                                         \
  X(svdvals, floating_dtype<T>, "svdvals(raw)", { B::svdvals(x) } -> std::same_as<R>)              \
  X(eigh, floating_dtype<T>, "eigh(raw) -> std::pair<raw, raw>",                                   \
    { B::eigh(x) } -> std::same_as<std::pair<R, R>>)                                               \
  X(slogdet, floating_dtype<T>, "slogdet(raw) -> std::pair<raw, raw>",                             \
    { B::slogdet(x) } -> std::same_as<std::pair<R, R>>)
// clang-format on

EAGERPP_BACKEND_FAMILY(creation, EAGERPP_CREATION_FUNCTIONS)
EAGERPP_BACKEND_FAMILY(elementwise, EAGERPP_ELEMENTWISE_FUNCTIONS)
EAGERPP_BACKEND_FAMILY(reduction, EAGERPP_REDUCTION_FUNCTIONS)
EAGERPP_BACKEND_FAMILY(shape, EAGERPP_SHAPE_FUNCTIONS)
EAGERPP_BACKEND_FAMILY(indexing, EAGERPP_INDEXING_FUNCTIONS)
EAGERPP_BACKEND_FAMILY(linalg, EAGERPP_LINALG_FUNCTIONS)
EAGERPP_BACKEND_FAMILY(decomposition, EAGERPP_DECOMPOSITION_FUNCTIONS)

#undef EAGERPP_CREATION_FUNCTIONS
#undef EAGERPP_ELEMENTWISE_FUNCTIONS
#undef EAGERPP_REDUCTION_FUNCTIONS
#undef EAGERPP_SHAPE_FUNCTIONS
#undef EAGERPP_INDEXING_FUNCTIONS
#undef EAGERPP_LINALG_FUNCTIONS
#undef EAGERPP_DECOMPOSITION_FUNCTIONS
#undef EAGERPP_BACKEND_FAMILY
#undef EAGERPP_BACKEND_HAS
#undef EAGERPP_BACKEND_AND
#undef EAGERPP_BACKEND_ASSERT
#undef EAGERPP_BACKEND_UNARY
#undef EAGERPP_BACKEND_HAS_UNARY
#undef EAGERPP_BACKEND_AND_UNARY
#undef EAGERPP_BACKEND_ASSERT_UNARY
#undef EAGERPP_BACKEND_NEEDS_FLOAT
#undef EAGERPP_BACKEND_NEEDS_NUMERIC
#undef EAGERPP_BACKEND_NEEDS_INEXACT
#undef EAGERPP_BACKEND_NEEDS_ARITHMETIC
#undef EAGERPP_BACKEND_NEEDS_BOOL
#undef EAGERPP_BACKEND_NEEDS_EVERY
#undef EAGERPP_BACKEND_BINARY
#undef EAGERPP_BACKEND_HAS_BINARY
#undef EAGERPP_BACKEND_AND_BINARY
#undef EAGERPP_BACKEND_ASSERT_BINARY
#undef EAGERPP_BACKEND_HAS_FUNCTION_SCALAR
#undef EAGERPP_BACKEND_AND_FUNCTION_SCALAR
#undef EAGERPP_BACKEND_ASSERT_FUNCTION_SCALAR
#undef EAGERPP_BACKEND_HAS_FUNCTION_COMPOSITE
#undef EAGERPP_BACKEND_AND_FUNCTION_COMPOSITE
#undef EAGERPP_BACKEND_ASSERT_FUNCTION_COMPOSITE
#undef EAGERPP_BACKEND_HAS_FUNCTION
#undef EAGERPP_BACKEND_AND_FUNCTION
#undef EAGERPP_BACKEND_ASSERT_FUNCTION
#undef EAGERPP_BACKEND_COMPARISON
#undef EAGERPP_BACKEND_HAS_COMPARISON
#undef EAGERPP_BACKEND_AND_COMPARISON
#undef EAGERPP_BACKEND_ASSERT_COMPARISON
#undef EAGERPP_BACKEND_REDUCE
#undef EAGERPP_BACKEND_HAS_REDUCTION
#undef EAGERPP_BACKEND_AND_REDUCTION
#undef EAGERPP_BACKEND_ASSERT_REDUCTION
#undef EAGERPP_BACKEND_NEEDS_NUMERIC

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

/// A backend with the matrix decompositions of ep::linalg (cholesky, solve, qr, svd, eigh, slogdet)
/// through its own solver library. Optional: ep::Tensor<B> is complete without them, and ep::linalg
/// names each missing function in a sentence where it is used.
template <class B>
concept decomposition_backend = backend<B> && detail::decomposition_checks<B>::value;

/// A backend with every op of every family: what ep::Tensor<B> needs to be complete.
template <class B>
concept complete_backend = creation_backend<B> && elementwise_backend<B> && reduction_backend<B> &&
    shape_backend<B> && indexing_backend<B> && linalg_backend<B>;

template <backend Backend>
class Tensor;

}  // namespace ep
