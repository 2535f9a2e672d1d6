#!/usr/bin/env bash
# cli_run_points.sh - `warpsim run --points FILE`, one curve in one
# process: its CSV is byte for byte the rows of one `warpsim run` per
# point (the point's words as --set after the others), with the header
# once, anchored and pure (--no-anchor: the profiled point takes its own
# run), for a SASS kernel with a profile and a synthetic one, and for a
# point the anchor's shape check simulated (taken from the memo); bad input
# (a word outside [launch], a bad value, no point, no such file, text or
# JSON output, a bad point after good ones) is one line naming the file
# and line, exit 2, before any point runs; a warning
# line is said once per file; --timeout is one deadline for all the points
# together (exit 3); without --format the output is CSV.
# Needs WARPSIM_BIN (CTest sets it).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/common.sh"

# same_as_runs NAME POINTS -- ARGS...: --points POINTS against one run a line
same_as_runs() {
  local name=$1 points=$2 line w
  shift 3
  "$bin" run --format csv --no-whatif "$@" --points "$points" >"$tmp/batch" 2>/dev/null ||
    fail "$name: --points failed"
  : >"$tmp/each"
  while IFS= read -r line; do
    local sets=()
    for w in $line; do sets+=(--set "$w"); done
    "$bin" run --format csv --no-whatif "$@" "${sets[@]}" 2>/dev/null >>"$tmp/each" ||
      fail "$name: run of '$line' failed"
  done <"$points"
  awk 'NR == 1 || !/^model,/' "$tmp/each" >"$tmp/want"
  [ "$(wc -l <"$tmp/want")" -eq $(($(wc -l <"$points") + 1)) ] || fail "$name: header and rows"
  cmp -s "$tmp/want" "$tmp/batch" || fail "$name: --points differs from one run a point"
  ok
}

sass=$root/traces/saxpy_sass.ini
printf '%s\n' 'launch.blocks_per_sm=1 launch.blocks=132' 'launch.blocks_per_sm=8 launch.blocks=1056' \
  'launch.blocks_per_sm=3 launch.blocks=396' >"$tmp/sass.pts"
same_as_runs "saxpy anchored" "$tmp/sass.pts" -- --kernel "$sass"
same_as_runs "saxpy pure" "$tmp/sass.pts" -- --kernel "$sass" --no-anchor
# conv3's anchor checks the curve's shape at 4 and 8 CTAs per SM on the
# anchored model (profile_agree_cycles_at); at 8 that launch is the point
# below (validate_real.sh's), which --points takes from the memo: the row
# is still the one run's.
printf '%s\n' 'launch.blocks_per_sm=8 launch.blocks=1056 launch.smem_dynamic=26496 launch.optin=true' \
  'launch.blocks_per_sm=2 launch.blocks=264 launch.smem_dynamic=114048 launch.optin=true' >"$tmp/conv3.pts"
same_as_runs "conv3 anchored, a point the shape check ran" "$tmp/conv3.pts" -- \
  --kernel "$root/traces/conv3_sass.ini"
printf '%s\n' 'launch.blocks_per_sm=1' 'launch.blocks_per_sm=2 launch.blocks=300' >"$tmp/fma.pts"
same_as_runs "fma" "$tmp/fma.pts" -- --kernel fma --set stream.iterations=64

printf 'launch.blocks_per_sm=1\n\nstream.ilp=4\n' >"$tmp/bad.pts"
one_line "not [launch]" "bad.pts:3: 'stream.ilp=4'" -- run --kernel fma --format csv --points "$tmp/bad.pts"
printf 'launch.blocks_per_sm=1\nlaunch.blocks_per_sm=x\n' >"$tmp/value.pts"
one_line "bad value" "value.pts:2: " -- run --kernel fma --format csv --points "$tmp/value.pts"
printf '# none\n\n' >"$tmp/empty.pts"
one_line "no point" "no point" -- run --kernel fma --format csv --points "$tmp/empty.pts"
one_line "no file" "--points" -- run --kernel fma --format csv --points "$tmp/missing.pts"
# No --format: CSV, the same bytes as --format csv; an explicit text or JSON
# is refused (one line, exit 2), and so is --config-comments.
"$bin" run --kernel fma --set stream.iterations=64 --points "$tmp/fma.pts" >"$tmp/nofmt" 2>/dev/null ||
  fail "no --format: exit $?"
"$bin" run --kernel fma --set stream.iterations=64 --format csv --points "$tmp/fma.pts" >"$tmp/csv" 2>/dev/null ||
  fail "--format csv: exit $?"
[ "$(head -c 6 "$tmp/nofmt")" = "model," ] && [ "$(wc -l <"$tmp/nofmt")" -eq 3 ] && cmp -s "$tmp/nofmt" "$tmp/csv" ||
  fail "no --format: not the CSV of --format csv: $(head -c 300 "$tmp/nofmt")"
ok
one_line "text" "--points: --format csv only, the default with --points" -- \
  run --kernel fma --format text --points "$tmp/fma.pts"
one_line "json" "--points: --format csv only" -- run --kernel fma --format json --points "$tmp/fma.pts"
one_line "comments" "--points: without --config-comments only" -- \
  run --kernel fma --config-comments --points "$tmp/fma.pts"
# An error of the run itself (no such kernel) is no point's: no file:line.
"$bin" run --kernel no_such_kernel --format csv --points "$tmp/fma.pts" >/dev/null 2>"$tmp/err"
grep -q "^warpsim: --kernel no_such_kernel: no such kernel" "$tmp/err" && ok ||
  fail "no kernel: $(head -c 300 "$tmp/err")"
# Nor is a bad --policy or a model without timing: they named line 1
# ("--points fma.pts:1: --policy: unknown policy").
"$bin" run --kernel fma --format csv --policy bogus --points "$tmp/fma.pts" >/dev/null 2>"$tmp/err"
grep -q "^warpsim: --policy: unknown policy 'bogus'" "$tmp/err" && ok ||
  fail "bad policy: $(head -c 300 "$tmp/err")"
sed '/^\[l2\]/,/^\[/{/^latency=/d}' "$root/models/h200.ini" >"$tmp/notime.ini"
"$bin" run --kernel fma --format csv --model "$tmp/notime.ini" --points "$tmp/fma.pts" >/dev/null 2>"$tmp/err"
grep -q "^warpsim: $tmp/notime.ini: \[l2\] latency: missing" "$tmp/err" && ok ||
  fail "no timing: $(head -c 300 "$tmp/err")"
# A NUL would end the text there: the second point and the bad key after it
# would vanish unread (line 1 holds the NUL).
printf 'launch.blocks_per_sm=2\0launch.foo=1\nlaunch.blocks_per_sm=4\n' >"$tmp/nul.pts"
one_line "NUL byte" "nul.pts:1: a NUL byte" -- run --kernel fma --format csv --points "$tmp/nul.pts"
# A points file past 16 MiB is refused before it is read whole (a 200 MB
# one took 795 MB of memory); one of exactly 16 MiB still reads.
{ echo launch.blocks_per_sm=1; printf '#'; head -c $((16 * 1024 * 1024 - 25)) /dev/zero | tr '\0' x; echo; } >"$tmp/cap.pts"
[ "$(wc -c <"$tmp/cap.pts")" -eq 16777216 ] || fail "cap.pts is not 16 MiB"
"$bin" run --kernel fma --format csv --no-whatif --points "$tmp/cap.pts" >/dev/null 2>&1 && ok ||
  fail "a 16 MiB points file is refused"
echo x >>"$tmp/cap.pts"
one_line "over 16 MiB" "cap.pts: more than 16777216 bytes" -- run --kernel fma --format csv --points "$tmp/cap.pts"
# A warning of the kernel is said once per file, not once per point: the
# details export's 'L2 Hit Rate' above 100 % (store4f4, 3 points; it was
# said 3 times); a point's own warning still comes at each point that
# gives it (blocks_per_sm 40 and 50 above what fits), a line once.
printf '%s\n' 'launch.blocks_per_sm=1 launch.blocks=132' 'launch.blocks_per_sm=2 launch.blocks=264' \
  'launch.blocks_per_sm=1 launch.blocks=264' >"$tmp/warn.pts"
"$bin" run --kernel store4f4_sass --format csv --points "$tmp/warn.pts" >/dev/null 2>"$tmp/err" ||
  fail "store4f4 points: $(head -c 300 "$tmp/err")"
[ "$(grep -c "^warpsim: warning: .*'L2 Hit Rate' is 100.18 %" "$tmp/err")" = 1 ] && ok ||
  fail "the export's warning not once: $(cat "$tmp/err")"
printf '%s\n' launch.blocks_per_sm=40 launch.blocks_per_sm=50 launch.blocks_per_sm=40 >"$tmp/blocks.pts"
"$bin" run --kernel fma --format csv --set stream.iterations=8 --points "$tmp/blocks.pts" >/dev/null 2>"$tmp/err" ||
  fail "fma cap points: $(head -c 300 "$tmp/err")"
[ "$(grep -c 'launch.blocks_per_sm=40 is above' "$tmp/err")" = 1 ] &&
  [ "$(grep -c 'launch.blocks_per_sm=50 is above' "$tmp/err")" = 1 ] &&
  [ "$(wc -l <"$tmp/err")" = 2 ] && ok || fail "the points' own warnings: $(cat "$tmp/err")"
# Every point is checked before the first runs: a bad later point is its
# one error line, not one after the earlier points' warnings (store4f4's
# export warning came first) and simulations.
for bad in 'launch.blocks_per_sm=x' 'launch.threads_per_block=2000' \
  'launch.threads_per_block=1024 launch.regs_per_thread=255'; do
  printf '%s\n' 'launch.blocks_per_sm=1 launch.blocks=132' "$bad" >"$tmp/late.pts"
  one_line "a bad second point: $bad" "late.pts:2: " -- \
    run --kernel store4f4_sass --format csv --points "$tmp/late.pts"
done
# --timeout is one deadline for the whole file, not one per point: each
# point of fma at 4000 iterations takes about 0.1 s in a release build
# (more under the sanitizers: the deadline T is 1 s or 4 times one point's
# wall time, whichever is longer, so one point stays well under it), 40 of
# them about 10 T at least; the file is stopped at T (exit 3, one line
# naming --timeout, nothing on stdout).
pt='launch.blocks_per_sm=4'
t0=$(date +%s%N)
"$bin" run --kernel fma --format csv --set stream.iterations=4000 --set "$pt" >/dev/null 2>&1 ||
  fail "one fma point"
t1=$(date +%s%N)
T=$(awk -v ns=$((t1 - t0)) 'BEGIN { ms = 4 * ns / 1e6; if (ms < 1000) ms = 1000; printf "%.3f", ms / 1000 }')
"$bin" run --kernel fma --format csv --set stream.iterations=4000 --set "$pt" --timeout "$T" \
  >/dev/null 2>&1 && ok || fail "one point is over --timeout $T alone"
for _ in $(seq 40); do echo "$pt"; done >"$tmp/slow.pts"
rc=0
"$bin" run --kernel fma --format csv --set stream.iterations=4000 --timeout "$T" \
  --points "$tmp/slow.pts" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 3 ] || fail "40 points over --timeout $T together: exit $rc (want 3): $(head -c 300 "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "40 points over --timeout $T: wrote to stdout"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "over --timeout [0-9.]* s, all the points together" "$tmp/err" &&
  ok || fail "40 points over --timeout $T: $(head -c 300 "$tmp/err")"
# The deadline starts with the invocation: loading a listing counts.  saxpy
# with 1500 more functions in its listing (about 44 MB, about a second to
# load; no profile, one wave of 132 CTAs: a few ms to simulate) under
# --timeout 0.3 ran to the end, exit 0: the clock started once the listing
# was read.  A single run and a --points file alike.
awk -v n=1500 '{ print } /Function : / { f = 1 } f { body = body $0 "\n" }
  END { for (i = 1; i <= n; i++) { b = body; sub(/_Z7k_saxpyPfPKffiP3RecS_/, "_Z7k_other" i "v", b); printf "%s", b } }' \
  "$root/results/reference/h200/real/sass/saxpy.sass" >"$tmp/big.sass"
printf '%s\n' '[sass]' file=big.sass function=k_saxpy trip_count=4,4 '[launch]' threads_per_block=128 \
  blocks_per_sm=1 blocks=132 regs_per_thread=32 >"$tmp/big.ini"
echo launch.blocks_per_sm=2 >"$tmp/one.pts"
for how in "" "--points $tmp/one.pts"; do
  rc=0
  # shellcheck disable=SC2086
  "$bin" run --kernel "$tmp/big.ini" --format csv --no-whatif --timeout 0.3 $how >"$tmp/out" \
    2>"$tmp/err" || rc=$?
  [ $rc -eq 3 ] && [ ! -s "$tmp/out" ] && grep -q "over --timeout 0.3 s" "$tmp/err" && ok ||
    fail "a slow load under --timeout 0.3 ${how:+(--points)}: exit $rc: $(head -c 300 "$tmp/err")"
done
echo "$passed passed"
