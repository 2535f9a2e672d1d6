#!/usr/bin/env bash
# cli_run.sh - `warpsim run` and friends from the outside: every bad
# input exits 2 with exactly one line on stderr naming the file, group and key
# (and the allowed range where there is one) and nothing on stdout; the CSV
# has the required columns; output is byte-identical across runs; --help,
# models and version succeed.  Needs WARPSIM_BIN (CTest sets it).
set -u

bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") # absolute: some cases cd
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0

fail() {
  echo "FAIL: $*" >&2
  echo "$passed passed, 1 failed"
  exit 1
}

ok() { passed=$((passed + 1)); }

# bad NAME NEEDLE... -- ARGS...: `warpsim ARGS` must exit 2, print nothing
# on stdout and one line on stderr holding every NEEDLE.
bad() {
  local name=$1 needles=()
  shift
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    needles+=("$1")
    shift
  done
  shift
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, expected 2 ($(head -c 300 "$tmp/err"))"
  [ ! -s "$tmp/out" ] || fail "$name: wrote to stdout: $(head -c 200 "$tmp/out")"
  local lines
  lines=$(wc -l <"$tmp/err")
  [ "$lines" -eq 1 ] || fail "$name: $lines lines on stderr: $(head -c 600 "$tmp/err")"
  local needle
  for needle in "${needles[@]}"; do
    grep -qF -- "$needle" "$tmp/err" || fail "$name: stderr lacks '$needle': $(cat "$tmp/err")"
  done
  ok
}

# good NAME ARGS...: `warpsim ARGS` exits 0 with something on stdout, nothing
# on stderr; stdout is left in $tmp/out.
good() {
  local name=$1
  shift
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq 0 ] || fail "$name: exit $rc: $(head -c 600 "$tmp/err")"
  [ -s "$tmp/out" ] || fail "$name: no output"
  [ ! -s "$tmp/err" ] || fail "$name: wrote to stderr: $(head -c 600 "$tmp/err")"
  ok
}

# ---- files for the bad-input cases ---------------------------------------
printf '[launch\nthreads_per_block=128\n' >"$tmp/malformed.ini"
printf 'threads_per_block=128\n' >"$tmp/nogroup.ini"
printf '[lunch]\nthreads_per_block=128\n' >"$tmp/badgroup.ini"
printf '[launch]\nthreads=128\n' >"$tmp/badkey.ini"
printf '[stream]\nilp=0\n' >"$tmp/ilp0.ini"
printf '[stream]\nfma=lots\n' >"$tmp/nonnum.ini"
printf '[sm]\ncc=9.0\nsmsps=4\n[fma\n' >"$tmp/badmodel.ini"
printf '[sm]\ncc=9.0\nsmsps=40\n' >"$tmp/rangemodel.ini"
printf '[launch]\nthreads_per_block=64\n[stream]\niterations=4\nfma=8\n' >"$tmp/ok.ini"
mkdir "$tmp/dir.ini"
k=(run --kernel fma)

# ---- missing and malformed files -----------------------------------------
bad "missing kernel file" "$tmp/missing.ini" -- run --kernel "$tmp/missing.ini"
bad "missing kernel name" "nosuchkernel" -- run --kernel nosuchkernel
bad "missing model file" "$tmp/missing.ini" -- "${k[@]}" --model "$tmp/missing.ini"
bad "model path is a directory" "$tmp/dir.ini" -- "${k[@]}" --model "$tmp/dir.ini"
bad "unknown model name" "nosuchmodel" -- "${k[@]}" --model nosuchmodel
bad "footprint at dram" "[stream] footprint: 100 bytes per warp with level=dram" "allowed with level l1 or l2" -- run --kernel stream --set stream.footprint=100
if [ "$(id -u)" -ne 0 ]; then # root reads anything
  cp "$tmp/ok.ini" "$tmp/noread.ini" && chmod 000 "$tmp/noread.ini"
  bad "unreadable kernel file" "$tmp/noread.ini" -- run --kernel "$tmp/noread.ini"
fi
bad "malformed kernel INI" "$tmp/malformed.ini" -- run --kernel "$tmp/malformed.ini"
bad "kernel INI without group" "$tmp/nogroup.ini" -- run --kernel "$tmp/nogroup.ini"
bad "malformed model INI" "$tmp/badmodel.ini" -- "${k[@]}" --model "$tmp/badmodel.ini"

# ---- unknown groups and keys ---------------------------------------------
bad "unknown group in file" "$tmp/badgroup.ini" "[lunch]" -- run --kernel "$tmp/badgroup.ini"
bad "unknown key in file" "$tmp/badkey.ini" "[launch] threads" -- run --kernel "$tmp/badkey.ini"
bad "unknown --set group" "foo.bar=1" "[foo]" -- "${k[@]}" --set foo.bar=1
bad "unknown kernel key" "fma.ini" "[stream] ilpp" -- "${k[@]}" --set stream.ilpp=2
bad "unknown model key" "h200.ini" "[fma] width" -- "${k[@]}" --set fma.width=32
bad "malformed --set" "stream.ilp" "group.key=value" -- "${k[@]}" --set stream.ilp

# ---- values --------------------------------------------------------------
bad "out of range in file" "$tmp/ilp0.ini" "[stream] ilp" "1..64" -- run --kernel "$tmp/ilp0.ini"
bad "non-numeric in file" "$tmp/nonnum.ini" "[stream] fma" "lots" "0..65536" \
  -- run --kernel "$tmp/nonnum.ini"
bad "out of range in model" "$tmp/rangemodel.ini" "[sm] smsps" "1..8" \
  -- "${k[@]}" --model "$tmp/rangemodel.ini"
bad "L2 reuse edges reversed" "h200.ini" "[l2] reuse_full_bytes" "exceeds reuse_none_bytes" \
  -- "${k[@]}" --set l2.reuse_full_bytes=70000000
# The key a --set moved is the one named, with a range that holds a value
# that works; 0 stands for [l2] bytes (52428800 on the H200).
bad "L2 reuse_none below the file's reuse_full" "h200.ini, --set" "[l2] reuse_none_bytes: 1000" \
  "below reuse_full_bytes 42991616" "allowed 42991616..4294967295 bytes, or 0" \
  -- "${k[@]}" --set l2.reuse_none_bytes=1000
bad "L2 reuse_full 0 is [l2] bytes, past reuse_none" "--set" "[l2] reuse_full_bytes: 0 ([l2] bytes 52428800)" \
  "allowed 1..30000000 bytes" \
  -- "${k[@]}" --set l2.reuse_none_bytes=30000000 --set l2.reuse_full_bytes=0
bad "L2 far-partition cycles out of range" "h200.ini, --set" "[l2] far_extra_cycles" "'100001'" \
  "allowed 0..100000 cycles" -- "${k[@]}" --set l2.far_extra_cycles=100001
bad "l2_warm not a boolean" "[launch] l2_warm" -- "${k[@]}" --set launch.l2_warm=maybe
bad "ILP 0" "fma.ini" "[stream] ilp" "1..64" -- "${k[@]}" --set stream.ilp=0
bad "threads 0" "fma.ini" "[launch] threads_per_block" "1..1024" \
  -- "${k[@]}" --set launch.threads_per_block=0
bad "threads 1025" "fma.ini" "[launch] threads_per_block" "1..1024" \
  -- "${k[@]}" --set launch.threads_per_block=1025
bad "registers 256" "fma.ini" "[launch] regs_per_thread" "1..255" \
  -- "${k[@]}" --set launch.regs_per_thread=256
bad "negative value" "fma.ini" "[stream] loads" "-1" "0..64" -- "${k[@]}" --set stream.loads=-1
bad "non-numeric value" "fma.ini" "[stream] iterations" "many" "1..100000000" \
  -- "${k[@]}" --set stream.iterations=many
bad "fractional integer" "fma.ini" "[stream] fma" "2.5" "0..65536" -- "${k[@]}" --set stream.fma=2.5
bad "model out of range" "h200.ini" "[fma] latency" "1..1000" -- "${k[@]}" --set fma.latency=0
bad "model non-numeric" "h200.ini" "[dram] bytes_per_cycle" "fast" \
  -- "${k[@]}" --set dram.bytes_per_cycle=fast
bad "bad bool" "fma.ini" "[stream] syncthreads" "true|false" \
  -- "${k[@]}" --set stream.syncthreads=maybe
bad "bad enum" "fma.ini" "[stream] level" "l1|l2|dram" -- "${k[@]}" --set stream.level=hbm
bad "no CTA fits" "[launch]" \
  -- "${k[@]}" --set launch.threads_per_block=1024 --set launch.regs_per_thread=255

# ---- options -------------------------------------------------------------
bad "unknown policy" "fifo" "gto" -- "${k[@]}" --policy fifo
bad "bad --format" "--format" -- "${k[@]}" --format xml
bad "no --kernel" "--kernel" -- run
bad "unknown option" "--frobnicate" -- "${k[@]}" --frobnicate
bad "stray argument" "unexpected argument" "extra" -- "${k[@]}" extra
bad "unknown command" "frobnicate" -- frobnicate

# ---- CSV -----------------------------------------------------------------
good "csv" "${k[@]}" --format csv
cp "$tmp/out" "$tmp/csv"
[ "$(wc -l <"$tmp/csv")" -eq 2 ] || fail "csv: expected header + 1 row, got $(cat "$tmp/csv")"
header=$(head -n 1 "$tmp/csv")
for col in model kernel policy ilp warps_per_sm blocks_per_sm occupancy_pct \
  achieved_occupancy_pct cycles ipc fma_per_cycle loads_per_cycle bytes_per_cycle issue_active; do
  [[ ",$header," == *",$col,"* ]] || fail "csv: header lacks column $col: $header"
done
ok
hcols=$(head -n 1 "$tmp/csv" | awk -F, '{print NF}')
rcols=$(tail -n 1 "$tmp/csv" | awk -F, '{print NF}')
[ "$hcols" -eq "$rcols" ] || fail "csv: header has $hcols columns, row $rcols"
row=$(tail -n 1 "$tmp/csv")
[[ "$row" == h200,fma,* ]] || fail "csv: row does not start with model,kernel: $row"
ok

# The launch line's CTA count agrees with its noun: a grid of one CTA leaves
# 1 CTA on the simulated SM, the default full wave 16 (fma: 128 threads).
good "text, grid of one CTA" run --kernel fma --set launch.blocks=1 --no-whatif
grep -q ", 1 CTA on this SM$" "$tmp/out" || fail "launch line: $(grep 'launch:' "$tmp/out")"
good "text, one full wave" run --kernel fma --no-whatif
grep -q ", 16 CTAs on this SM$" "$tmp/out" || fail "launch line: $(grep 'launch:' "$tmp/out")"
ok

good "csv --no-header" "${k[@]}" --format csv --no-header
[ "$(wc -l <"$tmp/out")" -eq 1 ] || fail "--no-header: expected 1 line, got $(cat "$tmp/out")"
[ "$(cat "$tmp/out")" == "$row" ] || fail "--no-header: row differs from the one under the header"
ok

# The model by path gives the same row as the model by name.
good "model by path" "${k[@]}" --model "${WARPSIM_ROOT:-.}/models/h200.ini" --format csv --no-header
[ "$(cat "$tmp/out")" == "$row" ] || fail "--model PATH: row differs from --model h200"
ok

# A kernel file by path, overridden.
good "kernel by path" run --kernel "$tmp/ok.ini" --set stream.ilp=2 --format csv
grep -q '^h200,ok,' "$tmp/out" || fail "kernel by path: $(cat "$tmp/out")"
ok

# ---- determinism ---------------------------------------------------------
for format in text csv json; do
  for kernel in fma chase; do
    args=(run --kernel "$kernel" --set stream.iterations=16 --format "$format")
    good "$kernel $format" "${args[@]}"
    mv "$tmp/out" "$tmp/first"
    good "$kernel $format again" "${args[@]}"
    cmp -s "$tmp/first" "$tmp/out" || fail "$kernel $format: two identical runs differ"
    ok
  done
done
[[ "$(head -c 1 "$tmp/first")" == "{" ]] || fail "json: does not start with '{'"
ok
# The seed's edges (the core's SplitMix64 stream, rng.h): each is
# byte-identical run to run, and the draws follow it (chase's DRAM latency
# spread: 0 and 2^32-1 give other cycles).
for seed in 0 4294967295; do
  args=(run --kernel chase --set stream.iterations=16 --set stream.seed=$seed --format csv)
  good "chase seed $seed" "${args[@]}"
  mv "$tmp/out" "$tmp/seed_$seed"
  good "chase seed $seed again" "${args[@]}"
  cmp -s "$tmp/seed_$seed" "$tmp/out" || fail "chase seed $seed: two identical runs differ"
  ok
done
cycles_of() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cycles") c = i } NR == 2 { print $c }' "$1"; }
[ "$(cycles_of "$tmp/seed_0")" != "$(cycles_of "$tmp/seed_4294967295")" ] ||
  fail "chase: seeds 0 and 4294967295 give the same cycles ($(cycles_of "$tmp/seed_0"))"
ok

# ---- inputs that once hung, truncated or passed silently ------------------
mkfifo "$tmp/fifo.ini"
printf '[launch]\nthreads_per_block=12\0008\n' >"$tmp/nul.ini"
bad "FIFO kernel (must not block)" "$tmp/fifo.ini" "regular file" -- run --kernel "$tmp/fifo.ini"
bad "FIFO model (must not block)" "$tmp/fifo.ini" "regular file" -- "${k[@]}" --model "$tmp/fifo.ini"
bad "NUL byte in a kernel file" "$tmp/nul.ini" "NUL" -- run --kernel "$tmp/nul.ini"
printf '[launch]\nthreads_per_block=128\nthreads_per_block=256\n' >"$tmp/dupkey.ini"
printf '[launch]\nthreads_per_block=64\n[stream]\nilp=2\n[launch]\nregs_per_thread=40\n' >"$tmp/dupgroup.ini"
printf '[launch]\nthreads_per_block[de]=64\n' >"$tmp/localized.ini"
bad "key set twice" "$tmp/dupkey.ini" "line 3" "[launch] threads_per_block" -- run --kernel "$tmp/dupkey.ini"
bad "group twice" "$tmp/dupgroup.ini" "line 5" "[launch]" -- run --kernel "$tmp/dupgroup.ini"
bad "localized key" "$tmp/localized.ini" "threads_per_block[de]" -- run --kernel "$tmp/localized.ini"
bad "--set key with a space" "stream.ilp =1" -- "${k[@]}" --set "stream.ilp =1"
bad "--set value with a newline" "--set" -- "${k[@]}" --set $'stream.ilp=3\n[evil]'
bad "--set value names --set" "--set" "[stream] ilp" "1..64" -- "${k[@]}" --set stream.ilp=0
bad "unknown key lists the allowed ones" "[stream] ilpx" "iterations|fma|ilp" -- "${k[@]}" --set stream.ilpx=1
bad "version with an argument" "extra" -- version extra
bad "models with an argument" "extra" -- models extra
# A stray file or folder named like a shipped kernel does not shadow it.
mkdir "$tmp/cwd" "$tmp/cwd/fma"
(cd "$tmp/cwd" && "$bin" run --kernel fma --set stream.iterations=2 --format csv >/dev/null 2>&1) ||
  fail "a folder ./fma shadows the shipped fma kernel"
ok
# A failed write is an error, not exit 0 with output missing.
if [ -w /dev/full ]; then
  "$bin" run --kernel fma --set stream.iterations=2 --format csv >/dev/full 2>"$tmp/err"
  rc=$?
  [ "$rc" -ne 0 ] || fail "writing to /dev/full exited 0"
  grep -q "error writing" "$tmp/err" || fail "writing to /dev/full: $(cat "$tmp/err")"
  ok
fi

# ---- issue 13: bounds, meaningless kernels, --set ------------------------
# A run over a bound: exit 3, the note and one line naming the bound, no output.
"$bin" run --kernel fma --set stream.iterations=100000000 --max-cycles 100000 --format csv \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] || fail "--max-cycles: exit $rc, expected 3: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "--max-cycles: wrote output"
[ "$(grep -c 'over --max-cycles 100000 cycles: stopped at cycle 100001' "$tmp/err")" -eq 1 ] ||
  fail "--max-cycles: message: $(cat "$tmp/err")"
grep -q 'note: this run simulates about 8.4e+11 warp instructions' "$tmp/err" ||
  fail "--max-cycles: no estimate note: $(cat "$tmp/err")"
ok
t0=$(date +%s%N)
"$bin" run --kernel fma --set stream.iterations=100000000 --timeout 0.3 >"$tmp/out" 2>"$tmp/err"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ $rc -eq 3 ] || fail "--timeout: exit $rc, expected 3: $(cat "$tmp/err")"
grep -q 'over --timeout 0.3 s: stopped at cycle' "$tmp/err" || fail "--timeout: $(cat "$tmp/err")"
grep -q 'with its what-ifs' "$tmp/err" || fail "--timeout: the text note does not count what-ifs"
[ $ms -lt 5000 ] || fail "--timeout 0.3 took $ms ms"
ok
"$bin" run --help >"$tmp/out"
grep -q -- '--max-cycles=N' "$tmp/out" && grep -q -- '--timeout=S' "$tmp/out" &&
  grep -q 'default 10000000000' "$tmp/out" && grep -q 'default 600' "$tmp/out" ||
  fail "run --help does not give the bounds and their defaults"
ok
bad "max-cycles not a number" "--max-cycles" "'x'" -- run --kernel fma --max-cycles x
bad "timeout negative" "--timeout" "'-1'" -- run --kernel fma --timeout -1
bad "early_exit = warps per CTA" "[stream] early_exit" "allowed 0..3" -- \
  run --kernel fma --set stream.early_exit=4
bad "iterations 0" "[stream] iterations" "1..100000000" -- run --kernel fma --set stream.iterations=0
bad "empty loop" "loop body is empty" -- run --kernel fma --set stream.fma=0 --set stream.overhead=0
bad "repeated --set" "--set 'stream.ilp=3'" "already set" -- \
  run --kernel fma --set stream.ilp=2 --set stream.ilp=3
bad "repeated model --set" "--set 'dram.latency=9'" "already set" -- \
  run --kernel fma --set dram.latency=800 --set dram.latency=9
bad "--set sm.cc names --set" "h200.ini, --set: [sm] cc" "'9.0x'" -- run --kernel fma --set sm.cc=9.0x
# model_overrides does not depend on the order of the --set options.
ov() { "$bin" run --kernel fma --set stream.iterations=2 "$@" --format csv | awk -F, \
  'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "model_overrides") c = i } NR == 2 { print $c }'; }
a=$(ov --set operand.bank_conflict=false --set dram.latency=800 --set l2.latency=300)
b=$(ov --set l2.latency=300 --set dram.latency=800 --set operand.bank_conflict=false)
[ "$a" = "dram.latency=800;l2.latency=300;operand.bank_conflict=false" ] && [ "$a" = "$b" ] ||
  fail "model_overrides: '$a' vs '$b'"
ok

# ---- help, models, version -----------------------------------------------
good "--help" --help
good "run --help" run --help
grep -q -- "--kernel" "$tmp/out" || fail "run --help does not mention --kernel"
ok
good "run --help-keys" run --help-keys
grep -q "stream.ilp" "$tmp/out" || fail "run --help-keys does not list stream.ilp"
# A --model that does not load is bad input there too: it printed the key
# list without the model's values, exit 0.
rc=0
"$bin" run --help-keys --model "$tmp/no_such_model.ini" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
  grep -q "no_such_model.ini: no such file" "$tmp/err" ||
  fail "run --help-keys --model MISSING: exit $rc: $(head -c 300 "$tmp/err")"
ok
good "models --help" models --help
good "models" models
grep -Eq '^h200 +9\.0 ' "$tmp/out" || fail "models: no 'h200 9.0' line: $(cat "$tmp/out")"
ok
good "version" version
grep -Eq '^warpsim [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out" || fail "version: $(cat "$tmp/out")"
ok

# A kernel file with CR LF or lone CR (classic Mac) line ends reads as with
# LF: the same cycles.
printf '[stream]\nilp=2\nfma=8\niterations=16\n' >"$tmp/lf.ini"
sed 's/$/\r/' "$tmp/lf.ini" >"$tmp/crlf.ini"
tr '\n' '\r' <"$tmp/lf.ini" >"$tmp/cr.ini"
for f in lf crlf cr; do
  good "line ends $f" run --kernel "$tmp/$f.ini" --format csv --no-header
  cut -d, -f13 "$tmp/out" >"$tmp/$f.cycles"
done
cmp -s "$tmp/lf.cycles" "$tmp/crlf.cycles" && cmp -s "$tmp/lf.cycles" "$tmp/cr.cycles" ||
  fail "line ends: cycles $(cat "$tmp/lf.cycles") (LF), $(cat "$tmp/crlf.cycles") (CR LF), $(cat "$tmp/cr.cycles") (CR)"
ok

# Memory throughput is the busiest level's, by the bytes each served: thrash
# at 64 warps hits L1 with none of its loads (64 x 2 KiB over the 28 KiB of L1
# left: x = 4.57, past the end of the [l1] thrash ramp, 1.30; the smooth share
# gave 28 / 128), so L2 serves every byte against its 36.9 B/cycle
# (models/h200.ini): L2 is the level, at bytes / 36.9 of its peak (about
# 94 %), not L1 (bytes / 128).
good "sol levels" run --kernel thrash --set launch.blocks_per_sm=16 --format json --no-whatif
level=$(grep -o '"memory_level" *: *"[a-z0-9]*"' "$tmp/out" | grep -o '"[a-z0-9]*"$')
pct=$(grep -o '"memory_throughput_pct" *: *[0-9.]*' "$tmp/out" | grep -o '[0-9.]*$')
bpc=$(grep -o '"bytes_per_cycle" *: *[0-9.]*' "$tmp/out" | head -1 | grep -o '[0-9.]*$')
awk -v l="$level" -v p="$pct" -v b="$bpc" 'BEGIN { w = 100 * b / 36.9
  exit !(l == "\"l2\"" && b > 0 && p > 0.99 * w && p < 1.01 * w) }' ||
  fail "sol levels: memory level $level at $pct % with $bpc B/cycle (want l2 at $bpc / 36.9)"
ok
# The busiest unit, when memory leads, is that level too (it named thrash's
# [stream] level, l1, and the High Throughput rule "l1 at 94.0 %").
busiest=$(grep -o '"busiest_unit" *: *"[a-z0-9]*"' "$tmp/out" | grep -o '"[a-z0-9]*"$')
[ "$busiest" = "$level" ] || fail "sol levels: busiest unit $busiest, memory level $level"
grep -q 'High Throughput: l2 at' "$tmp/out" || fail "sol levels: rule does not name l2"
ok
# saxpy has no shared memory: its busiest SM unit, the shared-memory/L1TEX data
# stage its global loads keep busy, is named l1tex (it read "smem").
good "sol l1tex" run --kernel saxpy_sass --format json --no-whatif
grep -q '"sm_busiest_unit" *: *"l1tex"' "$tmp/out" ||
  fail "sol l1tex: $(grep '"sm_busiest_unit"' "$tmp/out")"
ok

echo "$passed passed, 0 failed"
