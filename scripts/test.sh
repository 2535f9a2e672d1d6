#!/usr/bin/env bash
# test.sh - install what is missing, build (warnings are errors), run every
# test through CTest.  A second pass (unless WARPSIM_NO_SANITIZE=1) builds with
# ASan and UBSan (float-cast-overflow included, -O1) into build-sanitize/ and
# runs the suites again; with clang (scripts/deps.sh installs it) a third
# builds the libFuzzer harnesses of tests/fuzz into build-fuzz/ (the tree
# scripts/fuzz.sh uses), replays their seed corpora and fuzzes each
# WARPSIM_FUZZ_SECONDS (default 10).
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
  # -O1: ASan's recommended level; at -O0 the suites ran 3.3x slower (sgemm
  # SASS, one run: 3.95 s against 1.18 s CPU, both with the fuzz coverage).
  cc=$(command -v clang || command -v cc)
  # A build tree configured with another compiler is started afresh.
  fresh_cc() {
    if [ -f "$1/CMakeCache.txt" ] && ! grep -qx "CMAKE_C_COMPILER:FILEPATH=$cc" "$1/CMakeCache.txt"; then
      rm -rf "$1"
    fi
  }
  san=$root/build-sanitize
  echo "== again under ASan/UBSan ($(basename "$cc"))"
  fresh_cc "$san"
  CC=$cc BUILD_DIR=$san "$root/scripts/build.sh" -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-g -O1" \
    -DWARPSIM_SANITIZE=ON -DWARPSIM_FUZZ=OFF
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --test-dir "$san" --output-on-failure -j"$(nproc)" -E 'validate|bench|valgrind'
  # The libFuzzer harnesses in a tree of their own: libFuzzer's coverage
  # instrumentation (-fsanitize=fuzzer-no-link, in every object) made the
  # suites above 2.9x slower again (0.41 s against 1.18 s CPU for sgemm).
  if [ "$(basename "$cc")" = clang ]; then
    fz=$root/build-fuzz
    echo "== the libFuzzer harnesses (clang, ASan/UBSan): seed corpora replayed, ${WARPSIM_FUZZ_SECONDS:-10} s of fuzzing each"
    fresh_cc "$fz"
    CC=$cc BUILD_DIR=$fz WARPSIM_BUILD_TARGETS=fuzz_all "$root/scripts/build.sh" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_SANITIZE=ON -DWARPSIM_FUZZ=ON \
      "-DWARPSIM_FUZZ_SECONDS=${WARPSIM_FUZZ_SECONDS:-10}"
    ctest --test-dir "$fz" --output-on-failure -j"$(nproc)" -R '^fuzz_'
  else
    echo "== no clang: the libFuzzer harnesses are not built (scripts/deps.sh installs clang)"
  fi
fi
