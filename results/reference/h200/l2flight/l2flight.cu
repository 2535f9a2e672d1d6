// l2flight.cu - per-SM lines in flight and the L2 bandwidth they buy (issue 24 items 2 and
// 5): global loads and stores as curves over B = 1..16 resident CTAs of 128 threads per SM
// x elements in flight per thread x level x the L1 the shared-memory carveout leaves.
//
// Harness: calibrate/common.cuh (the method of ../README.md and ../matrix/): one wave of
// B x 132 CTAs, B pinned by dynamic shared-memory padding, per-SM busy span from clock64
// stamps after a __syncthreads, median of 3 launches after a warm-up.  What is new here is
// the carveout: the padding fills a carveout of C KB (C = 228, 164, 100, 32; the L1 keeps
// 256 - C KB), each CTA taking C / B - 1 KB, so B CTAs fit and B + 1 do not; the
// measured blocks_min/blocks_max say whether B landed.
//
// Loads (k_ld): lane l of warp w reads element l x S (W bytes), ILP elements per thread per
// iteration at immediate offsets from one pointer, all issued before any is used (each
// sum multiplies by a 1 that is a product of all of them: ../matrix/matrix.cu's k_gld).
//   LVL 0 l2_cg: ld.global.cg (L1 not allocated) over a 16 MiB footprint kept in L2.
//   LVL 1 dram:  plain ld.global over a private slice per CTA, no reuse, L2 flushed
//                (256 MiB of clean lines read) before every launch.
// Stores (k_st): lane l stores W bytes at element ((i ILP + k) 4 + w) 32 S + l S, ILP per
// iteration; LVL 0: a 16 MiB footprint (L2), 1: a private slice per CTA (DRAM).
//
// Usage: l2flight curves OUTDIR          -> OUTDIR/load.csv, OUTDIR/store.csv
//        l2flight gather OUTDIR          -> OUTDIR/gather.csv (random gathers, k_rg)
//        l2flight probe B OUTDIR         -> OUTDIR/probe_bB.csv (one launch per kernel at B,
//                                           carveout 228, for Nsight Compute)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o l2flight l2flight.cu
#include "../../../../calibrate/common.cuh"
#include "../../../../calibrate/gload.cuh"

#include <cstdarg>
#include <cstring>
#include <string>
#include <type_traits>


static const size_t kL2Foot = (size_t)16 << 20;

template <int W, int S, int ILP, int LVL>
__global__ void k_ld(const char *__restrict__ a, size_t cta_bytes, float *out, Rec *rec, int iters) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr int SPAN = 32 * S * W;
  const size_t th = (size_t)warp * SPAN + (size_t)lane * S * W;
  const size_t cta = LVL == 1 ? blockIdx.x * cta_bytes : (size_t)blockIdx.x << 17;
  float s[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s[k] = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    const char *p = LVL == 1 ? a + cta + (size_t)i * 4 * ILP * SPAN + th
                             : a + ((cta + (size_t)i * 4 * ILP * SPAN) & (kL2Foot - 1)) + th;
    Vec<W> v[ILP];
#pragma unroll
    for (int k = 0; k < ILP; k++)
      v[k] = ldg<W, LVL == 0>(p + k * 4 * SPAN);
    float pr[ILP];
#pragma unroll
    for (int k = 0; k < ILP; k++)
      pr[k] = v[k].c[0];
#pragma unroll
    for (int st = 1; st < ILP; st *= 2)
#pragma unroll
      for (int q = 0; q + st < ILP; q += 2 * st)
        pr[q] *= pr[q + st];
    const float z = fmaf(pr[0], 0.0f, 1.0f);
#pragma unroll
    for (int k = 0; k < ILP; k++)
#pragma unroll
      for (int c = 0; c < W / 4; c++)
        s[k] = fmaf(v[k].c[c], z, s[k]);
  }
  rec_end(rec, t0);
  float t = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    t += s[k];
  KEEP(t);
}

template <int W, int S, int ILP, int LVL>
__global__ void k_st(char *__restrict__ a, size_t cta_bytes, float *out, Rec *rec, int iters) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const size_t base = LVL == 1 ? blockIdx.x * cta_bytes : blockIdx.x * ((size_t)1 << 20);
  const size_t step = (size_t)4 * 32 * S * W;
  const size_t off = ((size_t)warp * 32 * S + (size_t)lane * S) * W;
  float x = threadIdx.x * 1e-3f, y = x + 1, z = x + 2, w = x + 3;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int k = 0; k < ILP; k++) {
      size_t o = base + off + (size_t)(i * ILP + k) * step;
      if (LVL != 1)
        o &= kL2Foot - 1;
      char *p = a + o;
      if (W == 4)
        asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(x));
      else
        asm volatile("st.global.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(p), "f"(x), "f"(y), "f"(z), "f"(w));
    }
  }
  rec_end(rec, t0);
  KEEP(x);
}

// Random gathers (k_rg): lane l of warp w reads 4 bytes at the start of line h(i, k, lane, w, CTA) mod
// (FOOT / 128) of a footprint of FOOT bytes (h: a multiplicative hash), E per thread per
// iteration, all issued before any is used; LVL 0: ld.global.cg over a footprint read into L2
// before the launch; 1: plain ld.global, the L2 flushed before every launch.  Every warp-load
// touches 32 lines, as the stride-32 loads, but at random lines (rows, pages).
template <int E, int LVL>
__global__ void k_rg(const char *__restrict__ a, unsigned lines_mask, float *out, Rec *rec, int iters) {
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
      unsigned h = (g * 2654435761u) ^ ((unsigned)(i * E + k) * 2246822519u);
      h ^= h >> 15;
      h *= 2654435761u;
      const char *p = a + (size_t)(h & lines_mask) * 128;
      if (LVL == 0)
        asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v[k]) : "l"(p));
      else
        asm volatile("ld.global.f32 %0, [%1];" : "=f"(v[k]) : "l"(p));
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

static const char *kTail =
    "carveout_kb,regs,blocks_per_sm,resident_warps,iters,cycles,%s,cycles_min,cycles_max,blocks_min,blocks_max";

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

static int sectors(int pitch, int W) {
  std::vector<long> s;
  for (int l = 0; l < 32; l++)
    for (int b = 0; b < W; b += 4)
      s.push_back(((long)l * pitch + b) / 32);
  std::sort(s.begin(), s.end());
  return (int)(std::unique(s.begin(), s.end()) - s.begin());
}
static int lines(int pitch, int W) {
  std::vector<long> s;
  for (int l = 0; l < 32; l++)
    for (int b = 0; b < W; b += 4)
      s.push_back(((long)l * pitch + b) / 128);
  std::sort(s.begin(), s.end());
  return (int)(std::unique(s.begin(), s.end()) - s.begin());
}

static const char *kLevel[] = {"l2_cg", "dram"};
// Accesses per warp: 512 for up to one sector per lane at L2 (fewer for wider pitches); at
// DRAM as many as fit 2112 private slices in 4 GiB, at most 512.
static int per_warp(int lvl, int pitch, int ilp) {
  int n = lvl == 0 ? std::max(64, 512 * 32 / std::max(32, pitch))
                   : (int)std::min<size_t>(512, kArena / 2112 / (128 * (size_t)pitch));
  n = n / ilp * ilp;
  return std::max(n, ilp * 2);
}

template <int W, int S, int ILP, int LVL> static void ld_curve(FILE *f) {
  const int pitch = S * W, L = per_warp(LVL, pitch, ILP), iters = L / ILP;
  const size_t cta_bytes = (size_t)128 * L * pitch;
  curve(f, fmt("k_ld,%d,%d,%s,%d,%d,%d", W * 8, S, kLevel[LVL], ILP, lines(pitch, W), sectors(pitch, W)),
        k_ld<W, S, ILP, LVL>, 4.0 * L, iters, [&](int g, size_t sm) {
          if (LVL == 1)
            flush_l2();
          k_ld<W, S, ILP, LVL><<<g, 128, sm>>>(d_arena, cta_bytes, d_out, d_rec, iters);
        });
}
template <int W, int S, int ILP, int LVL> static void st_curve(FILE *f) {
  const int pitch = S * W, L = per_warp(LVL, pitch, ILP), iters = L / ILP;
  const size_t cta_bytes = (size_t)128 * L * pitch;
  curve(f, fmt("k_st,%d,%d,%s,%d,%d,%d", W * 8, S, kLevel[LVL], ILP, lines(pitch, W), sectors(pitch, W)),
        k_st<W, S, ILP, LVL>, 4.0 * L, iters, [&](int g, size_t sm) {
          if (LVL == 1)
            flush_l2();
          k_st<W, S, ILP, LVL><<<g, 128, sm>>>(d_arena, cta_bytes, d_out, d_rec, iters);
        });
}
static const char *kHead = "kernel,bits,stride_elems,level,elems_in_flight_per_thread,lines_per_warp_access,"
                           "sectors_per_warp_access";
static FILE *csv(const char *name, const char *rate) {
  char path[4096], tail[256];
  snprintf(path, sizeof path, "%s/%s", g_dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  snprintf(tail, sizeof tail, kTail, rate);
  fprintf(f, "%s,%s\n", kHead, tail);
  return f;
}
template <int LVL> static void ld_level(FILE *f) {
  each<1, 2, 4, 8>([&](auto e) {
    ld_curve<16, 1, V(e), LVL>(f);
    ld_curve<4, 1, V(e), LVL>(f);
    ld_curve<4, 32, V(e), LVL>(f);
  });
}
template <int LVL> static void st_level(FILE *f) {
  each<1, 4>([&](auto e) {
    st_curve<16, 1, V(e), LVL>(f);
    st_curve<4, 1, V(e), LVL>(f);
    st_curve<4, 32, V(e), LVL>(f);
  });
}
static void curves() {
  FILE *fl = csv("load.csv", "warp_loads_per_cycle_per_sm");
  for (int c : {228, 164, 100, 32}) {
    g_carve = c;
    ld_level<0>(fl);
    if (c == 228 || c == 100)
      ld_level<1>(fl);
  }
  fclose(fl);
  FILE *fs = csv("store.csv", "warp_stores_per_cycle_per_sm");
  for (int c : {228, 100}) {
    g_carve = c;
    st_level<0>(fs);
    st_level<1>(fs);
  }
  fclose(fs);
  g_carve = 228;
}

// Random-gather curves (gather.csv): footprints of 2, 16 and 32 MiB at L2 (read into L2 by
// k_touch first) and 1 GiB at DRAM, E = 1 and 4, carveout 228 KB.
template <int E, int LVL> static void rg_curve(FILE *f, size_t foot) {
  const int iters = (LVL == 0 ? 128 : 64) / E;
  const unsigned mask = (unsigned)(foot / 128 - 1);
  curve(f, fmt("k_rg,32,random,%s,%d,32,32,%zu", kLevel[LVL], E, foot >> 20), k_rg<E, LVL>, 4.0 * iters * E, iters,
        [&](int g, size_t sm) {
          if (LVL == 1)
            flush_l2();
          else
            k_touch<<<1056, 256>>>((const float4 *)d_arena, foot / 16, d_out);
          k_rg<E, LVL><<<g, 128, sm>>>(d_arena, mask, d_out, d_rec, iters);
        });
}
static void gathers() {
  g_carve = 228;
  char path[4096], tail[256];
  snprintf(path, sizeof path, "%s/gather.csv", g_dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  snprintf(tail, sizeof tail, kTail, "warp_loads_per_cycle_per_sm");
  fprintf(f, "%s,footprint_mib,%s\n", kHead, tail);
  for (size_t mib : {2, 16, 32}) {
    rg_curve<1, 0>(f, mib << 20);
    rg_curve<4, 0>(f, mib << 20);
  }
  rg_curve<1, 1>(f, (size_t)1 << 30);
  rg_curve<4, 1>(f, (size_t)1 << 30);
  fclose(f);
}

// probe: one launch per kernel at B (carveout 228), the L2 footprint touched (or the L2
// flushed, DRAM) before each, for Nsight Compute (--kernel-name regex:k_(ld|st)).
static void probe(int b) {
  g_reps = 0; // curve: one launch, no warm-up
  g_bmin = g_bmax = b;
  FILE *f = csv(fmt("probe_b%d.csv", b).c_str(), "warp_accesses_per_cycle_per_sm");
  auto touch = [] {
    k_touch<<<1056, 256>>>((const float4 *)d_arena, kL2Foot / 16, d_out);
    CK(cudaGetLastError());
  };
  touch();
  ld_curve<16, 1, 1, 0>(f);
  touch();
  ld_curve<16, 1, 4, 0>(f);
  touch();
  ld_curve<4, 1, 4, 0>(f);
  touch();
  ld_curve<4, 32, 1, 0>(f);
  touch();
  ld_curve<4, 32, 4, 0>(f);
  ld_curve<16, 1, 1, 1>(f);
  ld_curve<4, 32, 1, 1>(f);
  touch();
  st_curve<4, 32, 4, 0>(f);
  st_curve<4, 32, 4, 1>(f);
  st_curve<16, 1, 4, 1>(f);
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc < 3 || (strcmp(argv[1], "curves") && strcmp(argv[1], "probe") && strcmp(argv[1], "gather")) ||
      (!strcmp(argv[1], "probe") && argc != 4)) {
    fprintf(stderr, "usage: l2flight curves OUTDIR | l2flight gather OUTDIR | l2flight probe B OUTDIR\n");
    return 2;
  }
  harness_init("l2flight");
  g_dir = argv[argc - 1];
  CK(cudaMalloc(&d_arena, kArena));
  k_fill<<<2048, 256>>>((unsigned *)d_arena, kArena / 4);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  if (!strcmp(argv[1], "probe"))
    probe(atoi(argv[2]));
  else if (!strcmp(argv[1], "gather"))
    gathers();
  else
    curves();
  CK(cudaDeviceSynchronize());
  return 0;
}
