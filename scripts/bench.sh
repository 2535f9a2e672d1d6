#!/usr/bin/env bash
# bench.sh - simulator speed, one thread: simulated warp instructions per
# second and SM cycles per second (wall clock) on a compute-bound case (fma
# ILP 4, 64 resident warps) and a memory-bound case (DRAM chase ILP 4, 64
# warps), and the six real kernels simulated from their SASS and profile
# (traces/<kernel>_sass.ini for sgemm, softmax, stencil, transpose, saxpy and
# gather: 8 blocks per SM, 8 waves); then the host-independent count: host
# instructions per simulated warp-instruction on the compute-bound case and
# the six SASS kernels (callgrind, scripts/callgrind_count.sh; skipped
# without valgrind); then the curves: for every SASS kernel that
# scripts/validate_real.sh simulates, its whole occupancy curve (the points
# validate_real.sh --print-jobs lists: B = 1..16 blocks per SM, the launch as
# measured; twice, as validate_real.sh runs it: one `warpsim run --points`
# process anchored at the profile, the default of warpsim run, and one pure,
# --no-anchor), the CPU time (user + sys) of each, and with --count the host
# instructions callgrind counts for it and the CPU seconds they take at
# --ips host instructions per second; then the curves within the target and
# those over it.
# Targets: >= 100 million warp-instructions per second on the compute-bound
# case on a quiet host, >= 20 million on each SASS kernel, <= 100
# instructions per warp-instruction on the compute-bound case, <= 1.0 s of
# CPU time for each curve in each mode (with --count: of its host
# instructions at --ips).
# Prints tables; exit status 1 when a target is missed and --check is given.
# CPU time is inflated on a loaded host (other processes share its caches and
# cores); the count is not.
# Usage: scripts/bench.sh [--check] [--repeat N] [--no-fixed]
#          [--curves all|none|K,K...] [--count] [--ips N]
#   --repeat N  runs of each fixed case, the fastest kept (default 5)
#   --no-fixed  skip the fixed cases and their counts (only the curves)
#   --curves    the kernels whose curve is timed (names as in
#               results/validation/real.csv; default all, none skips them)
#   --count     count each curve's host instructions with callgrind (about
#               50 times slower than the runs themselves)
#   --ips N     host instructions per second of one core of this host, for
#               --count's seconds (default 8.0e9: this project's 2-core VM,
#               6.0-13.0e9 by kernel, doc/speed.md "Curves")
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
check=0 repeat=5 fixed=1 curves=all count=0 ips=8.0e9 failed=""
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1; shift ;;
    --repeat)
      [ $# -ge 2 ] || warpsim_die "--repeat needs a value (see --help)"
      [[ "$2" =~ ^[1-9][0-9]{0,3}$ ]] || warpsim_die "--repeat: '$2' is not a count of runs (allowed 1..9999)"
      repeat=$2; shift 2 ;;
    --curves)
      [ $# -ge 2 ] || warpsim_die "--curves needs a value (see --help)"
      [[ "$2" =~ ^[a-z0-9_,]+$ ]] || warpsim_die "--curves: '$2' (allowed all, none or kernel names separated by commas)"
      curves=$2; shift 2 ;;
    --count) count=1; shift ;;
    --no-fixed) fixed=0; shift ;;
    --ips)
      [ $# -ge 2 ] || warpsim_die "--ips needs a value (see --help)"
      awk -v v="$2" 'BEGIN { exit !(v ~ /^[0-9.]+([eE][0-9]+)?$/ && v + 0 >= 1e6 && v + 0 <= 1e12) }' ||
        warpsim_die "--ips: '$2' is not host instructions per second (allowed 1e6..1e12)"
      ips=$2; shift 2 ;;
    -h|--help) warpsim_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) warpsim_die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -x "$warpsim" ] || BUILD_DIR=$root/build "$root/scripts/build.sh"
# The curves' points (kernel, B, warps, measured, work per block, warpsim
# arguments), those of the kernels --curves names; checked before any run.
curve_jobs=""
if [ "$curves" != none ]; then
  curve_jobs=$(WARPSIM=$warpsim "$root/scripts/validate_real.sh" --print-jobs)
  if [ "$curves" != all ]; then
    names=$(cut -f1 <<<"$curve_jobs" | sort -u)
    IFS=, read -r -a want <<<"$curves"
    for k in "${want[@]}"; do
      grep -qx -- "$k" <<<"$names" ||
        warpsim_die "--curves: no kernel '$k' in validate_real.sh's points (allowed all, none or: $(paste -sd' ' <<<"$names"))"
    done
    curve_jobs=$(awk -F'\t' -v want=",$curves," 'index(want, "," $1 ",")' <<<"$curve_jobs")
  fi
  if [ $count -eq 1 ] && ! command -v valgrind >/dev/null 2>&1; then
    echo "bench.sh: valgrind not installed: --count skipped (scripts/deps.sh installs it)" >&2
    count=0
  fi
fi
target=100000000
sass_target=20000000
status=0
# column_of NAME CSV: the value of column NAME in a header + row CSV text.
column_of() {
  awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
                        { print $c }' <<<"$2"
}
bench() {
  local name=$1; shift
  local best=0 row
  for ((r = 0; r < repeat; r++)); do
    local t0 t1
    t0=$(date +%s%N)
    # The first repeat's warnings are shown; the same ones again would be noise.
    if [ $r -eq 0 ]; then
      row=$("$warpsim" run --format csv "$@")
    else
      row=$("$warpsim" run --format csv "$@" 2>/dev/null)
    fi
    t1=$(date +%s%N)
    local ns=$((t1 - t0))
    if [ $best -eq 0 ] || [ $ns -lt $best ]; then best=$ns; fi
  done
  local insts cycles
  insts=$(column_of warp_insts "$row")
  cycles=$(column_of cycles "$row")
  awk -v n="$name" -v i="$insts" -v c="$cycles" -v ns="$best" 'BEGIN {
    s = ns / 1e9
    printf "%-32s %14d %14d %10.3f %16.0f %14.0f\n", n, i, c, s, i / s, c / s
  }'
  local rate=$((insts * 1000000000 / best))
  if [ "$name" = "fma ILP4 64 warps" ]; then
    [ $rate -ge $target ] || status=1
  fi
  case "$name" in
    *SASS*) [ $rate -ge $sass_target ] || status=1 ;;
  esac
}
# fixed_cases: the fixed cases (wall rates), then their callgrind counts.
fixed_cases() {
  printf '%-32s %14s %14s %10s %16s %14s\n' case warp_insts cycles wall_s warp_insts_per_s cycles_per_s
  bench "fma ILP4 64 warps" --kernel fma --set stream.ilp=4 --set stream.fma=128 \
    --set launch.blocks_per_sm=16 --set stream.iterations=2048
  bench "chase DRAM ILP4 64 warps" --kernel chase --set stream.ilp=4 --set stream.loads=4 \
    --set launch.blocks_per_sm=16 --set stream.iterations=4096
  sass_kernels=(sgemm softmax stencil transpose saxpy gather)
  for k in "${sass_kernels[@]}"; do
    bench "$k SASS 32 warps 8 waves" --kernel "${k}_sass" --set launch.blocks_per_sm=8 \
      --set launch.blocks=8448 --no-whatif
  done
  if command -v valgrind >/dev/null 2>&1; then
    cases=("fma:fma ILP4 64 warps")
    for k in "${sass_kernels[@]}"; do cases+=("${k}_sass:$k SASS 32 warps"); done
    for c in "${cases[@]}"; do
      read -r per n _ < <(WARPSIM=$warpsim "$root/scripts/callgrind_count.sh" --case "${c%%:*}")
      printf 'callgrind: %s host instructions per warp-instruction (%s, %s warp-instructions)\n' \
        "$per" "${c#*:}" "$n"
    done
  fi
}
[ $fixed -eq 0 ] || fixed_cases
# curve_run MODE KERNEL ARGS...: KERNEL's whole curve as validate_real.sh
# runs it, one `warpsim run --points` process (its points in $tmp_pts/KERNEL,
# scripts/lib.sh warpsim_curve_points; ARGS the options before them), MODE
# anchored (the default with a profile) or pure (--no-anchor); prints
# "MODE<TAB>points<TAB>warp_insts summed<TAB>CPU seconds (user + sys, bash's
# time)<TAB>host instructions (callgrind's total, with --count; else 0)<TAB>
# ok, or why not (warpsim's exit status, rows against the points file's
# points, no callgrind count)".
curve_run() {
  local mode=$1 k=$2 t host=0 rc want TIMEFORMAT='%3U %3S'
  shift 2
  [ "$mode" = anchored ] || set -- --no-anchor "$@"
  set -- run --model h200 --format csv --no-whatif "$@" --points "$tmp_pts/$k"
  t=$( { time { "$warpsim" "$@" >"$tmp_pts/rows" 2>/dev/null </dev/null; echo $? >"$tmp_pts/rc"; }; } 2>&1)
  rc=$(cat "$tmp_pts/rc")
  want=$(grep -cv '^[[:space:]]*\(#.*\)\{0,1\}$' "$tmp_pts/$k")
  [ $count -eq 0 ] || host=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$warpsim" "$@" \
    2>&1 >/dev/null </dev/null | awk '/Collected/ { print $4 }')
  awk -F, -v mode="$mode" -v t="$t" -v host="${host:-0}" -v rc="$rc" -v want="$want" -v c=$count '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == "warp_insts") col = i; next }
    { n++; insts += $col }
    END { split(t, u, " ")
      why = rc != 0 ? "warpsim exit " rc : n != want ? n " of " want " points" : \
            c && host + 0 == 0 ? "no callgrind count" : "ok"
      printf "%s\t%d\t%d\t%s\t%s\t%s\n", mode, n, insts, u[1] + u[2], host, why }' "$tmp_pts/rows"
}
# The curves: per kernel, its curve's CPU seconds (and host instructions)
# in each mode; the target holds for both modes.
curve_target=1.0
if [ -n "$curve_jobs" ]; then
  tmp_pts=$(mktemp -d)
  trap 'rm -rf "$tmp_pts"' EXIT
  warpsim_curve_points <(printf '%s\n' "$curve_jobs") "$tmp_pts" >"$tmp_pts/curves"
  echo
  printf '%-16s %6s %12s %8s %10s %16s' curve points warp_insts cpu_s cpu_s_pure warp_insts_per_s
  [ $count -eq 0 ] || printf ' %14s %14s %8s %10s' host_insts host_insts_pure est_s est_s_pure
  echo "  target"
  passed=""
  while IFS=$'\t' read -r k args; do
    # shellcheck disable=SC2086 # word splitting of the option list is intended
    if { curve_run anchored "$k" $args; curve_run pure "$k" $args; } | awk -F'\t' -v k="$k" -v c="$count" -v ips="$ips" -v t="$curve_target" '
      { n[$1] = $2; insts[$1] = $3; cpu[$1] = $4; host[$1] = $5
        if ($6 != "ok") bad = bad " " $1 ": " $6 }
      END {
        if (bad != "") { printf "%-16s failed:%s\n", k, bad; exit 1 }
        rate = cpu["anchored"] > 0 ? insts["anchored"] / cpu["anchored"] : 0
        printf "%-16s %6d %12d %8.3f %10.3f %16.0f", k, n["anchored"], insts["anchored"],
          cpu["anchored"], cpu["pure"], rate
        if (c) printf " %14.0f %14.0f %8.3f %10.3f", host["anchored"], host["pure"],
          host["anchored"] / ips, host["pure"] / ips
        worst = c ? (host["anchored"] > host["pure"] ? host["anchored"] : host["pure"]) / ips \
                  : (cpu["anchored"] > cpu["pure"] ? cpu["anchored"] : cpu["pure"])
        print (worst > t ? "  over" : "  ok")
        exit worst > t }'; then
      passed+=" $k"
    else
      status=1 failed+=" $k"
    fi
  done <"$tmp_pts/curves"
  echo "curves within $curve_target s:${passed:- none}"
  echo "curves over $curve_target s or failed:${failed:- none}"
fi
if [ $status -ne 0 ]; then
  echo "bench.sh: below target: < $target warp-instructions per second on fma ILP4 64 warps, < $sass_target on a SASS kernel, or a curve over $curve_target s" >&2
  [ $check -eq 0 ] || exit 1
fi
