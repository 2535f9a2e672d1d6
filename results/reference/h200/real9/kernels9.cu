// kernels9.cu: five kernels that mix the mechanisms of the six of ../real/ (streams, L1/L2
// reuse, misaligned neighbours, shuffles, shared-memory tiles with barriers, scattered and
// strided loads, stores), measured exactly as ../real7/kernels7.cu (same harness: prelude.inc,
// host.inc; 128-thread blocks, B blocks per SM pinned by dynamic shared-memory padding, one
// wave of B x 132 blocks, per-SM busy span in clock64 cycles, median of 3 launches after a
// warm-up).  Measured to judge the model, never to fit it.
//   st2d:   2D 5-point stencil, each block its own 32 rows x 1024 columns (rows reused in L1/L2,
//           c - 1 and c + 1 misaligned), one store per point                 work: points
//   rowsm:  softmax of 512-float rows, one row per warp at a time: 16 loads per lane, max and
//           sum by warp shuffles, 16 expf, 16 stores                         work: elements
//   gstore: y[i] = 2 x[idx[i]]: coalesced index loads, scattered loads from a 64 MiB table,
//           coalesced stores                                                 work: elements
//   mm32:   C = A B with 32 x 32 output tiles per block (8 per thread), K = 512 in 32-wide
//           shared-memory tiles with two barriers each; B shared by all blocks  work: FFMA
//   colsum: each thread sums its own row of 256 floats (lanes 1 KiB apart: 32 sectors per
//           warp-load, later ones L1 hits), one store                        work: elements
// usage: real9 [measure|ncu8]; measure writes $OUT/real9.csv and $OUT/attrs9.csv.
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

static const int kRows = 32, kCols = 1024, kPitch = 1024 + 64;

__global__ void k_st2d(float *y, const float *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * (kRows + 2) * kPitch + 32;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int r = 1; r <= kRows; ++r) {
#pragma unroll 4
        for (int j = 0; j < kCols / 128; ++j) {
            size_t i = base + (size_t)r * kPitch + j * 128 + threadIdx.x;
            float v = 0.2f * (x[i] + x[i - kPitch] + x[i + kPitch] + x[i - 1] + x[i + 1]);
            y[i] = v;
            last = v;
        }
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

static const int kRowLen = 512, kRowsPerWarp = 32;

__global__ void k_rowsm(float *y, const float *__restrict__ x, Rec *rec, float *out) {
    PAD;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    size_t base = ((size_t)blockIdx.x * 4 + warp) * kRowsPerWarp * kRowLen;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int r = 0; r < kRowsPerWarp; ++r) {
        const float *row = x + base + (size_t)r * kRowLen;
        float v[kRowLen / 32];
        float m = -1e30f;
#pragma unroll
        for (int k = 0; k < kRowLen / 32; ++k) { v[k] = row[k * 32 + lane]; m = fmaxf(m, v[k]); }
#pragma unroll
        for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        float s = 0;
#pragma unroll
        for (int k = 0; k < kRowLen / 32; ++k) { v[k] = __expf(v[k] - m); s += v[k]; }
#pragma unroll
        for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
        float inv = 1.0f / s;
        float *dst = y + base + (size_t)r * kRowLen;
#pragma unroll
        for (int k = 0; k < kRowLen / 32; ++k) dst[k * 32 + lane] = v[k] * inv;
        last = inv;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

static const int kGSteps = 128;
static const size_t kTable = (size_t)16 << 20;  // floats: 64 MiB

__global__ void k_gstore(float *y, const float *__restrict__ x, const unsigned *__restrict__ idx,
                         Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kGSteps * 128;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int k = 0; k < kGSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        float v = 2.0f * x[idx[i]];
        y[i] = v;
        last = v;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

static const int kK = 512;

__global__ void k_mm32(float *C, const float *__restrict__ A, const float *__restrict__ B, Rec *rec,
                       float *out) {
    PAD;
    __shared__ float As[32][33], Bs[32][33];
    int tx = threadIdx.x % 32, ty = threadIdx.x / 32;  // ty 0..3: rows ty, ty+4, ..., ty+28
    const float *a = A + (size_t)blockIdx.x * 32 * kK;
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned long long t0; rec_begin(t0);
    for (int k0 = 0; k0 < kK; k0 += 32) {
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            As[ty + 4 * r][tx] = a[(size_t)(ty + 4 * r) * kK + k0 + tx];
            Bs[ty + 4 * r][tx] = B[(size_t)(k0 + ty + 4 * r) * 32 + tx];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 32; ++k) {
            float b = Bs[k][tx];
#pragma unroll
            for (int r = 0; r < 8; ++r) acc[r] = fmaf(As[ty + 4 * r][k], b, acc[r]);
        }
        __syncthreads();
    }
    float *c = C + (size_t)blockIdx.x * 32 * 32;
#pragma unroll
    for (int r = 0; r < 8; ++r) c[(ty + 4 * r) * 32 + tx] = acc[r];
    rec_end(rec, t0);
    TOUCH_PAD(acc[0]);
}

static const int kColLen = 256;

__global__ void k_colsum(float *y, const float *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t row = (size_t)blockIdx.x * 128 + threadIdx.x;
    const float *p = x + row * kColLen;
    float s = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 8
    for (int c = 0; c < kColLen; ++c) s += p[c];
    y[row] = s;
    rec_end(rec, t0);
    TOUCH_PAD(s);
}

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "measure";
    bool ncu = mode == "ncu8";
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    const int maxB = 16, maxgrid = maxB * 132 + 64;
    Rec *drec; CK(cudaMalloc(&drec, sizeof(Rec) * maxgrid));
    float *dout; CK(cudaMalloc(&dout, 1 << 20));
    // one input and one output buffer big enough for every kernel
    size_t n_st = (size_t)maxgrid * (kRows + 2) * kPitch + 64;
    size_t n_sm = (size_t)maxgrid * 4 * kRowsPerWarp * kRowLen;
    size_t n_g = (size_t)maxgrid * kGSteps * 128;
    size_t n_col = (size_t)maxgrid * 128 * kColLen;
    size_t n = std::max(std::max(n_st, n_sm), std::max(std::max(n_g, n_col), kTable));
    float *x, *y; unsigned *idx;
    CK(cudaMalloc(&x, n * 4)); CK(cudaMalloc(&y, n * 4)); CK(cudaMalloc(&idx, n_g * 4));
    CK(cudaMemset(x, 0, n * 4)); CK(cudaMemset(y, 0, n * 4));
    {
        std::vector<unsigned> h(n_g);
        std::mt19937 g(7);
        for (auto &v : h) v = (unsigned)(g() % kTable);
        CK(cudaMemcpy(idx, h.data(), n_g * 4, cudaMemcpyHostToDevice));
    }
    float *A, *B, *C;
    CK(cudaMalloc(&A, (size_t)maxgrid * 32 * kK * 4)); CK(cudaMalloc(&B, (size_t)kK * 32 * 4));
    CK(cudaMalloc(&C, (size_t)maxgrid * 32 * 32 * 4));
    CK(cudaMemset(A, 0, (size_t)maxgrid * 32 * kK * 4)); CK(cudaMemset(B, 0, (size_t)kK * 32 * 4));

    FILE *f = ncu ? nullptr : open_csv("real9.csv", "kernel,blocks_per_sm,warps_per_sm,dyn_smem,cycles,work_per_cycle_per_sm,unit,blocks_min,blocks_max");
    FILE *fa = ncu ? nullptr : open_csv("attrs9.csv", "kernel,regs,static_smem,local_bytes,max_blocks_per_sm_no_pad,work_per_block,unit");
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
    curve("st2d", k_st2d, (double)kRows * kCols, "points", [&](int g, size_t sm) { k_st2d<<<g, 128, sm>>>(y, x, drec, dout); });
    curve("rowsm", k_rowsm, 4.0 * kRowsPerWarp * kRowLen, "elements", [&](int g, size_t sm) { k_rowsm<<<g, 128, sm>>>(y, x, drec, dout); });
    curve("gstore", k_gstore, kGSteps * 128.0, "elements", [&](int g, size_t sm) { k_gstore<<<g, 128, sm>>>(y, x, idx, drec, dout); });
    curve("mm32", k_mm32, 32.0 * 32 * kK, "FFMA", [&](int g, size_t sm) { k_mm32<<<g, 128, sm>>>(C, A, B, drec, dout); });
    curve("colsum", k_colsum, 128.0 * kColLen, "elements", [&](int g, size_t sm) { k_colsum<<<g, 128, sm>>>(y, x, drec, dout); });
    if (f) fclose(f);
    if (fa) fclose(fa);
    printf("done %s\n", mode.c_str());
    return 0;
}
