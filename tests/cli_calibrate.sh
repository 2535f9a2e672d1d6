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
if WARPSIM=${WARPSIM_BIN:?} "$root/scripts/calibrate_fit.sh" "$ref" h200 >"$tmp/m.ini" 2>"$tmp/err"; then
  get() { awk -F= -v g="[$1]" -v k="$2" '/^\[/ { in_g = ($0 == g); next } in_g && $1 == k { print substr($0, length(k) + 2); exit }' "$tmp/m.ini"; }
  check() { # GROUP KEY WANT WHY
    local got
    got=$(get "$1" "$2")
    if [ "$got" = "$3" ]; then pass=$((pass + 1)); else
      echo "FAIL fit $1.$2: $got (want $3: $4)"
      fail=$((fail + 1))
    fi
  }
  check fma latency 4 "latency.csv ffma_dependent 4.06"
  check sfu interval 8 "4 SMSPs / sfu.csv[ilp=4,blocks_per_sm=16] 0.4996"
  check smem latency 29 "latency.csv smem_load_dependent 28.63 (LDS + one address add)"
  check l1 latency 49 "latency.csv l1_hit_load_dependent 49.06 (the line chase with ld.ca)"
  check l1 bytes_per_cycle 128 "l1.csv[bytes_per_thread=8,warps_per_sm=64] 0.4813 warp-loads x 2 lines = 0.96: one 128 B line per cycle"
  check l2 latency 306 "latency.csv l2_hit_load_dependent 305.51 (mean over SMs)"
  check l2 latency_spread 23 "2 x (315.5 - 304.2) = 22.6"
  check dram bytes_per_cycle 16.982 "stream.csv[ilp=1,blocks_per_sm=14], not the curve's maximum"
  check dram channels 17 "W = 728.8 - min(703.9, 697.5, 698.3) = 31.3, rho = 5.620 / 16.982 = 0.331: S = 2W(1 - rho)/rho = 126.6, x 16.982 / 128 = 16.8"
  check dram stream_channels 2 "W = 8192/14.588 - 2048/4.977 = 150.1, rho = 0.859: S = 49.3, x 16.982 / 512 = 1.6"
  check branch latency 10 "256 / (3.8140 / 4) - 258 = 10.5"
  check operand bank_conflict true "fma.csv[ilp=1,blocks_per_sm=16] 1.9708 < 3 of the issue peak 4"
  check operand penalty 1 "4 / 1.9708 - 1 = 1.03"
  check sched policy grr "fma.csv ilp 1 b 4: 1.968 measured; grr 1.91, gto 1.55 simulated"
  check l2 channels 4 "MAPE 3.7, 3.0, 3.9, 7.3 % for k = 2, 4, 8, 16"
  case $(get dram stream_latency.source) in
    fitted:*) pass=$((pass + 1)) ;;
    *) echo "FAIL fit dram.stream_latency: not fitted with warpsim: $(get dram stream_latency.source)"; fail=$((fail + 1)) ;;
  esac
  srcs=$(grep -c '\.source=' "$tmp/m.ini")
  keys=$(grep -cE '^[a-z_0-9]+=' "$tmp/m.ini")
  [ "$srcs" -eq "$keys" ] && pass=$((pass + 1)) || { echo "FAIL: $srcs sources for $keys keys (every value needs one)"; fail=$((fail + 1)); }
else
  echo "FAIL: calibrate_fit.sh: $(cat "$tmp/err")"
  fail=$((fail + 1))
fi
# A truncated or malformed reference directory: one line naming the file, exit 2.
fit=$root/scripts/calibrate_fit.sh
cp -r "$ref" "$tmp/cut"
head -1 "$ref/fma.csv" >"$tmp/cut/fma.csv"
expect "fit: header-only fma.csv" 2 "cut/fma.csv: no positive number in column 5" \
  env WARPSIM="$WARPSIM_BIN" "$fit" "$tmp/cut" x
cp "$ref/fma.csv" "$tmp/cut/fma.csv"
sed 's/^max_threads_per_sm,.*/max_threads_per_sm,lots/' "$ref/device.csv" >"$tmp/cut/device.csv"
expect "fit: non-numeric device field" 2 "cut/device.csv: row 'max_threads_per_sm': not a number 'lots'" \
  env WARPSIM="$WARPSIM_BIN" "$fit" "$tmp/cut" x
grep -v '^l2_hit_load_dependent,' "$ref/latency.csv" >"$tmp/cut/latency.csv"
cp "$ref/device.csv" "$tmp/cut/device.csv"
expect "fit: missing latency row" 2 "cut/latency.csv: no row 'l2_hit_load_dependent'" \
  env WARPSIM="$WARPSIM_BIN" "$fit" "$tmp/cut" x
expect "compare: not a model" 2 "/etc/passwd: no value with a measured or fitted KEY.source" \
  env WARPSIM="$WARPSIM_BIN" "$root/scripts/calibrate_compare.sh" /etc/passwd "$ref" 1
# calibrate_compare.sh: the shipped model against the committed run (one
# resampled copy): l1.bytes_per_cycle 128 vs 128 (whole lines per cycle), dram.channels 17 vs 17,
# dram.latency_spread 145 vs 140 (outside 3 %).
if WARPSIM=$WARPSIM_BIN "$root/scripts/calibrate_compare.sh" "$root/models/h200.ini" "$ref" 1 >"$tmp/cmp" 2>"$tmp/err"; then
  for want in '| l1.bytes_per_cycle | 128 | 128 | +0.0 | ' '| dram.channels | 17 | 17 | +0.0 | ' \
    '| dram.latency_spread | 145 | 140 | -3.4 | ' \
    '| operand.bank_conflict | true | true | same | - | yes |'; do
    if grep -qF -- "$want" "$tmp/cmp"; then pass=$((pass + 1)); else
      echo "FAIL compare: no row '$want' in: $(cat "$tmp/cmp")"
      fail=$((fail + 1))
    fi
  done
else
  echo "FAIL: calibrate_compare.sh: $(cat "$tmp/err")"
  fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
