#!/usr/bin/env bash
# make_export_corpus.sh - (re)writes tests/fuzz/corpus/export: fuzz_export's
# seeds from every real Nsight Compute export in results/reference/h200, each
# with the SASS listing of its kernel (the input format is in fuzz_export.c).
# Trimmed to keep the corpus a few hundred KB: the listing is the function's
# block with spaces squeezed; the source page keeps the columns the
# simulation uses and one launch; both are whole for kernels of at most
# WHOLE (104) instructions and saxpy, so those seeds run to the end, else cut
# at MAX (16) instructions (their listings are then refused, at a branch
# past the end, and only the harness's direct parser calls see the
# exports); the details
# page keeps the columns warpsim reads and the launch's rows of the metrics
# it reads, and SM Active Cycles and IPC.  Exports of no
# SASS kernel (raw --metrics CSV, microbenchmarks) become the details part of
# saxpy's seed, first 40 lines.  Run from anywhere; deterministic.
set -eu
command -v c++filt >/dev/null || { echo "make_export_corpus.sh: needs c++filt (binutils)" >&2; exit 1; }
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/tests/fuzz/corpus/export
max=${MAX:-16}
rm -rf "$out"
mkdir -p "$out"

# listing FILE FUNCTION LIMIT: the header lines and FUNCTION's block (the
# first whose mangled name is FUNCTION or whose name demangled by c++filt
# holds it, as warpsim picks), at most LIMIT instructions (0: all).
listing() {
  awk -v want="$2" -v limit="$3" '
    /^(Fatbin elf code:|arch = |code version|host = |compile_size|=+$)/ && !done { hdr = hdr $0 "\n" }
    /^[ \t]*code for sm_/ && !done { hdr = hdr $0 "\n" }
    /Function : / {
      name = $NF; cmd = "c++filt \"" name "\""; cmd | getline dm; close(cmd)
      on = !done && (name == want || index(dm, want) > 0); n = 0
    }
    on && !done && $0 ~ /\/\*[0-9a-f]+\*\// && limit > 0 && ++n > limit { body = body "\t\t..........\n"; done = 1 }
    on && !done { body = body $0 "\n" }
    on && /^\t\t\.\.\.\.\.\.\.\.\.\./ { done = 1 }
    END { printf "%s%s", hdr, body }' "$1" | tr -s ' '
}

# source FILE LIMIT: the first launch, the columns warpsim reads.
source_page() {
  awk -F'","' -v limit="$2" '
    NR == 1 { print; next }
    /^"Kernel Name"/ { exit }
    NR == 2 {
      split("Address,Source,Instructions Executed,Address Space,Access Operation,Access Size,L1 Wavefronts Shared,L2 Theoretical Sectors Global,L2 Theoretical Sectors Local", want, ",")
      for (i = 1; i <= NF; i++) { f = $i; gsub(/"/, "", f); for (j in want) if (want[j] == f) keep[i] = 1 }
    }
    NR > 2 && limit > 0 && NR - 2 > limit { exit }
    { s = ""; for (i = 1; i <= NF; i++) if (i in keep) { f = $i; gsub(/"/, "", f); s = s (s == "" ? "" : ",") "\"" f "\"" } print s }' "$1"
}

# details FILE KEY: the first launch whose Kernel Name holds KEY, columns ID,
# Kernel Name, Section Name, Metric Name, Metric Unit, Metric Value.
details_page() {
  awk -F'","' -v key="$2" '
    NR == 1 { for (i = 1; i <= NF; i++) { f = $i; gsub(/"/, "", f); col[f] = i } print "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\""; next }
    { id = $1; gsub(/"/, "", id) }
    taken != "" && id != taken { exit }
    taken == "" && index($(col["Kernel Name"]), key) != 1 { next }
    { taken = id; m = $(col["Metric Name"]) }
    m ~ /^(Registers Per Thread|.* Shared Memory Per Block|Shared Memory Configuration Size|Block Size|Grid Size|.*Hit Rate|Executed Instructions|.*Active Warps.*|Memory Throughput|Duration|SM Active Cycles|Executed Ipc Active)$/ {
      v = $(col["Metric Value"]); sub(/",.*$/, "", v); gsub(/"/, "", v)
      printf "\"%s\",\"%s\",\"%s\",\"%s\",\"%s\",\"%s\"\n", id, $(col["Kernel Name"]), $(col["Section Name"]), m, $(col["Metric Unit"]), v }' "$1"
}

whole=${WHOLE:-104}
n=0
for ini in "$root"/traces/*_sass.ini; do
  name=$(basename "$ini" _sass.ini)
  get() { sed -n "s/^$1=//p" "$ini" | head -1; }
  src=$(get source_csv)
  [ -n "$src" ] || continue
  dir=$(dirname "$ini")
  sass=$dir/$(get file) fn=$(get function) det=$dir/$(get details_csv)
  limit=$max
  rows=$(awk 'NR > 2 && /^"Kernel Name"/ { exit } NR > 2 { c++ } END { print c }' "$dir/$src")
  [ "$rows" -le "$whole" ] || [ "$name" = saxpy ] && limit=0
  # the details key: the source page's Kernel Name up to its parameter list
  key=$(head -1 "$dir/$src" | sed 's/^"Kernel Name","//; s/(.*//')
  {
    printf '%s\n' "$fn"
    listing "$sass" "$fn" "$limit"
    printf '\n#@source\n'
    source_page "$dir/$src" "$limit"
    printf '\n#@details\n'
    details_page "$det" "$key"
  } >"$out/$name"
  n=$((n + 1))
done
# the spill kernels' exports (no shipped kernel file names them)
sp=$root/results/reference/h200/spill_sass
for c in 48 32; do
  {
    printf 'k_spill_%s(\n' "$c"
    listing "$sp/sass/kernels3.sass" "k_spill_$c(" "$max"
    printf '\n#@source\n'
    source_page "$sp/ncu/spill_${c}_source_b8.csv" "$max"
    printf '\n#@details\n'
    details_page "$sp/ncu/details3_b8.csv" "k_spill_$c"
  } >"$out/spill_$c"
  n=$((n + 1))
done
# exports of no SASS kernel: the details part of saxpy's seed
ref=$root/results/reference/h200
for f in "$ref"/ncu_fma.csv "$ref"/microbench/ncu_access.csv "$ref"/microbench/ncu_stencil_mech.csv \
  "$sp"/ncu/ncu_local_metrics.csv "$ref"/real/ncu/metrics_b2_b8_b16.csv "$ref"/real_b/ncu/metrics_b2_b8_b16.csv; do
  base=$(basename "$(dirname "$(dirname "$f")")")_$(basename "$f" .csv)
  {
    printf 'k_saxpy\n'
    listing "$ref/real/sass/saxpy.sass" k_saxpy "$max"
    printf '\n#@source\n'
    source_page "$ref/real/ncu/saxpy_source_b8.csv" "$max"
    printf '\n#@details\n'
    head -40 "$f"
  } >"$out/other_$base"
  n=$((n + 1))
done
echo "$n seeds, $(du -sk "$out" | cut -f1) KB in $out"
