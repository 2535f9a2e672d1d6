// mb.cu - microbenchmarks that isolate numbers models/h200.ini used to
// assume: the dependent latency of MUFU.EX2, and the L1-hit throughput of
// coalesced loads of 4 B per thread (one 128 B line per warp-load) and of 16 B
// per thread (512 B per warp-load), 4 to 64 resident warps per SM.
// The kernels and the harness are calibrate/common.cuh's (k_mufu1, k_l1<float>,
// k_l1<float4>, run_wave), shared with scripts/calibrate.sh's benchmarks.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o mb mb.cu
// Run:   ./mb > microbench.csv      (prints what,warps_per_sm,value,unit rows)
#include "../../../../calibrate/common.cuh"

int main() {
  harness_init("mb");
  float *out = d_out, *a;
  long long *cyc;
  Rec *rec = d_rec;
  CK(cudaMalloc(&a, 4096 * sizeof(float) * 4));
  CK(cudaMemset(a, 0, 4096 * sizeof(float) * 4));
  CK(cudaMalloc(&cyc, sizeof(long long)));
  printf("what,warps_per_sm,value,unit\n");

  // MUFU.EX2 dependent latency: one warp alone on the GPU, second of two launches.
  const int n = 4096;
  Stat mufu = single_warp([&] { k_mufu1<<<1, 32>>>(out, cyc, n); }, cyc, n * 16.0, 1);
  printf("mufu_ex2_dependent,1,%.2f,cycles per op\n", mufu.med);

  // L1-hit throughput: CTAs of up to 32 warps, 1 or 2 per SM (4..64 warps per
  // SM; two 1024-thread CTAs co-reside: __launch_bounds__(1024, 2), checked).
  const int iters = 2048;
  const int warps[] = {4, 8, 16, 32, 64};
  int resident = 0, resident_v4 = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, k_l1<float>, 1024, 0));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident_v4, k_l1<float4>, 1024, 0));
  if (resident < 2 || resident_v4 < 2) {
    fprintf(stderr, "two 1024-thread CTAs do not fit on one SM (%d, %d)\n", resident, resident_v4);
    return 1;
  }
  for (int v = 0; v < 2; v++) {
    for (int w : warps) {
      int per_cta = w > 32 ? 32 : w, ctas = g_sms * (w / per_cta);
      // Per SM: last CTA end minus first CTA start, mean over SMs; the second
      // of two launches (run_wave with one launch after the warm-up).
      Span s = run_wave(ctas, 0, [&](int g, size_t) {
        if (v == 0)
          k_l1<float><<<g, 32 * per_cta>>>(a, out, (long long *)rec, iters);
        else
          k_l1<float4><<<g, 32 * per_cta>>>((const float4 *)a, out, (long long *)rec, iters);
      }, rec, 1);
      double loads = (double)w * iters * 8, bytes = loads * (v == 0 ? 128 : 512);
      const char *what = v == 0 ? "l1_hit_4B" : "l1_hit_16B";
      printf("%s_warp_loads_per_cycle,%d,%.4f,warp-loads per cycle per SM\n", what, w, loads / s.cycles);
      printf("%s_bytes_per_cycle,%d,%.2f,bytes per cycle per SM\n", what, w, bytes / s.cycles);
    }
  }
  CK(cudaFree(a));
  CK(cudaFree(cyc));
  return 0;
}
