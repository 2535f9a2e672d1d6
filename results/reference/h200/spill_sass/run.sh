#!/bin/bash
# On the H200: build (ptxas -v kept), dump SASS, measure the curves, then Nsight Compute
# (clocks as found): --set full of caps 48 and 32 at B = 8, and the local-memory L1 counters of
# every cap at its maximum B and at B = 8.
set -u
cd "$(dirname "$0")"
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o spill3 kernels3.cu > "$OUT/ptxas_v.txt" 2>&1 || { cat "$OUT/ptxas_v.txt"; exit 1; }
cuobjdump -sass spill3 > "$OUT/kernels3.sass"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$OUT/run.log"
OUT=$OUT ./spill3 measure || exit 1
cat "$OUT/attrs3.csv"
m=$(ncu --query-metrics 2>/dev/null | awk '{print $1}' | grep -E '^(l1tex__t_(sectors|requests)_pipe_lsu_mem_local_op_(ld|st)(_lookup_hit|_lookup_miss)?|smsp__inst_executed_op_local_(ld|st)|lts__t_sectors_srcunit_tex_aperture_device_op_read_lookup_(hit|miss)|l1tex__t_sectors_pipe_lsu_mem_global_op_ld(_lookup_hit)?)$' | sed 's/$/.sum/' | paste -sd,)
[ -n "$m" ] || m=l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum
echo "metrics: $m"
timeout 90 ncu --clock-control none --metrics "$m" --csv ./spill3 ncumetrics > ncu_local_metrics.csv 2>> "$OUT/run.log"
tail -2 "$OUT/run.log"
timeout 150 ncu --clock-control none --set full --kernel-name regex:'^k_spill_(48|32)$' -f -o prof ./spill3 ncufull >> "$OUT/run.log" 2>&1
ncu --import prof.ncu-rep --page details --csv > details3_b8.csv 2>>"$OUT/run.log"
for c in 48 32; do
  ncu --import prof.ncu-rep --kernel-name "k_spill_${c}" --page source --print-source sass --csv > "spill_${c}_source_b8.csv" 2>>"$OUT/run.log"
done
tar czf "$OUT/ncu.tgz" ncu_local_metrics.csv details3_b8.csv spill_*_source_b8.csv
tail -5 "$OUT/run.log"; ls -la "$OUT" .; cat "$OUT/spill3.csv"
