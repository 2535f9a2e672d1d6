#!/usr/bin/env bash
# cli_profile_kernel.sh - scripts/profile_kernel.sh's argument handling and
# its one-run recipe, with a fake ncu and cuobjdump on PATH (no GPU needed):
# the fakes log every call and answer with the repository's own stencil
# listing and exports (results/reference/h200/real/).  Checks: ncu profiles
# once, with --clock-control none, --set full, one launch and the kernel's
# regex, then imports that one report twice (source page with SASS, details
# page, CSV); the kernel file written runs in warpsim; bad arguments, a
# missing tool, ERR_NVGPUCTRPERM and a PTX-only binary exit 2 with one line
# naming the fix and write no kernel file.
set -u
root=${WARPSIM_ROOT:?}
bin=${WARPSIM_BIN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*" >&2; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }
ref=$root/results/reference/h200/real
mkdir "$tmp/bin"
cat >"$tmp/bin/ncu" <<FAKE
#!/usr/bin/env bash
echo "\$*" >>"$tmp/ncu.calls"
[ -z "\${FAKE_PERM:-}" ] || { echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission"; exit 1; }
case " \$* " in
  *" --import "*"--page source "*) cat "$ref/ncu/stencil_source_b8.csv" ;;
  *" --import "*"--page details "*) cat "$ref/ncu/details_full_b8.csv" ;;
  *) while [ \$# -gt 0 ]; do [ "\$1" = -o ] && echo report >"\$2.ncu-rep"; shift; done ;;
esac
FAKE
cat >"$tmp/bin/cuobjdump" <<FAKE
#!/usr/bin/env bash
if [ -n "\${FAKE_PTX:-}" ]; then printf '\nFatbin ptx code:\n================\narch = sm_90\n'; else cat "$ref/sass/stencil.sass"; fi
FAKE
chmod +x "$tmp/bin/ncu" "$tmp/bin/cuobjdump"
: >"$tmp/app"
s=$root/scripts/profile_kernel.sh
run() { PATH=$tmp/bin:$PATH "$s" "$@" >"$tmp/out" 2>&1; }

run --function k_stencil --threads 128 --blocks-per-sm 8 --out "$tmp/p" -- "$tmp/app" --size 4096 ||
  fail "profile_kernel.sh exited $?: $(cat "$tmp/out")"
[ "$(grep -vc -- --import "$tmp/ncu.calls")" = 1 ] && ok || fail "ncu profiled $(grep -vc -- --import "$tmp/ncu.calls") times (want 1)"
prof=$(grep -v -- --import "$tmp/ncu.calls")
for want in "--clock-control none" "--set full" "--kernel-name regex:k_stencil" "--launch-count 1" "--launch-skip 0" "$tmp/app --size 4096"; do
  case "$prof" in *"$want"*) ok ;; *) fail "the profiling run lacks '$want': $prof" ;; esac
done
[ "$(grep -c -- "--import .*k.ncu-rep --page source --print-source sass --csv" "$tmp/ncu.calls")" = 1 ] && ok ||
  fail "no one source export of the report: $(cat "$tmp/ncu.calls")"
[ "$(grep -c -- "--import .*k.ncu-rep --page details --csv" "$tmp/ncu.calls")" = 1 ] && ok ||
  fail "no one details export of the report: $(cat "$tmp/ncu.calls")"
for k in "file=k_stencil.sass" "function=k_stencil" "source_csv=k_stencil_source.csv" \
  "details_csv=k_stencil_details.csv" "threads_per_block=128" "blocks_per_sm=8"; do
  grep -qx "$k" "$tmp/p/k_stencil.ini" && ok || fail "k_stencil.ini lacks '$k'"
done
# Numbers are base 10 and written without leading zeros: 0128 is 128.
run --function k_stencil --threads 0128 --blocks-per-sm 08 --out "$tmp/z" -- "$tmp/app" --size 4096 ||
  fail "profile_kernel.sh --threads 0128 exited $?: $(cat "$tmp/out")"
grep -qx "threads_per_block=128" "$tmp/z/k_stencil.ini" && grep -qx "blocks_per_sm=8" "$tmp/z/k_stencil.ini" && ok ||
  fail "--threads 0128 --blocks-per-sm 08: $(grep -E 'threads|blocks' "$tmp/z/k_stencil.ini")"
grep -q "SM frequency in the profile: 1.9[78] Ghz" "$tmp/out" && ok || fail "no clock line: $(cat "$tmp/out")"
# The kernel file runs: the same cycles as traces/stencil_sass.ini at B = 8.
c1=$("$bin" run --kernel "$tmp/p/k_stencil.ini" --set launch.blocks=1056 --format csv --no-whatif 2>/dev/null |
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["cycles"] }')
c2=$("$bin" run --kernel "$root/traces/stencil_sass.ini" --set launch.smem_dynamic=0 --set launch.optin=false --format csv --no-whatif 2>/dev/null |
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["cycles"] }')
[ -n "$c1" ] && [ "$c1" = "$c2" ] && ok || fail "warpsim on the written kernel file: '$c1' cycles, traces/stencil_sass.ini '$c2'"

# refused NAME NEEDLE [ENV=...] -- ARGS: exit 2, one line with NEEDLE, no kernel file.
refused() {
  local name=$1 needle=$2 envs=()
  shift 2
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  rm -rf "$tmp/q"
  env "${envs[@]}" PATH="$tmp/bin:$PATH" "$s" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc (want 2): $(cat "$tmp/err")"
  [ "$(wc -l <"$tmp/err")" = 1 ] || fail "$name: not one line: $(cat "$tmp/err")"
  grep -qF -- "$needle" "$tmp/err" || fail "$name: '$needle' not in: $(cat "$tmp/err")"
  [ ! -e "$tmp/q/k_stencil.ini" ] || fail "$name: wrote a kernel file"
  ok
}
good=(--function k_stencil --threads 128 --out "$tmp/q")
refused "no --function" "--function NAME is required" -- --threads 128 -- "$tmp/app"
refused "no --threads" "--threads N is required" -- --function k_stencil -- "$tmp/app"
refused "threads past 1024" "--threads '2048': out of range (allowed 1..1024)" -- --function k_stencil --threads 2048 -- "$tmp/app"
# 20 digits were bash's "[: integer expression expected" and then the message: two lines.
refused "threads of 20 digits" "--threads '99999999999999999999': out of range (allowed 1..1024)" -- \
  --function k_stencil --threads 99999999999999999999 -- "$tmp/app"
refused "a regex in --function" "allowed letters, digits and _" -- --function 'k.*' --threads 128 -- "$tmp/app"
refused "no application" "no application to profile" -- "${good[@]}"
refused "an unknown option" "unknown argument '--sett'" -- --sett full "${good[@]}" -- "$tmp/app"
refused "a missing binary" "--binary '$tmp/nothere': no such file" -- "${good[@]}" -- "$tmp/nothere"
refused "no ncu" "'nosuchncu' not found" NCU=nosuchncu -- "${good[@]}" -- "$tmp/app"
refused "counter permission" "NVreg_RestrictProfilingToAdminUsers=0" FAKE_PERM=1 -- "${good[@]}" -- "$tmp/app"
refused "PTX only" "-gencode arch=compute_XX,code=sm_XX" FAKE_PTX=1 -- "${good[@]}" -- "$tmp/app"
refused "another kernel" "no SASS for a function matching 'k_other'" -- --function k_other --threads 128 --out "$tmp/q" -- "$tmp/app"
echo "$passed passed, 0 failed"
