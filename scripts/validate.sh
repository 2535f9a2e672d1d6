#!/usr/bin/env bash
# validate.sh - simulate every H200 experiment in results/reference/h200/ on the default model and
# compare with the measurements in results/reference/h200/ (fma, chase at L2
# and DRAM, stream).  Writes results/validation/<experiment>.csv (measured,
# simulated, relative error and the Little's-law bound per point),
# results/validation/summary.csv, and results/validation/overlay.png
# (measured as points, simulated as lines, bound dashed; one panel per
# experiment); prints a table per curve: the mean absolute percentage error of
# the simulation and of the Little's-law bound (what the mechanisms beyond
# Little's law buy), and the knee (smallest resident warps reaching 90 % of the
# plateau), measured vs simulated.
#
# Usage: scripts/validate.sh [--check] [--model M] [--set g.k=v ...] [--out DIR]
#   --set    a model override for every run (e.g. --set dram.latency=800), to
#            see how a calibration choice moves the error.
#   --check  exit 1 unless every curve has MAPE <= 10 % and its knee within
#            one step (4 warps) of the measured knee.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
ref=$root/results/reference/h200
out=$root/results/validation
model=h200 check=0 sets=""
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1; shift ;;
    --model|--set|--out) [ $# -ge 2 ] || { echo "validate.sh: $1 needs a value (see --help)" >&2; exit 2; } ;;&
    --model) model=$2; shift 2 ;;
    --set) sets+=" --set $2"; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) warpsim_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "validate.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -x "$warpsim" ] || BUILD_DIR=$root/build "$root/scripts/build.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Results go to $tmp/out first and replace $out only when every run succeeded.
final=$out
out=$tmp/out
mkdir -p "$out"

# jobs: experiment, curve, ilp, warps, measured, sim metric, bound column, warpsim args
awk -F, 'NR > 1 { sub(/\r$/, ""); printf "fma\tfma ilp %s\t%s\t%s\t%s\tfma_per_cycle\tbound_fma_per_cycle\t--kernel fma --set stream.ilp=%s --set stream.fma=%d --set launch.blocks_per_sm=%s\n", $1, $1, $3, $5, $1, 32 * $1, $2 }' \
  "$ref/fma.csv" >"$tmp/jobs"
awk -F, 'NR > 1 { sub(/\r$/, ""); printf "chase_%s\tchase %s ilp %s\t%s\t%s\t%s\tbytes_per_cycle\tbound_bytes_per_cycle\t--kernel chase --set stream.level=%s --set stream.ilp=%s --set stream.loads=%s --set launch.blocks_per_sm=%s\n", $1, $1, $2, $2, $4, $7, $1, $2, $2, $3 }' \
  "$ref/chase.csv" >>"$tmp/jobs"
awk -F, 'NR > 1 { sub(/\r$/, ""); printf "stream\tstream ilp %s\t%s\t%s\t%s\tbytes_per_cycle\tbound_bytes_per_cycle\t--kernel stream --set stream.ilp=%s --set stream.loads=%s --set stream.fma=%s --set launch.blocks_per_sm=%s\n", $1, $1, $3, $5, $1, $1, $1, $2 }' \
  "$ref/stream.csv" >>"$tmp/jobs"

# Run every point (GNU parallel, job order kept) and pick the two columns.
n=$(wc -l <"$tmp/jobs")
echo "validate.sh: simulating $n measured points on model $model ..." >&2
run_point() { # $6 metric, $7 bound column, $8 warpsim args; prints "sim<TAB>bound"
  set -o pipefail
  local metric=$6 bound=$7
  # shellcheck disable=SC2086 # word splitting of the option list is intended
  "$WARPSIM_BIN" run --model "$MODEL" --format csv ${8} $SETS |
    awk -F, -v a="$metric" -v b="$bound" '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                if (!(a in c) || !(b in c)) { print "no column " a " or " b > "/dev/stderr"; exit 1 }
                next }
      { printf "%s\t%s\n", $c[a], $c[b] }'
}
export -f run_point
export WARPSIM_BIN=$warpsim MODEL=$model SETS=$sets
if ! parallel --will-cite --halt now,fail=1 -k --colsep '\t' run_point '{1}' '{2}' '{3}' '{4}' '{5}' '{6}' '{7}' '{8}' \
  :::: "$tmp/jobs" >"$tmp/sims"; then
  echo "validate.sh: a simulation failed (see the message above); nothing written" >&2
  exit 2
fi
paste "$tmp/jobs" "$tmp/sims" >"$tmp/all"

# Per experiment CSV: curve,ilp,warps_per_sm,measured,simulated,rel_error_pct,bound
for exp in $(cut -f1 "$tmp/all" | uniq); do
  awk -F'\t' -v e="$exp" 'BEGIN { print "curve,ilp,warps_per_sm,measured,simulated,rel_error_pct,little_bound" }
    $1 == e { printf "%s,%s,%s,%s,%s,%.2f,%s\n", $2, $3, $4, $5, $9, 100 * ($9 - $5) / $5, $10 }' \
    "$tmp/all" >"$out/$exp.csv"
done

# Summary: MAPE and knees per curve.
awk -F'\t' '
  { key = $2; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    i = ++cnt[key]; w[key, i] = $4; m[key, i] = $5; s[key, i] = $9
    err[key] += ($9 > $5 ? $9 - $5 : $5 - $9) / $5
    berr[key] += ($10 > $5 ? $10 - $5 : $5 - $10) / $5
    if ($5 > mbest[key]) mbest[key] = $5
    if ($9 > sbest[key]) sbest[key] = $9 }
  END {
    print "curve,points,mape_pct,bound_mape_pct,plateau_measured,plateau_simulated,knee_measured_warps,knee_simulated_warps,knee_diff_warps,pass"
    for (j = 1; j <= n; j++) {
      k = order[j]; km = ""; ks = ""
      for (i = 1; i <= cnt[k]; i++) {
        if (km == "" && m[k, i] >= 0.9 * mbest[k]) km = w[k, i]
        if (ks == "" && s[k, i] >= 0.9 * sbest[k]) ks = w[k, i]
      }
      mape = 100 * err[k] / cnt[k]; d = ks - km; ad = d < 0 ? -d : d
      printf "%s,%d,%.1f,%.1f,%s,%s,%s,%s,%+d,%s\n", k, cnt[k], mape, 100 * berr[k] / cnt[k],
             mbest[k], sbest[k], km, ks, d,
             (mape <= 10 && ad <= 4) ? "yes" : "NO"
    }
  }' "$tmp/all" >"$out/summary.csv"

if command -v gnuplot >/dev/null 2>&1; then
  gnuplot -c "$root/scripts/plot_validation.gp" "$out" "$out/overlay.png" ||
    { echo "validate.sh: gnuplot failed" >&2; exit 1; }
fi
mkdir -p "$final"
cp "$out"/* "$final"/
column -s, -t "$final/summary.csv"
echo "wrote $final/{fma,chase_l2,chase_dram,stream,summary}.csv and $final/overlay.png" >&2
if [ $check -eq 1 ] && grep -q ',NO$' "$final/summary.csv"; then
  echo "validate.sh: some curves miss the thresholds (MAPE <= 10 %, knee within 4 warps)" >&2
  exit 1
fi
