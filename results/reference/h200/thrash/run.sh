#!/bin/bash
# thrash helper's device call: time every curve, then profile the listed points with ncu.
set -u
cd "$(dirname "$0")"
D=$(pwd); R=$D/res/thrash; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.current.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > $R/run.txt 2>&1
( time timeout 150 ./thrash $R ) >> $R/run.txt 2>&1
date -u >> $R/run.txt
tar czf $OUT/thrash.tar.gz -C $D/res thrash
M=l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__t_sector_hit_rate.pct,launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__shared_mem_per_block_dynamic,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg
head -1 ncu_list.txt > one.txt
timeout 40 ncu --clock-control none --csv --metrics $M ./thrash ncu one.txt > $R/ncu_probe.csv 2> $R/ncu_probe.err
if grep -q "ERROR" $R/ncu_probe.csv $R/ncu_probe.err; then
  echo "metric set failed, falling back" >> $R/run.txt
  M=l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,sm__cycles_active.avg
fi
echo "metrics $M" >> $R/run.txt
T0=$(date +%s)
for p in part_00 part_01 part_02; do
  if [ $(( $(date +%s) - T0 )) -gt 120 ]; then echo "skipped $p (time)" >> $R/run.txt; continue; fi
  ( time timeout 100 ncu --clock-control none --csv --metrics $M ./thrash ncu $p > $R/ncu_$p.csv 2> $R/ncu_$p.err ) 2>> $R/run.txt
done
date -u >> $R/run.txt
cp ncu_list.txt $R/
cp part_0? $R/; gzip -9 $R/ncu_part_0?.csv
tar czf $OUT/thrash.tar.gz -C $D/res thrash
ls -la $R; tail -15 $R/run.txt; tail -2 $R/ncu_part_0?.err; head -5 $R/thrash.csv; grep -c . $R/thrash.csv
