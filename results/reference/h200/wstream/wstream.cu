// wstream.cu - what sets the DRAM write rate of a coalesced store stream (issues 24 and 27):
// the same bytes per CTA stored with 32- or 128-bit STG, in four line layouts, with the L2
// either full of dirty lines of the previous launch (as the real kernels of ../real*/ ran)
// or flushed to clean lines first (as ../matrix/gstore.csv and ../l2flight/store.csv ran).
//
// Harness: calibrate/common.cuh (the method of ../README.md, ../matrix/, ../l2flight/):
// 128-thread CTAs, one wave of B x 132 CTAs, B = 1..16 pinned by dynamic shared-memory
// padding (carveout at its maximum), per-SM busy span from clock64 stamps after a
// __syncthreads, median of 3 launches after a warm-up launch.
//
// k_ws<W, K, LAY>: per iteration each thread stores K values of W bytes (W = 4: a warp-store
// writes one 128-byte line; W = 16: four adjacent lines, 512 B).  Warp w's j-th warp-store
// (j = i K + k) writes unit U = 32 W bytes number
//   LAY 0 cta_run:    its CTA's private run, units (j 4 + w): the 4 warps interleaved line by
//                     line (../real8/stores.cu's k_store, ../matrix/matrix.cu's k_gst);
//   LAY 1 warp_run:   its warp's private run (a quarter of the CTA's bytes), unit j: 4 runs
//                     per CTA;
//   LAY 2 grid_front: one front for the whole grid, unit (j G + c) 4 + w (G CTAs, c this
//                     CTA): the 4 units of one CTA adjacent, CTA c + 1's next to them;
//   LAY 3 grid_lines: unit (j 4 + w) G + c: every unit's neighbours are written by other
//                     CTAs (other SMs) at the same time, as a transpose writes its rows.
// Every layout writes the same bytes per CTA (cta_kib) at every B, each byte once.
// state dirty: no flush (the warm-up launch wrote the same buffer, the L2 holds its last
// lines, dirty); clean: flush_l2() (a 256 MiB read of clean lines) before every launch.
//
// Usage: wstream curves OUTDIR   -> OUTDIR/wstream.csv
//        wstream probe OUTDIR    -> OUTDIR/probe.csv: for Nsight Compute, each of a few
//                                   curves at B = 2 and 8: a warm-up launch, then one launch
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o wstream wstream.cu
#include "../../../../calibrate/common.cuh"

#include <cstring>
#include <string>

static const char *kLayout[] = {"cta_run", "warp_run", "grid_front", "grid_lines"};

template <int W, int K, int LAY>
__global__ void k_ws(char *__restrict__ a, size_t cta_bytes, int iters, float *out, Rec *rec) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr size_t U = 32 * W;
  const size_t c = blockIdx.x, G = gridDim.x;
  float x = threadIdx.x * 1e-3f, y = x + 1, z = x + 2, v = x + 3;
  unsigned long long t0 = rec_begin();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int k = 0; k < K; k++) {
      const size_t j = (size_t)i * K + k;
      size_t o;
      if (LAY == 0)
        o = c * cta_bytes + (j * 4 + warp) * U;
      else if (LAY == 1)
        o = c * cta_bytes + warp * (cta_bytes / 4) + j * U;
      else if (LAY == 2)
        o = ((j * G + c) * 4 + warp) * U;
      else
        o = ((j * 4 + warp) * G + c) * U;
      char *p = a + o + (size_t)lane * W;
      if (W == 4)
        asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(x));
      else
        asm volatile("st.global.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(p), "f"(x), "f"(y), "f"(z), "f"(v));
    }
  }
  rec_end(rec, t0);
  if (x == -1.0f) // never: keeps the values live
    out[blockIdx.x] = x + y + z + v;
}

static char *d_buf;
static const size_t kBufBytes = (size_t)2112 << 20; // 16 x 132 CTAs x 1 MiB
static int g_reps = 3, g_bmin = 1, g_bmax = 16;
static const char *g_dir;

template <int W, int K, int LAY>
static void curve(FILE *f, bool clean, int cta_kib) {
  auto kern = k_ws<W, K, LAY>;
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kern));
  const size_t cta_bytes = (size_t)cta_kib << 10;
  const int iters = (int)(cta_bytes / (4 * 32 * W) / K);
  for (int b = g_bmin; b <= g_bmax; b++) {
    size_t smem = smem_for_blocks(kern, 128, b);
    auto launch = [&](int g, size_t sm) {
      if (clean)
        flush_l2();
      kern<<<g, 128, sm>>>(d_buf, cta_bytes, iters, d_out, d_rec);
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
      fprintf(stderr, "warning: W=%d K=%d %s B=%d landed %d..%d CTAs per SM\n", W, K, kLayout[LAY], b, s.blocks_min,
              s.blocks_max);
    const double bytes = (double)b * cta_bytes;
    fprintf(f, "%d,%d,%s,%s,%d,%d,%d,%d,%d,%.0f,%.4f,%.5g,%.0f,%.0f,%d,%d\n", W * 8, K, kLayout[LAY],
            clean ? "clean" : "dirty", cta_kib, attr.numRegs, b, 4 * b, iters, s.cycles, bytes / s.cycles,
            bytes / s.cycles / (32.0 * W), s.lo, s.hi, s.blocks_min, s.blocks_max);
    fflush(f);
  }
}

template <int LAY> static void layout(FILE *f, bool clean) {
  curve<4, 1, LAY>(f, clean, 1024);
  curve<4, 4, LAY>(f, clean, 1024);
  curve<16, 1, LAY>(f, clean, 1024);
}

static FILE *csv(const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", g_dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  fprintf(f, "store_bits,stores_per_iteration,layout,l2_state,cta_kib,regs,blocks_per_sm,resident_warps,iters,"
             "cycles,bytes_per_cycle_per_sm,warp_stores_per_cycle_per_sm,cycles_min,cycles_max,blocks_min,"
             "blocks_max\n");
  return f;
}

static void curves() {
  FILE *f = csv("wstream.csv");
  for (bool clean : {false, true}) {
    layout<0>(f, clean);
    layout<1>(f, clean);
    layout<2>(f, clean);
    layout<3>(f, clean);
    curve<4, 4, 0>(f, clean, 256); // ../matrix/gstore.csv's 32-bit DRAM curves: 256 KiB per CTA
    curve<4, 1, 0>(f, clean, 256);
    curve<16, 1, 0>(f, clean, 256);
  }
  fclose(f);
}

static void probe() {
  FILE *f = csv("probe.csv");
  g_reps = 0;
  for (int b : {2, 8}) {
    g_bmin = g_bmax = b;
    for (bool clean : {false, true}) {
      curve<4, 1, 0>(f, clean, 1024);
      curve<16, 1, 0>(f, clean, 1024);
      curve<4, 4, 0>(f, clean, 256);
      curve<4, 1, 3>(f, clean, 1024);
    }
  }
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "curves") && strcmp(argv[1], "probe"))) {
    fprintf(stderr, "usage: wstream curves OUTDIR | wstream probe OUTDIR\n");
    return 2;
  }
  harness_init("wstream");
  g_dir = argv[2];
  CK(cudaMalloc(&d_buf, kBufBytes));
  CK(cudaMemset(d_buf, 0, kBufBytes));
  CK(cudaDeviceSynchronize());
  if (!strcmp(argv[1], "probe"))
    probe();
  else
    curves();
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
