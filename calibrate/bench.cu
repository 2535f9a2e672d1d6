// bench.cu - calibration microbenchmarks for warpsim's SM model (scripts/calibrate.sh).
// Each experiment isolates model keys by the method of the measurement the
// shipped key came from (results/reference/h200/README.md); the CSVs have the
// layout of results/reference/h200/ so scripts/validate.sh reads either, with
// the fastest and slowest launch of every point appended (cycles_min,
// cycles_max: the median of kLaunches launches is reported).
//
// Usage: bench EXPERIMENT OUTDIR     EXPERIMENT is one of
//   device    device.csv: properties the CUDA runtime reports
//   latency   latency.csv: one warp alone, dependent chains (FFMA, IMAD, MUFU.EX2, LDS,
//             L1-hit, L2-hit and DRAM loads), cycles per operation; the L2 and DRAM chase
//             on every SM in turn (latency_sm.csv), reported as the mean over SMs
//             (median of 3 passes);
//             variants of the address arithmetic as extra rows
//   fma       fma.csv: FFMA chains whose multiplier and addend are loaded into vector
//             registers (the FFMA of results/reference/h200/sass_fma.txt), ILP 1,2,3,4,6,8,
//             1..16 CTAs of 128 threads per SM; fma_uniform.csv: ILP 1,2,3 with the
//             multiplier in a uniform register (kernel parameters)
//   sfu       sfu.csv: MUFU.EX2 chains, ILP 2,4,8
//   lds       lds.csv: dependent LDS chains, ILP 4, lane strides 1, 2, 32 words
//   chase     chase.csv: dependent 128 B line loads (ld.global.cg), L2 (16 MiB) or DRAM (4 GiB)
//   stream    stream.csv: independent float4 loads streaming from DRAM, rows ilp 1, 2, 4
//             with 2, 4, 8 loads per thread in flight (as the shared set's rows);
//             stream_exact.csv: 1, 2, 4 in flight
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
// ILP chains of a = a * m + c, 32 x ILP FFMAs per iteration.
template <int ILP> __device__ __forceinline__ void fma_body(float *out, Rec *rec, int iters, float m, float c) {
  float a[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++)
    a[k] = threadIdx.x * 1e-3f + k;
  unsigned long long t0 = rec_begin();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 32; j++)
      fma_step(a, m, c);
  }
  rec_end(rec, t0);
  float s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s += a[k];
  KEEP(s, out);
}

// fma.csv: m and c loaded from memory (one 8-byte load: two vector
// registers), so every FFMA reads three vector registers, as the shared set's
// kernel does (sass_fma.txt: FFMA R8, R8, R4, R5; here FFMA R12, R4, R12, R5:
// sass.txt).  The VREG flag only names the variant in the SASS.
template <int ILP, bool VREG>
__global__ void k_fma(float *out, Rec *rec, int iters, const float2 *mc, float m, float c) {
  if (VREG) {
    float2 v = mc[0];
    m = v.x;
    c = v.y;
  }
  fma_body<ILP>(out, rec, iters, m, c);
}

// fma_uniform.csv: m and c kernel parameters at offsets that are no 8-byte
// pair, so ptxas feeds the multiplier from a uniform register (FFMA R7, R7,
// UR4, R6 in the first calibration run): two vector-register operands.
template <int ILP> __global__ void k_fma_u(float *out, Rec *rec, int iters, float m, float c) {
  fma_body<ILP>(out, rec, iters, m, c);
}

// One warp, a chain of x = OP(x) unrolled 32 times per iteration; cycles[0] = the span.
#define SINGLE_WARP_CHAIN(NAME, T, STEP)                                                          \
  __global__ void NAME(T *out, long long *cycles, int iters, T m, T c) {                          \
    T x = (T)threadIdx.x;                                                                         \
    __syncthreads();                                                                              \
    long long t0 = clock64();                                                                     \
    for (int i = 0; i < iters; i++) {                                                             \
      _Pragma("unroll") for (int j = 0; j < 32; j++) x = STEP;                                    \
    }                                                                                             \
    long long t1 = clock64();                                                                     \
    out[threadIdx.x] = x;                                                                         \
    if (threadIdx.x == 0)                                                                         \
      cycles[0] = t1 - t0;                                                                        \
  }
SINGLE_WARP_CHAIN(k_imad, int, x *m + c)
SINGLE_WARP_CHAIN(k_ffma1, float, fmaf(x, m, c))

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

// One warp, a dependent LDS chain through shared-window byte addresses.  ADD:
// each word holds zero and the next address is the loaded value plus the
// lane's own address (one integer add per step, no scaling); otherwise each
// word holds its own address (no arithmetic at all: the LDS alone).
template <bool ADD> __global__ void k_lds_addr(float *out, long long *cycles, int iters) {
  __shared__ unsigned sh[32];
  const unsigned lane = threadIdx.x & 31;
  const unsigned self = (unsigned)__cvta_generic_to_shared(&sh[lane]);
  sh[lane] = ADD ? 0u : self;
  unsigned p = self;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 8; j++) {
      asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
      if (ADD)
        p += self;
    }
  }
  long long t1 = clock64();
  KEEP((float)p, out);
  if (threadIdx.x == 0)
    cycles[0] = t1 - t0;
}

// ------------------------------------------------------------------ global loads
// Lines of 128 B: all 32 words of line i hold next[i] (a single-cycle random
// permutation), so a warp-load is one coalesced line whose address depends on
// the previous load.  CA: ld.global.ca (L1 allocating), else ld.global.cg.
template <int ILP, bool CA>
__device__ __forceinline__ void chase_steps(unsigned (&p)[ILP], const unsigned *lines,
                                            unsigned lane, int iters) {
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int k = 0; k < ILP; k++) {
      if (CA)
        asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(p[k]) : "l"(lines + (size_t)p[k] * 32 + lane));
      else
        asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(p[k]) : "l"(lines + (size_t)p[k] * 32 + lane));
    }
  }
}

// The first line of chain k of global warp gw for launch `seed`.
__device__ __forceinline__ unsigned chase_start(unsigned gw, int k, int ilp, unsigned seed,
                                                unsigned n_lines) {
  return (unsigned)(((unsigned long long)(gw * ilp + k) * 2654435761ull +
                     (unsigned long long)seed * 40503ull * 65537ull) %
                    n_lines);
}

// Each warp follows ILP chains, interleaved; only warps with (warp index %
// warp_step) == 0 run (4 warps on one SMSP: step 4).
template <int ILP>
__global__ void k_chase(const unsigned *__restrict__ lines, unsigned n_lines, float *out,
                        Rec *rec, int iters, int warp_step, unsigned seed) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned gw = blockIdx.x * (blockDim.x >> 5) + warp;
  unsigned p[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++)
    p[k] = chase_start(gw, k, ILP, seed, n_lines);
  const bool active = (warp % warp_step) == 0;
  unsigned long long t0 = rec_begin();
  if (active)
    chase_steps<ILP, false>(p, lines, lane, iters);
  rec_end(rec, t0);
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s += p[k];
  KEEP((float)s, out);
}

// One warp alone on SM `sm` (any SM when sm < 0): the first 32-thread CTA
// that lands there claims the run (*claim counts the claims), the others
// exit at once.  `warm` chase steps run before the timed `iters`;
// cycles[0] = the timed span.
template <bool CA>
__global__ void k_chase_on(const unsigned *__restrict__ lines, unsigned n_lines, float *out,
                           long long *cycles, unsigned *claim, int iters, int warm, int sm,
                           unsigned seed) {
  __shared__ int won;
  if (sm >= 0 && smid() != (unsigned)sm)
    return;
  if (threadIdx.x == 0)
    won = atomicAdd(claim, 1u) == 0;
  __syncthreads();
  if (!won)
    return;
  const unsigned lane = threadIdx.x & 31;
  unsigned p[1] = {chase_start(0, 0, 1, seed, n_lines)};
  chase_steps<1, CA>(p, lines, lane, warm);
  __syncwarp();
  long long t0 = clock64();
  chase_steps<1, CA>(p, lines, lane, iters);
  long long t1 = clock64();
  out[threadIdx.x] = (float)p[0];
  if (threadIdx.x == 0)
    cycles[0] = t1 - t0;
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

// One warp, dependent L1-hit loads (ld.global.ca) over a small array.  INDEX:
// each word holds the index of the next word (lane-strided: one line per
// warp-load), the address is base + 4 x index; otherwise each 8-byte word
// holds its own address (no arithmetic: the load alone).
template <bool INDEX>
__global__ void k_l1_chase(const unsigned *__restrict__ a, unsigned *out, long long *cycles,
                           int iters) {
  unsigned p = threadIdx.x;
  unsigned long long q = (unsigned long long)(a + 2 * threadIdx.x);
  for (int i = 0; i < 64; i++) { // touch: bring the lines into L1
    if (INDEX)
      asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(p) : "l"(a + p));
    else
      asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(q));
  }
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
    if (INDEX)
      asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(p) : "l"(a + p));
    else
      asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(q));
  }
  long long t1 = clock64();
  out[threadIdx.x] = p + (unsigned)q;
  if (threadIdx.x == 0)
    cycles[0] = t1 - t0;
}

// Independent coalesced float4 loads, LOADS per thread per iteration, from a
// private slice of the array per CTA (no reuse), summed.  The loop is not
// unrolled, so exactly LOADS loads per thread are in flight.
template <int LOADS>
__global__ void __launch_bounds__(128, 16)
    k_stream(const float4 *__restrict__ a, size_t per_block, float *out, Rec *rec, int iters) {
  const float4 *p = a + blockIdx.x * per_block + threadIdx.x;
  float s = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    float4 v[LOADS];
#pragma unroll
    for (int k = 0; k < LOADS; k++)
      v[k] = p[k * 128];
    p += LOADS * 128;
#pragma unroll
    for (int k = 0; k < LOADS; k++)
      s += v[k].x + v[k].y + v[k].z + v[k].w;
  }
  rec_end(rec, t0);
  KEEP(s, out);
}

// ------------------------------------------------------------------ host
static const char *g_out;
static long long *d_cyc;
static unsigned *d_claim;

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

// One latency.csv row: median (or mean over SMs), its lowest and highest sample, samples.
static void lat_row(FILE *f, const char *what, Stat s, int n) {
  fprintf(f, "%s,%.2f,%.2f,%.2f,%d\n", what, s.med, s.lo, s.hi, n);
}

// One warp chasing `iters` lines of `lines` on SM `sm` (any SM when sm < 0),
// after `warm` untimed steps; cycles per load, or -1 when no CTA landed there.
template <bool CA>
static double chase_alone(const unsigned *lines, unsigned n_lines, int iters, int warm, int sm,
                          unsigned seed) {
  CK(cudaMemset(d_claim, 0, sizeof(unsigned)));
  k_chase_on<CA><<<sm < 0 ? 1 : 2 * g_sms, 32>>>(lines, n_lines, d_out, d_cyc, d_claim, iters,
                                                   warm, sm, seed);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  unsigned claimed = 0;
  long long c = 0;
  CK(cudaMemcpy(&claimed, d_claim, sizeof claimed, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&c, d_cyc, sizeof c, cudaMemcpyDeviceToHost));
  return claimed ? (double)c / iters : -1.0;
}

// The chase alone on every SM in turn (latency_sm.csv rows), kLatPasses
// passes: the median of the passes' means over SMs, with the lowest and
// highest pass mean; then the old method (one CTA wherever it lands, median
// of kLaunches launches) as `<what>_any_sm`.
static const int kLatPasses = 3;
template <bool CA>
static void chase_latency(FILE *f, FILE *fsm, const char *what, const unsigned *lines,
                          unsigned n_lines, int iters, int warm, unsigned &seed) {
  std::vector<double> means;
  chase_alone<CA>(lines, n_lines, iters, warm, -1, seed++); // warm-up
  for (int pass = 0; pass < kLatPasses; pass++) {
    double sum = 0;
    int n = 0;
    for (int sm = 0; sm < g_sms; sm++) {
      double c = chase_alone<CA>(lines, n_lines, iters, warm, sm, seed++);
      fprintf(fsm, "%s,%d,%d,%.2f\n", what, pass, sm, c);
      if (c > 0) {
        sum += c;
        n++;
      }
    }
    if (n == 0) {
      fprintf(stderr, "bench: %s: no CTA ran on any chosen SM\n", what);
      exit(1);
    }
    means.push_back(sum / n);
  }
  lat_row(f, what, stat_of(means), kLatPasses);
  std::vector<double> any;
  for (int r = 0; r < kLaunches; r++)
    any.push_back(chase_alone<CA>(lines, n_lines, iters, warm, -1, seed++));
  std::string name = std::string(what) + "_any_sm";
  lat_row(f, name.c_str(), stat_of(any), kLaunches);
}

static void exp_latency() {
  FILE *f = open_csv(g_out, "latency.csv", "what,cycles_per_op,cycles_min,cycles_max,samples");
  FILE *fsm = open_csv(g_out, "latency_sm.csv", "what,pass,sm,cycles_per_op");
  const int n = 4096;
  lat_row(f, "ffma_dependent", single_warp([&] { k_ffma1<<<1, 32>>>(d_out, d_cyc, n, 0.999f, 1e-3f); }, d_cyc, n * 32.0), kLaunches);
  lat_row(f, "imad_dependent", single_warp([&] { k_imad<<<1, 32>>>((int *)d_out, d_cyc, n, 3, 7); }, d_cyc, n * 32.0), kLaunches);
  lat_row(f, "mufu_ex2_dependent", single_warp([&] { k_mufu1<<<1, 32>>>(d_out, d_cyc, n); }, d_cyc, n * 16.0), kLaunches);
  // LDS: one warp, one chain: the loaded value plus the lane's address is the
  // next address (one IADD per LDS: "includes the address add", the shipped
  // key's measurement); then k_lds<1>, stride 1 (the lds.csv chain: IADD and a
  // LEA to scale the index per LDS), and the LDS alone (no arithmetic).
  {
    int iters = 4096;
    Span s = run_wave(1, 0, [&](int g, size_t sm) { k_lds<1><<<g, 32, sm>>>(d_out, d_rec, iters, 1); }, d_rec);
    double ops = iters * 8.0;
    lat_row(f, "smem_load_dependent", single_warp([&] { k_lds_addr<true><<<1, 32>>>(d_out, d_cyc, iters); }, d_cyc, ops), kLaunches);
    lat_row(f, "smem_load_dependent_index", {s.cycles / ops, s.lo / ops, s.hi / ops}, kLaunches);
    lat_row(f, "smem_load_dependent_alone", single_warp([&] { k_lds_addr<false><<<1, 32>>>(d_out, d_cyc, iters); }, d_cyc, ops), kLaunches);
  }
  unsigned seed = 0;
  const unsigned l1_lines = (16u << 10) / 128, l2_lines = (4u << 20) / 128,
                 dram_lines = (unsigned)((4ull << 30) / 128);
  unsigned *d;
  CK(cudaMalloc(&d, (size_t)dram_lines * 128));
  // L1: the line chase of chase.csv (its address arithmetic: IMAD.WIDE, LEA,
  // LEA.HI.X per load) with ld.global.ca over 16 KiB (128 lines, one pass
  // untimed to fill L1), every SM in turn; then word indices (base + 4 x
  // index: one IMAD.WIDE) and 8-byte addresses (the load alone).
  fill_chase(d, l1_lines, 5);
  chase_latency<true>(f, fsm, "l1_hit_load_dependent", d, l1_lines, n, l1_lines, seed);
  {
    std::vector<unsigned> h(8192);
    unsigned *a;
    CK(cudaMalloc(&a, 8192 * 4));
    for (unsigned i = 0; i < 4096; i++)
      h[i] = i;
    CK(cudaMemcpy(a, h.data(), 4096 * 4, cudaMemcpyHostToDevice));
    lat_row(f, "l1_hit_load_dependent_index", single_warp([&] { k_l1_chase<true><<<1, 32>>>(a, (unsigned *)d_out, d_cyc, n); }, d_cyc, n), kLaunches);
    std::vector<unsigned long long> q(4096);
    for (unsigned i = 0; i < 4096; i++)
      q[i] = (unsigned long long)(a + 2 * i);
    CK(cudaMemcpy(a, q.data(), 4096 * 8, cudaMemcpyHostToDevice));
    lat_row(f, "l1_hit_load_dependent_addr", single_warp([&] { k_l1_chase<false><<<1, 32>>>(a, (unsigned *)d_out, d_cyc, n); }, d_cyc, n), kLaunches);
    CK(cudaFree(a));
  }
  // L2: a 4 MiB chase, pre-touched; DRAM: a 4 GiB chase, cold lines.
  fill_chase(d, l2_lines, 7);
  touch(d, l2_lines);
  chase_latency<false>(f, fsm, "l2_hit_load_dependent", d, l2_lines, 2048, 0, seed);
  fill_chase(d, dram_lines, 11);
  chase_latency<false>(f, fsm, "dram_load_dependent", d, dram_lines, 1024, 0, seed);
  CK(cudaFree(d));
  fclose(fsm);
  fclose(f);
}

template <typename K, typename L> static void fma_curve(FILE *f, int ilp, K kernel, L launch) {
  const int iters = 4096 / ilp;
  for (int b = 1; b <= 16; b++) {
    size_t smem = smem_for_blocks(kernel, 128, b);
    Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) { launch(g, sm, iters); }, d_rec);
    double ffma = 4.0 * b * iters * 32 * ilp;
    fprintf(f, "%d,%d,%d,%.0f,%.4f,%d,%d,%.0f,%.0f\n", ilp, b, 4 * b, s.cycles, ffma / s.cycles,
            s.blocks_min, s.blocks_max, s.lo, s.hi);
  }
}
#define FMA_CURVE(F, ILP, ...)                                                                    \
  fma_curve(F, ILP, __VA_ARGS__, [&](int g, size_t sm, int it) {                                  \
    __VA_ARGS__<<<g, 128, sm>>>(d_out, d_rec, it, FMA_ARGS);                                       \
  })

static void exp_fma() {
  const char *hdr = "ilp,blocks_per_sm,warps_per_sm,cycles,warp_ffma_per_cycle_per_sm,blocks_min,blocks_max,cycles_min,cycles_max";
  float2 h = {0.999f, 1e-3f}, *mc;
  CK(cudaMalloc(&mc, sizeof h));
  CK(cudaMemcpy(mc, &h, sizeof h, cudaMemcpyHostToDevice));
  FILE *f = open_csv(g_out, "fma.csv", hdr);
#define FMA_ARGS mc, 0.f, 0.f
  FMA_CURVE(f, 1, k_fma<1, true>);
  FMA_CURVE(f, 2, k_fma<2, true>);
  FMA_CURVE(f, 3, k_fma<3, true>);
  FMA_CURVE(f, 4, k_fma<4, true>);
  FMA_CURVE(f, 6, k_fma<6, true>);
  FMA_CURVE(f, 8, k_fma<8, true>);
#undef FMA_ARGS
  fclose(f);
  f = open_csv(g_out, "fma_uniform.csv", hdr);
#define FMA_ARGS h.x, h.y
  FMA_CURVE(f, 1, k_fma_u<1>);
  FMA_CURVE(f, 2, k_fma_u<2>);
  FMA_CURVE(f, 3, k_fma_u<3>);
#undef FMA_ARGS
  fclose(f);
  CK(cudaFree(mc));
}

template <int ILP> static void sfu_curve(FILE *f) {
  const int iters = 8192 / (16 * ILP);
  for (int b = 1; b <= 16; b++) {
    size_t smem = smem_for_blocks(k_sfu<ILP>, 128, b);
    Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) { k_sfu<ILP><<<g, 128, sm>>>(d_out, d_rec, iters); }, d_rec);
    fprintf(f, "%d,%d,%d,%.0f,%.4f,%.0f,%.0f\n", ILP, b, 4 * b, s.cycles,
            4.0 * b * iters * 16 * ILP / s.cycles, s.lo, s.hi);
  }
}

static void exp_sfu() {
  FILE *f = open_csv(g_out, "sfu.csv", "ilp,blocks_per_sm,warps_per_sm,cycles,warp_mufu_per_cycle_per_sm,cycles_min,cycles_max");
  sfu_curve<2>(f);
  sfu_curve<4>(f);
  sfu_curve<8>(f);
  fclose(f);
}

static void exp_lds() {
  FILE *f = open_csv(g_out, "lds.csv", "ilp,stride,blocks_per_sm,warps_per_sm,cycles,warp_lds_per_cycle_per_sm,cycles_min,cycles_max");
  const int strides[] = {1, 2, 32};
  for (int stride : strides) {
    const int iters = 64;
    for (int b = 1; b <= 16; b++) {
      size_t smem = smem_for_blocks(k_lds<4>, 128, b);
      Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) { k_lds<4><<<g, 128, sm>>>(d_out, d_rec, iters, stride); }, d_rec);
      fprintf(f, "4,%d,%d,%d,%.0f,%.4f,%.0f,%.0f\n", stride, b, 4 * b, s.cycles,
              4.0 * b * iters * 8 * 4 / s.cycles, s.lo, s.hi);
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
    fprintf(f, "%s,%d,%d,%d,%.0f,%.5f,%.3f,%.1f,%.0f,%.0f\n", where, ILP, b, warps, s.cycles,
            loads / s.cycles, 128 * loads / s.cycles, s.cycles / iters, s.lo, s.hi);
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
  FILE *f = open_csv(g_out, "chase.csv", "where,ilp,blocks_per_sm,warps_per_sm,cycles,warp_loads_per_cycle_per_sm,bytes_per_cycle_per_sm,cycles_per_iter,cycles_min,cycles_max");
  const unsigned l2_lines = (16u << 20) / 128, dram_lines = (unsigned)((4ull << 30) / 128);
  unsigned *d = chase_array(l2_lines, 7);
  // Iterations per launch as in the shared set (cycles / cycles_per_iter of its rows).
  chase_curve<1>(f, "l2", d, l2_lines, 2048);
  chase_curve<2>(f, "l2", d, l2_lines, 1024);
  chase_curve<4>(f, "l2", d, l2_lines, 512);
  d = chase_array(dram_lines, 11);
  chase_curve<1>(f, "dram", d, dram_lines, 1024);
  chase_curve<2>(f, "dram", d, dram_lines, 512);
  chase_curve<4>(f, "dram", d, dram_lines, 256);
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

// Rows ilp = ILP of LOADS float4 loads in flight per thread.
template <int LOADS> static void stream_curve(FILE *f, int ilp, const float4 *a, size_t per_block) {
  const int iters = (int)(per_block / 128 / LOADS); // 1 MiB per CTA, as in the shared set
  for (int b = 1; b <= 16; b++) {
    size_t smem = smem_for_blocks(k_stream<LOADS>, 128, b);
    Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) { k_stream<LOADS><<<g, 128, sm>>>(a, per_block, d_out, d_rec, iters); }, d_rec);
    fprintf(f, "%d,%d,%d,%.0f,%.3f,%.0f,%.0f,%d\n", ilp, b, 4 * b, s.cycles,
            (double)b * iters * LOADS * 128 * 16 / s.cycles, s.lo, s.hi, LOADS);
  }
}

// stream.csv: the shared set's stream.csv rows ilp = N match 2N float4 loads
// in flight per thread (the first calibration run with exactly N: its N = 2
// reproduces the shared ilp = 1 curve within 3 %, N = 4 the ilp = 2 curve
// within 1 %), so row ilp = N keeps 2N in flight; stream_exact.csv: exactly N.
static void exp_stream() {
  const char *hdr = "ilp,blocks_per_sm,warps_per_sm,cycles,bytes_per_cycle_per_sm,cycles_min,cycles_max,loads_in_flight";
  const size_t per_block = 512 * 128; // float4 per CTA: 1 MiB
  float4 *a;
  CK(cudaMalloc(&a, per_block * 16 * 16 * g_sms));
  CK(cudaMemset(a, 0, per_block * 16 * 16 * g_sms));
  FILE *f = open_csv(g_out, "stream.csv", hdr);
  stream_curve<2>(f, 1, a, per_block);
  stream_curve<4>(f, 2, a, per_block);
  stream_curve<8>(f, 4, a, per_block);
  fclose(f);
  f = open_csv(g_out, "stream_exact.csv", hdr);
  stream_curve<1>(f, 1, a, per_block);
  stream_curve<2>(f, 2, a, per_block);
  stream_curve<4>(f, 4, a, per_block);
  fclose(f);
  CK(cudaFree(a));
}

template <typename V> static void l1_curve(FILE *f, const V *a) {
  const int iters = 2048, warps[] = {4, 8, 16, 32, 64}, bytes = (int)sizeof(V);
  int resident = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, k_l1<V>, 1024, 0));
  if (resident < 2) {
    fprintf(stderr, "two 1024-thread CTAs do not fit on one SM (%d)\n", resident);
    exit(1);
  }
  for (int w : warps) {
    int per_cta = w > 32 ? 32 : w, ctas = g_sms * (w / per_cta);
    Span s = run_wave(ctas, 0, [&](int g, size_t) { k_l1<V><<<g, 32 * per_cta>>>(a, d_out, (long long *)d_rec, iters); }, d_rec);
    double loads = (double)w * iters * 8;
    fprintf(f, "%d,%d,%.4f,%.2f,%.0f,%.0f,%.0f\n", bytes, w, loads / s.cycles,
            loads * 32 * bytes / s.cycles, s.cycles, s.lo, s.hi);
  }
}

static void exp_l1() {
  FILE *f = open_csv(g_out, "l1.csv", "bytes_per_thread,warps_per_sm,warp_loads_per_cycle_per_sm,bytes_per_cycle_per_sm,cycles,cycles_min,cycles_max");
  float *a;
  CK(cudaMalloc(&a, 4096 * 16));
  CK(cudaMemset(a, 0, 4096 * 16));
  l1_curve(f, a);
  l1_curve(f, (const float2 *)a);
  l1_curve(f, (const float4 *)a);
  CK(cudaFree(a));
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: bench device|latency|fma|sfu|lds|chase|stream|l1|inflight OUTDIR\n");
    return 2;
  }
  g_out = argv[2];
  harness_init("bench");
  CK(cudaMalloc(&d_cyc, 64));
  CK(cudaMalloc(&d_claim, sizeof(unsigned)));
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
