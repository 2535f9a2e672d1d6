#!/usr/bin/env bash
# cli_sweep_points.sh - `warpsim sweep-points`: the grid in order (first axis
# outermost, --set settings first, an axis replacing a --set of its key with
# a warning, a tied axis setting two keys, ranges, a repeated point dropped
# with a warning); --signature's grid hash is the printed lines' and its
# configuration hash that of `warpsim run --config-comments`; bad input (a
# key, a value, an empty or reversed range, too many points, a value warpsim
# refuses, a missing --kernel or --axis) exits 2 with one line on stderr and
# nothing on stdout.  Needs WARPSIM_BIN (CTest sets it).
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
echo "$passed passed"
