// eagerpp - memory accounting of tensor storage: live and peak bytes, and the memory_error of an
// allocation (the allocators themselves are the backends': the host one is <eagerpp/storage.hpp>)
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::max
#include <atomic>       // std::atomic
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <mutex>        // std::mutex, std::lock_guard
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

/// One thread's part of the counters behind ep::memory_stats(): written only by its own thread,
/// with relaxed loads and stores (no read-modify-write, so no locked instruction per buffer), and
/// read by memory_stats() from any thread. `live` is the bytes this thread handed out minus the
/// bytes it took back (negative in a thread that frees buffers another thread allocated); `peak`
/// is the most `live` has been since the last reset.
struct thread_memory {
  std::atomic<std::int64_t> live{0};
  std::atomic<std::int64_t> peak{0};
  thread_memory* prev = nullptr;  // the registry's list of running threads
  thread_memory* next = nullptr;
  unsigned char state = 0;  // 0: not yet registered, 1: registered, 2: the thread is ending
};

/// The threads that have counted buffers, and what ended threads left: memory_stats() sums over
/// them. Never destroyed: threads may end, and buffers may be freed, during static destruction.
struct memory_registry {
  std::mutex mutex;
  thread_memory* first = nullptr;
  std::int64_t retired_live = 0;  // the live bytes counted by threads that have ended
  std::int64_t peak_floor = 0;    // the peak as it stood when a thread ended or at the last reset

  static memory_registry& get() {
    static memory_registry* r = new memory_registry;  // NOLINT(cppcoreguidelines-owning-memory)
    return *r;
  }
  /// retired_live plus the sum of one of each running thread's counters (mutex held).
  std::int64_t sum(std::atomic<std::int64_t> thread_memory::*counter) const noexcept {
    std::int64_t s = retired_live;
    for (const thread_memory* t = first; t != nullptr; t = t->next)
      s += (t->*counter).load(std::memory_order_relaxed);
    return s;
  }
};

/// The counters behind ep::memory_stats(), updated once per buffer handed out or taken back. Each
/// thread counts its own buffers (thread_memory), so the hot path is a few plain instructions; the
/// totals are summed when they are asked for. Live bytes are exact. The peak is the sum of each
/// thread's own peak: exact when one thread allocates and frees (as eager code on one thread
/// does), and an upper bound when several threads do at once.
struct memory_counters {
  static thread_memory& mine() noexcept {
    thread_local constinit thread_memory m{};  // trivially destructible: no guard on access
    return m;
  }
  static void allocated(std::size_t bytes) noexcept {
    thread_memory& m = mine();
    if (m.state != 1) [[unlikely]] {
      slow_update(m, static_cast<std::int64_t>(bytes));
      return;
    }
    const std::int64_t now =
        m.live.load(std::memory_order_relaxed) + static_cast<std::int64_t>(bytes);
    m.live.store(now, std::memory_order_relaxed);
    if (now > m.peak.load(std::memory_order_relaxed)) m.peak.store(now, std::memory_order_relaxed);
  }
  static void freed(std::size_t bytes) noexcept {
    thread_memory& m = mine();
    if (m.state != 1) [[unlikely]] {
      slow_update(m, -static_cast<std::int64_t>(bytes));
      return;
    }
    m.live.store(m.live.load(std::memory_order_relaxed) - static_cast<std::int64_t>(bytes),
                 std::memory_order_relaxed);
  }

 private:
  /// Unlinks the thread's counters when it ends, folding its live bytes and its peak into the
  /// registry's totals.
  struct registration {
    registration() = default;
    registration(const registration&) = delete;
    registration& operator=(const registration&) = delete;
    ~registration() {
      thread_memory& m = mine();
      memory_registry& r = memory_registry::get();
      const std::lock_guard<std::mutex> lock(r.mutex);
      r.peak_floor = std::max(r.peak_floor, r.sum(&thread_memory::peak));
      r.retired_live += m.live.load(std::memory_order_relaxed);
      (m.prev != nullptr ? m.prev->next : r.first) = m.next;
      if (m.next != nullptr) m.next->prev = m.prev;
      m.state = 2;
    }
  };

  /// The first update on a thread registers its counters; an update after the thread's counters
  /// were unlinked (a buffer freed by a later thread-local destructor) goes to the totals.
  [[gnu::noinline]] static void slow_update(thread_memory& m, std::int64_t delta) noexcept {
    memory_registry& r = memory_registry::get();
    if (m.state == 0) {
      thread_local registration unlink_at_exit;  // its destructor is registered once per thread
      (void)&unlink_at_exit;
      const std::lock_guard<std::mutex> lock(r.mutex);
      m.next = r.first;
      if (r.first != nullptr) r.first->prev = &m;
      r.first = &m;
      m.live.store(delta, std::memory_order_relaxed);
      m.peak.store(std::max<std::int64_t>(delta, 0), std::memory_order_relaxed);
      m.state = 1;
      return;
    }
    const std::lock_guard<std::mutex> lock(r.mutex);
    r.retired_live += delta;
    r.peak_floor = std::max(r.peak_floor, r.sum(&thread_memory::peak));
  }
};

}  // namespace detail

/// Live and peak bytes of the host storage that eagerpp's allocator has handed to tensors (the
/// Eigen, xtensor and omp backends' results, shared by copies; not device memory, and not memory
/// that a native library allocated itself). Thread-safe. Live bytes count every thread; the peak is
/// exact when one thread allocates at a time and an upper bound (the sum of each thread's own
/// peak) when several do.
inline memory_statistics memory_stats() noexcept {
  detail::memory_registry& r = detail::memory_registry::get();
  const std::lock_guard<std::mutex> lock(r.mutex);
  const std::int64_t live = r.sum(&detail::thread_memory::live);
  const std::int64_t peak = std::max({r.peak_floor, r.sum(&detail::thread_memory::peak), live});
  return {static_cast<std::size_t>(std::max<std::int64_t>(live, 0)),
          static_cast<std::size_t>(std::max<std::int64_t>(peak, 0))};
}

/// Restarts the peak of ep::memory_stats() from the bytes live now.
inline void reset_peak_memory() noexcept {
  detail::memory_registry& r = detail::memory_registry::get();
  const std::lock_guard<std::mutex> lock(r.mutex);
  for (detail::thread_memory* t = r.first; t != nullptr; t = t->next)
    t->peak.store(t->live.load(std::memory_order_relaxed), std::memory_order_relaxed);
  r.peak_floor = r.sum(&detail::thread_memory::live);
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

/// The memory_error of storage_bytes, out of line: every allocation inlines the check.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_too_large(std::size_t n, std::size_t size,
                                                                   bool overflow,
                                                                   std::size_t bytes) {
  throw memory_error(fmt::format(
      "{}: cannot allocate {} elements of {} bytes: {} bytes, more than the {} one buffer may "
      "have; expected a smaller tensor",
      current_allocation_op(), n, size, overflow ? std::string("over 2^64") : std::to_string(bytes),
      max_storage_bytes));
}

/// `n * size + extra` bytes, or ep::memory_error naming the op when that passes max_storage_bytes
/// (the byte count of a huge shape may not even fit in a size_t).
inline std::size_t storage_bytes(std::size_t n, std::size_t size, std::size_t extra = 0) {
  std::size_t bytes = 0;
  const bool overflow =
      __builtin_mul_overflow(n, size, &bytes) || __builtin_add_overflow(bytes, extra, &bytes);
  if (overflow || bytes > max_storage_bytes) [[unlikely]]
    throw_too_large(n, size, overflow, bytes);
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
