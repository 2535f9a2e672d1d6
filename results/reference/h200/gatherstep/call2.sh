#!/bin/bash
# gather4 device call 2: the curves again (a repeat), the DRAM span curves, their SASS, and
# one Nsight Compute probe of the L2 fabric / DRAM counters; one tarball comes back.
set -u
cd "$(dirname "$0")"
R=$OUT/r; mkdir -p $R
T0=$(date +%s.%N)
nvidia-smi --query-gpu=name,driver_version,clocks.current.sm,clocks.max.sm --format=csv > $R/device.txt 2>&1
chmod +x gatherstep
(cuobjdump -sass gatherstep | gzip > $R/gatherstep.sass.gz) 2> $R/cuobjdump.err
./gatherstep run $R > $R/run.log 2>&1; echo "run rc=$? $(date +%s.%N)" >> $R/times.txt
./gatherstep dram $R > $R/dram.log 2>&1; echo "dram rc=$? $(date +%s.%N)" >> $R/times.txt
M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
M=$M,lts__t_sectors_srcunit_ltcfabric_op_read.sum,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_miss.sum
M=$M,lts__t_requests_srcunit_tex_op_read.sum,lts__t_requests_srcunit_ltcfabric_op_read.sum,lts__t_sector_hit_rate.pct
M=$M,lts__t_sectors_srcnode_gpc_op_read_lookup_hit.sum,lts__t_sectors_srcnode_gpc_op_read_lookup_miss.sum
M=$M,dram__bytes_read.sum,dram__sectors_read.sum,lts__d_sectors_fill_device.sum,lts__ltcfabric2lts_cycles_active.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum
ncu --metrics $M --replay-mode application --cache-control none --clock-control none --kernel-name 'regex:^k_g' \
  -o $R/probe2 ./gatherstep probe2 $R > $R/ncu.log 2>&1; echo "ncu rc=$? $(date +%s.%N)" >> $R/times.txt
ncu -i $R/probe2.ncu-rep --page raw --csv > $R/ncu_raw2.csv 2>> $R/ncu.log
echo "start $T0 end $(date +%s.%N)" >> $R/times.txt
tar czf $OUT/call2.tgz -C $OUT r
