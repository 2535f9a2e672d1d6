#!/usr/bin/env bash
# cli_sweep.sh - scripts/sweep.sh from the outside: an interrupted (SIGINT,
# SIGTERM, SIGKILL) or failed sweep resumes to the byte-identical CSV of an
# uninterrupted one; no job outlives the sweep; --resume refuses changed
# inputs; a second sweep to the same output is refused; axis values never
# reach a shell; repeated points are dropped with a warning.  Needs
# WARPSIM_BIN and WARPSIM_ROOT (CTest sets them) and GNU parallel.
set -u

bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the source tree}
command -v parallel >/dev/null 2>&1 || { echo "GNU parallel missing: skipped"; exit 77; }
sweep=$root/scripts/sweep.sh
export WARPSIM=$bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0

fail() {
  echo "FAIL: $*" >&2
  echo "$passed passed, 1 failed"
  exit 1
}
ok() { passed=$((passed + 1)); }

# A kernel of our own (edited below): fma, with iterations scaled so that one
# run takes about 0.1 s on this build and host (a signal lands mid-sweep, and
# a sanitizer build stays quick).
cp "$root/traces/fma.ini" "$tmp/k.ini"
t0=$(date +%s%N)
"$bin" run --kernel "$tmp/k.ini" --set stream.iterations=4000 --set launch.blocks_per_sm=4 \
  --format csv >/dev/null || fail "warpsim does not run"
ms=$((($(date +%s%N) - t0) / 1000000 + 1))
iters=$((4000 * 100 / ms))
[ $iters -ge 50 ] || iters=50
[ $iters -le 100000 ] || iters=100000
args=(--kernel "$tmp/k.ini" --set stream.iterations=$iters --axis launch.blocks_per_sm=1..8 --jobs 1 --quiet)

# Processes still running with our temporary directory on their command line.
# (The pattern "$tmp[/]" does not match grep's own command line.)
procs_in_tmp() { grep -las -- "$tmp[/]" /proc/[0-9]*/cmdline | wc -l; }
rows() { find "$1.d" -maxdepth 1 -name '*.row' 2>/dev/null | wc -l; }
# no_leftovers OUT: no OUT, no lock, no temp file next to it or in its state.
no_leftovers() {
  [ ! -e "$1" ] || fail "$1 exists after an unfinished sweep"
  [ ! -e "$1.lock" ] || fail "$1.lock left behind"
  [ ! -e "$1.tmp" ] || fail "$1.tmp left behind"
  [ -z "$(find "$1.d" -name '*.tmp' 2>/dev/null)" ] || fail "a .tmp survives in $1.d"
}
# start_bg OUT [ARGS]: start a sweep in the background with job control (so it
# can be sent SIGINT), once a few rows exist; sets $pid.
start_bg() {
  local out=$1
  shift
  set -m
  "$sweep" -o "$out" "${args[@]}" "$@" 2>"$out.stderr" &
  pid=$!
  set +m
  local t
  for t in $(seq 400); do
    [ "$(rows "$out")" -ge 2 ] && return 0
    sleep 0.05
  done
  fail "no rows appeared for $out"
}
# stopped_cleanly OUT: within 6 s no job of ours runs or writes.
stopped_cleanly() {
  local t n1
  for t in $(seq 120); do
    [ "$(procs_in_tmp)" -eq 0 ] && break
    sleep 0.05
  done
  [ "$(procs_in_tmp)" -eq 0 ] || fail "$1: a job still runs after the sweep ended"
  n1=$(rows "$1")
  sleep 0.3
  [ "$(rows "$1")" -eq "$n1" ] || fail "$1: rows still appear after the sweep ended"
}

# ---- the reference: one uninterrupted sweep ------------------------------
"$sweep" -o "$tmp/ref.csv" "${args[@]}" || fail "reference sweep failed"
[ "$(wc -l <"$tmp/ref.csv")" -eq 9 ] || fail "reference: expected header + 8 rows"
no_leftovers "$tmp/none.csv"
[ ! -e "$tmp/ref.csv.d" ] && [ ! -e "$tmp/ref.csv.lock" ] || fail "reference sweep left its state"
ok

# ---- SIGINT and SIGTERM: exit 130/143, one line, resumable ----------------
for sig in INT TERM; do
  out=$tmp/$sig.csv
  start_bg "$out"
  kill -"$sig" "$pid"
  wait "$pid"
  rc=$?
  want=130
  [ $sig = TERM ] && want=143
  [ $rc -eq $want ] || fail "SIG$sig: exit $rc, expected $want: $(cat "$out.stderr")"
  [ "$(wc -l <"$out.stderr")" -eq 1 ] || fail "SIG$sig: not one line: $(cat "$out.stderr")"
  grep -q 'interrupted.*--resume' "$out.stderr" || fail "SIG$sig: message: $(cat "$out.stderr")"
  stopped_cleanly "$out"
  no_leftovers "$out"
  [ "$(rows "$out")" -lt 8 ] || fail "SIG$sig: the sweep had finished before the signal"
  "$sweep" -o "$out" "${args[@]}" --resume || fail "SIG$sig: --resume failed"
  cmp -s "$out" "$tmp/ref.csv" || fail "SIG$sig: interrupted + resumed differs from uninterrupted"
  [ ! -e "$out.d" ] || fail "SIG$sig: state left after the resumed sweep"
  ok
done

# ---- SIGKILL to the script: the watchdog stops every job -----------------
out=$tmp/kill.csv
start_bg "$out"
{
  kill -KILL "$pid"
  wait "$pid"
} 2>/dev/null
stopped_cleanly "$out"
[ -z "$(find "$out.d" -name '*.tmp')" ] || fail "SIGKILL: a .tmp survives"
"$sweep" -o "$out" "${args[@]}" --resume || fail "SIGKILL: --resume failed"
cmp -s "$out" "$tmp/ref.csv" || fail "SIGKILL: resumed CSV differs from uninterrupted"
ok

# ---- one job killed (OOM, SIGKILL): the sweep fails, --resume reruns it ---
cat >"$tmp/killer.sh" <<EOF
#!/usr/bin/env bash
# warpsim, except that the run of launch.blocks_per_sm=3 is killed once.
case " \$* " in
  *" launch.blocks_per_sm=3 "*) if mkdir "$tmp/killed" 2>/dev/null; then kill -KILL \$\$; fi ;;
esac
exec "$bin" "\$@"
EOF
chmod +x "$tmp/killer.sh"
out=$tmp/job.csv
WARPSIM=$tmp/killer.sh "$sweep" -o "$out" "${args[@]}" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "killed job: exit $rc, expected 1: $(cat "$tmp/err")"
grep -q 'point 3 (.*launch.blocks_per_sm=3).*status 137' "$tmp/err" ||
  fail "killed job: message does not name the point: $(cat "$tmp/err")"
no_leftovers "$out"
[ ! -e "$out.d/3.row" ] || fail "killed job: a row for the killed point"
WARPSIM=$tmp/killer.sh "$sweep" -o "$out" "${args[@]}" --resume || fail "killed job: --resume failed"
cmp -s "$out" "$tmp/ref.csv" || fail "killed job: resumed CSV differs from uninterrupted"
ok

# ---- --resume refuses changed inputs -------------------------------------
# state_at OUT: leave a resumable state (SIGINT after two rows).
state_at() {
  start_bg "$1"
  kill -INT "$pid"
  wait "$pid"
  [ -d "$1.d" ] || fail "no state in $1.d"
}
# refused NAME OUT NEEDLE ARGS...: --resume exits 2 naming NEEDLE, keeps the state.
refused() {
  local name=$1 out=$2 needle=$3
  shift 3
  "$sweep" -o "$out" --resume "$@" 2>"$tmp/err"
  local rc=$?
  [ $rc -eq 2 ] || fail "$name: --resume exit $rc, expected 2: $(cat "$tmp/err")"
  grep -q -- "$needle" "$tmp/err" || fail "$name: message lacks '$needle': $(cat "$tmp/err")"
  [ ! -e "$out" ] || fail "$name: wrote $out"
  [ -d "$out.d" ] || fail "$name: the state was removed"
  ok
}
out=$tmp/edit.csv
state_at "$out"
sed -i 's/^seed=.*/seed=7/' "$tmp/k.ini"
grep -q '^seed=7' "$tmp/k.ini" || fail "test setup: no seed key in the kernel file"
refused "edited kernel" "$out" "kernel" "${args[@]}"
cp "$root/traces/fma.ini" "$tmp/k.ini"
refused "other --set" "$out" "set" "${args[@]}" --set dram.latency=800
refused "other grid" "$out" "grid" "${args[@]}" --axis stream.ilp=1,2
refused "other model" "$out" "model" "${args[@]}" --model h200x 2>/dev/null || true
cp "$bin" "$tmp/warpsim-copy"
printf 'x' >>"$tmp/warpsim-copy" # same version, another binary
# a copy of the binary elsewhere finds the models and traces through the variables
WARPSIM_MODELS=$root/models WARPSIM_TRACES=$root/traces WARPSIM=$tmp/warpsim-copy refused "other binary" "$out" "binary" "${args[@]}"
# A SASS kernel's listing and profiles are inputs too: a sweep of a copy of
# v4 whose B = 2 run is killed leaves its state; an edited source export is
# refused on --resume (it was resumed with the new file mixed in).
mkdir "$tmp/sass"
cp "$root/results/reference/h200/real7/sass/kernels7.sass" "$root/results/reference/h200/real7/ncu/v4_source_b8.csv" \
  "$root/results/reference/h200/real7/ncu/details7_b8.csv" "$tmp/sass/"
sed -e 's|^file=.*|file=kernels7.sass|; s|^source_csv=.*|source_csv=v4_source_b8.csv|' \
  -e 's|^details_csv=.*|details_csv=details7_b8.csv|' "$root/traces/v4_sass.ini" >"$tmp/sass/v4.ini"
cat >"$tmp/killer2.sh" <<EOF
#!/usr/bin/env bash
# warpsim, except that every run of launch.blocks_per_sm=2 is killed.
case " \$* " in *" launch.blocks_per_sm=2 "*) kill -KILL \$\$ ;; esac
exec "$bin" "\$@"
EOF
chmod +x "$tmp/killer2.sh"
sargs=(--kernel "$tmp/sass/v4.ini" --axis launch.blocks_per_sm=1,2 --jobs 1 --quiet)
WARPSIM=$tmp/killer2.sh "$sweep" -o "$tmp/sass.csv" "${sargs[@]}" 2>"$tmp/err"
[ $? -eq 1 ] && [ -d "$tmp/sass.csv.d" ] || fail "SASS sweep with a killed point: $(cat "$tmp/err")"
echo >>"$tmp/sass/v4_source_b8.csv" # still a good export, another file
WARPSIM=$tmp/killer2.sh refused "edited source export" "$tmp/sass.csv" "SASS listing and profiles" "${sargs[@]}"
"$sweep" -o "$out" "${args[@]}" --resume || fail "unchanged inputs: --resume failed"
cmp -s "$out" "$tmp/ref.csv" || fail "unchanged inputs: resumed CSV differs"
ok

# ---- a second sweep to the same output is refused ------------------------
out=$tmp/lock.csv
start_bg "$out"
"$sweep" -o "$out" "${args[@]}" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "concurrent sweep: exit $rc, expected 2: $(cat "$tmp/err")"
grep -q "another sweep (pid $pid) is writing" "$tmp/err" || fail "concurrent: message: $(cat "$tmp/err")"
"$sweep" -o "$out" "${args[@]}" --resume 2>"$tmp/err"
[ $? -eq 2 ] || fail "concurrent --resume was not refused"
wait "$pid" || fail "the first sweep failed after a second was refused: $(cat "$out.stderr")"
cmp -s "$out" "$tmp/ref.csv" || fail "concurrent: the first sweep's CSV differs from the reference"
[ ! -e "$out.lock" ] || fail "lock left behind"
ok

# ---- hostile axis values: exit 2, nothing runs, nothing written ----------
cd "$tmp" || fail "cd $tmp"
for v in '1,2$(touch PWNED)' '1,`touch PWNED`' '1;touch PWNED' '1,2;touch${IFS}PWNED' "1,2'" \
  '1,2|touch PWNED' '1,$(touch${IFS}PWNED)' '1,2>PWNED' $'1,2\ntouch PWNED'; do
  "$sweep" -o "$tmp/h.csv" --kernel fma --axis "launch.blocks_per_sm=$v" --quiet 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] || fail "hostile '$v': exit $rc, expected 2: $(cat "$tmp/err")"
  [ ! -e "$tmp/PWNED" ] && [ ! -e "$root/PWNED" ] || fail "hostile '$v': a command ran"
  [ ! -e "$tmp/h.csv" ] && [ ! -e "$tmp/h.csv.d" ] && [ ! -e "$tmp/h.csv.lock" ] ||
    fail "hostile '$v': left files"
  ok
done
# A ';' value reaches warpsim literally: a list for a list key, refused for a number.
"$sweep" -o "$tmp/h.csv" --kernel fma --set stream.iterations=8 --axis 'launch.blocks_per_sm=1;2' \
  --quiet 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "blocks_per_sm.*'1;2'" "$tmp/err" || fail "'1;2' as a number: $(cat "$tmp/err")"
"$sweep" -o "$tmp/h.csv" --kernel fma --set stream.iterations=8 \
  --axis 'sm.smem_configs=0;233472,0;8192;233472' --quiet || fail "list value sm.smem_configs=0;233472"
[ "$(wc -l <"$tmp/h.csv")" -eq 3 ] || fail "list values: expected 2 rows"
# Same for --set, and a key named twice by --set.
"$sweep" -o "$tmp/h.csv" --kernel fma --set 'stream.ilp=$(touch PWNED)' --axis launch.blocks_per_sm=1 \
  2>/dev/null
[ $? -eq 2 ] && [ ! -e "$tmp/PWNED" ] || fail "hostile --set"
"$sweep" -o "$tmp/h.csv" --kernel fma --set stream.ilp=1 --set stream.ilp=2 \
  --axis launch.blocks_per_sm=1 2>/dev/null
[ $? -eq 2 ] || fail "a key set twice by --set was accepted"
# An out-of-range axis value, last of its list or the end of a range, is
# refused before any point runs (it used to stop the sweep after the others).
for ax in 'launch.threads_per_block=32,64,2048' 'launch.threads_per_block=1000..1025'; do
  "$sweep" -o "$tmp/r.csv" --kernel fma --set stream.iterations=8 --axis "$ax" --quiet 2>"$tmp/err"
  [ $? -eq 2 ] && grep -q "value '[0-9]*': .*threads_per_block.*allowed 1..1024" "$tmp/err" ||
    fail "out-of-range axis '$ax': $(cat "$tmp/err")"
  [ ! -e "$tmp/r.csv" ] && [ ! -e "$tmp/r.csv.d" ] || fail "out-of-range axis '$ax': left files"
done
# --jobs 0 (GNU parallel: as many at once as it can start, hundreds on a
# large grid), 0 %, a 20-digit count and an empty value were passed on (the
# empty one as the default); each is refused now, naming the range.
for j in 0 0% 99999999999999999999 10000 ''; do
  "$sweep" -o "$tmp/r.csv" --kernel fma --set stream.iterations=8 --axis launch.blocks_per_sm=1 \
    --jobs "$j" --quiet 2>"$tmp/err"
  [ $? -eq 2 ] && grep -qF "sweep.sh: --jobs '$j': expected a number of jobs (allowed 1..9999, or 1%..9999% of the cores)" "$tmp/err" ||
    fail "--jobs '$j': $(cat "$tmp/err")"
  [ ! -e "$tmp/r.csv" ] && [ ! -e "$tmp/r.csv.d" ] || fail "--jobs '$j': left files"
done
# Two axes whose values are fine alone but not together (60000 B of dynamic
# shared memory without the opt-in): refused before any point runs, where
# the sweep ran the points before the pair and stopped ("3 of 4 points done").
"$sweep" -o "$tmp/r.csv" --kernel fma --set stream.iterations=8 --axis launch.optin=true,false \
  --axis launch.smem_dynamic=0,60000 --quiet 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "values 'false' and '60000' together: .*cannot launch" "$tmp/err" ||
  fail "a pair of axis values refused together: $(cat "$tmp/err")"
[ ! -e "$tmp/r.csv" ] && [ ! -e "$tmp/r.csv.d" ] || fail "a pair of axis values: left files"
"$sweep" -o "$tmp/r.csv" --kernel fma --set stream.ilp= --axis launch.blocks_per_sm=1 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "stream.ilp=': empty value" "$tmp/err" || fail "empty --set: $(cat "$tmp/err")"
"$sweep" -o "$tmp/r.csv" --kernel fma --axis 'stream.ilp=1,,2' 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "1,,2': empty value" "$tmp/err" && [ ! -e "$tmp/r.csv" ] ||
  fail "empty axis item: $(cat "$tmp/err")"
"$sweep" -o "$tmp/r.csv" --kernel fma --axis 'stream.ilp=1,2,' 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "1,2,': empty value after the last ','" "$tmp/err" && [ ! -e "$tmp/r.csv" ] ||
  fail "empty last axis item: $(cat "$tmp/err")"
ok

# ---- repeated points: dropped with a warning -----------------------------
"$sweep" -o "$tmp/d.csv" --kernel fma --set stream.iterations=16 --axis stream.ilp=1,2 \
  --axis stream.ilp=1,2 --quiet 2>"$tmp/err" || fail "same key on two axes: $(cat "$tmp/err")"
grep -q 'warning: stream.ilp is on two axes' "$tmp/err" || fail "two axes: no warning: $(cat "$tmp/err")"
grep -q 'warning: dropped 2 grid point' "$tmp/err" || fail "two axes: no drop warning: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/d.csv")" -eq 3 ] || fail "two axes: expected 2 rows"
# 128-thread CTAs: 16 resident at most, so caps 15..20 give 15, 16, 16, 16, 16, 16.
"$sweep" -o "$tmp/d.csv" --kernel fma --set stream.iterations=16 --axis launch.blocks_per_sm=15..20 \
  --quiet 2>"$tmp/err" || fail "capped points: $(cat "$tmp/err")"
grep -q 'warning: dropped 4 point(s) whose row repeats' "$tmp/err" || fail "capped: $(cat "$tmp/err")"
[ "$(cut -d, -f8 "$tmp/d.csv" | tr '\n' ' ')" = "blocks_per_sm 15 16 " ] || fail "capped: rows"
ok

# -o names something that is no regular file (a pipe, a link): refused, and
# left as it was (the CSV is renamed into place, which would replace it).
mkfifo "$tmp/fifo"
ln -s "$tmp/elsewhere.csv" "$tmp/link.csv"
for o in "$tmp/fifo" "$tmp/link.csv"; do
  rc=0
  "$sweep" -o "$o" "${args[@]}" >/dev/null 2>"$tmp/err" || rc=$?
  [ "$rc" -eq 2 ] && grep -q "is not a regular file" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] ||
    fail "-o $o: exit $rc: $(cat "$tmp/err")"
  ok
done
[ -p "$tmp/fifo" ] && [ -L "$tmp/link.csv" ] && [ ! -e "$tmp/elsewhere.csv" ] || fail "-o replaced a pipe or a link"
ok

# A warning of the runs themselves (transpose_pad: the pure model x1.29 off
# its profile, anchor dropped) is said once, from point 1; it was dropped.
"$sweep" -o "$tmp/tp.csv" --kernel "$root/traces/transpose_pad_sass.ini" \
  --axis launch.blocks_per_sm=4,8 2>"$tmp/tp.err" || fail "transpose_pad sweep: $(cat "$tmp/tp.err")"
[ "$(grep -c '^sweep.sh: warning (point 1): transpose_pad_sass: at the profiled launch .*do not trust this curve' "$tmp/tp.err")" = 1 ] ||
  fail "transpose_pad sweep: the agreement warning not said once: $(cat "$tmp/tp.err")"
ok

echo "$passed passed"
