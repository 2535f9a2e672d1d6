#!/usr/bin/env bash
# cli_plot_names.sh - every gnuplot script reads and writes files whose
# path holds a quote, a space and shell text ("it's $(touch pwned) a
# dir"): the figure is written, byte-identical to the one of a plain path,
# and no command in the name runs (the names reach the shell through lib.gp's
# sq()).  Inputs: the committed results/ files.  Needs WARPSIM_BIN and
# WARPSIM_ROOT (CTest sets them); skipped (77) without gnuplot.
set -u
bin=${WARPSIM_BIN:?}
root=${WARPSIM_ROOT:?}
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not installed"; exit 77; }
export WARPSIM=$bin
. "$root/tests/common.sh"
r=$root/results gp=$root/scripts
odd="$tmp/it's \$(touch $tmp/pwned) a dir"
mkdir -p "$tmp/plain" "$odd"
for d in "$tmp/plain" "$odd"; do
  cp "$r"/{fma,chase,chase_measured_h200,spill,occupancy_whatif}.csv "$d/"
  # the headline's compute panel only (its script takes 20 s for all three)
  for h in occupancy_headline occupancy_headline_stats; do
    awk -F, 'NR == 1 || $1 == "compute"' "$r/$h.csv" >"$d/$h.csv"
  done
  cp "$r/stalls/stalls_chase.csv" "$d/"
  # two real kernels (one page), the two chase experiments of the overlay
  awk -F, 'NR == 1 || $1 == "saxpy" || $1 == "softmax"' "$r/validation/real.csv" >"$d/real.csv"
  awk -F, 'NR == 1 || $1 == "saxpy" || $1 == "softmax"' "$r/validation/real_summary.csv" >"$d/real_summary.csv"
  mkdir "$d/val" "$d/volkov"
  cp "$r"/validation/{chase_dram,chase_l2}.csv "$d/val/"
  awk -F, 'NR == 1 || $1 ~ /^chase/' "$r/validation/summary.csv" >"$d/val/summary.csv"
  cp "$r"/volkov/*.csv "$d/volkov/"
done
# figures DIR: every script once, its inputs and outputs in DIR
figures() {
  local d=$1
  gnuplot -c "$gp/plot_occupancy.gp" "$d/curves's.png" "$d/fma.csv" "$d/chase.csv:$d/chase_measured_h200.csv" &&
    gnuplot -c "$gp/plot_occupancy_headline.gp" "$d/occupancy_headline.csv" "$d/occupancy_headline_stats.csv" \
      "$d/throughput.png" &&
    gnuplot -c "$gp/plot_occupancy_whatif.gp" "$d/occupancy_whatif.csv" "$d/whatif.png" &&
    gnuplot -c "$gp/plot_spill.gp" "$d/spill.csv" "$d/spill.png" &&
    gnuplot -c "$gp/plot_stalls.gp" "$d/stalls_chase.csv" "$d/stalls.png" "chase, model h200" &&
    gnuplot -c "$gp/plot_validation.gp" "$d/val" "$d/overlay.png" &&
    gnuplot -c "$gp/plot_real.gp" "$d/real.csv" "$d/real_summary.csv" "$d/real" &&
    gnuplot -c "$gp/plot_volkov.gp" "$d/volkov" "$d/volkov.png" 132
}
figures "$tmp/plain" 2>"$tmp/err" || fail "plain path: $(cat "$tmp/err")"
figures "$odd" 2>"$tmp/err" || fail "odd path: $(cat "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "odd path: messages: $(cat "$tmp/err")"
[ ! -e "$tmp/pwned" ] && [ ! -e pwned ] || fail "a command in a file name ran"
ok
for f in "curves's.png" throughput.png whatif.png spill.png stalls.png overlay.png real_1.png volkov.png; do
  [ -s "$odd/$f" ] || fail "$f: not written"
  cmp -s "$tmp/plain/$f" "$odd/$f" || fail "$f: differs from the plain path's"
  ok
done
echo "$passed passed, 0 failed"
