#!/usr/bin/python3
"""Writes tests/suites/binary_cases.hpp: for each op of the binary lists (ops/binary_list.hpp: the
binary ops, the binary functions, the comparisons, the reductions and the reductions along an axis),
inputs exact in float32 and NumPy's float64 values at them; for each differentiable binary function,
an interval where its gradient is checked against finite differences. Run it after adding a row's
inputs below: /usr/bin/python3 tests/suites/binary_cases.py"""
import pathlib

import numpy as np

A = [-2.5, -1.5, -0.5, 0.0, 0.375, 1.5, 2.5, 3.75]
B = [1.25, -2.0, -0.5, 0.75, 0.0, 3.0, 2.5, -1.5]
POS_A = [0.5, 1.5, 2.0, 0.25, 3.0, 1.0, 2.5, 4.0]
POS_B = [2.0, -1.0, 0.5, 3.0, 0.0, 2.5, -2.0, 1.5]
BOOL_A = [0, 0, 1, 1, 0, 1, 0, 1]
BOOL_B = [0, 1, 0, 1, 1, 1, 0, 0]
# name: (a, b, NumPy function, gradient interval or None: not differentiable or not checked here)
BINARY = {
    # EAGERPP_BINARY_OPS (a nonzero divisor: integer division by 0 has its own tests)
    "add": (A, B, np.add, None),
    "subtract": (A, B, np.subtract, None),
    "multiply": (A, B, np.multiply, None),
    "divide": (A, [1.25, -2.0, -0.5, 0.75, 4.0, 3.0, 2.5, -1.5], np.divide, None),
    "floor_divide": (A, [1.25, -2.0, -0.5, 0.75, 4.0, 3.0, 2.5, -1.5], np.floor_divide, None),
    "mod": (A, [1.25, -2.0, -0.5, 0.75, 4.0, 3.0, 2.5, -1.5], np.mod, None),
    "power": (POS_A, POS_B, np.power, None),
    "minimum": (A, B, np.minimum, None),
    "maximum": (A, B, np.maximum, None),
    "logical_and": (BOOL_A, BOOL_B, np.logical_and, None),
    "logical_or": (BOOL_A, BOOL_B, np.logical_or, None),
    # EAGERPP_BINARY_FUNCTIONS
    "atan2": (A, B, np.arctan2, (0.5, 2)),
    "copysign": (A, B, np.copysign, (0.5, 2)),
    "hypot": (A, B, np.hypot, (-2, 2)),
    "logaddexp": (A + [40.0], B + [-3.0], np.logaddexp, (-3, 3)),
    "nextafter": (A, B, np.nextafter, None),
    # EAGERPP_COMPARISON_OPS
    "less": (A, [-2.5, -2.0, 0.0, 0.0, 0.5, 1.5, 2.0, 4.0], np.less, None),
    "less_equal": (A, [-2.5, -2.0, 0.0, 0.0, 0.5, 1.5, 2.0, 4.0], np.less_equal, None),
    "greater": (A, [-2.5, -2.0, 0.0, 0.0, 0.5, 1.5, 2.0, 4.0], np.greater, None),
    "greater_equal": (A, [-2.5, -2.0, 0.0, 0.0, 0.5, 1.5, 2.0, 4.0], np.greater_equal, None),
    "equal": (A, [-2.5, -2.0, 0.0, 0.0, 0.5, 1.5, 2.0, 4.0], np.equal, None),
    "not_equal": (A, [-2.5, -2.0, 0.0, 0.0, 0.5, 1.5, 2.0, 4.0], np.not_equal, None),
}

X = [[0.5, -1.5, 2.0, 0.25], [3.0, 1.0, -2.5, 0.75]]
X_BOOL = [[1, 0, 1, 1], [1, 1, 1, 1]]


def logsumexp(x, axis=None):
    m = np.max(x, axis=axis, keepdims=True)
    return np.squeeze(m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)), axis=axis)


# name: (x of shape (2, 4), NumPy function of (x, axis)): the whole tensor and axis 1
REDUCTIONS = {
    "sum": (X, np.sum),
    "prod": (X, np.prod),
    "mean": (X, np.mean),
    "min": (X, np.min),
    "max": (X, np.max),
    "all": (X_BOOL, np.all),
    "any": ([[0, 0, 1, 0], [0, 0, 0, 0]], np.any),
    "logsumexp": (X, logsumexp),
    "argmin": (X, np.argmin),
    "argmax": (X, np.argmax),
    "cumsum": (X, np.cumsum),
}


def literal(v):
    v = float(v)
    return "-0.0" if v == 0 and np.signbit(v) else repr(v)


def values(v):
    return "{" + ", ".join(map(literal, np.ravel(v))) + "}"


def main():
    binary = []
    for name, (a, b, f, grad) in BINARY.items():
        x, y = np.array(a, dtype=np.float64), np.array(b, dtype=np.float64)
        assert (x.astype(np.float32) == x).all() and (y.astype(np.float32) == y).all(), name
        if name.startswith("logical"):
            x, y = x.astype(bool), y.astype(bool)
        expected = f(x, y)
        if name == "nextafter":  # one float64 ulp: float32's comes from np.float32 inputs
            expected32 = f(x.astype(np.float32), y.astype(np.float32))
        else:
            expected32 = expected
        lo, hi = grad if grad else (0, 0)
        binary.append(f'    {{"{name}", {values(x)},\n     {values(y)},\n'
                      f'     {values(expected)},\n     {values(expected32)}, {lo}, {hi}}},')
    reductions = []
    for name, (x, f) in REDUCTIONS.items():
        x = np.array(x, dtype=np.float64)
        if name in ("all", "any"):
            x = x.astype(bool)
        reductions.append(f'    {{"{name}", {values(x)},\n     {values(f(x, None))}, '
                          f'{values(f(x, 1))}}},')
    text = f"""// eagerpp - the cases of the binary lists' ops (ops/binary_list.hpp): inputs and NumPy's values;
// for the differentiable binary functions, an interval for the gradient check. Written by
// tests/suites/binary_cases.py (numpy {np.__version__}).
// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace binary_cases {{

struct binary_case {{
  std::string_view op;
  std::vector<double> a, b;        // of shape (8,) or (9,); bools as 0 and 1
  std::vector<double> expected;    // NumPy's float64 values (comparisons: 0 and 1)
  std::vector<double> expected32;  // NumPy's float32 values where they differ (nextafter)
  double lo, hi;  // the gradient is checked at random points of [lo, hi]; lo == hi: not checked
}};

/// A reduction of x, of shape (2, 4): over every axis, and along axis 1.
struct reduction_case {{
  std::string_view op;
  std::vector<double> x;
  std::vector<double> all, axis1;
}};

// clang-format off
inline const std::vector<binary_case> binary = {{
{chr(10).join(binary)}
}};

inline const std::vector<reduction_case> reductions = {{
{chr(10).join(reductions)}
}};
// clang-format on

/// The case of `op` in `cases`, or nullptr where it has none.
template <class Case>
const Case* find(const std::vector<Case>& cases, std::string_view op) {{
  for (const auto& c : cases)
    if (c.op == op) return &c;
  return nullptr;
}}

}}  // namespace binary_cases
"""
    out = pathlib.Path(__file__).with_name("binary_cases.hpp")
    out.write_text(text)


if __name__ == "__main__":
    main()
