#!/usr/bin/env bash
# cli_main_summary.sh - the main job's summary (scripts/main_summary.sh) on a
# hand-made results folder: per curve its knee and 50 -> 100 % change as
# summary.csv has them; "N of M within target" counted from the pass column
# (n/a rows left out); each known miss of scripts/known_misses.tsv with its
# numbers and reason; a miss not listed there named as new; a listed one
# that passes named for removal; a warning repeated at every point said once,
# without its instruction text; columns found by header name (a column added
# before pass changes nothing); bad arguments exit 2.  Also the headline
# figure's script: it refuses a missing or empty file, and the true maximum
# of a falling curve is the one its key names (plot_occupancy.gp too).
set -u
root=${WARPSIM_ROOT:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*" >&2; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }
s=$root/scripts/main_summary.sh

r=$tmp/r
mkdir -p "$r/validation"
cat >"$r/summary.csv" <<'CSV'
kernel,ilp,loads_in_flight,metric,plateau,knee_warps_per_sm,knee_occupancy_pct,at_most_warps,still_rising,change_50_to_100_pct
fma,1,0,fma_per_cycle,1.9,12,18.750,1.9,no,+0.0
fma,4,0,fma_per_cycle,3.9,4,6.250,3.9,no,+0.1
chase,1,1,bytes_per_cycle,10.1,,,10.1,yes,+84.7
spill,4,0,fma_per_cycle,3.8,20,31.250,0.15,no,-84.8
CSV
cat >"$r/validation/summary.csv" <<'CSV'
curve,points,fit_points,mape_fit_pct,mape_heldout_pct,mape_all_pct,bound_mape_pct,plateau_measured,plateau_simulated,knee_measured_warps,knee_simulated_warps,knee_diff_warps,pass
fma ilp 1,16,2,3.1,4.1,4.0,94.4,1.97,1.91,12,12,+0,yes
chase l2 ilp 4,16,1,2.7,6.1,5.9,9.0,36.1,35.6,32,24,-8,NO
latency,5,5,1.2,-,1.2,-,-,-,-,-,-,n/a
CSV
# blur (known) misses, hist (known) passes, newk (not listed) misses; an
# extra column before pass.
cat >"$r/validation/real_summary.csv" <<'CSV'
kernel,fitted,points,mape_pct,knee_measured_warps,knee_simulated_warps,extra,pass
saxpy,yes,16,4.1,20,16,x,yes
blur,no,16,4.0,36,28,x,NO
hist,no,16,3.0,4,4,x,yes
newk,no,16,21.5,8,20,x,NO
CSV
mkdir -p "$r/volkov"
printf 'model,table,ilp,quantity,simulated,published\ngtx480,fma,1,threads_per_sm_at_peak,576,576\ngtx480,memory,1,bytes_in_flight_gpu_at_peak,122880,100000\n' >"$r/volkov/volkov.csv"
w="warpsim: warning: $root/traces/../results/reference/h200/real5/sass/k.sass:675: 'REDG.E.ADD [R2], R6': global atomics are timed as L2 writes"
# Two agreement warnings (warpsim run's wording): one line per kernel, condensed.
a1="warpsim: warning: conv3_sass: at the profiled launch (8 CTAs/SM, grid 1056) the simulation takes 886802 SM active cycles where the profile measured 1074435 (x0.83, more than 10 % off): the pure model misses this kernel here, so the curve is anchored on the profile (the report's \"anchor:\" lines; --no-anchor: the pure curve, not to be trusted); the metric that disagrees most is dram_throughput_pct (simulated 29.12, profiled 21.14 %; report section \"Agreement with the profile\")"
a2="warpsim: warning: gemv_sass: at the profiled launch (8 CTAs/SM, grid 1056) the simulation takes 623537 SM active cycles where the profile measured 558453 (x1.12, more than 10 % off): do not trust this curve; the metric that disagrees most is state:lg_throttle (simulated 7.0 %, profiled 0.0 % of warp cycles; report section \"Agreement with the profile\")"
printf '%s\n%s\nother line\n%s\n%s\n%s\n' "$w" "$w" "$a1" "$a2" "$a1" >"$tmp/warn"
"$s" "$r" h200 "$tmp/warn" >"$tmp/out" 2>&1 || fail "main_summary.sh exited $?: $(cat "$tmp/out")"
want() { grep -qF -- "$1" "$tmp/out" || fail "no line with '$1' in: $(cat "$tmp/out")"; ok; }
want "threads per SM for the FFMA peak: ILP 1 576 (576)"
want "DRAM knee: ILP 1 123 KB (~100 KB)"
want "ILP 1 4:"
want "knee 18.75 6.25 %"
want "50 -> 100 %: +0.0 +0.1 %"
want "knee - %"
want "50 -> 100 %: -84.8 %"
want "synthetic curves:  1 of 2 within target"
want "real kernels:      2 of 4 within target"
want "chase l2 ilp 4 MAPE     6.1 %, knee 24 / 32: knee early"
want "blur           MAPE     4.0 %, knee 28 / 36: held out"
want "NEW MISS, not in scripts/known_misses.tsv: newk           MAPE    21.5 %, knee 20 /  8"
want "now within target (drop it from scripts/known_misses.tsv): hist"
want "results/reference/h200/real5/sass/k.sass:675: global atomics are timed as L2 writes"
[ "$(grep -c 'global atomics' "$tmp/out")" = 1 ] && ok || fail "the warning is not said exactly once"
! grep -q "REDG" "$tmp/out" && ok || fail "the warning kept its instruction text"
want "conv3 x0.83 (dram_throughput_pct), gemv x1.12 (state:lg_throttle)"
! grep -q "do not trust" "$tmp/out" && ok || fail "an agreement warning was printed whole"
! grep -q "spill_48" "$tmp/out" && ok || fail "a known miss absent from the tables was listed"
[ "$(wc -l <"$tmp/out")" -le 60 ] && ok || fail "more than 60 lines"
# No validation folder (another model): the curves only.
rm -r "$r/validation"
"$s" "$r" gtx480 >"$tmp/out" 2>&1 || fail "without validation: exit $?"
! grep -q "Validation" "$tmp/out" && ok || fail "a validation line without validation tables"
# Bad arguments.
"$s" >/dev/null 2>"$tmp/err"; [ $? -eq 2 ] && ok || fail "no arguments: not exit 2"
"$s" "$tmp/nowhere" h200 >/dev/null 2>"$tmp/err"; [ $? -eq 2 ] && grep -q "summary.csv" "$tmp/err" && ok ||
  fail "a folder without summary.csv: not exit 2 naming it"

# The headline figure and the falling curve's best point.
if command -v gnuplot >/dev/null 2>&1; then
  gp=$root/scripts/plot_occupancy_headline.gp
  bin=${WARPSIM_BIN:?}
  export WARPSIM=$bin # plot_occupancy.gp runs warpsim curve-stats
  echo "panel,series,source,warps_per_sm,occupancy_pct,value,unit" >"$tmp/h.csv"
  gnuplot -c "$gp" "$tmp/none.csv" "$tmp/h.csv" "$tmp/h.svg" >/dev/null 2>&1; [ $? -eq 2 ] && [ ! -e "$tmp/h.svg" ] && ok ||
    fail "headline: a missing file not refused"
  gnuplot -c "$gp" "$tmp/h.csv" "$tmp/h.csv" "$tmp/h.svg" >/dev/null 2>&1; [ $? -eq 2 ] && [ ! -e "$tmp/h.svg" ] && ok ||
    fail "headline: a header-only file not refused"
  # A falling curve whose 90 % point (12.5 %) comes before its maximum (50 %).
  for x in "6.25 40" "12.5 72.151" "25 71" "50 72.263" "75 50" "100 40"; do
    set -- $x
    echo "falls,thrash,warpsim h200,$(awk -v o="$1" 'BEGIN { print o * 64 / 100 }'),$1,$2,bytes per cycle" >>"$tmp/h.csv"
  done
  WARPSIM=$bin "$root/scripts/headline_stats.sh" "$tmp/h.csv" >"$tmp/hs.csv" || fail "headline_stats.sh exited $?"
  gnuplot -c "$gp" "$tmp/h.csv" "$tmp/hs.csv" "$tmp/h.svg" 2>"$tmp/err" || fail "headline: $(cat "$tmp/err")"
  # 40 / 72.263 - 1 = -44.6 %: curve-stats' fall, 44.6
  grep -q "best at 50 %, -45 % by 100 %" "$tmp/h.svg" && ok || fail "headline: the best point is not the maximum at 50 %"
  # plot_occupancy.gp names the same point: thrash rows at 1, 8, 16 CTAs
  # (6.25, 50, 100 %) with their bytes per cycle set by hand.
  for b in 1 2 8 16; do
    "$bin" run --kernel "$root/traces/thrash.ini" --set stream.iterations=4 --set launch.blocks_per_sm=$b --format csv
  done | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    /^model,/ { next }
    { split("40 72.151 72.263 40", v, " "); $c["bytes_per_cycle"] = v[++n]; print }' OFS=, >"$tmp/t.csv"
  gnuplot -c "$root/scripts/plot_occupancy.gp" "$tmp/t.svg" "$tmp/t.csv" 2>"$tmp/err" || fail "plot_occupancy: $(cat "$tmp/err")"
  grep -q "best 72.26 at 50 %" "$tmp/t.svg" && ok || fail "plot_occupancy: the best point is not the maximum at 50 %"
else
  echo "gnuplot missing: the figure checks skipped"
fi
echo "$passed passed, 0 failed"
