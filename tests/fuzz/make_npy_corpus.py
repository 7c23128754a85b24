# eagerpp - writes the seed corpus of the .npy fuzzer (npy_corpus/): valid files of every dtype, order
# and rank, as NumPy writes them (format 1.0, and 2.0 for one), without NumPy (run: python3 make_npy_corpus.py)
# SPDX-License-Identifier: MIT
import itertools
import os
import struct

DTYPES = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|b1": "?"}
SHAPES = [(), (0,), (3,), (2, 3), (0, 4), (2, 1, 3), (1, 2, 2, 2), (2, 1, 2, 1, 2)]


def header(descr, fortran, shape, version=1):
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    text = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, "True" if fortran else "False", shape_text)
    prefix = 10 if version == 1 else 12
    pad = (64 - (prefix + len(text) + 1) % 64) % 64
    text = text + " " * pad + "\n"
    size = struct.pack("<H", len(text)) if version == 1 else struct.pack("<I", len(text))
    return b"\x93NUMPY" + bytes([version, 0]) + size + text.encode("latin1")


def values(code, n):
    if code == "?":
        return [bool(i % 3) for i in range(n)]
    if code in "fd":
        return [(i - 2.5) * 0.75 for i in range(n)]
    return [(i * 7919) % 201 - 100 for i in range(n)]


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "npy_corpus")
    os.makedirs(out, exist_ok=True)
    for (descr, code), shape, fortran in itertools.product(DTYPES.items(), SHAPES, (False, True)):
        if fortran and len(shape) < 2:
            continue
        n = 1
        for d in shape:
            n *= d
        # The elements in file order: for a Fortran file, the C-order values transposed.
        vals = values(code, n)
        if fortran:
            strides = [1] * len(shape)
            for a in range(len(shape) - 2, -1, -1):
                strides[a] = strides[a + 1] * shape[a + 1]
            order = []
            for idx in itertools.product(*[range(d) for d in reversed(shape)]):
                order.append(sum(i * s for i, s in zip(reversed(idx), strides)))
            vals = [vals[k] for k in order]
        data = struct.pack("<%d%s" % (n, code), *vals)
        name = "%s_%s_%s.npy" % (descr[1:], "F" if fortran else "C", "x".join(map(str, shape)) or "0d")
        with open(os.path.join(out, name), "wb") as f:
            f.write(header(descr, fortran, shape) + data)
    with open(os.path.join(out, "f8_C_2x3_v2.npy"), "wb") as f:
        f.write(header("<f8", False, (2, 3), version=2) + struct.pack("<6d", *values("d", 6)))


if __name__ == "__main__":
    main()
