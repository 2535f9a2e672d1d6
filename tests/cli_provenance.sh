#!/usr/bin/env bash
# cli_provenance.sh - every value of models/h200.ini carries its provenance
# (KEY.source, doc/model.md "Provenance") in the --config-comments dump, the JSON
# report and --help-keys; a --set value is marked as such; an anchored
# value carries the anchor's provenance; a provenance of an unknown kind or
# for an unknown key is an error (exit 2, one line).
set -euo pipefail
root=${WARPSIM_ROOT:?}
ws=${WARPSIM_BIN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
"$ws" run --kernel fma --model h200 --format csv --config-comments >"$tmp/dump"
# Model keys: the lines between "# [model]" and the first kernel group "# [launch]".
awk '/^# \[launch\]/ { exit } /^# \[/ { m = 1; next } m && /^# [a-z_0-9.]+=/ { print }' "$tmp/dump" >"$tmp/lines"
missing=$(awk -F'[#=]' '{ k = $2; sub(/^ /, "", k) } k !~ /\.source$/ { want[k] = 1; order[++n] = k }
  k ~ /\.source$/ { sub(/\.source$/, "", k); got[k] = 1 } END { for (i = 1; i <= n; i++) if (!got[order[i]]) print order[i] }' "$tmp/lines")
[ -z "$missing" ] && ok || bad "keys of h200 without provenance: $missing"
grep -q '^# latency.source=measured: results/reference/h200/latency.csv\[what=ffma_dependent\]' "$tmp/dump" && ok || bad "fma.latency provenance"
"$ws" run --kernel fma --set fma.latency=5 --format csv --config-comments >"$tmp/set"
grep -q '^# latency.source=set: --set' "$tmp/set" && ok || bad "--set provenance"
"$ws" run --kernel fma --format json --no-whatif >"$tmp/json"
grep -q '"model_provenance"' "$tmp/json" && grep -q '"model_validated" : true' "$tmp/json" && ok || bad "JSON provenance"
"$ws" run --help-keys >"$tmp/keys"
grep -q "^  latency.source=measured: results/reference/h200/latency.csv" "$tmp/keys" && ok || bad "--help-keys provenance"
sed 's/^latency.source=measured:/latency.source=guessed:/' "$root/models/h200.ini" >"$tmp/m1.ini"
rc=0; "$ws" run --kernel fma --model "$tmp/m1.ini" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] && grep -q "not a provenance" "$tmp/err" && [ ! -s "$tmp/out" ] && ok || bad "unknown kind accepted (rc $rc)"

sed 's/^latency.source=/latencyx.source=/' "$root/models/h200.ini" >"$tmp/m2.ini"
rc=0; "$ws" run --kernel fma --model "$tmp/m2.ini" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] && grep -q "unknown key" "$tmp/err" && ok || bad "source of an unknown key accepted (rc $rc)"
# An anchored SASS kernel's dump: the keys the anchor moved (its --set list)
# carry the anchor's provenance, naming the pure value, its source and the
# profile's SM Active Cycles; every other line is the --no-anchor dump's.
# Before, the anchored atomic rate 0.00999 came with the measured 0.447's
# source, and the memory anchor's latencies and bandwidths with theirs.
model_part() { awk '/^# \[launch\]/ { exit } /^# \[model\]/ { m = 1 } m' "$1"; }
# (ghist with [l2] atomic_contention off, so that its atomics run at the
# uncontended rate and the anchor derives its own: cli_atomics.sh)
off=(--set l2.atomic_contention=)
for kernel in ghist_sass saxpy_sass; do
  extra=()
  [ "$kernel" = ghist_sass ] && extra=("${off[@]}")
  "$ws" run --kernel "$kernel" --format csv --no-whatif --config-comments "${extra[@]}" >"$tmp/a" 2>/dev/null
  "$ws" run --kernel "$kernel" --format csv --no-whatif --config-comments --no-anchor "${extra[@]}" >"$tmp/p" 2>/dev/null
  model_part "$tmp/a" >"$tmp/am"
  model_part "$tmp/p" >"$tmp/pm"
  sets=$(sed -n 's/^# anchor: every occupancy simulated with --set //p' "$tmp/a")
  [ -n "$sets" ] && [ "$(wc -l <"$tmp/am")" = "$(wc -l <"$tmp/pm")" ] || { bad "$kernel: not anchored"; continue; }
  # each moved key: "group.key value" from the --set list, checked in the dump
  got=$(paste -d '\n' "$tmp/am" "$tmp/pm" | awk '
    /^# \[/ { if (NR % 2) g = substr($2, 2, length($2) - 2) }
    NR % 2 { a = $0; next }
    a != $0 {
      k = a; sub(/^# /, "", k); sub(/=.*/, "", k)
      if (k ~ /\.source$/) {
        src = $0; sub(/^[^=]*=/, "", src)
        if (index(a, "=fitted: anchored at this kernel'"'"'s profile: the pure model'"'"'s ") == 0 ||
            index(a, "SM Active Cycles") == 0 || index(a, "; the pure value'"'"'s source: " src) == 0)
          print "bad-source:" g "." k
      } else { v = a; sub(/^[^=]*=/, "", v); printf "%s.%s=%.12g\n", g, k, v }
    }' | sort)
  # the values as numbers to 12 digits: the dump writes the shortest form that
  # reads back (17.8724281049074), the --set list 17 digits (17.872428104907399)
  want=$(tr ' ' '\n' <<<"$sets" | awk -F= '{ printf "%s=%.12g\n", $1, $2 }' | sort)
  [ "$got" = "$want" ] && ok || bad "$kernel: moved keys and their sources: got '$got', want '$want'"
  n_src=$(grep -c "\.source=fitted: anchored at this kernel's profile" "$tmp/am" || true)
  [ "$n_src" = "$(wc -w <<<"$sets")" ] && ok || bad "$kernel: $n_src anchored sources for '$sets'"
done
# The JSON report's model_provenance says the same of the anchored keys.
"$ws" run --kernel ghist_sass --format json --no-whatif "${off[@]}" >"$tmp/aj" 2>/dev/null
"$ws" run --kernel ghist_sass --format json --no-whatif --no-anchor "${off[@]}" >"$tmp/pj" 2>/dev/null
grep -q "\"l2.atomic_sectors_per_cycle\" : \"fitted: anchored at this kernel's profile: the pure model's 0.447 x " "$tmp/aj" &&
  grep -q '"l2.atomic_sectors_per_cycle" : "measured: results/reference/h200/atomics/' "$tmp/pj" &&
  grep -q '"fma.latency" : "measured: results/reference/h200/latency.csv' "$tmp/aj" && ok ||
  bad "JSON model_provenance of the anchored atomic rate"
# Every shipped model with timing groups simulates the fma kernel (one with
# occupancy limits only, "simulate" no, is refused saying so); a model not
# validated here says so in its report, and each of its timing values has a
# provenance.
"$ws" models --csv | tail -n +2 | cut -d, -f1,3 >"$tmp/models"
while IFS=, read -r m sim; do
  if [ "$sim" = no ]; then
    rc=0; "$ws" run --kernel fma --model "$m" >"$tmp/r" 2>"$tmp/e" || rc=$?
    [ $rc -eq 2 ] && grep -q "occupancy limits only" "$tmp/e" && ok ||
      bad "$m: an occupancy-only model not refused (rc $rc)"
    continue
  fi
  if ! "$ws" run --kernel fma --model "$m" --no-whatif >"$tmp/r" 2>"$tmp/e"; then
    bad "$m: fma does not run: $(cat "$tmp/e")"
    continue
  fi
  v=$(awk -F= '$1 == "validated" { print $2 }' "$root/models/$m.ini")
  if [ "$v" = true ]; then grep -q "not validated" "$tmp/r" && bad "$m: validated model says not validated" || ok
  else grep -q "from published figures" "$tmp/r" && ok || bad "$m: report does not say the timing is unvalidated"; fi
  "$ws" run --kernel fma --model "$m" --format csv --config-comments >"$tmp/d"
  miss=$(awk '/^# \[launch\]/ { exit } /^# \[/ { g = $2; t = (g ~ /^(sched|fma|alu|sfu|smem|lsu|branch|operand|l1|l2|dram|mem)\]$/); next }
    t && /^# [a-z_0-9]+=/ { k = $2; sub(/=.*/, "", k); want[++n] = g k }
    t && /^# [a-z_0-9]+\.source=/ { k = $2; sub(/\.source=.*/, "", k); got[g k] = 1 }
    END { for (i = 1; i <= n; i++) if (!(want[i] in got)) printf "%s ", want[i] }' "$tmp/d")
  [ -z "$miss" ] && ok || bad "$m: timing keys without provenance: $miss"
done <"$tmp/models"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
