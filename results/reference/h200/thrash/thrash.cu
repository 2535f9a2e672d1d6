// thrash.cu - the L1 hit rate of per-warp working sets against resident warps and the
// shared-memory carveout on the H200 (issues 24 and 27: "does doubling the resident warps
// help?"; the law sim/sass/sassmem.c sassmem_hit_rates assumes, measured on its own).
//
// Every curve runs one wave of B x 132 CTAs of 128 threads (4 warps), B = 1..16 CTAs per SM
// (resident warps 4..64), per-SM busy span from clock64 (calibrate/common.cuh), median of 11
// launches after a warm-up.  Work per warp is the same at every B.
//
// Carveout: cudaFuncAttributePreferredSharedMemoryCarveout = pct (100, 57, 28, 0: meant as the
// 228, 132, 64 and 0 KB configurations).  For pct > 0 each CTA is padded with dynamic shared
// memory so that B CTAs fill the configuration (pad = config / B - 1024 reserved, in 128 B
// units): the shared memory allocated per SM is then close to the configuration at every B,
// as the real kernels' harness does at the maximum.  pct 0: no padding, B pinned by the grid
// alone (one wave of B x 132; blocks_min/blocks_max say whether every SM got B).
//
// Patterns (each warp-load one LDG through ld.global.ca, 8 independent per thread per
// iteration, summed):
//   line     each warp owns F bytes (its global warp index x F); warp-load j of a pass reads
//            line j (lane l word l: one 128 B line, 4 sectors); F / 128 loads a pass
//   sector   each warp owns F bytes; warp-load j reads sectors 32 j .. 32 j + 31 of it, lane
//            l one word of sector 32 j + l (32 sectors in 8 lines a request); F / 1024 loads
//            a pass (F >= 1 KiB)
//   shared   as line, but every warp of the GPU reads the same F bytes (footprint F per SM at
//            every B: the hit rate should not fall)
// warp_loads_per_cycle_per_sm = resident warps x loads per warp / cycles.
//
// Usage: thrash OUTDIR   writes OUTDIR/thrash.csv and OUTDIR/attrs.csv
//        thrash ncu LIST  runs the points of LIST (lines "pattern pct F B") once each, in order
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o thrash thrash.cu
#include "../../../../calibrate/common.cuh"

#include <cstring>
#include <string>

enum { P_LINE = 0, P_SECTOR = 1, P_SHARED = 2 };
static const char *kPat[] = {"line", "sector", "shared"};

template <int P>
__global__ void __launch_bounds__(128) k_thrash(const char *__restrict__ buf, unsigned fbytes, int loads, float *out,
                                                Rec *rec) {
  // dynamic shared memory is only padding (allocated by the launch, never touched)
  const unsigned lane = threadIdx.x & 31;
  const unsigned gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const char *region = buf + (P == P_SHARED ? (size_t)0 : (size_t)gw * fbytes);
  const unsigned step = P == P_SECTOR ? 1024u : 128u;
  const unsigned mask = fbytes / step - 1u; // loads a pass, a power of 2
  const char *base = region + (P == P_SECTOR ? lane * 32u : lane * 4u);
  float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < loads; i += 8) {
#pragma unroll
    for (int k = 0; k < 8; k++) {
      unsigned j = ((unsigned)i + k) & mask;
      float v;
      asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(base + (size_t)j * step));
      s[k] += v;
    }
  }
  rec_end(rec, t0);
  float t = 0;
#pragma unroll
  for (int k = 0; k < 8; k++)
    t += s[k];
  if (t == -1.0f) // never: the buffer holds zeros
    out[blockIdx.x * blockDim.x + threadIdx.x] = t;
}

static const int kThreads = 128;
static char *d_buf;
static FILE *g_csv;
static bool g_ncu = false;

template <int P> static void *kern() { return (void *)k_thrash<P>; }

// The padding for B CTAs per SM at carveout pct (0 for pct 0), the occupancy the API reports.
template <int P> static size_t pad_for(int pct, int B, int *api_blocks) {
  int optin = 0;
  CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  int per_sm = 0;
  CK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
  CK(cudaFuncSetAttribute(k_thrash<P>, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  CK(cudaFuncSetAttribute(k_thrash<P>, cudaFuncAttributePreferredSharedMemoryCarveout, pct));
  // the configurations of cc 9.0 (KB); pct of per_sm rounds up to the next one
  static const int cfg_kb[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  double want = (double)pct / 100.0 * per_sm;
  int cfg = per_sm;
  for (int c : cfg_kb)
    if (c * 1024 >= want) {
      cfg = c * 1024;
      break;
    }
  size_t pad = 0;
  if (pct > 0) {
    long p = (long)cfg / B - 1024;
    p = p / 128 * 128;
    pad = p > 0 ? (size_t)std::min<long>(p, optin) : 0;
  }
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(api_blocks, k_thrash<P>, kThreads, pad));
  return pad;
}

template <int P> static void point(int pct, unsigned F, int B) {
  const int loads = P == P_SECTOR ? 1024 : 4096;
  int api = 0;
  size_t pad = pad_for<P>(pct, B, &api);
  int grid = B * g_sms;
  auto launch = [&](int g, size_t smem) {
    k_thrash<P><<<g, kThreads, smem>>>(d_buf, F, loads, d_out, d_rec);
  };
  if (g_ncu) {
    launch(grid, pad);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    printf("ncu_point %s %d %u %d pad %zu api_blocks %d\n", kPat[P], pct, F, B, pad, api);
    return;
  }
  Span s = run_wave(grid, pad, launch, d_rec);
  int warps = B * kThreads / 32;
  fprintf(g_csv, "%s,%d,%u,%d,%d,%zu,%d,%d,%.0f,%.0f,%.0f,%.5f,%d,%d\n", kPat[P], pct, F, B, warps, pad, api, loads,
          s.cycles, s.lo, s.hi, (double)warps * loads / s.cycles, s.blocks_min, s.blocks_max);
  fflush(g_csv);
}

static void run_point(int pat, int pct, unsigned F, int B) {
  if (pat == P_LINE)
    point<P_LINE>(pct, F, B);
  else if (pat == P_SECTOR)
    point<P_SECTOR>(pct, F, B);
  else
    point<P_SHARED>(pct, F, B);
}

template <int P> static void attrs(FILE *f) {
  cudaFuncAttributes a;
  CK(cudaFuncGetAttributes(&a, k_thrash<P>));
  fprintf(f, "%s,%d,%zu,%zu,%d,%d\n", kPat[P], a.numRegs, a.localSizeBytes, a.sharedSizeBytes,
          a.preferredShmemCarveout, a.maxDynamicSharedSizeBytes);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: thrash OUTDIR | thrash ncu LIST\n");
    return 2;
  }
  harness_init("thrash");
  g_ncu = !strcmp(argv[1], "ncu");
  size_t bytes = (size_t)g_sms * 64 * 16384; // 64 warps per SM x 16 KiB at most
  CK(cudaMalloc(&d_buf, bytes));
  CK(cudaMemset(d_buf, 0, bytes));
  if (g_ncu) {
    if (argc != 3) {
      fprintf(stderr, "usage: thrash ncu LIST\n");
      return 2;
    }
    FILE *l = fopen(argv[2], "r");
    if (!l) {
      perror(argv[2]);
      return 1;
    }
    char pat[32];
    int pct, B;
    unsigned F;
    while (fscanf(l, "%31s %d %u %d", pat, &pct, &F, &B) == 4) {
      int p = !strcmp(pat, "line") ? P_LINE : !strcmp(pat, "sector") ? P_SECTOR : P_SHARED;
      run_point(p, pct, F, B);
    }
    fclose(l);
    printf("thrash ncu done\n");
    return 0;
  }
  g_csv = open_csv(argv[1], "thrash.csv",
                   "pattern,carveout_pct,footprint_bytes,blocks_per_sm,resident_warps,pad_bytes,api_blocks,"
                   "loads_per_warp,cycles,cycles_min,cycles_max,warp_loads_per_cycle_per_sm,blocks_min,blocks_max");
  for (int pct : {100, 57, 28, 0}) {
    for (unsigned F : {256u, 512u, 1024u, 2048u, 4096u, 8192u, 16384u})
      for (int B = 1; B <= 16; B++)
        run_point(P_LINE, pct, F, B);
    if (pct == 100 || pct == 0)
      for (unsigned F : {1024u, 2048u, 4096u, 8192u})
        for (int B = 1; B <= 16; B++)
          run_point(P_SECTOR, pct, F, B);
  }
  for (unsigned F : {8192u, 16384u})
    for (int B = 1; B <= 16; B++)
      run_point(P_SHARED, 100, F, B);
  fclose(g_csv);
  FILE *a = open_csv(argv[1], "attrs.csv", "pattern,regs,local_bytes,static_smem,preferred_carveout_last,max_dynamic_smem");
  attrs<P_LINE>(a);
  attrs<P_SECTOR>(a);
  attrs<P_SHARED>(a);
  fclose(a);
  printf("thrash done\n");
  return 0;
}
