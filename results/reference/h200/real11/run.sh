#!/bin/bash
# On the H200 (one `run` call): build, dump SASS, check, measure the curves, profile once at
# B = 8 (ncu --set full, clocks as found), export details and per-kernel SASS source; all files
# go into one tarball $OUT/real11.tar.gz (the device returns a limited number of files).
set -u
cd "$(dirname "$0")"
W=$(mktemp -d); R=$W/r11; mkdir -p $R/ncu $R/sass
cp ../real/prelude.inc ../real/host.inc kernels11.cu $W/
cd $W
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o real11 kernels11.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
cuobjdump -sass real11 > $R/sass/kernels11.sass
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > $R/nvidia-smi.csv 2>&1
date -u > $R/date.txt
./real11 check 2>&1 | tee $R/check.log
( time OUT=$R ./real11 measure ) > $R/measure.log 2>&1; tail -4 $R/measure.log
( time timeout 420 ncu --clock-control none --set full -f -o prof ./real11 ncu8 ) > $R/ncu/ncu.log 2>&1
tail -5 $R/ncu/ncu.log
ncu --import prof.ncu-rep --page details --csv > $R/ncu/details11_b8.csv 2>>$R/ncu/ncu.log
for k in k_dp4a k_vote k_aos12 k_lmem k_cdiv k_cas k_dsqrt k_mix64; do
  ncu --import prof.ncu-rep --kernel-name "$k" --page source --print-source sass --csv > $R/ncu/${k#k_}_source_b8.csv 2>>$R/ncu/ncu.log
done
date -u >> $R/date.txt
tar czf $OUT/real11.tar.gz -C $W r11
ls -la $R $R/ncu; cat $R/real11.csv $R/attrs11.csv
