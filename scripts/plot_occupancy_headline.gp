# plot_occupancy_headline.gp - the argument in three panels, one idea each:
# compute-bound curves are flat past their knee; memory-bound curves flatten
# the earlier the more loads each warp has in flight; and a curve that falls
# as warps are added.  Lines are simulated, triangles measured (where the
# file has them); an open circle marks each simulated curve's knee (the
# first point reaching 90 % of its best), a filled diamond the best point of
# a curve that falls (its true maximum), the dashed line 50 % occupancy, and
# the shaded band the second half of the warps.  Each panel's subtitle states
# what that half buys, from the data.
#
# Usage: gnuplot -c scripts/plot_occupancy_headline.gp HEADLINE.csv STATS.csv OUT.png|OUT.svg
#   STATS.csv: scripts/headline_stats.sh HEADLINE.csv (warpsim curve-stats:
#   every knee, change, peak and fall drawn or written comes from it).
#   HEADLINE.csv (scripts/run.sh writes results/occupancy_headline.csv):
#   panel,series,source,warps_per_sm,occupancy_pct,value,unit; panel is
#   compute, memory or falls (drawn in that order, those present); source is
#   "warpsim MODEL[ modified (KEYS)]" for simulated rows and anything with
#   "measured" in it for measured ones; unit is the panel's y label.  A missing
#   or empty file is refused (exit 2, no figure).
dir_(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")].dir_(s[strstrt(s, "/") + 1:]) : ""
load dir_(ARG0)."lib.gp"  # sq(): names reach the shell quoted
if (ARGC < 3) {
  print "usage: gnuplot -c scripts/plot_occupancy_headline.gp HEADLINE.csv STATS.csv OUT.png|OUT.svg"
  exit status 2
}
f = ARG1; sf = ARG2; out = ARG3
me = "plot_occupancy_headline.gp"
n = int(system(sprintf("if [ -f %s ] && [ -r %s ]; then awk 'NR > 1 && NF { n++ } END { print n + 0 }' %s; else echo -1; fi", sq(f), sq(f), sq(f))))
if (n < 0) { print me.": ".f.": no such file"; exit status 2 }
if (n == 0) { print me.": ".f.": no data rows, no figure written"; exit status 2 }
ns_ = int(system(sprintf("if [ -f %s ] && [ -r %s ]; then awk 'NR > 1 && NF { n++ } END { print n + 0 }' %s; else echo -1; fi", sq(sf), sq(sf), sq(sf))))
if (ns_ < 0) { print me.": ".sf.": no such file"; exit status 2 }
if (ns_ == 0) { print me.": ".sf.": no data rows, no figure written"; exit status 2 }
# stat(P, S, MEASURED, COL): the STATS.csv value of column COL for panel P,
# series S (underscores for spaces), simulated (0) or measured (1); "" if none
stat(P, S, M, C) = system(sprintf("awk -F, -v p=%s -v s=%s -v m=%d -v c=%s 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next } $1 == p && $2 == s && (($3 ~ /measured/) == m) { print $k[c]; exit }' %s", sq(P), sq(label_of(S)), M, sq(C), sq(sf)))
# words of a shell command's output, one per line of it
lines(cmd) = system(cmd." | tr ' ' '_' | tr '\\n' ' '")
panels = lines(sprintf("for p in compute memory falls; do awk -F, -v p=$p 'NR > 1 && $1 == p { print p; exit }' %s; done", sq(f)))
np = words(panels)
if (np == 0) { print me.": ".f.": no panel named compute, memory or falls, no figure written"; exit status 2 }
# the simulation's source (the first simulated row's), for the title
simsrc = system(sprintf("awk -F, 'NR > 1 && $3 !~ /measured/ { print $3; exit }' %s", sq(f)))
hasmeas = int(system(sprintf("awk -F, 'NR > 1 && $3 ~ /measured/ { n++ } END { print n + 0 }' %s", sq(f))))

svg = (out[strlen(out)-3:] eq ".svg")
W = 460 * np; H = 700
if (svg) { set terminal svg size W, H dynamic font "Sans,13" } else { set terminal pngcairo size W, H font "Sans,13" }
set output out
set termoption noenhanced
set datafile separator ","
set datafile columnheaders
set grid lc rgb "#dddddd"
set xrange [0:100]
set xtics 0,25,100 format "%g %%"
set xlabel "theoretical occupancy"

# Colour by series, the same in every panel (Okabe-Ito).
canon = " ILP_1 ILP_2 ILP_4 ILP_8 "
palette = "#9400d3 #009e73 #e69f00 #d55e00 #0072b2 #cc79a7"
colour(s) = strstrt(canon, " ".s." ") ? word(palette, words(canon[1:strstrt(canon, " ".s." ")]) + 1) : "#0072b2"
# the header and the simulated rows of panel P, series S
rows_of(P, S) = sprintf("< awk -F, -v p=%s -v s=%s 'NR == 1 || ($1 == p && $2 == s && $3 !~ /measured/)' %s", sq(P), sq(S), sq(f))
label_of(s) = system(sprintf("printf '%%s' %s | tr '_' ' '", sq(s)))

head = "More resident warps stop paying early: flat past the knee, or slower"
sub = sprintf("lines: %s%s\ncircle: knee (first point at 90 %% of the best); diamond: the best point; shaded: the second half of the warps", \
              simsrc, hasmeas ? "; triangles: measured on an H200" : "")
set multiplot title head."\n".sub font ",15"
top = 0.74; bot = 0.27

do for [pi = 1:np] {
  p = word(panels, pi)
  series = lines(sprintf("awk -F, -v p=%s 'NR > 1 && $1 == p && !seen[$2]++ { print $2 }' %s", sq(p), sq(f)))
  ns = words(series)
  unit = system(sprintf("awk -F, -v p=%s 'NR > 1 && $1 == p { print $7; exit }' %s", sq(p), sq(f)))
  pmeas = int(system(sprintf("awk -F, -v p=%s 'NR > 1 && $1 == p && $3 ~ /measured/ { n++ } END { print n + 0 }' %s", sq(p), sq(f))))
  sim(s) = (strcol("panel") eq p && strcol("series") eq label_of(s) && strstrt(strcol("source"), "measured") == 0)
  meas(s) = (strcol("panel") eq p && strcol("series") eq label_of(s) && strstrt(strcol("source"), "measured") > 0)
  # Per series, from STATS.csv (warpsim curve-stats): simulated plateau,
  # knee, 50 -> 100 % change, peak and fall; measured peak and fall.  Only
  # the largest occupancies (for the labels) and the y range come from here.
  array best[ns]; array bestx[ns]; array knee[ns]; array chg[ns]; array fallp[ns]; array xm[ns]; array x50[ns]
  array mbestx[ns]; array mfallp[ns]; array mxm[ns]; array mhas[ns]
  ymax = 0
  do for [i = 1:ns] {
    s = word(series, i)
    best[i] = real(stat(p, s, 0, "plateau")); bestx[i] = real(stat(p, s, 0, "peak_occupancy_pct"))
    kn = stat(p, s, 0, "knee_occupancy_pct"); knee[i] = (kn eq "-" || kn eq "") ? -1 : real(kn)
    chg[i] = stat(p, s, 0, "change_50_to_100_pct"); fallp[i] = real(stat(p, s, 0, "fall_pct"))
    mhas[i] = (stat(p, s, 1, "plateau") ne "")
    if (mhas[i]) { mbestx[i] = real(stat(p, s, 1, "peak_occupancy_pct")); mfallp[i] = real(stat(p, s, 1, "fall_pct")) }
    h = -1; m = -1; mm = -1; mb = 0
    stats f using (sim(s) && column("occupancy_pct") <= 50 && column("occupancy_pct") > h ? (h = column("occupancy_pct")) : 0, \
                   sim(s) && column("occupancy_pct") > m ? (m = column("occupancy_pct")) : 0, \
                   meas(s) && column("occupancy_pct") > mm ? (mm = column("occupancy_pct")) : 0, \
                   meas(s) && column("value") > mb ? (mb = column("value")) : 0, 0) nooutput
    x50[i] = h; xm[i] = m; mxm[i] = mm
    ymax = (best[i] > ymax) ? best[i] : ymax; ymax = (mb > ymax) ? mb : ymax
  }
  falls(i) = (fallp[i] >= 10)  # ends 10 % or more below its best: more warps cost
  gain(i) = (x50[i] > 0 && xm[i] > x50[i]) ? sprintf("%.0f→%.0f %%: %s %%", x50[i], xm[i], chg[i]) : "no point past 50 %"
  drop(bx, fp, x) = sprintf("best at %.0f %%, -%.0f %% by %.0f %%", bx, fp, x)
  # Key entries: each simulated curve's knee (or best point) and what the
  # second half of the warps buys; the measured points of a falling curve
  # the same way.
  entry(i) = falls(i) ? sprintf("%s: %s", ns > 1 ? label_of(word(series, i)) : "simulated", drop(bestx[i], fallp[i], xm[i])) : \
             knee[i] < 0 ? sprintf("%s: still rising, %s", label_of(word(series, i)), gain(i)) : \
             sprintf("%s: knee %.0f %%, %s", label_of(word(series, i)), knee[i], gain(i))
  mentry(i) = falls(i) && mhas[i] ? sprintf("H200 measured: %s", drop(mbestx[i], mfallp[i], mxm[i])) : "H200 measured"
  if (p eq "compute") { what = "Compute-bound (FFMA chains):\nflat past the knee" }
  if (p eq "memory") { what = "DRAM-bound (dependent loads): the more loads\nin flight per warp, the earlier it flattens" }
  if (p eq "falls") { what = sprintf("More warps, slower%s", label_of(word(series, 1)) eq "stencil" ? \
                      ": a 5-point\nstencil from its SASS (held out)" : ":\n".label_of(word(series, 1))) }
  if (p ne "compute" && p ne "memory" && p ne "falls") { what = p }
  set title what font ",14"
  x0 = (pi - 1.0) / np
  set lmargin at screen x0 + 0.068 * 3 / np
  set rmargin at screen x0 + 1.0 / np - 0.012 * 3 / np
  set tmargin at screen top
  set bmargin at screen bot
  set ylabel unit
  set yrange [0:ymax * 1.1]
  # the key below the axes, outside the data
  set key at screen x0 + 0.012, screen bot - 0.09 left top Left reverse samplen 1.5 spacing 1.1 font ",12" nobox
  unset object; unset label; unset arrow
  set object 1 rect from 50, graph 0 to 100, graph 1 fc rgb "#f0f0f0" fs solid noborder behind
  set arrow 1 from 50, graph 0 to 50, graph 1 nohead dt 2 lw 1.5 lc rgb "gray30" front
  set label 1 "50 %" at 50, graph 0.97 right offset -0.4, 0 textcolor rgb "gray30" font ",11" front
  # Lines through each series' simulated rows only (rows of other series
  # or measured ones between them would break a line of NaN-filtered points).
  plot for [i = 1:ns] rows_of(p, label_of(word(series, i))) using "occupancy_pct":"value" \
         with lines lw 2.5 lc rgb colour(word(series, i)) title entry(i), \
       for [i = 1:ns] f using (meas(word(series, i)) ? column("occupancy_pct") : NaN):(column("value")) \
         with points pt 9 ps 1.2 lc rgb colour(word(series, i)) title (pmeas > 0 && falls(i) && i == 1 ? mentry(i) : ""), \
       for [i = 1:ns] f using (sim(word(series, i)) && !falls(i) && abs(column("occupancy_pct") - knee[i]) < 1e-3 ? column("occupancy_pct") : NaN):(column("value")) \
         with points pt 6 ps 2.2 lw 2 lc rgb colour(word(series, i)) notitle, \
       for [i = 1:ns] f using (sim(word(series, i)) && falls(i) && abs(column("occupancy_pct") - bestx[i]) < 1e-3 ? column("occupancy_pct") : NaN):(column("value")) \
         with points pt 13 ps 1.8 lc rgb colour(word(series, i)) notitle, \
       for [j = 1:(pmeas > 0 && !falls(1))] NaN with points pt 9 ps 1.2 lc rgb "gray20" title "H200 measured"
}
unset multiplot
