#!/usr/bin/env bash
# shellcheck disable=SC2086 # $L is a list of options, split on purpose
# cli_occupancy.sh - `warpsim occupancy` as a user runs it: bad input (exit 2,
# one line on stderr, nothing on stdout), impossible launches (exit 0, 0 blocks
# and the reason), the exact CSV header, --batch, --vary, the helpers and the
# what-if plot script.  Needs WARPSIM_BIN (set by CTest); WARPSIM_ROOT for the
# plot script.
set -u
BIN=${WARPSIM_BIN:?WARPSIM_BIN must name the warpsim binary}
ROOT=${WARPSIM_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

occ() { "$BIN" occupancy "$@"; }

# expect RC DESCRIPTION ARGS...: run, check the exit status; stdout in $TMP/out.
# RC 2 (bad input): exactly one line on stderr and nothing on stdout.
# RC 0: nothing on stderr.
expect() {
  local want=$1 what=$2
  shift 2
  checks=$((checks + 1))
  occ "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  [ "$rc" -eq "$want" ] || fail "$what: exit $rc, expected $want: $(cat "$TMP/err")"
  if [ "$want" -eq 2 ]; then
    [ ! -s "$TMP/out" ] || fail "$what: wrote to stdout"
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$what: stderr is not one line: $(cat "$TMP/err")"
  else
    [ ! -s "$TMP/err" ] || fail "$what: wrote to stderr: $(cat "$TMP/err")"
  fi
}
expect_bad() { expect 2 "$@"; }
expect_ok() { expect 0 "$@"; }

# col NAME [ROW]: the value of CSV column NAME in row ROW (default 2) of $TMP/out.
col() {
  awk -F, -v name="$1" -v row="${2:-2}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
    NR == row { print $(c[name]) }' "$TMP/out"
}

# ---- bad input ---------------------------------------------------------------
L="--model h200 --threads 256 --regs 32"
expect_bad "threads 0" --model h200 --threads 0 --regs 32
expect_bad "threads 1025" --model h200 --threads 1025 --regs 32
expect_bad "regs 0" --model h200 --threads 256 --regs 0
expect_bad "regs 256" --model h200 --threads 256 --regs 256
expect_bad "negative static smem" $L --smem-static -1
expect_bad "negative dynamic smem" $L --smem-dynamic -4096
expect_bad "non-numeric smem" $L --smem-dynamic 4k
expect_bad "non-numeric threads" --model h200 --threads abc --regs 32
expect_bad "unknown compute capability" --model 3.7 --threads 256 --regs 32
expect_bad "unknown model" --model nosuchgpu --threads 256 --regs 32
expect_bad "missing threads" --model h200 --regs 32
expect_bad "carveout 101" $L --carveout 101
expect_bad "carveout -2" $L --carveout -2
expect_bad "unknown format" $L --format xml
expect_bad "unknown option" $L --frobnicate
expect_bad "stray argument" $L extra
expect_bad "unknown vary" $L --vary blocks
expect_bad "two modes" $L --vary regs --best-block-size
expect_bad "smem-for-blocks 0" $L --smem-for-blocks 0
expect_bad "grid 0" $L --grid 0
expect_bad "missing batch file" --model h200 --batch "$TMP/none.csv"
grep -q "threads" <(occ --model h200 --threads 0 --regs 32 2>&1) ||
  fail "the threads error does not name the option"
grep -q "1..1024" <(occ --model h200 --threads 0 --regs 32 2>&1) ||
  fail "the threads error does not give the range"

# ---- one launch ---------------------------------------------------------------
HEADER="model,cc,threads,regs,smem_static,smem_dynamic,optin,blocks_per_sm,warps_per_sm,occupancy_pct,limiters,limit_blocks,limit_warps,limit_registers,limit_shared_mem,regs_per_block,smem_per_block"
expect_ok "csv" --model 8.0 --threads 256 --regs 32 --smem-static 16384 --format csv
[ "$(head -1 "$TMP/out" | cut -d, -f1-17)" = "$HEADER" ] || fail "CSV header: $(head -1 "$TMP/out")"
[ "$(sed -n 2p "$TMP/out" | cut -d, -f1-17)" = \
  "a100,8.0,256,32,16384,0,0,8,64,100.000,warps+registers,32,8,8,9,8192,17408" ] ||
  fail "a100 row: $(sed -n 2p "$TMP/out")"
expect_ok "no header" $L --format csv --no-header
[ "$(wc -l <"$TMP/out")" -eq 1 ] || fail "--no-header printed $(wc -l <"$TMP/out") lines"

expect_ok "text" $L
grep -q "Theoretical Occupancy" "$TMP/out" || fail "text has no Theoretical Occupancy"
grep -q "Block Limit Registers" "$TMP/out" || fail "text has no Block Limit Registers"
# The limiter line counts in words that agree with the number: 1024 x 64
# registers fill the H200's 65536 (1 block of 32 warps); 32 threads x 255
# (256 allocated) take 8192 a warp, 8 of them fit (8 blocks of 1 warp).
expect_ok "limiter, one block" --model h200 --threads 1024 --regs 64
grep -qx "  Limiter: registers (1 block x 32 warps = 32 of 64 warps per SM)" "$TMP/out" ||
  fail "limiter line: $(grep Limiter "$TMP/out")"
expect_ok "limiter, one warp a block" --model h200 --threads 32 --regs 255
grep -qx "  Limiter: registers (8 blocks x 1 warp = 8 of 64 warps per SM)" "$TMP/out" ||
  fail "limiter line: $(grep Limiter "$TMP/out")"

expect_ok "impossible launch (registers)" --model 8.9 --threads 512 --regs 162
grep -q "Cannot launch: registers" "$TMP/out" || fail "no reason for 512 x 162 regs"
grep -Eq "Block Limit Registers +block +0" "$TMP/out" || fail "no 0 register limit"
expect_ok "impossible launch (csv)" --model 8.6 --threads 128 --regs 32 --smem-dynamic 101377 \
  --optin --format csv
[ "$(sed -n 2p "$TMP/out" | cut -d, -f8,11)" = "0,shared_mem" ] || fail "101377 B: $(cat "$TMP/out")"
grep -q "shared memory" "$TMP/out" || fail "101377 B: no reason"

expect_ok "json" --model 9.0 --threads 256 --regs 32 --smem-dynamic 32768 --format json
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["blocks_per_sm"] == 6 and d["limiters"] == "shared_mem", d' \
    "$TMP/out" || fail "json"
fi

# ---- batch ------------------------------------------------------------------------
cat >"$TMP/batch.csv" <<EOF
threads,regs,smem_static,smem_dynamic,optin
# cases of tests/data/occupancy.tsv on cc 8.9
512,162,0,0,0
384,162,0,0,0
32,16,0,0,0

256,162,0,0,0
EOF
expect_ok "batch" --model 8.9 --batch "$TMP/batch.csv"
[ "$(wc -l <"$TMP/out")" -eq 5 ] || fail "batch printed $(wc -l <"$TMP/out") lines, expected 5"
[ "$(cut -d, -f3,8,9 "$TMP/out" | tail -4 | tr '\n' ' ')" = "512,0,0 384,1,12 32,24,24 256,1,8 " ] ||
  fail "batch rows: $(cat "$TMP/out")"
printf 'threads,regs,smem_static,smem_dynamic\n256,32,0,0\n0,32,0,0\n' >"$TMP/bad.csv"
expect_bad "batch row with threads 0" --model h200 --batch "$TMP/bad.csv"
grep -q "bad.csv:3" <(occ --model h200 --batch "$TMP/bad.csv" 2>&1) || fail "batch error has no file:line"
printf 'threads,regs,smem\n256,32,0\n' >"$TMP/badhdr.csv"
expect_bad "batch bad header" --model h200 --batch "$TMP/badhdr.csv"
printf 'threads,regs,smem_static,smem_dynamic\n256,32,-1,0\n' >"$TMP/neg.csv"
expect_bad "batch negative size" --model h200 --batch "$TMP/neg.csv"
expect_bad "batch text format" --model h200 --batch "$TMP/batch.csv" --format text

# thousands of rows per second
awk 'BEGIN { print "threads,regs,smem_static,smem_dynamic,optin";
             for (i = 0; i < 20000; i++) printf "%d,%d,%d,%d,%d\n", 32 * (i % 32 + 1), i % 255 + 1, 0, (i * 97) % 200000, i % 2 }' \
  >"$TMP/big.csv"
start=$(date +%s%N)
expect_ok "batch of 20000" --model h200 --batch "$TMP/big.csv"
ms=$((($(date +%s%N) - start) / 1000000))
[ "$(wc -l <"$TMP/out")" -eq 20001 ] || fail "big batch printed $(wc -l <"$TMP/out") lines"
[ "$ms" -lt 10000 ] || fail "20000 rows took $ms ms (fewer than 2000 rows per second)"
echo "batch: 20000 rows in $ms ms"

# ---- what-if curves --------------------------------------------------------------
expect_ok "vary all" $L --smem-dynamic 20000 --vary all --format csv
head -1 "$TMP/out" | grep -q "^$HEADER,.*,vary,value,current$" || fail "vary header: $(head -1 "$TMP/out")"
for v in regs:255 threads:32 smem:386; do # smem: 0..48 KB by 128 B, and 20000
  n=$(grep -c ",${v%%:*},[0-9]*,[01]$" "$TMP/out")
  [ "$n" -eq "${v##*:}" ] || fail "vary ${v%%:*}: $n points, expected ${v##*:}"
  cur=$(grep -c ",${v%%:*},[0-9]*,1$" "$TMP/out")
  [ "$cur" -eq 1 ] || fail "vary ${v%%:*}: $cur current points"
done
grep -q ",regs,32,1$" "$TMP/out" || fail "vary regs: the current point is not regs 32"
expect_ok "vary text" --model a100 --threads 100 --regs 44 --vary threads
grep -Eq '^\* +100 ' "$TMP/out" || fail "vary text does not mark 100 threads"
if command -v gnuplot >/dev/null; then
  occ $L --vary all --format csv >"$TMP/whatif.csv"
  checks=$((checks + 1))
  gnuplot -e "in='$TMP/whatif.csv'; out='$TMP/whatif.png'" "$ROOT/scripts/plot_occupancy_whatif.gp" \
    2>"$TMP/gp.err" || fail "gnuplot: $(cat "$TMP/gp.err")"
  [ -s "$TMP/whatif.png" ] || fail "gnuplot wrote no PNG"
fi

# ---- helpers (cases of tests/data/cases_other.md) -----------------------------------
expect_ok "best block size" --model 8.0 --regs 44 --best-block-size --format csv
[ "$(sed -n 2p "$TMP/out" | cut -d, -f3,8,9)" = "640,2,40" ] || fail "best block size: $(cat "$TMP/out")"
expect_ok "smem for 2 blocks" --model 9.0 --threads 256 --regs 32 --smem-static 256 --optin \
  --smem-for-blocks 2 --format csv
[ "$(sed -n 2p "$TMP/out" | cut -d, -f6,8,9)" = "115456,2,2" ] || fail "smem for 2 blocks: $(cat "$TMP/out")"
expect_ok "smem for 1 block without opt-in" --model 9.0 --threads 256 --regs 32 --smem-static 256 \
  --smem-for-blocks 1
grep -q "48896 B" "$TMP/out" || fail "smem for 1 block: $(cat "$TMP/out")"
expect_ok "waves" --model a100 --threads 1024 --regs 64 --grid 109 --format csv
[ "$(col waves_per_sm),$(col waves),$(col last_wave_sms),$(col sm_time_used_pct)" = \
  "1.009,2,1,50.463" ] || fail "waves: $(cat "$TMP/out")"
# The text names the rounded-up count as such: 1000 blocks of 8 per SM on 132 SMs
# is 1000 / 1056 = 0.947 waves, which rounds up to 1 (it is not a whole wave).
expect_ok "waves text" --model h200 --threads 128 --regs 64 --grid 1000
grep -Eq '^ +Waves Per SM +0\.947$' "$TMP/out" || fail "waves text: $(cat "$TMP/out")"
grep -Eq '^ +Waves \(rounded up\) +1$' "$TMP/out" || fail "waves text: no rounded-up label"
grep -q 'Whole Waves' "$TMP/out" && fail "waves text: still says Whole Waves"

# ---- issue 12: placement, launch bounds, warpgroups, cc 11.0 / 12.1 ---------------
# 256 threads, 100 KB dynamic shared memory (opt-in): 2 blocks per SM on the H200.
# Grid 200: measured 2 blocks on 68 SMs, 1 on 64 (all 132 busy).
P="--model h200 --threads 256 --regs 32 --smem-dynamic 102400 --optin"
expect_ok "placement csv" $P --grid 200 --format csv
[ "$(col last_wave_sms)" = 132 ] || fail "grid 200: last_wave_sms $(col last_wave_sms), expected 132"
[ "$(col last_wave_blocks_per_sm)" = "2:68;1:64" ] || fail "grid 200: histogram $(col last_wave_blocks_per_sm)"
expect_ok "placement grid 211" $P --grid 211 --format csv
# Nsight Compute measured 20.05 %; (79 x 16 + 53 x 8) / 132 / 64 = 19.98 %
[ "$(col achievable_occupancy_pct)" = 19.981 ] || fail "grid 211: $(col achievable_occupancy_pct)"
expect_ok "placement json" $P --grid 200 --format json
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); h=d["last_wave_blocks_per_sm"]
assert h == [{"blocks_per_sm": 2, "sms": 68}, {"blocks_per_sm": 1, "sms": 64}], h
assert d["last_wave_sms"] == 132, d' "$TMP/out" || fail "placement json: $(cat "$TMP/out")"
fi
expect_ok "placement text" $P --grid 200
grep -q "68 SMs with 2 blocks, 64 SMs with 1 block" "$TMP/out" || fail "placement text: $(cat "$TMP/out")"

# __launch_bounds__ ceilings on cc 9.0: (1024,1) -> 64, (896,1) -> 72, (128,1) -> 255
for c in 1024,1:64 896,1:72 128,1:255 896:72; do
  expect_ok "launch bounds ${c%%:*}" --model 9.0 --launch-bounds "${c%%:*}" --format csv
  [ "$(col regs_ceiling)" = "${c##*:}" ] || fail "launch bounds ${c%%:*}: ceiling $(col regs_ceiling)"
  [ "$(col regs)" = 255 ] && [ "$(col regs_allocated)" = "${c##*:}" ] ||
    fail "launch bounds ${c%%:*}: regs $(col regs) allocated $(col regs_allocated)"
done
expect_ok "launch bounds, kernel needs 90" --model 9.0 --launch-bounds 896,1 --regs 90 --format csv
[ "$(col threads),$(col regs_allocated),$(col regs_spilled),$(col blocks_per_sm)" = "896,72,18,1" ] ||
  fail "896,1 with 90 regs: $(cat "$TMP/out")"
[ "$(col ceiling_occupancy_pct)" = 43.750 ] || fail "ceiling occupancy: $(col ceiling_occupancy_pct)"
expect_ok "max-regs" --model 9.0 --threads 256 --regs 100 --max-regs 64 --format csv
[ "$(col regs_ceiling),$(col regs_allocated),$(col blocks_per_sm)" = "64,64,4" ] ||
  fail "max-regs: $(cat "$TMP/out")"
# MIN_BLOCKS 8 of 256 threads on a 1536-thread SM: dropped by ptxas, with a warning
expect_ok "unreachable MIN_BLOCKS" --model 8.6 --launch-bounds 256,8 --format csv
[ "$(col regs_ceiling)" = 255 ] || fail "256,8 on cc 8.6: ceiling $(col regs_ceiling)"
col warning | grep -q "64 warps > 48 warps per SM" || fail "256,8 on cc 8.6: warning '$(col warning)'"
expect_ok "unreachable MIN_BLOCKS text" --model 8.6 --launch-bounds 256,8
grep -q "Warning: MIN_BLOCKS 8 cannot be met" "$TMP/out" || fail "no MIN_BLOCKS warning in text"
expect_ok "block larger than maxThreads" --model 9.0 --threads 512 --launch-bounds 256 --format csv
[ "$(col blocks_per_sm)" = 0 ] && col reason | grep -q "launch bounds" ||
  fail "512 threads under launch bounds 256: $(cat "$TMP/out")"
# setmaxnreg: 384 threads as 40 + 232 + 232 launch with 168 per thread, 1 block on cc 9.0
expect_ok "warpgroups" --model 9.0 --warpgroup-regs 40,232,232 --format csv
[ "$(col threads),$(col regs),$(col blocks_per_sm),$(col warpgroup_regs)" = "384,168,1,40;232;232" ] ||
  fail "warpgroups: $(cat "$TMP/out")"
expect_ok "warpgroups vary" --model 9.0 --warpgroup-regs 40,232,232 --vary all --format csv
grep -q ",regs,168,1$" "$TMP/out" || fail "warpgroups vary: the current regs point is not 168"
expect_bad "warpgroups best block size" --model 9.0 --warpgroup-regs 40,232,232 --best-block-size
expect_ok "launch bounds batch" --model 9.0 --launch-bounds 256,2 --batch "$TMP/batch.csv"
expect_bad "warpgroups over budget" --model 9.0 --warpgroup-regs 40,232,240 --regs 168
expect_bad "warpgroup count not a multiple of 8" --model 9.0 --warpgroup-regs 44,232,232
expect_bad "warpgroups vs threads" --model 9.0 --warpgroup-regs 40,232,232 --threads 256
expect_bad "launch bounds too large" --model 9.0 --launch-bounds 2048
expect_bad "launch bounds MIN_BLOCKS 0" --model 9.0 --launch-bounds 256,0
expect_bad "launch bounds three values" --model 9.0 --launch-bounds 256,1,1
expect_bad "launch bounds empty" --model 9.0 --launch-bounds ""
expect_bad "max-regs 0" $L --max-regs 0
for cc in 11.0:thor 12.1:gb10; do
  expect_ok "cc ${cc%%:*}" --model "${cc%%:*}" --threads 32 --regs 16 --format csv
  [ "$(col model),$(col blocks_per_sm)" = "${cc##*:},24" ] || fail "cc ${cc%%:*}: $(cat "$TMP/out")"
done

# Without --model the model is h200, as for run and sweep-points (and --help says so).
expect_ok "default model" --threads 256 --regs 32 --format csv
cp "$TMP/out" "$TMP/default.csv"
expect_ok "model h200" --model h200 --threads 256 --regs 32 --format csv
cmp -s "$TMP/out" "$TMP/default.csv" || fail "default model is not h200: $(cat "$TMP/default.csv")"
[ "$(col model)" = h200 ] || fail "default model: $(cat "$TMP/out")"

# ---- help --------------------------------------------------------------------------
expect_ok "help" --help
grep -q -- "default h200" "$TMP/out" || fail "--help does not name the default model"
grep -q -- "--vary" "$TMP/out" || fail "--help does not list --vary"

echo "cli_occupancy: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
