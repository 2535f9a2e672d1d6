#!/usr/bin/env bash
# cli_smallgrid.sh - natural small grids and partial waves of the H200
# (results/reference/h200/smallgrid/grid.csv: G = 1..264 CTAs of 128 threads,
# at most B = 1..16 per SM, each thread 4 independent float4 loads in flight):
# up to 132 CTAs every CTA gets an SM of its own, 4 warps with 16 DRAM lines
# each in flight, where the H200 draws 8.2-8.9 B/cycle per busy SM.  The
# synthetic stream kernel (stream.loads = ilp = fma = 4, the loads in flight
# grid.csv's kernel had) against bytes per cycle per busy SM, every DRAM point (65):
# - with the shipped [dram] stream_latency (700) and [class_global]
#   warp_lines_in_flight (0: no per-warp cap), both fitted on the DRAM load
#   curves of results/reference/h200/matrix/gload.csv, none of these points:
#   MAPE <= 10 % (the issue's gate for the small-grid curve; 1.8 % today);
# - the two belong together: the matrix's latency with the old cap of 8
#   lines (39 %), or the old latency of 340 cycles without a cap (47 %: 4
#   warps then fill DRAM at the lone-SM share), is more than 30 % off (the
#   old pair, 340 with a cap of 8, gave 6.8 %);
# - L2 (L2 lines do not count against the cap, as for SASS kernels) at the
#   one-CTA-per-SM grids G <= 132 (45 points): MAPE <= 10 %.  Past 132 CTAs
#   the L2 rows (2 CTAs on some SMs) are up to 27 % slow with or without the
#   cap, a matter of the L2 share, not of this cap: not judged here.
# Between 133 and 263 CTAs some SMs run 2 CTAs and the others 1; grid.csv
# averages over the busy SMs, warpsim's rate is the most loaded SM's (the
# JSON report's tail_pct gives the other's time: each CTA moves the same
# bytes, so the lighter SMs run at rate / (2 (1 - tail_pct / 100))), and the
# test averages the two the same way.
set -euo pipefail
root=${WARPSIM_ROOT:?}
bin=${WARPSIM_BIN:?}
command -v jq >/dev/null || { echo "jq not found: skipped"; exit 77; }
. "$root/tests/common.sh"
csv=$root/results/reference/h200/smallgrid/grid.csv
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { print $c["level"], $c["grid"], $c["blocks_per_sm_allowed"], $c["bytes_per_cycle_per_sm"] }' \
  "$csv" >"$tmp/points"
[ "$(grep -c '^dram ' "$tmp/points")" -eq 65 ] || fail "$csv: $(grep -c '^dram ' "$tmp/points") DRAM rows (want 65)"
# simulate LEVEL G B [--set ...]: bytes per cycle per busy SM
simulate() {
  local level=$1 g=$2 b=$3
  shift 3
  "$bin" run --kernel stream --set stream.level="$level" --set stream.loads=4 --set stream.ilp=4 \
    --set stream.fma=4 --set launch.blocks_per_sm="$b" --set launch.blocks="$g" "$@" --format json \
    2>/dev/null | jq -r --argjson g "$g" '.bytes_per_cycle as $r | ($g - 132) as $k |
      if $k <= 0 or $k >= 132 then $r
      else ($k * $r + (132 - $k) * $r / (2 * (1 - .profile.launch.tail_pct / 100))) / 132 end'
}
# mape LEVEL MAX_GRID [--set ...]: MAPE (%) over the rows of LEVEL with G <= MAX_GRID
mape() {
  local level=$1 max=$2
  shift 2
  local lv g b m s
  : >"$tmp/pairs"
  while read -r lv g b m; do
    [ "$lv" = "$level" ] && [ "$g" -le "$max" ] || continue
    s=$(simulate "$lv" "$g" "$b" "$@")
    [ -n "$s" ] || fail "$lv G=$g B=$b: no result"
    echo "$m $s" >>"$tmp/pairs"
  done <"$tmp/points"
  awk '{ e = ($2 - $1) / $1; t += e < 0 ? -e : e; n++ } END { printf "%.1f\n", 100 * t / n }' "$tmp/pairs"
}
within() { awk -v m="$1" -v lim="$2" 'BEGIN { exit !(m <= lim) }'; }
dram=$(mape dram 264)
within "$dram" 10 || fail "DRAM, 65 points: MAPE $dram % with the shipped keys (want <= 10 %)"
ok
cap8=$(mape dram 264 --set class_global.warp_lines_in_flight=8)
within "$cap8" 30 && fail "DRAM, 65 points: MAPE $cap8 % with a cap of 8 lines (want > 30 %: the keys must matter)"
ok
off=$(mape dram 264 --set dram.stream_latency=340)
within "$off" 30 && fail "DRAM, 65 points: MAPE $off % at stream_latency 340 (want > 30 %: the keys must matter)"
ok
l2=$(mape l2 132)
within "$l2" 10 || fail "L2, 45 points at G <= 132: MAPE $l2 % (want <= 10 %)"
ok
echo "small grids (grid.csv): DRAM MAPE $dram % (cap of 8: $cap8 %, latency 340: $off %); L2 (G <= 132) $l2 %"
echo "$passed passed, 0 failed"
