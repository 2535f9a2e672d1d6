#!/usr/bin/env bash
# bench.sh - simulator speed, wall clock, one thread: simulated warp
# instructions per second and SM cycles per second on a compute-bound case
# (fma ILP 4, 64 resident warps) and a memory-bound case (DRAM chase ILP 4,
# 64 warps), and the six real kernels simulated from their SASS and profile
# (traces/<kernel>_sass.ini for sgemm, softmax, stencil, transpose, saxpy and
# gather: 8 blocks per SM, 8 waves), then the host-independent count: host
# instructions per simulated warp-instruction on the compute-bound case and
# the six SASS kernels (callgrind, scripts/callgrind_count.sh; skipped
# without valgrind).
# Targets: >= 100 million warp-instructions per second on the compute-bound
# case on a quiet host, >= 20 million on each SASS kernel, <= 100
# instructions per warp-instruction on the compute-bound case.  Prints a
# table; exit status 1 when a speed target is missed and --check is given.
# Usage: scripts/bench.sh [--check] [--repeat N]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
check=0 repeat=5
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1; shift ;;
    --repeat)
      [ $# -ge 2 ] || warpsim_die "--repeat needs a value (see --help)"
      [[ "$2" =~ ^[1-9][0-9]{0,3}$ ]] || warpsim_die "--repeat: '$2' is not a count of runs (allowed 1..9999)"
      repeat=$2; shift 2 ;;
    -h|--help) warpsim_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) warpsim_die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -x "$warpsim" ] || BUILD_DIR=$root/build "$root/scripts/build.sh"
target=100000000
sass_target=20000000
status=0
printf '%-32s %14s %14s %10s %16s %14s\n' case warp_insts cycles wall_s warp_insts_per_s cycles_per_s
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
    row=$("$warpsim" run --format csv "$@")
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
if [ $status -ne 0 ]; then
  echo "bench.sh: below target: < $target warp-instructions per second on fma ILP4 64 warps, or < $sass_target on a SASS kernel" >&2
  [ $check -eq 0 ] || exit 1
fi
