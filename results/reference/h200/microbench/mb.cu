// mb.cu - microbenchmarks that isolate numbers models/h200.ini used to
// assume: the dependent latency of MUFU.EX2, and the L1-hit throughput of
// coalesced loads of 4 B per thread (one 128 B line per warp-load) and of 16 B
// per thread (512 B per warp-load), 4 to 64 resident warps per SM.
// Build: nvcc -O3 -gencode=arch=compute_90,code=sm_90 -o mb mb.cu
// Run:   ./mb > microbench.csv      (prints what,warps_per_sm,value,unit rows)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t e_ = (call);                                                             \
    if (e_ != cudaSuccess) {                                                             \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

// One warp: a chain of MUFU.EX2 (x = 2^-x converges, so it stays finite).
__global__ void k_mufu(float *out, long long *cycles, int n) {
  float x = 0.5f + threadIdx.x * 1e-3f;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < n; i++) {
#pragma unroll
    for (int j = 0; j < 16; j++)
      asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(x) : "f"(-x));
  }
  long long t1 = clock64();
  out[threadIdx.x] = x;
  if (threadIdx.x == 0)
    cycles[0] = t1 - t0;
}

// End of an L1 kernel: wait for the CTA, keep the sums alive, and record the
// CTA's start, end and SM (clock64 is per SM: compare only within an SM).
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

// Every warp issues `iters` x 8 independent L1-hit loads (ld.global.ca, one
// 128 B line per warp-load, a 16 KiB array that stays in L1), summed.
__global__ void __launch_bounds__(1024, 2) k_l1(const float *__restrict__ a, float *out, long long *cycles, int iters) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  unsigned base = (warp * 8 * 32 + lane) & 4095;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 8; j++) {
      float v;
      unsigned idx = (base + (j + i * 8) * 32) & 4095;
      asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(a + idx));
      s[j] += v;
    }
  }
  finish_block(s, t0, out, cycles);
}

// Same with float4 loads: 16 B per thread, one 512 B warp-load (4 lines).
__global__ void __launch_bounds__(1024, 2) k_l1_v4(const float4 *__restrict__ a, float *out, long long *cycles, int iters) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  unsigned base = (warp * 8 * 32 + lane) & 1023;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 8; j++) {
      float4 v;
      unsigned idx = (base + (j + i * 8) * 32) & 1023;
      asm volatile("ld.global.ca.v4.f32 {%0,%1,%2,%3}, [%4];"
                   : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                   : "l"(a + idx));
      s[j] += v.x + v.y + v.z + v.w;
    }
  }
  finish_block(s, t0, out, cycles);
}

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  float *out, *a;
  long long *cyc;
  CHECK(cudaMalloc(&out, 1 << 24));
  CHECK(cudaMalloc(&a, 4096 * sizeof(float) * 4));
  CHECK(cudaMemset(a, 0, 4096 * sizeof(float) * 4));
  CHECK(cudaMalloc(&cyc, 3 * 4096 * sizeof(long long)));
  static long long host[3 * 4096];
  printf("what,warps_per_sm,value,unit\n");

  // MUFU.EX2 dependent latency: one warp alone on the GPU.
  const int n = 4096;
  for (int rep = 0; rep < 2; rep++) { // the first launch warms up
    k_mufu<<<1, 32>>>(out, cyc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  CHECK(cudaMemcpy(host, cyc, sizeof(long long), cudaMemcpyDeviceToHost));
  printf("mufu_ex2_dependent,1,%.2f,cycles per op\n", (double)host[0] / (n * 16.0));

  // L1-hit throughput: CTAs of up to 32 warps, 1 or 2 per SM (4..64 warps per SM).
  const int iters = 2048;
  const int warps[] = {4, 8, 16, 32, 64};
  int resident = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, k_l1, 1024, 0));
  int resident_v4 = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident_v4, k_l1_v4, 1024, 0));
  if (resident < 2 || resident_v4 < 2) {
    fprintf(stderr, "two 1024-thread CTAs do not fit on one SM (%d, %d)\n", resident, resident_v4);
    return 1;
  }
  for (int v = 0; v < 2; v++) {
    for (int wi = 0; wi < 5; wi++) {
      int w = warps[wi], per_cta = w > 32 ? 32 : w, ctas = sms * (w / per_cta);
      for (int rep = 0; rep < 2; rep++) {
        if (v == 0)
          k_l1<<<ctas, 32 * per_cta>>>(a, out, cyc, iters);
        else
          k_l1_v4<<<ctas, 32 * per_cta>>>((const float4 *)a, out, cyc, iters);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
      }
      CHECK(cudaMemcpy(host, cyc, 3 * ctas * sizeof(long long), cudaMemcpyDeviceToHost));
      // Per SM: last end minus first start over the SM's CTAs (two 1024-thread
      // CTAs co-reside: __launch_bounds__(1024, 2), checked above); mean over SMs.
      long long first[1024], last[1024];
      for (int m = 0; m < 1024; m++) {
        first[m] = -1;
        last[m] = 0;
      }
      for (int b = 0; b < ctas; b++) {
        int m = (int)host[3 * b + 2];
        if (first[m] < 0 || host[3 * b] < first[m])
          first[m] = host[3 * b];
        if (host[3 * b + 1] > last[m])
          last[m] = host[3 * b + 1];
      }
      double mean = 0;
      int used = 0;
      for (int m = 0; m < 1024; m++)
        if (first[m] >= 0) {
          mean += (double)(last[m] - first[m]);
          used++;
        }
      mean /= used;
      double loads = (double)w * iters * 8, bytes = loads * (v == 0 ? 128 : 512);
      printf("%s_warp_loads_per_cycle,%d,%.4f,warp-loads per cycle per SM\n",
             v == 0 ? "l1_hit_4B" : "l1_hit_16B", w, loads / mean);
      printf("%s_bytes_per_cycle,%d,%.2f,bytes per cycle per SM\n", v == 0 ? "l1_hit_4B" : "l1_hit_16B",
             w, bytes / mean);
    }
  }
  CHECK(cudaFree(out));
  CHECK(cudaFree(a));
  CHECK(cudaFree(cyc));
  return 0;
}
