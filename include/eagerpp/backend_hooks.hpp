// eagerpp - the optional hooks of a backend: each a concept, checked where the facade looks for it
// SPDX-License-Identifier: MIT
#pragma once

#include <concepts>     // std::same_as
#include <cstdint>      // std::int64_t
#include <memory>       // std::shared_ptr
#include <type_traits>  // std::is_class_v, std::is_final_v, std::remove_cv_t, std::bool_constant

#include "eagerpp/fwd.hpp"
#include "eagerpp/shape.hpp"

namespace ep::detail {

/// The unary maps a backend's full reduction can apply to each element as it loads it (the
/// map_reduce hook).
enum class map_kind : unsigned char { square, abs };
/// The reductions that can take in a map.
enum class reduce_kind : unsigned char { sum, min, max };

/// One member named like each hook: in `hook_probe<B>`, the name is ambiguous exactly where B
/// declares a member of that name itself, whatever its kind or signature. That is how a hook
/// declared wrongly is told apart from a hook B does not have, which a requires-expression alone
/// cannot do (both make the call ill-formed).
struct hook_names {
  int share_host, from_host_shared, blocked_evaluation, map_reduce, parallel_blocks, inv,
      fused_loops, fused_map, fused_grad;
};
template <class B>
struct hook_probe : B, hook_names {};

/// Whether B can be probed for the names it declares (hook_probe derives from it).
template <class B>
concept probeable_backend = std::is_class_v<B> && !std::is_final_v<B>;

/// Whether B declares a member named like the hook `Probe` picks out of hook_names.
template <class B, class Probe>
concept declares_hook_name = probeable_backend<B> && !Probe::template found<B>;

/// The `fn(first, last)` that parallel_blocks is called with, as the contract checks it.
struct block_range_probe {
  void operator()(std::int64_t /*first*/, std::int64_t /*last*/) const {}
};

// One row per optional hook: X(hook, kind, needed, expected, requirement). B declares the hook if
// a member of its name exists; a declared hook must meet `requirement` wherever `needed` holds for
// B's dtype (as a required function is only needed for the dtypes that have its op), else the
// contract names it in a sentence (a final B cannot be probed: only a hook that meets its row
// counts there, and nothing is named). `kind` is `function` for a plain static function: one that
// cannot be named alone (a constrained member whose constraints fail, e.g. ep::batched's inv over a
// backend without inv, or an overload set) counts as absent. A hook that does not meet its
// requirement also counts as absent, so nothing but the sentence follows from it.
// clang-format off
#define EAGERPP_BACKEND_HOOKS(X)                                                                   \
  X(share_host, function, true,                                                                    \
    "static std::shared_ptr<T> share_host(const raw_type&)",                                       \
    { B::share_host(x) } -> std::same_as<std::shared_ptr<T>>)                                      \
  X(from_host_shared, function, true,                                                              \
    "static raw_type from_host_shared(std::shared_ptr<T>, const ep::Shape&)",                      \
    { B::from_host_shared(p, s) } -> std::same_as<R>)                                              \
  X(blocked_evaluation, member, true,                                                              \
    "static constexpr bool blocked_evaluation = true, in a backend that also has the hooks "       \
    "share_host and from_host_shared",                                                             \
    requires std::same_as<std::remove_cv_t<decltype(B::blocked_evaluation)>, bool>;                \
    typename std::bool_constant<B::blocked_evaluation>)                                            \
  X(map_reduce, member, numeric_dtype<T>,                                                          \
    "template <ep::detail::reduce_kind Reduce> static raw_type map_reduce(ep::detail::map_kind, "  \
    "const raw_type&) for the reductions sum, min and max (a template argument, not a "            \
    "function argument)",                                                                          \
    { B::template map_reduce<reduce_kind::sum>(map_kind::square, x) } -> std::same_as<R>;          \
    { B::template map_reduce<reduce_kind::min>(map_kind::abs, x) } -> std::same_as<R>;             \
    { B::template map_reduce<reduce_kind::max>(map_kind::abs, x) } -> std::same_as<R>)             \
  X(parallel_blocks, member, true,                                                                 \
    "template <class Fn> static void parallel_blocks(std::int64_t count, const Fn& fn), which "    \
    "calls fn(first, last) over ranges covering [0, count)",                                       \
    B::parallel_blocks(n, block_range_probe{}))                                                    \
  X(inv, function, floating_dtype<T>,                                                              \
    "static raw_type inv(const raw_type&, std::int64_t& failed)",                                  \
    { B::inv(x, f) } -> std::same_as<R>)                                                           \
  X(fused_loops, member, true,                                                                     \
    "static constexpr bool fused_loops = true, in a backend that also has the member templates "   \
    "fused_map(f, shape, raw...) -> raw_type and fused_grad(f, shape, g, raw...)",                 \
    requires std::same_as<std::remove_cv_t<decltype(B::fused_loops)>, bool>;                       \
    typename std::bool_constant<B::fused_loops>)
// clang-format on

// The probe of each hook's name (declares_hook_name), and of a plain function's naming alone.
#define EAGERPP_HOOK_PROBE(hook, ...)        \
  struct hook_name_##hook {                  \
    template <class B>                       \
    static constexpr bool found = requires { \
      &hook_probe<B>::hook;                  \
    };                                       \
  };
EAGERPP_BACKEND_HOOKS(EAGERPP_HOOK_PROBE)
struct hook_name_fused_map {
  template <class B>
  static constexpr bool found = requires {
    &hook_probe<B>::fused_map;
  };
};
struct hook_name_fused_grad {
  template <class B>
  static constexpr bool found = requires {
    &hook_probe<B>::fused_grad;
  };
};
#undef EAGERPP_HOOK_PROBE

#define EAGERPP_HOOK_NAMED_function(hook) \
  requires { &B::hook; }
#define EAGERPP_HOOK_NAMED_member(hook) true
#define EAGERPP_HOOK_CHECK(hook, kind, needed, expected, ...)                                     \
  static constexpr bool hook##_meets = requires(const R& x, std::shared_ptr<T> p, const Shape& s, \
                                                std::int64_t n, std::int64_t& f) {                \
    __VA_ARGS__;                                                                                  \
  };                                                                                              \
  static constexpr bool hook##_declared = declares_hook_name<B, hook_name_##hook>                 \
                                              ? (hook##_meets || EAGERPP_HOOK_NAMED_##kind(hook)) \
                                              : (!probeable_backend<B> && hook##_meets);          \
  static_assert(!hook##_declared || !(needed) || hook##_meets,                                    \
                "ep::" #hook ": the backend declares the optional hook " #hook                    \
                ", but not as " expected "; see \"Optional hooks\" in docs/backends.md");         \
  static constexpr bool hook = hook##_declared && (needed) && hook##_meets;

/// The optional hooks backend B has: `backend_hooks<B>::share_host` ... `::fused_loops`, each true
/// where B declares the hook as the contract says (EAGERPP_BACKEND_HOOKS above). Naming any of
/// them checks them all: a hook B declares otherwise fails to compile with a sentence naming it,
/// what was expected, and docs/backends.md's section "Optional hooks" (ep::Tensor<B> names them
/// too, so that a hook nothing calls is checked as well).
template <class B>
struct backend_hooks {
  using T = typename B::value_type;
  using R = typename B::raw_type;
  EAGERPP_BACKEND_HOOKS(EAGERPP_HOOK_CHECK)

  // The hooks that only make sense with others.
  static_assert(!blocked_evaluation || (share_host && from_host_shared),
                "ep::blocked_evaluation: a backend that evaluates in blocks needs the hooks "
                "share_host and from_host_shared, which view a block as a rank-1 native tensor; "
                "see \"Optional hooks\" in docs/backends.md");
  static_assert(!fused_loops || !probeable_backend<B> ||
                    (declares_hook_name<B, hook_name_fused_map> &&
                     declares_hook_name<B, hook_name_fused_grad>),
                "ep::fused_loops: a backend that runs ep::fuse's loops needs the member templates "
                "fused_map(f, shape, raw...) -> raw_type and fused_grad(f, shape, g, raw...); see "
                "\"Optional hooks\" in docs/backends.md");
  static constexpr bool value = true;
};

#undef EAGERPP_HOOK_CHECK
#undef EAGERPP_HOOK_NAMED_function
#undef EAGERPP_HOOK_NAMED_member
#undef EAGERPP_BACKEND_HOOKS

/// B keeps C-order elements in shared host memory: `share_host(raw) -> std::shared_ptr<T>` (the
/// elements, shared) and `from_host_shared(std::shared_ptr<T>, shape) -> raw` (adopted).
template <class B>
concept host_sharing_backend = backend_hooks<B>::share_host && backend_hooks<B>::from_host_shared;

/// B evaluates element-wise ops lazily, in blocks: `static constexpr bool blocked_evaluation =
/// true` with the two host-sharing hooks, and its header includes the block engine
/// (backends/host's host/blocks.hpp).
template <class B>
concept blocked_backend = backend_hooks<B>::blocked_evaluation && B::blocked_evaluation;

/// B's full reductions take in a map: `B::map_reduce<reduce>(map, x)` is `reduce(map(x))` over
/// every element of a non-empty x, a 0-d result, in one pass. With it, a reduction of a lazy
/// square or abs (`x.square().sum()`) reads the op's input once.
template <class B>
concept map_reducible = backend_hooks<B>::map_reduce;

/// B runs `fn(first, last)` over ranges of [0, count) on several threads at once
/// (`B::parallel_blocks(count, fn)`, ep::omp's OpenMP threads).
template <class B>
concept parallel_blocks_backend = backend_hooks<B>::parallel_blocks;

/// B inverts a stack of square matrices in one call, `B::inv(x, failed)`, setting `failed` to the
/// flat batch index of the first singular matrix (or -1).
template <class B>
concept inverse_backend = backend_hooks<B>::inv;

/// B runs ep::fuse's functions itself: `static constexpr bool fused_loops = true` with the member
/// templates fused_map and fused_grad (backends/host's host/fuse_host.hpp).
template <class B>
concept fused_loops_backend = backend_hooks<B>::fused_loops && B::fused_loops;

}  // namespace ep::detail
