#!/usr/bin/env bash
# validate_real.sh - simulate the ordinary CUDA kernels measured on the H200
# from their SASS listings and the Nsight Compute profile at 8 blocks per SM
# only (traces/<kernel>_sass.ini), at every resident-block count B the
# measurement has, with the launch as measured (B blocks per SM pinned by the
# dynamic shared-memory padding of curves.csv, opt-in, one wave of B x 132
# CTAs), and compare work per cycle per SM (B x work per block / cycles) with
# curves.csv.  Writes results/validation/real.csv (every point),
# results/validation/real_summary.csv (per kernel: MAPE, knee = smallest
# resident warps reaching 90 % of the peak, measured vs simulated, peak warps
# and the fall from the peak to the last point) and results/validation/real.png.
#
# Kernel sets, each results/reference/h200/SET/curves.csv (CHANGELOG.md says
# when each was measured): real/ (the six the model was built with: saxpy,
# softmax, sgemm, stencil, gather, transpose), then held out: real2/,
# spill_sass/, real3/ to real9/ and real_b/.  spill_sass/ (kernels spill_C,
# one per register cap) runs with no profile: traces/spill_sass.ini with its
# trip_count, function k_spill_C( and the registers ptxas gave (attrs.csv).  A
# kernel K_N with no traces/K_N_sass.ini uses traces/K_sass.ini that way.
#
# Usage: scripts/validate_real.sh [--check] [--model M] [--set g.k=v ...] [--out DIR]
#   --check  exit 1 unless every kernel has MAPE <= 15 %, its knee within 4
#            warps, and stencil its peak within 4 warps and a fall from the
#            peak of at least half the measured one.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
ref=$root/results/reference/h200/real
out=$root/results/validation
model=h200 check=0 sets=""
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1; shift ;;
    --model|--set|--out) [ $# -ge 2 ] || { echo "validate_real.sh: $1 needs a value (see --help)" >&2; exit 2; } ;;&
    --model) model=$2; shift 2 ;;
    --set) warpsim_check_set "$2"; sets+=" --set $2"; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) warpsim_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "validate_real.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
# --out must be (or become) a directory: checked before the simulations.
[ -n "$out" ] || { echo "validate_real.sh: --out '': empty (allowed a directory, new or existing)" >&2; exit 2; }
[ ! -e "$out" ] || [ -d "$out" ] ||
  { echo "validate_real.sh: --out '$out': exists and is not a directory (allowed a directory, new or existing)" >&2; exit 2; }
up=$out
while [ ! -e "$up" ]; do up=$(dirname -- "$up"); done
[ -d "$up" ] && [ -w "$up" ] ||
  { echo "validate_real.sh: --out '$out': '$up' is not a writable directory (allowed a directory, new or existing)" >&2; exit 2; }
# (-w trusts the mode bits, which root passes everywhere: a probe folder,
# removed at once, asks the file system itself, e.g. /proc refuses)
probe=$(mktemp -d -p "$up" .validate_real.XXXXXX 2>/dev/null) && rmdir "$probe" ||
  { echo "validate_real.sh: --out '$out': cannot create anything in '$up' (allowed a directory, new or existing)" >&2; exit 2; }
[ -x "$warpsim" ] || BUILD_DIR=$root/build "$root/scripts/build.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sms=$(awk -F= '$1 == "sms" { print $2 }' "$root/models/h200.ini")

# jobs: kernel, B, warps, measured work per cycle, work per block, warpsim args
# (real/: the six kernels the model was built with; real2/, spill_sass/,
# real3/ to real9/: measured afterwards, held out).
: >"$tmp/jobs"
# A kernel name an earlier set already used (real_b's scan, real6's scan)
# takes the set's suffix (scan_b) and its traces file (traces/scan_b_sass.ini).
seen=" "
for set in real real2 spill_sass real3 real4 real5 real6 real7 real8 real9 real_b; do
  [ -f "$ref/../$set/curves.csv" ] || continue
  awk -F, -v sms="$sms" -v root="$root" -v seen="$seen" -v suffix="${set#real}" '
    function trace(k,   base, f) {
      f = root "/traces/" k "_sass.ini"
      if ((getline line < f) >= 0) { close(f); return "--kernel " f }
      base = k; sub(/_[0-9]+$/, "", base)
      return sprintf("--kernel %s/traces/%s_sass.ini --set sass.function=k_%s( --set launch.regs_per_thread=%s",
                     root, base, k, regs[k])
    }
    NR == FNR { if (FNR > 1) { sub(/\r$/, ""); work[$1] = $6; regs[$1] = $2 }; next }
    FNR > 1 { sub(/\r$/, ""); k = $1
      if (suffix != "" && index(seen, " " k " ")) { k = k suffix; work[k] = work[$1]; regs[k] = regs[$1] }
      printf "%s\t%s\t%s\t%s\t%s\t%s --set launch.blocks_per_sm=%s --set launch.blocks=%d --set launch.smem_dynamic=%s --set launch.optin=true\n",
             k, $2, $3, $6, work[k], trace(k), $2, $2 * sms, $4 }' \
    "$ref/../$set/attrs.csv" "$ref/../$set/curves.csv" >>"$tmp/jobs"
  seen=" $(cut -f1 "$tmp/jobs" | sort -u | paste -sd' ' -) "
done
n=$(wc -l <"$tmp/jobs")
# Bad input (a --set or --model warpsim rejects) is one line and exit 2: the
# first point runs here before any job starts.
IFS=$'\t' read -r -a first <"$tmp/jobs"
# shellcheck disable=SC2086 # word splitting of the option lists is intended
if ! "$warpsim" run --model "$model" --format csv --no-whatif ${first[5]} $sets >/dev/null 2>"$tmp/probe.err"; then
  msg=$(warpsim_error_line "$tmp/probe.err")
  echo "validate_real.sh: ${first[0]} at B = ${first[1]}: ${msg:-warpsim failed}; nothing written" >&2
  exit 2
fi
[ ! -t 2 ] || echo "validate_real.sh: simulating $n measured points of the real kernels on model $model ..." >&2
run_point() { # $2 B, $5 work per block, $6 warpsim args; prints "cycles<TAB>work per cycle"
  set -o pipefail
  local err
  err=$WARN_DIR/err.$1.$2
  # shellcheck disable=SC2086 # word splitting of the option list is intended
  "$WARPSIM_BIN" run --model "$MODEL" --format csv --no-whatif ${6} $SETS 2>"$err" |
    awk -F, -v b="$2" -v w="$5" '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { printf "%s\t%.6g\n", $c["cycles"], b * w / $c["cycles"] }'
  local rc=$?
  # A kernel's warnings are the same at every B: kept for one print at the end.
  grep -v '^warpsim: warning:' "$err" >&2
  return $rc
}
export -f run_point
mkdir -p "$tmp/warn"
export WARPSIM_BIN=$warpsim MODEL=$model SETS=$sets WARN_DIR=$tmp/warn
# A point that fails later (a --set only some kernels reject): its message on
# one line, not GNU parallel's report of each job it stopped.
if ! parallel --will-cite --halt now,fail=1 -k --colsep '\t' run_point '{1}' '{2}' '{3}' '{4}' '{5}' '{6}' \
  :::: "$tmp/jobs" >"$tmp/sims" 2>"$tmp/parallel.err"; then
  job="" msg=""
  while IFS=$'\t' read -r k b _; do # the first point in order that said why
    msg=$(warpsim_error_line "$tmp/warn/err.$k.$b")
    [ -z "$msg" ] || { job="$k at B = $b: "; break; }
  done <"$tmp/jobs"
  echo "validate_real.sh: ${job}${msg:-a simulation failed}; nothing written" >&2
  exit 2
fi
grep -v '^parallel: ' "$tmp/parallel.err" >&2 || true
cat "$tmp"/warn/err.* 2>/dev/null | grep '^warpsim: warning:' | sort -u >&2 || true
paste "$tmp/jobs" "$tmp/sims" | awk -F'\t' 'BEGIN { print "kernel,blocks_per_sm,warps_per_sm,measured,simulated,rel_error_pct,cycles_simulated" }
  { printf "%s,%s,%s,%s,%s,%.2f,%s\n", $1, $2, $3, $4, $8, 100 * ($8 - $4) / $4, $7 }' >"$tmp/real.csv"

# Kernels a model number was fitted on: KEY.source lines naming
# .../real*/curves.csv[kernel=K...] (the others are held out).
case "$model" in
  */*|*.ini) model_file=$model ;;
  *) model_file=$root/models/$(echo "$model" | tr 'A-Z' 'a-z').ini ;;
esac
# (none when the model is named otherwise, e.g. by its compute capability)
fitted=$({ grep -oE 'real[0-9]*/curves\.csv\[kernel=[a-z_0-9]+' "$model_file" 2>/dev/null || true; } |
  sed 's/.*kernel=//' | sort -u | paste -sd' ' -)
awk -F, -v fitted=" $fitted " 'NR > 1 {
    k = $1; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    i = ++cnt[k]; w[k, i] = $3; m[k, i] = $4; s[k, i] = $5
    err[k] += ($5 > $4 ? $5 - $4 : $4 - $5) / $4
    if ($4 > mb[k]) { mb[k] = $4; mw[k] = $3 }
    if ($5 > sb[k]) { sb[k] = $5; sw[k] = $3 } }
  END {
    print "kernel,fitted,points,mape_pct,knee_measured_warps,knee_simulated_warps,peak_measured_warps,peak_simulated_warps,fall_measured_pct,fall_simulated_pct,pass"
    for (j = 1; j <= n; j++) {
      k = order[j]; km = ""; ks = ""
      for (i = 1; i <= cnt[k]; i++) {
        if (km == "" && m[k, i] >= 0.9 * mb[k]) km = w[k, i]
        if (ks == "" && s[k, i] >= 0.9 * sb[k]) ks = w[k, i]
      }
      fm = 100 * (mb[k] - m[k, cnt[k]]) / mb[k]; fs = 100 * (sb[k] - s[k, cnt[k]]) / sb[k]
      mape = 100 * err[k] / cnt[k]; d = ks - km; ad = d < 0 ? -d : d
      pd = sw[k] - mw[k]; apd = pd < 0 ? -pd : pd
      ok = mape <= 15 && ad <= 4
      if (k == "stencil") ok = ok && apd <= 4 && fs >= fm / 2
      printf "%s,%s,%d,%.1f,%s,%s,%s,%s,%.1f,%.1f,%s\n", k, index(fitted, " " k " ") ? "yes" : "no", cnt[k], mape, km, ks, mw[k], sw[k], fm, fs, ok ? "yes" : "NO"
    } }' "$tmp/real.csv" >"$tmp/real_summary.csv"
if command -v gnuplot >/dev/null 2>&1; then
  gnuplot -c "$root/scripts/plot_real.gp" "$tmp/real.csv" "$tmp/real.png" ||
    { echo "validate_real.sh: gnuplot failed" >&2; exit 1; }
fi
mkdir -p "$out"
cp "$tmp"/real* "$out"/
column -s, -t "$out/real_summary.csv"
echo "wrote $out/real.csv, $out/real_summary.csv and $out/real.png" >&2
if [ $check -eq 1 ] && grep -q ',NO$' "$out/real_summary.csv"; then
  echo "validate_real.sh: some kernels miss the targets (MAPE <= 15 %, knee within 4 warps; stencil: peak within 4 warps, fall reproduced)" >&2
  exit 1
fi
