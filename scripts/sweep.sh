#!/usr/bin/env bash
# sweep.sh - run warpsim over a grid of parameter values with GNU parallel and
# collect one CSV (header + one row per run, in grid order: the first --axis
# varies slowest).
#
# Usage:
#   scripts/sweep.sh -o OUT.csv [--model M] --kernel K [--set g.k=v ...]
#                    --axis g.k=V1,V2,... [--axis ...] [--derive g.k=EXPR ...] [--jobs N]
#                    [--sshlogin LOGIN ...] [--resume] [--quiet]
#   scripts/sweep.sh --print-grid --kernel K [--set ...] --axis ... [--derive ...]
#     prints the grid, one point a line (tab-separated group.key=value, the
#     first --axis slowest, repeated points dropped), and runs no point: for a
#     batch system's job array (doc/sweeps.md); its values are checked first
#     as a sweep checks them (exit 2, nothing printed)
#   Values may be ranges: --axis launch.blocks_per_sm=1..16
#   One axis may set several keys to the same value:
#     --axis stream.ilp,stream.loads=1,2,4,8   (chase: ILP = load chains per warp)
#   --derive KEY=EXPRESSION sets a key from others at every point: whole-number
#   arithmetic (+ - * / and parentheses; numbers in base 10, no step past
#   2^53) over numbers and keys an --axis, --set or earlier --derive gives,
#   e.g. 32 FFMAs per chain at every ILP:
#     --axis stream.ilp=1..8 --derive 'stream.fma=32*stream.ilp'
#   (the derived key must not be on an axis or in a --set; repeatable)
#   A value holds letters, digits and _ . + - : ; / only (';' separates the
#   items of a list key: --axis 'sm.smem_configs=0;233472'); values are
#   passed to warpsim as data, never through a shell.
#
# Example (resident warps x ILP for the DRAM chase):
#   scripts/sweep.sh -o /tmp/chase.csv --kernel chase \
#     --axis stream.ilp,stream.loads=1,2,4,8 --axis launch.blocks_per_sm=1..16
#   gnuplot -c scripts/plot_occupancy.gp /tmp/chase.png /tmp/chase.csv
#
# Runs go to local cores by default (--jobs N, default: all cores); to spread
# over other hosts pass GNU parallel's --sshlogin (repeatable; the hosts need
# warpsim and OUT's directory at the same paths, e.g. a shared file system).
#
# Before any run, `warpsim sweep-points` expands the grid and checks every
# --set value and every axis value (a range by its two ends and its second
# value, each with the first point's other settings), every derived key
# at its smallest and largest, and every two axes at each pair of those
# values (launch.optin=false with launch.smem_dynamic=60000): a value out
# of range, or two that do not go together, is refused (exit 2) with
# nothing run or written, and a value that cannot change the result
# (launch.blocks_per_sm above what fits, stream.ilp above the instructions its chains share) is
# named in a warning.
#
# Safety: a lock (OUT.csv.lock, flock) makes a second sweep to the same -o
# refuse (exit 2).  Every finished run leaves one row file in OUT.csv.d/; an
# interrupted (^C, SIGTERM: exit 130/143) or failed sweep keeps them, and the
# same command with --resume runs only the missing or failed points.  --resume
# refuses (exit 2) when anything that decides the results changed: the
# warpsim version or binary, the kernel or model file, the effective
# configuration, a --set or the grid.  OUT.csv appears (renamed into place)
# only when every point has finished.  Points that repeat another (the same
# key on two axes, a value the launch caps) are dropped with a warning.
# Exit: 0 done, 1 a run failed, 2 bad input or refused, 130/143 interrupted.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
usage() { warpsim_usage "${BASH_SOURCE[0]}"; }
die() { warpsim_die "$@"; }
warn() { echo "sweep.sh: warning: $*" >&2; }

out="" model="h200" kernel="" jobs="" jobs_given=0 resume=0 quiet=0 print_grid=0
sets=() axes=() logins=() derives=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o|--output|--model|--kernel|--set|--axis|--derive|--jobs|-j|--sshlogin|-S)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)" ;;&
    -o|--output) out=$2; shift 2 ;;
    --model) model=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --set) sets+=("$2"); shift 2 ;;
    --axis) axes+=("$2"); shift 2 ;;
    --derive) derives+=("$2"); shift 2 ;;
    --jobs|-j) jobs=$2; jobs_given=1; shift 2 ;;
    --sshlogin|-S) logins+=(--sshlogin "$2"); shift 2 ;;
    --resume) resume=1; shift ;;
    --print-grid) print_grid=1; shift ;;
    --quiet|-q) quiet=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$out" ] || [ $print_grid -eq 1 ] || die "-o OUT.csv is required (see --help)"
[ -n "$kernel" ] || die "--kernel is required (see --help)"
[ ${#axes[@]} -gt 0 ] || die "at least one --axis group.key=values is required (see --help)"
[ -z "$out" ] || [ ! -d "$out" ] || die "-o $out is a directory (a file name is expected)"
# The CSV is renamed into place: an existing device, pipe or link there would
# be replaced by a regular file (-o /dev/null, /dev/stdout).
if [ -e "$out" ] || [ -L "$out" ]; then
  [ -f "$out" ] && [ ! -L "$out" ] ||
    die "-o $out exists and is not a regular file (allowed: a new file or a regular file to replace)"
fi
[ -z "$out" ] || [ -d "$(dirname -- "$out")" ] || die "-o $out: directory $(dirname -- "$out") does not exist"
# (GNU parallel takes 0, or 0 %, as "as many as it can start", and a number
# past the grid the same: with a large grid, hundreds of runs at once)
[ $jobs_given -eq 0 ] || [[ $jobs =~ ^[1-9][0-9]{0,3}%?$ ]] ||
  die "--jobs '$jobs': expected a number of jobs (allowed 1..9999, or 1%..9999% of the cores)"
[ -x "$warpsim" ] || die "warpsim binary not found at $warpsim (run scripts/build.sh or set WARPSIM)"
if [ $print_grid -eq 0 ]; then # (printing the grid runs no point)
  command -v parallel >/dev/null 2>&1 || die "GNU parallel not found (scripts/deps.sh installs it)"
  command -v flock >/dev/null 2>&1 || die "flock not found (util-linux)"
  command -v setsid >/dev/null 2>&1 || die "setsid not found (util-linux)"
fi

# ---- the grid: warpsim sweep-points ---------------------------------------
# warpsim expands the grid (first axis outermost, derived keys computed,
# repeated points dropped), checks every value before any run and writes
# the signature --resume compares (doc/curve_stats.md); its messages are
# said as sweep.sh's.  With --sshlogin a model or kernel given as a file, and
# warpsim, are named by absolute paths: a job on another login starts in
# that login's home folder (a name is found by warpsim next to itself).
if [ ${#logins[@]} -gt 0 ]; then
  [ ! -f "$model" ] || model=$(cd "$(dirname -- "$model")" && pwd)/$(basename -- "$model")
  [ ! -f "$kernel" ] || kernel=$(cd "$(dirname -- "$kernel")" && pwd)/$(basename -- "$kernel")
  case $warpsim in /*) ;; *) warpsim=$(cd "$(dirname -- "$warpsim")" && pwd)/$(basename -- "$warpsim") ;; esac
fi
base=(--model "$model" --kernel "$kernel")
points_args=("${base[@]}")
for s in "${sets[@]+"${sets[@]}"}"; do points_args+=(--set "$s"); done
for a in "${axes[@]}"; do points_args+=(--axis "$a"); done
for d in "${derives[@]+"${derives[@]}"}"; do points_args+=(--derive "$d"); done
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sweep.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
sweep_points() { # ARGS...: warpsim sweep-points for this sweep, its grid on stdout
  local rc=0
  "$warpsim" sweep-points "${points_args[@]}" "$@" 2>"$scratch/err" || rc=$?
  sed -e 's/^warpsim: sweep-points: /sweep.sh: /' -e 's/^warpsim: warning: /sweep.sh: warning: /' \
    "$scratch/err" >&2
  return $rc
}
if [ $print_grid -eq 1 ]; then # one point a line, in grid order (doc/sweeps.md: Slurm)
  rc=0
  sweep_points || rc=$?
  exit $rc
fi
rc=0
sweep_points --signature "$scratch/signature" >"$scratch/grid" || rc=$?
[ $rc -eq 0 ] || exit $rc
n=$(wc -l <"$scratch/grid")

# ---- the lock ----------------------------------------------------------------
# flock on OUT.csv.lock, held by this script and every job it starts; the
# file is removed on exit.  A lock taken on a file another sweep has just
# removed is retried, so two sweeps never both hold one.
lock="$out.lock"
while :; do
  exec 9>>"$lock" || die "cannot create the lock $lock"
  if ! flock -n 9; then
    holder=$(head -c 40 "$lock" 2>/dev/null | tr -cd '0-9' || true)
    die "another sweep${holder:+ (pid $holder)} is writing $out (lock $lock); wait for it or choose another -o"
  fi
  [ "$lock" -ef /dev/fd/9 ] && break
  exec 9>&-
done
echo $$ >"$lock"

# Absolute: a job on another login starts in that login's home folder.
work="$(cd "$(dirname -- "$out")" && pwd)/$(basename -- "$out").d"
sid=""
cleanup() {
  rm -rf "$scratch"
  rm -f "$work"/*.tmp "$out.tmp" 2>/dev/null || true
  rm -f "$lock"
}
trap cleanup EXIT

# kill_jobs: stop GNU parallel and every job it started.  They run in their
# own session (setsid), so this reaches jobs GNU parallel put in process
# groups of their own; what survives TERM for 2 s is killed.
session_pids() {
  local f s pid
  for f in /proc/[0-9]*/stat; do
    { read -r s <"$f"; } 2>/dev/null || continue
    pid=${f#/proc/} pid=${pid%/stat}
    s=${s##*) }
    read -r _ _ _ s _ <<<"$s"
    [ "$s" = "$1" ] && echo "$pid"
  done
  return 0
}
kill_jobs() {
  [ -n "$sid" ] || return 0
  local t pids
  kill -TERM "$sid" 2>/dev/null || true
  for t in 1 2 3 4 5 6 7 8 9 10; do
    pids=$(session_pids "$sid")
    [ -n "$pids" ] || break
    [ "$t" -eq 1 ] || kill -TERM $pids 2>/dev/null || true
    sleep 0.2
  done
  pids=$(session_pids "$sid")
  [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
  # A stopped job did not fail: drop its partial row and messages.
  rm -f "$work"/*.tmp "$work"/*.err "$work"/*.rc 2>/dev/null || true
}

done_count() { local c; c=$(find "$work" -maxdepth 1 -name '*.row' 2>/dev/null | wc -l); echo "$c"; }
interrupted() {
  trap - INT TERM
  kill_jobs
  echo "sweep.sh: interrupted: $(done_count) of $n points done; the same command with --resume finishes it" >&2
  exit "$1"
}
trap 'interrupted 130' INT
trap 'interrupted 143' TERM

# ---- the first point, the signature and the state directory ---------------
# The first point, run here, gives the header and the first row; its
# warnings (the kernel's and the profile's, such as the agreement warning,
# the same at every point) are said once here, the grid's by sweep-points.
IFS=$'\t' read -r -a first <"$scratch/grid"
first_args=()
for kv in "${first[@]}"; do first_args+=(--set "$kv"); done
probe=$scratch/probe
if ! "$warpsim" run "${base[@]}" "${first_args[@]}" --format csv --no-whatif \
  >"$probe" 2>"$probe.err"; then
  msg=$(warpsim_error_line "$probe.err")
  die "warpsim rejected the sweep's settings: ${msg#warpsim: }"
fi
grep '^warpsim: warning: ' "$probe.err" | sed 's/^warpsim: warning: /sweep.sh: warning (point 1): /' >&2 || true
if [ $resume -eq 1 ] && [ -f "$work/signature" ]; then
  if [ "$(cat "$work/signature")" != "$(cat "$scratch/signature")" ]; then
    what=$(diff "$work/signature" "$scratch/signature" |
      sed -n 's/^> \([^:]*\):.*/\1/p' | sed 's/ sha256$//' | paste -sd, - | sed 's/,/, /g' || true)
    die "--resume: changed since the interrupted sweep in $work: ${what:-its settings} (run without --resume to start over)"
  fi
else
  if [ $resume -eq 1 ] && [ -e "$work" ]; then
    warn "--resume: no sweep state in $work; starting over"
  elif [ $resume -eq 1 ] && [ -f "$out" ]; then
    warn "--resume: $out is a finished sweep (its state is removed when one finishes): nothing to resume; running all $n points again with the current kernel, model and settings"
  fi
  rm -rf "$work"
fi
# The state: signature, grid, header and the first point's row (an empty
# row file, which an old sweep may have left, is rerun like a missing one).
if ! { mkdir -p "$work" && cp "$scratch/signature" "$work/signature" &&
  cp "$scratch/grid" "$work/grid" && printf '%s\0' "${base[@]}" >"$work/base" &&
  head -n1 "$probe" >"$work/header" &&
  { [ -s "$work/1.row" ] || { sed -n 2p "$probe" >"$work/1.tmp" &&
    [ -s "$work/1.tmp" ] && mv "$work/1.tmp" "$work/1.row"; }; }; } 2>/dev/null; then
  [ "$(done_count)" -gt 0 ] || rm -rf "$work"
  echo "sweep.sh: cannot write the sweep state in $work (disk full?)" >&2
  exit 1
fi
todo=()
for ((j = 1; j <= n; j++)); do [ -s "$work/$j.row" ] || todo+=("$j"); done

# ---- the runs ----------------------------------------------------------------
# One job per missing point: warpsim writes its row to N.tmp, renamed to
# N.row once complete; its stderr goes to N.err.  Only the point number
# passes through GNU parallel's command line (and it is quoted: -q).
job='w=$1 i=$2 bin=$3
IFS=$(printf "\t") read -r -a kv < <(sed -n "${i}p" "$w/grid")
args=()
for s in "${kv[@]}"; do args+=(--set "$s"); done
mapfile -d "" -t base <"$w/base"
"$bin" run "${base[@]}" "${args[@]}" --format csv --no-header >"$w/$i.tmp" 2>"$w/$i.err"
rc=$?
if [ $rc -eq 0 ] && [ -s "$w/$i.tmp" ] && mv -f "$w/$i.tmp" "$w/$i.row"; then
  rm -f "$w/$i.err" "$w/$i.rc"
  exit 0
fi
rm -f "$w/$i.tmp"
[ $rc -ne 0 ] || rc=1
{ [ -s "$w/$i.err" ] || echo "warpsim exited with status $rc (killed, or out of space?)" >"$w/$i.err"
  echo "$rc" >"$w/$i.rc"; } 2>/dev/null
exit "$rc"'
failed=0
if [ ${#todo[@]} -gt 0 ]; then
  progress=()
  if [ $quiet -eq 0 ] && [ -t 2 ]; then progress=(--bar); fi
  # In a session of its own: the interrupt handler and the watchdog below
  # reach every job.
  setsid parallel --will-cite -q ${jobs:+-j "$jobs"} \
    "${logins[@]+"${logins[@]}"}" "${progress[@]+"${progress[@]}"}" \
    bash -c "$job" job "$work" {} "$warpsim" :::: <(printf '%s\n' "${todo[@]}") </dev/null &
  sid=$!
  # The watchdog: when this script dies, even by SIGKILL, the pipe's write
  # end closes and it stops every job (no orphan keeps writing).
  exec 8> >(trap '' INT TERM; read -r line || true; [ "${line:-}" = "done" ] || kill_jobs)
  wait "$sid" || failed=$?
  sid=""
  echo "done" >&8
  exec 8>&-
fi

if [ $failed -ne 0 ] || [ "$(done_count)" -ne "$n" ]; then
  rc=1 why=""
  for ((j = 1; j <= n; j++)); do
    [ ! -s "$work/$j.row" ] && [ -e "$work/$j.err" ] || continue
    msg=$(head -n1 "$work/$j.err")
    why="point $j ($(sed -n "${j}p" "$work/grid" | tr '\t' ' ')): ${msg:-no message (out of space?)}"
    [ "$(cat "$work/$j.rc" 2>/dev/null)" != 2 ] || rc=2
    break
  done
  echo "sweep.sh: ${why:-a run failed}; $(done_count) of $n points done; fix the cause and rerun with --resume" >&2
  [ "$(done_count)" -gt 0 ] || rm -rf "$work"
  exit $rc
fi

# ---- the CSV: header + rows in grid order, renamed into place -----------------
# A row equal to an earlier one (a value the launch caps, such as
# launch.blocks_per_sm past the occupancy limit) is dropped.
if ! {
  cat "$work/header"
  for ((j = 1; j <= n; j++)); do cat "$work/$j.row"; done
} | awk '!seen[$0]++ { print; next } { d++ } END { if (d) printf "%d\n", d > "/dev/stderr" }' \
  >"$out.tmp" 2>"$work/dups"; then
  rm -f "$out.tmp"
  echo "sweep.sh: cannot write $out (disk full?); the rows stay in $work for --resume" >&2
  exit 1
fi
dups=$(cat "$work/dups")
[ -z "$dups" ] || warn "dropped $dups point(s) whose row repeats an earlier one (a value the launch caps)"
mv -f "$out.tmp" "$out"
rm -rf "$work"
[ $quiet -eq 1 ] || echo "sweep.sh: $((n - ${dups:-0})) runs -> $out" >&2
