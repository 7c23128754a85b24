// eagerpp - ep::Shape, a small inline vector of int64 extents, and broadcasting rules
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>         // std::copy, std::equal
#include <array>             // std::array
#include <concepts>          // std::integral, std::same_as
#include <cstddef>           // std::size_t
#include <cstdint>           // std::int64_t
#include <initializer_list>  // std::initializer_list
#include <ostream>           // std::ostream
#include <span>              // std::span
#include <string>            // std::string
#include <vector>            // std::vector

#include <fmt/format.h>

#include "eagerpp/error.hpp"

namespace ep {

namespace detail {

/// "1, -2, 3": a list of integers as error messages and Shape::str print it. (fmt::join compiles
/// fmt's integer formatting with format specs into every translation unit that can report a bad
/// axis.)
inline std::string join_ints(std::span<const std::int64_t> values) {
  std::string s;
  for (const std::int64_t v : values) {
    if (!s.empty()) s += ", ";
    s += std::to_string(v);
  }
  return s;
}
/// The same of a list of axes.
inline std::string join_ints(std::span<const int> values) {
  return join_ints(std::vector<std::int64_t>(values.begin(), values.end()));
}

}  // namespace detail

/// The largest rank a tensor may have.
inline constexpr int max_rank = 8;

/// The shape of a tensor: up to `ep::max_rank` int64 extents, stored inline (no allocation).
/// Comparable with `==`, printable as NumPy prints shapes: `(2, 3)`, `(4,)`, `()`.
class Shape {
 public:
  using value_type = std::int64_t;
  using iterator = const std::int64_t*;

  constexpr Shape() = default;
  // Copies move the `rank` extents in use, one by one: a shape is mostly written extent by extent,
  // and a 64-byte block copy of what was just written that way stalls on store forwarding.
  Shape(const Shape& other) noexcept : rank_(other.rank_) { copy_extents(other); }
  Shape& operator=(const Shape& other) noexcept {
    rank_ = other.rank_;
    copy_extents(other);
    return *this;
  }
  Shape(std::initializer_list<std::int64_t> dims) {
    if (dims.size() > max_rank) too_many_extents();
    for (const std::int64_t d : dims) dims_[static_cast<std::size_t>(rank_++)] = d;
  }
  /// A 1-D shape from one extent, so that `ep::zeros<B>(3)` reads as NumPy's `zeros(3)`.
  template <std::integral I>
  requires(!std::same_as<I, bool>) Shape(I extent)
      : rank_(1) {  // NOLINT(google-explicit-constructor): NumPy accepts an int shape
    dims_[0] = static_cast<std::int64_t>(extent);
  }
  explicit Shape(std::span<const std::int64_t> dims) { assign(dims.begin(), dims.end()); }
  template <class It>
  Shape(It first, It last) {
    assign(first, last);
  }

  [[nodiscard]] constexpr int size() const noexcept { return rank_; }
  [[nodiscard]] constexpr int ndim() const noexcept { return rank_; }
  [[nodiscard]] constexpr bool empty() const noexcept { return rank_ == 0; }
  [[nodiscard]] const std::int64_t* begin() const noexcept { return dims_.data(); }
  [[nodiscard]] const std::int64_t* end() const noexcept { return dims_.data() + rank_; }
  [[nodiscard]] std::int64_t* begin() noexcept { return dims_.data(); }
  [[nodiscard]] std::int64_t* end() noexcept { return dims_.data() + rank_; }
  [[nodiscard]] const std::int64_t* data() const noexcept { return dims_.data(); }
  [[nodiscard]] std::int64_t operator[](int i) const noexcept {
    return dims_[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] std::int64_t& operator[](int i) noexcept {
    return dims_[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] std::int64_t back() const noexcept {
    return dims_[static_cast<std::size_t>(rank_ - 1)];
  }
  operator std::span<const std::int64_t>() const noexcept {
    return {dims_.data(), static_cast<std::size_t>(rank_)};
  }

  /// The number of elements: the product of the extents (1 for a 0-d shape).
  [[nodiscard]] std::int64_t numel() const noexcept {
    std::int64_t n = 1;
    for (int i = 0; i < rank_; ++i) n *= dims_[static_cast<std::size_t>(i)];
    return n;
  }

  void push_back(std::int64_t d) {
    if (rank_ == max_rank) [[unlikely]]
      too_many_extents();
    dims_[static_cast<std::size_t>(rank_++)] = d;
  }
  void insert(int pos, std::int64_t d) {
    push_back(0);
    for (int i = rank_ - 1; i > pos; --i) (*this)[i] = (*this)[i - 1];
    (*this)[pos] = d;
  }
  void erase(int pos) {
    for (int i = pos; i + 1 < rank_; ++i) (*this)[i] = (*this)[i + 1];
    --rank_;
  }

  friend bool operator==(const Shape& a, const Shape& b) noexcept {
    if (a.rank_ != b.rank_) return false;
    for (int i = 0; i < a.rank_; ++i)  // not std::equal: it calls memcmp, slower for a few extents
      if (a[i] != b[i]) return false;
    return true;
  }

  /// NumPy's spelling: `(2, 3)`, `(4,)`, `()`.
  [[nodiscard]] std::string str() const {
    // Appended, not `"(" + join_ints(...)`: g++ 12 at -O3 warns (-Wrestrict) on that insert.
    std::string s = "(";
    s += detail::join_ints(std::span<const std::int64_t>(*this));
    s += rank_ == 1 ? ",)" : ")";
    return s;
  }
  friend std::ostream& operator<<(std::ostream& os, const Shape& s) { return os << s.str(); }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] static void too_many_extents() {
    throw value_error(fmt::format("Shape: rank exceeds the maximum of {}", max_rank));
  }
  // A switch, not a loop: GCC turns a loop of `rank_` copies into a call to memmove, a cost that
  // shows in every small op's profile, since every result copies a shape. Each extent is loaded on
  // its own (`scalar`): a shape is mostly written extent by extent, just before it is copied, and a
  // 16-byte load of two extents written that way cannot be forwarded from those two stores.
  static std::int64_t scalar(std::int64_t v) noexcept {
#if defined(__GNUC__)
    __asm__("" : "+r"(v));  // v must sit in a general register: no vector load of two extents
#endif
    return v;
  }
  void copy_extents(const Shape& other) noexcept {
    const std::int64_t* from = other.dims_.data();
    std::int64_t* to = dims_.data();
    switch (rank_) {
      case 8:
        to[7] = scalar(from[7]);
        [[fallthrough]];
      case 7:
        to[6] = scalar(from[6]);
        [[fallthrough]];
      case 6:
        to[5] = scalar(from[5]);
        [[fallthrough]];
      case 5:
        to[4] = scalar(from[4]);
        [[fallthrough]];
      case 4:
        to[3] = scalar(from[3]);
        [[fallthrough]];
      case 3:
        to[2] = scalar(from[2]);
        [[fallthrough]];
      case 2:
        to[1] = scalar(from[1]);
        [[fallthrough]];
      case 1:
        to[0] = scalar(from[0]);
        [[fallthrough]];
      default:
        break;
    }
  }
  template <class It>
  void assign(It first, It last) {
    for (; first != last; ++first) push_back(static_cast<std::int64_t>(*first));
  }
  std::array<std::int64_t, max_rank> dims_{};
  int rank_ = 0;
};

/// C-order (row-major) strides of `shape`, in elements.
inline Shape strides_of(const Shape& shape) {
  Shape s = shape;
  std::int64_t acc = 1;
  for (int i = shape.size() - 1; i >= 0; --i) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

/// NumPy broadcasting of two shapes; throws `ep::value_error` naming `op` when they do not
/// broadcast.
inline Shape broadcast_shapes(const Shape& a, const Shape& b, std::string_view op) {
  const int n = std::max(a.size(), b.size());
  Shape out;
  for (int i = 0; i < n; ++i) {
    const int ia = i - (n - a.size());
    const int ib = i - (n - b.size());
    const std::int64_t da = ia >= 0 ? a[ia] : 1;
    const std::int64_t db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1)
      throw value_error(fmt::format("{}: cannot broadcast shapes {} and {}", op, a.str(), b.str()));
    out.push_back(da == 1 ? db : da);
  }
  return out;
}

/// The shape that any number of shapes broadcast to (array API 2025.12: `broadcast_shapes`; none
/// gives the 0-d shape); throws `ep::value_error` naming the first shape that does not fit the
/// others.
inline Shape broadcast_shapes(std::span<const Shape> shapes) {
  Shape out;
  for (const Shape& s : shapes) out = broadcast_shapes(out, s, "broadcast_shapes");
  return out;
}
template <class... S>
requires(std::same_as<S, Shape>&&...) Shape broadcast_shapes(const S&... shapes) {
  const std::array<Shape, sizeof...(S)> all{shapes...};
  return broadcast_shapes(std::span<const Shape>(all));
}

}  // namespace ep

template <>
struct fmt::formatter<ep::Shape> : fmt::formatter<std::string_view> {
  template <class Ctx>
  auto format(const ep::Shape& s, Ctx& ctx) const {
    return fmt::formatter<std::string_view>::format(s.str(), ctx);
  }
};
