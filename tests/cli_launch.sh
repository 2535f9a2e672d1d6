#!/usr/bin/env bash
# shellcheck disable=SC2086 # $S is a list of options, split on purpose
# cli_launch.sh - `warpsim run` on a whole launch (issue 12): device-wide and
# per-SM achieved occupancy, Nsight Compute's per-scheduler columns, the
# [launch] keys for launch bounds and warpgroups, and their bad values.
# Needs WARPSIM_BIN (set by CTest).
set -u
BIN=${WARPSIM_BIN:?WARPSIM_BIN must name the warpsim binary}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
col() { # col NAME: the value of CSV column NAME in row 2 of $TMP/out
  awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $(c[name]) }' "$TMP/out"
}
# within VALUE LO HI: LO <= VALUE <= HI
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
run_ok() {
  checks=$((checks + 1))
  "$BIN" run --format csv "$@" >"$TMP/out" 2>"$TMP/err" || fail "run $*: exit $?: $(cat "$TMP/err")"
}

# 256 threads + 100 KB dynamic shared memory: 2 CTAs per SM; grid 211 on the H200.
# Nsight Compute measured 20.05 % achieved occupancy; the simulated SM alone says 25 %.
S="--set launch.threads_per_block=256 --set launch.smem_dynamic=102400 --set launch.optin=true"
run_ok --kernel chase $S --set launch.blocks=211
within "$(col achieved_occupancy_pct)" 19.0 21.0 || fail "grid 211: achieved $(col achieved_occupancy_pct)"
within "$(col sm_achieved_occupancy_pct)" 24.0 25.0 || fail "grid 211: SM $(col sm_achieved_occupancy_pct)"
checks=$((checks + 1))
"$BIN" run --kernel chase $S --set launch.blocks=211 --no-whatif >"$TMP/text" 2>&1
grep -q "79 SMs run 2 CTAs, 53 SMs 1" "$TMP/text" || fail "text has no device line: $(head -5 "$TMP/text")"
grep -q "Achieved Occupancy (simulated SM)" "$TMP/text" || fail "text has no per-SM achieved occupancy"

# One 128-thread CTA per SM, a dependent FFMA chain, warps 2 and 3 exit at once:
# Nsight Compute: 1.00 active warps, ~0.26 issued per scheduler, ~26 % one or more eligible.
run_ok --kernel fma --set launch.blocks_per_sm=1 --set stream.early_exit=2 --set stream.ilp=1
[ "$(col active_warps_per_scheduler)" = 1.0000 ] || fail "active warps $(col active_warps_per_scheduler)"
within "$(col issued_warps_per_scheduler)" 0.24 0.28 || fail "issued $(col issued_warps_per_scheduler)"
within "$(col one_or_more_eligible_pct)" 24 28 || fail "one or more eligible $(col one_or_more_eligible_pct)"

# __launch_bounds__(896, 1) on a kernel needing 90 registers: ceiling 72, 18 spill.
run_ok --kernel fma --set launch.threads_per_block=896 --set launch.regs_per_thread=90 \
  --set launch.launch_bounds_threads=896 --set launch.launch_bounds_min_blocks=1
[ "$(col regs_ceiling),$(col regs_allocated),$(col spill_values)" = "72,72,18" ] ||
  fail "launch bounds 896: $(col regs_ceiling),$(col regs_allocated),$(col spill_values)"
run_ok --kernel fma --set launch.launch_bounds_threads=128 --set launch.launch_bounds_min_blocks=24
col launch_warning | grep -q "MIN_BLOCKS 24 cannot be met" || fail "no warning: '$(col launch_warning)'"
run_ok --kernel fma --set launch.threads_per_block=384 --set launch.warpgroup_regs=40,232,232
[ "$(col regs_allocated),$(col blocks_per_sm),$(col warpgroup_regs)" = "168,1,40;232;232" ] ||
  fail "warpgroups: $(col regs_allocated),$(col blocks_per_sm),$(col warpgroup_regs)"

# Bad values: exit 2, one line naming the key, nothing on stdout.
for bad in "launch.launch_bounds_threads=2048" "launch.launch_bounds_min_blocks=2" \
  "launch.warpgroup_regs=40,232" "launch.warpgroup_regs=20,232,232" \
  "launch.threads_per_block=512 --set launch.launch_bounds_threads=256" \
  "launch.threads_per_block=384 --set launch.warpgroup_regs=40,232,232 --set launch.max_regs=64"; do
  checks=$((checks + 1))
  "$BIN" run --kernel fma --format csv --set $bad >"$TMP/out" 2>"$TMP/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "$bad: exit $rc"
  [ ! -s "$TMP/out" ] || fail "$bad: wrote to stdout"
  [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$bad: stderr is not one line: $(cat "$TMP/err")"
  grep -q "launch" "$TMP/err" || fail "$bad: the message does not name [launch]: $(cat "$TMP/err")"
done

# A block that cannot launch: the refusal gives what it asks for and the
# allowed range (CUDA Programming Guide, compute capability 9.0: 48 KiB of
# shared memory per block by default, 227 KiB = 232448 bytes with the
# opt-in; 65536 registers per block, allocated per warp in units of 256).
refusal() { # NEEDLE ARGS...: exit 2, one line holding NEEDLE, nothing on stdout
  local needle=$1 rc=0
  shift
  checks=$((checks + 1))
  "$BIN" run --kernel fma --format csv "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
  [ "$rc" -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
    grep -qF -- "$needle" "$TMP/err" || fail "$*: exit $rc: $(cat "$TMP/err")"
}
# 60000 B + the 1024 B reserve, allocated in 128 B units: 61056 B.
refusal "(static 0 B + dynamic 60000 B = 60000 B, 61056 B allocated incl. the 1024 B reserve; a block may use 0..49152 B, 0..232448 B with the opt-in)" \
  --set launch.smem_dynamic=60000
refusal "= 240000 B, 241024 B allocated incl. the 1024 B reserve; a block may use 0..232448 B)" \
  --set launch.smem_dynamic=240000 --set launch.optin=true
# Static shared memory stops at 48 KiB, opt-in or not (only dynamic opts in).
refusal "the static part is above the default per-block maximum" --set launch.smem_static=49153 \
  --set launch.optin=true
refusal "(static 100000 B; a block may have 0..49152 B static" --set launch.smem_static=100000
refusal "(262144 registers per block: 1024 threads at 255 registers per thread" \
  --set launch.threads_per_block=1024 --set launch.regs_per_thread=255
refusal "(512 threads per block; __launch_bounds__ maxThreads 256)" \
  --set launch.threads_per_block=512 --set launch.launch_bounds_threads=256
# 352 threads = 11 warps, counted as 12 (a multiple of the 4 SMSPs) x 5632.
refusal "(67584 registers per block: 352 threads at 176 registers per thread, allocated per warp in units of 256 registers, the warps rounded up to a multiple of the 4 SMSPs; a block may have 65536)" \
  --set launch.threads_per_block=352 --set launch.regs_per_thread=176

checks=$((checks + 1))
"$BIN" run --kernel fma --set launch.launch_bounds_min_blocks=2 2>&1 >/dev/null |
  grep -q "\[launch\] launch_bounds_threads" || fail "the MIN_BLOCKS error does not name the keys"

echo "cli_launch: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
