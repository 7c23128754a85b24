#!/usr/bin/python3
"""Writes tests/complex/expected.hpp: NumPy's results for the Complex suite, per complex dtype.

Run with Debian's NumPy: /usr/bin/python3 tests/complex/make_expected.py > tests/complex/expected.hpp
"""
import warnings

import numpy as np

warnings.simplefilter("ignore")  # NumPy warns of the infinities and NaNs the special cases give

# z: points on both sides of the branch cuts (-4 + 0j, -4 - 0j: sqrt, log, arcsin, arccos, arctanh,
# arccosh; 0 + 2j, -0 + 2j: arcsinh, arctan), and ordinary points.
Z = [1 + 2j, -0.5 + 0.25j, 3 - 1j, complex(-4, 0.0), complex(-4, -0.0), 0.5 - 0.75j, -2 + 3j,
     complex(0.0, 2), complex(-0.0, 2), 0.25 + 0j]
W = [2 - 1j, 0.5 + 0.5j, -1 + 0j, 3 + 4j, 1j, -2 - 2j, 0.75 + 0j, 1 + 1j, -1 - 3j, 2 + 0.5j]
# The standard's special cases (C99 Annex G): zeros, infinities and NaNs in either part.
inf, nan = float("inf"), float("nan")
S = [complex(0.0, 0.0), complex(-0.0, 0.0), complex(inf, 0.0), complex(-inf, 0.0),
     complex(0.0, inf), complex(nan, 0.0), complex(1.0, nan), complex(inf, nan),
     complex(-inf, inf), complex(nan, inf)]
UNARY = ["sqrt", "square", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
         "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh"]
# Special cases where the C library and NumPy agree (glibc's cexp, clog, csqrt, ...); NumPy's own
# expm1, log1p and log2 of complex numbers follow other formulas at infinities.
SPECIAL = ["sqrt", "exp", "log", "sin", "cos", "sinh", "cosh", "tanh", "arcsinh", "arctan"]
DTYPES = [("ep::complex64", np.complex64), ("ep::complex128", np.complex128)]


def part(v, suffix):
    """A literal of the parts' dtype: `suffix` F for float (inf_f, nan_f), none for double."""
    if np.isnan(v):
        return "nan" + ("_f" if suffix else "")
    if np.isinf(v):
        return ("" if v > 0 else "-") + "inf" + ("_f" if suffix else "")
    if v == 0:
        return ("-0.0" if np.signbit(v) else "0.0") + suffix
    return repr(float(v)) + suffix


def element(v, ctype, suffix):
    if ctype == "C":
        v = complex(v)
        return f"{{{part(v.real, suffix)}, {part(v.imag, suffix)}}}"
    if ctype == "bool":
        return "true" if v else "false"
    return part(float(v), suffix)


def vector(name, values, ctype="C"):
    suffix = "F" if np.asarray(values).dtype in (np.complex64, np.float32) else ""
    body = ", ".join(element(v, ctype, suffix) for v in np.ravel(values))
    return f"  static inline const auto {name} = std::vector<{ctype}>{{{body}}};"


print("""// eagerpp - NumPy's results for the Complex suite (tests/complex/make_expected.py writes this
// file; NumPy %s): inputs z, w and the special values s per complex dtype, and every op the suite
// checks on them
// SPDX-License-Identifier: MIT
// clang-format off
#pragma once

#include <limits>  // std::numeric_limits
#include <vector>  // std::vector

#include <eagerpp/fwd.hpp>

namespace complex_suite {

inline constexpr double inf = std::numeric_limits<double>::infinity();
inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();
inline constexpr float inf_f = std::numeric_limits<float>::infinity();
inline constexpr float nan_f = std::numeric_limits<float>::quiet_NaN();

template <class C>
struct expected;
""" % np.__version__)

for ctype, dt in DTYPES:
    z = np.array(Z, dtype=dt)
    w = np.array(W, dtype=dt)
    s = np.array(S, dtype=dt)
    print("template <>")
    print(f"struct expected<{ctype}> {{")
    print(f"  using C = {ctype};")
    print("  using R = C::value_type;")
    print(vector("z", z))
    print(vector("w", w))
    print(vector("s", s))
    for name in UNARY:
        print(vector(name, getattr(np, name)(z)))
    # The array API's (and NumPy 2's) sign, z / |z| and 0 at 0: NumPy 1.x gives the sign of the
    # real part instead.
    print(vector("sign", np.where(z == 0, 0, z / np.abs(z)).astype(dt)))
    for name in SPECIAL:
        print(vector(f"special_{name}", getattr(np, name)(s)))
    print(vector("real", np.real(z), "R"))
    print(vector("imag", np.imag(z), "R"))
    print(vector("conj", np.conj(z)))
    print(vector("abs", np.abs(z), "R"))
    print(vector("angle", np.angle(z), "R"))
    print(vector("special_abs", np.abs(s), "R"))
    print(vector("special_isnan", np.isnan(s), "bool"))
    print(vector("special_isinf", np.isinf(s), "bool"))
    print(vector("special_isfinite", np.isfinite(s), "bool"))
    print(vector("add", z + w))
    print(vector("subtract", z - w))
    print(vector("multiply", z * w))
    print(vector("divide", z / w))
    v = z.copy()
    v[1::3] = w[1::3]  # z with some elements replaced
    print(vector("v", v))
    print(vector("equal", z == v, "bool"))
    # z as (2, 5): sums, products and means along each axis; z[:4] as (2, 2) times w[:4] as (2, 2).
    m = z.reshape(2, 5)
    print(vector("sum0", m.sum(0)))
    print(vector("sum1", m.sum(1)))
    print(vector("prod1", m.prod(1)))
    print(vector("mean0", m.mean(0)))
    print(vector("matmul", z[:4].reshape(2, 2) @ w[:4].reshape(2, 2)))
    print(vector("matmul_23_32", z[:6].reshape(2, 3) @ w[:6].reshape(3, 2)))
    # A real tensor of the parts' dtype with a complex scalar, and with a complex tensor.
    r = np.real(w)
    print(vector("real_times_i", r * np.array(1j, dtype=dt)))
    print(vector("real_plus_z", r + z))
    # The fft extension (NumPy computes in double: its values are cast to the dtype). a: 7 points
    # (a prime), e: 8 (a power of two), m: a (3, 4) complex matrix, r: a (4, 6) real matrix.
    rdt = np.float32 if dt == np.complex64 else np.float64
    a = np.real(z[:7]).astype(rdt)
    e = np.imag(w[:8]).astype(rdt) + np.real(w[:8]).astype(rdt)
    mm = (z[:12] if len(z) >= 12 else np.concatenate([z, w])[:12]).reshape(3, 4)
    rr = (np.real(np.concatenate([z, w, z]))[:24] * 0.5 + np.arange(24) % 5).astype(rdt).reshape(4, 6)
    print(vector("fa", a, "R"))
    print(vector("fe", e, "R"))
    print(vector("fm", mm))
    print(vector("fr", rr, "R"))
    cast = lambda v: np.asarray(v).astype(dt)
    real = lambda v: np.asarray(v).astype(rdt)
    print(vector("fft_a", cast(np.fft.fft(a))))
    print(vector("fft_a_n5_ortho", cast(np.fft.fft(a, 5, norm="ortho"))))
    print(vector("fft_e_n11_forward", cast(np.fft.fft(e, 11, norm="forward"))))
    print(vector("ifft_m_axis0", cast(np.fft.ifft(mm, axis=0))))
    print(vector("fftn_m", cast(np.fft.fftn(mm))))
    print(vector("ifftn_m_s25", cast(np.fft.ifftn(mm, s=(2, 5)))))
    print(vector("fftn_m_axis1_s6_ortho", cast(np.fft.fftn(mm, s=(6,), axes=(1,), norm="ortho"))))
    print(vector("rfft_a", cast(np.fft.rfft(a))))
    print(vector("rfft_e_n6", cast(np.fft.rfft(e, 6))))
    print(vector("irfft_m", real(np.fft.irfft(mm)), "R"))
    print(vector("irfft_m_n7_axis0_ortho", real(np.fft.irfft(mm, 7, axis=0, norm="ortho")), "R"))
    print(vector("rfftn_r", cast(np.fft.rfftn(rr))))
    print(vector("irfftn_rfftn_r_s45", real(np.fft.irfftn(np.fft.rfftn(rr), s=(4, 5))), "R"))
    print(vector("hfft_m", real(np.fft.hfft(mm)), "R"))
    print(vector("hfft_m_n5_forward", real(np.fft.hfft(mm, 5, norm="forward")), "R"))
    print(vector("ihfft_a", cast(np.fft.ihfft(a))))
    print(vector("ihfft_e_n9_ortho", cast(np.fft.ihfft(e, 9, norm="ortho"))))
    print(vector("fftfreq_7", real(np.fft.fftfreq(7, 0.5)), "R"))
    print(vector("fftfreq_8", real(np.fft.fftfreq(8)), "R"))
    print(vector("rfftfreq_7", real(np.fft.rfftfreq(7, 2.0)), "R"))
    print(vector("fftshift_m", np.fft.fftshift(mm)))
    print(vector("ifftshift_m_axis1", np.fft.ifftshift(mm, axes=1)))
    # power (NumPy's npy_cpow: exact small integer exponents, 0 ** w), z ** 2 and z ** (0.5 + 1j).
    print(vector("power", z ** w))
    print(vector("power_2", z ** dt(2)))
    print(vector("power_half_i", z ** dt(0.5 + 1j)))
    print(vector("power_zero", np.zeros(4, dt) ** np.array([2, 0, -1, 1j], dt)))
    # linalg: ea a real 4 x 4 matrix (two conjugate pairs), ez = z[:9] as 3 x 3; eigenvalues sorted
    # as np.sort_complex sorts (the solvers' orders differ); solve(ez, w[:3]) and solve(ez, w[:6]
    # as 3 x 2).
    ea = np.array([[1, 2, 0, 0.5], [-3, 1, 4, 0], [0.5, 0, 2, 1], [0, 1, -1, 3]], dtype=rdt)
    ez = z[:9].reshape(3, 3)
    print(vector("ea", ea, "R"))
    print(vector("eigvals_ea", np.sort_complex(np.linalg.eigvals(ea)).astype(dt)))
    print(vector("eigvals_ez", np.sort_complex(np.linalg.eigvals(ez)).astype(dt)))
    print(vector("solve_ez_w3", np.linalg.solve(ez, w[:3])))
    print(vector("solve_ez_w32", np.linalg.solve(ez, w[:6].reshape(3, 2))))
    print("};")
    print()

print("}  // namespace complex_suite")
