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
# not a warning (what made the run fail); nothing when there is none or FILE
# is missing.
warpsim_error_line() {
  grep -v '^warpsim: warning:' "$1" 2>/dev/null | head -n1 || true
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
