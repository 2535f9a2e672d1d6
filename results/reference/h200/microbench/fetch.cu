// fetch.cu - L2 fetch granularity on the H200: read one 32 B sector per 128 B
// line (stride 128 B) and two adjacent sectors per line, from 512 MiB (cold in
// L2); compare ncu dram__bytes_read.sum with the sectors requested.
// Build: nvcc -O2 -gencode=arch=compute_90,code=sm_90 -o fetch fetch.cu.  Helper "stencil", warpsim issue 8.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
// Thread t reads 4 B at byte offset 128 * (t / per_line) + 4 * (t % per_line) * 8:
// per_line = 1: one sector per line; per_line = 2: sectors 0 and 1 of each line.
__global__ void k(const float *buf, size_t lines, int per_line, float *out) {
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t line = t / per_line, sec = t % per_line;
  if (line >= lines) return;
  float v = __ldcg(buf + line * 32 + sec * 8);
  if (v == 1234.5f) out[0] = v;
}
int main() {
  size_t bytes = (size_t)512 << 20, lines = bytes / 128;
  float *buf, *out;
  CK(cudaMalloc(&buf, bytes)); CK(cudaMalloc(&out, 4)); CK(cudaMemset(buf, 0, bytes));
  size_t lim = 0; CK(cudaDeviceGetLimit(&lim, cudaLimitMaxL2FetchGranularity));
  printf("cudaLimitMaxL2FetchGranularity,%zu\n", lim);
  for (int per_line = 1; per_line <= 2; ++per_line) {
    size_t threads = lines * per_line;
    k<<<(unsigned)((threads + 255) / 256), 256>>>(buf, lines, per_line, out);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    printf("per_line,%d,sectors_requested,%zu,bytes_requested,%zu\n", per_line, lines * per_line, lines * per_line * 32);
  }
  return 0;
}
