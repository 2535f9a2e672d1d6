#!/usr/bin/env python3
"""Each h200 model key a matrix family can set, beside what the family measured.

Usage (from this folder): model_vs_measured.py ../../../../models/h200.ini > model_vs_measured.csv

Per row: the key's value in the model file, the measured value and how it is read off the curves:
  latency  = 4 / rate at B = 1 of the one-chain curve (one warp per SM sub-partition, each of
             its operations waits for the previous one: cycles per dependent operation, loop
             overhead of 2-3 instructions per 16 operations included);
  interval = 4 / the highest rate over B (cycles between two warp instructions of the class on
             one SMSP at saturation; for shared memory and the LSU the SM-wide figure 1 / rate);
  bytes    = highest rate x bytes per warp instruction (bytes per SM cycle);
  plateau  = the rate at the curve's largest B x bytes per warp instruction (the sustained
             rate with every warp resident).
A key "opcode_timing ITEM latency|interval" is that item of the group's opcode_timing list
(OPCODE[.MOD]:LATENCY:INTERVAL).  ../pipemix/pipemix.csv (two kinds of chains in one loop)
is read as family "../pipemix/pipemix".
For shared-memory rows `per_unit` divides by the wavefronts the access needs (the model
multiplies its interval by the conflict ways), for the stride-32 L1 row by the 32 lines.
Nothing here changes the model; `agrees_within_10pct` compares measured (per unit) with the
model value: within 10 %, or for latencies within 10 % or 0.6 cycles (the loop's 2-3 overhead
instructions per 16 dependent operations add about half a cycle per operation).
"""
import configparser
import csv
import sys


def curves(fam):
    with open(fam + ".csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    rate = [c for c in rows[0] if "per_cycle" in c][0]
    return rows, rate


def pick(fam, **flt):
    rows, rate = curves(fam)
    sel = [r for r in rows if all(r[k] == str(v) for k, v in flt.items())]
    if not sel:
        sys.exit(f"no rows in {fam}.csv for {flt}")
    return sel, rate


def latency(fam, **flt):
    sel, rate = pick(fam, **flt)
    r1 = [r for r in sel if r["blocks_per_sm"] == "1"][0]
    return 4 / float(r1[rate]), f"{fam}.csv {fmt(flt)} blocks_per_sm=1: 4 / {rate}"


def interval(fam, per_sm=False, **flt):
    sel, rate = pick(fam, **flt)
    best = max(sel, key=lambda r: float(r[rate]))
    v = (1 if per_sm else 4) / float(best[rate])
    return v, f"{fam}.csv {fmt(flt)} blocks_per_sm={best['blocks_per_sm']} (peak): {1 if per_sm else 4} / {rate}"


def bytes_peak(fam, per_instr, **flt):
    sel, rate = pick(fam, **flt)
    best = max(sel, key=lambda r: float(r[rate]))
    return float(best[rate]) * per_instr, f"{fam}.csv {fmt(flt)} blocks_per_sm={best['blocks_per_sm']} (peak) x {per_instr} B"


def plateau(fam, per_instr, **flt):
    sel, rate = pick(fam, **flt)
    last = max(sel, key=lambda r: int(r["blocks_per_sm"]))
    return float(last[rate]) * per_instr, f"{fam}.csv {fmt(flt)} blocks_per_sm={last['blocks_per_sm']} (largest B) x {per_instr} B"


def model_value(cfg, sec, key):
    """The key's value and source; "opcode_timing ITEM latency|interval" reads one item."""
    if not key.startswith("opcode_timing "):
        return cfg.get(sec, key, fallback=""), cfg.get(sec, key + ".source", fallback="")
    _, item, part = key.split()
    src = cfg.get(sec, "opcode_timing.source", fallback="")
    for it in cfg.get(sec, "opcode_timing", fallback="").split(";"):
        name, lat, iv = it.strip().split(":")
        if name == item:
            return (lat if part == "latency" else iv), src
    return "", src


def fmt(flt):
    return " ".join(f"{k}={v}" for k, v in flt.items())


def both(sec, what, fam, op, item=None):
    """The latency (one chain) and interval (8 chains) rows of one op of a chain family (of
    opcode_timing ITEM when given)."""
    pre = f"opcode_timing {item} " if item else ""
    return [(sec, pre + "latency", what, lambda: latency(fam, op=op, chains=1)),
            (sec, pre + "interval", what, lambda: interval(fam, op=op, chains=8))]


PIPEMIX = "../pipemix/pipemix"


# (model section, key, SASS opcodes measured, function giving (value, how)[, units per instruction])
ROWS = [
    *both("class_imad", "IMAD", "int", "imad"),
    ("class_imad", "interval", "IMAD alone (pipemix, 4 chains)",
     lambda: interval(PIPEMIX, kind_a="imad", kind_b="none")),
    *both("class_imad", "IMAD.HI.U32", "int", "imad_hi", "IMAD.HI"),
    ("class_imad", "opcode_timing IMAD.WIDE interval", "IMAD.WIDE.U32 + IADD3 + half an IADD3.X (per step)",
     lambda: interval("int", op="imad_wide", chains=8)),
    ("class_fp32", "interval", "FFMA, no barrier (4 chains)", lambda: interval("barrier", ffma_per_barrier=0)),
    ("class_fp32", "interval", "HADD2.F32 + F2FP.F16.F32.PACK_AB (f32->f16->f32)",
     lambda: interval("conv", op="f32_f16_f32", chains=8)),
    *both("class_int", "LOP3.LUT", "int", "lop3"),
    *both("class_int", "SHF.L.W.U32.HI", "int", "shf"),
    *both("class_int", "PRMT", "int", "prmt"),
    *both("class_conv", "POPC (the conversion pipe: pipemix POPC:MUFU shares it)", "int", "popc"),
    ("class_int", "interval", "IADD3 + IMAD.IADD (ptxas splits an add chain over the ALU and the FMA heavy half: two pipes, not one key)",
     lambda: interval("int", op="iadd3", chains=8)),
    *both("class_fp64", "DFMA", "dfma", "dfma"),
    *[("class_mufu", "interval", what, (lambda op=op: interval("mufu", op=op, ffma_per_mufu=0)))
      for what, op in [("MUFU.EX2", "ex2"), ("MUFU.RSQ", "rsqrt"), ("MUFU.SIN (+ FMUL.RZ)", "sin"),
                       ("MUFU.TANH", "tanh")]],
    *[(("class_tensor", "opcode_timing HMMA.16816 latency", what + ", one accumulator chain",
        (lambda form=form: latency("hmma", form=form, accumulator_chains=1)), per),
       ("class_tensor", "opcode_timing HMMA.16816 interval", what + ", 4 chains",
        (lambda form=form: interval("hmma", form=form, accumulator_chains=4))))[i]
      for what, form, per in [("HMMA.16816.F32 (mma.sync m16n8k16)", "mma_m16n8k16_f32acc", 1),
                              ("HMMA.16816.F16 (mma.sync m16n8k16)", "mma_m16n8k16_f16acc", 1),
                              ("HMMA.16816.F32 from wmma 16x16x16 (2 per mma_sync on independent halves: "
                               "2 chains)", "wmma_16x16x16_f32acc", 0.5)]
      for i in (0, 1)],
    *both("class_conv", "F2I.TRUNC.NTZ", "conv", "f2i"),
    *both("class_int", "I2FP.F32.S32 (what cvt.rn.f32.s32 is on sm_90: an ALU op)", "conv", "i2f"),
    *both("class_conv", "F2F.F64.F32 + F2F.F32.F64 (per conversion)", "conv", "f32_f64_f32"),
    ("class_conv", "interval", "I2F.F64 + F2I.F64.TRUNC (per conversion)",
     lambda: interval("conv", op="s32_f64_s32", chains=8)),
    ("smem", "latency", "LDS + IMAD.IADD (dependent chain step, conflict-free)",
     lambda: latency("shared", op="lds_chain", access_bits=32, stride_elems=1)),
    ("smem", "interval", "LDS (32 bit, conflict-free; SM-wide cycles per warp LDS)",
     lambda: interval("shared", per_sm=True, op="lds", access_bits=32, stride_elems=1)),
    ("smem", "interval", "LDS (32 bit, 32-way conflict; SM-wide)",
     lambda: interval("shared", per_sm=True, op="lds", access_bits=32, stride_elems=32), 32),
    ("smem", "interval", "LDS.64 (conflict-free, 2 wavefronts; SM-wide)",
     lambda: interval("shared", per_sm=True, op="lds", access_bits=64, stride_elems=1), 2),
    ("smem", "interval", "LDS.128 (conflict-free, 4 wavefronts; SM-wide)",
     lambda: interval("shared", per_sm=True, op="lds", access_bits=128, stride_elems=1), 4),
    ("smem", "interval", "STS (32 bit, conflict-free; SM-wide)",
     lambda: interval("shared", per_sm=True, op="sts", access_bits=32, stride_elems=1)),
    ("smem", "interval", "LDSM.16.M88.4 (x4, conflict-free; SM-wide)",
     lambda: interval("shared", per_sm=True, op="ldsm_x4", access_bits=256, stride_elems=16), 4),
    ("l1", "bytes_per_cycle", "LDG.E.128 L1 hits, contiguous (requested bytes)",
     lambda: bytes_peak("gload", 512, shape=128, stride_elems=1, level="l1", elems_in_flight_per_thread=2)),
    ("l1", "bytes_per_cycle", "LDG.E L1 hits, contiguous, 8 in flight (requested bytes; issue-bound: 32 instructions per 8 loads)",
     lambda: bytes_peak("gload", 128, shape=32, stride_elems=1, level="l1", elems_in_flight_per_thread=8)),
    ("lsu", "interval", "LDG.E L1 hits, stride 32 (32 lines per request; SM-wide cycles per request)",
     lambda: interval("gload", per_sm=True, shape=32, stride_elems=32, level="l1", elems_in_flight_per_thread=4), 32),
    ("l2", "bytes_per_cycle", "LDG.E.128 L2 hits, contiguous, 8 in flight (all SMs busy; 512+ lines in flight per SM)",
     lambda: plateau("gload", 512, shape=128, stride_elems=1, level="l2", elems_in_flight_per_thread=8)),
    ("l2", "bytes_per_cycle", "LDG.E L2 hits, contiguous, 8 in flight (all SMs busy, 64 warps)",
     lambda: plateau("gload", 128, shape=32, stride_elems=1, level="l2", elems_in_flight_per_thread=8)),
    ("l2", "bytes_per_cycle", "LDG.E.128 L2 hits, contiguous, 1 in flight (peak at 224 lines in flight: not modelled)",
     lambda: bytes_peak("gload", 512, shape=128, stride_elems=1, level="l2", elems_in_flight_per_thread=1)),
    ("l2", "bytes_per_cycle", "LDG.E.128.STRONG.GPU (ld.global.cg) L2 hits, contiguous, 1 in flight (peak: not modelled)",
     lambda: bytes_peak("gload", 512, shape=128, stride_elems=1, level="l2_cg", elems_in_flight_per_thread=1)),
    ("dram", "bytes_per_cycle", "LDG.E.128 DRAM, contiguous, 4 in flight (all SMs busy)",
     lambda: bytes_peak("gload", 512, shape=128, stride_elems=1, level="dram", elems_in_flight_per_thread=4)),
    ("dram", "bytes_per_cycle", "LDG.E DRAM, contiguous, 8 in flight",
     lambda: bytes_peak("gload", 128, shape=32, stride_elems=1, level="dram", elems_in_flight_per_thread=8)),
    ("dram", "bytes_per_cycle", "LDGSTS.E.BYPASS.128 DRAM, 4 stages x 4 copies",
     lambda: bytes_peak("cpasync", 1, stages=4, copies_per_thread_per_stage=4, level="dram")),
]


def main(ini):
    cfg = configparser.ConfigParser(interpolation=None, strict=False)
    cfg.read(ini)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["model_section", "model_key", "model_value", "model_source", "opcodes_measured", "measured_value",
                "units_per_instruction", "measured_per_unit", "measured_over_model", "agrees_within_10pct",
                "how_measured"])
    for row in ROWS:
        sec, key, what, fn = row[:4]
        per = row[4] if len(row) > 4 else 1
        mv, src = model_value(cfg, sec, key)
        val, how = fn()
        unit = val / per
        ratio = f"{unit / float(mv):.3f}" if mv else ""
        ok = abs(unit / float(mv) - 1) <= 0.10 or (key == "latency" and abs(unit - float(mv)) <= 0.6) if mv else None
        w.writerow([sec, key, mv, src, what, f"{val:.3f}", per, f"{unit:.3f}", ratio,
                    "" if ok is None else ("yes" if ok else "no"), how])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    main(sys.argv[1])
