// wchunk.cu - what places the step of the 32-bit store streams (issue 27, doc/doublings.md
// group S): 1 MiB per CTA stored one 128-byte line per warp-store (st.global.f32, 32 lanes),
//   K    independent STG per loop iteration (template: 1 or 4; the step sat at 44 -> 48 and
//        16 -> 20 warps in ../wstream/wstream.csv),
//   G    lines one warp writes back to back (2^gs: G = 1, the four warps of a CTA interleave
//        line by line as ../wstream/'s cta_run and ../real8/'s store1f; G = 4, each warp writes
//        whole 512 B groups; 2 and 8 between and beyond),
//   S    a controlled lag: warp w writes its e-th group S x w of its warp-stores after warp 0
//        writes its own e-th, so the four lines of one 512 B chunk (G = 1) reach the memory
//        system spread over 3 S warp-stores of each warp instead of together,
//   off  the CTA run shifted by `off` lines (G = 4 with off = 2: every warp's 512 B group
//        straddles two aligned 512 B chunks).
// Warp w's e-th warp-store (e = its step - S w, mod 2048) writes line ((e / G) 4 + w) G + e % G
// of its CTA's run of 8192 lines, shifted by off (mod 8192): every byte once per launch.  Each
// warp stamps clock64 every 64 of its warp-stores (ts), from which the host computes how far
// apart in time the four warps of a CTA write their e-th groups (the chunk spread, cycles).
//
// Harness: calibrate/common.cuh (the method of ../wstream/, ../matrix/): 128-thread CTAs, one
// wave of B x 132 CTAs, B = 1..16 pinned by dynamic shared-memory padding (carveout at its
// maximum), per-SM busy span from clock64 stamps after a __syncthreads, median of 5 launches
// after a warm-up launch, the L2 as the previous launch of the same kernel left it (dirty, as
// ../real8/ ran; ../wstream/ found a flush moves these rates by a median 0.4 %).
//
// Usage: wchunk OUTDIR     -> OUTDIR/wchunk.csv: every curve, B = 1..16 (run.sh profiles a few
//                             of its launches with Nsight Compute, by launch number)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o wchunk wchunk.cu
#include "../../../../calibrate/common.cuh"

#define NL 8192 // lines per CTA (1 MiB)
#define PW 2048 // warp-stores per warp
#define NS 33   // stamps per warp: every 64 warp-stores

template <int K> __global__ void k_wc(char *a, int gs, int S, int off, long long *ts, float *out, Rec *rec) {
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5, G = 1 << gs;
  char *c = a + (size_t)blockIdx.x * NL * 128 + lane * 4;
  long long *my = ts + (blockIdx.x * 4 + w) * NS;
  float x = threadIdx.x * 1e-3f;
  unsigned long long t0 = rec_begin();
  if (!lane)
    my[0] = clock64();
#pragma unroll 1
  for (int i = 0; i < PW / K; i++) {
#pragma unroll
    for (int k = 0; k < K; k++) {
      int e = (i * K + k - S * w + PW) % PW; // this warp's element
      int l = ((((e >> gs) * 4 + w) << gs) + (e & (G - 1)) + off) & (NL - 1);
      asm volatile("st.global.f32 [%0], %1;" ::"l"(c + (size_t)l * 128), "f"(x));
    }
    if ((i + 1) * K % 64 == 0 && !lane)
      my[(i + 1) * K / 64] = clock64();
  }
  rec_end(rec, t0);
  if (x < 0) // never: keeps the value live
    out[0] = x;
}

static char *d_buf;
static long long *d_ts;
static FILE *f;

// One point: B = b CTAs per SM; 5 launches after a warm-up.  Writes the rate and, from the stamps of the last launch, the
// median and 90th percentile of the chunk spread over CTAs and elements e = 0, 16, ..., and
// the mean cycles per warp-store (a stamp time between stamps is interpolated).
static void point(int K, int gs, int S, int off, int b) {
  auto kern = K == 1 ? k_wc<1> : k_wc<4>;
  int grid = b * g_sms;
  size_t smem = smem_for_blocks(kern, 128, b);
  auto launch = [&](int g, size_t sm) { kern<<<g, 128, sm>>>(d_buf, gs, S, off, d_ts, d_out, d_rec); };
  Span s = run_wave(grid, smem, launch, d_rec, 5);
  std::vector<long long> h((size_t)grid * 4 * NS);
  CK(cudaMemcpy(h.data(), d_ts, h.size() * 8, cudaMemcpyDeviceToHost));
  std::vector<double> v;
  double step = 0;
  for (int c = 0; c < grid; c++) {
    auto T = [&](int w, int t) { // time of warp w's step t
      long long *q = &h[(c * 4 + w) * NS];
      int j = t / 64;
      return j >= NS - 1 ? (double)q[NS - 1] : q[j] + (t % 64) / 64.0 * (q[j + 1] - q[j]);
    };
    for (int w = 0; w < 4; w++)
      step += (T(w, PW) - T(w, 0)) / PW / (4.0 * grid);
    for (int e = 0; e < PW; e += 16) {
      double lo = 1e300, hi = -1e300;
      for (int w = 0; w < 4; w++) {
        double t = T(w, (e + S * w) % PW);
        lo = std::min(lo, t);
        hi = std::max(hi, t);
      }
      v.push_back(hi - lo);
    }
  }
  std::sort(v.begin(), v.end());
  fprintf(f, "%d,%d,%d,%d,%d,%d,%.0f,%.4f,%.0f,%.0f,%.1f,%.0f,%.0f,%d,%d\n", K, 1 << gs, S, off, b, 4 * b, s.cycles,
          b * NL * 128.0 / s.cycles, v[v.size() / 2], v[v.size() * 9 / 10], step, s.lo, s.hi, s.blocks_min,
          s.blocks_max);
  fflush(f);
}

int main(int argc, char **argv) {
  harness_init("wchunk");
  CK(cudaMalloc(&d_buf, (size_t)16 * g_sms * NL * 128));
  CK(cudaMemset(d_buf, 0, (size_t)16 * g_sms * NL * 128));
  CK(cudaMalloc(&d_ts, (size_t)16 * g_sms * 4 * NS * 8));
  f = open_csv(argc > 1 ? argv[1] : ".", "wchunk.csv",
               "K,G,S,off,B,warps,cycles,bytes_per_cycle,spread_med,spread_p90,cycles_per_store,cycles_min,"
               "cycles_max,blocks_min,blocks_max");
  // {K, gs, S, off}: A groups (S = 0); B lags (G = 1); C, D one STG per iteration; E groups
  // off their alignment; F lags between warps whose groups are whole chunks, and pairs
  static const int cv[][4] = {{4, 0, 0, 0},  {4, 1, 0, 0},  {4, 2, 0, 0},  {4, 3, 0, 0},  {4, 0, 1, 0},
                              {4, 0, 2, 0},  {4, 0, 4, 0},  {4, 0, 8, 0},  {4, 0, 16, 0}, {4, 0, 32, 0},
                              {4, 0, 64, 0}, {4, 0, 128, 0}, {1, 0, 0, 0}, {1, 1, 0, 0},  {1, 2, 0, 0},
                              {1, 0, 4, 0},  {1, 0, 16, 0}, {1, 0, 64, 0}, {4, 1, 0, 1},  {4, 2, 0, 2},
                              {4, 3, 0, 4},  {4, 2, 16, 0}, {4, 2, 64, 0}, {4, 1, 16, 0}};
  for (auto &c : cv)
    for (int b = 1; b <= 16; b++)
      point(c[0], c[1], c[2], c[3], b);
  fclose(f);
  printf("done\n");
  return 0;
}
