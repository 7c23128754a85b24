// eagerpp - ep::Axes (an axis, several axes, or all of them) and axis validation
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>         // std::adjacent_find
#include <array>             // std::array
#include <cstddef>           // std::size_t
#include <initializer_list>  // std::initializer_list
#include <span>              // std::span
#include <string_view>       // std::string_view
#include <utility>           // std::swap
#include <vector>            // std::vector

#include <fmt/format.h>

#include "eagerpp/error.hpp"
#include "eagerpp/shape.hpp"

namespace ep {

namespace detail {

/// Normalized axes (non-negative, sorted, unique): at most ep::max_rank of them, stored inline, so
/// that validating the axes of a reduction allocates nothing.
class axis_list {
 public:
  using value_type = int;
  /// The axes 0, 1, ..., rank - 1 (rank <= max_rank), written as one block, not axis by axis.
  [[nodiscard]] static axis_list first(int rank) noexcept {
    axis_list a;
    for (std::size_t i = 0; i < a.axes_.size(); ++i) a.axes_[i] = static_cast<int>(i);
    a.size_ = static_cast<std::size_t>(rank);
    return a;
  }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] const int* data() const noexcept { return axes_.data(); }
  [[nodiscard]] const int* begin() const noexcept { return axes_.data(); }
  [[nodiscard]] const int* end() const noexcept { return axes_.data() + size_; }
  [[nodiscard]] int* begin() noexcept { return axes_.data(); }
  [[nodiscard]] int* end() noexcept { return axes_.data() + size_; }
  [[nodiscard]] int operator[](std::size_t i) const noexcept { return axes_[i]; }
  void push_back(int axis) noexcept { axes_[size_++] = axis; }  // callers stay within max_rank
  operator std::span<const int>() const noexcept { return {axes_.data(), size_}; }  // NOLINT

 private:
  std::array<int, max_rank> axes_{};
  std::size_t size_ = 0;
};

}  // namespace detail

/// The `axis` argument of reductions and of squeeze and flip: all axes (the default, NumPy's
/// `axis=None`), one axis (`x.sum(1)`) or several (`x.sum({0, 2})`). Negative axes count from the
/// end.
class Axes {
 public:
  /// All axes.
  Axes() = default;
  Axes(int axis) : all_(false), axes_{axis} {}  // NOLINT(google-explicit-constructor): x.sum(1)
  Axes(std::initializer_list<int> axes) : all_(false), axes_(axes) {}
  Axes(std::vector<int> axes)
      : all_(false), axes_(std::move(axes)) {}  // NOLINT(google-explicit-constructor)
  explicit Axes(const detail::axis_list& axes) : all_(false), axes_(axes.begin(), axes.end()) {}

  [[nodiscard]] bool all() const noexcept { return all_; }
  [[nodiscard]] const std::vector<int>& list() const noexcept { return axes_; }

 private:
  bool all_ = true;
  std::vector<int> axes_;
};

namespace detail {

/// `axis` as a non-negative axis of a rank-`ndim` tensor; throws ep::value_error naming `op`.
inline int normalize_axis(std::string_view op, int axis, const Shape& shape) {
  const int ndim = shape.size();
  if (axis < -ndim || axis >= ndim)
    throw value_error(fmt::format(
        "{}: axis {} is out of range for a tensor of shape {}; expected {} <= axis < {}", op, axis,
        shape.str(), -ndim, ndim));
  return axis < 0 ? axis + ndim : axis;
}

/// The axes named by `axes`, non-negative, sorted and unique; throws on a repeated axis.
inline axis_list normalize_axes(std::string_view op, const Axes& axes, const Shape& shape) {
  axis_list out;
  if (axes.all()) {
    for (int i = 0; i < shape.size(); ++i) out.push_back(i);
    return out;
  }
  // Validates every axis (an out-of-range one throws first); more axes than the rank means a
  // repeat.
  bool too_many = false;
  for (int a : axes.list()) {
    const int axis = normalize_axis(op, a, shape);
    if (out.size() < static_cast<std::size_t>(shape.size())) {
      out.push_back(axis);
    } else {
      too_many = true;
    }
  }
  const auto repeated = [&] {
    return value_error(
        fmt::format("{}: repeated axis in ({}) for a tensor of shape {}; expected each axis once",
                    op, detail::join_ints(axes.list()), shape.str()));
  };
  if (too_many) throw repeated();
  // At most max_rank axes: an insertion sort (std::sort's code is larger than this list needs,
  // and compiled in every translation unit that reduces over axes).
  int* a = out.begin();
  for (std::size_t i = 1; i < out.size(); ++i)
    for (std::size_t j = i; j > 0 && a[j - 1] > a[j]; --j) std::swap(a[j - 1], a[j]);
  if (std::adjacent_find(out.begin(), out.end()) != out.end()) throw repeated();
  return out;
}

/// `shape` with the extents at the (sorted) `axes` set to 1 (keepdims) or removed.
inline Shape reduced_shape(const Shape& shape, std::span<const int> axes, bool keepdims) {
  Shape out;
  std::size_t k = 0;
  for (int i = 0; i < shape.size(); ++i) {
    if (k < axes.size() && axes[k] == i) {
      ++k;
      if (keepdims) out.push_back(1);
    } else {
      out.push_back(shape[i]);
    }
  }
  return out;
}

}  // namespace detail
}  // namespace ep
