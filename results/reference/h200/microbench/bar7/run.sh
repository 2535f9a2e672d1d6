#!/bin/bash
# On the H200, from this folder of the repository (the harness is ../../real/prelude.inc and
# host.inc; it ran with copies beside it): build, dump SASS, measure the curves, profile once at B = 8 (ncu, clocks as found).
set -u
cd "$(dirname "$0")"
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -I../../real -o bar7 bar7.cu || exit 1
cuobjdump -sass bar7 > "$OUT/bar7.sass"
( time OUT=$OUT ./bar7 ) 2>&1 || exit 1
( time timeout 300 ncu --clock-control none --set full -f -o prof ./bar7 ncu8 > "$OUT/ncu.log" 2>&1 ) 2>&1
tail -3 "$OUT/ncu.log"
ncu --import prof.ncu-rep --page details --csv > "$OUT/details7_b8.csv" 2>>"$OUT/ncu.log"
for k in bar lds ldsoff sts tree tree8; do
  ncu --import prof.ncu-rep --kernel-name "k_$k" --page source --print-source sass --csv > "$OUT/${k}_source_b8.csv" 2>>"$OUT/ncu.log"
done
cd "$OUT" && tar czf src.tgz *_source_b8.csv && rm -f *_source_b8.csv; ls -la "$OUT"
