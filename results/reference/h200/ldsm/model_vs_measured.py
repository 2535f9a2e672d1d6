#!/usr/bin/env python3
"""warpsim against every curve of this folder: each loop simulated from its own SASS.

Usage (from the repository root, after a build):
  results/reference/h200/ldsm/model_vs_measured.py [WARPSIM [MODEL]] > results/reference/h200/ldsm/model_vs_measured.csv

For each curve and B in 1, 2, 4, 8, 16 the kernel's function of ldsm.sass.gz is simulated with
no profile at the measured launch (128 threads, B CTAs per SM, B x 132 CTAs), once with 256 and
once with 512 trips of the timed loop (the set-up loop before it: 22 trips, 20 for k_wmma); the
difference is 256 trips of the timed loop alone, as clock64 measured it.  simulated rate = B x
work per CTA for 256 trips / that difference; ratio = simulated / measured rate.
"""
import csv
import gzip
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = sys.argv[1] if len(sys.argv) > 1 else "build/sim/warpsim"
MODEL = sys.argv[2] if len(sys.argv) > 2 else "models/h200.ini"


def fn_ldsm(x, t, lay):
    return f"_Z6k_ldsmILi{x}ELb{int(t)}ELi{lay}EEvPfP3Reci"


# (csv, row filter, function, set-up trips, work per CTA per 256 trips)
CURVES = []
for lay, lname in ((0, "rows16"), (1, "tile80")):
    for x in (1, 2, 4):
        for t in (False, True):
            CURVES.append(("tput", {"op": f"ldsm_x{x}{'_trans' if t else ''}", "layout": lname},
                           fn_ldsm(x, t, lay), 22, 4 * 256 * 8))
    CURVES.append(("tput", {"op": "sts128", "layout": "pitch80" if lay else "contig"},
                   f"_Z7k_sh128ILi1ELi{lay}EEvPfP3Reci", 22, 4 * 256 * 8))
for op, form, x, t in (("lds32", 1, 1, 0), ("ldsm_x1", 0, 1, 0), ("ldsm_x2", 0, 2, 0), ("ldsm_x4", 0, 4, 0),
                       ("ldsm_x4_trans", 0, 4, 1), ("ldsm_x4+hmma", 2, 4, 0)):
    CURVES.append(("chain", {"op": op}, f"_Z7k_chainILi{form}ELi{x}ELb{t}EEvPfP3Reci", 22, 4 * 256 * 8))
for c in (1, 2):
    CURVES.append(("wmma", {"op": "wmma_ldsm", "accumulators": str(c)}, f"_Z6k_wmmaILi{c}EEvPfP3Reci", 20,
                   4 * 256 * 4))


def simulate(listing, fn, setup, trips, b, tmp):
    ini = os.path.join(tmp, "k.ini")
    with open(ini, "w") as fh:
        fh.write(f"[sass]\nfile={listing}\nfunction={fn}\ntrip_count={setup},{trips}\n"
                 f"[launch]\nthreads_per_block=128\nblocks_per_sm={b}\nblocks={132 * b}\n")
    out = subprocess.run([BIN, "run", "--kernel", ini, "--model", MODEL, "--format", "csv", "--no-whatif"],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    row = dict(zip(out[0].split(","), out[1].split(",")))
    return float(row["cycles"])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        listing = os.path.join(tmp, "ldsm.sass")
        with gzip.open(os.path.join(HERE, "ldsm.sass.gz"), "rt") as src, open(listing, "w") as dst:
            dst.write(src.read())
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(["file", "op", "variant", "blocks_per_sm", "measured_rate", "simulated_rate", "ratio"])
        for fam, flt, fn, setup, work in CURVES:
            with open(os.path.join(HERE, fam + ".csv"), newline="") as fh:
                rows = list(csv.DictReader(fh))
            rate = [c for c in rows[0] if "per_cycle" in c][0]
            for b in (1, 2, 4, 8, 16):
                sel = [r for r in rows if r["blocks_per_sm"] == str(b) and all(r[k] == v for k, v in flt.items())]
                if not sel:
                    continue
                meas = float(sel[0][rate])
                cyc = simulate(listing, fn, setup, 512, b, tmp) - simulate(listing, fn, setup, 256, b, tmp)
                sim = b * work / cyc
                variant = ";".join(f"{k}={v}" for k, v in flt.items() if k != "op")
                w.writerow([fam + ".csv", flt["op"], variant, b, f"{meas:.5g}", f"{sim:.5g}", f"{sim / meas:.3f}"])


if __name__ == "__main__":
    main()
