#!/usr/bin/env bash
# run.sh - the main job: build warpsim, then on one model (default h200) sweep
# resident warps 4..64 (1..16 CTAs of 128 threads) for
#   fma    (dependent FFMA chains, ILP 1, 2, 4, 8; 32 x ILP FFMAs per iteration),
#   chase  (dependent DRAM loads, ILP 1, 2, 4, 8 chains per warp),
#   stream (independent float4 DRAM loads, ILP 1, 2, 4 in flight per thread),
# write results/{fma,chase,stream}.csv and every curve with its knee, plateau
# and Little's-law bound (results/occupancy_curves.png), run the register-cap
# sweep and draw results/occupancy_slower.png (more warps, slower), the
# occupancy what-if curves, the warp-state breakdowns and (h200 only) the
# validation against the real H200 (its tables in results/validation/), then
# the headline figure results/occupancy_throughput.png (and .svg; its data in
# results/occupancy_headline.csv, its knees and falls from warpsim curve-stats
# in results/occupancy_headline_stats.csv): compute-bound flat past the knee,
# memory-bound flattening the earlier the more loads are in flight, and a
# curve that falls (stencil, measured and simulated; thrash on other models).  Prints a
# short summary (scripts/main_summary.sh): each curve's knee and 50 -> 100 %
# change (results/summary.csv), how many validated curves and real kernels
# meet their targets, the known misses with their reasons
# (scripts/known_misses.tsv), warpsim's warnings once, and the files.
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
  echo "== building (scripts/build.sh)" >&2
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
tty=0
[ -t 2 ] && tty=1 # one self-updating progress line on a terminal, none in a log
for c in "${curves[@]}"; do
  read -r kernel ilp extra <<<"$c"
  k=$((k + 1))
  [ $tty -eq 0 ] || printf "== sweeping [%2d/%d] %-6s ILP %s, resident warps 4..64   \r" "$k" "$n" "$kernel" "$ilp" >&2
  sets=(--set "stream.ilp=$ilp")
  for e in $extra; do sets+=(--set "$e"); done
  scripts/sweep.sh --quiet -o "$tmp/$kernel-$ilp.csv" --model "$model" --kernel "$kernel" \
    "${sets[@]}" --axis launch.blocks_per_sm=1..16
done
ms=$((($(date +%s%N) - start_ns) / 1000000))
pad=""
[ $tty -eq 0 ] || pad=$(printf '%40s' "") # over the progress line
printf '== swept %d curves x 16 points in %d.%03d s%s\n' "$n" $((ms / 1000)) $((ms % 1000)) "$pad" >&2

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
# Every curve with its knee, plateau and Little's-law bound.
gnuplot -c scripts/plot_occupancy.gp "$out/occupancy_curves.png" "$out/fma.csv" \
  "$chase_panel" "$out/stream.csv"
wrote+=("$out/occupancy_curves.png")

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
# (chase: its kernel file's one chain per warp, named so the title says it;
# the file keeps the name stalls_chase)
for args in "--kernel fma --set stream.ilp=1 --set stream.fma=32" \
  "--kernel fma --set stream.ilp=4 --set stream.fma=128" \
  "--kernel chase --set stream.ilp=1 --set stream.loads=1 --name chase"; do
  # shellcheck disable=SC2086 # the option list splits on purpose
  while read -r f; do wrote+=("$f"); done < <(scripts/stalls.sh --model "$model" $args "$out/stalls")
done

if [ "$model" = h200 ]; then
  echo "== validation against the real H200 (scripts/validate.sh)" >&2
  # Its tables go to $out/validation/ and its warnings (one per kernel, not
  # per point) into the summary below; all of it is shown when it fails.
  scripts/validate.sh --model "$model" --out "$out/validation" >"$tmp/validate.out" 2>"$tmp/validate.err" ||
    { cat "$tmp/validate.out" "$tmp/validate.err" >&2; warpsim_die "the validation failed (above)"; }
else
  echo "== validation skipped: the measurements in results/reference/h200 are of an H200, not $model" >&2
fi

echo "== Volkov's GTC 2010 tables on the GTX 480 model (scripts/volkov.sh)" >&2
scripts/volkov.sh "$out/volkov" >"$tmp/volkov.out"
wrote+=("$out/volkov/volkov.csv" "$out/volkov/volkov.png")

# The headline figure: one idea a panel, from the curves above and (h200)
# the H200's measured points; drawn after the validation, whose real.csv
# holds the measured and simulated stencil.
headline() {
  local sim
  # sim source: the model as its rows name it, "modified" when a key was set
  sim=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    NR == 2 { o = ("model_overrides" in c) ? $c["model_overrides"] : ""
              gsub(/,/, ";", o); printf "warpsim %s%s", $c["model"], o == "" ? "" : " modified (" o ")"; exit }' "$out/fma.csv")
  echo "panel,series,source,warps_per_sm,occupancy_pct,value,unit"
  # SIM.csv: `warpsim run` rows; the curves of column ilp in ILPS.
  sim_rows() { # PANEL FILE METRIC ILPS UNIT
    awk -F, -v p="$1" -v m="$3" -v ilps=" $4 " -v u="$5" -v src="$sim" '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      index(ilps, " " $c["ilp"] " ") { printf "%s,ILP %s,%s,%s,%s,%s,%s\n", p, $c["ilp"], src, $c["warps_per_sm"], $c["occupancy_pct"], $c[m], u }' "$2"
  }
  sim_rows compute "$out/fma.csv" fma_per_cycle "1 2 4" "warp FFMA per cycle per SM"
  sim_rows memory "$out/chase.csv" bytes_per_cycle "2 4 8" "DRAM bytes per cycle per SM"
  if [ "$model" = h200 ]; then
    awk -F, 'NR > 1 && ($1 == 1 || $1 == 2 || $1 == 4) {
      printf "compute,ILP %s,H200 measured,%s,%.3f,%s,warp FFMA per cycle per SM\n", $1, $3, 100 * $3 / 64, $5 }' "$ref/fma.csv"
    awk -F, 'NR > 1 && $1 == "dram" && ($2 == 2 || $2 == 4 || $2 == 8) {
      printf "memory,ILP %s,H200 measured,%s,%.3f,%s,DRAM bytes per cycle per SM\n", $2, $4, 100 * $4 / 64, $7 }' "$ref/chase.csv"
    # stencil (traces/stencil_sass.ini): 4 warps a CTA, elements per cycle per SM
    awk -F, -v src="$sim" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      $c["kernel"] == "stencil" { o = sprintf("%.3f", 100 * $c["warps_per_sm"] / 64)
        printf "falls,stencil,%s,%s,%s,%s,grid points per cycle per SM\n", src, $c["warps_per_sm"], o, $c["simulated"]
        printf "falls,stencil,H200 measured,%s,%s,%s,grid points per cycle per SM\n", $c["warps_per_sm"], o, $c["measured"] }' \
      "$out/validation/real.csv"
  else
    sim_rows falls "$out/thrash.csv" bytes_per_cycle "1" "load bytes per cycle per SM (L1 then L2)" |
      sed 's/^falls,ILP 1,/falls,thrash (L1 footprint),/'
  fi
}
headline >"$out/occupancy_headline.csv"
scripts/headline_stats.sh "$out/occupancy_headline.csv" >"$out/occupancy_headline_stats.csv"
for ext in png svg; do
  gnuplot -c scripts/plot_occupancy_headline.gp "$out/occupancy_headline.csv" \
    "$out/occupancy_headline_stats.csv" "$out/occupancy_throughput.$ext"
done
wrote+=("$out/occupancy_headline.csv" "$out/occupancy_headline_stats.csv" "$out/occupancy_throughput.png"
  "$out/occupancy_throughput.svg")

# Plateau (max over the curve), knee (smallest occupancy reaching 90 %) and
# the change from 50 % to 100 % occupancy; spill and thrash: what more warps cost.
pairs=("$out/fma.csv" fma_per_cycle "$out/chase.csv" bytes_per_cycle "$out/stream.csv" bytes_per_cycle
  "$out/spill.csv" fma_per_cycle)
[ ! -f "$out/thrash.csv" ] || pairs+=("$out/thrash.csv" bytes_per_cycle)
scripts/knee.sh "${pairs[@]}" >"$out/summary.csv"
echo
scripts/main_summary.sh "$out" "$model" "$tmp/validate.err"
rel=("${wrote[@]#"$out"/}")
echo "Figures in ${out#"$root"/}/: occupancy_throughput.png (the finding), $(printf '%s\n' "${rel[@]}" |
  grep -v -e '\.csv$' -e '\.svg$' -e '^occupancy_throughput.png$' | sed 's|^stalls/.*|stalls/*.png|' | uniq | paste -sd' ' -)"
[ "$model" != h200 ] || echo "  and validation/overlay.png (synthetic kernels), validation/real_1.png .. real_7.png (real kernels, pure and anchored)"
