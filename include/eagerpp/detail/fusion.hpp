// eagerpp - map-reduce fusion: `x.square().sum()` and `x.abs().max()` read x once
// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>    // std::atomic
#include <concepts>  // std::same_as
#include <cstdint>   // std::int64_t
#include <mutex>     // std::mutex, std::lock_guard
#include <optional>  // std::optional

namespace ep::detail {

// Evaluation stays eager in meaning: every op returns a tensor whose values are those of the op.
// Only when the element-wise map that feeds a norm-style reduction (square or abs, then sum, mean,
// min or max over every axis) meets a large tensor is the map's result computed on first use, and
// a full reduction that finds it not yet computed runs map and reduction in one pass over the
// input, as Eigen's fused expression `x.square().sum()` does: one read of the data instead of a
// read, a write and a second read. Any other use (raw(), another op, printing) computes the
// result once, shared by the tensor's copies and safe across threads.

/// The element-wise maps a backend can fuse into a full reduction.
enum class map_kind : unsigned char { square, abs };
/// The reductions that can take in a map.
enum class reduce_kind : unsigned char { sum, min, max };

/// Tensors with fewer elements are mapped at once: there the bookkeeping of a deferred result
/// costs more than the pass it could save (measured: docs/benchmarks.md).
inline constexpr std::int64_t fusion_min_size = 1024;

/// A backend that reduces a mapped tensor in one pass: `B::map_reduce(reduce, map, x)` is
/// `reduce(map(x))` over all elements, a 0-d result. Optional: without it maps run eagerly.
template <class B>
concept map_reducible = requires(const typename B::raw_type& x) {
  { B::map_reduce(reduce_kind::sum, map_kind::square, x) } -> std::same_as<typename B::raw_type>;
};

/// Whether F and G are the same function. A template's arguments, not `F == G`: GCC does not take
/// a comparison of function addresses as a constant expression under -fsanitize=undefined.
template <auto F, auto G>
inline constexpr bool same_function = false;
template <auto F>
inline constexpr bool same_function<F, F> = true;

/// The map_kind of the backend function `Compute` (`B::square`, `B::abs`) where B fuses it into a
/// reduction; std::nullopt for every other function and backend.
template <class B, auto Compute>
constexpr std::optional<map_kind> fused_map_of() {
  if constexpr (map_reducible<B>) {
    if constexpr (same_function<Compute, &B::square>) return map_kind::square;
    if constexpr (same_function<Compute, &B::abs>) return map_kind::abs;
  }
  return std::nullopt;
}
template <class B, auto Compute>
inline constexpr std::optional<map_kind> fused_map = fused_map_of<B, Compute>();

/// The shared state of a tensor whose map result is computed on first use. The tensor itself
/// holds the map's input (same dtype and shape as the result).
template <class Raw>
class deferred_map {
 public:
  using compute_fn = Raw (*)(const Raw&);

  deferred_map(map_kind kind, compute_fn compute) noexcept : kind_(kind), compute_(compute) {}

  [[nodiscard]] map_kind kind() const noexcept { return kind_; }
  /// Whether the result was already computed (a reduction then reads it rather than the input).
  [[nodiscard]] bool computed() const noexcept { return done_.load(std::memory_order_acquire); }
  /// The map of `input`, computed by the first caller; the others wait for it. A double-checked
  /// flag rather than std::call_once, whose cost is of the order of a small map's own.
  const Raw& value(const Raw& input) const {
    if (!done_.load(std::memory_order_acquire)) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!done_.load(std::memory_order_relaxed)) {
        value_.emplace(compute_(input));
        done_.store(true, std::memory_order_release);
      }
    }
    return *value_;
  }

 private:
  map_kind kind_;
  compute_fn compute_;
  mutable std::mutex mutex_;
  mutable std::optional<Raw> value_;
  mutable std::atomic<bool> done_{false};
};

}  // namespace ep::detail
