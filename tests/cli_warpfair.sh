#!/usr/bin/env bash
# cli_warpfair.sh - which warps of an SM finish first, against the H200's
# per-warp end stamps (results/reference/h200/warpfair/: warpfair.csv, the
# kernels' SASS in warpfair.sass.gz, simulated with no profile at the
# measured launch, 128 threads, B CTAs per SM, one wave of B x 132):
#   the mean warp end over the SM's span (what achieved occupancy over
#     theoretical measures; the measured one is the mean over the 4 SMs
#     stamped) within 0.03 under sched.policy=gto at fma1 (one FFMA chain)
#     B = 5 and 16, fma4 (four chains) B = 2, 4 and 16, ldfma (a DRAM load
#     per 128 FFMAs) B = 16;
#   the span (last end) within 2 % under gto at fma1 B = 16 and fma4 B = 8;
# and the other policies miss what tells them apart (by more than 0.1): grr
# keeps fma1's fifth warp per SMSP to the end at B = 5 (measured 0.621),
# oldest (no greed) breaks fma4's pairs at B = 2 (1.000), oldest_group with
# groups of 4 keeps fma4's four warps together at B = 4 (0.751).
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them); skipped (77) without
# gzip.
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the repository}
wf=$root/results/reference/h200/warpfair
command -v gzip >/dev/null || {
  echo "gzip not found: skipped"
  exit 77
}
# shellcheck source=tests/common.sh
. "$root/tests/common.sh"
gzip -dc "$wf/warpfair.sass.gz" >"$tmp/warpfair.sass" || fail "cannot read $wf/warpfair.sass.gz"

# sim KERNEL B POLICY: "cycles achieved/theoretical" of warpfair's body
# KERNEL (fma1, fma4, ldfma) at B CTAs per SM under POLICY.
sim() {
  local w trips
  case $1 in
    fma1) w=0 trips="512;1" ;; # 2048 iterations, unrolled 4 times; the remainder loop
    fma4) w=1 trips=512 ;;
    ldfma) w=3 trips="4;64" ;; # 64 pairs unrolled 16 times, 64 iterations
  esac
  printf '[sass]\nfile=%s\nfunction=_Z6k_fairILi%sEEvPfP7WarpRecPKjiff\ntrip_count=%s\n[launch]\nthreads_per_block=128\nblocks_per_sm=%s\nblocks=%s\n' \
    "$tmp/warpfair.sass" "$w" "$trips" "$2" $(($2 * 132)) >"$tmp/k.ini"
  timeout 120 "$bin" run --kernel "$tmp/k.ini" --format csv --no-whatif --policy "$3" \
    --set sched.group_size=4 2>"$tmp/err" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { printf "%s %.6f", $c["cycles"], $c["achieved_occupancy_pct"] / $c["occupancy_pct"] }'
}

# measured KERNEL B: "span mean_end" over the stamped SMs of warpfair.csv.
measured() { warp_ends "$wf/warpfair.csv" "$1" "$2"; }

# both NAME KERNEL B POLICY: sets s ("cycles mean_end" simulated) and m
# (measured), or fails.
both() {
  s=$(sim "$2" "$3" "$4")
  m=$(measured "$2" "$3")
  if [ -z "$s" ] || [ -z "$m" ]; then
    fail "$1: no value (simulated '$s', measured '$m'): $(head -c 300 "$tmp/err")"
  fi
}

# near NAME KERNEL B POLICY TOL: |simulated - measured mean end| <= TOL.
near() {
  both "$@"
  awk -v s="${s#* }" -v m="${m#* }" -v t="$5" 'BEGIN { d = s - m; exit !(d <= t && -d <= t) }' ||
    fail "$1: mean end ${s#* } simulated, ${m#* } measured (allowed +-$5)"
  ok
}

# far NAME KERNEL B POLICY: |simulated - measured mean end| > 0.1.
far() {
  both "$@"
  awk -v s="${s#* }" -v m="${m#* }" 'BEGIN { d = s - m; exit !(d > 0.1 || -d > 0.1) }' ||
    fail "$1: mean end ${s#* } simulated, ${m#* } measured: the check cannot tell the policies apart"
  ok
}

# span NAME KERNEL B: gto's cycles within 2 % of the measured span.
span() {
  both "$1" "$2" "$3" gto
  awk -v s="${s%% *}" -v m="${m%% *}" 'BEGIN { r = s / m; exit !(r >= 0.98 && r <= 1.02) }' ||
    fail "$1: span ${s%% *} cycles simulated, ${m%% *} measured (allowed ratio 0.98..1.02)"
  ok
}

for kb in "fma1 5" "fma1 16" "fma4 2" "fma4 4" "fma4 16" "ldfma 16"; do
  near "gto: $kb" "${kb% *}" "${kb#* }" gto 0.03
done
span "gto: fma1 B=16 span" fma1 16
span "gto: fma4 B=8 span" fma4 8
far "grr: fma1 B=5" fma1 5 grr
far "oldest: fma4 B=2" fma4 2 oldest
far "oldest_group 4: fma4 B=4" fma4 4 oldest_group

echo "$passed passed"
