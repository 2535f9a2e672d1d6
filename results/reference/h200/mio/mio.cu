// mio.cu - warp-collective and constant-bank instructions on the H200 (issue 24: the
// mechanisms under real11's vote and cdiv, results/reference/h200/real11/): the issue interval
// and dependent latency of MATCH.ANY, VOTE.ANY (ballot), REDUX.SUM, SHFL.BFLY, POPC, FLO and
// BREV, and the cost of an LDC whose constant-bank address is a per-thread register, against
// the number of distinct addresses of the warp's lanes and the size of the table.
//
// warp.csv (k_warp): each thread runs `chains` independent chains of one op (chains = 1: a
// dependent chain; 8: independent streams), 16 x chains ops per iteration, each op one inline
// PTX instruction (volatile: not merged or hoisted); `op_b` != `op_a`: the first half of the
// chains run op_a, the other half op_b (do the two share a unit?).  Per step of a chain:
//   match_any   k = key ^ (x & z); x = match.any.sync.b32(k)      MATCH.ANY (+ LOP3)
//               key = lane & (distinct_keys - 1): 1, 2, 8 or 32 distinct values per warp
//   vote_ballot x = vote.sync.ballot.b32(((x ^ lane) & 1) != 0)   VOTE.ANY R, PT, P (+ LOP3/ISETP)
//   redux_sum   x = redux.sync.add.u32(x)                          REDUX.SUM UR (+ a move to R)
//   shfl_bfly   x = shfl.sync.bfly.b32(x, 1)                       SHFL.BFLY
//   popc / flo / brev   x = popc.b32(x) / bfind.u32(x) / brev.b32(x)   POPC / FLO.U32 / BREV
// z = 0 at run time (a kernel argument), so the key stays lane & (distinct_keys - 1).
//
// ldc.csv (k_ldc): `chains` chains of LDC R, c[0x3][R] from a __constant__ table of
// `table_bytes` (1, 16 or 64 KiB); lane l of a warp reads byte (p + (l mod distinct) x
// stride_bytes + (v & z)) & (table_bytes - 4): `distinct` = 1, 2, 4, ..., 32 distinct
// addresses per warp-LDC, `stride_bytes` 4 (adjacent words) or 32 apart; p moves 268 bytes per
// access and starts at a different place for each warp (3,988 bytes apart), so a table larger
// than the constant cache misses; v is the chain's previous value (chains = 1: dependent).
// mode `uniform` (k_ldcu): the address depends only on the loop counter (no lane term, no chain:
// whatever ptxas makes of a uniform index), 8 streams.
//
// Harness: calibrate/common.cuh, as ../matrix/ and ../atomics/: 128-thread CTAs, B = 1..16
// CTAs per SM pinned by dynamic shared-memory padding, one wave of B x 132 CTAs, per-SM busy
// span from clock64 (mean over SMs), median of 3 launches after a warm-up.  Iterations per
// point from a pilot launch, set to give about 200,000 cycles.  `active_warps`: warps of each
// CTA that run the loop (4; 1: warp 0 alone, the other three wait at the closing barrier, to
// tell a unit per SMSP from one per SM).  Rates are warp instructions of the op per cycle per
// SM (active warps x B x ops per warp / cycles); cycles_per_op = cycles / (ops per warp)
// (chains = 1, B = 1: the chain step's latency, helpers included).
//
// Usage: mio OUTDIR     writes OUTDIR/warp.csv, OUTDIR/ldc.csv
//        mio ncu        the profiled points, one launch each (README.md)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o mio mio.cu
#include "../../../../calibrate/common.cuh"

#include <cstring>
#include <string>

enum { W_MATCH, W_BALLOT, W_REDUX, W_SHFL, W_POPC, W_FLO, W_BREV };
static const char *kW[] = {"match_any", "vote_ballot", "redux_sum", "shfl_bfly", "popc", "flo", "brev"};

template <int OP> __device__ __forceinline__ void wop(unsigned &x, unsigned key, unsigned lane, unsigned z) {
  if (OP == W_MATCH) {
    unsigned k = key ^ (x & z);
    asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(x) : "r"(k));
  } else if (OP == W_BALLOT) {
    unsigned k = (x ^ lane) & 1u;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
                 : "=r"(x)
                 : "r"(k));
  } else if (OP == W_REDUX) {
    asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(x) : "r"(x));
  } else if (OP == W_SHFL) {
    asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=r"(x) : "r"(x));
  } else if (OP == W_POPC) {
    asm volatile("popc.b32 %0, %1;" : "=r"(x) : "r"(x));
  } else if (OP == W_FLO) {
    asm volatile("bfind.u32 %0, %1;" : "=r"(x) : "r"(x));
  } else {
    asm volatile("brev.b32 %0, %1;" : "=r"(x) : "r"(x));
  }
}

template <int A, int B, int ILP>
__global__ void k_warp(float *out, Rec *rec, int iters, unsigned keymask, unsigned z, unsigned act) {
  extern __shared__ char pad_[];
  const unsigned lane = threadIdx.x & 31, key = lane & keymask;
  const int n = (threadIdx.x >> 5) < act ? iters : 0; // warps >= act of the CTA idle
  unsigned x[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++)
    x[k] = (threadIdx.x + 1) * 2654435761u + k * 0x9e3779b9u;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < n; i++)
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
      for (int k = 0; k < ILP; k++) {
        if (k < (ILP + 1) / 2)
          wop<A>(x[k], key, lane, z);
        else
          wop<B>(x[k], key, lane, z);
      }
  rec_end(rec, t0);
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s += x[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = __uint_as_float(s);
  if (s == 0x12345678u)
    out[0] = (float)pad_[0];
}

// The whole user constant bank: 64 KiB.
__constant__ unsigned ctab[16384];
static const unsigned kStep = 268; // bytes an access moves on (67 words)

template <int ILP>
__global__ void k_ldc(float *out, Rec *rec, int iters, unsigned z, unsigned dmask, unsigned strideb, unsigned maskb,
                      unsigned act) {
  extern __shared__ char pad_[];
  const int n = (threadIdx.x >> 5) < act ? iters : 0; // warps >= act of the CTA idle
  const unsigned lane = threadIdx.x & 31, gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned off = (lane & dmask) * strideb;
  unsigned p[ILP], v[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++) {
    p[k] = gw * 3988u + k * 16396u + off;
    v[k] = 0;
  }
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < n; i++) {
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
      for (int k = 0; k < ILP; k++) {
        unsigned a = (p[k] + j * kStep + (v[k] & z)) & maskb;
        v[k] = ctab[a >> 2];
      }
#pragma unroll
    for (int k = 0; k < ILP; k++)
      p[k] += 16 * kStep;
  }
  rec_end(rec, t0);
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s += v[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = __uint_as_float(s);
  if (s == 0x12345678u)
    out[0] = (float)pad_[0];
}

// A uniform index: the address depends on the loop counter and the CTA only.
__global__ void k_ldcu(float *out, Rec *rec, int iters, unsigned maskb) {
  extern __shared__ char pad_[];
  unsigned v[8];
#pragma unroll
  for (int k = 0; k < 8; k++)
    v[k] = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
      for (int k = 0; k < 8; k++) {
        unsigned a = ((unsigned)(i * 16 + j) * kStep + blockIdx.x * 3988u + k * 16396u) & maskb;
        v[k] += ctab[a >> 2];
      }
  rec_end(rec, t0);
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < 8; k++)
    s += v[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = __uint_as_float(s);
  if (s == 0x12345678u)
    out[0] = (float)pad_[0];
}

static const double kTarget = 200000.0; // cycles a point's launch aims at
static int g_reps = 3;

// One point: a pilot launch at `pilot` iterations, then iterations for kTarget cycles, the
// median of g_reps launches after a warm-up.  `launch(grid, smem, iters)`.
template <typename K, typename L>
static void point(FILE *f, const std::string &params, K kernel, int b, int act, int pilot, double ops_per_iter,
                  L launch) {
  cudaFuncAttributes at;
  CK(cudaFuncGetAttributes(&at, kernel));
  size_t smem = smem_for_blocks(kernel, 128, b);
  int grid = b * g_sms;
  Span p = run_wave(grid, smem, [&](int g, size_t sm) { launch(g, sm, pilot); }, d_rec, 1);
  int iters = (int)std::max(1.0, std::min(65536.0, pilot * kTarget / std::max(p.cycles, 1.0)));
  Span s = run_wave(grid, smem, [&](int g, size_t sm) { launch(g, sm, iters); }, d_rec, g_reps);
  double ops = ops_per_iter * iters; // per warp
  fprintf(f, "%s,%d,%d,%d,%d,%d,%.0f,%.6g,%.4f,%.0f,%.0f,%d,%d\n", params.c_str(), act, at.numRegs, b, 4 * b, iters,
          s.cycles, (double)act * b * ops / s.cycles, s.cycles / ops, s.lo, s.hi, s.blocks_min, s.blocks_max);
  fflush(f);
}

template <int A, int B, int ILP> static void warp_curve(FILE *f, unsigned keys, unsigned act = 4) {
  for (int b = 1; b <= 16; b++)
    point(f, std::string(kW[A]) + "," + kW[B] + "," + std::to_string(keys) + "," + std::to_string(ILP),
          k_warp<A, B, ILP>, b, (int)act, ILP == 1 ? 16 : 2, 16.0 * ILP, [&](int g, size_t sm, int it) {
            k_warp<A, B, ILP><<<g, 128, sm>>>(d_out, d_rec, it, keys - 1, 0u, act);
          });
}

template <int ILP>
static void ldc_curve(FILE *f, unsigned table, unsigned stride, unsigned distinct, unsigned act = 4) {
  for (int b = 1; b <= 16; b++)
    point(f, "reg," + std::to_string(table) + "," + std::to_string(stride) + "," + std::to_string(distinct) + "," +
                 std::to_string(ILP),
          k_ldc<ILP>, b, (int)act, ILP == 1 ? 2 : 1, 16.0 * ILP, [&](int g, size_t sm, int it) {
            k_ldc<ILP><<<g, 128, sm>>>(d_out, d_rec, it, 0u, distinct - 1, stride, table - 4, act);
          });
}

static void ldcu_curve(FILE *f, unsigned table) {
  for (int b = 1; b <= 16; b++)
    point(f, "uniform," + std::to_string(table) + ",0,1,8", k_ldcu, b, 4, 1, 16.0 * 8,
          [&](int g, size_t sm, int it) { k_ldcu<<<g, 128, sm>>>(d_out, d_rec, it, table - 4); });
}

// One launch of kernel at B = 8 (for Nsight Compute).
template <typename K, typename L> static void once(K kernel, L launch) {
  size_t smem = smem_for_blocks(kernel, 128, 8);
  launch(8 * g_sms, smem);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mio OUTDIR | mio ncu\n");
    return 2;
  }
  harness_init("mio");
  {
    std::vector<unsigned> h(16384);
    for (unsigned i = 0; i < 16384; i++)
      h[i] = i * 2654435761u;
    CK(cudaMemcpyToSymbol(ctab, h.data(), h.size() * 4));
  }
  if (!strcmp(argv[1], "ncu")) {
    // B = 8: MATCH with 32 and 1 distinct keys, REDUX, ballot (8 streams); LDC with 32 and 1
    // distinct addresses in a 1 KiB table and 32 in a 64 KiB one (8 streams).
    once(k_warp<W_MATCH, W_MATCH, 8>, [](int g, size_t sm) { k_warp<W_MATCH, W_MATCH, 8><<<g, 128, sm>>>(d_out, d_rec, 8, 31u, 0u, 4u); });
    once(k_warp<W_MATCH, W_MATCH, 8>, [](int g, size_t sm) { k_warp<W_MATCH, W_MATCH, 8><<<g, 128, sm>>>(d_out, d_rec, 8, 0u, 0u, 4u); });
    once(k_warp<W_REDUX, W_REDUX, 8>, [](int g, size_t sm) { k_warp<W_REDUX, W_REDUX, 8><<<g, 128, sm>>>(d_out, d_rec, 8, 31u, 0u, 4u); });
    once(k_warp<W_BALLOT, W_BALLOT, 8>, [](int g, size_t sm) { k_warp<W_BALLOT, W_BALLOT, 8><<<g, 128, sm>>>(d_out, d_rec, 8, 31u, 0u, 4u); });
    once(k_ldc<8>, [](int g, size_t sm) { k_ldc<8><<<g, 128, sm>>>(d_out, d_rec, 2, 0u, 31u, 4u, 1024u - 4, 4u); });
    once(k_ldc<8>, [](int g, size_t sm) { k_ldc<8><<<g, 128, sm>>>(d_out, d_rec, 2, 0u, 0u, 4u, 1024u - 4, 4u); });
    once(k_ldc<8>, [](int g, size_t sm) { k_ldc<8><<<g, 128, sm>>>(d_out, d_rec, 2, 0u, 31u, 32u, 65536u - 4, 4u); });
    printf("mio ncu done\n");
    return 0;
  }
  const char *tail = "regs,blocks_per_sm,resident_warps,iters,cycles,warp_ops_per_cycle_per_sm,cycles_per_op,"
                     "cycles_min,cycles_max,blocks_min,blocks_max";
  FILE *f = open_csv(argv[1], "warp.csv", (std::string("op_a,op_b,distinct_keys,chains,active_warps,") + tail).c_str());
  for (unsigned keys : {1u, 2u, 8u, 32u}) {
    warp_curve<W_MATCH, W_MATCH, 1>(f, keys);
    warp_curve<W_MATCH, W_MATCH, 8>(f, keys);
  }
  warp_curve<W_BALLOT, W_BALLOT, 1>(f, 32);
  warp_curve<W_BALLOT, W_BALLOT, 8>(f, 32);
  warp_curve<W_REDUX, W_REDUX, 1>(f, 32);
  warp_curve<W_REDUX, W_REDUX, 8>(f, 32);
  warp_curve<W_SHFL, W_SHFL, 1>(f, 32);
  warp_curve<W_SHFL, W_SHFL, 8>(f, 32);
  warp_curve<W_POPC, W_POPC, 1>(f, 32);
  warp_curve<W_POPC, W_POPC, 8>(f, 32);
  warp_curve<W_FLO, W_FLO, 1>(f, 32);
  warp_curve<W_FLO, W_FLO, 8>(f, 32);
  warp_curve<W_BREV, W_BREV, 1>(f, 32);
  warp_curve<W_BREV, W_BREV, 8>(f, 32);
  // pairs (8 streams, 4 of each): which ops share a unit
  warp_curve<W_MATCH, W_SHFL, 8>(f, 32);
  warp_curve<W_REDUX, W_SHFL, 8>(f, 32);
  warp_curve<W_BALLOT, W_SHFL, 8>(f, 32);
  warp_curve<W_MATCH, W_REDUX, 8>(f, 32);
  warp_curve<W_BALLOT, W_REDUX, 8>(f, 32);
  warp_curve<W_FLO, W_POPC, 8>(f, 32);
  warp_curve<W_BREV, W_POPC, 8>(f, 32);
  warp_curve<W_BREV, W_FLO, 8>(f, 32);
  // one active warp per CTA (warp 0; the other three idle): a unit per SMSP or per SM?
  warp_curve<W_MATCH, W_MATCH, 8>(f, 32, 1);
  warp_curve<W_MATCH, W_MATCH, 8>(f, 1, 1);
  warp_curve<W_BALLOT, W_BALLOT, 8>(f, 32, 1);
  warp_curve<W_REDUX, W_REDUX, 8>(f, 32, 1);
  warp_curve<W_SHFL, W_SHFL, 8>(f, 32, 1);
  warp_curve<W_POPC, W_POPC, 8>(f, 32, 1);
  warp_curve<W_FLO, W_FLO, 8>(f, 32, 1);
  fclose(f);
  printf("warp done\n");
  fflush(stdout);
  FILE *g = open_csv(argv[1], "ldc.csv", (std::string("mode,table_bytes,stride_bytes,distinct,chains,active_warps,") + tail).c_str());
  for (unsigned table : {1024u, 16384u, 65536u}) {
    for (unsigned stride : {4u, 32u})
      for (unsigned d : {1u, 2u, 4u, 8u, 16u, 32u}) {
        if (stride == 32u && d == 1u)
          continue; // the same addresses as stride 4
        ldc_curve<1>(g, table, stride, d);
        ldc_curve<8>(g, table, stride, d);
      }
    ldcu_curve(g, table);
  }
  ldc_curve<8>(g, 1024u, 4u, 32u, 1); // one active warp per CTA
  ldc_curve<8>(g, 1024u, 4u, 1u, 1);
  fclose(g);
  printf("mio done\n");
  return 0;
}
