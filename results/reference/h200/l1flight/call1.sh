#!/bin/bash
# l1flight device call 1: the curves (load.csv), the SASS of the binary, one Nsight Compute
# probe at B = 8 (details and raw pages), and, while time is left, the curves again
# (rerun/load.csv); one tarball comes back.  The binary is built beforehand with
#   nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o build-l1flight/l1flight l1flight.cu
set -u
bin=$PWD/build-l1flight/l1flight
R=$OUT/r; mkdir -p $R/ncu $R/rerun
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.current.sm,clocks.max.sm,clocks.mem --format=csv > $R/device.txt 2>&1
nvidia-smi -q -d CLOCK | grep -v '^$' | head -40 >> $R/device.txt 2>&1
ncu --version | tail -1 >> $R/device.txt 2>&1
(cuobjdump -sass $bin | gzip > $R/l1flight.sass.gz) 2> $R/cuobjdump.err
$bin curves $R > $R/curves.log 2>&1; echo "curves rc=$? $(( $(date +%s) - T0 )) s" >> $R/times.txt
ncu --set full --cache-control none --clock-control none --kernel-name 'regex:^k_ld' \
  -o $R/ncu/probe_b8 $bin probe 8 $R > $R/ncu/ncu_b8.log 2>&1; echo "ncu rc=$? $(( $(date +%s) - T0 )) s" >> $R/times.txt
ncu -i $R/ncu/probe_b8.ncu-rep --page details --csv > $R/ncu/details_b8.csv 2>> $R/ncu/ncu_b8.log
ncu -i $R/ncu/probe_b8.ncu-rep --page raw --csv | gzip > $R/ncu/raw_b8.csv.gz 2>> $R/ncu/ncu_b8.log
rm -f $R/ncu/probe_b8.ncu-rep
if [ $(( $(date +%s) - T0 )) -lt 330 ]; then
  $bin curves $R/rerun > $R/rerun/curves.log 2>&1; echo "rerun rc=$? $(( $(date +%s) - T0 )) s" >> $R/times.txt
fi
tar czf $OUT/call1.tgz -C $OUT r
