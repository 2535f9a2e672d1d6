#!/bin/bash
# On the H200 (device tool), second call: read alignment and scattered partial stores
# (stencil_mech access) and one ncu process over them at B = 8. Clocks as found.
set -u
cd "$(dirname "$0")"
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o stencil_mech stencil_mech.cu || exit 1
OUT=$OUT ./stencil_mech access || exit 1
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum
timeout 200 ncu --clock-control none --metrics "$M" --csv ./stencil_mech ncu r0:8 r1:8 r2:8 r3:8 r0:16 r2:16 s0:8 s1:8 w0:16 w1:16 > "$OUT/ncu_access.csv" 2> "$OUT/ncu_access.err"
echo "ncu rc $?"; tail -2 "$OUT/ncu_access.err"
cat "$OUT/access.csv"; grep -c , "$OUT/ncu_access.csv"
