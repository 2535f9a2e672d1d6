# plot_real.gp - the real kernels: measured work per cycle per SM (points)
# and simulated from SASS + one Nsight Compute profile (lines), one panel per
# kernel, against resident warps per SM.
# Usage: gnuplot -c scripts/plot_real.gp REAL.csv OUT.png
#   REAL.csv from scripts/validate_real.sh (kernel,blocks_per_sm,warps_per_sm,
#   measured,simulated,rel_error_pct,cycles_simulated).  A missing or empty
#   file is refused (exit 2, no figure).
if (ARGC < 2) {
  print "usage: gnuplot -c scripts/plot_real.gp REAL.csv OUT.png"
  exit status 2
}
f = ARG1; out = ARG2
n = int(system(sprintf("if [ -f '%s' ] && [ -r '%s' ]; then awk 'NR > 1 && NF { n++ } END { print n + 0 }' '%s'; else echo -1; fi", f, f, f)))
if (n < 0) { print "plot_real.gp: ".f.": no such file"; exit status 2 }
if (n == 0) { print "plot_real.gp: ".f.": no data rows, no figure written"; exit status 2 }
kernels = system(sprintf("awk -F, 'NR > 1 && !s[$1]++ { printf \"%%s \", $1 }' '%s'", f))
units = "saxpy:bytes softmax:bytes sgemm:warp-FFMA stencil:points gather:elements transpose:elements blur:bytes mv:bytes hist:bytes reduce:bytes transpose33:elements gather_l2:elements conv:points mufu:warp-MUFU dpoly:warp-DFMA spmv:nonzeros dgather:elements ghist:bytes divg:elements treduce:elements scan:elements bounds:points vmix:elements v4:elements store1f:bytes copy1f:bytes store4f:bytes copy4f:bytes store1f4:bytes copy1f4:bytes store4f4:bytes copy4f4:bytes st2d:points rowsm:elements gstore:elements mm32:FFMA colsum:elements"
unit(k) = (strstrt(units, k.":") ? word(system(sprintf("echo '%s' | tr ' ' '\\n' | awk -F: '$1 == \"%s\" { print $2 }'", units, k)), 1) : (strstrt(k, "spill_") == 1 ? "warp-FFMA" : "work"))
nk = words(kernels)
cols = nk > 9 ? 4 : 3
rows = int((nk + cols - 1) / cols)
set terminal pngcairo size 500 * cols, 433 * rows font "Sans,10"
set output out
set datafile separator ","
set termoption noenhanced
set grid
set xrange [0:68]
set xtics 0,8,64
set yrange [0:*]
set key bottom right
set multiplot layout rows,cols title "real kernels on the H200: measured (points) vs simulated from SASS + the B = 8 profile (lines); the keys fitted on a curve: real_summary.csv column fitted; spill_C (register cap C): no profile" font ",13"
do for [k in kernels] {
  set title k
  # ghist's measured points lie along the bottom (0.016 bytes/cycle/SM)
  if (k eq "ghist") { set key center right } else { set key bottom right }
  set xlabel "resident warps per SM"
  set ylabel unit(k)." per cycle per SM"
  plot f using (strcol(1) eq k ? $3 : NaN):4 with points pt 7 ps 1.2 lc rgb "#000000" title "measured", \
       f using (strcol(1) eq k ? $3 : NaN):5 with linespoints pt 6 lw 2 lc rgb "#d55e00" title "simulated"
}
unset multiplot
