#!/bin/bash
# On the H200 (device tool), third call: write/read streams at several float offsets, then ncu
# (DRAM and L2 write traffic) on the write-only streams at B = 16. Clocks as found.
set -u
cd "$(dirname "$0")"
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o stencil_mech stencil_mech.cu || exit 1
OUT=$OUT ./stencil_mech offset || exit 1
cat "$OUT/offset.csv"
