#!/usr/bin/env bash
# cli_curve_stats.sh - `warpsim curve-stats` on tiny CSVs whose answers are
# worked out by hand below: plateau, knee, still rising and the change from
# 50 % to 100 % occupancy per curve (points given out of order, a comment
# line skipped); MAPE on fit, held-out and all points, the bound's MAPE, both
# knees and the gate; JSON with null for what does not exist; bad input exits
# 2 with one line on stderr and nothing on stdout.  Needs WARPSIM_BIN (CTest
# sets it).
set -u
bin=${WARPSIM_BIN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*" >&2; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }

# Curve a, by x: 1, 2, 2.8, 3.0: plateau 3.0; the last step 2.8 -> 3.0 is
# above 1.02 x 2.8 = 2.856, so still rising: no knee; change from 50 % (2) to
# 100 % (3.0): +50.0.  Curve b: 1, 2, 3, 3.04: plateau 3.04, 90 % = 2.736,
# first reached by 3 at 12 warps (75 %); 3.04 <= 1.02 x 3 = 3.06: not rising;
# change 100 (3.04 / 2 - 1) = +52.0.
cat >"$tmp/curve.csv" <<'CSV'
kernel,ilp,warps_per_sm,occupancy_pct,y
# a comment line
a,1,12,75,2.8
a,1,4,25,1
a,1,8,50,2
a,1,16,100,3.0
b,1,4,25,1
b,1,8,50,2
b,1,12,75,3
b,1,16,100,3.04
CSV
want='kernel,ilp,metric,points,plateau,knee_x,knee_occupancy_pct,y_at_max_x,still_rising,change_50_to_100_pct
a,1,y,4,3.0,-,-,3.0,yes,+50.0
b,1,y,4,3.04,12,75,3.04,no,+52.0'
got=$("$bin" curve-stats --group kernel,ilp --y y --occupancy occupancy_pct "$tmp/curve.csv" 2>"$tmp/err") ||
  fail "curve: $(cat "$tmp/err")"
[ "$got" = "$want" ] || fail "curve: got
$got
want
$want"
ok
# --where: a's peak 3.0 at 16 warps, no knee (rising), ends on its
# plateau; b's knee y 3 (at 12), its half point 50 % and full point 100 %.
# Curve c: 2, 5, 3 at 25, 50, 75 %: peak 5 at 8 warps, knee 5 (90 % = 4.5);
# it ends at 3 < 4.5: falls; half point 50 %, full 75 %.
printf 'c,1,4,25,2\nc,1,8,50,5\nc,1,12,75,3\n' >>"$tmp/curve.csv"
want='kernel,ilp,metric,points,plateau,knee_x,knee_occupancy_pct,y_at_max_x,still_rising,change_50_to_100_pct,peak_x,knee_y,falls,half_occupancy_pct,full_occupancy_pct
a,1,y,4,3.0,-,-,3.0,yes,+50.0,16,-,no,50,100
b,1,y,4,3.04,12,75,3.04,no,+52.0,16,3,no,50,100
c,1,y,3,5,8,50,3,no,-40.0,8,5,yes,50,75'
got=$("$bin" curve-stats --group kernel,ilp --y y --occupancy occupancy_pct --where "$tmp/curve.csv" 2>"$tmp/err") ||
  fail "--where: $(cat "$tmp/err")"
[ "$got" = "$want" ] || fail "--where: got
$got
want
$want"
[ "$("$bin" curve-stats --group kernel --y y --where "$tmp/curve.csv" | sed -n 4p)" = "c,y,3,5,8,3,no,8,5,yes" ] ||
  fail "--where without --occupancy: $("$bin" curve-stats --group kernel --y y --where "$tmp/curve.csv")"
ok
got=$("$bin" curve-stats --group kernel --y y --missing '' "$tmp/curve.csv" | sed -n 2p)
[ "$got" = "a,y,4,3.0,,3.0,yes" ] || fail "--missing '': $got"
ok
"$bin" curve-stats --group kernel --y y -f json "$tmp/curve.csv" >"$tmp/json" || fail "json"
grep -q '"knee_x" : null' "$tmp/json" && grep -q '"plateau" : 3.04' "$tmp/json" &&
  [ "$(head -c1 "$tmp/json")" = "[" ] || fail "json: $(cat "$tmp/json")"
ok

# Measured 2, 4, 5 and simulated 2.2, 4.6, 5 at 4, 8, 12 warps: relative
# errors 0.1, 0.15, 0; fit (point 1): 10.0 %; held out: 100 x 0.15 / 2 =
# 7.5 %; all: 100 x 0.25 / 3 = 8.3 %.  Bound (points 2, 3): |5 - 4| / 4 =
# 0.25, |4 - 5| / 5 = 0.2: 22.5 %.  Plateaus 5 and 5; knees (4.5): measured
# 5 at 12, simulated 4.6 at 8: -4.  Gate 8 % and 4 warps: 7.5 <= 8, 4 <= 4.
cat >"$tmp/cmp.csv" <<'CSV'
curve,warps_per_sm,measured,simulated,bound,fit
c,4,2,2.2,-,yes
c,8,4,4.6,5,no
c,12,5,5,4,no
CSV
head='curve,points,fit_points,mape_fit_pct,mape_heldout_pct,mape_all_pct,bound_mape_pct,plateau_measured,plateau_simulated,knee_measured_x,knee_simulated_x,knee_diff_x,pass'
cmp=(curve-stats --group curve --y simulated --measured measured --fit fit --bound bound --max-mape 8)
got=$("$bin" "${cmp[@]}" --max-knee-diff 4 "$tmp/cmp.csv" 2>"$tmp/err") || fail "compare: $(cat "$tmp/err")"
[ "$got" = "$head
c,3,1,10.0,7.5,8.3,22.5,5,5,12,8,-4,yes" ] || fail "compare: $got"
ok
got=$("$bin" "${cmp[@]}" --max-knee-diff 3 "$tmp/cmp.csv" | tail -1)
[ "$got" = "c,3,1,10.0,7.5,8.3,22.5,5,5,12,8,-4,NO" ] || fail "knee gate: $got"
ok
# Every point fitted: no held-out MAPE, the gate does not apply.
sed 's/,no$/,yes/' "$tmp/cmp.csv" >"$tmp/allfit.csv"
got=$("$bin" "${cmp[@]}" "$tmp/allfit.csv" | tail -1)
[ "$got" = "c,3,3,8.3,-,8.3,22.5,5,5,12,8,-4,n/a" ] || fail "all fitted: $got"
ok
# --no-knee: points of separate operations, MAPE only; --fall: peaks at 12
# and 12, both curves end on their plateau (0.0 %).
got=$("$bin" curve-stats --y simulated --measured measured --no-knee "$tmp/cmp.csv" | tail -1)
[ "$got" = "3,8.3,-,-,-,-,-" ] || fail "--no-knee: $got"
got=$("$bin" curve-stats --y simulated --measured measured --fall "$tmp/cmp.csv" | tail -1)
[ "$got" = "3,8.3,5,5,12,8,-4,12,12,0.0,0.0" ] || fail "--fall: $got"
ok

# Bad input: exit 2, one line on stderr, nothing on stdout.
printf 'warps_per_sm,y\n4,abc\n' >"$tmp/nan.csv"
printf 'warps_per_sm,measured,y\n4,0,1\n' >"$tmp/zero.csv"
printf 'warps_per_sm,y\n4,1,2\n' >"$tmp/wide.csv"
printf 'warps_per_sm,y\n' >"$tmp/header.csv"
: >"$tmp/empty.csv"
. "$(dirname "${BASH_SOURCE[0]}")/refused_cmd.sh"
bad() { local want=$1; shift; refused "$want" curve-stats "$@"; }
bad "--y" "$tmp/curve.csv"
bad "expected one CSV file" --y y
bad "$tmp/none.csv" --y y "$tmp/none.csv"
bad "no column 'nope'" --y nope "$tmp/curve.csv"
bad "no column 'kind'" --y y --group kind "$tmp/curve.csv"
allowed="(allowed: a decimal number such as 12, -0.5 or 1.5e3, no spaces)"
bad "nan.csv:2:2: column y: 'abc' is not a number $allowed" --y y "$tmp/nan.csv"
# strtod's extras are refused, each naming file:line:column: hex, a leading
# or trailing space, inf, nan, a bare point or exponent.
for cell in 0x10 ' 4' '4 ' inf nan . 1e +; do
  printf 'warps_per_sm,occupancy_pct,y\n4,25,1\n8,%s,2\n' "$cell" >"$tmp/cell.csv"
  bad "cell.csv:3:2: column occupancy_pct: '$cell' is not a number $allowed" --y y \
    --occupancy occupancy_pct "$tmp/cell.csv"
done
# What it takes: a sign, no whole part, an exponent with a sign.  y = 0.5,
# -15, 0.1 at 4, 8, 12: plateau .5; the last step -15 -> 0.1 is above
# 1.02 x -15, so still rising (no knee).
printf 'warps_per_sm,y\n+4,.5\n8,-1.5E+1\n12,1e-1\n' >"$tmp/forms.csv"
[ "$("$bin" curve-stats --y y "$tmp/forms.csv" | tail -1)" = "y,3,.5,-,1e-1,yes" ] ||
  fail "decimal forms: $("$bin" curve-stats --y y "$tmp/forms.csv" 2>&1)"
ok
bad "zero.csv:2: column measured: 0" --y y --measured measured "$tmp/zero.csv"
bad "wide.csv:2: 3 fields, the header has 2" --y y "$tmp/wide.csv"
bad "no data rows" --y y "$tmp/header.csv"
bad "empty" --y y "$tmp/empty.csv"
bad "need --measured" --y y --fit fit "$tmp/curve.csv"
bad "--where: only without --measured" --y simulated --measured measured --where "$tmp/cmp.csv"
bad "--format" --y y --format text "$tmp/curve.csv"
bad "--max-mape" --y simulated --measured measured --max-mape -3 "$tmp/cmp.csv"
sed 's/,yes$/,maybe/' "$tmp/cmp.csv" >"$tmp/maybe.csv"
bad "'maybe' (allowed yes, no" --y simulated --measured measured --fit fit "$tmp/maybe.csv"
bad "Unknown option" --y y --bogus "$tmp/curve.csv"
printf '# comments only\n#\n' >"$tmp/comments.csv"
bad "comments.csv: empty (expected a header row)" --y y "$tmp/comments.csv"
# A curve whose values are all negative has no knee: 90 % of a negative
# plateau (-1 -> -0.9) is above every point.  With --measured the knee
# columns dereferenced the missing knee (a segfault, exit 139, nothing said);
# they are missing now, and a --max-knee-diff gate cannot pass on them.
# Measured -1, -2 and simulated -1, -2 at 4, 8 warps: MAPE 0.0; plateaus -1
# at 4 warps; falls 100 (-1 - -2) / -1 are no share of a plateau <= 0.
printf 'warps_per_sm,y,m\n4,-1,-1\n8,-2,-2\n' >"$tmp/neg.csv"
got=$("$bin" curve-stats --y y --measured m --fall --max-knee-diff 4 "$tmp/neg.csv" 2>"$tmp/err") ||
  fail "negative curve: exit $?: $(cat "$tmp/err")"
[ "$(tail -1 <<<"$got")" = "2,0.0,-1,-1,-,-,-,4,4,-,-,NO" ] || fail "negative curve: $got"
ok
got=$("$bin" curve-stats --y y --measured m --fall -f json "$tmp/neg.csv" 2>"$tmp/err") ||
  fail "negative curve, JSON: exit $?: $(cat "$tmp/err")"
grep -q '"knee_measured_x" : null' <<<"$got" && grep -q '"fall_simulated_pct" : null' <<<"$got" ||
  fail "negative curve, JSON: $got"
ok
# Numbers that do not exist are the missing text in CSV, as JSON's null: a
# simulated curve of zeros falls by 0 / 0 (CSV '-nan', which curve-stats
# itself refuses to read back), y 1e-320 at 50 % and 1e300 at 100 % change
# by 1e322 % (CSV '+inf'), x 1.7e308 against -1.7e308 differ by -inf.
printf 'warps_per_sm,y,m\n4,0,1\n8,0,2\n' >"$tmp/fz.csv"
got=$("$bin" curve-stats --y y --measured m --fall "$tmp/fz.csv" | tail -1)
[ "$got" = "2,100.0,2,0,8,4,-4,8,4,0.0,-" ] || fail "a fall of 0 / 0: $got"
ok
printf 'warps_per_sm,y,occ\n4,1e-320,50\n8,1e300,100\n' >"$tmp/big.csv"
got=$("$bin" curve-stats --y y --occupancy occ "$tmp/big.csv" | tail -1)
[ "$got" = "y,2,1e300,-,-,1e300,yes,-" ] || fail "a change past 1e308 %: $got"
ok
printf 'warps_per_sm,y,m\n-1.7e308,2,1\n1.7e308,1,2\n' >"$tmp/wide_x.csv"
got=$("$bin" curve-stats --y y --measured m "$tmp/wide_x.csv" | tail -1)
[ "$got" = "2,75.0,2,2,1.7e308,-1.7e308,-" ] || fail "a knee difference past 1.8e308: $got"
ok
# Two curves whose group cells join to the same text: g,h = "a<US>b","c" and
# "a","b<US>c" (US the unit separator, 0x1f) were one curve of 2 points
# (the values were joined by that character); they are two of 1 point each.
printf 'g,h,warps_per_sm,y\na\037b,c,4,1\na,b\037c,8,2\n' >"$tmp/us.csv"
got=$("$bin" curve-stats --y y --group g,h "$tmp/us.csv" | cut -d, -f4 | tr '\n' ' ')
[ "$got" = "points 1 1 " ] || fail "group cells with a unit separator: $got"
ok
# '#' lines ahead of the header, as 'warpsim run --config-comments' writes
# them, are skipped too (the header was taken to be '# warpsim 0.1.0').
"$bin" run --kernel fma --set stream.iterations=4 --format csv --config-comments --no-whatif >"$tmp/cc.csv" ||
  fail "run --config-comments"
got=$("$bin" curve-stats --y ipc "$tmp/cc.csv" 2>"$tmp/err") || fail "config comments: $(cat "$tmp/err")"
[ "$(sed -n 2p <<<"$got" | cut -d, -f1,2)" = "ipc,1" ] || fail "config comments: $got"
ok
"$bin" curve-stats --help | grep -q -- '--measured' || fail "--help"
ok
echo "$passed passed"
