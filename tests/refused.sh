# refused.sh - sourced by tests/cli_validate*.sh: one bad-input check of a
# validation script.  Needs root (the source tree), out (a scratch folder),
# WARPSIM_BIN and the pass/fail counters of the sourcing test.
#
# refused SCRIPT NAME NEEDLE -- ARGS...: scripts/SCRIPT --out "$out/bad" ARGS
# exits 2 with one line on stderr holding NEEDLE and writes no output folder
# (a later --out in ARGS takes its place); counts a pass or prints the fail.
refused() {
  local script=$1 name=$2 needle=$3 rc=0 lines
  shift 4
  WARPSIM=$WARPSIM_BIN "$root/scripts/$script" --out "$out/bad" "$@" >/dev/null 2>"$out/bad.err" || rc=$?
  lines=$(wc -l <"$out/bad.err")
  if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$needle" "$out/bad.err" && [ ! -e "$out/bad" ]; then
    pass=$((pass + 1))
  else
    echo "FAIL: $script $name: rc $rc, $lines lines: $(head -c 600 "$out/bad.err")"
    fail=$((fail + 1))
  fi
}
