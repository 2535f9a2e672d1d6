#!/usr/bin/env bash
# loko.sh - leave-one-kernel-out validation of the model keys fitted on real
# kernel curves.  No key of models/h200.ini is chosen on a curve of
# results/reference/h200/real/ any more: the three the script refitted are
# set from microbenchmarks and kept as shipped (a grid of the shipped value
# alone, columns kept):
#   class_global.lines_in_flight      (l2flight/load.csv; was 160, on gather)
#   class_global.warp_lines_in_flight (matrix/gload.csv DRAM curves)
#   class_global.dram_turnaround      (real8/ copy streams)
# For each of the six kernels K, every key whose fit set holds K is refitted
# without K (one pass, each key over its own grid with the others as shipped:
# the value with the lowest mean MAPE over the fit set's other kernels), then
# K is simulated with the refitted values (with one value a key keeps it), so
# every row is held out.  Every other real kernel was fitted on nothing: its
# held-out score is validate_real.sh's own.
# Writes DIR/loko_grid.csv (MAPE of each kernel at each grid point) and
# DIR/loko.csv (per kernel: MAPE in sample and left out, the values used
# without it, the keys it could not be held out for).  MAPE: warpsim
# curve-stats, work per cycle per SM against curves.csv over every measured B.
# Usage: scripts/loko.sh [--out DIR]   (default results/validation; ~5 min on 2 cores)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
out=$root/results/validation
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || warpsim_die "--out needs a value (see --help)"; out=$2; shift 2 ;;
    *) warpsim_die "unknown argument '$1' (see --help)" ;;
  esac
done
# The folder is written after ~5 minutes of runs: checked first.
probe_out=$(mkdir -p -- "$out" 2>/dev/null && mktemp "$out/.loko.XXXXXX" 2>/dev/null) ||
  warpsim_die "--out '$out': cannot create or write the folder (allowed: a folder this user can write)"
rm -f "$probe_out"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
[ -x "$warpsim" ] || BUILD_DIR=$root/build "$root/scripts/build.sh"
command -v parallel >/dev/null 2>&1 || warpsim_die "GNU parallel is needed (scripts/deps.sh installs it)"
ref=$root/results/reference/h200/real
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shipped() { awk -F= -v k="$1" '$1 == k { print $2 }' "$root/models/h200.ini"; }
L=$(shipped lines_in_flight) W=$(shipped warp_lines_in_flight) T=$(shipped dram_turnaround)
LS="$L" WS="$W" TS="$T" # (microbenchmarks, not refitted)
kernels=$(awk -F, 'FNR > 1 { print $1 }' "$ref/attrs.csv" | paste -sd' ' -)
# Each key over its grid, the others as shipped (the shipped point once).
{ for l in $LS; do echo "$l,$W,$T"; done
  for w in $WS; do echo "$L,$w,$T"; done
  for t in $TS; do echo "$L,$W,$t"; done; } | awk '!seen[$0]++' >"$tmp/grid"

# The measured points of the six, each with the options that launch it as
# measured (warpsim_real_jobs, as validate_real.sh runs them).
# shellcheck disable=SC2086 # one argument per kernel
warpsim_real_jobs "$root" $kernels >"$tmp/jobs"
# curve L,W,T KERNEL: the kernel's simulated work per cycle per SM at every
# measured B, as CSV rows L,W,T,kernel,warps,measured,simulated.
curve() {
  local g=$1 k=$2 l w t b warps measured work args
  IFS=, read -r l w t <<<"$g"
  awk -F'\t' -v k="$k" '$1 == k' "$JOBS" |
    while IFS=$'\t' read -r _ b warps measured work args; do
      # shellcheck disable=SC2086 # $PURE is empty or one option; $args a list
      "$WARPSIM_BIN" run --format csv --no-whatif $PURE $args \
        --set class_global.lines_in_flight="$l" --set class_global.warp_lines_in_flight="$w" \
        --set class_global.dram_turnaround="$t" </dev/null |
        awk -F, -v p="$g,$k,$warps,$measured" -v b="$b" -v work="$work" '
          NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
          { printf "%s,%.6g\n", p, b * work / $c["cycles"] }'
    done
}
export -f curve
PURE="" # the keys were fitted on the pure model
! "$warpsim" run --help 2>&1 | grep -q -- '--no-anchor' || PURE=--no-anchor
export PURE WARPSIM_BIN=$warpsim JOBS=$tmp/jobs
header="lines_in_flight,warp_lines_in_flight,dram_turnaround,kernel,warps_per_sm,measured,simulated"
run_curves() { # stdin: "L,W,T KERNEL" lines; stdout: the mape rows of curve-stats
  { echo "$header"; parallel --will-cite --halt now,fail=1 -k --colsep ' ' curve '{1}' '{2}'; } >"$tmp/pts.csv"
  "$warpsim" curve-stats --group lines_in_flight,warp_lines_in_flight,dram_turnaround,kernel \
    --y simulated --measured measured "$tmp/pts.csv"
}
[ ! -t 2 ] || echo "loko.sh: $(wc -l <"$tmp/grid") grid points x 6 kernels ..." >&2
for g in $(cat "$tmp/grid"); do for k in $kernels; do echo "$g $k"; done; done | run_curves >"$tmp/grid_mape.csv"
# The refit per left-out kernel: for each key, the grid value best on the
# fit set without K.
awk -F, -v L="$L" -v W="$W" -v T="$T" -v WS="$WS" -v TS="$TS" -v ks="$kernels" '
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { m[$1 "," $2 "," $3, $4] = $c["mape_all_pct"] }
  # best(which, values, K): of the values of key `which` (w or t, the other
  # keys as shipped), the one with the lowest mean MAPE over the six but K;
  # a tie keeps the shipped value, else the first.
  function best(which, values, K,   nv, v, i, j, g, s, bv, bs) {
    nv = split(values, v, " "); bv = ""
    for (i = 1; i <= nv; i++) {
      g = which == "w" ? L "," v[i] "," T : L "," W "," v[i]; s = 0
      for (j = 1; j <= nk; j++) if (k6[j] != K) s += m[g, k6[j]]
      s /= nk - 1
      if (bv == "" || s < bs - 1e-9) { bv = v[i]; bs = s }
    }
    return bv }
  END {
    nk = split(ks, k6, " ")
    for (j = 1; j <= nk; j++) {
      k = k6[j]; kept = "-"
      print L "," best("w", WS, k) "," best("t", TS, k), k, kept } }' "$tmp/grid_mape.csv" >"$tmp/refit"
cut -d' ' -f1,2 "$tmp/refit" | run_curves >"$tmp/left_out.csv"
awk -F, -v L="$L" -v W="$W" -v T="$T" '
  FILENAME ~ /refit$/ { split($0, a, " "); kept[a[2]] = a[3]; next }
  FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  FILENAME ~ /grid_mape/ { if ($1 == L && $2 == W && $3 == T) { ins[$4] = $c["mape_all_pct"]; order[++n] = $4 }; next }
  { lo[$4] = $c["mape_all_pct"]; vals[$4] = $1 "," $2 "," $3 }
  END { print "kernel,mape_in_sample_pct,mape_left_out_pct,lines_in_flight,warp_lines_in_flight,dram_turnaround,not_held_out_for"
        for (j = 1; j <= n; j++) { k = order[j]; printf "%s,%s,%s,%s,%s\n", k, ins[k], lo[k], vals[k], kept[k] } }' \
  "$tmp/refit" "$tmp/grid_mape.csv" "$tmp/left_out.csv" >"$tmp/loko.csv"
mkdir -p "$out"
cp "$tmp/grid_mape.csv" "$out/loko_grid.csv"
cp "$tmp/loko.csv" "$out/loko.csv"
column -s, -t "$out/loko.csv"
echo "wrote $out/loko.csv and $out/loko_grid.csv" >&2
