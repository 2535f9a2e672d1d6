#!/usr/bin/env bash
# cli_install.sh - warpsim finds its models and traces relative to itself:
# `cmake --install` into a prefix that is then moved still runs (binary,
# models, traces, scripts, man page); a copy of the tree (source files and the
# binary at the same place relative to them) runs; a binary alone fails with
# exit 2 and one line saying where it looked, and works with WARPSIM_MODELS /
# WARPSIM_TRACES.  Needs WARPSIM_BIN (in its CMake build directory) and
# WARPSIM_ROOT; skipped (77) without that build directory.
set -u
bin=${WARPSIM_BIN:?}
root=${WARPSIM_ROOT:?}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
build=$(cd "$(dirname "$bin")/.." && pwd)
[ -f "$build/CMakeCache.txt" ] || { echo "no CMake build directory above $bin"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*" >&2; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }
unset WARPSIM_MODELS WARPSIM_TRACES WARPSIM

# runs NAME BIN: a short simulation by names (model given as nvcc arch, kernel
# as a file name) prints one CSV row of the h200 model.
runs() {
  "$2" run --model sm_90 --kernel fma.ini --set stream.iterations=8 --format csv >"$tmp/out" 2>"$tmp/err" ||
    fail "$1: exit $?: $(cat "$tmp/err")"
  [ "$(cut -d, -f1,2 "$tmp/out" | tail -1)" = "h200,fma" ] || fail "$1: $(cat "$tmp/out")"
  "$2" models >"$tmp/out" 2>"$tmp/err" || fail "$1: models: $(cat "$tmp/err")"
  grep -q '^h200 ' "$tmp/out" || fail "$1: models lacks h200: $(cat "$tmp/out")"
  ok
}

# 1. Install, then move the prefix.
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 || fail "cmake --install: $(cat "$tmp/log")"
mv "$tmp/prefix" "$tmp/moved"
p=$tmp/moved
for f in bin/warpsim share/warpsim/models/h200.ini share/warpsim/traces/fma.ini \
  share/warpsim/scripts/sweep.sh share/warpsim/scripts/plot_occupancy.gp \
  share/warpsim/results/reference/h200/chase.csv share/man/man1/warpsim.1; do
  [ -e "$p/$f" ] || fail "install lacks $f"
done
[ -x "$p/share/warpsim/scripts/run.sh" ] || fail "installed run.sh is not executable"
ok
runs "installed and moved" "$p/bin/warpsim"
if command -v man >/dev/null 2>&1; then
  MANWIDTH=80 man -l "$p/share/man/man1/warpsim.1" 2>/dev/null | grep -q 'WARPSIM_MODELS' ||
    fail "the man page does not document WARPSIM_MODELS"
  ok
fi
# The installed scripts run the installed binary (lib.sh finds it).
if command -v gnuplot >/dev/null 2>&1; then
  (cd "$tmp" && "$p/share/warpsim/scripts/stalls.sh" --kernel fma --set stream.iterations=8 st) \
    >"$tmp/log" 2>&1 || fail "installed stalls.sh: $(cat "$tmp/log")"
  [ -s "$tmp/st/stalls_fma_iterations8.csv" ] || [ -s "$tmp/st/stalls_fma.csv" ] ||
    fail "installed stalls.sh wrote nothing: $(ls "$tmp/st")"
  ok
fi

# 2. A copy of the tree: the binary at the same place relative to models/ and traces/.
rel=$(realpath --relative-to="$(dirname "$bin")" "$root")
case "$rel" in
  ..|../*)
    depth=$(printf '%s\n' "$rel" | tr '/' '\n' | grep -c '^\.\.$')
    if [ "$(printf '%s\n' "$rel" | tr '/' '\n' | grep -vc '^\.\.$')" -eq 0 ]; then
      sub=$(dirname "$bin" | tr '/' '\n' | tail -n "$depth" | paste -sd/)
      mkdir -p "$tmp/tree/$sub"
      cp -a "$root/models" "$root/traces" "$tmp/tree/"
      cp "$bin" "$tmp/tree/$sub/"
      mv "$tmp/tree" "$tmp/tree2"
      runs "moved tree" "$tmp/tree2/$sub/warpsim"
    fi
    ;;
esac

# 3. The binary alone: nothing found says where it looked; the variables help.
mkdir "$tmp/alone"
cp "$bin" "$tmp/alone/"
for args in "run --kernel fma" "models" "occupancy --model h200 --threads 128 --regs 32"; do
  # shellcheck disable=SC2086
  "$tmp/alone/warpsim" $args >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] || fail "alone, $args: exit $rc, expected 2"
  [ ! -s "$tmp/out" ] || fail "alone, $args: wrote to stdout"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "alone, $args: not one line: $(cat "$tmp/err")"
  grep -q "looked in $tmp/share/warpsim/models (missing)" "$tmp/err" ||
    fail "alone, $args: does not say where it looked: $(cat "$tmp/err")"
  ok
done
WARPSIM_MODELS=$root/models "$tmp/alone/warpsim" run --kernel fma >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "looked in $tmp/share/warpsim/traces (missing)" "$tmp/err" ||
  fail "alone, no traces: $(cat "$tmp/err")"
ok
WARPSIM_MODELS=$root/models WARPSIM_TRACES=$root/traces runs "alone with WARPSIM_MODELS/TRACES" "$tmp/alone/warpsim"
echo "$passed passed, 0 failed"
