#!/bin/bash
# On the H200 (device tool): build, dump SASS, measure curves (stencil variants, write alignment,
# rw streams), then one ncu process over chosen launches with L1/L2/DRAM metrics. Clocks as found.
set -u
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv > "$OUT/gpu.txt"
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o stencil_mech stencil_mech.cu || exit 1
cuobjdump -sass stencil_mech > "$OUT/stencil_mech.sass"
OUT=$OUT ./stencil_mech measure || exit 1
ncu --query-metrics > /tmp/qm.txt 2>&1
M=""
for m in dram__bytes_read.sum dram__bytes_write.sum gpu__time_duration.sum sm__cycles_elapsed.avg \
  dram__throughput.avg.pct_of_peak_sustained_elapsed lts__t_sectors_srcunit_tex_op_read.sum \
  lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum \
  lts__t_sectors_srcunit_tex_op_write.sum lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum \
  lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum lts__t_sectors_srcunit_ltcfabric.sum \
  lts__t_requests_srcunit_tex_op_write.sum lts__d_sectors_fill_device.sum lts__t_sectors_srcunit_tex.sum \
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum \
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum \
  l1tex__m_xbar2l1tex_read_sectors.sum l1tex__m_l1tex2xbar_write_sectors.sum \
  smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio \
  smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio smsp__inst_executed.sum; do
  b=${m%.*}; b=${b%.avg}; grep -qE "^$b( |$)" /tmp/qm.txt && M="$M,$m" || echo "no metric $m"
done
M=${M#,}; [ -n "$M" ] || { echo "query-metrics gave nothing"; head -5 /tmp/qm.txt; M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum; }
L="7:1 7:2 7:4 7:6 7:8 7:12 0:8 1:2 1:8 1:12 2:2 2:8 2:12 3:8 4:2 4:8 5:8 5:12 6:8 6:12 w0:8 w1:8 w2:8 w3:8"
timeout 300 ncu --clock-control none --metrics "$M" --csv ./stencil_mech ncu $L > "$OUT/ncu_stencil_mech.csv" 2> "$OUT/ncu.err"
echo "ncu rc $?"; tail -3 "$OUT/ncu.err"
cat "$OUT/stencil_mech.csv" "$OUT/wr_align.csv" "$OUT/rw.csv"; cat "$OUT/gpu.txt"; grep -c , "$OUT/ncu_stencil_mech.csv"
