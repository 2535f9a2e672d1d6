#!/bin/bash
# On the H200: build, dump SASS, measure the curves, profile once at B = 8 (ncu, clocks as found).
set -u
cd "$(dirname "$0")"
cp ../real/prelude.inc ../real/host.inc . 2>/dev/null
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o real9 kernels9.cu || exit 1
cuobjdump -sass real9 > "$OUT/kernels9.sass"
( time OUT=$OUT ./real9 measure ) 2>&1 || exit 1
( time timeout 400 ncu --clock-control none --set full -f -o prof ./real9 ncu8 > "$OUT/ncu.log" 2>&1 ) 2>&1
tail -3 "$OUT/ncu.log"
ncu --import prof.ncu-rep --page details --csv > "$OUT/details9_b8.csv" 2>>"$OUT/ncu.log"
for k in k_st2d k_rowsm k_gstore k_mm32 k_colsum; do
  ncu --import prof.ncu-rep --kernel-name "$k" --page source --print-source sass --csv > "$OUT/${k#k_}_source_b8.csv" 2>>"$OUT/ncu.log"
done
ls -la "$OUT"; cat "$OUT/real9.csv" "$OUT/attrs9.csv"
# The device returned at most eight files per run, so st2d's and rowsm's source exports were
# made by a second profile of the same binary (ncu/ncu2.log):
#   ncu --clock-control none --set full -k regex:'k_st2d|k_rowsm' -f -o prof2 ./real9 ncu8
#   ncu --import prof2.ncu-rep --kernel-name k_st2d|k_rowsm --page source --print-source sass --csv
