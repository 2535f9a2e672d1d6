# plot_validation.gp - measured (points) vs simulated (lines) vs the
# Little's-law bound (dashed), one panel per experiment.
# Usage: gnuplot -c scripts/plot_validation.gp DIR OUT.png
#   DIR holds fma.csv, chase_l2.csv, chase_dram.csv, stream.csv from
#   scripts/validate.sh (columns curve,ilp,warps_per_sm,measured,simulated,...).
dir = ARG1; out = ARG2
set terminal pngcairo size 1600,1000 font "Sans,10"
set output out
set datafile separator ","
set datafile columnheaders
set grid
set xrange [0:68]
set xtics 0,8,64
set xlabel "resident warps per SM"
set key bottom right opaque box
sel(col, i) = (column("ilp") == i ? column(col) : NaN)
colour(i) = (i == 1 ? 0x9400d3 : i == 2 ? 0x009e73 : i == 3 ? 0x56b4e9 : i == 4 ? 0xe69f00 : \
             i == 6 ? 0x0072b2 : i == 8 ? 0xd55e00 : 0x333333)
legend = "NaN with points pt 7 lc 'black' title 'measured (H200)', NaN with lines lw 2 lc 'black' title 'simulated', NaN with lines dt 2 lc 'black' title \"Little's-law bound\""
set multiplot layout 2,2 title "warpsim vs a real H200: measured (points), simulated (lines), Little's-law bound (dashed)" font ",13"

set title "FFMA chains"
set ylabel "warp FFMA per cycle per SM"
set yrange [0:4.5]
f = dir."/fma.csv"
plot for [i in "1 2 3 4 6 8"] f using (sel("warps_per_sm", i+0)):(column("measured")) with points pt 7 ps 0.7 lc rgb colour(i+0) title "ILP ".i, \
     for [i in "1 2 3 4 6 8"] f using (sel("warps_per_sm", i+0)):(column("simulated")) with lines lw 2 lc rgb colour(i+0) notitle, \
     for [i in "1 4"] f using (sel("warps_per_sm", i+0)):(column("little_bound")) with lines dt 2 lc rgb colour(i+0) notitle, @legend

set title "dependent loads hitting L2 (chase, 128 B lines)"
set ylabel "L2 bytes per cycle per SM"
set yrange [0:*]
f = dir."/chase_l2.csv"
plot for [i in "1 2 4"] f using (sel("warps_per_sm", i+0)):(column("measured")) with points pt 7 ps 0.7 lc rgb colour(i+0) title "ILP ".i, \
     for [i in "1 2 4"] f using (sel("warps_per_sm", i+0)):(column("simulated")) with lines lw 2 lc rgb colour(i+0) notitle, \
     for [i in "1 2 4"] f using (sel("warps_per_sm", i+0)):(column("little_bound")) with lines dt 2 lc rgb colour(i+0) notitle, @legend

set title "dependent loads from DRAM (chase, 128 B lines)"
set ylabel "DRAM bytes per cycle per SM"
f = dir."/chase_dram.csv"
plot for [i in "1 2 4"] f using (sel("warps_per_sm", i+0)):(column("measured")) with points pt 7 ps 0.7 lc rgb colour(i+0) title "ILP ".i, \
     for [i in "1 2 4"] f using (sel("warps_per_sm", i+0)):(column("simulated")) with lines lw 2 lc rgb colour(i+0) notitle, \
     for [i in "1 2 4"] f using (sel("warps_per_sm", i+0)):(column("little_bound")) with lines dt 2 lc rgb colour(i+0) notitle, @legend

set title "streaming float4 loads from DRAM"
set ylabel "DRAM bytes per cycle per SM"
f = dir."/stream.csv"
plot for [i in "1 2"] f using (sel("warps_per_sm", i+0)):(column("measured")) with points pt 7 ps 0.7 lc rgb colour(i+0) title "ILP ".i, \
     for [i in "1 2"] f using (sel("warps_per_sm", i+0)):(column("simulated")) with lines lw 2 lc rgb colour(i+0) notitle, \
     for [i in "1 2"] f using (sel("warps_per_sm", i+0)):(column("little_bound")) with lines dt 2 lc rgb colour(i+0) notitle, @legend
unset multiplot
