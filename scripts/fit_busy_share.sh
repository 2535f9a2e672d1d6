#!/usr/bin/env bash
# fit_busy_share.sh - the per-busy-SM bandwidth rule of models/h200.ini
# ([l2]/[dram] lone_sm_ratio and busy_exponent, model_busy_share in
# sim/input/model.h) from the H200's measurement
# (results/reference/h200/smallgrid/active.csv: n SMs of 132 busy, B CTAs of
# 128 threads each, 4 float4 loads in flight per thread).  For each level, at
# B = 16 (64 warps per busy SM: bandwidth-bound from n = 1):
#   lone_sm_ratio = share at n = 1 / share at n = 132   (measured)
#   busy_exponent = p in 0.5..8 (step 0.05) minimising the squared error of
#                   share(n) / share(132) at n = 16 and 66 (the fit points)
# and prints every point of B = 16 and B = 12 with the rule's error; the
# points other than n = 1, 16, 66, 132 of B = 16, and all of B = 12, are
# held out.  Usage: scripts/fit_busy_share.sh [ACTIVE.csv]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
csv=${1:-$root/results/reference/h200/smallgrid/active.csv}
[ -r "$csv" ] || warpsim_die "$csv: not readable (allowed: a smallgrid active.csv)"
echo "level,blocks_per_sm,busy_sms,role,measured_bytes_per_cycle,rule_bytes_per_cycle,error_pct"
for level in dram l2; do
  awk -F, -v level="$level" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["level"] == level && $c["placement"] == "packed" && ($c["blocks_per_sm"] == 16 || $c["blocks_per_sm"] == 12) {
      v[$c["blocks_per_sm"], $c["active_sms"]] = $c["bytes_per_cycle_per_sm"]; ns[$c["active_sms"]] }
    function share(n, R, p) { return (R ^ -p + (n / 132) ^ p * (1 - R ^ -p)) ^ (-1 / p) }
    END {
      R = v[16, 1] / v[16, 132]; best = -1
      for (p = 0.5; p <= 8.0001; p += 0.05) {
        e = (share(16, R, p) - v[16, 16] / v[16, 132]) ^ 2 + (share(66, R, p) - v[16, 66] / v[16, 132]) ^ 2
        if (best < 0 || e < best) { best = e; bp = p } }
      printf "# %s: lone_sm_ratio=%.3f busy_exponent=%.2f\n", level, R, bp
      for (b = 16; b >= 12; b -= 4)
        for (n = 1; n <= 132; n++) if ((b, n) in v) {
          role = b == 16 && (n == 1 || n == 16 || n == 66 || n == 132) ? "fit" : "held_out"
          s = share(n, R, bp) * v[b, 132]
          printf "%s,%d,%d,%s,%s,%.3f,%.1f\n", level, b, n, role, v[b, n], s, 100 * (s - v[b, n]) / v[b, n] } }' "$csv"
done
