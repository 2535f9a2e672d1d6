#!/usr/bin/env bash
# cli_sass_models.sh - every shipped model (warpsim models) against every
# shipped SASS kernel (traces/*_sass.ini).  What each pair must do is worked
# out here from the listing's architecture line and the model's compute
# capability, by CUDA's binary-compatibility rule (sass.h): a model whose
# major version is the listing's and whose minor is the same or higher runs
# it (exit 0, cycles > 0; one warning naming the listing's architecture when
# the minor is higher, none otherwise); any other model refuses it with exit
# 2, nothing on stdout and one line naming the listing's sm_XX, the model and
# its compute capability.  At least the H200 and H100 must run something,
# and at least 12 models must refuse something, so the loop cannot pass
# empty.
# Then `warpsim sass-coverage`: every opcode of every SASS
# listing in the repository (results/ and traces/: cuobjdump/nvdisasm files,
# and the excerpts without headers, such as results/reference/h200/
# sass_fma.txt, rebuilt here into a listing of their first instruction per
# opcode) is in a [class_*] group of the model of its architecture (and so
# of every model: their opcode lists are checked to be the same);
# the command's counts equal a count made here with grep; CSV, JSON and text
# agree on the opcodes, and the text names the opcodes whose timing is only
# assumed; an opcode in no class is refused (exit 2, nothing on
# stdout, one line naming it and its line) unless --allow-unclassed, which
# lists it as unclassed; a listing the model cannot run is refused naming
# both.  Needs WARPSIM_BIN and WARPSIM_ROOT (CTest sets them).
set -u
bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the repository}
. "$root/tests/common.sh"

"$bin" models --csv | tail -n +2 | cut -d, -f1,2 >"$tmp/models" || fail "warpsim models"
[ "$(wc -l <"$tmp/models")" -ge 15 ] || fail "fewer than 15 models listed"
ran=0 refused=0
: >"$tmp/ran_models"
: >"$tmp/refusing_models"
for kfile in "$root"/traces/*_sass.ini; do
  k=$(basename "$kfile" .ini)
  listing=$(sed -n 's/^file=//p' "$kfile" | head -1)
  [ -n "$listing" ] || fail "$k: no [sass] file="
  case $listing in /*) ;; *) listing=$(dirname "$kfile")/$listing ;; esac
  arch=$(grep -o -m1 -E '(code for|arch =|\.target)[[:space:]]+sm_[0-9]+' "$listing" | grep -o -E '[0-9]+$')
  [ -n "$arch" ] || fail "$k: no architecture line in $listing"
  lmaj=$((arch / 10)) lmin=$((arch % 10))
  while IFS=, read -r m cc; do
    mmaj=${cc%.*} mmin=${cc#*.}
    timeout 120 "$bin" run --kernel "$kfile" --model "$m" --format csv --no-whatif \
      >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$lmaj" -eq "$mmaj" ] && [ "$lmin" -le "$mmin" ]; then
      [ "$rc" -eq 0 ] || fail "$k on $m (cc $cc, listing sm_$arch): exit $rc: $(head -c 400 "$tmp/err")"
      awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cycles") c = i }
               NR == 2 { exit !(c && $c > 0) }' "$tmp/out" || fail "$k on $m: no cycles"
      if [ "$lmin" -lt "$mmin" ]; then
        grep -qF "is compiled for sm_$arch and runs on model '$m' (compute capability $cc) unchanged" "$tmp/err" ||
          fail "$k on $m: no binary-compatibility warning: $(head -c 400 "$tmp/err")"
      else
        ! grep -q "runs on model" "$tmp/err" || fail "$k on $m: warned although the architectures match"
      fi
      ran=$((ran + 1))
      echo "$m" >>"$tmp/ran_models"
    else
      [ "$rc" -eq 2 ] || fail "$k on $m (cc $cc, listing sm_$arch): exit $rc, expected 2"
      [ ! -s "$tmp/out" ] || fail "$k on $m: refused but wrote to stdout"
      [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$k on $m: not one line on stderr: $(head -c 600 "$tmp/err")"
      grep -qF "is compiled for sm_$arch, which model '$m' (compute capability $cc) cannot run" "$tmp/err" ||
        fail "$k on $m: refusal does not name both: $(cat "$tmp/err")"
      refused=$((refused + 1))
      echo "$m" >>"$tmp/refusing_models"
    fi
    passed=$((passed + 1))
  done <"$tmp/models"
done
grep -qx h200 "$tmp/ran_models" && grep -qx h100 "$tmp/ran_models" || fail "h200 or h100 ran no SASS kernel"
[ "$(sort -u "$tmp/refusing_models" | wc -l)" -ge 12 ] || fail "fewer than 12 models refused a kernel"
# warpsim models' sass column: every model that ran a listing above says
# yes, and the models that say yes are those doc/models_sass.md lists.
"$bin" models --csv | awk -F, 'NR > 1 && $5 == "yes" { print $1 }' >"$tmp/sass_yes"
for m in $(sort -u "$tmp/ran_models"); do
  grep -qx "$m" "$tmp/sass_yes" || fail "model $m ran a SASS kernel but warpsim models says sass no"
done
[ "$(sort "$tmp/sass_yes" | paste -sd' ' -)" = "a100 b200 gb10 h100 h200 orin rtx3090 rtx4090 rtx5090" ] ||
  fail "warpsim models sass yes: $(paste -sd' ' - <"$tmp/sass_yes")"
# The text listing's columns align: every row's file starts where the header's does.
"$bin" models >"$tmp/models.txt"
col=$(head -1 "$tmp/models.txt" | awk '{ print index($0, " file") + 1 }')
awk -v c="$col" 'NR > 1 && /\.ini$/ && substr($0, c, 1) != "/" { bad = 1; print "misaligned: " $0 } END { exit bad }' \
  "$tmp/models.txt" || fail "warpsim models: columns misaligned"
passed=$((passed + 3))

# ---- sass-coverage ----------------------------------------------------------
ins='^[[:space:]]*/\*[0-9a-fA-F]{4,}\*/[[:space:]]+[@A-Z]' # (grep -E; mawk has no {4,})

# covered LISTING MODEL: sass-coverage exits 0 with a CSV row per opcode.
covered() {
  "$bin" sass-coverage "$1" --model "$2" --format csv >"$tmp/cov.csv" 2>"$tmp/err" ||
    fail "$1 on $2: $(head -c 600 "$tmp/err")"
  [ "$(tail -n +2 "$tmp/cov.csv" | cut -d, -f5 | sort -u)" = true ] || fail "$1 on $2: an opcode not classed"
  passed=$((passed + 1))
}

# Every model that has opcode classes classes the same opcodes (a model may
# put one in another class: h200's measured [class_imad], I2FP and POPC), so a
# listing classed under its architecture's model is classed under every model.
ref_ops=
for f in "$root"/models/*.ini; do
  grep -q '^\[class_fp32\]' "$f" || continue
  ops=$(awk '/^\[class_/ { g = $0 } /^opcodes=/ && g { sub(/^opcodes=/, ""); print }' "$f" | tr ';' '\n' |
    sort)
  [ -n "$ref_ops" ] || ref_ops=$ops
  [ "$ops" = "$ref_ops" ] || fail "$f: [class_*] opcodes differ from the other models'"
  passed=$((passed + 1))
done
n_listings=0 n_excerpts=0
while IFS= read -r f; do
  grep -qE "$ins" "$f" || continue
  if grep -qE '(Function : |^[[:space:]]*\.text\.)' "$f"; then
    arch=$(grep -o -m1 -E '(code for|arch =|\.target)[[:space:]]+sm_[0-9]+' "$f" | grep -o -E '[0-9]+$')
    [ -n "$arch" ] || fail "$f: no architecture line"
    covered "$f" "sm_$arch"
    n_listings=$((n_listings + 1))
  else
    # An excerpt (=== name, then instructions): its first instruction of each
    # opcode, each with a control word, as one cuobjdump function.
    awk '
      BEGIN { printf "\tcode for sm_90\n\t\tFunction : excerpt\n" }
      /^[ \t]*\/\*[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]+\*\/[ \t]+[@A-Z]/ {
        t = $0; sub(/^[[:space:]]*\/\*[0-9a-fA-F]+\*\/[[:space:]]+/, "", t); sub(/[[:space:]]*;.*/, "", t)
        op = t; sub(/^@!?U?P[T0-9][[:space:]]+/, "", op); sub(/[. ].*/, "", op)
        if (op in seen) next
        seen[op] = 1
        printf "        /*%04x*/ %s ; /* 0x0000000000007b82 */\n                  /* 0x000fe20000000800 */\n", 16 * n++, t
      }' "$f" >"$tmp/excerpt.sass"
    covered "$tmp/excerpt.sass" h200
    n_excerpts=$((n_excerpts + 1))
  fi
done < <(find "$root/results" "$root/traces" -type f \( -name '*.sass' -o -name '*.txt' \) | sort)
[ "$n_listings" -ge 70 ] || fail "only $n_listings listings found"
[ "$n_excerpts" -ge 2 ] || fail "only $n_excerpts excerpts found"

# Counts: IMAD and LDG instructions of saxpy, counted here (an opcode's rows:
# its own and those of the opcode_timing items that time some of it, such as
# IMAD.WIDE).
saxpy=$root/results/reference/h200/real/sass/saxpy.sass
"$bin" sass-coverage "$saxpy" --format csv >"$tmp/s.csv" || fail "saxpy coverage"
for op in IMAD LDG STG FFMA; do
  want=$(grep -cE "^[[:space:]]*/\*[0-9a-f]{4}\*/[[:space:]]+(@!?P[T0-9][[:space:]]+)?$op[ .]" "$saxpy")
  got=$(awk -F, -v op="$op" '$1 == op || index($1, op ".") == 1 { n += $2 } END { print n + 0 }' "$tmp/s.csv")
  [ "$got" = "$want" ] || fail "saxpy $op: count $got, grep counts $want"
  passed=$((passed + 1))
done
grep -q '^IMAD,[0-9]*,[0-9]*,imad,true,4,2,"measured: results/reference/h200/matrix/int.csv\[op=imad,chains=1' "$tmp/s.csv" &&
  grep -q '^IMAD.WIDE,[0-9]*,[0-9]*,imad,true,9,5,"measured: results/reference/h200/matrix/int.csv\[op=imad_hi' "$tmp/s.csv" ||
  fail "saxpy IMAD row: $(grep '^IMAD' "$tmp/s.csv")"
"$bin" sass-coverage "$saxpy" --format json >"$tmp/s.json" || fail "saxpy json"
"$bin" sass-coverage "$saxpy" >"$tmp/s.txt" || fail "saxpy text"
[ "$(grep -c '"opcode" :' "$tmp/s.json")" -eq "$(($(wc -l <"$tmp/s.csv") - 1))" ] || fail "JSON and CSV differ in opcodes"
grep -q "SASS coverage of $saxpy: 1 function, .* instructions, $(($(wc -l <"$tmp/s.csv") - 1)) opcodes" "$tmp/s.txt" ||
  fail "text header: $(head -1 "$tmp/s.txt")"
# (I2F's conversion latency is measured since matrix/conv.csv: not listed)
# (the list wraps at 100 columns, continued 4 spaces in: joined here)
sed -n '/^  assumed timing/,$p' "$tmp/s.txt" >"$tmp/assumed.txt"
sed '2,$s/^   //' "$tmp/assumed.txt" | tr -d '\n' >"$tmp/assumed1.txt"
grep -q "^  assumed timing (no measurement, citation or fit): BAR (latency, interval), .*LDG (interval)" "$tmp/assumed1.txt" &&
  ! grep -q "^  assumed timing.*I2F" "$tmp/assumed1.txt" ||
  fail "text: the assumed-timing line: $(cat "$tmp/assumed1.txt")"
! grep -q "assumed timing.* FFMA " "$tmp/assumed1.txt" || fail "text: FFMA (measured) among the assumed"
[ "$(wc -l <"$tmp/assumed.txt")" -gt 1 ] || fail "text: assumed-timing list on one line"
! grep -q '^.\{101,\}' "$tmp/assumed.txt" || fail "text: assumed-timing line over 100 columns"
! tail -n +2 "$tmp/assumed.txt" | grep -qv '^    [A-Z]' || fail "text: assumed-timing continuation not 4 spaces in"
# Text table rows fit a terminal: a source cell is at most 48 characters (9
# columns of 9, 5, 7, 7, 8, 48, 48 plus 4 of indent and 6 spaces: 142), a cut
# one ends in "..." with the note below; the CSV keeps the longest whole.
longest=$(cut -d, -f8- "$tmp/s.csv" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
[ "$longest" -gt 142 ] || fail "saxpy CSV: no source longer than a text cell ($longest)"
wide=$(grep '^    ' "$tmp/s.txt" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
[ "$wide" -le 142 ] || fail "text table row $wide characters wide (allowed <= 142)"
grep -q '\.\.\. ' "$tmp/s.txt" && grep -q '^  sources longer than 48 characters end in "...": --format csv or json gives them whole$' "$tmp/s.txt" ||
  fail "text: no cut source or no note"
# The table's units are said under it (cycles, and what count counts).
grep -qx "  count: the opcode's instructions in the listing; latency and interval in SM" "$tmp/s.txt" &&
  grep -qx "    cycles (interval: between two of them issued to the class's pipe on one SMSP)" "$tmp/s.txt" ||
  fail "text: no units line under the table"
# The usage line names the listing once.
# The LDCs with a per-thread register address (cdiv: 8, from line 2928) are the row LDC[R],
# timed by [class_special] indexed_latency / indexed_interval (370, 64) with their sources;
# the other LDCs stay LDC (29, 1).
"$bin" sass-coverage "$root/results/reference/h200/real11/sass/kernels11.sass" --function 'k_cdiv(' \
  --format csv >"$tmp/c.csv" || fail "cdiv coverage"
got=$(awk -F, '$1 == "LDC[R]" || $1 == "LDC" { printf "%s:%s:%s:%s:%s:%s ", $1, $2, $3, $4, $6, $7 }' "$tmp/c.csv")
[ "$got" = "LDC:3:2856:special:29:1 LDC[R]:8:2928:special:370:64 " ] || fail "cdiv LDC rows: '$got'"
grep '^LDC\[R\],' "$tmp/c.csv" | grep -q 'mio/ldc.csv' || fail "LDC[R] source: $(grep '^LDC\[R\]' "$tmp/c.csv")"
sed 's/^indexed_interval=.*/indexed_interval=0/' "$root/models/h200.ini" >"$tmp/off.ini"
"$bin" sass-coverage "$root/results/reference/h200/real11/sass/kernels11.sass" --function 'k_cdiv(' \
  --model "$tmp/off.ini" --format csv >"$tmp/c0.csv" 2>/dev/null || fail "cdiv coverage, off"
[ "$(awk -F, '$1 == "LDC" { print $2 }' "$tmp/c0.csv")" = 11 ] && ! grep -q '^LDC\[R\]' "$tmp/c0.csv" ||
  fail "cdiv LDC rows with indexed_interval=0: $(grep '^LDC' "$tmp/c0.csv")"
passed=$((passed + 1))
"$bin" sass-coverage --help | grep -qx '  warpsim sass-coverage \[OPTION.*\] LISTING - the opcode classes of a SASS listing and their sources' ||
  fail "usage line: $("$bin" sass-coverage --help | sed -n 2p)"
passed=$((passed + 11))

# An opcode in no class: refused, or listed with --allow-unclassed.
sed 's/ FFMA R/ FOOBAR R/' "$saxpy" >"$tmp/foo.sass"
line=$(grep -n -m1 ' FOOBAR R' "$tmp/foo.sass" | cut -d: -f1)
"$bin" sass-coverage "$tmp/foo.sass" --format csv >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || fail "unclassed opcode: not exit 2"
[ ! -s "$tmp/out" ] || fail "unclassed opcode: wrote to stdout"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "unclassed opcode: not one line on stderr"
grep -qF "$tmp/foo.sass:$line: opcode 'FOOBAR' is in no [class_*] group of model 'h200'" "$tmp/err" ||
  fail "unclassed opcode message: $(cat "$tmp/err")"
"$bin" sass-coverage "$tmp/foo.sass" --format csv --allow-unclassed >"$tmp/out" 2>"$tmp/err" ||
  fail "--allow-unclassed: $(cat "$tmp/err")"
grep -q "^FOOBAR,5,$line,fp32,false,4,1,none: in no \[class_\*\] group" "$tmp/out" ||
  fail "--allow-unclassed row: $(grep FOOBAR "$tmp/out")"
passed=$((passed + 2))

# A listing its model cannot run.
"$bin" sass-coverage "$saxpy" --model rtx4090 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] || fail "sm_90 listing on rtx4090 not refused"
grep -qF "is compiled for sm_90, which model 'rtx4090' (compute capability 8.9) cannot run" "$tmp/err" ||
  fail "arch refusal: $(cat "$tmp/err")"
"$bin" sass-coverage >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "give one listing" "$tmp/err" || fail "no listing: $(cat "$tmp/err")"
passed=$((passed + 2))
echo "$passed passed ($ran runs, $refused refusals; $n_listings listings, $n_excerpts excerpts), 0 failed"
