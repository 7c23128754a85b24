// eagerpp - ep::to<Backend>(t): a tensor moved to another backend, shared where both are on the
// host
// SPDX-License-Identifier: MIT
#pragma once

#include <concepts>     // std::same_as
#include <cstddef>      // std::size_t
#include <memory>       // std::unique_ptr, std::shared_ptr
#include <type_traits>  // std::is_same_v

#include "eagerpp/backend.hpp"
#include "eagerpp/backend_hooks.hpp"
#include "eagerpp/tensor.hpp"

namespace ep {

/// Whether B1 can hand its C-order host elements to B2 without copying them: both have the optional
/// hooks `share_host(raw) -> std::shared_ptr<T>` and `from_host_shared(std::shared_ptr<T>, shape)`
/// (Eigen, xtensor and omp do; tensors are immutable, so sharing is safe).
template <class B1, class B2>
concept shares_host_memory =
    detail::backend_hooks<B1>::share_host && detail::backend_hooks<B2>::from_host_shared;

/// The elements of `t` on backend B2, which must hold the same dtype (e.g.
/// `ep::to<ep::cuda<float>>(x)` for an `ep::eigen<float>` x). Between host backends that share
/// memory (Eigen, xtensor and omp) the result shares `t`'s elements: O(1), no copy (a one-element
/// Eigen tensor, which holds its element inline, is copied). Otherwise copies through host memory
/// with `to_data` and `from_data`, so it works between any two backends; the same backend returns
/// `t` itself (O(1)). Not recorded on the tape: the result is a constant. Throws what the backends
/// throw (ep::device_error without a GPU).
template <backend B2, backend B1>
Tensor<B2> to(const Tensor<B1>& t) {
  using T = typename B1::value_type;
  static_assert(std::is_same_v<typename B2::value_type, T>,
                "ep::to<Backend>(t): the target backend must hold the tensor's dtype; convert with "
                "t.astype<U>() first, or name the backend without a dtype: ep::to<ep::cuda>(t)");
  if constexpr (std::is_same_v<B1, B2>) {
    return t;
  } else if constexpr (shares_host_memory<B1, B2>) {
    return Tensor<B2>(B2::from_host_shared(B1::share_host(t.raw()), t.shape()));
  } else {
    const Shape shape = t.shape();
    const auto n = static_cast<std::size_t>(shape.numel());
    std::unique_ptr<T[]> host(
        new T[n == 0 ? 1 : n]);  // not std::vector: vector<bool> has no data()
    B1::to_data(t.raw(), host.get());
    return Tensor<B2>(B2::from_data(host.get(), shape));
  }
}

/// `t` on the backend family `Backend` with the same dtype: `ep::to<ep::cuda>(x)`.
template <template <class> class Backend, backend B1>
requires backend<Backend<typename B1::value_type>> Tensor<Backend<typename B1::value_type>> to(
    const Tensor<B1>& t) {
  return ep::to<Backend<typename B1::value_type>>(t);
}

template <backend B>
template <backend B2>
Tensor<B2> Tensor<B>::to() const {
  return ep::to<B2>(*this);
}

}  // namespace ep
