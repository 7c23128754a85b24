// eagerpp - the differential fuzzer's op table: a row per op, from the library's op lists and the
// fuzzer's own
// SPDX-License-Identifier: MIT
//
// The generator (generate.cpp), the interpreter (interpret.hpp) and the C++ printer (to_cpp.cpp)
// iterate the same rows, in this order: every op of the library's lists (ops/unary_list.hpp,
// ops/binary_list.hpp), so that a row added there is fuzzed with no edit here, then the fuzzer's
// own ops (scalars, shape, indexing, sorting, nn, casts). Each consumer defines
// `EAGERPP_FUZZ_ROW(FAMILY, name, DTYPES, spelled)` and expands `EAGERPP_FUZZ_OPS`:
// - FAMILY: UNARY (`x.spelled()`), OPERATOR (`x spelled y`), METHOD (`x.spelled(y)`), REDUCTION
//   (`x.spelled(axes, keepdims)`), AXIS (`x.spelled()` or `x.spelled(axis)`) or OTHER (the op's
//   own functions: args_<name> in the generator, exec_<name> in the interpreter, print_<name> in
//   the printer);
// - DTYPES: the dtypes the op takes (FLOAT, NUMERIC, EVERY, BOOL), as in the library's lists.
// What the generator must know of an op beyond that (how accurate its result is, where it is
// smooth, how it can overflow an integer) is its `traits`, below.
#pragma once

#include <cstddef>        // std::size_t
#include <stdexcept>      // std::logic_error
#include <string>         // std::string
#include <string_view>    // std::string_view
#include <unordered_map>  // std::unordered_map
#include <vector>         // std::vector

#include <eagerpp/ops/binary_list.hpp>
#include <eagerpp/ops/unary_list.hpp>

#include "fuzz/program.hpp"

// The fuzzer's unary ops that are no row of the unary list (their gradient or dtype differs).
#define EAGERPP_FUZZ_UNARY_METHODS(X) \
  X(negative, NUMERIC)                \
  X(isnan, NUMERIC)                   \
  X(isinf, NUMERIC)                   \
  X(logical_not, BOOL)

// The fuzzer's own ops, `X(name, DTYPES)`: each has args_<name>, exec_<name> and print_<name>.
#define EAGERPP_FUZZ_OTHER_OPS(X) \
  X(clip, NUMERIC)                \
  X(where, EVERY)                 \
  X(add_scalar, NUMERIC)          \
  X(rsubtract_scalar, NUMERIC)    \
  X(multiply_scalar, NUMERIC)     \
  X(divide_scalar, NUMERIC)       \
  X(add_int, NUMERIC)             \
  X(multiply_int, NUMERIC)        \
  X(pow_scalar, NUMERIC)          \
  X(maximum_int, NUMERIC)         \
  X(reshape, EVERY)               \
  X(flatten, EVERY)               \
  X(transpose, EVERY)             \
  X(squeeze, EVERY)               \
  X(expand_dims, EVERY)           \
  X(broadcast_to, EVERY)          \
  X(flip, EVERY)                  \
  X(tile, EVERY)                  \
  X(pad, EVERY)                   \
  X(slice, EVERY)                 \
  X(integer, EVERY)               \
  X(newaxis, EVERY)               \
  X(take, EVERY)                  \
  X(mask, EVERY)                  \
  X(sort, NUMERIC)                \
  X(argsort, NUMERIC)             \
  X(topk_values, NUMERIC)         \
  X(topk_indices, NUMERIC)        \
  X(take_along_axis, EVERY)       \
  X(matmul, NUMERIC)              \
  X(softmax, FLOAT)               \
  X(log_softmax, FLOAT)           \
  X(crossentropy, FLOAT)          \
  X(astype, EVERY)

// The library's lists as rows of the fuzzer's table (EAGERPP_FUZZ_ROW, defined by the consumer).
#define EAGERPP_FUZZ_FROM_UNARY(name, dtypes, ...) EAGERPP_FUZZ_ROW(UNARY, name, dtypes, name)
#define EAGERPP_FUZZ_FROM_BINARY(name, dtypes, spelling, spelled) \
  EAGERPP_FUZZ_ROW(spelling, name, dtypes, spelled)
#define EAGERPP_FUZZ_FROM_FUNCTION(name, dtypes, value, grad) \
  EAGERPP_FUZZ_ROW(METHOD, name, dtypes, name)
#define EAGERPP_FUZZ_FROM_COMPARISON(name, symbol, dtypes) \
  EAGERPP_FUZZ_ROW(OPERATOR, name, dtypes, symbol)
#define EAGERPP_FUZZ_FROM_REDUCTION(name, dtypes, native) \
  EAGERPP_FUZZ_ROW(REDUCTION, name, dtypes, name)
#define EAGERPP_FUZZ_FROM_AXIS(name, dtypes) EAGERPP_FUZZ_ROW(AXIS, name, dtypes, name)
#define EAGERPP_FUZZ_FROM_OTHER(name, dtypes) EAGERPP_FUZZ_ROW(OTHER, name, dtypes, name)

// clang-format off
#define EAGERPP_FUZZ_OPS                                          \
  EAGERPP_UNARY_OPS(EAGERPP_FUZZ_FROM_UNARY)                      \
  EAGERPP_FUZZ_UNARY_METHODS(EAGERPP_FUZZ_FROM_UNARY)             \
  EAGERPP_BINARY_OPS(EAGERPP_FUZZ_FROM_BINARY)                    \
  EAGERPP_BINARY_FUNCTIONS(EAGERPP_FUZZ_FROM_FUNCTION)            \
  EAGERPP_COMPARISON_OPS(EAGERPP_FUZZ_FROM_COMPARISON)            \
  EAGERPP_REDUCTION_OPS(EAGERPP_FUZZ_FROM_REDUCTION)              \
  EAGERPP_AXIS_REDUCTION_OPS(EAGERPP_FUZZ_FROM_AXIS)              \
  EAGERPP_FUZZ_OTHER_OPS(EAGERPP_FUZZ_FROM_OTHER)
// clang-format on

namespace ep::fuzz {

enum class family { unary, infix, method, reduction, axis, other };

/// The dtypes an op takes: the lists' DTYPES.
enum class takes { floating, numeric, every, boolean };

/// Where a gradient program may apply the op (generator::smooth_at): its values away from the
/// kinks, poles and ends of the domain by more than the central differences reach.
enum class domain {
  real,             // everywhere
  nonzero,          // |x| >= 0.05 (a kink or pole at 0)
  positive,         // x >= 0.05
  above_minus_one,  // x >= -0.95
  inside_unit,      // |x| <= 0.95
  at_least_one,     // x >= 1.05
  moderate,         // |x| <= 100 (sin and cos of larger x oscillate faster than h resolves)
  divisor,          // the second operand's |y| >= 0.2
  distinct,         // no two values within 1e-3 (a tie makes the gradient a choice)
};

/// How an op of integers grows its operands' magnitudes m and m2 (generator::may_overflow).
enum class growth {
  none,
  sum,
  plus_three,
  product,
  times_three,
  square,
  count,
  power_count,
  power,
  matmul,
  cast
};

/// Accuracy and use, OR-ed.
enum trait : unsigned {
  inexact = 1,  // its floating result is not correctly rounded (libm, SIMD, an order of sums)
  keeps = 2,    // keeps an inexact value's relative error about the same (no cancellation, no jump)
  sums = 4,     // sums terms: its rounding scales with its operands' magnitudes times their count
  grad = 8,     // differentiable: a gradient program may use it
  nan_sign = 16,  // reads the sign bit of an operand, which a NaN made by an invalid operation has
                  // as its library sets it: with a NaN operand, dtype and shape are compared only
};

struct traits {
  unsigned flags = 0;
  fuzz::domain domain = domain::real;
  fuzz::growth growth = growth::none;
};

/// One op of the fuzzer: its name in programs (the library's), family, dtypes and traits.
struct op {
  std::string_view name;
  fuzz::family family;
  fuzz::takes takes;
  fuzz::traits traits;
  /// Whether it takes dtype `t`.
  [[nodiscard]] bool admits(dtype t) const {
    switch (takes) {
      case takes::floating:
        return is_floating(t);
      case takes::numeric:
        return t != dtype::boolean;
      case takes::boolean:
        return t == dtype::boolean;
      default:
        return true;
    }
  }
};

// The enumerators of the rows' FAMILY and DTYPES.
#define EAGERPP_FUZZ_FAMILY_UNARY ::ep::fuzz::family::unary
#define EAGERPP_FUZZ_FAMILY_OPERATOR ::ep::fuzz::family::infix
#define EAGERPP_FUZZ_FAMILY_METHOD ::ep::fuzz::family::method
#define EAGERPP_FUZZ_FAMILY_REDUCTION ::ep::fuzz::family::reduction
#define EAGERPP_FUZZ_FAMILY_AXIS ::ep::fuzz::family::axis
#define EAGERPP_FUZZ_FAMILY_OTHER ::ep::fuzz::family::other
#define EAGERPP_FUZZ_TAKES_FLOAT ::ep::fuzz::takes::floating
#define EAGERPP_FUZZ_TAKES_INEXACT ::ep::fuzz::takes::floating
#define EAGERPP_FUZZ_TAKES_ARITHMETIC ::ep::fuzz::takes::numeric
#define EAGERPP_FUZZ_TAKES_NUMERIC ::ep::fuzz::takes::numeric
#define EAGERPP_FUZZ_TAKES_EVERY ::ep::fuzz::takes::every
#define EAGERPP_FUZZ_TAKES_BOOL ::ep::fuzz::takes::boolean

namespace op_rows {

struct named_traits {
  std::string_view name;
  fuzz::traits traits;
};

// The traits of the ops whose traits are not their family's default (default_traits): a row per
// such op, data rather than code. Ops of the library's lists without a row here get the default.
// clang-format off
inline constexpr named_traits op_traits[] = {
    // unary
    {"abs", {keeps | grad, domain::nonzero}},
    {"sign", {}},
    {"sqrt", {keeps | grad, domain::positive}},  // correctly rounded
    {"square", {keeps | grad, domain::real, growth::square}},
    {"exp", {inexact | keeps | grad}},
    {"log", {inexact | grad, domain::positive}},
    {"log2", {inexact | grad, domain::positive}},
    {"log10", {inexact | grad, domain::positive}},
    {"log1p", {inexact | grad, domain::above_minus_one}},
    {"sin", {inexact | keeps | grad, domain::moderate}},
    {"cos", {inexact | keeps | grad, domain::moderate}},
    {"tan", {inexact}},  // its poles are within reach of the operands
    {"arcsin", {inexact | grad, domain::inside_unit}},
    {"arccos", {inexact | grad, domain::inside_unit}},
    {"arctan", {inexact | keeps | grad}},
    {"sinh", {inexact | grad}},
    {"cosh", {inexact | grad}},
    {"tanh", {inexact | keeps | grad}},
    {"arcsinh", {inexact | grad}},
    {"arccosh", {inexact | grad, domain::at_least_one}},
    {"arctanh", {inexact | grad, domain::inside_unit}},
    {"negative", {keeps | grad}},
    // binary
    {"add", {grad, domain::real, growth::sum}},
    {"subtract", {grad, domain::real, growth::sum}},
    {"multiply", {keeps | grad, domain::real, growth::product}},
    {"divide", {grad, domain::divisor}},
    {"power", {inexact, domain::real, growth::power}},
    {"minimum", {keeps | grad, domain::distinct}},
    {"maximum", {keeps | grad, domain::distinct}},
    // binary functions
    {"atan2", {inexact | grad, domain::nonzero}},
    {"copysign", {keeps | grad | nan_sign, domain::nonzero}},
    {"hypot", {inexact | keeps | grad, domain::nonzero}},
    {"logaddexp", {inexact | keeps | grad}},
    {"nextafter", {keeps}},
    // reductions
    {"sum", {inexact | sums | grad, domain::real, growth::count}},
    {"prod", {inexact | sums | grad, domain::nonzero, growth::power_count}},  // grad: prod / x
    {"mean", {inexact | sums | grad}},
    {"min", {keeps | grad, domain::distinct}},
    {"max", {keeps | grad, domain::distinct}},
    {"logsumexp", {inexact | sums | grad}},
    {"cumsum", {inexact | sums | grad, domain::real, growth::count}},
    // the fuzzer's own
    {"clip", {keeps}},
    {"where", {keeps | grad}},
    {"multiply_scalar", {keeps | grad}},
    {"add_int", {0, domain::real, growth::plus_three}},
    {"multiply_int", {keeps, domain::real, growth::times_three}},
    {"pow_scalar", {inexact}},
    {"maximum_int", {keeps}},
    {"reshape", {keeps | grad}},
    {"flatten", {keeps}},
    {"transpose", {keeps | grad}},
    {"squeeze", {keeps | grad}},
    {"expand_dims", {keeps | grad}},
    {"broadcast_to", {keeps | grad}},
    {"flip", {keeps | grad}},
    {"tile", {keeps | grad}},
    {"pad", {keeps | grad}},
    {"slice", {keeps | grad}},
    {"integer", {keeps | grad}},
    {"newaxis", {keeps | grad}},
    {"take", {keeps | grad}},
    {"mask", {keeps}},
    {"sort", {keeps | grad, domain::distinct}},
    {"topk_values", {keeps | grad, domain::distinct}},
    {"take_along_axis", {keeps | grad}},
    {"matmul", {inexact | sums | grad, domain::real, growth::matmul}},
    {"softmax", {inexact | sums | grad}},
    {"log_softmax", {inexact | sums | grad}},
    {"crossentropy", {inexact | sums | grad}},
    {"astype", {0, domain::real, growth::cast}},
};
// clang-format on

/// The traits of an op without a row in op_traits: a floating unary op is a libm function, smooth
/// away from 0; a floating binary op or a reduction is inexact; the rest are exact, jumps or moves.
inline fuzz::traits default_traits(family f, takes t) {
  if (f == family::unary && t == takes::floating) return {inexact | grad, domain::nonzero};
  if ((f == family::infix || f == family::method) && t == takes::floating) return {inexact};
  if (f == family::reduction && t != takes::boolean) return {inexact | sums};
  return {};
}

inline op make_op(std::string_view name, family f, takes t) {
  for (const auto& row : op_traits)
    if (row.name == name) return {name, f, t, row.traits};
  return {name, f, t, default_traits(f, t)};
}

}  // namespace op_rows

/// Every op, in the order of EAGERPP_FUZZ_OPS.
inline const std::vector<op>& ops() {
  static const std::vector<op> all = {
#define EAGERPP_FUZZ_ROW(FAMILY, name, DTYPES, spelled) \
  op_rows::make_op(#name, EAGERPP_FUZZ_FAMILY_##FAMILY, EAGERPP_FUZZ_TAKES_##DTYPES),
      EAGERPP_FUZZ_OPS
#undef EAGERPP_FUZZ_ROW
  };
  return all;
}

/// The index of `name` in ops(); throws std::logic_error naming an unknown op.
inline std::size_t op_index(std::string_view name) {
  static const std::unordered_map<std::string_view, std::size_t> index = [] {
    std::unordered_map<std::string_view, std::size_t> m;
    for (std::size_t i = 0; i < ops().size(); ++i) m.emplace(ops()[i].name, i);
    return m;
  }();
  const auto it = index.find(name);
  if (it == index.end()) throw std::logic_error("fuzz: unknown op " + std::string(name));
  return it->second;
}

inline const op& op_named(std::string_view name) { return ops()[op_index(name)]; }

}  // namespace ep::fuzz
