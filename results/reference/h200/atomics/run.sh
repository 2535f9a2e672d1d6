#!/bin/bash
# Device call 1 of the atomics helper: build, SASS, measure, profile 5 points.
set -u
cd "$(dirname "$0")"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.current.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > "$OUT/run.txt"
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o atomics atomics.cu || exit 1
cuobjdump -sass atomics | gzip -9 > "$OUT/atomics.sass.gz"
( time ./atomics "$OUT" ) >> "$OUT/run.txt" 2>&1
date -u >> "$OUT/run.txt"
( time timeout 150 ncu --clock-control none --set full -f -o prof ./atomics ncu > "$OUT/ncu.log" 2>&1 ) 2>> "$OUT/run.txt"
ncu --import prof.ncu-rep --page details --csv > "$OUT/ncu_details.csv" 2>> "$OUT/ncu.log"
ncu --import prof.ncu-rep --page raw --csv > "$OUT/ncu_raw.csv" 2>> "$OUT/ncu.log"
( time timeout 60 ncu --clock-control none --csv --metrics lts__t_requests_op_red.sum,lts__t_sectors_op_red.sum,lts__t_requests_op_atom.sum,lts__t_sectors_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,sm__cycles_active.avg ./atomics ncu > "$OUT/ncu_metrics.csv" 2>&1 ) 2>> "$OUT/run.txt"
date -u >> "$OUT/run.txt"
gzip -9 "$OUT/ncu_raw.csv"
ls -la "$OUT"; tail -5 "$OUT/run.txt"; wc -l "$OUT"/*.csv
