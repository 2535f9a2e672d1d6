#!/usr/bin/env python3
"""fit_far.py - [l2] far_extra_cycles from this directory's rows (README "The fit").

For each dense footprint F of 30..64 MiB, probe2.csv / ncu/raw2_b8.csv (B = 8, E = 1) give the
share of the near partition's read sectors (lts__t_sectors_srcunit_tex_op_read) that the far
partition served as a hit (q = ltcfabric lookup hits / tex sectors) and as a miss to DRAM (d =
ltcfabric lookup misses / tex sectors).  Every gatherstep.csv dense row at F, with N lines in
flight (min(224, 32 x warps x E)), is modelled by Little's law with the 28 MiB row of the same
B and E as the base: rate(F) = N / (N / rate(28) + q X + d Y), Y = 697 - 305 = 392 (DRAM over L2
latency, models/h200.ini [dram] and [l2] latency, measured).  X minimises the mean absolute
relative error over the 60 rows (F = 30, 32, 36, 40, 48, 64; E = 1, 4; B = 1, 2, 4, 8, 16).
Prints the MAPE for a few X, the best X and the mean error per footprint."""
import csv
import os
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))
rate = defaultdict(dict)
for r in csv.DictReader(open(os.path.join(here, "gatherstep.csv"))):
    if r["mode"] == "dense":
        rate[(int(r["elems_in_flight_per_thread"]), int(r["blocks_per_sm"]))][int(r["span_mib"])] = float(
            r["lines_per_cycle_per_sm"])
raw = list(csv.reader(open(os.path.join(here, "ncu", "raw2_b8.csv"))))
col = {n: i for i, n in enumerate(raw[0])}
q, d = {}, {}
for r, p in zip(raw[2:], csv.DictReader(open(os.path.join(here, "probe2.csv")))):
    if p["mode"] != "dense":
        continue
    v = lambda m: float(r[col[m]].replace(",", ""))
    tex = v("lts__t_sectors_srcunit_tex_op_read.sum")
    fab = v("lts__t_sectors_srcunit_ltcfabric_op_read.sum")
    hit = v("lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum")
    q[int(p["span_mib"])], d[int(p["span_mib"])] = hit / tex, (fab - hit) / tex
Y = 697 - 305
foots = (30, 32, 36, 40, 48, 64)
pts = []
for (e, b), by in sorted(rate.items()):
    n = min(224, 32 * 4 * b * e)
    for f in foots:
        pts.append((f, n, n / by[28], q[f], d[f], by[f]))


def err(x, p):
    f, n, l0, qf, df, r = p
    return n / (l0 + qf * x + df * Y) / r - 1


def mape(x):
    return 100 * sum(abs(err(x, p)) for p in pts) / len(pts)


for f in foots:
    print("F %2d MiB: far hits q %.4f, far misses d %.4f of the near partition's sectors" % (f, q[f], d[f]))
print("MAPE over %d rows: " % len(pts) + ", ".join("%d: %.1f %%" % (x, mape(x)) for x in (0, 1000, 1500, 2000, 2500, 3000)))
best = min(range(0, 8001, 10), key=mape)
print("best X = %d cycles: MAPE %.1f %%" % (best, mape(best)))
for f in foots:
    e = [err(best, p) for p in pts if p[0] == f]
    print("  F %2d MiB: mean error %+.1f %%" % (f, 100 * sum(e) / len(e)))
