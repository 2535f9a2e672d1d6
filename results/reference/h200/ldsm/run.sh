#!/bin/bash
# On the H200 (one `run` call, from the repository root): build, dump SASS, measure the curves,
# then count shared-memory wavefronts per instruction with Nsight Compute on the probe launches
# (B = 1, clocks as found); everything goes into one tarball $OUT/ldsm.tar.gz.
set -u
cd "$(dirname "$0")"
R=$(mktemp -d)/ldsm; mkdir -p $R
date -u > $R/date.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o $R/ldsm ldsm.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
cuobjdump -sass $R/ldsm > $R/ldsm.sass
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > $R/nvidia-smi.csv 2>&1
( time $R/ldsm $R ) > $R/measure.log 2>&1; tail -4 $R/measure.log
mkdir -p $R/probe
( time timeout 150 ncu --clock-control none --csv --metrics smsp__inst_executed.sum,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__cycles_active.avg $R/ldsm $R/probe probe ) > $R/ncu.csv 2> $R/ncu.log
tail -3 $R/ncu.log
date -u >> $R/date.txt
rm -f $R/ldsm
tar czf $OUT/ldsm.tar.gz -C $(dirname $R) ldsm
ls -la $R; cat $R/*.csv | head -150
