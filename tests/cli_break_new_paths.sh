#!/usr/bin/env bash
# cli_break_new_paths.sh - bad input on what landed on 2026-12-03, each
# refused with one line on stderr, exit 2 and nothing on stdout:
# hand-edited cp.async waits in the real10 cpasync listing (its line 6240,
# "DEPBAR.LE SB0, 0x1"): a count of -1, 8 (past the 8 groups a warp's
# history keeps), past 2^64, hex junk, trailing junk, no count at all, and
# scoreboards SB6 and SB10 (a warp has SB0..SB5).  Each was taken silently
# before: the wait dropped (negative, 8 and up, SB6 and up) or read as 0.
# Kernel and model files whose path is not UTF-8.  A --points file named
# with "..".  Links that lead nowhere given as kernel, model or listing.
# Constant-bank operands whose brackets do not pair up (real11 cdiv).
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?}
. "$root/tests/common.sh"
r10=$root/results/reference/h200/real10
# cp_ini NAME SED: traces/cpasync_sass.ini on a copy of its listing edited by SED.
cp_ini() {
  sed "$2" "$r10/sass/kernels10.sass" >"$tmp/$1.sass"
  sed -e "s|^file=.*|file=$tmp/$1.sass|" -e "s|^source_csv=\.\./|source_csv=$root/|" \
    -e "s|^details_csv=\.\./|details_csv=$root/|" "$root/traces/cpasync_sass.ini" >"$tmp/$1.ini"
}
cp_ini same 's/x/x/'
"$bin" run --kernel "$tmp/same.ini" --format csv --no-whatif >"$tmp/out" 2>"$tmp/err" ||
  fail "the unedited listing: $(cat "$tmp/err")"
ok
want="not 'DEPBAR.LE SBn, k' or 'DEPBAR.LE SBn, k, {a,b}' with barriers 0..5 and k 0..7"
for op in "SB0, -1" "SB0, 0x8" "SB0, 0xffffffffffffffffffff" "SB0, 0xZZ" "SB0, 1q" "SB0" "SB0," \
  "SB6, 0x1" "SB10, 0x1"; do
  cp_ini bad "6240s/SB0, 0x1/$op/"
  one_line "DEPBAR.LE $op" "bad.sass:6240: 'DEPBAR.LE $op': $want" -- \
    run --kernel "$tmp/bad.ini" --format csv --no-whatif
done
cp_ini ge '6240s/DEPBAR.LE SB0, 0x1/DEPBAR.GE SB0, 0x1/'
sed -i '/^source_csv=/d; /^details_csv=/d; /^\[launch\]/i trip_count=4' "$tmp/ge.ini"
one_line "DEPBAR.GE" "ge.sass:6240: 'DEPBAR.GE SB0, 0x1': $want" -- \
  run --kernel "$tmp/ge.ini" --format csv --no-whatif
# A kernel or model file whose path is not UTF-8 ran and wrote its name's raw
# bytes into the JSON results ("kernel" : "k\xff\xfe"), which no JSON reader
# takes; now refused, the path shown with U+FFFD for each bad byte.
cp "$root/traces/fma.ini" "$tmp/k"$'\xff\xfe'".ini"
cp "$root/models/h200.ini" "$tmp/h"$'\xff'".ini"
(cd "$tmp" && one_line "a kernel path not UTF-8" \
  "warpsim: k"$'\xef\xbf\xbd\xef\xbf\xbd'".ini: the file's path is not UTF-8 (the results carry it): rename the file" -- \
  run --kernel "k"$'\xff\xfe'".ini" --format json --no-whatif) || exit 1
ok
one_line "a model path not UTF-8" "/h"$'\xef\xbf\xbd'".ini: the file's path is not UTF-8" -- \
  run --kernel fma --model "$tmp/h"$'\xff'".ini" --format json --no-whatif
# A --points file was named as given ("../t/p.txt") where the kernel file
# beside it is named relative to the working directory, ".." taken out.
: >"$tmp/p.txt"
(cd "$tmp" && one_line "--points ../DIR/FILE" \
  "warpsim: --points p.txt: no point (allowed one or more lines of launch.KEY=VALUE words)" -- \
  run --kernel fma --points "../$(basename "$tmp")/p.txt") || exit 1
ok
# A link that leads nowhere (a loop, or dangling) was "no such file".
ln -s loop_b "$tmp/loop_a" && ln -s loop_a "$tmp/loop_b" && ln -s gone "$tmp/dangling"
nowhere="a symbolic link that leads nowhere (dangling, or a loop of links)"
one_line "--kernel a loop of links" "warpsim: $tmp/loop_a: $nowhere" -- run --kernel "$tmp/loop_a"
one_line "--model a dangling link" "warpsim: $tmp/dangling: $nowhere" -- \
  run --kernel fma --model "$tmp/dangling"
cp_ini looped 's/x/x/'
sed -i "s|^file=.*|file=$tmp/loop_a|" "$tmp/looped.ini"
one_line "[sass] file a loop of links" \
  "looped.ini: [sass] file: $tmp/loop_a: $nowhere (looked for $tmp/loop_a;" -- \
  run --kernel "$tmp/looped.ini" --format csv --no-whatif
# A constant-bank operand whose brackets do not pair up (a hand-edited or
# truncated line of real11's cdiv, kernels11.sass line 2928 'LDC R12,
# c[0x3][R12]') was taken: 'c[0x3][R12' timed as the register-indexed LDC
# ([class_special] indexed_interval), 'c[0x3]R12]' as a uniform one.
r11=$root/results/reference/h200/real11
for op in 'c[0x3][R12' 'c[0x3]R12]' 'c[0x3][[R12]]' 'c[0x3[R12]]' 'c[0x3]][R12]'; do
  sed "2928s/c\[0x3\]\[R12\]/$op/" "$r11/sass/kernels11.sass" >"$tmp/cdiv.sass"
  sed -e "s|^file=.*|file=$tmp/cdiv.sass|" -e "s|^source_csv=\.\./|source_csv=$root/|" \
    -e "s|^details_csv=\.\./|details_csv=$root/|" "$root/traces/cdiv_sass.ini" >"$tmp/cdiv.ini"
  grep -qF "LDC R12, $op ;" "$tmp/cdiv.sass" || fail "the edit of line 2928 to '$op' did not take"
  one_line "LDC R12, $op" "cdiv.sass:2928: brackets that do not pair up in 'LDC R12, $op'" -- \
    run --kernel "$tmp/cdiv.ini" --format csv --no-whatif
done
# A count with a fraction in the source export (real11 cas, the CAS loop's
# head, line 30 (FFMA at 0x...5b0, 423,785 executions), was rounded and taken:
# '423785.5' ran as 423,786, '0.5' as 1.  Nsight Compute writes counts as
# whole numbers (none of the 1,590,208 count cells of the repository's 86
# source exports has a fraction); '423785.0' is still the count 423,785.
cas_csv() { # VALUE: cas_source_b8.csv with the loop head's Instructions Executed set to VALUE
  awk -v v="$1" 'BEGIN { FS = OFS = "\",\"" } NR == 30 { $6 = v } { print }' \
    "$r11/ncu/cas_source_b8.csv" >"$tmp/cas.csv"
  sed -e "s|^file=\.\./|file=$root/|" -e "s|^source_csv=.*|source_csv=$tmp/cas.csv|" \
    -e "s|^details_csv=\.\./|details_csv=$root/|" "$root/traces/cas_sass.ini" >"$tmp/cas.ini"
}
cas_csv 423785.0
"$bin" run --kernel "$tmp/cas.ini" --format csv --no-whatif >"$tmp/out" 2>"$tmp/err" ||
  fail "a count written 423785.0: $(cat "$tmp/err")"
ok
for v in 423785.5 0.5 1e-3; do
  cas_csv "$v"
  one_line "a count of $v" "cas.csv:30: column 'Instructions Executed': not a count '$v'" -- \
    run --kernel "$tmp/cas.ini" --format csv --no-whatif
done
# The loop head counted 9007199254740992 times (the largest count taken):
# the CAS loop's split-loop rule (sassflow split_loops) makes a warp run it
# about 2e12 times, and the check that one warp's walk of the counts
# reaches EXIT walked all 8.5e12 steps of its budget before the run began,
# --timeout and --max-cycles unheeded (no end within 60 s).  The walk
# stops at 2^28 steps now, and the run is over --max-cycles at once.
cas_csv 9007199254740992
start=$(date +%s)
rc=0
timeout 120 "$bin" run --kernel "$tmp/cas.ini" --format csv --no-whatif --max-cycles 1000000 \
  >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 3 ] || fail "a loop head counted 2^53: exit $rc (want 3, over --max-cycles): $(head -c 300 "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "a loop head counted 2^53: wrote to stdout"
grep -qF "over --max-cycles 1000000 cycles" "$tmp/err" || fail "a loop head counted 2^53: $(cat "$tmp/err")"
[ $(($(date +%s) - start)) -lt 30 ] || fail "a loop head counted 2^53: took $(($(date +%s) - start)) s"
ok
# [class_shuffle] opcode_timing names with an empty modifier ('MATCH.',
# 'MATCH..ANY', '.MATCH') or a blank inside were taken, named no
# instruction and left real11 vote's MATCH.ANY at the class's own timing
# (70,977 cycles at 8 CTAs per SM, as for the unused 'MATCH.ALL').
for v in 'MATCH.:3:3' 'MATCH..ANY:3:3' 'MATCH.ANY.:3:3' '.MATCH:3:3' 'MATCH .ANY:3:3'; do
  one_line "opcode_timing $v" "[class_shuffle] opcode_timing: item 1 '$v' is not OPCODE[.MOD]:LATENCY:INTERVAL" -- \
    run --kernel fma --set "class_shuffle.opcode_timing=$v" --no-whatif
done
# 20,000 forward branches in 60,002 instructions (no profile): working out
# what each branch takes scanned the whole listing per branch and per pass
# (sassflow inflow), 34 s before the run began with --timeout unheeded; the
# branches to each instruction are listed once now (4 s, the rest elsewhere).
awk -v n=20000 'function ins(t, c) {
    printf "        /*%04x*/                   %s ;   /* 0x0000000000000000 */\n", off, t
    printf "                                                       /* %s */\n", c
    off += 16 }
  BEGIN { print "\tcode for sm_90\n\t\tFunction : _Z6k_manyv"
    ins("S2R R0, SR_TID.X", "0x000e220000002100")
    for (i = 0; i < n; i++) {
      ins("ISETP.GE.AND P0, PT, R0, 0x10, PT", "0x000fda0003f06270")
      ins(sprintf("@P0 BRA 0x%x", off + 32), "0x000fea0003800000")
      ins("IADD3 R0, R0, 0x1, RZ", "0x000fe20000000000") }
    ins("EXIT", "0x000fea0003800000")
    ins(sprintf("BRA 0x%x", off), "0x000fc0000383ffff") }' >"$tmp/many.sass"
printf '[sass]\nfile=%s\nfunction=k_many(\n[launch]\nthreads_per_block=128\nblocks=132\n' \
  "$tmp/many.sass" >"$tmp/many.ini"
start=$(date +%s)
rc=0
timeout 120 "$bin" run --kernel "$tmp/many.ini" --format csv --no-whatif --max-cycles 1 \
  >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 3 ] || fail "20,000 branches: exit $rc (want 3, over --max-cycles): $(head -c 300 "$tmp/err")"
# (the time under ASan is no measure: 52 s there with the fix)
grep -qa __asan_init "$bin" || [ $(($(date +%s) - start)) -lt 25 ] ||
  fail "20,000 branches: took $(($(date +%s) - start)) s"
ok
echo "$passed passed"
