// smallgrid.cu - per-SM DRAM and L2 bandwidth as a function of how many SMs are busy
// (issue 25 item 2).  The stream kernel is calibrate/bench.cu's k_stream (coalesced
// float4 loads, private slice per CTA, summed) with exactly LOADS = 4 float4 loads per
// thread in flight (each sum multiplies by a 1 computed from the last load, so all four are
// issued before any is used; k_stream's 8 under a 32-register cap were issued 4 + 4 as
// registers freed), the L2 flushed (a 256 MiB read) before every DRAM launch, and two
// additions: each CTA also stamps %globaltimer (ns, one clock for the whole GPU) and,
// in the `active` experiment, CTAs on SMs outside the chosen set return at once.
//
//   grid.csv    natural launches of G CTAs (G = 1..264) with B CTAs per SM allowed
//               (dynamic shared-memory padding): which SMs the hardware fills, each
//               busy SM's bytes over its own busy span, and the device-wide rate.
//   active.csv  one full wave of B x 132 CTAs (B pinned), of which only the CTAs on
//               n chosen SMs stream ("packed": the n lowest %smid; "spread": %smid
//               spaced evenly over 0..131): per-SM bandwidth against n busy SMs at
//               4B resident warps on each.  level = dram (4 GiB array, no reuse) or
//               l2 (every CTA rereads a 16 MiB region, ld.global.cg, so L1 is bypassed
//               and the lines stay in the 60 MiB L2 after the warm-up launch).
// Every point: median of 3 launches after a warm-up (the per-SM span of the median
// launch); bytes_per_cycle_per_sm = bytes an SM's CTAs loaded / that SM's busy span
// in its clock64 cycles, averaged over busy SMs.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o smallgrid smallgrid.cu
#include "../../../../calibrate/common.cuh"

#include <cstdint>
#include <cstring>

struct Rec2 {
  unsigned long long t0, t1, g0, g1;
  unsigned sm, worked;
};

__device__ __forceinline__ unsigned long long gtimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// sel: 0 = every CTA works; 1 = packed (smid < n); 2 = spread ((smid * n) % 132 < n).
template <int LOADS, bool L2>
__global__ void __launch_bounds__(128, 16)
    k_sg(const float4 *__restrict__ a, size_t per_block, size_t wrap, float *out, Rec2 *rec, int iters, int sel, int n,
         int nsm) {
  unsigned sm = smid();
  bool work = sel == 0 || (sel == 1 && (int)sm < n) || (sel == 2 && ((int)sm * n) % nsm < n);
  size_t base = L2 ? (blockIdx.x * per_block) % wrap : blockIdx.x * per_block;
  const float4 *p = a + base + threadIdx.x;
  float s = 0;
  __syncthreads();
  unsigned long long t0 = clock64(), g0 = gtimer();
  if (work) {
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
      float4 v[LOADS];
#pragma unroll
      for (int k = 0; k < LOADS; k++) {
        if (L2)
          asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];"
                       : "=f"(v[k].x), "=f"(v[k].y), "=f"(v[k].z), "=f"(v[k].w)
                       : "l"(p + k * 128));
        else
          v[k] = p[k * 128];
      }
      p += LOADS * 128;
      const float z = fmaf(v[LOADS - 1].x, 0.0f, 1.0f); // 1, known only after the last load
#pragma unroll
      for (int k = 0; k < LOADS; k++)
        s = fmaf(v[k].x + v[k].y + v[k].z + v[k].w, z, s);
    }
  }
  __syncthreads();
  unsigned long long t1 = clock64(), g1 = gtimer();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  if (threadIdx.x == 0) {
    Rec2 r;
    r.t0 = t0;
    r.t1 = t1;
    r.g0 = g0;
    r.g1 = g1;
    r.sm = sm;
    r.worked = work;
    rec[blockIdx.x] = r;
  }
}

struct Pt {
  double bpc_sm;   // mean over busy SMs of bytes / span (B per SM cycle)
  double span;     // mean busy span over busy SMs, cycles
  double dev_bpns; // all bytes / (last g1 - first g0 over working CTAs), bytes per ns
  double ghz;      // mean over busy SMs of span cycles / span ns
  int busy, bmin, bmax;
};

static Pt summarize(const std::vector<Rec2> &r, double bytes_per_block) {
  std::vector<unsigned long long> lo(1024, ~0ull), hi(1024, 0), glo(1024, ~0ull), ghi(1024, 0);
  std::vector<int> cnt(1024, 0);
  unsigned long long G0 = ~0ull, G1 = 0;
  double total = 0;
  for (const Rec2 &x : r) {
    if (!x.worked)
      continue;
    unsigned s = x.sm & 1023;
    lo[s] = std::min(lo[s], x.t0);
    hi[s] = std::max(hi[s], x.t1);
    glo[s] = std::min(glo[s], x.g0);
    ghi[s] = std::max(ghi[s], x.g1);
    cnt[s]++;
    G0 = std::min(G0, x.g0);
    G1 = std::max(G1, x.g1);
    total += bytes_per_block;
  }
  Pt p{0, 0, 0, 0, 0, 1 << 30, 0};
  double ghz = 0;
  for (int s = 0; s < 1024; s++)
    if (cnt[s]) {
      double span = (double)(hi[s] - lo[s]);
      p.bpc_sm += cnt[s] * bytes_per_block / span;
      p.span += span;
      ghz += span / (double)std::max<unsigned long long>(1, ghi[s] - glo[s]);
      p.busy++;
      p.bmin = std::min(p.bmin, cnt[s]);
      p.bmax = std::max(p.bmax, cnt[s]);
    }
  if (p.busy) {
    p.bpc_sm /= p.busy;
    p.span /= p.busy;
    p.ghz = ghz / p.busy;
    p.dev_bpns = total / (double)std::max<unsigned long long>(1, G1 - G0);
  }
  return p;
}

static Rec2 *d_rec2;
static float *d_big;
template <bool L2>
static Pt point(int grid, size_t smem, size_t per_block_f4, int sel, int n, const float4 *a, size_t wrap) {
  const int LOADS = 4;
  int iters = (int)(per_block_f4 / 128 / LOADS);
  std::vector<Rec2> h(grid);
  std::vector<Pt> v;
  for (int r = 0; r < 4; r++) {
    if (!L2)
      flush_l2();
    k_sg<LOADS, L2><<<grid, 128, smem>>>(a, per_block_f4, wrap, d_big, d_rec2, iters, sel, n, g_sms);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    if (r == 0)
      continue; // warm-up
    CK(cudaMemcpy(h.data(), d_rec2, grid * sizeof(Rec2), cudaMemcpyDeviceToHost));
    v.push_back(summarize(h, (double)per_block_f4 * 16));
  }
  std::sort(v.begin(), v.end(), [](const Pt &x, const Pt &y) { return x.bpc_sm < y.bpc_sm; });
  return v[1];
}

__global__ void k_fill(float4 *a, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u;
    a[i] = make_float4(h * 1e-9f, (h >> 3) * 1e-9f, (h >> 7) * 1e-9f, (h >> 11) * 1e-9f);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: smallgrid OUTDIR\n");
    return 2;
  }
  harness_init("smallgrid");
  const size_t n_f4 = (size_t)4 << 30 >> 4; // 4 GiB
  float4 *a;
  CK(cudaMalloc(&a, n_f4 * 16));
  k_fill<<<1024, 256>>>(a, n_f4);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMalloc(&d_rec2, 64 * 1024 * sizeof(Rec2)));
  CK(cudaMalloc(&d_big, 64 * 1024 * 128 * sizeof(float)));
  const size_t l2_wrap = (size_t)16 << 20 >> 4; // 16 MiB region, in float4
  const char *hdr_common = "busy_sms,blocks_per_sm_min,blocks_per_sm_max,warps_per_sm,cycles,bytes_per_cycle_per_sm,"
                           "device_bytes_per_ns,sm_ghz,bytes_per_block";

  // grid.csv: natural launches.
  char hdr[512];
  snprintf(hdr, sizeof hdr, "level,grid,blocks_per_sm_allowed,%s", hdr_common);
  FILE *f = open_csv(argv[1], "grid.csv", hdr);
  const int grids[] = {1, 2, 4, 8, 16, 33, 66, 99, 132, 165, 198, 231, 264};
  const int allowed[] = {1, 2, 4, 8, 16};
  for (int lvl = 0; lvl < 2; lvl++)
    for (int b : allowed)
      for (int g : grids) {
        size_t smem = lvl ? smem_for_blocks(k_sg<4, true>, 128, b) : smem_for_blocks(k_sg<4, false>, 128, b);
        size_t per_block = lvl ? (size_t)1 << 20 >> 4 : std::min<size_t>((size_t)8 << 20, ((size_t)2 << 30) / g) >> 4;
        per_block = per_block / 1024 * 1024;
        Pt p = lvl ? point<true>(g, smem, per_block, 0, 0, a, l2_wrap) : point<false>(g, smem, per_block, 0, 0, a, 0);
        fprintf(f, "%s,%d,%d,%d,%d,%d,%d,%.0f,%.3f,%.1f,%.4f,%zu\n", lvl ? "l2" : "dram", g, b, p.busy, p.bmin, p.bmax,
                4 * p.bmax, p.span, p.bpc_sm, p.dev_bpns, p.ghz, per_block * 16);
        fflush(f);
      }
  fclose(f);

  // active.csv: full wave, n chosen SMs stream.
  snprintf(hdr, sizeof hdr, "level,placement,active_sms,blocks_per_sm,%s", hdr_common);
  f = open_csv(argv[1], "active.csv", hdr);
  const int ns[] = {1, 2, 4, 8, 16, 24, 33, 49, 66, 99, 132};
  const int bs[] = {1, 2, 4, 8, 12, 16};
  for (int lvl = 0; lvl < 2; lvl++)
    for (int sel = 1; sel <= 2; sel++)
      for (int b : bs) {
        if (sel == 2 && b != 1 && b != 4 && b != 16)
          continue;
        size_t smem = lvl ? smem_for_blocks(k_sg<4, true>, 128, b) : smem_for_blocks(k_sg<4, false>, 128, b);
        for (int n : ns) {
          if (sel == 2 && (n == 1 || n == 132))
            continue; // same SMs as packed
          int grid = b * g_sms;
          size_t per_block = lvl ? (size_t)1 << 20 >> 4
                                 : std::min<size_t>((size_t)8 << 20, ((size_t)3 << 30) / (size_t)(b * n)) >> 4;
          per_block = std::min(per_block, n_f4 / grid) / 1024 * 1024;
          Pt p = lvl ? point<true>(grid, smem, per_block, sel, n, a, l2_wrap)
                     : point<false>(grid, smem, per_block, sel, n, a, 0);
          fprintf(f, "%s,%s,%d,%d,%d,%d,%d,%d,%.0f,%.3f,%.1f,%.4f,%zu\n", lvl ? "l2" : "dram",
                  sel == 1 ? "packed" : "spread", n, b, p.busy, p.bmin, p.bmax, 4 * b, p.span, p.bpc_sm, p.dev_bpns,
                  p.ghz, per_block * 16);
          fflush(f);
        }
      }
  fclose(f);
  printf("smallgrid done\n");
  return 0;
}
