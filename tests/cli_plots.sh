#!/usr/bin/env bash
# cli_plots.sh - the gnuplot scripts follow their data and refuse bad input:
# every script without arguments prints its usage and exits 2; a missing or
# header-only CSV exits 2 and writes no figure; plot_occupancy.gp draws every
# ILP value present (1..8, not a fixed list), groups by loads in flight when
# only stream.loads was swept, takes the level, metric and model from the
# rows, and states the 50 -> 100 % change it computes from the data; the
# validation overlay draws every ILP of its files.  Needs WARPSIM_BIN and
# WARPSIM_ROOT (CTest sets them); skipped (77) without gnuplot.
set -u
bin=${WARPSIM_BIN:?}
root=${WARPSIM_ROOT:?}
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not installed"; exit 77; }
export WARPSIM=$bin # plot_occupancy.gp's curve-stats
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*" >&2; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }

# refused NAME OUT ARGS...: gnuplot ARGS exits 2, says why on stderr, writes no OUT.
refused() {
  local name=$1 out=$2
  shift 2
  gnuplot "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc, expected 2: $(cat "$tmp/stderr")"
  [ -s "$tmp/stderr" ] || fail "$name: no message"
  ! grep -q 'line [0-9]*:' "$tmp/stderr" || fail "$name: a raw gnuplot error: $(cat "$tmp/stderr")"
  [ -z "$out" ] || [ ! -e "$out" ] || fail "$name: wrote $out"
  ok
}

gp=$root/scripts
for s in plot_occupancy plot_spill plot_stalls plot_validation plot_occupancy_whatif; do
  refused "$s without arguments" "" -c "$gp/$s.gp"
  grep -q usage "$tmp/stderr" || fail "$s without arguments: no usage line"
done
refused "what-if plot with no in/out" "" "$gp/plot_occupancy_whatif.gp"

: >"$tmp/empty.csv"
"$bin" run --kernel fma --set stream.iterations=8 --format csv | head -1 >"$tmp/header.csv"
for f in "$tmp/missing.csv" "$tmp/empty.csv" "$tmp/header.csv"; do
  b=$(basename "$f")
  refused "plot_occupancy $b" "$tmp/o.png" -c "$gp/plot_occupancy.gp" "$tmp/o.png" "$f"
  refused "plot_occupancy measured $b" "$tmp/o.png" -c "$gp/plot_occupancy.gp" "$tmp/o.png" "$tmp/header.csv:$f"
  refused "plot_spill $b" "$tmp/o.png" -c "$gp/plot_spill.gp" "$f" "$tmp/o.png"
  refused "plot_stalls $b" "$tmp/o.png" -c "$gp/plot_stalls.gp" "$f" "$tmp/o.png"
  refused "plot_occupancy_whatif $b" "$tmp/o.png" -c "$gp/plot_occupancy_whatif.gp" "$f" "$tmp/o.png"
done
mkdir "$tmp/val"
refused "plot_validation empty dir" "$tmp/o.png" -c "$gp/plot_validation.gp" "$tmp/val" "$tmp/o.png"

# fma at ILP 1..8, two occupancies each (4 and 32 warps); the rows at 32 warps
# are 50 % occupancy, and 64 warps is 100 %.
run() { "$bin" run --format csv --no-header --set stream.iterations=16 "$@"; }
"$bin" run --kernel fma --set stream.iterations=16 --format csv | head -1 >"$tmp/fma.csv"
for i in 1 2 3 4 5 6 7 8; do
  for b in 1 8 16; do
    run --kernel fma --set stream.ilp=$i --set stream.fma=$((32 * i)) --set launch.blocks_per_sm=$b >>"$tmp/fma.csv"
  done
done
gnuplot -c "$gp/plot_occupancy.gp" "$tmp/fma.svg" "$tmp/fma.csv" 2>"$tmp/stderr" ||
  fail "plot_occupancy fma: $(cat "$tmp/stderr")"
[ ! -s "$tmp/stderr" ] || fail "plot_occupancy fma: warnings: $(cat "$tmp/stderr")"
# Columns it reads missing, in the simulation or the measured file: exit 2
# before any figure (it was gnuplot's "undefined variable: level", exit 1
# and half a figure).  A metric that is no column name never reaches the
# shell its checks run in; a file name with a quote is read as a name
# (tests/cli_plot_names.sh tries every script).
cut -d, -f1-5 "$tmp/fma.csv" >"$tmp/cut.csv"
refused "plot_occupancy missing columns" "$tmp/o.png" -c "$gp/plot_occupancy.gp" "$tmp/o.png" "$tmp/cut.csv"
grep -q "cut.csv: no column 'level'" "$tmp/stderr" || fail "missing columns: $(cat "$tmp/stderr")"
refused "plot_occupancy measured missing columns" "$tmp/o.png" -c "$gp/plot_occupancy.gp" "$tmp/o.png" \
  "$tmp/fma.csv:$tmp/cut.csv"
grep -q "cut.csv: no column 'occupancy_pct'" "$tmp/stderr" || fail "measured missing columns: $(cat "$tmp/stderr")"
refused "plot_occupancy shell in metric" "$tmp/o.png" -e "metric=\"x'; touch $tmp/pwned; echo '\"" \
  -c "$gp/plot_occupancy.gp" "$tmp/o.png" "$tmp/fma.csv"
[ ! -e "$tmp/pwned" ] || fail "plot_occupancy: the metric ran a command"
grep -q "not a column name" "$tmp/stderr" || fail "shell in metric: $(cat "$tmp/stderr")"
cp "$tmp/fma.csv" "$tmp/q'\$(touch pwned)'.csv"
(cd "$tmp" && gnuplot -c "$gp/plot_occupancy.gp" "$tmp/q.svg" "$tmp/q'\$(touch pwned)'.csv") 2>"$tmp/stderr" &&
  cmp -s "$tmp/q.svg" "$tmp/fma.svg" && [ ! -e "$tmp/pwned" ] || fail "quote in a file name: $(cat "$tmp/stderr")"
for i in 1 2 3 4 5 6 7 8; do
  grep -q ">ILP $i: " "$tmp/fma.svg" || fail "plot_occupancy: ILP $i not drawn"
done
ok
grep -q "model h200" "$tmp/fma.svg" || fail "plot_occupancy: the model is not in the title"
grep -q "warp FFMA per cycle per SM" "$tmp/fma.svg" || fail "plot_occupancy: fma metric label"
grep -q "50 % occupancy" "$tmp/fma.svg" || fail "plot_occupancy: no 50 % line label"
ok
# The 50 -> 100 % change of ILP 4, computed here from the rows.
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["ilp"] == 4 && $c["occupancy_pct"] == 50 { a = $c["fma_per_cycle"] }
  $c["ilp"] == 4 && $c["occupancy_pct"] == 100 { b = $c["fma_per_cycle"] }
  END { printf "%+.1f %%", 100 * (b / a - 1) }' "$tmp/fma.csv")
grep -q ">ILP 4: 50→100 %: $want " "$tmp/fma.svg" ||
  fail "plot_occupancy: ILP 4 legend lacks '50→100 %: $want': $(grep -o '>ILP 4: [^<]*' "$tmp/fma.svg")"
ok

# Only stream.loads swept (ILP stays 1): one curve per loads value, labelled so.
"$bin" run --kernel chase --set stream.level=l2 --set stream.iterations=16 --format csv | head -1 >"$tmp/loads.csv"
for l in 1 2 4; do
  for b in 1 8 16; do
    run --kernel chase --set stream.level=l2 --set stream.loads=$l --set launch.blocks_per_sm=$b >>"$tmp/loads.csv"
  done
done
gnuplot -c "$gp/plot_occupancy.gp" "$tmp/loads.svg" "$tmp/loads.csv" 2>"$tmp/stderr" ||
  fail "plot_occupancy loads: $(cat "$tmp/stderr")"
for l in 1 2 4; do
  grep -q ">loads in flight/warp $l: " "$tmp/loads.svg" || fail "plot_occupancy: loads $l not drawn"
done
grep -q "L2 bytes per cycle per SM" "$tmp/loads.svg" || fail "plot_occupancy: level not in the y label"
grep -q "from L2" "$tmp/loads.svg" || fail "plot_occupancy: level not in the title"
ok
# A measured curve beside it (same columns): drawn with its own legend entry.
awk -F, 'NR == 1 { print; next } { $1 = "H200 measured"; print }' OFS=, "$tmp/loads.csv" >"$tmp/meas.csv"
gnuplot -c "$gp/plot_occupancy.gp" "$tmp/m.svg" "$tmp/loads.csv:$tmp/meas.csv" 2>"$tmp/stderr" ||
  fail "plot_occupancy measured: $(cat "$tmp/stderr")"
grep -q "H200 measured: " "$tmp/m.svg" || fail "plot_occupancy: measured curve not in the legend"
ok

# Validation overlay: an ILP 8 curve in chase_dram is drawn.
for e in fma chase_l2 chase_dram stream; do
  printf 'curve,ilp,warps_per_sm,measured,simulated,rel_error_pct,little_bound\n' >"$tmp/val/$e.csv"
  for i in 1 8; do for w in 4 8; do
    echo "x,$i,$w,1.0,1.1,10.00,2.0" >>"$tmp/val/$e.csv"
  done; done
done
gnuplot -c "$gp/plot_validation.gp" "$tmp/val" "$tmp/val.png" 2>"$tmp/stderr" ||
  fail "plot_validation: $(cat "$tmp/stderr")"
[ -s "$tmp/val.png" ] || fail "plot_validation: no figure"
ok
echo "$passed passed, 0 failed"
