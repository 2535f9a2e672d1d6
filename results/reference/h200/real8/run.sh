#!/bin/bash
# On the H200: build stores.cu, dump SASS, measure the curves ($OUT/stores.csv), profile each
# kernel once at B = 8 (ncu --set full, clocks as found) and export the details and source pages.
# (It ran with the exports named by mangled kernel name; they are stored here as
# ncu/<kernel>_source_b8.csv and ncu/details8_b8.csv, and curves.csv was made from stores.csv
# with the dyn_smem that host.inc's padding gives at each B: README.md.)
set -u
cd "$(dirname "$0")"
cp ../real/prelude.inc ../real/host.inc . 2>/dev/null
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o stores stores.cu || exit 1
cuobjdump -sass stores > "$OUT/stores.sass"
( time ./stores ) 2>&1 || exit 1
( time timeout 400 ncu --clock-control none --set full -f -o prof ./stores ncu8 > "$OUT/ncu.log" 2>&1 ) 2>&1
tail -3 "$OUT/ncu.log"
ncu --import prof.ncu-rep --page details --csv > "$OUT/details8_b8.csv" 2>>"$OUT/ncu.log"
while read -r name k; do
  ncu --import prof.ncu-rep --kernel-name-base mangled --kernel-name "$k" --page source --print-source sass --csv > "$OUT/${name}_source_b8.csv" 2>>"$OUT/ncu.log"
done <<'LIST'
store1f _Z7k_storeILi1EfEvPT0_miP3Recf
copy1f _Z6k_copyILi1EfEvPKT0_PS0_miP3Recf
store4f _Z7k_storeILi4EfEvPT0_miP3Recf
copy4f _Z6k_copyILi4EfEvPKT0_PS0_miP3Recf
store1f4 _Z7k_storeILi1E6float4EvPT0_miP3Recf
copy1f4 _Z6k_copyILi1E6float4EvPKT0_PS1_miP3Recf
store4f4 _Z7k_storeILi4E6float4EvPT0_miP3Recf
copy4f4 _Z6k_copyILi4E6float4EvPKT0_PS1_miP3Recf
LIST
ls -la "$OUT"
cat "$OUT/stores.csv"
