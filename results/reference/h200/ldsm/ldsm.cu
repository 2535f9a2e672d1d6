// ldsm.cu - LDSM (ldmatrix) and the tensor-core operand path on one H200 SM (issue 24: "LDSM if
// nvcc emits it"; the wmma kernel of results/reference/h200/real10/ runs on HMMAs fed by
// LDSM.16.M88.4 / LDSM.16.MT88.4).
//
// Harness: calibrate/common.cuh, as results/reference/h200/matrix/matrix.cu uses it: 128-thread
// CTAs, B = 1..16 CTAs per SM pinned by dynamic shared-memory padding (carveout at its maximum),
// one wave of B x 132 CTAs, per-SM busy span from clock64 stamps taken after a __syncthreads,
// median of 3 launches after a warm-up (cycles_min / cycles_max: the fastest and slowest).
// Every CTA does the same work at every B, so rate = B x work_per_CTA / cycles.
//
// Curves (README.md):
//   tput.csv   ldsm x1/x2/x4, plain and .trans, 8 independent per iteration, rows 16 B apart
//              (contiguous) or in the 80-byte-pitch 16x16 tile layout of real10's wmma;
//              lds128 / sts128 (8 per iteration) at lane l -> l*16 (contiguous) or
//              (l/4)*80 + (l%4)*16 (real10's staging stores)
//   chain.csv  one dependent chain per warp, 8 steps per iteration: ldsm x1/x2/x4/x4.trans with
//              the next address from the loaded value (shared memory holds zeros), lds32 the
//              same, and ldsm.x4 -> mma.m16n8k16 (zero accumulator) -> the next address from
//              the product (zero)
//   wmma.csv   per step wmma::load_matrix_sync of A (row-major) and B (row-major: MT88) from
//              80-byte-pitch tiles then mma_sync into 1 or 2 accumulators, 4 steps per iteration
//
// Usage: ldsm OUTDIR [probe]   (probe: B = 1 only, one launch after the warm-up, for ncu)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o ldsm ldsm.cu
#include "../../../../calibrate/common.cuh"
#include "../../../../calibrate/gload.cuh"

#include <cuda_fp16.h>
#include <mma.h>

#include <string>

// ------------------------------------------------------------------ device
template <int X, bool T> __device__ __forceinline__ void ldsm(unsigned (&r)[4], unsigned a) {
  if (X == 1 && !T)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a));
  else if (X == 1)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a));
  else if (X == 2 && !T)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a));
  else if (X == 2)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a));
  else if (!T)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}

// The byte offset lane l gives an LDSM of X matrices: LAYOUT 0 rows 16 B apart, row l mod 8X
// (conflict-free); LAYOUT 1 the 16x16 half tile at an 80-byte pitch, as wmma::load_matrix_sync
// addresses it (matrix m = l / 8: rows (m & 1) x 8 + l mod 8, columns (m >> 1) x 8 halves;
// 8 rows 80 B apart start in banks 0, 20, 8, 28, 16, 4, 24, 12: conflict-free).
template <int X, int LAYOUT> __device__ __forceinline__ unsigned ldsm_lane(int l) {
  if (LAYOUT == 0)
    return (unsigned)(l % (8 * X)) * 16;
  const int m = (l / 8) % X, r = l % 8;
  return X == 4 ? (unsigned)(((m & 1) * 8 + r) * 80 + (m >> 1) * 16) : (unsigned)((m * 8 + r) * 80);
}

static const int kSmemWords = 2816; // 11 KiB of static shared memory (B = 16 fits)

// 8 independent LDSM per iteration: two groups of 4, each LDSM of a group G bytes further
// (G = 512 contiguous, 1280 = one 16-row tile at 80 B: the same banks); the groups swap
// halves every iteration, so no address is loop-invariant.
template <int X, bool T, int LAYOUT> __global__ void k_ldsm(float *out, Rec *rec, int iters) {
  __shared__ __align__(16) unsigned sm[kSmemWords];
  for (int i = threadIdx.x; i < kSmemWords; i += blockDim.x)
    sm[i] = i;
  __syncthreads();
  constexpr unsigned G = LAYOUT == 0 ? 512 : 1280, HALF = 4 * G;
  const unsigned base = (unsigned)__cvta_generic_to_shared(sm) + ldsm_lane<X, LAYOUT>(threadIdx.x & 31);
  unsigned flip = 0, acc = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    const unsigned a0 = base + flip, a1 = base + (HALF - flip);
    unsigned r[8][4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
      ldsm<X, T>(r[k], a0 + k * G);
      ldsm<X, T>(r[4 + k], a1 + k * G);
    }
#pragma unroll
    for (int k = 0; k < 8; k++)
#pragma unroll
      for (int j = 0; j < X; j++)
        acc += r[k][j];
    flip ^= HALF;
  }
  rec_end(rec, t0);
  KEEP((float)acc);
}

// 8 LDS.128 (OP 0) or STS.128 (OP 1) per iteration at lane offset l x 16 (LAYOUT 0: 512 B per
// warp, 4 wavefronts) or (l / 4) x 80 + (l mod 4) x 16 (LAYOUT 1, real10 wmma's staging
// stores: 8 rows of 64 B at an 80-byte pitch); the 8 accesses 640 B apart (LAYOUT 1; 512 B
// for 0), the halves swapping every iteration as in k_ldsm.
template <int OP, int LAYOUT> __global__ void k_sh128(float *out, Rec *rec, int iters) {
  __shared__ __align__(16) unsigned sm[kSmemWords];
  for (int i = threadIdx.x; i < kSmemWords; i += blockDim.x)
    sm[i] = i;
  __syncthreads();
  const int l = threadIdx.x & 31;
  constexpr unsigned G = LAYOUT == 0 ? 512 : 640, HALF = 4 * G;
  const unsigned base =
      (unsigned)__cvta_generic_to_shared(sm) + (LAYOUT == 0 ? l * 16 : (l / 4) * 80 + (l % 4) * 16);
  unsigned flip = 0, acc = 0, d = threadIdx.x;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    const unsigned a0 = base + flip, a1 = base + (HALF - flip);
    if (OP == 0) {
      unsigned v[8][4];
#pragma unroll
      for (int k = 0; k < 4; k++) {
        asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v[k][0]), "=r"(v[k][1]), "=r"(v[k][2]), "=r"(v[k][3])
                     : "r"(a0 + k * G));
        asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v[4 + k][0]), "=r"(v[4 + k][1]), "=r"(v[4 + k][2]), "=r"(v[4 + k][3])
                     : "r"(a1 + k * G));
      }
#pragma unroll
      for (int k = 0; k < 8; k++)
        acc += v[k][0] ^ v[k][3];
    } else {
#pragma unroll
      for (int k = 0; k < 4; k++) {
        asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(a0 + k * G), "r"(d), "r"(d), "r"(d), "r"(d));
        asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(a1 + k * G), "r"(d), "r"(d), "r"(d), "r"(d));
      }
      d += 1;
    }
    flip ^= HALF;
  }
  rec_end(rec, t0);
  KEEP((float)(acc + d));
}

// One dependent chain per warp, 8 steps per iteration over zeros in shared memory.
// FORM 0: LDSM (X, T) then addr += r0 + r[X-1] (one IADD3); FORM 1: LDS.32 then addr += v;
// FORM 2: LDSM.x4 -> mma.m16n8k16 f32 (A = the 4 loaded registers, B fixed, C = 0) ->
// addr += bits(d0) (0.0f: the product of zeros).
template <int FORM, int X, bool T> __global__ void k_chain(float *out, Rec *rec, int iters) {
  __shared__ __align__(16) unsigned sm[kSmemWords];
  for (int i = threadIdx.x; i < kSmemWords; i += blockDim.x)
    sm[i] = 0;
  __syncthreads();
  const int l = threadIdx.x & 31;
  unsigned addr = (unsigned)__cvta_generic_to_shared(sm) + (FORM == 1 ? l * 4 : ldsm_lane<X, 1>(l));
  const __half2 h = __floats2half2_rn(1e-3f * (l + 1), -1e-3f * (l + 2));
  const unsigned b0 = *(const unsigned *)&h, b1 = b0 ^ 0x00010001u;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int s = 0; s < 8; s++) {
      if (FORM == 0) {
        unsigned r[4];
        ldsm<X, T>(r, addr);
        addr += X == 1 ? r[0] : r[0] + r[X - 1];
      } else if (FORM == 1) {
        unsigned v;
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
        addr += v;
      } else {
        unsigned r[4];
        ldsm<4, false>(r, addr);
        float d0, d1, d2, d3;
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%10,%10,%10,%10};"
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                     : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(b0), "r"(b1), "f"(0.0f));
        addr += __float_as_uint(d0);
      }
    }
  }
  rec_end(rec, t0);
  KEEP((float)addr);
}

// wmma as real10's k_wmma emits it: per step load_matrix_sync of A (row-major, LDSM.16.M88.4)
// and B (row-major, LDSM.16.MT88.4) from 80-byte-pitch tiles, then mma_sync (two
// HMMA.16816.F32) into each of C accumulators.  4 steps per iteration at rows u x 8 of the
// tiles, rows 32 further in odd iterations (no load is loop-invariant).
template <int C> __global__ void k_wmma(float *out, Rec *rec, int iters) {
  using namespace nvcuda;
  __shared__ __align__(32) __half As[64][40], Bs[64][40];
  for (int i = threadIdx.x; i < 64 * 40; i += blockDim.x) {
    As[i / 40][i % 40] = __float2half(1e-3f * (i % 17) - 8e-3f);
    Bs[i / 40][i % 40] = __float2half(1e-3f * (i % 13) - 6e-3f);
  }
  __syncthreads();
  const int wc = (threadIdx.x >> 5) & 1;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[C];
#pragma unroll
  for (int c = 0; c < C; c++)
    wmma::fill_fragment(acc[c], 0.01f * c);
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    const int r0 = (i & 1) * 32;
#pragma unroll
    for (int u = 0; u < 4; u++) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
      wmma::load_matrix_sync(fa, &As[r0 + u * 8][0], 40);
      wmma::load_matrix_sync(fb, &Bs[r0 + u * 8][wc * 16], 40);
#pragma unroll
      for (int c = 0; c < C; c++)
        wmma::mma_sync(acc[c], fa, fb, acc[c]);
    }
  }
  rec_end(rec, t0);
  float s = 0;
#pragma unroll
  for (int c = 0; c < C; c++)
    s += acc[c].x[0] + acc[c].x[7];
  KEEP(s);
}

// ------------------------------------------------------------------ host (matrix.cu's curve)
static const char *g_dir;
static int g_reps = 3, g_bmax = 16;

// One curve: for B = 1..16 (while the kernel fits B CTAs per SM), pin B, run one wave, write
// "PARAMS,regs,B,4B,cycles,rate,cycles_min,cycles_max,blocks_min,blocks_max" with rate =
// B x work / cycles (work per CTA).
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
static FILE *csv(const char *name, const char *params, const char *rate) {
  char hdr[512];
  snprintf(hdr, sizeof hdr, "%s,regs,blocks_per_sm,resident_warps,cycles,%s,cycles_min,cycles_max,blocks_min,blocks_max",
           params, rate);
  return open_csv(g_dir, name, hdr);
}

static const int kIters = 256;

template <int X, bool T, int LAYOUT> static void ldsm_curve(FILE *f) {
  curve(f, fmt("ldsm_x%d%s,%s,%d", X, T ? "_trans" : "", LAYOUT ? "tile80" : "rows16", X), k_ldsm<X, T, LAYOUT>,
        4.0 * kIters * 8, [&](int g, size_t sm) { k_ldsm<X, T, LAYOUT><<<g, 128, sm>>>(d_out, d_rec, kIters); });
}
// Wavefronts of one 128-bit warp access if each quarter-warp (8 lanes x 16 B) is served apart:
// the sum over quarters of the most distinct 4-byte words any bank gets.
static int quarter_ways(int layout) {
  int total = 0;
  for (int q = 0; q < 4; q++) {
    int most = 0;
    for (int bank = 0; bank < 32; bank++) {
      int n = 0;
      for (int l = 8 * q; l < 8 * q + 8; l++)
        for (int w = 0; w < 4; w++) {
          int word = ((layout == 0 ? l * 16 : (l / 4) * 80 + (l % 4) * 16) + 4 * w) / 4;
          n += word % 32 == bank; // the words of one quarter are distinct
        }
      most = std::max(most, n);
    }
    total += most;
  }
  return total;
}
template <int OP, int LAYOUT> static void sh_curve(FILE *f) {
  curve(f, fmt("%s,%s,%d", OP ? "sts128" : "lds128", LAYOUT ? "pitch80" : "contig", quarter_ways(LAYOUT)), k_sh128<OP, LAYOUT>,
        4.0 * kIters * 8, [&](int g, size_t sm) { k_sh128<OP, LAYOUT><<<g, 128, sm>>>(d_out, d_rec, kIters); });
}
template <int FORM, int X, bool T> static void chain_curve(FILE *f) {
  std::string name = FORM == 1 ? "lds32" : FORM == 2 ? "ldsm_x4+hmma" : fmt("ldsm_x%d%s", X, T ? "_trans" : "");
  curve(f, fmt("%s,%d", name.c_str(), 8), k_chain<FORM, X, T>, 4.0 * kIters * 8,
        [&](int g, size_t sm) { k_chain<FORM, X, T><<<g, 128, sm>>>(d_out, d_rec, kIters); });
}
template <int C> static void wmma_curve(FILE *f) {
  curve(f, fmt("wmma_ldsm,%d,%d,%d", C, 2, 4 * C), k_wmma<C>, 4.0 * kIters * 4,
        [&](int g, size_t sm) { k_wmma<C><<<g, 128, sm>>>(d_out, d_rec, kIters); });
}

int main(int argc, char **argv) {
  if (argc != 2 && !(argc == 3 && std::string(argv[2]) == "probe")) {
    fprintf(stderr, "usage: ldsm OUTDIR [probe]\n");
    return 2;
  }
  harness_init("ldsm");
  g_dir = argv[1];
  if (argc == 3) { // for Nsight Compute: B = 1 only, one launch after the warm-up
    g_reps = 1;
    g_bmax = 1;
  }
  FILE *f = csv("tput.csv", "op,layout,wavefronts_expected", "warp_instr_per_cycle_per_sm");
  each<0, 1>([&](auto lay) {
    each<1, 2, 4>([&](auto x) {
      ldsm_curve<V(x), false, V(lay)>(f);
      ldsm_curve<V(x), true, V(lay)>(f);
    });
    sh_curve<0, V(lay)>(f);
    sh_curve<1, V(lay)>(f);
  });
  fclose(f);
  f = csv("chain.csv", "op,steps_per_iteration", "warp_steps_per_cycle_per_sm");
  chain_curve<1, 1, false>(f);
  chain_curve<0, 1, false>(f);
  chain_curve<0, 2, false>(f);
  chain_curve<0, 4, false>(f);
  chain_curve<0, 4, true>(f);
  chain_curve<2, 4, false>(f);
  fclose(f);
  f = csv("wmma.csv", "op,accumulators,ldsm_per_step,hmma_per_step", "warp_steps_per_cycle_per_sm");
  wmma_curve<1>(f);
  wmma_curve<2>(f);
  fclose(f);
  printf("done\n");
  return 0;
}
