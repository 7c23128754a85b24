// eagerpp - ep::vmap, JAX's batching transform: a function written for one example runs once on a
// whole batch, through ep::batched<B>, a backend whose tensors carry a batch axis the function
// does not see
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::max
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t
#include <optional>     // std::optional, std::nullopt
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple, std::tuple_size
#include <type_traits>  // std::conditional_t, std::decay_t, std::is_same_v
#include <utility>      // std::declval, std::pair, std::index_sequence, std::exchange
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/astensor.hpp"
#include "eagerpp/autodiff/tape.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/ops/array_api.hpp"
#include "eagerpp/tensor.hpp"  // and the op families
#include "eagerpp/tree.hpp"

namespace ep {

/// The native tensor of ep::batched<B>: B's native tensor with one more axis in front, the batch,
/// of the batch size or of extent 1 (a value every example shares: a constant, a creation, an
/// argument vmap does not map), which B's broadcasting then spreads.
template <class R>
struct batched_raw {
  R data;
};

namespace detail {
/// ep::batched<B>'s optional hook inv, declared only where B has it: a hook is declared as the
/// contract says or not at all (include/eagerpp/backend_hooks.hpp).
template <class B, bool = inverse_backend<B>>
struct batched_inverse {};
template <class B>
struct batched_inverse<B, true> {
  static batched_raw<typename B::raw_type> inv(const batched_raw<typename B::raw_type>& x,
                                               std::int64_t& failed) {
    return {B::inv(x.data, failed)};
  }
};
}  // namespace detail

/// The backend through which ep::vmap runs a function once for a whole batch (JAX's batching
/// interpreter, as a backend): a tensor of shape S to the function is B's tensor of shape (n, S),
/// and each op of the backend contract is B's op with the batch axis added (its batching rule):
/// element-wise ops align the operands behind the batch axis and broadcast, reductions, sorts and
/// shape ops shift their axes by one, matmul is one batched product (one GEMM against a shared
/// matrix), take and put offset each example's indices into its own row. The facade builds every
/// other op (and every gradient rule) from these, so each runs batched too. Reading values
/// (item, to_vector, printing) is possible only where every example holds the same ones.
template <backend B>
struct batched : detail::batched_inverse<B> {
  using unbatched_backend = B;
  static constexpr std::string_view name = "vmap";
  using value_type = typename B::value_type;
  using raw_type = batched_raw<typename B::raw_type>;
  template <class U>
  using rebind = batched<typename B::template rebind<U>>;

 private:
  using T = value_type;
  using R = typename B::raw_type;
  template <class U>
  using inner = typename B::template rebind<U>;
  /// B, as a type that depends on X: the names of B in a member template's declaration are then
  /// looked up where it is used, so that a function B lacks leaves the template out.
  template <class X>
  using B_of = std::conditional_t<std::is_same_v<X, R>, B, B>;

  /// The data's shape, batch axis first.
  template <class BB>
  static Shape full_shape(const typename BB::raw_type& data) {
    return Shape(BB::shape(data));
  }
  static Shape with_batch(std::int64_t n, const Shape& s) {
    Shape out = s;
    out.insert(0, n);
    return out;
  }
  /// The data of an operand whose examples have rank `rank` or less, with unit axes inserted
  /// behind the batch axis so that its example axes align with the others' at the right, as
  /// NumPy aligns shapes: B's broadcasting then spreads both the examples and the batch.
  template <class BB>
  static typename BB::raw_type aligned(const typename BB::raw_type& data, int rank) {
    const Shape s = full_shape<BB>(data);
    if (s.size() - 1 == rank) return data;
    Shape out{s[0]};
    for (int i = s.size() - 1; i < rank; ++i) out.push_back(1);
    for (int i = 1; i < s.size(); ++i) out.push_back(s[i]);
    return BB::reshape(data, out);
  }
  /// The data spread over a batch of `n` where it is shared (extent 1).
  template <class BB>
  static typename BB::raw_type spread(const typename BB::raw_type& data, std::int64_t n) {
    Shape s = full_shape<BB>(data);
    if (s[0] == n) return data;
    s[0] = n;
    return BB::broadcast_to(data, s);
  }
  static int example_rank(const raw_type& x) { return full_shape<B>(x.data).size() - 1; }
  static std::int64_t extent(const raw_type& x) { return full_shape<B>(x.data)[0]; }
  /// A permutation of the example axes as one of the data's axes, the batch axis first.
  static detail::axis_list shifted(std::span<const int> axes) {
    detail::axis_list out;
    out.push_back(0);
    for (const int a : axes) out.push_back(a + 1);
    return out;
  }
  /// The axes shifted behind the batch axis (the batch itself not among them).
  static detail::axis_list behind(std::span<const int> axes) {
    detail::axis_list out;
    for (const int a : axes) out.push_back(a + 1);
    return out;
  }
  template <class Raw>
  static batched_raw<Raw> wrap(Raw r) {
    return {std::move(r)};
  }
  static std::vector<std::int64_t> prepend(std::int64_t v, std::span<const std::int64_t> s) {
    std::vector<std::int64_t> out{v};
    out.insert(out.end(), s.begin(), s.end());
    return out;
  }

 public:
  // --- storage ---------------------------------------------------------------------------------
  static Shape shape(const raw_type& x) {
    Shape s = full_shape<B>(x.data);
    s.erase(0);
    return s;
  }
  static raw_type from_data(const T* data, const Shape& s) {
    return {B::from_data(data, with_batch(1, s))};
  }
  static void to_data(const raw_type& x, T* out) {
    const std::int64_t n = extent(x);
    if (n != 1)
      throw value_error(fmt::format(
          "vmap: the values of a tensor that differs between the {} examples of the batch (shape "
          "{} in each example) cannot be read inside ep::vmap (item, to_vector, printing, or an "
          "op whose result's shape depends on the values: nonzero, unique, a boolean mask); "
          "return the tensor from the function and read it outside",
          n, shape(x).str()));
    B::to_data(x.data, out);
  }

  // --- creation and conversion -----------------------------------------------------------------
  static raw_type full(const Shape& s, T v) { return {B::full(with_batch(1, s), v)}; }
  static raw_type arange(T start, T step, std::int64_t n) requires requires {
    B::arange(start, step, n);
  }
  { return {B::reshape(B::arange(start, step, n), Shape{1, n})}; }
  static raw_type reshape(const raw_type& x, const Shape& s) {
    return {B::reshape(x.data, with_batch(extent(x), s))};
  }
  template <class U>
  static batched_raw<typename inner<U>::raw_type> astype(const raw_type& x) {
    return {B::template astype<U>(x.data)};
  }

  // --- element-wise: the operands aligned behind the batch axis, then B's broadcasting -----------
#define EAGERPP_BATCHED_UNARY_OP(op)                                            \
  static auto op(const raw_type& x) requires requires(const R& r) { B::op(r); } \
  { return wrap(B::op(x.data)); }
#define EAGERPP_BATCHED_UNARY_ROW(op, dtypes, grad, scalar) EAGERPP_BATCHED_UNARY_OP(op)
  EAGERPP_UNARY_OPS(EAGERPP_BATCHED_UNARY_ROW)
  EAGERPP_BATCHED_UNARY_OP(negative)
  EAGERPP_BATCHED_UNARY_OP(logical_not)
  EAGERPP_BATCHED_UNARY_OP(isnan)
  EAGERPP_BATCHED_UNARY_OP(isinf)
  template <class F>
  static auto map_elements(const raw_type& x, F f, const char* op) {
    return wrap(B::map_elements(x.data, f, op));
  }
#undef EAGERPP_BATCHED_UNARY_ROW
#undef EAGERPP_BATCHED_UNARY_OP
  static raw_type clip(const raw_type& x, T lo, T hi) requires requires(const R& r) {
    B::clip(r, lo, hi);
  }
  { return {B::clip(x.data, lo, hi)}; }
// The binary functions' result types are spelled (a deduced `auto` would instantiate B's body
// to check the contract, and B::less of complex values, say, is declared but cannot compile).
#define EAGERPP_BATCHED_BINARY_OP(op, result)                                            \
  static result op(const raw_type& a, const raw_type& b) requires requires(const R& r) { \
    B::op(r, r);                                                                         \
  }                                                                                      \
  {                                                                                      \
    const int rank = std::max(example_rank(a), example_rank(b));                         \
    return wrap(B::op(aligned<B>(a.data, rank), aligned<B>(b.data, rank)));              \
  }
#define EAGERPP_BATCHED_BINARY_ROW(op, ...) EAGERPP_BATCHED_BINARY_OP(op, raw_type)
#define EAGERPP_BATCHED_COMPARISON_ROW(op, ...) \
  EAGERPP_BATCHED_BINARY_OP(op, batched_raw<typename inner<bool>::raw_type>)
  EAGERPP_BINARY_OPS(EAGERPP_BATCHED_BINARY_ROW)
  EAGERPP_COMPARISON_OPS(EAGERPP_BATCHED_COMPARISON_ROW)
  EAGERPP_BINARY_FUNCTIONS(EAGERPP_BATCHED_BINARY_ROW)
#undef EAGERPP_BATCHED_COMPARISON_ROW
#undef EAGERPP_BATCHED_BINARY_ROW
#undef EAGERPP_BATCHED_BINARY_OP
  template <detail::numpy::rule Rule>
  static raw_type zip_rule(const raw_type& a, const raw_type& b) {
    const int rank = std::max(example_rank(a), example_rank(b));
    return {B::template zip_rule<Rule>(aligned<B>(a.data, rank), aligned<B>(b.data, rank))};
  }
  static raw_type where(const batched_raw<typename inner<bool>::raw_type>& c, const raw_type& x,
                        const raw_type& y) {
    const int rank =
        std::max({example_rank(x), example_rank(y), full_shape<inner<bool>>(c.data).size() - 1});
    return {B::where(aligned<inner<bool>>(c.data, rank), aligned<B>(x.data, rank),
                     aligned<B>(y.data, rank))};
  }

  // --- reductions, sorting: the axes shifted behind the batch axis ------------------------------
#define EAGERPP_BATCHED_REDUCTION(op)                                                              \
  static raw_type op(const raw_type& x, std::span<const int> axes) requires requires(const R& r) { \
    B::op(r, axes);                                                                                \
  }                                                                                                \
  { return {B::op(x.data, behind(axes))}; }
#define EAGERPP_BATCHED_REDUCTION_ROW(op, dtypes, native) \
  EAGERPP_NATIVE_##native(EAGERPP_BATCHED_REDUCTION(op))
  EAGERPP_REDUCTION_OPS(EAGERPP_BATCHED_REDUCTION_ROW)
#undef EAGERPP_BATCHED_REDUCTION_ROW
#undef EAGERPP_BATCHED_REDUCTION
// Their result types come from B's declarations, in a template (so that a function B lacks
// leaves it out) for the same reason: B::argmin of complex values is declared but cannot compile.
#define EAGERPP_BATCHED_AXIS_OP(op)                                \
  template <class X = R>                                           \
  static auto op(const raw_type& x, int axis)                      \
      ->decltype(wrap(B_of<X>::op(std::declval<const X&>(), 0))) { \
    return wrap(B::op(x.data, axis + 1));                          \
  }
  EAGERPP_BATCHED_AXIS_OP(argmin)
  EAGERPP_BATCHED_AXIS_OP(argmax)
  EAGERPP_BATCHED_AXIS_OP(cumsum)
  EAGERPP_BATCHED_AXIS_OP(sort)
  EAGERPP_BATCHED_AXIS_OP(argsort)
#undef EAGERPP_BATCHED_AXIS_OP

  // --- shape -----------------------------------------------------------------------------------
  static raw_type transpose(const raw_type& x, std::span<const int> perm) {
    return {B::transpose(x.data, shifted(perm))};
  }
  static raw_type broadcast_to(const raw_type& x, const Shape& s) {
    return {B::broadcast_to(aligned<B>(x.data, s.size()), with_batch(extent(x), s))};
  }
  static raw_type flip(const raw_type& x, std::span<const int> axes) {
    return {B::flip(x.data, behind(axes))};
  }
  static raw_type slice(const raw_type& x, std::span<const std::int64_t> start,
                        std::span<const std::int64_t> step, const Shape& s) {
    return {B::slice(x.data, prepend(0, start), prepend(1, step), with_batch(extent(x), s))};
  }
  static raw_type pad(const raw_type& x, std::span<const std::int64_t> before,
                      std::span<const std::int64_t> after, T value) {
    return {B::pad(x.data, prepend(0, before), prepend(0, after), value)};
  }
  static raw_type concatenate(std::span<const raw_type> parts, int axis) {
    std::int64_t n = 1;
    for (const raw_type& p : parts) n = std::max(n, extent(p));
    std::vector<R> data;
    data.reserve(parts.size());
    for (const raw_type& p : parts) data.push_back(spread<B>(p.data, n));
    return {B::concatenate(std::span<const R>(data), axis + 1)};
  }

  // --- indexing: each example's indices offset into its own row ---------------------------------
  using index_raw = batched_raw<typename inner<std::int64_t>::raw_type>;
  static raw_type take(const raw_type& x, const index_raw& index) {
    const Shape xs = full_shape<B>(x.data);
    const std::int64_t n = xs[0], m = xs[1];
    if (n == 1) return {B::take(B::reshape(x.data, Shape{m}), index.data)};
    return {B::take(B::reshape(x.data, Shape{n * m}), offset(index.data, n, m))};
  }
  static raw_type put(const raw_type& x, const index_raw& index, const raw_type& values) {
    return scatter(x, index, values, [](const auto&... a) { return B::put(a...); });
  }
  static raw_type put_add(const raw_type& x, const index_raw& index,
                          const raw_type& values) requires
      requires(const R& r, const typename inner<std::int64_t>::raw_type& k) {
    B::put_add(r, k, r);
  }
  {
    return scatter(x, index, values, [](const auto&... a) { return B::put_add(a...); });
  }

  // --- linear algebra --------------------------------------------------------------------------
  /// One product per example, as one batched call; against a matrix every example shares, one
  /// GEMM of the examples' rows stacked (a batched left operand) or columns side by side (a
  /// batched right operand).
  static raw_type matmul(const raw_type& a, const raw_type& b, bool transpose_a,
                         bool transpose_b) requires requires(const R& r) {
    B::matmul(r, r, transpose_a, transpose_b);
  }
  {
    const Shape as = full_shape<B>(a.data), bs = full_shape<B>(b.data);
    const std::int64_t na = as[0], nb = bs[0];
    if (as.size() == 3 && na != nb) {
      // Each example's op(a) one row (n == 1) or op(b) one column (m == 1): the examples' vectors
      // are the rows of one matrix, stored so, and one GEMM against the shared operand gives the
      // examples' results as its rows.
      const std::int64_t rows_a = transpose_a ? as[2] : as[1], cols_b = transpose_b ? bs[1] : bs[2];
      if (nb == 1 && rows_a == 1) {  // (na, k) x op(b): row i is example i's (1, m)
        const R c = B::matmul(B::reshape(a.data, Shape{na, as[1] * as[2]}),
                              B::reshape(b.data, Shape{bs[1], bs[2]}), false, transpose_b);
        return {B::reshape(c, Shape{na, 1, cols_b})};
      }
      if (na == 1 && cols_b == 1) {  // (nb, k) x op(a)^T: row i is example i's (n, 1) as a row
        const R c = B::matmul(B::reshape(b.data, Shape{nb, bs[1] * bs[2]}),
                              B::reshape(a.data, Shape{as[1], as[2]}), false, !transpose_a);
        return {B::reshape(c, Shape{nb, rows_a, 1})};
      }
      if (nb == 1 && !transpose_a) {  // (na * n, k) x (k, m)
        const R c = B::matmul(B::reshape(a.data, Shape{na * as[1], as[2]}),
                              B::reshape(b.data, Shape{bs[1], bs[2]}), false, transpose_b);
        return {B::reshape(c, Shape{na, as[1], Shape(B::shape(c))[1]})};
      }
      if (na == 1) {  // (n, k) x (k, nb * m): b's examples side by side, then back in front
        const int perm_b[] = {transpose_b ? 2 : 1, 0, transpose_b ? 1 : 2};
        const R bt = B::transpose(b.data, perm_b);
        const Shape bts(B::shape(bt));
        const R c = B::matmul(B::reshape(a.data, Shape{as[1], as[2]}),
                              B::reshape(bt, Shape{bts[0], nb * bts[2]}), transpose_a, false);
        const std::int64_t rows = Shape(B::shape(c))[0];
        const int back[] = {1, 0, 2};
        return {B::transpose(B::reshape(c, Shape{rows, nb, bts[2]}), back)};
      }
    }
    const std::int64_t n = std::max(na, nb);
    return {B::matmul(spread<B>(a.data, n), spread<B>(b.data, n), transpose_a, transpose_b)};
  }
  static raw_type fft(const raw_type& x, int axis, bool inverse) requires requires(const R& r) {
    B::fft(r, 0, false);
  }
  { return {B::fft(x.data, axis + 1, inverse)}; }
  static raw_type cholesky(const raw_type& x, std::int64_t& failed) requires
      requires(const R& r, std::int64_t& f) {
    B::cholesky(r, f);
  }
  { return {B::cholesky(x.data, failed)}; }
  static raw_type solve(const raw_type& a, const raw_type& b, std::int64_t& failed) requires
      requires(const R& r, std::int64_t& f) {
    B::solve(r, r, f);
  }
  {
    const std::int64_t n = std::max(extent(a), extent(b));
    return {B::solve(spread<B>(a.data, n), spread<B>(b.data, n), failed)};
  }
  static raw_type triangular_solve(const raw_type& a, const raw_type& b, bool upper, bool transpose,
                                   bool unit_diagonal, std::int64_t& failed) requires
      requires(const R& r, std::int64_t& f) {
    B::triangular_solve(r, r, upper, transpose, unit_diagonal, f);
  }
  {
    const std::int64_t n = std::max(extent(a), extent(b));
    return {B::triangular_solve(spread<B>(a.data, n), spread<B>(b.data, n), upper, transpose,
                                unit_diagonal, failed)};
  }
  static std::pair<raw_type, raw_type> qr(const raw_type& x, bool complete) requires
      requires(const R& r) {
    B::qr(r, complete);
  }
  {
    auto [q, r] = B::qr(x.data, complete);
    return {raw_type{std::move(q)}, raw_type{std::move(r)}};
  }
  static std::tuple<raw_type, raw_type, raw_type> svd(const raw_type& x,
                                                      bool full_matrices) requires
      requires(const R& r) {
    B::svd(r, full_matrices);
  }
  {
    auto [u, s, vh] = B::svd(x.data, full_matrices);
    return {raw_type{std::move(u)}, raw_type{std::move(s)}, raw_type{std::move(vh)}};
  }
  static raw_type svdvals(const raw_type& x) requires requires(const R& r) { B::svdvals(r); }
  { return {B::svdvals(x.data)}; }
  static std::pair<raw_type, raw_type> eigh(const raw_type& x) requires requires(const R& r) {
    B::eigh(r);
  }
  {
    auto [w, v] = B::eigh(x.data);
    return {raw_type{std::move(w)}, raw_type{std::move(v)}};
  }
  static std::pair<raw_type, raw_type> slogdet(const raw_type& x) requires requires(const R& r) {
    B::slogdet(r);
  }
  {
    auto [sign, logabs] = B::slogdet(x.data);
    return {raw_type{std::move(sign)}, raw_type{std::move(logabs)}};
  }

 private:
  /// `index` (batch first) plus each example's row offset in a (n, m) array read flat.
  static typename inner<std::int64_t>::raw_type offset(
      const typename inner<std::int64_t>::raw_type& index, std::int64_t n, std::int64_t m) {
    using I = inner<std::int64_t>;
    const int rank = full_shape<I>(index).size() - 1;
    Shape rows{n};
    for (int i = 0; i < rank; ++i) rows.push_back(1);
    return I::add(index, I::reshape(I::arange(0, m, n), rows));
  }
  /// put or put_add of every example at once: x (n, m), index and values (n, k) read flat.
  template <class Scatter>
  static raw_type scatter(const raw_type& x, const index_raw& index, const raw_type& values,
                          Scatter op) {
    using I = inner<std::int64_t>;
    const std::int64_t m = full_shape<B>(x.data)[1];
    const std::int64_t k = full_shape<I>(index.data)[1];
    const std::int64_t n = std::max({extent(x), full_shape<I>(index.data)[0], extent(values)});
    const R out = op(B::reshape(spread<B>(x.data, n), Shape{n * m}),
                     I::reshape(spread<I>(offset(index.data, n, m), n), Shape{n * k}),
                     B::reshape(spread<B>(values.data, n), Shape{n * k}));
    return {B::reshape(out, Shape{n, m})};
  }
};

/// An `in_axes` or `out_axes` entry of ep::vmap: the axis along which an argument or result is
/// mapped, or `ep::unmapped` (JAX's None): every example shares the argument.
using vmap_axis = std::optional<int>;
inline constexpr std::nullopt_t unmapped = std::nullopt;

namespace detail {

/// Sets the batch size of depth `depth` for its lifetime (RAII; also when the function throws).
class vmap_level {
 public:
  vmap_level(int depth, std::int64_t n) : depth_(static_cast<std::size_t>(depth)) {
    auto& sizes = vmap_batch_sizes();
    if (sizes.size() <= depth_) sizes.resize(depth_ + 1, -1);
    saved_ = std::exchange(sizes[depth_], n);
  }
  ~vmap_level() { vmap_batch_sizes()[depth_] = saved_; }
  vmap_level(const vmap_level&) = delete;
  vmap_level& operator=(const vmap_level&) = delete;

 private:
  std::size_t depth_;
  std::int64_t saved_;
};

template <class B>
Tensor<batched<B>> to_batched(const Tensor<B>& x, vmap_axis axis, std::int64_t n);

/// x, a tensor of a backend underneath `Target`, as a value every example of each vmap between
/// them shares (recorded: its gradient is the sum over the examples).
template <class Target, class B>
Tensor<Target> lift(const Tensor<B>& x) {
  using U = typename Target::unbatched_backend;
  const std::int64_t n = vmap_batch_size<Target>("vmap", x.shape());
  if constexpr (std::same_as<U, B>) {
    return to_batched(x, unmapped, n);
  } else {
    return to_batched(lift<U>(x), unmapped, n);
  }
}
template <class B>
Tensor<B> from_batched(const Tensor<batched<B>>& y, vmap_axis axis, std::int64_t n);

/// The gradient of to_batched: the examples' gradients put back along the mapped axis, or summed
/// over the batch for an argument the examples share.
template <class Tn>
struct to_batched_rule : takes<Tensor<typename Tn::backend_type::unbatched_backend>> {
  vmap_axis axis;
  std::int64_t n;
  auto operator()(const Tn& g, const Tn&, const auto&) const { return from_batched(g, axis, n); }
};
/// The gradient of from_batched: the gradient taken apart into its examples again.
template <class Tn>
struct from_batched_rule : takes<Tensor<batched<typename Tn::backend_type>>> {
  vmap_axis axis;
  std::int64_t n;
  auto operator()(const Tn& g, const Tn&, const auto&) const { return to_batched(g, axis, n); }
};

/// x as the function under vmap sees it: axis `axis` of x becomes the batch axis (n examples), or,
/// unmapped, one value that every example shares. Recorded, so that vmap can be differentiated.
template <class B>
Tensor<batched<B>> to_batched(const Tensor<B>& x, vmap_axis axis, std::int64_t n) {
  using Out = Tensor<batched<B>>;
  typename B::raw_type data = [&] {
    no_record_scope quiet;
    return (axis ? moveaxis(x, *axis, 0) : x.expand_dims(0)).raw();
  }();
  return make_result<Out>(batched_raw<typename B::raw_type>{std::move(data)},
                          to_batched_rule<Out>{{}, axis, n}, x);
}

/// A result of the function under vmap as a tensor of every example: the batch axis moved to
/// `axis` (spread to the n examples where the result is the same for all), or, with no axis,
/// summed over the examples (the gradient of an argument they share).
template <class B>
Tensor<B> from_batched(const Tensor<batched<B>>& y, vmap_axis axis, std::int64_t n) {
  typename B::raw_type data = [&] {
    no_record_scope quiet;
    const Tensor<B> all(y.raw().data);
    const std::int64_t held = all.shape()[0];
    if (!axis) {
      if constexpr (floating_dtype<typename B::value_type>) {
        using T = typename B::value_type;
        return (held == n ? all.sum(0) : all.squeeze(0) * static_cast<T>(n)).raw();
      } else {
        throw value_error("vmap: only a floating tensor is summed over the batch (a gradient)");
      }
    }
    Shape s = all.shape();
    s[0] = n;
    const Tensor<B> spread = held == n ? all : all.broadcast_to(s);
    return moveaxis(spread, 0, *axis).raw();
  }();
  return make_result<Tensor<B>>(std::move(data), from_batched_rule<Tensor<B>>{{}, axis, n}, y);
}

/// In-axis `axis` normalized for a tensor of shape `s` at `path` in argument `arg`, or a
/// value_error naming the argument and the shape.
inline int vmap_in_axis(int axis, const Shape& s, std::size_t arg, const std::string& path) {
  const int rank = s.size();
  if (axis < -rank || axis >= rank)
    throw value_error(fmt::format(
        "vmap: in_axes[{}] = {} is out of range for argument {}{} of shape {}; expected {} <= "
        "axis < {}",
        arg, axis, arg, path, s.str(), -rank, rank));
  return axis < 0 ? axis + rank : axis;
}

/// The batch size of a vmap call, where it was set (an error naming two sizes names both places),
/// and the depth of the mapped tensors' backend.
struct vmap_batch {
  std::int64_t n = -1;
  std::string where;
  int depth = 0;  // of the mapped tensors' backend: this vmap's batched tensors are one deeper
};

template <class X>
void find_batch(vmap_batch& batch, const X& x, vmap_axis axis, std::size_t arg) {
  if (!axis) return;
  tree_for_each_with_path(
      [&](const tree_path& p, const auto& leaf) {
        if constexpr (istensor<decltype(leaf)>) {
          const Shape s = leaf.shape();
          const int a = vmap_in_axis(*axis, s, arg, p.str());
          const std::string here =
              fmt::format("argument {}{} (shape {}, axis {})", arg, p.str(), s.str(), a);
          if (batch.n < 0) {
            batch = {s[a], here,
                     batch_depth<typename std::decay_t<decltype(leaf)>::backend_type>()};
          } else if (s[a] != batch.n) {
            throw value_error(
                fmt::format("vmap: the mapped axes have different sizes: {} along {}, {} along {}; "
                            "expected one batch size",
                            batch.n, batch.where, s[a], here));
          }
        }
      },
      x);
}

template <class X>
auto batch_argument(const X& x, vmap_axis axis, std::int64_t n) {
  return tree_map_with_path(
      [&](const tree_path&, const auto& leaf) {
        using L = std::decay_t<decltype(leaf)>;
        if constexpr (istensor<L>) {
          return to_batched(
              leaf, axis ? vmap_axis(normalize_axis("vmap", *axis, leaf.shape())) : axis, n);
        } else {
          return leaf;
        }
      },
      x);
}

template <class Y>
auto unbatch_result(const Y& y, int axis, std::int64_t n, std::size_t which) {
  return tree_map_with_path(
      [&](const tree_path& p, const auto& leaf) {
        using L = std::decay_t<decltype(leaf)>;
        if constexpr (istensor<L>) {
          const int rank = leaf.ndim() + 1;
          if (axis < -rank || axis >= rank)
            throw value_error(fmt::format(
                "vmap: out_axes[{}] = {} is out of range for result {}{} of shape {} in each "
                "example (rank {} with the batch); expected {} <= axis < {}",
                which, axis, which, p.str(), leaf.shape().str(), rank, -rank, rank));
          return from_batched(leaf, vmap_axis(axis < 0 ? axis + rank : axis), n);
        } else {
          return leaf;
        }
      },
      y);
}

template <class F, class... Args>
auto vmap_call(const F& f, const std::vector<vmap_axis>& in_axes, const std::vector<int>& out_axes,
               const Args&... args) {
  constexpr std::size_t count = sizeof...(Args);
  if (in_axes.size() != 1 && in_axes.size() != count)
    throw value_error(fmt::format(
        "vmap: in_axes has {} entries for a call with {} arguments; expected one per argument "
        "(or one for all)",
        in_axes.size(), count));
  const auto axis_of = [&](std::size_t i) { return in_axes.size() == 1 ? in_axes[0] : in_axes[i]; };
  vmap_batch batch;
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (find_batch(batch, args, axis_of(K), K), ...);
  }
  (std::index_sequence_for<Args...>{});
  if (batch.n < 0)
    throw value_error(
        "vmap: no argument is mapped (every in_axes entry is ep::unmapped, or the mapped "
        "arguments hold no tensor); expected at least one mapped tensor, which gives the batch "
        "size");
  const std::int64_t n = batch.n;
  const vmap_level level(batch.depth, n);
  auto result = [&]<std::size_t... K>(std::index_sequence<K...>) {
    return f(batch_argument(args, axis_of(K), n)...);
  }
  (std::index_sequence_for<Args...>{});
  using Y = decltype(result);
  if constexpr (is_tuple_like<Y>) {
    constexpr std::size_t results = std::tuple_size_v<Y>;
    if (out_axes.size() != 1 && out_axes.size() != results)
      throw value_error(fmt::format(
          "vmap: out_axes has {} entries for a function returning {} results; expected one per "
          "result (or one for all)",
          out_axes.size(), results));
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return std::make_tuple(
          unbatch_result(std::get<K>(result), out_axes[out_axes.size() == 1 ? 0 : K], n, K)...);
    }
    (std::make_index_sequence<results>{});
  } else {
    if (out_axes.size() != 1)
      throw value_error(fmt::format(
          "vmap: out_axes has {} entries for a function returning one result; expected one",
          out_axes.size()));
    return unbatch_result(result, out_axes[0], n, 0);
  }
}

}  // namespace detail

template <backend Backend>
template <backend B2>
requires detail::lifts_to<B2, Backend> Tensor<Backend>::Tensor(const Tensor<B2>& x)
    : Tensor(detail::lift<Backend>(x)) {}

/// JAX's `vmap`: the function `f`, written for one example, applied to a batch of them in one
/// call of each op (the batching backend ep::batched<B>). The callable returned takes `f`'s
/// arguments with one more axis, `in_axes` (per argument, or one entry for all; `ep::unmapped`:
/// every example shares that argument; default 0), and returns `f`'s results with the batch axis
/// at `out_axes` (per result of a tuple, or one for all; default 0). Arguments and results are
/// tensors or trees of them (tuples, pairs, arrays, vectors, maps, optionals, EAGERPP_TREE struct
/// templates `S<B>`, which become `S<batched<B>>`); `f` must be generic
/// (a generic lambda or a template): inside, its tensors are `ep::Tensor<ep::batched<B>>`. vmap
/// nests (several batch axes) and composes with value_and_grad, grad, vjp, jvp, jacobian and
/// checkpoint in either order. Throws ep::value_error naming the argument and the shapes when an
/// axis is out of range or the mapped axes differ in size.
template <class F>
auto vmap(F f, std::vector<vmap_axis> in_axes = {0}, std::vector<int> out_axes = {0}) {
  return [f = std::move(f), in_axes = std::move(in_axes), out_axes = std::move(out_axes)](
             const auto&... args) { return detail::vmap_call(f, in_axes, out_axes, args...); };
}

}  // namespace ep
