# eagerpp - writes the .npy fixtures of tests/data with NumPy itself (run: python3 make_fixtures.py)
# SPDX-License-Identifier: MIT
import numpy as np

np.save("float32_2x3.npy", np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5 - 1)
np.save("float64_fortran_2x3x4.npy", np.asfortranarray(np.arange(24.0).reshape(2, 3, 4) - 10))
np.save("int32_4.npy", np.array([-2, 7, 0, 2147483647], dtype=np.int32))
np.save("int64_0d.npy", np.array(-5, dtype=np.int64))
np.save("bool_2x2.npy", np.array([[True, False], [False, True]]))
np.save("float32_empty_0x3.npy", np.zeros((0, 3), dtype=np.float32))
# The integer dtypes of tests/dtypes: one file each, extremes included.
np.save("int8_4.npy", np.array([-128, -1, 0, 127], dtype=np.int8))
np.save("int16_4.npy", np.array([-32768, -1, 0, 32767], dtype=np.int16))
np.save("uint8_2x3.npy", np.array([[0, 1, 127], [128, 200, 255]], dtype=np.uint8))
np.save("uint16_4.npy", np.array([0, 1, 40000, 65535], dtype=np.uint16))
np.save("uint32_4.npy", np.array([0, 1, 3000000000, 4294967295], dtype=np.uint32))
np.save("uint64_4.npy", np.array([0, 1, 2**63, 2**64 - 1], dtype=np.uint64))
# The complex dtypes of tests/complex, interleaved (real, imaginary) as NumPy stores them.
np.save("complex64_2x2.npy", np.array([[1 + 2j, -0.5 - 0.25j], [3, 1j]], dtype=np.complex64))
np.save("complex128_3.npy", np.array([1e300 + 1j, complex(0.0, -0.0), -2.5 + 1e-300j]))

# The .npz fixtures of tests/tree/npz_test.cpp: a stored archive (numpy.savez) and a deflated one
# (numpy.savez_compressed), of the tree {"w": float64 (2, 3), "layers/0/b": float64 (3,)}.
npz = {"w": np.arange(6.0).reshape(2, 3) / 4 - 0.5, "layers/0/b": np.array([1.5, -2.0, 3.25])}
np.savez("tree_stored.npz", **npz)
np.savez_compressed("tree_deflated.npz", **npz)
