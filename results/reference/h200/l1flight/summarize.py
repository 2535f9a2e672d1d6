#!/usr/bin/env python3
"""summarize.py - the tables of README.md from load.csv, rerun/load.csv and ncu/raw_b8.csv.gz.

Accessed lines per cycle per SM = warp_loads_per_cycle_per_sm x lines_per_warp_access (a hit
counts); lines asked for per SM = resident_warps x elems_in_flight_per_thread x
lines_per_warp_access; Little's law: the mean latency of a warp-load's lines = lines asked for /
accessed lines per cycle while every warp has all its loads out.
Usage: python3 summarize.py   (run in this folder; prints plain text)
"""
import csv
import gzip
import statistics as st

rows = list(csv.DictReader(open("load.csv")))


def key(r):
    return (r["bits"], r["stride_elems"], r["level"], r["cache_op"], r["reuse"], r["readers_per_line"],
            r["elems_in_flight_per_thread"], r["carveout_kb"])


def lines(r):
    return float(r["warp_loads_per_cycle_per_sm"]) * int(r["lines_per_warp_access"])


def asked(r):
    return int(r["resident_warps"]) * int(r["elems_in_flight_per_thread"]) * int(r["lines_per_warp_access"])


curve = {}
for r in rows:
    curve.setdefault(key(r), {})[int(r["blocks_per_sm"])] = r


def pts(bits, s, lvl, op, e, c, reuse="none", rd="1"):
    return curve[(str(bits), str(s), lvl, op, reuse, str(rd), str(e), str(c))]


print("1. stride 32 (32 lines per warp-load): accessed lines/cycle/SM, median over B = 4..16 and E = 1, 2, 4")
for lvl in ("l2", "dram"):
    for c in (228, 100):
        vals = {}
        for op in ("ca", "cg", "nc"):
            v = [lines(p[b]) for e in (1, 2, 4) for p in [pts(32, 32, lvl, op, e, c)] for b in range(4, 17)]
            vals[op] = st.median(v)
        print(f"  {lvl:4} carveout {c}: " + ", ".join(f"{op} {vals[op]:.3f}" for op in vals) +
              f"; ca/cg {vals['ca'] / vals['cg']:.3f}, nc/cg {vals['nc'] / vals['cg']:.3f}")
print("   B = 1, E = 1 (128 lines asked): latency = 128 / rate")
for lvl in ("l2", "dram"):
    print(f"  {lvl:4} " + ", ".join(
        f"{op} {128 / lines(pts(32, 32, lvl, op, 1, 228)[1]):.0f} cycles" for op in ("ca", "cg", "nc")))

print("2. coalesced 128-bit loads (4 lines per warp-load), carveout 228: peak accessed lines/cycle, "
      "lines asked at the peak, rate at the largest B")
for lvl in ("l2", "dram"):
    for e in (1, 2, 4):
        out = []
        for op in ("ca", "cg", "nc"):
            p = pts(128, 1, lvl, op, e, 228)
            bp = max(p, key=lambda b: lines(p[b]))
            bl = max(p)
            out.append(f"{op} {lines(p[bp]):.3f} @{asked(p[bp])} -> {lines(p[bl]):.3f} @{asked(p[bl])}")
        print(f"  {lvl:4} E={e}: " + "; ".join(out))

print("3. readers per line (128-bit, L2, carveout 228): accessed lines/cycle, asked accessed lines, "
      "latency = asked / rate")
for op in ("ca", "nc", "cg"):
    for reuse, rd, e in (("none", 1, 1), ("warps", 2, 1), ("warps", 4, 1), ("warps_lag", 2, 1),
                         ("none", 1, 4), ("warps", 2, 4), ("warps", 4, 4)):
        p = pts(128, 1, "l2", op, e, 228, reuse, rd)
        out = [f"B={b} {lines(p[b]):.3f} ({asked(p[b])}, {asked(p[b]) / lines(p[b]):.0f} cyc)"
               for b in (8, 12, 14, 16) if b in p]
        print(f"  {op} {reuse:9} R={rd} E={e}: " + "; ".join(out))

print("4. rerun/load.csv against load.csv: |difference| of the rate, every row")
re = {key(r) + (r["blocks_per_sm"],): float(r["warp_loads_per_cycle_per_sm"])
      for r in csv.DictReader(open("rerun/load.csv"))}
d = sorted(abs(re[key(r) + (r["blocks_per_sm"],)] / float(r["warp_loads_per_cycle_per_sm"]) - 1) * 100
           for r in rows)
print(f"  {len(d)} rows: median {st.median(d):.2f} %, 90th percentile {d[int(0.9 * len(d))]:.2f} %, "
      f"worst {d[-1]:.1f} %")

print("5. Nsight Compute at B = 8 (ncu/raw_b8.csv.gz): L1 global-load sectors, hit %, L2 sectors read")
raw = list(csv.reader(gzip.open("ncu/raw_b8.csv.gz", "rt")))
h = raw[0]
ix = {n: h.index(n) for n in ("Kernel Name", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                              "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                              "lts__t_sectors_srcunit_tex_op_read.sum")}
for r in raw[2:]:
    sec = float(r[ix["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]])
    hit = float(r[ix["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"]])
    l2 = float(r[ix["lts__t_sectors_srcunit_tex_op_read.sum"]])
    name = r[ix["Kernel Name"]].split("(")[0].replace("void ", "")
    print(f"  {name:32} {sec / 1e6:6.2f} M, hit {100 * hit / sec:5.1f} %, L2 {l2 / 1e6:6.2f} M")
