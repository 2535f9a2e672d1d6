// l1flight.cu - lines in flight per SM by cache operator, and whether L1 hits on lines still
// in flight count against them (issue 24; the open questions of ../l2flight/README.md): global
// loads as curves over B = 1..16 resident CTAs of 128 threads per SM x elements in flight per
// thread x level x cache operator x the L1 the shared-memory carveout leaves x readers per line.
//
// Harness: calibrate/common.cuh, as ../l2flight/l2flight.cu: one wave of B x 132 CTAs, B
// pinned by dynamic shared-memory padding that fills a carveout of C KB (each CTA C / B - 1 KB;
// the L1 keeps 256 - C KB), per-SM busy span from clock64 stamps after a __syncthreads, median
// of 3 launches after a warm-up; blocks_min/blocks_max say whether B landed.
//
// What is new against l2flight.cu: the cache operator is a template argument of its own (OP:
// 0 ld.global.ca, 1 ld.global.cg, 2 ld.global.nc), not tied to the level, and a line can be
// read by R readers (MODE):
//   MODE 0 none:      every warp-load reads its own lines (l2flight's k_ld, R = 1);
//   MODE 1 warps:     the 4 warps of a CTA form 4 / R groups; the R warps of a group read the
//                     same lines in the same iteration (L1 hits on lines still in flight);
//   MODE 2 warps_lag: as warps, but member m of a group reads at iteration i what the group's
//                     first warp read at iteration i - m (hits on lines that arrived earlier,
//                     if the L1 still holds them);
//   MODE 3 loads:     R of a thread's E loads of an iteration read the same address (E / R
//                     distinct lines sets per iteration: a stencil's s[c - 1], s[c + 1]).
// Lane l of warp w reads W bytes at element l x S (S = 1 coalesced, S = 32 one line per lane);
// all E loads of an iteration are issued before any is used (a product of all of them gates
// the sums: ../matrix/matrix.cu's k_gld).
//   LVL 0 l2:   a 16 MiB footprint that stays in L2 (CTA x starts at x x 128 KiB modulo 16 MiB).
//   LVL 1 dram: a private slice per CTA, no reuse across CTAs, L2 flushed (256 MiB of clean
//               lines read) before every launch.
//
// Usage: l1flight curves OUTDIR     -> OUTDIR/load.csv
//        l1flight probe B OUTDIR    -> OUTDIR/probe_bB.csv (one launch per probed kernel at B,
//                                      carveout 228, for Nsight Compute)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o l1flight l1flight.cu
#include "../../../../calibrate/common.cuh"
#include "../../../../calibrate/gload.cuh"

#include <cstring>
#include <string>

static const size_t kL2Foot = (size_t)16 << 20;

enum { OP_CA, OP_CG, OP_NC };
static const char *kOp[] = {"ca", "cg", "nc"};
enum { M_NONE, M_WARPS, M_LAG, M_LOADS };
static const char *kMode[] = {"none", "warps", "warps_lag", "loads"};
static const char *kLevel[] = {"l2", "dram"};

#define LD1(op) asm volatile("ld.global." op ".f32 %0, [%1];" : "=f"(v.c[0]) : "l"(p))
#define LD4(op)                                                                                                        \
  asm volatile("ld.global." op ".v4.f32 {%0,%1,%2,%3}, [%4];"                                                          \
               : "=f"(v.c[0]), "=f"(v.c[1 % (W / 4)]), "=f"(v.c[2 % (W / 4)]), "=f"(v.c[W / 4 - 1])                    \
               : "l"(p))

// One warp-load of W = 4 or 16 bytes per lane with cache operator OP.
template <int W, int OP> __device__ __forceinline__ Vec<W> ldop(const char *p) {
  static_assert(W == 4 || W == 16, "W is 4 or 16 bytes");
  Vec<W> v;
  if (W == 4) {
    if (OP == OP_CA)
      LD1("ca");
    else if (OP == OP_CG)
      LD1("cg");
    else
      LD1("nc");
  } else {
    if (OP == OP_CA)
      LD4("ca");
    else if (OP == OP_CG)
      LD4("cg");
    else
      LD4("nc");
  }
  return v;
}

// Groups of warps reading the same lines, and distinct loads per thread per iteration.
template <int MODE, int R> struct Shape {
  static constexpr int groups = (MODE == M_WARPS || MODE == M_LAG) ? 4 / R : 4;
};
template <int MODE, int R, int E> struct Uniq {
  static constexpr int value = MODE == M_LOADS ? E / R : E;
};

template <int W, int S, int E, int LVL, int OP, int MODE, int R>
__global__ void k_ld(const char *__restrict__ a, size_t cta_bytes, float *out, Rec *rec, int iters) {
  static_assert(R == 1 || MODE != M_NONE, "readers need a mode");
  static_assert(MODE != M_LOADS || E % R == 0, "R divides E");
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr int SPAN = 32 * S * W, G = Shape<MODE, R>::groups, U = Uniq<MODE, R, E>::value;
  constexpr size_t CHUNK = (size_t)G * U * SPAN; // distinct bytes a CTA reads per iteration
  const int g = (MODE == M_WARPS || MODE == M_LAG) ? warp / R : warp;
  const int lag = MODE == M_LAG ? warp % R : 0;
  const size_t th = (size_t)g * SPAN + (size_t)lane * S * W;
  const size_t cta = LVL == 1 ? blockIdx.x * cta_bytes : (size_t)blockIdx.x << 17;
  float s[E];
#pragma unroll
  for (int k = 0; k < E; k++)
    s[k] = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    int c = i - lag;
    c = c < 0 ? c + iters : c;
    const char *p = LVL == 1 ? a + cta + (size_t)c * CHUNK + th : a + ((cta + (size_t)c * CHUNK) & (kL2Foot - 1)) + th;
    Vec<W> v[E];
#pragma unroll
    for (int k = 0; k < E; k++)
      v[k] = ldop<W, OP>(p + (size_t)(MODE == M_LOADS ? k / R : k) * G * SPAN);
    float pr[E];
#pragma unroll
    for (int k = 0; k < E; k++)
      pr[k] = v[k].c[0];
#pragma unroll
    for (int st = 1; st < E; st *= 2)
#pragma unroll
      for (int q = 0; q + st < E; q += 2 * st)
        pr[q] *= pr[q + st];
    const float z = fmaf(pr[0], 0.0f, 1.0f);
#pragma unroll
    for (int k = 0; k < E; k++)
#pragma unroll
      for (int cc = 0; cc < W / 4; cc++)
        s[k] = fmaf(v[k].c[cc], z, s[k]);
  }
  rec_end(rec, t0);
  float t = 0;
#pragma unroll
  for (int k = 0; k < E; k++)
    t += s[k];
  KEEP(t);
}

// Reads the 16 MiB L2 footprint (leaves it in L2 before a probe launch).
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

// ================================================================== host
static const char *g_dir;
static char *d_arena; // 4 GiB: the DRAM slices and the L2 footprint
static const size_t kArena = (size_t)4 << 30;
static int g_reps = 3, g_bmin = 1, g_bmax = 16, g_carve = 228;

// Dynamic shared memory per CTA so that B CTAs fill a carveout of g_carve KB (the runtime
// reserves 1 KB per CTA), with the carveout preference set to that size.
template <typename K> static size_t pin(K kernel, int b) {
  int optin = 0;
  CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, g_carve * 100 / 228));
  size_t smem = ((size_t)g_carve * 1024 / b - 1024) / 128 * 128;
  return std::min<size_t>(smem, optin);
}

static const char *kHead = "kernel,bits,stride_elems,level,cache_op,reuse,readers_per_line,"
                           "elems_in_flight_per_thread,lines_per_warp_access,sectors_per_warp_access,"
                           "carveout_kb,regs,blocks_per_sm,resident_warps,iters,cycles,%s,cycles_min,"
                           "cycles_max,blocks_min,blocks_max";

// One curve over B = g_bmin..g_bmax (while the kernel's registers allow B CTAs).
template <typename K, typename L>
static void curve(FILE *f, const std::string &params, K kernel, double work, int iters, L launch) {
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, 128, 0));
  for (int b = g_bmin; b <= g_bmax && b <= fit; b++) {
    size_t smem = pin(kernel, b);
    Span s;
    if (g_reps > 0) {
      s = run_wave(b * g_sms, smem, launch, d_rec, g_reps);
    } else { // probe: exactly one launch (Nsight Compute profiles it)
      std::vector<Rec> h(b * g_sms);
      launch(b * g_sms, smem);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(h.data(), d_rec, h.size() * sizeof(Rec), cudaMemcpyDeviceToHost));
      s = spans(h);
    }
    if (s.blocks_min != b || s.blocks_max != b)
      fprintf(stderr, "warning: %s C=%d B=%d landed %d..%d CTAs per SM\n", params.c_str(), g_carve, b, s.blocks_min,
              s.blocks_max);
    fprintf(f, "%s,%d,%d,%d,%d,%d,%.0f,%.5g,%.0f,%.0f,%d,%d\n", params.c_str(), g_carve, attr.numRegs, b, 4 * b, iters,
            s.cycles, b * work / s.cycles, s.lo, s.hi, s.blocks_min, s.blocks_max);
  }
  fflush(f);
}

static int count_units(int pitch, int W, int unit) {
  std::vector<long> s;
  for (int l = 0; l < 32; l++)
    for (int b = 0; b < W; b += 4)
      s.push_back(((long)l * pitch + b) / unit);
  std::sort(s.begin(), s.end());
  return (int)(std::unique(s.begin(), s.end()) - s.begin());
}

// Accesses per warp: as l2flight.cu (512 at L2 for up to one sector per lane; at DRAM as many
// as fit 2112 private slices in 4 GiB, at most 512), a multiple of E.
static int per_warp(int lvl, int pitch, int e) {
  int n = lvl == 0 ? std::max(64, 512 * 32 / std::max(32, pitch))
                   : (int)std::min<size_t>(512, kArena / 2112 / (128 * (size_t)pitch));
  n = n / e * e;
  return std::max(n, e * 2);
}

template <int W, int S, int E, int LVL, int OP, int MODE = M_NONE, int R = 1> static void ld_curve(FILE *f) {
  const int pitch = S * W, L = per_warp(LVL, pitch, E), iters = L / E;
  constexpr int G = Shape<MODE, R>::groups, U = Uniq<MODE, R, E>::value;
  const size_t cta_bytes = (size_t)iters * G * U * 32 * pitch;
  auto kern = k_ld<W, S, E, LVL, OP, MODE, R>;
  curve(f,
        fmt("k_ld,%d,%d,%s,%s,%s,%d,%d,%d,%d", W * 8, S, kLevel[LVL], kOp[OP], kMode[MODE], R, E,
            count_units(pitch, W, 128), count_units(pitch, W, 32)),
        kern, 4.0 * L, iters, [&](int g, size_t sm) {
          if (LVL == 1)
            flush_l2();
          kern<<<g, 128, sm>>>(d_arena, cta_bytes, d_out, d_rec, iters);
        });
}

static FILE *csv(const char *name) {
  char path[4096], head[512];
  snprintf(path, sizeof path, "%s/%s", g_dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  snprintf(head, sizeof head, kHead, "warp_loads_per_cycle_per_sm");
  fprintf(f, "%s\n", head);
  return f;
}

// The cache-operator matrix: three shapes x E = 1, 2, 4, no reuse.
template <int LVL, int OP> static void op_level(FILE *f) {
  each<1, 2, 4>([&](auto e) {
    ld_curve<4, 32, V(e), LVL, OP>(f);
    ld_curve<16, 1, V(e), LVL, OP>(f);
    ld_curve<4, 1, V(e), LVL, OP>(f);
  });
}
// Readers per line R = 2, 4: warps (same iteration), warps_lag (E = 1, 4 each), loads (E = 4).
template <int W, int S, int LVL, int OP> static void reuse_shape(FILE *f) {
  each<2, 4>([&](auto r) {
    ld_curve<W, S, 1, LVL, OP, M_WARPS, V(r)>(f);
    ld_curve<W, S, 4, LVL, OP, M_WARPS, V(r)>(f);
    ld_curve<W, S, 1, LVL, OP, M_LAG, V(r)>(f);
    ld_curve<W, S, 4, LVL, OP, M_LAG, V(r)>(f);
    ld_curve<W, S, 4, LVL, OP, M_LOADS, V(r)>(f);
  });
}
template <int LVL, int OP> static void reuse_level(FILE *f) {
  reuse_shape<16, 1, LVL, OP>(f);
  reuse_shape<4, 32, LVL, OP>(f);
}

static void curves() {
  FILE *f = csv("load.csv");
  for (int c : {228, 100}) {
    g_carve = c;
    each<OP_CA, OP_CG, OP_NC>([&](auto op) {
      op_level<0, V(op)>(f);
      op_level<1, V(op)>(f);
    });
  }
  g_carve = 228;
  each<OP_CA, OP_CG, OP_NC>([&](auto op) {
    reuse_level<0, V(op)>(f);
    reuse_level<1, V(op)>(f);
  });
  fclose(f);
}

// probe: one launch per kernel at B (carveout 228), the L2 footprint touched (DRAM loops flush
// it themselves), for Nsight Compute (--kernel-name regex:k_ld).
static void probe(int b) {
  g_reps = 0;
  g_bmin = g_bmax = b;
  FILE *f = csv(fmt("probe_b%d.csv", b).c_str());
  auto touch = [] {
    k_touch<<<1056, 256>>>((const float4 *)d_arena, kL2Foot / 16, d_out);
    CK(cudaGetLastError());
  };
  each<OP_CA, OP_CG, OP_NC>([&](auto op) {
    touch();
    ld_curve<4, 32, 1, 0, V(op)>(f);
    ld_curve<4, 32, 1, 1, V(op)>(f);
  });
  touch();
  ld_curve<16, 1, 4, 0, OP_CA>(f);
  touch();
  ld_curve<16, 1, 4, 0, OP_CA, M_WARPS, 4>(f);
  touch();
  ld_curve<16, 1, 4, 0, OP_CA, M_LAG, 4>(f);
  touch();
  ld_curve<16, 1, 4, 0, OP_CA, M_LOADS, 4>(f);
  ld_curve<16, 1, 4, 1, OP_CA, M_WARPS, 4>(f);
  ld_curve<4, 32, 1, 1, OP_CA, M_WARPS, 4>(f);
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc < 3 || (strcmp(argv[1], "curves") && strcmp(argv[1], "probe")) || (!strcmp(argv[1], "probe") && argc != 4)) {
    fprintf(stderr, "usage: l1flight curves OUTDIR | l1flight probe B OUTDIR\n");
    return 2;
  }
  harness_init("l1flight");
  g_dir = argv[argc - 1];
  CK(cudaMalloc(&d_arena, kArena));
  k_fill<<<2048, 256>>>((unsigned *)d_arena, kArena / 4);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  if (!strcmp(argv[1], "probe"))
    probe(atoi(argv[2]));
  else
    curves();
  CK(cudaDeviceSynchronize());
  return 0;
}
