#!/usr/bin/env bash
# cli_model_sources.sh - the timing groups of every shipped model other than
# h200 (published figures, validated=false; doc/model_sources.md) carry a
# source with content: every timing key has KEY.source=KIND: detail with a
# detail of at least 12 characters; a DRAM share derived from a datasheet
# ("X GB/s ... over N SMs at C MHz") equals X*1e9/(N*C*1e6) as recomputed
# here; and l1.bytes (L1 + shared memory per SM) is at least [sm] smem_per_sm,
# so a full shared-memory carve-out never leaves a negative L1.
# The checker is also run on broken copies, which it must reject.
set -euo pipefail
root=${WARPSIM_ROOT:?}
ws=${WARPSIM_BIN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# check FILE: prints one line per problem (nothing when the file is fine).
check() {
  awk '
    BEGIN { timing["sched"]; timing["fma"]; timing["alu"]; timing["sfu"]; timing["smem"]; timing["lsu"]
            timing["branch"]; timing["operand"]; timing["l1"]; timing["l2"]; timing["dram"]; timing["mem"] }
    /^\[/ { g = $0; gsub(/[\[\]]/, "", g); next }
    /^[a-z_0-9]+\.source=/ {
      k = $0; sub(/\.source=.*/, "", k); s = $0; sub(/^[^=]*=/, "", s); src[g "." k] = s; next }
    /^[a-z_0-9]+=/ { k = $0; sub(/=.*/, "", k); v = $0; sub(/^[^=]*=/, "", v); val[g "." k] = v
                     if (g in timing) keys[++n] = g "." k; next }
    END {
      for (i = 1; i <= n; i++) {
        key = keys[i]
        if (!(key in src)) { print key ": no source"; continue }
        d = src[key]
        if (d !~ /^(measured|public|fitted|assumed):/) { print key ": source kind not one of measured|public|fitted|assumed"; continue }
        sub(/^[a-z]+:[ \t]*/, "", d); t = d; gsub(/[^A-Za-z0-9]/, "", t)
        if (length(t) < 12) { print key ": source detail empty or too short: \"" src[key] "\"" }
        if (src[key] ~ /[0-9.]+ (GB|TB)\/s.* over [0-9]+ SMs at [0-9]+ MHz/) {
          s = src[key]; match(s, /[0-9.]+ (GB|TB)\/s/); bw = substr(s, RSTART, RLENGTH)
          scale = (bw ~ /TB/) ? 1e12 : 1e9; sub(/ .*/, "", bw)
          match(s, /over [0-9]+ SMs/); sms = substr(s, RSTART + 5, RLENGTH - 9) + 0
          match(s, /at [0-9]+ MHz/); clk = substr(s, RSTART + 3, RLENGTH - 7) + 0
          want = bw * scale / (sms * clk * 1e6)
          if (want - val[key] > 0.006 || val[key] - want > 0.006)
            printf "%s: value %s but the source gives %.4f (%s x %g / (%d SMs x %d MHz))\n", key, val[key], want, bw, scale, sms, clk
        }
      }
      if (("l1.bytes" in val) && ("sm.smem_per_sm" in val) && val["l1.bytes"] + 0 < val["sm.smem_per_sm"] + 0)
        print "l1.bytes " val["l1.bytes"] " < [sm] smem_per_sm " val["sm.smem_per_sm"]
    }' "$1"
}

"$ws" models --csv | tail -n +2 | cut -d, -f1 >"$tmp/models"
[ -s "$tmp/models" ] && ok || bad "warpsim models lists nothing"
nmodels=0
while read -r m; do
  f="$root/models/$m.ini"
  [ -f "$f" ] || { bad "$m: no $f"; continue; }
  nmodels=$((nmodels + 1))
  if [ "$m" = h200 ]; then
    # h200 is measured; only the capacity invariant applies here.
    p=$(check "$f" | grep '^l1.bytes' || true)
  else
    p=$(check "$f")
  fi
  [ -z "$p" ] && ok || bad "$m: $p"
done <"$tmp/models"
[ "$nmodels" -ge 10 ] && ok || bad "only $nmodels models checked"

# The checker must reject what it claims to catch.
a100="$root/models/a100.ini"
sed 's/^latency\.source=public:.*/latency.source=public: ./' "$a100" >"$tmp/empty.ini"
check "$tmp/empty.ini" | grep -q 'source detail empty' && ok || bad "empty source detail not caught"
sed '/^\[sched\]/,/^\[/{/^policy\.source=/d}' "$a100" >"$tmp/nosrc.ini"
check "$tmp/nosrc.ini" | grep -q '^sched.policy: no source' && ok || bad "missing source not caught"
sed 's/^bytes_per_cycle=10\.21$/bytes_per_cycle=12.5/' "$a100" >"$tmp/bw.ini"
grep -q '^bytes_per_cycle=12.5$' "$tmp/bw.ini" && check "$tmp/bw.ini" | grep -q '^dram.bytes_per_cycle: value 12.5 but the source gives 10.21' &&
  ok || bad "a DRAM share that disagrees with its datasheet arithmetic not caught"
sed 's/^bytes=196608$/bytes=131072/' "$a100" >"$tmp/l1.ini"
check "$tmp/l1.ini" | grep -q '^l1.bytes 131072 < \[sm\] smem_per_sm 167936' && ok || bad "l1.bytes below smem_per_sm not caught"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
