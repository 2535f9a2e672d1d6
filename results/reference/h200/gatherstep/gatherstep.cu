// gatherstep.cu - where and why random L2 gathers slow down beyond 16 MiB (issue 24 item 2):
// ../l2flight/gather.csv has 0.55 lines/cycle/SM at 2 and 16 MiB and 0.32 at 32 MiB.  Two
// explanations fit: the near L2 partition (~25 MiB of the 50 MiB) or the TLB reach (2 MiB
// pages).  This program separates them:
//   dense:  footprints of 2..64 MiB, line index = h % nlines (any size, not only powers of 2);
//           capacity/partition predicts a step near 25 MiB, TLB reach a step at its reach.
//   pages:  the data held at 1 MiB (8192 lines, L2 resident whatever the model) spread over
//           K = 1..512 pages of 2 MiB, 8192 / K lines at the start of each page (line index =
//           page * 16384 + off); the address span is K x 2 MiB.  TLB reach predicts a drop
//           once K x 2 MiB exceeds it; capacity/partition predicts none.
//   mask:   ../l2flight/l2flight.cu's k_rg as it was (h & (nlines - 1)) at 16 and 32 MiB, to
//           tie these rows to gather.csv.
//   dram:   dense over 64 MiB..1 GiB with the L2 flushed (256 MiB of clean lines read) before
//           every launch instead of touched: the DRAM gather against its span (TLB reach).
// Kernel: lane l of warp w of CTA c reads 4 bytes at the start of line idx(h), h a
// multiplicative hash of (thread, i, k), E loads per thread per iteration all issued before
// any is used (ld.global.cg, L1 not allocated).  Before every launch a touch kernel reads
// exactly the lines the gather can touch (so they are in L2); the first launch is a warm-up.
//
// Harness: calibrate/common.cuh (as ../l2flight/): 128-thread CTAs, B = 1, 2, 4, 8, 16 CTAs
// per SM pinned by dynamic shared-memory padding filling a 228 KB carveout, one wave of B x
// 132 CTAs, `cycles` = mean over SMs of the per-SM busy span (clock64), median of 5 launches.
//
// Usage: gatherstep run OUTDIR     -> OUTDIR/gatherstep.csv (mask, dense, pages)
//        gatherstep dram OUTDIR    -> OUTDIR/dram.csv (dense over 64 MiB..1 GiB, L2 flushed)
//        gatherstep probe OUTDIR   -> OUTDIR/probe.csv (one launch per kernel at B = 8, E = 1,
//                                     for Nsight Compute: --kernel-name regex:k_g; call 1)
//        gatherstep probe2 OUTDIR  -> OUTDIR/probe2.csv (the same, more footprints; call 2)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o gatherstep gatherstep.cu
#include "../../../../calibrate/common.cuh"
#include "../../../../calibrate/gload.cuh"

#include <cstring>
#include <string>

__device__ __forceinline__ unsigned ghash(unsigned g, unsigned j) {
  unsigned h = (g * 2654435761u) ^ (j * 2246822519u);
  h ^= h >> 15;
  h *= 2654435761u;
  return h;
}

// MODE 0: idx = h & p0 (mask); 1: idx = h % p0 (dense, any footprint); 2: pages: page = the
// top p1 bits of h (K = 2^p1 pages), off = h & p0 (p0 = 8192 / K - 1), idx = page * 16384 + off;
// 3: as 1 (the host flushes the L2 before the launch instead of touching the footprint).
template <int E, int MODE>
__global__ void k_g(const char *__restrict__ a, unsigned p0, unsigned p1, float *out, Rec *rec, int iters) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  float s[E];
#pragma unroll
  for (int k = 0; k < E; k++)
    s[k] = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    float v[E];
#pragma unroll
    for (int k = 0; k < E; k++) {
      const unsigned h = ghash(g, (unsigned)(i * E + k));
      size_t idx;
      if (MODE == 0)
        idx = h & p0;
      else if (MODE == 1 || MODE == 3)
        idx = h % p0;
      else
        idx = (size_t)(p1 ? h >> (32 - p1) : 0) * 16384 + (h & p0);
      const char *p = a + idx * 128;
      asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v[k]) : "l"(p));
    }
    float pr = v[0];
#pragma unroll
    for (int k = 1; k < E; k++)
      pr *= v[k];
    const float z = fmaf(pr, 0.0f, 1.0f);
#pragma unroll
    for (int k = 0; k < E; k++)
      s[k] = fmaf(v[k], z, s[k]);
  }
  rec_end(rec, t0);
  float t = 0;
#pragma unroll
  for (int k = 0; k < E; k++)
    t += s[k];
  KEEP(t);
}

// Reads (float4 .x of) every line the gather can touch: lines 0..n-1 (dense, mask) or, for K
// pages of `per` lines, line page * 16384 + off for off < per.
__global__ void k_touch(const char *__restrict__ a, size_t n, unsigned per, float *sink) {
  float s = 0;
  for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x) {
    const size_t line = per ? (j / per) * 16384 + j % per : j;
    s += *(const float *)(a + line * 128);
  }
  if (s == -1.0f)
    sink[0] = s;
}

__global__ void k_fill(unsigned *a, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    a[i] = 0x3f000000u | (((unsigned)i * 2654435761u) >> 9); // floats in [0.5, 1)
}

// ================================================================== host
static const char *g_dir;
static char *d_arena; // 2 GiB: the largest page set spans 1 GiB
static const size_t kArena = (size_t)2 << 30;
static int g_reps = 5;
static const int kCarve = 228;
static std::vector<int> g_bs = {1, 2, 4, 8, 16};

template <typename K> static size_t pin(K kernel, int b) {
  int optin = 0;
  CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  size_t smem = ((size_t)kCarve * 1024 / b - 1024) / 128 * 128;
  return std::min<size_t>(smem, optin);
}

// One curve over B in g_bs: `params` opens the row.
template <typename K, typename L>
static void curve(FILE *f, const std::string &params, K kernel, double work, int iters, L launch) {
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  for (int b : g_bs) {
    size_t smem = pin(kernel, b);
    Span s;
    if (g_reps > 0) {
      s = run_wave(b * g_sms, smem, launch, d_rec, g_reps);
    } else { // probe: exactly one launch
      std::vector<Rec> h(b * g_sms);
      launch(b * g_sms, smem);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(h.data(), d_rec, h.size() * sizeof(Rec), cudaMemcpyDeviceToHost));
      s = spans(h);
    }
    if (s.blocks_min != b || s.blocks_max != b)
      fprintf(stderr, "warning: %s B=%d landed %d..%d CTAs per SM\n", params.c_str(), b, s.blocks_min, s.blocks_max);
    const double wl = b * work / s.cycles;
    fprintf(f, "%s,%d,%d,%d,%d,%d,%.0f,%.5g,%.4f,%.0f,%.0f,%d,%d\n", params.c_str(), kCarve, attr.numRegs, b, 4 * b,
            iters, s.cycles, wl, 32 * wl, s.lo, s.hi, s.blocks_min, s.blocks_max);
  }
  fflush(f);
}

static const char *kHead = "kernel,mode,elems_in_flight_per_thread,data_kib,span_mib,pages,carveout_kb,regs,"
                           "blocks_per_sm,resident_warps,iters,cycles,warp_loads_per_cycle_per_sm,"
                           "lines_per_cycle_per_sm,cycles_min,cycles_max,blocks_min,blocks_max";

static int log2i(unsigned x) {
  int r = 0;
  while ((1u << r) < x)
    r++;
  return r;
}

// mode 0 mask / 1 dense over `foot` bytes (3: dense, L2 flushed); mode 2 pages: 1 MiB over k
// pages of 2 MiB.
template <int E, int MODE> static void g_curve(FILE *f, size_t foot, unsigned k) {
  const int iters = 128 / E;
  unsigned p0, p1 = 0, per = 0;
  size_t n, span;
  if (MODE == 2) {
    per = 8192 / k;
    p0 = per - 1;
    p1 = (unsigned)log2i(k);
    n = 8192;
    span = (size_t)k << 21;
    foot = (size_t)1 << 20;
  } else {
    n = foot / 128;
    p0 = MODE == 0 ? (unsigned)(n - 1) : (unsigned)n;
    span = foot;
    k = (unsigned)((foot + (2u << 20) - 1) >> 21);
  }
  static const char *kMode[] = {"mask", "dense", "pages", "dram"};
  curve(f, fmt("k_g,%s,%d,%zu,%zu,%u", kMode[MODE], E, foot >> 10, span >> 20, k), k_g<E, MODE>, 4.0 * iters * E,
        iters, [&](int g, size_t sm) {
          if (MODE == 3)
            flush_l2();
          else
            k_touch<<<1056, 256>>>(d_arena, n, per, d_out);
          k_g<E, MODE><<<g, 128, sm>>>(d_arena, p0, p1, d_out, d_rec, iters);
        });
}

static FILE *csv(const char *name) {
  char head[1024];
  snprintf(head, sizeof head, "%s", kHead);
  return open_csv(g_dir, name, head);
}

static void run_all() {
  FILE *f = csv("gatherstep.csv");
  for (size_t mib : {16, 32}) {
    g_curve<1, 0>(f, mib << 20, 0);
    g_curve<4, 0>(f, mib << 20, 0);
  }
  for (size_t mib : {2, 8, 12, 16, 20, 22, 24, 26, 28, 30, 32, 36, 40, 48, 64}) {
    g_curve<1, 1>(f, mib << 20, 0);
    g_curve<4, 1>(f, mib << 20, 0);
  }
  for (unsigned k : {1, 2, 4, 8, 16, 32, 64, 128, 256, 512}) {
    g_curve<1, 2>(f, 0, k);
    g_curve<4, 2>(f, 0, k);
  }
  fclose(f);
}

static void run_dram() {
  FILE *f = csv("dram.csv");
  for (size_t mib : {64, 128, 256, 512, 1024}) {
    g_curve<1, 3>(f, mib << 20, 0);
    g_curve<4, 3>(f, mib << 20, 0);
  }
  fclose(f);
}

// Call 2's probe: the L2-partition (LTC fabric) and DRAM counters along the step.
static void probe2() {
  g_reps = 0;
  g_bs = {8};
  FILE *f = csv("probe2.csv");
  for (size_t mib : {2, 8, 16, 20, 24, 26, 28, 30, 32, 36, 40, 48, 64})
    g_curve<1, 1>(f, mib << 20, 0);
  for (unsigned k : {128, 256, 512})
    g_curve<1, 2>(f, 0, k);
  for (size_t mib : {128, 1024})
    g_curve<1, 3>(f, mib << 20, 0);
  fclose(f);
}

static void probe() {
  g_reps = 0;
  g_bs = {8};
  FILE *f = csv("probe.csv");
  for (size_t mib : {16, 24, 32, 48})
    g_curve<1, 1>(f, mib << 20, 0);
  for (unsigned k : {4, 64, 512})
    g_curve<1, 2>(f, 0, k);
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "run") && strcmp(argv[1], "dram") && strcmp(argv[1], "probe") &&
                    strcmp(argv[1], "probe2"))) {
    fprintf(stderr, "usage: gatherstep run|dram|probe|probe2 OUTDIR\n");
    return 2;
  }
  harness_init("gatherstep");
  g_dir = argv[2];
  CK(cudaMalloc(&d_arena, kArena));
  k_fill<<<2048, 256>>>((unsigned *)d_arena, kArena / 4);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  if (!strcmp(argv[1], "probe"))
    probe();
  else if (!strcmp(argv[1], "probe2"))
    probe2();
  else if (!strcmp(argv[1], "dram"))
    run_dram();
  else
    run_all();
  CK(cudaDeviceSynchronize());
  return 0;
}
