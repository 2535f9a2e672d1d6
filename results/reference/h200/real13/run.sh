#!/bin/bash
# On the H200 (one `run` call): build, dump SASS, check, measure the curves, profile once at
# B = 8 (ncu --set full, clocks as found), export details and per-kernel SASS source; every
# kernel runs in its own process so one failure cannot take the others with it.  All files go
# into one tarball $OUT/real13.tar.gz (the device returns a limited number of files).
set -u
cd "$(dirname "$0")"
W=$(mktemp -d); R=$W/r13; mkdir -p $R/ncu $R/sass
cp ../real/prelude.inc ../real/host.inc kernels13.cu $W/
cd $W
KS="lnorm radix fft mcarlo st3d wspec kmeans fp8"
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o real13 kernels13.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
cuobjdump -sass real13 > $R/sass/kernels13.sass
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > $R/nvidia-smi.csv 2>&1
date -u > $R/date.txt
for k in $KS; do timeout 60 ./real13 check $k; echo "rc $k $?"; done > $R/check.log 2>&1; cat $R/check.log
echo "kernel,blocks_per_sm,warps_per_sm,dyn_smem,cycles,work_per_cycle_per_sm,unit,blocks_min,blocks_max" > $R/real13.csv
echo "kernel,regs,static_smem,local_bytes,max_blocks_per_sm_no_pad,work_per_block,unit" > $R/attrs13.csv
for k in $KS; do
  ( time OUT=$R timeout 60 ./real13 measure $k ) >> $R/measure.log 2>&1; echo "rc $k $?" >> $R/measure.log
  cat $R/real13_$k.csv >> $R/real13.csv 2>/dev/null; cat $R/attrs13_$k.csv >> $R/attrs13.csv 2>/dev/null
  rm -f $R/real13_$k.csv $R/attrs13_$k.csv
done
tail -3 $R/measure.log
for k in $KS; do
  ( time timeout 100 ncu --clock-control none --set full -f -o prof_$k ./real13 ncu8 $k ) >> $R/ncu/ncu.log 2>&1
  echo "rc $k $?" >> $R/ncu/ncu.log
  ncu --import prof_$k.ncu-rep --page details --csv > $R/ncu/${k}_details_b8.csv 2>>$R/ncu/ncu.log
  ncu --import prof_$k.ncu-rep --page source --print-source sass --csv > $R/ncu/${k}_source_b8.csv 2>>$R/ncu/ncu.log
done
grep -E "^rc|^real" $R/ncu/ncu.log
date -u >> $R/date.txt
tar czf $OUT/real13.tar.gz -C $W r13
ls -la $R $R/ncu; cat $R/real13.csv $R/attrs13.csv
