// mech3.cu: two mechanisms behind results/reference/h200/real3/ (held-out kernels), measured
// with the harness of real/ (prelude.inc, host.inc: 128-thread blocks, B blocks per SM pinned by
// dynamic shared-memory padding, one wave, per-SM busy span in clock64 cycles, median of 3).
//   dmix K:  per thread 4 independent DFMA chains and K independent FFMA chains per iteration
//            (K = 0, 4, 8), 2048 iterations: does a DFMA hold the SMSP's dispatch for 2 cycles?
//   ffma:    8 independent FFMA chains (the FP32 reference)
//   l2g S:   scattered loads from a 4 MiB table (L2-resident): each warp-load touches S sectors
//            (S = 1, 4, 32), index from a hash (no index loads), 4 loads in flight per thread,
//            sum kept in a register: L2 cost per request vs per sector, and the loads in flight.
// usage: mech3 -> $OUT/mech3.csv
#include "prelude.inc"
#include "host.inc"

template <typename K>
static size_t smem_pin(K kernel, int threads, int want) {
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
    size_t smem = std::min<size_t>(200 * 1024, (228 * 1024) / want);
    for (;;) {
        int b = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, threads, smem));
        if (b >= want) return b == want ? smem : 0;
        if (smem < 128) return 0;
        smem -= 128;
    }
}
#define PAD extern __shared__ char pad_[]
#define TOUCH_PAD(x) if ((x) == 1234.5f) out[0] = (x) + pad_[0]

template <int K>
__global__ void k_dmix(double *yd, float *yf, int iters, Rec *rec, float *out) {
    PAD;
    double a = threadIdx.x * 1e-3, b = a + 0.5, c = a + 0.25, d = a + 0.125;
    float f[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) f[j] = threadIdx.x * 1e-3f + j;
    unsigned long long t0; rec_begin(t0);
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int r = 0; r < 2; ++r) {
            a = fma(a, 0.999, 0.001); b = fma(b, 0.998, 0.002); c = fma(c, 0.997, 0.003); d = fma(d, 0.996, 0.004);
#pragma unroll
            for (int j = 0; j < K; ++j) f[j] = fmaf(f[j], 0.9999f, 0.0001f);
        }
    }
    double r = a + b + c + d;
    float s = 0;
#pragma unroll
    for (int j = 0; j < 8; ++j) s += f[j];
    yd[blockIdx.x * 128 + threadIdx.x] = r;
    yf[blockIdx.x * 128 + threadIdx.x] = s;
    rec_end(rec, t0);
    TOUCH_PAD(s);
}

__global__ void k_ffma(float *yf, int iters, Rec *rec, float *out) {
    PAD;
    float f[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) f[j] = threadIdx.x * 1e-3f + j;
    unsigned long long t0; rec_begin(t0);
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int r = 0; r < 2; ++r)
#pragma unroll
            for (int j = 0; j < 8; ++j) f[j] = fmaf(f[j], 0.9999f, 0.0001f);
    }
    float s = 0;
#pragma unroll
    for (int j = 0; j < 8; ++j) s += f[j];
    yf[blockIdx.x * 128 + threadIdx.x] = s;
    rec_end(rec, t0);
    TOUCH_PAD(s);
}

__device__ __forceinline__ unsigned mix(unsigned v) {
    v ^= v >> 16; v *= 0x7feb352du; v ^= v >> 15; v *= 0x846ca68bu; v ^= v >> 16;
    return v;
}

// Each warp-load touches S sectors: lanes in groups of 32/S read consecutive floats of one sector.
template <int S>
__global__ void k_l2g(const float *__restrict__ x, unsigned mask, int iters, Rec *rec, float *out, float *y) {
    PAD;
    const int G = 32 / S;  // lanes per sector (G floats of one 32 B sector when G <= 8)
    unsigned lane = threadIdx.x & 31, gw = (blockIdx.x * 128 + threadIdx.x) >> 5;
    float s = 0;
    unsigned long long t0; rec_begin(t0);
    for (int i = 0; i < iters; i += 4) {
        float v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            unsigned key = (gw * 0x9e3779b9u) ^ ((unsigned)(i + u) * 0x85ebca6bu) ^ (lane / G);
            unsigned sector = mix(key) & mask;           // sector index in the table
            v[u] = x[sector * 8 + (lane % G) % 8];
        }
        s += v[0] + v[1] + v[2] + v[3];
    }
    y[blockIdx.x * 128 + threadIdx.x] = s;
    rec_end(rec, t0);
    TOUCH_PAD(s);
}

int main() {
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    const int maxB = 16, maxgrid = maxB * 132 + 64;
    Rec *drec; CK(cudaMalloc(&drec, sizeof(Rec) * maxgrid));
    float *dout; CK(cudaMalloc(&dout, 1 << 20));
    double *yd; CK(cudaMalloc(&yd, (size_t)maxgrid * 128 * 8));
    float *yf; CK(cudaMalloc(&yf, (size_t)maxgrid * 128 * 4));
    const size_t table = (size_t)1 << 20;  // floats: 4 MiB
    float *x; CK(cudaMalloc(&x, table * 4)); CK(cudaMemset(x, 0, table * 4));
    const unsigned mask = (unsigned)(table / 8 - 1);  // sectors in the table
    const int iters = 2048, giters = 256;
    FILE *f = open_csv("mech3.csv", "case,blocks_per_sm,warps_per_sm,cycles,work_per_block,work_per_cycle_per_sm,unit");
    auto curve = [&](const char *name, auto kernel, double work, const char *unit, std::initializer_list<int> bs, auto launch) {
        for (int b : bs) {
            size_t smem = smem_pin(kernel, 128, b);
            if (!smem) continue;
            Span s = run_wave(b, smem, [&](int grid, size_t sm, unsigned) { launch(grid, sm); }, drec);
            fprintf(f, "%s,%d,%d,%.0f,%.0f,%.5f,%s\n", name, b, 4 * b, s.cycles, work, b * work / s.cycles, unit);
            fflush(f);
        }
    };
    auto all = {1, 2, 4, 8, 12, 16};
    curve("dmix0_dfma", k_dmix<0>, iters * 8.0 * 4, "warp_dfma", all, [&](int g, size_t sm) { k_dmix<0><<<g, 128, sm>>>(yd, yf, iters, drec, dout); });
    curve("dmix4_dfma", k_dmix<4>, iters * 8.0 * 4, "warp_dfma", all, [&](int g, size_t sm) { k_dmix<4><<<g, 128, sm>>>(yd, yf, iters, drec, dout); });
    curve("dmix8_dfma", k_dmix<8>, iters * 8.0 * 4, "warp_dfma", all, [&](int g, size_t sm) { k_dmix<8><<<g, 128, sm>>>(yd, yf, iters, drec, dout); });
    curve("ffma8", k_ffma, iters * 16.0 * 4, "warp_ffma", all, [&](int g, size_t sm) { k_ffma<<<g, 128, sm>>>(yf, iters, drec, dout); });
    auto gb = {1, 2, 3, 4, 6, 8, 12, 16};
    curve("l2g_s1", k_l2g<1>, giters * 4.0, "warp_loads", gb, [&](int g, size_t sm) { k_l2g<1><<<g, 128, sm>>>(x, mask, giters, drec, dout, yf); });
    curve("l2g_s4", k_l2g<4>, giters * 4.0, "warp_loads", gb, [&](int g, size_t sm) { k_l2g<4><<<g, 128, sm>>>(x, mask, giters, drec, dout, yf); });
    curve("l2g_s32", k_l2g<32>, giters * 4.0, "warp_loads", gb, [&](int g, size_t sm) { k_l2g<32><<<g, 128, sm>>>(x, mask, giters, drec, dout, yf); });
    fclose(f);
    printf("done\n");
    return 0;
}
