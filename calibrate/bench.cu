// bench.cu - calibration microbenchmarks for warpsim's SM model (scripts/calibrate.sh).
// Each experiment isolates model keys; the CSVs have the layout of
// results/reference/h200/ so scripts/validate.sh reads either.
//
// Usage: bench EXPERIMENT OUTDIR     EXPERIMENT is one of
//   device    device.csv: properties the CUDA runtime reports
//   latency   latency.csv: one warp alone, dependent chains (FFMA, IMAD, MUFU.EX2, LDS,
//             L1-hit, L2-hit and DRAM loads), cycles per operation
//   fma       fma.csv: FFMA chains, ILP 1,2,3,4,6,8, 1..16 CTAs of 128 threads per SM
//   sfu       sfu.csv: MUFU.EX2 chains, ILP 2,4,8
//   lds       lds.csv: dependent LDS chains, ILP 4, lane strides 1, 2, 32 words
//   chase     chase.csv: dependent 128 B line loads (ld.global.cg), L2 (16 MiB) or DRAM (4 GiB)
//   stream    stream.csv: independent float4 loads streaming from DRAM, 1, 2, 4 per thread
//   l1        l1.csv: L1-hit loads (ld.global.ca) of 4, 8, 16 B per thread, 4..64 warps per SM
//   inflight  inflight.csv: chase loads in flight per warp (1..32) with 1 warp per SM, 4 warps
//             on one SMSP, and 1 warp per SMSP, at L2 and DRAM
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o bench bench.cu
#include "common.cuh"

#include <cstring>
#include <random>
#include <string>

// Occupancy is pinned by the dynamic shared memory given at launch; the
// kernels never touch it.  KEEP stores a result, so that the compiler keeps
// every chain (out holds one word per thread of the largest grid).
#define KEEP(val, out) (out)[blockIdx.x * blockDim.x + threadIdx.x] = (val)

// ------------------------------------------------------------------ FFMA, IMAD, MUFU chains
template <int ILP>
__global__ void k_fma(float *out, Rec *rec, int iters, float m, float c) {
  float a[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++)
    a[k] = threadIdx.x * 1e-3f + k;
  unsigned long long t0 = rec_begin();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 32; j++)
#pragma unroll
      for (int k = 0; k < ILP; k++)
        a[k] = fmaf(a[k], m, c);
  }
  rec_end(rec, t0);
  float s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s += a[k];
  KEEP(s, out);
}

__global__ void k_imad(int *out, long long *cycles, int iters, int m, int c) {
  int x = threadIdx.x;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 32; j++)
      x = x * m + c;
  }
  long long t1 = clock64();
  out[threadIdx.x] = x;
  if (threadIdx.x == 0)
    cycles[0] = t1 - t0;
}

__global__ void k_ffma1(float *out, long long *cycles, int iters, float m, float c) {
  float x = threadIdx.x * 1e-3f;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 32; j++)
      x = fmaf(x, m, c);
  }
  long long t1 = clock64();
  out[threadIdx.x] = x;
  if (threadIdx.x == 0)
    cycles[0] = t1 - t0;
}

// MUFU.EX2 chains: x = 2^-x converges, so the values stay finite.
template <int ILP>
__global__ void k_sfu(float *out, Rec *rec, int iters) {
  float x[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++)
    x[k] = 0.5f + threadIdx.x * 1e-3f + k * 1e-2f;
  unsigned long long t0 = rec_begin();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
      for (int k = 0; k < ILP; k++)
        asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(x[k]) : "f"(-x[k]));
  }
  rec_end(rec, t0);
  float s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s += x[k];
  KEEP(s, out);
}

__global__ void k_mufu1(float *out, long long *cycles, int iters) {
  float x = 0.5f + threadIdx.x * 1e-3f;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 16; j++)
      asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(x) : "f"(-x));
  }
  long long t1 = clock64();
  out[threadIdx.x] = x;
  if (threadIdx.x == 0)
    cycles[0] = t1 - t0;
}

// ------------------------------------------------------------------ shared memory
// Dependent LDS chains: sh[] holds zeros, so every chain keeps its address
// lane * stride + k (words); the loaded value plus that base is the next address.
template <int ILP>
__global__ void k_lds(float *out, Rec *rec, int iters, int stride) {
  __shared__ int sh[2048];
  for (int i = threadIdx.x; i < 2048; i += blockDim.x)
    sh[i] = 0;
  const int lane = threadIdx.x & 31;
  int base[ILP], idx[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++) {
    base[k] = (lane * stride + k) & 2047;
    idx[k] = base[k];
  }
  unsigned long long t0 = rec_begin();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
      for (int k = 0; k < ILP; k++)
        idx[k] = sh[idx[k]] + base[k];
  }
  rec_end(rec, t0);
  int s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s += idx[k];
  KEEP((float)s, out);
}

// ------------------------------------------------------------------ global loads
// Lines of 128 B: all 32 words of line i hold next[i] (a single-cycle random
// permutation), so a warp-load is one coalesced line whose address depends on
// the previous load.  Each warp follows ILP chains, interleaved; only warps
// with (warp index % warp_step) == 0 run (4 warps on one SMSP: step 4).
template <int ILP>
__global__ void k_chase(const unsigned *__restrict__ lines, unsigned n_lines, float *out,
                        Rec *rec, int iters, int warp_step, unsigned seed) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned gw = blockIdx.x * (blockDim.x >> 5) + warp;
  unsigned p[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++)
    p[k] = (unsigned)(((unsigned long long)(gw * ILP + k) * 2654435761ull +
                       (unsigned long long)seed * 40503ull * 65537ull) %
                      n_lines);
  const bool active = (warp % warp_step) == 0;
  unsigned long long t0 = rec_begin();
  if (active) {
    for (int i = 0; i < iters; i++) {
#pragma unroll
      for (int k = 0; k < ILP; k++)
        asm volatile("ld.global.cg.u32 %0, [%1];"
                     : "=r"(p[k])
                     : "l"(lines + (size_t)p[k] * 32 + lane));
    }
  }
  rec_end(rec, t0);
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s += p[k];
  KEEP((float)s, out);
}

// Reads every word once (brings an L2-sized array into L2).
__global__ void k_touch(const unsigned *__restrict__ a, size_t n_words, unsigned *out) {
  unsigned s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n_words;
       i += (size_t)gridDim.x * blockDim.x)
    s += a[i];
  if (s == 0x12345678u)
    out[0] = s;
}

// One warp, dependent L1-hit loads (ld.global.ca) over a small array whose
// words hold the next word's index (lane-strided: one line per warp-load).
__global__ void k_l1_chase(const unsigned *__restrict__ a, unsigned *out, long long *cycles,
                           int iters) {
  unsigned p = threadIdx.x;
  for (int i = 0; i < 64; i++) // touch: bring the lines into L1
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(p) : "l"(a + p));
  p = threadIdx.x;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; i++)
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(p) : "l"(a + p));
  long long t1 = clock64();
  out[threadIdx.x] = p;
  if (threadIdx.x == 0)
    cycles[0] = t1 - t0;
}

// Independent coalesced float4 loads, ILP per thread per iteration, from a
// private slice of the array per CTA (no reuse), summed.
template <int ILP>
__global__ void __launch_bounds__(128, 16) k_stream(const float4 *__restrict__ a, size_t per_block, float *out, Rec *rec,
                         int iters) {
  const float4 *p = a + blockIdx.x * per_block + threadIdx.x;
  float s = 0;
  unsigned long long t0 = rec_begin();
  for (int i = 0; i < iters; i++) {
    float4 v[ILP];
#pragma unroll
    for (int k = 0; k < ILP; k++)
      v[k] = p[k * 128];
    p += ILP * 128;
#pragma unroll
    for (int k = 0; k < ILP; k++)
      s += v[k].x + v[k].y + v[k].z + v[k].w;
  }
  rec_end(rec, t0);
  KEEP(s, out);
}

// L1-hit loads of W words per thread (W = 1, 2, 4: 4, 8, 16 B), 8 independent
// per warp per iteration, from a 16 KiB array that stays in L1.
template <int W>
__global__ void __launch_bounds__(1024, 2) k_l1(const float *__restrict__ a, float *out, Rec *rec,
                                                int iters) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned mask = 4096 / W - 1;
  float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  unsigned base = (warp * 8 * 32 + lane) & mask;
  unsigned long long t0 = rec_begin();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 8; j++) {
      unsigned idx = (base + (j + i * 8) * 32) & mask;
      if (W == 1) {
        float v;
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(a + idx));
        s[j] += v;
      } else if (W == 2) {
        float v0, v1;
        asm volatile("ld.global.ca.v2.f32 {%0,%1}, [%2];" : "=f"(v0), "=f"(v1) : "l"(a + 2 * idx));
        s[j] += v0 + v1;
      } else {
        float v0, v1, v2, v3;
        asm volatile("ld.global.ca.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(v0), "=f"(v1), "=f"(v2), "=f"(v3)
                     : "l"(a + 4 * idx));
        s[j] += v0 + v1 + v2 + v3;
      }
    }
  }
  rec_end(rec, t0);
  float t = 0;
  for (int j = 0; j < 8; j++)
    t += s[j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = t;
}

// ------------------------------------------------------------------ host
static const char *g_out;
static float *d_out;
static Rec *d_rec;
static long long *d_cyc;

static void fill_chase(unsigned *d_lines, unsigned n_lines, unsigned seed) {
  std::vector<unsigned> next(n_lines), order(n_lines);
  for (unsigned i = 0; i < n_lines; i++)
    order[i] = i;
  std::mt19937_64 rng(seed);
  for (unsigned i = n_lines - 1; i > 0; i--) { // Sattolo: one cycle through every line
    std::uniform_int_distribution<unsigned> d(0, i - 1);
    std::swap(order[i], order[d(rng)]);
  }
  for (unsigned i = 0; i < n_lines; i++)
    next[order[i]] = order[(i + 1) % n_lines];
  // Expand on the host in slabs: 32 copies of next[i] per line.
  const unsigned slab = 1u << 20;
  std::vector<unsigned> buf((size_t)slab * 32);
  for (unsigned s = 0; s < n_lines; s += slab) {
    unsigned n = std::min(slab, n_lines - s);
    for (unsigned i = 0; i < n; i++)
      for (int w = 0; w < 32; w++)
        buf[(size_t)i * 32 + w] = next[s + i];
    CK(cudaMemcpy(d_lines + (size_t)s * 32, buf.data(), (size_t)n * 128, cudaMemcpyHostToDevice));
  }
}

static void touch(const unsigned *d, unsigned lines) {
  k_touch<<<4 * g_sms, 256>>>(d, (size_t)lines * 32, (unsigned *)d_out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
}

template <typename K> static double single_warp(K launch, double ops) {
  for (int rep = 0; rep < 2; rep++) {
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
  }
  long long c = 0;
  CK(cudaMemcpy(&c, d_cyc, sizeof c, cudaMemcpyDeviceToHost));
  return (double)c / ops;
}

static void exp_device() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  int clock_khz = 0, mem_khz = 0, bus = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
  FILE *f = open_csv(g_out, "device.csv", "field,value");
  fprintf(f, "name,%s\ncc,%d.%d\nsms,%d\nmax_threads_per_sm,%d\nmax_blocks_per_sm,%d\n", p.name,
          p.major, p.minor, p.multiProcessorCount, p.maxThreadsPerMultiProcessor,
          p.maxBlocksPerMultiProcessor);
  fprintf(f, "regs_per_sm,%d\nregs_per_block,%d\nsmem_per_sm,%zu\nsmem_per_block_optin,%zu\n",
          p.regsPerMultiprocessor, p.regsPerBlock, p.sharedMemPerMultiprocessor,
          p.sharedMemPerBlockOptin);
  fprintf(f, "reserved_smem_per_block,%zu\nl2_bytes,%d\nclock_khz,%d\nmem_clock_khz,%d\n",
          p.reservedSharedMemPerBlock, p.l2CacheSize, clock_khz, mem_khz);
  fprintf(f, "mem_bus_bits,%d\nwarp_size,%d\n", bus, p.warpSize);
  fclose(f);
}

static void exp_latency() {
  FILE *f = open_csv(g_out, "latency.csv", "what,cycles_per_op");
  const int n = 4096;
  fprintf(f, "ffma_dependent,%.2f\n", single_warp([&] { k_ffma1<<<1, 32>>>(d_out, d_cyc, n, 0.999f, 1e-3f); }, n * 32.0));
  fprintf(f, "imad_dependent,%.2f\n", single_warp([&] { k_imad<<<1, 32>>>((int *)d_out, d_cyc, n, 3, 7); }, n * 32.0));
  fprintf(f, "mufu_ex2_dependent,%.2f\n", single_warp([&] { k_mufu1<<<1, 32>>>(d_out, d_cyc, n); }, n * 16.0));
  // LDS: one warp, one chain, stride 1 (conflict-free), through k_lds<1>.
  {
    int iters = 4096;
    Span s = run_wave(1, 0, [&](int g, size_t sm) { k_lds<1><<<g, 32, sm>>>(d_out, d_rec, iters, 1); }, d_rec);
    fprintf(f, "smem_load_dependent,%.2f\n", s.cycles / (iters * 8.0));
  }
  // L1: 16 KiB of words holding the index of the same lane's word (one line per warp-load).
  {
    std::vector<unsigned> h(4096);
    for (unsigned i = 0; i < 4096; i++)
      h[i] = i;
    unsigned *d;
    CK(cudaMalloc(&d, 4096 * 4));
    CK(cudaMemcpy(d, h.data(), 4096 * 4, cudaMemcpyHostToDevice));
    fprintf(f, "l1_hit_load_dependent,%.2f\n", single_warp([&] { k_l1_chase<<<1, 32>>>(d, (unsigned *)d_out, d_cyc, n); }, n));
    CK(cudaFree(d));
  }
  // L2: a 4 MiB chase, warmed by the launch before the timed one; DRAM: a 4 GiB chase, cold lines.
  const unsigned l2_lines = (4u << 20) / 128, dram_lines = (unsigned)((4ull << 30) / 128);
  unsigned *d;
  CK(cudaMalloc(&d, (size_t)dram_lines * 128));
  fill_chase(d, l2_lines, 7);
  touch(d, l2_lines);
  int iters = 2048;
  unsigned seed = 0;
  Span s = run_wave(1, 0, [&](int g, size_t sm) { k_chase<1><<<g, 32, sm>>>(d, l2_lines, d_out, d_rec, iters, 1, seed++); }, d_rec);
  fprintf(f, "l2_hit_load_dependent,%.2f\n", s.cycles / iters);
  fill_chase(d, dram_lines, 11);
  iters = 1024;
  s = run_wave(1, 0, [&](int g, size_t sm) { k_chase<1><<<g, 32, sm>>>(d, dram_lines, d_out, d_rec, iters, 1, seed++); }, d_rec);
  fprintf(f, "dram_load_dependent,%.2f\n", s.cycles / iters);
  CK(cudaFree(d));
  fclose(f);
}

template <int ILP> static void fma_curve(FILE *f) {
  const int iters = 4096 / ILP;
  for (int b = 1; b <= 16; b++) {
    size_t smem = smem_for_blocks(k_fma<ILP>, 128, b);
    Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) { k_fma<ILP><<<g, 128, sm>>>(d_out, d_rec, iters, 0.999f, 1e-3f); }, d_rec);
    double rate = 4.0 * b * iters * 32 * ILP / s.cycles;
    fprintf(f, "%d,%d,%d,%.0f,%.4f,%d,%d\n", ILP, b, 4 * b, s.cycles, rate, s.blocks_min, s.blocks_max);
  }
}

static void exp_fma() {
  FILE *f = open_csv(g_out, "fma.csv", "ilp,blocks_per_sm,warps_per_sm,cycles,warp_ffma_per_cycle_per_sm,blocks_min,blocks_max");
  fma_curve<1>(f);
  fma_curve<2>(f);
  fma_curve<3>(f);
  fma_curve<4>(f);
  fma_curve<6>(f);
  fma_curve<8>(f);
  fclose(f);
}

template <int ILP> static void sfu_curve(FILE *f) {
  const int iters = 8192 / (16 * ILP);
  for (int b = 1; b <= 16; b++) {
    size_t smem = smem_for_blocks(k_sfu<ILP>, 128, b);
    Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) { k_sfu<ILP><<<g, 128, sm>>>(d_out, d_rec, iters); }, d_rec);
    fprintf(f, "%d,%d,%d,%.0f,%.4f\n", ILP, b, 4 * b, s.cycles, 4.0 * b * iters * 16 * ILP / s.cycles);
  }
}

static void exp_sfu() {
  FILE *f = open_csv(g_out, "sfu.csv", "ilp,blocks_per_sm,warps_per_sm,cycles,warp_mufu_per_cycle_per_sm");
  sfu_curve<2>(f);
  sfu_curve<4>(f);
  sfu_curve<8>(f);
  fclose(f);
}

static void exp_lds() {
  FILE *f = open_csv(g_out, "lds.csv", "ilp,stride,blocks_per_sm,warps_per_sm,cycles,warp_lds_per_cycle_per_sm");
  const int strides[] = {1, 2, 32};
  for (int stride : strides) {
    const int iters = 64;
    for (int b = 1; b <= 16; b++) {
      size_t smem = smem_for_blocks(k_lds<4>, 128, b);
      Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) { k_lds<4><<<g, 128, sm>>>(d_out, d_rec, iters, stride); }, d_rec);
      fprintf(f, "4,%d,%d,%d,%.0f,%.4f\n", stride, b, 4 * b, s.cycles, 4.0 * b * iters * 8 * 4 / s.cycles);
    }
  }
  fclose(f);
}

template <int ILP>
static double chase_point(FILE *f, const char *where, unsigned *d, unsigned n_lines, int b,
                          int threads, int warp_step, int iters) {
  size_t smem = smem_for_blocks(k_chase<ILP>, threads, b);
  static unsigned seed = 100;
  Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) { k_chase<ILP><<<g, threads, sm>>>(d, n_lines, d_out, d_rec, iters, warp_step, seed++); }, d_rec);
  int warps = b * threads / 32 / warp_step;
  double loads = (double)warps * iters * ILP;
  if (f)
    fprintf(f, "%s,%d,%d,%d,%.0f,%.5f,%.3f,%.1f\n", where, ILP, b, warps, s.cycles, loads / s.cycles, 128 * loads / s.cycles, s.cycles / iters);
  return s.cycles / iters;
}

template <int ILP> static void chase_curve(FILE *f, const char *where, unsigned *d, unsigned n, int iters) {
  for (int b = 1; b <= 16; b++)
    chase_point<ILP>(f, where, d, n, b, 128, 1, iters);
}

static unsigned *chase_array(unsigned lines, unsigned seed) {
  static unsigned *d = nullptr;
  if (!d)
    CK(cudaMalloc(&d, (4ull << 30)));
  fill_chase(d, lines, seed);
  if ((size_t)lines * 128 <= (32u << 20))
    touch(d, lines);
  return d;
}

static void exp_chase() {
  FILE *f = open_csv(g_out, "chase.csv", "where,ilp,blocks_per_sm,warps_per_sm,cycles,warp_loads_per_cycle_per_sm,bytes_per_cycle_per_sm,cycles_per_iter");
  const unsigned l2_lines = (16u << 20) / 128, dram_lines = (unsigned)((4ull << 30) / 128);
  unsigned *d = chase_array(l2_lines, 7);
  chase_curve<1>(f, "l2", d, l2_lines, 2048);
  chase_curve<2>(f, "l2", d, l2_lines, 1024);
  chase_curve<4>(f, "l2", d, l2_lines, 512);
  d = chase_array(dram_lines, 11);
  chase_curve<1>(f, "dram", d, dram_lines, 512);
  chase_curve<2>(f, "dram", d, dram_lines, 256);
  chase_curve<4>(f, "dram", d, dram_lines, 128);
  chase_curve<8>(f, "dram", d, dram_lines, 128);
  fclose(f);
}

template <int ILP> static void inflight_level(FILE *f, const char *level, unsigned *d, unsigned n, int iters) {
  // 1 warp per SM; 4 warps on one SMSP (a CTA of 16 warps, every 4th runs); 4 warps, one per SMSP.
  double c1 = chase_point<ILP>(nullptr, level, d, n, 1, 32, 1, iters);
  double c2 = chase_point<ILP>(nullptr, level, d, n, 1, 512, 4, iters);
  double c3 = chase_point<ILP>(nullptr, level, d, n, 1, 128, 1, iters);
  fprintf(f, "%s,1,1,%d,%.1f,%.5f\n", level, ILP, c1, ILP / c1);
  fprintf(f, "%s,4,4,%d,%.1f,%.5f\n", level, ILP, c2, 4.0 * ILP / c2);
  fprintf(f, "%s,4,1,%d,%.1f,%.5f\n", level, ILP, c3, 4.0 * ILP / c3);
}

static void exp_inflight() {
  FILE *f = open_csv(g_out, "inflight.csv", "level,warps_per_sm,warps_per_smsp,loads_per_warp,cycles_per_round,warp_loads_per_cycle_per_sm");
  const unsigned l2_lines = (16u << 20) / 128, dram_lines = (unsigned)((4ull << 30) / 128);
  unsigned *d = chase_array(l2_lines, 7);
  inflight_level<1>(f, "l2", d, l2_lines, 512);
  inflight_level<2>(f, "l2", d, l2_lines, 512);
  inflight_level<4>(f, "l2", d, l2_lines, 256);
  inflight_level<8>(f, "l2", d, l2_lines, 256);
  inflight_level<16>(f, "l2", d, l2_lines, 128);
  inflight_level<32>(f, "l2", d, l2_lines, 64);
  d = chase_array(dram_lines, 11);
  inflight_level<1>(f, "dram", d, dram_lines, 256);
  inflight_level<2>(f, "dram", d, dram_lines, 256);
  inflight_level<4>(f, "dram", d, dram_lines, 128);
  inflight_level<8>(f, "dram", d, dram_lines, 128);
  inflight_level<16>(f, "dram", d, dram_lines, 64);
  inflight_level<32>(f, "dram", d, dram_lines, 64);
  fclose(f);
}

template <int ILP> static void stream_curve(FILE *f, const float4 *a, size_t per_block) {
  const int iters = 1024 / ILP;
  for (int b = 1; b <= 16; b++) {
    size_t smem = smem_for_blocks(k_stream<ILP>, 128, b);
    Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) { k_stream<ILP><<<g, 128, sm>>>(a, per_block, d_out, d_rec, iters); }, d_rec);
    fprintf(f, "%d,%d,%d,%.0f,%.3f\n", ILP, b, 4 * b, s.cycles, (double)b * iters * ILP * 128 * 16 / s.cycles);
  }
}

static void exp_stream() {
  FILE *f = open_csv(g_out, "stream.csv", "ilp,blocks_per_sm,warps_per_sm,cycles,bytes_per_cycle_per_sm");
  const size_t per_block = 1024 * 128; // float4 per CTA: 2 MiB
  float4 *a;
  CK(cudaMalloc(&a, per_block * 16 * 16 * g_sms));
  CK(cudaMemset(a, 0, per_block * 16 * 16 * g_sms));
  stream_curve<1>(f, a, per_block);
  stream_curve<2>(f, a, per_block);
  stream_curve<4>(f, a, per_block);
  CK(cudaFree(a));
  fclose(f);
}

template <int W> static void l1_curve(FILE *f, const float *a) {
  const int iters = 2048, warps[] = {4, 8, 16, 32, 64};
  int resident = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, k_l1<W>, 1024, 0));
  if (resident < 2) {
    fprintf(stderr, "two 1024-thread CTAs do not fit on one SM (%d)\n", resident);
    exit(1);
  }
  for (int w : warps) {
    int per_cta = w > 32 ? 32 : w, ctas = g_sms * (w / per_cta);
    Span s = run_wave(ctas, 0, [&](int g, size_t) { k_l1<W><<<g, 32 * per_cta>>>(a, d_out, d_rec, iters); }, d_rec, 1);
    double loads = (double)w * iters * 8;
    fprintf(f, "%d,%d,%.4f,%.2f\n", 4 * W, w, loads / s.cycles, loads * 128 * W / s.cycles);
  }
}

static void exp_l1() {
  FILE *f = open_csv(g_out, "l1.csv", "bytes_per_thread,warps_per_sm,warp_loads_per_cycle_per_sm,bytes_per_cycle_per_sm");
  float *a;
  CK(cudaMalloc(&a, 4096 * 16));
  CK(cudaMemset(a, 0, 4096 * 16));
  l1_curve<1>(f, a);
  l1_curve<2>(f, a);
  l1_curve<4>(f, a);
  CK(cudaFree(a));
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: bench device|latency|fma|sfu|lds|chase|stream|l1|inflight OUTDIR\n");
    return 2;
  }
  g_out = argv[2];
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    fprintf(stderr, "bench: no CUDA device\n");
    return 2;
  }
  CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaMalloc(&d_out, 64 << 20));
  CK(cudaMalloc(&d_rec, 64 * 1024 * sizeof(Rec)));
  CK(cudaMalloc(&d_cyc, 64));
  const std::string e = argv[1];
  if (e == "device") exp_device();
  else if (e == "latency") exp_latency();
  else if (e == "fma") exp_fma();
  else if (e == "sfu") exp_sfu();
  else if (e == "lds") exp_lds();
  else if (e == "chase") exp_chase();
  else if (e == "stream") exp_stream();
  else if (e == "l1") exp_l1();
  else if (e == "inflight") exp_inflight();
  else {
    fprintf(stderr, "bench: unknown experiment '%s'\n", argv[1]);
    return 2;
  }
  return 0;
}
