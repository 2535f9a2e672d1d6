#!/bin/bash
# The dsmem helper's device call (one `run`): build, dump SASS, measure chain.csv, load.csv,
# store.csv, placement.csv (+ placement_summary.csv, cta_b9_c2.csv, cta_b16_c2.csv), profile
# four points at B = 8, clusters of 2 (ncu --set full, clocks as found, details and source
# pages); every file goes into one tarball $OUT/dsmem.tar.gz.  Runs from the repository root's
# copy (results/reference/h200/dsmem/ beside calibrate/common.cuh).
set -u
cd "$(dirname "$0")"
W=$(mktemp -d); R=$W/dsmem; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > $R/run.txt 2>&1
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o $W/dsmem_bin dsmem.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
cuobjdump -sass $W/dsmem_bin > $R/dsmem.sass
( time timeout 150 $W/dsmem_bin $R ) >> $R/run.txt 2>&1
date -u >> $R/run.txt
( time timeout 100 ncu --clock-control none --set full --import-source no -f -o $W/prof $W/dsmem_bin ncu ) > $R/ncu.log 2>&1
ncu --import $W/prof.ncu-rep --page details --csv > $R/ncu_details.csv 2>> $R/ncu.log
ncu --import $W/prof.ncu-rep --page raw --csv > $R/ncu_raw.csv 2>> $R/ncu.log
ncu --import $W/prof.ncu-rep --page source --print-source sass --csv > $R/ncu_source.csv 2>> $R/ncu.log
date -u >> $R/run.txt
gzip $R/ncu_raw.csv
gzip -k $R/dsmem.sass
tar czf $OUT/dsmem.tar.gz -C $W dsmem
tail -30 $R/run.txt; tail -3 $R/ncu.log; wc -l $R/*.csv; ls -la $R
