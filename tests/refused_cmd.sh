# refused_cmd.sh - sourced by tests/cli_curve_stats.sh and cli_sweep_points.sh:
# one bad-input check of a warpsim subcommand.  Needs bin (warpsim), tmp (a
# scratch folder) and the sourcing test's fail and ok functions.
#
# refused NEEDLE COMMAND ARGS...: `warpsim COMMAND ARGS` exits 2 with one line
# on stderr holding NEEDLE and nothing on stdout; counts a pass (ok) or fails.
refused() {
  local want=$1 rc=0
  shift
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ $rc -eq 2 ] || fail "$* exited $rc, not 2"
  [ ! -s "$tmp/out" ] || fail "$* wrote to stdout"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$*: not one line: $(cat "$tmp/err")"
  grep -qF -- "$want" "$tmp/err" || fail "$*: '$(cat "$tmp/err")' does not say '$want'"
  ok
}
