#!/usr/bin/env bash
# cli_ldst.sh - global stores take the SM's load lines in flight (issue 27):
# the seven loops of results/reference/h200/ldst/ (a stride-32 L2 load, 32
# lines per warp-load, bound by the SM's lines in flight, followed by K = 0,
# 1, 2 or 4 coalesced float4 stores into DRAM or into an L2-resident
# footprint), simulated from their SASS (ldst.sass.gz) with the B = 8 details
# export and the source pages mksource.py builds from the loop's counts, at
# the measured launch (128 threads, B CTAs per SM pinned by dynamic shared
# memory in a 228 KB carveout, one wave of B x 132, B = 2, 4, 8, 12, 16),
# against the load lines per cycle per SM the H200 measured (ldst.csv):
#   with the lines in flight the microbenchmarks give ([class_global]
#     lines_in_flight 224, [l2] peak_bytes_per_cycle 55) and stores holding
#     lines until written ([class_global] stores_hold_lines): every curve's
#     MAPE <= 18 % and every point within 0.85..1.30 (K = 1 into DRAM, the
#     noisiest curve, is the worst: 13.3 %, 1.29x at B = 12; since the SMSPs
#     take the lines the cap frees in turn, 1.313x there: a known miss,
#     1.30..1.35, that fails the check once it moves either way);
#   without stores_hold_lines the L2-store loops with K = 2 and 4 run at least
#     1.4x the measured rate at every B (the H200's loads slow down as much
#     for stores that stay in L2: 0.57 -> 0.37 -> 0.23 lines/cycle/SM);
#   the shipped lines_in_flight 160 leaves the loads alone (K = 0) at
#     0.60..0.80 of the measured rate (the key is fitted on gather, not on
#     these loops: doc/model_sources.md).
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the repository}
ref=$root/results/reference/h200/ldst
# shellcheck source=tests/common.sh
. "$root/tests/common.sh"
gzip -dc "$ref/ldst.sass.gz" >"$tmp/ldst.sass" || fail "cannot read $ref/ldst.sass.gz"

pair=(--set class_global.lines_in_flight=224 --set l2.peak_bytes_per_cycle=55)
# curve K LVL [--set ...]: "B simulated measured" per line for k_ldst<K, LVL>
# (LVL 0: stores into L2, 1: into DRAM) in load lines per cycle per SM
# (B x 4 warps x 128 warp-loads x 32 lines / cycles).
curve() {
  local k=$1 lvl=$2 level
  shift 2
  level=$([ "$lvl" = 0 ] && echo l2 || echo dram)
  awk -F, -v k="$k" -v l="$level" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["stores_per_load"] == k && $c["store_level"] == l && $c["blocks_per_sm"] ~ /^(2|4|8|12|16)$/ {
      print $c["blocks_per_sm"], $c["iters"], $c["load_lines_per_cycle_per_sm"] }' "$ref/ldst.csv" |
    while read -r b iters meas; do
      printf '[sass]\nfile=%s\nfunction=_Z6k_ldstILi%sELi%sEEvPKcPcmPfP3Reci\nsource_csv=%s\ndetails_csv=%s\n[launch]\nthreads_per_block=128\nblocks_per_sm=%s\nblocks=%s\nsmem_dynamic=%s\noptin=true\n' \
        "$tmp/ldst.sass" "$k" "$lvl" "$ref/ncu/constructed/source_k${k}_l${lvl}.csv" \
        "$ref/ncu/details_b8.csv" "$b" $((b * 132)) $(((228 * 1024 / b - 1024) / 128 * 128)) >"$tmp/k.ini"
      timeout 60 "$bin" run --kernel "$tmp/k.ini" --format csv --no-whatif --no-anchor "$@" \
        2>"$tmp/err" | awk -F, -v b="$b" -v n=$((4 * iters * 32)) -v m="$meas" '
          NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
          { printf "%s %.6g %s\n", b, b * n / $c["cycles"], m }'
    done
}

# check NAME MAPE_HI RATIO_LO RATIO_HI K LVL [--set ...]: the curve's MAPE <=
# MAPE_HI % and every simulated / measured ratio in [RATIO_LO, RATIO_HI]; with
# KNOWN="B LO HI" the point at B in [LO, HI] instead (a known miss).
check() {
  local name=$1 hi=$2 rlo=$3 rhi=$4
  shift 4
  curve "$@" >"$tmp/c"
  [ "$(wc -l <"$tmp/c")" -eq 5 ] || fail "$name: $(wc -l <"$tmp/c") points: $(cat "$tmp/err")"
  awk -v hi="$hi" -v rlo="$rlo" -v rhi="$rhi" -v known="${KNOWN:-}" '
    { r = $2 / $3; d = r > 1 ? r - 1 : 1 - r; s += d; n++
      split(known, kb, " ")
      if (known != "" && $1 == kb[1]) { if (r < kb[2] || r > kb[3]) bad = bad " B=" $1 ":" r " (known miss " kb[2] ".." kb[3] ")" }
      else if (r < rlo || r > rhi) bad = bad " B=" $1 ":" r }
    END { m = 100 * s / n; if (m > hi || bad != "") { printf "MAPE %.1f %%%s\n", m, bad; exit 1 } }' \
    "$tmp/c" >"$tmp/why" || fail "$name: $(cat "$tmp/why") (allowed MAPE <= $hi %, ratios $rlo..$rhi)"
  ok
}

for kl in "0 1" "2 1" "4 1" "1 0" "2 0" "4 0"; do
  set -- $kl
  check "K=$1 LVL=$2, lines 224, stores hold lines" 18 0.85 1.30 "$1" "$2" "${pair[@]}"
done
KNOWN="12 1.30 1.35" check "K=1 LVL=1, lines 224, stores hold lines (known miss at B = 12)" \
  18 0.85 1.30 1 1 "${pair[@]}"
nohold=(--set class_global.stores_hold_lines=false)
check "K=2 into L2, stores holding no lines" 1000 1.4 100 2 0 "${pair[@]}" "${nohold[@]}"
check "K=4 into L2, stores holding no lines" 1000 1.4 100 4 0 "${pair[@]}" "${nohold[@]}"
check "K=0, the shipped lines_in_flight 160" 1000 0.60 0.80 0 1

echo "$passed passed, 0 failed"
