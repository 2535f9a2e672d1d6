#!/usr/bin/env bash
# knee.sh - per curve (kernel, ilp) of warpsim CSVs: the plateau (largest
# throughput) and the knee (smallest resident warps / occupancy reaching 90 %
# of the plateau).
# Usage: scripts/knee.sh FILE.csv METRIC [FILE.csv METRIC ...] > summary.csv
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
if [ $# -lt 2 ] || [ $(($# % 2)) -ne 0 ]; then
  echo "knee.sh: expected FILE.csv METRIC pairs (see --help)" >&2
  exit 2
fi
echo "kernel,ilp,metric,plateau,knee_warps_per_sm,knee_occupancy_pct,throughput_at_64_warps"
while [ $# -ge 2 ]; do
  awk -F, -v metric="$2" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
      key = $col["kernel"] "," $col["ilp"]
      if (!(key in seen)) { seen[key] = 1; order[++n] = key }
      i = ++cnt[key]
      w[key, i] = $col["warps_per_sm"]; o[key, i] = $col["occupancy_pct"]
      v[key, i] = $col[metric]
      if (v[key, i] > best[key]) best[key] = v[key, i]
    }
    END {
      for (j = 1; j <= n; j++) {
        key = order[j]; kw = ""; ko = ""; last = ""
        for (i = 1; i <= cnt[key]; i++) {
          if (kw == "" && v[key, i] >= 0.9 * best[key]) { kw = w[key, i]; ko = o[key, i] }
          last = v[key, i]
        }
        printf "%s,%s,%s,%s,%s,%s\n", key, metric, best[key], kw, ko, last
      }
    }' "$1"
  shift 2
done
