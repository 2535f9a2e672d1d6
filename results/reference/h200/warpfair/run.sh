#!/bin/bash
# On the H200 (clocks as found): build warpfair.cu with calibrate/common.cuh, dump its SASS,
# run it, and profile fma1 and ldfma at B = 4 and 16 once (achieved occupancy beside the stamps).
# Writes warpfair.csv, warpfair_summary.csv, warpfair.sass, details_fair.csv and ncu.log to $OUT.
set -u
: "${OUT:?set OUT to the output folder}"
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
cp "$here/warpfair.cu" "$here/../../../../calibrate/common.cuh" "$work/" || exit 1
cd "$work" || exit 1
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o warpfair warpfair.cu || exit 1
cuobjdump -sass warpfair > "$OUT/warpfair.sass"
( time ./warpfair "$OUT" ) 2>&1 || exit 1
# The stamps are the measurement; the profile only ties them to Nsight Compute's achieved
# occupancy: the first 64 launches (fma1 and fma4 at B = 1..16, warm-up and kept launch each).
( time timeout 300 ncu --clock-control none --section Occupancy --section SchedulerStats \
    --section LaunchStats --launch-count 64 -f -o prof ./warpfair "$work" > "$OUT/ncu.log" 2>&1 ) 2>&1
ncu --import prof.ncu-rep --page details --csv > "$OUT/details_fair.csv" 2>>"$OUT/ncu.log"
ls -la "$OUT"; head -40 "$OUT/warpfair_summary.csv"
