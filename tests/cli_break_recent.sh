#!/usr/bin/env bash
# cli_break_recent.sh - bad input on what landed on 2026-12-03/04 (breaker7):
# each case was taken silently, crashed, or was refused only part-way, and
# is now one line on stderr, exit 2, nothing on stdout (or, where the input
# is good, the answer).  The cases, each with what it did before:
#   [bulk] bytes_per_cycle 1e-300 (a copy took 2e303 cycles: UBSan
#     float-cast-overflow in sm_bulk, without sanitizers a silent answer);
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?}
. "$root/tests/common.sh"

# ---- [bulk] bytes_per_cycle below the bandwidth keys' floor ---------------
# bulk_sass (real12 k_bulk) copies 2 KiB a UBLKCP: at 1e-300 B/cycle the SM's
# copy port is free again 2048 / 1e-300 = 2.0e303 cycles later, past any
# SimCycle; the run answered 127750 cycles (the cast's garbage) with exit 0.
# The floor of the other rates whose 0 is "off" applies: 0.001 (a 2 KiB copy
# then holds the port 2.048e6 cycles, a finite run).
for v in 1e-300 1e-10 0.0009; do
  one_line "bulk.bytes_per_cycle=$v" \
    "--set: [bulk] bytes_per_cycle: $v (allowed 0 = off, or 0.001..1e+06)" -- \
    run --kernel bulk_sass --set "bulk.bytes_per_cycle=$v" --format csv --no-whatif
done
for v in 0 87.6; do
  "$bin" run --kernel bulk_sass --set "bulk.bytes_per_cycle=$v" --format csv --no-whatif \
    >"$tmp/out" 2>"$tmp/err" || fail "bulk.bytes_per_cycle=$v: $(head -c 300 "$tmp/err")"
  ok
done
# (0.001 is taken: 512 copies a SM at 2.048e6 cycles each run past a bound)
rc=0
"$bin" run --kernel bulk_sass --set bulk.bytes_per_cycle=0.001 --format csv --no-whatif \
  --max-cycles 1000000 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 3 ] || fail "bulk.bytes_per_cycle=0.001: exit $rc (want 3): $(head -c 300 "$tmp/err")"
ok

echo "$passed passed"
