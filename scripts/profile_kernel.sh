#!/usr/bin/env bash
# profile_kernel.sh - the Nsight Compute recipe as the project runs it, on
# the machine with the GPU: dump the binary's SASS (cuobjdump -sass), profile
# ONE launch of the kernel once (ncu --clock-control none --set full, one
# report), export that report twice (the source page with SASS, the details
# page, both CSV), and write a kernel file for warpsim (the traces/*_sass.ini
# format: [sass] file, function, source_csv, details_csv; [launch]
# threads_per_block and, when given, blocks_per_sm).  Copy the folder to
# where warpsim runs; `warpsim run --kernel DIR/NAME.ini` reads it.
# doc/ncu_recipe.md explains each step (counter permissions, PTX-only
# binaries, clocks).
#
# Usage: scripts/profile_kernel.sh --function NAME --threads N [options] -- APP [ARGS...]
#   --function NAME   the kernel: ncu's --kernel-name regex:NAME and the
#                     kernel file's function (a substring of one demangled name)
#   --threads N       threads per block of the profiled launch (1..1024)
#   --blocks-per-sm B the resident blocks per SM to simulate (optional)
#   --binary FILE     the file holding the kernel's machine code (default APP)
#   --launch-skip K   launches of NAME to skip before the profiled one (default 0)
#   --out DIR         where the files go (default ./profile_NAME); they are
#                     NAME.sass, NAME.ncu-rep, NAME_source.csv,
#                     NAME_details.csv and NAME.ini
#   NCU, CUOBJDUMP    environment: the tools to run (default ncu, cuobjdump)
# Exit status: 0 written; 2 bad arguments, a missing tool, no counter
# permission, or a binary without SASS for the kernel (nothing written then
# except the folder); 1 another failure of ncu (its messages shown).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
me=profile_kernel.sh
fn="" threads="" bps="" binary="" skip=0 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) warpsim_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    --) shift; break ;;
    --function|--threads|--blocks-per-sm|--binary|--launch-skip|--out)
      [ $# -ge 2 ] || warpsim_die "$1 needs a value (see --help)" ;;&
    --function) fn=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --blocks-per-sm) bps=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    --launch-skip) skip=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) warpsim_die "unknown argument '$1' (the application goes after --; see --help)" ;;
  esac
done
[ -n "$fn" ] || warpsim_die "--function NAME is required (the kernel's name; see --help)"
case "$fn" in *[!A-Za-z0-9_]*) warpsim_die "--function '$fn': allowed letters, digits and _ (a C++ identifier)" ;; esac
[ -n "$threads" ] || warpsim_die "--threads N is required (threads per block of the profiled launch)"
uint() { # VALUE OPTION LO HI (base 10; more than 9 digits is out of range, not a test error)
  case "$1" in '' | *[!0-9]*) warpsim_die "$2 '$1': not a whole number (allowed $3..$4)" ;; esac
  [ ${#1} -le 9 ] && [ $((10#$1)) -ge "$3" ] && [ $((10#$1)) -le "$4" ] ||
    warpsim_die "$2 '$1': out of range (allowed $3..$4)"
}
uint "$threads" --threads 1 1024
[ -z "$bps" ] || uint "$bps" --blocks-per-sm 1 64
uint "$skip" --launch-skip 0 1000000
# as written to NAME.ini and given to ncu: 08 is 8
threads=$((10#$threads)) skip=$((10#$skip))
[ -z "$bps" ] || bps=$((10#$bps))
[ $# -ge 1 ] || warpsim_die "no application to profile (give it after --: -- ./app [args])"
binary=${binary:-$1}
[ -f "$binary" ] || warpsim_die "--binary '$binary': no such file (the executable or library holding $fn)"
ncu=${NCU:-ncu} cuobjdump=${CUOBJDUMP:-cuobjdump}
for t in "$ncu" "$cuobjdump"; do
  command -v "$t" >/dev/null 2>&1 ||
    warpsim_die "'$t' not found: run this where the CUDA toolkit and Nsight Compute are installed (or set NCU, CUOBJDUMP)"
done
out=${out:-./profile_$fn}
mkdir -p "$out" 2>/dev/null || warpsim_die "--out '$out': cannot create the folder"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The machine code.  A fatbin with only PTX for this GPU has no SASS
# listing (the driver compiles it at load time): refused with the fix.
"$cuobjdump" -sass "$binary" >"$tmp/k.sass" 2>"$tmp/cuobjdump.err" ||
  { cat "$tmp/cuobjdump.err" >&2; warpsim_die "cuobjdump -sass '$binary' failed (above)"; }
grep -q "Function : .*$fn" "$tmp/k.sass" ||
  warpsim_die "'$binary' holds no SASS for a function matching '$fn' (a PTX-only binary is JIT-compiled by the driver and cuobjdump lists nothing: compile with -gencode arch=compute_XX,code=sm_XX for the GPU's own XX, e.g. 90 for an H100/H200)"

# 2. One profiling run: one launch, every section, the clocks as the GPU
# runs them (ncu's default locks them to base, e.g. 1.50 GHz on an H200
# that runs at 1.98).
set +e
"$ncu" --clock-control none --set full --kernel-name "regex:$fn" --launch-skip "$skip" \
  --launch-count 1 -f -o "$tmp/k" "$@" >"$tmp/ncu.log" 2>&1
rc=$?
set -e
if grep -q ERR_NVGPUCTRPERM "$tmp/ncu.log"; then
  warpsim_die "ncu: ERR_NVGPUCTRPERM, no permission to read the GPU's performance counters: run as root (sudo) or, as root once, 'echo options nvidia NVreg_RestrictProfilingToAdminUsers=0 > /etc/modprobe.d/ncu-permissions.conf', rebuild the initramfs and reboot (doc/ncu_recipe.md)"
fi
if [ $rc -ne 0 ] || [ ! -s "$tmp/k.ncu-rep" ]; then
  cat "$tmp/ncu.log" >&2
  echo "$me: ncu exited $rc without a report of $fn (above); nothing written" >&2
  exit 1
fi

# 3. Two exports of that one report.
"$ncu" --import "$tmp/k.ncu-rep" --page source --print-source sass --csv >"$tmp/source.csv" 2>>"$tmp/ncu.log" &&
  "$ncu" --import "$tmp/k.ncu-rep" --page details --csv >"$tmp/details.csv" 2>>"$tmp/ncu.log" ||
  { cat "$tmp/ncu.log" >&2; echo "$me: ncu --import failed (above); nothing written" >&2; exit 1; }
[ -s "$tmp/source.csv" ] && [ -s "$tmp/details.csv" ] ||
  { echo "$me: an export of $tmp/k.ncu-rep is empty; nothing written" >&2; exit 1; }

# 4. The kernel file, its paths relative to itself.
{
  echo "# $fn from its machine code and one Nsight Compute profile"
  echo "# (scripts/profile_kernel.sh: ncu --clock-control none --set full, one launch)."
  echo "[sass]"
  echo "file=$fn.sass"
  echo "function=$fn"
  echo "source_csv=${fn}_source.csv"
  echo "details_csv=${fn}_details.csv"
  echo
  echo "[launch]"
  echo "threads_per_block=$threads"
  [ -z "$bps" ] || echo "blocks_per_sm=$bps"
} >"$tmp/k.ini"
cp "$tmp/k.sass" "$out/$fn.sass"
cp "$tmp/k.ncu-rep" "$out/$fn.ncu-rep"
cp "$tmp/source.csv" "$out/${fn}_source.csv"
cp "$tmp/details.csv" "$out/${fn}_details.csv"
cp "$tmp/k.ini" "$out/$fn.ini"
# The clock the profile ran at (the details page's SM Frequency).
clk=$(awk -F'","' '$(NF - 3) == "SM Frequency" { print $(NF - 1) " " $(NF - 2); exit }' "$out/${fn}_details.csv")
echo "wrote $out/$fn.ini (+ $fn.sass, $fn.ncu-rep, ${fn}_source.csv, ${fn}_details.csv); SM frequency in the profile: ${clk:-not in the export}"
