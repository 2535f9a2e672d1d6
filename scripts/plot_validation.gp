# plot_validation.gp - measured (points) vs simulated (lines) vs the
# Little's-law bound (dashed), one panel per experiment file in DIR, one
# colour per curve found in each file (column `curve`: every curve present is
# drawn); points a model key was fitted on are ringed.  latency.csv (one row
# per single-warp latency) is drawn as simulated against measured, with the
# line where they are equal.
# Usage: gnuplot -c scripts/plot_validation.gp DIR OUT.png
#   DIR holds the CSVs of scripts/validate.sh (columns curve,ilp,warps_per_sm,
#   measured,simulated,rel_error_pct,little_bound[,fit]) and its summary.csv
#   (not drawn).  No experiment file, or an empty one, is refused (exit 2, no
#   figure).
dir_(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")].dir_(s[strstrt(s, "/") + 1:]) : ""
load dir_(ARG0)."lib.gp"  # sq(): names reach the shell quoted
if (ARGC < 2) {
  print "usage: gnuplot -c scripts/plot_validation.gp DIR OUT.png"
  exit status 2
}
dir = ARG1; out = ARG2
# Experiment files, the usual ones first, then any other in name order.
known = "fma chase_l2 chase_dram stream sfu lds latency"
names = system(sprintf("cd %s 2>/dev/null && { for e in %s; do [ -f $e.csv ] && echo $e; done; ls *.csv 2>/dev/null | sed 's/[.]csv$//' | grep -vx -e summary %s; } | tr '\\n' ' '", \
               sq(dir), known, "-e ".system(sprintf("echo %s | sed 's/ / -e /g'", sq(known)))))
if (words(names) == 0) { print "plot_validation.gp: ".dir.": no experiment CSV, no figure written"; exit status 2 }
do for [e in names] {
  f = dir."/".e.".csv"
  n = int(system(sprintf("awk 'NR > 1 && NF { n++ } END { print n + 0 }' %s", sq(f))))
  if (n == 0) { print "plot_validation.gp: ".f.": no data rows, no figure written"; exit status 2 }
}
panels = words(names)
cols = (panels <= 4) ? 2 : 4
rows = int((panels + cols - 1) / cols)
set terminal pngcairo size 550 * cols + 250, 480 * rows font "Sans,10"
set output out
set datafile separator ","
set datafile columnheaders
set termoption noenhanced
set grid
set key outside right top vertical Left reverse samplen 2
palette = "#9400d3 #009e73 #e69f00 #d55e00 #56b4e9 #0072b2 #cc79a7 #999933 #882255 #44aa99"
colour(i) = word(palette, (i - 1) % 10 + 1)
# measured points and simulated lines, one point and dash type per curve
ptype(i) = word("7 5 9 11 13 15 4 8 10 12", (i - 1) % 10 + 1) + 0
dtype(i) = (i - 1) % 5 + 1
title_of(e) = (e eq "fma") ? "FFMA chains" : (e eq "chase_l2") ? "dependent loads hitting L2 (chase, 128 B lines)" : \
              (e eq "chase_dram") ? "dependent loads from DRAM (chase, 128 B lines)" : \
              (e eq "stream") ? "streaming float4 loads from DRAM" : (e eq "sfu") ? "MUFU.EX2 chains" : \
              (e eq "lds") ? "shared-memory loads (LDS), by bank-conflict stride" : \
              (e eq "latency") ? "single-warp dependent latencies" : e
ylabel_of(e) = (e eq "fma") ? "warp FFMA per cycle per SM" : (e eq "chase_l2") ? "L2 bytes per cycle per SM" : \
               (e eq "chase_dram" || e eq "stream") ? "DRAM bytes per cycle per SM" : \
               (e eq "sfu") ? "warp MUFU per cycle per SM" : (e eq "lds") ? "warp LDS per cycle per SM" : \
               "per cycle per SM"
set multiplot layout rows, cols title "warpsim vs a real H200: in each curve's colour, measured (points, one shape a curve) and simulated (lines, one dash a curve);\nLittle's-law bound: thin dashes; ringed: points a model key was fitted on" font ",13"

do for [e in names] {
  f = dir."/".e.".csv"
  set title title_of(e)
  hasfit = int(system(sprintf("head -1 %s | tr -d '\\r' | tr ',' '\\n' | grep -cx fit", sq(f))))
  fitted(x) = hasfit && strcol("fit") eq "yes" ? x : NaN
  if (e eq "latency") {
    set xlabel "measured (cycles per dependent operation)"
    set ylabel "simulated (cycles)"
    set logscale xy
    set xrange [*:*]; set yrange [*:*]
    set xtics autofreq
    plot f using "measured":"simulated" with points pt 7 ps 1 lc rgb colour(1) title "one latency", \
         f using (fitted(column("measured"))):"simulated" with points pt 6 ps 2 lc "black" notitle, \
         x with lines dt 2 lc "gray40" title "simulated = measured"
    unset logscale
  } else {
    set xlabel "resident warps per SM"
    set ylabel ylabel_of(e)
    set xrange [0:68]
    set xtics 0,8,64
    set yrange [0:*]
    curves = ""
    stats f using (c = strcol("curve"), strstrt(curves, "|".c."|") == 0 ? (curves = curves."|".c."|") : "", 0) nooutput
    # "|a||b|": curve names may hold spaces, so they are split on '|'
    n = 0
    do for [k = 1:strlen(curves)] { if (curves[k:k] eq "|") { n = n + 1 } }
    n = n / 2
    array names_arr[n]
    rest = curves
    do for [i = 1:n] {
      a = strstrt(rest, "|"); rest = rest[a + 1:strlen(rest)]
      b = strstrt(rest, "|"); names_arr[i] = rest[1:b - 1]; rest = rest[b + 1:strlen(rest)]
    }
    sel(col, i) = (strcol("curve") eq names_arr[i] ? column(col) : NaN)
    hasbound = int(system(sprintf("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"little_bound\") c = i; next } c && $c ~ /^[0-9.]+$/ { n++ } END { print (n > 0) }' %s", sq(f))))
    # Curves on top of one another (fma ILP 4/6/8, the MUFU chains) stay
    # apart by point type (measured) and dash type (simulated); each key entry
    # shows both in the curve's colour.
    plot for [i = 1:n] f using (sel("warps_per_sm", i)):(column("measured")) with points pt ptype(i) ps 0.9 lc rgb colour(i) notitle, \
         for [i = 1:n] f using (sel("warps_per_sm", i)):(column("simulated")) with lines lw 2 dt dtype(i) lc rgb colour(i) notitle, \
         for [i = 1:n] f using (sel("warps_per_sm", i)):(column("little_bound")) with lines lw 1 dt (2, 6) lc rgb colour(i) notitle, \
         f using (fitted(column("warps_per_sm"))):(column("measured")) with points pt 6 ps 1.8 lc "black" notitle, \
         for [i = 1:n] NaN with linespoints pt ptype(i) ps 0.9 lw 2 dt dtype(i) lc rgb colour(i) title names_arr[i], \
         for [j = 1:hasbound] NaN with lines lw 1 dt (2, 6) lc "gray30" title "Little's-law bound"
  }
}
unset multiplot
