// eagerpp - lazy element-wise expressions: what the facade knows of them (their evaluation in
// cache-sized blocks is the host layer's, backends/host/include/eagerpp/host/blocks.hpp)
// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>       // std::atomic
#include <concepts>     // std::same_as
#include <cstdint>      // std::int64_t
#include <memory>       // std::shared_ptr
#include <optional>     // std::optional
#include <span>         // std::span
#include <tuple>        // std::tuple, std::apply
#include <type_traits>  // std::is_floating_point_v, std::is_same_v

#include <fmt/format.h>

#include "eagerpp/backend_hooks.hpp"  // blocked_backend, map_reducible, map_kind, reduce_kind
#include "eagerpp/error.hpp"
#include "eagerpp/shape.hpp"

namespace ep {

/// The two sizes of the host backends' lazy evaluation (Eigen, xtensor, omp; docs/backends.md;
/// ep::cuda is always eager), per thread: the defaults come from fusion_bench and rarely need
/// changing, but a test can make every element-wise result lazy and its blocks small, and a user
/// can turn fusion off.
struct fusion_settings {
  /// An element-wise result with fewer elements is computed at once. 0: every result of a lazy
  /// dtype is an expression; std::numeric_limits<std::int64_t>::max(): none is.
  std::int64_t min_size = 16384;
  /// The bytes of one node's block (a block holds at least 64 elements, a whole number of 64).
  std::int64_t block_bytes = 16384;
};

namespace detail {
/// This thread's settings (constant-initialized: one thread-local load, no guard).
inline fusion_settings& thread_fusion() noexcept {
  thread_local fusion_settings settings;
  return settings;
}
/// How many fusion_scopes are alive on all threads: while none is, every thread has the defaults,
/// and an op's size test reads this one global instead of its thread's settings (fewer loads on
/// the path of every small op).
inline std::atomic<int> fusion_scopes{0};
/// Whether an element-wise result of `size` elements stays eager on this thread.
inline bool below_lazy_size(std::int64_t size) noexcept {
  constexpr std::int64_t default_min_size = fusion_settings{}.min_size;
  if (fusion_scopes.load(std::memory_order_relaxed) == 0) [[likely]]
    return size < default_min_size;
  return size < thread_fusion().min_size;
}
}  // namespace detail

/// This thread's fusion settings.
inline fusion_settings fusion() noexcept { return detail::thread_fusion(); }

/// Sets this thread's fusion settings for its lifetime, then restores the previous ones (RAII).
/// Inside it, an element-wise op called on this thread is lazy from `min_size` elements on, and
/// an evaluation this thread runs (on ep::omp, with its worker threads) takes blocks of
/// `block_bytes`. Throws ep::value_error for a negative `min_size` or a `block_bytes` outside
/// [1, 2^26].
class fusion_scope {
 public:
  explicit fusion_scope(fusion_settings settings) : saved_(detail::thread_fusion()) {
    if (settings.min_size < 0 || settings.block_bytes < 1 || settings.block_bytes > (1 << 26))
      throw value_error(fmt::format(
          "ep::fusion_scope: min_size {} and block_bytes {}: expected min_size >= 0 and "
          "block_bytes in [1, 67108864]",
          settings.min_size, settings.block_bytes));
    detail::thread_fusion() = settings;
    detail::fusion_scopes.fetch_add(1, std::memory_order_relaxed);
  }
  ~fusion_scope() {
    detail::thread_fusion() = saved_;
    detail::fusion_scopes.fetch_sub(1, std::memory_order_relaxed);
  }
  fusion_scope(const fusion_scope&) = delete;
  fusion_scope& operator=(const fusion_scope&) = delete;

 private:
  fusion_settings saved_;
};

}  // namespace ep

namespace ep::detail {

// Evaluation stays eager in meaning: every op returns a tensor whose values are those of the op,
// and every check (shapes, dtypes) runs when the op is called. On a backend that evaluates in
// blocks (blocked_backend), an element-wise op of a large floating tensor returns a tensor whose
// value is a small expression over its inputs (a lazy_expr) rather than a buffer; whatever needs
// the values computes them once, in blocks, and reductions take the blocks (host/blocks.hpp).

/// A full reduction that takes in a map, `f(map, x)`, passed as a pointer.
template <class Raw>
using map_reduce_fn = Raw (*)(map_kind, const Raw&);

/// B's reduction `Reduce` taking in a map (map_reducible), or nullptr where B has none: what a
/// reduction hands to the block evaluation, so that a translation unit compiles only the reductions
/// it calls.
template <reduce_kind Reduce, class B>
constexpr map_reduce_fn<typename B::raw_type> map_reducer() {
  if constexpr (map_reducible<B>)
    return &B::template map_reduce<Reduce>;
  else
    return nullptr;
}

/// The dtypes whose ops may be lazy: floating and complex results and the bool masks of
/// comparisons and `where`. Integer ops stay eager (their kernels would be compiled a second time,
/// as nodes, for little use).
template <class T>
inline constexpr bool lazy_dtype =
    std::is_floating_point_v<T> || complex_dtype<T> || std::is_same_v<T, bool>;

/// The value of a tensor of backend B that is an element-wise expression (host/blocks.hpp).
template <class B>
class lazy_expr;

/// The facade's access to a tensor's expression (host/blocks.hpp).
struct lazy_access;

/// An element-wise op about to run on `in...`: `f(in.raw()...)` computes it now (the call
/// operator, detail::computes); the Tensor constructor decides whether to run it now or to keep it
/// as an expression. `f` is the op's backend function (`&B::exp`, `&B::add`), the same on whole
/// tensors and on blocks.
template <class F, class... In>
struct elementwise_call {
  F f;
  std::tuple<const In&...> in;
  std::optional<map_kind> map = std::nullopt;  // f is this map (a reduction may take it in)
  bool exact_tail = false;                     // f is one of the tail_exact functions
  auto operator()() const {
    return std::apply([this](const In&... t) { return f(t.raw()...); }, in);
  }
};

/// `elementwise_call` of `f` on `in...`, passed to make_result in place of a computation.
template <class F, class... In>
elementwise_call<F, In...> elementwise(F f, const In&... in) {
  return {f, std::tuple<const In&...>(in...)};
}

/// The lazy engine of backend B, the one customization point through which the core keeps results
/// as expressions evaluated in blocks. The primary template is no engine: every result is computed
/// now (nullptr, std::nullopt). The host layer specializes it for every blocked_backend
/// (host/block_reductions.hpp); the core calls it only where blocked_backend<B> holds.
///   result(call)                     the expression of an element-wise op's result, or nullptr
///   slice(x, in, start, step, out)   the strided slice x[start[d] + k * step[d]] (step >= 1) of
///                                    extents `out` as an expression, or nullptr
///   pad(x, before, after, value)     `x.pad(...)` (constant mode) written straight from x's
///                                    expression, or std::nullopt
///   reduce(x, plan, f, map_reduce)   the backend reduction `f` of a lazy x from its blocks, or
///                                    std::nullopt (ops/reductions.hpp: reduce_raw)
///   update(x, start, step, out, v)   a copy of x with v written at the strided region: the
///                                    index_update by integers and slices of a blocked backend
///                                    (no primary: called only on one)
template <class B>
struct lazy_engine {
  template <class Call>
  static std::shared_ptr<const lazy_expr<B>> result(const Call& /*call*/) {
    return nullptr;
  }
  static std::shared_ptr<const lazy_expr<B>> slice(const typename B::raw_type& /*x*/,
                                                   const Shape& /*in*/, const Shape& /*start*/,
                                                   const Shape& /*step*/, const Shape& /*out*/) {
    return nullptr;
  }
  template <class Tn>
  static std::optional<typename Tn::raw_type> pad(const Tn& /*x*/,
                                                  std::span<const std::int64_t> /*before*/,
                                                  std::span<const std::int64_t> /*after*/,
                                                  typename Tn::value_type /*value*/) {
    return std::nullopt;
  }
  template <class Tn, class... Args>
  static std::optional<typename Tn::raw_type> reduce(const Tn& /*x*/, const Args&... /*args*/) {
    return std::nullopt;
  }
};

/// The expression of `call`'s result, or nullptr to compute it now (lazy_engine<B>::result).
template <class B, class F, class... In>
std::shared_ptr<const lazy_expr<B>> lazy_result(const elementwise_call<F, In...>& call) {
  return lazy_engine<B>::result(call);
}

/// A computation `now()` of a native tensor that may instead be kept as the expression `lazy()`
/// returns (nullptr: compute now), e.g. a strided slice as a leaf of element-wise expressions.
template <class Now, class Lazy>
struct deferrable {
  Now now;
  Lazy lazy;
  auto operator()() const { return now(); }
};
template <class Now, class Lazy>
deferrable(Now, Lazy) -> deferrable<Now, Lazy>;

/// Whether F and G are the same function. A template's arguments, not `F == G`: GCC does not take
/// a comparison of function addresses as a constant expression under -fsanitize=undefined.
template <auto F, auto G>
inline constexpr bool same_function = false;
template <auto F>
inline constexpr bool same_function<F, F> = true;

/// Whether the backend function `Compute` gives an element the same value in a SIMD packet and in
/// a kernel's scalar tail: the IEEE operations that are correctly rounded (add, subtract,
/// multiply, divide, sqrt) or exact (negative, abs, square is a multiply, minimum, maximum). A
/// block evaluation may then end its blocks anywhere (host/blocks.hpp: row blocks); a
/// transcendental function's SIMD and scalar versions differ by an ulp or two.
template <class B, auto Compute>
constexpr bool tail_exact() {
  if constexpr (blocked_backend<B> && std::is_floating_point_v<typename B::value_type>) {
    return same_function<Compute, &B::add> || same_function<Compute, &B::subtract> ||
           same_function<Compute, &B::multiply> || same_function<Compute, &B::divide> ||
           same_function<Compute, &B::minimum> || same_function<Compute, &B::maximum> ||
           same_function<Compute, &B::negative> || same_function<Compute, &B::abs> ||
           same_function<Compute, &B::square> || same_function<Compute, &B::sqrt>;
  } else {
    return false;
  }
}

/// The map_kind of the backend function `Compute` (`B::square`, `B::abs`) where B's reductions
/// take it in; std::nullopt for every other function and backend.
template <class B, auto Compute>
constexpr std::optional<map_kind> fused_map_of() {
  if constexpr (map_reducible<B>) {
    if constexpr (same_function<Compute, &B::square>) return map_kind::square;
    if constexpr (same_function<Compute, &B::abs>) return map_kind::abs;
  }
  return std::nullopt;
}

}  // namespace ep::detail
