#!/usr/bin/env bash
# cli_l2flight.sh - the h200 model reproduces the microbenchmarks its
# lines-in-flight keys come from (issue 24 items 2 and 5): seven loops of
# results/reference/h200/l2flight/ (their SASS cut into
# tests/data/l2flight/l2flight_sel.sass, with the Nsight Compute source and
# details exports of the loops at 4 CTAs per SM, which tell the simulator
# their sectors per request and hit rates), simulated at the measured launch
# (128 threads, B CTAs per SM pinned by dynamic shared memory in a 228 KB
# carveout, one wave of B x 132, B = 1, 2, 4, 8, 12, 16), against the rate
# the H200 measured (load.csv, carveout_kb=228):
#   loads at stride 32 (32 lines per warp-load) from L2 with 1 and 4 in
#     flight per thread ([class_global] lines_in_flight): MAPE <= 12 %,
#     every point within 0.75..1.25;
#   coalesced L2 loads (128-bit with 1 and 4 in flight per thread, 32-bit
#     with 4), the rate rising to ~55 B/cycle/SM and falling once more than
#     224 lines are asked for ([l2] peak_bytes_per_cycle with bytes_per_cycle
#     beyond): the same bounds;
#   a coalesced 128-bit DRAM stream with 1 in flight (no cap below 64 warps):
#     the same bounds;
#   the known miss: stride-32 loads from DRAM (adjacent lines, 64 DRAM bytes a
#     sector) at a line of DRAM time per sector, as a random gather takes
#     (scattered_dram_bytes 0): 0.5..0.75 of the measured rate, and within
#     the bounds above with scattered_dram_bytes=64;
# and the old keys (lines_in_flight 160, no L2 peak) miss the same checks:
# MAPE above 15 % on the stride-32 and the coalesced 128-bit L2 curves.
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the repository}
ref=$root/results/reference/h200/l2flight
sass=$root/tests/data/l2flight/l2flight_sel.sass
# shellcheck source=tests/common.sh
. "$root/tests/common.sh"

# h200 ships lines_in_flight 160 (fitted on gather) and no L2 peak; these
# loops are what give the measured pair (doc/model_sources.md says why it is
# not shipped): every check runs with it, and the old-key checks override it.
measured=(--set class_global.lines_in_flight=224 --set l2.peak_bytes_per_cycle=55)
# curve W S E LVL [--set ...]: "B simulated measured" per line for k_ld<W, S,
# E, LVL> (LVL 0: L2 through ld.global.cg, 1: DRAM) at B = 1, 2, 4, 8, 12, 16
# where load.csv has the point (the 228 KB carveout), in warp-loads per cycle
# per SM (B x 4 warps x iters x E / cycles).
curve() {
  local w=$1 s=$2 e=$3 lvl=$4 level
  shift 4
  level=$([ "$lvl" = 0 ] && echo l2_cg || echo dram)
  awk -F, -v b=$((w * 8)) -v s="$s" -v l="$level" -v e="$e" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["kernel"] == "k_ld" && $c["bits"] == b && $c["stride_elems"] == s && $c["level"] == l &&
      $c["elems_in_flight_per_thread"] == e && $c["carveout_kb"] == 228 &&
      $c["blocks_per_sm"] ~ /^(1|2|4|8|12|16)$/ {
      print $c["blocks_per_sm"], $c["iters"], $c["warp_loads_per_cycle_per_sm"] }' "$ref/load.csv" |
    while read -r b iters meas; do
      printf '[sass]\nfile=%s\nfunction=_Z4k_ldILi%sELi%sELi%sELi%sEEvPKcmPfP3Reci\nsource_csv=%s\ndetails_csv=%s\n[launch]\nthreads_per_block=128\nblocks_per_sm=%s\nblocks=%s\nsmem_dynamic=%s\noptin=true\n' \
        "$sass" "$w" "$s" "$e" "$lvl" "$ref/ncu/source_b4.csv" "$ref/ncu/details_b4.csv" "$b" \
        $((b * 132)) $(((228 * 1024 / b - 1024) / 128 * 128)) >"$tmp/k.ini"
      timeout 60 "$bin" run --kernel "$tmp/k.ini" --format csv --no-whatif --no-anchor "${measured[@]}" "$@" \
        2>"$tmp/err" | awk -F, -v b="$b" -v n=$((4 * iters * e)) -v m="$meas" '
          NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
          { printf "%s %.6g %s\n", b, b * n / $c["cycles"], m }'
    done
}

# check NAME MAPE_LO MAPE_HI RATIO_LO RATIO_HI W S E LVL [--set ...]: the
# curve's MAPE in [MAPE_LO, MAPE_HI] % and every simulated / measured ratio
# in [RATIO_LO, RATIO_HI]; with KNOWN="B LO HI" in the environment, point B's
# ratio in [LO, HI) instead (a known miss, which fails the check once mended).
check() {
  local name=$1 lo=$2 hi=$3 rlo=$4 rhi=$5
  shift 5
  curve "$@" >"$tmp/c"
  [ "$(wc -l <"$tmp/c")" -ge 5 ] || fail "$name: $(wc -l <"$tmp/c") points: $(cat "$tmp/err")"
  awk -v lo="$lo" -v hi="$hi" -v rlo="$rlo" -v rhi="$rhi" -v known="${KNOWN:-}" '
    BEGIN { split(known, kb, " ") }
    { r = $2 / $3; d = r > 1 ? r - 1 : 1 - r; s += d; n++
      if (known != "" && $1 == kb[1]) { if (r < kb[2] || r >= kb[3]) bad = bad " B=" $1 ":" r " (known miss " kb[2] ".." kb[3] ")" }
      else if (r < rlo || r > rhi) bad = bad " B=" $1 ":" r }
    END { m = 100 * s / n; if (m < lo || m > hi || bad != "") { printf "MAPE %.1f %%%s\n", m, bad; exit 1 } }' \
    "$tmp/c" >"$tmp/why" || fail "$name: $(cat "$tmp/why") (allowed MAPE $lo..$hi %, ratios $rlo..$rhi)"
  ok
}

check "L2 stride 32, 1 in flight" 0 12 0.75 1.25 4 32 1 0
check "L2 stride 32, 4 in flight" 0 12 0.75 1.25 4 32 4 0
# Known miss at B = 16 (0.745 of the H200): this loop's profile counts 4.7 %
# of its L2 sectors as misses (L2 Hit Rate 95.31 %) where DRAM moved 0.12 %
# of peak, and the profile's DRAM bytes now bound its misses
# (sassmem_dram_bounded_hit): every sector is an L2 hit and the 224 / 55
# pair's L2 path, fitted when those misses went to DRAM, runs 25 % slow
# there (0.782 before; 55 is still the best peak with the bound, MAPE 8.0 %
# over the three coalesced loops against 8.4 at 60).  Since the SMSPs take
# the lines the cap frees in turn (sm_issue_stage) it runs at 0.752, inside
# 0.75..1.25 again: the known miss is mended (by 0.002, no margin).
check "L2 128-bit, 1 in flight (B = 16 at 0.752)" 0 12 0.75 1.25 16 1 1 0
check "L2 128-bit, 4 in flight" 0 12 0.75 1.25 16 1 4 0
check "L2 32-bit, 4 in flight" 0 12 0.75 1.25 4 1 4 0
check "DRAM 128-bit, 1 in flight" 0 12 0.75 1.25 16 1 1 1
check "DRAM stride 32, 1 in flight (known miss)" 25 50 0.5 0.75 4 32 1 1
check "DRAM stride 32, 64 bytes a sector" 0 12 0.75 1.25 4 32 1 1 \
  --set class_global.scattered_dram_bytes=64

# The old keys miss (the measured pair off: each check sets its own).
measured=()
old=(--set class_global.lines_in_flight=160 --set l2.peak_bytes_per_cycle=0)
check "old keys: L2 stride 32, 1 in flight" 15 100 0 10 4 32 1 0 "${old[@]}"
check "old keys: L2 stride 32, 4 in flight" 15 100 0 10 4 32 4 0 "${old[@]}"
check "old keys: L2 128-bit, 1 in flight" 15 100 0 10 16 1 1 0 "${old[@]}"
# and each alone
check "old lines_in_flight 160: L2 stride 32" 15 100 0 10 4 32 1 0 \
  --set class_global.lines_in_flight=160 --set l2.peak_bytes_per_cycle=55
check "no L2 peak: L2 128-bit, 1 in flight" 15 100 0 10 16 1 1 0 \
  --set class_global.lines_in_flight=224 --set l2.peak_bytes_per_cycle=0

echo "$passed passed, 0 failed"
