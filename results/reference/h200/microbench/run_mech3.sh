#!/bin/bash
set -u
cd "$(dirname "$0")"
cp ../real/prelude.inc ../real/host.inc . 2>/dev/null; nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o mech3 mech3.cu || exit 1
cuobjdump -sass mech3 > "$OUT/mech3.sass"
OUT=$OUT ./mech3 || exit 1
cat "$OUT/mech3.csv"
