// kernels3.cu: seven more ordinary kernels measured exactly as results/reference/h200/real/kernels.cu
// (same harness: prelude.inc, host.inc; 128-thread blocks, B blocks per SM pinned by dynamic
// shared-memory padding, one wave of B x 132 blocks, per-SM busy span in clock64 cycles, median of
// 3 launches after a warm-up).  Held-out validation for warpsim's SASS path: other mixes of the
// mechanisms of real/ and real2/.
//   hist:        256-bin byte histogram, shared-memory atomics (16 per 16-byte load), DRAM stream in
//   reduce:      sum of a private 1 MiB slice (float4 loads, DRAM), shuffles, one global atomic per block
//   transpose33: the transpose of real/ through a padded tile t[32][33] (no bank conflict)
//   gather_l2:   y[i] = x[idx[i]], idx uniform over a 4 MiB table (stays in L2)
//   conv:        3x3 filter over a private 128 x 256 band, 8-row strips through a shared tile, 2 barriers
//   mufu:        register-only __expf/__sinf/__cosf chains (MUFU) with FMUL/FADD
//   dpoly:       register-only double-precision FMA chains (DFMA), 4 independent chains per thread
// usage: real3 [measure|ncu8]; measure writes $OUT/real3.csv and $OUT/attrs3.csv.
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

__global__ void k_hist(const uint4 *__restrict__ x, int per_block, unsigned *bins, Rec *rec, float *out) {
    PAD;
    __shared__ unsigned h[256];
    for (int i = threadIdx.x; i < 256; i += 128) h[i] = 0;
    const uint4 *p = x + (size_t)blockIdx.x * per_block;
    unsigned long long t0; rec_begin(t0);
    for (int i = threadIdx.x; i < per_block; i += 128) {
        uint4 v = p[i];
        unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            atomicAdd(&h[w[k] & 255u], 1u);
            atomicAdd(&h[(w[k] >> 8) & 255u], 1u);
            atomicAdd(&h[(w[k] >> 16) & 255u], 1u);
            atomicAdd(&h[w[k] >> 24], 1u);
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += 128) atomicAdd(&bins[i], h[i]);
    rec_end(rec, t0);
    TOUCH_PAD((float)h[1]);
}

__global__ void k_reduce(const float4 *__restrict__ x, int per_block, float *sum, Rec *rec, float *out) {
    PAD;
    __shared__ float part[4];
    const float4 *p = x + (size_t)blockIdx.x * per_block;
    unsigned long long t0; rec_begin(t0);
    float s0 = 0, s1 = 0;
#pragma unroll 4
    for (int i = threadIdx.x; i < per_block; i += 128) { float4 v = p[i]; s0 += v.x + v.y; s1 += v.z + v.w; }
    float s = s0 + s1;
#pragma unroll
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(sum, part[0] + part[1] + part[2] + part[3]);
    rec_end(rec, t0);
    TOUCH_PAD(s);
}

__global__ void k_transpose33(float *dst, const float *__restrict__ src, int tiles, Rec *rec, float *out) {
    PAD;
    const int N = 8192;
    __shared__ float t[32][33];
    int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < tiles; ++k) {
        int tile = (blockIdx.x * tiles + k) % (256 * 256), br = tile / 256, bc = tile % 256;
#pragma unroll
        for (int j = 0; j < 32; j += 4) t[ty + j][tx] = src[(size_t)(br * 32 + ty + j) * N + bc * 32 + tx];
        __syncthreads();
#pragma unroll
        for (int j = 0; j < 32; j += 4) dst[(size_t)(bc * 32 + ty + j) * N + br * 32 + tx] = t[tx][ty + j];
        __syncthreads();
    }
    rec_end(rec, t0);
    TOUCH_PAD(t[0][0]);
}

__global__ void k_gather_l2(float *y, const float *__restrict__ x, const unsigned *__restrict__ idx, int per_block, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * per_block;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int i = threadIdx.x; i < per_block; i += 128) y[base + i] = x[idx[base + i]];
    rec_end(rec, t0);
    TOUCH_PAD(y[0]);
}

__global__ void k_conv(float *y, const float *__restrict__ x, int rows, Rec *rec, float *out) {
    PAD;
    const int W = 130;  // input row pitch: 128 outputs + 2 halo columns
    __shared__ float t[10][W];
    size_t base = (size_t)blockIdx.x * (rows + 2) * W, obase = (size_t)blockIdx.x * rows * 128;
    int c = threadIdx.x;
    unsigned long long t0; rec_begin(t0);
    for (int r0 = 0; r0 < rows; r0 += 8) {
        for (int j = threadIdx.x; j < 10 * W; j += 128) t[j / W][j % W] = x[base + (size_t)r0 * W + j];
        __syncthreads();
#pragma unroll
        for (int r = 0; r < 8; ++r)
            y[obase + (size_t)(r0 + r) * 128 + c] =
                0.0625f * (t[r][c] + t[r][c + 2] + t[r + 2][c] + t[r + 2][c + 2]) +
                0.125f * (t[r][c + 1] + t[r + 1][c] + t[r + 1][c + 2] + t[r + 2][c + 1]) + 0.25f * t[r + 1][c + 1];
        __syncthreads();
    }
    rec_end(rec, t0);
    TOUCH_PAD(t[0][0]);
}

__global__ void k_mufu(float *y, int iters, Rec *rec, float *out) {
    PAD;
    float a = threadIdx.x * 1e-3f, b = a + 0.5f, c = a + 0.25f, d = a + 0.125f;
    unsigned long long t0; rec_begin(t0);
    for (int i = 0; i < iters; ++i) {
        a = __expf(a) * 0.5f - 0.25f;
        b = __sinf(b) * 0.9f + 0.05f;
        c = __expf(-c) + 0.1f;
        d = __cosf(d) * 0.8f;
    }
    float r = a + b + c + d;
    y[blockIdx.x * 128 + threadIdx.x] = r;
    rec_end(rec, t0);
    TOUCH_PAD(r);
}

__global__ void k_dpoly(double *y, int iters, Rec *rec, float *out) {
    PAD;
    double a = threadIdx.x * 1e-3, b = a + 0.5, c = a + 0.25, d = a + 0.125;
    unsigned long long t0; rec_begin(t0);
    for (int i = 0; i < iters; ++i) {
        a = fma(a, 0.999, 0.001); b = fma(b, 0.998, 0.002); c = fma(c, 0.997, 0.003); d = fma(d, 0.996, 0.004);
        a = fma(a, 1.001, -0.001); b = fma(b, 1.002, -0.002); c = fma(c, 1.003, -0.003); d = fma(d, 1.004, -0.004);
    }
    double r = a + b + c + d;
    y[blockIdx.x * 128 + threadIdx.x] = r;
    rec_end(rec, t0);
    TOUCH_PAD((float)r);
}

__global__ void k_fill(unsigned *p, size_t n, unsigned seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned v = (unsigned)i * 2654435761u ^ seed;
        v ^= v >> 15; v *= 2246822519u; v ^= v >> 13; v *= 3266489917u; v ^= v >> 16;
        p[i] = v;
    }
}

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "measure";
    bool ncu = mode == "ncu8";
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    const int maxB = 16, maxgrid = maxB * 132 + 64;
    Rec *drec; CK(cudaMalloc(&drec, sizeof(Rec) * maxgrid));
    float *dout; CK(cudaMalloc(&dout, 1 << 20));
    // hist: 256 KiB of random bytes per block
    const int hist_pb = 16384;  // uint4 per block
    size_t nh = (size_t)hist_pb * maxgrid * 4;
    unsigned *hx, *hb; CK(cudaMalloc(&hx, nh * 4)); CK(cudaMalloc(&hb, 256 * 4)); CK(cudaMemset(hb, 0, 256 * 4));
    k_fill<<<1024, 256>>>(hx, nh, 12345u); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    // reduce: 1 MiB per block
    const int red_pb = 65536;  // float4 per block
    size_t nr = (size_t)red_pb * maxgrid * 4;
    float *rx, *rs; CK(cudaMalloc(&rx, nr * 4)); CK(cudaMalloc(&rs, 4)); CK(cudaMemset(rx, 0, nr * 4)); CK(cudaMemset(rs, 0, 4));
    // transpose33: the 8192 x 8192 matrix of real/
    float *mS, *mD; CK(cudaMalloc(&mS, (size_t)8192 * 8192 * 4)); CK(cudaMalloc(&mD, (size_t)8192 * 8192 * 4));
    CK(cudaMemset(mS, 0, (size_t)8192 * 8192 * 4));
    const int tr_tiles = 128;
    // gather_l2: 16 K elements per block, idx uniform over 1 M floats (4 MiB)
    const int gat_pb = 128 * 128;
    size_t ngat = (size_t)gat_pb * maxgrid, nxg = (size_t)1 << 20;
    float *gx, *gy; unsigned *gi;
    CK(cudaMalloc(&gx, nxg * 4)); CK(cudaMalloc(&gy, ngat * 4)); CK(cudaMalloc(&gi, ngat * 4));
    CK(cudaMemset(gx, 0, nxg * 4));
    {
        std::vector<unsigned> h(ngat); std::mt19937 g(7);
        for (auto &v : h) v = g() & (unsigned)(nxg - 1);
        CK(cudaMemcpy(gi, h.data(), ngat * 4, cudaMemcpyHostToDevice));
    }
    // conv: 256 output rows of 128 per block
    const int conv_rows = 256;
    size_t nci = (size_t)(conv_rows + 2) * 130 * maxgrid, nco = (size_t)conv_rows * 128 * maxgrid;
    float *cx, *cy; CK(cudaMalloc(&cx, nci * 4)); CK(cudaMalloc(&cy, nco * 4)); CK(cudaMemset(cx, 0, nci * 4));
    // mufu, dpoly: register-only loops
    const int mufu_iters = 4096, dp_iters = 4096;
    float *my; CK(cudaMalloc(&my, (size_t)maxgrid * 128 * 4));
    double *dy; CK(cudaMalloc(&dy, (size_t)maxgrid * 128 * 8));

    FILE *f = ncu ? nullptr : open_csv("real3.csv", "kernel,blocks_per_sm,warps_per_sm,dyn_smem,cycles,work_per_cycle_per_sm,unit,blocks_min,blocks_max");
    FILE *fa = ncu ? nullptr : open_csv("attrs3.csv", "kernel,regs,static_smem,local_bytes,max_blocks_per_sm_no_pad,work_per_block,unit");
    auto curve = [&](const char *name, auto kernel, double work, const char *unit, auto launch) {
        cudaFuncAttributes a; CK(cudaFuncGetAttributes(&a, kernel));
        int bmax = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bmax, kernel, 128, 0));
        if (fa) fprintf(fa, "%s,%d,%zu,%zu,%d,%.0f,%s\n", name, a.numRegs, a.sharedSizeBytes, a.localSizeBytes, bmax, work, unit);
        for (int b = 1; b <= maxB; ++b) {
            if (ncu && b != 8) continue;
            size_t smem = smem_pin(kernel, 128, b);
            if (!smem) continue;
            if (ncu) { launch(b * g_sms, smem); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); continue; }
            Span s = run_wave(b, smem, [&](int grid, size_t sm, unsigned) { launch(grid, sm); }, drec);
            fprintf(f, "%s,%d,%d,%zu,%.0f,%.5f,%s,%.0f,%.0f\n", name, b, 4 * b, smem, s.cycles, b * work / s.cycles, unit,
                    s.blocks_per_sm_min, s.blocks_per_sm_max);
            fflush(f);
        }
    };
    curve("hist", k_hist, hist_pb * 16.0, "bytes", [&](int g, size_t sm) { k_hist<<<g, 128, sm>>>((const uint4 *)hx, hist_pb, hb, drec, dout); });
    curve("reduce", k_reduce, red_pb * 16.0, "bytes", [&](int g, size_t sm) { k_reduce<<<g, 128, sm>>>((const float4 *)rx, red_pb, rs, drec, dout); });
    curve("transpose33", k_transpose33, tr_tiles * 1024.0, "elements", [&](int g, size_t sm) { k_transpose33<<<g, 128, sm>>>(mD, mS, tr_tiles, drec, dout); });
    curve("gather_l2", k_gather_l2, gat_pb * 1.0, "elements", [&](int g, size_t sm) { k_gather_l2<<<g, 128, sm>>>(gy, gx, gi, gat_pb, drec, dout); });
    curve("conv", k_conv, conv_rows * 128.0, "points", [&](int g, size_t sm) { k_conv<<<g, 128, sm>>>(cy, cx, conv_rows, drec, dout); });
    curve("mufu", k_mufu, mufu_iters * 4.0 * 4, "warp_mufu", [&](int g, size_t sm) { k_mufu<<<g, 128, sm>>>(my, mufu_iters, drec, dout); });
    curve("dpoly", k_dpoly, dp_iters * 8.0 * 4, "warp_dfma", [&](int g, size_t sm) { k_dpoly<<<g, 128, sm>>>(dy, dp_iters, drec, dout); });
    if (f) fclose(f);
    if (fa) fclose(fa);
    printf("done %s\n", mode.c_str());
    return 0;
}
