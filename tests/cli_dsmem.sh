#!/usr/bin/env bash
# cli_dsmem.sh - the h200 model times distributed shared memory as the
# microbenchmark it was measured on did (issue 24, results/reference/h200/dsmem/):
# the peer kernels of dsmem.sass (tests/data/dsmem/peer.sass, cut by
# gen_dsmem.py with their Nsight Compute source pages: a generic LD.E / ST.E into
# the peer CTA's shared memory, Address Space Global,Shared), simulated with
# those profiles (256 trips of the loop, 8 accesses a trip) at B CTAs of 128
# threads per SM in one wave of B x 132, against the rows of chain.csv (cycles a
# dependent step), load.csv and store.csv (warp-accesses per cycle per SM),
# clusters of 2: within 10 % at the points below.  Timed as a global load (no
# [dsmem] keys) the dependent LD.E stepped in 15.7 cycles, 0.08 x the H200's 204.2.
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the repository}
ref=$root/results/reference/h200/dsmem
data=$root/tests/data/dsmem
# shellcheck source=tests/common.sh
. "$root/tests/common.sh"

# check KIND B COLUMN: simulated against the measured column of KIND.csv's
# row target=peer,cluster=2 at B (KIND: chain, load or store).
check() {
  local kind=$1 b=$2 col=$3 meas cycles fn
  meas=$(awk -F, -v b="$b" -v k="$col" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["target"] == "peer" && $c["cluster"] == 2 && $c["blocks_per_sm"] == b { print $c[k]; exit }' \
    "$ref/$kind.csv")
  [ -n "$meas" ] || fail "no row peer,2 at B = $b in $kind.csv"
  fn="k_$kind<"
  printf '[sass]\nfile=%s\nfunction=%s\nsource_csv=%s\n[launch]\nthreads_per_block=128\nblocks_per_sm=%s\nblocks=%s\n' \
    "$data/peer.sass" "$fn" "$data/${kind}_source.csv" "$b" $((b * 132)) >"$tmp/k.ini"
  cycles=$(timeout 60 "$bin" run --kernel "$tmp/k.ini" --format csv --no-whatif 2>"$tmp/err" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["cycles"] }')
  [ -n "$cycles" ] || fail "$kind, B = $b: no run: $(cat "$tmp/err")"
  # 256 trips x 8 accesses a warp; 4 warps a CTA
  awk -v b="$b" -v c="$cycles" -v m="$meas" -v k="$col" 'BEGIN {
      sim = k == "cycles_per_op" ? c / (256 * 8) : 4 * b * 256 * 8 / c
      r = sim / m; exit !(r >= 0.9 && r <= 1.1) }' ||
    fail "$kind, B = $b: $cycles cycles simulated for $col $meas measured (ratio outside 0.9..1.1)"
  ok
}

check chain 1 cycles_per_op
check chain 8 cycles_per_op
check load 1 ops_per_cycle_per_sm
check load 8 ops_per_cycle_per_sm
check store 1 ops_per_cycle_per_sm
check store 8 ops_per_cycle_per_sm

echo "$passed passed, 0 failed"
