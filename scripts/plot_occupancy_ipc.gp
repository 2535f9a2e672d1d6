# plot_occupancy_ipc.gp - throughput against theoretical occupancy, one line
# per ILP (solid: simulated; dashed: the Little's-law bound with the model's own
# numbers), one panel per kernel.
#
# Usage: gnuplot -c scripts/plot_occupancy_ipc.gp FMA.csv CHASE.csv STREAM.csv OUT.png|OUT.svg [TITLE]
#   Each CSV holds `warpsim run --format csv` rows (header first), e.g. from
#   scripts/sweep.sh, in any order; "-" leaves that panel out.  The ILP values
#   present in each file get a line each, with the same colour in every panel.
if (ARGC < 4) {
  print "usage: gnuplot -c scripts/plot_occupancy_ipc.gp FMA.csv CHASE.csv STREAM.csv OUT.png|OUT.svg [TITLE]"
  print "       (\"-\" for a panel to leave out)"
  exit status 2
}
fma = ARG1; chase = ARG2; stream = ARG3; out = ARG4
title = (ARGC >= 5) ? ARG5 : "warpsim: throughput vs occupancy (one SM)"
panels = (fma ne "-") + (chase ne "-") + (stream ne "-")
if (panels == 0) { print "plot_occupancy_ipc.gp: no input file"; exit status 2 }
if (out[strlen(out)-2:] eq "svg") {
  set terminal svg size 520*panels,520 dynamic font "Sans,12"
} else {
  set terminal pngcairo size 520*panels,520 font "Sans,11"
}
set output out
set datafile separator ","
set datafile columnheaders
set grid
set xrange [0:105]
set xtics 0,12.5,100
set xlabel "theoretical occupancy (% of the SM's warps)"
candidates = "1 2 3 4 6 8 12 16 24 32 64"
colour(i) = (i == 1 ? 0x9400d3 : i == 2 ? 0x009e73 : i == 3 ? 0x56b4e9 : i == 4 ? 0xe69f00 : \
             i == 6 ? 0x0072b2 : i == 8 ? 0xd55e00 : 0x333333)
sel(col, i) = (column("ilp") == i ? column(col) : NaN)
set multiplot layout 1, panels title title font ",14"

do for [panel = 1:3] {
  f = (panel == 1) ? fma : (panel == 2) ? chase : stream
  if (f ne "-") {
    found = ""
    do for [i in candidates] {
      stats f using (column("ilp") == i+0 ? 1 : 0) nooutput
      if (STATS_sum > 0) { found = found." ".i }
    }
    metric = (panel == 1) ? "fma_per_cycle" : "bytes_per_cycle"
    bound = (panel == 1) ? "bound_fma_per_cycle" : "bound_bytes_per_cycle"
    if (panel == 1) {
      set title "FFMA chains (fma kernel)"
      set ylabel "warp FFMA per cycle per SM"
      set yrange [0:4.4]
      set key bottom right opaque box
    } else {
      set title (panel == 2) ? "dependent DRAM loads (chase kernel)" : "streaming float4 loads (stream kernel)"
      set ylabel "DRAM bytes per cycle per SM"
      set yrange [0:*]
      set key bottom right opaque box
    }
    plot for [i in found] f using (sel("occupancy_pct", i+0)):(column(metric)) smooth unique \
           with linespoints pt 7 ps 0.6 lw 2 lc rgb colour(i+0) title "ILP ".i, \
         for [i in found] f using (sel("occupancy_pct", i+0)):(column(bound)) smooth unique \
           with lines dt 2 lw 1 lc rgb colour(i+0) notitle, \
         NaN with lines dt 2 lc "gray40" title "Little's-law bound"
  }
}
unset multiplot
