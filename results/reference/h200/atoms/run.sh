#!/bin/bash
# The real13 helper's second device call (one `run`): build, dump SASS, measure atoms.csv,
# profile five points at B = 8 (ncu --set full, clocks as found; details and source pages);
# every file goes into one tarball $OUT/atoms.tar.gz.  Runs from a copy laid out as the
# repository (results/reference/h200/atoms/ beside calibrate/common.cuh).
set -u
cd "$(dirname "$0")"
W=$(mktemp -d); R=$W/atoms; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > $R/run.txt 2>&1
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o $W/atoms_bin atoms.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
cuobjdump -sass $W/atoms_bin > $R/atoms.sass
( time timeout 120 $W/atoms_bin $R ) >> $R/run.txt 2>&1
date -u >> $R/run.txt
( time timeout 100 ncu --clock-control none --set full -f -o $W/prof $W/atoms_bin ncu ) > $R/ncu.log 2>&1
ncu --import $W/prof.ncu-rep --page details --csv > $R/ncu_details.csv 2>> $R/ncu.log
ncu --import $W/prof.ncu-rep --page source --print-source sass --csv > $R/ncu_source.csv 2>> $R/ncu.log
date -u >> $R/run.txt
gzip -k $R/atoms.sass
tar czf $OUT/atoms.tar.gz -C $W atoms
tail -8 $R/run.txt; tail -3 $R/ncu.log; cat $R/atoms.csv
