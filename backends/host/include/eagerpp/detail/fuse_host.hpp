// eagerpp - the host backends' evaluation of ep::fuse (include/eagerpp/fuse.hpp): one output buffer, the
// inputs' C-order elements, one pass with the backend's packet policy, on its threads if it has
// them
// SPDX-License-Identifier: MIT
#pragma once

#include <array>    // std::array
#include <cstdint>  // std::int64_t
#include <memory>   // std::shared_ptr

#include "eagerpp/detail/fused_value.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"

namespace ep::detail::fuse {

/// What `B::fused_map(f, shape, raw...)` returns: f over the elements of the raw tensors, each of
/// `shape` (the facade broadcasts them first), into a new buffer, with packets of Ops and the
/// scalar policy for the rest. A backend with `parallel_blocks` (ep::omp) splits the elements
/// among its threads from `parallel_from` elements on.
template <class B, class Ops, class F, class... Raw>
typename B::raw_type host_fused_map(const F& f, const Shape& shape, const Raw&... xs) {
  using T = typename B::value_type;
  constexpr std::int64_t parallel_from = 32768;
  const std::int64_t n = shape.numel();
  std::shared_ptr<T> out = allocate_storage<T>(static_cast<std::size_t>(n));
  const std::array<std::shared_ptr<T>, sizeof...(Raw)> keep{B::share_host(xs)...};
  std::array<const T*, sizeof...(Raw)> in{};
  for (std::size_t k = 0; k < keep.size(); ++k) in[k] = keep[k].get();
  const auto run = [&](std::int64_t lo, std::int64_t hi) {
    run_range<Ops>(f, out.get(), in, lo, hi);
  };
  if constexpr (requires { B::parallel_blocks(n, run); }) {
    if (n >= parallel_from) {
      B::parallel_blocks(n, run);
      return B::from_host_shared(out, shape);
    }
  }
  run(0, n);
  return B::from_host_shared(out, shape);
}

}  // namespace ep::detail::fuse
