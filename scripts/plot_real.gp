# plot_real.gp - the real kernels: measured work per cycle per SM (points),
# simulated from SASS + one Nsight Compute profile (pure and anchored
# model, lines) and the flat
# predictor (the throughput the profile measured, dashed), one panel per
# kernel against resident warps per SM, 12 panels per page.
# Usage: gnuplot -c scripts/plot_real.gp REAL.csv SUMMARY.csv OUT_PREFIX
#   REAL.csv and SUMMARY.csv from scripts/validate_real.sh (real.csv:
#   kernel,blocks_per_sm,warps_per_sm,measured,simulated,...,profiled,flat;
#   real_summary.csv: kernel,fitted,points,mape_pure_pct,...).  Writes
#   OUT_PREFIX_1.png, OUT_PREFIX_2.png, ...  A missing or empty file is
#   refused (exit 2, no figure).
dir_(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")].dir_(s[strstrt(s, "/") + 1:]) : ""
load dir_(ARG0)."lib.gp"  # sq(): names reach the shell quoted
if (ARGC < 3) {
  print "usage: gnuplot -c scripts/plot_real.gp REAL.csv SUMMARY.csv OUT_PREFIX"
  exit status 2
}
f = ARG1; sf = ARG2; prefix = ARG3
qf = sq(f); qsf = sq(sf)
n = int(system(sprintf("if [ -f %s ] && [ -r %s ]; then awk 'NR > 1 && NF { n++ } END { print n + 0 }' %s; else echo -1; fi", qf, qf, qf)))
if (n < 0) { print "plot_real.gp: ".f.": no such file"; exit status 2 }
if (n == 0) { print "plot_real.gp: ".f.": no data rows, no figure written"; exit status 2 }
kernels = system(sprintf("awk -F, 'NR > 1 && !s[$1]++ { printf \"%%s \", $1 }' %s", qf))
# per kernel: "fitted MAPE" of real_summary.csv
# (joined with ".", not sprintf: gnuplot 5.4.4's sprintf garbled this command
# when a long file name made it long, repeating part of its format)
info(k) = system("awk -F, -v k=".sq(k)." '$1 == k { printf \"MAPE anchored %s, pure %s %% (target <= 10)\\nknee: anchored %s, pure %s, measured %s warps\", $5, $4, $9, $8, $7 }' ".qsf)
# has(k, COL): 1 when a row of kernel k has a value in column COL of real.csv
# (9: flat, a kernel with a profile; 14: anchor_factor, an anchored one)
has(k, c) = int(system("awk -F, -v k=".sq(k)." -v c=".c." '$1 == k && $c != \"-\" { n++ } END { print (n > 0) }' ".qf))
fitted(k) = system("awk -F, -v k=".sq(k)." '$1 == k { printf \"%s\", $2 == \"yes\" ? \"fitted\" : \"held out\" }' ".qsf)
nk = words(kernels)
per = 12; cols = 4; rows = 3
pages = int((nk + per - 1) / per)
set terminal pngcairo size 1800, 1150 font "Sans,10"
set datafile separator ","
set termoption noenhanced
set grid
set xrange [0:68]
set xtics 0,8,64
set yrange [0:*]
set key bottom right
do for [pg = 1:pages] {
  set output sprintf("%s_%d.png", prefix, pg)
  set multiplot layout rows,cols title sprintf("real kernels on the H200 (page %d of %d): measured (points); from SASS + the B = 8 profile: pure model (orange), anchored (green); flat at the profiled throughput (dashed)", pg, pages) font ",13"
  do for [i = (pg - 1) * per + 1 : (pg * per < nk ? pg * per : nk)] {
    k = word(kernels, i)
    # (a kernel without an anchor: its anchored curve is the pure one, not
    # drawn over it; without a profile: no flat line, none in the key)
    set title k." (".fitted(k).")\n".info(k) font ",10"
    set xlabel "resident warps per SM"
    set ylabel "work per cycle per SM"
    plot f using (strcol(1) eq k ? $3 : NaN):4 with points pt 7 ps 1.2 lc rgb "#000000" title "measured", \
         f using (strcol(1) eq k ? $3 : NaN):5 with linespoints pt 6 lw 2 lc rgb "#d55e00" title "pure", \
         for [j = 1:has(k, "14")] f using (strcol(1) eq k ? $3 : NaN):12 with linespoints pt 4 lw 2 lc rgb "#009e73" title "anchored", \
         for [j = 1:has(k, "9")] f using (strcol(1) eq k && strcol(9) ne "-" ? $3 : NaN):9 with lines dt 2 lw 1.5 lc rgb "#0072b2" title "flat"
  }
  unset multiplot
}
