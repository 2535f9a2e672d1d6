// casl.cu - global compare-and-swap and local memory on the H200 (issue 24: the mechanisms
// under the held-out kernels cas and lmem of results/reference/h200/real11/).
//
// Every curve runs one wave of B x 132 CTAs of 128 threads, B = 1, 2, 4, 8, 12, 16 CTAs per SM
// pinned by dynamic shared-memory padding (carveout at its maximum, as real11: L1 keeps what
// the carveout leaves), per-SM busy span from clock64 (calibrate/common.cuh), median of 11
// launches after a warm-up.  Work per CTA is the same at every B.
//
// Global CAS (ATOMG.E.CAS.STRONG.GPU, returned value used):
//   cas_chain  N = 1 or 4 independent dependent chains per thread, each on the thread's own
//              private word (v = atomicCAS(a, v, v + 1) + 1: always succeeds, the next compare
//              waits for the returned value).  layout line: lane l on word l of one 128-byte
//              line (4 sectors a request); sector: lane l on word 8 l (its own 32-byte sector,
//              32 sectors in 8 lines a request, as the cas kernel's bins).  B = 1, N = 1: the
//              round trip; larger B and N = 4: the unit's throughput.
//   cas_loop   the retry loop of real11's k_cas: per step a volatile load of the bin
//              (LDG.E.STRONG.SYS), then do { assumed = old; old = atomicCAS(a, assumed,
//              f(assumed)); } while (old != assumed), on one of `words` words of the CTA's own
//              region; `lanes` consecutive lanes share a word (1: each lane its own hashed
//              word, the kernel's pattern; 32: the whole warp on one).  attempts_per_success =
//              CAS executed by all threads / (threads x steps).
//   gchase     a dependent chain of 32-bit loads, each warp-load one 128-byte line (lane l
//              reads word l of the line whose index the previous load returned): plain
//              (LDG.E, cached in L1) or volatile (LDG.E.STRONG.SYS), over 64 lines (8 KiB: an
//              L1 hit when cached) or 131072 lines (16 MiB: L2).
// Local memory (a per-thread array indexed by a register, so ptxas keeps it in local memory):
//   lrmw       cnt[idx]++ with idx from a per-thread LCG (LDL, IADD, STL; the next LDL issues
//              after the STL: a chain through memory as real11's k_lmem), array of 16 words
//              (64 B, as lmem) indexed over 16, 4, 2 or 1 words (`used`: 1 = the STL then the
//              dependent LDL of the same address), or 64 words (256 B) over 64; lanes random
//              (each lane its own index: up to `used` lines a request) or uniform (the warp's
//              lanes one index: one line).  Footprint per warp = used x 128 B.
//   lchase     j = a[j] over a 16-word permutation (5 j + c mod 16): LDL latency with no store
//   lload      8 independent LDL per iteration (indices from the LCG), summed: LDL throughput
//   lstore     8 independent STL per iteration: STL throughput
//
// Usage: casl OUTDIR   writes OUTDIR/casl.csv and OUTDIR/attrs.csv
//        casl ncu      the profiled points at B = 8, one launch each (README.md)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o casl casl.cu
#include "../../../../calibrate/common.cuh"

#include <cstring>
#include <string>

__device__ __forceinline__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

#define PAD extern __shared__ char pad_[]

// ------------------------------------------------------------------ CAS
template <int N>
__global__ void k_cas_chain(unsigned *words, unsigned stride, unsigned nthreads, int iters, float *out, Rec *rec) {
  PAD;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *a[N];
  unsigned v[N];
#pragma unroll
  for (int k = 0; k < N; k++) {
    a[k] = words + ((size_t)k * nthreads + gid) * stride;
    v[k] = *(volatile unsigned *)a[k];
  }
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int k = 0; k < N; k++)
      v[k] = atomicCAS(a[k], v[k], v[k] + 1u) + 1u;
  }
  rec_end(rec, t0);
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < N; k++)
    s += v[k];
  out[gid] = (float)(s & 0xffffu);
  if (s == 0x7fffffffu)
    out[0] = (float)pad_[0];
}

__global__ void k_cas_loop(unsigned *bins, unsigned words, unsigned lanes, int iters,
                           unsigned long long *attempts, float *out, Rec *rec) {
  PAD;
  unsigned *b = bins + (size_t)blockIdx.x * words;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned group = lane / lanes;
  const unsigned wid = blockIdx.x * 4u + warp;
  unsigned tries = 0;
  float last = 0;
  unsigned long long t0 = rec_begin();
  for (int k = 0; k < iters; k++) {
    unsigned h = mix(wid * 0x9e3779b9u + (unsigned)k * 0x85ebca6bu + group * 0xc2b2ae35u);
    float val = (float)(h >> 16) * (1.0f / 65536.0f);
    unsigned *a = &b[h & (words - 1)];
    unsigned old = *(volatile unsigned *)a, assumed;
    do {
      assumed = old;
      old = atomicCAS(a, assumed, __float_as_uint(__uint_as_float(assumed) * 0.5f + val));
      tries++;
    } while (old != assumed);
    last = __uint_as_float(old);
  }
  rec_end(rec, t0);
  unsigned t = __reduce_add_sync(0xffffffffu, tries);
  if (lane == 0)
    atomicAdd(attempts, (unsigned long long)t);
  if (last == 1234.5f)
    out[0] = last + pad_[0];
}

template <bool VOL>
__global__ void k_gchase(const unsigned *next, unsigned nlines, int iters, float *out, Rec *rec) {
  PAD;
  const unsigned lane = threadIdx.x & 31;
  const unsigned gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  unsigned j = (gw * 97u) & (nlines - 1);
  unsigned long long t0 = rec_begin();
#pragma unroll 4
  for (int i = 0; i < iters; i++) {
    if (VOL)
      j = ((const volatile unsigned *)next)[(size_t)j * 32 + lane];
    else
      j = next[(size_t)j * 32 + lane];
  }
  rec_end(rec, t0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = (float)j;
  if (j == 0x7fffffffu)
    out[0] = (float)pad_[0];
}

// ------------------------------------------------------------------ local memory
// ARR words a thread, indexed by (s >> SH) & mask, SH = 32 - log2(ARR).
template <int ARR, int SH, bool UNIFORM>
__global__ void k_lrmw(unsigned mask, int iters, unsigned *y, Rec *rec) {
  PAD;
  unsigned cnt[ARR];
#pragma unroll
  for (int j = 0; j < ARR; ++j)
    cnt[j] = 0;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = mix(UNIFORM ? (gid >> 5) + 1u : gid + 1u);
  unsigned long long t0 = rec_begin();
#pragma unroll 4
  for (int k = 0; k < iters; ++k) {
    s = s * 1664525u + 1013904223u;
    cnt[(s >> SH) & mask]++;
  }
  unsigned r = 0;
#pragma unroll
  for (int j = 0; j < ARR; ++j)
    r += cnt[j] * (unsigned)(j + 1);
  rec_end(rec, t0);
  y[gid] = r;
  if (r == 0x7fffffffu)
    y[0] = (unsigned)pad_[0];
}

template <bool UNIFORM>
__global__ void k_lchase(unsigned c, int iters, unsigned *y, Rec *rec) {
  PAD;
  unsigned a[16];
#pragma unroll
  for (int j = 0; j < 16; ++j)
    a[j] = ((unsigned)j * 5u + c) & 15u;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned j = UNIFORM ? 0u : (threadIdx.x & 15u);
  unsigned long long t0 = rec_begin();
#pragma unroll 4
  for (int k = 0; k < iters; ++k)
    j = a[j];
  rec_end(rec, t0);
  y[gid] = j;
  if (j == 0x7fffffffu)
    y[0] = (unsigned)pad_[0];
}

template <bool UNIFORM>
__global__ void k_lload(unsigned c, int iters, unsigned *y, Rec *rec) {
  PAD;
  unsigned a[16];
#pragma unroll
  for (int j = 0; j < 16; ++j)
    a[j] = ((unsigned)j * 5u + c) & 15u;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = mix(UNIFORM ? (gid >> 5) + 1u : gid + 1u), r = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      s = s * 1664525u + 1013904223u;
      r += a[s >> 28];
    }
  }
  rec_end(rec, t0);
  y[gid] = r;
  if (r == 0x7fffffffu)
    y[0] = (unsigned)pad_[0];
}

template <bool UNIFORM>
__global__ void k_lstore(unsigned c, int iters, unsigned *y, Rec *rec) {
  PAD;
  unsigned a[16];
#pragma unroll
  for (int j = 0; j < 16; ++j)
    a[j] = c;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = mix(UNIFORM ? (gid >> 5) + 1u : gid + 1u);
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      s = s * 1664525u + 1013904223u;
      a[s >> 28] = s;
    }
  }
  rec_end(rec, t0);
  unsigned r = 0;
#pragma unroll
  for (int j = 0; j < 16; ++j)
    r += a[j] * (unsigned)(j + 1);
  y[gid] = r;
  if (r == 0x7fffffffu)
    y[0] = (unsigned)pad_[0];
}

// ------------------------------------------------------------------ host
static const int kBs[] = {1, 2, 4, 8, 12, 16};
static const int kMaxThreads = 16 * 132 * 128 + 4096;
static FILE *g_csv, *g_attrs;
static unsigned *d_words, *d_bins, *d_chain_small, *d_chain_large, *d_y;
static unsigned long long *d_attempts;
static int g_reps = kLaunches;
static bool g_ncu = false;

// One curve: `launch(grid, smem)` at every B; `ops` = operations per thread per launch.
template <typename K, typename L>
static void curve(const char *exp, const char *variant, unsigned p1, unsigned p2, K kernel, int iters, double ops, L launch,
                  bool count_attempts = false) {
  cudaFuncAttributes at;
  CK(cudaFuncGetAttributes(&at, kernel));
  if (g_attrs)
    fprintf(g_attrs, "%s,%s,%u,%u,%d,%zu,%zu\n", exp, variant, p1, p2, at.numRegs, at.localSizeBytes, at.sharedSizeBytes);
  for (int b : kBs) {
    if (g_ncu && b != 8)
      continue;
    size_t smem = smem_for_blocks(kernel, 128, b);
    int grid = b * g_sms;
    if (g_ncu) {
      launch(grid, smem);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      continue;
    }
    if (count_attempts)
      CK(cudaMemset(d_attempts, 0, sizeof(unsigned long long)));
    Span s = run_wave(grid, smem, launch, d_rec, g_reps);
    double att = 0;
    if (count_attempts) {
      unsigned long long h = 0;
      CK(cudaMemcpy(&h, d_attempts, sizeof h, cudaMemcpyDeviceToHost));
      att = (double)h / ((double)(g_reps + 1) * grid * 128.0 * iters);
    }
    double per_warp = ops;  // operations per warp (per thread, the warp doing them together)
    fprintf(g_csv, "%s,%s,%u,%u,%d,%d,%d,%.0f,%.0f,%.0f,%.6g,%.6g,%.5g,%d,%d\n", exp, variant, p1, p2, b, 4 * b, iters,
            s.cycles, s.lo, s.hi, s.cycles / per_warp, 4.0 * b * per_warp / s.cycles, att, s.blocks_min, s.blocks_max);
    fflush(g_csv);
  }
}

static unsigned *chain_lines(unsigned nlines, unsigned seed) {
  std::vector<unsigned> order(nlines);
  for (unsigned i = 0; i < nlines; ++i)
    order[i] = i;
  unsigned x = seed;
  for (unsigned i = nlines - 1; i > 0; --i) {  // Fisher-Yates with an LCG
    x = x * 1664525u + 1013904223u;
    unsigned k = (unsigned)(((unsigned long long)x * (i + 1)) >> 32);
    std::swap(order[i], order[k]);
  }
  std::vector<unsigned> host((size_t)nlines * 32);
  for (unsigned i = 0; i < nlines; ++i)
    for (int w = 0; w < 32; ++w)
      host[(size_t)order[i] * 32 + w] = order[(i + 1) % nlines];
  unsigned *d;
  CK(cudaMalloc(&d, host.size() * 4));
  CK(cudaMemcpy(d, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
  return d;
}

template <int N> static void cas_chain(const char *layout, unsigned stride, int iters) {
  curve("cas_chain", layout, N, stride, k_cas_chain<N>, iters, (double)N * iters, [&](int g, size_t sm) {
    k_cas_chain<N><<<g, 128, sm>>>(d_words, stride, (unsigned)kMaxThreads, iters, d_out, d_rec);
  });
}

static void cas_loop(unsigned words, unsigned lanes, int iters) {
  char v[32];
  snprintf(v, sizeof v, "lanes%u", lanes);
  curve("cas_loop", v, words, lanes, k_cas_loop, iters, (double)iters, [&](int g, size_t sm) {
    k_cas_loop<<<g, 128, sm>>>(d_bins, words, lanes, iters, d_attempts, d_out, d_rec);
  }, true);
}

template <bool VOL> static void gchase(unsigned nlines, int iters) {
  const unsigned *p = nlines <= 64 ? d_chain_small : d_chain_large;
  curve("gchase", VOL ? "volatile" : "plain", nlines, 0, k_gchase<VOL>, iters, (double)iters, [&](int g, size_t sm) {
    k_gchase<VOL><<<g, 128, sm>>>(p, nlines, iters, d_out, d_rec);
  });
}

template <int ARR, int SH, bool UNIFORM> static void lrmw(unsigned used, int iters) {
  curve("lrmw", UNIFORM ? "uniform" : "random", ARR, used, k_lrmw<ARR, SH, UNIFORM>, iters, (double)iters,
        [&](int g, size_t sm) { k_lrmw<ARR, SH, UNIFORM><<<g, 128, sm>>>(used - 1, iters, d_y, d_rec); });
}

template <bool UNIFORM, typename K> static void local_curve(const char *exp, K kernel, int iters, double ops) {
  curve(exp, UNIFORM ? "uniform" : "random", 16, 16, kernel, iters, ops,
        [&](int g, size_t sm) { kernel<<<g, 128, sm>>>(3u, iters, d_y, d_rec); });
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: casl OUTDIR | casl ncu\n");
    return 2;
  }
  harness_init("casl");
  g_ncu = !strcmp(argv[1], "ncu");
  size_t wbytes = (size_t)4 * kMaxThreads * 8 * 4;  // 4 streams x threads x 8 words
  CK(cudaMalloc(&d_words, wbytes));
  CK(cudaMemset(d_words, 0, wbytes));
  size_t bbytes = (size_t)(16 * 132 + 32) * 4096 * 4;
  CK(cudaMalloc(&d_bins, bbytes));
  CK(cudaMemset(d_bins, 0, bbytes));
  CK(cudaMalloc(&d_y, (size_t)kMaxThreads * 4));
  CK(cudaMalloc(&d_attempts, sizeof(unsigned long long)));
  d_chain_small = chain_lines(64, 12345u);
  d_chain_large = chain_lines(131072, 777u);
  if (g_ncu) {
    // cas's pattern (256 words, each lane its own word), the uncontended chain, lmem's pattern
    // (16 words, random lanes) and the same-address STL -> LDL chain; B = 8 each
    cas_loop(256, 1, 32);
    cas_chain<1>("sector", 8, 64);
    lrmw<16, 28, false>(16, 128);
    lrmw<16, 28, true>(1, 128);
    printf("casl ncu done\n");
    return 0;
  }
  const char *hdr = "exp,variant,p1,p2,blocks_per_sm,resident_warps,iters,cycles,cycles_min,cycles_max,"
                    "cycles_per_op_per_warp,warp_ops_per_cycle_per_sm,attempts_per_success,blocks_min,blocks_max";
  g_csv = open_csv(argv[1], "casl.csv", hdr);
  g_attrs = open_csv(argv[1], "attrs.csv", "exp,variant,p1,p2,regs,local_bytes,static_smem");
  // CAS: p1 = chains per thread, p2 = word stride (1: a line a request, 8: a sector a lane)
  cas_chain<1>("line", 1, 64);
  cas_chain<1>("sector", 8, 64);
  cas_chain<4>("line", 1, 32);
  cas_chain<4>("sector", 8, 32);
  // CAS retry loop: p1 = words per CTA, p2 = lanes per word
  for (unsigned words : {256u, 4096u})
    for (unsigned lanes : {1u, 2u, 8u, 32u})
      cas_loop(words, lanes, lanes == 1 ? 64 : lanes == 2 ? 32 : lanes == 8 ? 8 : 4);
  // dependent global loads: p1 = lines in the chain
  gchase<false>(64, 256);
  gchase<true>(64, 256);
  gchase<false>(131072, 256);
  gchase<true>(131072, 256);
  // local memory: p1 = words in the array, p2 = words indexed
  lrmw<16, 28, false>(16, 128);
  lrmw<16, 28, false>(4, 128);
  lrmw<16, 28, false>(2, 128);
  lrmw<16, 28, true>(16, 128);
  lrmw<16, 28, true>(1, 128);
  lrmw<64, 26, false>(64, 128);
  local_curve<false>("lchase", k_lchase<false>, 256, 256);
  local_curve<true>("lchase", k_lchase<true>, 256, 256);
  local_curve<false>("lload", k_lload<false>, 64, 64 * 8);
  local_curve<true>("lload", k_lload<true>, 64, 64 * 8);
  local_curve<false>("lstore", k_lstore<false>, 64, 64 * 8);
  local_curve<true>("lstore", k_lstore<true>, 64, 64 * 8);
  fclose(g_csv);
  fclose(g_attrs);
  printf("casl done\n");
  return 0;
}
