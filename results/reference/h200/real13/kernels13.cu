// kernels13.cu: eight ordinary kernels, each built around an instruction or access shape that no
// earlier real kernel has (a layer norm a warp a row, a radix-sort local pass on packed
// shared-memory counters, a radix-2 FFT in shared memory, a Monte Carlo of Box-Muller normals
// from an integer hash, a 3D 7-point stencil, a warp-specialised producer / consumer on named
// barriers, a k-means assignment against centroids in constant memory, fp8 e4m3 conversions),
// measured exactly as ../real12/kernels12.cu (same harness: prelude.inc, host.inc; 128-thread
// blocks, B blocks per SM pinned by dynamic shared-memory padding, one wave of B x 132 blocks,
// per-SM busy span in clock64 cycles, median of 3 launches after a warm-up).  Measured to judge
// the model, never to fit it.  Work per block is the same at every B.
//   lnorm:  layer norm of rows of 256 floats, a warp a row (two float4 a lane), mean and
//           variance by two butterfly shuffle reductions, rsqrtf, gamma and beta   work: elements
//   radix:  one local pass of a radix sort: per tile of 128 keys a 4-bit digit, its rank from
//           a shared-memory atomicAdd on counters packed two a word (ATOMS.ADD with return),
//           a 16-entry exclusive scan by warp 0 (SHFL.UP), the key scattered to its place
//                                                                           work: keys
//   fft:    radix-2 decimation-in-time FFT of 256 complex points in shared memory: a
//           bit-reversed load (BREV), 8 stages of 128 butterflies with __sincosf twiddles
//           (MUFU.SIN / MUFU.COS), a barrier a stage                        work: points
//   mcarlo: Monte Carlo of a call payoff: xorshift32 uniforms, Box-Muller normals (__logf,
//           sqrt.approx, __sinf, __cosf: MUFU.LG2 / SQRT / SIN / COS), __expf     work: samples
//   st3d:   3D 7-point stencil on a 520 x 520 x 66 float volume, a block a 32 x 4 column
//           marching 64 planes (plane stride 1.03 MiB)                     work: points
//   wspec:  warp-specialised: warps 0-1 load 2 KiB tiles into a double buffer in shared memory
//           and bar.arrive on named barrier 1 / 2; warps 2-3 bar.sync on it, compute, store
//           and bar.arrive on 3 / 4, which the producers bar.sync before refilling
//                                                                           work: floats
//   kmeans: k-means assignment of float4 points to the nearest of 16 centroids held in
//           constant memory (c[0x3] operands), compare-select of the best  work: points
//   fp8:    a float4 scaled and rounded to fp8 e4m3 (cvt.rn.satfinite.e4m3x2.f32, four bytes
//           stored) and back to half (cvt.rn.f16x2.e4m3x2), the rounding error summed
//                                                                           work: float4
// usage: real13 measure|ncu8|check KERNEL; measure writes $OUT/real13_KERNEL.csv and
// $OUT/attrs13_KERNEL.csv (rows only; run.sh adds the headers).
#include "prelude.inc"
#include "host.inc"
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cstring>
#include <cmath>

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

// ---- lnorm -------------------------------------------------------------------------------
static const int kLRow = 256, kLRows = 16;  // rows a warp

__global__ void k_lnorm(float4 *y, const float4 *__restrict__ x, const float4 *__restrict__ gam,
                        const float4 *__restrict__ bet, Rec *rec, float *out) {
    PAD;
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    size_t row0 = ((size_t)blockIdx.x * 4 + warp) * kLRows;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < kLRows; ++k) {
        const float4 *r = x + (row0 + k) * (kLRow / 4);
        float4 a = r[lane], b = r[lane + 32];
        float s = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        float m = s * (1.0f / kLRow);
        a.x -= m; a.y -= m; a.z -= m; a.w -= m; b.x -= m; b.y -= m; b.z -= m; b.w -= m;
        float q = a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w + b.x * b.x + b.y * b.y + b.z * b.z + b.w * b.w;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) q += __shfl_xor_sync(0xffffffffu, q, o);
        float rs = rsqrtf(q * (1.0f / kLRow) + 1e-5f);
        float4 ga = gam[lane], gb = gam[lane + 32], ba = bet[lane], bb = bet[lane + 32];
        float4 oa = make_float4(a.x * rs * ga.x + ba.x, a.y * rs * ga.y + ba.y, a.z * rs * ga.z + ba.z, a.w * rs * ga.w + ba.w);
        float4 ob = make_float4(b.x * rs * gb.x + bb.x, b.y * rs * gb.y + bb.y, b.z * rs * gb.z + bb.z, b.w * rs * gb.w + bb.w);
        float4 *w = y + (row0 + k) * (kLRow / 4);
        w[lane] = oa;
        w[lane + 32] = ob;
        last = oa.x;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- radix -------------------------------------------------------------------------------
static const int kRSteps = 64;

__global__ void k_radix(unsigned *y, const unsigned *__restrict__ x, unsigned shift, Rec *rec, float *out) {
    PAD;
    __shared__ unsigned cnt[8];  // 16 digit counters, two 16-bit halves a word
    __shared__ unsigned off[16];
    unsigned tid = threadIdx.x;
    size_t base = (size_t)blockIdx.x * kRSteps * 128;
    unsigned last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < kRSteps; ++k) {
        if (tid < 8) cnt[tid] = 0;
        __syncthreads();
        size_t t = base + (size_t)k * 128;
        unsigned key = x[t + tid];
        unsigned d = (key >> shift) & 15u, sh = (d & 1u) * 16u;
        unsigned old = atomicAdd(&cnt[d >> 1], 1u << sh);
        unsigned rank = (old >> sh) & 0xffffu;
        __syncthreads();
        if (tid < 32) {
            unsigned c = tid < 16 ? (cnt[tid >> 1] >> ((tid & 1u) * 16u)) & 0xffffu : 0u;
            unsigned s = c;
#pragma unroll
            for (unsigned o = 1; o < 16; o <<= 1) {
                unsigned v = __shfl_up_sync(0xffffffffu, s, o);
                if (tid >= o) s += v;
            }
            if (tid < 16) off[tid] = s - c;
        }
        __syncthreads();
        y[t + off[d] + rank] = key;
        last = rank;
    }
    rec_end(rec, t0);
    float lf = (float)last;
    TOUCH_PAD(lf);
}

// ---- fft ---------------------------------------------------------------------------------
static const int kFN = 256, kFSteps = 32;  // FFTs a block

__global__ void k_fft(float2 *y, const float2 *__restrict__ x, Rec *rec, float *out) {
    PAD;
    __shared__ float2 s[kFN];
    unsigned tid = threadIdx.x;
    size_t base = (size_t)blockIdx.x * kFSteps * kFN;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int f = 0; f < kFSteps; ++f) {
        const float2 *src = x + base + (size_t)f * kFN;
        s[__brev(tid) >> 24] = src[tid];
        s[__brev(tid + 128u) >> 24] = src[tid + 128];
        __syncthreads();
#pragma unroll
        for (int len = 2; len <= kFN; len <<= 1) {
            unsigned half = (unsigned)len >> 1;
            unsigned j = tid & (half - 1u), a = (tid / half) * (unsigned)len + j, b = a + half;
            float sn, cs;
            __sincosf((float)j * (-6.28318530718f / (float)len), &sn, &cs);
            float2 u = s[a], v = s[b];
            float2 t = make_float2(v.x * cs - v.y * sn, v.x * sn + v.y * cs);
            s[a] = make_float2(u.x + t.x, u.y + t.y);
            s[b] = make_float2(u.x - t.x, u.y - t.y);
            __syncthreads();
        }
        float2 r0 = s[tid], r1 = s[tid + 128];
        y[base + (size_t)f * kFN + tid] = r0;
        y[base + (size_t)f * kFN + tid + 128] = r1;
        last = r0.x;
        __syncthreads();  // every thread has read s before the next FFT's load
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- mcarlo ------------------------------------------------------------------------------
static const int kMSteps = 128;

__host__ __device__ __forceinline__ unsigned xs32(unsigned s) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; }
__host__ __device__ __forceinline__ unsigned seed_of(unsigned id, unsigned seed) {
    unsigned v = id * 0x9e3779b9u ^ seed;  // lowbias32 of the thread id: a non-zero xorshift state
    v ^= v >> 16; v *= 0x7feb352du; v ^= v >> 15; v *= 0x846ca68bu; v ^= v >> 16;
    return v | 1u;
}
__device__ __forceinline__ float sqrt_approx(float v) { float r; asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v)); return r; }

__global__ void k_mcarlo(float *y, unsigned seed, float s0, float mu, float sig, float kk, Rec *rec, float *out) {
    PAD;
    unsigned st = seed_of(blockIdx.x * 128u + threadIdx.x, seed);
    float acc = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 2
    for (int k = 0; k < kMSteps; ++k) {
        st = xs32(st); unsigned a = st;
        st = xs32(st); unsigned b = st;
        float u1 = (float)((a >> 8) + 1u) * 5.9604645e-8f, u2 = (float)(b >> 8) * 5.9604645e-8f;
        float r = sqrt_approx(-2.0f * __logf(u1)), th = 6.28318530718f * u2;
        float z0 = r * __cosf(th), z1 = r * __sinf(th);
        acc += fmaxf(s0 * __expf(mu + sig * z0) - kk, 0.0f) + fmaxf(s0 * __expf(mu + sig * z1) - kk, 0.0f);
    }
    y[(size_t)blockIdx.x * 128 + threadIdx.x] = acc;
    rec_end(rec, t0);
    TOUCH_PAD(acc);
}

// ---- st3d --------------------------------------------------------------------------------
static const int kSX = 520, kSY = 520, kSZ = 66, kSSteps = 64;

__global__ void k_st3d(float *y, const float *__restrict__ x, Rec *rec, float *out) {
    PAD;
    unsigned b = blockIdx.x, lane = threadIdx.x & 31u, w = threadIdx.x >> 5;
    int xi = 1 + (int)(b & 15u) * 32 + (int)lane, yi = 1 + (int)((b >> 4) & 127u) * 4 + (int)w;
    const size_t P = (size_t)kSX * kSY;
    const float *p = x + (size_t)yi * kSX + xi + P;
    size_t ob = (size_t)b * kSSteps * 128 + threadIdx.x;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int k = 0; k < kSSteps; ++k) {
        float r = 0.4f * p[0] + 0.1f * (p[-1] + p[1] + p[-kSX] + p[kSX] + p[-(long)P] + p[P]);
        y[ob + (size_t)k * 128] = r;
        p += P;
        last = r;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- wspec -------------------------------------------------------------------------------
static const int kWSteps = 64, kWTile = 512;  // floats a tile (2 KiB)

template <int ID> __device__ __forceinline__ void nb_sync() { asm volatile("bar.sync %0, 128;" :: "n"(ID) : "memory"); }
template <int ID> __device__ __forceinline__ void nb_arrive() { asm volatile("bar.arrive %0, 128;" :: "n"(ID) : "memory"); }
__host__ __device__ __forceinline__ float wpoly(float v, float a) { return (a * v + 0.5f) * v + 0.25f; }

// one step k of the producer (tile k into buffer S: named barriers 1 + S full, 3 + S empty)
template <int S> __device__ __forceinline__ void wproduce(int k, const float4 *src, float4 (*buf)[kWTile / 4], unsigned tid) {
    if (k >= 2) nb_sync<3 + S>();
    float4 v0 = src[(size_t)k * 128 + tid], v1 = src[(size_t)k * 128 + 64 + tid];
    buf[S][tid] = v0;
    buf[S][tid + 64] = v1;
    nb_arrive<1 + S>();
}
template <int S> __device__ __forceinline__ float wconsume(int k, float4 *dst, float4 (*buf)[kWTile / 4], unsigned t, float a) {
    nb_sync<1 + S>();
    float4 v0 = buf[S][t], v1 = buf[S][t + 64];
    if (k < kWSteps - 2) nb_arrive<3 + S>();
    float4 r0 = make_float4(wpoly(v0.x, a), wpoly(v0.y, a), wpoly(v0.z, a), wpoly(v0.w, a));
    float4 r1 = make_float4(wpoly(v1.x, a), wpoly(v1.y, a), wpoly(v1.z, a), wpoly(v1.w, a));
    dst[(size_t)k * 128 + t] = r0;
    dst[(size_t)k * 128 + 64 + t] = r1;
    return r0.x;
}

__global__ void k_wspec(float4 *y, const float4 *__restrict__ x, float a, Rec *rec, float *out) {
    PAD;
    __shared__ __align__(16) float4 buf[2][kWTile / 4];
    unsigned tid = threadIdx.x;
    const float4 *src = x + (size_t)blockIdx.x * kWSteps * (kWTile / 4);
    float4 *dst = y + (size_t)blockIdx.x * kWSteps * (kWTile / 4);
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    if (tid < 64) {  // producers: warps 0 and 1
        for (int k = 0; k < kWSteps; k += 2) {
            wproduce<0>(k, src, buf, tid);
            wproduce<1>(k + 1, src, buf, tid);
        }
    } else {  // consumers: warps 2 and 3
        for (int k = 0; k < kWSteps; k += 2) {
            last = wconsume<0>(k, dst, buf, tid - 64u, a);
            last = wconsume<1>(k + 1, dst, buf, tid - 64u, a);
        }
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- kmeans ------------------------------------------------------------------------------
static const int kKSteps = 64, kKC = 16;
__constant__ float4 c_cent[kKC];

__global__ void k_kmeans(int *y, const float4 *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kKSteps * 128;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 2
    for (int k = 0; k < kKSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        float4 p = x[i];
        float best = 3.4e38f;
        int bi = 0;
#pragma unroll
        for (int j = 0; j < kKC; ++j) {
            float4 c = c_cent[j];
            float dx = p.x - c.x, dy = p.y - c.y, dz = p.z - c.z, dw = p.w - c.w;
            float d = dx * dx + dy * dy + dz * dz + dw * dw;
            bool lt = d < best;
            best = lt ? d : best;
            bi = lt ? j : bi;
        }
        y[i] = bi;
        last += best;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- fp8 ---------------------------------------------------------------------------------
static const int kPSteps = 64;

__global__ void k_fp8(unsigned *yq, float *err, const float4 *__restrict__ x, float sc, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kPSteps * 128;
    float e = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 2
    for (int k = 0; k < kPSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        float4 v = x[i];
        float2 a = make_float2(v.x * sc, v.y * sc), b = make_float2(v.z * sc, v.w * sc);
        __nv_fp8x2_storage_t q0 = __nv_cvt_float2_to_fp8x2(a, __NV_SATFINITE, __NV_E4M3);
        __nv_fp8x2_storage_t q1 = __nv_cvt_float2_to_fp8x2(b, __NV_SATFINITE, __NV_E4M3);
        yq[i] = (unsigned)q0 | ((unsigned)q1 << 16);
        __half2 h0 = __half2(__nv_cvt_fp8x2_to_halfraw2(q0, __NV_E4M3)), h1 = __half2(__nv_cvt_fp8x2_to_halfraw2(q1, __NV_E4M3));
        float2 f0 = __half22float2(h0), f1 = __half22float2(h1);
        e += fabsf(a.x - f0.x) + fabsf(a.y - f0.y) + fabsf(b.x - f1.x) + fabsf(b.y - f1.y);
    }
    err[(size_t)blockIdx.x * 128 + threadIdx.x] = e;
    rec_end(rec, t0);
    TOUCH_PAD(e);
}

// ---- host --------------------------------------------------------------------------------
static float host_fl(unsigned u) { float v; memcpy(&v, &u, 4); return v; }
static unsigned host_bits(float v) { unsigned u; memcpy(&u, &v, 4); return u; }
static bool near(float dev, double host, double tol) { return std::fabs((double)dev - host) <= tol * (1.0 + std::fabs(host)); }

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "measure";
    std::string which = argc > 2 ? argv[2] : "";
    bool ncu = mode == "ncu8";
    bool check = mode == "check";
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    const int maxB = 16, maxgrid = maxB * 132 + 64;
    Rec *drec; CK(cudaMalloc(&drec, sizeof(Rec) * maxgrid));
    float *dout; CK(cudaMalloc(&dout, (size_t)maxgrid * 128 * 4));
    size_t per_block = (size_t)128 * 1024;  // every streaming kernel reads at most 128 KiB a block
    size_t nb = (size_t)maxgrid * per_block;
    void *x, *y;
    CK(cudaMalloc(&x, nb)); CK(cudaMalloc(&y, nb));
    std::vector<unsigned> hx(nb / 4);
    {
        std::mt19937 g(7);
        for (auto &v : hx) v = host_bits((float)(g() >> 8) * (1.0f / 8388608.0f) - 1.0f);  // floats in [-1, 1)
        CK(cudaMemcpy(x, hx.data(), nb, cudaMemcpyHostToDevice));
    }
    if ((size_t)kSX * kSY * kSZ * 4 > nb) { fprintf(stderr, "st3d volume larger than x\n"); return 1; }
    CK(cudaMemset(y, 0, nb));
    CK(cudaMemset(dout, 0, (size_t)maxgrid * 128 * 4));
    std::vector<float> hg(kLRow), hb(kLRow);
    for (int i = 0; i < kLRow; ++i) { hg[i] = 0.5f + (float)(i % 7) * 0.125f; hb[i] = -0.25f + (float)(i % 5) * 0.0625f; }
    float *dg, *db;
    CK(cudaMalloc(&dg, kLRow * 4)); CK(cudaMalloc(&db, kLRow * 4));
    CK(cudaMemcpy(dg, hg.data(), kLRow * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, hb.data(), kLRow * 4, cudaMemcpyHostToDevice));
    std::vector<float4> hc(kKC);
    for (int j = 0; j < kKC; ++j)
        hc[j] = make_float4(0.9f * sinf(1.7f * j), 0.9f * cosf(2.3f * j), 0.8f * sinf(0.7f * j + 1.f), 0.8f * cosf(1.1f * j + 2.f));
    CK(cudaMemcpyToSymbol(c_cent, hc.data(), sizeof(float4) * kKC));
    const unsigned mseed = 0x1234567u;
    const float ms0 = 1.0f, mmu = -0.02f, msig = 0.2f, mk = 1.05f, wa = 0.75f, psc = 500.0f;

    std::string o = getenv("OUT") ? getenv("OUT") : ".";
    FILE *f = nullptr, *fa = nullptr;
    if (!ncu && !check) {
        f = fopen((o + "/real13_" + which + ".csv").c_str(), "w");
        fa = fopen((o + "/attrs13_" + which + ".csv").c_str(), "w");
        if (!f || !fa) { perror("open"); return 1; }
    }
    auto curve = [&](const char *name, auto kernel, double work, const char *unit, auto launch) {
        if (which != name) return;
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
    curve("lnorm", k_lnorm, (double)4 * kLRows * kLRow, "elements", [&](int g, size_t sm) {
        k_lnorm<<<g, 128, sm>>>((float4 *)y, (const float4 *)x, (const float4 *)dg, (const float4 *)db, drec, dout);
    });
    curve("radix", k_radix, (double)kRSteps * 128, "keys",
          [&](int g, size_t sm) { k_radix<<<g, 128, sm>>>((unsigned *)y, (const unsigned *)x, 8u, drec, dout); });
    curve("fft", k_fft, (double)kFSteps * kFN, "points",
          [&](int g, size_t sm) { k_fft<<<g, 128, sm>>>((float2 *)y, (const float2 *)x, drec, dout); });
    curve("mcarlo", k_mcarlo, (double)kMSteps * 2 * 128, "samples", [&](int g, size_t sm) {
        k_mcarlo<<<g, 128, sm>>>((float *)y, mseed, ms0, mmu, msig, mk, drec, dout);
    });
    curve("st3d", k_st3d, (double)kSSteps * 128, "points",
          [&](int g, size_t sm) { k_st3d<<<g, 128, sm>>>((float *)y, (const float *)x, drec, dout); });
    curve("wspec", k_wspec, (double)kWSteps * kWTile, "floats",
          [&](int g, size_t sm) { k_wspec<<<g, 128, sm>>>((float4 *)y, (const float4 *)x, wa, drec, dout); });
    curve("kmeans", k_kmeans, (double)kKSteps * 128, "points",
          [&](int g, size_t sm) { k_kmeans<<<g, 128, sm>>>((int *)y, (const float4 *)x, drec, dout); });
    curve("fp8", k_fp8, (double)kPSteps * 128, "float4",
          [&](int g, size_t sm) { k_fp8<<<g, 128, sm>>>((unsigned *)y, dout, (const float4 *)x, psc, drec, dout); });
    if (f) fclose(f);
    if (fa) fclose(fa);
    if (check) {  // after the B = 8 launch: 1,024 outputs against the host
        std::vector<unsigned> hy(1024);
        CK(cudaMemcpy(hy.data(), y, hy.size() * 4, cudaMemcpyDeviceToHost));
        const float *fx = reinterpret_cast<const float *>(hx.data());
        int bad = 0, n = 1024;
        auto fail = [&](int i, double want) {
            if (bad < 4) printf("%s out[%d] device %08x (%g) host %g\n", which.c_str(), i, hy[i], host_fl(hy[i]), want);
            bad++;
        };
        if (which == "lnorm") {  // rows 0..3: block 0, warp 0, steps 0..3; element e of a row: lane e/4 (e < 128)
            for (int r = 0; r < 4; ++r) {
                double s = 0, q = 0;
                for (int e = 0; e < kLRow; ++e) s += fx[r * kLRow + e];
                double m = s / kLRow;
                for (int e = 0; e < kLRow; ++e) q += (fx[r * kLRow + e] - m) * (fx[r * kLRow + e] - m);
                double rs = 1.0 / std::sqrt(q / kLRow + 1e-5);
                for (int e = 0; e < kLRow; ++e) {
                    double want = (fx[r * kLRow + e] - m) * rs * hg[e] + hb[e];
                    if (!near(host_fl(hy[r * kLRow + e]), want, 1e-4)) fail(r * kLRow + e, want);
                }
            }
        } else if (which == "radix") {  // tiles 0..7 of block 0: the same keys, digits in order
            for (int t = 0; t < 8; ++t) {
                std::vector<unsigned> a(hx.begin() + t * 128, hx.begin() + t * 128 + 128), b(hy.begin() + t * 128, hy.begin() + t * 128 + 128);
                for (int i = 1; i < 128; ++i)
                    if (((b[i] >> 8) & 15u) < ((b[i - 1] >> 8) & 15u)) fail(t * 128 + i, (double)((b[i - 1] >> 8) & 15u));
                std::sort(a.begin(), a.end()); std::sort(b.begin(), b.end());
                for (int i = 0; i < 128; ++i) if (a[i] != b[i]) fail(t * 128 + i, host_fl(a[i]));
            }
        } else if (which == "fft") {  // FFTs 0 and 1 of block 0 against a DFT in double
            for (int ff = 0; ff < 2; ++ff)
                for (int m = 0; m < kFN; ++m) {
                    double re = 0, im = 0;
                    for (int q = 0; q < kFN; ++q) {
                        double ang = -2.0 * M_PI * (double)q * m / kFN;
                        double xr = fx[(ff * kFN + q) * 2], xi = fx[(ff * kFN + q) * 2 + 1];
                        re += xr * std::cos(ang) - xi * std::sin(ang);
                        im += xr * std::sin(ang) + xi * std::cos(ang);
                    }
                    int i = (ff * kFN + m) * 2;
                    if (std::fabs(host_fl(hy[i]) - re) > 2e-3 + 1e-4 * std::fabs(re)) fail(i, re);
                    if (std::fabs(host_fl(hy[i + 1]) - im) > 2e-3 + 1e-4 * std::fabs(im)) fail(i + 1, im);
                }
        } else if (which == "mcarlo") {  // threads 0..1023 (blocks 0..7) with libm
            for (int i = 0; i < n; ++i) {
                unsigned st = seed_of((unsigned)i, mseed);
                double acc = 0;
                for (int k = 0; k < kMSteps; ++k) {
                    st = xs32(st); unsigned a = st; st = xs32(st); unsigned b = st;
                    double u1 = (double)((a >> 8) + 1u) * 5.9604645e-8, u2 = (double)(b >> 8) * 5.9604645e-8;
                    double r = std::sqrt(-2.0 * std::log(u1)), th = 2.0 * M_PI * u2;
                    acc += std::max(ms0 * std::exp(mmu + msig * r * std::cos(th)) - mk, 0.0) +
                           std::max(ms0 * std::exp(mmu + msig * r * std::sin(th)) - mk, 0.0);
                }
                if (!near(host_fl(hy[i]), acc, 1e-3)) fail(i, acc);
            }
        } else if (which == "st3d") {  // block 0, planes 1..8
            const size_t P = (size_t)kSX * kSY;
            for (int i = 0; i < n; ++i) {
                int k = i / 128, t = i % 128, xi = 1 + t % 32, yi = 1 + t / 32;
                size_t c = (size_t)(k + 1) * P + (size_t)yi * kSX + xi;
                double want = 0.4 * fx[c] + 0.1 * ((double)fx[c - 1] + fx[c + 1] + fx[c - kSX] + fx[c + kSX] + fx[c - P] + fx[c + P]);
                if (!near(host_fl(hy[i]), want, 1e-5)) fail(i, want);
            }
        } else if (which == "wspec") {
            for (int i = 0; i < n; ++i) { double want = wpoly(fx[i], wa); if (!near(host_fl(hy[i]), want, 1e-5)) fail(i, want); }
        } else if (which == "kmeans") {  // the nearest centroid; a near tie (1e-5) counts as right
            for (int i = 0; i < n; ++i) {
                const float *pp = fx + 4 * (size_t)i;
                double dist[kKC]; int bj = 0;
                for (int j = 0; j < kKC; ++j) {
                    double dx = pp[0] - hc[j].x, dy = pp[1] - hc[j].y, dz = pp[2] - hc[j].z, dw = pp[3] - hc[j].w;
                    dist[j] = dx * dx + dy * dy + dz * dz + dw * dw;
                    if (dist[j] < dist[bj]) bj = j;
                }
                int dv = (int)hy[i];
                if (dv != bj && !(dv >= 0 && dv < kKC && dist[dv] - dist[bj] < 1e-5)) fail(i, bj);
            }
        } else if (which == "fp8") {  // the host's own e4m3 rounding (cuda_fp8.h host path)
            for (int i = 0; i < n; ++i) {
                const float *pp = fx + 4 * (size_t)i;
                unsigned q0 = __nv_cvt_float2_to_fp8x2(make_float2(pp[0] * psc, pp[1] * psc), __NV_SATFINITE, __NV_E4M3);
                unsigned q1 = __nv_cvt_float2_to_fp8x2(make_float2(pp[2] * psc, pp[3] * psc), __NV_SATFINITE, __NV_E4M3);
                unsigned want = q0 | q1 << 16;
                if (hy[i] != want) fail(i, (double)want);
            }
        } else n = 0;
        printf("%s check: %d of %d differ\n", which.c_str(), bad, n);
    }
    printf("done %s %s\n", mode.c_str(), which.c_str());
    return 0;
}
