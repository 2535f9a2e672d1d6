#!/usr/bin/env bash
# cli_l1flight.sh - the data of results/reference/h200/l1flight/ (lines in
# flight by cache operator, L1 hits on lines in flight; README there) is what
# its README and models/h200.ini's [class_global] lines_in_flight comment
# quote:
#   load.csv and rerun/load.csv: the header, 3576 rows each with the same keys,
#     1192 per cache_op (ca, cg, nc), every B landed (blocks_min = blocks_max =
#     blocks_per_sm), and the rate column recomputed from the cycles: B x 4
#     warps x iters x E / cycles;
#   the stride-32 DRAM plateaus at carveout 228 (median over B = 4..16, E =
#     1, 2, 4 of rate x 32 lines): ca 0.176, cg 0.187, their ratio 0.945 (the
#     212 lines of h200.ini), and equal at carveout 100 (0.240);
#   the reuse rows: 128-bit L2 ca loads at B = 16 run 0.397 lines/cycle
#     without reuse and 0.664 with two warps per line (hits take no line),
#     with the latency of a miss at B = 8 (128 lines / 0.358 = 358 cycles);
#   l1flight.sass.gz: ca, cg, nc are LDG.E.STRONG.SM, LDG.E.STRONG.GPU and
#     LDG.E.CONSTANT, and the reuse=loads kernel with R = 4 has one LDG (ptxas
#     merged the same-address loads: the README says those rows are not used).
# Needs WARPSIM_ROOT (CTest sets it).
set -u
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the repository}
ref=$root/results/reference/h200/l1flight
# shellcheck source=tests/common.sh
. "$root/tests/common.sh"

head='kernel,bits,stride_elems,level,cache_op,reuse,readers_per_line,elems_in_flight_per_thread,lines_per_warp_access,sectors_per_warp_access,carveout_kb,regs,blocks_per_sm,resident_warps,iters,cycles,warp_loads_per_cycle_per_sm,cycles_min,cycles_max,blocks_min,blocks_max'
for f in load.csv rerun/load.csv; do
  [ "$(head -1 "$ref/$f")" = "$head" ] || fail "$f: header: $(head -1 "$ref/$f")"
  [ "$(($(wc -l <"$ref/$f") - 1))" = 3576 ] || fail "$f: $(wc -l <"$ref/$f") lines, want 3577"
  ok
  bad=$(awk -F, 'NR > 1 { n[$5]++; if ($20 != $13 || $21 != $13) b++
      r = $13 * 4 * $15 * $8 / $16; d = r / $17 - 1; if (d < 0) d = -d; if (d > 1e-4) b++ }
    END { if (n["ca"] != 1192 || n["cg"] != 1192 || n["nc"] != 1192) b++; print b + 0 }' "$ref/$f")
  [ "$bad" = 0 ] || fail "$f: $bad rows off (B landed, rate = B x 4 x iters x E / cycles, 1192 per cache_op)"
  ok
done
keys() { cut -d, -f1-11,13 "$1" | sort; }
[ "$(keys "$ref/load.csv")" = "$(keys "$ref/rerun/load.csv")" ] || fail "rerun/load.csv: other rows than load.csv"
ok

# plateau LEVEL OP CARVEOUT: median accessed lines/cycle of the stride-32 rows at B = 4..16
plateau() {
  awk -F, -v l="$1" -v o="$2" -v c="$3" '$2 == 32 && $3 == 32 && $4 == l && $5 == o && $6 == "none" &&
    $11 == c && $13 >= 4 { print $17 * $9 }' "$ref/load.csv" | sort -g |
    awk '{ v[NR] = $1 } END { printf "%.3f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ca=$(plateau dram ca 228) cg=$(plateau dram cg 228)
if [ "$ca" != 0.176 ] || [ "$cg" != 0.187 ]; then
  fail "stride-32 DRAM plateaus at 228: ca $ca cg $cg (want 0.176, 0.187)"
fi
ok
ratio=$(awk -v a="$ca" -v b="$cg" 'BEGIN { printf "%.3f", a / b }')
lines=$(awk -v r="$ratio" 'BEGIN { printf "%.0f", 224 * r }')
[ "$lines" = 211 ] || [ "$lines" = 212 ] || fail "ca / cg $ratio gives $lines lines of 224 (want 212)"
ok
ca=$(plateau dram ca 100) cg=$(plateau dram cg 100)
if [ "$ca" != 0.240 ] || [ "$cg" != 0.240 ]; then
  fail "stride-32 DRAM plateaus at 100: ca $ca cg $cg (want 0.240)"
fi
ok

# point REUSE R B: accessed lines/cycle of the 128-bit L2 ca rows, E = 1, carveout 228
point() {
  awk -F, -v m="$1" -v r="$2" -v b="$3" '$2 == 128 && $3 == 1 && $4 == "l2" && $5 == "ca" && $6 == m &&
    $7 == r && $8 == 1 && $11 == 228 && $13 == b { printf "%.3f\n", $17 * $9 }' "$ref/load.csv"
}
one=$(point none 1 16) two=$(point warps 2 16)
if [ "$one" != 0.397 ] || [ "$two" != 0.664 ]; then
  fail "128-bit L2 ca at B = 16: none $one, warps R=2 $two (want 0.397, 0.664)"
fi
ok
lat=$(awk -v p="$(point warps 2 8)" 'BEGIN { printf "%.0f", 128 / p }')
[ "$lat" = 358 ] || fail "warps R=2 latency at B = 8: $lat cycles (want 358)"
ok

zcat "$ref/l1flight.sass.gz" >"$tmp/sass" || fail "l1flight.sass.gz: not readable"
# ops FUNCTION: the LDG opcodes of one function, one a line
ops() { awk -v f="$1" '/Function :/ { on = $3 == f } on && /LDG/ { match($0, /LDG[A-Z0-9._]*/); print substr($0, RSTART, RLENGTH) }' "$tmp/sass"; }
want=(LDG.E.STRONG.SM LDG.E.STRONG.GPU LDG.E.CONSTANT) # cache_op 0 ca, 1 cg, 2 nc
for op in 0 1 2; do
  got=$(ops "_Z4k_ldILi4ELi32ELi1ELi1ELi${op}ELi0ELi1EEvPKcmPfP3Reci")
  [ "$got" = "${want[$op]}" ] || fail "cache_op $op: '$got' (want ${want[$op]})"
  ok
done
n=$(ops _Z4k_ldILi16ELi1ELi4ELi0ELi0ELi3ELi4EEvPKcmPfP3Reci | wc -l)
[ "$n" = 1 ] || fail "reuse=loads R=4: $n LDG (want 1: merged by ptxas)"
ok
echo "$passed passed"
