#!/usr/bin/env bash
# cli_sass_fatbin.sh - a listing of a fat binary (cuobjdump -sass of one
# with sm_90 and sm_80 code: the H200 saxpy listing, then the sm_80 one of
# results/reference/sass_other, each after its `arch = sm_XX` header) runs
# the section of the --model's GPU: on a100 (8.0) the sm_80 section, with
# the cycles and registers of the sm_80 listing alone and no warning; on
# rtx3090 (8.6) the sm_80 one by binary compatibility, its one warning
# naming its line in the fat listing (254 lines of the sm_90 listing + its
# line 2526); on h200 the sm_90 section, as the sm_90 listing alone; on b200
# (10.0), which runs neither, one line naming both sections and the model,
# exit 2, nothing on stdout.  sass-coverage of the fat listing reads the
# same sections.  Needs WARPSIM_BIN and WARPSIM_ROOT (CTest).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?}
. "$root/tests/common.sh"
l90=$root/results/reference/h200/real/sass/saxpy.sass
l80=$root/results/reference/sass_other/sm_80/real_kernels.sass
cat "$l90" "$l80" >"$tmp/fat.sass"
n90=$(wc -l <"$l90")
at80=$(grep -n 'Function : _Z7k_saxpyPfPKffiP3RecS_' "$l80" | cut -d: -f1)
[ "$n90" = 254 ] && [ "$at80" = 2526 ] || fail "the listings changed: $n90 lines, k_saxpy at $at80"
kernel() { # NAME LISTING: the sm_80 saxpy kernel file (trip counts, launch) on LISTING
  sed "s|^file=.*|file=$2|" "$root/traces/saxpy_sm80_sass.ini" >"$tmp/$1.ini"
}
kernel fat "$tmp/fat.sass"
kernel k80 "$l80"
kernel k90 "$l90"
run() { # MODEL NAME: "cycles regs_per_thread" on stdout, stderr in $tmp/err
  "$bin" run --model "$1" --kernel "$tmp/$2.ini" --format csv --no-whatif 2>"$tmp/err" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["cycles"], $c["regs_per_thread"] }'
}
for m in a100 rtx3090; do
  want=$(run "$m" k80) && [ -n "$want" ] || fail "$m: the sm_80 listing alone does not run: $(cat "$tmp/err")"
  got=$(run "$m" fat) || fail "$m: the fat listing does not run: $(cat "$tmp/err")"
  [ "$got" = "$want" ] || fail "$m: fat listing '$got', sm_80 listing alone '$want'"
  ok
done
: # (the last run was rtx3090's: its compatibility warning, once)
[ "$(grep -c 'runs on model' "$tmp/err")" = 1 ] || fail "rtx3090: not one warning: $(cat "$tmp/err")"
grep -qF "fat.sass:$((n90 + at80)): function '_Z7k_saxpyPfPKffiP3RecS_' is compiled for sm_80 and runs on model 'rtx3090' (compute capability 8.6) unchanged" "$tmp/err" ||
  fail "rtx3090: warning: $(cat "$tmp/err")"
ok
run a100 fat >/dev/null
[ ! -s "$tmp/err" ] || fail "a100: said something: $(cat "$tmp/err")"
ok
want=$(run h200 k90) && [ -n "$want" ] || fail "h200: the sm_90 listing alone does not run: $(cat "$tmp/err")"
got=$(run h200 fat)
[ "$got" = "$want" ] || fail "h200: fat listing '$got', sm_90 listing alone '$want'"
[ ! -s "$tmp/err" ] || fail "h200: said something: $(cat "$tmp/err")"
ok
rc=0
"$bin" run --model b200 --kernel "$tmp/fat.ini" --format csv >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] || fail "b200: exit $rc (want 2)"
[ ! -s "$tmp/out" ] || fail "b200: wrote to stdout"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "b200: not one line: $(cat "$tmp/err")"
grep -qF "fat.sass:12: function '_Z7k_saxpyPfPKffiP3RecS_' has 2 sections, for sm_90 (line 12) and sm_80 (line $((n90 + at80))), none of which model 'b200' (compute capability 10.0) can run" "$tmp/err" ||
  fail "b200: $(cat "$tmp/err")"
ok
# sass-coverage of the fat listing read each function's every section and
# refused the one the model's GPU does not run ("fat.sass:12: function
# '_Z7k_saxpyPfPKffiP3RecS_' is compiled for sm_90, which model 'a100' ...
# cannot run", exit 2), even with --function k_saxpy.  It takes the section
# `run` takes: on a100 (and by default, from the first section's sm_90, on
# h200) k_saxpy's rows are those of its listing alone, counts, classes and
# timings, the first lines in the fat listing's numbering (254 lines of the
# sm_90 listing ahead of the sm_80 one).
covered() { # NAME LISTING ARGS...: sass-coverage's CSV, stderr in $tmp/err
  "$bin" sass-coverage "$2" --function k_saxpy --format csv "${@:3}" >"$tmp/$1.csv" 2>"$tmp/err" ||
    fail "sass-coverage $1: exit $?: $(cat "$tmp/err")"
}
covered fat90 "$tmp/fat.sass"
covered one90 "$l90"
cmp -s "$tmp/fat90.csv" "$tmp/one90.csv" || fail "sass-coverage of the fat listing on h200: not the sm_90 listing's"
ok
covered fat80 "$tmp/fat.sass" --model a100
covered one80 "$l80" --model a100
[ ! -s "$tmp/err" ] || fail "sass-coverage on a100: said something: $(cat "$tmp/err")"
# (first_line, column 3, in the fat listing: 254 more)
got=$(awk -F, -v n="$n90" 'NR > 1 { $3 -= n } { print }' OFS=, "$tmp/fat80.csv")
[ "$got" = "$(cat "$tmp/one80.csv")" ] && [ "$(wc -l <"$tmp/one80.csv")" -gt 10 ] ||
  fail "sass-coverage of the fat listing on a100: not the sm_80 listing's: $(diff <(echo "$got") "$tmp/one80.csv" | head -5)"
ok
echo "$passed passed, 0 failed"
