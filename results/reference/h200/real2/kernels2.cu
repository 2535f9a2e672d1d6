// kernels2.cu: two more ordinary kernels measured exactly as results/reference/h200/real/kernels.cu
// (same harness: prelude.inc, host.inc; 128-thread blocks, B blocks per SM pinned by dynamic
// shared-memory padding, one wave of B x 132 blocks, per-SM busy span in clock64 cycles, median of
// 3 launches after a warm-up).  Held-out validation for warpsim's SASS path.
//   blur: 5-tap 1-D filter through a shared-memory tile with halo, two barriers per tile (DRAM stream)
//   mv:   y = A v, one warp per row of 1024 floats, v (4 KB) reused through L1, shuffle reduction
// usage: real2 [measure|ncu8]; measure writes $OUT/real2.csv and $OUT/attrs2.csv.
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

__global__ void k_blur(float *y, const float *__restrict__ x, int per_block, Rec *rec, float *out) {
    PAD;
    __shared__ float t[512 + 4];
    size_t base = (size_t)blockIdx.x * (per_block + 4);
    unsigned long long t0; rec_begin(t0);
    for (int i0 = 0; i0 < per_block; i0 += 512) {
        for (int j = threadIdx.x; j < 516; j += 128) t[j] = x[base + i0 + j];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            int j = threadIdx.x + 128 * k;
            y[base + i0 + j + 2] = 0.1f * t[j] + 0.2f * t[j + 1] + 0.4f * t[j + 2] + 0.2f * t[j + 3] + 0.1f * t[j + 4];
        }
        __syncthreads();
    }
    rec_end(rec, t0);
    TOUCH_PAD(t[1]);
}

__global__ void k_mv(float *y, const float *__restrict__ A, const float *__restrict__ v, int rows, Rec *rec, float *out) {
    PAD;
    const int K = 1024;
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int r = w; r < rows; r += 4) {
        size_t row = (size_t)blockIdx.x * rows + r;
        const float *a = A + row * K;
        float s = 0;
#pragma unroll 8
        for (int k = lane; k < K; k += 32) s = fmaf(a[k], v[k], s);
#pragma unroll
        for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        if (lane == 0) y[row] = s;
        last = s;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "measure";
    bool ncu = mode == "ncu8";
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    const int maxB = 16, maxgrid = maxB * 132 + 64;
    Rec *drec; CK(cudaMalloc(&drec, sizeof(Rec) * maxgrid));
    float *dout; CK(cudaMalloc(&dout, 1 << 20));
    const int blur_pb = 128 * 512;  // 64 K outputs per block
    size_t nb = (size_t)(blur_pb + 4) * maxgrid;
    float *bx, *by; CK(cudaMalloc(&bx, nb * 4)); CK(cudaMalloc(&by, nb * 4));
    CK(cudaMemset(bx, 0, nb * 4)); CK(cudaMemset(by, 0, nb * 4));
    const int mv_rows = 64;
    size_t na = (size_t)mv_rows * 1024 * maxgrid;
    float *mA, *mv, *my; CK(cudaMalloc(&mA, na * 4)); CK(cudaMalloc(&mv, 4096 * 4));
    CK(cudaMalloc(&my, (size_t)mv_rows * maxgrid * 4));
    CK(cudaMemset(mA, 0, na * 4)); CK(cudaMemset(mv, 0, 4096 * 4));

    FILE *f = ncu ? nullptr : open_csv("real2.csv", "kernel,blocks_per_sm,warps_per_sm,dyn_smem,cycles,work_per_cycle_per_sm,unit,blocks_min,blocks_max");
    FILE *fa = ncu ? nullptr : open_csv("attrs2.csv", "kernel,regs,static_smem,local_bytes,max_blocks_per_sm_no_pad,work_per_block,unit");
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
    curve("blur", k_blur, blur_pb * 8.0, "bytes", [&](int g, size_t sm) { k_blur<<<g, 128, sm>>>(by, bx, blur_pb, drec, dout); });
    curve("mv", k_mv, mv_rows * 1024 * 4.0, "bytes", [&](int g, size_t sm) { k_mv<<<g, 128, sm>>>(my, mA, mv, mv_rows, drec, dout); });
    if (f) fclose(f);
    if (fa) fclose(fa);
    printf("done %s\n", mode.c_str());
    return 0;
}
