#!/usr/bin/env bash
# cli_validate.sh - the validation against the real H200 as a test
# (scripts/validate.sh --check: held-out MAPE <= 8 % and knee within 4 warps
# on every curve with held-out points).  One curve is a known, reported miss:
# the L2 chase at ILP 4, whose knee is 8 warps early since l2.channels was
# fitted by error (doc/validation.md "Validation"); the test fails if any other curve
# misses, or if that one stops missing (then drop it from scripts/known_misses.tsv).  Also checks
# the fit/held-out split: a source naming a whole curve makes it in-sample,
# and the held-out spilling kernel of the real-kernel validation.
set -euo pipefail
root=${WARPSIM_ROOT:?}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
KNOWN=$(awk -F'\t' '$1 == "synthetic" { print $2 }' "$root/scripts/known_misses.tsv" | paste -sd';')
rc=0
WARPSIM=${WARPSIM_BIN:?} "$root/scripts/validate.sh" --check --out "$out/v" >/dev/null || rc=$?
pass=0 fail=0
failing=$(awk -F, '$NF == "NO" { print $1 }' "$out/v/summary.csv" | paste -sd';')
if [ "$failing" = "$KNOWN" ] && [ "$rc" -eq 1 ]; then pass=$((pass + 1)); else
  echo "FAIL: curves missing the held-out thresholds: '$failing' (known: '$KNOWN'), rc $rc"
  fail=$((fail + 1))
fi
# fma ilp 8: branch.latency (b=1) and fma.interval (b=16)
# name two of its 16 points.
fit=$(awk -F, '$1 == "fma ilp 8" { print $3 }' "$out/v/summary.csv")
[ "$fit" = 2 ] && pass=$((pass + 1)) || { echo "FAIL: fma ilp 8 fit points $fit (want 2)"; fail=$((fail + 1)); }
# A model whose source names the whole fma ILP 2 curve: all 16 in-sample, none held out.
sed 's|^interval.source=measured: results/reference/h200/fma.csv|interval.source=fitted: results/reference/h200/fma.csv[ilp=2] and results/reference/h200/fma.csv|' \
  "$root/models/h200.ini" >"$out/m.ini"
WARPSIM=$WARPSIM_BIN "$root/scripts/validate.sh" --no-real --model "$out/m.ini" --out "$out/w" >/dev/null 2>&1
row=$(awk -F, '$1 == "fma ilp 2" { print $3 "," $5 }' "$out/w/summary.csv")
[ "$row" = "16,-" ] && pass=$((pass + 1)) || { echo "FAIL: fma ilp 2 with a whole-curve source: '$row' (want 16,-)"; fail=$((fail + 1)); }
# The spilling kernel at eight register caps (results/reference/h200/spill_sass,
# held out, no profile: trip_count and [launch] registers): per cap MAPE of
# work per cycle <= 10 % (7.7 % at most today; 32 % before spill stores that
# miss L1 stopped taking L2 read bandwidth), and throughput relative to the
# uncapped kernel within 5 % on average at the pinned B = 8 (2.7 % today,
# 10.1 % before) and 8 % at each cap's own maximum B (5.4 %, 10.3 %).
spill=$(awk -F, '$1 ~ /^spill_/ && $4 > 10 { printf "%s %s%% ", $1, $4 }' "$out/v/real_summary.csv")
n=$(grep -c '^spill_' "$out/v/real_summary.csv" || true)
[ "$n" = 8 ] && [ -z "$spill" ] && pass=$((pass + 1)) ||
  { echo "FAIL: spill kernels: $n of 8 validated, MAPE over 10 %: '$spill'"; fail=$((fail + 1)); }
rel=$(awk -F, '$1 ~ /^spill_/ { m[$1 "," $2] = $4; s[$1 "," $2] = $5; if ($2 > mb[$1]) mb[$1] = $2 }
  END { bm = m["spill_0,8"]; bs = s["spill_0,8"]
    for (k in mb) if (k != "spill_0") {
      a = m[k ",8"] / bm; b = s[k ",8"] / bs; c = m[k "," mb[k]] / bm; d = s[k "," mb[k]] / bs
      e8 += (b > a ? b - a : a - b) / a; em += (d > c ? d - c : c - d) / c; n++ }
    printf "%.1f %.1f", n ? 100 * e8 / n : 999, n ? 100 * em / n : 999 }' "$out/v/real.csv")
awk -v r="$rel" 'BEGIN { split(r, e, " "); exit !(e[1] <= 5 && e[2] <= 8) }' && pass=$((pass + 1)) ||
  { echo "FAIL: spill kernels' throughput relative to uncapped: mean error at B = 8, at max B: $rel % (want <= 5, 8)"; fail=$((fail + 1)); }
# Bad input: a --set warpsim rejects, at the first point or only at a later
# one (stream.level passes fma, chase sets it too), or one with a space,
# exits 2 with one line naming it and writes nothing.
. "$root/tests/refused.sh"
vbad() { # NAME NEEDLE -- ARGS...: refused, with the real kernels left out
  local name=$1 needle=$2
  shift 3
  refused validate.sh "$name" "$needle" -- --no-real "$@"
}
vbad "barrier latency past its range" "[barrier] latency: out of range '1001' (allowed 0..1000" -- \
  --set barrier.latency=1001
vbad "a later point fails" "chase" -- --set stream.level=l1
vbad "a --set value with a space" "--set 'model.description=my gpu'" -- --set 'model.description=my gpu'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
