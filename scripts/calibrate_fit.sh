#!/usr/bin/env bash
# calibrate_fit.sh - derive a warpsim model from calibration CSVs (the
# output of scripts/calibrate.sh --measure-only) and print it as a model file.
# Every number carries its provenance as a `KEY.source` line: the CSV and the
# rows it was measured or fitted from (the same derivations as models/h200.ini).
# Usage: scripts/calibrate_fit.sh REFDIR NAME > models/NAME.ini
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
[ $# -eq 2 ] || warpsim_die "usage: calibrate_fit.sh REFDIR NAME"
ref=$1 name=$2
for f in device latency fma sfu lds chase stream l1 spill; do
  [ -f "$ref/$f.csv" ] || warpsim_die "$ref/$f.csv: missing"
done
# A truncated or malformed CSV stops the fit: one line naming the file and
# the row, exit 2 (die() in $(...) ends that subshell: assign one per line).
die_row() { warpsim_die "$ref/$1.csv: $2 (a truncated or malformed calibration CSV? rerun scripts/calibrate.sh --measure-only)"; }
number() { [[ $1 =~ ^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$ ]]; }
positive() { number "$1" && awk "BEGIN { exit !($1 > 0) }"; }
# val CSV FIELD: column 2 of the row whose column 1 is FIELD (device.csv)
val() {
  local v
  v=$(awk -F, -v k="$2" '$1 == k { print $2; found = 1; exit } END { exit !found }' "$ref/$1.csv") ||
    die_row "$1" "no row '$2'"
  [ "$2" = name ] || number "$v" || die_row "$1" "row '$2': not a number '$v'"
  printf '%s\n' "$v"
}
# lat WHAT: the latency.csv row WHAT in cycles, rounded
lat() {
  local v
  v=$(awk -F, -v k="$1" '$1 == k { print $2; found = 1; exit } END { exit !found }' "$ref/latency.csv") ||
    die_row latency "no row '$1'"
  positive "$v" || die_row latency "row '$1': not a positive number '$v'"
  awk "BEGIN { printf \"%.0f\", $v }"
}
# max of column C over rows where the awk condition holds
maxof() { awk -F, -v c="$2" "NR > 1 && ($3) { if (\$c > m) m = \$c } END { print m }" "$ref/$1.csv"; }
# row CSV C COND: column C of the first row where the awk condition holds
row() {
  local v
  v=$(awk -F, -v c="$2" "NR > 1 && ($3) { print \$c; exit }" "$ref/$1.csv")
  positive "$v" || die_row "$1" "no positive number in column $2 of a row where $3 (got '$v')"
  printf '%s\n' "$v"
}
ref_abs=$(cd "$ref" && pwd)
rel=${ref_abs#"$root"/}
cc=$(val device cc)
sms=$(val device sms)
clock=$(val device clock_khz)
# The fields and latencies the model below reads inside its here-document.
for f in name max_threads_per_sm max_blocks_per_sm regs_per_sm regs_per_block smem_per_sm \
  smem_per_block_optin reserved_smem_per_block; do
  val device "$f" >/dev/null
done
for w in ffma_dependent imad_dependent mufu_ex2_dependent smem_load_dependent \
  l1_hit_load_dependent l2_hit_load_dependent dram_load_dependent; do
  lat "$w" >/dev/null
done
# Each key from the rows the shipped H200 model took it from (models/h200.ini
# KEY.source): a plateau is the row that model names, not the curve's maximum.
fma_peak=$(row fma 5 '$1 == 8 && $2 == 16')
sfu_peak=$(row sfu 5 '$1 == 4 && $2 == 16')
lds_peak=$(row lds 6 '$2 == 1 && $3 == 5')
# [l1] bytes_per_cycle: L1 serves one 128 B line per cycle (matrix/gload.csv);
# here 8 B per thread at 64 warps, 2 lines per warp-load, rounded to whole
# lines per cycle (the 4-byte loop is issue-bound, not L1-bound).
l1_lines=$(row l1 3 '$1 == 8 && $2 == 64')
l1_peak=$(awk "BEGIN { l = int(2 * $l1_lines + 0.5); printf \"%d\", 128 * (l < 1 ? 1 : l) }")
l2_peak=$(row chase 7 '$1 == "l2" && $2 == 4 && $3 == 16')
dram_peak=$(row stream 5 '$1 == 1 && $2 == 14')
fma1_b16=$(row fma 5 '$1 == 1 && $2 == 16')
fma8_b1=$(row fma 5 '$1 == 8 && $2 == 1')
l2_c1=$(row chase 8 '$1 == "l2" && $2 == 1 && $3 == 1')
l2_c2=$(row chase 8 '$1 == "l2" && $2 == 2 && $3 == 1')
dr_c1=$(row chase 8 '$1 == "dram" && $2 == 1 && $3 == 1')
dr_c2=$(row chase 8 '$1 == "dram" && $2 == 2 && $3 == 1')
dr_c1_w32=$(row chase 8 '$1 == "dram" && $2 == 1 && $3 == 8')
# The unloaded DRAM latency for the M/D/1 wait below: the fastest of the
# three lightest loads (1-3 CTAs per SM, 0.9-2.7 % of DRAM bandwidth, where
# queueing adds nothing measurable), so that one slow launch at 1 CTA (this
# project's run: 703.9 cycles at B = 1 against 697.5 at B = 2) does not
# become queueing delay.
dr_c0=$(awk -F, 'NR > 1 && $1 == "dram" && $2 == 1 && $3 <= 3 { v = $8 + 0; if (m == "" || v < m) m = v } END { print m }' "$ref/chase.csv")
dr_b_w32=$(row chase 7 '$1 == "dram" && $2 == 1 && $3 == 8')
spill_rate=$(awk -F, 'NR == FNR && FNR > 1 { n[$1 "," $2 "," $3] = $5 + $6; next }
  FNR > 1 && $6 == "max" && (($1 == "rolled" && $2 == 64) || ($1 == "unrolled" && $2 == 96)) &&
  $3 >= 48 && n[$1 "," $2 "," $3] > 0 { s += $10 / $2 * n[$1 "," $2 "," $3]; k++ }
  END { if (k) printf "%.1f", 128 * s / k }' "$ref/spill_sass.csv" "$ref/spill.csv" 2>/dev/null || true)
awk_calc() { awk "BEGIN { $1 }"; }
spill_source="fitted: $rel/spill.csv[occupancy=max,cap>=48] rolled 64 and unrolled 96 with spill_sass.csv counts"
[ -n "$spill_rate" ] ||
  spill_source="assumed: the H200 model's value (no usable rows in $rel/spill.csv and spill_sass.csv)"
# FFMA operand conflict: the ILP 1 chain (three vector-register operands, as in
# the shared set's sass_fma.txt) stays below 3/4 of the issue peak of 4
# warp-instructions per cycle per SM at 64 warps; the penalty is the extra
# dispatch cycles per FFMA that the ceiling implies.  fma_uniform.csv (the
# multiplier in a uniform register) is the control, when measured.
ffma_sass=$(awk '/^=== / { s = ($2 ~ /k_fmaILi1ELb1/); next }
  s && /FFMA R[0-9]+, R[0-9]+, R[0-9]+, R[0-9]+ ;/ { sub(/^.*FFMA/, "FFMA"); sub(/ ;.*/, ""); print; exit }' \
  "$ref/sass.txt" 2>/dev/null || true)
ffma_sass=${ffma_sass:-no SASS}
bank_conflict=$(awk_calc "print ($fma1_b16 < 3 ? \"true\" : \"false\")")
penalty=$(awk_calc "p = 4 / $fma1_b16 - 1; printf \"%.0f\", p < 0 ? 0 : p")
uniform_note=""
if [ -f "$ref/fma_uniform.csv" ]; then
  u=$(row fma_uniform 5 '$1 == 1 && $2 == 16')
  uniform_note="; multiplier in a uniform register: $rel/fma_uniform.csv[ilp=1,blocks_per_sm=16] $u"
fi
# [dram] stream_channels as the H200 model's: a 512 B warp-load of 4 warps
# (stream.csv ilp 1, 1 CTA per SM) against 16 warps (4 CTAs): the extra wait W
# at utilisation rho is an M/D/1 wait, W = rho S / (2 (1 - rho)), S the
# service time of one warp-load; servers = S x bandwidth / 512 B.
st_b1=$(row stream 5 '$1 == 1 && $2 == 1')
st_b4=$(row stream 5 '$1 == 1 && $2 == 4')
stream_k=$(awk_calc "w = 8192 / $st_b4 - 2048 / $st_b1; rho = $st_b4 / $dram_peak; s = 2 * w * (1 - rho) / rho
  k = s * $dram_peak / 512; printf \"%.0f\", k < 1 ? 1 : k")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/model.ini" <<EOF2
# $name.ini - written by scripts/calibrate.sh from the measurements in $rel/
# ($(val device name), cc $cc).  Every timing number is derived from those CSVs;
# KEY.source says from which rows.  Limits in [sm] are from device.csv.
[model]
description=$(val device name) (calibrated by scripts/calibrate.sh, $rel)
description.source=measured: $rel/device.csv[field=name]
validated=true
validated.source=measured: scripts/validate.sh --ref $rel (run by calibrate.sh)

[sm]
cc=$cc
cc.source=measured: $rel/device.csv[field=cc]
smsps=4
smsps.source=public: NVIDIA architecture whitepapers (4 SMSPs per SM since Maxwell)
sms=$sms
sms.source=measured: $rel/device.csv[field=sms]
max_warps=$(($(val device max_threads_per_sm) / 32))
max_warps.source=measured: $rel/device.csv[field=max_threads_per_sm] / 32
max_blocks=$(val device max_blocks_per_sm)
max_blocks.source=measured: $rel/device.csv[field=max_blocks_per_sm]
regs=$(val device regs_per_sm)
regs.source=measured: $rel/device.csv[field=regs_per_sm]
max_regs_per_block=$(val device regs_per_block)
max_regs_per_block.source=measured: $rel/device.csv[field=regs_per_block]
smem_per_sm=$(val device smem_per_sm)
smem_per_sm.source=measured: $rel/device.csv[field=smem_per_sm]
smem_per_block_optin=$(val device smem_per_block_optin)
smem_per_block_optin.source=measured: $rel/device.csv[field=smem_per_block_optin]
smem_reserved=$(val device reserved_smem_per_block)
smem_reserved.source=measured: $rel/device.csv[field=reserved_smem_per_block]
smem_alloc_unit=128
smem_alloc_unit.source=public: CUDA Occupancy Calculator (128 B from cc 8.0)
clock_mhz=$(awk_calc "printf \"%.0f\", $clock / 1000")
clock_mhz.source=measured: $rel/device.csv[field=clock_khz]

[sched]
policy=grr
policy.source=assumed: @SIM_FIT@ the H200 model's policy (greedy then round robin)

[fma]
latency=$(lat ffma_dependent)
latency.source=measured: $rel/latency.csv[what=ffma_dependent]
interval=$(awk_calc "printf \"%.0f\", 4 / $fma_peak")
interval.source=measured: $rel/fma.csv[ilp=8,blocks_per_sm=16] $fma_peak warp-FFMA/cycle/SM over 4 SMSPs

[alu]
latency=$(lat imad_dependent)
latency.source=measured: $rel/latency.csv[what=imad_dependent]
interval=2
interval.source=public: 16 INT32 lanes per SMSP (NVIDIA H100 whitepaper, 2022)

[sfu]
latency=$(lat mufu_ex2_dependent)
latency.source=measured: $rel/latency.csv[what=mufu_ex2_dependent]
interval=$(awk_calc "printf \"%.0f\", 4 / $sfu_peak")
interval.source=measured: $rel/sfu.csv[ilp=4,blocks_per_sm=16] $sfu_peak warp-MUFU/cycle/SM over 4 SMSPs

[smem]
latency=$(lat smem_load_dependent)
latency.source=measured: $rel/latency.csv[what=smem_load_dependent]
interval=$(awk_calc "printf \"%.0f\", 1 / $lds_peak")
interval.source=measured: $rel/lds.csv[stride=1,blocks_per_sm=5] $lds_peak warp-LDS/cycle/SM
queue=32
queue.source=assumed: @SIM_FIT@ the H200 model's value (fitted there to microbench/bar7/bar7.csv[kernel=tree,tree8]; the kit does not measure it)

[lsu]
interval=1
interval.source=assumed: one warp-load per cycle per SMSP enters the LSU

[branch]
latency=$(awk_calc "printf \"%.0f\", 256 / ($fma8_b1 / 4) - 258")
latency.source=fitted: $rel/fma.csv[ilp=8,blocks_per_sm=1] (cycles per iteration less 258 issue cycles)

[barrier]
latency=6
latency.source=assumed: @SIM_FIT@ the H200 model's value (fitted there to microbench/bar7/bar7.csv[kernel=bar,blocks_per_sm=1]; the kit does not measure barriers)
interval=2
interval.source=assumed: @SIM_FIT@ the H200 model's value (measured there, microbench/bar7/bar7.csv plateaus; the kit does not measure barriers)
smem_slot=true
smem_slot.source=assumed: @SIM_FIT@ the H200 model's behaviour (measured there, microbench/bar7/bar7.csv[kernel=tree,tree8]; the kit does not measure barriers)

[operand]
bank_conflict=$bank_conflict
bank_conflict.source=measured: $rel/fma.csv[ilp=1,blocks_per_sm=16] ceiling $fma1_b16 warp-FFMA/cycle/SM ($ffma_sass in sass.txt)$uniform_note
penalty=$penalty
penalty.source=fitted: $rel/fma.csv[ilp=1,blocks_per_sm=16] ceiling $fma1_b16 = 4 / (1 + penalty) warp-FFMA/cycle/SM

[spill]
bytes_per_cycle=${spill_rate:-33.3}
bytes_per_cycle.source=$spill_source
loop_regs=8
loop_regs.source=measured: $rel/spill.csv[cap=0] registers less live values
extra_values=13
extra_values.source=fitted: $rel/spill_sass.csv rolled 64, unrolled 96

[l1]
latency=$(lat l1_hit_load_dependent)
latency.source=measured: $rel/latency.csv[what=l1_hit_load_dependent]
bytes_per_cycle=$l1_peak
bytes_per_cycle.source=measured: $rel/l1.csv[bytes_per_thread=8,warps_per_sm=64] $l1_lines warp-loads of 2 lines per cycle: whole 128 B lines per cycle
channels=1
channels.source=assumed: one L1 pipeline per SM
bytes=262144
bytes.source=public: 256 KB L1 + shared memory per SM (NVIDIA H100 whitepaper, 2022)

[l2]
latency=$(lat l2_hit_load_dependent)
latency.source=measured: $rel/latency.csv[what=l2_hit_load_dependent] (one warp alone, the mean over every SM in turn: latency_sm.csv)
latency_spread=$(awk_calc "printf \"%.0f\", 2 * ($l2_c2 - $l2_c1)")
latency_spread.source=fitted: $rel/chase.csv[where=l2,ilp=2,blocks_per_sm=1] vs [where=l2,ilp=1,blocks_per_sm=1]
bytes_per_cycle=$l2_peak
bytes_per_cycle.source=measured: $rel/chase.csv[where=l2,ilp=4,blocks_per_sm=16] plateau
channels=4
channels.source=assumed: @SIM_FIT@ the H200 model's value

[dram]
latency=$(lat dram_load_dependent)
latency.source=measured: $rel/latency.csv[what=dram_load_dependent]
stream_latency=700
stream_latency.source=assumed: @SIM_FIT@ the H200 model's value (fitted there to matrix/gload.csv DRAM curves)
latency_spread=$(awk_calc "printf \"%.0f\", 2 * ($dr_c2 - $dr_c1)")
latency_spread.source=fitted: $rel/chase.csv[where=dram,ilp=2,blocks_per_sm=1] vs [where=dram,ilp=1,blocks_per_sm=1]
bytes_per_cycle=$dram_peak
bytes_per_cycle.source=measured: $rel/stream.csv[ilp=1,blocks_per_sm=14] plateau
channels=$(awk_calc "w = $dr_c1_w32 - $dr_c0; rho = $dr_b_w32 / $dram_peak; s = 2 * w * (1 - rho) / rho; printf \"%.0f\", s * $dram_peak / 128")
channels.source=fitted: $rel/chase.csv[where=dram,ilp=1,blocks_per_sm=8] M/D/1 wait over the fastest of $rel/chase.csv[where=dram,ilp=1,blocks_per_sm=1], $rel/chase.csv[where=dram,ilp=1,blocks_per_sm=2], $rel/chase.csv[where=dram,ilp=1,blocks_per_sm=3] at the stream.csv[ilp=1,blocks_per_sm=14] bandwidth
stream_channels=$stream_k
stream_channels.source=fitted: $rel/stream.csv[ilp=1,blocks_per_sm=4] M/D/1 wait over $rel/stream.csv[ilp=1,blocks_per_sm=1] at the stream.csv[ilp=1,blocks_per_sm=14] bandwidth

[mem]
max_inflight=512
max_inflight.source=assumed: no cap seen up to 32 loads per warp in $rel/inflight.csv
sector_bytes=32
sector_bytes.source=public: CUDA C++ Best Practices Guide (32 B sectors)
line_bytes=128
line_bytes.source=public: CUDA C++ Best Practices Guide (128 B lines)
EOF2

# Three keys the H200 model chose by simulating measured points; each is
# chosen here the same way, on this run's points (needs warpsim; without it
# the key keeps the H200 model's value, marked assumed).
warpsim=${WARPSIM:-$root/build/sim/warpsim}
# setkey GROUP KEY VALUE SOURCE: rewrite one key of the model being made.
setkey() {
  awk -v g="[$1]" -v k="$2" -v v="$3" -v src="$4" '/^\[/ { cur = $0 }
    cur == g && index($0, k "=") == 1 { $0 = k "=" v }
    cur == g && index($0, k ".source=") == 1 { $0 = k ".source=" src }
    { print }' "$tmp/model.ini" >"$tmp/next.ini" && mv "$tmp/next.ini" "$tmp/model.ini"
}
# sim METRIC ARGS...: the metric warpsim reports for one run of the model
sim() {
  local metric=$1
  shift
  set -o pipefail
  "$warpsim" run --model "$tmp/model.ini" --format csv "$@" 2>"$tmp/err" |
    awk -F, -v m="$metric" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[m] }' ||
    warpsim_die "warpsim failed ($*): $(head -1 "$tmp/err")"
}
if [ -x "$warpsim" ]; then
  # [sched] policy: gto or grr, by the summed error on fma.csv ilp 1 at 4
  # CTAs per SM (warps switch on every FFMA) and ilp 4 at 1 (one warp per
  # SMSP issues back to back); ties: grr.
  m1=$(row fma 5 '$1 == 1 && $2 == 4')
  m4=$(row fma 5 '$1 == 4 && $2 == 1')
  for p in grr gto; do
    s1=$(sim fma_per_cycle --kernel fma --set stream.ilp=1 --set stream.fma=32 --set launch.blocks_per_sm=4 --set sched.policy=$p)
    s4=$(sim fma_per_cycle --kernel fma --set stream.ilp=4 --set stream.fma=128 --set launch.blocks_per_sm=1 --set sched.policy=$p)
    awk_calc "e = ($s1 - $m1) / $m1; f = ($s4 - $m4) / $m4; printf \"%s %.4f %.3f %.3f\n\", \"$p\", (e < 0 ? -e : e) + (f < 0 ? -f : f), $s1, $s4"
  done >"$tmp/pol"
  pol=$(sort -s -k2,2g "$tmp/pol" | head -1 | cut -d' ' -f1)
  setkey sched policy "$pol" "fitted: $rel/fma.csv[ilp=1,blocks_per_sm=4] ($m1 measured; $(awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $3 }' "$tmp/pol")) and $rel/fma.csv[ilp=4,blocks_per_sm=1] ($m4; $(awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $4 }' "$tmp/pol"))"
  # [l2] channels: the number of L2 servers k (2, 4, 8, 16) whose simulation
  # of every where=l2 point of chase.csv has the lowest mean absolute
  # percentage error (ties: the smaller k).
  # (warpsim curve-stats: the points are no curve, --no-knee; column 2 is the MAPE)
  for k in 2 4 8 16; do
    echo "blocks_per_sm,measured,simulated" >"$tmp/l2k.csv"
    awk -F, 'NR > 1 && $1 == "l2" { print $2, $3, $7 }' "$ref/chase.csv" |
      while read -r ilp b meas; do
        s=$(sim bytes_per_cycle --kernel chase --set stream.level=l2 --set stream.ilp="$ilp" \
          --set stream.loads="$ilp" --set launch.blocks_per_sm="$b" --set l2.channels=$k)
        echo "$b,$meas,$s"
      done >>"$tmp/l2k.csv"
    mape=$("$warpsim" curve-stats --x blocks_per_sm --y simulated --measured measured --no-knee \
      "$tmp/l2k.csv" | tail -n 1 | cut -d, -f2) || warpsim_die "curve-stats failed on $tmp/l2k.csv"
    echo "$k $mape"
  done >"$tmp/l2k"
  l2k=$(sort -k2,2g -k1,1n "$tmp/l2k" | head -1 | cut -d' ' -f1)
  setkey l2 channels "$l2k" "fitted: $rel/chase.csv[where=l2] (MAPE $(awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $2 }' "$tmp/l2k") % for k = 2, 4, 8, 16)"
  # [dram] stream_latency: the unloaded latency of a sequential warp-load
  # whose simulation of stream.csv ilp 1 at 1 CTA per SM (2 float4 loads in
  # flight per thread: calibrate/bench.cu) takes the measured cycles per round
  # (4096 B / measured B per cycle); three corrections from 700 cycles.
  lat_s=700
  for i in 1 2 3; do
    s=$(sim bytes_per_cycle --kernel stream --set stream.ilp=2 --set stream.loads=2 --set stream.fma=2 \
      --set launch.blocks_per_sm=1 --set dram.stream_latency=$lat_s)
    lat_s=$(awk_calc "l = $lat_s + 4096 / $st_b1 - 4096 / $s; printf \"%.0f\", l < 1 ? 1 : l")
  done
  s=$(sim bytes_per_cycle --kernel stream --set stream.ilp=2 --set stream.loads=2 --set stream.fma=2 \
    --set launch.blocks_per_sm=1 --set dram.stream_latency=$lat_s)
  setkey dram stream_latency "$lat_s" "fitted: $rel/stream.csv[ilp=1,blocks_per_sm=1] ($st_b1 B/cycle measured, $s simulated)"
fi
cat "$tmp/model.ini"
