#!/usr/bin/env bash
# cli_busy_share.sh - the per-busy-SM DRAM share ([dram] lone_sm_ratio,
# busy_exponent; model_busy_share) reproduces the H200's small-grid curve
# (results/reference/h200/smallgrid/active.csv: n SMs of 132 busy, B CTAs of
# 128 threads each, 4 float4 loads in flight per thread) on points the rule
# was not fitted on (its fit: B = 16 at n = 1, 16, 66, 132): the synthetic
# stream kernel with 4 loads in flight, `sm.sms=n` SMs all busy (the share's
# full load stays [mem] full_load_sms = 132), against bytes per cycle per
# busy SM.  B = 4..16 (16..64 warps, bandwidth-bound); at 4 and 8 warps
# (B = 1, 2) each warp's own DRAM lines in flight decide it ([class_global]
# warp_lines_in_flight, doc/model.md "A warp's DRAM lines in flight";
# tests/cli_smallgrid.sh judges that cap on grid.csv), so they do not judge
# this rule.  Also: with the rule off (lone_sm_ratio=1) the same points are
# far off, so the test can fail.
set -euo pipefail
root=${WARPSIM_ROOT:?}
bin=${WARPSIM_BIN:?}
csv=$root/results/reference/h200/smallgrid/active.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["level"] == "dram" && $c["placement"] == "packed" && $c["blocks_per_sm"] >= 4 &&
  ($c["active_sms"] ~ /^(2|8|24|33|49|99)$/) { print $c["blocks_per_sm"], $c["active_sms"], $c["bytes_per_cycle_per_sm"] }' \
  "$csv" >"$tmp/points"
[ "$(wc -l <"$tmp/points")" -eq 24 ] || { echo "FAIL: $(wc -l <"$tmp/points") held-out points in $csv (want 24)"; exit 1; }
for rule in on off; do
  extra=()
  [ $rule = on ] || extra=(--set dram.lone_sm_ratio=1)
  echo "blocks_per_sm,busy_sms,measured,simulated" >"$tmp/$rule.csv"
  while read -r b n measured; do
    sim=$("$bin" run --kernel stream --set stream.loads=4 --set stream.ilp=4 --set launch.blocks_per_sm="$b" \
      --set sm.sms="$n" "${extra[@]}" --format csv 2>/dev/null |
      awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["dram_bytes_per_cycle"] }')
    echo "$b,$n,$measured,$sim" >>"$tmp/$rule.csv"
  done <"$tmp/points"
  "$bin" curve-stats --x busy_sms --y simulated --measured measured --no-knee "$tmp/$rule.csv" >"$tmp/$rule.stats"
done
mape() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["mape_all_pct"] }' "$1"; }
on=$(mape "$tmp/on.stats") off=$(mape "$tmp/off.stats")
if awk -v m="$on" 'BEGIN { exit !(m <= 10) }'; then pass=$((pass + 1)); else
  echo "FAIL: held-out MAPE with the rule $on % (want <= 10 %)"; cat "$tmp/on.csv"; fail=$((fail + 1)); fi
if awk -v m="$off" 'BEGIN { exit !(m > 30) }'; then pass=$((pass + 1)); else
  echo "FAIL: held-out MAPE without the rule $off % (want > 30 %: the rule must matter here)"; fail=$((fail + 1)); fi
# The report's DRAM peak is the share the simulation gave the SM: a lone busy SM
# of 132 gets 17.2 x (1.953^-2.4 + (1/132)^2.4 (1 - 1.953^-2.4))^(-1/2.4) B/cycle,
# so a lone DRAM-bound stream reads under 100 % (it read 193.6 % of the
# all-SMs 17.2 before), and its Memory Bandwidth Peak is that share.
want=$(awk 'BEGIN { p = 2.4; l = 1.953 ^ -p; printf "%.3f", 17.2 * (l + (1 / 132) ^ p * (1 - l)) ^ (-1 / p) }')
"$bin" run --kernel stream --set launch.blocks=1 --set stream.loads=8 --set launch.threads_per_block=1024 \
  --format json 2>/dev/null | tr -d ' \n' >"$tmp/lone.json"
peak=$(sed -n 's/.*"memory_peak_bytes_per_cycle":\([0-9.]*\).*/\1/p' "$tmp/lone.json")
pct=$(sed -n 's/.*"memory_throughput_pct":\([0-9.]*\).*/\1/p' "$tmp/lone.json")
if awk -v p="$peak" -v w="$want" -v t="$pct" 'BEGIN { exit !(p + 0 > 0 && (p - w) ^ 2 < 1e-6 && t <= 100 && t >= 90) }'; then
  pass=$((pass + 1)); else
  echo "FAIL: lone SM: peak $peak B/cycle (want $want), throughput $pct % (want 90..100)"; fail=$((fail + 1)); fi
echo "small-grid DRAM share, 24 held-out points: MAPE $on % with the rule, $off % without"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
