// dsmem.cu - distributed shared memory on the H200 (issue 24: the mechanism under real12's
// dsmem, ../real12/kernels12.cu, whose peer read is cooperative_groups' cluster.map_shared_rank
// and a plain load: UPRMT of SR_CgaCtaId into the shared window, then a generic LD.E).
//
// Every CTA has 1024 words of static shared memory; `target` says whose words a thread reads:
//   lds     its own, through a shared-space pointer                 LDS
//   own     its own, through cluster.map_shared_rank(s, own rank)   generic LD.E
//   peer    the peer's (rank ^ 1), map_shared_rank                  generic LD.E
//   peer32  the peer's through mapa.shared::cluster + ld.shared::cluster (32-bit address)
// chain.csv (k_chain): each thread follows a dependent chain through the words (word i holds
//   the byte offset of word i + 128 mod 1024: lanes hit 32 consecutive words, no conflict),
//   8 loads an iteration; cycles_per_op = cycles a dependent step (load + address add).
// load.csv (k_load): 8 independent loads an iteration per thread, lane-consecutive words
//   (128 B a warp-load), summed; ops_per_cycle_per_sm = warp-loads per cycle per SM.
// store.csv (k_store): 8 independent stores an iteration per thread, lane-consecutive words.
// Every kernel fills its words, cluster.sync(), times its loop, cluster.sync() (the peer must
// not exit while read), and records the SM its peer ran on (read through the peer's shared
// memory): same_sm = fraction of CTAs whose peer shared their SM.
// placement.csv: the peer chain at B = 8..16 (clusters of 2 and 4): the CTAs each SM ran
//   (blocks_min / blocks_max), the most at once on one SM (clock64 intervals), the CTAs that
//   started after another CTA on their SM had ended (a second wave), the SMs used, and
//   cudaOccupancyMaxActiveClusters; cta_b{9,16}_c2.csv: every CTA's rank, SM, start, end.
//
// Harness: calibrate/common.cuh as ../tma/: 128-thread CTAs, B = 1, 2, 4, 8 CTAs per SM pinned
// by dynamic shared-memory padding, one wave of B x 132 CTAs launched in clusters of 2 or 4
// (cudaLaunchKernelEx), per-SM busy span from clock64 (mean over SMs), median of 3 launches
// after a warm-up; iterations from a pilot launch for about 150,000 cycles.
//
// Usage: dsmem OUTDIR     writes OUTDIR/{chain,load,store,placement}.csv, cta_*.csv
//        dsmem ncu        the profiled points, one launch each (README.md)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o dsmem dsmem.cu
#include "../../../../calibrate/common.cuh"

#include <cooperative_groups.h>
#include <cstring>
#include <string>
namespace cg = cooperative_groups;

enum { T_LDS, T_OWN, T_PEER, T_PEER32 };
static const char *kT[] = {"lds", "own", "peer", "peer32"};
static const unsigned kWords = 1024;

static unsigned *d_peer_sm; // one word per CTA: the SM its peer ran on

__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// Fills s (word i = byte offset of word i + 128), syncs the cluster, records the peer's SM.
__device__ __forceinline__ void prologue(cg::cluster_group &cl, unsigned *s, unsigned *peer_sm) {
  for (unsigned i = threadIdx.x; i < kWords; i += blockDim.x)
    s[i] = ((i + 128u) & (kWords - 1)) * 4u;
  if (threadIdx.x == 0)
    s[kWords] = smid();
  cl.sync();
  if (threadIdx.x == 0) {
    unsigned *p = cl.map_shared_rank(s, cl.block_rank() ^ 1u);
    peer_sm[blockIdx.x] = p[kWords];
  }
}

template <int T> __device__ __forceinline__ unsigned ld_word(const char *g, unsigned s32, unsigned off) {
  unsigned v;
  if (T == T_LDS)
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(s32 + off));
  else if (T == T_PEER32)
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(s32 + off));
  else
    asm volatile("ld.u32 %0, [%1];" : "=r"(v) : "l"(g + off));
  return v;
}

// The base pointers of target T: g (generic) and s32 (shared or shared::cluster address).
template <int T>
__device__ __forceinline__ void bases(cg::cluster_group &cl, unsigned *s, const char *&g, unsigned &s32) {
  unsigned rank = cl.block_rank();
  g = (const char *)cl.map_shared_rank(s, T == T_OWN ? rank : rank ^ 1u);
  s32 = sa(s);
  if (T == T_PEER32)
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(s32) : "r"(sa(s)), "r"(rank ^ 1u));
}

template <int T> __global__ void k_chain(float *out, Rec *rec, unsigned *peer_sm, int iters) {
  extern __shared__ char pad_[];
  __shared__ unsigned s[kWords + 1];
  cg::cluster_group cl = cg::this_cluster();
  prologue(cl, s, peer_sm);
  const char *g;
  unsigned s32;
  bases<T>(cl, s, g, s32);
  unsigned off = threadIdx.x * 4u;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 8; j++)
      off = ld_word<T>(g, s32, off);
  rec_end(rec, t0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = (float)off;
  if (iters < 0)
    out[0] = (float)pad_[0];
  cl.sync();
}

template <int T> __global__ void k_load(float *out, Rec *rec, unsigned *peer_sm, int iters) {
  extern __shared__ char pad_[];
  __shared__ unsigned s[kWords + 1];
  cg::cluster_group cl = cg::this_cluster();
  prologue(cl, s, peer_sm);
  const char *g;
  unsigned s32;
  bases<T>(cl, s, g, s32);
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  unsigned acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) {
      unsigned w = (lane + 32u * (warp * 8u + (unsigned)j + 8u * (unsigned)i)) & (kWords - 1);
      acc[j] += ld_word<T>(g, s32, w * 4u);
    }
  rec_end(rec, t0);
  unsigned t = 0;
  for (int j = 0; j < 8; j++)
    t += acc[j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = (float)t;
  if (iters < 0)
    out[0] = (float)pad_[0];
  cl.sync();
}

template <int T> __global__ void k_store(float *out, Rec *rec, unsigned *peer_sm, int iters) {
  extern __shared__ char pad_[];
  __shared__ unsigned s[kWords + 1];
  cg::cluster_group cl = cg::this_cluster();
  prologue(cl, s, peer_sm);
  cl.sync(); // the peer's SM word is read before anyone overwrites words
  const char *gc;
  unsigned s32;
  bases<T>(cl, s, gc, s32);
  char *g = (char *)gc;
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) {
      unsigned w = (lane + 32u * (warp * 8u + (unsigned)j + 8u * (unsigned)i)) & (kWords - 1);
      unsigned v = (unsigned)i + (unsigned)j;
      if (T == T_LDS)
        asm volatile("st.shared.u32 [%0], %1;" ::"r"(s32 + w * 4u), "r"(v) : "memory");
      else if (T == T_PEER32)
        asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(s32 + w * 4u), "r"(v) : "memory");
      else
        asm volatile("st.u32 [%0], %1;" ::"l"(g + w * 4u), "r"(v) : "memory");
    }
  rec_end(rec, t0);
  if (iters < 0)
    out[0] = (float)pad_[0];
  cl.sync();
}

// ------------------------------------------------------------------ host
static const double kTarget = 150000.0; // cycles a point's launch aims at
static int g_reps = 3;

template <typename K> static void launch(K kernel, int g, size_t sm, int it, int cdim) {
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
  CK(cudaLaunchKernelEx(&cfg, kernel, d_out, d_rec, d_peer_sm, it));
}

template <typename K> static int max_clusters(K kernel, int g, size_t sm, int cdim) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(g);
  cfg.blockDim = dim3(128);
  cfg.dynamicSmemBytes = sm;
  cudaLaunchAttribute la[1];
  la[0].id = cudaLaunchAttributeClusterDimension;
  la[0].val.clusterDim.x = cdim;
  la[0].val.clusterDim.y = 1;
  la[0].val.clusterDim.z = 1;
  cfg.attrs = la;
  cfg.numAttrs = 1;
  int n = 0; // -1: the query failed (the point is still measured)
  if (cudaOccupancyMaxActiveClusters(&n, (void *)kernel, &cfg) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return n;
}

// Fraction of CTAs whose peer ran on their SM (last launch's records).
static double same_sm(int grid) {
  std::vector<Rec> r(grid);
  std::vector<unsigned> p(grid);
  CK(cudaMemcpy(r.data(), d_rec, grid * sizeof(Rec), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(p.data(), d_peer_sm, grid * sizeof(unsigned), cudaMemcpyDeviceToHost));
  int n = 0;
  for (int i = 0; i < grid; i++)
    n += r[i].sm == p[i];
  return (double)n / grid;
}

static const char *kTail = "regs,blocks_per_sm,resident_warps,iters,cycles,ops_per_cycle_per_sm,cycles_per_op,"
                           "bytes_per_cycle_per_sm,cycles_min,cycles_max,blocks_min,blocks_max,same_sm";

// One point: a pilot launch, iterations for kTarget cycles, the median of g_reps launches
// after a warm-up.  8 ops an iteration per warp, 4 warps a CTA, 128 bytes an op.
template <typename K> static int point(FILE *f, const char *target, K kernel, int b, int cdim) {
  cudaFuncAttributes at;
  CK(cudaFuncGetAttributes(&at, kernel));
  size_t smem = smem_for_blocks(kernel, 128, b);
  int grid = b * g_sms, pilot = 4;
  Span p = run_wave(grid, smem, [&](int g, size_t sm) { launch(kernel, g, sm, pilot, cdim); }, d_rec, 1);
  int iters = (int)std::max(1.0, std::min(65536.0, pilot * kTarget / std::max(p.cycles, 1.0)));
  Span s = run_wave(grid, smem, [&](int g, size_t sm) { launch(kernel, g, sm, iters, cdim); }, d_rec, g_reps);
  double ops = 8.0 * iters, rate = 4.0 * b * ops / s.cycles;
  fprintf(f, "%s,%d,%d,%d,%d,%d,%.0f,%.6g,%.4f,%.4f,%.0f,%.0f,%d,%d,%.4f\n", target, cdim, at.numRegs, b, 4 * b, iters,
          s.cycles, rate, s.cycles / ops, rate * 128.0, s.lo, s.hi, s.blocks_min, s.blocks_max, same_sm(grid));
  fflush(f);
  return iters;
}

template <int T> static void chain_curve(FILE *f, int cdim) {
  for (int b : {1, 2, 4, 8})
    point(f, kT[T], k_chain<T>, b, cdim);
}
template <int T> static void load_curve(FILE *f, int cdim) {
  for (int b : {1, 2, 4, 8})
    point(f, kT[T], k_load<T>, b, cdim);
}
template <int T> static void store_curve(FILE *f, int cdim) {
  for (int b : {1, 2, 4, 8})
    point(f, kT[T], k_store<T>, b, cdim);
}

static char *g_dir; // OUTDIR

// placement.csv: one row per (cluster, B), the peer chain at the iterations of its point.
static void placement(FILE *f, FILE *cf, int cdim, int b) {
  size_t smem = smem_for_blocks(k_chain<T_PEER>, 128, b);
  int grid = b * g_sms;
  int mc = max_clusters(k_chain<T_PEER>, grid, smem, cdim);
  int iters = point(f, "peer", k_chain<T_PEER>, b, cdim); // the last launch's records stay in d_rec
  std::vector<Rec> r(grid);
  std::vector<unsigned> ps(grid);
  CK(cudaMemcpy(r.data(), d_rec, grid * sizeof(Rec), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ps.data(), d_peer_sm, grid * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::vector<std::vector<int>> by(1024);
  for (int i = 0; i < grid; i++)
    by[r[i].sm & 1023].push_back(i);
  int used = 0, conc_max = 0, conc_min = 1 << 30, late = 0;
  for (auto &v : by) {
    if (v.empty())
      continue;
    used++;
    unsigned long long first_end = ~0ull;
    for (int i : v)
      first_end = std::min(first_end, r[i].t1);
    int cm = 0;
    for (int i : v) {
      late += r[i].t0 > first_end;
      int c = 0; // CTAs of this SM running at i's start
      for (int k : v)
        c += r[k].t0 <= r[i].t0 && r[i].t0 < r[k].t1;
      cm = std::max(cm, c);
    }
    conc_max = std::max(conc_max, cm);
    conc_min = std::min(conc_min, cm);
  }
  fprintf(f, "# placement cluster %d B %d: max_active_clusters %d (x %d = %d CTAs; one wave %d), sms_used %d, "
             "concurrent per SM %d..%d, ctas_after_a_first_end %d, iters %d\n",
          cdim, b, mc, cdim, mc * cdim, grid, used, conc_min, conc_max, late, iters);
  fprintf(cf, "%d,%d,%d,%d,%d,%d,%d,%d,%d\n", cdim, b, grid, mc, mc * cdim, used, conc_min, conc_max, late);
  fflush(cf);
  if (cdim == 2 && (b == 9 || b == 16)) {
    char name[64];
    snprintf(name, sizeof name, "cta_b%d_c%d.csv", b, cdim);
    FILE *o = open_csv(g_dir, name, "cta,rank,sm,peer_sm,t0,t1");
    for (int i = 0; i < grid; i++)
      fprintf(o, "%d,%d,%u,%u,%llu,%llu\n", i, i % cdim, r[i].sm, ps[i], r[i].t0, r[i].t1);
    fclose(o);
  }
}
// One launch at B = 8, clusters of 2 (for Nsight Compute).
template <typename K> static void once(K kernel, int it) {
  size_t smem = smem_for_blocks(kernel, 128, 8);
  launch(kernel, 8 * g_sms, smem, it, 2);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: dsmem OUTDIR | dsmem ncu\n");
    return 2;
  }
  harness_init("dsmem");
  CK(cudaMalloc(&d_peer_sm, 64 * 1024 * sizeof(unsigned)));
  if (!strcmp(argv[1], "ncu")) {
    once(k_chain<T_PEER>, 256);
    once(k_chain<T_OWN>, 256);
    once(k_load<T_PEER>, 256);
    once(k_store<T_PEER>, 256);
    printf("dsmem ncu done\n");
    return 0;
  }
  g_dir = argv[1];
  std::string head = std::string("target,cluster,") + kTail;
  FILE *f = open_csv(argv[1], "chain.csv", head.c_str());
  for (int c : {2, 4}) {
    chain_curve<T_LDS>(f, c);
    chain_curve<T_OWN>(f, c);
    chain_curve<T_PEER>(f, c);
    chain_curve<T_PEER32>(f, c);
  }
  fclose(f);
  f = open_csv(argv[1], "load.csv", head.c_str());
  for (int c : {2, 4}) {
    load_curve<T_LDS>(f, c);
    load_curve<T_OWN>(f, c);
    load_curve<T_PEER>(f, c);
    load_curve<T_PEER32>(f, c);
  }
  fclose(f);
  f = open_csv(argv[1], "store.csv", head.c_str());
  for (int c : {2, 4}) {
    store_curve<T_LDS>(f, c);
    store_curve<T_OWN>(f, c);
    store_curve<T_PEER>(f, c);
    store_curve<T_PEER32>(f, c);
  }
  fclose(f);
  f = open_csv(argv[1], "placement.csv", head.c_str());
  FILE *cf = open_csv(argv[1], "placement_summary.csv",
                      "cluster,blocks_per_sm,grid,max_active_clusters,max_active_ctas,sms_used,concurrent_min,concurrent_max,ctas_after_a_first_end");
  for (int c : {2, 4})
    for (int b = 8; b <= 16; b++)
      placement(f, cf, c, b);
  fclose(f);
  fclose(cf);
  printf("dsmem done\n");
  return 0;
}
