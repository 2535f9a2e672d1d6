#!/bin/bash
# On the H200: build, dump SASS, measure the curves, profile once at B = 8 (ncu, clocks as found).
set -u
cd "$(dirname "$0")"
cp ../real/prelude.inc ../real/host.inc . 2>/dev/null
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o real5 kernels5.cu || exit 1
cuobjdump -sass real5 > "$OUT/kernels5.sass"
( time OUT=$OUT ./real5 measure ) 2>&1 || exit 1
( time timeout 400 ncu --clock-control none --set full -f -o prof ./real5 ncu8 > "$OUT/ncu.log" 2>&1 ) 2>&1
tail -3 "$OUT/ncu.log"
ncu --import prof.ncu-rep --page details --csv > "$OUT/details5_b8.csv" 2>>"$OUT/ncu.log"
for k in k_ghist k_divg; do
  ncu --import prof.ncu-rep --kernel-name "$k" --page source --print-source sass --csv > "$OUT/${k#k_}_source_b8.csv" 2>>"$OUT/ncu.log"
done
ls -la "$OUT"; cat "$OUT/real5.csv" "$OUT/attrs5.csv"
