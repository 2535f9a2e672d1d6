#!/usr/bin/env bash
# cli_rough_edges.sh - what a new user tripped over (issue 26), each fixed:
# diff --units; the man page's exit statuses; typo suggestions (--kernel fam,
# --model h2000, 'run fma', an axis range 1-16); a missing [sass] file names
# the kernel file and key; launch.blocks_per_sm above the launch's limit
# warns with the allowed range; --format xml names the value; a finished
# sweep resumed says it starts over; the textbook models' names (old names
# still load, with a note); the Jetson models (cc 5.3, 6.2, 7.2);
# --smem-per-thread in the block-size search; --cooperative; the long-run
# note names the bound that ends the run.  Every expected number is worked
# out by hand in the comment beside it.  Needs WARPSIM_BIN and WARPSIM_ROOT.
set -u
bin=${WARPSIM_BIN:?}
root=${WARPSIM_ROOT:?}
. "$root/tests/common.sh"
# refused NAME PATTERN CMD...: CMD exits 2, one stderr line matching PATTERN, no stdout.
refused() {
  local name=$1 pat=$2 rc=0
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc, expected 2: $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "$name: wrote to stdout"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$name: stderr is not one line: $(cat "$tmp/err")"
  grep -q -- "$pat" "$tmp/err" || fail "$name: '$pat' not in: $(cat "$tmp/err")"
  ok
}
run() { "$bin" run --set stream.iterations=8 --no-whatif "$@"; }

# ---- diff --units ----
run --kernel chase --format json >"$tmp/sm.json" || fail "run sm"
run --kernel chase --set launch.blocks_per_sm=8 --units device --format json >"$tmp/dev8.json"
run --kernel chase --units device --format json >"$tmp/dev16.json"
refused "diff sm vs device" "pass --units sm" "$bin" diff "$tmp/sm.json" "$tmp/dev8.json"
refused "diff --units device, one per SM" "sm.json has no device rates" \
  "$bin" diff --units device "$tmp/sm.json" "$tmp/dev8.json"
refused "diff --units xml" "'xml' (allowed sm, device)" "$bin" diff --units xml "$tmp/sm.json" "$tmp/dev8.json"
"$bin" diff --units device --format csv "$tmp/dev16.json" "$tmp/dev8.json" >"$tmp/d.csv" ||
  fail "diff --units device"
grep -q '^Device (every SM as the simulated one),device_gb_per_s,' "$tmp/d.csv" ||
  fail "diff --units device: no device_gb_per_s line: $(head -3 "$tmp/d.csv")"
"$bin" diff --units sm --format csv "$tmp/sm.json" "$tmp/dev8.json" >"$tmp/d.csv" || fail "diff --units sm"
! grep -q 'device_' "$tmp/d.csv" || fail "diff --units sm lists device columns"
grep -q ',blocks_per_sm,16,8,' "$tmp/d.csv" || fail "diff --units sm: blocks_per_sm 16 -> 8 missing"
ok

# ---- the man page lists every exit status of cli.h ----
codes=$(sed -n 's/^ *CLI_EXIT_[A-Z]* = \([0-9]\),.*/\1/p' "$root/sim/cli/cli.h")
[ "$(echo "$codes" | wc -w)" -eq 4 ] || fail "cli.h exit codes: $codes"
for c in $codes; do
  sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$root/doc/warpsim.1" | grep -qx "\.B $c" ||
    fail "doc/warpsim.1: exit status $c not listed"
done
ok

# ---- suggestions ----
refused "--kernel fam" "did you mean --kernel fma?" run --kernel fam
refused "--model h2000" "did you mean --model h200?" run --kernel fma --model h2000
refused "--kernel zzzzz" "no such kernel file" run --kernel zzzzz
! grep -q "did you mean" "$tmp/err" || fail "--kernel zzzzz: a suggestion for nothing alike"
refused "run fma" "did you mean 'warpsim run --kernel fma'" "$bin" run fma
refused "--format xml" "--format xml: must be text, csv or json" run --kernel fma --format xml
refused "--axis 1-16" "a range is written 1..16" \
  "$root/scripts/sweep.sh" -o "$tmp/s.csv" --kernel fma --axis launch.blocks_per_sm=1-16

# ---- a missing [sass] file names the kernel file and the key ----
mkdir "$tmp/k"
sed 's|^file=.*|file=nothere.sass|' "$root/traces/saxpy_sass.ini" >"$tmp/k/saxpy.ini"
refused "[sass] file missing" "$tmp/k/saxpy.ini: \[sass\] file: nothere.sass: no such file (looked for $tmp/k/nothere.sass" \
  "$bin" run --kernel "$tmp/k/saxpy.ini"

# ---- launch.blocks_per_sm above what fits: a warning with the range ----
# fma: 128 threads (4 warps), 32 registers: 64 warps / 4 = 16 CTAs, 65536 /
# (4 x 1024) = 16 CTAs, so 17 runs 16.
run --kernel fma --set launch.blocks_per_sm=17 --format csv >"$tmp/r.csv" 2>"$tmp/err" || fail "blocks 17"
grep -q "launch.blocks_per_sm=17 is above the 16 CTAs/SM this launch allows (limited by warps, registers; allowed 1..16" "$tmp/err" ||
  fail "blocks 17: $(cat "$tmp/err")"
[ "$(col blocks_per_sm <"$tmp/r.csv")" = 16 ] || fail "blocks 17 did not run 16"
run --kernel fma --set launch.blocks_per_sm=16 --format csv >/dev/null 2>"$tmp/err"
[ ! -s "$tmp/err" ] || fail "blocks 16 warns: $(cat "$tmp/err")"
ok

# ---- a finished sweep resumed says so ----
cp "$root/traces/fma.ini" "$tmp/k/fma.ini"
sw() { "$root/scripts/sweep.sh" -o "$tmp/sw.csv" --kernel "$tmp/k/fma.ini" --set stream.iterations=8 \
  --axis launch.blocks_per_sm=1,2 --quiet "$@"; }
sw 2>"$tmp/err" || fail "sweep: $(cat "$tmp/err")"
sed -i 's/^iterations=.*/iterations=16/' "$tmp/k/fma.ini"
sw --resume 2>"$tmp/err" || fail "sweep --resume: $(cat "$tmp/err")"
grep -q "is a finished sweep .*running all 2 points again" "$tmp/err" || fail "resume of a finished sweep: '$(cat "$tmp/err")'"
ok

# ---- the textbook models ----
"$bin" models --csv | cut -d, -f1 >"$tmp/models"
grep -qx textbook100k "$tmp/models" && grep -qx textbook64k "$tmp/models" || fail "textbook models not listed"
! grep -q seed "$tmp/models" || fail "seed models still listed"
# `models` takes --format as every other command does (--csv kept); an
# unknown format is one line, exit 2.
cmp -s <("$bin" models --csv) <("$bin" models --format csv) || fail "models --format csv differs from --csv"
[ "$("$bin" models --format csv | head -1)" = "name,cc,timing,file,sass" ] || fail "models --format csv header"
rc=0; "$bin" models --format xml >/dev/null 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "allowed text, csv" "$tmp/err" ||
  fail "models --format xml: rc $rc, '$(cat "$tmp/err")'"
# 256 threads x 32 regs on 100 KB / 64 K registers, no granularity: 8 blocks (registers and warps).
"$bin" occupancy --model seed000 --threads 256 --regs 32 --format csv >"$tmp/o.csv" 2>"$tmp/err" ||
  fail "seed000 alias"
grep -q "seed000 is now called textbook100k" "$tmp/err" || fail "no deprecation note: $(cat "$tmp/err")"
[ "$(col model <"$tmp/o.csv")" = textbook100k ] && [ "$(col blocks_per_sm <"$tmp/o.csv")" = 8 ] ||
  fail "seed000: $(cat "$tmp/o.csv")"
ok

# ---- Jetson models: 32 K registers per block on cc 5.3 and 6.2 ----
# 1024 threads x 33 registers: 33 x 32 = 1056 -> 1280 per warp (unit 256) x 32
# warps = 40960 > 32768, so no block launches on 5.3 / 6.2; cc 5.2 and 7.2
# (64 K per block) take 1 (65536 / 40960).  32 registers: 1024 x 32 = 32768,
# 2 blocks of 32 warps = 64 warps, 100 %.
for cc_blocks in 5.2:1 5.3:0 6.2:0 7.2:1; do
  cc=${cc_blocks%:*} want=${cc_blocks#*:}
  got=$("$bin" occupancy --model "$cc" --threads 1024 --regs 33 --format csv | col blocks_per_sm)
  [ "$got" = "$want" ] || fail "cc $cc, 1024 x 33: $got blocks, expected $want"
done
for cc in 5.3 6.2 7.2; do
  got=$("$bin" occupancy --model "$cc" --threads 1024 --regs 32 --format csv | col occupancy_pct)
  [ "$got" = 100.000 ] || fail "cc $cc, 1024 x 32: $got %"
  refused "run on cc $cc" "occupancy limits only" run --kernel fma --model "$cc"
done
ok

# ---- --smem-per-thread: cudaOccupancyMaxPotentialBlockSizeVariableSMem ----
# cc 9.0, 32 regs, 128 B per thread: 352 threads = 11 warps, 45056 B + 1 KB
# reserve = 46080 B per block, 233472 / 46080 = 5 blocks (registers 65536 /
# 11264 = 5, warps 64 / 11 = 5): 55 warps, 85.938 %.  384 threads would need
# 49152 + 1024 B: 4 blocks, 48 warps; 1024 threads exceed 48 KB per block.
"$bin" occupancy --model 9.0 --regs 32 --smem-per-thread 128 --best-block-size --format csv >"$tmp/o.csv" ||
  fail "smem-per-thread"
[ "$(col best_block_size <"$tmp/o.csv")" = 352 ] && [ "$(col occupancy_pct <"$tmp/o.csv")" = 85.938 ] &&
  [ "$(col smem_dynamic <"$tmp/o.csv")" = 45056 ] || fail "smem-per-thread: $(cat "$tmp/o.csv")"
# A single launch: 384 x 100 B = 38400 B dynamic.
[ "$("$bin" occupancy --model 9.0 --threads 384 --regs 32 --smem-per-thread 100 --format csv | col smem_dynamic)" = 38400 ] ||
  fail "smem-per-thread, single launch"
refused "smem-per-thread with --vary" "single launch or --best-block-size" \
  "$bin" occupancy --model 9.0 --threads 384 --regs 32 --smem-per-thread 100 --vary regs
ok

# ---- --cooperative: a 76-SM cc 8.9 (RTX 4080) ----
# 384 threads = 12 warps, 48 warps per SM: 4 blocks per SM x 76 SMs = 304.
sed 's/^sms=.*/sms=76/' "$root/models/rtx4090.ini" >"$tmp/rtx4080.ini"
coop() { "$bin" occupancy --model "$tmp/rtx4080.ini" --threads 384 --regs 32 --cooperative "$@"; }
refused "cooperative 328" "a grid of 328 blocks cannot be co-resident: 4 blocks per SM x 76 SMs = 304" coop --grid 328
coop --grid 304 | grep -q "Cooperative launch: fits, the grid's 304 blocks are co-resident" || fail "cooperative 304"
[ "$(coop --grid 304 --format csv | col co_resident_blocks)" = 304 ] || fail "co_resident_blocks column"
refused "cooperative without --grid" "needs --grid" coop
# No block fits at all: no grid launches (the range said "allowed --grid 1..0").
refused "cooperative, no block fits" "a grid of 1 blocks cannot launch: no block fits on an SM (shared memory" \
  coop --grid 1 --smem-dynamic 999999999
! grep -q "1\.\.0" "$tmp/err" || fail "cooperative, no block fits: $(cat "$tmp/err")"
ok

# ---- the long-run note names the bound that ends the run ----
# fma, 1e9 CTAs: about 2.6e11 warp instructions, at least 6.4e10 cycles at 4
# per cycle, over --max-cycles 1000000; that bound is reached first.
rc=0
run --kernel fma --set launch.blocks=1000000000 --max-cycles 1000000 >/dev/null 2>"$tmp/err" || rc=$?
[ $rc -eq 3 ] || fail "long run: exit $rc"
grep -q "note: .*--max-cycles 1000000 stops it first" "$tmp/err" || fail "long run: $(cat "$tmp/err")"
! grep -q "timeout stops it" "$tmp/err" || fail "long run names --timeout"
rc=0
# 2 s, not less: on a loaded host under ASan the model and kernel took over
# 0.05 s to load, and the bound ended the run before its note said it.
run --kernel fma --set launch.blocks=1000000000 --max-cycles 0 --timeout 2 >/dev/null 2>"$tmp/err" || rc=$?
[ $rc -eq 3 ] && grep -q "note: .*--timeout stops it after 2 s" "$tmp/err" || fail "long run, timeout: $(cat "$tmp/err")"
ok
echo "$passed passed, 0 failed"
