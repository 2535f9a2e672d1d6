#!/bin/bash
# The atom helper's device call (issue 24): build casl.cu, dump its SASS, measure every curve,
# profile four points at B = 8 (ncu --set full, clocks as found) and export their details and
# SASS source pages; everything goes into one tarball $OUT/casl.tar.gz.
set -u
cd "$(dirname "$0")"
W=$(mktemp -d); R=$W/casl; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.current.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } > $R/run.txt 2>&1
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o $W/casl_bin casl.cu > $R/nvcc.log 2>&1 || { cat $R/nvcc.log; exit 1; }
cuobjdump -sass $W/casl_bin > $R/casl.sass
( time $W/casl_bin $R ) >> $R/run.txt 2>&1
date -u >> $R/run.txt
cd $W
( time timeout 200 ncu --clock-control none --set full -f -o prof ./casl_bin ncu > $R/ncu.log 2>&1 ) 2>> $R/run.txt
ncu --import prof.ncu-rep --page details --csv > $R/ncu_details.csv 2>> $R/ncu.log
ncu --import prof.ncu-rep --page source --csv --print-source sass > $R/ncu_source_all.csv 2>> $R/ncu.log
for k in k_cas_loop k_cas_chain; do
  ncu --import prof.ncu-rep --kernel-name $k --page source --csv --print-source sass > $R/${k#k_}_source_b8.csv 2>> $R/ncu.log
done
date -u >> $R/run.txt
gzip -9 $R/casl.sass
tar czf $OUT/casl.tar.gz -C $W casl
ls -la $R
awk '/Function :/{f=$3} {for(i=1;i<=NF;i++) if ($i ~ /^(ATOMG|LDG|LDL|STL|YIELD|BSSY|BSYNC)/) {c[f" "$i]++; break}} END{for(k in c) print c[k], k}' <(zcat $R/casl.sass.gz) | sort -k2
cat $R/attrs.csv
awk -F, '{printf "%s %s %s %s B%s %s %s %s\n", $1,$2,$3,$4,$5,$8,$11,$13}' $R/casl.csv
tail -12 $R/run.txt; tail -3 $R/ncu.log
