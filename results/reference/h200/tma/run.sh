#!/bin/bash
# The tma helper's device call (one `run`): build, dump SASS, measure tex.csv, bulk.csv,
# fence.csv, cluster.csv, profile seven points at B = 8 (ncu --set full, clocks as found);
# every file goes into one tarball $OUT/tma.tar.gz.  Runs from a copy laid out as the
# repository (results/reference/h200/tma/ beside calibrate/common.cuh).
set -u
cd "$(dirname "$0")"
W=$(mktemp -d); R=$W/tma; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > $R/run.txt 2>&1
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o $W/tma_bin tma.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
cuobjdump -sass $W/tma_bin > $R/tma.sass
( time timeout 120 $W/tma_bin $R ) >> $R/run.txt 2>&1
date -u >> $R/run.txt
( time timeout 60 ncu --clock-control none --set full -f -o $W/prof $W/tma_bin ncu ) > $R/ncu.log 2>&1
ncu --import $W/prof.ncu-rep --page details --csv > $R/ncu_details.csv 2>> $R/ncu.log
ncu --import $W/prof.ncu-rep --page raw --csv > $R/ncu_raw.csv 2>> $R/ncu.log
date -u >> $R/run.txt
gzip -k $R/tma.sass
tar czf $OUT/tma.tar.gz -C $W tma
tail -25 $R/run.txt; tail -3 $R/ncu.log; wc -l $R/*.csv; ls -la $R
