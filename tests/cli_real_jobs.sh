#!/usr/bin/env bash
# cli_real_jobs.sh - warpsim_real_jobs (scripts/lib.sh), the measured
# points of the real kernels and the `warpsim run` options that launch each
# as measured, which validate_real.sh, loko.sh and bench.sh share: on a tiny
# tree of two sets (a kernel with its own traces file; a name the second set
# repeats, which takes its suffix; a K_N kernel run from traces/K_sass.ini
# with its function and registers), every line written out by hand; a
# kernel filter; an unknown kernel is one line and status 2.  Runs nothing.
# Needs WARPSIM_ROOT (CTest sets it).
set -u
root=${WARPSIM_ROOT:?}
. "$root/tests/common.sh"
. "$root/scripts/lib.sh"
t=$tmp/tree
mkdir -p "$t/models" "$t/traces" "$t/results/reference/h200/real" "$t/results/reference/h200/real3"
printf 'name=h200\nsms=4\n' >"$t/models/h200.ini"
: >"$t/traces/ax_sass.ini"
: >"$t/traces/sp_sass.ini"
: >"$t/traces/ax3_sass.ini"
hdr_a=kernel,regs,static_smem,local_bytes,max_blocks_per_sm_no_pad,work_per_block,unit
hdr_c=kernel,blocks_per_sm,warps_per_sm,dyn_smem,cycles,work_per_cycle_per_sm,unit,blocks_min,blocks_max
printf '%s\nax,32,0,0,16,1000,bytes\n' "$hdr_a" >"$t/results/reference/h200/real/attrs.csv"
printf '%s\r\nax,1,4,2048,10,100,bytes,1,1\r\nax,2,8,1024,20,100.5,bytes,2,2\r\n' "$hdr_c" \
  >"$t/results/reference/h200/real/curves.csv"
printf '%s\nax,40,0,0,16,3000,bytes\nsp_7,72,0,0,8,500,ffma\n' "$hdr_a" >"$t/results/reference/h200/real3/attrs.csv"
printf '%s\nax,3,12,0,9,333,bytes,3,3\nsp_7,1,4,4096,9,55.5,ffma,1,1\n' "$hdr_c" \
  >"$t/results/reference/h200/real3/curves.csv"
k=$t/traces
launch() { echo "--set launch.blocks_per_sm=$1 --set launch.blocks=$2 --set launch.smem_dynamic=$3 --set launch.optin=true"; }
{ printf 'ax\t1\t4\t100\t1000\t--kernel %s %s\n' "$k/ax_sass.ini" "$(launch 1 4 2048)"
  printf 'ax\t2\t8\t100.5\t1000\t--kernel %s %s\n' "$k/ax_sass.ini" "$(launch 2 8 1024)"
  printf 'ax3\t3\t12\t333\t3000\t--kernel %s %s\n' "$k/ax3_sass.ini" "$(launch 3 12 0)"
  printf 'sp_7\t1\t4\t55.5\t500\t--kernel %s --set sass.function=k_sp_7( --set launch.regs_per_thread=72 %s\n' \
    "$k/sp_sass.ini" "$(launch 1 4 4096)"; } >"$tmp/want"
warpsim_real_jobs "$t" >"$tmp/got" 2>"$tmp/err" || fail "all points: status $?: $(cat "$tmp/err")"
diff "$tmp/want" "$tmp/got" >"$tmp/diff" || fail "all points differ: $(cat "$tmp/diff")"
ok
warpsim_real_jobs "$t" sp_7 ax3 >"$tmp/got" 2>"$tmp/err" || fail "two kernels: status $?: $(cat "$tmp/err")"
tail -n2 "$tmp/want" | diff - "$tmp/got" >"$tmp/diff" || fail "two kernels differ: $(cat "$tmp/diff")"
ok
rc=0
warpsim_real_jobs "$t" ax nope >"$tmp/got" 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] || fail "an unknown kernel: status $rc (want 2)"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "an unknown kernel: not one line: $(cat "$tmp/err")"
grep -qF "kernel 'nope': no measured curve (allowed: ax ax3 sp_7)" "$tmp/err" || fail "an unknown kernel: $(cat "$tmp/err")"
[ ! -s "$tmp/got" ] || fail "an unknown kernel: printed points"
ok
# The shipped tree: 1121 points (83 curves), as validate_real.sh simulates (real10:
# 89 points, 9 of wmma, 16 each of cpasync, h2axpy, shist, ihash, 8 each of dgemm, bsort;
# real11: 124 points, 12 of dp4a, 16 each of vote, aos12, lmem, cdiv, cas, dsqrt, mix64;
# real12: 118 points, 16 each of tex, dsmem, bulk, bytes, idiv, bf16, 10 of imma, 12 of bank;
# real13: 114 points, 16 each of radix, mcarlo, st3d, kmeans, fp8, 12 of lnorm, wspec, 10 of fft).
warpsim_real_jobs "$root" >"$tmp/got" || fail "the shipped tree: status $?"
[ "$(wc -l <"$tmp/got")" = 1121 ] || fail "the shipped tree: $(wc -l <"$tmp/got") points (want 1121)"
[ "$(cut -f1 "$tmp/got" | sort -u | wc -l)" = 83 ] || fail "the shipped tree: not 83 kernels"
ok
echo "$passed passed, 0 failed"
