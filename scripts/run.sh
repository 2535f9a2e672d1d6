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
# Usage: scripts/run.sh [--model M] [--out DIR]
#   M: a model with timing groups (warpsim models).  Every step runs on M; the
#   validation and the measured overlay need the H200 measurements and run
#   only on h200 (the script says so when it skips them).
#   DIR: where results go (default: results/ of the source tree; installed
#   with cmake --install, where there is nothing to build: ./results).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
model=h200 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --model|--out) [ $# -ge 2 ] || warpsim_die "$1 needs a value (see --help)" ;;&
    --model) model=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) warpsim_die "unknown argument '$1' (see --help)" ;;
  esac
done
# gnuplot's panel arguments split on ':' (SIM.csv:MEASURED.csv).
case "$out" in *:*) warpsim_die "--out $out: a ':' in the path (allowed: a path without one; the plot scripts split their arguments on ':')" ;; esac
case "$root" in *:*) warpsim_die "$root: the checkout's path has a ':' (allowed: a path without one; the plot scripts split their arguments on ':')" ;; esac
if [ -e "$root/CMakeLists.txt" ]; then
  echo "== building (scripts/build.sh)"
  "$root/scripts/build.sh"
  export WARPSIM=$root/build/sim/warpsim
  out=${out:-$root/results}
else # installed: lib.sh found PREFIX/bin/warpsim
  [ -n "${WARPSIM:-}" ] || warpsim_die "no warpsim binary next to the scripts (set WARPSIM)"
  out=${out:-$PWD/results}
fi
# The measurements under results/reference are inputs, never outputs.
mkdir -p "$out" 2>/dev/null || warpsim_die "--out $out: cannot create the folder"
out=$(cd "$out" && pwd)
case "$out/" in "$root/results/reference/"*)
  warpsim_die "--out $out: inside results/reference, the measurements (allowed: any other folder)" ;; esac
[ -w "$out" ] || warpsim_die "--out $out: not writable"
ref=$root/results/reference/h200
# Below: scripts/ and traces/ of the tree; results go to $out.
cd "$root"
# A model that cannot be simulated fails here, once, before any sweep.
"$WARPSIM" run --model "$model" --kernel fma --set stream.iterations=1 --format csv >/dev/null
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
  done >"$out/$kernel.csv"
  wrote+=("$out/$kernel.csv")
done

# The measured H200 DRAM chase at ILP 8, in warpsim's column names, drawn
# beside the simulation (only when the simulation is of the H200).
chase_panel=$out/chase.csv
if [ "$model" = h200 ]; then
  awk -F, 'BEGIN { print "model,kernel,level,ilp,loads_in_flight,loads,warps_per_sm,occupancy_pct,bytes_per_cycle" }
    NR > 1 { sub(/\r$/, "") }
    NR > 1 && $1 == "dram" && $2 == 8 {
      printf "H200 measured,chase,dram,%s,%s,%s,%s,%.3f,%s\n", $2, $2, $2, $4, 100 * $4 / 64, $7 }' \
    "$ref/chase.csv" >"$out/chase_measured_h200.csv"
  chase_panel=$out/chase.csv:$out/chase_measured_h200.csv
  wrote+=("$out/chase_measured_h200.csv")
else
  rm -f "$out/chase_measured_h200.csv"
  echo "== the measured H200 chase is not drawn: the simulation is of $model" >&2
fi
for ext in png svg; do
  gnuplot -c scripts/plot_occupancy.gp "$out/occupancy_throughput.$ext" "$out/fma.csv" \
    "$chase_panel" "$out/stream.csv"
  wrote+=("$out/occupancy_throughput.$ext")
done

echo "== register-cap sweep (scripts/spill_sweep.sh)" >&2
scripts/spill_sweep.sh --model "$model" "$out"
wrote+=("$out/spill.csv" "$out/spill.png")
# More warps, slower: the spill sweep against occupancy, and each kernel
# named in `slower` swept over resident warps in its own panel: thrash, whose
# [stream] footprint outgrows L1 as warps are added (traces/thrash.ini).
slower=(thrash)
slower_panels=("$out/spill.csv")
for kernel in "${slower[@]}"; do
  [ -f "traces/$kernel.ini" ] || continue
  scripts/sweep.sh --quiet -o "$out/$kernel.csv" --model "$model" --kernel "$kernel" \
    --axis launch.blocks_per_sm=1..16
  slower_panels+=("$out/$kernel.csv")
  wrote+=("$out/$kernel.csv")
done
gnuplot -e "title='more resident warps, slower'" -c scripts/plot_occupancy.gp \
  "$out/occupancy_slower.png" "${slower_panels[@]}"
wrote+=("$out/occupancy_slower.png")

echo "== occupancy what-if curves (warpsim occupancy --vary all)" >&2
# The fma kernel's launch (128 threads, 32 registers) plus 20000 B of dynamic
# shared memory, so every limiter shows on one of the three graphs.
"$WARPSIM" occupancy --model "$model" --threads 128 --regs 32 --smem-dynamic 20000 \
  --vary all --format csv >"$out/occupancy_whatif.csv"
gnuplot -c scripts/plot_occupancy_whatif.gp "$out/occupancy_whatif.csv" "$out/occupancy_whatif.png"
wrote+=("$out/occupancy_whatif.csv" "$out/occupancy_whatif.png")

echo "== warp-state breakdowns (scripts/stalls.sh)" >&2
for args in "--kernel fma --set stream.ilp=1 --set stream.fma=32" \
  "--kernel fma --set stream.ilp=4 --set stream.fma=128" "--kernel chase"; do
  # shellcheck disable=SC2086 # the option list splits on purpose
  while read -r f; do wrote+=("$f"); done < <(scripts/stalls.sh --model "$model" $args "$out/stalls")
done

if [ "$model" = h200 ]; then
  echo "== validation against the real H200 (scripts/validate.sh)" >&2
  scripts/validate.sh --model "$model" --out "$out/validation" >/dev/null
  wrote+=("$out/validation/ (summary.csv, overlay.png, real_summary.csv, real.png, per-experiment CSVs)")
else
  echo "== validation skipped: the measurements in results/reference/h200 are of an H200, not $model" >&2
fi

# Plateau (max over the curve), knee (smallest occupancy reaching 90 %) and
# the change from 50 % to 100 % occupancy.
scripts/knee.sh "$out/fma.csv" fma_per_cycle "$out/chase.csv" bytes_per_cycle \
  "$out/stream.csv" bytes_per_cycle >"$out/summary.csv"
wrote+=("$out/summary.csv")
echo
echo "Plateaus and knees ($model model; throughput per SM per cycle; - : none, a curve still"
echo "rising has no knee):"
sed -e 's/,,/,-,/g' -e 's/,,/,-,/g' -e 's/,$/,-/' "$out/summary.csv" | column -s, -t
echo
if [ "$model" = h200 ]; then
  echo "Simulated vs measured on a real H200 (MAPE % of the simulation on the fit points"
  echo "the model's KEY.source lines name and on the held-out rest, MAPE of the Little's-law"
  echo "bound; knee = resident warps reaching 90 % of the plateau):"
  cut -d, -f1,3,4,5,7,10,11,13 "$out/validation/summary.csv" | column -s, -t
  echo
  echo "Real kernels simulated from their SASS + the B = 8 Nsight Compute profile against"
  echo "the H200's measured curves (results/validation/real.png; fitted = a model key was"
  echo "fitted on this kernel, else held out; targets: MAPE <= 15 %, knee within 4 warps):"
  column -s, -t "$out/validation/real_summary.csv"
  echo
fi
echo "Wrote (model $model):"
printf '  %s\n' "${wrote[@]#"$root"/}"
