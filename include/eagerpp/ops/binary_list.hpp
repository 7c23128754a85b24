// eagerpp - the lists of binary element-wise ops, comparisons and reductions: name, dtypes, spelling
// SPDX-License-Identifier: MIT
#pragma once

// The op families after the unary one (ops/unary_list.hpp), a row per op. DTYPES, as there: FLOAT
// (float, double), INEXACT (FLOAT and the complex dtypes), NUMERIC (every real dtype but bool),
// ARITHMETIC (NUMERIC and the complex dtypes), BOOL (bool only) or EVERY (every dtype). A backend
// must define an op for its real dtypes; the complex ones come with a backend's complex support.
//
// Binary element-wise ops, `X(name, DTYPES, SPELLING, spelled)`:
// - name: the backend's static `B::name(raw, raw) -> raw` (NumPy's name), whose operands broadcast;
// - DTYPES: the dtypes the op takes, and those for which a backend must define it;
// - SPELLING, spelled: how the facade spells it, `OPERATOR, +` (`x + y`) or `METHOD, pow` (`x.pow(y)`
//   and `ep::pow(x, y)`), also with a scalar on either side.
// Expanded by backend.hpp (the contract), vmap.hpp (the batched backend), functions.hpp (ep::name
// of the METHOD rows), any.hpp (the run-time dispatched tensor's methods and operators) and the
// fuzzer (tests/fuzz/ops.hpp).
//
// No includes: the core's backend.hpp includes these lists before ep::Tensor exists.
// clang-format off
#define EAGERPP_BINARY_OPS(X)                      \
  X(add, ARITHMETIC, OPERATOR, +)                  \
  X(subtract, ARITHMETIC, OPERATOR, -)             \
  X(multiply, ARITHMETIC, OPERATOR, *)             \
  X(divide, ARITHMETIC, OPERATOR, /)               \
  X(floor_divide, NUMERIC, METHOD, floordiv)       \
  X(mod, NUMERIC, METHOD, mod)                     \
  X(power, ARITHMETIC, METHOD, pow)                \
  X(minimum, NUMERIC, METHOD, minimum)             \
  X(maximum, NUMERIC, METHOD, maximum)             \
  X(logical_and, BOOL, METHOD, logical_and)        \
  X(logical_or, BOOL, METHOD, logical_or)

// The array API's element-wise functions of two tensors, `X(name, DTYPES, value, grad)`: the free
// function `ep::name(a, b)` and the method `a.name(b)` (operands that broadcast, of two dtypes
// promoted, a C++ scalar on either side), for the DTYPES (FLOAT: float, double);
// - value, how it is computed, one of
//   - `SCALAR(expr)`: a primitive, `expr` the op on two elements `a`, `b` of dtype T in host and
//     device code (as the unary table's `scalar`). It becomes the functor
//     `detail::numpy::name_fn`, and each backend has `B::name(raw, raw) -> raw` for the DTYPES: a
//     backend that derives from ep::binary_defaults (ops/binary_defaults.hpp) gets it from its
//     `zip_elements`, and declares its own only where its library computes the op better;
//   - `COMPOSITE(expr)`: `expr` of the tensors `a`, `b` in facade ops (`value_type`: the dtype),
//     computed without recording them (one pass on backends that evaluate element-wise chains
//     lazily); no backend code;
// - grad: `RULE(da, db)`, the gradients of `a` and `b`: expressions of the incoming gradient `g`,
//   the output `y` and the inputs `a`, `b` in facade ops, of the broadcast shape (the facade sums
//   them back to each operand's shape); or `CONSTANT`: no gradient, the result is a constant of the
//   tape (a step function, as in JAX).
// Expanded by ops/array_api.hpp (the functions and their rules), tensor.hpp (the methods),
// detail/numpy_math.hpp (the functors), ops/binary_defaults.hpp and backend.hpp (the SCALAR rows'
// backend functions), vmap.hpp (the batched backend), any.hpp (AnyTensor's methods), the fuzzer
// (tests/fuzz/ops.hpp) and the tests (value cases per op, which fail for an op without cases). Adding one is a row here, its cases in tests/suites/binary_cases.py
// (which writes binary_cases.hpp) and its line in docs/api.md (docs/backends.md, "Adding an op").
#define EAGERPP_BINARY_FUNCTIONS(X)                                                               \
  X(atan2, FLOAT, SCALAR(EAGERPP_MATH(atan2)(a, b)),                                               \
    RULE(g * b / (a.square() + b.square()), -(g * a) / (a.square() + b.square())))                 \
  X(copysign, FLOAT, SCALAR(EAGERPP_MATH(copysign)(a, b)),                                         \
    RULE(g * a.sign() * where(sign_bit(b), value_type(-1), value_type(1)), g.zeros_like()))        \
  X(hypot, FLOAT, SCALAR(EAGERPP_MATH(hypot)(a, b)),                                               \
    RULE(g * a / where(y == 0, value_type(1), y), g * b / where(y == 0, value_type(1), y)))        \
  X(logaddexp, FLOAT,                                                                              \
    COMPOSITE(a.maximum(b) + (-tied_difference(a, b).abs()).exp().log1p()),                       \
    RULE(g / ((-tied_difference(a, b)).exp() + 1), g / (tied_difference(a, b).exp() + 1)))         \
  X(nextafter, FLOAT, SCALAR(EAGERPP_MATH(nextafter)(a, b)), CONSTANT)

// EAGERPP_BINARY_BY_VALUE(M, name, dtypes, value): `M_SCALAR(name, dtypes, expr)` for a row's
// `SCALAR(expr)`, `M_COMPOSITE(name, dtypes, expr)` for its `COMPOSITE(expr)`, so that an expansion
// takes each kind apart.
#define EAGERPP_BINARY_KIND_SCALAR(...) SCALAR, __VA_ARGS__
#define EAGERPP_BINARY_KIND_COMPOSITE(...) COMPOSITE, __VA_ARGS__
#define EAGERPP_BINARY_BY_VALUE(M, name, dtypes, value) \
  EAGERPP_BINARY_DISPATCH(M, name, dtypes, EAGERPP_BINARY_KIND_##value)
#define EAGERPP_BINARY_DISPATCH(M, name, dtypes, ...) \
  EAGERPP_BINARY_DISPATCH_I(M, name, dtypes, __VA_ARGS__)
#define EAGERPP_BINARY_DISPATCH_I(M, name, dtypes, kind, ...) M##_##kind(name, dtypes, __VA_ARGS__)

// Comparisons, `X(name, symbol, DTYPES)`: the backend's static `B::name(raw, raw) ->
// rebind<bool>::raw_type`, defined for every dtype (the static tensor compares bool tensors as
// NumPy does), and the facade's operator `x symbol y`; DTYPES: the dtypes the array API standard
// and the run-time dispatched tensor (any.hpp) take: ordered comparisons of numbers, equality of
// any dtype.
#define EAGERPP_COMPARISON_OPS(X)                  \
  X(less, <, NUMERIC)                              \
  X(less_equal, <=, NUMERIC)                       \
  X(greater, >, NUMERIC)                           \
  X(greater_equal, >=, NUMERIC)                    \
  X(equal, ==, EVERY)                              \
  X(not_equal, !=, EVERY)

// Reductions over axes, `X(name, DTYPES, NATIVE)`: `Tensor<B>::name(Axes axis = {}, bool keepdims =
// false)` and `ep::name(x, axis, keepdims)`, for the DTYPES the facade takes; NATIVE: the dtypes
// for which a backend defines the static `B::name(raw, std::span<const int> axes) -> raw`, or NONE
// where the facade computes it with other ops.
#define EAGERPP_REDUCTION_OPS(X)                   \
  X(sum, EVERY, NUMERIC)                           \
  X(prod, EVERY, NUMERIC)                          \
  X(mean, INEXACT, NONE)                           \
  X(min, NUMERIC, EVERY)                           \
  X(max, NUMERIC, EVERY)                           \
  X(all, BOOL, BOOL)                               \
  X(any, BOOL, BOOL)                               \
  X(logsumexp, FLOAT, NONE)

// Reductions along one axis, `X(name, DTYPES)`: `Tensor<B>::name()` (of the flattened tensor),
// `Tensor<B>::name(int axis)` and `ep::name(x[, axis])`, for the DTYPES the facade takes; a backend
// defines `B::name(raw, int axis)` (backend.hpp says for which dtypes and of which result).
// EAGERPP_NATIVE_##NATIVE(text...): the text for a reduction a backend defines, nothing for NONE.
#define EAGERPP_NATIVE_NONE(...)
#define EAGERPP_NATIVE_NUMERIC(...) __VA_ARGS__
#define EAGERPP_NATIVE_EVERY(...) __VA_ARGS__
#define EAGERPP_NATIVE_BOOL(...) __VA_ARGS__

#define EAGERPP_AXIS_REDUCTION_OPS(X)              \
  X(argmin, NUMERIC)                               \
  X(argmax, NUMERIC)                               \
  X(cumsum, EVERY)
// clang-format on
