#!/usr/bin/env bash
# cli_valgrind.sh - a few warpsim runs under valgrind (memcheck): no invalid
# access, no use of uninitialised memory, no definite leak, in a simulation
# with its text report and what-ifs, JSON, the occupancy calculator, a batch
# and bad input.  Skipped (exit 77) without valgrind.  Needs WARPSIM_BIN.
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() {
  echo "FAIL: $*" >&2
  echo "$passed passed, 1 failed"
  exit 1
}
# vg EXPECTED_RC ARGS...: warpsim ARGS under memcheck exits EXPECTED_RC (99 = a memcheck error).
vg() {
  local want=$1
  shift
  valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --track-origins=yes "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ $rc -eq "$want" ] || fail "warpsim $*: exit $rc, expected $want: $(head -c 2000 "$tmp/err")"
  passed=$((passed + 1))
}
vg 0 run --kernel chase --set stream.iterations=16 --set launch.blocks_per_sm=4
vg 0 run --kernel spill --set stream.iterations=4 --format json
vg 0 run --kernel fma --set stream.iterations=8 --format csv --config-comments
vg 0 occupancy --model h200 --threads 256 --regs 40 --smem-dynamic 20000 --vary all --format csv
printf 'threads,regs,smem_static,smem_dynamic\n128,32,0,0\n1024,64,0,1000\n' >"$tmp/b.csv"
vg 0 occupancy --model a100 --batch "$tmp/b.csv" --format json
vg 2 run --kernel fma --set stream.ilp=0
vg 2 occupancy --model h200 --threads 2000 --regs 32
echo "$passed passed"
