# plot_occupancy_ipc.gp - throughput against theoretical occupancy, one line
# per ILP, one panel per kernel (the CSVs scripts/run.sh writes).
#
# Usage: gnuplot -c scripts/plot_occupancy_ipc.gp FMA.csv CHASE.csv STREAM.csv OUT.png|OUT.svg
#   Each CSV: `warpsim run --format csv` rows (header first), grouped by ILP.
#   Any of the three may be "-" to leave its panel out.
fma = ARG1; chase = ARG2; stream = ARG3; out = ARG4
if (out[strlen(out)-3:] eq "svg") {
  set terminal svg size 1500,520 dynamic font "Sans,12"
} else {
  set terminal pngcairo size 1500,520 font "Sans,11"
}
set output out
set datafile separator ","
set datafile columnheaders
set grid
set key top left box opaque
set xrange [0:105]
set xtics 0,12.5,100
set xlabel "theoretical occupancy (% of 64 warps per SM)"
ilps = "1 2 4 8"
sel(col, i) = (column("ilp") == i ? column(col) : NaN)

panels = (fma ne "-") + (chase ne "-") + (stream ne "-")
set multiplot layout 1, panels title "warpsim: throughput vs occupancy (H200 model, one SM)" font ",14"

if (fma ne "-") {
  set title "FFMA chains (fma kernel)"
  set ylabel "warp FFMA per cycle per SM"
  set yrange [0:4.4]
  set key bottom right
  plot 4 with lines dt 2 lc "gray" title "issue peak (4 SMSPs)", \
       for [i in ilps] fma using (sel("occupancy_pct", i+0)):(column("fma_per_cycle")) \
       with linespoints pt 7 ps 0.6 title "ILP ".i
}
if (chase ne "-") {
  set key top left
  set title "dependent DRAM loads (chase kernel)"
  set ylabel "DRAM bytes per cycle per SM"
  set yrange [0:*]
  plot for [i in ilps] chase using (sel("occupancy_pct", i+0)):(column("bytes_per_cycle")) \
       with linespoints pt 7 ps 0.6 title "ILP ".i
}
if (stream ne "-") {
  set key bottom right
  set title "streaming float4 loads (stream kernel)"
  set ylabel "DRAM bytes per cycle per SM"
  set yrange [0:*]
  plot for [i in "1 2 4"] stream using (sel("occupancy_pct", i+0)):(column("bytes_per_cycle")) \
       with linespoints pt 7 ps 0.6 title "ILP ".i
}
unset multiplot
