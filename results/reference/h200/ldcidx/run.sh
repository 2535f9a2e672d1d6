#!/bin/bash
# The cdiv helper's device call (one `run`): build, dump SASS, measure ldcidx.csv and cdiv.csv,
# profile six points at B = 8 (ncu --set full, clocks as found); every file goes into one
# tarball $OUT/ldcidx.tar.gz.  Runs in the repository (results/reference/h200/ldcidx/ beside
# calibrate/common.cuh): bash results/reference/h200/ldcidx/run.sh
set -u
cd "$(dirname "$0")"
W=$(mktemp -d); R=$W/ldcidx; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > $R/run.txt 2>&1
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o $W/ldcidx_bin ldcidx.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
cuobjdump -sass $W/ldcidx_bin > $R/ldcidx.sass
( time timeout 120 $W/ldcidx_bin $R ) >> $R/run.txt 2>&1
date -u >> $R/run.txt
( time timeout 100 ncu --clock-control none --set full -f -o $W/prof $W/ldcidx_bin ncu ) > $R/ncu.log 2>&1
ncu --import $W/prof.ncu-rep --page details --csv > $R/ncu_details.csv 2>> $R/ncu.log
ncu --import $W/prof.ncu-rep --page raw --csv > $R/ncu_raw.csv 2>> $R/ncu.log
date -u >> $R/run.txt
gzip -9 $R/ldcidx.sass $R/ncu_raw.csv
tar czf $OUT/ldcidx.tar.gz -C $W ldcidx
tail -12 $R/run.txt; tail -3 $R/ncu.log; wc -l $R/*.csv; ls -la $R
grep -c "LDC R[0-9]*, c\[0x3\]\[R" <(zcat $R/ldcidx.sass.gz)
