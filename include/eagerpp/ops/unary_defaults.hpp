// eagerpp - ep::unary_defaults: every op of the unary table for a backend that maps a scalar
// function over its elements
// SPDX-License-Identifier: MIT
#pragma once

#include "eagerpp/detail/numpy_math.hpp"
#include "eagerpp/fwd.hpp"
#include "eagerpp/ops/unary_list.hpp"

namespace ep {

/// The unary ops of the table (ops/unary_list.hpp) from one function of the backend: a backend
/// `Backend` (raw type R, dtype T) derives from `unary_defaults<Backend, R, T>` and defines
///
///   template <class F> static auto map_elements(const R& x, F f, const char* op);
///
/// which applies the scalar functor `f` (callable in host code, and in device code on a device
/// backend) to every element of x, into a raw array of f's result type (R where f maps T to T;
/// `real` of a complex64 tensor gives its rebind<float>'s raw type); `op` names the op for the
/// backend's errors. Each row's
/// `B::name(x)` is then `map_elements(x, detail::numpy::name_fn{}, "name")`, for the dtypes the
/// row names (the real ones: complex tensors map the scalar through `map_elements` in the facade).
/// A backend declares its own `name` only where its library computes the op better (a
/// vectorized version): that declaration hides the default. So a new row of the table works on
/// every such backend with no backend code.
template <class Backend, class R, class T>
struct unary_defaults {
#define EAGERPP_UNARY_DTYPES_FLOAT floating_dtype<T>
#define EAGERPP_UNARY_DTYPES_NUMERIC numeric_dtype<T>
#define EAGERPP_UNARY_DTYPES_INEXACT floating_dtype<T>
#define EAGERPP_UNARY_DTYPES_ARITHMETIC numeric_dtype<T>
#define EAGERPP_UNARY_DEFAULT(name, dtypes, grad, scalar)               \
  static R name(const R& x) requires EAGERPP_UNARY_DTYPES_##dtypes {    \
    return Backend::map_elements(x, detail::numpy::name##_fn{}, #name); \
  }
  EAGERPP_UNARY_OPS(EAGERPP_UNARY_DEFAULT)
#undef EAGERPP_UNARY_DEFAULT
#undef EAGERPP_UNARY_DTYPES_NUMERIC
#undef EAGERPP_UNARY_DTYPES_INEXACT
#undef EAGERPP_UNARY_DTYPES_ARITHMETIC
#undef EAGERPP_UNARY_DTYPES_FLOAT
};

}  // namespace ep
