// kernels7.cu: two streaming kernels measured exactly as results/reference/h200/real/kernels.cu
// (same harness: prelude.inc, host.inc; 128-thread blocks, B blocks per SM pinned by dynamic
// shared-memory padding, one wave of B x 132 blocks, per-SM busy span in clock64 cycles, median of
// 3 launches after a warm-up).  They ask whether DRAM's bandwidth is one budget when a kernel
// mixes access widths: warpsim serves multi-line (float2/float4) requests and single-line ones
// with separate DRAM servers.
//   vmix:  per element one float4 load (512 B per warp-load), one float load (128 B) and one
//          float store: y[i] = a.x + a.y + a.z + a.w + b, 24 B of DRAM traffic per element
//   v4:    the same with the float4 alone: y[i] = a.x + a.y + a.z + a.w, 20 B per element
// Each block streams its own chunk of 256 x 128 elements (no reuse; 415 MB at B = 16, 26 MB per
// B for vmix).
// usage: real7 [measure|ncu8]; measure writes $OUT/real7.csv and $OUT/attrs7.csv.
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

__global__ void k_vmix(float *y, const float4 *__restrict__ a, const float *__restrict__ b, int steps,
                       Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * steps * 128;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < steps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        float4 v = a[i];
        float v2 = v.x + v.y + v.z + v.w + b[i];
        y[i] = v2;
        last = v2;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

__global__ void k_v4(float *y, const float4 *__restrict__ a, int steps, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * steps * 128;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < steps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        float4 v = a[i];
        float v2 = v.x + v.y + v.z + v.w;
        y[i] = v2;
        last = v2;
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
    const int steps = 256;
    size_t n = (size_t)maxgrid * steps * 128;
    float4 *a; float *b, *y;
    CK(cudaMalloc(&a, n * sizeof(float4))); CK(cudaMalloc(&b, n * 4)); CK(cudaMalloc(&y, n * 4));
    CK(cudaMemset(a, 0, n * sizeof(float4))); CK(cudaMemset(b, 0, n * 4));

    FILE *f = ncu ? nullptr : open_csv("real7.csv", "kernel,blocks_per_sm,warps_per_sm,dyn_smem,cycles,work_per_cycle_per_sm,unit,blocks_min,blocks_max");
    FILE *fa = ncu ? nullptr : open_csv("attrs7.csv", "kernel,regs,static_smem,local_bytes,max_blocks_per_sm_no_pad,work_per_block,unit");
    auto curve = [&](const char *name, auto kernel, double work, const char *unit, auto launch) {
        cudaFuncAttributes at; CK(cudaFuncGetAttributes(&at, kernel));
        int bmax = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bmax, kernel, 128, 0));
        if (fa) fprintf(fa, "%s,%d,%zu,%zu,%d,%.0f,%s\n", name, at.numRegs, at.sharedSizeBytes, at.localSizeBytes, bmax, work, unit);
        for (int bb = 1; bb <= maxB; ++bb) {
            if (ncu && bb != 8) continue;
            size_t smem = smem_pin(kernel, 128, bb);
            if (!smem) continue;
            if (ncu) { launch(bb * g_sms, smem); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); continue; }
            Span s = run_wave(bb, smem, [&](int grid, size_t sm, unsigned) { launch(grid, sm); }, drec);
            fprintf(f, "%s,%d,%d,%zu,%.0f,%.5f,%s,%.0f,%.0f\n", name, bb, 4 * bb, smem, s.cycles, bb * work / s.cycles, unit,
                    s.blocks_per_sm_min, s.blocks_per_sm_max);
            fflush(f);
        }
    };
    curve("vmix", k_vmix, steps * 128.0, "elements", [&](int g, size_t sm) { k_vmix<<<g, 128, sm>>>(y, a, b, steps, drec, dout); });
    curve("v4", k_v4, steps * 128.0, "elements", [&](int g, size_t sm) { k_v4<<<g, 128, sm>>>(y, a, steps, drec, dout); });
    if (f) fclose(f);
    if (fa) fclose(fa);
    printf("done %s\n", mode.c_str());
    return 0;
}
