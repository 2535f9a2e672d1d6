#!/usr/bin/env python3
"""fit_l1_thrash.py - the L1 thrash ramp of models/h200.ini ([l1] thrash_start,
thrash_width; model_l1_share in sim/input/model.c) from the per-warp working-set
microbenchmark results/reference/h200/thrash/ncu_points.csv.

Rows: pattern=line, carveout_pct=100 (the configuration the real kernels' harness
runs at: shared memory 233472 B, C = [l1] bytes 262144 - 233472 = 28672 B),
footprint F >= 1 KiB (8 or more lines a pass: no reuse inside one unrolled
iteration).  x = W x F / C with W = 4 B warps; the hit rate is normalised by
1 - 1/passes (Nsight Compute empties L1 before the launch: every line's first
read misses; passes = 4096 warp-loads / (F / 128)).  The ramp share(x) = 1 for
x <= s, (s + d - x) / d up to s + d, 0 beyond; s and d on a 0.01 grid minimise
the squared error.  Prints s, d, the rms and each row (with the smooth share
min(1, 1 / x) beside it); --all also prints the other carveouts against the fit.

Usage: scripts/fit_l1_thrash.py [--all] [CSV]
"""
import csv
import os
import sys

L1_BYTES = 262144  # models/h200.ini [l1] bytes


def ramp(x, s, d):
    return 1.0 if x <= s else 0.0 if x >= s + d else (s + d - x) / d


def rows(path):
    out = []
    for r in csv.DictReader(open(path)):
        f = int(r["footprint_bytes"])
        if r["pattern"] != "line" or f < 1024:
            continue
        w = 4 * int(r["blocks_per_sm"])
        c = L1_BYTES - int(r["smem_config_bytes"])
        passes = 4096 / (f / 128)
        h = min(1.0, float(r["l1_hit_pct"]) / 100 / (1 - 1 / passes))
        out.append((r["carveout_pct"], c, f, w, w * f / c, h))
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "--all"]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = args[0] if args else os.path.join(root, "results/reference/h200/thrash/ncu_points.csv")
    pts = rows(path)
    sel = [p for p in pts if p[0] == "100"]
    best = None
    for si in range(1, 200):
        for di in range(1, 300):
            s, d = si / 100, di / 100
            e = sum((ramp(p[4], s, d) - p[5]) ** 2 for p in sel)
            if best is None or e < best[0] - 1e-12:
                best = (e, s, d)
    e, s, d = best
    print("thrash_start=%.2f thrash_width=%.2f rows=%d rms=%.4f" % (s, d, len(sel), (e / len(sel)) ** 0.5))
    print("carveout_pct,capacity,footprint,warps,x,hit_norm,ramp,smooth")
    for p in sorted(pts if "--all" in sys.argv else sel, key=lambda p: (p[0] != "100", p[0], p[4], p[2])):
        print("%s,%d,%d,%d,%.3f,%.3f,%.3f,%.3f" % (p + (ramp(p[4], s, d), min(1.0, 1 / p[4]))))


if __name__ == "__main__":
    main()
