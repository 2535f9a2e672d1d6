// memfair.cu - which warps go first when warps wait for memory (issue: gto's
// blocker 2, doc/sched_groups.md): the H200 issues greedy then oldest
// (../warpfair/), yet memory-bound kernels keep 46-49 % of 50 % active where
// warpsim's gto leaves 43-47 % (saxpy: lg_throttle 17 % simulated, 8 %
// profiled).  Hypothesis under test: a freed memory slot (lines in flight,
// LSU queue) goes to the warps in arrival order, not by age.
//
// Harness as ../schedmb/ (calibrate/common.cuh: padding pins B CTAs per SM,
// one wave of B x 132 CTAs, clock64 of the SM).  Every warp stamps its start
// (after the CTA's __syncthreads), the cycle it begins its middle iteration,
// and its end, with its CTA, %smid and %warpid.  Families:
//
//  st   128-thread CTAs, per iteration L independent coalesced 4-byte loads
//       (ld.global.cg, L = 1 or 4 in flight per thread), then F dependent
//       FFMAs on each (F = 0, 1, 4) and a sum; B = 4, 8, 12, 16.  `dram`: a
//       1 GiB stream (no reuse, >= 128 MiB per launch); `l2`: the same
//       addresses folded into 16 MiB (L2-resident after the warm-up launch).
//  saxpy4  y = a x + y over the stream (x, y halves of the 1 GiB buffer),
//       unrolled x4 as ../real/kernels.cu k_saxpy (8 loads, then 4 stores),
//       128-thread CTAs, B = 4, 8, 12, 16.
//  barw 256-thread CTAs, per iteration a load, N FFMAs (odd warps 2N), an
//       arrival stamp into shared memory, __syncthreads; after the barrier
//       each warp reads the CTA's 8 arrival stamps: its wait is the last
//       arrival less its own (no clock read after BAR: ../schedmb/ showed
//       that read is not held by BAR.SYNC.DEFER_BLOCKING; it is kept as
//       `clk_after_bar` to compare).  N = 8, 32, B = 1, 2, 4.
//
// Writes OUTDIR (argv[1]) / memfair.csv (one row per kernel and B: median
// over 3 launches after a warm-up of the SM span, the rate, mean warp start,
// middle and end over the span and the barrier wait over the warp's life,
// medians over SMs) and memfair_warps.csv (every warp of the first 4 SMs of
// the last launch).  With argv[2] = "ncu" only the profiled points run, once.
#include "common.cuh"

#include <string>

struct WarpRec {
  unsigned long long t0, tm, t1, wait, wclk;
  unsigned cta, warp, sm, hw;
};

__device__ __forceinline__ unsigned hw_warpid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ void put_warp(WarpRec *wr, unsigned long long t0, unsigned long long tm,
                                         unsigned long long t1, unsigned long long wait,
                                         unsigned long long wclk) {
  if ((threadIdx.x & 31) == 0) {
    WarpRec w;
    w.t0 = t0;
    w.tm = tm;
    w.t1 = t1;
    w.wait = wait;
    w.wclk = wclk;
    w.cta = blockIdx.x;
    w.warp = threadIdx.x / 32;
    w.sm = smid();
    w.hw = hw_warpid();
    wr[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = w;
  }
}

// L loads in flight per thread, F dependent FFMAs on each; L2: addresses
// folded into l2mask + 1 floats.
template <int L, int F, bool L2>
__global__ void k_st(float *out, WarpRec *wr, const float *__restrict__ x, int iters,
                     unsigned long long l2mask) {
  extern __shared__ char pad_[];
  float acc = 0.f;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int half = iters / 2;
  __syncthreads();
  unsigned long long t0 = clock64(), tm = 0;
#pragma unroll 1
  for (int it = 0; it < iters; it++) {
    if (it == half)
      tm = clock64();
    float v[L];
#pragma unroll
    for (int j = 0; j < L; j++) {
      size_t k = idx + (size_t)j * stride;
      if (L2)
        k &= l2mask;
      v[j] = __ldcg(x + k);
    }
    idx += (size_t)L * stride;
#pragma unroll
    for (int j = 0; j < L; j++) {
#pragma unroll
      for (int f = 0; f < F; f++)
        v[j] = fmaf(v[j], 0.999f, 0.001f);
      acc += v[j];
    }
  }
  unsigned long long t1 = clock64();
  if (acc == 1234.5f)
    out[0] = acc + pad_[0];
  put_warp(wr, t0, tm, t1, 0, 0);
}

// ../real/kernels.cu k_saxpy's loop over a grid-strided stream.
__global__ void k_saxpy4(float *out, WarpRec *wr, float *y, const float *__restrict__ x, float a,
                         int iters) {
  extern __shared__ char pad_[];
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int half = iters / 2;
  __syncthreads();
  unsigned long long t0 = clock64(), tm = 0;
#pragma unroll 1
  for (int it = 0; it < iters; it++) {
    if (it == half)
      tm = clock64();
    float xv[4], yv[4];
#pragma unroll
    for (int j = 0; j < 4; j++) {
      xv[j] = x[idx + j * stride];
      yv[j] = y[idx + j * stride];
    }
#pragma unroll
    for (int j = 0; j < 4; j++)
      y[idx + j * stride] = a * xv[j] + yv[j];
    idx += 4 * stride;
  }
  unsigned long long t1 = clock64();
  if (a == 1234.5f)
    out[0] = pad_[0];
  put_warp(wr, t0, tm, t1, 0, 0);
}

template <int N>
__global__ void k_barw(float *out, WarpRec *wr, const float *__restrict__ x, int iters) {
  extern __shared__ char pad_[];
  __shared__ unsigned long long arr[2][8];
  float acc = 0.f;
  unsigned long long wait = 0, wclk = 0;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int w = threadIdx.x / 32;
  const int n = (w % 2) ? 2 * N : N;
  const int half = iters / 2;
  __syncthreads();
  unsigned long long t0 = clock64(), tm = 0;
#pragma unroll 1
  for (int it = 0; it < iters; it++) {
    if (it == half)
      tm = clock64();
    float v = __ldcg(x + idx);
    idx += stride;
#pragma unroll 1
    for (int k = 0; k < n; k += 4) {
      v = fmaf(v, 0.999f, 0.001f);
      v = fmaf(v, 0.998f, 0.002f);
      v = fmaf(v, 0.997f, 0.003f);
      v = fmaf(v, 0.996f, 0.004f);
    }
    acc += v;
    unsigned long long a = clock64();
    if ((threadIdx.x & 31) == 0)
      arr[it & 1][w] = a;
    __syncthreads();
    unsigned long long last = 0;
#pragma unroll
    for (int q = 0; q < 8; q++)
      last = arr[it & 1][q] > last ? arr[it & 1][q] : last;
    wait += last - a;
    wclk += clock64() - a;
  }
  unsigned long long t1 = clock64();
  if (acc == 1234.5f)
    out[0] = acc + pad_[0];
  put_warp(wr, t0, tm, t1, wait, wclk);
}

static const int kSmsKept = 4;
static bool g_ncu = false;
static WarpRec *d_wr;
static float *d_x;
static size_t g_xn;

static bool profiled(const std::string &name, int b) {
  return (name == "st_L4_F0_dram" && b == 8) || (name == "st_L1_F4_dram" && b == 16) ||
         (name == "saxpy4" && b == 8);
}

// Runs `launch(grid, smem)` (warm-up then 3 kept, or once under the
// profiler) and writes the summary row and the last launch's warps; `work`
// is the bytes (st, saxpy4) or loads (barw) per CTA.
template <typename Lf>
static void point(FILE *f, FILE *fw, const std::string &name, int b, int threads, double work,
                  int iters, size_t smem, Lf launch) {
  if (g_ncu && !profiled(name, b))
    return;
  int grid = b * g_sms, wpc = threads / 32;
  std::vector<WarpRec> h(grid * wpc);
  std::vector<double> span;
  for (int rep = 0; rep < (g_ncu ? 1 : 4); rep++) {
    launch(grid, smem);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    if (g_ncu || rep == 0)
      continue;
    CK(cudaMemcpy(h.data(), d_wr, h.size() * sizeof(WarpRec), cudaMemcpyDeviceToHost));
    std::vector<unsigned long long> first(g_sms, ~0ull), last(g_sms, 0);
    for (const WarpRec &w : h) {
      first[w.sm] = std::min(first[w.sm], w.t0);
      last[w.sm] = std::max(last[w.sm], w.t1);
    }
    double sum = 0;
    for (int s = 0; s < g_sms; s++)
      sum += (double)(last[s] - first[s]);
    span.push_back(sum / g_sms);
    if (rep == 3) {
      std::vector<double> life(g_sms, 0), st(g_sms, 0), mid(g_sms, 0), end(g_sms, 0),
          wt(g_sms, 0), wc(g_sms, 0);
      std::vector<int> cnt(g_sms, 0);
      for (const WarpRec &w : h) {
        life[w.sm] += (double)(w.t1 - w.t0);
        st[w.sm] += (double)(w.t0 - first[w.sm]);
        mid[w.sm] += (double)(w.tm - first[w.sm]);
        end[w.sm] += (double)(w.t1 - first[w.sm]);
        wt[w.sm] += (double)w.wait;
        wc[w.sm] += (double)w.wclk;
        cnt[w.sm]++;
        if ((int)w.sm < kSmsKept)
          fprintf(fw, "%s,%d,%u,%u,%u,%u,%llu,%llu,%llu,%llu,%llu\n", name.c_str(), b, w.cta,
                  w.warp, w.sm, w.hw, w.t0 - first[w.sm], w.tm - first[w.sm], w.t1 - first[w.sm],
                  w.wait, w.wclk);
      }
      std::vector<double> mst, mmid, mend, mwait, mclk;
      for (int s = 0; s < g_sms; s++) {
        if (!cnt[s])
          continue;
        double sp = (double)(last[s] - first[s]);
        mst.push_back(st[s] / cnt[s] / sp);
        mmid.push_back(mid[s] / cnt[s] / sp);
        mend.push_back(end[s] / cnt[s] / sp);
        mwait.push_back(wt[s] / life[s]);
        mclk.push_back(wc[s] / life[s]);
      }
      std::vector<double> sp2 = span;
      double med = stat_of(sp2).med;
      fprintf(f, "%s,%d,%d,%d,%.0f,%.5g,%.4f,%.4f,%.4f,%.4f,%.4f\n", name.c_str(), b, wpc * b, iters,
              med, b * work / med, stat_of(mst).med, stat_of(mmid).med, stat_of(mend).med,
              stat_of(mwait).med, stat_of(mclk).med);
      fflush(f);
      fflush(fw);
    }
  }
}

template <int L, int F, bool L2> static void st_curve(FILE *f, FILE *fw) {
  auto kernel = k_st<L, F, L2>;
  std::string name = "st_L" + std::to_string(L) + "_F" + std::to_string(F) + (L2 ? "_l2" : "_dram");
  const unsigned long long l2mask = ((size_t)4 << 20) - 1; // 16 MiB of floats
  for (int b : {4, 8, 12, 16}) {
    int grid = b * g_sms;
    int iters = (int)std::min<size_t>(1024, g_xn / ((size_t)grid * 128 * L));
    double work = (double)iters * 128 * L * 4; // bytes per CTA
    size_t smem = smem_for_blocks(kernel, 128, b);
    point(f, fw, name, b, 128, work, iters, smem, [&](int g, size_t sm) {
      kernel<<<g, 128, sm>>>(d_out, d_wr, d_x, iters, l2mask);
    });
  }
}

static void saxpy_curve(FILE *f, FILE *fw) {
  auto kernel = k_saxpy4;
  const size_t half = g_xn / 2;
  for (int b : {4, 8, 12, 16}) {
    int grid = b * g_sms;
    int iters = (int)std::min<size_t>(1024, half / ((size_t)grid * 128 * 4));
    double work = (double)iters * 128 * 4 * 12; // bytes per CTA (x, y read, y written)
    size_t smem = smem_for_blocks(kernel, 128, b);
    point(f, fw, "saxpy4", b, 128, work, iters, smem, [&](int g, size_t sm) {
      kernel<<<g, 128, sm>>>(d_out, d_wr, d_x + half, d_x, 1.5f, iters);
    });
  }
}

template <int N> static void barw_curve(FILE *f, FILE *fw) {
  auto kernel = k_barw<N>;
  for (int b : {1, 2, 4}) { // 8 does not fit: more than 32 registers per thread
    int grid = b * g_sms;
    int iters = (int)std::min<size_t>(256, g_xn / ((size_t)grid * 256));
    double work = (double)iters * 256 / 32; // warp loads per CTA
    size_t smem = smem_for_blocks(kernel, 256, b);
    point(f, fw, "barw" + std::to_string(N), b, 256, work, iters, smem, [&](int g, size_t sm) {
      kernel<<<g, 256, sm>>>(d_out, d_wr, d_x, iters);
    });
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: memfair OUTDIR [ncu]\n");
    return 2;
  }
  g_ncu = argc > 2 && std::string(argv[2]) == "ncu";
  harness_init("memfair");
  CK(cudaMalloc(&d_wr, (size_t)16 * g_sms * 8 * sizeof(WarpRec)));
  g_xn = (size_t)256 << 20; // 1 GiB of floats: a DRAM stream misses L2
  CK(cudaMalloc(&d_x, g_xn * 4));
  CK(cudaMemset(d_x, 0, g_xn * 4));
  FILE *f = open_csv(argv[1], g_ncu ? "ncu_order.csv" : "memfair.csv",
                     "kernel,blocks_per_sm,warps_per_sm,iters,span_cycles,rate_per_cycle_per_sm,"
                     "mean_start_over_span,mean_mid_over_span,mean_end_over_span,"
                     "barrier_wait_over_life,clk_after_bar_over_life");
  FILE *fw = open_csv(argv[1], g_ncu ? "ncu_order_warps.csv" : "memfair_warps.csv",
                      "kernel,blocks_per_sm,cta,warp_in_cta,smid,hw_warpid,start,mid,end,"
                      "barrier_wait,clk_after_bar");
  st_curve<1, 0, false>(f, fw);
  st_curve<1, 1, false>(f, fw);
  st_curve<1, 4, false>(f, fw);
  st_curve<4, 0, false>(f, fw);
  st_curve<4, 1, false>(f, fw);
  st_curve<4, 4, false>(f, fw);
  st_curve<1, 0, true>(f, fw);
  st_curve<1, 1, true>(f, fw);
  st_curve<1, 4, true>(f, fw);
  st_curve<4, 0, true>(f, fw);
  st_curve<4, 1, true>(f, fw);
  st_curve<4, 4, true>(f, fw);
  saxpy_curve(f, fw);
  barw_curve<8>(f, fw);
  barw_curve<32>(f, fw);
  fclose(f);
  fclose(fw);
  printf("memfair done\n");
  return 0;
}
