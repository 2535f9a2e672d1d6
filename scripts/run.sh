#!/usr/bin/env bash
# run.sh - the main job: build warpsim, then on one model (default h200) sweep
# resident warps 4..64 (1..16 CTAs of 128 threads) for
#   fma    (dependent FFMA chains, ILP 1, 2, 4, 8; 32 x ILP FFMAs per iteration),
#   chase  (dependent DRAM loads, ILP 1, 2, 4, 8 chains per warp),
#   stream (independent float4 DRAM loads, ILP 1, 2, 4 in flight per thread),
# write results/{fma,chase,stream}.csv, draw results/occupancy_throughput.png
# (and .svg: the 50 % line, each curve's knee and plateau, what 50 -> 100 %
# occupancy buys, and on h200 the measured H200 DRAM chase at ILP 8), run the
# register-cap sweep and draw results/occupancy_slower.png (more warps,
# slower), the occupancy what-if curves, the warp-state breakdowns and (h200
# only) the validation against the real H200; print each curve's plateau, knee
# and 50 -> 100 % change (also in results/summary.csv) and the files written.
# Usage: scripts/run.sh [--model M]
#   M: a model with timing groups (warpsim models).  Every step runs on M; the
#   validation and the measured overlay need the H200 measurements and run
#   only on h200 (the script says so when it skips them).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
cd "$root"
model=h200
if [ "${1:-}" = "--model" ]; then
  [ $# -ge 2 ] || warpsim_die "--model needs a value (see --help)"
  model=$2
  shift 2
fi
[ $# -eq 0 ] || warpsim_die "unknown argument '$1' (see --help)"

echo "== building (scripts/build.sh)"
scripts/build.sh
export WARPSIM=$root/build/sim/warpsim
# A model that cannot be simulated fails here, once, before any sweep.
"$WARPSIM" run --model "$model" --kernel fma --set stream.iterations=1 --format csv >/dev/null
mkdir -p results
wrote=()
start_ns=$(date +%s%N)

# curve list: kernel ilp extra-sets
curves=()
for i in 1 2 4 8; do curves+=("fma $i stream.fma=$((32 * i))"); done
for i in 1 2 4 8; do curves+=("chase $i stream.loads=$i"); done
for i in 1 2 4; do curves+=("stream $i stream.loads=$i stream.fma=$i"); done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=${#curves[@]} k=0
eol='\n'
[ -t 2 ] && eol='\r' # one self-updating progress line on a terminal
for c in "${curves[@]}"; do
  read -r kernel ilp extra <<<"$c"
  k=$((k + 1))
  printf "== sweeping [%2d/%d] %-6s ILP %s, resident warps 4..64   $eol" "$k" "$n" "$kernel" "$ilp" >&2
  sets=(--set "stream.ilp=$ilp")
  for e in $extra; do sets+=(--set "$e"); done
  scripts/sweep.sh --quiet -o "$tmp/$kernel-$ilp.csv" --model "$model" --kernel "$kernel" \
    "${sets[@]}" --axis launch.blocks_per_sm=1..16
done
ms=$((($(date +%s%N) - start_ns) / 1000000))
printf '== swept %d curves x 16 points in %d.%03d s%40s\n' "$n" $((ms / 1000)) $((ms % 1000)) "" >&2

for kernel in fma chase stream; do
  first=1
  for f in "$tmp/$kernel"-*.csv; do
    if [ $first -eq 1 ]; then cat "$f"; first=0; else tail -n +2 "$f"; fi
  done >"results/$kernel.csv"
  wrote+=("results/$kernel.csv")
done

# The measured H200 DRAM chase at ILP 8, in warpsim's column names, drawn
# beside the simulation (only when the simulation is of the H200).
chase_panel=results/chase.csv
if [ "$model" = h200 ]; then
  awk -F, 'BEGIN { print "model,kernel,level,ilp,loads_in_flight,loads,warps_per_sm,occupancy_pct,bytes_per_cycle" }
    NR > 1 { sub(/\r$/, "") }
    NR > 1 && $1 == "dram" && $2 == 8 {
      printf "H200 measured,chase,dram,%s,%s,%s,%s,%.3f,%s\n", $2, $2, $2, $4, 100 * $4 / 64, $7 }' \
    results/reference/h200/chase.csv >results/chase_measured_h200.csv
  chase_panel=results/chase.csv:results/chase_measured_h200.csv
  wrote+=("results/chase_measured_h200.csv")
else
  rm -f results/chase_measured_h200.csv
  echo "== the measured H200 chase is not drawn: the simulation is of $model" >&2
fi
for ext in png svg; do
  gnuplot -c scripts/plot_occupancy.gp "results/occupancy_throughput.$ext" results/fma.csv \
    "$chase_panel" results/stream.csv
  wrote+=("results/occupancy_throughput.$ext")
done

echo "== register-cap sweep (scripts/spill_sweep.sh)" >&2
scripts/spill_sweep.sh --model "$model" results
wrote+=(results/spill.csv results/spill.png)
# More warps, slower: the spill sweep against occupancy.  Hook: a kernel in
# traces/ named in `slower` (e.g. a cache-thrashing kernel whose [stream]
# footprint outgrows the cache as warps are added) is swept over resident
# warps and gets its own panel.
slower=(thrash)
slower_panels=(results/spill.csv)
for kernel in "${slower[@]}"; do
  [ -f "traces/$kernel.ini" ] || continue
  scripts/sweep.sh --quiet -o "results/$kernel.csv" --model "$model" --kernel "$kernel" \
    --axis launch.blocks_per_sm=1..16
  slower_panels+=("results/$kernel.csv")
  wrote+=("results/$kernel.csv")
done
gnuplot -e "title='more resident warps, slower'" -c scripts/plot_occupancy.gp \
  results/occupancy_slower.png "${slower_panels[@]}"
wrote+=(results/occupancy_slower.png)

echo "== occupancy what-if curves (warpsim occupancy --vary all)" >&2
# The fma kernel's launch (128 threads, 32 registers) plus 20000 B of dynamic
# shared memory, so every limiter shows on one of the three graphs.
"$WARPSIM" occupancy --model "$model" --threads 128 --regs 32 --smem-dynamic 20000 \
  --vary all --format csv >results/occupancy_whatif.csv
gnuplot -e "in='results/occupancy_whatif.csv'; out='results/occupancy_whatif.png'" \
  scripts/plot_occupancy_whatif.gp
wrote+=(results/occupancy_whatif.csv results/occupancy_whatif.png)

echo "== warp-state breakdowns (scripts/stalls.sh)" >&2
for args in "--kernel fma --set stream.ilp=1 --set stream.fma=32" \
  "--kernel fma --set stream.ilp=4 --set stream.fma=128" "--kernel chase"; do
  # shellcheck disable=SC2086 # the option list splits on purpose
  while read -r f; do wrote+=("${f#"$root"/}"); done < <(scripts/stalls.sh --model "$model" $args results/stalls)
done

if [ "$model" = h200 ]; then
  echo "== validation against the real H200 (scripts/validate.sh)" >&2
  scripts/validate.sh >/dev/null
  wrote+=("results/validation/ (summary.csv, overlay.png, per-experiment CSVs)")
else
  echo "== validation skipped: the measurements in results/reference/h200 are of an H200, not $model" >&2
fi

# Plateau (max over the curve), knee (smallest occupancy reaching 90 %) and
# the change from 50 % to 100 % occupancy.
scripts/knee.sh results/fma.csv fma_per_cycle results/chase.csv bytes_per_cycle \
  results/stream.csv bytes_per_cycle >results/summary.csv
wrote+=(results/summary.csv)
echo
echo "Plateaus and knees ($model model; throughput per SM per cycle):"
column -s, -t results/summary.csv
echo
if [ "$model" = h200 ]; then
  echo "Simulated vs measured on a real H200 (MAPE % of the simulation and of the"
  echo "Little's-law bound; knee = resident warps reaching 90 % of the plateau):"
  cut -d, -f1,3,4,7,8,10 results/validation/summary.csv | column -s, -t
  echo
fi
echo "Wrote (model $model):"
printf '  %s\n' "${wrote[@]}"
