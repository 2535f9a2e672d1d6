// pipemix.cu - which SMSP pipe an opcode shares (issue 24 item 2): two kinds of
// independent chains interleaved in one loop, NA ops of kind A and NB of kind B per
// step, 4 chains of each per thread, 16 steps per iteration.  If A and B use different
// pipes the mix runs at the slower pipe's or the issue rate; if they share one, at the
// sum of their intervals.  Kinds: 0 IMAD (mad.lo.u32), 1 LOP3.LUT, 2 POPC,
// 3 I2FP.F32.S32 (cvt.rn.f32.s32), 4 FFMA, 5 MUFU.EX2 (ex2.approx.ftz.f32).
//
// Harness: calibrate/common.cuh, as results/reference/h200/matrix/matrix.cu: 128-thread
// CTAs, B = 1, 2, 4, 8, 16 CTAs per SM pinned by dynamic shared-memory padding (carveout
// at its maximum), one wave of B x 132 CTAs, per-SM busy span from clock64, median of 3
// launches after a warm-up.  Rate: warp instructions (A and B together) per cycle per SM.
//
// Usage: pipemix OUTDIR   (writes OUTDIR/pipemix.csv)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o pipemix pipemix.cu
#include "../../../../calibrate/common.cuh"

#include <string>

#define KEEP(val) out[blockIdx.x * blockDim.x + threadIdx.x] = (val)

template <int K> __device__ __forceinline__ void op(unsigned &x, float &y, unsigned m, unsigned c) {
  if (K == 0)
    asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(m), "r"(c));
  else if (K == 1)
    asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(x) : "r"(m), "r"(c));
  else if (K == 2)
    asm volatile("popc.b32 %0, %0;" : "+r"(x));
  else if (K == 3)
    asm volatile("cvt.rn.f32.s32 %0, %0;" : "+r"(x));
  else if (K == 4)
    asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(y) : "f"(__uint_as_float(m)), "f"(__uint_as_float(c)));
  else
    asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(y));
}

template <int A, int NA, int B, int NB>
__global__ void k_mix(float *out, Rec *rec, int iters, unsigned m, unsigned c) {
  unsigned xa[4], xb[4];
  float ya[4], yb[4];
#pragma unroll
  for (int k = 0; k < 4; k++) {
    xa[k] = threadIdx.x * 2654435761u + k;
    xb[k] = xa[k] ^ m;
    ya[k] = 1e-3f * (threadIdx.x + k);
    yb[k] = -ya[k];
  }
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
      for (int k = 0; k < 4; k++) {
#pragma unroll
        for (int a = 0; a < NA; a++)
          op<A>(xa[k], ya[k], m, c);
#pragma unroll
        for (int b = 0; b < NB; b++)
          op<B>(xb[k], yb[k], m, c);
      }
  rec_end(rec, t0);
  unsigned s = 0;
  float t = 0;
#pragma unroll
  for (int k = 0; k < 4; k++) {
    s ^= xa[k] ^ xb[k];
    t += ya[k] + yb[k];
  }
  KEEP((float)s + t);
}

static const char *kKind[] = {"imad", "lop3", "popc", "i2f", "ffma", "ex2"};

template <int A, int NA, int B, int NB> static void mix_curve(FILE *f) {
  auto kernel = k_mix<A, NA, B, NB>;
  const int iters = 256;
  const double work = 4.0 * iters * 16 * 4 * (NA + NB); // warp instructions per CTA
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  for (int b : {1, 2, 4, 8, 16}) {
    size_t smem = smem_for_blocks(kernel, 128, b);
    Span s = run_wave(b * g_sms, smem, [&](int g, size_t sm) {
      kernel<<<g, 128, sm>>>(d_out, d_rec, iters, 0x9e3779b9u, 7u);
    }, d_rec, 3);
    fprintf(f, "%s,%d,%s,%d,%d,%d,%d,%.0f,%.5g,%.0f,%.0f,%d,%d\n", kKind[A], NA, NB ? kKind[B] : "none", NB,
            attr.numRegs, b, 4 * b, s.cycles, b * work / s.cycles, s.lo, s.hi, s.blocks_min, s.blocks_max);
  }
  fflush(f);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: pipemix OUTDIR\n");
    return 2;
  }
  harness_init("pipemix");
  FILE *f = open_csv(argv[1], "pipemix.csv",
                     "kind_a,per_step_a,kind_b,per_step_b,regs,blocks_per_sm,resident_warps,cycles,"
                     "warp_instr_per_cycle_per_sm,cycles_min,cycles_max,blocks_min,blocks_max");
  mix_curve<0, 1, 0, 0>(f); // IMAD alone
  mix_curve<4, 1, 4, 0>(f); // FFMA alone
  mix_curve<0, 1, 4, 1>(f); // IMAD : FFMA 1:1
  mix_curve<0, 1, 4, 2>(f); // 1:2
  mix_curve<0, 1, 4, 3>(f); // 1:3
  mix_curve<0, 2, 4, 1>(f); // 2:1
  mix_curve<0, 1, 1, 1>(f); // IMAD : LOP3
  mix_curve<1, 1, 4, 1>(f); // LOP3 : FFMA
  mix_curve<2, 1, 2, 0>(f); // POPC alone
  mix_curve<5, 1, 5, 0>(f); // MUFU.EX2 alone
  mix_curve<2, 1, 5, 1>(f); // POPC : MUFU
  mix_curve<2, 1, 1, 1>(f); // POPC : LOP3
  mix_curve<2, 1, 4, 1>(f); // POPC : FFMA
  mix_curve<3, 1, 3, 0>(f); // I2FP alone
  mix_curve<3, 1, 1, 1>(f); // I2FP : LOP3
  mix_curve<3, 1, 4, 1>(f); // I2FP : FFMA
  mix_curve<3, 1, 5, 1>(f); // I2FP : MUFU
  fclose(f);
  printf("pipemix done\n");
  return 0;
}
