// wstep.cu - where the step of a 32-bit store stream falls (wstream.cu's cta_run layout: the
// 4 warps of a CTA interleave its lines): K = 1, 2, 4, 8, 16 STG per loop iteration, each
// iteration followed by P = 0 or 8 dependent FFMAs (a warp's iteration 8 x 4 cycles longer).
// Harness of wstream.cu (calibrate/common.cuh): 128-thread CTAs, one wave of B x 132, B = 1..16
// pinned by dynamic shared-memory padding, per-SM busy span (clock64), median of 3 launches
// after a warm-up, 1 MiB per CTA, no L2 flush.  Usage: wstep OUTDIR -> OUTDIR/wstep.csv
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o wstep wstep.cu
#include "../../../../calibrate/common.cuh"

template <int K, int P>
__global__ void k_step(char *__restrict__ a, size_t cta_bytes, int iters, float *out, Rec *rec) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float x = threadIdx.x * 1e-3f, m = 1.0f, c = 0.0f;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int k = 0; k < K; k++) {
      size_t j = (size_t)i * K + k;
      char *p = a + blockIdx.x * cta_bytes + (j * 4 + warp) * 128 + (size_t)lane * 4;
      asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(x));
    }
#pragma unroll
    for (int q = 0; q < P; q++)
      asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(m), "f"(c));
  }
  rec_end(rec, t0);
  if (x == -1.0f) // never: keeps x live
    out[blockIdx.x] = x;
}

static char *d_buf;
static FILE *g_f;

template <int K, int P> static void curve() {
  auto kern = k_step<K, P>;
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kern));
  const size_t cta_bytes = (size_t)1 << 20;
  const int iters = (int)(cta_bytes / 512 / K);
  for (int b = 1; b <= 16; b++) {
    size_t smem = smem_for_blocks(kern, 128, b);
    Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) {
      kern<<<g, 128, sm>>>(d_buf, cta_bytes, iters, d_out, d_rec);
    }, d_rec, 3);
    fprintf(g_f, "%d,%d,%d,%d,%d,%d,%.0f,%.4f,%.0f,%.0f,%d,%d\n", K, P, attr.numRegs, b, 4 * b, iters, s.cycles,
            (double)b * cta_bytes / s.cycles, s.lo, s.hi, s.blocks_min, s.blocks_max);
    fflush(g_f);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: wstep OUTDIR\n");
    return 2;
  }
  harness_init("wstep");
  CK(cudaMalloc(&d_buf, (size_t)2112 << 20));
  CK(cudaMemset(d_buf, 0, (size_t)2112 << 20));
  CK(cudaDeviceSynchronize());
  g_f = open_csv(argv[1], "wstep.csv",
                 "stg_per_iteration,ffma_per_iteration,regs,blocks_per_sm,resident_warps,iters,cycles,"
                 "bytes_per_cycle_per_sm,cycles_min,cycles_max,blocks_min,blocks_max");
  curve<1, 0>(); curve<2, 0>(); curve<4, 0>(); curve<8, 0>(); curve<16, 0>();
  curve<1, 8>(); curve<2, 8>(); curve<4, 8>(); curve<8, 8>(); curve<16, 8>();
  fclose(g_f);
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
