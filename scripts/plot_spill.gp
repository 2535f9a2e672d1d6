# plot_spill.gp - register cap sweep: occupancy rises, useful throughput falls.
# Usage: gnuplot -c scripts/plot_spill.gp SPILL.csv OUT.png
#   SPILL.csv: `warpsim run --format csv` rows of traces/spill.ini, one per
#   launch.max_regs value (scripts/spill_sweep.sh writes it).
f = ARG1; out = ARG2
set terminal pngcairo size 900,560 font "Sans,11"
set output out
set datafile separator ","
set datafile columnheaders
set grid
set title "Lowering -maxrregcount: occupancy goes up, useful FFMA throughput goes down\n{/*0.85 traces/spill.ini on the H200 model: 96 registers needed, 32 live values touched per iteration}"
set xlabel "register cap (registers per thread; the kernel needs 96)"
set xrange [98:30] reverse
set ylabel "warp FFMA per cycle per SM (kernel FFMAs only)"
set yrange [0:4.4]
set y2label "theoretical occupancy (%)"
set y2range [0:110]
set y2tics 0,25,100
set ytics nomirror
set key bottom left opaque box
plot f using (column("regs_allocated")):(column("fma_per_cycle")) with linespoints pt 7 lw 2 title "useful FFMA per cycle per SM", \
     f using (column("regs_allocated")):(column("occupancy_pct")) axes x1y2 with linespoints pt 5 dt 2 title "theoretical occupancy (right axis)"
