#!/usr/bin/env bash
# cli_newuser.sh - what a new user met (issue 10), each as a check: every
# command's --help works (version too); models and kernels by the names people
# type (H100, sm_90, h200.ini, fma.ini) are accepted or refused with the names
# that would work; a pure-FFMA report shows no memory level or load latency;
# one meaning of ILP (a loads_in_flight column, a warning when stream.ilp has
# no effect and disagrees with stream.loads); --units device rates equal the
# per-SM rates x SMs x clock computed here; bench.sh argument errors are one
# line; warnings name files without ".." (relative to the working
# directory under it); README's minimal kernel file runs the launch README
# says.  Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them).
set -u
bin=${WARPSIM_BIN:?}
root=${WARPSIM_ROOT:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*" >&2; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }
col() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } { print $c }' "$2"; }
# bad NAME NEEDLE -- CMD...: exit 2, nothing on stdout, one line on stderr holding NEEDLE.
bad() {
  local name=$1 needle=$2
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc, expected 2: $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "$name: wrote to stdout"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$name: not one line: $(cat "$tmp/err")"
  [ "$(tail -c1 "$tmp/err" | od -An -c | tr -d ' ')" = '\n' ] || fail "$name: no final newline"
  grep -qF -- "$needle" "$tmp/err" || fail "$name: lacks '$needle': $(cat "$tmp/err")"
  ok
}
short=(--set stream.iterations=16)

# --help of every command the usage lists, version included.
cmds=$("$bin" --help | awk '/^Commands:/ { f = 1; next } f && !NF { exit } f { print $1 }')
[ -n "$cmds" ] || fail "warpsim --help lists no commands"
for c in $cmds; do
  "$bin" "$c" --help >"$tmp/out" 2>"$tmp/err" || fail "warpsim $c --help: exit $?: $(cat "$tmp/err")"
  grep -qi usage "$tmp/out" || fail "warpsim $c --help: no usage"
  ok
done

# Model and kernel names as people type them.
for spec in H100 h100.ini; do
  "$bin" run --model "$spec" --kernel fma "${short[@]}" --format csv >"$tmp/out" 2>"$tmp/err" ||
    fail "--model $spec: $(cat "$tmp/err")"
  [ "$(col model "$tmp/out")" = h100 ] || fail "--model $spec: $(cat "$tmp/out")"
  ok
done
# A model with occupancy limits only: refused, naming the models that simulate.
awk '/^\[/ { keep = ($0 == "[model]" || $0 == "[sm]") } keep' "$root/models/h200.ini" >"$tmp/occonly.ini"
bad "--model without timing" "models that can: " -- "$bin" run --model "$tmp/occonly.ini" --kernel fma
grep -q "h200" "$tmp/err" || fail "--model without timing: h200 not named: $(cat "$tmp/err")"
for spec in sm_90 SM_90 compute_90 9.0 H200 h200.ini; do
  "$bin" run --model "$spec" --kernel fma.ini "${short[@]}" --format csv >"$tmp/out" 2>"$tmp/err" ||
    fail "--model $spec --kernel fma.ini: $(cat "$tmp/err")"
  [ "$(col model "$tmp/out"),$(col kernel "$tmp/out")" = "h200,fma" ] || fail "--model $spec: $(cat "$tmp/out")"
  ok
done
bad "--model nosuch" "models: a100 b200" -- "$bin" run --model nosuch --kernel fma
bad "--model sm_77" "no shipped model has compute capability 7.7" -- "$bin" run --model sm_77 --kernel fma
bad "--kernel nosuch.ini" " chase " -- "$bin" run --kernel nosuch.ini
grep -qF " fma " "$tmp/err" || fail "--kernel nosuch.ini: fma not listed: $(cat "$tmp/err")"

# A pure-FFMA report has no memory rows; a chase report has them.
"$bin" run --kernel fma "${short[@]}" --no-whatif >"$tmp/fma.txt" || fail "fma report"
! grep -qE 'Memory Level|Load Latency|Loads In Flight|Memory Bandwidth' "$tmp/fma.txt" ||
  fail "pure-FFMA report shows memory rows: $(grep -E 'Memory|Latency' "$tmp/fma.txt")"
"$bin" run --kernel chase "${short[@]}" --no-whatif >"$tmp/chase.txt" || fail "chase report"
grep -q 'Memory Level  *dram' "$tmp/chase.txt" && grep -q 'Avg. Global Load Latency' "$tmp/chase.txt" ||
  fail "chase report lacks its memory rows"
ok

# One meaning of ILP.
"$bin" run --kernel chase --set stream.ilp=4 "${short[@]}" --format csv >"$tmp/out" 2>"$tmp/err" || fail "chase ilp 4"
[ "$(col ilp "$tmp/out"),$(col loads_in_flight "$tmp/out")" = "4,1" ] || fail "chase ilp=4: columns"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'warning: .*stream.ilp=4 has no effect.*stream.loads=1' "$tmp/err" ||
  fail "chase stream.ilp=4 alone: no warning: $(cat "$tmp/err")"
ok
for args in "--kernel chase --set stream.ilp=4 --set stream.loads=4" "--kernel chase --set stream.loads=4" \
  "--kernel fma --set stream.ilp=4" "--kernel stream --set stream.ilp=2 --set stream.fma=2"; do
  # shellcheck disable=SC2086
  "$bin" run $args "${short[@]}" --format csv >"$tmp/out" 2>"$tmp/err" || fail "$args"
  [ ! -s "$tmp/err" ] || fail "$args: unexpected warning: $(cat "$tmp/err")"
  [ "$(col loads_in_flight "$tmp/out")" = "$(col loads "$tmp/out")" ] || fail "$args: loads_in_flight"
  ok
done

# --units device: the per-SM rate x SMs x clock.
"$bin" run --kernel stream --set stream.loads=2 --set stream.ilp=2 --set stream.fma=2 "${short[@]}" \
  --units device --format csv >"$tmp/out" || fail "--units device"
sms=$(awk -F= '$1 == "sms" { print $2 }' "$root/models/h200.ini")
mhz=$(awk -F= '$1 == "clock_mhz" { print $2 }' "$root/models/h200.ini")
awk -v b="$(col bytes_per_cycle "$tmp/out")" -v g="$(col device_gb_per_s "$tmp/out")" -v s="$sms" -v m="$mhz" \
  'BEGIN { want = b * s * m / 1000; d = g - want; exit !(want > 1000 && (d < 0 ? -d : d) < 0.0006 * s * m / 1000 + 0.05) }' ||
  fail "device GB/s $(col device_gb_per_s "$tmp/out") != $(col bytes_per_cycle "$tmp/out") x $sms x $mhz MHz"
"$bin" run --kernel fma --set stream.ilp=4 --set stream.fma=128 "${short[@]}" --units device --format csv >"$tmp/out" ||
  fail "--units device fma"
awk -v f="$(col fma_per_cycle "$tmp/out")" -v t="$(col device_fp32_tflops "$tmp/out")" -v s="$sms" -v m="$mhz" \
  'BEGIN { want = f * 64 * s * m / 1e6; d = t - want; exit !(want > 10 && (d < 0 ? -d : d) < 0.01) }' ||
  fail "device TFLOP/s $(col device_fp32_tflops "$tmp/out") != $(col fma_per_cycle "$tmp/out") x 64 x $sms x $mhz MHz"
"$bin" run --kernel fma "${short[@]}" --units device --no-whatif | grep -q "^  device rates: .* GB/s global loads, .* TFLOP/s" ||
  fail "--units device: no device line in the text report"
"$bin" run --kernel fma "${short[@]}" --format csv | head -1 | grep -q device_ && fail "device columns without --units device"
ok
bad "--units bogus" "--units" -- "$bin" run --kernel fma --units bogus

# bench.sh argument errors: one line, exit 2, no build, no run.
bad "bench --repeat" "--repeat needs a value" -- env WARPSIM="$bin" "$root/scripts/bench.sh" --repeat
bad "bench --repeat 0" "not a count" -- env WARPSIM="$bin" "$root/scripts/bench.sh" --repeat 0
bad "bench --bogus" "unknown argument" -- env WARPSIM="$bin" "$root/scripts/bench.sh" --bogus
bad "bench --curves bogus" "no kernel 'bogus'" -- env WARPSIM="$bin" "$root/scripts/bench.sh" --curves bogus
bad "bench --curves a;b" "--curves: 'a;b'" -- env WARPSIM="$bin" "$root/scripts/bench.sh" --curves 'a;b'
bad "bench --ips 0" "not host instructions per second" -- env WARPSIM="$bin" "$root/scripts/bench.sh" --ips 0
# validate_real.sh --print-jobs: one line per measured point (store4f4 has
# one per row of real8/curves.csv), six tab-separated fields, the launch of
# that row; bench.sh's curves run exactly those points.
WARPSIM="$bin" "$root/scripts/validate_real.sh" --print-jobs >"$tmp/jobs" || fail "--print-jobs"
want=$(grep -c '^store4f4,' "$root/results/reference/h200/real8/curves.csv")
[ "$(grep -c "^store4f4$(printf '\t')" "$tmp/jobs")" -eq "$want" ] || fail "--print-jobs: store4f4 points != $want"
awk -F'\t' 'NF != 6 { exit 1 }' "$tmp/jobs" || fail "--print-jobs: a line without 6 fields"
grep -qP '^store4f4\t2\t.*launch\.blocks_per_sm=2 --set launch\.blocks=264 ' "$tmp/jobs" ||
  fail "--print-jobs: store4f4 at B = 2 is not 2 blocks per SM x 132 SMs"
env WARPSIM="$bin" "$root/scripts/bench.sh" --no-fixed --curves store4f4 >"$tmp/out" 2>/dev/null
awk -v n="$want" '$1 == "store4f4" && $2 == n && $3 > 0 { found = 1 } END { exit !found }' "$tmp/out" ||
  fail "bench.sh --curves store4f4: no row of $want points: $(cat "$tmp/out")"
ok
# Paths in warnings as a user reads them: ghist's listing is
# traces/../results/reference/h200/real5/sass/kernels5.sass (its [sass]
# file, from the kernel file's folder): run from the source tree it is
# results/..., from elsewhere the absolute path without "..", and through a
# symbolic link (where ".." leaves the link's target) as written.
w="global atomics (19.0 % of the warp instructions)"
(cd "$root" && "$bin" run --kernel ghist_sass --format csv --no-whatif) 2>"$tmp/err" >/dev/null || fail "ghist"
grep -q "^warpsim: warning: results/reference/h200/real5/sass/kernels5.sass:675: '[^']*': $w" "$tmp/err" &&
  ok || fail "ghist from the tree: $(cut -c1-160 "$tmp/err")"
(cd "$tmp" && "$bin" run --kernel "$root/traces/../traces/ghist_sass.ini" --format csv --no-whatif) \
  2>"$tmp/err" >/dev/null || fail "ghist from $tmp"
grep -qF "warpsim: warning: $root/results/reference/h200/real5/sass/kernels5.sass:675: " "$tmp/err" &&
  ! grep -q '/\.\./' "$tmp/err" && ok || fail "ghist from elsewhere: $(cut -c1-160 "$tmp/err")"
mkdir "$tmp/t" && ln -s "$root/traces" "$tmp/t/link"
(cd "$tmp" && "$bin" run --kernel t/link/ghist_sass.ini --format csv --no-whatif) 2>"$tmp/err" >/dev/null ||
  fail "ghist through a link"
grep -qF "warpsim: warning: t/link/../results/reference/h200/real5/sass/kernels5.sass:675: " "$tmp/err" &&
  ok || fail "ghist through a link: $(cut -c1-160 "$tmp/err")"
# README's minimal kernel file (its ini block, with saxpy's listing and
# exports under the names it uses) runs the default launch, not the
# profiled one, and the report says both as README quotes them: 16 CTAs/SM
# resident (64 warps of 128 threads), grid 2112 (one wave of 132 SMs), and
# the profiled launch from the details export (grid 1056, 28160 B, 8).
mkdir "$tmp/mine" && r=$root/results/reference/h200/real
cp "$r/sass/saxpy.sass" "$tmp/mine/app.sass" && cp "$r/ncu/saxpy_source_b8.csv" "$tmp/mine/my_kernel_source.csv" &&
  cp "$r/ncu/details_full_b8.csv" "$tmp/mine/details.csv" || fail "copy saxpy's files"
awk '/^```ini$/ { f = 1; next } f && /^```$/ { exit } f' "$root/README.md" |
  sed 's/^function=my_kernel$/function=k_saxpy/' >"$tmp/mine/my.ini"
grep -q '^threads_per_block=128$' "$tmp/mine/my.ini" && ! grep -q '^blocks' "$tmp/mine/my.ini" ||
  fail "README's minimal file: $(cat "$tmp/mine/my.ini")"
"$bin" run --kernel "$tmp/mine/my.ini" --no-whatif >"$tmp/mine/out" 2>"$tmp/err" || fail "minimal file: $(cat "$tmp/err")"
readme=$(tr '\n' ' ' <"$root/README.md" | tr -s ' ')
for q in "launch: 128 threads/CTA, 32 regs/thread, 16 CTAs/SM resident" \
  "the profiled launch simulated: 128 threads/CTA, grid 1056, 32 regs/thread, 0 + 28160 B shared memory per CTA, 8 CTAs/SM"; do
  grep -qF -- "$q" "$tmp/mine/out" || fail "minimal file: the report lacks '$q'"
  grep -qF -- "$q" <<<"$readme" || fail "README does not quote '$q'"
  ok
done
grep -q '^    Grid Size  *block  *2112$' "$tmp/mine/out" && grep -qF 'Grid Size ... 2112' <<<"$readme" && ok ||
  fail "minimal file: grid not 2112 or README does not say so"
# run.sh argument errors: one line, exit 2, before any build or sweep.
bad "run.sh --model" "--model needs a value" -- "$root/scripts/run.sh" --model
bad "run.sh --bogus" "unknown argument '--bogus'" -- "$root/scripts/run.sh" --bogus
bad "run.sh --out a:b" "a ':' in the path" -- "$root/scripts/run.sh" --out "$tmp/a:b"
[ ! -e "$tmp/a:b" ] || fail "run.sh --out a:b created the folder"
echo "$passed passed, 0 failed"
