#!/usr/bin/env bash
# cli_l2store.sh - with the store level law on ([l2] store_full_bytes 25 MiB, the measured
# value, and store_bytes_per_cycle 19.9; off in models/h200.ini, which the law made worse
# held out), the h200 model stores an L2-resident region at the rate the H200 did (issue 24,
# results/reference/h200/l2store/l2store.csv, l2_state=dirty): k_w's loops
# (tests/data/l2store/k_w_store.sass, cut from l2store.sass.gz: 128-bit STG, 1 a loop
# iteration, and 32-bit, 4 an iteration), simulated with no profile and the CTA's region as
# [sass] store_footprint, B CTAs per SM in one wave of B x 132, within 10 % of the bytes per
# cycle per SM measured at a grid footprint of 8-25 MiB at B = 2, 8, 16, regions of 8 KiB a
# CTA or more (4 KiB regions, 8 lines a warp rewritten over and over, ran 7-10 % slower:
# 17.9 at B = 16, 32-bit; the model does not claim them).  With the law off (every store to
# DRAM) 128-bit at B = 8 over 21.6 MB runs 16.6 B/cycle/SM against 19.9 measured (0.84 x):
# the last check, that the law is what meets them.
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the repository}
csv=$root/results/reference/h200/l2store/l2store.csv
sass=$root/tests/data/l2store/k_w_store.sass
# shellcheck source=tests/common.sh
. "$root/tests/common.sh"
on="--set l2.store_full_bytes=26214400 --set l2.store_bytes_per_cycle=19.9"

# rate BITS K B REGION SETS: simulated bytes stored per cycle per SM (1 MiB a CTA)
rate() {
  local bits=$1 k=$2 b=$3 region=$4 fn cycles
  fn=_Z3k_wILi16ELi0ELi1EEvPcPKcjiPfP3Rec
  [ "$bits" = 32 ] && fn=_Z3k_wILi4ELi0ELi4EEvPcPKcjiPfP3Rec
  printf '[sass]\nfile=%s\nfunction=%s\ntrip_count=512\nstore_footprint=%s\n[launch]\nthreads_per_block=128\nblocks_per_sm=%s\nblocks=%s\n' \
    "$sass" "$fn" "$region" "$b" $((b * 132)) >"$tmp/k.ini"
  # shellcheck disable=SC2086
  cycles=$(timeout 60 "$bin" run --kernel "$tmp/k.ini" --format csv --no-whatif $5 2>"$tmp/err" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["cycles"] }')
  [ -n "$cycles" ] || fail "$bits-bit x $k, B = $b: no run: $(cat "$tmp/err")"
  awk -v c="$cycles" -v b="$b" 'BEGIN { printf "%.4f\n", b * 1048576 / c }'
}

# check BITS K B: every measured row of that curve at B with a footprint of 8-25 MiB
check() {
  local bits=$1 k=$2 b=$3 n=0 region meas sim
  while read -r region meas; do
    sim=$(rate "$bits" "$k" "$b" "$region" "$on")
    awk -v s="$sim" -v m="$meas" 'BEGIN { r = s / m; exit !(r >= 0.9 && r <= 1.1) }' ||
      fail "$bits-bit x $k, B = $b, region $region: $sim B/cycle/SM simulated, $meas measured (ratio outside 0.9..1.1)"
    n=$((n + 1))
  done < <(awk -F, -v bits="$bits" -v k="$k" -v b="$b" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["exp"] == "store" && $c["l2_state"] == "dirty" && $c["store_bits"] == bits &&
    $c["stores_per_iteration"] == k && $c["blocks_per_sm"] == b &&
    $c["footprint_bytes"] >= 8388608 && $c["footprint_bytes"] <= 26214400 && $c["region_bytes"] >= 8192 {
      print $c["region_bytes"], $c["bytes_stored_per_cycle_per_sm"] }' "$csv")
  [ "$n" -gt 0 ] || fail "no L2-resident rows for $bits-bit x $k at B = $b in $csv"
  ok
}

for p in "128 1 2" "128 1 8" "128 1 16" "32 4 2" "32 4 8" "32 4 16"; do
  # shellcheck disable=SC2086
  check $p
done

# off (the shipped model): 128-bit at B = 8, region 20480 (21.6 MB) runs below 0.9 x
meas=$(awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["exp"] == "store" && $c["store_bits"] == 128 && $c["stores_per_iteration"] == 1 &&
  $c["l2_state"] == "dirty" && $c["blocks_per_sm"] == 8 && $c["region_bytes"] == 20480 {
    print $c["bytes_stored_per_cycle_per_sm"] }' "$csv")
sim=$(rate 128 1 8 20480 "")
awk -v s="$sim" -v m="$meas" 'BEGIN { exit !(s / m < 0.9) }' ||
  fail "law off: $sim B/cycle/SM simulated against $meas measured: expected below 0.9 x"
ok

# bad input (issue 24's keys, tests/common.sh one_line): a store rate below
# 0.001 B/cycle made one store take more than 2^63 cycles (1e-300: a UBSan
# float-cast-overflow in sim_cycle_ceil, exit 3 at "cycle 9223372036854776114"
# without it); a store_none edge below store_full_bytes was taken as a step
k=$root/traces/gstore_sass.ini
one_line "store rate 1e-300" "[l2] store_bytes_per_cycle: 1e-300 (allowed 0 = off, or 0.001..4096)" -- \
  run --kernel "$k" --no-whatif --set l2.store_full_bytes=26214400 --set l2.store_bytes_per_cycle=1e-300
one_line "store rate 0.0009" "store_bytes_per_cycle: 0.0009 (allowed 0 = off, or 0.001..4096)" -- \
  run --kernel "$k" --no-whatif --set l2.store_bytes_per_cycle=0.0009
one_line "store full past none" "[l2] store_full_bytes: 49283073 exceeds store_none_bytes 49283072 (allowed 0 = off, or 1..49283072 bytes)" -- \
  run --kernel "$k" --no-whatif --set l2.store_full_bytes=49283073
one_line "store none below full" "[l2] store_none_bytes: 1 is below store_full_bytes 26214400 (allowed 0 = store_full_bytes, or 26214400..4294967295 bytes)" -- \
  run --kernel "$k" --no-whatif --set l2.store_full_bytes=26214400 --set l2.store_none_bytes=1
one_line "store line none below full" "[l2] store_none_line_bytes: 1 is below store_full_bytes 26214400 (allowed 0 = store_none_bytes, or 26214400..4294967295 bytes)" -- \
  run --kernel "$k" --no-whatif --set l2.store_full_bytes=26214400 --set l2.store_none_line_bytes=1
one_line "store edges in sweep-points" "store_none_bytes: 2 is below store_full_bytes 50000000" -- \
  sweep-points --kernel "$k" --set l2.store_full_bytes=50000000 --axis l2.store_none_bytes=60000000,2
# the edges equal (a step at 47 MiB) and 0 (= the edge before) stay allowed
"$bin" run --kernel "$k" --no-whatif --format csv --set l2.store_full_bytes=49283072 >/dev/null 2>&1 ||
  fail "store_full_bytes = store_none_bytes refused"
"$bin" run --kernel "$k" --no-whatif --format csv --set l2.store_full_bytes=26214400 \
  --set l2.store_none_bytes=0 --set l2.store_none_line_bytes=0 >/dev/null 2>&1 ||
  fail "store_none_bytes 0 refused"
ok

echo "$passed passed, 0 failed"
