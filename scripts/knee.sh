#!/usr/bin/env bash
# knee.sh - per curve (kernel, ilp) of warpsim CSVs: the plateau (largest
# throughput), the knee (smallest resident warps / occupancy reaching 90 %
# of the plateau), the throughput at the most resident warps, and whether the
# curve is still rising there (last step > 2 %: no plateau reached yet, so the
# "plateau" is only the largest value seen).  Rows of one curve in order of
# resident warps.
# Usage: scripts/knee.sh FILE.csv METRIC [FILE.csv METRIC ...] > summary.csv
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
if [ $# -lt 2 ] || [ $(($# % 2)) -ne 0 ]; then
  echo "knee.sh: expected FILE.csv METRIC pairs (see --help)" >&2
  exit 2
fi
echo "kernel,ilp,metric,plateau,knee_warps_per_sm,knee_occupancy_pct,at_most_warps,still_rising"
while [ $# -ge 2 ]; do
  [ -f "$1" ] || { echo "knee.sh: $1: no such file" >&2; exit 2; }
  awk -F, -v metric="$2" -v file="$1" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
              split("kernel ilp warps_per_sm occupancy_pct", need, " ")
              need[5] = metric
              for (k = 1; k <= 5; k++)
                if (!(need[k] in col)) { print "knee.sh: " file ": no column " need[k] > "/dev/stderr"; bad = 1; exit 2 }
              next }
    {
      key = $col["kernel"] "," $col["ilp"]
      if (!(key in seen)) { seen[key] = 1; order[++n] = key }
      i = ++cnt[key]
      w[key, i] = $col["warps_per_sm"]; o[key, i] = $col["occupancy_pct"]
      v[key, i] = $col[metric]
      if (v[key, i] > best[key]) best[key] = v[key, i]
    }
    END {
      if (bad) exit 2
      if (n == 0) { print "knee.sh: " file ": no rows" > "/dev/stderr"; exit 2 }
      for (j = 1; j <= n; j++) {
        key = order[j]; kw = ""; ko = ""; last = ""; prev = ""
        for (i = 1; i <= cnt[key]; i++) {
          if (kw == "" && v[key, i] >= 0.9 * best[key]) { kw = w[key, i]; ko = o[key, i] }
          prev = last; last = v[key, i]
        }
        # still rising: the last step (by resident warps) added more than 2 %
        rising = (prev != "" && last > 1.02 * prev) ? "yes" : "no"
        printf "%s,%s,%s,%s,%s,%s,%s\n", key, metric, best[key], kw, ko, last, rising
      }
    }' "$1"
  shift 2
done
