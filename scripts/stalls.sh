#!/usr/bin/env bash
# stalls.sh - the warp-state breakdown of one kernel against resident warps:
# runs warpsim for launch.blocks_per_sm = 1..16 (stopping where occupancy
# allows no more CTAs), writes OUTDIR/stalls_<name>.csv (header + one
# `warpsim run --format csv` row per resident-warp count) and plots it with
# scripts/plot_stalls.gp into OUTDIR/stalls_<name>.png.
#
# Usage:
#   scripts/stalls.sh [--model M] [--kernel K] [--set g.k=v ...] [--name NAME] OUTDIR
#   M defaults to h200, K to fma.  NAME defaults to the kernel name followed by
#   each --set as _<key><value> (stream.iterations and stream.seed left out),
#   so variants of one kernel get their own files:
#     --kernel fma --set stream.ilp=1 --set stream.fma=32  ->  stalls_fma_ilp1_fma32.*
#     --kernel chase                                       ->  stalls_chase.*
#   The binary is $WARPSIM, else build/sim/warpsim.  Prints the files written.
#
# Examples:
#   scripts/stalls.sh --kernel fma --set stream.ilp=1 --set stream.fma=32 results/stalls
#   scripts/stalls.sh --kernel fma --set stream.ilp=4 --set stream.fma=128 results/stalls
#   scripts/stalls.sh --kernel chase results/stalls
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
usage() { warpsim_usage "${BASH_SOURCE[0]}"; }
die() { warpsim_die "$@"; }

model="h200" kernel="fma" name="" outdir=""
sets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model=${2:?}; shift 2 ;;
    --kernel) kernel=${2:?}; shift 2 ;;
    --set) sets+=("${2:?}"); shift 2 ;;
    --name) name=${2:?}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) [ -z "$outdir" ] || die "one OUTDIR only ('$outdir', '$1')"; outdir=$1; shift ;;
  esac
done
[ -n "$outdir" ] || die "OUTDIR is required (see --help)"
[ -x "$warpsim" ] ||
  die "warpsim binary not found at $warpsim (run scripts/build.sh or set WARPSIM)"
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found"

if [ -z "$name" ]; then
  name=$(basename "$kernel" .ini)
  for s in "${sets[@]+"${sets[@]}"}"; do
    key=${s%%=*}
    case "$key" in stream.iterations|stream.seed) continue ;; esac
    name+="_${key#*.}${s#*=}"
  done
  name=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')
fi
mkdir -p "$outdir"
csv="$outdir/stalls_$name.csv"
png="$outdir/stalls_$name.png"

set_args=()
for s in "${sets[@]+"${sets[@]}"}"; do set_args+=(--set "$s"); done
tmp=$(mktemp "$csv.XXXXXX")
trap 'rm -f "$tmp"' EXIT
last=0
for b in $(seq 1 16); do
  row=$("$warpsim" run --model "$model" --kernel "$kernel" "${set_args[@]+"${set_args[@]}"}" \
        --set "launch.blocks_per_sm=$b" --no-whatif --format csv)
  # Column blocks_per_sm of the row: the CTAs actually resident.
  got=$(printf '%s\n' "$row" |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "blocks_per_sm") c = i }
                 NR == 2 { print $c }')
  [ "$got" -gt "$last" ] || break # occupancy allows no more CTAs
  last=$got
  if [ "$b" -eq 1 ]; then
    printf '%s\n' "$row" >"$tmp"
  else
    printf '%s\n' "$row" | tail -n +2 >>"$tmp"
  fi
done
mv "$tmp" "$csv"
trap - EXIT
title="$(basename "$kernel" .ini)"
# The model as the rows name it: "(modified: ...)" when a --set or a model
# file of one's own changed it (the CSV's model_modified column).
modified=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "model_modified") c = i }
                    NR == 2 && c { print $c }' "$csv" | tr ';' ' ')
for s in "${sets[@]+"${sets[@]}"}"; do
  case " $modified " in *" $s "*) ;; *) title+=" $s" ;; esac # model keys are named below
done
gnuplot -c "$root/scripts/plot_stalls.gp" "$csv" "$png" "$title, model $model${modified:+ (modified: $modified)}"
echo "$csv"
echo "$png"
