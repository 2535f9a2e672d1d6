#!/usr/bin/env bash
# validate.sh - simulate every measured point of a reference set (default
# results/reference/h200/: fma, chase at L2 and DRAM, stream, sfu, lds and the
# single-warp latencies) on a model, and compare.  The points the model was
# fitted to are the ones its KEY.source lines name (FILE.csv[col=value,...]);
# every other point is held out.  Writes results/validation/<experiment>.csv
# (measured, simulated, relative error, Little's-law bound and `fit` per
# point), results/validation/summary.csv and results/validation/overlay.png;
# prints per curve the mean absolute percentage error on the fit points
# (in-sample), on the held-out points and on all, the MAPE of the Little's-law
# bound, and the knee (smallest resident warps reaching 90 % of the plateau),
# measured vs simulated.
#
# Usage: scripts/validate.sh [--check] [--model M] [--ref DIR] [--set g.k=v ...] [--out DIR]
#   --model  model name or .ini path (default h200)
#   --ref    reference directory with fma.csv, chase.csv, ... (default results/reference/h200)
#   --set    a model override for every run (e.g. --set l2.channels=4), to see how
#            a calibration choice moves the error
#   --check  exit 1 unless every curve with held-out points has a held-out MAPE
#            <= 8 % and its knee within one step (4 warps) of the measured knee
#            (fit points never count towards the gate), and every real kernel
#            simulated from its SASS meets scripts/validate_real.sh --check
#            (MAPE <= 15 %, knee within 4 warps; stencil's peak and fall)
#   --no-real  leave out the real kernels (scripts/validate_real.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
ref=$root/results/reference/h200
out=$root/results/validation
model=h200 check=0 sets="" real=1
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1; shift ;;
    --no-real) real=0; shift ;;
    --model|--set|--out|--ref) [ $# -ge 2 ] || { echo "validate.sh: $1 needs a value (see --help)" >&2; exit 2; } ;;&
    --model) model=$2; shift 2 ;;
    --ref) ref=$2; shift 2 ;;
    --set) warpsim_check_set "$2"; sets+=" --set $2"; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) warpsim_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "validate.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -d "$ref" ] || warpsim_die "--ref $ref: no such directory"
ref=$(cd "$ref" && pwd)
for f in fma chase stream; do
  [ -f "$ref/$f.csv" ] || warpsim_die "$ref/$f.csv: missing"
done
[ -x "$warpsim" ] || BUILD_DIR=$root/build "$root/scripts/build.sh"
case "$model" in
  */*|*.ini) model_file=$model ;;
  *) model_file=$root/models/$(echo "$model" | tr 'A-Z' 'a-z').ini ;;
esac
[ -f "$model_file" ] || warpsim_die "--model $model: no model file $model_file"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Results go to $tmp/out first and replace $out only when every run succeeded.
final=$out
out=$tmp/out
mkdir -p "$out"

# The fit points: FILE.csv[k=v,...] tokens of the model's KEY.source lines,
# as "path<TAB>conditions" (path relative to the repository root).
grep -E '^[[:space:]]*[a-z_0-9]+\.source[[:space:]]*=' "$model_file" |
  grep -oE '[A-Za-z0-9_./-]+\.csv\[[^]]*\]' |
  sed -E 's/^(.*)\[(.*)\]$/\1\t\2/' >"$tmp/fitpoints" || true
ref_rel=${ref#"$root"/}

# jobs: experiment, curve, ilp, warps, measured, sim metric, bound column,
# warpsim args, source file, the row's fields (k=v,...), invert (1: the
# measurement is cycles per op, the simulation a rate).
fields='{ f = ""; for (i = 1; i <= NF; i++) f = f (i > 1 ? "," : "") h[i] "=" $i }'
hdr='NR == 1 { sub(/\r$/, ""); for (i = 1; i <= NF; i++) h[i] = $i; next } { sub(/\r$/, "") }'
awk -F, -v file="$ref_rel/fma.csv" "$hdr $fields"' { printf "fma\tfma ilp %s\t%s\t%s\t%s\tfma_per_cycle\tbound_fma_per_cycle\t--kernel fma --set stream.ilp=%s --set stream.fma=%d --set launch.blocks_per_sm=%s\t%s\t%s\t0\n", $1, $1, $3, $5, $1, 32 * $1, $2, file, f }' \
  "$ref/fma.csv" >"$tmp/jobs"
awk -F, -v file="$ref_rel/chase.csv" "$hdr $fields"' { printf "chase_%s\tchase %s ilp %s\t%s\t%s\t%s\tbytes_per_cycle\tbound_bytes_per_cycle\t--kernel chase --set stream.level=%s --set stream.ilp=%s --set stream.loads=%s --set launch.blocks_per_sm=%s\t%s\t%s\t0\n", $1, $1, $2, $2, $4, $7, $1, $2, $2, $3, file, f }' \
  "$ref/chase.csv" >>"$tmp/jobs"
# (stream.csv row ilp = N kept 2N float4 loads in flight per thread: ptxas
# unrolled its loop; calibrate/bench.cu, whose stream_exact.csv with exactly
# N reproduces row N/2.  The kernel is simulated with the 2N it ran.)
awk -F, -v file="$ref_rel/stream.csv" "$hdr $fields"' { printf "stream\tstream ilp %s\t%s\t%s\t%s\tbytes_per_cycle\tbound_bytes_per_cycle\t--kernel stream --set stream.ilp=%s --set stream.loads=%s --set stream.fma=%s --set launch.blocks_per_sm=%s\t%s\t%s\t0\n", $1, $1, $3, $5, 2 * $1, 2 * $1, 2 * $1, $2, file, f }' \
  "$ref/stream.csv" >>"$tmp/jobs"
if [ -f "$ref/sfu.csv" ]; then
  awk -F, -v file="$ref_rel/sfu.csv" "$hdr $fields"' { printf "sfu\tsfu ilp %s\t%s\t%s\t%s\tmufu_per_cycle\tnone\t--kernel fma --set stream.fma=0 --set stream.ilp=%s --set stream.sfu=%d --set launch.blocks_per_sm=%s\t%s\t%s\t0\n", $1, $1, $3, $5, $1, 16 * $1, $2, file, f }' \
    "$ref/sfu.csv" >>"$tmp/jobs"
fi
if [ -f "$ref/lds.csv" ]; then
  awk -F, -v file="$ref_rel/lds.csv" "$hdr $fields"' { printf "lds\tlds stride %s\t%s\t%s\t%s\tlds_per_cycle\tnone\t--kernel fma --set stream.fma=0 --set stream.ilp=%s --set stream.lds=%d --set stream.lds_ways=%s --set launch.blocks_per_sm=%s\t%s\t%s\t0\n", $2, $1, $4, $6, $1, 8 * $1, $2, $3, file, f }' \
    "$ref/lds.csv" >>"$tmp/jobs"
fi
if [ -f "$ref/latency.csv" ]; then
  # One warp alone; cycles per dependent operation (the loop's overhead included).
  one="--set launch.threads_per_block=32 --set launch.blocks_per_sm=1 --set launch.blocks=1"
  awk -F, -v file="$ref_rel/latency.csv" -v one="$one" "$hdr $fields"' {
      k = ""
      if ($1 == "ffma_dependent") k = "fma_per_cycle\t--kernel fma --set stream.ilp=1 --set stream.fma=32 " one
      if ($1 == "mufu_ex2_dependent") k = "mufu_per_cycle\t--kernel fma --set stream.fma=0 --set stream.ilp=1 --set stream.sfu=16 " one
      if ($1 == "smem_load_dependent") k = "lds_per_cycle\t--kernel fma --set stream.fma=0 --set stream.ilp=1 --set stream.lds=8 " one
      if ($1 ~ /^(l1|l2|dram)_hit_load_dependent$|^dram_load_dependent$/) {
        lv = $1; sub(/_.*/, "", lv)
        k = "loads_per_cycle\t--kernel chase --set stream.level=" lv " " one
      }
      if (k == "") next   # imad_dependent: no dependent integer chain in the synthetic kernels
      split(k, a, "\t")
      printf "latency\tlatency\t1\t1\t%s\t%s\tnone\t%s\t%s\t%s\t1\n", $2, a[1], a[2], file, f }' \
    "$ref/latency.csv" >>"$tmp/jobs"
fi

# In-sample flag per job: a fit token of the same file whose conditions all
# hold for the row.
awk -F'\t' 'NR == FNR { tf[++nt] = $1; tc[nt] = $2; next }
  { fit = 0
    n = split($10, kv, ","); delete row
    for (i = 1; i <= n; i++) { p = index(kv[i], "="); row[substr(kv[i], 1, p - 1)] = substr(kv[i], p + 1) }
    for (t = 1; t <= nt && !fit; t++) {
      if (tf[t] != $9) continue
      m = split(tc[t], cs, ","); ok = 1
      for (j = 1; j <= m; j++) { p = index(cs[j], "="); k = substr(cs[j], 1, p - 1); v = substr(cs[j], p + 1)
        if (!(k in row) || row[k] != v) ok = 0 }
      fit = ok }
    print fit }' "$tmp/fitpoints" "$tmp/jobs" >"$tmp/fit"

# Run every point (GNU parallel, job order kept) and pick the two columns.
n=$(wc -l <"$tmp/jobs")
# Bad input (a --set warpsim rejects) is one line and exit 2: the first point
# runs here before any job starts.
IFS=$'\t' read -r -a first <"$tmp/jobs"
# shellcheck disable=SC2086 # word splitting of the option lists is intended
if ! "$warpsim" run --model "$model_file" --format csv ${first[7]} $sets >/dev/null 2>"$tmp/probe.err"; then
  msg=$(warpsim_error_line "$tmp/probe.err")
  echo "validate.sh: ${first[1]} at ${first[3]} warps: ${msg:-warpsim failed}; nothing written" >&2
  exit 2
fi
[ ! -t 2 ] || echo "validate.sh: simulating $n measured points on model $model ..." >&2
run_point() { # $6 metric, $7 bound column, $8 warpsim args, $11 invert, $12 job number; prints "sim<TAB>bound"
  set -o pipefail
  local metric=$6 bound=$7 inv=${11}
  # shellcheck disable=SC2086 # word splitting of the option list is intended
  "$WARPSIM_BIN" run --model "$MODEL" --format csv ${8} $SETS 2>"$ERR_DIR/err.${12}" |
    awk -F, -v a="$metric" -v b="$bound" -v inv="$inv" '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                if (!(a in c) || (b != "none" && !(b in c))) { print "no column " a " or " b > "/dev/stderr"; exit 1 }
                next }
      { s = $c[a]; t = b == "none" ? "-" : $c[b]
        if (inv) { s = s > 0 ? 1 / s : 0; if (t != "-") t = t > 0 ? 1 / t : 0 }
        printf "%s\t%s\n", s, t }'
  local rc=$?
  cat "$ERR_DIR/err.${12}" >&2
  return $rc
}
export -f run_point
mkdir -p "$tmp/err"
export WARPSIM_BIN=$warpsim MODEL=$model_file SETS=$sets ERR_DIR=$tmp/err
# A point that fails later (a --set only some kernels reject): its message on
# one line, not GNU parallel's report of each job it stopped.
if ! parallel --will-cite --halt now,fail=1 -k --colsep '\t' run_point '{1}' '{2}' '{3}' '{4}' '{5}' '{6}' '{7}' '{8}' '{9}' '{10}' '{11}' '{#}' \
  :::: "$tmp/jobs" >"$tmp/sims" 2>"$tmp/parallel.err"; then
  why=""
  for ((j = 1; j <= n; j++)); do # the first point in order that said why
    msg=$(warpsim_error_line "$tmp/err/err.$j")
    [ -z "$msg" ] || { why="$(sed -n "${j}p" "$tmp/jobs" | cut -f2) at $(sed -n "${j}p" "$tmp/jobs" | cut -f4) warps: $msg"; break; }
  done
  echo "validate.sh: ${why:-a simulation failed}; nothing written" >&2
  exit 2
fi
grep -v '^parallel: ' "$tmp/parallel.err" >&2 || true
# all: 1 exp, 2 curve, 3 ilp, 4 warps, 5 measured, ..., 11 invert, 12 fit, 13 sim, 14 bound
paste "$tmp/jobs" "$tmp/fit" "$tmp/sims" >"$tmp/all"

# Per experiment CSV: curve,ilp,warps_per_sm,measured,simulated,rel_error_pct,little_bound,fit
for exp in $(cut -f1 "$tmp/all" | uniq); do
  awk -F'\t' -v e="$exp" 'BEGIN { print "curve,ilp,warps_per_sm,measured,simulated,rel_error_pct,little_bound,fit" }
    $1 == e { printf "%s,%s,%s,%s,%s,%.2f,%s,%s\n", $2, $3, $4, $5, $13, 100 * ($13 - $5) / $5, $14, $12 ? "yes" : "no" }' \
    "$tmp/all" >"$out/$exp.csv"
done

# Summary: MAPE (fit, held-out, all) and knees per curve (warpsim
# curve-stats); an inverted experiment's points (latency: separate operations
# of one warp each) are no curve: no plateau or knee.
curve_files=() point_files=()
while IFS=$'\t' read -r exp inv; do
  if [ "$inv" = 1 ]; then point_files+=("$out/$exp.csv"); else curve_files+=("$out/$exp.csv"); fi
done < <(cut -f1,11 "$tmp/all" | uniq)
stats=(curve-stats --group curve --x warps_per_sm --y simulated --measured measured --fit fit
  --bound little_bound --max-mape 8 --max-knee-diff 4)
{
  "$warpsim" "${stats[@]}" "${curve_files[@]}"
  [ ${#point_files[@]} -eq 0 ] || "$warpsim" "${stats[@]}" --no-knee "${point_files[@]}" | tail -n +2
} | sed '1s/_x,/_warps,/g' >"$out/summary.csv"

if command -v gnuplot >/dev/null 2>&1 && [ -f "$out/chase_l2.csv" ] && [ -f "$out/chase_dram.csv" ]; then
  gnuplot -c "$root/scripts/plot_validation.gp" "$out" "$out/overlay.png" ||
    { echo "validate.sh: gnuplot failed" >&2; exit 1; }
fi
mkdir -p "$final"
cp "$out"/* "$final"/
column -s, -t "$final/summary.csv"
echo "wrote $final/{$(cd "$final" && ls *.csv | sed 's/\.csv$//' | paste -sd,)}.csv" >&2
# The real kernels from their SASS and one profile (scripts/validate_real.sh;
# --check gates on its targets too; --no-real leaves them out).  A model
# without opcode classes (a calibrated one: scripts/calibrate_fit.sh writes
# none) cannot simulate SASS kernels: said, and skipped.
real_miss=0
if [ $real -eq 0 ]; then
  :
elif grep -q '^\[class_' "$model_file"; then
  WARPSIM=$warpsim "$root/scripts/validate_real.sh" --model "$model" --out "$final" $sets ||
    { echo "validate.sh: the real-kernel validation failed" >&2; exit 2; }
  grep -q ',NO$' "$final/real_summary.csv" && real_miss=1
else
  echo "validate.sh: $model_file has no opcode classes ([class_*]): the real-kernel validation is skipped" >&2
fi
if [ $check -eq 1 ] && grep -q ',NO$' "$final/summary.csv"; then
  echo "validate.sh: some curves miss the held-out thresholds (MAPE <= 8 %, knee within 4 warps)" >&2
  exit 1
fi
if [ $check -eq 1 ] && [ $real_miss -eq 1 ]; then
  echo "validate.sh: some real kernels miss their targets (MAPE <= 10 % off the profiled point, knee within 4 warps, the agreement warning where the curve is > 25 % off there; see $final/real_summary.csv and real_scores.csv)" >&2
  exit 1
fi
