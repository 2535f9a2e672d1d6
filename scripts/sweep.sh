#!/usr/bin/env bash
# sweep.sh - run warpsim over a grid of parameter values with GNU parallel and
# collect one CSV (header + one row per run, in grid order).
#
# Usage:
#   scripts/sweep.sh -o OUT.csv [--model M] --kernel K [--set g.k=v ...]
#                    --axis g.k=V1,V2,... [--axis ...] [--jobs N]
#                    [--sshlogin LOGIN ...] [--resume] [--quiet]
#   Values may be ranges: --axis launch.blocks_per_sm=1..16
#
# Example (the issue's grid: resident warps x ILP for the fma kernel):
#   scripts/sweep.sh -o results/my.csv --kernel fma \
#     --axis launch.blocks_per_sm=1..16 --axis stream.ilp=1,2,4,8
#
# Runs go to local cores by default (--jobs N, default: all cores); to spread
# over other hosts pass GNU parallel's --sshlogin (repeatable; the hosts need
# warpsim at the same path).  Every finished run is recorded in OUT.csv.d/
# (one row file per run) and OUT.csv.joblog, so a sweep interrupted with ^C
# restarts where it stopped with --resume; OUT.csv is written only when every
# run has finished.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
warpsim=${WARPSIM:-$root/build/sim/warpsim}

usage() { sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "sweep.sh: $*" >&2; exit 2; }

out="" model="h200" kernel="" jobs="" resume=0 quiet=0
sets=() axes=() logins=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o|--output) out=${2:?}; shift 2 ;;
    --model) model=${2:?}; shift 2 ;;
    --kernel) kernel=${2:?}; shift 2 ;;
    --set) sets+=("${2:?}"); shift 2 ;;
    --axis) axes+=("${2:?}"); shift 2 ;;
    --jobs|-j) jobs=${2:?}; shift 2 ;;
    --sshlogin|-S) logins+=(--sshlogin "${2:?}"); shift 2 ;;
    --resume) resume=1; shift ;;
    --quiet|-q) quiet=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$out" ] || die "-o OUT.csv is required"
[ -n "$kernel" ] || die "--kernel is required"
[ ${#axes[@]} -gt 0 ] || die "at least one --axis group.key=values is required"
[ -x "$warpsim" ] || die "warpsim binary not found at $warpsim (run scripts/build.sh or set WARPSIM)"
command -v parallel >/dev/null 2>&1 || die "GNU parallel not found (scripts/deps.sh installs it)"

# Expand each axis into a file of "group.key=value" lines (one input source each).
work="$out.d"
if [ $resume -eq 0 ]; then
  rm -rf "$work" "$out.joblog"
fi
mkdir -p "$work"
inputs=()
for i in "${!axes[@]}"; do
  a=${axes[$i]}
  key=${a%%=*}; vals=${a#*=}
  [ "$key" != "$a" ] && [ -n "$vals" ] || die "--axis '$a': expected group.key=V1,V2 or group.key=A..B"
  f="$work/axis$i"
  : >"$f"
  IFS=',' read -r -a list <<<"$vals"
  for v in "${list[@]}"; do
    if [[ $v =~ ^([0-9]+)\.\.([0-9]+)$ ]]; then
      for ((n = BASH_REMATCH[1]; n <= BASH_REMATCH[2]; n++)); do echo "$key=$n" >>"$f"; done
    else
      echo "$key=$v" >>"$f"
    fi
  done
  inputs+=(:::: "$f")
done

fixed=()
for s in "${sets[@]+"${sets[@]}"}"; do fixed+=(--set "$s"); done

# The header, once (also checks the fixed settings before any job runs).
first=()
for i in "${!axes[@]}"; do first+=(--set "$(head -n1 "$work/axis$i")"); done
"$warpsim" run --model "$model" --kernel "$kernel" "${fixed[@]+"${fixed[@]}"}" "${first[@]}" \
  --format csv | head -n1 >"$work/header" || die "warpsim rejected the sweep's settings"

# One job per grid point: write its row to a temp file, then rename, so an
# interrupted job leaves nothing behind.  {#} is the job's grid position.
sets_expr=""
for i in "${!axes[@]}"; do sets_expr+=" --set {$((i + 1))}"; done
progress=()
if [ $quiet -eq 0 ] && [ -t 2 ]; then progress=(--bar); fi
resume_opt=()
[ $resume -eq 1 ] && resume_opt=(--resume)
fixed_q=""
[ ${#fixed[@]} -eq 0 ] || fixed_q=$(printf ' %q' "${fixed[@]}")
parallel --will-cite --halt now,fail=1 ${jobs:+-j "$jobs"} "${logins[@]+"${logins[@]}"}" \
  --joblog "$out.joblog" "${resume_opt[@]+"${resume_opt[@]}"}" "${progress[@]+"${progress[@]}"}" \
  "$(printf '%q' "$warpsim") run --model $(printf '%q' "$model") --kernel $(printf '%q' "$kernel")$fixed_q$sets_expr --format csv --no-header > $(printf '%q' "$work")/{#}.tmp && mv $(printf '%q' "$work")/{#}.tmp $(printf '%q' "$work")/{#}.row" \
  "${inputs[@]}"

# Assemble in grid order.
n=$(find "$work" -name '*.row' | wc -l)
{
  cat "$work/header"
  for ((j = 1; j <= n; j++)); do cat "$work/$j.row"; done
} >"$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$work" "$out.joblog"
[ $quiet -eq 1 ] || echo "sweep.sh: $n runs -> $out" >&2
