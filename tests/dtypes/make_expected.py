#!/usr/bin/python3
"""Writes tests/dtypes/expected.hpp: NumPy's results for the Dtypes suite, per integer dtype.

Run with Debian's NumPy: /usr/bin/python3 tests/dtypes/make_expected.py > tests/dtypes/expected.hpp
"""
import warnings

import numpy as np

warnings.simplefilter("ignore")  # NumPy warns of the wrapping and x // 0 the suite checks

DTYPES = [("std::int8_t", np.int8), ("std::int16_t", np.int16), ("std::uint8_t", np.uint8),
          ("std::uint16_t", np.uint16), ("std::uint32_t", np.uint32), ("std::uint64_t", np.uint64)]
CTYPE = {np.dtype(t): c for c, t in DTYPES}
CTYPE.update({np.dtype(np.int32): "std::int32_t", np.dtype(np.int64): "std::int64_t",
              np.dtype(np.float64): "double", np.dtype(np.float32): "float",
              np.dtype(np.bool_): "bool"})


def literal(v, dt):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return "true" if v else "false"
    if dt.kind == "f":
        return "inf" if np.isinf(v) else repr(float(v))
    v = int(v)
    if v == -2**63:
        return "-9223372036854775807 - 1"
    return f"{v}U" if v >= 2**63 else str(v)


def vec(a):
    a = np.asarray(a)
    return f"std::vector<{CTYPE[a.dtype]}>{{" + ", ".join(literal(v, a.dtype) for v in a.ravel()) + "}"


def inputs(t):
    info = np.iinfo(t)
    if info.min < 0:
        a = np.array([info.max, info.min, 7, -7, 0, 100], dtype=t)
        b = np.array([3, -1, -2, 2, 5, 0], dtype=t)
        s = np.array([1, 0, 3, 9, 7, 2], dtype=t)
    else:
        a = np.array([info.max, 0, 7, 200, 1, 100], dtype=t)
        b = np.array([3, 1, 2, 200, 5, 0], dtype=t)
        s = np.array([1, 0, 3, 9, 7, 2], dtype=t)
    c = np.array([2, 3, 0, 1, 2, 5], dtype=t)
    return a, b, s, c


print("// eagerpp - NumPy's results for the Dtypes suite (tests/dtypes/make_expected.py writes this")
print(f"// file; NumPy {np.__version__}): inputs a, b, s (shift counts) and c (exponents) per dtype, and")
print("// every op the suite checks on them")
print("// SPDX-License-Identifier: MIT")
print("// clang-format off")
print("#pragma once\n")
print("#include <cstdint>  // std::int8_t ... std::uint64_t")
print("#include <limits>   // std::numeric_limits")
print("#include <vector>   // std::vector\n")
print("namespace dtypes_suite {\n")
print("inline constexpr double inf = std::numeric_limits<double>::infinity();\n")
print("template <class T>\nstruct expected;\n")
for c, t in DTYPES:
    a, b, s, c_ = inputs(t)
    r = {}
    r["a"], r["b"], r["s"], r["c"] = a, b, s, c_
    r["add"] = a + b
    r["subtract"] = a - b
    r["multiply"] = a * b
    r["true_divide"] = np.true_divide(a, b)
    r["floor_divide"] = np.floor_divide(a, b)
    r["mod"] = np.remainder(a, b)
    r["power"] = np.power(a, c_)
    r["negative"] = np.negative(a)
    r["abs"] = np.abs(a)
    r["sign"] = np.sign(a)
    r["bitwise_and"] = a & b
    r["bitwise_or"] = a | b
    r["bitwise_xor"] = a ^ b
    r["invert"] = ~a
    r["left_shift"] = np.left_shift(a, s)
    r["right_shift"] = np.right_shift(a, s)
    r["minimum"] = np.minimum(a, b)
    r["maximum"] = np.maximum(a, b)
    r["less"] = a < b
    r["equal"] = a == b
    r["add_scalar"] = a + t(3)
    acc = np.int64 if np.dtype(t).kind == "i" else np.uint64
    if np.dtype(t).itemsize >= 4:
        acc = t  # eagerpp: the 32- and 64-bit integers keep their dtype
    r["sum"] = np.array([np.sum(a, dtype=acc)])
    r["prod"] = np.array([np.prod(a[2:], dtype=acc)])
    r["cumsum"] = np.cumsum(a, dtype=acc)
    r["max"] = np.array([a.max()])
    r["min"] = np.array([a.min()])
    r["argmax"] = np.array([a.argmax()], dtype=np.int64)
    r["argmin"] = np.array([a.argmin()], dtype=np.int64)
    r["sort"] = np.sort(a, kind="stable")
    r["argsort"] = np.argsort(a, kind="stable").astype(np.int64)
    u = np.array([5, 3, 5, 0, 3, 9, 0, 5], dtype=t)
    r["u"] = u
    r["unique_values"] = np.unique(u)
    r["as_float64"] = a.astype(np.float64)
    r["as_bool"] = a.astype(np.bool_)
    f = np.array([0.0, 2.7, 99.9, 3.2, 1.0, 126.5])
    r["from_float64"] = f.astype(t)
    print(f"template <>\nstruct expected<{c}> {{")
    for k, v in r.items():
        print(f"  static inline const auto {k} = {vec(v)};")
    print("};\n")
print("}  // namespace dtypes_suite")
