#!/usr/bin/env bash
# knee.sh - per curve of warpsim CSVs (kernel, ilp and loads in flight per
# warp): the plateau (largest throughput), the knee (smallest resident warps /
# occupancy reaching 90 % of the plateau; empty while the curve is still
# rising, as plot_occupancy.gp says "no knee"), the throughput at the most
# resident warps, whether the curve is still rising there (last step > 2 %: no
# plateau reached yet, so the "plateau" is only the largest value seen), and what the
# warps from 50 % occupancy on buy: the change in % from the largest
# occupancy <= 50 % to the largest occupancy of the curve (empty when the curve
# has no point on one side).  `warpsim curve-stats` computes them (its --help
# gives the definitions); the loads column is loads_in_flight, else loads.
# Usage: scripts/knee.sh FILE.csv METRIC [FILE.csv METRIC ...] > summary.csv
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
if [ $# -lt 2 ] || [ $(($# % 2)) -ne 0 ]; then
  warpsim_die "expected FILE.csv METRIC pairs (see --help)"
fi
[ -x "$warpsim" ] || warpsim_die "no warpsim binary at $warpsim (set WARPSIM)"
echo "kernel,ilp,loads_in_flight,metric,plateau,knee_warps_per_sm,knee_occupancy_pct,at_most_warps,still_rising,change_50_to_100_pct"
while [ $# -ge 2 ]; do
  [ -f "$1" ] || warpsim_die "$1: no such file"
  case ",$(head -n 1 "$1" | tr -d '\r')," in
    *,loads_in_flight,*) loads=loads_in_flight ;;
    *,loads,*) loads=loads ;;
    *) warpsim_die "$1: no column loads_in_flight or loads" ;;
  esac
  # curve-stats' columns but its 5th (points), under the names above.
  "$warpsim" curve-stats --group "kernel,ilp,$loads" --x warps_per_sm --y "$2" \
    --occupancy occupancy_pct --missing '' "$1" | tail -n +2 | cut -d, -f1-4,6-
  shift 2
done
