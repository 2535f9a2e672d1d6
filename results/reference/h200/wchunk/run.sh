#!/bin/bash
# What ran on the H200, 2026-12-04 18:14-18:15 UTC, in two device calls (the device's copy of
# the tree is the lead's checkout, which does not have this folder, and one command holds at
# most 2,000 characters, so the source travelled inline):
#
# Call 1 (2.4 s): wchunk_sent.cu (wchunk.cu with comments stripped and whitespace squeezed:
#   gcc -fpreprocessed -dD -E -P, then the spaces around punctuation removed; md5
#   fb71a29fcccb2f7d4d7e2074a56f2d50; nvcc 13.0 here builds the same cubin from both files,
#   checked with cmp) sent as gzip + base64, then built on the device:
#     echo BASE64 | base64 -d | gunzip > /tmp/w.cu; md5sum /tmp/w.cu
#     sed -i "s#../../../../calibrate#$PWD/calibrate#" /tmp/w.cu
#     nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o /tmp/w /tmp/w.cu
# Call 2 (25.1 s; $OUT: the folder whose files came back), this script's body:
set -u
q="nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv"
(date -u; $q) > $OUT/device.txt
(time timeout 100 /tmp/w $OUT) > $OUT/curves.log 2>&1
cuobjdump -sass /tmp/w | gzip -9 > $OUT/wchunk.sass.gz
ncu --query-metrics --chip gh100 | grep -E '^(dram|fbpa)' > $OUT/ncu_dram_metrics.txt
# launch numbers (6 per point: a warm-up and 5 timed; the third of each point): 8 = G 1 B 2,
# 20 = G 1 B 4, 32 = G 1 B 6, 68 = G 1 B 12, 224 = G 4 B 6, 968 = G 1 S 64 B 2 (all K 4)
for s in 8 20 32 68 224 968; do
  mkdir -p /tmp/n$s
  timeout 40 ncu --clock-control none --cache-control none -k regex:k_wc -s $s -c 1 --kill yes \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,gpu__time_duration.sum \
    --csv /tmp/w /tmp/n$s >> $OUT/ncu.csv 2>> $OUT/ncu.log
done
(date -u; $q) >> $OUT/device.txt
tail -3 $OUT/curves.log; wc -l $OUT/wchunk.csv $OUT/ncu.csv; tail -3 $OUT/ncu.log
