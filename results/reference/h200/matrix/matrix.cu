// matrix.cu - the H200 microbenchmark matrix of issue 24 item 1: one mechanism per
// family, each point a curve over B = 1..16 resident CTAs of 128 threads per SM.
//
// Harness: calibrate/common.cuh (the method of results/reference/h200/README.md):
// occupancy pinned by dynamic shared-memory padding (carveout at its maximum, so L1
// keeps ~28 KB at every B), one wave of B x 132 CTAs, per-SM busy span from clock64
// stamps taken after a __syncthreads, median of 3 launches after a warm-up (cycles_min
// and cycles_max are the fastest and slowest of the 3).  A curve stops at the largest
// B the kernel's registers and static shared memory allow (the occupancy API decides).
// Every CTA does the same work at every B, so a rate per SM cycle is
// B x work_per_cta / cycles.  Each family writes one tidy CSV (README.md).
//
// Usage: matrix FAMILY[,FAMILY...]|all OUTDIR     families:
//   gload gstore shared hmma dfma mufu int conv cpasync barrier regblock
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o matrix matrix.cu
#include "../../../../calibrate/common.cuh"
#include "../../../../calibrate/gload.cuh"

#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <mma.h>

#include <cstdarg>
#include <cstring>
#include <string>
#include <type_traits>


// ================================================================== global loads
// Lane l of warp w reads element l * S (elements of E = W * F bytes, F fields of W bytes read
// one by one); a warp-load covers SPAN = 32 * S * E bytes.  Per iteration each thread loads ILP
// elements, k = 0..ILP-1, at immediate offsets from one pointer, every one before any is used
// (each sum multiplies by a 1 computed from all of them), so ILP x F loads per thread are in
// flight (the `regs` column; the SASS shows the order).
//   LVL 0 l1:    plain ld.global (LDG.E, L1-allocating), load k at (k * SPAN) mod 16 KiB (+16 B
//                per wrap), 128 B further in odd iterations (a loop-invariant address was
//                hoisted out of the loop by ptxas): L1 hits after the first touch.
//   LVL 1 l2:    plain ld.global over a 16 MiB footprint (each CTA starts at blockIdx x 128 KiB
//                in it): misses L1 (no reuse within a CTA), hits L2 (primed by the warm-up).
//   LVL 2 l2_cg: the same addresses with ld.global.cg (LDG.E.STRONG.GPU: L1 not allocated).
//   LVL 3 dram:  plain ld.global over a private slice per CTA, no reuse; the L2 is flushed
//                (a 256 MiB write) before every launch, so every line comes from DRAM.
static const size_t kL2Foot = (size_t)16 << 20, kL1Foot = (size_t)16 << 10;

template <int W, int F, int S, int ILP, int LVL>
__global__ void k_gld(const char *__restrict__ a, size_t cta_bytes, float *out, Rec *rec, int iters) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr int E = W * F, SPAN = 32 * S * E;
  const size_t th = (LVL == 0 ? 0 : (size_t)warp * SPAN) + (size_t)lane * S * E;
  const size_t cta = LVL == 0 ? 0 : LVL == 3 ? blockIdx.x * cta_bytes : (size_t)blockIdx.x << 17;
  float s[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s[k] = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    const char *p;
    if (LVL == 0)
      p = a + th + ((i & 1) << 7); // moves every other iteration, or ptxas hoists the loads
    else if (LVL == 3)
      p = a + cta + (size_t)i * 4 * ILP * SPAN + th;
    else
      p = a + ((cta + (size_t)i * 4 * ILP * SPAN) & (kL2Foot - 1)) + th;
    Vec<W> v[ILP][F];
#pragma unroll
    for (int k = 0; k < ILP; k++) {
      const int off = LVL == 0 ? (k * SPAN) % (int)kL1Foot + (k * SPAN) / (int)kL1Foot * 16 : k * 4 * SPAN;
#pragma unroll
      for (int f = 0; f < F; f++)
        v[k][f] = ldg<W, LVL == 2>(p + off + f * W);
    }
    // z = 1, known only once every load has returned (a product of all first components, a
    // tree): no sum can start early, so ptxas must issue all ILP x F loads before the first.
    float pr[ILP * F];
#pragma unroll
    for (int k = 0; k < ILP; k++)
#pragma unroll
      for (int f = 0; f < F; f++)
        pr[k * F + f] = v[k][f].c[0];
#pragma unroll
    for (int st = 1; st < ILP * F; st *= 2)
#pragma unroll
      for (int q = 0; q + st < ILP * F; q += 2 * st)
        pr[q] *= pr[q + st];
    const float z = fmaf(pr[0], 0.0f, 1.0f);
#pragma unroll
    for (int k = 0; k < ILP; k++)
#pragma unroll
      for (int f = 0; f < F; f++)
#pragma unroll
        for (int c = 0; c < W / 4; c++)
          s[k] = fmaf(v[k][f].c[c], z, s[k]);
  }
  rec_end(rec, t0);
  float t = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    t += s[k];
  KEEP(t);
}


// ================================================================== global stores
// Lane l of warp w stores W bytes at element ((i * ILP + k) * 4 + w) * 32 * stride + l * stride
// (element = W bytes).  LVL 1: a 16 MiB footprint (stays in L2); 3: a private slice per CTA
// (DRAM), the L2 flushed before every launch.
template <int W, int ILP, int LVL>
__global__ void k_gst(char *__restrict__ a, size_t cta_bytes, size_t mask, int stride, float *out, Rec *rec,
                      int iters) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  size_t base = LVL == 3 ? blockIdx.x * cta_bytes : blockIdx.x * ((size_t)1 << 20);
  size_t step = (size_t)4 * 32 * stride * W;
  size_t off = ((size_t)warp * 32 * stride + (size_t)lane * stride) * W;
  float x = threadIdx.x * 1e-3f, y = x + 1, z = x + 2, w = x + 3;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int k = 0; k < ILP; k++) {
      size_t o = base + off + (size_t)(i * ILP + k) * step;
      if (LVL != 3)
        o &= mask;
      char *p = a + o;
      if (W == 4)
        asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(x));
      else if (W == 8)
        asm volatile("st.global.v2.f32 [%0], {%1,%2};" ::"l"(p), "f"(x), "f"(y));
      else
        asm volatile("st.global.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(p), "f"(x), "f"(y), "f"(z), "f"(w));
    }
  }
  rec_end(rec, t0);
  KEEP(x);
}

// ================================================================== shared memory
// 5.5 KiB of static shared memory, zeroed.  Lane l addresses byte l * stride * W (stride 0:
// every lane the same word, a broadcast), access k of an iteration 128 k bytes further (the
// same banks; distinct addresses, or ptxas merges the accesses).  OP 0: ILP independent LDS
// per iteration, summed after; OP 1: ILP STS per iteration; OP 2: one dependent LDS chain (the
// loaded value, 0, is added to the address), so the curve at B = 1 is the LDS latency.
template <int W, int OP, int ILP> __global__ void k_sh(int stride, float *out, Rec *rec, int iters) {
  __shared__ __align__(16) unsigned sm[1408];
  for (int i = threadIdx.x; i < 1408; i += blockDim.x)
    sm[i] = 0;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  unsigned addr = (unsigned)__cvta_generic_to_shared(sm) + (unsigned)(lane * stride * W);
  unsigned acc = 0, d = threadIdx.x, flip = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    if (OP == 0) { // 512 B further every other iteration (same banks), or ptxas hoists the LDS
      addr += flip ? -512u : 512u;
      flip ^= 1;
    }
    if (OP == 2) {
#pragma unroll
      for (int k = 0; k < 8; k++) {
        unsigned v0, v1, v2, v3;
        if (W == 4)
          asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v0) : "r"(addr));
        else if (W == 8)
          asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(addr));
        else
          asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(addr));
        addr += v0;
      }
    } else if (OP == 0) {
      unsigned v[ILP][W / 4];
#pragma unroll
      for (int k = 0; k < ILP; k++) {
        if (W == 4)
          asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v[k][0]) : "r"(addr + 128 * k));
        else if (W == 8)
          asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(v[k][0]), "=r"(v[k][W / 4 - 1]) : "r"(addr + 128 * k));
        else
          asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                       : "=r"(v[k][0]), "=r"(v[k][1 % (W / 4)]), "=r"(v[k][2 % (W / 4)]), "=r"(v[k][W / 4 - 1])
                       : "r"(addr + 128 * k));
      }
#pragma unroll
      for (int k = 0; k < ILP; k++)
#pragma unroll
        for (int j = 0; j < W / 4; j++)
          acc += v[k][j];
    } else {
#pragma unroll
      for (int k = 0; k < ILP; k++) {
        if (W == 4)
          asm volatile("st.shared.u32 [%0], %1;" ::"r"(addr + 128 * k), "r"(d));
        else if (W == 8)
          asm volatile("st.shared.v2.u32 [%0], {%1,%2};" ::"r"(addr + 128 * k), "r"(d), "r"(d));
        else
          asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(addr + 128 * k), "r"(d), "r"(d), "r"(d),
                       "r"(d));
      }
    }
  }
  rec_end(rec, t0);
  KEEP((float)(acc + addr));
}

// LDSM: ldmatrix .x1/.x2/.x4, ILP 4 independent per iteration (128 k bytes apart).  Lane l
// gives the address of row l mod (8X); rows are `rowstride` bytes apart (16: the 8X rows are
// contiguous, conflict-free; 128: every row starts in bank 0).
template <int X> __global__ void k_ldsm(int rowstride, float *out, Rec *rec, int iters) {
  __shared__ __align__(16) unsigned sm[1280];
  for (int i = threadIdx.x; i < 1280; i += blockDim.x)
    sm[i] = i;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  unsigned addr = (unsigned)__cvta_generic_to_shared(sm) + (unsigned)((lane % (8 * X)) * rowstride);
  unsigned acc = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    unsigned r[4][4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
      const unsigned ak = addr + 128 * k;
      if (X == 1)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[k][0]) : "r"(ak));
      else if (X == 2)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[k][0]), "=r"(r[k][1]) : "r"(ak));
      else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[k][0]), "=r"(r[k][1]), "=r"(r[k][2]), "=r"(r[k][3])
                     : "r"(ak));
    }
#pragma unroll
    for (int k = 0; k < 4; k++)
#pragma unroll
      for (int j = 0; j < X; j++)
        acc += r[k][j];
  }
  rec_end(rec, t0);
  KEEP((float)acc);
}

// ================================================================== tensor cores
// C independent accumulators, each updated by a dependent chain of matrix products with fixed
// operands: FORM 0 mma.sync m16n8k16 f16 x f16 + f32; 1 the same with f16 accumulators;
// 2 wmma 16x16x16 f16 -> f32 (nvcc emits two HMMA.16816 per mma_sync).  8 x C products per
// iteration.
template <int C, int FORM> __global__ void k_mma(float *out, Rec *rec, int iters) {
  const int lane = threadIdx.x & 31;
  __half2 h = __floats2half2_rn(1e-3f * (lane + 1), -1e-3f * (lane + 2));
  unsigned a[4], b[2];
#pragma unroll
  for (int j = 0; j < 4; j++)
    a[j] = *(unsigned *)&h;
  b[0] = a[0];
  b[1] = a[1];
  float s = 0;
  if (FORM == 0) {
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
        for (int c = 0; c < C; c++)
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                       "{%0,%1,%2,%3};"
                       : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                       : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    rec_end(rec, t0);
#pragma unroll
    for (int c = 0; c < C; c++)
      s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  } else if (FORM == 1) {
    unsigned d[C][2];
#pragma unroll
    for (int c = 0; c < C; c++)
      d[c][0] = d[c][1] = a[0] + c;
    unsigned long long t0 = rec_begin();
#pragma unroll 1
    for (int i = 0; i < iters; i++)
#pragma unroll
      for (int u = 0; u < 8; u++)
#pragma unroll
        for (int c = 0; c < C; c++)
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                       : "+r"(d[c][0]), "+r"(d[c][1])
                       : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    rec_end(rec, t0);
#pragma unroll
    for (int c = 0; c < C; c++)
      s += (float)(d[c][0] ^ d[c][1]);
  } else {
    using namespace nvcuda;
    __shared__ __align__(32) __half tile[4][16 * 16];
    __shared__ __align__(32) float res[4][16 * 16];
    for (int i = threadIdx.x; i < 16 * 16; i += blockDim.x)
      tile[0][i] = tile[1][i] = tile[2][i] = tile[3][i] = __float2half(1e-3f * (i % 17) - 8e-3f);
    __syncthreads();
    const int warp = threadIdx.x >> 5;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[C];
    wmma::load_matrix_sync(fa, tile[warp], 16);
    wmma::load_matrix_sync(fb, tile[warp], 16);
#pragma unroll
    for (int c = 0; c < C; c++)
      wmma::fill_fragment(acc[c], 0.01f * c);
    unsigned long long t0 = rec_begin();
#pragma unroll 1
    for (int i = 0; i < iters; i++)
#pragma unroll
      for (int u = 0; u < 8; u++)
#pragma unroll
        for (int c = 0; c < C; c++)
          wmma::mma_sync(acc[c], fa, fb, acc[c]);
    rec_end(rec, t0);
    for (int c = 0; c < C; c++) {
      wmma::store_matrix_sync(res[warp], acc[c], 16, wmma::mem_row_major);
      __syncwarp();
      s += res[warp][lane];
      __syncwarp();
    }
  }
  KEEP(s);
}

// ================================================================== FP64, MUFU, integer, conversions
// ILP independent dependent chains, 16 x ILP operations per iteration, each one PTX
// instruction in inline asm (so that the compiler keeps every one and the SASS shows it).
template <int ILP> __global__ void k_dfma(float *out, Rec *rec, int iters, double m, double c) {
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
      for (int k = 0; k < ILP; k++)
        asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(a[k]) : "d"(m), "d"(c));
  rec_end(rec, t0);
  double s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s += a[k];
  KEEP((float)s);
}

// MUFU ops: 0 ex2, 1 rsqrt, 2 sin, 3 lg2, 4 rcp followed by an add of a kernel parameter
// (ptxas folds rcp(rcp(x)) = x: a bare chain vanished), 5 tanh, 6 sqrt, 7 ex2 and rsqrt
// alternating.
// NF: dependent FFMA steps on a separate chain after each MUFU (the mix), ILP 4 chains of each.
template <int OP> __device__ __forceinline__ void mufu(float &x, int j, float c) {
  const int op = OP == 7 ? (j & 1 ? 1 : 0) : OP;
  if (op == 0)
    asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));
  else if (op == 1)
    asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x));
  else if (op == 2)
    asm volatile("sin.approx.ftz.f32 %0, %0;" : "+f"(x));
  else if (op == 3)
    asm volatile("lg2.approx.ftz.f32 %0, %0;" : "+f"(x));
  else if (op == 4) {
    asm volatile("rcp.approx.ftz.f32 %0, %0;" : "+f"(x));
    x += c;
  }
  else if (op == 5)
    asm volatile("tanh.approx.f32 %0, %0;" : "+f"(x));
  else
    asm volatile("sqrt.approx.ftz.f32 %0, %0;" : "+f"(x));
}
template <int OP, int NF> __global__ void k_mufu(float *out, Rec *rec, int iters, float m, float c) {
  float x[4], y[4];
#pragma unroll
  for (int k = 0; k < 4; k++) {
    x[k] = 0.5f + threadIdx.x * 1e-3f + k * 0.1f;
    y[k] = x[k];
  }
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
      for (int k = 0; k < 4; k++) {
        mufu<OP>(x[k], j, c);
#pragma unroll
        for (int n = 0; n < NF; n++)
          asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(y[k]) : "f"(m), "f"(c));
      }
  rec_end(rec, t0);
  float s = 0;
#pragma unroll
  for (int k = 0; k < 4; k++)
    s += x[k] + y[k];
  KEEP(s);
}

// Integer ops: 0 mad.lo.u32 (IMAD), 1 mul.hi.u32 (IMAD.HI), 2 lop3.b32 (LOP3.LUT),
// 3 shf.l.wrap.b32 (SHF.L.W), 4 add.u32 (IADD3) as a Fibonacci pair a += b, b += a (a chain
// adding one value was folded into IMAD/LEA), 5 popc.b32 (POPC), 6 prmt.b32 (PRMT),
// 7 mad.wide.u32 on its own low half (IMAD.WIDE.U32).
template <int OP> __device__ __forceinline__ void iop(unsigned &x, unsigned m, unsigned c) {
  if (OP == 0)
    asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(m), "r"(c));
  else if (OP == 1)
    asm volatile("mul.hi.u32 %0, %0, %1;" : "+r"(x) : "r"(m));
  else if (OP == 2)
    asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(x) : "r"(m), "r"(c));
  else if (OP == 3)
    asm volatile("shf.l.wrap.b32 %0, %0, %1, %2;" : "+r"(x) : "r"(m), "r"(c));
  else if (OP == 4)
    asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(m)); // m: the pair's other value
  else if (OP == 5)
    asm volatile("popc.b32 %0, %0;" : "+r"(x));
  else if (OP == 6)
    asm volatile("prmt.b32 %0, %0, %1, %2;" : "+r"(x) : "r"(m), "r"(c));
}
template <int OP, int ILP> __global__ void k_int(float *out, Rec *rec, int iters, unsigned m, unsigned c) {
  unsigned a[ILP], b[ILP];
  unsigned long long w[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++) {
    a[k] = threadIdx.x * 2654435761u + k;
    b[k] = a[k] ^ m;
    w[k] = a[k];
  }
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
      for (int k = 0; k < ILP; k++) {
        if (OP == 4) {
          if (j & 1)
            iop<4>(b[k], a[k], c);
          else
            iop<4>(a[k], b[k], c);
        } else if (OP == 7)
          asm volatile("mad.wide.u32 %0, %1, %2, %0;" : "+l"(w[k]) : "r"((unsigned)w[k]), "r"(m));
        else
          iop<OP>(a[k], m, c);
      }
  rec_end(rec, t0);
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s ^= a[k] ^ b[k] ^ (unsigned)(w[k] >> 32);
  KEEP((float)s);
}

// Conversions: 0 F2I (cvt.rzi.s32.f32, result reinterpreted as the next float), 1 I2F
// (cvt.rn.f32.s32, bits reinterpreted as the next int), 2 f32 -> f64 -> f32 round trip
// (F2F.F64.F32 + F2F.F32.F64), 3 f32 -> f16 -> f32 round trip, 4 I2F.F64 + F2I.F64 round trip
// (cvt.rn.f64.s32, cvt.rzi.s32.f64).  Counted as conversions: 16 x ILP (OP 0, 1) or
// 32 x ILP (OP 2..4) per iteration.
template <int OP> __device__ __forceinline__ void cop(unsigned &x) {
  if (OP == 0)
    asm volatile("cvt.rzi.s32.f32 %0, %0;" : "+r"(x));
  else if (OP == 1)
    asm volatile("cvt.rn.f32.s32 %0, %0;" : "+r"(x));
  else if (OP == 2) {
    double d;
    asm volatile("cvt.f64.f32 %0, %1;" : "=d"(d) : "r"(x));
    asm volatile("cvt.rn.f32.f64 %0, %1;" : "=r"(x) : "d"(d));
  } else if (OP == 3) {
    unsigned short h;
    asm volatile("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "r"(x));
    asm volatile("cvt.f32.f16 %0, %1;" : "=r"(x) : "h"(h));
  } else {
    double d;
    asm volatile("cvt.rn.f64.s32 %0, %1;" : "=d"(d) : "r"(x));
    asm volatile("cvt.rzi.s32.f64 %0, %1;" : "=r"(x) : "d"(d));
  }
}
template <int OP, int ILP> __global__ void k_conv(float *out, Rec *rec, int iters) {
  unsigned a[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++)
    a[k] = __float_as_uint(1000.5f + threadIdx.x + k);
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
      for (int k = 0; k < ILP; k++)
        cop<OP>(a[k]);
  rec_end(rec, t0);
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s ^= a[k];
  KEEP((float)s);
}

// ================================================================== cp.async (LDGSTS)
// S-stage pipeline: each stage is K x 16 B per thread (cp.async.cg 16 B, L1 bypassed, via
// __pipeline_memcpy_async), committed per stage; __pipeline_wait_prior(S - 1) (DEPBAR)
// then a __syncthreads, then the thread sums its own stage.  LVL 1: source in a 16 MiB
// footprint (L2); 3: private slice per CTA (DRAM), the L2 flushed before every launch.
template <int S, int K, int LVL>
__global__ void k_cpasync(const float4 *__restrict__ a, size_t cta_f4, size_t mask_f4, float *out, Rec *rec,
                          int iters) {
  __shared__ __align__(16) float4 buf[S][K][128];
  const int t = threadIdx.x;
  size_t base = LVL == 3 ? blockIdx.x * cta_f4 : blockIdx.x * ((size_t)1 << 16);
  float s = 0;
  auto src = [&](int n, int k) -> const float4 * {
    size_t o = (size_t)(n * K + k) * 128 + t;
    if (LVL != 3)
      o = (base + o) & mask_f4;
    else
      o += base;
    return a + o;
  };
  unsigned long long t0 = rec_begin();
#pragma unroll
  for (int p = 0; p < S - 1; p++) {
#pragma unroll
    for (int k = 0; k < K; k++)
      __pipeline_memcpy_async(&buf[p][k][t], src(p, k), 16);
    __pipeline_commit();
  }
#pragma unroll 1
  for (int i = 0; i < iters; i += S) {
#pragma unroll
    for (int j = 0; j < S; j++) {
      int n = i + j + S - 1; // the stage issued now (past the end: rereads, never waited for)
#pragma unroll
      for (int k = 0; k < K; k++)
        __pipeline_memcpy_async(&buf[(j + S - 1) % S][k][t], src(n, k), 16);
      __pipeline_commit();
      __pipeline_wait_prior(S - 1);
      __syncthreads();
#pragma unroll
      for (int k = 0; k < K; k++) {
        float4 v = buf[j][k][t];
        s += v.x + v.y + v.z + v.w;
      }
    }
  }
  __pipeline_wait_prior(0);
  rec_end(rec, t0);
  KEEP(s);
}

// ================================================================== barriers
// 4 FFMA chains (ILP 4); a __syncthreads after every N FFMAs of a thread (N = 0: none).
template <int N> __global__ void k_bar(float *out, Rec *rec, int iters, float m, float c) {
  float a[4];
#pragma unroll
  for (int k = 0; k < 4; k++)
    a[k] = threadIdx.x * 1e-3f + k;
  const int per = N ? N / 4 : 32; // chain steps between barriers
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < per; j++)
#pragma unroll
      for (int k = 0; k < 4; k++)
        asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(a[k]) : "f"(m), "f"(c));
    if (N)
      __syncthreads();
  }
  rec_end(rec, t0);
  KEEP(a[0] + a[1] + a[2] + a[3]);
}

// ================================================================== register-blocked FFMA
// An RM x RN outer product per k step, the operands loaded from shared memory with vector
// loads (RM = RN = 2: two LDS.64; 4: two LDS.128; 8: four LDS.128), RM x RN FFMAs into
// accumulators.  A's fragment is at (lane / 8) x RM floats (4 addresses per warp: broadcast
// groups), B's at (lane % 8) x RN floats (8 consecutive fragments, conflict-free).  16 k
// steps per iteration over a 16 x 64-float tile of each.
template <int R> __global__ void k_regblock(float *out, Rec *rec, int iters) {
  __shared__ __align__(16) float As[16][64], Bs[16][64];
  for (int i = threadIdx.x; i < 16 * 64; i += blockDim.x) {
    As[i / 64][i % 64] = 1e-3f * (i % 13);
    Bs[i / 64][i % 64] = 1e-3f * (i % 7);
  }
  __syncthreads();
  const int lane = threadIdx.x & 31;
  unsigned pa = (unsigned)__cvta_generic_to_shared(&As[0][(lane / 8) * R % 64]);
  unsigned pb = (unsigned)__cvta_generic_to_shared(&Bs[0][(lane % 8) * R % 64]);
  float acc[R][R];
#pragma unroll
  for (int i = 0; i < R; i++)
#pragma unroll
    for (int j = 0; j < R; j++)
      acc[i][j] = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int k = 0; k < 16; k++) {
      float a[R], b[R];
#pragma unroll
      for (int q = 0; q < R; q += (R == 2 ? 2 : 4)) {
        if (R == 2) {
          asm volatile("ld.shared.v2.f32 {%0,%1}, [%2];" : "=f"(a[q]), "=f"(a[q + 1]) : "r"(pa + k * 256 + q * 4));
          asm volatile("ld.shared.v2.f32 {%0,%1}, [%2];" : "=f"(b[q]), "=f"(b[q + 1]) : "r"(pb + k * 256 + q * 4));
        } else {
          asm volatile("ld.shared.v4.f32 {%0,%1,%2,%3}, [%4];"
                       : "=f"(a[q]), "=f"(a[(q + 1) % R]), "=f"(a[(q + 2) % R]), "=f"(a[(q + 3) % R])
                       : "r"(pa + k * 256 + q * 4));
          asm volatile("ld.shared.v4.f32 {%0,%1,%2,%3}, [%4];"
                       : "=f"(b[q]), "=f"(b[(q + 1) % R]), "=f"(b[(q + 2) % R]), "=f"(b[(q + 3) % R])
                       : "r"(pb + k * 256 + q * 4));
        }
      }
#pragma unroll
      for (int i = 0; i < R; i++)
#pragma unroll
        for (int j = 0; j < R; j++)
          acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  }
  rec_end(rec, t0);
  float s = 0;
#pragma unroll
  for (int i = 0; i < R; i++)
#pragma unroll
    for (int j = 0; j < R; j++)
      s += acc[i][j];
  KEEP(s);
}

// ================================================================== host
static const char *g_dir;
static char *d_arena;                      // 4 GiB: the DRAM-level slices and L1/L2 footprints
static const size_t kArena = (size_t)4 << 30;
static const size_t kL2Mask = kL2Foot - 1;
static int g_reps = 3, g_bmax = 16;

// One curve: for B = 1..16 (while the kernel fits B CTAs per SM), pin B, run one wave,
// write "PARAMS,regs,B,4B,cycles,rate,cycles_min,cycles_max,blocks_min,blocks_max" where rate
// = B x work / cycles and regs = registers per thread as compiled.  Returns the largest B.
template <typename K, typename L> static int curve(FILE *f, const std::string &params, K kernel, double work, L launch) {
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, 128, 0));
  int b = 1;
  for (; b <= g_bmax && b <= fit; b++) {
    size_t smem = smem_for_blocks(kernel, 128, b);
    Span s = run_wave(b * g_sms, smem, launch, d_rec, g_reps);
    if (s.blocks_min != b || s.blocks_max != b)
      fprintf(stderr, "warning: %s B=%d landed %d..%d CTAs per SM\n", params.c_str(), b, s.blocks_min, s.blocks_max);
    fprintf(f, "%s,%d,%d,%d,%.0f,%.5g,%.0f,%.0f,%d,%d\n", params.c_str(), attr.numRegs, b, 4 * b, s.cycles,
            b * work / s.cycles, s.lo, s.hi, s.blocks_min, s.blocks_max);
  }
  fflush(f);
  return b - 1;
}
static const char *kTail = "regs,blocks_per_sm,resident_warps,cycles,%s,cycles_min,cycles_max,blocks_min,blocks_max";
static FILE *family_csv(const char *name, const char *params, const char *rate) {
  char tail[256], hdr[512];
  snprintf(tail, sizeof tail, kTail, rate);
  snprintf(hdr, sizeof hdr, "%s,%s", params, tail);
  return open_csv(g_dir, name, hdr);
}

// Distinct 32 B sectors and the most distinct 4 B words in one bank that one warp-access
// touches, lane l at byte l * pitch + f * W for fields f < F of W bytes.
static int sectors(int pitch, int W, int F) {
  std::vector<long> s;
  for (int l = 0; l < 32; l++)
    for (int f = 0; f < F; f++)
      for (int b = 0; b < W; b += 4)
        s.push_back(((long)l * pitch + f * W + b) / 32);
  std::sort(s.begin(), s.end());
  return (int)(std::unique(s.begin(), s.end()) - s.begin());
}
static int bank_ways(int pitch, int W, int lanes = 32) {
  int most = 0;
  for (int bank = 0; bank < 32; bank++) {
    std::vector<long> w;
    for (int l = 0; l < lanes; l++)
      for (int b = 0; b < W; b += 4) {
        long word = ((long)l * pitch + b) / 4;
        if (word % 32 == bank)
          w.push_back(word);
      }
    std::sort(w.begin(), w.end());
    most = std::max(most, (int)(std::unique(w.begin(), w.end()) - w.begin()));
  }
  return most;
}

static const char *kLevel[] = {"l1", "l2", "l2_cg", "dram"};
// Loads per warp: 512 at L1/L2 for up to one sector per lane, fewer for wider pitches; at
// DRAM as many as fit 2112 private slices in 4 GiB, at most 512.
static int loads_per_warp(int lvl, int pitch, int ilp) {
  int n;
  if (lvl < 3)
    n = std::max(64, 512 * 32 / std::max(32, pitch));
  else
    n = (int)std::min<size_t>(512, kArena / 2112 / (128 * (size_t)pitch));
  n = n / ilp * ilp;
  return std::max(n, ilp * 2);
}

template <int W, int F, int S, int ILP, int LVL> static void gld_curve(FILE *f) {
  const int pitch = S * W * F, L = loads_per_warp(LVL, pitch, ILP), iters = L / ILP;
  const size_t cta_bytes = (size_t)128 * L * pitch;
  std::string shape = F == 1 ? fmt("%d", W * 8) : fmt("struct%d", W * F);
  curve(f, fmt("%s,%d,%d,%s,%d,%d,%d", shape.c_str(), W * 8, S, kLevel[LVL], ILP, ILP * F, sectors(pitch, W, F)),
        k_gld<W, F, S, ILP, LVL>, 4.0 * L * F, [&](int g, size_t sm) {
          if (LVL == 3)
            flush_l2();
          k_gld<W, F, S, ILP, LVL><<<g, 128, sm>>>(d_arena, cta_bytes, d_out, d_rec, iters);
        });
}
template <int W, int F, int S, int LVL> static void gld_ilps(FILE *f) {
  each<1, 2, 4, 8>([&](auto ilp) { gld_curve<W, F, S, V(ilp), LVL>(f); });
}
template <int LVL> static void gld_level(FILE *f) {
  each<1, 2, 3, 4, 8, 32>([&](auto s) { each<4, 8, 16>([&](auto w) { gld_ilps<V(w), 1, V(s), LVL>(f); }); });
  gld_ilps<4, 3, 1, LVL>(f); // 12-byte struct {float a, b, c}, read field by field
  gld_ilps<8, 3, 1, LVL>(f); // 24-byte struct {float2 a, b, c}
}
// probe: one launch after one warm-up at B = 4 of three shapes at each level, for Nsight
// Compute (hit rates, sectors per request) to check that each level is what it claims.
static void fam_probe() {
  g_reps = 1;
  g_bmax = 4;
  FILE *f = family_csv("probe.csv",
                       "shape,load_bits,stride_elems,level,elems_in_flight_per_thread,loads_in_flight_per_thread,"
                       "sectors_per_warp_load",
                       "warp_loads_per_cycle_per_sm");
  each<0, 1, 2, 3>([&](auto lvl) { gld_curve<16, 1, 1, 4, V(lvl)>(f); });
  each<0, 1, 3>([&](auto lvl) { gld_curve<4, 1, 32, 1, V(lvl)>(f); });
  each<0, 3>([&](auto lvl) { gld_curve<4, 3, 1, 2, V(lvl)>(f); });
  fclose(f);
  g_reps = 3;
  g_bmax = 16;
}
static void fam_gload() {
  FILE *f = family_csv("gload.csv",
                       "shape,load_bits,stride_elems,level,elems_in_flight_per_thread,loads_in_flight_per_thread,"
                       "sectors_per_warp_load",
                       "warp_loads_per_cycle_per_sm");
  each<0, 1, 2, 3>([&](auto lvl) { gld_level<V(lvl)>(f); });
  fclose(f);
}

template <int W, int ILP, int LVL> static void gst_curve(FILE *f, int stride) {
  int pitch = stride * W, L = loads_per_warp(LVL, pitch, ILP);
  size_t cta_bytes = (size_t)128 * L * pitch;
  int iters = L / ILP;
  curve(f, fmt("%d,%d,%s,%d,%d", W * 8, stride, kLevel[LVL], ILP, sectors(pitch, W, 1)), k_gst<W, ILP, LVL>, 4.0 * L,
        [&](int g, size_t sm) {
          if (LVL == 3)
            flush_l2();
          k_gst<W, ILP, LVL><<<g, 128, sm>>>(d_arena, cta_bytes, kL2Mask, stride, d_out, d_rec, iters);
        });
}
template <int LVL> static void gst_level(FILE *f) {
  const int strides[] = {1, 2, 3, 4, 8, 32};
  for (int s : strides)
    each<4, 8, 16>([&](auto w) { gst_curve<V(w), 4, LVL>(f, s); });
  gst_curve<16, 1, LVL>(f, 1);
  gst_curve<4, 1, LVL>(f, 1);
}
static void fam_gstore() {
  FILE *f = family_csv("gstore.csv", "store_bits,stride_elems,level,stores_per_iteration,sectors_per_warp_store",
                       "warp_stores_per_cycle_per_sm");
  each<1, 3>([&](auto lvl) { gst_level<V(lvl)>(f); });
  fclose(f);
}

template <int W, int OP> static void sh_curves(FILE *f) {
  const int strides[] = {0, 1, 2, 3, 4, 8, 16, 32};
  const char *op = OP == 0 ? "lds" : OP == 1 ? "sts" : "lds_chain";
  for (int s : strides) {
    if (s * W > 128)
      continue;
    if (OP == 2 && s != 0 && s != 1 && s * W != 128 && s != 2)
      continue;
    int iters = OP == 2 ? 256 : 512;
    double per_iter = OP == 2 ? 8 : 4;
    int ways = s == 0 ? 1 : bank_ways(s * W, W);
    curve(f, fmt("%s,%d,%d,%d", op, W * 8, s, ways), k_sh<W, OP, 4>, 4.0 * iters * per_iter,
          [&](int g, size_t sm) { k_sh<W, OP, 4><<<g, 128, sm>>>(s, d_out, d_rec, iters); });
  }
}
template <int X> static void ldsm_curve(FILE *f, int rowstride) {
  const int iters = 512;
  curve(f, fmt("ldsm_x%d,%d,%d,%d", X, 64 * X, rowstride, X * bank_ways(rowstride, 16, 8)),
        k_ldsm<X>, 4.0 * iters * 4, [&](int g, size_t sm) { k_ldsm<X><<<g, 128, sm>>>(rowstride, d_out, d_rec, iters); });
}
static void fam_shared() {
  FILE *f = family_csv("shared.csv", "op,access_bits,stride_elems,wavefronts_expected", "warp_instr_per_cycle_per_sm");
  each<0, 1, 2>([&](auto op) { each<4, 8, 16>([&](auto w) { sh_curves<V(w), V(op)>(f); }); });
  each<1, 2, 4>([&](auto x) { ldsm_curve<V(x)>(f, 16); });
  each<1, 4>([&](auto x) { ldsm_curve<V(x)>(f, 128); });
  fclose(f);
}

template <int C, int FORM> static void mma_curve(FILE *f) {
  const int iters = 256 / C;
  const char *form = FORM == 0 ? "mma_m16n8k16_f32acc" : FORM == 1 ? "mma_m16n8k16_f16acc" : "wmma_16x16x16_f32acc";
  int hmma_per = FORM == 2 ? 2 : 1;
  curve(f, fmt("%s,%d,%d", form, C, hmma_per), k_mma<C, FORM>, 4.0 * iters * 8 * C * hmma_per,
        [&](int g, size_t sm) { k_mma<C, FORM><<<g, 128, sm>>>(d_out, d_rec, iters); });
}
static void fam_hmma() {
  // one HMMA.16816 = 16 x 8 x 16 multiply-adds = 4096 flop per warp instruction
  FILE *f = family_csv("hmma.csv", "form,accumulator_chains,hmma_per_call", "warp_hmma_per_cycle_per_sm");
  each<0, 1, 2>([&](auto form) { each<1, 2, 3, 4>([&](auto c) { mma_curve<V(c), V(form)>(f); }); });
  fclose(f);
}

template <int ILP> static void dfma_curve(FILE *f) {
  const int iters = 256 / ILP * 2;
  curve(f, fmt("dfma,%d", ILP), k_dfma<ILP>, 4.0 * iters * 16 * ILP,
        [&](int g, size_t sm) { k_dfma<ILP><<<g, 128, sm>>>(d_out, d_rec, iters, 0.999, 1e-3); });
}
static void fam_dfma() {
  FILE *f = family_csv("dfma.csv", "op,chains", "warp_dfma_per_cycle_per_sm");
  each<1, 2, 4, 8>([&](auto ilp) { dfma_curve<V(ilp)>(f); });
  fclose(f);
}

static const char *kMufu[] = {"ex2", "rsqrt", "sin", "lg2", "rcp+fadd", "tanh", "sqrt", "ex2+rsqrt"};
template <int OP, int NF> static void mufu_curve(FILE *f) {
  const int iters = 64;
  curve(f, fmt("%s,%d", kMufu[OP], NF), k_mufu<OP, NF>, 4.0 * iters * 64,
        [&](int g, size_t sm) { k_mufu<OP, NF><<<g, 128, sm>>>(d_out, d_rec, iters, 0.999f, 1e-3f); });
}
static void fam_mufu() {
  FILE *f = family_csv("mufu.csv", "op,ffma_per_mufu", "warp_mufu_per_cycle_per_sm");
  each<0, 1, 2, 3, 4, 5, 6, 7>([&](auto op) { mufu_curve<V(op), 0>(f); });
  each<1, 2, 4, 8>([&](auto nf) { mufu_curve<0, V(nf)>(f); });
  fclose(f);
}

static const char *kInt[] = {"imad", "imad_hi", "lop3", "shf", "iadd3", "popc", "prmt", "imad_wide"};
template <int OP, int ILP> static void int_curve(FILE *f) {
  const int iters = 512 / ILP;
  curve(f, fmt("%s,%d", kInt[OP], ILP), k_int<OP, ILP>, 4.0 * iters * 16 * ILP,
        [&](int g, size_t sm) { k_int<OP, ILP><<<g, 128, sm>>>(d_out, d_rec, iters, 0x9e3779b9u, 7u); });
}
static void fam_int() {
  FILE *f = family_csv("int.csv", "op,chains", "warp_instr_per_cycle_per_sm");
  each<0, 1, 2, 3, 4, 5, 6, 7>([&](auto op) { each<1, 2, 4, 8>([&](auto ilp) { int_curve<V(op), V(ilp)>(f); }); });
  fclose(f);
}

static const char *kConv[] = {"f2i", "i2f", "f32_f64_f32", "f32_f16_f32", "s32_f64_s32"};
template <int OP, int ILP> static void conv_curve(FILE *f) {
  const int iters = 128 / ILP;
  int per = OP < 2 ? 1 : 2;
  curve(f, fmt("%s,%d,%d", kConv[OP], ILP, per), k_conv<OP, ILP>, 4.0 * iters * 16 * ILP * per,
        [&](int g, size_t sm) { k_conv<OP, ILP><<<g, 128, sm>>>(d_out, d_rec, iters); });
}
static void fam_conv() {
  FILE *f = family_csv("conv.csv", "op,chains,cvt_per_step", "warp_cvt_per_cycle_per_sm");
  each<0, 1, 2, 3, 4>([&](auto op) { each<1, 4, 8>([&](auto ilp) { conv_curve<V(op), V(ilp)>(f); }); });
  fclose(f);
}

template <int S, int K, int LVL> static void cp_curve(FILE *f) {
  const int iters = 240; // stages per CTA: a multiple of 1, 2, 3 and 4
  size_t cta_f4 = (size_t)(iters + S) * K * 128;
  curve(f, fmt("%d,%d,%s,%d", S, K, kLevel[LVL], S * K * 2048), k_cpasync<S, K, LVL>, (double)iters * K * 2048,
        [&](int g, size_t sm) {
          if (LVL == 3)
            flush_l2();
          k_cpasync<S, K, LVL><<<g, 128, sm>>>((const float4 *)d_arena, cta_f4, kL2Mask >> 4, d_out, d_rec, iters);
        });
}
static void fam_cpasync() {
  FILE *f = family_csv("cpasync.csv", "stages,copies_per_thread_per_stage,level,smem_bytes_per_cta",
                       "bytes_per_cycle_per_sm");
  each<1, 3>([&](auto lvl) {
    each<1, 4>([&](auto k) { each<1, 2, 3, 4>([&](auto st) { cp_curve<V(st), V(k), V(lvl)>(f); }); });
  });
  fclose(f);
}

template <int N> static void bar_curve(FILE *f) {
  const int total = 8192, per = N ? N : 128, iters = total / per;
  curve(f, fmt("%d,%d", N, iters), k_bar<N>, 4.0 * total,
        [&](int g, size_t sm) { k_bar<N><<<g, 128, sm>>>(d_out, d_rec, iters, 0.999f, 1e-3f); });
}
static void fam_barrier() {
  FILE *f = family_csv("barrier.csv", "ffma_per_barrier,barriers_per_thread", "warp_ffma_per_cycle_per_sm");
  each<0, 4, 8, 16, 32, 64, 128>([&](auto n) { bar_curve<V(n)>(f); });
  fclose(f);
}

template <int R> static void rb_curve(FILE *f) {
  const int iters = 1024 / (R * R);
  int lds = R == 2 ? 2 : 2 * R / 4;
  curve(f, fmt("%dx%d,%d,%d,%d", R, R, R == 2 ? 64 : 128, lds, R * R), k_regblock<R>, 4.0 * iters * 16 * R * R,
        [&](int g, size_t sm) { k_regblock<R><<<g, 128, sm>>>(d_out, d_rec, iters); });
}
static void fam_regblock() {
  FILE *f = family_csv("regblock.csv", "block,lds_bits,lds_per_k_step,ffma_per_k_step", "warp_ffma_per_cycle_per_sm");
  rb_curve<2>(f);
  rb_curve<4>(f);
  rb_curve<8>(f);
  fclose(f);
}

__global__ void k_fill(unsigned *a, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    a[i] = 0x3f000000u | (((unsigned)i * 2654435761u) >> 9); // floats in [0.5, 1)
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: matrix FAMILY[,FAMILY...]|all OUTDIR\n");
    return 2;
  }
  harness_init("matrix");
  g_dir = argv[2];
  CK(cudaMalloc(&d_arena, kArena));
  k_fill<<<2048, 256>>>((unsigned *)d_arena, kArena / 4);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  struct {
    const char *name;
    void (*fn)();
  } fams[] = {{"gload", fam_gload},     {"gstore", fam_gstore}, {"shared", fam_shared},   {"hmma", fam_hmma},
              {"dfma", fam_dfma},       {"mufu", fam_mufu},     {"int", fam_int},         {"conv", fam_conv},
              {"cpasync", fam_cpasync}, {"barrier", fam_barrier}, {"regblock", fam_regblock}, {"probe", fam_probe}};
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
