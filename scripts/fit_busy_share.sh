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
case ${1-} in -*) warpsim_die "unknown option '$1' (see --help)" ;; esac
[ $# -le 1 ] || warpsim_die "expected one ACTIVE.csv, got $# arguments (see --help)"
csv=${1:-$root/results/reference/h200/smallgrid/active.csv}
[ -f "$csv" ] && [ -r "$csv" ] || warpsim_die "$csv: not a readable file (allowed: a smallgrid active.csv)"
# Both levels first, printed only when both fit: a file without the
# columns, the rows of B = 16 at n = 1, 16, 66 and 132, or with a value that
# is no positive number is one line (exit 2), no partial table.
body=""
for level in dram l2; do
  part=$(awk -F, -v level="$level" -v file="$csv" '
    function bad(msg) { printf "fit_busy_share.sh: %s: %s\n", file, msg > "/dev/stderr"; failed = 1; exit 2 }
    { sub(/\r$/, "") }
    NR == 1 {
      for (i = 1; i <= NF; i++) c[$i] = i
      split("level placement active_sms blocks_per_sm bytes_per_cycle_per_sm", need, " ")
      for (j = 1; j <= 5; j++) if (!(need[j] in c)) bad("no column " need[j] " (allowed: a smallgrid active.csv)")
      next }
    /^#/ || !NF { next }
    $c["level"] == level && $c["placement"] == "packed" && ($c["blocks_per_sm"] == 16 || $c["blocks_per_sm"] == 12) {
      x = $c["bytes_per_cycle_per_sm"]
      if (x !~ /^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$/ || x + 0 <= 0)
        bad(NR ": bytes_per_cycle_per_sm '\''" x "'\'' (allowed: a number > 0)")
      if ($c["active_sms"] !~ /^[0-9]+$/ || $c["active_sms"] < 1 || $c["active_sms"] > 132)
        bad(NR ": active_sms '\''" $c["active_sms"] "'\'' (allowed 1..132)")
      v[$c["blocks_per_sm"], $c["active_sms"] + 0] = x; ns[$c["active_sms"]] }
    function share(n, R, p) { return (R ^ -p + (n / 132) ^ p * (1 - R ^ -p)) ^ (-1 / p) }
    END {
      if (failed) exit 2
      for (j = 1; j <= 4; j++) { n = j == 1 ? 1 : j == 2 ? 16 : j == 3 ? 66 : 132
        if (!((16, n) in v)) bad("no " level " row of placement packed, blocks_per_sm 16, active_sms " n " (the fit needs n = 1, 16, 66, 132)") }
      R = v[16, 1] / v[16, 132]; best = -1
      for (p = 0.5; p <= 8.0001; p += 0.05) {
        e = (share(16, R, p) - v[16, 16] / v[16, 132]) ^ 2 + (share(66, R, p) - v[16, 66] / v[16, 132]) ^ 2
        if (best < 0 || e < best) { best = e; bp = p } }
      printf "# %s: lone_sm_ratio=%.3f busy_exponent=%.2f\n", level, R, bp
      for (b = 16; b >= 12; b -= 4)
        for (n = 1; n <= 132; n++) if ((b, n) in v) {
          role = b == 16 && (n == 1 || n == 16 || n == 66 || n == 132) ? "fit" : "held_out"
          s = share(n, R, bp) * v[b, 132]
          printf "%s,%d,%d,%s,%s,%.3f,%.1f\n", level, b, n, role, v[b, n], s, 100 * (s - v[b, n]) / v[b, n] } }' "$csv") ||
    exit 2
  body+=$part$'\n'
done
echo "level,blocks_per_sm,busy_sms,role,measured_bytes_per_cycle,rule_bytes_per_cycle,error_pct"
printf '%s' "$body"
