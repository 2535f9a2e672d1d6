#!/usr/bin/env bash
# cli_calibrate.sh - scripts/calibrate.sh without nvcc or without a GPU: one
# line on stderr naming what is missing, exit status 2, nothing written; bad
# arguments exit 2 too.
set -euo pipefail
root=${WARPSIM_ROOT:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
expect() { # NAME WANT_RC PATTERN CMD...
  local name=$1 want=$2 pattern=$3 rc=0
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [ "$rc" -eq "$want" ] && grep -q -- "$pattern" "$tmp/err" && [ ! -s "$tmp/out" ] &&
    [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
    pass=$((pass + 1))
  else
    echo "FAIL $name: rc $rc (want $want), stderr: $(cat "$tmp/err")"
    fail=$((fail + 1))
  fi
}
cal=$root/scripts/calibrate.sh
expect "no nvcc" 2 "nvcc not found" env NVCC=/nonexistent/nvcc "$cal" --ref-dir "$tmp/ref"
# A PATH with bash's tools but neither nvidia-smi nor a GPU: a stub nvcc.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/nvcc"
chmod +x "$tmp/bin/nvcc"
for t in dirname basename mktemp date tr sed cat head grep awk env; do
  p=$(command -v "$t") && ln -sf "$p" "$tmp/bin/$t"
done
expect "no GPU" 2 "no NVIDIA GPU" env PATH="$tmp/bin" NVCC="$tmp/bin/nvcc" \
  "$(command -v bash)" "$cal" --ref-dir "$tmp/ref"
expect "bad argument" 2 "unknown argument" "$cal" --bogus
expect "bad name" 2 "--name" "$cal" --name 'A B' --fit-only
expect "fit without data" 2 "missing" "$cal" --fit-only --name x --ref-dir "$tmp/none" \
  --model-out "$tmp/x.ini"
[ ! -e "$tmp/ref" ] || { echo "FAIL: $tmp/ref was created"; fail=$((fail + 1)); }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
