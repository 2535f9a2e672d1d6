#!/bin/bash
# On the H200 (device tool), fourth call: who completes a part-written sector (stencil_mech sync).
set -u
cd "$(dirname "$0")"
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o stencil_mech stencil_mech.cu || exit 1
OUT=$OUT ./stencil_mech sync || exit 1
cat "$OUT/sync.csv"
