#!/usr/bin/env bash
# cli_bench_callgrind.sh - guards the simulator's speed with a count that does
# not depend on the host: host instructions per simulated warp-instruction on
# fma ILP 4 at 64 warps (scripts/callgrind_count.sh) must stay at or below
# LIMIT.  Measured 98 in a Release build (README "Speed"); the limit leaves
# 20 % for compilers and build types.  Skipped (77) without valgrind; not run
# under the sanitizers (test.sh excludes 'bench').  Needs WARPSIM_BIN.
set -euo pipefail
root=${WARPSIM_ROOT:?}
limit=${WARPSIM_CALLGRIND_LIMIT:-120}
if ! command -v valgrind >/dev/null 2>&1; then
  echo "valgrind not installed: instruction count not checked"
  exit 77
fi
out=$(WARPSIM=${WARPSIM_BIN:?} "$root/scripts/callgrind_count.sh")
per=${out%% *}
echo "host instructions per warp-instruction: $per (limit $limit)"
awk -v p="$per" -v l="$limit" 'BEGIN { exit !(p > 0 && p <= l) }' || {
  echo "FAIL: $per host instructions per warp-instruction, above $limit" >&2
  exit 1
}
