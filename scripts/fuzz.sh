#!/usr/bin/env bash
# fuzz.sh - fuzz warpsim's parsers with libFuzzer for as long as you like.
# Builds the harnesses of tests/fuzz with clang, ASan and UBSan into
# build-fuzz/, then fuzzes each TARGET in turn for SECONDS (default 3600),
# on JOBS workers (default: all cores).  New inputs go to
# build-fuzz/corpus/TARGET (seeded from tests/fuzz/corpus/TARGET, which CI
# replays: copy an input there to keep it); a crash, leak or timeout leaves
# its input in build-fuzz/artifacts/ and stops with exit 1.
#
# Usage: scripts/fuzz.sh [--seconds S] [--jobs N] [TARGET ...]
#   TARGETs: kernel model set batch occupancy sass ncu export (default: all eight)
# Example: scripts/fuzz.sh --seconds 7200 set batch
#   Reproduce a crash: build-fuzz/tests/fuzz/fuzz_TARGET build-fuzz/artifacts/crash-...
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
warpsim_need_source "$root"
all=(kernel model set batch occupancy sass ncu export)
seconds=3600 jobs=$(nproc) targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds|--jobs) [ $# -ge 2 ] || warpsim_die "$1 needs a value (see --help)" ;;&
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -*) warpsim_die "unknown option '$1' (see --help)" ;;
    *) [[ " ${all[*]} " == *" $1 "* ]] || warpsim_die "unknown target '$1' (${all[*]})"
       targets+=("$1"); shift ;;
  esac
done
[[ $seconds =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || warpsim_die "--seconds '$seconds': a whole number of seconds"
[[ $jobs =~ ^[0-9]+$ ]] && [ "$jobs" -gt 0 ] || warpsim_die "--jobs '$jobs': a whole number"
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
"$root/scripts/deps.sh"
command -v clang >/dev/null 2>&1 || warpsim_die "clang not found (scripts/deps.sh installs it)"
out=$root/build-fuzz
CC=$(command -v clang) BUILD_DIR=$out WARPSIM_BUILD_TARGETS=fuzz_all "$root/scripts/build.sh" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWARPSIM_SANITIZE=ON -DWARPSIM_FUZZ=ON
mkdir -p "$out/artifacts"
cd "$out" # libFuzzer writes its fuzz-N.log files (one per worker) here
par=()
[ "$jobs" -eq 1 ] || par=(-jobs="$jobs" -workers="$jobs")
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t"
  echo "== fuzzing $t for $seconds s on $jobs workers (corpus $out/corpus/$t)" >&2
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$out/tests/fuzz/fuzz_$t" -max_total_time="$seconds" "${par[@]+"${par[@]}"}" \
    -close_fd_mask=3 -timeout=10 -rss_limit_mb=2048 -dict="$root/tests/fuzz/warpsim.dict" \
    -artifact_prefix="$out/artifacts/" "$out/corpus/$t" "$root/tests/fuzz/corpus/$t" ||
    { echo "fuzz.sh: $t failed: see $out/artifacts/ and $out/fuzz-*.log" >&2; exit 1; }
done
