// l2store.cu - where a global store's bytes go and what it costs, against the write footprint
// of its kernel (issue 24): coalesced STG streams whose lines a CTA rewrites over a region, so
// the grid's write footprint runs from ~1 MiB (L2-resident) to 4x the 50 MB L2 (DRAM); stores
// after loads of the same lines (read-modify-write); a copy whose loads stream from DRAM while
// its stores stay in a small region; and three L2 states between launches.
//
// Harness: calibrate/common.cuh (the method of ../README.md, ../matrix/, ../wstream/):
// 128-thread CTAs, one wave of B x 132 CTAs, B = 1..16 pinned by dynamic shared-memory
// padding (carveout at its maximum), per-SM busy span from clock64 stamps after a
// __syncthreads, median of kReps launches after a warm-up launch.
//
// k_w<W, MODE, K>: every CTA stores 1 MiB (cta_bytes) at every B, K warp-stores per loop
// iteration (#pragma unroll 1 on the loop), each of W bytes per thread (W = 4: STG.E, one
// 128-byte line per warp-store; W = 16: STG.E.128, four adjacent lines).  Warp w's j-th
// warp-store writes unit (4 j + w) mod units of its CTA's own region of `units` units of 32 W
// bytes (the cta_run layout of ../real8/stores.cu and ../wstream/: the 4 warps interleaved line
// by line); a region smaller than 1 MiB is rewritten 1 MiB / region times, so the grid's write
// footprint is B x 132 x region.  MODE 0 store: the value is the thread's own; MODE 1 rmw: the
// K units are loaded (LDG.E, L1-allocating), then each stored + 1; MODE 2 copy: the K values
// are loaded from the CTA's own 1 MiB of a separate source (read once per launch: 132 B MiB of
// reads, past the L2 from B = 1), then stored + 1 into the region.
// l2_state dirty: nothing between launches (the previous launch of the same point left its
// lines in L2, dirty); clean: flush_l2() (a 256 MiB read of clean lines, which writes the dirty
// lines back) before every launch; foreign: before every launch a store kernel writes 96 MiB of
// another buffer, so the launch starts with the L2 full of dirty lines it must write back.
//
// Usage: l2store curves OUTDIR   -> OUTDIR/l2store.csv
//        l2store probe OUTDIR    -> OUTDIR/probe.csv: for Nsight Compute, a few points at
//                                   B = 8: their preparation, a warm-up launch, one launch
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o l2store l2store.cu
#include "../../../../calibrate/common.cuh"

#include <cstring>

static const char *kMode[] = {"store", "rmw", "copy"};
static const char *kState[] = {"dirty", "clean", "foreign"};
static const size_t kCtaBytes = (size_t)1 << 20;

template <int W> __device__ __forceinline__ void st(char *p, float x) {
  if (W == 4)
    asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(x) : "memory");
  else
    asm volatile("st.global.v4.f32 [%0], {%1,%1,%1,%1};" ::"l"(p), "f"(x) : "memory");
}
template <int W> __device__ __forceinline__ float ld(const char *p) {
  if (W == 4) {
    float v;
    asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
  }
  float x, y, z, w;
  asm volatile("ld.global.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "l"(p) : "memory");
  return (x + y) + (z + w);
}

template <int W, int MODE, int K>
__global__ void k_w(char *__restrict__ a, const char *__restrict__ src, unsigned units, int iters, float *out,
                    Rec *rec) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr unsigned U = 32 * W;
  char *base = a + (size_t)blockIdx.x * units * U + warp * U + lane * W;
  const char *sbase = src + (size_t)blockIdx.x * kCtaBytes + warp * U + lane * W;
  float x = threadIdx.x * 1e-3f;
  unsigned u = 0;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    float v[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
      if (MODE == 1)
        v[k] = ld<W>(base + (size_t)(u + 4 * k) * U);
      else if (MODE == 2)
        v[k] = ld<W>(sbase + ((size_t)i * K + k) * 4 * U);
      else
        v[k] = x;
    }
#pragma unroll
    for (int k = 0; k < K; k++)
      st<W>(base + (size_t)(u + 4 * k) * U, MODE ? v[k] + 1.0f : v[k]);
    u += 4 * K; // units is a multiple of 4 K: the wrap falls between iterations
    if (u >= units)
      u = 0;
  }
  rec_end(rec, t0);
  if (x == -1.0f) // never: keeps x live
    out[blockIdx.x] = x;
}

// The foreign state's preparation: 96 MiB of another buffer written (float4, grid-stride).
__global__ void k_dirty(float4 *f, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    f[i] = make_float4(1.f, 2.f, 3.f, 4.f);
}

static char *d_buf, *d_src;
static float4 *d_foreign;
static const size_t kBufBytes = (size_t)2112 << 20; // 16 x 132 CTAs x 1 MiB
static const size_t kForeignBytes = (size_t)96 << 20;
static int g_reps = 7;
static const char *g_dir;
static const int kBs[] = {1, 2, 3, 4, 5, 6, 8, 12, 16};
// Grid write footprints asked for, MiB (the region per CTA is rounded down to 4 KiB and at
// most 1 MiB; 0: the stream, 1 MiB per CTA, each byte stored once per launch).
static const int kFootMiB[] = {1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 128, 200, 0};

static void prepare(int state) {
  if (state == 1)
    flush_l2();
  else if (state == 2)
    k_dirty<<<1056, 256>>>(d_foreign, kForeignBytes / 16);
}

template <int W, int MODE, int K>
static void point(FILE *f, int state, int b, size_t region, int foot_mib) {
  auto kern = k_w<W, MODE, K>;
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kern));
  const unsigned U = 32 * W, units = (unsigned)(region / U);
  const int iters = (int)(kCtaBytes / (4 * U) / K);
  size_t smem = smem_for_blocks(kern, 128, b);
  auto launch = [&](int g, size_t sm) {
    prepare(state);
    kern<<<g, 128, sm>>>(d_buf, d_src, units, iters, d_out, d_rec);
  };
  Span s;
  if (g_reps > 0) {
    s = run_wave(b * g_sms, smem, launch, d_rec, g_reps);
  } else { // probe: a warm-up launch, then one launch (Nsight Compute profiles both)
    std::vector<Rec> h(b * g_sms);
    for (int r = 0; r < 2; r++) {
      launch(b * g_sms, smem);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
    }
    CK(cudaMemcpy(h.data(), d_rec, h.size() * sizeof(Rec), cudaMemcpyDeviceToHost));
    s = spans(h);
  }
  if (s.blocks_min != b || s.blocks_max != b)
    fprintf(stderr, "warning: %s W=%d K=%d B=%d landed %d..%d CTAs per SM\n", kMode[MODE], W, K, b, s.blocks_min,
            s.blocks_max);
  const double bytes = (double)b * kCtaBytes, foot = (double)b * g_sms * region;
  fprintf(f, "%s,%d,%d,%s,%d,%zu,%.0f,%d,%d,%d,%d,%.0f,%.4f,%.0f,%.0f,%d,%d\n", kMode[MODE], W * 8, K, kState[state],
          foot_mib, region, foot, attr.numRegs, b, 4 * b, iters, s.cycles, bytes / s.cycles, s.lo, s.hi, s.blocks_min,
          s.blocks_max);
  fflush(f);
}

// The region per CTA for a grid footprint of `mib` MiB at B CTAs per SM (0: the stream).
static size_t region_for(int mib, int b) {
  if (mib == 0)
    return kCtaBytes;
  size_t r = ((size_t)mib << 20) / ((size_t)b * g_sms) / 4096 * 4096;
  return r < 4096 || r > kCtaBytes ? 0 : r;
}

template <int W, int MODE, int K> static void curve(FILE *f, int state) {
  for (int b : kBs) {
    size_t last = 0;
    for (int mib : kFootMiB) {
      size_t r = region_for(mib, b);
      if (r == 0 || r == last)
        continue;
      last = r;
      point<W, MODE, K>(f, state, b, r, mib);
    }
  }
}

static FILE *csv(const char *name) {
  return open_csv(g_dir, name,
                  "exp,store_bits,stores_per_iteration,l2_state,footprint_mib_asked,region_bytes,footprint_bytes,"
                  "regs,blocks_per_sm,resident_warps,iters,cycles,bytes_stored_per_cycle_per_sm,cycles_min,"
                  "cycles_max,blocks_min,blocks_max");
}

static void curves() {
  FILE *f = csv("l2store.csv");
  for (int state : {0, 1, 2}) {
    curve<4, 0, 4>(f, state);
    curve<16, 0, 1>(f, state);
  }
  curve<4, 0, 1>(f, 0);
  curve<4, 1, 4>(f, 0);
  curve<16, 1, 1>(f, 0);
  curve<4, 2, 4>(f, 0);
  curve<16, 2, 1>(f, 0);
  fclose(f);
}

// Profiled points, all at B = 8 (1056 CTAs), in this order (two k_w launches each).
static void probe() {
  FILE *f = csv("probe.csv");
  g_reps = 0;
  const int b = 8;
  for (int mib : {8, 32, 40, 48, 56, 64, 80, 96, 128, 0}) {
    point<16, 0, 1>(f, 0, b, region_for(mib, b), mib);
    point<4, 0, 4>(f, 0, b, region_for(mib, b), mib);
  }
  for (int mib : {32, 0}) {
    point<16, 1, 1>(f, 0, b, region_for(mib, b), mib);
    point<16, 2, 1>(f, 0, b, region_for(mib, b), mib);
    point<16, 0, 1>(f, 1, b, region_for(mib, b), mib);
    point<16, 0, 1>(f, 2, b, region_for(mib, b), mib);
  }
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "curves") && strcmp(argv[1], "probe"))) {
    fprintf(stderr, "usage: l2store curves OUTDIR | l2store probe OUTDIR\n");
    return 2;
  }
  harness_init("l2store");
  g_dir = argv[2];
  CK(cudaMalloc(&d_buf, kBufBytes));
  CK(cudaMalloc(&d_src, kBufBytes));
  CK(cudaMalloc(&d_foreign, kForeignBytes));
  CK(cudaMemset(d_buf, 0, kBufBytes));
  CK(cudaMemset(d_src, 0, kBufBytes));
  CK(cudaMemset(d_foreign, 0, kForeignBytes));
  CK(cudaDeviceSynchronize());
  if (!strcmp(argv[1], "probe"))
    probe();
  else
    curves();
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
