// ldst.cu - do global stores hold the load miss slots (lines in flight) of an SM?
// (issue 27: the lg_throttle kernels).  One loop, curves over B = 1..16 resident CTAs of
// 128 threads per SM: each iteration a warp reads one 32-bit word per lane at stride 32
// (32 lines per warp-load, ld.global.cg) from a 16 MiB footprint kept in L2, the rate that
// the SM's lines in flight bound (../l2flight/load.csv: 0.58 lines/cycle/SM at every B >= 2,
// carveout 228 KB), then stores K float4 per lane (coalesced: 4 lines per warp-store) of a
// value that depends on the load, either into a private slice per CTA (LVL 1: DRAM, no
// reuse, L2 flushed before each launch) or into an 8 MiB footprint of its own (LVL 0:
// stays in L2).  K = 0 is the load alone.  If a store held load miss slots until DRAM has
// written it (the model's [class_global] stores_hold_lines with one pool), K = 1 to DRAM
// would cost the loads ~20 % of their rate and K = 2 ~35 %; if stores have their own
// slots the load rate stays.
//
// Harness: calibrate/common.cuh (the method of ../README.md, ../matrix/, ../l2flight/): one
// wave of B x 132 CTAs, B pinned by dynamic shared-memory padding of a 228 KB carveout
// (each CTA 228 / B - 1 KB), per-SM busy span from clock64 stamps after a __syncthreads,
// median of 3 launches after a warm-up; blocks_min/blocks_max say whether B landed.
//
// Usage: ldst curves OUTDIR   -> OUTDIR/ldst.csv
//        ldst probe B OUTDIR  -> OUTDIR/probe_bB.csv (one launch per kernel, for Nsight Compute)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -I<repo>/calibrate -o ldst ldst.cu
#include "common.cuh"
#include "gload.cuh"

#include <cstring>

static const size_t kL2Foot = (size_t)16 << 20;  // the loads' footprint (L2)
static const size_t kStFoot = (size_t)8 << 20;   // the L2 stores' footprint
static const size_t kStL2At = (size_t)32 << 20;  // where it starts
static const size_t kStDramAt = (size_t)64 << 20; // where the DRAM slices start

template <int K, int LVL>
__global__ void k_ldst(const char *__restrict__ a, char *__restrict__ st, size_t cta_bytes, float *out, Rec *rec,
                       int iters) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr int SPAN = 32 * 32 * 4; // a warp-load: 32 lines
  const size_t th = (size_t)warp * SPAN + (size_t)lane * 32 * 4;
  const size_t cta = (size_t)blockIdx.x << 17;
  const size_t sbase = LVL == 1 ? kStDramAt + blockIdx.x * cta_bytes : kStL2At + (size_t)blockIdx.x * 4096;
  float s = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    const char *p = a + ((cta + (size_t)i * 4 * SPAN) & (kL2Foot - 1)) + th;
    float v;
    asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));
    s = fmaf(v, 0.5f, s);
#pragma unroll
    for (int k = 0; k < K; k++) {
      size_t o = ((size_t)(i * K + k) * 4 + warp) * 512 + (size_t)lane * 16;
      if (LVL == 0)
        o = (sbase + o) & (kStFoot - 1);
      char *q = st + (LVL == 0 ? kStL2At + o : sbase + o);
      asm volatile("st.global.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(q), "f"(s), "f"(s + 1), "f"(s + 2), "f"(s + 3)
                   : "memory");
    }
  }
  rec_end(rec, t0);
  KEEP(s);
}

// Reads the loads' L2 footprint and the L2 stores' footprint (leaves them in L2).
__global__ void k_touch(const float4 *__restrict__ a, size_t n, float *sink) {
  float s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    s += a[i].x;
  if (s == -1.0f)
    sink[0] = s;
}
__global__ void k_fill(unsigned *a, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    a[i] = 0x3f000000u | (((unsigned)i * 2654435761u) >> 9); // floats in [0.5, 1)
}

static const char *g_dir;
static char *d_arena;
static const size_t kArena = (size_t)4 << 30;
static int g_reps = 3, g_bmin = 1, g_bmax = 16;
static const int kIters = 128; // 128 warp-loads per warp, as l2flight's stride-32 L2 loop

template <typename Kn> static size_t pin(Kn kernel, int b) {
  int optin = 0;
  CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  size_t smem = ((size_t)228 * 1024 / b - 1024) / 128 * 128;
  return std::min<size_t>(smem, optin);
}

template <int K, int LVL> static void curve(FILE *f) {
  auto kernel = k_ldst<K, LVL>;
  const size_t cta_bytes = (size_t)kIters * K * 4 * 512; // DRAM slice per CTA
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  for (int b = g_bmin; b <= g_bmax; b++) {
    size_t smem = pin(kernel, b);
    int g = b * g_sms;
    if (LVL == 1 && kStDramAt + (size_t)g * cta_bytes > kArena) {
      fprintf(stderr, "K=%d B=%d: the DRAM slices do not fit\n", K, b);
      exit(1);
    }
    auto launch = [&](int grid, size_t sm) {
      if (LVL == 1)
        flush_l2();
      k_touch<<<1056, 256>>>((const float4 *)d_arena, kL2Foot / 16, d_out);
      if (LVL == 0)
        k_touch<<<1056, 256>>>((const float4 *)(d_arena + kStL2At), kStFoot / 16, d_out);
      kernel<<<grid, 128, sm>>>(d_arena, d_arena, cta_bytes, d_out, d_rec, kIters);
    };
    Span s;
    if (g_reps > 0) {
      s = run_wave(g, smem, launch, d_rec, g_reps);
    } else {
      std::vector<Rec> h(g);
      launch(g, smem);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(h.data(), d_rec, h.size() * sizeof(Rec), cudaMemcpyDeviceToHost));
      s = spans(h);
    }
    if (s.blocks_min != b || s.blocks_max != b)
      fprintf(stderr, "warning: K=%d LVL=%d B=%d landed %d..%d CTAs per SM\n", K, LVL, b, s.blocks_min, s.blocks_max);
    // warp-loads per cycle per SM; store lines = 4 K per warp-load
    fprintf(f, "k_ldst,%d,%s,%d,%d,%d,%d,%.0f,%.5g,%.5g,%.0f,%.0f,%d,%d\n", K, LVL ? "dram" : "l2", attr.numRegs, b,
            4 * b, kIters, s.cycles, 4.0 * b * kIters / s.cycles, 32.0 * 4 * b * kIters / s.cycles, s.lo, s.hi,
            s.blocks_min, s.blocks_max);
  }
  fflush(f);
}

static FILE *csv(const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", g_dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  fprintf(f, "kernel,stores_per_load,store_level,regs,blocks_per_sm,resident_warps,iters,cycles,"
             "warp_loads_per_cycle_per_sm,load_lines_per_cycle_per_sm,cycles_min,cycles_max,blocks_min,blocks_max\n");
  return f;
}

static void all(FILE *f) {
  curve<0, 1>(f);
  curve<1, 1>(f);
  curve<2, 1>(f);
  curve<4, 1>(f);
  curve<1, 0>(f);
  curve<2, 0>(f);
  curve<4, 0>(f);
}

int main(int argc, char **argv) {
  if (argc < 3 || (strcmp(argv[1], "curves") && strcmp(argv[1], "probe")) || (!strcmp(argv[1], "probe") && argc != 4)) {
    fprintf(stderr, "usage: ldst curves OUTDIR | ldst probe B OUTDIR\n");
    return 2;
  }
  harness_init("ldst");
  g_dir = argv[argc - 1];
  CK(cudaMalloc(&d_arena, kArena));
  k_fill<<<2048, 256>>>((unsigned *)d_arena, kArena / 4);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  if (!strcmp(argv[1], "probe")) {
    g_reps = 0;
    g_bmin = g_bmax = atoi(argv[2]);
    FILE *f = csv(fmt("probe_b%d.csv", g_bmin).c_str());
    all(f);
    fclose(f);
  } else {
    FILE *f = csv("ldst.csv");
    all(f);
    fclose(f);
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
