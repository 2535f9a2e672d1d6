#!/bin/bash
# gather4 device script: the gatherstep curves, its SASS, and one Nsight Compute probe.
set -u
cd "$(dirname "$0")"
T0=$(date +%s.%N)
nvidia-smi --query-gpu=name,driver_version,clocks.current.sm,clocks.max.sm --format=csv > $OUT/device.txt 2>&1
(ncu --version | tail -1) >> $OUT/device.txt 2>&1
chmod +x gatherstep
(cuobjdump -sass gatherstep | gzip > $OUT/gatherstep.sass.gz) 2> $OUT/cuobjdump.err
./gatherstep run $OUT > $OUT/run.log 2>&1; echo "run rc=$? $(date +%s.%N)" >> $OUT/times.txt
ncu --query-metrics > $OUT/metrics.txt 2>&1
grep -iE "ltcfabric|tlb|hit_rate" $OUT/metrics.txt > $OUT/metrics_sel.txt
M=""
for m in lts__t_sector_hit_rate.pct lts__t_sector_op_read_hit_rate.pct lts__t_sectors_srcunit_tex_op_read.sum \
  lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum \
  lts__t_sectors_srcunit_ltcfabric.sum lts__t_sectors_srcunit_ltcfabric_op_read.sum \
  lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum \
  lts__t_requests_srcunit_ltcfabric.sum lts__ltcfabric2lts_cycles_active.avg lts__t_sectors_srcnode_gpc.sum \
  lts__t_sectors_srcunit_tex.sum lts__t_sectors_srcunit_tex_lookup_hit.sum lts__t_sectors_srcunit_tex_lookup_miss.sum \
  dram__bytes_read.sum l1tex__m_xbar2l1tex_read_sectors.sum sm__cycles_elapsed.avg; do
  b=${m%%.*}
  if grep -qw "$b" $OUT/metrics.txt; then M="$M,$m"; fi
done
M=${M#,}
echo "metrics: $M" > $OUT/ncu_metrics_used.txt
ncu --set full ${M:+--metrics $M} --cache-control none --clock-control none --kernel-name 'regex:^k_g' \
  -o $OUT/probe ./gatherstep probe $OUT > $OUT/ncu.log 2>&1; echo "ncu rc=$? $(date +%s.%N)" >> $OUT/times.txt
ncu -i $OUT/probe.ncu-rep --page raw --csv > $OUT/ncu_raw.csv 2>> $OUT/ncu.log
ncu -i $OUT/probe.ncu-rep --page details --csv > $OUT/ncu_details.csv 2>> $OUT/ncu.log
gzip -f $OUT/metrics.txt
echo "start $T0 end $(date +%s.%N)" >> $OUT/times.txt
