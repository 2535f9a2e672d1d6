#!/usr/bin/env bash
# build.sh - configure and build warpsim into BUILD_DIR (default build/).
# Usage: scripts/build.sh [extra cmake -D options]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
build=${BUILD_DIR:-$root/build}
"$root/scripts/deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DWARPSIM_WERROR=ON "$@" >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
