# plot_occupancy.gp - throughput against theoretical occupancy: one panel per
# input file, one line per value of the swept group (ILP, else loads in flight
# per warp), and on every curve its knee (the smallest occupancy reaching 90 %
# of the curve's plateau, an open circle), its plateau (dotted, from the knee
# on), the 50 % occupancy line, and in the legend what the warps from 50 % to
# the most resident warps buy.  The Little's-law bound with the model's own
# numbers is dashed.
#
# Usage: gnuplot -c scripts/plot_occupancy.gp OUT.png|OUT.svg PANEL [PANEL ...]
#   PANEL: SIM.csv, or SIM.csv:MEASURED.csv to draw measured points beside the
#   simulation.  SIM.csv holds `warpsim run --format csv` rows (header first),
#   e.g. from scripts/sweep.sh.  MEASURED.csv has the same column names
#   (at least model, ilp, occupancy_pct and the panel's metric), e.g. a real
#   GPU's curve.  Up to 8 panels.  gnuplot -e "title='...'" -c ... replaces the
#   headline (the model's name stays in it); gnuplot -e "metric='ipc'" -c ...
#   draws that column (ipc, fma_per_cycle, bytes_per_cycle, any numeric
#   column of the rows) in every panel instead of the metric chosen below
#   (no such or no numeric column: exit 2).
# What each panel shows comes from its data: the metric is bytes_per_cycle when
# the kernel loads, else the first of fma_per_cycle, mufu_per_cycle,
# lds_per_cycle that is not zero in every row, else ipc;
# the y label names the memory level; the title names the kernel, its load
# pattern and level; the figure title names the model, and "(modified: KEYS)"
# when a row's model_modified column says it is not a shipped model unchanged.
# Every group value
# present is drawn.  The plateaus, knees, still-rising flags and changes
# from 50 % to 100 % are warpsim curve-stats' ($WARPSIM, else the build
# tree's or the installed binary).  A missing or empty file, a file without
# the columns it reads, a cell that is no number or a metric that is no
# column name is refused (exit 2, no figure).
if (ARGC < 2) {
  print "usage: gnuplot -c scripts/plot_occupancy.gp OUT.png|OUT.svg SIM.csv[:MEASURED.csv] [...]"
  exit status 2
}
dir_(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")].dir_(s[strstrt(s, "/") + 1:]) : ""
load dir_(ARG0)."lib.gp"
out = ARG1
panels = ARGC - 1
me = "plot_occupancy.gp"
here = dir_(ARG0) eq "" ? "./" : dir_(ARG0)
warpsim = system(sprintf("if [ -n \"${WARPSIM:-}\" ]; then printf %%s \"$WARPSIM\"; elif [ -x %s ]; then printf %%s %s; else printf %%s %s; fi", \
  sq(here."../build/sim/warpsim"), sq(here."../build/sim/warpsim"), sq(here."../../../bin/warpsim")))

# rows FILE: data rows (not the header, not '#' lines); -1 when unreadable.
rows(f) = int(system(sprintf("if [ -f %s ] && [ -r %s ]; then awk 'NR > 1 && !/^#/ && NF { n++ } END { print n + 0 }' %s; else echo -1; fi", sq(f), sq(f), sq(f))))
sim_of(p) = strstrt(p, ":") ? p[1:strstrt(p, ":") - 1] : p
meas_of(p) = strstrt(p, ":") ? p[strstrt(p, ":") + 1:] : ""
# A metric other than a column name is refused before any is read.
name_chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
if (exists("metric")) {
  do for [i = 1:strlen(metric)] {
    if (!strstrt(name_chars, metric[i:i])) {
      print me.": metric '".metric."': not a column name (allowed letters, digits and _)"
      exit status 2
    }
  }
}
do for [a = 2:ARGC] {
  p = ARGV[a]
  do for [k = 1:(meas_of(p) eq "" ? 1 : 2)] {  # (not "for [f in ...]": a name may hold a space)
    f = (k == 1) ? sim_of(p) : meas_of(p)
    n = rows(f)
    if (n < 0) { print me.": ".f.": no such file"; exit status 2 }
    if (n == 0) { print me.": ".f.": no data rows, no figure written"; exit status 2 }
  }
}

# Group column of file f and its values, in file order (gcol, groups): the
# first of `candidates` that takes several values, else ilp.
candidates = "ilp loads_in_flight loads"
has(f, c) = int(system(sprintf("head -1 %s | tr -d '\\r' | tr ',' '\\n' | grep -cx %s", sq(f), sq(c))))
find_groups = 'gcol = ""; '. \
  'do for [c in candidates] { if (gcol eq "" && has(f, c)) { vals = " "; '. \
  'stats f using (v = sprintf("%g", column(c)), strstrt(vals, " ".v." ") == 0 ? (vals = vals.v." ") : "", 0) nooutput; '. \
  'if (words(vals) > 1) { gcol = c; groups = vals } } }; '. \
  'if (gcol eq "") { gcol = "ilp"; groups = " "; '. \
  'stats f using (v = sprintf("%g", column("ilp")), strstrt(groups, " ".v." ") == 0 ? (groups = groups.v." ") : "", 0) nooutput }'

# The legend below the axes has a line per curve, a line per measured
# curve and one for the bound: the figure is as tall as the longest legend
# needs, so a short one leaves no blank band.
set datafile separator ","
set datafile columnheaders
legend_lines = 1
do for [a = 2:ARGC] {
  f = sim_of(ARGV[a]); mf = meas_of(ARGV[a])
  eval find_groups
  lines = words(groups) + 1
  if (mf ne "") {
    mvals = " "
    stats mf using (v = sprintf("%g", column(gcol)), strstrt(mvals, " ".v." ") == 0 ? (mvals = mvals.v." ") : "", 0) nooutput
    lines = lines + words(mvals)
  }
  legend_lines = (lines > legend_lines) ? lines : legend_lines
}
# Pixels: titles above the axes, the axes, tic labels and x label below
# them, then the legend (line_px a line).
line_px = 18.0; top_px = 110.0; axes_px = 400.0; xlabel_px = 60.0
legend_px = line_px * legend_lines + 30
height = int(top_px + axes_px + xlabel_px + legend_px)
# -e "metric='COLUMN'" picks the metric (any numeric column of the rows).
want_metric = exists("metric") ? metric : ""
metric_names = "ipc fma_per_cycle bytes_per_cycle mufu_per_cycle lds_per_cycle loads_per_cycle dram_bytes_per_cycle issue_active"
metric_labels = "warp instructions per cycle per SM|warp FFMA per cycle per SM|global load bytes per cycle per SM|warp MUFU per cycle per SM|warp LDS per cycle per SM|warp global loads per cycle per SM|DRAM bytes per cycle per SM|issue slots busy (fraction)"
field(list, i) = system(sprintf("printf '%%s' %s | cut -d'|' -f%d", sq(list), i))
mindex(c) = strstrt(" ".metric_names." ", " ".c." ") ? words((" ".metric_names." ")[1:strstrt(" ".metric_names." ", " ".c." ")]) + 1 : 0
mlabel(c) = mindex(c) ? field(metric_labels, mindex(c)) : c
# numeric FILE COL: the column's first data value is a number.
numeric(f, c) = int(system(sprintf("awk -F, -v n=%s 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } /^#/ { next } { print ($c ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) ? 1 : 0; exit }' %s", sq(c), sq(f))))

# The columns every panel reads (warpsim run --format csv has them all).
needed = "model kernel level load_pattern load_bytes loads fma_per_cycle mufu_per_cycle lds_per_cycle ilp occupancy_pct max_regs regs_allocated"
do for [a = 2:ARGC] {  # the metric asked for, in every panel, before any figure is written
  f = sim_of(ARGV[a])
  do for [c in needed] {
    if (!has(f, c)) { print me.": ".f.": no column '".c."' (the columns of warpsim run --format csv are needed)"; exit status 2 }
  }
  mf = meas_of(ARGV[a])
  do for [c in "model ilp occupancy_pct ".want_metric] {
    if (mf ne "" && !has(mf, c)) { print me.": ".mf.": no column '".c."' (a measured file needs model, ilp, occupancy_pct and the metric)"; exit status 2 }
  }
  if (want_metric ne "" && !has(f, want_metric)) { print me.": ".f.": metric '".want_metric."': no such column"; exit status 2 }
  if (want_metric ne "" && !numeric(f, want_metric)) { print me.": ".f.": metric '".want_metric."': not a numeric column"; exit status 2 }
}
svg = (out[strlen(out)-3:] eq ".svg")
if (svg) {
  set terminal svg size (panels > 1 ? 560 * panels : 900),height dynamic font "Sans,12"
} else {
  set terminal pngcairo size (panels > 1 ? 560 * panels : 900),height font "Sans,10.5"
}
set output out
set termoption noenhanced
set grid
set xrange [0:105]
set xtics 0,12.5,100
set xlabel "theoretical occupancy (% of the SM's warps)"

# Line and point types by curve, so curves that coincide still show: each
# later curve dashed and with a smaller marker of another shape on top
# (measured points: filled pentagons, a shape no curve takes).
ptypes = "7 5 9 11 13 4 6 8 10 12 1 2"
ptype(i) = int(word(ptypes, (i - 1) % 12 + 1))
dtype(i) = (i - 1) % 5 + 1
psize(i, n) = 0.6 + 0.35 * (n - i)

# Colour by group value, the same in every panel (Okabe-Ito and friends).
canon = " 1 2 4 8 3 6 5 7 16 32 12 24 64 "
palette = "#9400d3 #009e73 #e69f00 #d55e00 #56b4e9 #0072b2 #cc79a7 #999933 #882255 #44aa99 #332288 #888888"
colour(v, idx) = word(palette, ((strstrt(canon, " ".v." ") ? words(canon[1:strstrt(canon, " ".v." ")]) + 1 : 12 + idx) - 1) % 12 + 1)

# curve_stats_of("FILE", "GROUPS", "N", "PLAT PLATX RISING FALLING KNEE KNEEV X50 XMAX CHANGE"):
# a command for eval that runs warpsim curve-stats on the file in variable
# FILE (metric and gcol as set), checks it gives one row per value in GROUPS
# (N of them, in order) and fills the arrays named: plateau, its
# occupancy, still rising (0/1), falls below the knee's 90 % (0/1), knee
# occupancy and y, the 50 % and full points' occupancy, and the change
# text ("-": none).  A failed run (its message on stderr) exits 2.
cs_cols = 14  # group, metric, points, plateau, knee_x, knee_occupancy_pct, y_at_max_x,
              # still_rising, change_50_to_100_pct, peak_x, knee_y, falls, half_, full_occupancy_pct
curve_stats(file) = system(sprintf("%s curve-stats --x occupancy_pct --y %s --group %s --occupancy occupancy_pct --where %s | tail -n +2 | tr ',\\n' '  '", \
  sq(warpsim), sq(metric), sq(gcol), sq(file)))
cs_num(t) = (t eq "-") ? NaN : real(t)
curve_stats_of(F, G, N, A) = sprintf('csrow = curve_stats(%s); ', F). \
  sprintf('if (words(csrow) != %s * cs_cols) { print me.": ".%s.": warpsim curve-stats gave no row per ".gcol." value (".warpsim.")"; unset multiplot; set output; system "rm -f ".sq(out); exit status 2 }; ', N, F). \
  sprintf('array %s[%s]; array %s[%s]; array %s[%s]; array %s[%s]; array %s[%s]; array %s[%s]; array %s[%s]; array %s[%s]; array %s[%s]; ', \
    word(A, 1), N, word(A, 2), N, word(A, 3), N, word(A, 4), N, word(A, 5), N, word(A, 6), N, word(A, 7), N, word(A, 8), N, word(A, 9), N). \
  sprintf('do for [i = 1:%s] { cs(j) = word(csrow, (i - 1) * cs_cols + j); ', N). \
  sprintf('if (sprintf("%%g", real(cs(1))) ne word(%s, i)) { print me.": ".%s.": curve-stats curve ".cs(1)." is not ".word(%s, i); unset multiplot; set output; system "rm -f ".sq(out); exit status 2 }; ', G, F, G). \
  sprintf('%s[i] = real(cs(4)); %s[i] = real(cs(10)); %s[i] = (cs(8) eq "yes"); %s[i] = (cs(12) eq "yes"); ', word(A, 1), word(A, 2), word(A, 3), word(A, 4)). \
  sprintf('%s[i] = cs_num(cs(6)); %s[i] = cs_num(cs(11)); %s[i] = cs_num(cs(13)); %s[i] = cs_num(cs(14)); %s[i] = cs(9) }', word(A, 5), word(A, 6), word(A, 7), word(A, 8), word(A, 9))
glabel(g) = (g eq "ilp") ? "ILP" : (g eq "loads_in_flight" || g eq "loads") ? "loads in flight/warp" : g
# modified_of FILE: the distinct non-empty model_modified values of its rows, "; "-joined.
modified_of(f) = system(sprintf("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"model_modified\") c = i; next } c && $c != \"\" && !s[$c]++ { o = o (o == \"\" ? \"\" : \"; \") $c } END { printf \"%%s\", o }' %s", sq(f)))
# The model's name, and what a --set or a file of one's own changed in it
# (the model_modified column): a modified model is never labelled as shipped.
model = ""; modified = ""
do for [a = 2:ARGC] {
  f = sim_of(ARGV[a])
  stats f using (model = strcol("model"), 0) every ::0::0 nooutput
  mm = modified_of(f)
  modified = (mm eq "" || strstrt(modified, mm)) ? modified : modified.(modified eq "" ? "" : "; ").mm
}
# (on a line of its own: a one-panel figure is too narrow for both)
model = (modified eq "") ? model : sprintf("%s\n(modified: %s)", model, modified)
head = exists("title") ? title : "throughput per SM against theoretical occupancy"
title = sprintf("warpsim, model %s: %s\ncircle: knee (first point at 90 %% of the best); dotted: plateau if flat; legend: change, 50 to 100 %%", model, head)
set multiplot title title font ",13"
# Fixed margins, so every panel's axes line up whatever its legend holds; the
# legend sits below the axes, outside the data.
set tmargin at screen 1.0 - top_px / height
set bmargin at screen (xlabel_px + legend_px) / height

do for [a = 2:ARGC] {
  f = sim_of(ARGV[a]); mf = meas_of(ARGV[a])
  x0 = (a - 2.0) / panels
  set lmargin at screen x0 + (panels > 1 ? 0.075 : 0.1)
  set rmargin at screen x0 + 1.0 / panels - 0.02
  set key at screen x0 + 0.01, screen (legend_px - 10.0) / height left top Left reverse vertical samplen 2 width 0 spacing 1.1
  # The first row describes the kernel.
  kernel = ""; level = ""; pattern = ""; lbytes = 0; maxloads = 0; maxfma = 0; maxsfu = 0; maxlds = 0
  stats f using (kernel = strcol("kernel"), level = strcol("level"), pattern = strcol("load_pattern"), \
                 lbytes = column("load_bytes"), 0) every ::0::0 nooutput
  # What the kernel does, from its measured rates (a spill kernel's FFMAs
  # are its live values, not [stream] fma).
  # Global loads per cycle measure what a SASS kernel loads (its [stream]
  # columns are 0); files without the column fall back to [stream] loads.
  lcol = has(f, "loads_per_cycle") ? "loads_per_cycle" : "loads"
  stats f using (maxloads = (column(lcol) > maxloads ? column(lcol) : maxloads), \
                 maxfma = (column("fma_per_cycle") > maxfma ? column("fma_per_cycle") : maxfma), \
                 maxsfu = (column("mufu_per_cycle") > maxsfu ? column("mufu_per_cycle") : maxsfu), \
                 maxlds = (column("lds_per_cycle") > maxlds ? column("lds_per_cycle") : maxlds), 0) nooutput
  LEVEL = (level eq "dram") ? "DRAM" : (level eq "l2") ? "L2" : (level eq "l1") ? "L1" : level
  # A SASS kernel (loads but no [stream] loads) draws from the levels by its
  # profile's hit rates; a [stream] footprint moves its level's hit rate
  # with the warps (min of load_l1_hit / load_l2_hit below 1).
  maxsloads = 0; minl1 = 1; minl2 = 1
  stats f using (maxsloads = (column("loads") > maxsloads ? column("loads") : maxsloads), 0) nooutput
  if (has(f, "load_l1_hit") && has(f, "load_l2_hit")) {
    stats f using (minl1 = (column("load_l1_hit") < minl1 ? column("load_l1_hit") : minl1), \
                   minl2 = (column("load_l2_hit") < minl2 ? column("load_l2_hit") : minl2), 0) nooutput
  }
  sass = (maxloads > 0 && maxsloads == 0)
  spills = (level eq "l1" && minl1 < 1) ? "L2" : (level eq "l2" && minl2 < 1) ? "DRAM" : ""
  if (maxloads > 0) {
    metric = "bytes_per_cycle"; bound = (sass || spills ne "") ? "" : "bound_bytes_per_cycle"
    if (sass) {
      set ylabel "global load bytes per cycle per SM"
      ptitle = sprintf("%s: from its SASS and profile (global loads)", kernel)
    } else { if (spills ne "") {
      set ylabel sprintf("global load bytes per cycle per SM (%s hits, the rest %s)", LEVEL, spills)
      ptitle = sprintf("%s: %s %d B loads, per-warp data outgrowing %s", kernel, (pattern eq "chase") ? "dependent" : "independent", lbytes, LEVEL)
    } else {
      set ylabel LEVEL." bytes per cycle per SM"
      ptitle = sprintf("%s: %s %d B loads from %s", kernel, (pattern eq "chase") ? "dependent" : "independent", lbytes, LEVEL)
    } }
  } else { if (maxfma > 0) {
    metric = "fma_per_cycle"; bound = "bound_fma_per_cycle"
    set ylabel "warp FFMA per cycle per SM (the kernel's, not spill code)"
    ptitle = sprintf("%s: FFMA chains, no global loads", kernel)
  } else { if (maxsfu > 0) {
    metric = "mufu_per_cycle"; bound = ""
    set ylabel "warp MUFU per cycle per SM"
    ptitle = sprintf("%s: MUFU chains", kernel)
  } else { if (maxlds > 0) {
    metric = "lds_per_cycle"; bound = ""
    set ylabel "warp LDS per cycle per SM"
    ptitle = sprintf("%s: shared-memory loads", kernel)
  } else {
    metric = "ipc"; bound = ""
    set ylabel "warp instructions per cycle per SM"
    ptitle = kernel
  } } } }
  # -e "metric='COLUMN'": that column instead (its label from the list
  # below, else its name); a Little's-law bound only where it is the one
  # the column has.
  if (want_metric ne "" && want_metric ne metric) {
    metric = want_metric
    bound = (metric eq "fma_per_cycle") ? "bound_fma_per_cycle" : (metric eq "bytes_per_cycle" && !sass && spills eq "") ? "bound_bytes_per_cycle" : ""
    set ylabel mlabel(metric)
  }

  eval find_groups
  n = words(groups)
  sel(v) = (sprintf("%g", column(gcol)) eq v)
  # A register-cap sweep (max_regs varies): each point labelled with its cap.
  caps = " "
  stats f using (v = sprintf("%g", column("max_regs")), strstrt(caps, " ".v." ") == 0 ? (caps = caps.v." ") : "", 0) nooutput
  labelled = (words(caps) > 1)
  if (labelled) { set title ptitle."\nregister cap swept (-maxrregcount; labels: registers per thread)" } else { set title ptitle }
  # The label of each row (one word per data row, in file order): the
  # registers of every row at the same point (group, occupancy and value:
  # caps the allocation does not reach give the same point), joined by "/",
  # on the point's first row with ":0" (above) or ":1" (below) alternating
  # from point to point; "-" on the others, which draw none.
  rowlab = labelled ? system(sprintf("awk -F, -v g=%s -v m=%s 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NF { r++; k = $c[g] \"@\" $c[\"occupancy_pct\"] \"@\" $c[m]; if (!(k in first)) { first[k] = r; pt[k] = np++; lab[k] = $c[\"regs_allocated\"] } else lab[k] = lab[k] \"/\" $c[\"regs_allocated\"]; key[r] = k } END { for (j = 1; j <= r; j++) printf \"%%s \", first[key[j]] == j ? lab[key[j]] \":\" (pt[key[j]] %% 2) : \"-\" }' %s", sq(gcol), sq(metric), sq(f))) : ""
  rlab(r) = word(rowlab, r + 1)
  rtext(r) = rlab(r)[1:strstrt(rlab(r), ":") - 1]
  rside(r) = (rlab(r) eq "-" || rlab(r) eq "") ? -1 : int(rlab(r)[strstrt(rlab(r), ":") + 1:])

  # Per curve, from warpsim curve-stats: plateau, knee, still rising, the
  # change from the largest occupancy <= 50 % to the largest, and (--where)
  # the points they come from; one row per group value, in file order.
  eval curve_stats_of("f", "groups", "n", "plat platx rising falling knee kneev x50 xmax change")
  ymax = 0
  do for [i = 1:n] { ymax = (plat[i] > ymax) ? plat[i] : ymax }
  gain(i) = (change[i] ne "-") ? sprintf("%.0f→%.0f %%: %s %%", x50[i], xmax[i], change[i]) : \
            xmax[i] <= 50 ? "no point above 50 %" : "no point at or below 50 %"
  # One curve of a register-cap sweep, a SASS kernel or a [stream]
  # footprint kernel: named by its kernel, not its group (ILP means nothing
  # there, or the title says what is swept).
  cname(i) = ((labelled || sass || spills ne "") && n == 1) ? kernel : glabel(gcol)." ".word(groups, i)
  entry(i) = sprintf("%s: %s (%s)", cname(i), gain(i), \
                   rising[i] ? sprintf("still rising at %.0f %%, no knee", xmax[i]) : \
                   falling[i] ? sprintf("best %.4g at %.4g %%, falls after", plat[i], platx[i]) : \
                   sprintf("knee %.4g %%, plateau %.4g", knee[i], plat[i]))

  # Measured curve (optional): same columns, drawn as points per group value.
  if (mf ne "") {
    mvals = " "
    stats mf using (v = sprintf("%g", column(gcol)), strstrt(mvals, " ".v." ") == 0 ? (mvals = mvals.v." ") : "", 0) nooutput
    mn = words(mvals)
    eval curve_stats_of("mf", "mvals", "mn", "mplat mplatx mrising mfalling mknee mkneev mx50 mxmax mchange")
    msrc = ""
    stats mf using (msrc = strcol("model"), 0) every ::0::0 nooutput
    do for [i = 1:mn] { ymax = (mplat[i] > ymax) ? mplat[i] : ymax }
    mgain(i) = (mchange[i] ne "-") ? sprintf("%.0f→%.0f %%: %s %%", mx50[i], mxmax[i], mchange[i]) : \
               mxmax[i] <= 50 ? "no point above 50 %" : "no point at or below 50 %"
    mentry(i) = sprintf("%s %s, %s: %s (%s, peak %.4g)", glabel(gcol), word(mvals, i), msrc, mgain(i), \
                        mrising[i] ? "still rising, no knee" : sprintf("knee %.4g %%", mknee[i]), mplat[i])
  } else {
    mn = 0; mvals = " "; mf = f  # an empty iteration still names a file
    mentry(i) = ""
  }

  set yrange [0:ymax * 1.12]
  unset arrow; unset label
  set arrow from 50, graph 0 to 50, graph 1 nohead dt 2 lw 1.5 lc rgb "gray30" front
  set label "50 % occupancy" at 50, graph 0.04 right offset -0.5, 0 textcolor rgb "gray30" front
  do for [i = 1:n] {
    c = colour(word(groups, i), i)
    if (!rising[i] && !falling[i]) { set arrow from knee[i], plat[i] to xmax[i], plat[i] nohead dt 3 lw 1.5 lc rgb c }
  }
  has_bound = (bound ne "") && has(f, bound)
  if (has_bound) {  # a bound of zero in every row: nothing to draw
    bmax = 0
    stats f using (bmax = (column(bound) > bmax ? column(bound) : bmax), 0) nooutput
    has_bound = (bmax > 0)
  }
  plot for [i = 1:n] f using (sel(word(groups, i)) ? column("occupancy_pct") : NaN):(column(metric)) \
         with linespoints pt ptype(i) ps psize(i, n) lw 2 dt dtype(i) lc rgb colour(word(groups, i), i) title entry(i), \
       for [i = 1:n] f using (sel(word(groups, i)) && !rising[i] && column("occupancy_pct") == knee[i] && column(metric) == kneev[i] ? column("occupancy_pct") : NaN):(column(metric)) \
         with points pt 6 ps 2.2 lw 2 lc rgb colour(word(groups, i), i) notitle, \
       for [i = 1:(has_bound ? n : 0)] f using (sel(word(groups, i)) ? column("occupancy_pct") : NaN):(column(bound)) \
         with lines dt 2 lw 1 lc rgb colour(word(groups, i), i) notitle, \
       for [i = 1:mn] mf using (sel(word(mvals, i)) ? column("occupancy_pct") : NaN):(column(metric)) \
         with points pt 15 ps 1.5 lc rgb colour(word(mvals, i), i) title mentry(i), \
       for [i = 1:(labelled ? n : 0)] f using (sel(word(groups, i)) && rside(int(column(0))) == 0 ? column("occupancy_pct") : NaN):(column(metric)):(rtext(int(column(0)))) \
         with labels left offset 0.6, 0.6 font ",8" notitle, \
       for [i = 1:(labelled ? n : 0)] f using (sel(word(groups, i)) && rside(int(column(0))) == 1 ? column("occupancy_pct") : NaN):(column(metric)):(rtext(int(column(0)))) \
         with labels left offset 0.6, -0.6 font ",8" notitle, \
       for [j = 1:has_bound] NaN with lines dt 2 lc rgb colour(word(groups, 1), 1) title (n > 1 ? "Little's-law bound (dashed, each curve's colour)" : "Little's-law bound (dashed)")
}
unset multiplot
