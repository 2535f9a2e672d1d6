#!/usr/bin/env bash
# cli_break_input.sh - bad input a hostile user gives the commands that
# landed on 2026-12-02, each refused with one line on stderr, exit 2 and
# nothing on stdout: a --derive of a thousand unary signs (the parser
# recursed once per sign without the parentheses' depth limit: a stack
# overflow under ASan at 131000); --max-mape -1 and --max-knee-diff -1 (the
# "no gate" sentinel, taken silently while -2 was refused); a CSV header
# naming its --y column twice (the first was read, the second ignored); a
# details export of 0 cycles; an axis range with a 10-digit bound; a
# relative error that overflows; numbers past a double's range (1e309,
# 5e-324) and integers past 2^64-1, out of range, not "not a number"; a
# scattered_dram_bytes below a sector.
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?}
. "$root/tests/common.sh"
signs=$(head -c 1000 /dev/zero | tr '\0' '-')
one_line "derive, 1000 unary signs" "--derive 'stream.fma=---" -- \
  sweep-points --no-check --kernel fma --axis stream.ilp=1..2 --derive "stream.fma=${signs}1"
printf 'warps_per_sm,y\n4,1\n8,2\n' >"$tmp/c.csv"
one_line "curve-stats --max-mape -1" "--max-mape" -- curve-stats --y y --measured y --max-mape -1 "$tmp/c.csv"
one_line "curve-stats --max-knee-diff -1" "--max-knee-diff" -- \
  curve-stats --y y --measured y --max-knee-diff -1 "$tmp/c.csv"
printf 'warps_per_sm,y,y\n4,1,5\n8,2,6\n' >"$tmp/dup.csv"
one_line "curve-stats, a column twice" "dup.csv:1: column 'y' appears twice" -- curve-stats --y y "$tmp/dup.csv"
# A details export whose profiled launch ran 0 cycles (SM Active Cycles,
# Elapsed Cycles) or issued with 0 Warp Cycles Per Issued Instruction (a
# warp issues at most once a cycle): taken, the anchor dropped as "the
# export has no SM Active Cycles" or checked against 0.
ex=$root/results/reference/h200/real/ncu/details_full_b8.csv
for metric in "SM Active Cycles" "Elapsed Cycles" "Warp Cycles Per Issued Instruction"; do
  awk -v m="\"$metric\"" 'BEGIN { FS = OFS = "\",\"" } index($0, "k_saxpy(float") && index($0, m) { $15 = "0" } { print }' \
    "$ex" >"$tmp/zero.csv"
  sed -e "s|^file=\.\./|file=$root/|" -e "s|^source_csv=\.\./|source_csv=$root/|" \
    -e "s|^details_csv=.*|details_csv=$tmp/zero.csv|" "$root/traces/saxpy_sass.ini" >"$tmp/zero.ini"
  one_line "details export, $metric 0" "zero.csv:" -- run --kernel "$tmp/zero.ini" --format csv --no-whatif
  grep -qF "'$metric': out of range '0' (allowed 1.." "$tmp/err" || fail "$metric 0: $(cat "$tmp/err")"
done
# A range with a bound of 10 digits was taken as one value '1..2000000000'
# and refused by the kernel loader as "not an unsigned integer".
one_line "sweep-points, 10-digit range bound" \
  "--axis 'launch.blocks_per_sm=1..2000000000': range 1..2000000000: a bound past 999999999" -- \
  sweep-points --no-check --kernel fma --axis launch.blocks_per_sm=1..2000000000
# Finite cells whose relative error overflows: y 1e308 against 1e-308 gave
# mape_all_pct 'inf' in the CSV (null in JSON), a cell curve-stats refuses.
printf 'warps_per_sm,y,m\n4,1e308,1e-308\n8,1,1\n' >"$tmp/inf.csv"
one_line "curve-stats, an error past any number" \
  "inf.csv:2: column y: '1e308' against m '1e-308': a relative error above 1e+15 %" -- \
  curve-stats --y y --measured m "$tmp/inf.csv"
# Numbers past a double's range (or 2^64-1) are out of range, said so with
# the allowed range: they were "not a number" / "not an unsigned integer".
one_line "--set 1e309" "[sm] clock_mhz: out of range (overflow) '1e309' (allowed 1..10000 MHz)" -- \
  run --kernel fma --format csv --set sm.clock_mhz=1e309
one_line "--set 5e-324" "[sm] clock_mhz: out of range (underflow) '5e-324' (allowed 1..10000 MHz)" -- \
  run --kernel fma --format csv --set sm.clock_mhz=5e-324
one_line "--set a uint past 2^64" "[dram] latency: out of range (overflow) '99999999999999999999'" -- \
  run --kernel fma --format csv --set dram.latency=99999999999999999999
one_line "--timeout 1e309" "--timeout: '1e309' is out of range (overflow; allowed 0..1e7 seconds" -- \
  run --kernel fma --format csv --timeout 1e309
one_line "--timeout 5e-324" "--timeout: '5e-324' is out of range (underflow; allowed 0..1e7 seconds" -- \
  run --kernel fma --format csv --timeout 5e-324
one_line "--timeout 2e7" "--timeout: '2e7' is out of range (allowed 0..1e7 seconds" -- \
  run --kernel fma --format csv --timeout 2e7
one_line "--max-cycles 2^64" "--max-cycles: '18446744073709551616' is out of range (overflow; allowed 0..2^64-1" -- \
  run --kernel fma --format csv --max-cycles 18446744073709551616
printf 'warps_per_sm,y\n4,1e309\n8,2\n' >"$tmp/big.csv"
one_line "curve-stats 1e309" "big.csv:2:2: column y: '1e309' is out of range (overflow)" -- \
  curve-stats --y y "$tmp/big.csv"
# [class_global] scattered_dram_bytes below a sector (1..31 on h200) acted
# as 32 (DRAM moves every sector a load touches); 0 and 32 still load.
one_line "scattered_dram_bytes 1" \
  "[class_global] scattered_dram_bytes: 1 is below a sector, [mem] sector_bytes 32" -- \
  run --kernel fma --format csv --set class_global.scattered_dram_bytes=1
grep -qF "(allowed 0 = a line, or 32..4096 bytes)" "$tmp/err" || fail "scattered 1: $(cat "$tmp/err")"
one_line "scattered_dram_bytes 63, sector 64" "scattered_dram_bytes: 63 is below a sector, [mem] sector_bytes 64" -- \
  run --kernel fma --format csv --set class_global.scattered_dram_bytes=63 --set mem.sector_bytes=64
for v in 0 32; do
  "$bin" run --kernel fma --format csv --set class_global.scattered_dram_bytes=$v >/dev/null 2>&1 &&
    ok || fail "scattered_dram_bytes $v refused"
done
# latency_spread above a level's least latency names the key that gives it:
# a [dram] stream_latency of 340 below latency 697 (it said "the level's
# latency 340"), and with a stream_latency above latency, latency.
one_line "dram latency_spread over stream_latency" "exceeds the level's stream_latency 340" -- \
  run --kernel fma --format csv --set dram.stream_latency=340 --set dram.latency_spread=400
one_line "dram latency_spread over latency" "exceeds the level's latency 300" -- \
  run --kernel fma --format csv --set dram.latency=300 --set dram.stream_latency=340 \
  --set dram.latency_spread=310
echo "$passed passed, 0 failed"
