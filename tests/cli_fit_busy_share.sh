#!/usr/bin/env bash
# cli_fit_busy_share.sh - scripts/fit_busy_share.sh refuses what it cannot
# fit (exit 2, one line on stderr naming the file, nothing on stdout): an
# empty or header-only file, a directory, a file without a column it reads
# or without the B = 16 rows at n = 1, 16, 66, 132, a value that is no
# positive number, two arguments, an unknown option.  It printed -nan and
# inf with exit 0 for these.  The shipped measurement still fits as
# models/h200.ini says (dram 1.953 / 2.40, l2 2.375 / 3.60).  Needs
# WARPSIM_ROOT (CTest sets it).
set -u
root=${WARPSIM_ROOT:?}
. "$root/tests/common.sh"
s=$root/scripts/fit_busy_share.sh
active=$root/results/reference/h200/smallgrid/active.csv

"$s" >"$tmp/out" 2>"$tmp/err" || fail "shipped: exit $?: $(cat "$tmp/err")"
grep -qx "# dram: lone_sm_ratio=1.953 busy_exponent=2.40" "$tmp/out" &&
  grep -qx "# l2: lone_sm_ratio=2.375 busy_exponent=3.60" "$tmp/out" || fail "shipped: $(grep '^#' "$tmp/out")"
ok

# refused NAME NEEDLE ARGS...
refused() {
  local name=$1 needle=$2 rc=0
  shift 2
  "$s" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc (want 2): $(cat "$tmp/err")"
  [ "$(wc -l <"$tmp/err")" = 1 ] || fail "$name: not one line: $(cat "$tmp/err")"
  grep -qF -- "$needle" "$tmp/err" || fail "$name: '$needle' not in: $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "$name: printed $(head -3 "$tmp/out")"
  ok
}
: >"$tmp/empty.csv"
head -1 "$active" >"$tmp/header.csv"
grep -v ',packed,132,' "$active" >"$tmp/no132.csv"
cut -d, -f1-3 "$active" >"$tmp/cut.csv"
awk -F, 'BEGIN { OFS = "," } NR > 1 && $1 == "l2" && $3 == 66 && $4 == 16 { $10 = "n/a" } { print }' "$active" >"$tmp/na.csv"
refused "empty" "empty.csv: no dram row" "$tmp/empty.csv"
refused "header only" "header.csv: no dram row of placement packed, blocks_per_sm 16, active_sms 1" "$tmp/header.csv"
refused "a directory" "not a readable file" "$tmp"
refused "missing" "missing.csv: not a readable file" "$tmp/missing.csv"
refused "no n = 132" "active_sms 132 (the fit needs n = 1, 16, 66, 132)" "$tmp/no132.csv"
refused "columns cut" "cut.csv: no column blocks_per_sm" "$tmp/cut.csv"
refused "n/a" "bytes_per_cycle_per_sm 'n/a' (allowed: a number > 0)" "$tmp/na.csv"
refused "two files" "expected one ACTIVE.csv, got 2 arguments" "$active" "$active"
refused "an option" "unknown option '--level'" --level dram
echo "$passed passed, 0 failed"
