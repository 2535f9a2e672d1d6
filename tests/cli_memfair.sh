#!/usr/bin/env bash
# cli_memfair.sh - the memory queue ([sched] lsu_fifo) against the H200's
# per-warp stamps of results/reference/h200/memfair/ (memfair_warps.csv; the
# kernels' SASS in memfair.sass.gz, simulated with no profile at the measured
# launch: 128 threads, B CTAs per SM, one wave of B x 132, the measured
# iterations as the loop's trip count):
#   saxpy4 (../real/kernels.cu's saxpy loop: 8 loads, 4 stores per iteration,
#     a DRAM stream) under gto + yield + lsu_fifo=4: span within 0.95-1.10x
#     and mean warp end over span within 0.02 at B = 8, 12, 16 (measured
#     0.964, 0.797, 0.746 on 2026-12-04: the warps stay together at B = 8 and
#     end in age order from B = 12);
#   without the queue (lsu_fifo=0) the mean end at B = 8 is more than 0.08
#     low (0.860: the oldest warps take the freed lines), and grr's at B = 16
#     more than 0.15 high (0.975: it never lets the oldest ahead);
#   st_L4_F0_dram (4 loads in flight per thread, no stores) at B = 16 within
#     0.02 with the queue (measured 0.973: DRAM loads alone keep every warp
#     together under every policy).
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them); skipped (77) without
# gzip.
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the repository}
mb=$root/results/reference/h200/memfair
command -v gzip >/dev/null || {
  echo "gzip not found: skipped"
  exit 77
}
# shellcheck source=tests/common.sh
. "$root/tests/common.sh"
gzip -dc "$mb/memfair.sass.gz" >"$tmp/memfair.sass" || fail "cannot read $mb/memfair.sass.gz"
gzip -dc "$mb/memfair_warps.csv.gz" >"$tmp/warps.csv" || fail "cannot read $mb/memfair_warps.csv.gz"

# sim KERNEL B ARGS...: "cycles achieved/theoretical" of memfair's KERNEL at B.
sim() {
  local f b=$2 trips
  case $1 in
    saxpy4) f=_Z8k_saxpy4PfP7WarpRecS_PKffi ;;
    st_L4_F0_dram) f=_Z4k_stILi4ELi0ELb0EEvPfP7WarpRecPKfiy ;;
  esac
  trips=$(awk -F, -v k="$1" -v b="$b" '$1 == k && $2 == b { print $4 }' "$mb/memfair.csv")
  shift 2
  printf '[sass]\nfile=%s\nfunction=%s\ntrip_count=%s\n[launch]\nthreads_per_block=128\nblocks_per_sm=%s\nblocks=%s\n' \
    "$tmp/memfair.sass" "$f" "$trips" "$b" $((b * 132)) >"$tmp/k.ini"
  timeout 120 "$bin" run --kernel "$tmp/k.ini" --format csv --no-whatif "$@" 2>"$tmp/err" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { printf "%s %.6f", $c["cycles"], $c["achieved_occupancy_pct"] / $c["occupancy_pct"] }'
}

# measured KERNEL B: "span mean_end" over the stamped SMs of memfair_warps.csv.
measured() { warp_ends "$tmp/warps.csv" "$1" "$2"; }

# check NAME KERNEL B SPAN_LO SPAN_HI END ARGS...: the simulated span over the
# measured within SPAN_LO..SPAN_HI ("-": not checked) and the mean end within
# END of the measured; END prefixed with ">" asks for more than that off,
# with "<-" for more than that below.
check() {
  local name=$1 k=$2 b=$3 lo=$4 hi=$5 tol=$6 s m
  shift 6
  s=$(sim "$k" "$b" "$@")
  m=$(measured "$k" "$b")
  if [ -z "$s" ] || [ -z "$m" ]; then
    fail "$name: no value (simulated '$s', measured '$m'): $(head -c 300 "$tmp/err")"
  fi
  awk -v s="$s" -v m="$m" -v lo="$lo" -v hi="$hi" -v t="$tol" 'BEGIN {
      split(s, a, " "); split(m, b, " "); r = a[1] / b[1]; d = a[2] - b[2]; ad = d < 0 ? -d : d
      if (lo != "-" && (r < lo || r > hi)) exit 1
      if (substr(t, 1, 2) == "<-") exit !(d < -(substr(t, 3) + 0))
      if (substr(t, 1, 1) == ">") exit !(ad > substr(t, 2) + 0)
      exit !(ad <= t + 0) }' ||
    fail "$name: simulated '$s' (cycles, mean end), measured '$m' (span ${lo}..${hi}x, mean end $tol)"
  ok
}

q="--policy gto --set sched.yield=true --set sched.lsu_fifo=4"
for b in 8 12 16; do
  # shellcheck disable=SC2086
  check "gto+yield+lsu_fifo=4: saxpy4 B=$b" saxpy4 "$b" 0.95 1.10 0.02 $q
done
check "gto+yield, no queue: saxpy4 B=8 (oldest take the lines)" saxpy4 8 - - "<-0.08" \
  --policy gto --set sched.yield=true --set sched.lsu_fifo=0
check "grr: saxpy4 B=16 (no age order)" saxpy4 16 - - ">0.15" --policy grr --set sched.lsu_fifo=0
# shellcheck disable=SC2086
check "gto+yield+lsu_fifo=4: st_L4_F0_dram B=16" st_L4_F0_dram 16 0.95 1.15 0.02 $q

echo "$passed passed"
