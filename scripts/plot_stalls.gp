# plot_stalls.gp - why a kernel plateaus: its warp-state breakdown against the
# resident warps, and issue slot utilization against theoretical occupancy.
#
# Usage: gnuplot -c scripts/plot_stalls.gp IN.csv OUT.png [TITLE]
#   IN.csv: `warpsim run --format csv` rows (header first), one per resident-warp
#   count (scripts/stalls.sh writes it).  Columns are found by header name:
#   warps_per_sm, occupancy_pct, issue_active and every stall_<state>.
#   OUT.png is written with pngcairo (a name ending in .svg gives SVG).
# Panels: (1) warp cycles per issued instruction, stacked by warp state;
#   (2) the same as shares of all warp cycles; (3) issue slot utilization
#   (issue_active, % of cycles an SMSP issues) against theoretical occupancy.
# States that are zero in every row are left out of the key.
dir_(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")].dir_(s[strstrt(s, "/") + 1:]) : ""
load dir_(ARG0)."lib.gp"  # sq(): names reach the shell quoted
if (ARGC < 2) {
  print "usage: gnuplot -c scripts/plot_stalls.gp IN.csv OUT.png [TITLE]"
  exit status 2
}
in = ARG1; out = ARG2
n = int(system(sprintf("if [ -f %s ] && [ -r %s ]; then awk 'NR > 1 && !/^#/ && NF { n++ } END { print n + 0 }' %s; else echo -1; fi", sq(in), sq(in), sq(in))))
if (n < 0) { print "plot_stalls.gp: ".in.": no such file"; exit status 2 }
if (n == 0) { print "plot_stalls.gp: ".in.": no data rows, no figure written"; exit status 2 }
title = (ARGC >= 3) ? ARG3 : in
if (out[strlen(out)-3:] eq "svg") {
  set terminal svg size 1650,560 dynamic font "Sans,12"
} else {
  set terminal pngcairo size 1650,560 font "Sans,11"
}
set output out
set termoption noenhanced
set datafile separator ","
set datafile columnheaders

# Stacking order, bottom up: issuing, ready-but-blocked, waiting on data, other.
states = "selected not_selected dispatch_stall math_pipe_throttle mio_throttle lg_throttle " . \
         "wait short_scoreboard long_scoreboard branch_resolving barrier drain"
colors = "#2ca02c #98df8a #ff7f0e #ffbb78 #8c564b #c49c94 " . \
         "#1f77b4 #aec7e8 #d62728 #9467bd #e377c2 #7f7f7f"
shown = ""; shown_colors = ""
do for [i = 1:words(states)] {
  stats in using (column("stall_" . word(states, i))) nooutput
  if (STATS_max > 0) {
    shown = shown . " " . word(states, i)
    shown_colors = shown_colors . " " . word(colors, i)
  }
}
n = words(shown)
cum(k) = (k < 1) ? 0 : sum [j = 1:k] column("stall_" . word(shown, j))
share(k) = 100.0 * cum(k) / cum(n)

set multiplot layout 1, 3 title "warpsim: warp states of " . title font ",14"
set grid front
set xlabel "resident warps per SM (warps)"
set xrange [0:*]
set autoscale xfixmax
set key outside right top vertical Left reverse invert samplen 1.5 spacing 0.95

set title "warp cycles per issued instruction, by state"
set ylabel "warp cycles per issued warp instruction (cycles)"
set yrange [0:*]
unset key
plot for [i = 1:n] in using "warps_per_sm":(cum(i - 1)):(cum(i)) with filledcurves \
     fc rgb word(shown_colors, i) fs solid 0.9 title word(shown, i)

set title "share of warp cycles, by state"
set ylabel "share of all active warp cycles (%)"
set yrange [0:100]
set key
plot for [i = 1:n] in using "warps_per_sm":(share(i - 1)):(share(i)) with filledcurves \
     fc rgb word(shown_colors, i) fs solid 0.9 title word(shown, i)

set title "issue slot utilization vs resident warps"
set ylabel "issue slot utilization (% of cycles an SMSP issues)"
set yrange [0:110]
# Second x axis: theoretical occupancy, linked to resident warps through the
# rows' own ratio (occupancy_pct / warps_per_sm = 100 / the model's max warps).
stats in using (column("occupancy_pct") / column("warps_per_sm")) nooutput
pct_per_warp = STATS_mean
set link x2 via x * pct_per_warp inverse x / pct_per_warp
set x2label "theoretical occupancy (%)"
set x2tics 0,25,100
set key outside right top vertical Left reverse noinvert nobox samplen 1.5
plot 100 with lines dt 2 lc "gray" title "issue peak", \
     in using "warps_per_sm":(100.0 * column("issue_active")) with linespoints pt 7 ps 0.7 \
     lc rgb "#1f77b4" title "issue active"
unset multiplot
