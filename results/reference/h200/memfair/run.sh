#!/bin/bash
# On the H200 (clocks as found): build memfair.cu with calibrate/common.cuh, dump its SASS,
# run it (stamps), then profile three points once under Nsight Compute (warp states and
# achieved occupancy: st_L4_F0_dram B = 8, st_L1_F4_dram B = 16, saxpy4 B = 8).
# Writes memfair.csv, memfair_warps.csv, memfair.sass, gpu.txt, ncu_raw.csv and ncu.log to
# $OUT.  COMMON is the path of calibrate/common.cuh (default: the repository's).
set -u
: "${OUT:?set OUT to the output folder}"
here=$(cd "$(dirname "$0")" && pwd)
common=${COMMON:-$here/../../../../calibrate/common.cuh}
work=$(mktemp -d)
cp "$here/memfair.cu" "$common" "$work/" || exit 1
cd "$work" || exit 1
( time nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o memfair memfair.cu ) 2>&1 || exit 1
cuobjdump -sass memfair > "$OUT/memfair.sass"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
( time ./memfair "$OUT" ) 2>&1 || exit 1
( time timeout 120 ncu --clock-control none --section WarpStateStats --section Occupancy \
    --section SchedulerStats --section LaunchStats \
    -f -o prof ./memfair "$work" ncu > "$OUT/ncu.log" 2>&1 ) 2>&1
ncu --import prof.ncu-rep --page raw --csv > "$OUT/ncu_raw.csv" 2>>"$OUT/ncu.log"
ls -la "$OUT"; cat "$OUT/memfair.csv"
