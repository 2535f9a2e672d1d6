#!/usr/bin/env bash
# volkov.sh - Volkov's "Better performance at lower occupancy" (GTC 2010) on
# its own GPU, the GTX 480 (models/gtx480.ini, validated=false): threads per
# SM needed for the FFMA peak at ILP 1, 2 and 4 (published: 576, 320, 192),
# and bytes in flight on the whole GPU at the DRAM peak (published: about
# 100 KB), each beside the published number.  Resident warps are swept
# 2..48 in steps of 2 (2 CTAs of 16 x warps threads, 20 registers, so
# registers never limit); the threads needed are the knee of scripts/knee.sh
# (the smallest count reaching 90 % of the curve's best) x 32.  Bytes in
# flight at the knee = knee warps x loads in flight per warp x bytes per
# warp-load x the model's SMs.  Writes OUT/volkov.csv, OUT/fma.csv,
# OUT/stream.csv and OUT/volkov.png (default OUT: results/volkov).
# Usage: scripts/volkov.sh [--model M] [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
model=gtx480 out=$root/results/volkov
while [ $# -gt 0 ]; do
  case "$1" in
    --model) [ $# -ge 2 ] || warpsim_die "--model needs a value (see --help)"; model=$2; shift 2 ;;
    -*) warpsim_die "unknown argument '$1' (see --help)" ;;
    *) out=$1; shift ;;
  esac
done
[ -x "$warpsim" ] || warpsim_die "no warpsim binary at $warpsim (run scripts/build.sh or set WARPSIM)"
"$warpsim" run --model "$model" --kernel fma --set stream.iterations=1 --format csv >/dev/null
mkdir -p "$out" 2>/dev/null || warpsim_die "$out: cannot create the folder"
sms=$(awk -F= '$1 == "sms" { print $2 }' "$root/models/$model.ini" 2>/dev/null || true)
[ -n "$sms" ] || warpsim_die "--model $model: no [sm] sms in models/$model.ini"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sweep() { # KERNEL ILP ARGS...: one CSV row per resident-warp count
  local kernel=$1 ilp=$2 w
  shift 2
  for w in $(seq 2 2 48); do
    "$warpsim" run --model "$model" --kernel "$kernel" --set stream.ilp="$ilp" "$@" \
      --set launch.threads_per_block=$((16 * w)) --set launch.blocks_per_sm=2 \
      --set launch.regs_per_thread=20 --format csv --no-header
  done
}
head=$("$warpsim" run --model "$model" --kernel fma --set stream.iterations=1 --format csv | head -1)
{ echo "$head"; for i in 1 2 4; do sweep fma "$i" --set stream.fma=$((32 * i)); done; } >"$tmp/fma.csv"
{ echo "$head"; for i in 1 2 4; do sweep stream "$i" --set stream.loads="$i" --set stream.fma="$i" --set stream.load_bytes=512; done; } >"$tmp/stream.csv"
"$root/scripts/knee.sh" "$tmp/fma.csv" fma_per_cycle "$tmp/stream.csv" bytes_per_cycle >"$tmp/knees.csv"
# Published: Volkov GTC 2010 (as cited in models/gtx480.ini).
awk -F, -v sms="$sms" -v model="$model" 'BEGIN {
    pub["fma,1"] = 576; pub["fma,2"] = 320; pub["fma,4"] = 192
    print "model,table,ilp,quantity,simulated,published" }
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["kernel"] == "fma" { printf "%s,fma,%s,threads_per_sm_at_peak,%d,%s\n", model, $c["ilp"], 32 * $c["knee_warps_per_sm"], pub["fma," $c["ilp"]] }
  $c["kernel"] == "stream" { printf "%s,memory,%s,bytes_in_flight_gpu_at_peak,%d,100000\n", model, $c["ilp"], $c["knee_warps_per_sm"] * $c["ilp"] * 512 * sms }' \
  "$tmp/knees.csv" >"$tmp/volkov.csv"
cp "$tmp/fma.csv" "$tmp/stream.csv" "$tmp/volkov.csv" "$out/"
if command -v gnuplot >/dev/null 2>&1; then
  gnuplot -c "$root/scripts/plot_volkov.gp" "$out" "$out/volkov.png" "$sms"
fi
column -s, -t "$out/volkov.csv"
