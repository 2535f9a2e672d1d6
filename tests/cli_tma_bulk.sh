#!/usr/bin/env bash
# cli_tma_bulk.sh - the h200 model moves TMA bulk copies from DRAM as the
# microbenchmark it was measured on did (issue 24, results/reference/h200/tma/
# bulk.csv): k_bulk's steady loop (tests/data/tma/bulk_loop.sass, cut from
# tma.sass.gz by gen_bulk_loop.py: one warp a CTA, the size an UMOV, the ELECT
# retry dropped), simulated with no profile (every copy from DRAM) at B CTAs
# per SM in one wave of B x 132, against the bytes per cycle per SM the H200
# moved: within 10 % for 2 KiB with 2 in flight at B = 4, 8, 16 and 1 KiB
# with 4 in flight at B = 8, 16.  A copy charged to the DRAM twice (sm_bulk's
# mem_load inside MAX, before 2026-12-04) moved 7.9-8.1 B/cycle there
# (0.46-0.58 x).
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the repository}
csv=$root/results/reference/h200/tma/bulk.csv
sass=$root/tests/data/tma/bulk_loop.sass
# shellcheck source=tests/common.sh
. "$root/tests/common.sh"

# check BYTES INFLIGHT B: simulated against measured bytes per cycle per SM
# (the row's iters x 8 copies a CTA, as tma.cu ran them).
check() {
  local bytes=$1 k=$2 b=$3 iters meas cycles
  read -r iters meas < <(awk -F, -v s="$bytes" -v k="$k" -v b="$b" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["src"] == "dram" && $c["bytes"] == s && $c["inflight"] == k && $c["blocks_per_sm"] == b {
      print $c["iters"], $c["bytes_per_cycle_per_sm"]; exit }' "$csv")
  [ -n "${meas:-}" ] || fail "no row dram,$bytes,$k at B = $b in $csv"
  printf '[sass]\nfile=%s\nfunction=k_bulk_%s_%s\ntrip_count=%s\n[launch]\nthreads_per_block=32\nblocks_per_sm=%s\nblocks=%s\n' \
    "$sass" "$bytes" "$k" $((iters * 8)) "$b" $((b * 132)) >"$tmp/k.ini"
  cycles=$(timeout 60 "$bin" run --kernel "$tmp/k.ini" --format csv --no-whatif 2>"$tmp/err" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["cycles"] }')
  [ -n "$cycles" ] || fail "$bytes B x $k, B = $b: no run: $(cat "$tmp/err")"
  awk -v b="$b" -v n=$((iters * 8)) -v s="$bytes" -v c="$cycles" -v m="$meas" \
    'BEGIN { r = b * n * s / c / m; exit !(r >= 0.9 && r <= 1.1) }' ||
    fail "$bytes B x $k in flight, B = $b: $cycles cycles simulated for $meas B/cycle/SM measured (ratio outside 0.9..1.1)"
  ok
}

for p in "2048 2 4" "2048 2 8" "2048 2 16" "1024 4 8" "1024 4 16"; do
  # shellcheck disable=SC2086
  check $p
done

echo "$passed passed, 0 failed"
