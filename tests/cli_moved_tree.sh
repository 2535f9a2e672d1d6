#!/usr/bin/env bash
# cli_moved_tree.sh - scripts/build.sh (and so run.sh and test.sh, which
# call it) in a moved clone: the build folder's CMake cache names the old
# source tree, so build.sh says so in one line and configures it from
# scratch (a bare cmake fails with "CMakeCache.txt directory ... is
# different").  Tried on a small stand-in tree (the repository's build.sh
# and lib.sh beside a CMakeLists.txt of one C file), so no full build runs.
# Then, in a `cmake --install` prefix, the scripts that need a source tree
# (build.sh, test.sh, fuzz.sh, callgrind_count.sh) exit 2 with one line
# saying so.  Needs WARPSIM_BIN (in its CMake build directory) and
# WARPSIM_ROOT; skipped (77) without that build directory or cmake.
set -u
root=${WARPSIM_ROOT:?}
command -v cmake >/dev/null 2>&1 || { echo "cmake not installed"; exit 77; }
# The build folder: the one above sim/warpsim that holds a CMake cache.
build=$(cd "$(dirname "${WARPSIM_BIN:?}")/.." && pwd)
[ -f "$build/CMakeCache.txt" ] || { echo "no CMake build directory above $WARPSIM_BIN"; exit 77; }
. "$root/tests/common.sh"

# The stand-in tree at a/, configured there, then moved to b/.
mkdir -p "$tmp/a/scripts"
cp "$root/scripts/build.sh" "$root/scripts/lib.sh" "$tmp/a/scripts/"
printf '#!/usr/bin/env bash\nexit 0\n' >"$tmp/a/scripts/deps.sh" # nothing to install here
chmod +x "$tmp/a/scripts/deps.sh"
printf 'cmake_minimum_required(VERSION 3.20)\nproject(standin LANGUAGES C)\noption(WARPSIM_WERROR "" OFF)\nadd_executable(standin main.c)\n' \
  >"$tmp/a/CMakeLists.txt"
printf 'int main(void) { return 0; }\n' >"$tmp/a/main.c"
cmake -S "$tmp/a" -B "$tmp/a/build" >"$tmp/log" 2>&1 || fail "configure a: $(cat "$tmp/log")"
mv "$tmp/a" "$tmp/b"
# What the user saw before: cmake refuses the moved cache.
! cmake -S "$tmp/b" -B "$tmp/b/build" >/dev/null 2>&1 || { echo "this cmake accepts a moved cache"; exit 77; }
"$tmp/b/scripts/build.sh" >"$tmp/out" 2>"$tmp/err" || fail "build.sh in the moved tree: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "not one line: $(cat "$tmp/err")"
grep -q "^build.sh: $tmp/b/build was configured for $tmp/a, not $tmp/b (a moved clone): configuring it from scratch$" "$tmp/err" ||
  fail "message: $(cat "$tmp/err")"
[ -x "$tmp/b/build/standin" ] || fail "nothing built"
grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$tmp/b" "$tmp/b/build/CMakeCache.txt" || fail "cache not for b"
ok
# Built once for b, build.sh says nothing more.
"$tmp/b/scripts/build.sh" >"$tmp/out" 2>"$tmp/err" || fail "build.sh again: $(cat "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "build.sh again says: $(cat "$tmp/err")"
ok

# An installed copy: the scripts that need a source tree say so, exit 2.
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 || fail "cmake --install: $(cat "$tmp/log")"
for s in build.sh test.sh fuzz.sh callgrind_count.sh; do
  rc=0
  (cd "$tmp" && "$tmp/prefix/share/warpsim/scripts/$s") >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ $rc -eq 2 ] || fail "installed $s: exit $rc: $(cat "$tmp/err")"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^$s: needs the warpsim source tree, and $tmp/prefix/share/warpsim is an installed copy" "$tmp/err" ||
    fail "installed $s: $(cat "$tmp/err")"
  ! grep -qi cmake "$tmp/out" || fail "installed $s ran cmake"
  "$tmp/prefix/share/warpsim/scripts/$s" --help >/dev/null || fail "installed $s --help"
done
ok
echo "$passed passed, 0 failed"
