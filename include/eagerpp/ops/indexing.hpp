// eagerpp - indexing and selection: t(i, ep::slice(0, 4, 2), ep::newaxis), t[mask], index_update,
// take_along_axis, sort, argsort, topk
// SPDX-License-Identifier: MIT
#pragma once

#include <optional>  // std::optional
#include <tuple>     // std::tuple, std::apply
#include <variant>   // std::variant
#include <vector>    // std::vector

#include <fmt/format.h>

#include "eagerpp/tensor.hpp"

namespace ep {

namespace detail {

/// Checks that every element of the int64 tensor `index` lies in [-n, n) and wraps negative ones.
template <class I>
I wrap_indices(std::string_view op, const I& index, std::int64_t n, std::string_view what) {
  if (index.size() == 0) return index;
  const auto all = all_examples(index);
  const auto lo = all.min().item();
  const auto hi = all.max().item();
  if (lo < -n || hi >= n)
    throw index_error(
        fmt::format("{}: index {} is out of bounds for {} with size {}; expected {} <= index < {}",
                    op, lo < -n ? lo : hi, what, n, -n, n));
  if (lo >= 0) return index;
  return (index < 0).where(index + n, index);
}

template <class Tn, class I>
Tn put_add_flat(const Tn& x, const I& index, const Tn& values);
template <class Tn, class I>
Tn take_flat(const Tn& x, const I& index);
template <class Tn, class I>
Tn put_flat(const Tn& x, const I& index, const Tn& values);

// The gradient rules of the flat gathers and scatters; `index` (int64) is a constant they hold.
template <class Tn>
struct take_rule : takes<Tn> {
  typename Tn::index_tensor index;
  Tn operator()(const Tn& g, const Tn&, const Tn& x) const {
    return put_add_flat(x.zeros_like(), index.reshape({-1}), g.reshape({-1}));
  }
};
template <class Tn>
struct put_add_rule : takes<Tn, 2> {
  typename Tn::index_tensor index;
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn&, const Tn&, const Tn&) const {
    return {g, take_flat(g, index)};
  }
};
template <class Tn>
struct put_rule : takes<Tn, 2> {
  typename Tn::index_tensor index;
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn&, const Tn&, const Tn& v) const {
    return {put_flat(g, index, v.zeros_like()), take_flat(g, index)};
  }
};

/// x (1-D) gathered at `index` (int64, any shape, in range): differentiable.
template <class Tn, class I>
Tn take_flat(const Tn& x, const I& index) {
  using B = typename Tn::backend_type;
  return make_result<Tn>([&] { return B::take(x.raw(), index.raw()); }, take_rule<Tn>{{}, index},
                         x);
}

/// A copy of x (1-D) with values (1-D) added at `index` (1-D): differentiable.
template <class Tn, class I>
Tn put_add_flat(const Tn& x, const I& index, const Tn& values) {
  using B = typename Tn::backend_type;
  return make_result<Tn>([&] { return B::put_add(x.raw(), index.raw(), values.raw()); },
                         put_add_rule<Tn>{{}, index}, x, values);
}

/// A copy of x (1-D) with values (1-D) written at `index` (1-D): differentiable.
template <class Tn, class I>
Tn put_flat(const Tn& x, const I& index, const Tn& values) {
  using B = typename Tn::backend_type;
  return make_result<Tn>([&] { return B::put(x.raw(), index.raw(), values.raw()); },
                         put_rule<Tn>{{}, index}, x, values);
}

/// The C-order positions of x's elements, as an int64 tensor of x's shape.
template <class Tn>
typename Tn::index_tensor positions(const Tn& x) {
  using I = typename Tn::index_tensor;
  return I(I::backend_type::arange(0, 1, x.size())).reshape(x.shape());
}

template <class Tn>
Tn strided_slice(const Tn& x, const Shape& start, const Shape& step, const Shape& out);

/// g scattered back to the positions of x that the strided slice read.
template <class Tn>
struct strided_slice_rule : takes<Tn> {
  Shape start, step, out;
  Tn operator()(const Tn& g, const Tn&, const Tn& x) const {
    const auto lin = strided_slice(positions(x), start, step, out);
    return put_add_flat(x.zeros_like().reshape({-1}), lin.reshape({-1}), g.reshape({-1}))
        .reshape(x.shape());
  }
};

/// x[start[i] + k * step[i]] along each axis (step >= 1), `out` extents: differentiable.
template <class Tn>
Tn strided_slice(const Tn& x, const Shape& start, const Shape& step, const Shape& out) {
  using B = typename Tn::backend_type;
  if (out == x.shape()) return x;
  return make_result<Tn>(
      deferrable{[&] {
                   return B::slice(x.raw(), std::span<const std::int64_t>(start),
                                   std::span<const std::int64_t>(step), out);
                 },
                 [&] {
                   if constexpr (blocked_backend<B> && lazy_dtype<typename B::value_type>) {
                     return lazy_engine<B>::slice(x.raw(), x.shape(), start, step, out);
                   } else {
                     return nullptr;
                   }
                 }},
      strided_slice_rule<Tn>{{}, start, step, out}, x);
}

}  // namespace detail

/// A slice `start:stop:step` for indexing (NumPy's `slice`); a missing end means "to the end", as
/// in Python. `ep::slice()` is the full slice `:`.
struct slice {
  std::optional<std::int64_t> start, stop;
  std::int64_t step = 1;
  slice() = default;
  slice(std::optional<std::int64_t> start_, std::optional<std::int64_t> stop_,
        std::int64_t step_ = 1)
      : start(start_), stop(stop_), step(step_) {}
};

/// A new axis of extent 1 in an index (NumPy's `np.newaxis`).
inline constexpr struct newaxis_t {
} newaxis;

/// The remaining axes in full, in an index (Python's `...`).
inline constexpr struct ellipsis_t {
} ellipsis;

/// EagerPy's `ep.index[...]`: packs an index for `index_update`, e.g. `ep::index(ep::slice(), 2)`.
template <class... I>
auto index(const I&... items) {
  return std::tuple<I...>(items...);
}

namespace detail {

/// One item of an index, as the user wrote it.
template <class B>
struct index_item {
  enum class item_kind { integer, slice, new_axis, ellipsis, indices, mask };
  using index_tensor = Tensor<typename B::template rebind<std::int64_t>>;
  using mask_tensor = Tensor<typename B::template rebind<bool>>;
  item_kind kind;
  std::int64_t integer = 0;               // kind integer
  ep::slice slice{};                      // kind slice
  std::optional<index_tensor> indices{};  // kind indices: an int64 index tensor
  std::optional<mask_tensor> mask{};      // kind mask
  std::int64_t mask_extent = -1;  // for index tensors made from a bool mask: the extent it covers
};

/// A tensor of B's library holding integers other than int64: an index tensor, converted.
template <class A, class B>
concept integer_index_of = requires {
  typename A::value_type;
}
&&integer_dtype<typename A::value_type>&&
    std::same_as<A, Tensor<typename B::template rebind<typename A::value_type>>>;

template <class B, class A>
index_item<B> to_index_item(const A& a) {
  using item = index_item<B>;
  using K = typename item::item_kind;
  if constexpr (std::is_integral_v<A>) {
    return {.kind = K::integer, .integer = static_cast<std::int64_t>(a)};
  } else if constexpr (std::same_as<A, ep::slice>) {
    return {.kind = K::slice, .slice = a};
  } else if constexpr (std::same_as<A, newaxis_t>) {
    return {.kind = K::new_axis};
  } else if constexpr (std::same_as<A, ellipsis_t>) {
    return {.kind = K::ellipsis};
  } else if constexpr (std::same_as<A, typename item::mask_tensor>) {
    return {.kind = K::mask, .mask = a};
  } else if constexpr (std::same_as<A, typename item::index_tensor>) {
    return {.kind = K::indices, .indices = a};
  } else if constexpr (integer_index_of<A, B>) {
    return {.kind = K::indices, .indices = a.template astype<std::int64_t>()};
  } else {
    static_assert(always_false<A>,
                  "ep: an index must be an integer, ep::slice, ep::newaxis, ep::ellipsis, an "
                  "integer tensor or a bool "
                  "tensor of the same backend");
  }
}

/// NumPy's slice.indices(n): the first index, the step and the count.
inline std::tuple<std::int64_t, std::int64_t, std::int64_t> slice_indices(const ep::slice& s,
                                                                          std::int64_t n) {
  if (s.step == 0) throw value_error("index: slice step cannot be zero");
  const std::int64_t step = s.step;
  auto clamp = [&](std::optional<std::int64_t> v, std::int64_t dflt) {
    if (!v) return dflt;
    std::int64_t x = *v < 0 ? *v + n : *v;
    if (step > 0) return std::clamp<std::int64_t>(x, 0, n);
    return std::clamp<std::int64_t>(x, -1, n - 1);
  };
  const std::int64_t start = clamp(s.start, step > 0 ? 0 : n - 1);
  const std::int64_t stop = clamp(s.stop, step > 0 ? n : -1);
  std::int64_t count = 0;
  if (step > 0 && stop > start) count = (stop - start + step - 1) / step;
  if (step < 0 && start > stop) count = (start - stop + (-step) - 1) / (-step);
  return {start, step, count};
}

/// Phase 1 of get_index: each bool mask becomes one index tensor per axis it covers, the
/// coordinates of its true elements (found on the host).
template <class B>
std::vector<index_item<B>> expand_masks(std::vector<index_item<B>> items) {
  using item = index_item<B>;
  using K = typename item::item_kind;
  using I64 = typename item::index_tensor;
  std::vector<item> expanded;
  for (auto& it : items) {
    if (it.kind != K::mask) {
      expanded.push_back(std::move(it));
      continue;
    }
    const Shape ms = it.mask->shape();
    std::vector<std::int64_t> picked;
    const auto v = it.mask->to_vector();
    for (std::size_t j = 0; j < v.size(); ++j)
      if (v[j]) picked.push_back(static_cast<std::int64_t>(j));
    const Shape strides = strides_of(ms);
    for (int a = 0; a < ms.size(); ++a) {
      std::vector<std::int64_t> coord;
      coord.reserve(picked.size());
      for (auto p : picked) coord.push_back(p / strides[a] % ms[a]);
      expanded.push_back({.kind = K::indices,
                          .indices = from_vector<typename I64::backend_type>(coord),
                          .mask_extent = ms[a]});
    }
  }
  return expanded;
}

/// Phase 2: one item per axis of a tensor of shape `xs` (new axes aside): the ellipsis (at most
/// one) and the axes after the last item become full slices.
template <class B>
std::vector<index_item<B>> complete_index(std::vector<index_item<B>> items, const Shape& xs) {
  using K = typename index_item<B>::item_kind;
  int named = 0, ellipses = 0;  // the axes the items name, the ellipses among them
  for (const auto& it : items) {
    if (it.kind == K::ellipsis)
      ++ellipses;
    else if (it.kind != K::new_axis)
      ++named;
  }
  if (ellipses > 1)
    throw index_error("index: an index can only have a single ellipsis (ep::ellipsis)");
  if (named > xs.size())
    throw index_error(fmt::format(
        "index: too many indices for a tensor of shape {}: {} were indexed; expected at most {}",
        xs.str(), named, xs.size()));
  const auto full_slices = [&](std::vector<index_item<B>>& out) {
    for (int j = 0; j < xs.size() - named; ++j) out.push_back({.kind = K::slice});
  };
  std::vector<index_item<B>> full;
  for (auto& it : items) {
    if (it.kind == K::ellipsis)
      full_slices(full);
    else
      full.push_back(std::move(it));
  }
  if (ellipses == 0) full_slices(full);
  return full;
}

/// What the basic pass leaves to the advanced one: the tensor and the index tensors, each with the
/// axis of the tensor it indexes.
template <class B>
struct basic_indexed {
  Tensor<B> y;
  std::vector<std::pair<int, typename index_item<B>::index_tensor>> indices;
};

/// Phase 3, NumPy's basic indexing: integers, slices (negative steps by a flip) and new axes, in
/// one strided slice; the axes of index tensors are kept whole. With index tensors present,
/// integers count as 0-d index tensors (NumPy's rule, which decides where the result's axes go).
template <class B>
basic_indexed<B> basic_index(const Tensor<B>& x, const std::vector<index_item<B>>& full) {
  using K = typename index_item<B>::item_kind;
  using I64 = typename index_item<B>::index_tensor;
  const Shape xs = x.shape();
  bool advanced = false;
  for (const auto& it : full) advanced = advanced || it.kind == K::indices;
  Shape start, step, out;
  std::vector<int> flips;
  Shape result;  // shape after removing integer axes and inserting new axes
  basic_indexed<B> r{x, {}};
  int axis = 0;
  for (const auto& it : full) {
    if (it.kind == K::new_axis) {
      result.push_back(1);
      continue;
    }
    const std::int64_t n = xs[axis];
    if (it.kind == K::integer && !advanced) {
      std::int64_t i = it.integer;
      if (i < -n || i >= n)
        throw index_error(
            fmt::format("index: index {} is out of bounds for axis {} with size {} (shape {}); "
                        "expected {} <= index < {}",
                        i, axis, n, xs.str(), -n, n));
      if (i < 0) i += n;
      start.push_back(i);
      step.push_back(1);
      out.push_back(1);
    } else if (it.kind == K::slice) {
      auto [first, st, count] = slice_indices(it.slice, n);
      if (st > 0) {
        start.push_back(count > 0 ? first : 0);
        step.push_back(st);
      } else {
        start.push_back(count > 0 ? first + (count - 1) * st : 0);
        step.push_back(-st);
        flips.push_back(result.size());
      }
      out.push_back(count);
      result.push_back(count);
    } else {  // an index tensor, or an integer among index tensors
      I64 t =
          it.kind == K::integer ? I64(I64::backend_type::full(Shape{}, it.integer)) : *it.indices;
      if (it.mask_extent >= 0 && it.mask_extent != n)
        throw index_error(fmt::format(
            "index: boolean index has extent {} but axis {} of a tensor of shape {} has extent {}; "
            "expected equal extents",
            it.mask_extent, axis, xs.str(), n));
      t = wrap_indices("index", t, n, fmt::format("axis {}", axis));
      start.push_back(0);
      step.push_back(1);
      out.push_back(n);
      r.indices.emplace_back(result.size(), t);
      result.push_back(n);
    }
    ++axis;
  }
  r.y = strided_slice(x, start, step, out).reshape(result);  // only extents of 1 move
  if (!flips.empty()) r.y = r.y.flip(Axes(flips));
  return r;
}

template <class Tn>
Tn strided_update(const Tn& x, const Shape& start, const Shape& step, const Shape& out,
                  const Tn& v);

/// The gradients of strided_update: g with the region zeroed for x, g's region for v.
template <class Tn>
struct strided_update_rule : takes<Tn, 2> {
  Shape start, step, out;
  std::tuple<Tn, Tn> operator()(const Tn& g, const Tn&, const Tn&, const Tn& v) const {
    return {strided_update(g, start, step, out, v.zeros_like()),
            strided_slice(g, start, step, out)};
  }
};

/// A copy of x with v (extents `out`) written at x[start[d] + k * step[d]] (step >= 1), on a
/// backend whose tensors live in host memory: differentiable.
template <class Tn>
Tn strided_update(const Tn& x, const Shape& start, const Shape& step, const Shape& out,
                  const Tn& v) {
  return make_result<Tn>(
      [&] { return lazy_engine<typename Tn::backend_type>::update(x, start, step, out, v); },
      strided_update_rule<Tn>{{}, start, step, out}, x, v);
}

/// index_update by integers and slices of positive step only (no new axes, index tensors or
/// masks): a copy of x with the values written into the strided region, where the general path
/// scatters them by positions. std::nullopt for other indices.
template <class B>
std::optional<Tensor<B>> basic_update(const Tensor<B>& x, std::vector<index_item<B>> items,
                                      const Tensor<B>& values) {
  using K = typename index_item<B>::item_kind;
  for (const auto& it : items)
    if (it.kind != K::integer && it.kind != K::slice && it.kind != K::ellipsis) return std::nullopt;
  const Shape xs = x.shape();
  const auto full = complete_index(std::move(items), xs);
  Shape start, step, out, selection;
  for (int axis = 0; axis < xs.size(); ++axis) {
    const auto& it = full[static_cast<std::size_t>(axis)];
    const std::int64_t n = xs[axis];
    if (it.kind == K::integer) {
      std::int64_t i = it.integer;
      if (i < -n || i >= n) return std::nullopt;  // the general path throws
      start.push_back(i < 0 ? i + n : i);
      step.push_back(1);
      out.push_back(1);
    } else {
      auto [first, st, count] = slice_indices(it.slice, n);
      if (st <= 0) return std::nullopt;
      start.push_back(count > 0 ? first : 0);
      step.push_back(st);
      out.push_back(count);
      selection.push_back(count);
    }
  }
  if (!(broadcast_shapes(values.shape(), selection, "index_update") == selection))
    throw value_error(
        fmt::format("index_update: values of shape {} do not broadcast to the selection's shape {}",
                    values.shape().str(), selection.str()));
  Tensor<B> v = values.shape() == out ? values : values.broadcast_to(selection).reshape(out);
  return strided_update(x, start, step, out, v);
}

/// Phase 4, NumPy's advanced indexing of `y` by index tensors (axis, index): broadcast together,
/// gathered with linear indices. The broadcast axes come first, or stay in place where the
/// indexed axes are adjacent (NumPy's rule).
template <class B>
Tensor<B> advanced_index(const basic_indexed<B>& basic) {
  using I64 = typename index_item<B>::index_tensor;
  const Tensor<B>& y = basic.y;
  const auto& tensors = basic.indices;
  const Shape result = y.shape();
  Shape bshape = tensors.front().second.shape();
  for (const auto& [a, t] : tensors) bshape = broadcast_shapes(bshape, t.shape(), "index");
  bool adjacent = true;
  for (std::size_t j = 1; j < tensors.size(); ++j)
    adjacent = adjacent && tensors[j].first == tensors[j - 1].first + 1;
  // Move the indexed axes to the front, in order.
  std::vector<int> perm, others;
  for (const auto& [a, t] : tensors) perm.push_back(a);
  for (int a = 0; a < result.size(); ++a)
    if (std::find(perm.begin(), perm.end(), a) == perm.end()) others.push_back(a);
  std::vector<int> order = perm;
  order.insert(order.end(), others.begin(), others.end());
  const Tensor<B> moved = y.transpose(order);
  std::int64_t other_size = 1;
  Shape other_shape;
  for (int a : others) {
    other_size *= result[a];
    other_shape.push_back(result[a]);
  }
  I64 lin = tensors.front().second.zeros(bshape);
  for (const auto& [a, t] : tensors) lin = lin * result[a] + t.broadcast_to(bshape);
  Shape lin_shape = bshape;
  for (int j = 0; j < other_shape.size(); ++j) lin_shape.push_back(1);
  I64 full_lin = lin.reshape(lin_shape) * other_size +
                 I64(I64::backend_type::arange(0, 1, other_size))
                     .reshape(other_shape.size() ? other_shape : Shape{});
  Tensor<B> r = take_flat(moved.reshape({-1}), full_lin);
  Shape r_shape = bshape;
  for (auto d : other_shape) r_shape.push_back(d);
  r = r.reshape(r_shape);
  if (adjacent && tensors.front().first > 0) {  // NumPy: adjacent index tensors keep their place
    const int p = tensors.front().first, nb = bshape.size();
    std::vector<int> back;
    for (int j = 0; j < p; ++j) back.push_back(nb + j);
    for (int j = 0; j < nb; ++j) back.push_back(j);
    for (int j = nb + p; j < r_shape.size(); ++j) back.push_back(j);
    r = r.transpose(back);
  }
  return r;
}

/// NumPy's indexing of `x` by `items`, in four phases.
template <class B>
Tensor<B> get_index(const Tensor<B>& x, std::vector<index_item<B>> items) {
  const auto full = complete_index(expand_masks(std::move(items)), x.shape());
  const basic_indexed<B> basic = basic_index(x, full);
  if (basic.indices.empty()) return basic.y;
  return advanced_index(basic);
}

}  // namespace detail

template <backend B>
template <class... I>
Tensor<B> Tensor<B>::operator()(const I&... items) const {
  return detail::get_index(*this,
                           std::vector<detail::index_item<B>>{detail::to_index_item<B>(items)...});
}

template <backend B>
template <class... I>
Tensor<B> Tensor<B>::index_update(const std::tuple<I...>& indices, const Tensor& values) const {
  if constexpr (detail::blocked_backend<B>) {
    auto items = std::apply(
        [](const auto&... i) {
          return std::vector<detail::index_item<B>>{detail::to_index_item<B>(i)...};
        },
        indices);
    if (auto r = detail::basic_update(*this, std::move(items), values)) return std::move(*r);
  }
  // The positions that the index selects, found by indexing the positions tensor the same way.
  const auto lin =
      std::apply([&](const auto&... items) { return detail::positions(*this)(items...); }, indices);
  if (!(broadcast_shapes(values.shape(), lin.shape(), "index_update") == lin.shape()))
    throw value_error(
        fmt::format("index_update: values of shape {} do not broadcast to the selection's shape {}",
                    values.shape().str(), lin.shape().str()));
  const Tensor v = values.broadcast_to(lin.shape());
  return detail::put_flat(reshape({-1}), lin.reshape({-1}), v.reshape({-1})).reshape(shape());
}

template <backend B>
template <class... I>
Tensor<B> Tensor<B>::index_update(const std::tuple<I...>& indices, value_type value) const {
  return index_update(indices, full_scalar(value));
}

template <backend B>
auto Tensor<B>::argsort(int axis) const -> index_tensor {
  static_assert(
      !complex_dtype<value_type>,
      "ep::argsort: complex numbers have no order; compare real(), imag() or abs() instead");
  const int a = detail::normalize_axis("argsort", axis, shape());
  return index_tensor(B::argsort(raw(), a));
}

template <backend B>
template <class I>
Tensor<B> Tensor<B>::take_along_axis(const Tensor<I>& index, int axis) const {
  static_assert(std::same_as<I, typename B::template rebind<std::int64_t>>,
                "ep::take_along_axis: the index must be an int64 tensor of the same backend");
  const Shape s = shape();
  const Shape is = index.shape();
  const int a = detail::normalize_axis("take_along_axis", axis, s);
  if (is.size() != s.size())
    throw value_error(
        fmt::format("take_along_axis: index of shape {} for a tensor of shape {}; expected the "
                    "same number of axes",
                    is.str(), s.str()));
  Shape s1 = s, is1 = is;  // the other axes broadcast; the axis itself is the index's
  s1[a] = 1;
  is1[a] = 1;
  Shape target = broadcast_shapes(s1, is1, "take_along_axis");
  target[a] = is[a];
  Shape xs_b = target;
  xs_b[a] = s[a];
  const Tensor xb = broadcast_to(xs_b);
  const auto idx = detail::wrap_indices("take_along_axis", index.broadcast_to(target), s[a],
                                        fmt::format("axis {}", a));
  const Shape strides = strides_of(xs_b);
  auto lin = idx * strides[a];
  for (int j = 0; j < target.size(); ++j) {
    if (j == a) continue;
    Shape one;
    for (int k = 0; k < target.size(); ++k) one.push_back(k == j ? target[j] : 1);
    lin = lin + Tensor<I>(I::arange(0, 1, target[j])).reshape(one) * strides[j];
  }
  return detail::take_flat(xb.reshape({-1}), lin);
}

namespace detail {
/// d sort(x) = take_along_axis(dx, argsort(x)): g scattered back to where each element came from.
template <class Tn>
struct sort_rule : takes<Tn> {
  int axis;
  Tn operator()(const Tn& g, const Tn&, const Tn& x) const {
    const auto perm = x.argsort(axis);
    const auto order = positions(x).take_along_axis(perm, axis);
    return put_add_flat(x.zeros_like().reshape({-1}), order.reshape({-1}), g.reshape({-1}))
        .reshape(x.shape());
  }
};
}  // namespace detail

template <backend B>
Tensor<B> Tensor<B>::sort(int axis) const {
  static_assert(!complex_dtype<value_type>,
                "ep::sort: complex numbers have no order; compare real(), imag() or abs() instead");
  const int a = detail::normalize_axis("sort", axis, shape());
  return detail::make_result<Tensor>([&] { return B::sort(raw(), a); },
                                     detail::sort_rule<Tensor>{{}, a}, *this);
}

template <backend B>
auto Tensor<B>::topk(std::int64_t k, bool sorted, int axis) const
    -> std::pair<Tensor, index_tensor> {
  static_assert(!complex_dtype<value_type>,
                "ep::topk: complex numbers have no order; compare real(), imag() or abs() instead");
  (void)sorted;  // the k values always come sorted, largest first
  const Shape s = shape();
  const int a = detail::normalize_axis("topk", axis, s);
  if (k < 0 || k > s[a])
    throw value_error(
        fmt::format("topk: k = {} for axis {} of extent {} (shape {}); expected 0 <= k <= {}", k, a,
                    s[a], s.str(), s[a]));
  // Descending and stable: sort ascending the reversed axis, take the last k, reverse again.
  const Tensor flipped = flip(a);
  auto order = flipped.argsort(a);
  Shape start, step, out = s;
  for (int j = 0; j < s.size(); ++j) {
    start.push_back(j == a ? s[a] - k : 0);
    step.push_back(1);
  }
  out[a] = k;
  order = detail::strided_slice(order, start, step, out).flip(a);
  const auto idx = (order * -1) + (s[a] - 1);  // positions in the unflipped axis
  return {take_along_axis(idx, a), idx};
}

/// The extent of the first axis (Python's `len`); throws for a 0-d tensor.
template <backend B>
std::int64_t len(const Tensor<B>& t) {
  const Shape s = t.shape();
  if (s.size() == 0) throw value_error("len: a 0-d tensor has no length; expected rank >= 1");
  return s[0];
}

}  // namespace ep
