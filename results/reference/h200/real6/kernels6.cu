// kernels6.cu: three more ordinary kernels measured exactly as results/reference/h200/real/kernels.cu
// (same harness: prelude.inc, host.inc; 128-thread blocks, B blocks per SM pinned by dynamic
// shared-memory padding, one wave of B x 132 blocks, per-SM busy span in clock64 cycles, median of
// 3 launches after a warm-up).  Held-out validation for warpsim's SASS path: other mixes of the
// mechanisms of real/ and real2/.
//   treduce: textbook block reduction: each thread sums 2 floats into shared memory, then a
//            tree of halving strides with a barrier per step (if (tid < s): the last steps
//            diverge inside one warp), 1024 elements per step, 64 steps per block
//   scan:    inclusive scan of 128 floats per step in shared memory, Hillis-Steele (7 steps,
//            two barriers each, if (tid >= d)), DRAM stream in and out
//   bounds:  2-D 5-point stencil over a 130 x 130 tile per block with the boundary test
//            inside the loop (if (x > 0 && x < W-1 && y > 0 && y < H-1)), grid-stride rows
// usage: real6 [measure|ncu8]; measure writes $OUT/real6.csv and $OUT/attrs6.csv.
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

__global__ void k_treduce(float *y, const float *__restrict__ x, int steps, Rec *rec, float *out) {
    PAD;
    __shared__ float s[128];
    const float *p = x + (size_t)blockIdx.x * steps * 256;
    float total = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < steps; ++k) {
        s[threadIdx.x] = p[k * 256 + threadIdx.x] + p[k * 256 + 128 + threadIdx.x];
        __syncthreads();
        for (int st = 64; st > 0; st >>= 1) {
            if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
            __syncthreads();
        }
        if (threadIdx.x == 0) total += s[0];
        __syncthreads();
    }
    if (threadIdx.x == 0) y[blockIdx.x] = total;
    rec_end(rec, t0);
    TOUCH_PAD(total);
}

__global__ void k_scan(float *y, const float *__restrict__ x, int steps, Rec *rec, float *out) {
    PAD;
    __shared__ float s[128];
    size_t base = (size_t)blockIdx.x * steps * 128;
    float carry = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < steps; ++k) {
        float v = x[base + k * 128 + threadIdx.x];
        for (int d = 1; d < 128; d <<= 1) {
            s[threadIdx.x] = v;
            __syncthreads();
            if (threadIdx.x >= d) v += s[threadIdx.x - d];
            __syncthreads();
        }
        y[base + k * 128 + threadIdx.x] = v + carry;
        carry += __shfl_sync(0xffffffffu, v, 31) * 0.0f + s[127];
        __syncthreads();
    }
    rec_end(rec, t0);
    TOUCH_PAD(carry);
}

__global__ void k_bounds(float *y, const float *__restrict__ x, int reps, Rec *rec, float *out) {
    PAD;
    const int W = 130, H = 130;
    size_t base = (size_t)blockIdx.x * W * H;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int r = 0; r < reps; ++r)
        for (int i = threadIdx.x; i < W * H; i += 128) {
            int xx = i % W, yy = i / W;
            float v = x[base + i];
            if (xx > 0 && xx < W - 1 && yy > 0 && yy < H - 1)
                v = 0.5f * v + 0.125f * (x[base + i - 1] + x[base + i + 1] + x[base + i - W] + x[base + i + W]);
            y[base + i] = v;
            last = v;
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
    const int tr_steps = 64, sc_steps = 64, bd_reps = 2;
    size_t n = (size_t)maxgrid * 130 * 130 * 2;
    float *x, *y; CK(cudaMalloc(&x, n * 4)); CK(cudaMalloc(&y, n * 4));
    CK(cudaMemset(x, 0, n * 4));

    FILE *f = ncu ? nullptr : open_csv("real6.csv", "kernel,blocks_per_sm,warps_per_sm,dyn_smem,cycles,work_per_cycle_per_sm,unit,blocks_min,blocks_max");
    FILE *fa = ncu ? nullptr : open_csv("attrs6.csv", "kernel,regs,static_smem,local_bytes,max_blocks_per_sm_no_pad,work_per_block,unit");
    auto curve = [&](const char *name, auto kernel, double work, const char *unit, auto launch) {
        cudaFuncAttributes at; CK(cudaFuncGetAttributes(&at, kernel));
        int bmax = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bmax, kernel, 128, 0));
        if (fa) fprintf(fa, "%s,%d,%zu,%zu,%d,%.0f,%s\n", name, at.numRegs, at.sharedSizeBytes, at.localSizeBytes, bmax, work, unit);
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
    curve("treduce", k_treduce, tr_steps * 256.0, "elements", [&](int g, size_t sm) { k_treduce<<<g, 128, sm>>>(y, x, tr_steps, drec, dout); });
    curve("scan", k_scan, sc_steps * 128.0, "elements", [&](int g, size_t sm) { k_scan<<<g, 128, sm>>>(y, x, sc_steps, drec, dout); });
    curve("bounds", k_bounds, bd_reps * 130.0 * 130.0, "points", [&](int g, size_t sm) { k_bounds<<<g, 128, sm>>>(y, x, bd_reps, drec, dout); });
    if (f) fclose(f);
    if (fa) fclose(fa);
    printf("done %s\n", mode.c_str());
    return 0;
}
