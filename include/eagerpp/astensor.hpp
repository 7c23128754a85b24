// eagerpp - conversion between native tensors and ep::Tensor: astensor, astensors, astensor_
// SPDX-License-Identifier: MIT
#pragma once

#include <tuple>        // std::tuple
#include <type_traits>  // std::remove_cvref_t
#include <utility>      // std::forward, std::pair

#include "eagerpp/tensor.hpp"

namespace ep {

/// Maps a native tensor type to its backend. Disabled for unknown types; each backend header
/// specializes it for its natives with `using backend = ...;` and
/// `static typename backend::raw_type convert(Native&&)` (or `const Native&`).
template <class Native>
struct native_traits;

/// A type that some included backend wraps.
template <class N>
concept native_tensor = requires {
  typename native_traits<std::remove_cvref_t<N>>::backend;
};

/// Whether `T` is an `ep::Tensor` (EagerPy: `istensor`); detail::is_tensor is in functions.hpp.
template <class T>
inline constexpr bool istensor = detail::is_tensor<std::remove_cvref_t<T>>;

/// Wraps a native tensor in an `ep::Tensor` of its backend; an `ep::Tensor` comes back unchanged.
/// Moving a native tensor in copies no data (EagerPy: `astensor`).
template <class N>
auto astensor(N&& x) {
  using D = std::remove_cvref_t<N>;
  if constexpr (istensor<D>) {
    return D(std::forward<N>(x));
  } else if constexpr (native_tensor<D>) {
    using B = typename native_traits<D>::backend;
    return Tensor<B>(native_traits<D>::convert(std::forward<N>(x)));
  } else {
    static_assert(detail::always_false<N>,
                  "ep::astensor: no backend wraps this native type; include its backend header, "
                  "e.g. <eagerpp/eigen.hpp>");
  }
}

/// `astensor` of each argument, as a tuple (EagerPy: `astensors`).
template <class... N>
auto astensors(N&&... xs) {
  return std::tuple{astensor(std::forward<N>(xs))...};
}

/// The tensor and a `restore` callable that turns a result back into the kind of the input:
/// native in, native out; `ep::Tensor` in, `ep::Tensor` out (EagerPy: `astensor_`).
template <class N>
auto astensor_(N&& x) {
  constexpr bool was_tensor = istensor<N>;
  auto restore = [](const auto& y) {
    if constexpr (was_tensor) {
      return y;
    } else {
      return y.raw();
    }
  };
  return std::pair{astensor(std::forward<N>(x)), restore};
}

namespace detail {
template <class A>
decltype(auto) as_tensor_arg(A&& a) {
  if constexpr (native_tensor<A>) {
    return astensor(std::forward<A>(a));
  } else {
    return std::forward<A>(a);
  }
}
template <class R>
auto restore_result(R&& r) {
  if constexpr (istensor<R>) {
    return r.raw();
  } else {
    return std::forward<R>(r);
  }
}
}  // namespace detail

/// Wraps a generic function so that it takes native tensors of any backend and returns natives of
/// the same kind (EagerPy's requested `eager_function`, its issue #34): native arguments become
/// `ep::Tensor`s, other arguments pass through; an `ep::Tensor` result becomes native again when
/// the first argument was native. Results that are std::pair or std::tuple are restored
/// element-wise.
template <class F>
auto eager_function(F f) {
  return [f](auto&&... args) {
    using First = std::tuple_element_t<0, std::tuple<std::remove_cvref_t<decltype(args)>...>>;
    auto result = f(detail::as_tensor_arg(std::forward<decltype(args)>(args))...);
    if constexpr (istensor<First>) {
      return result;
    } else if constexpr (requires { std::tuple_size<decltype(result)>::value; }) {
      return std::apply([](auto&&... rs) { return std::tuple{detail::restore_result(rs)...}; },
                        std::move(result));
    } else {
      return detail::restore_result(std::move(result));
    }
  };
}

/// `astensor` of each argument and one `restore` for a result of the same kind as the inputs
/// (EagerPy: `astensors_`): all natives, or all `ep::Tensor`s. `restore` takes one result, or
/// several and gives a tuple.
template <class... N>
auto astensors_(N&&... xs) {
  static_assert(sizeof...(N) > 0, "ep::astensors_: needs at least one tensor");
  constexpr bool all_tensors = (istensor<N> && ...);
  static_assert(all_tensors || (!istensor<N> && ...),
                "ep::astensors_: the arguments must be all native tensors or all ep::Tensors, so "
                "that one restore fits them");
  auto restore = [](const auto&... ys) {
    if constexpr (sizeof...(ys) == 1) {
      if constexpr (all_tensors)
        return (ys, ...);
      else
        return (ys.raw(), ...);
    } else {
      if constexpr (all_tensors)
        return std::tuple{ys...};
      else
        return std::tuple{ys.raw()...};
    }
  };
  return std::pair{astensors(std::forward<N>(xs)...), restore};
}

}  // namespace ep
