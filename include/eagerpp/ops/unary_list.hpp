// eagerpp - the list of unary element-wise ops: name, the dtypes it takes and its gradient rule
// SPDX-License-Identifier: MIT
#pragma once

// One row per unary op `X(name, DTYPES, grad)`:
// - name: the method `Tensor<B>::name()`, the free function `ep::name(x)` and the backend's static
//   `B::name(raw) -> raw`, all of one name (NumPy's);
// - DTYPES: FLOAT (float, double) or NUMERIC (every dtype but bool): the dtypes the op takes, and
//   those for which a backend must define it;
// - grad: the gradient, an expression of the incoming gradient `g`, the output `y` and the input
//   `x` (ep::Tensor ops, so it runs on every backend and can be differentiated again), of x's
//   shape (an `elementwise` rule, autodiff/tape.hpp); `value_type` is the dtype.
// The list is expanded where an op needs a line per unary op: ops/elementwise.hpp (the methods and
// their gradient rules), backend.hpp (the contract each backend fulfils), functions.hpp
// (ep::name(x)), any.hpp (the run-time dispatched tensor) and the Thrust backend (its FLOAT ops,
// one functor each). So adding a unary op is a row here, its declaration in tensor.hpp, a static
// function per backend, a test and a row in docs/api.md. negative is not listed: its gradient, -g,
// keeps g's shape (not an element-wise rule).
//
// No includes: the core's backend.hpp includes this list before ep::Tensor exists.
// clang-format would read `g * x` in a macro argument as a declaration, `g* x`.
// clang-format off
#define EAGERPP_UNARY_OPS(X)                                        \
  X(abs, NUMERIC, g * x.sign())                                     \
  X(sign, NUMERIC, x.zeros_like())                                  \
  X(sqrt, FLOAT, g / (y * 2))                                       \
  X(square, NUMERIC, (g * 2) * x)                                   \
  X(exp, FLOAT, g * y)                                              \
  X(expm1, FLOAT, g * (y + 1))                                      \
  X(log, FLOAT, g / x)                                              \
  X(log2, FLOAT, g / (x * std::numbers::ln2_v<value_type>))         \
  X(log10, FLOAT, g / (x * std::numbers::ln10_v<value_type>))       \
  X(log1p, FLOAT, g / (x + 1))                                      \
  X(sin, FLOAT, g * x.cos())                                        \
  X(cos, FLOAT, -(g * x.sin()))                                     \
  X(tan, FLOAT, g * (y.square() + 1))                               \
  X(arcsin, FLOAT, g / (1 - x.square()).sqrt())                     \
  X(arccos, FLOAT, -(g / (1 - x.square()).sqrt()))                  \
  X(arctan, FLOAT, g / (x.square() + 1))                            \
  X(sinh, FLOAT, g * x.cosh())                                      \
  X(cosh, FLOAT, g * x.sinh())                                      \
  X(tanh, FLOAT, g * (1 - y.square()))                              \
  X(arcsinh, FLOAT, g / (x.square() + 1).sqrt())                    \
  X(arccosh, FLOAT, g / (x.square() - 1).sqrt())                    \
  X(arctanh, FLOAT, g / (1 - x.square()))                           \
  X(round, NUMERIC, x.zeros_like())                                 \
  X(ceil, NUMERIC, x.zeros_like())                                  \
  X(floor, NUMERIC, x.zeros_like())
// clang-format on
