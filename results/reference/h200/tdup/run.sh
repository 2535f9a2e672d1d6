#!/bin/bash
# What ran on the H200 (device call 2, 2026-12-03 ~20:13 UTC) as build-hurts/go.sh, beside the
# binary built on the host: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o tdup tdup.cu
# ($OUT: the folder whose files came back; tdup.csv, probe.csv, ncu_probe.csv, device.txt here).
set -u
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/device.txt 2>&1
./tdup curves $OUT > $OUT/curves.log 2>&1; echo "curves rc=$?" >> $OUT/curves.log
if command -v ncu >/dev/null; then
  timeout 200 ncu --clock-control none --cache-control none --kernel-name regex:k_tr \
    --metrics lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,gpu__time_duration.sum \
    --csv ./tdup probe $OUT > $OUT/ncu_probe.csv 2> $OUT/ncu.log; echo "ncu rc=$?" >> $OUT/ncu.log
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >> $OUT/device.txt 2>&1
