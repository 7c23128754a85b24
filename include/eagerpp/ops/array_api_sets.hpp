// eagerpp - the array API's sorting, searching and set functions: argsort, sort, searchsorted,
// nonzero, unique_all, unique_counts, unique_inverse, unique_values and isin (included by
// ops/array_api.hpp)
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::binary_search, std::lower_bound, std::upper_bound, std::sort,
                        // std::stable_sort, std::unique, std::reverse
#include <cmath>        // std::isnan
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t, std::uint8_t
#include <numeric>      // std::iota
#include <optional>     // std::optional, std::nullopt
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_floating_point_v, std::is_same_v
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/axes.hpp"
#include "eagerpp/detail/numpy_math.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/functions.hpp"
#include "eagerpp/ops/array_api_manipulation.hpp"
#include "eagerpp/ops/shape.hpp"
#include "eagerpp/tensor.hpp"

namespace ep {

/// The keyword arguments of sort and argsort (array API: `axis=-1, descending=False,
/// stable=True`): `ep::sort(x, {.axis = 0, .descending = true})`. Sorts are always stable.
struct sort_options {
  int axis = -1;
  bool descending = false;
  bool stable = true;
};

/// The indices that sort x along an axis (array API: `argsort`); descending keeps equal elements
/// in their order (stable) and puts NaN first, the ascending order's NaN-last reversed.
template <backend B>
auto argsort(const Tensor<B>& x, sort_options options) {
  const int a = x.ndim() == 0 ? 0 : detail::normalize_axis("argsort", options.axis, x.shape());
  if (!options.descending || x.ndim() == 0) return x.argsort(a);
  // The stable ascending order of x reversed along the axis, read back to front: equal elements
  // keep their order.
  const std::int64_t n = x.shape()[static_cast<std::size_t>(a)];
  return (n - 1) - x.flip(a).argsort(a).flip(a);
}

/// x sorted along an axis (array API: `sort`), descending as argsort's.
template <backend B>
Tensor<B> sort(const Tensor<B>& x, sort_options options) {
  const int a = x.ndim() == 0 ? 0 : detail::normalize_axis("sort", options.axis, x.shape());
  if (!options.descending || x.ndim() == 0) return x.sort(a);
  return x.sort(a).flip(a);
}

namespace detail {

template <class B>
using index_of = Tensor<typename B::template rebind<std::int64_t>>;
}  // namespace detail

/// For each element of x2, the index where it would be inserted into the sorted 1-D x1 to keep
/// it sorted (array API: `searchsorted`): side "left" before equal elements, "right" after;
/// `sorter`: int64 indices that sort x1. NaN sorts last. The search runs on the host.
template <backend B>
detail::index_of<B> searchsorted(const Tensor<B>& x1, const Tensor<B>& x2,
                                 std::string_view side = "left",
                                 const std::optional<detail::index_of<B>>& sorter = std::nullopt) {
  if (x1.ndim() != 1)
    throw value_error(
        fmt::format("searchsorted: x1 has shape {}; expected a 1-D tensor", x1.shape().str()));
  if (side != "left" && side != "right")
    throw value_error(
        fmt::format("searchsorted: side \"{}\" is unknown; expected \"left\" or \"right\"", side));
  if (sorter && sorter->shape() != x1.shape())
    throw value_error(fmt::format("searchsorted: sorter has shape {}; expected x1's shape {}",
                                  sorter->shape().str(), x1.shape().str()));
  const auto sorted = (sorter ? x1[*sorter] : x1).to_vector();
  const auto v = x2.to_vector();
  std::vector<std::int64_t> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto it = side == "left" ? std::lower_bound(sorted.begin(), sorted.end(), v[i],
                                                      detail::numpy::less<typename B::value_type>)
                                   : std::upper_bound(sorted.begin(), sorted.end(), v[i],
                                                      detail::numpy::less<typename B::value_type>);
    out[i] = it - sorted.begin();
  }
  return from_vector<typename B::template rebind<std::int64_t>>(out, x2.shape());
}

namespace detail {

/// Whether B keeps its elements in host memory (the optional `share_host` hook: Eigen, xtensor,
/// omp). There the functions whose result's shape depends on the data (nonzero, unique_*) read
/// the elements once and compute on the host; elsewhere (ep::cuda) they run as the backend's own
/// sorts, scans and gathers (the *_by_ops functions below), and read back one count.
template <class B>
concept host_memory = backend_hooks<B>::share_host;

/// The flat positions of x's non-zero elements, ascending, as the backend's ops compute them: a
/// stable argsort of `x == 0` puts them first, in order; their count is read back.
template <backend B>
index_of<B> nonzero_flat_by_ops(const Tensor<B>& x) {
  using I = typename B::template rebind<std::int64_t>;
  const auto zero = (x.flatten() == typename B::value_type(0)).template astype<std::int64_t>();
  const std::int64_t n = zero.size(), k = n - zero.sum().item();
  if (k == 0) return zeros<I>(Shape{0});
  return zero.argsort(0)(slice(0, k));
}

/// unique_all as the backend's ops compute it: one stable argsort of flattened x, the heads of its
/// runs of equal values (a NaN differs from everything, so each is its own run) from one
/// comparison of neighbours, their ranks by a cumulative sum, and gathers.
template <backend B>
auto unique_all_by_ops(const Tensor<B>& x) {
  using T = typename B::value_type;
  using I = typename B::template rebind<std::int64_t>;
  struct result {
    Tensor<B> values;
    index_of<B> indices, inverse_indices, counts;
  };
  if constexpr (std::is_same_v<T, bool>) {  // as 0 and 1
    auto r = unique_all_by_ops(x.template astype<std::uint8_t>());
    return result{r.values.template astype<bool>(), r.indices, r.inverse_indices, r.counts};
  } else {
    const auto flat = x.flatten();
    const std::int64_t n = flat.size();
    if (n == 0) return result{flat, zeros<I>(Shape{0}), zeros<I>(x.shape()), zeros<I>(Shape{0})};
    const auto perm = flat.argsort(0);
    const auto sorted = flat[perm];
    const auto heads = concatenate(
        {ones<I>(Shape{1}),
         (sorted(slice(1, {})) != sorted(slice({}, -1))).template astype<std::int64_t>()},
        0);
    const auto rank = heads.cumsum() - 1;
    const std::int64_t k = rank(slice(-1, {})).item() + 1;
    const auto starts = (1 - heads).argsort(0)(slice(0, k));
    return result{sorted[starts], perm[starts], rank[perm.argsort(0)].reshape(x.shape()),
                  diff(concatenate({starts, full<I>(Shape{1}, n)}, 0))};
  }
}

}  // namespace detail

/// The indices of x's non-zero (true) elements, one int64 tensor per axis, in C order (array API:
/// `nonzero`); x must have at least one axis. On a host backend computed on the host; on a device
/// backend by its own ops (detail::nonzero_flat_by_ops), the count read back.
template <backend B>
std::vector<detail::index_of<B>> nonzero(const Tensor<B>& x) {
  const Shape s = x.shape();
  if (s.empty()) throw value_error("nonzero: x is 0-d; expected a tensor of at least one axis");
  if constexpr (!detail::host_memory<B>) {
    // C order: the last axis varies fastest, so each axis's index is peeled off from the back.
    auto rest = detail::nonzero_flat_by_ops(x);
    std::vector<detail::index_of<B>> out;
    for (std::size_t d = s.size(); d-- > 0;) {
      out.push_back(rest.mod(s[d]));
      rest = rest.floordiv(s[d]);
    }
    std::reverse(out.begin(), out.end());
    return out;
  }
  const auto v = x.to_vector();
  std::vector<std::vector<std::int64_t>> idx(s.size());
  for (std::size_t flat = 0; flat < v.size(); ++flat) {
    if (v[flat] == typename B::value_type(0)) continue;
    std::size_t rest = flat;
    for (std::size_t d = s.size(); d-- > 0;) {
      idx[d].push_back(static_cast<std::int64_t>(rest % static_cast<std::size_t>(s[d])));
      rest /= static_cast<std::size_t>(s[d]);
    }
  }
  std::vector<detail::index_of<B>> out;
  for (const auto& i : idx)
    out.push_back(from_vector<typename B::template rebind<std::int64_t>>(
        i, Shape{static_cast<std::int64_t>(i.size())}));
  return out;
}

/// What the unique_* functions return, with the array API's field names.
template <class B>
struct unique_all_result {
  Tensor<B> values;
  detail::index_of<B> indices, inverse_indices, counts;
};
template <class B>
struct unique_counts_result {
  Tensor<B> values;
  detail::index_of<B> counts;
};
template <class B>
struct unique_inverse_result {
  Tensor<B> values;
  detail::index_of<B> inverse_indices;
};

/// The distinct elements of x, sorted (array API: `unique_all`), with the index of each one's
/// first occurrence in flattened x, the index into `values` of every element of x (x's shape),
/// and each one's count. As the standard says, every NaN is distinct and +0 equals -0.
/// On a host backend computed on the host by one stable sort; on a device backend by its own ops
/// (detail::unique_all_by_ops).
template <backend B>
unique_all_result<B> unique_all(const Tensor<B>& x) {
  using T = typename B::value_type;
  using I = typename B::template rebind<std::int64_t>;
  if constexpr (!detail::host_memory<B>) {
    auto r = detail::unique_all_by_ops(x);
    return {r.values, r.indices, r.inverse_indices, r.counts};
  }
  const auto v = x.to_vector();
  std::vector<std::int64_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return detail::numpy::less<typename B::value_type>(v[static_cast<std::size_t>(a)],
                                                       v[static_cast<std::size_t>(b)]);
  });
  std::vector<T> values;
  std::vector<std::int64_t> first, counts, inverse(v.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto i = static_cast<std::size_t>(order[k]);
    if (k == 0 || !(v[i] == values.back())) {  // NaN == NaN is false: each NaN its own group
      values.push_back(v[i]);
      first.push_back(order[k]);
      counts.push_back(0);
    }
    ++counts.back();
    inverse[i] = static_cast<std::int64_t>(values.size()) - 1;
  }
  const Shape n{static_cast<std::int64_t>(values.size())};
  return {from_vector<B>(values, n), from_vector<I>(first, n), from_vector<I>(inverse, x.shape()),
          from_vector<I>(counts, n)};
}

/// The distinct elements of x and their counts (array API: `unique_counts`).
template <backend B>
unique_counts_result<B> unique_counts(const Tensor<B>& x) {
  auto r = unique_all(x);
  return {r.values, r.counts};
}

/// The distinct elements of x and the index into them of every element (array API:
/// `unique_inverse`).
template <backend B>
unique_inverse_result<B> unique_inverse(const Tensor<B>& x) {
  auto r = unique_all(x);
  return {r.values, r.inverse_indices};
}

/// The distinct elements of x, sorted (array API: `unique_values`): x's values sorted and their
/// runs of equal ones kept once, with no index bookkeeping (NaNs stay distinct, as in unique_all).
template <backend B>
Tensor<B> unique_values(const Tensor<B>& x) {
  using T = typename B::value_type;
  if constexpr (std::is_same_v<T, bool> || !detail::host_memory<B>) {
    return unique_all(x).values;
  } else {
    auto v = x.to_vector();
    std::sort(v.begin(), v.end(), detail::numpy::less<T>);
    v.erase(std::unique(v.begin(), v.end(), [](T a, T b) { return a == b; }), v.end());
    const Shape n{static_cast<std::int64_t>(v.size())};
    return from_vector<B>(v, n);
  }
}

/// Whether each element of x1 is in x2 (array API 2025.12: `isin`), or is not with `invert`;
/// NaN is in nothing. Computed on the host: x2 sorted once, then a binary search per element.
template <backend B>
Tensor<typename B::template rebind<bool>> isin(const Tensor<B>& x1, const Tensor<B>& x2,
                                               bool invert = false) {
  auto set = x2.to_vector();
  std::sort(set.begin(), set.end(), detail::numpy::less<typename B::value_type>);
  const auto v = x1.to_vector();
  std::vector<bool> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    bool found = false;
    if constexpr (std::is_floating_point_v<typename B::value_type>)
      found = !std::isnan(v[i]) && std::binary_search(set.begin(), set.end(), v[i],
                                                      detail::numpy::less<typename B::value_type>);
    else
      found = std::binary_search(set.begin(), set.end(), v[i]);
    out[i] = found != invert;
  }
  return from_vector<typename B::template rebind<bool>>(out, x1.shape());
}

}  // namespace ep
