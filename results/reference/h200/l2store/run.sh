#!/bin/bash
# The l2store helper's device call (issue 24): the prebuilt binary (nvcc 13.0 on the CPU
# machine: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o l2store l2store.cu),
# its SASS, every curve, then the probe points under Nsight Compute twice: caches as the
# previous launch left them (--cache-control none: what the timed launches see) and flushed
# before each profiled launch (--cache-control all: what the real kernels' profiles saw).
# Everything goes into one tarball $OUT/l2store.tar.gz.
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d); R=$W/l2store; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.current.sm,clocks.max.sm,clocks.current.memory --format=csv; ncu --version | tail -1; } > $R/run.txt 2>&1
cp $D/l2store $W/l2store_bin
cuobjdump -sass $W/l2store_bin > $R/l2store.sass 2>&1
( time $W/l2store_bin curves $R ) >> $R/run.txt 2>&1
date -u >> $R/run.txt
ncu --query-metrics > $R/query_metrics.txt 2>&1
M=""
for m in dram__bytes_write.sum dram__bytes_read.sum lts__t_sectors_op_write.sum lts__t_sectors_op_read.sum \
         lts__t_sector_op_write_hit_rate.pct lts__t_sectors_op_write_lookup_hit.sum \
         lts__t_sectors_op_write_lookup_miss.sum lts__t_sectors_srcunit_tex_op_write.sum gpu__time_duration.sum; do
  b=${m%.*}
  if grep -qw -- "$b" $R/query_metrics.txt; then M="$M,$m"; else echo "no metric $b" >> $R/run.txt; fi
done
M=${M#,}
echo "metrics: $M" >> $R/run.txt
cd $W
for cc in none all; do
  ( time timeout 200 ncu --clock-control none --cache-control $cc --kernel-name regex:k_w --metrics $M --csv \
      ./l2store_bin probe $R > $R/ncu_probe_$cc.csv 2> $R/ncu_$cc.log ) 2>> $R/run.txt
  cp $R/probe.csv $R/probe_$cc.csv
done
rm -f $R/probe.csv
date -u >> $R/run.txt
gzip -9 $R/l2store.sass
tar czf $OUT/l2store.tar.gz -C $W l2store
ls -la $R
grep -c . $R/l2store.csv
awk '/Function :/{f=$3} {for(i=1;i<=NF;i++) if ($i ~ /^(LDG|STG)/) {c[f" "$i]++; break}} END{for(k in c) print c[k], k}' <(zcat $R/l2store.sass.gz) | sort -k2
awk -F, '$4=="dirty" && ($7>0) && ($9==2||$9==8||$9==16) {printf "%s %s %s %s B%s fp%.0fM %s\n",$1,$2,$3,$4,$9,$7/1048576,$13}' $R/l2store.csv | head -150
tail -8 $R/run.txt; tail -3 $R/ncu_none.log $R/ncu_all.log
grep -E "dram__bytes_write|lts__t_sector_op_write_hit" $R/ncu_probe_all.csv | awk -F'","' '{print $1, $(NF-2), $NF}' | head -60
