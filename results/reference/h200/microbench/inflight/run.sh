#!/bin/bash
# On the H200: build and run inflight.cu (clocks as found); writes $OUT/inflight.csv.
set -u
cd "$(dirname "$0")"
cp ../../real/prelude.inc ../../real/host.inc . 2>/dev/null
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o inflight inflight.cu || exit 1
cuobjdump -sass inflight | grep -c "LDG" > "$OUT/ldg_count.txt"
( time ./inflight ) 2>&1 || exit 1
cat "$OUT/inflight.csv"
