#!/bin/bash
# On the H200 (one `run` call): build, dump SASS, check, measure the curves, profile once at
# B = 8 (ncu --set full, clocks as found), export details and per-kernel SASS source; all files
# go into one tarball $OUT/real10.tar.gz (the device returns a limited number of files).
set -u
cd "$(dirname "$0")"
W=$(mktemp -d); R=$W/r10; mkdir -p $R/ncu $R/sass
cp ../real/prelude.inc ../real/host.inc kernels10.cu $W/
cd $W
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o real10 kernels10.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
cuobjdump -sass real10 > $R/sass/kernels10.sass
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > $R/nvidia-smi.csv 2>&1
date -u > $R/date.txt
./real10 check 2>&1 | tee $R/check.log
( time OUT=$R ./real10 measure ) > $R/measure.log 2>&1; tail -4 $R/measure.log
( time timeout 420 ncu --clock-control none --set full -f -o prof ./real10 ncu8 ) > $R/ncu/ncu.log 2>&1
tail -5 $R/ncu/ncu.log
ncu --import prof.ncu-rep --page details --csv > $R/ncu/details10_b8.csv 2>>$R/ncu/ncu.log
for k in k_wmma k_cpasync k_h2axpy k_shist k_ihash k_dgemm k_bsort; do
  ncu --import prof.ncu-rep --kernel-name "$k" --page source --print-source sass --csv > $R/ncu/${k#k_}_source_b8.csv 2>>$R/ncu/ncu.log
done
date -u >> $R/date.txt
tar czf $OUT/real10.tar.gz -C $W r10
ls -la $R $R/ncu; cat $R/real10.csv $R/attrs10.csv
