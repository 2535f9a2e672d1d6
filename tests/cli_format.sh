#!/usr/bin/env bash
# cli_format.sh - the C sources follow .clang-format (clang-format 14 is on the
# project's machines); prints the files that would change.
set -euo pipefail
root=${WARPSIM_ROOT:?}
if ! command -v clang-format >/dev/null 2>&1; then
  echo "clang-format not installed: formatting not checked (skipped)"
  exit 77 # CTest's SKIP_RETURN_CODE (tests/CMakeLists.txt)
fi
cd "$root"
bad=0 n=0
for f in sim/*/*.c sim/*/*.h tests/*.c tests/fuzz/*.c tests/fuzz/*.h; do
  n=$((n + 1))
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (run clang-format -i $f)"
    bad=$((bad + 1))
  fi
done
echo "$((n - bad)) passed, $bad failed"
[ $bad -eq 0 ]
