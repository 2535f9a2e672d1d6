// alu2.cu - the timings models/h200.ini still assumed in December 2026, each measured
// on its own: IDP (dp4a, dp2a) and IMUL-class integer multiplies and which pipe they
// share, DADD and DMUL beside DFMA, and the tensor-core forms other than HMMA.16816
// (IMMA.16832 int8, HMMA.1688 f16, HMMA.16816 bf16, HMMA.1688 tf32, DMMA.884 f64).
//
// Harness: calibrate/common.cuh and the curve() of ../matrix/matrix.cu (copied here,
// same output layout): occupancy pinned by dynamic shared-memory padding, one wave of
// B x 132 CTAs of 128 threads, per-SM busy span from clock64 stamps after a
// __syncthreads, median of 3 launches after a warm-up.  Every CTA does the same work at
// every B: a rate per SM cycle is B x work_per_cta / cycles.
//
// Usage: alu2 FAMILY[,FAMILY...]|all OUTDIR     families: int fp64 mma probe
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o alu2 alu2.cu
#include "../../../../calibrate/common.cuh"
#include "../../../../calibrate/gload.cuh" // KEEP, fmt, each, V

#include <cuda_fp16.h>

#include <cstdarg>
#include <string>

// ================================================================== integer
// ILP independent dependent chains, 16 x ILP operations per iteration (OP < 8) or
// 16 x ILP pairs (OP >= 8: two chains, the second of another op), each one PTX
// instruction in inline asm.
//   0 dp4a.s32.s32 (IDP.4A.S8.S8)   1 dp2a.lo.s32.s32 (IDP.2A.LO.S16.S8)
//   2 mul.lo.u32 (IMAD)             3 mul.wide.u32 (IMAD.WIDE.U32)
//   4 sad.u32 (VABSDIFF / IADD3)    5 mad.hi.u32 (IMAD.HI)
//   8 dp4a + fma.rn.f32 pairs       9 dp4a + mad.lo.u32 pairs   10 dp4a + lop3 pairs
template <int OP> __device__ __forceinline__ void iop(unsigned &x, unsigned long long &w, unsigned m, unsigned c) {
  if (OP == 0)
    asm volatile("dp4a.s32.s32 %0, %0, %1, %2;" : "+r"(x) : "r"(m), "r"(c));
  else if (OP == 1)
    asm volatile("dp2a.lo.s32.s32 %0, %0, %1, %2;" : "+r"(x) : "r"(m), "r"(c));
  else if (OP == 2)
    asm volatile("mul.lo.u32 %0, %0, %1;" : "+r"(x) : "r"(m));
  else if (OP == 3)
    asm volatile("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"((unsigned)(w >> 7)), "r"(m));
  else if (OP == 4)
    asm volatile("sad.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(m), "r"(c));
  else if (OP == 5)
    asm volatile("mad.hi.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(m), "r"(c));
}
template <int OP, int ILP> __global__ void k_int(float *out, Rec *rec, int iters, unsigned m, unsigned c) {
  unsigned a[ILP], b[ILP];
  float f[ILP];
  unsigned long long w[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++) {
    a[k] = threadIdx.x * 2654435761u + k;
    b[k] = a[k] ^ m;
    f[k] = 1e-3f * threadIdx.x + k;
    w[k] = a[k];
  }
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
      for (int k = 0; k < ILP; k++) {
        if (OP < 8) {
          iop<OP>(a[k], w[k], m, c);
        } else {
          iop<0>(a[k], w[k], m, c);
          if (OP == 8)
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f[k]) : "f"(0.999f), "f"(1e-3f));
          else if (OP == 9)
            asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(b[k]) : "r"(m), "r"(c));
          else
            asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(b[k]) : "r"(m), "r"(c));
        }
      }
  rec_end(rec, t0);
  unsigned s = 0;
  float t = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++) {
    s ^= a[k] ^ b[k] ^ (unsigned)(w[k] >> 32) ^ (unsigned)w[k];
    t += f[k];
  }
  KEEP((float)s + t);
}

// ================================================================== FP64
// 0 add.rn.f64 (DADD), 1 mul.rn.f64 (DMUL), 2 fma.rn.f64 (DFMA, as ../matrix/dfma.csv).
template <int OP, int ILP> __global__ void k_fp64(float *out, Rec *rec, int iters, double m, double c) {
  double a[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++)
    a[k] = threadIdx.x * 1e-3 + k;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
      for (int k = 0; k < ILP; k++) {
        if (OP == 0)
          asm volatile("add.rn.f64 %0, %0, %1;" : "+d"(a[k]) : "d"(c));
        else if (OP == 1)
          asm volatile("mul.rn.f64 %0, %0, %1;" : "+d"(a[k]) : "d"(m));
        else
          asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(a[k]) : "d"(m), "d"(c));
      }
  rec_end(rec, t0);
  double s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s += a[k];
  KEEP((float)s);
}

// ================================================================== tensor cores
// C independent accumulators, each a dependent chain of mma.sync with fixed operands,
// 8 x C products per iteration.  FORM:
//   0 m16n8k32 s8 x s8 + s32 (IMMA.16832.S8.S8)   1 m16n8k8 f16 x f16 + f32 (HMMA.1688.F32)
//   2 m16n8k16 bf16 x bf16 + f32 (HMMA.16816.F32.BF16)
//   3 m16n8k8 tf32 x tf32 + f32 (HMMA.1688.F32.TF32)   4 m8n8k4 f64 (DMMA.884)
template <int C, int FORM> __global__ void k_mma(float *out, Rec *rec, int iters) {
  const int lane = threadIdx.x & 31;
  __half2 h = __floats2half2_rn(1e-3f * (lane + 1), -1e-3f * (lane + 2));
  unsigned a[4], b[2];
#pragma unroll
  for (int j = 0; j < 4; j++)
    a[j] = FORM == 0 ? 0x01010101u * (lane & 3) : FORM == 3 ? __float_as_uint(1e-3f * (lane + j)) : *(unsigned *)&h;
  b[0] = a[0];
  b[1] = a[1];
  float s = 0;
  if (FORM == 4) {
    double d[C][2], x = 1e-3 * lane, y = 0.999;
#pragma unroll
    for (int c = 0; c < C; c++)
      d[c][0] = d[c][1] = 0.01 * c;
    unsigned long long t0 = rec_begin();
#pragma unroll 1
    for (int i = 0; i < iters; i++)
#pragma unroll
      for (int u = 0; u < 8; u++)
#pragma unroll
        for (int c = 0; c < C; c++)
          asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                       : "+d"(d[c][0]), "+d"(d[c][1])
                       : "d"(x), "d"(y));
    rec_end(rec, t0);
#pragma unroll
    for (int c = 0; c < C; c++)
      s += (float)(d[c][0] + d[c][1]);
  } else if (FORM == 0) {
    int d[C][4];
#pragma unroll
    for (int c = 0; c < C; c++)
#pragma unroll
      for (int j = 0; j < 4; j++)
        d[c][j] = c + j;
    unsigned long long t0 = rec_begin();
#pragma unroll 1
    for (int i = 0; i < iters; i++)
#pragma unroll
      for (int u = 0; u < 8; u++)
#pragma unroll
        for (int c = 0; c < C; c++)
          asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                       "{%0,%1,%2,%3};"
                       : "+r"(d[c][0]), "+r"(d[c][1]), "+r"(d[c][2]), "+r"(d[c][3])
                       : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    rec_end(rec, t0);
#pragma unroll
    for (int c = 0; c < C; c++)
      s += (float)(d[c][0] ^ d[c][1] ^ d[c][2] ^ d[c][3]);
  } else {
    float d[C][4];
#pragma unroll
    for (int c = 0; c < C; c++)
#pragma unroll
      for (int j = 0; j < 4; j++)
        d[c][j] = 0.01f * (c + j);
    unsigned long long t0 = rec_begin();
#pragma unroll 1
    for (int i = 0; i < iters; i++)
#pragma unroll
      for (int u = 0; u < 8; u++)
#pragma unroll
        for (int c = 0; c < C; c++) {
          if (FORM == 1)
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
                         "{%0,%1,%2,%3};"
                         : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                         : "r"(a[0]), "r"(a[1]), "r"(b[0]));
          else if (FORM == 2)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                         "{%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
          else
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                         "{%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        }
    rec_end(rec, t0);
#pragma unroll
    for (int c = 0; c < C; c++)
      s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  }
  KEEP(s);
}

// ================================================================== host
static const char *g_dir;
static int g_reps = 3, g_bmax = 16;

// One curve, as ../matrix/matrix.cu's: for B = 1..16 (while B CTAs fit), pin B, run one
// wave, write "PARAMS,regs,B,4B,cycles,rate,cycles_min,cycles_max,blocks_min,blocks_max"
// with rate = B x work / cycles.
template <typename K, typename L> static void curve(FILE *f, const std::string &params, K kernel, double work, L launch) {
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, 128, 0));
  for (int b = 1; b <= g_bmax && b <= fit; b++) {
    size_t smem = smem_for_blocks(kernel, 128, b);
    Span s = run_wave(b * g_sms, smem, launch, d_rec, g_reps);
    if (s.blocks_min != b || s.blocks_max != b)
      fprintf(stderr, "warning: %s B=%d landed %d..%d CTAs per SM\n", params.c_str(), b, s.blocks_min, s.blocks_max);
    fprintf(f, "%s,%d,%d,%d,%.0f,%.5g,%.0f,%.0f,%d,%d\n", params.c_str(), attr.numRegs, b, 4 * b, s.cycles,
            b * work / s.cycles, s.lo, s.hi, s.blocks_min, s.blocks_max);
  }
  fflush(f);
}
static FILE *family_csv(const char *name, const char *params, const char *rate) {
  char hdr[512];
  snprintf(hdr, sizeof hdr, "%s,regs,blocks_per_sm,resident_warps,cycles,%s,cycles_min,cycles_max,blocks_min,blocks_max",
           params, rate);
  return open_csv(g_dir, name, hdr);
}

static const char *kInt[] = {"idp4a", "idp2a", "imul", "imul_wide", "sad", "imad_hi", "", "",
                             "idp4a+ffma", "idp4a+imad", "idp4a+lop3"};
template <int OP, int ILP> static void int_curve(FILE *f) {
  const int iters = 512 / ILP;
  double per = OP >= 8 ? 2 : 1;
  curve(f, fmt("%s,%d,%g", kInt[OP], ILP, per), k_int<OP, ILP>, 4.0 * iters * 16 * ILP * per,
        [&](int g, size_t sm) { k_int<OP, ILP><<<g, 128, sm>>>(d_out, d_rec, iters, 0x9e3779b9u, 7u); });
}
static void fam_int() {
  FILE *f = family_csv("int.csv", "op,chains,instr_per_step", "warp_instr_per_cycle_per_sm");
  each<0, 1, 2, 3, 4, 5>([&](auto op) { each<1, 2, 4, 8>([&](auto ilp) { int_curve<V(op), V(ilp)>(f); }); });
  each<8, 9, 10>([&](auto op) { each<1, 4>([&](auto ilp) { int_curve<V(op), V(ilp)>(f); }); });
  fclose(f);
}

static const char *kFp64[] = {"dadd", "dmul", "dfma"};
template <int OP, int ILP> static void fp64_curve(FILE *f) {
  const int iters = 256 / ILP * 2;
  curve(f, fmt("%s,%d", kFp64[OP], ILP), k_fp64<OP, ILP>, 4.0 * iters * 16 * ILP,
        [&](int g, size_t sm) { k_fp64<OP, ILP><<<g, 128, sm>>>(d_out, d_rec, iters, 0.999, 1e-3); });
}
static void fam_fp64() {
  FILE *f = family_csv("fp64.csv", "op,chains", "warp_instr_per_cycle_per_sm");
  each<0, 1, 2>([&](auto op) { each<1, 4, 8>([&](auto ilp) { fp64_curve<V(op), V(ilp)>(f); }); });
  fclose(f);
}

static const char *kForm[] = {"imma_m16n8k32_s8", "hmma_m16n8k8_f16_f32acc", "hmma_m16n8k16_bf16_f32acc",
                              "hmma_m16n8k8_tf32_f32acc", "dmma_m8n8k4_f64"};
template <int C, int FORM> static void mma_curve(FILE *f) {
  const int iters = 256 / C;
  curve(f, fmt("%s,%d", kForm[FORM], C), k_mma<C, FORM>, 4.0 * iters * 8 * C,
        [&](int g, size_t sm) { k_mma<C, FORM><<<g, 128, sm>>>(d_out, d_rec, iters); });
}
static void fam_mma() {
  FILE *f = family_csv("mma.csv", "form,accumulator_chains", "warp_mma_per_cycle_per_sm");
  each<0, 1, 2, 3, 4>([&](auto form) { each<1, 2, 4>([&](auto c) { mma_curve<V(c), V(form)>(f); }); });
  fclose(f);
}

// One launch each at B = 8 (no warm-up, no timing) for Nsight Compute's pipe counters
// (ncu --set full in run.sh): which pipe IDP, IMMA, DMMA and the bf16/tf32 HMMAs use.
template <typename K, typename L> static void probe_one(K kernel, L launch) {
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  launch(8 * g_sms, smem_for_blocks(kernel, 128, 8));
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
}
static void fam_probe() {
  probe_one(k_int<0, 8>, [&](int g, size_t sm) { k_int<0, 8><<<g, 128, sm>>>(d_out, d_rec, 64, 0x9e3779b9u, 7u); });
  probe_one(k_int<8, 4>, [&](int g, size_t sm) { k_int<8, 4><<<g, 128, sm>>>(d_out, d_rec, 128, 0x9e3779b9u, 7u); });
  probe_one(k_int<9, 4>, [&](int g, size_t sm) { k_int<9, 4><<<g, 128, sm>>>(d_out, d_rec, 128, 0x9e3779b9u, 7u); });
  probe_one(k_int<2, 8>, [&](int g, size_t sm) { k_int<2, 8><<<g, 128, sm>>>(d_out, d_rec, 64, 0x9e3779b9u, 7u); });
  probe_one(k_fp64<0, 8>, [&](int g, size_t sm) { k_fp64<0, 8><<<g, 128, sm>>>(d_out, d_rec, 64, 0.999, 1e-3); });
  probe_one(k_mma<4, 0>, [&](int g, size_t sm) { k_mma<4, 0><<<g, 128, sm>>>(d_out, d_rec, 64); });
  probe_one(k_mma<4, 2>, [&](int g, size_t sm) { k_mma<4, 2><<<g, 128, sm>>>(d_out, d_rec, 64); });
  probe_one(k_mma<4, 3>, [&](int g, size_t sm) { k_mma<4, 3><<<g, 128, sm>>>(d_out, d_rec, 64); });
  probe_one(k_mma<4, 4>, [&](int g, size_t sm) { k_mma<4, 4><<<g, 128, sm>>>(d_out, d_rec, 64); });
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: alu2 FAMILY[,FAMILY...]|all OUTDIR\n");
    return 2;
  }
  harness_init("alu2");
  g_dir = argv[2];
  struct {
    const char *name;
    void (*fn)();
  } fams[] = {{"int", fam_int}, {"fp64", fam_fp64}, {"mma", fam_mma}, {"probe", fam_probe}};
  std::string want = "," + std::string(argv[1]) + ",";
  for (auto &fm : fams) {
    if (want != ",all," && want.find("," + std::string(fm.name) + ",") == std::string::npos)
      continue;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    fm.fn();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    printf("%s done in %.1f s\n", fm.name, ms / 1000);
    fflush(stdout);
  }
  return 0;
}
