// eagerpp - the table of unary element-wise ops: name, dtypes, gradient rule and scalar function
// SPDX-License-Identifier: MIT
#pragma once

// One row per unary op `X(name, DTYPES, grad, scalar)`:
// - name: the method `Tensor<B>::name()`, the free function `ep::name(x)` and the backend's static
//   `B::name(raw) -> raw`, all of one name (NumPy's);
// - DTYPES: the dtypes the op takes: FLOAT (float, double), INEXACT (float, double and the complex
//   dtypes), NUMERIC (every real dtype but bool) or ARITHMETIC (NUMERIC and the complex dtypes). A
//   backend defines `B::name` for the real ones; complex tensors map the row's `scalar` over
//   their elements (`B::map_elements`), the C++ library's complex functions, whose branch cuts and
//   special cases are C99's Annex G, as the array API's are;
// - grad: the gradient, an expression of the incoming gradient `g`, the output `y` and the input
//   `x` (ep::Tensor ops, so it runs on every backend and can be differentiated again), of x's
//   shape (an `elementwise` rule, autodiff/tape.hpp); `value_type` is the dtype, `real_type` its
//   parts' (float for complex64). For a complex x it is JAX's rule: the cotangent times the
//   derivative, not its conjugate (docs/autodiff.md, "Complex numbers");
// - scalar: the op on one element `x` of dtype T, an expression valid in host and device code:
//   `EAGERPP_MATH(f)(x)` is the C library's `f` (std::f on the host, CUDA's in device code), and
//   `numpy::` names NumPy's scalar rules (detail/numpy_math.hpp). It becomes the functor
//   `detail::numpy::name_fn`, which is the op wherever no library does better: a backend that
//   derives from ep::unary_defaults (ops/unary_defaults.hpp) gets `B::name` from it, and ep::fuse
//   evaluates it lane by lane where a packet policy has no vector version.
// The list is expanded where an op needs a line per unary op: ops/elementwise.hpp (the methods and
// their gradient rules), tensor.hpp (their declarations), backend.hpp (the contract each backend
// fulfils), functions.hpp (ep::name(x)), any.hpp (the run-time dispatched tensor), vmap.hpp (the
// batched backend), detail/fused_value.hpp (ep::fuse), ops/unary_defaults.hpp and the tests (value
// cases and gradient checks per op, which fail for an op without cases). So adding a unary op is a
// row here, its cases in tests/suites/unary_cases.hpp, its line in docs/api.md (a test checks it
// is there) and, only where a backend's library computes it better than `scalar`, a function in
// that backend (docs/backends.md, "Adding an op"). negative is not listed: its gradient, -g, keeps
// g's shape (not an element-wise rule).
//
// No includes: the core's backend.hpp includes this list before ep::Tensor exists.
// clang-format would read `g * x` in a macro argument as a declaration, `g* x`.
// clang-format off
#define EAGERPP_UNARY_OPS(X)                                                                       \
  X(abs, NUMERIC, g * x.sign(), numpy::absolute(x))                                                \
  X(sign, ARITHMETIC, sign_gradient(g, y, x), numpy::sign(x))                                      \
  X(sqrt, INEXACT, g / (y * 2), EAGERPP_MATH(sqrt)(x))                                             \
  X(cbrt, FLOAT, g / (y.square() * 3), EAGERPP_MATH(cbrt)(x))                                      \
  X(square, ARITHMETIC, (g * 2) * x, x * x)                                                        \
  X(exp, INEXACT, g * y, EAGERPP_MATH(exp)(x))                                                     \
  X(exp2, FLOAT, g * y * std::numbers::ln2_v<real_type>, EAGERPP_MATH(exp2)(x))                    \
  X(expm1, INEXACT, g * (y + 1), numpy::expm1(x))                                                  \
  X(log, INEXACT, g / x, EAGERPP_MATH(log)(x))                                                     \
  X(log2, INEXACT, g / (x * std::numbers::ln2_v<real_type>), numpy::log2(x))                       \
  X(log10, INEXACT, g / (x * std::numbers::ln10_v<real_type>), EAGERPP_MATH(log10)(x))             \
  X(log1p, INEXACT, g / (x + 1), numpy::log1p(x))                                                  \
  X(sin, INEXACT, g * x.cos(), EAGERPP_MATH(sin)(x))                                               \
  X(cos, INEXACT, -(g * x.sin()), EAGERPP_MATH(cos)(x))                                            \
  X(tan, INEXACT, g * (y.square() + 1), EAGERPP_MATH(tan)(x))                                      \
  X(arcsin, INEXACT, g / (1 - x.square()).sqrt(), EAGERPP_MATH(asin)(x))                           \
  X(arccos, INEXACT, -(g / (1 - x.square()).sqrt()), EAGERPP_MATH(acos)(x))                        \
  X(arctan, INEXACT, g / (x.square() + 1), EAGERPP_MATH(atan)(x))                                  \
  X(sinh, INEXACT, g * x.cosh(), EAGERPP_MATH(sinh)(x))                                            \
  X(cosh, INEXACT, g * x.sinh(), EAGERPP_MATH(cosh)(x))                                            \
  X(tanh, INEXACT, g * (1 - y.square()), EAGERPP_MATH(tanh)(x))                                    \
  X(arcsinh, INEXACT, g / (x.square() + 1).sqrt(), EAGERPP_MATH(asinh)(x))                         \
  X(arccosh, INEXACT, g / ((x - 1).sqrt() * (x + 1).sqrt()), EAGERPP_MATH(acosh)(x))               \
  X(arctanh, INEXACT, g / (1 - x.square()), EAGERPP_MATH(atanh)(x))                                \
  X(round, NUMERIC, x.zeros_like(), numpy::to_integral<numpy::rounding::rint>(x))                  \
  X(ceil, NUMERIC, x.zeros_like(), numpy::to_integral<numpy::rounding::ceil>(x))                   \
  X(floor, NUMERIC, x.zeros_like(), numpy::to_integral<numpy::rounding::floor>(x))
// clang-format on
