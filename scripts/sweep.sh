#!/usr/bin/env bash
# sweep.sh - run warpsim over a grid of parameter values with GNU parallel and
# collect one CSV (header + one row per run, in grid order: the first --axis
# varies slowest).
#
# Usage:
#   scripts/sweep.sh -o OUT.csv [--model M] --kernel K [--set g.k=v ...]
#                    --axis g.k=V1,V2,... [--axis ...] [--derive g.k=EXPR ...] [--jobs N]
#                    [--sshlogin LOGIN ...] [--resume] [--quiet]
#   scripts/sweep.sh --print-grid --kernel K [--set ...] --axis ... [--derive ...]
#     prints the grid, one point a line (tab-separated group.key=value, the
#     first --axis slowest, repeated points dropped), and runs no point: for a
#     batch system's job array (doc/sweeps.md); its values are checked first
#     as a sweep checks them (exit 2, nothing printed)
#   Values may be ranges: --axis launch.blocks_per_sm=1..16
#   One axis may set several keys to the same value:
#     --axis stream.ilp,stream.loads=1,2,4,8   (chase: ILP = load chains per warp)
#   --derive KEY=EXPRESSION sets a key from others at every point: whole-number
#   arithmetic (+ - * / and parentheses; numbers in base 10, no step past
#   2^53) over numbers and keys an --axis, --set or earlier --derive gives,
#   e.g. 32 FFMAs per chain at every ILP:
#     --axis stream.ilp=1..8 --derive 'stream.fma=32*stream.ilp'
#   (the derived key must not be on an axis or in a --set; repeatable)
#   A value holds letters, digits and _ . + - : ; / only (';' separates the
#   items of a list key: --axis 'sm.smem_configs=0;233472'); values are
#   passed to warpsim as data, never through a shell.
#
# Example (resident warps x ILP for the DRAM chase):
#   scripts/sweep.sh -o /tmp/chase.csv --kernel chase \
#     --axis stream.ilp,stream.loads=1,2,4,8 --axis launch.blocks_per_sm=1..16
#   gnuplot -c scripts/plot_occupancy.gp /tmp/chase.png /tmp/chase.csv
#
# Runs go to local cores by default (--jobs N, default: all cores); to spread
# over other hosts pass GNU parallel's --sshlogin (repeatable; the hosts need
# warpsim and OUT's directory at the same paths, e.g. a shared file system).
#
# Before any run, warpsim checks every --set value and every axis value (a
# range by its two ends, each with the first point's other settings) and every
# derived key at its smallest and largest: a value
# out of range is refused (exit 2) with nothing run or written, and a value
# that cannot change the result (launch.blocks_per_sm above what fits,
# stream.ilp above the instructions its chains share) is named in a warning.
#
# Safety: a lock (OUT.csv.lock, flock) makes a second sweep to the same -o
# refuse (exit 2).  Every finished run leaves one row file in OUT.csv.d/; an
# interrupted (^C, SIGTERM: exit 130/143) or failed sweep keeps them, and the
# same command with --resume runs only the missing or failed points.  --resume
# refuses (exit 2) when anything that decides the results changed: the
# warpsim version or binary, the kernel or model file, the effective
# configuration, a --set or the grid.  OUT.csv appears (renamed into place)
# only when every point has finished.  Points that repeat another (the same
# key on two axes, a value the launch caps) are dropped with a warning.
# Exit: 0 done, 1 a run failed, 2 bad input or refused, 130/143 interrupted.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim=${WARPSIM:-$root/build/sim/warpsim}
usage() { warpsim_usage "${BASH_SOURCE[0]}"; }
die() { warpsim_die "$@"; }
warn() { echo "sweep.sh: warning: $*" >&2; }

out="" model="h200" kernel="" jobs="" resume=0 quiet=0 print_grid=0
sets=() axes=() logins=() derives=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o|--output|--model|--kernel|--set|--axis|--derive|--jobs|-j|--sshlogin|-S)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)" ;;&
    -o|--output) out=$2; shift 2 ;;
    --model) model=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --set) sets+=("$2"); shift 2 ;;
    --axis) axes+=("$2"); shift 2 ;;
    --derive) derives+=("$2"); shift 2 ;;
    --jobs|-j) jobs=$2; shift 2 ;;
    --sshlogin|-S) logins+=(--sshlogin "$2"); shift 2 ;;
    --resume) resume=1; shift ;;
    --print-grid) print_grid=1; shift ;;
    --quiet|-q) quiet=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$out" ] || [ $print_grid -eq 1 ] || die "-o OUT.csv is required (see --help)"
[ -n "$kernel" ] || die "--kernel is required (see --help)"
[ ${#axes[@]} -gt 0 ] || die "at least one --axis group.key=values is required (see --help)"
[ -z "$out" ] || [ ! -d "$out" ] || die "-o $out is a directory (a file name is expected)"
# The CSV is renamed into place: an existing device, pipe or link there would
# be replaced by a regular file (-o /dev/null, /dev/stdout).
if [ -e "$out" ] || [ -L "$out" ]; then
  [ -f "$out" ] && [ ! -L "$out" ] ||
    die "-o $out exists and is not a regular file (allowed: a new file or a regular file to replace)"
fi
[ -z "$out" ] || [ -d "$(dirname -- "$out")" ] || die "-o $out: directory $(dirname -- "$out") does not exist"
[ -z "$jobs" ] || [[ $jobs =~ ^[0-9]+%?$ ]] || die "--jobs '$jobs': expected a number of jobs"
[ -x "$warpsim" ] || die "warpsim binary not found at $warpsim (run scripts/build.sh or set WARPSIM)"
if [ $print_grid -eq 0 ]; then # (printing the grid runs no point)
  command -v parallel >/dev/null 2>&1 || die "GNU parallel not found (scripts/deps.sh installs it)"
  command -v flock >/dev/null 2>&1 || die "flock not found (util-linux)"
  command -v setsid >/dev/null 2>&1 || die "setsid not found (util-linux)"
fi

# ---- the grid ----------------------------------------------------------------
# Keys and values are checked here and travel as data: a point is one line of
# tab-separated "group.key=value" settings, read by the job into an array.
key_re='^[A-Za-z0-9_]+\.[A-Za-z0-9_]+$'
value_re='^[A-Za-z0-9_.+:;/-]+$'
max_points=100000
check_key() { [[ $1 =~ $key_re ]] || die "$2: '$1' is not a group.key name"; }
check_value() {
  [ -n "$1" ] || die "$2: empty value"
  [[ $1 =~ $value_re ]] ||
    die "$2: value '$1' holds a character other than letters, digits and _ . + - : ; /"
}

# The fixed settings: key order of first appearance, the last value of a key.
declare -A fixed_val=()
fixed_keys=()
for s in "${sets[@]+"${sets[@]}"}"; do
  [[ $s == *=* ]] || die "--set '$s': expected group.key=value"
  k=${s%%=*} v=${s#*=}
  check_key "$k" "--set '$s'"
  check_value "$v" "--set '$s'"
  if [ -n "${fixed_val[$k]+x}" ]; then
    die "--set '$s': $k is already set by --set '$k=${fixed_val[$k]}'"
  fi
  fixed_val[$k]=$v
  fixed_keys+=("$k")
done

# Each axis: its keys (axis_keys[i], comma-separated) and values (axis_vals[i], tabs),
# and the values checked before any job starts (axis_checks[i]: a range by its ends).
axis_keys=() axis_vals=() axis_checks=()
declare -A axis_of=()
points=1
for i in "${!axes[@]}"; do
  a=${axes[$i]}
  keys=${a%%=*} vals=${a#*=}
  if [ "$keys" = "$a" ] || [ -z "$vals" ] || [ -z "$keys" ]; then
    die "--axis '$a': expected group.key=V1,V2 or group.key=A..B (see --help)"
  fi
  [[ $a != *[[:space:][:cntrl:]]* ]] || die "--axis '$a': holds a space or control character"
  # (read -a drops an empty last item: '1,2,' would run 1 and 2 silently)
  [[ $vals != *, && $keys != *, ]] || die "--axis '$a': empty value after the last ','"
  IFS=',' read -r -a klist <<<"$keys"
  for k in "${klist[@]}"; do
    check_key "$k" "--axis '$a'"
    if [ -n "${axis_of[$k]+x}" ]; then
      warn "$k is on two axes ('${axis_of[$k]}' and '$a'): the later axis's value is used"
    elif [ -n "${fixed_val[$k]+x}" ]; then
      warn "$k is set by --set and by --axis '$a': the axis's value is used"
    fi
    axis_of[$k]=$a
  done
  IFS=',' read -r -a vlist <<<"$vals"
  values=() checks=()
  for v in "${vlist[@]}"; do
    if [[ $v =~ ^([0-9]{1,9})\.\.([0-9]{1,9})$ ]]; then
      lo=$((10#${BASH_REMATCH[1]})) hi=$((10#${BASH_REMATCH[2]}))
      [ "$lo" -le "$hi" ] || die "--axis '$a': empty range $v (write the smaller bound first)"
      [ $((hi - lo)) -lt $max_points ] || die "--axis '$a': range $v has over $max_points values"
      for ((n = lo; n <= hi; n++)); do values+=("$n"); done
      checks+=("$lo" "$hi")
    elif [[ $v =~ ^([0-9]{1,9})-([0-9]{1,9})$ ]]; then
      die "--axis '$a': '$v' is not a value; a range is written ${BASH_REMATCH[1]}..${BASH_REMATCH[2]}"
    else
      check_value "$v" "--axis '$a'" # an empty item too ('1,,2': a typo)
      values+=("$v") checks+=("$v")
    fi
  done
  [ ${#values[@]} -gt 0 ] || die "--axis '$a': no values"
  points=$((points * ${#values[@]}))
  [ $points -le $max_points ] || die "the grid has over $max_points points"
  axis_keys+=("$keys")
  axis_vals+=("$(printf '%s\t' "${values[@]}")")
  axis_checks+=("$(printf '%s\t' "${checks[@]}")")
done

# The derived keys: KEY=EXPRESSION, each key once and on no axis or --set;
# the keys an expression names come from an axis, a --set or an earlier
# --derive.
token_re='[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z0-9_]+'
derive_keys=() derive_exprs=()
declare -A derived=()
for d in "${derives[@]+"${derives[@]}"}"; do
  [[ $d == *=* ]] || die "--derive '$d': expected group.key=EXPRESSION (see --help)"
  k=${d%%=*} e=${d#*=}
  check_key "$k" "--derive '$d'"
  [[ $e =~ ^[A-Za-z0-9_.+*/()\ -]+$ ]] ||
    die "--derive '$d': the expression holds a character other than letters, digits, _ . + - * / ( ) and spaces"
  [ -z "${fixed_val[$k]+x}" ] || die "--derive '$d': $k is also set by --set '$k=${fixed_val[$k]}'"
  [ -z "${axis_of[$k]+x}" ] || die "--derive '$d': $k is also on --axis '${axis_of[$k]}'"
  [ -z "${derived[$k]+x}" ] || die "--derive '$d': $k is derived twice"
  for t in $(grep -oE "$token_re" <<<"$e" || true); do
    [ -n "${fixed_val[$t]+x}" ] || [ -n "${axis_of[$t]+x}" ] || [ -n "${derived[$t]+x}" ] ||
      die "--derive '$d': $t is given by no --axis, --set or earlier --derive"
  done
  derived[$k]=$e
  derive_keys+=("$k") derive_exprs+=("$e")
done

# derive_eval EXPR: the value of EXPR in $derive_v: whole numbers (base 10:
# 010 is ten), + - * / (truncating) and parentheses, unary + and -; every
# number and intermediate within +-2^53 (bash's own arithmetic would wrap
# 2^32 * 2^32 to 0, read 010 as octal and take ** as a power).  Status 1 on
# anything else, a division by zero or a value past 2^53.
derive_lim=9007199254740992
derive_eval() {
  local s=$1
  derive_toks=() derive_pos=0
  while :; do
    s=${s#"${s%%[! ]*}"}
    [ -n "$s" ] || break
    if [[ $s =~ ^([0-9]+)(.*)$ ]]; then
      [ ${#BASH_REMATCH[1]} -le 16 ] && ((10#${BASH_REMATCH[1]} <= derive_lim)) || return 1
      derive_toks+=("$((10#${BASH_REMATCH[1]}))")
    elif [[ $s =~ ^([-+*/()])(.*)$ ]]; then
      derive_toks+=("${BASH_REMATCH[1]}")
    else
      return 1
    fi
    s=${BASH_REMATCH[2]}
  done
  derive_sum && [ $derive_pos -eq ${#derive_toks[@]} ]
}
derive_sum() { # term, then (+|- term)...
  local a op
  derive_term || return 1
  a=$derive_v
  while op=${derive_toks[$derive_pos]-} && [[ $op == [-+] ]]; do
    derive_pos=$((derive_pos + 1))
    derive_term || return 1
    if [ "$op" = + ]; then a=$((a + derive_v)); else a=$((a - derive_v)); fi
    ((a <= derive_lim && a >= -derive_lim)) || return 1
  done
  derive_v=$a
}
derive_term() { # factor, then (*|/ factor)...
  local a op m n
  derive_factor || return 1
  a=$derive_v
  while op=${derive_toks[$derive_pos]-} && [[ $op == [*/] ]]; do
    derive_pos=$((derive_pos + 1))
    derive_factor || return 1
    if [ "$op" = '*' ]; then
      m=${a#-} n=${derive_v#-}
      ((m == 0 || n <= derive_lim / m)) || return 1
      a=$((a * derive_v))
    else
      ((derive_v != 0)) || return 1
      a=$((a / derive_v))
    fi
  done
  derive_v=$a
}
derive_factor() { # a number, (sum), or + or - and a factor
  local t=${derive_toks[$derive_pos]-}
  derive_pos=$((derive_pos + 1))
  case $t in
    [-+])
      derive_factor || return 1
      [ "$t" = + ] || derive_v=$((-derive_v)) ;;
    '(')
      derive_sum && [ "${derive_toks[$derive_pos]-}" = ')' ] || return 1
      derive_pos=$((derive_pos + 1)) ;;
    [0-9]*) derive_v=$t ;;
    *) return 1 ;;
  esac
}

# apply_derives VALUES ORDER: set each derived key in the associative array
# VALUES (appending it to the array ORDER) from the point's other values.
apply_derives() {
  local -n dv=$1 dord=$2
  local i t ev r
  for i in "${!derive_keys[@]}"; do
    # the expression with each of the point's values in parentheses (3stream.ilp
    # is no 31)
    ev=${derive_exprs[$i]}
    while [[ $ev =~ ($token_re) ]]; do
      t=${BASH_REMATCH[1]}
      [[ ${dv[$t]-} =~ ^[0-9]{1,15}$ ]] ||
        die "--derive '${derive_keys[$i]}=${derive_exprs[$i]}': $t is '${dv[$t]-}' at a point (allowed: whole numbers)"
      ev=${ev/"$t"/"($((10#${dv[$t]})))"} # (no octal: 010 is ten)
    done
    derive_eval "$ev" && [ "$derive_v" -ge 0 ] ||
      die "--derive '${derive_keys[$i]}=${derive_exprs[$i]}': '$ev' does not give a whole number >= 0 (allowed: + - * / and parentheses over whole numbers, no step past +-$derive_lim)"
    r=$derive_v
    [ -n "${dv[${derive_keys[$i]}]+x}" ] || dord+=("${derive_keys[$i]}")
    dv[${derive_keys[$i]}]=$r
  done
}

# Expand the grid, first axis outermost; a point's settings are the fixed
# ones overridden by its axes' (so no key is ever passed twice), and a point
# equal to an earlier one is dropped.
grid_lines=()
declare -A seen=()
dropped=0
expand() { # expand AXIS_INDEX ASSIGNMENTS...: recurse over the remaining axes
  local i=$1
  shift
  if [ "$i" -eq ${#axis_keys[@]} ]; then
    local -A val=()
    local order=() kv k line=""
    for k in "${fixed_keys[@]+"${fixed_keys[@]}"}"; do
      val[$k]=${fixed_val[$k]}
      order+=("$k")
    done
    for kv in "$@"; do
      k=${kv%%=*}
      [ -n "${val[$k]+x}" ] || order+=("$k")
      val[$k]=${kv#*=}
    done
    apply_derives val order
    for k in "${order[@]}"; do line+="$k=${val[$k]}"$'\t'; done
    line=${line%$'\t'}
    if [ -n "${seen[$line]+x}" ]; then
      dropped=$((dropped + 1))
    else
      seen[$line]=1
      grid_lines+=("$line")
    fi
    return
  fi
  local v k klist vlist
  IFS=',' read -r -a klist <<<"${axis_keys[$i]}"
  IFS=$'\t' read -r -a vlist <<<"${axis_vals[$i]}"
  for v in "${vlist[@]}"; do
    local add=()
    for k in "${klist[@]}"; do add+=("$k=$v"); done
    expand $((i + 1)) "$@" "${add[@]}"
  done
}
expand 0
[ $dropped -eq 0 ] || warn "dropped $dropped grid point(s) that repeat an earlier one"
n=${#grid_lines[@]}
# check_values ERR: every value of every axis (a range by its ends), with the
# first point's other settings (a point of the grid), and the grid points
# where each derived key is smallest and largest: warpsim checks keys and
# ranges before it simulates, so a bad value exits 2 at once and a good one
# stops at --max-cycles 1 (exit 3).  A bad value is refused before any job
# runs (and before --print-grid prints).  ERR: a scratch file.
check_values() {
  local err=$1 i v k kv rc msg line val lo hi lo_line hi_line klist clist kvs args co
  for i in "${!axis_keys[@]}"; do
    IFS=',' read -r -a klist <<<"${axis_keys[$i]}"
    IFS=$'\t' read -r -a clist <<<"${axis_checks[$i]}"
    for v in "${clist[@]}"; do
      unset cv co
      declare -A cv=()
      co=()
      for kv in "${first[@]}"; do
        cv[${kv%%=*}]=${kv#*=}
        co+=("${kv%%=*}")
      done
      for k in "${klist[@]}"; do cv[$k]=$v; done
      apply_derives cv co
      args=()
      for k in "${co[@]}"; do args+=(--set "$k=${cv[$k]}"); done
      rc=0
      "$warpsim" run "${base[@]}" "${args[@]}" --format csv --no-whatif --max-cycles 1 \
        >/dev/null 2>"$err" || rc=$?
      if [ $rc -eq 2 ] || [ $rc -eq 1 ]; then
        msg=$(warpsim_error_line "$err")
        rm -f "$err"
        die "--axis '${axes[$i]}': value '$v': ${msg#warpsim: }"
      fi
      # A value that cannot change the result: warpsim's warning, said once.
      while IFS= read -r msg; do
        msg=${msg#warpsim: warning: } msg=${msg#*: }
        [ -n "${said[$msg]+x}" ] || warn "--axis '${axes[$i]}': value $v: $msg"
        said[$msg]=1
      done < <(grep '^warpsim: warning:' "$err" || true)
    done
  done
  for k in "${derive_keys[@]+"${derive_keys[@]}"}"; do
    lo="" hi=""
    for line in "${grid_lines[@]}"; do
      val=$'\t'$line$'\t' val=${val#*$'\t'"$k"=} val=${val%%$'\t'*}
      if [ -z "$lo" ] || [ "$val" -lt "$lo" ]; then lo=$val lo_line=$line; fi
      if [ -z "$hi" ] || [ "$val" -gt "$hi" ]; then hi=$val hi_line=$line; fi
    done
    for line in "$lo_line" "$hi_line"; do
      val=$'\t'$line$'\t' val=${val#*$'\t'"$k"=} val=${val%%$'\t'*}
      IFS=$'\t' read -r -a kvs <<<"$line"
      args=()
      for kv in "${kvs[@]}"; do args+=(--set "$kv"); done
      rc=0
      "$warpsim" run "${base[@]}" "${args[@]}" --format csv --no-whatif --max-cycles 1 \
        >/dev/null 2>"$err" || rc=$?
      if [ $rc -eq 2 ] || [ $rc -eq 1 ]; then
        msg=$(warpsim_error_line "$err")
        rm -f "$err"
        die "--derive '$k=${derived[$k]}': value $val at point ($(tr '\t' ' ' <<<"$line")): ${msg#warpsim: }"
      fi
    done
  done
  rm -f "$err"
}

if [ $print_grid -eq 1 ]; then # one point a line, in grid order (doc/sweeps.md: Slurm)
  base=(--model "$model" --kernel "$kernel")
  IFS=$'\t' read -r -a first <<<"${grid_lines[0]}"
  declare -A said=()
  check_err=$(mktemp "${TMPDIR:-/tmp}/sweep.XXXXXX")
  trap 'rm -f "$check_err"' EXIT
  check_values "$check_err"
  printf '%s\n' "${grid_lines[@]}"
  exit 0
fi

# ---- the lock ----------------------------------------------------------------
# flock on OUT.csv.lock, held by this script and every job it starts; the
# file is removed on exit.  A lock taken on a file another sweep has just
# removed is retried, so two sweeps never both hold one.
lock="$out.lock"
while :; do
  exec 9>>"$lock" || die "cannot create the lock $lock"
  if ! flock -n 9; then
    holder=$(head -c 40 "$lock" 2>/dev/null | tr -cd '0-9' || true)
    die "another sweep${holder:+ (pid $holder)} is writing $out (lock $lock); wait for it or choose another -o"
  fi
  [ "$lock" -ef /dev/fd/9 ] && break
  exec 9>&-
done
echo $$ >"$lock"

# Absolute: a job on another login starts in that login's home folder.
work="$(cd "$(dirname -- "$out")" && pwd)/$(basename -- "$out").d"
sid=""
cleanup() {
  rm -f "$work"/*.tmp "$out.tmp" 2>/dev/null || true
  rm -f "$lock"
}
trap cleanup EXIT

# kill_jobs: stop GNU parallel and every job it started.  They run in their
# own session (setsid), so this reaches jobs GNU parallel put in process
# groups of their own; what survives TERM for 2 s is killed.
session_pids() {
  local f s pid
  for f in /proc/[0-9]*/stat; do
    { read -r s <"$f"; } 2>/dev/null || continue
    pid=${f#/proc/} pid=${pid%/stat}
    s=${s##*) }
    read -r _ _ _ s _ <<<"$s"
    [ "$s" = "$1" ] && echo "$pid"
  done
  return 0
}
kill_jobs() {
  [ -n "$sid" ] || return 0
  local t pids
  kill -TERM "$sid" 2>/dev/null || true
  for t in 1 2 3 4 5 6 7 8 9 10; do
    pids=$(session_pids "$sid")
    [ -n "$pids" ] || break
    [ "$t" -eq 1 ] || kill -TERM $pids 2>/dev/null || true
    sleep 0.2
  done
  pids=$(session_pids "$sid")
  [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
  # A stopped job did not fail: drop its partial row and messages.
  rm -f "$work"/*.tmp "$work"/*.err "$work"/*.rc 2>/dev/null || true
}

done_count() { local c; c=$(find "$work" -maxdepth 1 -name '*.row' 2>/dev/null | wc -l); echo "$c"; }
interrupted() {
  trap - INT TERM
  kill_jobs
  echo "sweep.sh: interrupted: $(done_count) of $n points done; the same command with --resume finishes it" >&2
  exit "$1"
}
trap 'interrupted 130' INT
trap 'interrupted 143' TERM

# ---- the signature and the state directory -----------------------------------
# A model or kernel given as a file, by an absolute path for the same
# reason (a name is found by warpsim next to itself).
if [ ${#logins[@]} -gt 0 ]; then
  [ ! -f "$model" ] || model=$(cd "$(dirname -- "$model")" && pwd)/$(basename -- "$model")
  [ ! -f "$kernel" ] || kernel=$(cd "$(dirname -- "$kernel")" && pwd)/$(basename -- "$kernel")
  case $warpsim in /*) ;; *) warpsim=$(cd "$(dirname -- "$warpsim")" && pwd)/$(basename -- "$warpsim") ;; esac
fi
base=(--model "$model" --kernel "$kernel")
IFS=$'\t' read -r -a first <<<"${grid_lines[0]}"
first_args=()
for kv in "${first[@]}"; do first_args+=(--set "$kv"); done
# The first point, run here, checks the settings before any job starts and
# gives the header and the effective configuration of both files.
probe=$(mktemp "${TMPDIR:-/tmp}/sweep.XXXXXX")
trap 'rm -f "$probe"; cleanup' EXIT
if ! "$warpsim" run "${base[@]}" "${first_args[@]}" --format csv --no-whatif \
  --config-comments >"$probe" 2>"$probe.err"; then
  msg=$(warpsim_error_line "$probe.err")
  rm -f "$probe.err"
  die "warpsim rejected the sweep's settings: ${msg#warpsim: }"
fi
# Warnings that cannot depend on an axis value are said once, before the
# axes' own (the kernel file's name, which every point shares, left out).
declare -A said=()
while IFS= read -r msg; do
  msg=${msg#warpsim: warning: } msg=${msg#*: }
  said[$msg]=1
  warn "point 1 ($(tr '\t' ' ' <<<"${grid_lines[0]}")): $msg"
done < <(grep '^warpsim: warning:' "$probe.err" || true)
# stream.ilp swept with stream.fma fixed: the same FFMAs in ever shorter
# chains, which the fma kernel's measurement did not do (32 per chain).
if [ -n "${axis_of[stream.ilp]+x}" ] &&
  [ -z "${axis_of[stream.fma]+x}${fixed_val[stream.fma]+x}${derived[stream.fma]+x}" ]; then
  f=$(sed -n '/^# \[stream\]/,/^# \[/s/^# fma=\([0-9]*\)$/\1/p' "$probe" | head -n1)
  [ -z "$f" ] || [ "$f" -eq 0 ] ||
    warn "stream.ilp varies (--axis '${axis_of[stream.ilp]}') while stream.fma stays $f: every ILP splits the same $f FFMAs into shorter chains; to keep 32 per chain, as the fma kernel's measurement did, add --derive 'stream.fma=32*stream.ilp'"
fi
check_values "$probe.err"
rm -f "$probe.err"

spec_file() { # SPEC DIR ENV: the file a --model/--kernel spec names (a path, or a name in
  # $ENV's directory or the repository's DIR, as warpsim looks), else nothing
  local d=${!3:-$root/$2}
  if [ -f "$1" ]; then echo "$1"; elif [ -f "$d/$1.ini" ]; then echo "$d/$1.ini"; fi
}
file_hash() { # the sha256 of a file, or "(resolved by warpsim)" for no file
  if [ -n "$1" ]; then sha256sum <"$1" | cut -d' ' -f1; else echo "(resolved by warpsim)"; fi
}
sass_hash() { # the sha256 of the files a [sass] kernel reads (listing, the two exports), as
  # the first point's effective configuration names them, relative to the kernel file
  local dir p
  dir=$(dirname -- "${kernel_file:-.}")
  sed -n '/^# \[sass\]/,/^# \[/p' "$probe" | sed -n 's/^# \(file\|source_csv\|details_csv\)=\(..*\)$/\2/p' |
    while IFS= read -r p; do
      case $p in /*) ;; *) p=$dir/$p ;; esac
      if [ -r "$p" ]; then sha256sum <"$p"; else echo "unreadable $p"; fi
    done | sha256sum | cut -d' ' -f1
}
kernel_file=$(spec_file "$kernel" traces WARPSIM_TRACES)
signature=$(
  echo "warpsim version: $("$warpsim" version)"
  echo "warpsim binary sha256: $(sha256sum <"$warpsim" | cut -d' ' -f1)"
  echo "model: $model, file sha256 $(file_hash "$(spec_file "$model" models WARPSIM_MODELS)")"
  echo "kernel: $kernel, file sha256 $(file_hash "$kernel_file")"
  echo "kernel's SASS listing and profiles sha256: $(sass_hash)"
  echo "effective configuration sha256: $(grep '^#' "$probe" | sha256sum | cut -d' ' -f1)"
  echo "--set: ${sets[*]+"${sets[*]}"}"
  echo "grid sha256: $(printf '%s\n' "${grid_lines[@]}" | sha256sum | cut -d' ' -f1) ($n points)"
)
if [ $resume -eq 1 ] && [ -f "$work/signature" ]; then
  if [ "$(cat "$work/signature")" != "$signature" ]; then
    what=$(diff <(cat "$work/signature") <(echo "$signature") |
      sed -n 's/^> \([^:]*\):.*/\1/p' | sed 's/ sha256$//' | paste -sd, - | sed 's/,/, /g' || true)
    die "--resume: changed since the interrupted sweep in $work: ${what:-its settings} (run without --resume to start over)"
  fi
else
  if [ $resume -eq 1 ] && [ -e "$work" ]; then
    warn "--resume: no sweep state in $work; starting over"
  elif [ $resume -eq 1 ] && [ -f "$out" ]; then
    warn "--resume: $out is a finished sweep (its state is removed when one finishes): nothing to resume; running all $n points again with the current kernel, model and settings"
  fi
  rm -rf "$work"
fi
# The state: signature, grid, header and the first point's row (an empty
# row file, which an old sweep may have left, is rerun like a missing one).
if ! { mkdir -p "$work" && printf '%s\n' "$signature" >"$work/signature" &&
  printf '%s\n' "${grid_lines[@]}" >"$work/grid" && printf '%s\0' "${base[@]}" >"$work/base" &&
  grep -v '^#' "$probe" | head -n1 >"$work/header" &&
  { [ -s "$work/1.row" ] || { grep -v '^#' "$probe" | sed -n 2p >"$work/1.tmp" &&
    [ -s "$work/1.tmp" ] && mv "$work/1.tmp" "$work/1.row"; }; }; } 2>/dev/null; then
  rm -f "$probe"
  [ "$(done_count)" -gt 0 ] || rm -rf "$work"
  echo "sweep.sh: cannot write the sweep state in $work (disk full?)" >&2
  exit 1
fi
rm -f "$probe"
trap cleanup EXIT
todo=()
for ((j = 1; j <= n; j++)); do [ -s "$work/$j.row" ] || todo+=("$j"); done

# ---- the runs ----------------------------------------------------------------
# One job per missing point: warpsim writes its row to N.tmp, renamed to
# N.row once complete; its stderr goes to N.err.  Only the point number
# passes through GNU parallel's command line (and it is quoted: -q).
job='w=$1 i=$2 bin=$3
IFS=$(printf "\t") read -r -a kv < <(sed -n "${i}p" "$w/grid")
args=()
for s in "${kv[@]}"; do args+=(--set "$s"); done
mapfile -d "" -t base <"$w/base"
"$bin" run "${base[@]}" "${args[@]}" --format csv --no-header >"$w/$i.tmp" 2>"$w/$i.err"
rc=$?
if [ $rc -eq 0 ] && [ -s "$w/$i.tmp" ] && mv -f "$w/$i.tmp" "$w/$i.row"; then
  rm -f "$w/$i.err" "$w/$i.rc"
  exit 0
fi
rm -f "$w/$i.tmp"
[ $rc -ne 0 ] || rc=1
{ [ -s "$w/$i.err" ] || echo "warpsim exited with status $rc (killed, or out of space?)" >"$w/$i.err"
  echo "$rc" >"$w/$i.rc"; } 2>/dev/null
exit "$rc"'
failed=0
if [ ${#todo[@]} -gt 0 ]; then
  progress=()
  if [ $quiet -eq 0 ] && [ -t 2 ]; then progress=(--bar); fi
  # In a session of its own: the interrupt handler and the watchdog below
  # reach every job.
  setsid parallel --will-cite -q ${jobs:+-j "$jobs"} \
    "${logins[@]+"${logins[@]}"}" "${progress[@]+"${progress[@]}"}" \
    bash -c "$job" job "$work" {} "$warpsim" :::: <(printf '%s\n' "${todo[@]}") </dev/null &
  sid=$!
  # The watchdog: when this script dies, even by SIGKILL, the pipe's write
  # end closes and it stops every job (no orphan keeps writing).
  exec 8> >(trap '' INT TERM; read -r line || true; [ "${line:-}" = "done" ] || kill_jobs)
  wait "$sid" || failed=$?
  sid=""
  echo "done" >&8
  exec 8>&-
fi

if [ $failed -ne 0 ] || [ "$(done_count)" -ne "$n" ]; then
  rc=1 why=""
  for ((j = 1; j <= n; j++)); do
    [ ! -s "$work/$j.row" ] && [ -e "$work/$j.err" ] || continue
    msg=$(head -n1 "$work/$j.err")
    why="point $j ($(sed -n "${j}p" "$work/grid" | tr '\t' ' ')): ${msg:-no message (out of space?)}"
    [ "$(cat "$work/$j.rc" 2>/dev/null)" != 2 ] || rc=2
    break
  done
  echo "sweep.sh: ${why:-a run failed}; $(done_count) of $n points done; fix the cause and rerun with --resume" >&2
  [ "$(done_count)" -gt 0 ] || rm -rf "$work"
  exit $rc
fi

# ---- the CSV: header + rows in grid order, renamed into place -----------------
# A row equal to an earlier one (a value the launch caps, such as
# launch.blocks_per_sm past the occupancy limit) is dropped.
if ! {
  cat "$work/header"
  for ((j = 1; j <= n; j++)); do cat "$work/$j.row"; done
} | awk '!seen[$0]++ { print; next } { d++ } END { if (d) printf "%d\n", d > "/dev/stderr" }' \
  >"$out.tmp" 2>"$work/dups"; then
  rm -f "$out.tmp"
  echo "sweep.sh: cannot write $out (disk full?); the rows stay in $work for --resume" >&2
  exit 1
fi
dups=$(cat "$work/dups")
[ -z "$dups" ] || warn "dropped $dups point(s) whose row repeats an earlier one (a value the launch caps)"
mv -f "$out.tmp" "$out"
rm -rf "$work"
[ $quiet -eq 1 ] || echo "sweep.sh: $((n - ${dups:-0})) runs -> $out" >&2
