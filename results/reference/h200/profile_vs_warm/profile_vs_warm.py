#!/usr/bin/env python3
"""How far a Nsight Compute profile's own cycle counts are from the warm-launch curve at the same B.

Usage: profile_vs_warm.py [--exports DIR...] [--device WARM_CSV NCU_CSV CACHE_CONTROL ...]

--exports: directories in the layout of results/reference/h200/real*/ (curves.csv and
  ncu/details*.csv, one profiled launch per kernel at B = grid / 132): compares the export's
  `SM Active Cycles` (sm__cycles_active.avg) and `Elapsed Cycles` (gpc__cycles_elapsed.max) of the
  GPU Speed Of Light section with the curve's cycles at that B (mean per-SM busy span of the
  median of 3 warm launches).
--device: triples of a warm curve CSV (same columns as curves.csv, measured in the same session),
  an `ncu --csv --metrics ...` raw export of the same binary in its ncu8 mode (each kernel
  launched twice at B = 8) and the --cache-control value it ran with (all = flush between replay
  passes, the default; none).
Writes one CSV row per kernel and profiled launch to stdout.
"""
import csv
import glob
import os
import re
import sys

ALIASES = {  # Kernel Name (function base) -> curve name, where it is not the name without "k_"
    "k_transpose<0>": "transpose", "k_transpose<1>": "transpose_pad",
    "k_store<1, float>": "store1f", "k_copy<1, float>": "copy1f",
    "k_store<4, float>": "store4f", "k_copy<4, float>": "copy4f",
    "k_store<1, float4>": "store1f4", "k_copy<1, float4>": "copy1f4",
    "k_store<4, float4>": "store4f4", "k_copy<4, float4>": "copy4f4",
}
HEADER = ["set", "kernel", "blocks_per_sm", "source", "cache_control", "launch", "warm_cycles",
          "ncu_sm_active_cycles", "ncu_elapsed_cycles", "active_over_warm", "elapsed_over_warm", "ncu_sm_ghz"]


def num(s):
    return float(s.replace(",", ""))


def curve_name(kernel):
    base = re.sub(r"^void ", "", kernel.split("(")[0]).strip()
    return ALIASES.get(base, base[2:] if base.startswith("k_") else base)


def read_curves(path):
    with open(path, newline="") as fh:
        return {(r["kernel"], int(r["blocks_per_sm"])): float(r["cycles"]) for r in csv.DictReader(fh)}


def ncu_rows(path):
    """(ID, kernel name, grid, {metric name: value}) per profiled launch, in ID order."""
    with open(path, newline="", encoding="utf-8-sig") as fh:
        lines = [l for l in fh if l.startswith('"')]
    prof = {}
    for r in csv.DictReader(lines):
        if r["Section Name"] not in ("GPU Speed Of Light Throughput", "Command line profiler metrics"):
            continue
        prof.setdefault((int(r["ID"]), r["Kernel Name"], r["Grid Size"]), {})[r["Metric Name"]] = r["Metric Value"]
    return sorted(prof.items())


def row(w, set_name, name, b, source, cc, launch, warm, act, ela, ghz):
    w.writerow([set_name, name, b, source, cc, launch, f"{warm:.0f}", f"{act:.0f}", f"{ela:.0f}",
                f"{act / warm:.4f}", f"{ela / warm:.4f}", ghz])


def exports(w, d):
    curves = read_curves(os.path.join(d, "curves.csv"))
    set_name = os.path.basename(os.path.normpath(d))
    for det in sorted(glob.glob(os.path.join(d, "ncu", "details*.csv"))):
        for (pid, kern, grid), m in ncu_rows(det):
            g = int(grid.strip("()").split(",")[0])
            name, b = curve_name(kern), g // 132
            if g % 132 or "SM Active Cycles" not in m or (name, b) not in curves:
                continue
            row(w, set_name, name, b, "export " + os.path.basename(det), "all", 1, curves[(name, b)],
                num(m["SM Active Cycles"]), num(m["Elapsed Cycles"]), m.get("SM Frequency", ""))


def device(w, warm_csv, ncu_csv, cc):
    curves = read_curves(warm_csv)
    seen = {}
    for (pid, kern, grid), m in ncu_rows(ncu_csv):
        name, b = curve_name(kern), int(grid.strip("()").split(",")[0]) // 132
        seen[name] = seen.get(name, 0) + 1
        ghz = num(m["gpc__cycles_elapsed.avg.per_second"]) / 1e9
        row(w, "device 2026-12-02", name, b, os.path.basename(ncu_csv), cc, seen[name], curves[(name, b)],
            num(m["sm__cycles_active.avg"]), num(m["gpc__cycles_elapsed.max"]), f"{ghz:.3f}")


def main(argv):
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(HEADER)
    mode, args = None, []
    for a in argv + ["--end"]:
        if a.startswith("--"):
            if mode == "--exports":
                for d in args:
                    exports(w, d)
            elif mode == "--device":
                if len(args) % 3:
                    sys.exit("--device takes triples: WARM_CSV NCU_CSV CACHE_CONTROL")
                for i in range(0, len(args), 3):
                    device(w, *args[i:i + 3])
            mode, args = a, []
        else:
            args.append(a)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    main(sys.argv[1:])
