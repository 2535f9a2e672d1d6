#!/bin/bash
# On the H200: build, dump SASS, measure the curves, profile once at B = 8 (ncu, clocks as found).
set -u
cd "$(dirname "$0")"
cp ../real/prelude.inc ../real/host.inc . 2>/dev/null
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o real3 kernels3.cu || exit 1
cuobjdump -sass real3 > "$OUT/kernels3.sass"
( time OUT=$OUT ./real3 measure ) 2>&1 || exit 1
( time timeout 400 ncu --clock-control none --set full -f -o prof ./real3 ncu8 > "$OUT/ncu.log" 2>&1 ) 2>&1
tail -3 "$OUT/ncu.log"
ncu --import prof.ncu-rep --page details --csv > "$OUT/details3_b8.csv" 2>>"$OUT/ncu.log"
for k in k_hist k_reduce k_transpose33 k_gather_l2 k_conv k_mufu k_dpoly; do
  ncu --import prof.ncu-rep --kernel-name "$k" --page source --print-source sass --csv > "$OUT/${k#k_}_source_b8.csv" 2>>"$OUT/ncu.log"
done
ls -la "$OUT"; cat "$OUT/real3.csv" "$OUT/attrs3.csv"
