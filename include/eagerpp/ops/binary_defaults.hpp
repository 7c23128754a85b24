// eagerpp - ep::binary_defaults: every primitive of the binary functions' table for a backend that
// zips a scalar function over two broadcast operands
// SPDX-License-Identifier: MIT
#pragma once

#include "eagerpp/detail/numpy_math.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/ops/binary_list.hpp"

namespace ep {

/// The SCALAR rows of EAGERPP_BINARY_FUNCTIONS (ops/binary_list.hpp) from one function of the
/// backend: a backend `Backend` (raw type R, dtype T) derives from `binary_defaults<Backend, R, T>`
/// and defines
///
///   template <class F> static R zip_elements(const R& a, const R& b, F f, const char* op);
///
/// which applies the scalar functor `f` (callable in host code, and in device code on a device
/// backend) to the elements of a and b, broadcast together (the facade has checked that they
/// broadcast); `op` names the op for the backend's errors. Each row's `B::name(a, b)` is then
/// `zip_elements(a, b, detail::numpy::name_fn{}, "name")`, for the dtypes the row names. A backend
/// declares its own `name` only where its library computes the op better; that declaration hides
/// the default, as for ep::unary_defaults.
template <class Backend, class R, class T>
struct binary_defaults {
#define EAGERPP_BINARY_DTYPES_FLOAT floating_dtype<T>
#define EAGERPP_BINARY_DEFAULT_SCALAR(name, dtypes, ...)                          \
  static R name(const R& a, const R& b) requires EAGERPP_BINARY_DTYPES_##dtypes { \
    return Backend::zip_elements(a, b, detail::numpy::name##_fn{}, #name);        \
  }
#define EAGERPP_BINARY_DEFAULT_COMPOSITE(name, dtypes, ...)
#define EAGERPP_BINARY_DEFAULT(name, dtypes, value, grad) \
  EAGERPP_BINARY_BY_VALUE(EAGERPP_BINARY_DEFAULT, name, dtypes, value)
  EAGERPP_BINARY_FUNCTIONS(EAGERPP_BINARY_DEFAULT)
#undef EAGERPP_BINARY_DEFAULT
#undef EAGERPP_BINARY_DEFAULT_COMPOSITE
#undef EAGERPP_BINARY_DEFAULT_SCALAR
#undef EAGERPP_BINARY_DTYPES_FLOAT
};

}  // namespace ep
