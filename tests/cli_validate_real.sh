#!/usr/bin/env bash
# cli_validate_real.sh - the real kernels against the H200 as a test
# (scripts/validate_real.sh --check, issue 27's targets): the kernels that
# miss the per-kernel targets are exactly the known ones below, --check
# exits 1 and names the aggregate targets missed.  Also
# checks that the check can fail: without the partial-sector store cost
# (class_global.partial_sector_store_bytes=0, doc/stencil_mechanism.md)
# stencil at B = 12 is more than 10 % fast (within 5 % with it); and the warm-L2 rule: treduce at
# B = 2 and 4 within 10 % warm, more than 40 % slow cold
# (launch.l2_warm=false).  Needs GNU parallel (exit 77 without it).
set -euo pipefail
root=${WARPSIM_ROOT:?}
command -v parallel >/dev/null 2>&1 || { echo "GNU parallel missing: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
# Known, reported misses of the per-kernel targets (real_summary.csv pass,
# on the anchored curve: MAPE off the profiled point <= 10 %, knee within 4
# warps, the agreement warning where the curve is > 25 % off at the
# profiled point); the check fails if any other kernel misses, or if one of
# these stops missing (then drop it from scripts/known_misses.tsv, which
# gives each one's numbers and reason: 22 kernels today, anchored MAPE over
# 10 % or the knee more than 4 warps off).  The aggregate targets
# (real_scores.csv) are missed too: --check exits 1 naming them.
KNOWN=$(awk -F'\t' '$1 == "real" { print $2 }' "$root/scripts/known_misses.tsv" | paste -sd';')
rc=0
WARPSIM=${WARPSIM_BIN:?} "$root/scripts/validate_real.sh" --check --out "$out/v" >"$out/log" 2>&1 || rc=$?
failing=$(awk -F, '$NF == "NO" { print $1 }' "$out/v/real_summary.csv" 2>/dev/null | paste -sd';')
if [ "$rc" -eq 1 ] && [ "$failing" = "$KNOWN" ]; then
  pass=$((pass + 1))
else
  echo "FAIL: validate_real.sh --check: rc $rc, kernels missing the targets '$failing' (known: '$KNOWN')"; cat "$out/log"; fail=$((fail + 1))
fi
# --check names the aggregate targets it misses, with the numbers.
grep -q 'the held-out kernels miss the targets: MAPE <= 10 % for [0-9.]* % of kernels (want >= 90)' "$out/log" &&
  pass=$((pass + 1)) || { echo "FAIL: --check did not name the MAPE target"; cat "$out/log"; fail=$((fail + 1)); }
# real_scores.csv scores the anchored and the pure model, the flat predictor and "doubling
# always helps" on the same held-out kernels and doublings.
preds=$(awk -F, 'NR > 1 { printf "%s:%s:%s ", $1, $2, $7 }' "$out/v/real_scores.csv")
[ "$preds" = "anchored:75:527 pure:75:527 flat:67:527 always_helps:75:527 " ] && pass=$((pass + 1)) ||
  { echo "FAIL: real_scores.csv predictors '$preds'"; fail=$((fail + 1)); }
rows=$(awk -F, 'NR > 1' "$out/v/real_summary.csv" | wc -l)
[ "$rows" -eq 83 ] && pass=$((pass + 1)) || { echo "FAIL: $rows kernels in real_summary.csv (want 83: 8 kernels, 8 spill caps, 29 more kernels, 7 of set B, 7 of real10, 8 of real11, 8 of real12, 8 of real13)"; fail=$((fail + 1)); }
# Stencil at B = 12 (measured 1,680,092 cycles, curves.csv): within 5 % with
# the partial-sector store cost (1,722,748: 2.5 % slow), more than 10 % fast
# without it (1,472,996: 12.3 %; 15 % before stores paid dram_turnaround
# rather than a flat 1.5x).
meas=$(awk -F, '$1 == "stencil" && $2 == 12 { print $5 }' "$root/results/reference/h200/real/curves.csv")
dyn=$(awk -F, '$1 == "stencil" && $2 == 12 { print $4 }' "$root/results/reference/h200/real/curves.csv")
# (the pure model: an anchor would move the factor to make up for a
# mechanism switched off, which is what these checks switch off to see)
cycles() { # KERNEL B DYN [--set ...]: simulated cycles of traces/KERNEL_sass.ini, B CTAs per SM, one wave
  local kernel=$1 b=$2 dyn=$3
  shift 3
  "$WARPSIM_BIN" run --kernel "$root/traces/${kernel}_sass.ini" --set launch.blocks_per_sm="$b" \
    --set launch.blocks=$((b * 132)) --set launch.smem_dynamic="$dyn" --set launch.optin=true \
    --format csv --no-whatif --no-anchor "$@" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["cycles"] }'
}
with=$(cycles stencil 12 "$dyn") without=$(cycles stencil 12 "$dyn" --set class_global.partial_sector_store_bytes=0)
err() { awk -v s="$1" -v m="$meas" 'BEGIN { e = (s - m) / m; printf "%.3f", e < 0 ? -e : e }'; }
awk -v a="$(err "$with")" -v w="$without" -v m="$meas" 'BEGIN { exit !(a <= 0.05 && (m - w) / m > 0.10) }' &&
  pass=$((pass + 1)) ||
  { echo "FAIL: stencil B = 12: $with cycles with, $without without the partial-sector cost (measured $meas)"; fail=$((fail + 1)); }
# switch_off SET KERNEL B OFF WITHIN FAST: KERNEL at B (SET/curves.csv) is
# within WITHIN (a fraction) of the measured cycles as the model stands, and
# more than FAST times fast with --set OFF (the mechanism switched off).
switch_off() {
  local set=$1 kernel=$2 b=$3 off=$4 within=$5 fast=$6 dyn with without
  read -r meas dyn < <(awk -F, -v k="$kernel" -v b="$b" '$1 == k && $2 == b { print $5, $4 }' \
    "$root/results/reference/h200/$set/curves.csv")
  with=$(cycles "$kernel" "$b" "$dyn") without=$(cycles "$kernel" "$b" "$dyn" --set "$off")
  awk -v a="$(err "$with")" -v w="$without" -v m="$meas" -v x="$within" -v f="$fast" \
    'BEGIN { exit !(a <= x && m / w > f) }' &&
    pass=$((pass + 1)) ||
    { echo "FAIL: $kernel B = $b: $with cycles, $without with $off (measured $meas)"; fail=$((fail + 1)); }
}
# A store stream (real8/curves.csv store1f4 at B = 1: 58,090 cycles, 1 MiB
# of float4 stores per CTA) is DRAM bound at 4 warps per SM: simulated
# within 15 % when stores hold miss slots until written, more than 5x fast
# when they never wait (class_global.stores_hold_lines=false: 6.5x, DRAM at
# 339 % of its peak).
switch_off real8 store1f4 1 class_global.stores_hold_lines=false 0.15 5
# The read/write turnaround, computed by hand: a copy stream reads as many
# bytes as it stores, so the reads' share of DRAM bytes is 1/2 and a stored
# byte costs 1 + dram_turnaround / 2 read bytes of the [dram]
# bytes_per_cycle (17.2) read bytes per cycle per SM: copy4f4 at B = 8
# (DRAM bound) stores 17.2 / 2.2 = 7.82 B/cycle/SM at dram_turnaround = 0.4
# and 17.2 / 2 = 8.60 at 0; simulated within 6 % below each (the DRAM
# queue is not always full).
dyn=$(awk -F, '$1 == "copy4f4" && $2 == 8 { print $4 }' "$root/results/reference/h200/real8/curves.csv")
peak=$(awk -F= '$1 == "bytes_per_cycle" && g == "[dram]" { print $2 } /^\[/ { g = $0 }' "$root/models/h200.ini")
for t in 0.4 0; do
  c=$(cycles copy4f4 8 "$dyn" --set class_global.dram_turnaround=$t)
  awk -v c="$c" -v t="$t" -v p="$peak" 'BEGIN { s = 8 * 1048576 / c; want = p / (2 + t / 2)
    exit !(p > 0 && s <= want * 1.001 && s >= want * 0.94) }' &&
    pass=$((pass + 1)) ||
    { echo "FAIL: copy4f4 B = 8 at dram_turnaround=$t: $c cycles, want $peak / (2 + $t / 2) stored B/cycle/SM"; fail=$((fail + 1)); }
done
# A wavefront per line (class_global.l1_cycle_per_line): colsum at B = 1
# (real9/curves.csv: 32,922 cycles; 32 lines per warp-load, each lane its
# own row) is L1 bound: within 20 % with it (16.6 % slow), more than 1.5x
# fast without it (2.05x: 16 bytes-worth of L1 per warp-load, not 32 lines).
switch_off real9 colsum 1 class_global.l1_cycle_per_line=false 0.20 1.5
# Warm L2 across launches: treduce at B = 2 and 4 (real6/curves.csv: 39,040
# and 44,755 cycles, median of 3 launches after a warm-up) touches 16 and 33
# MiB, which the timed launches find in L2; simulated within 10 % with
# l2_warm (the default), more than 40 % slow without it (every load then
# misses L2 as in the cold profiled launch).  The warm error moves with the
# barrier and shared-memory model, not with the L2 rule: within 1 % before
# the barrier unit, 7 % slow with it, 11 and 13 % slow once BAR arrivals
# took a slot of the shared-memory unit, 7 and 5 % slow with its queue
# ([smem] queue).
for b in 2 4; do
  read -r meas dyn < <(awk -F, -v b="$b" '$1 == "treduce" && $2 == b { print $5, $4 }' \
    "$root/results/reference/h200/real6/curves.csv")
  warm=$(cycles treduce "$b" "$dyn") cold=$(cycles treduce "$b" "$dyn" --set launch.l2_warm=false)
  awk -v a="$(err "$warm")" -v c="$cold" -v m="$meas" 'BEGIN { exit !(a <= 0.10 && (c - m) / m > 0.40) }' &&
    pass=$((pass + 1)) ||
    { echo "FAIL: treduce B = $b: $warm cycles warm, $cold cold (measured $meas)"; fail=$((fail + 1)); }
done
# Bad input: a --set that warpsim rejects (out of range; keys reversed; a key
# only some kernels reject) exits 2 with one line naming the key and writes
# nothing.
. "$root/tests/refused.sh"
rlabad() { # NAME NEEDLE -- ARGS...
  local name=$1 needle=$2
  shift 3
  refused validate_real.sh "$name" "$needle" -- "$@"
}
rlabad "barrier latency past its range" "[barrier] latency: out of range '1001' (allowed 0..1000" -- \
  --set barrier.latency=1001
rlabad "L2 reuse edges reversed" "reuse_none_bytes" -- --set l2.reuse_none_bytes=1000
rlabad "unknown model" "nosuchmodel" -- --model nosuchmodel
# An --out that cannot be a directory is refused before the simulations
# (it was mkdir's message and exit 1 after them all).
: >"$out/file"
rlabad "--out is a file" "--out '$out/file'" -- --out "$out/file"
rlabad "--out under a file" "--out '$out/file/v'" -- --out "$out/file/v"
# The --set values travel through a word-split option list: a space (or a
# glob character) would split or expand one, so it is refused up front.
rlabad "a --set value with a space" "--set 'model.description=my gpu'" -- \
  --set 'model.description=my gpu'
rlabad "a --set value with a glob character" "--set 'sass.function=k_*'" -- \
  --set 'sass.function=k_*'

# regs_per_thread=40 suits the first kernels (saxpy) but not those whose
# listing uses more registers: the first point passes, a later one fails.
rlabad "a later point fails" "allowed" -- --set launch.regs_per_thread=40
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
