// kernels10.cu: seven ordinary kernels that exercise mechanisms no earlier real kernel does
// (tensor cores, cp.async, half2 math, shared-memory atomics, heavy integer hashing, FP64 math
// on shared tiles, a bitonic sort with barriers and shuffles), measured exactly as
// ../real9/kernels9.cu (same harness: prelude.inc, host.inc; 128-thread blocks, B blocks per SM
// pinned by dynamic shared-memory padding, one wave of B x 132 blocks, per-SM busy span in
// clock64 cycles, median of 3 launches after a warm-up).  Measured to judge the model, never to
// fit it.  Work per block is the same at every B.
//   wmma:    C = A B in half with float accumulate (nvcuda::wmma 16x16x16), a 32 x 32 output
//            tile per block (one 16 x 16 per warp), K = 2048 in 32-wide shared-memory tiles with
//            two barriers each; A one of 16 panels (blockIdx % 16), B shared: 2.1 MiB in L2
//                                                                           work: FMA (MACs)
//   cpasync: 3-point stencil over the block's own 64 tiles of 512 floats, each tile staged in
//            shared memory by cp.async (__pipeline_memcpy_async 16 B per thread), double
//            buffered (commit, wait_prior(1)), one float4 store per thread   work: elements
//   h2axpy:  y = p(x) + y on half2 (4 __hfma2 Horner steps per half2), 32-bit coalesced loads
//            and stores, private slices streamed from DRAM                   work: halves
//   shist:   256-bin histogram of the block's 16,384 uints with atomicAdd on __shared__ bins,
//            then one global atomicAdd per bin per block                     work: elements
//   ihash:   32 murmur3-style rounds (IMAD, LOP3, SHF) on each of 32 uints per thread, one load
//            and one store per uint                                          work: rounds
//   dgemm:   C = A B in double, a 32 x 32 output tile per block (8 per thread), K = 1024 in
//            16-wide shared-memory tiles with two barriers each; A one of 64 panels
//            (blockIdx % 64), B shared: 16.5 MiB                             work: DFMA
//   bsort:   bitonic sort of 4 segments of 1024 uints per block, 8 keys per thread in registers:
//            partner distance >= 128 in registers, 32..64 through shared memory with barriers,
//            < 32 by __shfl_xor_sync                                        work: keys
// usage: real10 [measure|ncu8]; measure writes $OUT/real10.csv and $OUT/attrs10.csv.
#include "prelude.inc"
#include "host.inc"
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <mma.h>

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

// ---- wmma --------------------------------------------------------------------------------
static const int kWK = 2048, kWPanels = 16, kWPitch = 40;  // halves; 80 B rows

__global__ void k_wmma(float *C, const __half *__restrict__ A, const __half *__restrict__ B, Rec *rec,
                       float *out) {
    using namespace nvcuda;
    PAD;
    __shared__ __align__(32) __half As[32][kWPitch], Bs[32][kWPitch];
    int warp = threadIdx.x / 32, wr = warp / 2, wc = warp % 2;
    int lr = threadIdx.x / 4, lc = (threadIdx.x % 4) * 8;  // one 16 B piece of each tile
    const __half *a = A + (size_t)(blockIdx.x % kWPanels) * 32 * kWK;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    unsigned long long t0; rec_begin(t0);
    for (int k0 = 0; k0 < kWK; k0 += 32) {
        *(uint4 *)&As[lr][lc] = *(const uint4 *)&a[(size_t)lr * kWK + k0 + lc];
        *(uint4 *)&Bs[lr][lc] = *(const uint4 *)&B[(size_t)(k0 + lr) * 32 + lc];
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 32; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
            wmma::load_matrix_sync(fa, &As[wr * 16][kk], kWPitch);
            wmma::load_matrix_sync(fb, &Bs[kk][wc * 16], kWPitch);
            wmma::mma_sync(c, fa, fb, c);
        }
        __syncthreads();
    }
    float *cp = C + (size_t)blockIdx.x * 32 * 32;
    wmma::store_matrix_sync(cp + wr * 16 * 32 + wc * 16, c, 32, wmma::mem_row_major);
    rec_end(rec, t0);
    TOUCH_PAD(c.x[0]);
}

// ---- cpasync -----------------------------------------------------------------------------
static const int kCTiles = 64, kCTile = 512;  // floats

__global__ void k_cpasync(float *y, const float *__restrict__ x, Rec *rec, float *out) {
    PAD;
    __shared__ __align__(16) float s[2][kCTile];
    size_t base = (size_t)blockIdx.x * kCTiles * kCTile;
    int t = threadIdx.x;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    __pipeline_memcpy_async(&s[0][4 * t], &x[base + 4 * t], 16);
    __pipeline_commit();
    for (int k = 0; k < kCTiles; ++k) {
        int cur = k & 1;
        if (k + 1 < kCTiles)
            __pipeline_memcpy_async(&s[cur ^ 1][4 * t], &x[base + (size_t)(k + 1) * kCTile + 4 * t], 16);
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        const float *v = s[cur];
        float l = v[max(4 * t - 1, 0)], r = v[min(4 * t + 4, kCTile - 1)];
        float4 m = *(const float4 *)&v[4 * t], o;
        o.x = 0.25f * l + 0.5f * m.x + 0.25f * m.y;
        o.y = 0.25f * m.x + 0.5f * m.y + 0.25f * m.z;
        o.z = 0.25f * m.y + 0.5f * m.z + 0.25f * m.w;
        o.w = 0.25f * m.z + 0.5f * m.w + 0.25f * r;
        *(float4 *)&y[base + (size_t)k * kCTile + 4 * t] = o;
        last = o.w;
        __syncthreads();
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- h2axpy ------------------------------------------------------------------------------
static const int kHSteps = 128;  // half2 per thread

__global__ void k_h2axpy(__half2 *y, const __half2 *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kHSteps * 128;
    const __half2 c0 = __float2half2_rn(0.5f), c1 = __float2half2_rn(-0.25f), c2 = __float2half2_rn(0.125f),
                  c3 = __float2half2_rn(1.5f);
    __half2 last = c0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 8
    for (int k = 0; k < kHSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        __half2 v = x[i];
        __half2 p = __hfma2(c3, v, c2);
        p = __hfma2(p, v, c1);
        p = __hfma2(p, v, c0);
        p = __hfma2(p, v, y[i]);
        y[i] = p;
        last = p;
    }
    rec_end(rec, t0);
    float lf = __low2float(last);
    TOUCH_PAD(lf);
}

// ---- shist -------------------------------------------------------------------------------
static const int kSSteps = 128, kBins = 256;

__global__ void k_shist(unsigned *hist, const unsigned *__restrict__ x, Rec *rec, float *out) {
    PAD;
    __shared__ unsigned bins[kBins];
    size_t base = (size_t)blockIdx.x * kSSteps * 128;
    unsigned long long t0; rec_begin(t0);
    bins[threadIdx.x] = 0;
    bins[threadIdx.x + 128] = 0;
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < kSSteps; ++k) {
        unsigned v = x[base + (size_t)k * 128 + threadIdx.x];
        atomicAdd(&bins[(v >> 8) & (kBins - 1)], 1u);
    }
    __syncthreads();
    atomicAdd(&hist[threadIdx.x], bins[threadIdx.x]);
    atomicAdd(&hist[threadIdx.x + 128], bins[threadIdx.x + 128]);
    rec_end(rec, t0);
    float lf = (float)bins[threadIdx.x];
    TOUCH_PAD(lf);
}

// ---- ihash -------------------------------------------------------------------------------
static const int kISteps = 32, kRounds = 32;

__global__ void k_ihash(unsigned *y, const unsigned *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kISteps * 128;
    unsigned last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < kISteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        unsigned h = x[i] ^ (unsigned)i;
#pragma unroll
        for (int r = 0; r < kRounds; ++r) {
            h ^= h >> 16;
            h *= 0x85ebca6bu;
            h ^= h >> 13;
            h *= 0xc2b2ae35u;
            h ^= h >> 16;
            h = ((h << 13) | (h >> 19)) * 5u + 0xe6546b64u + (unsigned)r;
        }
        y[i] = h;
        last = h;
    }
    rec_end(rec, t0);
    float lf = (float)last;
    TOUCH_PAD(lf);
}

// ---- dgemm -------------------------------------------------------------------------------
static const int kDK = 1024, kDPanels = 64;

__global__ void k_dgemm(double *C, const double *__restrict__ A, const double *__restrict__ B, Rec *rec,
                        float *out) {
    PAD;
    __shared__ double As[32][17], Bs[16][33];
    int tx = threadIdx.x % 32, ty = threadIdx.x / 32;  // rows ty, ty + 4, ..., ty + 28
    const double *a = A + (size_t)(blockIdx.x % kDPanels) * 32 * kDK;
    double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned long long t0; rec_begin(t0);
    for (int k0 = 0; k0 < kDK; k0 += 16) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            int e = threadIdx.x + 128 * r;  // 512 elements of each tile
            As[e / 16][e % 16] = a[(size_t)(e / 16) * kDK + k0 + e % 16];
            Bs[e / 32][e % 32] = B[(size_t)(k0 + e / 32) * 32 + e % 32];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; ++k) {
            double b = Bs[k][tx];
#pragma unroll
            for (int r = 0; r < 8; ++r) acc[r] = fma(As[ty + 4 * r][k], b, acc[r]);
        }
        __syncthreads();
    }
    double *c = C + (size_t)blockIdx.x * 32 * 32;
#pragma unroll
    for (int r = 0; r < 8; ++r) c[(ty + 4 * r) * 32 + tx] = acc[r];
    rec_end(rec, t0);
    float lf = (float)acc[0];
    TOUCH_PAD(lf);
}

// ---- bsort -------------------------------------------------------------------------------
static const int kSegs = 4, kSeg = 1024;

__device__ __forceinline__ void cswap(unsigned &lo, unsigned &hi, bool asc) {
    unsigned a = min(lo, hi), b = max(lo, hi);
    lo = asc ? a : b;
    hi = asc ? b : a;
}

__global__ void __launch_bounds__(128, 8) k_bsort(unsigned *y, const unsigned *__restrict__ x, Rec *rec, float *out) {
    PAD;
    __shared__ unsigned s[kSeg];
    int t = threadIdx.x, lane = t % 32;
    unsigned last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int g = 0; g < kSegs; ++g) {
        size_t base = ((size_t)blockIdx.x * kSegs + g) * kSeg;
        unsigned v[8];
#pragma unroll
        for (int r = 0; r < 8; ++r) v[r] = x[base + r * 128 + t];
#pragma unroll
        for (int k = 2; k <= kSeg; k <<= 1) {
#pragma unroll
            for (int j = k >> 1; j > 0; j >>= 1) {
                if (j >= 128) {
                    int jr = j >> 7;
#pragma unroll
                    for (int r = 0; r < 8; ++r)
                        if ((r & jr) == 0) cswap(v[r], v[r | jr], ((r * 128 + t) & k) == 0);
                } else if (j >= 32) {
#pragma unroll
                    for (int r = 0; r < 8; ++r) s[r * 128 + t] = v[r];
                    __syncthreads();
#pragma unroll
                    for (int r = 0; r < 8; ++r) {
                        int i = r * 128 + t;
                        unsigned o = s[i ^ j];
                        bool asc = (i & k) == 0, lower = (i & j) == 0;
                        v[r] = (lower == asc) ? min(v[r], o) : max(v[r], o);
                    }
                    __syncthreads();
                } else {
#pragma unroll
                    for (int r = 0; r < 8; ++r) {
                        int i = r * 128 + t;
                        unsigned o = __shfl_xor_sync(0xffffffffu, v[r], j);
                        bool asc = (i & k) == 0, lower = (lane & j) == 0;
                        v[r] = (lower == asc) ? min(v[r], o) : max(v[r], o);
                    }
                }
            }
        }
#pragma unroll
        for (int r = 0; r < 8; ++r) y[base + r * 128 + t] = v[r];
        last = v[0];
    }
    rec_end(rec, t0);
    float lf = (float)last;
    TOUCH_PAD(lf);
}

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "measure";
    bool ncu = mode == "ncu8";
    bool check = mode == "check";
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    const int maxB = 16, maxgrid = maxB * 132 + 64;
    Rec *drec; CK(cudaMalloc(&drec, sizeof(Rec) * maxgrid));
    float *dout; CK(cudaMalloc(&dout, 1 << 20));
    // one input and one output buffer big enough for every streaming kernel (bytes)
    size_t b_c = (size_t)maxgrid * kCTiles * kCTile * 4;
    size_t b_h = (size_t)maxgrid * kHSteps * 128 * 4;
    size_t b_s = (size_t)maxgrid * kSSteps * 128 * 4;
    size_t b_i = (size_t)maxgrid * kISteps * 128 * 4;
    size_t b_b = (size_t)maxgrid * kSegs * kSeg * 4;
    size_t nb = std::max(std::max(std::max(b_c, b_h), std::max(b_s, b_i)), b_b);
    void *x, *y;
    CK(cudaMalloc(&x, nb)); CK(cudaMalloc(&y, nb));
    {
        std::vector<unsigned> h(nb / 4);
        std::mt19937 g(7);
        for (auto &v : h) v = g() & 0x3bff3bffu;  // finite halves, floats of modest size
        CK(cudaMemcpy(x, h.data(), nb, cudaMemcpyHostToDevice));
    }
    CK(cudaMemset(y, 0, nb));
    unsigned *hist; CK(cudaMalloc(&hist, kBins * 4)); CK(cudaMemset(hist, 0, kBins * 4));
    __half *hA, *hB; float *hC;
    size_t nA = (size_t)kWPanels * 32 * kWK, nB = (size_t)kWK * 32;
    CK(cudaMalloc(&hA, nA * 2)); CK(cudaMalloc(&hB, nB * 2)); CK(cudaMalloc(&hC, (size_t)maxgrid * 32 * 32 * 4));
    CK(cudaMemcpy(hA, x, nA * 2, cudaMemcpyDeviceToDevice)); CK(cudaMemcpy(hB, x, nB * 2, cudaMemcpyDeviceToDevice));
    double *dA, *dB, *dC;
    size_t mA = (size_t)kDPanels * 32 * kDK, mB = (size_t)kDK * 32;
    CK(cudaMalloc(&dA, mA * 8)); CK(cudaMalloc(&dB, mB * 8)); CK(cudaMalloc(&dC, (size_t)maxgrid * 32 * 32 * 8));
    CK(cudaMemset(dA, 0, mA * 8)); CK(cudaMemset(dB, 0, mB * 8));

    FILE *f = (ncu || check) ? nullptr : open_csv("real10.csv", "kernel,blocks_per_sm,warps_per_sm,dyn_smem,cycles,work_per_cycle_per_sm,unit,blocks_min,blocks_max");
    FILE *fa = (ncu || check) ? nullptr : open_csv("attrs10.csv", "kernel,regs,static_smem,local_bytes,max_blocks_per_sm_no_pad,work_per_block,unit");
    auto curve = [&](const char *name, auto kernel, double work, const char *unit, auto launch) {
        cudaFuncAttributes at; CK(cudaFuncGetAttributes(&at, kernel));
        int bmax = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bmax, kernel, 128, 0));
        if (fa) fprintf(fa, "%s,%d,%zu,%zu,%d,%.0f,%s\n", name, at.numRegs, at.sharedSizeBytes, at.localSizeBytes, bmax, work, unit);
        if (check) printf("%s regs %d smem %zu local %zu bmax %d\n", name, at.numRegs, at.sharedSizeBytes, at.localSizeBytes, bmax);
        for (int bb = 1; bb <= maxB; ++bb) {
            if ((ncu || check) && bb != 8) continue;
            size_t smem = smem_pin(kernel, 128, bb);
            if (!smem) continue;
            if (ncu || check) { launch(bb * g_sms, smem); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); continue; }
            Span s = run_wave(bb, smem, [&](int grid, size_t sm, unsigned) { launch(grid, sm); }, drec);
            fprintf(f, "%s,%d,%d,%zu,%.0f,%.5f,%s,%.0f,%.0f\n", name, bb, 4 * bb, smem, s.cycles, bb * work / s.cycles, unit,
                    s.blocks_per_sm_min, s.blocks_per_sm_max);
            fflush(f);
        }
    };
    curve("wmma", k_wmma, 32.0 * 32 * kWK, "FMA", [&](int g, size_t sm) { k_wmma<<<g, 128, sm>>>(hC, hA, hB, drec, dout); });
    curve("cpasync", k_cpasync, (double)kCTiles * kCTile, "elements",
          [&](int g, size_t sm) { k_cpasync<<<g, 128, sm>>>((float *)y, (const float *)x, drec, dout); });
    curve("h2axpy", k_h2axpy, kHSteps * 128.0 * 2, "halves",
          [&](int g, size_t sm) { k_h2axpy<<<g, 128, sm>>>((__half2 *)y, (const __half2 *)x, drec, dout); });
    curve("shist", k_shist, kSSteps * 128.0, "elements",
          [&](int g, size_t sm) { k_shist<<<g, 128, sm>>>(hist, (const unsigned *)x, drec, dout); });
    curve("ihash", k_ihash, kISteps * 128.0 * kRounds, "rounds",
          [&](int g, size_t sm) { k_ihash<<<g, 128, sm>>>((unsigned *)y, (const unsigned *)x, drec, dout); });
    curve("dgemm", k_dgemm, 32.0 * 32 * kDK, "DFMA", [&](int g, size_t sm) { k_dgemm<<<g, 128, sm>>>(dC, dA, dB, drec, dout); });
    curve("bsort", k_bsort, (double)kSegs * kSeg, "keys",
          [&](int g, size_t sm) { k_bsort<<<g, 128, sm>>>((unsigned *)y, (const unsigned *)x, drec, dout); });
    if (f) fclose(f);
    if (fa) fclose(fa);
    if (check) {  // correctness of the sort and of the histogram total (one launch each at B = 8)
        std::vector<unsigned> hs(kSeg), hh(kBins);
        CK(cudaMemcpy(hs.data(), y, kSeg * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hh.data(), hist, kBins * 4, cudaMemcpyDeviceToHost));
        bool sorted = std::is_sorted(hs.begin(), hs.end());
        unsigned long long tot = 0; for (auto v : hh) tot += v;
        printf("bsort segment 0 sorted %d; histogram total %llu (expect %llu)\n", (int)sorted, tot,
               (unsigned long long)8 * 132 * kSSteps * 128);
    }
    printf("done %s\n", mode.c_str());
    return 0;
}
