// l2cap.cu - effective L2 capacity for per-block private re-reads on the H200.
// Each of 132 x 8 blocks streams its own contiguous chunk of a buffer of S bytes
// P times with __ldcg (L2 only, float4, sum kept live); re-read bandwidth =
// 4 x S / (t(5) - t(1)), best of 5 launches each, the 128 MiB buffer rewritten
// (cudaMemset) before every launch.  CSV columns: mib (S in MiB), passes (5),
// ms (best 5-pass time), reread_gbs (GB/s).  Build and run:
//   nvcc -O2 -gencode=arch=compute_90,code=sm_90 -o l2cap l2cap.cu && ./l2cap > l2cap.csv
// Measured 2026-11-30 by helper "stencil" (warpsim issue 8).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void k(const float4 *buf, size_t per_block, int passes, float *out) {
  const float4 *p = buf + (size_t)blockIdx.x * per_block;
  float s = 0;
  for (int r = 0; r < passes; ++r)
    for (size_t i = threadIdx.x; i < per_block; i += blockDim.x) { float4 v = __ldcg(p + i); /* L2 only */ s += v.x + v.y + v.z + v.w; }
  if (s == 1234.5f) out[0] = s;
}
int main() {
  const int blocks = 132 * 8, threads = 256;
  size_t maxb = (size_t)128 << 20;
  float4 *buf; float *out;
  CK(cudaMalloc(&buf, maxb)); CK(cudaMalloc(&out, 4)); CK(cudaMemset(buf, 0, maxb));
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  printf("mib,passes,ms,reread_gbs\n");
  for (int mib = 4; mib <= 96; mib += 2) {
    size_t per_block = ((size_t)mib << 20) / 16 / blocks;
    float t[2];
    int ps[2] = {1, 5};
    for (int j = 0; j < 2; ++j) {
      float best = 1e30f;
      for (int rep = 0; rep < 5; ++rep) {
        CK(cudaMemset(buf, 0, maxb)); // evict: touch 128 MiB
        CK(cudaEventRecord(a));
        k<<<blocks, threads>>>(buf, per_block, ps[j], out);
        CK(cudaGetLastError());
        CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b)); if (ms < best) best = ms;
      }
      t[j] = best;
    }
    double bytes = 4.0 * 16.0 * per_block * blocks; /* 4 re-read passes of S bytes */
    printf("%d,5,%.4f,%.1f\n", mib, t[1], bytes / ((t[1] - t[0]) * 1e-3) / 1e9);
  }
  return 0;
}
