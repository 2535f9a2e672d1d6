# plot_spill.gp - register cap sweep: occupancy rises, useful throughput falls.
# Usage: gnuplot -c scripts/plot_spill.gp SPILL.csv OUT.png|OUT.svg
#   SPILL.csv: `warpsim run --format csv` rows of one kernel, one per
#   launch.max_regs value (scripts/spill_sweep.sh writes it).  The title takes
#   the kernel, the model, the registers it needs and its live values from the
#   rows; a missing or empty file is refused (exit 2, no figure).
dir_(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")].dir_(s[strstrt(s, "/") + 1:]) : ""
load dir_(ARG0)."lib.gp"  # sq(): names reach the shell quoted
if (ARGC < 2) {
  print "usage: gnuplot -c scripts/plot_spill.gp SPILL.csv OUT.png"
  exit status 2
}
f = ARG1; out = ARG2
n = int(system(sprintf("if [ -f %s ] && [ -r %s ]; then awk 'NR > 1 && !/^#/ && NF { n++ } END { print n + 0 }' %s; else echo -1; fi", sq(f), sq(f), sq(f))))
if (n < 0) { print "plot_spill.gp: ".f.": no such file"; exit status 2 }
if (n == 0) { print "plot_spill.gp: ".f.": no data rows, no figure written"; exit status 2 }
set datafile separator ","
set datafile columnheaders
model = ""; kernel = ""; need = 0; live = 0; lo = 1e9; hi = 0; ymax = 0
stats f using (model = strcol("model"), kernel = strcol("kernel"), need = column("regs_per_thread"), \
               live = column("live_values"), 0) every ::0::0 nooutput
# "(modified: KEYS)" when the model_modified column says the model is not a
# shipped one unchanged.
modified = system(sprintf("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"model_modified\") c = i } NR == 2 && c { printf \"%%s\", $c }' %s", sq(f)))
model = (modified eq "") ? model : sprintf("%s (modified: %s)", model, modified)
stats f using (lo = (column("regs_allocated") < lo ? column("regs_allocated") : lo), \
               hi = (column("regs_allocated") > hi ? column("regs_allocated") : hi), \
               ymax = (column("fma_per_cycle") > ymax ? column("fma_per_cycle") : ymax), 0) nooutput
if (out[strlen(out)-3:] eq ".svg") {
  set terminal svg size 900,600 dynamic font "Sans,11"
} else {
  set terminal pngcairo size 900,600 font "Sans,11"
}
set output out
set termoption noenhanced
set grid
set title sprintf("Lowering -maxrregcount: occupancy goes up, useful FFMA throughput goes down\n%s on the %s model: %d registers needed, %d live values touched per iteration", kernel, model, need, live)
set xlabel sprintf("register cap (registers per thread; the kernel needs %d)", need)
set xrange [hi + 2:lo - 2] reverse
set ylabel "warp FFMA per cycle per SM (kernel FFMAs only)"
set yrange [0:ymax * 1.15]
set y2label "theoretical occupancy (%)"
set y2range [0:110]
set y2tics 0,25,100
set ytics nomirror
set key outside below center horizontal
set bmargin 6
plot f using (column("regs_allocated")):(column("fma_per_cycle")) with linespoints pt 7 lw 2 title "useful FFMA per cycle per SM (left axis)", \
     f using (column("regs_allocated")):(column("occupancy_pct")) axes x1y2 with linespoints pt 5 dt 2 title "theoretical occupancy (right axis)"
