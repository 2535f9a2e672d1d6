// kernels4.cu: two more ordinary kernels measured exactly as results/reference/h200/real/kernels.cu
// (same harness: prelude.inc, host.inc; 128-thread blocks, B blocks per SM pinned by dynamic
// shared-memory padding, one wave of B x 132 blocks, per-SM busy span in clock64 cycles, median of
// 3 launches after a warm-up).  Held-out validation for warpsim's SASS path: other mixes of the
// mechanisms of real/ and real2/.
//   spmv:    y = A x, CSR with 32 nonzeros per row, one warp per row: val and col streamed
//            (coalesced, DRAM), x gathered from a 4 MiB vector (scattered, stays in L2), shuffles
//   dgather: y[i] = a[i mod 512 K] + big[hash(i)]: a (2 MiB) re-read by every block (coalesced,
//            L2 hits), big (1 GiB) gathered at random (scattered, DRAM)
// usage: real4 [measure|ncu8]; measure writes $OUT/real4.csv and $OUT/attrs4.csv.
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

__global__ void k_spmv(float *y, const float *__restrict__ val, const unsigned *__restrict__ col,
                       const float *__restrict__ x, int rows, Rec *rec, float *out) {
    PAD;
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int r = w; r < rows; r += 4) {
        size_t row = (size_t)blockIdx.x * rows + r, k = row * 32 + lane;
        float s = val[k] * x[col[k]];
#pragma unroll
        for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        if (lane == 0) y[row] = s;
        last = s;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

__device__ __forceinline__ unsigned mix(unsigned v) {
    v ^= v >> 16; v *= 0x7feb352du; v ^= v >> 15; v *= 0x846ca68bu; v ^= v >> 16;
    return v;
}

__global__ void k_dgather(float *y, const float *__restrict__ a, const float *__restrict__ big, int per_block, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * per_block;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int i = threadIdx.x; i < per_block; i += 128) {
        size_t g = base + i;
        y[g] = a[g & ((1u << 19) - 1)] + big[mix((unsigned)g) & ((1u << 28) - 1)];
    }
    rec_end(rec, t0);
    TOUCH_PAD(y[0]);
}

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "measure";
    bool ncu = mode == "ncu8";
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    const int maxB = 16, maxgrid = maxB * 132 + 64;
    Rec *drec; CK(cudaMalloc(&drec, sizeof(Rec) * maxgrid));
    float *dout; CK(cudaMalloc(&dout, 1 << 20));
    // spmv: 1024 rows of 32 nonzeros per block, x = 1 M floats (4 MiB)
    const int sp_rows = 1024;
    size_t nnz = (size_t)sp_rows * 32 * maxgrid, nx = (size_t)1 << 20;
    float *sv, *sx, *sy; unsigned *sc;
    CK(cudaMalloc(&sv, nnz * 4)); CK(cudaMalloc(&sc, nnz * 4)); CK(cudaMalloc(&sx, nx * 4));
    CK(cudaMalloc(&sy, (size_t)sp_rows * maxgrid * 4));
    CK(cudaMemset(sv, 0, nnz * 4)); CK(cudaMemset(sx, 0, nx * 4));
    {
        std::vector<unsigned> h(nnz); std::mt19937 g(11);
        for (auto &v : h) v = g() & (unsigned)(nx - 1);
        CK(cudaMemcpy(sc, h.data(), nnz * 4, cudaMemcpyHostToDevice));
    }
    // dgather: 16 K elements per block; a = 512 K floats (2 MiB), big = 256 M floats (1 GiB)
    const int dg_pb = 128 * 128;
    float *da, *db, *dy;
    CK(cudaMalloc(&da, (size_t)4 << 19)); CK(cudaMalloc(&db, (size_t)4 << 28)); CK(cudaMalloc(&dy, (size_t)dg_pb * maxgrid * 4));
    CK(cudaMemset(da, 0, (size_t)4 << 19)); CK(cudaMemset(db, 0, (size_t)4 << 28));

    FILE *f = ncu ? nullptr : open_csv("real4.csv", "kernel,blocks_per_sm,warps_per_sm,dyn_smem,cycles,work_per_cycle_per_sm,unit,blocks_min,blocks_max");
    FILE *fa = ncu ? nullptr : open_csv("attrs4.csv", "kernel,regs,static_smem,local_bytes,max_blocks_per_sm_no_pad,work_per_block,unit");
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
    curve("spmv", k_spmv, sp_rows * 32.0, "nonzeros", [&](int g, size_t sm) { k_spmv<<<g, 128, sm>>>(sy, sv, sc, sx, sp_rows, drec, dout); });
    curve("dgather", k_dgather, dg_pb * 1.0, "elements", [&](int g, size_t sm) { k_dgather<<<g, 128, sm>>>(dy, da, db, dg_pb, drec, dout); });
    if (f) fclose(f);
    if (fa) fclose(fa);
    printf("done %s\n", mode.c_str());
    return 0;
}
