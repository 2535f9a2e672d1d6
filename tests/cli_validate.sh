#!/usr/bin/env bash
# cli_validate.sh - the validation against the real H200 as a test: every
# curve's MAPE <= 10 % and knee within 4 warps (scripts/validate.sh --check).
set -euo pipefail
root=${WARPSIM_ROOT:?}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
WARPSIM=${WARPSIM_BIN:?} "$root/scripts/validate.sh" --check --out "$out"
rows=$(tail -n +2 "$out/summary.csv" | wc -l)
failed=$(grep -c ',NO$' "$out/summary.csv" || true)
echo "$((rows - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
