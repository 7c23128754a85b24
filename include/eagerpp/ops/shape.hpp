// eagerpp - shape ops of ep::Tensor: reshape, transpose, squeeze, broadcast_to, tile, flip, pad,
// concatenate
// SPDX-License-Identifier: MIT
#pragma once

#include <initializer_list>  // std::initializer_list

#include <array>   // std::array
#include <span>    // std::span
#include <vector>  // std::vector

#include <fmt/format.h>

#include "eagerpp/tensor.hpp"

namespace ep {

namespace detail {
template <class Tn>
Tn slice_axis(const Tn& x, int axis, std::int64_t start, std::int64_t stop);

// The gradient rules of the shape ops: the inverse op applied to g.
template <class Tn>
struct reshape_rule : takes<Tn> {
  Tn operator()(const Tn& g, const Tn&, const Tn& x) const { return g.reshape(x.shape()); }
};
template <class Tn>
struct transpose_rule : takes<Tn> {
  std::array<int, max_rank> inverse;  // the inverse permutation, of the first `rank` axes
  int rank;
  Tn operator()(const Tn& g, const Tn&, const Tn&) const {
    return g.transpose(std::vector<int>(inverse.begin(), inverse.begin() + rank));
  }
};
template <class Tn>
struct broadcast_to_rule : takes<Tn> {
  Tn operator()(const Tn& g, const Tn&, const Tn& x) const { return unbroadcast(g, x.shape()); }
};
template <class Tn>
struct flip_rule : takes<Tn> {
  axis_list axes;
  Tn operator()(const Tn& g, const Tn&, const Tn&) const { return g.flip(Axes(axes)); }
};
/// x[start:stop] along `axis`: g padded back to x's extent with zeros.
template <class Tn>
struct slice_axis_rule : takes<Tn> {
  int axis;
  std::int64_t start, stop;
  Tn operator()(const Tn& g, const Tn&, const Tn& x) const {
    Paddings p(static_cast<std::size_t>(x.ndim()), {0, 0});
    p[static_cast<std::size_t>(axis)] = {start, x.shape()[axis] - stop};
    return g.pad(p);
  }
};
/// Constant padding: the slice of g where x lies (`before`: the padding before each axis).
template <class Tn>
struct pad_rule : takes<Tn> {
  Shape before;
  Tn operator()(const Tn& g, const Tn&, const Tn& x) const {
    Tn r = g;
    const Shape xs = x.shape();
    for (int i = 0; i < xs.size(); ++i) r = slice_axis(r, i, before[i], before[i] + xs[i]);
    return r;
  }
};
/// Each input's slice of g along the concatenation axis (`extents`: the inputs' extents on it).
template <class Tn>
struct concatenate_rule : takes_list<Tn> {
  int axis;
  std::vector<std::int64_t> extents;
  std::vector<Tn> operator()(const Tn& g, const Tn&, const std::vector<Tn>&) const {
    std::vector<Tn> grads;
    std::int64_t offset = 0;
    for (auto e : extents) {
      grads.push_back(slice_axis(g, axis, offset, offset + e));
      offset += e;
    }
    return grads;
  }
};
}  // namespace detail

template <backend B>
Tensor<B> Tensor<B>::reshape(const Shape& new_shape) const {
  const Shape s = shape();
  Shape target = new_shape;
  int unknown = -1;
  std::int64_t known = 1;
  for (int i = 0; i < target.size(); ++i) {
    if (target[i] == -1) {
      if (unknown >= 0)
        throw value_error(fmt::format(
            "reshape: can only specify one unknown dimension, got {} for a tensor of shape {}",
            new_shape.str(), s.str()));
      unknown = i;
    } else if (target[i] < 0) {
      throw value_error(fmt::format(
          "reshape: negative extent in {}; expected extents >= 0 or a single -1", new_shape.str()));
    } else {
      known *= target[i];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || s.numel() % known != 0)
      throw value_error(
          fmt::format("reshape: cannot reshape a tensor of shape {} ({} elements) into shape {}",
                      s.str(), s.numel(), new_shape.str()));
    target[unknown] = s.numel() / known;
  }
  if (target.numel() != s.numel())
    throw value_error(
        fmt::format("reshape: cannot reshape a tensor of shape {} ({} elements) into shape {}; "
                    "expected {} elements",
                    s.str(), s.numel(), new_shape.str(), s.numel()));
  if (target == s) return *this;
  return detail::make_result<Tensor>([&] { return B::reshape(raw(), target); },
                                     detail::reshape_rule<Tensor>{}, *this);
}

template <backend B>
Tensor<B> Tensor<B>::flatten(int start, int end) const {
  const Shape s = shape();
  if (s.size() == 0) return reshape({1});
  const int a = detail::normalize_axis("flatten", start, s);
  const int b = detail::normalize_axis("flatten", end, s);
  if (a > b)
    throw value_error(
        fmt::format("flatten: start axis {} comes after end axis {} for a tensor of shape {}; "
                    "expected start <= end",
                    start, end, s.str()));
  Shape out;
  for (int i = 0; i < a; ++i) out.push_back(s[i]);
  std::int64_t merged = 1;
  for (int i = a; i <= b; ++i) merged *= s[i];
  out.push_back(merged);
  for (int i = b + 1; i < s.size(); ++i) out.push_back(s[i]);
  return reshape(out);
}

namespace detail {
/// x with its axes permuted by `perm` (negative axes count from the end); no allocation, as small
/// tensors' transposes are frequent (`F.matmul(P).matmul(F.T())`).
template <class Tn>
Tn transpose_axes(const Tn& x, std::span<const int> perm) {
  using B = typename Tn::backend_type;
  const Shape s = x.shape();
  const int n = s.size();
  std::array<int, max_rank> p{}, inverse{};
  std::array<bool, max_rank> seen{};
  bool valid = static_cast<int>(perm.size()) == n, identity = true;
  for (int i = 0; valid && i < n; ++i) {
    const int a = perm[static_cast<std::size_t>(i)] < 0 ? perm[static_cast<std::size_t>(i)] + n
                                                        : perm[static_cast<std::size_t>(i)];
    valid = a >= 0 && a < n && !seen[static_cast<std::size_t>(a)];
    if (!valid) break;
    seen[static_cast<std::size_t>(a)] = true;
    p[static_cast<std::size_t>(i)] = a;
    inverse[static_cast<std::size_t>(a)] = i;
    identity = identity && a == i;
  }
  if (!valid)
    throw value_error(fmt::format(
        "transpose: axes ({}) are not a permutation of the {} axes of a tensor of shape {}",
        join_ints(std::vector<int>(perm.begin(), perm.end())), n, s.str()));
  if (identity) return x;
  return make_result<Tn>(
      [&] {
        return B::transpose(x.raw(), std::span<const int>(p.data(), static_cast<std::size_t>(n)));
      },
      transpose_rule<Tn>{{}, inverse, n}, x);
}
}  // namespace detail

template <backend B>
Tensor<B> Tensor<B>::transpose(const std::vector<int>& perm) const {
  return detail::transpose_axes(*this, std::span<const int>(perm));
}

template <backend B>
Tensor<B> Tensor<B>::transpose() const {
  std::array<int, max_rank> perm{};
  const int n = ndim();
  for (int i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = n - 1 - i;
  return detail::transpose_axes(*this,
                                std::span<const int>(perm.data(), static_cast<std::size_t>(n)));
}

template <backend B>
Tensor<B> Tensor<B>::squeeze(Axes axis) const {
  const Shape s = shape();
  Shape out;
  if (axis.all()) {
    for (auto d : s)
      if (d != 1) out.push_back(d);
  } else {
    const auto axes = detail::normalize_axes("squeeze", axis, s);
    for (int a : axes)
      if (s[a] != 1)
        throw value_error(
            fmt::format("squeeze: cannot select axis {} of extent {} in a tensor of shape {}; "
                        "expected extent 1",
                        a, s[a], s.str()));
    out = detail::reduced_shape(s, axes, false);
  }
  return reshape(out);
}

template <backend B>
Tensor<B> Tensor<B>::expand_dims(int axis) const {
  Shape s = shape();
  const int n = s.size() + 1;
  if (axis < -n || axis >= n)
    throw value_error(fmt::format(
        "expand_dims: axis {} is out of range for a tensor of shape {}; expected {} <= axis < {}",
        axis, s.str(), -n, n));
  s.insert(axis < 0 ? axis + n : axis, 1);
  return reshape(s);
}

template <backend B>
Tensor<B> Tensor<B>::broadcast_to(const Shape& target) const {
  const Shape s = shape();
  if (s == target) return *this;
  const bool ok = s.size() <= target.size() && [&] {
    for (int i = 0; i < s.size(); ++i) {
      const auto d = s[i];
      const auto t = target[i + target.size() - s.size()];
      if (d != t && d != 1) return false;
    }
    return true;
  }();
  if (!ok)
    throw value_error(fmt::format("broadcast_to: cannot broadcast a tensor of shape {} to shape {}",
                                  s.str(), target.str()));
  return detail::make_result<Tensor>([&] { return B::broadcast_to(raw(), target); },
                                     detail::broadcast_to_rule<Tensor>{}, *this);
}

template <backend B>
Tensor<B> Tensor<B>::tile(const std::vector<std::int64_t>& multiples) const {
  const Shape s = shape();
  if (multiples.size() != static_cast<std::size_t>(s.size()))
    throw value_error(
        fmt::format("tile: got {} multiples ({}) for a tensor of shape {}; expected one per axis",
                    multiples.size(), detail::join_ints(multiples), s.str()));
  Tensor r = *this;
  Shape cur = s;
  for (int i = 0; i < s.size(); ++i) {
    const auto m = multiples[static_cast<std::size_t>(i)];
    if (m < 0)
      throw value_error(
          fmt::format("tile: negative multiple {} for axis {}; expected multiples >= 0", m, i));
    if (m == 1) continue;
    // (outer, 1, d, inner) broadcast to (outer, m, d, inner): rank 4 whatever the tensor's rank.
    std::int64_t outer = 1, inner = 1;
    for (int j = 0; j < i; ++j) outer *= cur[j];
    for (int j = i + 1; j < cur.size(); ++j) inner *= cur[j];
    r = r.reshape({outer, 1, cur[i], inner}).broadcast_to({outer, m, cur[i], inner});
    cur[i] *= m;
    r = r.reshape(cur);
  }
  return r;
}

template <backend B>
Tensor<B> Tensor<B>::flip(Axes axis) const {
  const auto axes = detail::normalize_axes("flip", axis, shape());
  if (axes.empty()) return *this;
  return detail::make_result<Tensor>([&] { return B::flip(raw(), std::span<const int>(axes)); },
                                     detail::flip_rule<Tensor>{{}, axes}, *this);
}

namespace detail {
/// x[start:stop] along `axis` (0 <= start <= stop <= extent): a differentiable contiguous slice.
template <class Tn>
Tn slice_axis(const Tn& x, int axis, std::int64_t start, std::int64_t stop) {
  using B = typename Tn::backend_type;
  const Shape s = x.shape();
  Shape starts, steps, out = s;
  for (int i = 0; i < s.size(); ++i) {
    starts.push_back(i == axis ? start : 0);
    steps.push_back(1);
  }
  out[axis] = stop - start;
  if (out == s) return x;
  return make_result<Tn>(
      [&] {
        return B::slice(x.raw(), std::span<const std::int64_t>(starts),
                        std::span<const std::int64_t>(steps), out);
      },
      slice_axis_rule<Tn>{{}, axis, start, stop}, x);
}
}  // namespace detail

template <backend B>
Tensor<B> Tensor<B>::pad(const Paddings& paddings, std::string_view mode, value_type value) const {
  const Shape s = shape();
  if (paddings.size() != static_cast<std::size_t>(s.size()))
    throw value_error(fmt::format(
        "pad: got {} (before, after) pairs for a tensor of shape {}; expected one per axis",
        paddings.size(), s.str()));
  Shape before, after;
  for (int i = 0; i < s.size(); ++i) {
    const auto [b, a] = paddings[static_cast<std::size_t>(i)];
    if (b < 0 || a < 0)
      throw value_error(fmt::format(
          "pad: negative padding ({}, {}) for axis {}; expected paddings >= 0", b, a, i));
    before.push_back(b);
    after.push_back(a);
  }
  if (mode == "constant") {
    bool none = true;
    for (int i = 0; i < s.size(); ++i) none = none && before[i] == 0 && after[i] == 0;
    if (none) return *this;
    return detail::make_result<Tensor>(
        [&] {
          if constexpr (detail::blocked_backend<B> && detail::lazy_dtype<value_type>) {
            if (auto padded = detail::lazy_engine<B>::pad(*this, before, after, value))
              return std::move(*padded);
          }
          return B::pad(raw(), std::span<const std::int64_t>(before),
                        std::span<const std::int64_t>(after), value);
        },
        detail::pad_rule<Tensor>{{}, before}, *this);
  }
  if (mode == "reflect") {
    // NumPy's reflect (the edge is not repeated), one axis at a time: flipped slices on each side.
    Tensor r = *this;
    for (int i = 0; i < s.size(); ++i) {
      if (before[i] == 0 && after[i] == 0) continue;
      if (before[i] >= s[i] || after[i] >= s[i])
        throw value_error(
            fmt::format("pad: reflect padding ({}, {}) of axis {} needs more than the {} elements "
                        "of a tensor of "
                        "shape {}; expected paddings < {}",
                        before[i], after[i], i, s[i], s.str(), s[i]));
      std::vector<Tensor> parts;
      if (before[i] > 0) parts.push_back(detail::slice_axis(r, i, 1, before[i] + 1).flip(i));
      parts.push_back(r);
      if (after[i] > 0)
        parts.push_back(detail::slice_axis(r, i, s[i] - 1 - after[i], s[i] - 1).flip(i));
      r = concatenate(parts, i);
    }
    return r;
  }
  throw value_error(
      fmt::format("pad: unknown mode '{}'; expected \"constant\" or \"reflect\"", mode));
}

/// The tensors joined along an existing `axis` (NumPy: `concatenate`); they must have the same
/// rank and equal extents off the axis.
template <backend B>
Tensor<B> concatenate(const std::vector<Tensor<B>>& tensors, int axis = 0) {
  if (tensors.empty())
    throw value_error("concatenate: got an empty list of tensors; expected at least one");
  const Shape s0 = tensors.front().shape();
  if (s0.size() == 0)
    throw value_error(
        "concatenate: zero-dimensional tensors cannot be concatenated; expected rank >= 1");
  const int a = detail::normalize_axis("concatenate", axis, s0);
  std::vector<typename B::raw_type> raws;
  raws.reserve(tensors.size());
  std::vector<std::int64_t> extents;
  for (const auto& t : tensors) {
    const Shape s = t.shape();
    bool ok = s.size() == s0.size();
    for (int i = 0; ok && i < s.size(); ++i) ok = i == a || s[i] == s0[i];
    if (!ok)
      throw value_error(
          fmt::format("concatenate: shapes {} and {} differ off the concatenation axis {}; "
                      "expected equal extents",
                      s0.str(), s.str(), a));
    raws.push_back(t.raw());
    extents.push_back(s[a]);
  }
  if (tensors.size() == 1) return tensors.front();
  return detail::make_result_n<Tensor<B>>(
      [&] { return B::concatenate(std::span<const typename B::raw_type>(raws), a); },
      detail::concatenate_rule<Tensor<B>>{{}, a, std::move(extents)}, tensors);
}

/// The tensors (all of one shape) joined along a new `axis` (NumPy: `stack`).
template <backend B>
Tensor<B> stack(const std::vector<Tensor<B>>& tensors, int axis = 0) {
  if (tensors.empty())
    throw value_error("stack: got an empty list of tensors; expected at least one");
  const Shape s0 = tensors.front().shape();
  const int n = s0.size() + 1;  // the result's rank, which the new axis counts in
  if (axis < -n || axis >= n)
    throw value_error(fmt::format(
        "stack: axis {} is out of range for stacking tensors of shape {}; expected {} <= axis < {}",
        axis, s0.str(), -n, n));
  std::vector<Tensor<B>> expanded;
  expanded.reserve(tensors.size());
  for (const auto& t : tensors) {
    if (!(t.shape() == s0))
      throw value_error(fmt::format(
          "stack: shapes {} and {} differ; expected every tensor to have the same shape", s0.str(),
          t.shape().str()));
    expanded.push_back(t.expand_dims(axis));
  }
  return concatenate(expanded, axis < 0 ? axis + n : axis);
}

/// `concatenate({x, y}, axis)`: a brace list of tensors of one backend.
template <backend B>
Tensor<B> concatenate(std::initializer_list<Tensor<B>> tensors, int axis = 0) {
  return concatenate(std::vector<Tensor<B>>(tensors), axis);
}

/// `stack({x, y}, axis)`: a brace list of tensors of one backend.
template <backend B>
Tensor<B> stack(std::initializer_list<Tensor<B>> tensors, int axis = 0) {
  return stack(std::vector<Tensor<B>>(tensors), axis);
}

}  // namespace ep
