#!/bin/bash
# On the H200 (clocks as found): build schedmb.cu with calibrate/common.cuh, dump its SASS,
# run it (stamps), then run every configuration once more under Nsight Compute (warp states,
# occupancy, and the FMA pipe's heavy and lite halves where this ncu has those counters).
# Writes schedmb.csv, schedmb_warps.csv, schedmb.sass, metrics_avail.txt, ncu_raw.csv and
# ncu.log to $OUT.  COMMON is the path of calibrate/common.cuh (default: the repository's).
set -u
: "${OUT:?set OUT to the output folder}"
here=$(cd "$(dirname "$0")" && pwd)
common=${COMMON:-$here/../../../../calibrate/common.cuh}
work=$(mktemp -d)
cp "$here/schedmb.cu" "$common" "$work/" || exit 1
cd "$work" || exit 1
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o schedmb schedmb.cu || exit 1
cuobjdump -sass schedmb > "$OUT/schedmb.sass"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
( time ./schedmb "$OUT" ) 2>&1 || exit 1
ncu --query-metrics --chip gh100 > qm.txt 2>&1
grep -E 'pipe_fma|pipe_alu|fmaheavy|fmalite' qm.txt > "$OUT/metrics_avail.txt"
want=""
for m in sm__inst_executed_pipe_fma sm__inst_executed_pipe_fmaheavy sm__inst_executed_pipe_fmalite \
         sm__inst_executed_pipe_alu sm__pipe_fma_cycles_active sm__pipe_fmaheavy_cycles_active \
         sm__pipe_fmalite_cycles_active sm__pipe_alu_cycles_active smsp__inst_executed_pipe_fma \
         smsp__inst_executed_pipe_fmaheavy smsp__inst_executed_pipe_fmalite; do
  grep -qw "$m" qm.txt && want="$want,$m.sum"
done
want=${want#,}
echo "pipe metrics: $want" | tee -a "$OUT/ncu.log"
( time timeout 300 ncu --clock-control none --section WarpStateStats --section Occupancy \
    --section SchedulerStats --section LaunchStats ${want:+--metrics $want} \
    -f -o prof ./schedmb "$work" ncu >> "$OUT/ncu.log" 2>&1 ) 2>&1
ncu --import prof.ncu-rep --page raw --csv > "$OUT/ncu_raw.csv" 2>>"$OUT/ncu.log"
ls -la "$OUT"; cat "$OUT/schedmb.csv"
