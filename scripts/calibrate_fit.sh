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
val() { awk -F, -v k="$2" '$1 == k { print $2; exit }' "$ref/$1.csv"; }
lat() { awk -F, -v k="$1" '$1 == k { printf "%.0f", $2; found = 1 } END { exit !found }' "$ref/latency.csv"; }
# max of column C over rows where the awk condition holds
maxof() { awk -F, -v c="$2" "NR > 1 && ($3) { if (\$c > m) m = \$c } END { print m }" "$ref/$1.csv"; }
row() { awk -F, -v c="$2" "NR > 1 && ($3) { print \$c; exit }" "$ref/$1.csv"; }
ref_abs=$(cd "$ref" && pwd)
rel=${ref_abs#"$root"/}
cc=$(val device cc) sms=$(val device sms) clock=$(val device clock_khz)
fma_peak=$(maxof fma 5 '$1 == 8')
sfu_peak=$(maxof sfu 5 '1')
lds_peak=$(maxof lds 6 '$2 == 1')
l1_peak=$(maxof l1 4 '$1 == 4')
l2_peak=$(maxof chase 7 '$1 == "l2" && $2 == 4')
dram_peak=$(maxof stream 5 '$1 == 1')
fma8_b1=$(row fma 5 '$1 == 8 && $2 == 1')
l2_c1=$(row chase 8 '$1 == "l2" && $2 == 1 && $3 == 1')
l2_c2=$(row chase 8 '$1 == "l2" && $2 == 2 && $3 == 1')
dr_c1=$(row chase 8 '$1 == "dram" && $2 == 1 && $3 == 1')
dr_c2=$(row chase 8 '$1 == "dram" && $2 == 2 && $3 == 1')
dr_c1_w32=$(row chase 8 '$1 == "dram" && $2 == 1 && $3 == 8')
dr_b_w32=$(row chase 7 '$1 == "dram" && $2 == 1 && $3 == 8')
spill_rate=$(awk -F, 'NR == FNR && FNR > 1 { n[$1 "," $2 "," $3] = $5 + $6; next }
  FNR > 1 && $6 == "max" && (($1 == "rolled" && $2 == 64) || ($1 == "unrolled" && $2 == 96)) &&
  $3 >= 48 && n[$1 "," $2 "," $3] > 0 { s += $10 / $2 * n[$1 "," $2 "," $3]; k++ }
  END { if (k) printf "%.1f", 128 * s / k }' "$ref/spill_sass.csv" "$ref/spill.csv" 2>/dev/null || true)
awk_calc() { awk "BEGIN { $1 }"; }
cat <<EOF2
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
policy.source=assumed: the H200 model's policy (greedy then round robin)

[fma]
latency=$(lat ffma_dependent)
latency.source=measured: $rel/latency.csv[what=ffma_dependent]
interval=$(awk_calc "printf \"%.0f\", 4 / $fma_peak")
interval.source=measured: $rel/fma.csv[ilp=8] plateau $fma_peak warp-FFMA/cycle/SM over 4 SMSPs

[alu]
latency=$(lat imad_dependent)
latency.source=measured: $rel/latency.csv[what=imad_dependent]
interval=2
interval.source=public: 16 INT32 lanes per SMSP (NVIDIA H100 whitepaper, 2022)

[sfu]
latency=$(lat mufu_ex2_dependent)
latency.source=measured: $rel/latency.csv[what=mufu_ex2_dependent]
interval=$(awk_calc "printf \"%.0f\", 4 / $sfu_peak")
interval.source=measured: $rel/sfu.csv plateau $sfu_peak warp-MUFU/cycle/SM over 4 SMSPs

[smem]
latency=$(lat smem_load_dependent)
latency.source=measured: $rel/latency.csv[what=smem_load_dependent]
interval=$(awk_calc "printf \"%.0f\", 1 / $lds_peak")
interval.source=measured: $rel/lds.csv[stride=1] plateau $lds_peak warp-LDS/cycle/SM

[lsu]
interval=1
interval.source=assumed: one warp-load per cycle per SMSP enters the LSU

[branch]
latency=$(awk_calc "printf \"%.0f\", 256 / ($fma8_b1 / 4) - 258")
latency.source=fitted: $rel/fma.csv[ilp=8,blocks_per_sm=1] (cycles per iteration less 258 issue cycles)

[operand]
bank_conflict=false
bank_conflict.source=measured: $rel/fma.csv ILP 1 reaches the issue peak (this kernel's FFMA operands never share a bank)

[spill]
bytes_per_cycle=${spill_rate:-33.3}
bytes_per_cycle.source=fitted: $rel/spill.csv[occupancy=max,cap>=48] rolled 64 and unrolled 96 with spill_sass.csv counts
loop_regs=8
loop_regs.source=measured: $rel/spill.csv[cap=0] registers less live values
extra_values=13
extra_values.source=fitted: $rel/spill_sass.csv rolled 64, unrolled 96

[l1]
latency=$(lat l1_hit_load_dependent)
latency.source=measured: $rel/latency.csv[what=l1_hit_load_dependent]
bytes_per_cycle=$l1_peak
bytes_per_cycle.source=measured: $rel/l1.csv[bytes_per_thread=4] plateau
channels=1
channels.source=assumed: one L1 pipeline per SM
bytes=262144
bytes.source=public: 256 KB L1 + shared memory per SM (NVIDIA H100 whitepaper, 2022)

[l2]
latency=$(awk_calc "printf \"%.0f\", $l2_c1")
latency.source=measured: $rel/chase.csv[where=l2,ilp=1,blocks_per_sm=1] (4 warps on every SM, lightly loaded; one warp on one SM, latency.csv, reads more: see README)
latency_spread=$(awk_calc "printf \"%.0f\", 2 * ($l2_c2 - $l2_c1)")
latency_spread.source=fitted: $rel/chase.csv[where=l2,ilp=2,blocks_per_sm=1] vs [where=l2,ilp=1,blocks_per_sm=1]
bytes_per_cycle=$l2_peak
bytes_per_cycle.source=measured: $rel/chase.csv[where=l2,ilp=4] plateau
channels=4
channels.source=fitted: $rel/chase.csv[where=l2,ilp=1,blocks_per_sm=16] M/D/1 queueing (the H200 model's derivation)

[dram]
latency=$(lat dram_load_dependent)
latency.source=measured: $rel/latency.csv[what=dram_load_dependent]
stream_latency=340
stream_latency.source=assumed: the H200 model's value (fitted there to stream.csv[ilp=1,blocks_per_sm=1])
latency_spread=$(awk_calc "printf \"%.0f\", 2 * ($dr_c2 - $dr_c1)")
latency_spread.source=fitted: $rel/chase.csv[where=dram,ilp=2,blocks_per_sm=1] vs [where=dram,ilp=1,blocks_per_sm=1]
bytes_per_cycle=$dram_peak
bytes_per_cycle.source=measured: $rel/stream.csv[ilp=1] plateau
channels=$(awk_calc "w = $dr_c1_w32 - $dr_c1; rho = $dr_b_w32 / $dram_peak; s = 2 * w * (1 - rho) / rho; printf \"%.0f\", s * $dram_peak / 128")
channels.source=fitted: $rel/chase.csv[where=dram,ilp=1,blocks_per_sm=8] M/D/1 wait over [where=dram,ilp=1,blocks_per_sm=1]
stream_channels=2
stream_channels.source=assumed: the H200 model's value

[mem]
max_inflight=512
max_inflight.source=assumed: no cap seen up to 32 loads per warp in $rel/inflight.csv
sector_bytes=32
sector_bytes.source=public: CUDA C++ Best Practices Guide (32 B sectors)
line_bytes=128
line_bytes.source=public: CUDA C++ Best Practices Guide (128 B lines)
EOF2
