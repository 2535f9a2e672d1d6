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
# The fit over the committed H200 run: values worked out by hand from its CSVs.
ref=$root/results/reference/h200/calibrate
if "$root/scripts/calibrate_fit.sh" "$ref" h200 >"$tmp/m.ini" 2>"$tmp/err"; then
  get() { awk -F= -v g="[$1]" -v k="$2" '/^\[/ { in_g = ($0 == g); next } in_g && $1 == k { print $2; exit }' "$tmp/m.ini"; }
  check() { # GROUP KEY WANT WHY
    local got
    got=$(get "$1" "$2")
    if [ "$got" = "$3" ]; then pass=$((pass + 1)); else
      echo "FAIL fit $1.$2: $got (want $3: $4)"
      fail=$((fail + 1))
    fi
  }
  check fma latency 4 "latency.csv ffma_dependent 4.06"
  check sfu interval 8 "4 SMSPs / sfu.csv plateau 0.4996"
  check l2 latency 305 "chase.csv l2 ilp 1 b 1: 304.9 cycles"
  check l2 latency_spread 22 "2 x (315.8 - 304.9)"
  check dram bytes_per_cycle 17.512 "stream.csv ilp 1 plateau"
  check branch latency 10 "256 / (3.8151 / 4) - 258 = 10.3"
  srcs=$(grep -c '\.source=' "$tmp/m.ini")
  keys=$(grep -cE '^[a-z_0-9]+=' "$tmp/m.ini")
  [ "$srcs" -eq "$keys" ] && pass=$((pass + 1)) || { echo "FAIL: $srcs sources for $keys keys (every value needs one)"; fail=$((fail + 1)); }
else
  echo "FAIL: calibrate_fit.sh: $(cat "$tmp/err")"
  fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
