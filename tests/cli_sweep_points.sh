#!/usr/bin/env bash
# cli_sweep_points.sh - `warpsim sweep-points`: the grid in order (first axis
# outermost, --set settings first, an axis replacing a --set of its key with
# a warning, a tied axis setting two keys, ranges, a repeated point dropped
# with a warning); --signature's grid hash is the printed lines' and its
# configuration hash that of `warpsim run --config-comments`; bad input (a
# key, a value, an empty or reversed range, too many points, a value warpsim
# refuses, a missing --kernel or --axis) exits 2 with one line on stderr and
# nothing on stdout.  --derive: the derived keys last, computed at every
# point by whole-number arithmetic (grids worked by hand below), refused
# when it names an unknown key, gives no whole number >= 0 or a value
# warpsim refuses; values that cannot change the result are named in
# warnings, each once.  Needs WARPSIM_BIN (CTest sets it).
set -u
bin=${WARPSIM_BIN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*" >&2; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }
T=$'\t'

got=$("$bin" sweep-points --kernel chase --set stream.level=dram \
  --axis stream.ilp,stream.loads=1,2 --axis launch.blocks_per_sm=3..4 2>"$tmp/err") ||
  fail "grid: $(cat "$tmp/err")"
want="stream.level=dram${T}stream.ilp=1${T}stream.loads=1${T}launch.blocks_per_sm=3
stream.level=dram${T}stream.ilp=1${T}stream.loads=1${T}launch.blocks_per_sm=4
stream.level=dram${T}stream.ilp=2${T}stream.loads=2${T}launch.blocks_per_sm=3
stream.level=dram${T}stream.ilp=2${T}stream.loads=2${T}launch.blocks_per_sm=4"
[ "$got" = "$want" ] || fail "grid: got
$got"
[ ! -s "$tmp/err" ] || fail "grid wrote to stderr: $(cat "$tmp/err")"
ok

# The axis's value replaces the --set's, in the --set's place; 2,2 repeats.
got=$("$bin" sweep-points --kernel chase --set stream.ilp=4 --set stream.level=l2 \
  --axis stream.ilp=1,2,2 2>"$tmp/err")
[ "$got" = "stream.ilp=1${T}stream.level=l2
stream.ilp=2${T}stream.level=l2" ] || fail "override: $got"
grep -q "warning: stream.ilp is set by --set and by --axis 'stream.ilp=1,2,2'" "$tmp/err" &&
  grep -q "warning: dropped 1 grid point(s) that repeat an earlier one" "$tmp/err" ||
  fail "warnings: $(cat "$tmp/err")"
ok

"$bin" sweep-points --kernel chase --axis stream.ilp=1,2 --signature "$tmp/sig" >"$tmp/grid" ||
  fail "--signature"
grid=$(sha256sum <"$tmp/grid" | cut -d' ' -f1)
grep -qx "grid sha256: $grid (2 points)" "$tmp/sig" || fail "grid hash: $(cat "$tmp/sig")"
conf=$("$bin" run --kernel chase --set stream.ilp=1 --format csv --no-whatif --config-comments |
  grep '^#' | sha256sum | cut -d' ' -f1)
grep -qx "effective configuration sha256: $conf" "$tmp/sig" || fail "config hash: $(cat "$tmp/sig")"
[ "$(wc -l <"$tmp/sig")" -eq 8 ] || fail "signature lines: $(cat "$tmp/sig")"
ok

# A point whose [sass] keys name another listing: its listing and exports
# are hashed in too (the signature hashed point 1's files alone, so --resume
# did not notice an edit of point 2's listing).  Worked here with sha256sum:
# each point's files are one "HASH  -" line each (listing, source, details),
# hashed; point 2's hash is appended to point 1's as one more line.
root=${WARPSIM_ROOT:?}
r=$root/results/reference/h200/real
cp "$r/sass/saxpy.sass" "$tmp/a.sass"
cp "$r/sass/saxpy.sass" "$tmp/b.sass"
echo "// edited" >>"$tmp/b.sass"
files_hash() {
  for f in "$1" "$r/ncu/saxpy_source_b8.csv" "$r/ncu/details_full_b8.csv"; do
    echo "$(sha256sum <"$f" | cut -d' ' -f1)  -"
  done | sha256sum | cut -d' ' -f1
}
ha=$(files_hash "$tmp/a.sass") hb=$(files_hash "$tmp/b.sass")
want=$(printf '%s  -\n%s\n' "$ha" "$hb" | sha256sum | cut -d' ' -f1)
"$bin" sweep-points --kernel "$root/traces/saxpy_sass.ini" --axis "sass.file=$tmp/a.sass,$tmp/b.sass" \
  --signature "$tmp/sig2" >/dev/null 2>"$tmp/err" || fail "--signature, two listings: $(cat "$tmp/err")"
grep -qx "kernel's SASS listing and profiles sha256: $want" "$tmp/sig2" ||
  fail "two listings: $(grep listing "$tmp/sig2"), want $want"
# One listing for every point: point 1's files alone, as before.
"$bin" sweep-points --kernel "$root/traces/saxpy_sass.ini" --axis "sass.file=$tmp/a.sass,$tmp/a.sass" \
  --signature "$tmp/sig3" >/dev/null 2>&1 || fail "--signature, one listing"
grep -qx "kernel's SASS listing and profiles sha256: $ha" "$tmp/sig3" ||
  fail "one listing: $(grep listing "$tmp/sig3"), want $ha"
ok

# --derive: 32 FFMAs per chain; the derived key after the axes' keys.
got=$("$bin" sweep-points --kernel fma --set stream.iterations=4 --axis stream.ilp=1..3 \
  --derive 'stream.fma=32*stream.ilp' --axis launch.blocks_per_sm=1,2 2>"$tmp/err") ||
  fail "derive: $(cat "$tmp/err")"
P="stream.iterations=4${T}stream.ilp="
[ "$got" = "${P}1${T}launch.blocks_per_sm=1${T}stream.fma=32
${P}1${T}launch.blocks_per_sm=2${T}stream.fma=32
${P}2${T}launch.blocks_per_sm=1${T}stream.fma=64
${P}2${T}launch.blocks_per_sm=2${T}stream.fma=64
${P}3${T}launch.blocks_per_sm=1${T}stream.fma=96
${P}3${T}launch.blocks_per_sm=2${T}stream.fma=96" ] || fail "derive: got
$got"
[ ! -s "$tmp/err" ] || fail "derive warned: $(cat "$tmp/err")"
ok
# A chain: sfu = (7 B + 1) / 3, truncated (B = 1: 8 / 3 = 2; B = 3: 22 / 3
# = 7), a unary minus, and fma = 8 sfu + 010 (ten: base 10, not octal).
got=$("$bin" sweep-points --kernel fma --set stream.ilp=2 --axis launch.blocks_per_sm=1,3 \
  --derive 'stream.sfu=(launch.blocks_per_sm*7 - -1)/3' --derive 'stream.fma=stream.sfu*8+010' \
  2>"$tmp/err") || fail "derive chain: $(cat "$tmp/err")"
[ "$got" = "stream.ilp=2${T}launch.blocks_per_sm=1${T}stream.sfu=2${T}stream.fma=26
stream.ilp=2${T}launch.blocks_per_sm=3${T}stream.sfu=7${T}stream.fma=66" ] ||
  fail "derive chain: got
$got"
ok
# 2^53 / 2^37 = 65536, the largest stream.fma; 2^53 + 1 is past the limit.
got=$("$bin" sweep-points --kernel fma --axis stream.ilp=1 \
  --derive 'stream.fma=9007199254740992/137438953472' 2>"$tmp/err") || fail "2^53: $(cat "$tmp/err")"
[ "$got" = "stream.ilp=1${T}stream.fma=65536" ] || fail "2^53: $got"
ok

# Warnings, each once: a --set above the 16 CTAs of 128 threads that fit
# (64 warps / 4) at point 1, not again at either axis value; stream.ilp
# swept with stream.fma fixed at the kernel's 128.
"$bin" sweep-points --kernel fma --set launch.blocks_per_sm=20 --axis stream.ilp=1,2 \
  >"$tmp/out" 2>"$tmp/err" || fail "warnings: $(cat "$tmp/err")"
cat >"$tmp/want" <<EOF
warpsim: warning: point 1 (launch.blocks_per_sm=20 stream.ilp=1): launch.blocks_per_sm=20 is above the 16 CTAs/SM this launch allows (limited by warps, registers; allowed 1..16, or 0 = as many as fit): running 16
warpsim: warning: stream.ilp varies (--axis 'stream.ilp=1,2') while stream.fma stays 128: every ILP splits the same 128 FFMAs into shorter chains; to keep 32 per chain, as the fma kernel's measurement did, add --derive 'stream.fma=32*stream.ilp'
EOF
diff "$tmp/want" "$tmp/err" >&2 || fail "warnings differ"
[ "$(wc -l <"$tmp/out")" -eq 2 ] || fail "warnings: grid $(cat "$tmp/out")"
ok
# An axis value past the FFMAs its chains share (fma 4: ILP 8 is idle),
# said for that value only; a derived fma is no untied ILP.
"$bin" sweep-points --kernel fma --set stream.fma=4 --axis stream.ilp=1,8 >/dev/null 2>"$tmp/err" ||
  fail "idle ilp: $(cat "$tmp/err")"
[ "$(cat "$tmp/err")" = "warpsim: warning: --axis 'stream.ilp=1,8': value 8: stream.ilp=8 is above the most instructions it spreads per iteration (stream.fma=4, sfu=0, lds=0): chains past 4 are empty, so ILP above 4 changes nothing" ] ||
  fail "idle ilp: $(cat "$tmp/err")"
"$bin" sweep-points --kernel fma --axis stream.ilp=1,2 --derive 'stream.fma=32*stream.ilp' \
  >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] || fail "tied ilp warns: $(cat "$tmp/err")"
ok

. "$(dirname "${BASH_SOURCE[0]}")/refused_cmd.sh"
bad() { local want=$1; shift; refused "$want" sweep-points "$@"; }
bad "--kernel is required" --axis stream.ilp=1
bad "at least one --axis" --kernel chase
bad "'ilp' is not a group.key name" --kernel chase --axis ilp=1
bad "value 'a b'" --kernel chase --set 'stream.level=a b' --axis stream.ilp=1
bad "empty value after the last ','" --kernel chase --axis stream.ilp=1,2,
bad "empty range 4..2" --kernel chase --axis stream.ilp=4..2
bad "the grid has over 100000 points" --kernel chase --axis launch.blocks_per_sm=1..1000 \
  --axis stream.ilp=1..200
bad "--axis 'stream.ilp=1..99': value '99': " --kernel chase --axis stream.ilp=1..99
bad "stream.ilp is already set" --kernel chase --set stream.ilp=1 --set stream.ilp=2 \
  --axis launch.blocks_per_sm=1
# An unwritable --signature names the option and the file, not the
# temporary file written first ("Failed to create file 'sig.X3L6Y3'").
bad "--signature '$tmp/nodir/sig': cannot write it (no such folder" --kernel chase --axis stream.ilp=1 \
  --signature "$tmp/nodir/sig"
bad "--signature '$tmp': cannot write it (it is a folder" --kernel chase --axis stream.ilp=1 --signature "$tmp"
# A FIFO or a device at the path is no file to write: g_file_set_contents
# renamed a regular file over it (a device node /dev/full, as root, was gone).
mkfifo "$tmp/sig.fifo"
bad "--signature '$tmp/sig.fifo': cannot write it (not a regular file" --kernel chase \
  --axis stream.ilp=1 --signature "$tmp/sig.fifo"
[ -p "$tmp/sig.fifo" ] && ok || fail "the FIFO at --signature was replaced"
# Nor is an input the signature hashes: --signature naming the kernel file
# wrote the signature over it (exit 0; the kernel no longer loaded).
root=$(cd "$(dirname "$0")/.." && pwd)
cp "$root/traces/chase.ini" "$tmp/in.ini"
bad "--signature '$tmp/in.ini': cannot write it (it is the sweep's input" --kernel "$tmp/in.ini" \
  --axis stream.ilp=1 --signature "$tmp/in.ini"
cmp -s "$root/traces/chase.ini" "$tmp/in.ini" && ok || fail "the kernel file at --signature was replaced"
# A range is checked at its second value too: scattered_dram_bytes is 0
# (off) or at least a sector, so 0..64 holds 1..31, which run refuses (its
# two ends 0 and 64 passed, and sweep-points printed the grid, exit 0).
bad "--axis 'class_global.scattered_dram_bytes=0..64': value '1': " --kernel chase \
  --axis class_global.scattered_dram_bytes=0..64
"$bin" sweep-points --kernel chase --axis class_global.scattered_dram_bytes=0,32..64 >/dev/null 2>&1 &&
  ok || fail "0,32..64 refused"
bad "'1-16' is not a value; a range is written 1..16" --kernel chase --axis launch.blocks_per_sm=1-16
# --derive: what it names, what it computes, what warpsim says of the value
D=(--kernel fma --axis stream.ilp=1,2)
bad "--derive 'stream.fma': expected group.key=EXPRESSION" "${D[@]}" --derive stream.fma
bad "stream.xx is given by no --axis, --set or earlier --derive" "${D[@]}" --derive 'stream.fma=stream.xx'
bad "stream.sfu is given by no" "${D[@]}" --derive 'stream.fma=stream.sfu' --derive 'stream.sfu=1'
bad "the expression holds a character other than" "${D[@]}" --derive 'stream.fma=$(id)'
bad "stream.ilp is also on --axis 'stream.ilp=1,2'" "${D[@]}" --derive 'stream.ilp=2'
bad "stream.fma is also set by --set 'stream.fma=64'" "${D[@]}" --set stream.fma=64 --derive 'stream.fma=1'
bad "stream.fma is derived twice" "${D[@]}" --derive 'stream.fma=1' --derive 'stream.fma=2'
bad "stream.level is 'l1' at a point (allowed: whole numbers)" --kernel fma --axis stream.level=l1 \
  --derive 'stream.fma=stream.level'
for e in 'stream.ilp/0:(1)/0' '1-2*stream.ilp:1-2*(1)' 'stream.ilp**2:(1)**2' '3stream.ilp:3(1)' \
  '(stream.ilp:((1)' '9007199254740993/137438953472:9007199254740993/137438953472' \
  '4294967296*4294967296*stream.ilp:4294967296*4294967296*(1)'; do
  bad "'${e#*:}' does not give a whole number >= 0 (allowed: + - * / and parentheses over whole numbers, no step past +-9007199254740992)" \
    "${D[@]}" --derive "stream.fma=${e%%:*}"
done
# 70000 / (i^2 - 4i + 5) is 35000, 70000, 35000: out of range between the ends.
bad "--derive 'stream.fma=70000/(stream.ilp*stream.ilp-4*stream.ilp+5)': value 70000 at point (stream.ilp=2 stream.fma=70000): " \
  --kernel fma --axis stream.ilp=1..3 --derive 'stream.fma=70000/(stream.ilp*stream.ilp-4*stream.ilp+5)'
grep -qF "out of range '70000' (allowed 0..65536" "$tmp/err" || fail "no allowed range: $(cat "$tmp/err")"
bad "warpsim rejected the sweep's settings: " --kernel fma --axis stream.ilp=1,2 --derive 'stream.fma=1000000*stream.ilp'
# Two axes whose values are each fine with the first point's but not
# together: every value was checked alone, the grid printed (exit 0), and
# scripts/sweep.sh stopped at the pair after running the points before it
# ("3 of 4 points done; fix the cause and rerun with --resume", a --resume
# that refuses the fixed grid).  Each pair of two axes' checked values is
# checked now: 60000 B of dynamic shared memory needs the opt-in (fma:
# 61056 B allocated, 49152 B without it); store_none_bytes 50000000 below
# store_full_bytes 60000000; 60 warps over 8 SMSPs.
bad "--axis launch.optin with --axis launch.smem_dynamic: values 'false' and '60000' together: " \
  --kernel fma --axis launch.optin=true,false --axis launch.smem_dynamic=0,60000
grep -qF "fma.ini: [launch]: cannot launch on h200: shared memory" "$tmp/err" || fail "the pair's reason: $(cat "$tmp/err")"
bad "values '60000000' and '50000000' together: $root/models/h200.ini, --set: [l2] store_none_bytes: 50000000 is below store_full_bytes 60000000" \
  --kernel gstore_sass --axis l2.store_full_bytes=1000,60000000 --axis l2.store_none_bytes=0,50000000
bad "--axis sm.max_warps with --axis sm.smsps: values '60' and '8' together: " \
  --kernel fma --axis sm.max_warps=64,60,48 --axis sm.smsps=4,8
# (a range by its ends: 49152 B fits without the opt-in, 49153..49200 do not)
bad "values 'false' and '49200' together" --kernel fma --axis launch.optin=true,false \
  --axis launch.smem_dynamic=49000..49200
# Past 256 pairs each axis pairs its smallest, largest and last value: 301
# sizes 0, 200, .., 60000 against optin false (300 pairs) still meet
# 60000 (a check is a load and a one-cycle run: 1485 pairs of two lists of
# 100 and 16 took 5 s of CPU, where the grid's own checks take 0.3 s).
bad "values 'false' and '60000' together" --kernel fma --axis launch.optin=true,false \
  --axis "launch.smem_dynamic=$(seq -s, 0 200 60000)"
# Pairs that are fine run as before: 48 warps over 4 or 8 SMSPs, 60 over 4.
"$bin" sweep-points --kernel fma --axis sm.max_warps=64,48 --axis sm.smsps=4,8 >"$tmp/pairs" 2>"$tmp/err" &&
  [ "$(wc -l <"$tmp/pairs")" = 4 ] || fail "a grid of fine pairs: $(cat "$tmp/err")"
ok
echo "$passed passed"
