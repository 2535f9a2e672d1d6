// common.cuh - the measurement harness shared by the calibration benchmarks
// (calibrate/bench.cu, calibrate/spill.cu): checked CUDA calls, per-CTA
// clock64() stamps, the per-SM busy span, and occupancy pinned by padding
// each CTA with dynamic shared memory (Volkov's method; the same method as
// results/reference/h200/README.md).
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

// Per-SM busy span (last CTA end minus first CTA start on that SM), mean over
// SMs, and the fewest and most CTAs any SM ran.
struct Span {
  double cycles;
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
  return {n ? sum / n : 0.0, n ? mn : 0, mx};
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

// Launch `launch(grid, smem)` once to warm up, then `reps` times; returns the
// median span.  `rec` must hold `grid` records.
template <typename L> static Span run_wave(int grid, size_t smem, L launch, Rec *rec, int reps = 3) {
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
  return v[v.size() / 2];
}

static FILE *open_csv(const char *dir, const char *name, const char *header) {
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
