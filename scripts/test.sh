#!/usr/bin/env bash
# test.sh - install what is missing, build (warnings are errors), run every
# test through CTest.  A second pass runs the Check suites under ASan/UBSan
# unless WARPSIM_NO_SANITIZE=1.
# Usage: scripts/test.sh      (CI: .ci/run calls it)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
"$root/scripts/deps.sh"
BUILD_DIR=$root/build "$root/scripts/build.sh"
ctest --test-dir "$root/build" --output-on-failure -j"$(nproc)"
if [ "${WARPSIM_NO_SANITIZE:-0}" != 1 ]; then
  echo "== again under ASan/UBSan"
  BUILD_DIR=$root/build-sanitize "$root/scripts/build.sh" -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_SANITIZE=ON
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
    ctest --test-dir "$root/build-sanitize" --output-on-failure -j"$(nproc)" -E 'validate|bench'
fi
