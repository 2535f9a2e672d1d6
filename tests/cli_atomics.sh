#!/usr/bin/env bash
# cli_atomics.sh - the L2 atomic unit ([l2] atomic_sectors_per_cycle,
# doc/atomics.md) against the H200 microbenchmark it comes from
# (results/reference/h200/atomics/atomics.csv) and against ghist
# (results/reference/h200/real5/curves.csv):
#   - k_atom<2> (ATOMG.E.ADD, 32 consecutive words a request, 1 Mi words,
#     uncontended; listing tests/data/atomics/k_atom.sass, no profile) at
#     B = 8 and 16 CTAs per SM within 10 % of the measured lane atomics per
#     cycle per SM; timed as L2 loads (atomic_sectors_per_cycle=0) it is 45 %
#     fast at B = 16 (at B = 8 the L2 loads happen to land within 5 %);
#   - ghist, whose bins[w & 255] the listing bounds to 256 words (sassspan.h):
#     the pure model (--no-anchor, the device's contended rate on 256 words,
#     [l2] atomic_contention) and the anchored one predict B = 2 and 16
#     within 10 % of the measured bytes per cycle per SM; with the contention
#     table off (atomic_contention=, the uncontended unit) the pure model is
#     more than 10x fast there, and with the unit off too
#     (atomic_sectors_per_cycle=0) more than 2x off;
#   - with the table off, the anchor at its profile (B = 8: the profiled
#     launch, whose SM Active Cycles set the kernel's atomic rate) predicts
#     B = 2 and 16 within 10 %, and its printed --set reproduces it;
#   - README quotes the ghist numbers warpsim prints (the bound, rates,
#     cycles, 44.7x).
# Known miss, not asserted: k_atom<0> (REDG) at the same point is simulated
# 25 % slow (2.79 against 3.73 lanes per cycle per SM).
# Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the repository}
# shellcheck source=tests/common.sh
. "$root/tests/common.sh"
at=$root/results/reference/h200/atomics/atomics.csv
r5=$root/results/reference/h200/real5/curves.csv

# cycles ARGS...: the simulated cycles of a run.
cycles() { timeout 120 "$bin" run --format csv --no-whatif "$@" 2>"$tmp/err" | col cycles; }

# ratio NAME SIM MEAS LO HI: LO <= SIM / MEAS <= HI (1: inside).
inside() { awk -v s="$2" -v m="$3" -v lo="$4" -v hi="$5" 'BEGIN { r = s / m; exit !(r >= lo && r <= hi) }'; }
within() {
  [ -n "$2" ] && [ -n "$3" ] || fail "$1: no rate (simulated '$2', measured '$3'): $(cat "$tmp/err")"
  inside "$@" || fail "$1: $2 simulated, $3 measured (allowed ratio $4..$5)"
  ok
}
outside() {
  [ -n "$2" ] && [ -n "$3" ] || fail "$1: no rate (simulated '$2', measured '$3'): $(cat "$tmp/err")"
  ! inside "$@" || fail "$1: $2 simulated, $3 measured: inside $4..$5, so the check cannot tell"
  ok
}

# k_atom<2>: 4 atomics per thread per iteration, trip_count iterations.
atom_rate() { # B [--set ...]: lane atomics per cycle per SM
  local b=$1 trips=100
  shift
  printf '[sass]\nfile=%s\nfunction=_Z6k_atomILi2EEvPjjiijPfP3Rec\ntrip_count=%s\n[launch]\nthreads_per_block=128\nblocks_per_sm=%s\nblocks=%s\n' \
    "$root/tests/data/atomics/k_atom.sass" "$trips" "$b" $((b * 132)) >"$tmp/k.ini"
  local c
  c=$(cycles --kernel "$tmp/k.ini" "$@")
  [ -n "$c" ] && awk -v b="$b" -v t="$trips" -v c="$c" 'BEGIN { printf "%.6g", b * 128 * 4 * t / c }'
}
atom_measured() { # B
  awk -F, -v b="$1" '$1 == "atom_u32" && $2 == "distinct" && $3 == 1048576 && $4 == b { print $11 }' "$at"
}
for b in 8 16; do
  within "ATOMG distinct 1 Mi words B=$b" "$(atom_rate $b)" "$(atom_measured $b)" 0.9 1.1
done
outside "ATOMG as L2 loads B=16" "$(atom_rate 16 --set l2.atomic_sectors_per_cycle=0)" "$(atom_measured 16)" 0.9 1.1

# ghist at B CTAs per SM as measured (dynamic shared-memory padding of curves.csv).
ghist_rate() { # B [ARGS...]: bytes per cycle per SM
  local b=$1
  shift
  local smem c
  smem=$(awk -F, -v b="$b" '$1 == "ghist" && $2 == b { print $4 }' "$r5")
  c=$(cycles --kernel "$root/traces/ghist_sass.ini" --set launch.blocks_per_sm="$b" \
    --set launch.blocks=$((b * 132)) --set launch.smem_dynamic="$smem" --set launch.optin=true "$@")
  [ -n "$c" ] && awk -v b="$b" -v c="$c" 'BEGIN { printf "%.6g", b * 65536 / c }'
}
ghist_measured() { awk -F, -v b="$1" '$1 == "ghist" && $2 == b { print $6 }' "$r5"; }
off=(--set l2.atomic_contention=)
for b in 2 16; do
  m=$(ghist_measured $b)
  within "ghist pure B=$b" "$(ghist_rate $b --no-anchor)" "$m" 0.9 1.1
  within "ghist anchored B=$b" "$(ghist_rate $b)" "$m" 0.9 1.1
  outside "ghist pure, contention off B=$b" "$(ghist_rate $b --no-anchor "${off[@]}")" "$m" 0.1 10
  within "ghist anchored, contention off B=$b" "$(ghist_rate $b "${off[@]}")" "$m" 0.9 1.1
  outside "ghist pure, unit off B=$b" "$(ghist_rate $b --no-anchor "${off[@]}" --set l2.atomic_sectors_per_cycle=0)" "$m" 0.5 2
done
# The anchor's printed --set reproduces the anchored run (its values in
# round-trip form: %.6g moved ghist by 16 cycles).
anch=$(cycles --kernel "$root/traces/ghist_sass.ini" "${off[@]}")
sets=$(timeout 120 "$bin" run --format csv --no-whatif --config-comments "${off[@]}" \
  --kernel "$root/traces/ghist_sass.ini" 2>/dev/null | sed -n 's/^# *anchor: every occupancy simulated with --set //p')
read -ra words <<<"$sets"
repro=$(cycles --kernel "$root/traces/ghist_sass.ini" --no-anchor "${off[@]}" --set "${words[0]}" --set "${words[1]}" --set "${words[2]}")
[ -n "$sets" ] && [ -n "$anch" ] && [ "$anch" = "$repro" ] && ok ||
  fail "ghist: anchored $anch cycles, --no-anchor with '$sets' $repro"
# A rate so small that one request would take more than 2^63 cycles is refused.
for key in atomic_sectors_per_cycle atomic_return_sectors_per_cycle atomic_cas_sectors_per_cycle; do
  one_line "$key 1e-18" "[l2] $key: 1e-18 (allowed 0 = off, or 0.001..1e+06)" -- \
    run --kernel "$root/traces/ghist_sass.ini" --format csv --set l2.$key=1e-18
done
# README quotes ghist as warpsim prints it: the listing warning's bound; with
# the table off, the anchored rate and the uncontended one (0.447 / 0.009992
# = 44.7x), the pure model's SM active cycles against the profile's, and the
# listing warning's "44.7x".
"$bin" run --kernel "$root/traces/ghist_sass.ini" --no-whatif "${off[@]}" >"$tmp/gh.txt" 2>"$tmp/gh.err" || fail "ghist text"
"$bin" run --kernel "$root/traces/ghist_sass.ini" --format csv --no-anchor "${off[@]}" 2>>"$tmp/gh.err" >/dev/null || fail "ghist pure"
"$bin" run --kernel "$root/traces/ghist_sass.ini" --format csv --no-anchor 2>>"$tmp/gh.err" >/dev/null || fail "ghist bounded"
for q in "anchor: [l2] atomic_sectors_per_cycle = 0.009992 sectors/cycle/SM" "the measured uncontended 0.447" \
  "aim at 256 words or fewer by their address arithmetic" \
  "the simulation takes 749836 SM active cycles where the profile measured 33462415 (x0.02" \
  "a 256-bin histogram in global memory, ghist, ran 44.7x slower"; do
  grep -qF -- "$q" "$tmp/gh.txt" "$tmp/gh.err" || fail "ghist prints no '$q'"
  tr '\n' ' ' <"$root/README.md" | tr -s ' ' | grep -qF -- "$q" ||
    fail "README does not quote '$q'"
  ok
done
echo "$passed passed"
