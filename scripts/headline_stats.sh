#!/usr/bin/env bash
# headline_stats.sh - per curve of the headline figure's data (panel, series,
# source; results/occupancy_headline.csv): `warpsim curve-stats`'s plateau,
# knee (occupancy reaching 90 % of the plateau), 50 -> 100 % change and
# still-rising flag, plus the occupancy of its peak and the fall from the
# peak to its last point (curve-stats --fall), for
# scripts/plot_occupancy_headline.gp, which computes none of them.
# Usage: scripts/headline_stats.sh HEADLINE.csv > STATS.csv
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
[ $# -eq 1 ] || warpsim_die "expected HEADLINE.csv (see --help)"
[ -f "$1" ] || warpsim_die "$1: no such file"
[ -x "$warpsim" ] || warpsim_die "no warpsim binary at $warpsim (set WARPSIM)"
cs=("$warpsim" curve-stats --group panel,series,source --x occupancy_pct --y value)
# The peak and fall: the curve against itself (--measured value), whose
# peak_simulated_x and fall_simulated_pct are the curve's own.
"${cs[@]}" --measured value --fall "$1" >"${TMPDIR:-/tmp}/headline_fall.$$"
trap 'rm -f "${TMPDIR:-/tmp}/headline_fall.$$"' EXIT
"${cs[@]}" --occupancy occupancy_pct "$1" |
  awk -F, 'NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) c[$i] = i; next }
                       k = $1 "," $2 "," $3; pk[k] = $c["peak_simulated_x"]; fp[k] = $c["fall_simulated_pct"]; next }
    FNR == 1 { print $0 ",peak_occupancy_pct,fall_pct"; next }
    { k = $1 "," $2 "," $3; print $0 "," pk[k] "," fp[k] }' "${TMPDIR:-/tmp}/headline_fall.$$" -
