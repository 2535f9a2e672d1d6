# plot_occupancy_whatif.gp - the three what-if graphs of theoretical occupancy
# (as in Nsight Compute's Occupancy section): occupancy against registers per
# thread, block size and shared memory per block, the launch's own point marked.
#
# Input: the CSV that `warpsim occupancy ... --vary all --format csv` prints
# (columns vary, value, current, occupancy_pct, model, threads, regs, ...).
# A CSV of one curve (--vary regs|threads|smem) leaves the other graphs empty.
#
# Usage:
#   warpsim occupancy --model h200 --threads 256 --regs 40 --smem-dynamic 20000 \
#       --vary all --format csv > whatif.csv
#   gnuplot -c scripts/plot_occupancy_whatif.gp whatif.csv whatif.png
#   (or gnuplot -e "in='whatif.csv'; out='whatif.png'" scripts/plot_occupancy_whatif.gp)
# Writes one PNG (pngcairo).  A missing or empty input is refused (exit 2, no
# figure written).
dir_(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")].dir_(s[strstrt(s, "/") + 1:]) : ""
load dir_(ARG0)."lib.gp"  # sq(): names reach the shell quoted

if (ARGC >= 2) { in = ARG1; out = ARG2 }
if (!exists("in") || !exists("out")) {
  print "usage: gnuplot -c scripts/plot_occupancy_whatif.gp WHATIF.csv OUT.png"
  print "   or: gnuplot -e \"in='WHATIF.csv'; out='OUT.png'\" scripts/plot_occupancy_whatif.gp"
  exit status 2
}
rows = int(system(sprintf("if [ -f %s ] && [ -r %s ]; then awk 'NR > 1 && NF { n++ } END { print n + 0 }' %s; else echo -1; fi", sq(in), sq(in), sq(in))))
if (rows < 0) { print "plot_occupancy_whatif.gp: ".in.": no such file"; exit status 2 }
if (rows == 0) { print "plot_occupancy_whatif.gp: ".in.": no data rows, no figure written"; exit status 2 }

set datafile separator comma
set datafile columnheaders

# The launch, read from its own point of the register curve (current = 1).
model = ''; threads = 0; regs = 0; smem = 0; occ = 0
stats in using (strcol("current") eq "1" && strcol("vary") eq "regs" ? \
    (model = strcol("model"), threads = column("threads"), regs = column("regs"), \
     smem = column("smem_static") + column("smem_dynamic"), occ = column("occupancy_pct"), 1) : 0) \
    nooutput

set terminal pngcairo size 1500,480 font "sans,10"
set output out
set multiplot layout 1,3 title sprintf("Theoretical occupancy of %s: %d threads/block, %d registers/thread, %d B shared memory/block (%.1f %%)", \
    model, threads, regs, smem, occ) font "sans,12"

set grid
set key bottom left
set yrange [0:105]
set ylabel "theoretical occupancy (%)"
cur_style = 'with points pt 7 ps 1.8 lc rgb "#d62728" title "this launch"'

is(v) = strcol("vary") eq v
x_of(v) = is(v) ? column("value") : NaN
x_cur(v) = is(v) && strcol("current") eq "1" ? column("value") : NaN

set title "Impact of varying register count per thread"
set xlabel "registers per thread"
set xrange [0:256]
plot in using (x_of("regs")):"occupancy_pct" with steps lw 2 lc rgb "#1f77b4" title "occupancy", \
     in using (x_cur("regs")):"occupancy_pct" @cur_style

set title "Impact of varying block size"
set xlabel "threads per block"
set xrange [0:1056]
set xtics 128
plot in using (x_of("threads")):"occupancy_pct" with linespoints pt 7 ps 0.6 lw 2 lc rgb "#2ca02c" title "occupancy", \
     in using (x_cur("threads")):"occupancy_pct" @cur_style

set title "Impact of varying shared memory usage per block"
set xlabel "shared memory per block, static + dynamic (KiB)"
set autoscale x
set xtics autofreq
plot in using (x_of("smem") / 1024.0):"occupancy_pct" with steps lw 2 lc rgb "#9467bd" title "occupancy", \
     in using (x_cur("smem") / 1024.0):"occupancy_pct" @cur_style

unset multiplot
