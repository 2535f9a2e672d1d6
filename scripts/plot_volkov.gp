# plot_volkov.gp - Volkov's two GTC 2010 tables beside the simulation
# (scripts/volkov.sh): left, FFMA throughput against threads per SM, one line
# per ILP, with the published threads needed for the peak as a dashed
# vertical line in the curve's colour and the simulated knee as an open
# circle; right, DRAM throughput against the bytes in flight on the whole GPU
# (warps x loads in flight per warp x bytes per warp-load x SMs), with
# Volkov's ~100 KB dashed.
# Usage: gnuplot -c scripts/plot_volkov.gp DIR OUT.png SMS
#   SMS: the model's SMs (bytes in flight on the GPU = per SM x SMS).
#   DIR: scripts/volkov.sh's folder (fma.csv, stream.csv: `warpsim run` rows;
#   volkov.csv: model,table,ilp,quantity,simulated,published).  A missing or
#   empty file is refused (exit 2, no figure).
dir_(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")].dir_(s[strstrt(s, "/") + 1:]) : ""
load dir_(ARG0)."lib.gp"  # sq(): names reach the shell quoted
if (ARGC < 3) {
  print "usage: gnuplot -c scripts/plot_volkov.gp DIR OUT.png SMS"
  exit status 2
}
dir = ARG1; out = ARG2; nsms = real(ARG3)
do for [b in "fma stream volkov"] {
  f = dir."/".b.".csv"
  n = int(system(sprintf("if [ -f %s ]; then awk 'NR > 1 && NF { n++ } END { print n + 0 }' %s; else echo -1; fi", sq(f), sq(f))))
  if (n < 0) { print "plot_volkov.gp: ".f.": no such file"; exit status 2 }
  if (n == 0) { print "plot_volkov.gp: ".f.": no data rows, no figure written"; exit status 2 }
}
fma = dir."/fma.csv"; str = dir."/stream.csv"; vt = dir."/volkov.csv"
set datafile separator ","
set datafile columnheaders
model = system(sprintf("awk -F, 'NR == 2 { print $1 }' %s", sq(vt)))
# published and simulated per table and ILP
pub(t, i) = real(system(sprintf("awk -F, -v t=%s -v i=%d '$2 == t && $3 == i { print $6 }' %s", sq(t), i, sq(vt))))
simv(t, i) = real(system(sprintf("awk -F, -v t=%s -v i=%d '$2 == t && $3 == i { print $5 }' %s", sq(t), i, sq(vt))))
ilps = "1 2 4"
palette = "#9400d3 #009e73 #e69f00"
colour(k) = word(palette, k)
lb = real(system(sprintf("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"load_bytes\") c = i; next } { print $c; exit }' %s", sq(str))))
set terminal pngcairo size 1300, 560 font "Sans,13"
set output out
set termoption noenhanced
set grid lc rgb "#dddddd"
set key bottom right Left reverse samplen 2 font ",12"
set multiplot layout 1, 2 title sprintf("Volkov, \"Better performance at lower occupancy\" (GTC 2010), on warpsim %s (validated=false)\nlines: simulated; dashed: the published number; circle: the simulated knee (first point at 90 %% of the best)", model) font ",14"

set title "FFMA chains: threads per SM needed for the peak"
set xlabel "threads per SM"
set ylabel "warp FFMA per cycle per SM"
set xrange [0:1536]
set xtics 0,192,1536
set yrange [0:1.15]
unset arrow; unset label
do for [k = 1:3] {
  i = int(word(ilps, k))
  set arrow k from pub("fma", i), graph 0 to pub("fma", i), graph 1 nohead dt 2 lw 2 lc rgb colour(k)
  set label k sprintf("%.0f", pub("fma", i)) at pub("fma", i), graph 0.05 left offset 0.3, 0 textcolor rgb colour(k) font ",11"
}
plot for [k = 1:3] fma using (column("ilp") == int(word(ilps, k)) ? 32 * column("warps_per_sm") : NaN):"fma_per_cycle" \
       with lines lw 2.5 lc rgb colour(k) title sprintf("ILP %s: %.0f (Volkov %.0f)", word(ilps, k), simv("fma", int(word(ilps, k))), pub("fma", int(word(ilps, k)))), \
     for [k = 1:3] fma using (column("ilp") == int(word(ilps, k)) && 32 * column("warps_per_sm") == simv("fma", int(word(ilps, k))) ? 32 * column("warps_per_sm") : NaN):"fma_per_cycle" \
       with points pt 6 ps 2.2 lw 2 lc rgb colour(k) notitle

set title sprintf("DRAM loads (%.0f B a warp-load): bytes in flight for the peak", lb)
set xlabel "bytes in flight (KB, GPU): warps x loads/warp x bytes/warp-load x SMs"
set ylabel "DRAM bytes per cycle per SM"
set xrange [0:800]
set xtics autofreq
set yrange [0:*]
unset arrow; unset label
set arrow 1 from 100, graph 0 to 100, graph 1 nohead dt 2 lw 2 lc rgb "gray20"
set label 1 "Volkov: ~100 KB" at 100, graph 0.05 left offset 0.3, 0 textcolor rgb "gray20" font ",11"
plot for [k = 1:3] str using (column("ilp") == int(word(ilps, k)) ? column("warps_per_sm") * column("ilp") * lb * nsms / 1000 : NaN):"bytes_per_cycle" \
       with lines lw 2.5 lc rgb colour(k) title sprintf("ILP %s: %.0f KB at the knee", word(ilps, k), simv("memory", int(word(ilps, k))) / 1000), \
     for [k = 1:3] str using (column("ilp") == int(word(ilps, k)) && abs(column("warps_per_sm") * column("ilp") * lb * nsms - simv("memory", int(word(ilps, k)))) < 1 ? column("warps_per_sm") * column("ilp") * lb * nsms / 1000 : NaN):"bytes_per_cycle" \
       with points pt 6 ps 2.2 lw 2 lc rgb colour(k) notitle
unset multiplot
