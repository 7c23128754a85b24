#!/usr/bin/python3
"""Writes tests/suites/unary_cases.hpp: for each op of the unary table, inputs (exact in float32),
NumPy's float64 values at them, and an interval where its gradient is checked against finite
differences. Run it after adding a row's inputs below: /usr/bin/python3 tests/suites/unary_cases.py"""
import pathlib

import numpy as np

# name: (inputs, NumPy function, gradient interval)
SIGNED = [-2.5, -1.5, -0.5, 0.0, 0.375, 1.5, 2.5, 3.75]
UNIT = [-0.875, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 0.9375]
POSITIVE = [0.125, 0.5, 1.0, 2.0, 3.0, 7.0, 11.0, 15.0]
CASES = {
    "abs": (SIGNED, np.abs, (-2, 2)),
    "sign": (SIGNED, np.sign, (-2, 2)),
    "sqrt": (POSITIVE, np.sqrt, (0.5, 3)),
    "cbrt": ([-27.0, -8.0, -0.125, 0.0, 0.001953125, 1.0, 2.0, 64.0], np.cbrt, (0.5, 3)),
    "square": (SIGNED, np.square, (-2, 2)),
    "exp": (SIGNED, np.exp, (-2, 2)),
    "exp2": ([-3.0, -0.5, 0.0, 0.25, 1.0, 3.5, 10.0, 20.0], np.exp2, (-2, 2)),
    "expm1": ([-2.0, -2.0**-10, 0.0, 2.0**-20, 0.5, 1.0, 3.0, 4.0], np.expm1, (-2, 2)),
    "log": (POSITIVE, np.log, (0.5, 3)),
    "log2": (POSITIVE, np.log2, (0.5, 3)),
    "log10": (POSITIVE, np.log10, (0.5, 3)),
    "log1p": ([-0.5, -2.0**-20, 0.0, 2.0**-20, 0.5, 1.0, 3.0, 15.0], np.log1p, (-0.5, 2)),
    "sin": (SIGNED + [7.0, 11.0], np.sin, (-3, 3)),
    "cos": (SIGNED + [7.0, 11.0], np.cos, (-3, 3)),
    "tan": (SIGNED + [7.0, 11.0], np.tan, (-1.2, 1.2)),
    "arcsin": (UNIT, np.arcsin, (-0.9, 0.9)),
    "arccos": (UNIT, np.arccos, (-0.9, 0.9)),
    "arctan": (SIGNED + [15.0], np.arctan, (-3, 3)),
    "sinh": (SIGNED + [9.0], np.sinh, (-2, 2)),
    "cosh": (SIGNED + [9.0], np.cosh, (-2, 2)),
    "tanh": (SIGNED + [9.0], np.tanh, (-2, 2)),
    "arcsinh": (SIGNED + [15.0], np.arcsinh, (-3, 3)),
    "arccosh": ([1.0, 1.25, 1.5, 2.0, 4.0, 10.0, 15.0], np.arccosh, (1.2, 4)),
    "arctanh": (UNIT, np.arctanh, (-0.9, 0.9)),
    "round": (SIGNED + [-3.5, 4.5], np.round, (-3, 3)),
    "ceil": (SIGNED + [-3.5, 4.5], np.ceil, (-3, 3)),
    "floor": (SIGNED + [-3.5, 4.5], np.floor, (-3, 3)),
}


def literal(v):
    return "-0.0" if v == 0 and np.signbit(v) else repr(float(v))


def main():
    rows = []
    for name, (xs, f, (lo, hi)) in CASES.items():
        x = np.array(xs, dtype=np.float64)
        assert (x.astype(np.float32) == x).all(), name
        y = f(x)
        rows.append(
            f'    {{"{name}", {{{", ".join(map(literal, x))}}},\n'
            f'     {{{", ".join(map(literal, y))}}}, {lo}, {hi}}},')
    text = f"""// eagerpp - the cases of the unary table's ops (ops/unary_list.hpp): inputs, NumPy's values and an
// interval for the gradient check. Written by tests/suites/unary_cases.py (numpy {np.__version__}).
// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace unary_cases {{

struct unary_case {{
  std::string_view op;
  std::vector<double> x, expected;  // expected: NumPy's float64 values
  double lo, hi;                    // the gradient is checked at random points of [lo, hi]
}};

// clang-format off
inline const std::vector<unary_case> cases = {{
{chr(10).join(rows)}
}};
// clang-format on

/// The case of `op`, or nullptr where it has none.
inline const unary_case* find(std::string_view op) {{
  for (const auto& c : cases)
    if (c.op == op) return &c;
  return nullptr;
}}

}}  // namespace unary_cases
"""
    out = pathlib.Path(__file__).with_name("unary_cases.hpp")
    out.write_text(text)


if __name__ == "__main__":
    main()
