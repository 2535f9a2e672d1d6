#!/usr/bin/env bash
# cli_validate.sh - the validation against the real H200 as a test
# (scripts/validate.sh --check: held-out MAPE <= 8 % and knee within 4 warps
# on every curve with held-out points).  One curve is a known, reported miss:
# the L2 chase at ILP 4, whose knee is 8 warps early since l2.channels was
# fitted by error (README "Validation"); the test fails if any other curve
# misses, or if that one stops missing (then drop it from KNOWN).  Also checks
# the fit/held-out split: a source naming a whole curve makes it in-sample.
set -euo pipefail
root=${WARPSIM_ROOT:?}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
KNOWN="chase l2 ilp 4"
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
WARPSIM=$WARPSIM_BIN "$root/scripts/validate.sh" --model "$out/m.ini" --out "$out/w" >/dev/null 2>&1
row=$(awk -F, '$1 == "fma ilp 2" { print $3 "," $5 }' "$out/w/summary.csv")
[ "$row" = "16,-" ] && pass=$((pass + 1)) || { echo "FAIL: fma ilp 2 with a whole-curve source: '$row' (want 16,-)"; fail=$((fail + 1)); }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
