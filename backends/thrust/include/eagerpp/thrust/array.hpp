// eagerpp - ep::thrust_array<T, Memory>: the raw tensor of the Thrust backends (ep::cuda_array,
// ep::omp_array)
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t
#include <string_view>  // std::string_view
#include <utility>      // std::move

#include "eagerpp/shape.hpp"

namespace ep {

/// Shared, immutable, C-order (row-major) elements in the memory `Memory` describes, and their
/// shape: the host (ep::omp_array<T>, an ep::buffer<T>) or the device (ep::cuda_array<T>, a
/// std::shared_ptr<T> into CUDA's pool). Copies are O(1) and share the elements; ops never write
/// into an existing array. `Memory` gives `template <class T> using storage = ...` (a shared owner
/// with get()) and `template <class T> static storage<T> allocate(std::size_t n, std::string_view
/// op)`.
template <class T, class Memory>
class thrust_array {
 public:
  using value_type = T;
  using storage_type = typename Memory::template storage<T>;

  thrust_array() = default;
  /// Wraps existing storage of at least shape.numel() elements (shared ownership).
  thrust_array(storage_type storage, const Shape& shape)
      : storage_(std::move(storage)), shape_(shape) {}
  /// A new, uninitialized buffer for `shape`; `op` names the op in errors (no device, no memory).
  explicit thrust_array(const Shape& shape, std::string_view op = "allocate")
      : storage_(Memory::template allocate<T>(static_cast<std::size_t>(shape.numel()), op)),
        shape_(shape) {}

  [[nodiscard]] const Shape& shape() const noexcept { return shape_; }
  [[nodiscard]] std::int64_t size() const noexcept { return shape_.numel(); }
  [[nodiscard]] int ndim() const noexcept { return shape_.size(); }
  /// The first element, in Memory's address space (a device pointer for ep::cuda_array).
  [[nodiscard]] const T* data() const noexcept { return storage_.get(); }
  /// Writable pointer: only for a result that no other tensor shares yet.
  [[nodiscard]] T* mutable_data() const noexcept { return storage_.get(); }
  [[nodiscard]] const storage_type& storage() const noexcept { return storage_; }

 private:
  storage_type storage_;
  Shape shape_;
};

}  // namespace ep
