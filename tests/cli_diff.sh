#!/usr/bin/env bash
# cli_diff.sh - `warpsim diff A.json B.json`: the change of a metric equals
# B - A computed here from the two runs' CSV rows; a file against itself shows
# no change; every report section is printed; CSV output parses; bad input
# (one file, a missing file, not JSON, JSON that is not a run result, a bad
# --format) exits 2 with one line on stderr and nothing on stdout.  Also the
# JSON of `warpsim run`: its row numbers carry no more decimals than the CSV
# (33.333, never 33.332999999999998).  Needs WARPSIM_BIN (CTest sets it).
set -u
bin=${WARPSIM_BIN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*" >&2; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }

common=(--kernel chase --set stream.iterations=64)
for b in 8 16; do
  "$bin" run "${common[@]}" --set launch.blocks_per_sm=$b --format json >"$tmp/$b.json" || fail "run json $b"
  "$bin" run "${common[@]}" --set launch.blocks_per_sm=$b --format csv >"$tmp/$b.csv" || fail "run csv $b"
done
col() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } { print $c }' "$2"; }

"$bin" diff "$tmp/8.json" "$tmp/16.json" >"$tmp/out" 2>"$tmp/err" || fail "diff: $(cat "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "diff wrote to stderr: $(cat "$tmp/err")"
for s in "Run (CSV columns)" "GPU Speed Of Light Throughput" "Scheduler Statistics" \
  "Warp State Statistics" "Occupancy" "Launch Statistics"; do
  grep -qF "Section: $s" "$tmp/out" || fail "diff: no section $s"
done
ok
# bytes_per_cycle: A, B, B - A and the change in %, from the CSV rows.
a=$(col bytes_per_cycle "$tmp/8.csv") b=$(col bytes_per_cycle "$tmp/16.csv")
want=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%s %s %+.6g %+.1f", a + 0, b + 0, b - a, 100 * (b - a) / a }')
got=$(awk '$1 == "bytes_per_cycle" { print $2, $3, $4, $5; exit }' "$tmp/out")
[ "$got" = "$want" ] || fail "diff bytes_per_cycle: got '$got', want '$want'"
w8=$(col warps_per_sm "$tmp/8.csv") w16=$(col warps_per_sm "$tmp/16.csv")
awk -v a="$w8" -v b="$w16" '$1 == "warps_per_sm" && $2 == a && $3 == b && $4 == "+" (b - a) { f = 1 } END { exit !f }' \
  "$tmp/out" || fail "diff warps_per_sm: $(grep warps_per_sm "$tmp/out")"
grep -q '^ *stall long_scoreboard ' "$tmp/out" || fail "diff: no warp-state line"
grep -q 'Rules fired: A: .*theoretical_occupancy' "$tmp/out" || fail "diff: rules of A"
ok

# Against itself: every change is 0.
"$bin" diff "$tmp/8.json" "$tmp/8.json" --format csv >"$tmp/same.csv" || fail "diff self"
head -1 "$tmp/same.csv" | grep -qx 'section,metric,a,b,delta,delta_pct' || fail "diff csv header"
n=$(awk -F, 'NR > 1 && $5 != "" && $5 != "0" { n++ } END { print n + 0 }' "$tmp/same.csv")
[ "$n" -eq 0 ] || fail "diff of a file with itself: $n changed metrics"
[ "$(wc -l <"$tmp/same.csv")" -gt 40 ] || fail "diff csv: too few metrics"
ok

# bad NAME ARGS...: exit 2, nothing on stdout, one line on stderr.
bad() {
  local name=$1
  shift
  "$bin" diff "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc"
  [ ! -s "$tmp/out" ] || fail "$name: wrote to stdout"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$name: $(cat "$tmp/err")"
  ok
}
echo '{"a": ' >"$tmp/broken.json"
"$bin" occupancy --model h200 --threads 128 --regs 32 --format json >"$tmp/occ.json"
bad "one file" "$tmp/8.json"
bad "missing file" "$tmp/8.json" "$tmp/missing.json"
grep -q "missing.json: no such file" "$tmp/err" || fail "missing file: $(cat "$tmp/err")"
# A directory or a FIFO exists: it is not a regular file, not "no such file".
mkdir "$tmp/dir.json"
bad "a directory" "$tmp/8.json" "$tmp/dir.json"
grep -q "dir.json: not a regular file" "$tmp/err" || fail "directory: $(cat "$tmp/err")"
mkfifo "$tmp/fifo.json"
bad "a FIFO" "$tmp/8.json" "$tmp/fifo.json"
grep -q "fifo.json: not a regular file" "$tmp/err" || fail "FIFO: $(cat "$tmp/err")"
bad "not JSON" "$tmp/broken.json" "$tmp/8.json"
bad "not a run" "$tmp/8.json" "$tmp/occ.json"
bad "bad format" --format xml "$tmp/8.json" "$tmp/16.json"

# JSON numbers of the row: no more decimals than the CSV gives them.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) name[i] = $i; next }
  { for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9]+\.[0-9]+$/) { split($i, p, "."); print name[i], length(p[2]) } }' \
  "$tmp/8.csv" >"$tmp/decimals"
[ -s "$tmp/decimals" ] || fail "no double columns in the CSV"
while read -r name places; do
  v=$(sed -n "s/^  \"$name\" : \([-0-9.e+]*\),\{0,1\}$/\1/p" "$tmp/8.json")
  [ -n "$v" ] || fail "JSON lacks $name"
  d=${v#*.}
  [ "$v" = "${v%.*}" ] && d=""
  [ ${#d} -le "$places" ] || fail "JSON $name = $v has more than $places decimals"
done <"$tmp/decimals"
ok
echo "$passed passed, 0 failed"
