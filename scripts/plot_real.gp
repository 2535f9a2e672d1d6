# plot_real.gp - the real kernels: measured work per cycle per SM (points),
# simulated from SASS + one Nsight Compute profile (pure and anchored
# model, lines) and the flat
# predictor (the throughput the profile measured, dashed), one panel per
# kernel against resident warps per SM, 12 panels per page.
# Usage: gnuplot -c scripts/plot_real.gp REAL.csv SUMMARY.csv OUT_PREFIX [UNITS.csv]
#   REAL.csv and SUMMARY.csv from scripts/validate_real.sh (real.csv:
#   kernel,blocks_per_sm,warps_per_sm,measured,simulated,...,profiled,flat;
#   real_summary.csv: kernel,fitted,points,mape_pure_pct,...).  UNITS.csv
#   (no header: kernel,unit; the unit column of the measurement's
#   curves.csv) names each panel's work unit on its y axis; without it, or
#   for a kernel it lacks, the axis says "work per cycle per SM".  Writes
#   OUT_PREFIX_1.png, OUT_PREFIX_2.png, ...  A missing or empty file is
#   refused (exit 2, no figure).
#   A panel whose pure curve peaks more than twice as high as every measured,
#   anchored and flat point is scaled to those (1.25 x their largest) and
#   says "pure off scale"; a kernel the model did not anchor (no
#   anchor_factor: no profile, or the anchor dropped or not applied) says so
#   in its title instead of an anchored MAPE, which is then the pure one.
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
# a kernel with no anchor (anchor_factor "-"): its curve is the pure one
info_pure(k, prof) = system("awk -F, -v k=".sq(k)." -v p=".prof." '$1 == k { printf \"MAPE pure %s %% (target <= 10)\\n%s\\nknee: pure %s, measured %s warps\", $4, p ? \"no anchor (dropped or not applied): anchored = pure\" : \"no profile: not anchored\", $8, $7 }' ".qsf)
# the work unit of kernel k (UNITS.csv; underscores as spaces), "" if none
unit(k) = (ARGC >= 4) ? system("awk -F, -v k=".sq(k)." '$1 == k { gsub(/_/, \" \", $2); printf \"%s\", $2; exit }' ".sq(ARG4)." 2>/dev/null") : ""
# the largest value of kernel k's column c in real.csv ("-" skipped); 0 if none
colmax(k, c) = real(system("awk -F, -v k=".sq(k)." -v c=".c." '$1 == k && $c != \"-\" && $c + 0 > m { m = $c + 0 } END { printf \"%.9g\", m + 0 }' ".qf))
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
    anch = has(k, "14"); prof = has(k, "9")
    # the measured, anchored and flat points set the scale; the pure curve
    # only while it stays within twice their largest
    others = colmax(k, 4)
    if (anch && colmax(k, 12) > others) { others = colmax(k, 12) }
    if (prof && colmax(k, 9) > others) { others = colmax(k, 9) }
    pmax = colmax(k, 5)
    clip = (others > 0 && pmax > 2 * others)
    if (clip) { set yrange [0:1.25 * others] } else { set yrange [0:*] }
    set title k." (".fitted(k).")\n".(anch ? info(k) : info_pure(k, prof)). \
      (clip ? sprintf("\npure off scale (up to %.3g)", pmax) : "") font ",10"
    set xlabel "resident warps per SM"
    u = unit(k)
    set ylabel (u ne "" ? u : "work")." per cycle per SM"
    plot f using (strcol(1) eq k ? $3 : NaN):4 with points pt 7 ps 1.2 lc rgb "#000000" title "measured", \
         f using (strcol(1) eq k ? $3 : NaN):5 with linespoints pt 6 lw 2 lc rgb "#d55e00" title "pure", \
         for [j = 1:anch] f using (strcol(1) eq k ? $3 : NaN):12 with linespoints pt 4 lw 2 lc rgb "#009e73" title "anchored", \
         for [j = 1:prof] f using (strcol(1) eq k && strcol(9) ne "-" ? $3 : NaN):9 with lines dt 2 lw 1.5 lc rgb "#0072b2" title "flat"
  }
  unset multiplot
}
