#!/usr/bin/env bash
# cli_validate_real.sh - the real kernels against the H200 as a test
# (scripts/validate_real.sh --check): every kernel simulated from its SASS and
# the one profile at B = 8 has MAPE <= 15 % and its knee within 4 warps, and
# stencil its peak within 4 warps and at least half its measured fall (two
# spill caps are known misses, below).  Also
# checks that the check can fail: without the partial-sector store cost
# (class_global.partial_sector_store_bytes=0, doc/stencil_mechanism.md)
# stencil at B = 12 is more than 15 % off.  Needs GNU parallel (exit 77 without it).
set -euo pipefail
root=${WARPSIM_ROOT:?}
command -v parallel >/dev/null 2>&1 || { echo "GNU parallel missing: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
# Known, reported misses: the spilling kernel (held out, no profile) at caps 48
# and 32 reaches 90 % of its peak 8 warps early and late (README "A spilling
# kernel with no profile"); the check fails if any other kernel misses, or if
# one of these stops missing (then drop it from KNOWN).  Of the seven kernels
# of results/reference/h200/real3/ (held out), four miss (README "Seven more
# held-out kernels"): hist's knee (20 warps simulated, 12 measured),
# transpose33 (14.0 %: its rise to 40 warps and the fall after are not
# reproduced, so its knee comes 12 warps early), gather_l2 (14.6 %: 11-15 %
# slow from 12 warps, 27-41 % at 4-8 warps, so its knee is late) and conv
# (17.4 %); of the two of real4/, spmv (15.1 %: 11-17 % slow from 8 warps);
# both of real5/, mechanisms the model lacks: ghist (contended global
# atomics, about 110x too fast; warpsim warns) and divg (divergent branches,
# 21.4 %, too fast on its plateau); the three of real6/, barrier-loop kernels
# whose simulated curves rise too steeply (treduce 27.5 %, scan 28.9 %: too
# slow at 4-16 warps, too fast from 24-32) and bounds (16.9 %).
KNOWN="spill_48;spill_32;transpose33;gather_l2;conv;spmv;ghist;divg;treduce;scan;bounds"
rc=0
WARPSIM=${WARPSIM_BIN:?} "$root/scripts/validate_real.sh" --check --out "$out/v" >"$out/log" 2>&1 || rc=$?
failing=$(awk -F, '$NF == "NO" { print $1 }' "$out/v/real_summary.csv" 2>/dev/null | paste -sd';')
if [ "$rc" -eq 1 ] && [ "$failing" = "$KNOWN" ]; then
  pass=$((pass + 1))
else
  echo "FAIL: validate_real.sh --check: rc $rc, kernels missing the targets '$failing' (known: '$KNOWN')"; cat "$out/log"; fail=$((fail + 1))
fi
rows=$(awk -F, 'NR > 1' "$out/v/real_summary.csv" | wc -l)
[ "$rows" -eq 30 ] && pass=$((pass + 1)) || { echo "FAIL: $rows kernels in real_summary.csv (want 30: 8 kernels, 8 spill caps, 14 more kernels)"; fail=$((fail + 1)); }
# Stencil at B = 12 (measured 1,680,092 cycles, curves.csv): within 15 % with
# the partial-sector store cost, more than 15 % fast without it.
meas=$(awk -F, '$1 == "stencil" && $2 == 12 { print $5 }' "$root/results/reference/h200/real/curves.csv")
dyn=$(awk -F, '$1 == "stencil" && $2 == 12 { print $4 }' "$root/results/reference/h200/real/curves.csv")
cyc() {
  "$WARPSIM_BIN" run --kernel "$root/traces/stencil_sass.ini" --set launch.blocks_per_sm=12 \
    --set launch.blocks=1584 --set launch.smem_dynamic="$dyn" --set launch.optin=true \
    --format csv --no-whatif "$@" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["cycles"] }'
}
with=$(cyc) without=$(cyc --set class_global.partial_sector_store_bytes=0)
err() { awk -v s="$1" -v m="$meas" 'BEGIN { e = (s - m) / m; printf "%.3f", e < 0 ? -e : e }'; }
awk -v a="$(err "$with")" -v b="$(err "$without")" 'BEGIN { exit !(a <= 0.15 && b > 0.15) }' && pass=$((pass + 1)) ||
  { echo "FAIL: stencil B = 12: $with cycles with, $without without the partial-sector cost (measured $meas)"; fail=$((fail + 1)); }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
