// kernels5.cu: two more ordinary kernels measured exactly as results/reference/h200/real/kernels.cu
// (same harness: prelude.inc, host.inc; 128-thread blocks, B blocks per SM pinned by dynamic
// shared-memory padding, one wave of B x 132 blocks, per-SM busy span in clock64 cycles, median of
// 3 launches after a warm-up).  Held-out validation for warpsim's SASS path: other mixes of the
// mechanisms of real/ and real2/.
//   ghist:  256-bin histogram of random bytes straight into global memory (atomicAdd on 256
//           words: RED.E.ADD, heavy contention), 4 per 4-byte load, DRAM stream in
//   divg:   per thread, a data-dependent branch: lanes whose input is odd run 64 FFMAs, the
//           others 16 (warps diverge: both paths run), DRAM stream in and out
// usage: real5 [measure|ncu8]; measure writes $OUT/real5.csv and $OUT/attrs5.csv.
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

__global__ void k_ghist(const unsigned *__restrict__ x, int per_block, unsigned *bins, Rec *rec, float *out) {
    PAD;
    const unsigned *p = x + (size_t)blockIdx.x * per_block;
    unsigned long long t0; rec_begin(t0);
    for (int i = threadIdx.x; i < per_block; i += 128) {
        unsigned w = p[i];
        atomicAdd(&bins[w & 255u], 1u);
        atomicAdd(&bins[(w >> 8) & 255u], 1u);
        atomicAdd(&bins[(w >> 16) & 255u], 1u);
        atomicAdd(&bins[w >> 24], 1u);
    }
    rec_end(rec, t0);
    TOUCH_PAD((float)p[0]);
}

__global__ void k_divg(float *y, const unsigned *__restrict__ x, int per_block, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * per_block;
    unsigned long long t0; rec_begin(t0);
    for (int i = threadIdx.x; i < per_block; i += 128) {
        unsigned v = x[base + i];
        float a = (float)(v & 1023u) * 1e-3f, b = a + 0.5f;
        if (v & 1u) {
#pragma unroll 16
            for (int k = 0; k < 64; ++k) { a = fmaf(a, 0.999f, 0.001f); b = fmaf(b, 0.998f, a); }
        } else {
#pragma unroll 16
            for (int k = 0; k < 16; ++k) { a = fmaf(a, 0.997f, 0.003f); b = fmaf(b, 0.996f, a); }
        }
        y[base + i] = a + b;
    }
    rec_end(rec, t0);
    TOUCH_PAD(y[base]);
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
    const int gh_pb = 16384, dv_pb = 16384;  // words per block
    size_t n = (size_t)16384 * maxgrid;
    unsigned *x, *bins; float *y;
    CK(cudaMalloc(&x, n * 4)); CK(cudaMalloc(&y, n * 4)); CK(cudaMalloc(&bins, 256 * 4)); CK(cudaMemset(bins, 0, 256 * 4));
    k_fill<<<1024, 256>>>(x, n, 777u); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());

    FILE *f = ncu ? nullptr : open_csv("real5.csv", "kernel,blocks_per_sm,warps_per_sm,dyn_smem,cycles,work_per_cycle_per_sm,unit,blocks_min,blocks_max");
    FILE *fa = ncu ? nullptr : open_csv("attrs5.csv", "kernel,regs,static_smem,local_bytes,max_blocks_per_sm_no_pad,work_per_block,unit");
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
    curve("ghist", k_ghist, gh_pb * 4.0, "bytes", [&](int g, size_t sm) { k_ghist<<<g, 128, sm>>>(x, gh_pb, bins, drec, dout); });
    curve("divg", k_divg, dv_pb * 1.0, "elements", [&](int g, size_t sm) { k_divg<<<g, 128, sm>>>(y, x, dv_pb, drec, dout); });
    if (f) fclose(f);
    if (fa) fclose(fa);
    printf("done %s\n", mode.c_str());
    return 0;
}
