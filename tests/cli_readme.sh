#!/usr/bin/env bash
# cli_readme.sh - every ```sh block of README.md runs as written (from the
# source tree, with build/sim on PATH and /tmp/ rewritten to a private
# directory) and exits 0; a block followed by a line
# "<!-- readme-test: skip (REASON) -->" is not run (the main job and the tests
# themselves, what needs a GPU, an install).  A README command that breaks
# fails here, naming its block.
set -euo pipefail
root=${WARPSIM_ROOT:?}
bin=${WARPSIM_BIN:?}
command -v parallel >/dev/null 2>&1 || { echo "GNU parallel missing: the sweep blocks cannot run (skipped)"; exit 77; }
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot missing: the plot blocks cannot run (skipped)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Blocks into tmp/block.N (line of the opening fence in tmp/block.N.line).
awk -v dir="$tmp" '
  /^```sh$/ { n++; f = dir "/block." n; print NR > (f ".line"); inb = 1; next }
  inb && /^```$/ { inb = 0; last = f; next }
  inb { print > f; next }
  /^<!-- readme-test: skip/ && last != "" { system("rm -f " last); last = "" ; next }
  { if ($0 != "") last = "" }' "$root/README.md"
pass=0 fail=0 skipped=0
total=$(grep -c '^```sh$' "$root/README.md")
for f in "$tmp"/block.*; do
  case $f in *.line|*.out) continue ;; esac
  line=$(cat "$f.line")
  sed -i "s|/tmp/|$tmp/|g" "$f"
  if (cd "$root" && PATH="$(dirname "$bin"):$PATH" WARPSIM="$bin" bash -euo pipefail "$f") >"$f.out" 2>&1; then
    pass=$((pass + 1))
  else
    echo "FAIL: README.md block at line $line:"; sed 's/^/  | /' "$f"; tail -3 "$f.out" | cut -c1-300 | sed 's/^/  > /'
    fail=$((fail + 1))
  fi
done
skipped=$((total - pass - fail))
[ $((pass + fail)) -gt 0 ] || { echo "FAIL: no runnable sh block found in README.md"; fail=1; }
echo "$pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
