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
///   unary         each op of EAGERPP_UNARY_OPS (include/eagerpp/ops/unary_list.hpp): abs sign sqrt
///                 square exp log ... round ceil floor, and negative -> R (round is half to even;
///                 the ops listed FLOAT are only called for float T)
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
///   decompositions (optional, floating T; ep::linalg): batched over equal leading axes, every
///                 matrix through the backend's solver library, C-order in and out:
///                 cholesky(x, failed) -> L (..., n, n), lower, zeros above, from x's lower
///                   triangle; solve(a, b, failed) -> x with a x = b, a (..., n, n), b (..., n, k),
///                   by LU with partial pivoting; `failed` (std::int64_t&) is set to the flat batch
///                   index of the first matrix that is not positive definite (cholesky) or exactly
///                   singular (solve), else -1;
///                 triangular_solve(a, b, upper, transpose, unit_diagonal, failed) -> x with
///                   op(a) x = b, a (..., n, n) read from its lower (or upper) triangle only, op(a)
///                   = aᵀ when transpose, a's diagonal taken as ones when unit_diagonal; `failed`:
///                   the first matrix with an exact zero on its diagonal, else -1;
///                 qr(x, complete) -> {Q, R}: x (..., m, n), Q (..., m, k), R (..., k, n), k = min(m,
///                   n), or k = m when complete; svd(x, full_matrices) -> {U, S, Vh}: U (..., m, k),
///                   S (..., k) descending, Vh (..., k, n), k = m and n for U and Vh when full;
///                   svdvals(x) -> S; eigh(x) -> {w (..., n) ascending, V (..., n, n) columns}, from
///                   x's lower triangle; slogdet(x) -> {sign, log|det|} (...), {0, -inf} if singular
///
/// Anything else (keepdims, negative axes, scalars, mean, squeeze, stack, softmax, ...) the facade
/// builds from these, once for every backend.
///
/// Optional: a host backend that keeps C-order elements in shared memory may define
///   share_host(x) -> std::shared_ptr<T> and from_host_shared(std::shared_ptr<T>, const Shape&) ->
///   R,
/// so that ep::to between two such backends shares the elements instead of copying them.
/// Optional: `static constexpr bool blocked_evaluation = true` in a host backend with the two hooks
/// above makes the element-wise ops of its large floating tensors lazy, computed in cache-sized
/// blocks by the same static functions called on rank-1 views of the blocks
/// (backends/host/include/eagerpp/detail/blocks.hpp, included by the backend's header).
/// Optional: map_reduce(detail::reduce_kind, detail::map_kind, x) -> R of shape (), the sum, min or
/// max of x's squares or absolute values in one pass over non-empty x; with it, a reduction of a
/// lazy square or abs (`x.square().sum()`, `x.abs().max()`) reads the op's input once.
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

/// Whether B converts to dtype U: astype<U>(raw) -> rebind<U>::raw_type.
template <class B, class U>
concept converts_to_dtype = requires(const typename B::raw_type& x) {
  { B::template astype<U>(x) } -> std::same_as<Rb<B, U>>;
};

/// Whether B converts to each of the dtypes U.
template <class B, class... U>
concept converts_to = (converts_to_dtype<B, U> && ...);

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
#define EAGERPP_BACKEND_UNARY(X, name, dtypes) \
  X(name, EAGERPP_BACKEND_NEEDS_##dtypes, #name "(raw)", { B::name(x) } -> std::same_as<R>)
#define EAGERPP_BACKEND_HAS_UNARY(name, dtypes, grad) \
  EAGERPP_BACKEND_UNARY(EAGERPP_BACKEND_HAS, name, dtypes)
#define EAGERPP_BACKEND_AND_UNARY(name, dtypes, grad) \
  EAGERPP_BACKEND_UNARY(EAGERPP_BACKEND_AND, name, dtypes)
#define EAGERPP_BACKEND_ASSERT_UNARY(name, dtypes, grad) \
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
  X(negative, numeric_dtype<T>, "negative(raw)", { B::negative(x) } -> std::same_as<R>)            \
  X(logical_not, (std::same_as<T, bool>), "logical_not(raw)",                                      \
    { B::logical_not(x) } -> std::same_as<R>)                                                      \
  X(clip, numeric_dtype<T>, "clip(raw, T lo, T hi)", { B::clip(x, v, v) } -> std::same_as<R>)      \
  X(isnan, true, "isnan(raw) -> rebind<bool>::raw_type",                                           \
    { B::isnan(x) } -> std::same_as<Rb<B, bool>>)                                                  \
  X(isinf, true, "isinf(raw) -> rebind<bool>::raw_type",                                           \
    { B::isinf(x) } -> std::same_as<Rb<B, bool>>)                                                  \
  EAGERPP_BINARY_OPS(X##_BINARY)                                                                   \
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
  X(solve, floating_dtype<T>, "solve(raw a, raw b, std::int64_t& failed)",                         \
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
#undef EAGERPP_BACKEND_NEEDS_BOOL
#undef EAGERPP_BACKEND_NEEDS_EVERY
#undef EAGERPP_BACKEND_BINARY
#undef EAGERPP_BACKEND_HAS_BINARY
#undef EAGERPP_BACKEND_AND_BINARY
#undef EAGERPP_BACKEND_ASSERT_BINARY
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
