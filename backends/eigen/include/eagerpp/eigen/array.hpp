// eagerpp - ep::eigen_array, the raw tensor of the Eigen backend: shared C-order storage seen
// through TensorMaps
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::copy_n
#include <cassert>      // assert
#include <cstdint>      // std::int64_t, std::uintptr_t
#include <memory>       // std::shared_ptr, std::make_shared
#include <type_traits>  // std::integral_constant
#include <utility>      // std::forward, std::move

#include <unsupported/Eigen/CXX11/Tensor>

#include "eagerpp/fwd.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"

namespace ep {

namespace detail {

// The maps make no promise of alignment (Eigen::Unaligned: packet loads and stores are `loadu` and
// `storeu`), so an eigen_array may view any element of a buffer: a block of a lazy expression that
// lies inside a row of a strided slice is a view of the sliced tensor (host/blocks.hpp), wherever
// the row starts. The buffers eagerpp allocates are 64-byte aligned all the same, and on the CPUs
// eagerpp runs on an unaligned load of aligned data costs what an aligned one does
// (benchmarks/fusion_bench and facade_bench run as fast either way), while aligned maps would make
// every view at an odd element, such as a row of `u[1:-1, 1:-1]` in the stencil, a copy.
inline constexpr int eigen_map_options = Eigen::Unaligned;

template <class T, int N>
using eigen_cmap =
    Eigen::TensorMap<Eigen::Tensor<const T, N, Eigen::RowMajor, Eigen::Index>, eigen_map_options>;
template <class T, int N>
using eigen_mmap =
    Eigen::TensorMap<Eigen::Tensor<T, N, Eigen::RowMajor, Eigen::Index>, eigen_map_options>;

template <int N>
Eigen::DSizes<Eigen::Index, N> eigen_dims(const std::int64_t* dims) {
  Eigen::DSizes<Eigen::Index, N> d;
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<Eigen::Index>(dims[i]);
  return d;
}

/// A read-only rank-N map of `p` with extents `dims[0..N)`; `p` must be the start of a buffer.
template <int N, class T>
eigen_cmap<T, N> eigen_map(const T* p, const std::int64_t* dims) {
  return eigen_cmap<T, N>(p, eigen_dims<N>(dims));
}
template <int N, class T>
eigen_mmap<T, N> eigen_mutable_map(T* p, const std::int64_t* dims) {
  return eigen_mmap<T, N>(p, eigen_dims<N>(dims));
}

template <int Max, int N, class F>
decltype(auto) with_rank_from(int rank, F&& f) {
  if constexpr (N < Max) {
    if (rank != N) return with_rank_from<Max, N + 1>(rank, std::forward<F>(f));
  }
  return std::forward<F>(f)(std::integral_constant<int, N>{});
}

}  // namespace detail

/// Runtime rank to Eigen's compile-time rank, as TensorFlow's kernels do: calls
/// `f(std::integral_constant<int, N>{})` with N == rank, for rank in [Min, Max]. Only those ranks
/// are instantiated, so callers that merged dimensions first pass Min = 1 or 2, and callers with a
/// general loop for high ranks (detail::host_gather) a smaller Max.
/// A rank outside the range is a bug in the caller (checked by assert); it runs the Max case.
template <int Min = 0, int Max = max_rank, class F>
decltype(auto) with_rank(int rank, F&& f) {
  assert(rank >= Min && rank <= Max);
  return detail::with_rank_from<Max, Min>(rank, std::forward<F>(f));
}

/// The raw tensor of `ep::eigen<T>`: a shared, immutable, C-order (row-major) buffer and its shape.
/// Copies are O(1) and share the elements; ops never write into an existing eigen_array, they
/// allocate a new one. Computation sees the elements as Eigen TensorMaps: `tensor<N>()`, `flat()`.
template <class T>
class eigen_array {
 public:
  using value_type = T;
  template <int N>
  using map_type = detail::eigen_cmap<T, N>;
  template <int N>
  using mutable_map_type = detail::eigen_mmap<T, N>;

  /// An empty 1-d array, shape (0,), with no storage.
  eigen_array() : shape_{0}, size_(0) {}

  /// Adopts `data`, which must hold at least `shape.numel()` elements.
  eigen_array(buffer<T> data, const Shape& shape) noexcept
      : data_(std::move(data)), shape_(shape), size_(shape.numel()) {}
  /// Adopts elements owned elsewhere (at any address aligned for T: the maps are unaligned).
  eigen_array(std::shared_ptr<T> data, const Shape& shape)
      : data_(std::move(data)), shape_(shape), size_(shape.numel()) {}

  /// Uninitialized storage for `shape.numel()` elements: from the cache (ep::buffer), or inside
  /// the array for at most one element (a 0-d tensor: no allocation at all).
  explicit eigen_array(const Shape& shape) : shape_(shape), size_(shape.numel()) {
    if (size_ > 1) data_ = buffer<T>::allocate(static_cast<std::size_t>(size_));
  }

  /// Takes over a row-major Eigen::Tensor without copying its elements: the tensor moves into a
  /// shared holder and the storage aliases its data.
  template <int N>
  explicit eigen_array(Eigen::Tensor<T, N, Eigen::RowMajor, Eigen::Index>&& t)
      : shape_(shape_of(t.dimensions())), size_(shape_.numel()) {
    auto holder =
        std::make_shared<Eigen::Tensor<T, N, Eigen::RowMajor, Eigen::Index>>(std::move(t));
    data_ = buffer<T>(std::shared_ptr<T>(holder, holder->data()));
  }

  /// Copies an Eigen::Tensor of either layout. A column-major tensor keeps its logical shape and
  /// indices, so `a(i, j)` of the result equals `t(i, j)`: its elements are shuffled into C order.
  template <int N, int Options>
  explicit eigen_array(const Eigen::Tensor<T, N, Options, Eigen::Index>& t)
      : eigen_array(shape_of(t.dimensions())) {
    const std::int64_t n = shape_.numel();
    if (n == 0) return;
    if constexpr (N <= 1 || (Options & Eigen::RowMajor) != 0) {
      std::copy_n(t.data(), n, mutable_data());
    } else {
      Eigen::array<Eigen::Index, std::size_t{N}> reversed;
      for (std::size_t i = 0; i < reversed.size(); ++i)
        reversed[i] = static_cast<Eigen::Index>(N - 1) - static_cast<Eigen::Index>(i);
      mutable_tensor<N>() = t.swap_layout().shuffle(reversed);
    }
  }

  [[nodiscard]] const T* data() const noexcept { return mutable_data(); }
  /// The elements, writable: only for filling a freshly allocated array that no one else sees yet
  /// (and, for an array of at most one element, until it is copied or moved: they live inside it).
  [[nodiscard]] T* mutable_data() const noexcept { return data_ ? data_.get() : local_; }
  /// The same elements with another shape of as many elements or fewer (from the start), shared.
  [[nodiscard]] eigen_array reshaped(const Shape& shape) const {
    eigen_array out = *this;
    out.shape_ = shape;
    out.size_ = shape.numel();
    return out;
  }
  /// The elements as a std::shared_ptr that keeps them alive (copied out of an array that holds
  /// them inside itself).
  [[nodiscard]] std::shared_ptr<T> share() const {
    if (data_ || size() == 0) return data_.share();
    buffer<T> b = buffer<T>::allocate(1);
    b.get()[0] = local_[0];
    return b.share();
  }
  [[nodiscard]] const Shape& shape() const noexcept { return shape_; }
  [[nodiscard]] int ndim() const noexcept { return shape_.size(); }
  [[nodiscard]] std::int64_t size() const noexcept { return size_; }

  /// The elements as a rank-N Eigen TensorMap; N must equal ndim().
  template <int N>
  [[nodiscard]] map_type<N> tensor() const {
    assert(N == ndim());
    return detail::eigen_map<N>(data(), shape_.data());
  }
  template <int N>
  [[nodiscard]] mutable_map_type<N> mutable_tensor() const {
    assert(N == ndim());
    return detail::eigen_mutable_map<N>(mutable_data(), shape_.data());
  }
  /// The elements as a rank-1 TensorMap of size() elements, whatever the rank.
  [[nodiscard]] map_type<1> flat() const { return map_type<1>(data(), Eigen::Index{size()}); }
  [[nodiscard]] mutable_map_type<1> mutable_flat() const {
    return mutable_map_type<1>(mutable_data(), Eigen::Index{size()});
  }

 private:
  template <class Dims>
  static Shape shape_of(const Dims& dims) {
    Shape s;
    for (std::size_t i = 0; i < static_cast<std::size_t>(dims.size()); ++i) s.push_back(dims[i]);
    return s;
  }

  buffer<T> data_;  // empty when the elements are local_
  Shape shape_;
  std::int64_t size_;  // shape_.numel(), asked for by every op
  // At most one element lives here rather than in a buffer: a 0-d result (a sum, a scalar
  // operand) then costs no allocation. Eigen never loads a packet from a map of one element.
  alignas(16) mutable T local_[1] = {};
};

}  // namespace ep
