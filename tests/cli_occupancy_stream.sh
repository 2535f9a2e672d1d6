#!/usr/bin/env bash
# cli_occupancy_stream.sh - `warpsim occupancy --batch` streams: its peak
# memory (RSS) does not grow with the number of rows, in CSV and JSON, and a
# bad last row still leaves no output.  Needs GNU time (/usr/bin/time, Debian
# package "time"); exits 77 (CTest: skipped) without it or when the binary is
# built with AddressSanitizer (its quarantine keeps freed memory).
set -u
BIN=${WARPSIM_BIN:?WARPSIM_BIN must name the warpsim binary}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ ! -x /usr/bin/time ]; then
  echo "GNU time (/usr/bin/time) not installed: skipped"
  exit 77
fi
# (gcc links libasan dynamically; clang links it into the binary)
if ldd "$BIN" 2>/dev/null | grep -q asan || grep -q __asan_init "$BIN"; then
  echo "sanitized build: RSS not comparable, skipped"
  exit 77
fi
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

rows() { # rows N FILE: a batch of N launches
  awk -v n="$1" 'BEGIN { print "threads,regs,smem_static,smem_dynamic,optin";
    for (i = 0; i < n; i++) printf "%d,%d,0,%d,%d\n", 32 * (i % 32 + 1), i % 255 + 1, (i * 97) % 200000, i % 2 }' >"$2"
}
# rss FORMAT FILE: peak RSS in KiB of a batch written to /dev/null
rss() {
  /usr/bin/time -f %M -o "$TMP/rss" "$BIN" occupancy --model h200 --batch "$2" --format "$1" \
    >/dev/null 2>"$TMP/err" || fail "batch $2 ($1): $(cat "$TMP/err")"
  cat "$TMP/rss"
}

rows 2000 "$TMP/small.csv"
rows 200000 "$TMP/big.csv"
for fmt in csv json; do
  small=$(rss "$fmt" "$TMP/small.csv")
  big=$(rss "$fmt" "$TMP/big.csv")
  echo "$fmt: peak RSS $small KiB for 2000 rows, $big KiB for 200000 rows"
  [ "$big" -lt $((small + 2048)) ] || fail "$fmt: RSS grows with rows ($small -> $big KiB)"
  [ "$big" -lt $((50 * 1024)) ] || fail "$fmt: $big KiB is over 50 MB"
done
"$BIN" occupancy --model h200 --batch "$TMP/big.csv" | tail -1 | grep -q '^h200,9.0,' ||
  fail "the last row of the big batch is missing"

# A bad row at the very end: nothing on stdout, the row named on stderr.
cp "$TMP/big.csv" "$TMP/bad.csv"
echo "0,32,0,0,0" >>"$TMP/bad.csv"
"$BIN" occupancy --model h200 --batch "$TMP/bad.csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 2 ] || fail "bad last row: exit $rc"
[ ! -s "$TMP/out" ] || fail "bad last row: $(wc -c <"$TMP/out") bytes on stdout"
grep -q "bad.csv:200002:" "$TMP/err" || fail "bad last row: $(cat "$TMP/err")"

echo "cli_occupancy_stream: $failures failures"
[ "$failures" -eq 0 ]
