#!/usr/bin/env bash
# sweep.sh - run warpsim over a grid of parameter values with GNU parallel and
# collect one CSV (header + one row per run, in grid order: the first --axis
# varies slowest).
#
# Usage:
#   scripts/sweep.sh -o OUT.csv [--model M] --kernel K [--set g.k=v ...]
#                    --axis g.k=V1,V2,... [--axis ...] [--jobs N]
#                    [--sshlogin LOGIN ...] [--resume] [--quiet]
#   Values may be ranges: --axis launch.blocks_per_sm=1..16
#   One axis may set several keys to the same value:
#     --axis stream.ilp,stream.loads=1,2,4,8   (chase: ILP = load chains per warp)
#
# Example (resident warps x ILP for the DRAM chase):
#   scripts/sweep.sh -o /tmp/chase.csv --kernel chase \
#     --axis stream.ilp,stream.loads=1,2,4,8 --axis launch.blocks_per_sm=1..16
#   gnuplot -c scripts/plot_occupancy.gp /tmp/chase.png /tmp/chase.csv
#
# Runs go to local cores by default (--jobs N, default: all cores); to spread
# over other hosts pass GNU parallel's --sshlogin (repeatable; the hosts need
# warpsim at the same path).  Every finished run is recorded in OUT.csv.d/
# (one row file per run) and a joblog, so a sweep interrupted with ^C restarts
# where it stopped with --resume (refused if the settings changed); OUT.csv is
# written only when every run has finished.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
warpsim=${WARPSIM:-$root/build/sim/warpsim}

. "$root/scripts/lib.sh"
usage() { warpsim_usage "${BASH_SOURCE[0]}"; }
die() { warpsim_die "$@"; }

out="" model="h200" kernel="" jobs="" resume=0 quiet=0
sets=() axes=() logins=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o|--output|--model|--kernel|--set|--axis|--jobs|-j|--sshlogin|-S)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)" ;;&
    -o|--output) out=$2; shift 2 ;;
    --model) model=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --set) sets+=("$2"); shift 2 ;;
    --axis) axes+=("$2"); shift 2 ;;
    --jobs|-j) jobs=$2; shift 2 ;;
    --sshlogin|-S) logins+=(--sshlogin "$2"); shift 2 ;;
    --resume) resume=1; shift ;;
    --quiet|-q) quiet=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$out" ] || die "-o OUT.csv is required (see --help)"
[ -n "$kernel" ] || die "--kernel is required (see --help)"
[ ${#axes[@]} -gt 0 ] || die "at least one --axis group.key=values is required (see --help)"
[ -d "$out" ] && die "-o $out is a directory (a file name is expected)"
[ -z "$jobs" ] || [[ $jobs =~ ^[0-9]+%?$ ]] || die "--jobs '$jobs': expected a number of jobs"
[ -x "$warpsim" ] || die "warpsim binary not found at $warpsim (run scripts/build.sh or set WARPSIM)"
command -v parallel >/dev/null 2>&1 || die "GNU parallel not found (scripts/deps.sh installs it)"

# The grid: one line of "--set k=v ..." per point, first axis outermost.
grid=("")
for a in "${axes[@]}"; do
  keys=${a%%=*} vals=${a#*=}
  if [ "$keys" = "$a" ] || [ -z "$vals" ] || [ -z "$keys" ]; then
    die "--axis '$a': expected group.key=V1,V2 or group.key=A..B (see --help)"
  fi
  [[ $a =~ [[:space:]] ]] && die "--axis '$a': values may not contain spaces"
  IFS=',' read -r -a klist <<<"$keys"
  IFS=',' read -r -a vlist <<<"$vals"
  values=()
  for v in "${vlist[@]}"; do
    if [[ $v =~ ^([0-9]+)\.\.([0-9]+)$ ]]; then
      [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] ||
        die "--axis '$a': empty range $v (write the smaller bound first)"
      for ((n = BASH_REMATCH[1]; n <= BASH_REMATCH[2]; n++)); do values+=("$n"); done
    elif [ -n "$v" ]; then
      values+=("$v")
    fi
  done
  [ ${#values[@]} -gt 0 ] || die "--axis '$a': no values"
  next=()
  for g in "${grid[@]}"; do
    for v in "${values[@]}"; do
      line=$g
      for k in "${klist[@]}"; do line+=" --set $k=$v"; done
      next+=("$line")
    done
  done
  grid=("${next[@]}")
done

fixed=()
for s in "${sets[@]+"${sets[@]}"}"; do
  [[ $s =~ [[:space:]] ]] && die "--set '$s': values may not contain spaces"
  fixed+=(--set "$s")
done

work="$out.d"
signature="model=$model kernel=$kernel fixed=${fixed[*]+"${fixed[*]}"} grid=$(printf '%s;' "${grid[@]}")"
if [ $resume -eq 1 ] && [ -f "$work/signature" ]; then
  [ "$(cat "$work/signature")" = "$signature" ] ||
    die "--resume: the settings differ from the interrupted sweep in $work (run without --resume to start over)"
else
  rm -rf "$work"
fi
mkdir -p "$work"
printf '%s' "$signature" >"$work/signature"
printf '%s\n' "${grid[@]}" >"$work/grid"

# The header, once (this also checks the settings before any job runs).
# shellcheck disable=SC2086 # a grid line is a list of options
"$warpsim" run --model "$model" --kernel "$kernel" "${fixed[@]+"${fixed[@]}"}" ${grid[0]} \
  --format csv --no-whatif >"$work/first" || {
  [ $resume -eq 1 ] || rm -rf "$work"
  die "warpsim rejected the sweep's settings"
}
head -n1 "$work/first" >"$work/header"

# One job per grid point: write its row to a temp file, then rename, so an
# interrupted job leaves nothing behind.  {#} is the point's grid position.
progress=()
if [ $quiet -eq 0 ] && [ -t 2 ]; then progress=(--bar); fi
resume_opt=()
[ $resume -eq 1 ] && resume_opt=(--resume)
fixed_q=""
[ ${#fixed[@]} -eq 0 ] || fixed_q=$(printf ' %q' "${fixed[@]}")
q_work=$(printf '%q' "$work")
parallel --will-cite --halt now,fail=1 ${jobs:+-j "$jobs"} "${logins[@]+"${logins[@]}"}" \
  --joblog "$work/joblog" "${resume_opt[@]+"${resume_opt[@]}"}" "${progress[@]+"${progress[@]}"}" \
  "$(printf '%q' "$warpsim") run --model $(printf '%q' "$model") --kernel $(printf '%q' "$kernel")$fixed_q {=uq=} --format csv --no-header > $q_work/{#}.tmp && mv $q_work/{#}.tmp $q_work/{#}.row" \
  :::: "$work/grid"

# Assemble in grid order.
n=${#grid[@]}
{
  cat "$work/header"
  for ((j = 1; j <= n; j++)); do cat "$work/$j.row"; done
} >"$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$work"
[ $quiet -eq 1 ] || echo "sweep.sh: $n runs -> $out" >&2
