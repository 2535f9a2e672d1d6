#!/usr/bin/env bash
# cli_one_line_errors.sh - bad input is exactly one line on stderr and exit
# 2, with nothing said before it: no deprecation note for a renamed model
# (--model seed000, now textbook100k), no warning about a launch that the
# run then refuses (launch.blocks_per_sm above what fits, then a bad
# --policy or --max-cycles), no "dropped grid points" warning from
# sweep-points before a value it refuses, no compatibility warning from
# sass-coverage before a function it refuses (a listing of sm_80 functions,
# which rtx3090 runs with a warning each, then an sm_90 one it cannot run).
# A run that succeeds still says the note, once (sweep-points said it once
# per point it checked).  Needs WARPSIM_BIN and WARPSIM_ROOT (CTest).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?}
. "$root/tests/common.sh"
one_line "seed000, unknown kernel" "--kernel nope: no such kernel file" -- run --model seed000 --kernel nope
one_line "seed000, unknown key" "[sm] bad: unknown key" -- run --model seed000 --kernel fma --set sm.bad=1
one_line "seed000, bad --max-cycles" "--max-cycles: 'x' is not a whole number" -- \
  run --model seed000 --kernel fma --max-cycles x
one_line "seed000, bad --units" "--units: must be sm or device" -- run --model seed000 --kernel fma --units x
one_line "seed000, occupancy" "--threads: 0 is out of range" -- occupancy --model seed000 --threads 0 --regs 32
one_line "seed000, sweep-points" "value '2000'" -- \
  sweep-points --model seed000 --kernel fma --axis launch.blocks_per_sm=1,1,2000
one_line "seed000, sass-coverage" "no such file" -- sass-coverage --model seed000 "$tmp/none.sass"
one_line "launch warning, bad --policy" "--policy: unknown policy 'nope'" -- \
  run --kernel fma --set launch.blocks_per_sm=1000 --policy nope
one_line "launch warning, bad --max-cycles" "--max-cycles: 'x'" -- \
  run --kernel fma --set launch.blocks_per_sm=1000 --max-cycles x
l80=$root/results/reference/sass_other/sm_80/real_kernels.sass
l90=$root/results/reference/h200/real/sass/saxpy.sass
# (a function of its own: of one with an sm_80 and an sm_90 section, a fat
# binary's, rtx3090 reads the sm_80 one, as run does: cli_sass_fatbin.sh)
sed 's/k_saxpy/k_other/g' "$l90" | cat "$l80" - >"$tmp/two.sass"
one_line "sass-coverage, compatible then foreign" \
  "two.sass:$(($(wc -l <"$l80") + 12)): function '_Z7k_otherPfPKffiP3RecS_' is compiled for sm_90, which model 'rtx3090'" -- \
  sass-coverage --model rtx3090 "$tmp/two.sass"
note="warpsim: note: --model seed000 is now called textbook100k (the old name still works, but is deprecated)"
said_once() { # NAME ARGS...: exit 0 and the note once on stderr
  local name=$1
  shift
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err" || fail "$name: exit $?: $(cat "$tmp/err")"
  [ "$(grep -cxF "$note" "$tmp/err")" = 1 ] || fail "$name: the note not once: $(cat "$tmp/err")"
  ok
}
said_once "run" run --model seed000 --kernel fma --format csv --no-whatif
said_once "occupancy" occupancy --model seed000 --threads 256 --regs 32
said_once "sweep-points" sweep-points --model seed000 --kernel fma --axis launch.blocks_per_sm=1,2
echo "$passed passed, 0 failed"
