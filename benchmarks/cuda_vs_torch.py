#!/usr/bin/env python3
# eagerpp - runs benchmarks/cuda_bench and the same computations in PyTorch eager on the same GPU,
# one after the other in one run, and prints the ratios against the CUDA backend's targets.
# SPDX-License-Identifier: MIT
#
# Usage: python3 benchmarks/cuda_vs_torch.py <path to the cuda_bench binary>
# PyTorch figures are medians of 7 repetitions after a warm-up, timed with CUDA events on the
# current stream, exactly as cuda_bench times eagerpp (same inputs: sin(1e-7 i)).
import statistics
import subprocess
import sys
import time

import torch


def time_ms(f, inner=5):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    f()
    torch.cuda.synchronize()
    ms = []
    for _ in range(7):
        start.record()
        for _ in range(inner):
            f()
        stop.record()
        stop.synchronize()
        ms.append(start.elapsed_time(stop) / inner)
    return statistics.median(ms)


def host_us_per_op(f, ops=1000):
    us = []
    for _ in range(7):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(ops):
            f()
        us.append((time.perf_counter() - t0) * 1e6 / ops)
    torch.cuda.synchronize()
    return statistics.median(us)


def inputs(n):
    return torch.sin(torch.arange(n, device="cuda", dtype=torch.float32) * 1e-7)


def torch_results():
    r = {}
    with torch.no_grad():
        s = inputs(100)
        r["host_x + 1"] = host_us_per_op(lambda: s + 1.0)
        r["host_x * y"] = host_us_per_op(lambda: s * s)
        r["host_exp(x)"] = host_us_per_op(lambda: torch.exp(s))
        r["host_sum(x)"] = host_us_per_op(lambda: s.sum())
        for n, tag in ((10_000_000, "1e+07"), (100_000_000, "1e+08")):
            x = inputs(n)
            r[f"l2_{tag}"] = time_ms(lambda: x.square().sum().sqrt())
            r[f"chain_{tag}"] = time_ms(lambda: torch.exp(-x * x) * torch.sin(x) + 1)
            del x
    return r


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: cuda_vs_torch.py <cuda_bench binary>")
    if not torch.cuda.is_available():
        print("cuda_vs_torch: no CUDA device: nothing measured")
        return 0
    run = subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True)
    print(run.stdout)
    ours = {}
    for line in run.stdout.splitlines():
        if line.startswith("RESULT "):
            _, rest = line.split(" ", 1)
            name, value, _unit = rest.rsplit(" ", 2)
            ours[name] = float(value)
    theirs = torch_results()
    print(f"PyTorch {torch.__version__} eager on {torch.cuda.get_device_name()}, same run:")
    ok = True
    for name in sorted(theirs):
        target = 1.5 if name.startswith("host_") else 1.0
        ratio = ours[name] / theirs[name]
        met = ratio <= target
        ok &= met
        unit = "us" if name.startswith("host_") else "ms"
        print(f"  {name:<16} eagerpp {ours[name]:9.3f} {unit}  torch {theirs[name]:9.3f} {unit}"
              f"  ratio {ratio:6.3f} (target <= {target:.2f}) {'ok' if met else 'MISSED'}")
    print("every PyTorch target met" if ok else "some PyTorch targets MISSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
