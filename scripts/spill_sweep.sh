#!/usr/bin/env bash
# spill_sweep.sh - the textbook exercise: lower the register cap
# (-maxrregcount) of traces/spill.ini until the kernel gets slower.  Sweeps
# launch.max_regs from the kernel's own 96 registers down to 32, writes
# OUTDIR/spill.csv (warpsim run rows) and OUTDIR/spill.png: theoretical
# occupancy and useful FFMA throughput against the cap.
# Usage: scripts/spill_sweep.sh [--model M] [OUTDIR]   (default model h200, OUTDIR results/)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
model=h200 outdir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --model) [ $# -ge 2 ] || warpsim_die "--model needs a value (see --help)"; model=$2; shift 2 ;;
    -*) warpsim_die "unknown option '$1' (see --help)" ;;
    *) [ -z "$outdir" ] || warpsim_die "one OUTDIR only ('$outdir', '$1')"; outdir=$1; shift ;;
  esac
done
outdir=${outdir:-$root/results}
export WARPSIM=${WARPSIM:-$root/build/sim/warpsim}
[ -x "$WARPSIM" ] || BUILD_DIR=$root/build "$root/scripts/build.sh"
mkdir -p "$outdir"
"$root/scripts/sweep.sh" --quiet -o "$outdir/spill.csv" --model "$model" --kernel spill \
  --axis launch.max_regs=96,88,80,72,64,56,48,40,32
gnuplot -c "$root/scripts/plot_spill.gp" "$outdir/spill.csv" "$outdir/spill.png"
