#!/bin/bash
# The device call of alu2 (one `run`): build, dump SASS, measure int.csv, fp64.csv and
# mma.csv, profile the probe family's nine launches at B = 8 (ncu --set full, clocks as
# found); every file goes into one tarball $OUT/alu2.tar.gz.  Runs from a copy laid out
# as the repository (results/reference/h200/alu2/ beside calibrate/common.cuh, gload.cuh).
set -u
cd "$(dirname "$0")"
W=$(mktemp -d); R=$W/alu2; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > $R/run.txt 2>&1
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o $W/alu2_bin alu2.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
cuobjdump -sass $W/alu2_bin > $R/alu2.sass
( time timeout 150 $W/alu2_bin int,fp64,mma $R ) >> $R/run.txt 2>&1
date -u >> $R/run.txt
( time timeout 90 ncu --clock-control none --set full -f -o $W/prof $W/alu2_bin probe $R ) > $R/ncu.log 2>&1
ncu --import $W/prof.ncu-rep --page details --csv > $R/ncu_details.csv 2>> $R/ncu.log
ncu --import $W/prof.ncu-rep --page raw --csv > $R/ncu_raw.csv 2>> $R/ncu.log
date -u >> $R/run.txt
tar czf $OUT/alu2.tar.gz -C $W alu2
tail -25 $R/run.txt; tail -3 $R/ncu.log; wc -l $R/*.csv; ls -la $R
