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
