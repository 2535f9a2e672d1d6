#!/bin/bash
# On the H200: build, dump SASS, measure the curves, profile once at B = 8 (ncu, clocks as found).
set -u
cd "$(dirname "$0")"
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o real2 kernels2.cu || exit 1
cuobjdump -sass real2 > "$OUT/kernels2.sass"
OUT=$OUT ./real2 measure || exit 1
timeout 300 ncu --clock-control none --set full -f -o prof ./real2 ncu8 > "$OUT/ncu.log" 2>&1
tail -3 "$OUT/ncu.log"
ncu --import prof.ncu-rep --page details --csv > "$OUT/details2_b8.csv" 2>>"$OUT/ncu.log"
for k in k_blur k_mv; do
  ncu --import prof.ncu-rep --kernel-name "$k" --page source --print-source sass --csv > "$OUT/${k#k_}_source_b8.csv" 2>>"$OUT/ncu.log"
done
ls -la "$OUT"; cat "$OUT/real2.csv"
