#!/usr/bin/env bash
# calibrate_compare.sh - compare a model derived by calibrate_fit.sh from a
# calibration run with a model file, key by key, and say how far each key
# moves with the launch-to-launch spread of the run.
# Prints a Markdown table: key, the model's value, the regenerated value, the
# difference in %, the noise in % and whether the difference is within 3 %.
# Keys: every value of the regenerated model whose source is `measured` or
# `fitted` and that the model file has too.  Noise: calibrate_fit.sh is run
# again on N copies of the run in which every measured point (a row with
# cycles_min and cycles_max) takes a cycle count drawn uniformly between its
# fastest and slowest launch (awk's rand(), seeds 1..N: the same table every
# time); the noise is half the range of the key over the copies, in % of the
# regenerated value.  Rows without a spread (device.csv, spill.csv) stay fixed.
#
# Usage: scripts/calibrate_compare.sh MODEL.ini REFDIR [N]   (N default 20)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
[ $# -ge 2 ] && [ $# -le 3 ] || warpsim_die "usage: calibrate_compare.sh MODEL.ini REFDIR [N]"
model=$1 ref=$2 n=${3:-20}
[ -f "$model" ] || warpsim_die "$model: no such model file"
[ -d "$ref" ] || warpsim_die "$ref: no such directory"
[[ $n =~ ^[1-9][0-9]*$ ]] || warpsim_die "N '$n': a positive integer"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# group.key=value of every measured or fitted value of a model file
values() {
  awk '/^\[/ { g = substr($0, 2, length($0) - 2); next }
    /^[a-z_0-9]+\.source=/ { p = index($0, "="); k = substr($0, 1, p - 8); src[g "." k] = substr($0, p + 1); next }
    /^[a-z_0-9]+=/ { p = index($0, "="); k = g "." substr($0, 1, p - 1); v[k] = substr($0, p + 1); order[++n] = k }
    END { for (i = 1; i <= n; i++) if (src[order[i]] ~ /^(measured|fitted)/) print order[i] "\t" v[order[i]] }' "$1"
}
# The run with every point's cycles drawn from its launches' range (seed $2).
perturb() {
  local dir=$1 seed=$2 f
  mkdir -p "$dir"
  cp "$ref"/* "$dir"/ 2>/dev/null || true
  for f in "$ref"/*.csv; do
    awk -F, -v OFS=, -v seed="$seed" -v file="$(basename "$f")" '
      BEGIN { srand(seed + length(file) * 7919) }
      NR == 1 { lo = hi = c = 0
        for (i = 1; i <= NF; i++) { h[i] = $i
          if ($i == "cycles_min") lo = i
          if ($i == "cycles_max") hi = i
          if ($i == "cycles" || $i == "cycles_per_op") c = i }
        print; next }
      !lo || !hi || !c || $c <= 0 { print; next }
      { f = ($lo + rand() * ($hi - $lo)) / $c
        for (i = 1; i <= NF; i++) {
          if (i == lo || i == hi) continue
          if (h[i] ~ /per_cycle/) $i = sprintf("%.6g", $i / f)
          else if (h[i] ~ /^cycles/) $i = sprintf("%.6g", $i * f)
        }
        print }' "$f" >"$dir/$(basename "$f")"
  done
}

values "$model" >"$tmp/model"
[ -s "$tmp/model" ] ||
  warpsim_die "$model: no value with a measured or fitted KEY.source line to compare (not a warpsim model file?)"
"$root/scripts/calibrate_fit.sh" "$ref" cmp >"$tmp/regen.ini"
values "$tmp/regen.ini" >"$tmp/regen"
: >"$tmp/noise"
for i in $(seq 1 "$n"); do
  perturb "$tmp/p$i" "$i"
  "$root/scripts/calibrate_fit.sh" "$tmp/p$i" cmp >"$tmp/p$i.ini"
  values "$tmp/p$i.ini" >>"$tmp/noise"
done
echo "| key | model | regenerated | diff % | noise % | within 3 % |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
awk -F'\t' 'FILENAME == ARGV[1] { k = $1; v = $2 + 0
      if (!(k in lo) || v < lo[k]) lo[k] = v
      if (!(k in hi) || v > hi[k]) hi[k] = v
      next }
    FILENAME == ARGV[2] { m[$1] = $2; next }
    !($1 in m) { next }
    { k = $1; a = m[k]; b = $2
      num = (a ~ /^-?[0-9.]+$/ && b ~ /^-?[0-9.]+$/)
      d = num ? (a + 0 != 0 ? sprintf("%+.1f", 100 * (b - a) / a) : (b + 0 == 0 ? "+0.0" : "n/a")) : (a == b ? "same" : "differs")
      nz = (num && b + 0 != 0 && (k in lo)) ? sprintf("%.1f", 50 * (hi[k] - lo[k]) / (b < 0 ? -b : b)) : "-"
      ok = num ? ((d == "n/a" || d + 0 > 3 || d + 0 < -3) ? "NO" : "yes") : (a == b ? "yes" : "NO")
      printf "| %s | %s | %s | %s | %s | %s |\n", k, a, b, d, nz, ok }' "$tmp/noise" "$tmp/model" "$tmp/regen"
