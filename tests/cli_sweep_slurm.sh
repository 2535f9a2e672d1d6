#!/usr/bin/env bash
# cli_sweep_slurm.sh - the Slurm job-array recipe of doc/sweeps.md writes the
# CSV scripts/sweep.sh writes: its three blocks (slurm-grid.sh,
# slurm-task.sh, slurm-merge.sh) are taken from the file as they stand, the
# grid made smaller with a --set of fewer iterations, the array tasks run
# one by one in place of Slurm, and the result compared byte for byte with
# sweep.sh's CSV for the same grid.  Needs WARPSIM_BIN, WARPSIM_ROOT and GNU
# parallel (for the reference sweep; 77 without it).
set -u
bin=${WARPSIM_BIN:?}
root=${WARPSIM_ROOT:?}
command -v parallel >/dev/null 2>&1 || { echo "GNU parallel not installed"; exit 77; }
. "$root/tests/common.sh"
doc=$root/doc/sweeps.md

# block NAME: the ```sh block of doc/sweeps.md whose first line is "# NAME".
block() {
  awk -v name="# $1" '/^```sh$/ { inb = 1; first = 1; next } /^```$/ { inb = 0; take = 0; next }
    inb && first { first = 0; take = (index($0, name) == 1) } inb && take { print }' "$doc"
}
for b in slurm-grid.sh slurm-task.sh slurm-merge.sh; do
  block "$b" >"$tmp/$b"
  [ -s "$tmp/$b" ] || fail "doc/sweeps.md has no block '# $b'"
done
# The recipe's grid, smaller: 2 ILP values x 3 block counts, 16 iterations
# (blocks 20 runs the 16 that fit: its row repeats the one before, dropped).
sed -i -e 's|^W=\$PWD/build/sim/warpsim OUT=\$PWD/fma.csv$|W=$WARPSIM_BIN OUT=$TMPOUT|' \
  -e 's|--axis stream.ilp=1..8|--axis stream.ilp=1,2|; s|--axis launch.blocks_per_sm=1..16)|--axis launch.blocks_per_sm=1,16,20)|' \
  -e 's|stream.iterations=32|stream.iterations=16|' "$tmp/slurm-grid.sh"
grep -q 'TMPOUT' "$tmp/slurm-grid.sh" && grep -q 'launch.blocks_per_sm=1,16,20' "$tmp/slurm-grid.sh" ||
  fail "the grid block changed: adapt this test's edits: $(cat "$tmp/slurm-grid.sh")"
export TMPOUT=$tmp/slurm.csv WARPSIM_BIN=$bin
(
  cd "$root" || exit 1
  # shellcheck disable=SC1091
  . "$tmp/slurm-grid.sh" || exit 1
  [ "$N" -eq 6 ] || { echo "grid of $N points, 6 expected"; exit 1; }
  for ((SLURM_ARRAY_TASK_ID = 1; SLURM_ARRAY_TASK_ID <= N; SLURM_ARRAY_TASK_ID++)); do
    W=$W OUT=$OUT N=$N SLURM_ARRAY_TASK_ID=$SLURM_ARRAY_TASK_ID bash "$tmp/slurm-task.sh" 2>>"$tmp/err" || exit 1
  done
  . "$tmp/slurm-merge.sh"
) || fail "the recipe failed: $(cat "$tmp/err" 2>/dev/null)"
# The same grid through sweep.sh.
WARPSIM=$bin "$root/scripts/sweep.sh" -o "$tmp/sweep.csv" --quiet --kernel fma --set stream.iterations=16 \
  --axis stream.ilp=1,2 --derive 'stream.fma=32*stream.ilp' --axis launch.blocks_per_sm=1,16,20 2>/dev/null ||
  fail "sweep.sh"
[ "$(wc -l <"$tmp/sweep.csv")" -eq 5 ] || fail "sweep.sh: $(wc -l <"$tmp/sweep.csv") lines, 5 expected"
cmp -s "$tmp/slurm.csv" "$tmp/sweep.csv" || fail "the recipe's CSV differs: $(diff "$tmp/slurm.csv" "$tmp/sweep.csv" | head -4)"
ok
echo "$passed passed, 0 failed"
