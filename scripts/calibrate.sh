#!/usr/bin/env bash
# calibrate.sh - measure your own NVIDIA GPU and write a warpsim model for it.
# Builds the CUDA microbenchmarks in calibrate/ with nvcc for the GPU's compute
# capability, runs them (a progress line per benchmark; about 40 s on an H200),
# writes the raw CSVs to results/reference/NAME/ (the layout of
# results/reference/h200/, plus l1.csv, inflight.csv, latency_sm.csv,
# fma_uniform.csv, spill.csv, the spill kernels' SASS and sass.txt),
# derives models/NAME.ini from them (every number with its
# provenance: the CSV and row it comes from), and validates the new model
# against the curves it measured (scripts/validate.sh --ref).
#
# Usage: scripts/calibrate.sh [--name NAME] [--ref-dir DIR] [--model-out FILE]
#                             [--measure-only | --fit-only] [--force]
#   --name NAME      model name (default: from the GPU's name, e.g. "NVIDIA H200" -> h200)
#   --ref-dir DIR    where the CSVs go (default results/reference/NAME)
#   --model-out FILE the model written (default models/NAME.ini)
#   --measure-only   build and run the benchmarks only (no warpsim needed)
#   --fit-only       derive the model from the CSVs already in --ref-dir (no GPU needed)
#   --force          overwrite an existing model file
# Needs nvcc (CUDA toolkit; $NVCC to choose one) and an NVIDIA GPU (nvidia-smi),
# except with --fit-only.  Exit status 2 when either is missing or on bad arguments.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"
name="" ref="" model_out="" mode=all force=0
while [ $# -gt 0 ]; do
  case "$1" in
    --name|--ref-dir|--model-out) [ $# -ge 2 ] || warpsim_die "$1 needs a value (see --help)" ;;&
    --name) name=$2; shift 2 ;;
    --ref-dir) ref=$2; shift 2 ;;
    --model-out) model_out=$2; shift 2 ;;
    --measure-only) mode=measure; shift ;;
    --fit-only) mode=fit; shift ;;
    --force) force=1; shift ;;
    *) warpsim_die "unknown argument '$1' (see --help)" ;;
  esac
done
if [ -n "$name" ] && ! [[ $name =~ ^[a-z0-9][a-z0-9_-]*$ ]]; then
  warpsim_die "--name '$name': use lower-case letters, digits, '-' and '_'"
fi

if [ "$mode" != fit ]; then
  nvcc=${NVCC:-nvcc}
  command -v "$nvcc" >/dev/null 2>&1 ||
    warpsim_die "nvcc not found ('$nvcc'): install the CUDA toolkit or set NVCC=/path/to/nvcc"
  command -v nvidia-smi >/dev/null 2>&1 ||
    warpsim_die "no NVIDIA GPU: nvidia-smi not found (the driver is not installed)"
  gpu=$(nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader 2>/dev/null | head -1) ||
    gpu=""
  [ -n "$gpu" ] || warpsim_die "no NVIDIA GPU: nvidia-smi lists none"
  gpu_name=${gpu%%,*}
  cc=$(echo "${gpu##*,}" | tr -d ' ')
  [[ $cc =~ ^[0-9]+\.[0-9]+$ ]] || warpsim_die "nvidia-smi gave no compute capability ('$gpu')"
  if [ -z "$name" ]; then
    name=$(echo "$gpu_name" | tr 'A-Z' 'a-z' | sed -e 's/nvidia//; s/geforce//; s/tesla//' -e 's/[^a-z0-9]//g')
    [ -n "$name" ] || name=gpu
  fi
fi
[ -n "$name" ] || warpsim_die "--fit-only needs --name (or --ref-dir and --model-out)"
ref=${ref:-$root/results/reference/$name}
model_out=${model_out:-$root/models/$name.ini}

if [ "$mode" != fit ]; then
  arch=${cc/./}
  build=$(mktemp -d)
  trap 'rm -rf "$build"' EXIT
  mkdir -p "$ref"
  echo "calibrate.sh: $gpu_name (cc $cc): building the benchmarks (sm_$arch) ..." >&2
  flags=(-O3 -std=c++17 "-gencode=arch=compute_$arch,code=sm_$arch")
  "$nvcc" "${flags[@]}" -o "$build/bench" "$root/calibrate/bench.cu" ||
    warpsim_die "nvcc failed on calibrate/bench.cu"
  "$nvcc" "${flags[@]}" -Xptxas -v -o "$build/spill" "$root/calibrate/spill.cu" 2>"$build/ptxas.txt" ||
    { cat "$build/ptxas.txt" >&2; warpsim_die "nvcc failed on calibrate/spill.cu"; }
  # The machine code of the kernels whose instructions decide what they
  # measure: the FFMA chains (register banks: calibrate_fit.sh reads the ILP 1
  # FFMA of fma.csv's kernel) and the dependent-load chains of latency.csv.
  if command -v cuobjdump >/dev/null 2>&1; then
    cuobjdump -sass "$build/bench" | awk '
      /Function :/ { keep = ($3 ~ /k_fmaILi1E|k_fma_uILi1E|k_ffma1|k_ldsILi1E|k_lds_addr|k_l1_chase|k_chase_on/)
                     if (keep) print "=== " $3; next }
      keep && /^ +\/\*[0-9a-f]+\*\// { sub(/ *\/\* 0x[0-9a-f]+ \*\/ *$/, ""); print }' >"$ref/sass.txt"
  fi
  exps=(device latency fma sfu lds l1 chase stream inflight spill)
  i=0
  for e in "${exps[@]}"; do
    i=$((i + 1))
    start=$(date +%s)
    printf 'calibrate.sh: [%d/%d] %-9s ... ' "$i" "${#exps[@]}" "$e" >&2
    if [ "$e" = spill ]; then
      "$build/spill" "$ref" || { echo >&2; warpsim_die "benchmark spill failed"; }
      if command -v cuobjdump >/dev/null 2>&1; then
        cuobjdump -sass "$build/spill" >"$build/spill.sass"
        if command -v python3 >/dev/null 2>&1; then
          python3 "$root/calibrate/spill_sass.py" "$build/spill.sass" >"$ref/spill_sass.csv"
        fi
      fi
      grep -E "Compiling entry|Used|spill" "$build/ptxas.txt" >"$ref/spill_ptxas.txt" || true
    else
      "$build/bench" "$e" "$ref" || { echo >&2; warpsim_die "benchmark $e failed"; }
    fi
    echo "done ($(($(date +%s) - start)) s)" >&2
  done
  echo "calibrate.sh: wrote the measurements to $ref" >&2
fi
[ "$mode" = measure ] && exit 0

for f in device latency fma sfu lds chase stream l1; do
  [ -f "$ref/$f.csv" ] || warpsim_die "$ref/$f.csv: missing (run without --fit-only first)"
done
if [ -f "$model_out" ] && [ $force -eq 0 ]; then
  warpsim_die "$model_out exists (use --force to overwrite, or --name / --model-out)"
fi
# The fit simulates measured points for three keys: warpsim first.
export WARPSIM=${WARPSIM:-$root/build/sim/warpsim}
[ -x "$WARPSIM" ] || BUILD_DIR=$root/build "$root/scripts/build.sh" >&2 ||
  warpsim_die "building warpsim failed (scripts/build.sh)"
tmp_model=$(mktemp)
"$root/scripts/calibrate_fit.sh" "$ref" "$name" >"$tmp_model" || { rm -f "$tmp_model"; exit 2; }
mkdir -p "$(dirname "$model_out")"
mv "$tmp_model" "$model_out"
echo "calibrate.sh: wrote $model_out" >&2
"$root/scripts/validate.sh" --model "$model_out" --ref "$ref" --out "$ref/validation"
