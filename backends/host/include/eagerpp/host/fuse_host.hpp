// eagerpp - the host backends' evaluation of ep::fuse (include/eagerpp/fuse.hpp): one output buffer, the
// inputs' C-order elements, one pass with the backend's packet policy, on its threads if it has
// them
// SPDX-License-Identifier: MIT
#pragma once

#include <array>    // std::array
#include <cstdint>  // std::int64_t
#include <memory>   // std::shared_ptr
#include <utility>  // std::index_sequence

#include "eagerpp/backend_hooks.hpp"  // parallel_blocks_backend
#include "eagerpp/detail/fused_value.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"

namespace ep::detail::fuse {

/// run(lo, hi) over [0, n): on B's threads (`parallel_blocks`, ep::omp) from 32768 elements on,
/// else on the calling thread.
template <class B, class Run>
void split_range(std::int64_t n, const Run& run) {
  constexpr std::int64_t parallel_from = 32768;
  if constexpr (parallel_blocks_backend<B>) {
    if (n >= parallel_from) {
      B::parallel_blocks(n, run);
      return;
    }
  }
  run(std::int64_t{0}, n);
}

/// What `B::fused_map(f, shape, raw...)` returns: f over the elements of the raw tensors, each of
/// `shape` (the facade broadcasts them first), into a new buffer, with packets of Ops and the
/// scalar policy for the rest, split among B's threads by split_range.
template <class B, class Ops, class F, class... Raw>
typename B::raw_type host_fused_map(const F& f, const Shape& shape, const Raw&... xs) {
  using T = typename B::value_type;
  const std::int64_t n = shape.numel();
  std::shared_ptr<T> out = allocate_storage<T>(static_cast<std::size_t>(n));
  const std::array<std::shared_ptr<T>, sizeof...(Raw)> keep{B::share_host(xs)...};
  std::array<const T*, sizeof...(Raw)> in{};
  for (std::size_t k = 0; k < keep.size(); ++k) in[k] = keep[k].get();
  const auto run = [&](std::int64_t lo, std::int64_t hi) {
    run_range<Ops>(f, out.get(), in, lo, hi);
  };
  split_range<B>(n, run);
  return B::from_host_shared(out, shape);
}

/// What `B::fused_grad(f, shape, g, raw...)` returns: for each input k, g * df/dx_k over `shape`
/// (every raw tensor of that shape), in one pass (run_range_grad), split by split_range.
template <class B, class Ops, class F, class... Raw>
std::array<typename B::raw_type, sizeof...(Raw)> host_fused_grad(const F& f, const Shape& shape,
                                                                 const typename B::raw_type& g,
                                                                 const Raw&... xs) {
  using T = typename B::value_type;
  constexpr std::size_t n_in = sizeof...(Raw);
  const std::int64_t n = shape.numel();
  std::array<std::shared_ptr<T>, n_in> outs;
  std::array<T*, n_in> out{};
  for (std::size_t k = 0; k < n_in; ++k) {
    outs[k] = allocate_storage<T>(static_cast<std::size_t>(n));
    out[k] = outs[k].get();
  }
  const std::shared_ptr<T> gs = B::share_host(g);
  const std::array<std::shared_ptr<T>, n_in> keep{B::share_host(xs)...};
  std::array<const T*, n_in> in{};
  for (std::size_t k = 0; k < n_in; ++k) in[k] = keep[k].get();
  const auto run = [&](std::int64_t lo, std::int64_t hi) {
    run_range_grad<Ops>(f, gs.get(), in, out, lo, hi);
  };
  split_range<B>(n, run);
  return [&]<std::size_t... K>(std::index_sequence<K...>) {
    return std::array<typename B::raw_type, n_in>{B::from_host_shared(outs[K], shape)...};
  }
  (std::make_index_sequence<n_in>{});
}

}  // namespace ep::detail::fuse
