#!/usr/bin/env bash
# cli_loko_args.sh - scripts/loko.sh's argument checks, which come before
# its ~5 minutes of runs: an --out folder it cannot create or write (a
# file, a folder under a file, /proc/self, '') is one line, exit 2, at once
# (it was found only at the end, by mkdir or cp); unknown arguments too.
# Runs nothing.  Needs WARPSIM_ROOT (CTest sets it).
set -u
root=${WARPSIM_ROOT:?}
. "$root/tests/common.sh"
s=$root/scripts/loko.sh
refused() {
  local name=$1 needle=$2 rc=0
  shift 2
  timeout 20 "$s" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc (want 2): $(cat "$tmp/err")"
  [ "$(wc -l <"$tmp/err")" = 1 ] || fail "$name: not one line: $(cat "$tmp/err")"
  grep -qF -- "$needle" "$tmp/err" || fail "$name: '$needle' not in: $(cat "$tmp/err")"
  ok
}
: >"$tmp/file"
refused "--out a file" "--out '$tmp/file': cannot create or write the folder" --out "$tmp/file"
refused "--out under a file" "--out '$tmp/file/sub': cannot create" --out "$tmp/file/sub"
refused "--out /proc/self" "--out '/proc/self': cannot create" --out /proc/self
refused "--out ''" "--out '': cannot create" --out ''
refused "--out without a value" "--out needs a value" --out
refused "an unknown argument" "unknown argument 'extra'" extra
[ -z "$(find "$tmp" -name '.loko.*')" ] || fail "left a probe file"
ok
echo "$passed passed, 0 failed"
