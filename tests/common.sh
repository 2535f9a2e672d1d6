# shellcheck shell=bash
# common.sh - sourced by tests/cli_*.sh: a scratch folder $tmp removed on
# exit, the pass counter with ok and fail (which prints the count and exits
# 1), and col NAME (the column NAME of the CSV row on stdin, by its header).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*" >&2; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }
col() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == 2 { print $c }'; }
