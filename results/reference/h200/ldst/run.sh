#!/usr/bin/env bash
# run.sh - the device call: build, SASS, curves, one Nsight Compute probe at B = 8 (it ran
# from a copy two folders below the repository root, with -I../../calibrate; OUT: the output folder).
set -u
cd "$(dirname "$0")"
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $OUT/device.txt 2>&1
nvcc --version | tail -2 >> $OUT/device.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -I../../../../calibrate -o ldst ldst.cu || exit 1
cuobjdump -sass ldst | gzip -9 > $OUT/ldst.sass.gz
./ldst curves $OUT || exit 1
echo "curves done $(( $(date +%s) - t0 )) s" | tee -a $OUT/log.txt
ncu --version | tail -1 >> $OUT/device.txt
timeout 150 ncu --set full --cache-control none --clock-control none --kernel-name 'regex:k_ldst' -o $OUT/probe_b8 ./ldst probe 8 $OUT > $OUT/ncu_b8.log 2>&1
echo "ncu rc $? $(( $(date +%s) - t0 )) s" | tee -a $OUT/log.txt
mkdir -p $OUT/ncu
ncu --import $OUT/probe_b8.ncu-rep --page details --csv > $OUT/ncu/details_b8.csv 2>>$OUT/ncu_b8.log
ncu --import $OUT/probe_b8.ncu-rep --page raw --csv > $OUT/ncu/raw_b8.csv 2>>$OUT/ncu_b8.log
ncu --import $OUT/probe_b8.ncu-rep --page source --print-source sass --csv > $OUT/ncu/source_b8.csv 2>>$OUT/ncu_b8.log
gzip -9 $OUT/ncu/raw_b8.csv
rm -f $OUT/probe_b8.ncu-rep
echo "all done $(( $(date +%s) - t0 )) s" | tee -a $OUT/log.txt
ls -la $OUT $OUT/ncu
