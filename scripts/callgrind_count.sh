#!/usr/bin/env bash
# callgrind_count.sh - host instructions per simulated warp-instruction, a
# speed measure that does not depend on the host's load: valgrind's callgrind
# counts the instructions warpsim executes for one of bench.sh's cases at two
# lengths; the difference over the difference in warp instructions leaves out
# start-up (loading, parsing, reporting).  Cases: fma (ILP 4 at 64 resident
# warps; lengths are loop iterations, default 32,160), and every SASS kernel
# K_sass of traces/K_sass.ini (saxpy_sass, gather_sass, softmax_sass,
# sgemm_sass, stencil_sass, transpose_sass, ...: from its SASS and profile at 8
# blocks per SM; lengths are CTAs, default 264,528: whole waves of the 132-SM
# grid); --set g.k=v (repeatable) is passed on to warpsim, e.g.
# --case spill_sass --set sass.function=k_spill_32( --set launch.regs_per_thread=32.
# Prints "<instructions per warp-instruction> <warp instructions> <instructions>".
# Exit status 77 when valgrind is missing (CTest's skip code), 2 on bad use.
# Usage: scripts/callgrind_count.sh [--case fma|K_sass] [--lengths A,B] [--set g.k=v ...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
warpsim_need_source "$root"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
case=fma lengths="" sets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --case|--lengths|--iterations|--set)
      [ $# -ge 2 ] || { echo "callgrind_count.sh: $1 needs a value" >&2; exit 2; } ;;&
    --case) case=$2; shift 2 ;;
    --lengths|--iterations) lengths=$2; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    *) echo "callgrind_count.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$case" in
  fma)
    args=(run --format csv --kernel fma --set stream.ilp=4 --set stream.fma=128
      --set launch.blocks_per_sm=16)
    length_key=stream.iterations default_lengths=32,160 ;;
  *_sass)
    [[ "$case" =~ ^[a-z0-9_]+$ && -f "$root/traces/$case.ini" ]] || {
      echo "callgrind_count.sh: --case '$case': no traces/$case.ini (allowed fma or K_sass of a traces/K_sass.ini)" >&2
      exit 2
    }
    args=(run --format csv --kernel "$case" --set launch.blocks_per_sm=8 --no-whatif)
    length_key=launch.blocks default_lengths=264,528 ;;
  *) echo "callgrind_count.sh: --case '$case' (allowed fma or K_sass of a traces/K_sass.ini:" \
    "saxpy_sass, gather_sass, softmax_sass, sgemm_sass, stencil_sass, transpose_sass, ...)" >&2; exit 2 ;;
esac
args+=("${sets[@]}")
IFS=, read -r short long <<<"${lengths:-$default_lengths}"
[[ "$short" =~ ^[1-9][0-9]{0,6}$ && "$long" =~ ^[1-9][0-9]{0,6}$ && $short -lt $long ]] ||
  { echo "callgrind_count.sh: --lengths '$lengths' (allowed A,B with 1 <= A < B)" >&2; exit 2; }
if ! command -v valgrind >/dev/null 2>&1; then
  echo "callgrind_count.sh: valgrind not installed (scripts/deps.sh installs it)" >&2
  exit 77
fi
[ -x "$warpsim" ] || { echo "callgrind_count.sh: no binary at $warpsim" >&2; exit 2; }
# instructions N: instructions callgrind counts at length N.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$warpsim" "${args[@]}" \
    --set "$length_key=$1" 2>&1 >/dev/null | awk '/Collected/ { print $4 }'
}
# warp_insts N: warp instructions the run simulates.
warp_insts() {
  "$warpsim" "${args[@]}" --set "$length_key=$1" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "warp_insts") c = i; next } { print $c }'
}
i0=$(instructions "$short") i1=$(instructions "$long")
w0=$(warp_insts "$short") w1=$(warp_insts "$long")
awk -v i0="$i0" -v i1="$i1" -v w0="$w0" -v w1="$w1" \
  'BEGIN { printf "%.1f %d %d\n", (i1 - i0) / (w1 - w0), w1 - w0, i1 - i0 }'
