// eagerpp - the Thrust backends' gather/scatter (take, put, put_add) and sort/argsort, written
// once over the system (its contract: eagerpp/thrust/system.hpp)
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>      // std::int64_t
#include <string_view>  // std::string_view
#include <type_traits>  // std::conditional_t

#include <thrust/gather.h>                         // thrust::gather
#include <thrust/iterator/permutation_iterator.h>  // thrust::make_permutation_iterator
#include <thrust/reduce.h>                         // thrust::reduce_by_key
#include <thrust/sort.h>  // thrust::stable_sort, thrust::stable_sort_by_key

#include "eagerpp/shape.hpp"
#include "eagerpp/thrust/kernels.hpp"

namespace ep::detail {

// --- indexing: take, put, put_add
// -----------------------------------------------------------------

/// out = x[index] (thrust::gather); x is 1-D, the indices are in range.
template <class S, class T>
thrust_array<S, T> thrust_take(const thrust_array<S, T>& x,
                               const thrust_array<S, std::int64_t>& index, std::string_view name) {
  thrust_array<S, T> out(index.shape(), name);
  const std::int64_t n = index.size();
  if (n > 0)
    S::guard(name, [&] {
      thrust::gather(S::policy(), index.data(), index.data() + n, x.data(), out.mutable_data());
    });
  return out;
}

/// After a stable sort of the indices: position i of each run of equal indices that is last (the
/// last write in the original order) writes x[key] = values[pos].
template <class T>
struct put_last_fn {
  const std::int64_t* keys;
  const std::int64_t* pos;
  const T* values;
  T* x;
  std::int64_t n;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t i) const {
    if (i + 1 == n || keys[i] != keys[i + 1]) x[keys[i]] = values[pos[i]];
  }
};
template <class T>
struct add_at_fn {
  const std::int64_t* keys;
  const T* sums;
  T* x;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t i) const {
    x[keys[i]] = static_cast<T>(x[keys[i]] + sums[i]);
  }
};
struct iota_fn {
  std::int64_t* out;
  EAGERPP_HOST_DEVICE void operator()(std::int64_t i) const { out[i] = i; }
};

/// A copy of x with x[index[i]] = values[i] (Add: +=), deterministic with repeated indices: the
/// indices are stably sorted with their positions, then put keeps the last write of each run and
/// put_add adds each run's sum (thrust::reduce_by_key), so no two threads touch one element.
template <bool Add, class S, class T>
thrust_array<S, T> thrust_put(const thrust_array<S, T>& x,
                              const thrust_array<S, std::int64_t>& index,
                              const thrust_array<S, T>& values, std::string_view name) {
  thrust_array<S, T> out(x.shape(), name);
  if (x.size() > 0) S::copy(out.mutable_data(), x.data(), x.size(), copy_kind::within, name);
  const std::int64_t n = index.size();
  if (n == 0) return out;
  thrust_array<S, std::int64_t> keys(Shape(n), name);
  thrust_array<S, std::int64_t> pos(Shape(n), name);
  std::int64_t* k = keys.mutable_data();
  std::int64_t* p = pos.mutable_data();
  S::copy(k, index.data(), n, copy_kind::within, name);
  S::guard(name, [&] {
    S::for_n(n, iota_fn{p});
    thrust::stable_sort_by_key(S::policy(), k, k + n, p);
    if constexpr (!Add) {
      S::for_n(n, put_last_fn<T>{k, p, values.data(), out.mutable_data(), n});
    } else {
      thrust_array<S, std::int64_t> unique(Shape(n), name);
      thrust_array<S, T> sums(Shape(n), name);
      const auto in = thrust::make_permutation_iterator(values.data(), p);
      const auto ends = thrust::reduce_by_key(S::policy(), k, k + n, in, unique.mutable_data(),
                                              sums.mutable_data());
      const std::int64_t m = ends.first - unique.mutable_data();
      S::for_n(m, add_at_fn<T>{unique.data(), sums.data(), out.mutable_data()});
    }
  });
  return out;
}

// --- sorting
// ----------------------------------------------------------------------------------------

/// NumPy's order within each run of n elements: ascending, NaN last; runs stay in order.
template <class T>
struct segment_less_fn {
  const T* x;
  std::int64_t n;
  EAGERPP_HOST_DEVICE bool operator()(std::int64_t a, std::int64_t b) const {
    const std::int64_t sa = a / n;
    const std::int64_t sb = b / n;
    if (sa != sb) return sa < sb;
    const T u = x[a];
    const T v = x[b];
    if (thrust_fn::is_nan(u)) return false;
    if (thrust_fn::is_nan(v)) return true;
    return u < v;
  }
};
template <class T>
struct modulo_fn {
  const std::int64_t* order;
  std::int64_t n;
  EAGERPP_HOST_DEVICE std::int64_t operator()(std::int64_t i) const { return order[i] % n; }
};
template <class T>
struct gather_fn {
  const std::int64_t* order;
  const T* x;
  EAGERPP_HOST_DEVICE T operator()(std::int64_t i) const { return x[order[i]]; }
};

/// sort (Arg = false) or argsort (Arg = true) along `axis`: the axis is made last, the positions
/// 0..N-1 are stably sorted by (run, value), then gathered (sort) or taken modulo the run
/// (argsort).
template <bool Arg, class S, class T>
auto thrust_sort(const thrust_array<S, T>& x, int axis, std::string_view name) {
  using Out = std::conditional_t<Arg, std::int64_t, T>;
  const axis_split sp = split_at(x.shape(), axis, axis);
  if (x.size() == 0) return thrust_array<S, Out>(x.shape(), name);
  const thrust_array<S, T> src =
      sp.inner == 1 ? x : thrust_swap_last<S, T>(x, sp.outer, sp.reduced, sp.inner, name);
  const std::int64_t n = x.size();
  thrust_array<S, std::int64_t> order(Shape(n), name);
  std::int64_t* o = order.mutable_data();
  thrust_array<S, Out> sorted(src.shape(), name);
  S::guard(name, [&] {
    S::for_n(n, iota_fn{o});
    thrust::stable_sort(S::policy(), o, o + n, segment_less_fn<T>{src.data(), sp.reduced});
    if constexpr (Arg)
      S::write_n(n, sorted.mutable_data(), modulo_fn<T>{o, sp.reduced});
    else
      S::write_n(n, sorted.mutable_data(), gather_fn<T>{o, src.data()});
  });
  if (sp.inner == 1) return sorted;
  return thrust_array<S, Out>(
      thrust_swap_last<S, Out>(sorted, sp.outer, sp.inner, sp.reduced, name).storage(), x.shape());
}

}  // namespace ep::detail
