#!/usr/bin/env python3
"""ncu_bytes.csv from probe_{none,all}.csv and ncu_probe_{none,all}.csv: per probe point the
second (measured) of its two profiled k_w launches, with the bytes it stored beside the DRAM
bytes written and read and the L2 write counters.  Usage: python3 ncu_table.py > ncu_bytes.csv"""
import csv, collections
M = ["dram__bytes_write.sum", "dram__bytes_read.sum", "lts__t_sectors_op_write.sum",
     "lts__t_sector_op_write_hit_rate.pct", "lts__t_sectors_op_write_lookup_hit.sum",
     "lts__t_sectors_op_write_lookup_miss.sum", "gpu__time_duration.sum"]
print("cache_control,exp,store_bits,stores_per_iteration,l2_state,footprint_bytes,blocks_per_sm,"
      "bytes_stored,dram_bytes_written,dram_written_pct,dram_bytes_read,lts_write_sectors,"
      "lts_write_hit_pct,lts_write_lookup_hit,lts_write_lookup_miss,gpu_time_ns,clock64_bytes_per_cycle_per_sm")
for cc in ("none", "all"):
    pts = list(csv.DictReader(open(f"probe_{cc}.csv")))
    rows = [r for r in csv.reader(open(f"ncu_probe_{cc}.csv")) if len(r) > 14 and r[0].isdigit()]
    val = collections.defaultdict(dict)
    for r in rows:
        val[int(r[0])][r[12]] = float(r[14].replace(",", "")) if r[14] not in ("", "n/a") else float("nan")
    assert len(val) == 2 * len(pts), (len(val), len(pts))
    for i, p in enumerate(pts):
        v = val[2 * i + 1]
        stored = int(p["blocks_per_sm"]) * 132 * (1 << 20)
        print(",".join(str(x) for x in [cc, p["exp"], p["store_bits"], p["stores_per_iteration"], p["l2_state"],
              p["footprint_bytes"], p["blocks_per_sm"], stored, int(v[M[0]]), "%.1f" % (100 * v[M[0]] / stored),
              int(v[M[1]]), int(v[M[2]]), "%.2f" % v[M[3]], int(v[M[4]]), int(v[M[5]]), int(v[M[6]]),
              p["bytes_stored_per_cycle_per_sm"]]))
