#!/usr/bin/env bash
# run.sh - the main job: build warpsim, then on the default H200 model sweep
# resident warps 4..64 (1..16 CTAs of 128 threads) for
#   fma    (dependent FFMA chains, ILP 1, 2, 4, 8; 32 x ILP FFMAs per iteration),
#   chase  (dependent DRAM loads, ILP 1, 2, 4, 8 chains per warp),
#   stream (independent float4 DRAM loads, ILP 1, 2, 4 in flight per thread),
# write results/{fma,chase,stream}.csv, draw results/occupancy_ipc.png, and
# print each curve's plateau and the smallest occupancy reaching 90 % of it
# (also in results/summary.csv).
# Usage: scripts/run.sh [--model M]
#   M: a model with timing groups (warpsim models); the validation against the
#   real H200 runs only for the default h200.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
cd "$root"
model=h200
if [ "${1:-}" = "--model" ]; then model=${2:?}; shift 2; fi
if [ $# -gt 0 ]; then
  echo "run.sh: unknown argument '$1' (see --help)" >&2
  exit 2
fi

echo "== building (scripts/build.sh)"
scripts/build.sh
export WARPSIM=$root/build/sim/warpsim
mkdir -p results
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
[ -t 2 ] && eol='\r'   # one self-updating progress line on a terminal
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
done

gnuplot -c scripts/plot_occupancy_ipc.gp results/fma.csv results/chase.csv results/stream.csv \
  results/occupancy_ipc.png
gnuplot -c scripts/plot_occupancy_ipc.gp results/fma.csv results/chase.csv results/stream.csv \
  results/occupancy_ipc.svg

echo "== register-cap sweep (scripts/spill_sweep.sh)" >&2
scripts/spill_sweep.sh results

echo "== occupancy what-if curves (warpsim occupancy --vary all)" >&2
# The fma kernel's launch (128 threads, 32 registers) plus 20000 B of dynamic
# shared memory, so every limiter shows on one of the three graphs.
"$WARPSIM" occupancy --model "$model" --threads 128 --regs 32 --smem-dynamic 20000 \
  --vary all --format csv >results/occupancy_whatif.csv
gnuplot -e "in='results/occupancy_whatif.csv'; out='results/occupancy_whatif.png'" \
  scripts/plot_occupancy_whatif.gp

echo "== warp-state breakdowns (scripts/stalls.sh)" >&2
scripts/stalls.sh --kernel fma --set stream.ilp=1 --set stream.fma=32 results/stalls >/dev/null
scripts/stalls.sh --kernel fma --set stream.ilp=4 --set stream.fma=128 results/stalls >/dev/null
scripts/stalls.sh --kernel chase results/stalls >/dev/null

echo "== validation against the real H200 (scripts/validate.sh)" >&2
if [ "$model" = h200 ]; then
  scripts/validate.sh >/dev/null
fi

# Plateau (max over the curve) and knee (smallest occupancy reaching 90 %).
scripts/knee.sh results/fma.csv fma_per_cycle results/chase.csv bytes_per_cycle \
  results/stream.csv bytes_per_cycle >results/summary.csv
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
echo "Wrote results/fma.csv results/chase.csv results/stream.csv results/summary.csv"
echo "      results/occupancy_ipc.png (and .svg), results/spill.csv, results/spill.png,
      results/occupancy_whatif.{csv,png} (occupancy vs registers, block size, shared memory),
      results/validation/ (summary.csv, overlay.png, per-experiment CSVs),
      results/stalls/ (warp-state breakdowns of fma ILP 1, fma ILP 4 and the DRAM chase)"
