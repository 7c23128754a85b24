// eagerpp - tensor storage: 64-byte aligned buffers from a caching allocator, shared by reference count
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>        // std::size_t
#include <cstdlib>        // std::aligned_alloc, std::free
#include <map>            // std::multimap
#include <memory>         // std::shared_ptr
#include <mutex>          // std::mutex, std::lock_guard
#include <new>            // std::bad_alloc

namespace ep {

/// Alignment of every buffer eagerpp allocates: one cache line, and what AVX-512 loads want.
inline constexpr std::size_t storage_alignment = 64;

namespace detail {

/// A process-wide cache of freed host buffers, keyed by their rounded size, as PyTorch's caching
/// allocator does for CUDA memory. Eager code allocates a fresh result for every op; on this kind of
/// machine first-touching a freshly mapped page costs about 10 us per 4 KiB, so handing back a buffer
/// that was freed a moment ago keeps eager ops close to the speed of fused expressions.
class host_cache {
 public:
  static host_cache& instance() {
    static host_cache* cache = new host_cache;  // never destroyed: buffers may be freed during exit
    return *cache;
  }

  /// A buffer of at least `bytes` bytes, 64-byte aligned; never null, even for 0 bytes.
  void* allocate(std::size_t bytes) {
    const std::size_t size = round(bytes);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = free_.find(size); it != free_.end()) {
        void* p = it->second;
        free_.erase(it);
        cached_ -= size;
        return p;
      }
    }
    void* p = std::aligned_alloc(storage_alignment, size);
    if (p == nullptr) {
      release_all();
      p = std::aligned_alloc(storage_alignment, size);
      if (p == nullptr) throw std::bad_alloc();
    }
    return p;
  }

  void deallocate(void* p, std::size_t bytes) noexcept {
    const std::size_t size = round(bytes);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (cached_ + size <= limit_) {
        try {
          free_.emplace(size, p);
          cached_ += size;
          return;
        } catch (...) {  // no memory for the cache entry: free the buffer instead
        }
      }
    }
    std::free(p);
  }

  /// Frees every cached buffer.
  void release_all() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [size, p] : free_) std::free(p);
    free_.clear();
    cached_ = 0;
  }

  /// Bytes held in the cache, not in use by any tensor.
  [[nodiscard]] std::size_t cached_bytes() {
    std::lock_guard<std::mutex> lock(mutex_);
    return cached_;
  }

 private:
  // Small sizes round to 64 bytes; large ones to 1/8 of their power of two, which bounds the waste
  // at 12.5% and lets sizes that differ a little share buffers.
  static std::size_t round(std::size_t bytes) noexcept {
    if (bytes <= 4096) return bytes == 0 ? storage_alignment : (bytes + 63) & ~std::size_t{63};
    std::size_t p = 4096;
    while (p < bytes) p <<= 1;
    const std::size_t step = p / 8;
    return (bytes + step - 1) / step * step;
  }

  std::mutex mutex_;
  std::multimap<std::size_t, void*> free_;
  std::size_t cached_ = 0;
  std::size_t limit_ = std::size_t{2} << 30;  // 2 GiB
};

}  // namespace detail

/// Shared, 64-byte aligned, uninitialized storage for `n` elements of T (trivially copyable T only).
/// Copies share the buffer; the last owner gives it back to the cache.
template <class T>
std::shared_ptr<T> allocate_storage(std::size_t n) {
  const std::size_t bytes = n * sizeof(T);
  T* p = static_cast<T*>(detail::host_cache::instance().allocate(bytes));
  try {
    return std::shared_ptr<T>(p, [bytes](T* q) { detail::host_cache::instance().deallocate(q, bytes); });
  } catch (...) {
    detail::host_cache::instance().deallocate(p, bytes);
    throw;
  }
}

}  // namespace ep
