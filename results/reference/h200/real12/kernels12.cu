// kernels12.cu: eight ordinary kernels, each built around an instruction or access shape that no
// earlier real kernel has (a texture fetch with bilinear filtering, distributed shared memory
// across a cluster of two blocks, bulk (TMA) copies into shared memory completed on an mbarrier,
// byte and half-word loads, integer division by a per-element divisor, float to bf16 / half
// conversions, int8 tensor-core mma.sync, a shared-memory array of 16-byte structs read and
// written field by field), measured exactly as ../real11/kernels11.cu (same harness:
// prelude.inc, host.inc; 128-thread blocks, B blocks per SM pinned by dynamic shared-memory
// padding, one wave of B x 132 blocks, per-SM busy span in clock64 cycles, median of 3 launches
// after a warm-up).  Measured to judge the model, never to fit it.  Work per block is the same
// at every B.
//   tex:   an image rotated by 30 degrees: out(x, y) = tex2D(t, rotated x, y), a bilinear fetch
//          of a 1024 x 1024 float cudaArray (unnormalised coordinates, clamp), 128 x 64 points
//          a block around one of 128 origins                               work: points
//   dsmem: a cluster of two blocks: each step every thread stores its element to shared
//          memory, cluster.sync(), reads its own and the peer block's neighbour element through
//          cluster.map_shared_rank, cluster.sync(), stores                 work: elements
//   bulk:  64 tiles of 512 floats a block, each brought into shared memory by one
//          cp.async.bulk (TMA, 2 KiB) completed on an mbarrier (expect_tx, try_wait.parity),
//          double buffered; each thread scales a float4 of the tile and stores it  work: floats
//   bytes: out[i] = a[i] * s + b[i] with a uint8 and b uint16 (LDG.E.U8, LDG.E.U16, coalesced,
//          32 and 64 bytes a warp-load), a float stored                   work: elements
//   idiv:  q = n / d, r = n % d of 24-bit n by a per-element divisor d = 3 + (v >> 24 & 63),
//          out = 3q + r                                                    work: elements
//   bf16:  a float4 in, its bf16 and half roundings out (two 8-byte stores), and the bf16
//          rounding error summed                                           work: float4
//   imma:  int8 tensor cores: per warp and step an A fragment (m16 x k32 int8, 16 bytes a
//          lane, streamed) times four B fragments held in registers, mma.sync m16n8k32
//          s8.s8.s32 into four accumulators                                work: warp-mma
//   bank:  a shared array of 128 structs {float a, b, c, d} (16 bytes, 4-byte aligned):
//          each thread writes its struct field by field, reads its neighbour's (4-way
//          bank conflicts on every field access), 64 steps            work: elements
// usage: real12 measure|ncu8|check KERNEL; measure writes $OUT/real12_KERNEL.csv and
// $OUT/attrs12_KERNEL.csv (rows only; run.sh adds the headers).
#include "prelude.inc"
#include "host.inc"
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstring>
namespace cg = cooperative_groups;

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

// ---- tex ---------------------------------------------------------------------------------
static const int kTSteps = 64, kTDim = 1024;

__global__ void k_tex(float *y, cudaTextureObject_t t, float c, float s, Rec *rec, float *out) {
    PAD;
    unsigned bx = blockIdx.x;
    float ox = (float)((bx & 7u) * 128u) + 64.5f, oy = (float)(((bx >> 3) & 15u) * 64u) + 32.5f;
    size_t base = (size_t)blockIdx.x * kTSteps * 128;
    float px = (float)threadIdx.x - 64.0f;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int k = 0; k < kTSteps; ++k) {
        float py = (float)k - 32.0f;
        float u = ox + px * c - py * s, v = oy + px * s + py * c;
        float r = tex2D<float>(t, u, v);
        y[base + (size_t)k * 128 + threadIdx.x] = r;
        last = r;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- dsmem -------------------------------------------------------------------------------
static const int kXSteps = 32;

__global__ void k_dsmem(float *y, const float *__restrict__ x, Rec *rec, float *out) {
    PAD;
    __shared__ float sh[128];
    cg::cluster_group cl = cg::this_cluster();
    float *peer = cl.map_shared_rank(sh, cl.block_rank() ^ 1u);
    size_t base = (size_t)blockIdx.x * kXSteps * 128;
    unsigned nb = (threadIdx.x + 1u) & 127u;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < kXSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        sh[threadIdx.x] = x[i];
        cl.sync();
        float r = sh[threadIdx.x] * 0.75f + peer[nb] * 0.25f;
        cl.sync();
        y[i] = r;
        last = r;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- bulk --------------------------------------------------------------------------------
static const int kUSteps = 64, kUTile = 512;  // floats a tile (2 KiB)

__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void bulk_issue(float *dst, const float *src, unsigned long long *bar) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sa(bar)), "r"(kUTile * 4) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(sa(dst)), "l"(src), "r"(kUTile * 4), "r"(sa(bar)) : "memory");
}
__device__ __forceinline__ void bar_wait(unsigned long long *bar, unsigned parity) {
    unsigned ok;
    do {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(ok) : "r"(sa(bar)), "r"(parity) : "memory");
    } while (!ok);
}

__global__ void k_bulk(float4 *y, const float *__restrict__ x, float a, Rec *rec, float *out) {
    PAD;
    __shared__ __align__(128) float buf[2][kUTile];
    __shared__ __align__(8) unsigned long long bar[2];
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar[0])) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar[1])) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    const float *src = x + (size_t)blockIdx.x * kUSteps * kUTile;
    float4 *dst = y + (size_t)blockIdx.x * kUSteps * (kUTile / 4);
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    if (threadIdx.x == 0) bulk_issue(buf[0], src, &bar[0]);
    for (int k = 0; k < kUSteps; ++k) {
        int s = k & 1;
        if (threadIdx.x == 0 && k + 1 < kUSteps) bulk_issue(buf[s ^ 1], src + (size_t)(k + 1) * kUTile, &bar[s ^ 1]);
        bar_wait(&bar[s], (unsigned)(k >> 1) & 1u);
        float4 v = reinterpret_cast<const float4 *>(buf[s])[threadIdx.x];
        float4 r = make_float4(v.x * a, v.y * a, v.z * a, v.w * a);
        dst[(size_t)k * (kUTile / 4) + threadIdx.x] = r;
        last = r.x;
        __syncthreads();  // every thread is done with buf[s] before tile k + 2 refills it
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- bytes -------------------------------------------------------------------------------
static const int kBSteps = 64;

__global__ void k_bytes(float *y, const unsigned char *__restrict__ a, const unsigned short *__restrict__ b, float s,
                        Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kBSteps * 128;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int k = 0; k < kBSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        float r = (float)a[i] * s + (float)b[i];
        y[i] = r;
        last = r;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- idiv --------------------------------------------------------------------------------
static const int kDSteps = 64;

__global__ void k_idiv(unsigned *y, const unsigned *__restrict__ x, unsigned dbase, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kDSteps * 128;
    unsigned last = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 4
    for (int k = 0; k < kDSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        unsigned v = x[i];
        unsigned d = dbase + ((v >> 24) & 63u), n = v & 0xffffffu;
        unsigned q = n / d, r = n % d;
        y[i] = q * 3u + r;
        last = q;
    }
    rec_end(rec, t0);
    float lf = (float)last;
    TOUCH_PAD(lf);
}

// ---- bf16 --------------------------------------------------------------------------------
static const int kHSteps = 64;

__device__ __forceinline__ unsigned bits(__nv_bfloat162 v) { return *reinterpret_cast<unsigned *>(&v); }
__device__ __forceinline__ unsigned bits(__half2 v) { return *reinterpret_cast<unsigned *>(&v); }

__global__ void k_bf16(uint2 *yb, uint2 *yh, float *err, const float4 *__restrict__ x, Rec *rec, float *out) {
    PAD;
    size_t base = (size_t)blockIdx.x * kHSteps * 128;
    float e = 0;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 2
    for (int k = 0; k < kHSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        float4 v = x[i];
        __nv_bfloat162 b0 = __floats2bfloat162_rn(v.x, v.y), b1 = __floats2bfloat162_rn(v.z, v.w);
        __half2 h0 = __floats2half2_rn(v.x, v.y), h1 = __floats2half2_rn(v.z, v.w);
        float2 f0 = __bfloat1622float2(b0), f1 = __bfloat1622float2(b1);
        e += fabsf(v.x - f0.x) + fabsf(v.y - f0.y) + fabsf(v.z - f1.x) + fabsf(v.w - f1.y);
        yb[i] = make_uint2(bits(b0), bits(b1));
        yh[i] = make_uint2(bits(h0), bits(h1));
    }
    err[(size_t)blockIdx.x * 128 + threadIdx.x] = e;
    rec_end(rec, t0);
    TOUCH_PAD(e);
}

// ---- imma --------------------------------------------------------------------------------
static const int kISteps = 64, kIB = 4;

__global__ void k_imma(int *y, const int4 *__restrict__ a, const int2 *__restrict__ b, Rec *rec, float *out) {
    PAD;
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    int2 bf[kIB];
#pragma unroll
    for (int j = 0; j < kIB; ++j) bf[j] = b[j * 32 + lane];
    int acc[kIB][4];
#pragma unroll
    for (int j = 0; j < kIB; ++j) acc[j][0] = acc[j][1] = acc[j][2] = acc[j][3] = 0;
    size_t base = ((size_t)blockIdx.x * 4 + warp) * kISteps * 32;
    unsigned long long t0; rec_begin(t0);
#pragma unroll 2
    for (int k = 0; k < kISteps; ++k) {
        int4 av = a[base + (size_t)k * 32 + lane];
#pragma unroll
        for (int j = 0; j < kIB; ++j)
            asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                : "+r"(acc[j][0]), "+r"(acc[j][1]), "+r"(acc[j][2]), "+r"(acc[j][3])
                : "r"(av.x), "r"(av.y), "r"(av.z), "r"(av.w), "r"(bf[j].x), "r"(bf[j].y));
    }
    int s = 0;
#pragma unroll
    for (int j = 0; j < kIB; ++j) s ^= (acc[j][0] + 3 * acc[j][1] + 5 * acc[j][2] + 7 * acc[j][3]) * (j + 1);
    y[(size_t)blockIdx.x * 128 + threadIdx.x] = s;
    rec_end(rec, t0);
    float lf = (float)s;
    TOUCH_PAD(lf);
}

// ---- bank --------------------------------------------------------------------------------
static const int kQSteps = 64;
struct Q4 { float a, b, c, d; };

__global__ void k_bank(float *y, const float4 *__restrict__ x, Rec *rec, float *out) {
    PAD;
    __shared__ Q4 q[128];
    size_t base = (size_t)blockIdx.x * kQSteps * 128;
    unsigned nb = (threadIdx.x + 1u) & 127u;
    float last = 0;
    unsigned long long t0; rec_begin(t0);
    for (int k = 0; k < kQSteps; ++k) {
        size_t i = base + (size_t)k * 128 + threadIdx.x;
        float4 v = x[i];
        Q4 *mine = &q[threadIdx.x];
        mine->a = v.x; mine->b = v.y; mine->c = v.z; mine->d = v.w;
        __syncthreads();
        Q4 *other = &q[nb];
        float r = (other->a - v.x) * (other->b - v.y) + (other->c - v.z) * (other->d - v.w);
        __syncthreads();
        y[i] = r;
        last = r;
    }
    rec_end(rec, t0);
    TOUCH_PAD(last);
}

// ---- host --------------------------------------------------------------------------------
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
        for (auto &v : hx) v = g() & 0x3bff3bffu;  // finite floats of modest size
        CK(cudaMemcpy(x, hx.data(), nb, cudaMemcpyHostToDevice));
    }
    CK(cudaMemset(y, 0, nb));
    // tex: a 1024 x 1024 float image, bilinear filtering, clamp, unnormalised coordinates
    cudaTextureObject_t tex = 0;
    cudaArray_t arr = nullptr;
    if (which == "tex") {
        std::vector<float> img((size_t)kTDim * kTDim);
        for (size_t i = 0; i < img.size(); ++i) img[i] = 0.001f * (float)((i * 2654435761u) % 1000u);
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        CK(cudaMallocArray(&arr, &cd, kTDim, kTDim));
        CK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), kTDim * 4, kTDim * 4, kTDim, cudaMemcpyHostToDevice));
        cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = arr;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
        td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType; td.normalizedCoords = 0;
        CK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
    }
    int *bfr; CK(cudaMalloc(&bfr, kIB * 32 * 8));
    {
        std::vector<int> h(kIB * 32 * 2);
        for (size_t i = 0; i < h.size(); ++i) h[i] = (int)(0x01fe03fdu * (unsigned)(i + 1));
        CK(cudaMemcpy(bfr, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    }
    const float cs = 0.8660254f, sn = 0.5f;

    std::string o = getenv("OUT") ? getenv("OUT") : ".";
    FILE *f = nullptr, *fa = nullptr;
    if (!ncu && !check) {
        f = fopen((o + "/real12_" + which + ".csv").c_str(), "w");
        fa = fopen((o + "/attrs12_" + which + ".csv").c_str(), "w");
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
    curve("tex", k_tex, (double)kTSteps * 128, "points",
          [&](int g, size_t sm) { k_tex<<<g, 128, sm>>>((float *)y, tex, cs, sn, drec, dout); });
    curve("dsmem", k_dsmem, (double)kXSteps * 128, "elements", [&](int g, size_t sm) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(g); cfg.blockDim = dim3(128); cfg.dynamicSmemBytes = sm; cfg.stream = 0;
        cudaLaunchAttribute la[1];
        la[0].id = cudaLaunchAttributeClusterDimension;
        la[0].val.clusterDim.x = 2; la[0].val.clusterDim.y = 1; la[0].val.clusterDim.z = 1;
        cfg.attrs = la; cfg.numAttrs = 1;
        CK(cudaLaunchKernelEx(&cfg, k_dsmem, (float *)y, (const float *)x, drec, dout));
    });
    curve("bulk", k_bulk, (double)kUSteps * kUTile, "floats",
          [&](int g, size_t sm) { k_bulk<<<g, 128, sm>>>((float4 *)y, (const float *)x, 1.5f, drec, dout); });
    curve("bytes", k_bytes, (double)kBSteps * 128, "elements", [&](int g, size_t sm) {
        k_bytes<<<g, 128, sm>>>((float *)y, (const unsigned char *)x, (const unsigned short *)((char *)x + nb / 2), 0.25f, drec, dout);
    });
    curve("idiv", k_idiv, (double)kDSteps * 128, "elements",
          [&](int g, size_t sm) { k_idiv<<<g, 128, sm>>>((unsigned *)y, (const unsigned *)x, 3u, drec, dout); });
    curve("bf16", k_bf16, (double)kHSteps * 128, "float4", [&](int g, size_t sm) {
        k_bf16<<<g, 128, sm>>>((uint2 *)y, (uint2 *)((char *)y + nb / 2), dout, (const float4 *)x, drec, dout);
    });
    curve("imma", k_imma, (double)kISteps * 4 * kIB, "warp-mma",
          [&](int g, size_t sm) { k_imma<<<g, 128, sm>>>((int *)y, (const int4 *)x, (const int2 *)bfr, drec, dout); });
    curve("bank", k_bank, (double)kQSteps * 128, "elements",
          [&](int g, size_t sm) { k_bank<<<g, 128, sm>>>((float *)y, (const float4 *)x, drec, dout); });
    if (f) fclose(f);
    if (fa) fclose(fa);
    if (check) {  // after the B = 8 launch: a few outputs against the host
        std::vector<unsigned> hy(1024);
        CK(cudaMemcpy(hy.data(), y, hy.size() * 4, cudaMemcpyDeviceToHost));
        auto fl = [](unsigned u) { float v; memcpy(&v, &u, 4); return v; };
        int bad = 0;
        for (int i = 0; i < 1024; ++i) {
            unsigned want = hy[i];
            if (which == "idiv") { unsigned v = hx[i], d = 3u + ((v >> 24) & 63u), n = v & 0xffffffu; want = n / d * 3u + n % d; }
            else if (which == "bulk") { float r = fl(hx[i]) * 1.5f; memcpy(&want, &r, 4); }
            else if (which == "bytes") {
                unsigned char a8; unsigned short b16;
                memcpy(&a8, (const char *)hx.data() + i, 1); memcpy(&b16, (const char *)hx.data() + nb / 2 + 2 * (size_t)i, 2);
                float r = (float)a8 * 0.25f + (float)b16; memcpy(&want, &r, 4);
            } else if (which == "dsmem") {
                int b = i / (kXSteps * 128) , t = i % 128;  // i < 1024: block 0, step i / 128
                int peerb = b ^ 1, k = (i / 128) % kXSteps, nbt = (t + 1) & 127;
                float a0 = fl(hx[i]), b0 = fl(hx[(size_t)peerb * kXSteps * 128 + (size_t)k * 128 + nbt]);
                float r = a0 * 0.75f + b0 * 0.25f, rf = fmaf(a0, 0.75f, b0 * 0.25f), rg = fmaf(b0, 0.25f, a0 * 0.75f);
                memcpy(&want, &r, 4);
                if (fl(hy[i]) == rf || fl(hy[i]) == rg) want = hy[i];
            } else break;
            if (want != hy[i]) { if (bad < 4) printf("%s y[%d] device %08x host %08x\n", which.c_str(), i, hy[i], want); bad++; }
        }
        printf("%s check: %d of 1024 differ\n", which.c_str(), bad);
    }
    if (tex) CK(cudaDestroyTextureObject(tex));
    if (arr) CK(cudaFreeArray(arr));
    printf("done %s %s\n", mode.c_str(), which.c_str());
    return 0;
}
