# plot_validation.gp - measured (points) vs simulated (lines) vs the
# Little's-law bound (dashed), one panel per experiment, one colour per ILP
# value found in each file (every value present is drawn).
# Usage: gnuplot -c scripts/plot_validation.gp DIR OUT.png
#   DIR holds fma.csv, chase_l2.csv, chase_dram.csv, stream.csv from
#   scripts/validate.sh (columns curve,ilp,warps_per_sm,measured,simulated,
#   rel_error_pct,little_bound).  A missing or empty file is refused (exit 2,
#   no figure).
if (ARGC < 2) {
  print "usage: gnuplot -c scripts/plot_validation.gp DIR OUT.png"
  exit status 2
}
dir = ARG1; out = ARG2
names = "fma chase_l2 chase_dram stream"
do for [e in names] {
  f = dir."/".e.".csv"
  n = int(system(sprintf("if [ -f '%s' ] && [ -r '%s' ]; then awk 'NR > 1 && NF { n++ } END { print n + 0 }' '%s'; else echo -1; fi", f, f, f)))
  if (n < 0) { print "plot_validation.gp: ".f.": no such file"; exit status 2 }
  if (n == 0) { print "plot_validation.gp: ".f.": no data rows, no figure written"; exit status 2 }
}
set terminal pngcairo size 1600,1000 font "Sans,10"
set output out
set datafile separator ","
set datafile columnheaders
set termoption noenhanced
set grid
set xrange [0:68]
set xtics 0,8,64
set xlabel "resident warps per SM"
set key outside right top vertical Left reverse samplen 2
sel(col, v) = (sprintf("%g", column("ilp")) eq v ? column(col) : NaN)
canon = " 1 2 4 8 3 6 5 7 16 32 12 24 64 "
palette = "#9400d3 #009e73 #e69f00 #d55e00 #56b4e9 #0072b2 #cc79a7 #999933 #882255 #44aa99 #332288 #888888"
colour(v, idx) = word(palette, ((strstrt(canon, " ".v." ") ? words(canon[1:strstrt(canon, " ".v." ")]) + 1 : 12 + idx) - 1) % 12 + 1)
set multiplot layout 2,2 title "warpsim vs a real H200: measured (points), simulated (lines), Little's-law bound (dashed)" font ",13"

do for [p = 1:4] {
  e = word(names, p)
  f = dir."/".e.".csv"
  set title (e eq "fma") ? "FFMA chains" : (e eq "chase_l2") ? "dependent loads hitting L2 (chase, 128 B lines)" : \
            (e eq "chase_dram") ? "dependent loads from DRAM (chase, 128 B lines)" : "streaming float4 loads from DRAM"
  set ylabel (e eq "fma") ? "warp FFMA per cycle per SM" : (e eq "chase_l2") ? "L2 bytes per cycle per SM" : "DRAM bytes per cycle per SM"
  ilps = " "
  stats f using (v = sprintf("%g", column("ilp")), strstrt(ilps, " ".v." ") == 0 ? (ilps = ilps.v." ") : "", 0) nooutput
  n = words(ilps)
  set yrange [0:*]
  plot for [i = 1:n] f using (sel("warps_per_sm", word(ilps, i))):(column("measured")) with points pt 7 ps 0.7 lc rgb colour(word(ilps, i), i) title "ILP ".word(ilps, i), \
       for [i = 1:n] f using (sel("warps_per_sm", word(ilps, i))):(column("simulated")) with lines lw 2 lc rgb colour(word(ilps, i), i) notitle, \
       for [i = 1:n] f using (sel("warps_per_sm", word(ilps, i))):(column("little_bound")) with lines dt 2 lc rgb colour(word(ilps, i), i) notitle, \
       NaN with points pt 7 lc "black" title "measured (H200)", NaN with lines lw 2 lc "black" title "simulated", \
       NaN with lines dt 2 lc "black" title "Little's-law bound"
}
unset multiplot
