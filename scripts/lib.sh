# shellcheck shell=bash
# lib.sh - helpers the scripts share (sourced, not run).

# warpsim_usage FILE: print FILE's header comment, from line 2 to the first
# line that is not a comment, without the leading "# ".
warpsim_usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$1"; }

# warpsim_help FILE ARGS...: print the usage and exit 0 when ARGS hold -h or --help.
warpsim_help() {
  local file=$1
  shift
  for a in "$@"; do
    case "$a" in
      -h|--help) warpsim_usage "$file"; exit 0 ;;
    esac
  done
}

# warpsim_die MESSAGE...: "SCRIPT: MESSAGE" on stderr, exit 2 (bad input).
warpsim_die() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# warpsim_need_source ROOT: exit 2 with one line unless ROOT (the folder
# above scripts/) is a source tree; an installed copy (cmake --install puts
# the scripts in PREFIX/share/warpsim/scripts) has nothing to build or test.
warpsim_need_source() {
  [ -e "$1/CMakeLists.txt" ] && return 0
  warpsim_die "needs the warpsim source tree, and $1 is an installed copy (no CMakeLists.txt): run it in a clone of the repository (the installed scripts that run warpsim, such as sweep.sh and run.sh, work here)"
}

# warpsim_fresh_cache ROOT BUILD: a CMake cache in BUILD made for another
# source tree (a moved or copied clone) makes cmake fail; say so in one line
# and remove it (CMakeCache.txt and CMakeFiles/), so BUILD is configured from
# scratch for ROOT.
warpsim_fresh_cache() {
  local cache=$2/CMakeCache.txt was
  [ -f "$cache" ] || return 0
  was=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")
  [ -n "$was" ] && [ "$was" -ef "$1" ] && return 0
  echo "$(basename "$0"): $2 was configured for ${was:-another source tree}, not $1 (a moved clone): configuring it from scratch" >&2
  rm -rf "$cache" "$2/CMakeFiles"
}

# warpsim_check_set SETTING: a --set the script passes to warpsim through a
# word-split option list; one with a space or glob character would split or
# expand, so it is refused (warpsim_die).
warpsim_check_set() {
  case "$1" in *[[:space:]*?[]*)
    warpsim_die "--set '$1': a space or glob character in a setting is not supported (allowed group.key=value without space, tab, * ? [)" ;;
  esac
}

# warpsim_error_line FILE: the first line of a warpsim stderr capture that is
# neither a warning nor a note (what made the run fail); nothing when there is
# none or FILE is missing.  (A note is no failure: validate_real.sh named
# spill_0's "--no-anchor: ... nothing to anchor" note for real12's dsmem,
# which warpsim had refused.)
warpsim_error_line() {
  grep -v -e '^warpsim: warning:' -e '^warpsim: note:' "$1" 2>/dev/null | head -n1 || true
}

# The measurement sets of real kernels under results/reference/h200/, in the
# order every script reads them (warpsim_real_jobs, validate_real.sh's units):
# a kernel name an earlier set used takes a later set's suffix.
WARPSIM_REAL_SETS="real real2 spill_sass real3 real4 real5 real6 real7 real8 real9 real_b real10 real11 real12 real13"

# warpsim_real_jobs ROOT [KERNEL...]: the measured points of the real
# kernels under ROOT/results/reference/h200/ (the sets of WARPSIM_REAL_SETS,
# in that order; a set without a
# curves.csv is skipped), one line per point in the order of the sets and
# their curves.csv, tab-separated: kernel, B (resident blocks per SM),
# warps per SM, measured work per cycle per SM, work per block (attrs.csv),
# and the `warpsim run` options that launch it as measured (word-split
# them; ROOT must have no space): the kernel file traces/K_sass.ini (a
# kernel K_N without one: traces/K_sass.ini with sass.function=k_K_N( and
# launch.regs_per_thread from attrs.csv), B blocks per SM pinned by the
# dynamic shared memory of curves.csv (opt-in), one wave of B x sms CTAs
# (sms of ROOT/models/h200.ini: the H200 they ran on).  A kernel name an
# earlier set already used takes its set's suffix (real_b's scan: scan_b).
# With KERNEL names only their points are printed; a name no set has is one
# line on stderr and status 2.  validate_real.sh and loko.sh use it.
warpsim_real_jobs() {
  local root=$1 ref=$1/results/reference/h200 jobs="" seen=" " set sms k rows
  shift
  sms=$(awk -F= '$1 == "sms" { print $2 }' "$root/models/h200.ini")
  for set in $WARPSIM_REAL_SETS; do
    [ -f "$ref/$set/curves.csv" ] || continue
    rows=$(awk -F, -v sms="$sms" -v root="$root" -v seen="$seen" -v suffix="${set#real}" '
      function trace(k,   base, f) {
        f = root "/traces/" k "_sass.ini"
        if ((getline line < f) >= 0) { close(f); return "--kernel " f }
        base = k; sub(/_[0-9]+$/, "", base)
        return sprintf("--kernel %s/traces/%s_sass.ini --set sass.function=k_%s( --set launch.regs_per_thread=%s",
                       root, base, k, regs[k])
      }
      NR == FNR { if (FNR > 1) { sub(/\r$/, ""); work[$1] = $6; regs[$1] = $2 }; next }
      FNR > 1 { sub(/\r$/, ""); k = $1
        if (suffix != "" && index(seen, " " k " ")) { k = k suffix; work[k] = work[$1]; regs[k] = regs[$1] }
        printf "%s\t%s\t%s\t%s\t%s\t%s --set launch.blocks_per_sm=%s --set launch.blocks=%d --set launch.smem_dynamic=%s --set launch.optin=true\n",
               k, $2, $3, $6, work[k], trace(k), $2, $2 * sms, $4 }' \
      "$ref/$set/attrs.csv" "$ref/$set/curves.csv")
    [ -z "$rows" ] || jobs+=$rows$'\n'
    seen=" $(printf '%s' "$jobs" | cut -f1 | sort -u | paste -sd' ' -) "
  done
  for k in "$@"; do
    case "$seen" in *" $k "*) ;; *)
      echo "$(basename "$0"): kernel '$k': no measured curve (allowed:${seen% })" >&2
      return 2 ;;
    esac
  done
  printf '%s' "$jobs" | awk -F'\t' -v want=" $* " 'want == "  " || index(want, " " $1 " ")'
}

# warpsim_curve_points JOBS DIR: the curves of JOBS (warpsim_real_jobs'
# lines; a kernel's points contiguous) for `warpsim run --points`: per
# kernel K, DIR/K holds its points' [launch] sets (from the job's
# --set launch.blocks_per_sm on, one line a point) and DIR/K.b its B and
# work per block (tab-separated, one line a point); prints "K<TAB>the
# options before the points" per kernel, in order.  Status 2 with one
# line on stderr when a kernel's points differ in more than [launch].
warpsim_curve_points() {
  awk -F'\t' -v dir="$2" '
    { k = $1; args = $6; i = index(args, " --set launch.blocks_per_sm=")
      if (k != prev && prev != "") { close(dir "/" prev); close(dir "/" prev ".b") }
      prev = k
      common = substr(args, 1, i - 1); point = substr(args, i + 1); gsub(/--set /, "", point)
      if (!(k in first)) { first[k] = common; order[++n] = k }
      else if (first[k] != common) {
        printf "%s: %s: the points differ in more than [launch]\n", prog, k > "/dev/stderr"; exit 2 }
      print point > (dir "/" k); print $2 "\t" $5 > (dir "/" k ".b") }
    END { for (j = 1; j <= n; j++) print order[j] "\t" first[order[j]] }' prog="$(basename "$0")" "$1"
}

# Installed (cmake --install): these scripts live in PREFIX/share/warpsim/scripts
# with no build tree; unless $WARPSIM says otherwise, run PREFIX/bin/warpsim.
if [ -z "${WARPSIM:-}" ]; then
  warpsim_lib_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  if [ ! -e "$warpsim_lib_root/CMakeLists.txt" ] && [ -x "$warpsim_lib_root/../../bin/warpsim" ]; then
    WARPSIM=$(cd "$warpsim_lib_root/../../bin" && pwd)/warpsim
    export WARPSIM
  fi
  unset warpsim_lib_root
fi
