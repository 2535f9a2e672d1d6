#!/usr/bin/env bash
# cli_mio.sh - the h200 model reproduces the microbenchmarks of
# results/reference/h200/mio/ its MIO keys come from (issue 24): loops of
# mio.sass (copied into tests/data/mio/mio_sel.sass), simulated with no
# profile at the measured launch (128 threads, B CTAs per SM, one wave of
# B x 132, the row's iterations), against the rate the H200 measured:
#   within 10 %: MATCH.ANY with 32 distinct keys (the model's assumption) in
#     one chain per warp at B = 1 and 8 chains at B = 4 and 16; REDUX.SUM
#     8 chains at B = 16; MATCH:REDUX 1:1 (one unit) at B = 8; a SHFL.BFLY
#     chain at B = 1 ([class_shuffle] latency 25); LDC with a register
#     address, 32 distinct addresses, one chain at B = 1 and 8 at B = 16
#     ([class_special] indexed_*); FLO chains and 8 streams (the conversion
#     pipe); ballot (VOTE.ANY on the ALU) 8 streams at B = 16;
#   within 5 %: MATCH with 1 distinct key at its per-key timing MATCH:28:2
#     (2 cycles of the unit and 11 of latency per key: the 1-key rows);
# and the old classes fail them: MATCH on the ALU more than 5x fast, REDUX
# on it more than 1.5x, FLO on the ALU 2x, an indexed LDC timed as a uniform
# one 10x.
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the repository}
mio=$root/results/reference/h200/mio
sass=$root/tests/data/mio/mio_sel.sass
# shellcheck source=tests/common.sh
. "$root/tests/common.sh"

# row FILE KEY=VALUE...: the measured row's "iters cycles" at active_warps 4.
row() {
  local file=$1
  shift
  csv_row "$mio/$file.csv" "active_warps=4 $*" iters cycles
}
# ratio NAME FUNC B "ITERS CYCLES" LO HI [--set ...]: measured / simulated cycles in LO..HI
# (simulated rate / measured rate).
ratio() {
  local name=$1 f=$2 b=$3 meas=$4 lo=$5 hi=$6
  shift 6
  set -- "$@"
  local iters=${meas% *} cyc=${meas#* }
  [ -n "$iters" ] && [ -n "$cyc" ] || fail "$name: no measured row"
  printf '[sass]\nfile=%s\nfunction=%s\ntrip_count=%s\n[launch]\nthreads_per_block=128\nblocks_per_sm=%s\nblocks=%s\n' \
    "$sass" "$f" "$iters" "$b" $((b * 132)) >"$tmp/k.ini"
  local sim
  sim=$(timeout 120 "$bin" run --kernel "$tmp/k.ini" --format csv --no-whatif "$@" 2>"$tmp/err" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["cycles"] }')
  [ -n "$sim" ] || fail "$name: no simulated cycles: $(cat "$tmp/err")"
  awk -v s="$sim" -v m="$cyc" -v lo="$lo" -v hi="$hi" 'BEGIN { r = m / s; exit !(r >= lo && r <= hi) }' ||
    fail "$name: $cyc cycles measured, $sim simulated (allowed measured/simulated $lo..$hi)"
  ok
}
warp() { echo "_Z6k_warpILi$1ELi$2ELi$3EEvPfP3Recijjj"; } # OP_A OP_B CHAINS
ldc() { echo "_Z5k_ldcILi$1EEvPfP3Recijjjjj"; }          # CHAINS
# op indices of mio.cu: 0 match_any, 1 vote_ballot, 2 redux_sum, 3 shfl_bfly, 5 flo
m32() { row warp op_a=match_any op_b=match_any distinct_keys=32 chains="$1" blocks_per_sm="$2"; }

ratio "match 32 keys chain B=1" "$(warp 0 0 1)" 1 "$(m32 1 1)" 0.90 1.10
ratio "match 32 keys 8 chains B=4" "$(warp 0 0 8)" 4 "$(m32 8 4)" 0.90 1.10
ratio "match 32 keys 8 chains B=16" "$(warp 0 0 8)" 16 "$(m32 8 16)" 0.90 1.10
ratio "redux 8 chains B=16" "$(warp 2 2 8)" 16 \
  "$(row warp op_a=redux_sum op_b=redux_sum chains=8 blocks_per_sm=16)" 0.90 1.10
ratio "match:redux 8 chains B=8" "$(warp 0 2 8)" 8 \
  "$(row warp op_a=match_any op_b=redux_sum chains=8 blocks_per_sm=8)" 0.90 1.10
ratio "shfl chain B=1" "$(warp 3 3 1)" 1 "$(row warp op_a=shfl_bfly op_b=shfl_bfly chains=1 blocks_per_sm=1)" 0.90 1.10
ratio "flo chain B=1" "$(warp 5 5 1)" 1 "$(row warp op_a=flo op_b=flo chains=1 blocks_per_sm=1)" 0.90 1.10
ratio "flo 8 chains B=16" "$(warp 5 5 8)" 16 "$(row warp op_a=flo op_b=flo chains=8 blocks_per_sm=16)" 0.90 1.10
ratio "ballot 8 chains B=16" "$(warp 1 1 8)" 16 \
  "$(row warp op_a=vote_ballot op_b=vote_ballot chains=8 blocks_per_sm=16)" 0.90 1.10
l32() { row ldc mode=reg table_bytes=1024 stride_bytes=4 distinct=32 chains="$1" blocks_per_sm="$2"; }
ratio "indexed ldc 32 addresses chain B=1" "$(ldc 1)" 1 "$(l32 1 1)" 0.90 1.10
ratio "indexed ldc 32 addresses 8 chains B=16" "$(ldc 8)" 16 "$(l32 8 16)" 0.90 1.10
# 1 distinct key at the per-key timing (28 + 11 x 0 cycles, 2 x 1 of the unit)
for b in 1 4 16; do
  ratio "match 1 key 8 chains B=$b (MATCH:28:2)" "$(warp 0 0 8)" "$b" \
    "$(row warp op_a=match_any op_b=match_any distinct_keys=1 chains=8 blocks_per_sm="$b")" 0.95 1.05 \
    --set 'class_shuffle.opcode_timing=MATCH:28:2;REDUX:42:2'
done
# The old classes miss: MATCH and REDUX on the ALU, FLO on the ALU, the LDC as a uniform one.
int_old='IADD3;LOP3;SHF;ISETP;MOV;VIADD;SEL;PLOP3;P2R;VOTE;MATCH;REDUX;FLO;BREV'
ratio "match on the ALU (old)" "$(warp 0 0 8)" 16 "$(m32 8 16)" 5 1000 \
  --set class_shuffle.opcodes=SHFL --set class_shuffle.opcode_timing= --set "class_int.opcodes=$int_old" \
  --set class_conv.opcodes=F2F\;F2I\;I2F\;POPC
ratio "redux on the ALU (old)" "$(warp 2 2 8)" 16 \
  "$(row warp op_a=redux_sum op_b=redux_sum chains=8 blocks_per_sm=16)" 1.5 1000 \
  --set class_shuffle.opcodes=SHFL --set class_shuffle.opcode_timing= --set "class_int.opcodes=$int_old" \
  --set class_conv.opcodes=F2F\;F2I\;I2F\;POPC
ratio "flo on the ALU (old)" "$(warp 5 5 8)" 16 "$(row warp op_a=flo op_b=flo chains=8 blocks_per_sm=16)" 2 1000 \
  --set class_shuffle.opcodes=SHFL --set class_shuffle.opcode_timing= --set "class_int.opcodes=$int_old" \
  --set class_conv.opcodes=F2F\;F2I\;I2F\;POPC
ratio "indexed ldc as uniform (old)" "$(ldc 8)" 16 "$(l32 8 16)" 10 1000 --set class_special.indexed_interval=0

echo "$passed passed, 0 failed"
