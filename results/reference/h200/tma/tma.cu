// tma.cu - the texture path, TMA bulk copies on an mbarrier, and memory fences / cluster
// barriers on the H200 (issue 24: the mechanisms under real12's tex, bulk and dsmem,
// results/reference/h200/real12/).
//
// tex.csv (k_tex): each thread runs `chains` chains of one fetch kind (chains = 1: a dependent
// chain, the next coordinate adds r * z with z = 0 at run time, one FFMA (fetch: FMUL + IADD); 8: independent
// streams), 8 x chains fetches per iteration:
//   point   tex2D<float> of a float cudaArray, cudaFilterModePoint    TEX (2D)
//   linear  the same with cudaFilterModeLinear (bilinear, 4 texels)   TEX (2D)
//   fetch   tex1Dfetch<float> of a linear float buffer                TLD
// footprint `l1`: a 64 x 64 float image (16 KiB; the fetch buffer 16 KiB), stays in L1/TEX;
// `l2`: 2048 x 2048 floats (16 MiB), rows visited in a scattered order so that a warp's fetch
// touches lines no recent fetch touched: L2 hits.  A warp's 32 lanes read 32 adjacent texels of
// one row (coordinates + 0.75: bilinear weights 0.25 / 0.75, point picks the texel), so a
// bilinear fetch touches 33 x 2 texels.
//
// bulk.csv (k_bulk): thread 0 of each CTA keeps `inflight` (1, 2, 4, 8) cp.async.bulk
// global -> shared copies of `bytes` (1, 2, 8 KiB) in flight, each completing on its own
// mbarrier (mbarrier.arrive.expect_tx, complete_tx::bytes); every thread of the CTA waits on the
// oldest (mbarrier.try_wait.parity in a loop, as real12's bulk), a __syncthreads, and thread 0
// refills that buffer.  The buffers are the dynamic shared memory that pins B (a point is
// skipped when inflight x bytes does not fit).  src `l2`: every CTA walks the same 256 KiB
// (L2 hits); `dram`: each CTA walks its own part of 1 GiB.  cycles_per_op = cycles per copy a
// CTA waited for (inflight = 1, B = 1: issue + completion latency + wait + barrier);
// bytes_per_cycle_per_sm = B x copies x bytes / cycles.
//
// fence.csv (k_fence): 8 per iteration of, in every thread:
//   acq_rel   fence.acq_rel.gpu                 (MEMBAR.ALL.GPU?)
//   sc        fence.sc.gpu                      (MEMBAR.SC.GPU?)
//   threadfence  __threadfence()
//   store     st.global.u32 alone (the stores of the next two, as baseline)
//   store_acq_rel  st.global.u32 then fence.acq_rel.gpu (a store outstanding at each fence)
//   store_sc  st.global.u32 then fence.sc.gpu
// cluster.csv (k_cluster): 8 per iteration of barrier.cluster.arrive (release, the default:
// what cooperative_groups' cluster.sync() emits) + barrier.cluster.wait, or
// barrier.cluster.arrive.relaxed + wait, or __syncthreads (bar), launched with cluster
// dimension 2 or 1 (cudaLaunchKernelEx).  Clusters of 2 may not place B CTAs on every SM
// (blocks_min / blocks_max).
//
// Harness: calibrate/common.cuh, as ../mio/ and ../casl/: 128-thread CTAs, B = 1..16 CTAs per
// SM pinned by dynamic shared-memory padding, one wave of B x 132 CTAs, per-SM busy span from
// clock64 (mean over SMs), median of 3 launches after a warm-up; iterations per point from a
// pilot launch, set to give about 200,000 cycles.  Rates are warp instructions (copies for
// bulk) per cycle per SM; cycles_per_op = cycles / (ops per warp) (bulk: per CTA).
//
// Usage: tma OUTDIR     writes OUTDIR/{tex,bulk,fence,cluster}.csv
//        tma ncu        the profiled points, one launch each (README.md)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o tma tma.cu
#include "../../../../calibrate/common.cuh"

#include <cstring>
#include <string>

// ------------------------------------------------------------------ tex
enum { T_POINT, T_LINEAR, T_FETCH };
static const char *kT[] = {"point", "linear", "fetch"};

template <int KIND, int ILP>
__global__ void k_tex(float *out, Rec *rec, int iters, cudaTextureObject_t t, unsigned wmask, unsigned hmask,
                      unsigned vmul, float z) {
  extern __shared__ char pad_[];
  const unsigned lane = threadIdx.x & 31, gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  float r[ILP];
#pragma unroll
  for (int k = 0; k < ILP; k++)
    r[k] = 0.f;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
      for (int k = 0; k < ILP; k++) {
        unsigned s = (unsigned)((i * 8 + j) * ILP + k);
        unsigned vv = (s * vmul + gw * 131u) & hmask;
        unsigned uu = (s * 1856u + gw * 64u) & wmask & ~31u;
        if (KIND == T_FETCH) {
          int idx = (int)(vv * (wmask + 1) + uu + lane + __float_as_uint(r[k] * z));
          r[k] += tex1Dfetch<float>(t, idx);
        } else {
          float u = (float)(uu + lane) + 0.75f + r[k] * z, v = (float)vv + 0.75f;
          r[k] += tex2D<float>(t, u, v);
        }
      }
  rec_end(rec, t0);
  float s = 0;
#pragma unroll
  for (int k = 0; k < ILP; k++)
    s += r[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  if (s == 1234.5f)
    out[0] = (float)pad_[0];
}

// ------------------------------------------------------------------ bulk
__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void bulk_issue(unsigned dst, const char *src, unsigned bytes, unsigned bar) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void bar_wait(unsigned bar, unsigned parity) {
  unsigned ok;
  do {
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, "
                 "p;\n\t}"
                 : "=r"(ok)
                 : "r"(bar), "r"(parity)
                 : "memory");
  } while (!ok);
}

// copies = iters x 8 per CTA; src window `wmask + 1` bytes from src + base (per CTA or shared).
__global__ void k_bulk(float *out, Rec *rec, int iters, const char *src, unsigned long long wmask, unsigned long long cta_stride,
                       unsigned bytes, unsigned inflight) {
  extern __shared__ __align__(128) char dyn_[];
  __shared__ __align__(8) unsigned long long bar[8];
  if (threadIdx.x == 0) {
    for (unsigned k = 0; k < 8; k++)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bar[k])) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  const char *base = src + blockIdx.x * cta_stride;
  const unsigned dbase = sa(dyn_);
  const int n = iters * 8;
  unsigned long long t0 = rec_begin();
  if (threadIdx.x == 0)
    for (unsigned k = 0; k < inflight && (int)k < n; k++)
      bulk_issue(dbase + k * bytes, base + (((unsigned long long)k * bytes) & wmask), bytes, sa(&bar[k]));
#pragma unroll 1
  for (int c = 0; c < n; c++) {
    unsigned k = (unsigned)c % inflight;
    bar_wait(sa(&bar[k]), ((unsigned)c / inflight) & 1u);
    __syncthreads(); // every warp saw the phase before its buffer refills
    int nc = c + (int)inflight;
    if (threadIdx.x == 0 && nc < n)
      bulk_issue(dbase + k * bytes, base + (((unsigned long long)nc * bytes) & wmask), bytes, sa(&bar[k]));
  }
  rec_end(rec, t0);
  float s = (float)dyn_[threadIdx.x * 4];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// ------------------------------------------------------------------ fence
enum { F_ACQREL, F_SC, F_THREADFENCE, F_STORE, F_STORE_ACQREL, F_STORE_SC };
static const char *kF[] = {"acq_rel", "sc", "threadfence", "store", "store_acq_rel", "store_sc"};

template <int MODE> __global__ void k_fence(float *out, Rec *rec, int iters, unsigned mask) {
  extern __shared__ char pad_[];
  const unsigned gt = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
  unsigned *o = (unsigned *)out;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) {
      if (MODE == F_STORE || MODE == F_STORE_ACQREL || MODE == F_STORE_SC) {
        unsigned a = (gt + (unsigned)(i * 8 + j) * nt) & mask;
        asm volatile("st.global.u32 [%0], %1;" ::"l"(o + a), "r"(gt) : "memory");
      }
      if (MODE == F_ACQREL || MODE == F_STORE_ACQREL)
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
      if (MODE == F_SC || MODE == F_STORE_SC)
        asm volatile("fence.sc.gpu;" ::: "memory");
      if (MODE == F_THREADFENCE)
        __threadfence();
    }
  rec_end(rec, t0);
  if (gt == 0x7fffffffu)
    out[1] = (float)pad_[0];
}

// ------------------------------------------------------------------ cluster barrier
enum { C_ARRIVE, C_RELAXED, C_BAR };
static const char *kC[] = {"arrive_wait", "relaxed_wait", "bar_sync"};

template <int MODE> __global__ void k_cluster(float *out, Rec *rec, int iters) {
  extern __shared__ char pad_[];
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) {
      if (MODE == C_ARRIVE)
        asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
      else if (MODE == C_RELAXED)
        asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
      else
        __syncthreads();
    }
  rec_end(rec, t0);
  if (iters < 0)
    out[0] = (float)pad_[0];
}

// ------------------------------------------------------------------ host
static const double kTarget = 200000.0; // cycles a point's launch aims at
static int g_reps = 3;

// One point: a pilot launch at `pilot` iterations, then iterations for kTarget cycles, the
// median of g_reps launches after a warm-up.  `launch(grid, smem, iters)`; ops_per_iter per
// warp (per CTA for bulk), `warps` warps (CTAs: 1) of each CTA count; `bytes` per op (0: none).
template <typename K, typename L>
static bool point(FILE *f, const std::string &params, K kernel, int b, int pilot, double ops_per_iter, double warps,
                  double bytes, size_t need_smem, L launch) {
  cudaFuncAttributes at;
  CK(cudaFuncGetAttributes(&at, kernel));
  int bmax = 0; // registers may allow fewer than b CTAs: no point
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bmax, kernel, 128, 0));
  if (bmax < b)
    return false;
  size_t smem = smem_for_blocks(kernel, 128, b);
  if (smem < need_smem)
    return false;
  int grid = b * g_sms;
  Span p = run_wave(grid, smem, [&](int g, size_t sm) { launch(g, sm, pilot); }, d_rec, 1);
  int iters = (int)std::max(1.0, std::min(65536.0, pilot * kTarget / std::max(p.cycles, 1.0)));
  Span s = run_wave(grid, smem, [&](int g, size_t sm) { launch(g, sm, iters); }, d_rec, g_reps);
  double ops = ops_per_iter * iters;
  double rate = warps * b * ops / s.cycles;
  fprintf(f, "%s,%d,%d,%d,%d,%.0f,%.6g,%.4f,%.4f,%.0f,%.0f,%d,%d\n", params.c_str(), at.numRegs, b, 4 * b, iters,
          s.cycles, rate, s.cycles / ops, rate * bytes, s.lo, s.hi, s.blocks_min, s.blocks_max);
  fflush(f);
  return true;
}

static const char *kTail = "regs,blocks_per_sm,resident_warps,iters,cycles,ops_per_cycle_per_sm,cycles_per_op,"
                           "bytes_per_cycle_per_sm,cycles_min,cycles_max,blocks_min,blocks_max";

static cudaTextureObject_t g_tex[2][3]; // [footprint l1/l2][point, linear, fetch]
static const unsigned kDim[2] = {64, 2048};

static void make_textures() {
  for (int fp = 0; fp < 2; fp++) {
    unsigned d = kDim[fp];
    std::vector<float> img((size_t)d * d);
    for (size_t i = 0; i < img.size(); i++)
      img[i] = 0.001f * (float)((i * 2654435761u) % 1000u);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CK(cudaMallocArray(&arr, &cd, d, d));
    CK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), d * 4, d * 4, d, cudaMemcpyHostToDevice));
    for (int m = 0; m < 2; m++) {
      cudaResourceDesc rd = {};
      rd.resType = cudaResourceTypeArray;
      rd.res.array.array = arr;
      cudaTextureDesc td = {};
      td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
      td.filterMode = m ? cudaFilterModeLinear : cudaFilterModePoint;
      td.readMode = cudaReadModeElementType;
      td.normalizedCoords = 0;
      CK(cudaCreateTextureObject(&g_tex[fp][m], &rd, &td, nullptr));
    }
    float *lin;
    CK(cudaMalloc(&lin, img.size() * 4));
    CK(cudaMemcpy(lin, img.data(), img.size() * 4, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = lin;
    rd.res.linear.desc = cd;
    rd.res.linear.sizeInBytes = img.size() * 4;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    CK(cudaCreateTextureObject(&g_tex[fp][2], &rd, &td, nullptr));
  }
}

template <int KIND, int ILP> static void tex_launch(int g, size_t sm, int it, int fp) {
  unsigned d = kDim[fp];
  k_tex<KIND, ILP><<<g, 128, sm>>>(d_out, d_rec, it, g_tex[fp][KIND], d - 1, d - 1, fp ? 613u : 13u, 0.f);
}
template <int KIND, int ILP> static void tex_curve(FILE *f, int fp) {
  for (int b = 1; b <= 16; b++)
    point(f, std::string(kT[KIND]) + "," + (fp ? "l2" : "l1") + "," + std::to_string(ILP), k_tex<KIND, ILP>, b,
          ILP == 1 ? 8 : 2, 8.0 * ILP, 4, 0, 0, [&](int g, size_t sm, int it) { tex_launch<KIND, ILP>(g, sm, it, fp); });
}

static char *g_src; // 1 GiB
static const unsigned long long kSrc = 1ull << 30;
static void bulk_launch(int g, size_t sm, int it, bool dram, unsigned bytes, unsigned inflight) {
  unsigned long long per = dram ? (kSrc / (unsigned long long)g) & ~0xffffull : 0;
  unsigned long long wmask = dram ? (1ull << 62) - 1 : (256ull << 10) - 1;
  // dram: a CTA's window is its own part; 8 x iters copies must fit in it
  if (dram) {
    unsigned long long w = 1;
    while (w * 2 <= per)
      w *= 2;
    wmask = w - 1;
  }
  k_bulk<<<g, 128, sm>>>(d_out, d_rec, it, g_src, wmask, per, bytes, inflight);
}
static void bulk_curve(FILE *f, bool dram, unsigned bytes, unsigned inflight) {
  for (int b = 1; b <= 16; b++)
    point(f, std::string(dram ? "dram" : "l2") + "," + std::to_string(bytes) + "," + std::to_string(inflight), k_bulk, b,
          4, 8.0, 1, bytes, (size_t)bytes * inflight,
          [&](int g, size_t sm, int it) { bulk_launch(g, sm, it, dram, bytes, inflight); });
}

template <int MODE> static void fence_curve(FILE *f) {
  for (int b = 1; b <= 16; b++)
    point(f, kF[MODE], k_fence<MODE>, b, 4, 8.0, 4, 0, 0,
          [&](int g, size_t sm, int it) { k_fence<MODE><<<g, 128, sm>>>(d_out, d_rec, it, (16u << 20) - 1); });
}

template <int MODE> static void cluster_launch(int g, size_t sm, int it, int cdim) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(g);
  cfg.blockDim = dim3(128);
  cfg.dynamicSmemBytes = sm;
  cfg.stream = 0;
  cudaLaunchAttribute la[1];
  la[0].id = cudaLaunchAttributeClusterDimension;
  la[0].val.clusterDim.x = cdim;
  la[0].val.clusterDim.y = 1;
  la[0].val.clusterDim.z = 1;
  cfg.attrs = la;
  cfg.numAttrs = 1;
  CK(cudaLaunchKernelEx(&cfg, k_cluster<MODE>, d_out, d_rec, it));
}
template <int MODE> static void cluster_curve(FILE *f, int cdim) {
  for (int b = 1; b <= 16; b++)
    point(f, std::string(kC[MODE]) + "," + std::to_string(cdim), k_cluster<MODE>, b, 4, 8.0, 4, 0, 0,
          [&](int g, size_t sm, int it) { cluster_launch<MODE>(g, sm, it, cdim); });
}

// One launch of `launch(grid, smem)` at B = 8 (for Nsight Compute).
template <typename K, typename L> static void once(K kernel, L launch) {
  size_t smem = smem_for_blocks(kernel, 128, 8);
  launch(8 * g_sms, smem);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: tma OUTDIR | tma ncu\n");
    return 2;
  }
  harness_init("tma");
  make_textures();
  CK(cudaMalloc(&g_src, kSrc));
  CK(cudaMemset(g_src, 1, kSrc));
  if (!strcmp(argv[1], "ncu")) {
    // B = 8: bilinear l2 8 chains, bilinear l1 dependent, point l1 8 chains; bulk 2 KiB dram
    // 2 in flight, 8 KiB l2 1 in flight; store + acq_rel fence; cluster arrive/wait of 2.
    once(k_tex<T_LINEAR, 8>, [](int g, size_t sm) { tex_launch<T_LINEAR, 8>(g, sm, 4, 1); });
    once(k_tex<T_LINEAR, 1>, [](int g, size_t sm) { tex_launch<T_LINEAR, 1>(g, sm, 16, 0); });
    once(k_tex<T_POINT, 8>, [](int g, size_t sm) { tex_launch<T_POINT, 8>(g, sm, 4, 0); });
    once(k_bulk, [](int g, size_t sm) { bulk_launch(g, sm, 8, true, 2048, 2); });
    once(k_bulk, [](int g, size_t sm) { bulk_launch(g, sm, 8, false, 8192, 1); });
    once(k_fence<F_STORE_ACQREL>, [](int g, size_t sm) { k_fence<F_STORE_ACQREL><<<g, 128, sm>>>(d_out, d_rec, 8, (16u << 20) - 1); });
    once(k_cluster<C_ARRIVE>, [](int g, size_t sm) { cluster_launch<C_ARRIVE>(g, sm, 8, 2); });
    printf("tma ncu done\n");
    return 0;
  }
  FILE *f = open_csv(argv[1], "tex.csv", (std::string("kind,footprint,chains,") + kTail).c_str());
  for (int fp = 0; fp < 2; fp++) {
    tex_curve<T_POINT, 1>(f, fp);
    tex_curve<T_POINT, 8>(f, fp);
    tex_curve<T_LINEAR, 1>(f, fp);
    tex_curve<T_LINEAR, 8>(f, fp);
    tex_curve<T_FETCH, 1>(f, fp);
    tex_curve<T_FETCH, 8>(f, fp);
  }
  fclose(f);
  printf("tex done\n");
  fflush(stdout);
  f = open_csv(argv[1], "bulk.csv", (std::string("src,bytes,inflight,") + kTail).c_str());
  for (int dram = 0; dram < 2; dram++)
    for (unsigned bytes : {1024u, 2048u, 8192u})
      for (unsigned k : {1u, 2u, 4u, 8u})
        bulk_curve(f, dram, bytes, k);
  fclose(f);
  printf("bulk done\n");
  fflush(stdout);
  f = open_csv(argv[1], "fence.csv", (std::string("mode,") + kTail).c_str());
  fence_curve<F_ACQREL>(f);
  fence_curve<F_SC>(f);
  fence_curve<F_THREADFENCE>(f);
  fence_curve<F_STORE>(f);
  fence_curve<F_STORE_ACQREL>(f);
  fence_curve<F_STORE_SC>(f);
  fclose(f);
  printf("fence done\n");
  fflush(stdout);
  f = open_csv(argv[1], "cluster.csv", (std::string("mode,cluster,") + kTail).c_str());
  cluster_curve<C_ARRIVE>(f, 2);
  cluster_curve<C_RELAXED>(f, 2);
  cluster_curve<C_BAR>(f, 2);
  cluster_curve<C_ARRIVE>(f, 1);
  fclose(f);
  printf("tma done\n");
  return 0;
}
