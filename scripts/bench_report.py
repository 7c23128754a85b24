#!/usr/bin/python3
# eagerpp - the benchmark report: reads what scripts/bench ran, writes docs/bench/results.json, the
# tables between the markers of docs/benchmarks.md and the plots docs/bench/*.png
# SPDX-License-Identifier: MIT
#
# Usage: scripts/bench_report.py --results build/bench/results [--docs docs] [--no-docs]
# Each table of docs/benchmarks.md sits between <!-- bench:NAME --> and <!-- /bench:NAME -->; this
# script replaces what is between them and nothing else. With --no-docs it only prints the tables.
# The CUDA table comes from docs/bench/cuda.json when a GPU run wrote one (see write_cuda below).
import argparse
import json
import math
import re
import sys
from pathlib import Path

RATIO_LINE = re.compile(r"^  (\S.*?)\s+(-?\d+\.\d+)\s+\(target <= (\d+\.\d+)\) (ok|MISSED)\s*$")
INFO_LINE = re.compile(r"^  (\S.*?)\s+(-?\d+\.\d+)(?:\s+\((?:no target|for comparison)\))?\s*$")
UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def load_times(path):
    """name -> real time in ns: the median of the repetitions, or the one run."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    times, medians = {}, {}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        ns = b["real_time"] * UNIT_NS[b.get("time_unit", "ns")]
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[b["run_name"]] = ns
        else:
            times[b.get("run_name", b["name"])] = ns
    times.update(medians)
    return times


def load_lines(path):
    """The ratio lines a binary printed: label, ratio, target, ok; and its untargeted lines."""
    ratios, infos = [], []
    if not path.exists():
        return ratios, infos
    after = False
    for line in path.read_text(errors="replace").splitlines():
        if line.lower().startswith("ratios") or line.startswith("Against"):
            after = True
        if not after:
            continue
        m = RATIO_LINE.match(line)
        if m:
            ratios.append({"label": m[1], "ratio": float(m[2]), "target": float(m[3]),
                           "ok": m[4] == "ok"})
            continue
        m = INFO_LINE.match(line)
        if m and not m[1].startswith("the same in CPU time"):
            infos.append({"label": m[1], "ratio": float(m[2])})
    return ratios, infos


def load_omp(results):
    """thread count -> {"n=10000000/chain": (eigen us, omp us), ...} from omp_bench_<t>.txt."""
    row = re.compile(r"^  (\S.*?)\s+eigen\s+([\d.]+) us\s+omp\s+([\d.]+) us")
    runs = {}
    for p in sorted(results.glob("omp_bench_*.txt")):
        t = int(p.stem.rsplit("_", 1)[1])
        n, rows = None, {}
        for line in p.read_text(errors="replace").splitlines():
            if line.startswith("n = "):
                n = int(line[4:])
            m = row.match(line)
            if m and n is not None:
                op = {"exp(-x*x) * sin(x) + 1": "chain"}.get(m[1], m[1])
                rows[f"{n}/{op}"] = (float(m[2]), float(m[3]))
        runs[t] = rows
    return runs


def load_memory(path):
    line = re.compile(r"^(\w+)\s+peak live tensor bytes.*plain ([\d.]+) MiB, checkpointed ([\d.]+) "
                      r"MiB; plain / checkpointed = ([\d.]+); gradients (\S+)")
    out = []
    if path.exists():
        for l in path.read_text(errors="replace").splitlines():
            m = line.match(l)
            if m:
                out.append({"backend": m[1], "plain_mib": float(m[2]),
                            "checkpointed_mib": float(m[3]), "ratio": float(m[4]),
                            "gradients": m[5]})
    return out


def machine_line(m):
    how = "quick run (`scripts/bench --quick`)" if m.get("quick") == "1" else "`scripts/bench`"
    return (f"*{how} of {m['date']} on {m['cpu']} ({m['cores']} cores), {m['compiler']}, "
            f"`{m['flags']}`, one thread unless stated; times are medians of the repetitions.*")


def fmt_time(ns):
    if ns is None or ns < 0:
        return ""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_ratio(r):
    return "" if r is None else f"{r:.2f}"


def ratio(times, a, b):
    if a in times and b in times and times[b] > 0:
        return times[a] / times[b]
    return None


def holds(r, target, at_least=False):
    if r is None:
        return ""
    return "yes" if (r >= target if at_least else r <= target) else "**no**"


def generic_table(ratios, infos=()):
    """label | ratio | target | holds, from the lines the binary printed; untargeted ratios after."""
    rows = ["| measure | ratio | target | holds |", "|---|---|---|---|"]
    for r in ratios:
        rows.append(f"| {r['label']} | {r['ratio']:.2f} | <= {r['target']:.2f} | "
                    f"{'yes' if r['ok'] else '**no**'} |")
    for r in infos:
        rows.append(f"| {r['label']} | {r['ratio']:.2f} | | |")
    return rows


def pivot_table(ratios, infos=()):
    """One row per measure, one column per backend: for labels that name eigen or xtensor once;
    the untargeted lines (infos) after the targeted ones, with an empty target."""
    order, cells, targets = [], {}, {}
    for r in list(ratios) + [dict(i, ok=True, target=None) for i in infos]:
        m = re.match(r"^(.*?) (eigen|xtensor)\b(.*)$", r["label"])
        if not m:
            continue
        key = (m[1] + m[3]).strip()
        if key not in order:
            order.append(key)
        cells[(key, m[2])] = r
        targets[key] = r["target"]
    rows = ["| measure | Eigen | xtensor | target |", "|---|---|---|---|"]
    for key in order:
        vals = []
        for b in ("eigen", "xtensor"):
            r = cells.get((key, b))
            vals.append("" if r is None else (f"{r['ratio']:.2f}" if r["ok"] else
                                              f"**{r['ratio']:.2f}**"))
        target = "" if targets[key] is None else f"<= {targets[key]:.2f}"
        rows.append(f"| {key} | {vals[0]} | {vals[1]} | {target} |")
    return rows


SIZES = [100, 10_000, 1_000_000, 10_000_000]


def facade_table(t, ratios):
    target = {}
    for r in ratios:
        m = re.match(r"(\w+) (\w+) n=(\d+): facade / (.*)", r["label"])
        if m:
            target[(m[1], m[2], int(m[3]), "fused" in m[4])] = r["target"]
    head = "| facade / native | " + " | ".join(f"n = 1e{int(math.log10(n))}" for n in SIZES)
    rows = [head + " | target |", "|---" * (len(SIZES) + 2) + "|"]
    for fused in (False, True):
        for op in ("l2", "chain"):
            for b in ("eigen", "xtensor"):
                what = "Eigen's fused expression" if fused else f"{b} one op at a time"
                cells, tg = [], set()
                for n in SIZES:
                    native = f"{op}/eigen/native_fused/{n}" if fused else f"{op}/{b}/native_eager/{n}"
                    r = ratio(t, f"{op}/{b}/facade/{n}", native)
                    tv = target.get((op, b, n, fused))
                    if r is not None and tv is not None:
                        tg.add(tv)
                        cells.append(f"{r:.2f}" if r <= tv else f"**{r:.2f}**")
                    else:
                        cells.append(fmt_ratio(r))
                by_n = [(n, target.get((op, b, n, fused))) for n in SIZES]
                by_n = [(n, v) for n, v in by_n if v is not None]
                steps = [(n, v) for i, (n, v) in enumerate(by_n) if i == 0 or v != by_n[i - 1][1]]
                tgt = ", ".join(
                    f"<= {v:g} {'at' if i == 0 and len(steps) > 1 else 'from'} "
                    f"1e{int(math.log10(n))}" for i, (n, v) in enumerate(steps))
                rows.append(f"| {op} on {b} / {what} | " + " | ".join(cells) + f" | {tgt} |")
    rows.append("")
    rows.append("Absolute times of the facade on Eigen: " + ", ".join(
        f"{op} {fmt_time(t.get(f'{op}/eigen/facade/{n}'))} at 1e{int(math.log10(n))}"
        for op in ("l2", "chain") for n in (100, 10_000_000)) + ".")
    return rows


def autodiff_table(t, ratios):
    cases = [("l2_1e6", "l2, n = 1e6"), ("logistic_1024x256", "logistic loss, X (1024, 256)"),
             ("ten_ops_n1", "eleven ops on one element")]
    backends = ["eigen", "xtensor"] + (["torch"] if any("/torch/" in k for k in t) else [])
    names = {"eigen": "Eigen", "xtensor": "xtensor", "torch": "libtorch"}
    rows = ["| | " + " | ".join(names[b] for b in backends) + " | target |",
            "|---" * (len(backends) + 2) + "|"]
    for c, label in cases[:2]:
        cells = [fmt_ratio(ratio(t, f"{c}/{b}/value_and_grad", f"{c}/{b}/f")) for b in backends]
        rows.append(f"| {label}: value_and_grad / f | " + " | ".join(cells) + " | <= 3 |")
    for c, label in cases:
        cells = [fmt_time(t.get(f"{c}/{b}/value_and_grad")) for b in backends]
        rows.append(f"| {label}: value_and_grad time | " + " | ".join(cells) + " | |")
    if "torch" in backends:
        for c, label in cases:
            cells = [fmt_ratio(ratio(t, f"{c}/{b}/value_and_grad", f"{c}/torch/value_and_grad"))
                     for b in backends[:2]]
            rows.append(f"| {label}: eagerpp / libtorch | " + " | ".join(cells) +
                        " | | <= 1 |")
    else:
        rows.append("")
        rows.append("libtorch was not built into this run (`scripts/bench` without `--no-torch` adds it).")
    return rows


def mlp_table(t, ratios, infos):
    backends = [b for b in ("eigen", "xtensor", "omp", "torch") if f"mlp_step/{b}" in t]
    names = {"eigen": "eagerpp on Eigen", "xtensor": "eagerpp on xtensor", "omp": "eagerpp on omp",
             "torch": "libtorch"}
    rows = ["| | SGD step | forward | step / libtorch's | target |", "|---|---|---|---|---|"]
    for b in backends:
        r = ratio(t, f"mlp_step/{b}", "mlp_step/torch") if b != "torch" else None
        target = {"eigen": 1 / 1.4, "xtensor": 1.0, "omp": 1.0}.get(b)
        tg = f"<= {target:.3f}" if target and r is not None else ""
        rows.append(f"| {names[b]} | {fmt_time(t.get(f'mlp_step/{b}'))} | "
                    f"{fmt_time(t.get(f'mlp_forward/{b}'))} | {fmt_ratio(r)} | {tg} "
                    f"{'(' + holds(r, target) + ')' if tg else ''} |")
    rows.append("")
    rows += ["| matmul (1024, 1024) | time | ratio | target | holds |", "|---|---|---|---|---|"]
    for r in ratios:
        if r["label"].startswith("matmul"):
            key = "matmul_1024/" + r["label"].split()[2]
            rows.append(f"| {r['label']} | {fmt_time(t.get(key))} | {r['ratio']:.2f} | "
                        f"<= {r['target']:.2f} | {'yes' if r['ok'] else '**no**'} |")
    g = ratio(t, "gemm_mlp/eigen_gemm", "gemm_mlp/openblas_sgemm")
    if g is not None:
        rows.append(f"| GEMM (128, 784) x (784, 256): Eigen's / OpenBLAS's | "
                    f"{fmt_time(t.get('gemm_mlp/eigen_gemm'))} | {g:.2f} | | |")
    measures = {"MLP value_and_grad, a struct / a tuple (paired)":
                    "MLP value_and_grad {}: struct / tuple, paired",
                "Adam step / torch::optim::Adam": "Adam step {} / torch::optim::Adam"}
    by_label = {r["label"]: r for r in ratios}
    if any(m.format(b) in by_label for m in measures.values() for b in backends):
        cols = [b for b in backends if b != "torch"] or ["eigen", "xtensor", "omp"]
        rows += ["", "| parameters and optimizer | " + " | ".join(cols) + " | target |",
                 "|---" * (len(cols) + 2) + "|"]
        for name, m in measures.items():
            cells, target = [], None
            for b in cols:
                r = by_label.get(m.format(b))
                target = r["target"] if r else target
                cells.append("" if r is None else
                             (f"{r['ratio']:.2f}" if r["ok"] else f"**{r['ratio']:.2f}**"))
            rows.append(f"| {name} | " + " | ".join(cells) + f" | <= {target:.2f} |")
    if "torch" not in backends:
        rows.append("")
        rows.append("libtorch was not built into this run (`scripts/bench` without `--no-torch` adds it).")
    return rows


LINALG_LABEL = re.compile(r"^(.*?): (eigen|xtensor|omp)(?: / (.*))?$")
LINALG_TIMES = [("cholesky_512", "cholesky 512 x 512"), ("qr_512", "qr"), ("svd_512", "svd"),
                ("eigh_512", "eigh"), ("slogdet_512", "slogdet"), ("solve_512x1", "solve, k = 1"),
                ("solve_512x512", "solve, k = 512"), ("cholesky_batch", "cholesky 4096 x 8x8")]


def linalg_table(t, ratios, infos):
    """linalg_bench: one row per measure, one column per backend, from the labels
    "<measure>: <backend>[ / <baseline>]"; then the absolute times and Eigen against LAPACK."""
    backends = [b for b in ("eigen", "xtensor", "omp")
                if any(LINALG_LABEL.match(r["label"]) and LINALG_LABEL.match(r["label"])[2] == b
                       for r in ratios)] or ["eigen", "xtensor", "omp"]
    order, cells, targets, against = [], {}, {}, {}
    for r in ratios:
        m = LINALG_LABEL.match(r["label"])
        if not m:
            continue
        if m[1] not in order:
            order.append(m[1])
        cells[(m[1], m[2])] = r
        targets[m[1]] = r["target"]
        if m[3] and m[3] not in against.setdefault(m[1], []):
            against[m[1]].append(m[3])
    rows = ["| measure | " + " | ".join(backends) + " | target |",
            "|---" * (len(backends) + 2) + "|"]
    for key in order:
        vals = []
        for b in backends:
            r = cells.get((key, b))
            vals.append("" if r is None else (f"{r['ratio']:.2f}" if r["ok"] else
                                              f"**{r['ratio']:.2f}**"))
        label = key + (" / " + ", ".join(against[key]) if against.get(key) else "")
        rows.append(f"| {label} | " + " | ".join(vals) + f" | <= {targets[key]:.2f} |")
    whos = backends + ["eigen_native", "lapack"]
    names = {"eigen_native": "Eigen's solver", "lapack": "LAPACK"}
    timed = [(p, label) for p, label in LINALG_TIMES if any(f"{p}/{w}" in t for w in whos)]
    if timed:
        rows += ["", "| time | " + " | ".join(names.get(w, w) for w in whos) + " |",
                 "|---" * (len(whos) + 1) + "|"]
        for p, label in timed:
            rows.append(f"| {label} | " + " | ".join(fmt_time(t.get(f"{p}/{w}")) for w in whos) +
                        " |")
        for kind in ("forward", "value_and_grad"):
            if any(f"gp_512/{b}/{kind}" in t for b in backends):
                rows.append(f"| GP NLL 512, {kind} | " +
                            " | ".join(fmt_time(t.get(f"gp_512/{b}/{kind}")) for b in backends) +
                            " |" * (len(whos) - len(backends)) + " |")
    if infos:
        rows += ["", "Eigen's solvers against LAPACK (OpenBLAS), time / time: " +
                 ", ".join(f"{r['label'].split(':')[0]} {r['ratio']:.2f}" for r in infos) + "."]
    return rows


def omp_table(runs):
    if not runs:
        return ["ep::omp was not built (it needs Thrust and OpenMP)."]
    counts = sorted(runs)
    rows = ["| n | op | " + " | ".join(f"{c} thread{'s' if c > 1 else ''}" for c in counts) +
            " | target |", "|---" * (len(counts) + 3) + "|"]
    targets = {"10000000/chain": (1.7, True), "10000000/sum": (1.7, True),
               "100/chain": (0.5, True), "100/sin": (0.5, True)}
    for key in ("10000000/chain", "10000000/sum", "10000000/sin", "100/chain", "100/sin", "100/sum"):
        n, op = key.split("/")
        cells = []
        for c in counts:
            e = runs[c].get(key)
            cells.append(f"{e[0] / e[1]:.2f}" if e else "")
        tg = targets.get(key)
        tgs = ""
        if tg:
            last = runs[counts[-1]].get(key)
            held = holds(last[0] / last[1], tg[0], True) if last else ""
            tgs = f">= {tg[0]} at {counts[-1]} threads ({held})" if counts[-1] > 1 else ""
        rows.append(f"| {'1e7' if n == '10000000' else n} | {op} | " + " | ".join(cells) +
                    f" | {tgs} |")
    return rows


def cuda_section(docs):
    """docs/bench/cuda.json, written by a GPU run: {"machine": str, "date": str,
    "rows": [{"measure": str, "value": str, "target": str, "holds": str}]}."""
    p = docs / "bench" / "cuda.json"
    if not p.exists():
        return ["Not measured by this run: this machine has no GPU. A GPU run writes "
                "docs/bench/cuda.json, and this table shows it."]
    c = json.loads(p.read_text())
    rows = [f"*GPU run of {c.get('date', '?')} on {c.get('machine', '?')}.*", "",
            "| measure | value | target | holds |", "|---|---|---|---|"]
    for r in c.get("rows", []):
        rows.append(f"| {r.get('measure', '')} | {r.get('value', '')} | {r.get('target', '')} | "
                    f"{r.get('holds', '')} |")
    return rows


def memory_table(mem, t):
    rows = ["| backend | peak, plain | peak, checkpointed | plain / checkpointed | gradients | "
            "time checkpointed / plain |", "|---|---|---|---|---|---|"]
    for m in mem:
        b = m["backend"]
        r = ratio(t, f"chain50/{b}/checkpointed", f"chain50/{b}/plain")
        rows.append(f"| {b} | {m['plain_mib']:.2f} MiB | {m['checkpointed_mib']:.2f} MiB | "
                    f"{m['ratio']:.2f} | {m['gradients']} | {fmt_ratio(r)} |")
    return rows


# --- plots ---------------------------------------------------------------------------------------
def plots(res, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    colors = {"eigen": "tab:blue", "xtensor": "tab:orange", "omp": "tab:green",
              "torch": "tab:red"}
    stamp = f"{res['machine']['cpu']}, {res['machine']['cores']} cores, {res['machine']['date']}"
    written = []

    def save(fig, name):
        fig.text(0.99, 0.01, stamp, ha="right", va="bottom", fontsize=7, color="gray")
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        fig.savefig(out / name, dpi=90)
        plt.close(fig)
        written.append(name)

    t = res["benchmarks"].get("facade_bench", {}).get("times", {})
    if t:
        fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
        for ax, op in zip(axes, ("l2", "chain")):
            for b in ("eigen", "xtensor"):
                for fused, style in ((False, "-o"), (True, "--s")):
                    xs, ys = [], []
                    for n in SIZES:
                        native = (f"{op}/eigen/native_fused/{n}" if fused
                                  else f"{op}/{b}/native_eager/{n}")
                        r = ratio(t, f"{op}/{b}/facade/{n}", native)
                        if r is not None:
                            xs.append(n)
                            ys.append(r)
                    ax.plot(xs, ys, style, color=colors[b],
                            label=f"{b} / {'Eigen fused' if fused else b + ' one op at a time'}")
            ax.axhline(1, color="gray", lw=0.8)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("n (float32 elements)")
            ax.set_title({"l2": "L2 norm x.square().sum().sqrt()",
                          "chain": "chain exp(-x*x) * sin(x) + 1"}[op], fontsize=10)
        axes[0].set_ylabel("time / native time (lower is faster)")
        axes[1].legend(fontsize=7)
        save(fig, "facade.png")

    f = res["benchmarks"].get("fusion_bench", {}).get("ratios", [])
    if f:
        fig, ax = plt.subplots(figsize=(9, 3.6))
        cases, by = [], {}
        for r in f:
            m = re.match(r"(\w+) (eigen|xtensor) (.*?):", r["label"])
            if m:
                case = (f"{m[1]} {m[3]}".replace(" value_and_grad", "")
                        .replace("=10000000", " = 1e7").replace("=1000000", " = 1e6")
                        .replace("=1e6", " = 1e6").replace("=100", " = 100"))
                if case not in cases:
                    cases.append(case)
                by[(case, m[2])] = r
        width = 0.38
        for i, b in enumerate(("eigen", "xtensor")):
            ys = [by[(c, b)]["ratio"] if (c, b) in by else 0 for c in cases]
            xs = [k + (i - 0.5) * width for k in range(len(cases))]
            ax.bar(xs, ys, width, color=colors[b], label=f"facade on {b}")
        tg = [(by.get((c, "eigen")) or by.get((c, "xtensor")))["target"] for c in cases]
        ax.scatter(range(len(cases)), tg, marker="_", s=900, color="black", label="target",
                   zorder=3)
        ax.axhline(1, color="gray", lw=0.8)
        ax.set_xticks(range(len(cases)))
        ax.set_xticklabels(cases, fontsize=8)
        ax.set_ylabel("time / Eigen's fused (or hand-written) code")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1, 1))
        save(fig, "fusion.png")

    t = res["benchmarks"].get("autodiff_bench", {}).get("times", {})
    if t:
        fig, ax = plt.subplots(figsize=(9, 3.6))
        cases = ["l2_1e6", "logistic_1024x256", "ten_ops_n1"]
        bs = [b for b in ("eigen", "xtensor", "torch") if f"l2_1e6/{b}/value_and_grad" in t]
        width = 0.8 / len(bs)
        for i, b in enumerate(bs):
            ys = [t.get(f"{c}/{b}/value_and_grad", 0) / 1e3 for c in cases]
            ax.bar([k + (i - (len(bs) - 1) / 2) * width for k in range(len(cases))], ys, width,
                   color=colors[b], label="libtorch autograd" if b == "torch" else f"eagerpp on {b}")
        hand = [t.get(f"{c}/eigen/f", t.get(f"{c}/eigen/untaped", 0)) / 1e3 for c in cases]
        ax.scatter(range(len(cases)), hand, marker="_", s=900, color="black",
                   label="f alone on Eigen (no gradient)", zorder=3)
        ax.set_yscale("log")
        ax.set_xticks(range(len(cases)))
        ax.set_xticklabels(["l2, n = 1e6", "logistic loss (1024, 256)", "11 ops on 1 element"])
        ax.set_ylabel("value_and_grad time (us)")
        ax.legend(fontsize=8)
        save(fig, "autodiff.png")

    t = res["benchmarks"].get("mlp_bench", {}).get("times", {})
    if t:
        fig, ax = plt.subplots(figsize=(7, 3.4))
        bs = [b for b in ("eigen", "xtensor", "omp", "torch") if f"mlp_step/{b}" in t]
        ax.bar(range(len(bs)), [t[f"mlp_step/{b}"] / 1e6 for b in bs],
               color=[colors[b] for b in bs])
        ax.set_xticks(range(len(bs)))
        ax.set_xticklabels(["libtorch" if b == "torch" else f"eagerpp on {b}" for b in bs])
        ax.set_ylabel("ms per SGD step")
        ax.set_title("MLP 784-256-10, batch 128, one thread", fontsize=10)
        save(fig, "mlp.png")

    runs = res.get("omp_bench", {})
    if runs:
        fig, ax = plt.subplots(figsize=(6, 3.4))
        counts = sorted(int(c) for c in runs)
        for op, c in (("chain", "tab:green"), ("sum", "tab:purple"), ("sin", "tab:brown")):
            ys = [runs[str(k)][f"10000000/{op}"][0] / runs[str(k)][f"10000000/{op}"][1]
                  if f"10000000/{op}" in runs[str(k)] else float("nan") for k in counts]
            ax.plot(counts, ys, "-o", color=c, label=f"{op}, n = 1e7")
        ax.plot(counts, counts, ":", color="gray", label="linear")
        ax.set_xticks(counts)
        ax.set_xlabel("OpenMP threads")
        ax.set_ylabel("ep::eigen (1 thread) / ep::omp time")
        ax.legend(fontsize=8)
        save(fig, "omp.png")
    return written


# --- docs ----------------------------------------------------------------------------------------
def replace_markers(text, name, body):
    begin, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        print(f"bench_report: docs/benchmarks.md has no {begin} marker", file=sys.stderr)
        return text
    return pattern.sub(lambda _: begin + "\n" + "\n".join(body) + "\n" + end, text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True, type=Path)
    ap.add_argument("--docs", type=Path, default=Path(__file__).resolve().parent.parent / "docs")
    ap.add_argument("--no-docs", action="store_true")
    ap.add_argument("--only", default="",
                    help="comma-separated binaries (linalg_bench,fft_bench): update their results "
                         "and tables only, keeping the others' from docs/bench/results.json")
    a = ap.parse_args()
    only = [n for n in a.only.split(",") if n]

    machine = {}
    for line in (a.results / "machine.txt").read_text().splitlines():
        k, _, v = line.partition("=")
        machine[k] = v.strip()
    res = {"machine": machine, "benchmarks": {}}
    previous = a.docs / "bench" / "results.json"
    if only and previous.exists():  # the other binaries' results as the last full run left them
        res = json.loads(previous.read_text())
        res.setdefault("machines", {})
    names = ("facade_bench", "fusion_bench", "autodiff_bench", "mlp_bench", "stencil_bench",
             "small_bench", "threads_bench", "any_bench", "checkpoint_bench", "linalg_bench",
             "array_api_bench", "vmap_bench", "fft_bench", "fft_fftw_bench")
    for name in names:
        if only and name not in only:
            res["benchmarks"].setdefault(name, {"times": {}, "ratios": [], "info": []})
            continue
        ratios, infos = load_lines(a.results / f"{name}.txt")
        res["benchmarks"][name] = {"times": load_times(a.results / f"{name}.json"),
                                   "ratios": ratios, "info": infos}
        if only:
            res["machines"][name] = machine
    if not only:
        res["omp_bench"] = {str(k): v for k, v in load_omp(a.results).items()}
        res["memory"] = load_memory(a.results / "checkpoint_bench.txt")

    b = res["benchmarks"]
    omp_runs = {int(k): v for k, v in res.get("omp_bench", {}).items()}
    tables = {
        "facade": facade_table(b["facade_bench"]["times"], b["facade_bench"]["ratios"]),
        "fusion": pivot_table(b["fusion_bench"]["ratios"], b["fusion_bench"]["info"]),
        "autodiff": autodiff_table(b["autodiff_bench"]["times"], b["autodiff_bench"]["ratios"]),
        "mlp": mlp_table(b["mlp_bench"]["times"], b["mlp_bench"]["ratios"], b["mlp_bench"]["info"]),
        "omp": omp_table(omp_runs),
        "stencil": generic_table(b["stencil_bench"]["ratios"], b["stencil_bench"]["info"]),
        "small": generic_table(b["small_bench"]["ratios"], b["small_bench"]["info"]),
        "threads": generic_table(b["threads_bench"]["ratios"], b["threads_bench"]["info"]),
        "any": pivot_table(b["any_bench"]["ratios"]),
        "checkpoint": memory_table(res.get("memory", []), b["checkpoint_bench"]["times"]),
        "linalg": linalg_table(b["linalg_bench"]["times"], b["linalg_bench"]["ratios"],
                               b["linalg_bench"]["info"]),
        "array_api": generic_table(b["array_api_bench"]["ratios"], b["array_api_bench"]["info"]),
        "vmap": generic_table(b["vmap_bench"]["ratios"], b["vmap_bench"]["info"]),
        "fft": generic_table(b["fft_bench"]["ratios"], b["fft_bench"]["info"]),
        "fft_fftw": generic_table(b["fft_fftw_bench"]["ratios"], b["fft_fftw_bench"]["info"]),
    }
    if only:
        tables = {k: v for k, v in tables.items() if f"{k}_bench" in only}
    head = machine_line(machine)
    for k in tables:
        if k != "cuda":
            tables[k] = [head, ""] + tables[k]
    if a.no_docs:
        for k, v in tables.items():
            print(f"## {k}\n" + "\n".join(v) + "\n")
        return 0

    out = a.docs / "bench"
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(res, indent=1, sort_keys=True) + "\n")
    written = [] if only else plots(res, out)  # the plots show none of the --only binaries
    if not only:
        tables["cuda"] = cuda_section(a.docs)
    md = a.docs / "benchmarks.md"
    text = md.read_text()
    for k, v in tables.items():
        text = replace_markers(text, k, v)
    md.write_text(text)
    print(f"bench_report: wrote {out / 'results.json'}, {', '.join(written)} and the tables of {md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
