#!/usr/bin/env bash
# cli_sweep_derive.sh - sweeps that do what they say: --derive ties a key to
# the axes (stream.fma = 32 x stream.ilp at every point) and refuses what it
# cannot compute; before any run, an axis value that cannot change the
# result is named in a warning (launch.blocks_per_sm above what fits,
# stream.ilp above the FFMAs its chains share, stream.ilp swept with
# stream.fma fixed); plot_occupancy.gp draws the metric it is given
# (-e "metric='ipc'", any numeric column) and tells coinciding curves apart
# (a point type per curve); README's shared-memory padding formula gives
# exactly B CTAs per SM with and without static shared memory.  Needs WARPSIM_BIN and WARPSIM_ROOT; GNU parallel
# (skipped, 77, without it).
set -u
bin=${WARPSIM_BIN:?}
root=${WARPSIM_ROOT:?}
command -v parallel >/dev/null 2>&1 || { echo "GNU parallel not installed"; exit 77; }
export WARPSIM=$bin
. "$root/tests/common.sh"
sweep() { "$root/scripts/sweep.sh" -o "$tmp/s.csv" --kernel fma --set stream.iterations=4 --quiet "$@"; }
cols() { awk -F, -v want="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(want, w, " "); next }
  { line = ""; for (j = 1; j <= n; j++) line = line (j > 1 ? " " : "") $c[w[j]]; print line }' "$2"; }

# --derive: 32 FFMAs per chain at ILP 1, 2, 3; no warning (nothing is idle).
sweep --axis stream.ilp=1..3 --derive 'stream.fma=32*stream.ilp' --axis launch.blocks_per_sm=1,2 \
  2>"$tmp/err" || fail "derive: $(cat "$tmp/err")"
[ "$(cols "ilp fma blocks_per_sm" "$tmp/s.csv" | paste -sd,)" = "1 32 1,1 32 2,2 64 1,2 64 2,3 96 1,3 96 2" ] ||
  fail "derive rows: $(cols "ilp fma blocks_per_sm" "$tmp/s.csv" | paste -sd,)"
[ ! -s "$tmp/err" ] || fail "derive warns: $(cat "$tmp/err")"
ok
# A derived key from a --set and a chain of two derivations; (2 + 1) x 8 = 24.
sweep --set stream.ilp=2 --axis launch.blocks_per_sm=1 --derive 'stream.sfu=stream.ilp+1' \
  --derive 'stream.fma=(stream.sfu)*8' 2>"$tmp/err" || fail "derive chain: $(cat "$tmp/err")"
[ "$(cols "sfu fma" "$tmp/s.csv" | tail -1)" = "3 24" ] || fail "derive chain: $(cols "sfu fma" "$tmp/s.csv")"
ok

# refused NAME PATTERN ARGS...: sweep ARGS exits 2 naming PATTERN, writes no CSV.
refused() {
  local name=$1 pat=$2 rc=0
  shift 2
  rm -f "$tmp/s.csv"
  sweep "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc: $(cat "$tmp/err")"
  grep -qF -- "$pat" "$tmp/err" || fail "$name: '$pat' not in: $(cat "$tmp/err")"
  [ ! -e "$tmp/s.csv" ] && [ ! -e "$tmp/s.csv.d" ] || fail "$name: wrote a CSV or state"
  ok
}
refused "unknown key" "stream.xx is given by no --axis, --set or earlier --derive" \
  --axis stream.ilp=1,2 --derive 'stream.fma=32*stream.xx'
refused "shell text" "holds a character other than" --axis stream.ilp=1,2 --derive 'stream.fma=$(id)'
refused "derived key on an axis" "stream.ilp is also on --axis" --axis stream.ilp=1,2 --derive 'stream.ilp=2'
refused "derived key in a --set" "stream.fma is also set by --set" --set stream.fma=64 --axis stream.ilp=1,2 \
  --derive 'stream.fma=32*stream.ilp'
refused "division by zero" "'(1)/0' does not give a whole number" --axis stream.ilp=1,2 --derive 'stream.fma=stream.ilp/0'
refused "negative" "does not give a whole number >= 0" --axis stream.ilp=1,2 --derive 'stream.fma=1-2*stream.ilp'
# Not bash's arithmetic: 2^32 x 2^32 wraps to 0 there, 010 is eight, ** a
# power and 3stream.ilp the digits 3 and 1 side by side.
refused "overflow" "'4294967296*4294967296*(1)' does not give a whole number" --axis stream.ilp=1,2 \
  --derive 'stream.fma=4294967296*4294967296*stream.ilp'
refused "power" "'(1)**2' does not give a whole number" --axis stream.ilp=1,2 --derive 'stream.fma=stream.ilp**2'
refused "juxtaposed" "'3(1)' does not give a whole number" --axis stream.ilp=1,2 --derive 'stream.fma=3stream.ilp'
refused "unbalanced" "'((1)' does not give a whole number" --axis stream.ilp=1,2 --derive 'stream.fma=(stream.ilp'
sweep --axis stream.ilp=1,2 --derive 'stream.fma=010*stream.ilp' 2>"$tmp/err" || fail "010: $(cat "$tmp/err")"
[ "$(cols "ilp fma" "$tmp/s.csv" | paste -sd,)" = "1 10,2 20" ] || fail "010: $(cols "ilp fma" "$tmp/s.csv")"
ok
# A derived value out of range between the axis's ends (70000 / (i^2 - 4i
# + 5): 35000, 70000, 35000) is refused before any run, naming the point.
refused "out of range inside" "value 70000 at point (stream.iterations=4 stream.ilp=2 stream.fma=70000)" \
  --axis stream.ilp=1..3 --derive 'stream.fma=70000/(stream.ilp*stream.ilp-4*stream.ilp+5)'
# --print-grid checks what it prints as a sweep would: an unknown key, a
# derived value out of range exit 2 with nothing printed.
print_refused() {
  local name=$1 pat=$2 rc=0
  shift 2
  "$root/scripts/sweep.sh" --print-grid --kernel fma "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ $rc -eq 2 ] || fail "--print-grid $name: exit $rc: $(cat "$tmp/err")"
  grep -qF -- "$pat" "$tmp/err" || fail "--print-grid $name: '$pat' not in: $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "--print-grid $name: printed $(cat "$tmp/out")"
  ok
}
print_refused "unknown key" "[stream] nope: unknown key" --axis stream.nope=1,2
print_refused "unknown --set key" "[stream] nope: unknown key" --set stream.nope=1 --axis stream.ilp=1,2
print_refused "derived out of range" "value 70000 at point (stream.ilp=2 stream.fma=70000)" \
  --axis stream.ilp=1..3 --derive 'stream.fma=70000/(stream.ilp*stream.ilp-4*stream.ilp+5)'
refused "out of range" "[stream] fma: out of range '1000000'" --axis stream.ilp=1,2 --derive 'stream.fma=1000000*stream.ilp'

# Warnings before any run.  fma: 128 threads (4 warps), 32 registers: 16
# CTAs fit, so 20 runs 16; 4 FFMAs per iteration fill 4 chains, so ILP 8
# changes nothing; ILP swept with stream.fma at the kernel's 128.
sweep --axis launch.blocks_per_sm=1,20 2>"$tmp/err" || fail "blocks 20: $(cat "$tmp/err")"
grep -q "^sweep.sh: warning: --axis 'launch.blocks_per_sm=1,20': value 20: launch.blocks_per_sm=20 is above the 16 CTAs/SM this launch allows" "$tmp/err" ||
  fail "blocks 20: $(cat "$tmp/err")"
ok
sweep --set stream.fma=4 --axis stream.ilp=1..8 --axis launch.blocks_per_sm=1 2>"$tmp/err" || fail "ilp 8: $(cat "$tmp/err")"
grep -q "^sweep.sh: warning: --axis 'stream.ilp=1..8': value 8: stream.ilp=8 is above the most instructions it spreads per iteration (stream.fma=4, sfu=0, lds=0): chains past 4 are empty" "$tmp/err" ||
  fail "ilp 8: $(cat "$tmp/err")"
! grep -q "stream.fma stays" "$tmp/err" || fail "ilp 8: fma is set, yet the tie warning"
# The rows agree: ILP 4 and ILP 8 run the same program.
[ "$(cols "ilp cycles" "$tmp/s.csv" | sed -n 4p | cut -d" " -f2)" = "$(cols "ilp cycles" "$tmp/s.csv" | sed -n 8p | cut -d" " -f2)" ] && [ "$(cols ilp "$tmp/s.csv" | sed -n 8p)" = 8 ] || fail "ilp 4 and 8 differ"
ok
sweep --axis stream.ilp=1,2 --axis launch.blocks_per_sm=1 2>"$tmp/err" || fail "untied: $(cat "$tmp/err")"
grep -q "stream.ilp varies (--axis 'stream.ilp=1,2') while stream.fma stays 128: .*--derive 'stream.fma=32\*stream.ilp'" "$tmp/err" ||
  fail "untied: $(cat "$tmp/err")"
ok

# ---- plot_occupancy.gp: the metric as an argument, curves told apart ----
command -v gnuplot >/dev/null 2>&1 || { echo "$passed passed (gnuplot not installed: plots skipped)"; exit 77; }
sweep --axis stream.ilp=1,2,4,8 --derive 'stream.fma=32*stream.ilp' --axis launch.blocks_per_sm=1,4,16 2>/dev/null ||
  fail "plot sweep"
gp=$root/scripts/plot_occupancy.gp
for m in ipc:"warp instructions per cycle per SM" fma_per_cycle:"warp FFMA per cycle per SM" cycles:cycles; do
  gnuplot -e "metric='${m%%:*}'" -c "$gp" "$tmp/p.svg" "$tmp/s.csv" 2>"$tmp/err" || fail "metric ${m%%:*}: $(cat "$tmp/err")"
  [ ! -s "$tmp/err" ] || fail "metric ${m%%:*}: warnings: $(cat "$tmp/err")"
  grep -q ">${m#*:}" "$tmp/p.svg" || fail "metric ${m%%:*}: no y label '${m#*:}'"
done
ok
# The y values are the metric's: the ILP 1 curve's largest IPC, as in the rows.
gnuplot -e "metric='ipc'" -c "$gp" "$tmp/p.svg" "$tmp/s.csv"
best=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["ilp"] == 1 && $c["ipc"] > b { b = $c["ipc"] } END { printf "%.4g", b }' "$tmp/s.csv")
grep -q ">ILP 1: .*plateau $best\|>ILP 1: .*best $best\|>ILP 1: .*still rising" "$tmp/p.svg" || fail "ipc legend: $(grep -o '>ILP 1: [^<]*' "$tmp/p.svg")"
ok
for bad in nothere:"no such column" kernel:"not a numeric column"; do
  rc=0
  gnuplot -e "metric='${bad%%:*}'" -c "$gp" "$tmp/q.svg" "$tmp/s.csv" 2>"$tmp/err" || rc=$?
  [ $rc -eq 2 ] && grep -q "${bad#*:}" "$tmp/err" && [ ! -e "$tmp/q.svg" ] || fail "metric ${bad%%:*}: rc $rc $(cat "$tmp/err")"
done
ok
# Four curves, four point shapes (pt 7, 5, 9, 11: gnuplot's gpPt6, 4, 8, 10), each used.
gnuplot -c "$gp" "$tmp/p.svg" "$tmp/s.csv"
for id in 6 4 8 10; do
  grep -q "href='#gpPt$id'" "$tmp/p.svg" || fail "point type gpPt$id not drawn"
done
grep -q "stroke-dasharray" "$tmp/p.svg" || fail "no dashed curve"
ok
# README's padding formula pins B CTAs per SM on every kernel, static
# shared memory included: 233472/B/128*128 - 1024 - S.  S from the report
# ("... S + D B shared memory per CTA"): transpose_pad 4224, vadd4 0.  At
# every B = 1..16 the occupancy of S + D is B CTAs (shared_mem binding) and
# D is what `warpsim occupancy --smem-for-blocks B` gives; at B = 8 and 16
# it is the measurement's padding (real_b/curves.csv: 23936, 9344; 28160,
# 13568).  Without "-S" transpose_pad's B = 8 fits only 6.
expr=$(grep -o "launch.smem_dynamic=233472/launch.blocks_per_sm/128\*128-1024-4224'" "$root/README.md" | tr -d "'")
[ -n "$expr" ] || fail "README: no smem_dynamic formula with transpose_pad's static 4224"
for ks in transpose_pad:4224:23936:9344 vadd4:0:28160:13568; do
  IFS=: read -r k s d8 d16 <<<"$ks"
  "$bin" run --kernel "${k}_sass" --no-whatif 2>/dev/null |
    grep -q "the profiled launch simulated: .*, $s + $d8 B shared memory per CTA, 8 CTAs/SM" ||
    fail "$k: the report does not give static $s + $d8"
  "$root/scripts/sweep.sh" --print-grid --kernel "${k}_sass" --set launch.optin=true \
    --axis launch.blocks_per_sm=1..16 --derive "${expr%-4224}-$s" >"$tmp/grid" 2>"$tmp/err" ||
    fail "$k: --print-grid: $(cat "$tmp/err")"
  [ "$(wc -l <"$tmp/grid")" = 16 ] || fail "$k: grid of $(wc -l <"$tmp/grid") points"
  while read -r b d; do
    occ=$("$bin" occupancy --model h200 --threads 128 --regs 32 --smem-static "$s" --smem-dynamic "$d" --optin \
      --format csv | col blocks_per_sm)
    most=$("$bin" occupancy --model h200 --threads 128 --regs 32 --smem-static "$s" --smem-for-blocks "$b" \
      --optin --format csv | col smem_dynamic)
    [ "$occ" = "$b" ] && [ "$most" = "$d" ] || fail "$k B = $b: padding $d fits $occ CTAs, --smem-for-blocks $most"
  done < <(sed 's/.*blocks_per_sm=\([0-9]*\).*smem_dynamic=\([0-9]*\).*/\1 \2/' "$tmp/grid")
  grep -q "blocks_per_sm=8.*smem_dynamic=$d8\$" "$tmp/grid" && grep -q "blocks_per_sm=16.*smem_dynamic=$d16\$" "$tmp/grid" ||
    fail "$k: B = 8, 16 not $d8, $d16: $(grep -E 'sm=(8|16)\b' "$tmp/grid")"
  ok
done
[ "$("$bin" occupancy --model h200 --threads 128 --regs 32 --smem-static 4224 --smem-dynamic 28160 --optin \
  --format csv | col blocks_per_sm)" = 6 ] && ok || fail "transpose_pad without its static part: not 6 CTAs"
echo "$passed passed, 0 failed"
