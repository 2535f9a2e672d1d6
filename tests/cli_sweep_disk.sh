#!/usr/bin/env bash
# cli_sweep_disk.sh - scripts/sweep.sh on a full disk (a small tmpfs): it
# exits non-zero, writes no CSV, leaves no lock or temporary file, keeps only
# complete rows, and --resume finishes once there is room.  Needs root (or a
# user namespace) to mount a tmpfs: skipped (exit 77) when mounting fails.
set -u

bin=${WARPSIM_BIN:?set WARPSIM_BIN to the warpsim binary}
root=${WARPSIM_ROOT:?set WARPSIM_ROOT to the source tree}
command -v parallel >/dev/null 2>&1 || { echo "GNU parallel missing: skipped"; exit 77; }
export WARPSIM=$bin
tmp=$(mktemp -d)
mnt=$tmp/mnt
mkdir "$mnt"
if ! mount -t tmpfs -o size=4k tmpfs "$mnt" 2>/dev/null; then
  rm -rf "$tmp"
  echo "cannot mount a tmpfs here: skipped"
  exit 77
fi
trap 'umount "$mnt"; rm -rf "$tmp"' EXIT
passed=0
fail() {
  echo "FAIL: $*" >&2
  echo "$passed passed, 1 failed"
  exit 1
}
ok() { passed=$((passed + 1)); }
sweep() { "$root/scripts/sweep.sh" -o "$1" --kernel fma --set stream.iterations=64 \
  --axis launch.blocks_per_sm=1..8 --jobs 2 --quiet "${@:2}"; }

sweep "$tmp/ref.csv" || fail "reference sweep"

# A 4 KiB tmpfs holds one file: the sweep cannot even write its state.
sweep "$mnt/a.csv" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] || fail "4 KiB: exit 0 on a full disk"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "4 KiB: not one line: $(cat "$tmp/err")"
[ -z "$(ls -A "$mnt")" ] || fail "4 KiB: left $(ls -A "$mnt")"
ok

# 32 KiB: the state and a row or two fit, then writes fail.
mount -o remount,size=32k "$mnt" || fail "remount"
sweep "$mnt/a.csv" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] || fail "32 KiB: exit 0 on a full disk"
grep -q -- '--resume' "$tmp/err" || fail "32 KiB: message: $(cat "$tmp/err")"
[ ! -e "$mnt/a.csv" ] || fail "32 KiB: wrote the CSV"
[ ! -e "$mnt/a.csv.lock" ] || fail "32 KiB: left the lock"
[ -z "$(find "$mnt" -name '*.tmp')" ] || fail "32 KiB: left a .tmp"
for f in "$mnt"/a.csv.d/*.row; do
  [ -e "$f" ] || continue
  grep -qxF -- "$(cat "$f")" "$tmp/ref.csv" || fail "32 KiB: incomplete row $f"
done
ok

# Room again: --resume completes to the reference.
mount -o remount,size=1m "$mnt" || fail "remount"
sweep "$mnt/a.csv" --resume || fail "--resume after freeing space"
cmp -s "$mnt/a.csv" "$tmp/ref.csv" || fail "resumed CSV differs from the reference"
[ "$(ls -A "$mnt")" = a.csv ] || fail "left $(ls -A "$mnt")"
ok

echo "$passed passed"
