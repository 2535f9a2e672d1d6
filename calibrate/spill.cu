// spill.cu - the cost of register spills (scripts/calibrate.sh).
//
// A kernel keeps V live FP32 accumulators (acc[k] = fma(acc[k], m, c) for every
// k each loop iteration: V independent FFMA chains, the FFMAs are the useful
// work) and is compiled under register caps (__maxnreg__).  Below the
// registers it needs, ptxas keeps some accumulators in local memory: the
// SASS (cuobjdump -sass) shows what it emits per iteration.  Each kernel runs
// (a) at the occupancy its registers allow (one wave of the resident CTAs on
// every SM) and (b) pinned to the uncapped kernel's occupancy (dynamic
// shared-memory padding), which separates the spill instructions' cost from
// the occupancy they buy.  Variants: V = 32, 64, 96 with the loop as the
// compiler unrolls it, and V = 64 with `#pragma unroll 1` on the loop.
// Usage: spill OUTDIR   (writes OUTDIR/spill.csv)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o spill spill.cu
#include "common.cuh"

#include <string>

template <int V, bool ROLLED>
__device__ __forceinline__ void spill_body(float *out, Rec *rec, int iters, float m, float c) {
  extern __shared__ char pad_[];
  float acc[V];
#pragma unroll
  for (int k = 0; k < V; k++)
    acc[k] = threadIdx.x * 1e-3f + k;
  unsigned long long t0 = rec_begin();
  if (ROLLED) {
#pragma unroll 1
    for (int i = 0; i < iters; i++)
      fma_step(acc, m, c);
  } else {
    for (int i = 0; i < iters; i++)
      fma_step(acc, m, c);
  }
  rec_end(rec, t0);
  float s = 0;
#pragma unroll
  for (int k = 0; k < V; k++)
    s += acc[k] * (k + 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s + (s == 1234.5f ? pad_[0] : 0);
}

typedef void (*SpillKernel)(float *, Rec *, int, float, float);

#define SPILL_KERNELS(V, R, NAME)                                                                 \
  __global__ void NAME##_0(float *o, Rec *r, int n, float m, float c) {                           \
    spill_body<V, R>(o, r, n, m, c);                                                              \
  }                                                                                               \
  SPILL_CAP(V, R, NAME, 128)                                                                      \
  SPILL_CAP(V, R, NAME, 96)                                                                       \
  SPILL_CAP(V, R, NAME, 88)                                                                       \
  SPILL_CAP(V, R, NAME, 80)                                                                       \
  SPILL_CAP(V, R, NAME, 72)                                                                       \
  SPILL_CAP(V, R, NAME, 64)                                                                       \
  SPILL_CAP(V, R, NAME, 56)                                                                       \
  SPILL_CAP(V, R, NAME, 48)                                                                       \
  SPILL_CAP(V, R, NAME, 40)                                                                       \
  SPILL_CAP(V, R, NAME, 32)                                                                       \
  SPILL_CAP(V, R, NAME, 24)                                                                       \
  static const SpillKernel NAME##_k[] = {NAME##_0,  NAME##_128, NAME##_96, NAME##_88,             \
                                         NAME##_80, NAME##_72,  NAME##_64, NAME##_56,             \
                                         NAME##_48, NAME##_40,  NAME##_32, NAME##_24};
#define SPILL_CAP(V, R, NAME, CAP)                                                                \
  __global__ void __maxnreg__(CAP) NAME##_##CAP(float *o, Rec *r, int n, float m, float c) {      \
    spill_body<V, R>(o, r, n, m, c);                                                              \
  }
static const int caps[] = {0, 128, 96, 88, 80, 72, 64, 56, 48, 40, 32, 24};

SPILL_KERNELS(32, false, k_v32)
SPILL_KERNELS(64, false, k_v64)
SPILL_KERNELS(96, false, k_v96)
SPILL_KERNELS(64, true, k_v64r)

static void variant(FILE *f, const char *name, int live, const SpillKernel *ks) {
  const int iters = 65536 / live;
  double base_rate = 0;
  int base_blocks = 0;
  for (int i = 0; i < 12; i++) {
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, ks[i]));
    int blocks = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, ks[i], 128, 0));
    if (i == 0)
      base_blocks = blocks;
    for (int pinned = 0; pinned < 2; pinned++) {
      int b = pinned ? base_blocks : blocks;
      if (pinned && b > blocks)
        continue;
      size_t smem = smem_for_blocks(ks[i], 128, b);
      Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) { ks[i]<<<g, 128, sm>>>(d_out, d_rec, iters, 0.999f, 1e-3f); }, d_rec);
      double rate = 4.0 * b * iters * live / s.cycles;
      if (i == 0 && !pinned)
        base_rate = rate;
      fprintf(f, "%s,%d,%d,%d,%zu,%s,%d,%d,%.0f,%.4f,%.4f\n", name, live, caps[i], a.numRegs,
              a.localSizeBytes, pinned ? "pinned" : "max", b, 4 * b, s.cycles, rate, rate / base_rate);
      fflush(f);
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: spill OUTDIR\n");
    return 2;
  }
  harness_init("spill");
  FILE *f = open_csv(argv[1], "spill.csv",
                     "variant,live,cap,regs,local_bytes,occupancy,blocks_per_sm,warps_per_sm,cycles,warp_ffma_per_cycle_per_sm,rate_vs_uncapped");
  variant(f, "unrolled", 32, k_v32_k);
  variant(f, "unrolled", 64, k_v64_k);
  variant(f, "unrolled", 96, k_v96_k);
  variant(f, "rolled", 64, k_v64r_k);
  fclose(f);
  return 0;
}
