// eagerpp - host tensor storage: 64-byte aligned buffers from a caching allocator, shared by
// reference count (the CPU backends' memory; target eagerpp::host)
// SPDX-License-Identifier: MIT
#pragma once

#include <array>    // std::array
#include <atomic>   // std::atomic_flag, std::atomic
#include <bit>      // std::bit_ceil, std::bit_width
#include <cstddef>  // std::size_t
#include <cstdlib>  // std::aligned_alloc, std::free
#include <memory>   // std::shared_ptr
#include <mutex>    // std::lock_guard
#include <new>      // std::bad_alloc, placement new
#include <thread>   // std::this_thread::yield
#include <utility>  // std::exchange, std::swap
#include <vector>   // std::vector

#include "eagerpp/memory.hpp"

namespace ep {

/// Alignment of every buffer eagerpp allocates: one cache line, and what AVX-512 loads want.
inline constexpr std::size_t storage_alignment = 64;

namespace detail {

/// A lock held for a few instructions: cheaper than std::mutex when, as here, it is almost never
/// contended.
class spin_lock {
 public:
  void lock() noexcept {
    while (flag_.test_and_set(std::memory_order_acquire))
      while (flag_.test(std::memory_order_relaxed)) std::this_thread::yield();
  }
  void unlock() noexcept { flag_.clear(std::memory_order_release); }

 private:
  std::atomic_flag flag_;
};

/// A process-wide cache of freed host buffers, keyed by their rounded size, as PyTorch's caching
/// allocator does for CUDA memory. Eager code allocates a fresh result for every op, and the first
/// touch of each page of freshly mapped memory is a page fault, so handing back a buffer that was
/// freed a moment ago keeps eager ops close to the speed of fused expressions.
class host_cache {
 public:
  static host_cache& instance() {
    static host_cache* cache = new host_cache;  // never destroyed: buffers may be freed during exit
    return *cache;
  }

  /// A buffer of at least `bytes` bytes, 64-byte aligned; never null, even for 0 bytes.
  static void* allocate(std::size_t bytes) { return allocate_class(class_of(bytes)); }
  static void deallocate(void* p, std::size_t bytes) noexcept {
    deallocate_class(p, class_of(bytes));
  }

  /// The size class of a buffer of `bytes` bytes: allocate_class(c) gives a buffer of at least that
  /// many bytes and deallocate_class(p, c) takes it back (ep::buffer keeps c, not the size).
  static std::size_t class_of(std::size_t bytes) noexcept { return size_class(round(bytes)); }

  // The fast paths touch only this thread's stash: not the shared cache's instance (a guarded
  // static), so that a small tensor's buffer costs a few instructions (per-op cost at n = 100).
  // The shared lists' paths are out of line, so that the stash's are inlined where a buffer is
  // made or released.
  static void* allocate_class(std::size_t c) {
    if (c < local_classes) {
      if (void* p = local_stash::pop(c)) {
        memory_counters::allocated(class_size(c));
        return p;
      }
    }
    return allocate_shared(c);
  }

  static void deallocate_class(void* p, std::size_t c) noexcept {
    memory_counters::freed(class_size(c));
    if (c < local_classes && local_stash::push(c, p)) return;
    give_back_shared(p, c);
  }

  /// Frees every cached buffer.
  void release_all() noexcept {
    std::lock_guard<spin_lock> lock(mutex_);
    for (auto& list : free_) {
      for (void* p : list) std::free(p);
      list.clear();
    }
    cached_ = 0;
  }

  /// Bytes held in the cache, not in use by any tensor.
  [[nodiscard]] std::size_t cached_bytes() {
    std::lock_guard<spin_lock> lock(mutex_);
    return cached_;
  }

 private:
  [[gnu::noinline]] static void* allocate_shared(std::size_t c) {
    void* p = instance().allocate_from_lists(c);
    memory_counters::allocated(class_size(c));
    return p;
  }
  [[gnu::noinline]] static void give_back_shared(void* p, std::size_t c) noexcept {
    instance().give_back(p, c, class_size(c));
  }

  void* allocate_from_lists(std::size_t c) {
    {
      std::lock_guard<spin_lock> lock(mutex_);
      if (auto& list = free_[c]; !list.empty()) {
        void* p = list.back();
        list.pop_back();
        cached_ -= class_size(c);
        return p;
      }
    }
    const std::size_t size = class_size(c);
    void* p = std::aligned_alloc(storage_alignment, size);
    if (p == nullptr) {
      release_all();
      p = std::aligned_alloc(storage_alignment, size);
      if (p == nullptr) throw_out_of_memory(size);
    }
    return p;
  }

  // Small sizes round to 64 bytes; large ones to 1/8 of their power of two, which bounds the waste
  // at an eighth of the size and lets sizes that differ a little share buffers. Each rounded size
  // is one class with its own free list, so finding a buffer is an index and a pop: no search, no
  // allocation.
  static std::size_t round(std::size_t bytes) noexcept {
    if (bytes <= 4096) return bytes == 0 ? storage_alignment : (bytes + 63) & ~std::size_t{63};
    const std::size_t p = std::bit_ceil(bytes);
    const std::size_t step = p / 8;
    return (bytes + step - 1) / step * step;
  }
  static std::size_t size_class(std::size_t rounded) noexcept {
    if (rounded <= 4096) return rounded / 64 - 1;  // 0..63
    const auto k =
        static_cast<std::size_t>(std::bit_width(rounded - 1));    // 2^(k-1) < rounded <= 2^k
    const std::size_t q = rounded / ((std::size_t{1} << k) / 8);  // 5..8
    return 64 + (k - 13) * 4 + (q - 5);
  }
  /// The rounded size of class c (the inverse of size_class).
  static std::size_t class_size(std::size_t c) noexcept {
    if (c < 64) return (c + 1) * 64;
    const std::size_t k = (c - 64) / 4 + 13, q = (c - 64) % 4 + 5;
    return q * ((std::size_t{1} << k) / 8);
  }
  static constexpr std::size_t classes = 64 + 52 * 4;

  /// Puts `p` (of class `c`, `size` bytes) on the shared free list, or frees it past the limit.
  void give_back(void* p, std::size_t c, std::size_t size) noexcept {
    {
      std::lock_guard<spin_lock> lock(mutex_);
      if (cached_ + size <= limit_) {
        try {
          free_[c].push_back(p);
          cached_ += size;
          return;
        } catch (...) {  // no memory for the cache entry: free the buffer instead
        }
      }
    }
    std::free(p);
  }

  // The first classes (buffers up to 4096 bytes: small tensors) also have a few slots per thread,
  // taken and given back without any lock, as glibc's tcache does for malloc, so an op on a small
  // tensor allocates its result without the shared lists' lock. Eight slots: the chain
  // exp(-x*x) * sin(x) + 1 keeps six temporaries of one size alive at once. The stash is plain
  // zero-initialized thread-local data (no guard on access); a separate thread-local object, made
  // on the first give-back, hands the thread's slots to the shared lists when the thread ends.
  static constexpr std::size_t local_classes = 64;
  static constexpr std::size_t local_slots = 8;

  struct local_stash {
    std::array<std::array<void*, local_slots>, local_classes> slots;
    std::array<unsigned char, local_classes> count;
    unsigned char state;  // 0: not yet used, 1: in use, 2: flushed (the thread is ending)

    static local_stash& mine() noexcept {
      thread_local constinit local_stash stash{};  // trivially destructible: no guard
      return stash;
    }
    struct flusher {
      flusher() = default;
      flusher(const flusher&) = delete;
      flusher& operator=(const flusher&) = delete;
      ~flusher() {
        local_stash& s = mine();
        s.state = 2;
        for (std::size_t c = 0; c < local_classes; ++c) {
          for (std::size_t i = 0; i < s.count[c]; ++i)
            instance().give_back(s.slots[c][i], c, class_size(c));
          s.count[c] = 0;
        }
      }
    };
    static void* pop(std::size_t c) noexcept {
      local_stash& s = mine();  // counts stay 0 before first use and after the flush
      return s.count[c] == 0 ? nullptr : s.slots[c][--s.count[c]];
    }
    static bool push(std::size_t c, void* p) noexcept {
      local_stash& s = mine();
      if (s.state != 1) [[unlikely]] {
        if (s.state == 2) return false;
        thread_local flusher f;  // constructed (and its destructor registered) once per thread
        (void)&f;
        s.state = 1;
      }
      if (s.count[c] == local_slots) return false;
      s.slots[c][s.count[c]++] = p;
      return true;
    }
  };

  spin_lock mutex_;
  std::array<std::vector<void*>, classes> free_;
  std::size_t cached_ = 0;
  std::size_t limit_ = std::size_t{2} << 30;  // 2 GiB
};

}  // namespace detail

namespace detail {

/// Standard allocator over the cache: storage blocks, with their reference count in front.
template <class U>
struct cache_allocator {
  using value_type = U;
  cache_allocator() = default;
  template <class V>
  cache_allocator(const cache_allocator<V>&) noexcept {}  // NOLINT(google-explicit-constructor)
  U* allocate(std::size_t n) { return static_cast<U*>(host_cache::allocate(n * sizeof(U))); }
  void deallocate(U* p, std::size_t n) noexcept { host_cache::deallocate(p, n * sizeof(U)); }
  friend bool operator==(const cache_allocator&, const cache_allocator&) noexcept { return true; }
};

/// The unit of storage: one cache line. Buffers are arrays of these, so that the array and its
/// reference count come from one allocation and the array starts on a 64-byte boundary.
struct alignas(storage_alignment) storage_block {
  unsigned char bytes[storage_alignment];
};

}  // namespace detail

namespace detail {

/// The first 64 bytes of a buffer's block: its reference count, the block's size as the cache
/// rounds it, and, for a buffer that adopted elements owned elsewhere, their owner.
struct buffer_header {
  std::atomic<std::size_t> refs{1};
  std::size_t size_class = 0;   // of the block, in host_cache
  std::shared_ptr<void> owner;  // empty for elements that follow the header in the same block
};
static_assert(sizeof(buffer_header) <= storage_alignment,
              "ep::buffer: the header must fit in one cache line");

/// Where the next allocation of exactly `bytes` bytes on this thread goes instead of the cache: a
/// lazy expression computing a block of its result points it at that block of the result's buffer,
/// so that the block's last op writes there and no copy follows (host/blocks.hpp). Taken by one
/// allocation at most, and only while an output_scope is open.
struct output_target {
  std::shared_ptr<void> owner;  // of the buffer `data` points into
  void* data = nullptr;
  std::size_t bytes = 0;
};
inline thread_local output_target* current_output = nullptr;

/// Points the next allocation of the target's size on this thread at it, until the scope ends.
class output_scope {
 public:
  explicit output_scope(output_target* target) noexcept : previous_(current_output) {
    current_output = target;
  }
  output_scope(const output_scope&) = delete;
  output_scope& operator=(const output_scope&) = delete;
  ~output_scope() { current_output = previous_; }

 private:
  output_target* previous_;
};

/// The open target's elements for an allocation of `n` elements of T if it has that size (taken
/// once), else an empty pointer.
template <class T>
std::shared_ptr<T> take_output(std::size_t n) noexcept {
  output_target* t = current_output;
  if (t == nullptr || t->bytes != n * sizeof(T)) return {};
  current_output = nullptr;
  return std::shared_ptr<T>(t->owner, static_cast<T*>(t->data));
}

}  // namespace detail

/// Shared, 64-byte aligned, uninitialized storage for elements of T (trivially copyable T only),
/// with an intrusive reference count: the header and the elements are one block from the cache.
/// Copies share the elements; the last owner gives the block back. Against a std::shared_ptr over
/// the same cache (allocate_storage) it needs no control block with virtual dispose and destroy and
/// no weak count, and the last owner releases without an atomic read-modify-write, which is most
/// of the cost of a small buffer's allocate/release pair.
template <class T>
class buffer {
 public:
  buffer() = default;
  /// Storage for `n` elements, from the cache.
  /// Throws ep::memory_error (naming the op of the innermost detail::allocation_scope and the byte
  /// count) when the bytes pass detail::max_storage_bytes or the system has not that much memory.
  static buffer allocate(std::size_t n) {
    if (detail::current_output != nullptr) [[unlikely]] {
      if (std::shared_ptr<T> target = detail::take_output<T>(n)) return buffer(std::move(target));
    }
    const std::size_t c =
        detail::host_cache::class_of(detail::storage_bytes(n, sizeof(T), storage_alignment));
    void* block = detail::host_cache::allocate_class(c);
    auto* h = ::new (block) detail::buffer_header;
    h->size_class = c;
    return buffer(reinterpret_cast<T*>(static_cast<unsigned char*>(block) + storage_alignment), h);
  }
  /// Adopts elements owned by a std::shared_ptr (another backend's, or a moved-in native tensor's).
  explicit buffer(std::shared_ptr<T> elements) : data_(elements.get()) {
    if (!elements) return;
    const std::size_t c = detail::host_cache::class_of(sizeof(detail::buffer_header));
    void* block = detail::host_cache::allocate_class(c);
    header_ = ::new (block) detail::buffer_header;
    header_->size_class = c;
    header_->owner = std::move(elements);
  }

  buffer(const buffer& other) noexcept : data_(other.data_), header_(other.header_) {
    if (header_ != nullptr) header_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  buffer(buffer&& other) noexcept
      : data_(other.data_), header_(std::exchange(other.header_, nullptr)) {}
  buffer& operator=(buffer other) noexcept {
    std::swap(data_, other.data_);
    std::swap(header_, other.header_);
    return *this;
  }
  ~buffer() { release(header_); }

  [[nodiscard]] T* get() const noexcept { return data_; }
  explicit operator bool() const noexcept { return data_ != nullptr; }

  /// A std::shared_ptr to the same elements that keeps them alive (for exchange with code that
  /// takes shared_ptr, e.g. xtensor's buffer adaptor).
  [[nodiscard]] std::shared_ptr<T> share() const {
    if (header_ == nullptr) return {};
    if (header_->owner) return std::shared_ptr<T>(header_->owner, data_);
    header_->refs.fetch_add(1, std::memory_order_relaxed);
    detail::buffer_header* h = header_;
    return std::shared_ptr<T>(data_, [h](T*) { release(h); });
  }

 private:
  buffer(T* data, detail::buffer_header* header) noexcept : data_(data), header_(header) {}

  static void release(detail::buffer_header* h) noexcept {
    if (h == nullptr) return;
    // The sole owner sees 1 and no one else can add a reference: no read-modify-write needed (as
    // libstdc++'s shared_ptr does since GCC 12).
    if (h->refs.load(std::memory_order_acquire) != 1 &&
        h->refs.fetch_sub(1, std::memory_order_acq_rel) != 1)
      return;
    const std::size_t c = h->size_class;
    h->~buffer_header();
    detail::host_cache::deallocate_class(h, c);
  }

  T* data_ = nullptr;
  detail::buffer_header* header_ = nullptr;
};

/// Shared, 64-byte aligned, uninitialized storage for `n` elements of T (trivially copyable T
/// only). Copies share the buffer; the last owner gives it back to the cache. The buffer and its
/// reference count are one block from the cache: once the cache is warm, a new tensor costs a pop
/// from a free list, and for small tensors not even a lock.
/// Throws ep::memory_error as buffer<T>::allocate does.
template <class T>
std::shared_ptr<T> allocate_storage(std::size_t n) {
  if (detail::current_output != nullptr) [[unlikely]] {
    if (std::shared_ptr<T> target = detail::take_output<T>(n)) return target;
  }
  const std::size_t blocks =
      (detail::storage_bytes(n, sizeof(T)) + storage_alignment - 1) / storage_alignment;
  auto owner = std::allocate_shared_for_overwrite<detail::storage_block[]>(
      detail::cache_allocator<detail::storage_block>{}, blocks == 0 ? 1 : blocks);
  T* data = reinterpret_cast<T*>(owner.get());
  return std::shared_ptr<T>(std::move(owner), data);
}

}  // namespace ep
