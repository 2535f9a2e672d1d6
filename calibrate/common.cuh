// common.cuh - the measurement harness and the kernels shared by the calibration
// benchmarks (calibrate/bench.cu, calibrate/spill.cu) and the microbenchmarks
// of results/reference/h200/microbench/mb.cu: checked CUDA calls, per-CTA
// clock64() stamps, the per-SM busy span, occupancy pinned by padding each CTA
// with dynamic shared memory (Volkov's method; the same method as
// results/reference/h200/README.md), the median of several launches with their
// spread, and the FFMA, MUFU.EX2 and L1-hit kernels more than one program runs.
//
// Every throughput is per SM per SM-clock cycle: clock64() counts the cycles
// of the SM a CTA runs on, so no clock-rate assumption enters.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CK(call)                                                                                  \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));      \
      exit(1);                                                                                    \
    }                                                                                             \
  } while (0)

// One CTA's start and end (clock64 of its SM, after a __syncthreads) and its SM.
struct Rec {
  unsigned long long t0, t1;
  unsigned sm, pad;
};

__device__ __forceinline__ unsigned smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned long long rec_begin() {
  __syncthreads();
  return clock64();
}
__device__ __forceinline__ void rec_end(Rec *rec, unsigned long long t0) {
  __syncthreads();
  unsigned long long t1 = clock64();
  if (threadIdx.x == 0) {
    Rec r;
    r.t0 = t0;
    r.t1 = t1;
    r.sm = smid();
    r.pad = 0;
    rec[blockIdx.x] = r;
  }
}

// ------------------------------------------------------------------ shared kernels
// N independent FFMA chains, one step each: a[k] = a[k] * m + c.
template <int N> __device__ __forceinline__ void fma_step(float (&a)[N], float m, float c) {
#pragma unroll
  for (int k = 0; k < N; k++)
    a[k] = fmaf(a[k], m, c);
}

// One warp: a chain of MUFU.EX2 (x = 2^-x converges, so it stays finite),
// iters x 16 operations; cycles[0] = the warp's clock64 span.
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

// End of an L1 kernel (results/reference/h200/microbench/mb.cu's code, kept
// as it was: its machine code sets the measured rate, and a variant that
// stored the stamps before the sums ran 3 % faster on 4 B loads, 11 % on
// 16 B): wait for the CTA, keep the sums alive, and record the CTA's start,
// end and SM in the layout of Rec (three 8-byte words per CTA).
static_assert(sizeof(Rec) == 3 * sizeof(long long), "finish_block writes Rec as three words");
__device__ void finish_block(const float *s, long long t0, float *out, long long *cycles) {
  __syncthreads();
  long long t1 = clock64();
  float t = 0;
  for (int j = 0; j < 8; j++)
    t += s[j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = t;
  if (threadIdx.x == 0) {
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    cycles[3 * blockIdx.x] = t0;
    cycles[3 * blockIdx.x + 1] = t1;
    cycles[3 * blockIdx.x + 2] = smid;
  }
}

// L1-hit loads (ld.global.ca) of V = float, float2 or float4 per thread (4, 8,
// 16 B; one 128 B line per warp-load for float), 8 independent per warp per
// iteration, from a 16 KiB array that stays in L1, summed.  CTAs of up to
// 1024 threads, two per SM (__launch_bounds__; check with the occupancy API).
// `cycles` holds one Rec per CTA.
template <typename V>
__global__ void __launch_bounds__(1024, 2) k_l1(const V *__restrict__ a, float *out, long long *cycles, int iters) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned mask = 4096 / (sizeof(V) / 4) - 1;
  float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  unsigned base = (warp * 8 * 32 + lane) & mask;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 8; j++) {
      unsigned idx = (base + (j + i * 8) * 32) & mask;
      if (sizeof(V) == 4) {
        float v;
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(a + idx));
        s[j] += v;
      } else if (sizeof(V) == 8) {
        float2 v;
        asm volatile("ld.global.ca.v2.f32 {%0,%1}, [%2];" : "=f"(v.x), "=f"(v.y) : "l"(a + idx));
        s[j] += v.x + v.y;
      } else {
        float4 v;
        asm volatile("ld.global.ca.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(a + idx));
        s[j] += v.x + v.y + v.z + v.w;
      }
    }
  }
  finish_block(s, t0, out, cycles);
}

// Reads n float4 of clean lines (zeros): with 256 MiB no line of an earlier launch stays in
// the 60 MiB L2 and no dirty line is left to be written back during the next launch.
__global__ void k_flush(const float4 *__restrict__ f, size_t n, float *sink) {
  float s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    s += f[i].x;
  if (s == -1.0f) // never: the buffer holds zeros
    sink[0] = s;
}

// ------------------------------------------------------------------ host
// Per-SM busy span (last CTA end minus first CTA start on that SM), mean over
// SMs, and the fewest and most CTAs any SM ran; with run_wave, `cycles` is the
// median over launches and lo/hi the fastest and slowest launch.
struct Span {
  double cycles, lo, hi;
  int blocks_min, blocks_max;
};
static inline Span spans(const std::vector<Rec> &r) {
  std::vector<unsigned long long> lo(1024, ~0ull), hi(1024, 0);
  std::vector<int> cnt(1024, 0);
  for (const Rec &x : r) {
    unsigned s = x.sm & 1023;
    lo[s] = std::min(lo[s], x.t0);
    hi[s] = std::max(hi[s], x.t1);
    cnt[s]++;
  }
  double sum = 0;
  int n = 0, mn = 1 << 30, mx = 0;
  for (int s = 0; s < 1024; s++)
    if (cnt[s]) {
      sum += (double)(hi[s] - lo[s]);
      n++;
      mn = std::min(mn, cnt[s]);
      mx = std::max(mx, cnt[s]);
    }
  double c = n ? sum / n : 0.0;
  return {c, c, c, n ? mn : 0, mx};
}

// The median of v (sorted in place), with its smallest and largest value.
struct Stat {
  double med, lo, hi;
};
static inline Stat stat_of(std::vector<double> &v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

// Dynamic shared memory per CTA such that exactly `want` CTAs of `threads`
// threads fit on one SM (carveout at its maximum); exits when impossible.
template <typename K> static size_t smem_for_blocks(K kernel, int threads, int want) {
  int optin = 0;
  CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  int per_sm = 0;
  CK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  optin -= (int)attr.sharedSizeBytes; // the static part counts against the opt-in maximum
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  size_t smem = std::min<size_t>(optin, per_sm / want);
  for (;;) {
    int b = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, threads, smem));
    if (b >= want) {
      if (b != want) {
        fprintf(stderr, "cannot pin %d CTAs per SM (got %d)\n", want, b);
        exit(1);
      }
      return smem;
    }
    if (smem < 128) {
      fprintf(stderr, "cannot pin %d CTAs per SM at any shared-memory size\n", want);
      exit(1);
    }
    smem -= 128;
  }
}

static int g_sms = 0;
// The buffers every benchmark writes: kept results (64 MiB) and one Rec per
// CTA (up to 64 Ki CTAs).
static float *d_out;
static Rec *d_rec;

// Sets g_sms and the buffers; without a CUDA device, "PROG: no CUDA device"
// and exit status 2.
static void harness_init(const char *prog) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    fprintf(stderr, "%s: no CUDA device\n", prog);
    exit(2);
  }
  CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaMalloc(&d_out, 64 << 20));
  CK(cudaMalloc(&d_rec, 64 * 1024 * sizeof(Rec)));
}

// Launches per measurement after the warm-up launch: the median is reported,
// the fastest and slowest beside it (the run-to-run spread of the point).
static const int kLaunches = 11;

// Launch `launch(grid, smem)` once to warm up, then `reps` times; returns the
// median span with the fastest and slowest launch.  `rec` must hold `grid`
// records.
template <typename L>
static Span run_wave(int grid, size_t smem, L launch, Rec *rec, int reps = kLaunches) {
  std::vector<Rec> h(grid);
  std::vector<Span> v;
  launch(grid, smem);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  for (int r = 0; r < reps; r++) {
    launch(grid, smem);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), rec, grid * sizeof(Rec), cudaMemcpyDeviceToHost));
    v.push_back(spans(h));
  }
  std::sort(v.begin(), v.end(), [](const Span &a, const Span &b) { return a.cycles < b.cycles; });
  Span s = v[v.size() / 2];
  s.lo = v.front().cycles;
  s.hi = v.back().cycles;
  return s;
}

// One warp alone: `launch()` once to warm up, then `reps` times, each leaving
// its cycle count in *d_cycles; cycles per operation (median, fastest, slowest).
template <typename L>
static Stat single_warp(L launch, const long long *d_cycles, double ops, int reps = kLaunches) {
  std::vector<double> v;
  for (int r = 0; r <= reps; r++) {
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    long long c = 0;
    CK(cudaMemcpy(&c, d_cycles, sizeof c, cudaMemcpyDeviceToHost));
    if (r > 0)
      v.push_back((double)c / ops);
  }
  return stat_of(v);
}

// Flushes the L2 (k_flush over a 256 MiB buffer of zeros, allocated on first use); the
// next launch on the stream starts after it.
static inline void flush_l2() {
  static float4 *buf = nullptr;
  const size_t bytes = (size_t)256 << 20;
  if (!buf) {
    CK(cudaMalloc(&buf, bytes));
    CK(cudaMemset(buf, 0, bytes));
  }
  k_flush<<<1056, 256>>>(buf, bytes / 16, (float *)buf);
}

static inline FILE *open_csv(const char *dir, const char *name, const char *header) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  fprintf(f, "%s\n", header);
  return f;
}
