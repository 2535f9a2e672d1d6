#!/usr/bin/env bash
# test.sh - install what is missing, build (warnings are errors), run every
# test through CTest.  A second pass (unless WARPSIM_NO_SANITIZE=1) builds with
# ASan and UBSan (float-cast-overflow included) into build-sanitize/ and runs
# the suites again; with clang (scripts/deps.sh installs it) that build also
# holds the libFuzzer harnesses of tests/fuzz, whose seed corpora are
# replayed and which are fuzzed WARPSIM_FUZZ_SECONDS (default 10) each.
# Usage: scripts/test.sh      (CI: .ci/run calls it)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
warpsim_need_source "$root"
"$root/scripts/deps.sh"
BUILD_DIR=$root/build "$root/scripts/build.sh"
ctest --test-dir "$root/build" --output-on-failure -j"$(nproc)"
if [ "${WARPSIM_NO_SANITIZE:-0}" != 1 ]; then
  san=$root/build-sanitize
  opts=(-DCMAKE_BUILD_TYPE=Debug -DWARPSIM_SANITIZE=ON)
  cc=$(command -v clang || command -v cc)
  if [ "$(basename "$cc")" = clang ]; then
    opts+=(-DWARPSIM_FUZZ=ON "-DWARPSIM_FUZZ_SECONDS=${WARPSIM_FUZZ_SECONDS:-10}")
    echo "== again under ASan/UBSan (clang), with the fuzz harnesses"
  else
    echo "== again under ASan/UBSan (no clang: no fuzzing)"
  fi
  # A build tree configured with another compiler is started afresh.
  if [ -f "$san/CMakeCache.txt" ] && ! grep -qx "CMAKE_C_COMPILER:FILEPATH=$cc" "$san/CMakeCache.txt"; then
    rm -rf "$san"
  fi
  CC=$cc BUILD_DIR=$san "$root/scripts/build.sh" "${opts[@]}"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --test-dir "$san" --output-on-failure -j"$(nproc)" -E 'validate|bench|valgrind'
fi
