// eagerpp - ep::xtensor_array, the raw tensor of the xtensor backend, and the views its loops take
// SPDX-License-Identifier: MIT
#pragma once

// xsimd vectorization of xtensor expressions must be switched on before the first xtensor include.
// Defining XTENSOR_USE_XSIMD on the command line (as the eagerpp::xtensor target does) makes the
// order of includes irrelevant; failing that it is defined here, unless xtensor was included
// already without it, where defining it now would mix scalar and xsimd configurations.
#if !defined(XTENSOR_USE_XSIMD) && !defined(XTENSOR_CONFIG_HPP)
#define XTENSOR_USE_XSIMD
#endif

#include <algorithm>    // std::equal
#include <array>        // std::array
#include <cstddef>      // std::size_t, std::ptrdiff_t
#include <cstdint>      // std::int64_t
#include <memory>       // std::shared_ptr
#include <type_traits>  // std::is_same_v
#include <utility>      // std::move

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>

#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"

namespace ep {

/// The native tensor of the xtensor backend: a row-major xtensor adaptor over a shared,
/// 64-byte aligned buffer from ep::allocate_storage, so copies share their elements (O(1)).
/// It takes part in any xtensor expression, e.g. `xt::exp(t.raw()) + 1`.
template <class T>
using xtensor_array =
    xt::xarray_adaptor<xt::xbuffer_adaptor<T*, xt::smart_ownership, std::shared_ptr<T>>,
                       xt::layout_type::row_major, xt::dynamic_shape<std::size_t>>;

namespace detail {

/// An xtensor container (xarray, xtensor) that owns a contiguous uvector of T.
template <class N, class T>
concept xt_owning_container = requires {
  typename N::storage_type::allocator_type;
}
&&std::is_same_v<typename N::value_type, T>&& std::is_same_v<
    typename N::storage_type, xt::uvector<T, typename N::storage_type::allocator_type>>;

namespace xt_kernels {

using shape_type = xt::dynamic_shape<std::size_t>;
using strides = std::array<std::ptrdiff_t, max_rank>;

/// The array of `shape` over the `n` elements `data` shares. Every block of a lazy evaluation
/// makes its views and results through here, so xtensor's container construction (shape, strides
/// and backstrides) is inlined and specialized (gnu::flatten): out of line, it is a visible share
/// of a stencil step on xtensor. One instantiation per dtype.
template <class U>
[[gnu::flatten]] xtensor_array<U> adopt(std::shared_ptr<U> data, std::size_t n,
                                        const std::int64_t* first, const std::int64_t* last) {
  U* p = data.get();
  using buffer = typename xtensor_array<U>::storage_type;
  return xtensor_array<U>(buffer(p, n, std::move(data)), shape_type(first, last));
}

/// An uninitialized row-major array of `shape`, in a buffer from ep::allocate_storage.
template <class U, class S>
xtensor_array<U> empty(const S& shape) {
  const std::size_t n = storage_elements(shape, sizeof(U));  // ep::memory_error past 2^62 bytes
  const Shape extents(shape.begin(), shape.end());
  return adopt<U>(allocate_storage<U>(n), n, extents.begin(), extents.end());
}

/// `n` contiguous elements as a rank-1 adaptor of fixed rank: element-wise ops evaluate over
/// these, since assigning to a dynamic-rank array recomputes and compares its shape and strides,
/// which costs more than the arithmetic on small tensors.
template <class P>
auto flat(P* p, std::size_t n) {
  return xt::adapt(p, n, xt::no_ownership(), std::array<std::size_t, 1>{n});
}

template <class A, class B>
bool same_shape(const A& a, const B& b) {
  return a.dimension() == b.dimension() &&
         std::equal(a.shape().begin(), a.shape().end(), b.shape().begin());
}

template <class A>
Shape shape_of(const A& a) {
  return Shape(a.shape().begin(), a.shape().end());
}

/// Row-major element strides of `shape` (extent-1 dimensions included, unlike xtensor's 0).
inline strides contiguous_strides(const shape_type& shape) {
  strides st{};
  std::ptrdiff_t acc = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    st[i] = acc;
    acc *= static_cast<std::ptrdiff_t>(shape[i]);
  }
  return st;
}

/// Element strides of `x` seen through NumPy broadcasting to rank `r`: 0 along the leading
/// dimensions it lacks and along its extent-1 dimensions.
template <class A>
strides broadcast_strides(const A& x, std::size_t r) {
  strides st{};
  const std::size_t lead = r - x.dimension();
  std::ptrdiff_t acc = 1;
  for (std::size_t i = x.dimension(); i-- > 0;) {
    st[lead + i] = x.shape()[i] == 1 ? 0 : acc;
    acc *= static_cast<std::ptrdiff_t>(x.shape()[i]);
  }
  return st;
}

struct extents {
  std::size_t outer, mid, inner;
};

/// The (outer, middle, inner) element counts of axes [0, first), [first, last), [last, rank).
inline extents split(const shape_type& s, int first, int last) {
  extents e{1, 1, 1};
  for (int i = 0; i < static_cast<int>(s.size()); ++i) {
    const std::size_t d = s[static_cast<std::size_t>(i)];
    (i < first ? e.outer : i < last ? e.mid : e.inner) *= d;
  }
  return e;
}

}  // namespace xt_kernels
}  // namespace detail
}  // namespace ep
