#!/usr/bin/env bash
# cli_modified.sh - a model that is not a shipped one unchanged is labelled
# "modified" everywhere it is named: a --set of a model key or an edited copy
# of a shipped file lists the changed keys in the report header ("on h200
# (modified: dram.latency=500)"), the JSON (model_validated false,
# model_modified [...]), the CSV column model_modified and the titles of
# plot_occupancy.gp and plot_spill.gp; a file of one's own is "own file
# PATH"; a --set of the shipped value and a byte-identical copy are no
# change.  Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them).
set -u
bin=${WARPSIM_BIN:?}
export WARPSIM=$bin # plot_occupancy.gp runs warpsim curve-stats
root=${WARPSIM_ROOT:?}
. "$root/tests/common.sh"
run() { "$bin" run --kernel fma --set stream.iterations=8 --no-whatif "$@"; }
# col NAME: the column NAME of the CSV row on stdin.

# The shipped [dram] latency, read from the file, and a value that differs.
shipped=$(awk '/^\[/ { g = $0 } g == "[dram]" && /^latency=/ { sub(/^latency=/, ""); print }' \
  "$root/models/h200.ini")
[ -n "$shipped" ] || fail "no [dram] latency in models/h200.ini"
other=$((shipped + 100))

# A --set of a model key.
run --set dram.latency=$other >"$tmp/text" || fail "run --set dram.latency=$other"
head -1 "$tmp/text" | grep -q "on h200 (modified: dram.latency=$other) " ||
  fail "header: $(head -1 "$tmp/text")"
grep -q "note: model h200 is modified (dram.latency=$other)" "$tmp/text" || fail "no note"
ok
run --set dram.latency=$other --set fma.latency=5 --format json >"$tmp/json" || fail "run json"
grep -q '"model_validated" : false' "$tmp/json" || fail "json: model_validated not false"
tr -d ' \n' <"$tmp/json" | grep -q "\"model_modified\":\[\"fma.latency=5\",\"dram.latency=$other\"\]" ||
  fail "json: model_modified: $(grep -A3 '"model_modified" : \[' "$tmp/json")"
ok
[ "$(run --set dram.latency=$other --format csv | col model_modified)" = "dram.latency=$other" ] ||
  fail "csv: model_modified column"
ok

# Unchanged: the shipped model, a --set of the shipped value, a copy of the file.
cp "$root/models/h200.ini" "$tmp/h200.ini"
for args in "" "--set dram.latency=$shipped" "--model $tmp/h200.ini"; do
  # shellcheck disable=SC2086
  run $args --format json >"$tmp/json" || fail "run $args"
  grep -q '"model_validated" : true' "$tmp/json" || fail "$args: model_validated not true"
  tr -d ' \n' <"$tmp/json" | grep -q '"model_modified":\[\]' || fail "$args: model_modified not empty"
  # shellcheck disable=SC2086
  run $args | head -1 | grep -q "on h200 (policy" || fail "$args: header says modified"
done
ok

# An edited copy lists the key it changed; a file of one's own says so.
awk -v v=$other '/^\[/ { g = $0 } g == "[dram]" && /^latency=/ { $0 = "latency=" v } { print }' \
  "$root/models/h200.ini" >"$tmp/h200.ini"
[ "$(run --model "$tmp/h200.ini" --format csv | col model_modified)" = "dram.latency=$other" ] ||
  fail "edited copy: $(run --model "$tmp/h200.ini" --format csv | col model_modified)"
cp "$root/models/h200.ini" "$tmp/mygpu.ini"
run --model "$tmp/mygpu.ini" | head -1 | grep -q "on mygpu (modified: own file $tmp/mygpu.ini)" ||
  fail "own file: $(run --model "$tmp/mygpu.ini" | head -1)"
run --model "$tmp/mygpu.ini" --format json | grep -q '"model_validated" : false' ||
  fail "own file: model_validated not false"
ok

# The figure titles read model_modified from the rows.
command -v gnuplot >/dev/null 2>&1 || { echo "$passed passed (gnuplot not installed: plots skipped)"; exit 77; }
for set in "dram.latency=$other" "dram.latency=$shipped"; do
  f=$tmp/sweep.csv
  run --set "$set" --format csv >"$f"
  for b in 4 16; do run --set "$set" --set launch.blocks_per_sm=$b --format csv --no-header >>"$f"; done
  gnuplot -c "$root/scripts/plot_occupancy.gp" "$tmp/o.svg" "$f" 2>"$tmp/err" || fail "plot: $(cat "$tmp/err")"
  if [ "$set" = "dram.latency=$other" ]; then
    # the title's first line names the model, its second what changed
    grep -q "<text>warpsim, model h200</text>" "$tmp/o.svg" && grep -q "(modified: dram.latency=$other):" "$tmp/o.svg" ||
      fail "plot_occupancy title"
  else
    grep -q "model h200:" "$tmp/o.svg" && ! grep -q modified "$tmp/o.svg" ||
      fail "plot_occupancy: an unchanged model is labelled modified"
  fi
done
ok
"$bin" run --kernel spill --set dram.latency=$other --format csv >"$tmp/spill.csv" || fail "spill run"
gnuplot -c "$root/scripts/plot_spill.gp" "$tmp/spill.csv" "$tmp/s.svg" 2>"$tmp/err" || fail "plot_spill: $(cat "$tmp/err")"
grep -q "on the h200 (modified: dram.latency=$other) model" "$tmp/s.svg" || fail "plot_spill title"
ok
# stalls.sh hands gnuplot its title: a stand-in gnuplot records the arguments.
mkdir -p "$tmp/shim"
printf '#!/bin/sh
printf "%%s\n" "$@" >"%s"
' "$tmp/gp.args" >"$tmp/shim/gnuplot"
chmod +x "$tmp/shim/gnuplot"
PATH="$tmp/shim:$PATH" WARPSIM="$bin" "$root/scripts/stalls.sh" --kernel chase --set dram.latency=$other \
  --set stream.ilp=2 "$tmp/st" >/dev/null 2>"$tmp/err" || fail "stalls.sh: $(cat "$tmp/err")"
grep -qx "chase stream.ilp=2, model h200 (modified: dram.latency=$other)" "$tmp/gp.args" ||
  fail "stalls.sh title: $(tail -1 "$tmp/gp.args")"
ok
echo "$passed passed, 0 failed"
