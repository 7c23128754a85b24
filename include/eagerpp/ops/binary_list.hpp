// eagerpp - the lists of binary element-wise ops, comparisons and reductions: name, dtypes, spelling
// SPDX-License-Identifier: MIT
#pragma once

// The op families after the unary one (ops/unary_list.hpp), a row per op. DTYPES, as there: FLOAT
// (float, double), NUMERIC (every dtype but bool), BOOL (bool only) or EVERY (every dtype).
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
  X(add, NUMERIC, OPERATOR, +)                     \
  X(subtract, NUMERIC, OPERATOR, -)                \
  X(multiply, NUMERIC, OPERATOR, *)                \
  X(divide, NUMERIC, OPERATOR, /)                  \
  X(floor_divide, NUMERIC, METHOD, floordiv)       \
  X(mod, NUMERIC, METHOD, mod)                     \
  X(power, NUMERIC, METHOD, pow)                   \
  X(minimum, NUMERIC, METHOD, minimum)             \
  X(maximum, NUMERIC, METHOD, maximum)             \
  X(logical_and, BOOL, METHOD, logical_and)        \
  X(logical_or, BOOL, METHOD, logical_or)

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
  X(mean, FLOAT, NONE)                             \
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
