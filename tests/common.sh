# shellcheck shell=bash
# common.sh - sourced by tests/cli_*.sh: a scratch folder $tmp removed on
# exit, the pass counter with ok and fail (which prints the count and exits
# 1), col NAME (the column NAME of the CSV row on stdin, by its header) and
# one_line (a run of $bin, the warpsim binary, refused as bad input).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*" >&2; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }
col() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == 2 { print $c }'; }
one_line() { # NAME NEEDLE -- ARGS...: exit 2, nothing on stdout, one line on stderr holding NEEDLE
  local name=$1 needle=$2 rc=0
  shift 3
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc (want 2): $(head -c 300 "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "$name: wrote to stdout"
  [ "$(wc -l <"$tmp/err")" = 1 ] || fail "$name: not one line: $(head -c 300 "$tmp/err")"
  grep -qF -- "$needle" "$tmp/err" || fail "$name: '$needle' not in: $(head -c 300 "$tmp/err")"
  ok
}
