#!/bin/bash
# On the H200: build, dump SASS, measure the curves, profile once at B = 8 (ncu, clocks as found).
set -u
cd "$(dirname "$0")"
cp ../real/prelude.inc ../real/host.inc . 2>/dev/null
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o real7 kernels7.cu || exit 1
cuobjdump -sass real7 > "$OUT/kernels7.sass"
( time OUT=$OUT ./real7 measure ) 2>&1 || exit 1
( time timeout 400 ncu --clock-control none --set full -f -o prof ./real7 ncu8 > "$OUT/ncu.log" 2>&1 ) 2>&1
tail -3 "$OUT/ncu.log"
ncu --import prof.ncu-rep --page details --csv > "$OUT/details7_b8.csv" 2>>"$OUT/ncu.log"
for k in k_vmix k_v4; do
  ncu --import prof.ncu-rep --kernel-name "$k" --page source --print-source sass --csv > "$OUT/${k#k_}_source_b8.csv" 2>>"$OUT/ncu.log"
done
ls -la "$OUT"; cat "$OUT/real7.csv" "$OUT/attrs7.csv"
