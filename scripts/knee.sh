#!/usr/bin/env bash
# knee.sh - per curve of warpsim CSVs (kernel, ilp and loads in flight per
# warp): the plateau (largest throughput), the knee (smallest resident warps /
# occupancy reaching 90 % of the plateau; empty while the curve is still
# rising, as plot_occupancy.gp says "no knee"), the throughput at the most
# resident warps, whether the curve is still rising there (last step > 2 %: no
# plateau reached yet, so the "plateau" is only the largest value seen), and what the
# warps from 50 % occupancy on buy: the change in % from the largest
# occupancy <= 50 % to the largest occupancy of the curve (empty when the curve
# has no point on one side).  Rows of one curve in order of resident warps.
# Usage: scripts/knee.sh FILE.csv METRIC [FILE.csv METRIC ...] > summary.csv
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
if [ $# -lt 2 ] || [ $(($# % 2)) -ne 0 ]; then
  warpsim_die "expected FILE.csv METRIC pairs (see --help)"
fi
echo "kernel,ilp,loads_in_flight,metric,plateau,knee_warps_per_sm,knee_occupancy_pct,at_most_warps,still_rising,change_50_to_100_pct"
while [ $# -ge 2 ]; do
  [ -f "$1" ] || warpsim_die "$1: no such file"
  awk -F, -v metric="$2" -v file="$1" '
    NR == 1 { sub(/\r$/, ""); for (i = 1; i <= NF; i++) col[$i] = i
              split("kernel ilp warps_per_sm occupancy_pct", need, " ")
              need[5] = metric
              for (k = 1; k <= 5; k++)
                if (!(need[k] in col)) { print "knee.sh: " file ": no column " need[k] > "/dev/stderr"; bad = 1; exit 2 }
              lcol = ("loads_in_flight" in col) ? col["loads_in_flight"] : ("loads" in col) ? col["loads"] : 0
              next }
    /^#/ || NF == 0 { next }
    {
      sub(/\r$/, "")
      key = $col["kernel"] "," $col["ilp"] "," (lcol ? $lcol : "")
      if (!(key in seen)) { seen[key] = 1; order[++n] = key; best[key] = $col[metric] }
      i = ++cnt[key]
      w[key, i] = $col["warps_per_sm"]; o[key, i] = $col["occupancy_pct"]
      v[key, i] = $col[metric]
      if (v[key, i] + 0 > best[key] + 0) best[key] = v[key, i]
    }
    END {
      if (bad) exit 2
      if (n == 0) { print "knee.sh: " file ": no rows" > "/dev/stderr"; exit 2 }
      for (j = 1; j <= n; j++) {
        key = order[j]; kw = ""; ko = ""; last = ""; prev = ""; h = -1; hv = ""; m = -1; mv = ""
        for (i = 1; i <= cnt[key]; i++) {
          if (kw == "" && v[key, i] >= 0.9 * best[key]) { kw = w[key, i]; ko = o[key, i] }
          prev = last; last = v[key, i]
          if (o[key, i] <= 50 && o[key, i] + 0 > h) { h = o[key, i] + 0; hv = v[key, i] }
          if (o[key, i] + 0 > m) { m = o[key, i] + 0; mv = v[key, i] }
        }
        # still rising: the last step (by resident warps) added more than 2 %
        rising = (prev != "" && last > 1.02 * prev) ? "yes" : "no"
        if (rising == "yes") { kw = ""; ko = "" }
        change = (h >= 0 && m > h && hv > 0) ? sprintf("%+.1f", 100 * (mv / hv - 1)) : ""
        printf "%s,%s,%s,%s,%s,%s,%s,%s\n", key, metric, best[key], kw, ko, last, rising, change
      }
    }' "$1"
  shift 2
done
