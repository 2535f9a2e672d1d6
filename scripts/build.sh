#!/usr/bin/env bash
# build.sh - configure and build warpsim into BUILD_DIR (default build/).
# Usage: scripts/build.sh [extra cmake -D options]
# WARPSIM_BUILD_TARGETS="T1 T2": build only those targets (default: all).
# A build folder configured for another source tree (a moved clone) is
# configured again from scratch, with one line saying so.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
warpsim_need_source "$root"
build=${BUILD_DIR:-$root/build}
"$root/scripts/deps.sh"
warpsim_fresh_cache "$root" "$build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DWARPSIM_WERROR=ON "$@" >/dev/null
targets=()
for t in ${WARPSIM_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" -j"$(nproc)" "${targets[@]+"${targets[@]}"}" >/dev/null
