// eagerpp - the OpenMP backend: ep::omp<T>, the Thrust backend of ep::cuda run on CPU threads
// SPDX-License-Identifier: MIT
#pragma once

#include <memory>       // std::shared_ptr
#include <string_view>  // std::string_view

#include "eagerpp/omp/system.hpp"  // first: it selects Thrust's OpenMP device system

#include "eagerpp/astensor.hpp"
#include "eagerpp/thrust/backend.hpp"

namespace ep {

/// The OpenMP backend: the same Thrust code as ep::cuda<T> (eagerpp/thrust/backend.hpp), on host
/// memory from eagerpp's caching allocator and CPU threads. Element-wise ops and reductions of at
/// least detail::omp_system::parallel_cutoff elements run on every OpenMP thread (OMP_NUM_THREADS),
/// smaller ones on the calling thread; sort, cumsum and put_add use Thrust's OpenMP algorithms;
/// float and double matmul call OpenBLAS. Every test of ep::omp also tests the code ep::cuda runs.
template <class T>
struct omp : detail::thrust_backend<T, detail::omp_system> {
  static constexpr std::string_view name = "omp";
  using typename detail::thrust_backend<T, detail::omp_system>::raw_type;

  /// Zero-copy exchange with other host backends (see ep::to): the C-order elements, shared.
  static std::shared_ptr<T> share_host(const raw_type& x) { return x.storage().share(); }
  /// Adopts shared C-order host elements.
  static raw_type from_host_shared(std::shared_ptr<T> data, const Shape& shape) {
    return raw_type(buffer<T>(std::move(data)), shape);
  }
};

}  // namespace ep

// Linked with eagerpp::omp_compiled, the float and double instantiations are in its library
// (detail/instantiate.hpp): this translation unit does not compile them again.
#ifdef EAGERPP_OMP_COMPILED
#include "eagerpp/detail/instantiate.hpp"
EAGERPP_INSTANTIATE(extern, ep::omp<float>)
EAGERPP_INSTANTIATE(extern, ep::omp<double>)
#endif
