#!/usr/bin/env bash
# main_summary.sh - the main job's result in a few lines: per curve of
# OUT/summary.csv (scripts/knee.sh) its knee and what the warps from 50 % to
# 100 % occupancy buy; then, where OUT/validation/ holds them, how many
# synthetic curves (validation/summary.csv) and real kernels
# (validation/real_summary.csv) meet their targets, the known misses of
# scripts/known_misses.tsv each with its numbers and one-line reason, any
# other miss (or a known one that now passes), each distinct warpsim warning
# of WARNINGS once, and where the full tables and the figures are.  Reads
# every number from those files (columns by header name); computes none.
# Usage: scripts/main_summary.sh OUT MODEL [WARNINGS]
#   OUT: the main job's results folder; MODEL: the model it ran;
#   WARNINGS: a file of the validation's stderr (its "warpsim: warning:" lines).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
[ $# -ge 2 ] && [ $# -le 3 ] || warpsim_die "expected OUT MODEL [WARNINGS] (see --help)"
out=$1 model=$2 warnings=${3:-}
[ -f "$out/summary.csv" ] || warpsim_die "$out/summary.csv: no such file (run scripts/run.sh)"
known=$root/scripts/known_misses.tsv
[ -f "$known" ] || warpsim_die "$known: no such file"
rel() { echo "${1#"$root"/}"; }

# The curves: one line per kernel, its ILP values, knees and changes in order.
echo "Result, model $model: what the second half of the warps buys (50 -> 100 % occupancy)"
awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { k = $c["kernel"]; if (!(k in n)) order[++nk] = k
    i = ++n[k]; ilp[k] = ilp[k] (i > 1 ? " " : "") $c["ilp"]
    kn = $c["knee_occupancy_pct"]; kn = kn == "" ? "-" : sprintf("%g", kn)
    knee[k] = knee[k] (i > 1 ? " " : "") kn
    ch = $c["change_50_to_100_pct"]; chg[k] = chg[k] (i > 1 ? " " : "") (ch == "" ? "-" : ch) }
  END { what["fma"] = "compute-bound"; what["chase"] = "dependent loads"; what["stream"] = "float4 stream"
        what["spill"] = "register cap"; what["thrash"] = "L1 footprint"
    for (j = 1; j <= nk; j++) { k = order[j]
      if (n[k] > 1) printf "  %-6s %-18s ILP %-7s  knee %-23s  50 -> 100 %%: %s\n", k, "(" what[k] "),", ilp[k] ":", knee[k] " %,", chg[k] " %"
      else printf "  %-6s %-18s %-11s  knee %-23s  50 -> 100 %%: %s\n", k, "(" what[k] "),", "", knee[k] " %,", chg[k] " %" } }' "$out/summary.csv"
echo "  (knee: smallest occupancy reaching 90 % of the curve's best; -: still rising at 100 %)"

val=$out/validation
if [ -f "$val/summary.csv" ] || [ -f "$val/real_summary.csv" ]; then
  echo "Validation against the real H200 ($(rel "$val")/):"
  # count TABLE FILE NAMECOL TARGET: "N of M within target" over rows whose
  # pass is yes or NO (n/a: nothing held out).
  count() {
    [ -f "$2" ] || return 0
    awk -F, -v what="$1" -v target="$4" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      $c["pass"] == "yes" { y++ } $c["pass"] == "NO" { no++ }
      END { printf "  %-18s %d of %d within target (%s)\n", what ":", y, y + no, target }' "$2"
  }
  count "synthetic curves" "$val/summary.csv" curve "held-out MAPE <= 8 %, knee within 4 warps"
  count "real kernels" "$val/real_summary.csv" kernel "anchored MAPE <= 10 % off the profiled point, knee within 4 warps"
  # Every miss, known or not, with its numbers; then known rows that passed.
  awk -F'\t' -v known="$(rel "$known")" '
    FNR == 1 { file++ }
    file == 1 { if (!/^#/ && $1 != "table") { why[$1 SUBSEP $2] = $3; kname[++nk] = $1 SUBSEP $2 }; next }
    FNR == 1 { split($0, h, ","); delete c; for (i in h) c[h[i]] = i; table = (file == 2) ? "synthetic" : "real"; next }
    { split($0, f, ","); name = f[c[table == "synthetic" ? "curve" : "kernel"]]
      seen[table SUBSEP name] = 1
      if (f[c["pass"]] != "NO") { passed[table SUBSEP name] = 1; next }
      # (real: the anchored curve, validate_real.sh; a table without it: mape_pct)
      mape = table == "synthetic" ? f[c["mape_heldout_pct"]] : f[c[("mape_anchored_pct" in c) ? "mape_anchored_pct" : "mape_pct"]]
      ks = f[c[("knee_anchored_warps" in c) ? "knee_anchored_warps" : "knee_simulated_warps"]]
      line = sprintf("%-14s MAPE %7s %%, knee %2s / %2s", name, mape, ks, f[c["knee_measured_warps"]])
      if ((table SUBSEP name) in why) kl[++nkl] = line ": " why[table SUBSEP name]
      else ul[++nul] = line }
    END {
      if (nkl) printf "  known misses (%s; knee: simulated / measured warps):\n", known
      for (i = 1; i <= nkl; i++) print "    " kl[i]
      for (i = 1; i <= nul; i++) print "  NEW MISS, not in " known ": " ul[i]
      for (i = 1; i <= nk; i++) if ((kname[i] in passed)) {
        split(kname[i], p, SUBSEP); print "  now within target (drop it from " known "): " p[2] }
      if (!nul) print "  no other kernel or curve misses its target" }' \
    "$known" <(cat "$val/summary.csv" 2>/dev/null || echo curve) <(cat "$val/real_summary.csv" 2>/dev/null || echo kernel)
fi
# Each distinct warning once: the file and line, without the instruction's text.
if [ -n "$warnings" ] && grep -q '^warpsim: warning:' "$warnings" 2>/dev/null; then
  echo "warpsim's warnings on the shipped kernels (said once here, not per point):"
  grep '^warpsim: warning:' "$warnings" | sort -u | grep -v ': at the profiled launch (' |
    sed -e 's/^warpsim: warning: //' -e 's|^[^ ]*/results/reference/|results/reference/|' -e "s/: '[^']*': /: /" |
    fold -s -w 96 | sed 's/^/  /' || true
  # The agreement warnings (one per kernel whose pure model misses its own
  # profile by more than 10 %): a kernel, the cycles ratio and the metric each.
  agree=$(grep '^warpsim: warning:' "$warnings" | sort -u | grep ': at the profiled launch (' |
    sed -E 's/^warpsim: warning: ([^:]*): .*\(x([0-9.]+), .*disagrees most is ([^ ]+) .*/\1 x\2 (\3)/' |
    sed 's/_sass / /' | paste -sd';' - | sed 's/;/, /g' || true)
  if [ -n "$agree" ]; then
    echo "  the pure model misses its own profile by more than 10 % (SM active cycles, simulated/profiled;"
    echo "  the metric that disagrees most; report section \"Agreement with the profile\"):"
    echo "$agree" | fold -s -w 94 | sed 's/^/    /'
  fi
fi
# Volkov's tables (scripts/volkov.sh): simulated beside published.
if [ -f "$out/volkov/volkov.csv" ]; then
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { k = $c["table"]; m = $c["model"]
      sv = $c["simulated"]; pv = $c["published"]
      if (k == "memory") { sv = sprintf("%.0f KB", sv / 1000); pv = sprintf("~%.0f KB", pv / 1000) }
      v[k] = v[k] (v[k] == "" ? "" : ", ") "ILP " $c["ilp"] " " sv " (" pv ")" }
    END { printf "Volkov GTC 2010 on model %s (validated=false), simulated (published):\n", m
          printf "  threads per SM for the FFMA peak: %s\n", v["fma"]
          printf "  bytes in flight on the GPU at the DRAM knee: %s\n", v["memory"] }' "$out/volkov/volkov.csv"
fi
tables="$(rel "$out/summary.csv")"
[ ! -f "$val/summary.csv" ] || tables+=", $(rel "$val/summary.csv")"
[ ! -f "$val/real_summary.csv" ] || tables+=", $(rel "$val/real_summary.csv")"
echo "Full tables: $tables"
