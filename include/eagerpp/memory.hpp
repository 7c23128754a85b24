// eagerpp - memory accounting of tensor storage: live and peak bytes, and the memory_error of an
// allocation (the allocators themselves are the backends': the host one is <eagerpp/storage.hpp>)
// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>       // std::atomic
#include <cstddef>      // std::size_t
#include <limits>       // std::numeric_limits
#include <string>       // std::string, std::to_string
#include <string_view>  // std::string_view
#include <utility>      // std::exchange

#include <fmt/format.h>

#include "eagerpp/error.hpp"

namespace ep {

/// What ep::memory_stats() reports: bytes of host storage handed out to tensors by eagerpp's
/// allocator and not yet given back, as the allocator rounds them (size classes, 64-byte headers
/// included), and the most that was live at once since the start or the last reset_peak_memory().
struct memory_statistics {
  std::size_t live_bytes = 0;
  std::size_t peak_bytes = 0;
};

namespace detail {

/// The counters behind ep::memory_stats(): two relaxed atomics, updated once per buffer handed out
/// or taken back (an uncontended add; the peak is written only when it grows).
struct memory_counters {
  static std::atomic<std::size_t>& live() noexcept {
    static constinit std::atomic<std::size_t> bytes{0};
    return bytes;
  }
  static std::atomic<std::size_t>& peak() noexcept {
    static constinit std::atomic<std::size_t> bytes{0};
    return bytes;
  }
  static void allocated(std::size_t bytes) noexcept {
    const std::size_t now = live().fetch_add(bytes, std::memory_order_relaxed) + bytes;
    std::size_t p = peak().load(std::memory_order_relaxed);
    while (now > p && !peak().compare_exchange_weak(p, now, std::memory_order_relaxed)) {
    }
  }
  static void freed(std::size_t bytes) noexcept {
    live().fetch_sub(bytes, std::memory_order_relaxed);
  }
};

}  // namespace detail

/// Live and peak bytes of the host storage that eagerpp's allocator has handed to tensors (the
/// Eigen and xtensor backends' results, shared by copies; not device memory, and not memory that a
/// native library allocated itself). Thread-safe; the peak counts every thread together.
inline memory_statistics memory_stats() noexcept {
  return {detail::memory_counters::live().load(std::memory_order_relaxed),
          detail::memory_counters::peak().load(std::memory_order_relaxed)};
}

/// Restarts the peak of ep::memory_stats() from the bytes live now.
inline void reset_peak_memory() noexcept {
  detail::memory_counters::peak().store(
      detail::memory_counters::live().load(std::memory_order_relaxed), std::memory_order_relaxed);
}

namespace detail {

/// The op whose result is being allocated on this thread, for the message of ep::memory_error:
/// set by an allocation_scope around the backend call (the facade's creation ops), "allocate" else.
inline std::string_view& allocation_op() noexcept {
  thread_local constinit std::string_view op{};
  return op;
}

/// Names `op` in the memory_error of every allocation made on this thread during its lifetime.
class allocation_scope {
 public:
  explicit allocation_scope(std::string_view op) noexcept
      : saved_(std::exchange(allocation_op(), op)) {}
  ~allocation_scope() { allocation_op() = saved_; }
  allocation_scope(const allocation_scope&) = delete;
  allocation_scope& operator=(const allocation_scope&) = delete;

 private:
  std::string_view saved_;
};

inline std::string_view current_allocation_op() noexcept {
  const std::string_view op = allocation_op();
  return op.empty() ? std::string_view("allocate") : op;
}

/// The most bytes one buffer may have: 2^56, the user half of the largest virtual address space of
/// a 64-bit machine today (x86-64 with 5-level paging), so no system could give more. Refusing
/// such a request here, before the system allocator sees it, keeps its size classes representable
/// and keeps AddressSanitizer, which aborts on requests past its own limit, out of it.
inline constexpr std::size_t max_storage_bytes = std::size_t{1} << 56;

/// `n * size + extra` bytes, or ep::memory_error naming the op when that passes max_storage_bytes
/// (the byte count of a huge shape may not even fit in a size_t).
inline std::size_t storage_bytes(std::size_t n, std::size_t size, std::size_t extra = 0) {
  std::size_t bytes = 0;
  const bool overflow =
      __builtin_mul_overflow(n, size, &bytes) || __builtin_add_overflow(bytes, extra, &bytes);
  if (overflow || bytes > max_storage_bytes) [[unlikely]]
    throw memory_error(fmt::format(
        "{}: cannot allocate {} elements of {} bytes: {} bytes, more than the {} one buffer "
        "may have; expected a smaller tensor",
        current_allocation_op(), n, size,
        overflow ? std::string("over 2^64") : std::to_string(bytes), max_storage_bytes));
  return bytes;
}

/// The number of elements of `shape` (a range of non-negative extents) as a size_t, for elements
/// of `size` bytes; ep::memory_error naming the op and the shape when their bytes would pass
/// max_storage_bytes (the product may not even fit in 64 bits). Overflow checks, not divisions:
/// this runs for every result the xtensor backend allocates.
template <class Extents>
std::size_t storage_elements(const Extents& shape, std::size_t size) {
  std::size_t n = 1;
  bool overflow = false, empty = false;
  for (const auto d : shape) {
    empty |= d == 0;
    overflow |= __builtin_mul_overflow(n, static_cast<std::size_t>(d), &n);
  }
  // An empty tensor, whatever its other extents; not a product that wrapped around to 0 (2^40 x
  // 2^40).
  if (empty) return 0;
  std::size_t bytes = 0;
  if (overflow || __builtin_mul_overflow(n, size, &bytes) || bytes > max_storage_bytes)
      [[unlikely]] {
    std::string extents;
    for (const auto d : shape) extents += fmt::format("{}{}", extents.empty() ? "" : ", ", d);
    throw memory_error(fmt::format(
        "{}: cannot allocate a tensor of shape ({}) with elements of {} bytes: {} bytes, more "
        "than the {} one buffer may have; expected a smaller shape",
        current_allocation_op(), extents, size,
        overflow || n > std::numeric_limits<std::size_t>::max() / size ? std::string("over 2^64")
                                                                       : std::to_string(n * size),
        max_storage_bytes));
  }
  return n;
}

/// The memory_error of a failed allocation of `bytes` bytes.
[[noreturn]] inline void throw_out_of_memory(std::size_t bytes) {
  throw memory_error(fmt::format(
      "{}: cannot allocate {} bytes: the system has no more memory for this tensor; expected "
      "a smaller tensor or less live data",
      current_allocation_op(), bytes));
}

}  // namespace detail

}  // namespace ep
