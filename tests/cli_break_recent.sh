#!/usr/bin/env bash
# cli_break_recent.sh - bad input on what landed on 2026-12-03/04 (breaker7):
# each case was taken silently, crashed, or was refused only part-way, and
# is now one line on stderr, exit 2, nothing on stdout (or, where the input
# is good, the answer).  The cases, each with what it did before:
#   [bulk] bytes_per_cycle 1e-300 (a copy took 2e303 cycles: UBSan
#     float-cast-overflow in sm_bulk, without sanitizers a silent answer);
#   a UBLKCP whose size register no UMOV sets (timed as 0 bytes, unsaid:
#     now one warning);
#   [l1] bytes below [sm] smem_per_sm (L1 left no bytes, silently);
#   a SASS kernel's threads_per_block other than the profiled Block Size
#     (the profile's per-warp counts kept, unsaid: now one warning);
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

# ---- [l1] bytes below the shared memory it holds ------------------------------
# [l1] bytes is the unified L1 and shared memory (every shipped model's is
# above its smem_per_sm: tests/cli_model_sources.sh).  --set l1.bytes=131072
# on h200 (smem_per_sm 233472) ran, and left L1 no bytes whenever resident
# CTAs used more than 131072 B of shared memory; raising [sm] smem_per_sm
# past [l1] bytes the same.  Each is refused naming the key the --set moved.
one_line "l1.bytes=131072" \
  "--set: [l1] bytes: 131072 is below [sm] smem_per_sm 233472: the unified L1 holds the shared memory (allowed 233472..16777216 bytes)" -- \
  run --kernel fma --set l1.bytes=131072 --no-whatif
one_line "sm.smem_per_sm=300000" \
  "--set: [sm] smem_per_sm: 300000 exceeds [l1] bytes 262144, the unified L1 and shared memory that holds it (allowed 0..262144 bytes)" -- \
  run --kernel fma --set sm.smem_per_sm=300000 --no-whatif
"$bin" run --kernel fma --set l1.bytes=233472 --format csv --no-whatif >"$tmp/out" 2>"$tmp/err" ||
  fail "l1.bytes=233472 (= smem_per_sm): $(cat "$tmp/err")"
ok

# ---- CTAs of another size than the profiled launch's ------------------------
# threads_per_block is not read from the details export (README): saxpy's
# profile is of 128-thread CTAs, and a run at 256 kept its per-warp counts
# with no word (README said so: "a run at 256 threads gives no warning").
"$bin" run --kernel saxpy_sass --set launch.threads_per_block=256 --format csv --no-whatif \
  >"$tmp/out" 2>"$tmp/err" || fail "saxpy at 256 threads: $(cat "$tmp/err")"
grep -qF "traces/saxpy_sass.ini: launch.threads_per_block=256 is not the profiled launch's Block Size 128 (../results/reference/h200/real/ncu/details_full_b8.csv): each warp runs the profile's per-warp counts of 128-thread CTAs" "$tmp/err" &&
  [ "$(wc -l <"$tmp/err")" = 1 ] || fail "saxpy at 256 threads: $(cat "$tmp/err")"
ok
"$bin" run --kernel saxpy_sass --format csv --no-whatif >"$tmp/out" 2>"$tmp/err" &&
  [ ! -s "$tmp/err" ] || fail "saxpy as profiled: $(cat "$tmp/err")"
ok

# ---- a TMA bulk copy whose size the listing does not give -----------------
# k_bulk's copy (kernels12.sass line 1458, 'UBLKCP.S.G [UR8], [UR14], UR5')
# takes its 2 KiB from 'UMOV UR5, 0x80' (0x80 x 16 B) four instructions up.
# A size loaded at run time ('ULDC UR5, c[0x0][0x210]', a kernel parameter,
# edited into the listing and its source export alike) was timed as a copy
# of 0 bytes, its [bulk] latency alone: 124178 -> 67599 cycles pure with
# only the profile-agreement warning.  Now one warning names the copy and
# what it is timed as; the shipped kernel says nothing.
r12=$root/results/reference/h200/real12
sed '1454s/UMOV UR5, 0x80 ;        /ULDC UR5, c[0x0][0x210] ;/' "$r12/sass/kernels12.sass" >"$tmp/k12.sass"
sed '73s/UMOV UR5, 0x80/ULDC UR5, c[0x0][0x210]/' "$r12/ncu/bulk_source_b8.csv" >"$tmp/bulk_src.csv"
grep -q 'ULDC UR5, c\[0x0\]\[0x210\] ;' "$tmp/k12.sass" && grep -q 'ULDC UR5' "$tmp/bulk_src.csv" ||
  fail "the edit of kernels12.sass line 1454 did not take"
sed -e "s|^file=.*|file=$tmp/k12.sass|" -e "s|^source_csv=.*|source_csv=$tmp/bulk_src.csv|" \
  -e "s|^details_csv=\.\./|details_csv=$root/|" "$root/traces/bulk_sass.ini" >"$tmp/b12.ini"
"$bin" run --kernel "$tmp/b12.ini" --format csv --no-whatif --no-anchor >"$tmp/out" 2>"$tmp/err" ||
  fail "a bulk copy of a run-time size: $(head -c 300 "$tmp/err")"
grep -qF "k12.sass:1458: 'UBLKCP.S.G [UR8], [UR14], UR5': no 'UMOV URn, imm' before it sets the copy's size register, so the listing does not give its bytes: timed as a copy of 0 bytes" "$tmp/err" ||
  fail "a bulk copy of a run-time size: no warning: $(cat "$tmp/err")"
[ "$(grep -c 'UBLKCP' "$tmp/err")" = 1 ] || fail "a bulk copy of a run-time size: not one warning"
ok
"$bin" run --kernel bulk_sass --format csv --no-whatif --no-anchor >"$tmp/out" 2>"$tmp/err" ||
  fail "bulk_sass: $(cat "$tmp/err")"
! grep -q UBLKCP "$tmp/err" || fail "bulk_sass warned of its copy: $(cat "$tmp/err")"
ok

echo "$passed passed"
